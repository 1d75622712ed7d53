// SPDX-License-Identifier: GPL-2.0-only
/*
 * Planes: primary, overlay and cursor, all universal planes. atomic_check
 * derives the compositor's plane job (clipped rectangles, reader, blend,
 * fast-path flags) into our plane state, so the frame loop recomputes
 * nothing.
 */
#include <linux/completion.h>
#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_print.h>

#include "atomkms_drv.h"
#include "atomkms_compose.h"

/*
 * Cursor sizes for compositors to prefer (SIZE_HINTS), to the 512x512 that
 * DRM_CAP_CURSOR_WIDTH/HEIGHT advertise. A larger cursor is composed like
 * any plane: igt's kms_plane_alpha_blend puts a full-screen framebuffer on
 * the cursor plane.
 */
static const struct drm_plane_size_hint atomkms_cursor_size_hints[] = {
	{ 64, 64 }, { 128, 128 }, { 256, 256 },
	{ ATOMKMS_MAX_CURSOR, ATOMKMS_MAX_CURSOR },
};

static const u64 atomkms_plane_modifiers[] = {
	DRM_FORMAT_MOD_LINEAR,
	DRM_FORMAT_MOD_INVALID
};

#define ATOMKMS_ROTATIONS (DRM_MODE_ROTATE_0 | DRM_MODE_ROTATE_90 | \
			   DRM_MODE_ROTATE_180 | DRM_MODE_ROTATE_270 | \
			   DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y)
#define ATOMKMS_BLEND_MODES (BIT(DRM_MODE_BLEND_PIXEL_NONE) | \
			     BIT(DRM_MODE_BLEND_PREMULTI) | \
			     BIT(DRM_MODE_BLEND_COVERAGE))
#define ATOMKMS_FILTERS (BIT(DRM_SCALING_FILTER_DEFAULT) | \
			 BIT(DRM_SCALING_FILTER_NEAREST_NEIGHBOR))
#define ATOMKMS_ENCODINGS (BIT(DRM_COLOR_YCBCR_BT601) | \
			   BIT(DRM_COLOR_YCBCR_BT709) | \
			   BIT(DRM_COLOR_YCBCR_BT2020))
#define ATOMKMS_RANGES (BIT(DRM_COLOR_YCBCR_LIMITED_RANGE) | \
			BIT(DRM_COLOR_YCBCR_FULL_RANGE))

static struct drm_plane_state *
atomkms_plane_duplicate_state(struct drm_plane *plane)
{
	struct atomkms_plane_state *state;

	if (drm_WARN_ON(plane->dev, !plane->state))
		return NULL;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return NULL;

	__drm_atomic_helper_plane_duplicate_state(plane, &state->base);
	/* The job is derived again by atomic_check. */
	return &state->base;
}

static void atomkms_plane_destroy_state(struct drm_plane *plane,
					struct drm_plane_state *state)
{
	struct atomkms_plane_state *akstate = to_atomkms_plane_state(state);

	__drm_atomic_helper_plane_destroy_state(&akstate->base);
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
	__drm_atomic_helper_plane_reset(plane, &state->base);
}

static const struct drm_plane_funcs atomkms_plane_funcs = {
	.update_plane		= drm_atomic_helper_update_plane,
	.disable_plane		= drm_atomic_helper_disable_plane,
	.reset			= atomkms_plane_reset,
	.atomic_duplicate_state	= atomkms_plane_duplicate_state,
	.atomic_destroy_state	= atomkms_plane_destroy_state,
	ATOMKMS_PLANE_FUNCS_ASYNC_FORMATS
};

/* Async flips swap the buffer only: the scanout engine is not reprogrammed. */
static int atomkms_plane_check_async(struct drm_plane *plane,
				     struct drm_plane_state *old_state,
				     struct drm_plane_state *new_state)
{
	const struct drm_framebuffer *old_fb = old_state->fb;
	const struct drm_framebuffer *new_fb = new_state->fb;

	if (!old_fb || !new_fb || !old_state->visible) {
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] async flip needs a visible plane\n",
			       plane->base.id, plane->name);
		return -EINVAL;
	}
	if (old_fb->format != new_fb->format ||
	    old_fb->modifier != new_fb->modifier ||
	    old_fb->pitches[0] != new_fb->pitches[0] ||
	    old_fb->width != new_fb->width || old_fb->height != new_fb->height) {
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] async flip cannot change format, modifier, pitch or size\n",
			       plane->base.id, plane->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * What the compositor does with visible plane state @ps on a CRTC in mode
 * @mode: its job, derived once here and read at every frame.
 */
static int atomkms_plane_job_from_state(struct atomkms_plane *akplane,
					struct drm_plane_state *ps,
					const struct drm_display_mode *mode)
{
	struct drm_plane *plane = &akplane->base;
	const struct atomkms_plane_desc desc = {
		.fourcc = ps->fb->format->format,
		.fb_width = ps->fb->width,
		.fb_height = ps->fb->height,
		.src_x = ps->src_x,
		.src_y = ps->src_y,
		.src_w = ps->src_w,
		.src_h = ps->src_h,
		.dst_x = ps->crtc_x,
		.dst_y = ps->crtc_y,
		.dst_w = ps->crtc_w,
		.dst_h = ps->crtc_h,
		.crtc_width = mode->hdisplay,
		.crtc_height = mode->vdisplay,
		.rotation = ps->rotation,
		.alpha = ps->alpha,
		.blend_mode = ps->pixel_blend_mode,
		.color_encoding = ps->color_encoding,
		.color_range = ps->color_range,
		.filter = ps->scaling_filter ==
			  DRM_SCALING_FILTER_NEAREST_NEIGHBOR ?
			  ATOMKMS_FILTER_NEAREST : ATOMKMS_FILTER_BILINEAR,
		.min_scale = akplane->min_scale,
		.max_scale = akplane->max_scale,
	};
	const char *reason = "";
	int ret;

	ret = atomkms_plane_job_init(&to_atomkms_plane_state(ps)->job, &desc,
				     &reason);
	if (ret)
		drm_dbg_atomic(plane->dev, "[PLANE:%d:%s] rejected: %s (%d)\n",
			       plane->base.id, plane->name, reason, ret);
	return ret;
}

static int atomkms_plane_atomic_check(struct drm_plane *plane,
				      struct drm_atomic_commit *state)
{
	struct atomkms_plane *akplane = to_atomkms_plane(plane);
	struct drm_plane_state *new_state =
		drm_atomic_get_new_plane_state(state, plane);
	struct atomkms_plane_state *akstate = to_atomkms_plane_state(new_state);
	struct drm_crtc_state *crtc_state = NULL;
	int ret;

	memset(&akstate->job, 0, sizeof(akstate->job));
	if (new_state->crtc)
		crtc_state = drm_atomic_get_new_crtc_state(state,
							   new_state->crtc);

	/*
	 * An in-fence orders the scan-out of a framebuffer: a plane left
	 * without one has nothing to wait for, and the commit helpers WARN
	 * on such a fence (found by atomkms-fuzz, seed 1, op 1404).
	 */
	if (new_state->fence && !new_state->fb) {
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] IN_FENCE_FD without a framebuffer\n",
			       plane->base.id, plane->name);
		return -EINVAL;
	}

	/* Planes may hang off screen; they are clipped to the CRTC. */
	ret = drm_atomic_helper_check_plane_state(new_state, crtc_state,
						  akplane->min_scale,
						  akplane->max_scale,
						  true, true);
	if (ret) {
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] rejected by the plane helper: %d\n",
			       plane->base.id, plane->name, ret);
		return ret;
	}

	if (crtc_state && crtc_state->async_flip &&
	    plane->type == DRM_PLANE_TYPE_PRIMARY) {
		struct drm_plane_state *old_state =
			drm_atomic_get_old_plane_state(state, plane);

		ret = atomkms_plane_check_async(plane, old_state, new_state);
		if (ret)
			return ret;
	}

	if (!new_state->visible)
		return 0;
	return atomkms_plane_job_from_state(akplane, new_state,
					    &crtc_state->mode);
}

static void atomkms_plane_atomic_update(struct drm_plane *plane,
					struct drm_atomic_commit *state)
{
	/*
	 * Nothing to program: the new state becomes plane->state, and the
	 * CRTC's atomic_flush hands it to the compositor.
	 */
}

/*
 * Legacy cursor moves (and atomic updates of the cursor alone) are applied
 * at once, without waiting for a vblank, as on display engines whose cursor
 * registers are double-buffered: compositors move the cursor many times a
 * frame, and igt's kms_cursor_legacy and cursor-rapid-movement expect it.
 *
 * An async update changes the current plane state in place and rebuilds
 * the frame the compositor shows. That frame is built from the current
 * CRTC state only once that state is programmed: a commit on the CRTC that
 * has swapped its state in but not yet reached hw_done (one waiting for a
 * fence, in its worker) leaves the compositor on the previous frame, which
 * still reads the cursor state being changed. Such an update is refused
 * with -EBUSY, and the core then runs it as an ordinary commit after the
 * pending one, as i915's legacy cursor path does.
 *
 * @flip is set when the core asks whether a non-primary plane may change
 * its framebuffer in an async atomic flip (kernels from 6.15): none may,
 * as on the older kernels, whose core refuses such flips itself.
 */
int atomkms_plane_atomic_async_check(struct drm_plane *plane,
				     struct drm_atomic_commit *state, bool flip)
{
	struct drm_plane_state *new_state =
		drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_commit *commit;
	struct drm_crtc_state *crtc_state;

	if (flip) {
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] only primary planes flip async\n",
			       plane->base.id, plane->name);
		return -EINVAL;
	}
	if (plane->type != DRM_PLANE_TYPE_CURSOR || !new_state->crtc ||
	    new_state->crtc != plane->state->crtc || !new_state->fb ||
	    !plane->state->fb)
		return -EINVAL;
	crtc_state = drm_atomic_get_new_crtc_state(state, new_state->crtc);
	if (!crtc_state || !crtc_state->active)
		return -EINVAL;
	commit = new_state->crtc->state->commit;
	if (commit && !try_wait_for_completion(&commit->hw_done)) {
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] async update waits: a commit on [CRTC:%d] is not programmed yet\n",
			       plane->base.id, plane->name,
			       new_state->crtc->base.id);
		return -EBUSY;
	}
	return atomkms_plane_atomic_check(plane, state);
}

static void atomkms_plane_atomic_async_update(struct drm_plane *plane,
					      struct drm_atomic_commit *state)
{
	struct drm_plane_state *new_state =
		drm_atomic_get_new_plane_state(state, plane);
	struct drm_plane_state *cur = plane->state;
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(cur->crtc);
	struct atomkms_crtc_state *akcs = to_atomkms_crtc_state(cur->crtc->state);

	/* In place, as the helper wants; the compositor reads under the lock. */
	spin_lock_irq(&akcrtc->scanout.lock);
	swap(cur->fb, new_state->fb);
	cur->crtc_x = new_state->crtc_x;
	cur->crtc_y = new_state->crtc_y;
	cur->crtc_w = new_state->crtc_w;
	cur->crtc_h = new_state->crtc_h;
	cur->src_x = new_state->src_x;
	cur->src_y = new_state->src_y;
	cur->src_w = new_state->src_w;
	cur->src_h = new_state->src_h;
	cur->src = new_state->src;
	cur->dst = new_state->dst;
	cur->visible = new_state->visible;
	to_atomkms_plane_state(cur)->job = to_atomkms_plane_state(new_state)->job;
	if (akcrtc->scanout.active == akcs) {
		atomkms_crtc_build_frame(cur->crtc, akcs);
		akcrtc->scanout.generation++;
	}
	spin_unlock_irq(&akcrtc->scanout.lock);
}

static const struct drm_plane_helper_funcs atomkms_plane_helper_funcs = {
	/* Fences only: atomkms framebuffers are always mapped. */
	.prepare_fb	= drm_gem_plane_helper_prepare_fb,
	.atomic_check	= atomkms_plane_atomic_check,
	.atomic_update	= atomkms_plane_atomic_update,
	.atomic_async_check	= ATOMKMS_ASYNC_CHECK_HOOK,
	.atomic_async_update	= atomkms_plane_atomic_async_update,
};

static int atomkms_plane_add_properties(struct drm_plane *plane,
					const struct atomkms_topo_plane *tp,
					bool yuv)
{
	int ret;

	/*
	 * The compositor stacks planes by normalized zpos whatever their
	 * type, so any plane may move: overlays, and a primary or cursor the
	 * topology makes mutable (mutable_zpos, configfs's zpos_mutable).
	 */
	if (tp->zpos_mutable)
		ret = drm_plane_create_zpos_property(plane, tp->zpos,
						     tp->zpos_min, tp->zpos_max);
	else
		ret = drm_plane_create_zpos_immutable_property(plane, tp->zpos);
	if (ret)
		return ret;

	ret = drm_plane_create_alpha_property(plane);
	if (ret)
		return ret;
	ret = drm_plane_create_blend_mode_property(plane, ATOMKMS_BLEND_MODES);
	if (ret)
		return ret;
	/* The core refuses a rotation outside the property's values. */
	ret = drm_plane_create_rotation_property(plane, DRM_MODE_ROTATE_0,
						 tp->rotations &
						 ATOMKMS_ROTATIONS);
	if (ret)
		return ret;
	drm_plane_enable_fb_damage_clips(plane);

	if (plane->type != DRM_PLANE_TYPE_CURSOR) {
		ret = drm_plane_create_scaling_filter_property(plane,
							       ATOMKMS_FILTERS);
		if (ret)
			return ret;
	}
	if (!yuv)
		return 0;
	return drm_plane_create_color_properties(plane, ATOMKMS_ENCODINGS,
						 ATOMKMS_RANGES,
						 DRM_COLOR_YCBCR_BT601,
						 DRM_COLOR_YCBCR_LIMITED_RANGE);
}

/**
 * atomkms_plane_format_mod_supported_async - what an async flip may scan out
 * @plane: the plane
 * @format: a format of the plane's
 * @modifier: a modifier
 *
 * The pairs IN_FORMATS_ASYNC lists. An async flip keeps the plane's
 * format, so a primary plane takes all its formats with the one modifier
 * (linear) atomkms scans out; other planes do not flip async.
 *
 * Return: true if an async flip may bring the pair.
 */
bool atomkms_plane_format_mod_supported_async(struct drm_plane *plane,
					      u32 format, u64 modifier)
{
	return plane->type == DRM_PLANE_TYPE_PRIMARY &&
	       modifier == DRM_FORMAT_MOD_LINEAR;
}

/**
 * atomkms_plane_create - create a universal plane
 * @akdev: the device
 * @tp: the plane in the topology: type, CRTCs, zpos, scaling limits,
 *      formats and rotations
 *
 * The plane scans out the formats @tp names from the compositor's format
 * table (by default every one; cursors ARGB8888 and XRGB8888), in the
 * table's order: DRM's core builds IN_FORMATS from that list and refuses
 * a framebuffer of any other format on the plane (SETPLANE, atomic check),
 * so what userspace sees is what the compositor reads. Likewise the
 * rotation property offers @tp's rotations alone, and the core refuses
 * the others. COLOR_ENCODING and COLOR_RANGE come with a YCbCr format.
 * With a pool of hardware planes in the device's limits, the formats,
 * rotations and CRTCs are narrowed to those of the hardware planes it may
 * use (atomkms_limits_plane_caps()), and a cursor's SIZE_HINTS are the
 * sizes the limits allow (atomkms_limits_cursor_hints()).
 *
 * Return: the plane, or an ERR_PTR(); freed with the drm_device.
 */
struct drm_plane *atomkms_plane_create(struct atomkms_device *akdev,
				       const struct atomkms_topo_plane *tp)
{
	enum drm_plane_type type = (enum drm_plane_type)tp->type;
	struct drm_plane_size_hint hints[ATOMKMS_LIMITS_MAX_CURSOR_SIZES];
	struct drm_device *drm = &akdev->drm;
	bool cursor = type == DRM_PLANE_TYPE_CURSOR;
	struct atomkms_topo_plane caps = *tp;
	struct atomkms_plane *akplane;
	u32 *formats = NULL;
	unsigned int nformats, nhints, i;
	bool yuv = false;
	int ret;

	/*
	 * What the device's limits let the plane do, where DRM has a place
	 * for it (IN_FORMATS, the rotation property, possible_crtcs): its
	 * index in the topology is its DRM index.
	 */
	if (tp >= akdev->topo.planes &&
	    tp < akdev->topo.planes + akdev->topo.num_planes)
		atomkms_limits_plane_caps(&akdev->topo.limits,
					  tp - akdev->topo.planes, tp->type,
					  &caps.possible_crtcs, &caps.formats,
					  &caps.rotations);
	tp = &caps;

	formats = kcalloc(atomkms_num_formats, sizeof(*formats), GFP_KERNEL);
	if (!formats)
		return ERR_PTR(-ENOMEM);
	for (i = 0, nformats = 0; i < atomkms_num_formats && i < 64; i++) {
		u32 fourcc = atomkms_formats[i].fourcc;

		if (!(tp->formats & BIT_ULL(i)))
			continue;
		/* A cursor's image is ARGB8888: it leads the cursor's list. */
		if (cursor && fourcc == DRM_FORMAT_ARGB8888 && nformats) {
			formats[nformats++] = formats[0];
			formats[0] = fourcc;
		} else {
			formats[nformats++] = fourcc;
		}
		yuv |= atomkms_formats[i].is_yuv;
	}

	/* The plane core copies the format list. */
	akplane = drmm_universal_plane_alloc(drm, struct atomkms_plane, base,
					     tp->possible_crtcs,
					     &atomkms_plane_funcs, formats,
					     nformats, atomkms_plane_modifiers,
					     type, NULL);
	kfree(formats);
	if (IS_ERR(akplane))
		return ERR_CAST(akplane);
	drm_plane_helper_add(&akplane->base, &atomkms_plane_helper_funcs);
	akplane->min_scale = tp->min_scale;
	akplane->max_scale = tp->max_scale;

	ret = atomkms_plane_add_properties(&akplane->base, tp, yuv);
	if (!ret)
		ret = atomkms_compat_in_formats_async(akdev, &akplane->base);
	/* The profile's cursor sizes, if it limits them. */
	nhints = cursor ? atomkms_limits_cursor_hints(akdev, hints,
						      ARRAY_SIZE(hints)) : 0;
	if (!ret && cursor && nhints)
		ret = drm_plane_add_size_hints_property(&akplane->base, hints,
							nhints);
	else if (!ret && cursor)
		ret = drm_plane_add_size_hints_property(&akplane->base,
							atomkms_cursor_size_hints,
							ARRAY_SIZE(atomkms_cursor_size_hints));
	if (ret)
		return ERR_PTR(ret);
	return &akplane->base;
}
