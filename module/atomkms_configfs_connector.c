// SPDX-License-Identifier: GPL-2.0-only
/*
 * A configfs connector's attributes, DEVICE/connectors/N/:
 *
 *   status          1 connected, 2 disconnected (vkms's); live: hotplug
 *   type            DRM's connector type name: Virtual, HDMI-A, DP, eDP, ...
 *   edid            the monitor's whole EDID in one write; live: hotplug
 *   edid_enabled    1: the device uses edid, 0: the generated EDID; live
 *   preferred_mode  WIDTHxHEIGHT[@REFRESH] of the generated EDID
 *   non_desktop     1: a headset (the non-desktop property)
 *   vrr             1 (default): adaptive sync within the EDID's range
 *                   (vrr_capable); 0: a fixed-rate monitor
 *   link_status     good or bad (link-status BAD and a hotplug); live
 *   hdcp            the monitor's HDCP: none, 1.4 or 2.2 (atomkms_hdcp.c)
 *   hdcp_delay_ms   how long its HDCP authentication takes, 1 to 10000;
 *                   live, from the next authentication on
 *   tile_group      0 (default), or 1-255: the tiled monitor it is a tile
 *                   of (atomkms_tile.c); tiles_across, tiles_down 1-16
 *                   (1), tile_h_loc, tile_v_loc 0-15 (0): its grid and
 *                   its place in it; the tile's size is preferred_mode
 *   bpc             the monitor's bits per colour channel, which its
 *                   generated EDID declares: 8 to 16, even (default 10)
 *   hdr             1 (default): an HDR monitor (HDR_OUTPUT_METADATA,
 *                   Colorspace, an HDR static metadata block in the
 *                   generated EDID: atomkms_hdr.c); 0: an SDR monitor
 *
 * "live" attributes may change while the device is enabled; the others
 * answer -EBUSY then. A live status, EDID and HDCP delay stay with the
 * platform device (atomkms_monitor.c): unbound and bound again through
 * sysfs, the device has them still. Every refused write answers an errno and logs why
 * (drm_dbg_driver() on an enabled device, else pr_debug()). Values are
 * checked with the topology's own rules (atomkms_topology.c), and go into
 * &struct atomkms_config when the device is enabled.
 */
#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_print.h>

#include "atomkms_drv.h"
#include "atomkms_configfs.h"

/*
 * Under the device's lock, on an enabled device: the monitor's EDID, kept
 * with the platform device (a bind after an unbind keeps it) and taken by
 * the bound device at once.
 */
static int atomkms_cfs_push_edid(struct atomkms_cfs_object *obj,
				 const u8 *edid, u32 len)
{
	return atomkms_monitor_set_edid(obj->dev->pdev, obj->index, edid, len);
}

static void atomkms_cfs_push_link(struct atomkms_cfs_object *obj)
{
	struct atomkms_device *akdev = atomkms_cfs_get_akdev(obj);

	if (!akdev)
		return;
	atomkms_output_set_link_status(akdev, obj->index, obj->conn.link_bad);
	atomkms_cfs_put_akdev(obj);
}

static ssize_t atomkms_cfs_connector_status_show(struct config_item *item,
						 char *page)
{
	return atomkms_cfs_show(item, page, &to_cfs_object(item)->value);
}

/* A bool field of a connector, read under the device's lock. */
static ssize_t atomkms_cfs_show_bool(struct config_item *item, char *page,
				     const bool *field)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool v;

	mutex_lock(&obj->dev->lock);
	v = *field;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%d\n", v);
}

static ssize_t atomkms_cfs_connector_status_store(struct config_item *item,
						  const char *page,
						  size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 v;
	int ret;

	ret = kstrtou32(page, 0, &v);
	if (!ret && v != ATOMKMS_CFS_CONNECTED && v != ATOMKMS_CFS_DISCONNECTED)
		ret = -EINVAL;
	mutex_lock(&obj->dev->lock);
	if (ret) {
		atomkms_cfs_refuse(obj, "status", ret,
				   "1 (connected) or 2 (disconnected)");
	} else {
		obj->value = v;
		if (obj->dev->pdev)
			atomkms_monitor_set_connected(obj->dev->pdev, obj->index,
						      v == ATOMKMS_CFS_CONNECTED);
	}
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_type_show(struct config_item *item,
					       char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 type;

	mutex_lock(&obj->dev->lock);
	type = obj->conn.type ? obj->conn.type : ATOMKMS_TOPO_CONN_VIRTUAL;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%s\n", atomkms_topo_connector_type_name(type));
}

static ssize_t atomkms_cfs_connector_type_store(struct config_item *item,
						const char *page, size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	int type = atomkms_topo_connector_type(page, count);
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "type");
	if (ret)
		return ret;
	if (type < 0)
		ret = atomkms_cfs_refuse(obj, "type", -EINVAL,
					 "not a connector type DRM names (Virtual, HDMI-A, DP, eDP, ...)");
	else
		obj->conn.type = type;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_edid_show(struct config_item *item,
					       char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 len;

	mutex_lock(&obj->dev->lock);
	len = obj->conn.edid_len;
	if (len)
		memcpy(page, obj->conn.edid, len);
	mutex_unlock(&obj->dev->lock);
	return len;
}

/*
 * The whole EDID in one write (configfs hands a regular attribute at most
 * 4095 bytes of a write: 31 blocks). A lone newline forgets it (and sets
 * edid_enabled to 0). On an enabled device that uses it, the connector
 * takes it at once, if DRM's parser accepts it too.
 */
static ssize_t atomkms_cfs_connector_edid_store(struct config_item *item,
						const char *page, size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool clear = count == 1 && page[0] == '\n';
	const char *why = NULL;
	u8 *edid = NULL;
	int ret = 0;

	if (!clear) {
		why = atomkms_topo_check_edid((const u8 *)page, count);
		if (!why)
			ret = atomkms_output_check_edid((const u8 *)page, count);
		if (ret == -EINVAL)
			why = "DRM's EDID parser refuses it";
		else if (ret)
			return ret;
		edid = why ? NULL : kmemdup(page, count, GFP_KERNEL);
		if (!why && !edid)
			return -ENOMEM;
	}
	mutex_lock(&obj->dev->lock);
	if (why) {
		ret = atomkms_cfs_refuse(obj, "edid", -EINVAL, why);
		goto out;
	}
	if (obj->dev->pdev && obj->conn.edid_enabled)
		ret = atomkms_cfs_push_edid(obj, edid, clear ? 0 : count);
	if (ret) {
		atomkms_cfs_refuse(obj, "edid", ret, "DRM's EDID parser refuses it");
		kfree(edid);
		goto out;
	}
	kfree(obj->conn.edid);
	obj->conn.edid = edid;
	obj->conn.edid_len = clear ? 0 : count;
	if (clear)
		obj->conn.edid_enabled = false;
out:
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_edid_enabled_show(struct config_item *item,
						       char *page)
{
	return atomkms_cfs_show_bool(item, page,
				     &to_cfs_object(item)->conn.edid_enabled);
}

static ssize_t atomkms_cfs_connector_edid_enabled_store(struct config_item *item,
							const char *page,
							size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool v;
	int ret;

	ret = kstrtobool(page, &v);
	mutex_lock(&obj->dev->lock);
	if (ret) {
		atomkms_cfs_refuse(obj, "edid_enabled", ret, "0 or 1");
		goto out;
	}
	if (v && !obj->conn.edid) {
		ret = atomkms_cfs_refuse(obj, "edid_enabled", -ENODATA,
					 "no EDID written yet");
		goto out;
	}
	if (obj->dev->pdev && v != obj->conn.edid_enabled)
		ret = atomkms_cfs_push_edid(obj, v ? obj->conn.edid : NULL,
					    obj->conn.edid_len);
	if (ret)
		atomkms_cfs_refuse(obj, "edid_enabled", ret,
				   "DRM's EDID parser refuses it");
	else
		obj->conn.edid_enabled = v;
out:
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_preferred_mode_show(struct config_item *item,
							 char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	struct atomkms_cfs_connector c;

	mutex_lock(&obj->dev->lock);
	c = obj->conn;
	mutex_unlock(&obj->dev->lock);
	if (!c.pref_width)
		return sprintf(page, "1920x1080\n");
	if (!c.pref_refresh)
		return sprintf(page, "%ux%u\n", c.pref_width, c.pref_height);
	return sprintf(page, "%ux%u@%u\n", c.pref_width, c.pref_height,
		       c.pref_refresh);
}

static ssize_t atomkms_cfs_connector_preferred_mode_store(struct config_item *item,
							  const char *page,
							  size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	const char *why = NULL;
	u16 w, h, hz;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "preferred_mode");
	if (ret)
		return ret;
	ret = atomkms_topo_parse_mode(page, count, &w, &h, &hz, &why);
	if (ret) {
		ret = atomkms_cfs_refuse(obj, "preferred_mode", -EINVAL, why);
	} else {
		obj->conn.pref_width = w;
		obj->conn.pref_height = h;
		obj->conn.pref_refresh = hz;
	}
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_non_desktop_show(struct config_item *item,
						      char *page)
{
	return atomkms_cfs_show_bool(item, page,
				     &to_cfs_object(item)->conn.non_desktop);
}

/*
 * A bool attribute of a disabled device's connector: 0 or 1 (EINVAL else),
 * stored in @field under the device's lock, negated if @invert.
 */
static ssize_t atomkms_cfs_store_bool(struct config_item *item,
				      const char *page, size_t count,
				      const char *attr, bool *field, bool invert)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool v;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, attr);
	if (ret)
		return ret;
	ret = kstrtobool(page, &v);
	if (ret)
		atomkms_cfs_refuse(obj, attr, ret, "0 or 1");
	else
		*field = v != invert;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_non_desktop_store(struct config_item *item,
						       const char *page,
						       size_t count)
{
	return atomkms_cfs_store_bool(item, page, count, "non_desktop",
				      &to_cfs_object(item)->conn.non_desktop,
				      false);
}

static ssize_t atomkms_cfs_connector_vrr_show(struct config_item *item,
					      char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool v;

	mutex_lock(&obj->dev->lock);
	v = !obj->conn.no_vrr;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%d\n", v);
}

static ssize_t atomkms_cfs_connector_vrr_store(struct config_item *item,
					       const char *page, size_t count)
{
	return atomkms_cfs_store_bool(item, page, count, "vrr",
				      &to_cfs_object(item)->conn.no_vrr, true);
}

/* On an enabled device, what the property says (userspace may reset it). */
static ssize_t atomkms_cfs_connector_link_status_show(struct config_item *item,
						      char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	struct atomkms_device *akdev;
	bool bad;

	mutex_lock(&obj->dev->lock);
	bad = obj->conn.link_bad;
	akdev = obj->dev->pdev ? atomkms_cfs_get_akdev(obj) : NULL;
	if (akdev) {
		bad = atomkms_output_link_bad(akdev, obj->index);
		atomkms_cfs_put_akdev(obj);
	}
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%s\n", bad ? "bad" : "good");
}

static ssize_t atomkms_cfs_connector_link_status_store(struct config_item *item,
						       const char *page,
						       size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool bad = sysfs_streq(page, "bad");
	int ret = 0;

	mutex_lock(&obj->dev->lock);
	if (!bad && !sysfs_streq(page, "good")) {
		ret = atomkms_cfs_refuse(obj, "link_status", -EINVAL,
					 "good or bad");
	} else {
		obj->conn.link_bad = bad;
		if (obj->dev->pdev)
			atomkms_cfs_push_link(obj);
	}
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static const char *const atomkms_cfs_hdcp_names[] = {
	[ATOMKMS_TOPO_HDCP_NONE] = "none",
	[ATOMKMS_TOPO_HDCP_1_4] = "1.4",
	[ATOMKMS_TOPO_HDCP_2_2] = "2.2",
};

static ssize_t atomkms_cfs_connector_hdcp_show(struct config_item *item,
					       char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u8 v;

	mutex_lock(&obj->dev->lock);
	v = obj->conn.hdcp;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%s\n", atomkms_cfs_hdcp_names[v]);
}

/* The monitor's HDCP: none, 1.4 or 2.2 (type 1 content needs 2.2). */
static ssize_t atomkms_cfs_connector_hdcp_store(struct config_item *item,
						const char *page, size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	int v = sysfs_match_string(atomkms_cfs_hdcp_names, page);
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "hdcp");
	if (ret)
		return ret;
	if (v < 0)
		ret = atomkms_cfs_refuse(obj, "hdcp", -EINVAL, "none, 1.4 or 2.2");
	else
		obj->conn.hdcp = v;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_hdcp_delay_ms_show(struct config_item *item,
							char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u16 v;

	mutex_lock(&obj->dev->lock);
	v = obj->conn.hdcp_delay_ms;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%u\n", v ? v : ATOMKMS_TOPO_HDCP_DELAY_MS);
}

/*
 * How long the monitor's HDCP authentication takes, in ms; on an enabled
 * device, from the next authentication on.
 */
static ssize_t atomkms_cfs_connector_hdcp_delay_ms_store(struct config_item *item,
							 const char *page,
							 size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 v;
	int ret;

	ret = kstrtou32(page, 0, &v);
	if (!ret && (v < 1 || v > ATOMKMS_TOPO_HDCP_MAX_DELAY_MS))
		ret = -ERANGE;
	mutex_lock(&obj->dev->lock);
	if (ret) {
		atomkms_cfs_refuse(obj, "hdcp_delay_ms", ret,
				   "milliseconds, 1 to 10000");
	} else {
		obj->conn.hdcp_delay_ms = v;
		if (obj->dev->pdev)
			atomkms_monitor_set_hdcp_delay(obj->dev->pdev,
						       obj->index, v);
	}
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

/* The tile attributes: index in &atomkms_cfs_connector.tile, range. */
enum {
	ATOMKMS_CFS_TILE_GROUP,
	ATOMKMS_CFS_TILES_H,
	ATOMKMS_CFS_TILES_V,
	ATOMKMS_CFS_TILE_H_LOC,
	ATOMKMS_CFS_TILE_V_LOC,
};

static const struct {
	const char *name, *rule;
	u8 min, max, dflt;
} atomkms_cfs_tile_attrs[] = {
	[ATOMKMS_CFS_TILE_GROUP] = {
		"tile_group", "0 (no tile) or a tiled monitor's number, 1 to 255",
		0, ATOMKMS_TOPO_MAX_TILE_GROUP, 0 },
	[ATOMKMS_CFS_TILES_H] = {
		"tiles_across", "1 to 16", 1, ATOMKMS_TOPO_MAX_TILES, 1 },
	[ATOMKMS_CFS_TILES_V] = {
		"tiles_down", "1 to 16", 1, ATOMKMS_TOPO_MAX_TILES, 1 },
	[ATOMKMS_CFS_TILE_H_LOC] = {
		"tile_h_loc", "0 to 15", 0, ATOMKMS_TOPO_MAX_TILES - 1, 0 },
	[ATOMKMS_CFS_TILE_V_LOC] = {
		"tile_v_loc", "0 to 15", 0, ATOMKMS_TOPO_MAX_TILES - 1, 0 },
};

static ssize_t atomkms_cfs_tile_show(struct config_item *item, char *page,
				     unsigned int i)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u8 v;

	/* Never written: the default (0 for those that may be 0). */
	mutex_lock(&obj->dev->lock);
	v = obj->conn.tile[i] ? obj->conn.tile[i] : atomkms_cfs_tile_attrs[i].dflt;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%u\n", v);
}

static ssize_t atomkms_cfs_tile_store(struct config_item *item,
				      const char *page, size_t count,
				      unsigned int i)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	const char *name = atomkms_cfs_tile_attrs[i].name;
	u8 v;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, name);
	if (ret)
		return ret;
	ret = kstrtou8(page, 0, &v);
	if (!ret && (v < atomkms_cfs_tile_attrs[i].min ||
		     v > atomkms_cfs_tile_attrs[i].max))
		ret = -ERANGE;
	if (ret)
		atomkms_cfs_refuse(obj, name, ret, atomkms_cfs_tile_attrs[i].rule);
	else
		obj->conn.tile[i] = v;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

/* The show and store of tile attribute @attr, index @idx. */
#define ATOMKMS_CFS_TILE_ATTR(attr, idx)				\
static const unsigned int atomkms_cfs_##attr##_idx = idx;		\
static ssize_t atomkms_cfs_connector_##attr##_show(struct config_item *item, \
						   char *page)		\
{									\
	return atomkms_cfs_tile_show(item, page, atomkms_cfs_##attr##_idx); \
}									\
static ssize_t atomkms_cfs_connector_##attr##_store(struct config_item *item, \
						    const char *page,	\
						    size_t count)	\
{									\
	return atomkms_cfs_tile_store(item, page, count,		\
				      atomkms_cfs_##attr##_idx);	\
}									\
CONFIGFS_ATTR(atomkms_cfs_connector_, attr)

ATOMKMS_CFS_TILE_ATTR(tile_group, ATOMKMS_CFS_TILE_GROUP);
ATOMKMS_CFS_TILE_ATTR(tiles_across, ATOMKMS_CFS_TILES_H);
ATOMKMS_CFS_TILE_ATTR(tiles_down, ATOMKMS_CFS_TILES_V);
ATOMKMS_CFS_TILE_ATTR(tile_h_loc, ATOMKMS_CFS_TILE_H_LOC);
ATOMKMS_CFS_TILE_ATTR(tile_v_loc, ATOMKMS_CFS_TILE_V_LOC);

CONFIGFS_ATTR(atomkms_cfs_connector_, status);
CONFIGFS_ATTR(atomkms_cfs_connector_, type);
CONFIGFS_ATTR(atomkms_cfs_connector_, edid);
CONFIGFS_ATTR(atomkms_cfs_connector_, edid_enabled);
CONFIGFS_ATTR(atomkms_cfs_connector_, preferred_mode);
CONFIGFS_ATTR(atomkms_cfs_connector_, non_desktop);
CONFIGFS_ATTR(atomkms_cfs_connector_, vrr);
CONFIGFS_ATTR(atomkms_cfs_connector_, link_status);
CONFIGFS_ATTR(atomkms_cfs_connector_, hdcp);
static ssize_t atomkms_cfs_connector_bpc_show(struct config_item *item,
					      char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u8 v;

	mutex_lock(&obj->dev->lock);
	v = obj->conn.bpc;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%u\n", v ? v : ATOMKMS_TOPO_BPC_DEFAULT);
}

static ssize_t atomkms_cfs_connector_bpc_store(struct config_item *item,
					       const char *page, size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 v;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "bpc");
	if (ret)
		return ret;
	ret = kstrtou32(page, 0, &v);
	if (!ret && !atomkms_topo_bpc_ok(v))
		ret = -ERANGE;
	if (ret)
		atomkms_cfs_refuse(obj, "bpc", ret, "8, 10, 12, 14 or 16");
	else
		obj->conn.bpc = v;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_connector_hdr_show(struct config_item *item,
					      char *page)
{
	return atomkms_cfs_show_bool(item, page, &to_cfs_object(item)->conn.hdr);
}

static ssize_t atomkms_cfs_connector_hdr_store(struct config_item *item,
					       const char *page, size_t count)
{
	return atomkms_cfs_store_bool(item, page, count, "hdr",
				      &to_cfs_object(item)->conn.hdr, false);
}

CONFIGFS_ATTR(atomkms_cfs_connector_, hdcp_delay_ms);
CONFIGFS_ATTR(atomkms_cfs_connector_, bpc);
CONFIGFS_ATTR(atomkms_cfs_connector_, hdr);

struct configfs_attribute *atomkms_cfs_connector_attrs[] = {
	&atomkms_cfs_connector_attr_status,
	&atomkms_cfs_connector_attr_type,
	&atomkms_cfs_connector_attr_edid,
	&atomkms_cfs_connector_attr_edid_enabled,
	&atomkms_cfs_connector_attr_preferred_mode,
	&atomkms_cfs_connector_attr_non_desktop,
	&atomkms_cfs_connector_attr_vrr,
	&atomkms_cfs_connector_attr_link_status,
	&atomkms_cfs_connector_attr_hdcp,
	&atomkms_cfs_connector_attr_hdcp_delay_ms,
	&atomkms_cfs_connector_attr_tile_group,
	&atomkms_cfs_connector_attr_tiles_across,
	&atomkms_cfs_connector_attr_tiles_down,
	&atomkms_cfs_connector_attr_tile_h_loc,
	&atomkms_cfs_connector_attr_tile_v_loc,
	&atomkms_cfs_connector_attr_bpc,
	&atomkms_cfs_connector_attr_hdr,
	NULL,
};

/**
 * atomkms_cfs_connector_config - a connector's attributes as configuration
 * @obj: the connector
 * @c: the configuration being filled, under the device's lock
 * @i: the connector's index in it
 */
void atomkms_cfs_connector_config(struct atomkms_cfs_object *obj,
				  struct atomkms_config *c, u32 i)
{
	c->connectors[i].type = obj->conn.type;
	c->connectors[i].non_desktop = obj->conn.non_desktop;
	c->connectors[i].no_vrr = obj->conn.no_vrr;
	c->connectors[i].hdcp = obj->conn.hdcp;
	c->connectors[i].hdcp_delay_ms = obj->conn.hdcp_delay_ms;
	c->connectors[i].bpc = obj->conn.bpc;
	c->connectors[i].hdr = obj->conn.hdr;
	c->connectors[i].edid_enabled = obj->conn.edid_enabled;
	c->connectors[i].pref_width = obj->conn.pref_width;
	c->connectors[i].pref_height = obj->conn.pref_height;
	c->connectors[i].pref_refresh = obj->conn.pref_refresh;
	c->connectors[i].edid = obj->conn.edid;
	c->connectors[i].edid_len = obj->conn.edid_len;
	c->connectors[i].tile_group = obj->conn.tile[ATOMKMS_CFS_TILE_GROUP];
	c->connectors[i].tiles_h = obj->conn.tile[ATOMKMS_CFS_TILES_H];
	c->connectors[i].tiles_v = obj->conn.tile[ATOMKMS_CFS_TILES_V];
	c->connectors[i].tile_h_loc = obj->conn.tile[ATOMKMS_CFS_TILE_H_LOC];
	c->connectors[i].tile_v_loc = obj->conn.tile[ATOMKMS_CFS_TILE_V_LOC];
}

/**
 * atomkms_cfs_connector_enabled - links set bad before the device was made
 * @dev: the device, just enabled, under its lock
 *
 * Each connector whose link was set bad has it so, with a hotplug event.
 * (The EDIDs in use came with the device: atomkms_device_create().) A link
 * is not the monitor's: a bind after an unbind trains it anew, GOOD.
 */
void atomkms_cfs_connector_enabled(struct atomkms_cfs_device *dev)
{
	struct atomkms_cfs_object *obj;

	list_for_each_entry(obj, &dev->connector_list, node)
		if (obj->conn.link_bad)
			atomkms_cfs_push_link(obj);
}

/**
 * atomkms_cfs_connector_release - free what a connector holds
 * @obj: any configfs object (only a connector holds an EDID)
 */
void atomkms_cfs_connector_release(struct atomkms_cfs_object *obj)
{
	kfree(obj->conn.edid);
}
