/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit suites of atomkms_test.ko share: a device built by the
 * driver's own init path (atomkms_modeset_init()) from a topology, on a
 * KUnit device, and the atomic states, framebuffers and modes the plane
 * and CRTC checks are run on. Nothing here is committed: the tests run
 * atomic_check only.
 */
#ifndef ATOMKMS_TEST_H
#define ATOMKMS_TEST_H

#include <kunit/test.h>

#include <drm/drm_atomic.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_modes.h>

#include "../atomkms_drv.h"

/* Framebuffers a test may make: they live as long as the test's device. */
#define AKT_MAX_FBS	8

/**
 * struct akt_env - one test's device and what hangs off it
 * @fbs: stand-in framebuffers (no GEM object: atomic_check reads only
 *       their format, size and pitches). Allocated before the device,
 *       so they outlive the plane states that point at them.
 * @num_fbs: entries of @fbs in use
 * @akdev: the device, once akt_device() made it
 * @ctx: the lock context of its atomic states, from the first
 *       akt_state() to akt_unlock()
 * @locked: @ctx is initialised
 *
 * The lock context lives within the test's own thread: KUnit runs the
 * cleanup actions in another thread, and lockdep (rightly) reports locks
 * held by a thread that exits, or released by another. So a test that
 * made states calls akt_unlock() before it returns; one that fails an
 * assertion on the way leaves them held, which the debug kernel reports.
 */
struct akt_env {
	struct drm_framebuffer fbs[AKT_MAX_FBS];
	unsigned int num_fbs;
	struct atomkms_device *akdev;
	struct drm_modeset_acquire_ctx ctx;
	bool locked;
};

/**
 * struct akt_timing - a mode's timing, as the suites' tables give it
 * @clock: pixel clock in kHz (an int, as in &drm_display_mode: a table
 *         may give a negative one)
 * @hdisplay: horizontal timing
 * @hsync_start: horizontal timing
 * @hsync_end: horizontal timing
 * @htotal: horizontal timing
 * @vdisplay: vertical timing
 * @vsync_start: vertical timing
 * @vsync_end: vertical timing
 * @vtotal: vertical timing
 * @flags: DRM_MODE_FLAG_*
 */
struct akt_timing {
	int clock;
	u16 hdisplay, hsync_start, hsync_end, htotal;
	u16 vdisplay, vsync_start, vsync_end, vtotal;
	u32 flags;
};

/*
 * The timings the suites share, as parts of a &struct akt_timing
 * initializer, the clock and flags left to the table: VGA's 640x480 in
 * 800x525 totals (420 MHz: 1000 Hz, 420 kHz: 1 Hz), and CEA-861's 1080p in
 * 2200x1125 (148.5 MHz: 60 Hz), horizontal and vertical apart so that a
 * table can give the other axis a timing of its own.
 */
#define AKT_VGA		.hdisplay = 640, .hsync_start = 656, .hsync_end = 752, \
			.htotal = 800, .vdisplay = 480, .vsync_start = 490, \
			.vsync_end = 492, .vtotal = 525
#define AKT_H_1080P	.hdisplay = 1920, .hsync_start = 2008, \
			.hsync_end = 2052, .htotal = 2200
#define AKT_V_1080P	.vdisplay = 1080, .vsync_start = 1084, \
			.vsync_end = 1089, .vtotal = 1125

/**
 * struct akt_scene - CRTCs, what they drive and show, and the verdict
 * @desc: what it tries
 * @params: module parameters (akt_params())
 * @drive: connector i is driven by CRTC AKT_CRTC(n) = n + 1; 0: by none
 * @show: plane i is shown on CRTC AKT_CRTC(n); 0: on none
 * @ret: what drm_atomic_check_only() says
 *
 * Each CRTC that drives a connector runs 1024x768@60; a plane shows a
 * framebuffer of its own, whole, at 0,0: XRGB8888 640x480, or ARGB8888
 * 64x64 on a cursor plane.
 */
struct akt_scene {
	const char *desc;
	const char *params;
	u8 drive[3];
	u8 show[6];
	int ret;
};

#define AKT_CRTC(n)	((n) + 1)

int akt_init(struct kunit *test);
struct atomkms_params *akt_params(struct kunit *test, const char *args);
struct atomkms_device *akt_device(struct kunit *test,
				  const struct atomkms_params *p);
int akt_device_init(struct kunit *test, const struct atomkms_params *p);
struct drm_atomic_commit *akt_state(struct kunit *test);
void akt_unlock(struct kunit *test);
struct drm_framebuffer *akt_fb(struct kunit *test, u32 fourcc, u32 width,
			       u32 height);
struct drm_plane *akt_plane(struct kunit *test, unsigned int index);
struct drm_crtc *akt_crtc(struct kunit *test, unsigned int index);
struct drm_connector *akt_connector(struct kunit *test, unsigned int index);
struct drm_display_mode *akt_mode(struct kunit *test,
				  const struct akt_timing *t);
struct drm_display_mode *akt_dmt(struct kunit *test, struct drm_device *drm,
				 int width, int height, int hz);
struct drm_crtc_state *akt_enable(struct kunit *test,
				  struct drm_atomic_commit *state,
				  unsigned int crtc, int connector,
				  const struct drm_display_mode *mode);
struct drm_plane_state *akt_show(struct kunit *test,
				 struct drm_atomic_commit *state,
				 unsigned int plane, unsigned int crtc,
				 struct drm_framebuffer *fb, int x, int y,
				 u32 w, u32 h);
struct drm_atomic_commit *akt_setup(struct kunit *test, const char *args);
void akt_check_scene(struct kunit *test, const struct akt_scene *scene);

#endif /* ATOMKMS_TEST_H */
