/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Content protection (HDCP) on a display connector whose simulated sink
 * is HDCP-capable: the "Content Protection" and "HDCP Content Type"
 * properties, honoured by a simulated authentication (atomkms_hdcp.c).
 */
#ifndef ATOMKMS_HDCP_H
#define ATOMKMS_HDCP_H

#include <linux/spinlock.h>
#include <linux/types.h>

#include "atomkms_compat.h"
#include <linux/workqueue.h>

struct dentry;
struct drm_atomic_commit;
struct drm_connector;

/**
 * struct atomkms_hdcp - one connector's link encryption
 * @connector: its connector
 * @work: authenticates (when @deadline comes) and sets the property to
 *        what the link is (ENABLED or DESIRED), with the uevent; never
 *        cancelled with a lock held that it takes itself
 * @lock: protects every field below (taken inside the connection_mutex)
 * @version: what the sink does: %ATOMKMS_TOPO_HDCP_NONE, _1_4 or _2_2;
 *           fixed for the device's life
 * @delay_ms: how long an authentication takes
 * @desired: the committed state asks for protection (DESIRED or ENABLED)
 * @type: the committed HDCP Content Type (type 1 needs HDCP 2.2)
 * @pipe_on: the connector drives an active CRTC, as last committed
 * @connected: the sink is plugged in
 * @link_ok: the link-status is GOOD
 * @authenticating: an authentication is under way, ending at @deadline
 * @encrypted: the link is authenticated and encrypted
 * @deadline: jiffies when the authentication under way succeeds
 * @dead: the device is released; nothing schedules @work any more
 */
struct atomkms_hdcp {
	struct drm_connector *connector;
	struct delayed_work work;
	spinlock_t lock; /* the fields below */
	u8 version;
	unsigned int delay_ms;
	bool desired;
	u8 type;
	bool pipe_on;
	bool connected;
	bool link_ok;
	bool authenticating;
	bool encrypted;
	unsigned long deadline;
	bool dead;
};

int atomkms_hdcp_init(struct atomkms_hdcp *hdcp,
		      struct drm_connector *connector, u8 version,
		      unsigned int delay_ms, bool connected);
int atomkms_hdcp_atomic_check(struct atomkms_hdcp *hdcp,
			      struct drm_atomic_commit *state);
void atomkms_hdcp_commit(struct drm_atomic_commit *state);
void atomkms_hdcp_set_connected(struct atomkms_hdcp *hdcp, bool connected);
void atomkms_hdcp_set_link_ok(struct atomkms_hdcp *hdcp, bool ok);
void atomkms_hdcp_set_delay(struct atomkms_hdcp *hdcp, unsigned int delay_ms);
void atomkms_hdcp_debugfs_init(struct atomkms_hdcp *hdcp, struct dentry *root);

#endif /* ATOMKMS_HDCP_H */
