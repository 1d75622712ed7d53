// SPDX-License-Identifier: GPL-2.0-only
/*
 * Content protection: a simulated HDCP transmitter on each display
 * connector whose sink the topology says is HDCP-capable.
 *
 * Userspace sets "Content Protection" to DESIRED (and "HDCP Content
 * Type" to 0 or 1); once the connector drives an active CRTC, with the
 * sink plugged in and the link good, an authentication starts and takes
 * the sink's delay (hdcp_delay_ms); then the link counts as encrypted
 * and the property becomes ENABLED. Unplugging the sink, a link that
 * fails (link-status BAD), a modeset of its CRTC, a disabled CRTC or a
 * change of content type end the encryption: ENABLED falls back to
 * DESIRED, and authentication starts again as soon as it can, as the
 * property's documentation asks of drivers. Type 1 content needs an
 * HDCP 2.2 sink: on an HDCP 1.4 one the property stays DESIRED. UNDESIRED
 * stops it all.
 *
 * As in i915, atomic_check fixes the property in the new state (ENABLED
 * cannot survive a modeset or a type change: it becomes DESIRED; a
 * DESIRED written over ENABLED that changes nothing stays ENABLED), and
 * the commit, after the CRTCs and planes are programmed, tells the state
 * machine what was committed (atomkms_hdcp_commit()). The kernel's own
 * changes of the property (DESIRED to ENABLED, ENABLED to DESIRED) are
 * written by one delayed work into the connector's current state under
 * the connection_mutex, and each sends the uevent
 * drm_hdcp_update_content_protection() sends (HOTPLUG=1, CONNECTOR=,
 * PROPERTY=), through drm_sysfs_connector_property_event(), which the
 * DRM core exports in every configuration. The debug kernel lacks
 * CONFIG_DRM_DISPLAY_HDCP_HELPER, and with it
 * drm_hdcp_update_content_protection() and
 * drm_connector_attach_content_protection_property(): the properties are
 * made here with the core's calls, as that helper makes them (same names,
 * values and &drm_mode_config fields, which the core's atomic uAPI reads),
 * one code path on both kernels.
 *
 * Nothing waits for the work while holding a lock it takes: commits and
 * hotplugs only update the state under @lock and (re)queue it; the
 * device's release, when no commit is left, cancels it for good.
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>

#include <drm/drm_atomic.h>
#include <drm/drm_connector.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/drm_sysfs.h>
#include <drm/display/drm_hdcp.h>

#include "atomkms_drv.h"

static const char *const atomkms_hdcp_cp_names[] = {
	[DRM_MODE_CONTENT_PROTECTION_UNDESIRED] = "UNDESIRED",
	[DRM_MODE_CONTENT_PROTECTION_DESIRED] = "DESIRED",
	[DRM_MODE_CONTENT_PROTECTION_ENABLED] = "ENABLED",
};

/* The properties' values, named as the DRM core's HDCP helper names them. */
static const struct drm_prop_enum_list atomkms_hdcp_cp_enum[] = {
	{ DRM_MODE_CONTENT_PROTECTION_UNDESIRED, "Undesired" },
	{ DRM_MODE_CONTENT_PROTECTION_DESIRED, "Desired" },
	{ DRM_MODE_CONTENT_PROTECTION_ENABLED, "Enabled" },
};

static const struct drm_prop_enum_list atomkms_hdcp_type_enum[] = {
	{ DRM_MODE_HDCP_CONTENT_TYPE0, "HDCP Type0" },
	{ DRM_MODE_HDCP_CONTENT_TYPE1, "HDCP Type1" },
};

/* Under @hdcp->lock: can the link be authenticated now? */
static bool atomkms_hdcp_can_run(const struct atomkms_hdcp *hdcp)
{
	return hdcp->desired && hdcp->pipe_on && hdcp->connected &&
	       hdcp->link_ok &&
	       (hdcp->type == DRM_MODE_HDCP_CONTENT_TYPE0 ||
		hdcp->version >= ATOMKMS_TOPO_HDCP_2_2);
}

/*
 * Under @hdcp->lock: stop what can no longer run (or everything, with
 * @restart), start an authentication if one can run, and queue the work
 * for its end, or at once if the link's state changed.
 */
static void atomkms_hdcp_update(struct atomkms_hdcp *hdcp, bool restart)
{
	bool was_encrypted = hdcp->encrypted;
	bool can = atomkms_hdcp_can_run(hdcp);
	long left = 0;

	if (restart || !can) {
		hdcp->authenticating = false;
		hdcp->encrypted = false;
	}
	if (can && !hdcp->authenticating && !hdcp->encrypted) {
		hdcp->authenticating = true;
		hdcp->deadline = jiffies + msecs_to_jiffies(hdcp->delay_ms);
		drm_dbg_kms(hdcp->connector->dev,
			    "[CONNECTOR:%d:%s] HDCP: authenticating (type %u, %u ms)\n",
			    hdcp->connector->base.id, hdcp->connector->name,
			    hdcp->type, hdcp->delay_ms);
	}
	if (hdcp->dead)
		return;
	if (hdcp->authenticating)
		left = max_t(long, (long)(hdcp->deadline - jiffies), 0);
	else if (was_encrypted == hdcp->encrypted)
		return;
	mod_delayed_work(system_percpu_wq, &hdcp->work, left);
}

/*
 * The work: end an authentication whose time has come, then make the
 * connector's current state say what the link is, with the uevent.
 * UNDESIRED is userspace's alone and is never touched.
 */
static void atomkms_hdcp_work(struct work_struct *work)
{
	struct atomkms_hdcp *hdcp =
		container_of(to_delayed_work(work), struct atomkms_hdcp, work);
	struct drm_connector *connector = hdcp->connector;
	struct drm_device *dev = connector->dev;
	struct drm_connector_state *state;
	u64 cp, want;
	int idx;

	if (!drm_dev_enter(dev, &idx))
		return;
	drm_modeset_lock(&dev->mode_config.connection_mutex, NULL);
	spin_lock(&hdcp->lock);
	if (hdcp->authenticating) {
		if (time_after_eq(jiffies, hdcp->deadline)) {
			hdcp->authenticating = false;
			hdcp->encrypted = true;
		} else if (!hdcp->dead) {
			/* Queued early to publish a change: the rest later. */
			mod_delayed_work(system_percpu_wq, &hdcp->work,
					 hdcp->deadline - jiffies);
		}
	}
	want = hdcp->encrypted ? DRM_MODE_CONTENT_PROTECTION_ENABLED :
	       DRM_MODE_CONTENT_PROTECTION_DESIRED;
	spin_unlock(&hdcp->lock);

	state = connector->state;
	cp = state->content_protection;
	if (cp != DRM_MODE_CONTENT_PROTECTION_UNDESIRED && cp != want)
		state->content_protection = want;
	drm_modeset_unlock(&dev->mode_config.connection_mutex);

	if (cp != DRM_MODE_CONTENT_PROTECTION_UNDESIRED && cp != want) {
		drm_dbg_kms(dev, "[CONNECTOR:%d:%s] HDCP: %s -> %s\n",
			    connector->base.id, connector->name,
			    atomkms_hdcp_cp_names[cp], atomkms_hdcp_cp_names[want]);
		drm_sysfs_connector_property_event(connector,
						   dev->mode_config.content_protection_property);
	}
	drm_dev_exit(idx);
}

/**
 * atomkms_hdcp_atomic_check - fix Content Protection in a new state
 * @hdcp: the connector's HDCP
 * @state: the state being checked, with the connector in it
 *
 * ENABLED stays ENABLED (even where userspace wrote DESIRED over it)
 * unless the commit ends the encryption: the connector loses its CRTC,
 * the CRTC goes off or through a modeset, the content type changes, or
 * the link is BAD. Then it becomes DESIRED, and the commit starts a new
 * authentication. Userspace cannot write ENABLED (the core refuses it
 * with -EINVAL) nor an unknown value (-EINVAL, the properties are enums).
 *
 * Return: 0.
 */
int atomkms_hdcp_atomic_check(struct atomkms_hdcp *hdcp,
			      struct drm_atomic_commit *state)
{
	struct drm_connector *connector = hdcp->connector;
	struct drm_connector_state *old =
		drm_atomic_get_old_connector_state(state, connector);
	struct drm_connector_state *new =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_crtc_state *crtc_state = NULL;
	bool ends;

	if (!hdcp->version ||
	    new->content_protection == DRM_MODE_CONTENT_PROTECTION_UNDESIRED ||
	    old->content_protection != DRM_MODE_CONTENT_PROTECTION_ENABLED)
		return 0;

	if (new->crtc)
		crtc_state = drm_atomic_get_new_crtc_state(state, new->crtc);
	ends = !new->crtc ||
	       (crtc_state && (!crtc_state->active ||
			       drm_atomic_crtc_needs_modeset(crtc_state))) ||
	       old->hdcp_content_type != new->hdcp_content_type ||
	       new->link_status == DRM_MODE_LINK_STATUS_BAD;
	new->content_protection = ends ? DRM_MODE_CONTENT_PROTECTION_DESIRED :
				  DRM_MODE_CONTENT_PROTECTION_ENABLED;
	if (ends)
		drm_dbg_kms(connector->dev,
			    "[CONNECTOR:%d:%s] HDCP: the commit ends the encryption\n",
			    connector->base.id, connector->name);
	return 0;
}

/**
 * atomkms_hdcp_commit - tell the connectors' HDCP what was committed
 * @state: the state just programmed (after the swap, in the commit tail)
 *
 * For each HDCP-capable connector in @state: whether protection is
 * wanted, which content type, whether it drives an active CRTC, the
 * link-status; authentication starts or stops accordingly. The fall back
 * from ENABLED to DESIRED that atomic_check decided is announced with
 * the uevent here. Takes no modeset lock, waits for nothing.
 */
void atomkms_hdcp_commit(struct drm_atomic_commit *state)
{
	struct drm_property *cp_prop =
		state->dev->mode_config.content_protection_property;
	struct drm_connector_state *old, *new;
	struct drm_connector *connector;
	int i;

	for_each_oldnew_connector_in_state(state, connector, old, new, i) {
		struct atomkms_hdcp *hdcp = atomkms_output_hdcp(connector);
		struct drm_crtc_state *crtc_state = NULL;
		bool restart = false, fell;

		if (!hdcp)
			continue;
		if (new->crtc)
			crtc_state = drm_atomic_get_new_crtc_state(state, new->crtc);
		fell = old->content_protection == DRM_MODE_CONTENT_PROTECTION_ENABLED &&
		       new->content_protection == DRM_MODE_CONTENT_PROTECTION_DESIRED;

		spin_lock(&hdcp->lock);
		if (!new->crtc) {
			hdcp->pipe_on = false;
		} else if (crtc_state) {
			hdcp->pipe_on = crtc_state->active;
			restart = drm_atomic_crtc_needs_modeset(crtc_state);
		}
		hdcp->desired = new->content_protection !=
				DRM_MODE_CONTENT_PROTECTION_UNDESIRED;
		restart |= hdcp->type != new->hdcp_content_type || fell;
		hdcp->type = new->hdcp_content_type;
		hdcp->link_ok = new->link_status != DRM_MODE_LINK_STATUS_BAD;
		atomkms_hdcp_update(hdcp, restart);
		spin_unlock(&hdcp->lock);

		if (fell)
			drm_sysfs_connector_property_event(connector, cp_prop);
	}
}

/**
 * atomkms_hdcp_set_connected - the sink is plugged in or out
 * @hdcp: the connector's HDCP
 * @connected: plugged in
 *
 * Unplugged, the encryption ends (ENABLED falls back to DESIRED, with
 * the uevent); plugged in again, a DESIRED link authenticates again.
 */
void atomkms_hdcp_set_connected(struct atomkms_hdcp *hdcp, bool connected)
{
	spin_lock(&hdcp->lock);
	hdcp->connected = connected;
	atomkms_hdcp_update(hdcp, false);
	spin_unlock(&hdcp->lock);
}

/**
 * atomkms_hdcp_set_link_ok - the link failed, or is good again
 * @hdcp: the connector's HDCP
 * @ok: the link-status is GOOD
 *
 * As set_connected: a failed link ends the encryption; a good one
 * (userspace's commit that resets link-status, or configfs) starts it.
 */
void atomkms_hdcp_set_link_ok(struct atomkms_hdcp *hdcp, bool ok)
{
	spin_lock(&hdcp->lock);
	hdcp->link_ok = ok;
	atomkms_hdcp_update(hdcp, false);
	spin_unlock(&hdcp->lock);
}

/**
 * atomkms_hdcp_set_delay - how long authentications take from now on
 * @hdcp: the connector's HDCP
 * @delay_ms: milliseconds, already checked (1 to ATOMKMS_TOPO_HDCP_MAX_DELAY_MS)
 */
void atomkms_hdcp_set_delay(struct atomkms_hdcp *hdcp, unsigned int delay_ms)
{
	spin_lock(&hdcp->lock);
	hdcp->delay_ms = delay_ms;
	spin_unlock(&hdcp->lock);
}

/*
 * debugfs hdcp_sink_capability: what the sink says it does, as i915's
 * i915_hdcp_sink_capability puts it ("HDCP1.4 HDCP2.2", or "None");
 * -ENODEV without a sink, as a DDC read would fail.
 */
static int atomkms_hdcp_sink_capability_show(struct seq_file *m, void *data)
{
	struct atomkms_hdcp *hdcp = m->private;
	bool connected;

	spin_lock(&hdcp->lock);
	connected = hdcp->connected;
	spin_unlock(&hdcp->lock);
	if (!connected)
		return -ENODEV;
	switch (hdcp->version) {
	case ATOMKMS_TOPO_HDCP_2_2:
		seq_puts(m, "HDCP1.4 HDCP2.2\n");
		break;
	case ATOMKMS_TOPO_HDCP_1_4:
		seq_puts(m, "HDCP1.4\n");
		break;
	default:
		seq_puts(m, "None\n");
		break;
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(atomkms_hdcp_sink_capability);

/**
 * atomkms_hdcp_debugfs_init - the connector's hdcp_sink_capability file
 * @hdcp: the connector's HDCP
 * @root: the connector's debugfs directory
 */
void atomkms_hdcp_debugfs_init(struct atomkms_hdcp *hdcp, struct dentry *root)
{
	debugfs_create_file("hdcp_sink_capability", 0444, root, hdcp,
			    &atomkms_hdcp_sink_capability_fops);
}

/* The device is released: no commit is left to queue the work again. */
static void atomkms_hdcp_fini(struct drm_device *drm, void *data)
{
	struct atomkms_hdcp *hdcp = data;

	spin_lock(&hdcp->lock);
	hdcp->dead = true;
	spin_unlock(&hdcp->lock);
	cancel_delayed_work_sync(&hdcp->work);
}

/**
 * atomkms_hdcp_init - a connector's HDCP, and its properties if capable
 * @hdcp: the connector's HDCP, zeroed
 * @connector: the connector, initialised
 * @version: what its sink does (%ATOMKMS_TOPO_HDCP_NONE: no properties)
 * @delay_ms: how long an authentication takes
 * @connected: the sink is plugged in
 *
 * An HDCP-capable connector gets "Content Protection" and "HDCP Content
 * Type" (the transmitter does HDCP 2.2; a 1.4 sink limits it to type 0).
 *
 * Return: 0 or a negative errno.
 */
int atomkms_hdcp_init(struct atomkms_hdcp *hdcp,
		      struct drm_connector *connector, u8 version,
		      unsigned int delay_ms, bool connected)
{
	struct drm_device *dev = connector->dev;
	struct drm_mode_config *config = &dev->mode_config;
	struct drm_property *cp, *type;
	int ret;

	hdcp->connector = connector;
	spin_lock_init(&hdcp->lock);
	INIT_DELAYED_WORK(&hdcp->work, atomkms_hdcp_work);
	hdcp->version = version;
	hdcp->delay_ms = delay_ms;
	hdcp->connected = connected;
	hdcp->link_ok = true;
	ret = drmm_add_action_or_reset(dev, atomkms_hdcp_fini, hdcp);
	if (ret || version == ATOMKMS_TOPO_HDCP_NONE)
		return ret;

	cp = config->content_protection_property;
	if (!cp)
		cp = drm_property_create_enum(dev, 0, "Content Protection",
					      atomkms_hdcp_cp_enum,
					      ARRAY_SIZE(atomkms_hdcp_cp_enum));
	type = config->hdcp_content_type_property;
	if (!type)
		type = drm_property_create_enum(dev, 0, "HDCP Content Type",
						atomkms_hdcp_type_enum,
						ARRAY_SIZE(atomkms_hdcp_type_enum));
	if (cp)
		config->content_protection_property = cp;
	if (type)
		config->hdcp_content_type_property = type;
	if (!cp || !type)
		return -ENOMEM;
	drm_object_attach_property(&connector->base, cp,
				   DRM_MODE_CONTENT_PROTECTION_UNDESIRED);
	drm_object_attach_property(&connector->base, type,
				   DRM_MODE_HDCP_CONTENT_TYPE0);
	return 0;
}
