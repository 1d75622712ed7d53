// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "atomkms-plane": what atomkms's plane atomic_check (the
 * DRM plane helper with the topology's scaling limits, then the
 * compositor's plane job) accepts and refuses on a device built by
 * atomkms_modeset_init(), one CRTC at 1920x1080: positions on and off
 * the CRTC, scaling at and past the limits, rotation, formats per plane
 * type, cursor sizes, YUV macropixels, plane properties the job cannot
 * draw, CRTCs a plane may not feed, and async flips.
 */
#include <kunit/test.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_blend.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_modeset_helper_vtables.h>

#include "atomkms_test.h"

/* Planes of the default topology (akt_params(test, NULL)). */
#define PRIMARY		0
#define OVERLAY		1
#define CURSOR		4

struct plane_case {
	const char *desc;
	unsigned int plane;
	/* The device's module parameters (akt_params()); NULL: the defaults. */
	const char *params;
	u32 fourcc;
	u32 fb_w, fb_h;
	int x, y;
	u32 w, h;
	unsigned int rotation;
	/* Source rectangle in pixels; src_w 0: the whole framebuffer. */
	u32 src_x, src_y, src_w, src_h;
	int ret;
	bool visible;
};

#define FB(f, fw, fh)	.fourcc = DRM_FORMAT_##f, .fb_w = (fw), .fb_h = (fh)
#define AT(px, py, pw, ph) .x = (px), .y = (py), .w = (pw), .h = (ph)

static const struct plane_case plane_cases[] = {
	{ "primary, full screen", PRIMARY, FB(XRGB8888, 1920, 1080),
	  AT(0, 0, 1920, 1080), .ret = 0, .visible = true },
	{ "primary, a window of it", PRIMARY, FB(XRGB8888, 640, 480),
	  AT(100, 100, 640, 480), .ret = 0, .visible = true },
	{ "overlay, hanging off the top left", OVERLAY, FB(ARGB8888, 640, 480),
	  AT(-100, -100, 640, 480), .ret = 0, .visible = true },
	{ "overlay, wholly right of the CRTC", OVERLAY, FB(ARGB8888, 640, 480),
	  AT(1920, 0, 640, 480), .ret = 0, .visible = false },
	{ "overlay, wholly above the CRTC", OVERLAY, FB(ARGB8888, 640, 480),
	  AT(0, -480, 640, 480), .ret = 0, .visible = false },
	{ "overlay, 4x upscale (the limit)", OVERLAY, FB(XRGB8888, 480, 270),
	  AT(0, 0, 1920, 1080), .ret = 0, .visible = true },
	{ "overlay, 5x upscale", OVERLAY, FB(XRGB8888, 384, 216),
	  AT(0, 0, 1920, 1080), .ret = -ERANGE },
	{ "overlay, 4x downscale (the limit)", OVERLAY, FB(XRGB8888, 7680, 4320),
	  AT(0, 0, 1920, 1080), .ret = 0, .visible = true },
	{ "overlay, 5x downscale", OVERLAY, FB(XRGB8888, 8000, 4000),
	  AT(0, 0, 1600, 800), .ret = -ERANGE },
	{ "overlay, max_scale_factor=1: 640x480 onto 640x480", OVERLAY,
	  .params = "max_scale_factor=1", FB(XRGB8888, 640, 480),
	  AT(0, 0, 640, 480), .ret = 0, .visible = true },
	{ "overlay, max_scale_factor=1: 640x480 onto 641x480", OVERLAY,
	  .params = "max_scale_factor=1", FB(XRGB8888, 640, 480),
	  AT(0, 0, 641, 480), .ret = -ERANGE },
	{ "overlay, max_scale_factor=1: 640x480 onto 639x480", OVERLAY,
	  .params = "max_scale_factor=1", FB(XRGB8888, 640, 480),
	  AT(0, 0, 639, 480), .ret = -ERANGE },
	{ "overlay, max_scale_factor=16: 16x", OVERLAY,
	  .params = "max_scale_factor=16", FB(XRGB8888, 120, 60),
	  AT(0, 0, 1920, 960), .ret = 0, .visible = true },
	{ "overlay, max_scale_factor=16: 17x", OVERLAY,
	  .params = "max_scale_factor=16", FB(XRGB8888, 120, 60),
	  AT(0, 0, 2040, 960), .ret = -ERANGE },
	{ "overlay, 5x downscale in one axis only", OVERLAY,
	  FB(XRGB8888, 1000, 100), AT(0, 0, 200, 100), .ret = -ERANGE },
	{ "overlay, 1000x100 turned 90 degrees onto 100x1000", OVERLAY,
	  FB(XRGB8888, 1000, 100), AT(0, 0, 100, 1000),
	  .rotation = DRM_MODE_ROTATE_90, .ret = 0, .visible = true },
	{ "overlay, 1000x100 unturned onto 100x1000 (10x)", OVERLAY,
	  FB(XRGB8888, 1000, 100), AT(0, 0, 100, 1000), .ret = -ERANGE },
	{ "overlay, 270 degrees and reflected", OVERLAY, FB(XRGB8888, 640, 480),
	  AT(0, 0, 480, 640),
	  .rotation = DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_X, .ret = 0,
	  .visible = true },
	{ "overlay, two rotations at once", OVERLAY, FB(XRGB8888, 640, 640),
	  AT(0, 0, 640, 640),
	  .rotation = DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_180,
	  .ret = -EINVAL },
	{ "overlay, no rotation bit", OVERLAY, FB(XRGB8888, 640, 480),
	  AT(0, 0, 640, 480), .rotation = DRM_MODE_REFLECT_Y, .ret = -EINVAL },
	{ "overlay, NV12", OVERLAY, FB(NV12, 1280, 720), AT(0, 0, 1920, 1080),
	  .ret = 0, .visible = true },
	{ "overlay, YUYV 1919 wide (splits a macropixel)", OVERLAY,
	  FB(YUYV, 1919, 1080), AT(0, 0, 1919, 1080), .ret = -EINVAL },
	{ "overlay, YUYV 1918 wide", OVERLAY, FB(YUYV, 1918, 1080),
	  AT(0, 0, 1918, 1080), .ret = 0, .visible = true },
	{ "overlay, source past the framebuffer", OVERLAY,
	  FB(XRGB8888, 640, 480), AT(0, 0, 640, 480), .src_x = 1, .src_w = 640,
	  .src_h = 480, .ret = -ENOSPC },
	{ "overlay, a source window", OVERLAY, FB(XRGB8888, 640, 480),
	  AT(0, 0, 320, 240), .src_x = 320, .src_y = 240, .src_w = 320,
	  .src_h = 240, .ret = 0, .visible = true },
	{ "cursor, 64x64 ARGB8888", CURSOR, FB(ARGB8888, 64, 64),
	  AT(100, 100, 64, 64), .ret = 0, .visible = true },
	{ "cursor, 512x512 (the largest)", CURSOR, FB(ARGB8888, 512, 512),
	  AT(0, 0, 512, 512), .ret = 0, .visible = true },
	{ "cursor, 1024x1024 (past the size hints: composed too)", CURSOR,
	  FB(ARGB8888, 1024, 1024), AT(0, 0, 1024, 1024), .ret = 0,
	  .visible = true },
	{ "cursor, NV12", CURSOR, FB(NV12, 64, 64), AT(0, 0, 64, 64),
	  .ret = -EINVAL },
	{ "cursor, RGB565", CURSOR, FB(RGB565, 64, 64), AT(0, 0, 64, 64),
	  .ret = -EINVAL },
	{ "cursor, scaled 64 to 128", CURSOR, FB(ARGB8888, 64, 64),
	  AT(0, 0, 128, 128), .ret = -ERANGE },
	{ "cursor, hanging off the bottom right", CURSOR,
	  FB(ARGB8888, 64, 64), AT(1900, 1060, 64, 64), .ret = 0,
	  .visible = true },
};

KUNIT_ARRAY_PARAM_DESC(plane, plane_cases, desc);

static void plane_check(struct kunit *test)
{
	const struct plane_case *c = test->param_value;
	struct drm_atomic_commit *state = akt_setup(test, c->params);
	struct drm_plane_state *ps;

	ps = akt_show(test, state, c->plane, 0,
		      akt_fb(test, c->fourcc, c->fb_w, c->fb_h),
		      c->x, c->y, c->w, c->h);
	if (c->rotation)
		ps->rotation = c->rotation;
	if (c->src_w) {
		ps->src_x = c->src_x << 16;
		ps->src_y = c->src_y << 16;
		ps->src_w = c->src_w << 16;
		ps->src_h = c->src_h << 16;
	}

	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), c->ret);
	akt_unlock(test);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, ps->visible, c->visible);
	/* The compositor's job agrees: it draws what DRM says is visible. */
	KUNIT_EXPECT_EQ(test, to_atomkms_plane_state(ps)->job.visible,
			c->visible);
}

/* Properties the compositor cannot draw are refused, not ignored. */
static void plane_job_properties(struct kunit *test)
{
	struct drm_atomic_commit *state = akt_setup(test, NULL);
	struct drm_plane_state *ps;

	ps = akt_show(test, state, OVERLAY, 0,
		      akt_fb(test, DRM_FORMAT_NV12, 640, 480), 0, 0, 640, 480);
	ps->pixel_blend_mode = DRM_MODE_BLEND_COVERAGE;
	ps->color_encoding = DRM_COLOR_YCBCR_BT2020;
	ps->color_range = DRM_COLOR_YCBCR_FULL_RANGE;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);

	ps->pixel_blend_mode = DRM_MODE_BLEND_PIXEL_NONE + 1;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	ps->pixel_blend_mode = DRM_MODE_BLEND_PREMULTI;
	ps->color_encoding = DRM_COLOR_ENCODING_MAX;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	ps->color_encoding = DRM_COLOR_YCBCR_BT709;
	ps->color_range = DRM_COLOR_RANGE_MAX;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	ps->color_range = DRM_COLOR_YCBCR_LIMITED_RANGE;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);

	/* Fully transparent: accepted, and the job draws nothing. */
	ps->alpha = 0;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);
	KUNIT_EXPECT_FALSE(test, to_atomkms_plane_state(ps)->job.visible);
	akt_unlock(test);
}

/* Each plane feeds the CRTCs the topology lets it feed. */
static const struct akt_scene plane_crtcs_cases[] = {
	/* 2 CRTCs, 1 overlay each: planes 0-2 on CRTC 0, 3-5 on CRTC 1. */
	{ "CRTC 0's overlay on CRTC 0", "num_crtcs=2 num_overlays=1",
	  .drive = { AKT_CRTC(0) }, .show = { [1] = AKT_CRTC(0) }, .ret = 0 },
	{ "CRTC 1's overlay on CRTC 0", "num_crtcs=2 num_overlays=1",
	  .drive = { AKT_CRTC(0) }, .show = { [4] = AKT_CRTC(0) },
	  .ret = -EINVAL },
	{ "shared overlays, each on the other's CRTC",
	  "num_crtcs=2 num_overlays=1 shared_overlays=1",
	  .drive = { AKT_CRTC(0), AKT_CRTC(1) },
	  .show = { [1] = AKT_CRTC(1), [4] = AKT_CRTC(0) }, .ret = 0 },
	/* Primaries and cursors stay their CRTC's. */
	{ "shared overlays, CRTC 1's cursor on CRTC 0",
	  "num_crtcs=2 num_overlays=1 shared_overlays=1",
	  .drive = { AKT_CRTC(0) }, .show = { [5] = AKT_CRTC(0) },
	  .ret = -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(plane_crtcs, plane_crtcs_cases, desc);

static void plane_possible_crtcs(struct kunit *test)
{
	akt_check_scene(test, test->param_value);
}

/*
 * Async flips (the primary plane, in a commit that changes nothing but
 * its framebuffer) swap buffers of the same layout only. The plane's
 * atomic_check is called directly, with the primary's current state
 * showing a framebuffer as after an earlier commit.
 */
static void plane_async_flip(struct kunit *test)
{
	struct drm_framebuffer *cur, *same, *argb, *wide, *other_pitch;
	const struct drm_plane_helper_funcs *funcs;
	struct drm_atomic_commit *state;
	struct drm_crtc_state *cs;
	struct drm_plane_state *ps;
	struct drm_plane *plane;

	state = akt_setup(test, NULL);
	plane = akt_plane(test, PRIMARY);
	funcs = plane->helper_private;
	cur = akt_fb(test, DRM_FORMAT_XRGB8888, 1920, 1080);
	same = akt_fb(test, DRM_FORMAT_XRGB8888, 1920, 1080);
	argb = akt_fb(test, DRM_FORMAT_ARGB8888, 1920, 1080);
	wide = akt_fb(test, DRM_FORMAT_XRGB8888, 2048, 1080);
	other_pitch = akt_fb(test, DRM_FORMAT_XRGB8888, 1920, 1080);
	other_pitch->pitches[0] = 8192;

	/* Nothing shown yet: an async flip has nothing to flip. */
	cs = drm_atomic_get_new_crtc_state(state, akt_crtc(test, 0));
	cs->async_flip = true;
	ps = akt_show(test, state, PRIMARY, 0, same, 0, 0, 1920, 1080);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(plane, state), -EINVAL);

	/* As if a commit had shown @cur: the state the next one starts from. */
	plane->state->fb = cur;
	plane->state->visible = true;
	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0,
			akt_dmt(test, plane->dev, 1920, 1080, 60));
	cs->async_flip = true;
	ps = akt_show(test, state, PRIMARY, 0, same, 0, 0, 1920, 1080);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(plane, state), 0);
	drm_atomic_set_fb_for_plane(ps, argb);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(plane, state), -EINVAL);
	drm_atomic_set_fb_for_plane(ps, wide);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(plane, state), -EINVAL);
	drm_atomic_set_fb_for_plane(ps, other_pitch);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(plane, state), -EINVAL);

	/* The same changes without async_flip are ordinary flips. */
	cs->async_flip = false;
	drm_atomic_set_fb_for_plane(ps, argb);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(plane, state), 0);

	plane->state->fb = NULL;
	plane->state->visible = false;
	akt_unlock(test);
}

static struct kunit_case plane_test_cases[] = {
	KUNIT_CASE_PARAM(plane_check, plane_gen_params),
	KUNIT_CASE(plane_job_properties),
	KUNIT_CASE_PARAM(plane_possible_crtcs, plane_crtcs_gen_params),
	KUNIT_CASE(plane_async_flip),
	{}
};

static struct kunit_suite plane_suite = {
	.name = "atomkms-plane",
	.init = akt_init,
	.test_cases = plane_test_cases,
};

kunit_test_suite(plane_suite);
