// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "atomkms-limits": the simulated display-engine limits in
 * the driver (module/atomkms_limits.c). Devices built from module
 * parameters with limits, and what their atomic_check accepts and
 * refuses: each limit the parameters set at its boundary and one over,
 * the presets' pools, and no limit at all taking what atomkms always
 * took; then what the planes and mode_config show of a profile (formats,
 * cursor size).
 */
#include <kunit/test.h>

#include <drm/drm_fourcc.h>
#include <drm/drm_plane.h>

#include "atomkms_test.h"

/*
 * A 1024x768@60 CRTC (65 MHz), planes of 640x480 XRGB8888 (cursors
 * 64x64 ARGB8888), unscaled; the default topology's planes per CRTC:
 * primary, 3 overlays, cursor.
 */
static const struct akt_scene limits_cases[] = {
	{ "no limit: every plane", NULL,
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1, 1, 1 }, .ret = 0 },
	{ "max_active_planes=2: 2 planes", "max_active_planes=2",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1 }, .ret = 0 },
	{ "max_active_planes=2: 3 planes", "max_active_planes=2",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1 }, .ret = -EINVAL },
	{ "max_active_planes=0: no plane", "max_active_planes=0",
	  .drive = { AKT_CRTC(0) }, .ret = 0 },
	{ "max_active_planes=0: 1 plane", "max_active_planes=0",
	  .drive = { AKT_CRTC(0) }, .show = { 1 }, .ret = -EINVAL },
	/* 640x480x4 bytes at 60.004 Hz: 73.7 MB/s a plane. */
	{ "bandwidth_mbps=100: 1 plane", "bandwidth_mbps=100",
	  .drive = { AKT_CRTC(0) }, .show = { 1 }, .ret = 0 },
	{ "bandwidth_mbps=100: 2 planes", "bandwidth_mbps=100",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1 }, .ret = -EINVAL },
	/* Two CRTCs at one mode share one PLL. */
	{ "num_plls=1: 2 CRTCs at one clock", "num_crtcs=2 num_plls=1",
	  .drive = { AKT_CRTC(0), AKT_CRTC(1) }, .ret = 0 },
	{ "num_plls=0: 1 CRTC", "num_plls=0",
	  .drive = { AKT_CRTC(0) }, .ret = -EINVAL },
	{ "num_plls=0: no CRTC", "num_plls=0", .ret = 0 },
	/* Unscaled planes use no scaler. */
	{ "num_scalers=0: unscaled planes", "num_scalers=0",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1, 1, 1 }, .ret = 0 },
	/* soc: a pool of 4, 2 of them cursors too. */
	{ "soc: 3 planes and a cursor", "limits=soc",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1, 0, 1 }, .ret = 0 },
	{ "soc: 4 planes and a cursor", "limits=soc",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1, 1, 1 }, .ret = -EINVAL },
	/* laptop: pipe A has 3 universal planes and a cursor. */
	{ "laptop: 3 planes and a cursor", "limits=laptop",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1, 0, 1 }, .ret = 0 },
	{ "laptop: 4 planes", "limits=laptop",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1, 1 }, .ret = -EINVAL },
	{ "laptop, max_active_planes=2: 3 planes",
	  "limits=laptop max_active_planes=2",
	  .drive = { AKT_CRTC(0) }, .show = { 1, 1, 1 }, .ret = -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(limits, limits_cases, desc);

static void limits_scene(struct kunit *test)
{
	akt_check_scene(test, test->param_value);
}

/*
 * A profile limits something, or nothing: the check is on or off. One
 * device a case: a KUnit test has one mock device.
 */
struct limits_on_case {
	const char *desc, *params;
	bool on;
};

static const struct limits_on_case limits_on_cases[] = {
	{ "no parameter: off", NULL, false },
	{ "limits=none: off", "limits=none", false },
	{ "num_plls=8: on", "num_plls=8", true },
};

KUNIT_ARRAY_PARAM_DESC(limits_on, limits_on_cases, desc);

static void limits_on_only_with_a_limit(struct kunit *test)
{
	const struct limits_on_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test,
			akt_device(test, akt_params(test, c->params))->limits_on,
			c->on);
}

/*
 * laptop: cursors up to 256x256 (DRM_CAP_CURSOR_WIDTH); NV12 on pipe A's
 * overlays, not on pipe C's (their hardware planes read packed formats
 * only). Planes per CRTC with num_overlays=1: primary, overlay, cursor.
 */
static void limits_laptop_caps(struct kunit *test)
{
	struct atomkms_device *akdev;

	akdev = akt_device(test, akt_params(test,
					    "limits=laptop num_crtcs=3 num_overlays=1"));
	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.cursor_width, 256);
	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.cursor_height, 256);
	KUNIT_EXPECT_TRUE(test, drm_plane_has_format(akt_plane(test, 1),
						     DRM_FORMAT_NV12,
						     DRM_FORMAT_MOD_LINEAR));
	KUNIT_EXPECT_FALSE(test, drm_plane_has_format(akt_plane(test, 7),
						      DRM_FORMAT_NV12,
						      DRM_FORMAT_MOD_LINEAR));
	KUNIT_EXPECT_TRUE(test, drm_plane_has_format(akt_plane(test, 7),
						     DRM_FORMAT_YUYV,
						     DRM_FORMAT_MOD_LINEAR));
}

/* Without a profile, the cursor cap is atomkms's own. */
static void limits_default_cursor(struct kunit *test)
{
	struct atomkms_device *akdev = akt_device(test, akt_params(test, NULL));

	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.cursor_width,
			ATOMKMS_MAX_CURSOR);
}

static struct kunit_case limits_test_cases[] = {
	KUNIT_CASE_PARAM(limits_scene, limits_gen_params),
	KUNIT_CASE_PARAM(limits_on_only_with_a_limit, limits_on_gen_params),
	KUNIT_CASE(limits_laptop_caps),
	KUNIT_CASE(limits_default_cursor),
	{}
};

static struct kunit_suite limits_suite = {
	.name = "atomkms-limits",
	.init = akt_init,
	.test_cases = limits_test_cases,
};

kunit_test_suite(limits_suite);
