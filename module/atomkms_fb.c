// SPDX-License-Identifier: GPL-2.0-only
/*
 * Framebuffers: GEM framebuffers that stay mapped into the kernel for their
 * whole life. The compositor and writeback read and write them through
 * that mapping, so a page flip costs no vmap/vunmap of the buffer (which,
 * done per commit, made flips of a 4K buffer take milliseconds).
 */
#include <linux/slab.h>

#include <drm/drm_damage_helper.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_framebuffer_helper.h>
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
 * atomkms_fb_create - &drm_mode_config_funcs.fb_create
 * @drm: the device
 * @file: the client
 * @mode_cmd: what userspace asked for, checked by drm_gem_fb_init_with_funcs()
 *
 * Return: the framebuffer, mapped, or an ERR_PTR().
 */
struct drm_framebuffer *atomkms_fb_create(struct drm_device *drm,
					  struct drm_file *file,
					  const struct drm_mode_fb_cmd2 *mode_cmd)
{
	struct atomkms_fb *akfb;
	int ret;

	static_assert(offsetof(struct atomkms_fb, base) == 0);

	akfb = kzalloc(sizeof(*akfb), GFP_KERNEL);
	if (!akfb)
		return ERR_PTR(-ENOMEM);

	ret = drm_gem_fb_init_with_funcs(drm, &akfb->base, file, mode_cmd,
					 &atomkms_fb_funcs);
	if (ret) {
		kfree(akfb);
		return ERR_PTR(ret);
	}

	ret = drm_gem_fb_vmap(&akfb->base, akfb->map, akfb->data);
	if (ret) {
		drm_dbg_kms(drm, "[FB:%d] cannot map: %d\n",
			    akfb->base.base.id, ret);
		memset(akfb->map, 0, sizeof(akfb->map));
		drm_framebuffer_put(&akfb->base);
		return ERR_PTR(ret);
	}
	return &akfb->base;
}
