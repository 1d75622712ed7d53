// SPDX-License-Identifier: GPL-2.0-only
/*
 * Devices made at runtime, in configfs under /sys/kernel/config/atomkms/,
 * with upstream vkms's layout and attribute names (Linux 6.19), so that
 * scripts written for vkms work with the root changed:
 *
 *   DEVICE/enabled
 *   DEVICE/{limits,max_active_planes,num_plls,bandwidth_mbps} (ours: the
 *          simulated display engine's limits, README "Emulating a display
 *          engine's limits")
 *   DEVICE/planes/P/type, DEVICE/planes/P/possible_crtcs/ (links to CRTCs)
 *   DEVICE/planes/P/{supported_formats,supported_rotations,
 *                    max_scale_factor,zpos_mutable,zpos_initial,zpos_min,
 *                    zpos_max} (atomkms_configfs_plane.c)
 *   DEVICE/crtcs/C/writeback, DEVICE/crtcs/C/{refresh,num_scalers} (ours)
 *   DEVICE/encoders/E/possible_crtcs/ (links to CRTCs)
 *   DEVICE/connectors/N/status, DEVICE/connectors/N/possible_encoders/
 *   DEVICE/connectors/N/{type,edid,edid_enabled,preferred_mode,
 *                        non_desktop,vrr,link_status,hdcp,hdcp_delay_ms,bpc,
 *                        hdr,tile_group,tiles_across,tiles_down,tile_h_loc,
 *                        tile_v_loc}
 *                        (ours: atomkms_configfs_connector.c)
 *
 * Writing 1 to enabled turns the description into a topology
 * (atomkms_topology_from_config(), atomkms_topology_validate()) and
 * creates a DRM device from it, with the EDIDs its connectors use; 0
 * unplugs and removes that device. The monitors' live state (status,
 * EDID, HDCP delay) is kept with the platform device (atomkms_monitor.c),
 * so a sysfs unbind and bind brings the device back as configured. While
 * a device is enabled only a connector's status, edid, edid_enabled and
 * link_status may change (each a hotplug), and its hdcp_delay_ms;
 * anything else answers -EBUSY.
 */
#include <linux/configfs.h>
#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_print.h>

#include "atomkms_drv.h"
#include "atomkms_configfs.h"

static const struct config_item_type atomkms_cfs_crtc_type;
static const struct config_item_type atomkms_cfs_encoder_type;

/* The position of @item in @list, or -1. */
static int atomkms_cfs_index(struct list_head *list, struct config_item *item)
{
	struct atomkms_cfs_object *obj;
	int i = 0;

	list_for_each_entry(obj, list, node) {
		if (&obj->group.cg_item == item)
			return i;
		i++;
	}
	return -1;
}

/* The mask of @links' targets by their position in @list. */
static u32 atomkms_cfs_mask(struct atomkms_cfs_links *links,
			    struct list_head *list)
{
	u32 mask = 0, i;

	for (i = 0; i < links->num; i++) {
		int k = atomkms_cfs_index(list, links->targets[i]);

		if (k >= 0 && k < 32)
			mask |= BIT(k);
	}
	return mask;
}

/* Under dev->lock: the configuration the objects describe. */
static int atomkms_cfs_config(struct atomkms_cfs_device *dev,
			      struct atomkms_config *c)
{
	struct atomkms_cfs_object *obj;

	memset(c, 0, sizeof(*c));
	list_for_each_entry(obj, &dev->plane_list, node) {
		if (c->num_planes == ATOMKMS_TOPO_MAX_PLANES)
			return -E2BIG;
		c->planes[c->num_planes].type = obj->value;
		atomkms_cfs_plane_config(obj, c, c->num_planes);
		c->planes[c->num_planes++].possible_crtcs =
			atomkms_cfs_mask(&obj->links, &dev->crtc_list);
	}
	list_for_each_entry(obj, &dev->crtc_list, node) {
		if (c->num_crtcs == ATOMKMS_TOPO_MAX_CRTCS)
			return -E2BIG;
		c->crtcs[c->num_crtcs].writeback = obj->value;
		c->crtcs[c->num_crtcs++].refresh = obj->refresh;
	}
	list_for_each_entry(obj, &dev->encoder_list, node) {
		if (c->num_encoders == ATOMKMS_TOPO_MAX_ENCODERS)
			return -E2BIG;
		c->encoders[c->num_encoders++].possible_crtcs =
			atomkms_cfs_mask(&obj->links, &dev->crtc_list);
	}
	list_for_each_entry(obj, &dev->connector_list, node) {
		if (c->num_connectors == ATOMKMS_TOPO_MAX_CONNECTORS)
			return -E2BIG;
		obj->index = c->num_connectors;
		atomkms_cfs_connector_config(obj, c, c->num_connectors);
		c->connectors[c->num_connectors].connected =
			obj->value == ATOMKMS_CFS_CONNECTED;
		c->connectors[c->num_connectors++].possible_encoders =
			atomkms_cfs_mask(&obj->links, &dev->encoder_list);
	}
	return 0;
}

/*
 * Under the device's lock, on an enabled device: its atomkms_device, with
 * the platform device's lock held, or NULL (a sysfs unbind may have
 * removed it). Release with atomkms_cfs_put_akdev().
 */
struct atomkms_device *atomkms_cfs_get_akdev(struct atomkms_cfs_object *obj)
{
	struct platform_device *pdev = obj->dev->pdev;

	device_lock(&pdev->dev);
	if (pdev->dev.driver && platform_get_drvdata(pdev))
		return platform_get_drvdata(pdev);
	device_unlock(&pdev->dev);
	return NULL;
}

void atomkms_cfs_put_akdev(struct atomkms_cfs_object *obj)
{
	device_unlock(&obj->dev->pdev->dev);
}

/**
 * atomkms_cfs_refuse - say why a write to an object's attribute is refused
 * @obj: the object (a plane, a connector, ...), under its device's lock
 * @attr: the attribute's name
 * @err: the errno the write answers
 * @why: the reason, logged at debug level (drm_dbg_driver() on an enabled
 *       device, pr_debug() else) with the attribute's path
 *
 * Return: @err.
 */
int atomkms_cfs_refuse(struct atomkms_cfs_object *obj,
		       const char *attr, int err, const char *why)
{
	const char *dev = config_item_name(&obj->dev->group.cg_item);
	const char *kind = config_item_name(obj->group.cg_item.ci_parent);
	const char *name = config_item_name(&obj->group.cg_item);
	struct atomkms_device *akdev = NULL;

	if (obj->dev->pdev)
		akdev = atomkms_cfs_get_akdev(obj);
	if (akdev) {
		drm_dbg_driver(&akdev->drm, "configfs %s/%s/%s/%s: %s (%d)\n",
			       dev, kind, name, attr, why, err);
		atomkms_cfs_put_akdev(obj);
	} else {
		pr_debug("atomkms: configfs %s/%s/%s/%s: %s (%d)\n",
			 dev, kind, name, attr, why, err);
	}
	return err;
}

/**
 * atomkms_cfs_lock_disabled - take the device's lock for a change of @obj
 * @obj: the object written to
 * @attr: the attribute's name
 *
 * Return: 0 with the device's lock held, or -EBUSY (logged, lock not held)
 * if the device is enabled.
 */
int atomkms_cfs_lock_disabled(struct atomkms_cfs_object *obj,
			      const char *attr)
{
	mutex_lock(&obj->dev->lock);
	if (!obj->dev->pdev)
		return 0;
	atomkms_cfs_refuse(obj, attr, -EBUSY,
			   "the device is enabled (write 0 to enabled first)");
	mutex_unlock(&obj->dev->lock);
	return -EBUSY;
}

/* Under dev->lock: the device's limits, as its attributes give them. */
static void atomkms_cfs_limits(struct atomkms_cfs_device *dev,
			       struct atomkms_limits_params *p)
{
	struct atomkms_cfs_object *obj;

	*p = (struct atomkms_limits_params){
		.preset = dev->limits,
		.max_active_planes = dev->max_active_planes,
		.num_plls = dev->num_plls,
		.bandwidth_mbps = dev->bandwidth_mbps,
	};
	list_for_each_entry(obj, &dev->crtc_list, node)
		if (p->num_num_scalers < ARRAY_SIZE(p->num_scalers))
			p->num_scalers[p->num_num_scalers++] = obj->num_scalers;
}

/* Under dev->lock: build and create the device. */
static int atomkms_cfs_enable(struct atomkms_cfs_device *dev)
{
	const char *name = config_item_name(&dev->group.cg_item);
	struct atomkms_limits_params limits;
	struct atomkms_topology *topo;
	struct atomkms_config *c;
	struct platform_device *pdev;
	const char *why = "too many objects";
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	topo = kzalloc(sizeof(*topo), GFP_KERNEL);
	ret = c && topo ? 0 : -ENOMEM;
	if (!ret)
		ret = atomkms_cfs_config(dev, c);
	if (!ret) {
		atomkms_cfs_limits(dev, &limits);
		c->limits = &limits;
		ret = atomkms_topology_from_config(c, topo, &why);
	}
	if (!ret)
		ret = atomkms_topology_validate(topo, &why);
	if (ret == -E2BIG || ret == -EINVAL)
		pr_warn_ratelimited("atomkms: configfs device %s: %s\n", name,
				    why);
	if (ret)
		goto out;
	pdev = atomkms_device_create(topo, c, PLATFORM_DEVID_AUTO);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		pr_warn("atomkms: configfs device %s: the device failed to probe: %d\n",
			name, ret);
		goto out;
	}
	dev->pdev = pdev;
	atomkms_cfs_connector_enabled(dev);
out:
	kfree(topo);
	kfree(c);
	return ret;
}

static ssize_t atomkms_cfs_device_enabled_show(struct config_item *item,
					       char *page)
{
	struct atomkms_cfs_device *dev = to_cfs_device(item);
	bool enabled;

	mutex_lock(&dev->lock);
	enabled = dev->pdev;
	mutex_unlock(&dev->lock);
	return sprintf(page, "%d\n", enabled);
}

static ssize_t atomkms_cfs_device_enabled_store(struct config_item *item,
						const char *page, size_t count)
{
	struct atomkms_cfs_device *dev = to_cfs_device(item);
	bool enable;
	int ret;

	ret = kstrtobool(page, &enable);
	if (ret) {
		pr_debug("atomkms: configfs %s/enabled: 0 or 1 (%d)\n",
			 config_item_name(item), ret);
		return ret;
	}
	mutex_lock(&dev->lock);
	if (enable && !dev->pdev) {
		ret = atomkms_cfs_enable(dev);
	} else if (!enable && dev->pdev) {
		/* Clients still open get errors: drm_dev_unplug(). */
		atomkms_device_destroy(dev->pdev);
		dev->pdev = NULL;
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(atomkms_cfs_device_, enabled);

/*
 * A u32 attribute of device @dev or of one of its objects (@name, the
 * item's, in the log): @min to @max, -EBUSY on an enabled device. (A
 * connector's attributes, some of which act on an enabled device, are in
 * atomkms_configfs_connector.c.)
 */
static ssize_t atomkms_cfs_store_u32(struct atomkms_cfs_device *dev,
				     const char *name, const char *page,
				     size_t count, u32 *field, u32 min, u32 max)
{
	u32 v;
	int ret;

	ret = kstrtou32(page, 0, &v);
	if (!ret && (v < min || v > max))
		ret = -EINVAL;
	if (ret) {
		pr_debug("atomkms: configfs %s: not a number from %u to %u (%d)\n",
			 name, min, max, ret);
		return ret;
	}
	mutex_lock(&dev->lock);
	if (dev->pdev) {
		pr_debug("atomkms: configfs %s: the device is enabled (%d)\n",
			 name, -EBUSY);
		ret = -EBUSY;
	} else {
		*field = v;
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_store(struct config_item *item, const char *page,
				 size_t count, u32 *field, u32 min, u32 max)
{
	return atomkms_cfs_store_u32(to_cfs_object(item)->dev,
				     config_item_name(item), page, count, field,
				     min, max);
}

/* A u32 field of the device, read under its lock. */
static ssize_t atomkms_cfs_show_u32(struct atomkms_cfs_device *dev,
				    char *page, const u32 *field)
{
	u32 v;

	mutex_lock(&dev->lock);
	v = *field;
	mutex_unlock(&dev->lock);
	return sprintf(page, "%u\n", v);
}

/**
 * atomkms_cfs_show - show a u32 field of an object, read under the
 * device's lock
 * @item: the object's item
 * @page: configfs's buffer
 * @field: the field, in the object
 *
 * Return: the length shown.
 */
ssize_t atomkms_cfs_show(struct config_item *item, char *page,
			 const u32 *field)
{
	return atomkms_cfs_show_u32(to_cfs_object(item)->dev, page, field);
}

#define ATOMKMS_CFS_FIELD(item, off) \
	((u32 *)((char *)to_cfs_object(item) + (off)))

#define ATOMKMS_CFS_U32(kind, name, field, min, max)			\
static const size_t atomkms_cfs_##kind##_##name##_off =			\
	offsetof(struct atomkms_cfs_object, field);			\
static ssize_t atomkms_cfs_##kind##_##name##_show(struct config_item *item, \
						  char *page)		\
{									\
	return atomkms_cfs_show(item, page,				\
		ATOMKMS_CFS_FIELD(item, atomkms_cfs_##kind##_##name##_off)); \
}									\
static ssize_t atomkms_cfs_##kind##_##name##_store(struct config_item *item, \
						   const char *page,	\
						   size_t count)	\
{									\
	return atomkms_cfs_store(item, page, count,			\
		ATOMKMS_CFS_FIELD(item, atomkms_cfs_##kind##_##name##_off), \
		min, max);						\
}									\
CONFIGFS_ATTR(atomkms_cfs_##kind##_, name)

ATOMKMS_CFS_U32(crtc, writeback, value, 0, 1);
ATOMKMS_CFS_U32(crtc, refresh, refresh, 1, ATOMKMS_TOPO_MAX_REFRESH);
ATOMKMS_CFS_U32(crtc, num_scalers, num_scalers, 0, ATOMKMS_LIMIT_NONE);

static struct configfs_attribute *atomkms_cfs_crtc_attrs[] = {
	&atomkms_cfs_crtc_attr_writeback,
	&atomkms_cfs_crtc_attr_refresh,
	&atomkms_cfs_crtc_attr_num_scalers,
	NULL,
};

/*
 * A u32 attribute of the device itself (a limit): any value, -EBUSY on
 * an enabled device; %ATOMKMS_LIMIT_NONE (4294967295), the default, is
 * the preset's value.
 */
#define ATOMKMS_CFS_DEVICE_FIELD(item, off) \
	((u32 *)((char *)to_cfs_device(item) + (off)))

#define ATOMKMS_CFS_DEVICE_U32(name, field)				\
static const size_t atomkms_cfs_device_##name##_off =			\
	offsetof(struct atomkms_cfs_device, field);			\
static ssize_t atomkms_cfs_device_##name##_show(struct config_item *item, \
						char *page)		\
{									\
	return atomkms_cfs_show_u32(to_cfs_device(item), page,		\
		ATOMKMS_CFS_DEVICE_FIELD(item, atomkms_cfs_device_##name##_off)); \
}									\
static ssize_t atomkms_cfs_device_##name##_store(struct config_item *item, \
						 const char *page,	\
						 size_t count)		\
{									\
	return atomkms_cfs_store_u32(to_cfs_device(item),		\
		config_item_name(item), page, count,			\
		ATOMKMS_CFS_DEVICE_FIELD(item, atomkms_cfs_device_##name##_off), \
		0, ATOMKMS_LIMIT_NONE);					\
}									\
CONFIGFS_ATTR(atomkms_cfs_device_, name)

ATOMKMS_CFS_DEVICE_U32(max_active_planes, max_active_planes);
ATOMKMS_CFS_DEVICE_U32(num_plls, num_plls);
ATOMKMS_CFS_DEVICE_U32(bandwidth_mbps, bandwidth_mbps);

static ssize_t atomkms_cfs_device_limits_show(struct config_item *item,
					      char *page)
{
	struct atomkms_cfs_device *dev = to_cfs_device(item);
	ssize_t n;

	mutex_lock(&dev->lock);
	n = sprintf(page, "%s\n", dev->limits[0] ? dev->limits : "none");
	mutex_unlock(&dev->lock);
	return n;
}

/* A preset's name (atomkms_limits_preset()), "none" for no limit. */
static ssize_t atomkms_cfs_device_limits_store(struct config_item *item,
					       const char *page, size_t count)
{
	struct atomkms_cfs_device *dev = to_cfs_device(item);
	const char *name = config_item_name(item);
	char buf[sizeof(dev->limits)], *preset = buf;
	struct atomkms_limits *l;
	int ret = -EINVAL;

	if (count < sizeof(buf)) {
		memcpy(buf, page, count);
		buf[count] = '\0';
		preset = strim(buf);
		l = kmalloc(sizeof(*l), GFP_KERNEL);
		if (!l)
			return -ENOMEM;
		ret = atomkms_limits_preset(preset, l);
		kfree(l);
	}
	if (ret) {
		pr_debug("atomkms: configfs %s/limits: none, soc, laptop or desktop (%d)\n",
			 name, ret);
		return ret;
	}
	mutex_lock(&dev->lock);
	if (dev->pdev) {
		pr_debug("atomkms: configfs %s/limits: the device is enabled (%d)\n",
			 name, -EBUSY);
		ret = -EBUSY;
	} else {
		strscpy(dev->limits, preset, sizeof(dev->limits));
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(atomkms_cfs_device_, limits);

static struct configfs_attribute *atomkms_cfs_device_attrs[] = {
	&atomkms_cfs_device_attr_enabled,
	&atomkms_cfs_device_attr_limits,
	&atomkms_cfs_device_attr_max_active_planes,
	&atomkms_cfs_device_attr_num_plls,
	&atomkms_cfs_device_attr_bandwidth_mbps,
	NULL,
};

/* Links: possible_crtcs/ takes CRTCs, possible_encoders/ encoders. */
static int atomkms_cfs_allow_link(struct config_item *src,
				  struct config_item *target,
				  const struct config_item_type *want)
{
	struct atomkms_cfs_links *links = to_cfs_links(src);
	struct atomkms_cfs_object *owner =
		container_of(links, struct atomkms_cfs_object, links);
	int ret = 0;

	if (target->ci_type != want || to_cfs_object(target)->dev != owner->dev)
		return -EINVAL;
	mutex_lock(&owner->dev->lock);
	if (owner->dev->pdev)
		ret = -EBUSY;
	else if (links->num == ARRAY_SIZE(links->targets))
		ret = -E2BIG;
	else
		links->targets[links->num++] = target;
	mutex_unlock(&owner->dev->lock);
	return ret;
}

static int atomkms_cfs_allow_crtc_link(struct config_item *src,
				       struct config_item *target)
{
	return atomkms_cfs_allow_link(src, target, &atomkms_cfs_crtc_type);
}

static int atomkms_cfs_allow_encoder_link(struct config_item *src,
					  struct config_item *target)
{
	return atomkms_cfs_allow_link(src, target, &atomkms_cfs_encoder_type);
}

/* Forget @target in @links; under the device's lock. */
static void atomkms_cfs_unlink(struct atomkms_cfs_links *links,
			       struct config_item *target)
{
	u32 i;

	for (i = 0; i < links->num; i++) {
		if (links->targets[i] != target)
			continue;
		links->targets[i] = links->targets[--links->num];
		return;
	}
}

/*
 * configfs cannot refuse to drop a link: on an enabled device the link
 * goes, and the device keeps the topology it was made with.
 */
static void atomkms_cfs_drop_link(struct config_item *src,
				  struct config_item *target)
{
	struct atomkms_cfs_links *links = to_cfs_links(src);
	struct atomkms_cfs_object *owner =
		container_of(links, struct atomkms_cfs_object, links);

	mutex_lock(&owner->dev->lock);
	atomkms_cfs_unlink(links, target);
	mutex_unlock(&owner->dev->lock);
}

static struct configfs_item_operations atomkms_cfs_crtc_links_ops = {
	.allow_link = atomkms_cfs_allow_crtc_link,
	.drop_link = atomkms_cfs_drop_link,
};

static struct configfs_item_operations atomkms_cfs_encoder_links_ops = {
	.allow_link = atomkms_cfs_allow_encoder_link,
	.drop_link = atomkms_cfs_drop_link,
};

static const struct config_item_type atomkms_cfs_crtc_links_type = {
	.ct_item_ops = &atomkms_cfs_crtc_links_ops,
	.ct_owner = THIS_MODULE,
};

static const struct config_item_type atomkms_cfs_encoder_links_type = {
	.ct_item_ops = &atomkms_cfs_encoder_links_ops,
	.ct_owner = THIS_MODULE,
};

static void atomkms_cfs_object_release(struct config_item *item)
{
	atomkms_cfs_connector_release(to_cfs_object(item));
	kfree(to_cfs_object(item));
}

static struct configfs_item_operations atomkms_cfs_object_ops = {
	.release = atomkms_cfs_object_release,
};

static const struct config_item_type atomkms_cfs_plane_type = {
	.ct_item_ops = &atomkms_cfs_object_ops,
	.ct_attrs = atomkms_cfs_plane_attrs,
	.ct_owner = THIS_MODULE,
};

static const struct config_item_type atomkms_cfs_crtc_type = {
	.ct_item_ops = &atomkms_cfs_object_ops,
	.ct_attrs = atomkms_cfs_crtc_attrs,
	.ct_owner = THIS_MODULE,
};

static const struct config_item_type atomkms_cfs_encoder_type = {
	.ct_item_ops = &atomkms_cfs_object_ops,
	.ct_owner = THIS_MODULE,
};

static const struct config_item_type atomkms_cfs_connector_type = {
	.ct_item_ops = &atomkms_cfs_object_ops,
	.ct_attrs = atomkms_cfs_connector_attrs,
	.ct_owner = THIS_MODULE,
};

/**
 * struct atomkms_cfs_kind - what a directory of objects makes
 * @type: the objects' item type
 * @links_name: the name of their links group, or NULL
 * @links_type: its item type
 * @list: offset of their list in &struct atomkms_cfs_device
 * @value: the value a new object starts with
 */
struct atomkms_cfs_kind {
	const struct config_item_type *type;
	const char *links_name;
	const struct config_item_type *links_type;
	size_t list;
	u32 value;
};

static const struct atomkms_cfs_kind atomkms_cfs_planes_kind = {
	&atomkms_cfs_plane_type, "possible_crtcs", &atomkms_cfs_crtc_links_type,
	offsetof(struct atomkms_cfs_device, plane_list), ATOMKMS_TOPO_OVERLAY,
};

static const struct atomkms_cfs_kind atomkms_cfs_crtcs_kind = {
	&atomkms_cfs_crtc_type, NULL, NULL,
	offsetof(struct atomkms_cfs_device, crtc_list), 0,
};

static const struct atomkms_cfs_kind atomkms_cfs_encoders_kind = {
	&atomkms_cfs_encoder_type, "possible_crtcs",
	&atomkms_cfs_crtc_links_type,
	offsetof(struct atomkms_cfs_device, encoder_list), 0,
};

static const struct atomkms_cfs_kind atomkms_cfs_connectors_kind = {
	&atomkms_cfs_connector_type, "possible_encoders",
	&atomkms_cfs_encoder_links_type,
	offsetof(struct atomkms_cfs_device, connector_list),
	ATOMKMS_CFS_CONNECTED,
};

/* The kind of objects the directory @group (planes/, crtcs/, ...) holds. */
static const struct atomkms_cfs_kind *
atomkms_cfs_kind_of(struct atomkms_cfs_device *dev, struct config_group *group)
{
	if (group == &dev->planes)
		return &atomkms_cfs_planes_kind;
	if (group == &dev->crtcs)
		return &atomkms_cfs_crtcs_kind;
	if (group == &dev->encoders)
		return &atomkms_cfs_encoders_kind;
	return &atomkms_cfs_connectors_kind;
}

static struct atomkms_cfs_device *
atomkms_cfs_device_of(struct config_group *group)
{
	return to_cfs_device(group->cg_item.ci_parent);
}

static struct config_group *atomkms_cfs_make_object(struct config_group *group,
						    const char *name)
{
	struct atomkms_cfs_device *dev = atomkms_cfs_device_of(group);
	const struct atomkms_cfs_kind *kind = atomkms_cfs_kind_of(dev, group);
	struct atomkms_cfs_object *obj;
	int ret = 0;

	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return ERR_PTR(-ENOMEM);
	obj->dev = dev;
	obj->value = kind->value;
	obj->refresh = 60;
	obj->num_scalers = ATOMKMS_LIMIT_NONE;
	/* A connector's monitor does HDR unless told, as hdr_mask's default. */
	obj->conn.hdr = true;
	config_group_init_type_name(&obj->group, name, kind->type);
	if (kind->links_name) {
		config_group_init_type_name(&obj->links.group, kind->links_name,
					    kind->links_type);
		configfs_add_default_group(&obj->links.group, &obj->group);
	}
	mutex_lock(&dev->lock);
	if (dev->pdev)
		ret = -EBUSY;
	else
		list_add_tail(&obj->node,
			      (struct list_head *)((char *)dev + kind->list));
	mutex_unlock(&dev->lock);
	if (ret) {
		kfree(obj);
		return ERR_PTR(ret);
	}
	return &obj->group;
}

/* Every link to @item in the device's objects goes with it. */
static void atomkms_cfs_drop_object(struct config_group *group,
				    struct config_item *item)
{
	struct atomkms_cfs_device *dev = atomkms_cfs_device_of(group);
	struct atomkms_cfs_object *obj = to_cfs_object(item), *o;

	mutex_lock(&dev->lock);
	list_del(&obj->node);
	list_for_each_entry(o, &dev->plane_list, node)
		atomkms_cfs_unlink(&o->links, item);
	list_for_each_entry(o, &dev->encoder_list, node)
		atomkms_cfs_unlink(&o->links, item);
	list_for_each_entry(o, &dev->connector_list, node)
		atomkms_cfs_unlink(&o->links, item);
	mutex_unlock(&dev->lock);
	config_item_put(item);
}

static struct configfs_group_operations atomkms_cfs_objects_ops = {
	.make_group = atomkms_cfs_make_object,
	.drop_item = atomkms_cfs_drop_object,
};

static const struct config_item_type atomkms_cfs_objects_type = {
	.ct_group_ops = &atomkms_cfs_objects_ops,
	.ct_owner = THIS_MODULE,
};

static void atomkms_cfs_device_release(struct config_item *item)
{
	struct atomkms_cfs_device *dev = to_cfs_device(item);

	if (dev->pdev)
		atomkms_device_destroy(dev->pdev);
	mutex_destroy(&dev->lock);
	kfree(dev);
}

static struct configfs_item_operations atomkms_cfs_device_ops = {
	.release = atomkms_cfs_device_release,
};

static const struct config_item_type atomkms_cfs_device_type = {
	.ct_item_ops = &atomkms_cfs_device_ops,
	.ct_attrs = atomkms_cfs_device_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_group *atomkms_cfs_make_device(struct config_group *group,
						    const char *name)
{
	struct atomkms_cfs_device *dev;

	/* The default device's name, as vkms keeps "vkms". */
	if (!strcmp(name, ATOMKMS_DRIVER_NAME))
		return ERR_PTR(-EINVAL);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	mutex_init(&dev->lock);
	dev->max_active_planes = ATOMKMS_LIMIT_NONE;
	dev->num_plls = ATOMKMS_LIMIT_NONE;
	dev->bandwidth_mbps = ATOMKMS_LIMIT_NONE;
	INIT_LIST_HEAD(&dev->plane_list);
	INIT_LIST_HEAD(&dev->crtc_list);
	INIT_LIST_HEAD(&dev->encoder_list);
	INIT_LIST_HEAD(&dev->connector_list);
	config_group_init_type_name(&dev->group, name,
				    &atomkms_cfs_device_type);
	config_group_init_type_name(&dev->planes, "planes",
				    &atomkms_cfs_objects_type);
	configfs_add_default_group(&dev->planes, &dev->group);
	config_group_init_type_name(&dev->crtcs, "crtcs",
				    &atomkms_cfs_objects_type);
	configfs_add_default_group(&dev->crtcs, &dev->group);
	config_group_init_type_name(&dev->encoders, "encoders",
				    &atomkms_cfs_objects_type);
	configfs_add_default_group(&dev->encoders, &dev->group);
	config_group_init_type_name(&dev->connectors, "connectors",
				    &atomkms_cfs_objects_type);
	configfs_add_default_group(&dev->connectors, &dev->group);
	return &dev->group;
}

static struct configfs_group_operations atomkms_cfs_root_ops = {
	.make_group = atomkms_cfs_make_device,
};

static const struct config_item_type atomkms_cfs_root_type = {
	.ct_group_ops = &atomkms_cfs_root_ops,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem atomkms_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = ATOMKMS_DRIVER_NAME,
			.ci_type = &atomkms_cfs_root_type,
		},
	},
};

int atomkms_configfs_init(void)
{
	config_group_init(&atomkms_cfs_subsys.su_group);
	mutex_init(&atomkms_cfs_subsys.su_mutex);
	return configfs_register_subsystem(&atomkms_cfs_subsys);
}

void atomkms_configfs_exit(void)
{
	configfs_unregister_subsystem(&atomkms_cfs_subsys);
}
