// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "atomkms-timing": a DRM mode's timing as the vblank timer
 * takes it (atomkms_timing_from_mode()), and the frame period, refresh
 * and limits atomkms.ko computes from it, in the kernel's 64-bit
 * arithmetic (div_u64), for standard modes, at the 1 Hz and 1000 Hz
 * limits, and at clocks and totals far beyond them.
 */
#include <linux/limits.h>

#include <kunit/test.h>

#include <drm/drm_drv.h>
#include <drm/drm_kunit_helpers.h>
#include <drm/drm_modes.h>

#include "atomkms_test.h"

struct timing_env {
	struct drm_device drm;
};

/* A bare DRM device: the mode helpers want one. */
static struct drm_device *timing_drm(struct kunit *test)
{
	struct timing_env *env;
	struct device *dev;

	dev = drm_kunit_helper_alloc_device(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	env = drm_kunit_helper_alloc_drm_device(test, dev, struct timing_env,
						drm, DRIVER_MODESET);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, env);
	return &env->drm;
}

/* Every field of @t is that of @want. */
static void timing_expect(struct kunit *test, const struct atomkms_timing *t,
			  const struct atomkms_timing *want)
{
	KUNIT_EXPECT_EQ(test, t->clock_khz, want->clock_khz);
	KUNIT_EXPECT_EQ(test, t->hdisplay, want->hdisplay);
	KUNIT_EXPECT_EQ(test, t->hsync_start, want->hsync_start);
	KUNIT_EXPECT_EQ(test, t->hsync_end, want->hsync_end);
	KUNIT_EXPECT_EQ(test, t->htotal, want->htotal);
	KUNIT_EXPECT_EQ(test, t->vdisplay, want->vdisplay);
	KUNIT_EXPECT_EQ(test, t->vsync_start, want->vsync_start);
	KUNIT_EXPECT_EQ(test, t->vsync_end, want->vsync_end);
	KUNIT_EXPECT_EQ(test, t->vtotal, want->vtotal);
	KUNIT_EXPECT_EQ(test, t->hsync_positive, want->hsync_positive);
	KUNIT_EXPECT_EQ(test, t->vsync_positive, want->vsync_positive);
}

/* The user's timings, or the CRTC's (crtc_*), and the sync polarities. */
static void timing_from_mode_fields(struct kunit *test)
{
	const struct akt_timing user = {
		148500, AKT_H_1080P, AKT_V_1080P,
		.flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NVSYNC,
	};
	struct drm_display_mode *mode = akt_mode(test, &user);
	struct atomkms_timing want = {
		148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125,
		true, false,
	};
	struct atomkms_timing t;

	atomkms_timing_from_mode(&t, mode, false);
	timing_expect(test, &t, &want);

	/* What a CRTC would scan out instead: another clock and totals. */
	want.clock_khz = 74250;
	want.htotal = 2300;
	want.vtotal = 1200;
	want.vsync_start = 1090;
	mode->crtc_clock = want.clock_khz;
	mode->crtc_htotal = want.htotal;
	mode->crtc_vtotal = want.vtotal;
	mode->crtc_vsync_start = want.vsync_start;
	atomkms_timing_from_mode(&t, mode, true);
	timing_expect(test, &t, &want);

	mode->flags = DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_PVSYNC;
	want.hsync_positive = false;
	want.vsync_positive = true;
	atomkms_timing_from_mode(&t, mode, true);
	timing_expect(test, &t, &want);
}

/* CEA-861 VIC 16, 1920x1080@60: 2200x1125 at 148.5 MHz, +hsync +vsync. */
static struct drm_display_mode *timing_cea_vic16(struct kunit *test)
{
	struct drm_display_mode *mode;

	mode = drm_kunit_display_mode_from_cea_vic(test, timing_drm(test), 16);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	drm_mode_set_crtcinfo(mode, 0);
	return mode;
}

/* The same at 148.5 / 1.001 MHz (148352 kHz): 59.94 Hz. */
static struct drm_display_mode *timing_1080p59_94(struct kunit *test)
{
	const struct akt_timing t = {
		148352, AKT_H_1080P, AKT_V_1080P,
		.flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC,
	};

	return akt_mode(test, &t);
}

/* VESA DMT 1024x768@60: 1344x806 at 65 MHz, -hsync -vsync. */
static struct drm_display_mode *timing_dmt_1024x768_60(struct kunit *test)
{
	return akt_dmt(test, timing_drm(test), 1024, 768, 60);
}

/* Standard modes: their timing, frame period and refresh. */
struct timing_mode_case {
	const char *desc;
	struct drm_display_mode *(*mode)(struct kunit *test);
	struct atomkms_timing timing;
	u64 frame_ns;
	u32 refresh_mhz;
};

static const struct timing_mode_case timing_mode_cases[] = {
	/* 2475000 pixels / 148.5 MHz = 16666666.67 ns, rounded. */
	{ "CEA-861 1080p60", timing_cea_vic16,
	  { 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, true,
	    true }, 16666667, 60000 },
	/* 2475000e6 / 148352 = 16683293.79 ns; 148352e6 / 2475000 mHz. */
	{ "1080p59.94", timing_1080p59_94,
	  { 148352, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, true,
	    true }, 16683294, 59940 },
	/* 1083264 pixels / 65 MHz = 16665600 ns exactly; 60003.84 mHz. */
	{ "DMT 1024x768@60", timing_dmt_1024x768_60,
	  { 65000, 1024, 1048, 1184, 1344, 768, 771, 777, 806, false, false },
	  16665600, 60004 },
};

KUNIT_ARRAY_PARAM_DESC(timing_mode, timing_mode_cases, desc);

static void timing_standard_modes(struct kunit *test)
{
	const struct timing_mode_case *c = test->param_value;
	struct atomkms_timing t;

	atomkms_timing_from_mode(&t, c->mode(test), true);
	timing_expect(test, &t, &c->timing);
	KUNIT_EXPECT_EQ(test, atomkms_timing_check(&t), ATOMKMS_TIMING_OK);
	KUNIT_EXPECT_EQ(test, atomkms_timing_frame_ns(&t), c->frame_ns);
	KUNIT_EXPECT_EQ(test, atomkms_timing_refresh_mhz(&t), c->refresh_mhz);
}

/* Timings around the limits, and far beyond them. */
/* A refresh not to check: it does not fit the u32 the function returns. */
#define AKT_ANY_RATE	U32_MAX

struct timing_case {
	const char *desc;
	struct akt_timing mode;
	enum atomkms_timing_status status;
	u64 frame_ns;
	u32 refresh_mhz;
};

static const struct timing_case timing_cases[] = {
	/* VGA's 800x525 totals: 420 MHz is 1000 Hz, 420 kHz is 1 Hz. */
	{ "1000 Hz exactly", { 420000, AKT_VGA }, ATOMKMS_TIMING_OK, 1000000,
	  1000000 },
	{ "just above 1000 Hz", { 420001, AKT_VGA }, ATOMKMS_TIMING_RATE_HIGH,
	  999998, 1000002 },
	{ "1200 Hz", { 504000, AKT_VGA }, ATOMKMS_TIMING_RATE_HIGH, 833333,
	  1200000 },
	{ "1 Hz exactly", { 420, AKT_VGA }, ATOMKMS_TIMING_OK, 1000000000,
	  1000 },
	{ "just below 1 Hz", { 419, AKT_VGA }, ATOMKMS_TIMING_RATE_LOW,
	  1002386635, 998 },
	{ "zero clock", { 0, AKT_VGA }, ATOMKMS_TIMING_NO_CLOCK, 0, 0 },
	{ "negative clock", { -148500, AKT_VGA }, ATOMKMS_TIMING_NO_CLOCK },
	/* The fastest clock with the largest totals: no overflow. */
	{ "3 GHz, 16384x16384 totals",
	  { 3000000, 8192, 8200, 8300, 16384, 8192, 8200, 8300, 16384 },
	  ATOMKMS_TIMING_OK, 89478485, 11176 },
	{ "clock above 3 GHz",
	  { 3000001, 8192, 8200, 8300, 16384, 8192, 8200, 8300, 16384 },
	  ATOMKMS_TIMING_CLOCK_HIGH, 89478456, 11176 },
	{ "INT_MAX clock", { INT_MAX, AKT_VGA }, ATOMKMS_TIMING_CLOCK_HIGH, 196,
	  AKT_ANY_RATE },
	/* 65535^2 * 10^6 ns: 4.3e15, far within 64 bits, exact. */
	{ "1 kHz, 65535x65535 totals",
	  { 1, 8192, 8200, 8300, 65535, 8192, 8200, 8300, 65535 },
	  ATOMKMS_TIMING_TOO_BIG, 4294836225000000ULL },
	{ "16385 lines",
	  { 148500, AKT_H_1080P, .vdisplay = 1080, .vsync_start = 1084,
	    .vsync_end = 1089, .vtotal = 16385 },
	  ATOMKMS_TIMING_TOO_BIG, 242740741, 4120 },
	{ "8193 pixels wide",
	  { 3000000, 8193, 8200, 8300, 16384, AKT_V_1080P },
	  ATOMKMS_TIMING_TOO_BIG, 6144000, 162760 },
	{ "no active pixels",
	  { 148500, 0, 2008, 2052, 2200, AKT_V_1080P },
	  ATOMKMS_TIMING_BAD_H, 16666667, 60000 },
	{ "hsync after htotal",
	  { 148500, 1920, 2008, 2252, 2200, AKT_V_1080P },
	  ATOMKMS_TIMING_BAD_H, 16666667, 60000 },
	{ "vsync before vdisplay",
	  { 148500, AKT_H_1080P, .vdisplay = 1080, .vsync_start = 1079,
	    .vsync_end = 1089, .vtotal = 1125 },
	  ATOMKMS_TIMING_BAD_V, 16666667, 60000 },
	{ "no lines at all", { 148500, AKT_H_1080P }, ATOMKMS_TIMING_BAD_V },
};

KUNIT_ARRAY_PARAM_DESC(timing, timing_cases, desc);

static void timing_limits(struct kunit *test)
{
	const struct timing_case *c = test->param_value;
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = akt_mode(test, &c->mode);
	atomkms_timing_from_mode(&t, mode, true);
	KUNIT_EXPECT_EQ(test, t.clock_khz,
			c->mode.clock > 0 ? (u32)c->mode.clock : 0);
	KUNIT_EXPECT_EQ_MSG(test, atomkms_timing_check(&t), c->status,
			    "check says \"%s\"",
			    atomkms_timing_status_str(atomkms_timing_check(&t)));
	KUNIT_EXPECT_EQ(test, atomkms_timing_frame_ns(&t), c->frame_ns);
	if (c->refresh_mhz != AKT_ANY_RATE)
		KUNIT_EXPECT_EQ(test, atomkms_timing_refresh_mhz(&t),
				c->refresh_mhz);
}

/* CVT modes on either side of 1000 Hz, as atomkms's connectors make them. */
static void timing_cvt_rates(struct kunit *test)
{
	struct drm_device *drm = timing_drm(test);
	struct drm_display_mode *mode;
	struct atomkms_timing t;
	u32 mhz;

	mode = drm_cvt_mode(drm, 640, 480, 500, true, false, false);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	KUNIT_ASSERT_EQ(test, drm_kunit_add_mode_destroy_action(test, mode), 0);
	atomkms_timing_from_mode(&t, mode, false);
	KUNIT_EXPECT_EQ(test, atomkms_timing_check(&t), ATOMKMS_TIMING_OK);
	mhz = atomkms_timing_refresh_mhz(&t);
	KUNIT_EXPECT_GE(test, mhz, 499000);
	KUNIT_EXPECT_LE(test, mhz, 501000);

	mode = drm_cvt_mode(drm, 640, 480, 1200, true, false, false);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	KUNIT_ASSERT_EQ(test, drm_kunit_add_mode_destroy_action(test, mode), 0);
	atomkms_timing_from_mode(&t, mode, false);
	KUNIT_EXPECT_EQ(test, atomkms_timing_check(&t),
			ATOMKMS_TIMING_RATE_HIGH);
	KUNIT_EXPECT_LT(test, atomkms_timing_frame_ns(&t),
			ATOMKMS_MIN_FRAME_NS);
}

/* Every status has its own message. */
static void timing_status_strings(struct kunit *test)
{
	enum atomkms_timing_status a, b;

	for (a = ATOMKMS_TIMING_OK; a <= ATOMKMS_TIMING_RATE_LOW; a++) {
		KUNIT_EXPECT_STRNEQ(test, atomkms_timing_status_str(a),
				    "unknown");
		for (b = ATOMKMS_TIMING_OK; b < a; b++)
			KUNIT_EXPECT_STRNEQ(test, atomkms_timing_status_str(a),
					    atomkms_timing_status_str(b));
	}
	KUNIT_EXPECT_STREQ(test,
			   atomkms_timing_status_str(ATOMKMS_TIMING_RATE_LOW + 1),
			   "unknown");
}

static struct kunit_case timing_test_cases[] = {
	KUNIT_CASE(timing_from_mode_fields),
	KUNIT_CASE_PARAM(timing_standard_modes, timing_mode_gen_params),
	KUNIT_CASE_PARAM(timing_limits, timing_gen_params),
	KUNIT_CASE(timing_cvt_rates),
	KUNIT_CASE(timing_status_strings),
	{}
};

static struct kunit_suite timing_suite = {
	.name = "atomkms-timing",
	.test_cases = timing_test_cases,
};

kunit_test_suite(timing_suite);
