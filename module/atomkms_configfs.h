/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * configfs devices (atomkms_configfs.c), their planes' attributes
 * (atomkms_configfs_plane.c) and their connectors' attributes
 * (atomkms_configfs_connector.c): what the files share.
 */
#ifndef ATOMKMS_CONFIGFS_H
#define ATOMKMS_CONFIGFS_H

#include <linux/configfs.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include "atomkms_topology.h"

struct platform_device;

/**
 * struct atomkms_cfs_connector - a connector's attributes beyond status
 * @type: DRM connector type, 0 for the default (Virtual)
 * @non_desktop: a headset
 * @no_vrr: no adaptive sync (the vrr attribute, 1 by default)
 * @edid_enabled: the device uses @edid, not the generated EDID
 * @link_bad: link-status is BAD (while disabled: once enabled)
 * @hdcp: the monitor's HDCP, %ATOMKMS_TOPO_HDCP_NONE, _1_4 or _2_2
 * @hdcp_delay_ms: how long its authentication takes, 0 for the default
 * @bpc: the monitor's bits per colour channel, 0 for the default (10)
 * @hdr: the monitor does HDR (atomkms_hdr.c)
 * @pref_width: preferred mode width, 0 for the default (1920x1080)
 * @pref_height: its height
 * @pref_refresh: its refresh, 0 for its CRTC's
 * @edid: the EDID written (checked whole), or NULL
 * @edid_len: its bytes
 * @tile: its tile of a tiled monitor: group (0: none), tiles across,
 *        tiles down (0: 1), column, row (&struct atomkms_config's)
 */
struct atomkms_cfs_connector {
	u8 type;
	bool non_desktop;
	bool no_vrr;
	bool edid_enabled;
	bool link_bad;
	u8 hdcp;
	u16 hdcp_delay_ms;
	u8 bpc;
	bool hdr;
	u16 pref_width, pref_height, pref_refresh;
	u8 *edid;
	u32 edid_len;
	u8 tile[5];
};

/**
 * struct atomkms_cfs_device - one configfs device
 * @group: DEVICE/
 * @planes: DEVICE/planes/
 * @crtcs: DEVICE/crtcs/
 * @encoders: DEVICE/encoders/
 * @connectors: DEVICE/connectors/
 * @lock: protects everything below and every object's attributes and links
 * @plane_list: the planes, in the order they were made (so are the others)
 * @crtc_list: the CRTCs
 * @encoder_list: the encoders
 * @connector_list: the connectors
 * @pdev: the enabled device, or NULL
 * @limits: the simulated limits' preset (atomkms_limits_preset()), ""
 *          for none
 * @max_active_planes: a limit replacing the preset's, or
 *                     %ATOMKMS_LIMIT_NONE (keep the preset's)
 * @num_plls: likewise
 * @bandwidth_mbps: likewise
 */
struct atomkms_cfs_device {
	struct config_group group;
	struct config_group planes;
	struct config_group crtcs;
	struct config_group encoders;
	struct config_group connectors;
	struct mutex lock; /* see @lock above */
	struct list_head plane_list;
	struct list_head crtc_list;
	struct list_head encoder_list;
	struct list_head connector_list;
	struct platform_device *pdev;
	char limits[16];
	u32 max_active_planes;
	u32 num_plls;
	u32 bandwidth_mbps;
};

/**
 * struct atomkms_cfs_links - a group of links to other objects
 * @group: the group (possible_crtcs/ or possible_encoders/)
 * @targets: the objects linked to
 * @num: entries of @targets
 */
struct atomkms_cfs_links {
	struct config_group group;
	struct config_item *targets[ATOMKMS_TOPO_MAX_ENCODERS];
	u32 num;
};

/**
 * struct atomkms_cfs_object - a plane, CRTC, encoder or connector
 * @group: its directory
 * @links: its possible_crtcs/ or possible_encoders/ (not for a CRTC)
 * @dev: the device it belongs to
 * @node: in its device's list of its kind
 * @value: the plane's type, the CRTC's writeback, the connector's status
 *         (1 connected, 2 disconnected)
 * @refresh: the CRTC's refresh rate in Hz
 * @index: the connector's index in the enabled device's topology
 * @num_scalers: the CRTC's scalers (the limits' num_scalers), or
 *               %ATOMKMS_LIMIT_NONE (keep the preset's)
 * @conn: a connector's own attributes (atomkms_configfs_connector.c)
 * @plane: a plane's capabilities (atomkms_configfs_plane.c)
 */
struct atomkms_cfs_object {
	struct config_group group;
	struct atomkms_cfs_links links;
	struct atomkms_cfs_device *dev;
	struct list_head node;
	u32 value;
	u32 refresh;
	u32 index;
	u32 num_scalers;
	struct atomkms_cfs_connector conn;
	struct atomkms_config_plane_caps plane;
};

#define ATOMKMS_CFS_CONNECTED		1
#define ATOMKMS_CFS_DISCONNECTED	2

static inline struct atomkms_cfs_device *to_cfs_device(struct config_item *item)
{
	return container_of(to_config_group(item), struct atomkms_cfs_device,
			    group);
}

static inline struct atomkms_cfs_object *to_cfs_object(struct config_item *item)
{
	return container_of(to_config_group(item), struct atomkms_cfs_object,
			    group);
}

static inline struct atomkms_cfs_links *to_cfs_links(struct config_item *item)
{
	return container_of(to_config_group(item), struct atomkms_cfs_links,
			    group);
}

extern struct configfs_attribute *atomkms_cfs_connector_attrs[];
extern struct configfs_attribute *atomkms_cfs_plane_attrs[];
struct atomkms_device *atomkms_cfs_get_akdev(struct atomkms_cfs_object *obj);
void atomkms_cfs_put_akdev(struct atomkms_cfs_object *obj);
int atomkms_cfs_refuse(struct atomkms_cfs_object *obj, const char *attr,
		       int err, const char *why);
int atomkms_cfs_lock_disabled(struct atomkms_cfs_object *obj, const char *attr);
ssize_t atomkms_cfs_show(struct config_item *item, char *page,
			 const u32 *field);
void atomkms_cfs_connector_config(struct atomkms_cfs_object *obj,
				  struct atomkms_config *c, u32 i);
void atomkms_cfs_connector_enabled(struct atomkms_cfs_device *dev);
void atomkms_cfs_connector_release(struct atomkms_cfs_object *obj);
void atomkms_cfs_plane_config(struct atomkms_cfs_object *obj,
			      struct atomkms_config *c, u32 i);

#endif /* ATOMKMS_CONFIGFS_H */
