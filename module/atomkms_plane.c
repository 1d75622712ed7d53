// SPDX-License-Identifier: GPL-2.0-only
/*
 * Planes: primary, cursor (and, later, overlays), all universal planes
 * with a shadow-plane state so that the framebuffer is mapped for the
 * compositor while a commit is applied.
 */
#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_print.h>

#include "atomkms_drv.h"

/* The formats primary (and overlay) planes scan out. */
static const u32 atomkms_plane_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888,
	DRM_FORMAT_RGB565,
	DRM_FORMAT_NV12,
};

/* Cursors are ARGB images, as on every display engine. */
static const u32 atomkms_cursor_formats[] = {
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XRGB8888,
};

static const u64 atomkms_plane_modifiers[] = {
	DRM_FORMAT_MOD_LINEAR,
	DRM_FORMAT_MOD_INVALID
};

static struct drm_plane_state *
atomkms_plane_duplicate_state(struct drm_plane *plane)
{
	struct atomkms_plane_state *state;

	if (drm_WARN_ON(plane->dev, !plane->state))
		return NULL;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return NULL;

	__drm_gem_duplicate_shadow_plane_state(plane, &state->base);
	return &state->base.base;
}

static void atomkms_plane_destroy_state(struct drm_plane *plane,
					struct drm_plane_state *state)
{
	struct atomkms_plane_state *akstate = to_atomkms_plane_state(state);

	__drm_gem_destroy_shadow_plane_state(&akstate->base);
	kfree(akstate);
}

static void atomkms_plane_reset(struct drm_plane *plane)
{
	struct atomkms_plane_state *state;

	if (plane->state) {
		atomkms_plane_destroy_state(plane, plane->state);
		plane->state = NULL;
	}

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return;
	__drm_gem_reset_shadow_plane(plane, &state->base);
}

static const struct drm_plane_funcs atomkms_plane_funcs = {
	.update_plane		= drm_atomic_helper_update_plane,
	.disable_plane		= drm_atomic_helper_disable_plane,
	.reset			= atomkms_plane_reset,
	.atomic_duplicate_state	= atomkms_plane_duplicate_state,
	.atomic_destroy_state	= atomkms_plane_destroy_state,
};

static int atomkms_plane_atomic_check(struct drm_plane *plane,
				      struct drm_atomic_state *state)
{
	struct drm_plane_state *new_state =
		drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_state *crtc_state = NULL;
	int ret;

	if (new_state->crtc)
		crtc_state = drm_atomic_get_new_crtc_state(state,
							   new_state->crtc);

	/* Planes may hang off screen; they are clipped to the CRTC. */
	ret = drm_atomic_helper_check_plane_state(new_state, crtc_state,
						  DRM_PLANE_NO_SCALING,
						  DRM_PLANE_NO_SCALING,
						  true, true);
	if (ret)
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] rejected: %d\n",
			       plane->base.id, plane->name, ret);
	return ret;
}

static void atomkms_plane_atomic_update(struct drm_plane *plane,
					struct drm_atomic_state *state)
{
	/*
	 * Nothing to program: the new state becomes plane->state, and the
	 * compositor reads it from there at the next vblank.
	 */
}

static const struct drm_plane_helper_funcs atomkms_plane_helper_funcs = {
	DRM_GEM_SHADOW_PLANE_HELPER_FUNCS,
	.atomic_check	= atomkms_plane_atomic_check,
	.atomic_update	= atomkms_plane_atomic_update,
};

/**
 * atomkms_plane_create - create a universal plane
 * @akdev: the device
 * @type: primary, overlay or cursor
 * @possible_crtcs: bitmask of the CRTCs it may feed
 *
 * Return: the plane, or an ERR_PTR(); freed with the drm_device.
 */
struct drm_plane *atomkms_plane_create(struct atomkms_device *akdev,
				       enum drm_plane_type type,
				       u32 possible_crtcs)
{
	bool cursor = type == DRM_PLANE_TYPE_CURSOR;
	const u32 *formats = cursor ? atomkms_cursor_formats :
				      atomkms_plane_formats;
	unsigned int nformats = cursor ? ARRAY_SIZE(atomkms_cursor_formats) :
					 ARRAY_SIZE(atomkms_plane_formats);
	struct atomkms_plane *akplane;
	struct drm_plane *plane;
	int ret;

	akplane = drmm_universal_plane_alloc(&akdev->drm, struct atomkms_plane,
					     base, possible_crtcs,
					     &atomkms_plane_funcs, formats,
					     nformats, atomkms_plane_modifiers,
					     type, NULL);
	if (IS_ERR(akplane))
		return ERR_CAST(akplane);
	plane = &akplane->base;
	drm_plane_helper_add(plane, &atomkms_plane_helper_funcs);

	/* The primary is the bottom of the stack, the cursor its top. */
	ret = drm_plane_create_zpos_immutable_property(plane,
			cursor ? ATOMKMS_ZPOS_CURSOR : ATOMKMS_ZPOS_PRIMARY);
	if (ret)
		return ERR_PTR(ret);
	drm_plane_enable_fb_damage_clips(plane);
	return plane;
}
