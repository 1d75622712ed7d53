// SPDX-License-Identifier: GPL-2.0-only
/*
 * A configfs plane's attributes, DEVICE/planes/P/: its type and its
 * capabilities, with the names of vkms's plane attributes:
 *
 *   type                 0 overlay, 1 primary, 2 cursor (vkms's)
 *   supported_formats    +FOURCC, -FOURCC, +*, -* (vkms's syntax); shows
 *                        one fourcc a line
 *   supported_rotations  rotate-0 rotate-90 ... reflect-y, or DRM's bitmask
 *   max_scale_factor     1 (no scaling) to 16, as the module parameter
 *   zpos_mutable         0 or 1
 *   zpos_initial         0 to 255, or auto
 *   zpos_min, zpos_max   0 to 255, or auto
 *
 * Every one answers -EBUSY while the device is enabled. A value is checked
 * as it is written by the topology's own parsers and rules (a bad one
 * answers -EINVAL and the rule it breaks at debug level, pr_debug()), and
 * the whole plane again when the device is enabled
 * (atomkms_topology_from_config(), atomkms_topology_validate()). Values go
 * into &struct atomkms_config, and so into the plane's IN_FORMATS, its
 * rotation and zpos properties and the scaling its atomic check allows.
 */
#include <linux/kstrtox.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "atomkms_drv.h"
#include "atomkms_configfs.h"

static ssize_t atomkms_cfs_plane_type_show(struct config_item *item,
					   char *page)
{
	return atomkms_cfs_show(item, page, &to_cfs_object(item)->value);
}

static ssize_t atomkms_cfs_plane_type_store(struct config_item *item,
					    const char *page, size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 v;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "type");
	if (ret)
		return ret;
	ret = kstrtou32(page, 0, &v);
	if (!ret && v > ATOMKMS_TOPO_CURSOR)
		ret = -EINVAL;
	if (ret)
		atomkms_cfs_refuse(obj, "type", ret,
				   "planes: primary, overlay or cursor (1, 0 or 2)");
	else
		obj->value = v;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

/* The plane's formats: as written, or its type's default. */
static u64 atomkms_cfs_plane_formats(const struct atomkms_cfs_object *obj)
{
	if (obj->plane.formats_set)
		return obj->plane.formats;
	return obj->value == ATOMKMS_TOPO_CURSOR ?
	       atomkms_topo_formats_cursor() : atomkms_topo_formats_all();
}

static ssize_t atomkms_cfs_plane_supported_formats_show(struct config_item *item,
							char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u64 formats;

	mutex_lock(&obj->dev->lock);
	formats = atomkms_cfs_plane_formats(obj);
	mutex_unlock(&obj->dev->lock);
	return atomkms_topo_print_formats(formats, page, PAGE_SIZE);
}

static ssize_t atomkms_cfs_plane_supported_formats_store(struct config_item *item,
							 const char *page,
							 size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	const char *why = NULL;
	u64 formats;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "supported_formats");
	if (ret)
		return ret;
	formats = atomkms_cfs_plane_formats(obj);
	ret = atomkms_topo_parse_formats(page, count, &formats, &why);
	if (ret) {
		atomkms_cfs_refuse(obj, "supported_formats", ret, why);
	} else {
		obj->plane.formats_set = true;
		obj->plane.formats = formats;
	}
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_plane_supported_rotations_show(struct config_item *item,
							  char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u8 rotations;

	mutex_lock(&obj->dev->lock);
	rotations = obj->plane.rotations;
	mutex_unlock(&obj->dev->lock);
	return atomkms_topo_print_rotations(rotations ? rotations :
					    ATOMKMS_TOPO_ROTATIONS, page,
					    PAGE_SIZE);
}

static ssize_t atomkms_cfs_plane_supported_rotations_store(struct config_item *item,
							   const char *page,
							   size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	const char *why = NULL;
	u8 rotations;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "supported_rotations");
	if (ret)
		return ret;
	ret = atomkms_topo_parse_rotations(page, count, &rotations, &why);
	if (ret)
		atomkms_cfs_refuse(obj, "supported_rotations", ret, why);
	else
		obj->plane.rotations = rotations;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_plane_max_scale_factor_show(struct config_item *item,
						       char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 f;

	mutex_lock(&obj->dev->lock);
	f = obj->plane.max_scale_factor;
	if (!f)
		f = obj->value == ATOMKMS_TOPO_CURSOR ? 1 : 4;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%u\n", f);
}

static ssize_t atomkms_cfs_plane_max_scale_factor_store(struct config_item *item,
							const char *page,
							size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 v;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "max_scale_factor");
	if (ret)
		return ret;
	ret = kstrtou32(page, 10, &v);
	if (!ret && (v < 1 || v > 16))
		ret = -EINVAL;
	if (ret)
		atomkms_cfs_refuse(obj, "max_scale_factor", ret,
				   "max_scale_factor must be 1 to 16");
	else
		obj->plane.max_scale_factor = v;
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

static ssize_t atomkms_cfs_plane_zpos_mutable_show(struct config_item *item,
						   char *page)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool v;

	mutex_lock(&obj->dev->lock);
	v = obj->plane.zpos_set & ATOMKMS_CFG_ZPOS_MUTABLE ?
	    obj->plane.zpos_mutable : obj->value == ATOMKMS_TOPO_OVERLAY;
	mutex_unlock(&obj->dev->lock);
	return sprintf(page, "%d\n", v);
}

static ssize_t atomkms_cfs_plane_zpos_mutable_store(struct config_item *item,
						    const char *page,
						    size_t count)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool v;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, "zpos_mutable");
	if (ret)
		return ret;
	ret = kstrtobool(page, &v);
	if (ret) {
		atomkms_cfs_refuse(obj, "zpos_mutable", ret, "0 or 1");
	} else {
		obj->plane.zpos_mutable = v;
		obj->plane.zpos_set |= ATOMKMS_CFG_ZPOS_MUTABLE;
	}
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

/* A zpos value: 0 to 255 as written, or auto (placed by the topology). */
static ssize_t atomkms_cfs_plane_zpos_show(struct config_item *item,
					   char *page, u8 bit, const u16 *field)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	bool set;
	u16 v;

	mutex_lock(&obj->dev->lock);
	set = obj->plane.zpos_set & bit;
	v = *field;
	mutex_unlock(&obj->dev->lock);
	return set ? sprintf(page, "%u\n", v) : sprintf(page, "auto\n");
}

static ssize_t atomkms_cfs_plane_zpos_store(struct config_item *item,
					    const char *page, size_t count,
					    const char *attr, u8 bit,
					    u16 *field)
{
	struct atomkms_cfs_object *obj = to_cfs_object(item);
	u32 v = 0;
	int ret;

	ret = atomkms_cfs_lock_disabled(obj, attr);
	if (ret)
		return ret;
	if (sysfs_streq(page, "auto")) {
		obj->plane.zpos_set &= ~bit;
		goto out;
	}
	ret = kstrtou32(page, 10, &v);
	if (!ret && v > ATOMKMS_TOPO_MAX_ZPOS)
		ret = -EINVAL;
	if (ret) {
		atomkms_cfs_refuse(obj, attr, ret,
				   "planes: zpos must be 0 to 255 (or auto)");
	} else {
		*field = v;
		obj->plane.zpos_set |= bit;
	}
out:
	mutex_unlock(&obj->dev->lock);
	return ret ? ret : count;
}

#define ATOMKMS_CFS_ZPOS(name, bit, field)				\
static const u8 atomkms_cfs_plane_##name##_bit = bit;			\
static const size_t atomkms_cfs_plane_##name##_off =			\
	offsetof(struct atomkms_cfs_object, plane.field);		\
static ssize_t atomkms_cfs_plane_##name##_show(struct config_item *item, \
					       char *page)		\
{									\
	return atomkms_cfs_plane_zpos_show(item, page,			\
		atomkms_cfs_plane_##name##_bit,				\
		(u16 *)((char *)to_cfs_object(item) +			\
			atomkms_cfs_plane_##name##_off));		\
}									\
static ssize_t atomkms_cfs_plane_##name##_store(struct config_item *item, \
						const char *page,	\
						size_t count)		\
{									\
	return atomkms_cfs_plane_zpos_store(item, page, count, #name,	\
		atomkms_cfs_plane_##name##_bit,				\
		(u16 *)((char *)to_cfs_object(item) +			\
			atomkms_cfs_plane_##name##_off));		\
}									\
CONFIGFS_ATTR(atomkms_cfs_plane_, name)

ATOMKMS_CFS_ZPOS(zpos_initial, ATOMKMS_CFG_ZPOS_INITIAL, zpos);
ATOMKMS_CFS_ZPOS(zpos_min, ATOMKMS_CFG_ZPOS_MIN, zpos_min);
ATOMKMS_CFS_ZPOS(zpos_max, ATOMKMS_CFG_ZPOS_MAX, zpos_max);

CONFIGFS_ATTR(atomkms_cfs_plane_, type);
CONFIGFS_ATTR(atomkms_cfs_plane_, supported_formats);
CONFIGFS_ATTR(atomkms_cfs_plane_, supported_rotations);
CONFIGFS_ATTR(atomkms_cfs_plane_, max_scale_factor);
CONFIGFS_ATTR(atomkms_cfs_plane_, zpos_mutable);

struct configfs_attribute *atomkms_cfs_plane_attrs[] = {
	&atomkms_cfs_plane_attr_type,
	&atomkms_cfs_plane_attr_supported_formats,
	&atomkms_cfs_plane_attr_supported_rotations,
	&atomkms_cfs_plane_attr_max_scale_factor,
	&atomkms_cfs_plane_attr_zpos_mutable,
	&atomkms_cfs_plane_attr_zpos_initial,
	&atomkms_cfs_plane_attr_zpos_min,
	&atomkms_cfs_plane_attr_zpos_max,
	NULL,
};

/**
 * atomkms_cfs_plane_config - a plane's capabilities as configuration
 * @obj: the plane
 * @c: the configuration being filled, under the device's lock
 * @i: the plane's index in it
 */
void atomkms_cfs_plane_config(struct atomkms_cfs_object *obj,
			      struct atomkms_config *c, u32 i)
{
	c->planes[i].caps = obj->plane;
}
