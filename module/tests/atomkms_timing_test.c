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

/* The user's timings, or the CRTC's (crtc_*), and the sync polarities. */
static void timing_from_mode_fields(struct kunit *test)
{
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = akt_mode(test, 148500, 1920, 2008, 2052, 2200, 1080, 1084,
			1089, 1125, DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NVSYNC);
	/* What a CRTC would scan out instead: another clock and totals. */
	mode->crtc_clock = 74250;
	mode->crtc_htotal = 2300;
	mode->crtc_vtotal = 1200;
	mode->crtc_vsync_start = 1090;

	atomkms_timing_from_mode(&t, mode, false);
	KUNIT_EXPECT_EQ(test, t.clock_khz, 148500);
	KUNIT_EXPECT_EQ(test, t.hdisplay, 1920);
	KUNIT_EXPECT_EQ(test, t.hsync_start, 2008);
	KUNIT_EXPECT_EQ(test, t.hsync_end, 2052);
	KUNIT_EXPECT_EQ(test, t.htotal, 2200);
	KUNIT_EXPECT_EQ(test, t.vdisplay, 1080);
	KUNIT_EXPECT_EQ(test, t.vsync_start, 1084);
	KUNIT_EXPECT_EQ(test, t.vsync_end, 1089);
	KUNIT_EXPECT_EQ(test, t.vtotal, 1125);
	KUNIT_EXPECT_TRUE(test, t.hsync_positive);
	KUNIT_EXPECT_FALSE(test, t.vsync_positive);

	atomkms_timing_from_mode(&t, mode, true);
	KUNIT_EXPECT_EQ(test, t.clock_khz, 74250);
	KUNIT_EXPECT_EQ(test, t.htotal, 2300);
	KUNIT_EXPECT_EQ(test, t.vtotal, 1200);
	KUNIT_EXPECT_EQ(test, t.vsync_start, 1090);
	KUNIT_EXPECT_EQ(test, t.hdisplay, 1920);
	KUNIT_EXPECT_TRUE(test, t.hsync_positive);
	KUNIT_EXPECT_FALSE(test, t.vsync_positive);

	mode->flags = DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_PVSYNC;
	atomkms_timing_from_mode(&t, mode, true);
	KUNIT_EXPECT_FALSE(test, t.hsync_positive);
	KUNIT_EXPECT_TRUE(test, t.vsync_positive);
}

/* CEA-861 VIC 16, 1920x1080@60: 2200x1125 at 148.5 MHz, 16.666667 ms. */
static void timing_cea_1080p60(struct kunit *test)
{
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = drm_kunit_display_mode_from_cea_vic(test, timing_drm(test), 16);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	drm_mode_set_crtcinfo(mode, 0);
	atomkms_timing_from_mode(&t, mode, true);

	KUNIT_EXPECT_EQ(test, t.clock_khz, 148500);
	KUNIT_EXPECT_EQ(test, t.htotal, 2200);
	KUNIT_EXPECT_EQ(test, t.vtotal, 1125);
	KUNIT_EXPECT_TRUE(test, t.hsync_positive);
	KUNIT_EXPECT_TRUE(test, t.vsync_positive);
	KUNIT_EXPECT_EQ(test, atomkms_timing_check(&t), ATOMKMS_TIMING_OK);
	/* 2475000 pixels / 148.5 MHz = 16666666.67 ns, rounded. */
	KUNIT_EXPECT_EQ(test, atomkms_timing_frame_ns(&t), 16666667ULL);
	KUNIT_EXPECT_EQ(test, atomkms_timing_refresh_mhz(&t), 60000);
}

/* The same at 148.5 / 1.001 MHz (148352 kHz): 59.94 Hz. */
static void timing_1080p59_94(struct kunit *test)
{
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = akt_mode(test, 148352, 1920, 2008, 2052, 2200, 1080, 1084,
			1089, 1125, DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC);
	atomkms_timing_from_mode(&t, mode, true);
	KUNIT_EXPECT_EQ(test, atomkms_timing_check(&t), ATOMKMS_TIMING_OK);
	/* 2475000e6 / 148352 = 16683293.79 ns. */
	KUNIT_EXPECT_EQ(test, atomkms_timing_frame_ns(&t), 16683294ULL);
	/* 148352e6 / 2475000 = 59940.20 mHz. */
	KUNIT_EXPECT_EQ(test, atomkms_timing_refresh_mhz(&t), 59940);
}

/* VESA DMT 1024x768@60: 1344x806 at 65 MHz, -hsync -vsync. */
static void timing_dmt_1024x768_60(struct kunit *test)
{
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = akt_dmt(test, timing_drm(test), 1024, 768, 60);
	atomkms_timing_from_mode(&t, mode, true);

	KUNIT_EXPECT_EQ(test, t.clock_khz, 65000);
	KUNIT_EXPECT_EQ(test, t.hdisplay, 1024);
	KUNIT_EXPECT_EQ(test, t.htotal, 1344);
	KUNIT_EXPECT_EQ(test, t.vdisplay, 768);
	KUNIT_EXPECT_EQ(test, t.vtotal, 806);
	KUNIT_EXPECT_FALSE(test, t.hsync_positive);
	KUNIT_EXPECT_FALSE(test, t.vsync_positive);
	KUNIT_EXPECT_EQ(test, atomkms_timing_check(&t), ATOMKMS_TIMING_OK);
	/* 1083264 pixels / 65 MHz = 16665600 ns exactly. */
	KUNIT_EXPECT_EQ(test, atomkms_timing_frame_ns(&t), 16665600ULL);
	/* 65e9 / 1083264 = 60003.84 mHz. */
	KUNIT_EXPECT_EQ(test, atomkms_timing_refresh_mhz(&t), 60004);
}

/* Timings around the limits, and far beyond them. */
/* A refresh not to check: it does not fit the u32 the function returns. */
#define AKT_ANY_RATE	U32_MAX

struct timing_case {
	const char *desc;
	int clock;
	u16 hd, hss, hse, ht, vd, vss, vse, vt;
	enum atomkms_timing_status status;
	u64 frame_ns;
	u32 refresh_mhz;
};

static const struct timing_case timing_cases[] = {
	/* VGA's 800x525 totals: 420 MHz is 1000 Hz, 420 kHz is 1 Hz. */
	{ "1000 Hz exactly", 420000, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_OK, 1000000, 1000000 },
	{ "just above 1000 Hz", 420001, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_RATE_HIGH, 999998, 1000002 },
	{ "1200 Hz", 504000, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_RATE_HIGH, 833333, 1200000 },
	{ "1 Hz exactly", 420, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_OK, 1000000000, 1000 },
	{ "just below 1 Hz", 419, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_RATE_LOW, 1002386635, 998 },
	{ "zero clock", 0, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_NO_CLOCK, 0, 0 },
	{ "negative clock", -148500, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_NO_CLOCK, 0, 0 },
	/* The fastest clock with the largest totals: no overflow. */
	{ "3 GHz, 16384x16384 totals", 3000000, 8192, 8200, 8300, 16384,
	  8192, 8200, 8300, 16384, ATOMKMS_TIMING_OK, 89478485, 11176 },
	{ "clock above 3 GHz", 3000001, 8192, 8200, 8300, 16384, 8192, 8200,
	  8300, 16384, ATOMKMS_TIMING_CLOCK_HIGH, 89478456, 11176 },
	{ "INT_MAX clock", INT_MAX, 640, 656, 752, 800, 480, 490, 492, 525,
	  ATOMKMS_TIMING_CLOCK_HIGH, 196, AKT_ANY_RATE },
	/* 65535^2 * 10^6 ns: 4.3e15, far within 64 bits, exact. */
	{ "1 kHz, 65535x65535 totals", 1, 8192, 8200, 8300, 65535, 8192,
	  8200, 8300, 65535, ATOMKMS_TIMING_TOO_BIG, 4294836225000000ULL, 0 },
	{ "16385 lines", 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089,
	  16385, ATOMKMS_TIMING_TOO_BIG, 242740741, 4120 },
	{ "8193 pixels wide", 3000000, 8193, 8200, 8300, 16384, 1080, 1084,
	  1089, 1125, ATOMKMS_TIMING_TOO_BIG, 6144000, 162760 },
	{ "no active pixels", 148500, 0, 2008, 2052, 2200, 1080, 1084, 1089,
	  1125, ATOMKMS_TIMING_BAD_H, 16666667, 60000 },
	{ "hsync after htotal", 148500, 1920, 2008, 2252, 2200, 1080, 1084,
	  1089, 1125, ATOMKMS_TIMING_BAD_H, 16666667, 60000 },
	{ "vsync before vdisplay", 148500, 1920, 2008, 2052, 2200, 1080, 1079,
	  1089, 1125, ATOMKMS_TIMING_BAD_V, 16666667, 60000 },
	{ "no lines at all", 148500, 1920, 2008, 2052, 2200, 0, 0, 0, 0,
	  ATOMKMS_TIMING_BAD_V, 0, 0 },
};

static void timing_case_desc(const struct timing_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(timing, timing_cases, timing_case_desc);

static void timing_limits(struct kunit *test)
{
	const struct timing_case *c = test->param_value;
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = akt_mode(test, c->clock, c->hd, c->hss, c->hse, c->ht, c->vd,
			c->vss, c->vse, c->vt, 0);
	atomkms_timing_from_mode(&t, mode, true);
	KUNIT_EXPECT_EQ(test, t.clock_khz, c->clock > 0 ? (u32)c->clock : 0);
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
	KUNIT_CASE(timing_cea_1080p60),
	KUNIT_CASE(timing_1080p59_94),
	KUNIT_CASE(timing_dmt_1024x768_60),
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
