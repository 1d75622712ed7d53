// SPDX-License-Identifier: GPL-2.0-only
/*
 * Framebuffers: GEM framebuffers that stay mapped into the kernel for their
 * whole life. The compositor and writeback read and write them through
 * that mapping, so a page flip costs no vmap/vunmap of the buffer (which,
 * done per commit, made flips of a 4K buffer take milliseconds).
 *
 * A framebuffer is mapped before it is published: drm_framebuffer_init()
 * makes it findable by id, by any client, at once, so a framebuffer
 * published first and mapped after could be put on a plane, and read,
 * before it had any mapping (or with none at all, if the mapping failed).
 */
#include <linux/slab.h>

#include <drm/drm_damage_helper.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_modeset_helper.h>
#include <drm/drm_print.h>

#include "atomkms_drv.h"

static void atomkms_fb_destroy(struct drm_framebuffer *fb)
{
	struct atomkms_fb *akfb = to_atomkms_fb(fb);

	drm_gem_fb_vunmap(fb, akfb->map);
	/* Frees akfb: base is its first member. */
	drm_gem_fb_destroy(fb);
}

static const struct drm_framebuffer_funcs atomkms_fb_funcs = {
	.destroy	= atomkms_fb_destroy,
	.create_handle	= drm_gem_fb_create_handle,
	.dirty		= drm_atomic_helper_dirtyfb,
};

/**
 * atomkms_fb_check_geometry - the layout rules beyond the DRM core's
 * @drm: the device
 * @info: the format
 * @mode_cmd: what userspace asked for
 *
 * A packed YUV format with horizontal subsampling (YUYV, UYVY) stores
 * each chroma pair once for @info->hsub pixels, inside the line: a line
 * is a whole number of such groups. The core's size check counts
 * @info->cpp bytes a pixel, so for an odd width it guarantees the line
 * up to the middle of its last group, and reading that group's chroma
 * would read past the buffer.
 *
 * Return: 0, or -EINVAL with a debug line saying why.
 */
static int atomkms_fb_check_geometry(struct drm_device *drm,
				     const struct drm_format_info *info,
				     const struct drm_mode_fb_cmd2 *mode_cmd)
{
	if (info->is_yuv && info->num_planes == 1 && info->hsub > 1 &&
	    mode_cmd->width % info->hsub) {
		drm_dbg_kms(drm,
			    "%p4cc width %u is not a multiple of its %u-pixel chroma group\n",
			    &mode_cmd->pixel_format, mode_cmd->width,
			    info->hsub);
		return -EINVAL;
	}
	return 0;
}

/* Look up the GEM object of each plane and check it holds the plane. */
static int atomkms_fb_lookup_objects(struct drm_device *drm,
				     struct drm_file *file,
				     const struct drm_format_info *info,
				     const struct drm_mode_fb_cmd2 *mode_cmd,
				     struct drm_gem_object **objs)
{
	unsigned int i;
	int ret;

	for (i = 0; i < info->num_planes; i++) {
		u32 width = drm_format_info_plane_width(info, mode_cmd->width, i);
		u32 height = drm_format_info_plane_height(info, mode_cmd->height,
							  i);
		u64 min_size = (u64)(height - 1) * mode_cmd->pitches[i] +
			       drm_format_info_min_pitch(info, i, width) +
			       mode_cmd->offsets[i];

		objs[i] = drm_gem_object_lookup(file, mode_cmd->handles[i]);
		if (!objs[i]) {
			drm_dbg_kms(drm, "no GEM object for handle %u (plane %u)\n",
				    mode_cmd->handles[i], i);
			ret = -ENOENT;
			goto err;
		}
		if (objs[i]->size < min_size) {
			drm_dbg_kms(drm,
				    "GEM object of %zu bytes, plane %u needs %llu\n",
				    objs[i]->size, i, min_size);
			drm_gem_object_put(objs[i]);
			ret = -EINVAL;
			goto err;
		}
	}
	return 0;

err:
	while (i--)
		drm_gem_object_put(objs[i]);
	return ret;
}

/**
 * atomkms_fb_create - &drm_mode_config_funcs.fb_create
 * @drm: the device
 * @file: the client
 * @info: the format of @mode_cmd, as the core looked it up
 * @mode_cmd: what userspace asked for, checked by the core's
 *            framebuffer_check() for everything but the buffers
 *
 * Builds the framebuffer as drm_gem_fb_init_with_funcs() does, but maps
 * it before drm_framebuffer_init() publishes it.
 *
 * Return: the framebuffer, mapped, or an ERR_PTR().
 */
struct drm_framebuffer *atomkms_fb_create(struct drm_device *drm,
					  struct drm_file *file,
					  const struct drm_format_info *info,
					  const struct drm_mode_fb_cmd2 *mode_cmd)
{
	struct drm_gem_object *objs[DRM_FORMAT_MAX_PLANES];
	struct atomkms_fb *akfb;
	unsigned int i;
	int ret;

	static_assert(offsetof(struct atomkms_fb, base) == 0);

	if (!info || !drm_any_plane_has_format(drm, mode_cmd->pixel_format,
					       mode_cmd->modifier[0])) {
		drm_dbg_kms(drm, "no plane scans out %p4cc / modifier 0x%llx\n",
			    &mode_cmd->pixel_format, mode_cmd->modifier[0]);
		return ERR_PTR(-EINVAL);
	}
	ret = atomkms_fb_check_geometry(drm, info, mode_cmd);
	if (ret)
		return ERR_PTR(ret);

	akfb = kzalloc(sizeof(*akfb), GFP_KERNEL);
	if (!akfb)
		return ERR_PTR(-ENOMEM);
	ret = atomkms_fb_lookup_objects(drm, file, info, mode_cmd, objs);
	if (ret)
		goto err_free;

	/* The references taken by the lookup become the framebuffer's. */
	drm_helper_mode_fill_fb_struct(drm, &akfb->base, info, mode_cmd);
	for (i = 0; i < info->num_planes; i++)
		akfb->base.obj[i] = objs[i];

	ret = drm_gem_fb_vmap(&akfb->base, akfb->map, akfb->data);
	if (ret) {
		drm_dbg_kms(drm, "cannot map the framebuffer: %d\n", ret);
		goto err_put;
	}
	ret = drm_framebuffer_init(drm, &akfb->base, &atomkms_fb_funcs);
	if (ret) {
		drm_dbg_kms(drm, "cannot register the framebuffer: %d\n", ret);
		drm_gem_fb_vunmap(&akfb->base, akfb->map);
		goto err_put;
	}
	return &akfb->base;

err_put:
	for (i = 0; i < info->num_planes; i++)
		drm_gem_object_put(objs[i]);
err_free:
	kfree(akfb);
	return ERR_PTR(ret);
}
