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

int akt_init(struct kunit *test);
void akt_default_params(struct atomkms_params *p);
struct atomkms_device *akt_device(struct kunit *test,
				  const struct atomkms_params *p);
int akt_device_init(struct kunit *test, const struct atomkms_params *p);
struct drm_atomic_state *akt_state(struct kunit *test);
void akt_unlock(struct kunit *test);
struct drm_framebuffer *akt_fb(struct kunit *test, u32 fourcc, u32 width,
			       u32 height);
struct drm_plane *akt_plane(struct kunit *test, unsigned int index);
struct drm_crtc *akt_crtc(struct kunit *test, unsigned int index);
struct drm_connector *akt_connector(struct kunit *test, unsigned int index);
struct drm_display_mode *akt_mode(struct kunit *test, int clock,
				  u16 hdisplay, u16 hsync_start, u16 hsync_end,
				  u16 htotal, u16 vdisplay, u16 vsync_start,
				  u16 vsync_end, u16 vtotal, u32 flags);
struct drm_display_mode *akt_dmt(struct kunit *test, struct drm_device *drm,
				 int width, int height, int hz);
struct drm_crtc_state *akt_enable(struct kunit *test,
				  struct drm_atomic_state *state,
				  unsigned int crtc, int connector,
				  const struct drm_display_mode *mode);
struct drm_plane_state *akt_show(struct kunit *test,
				 struct drm_atomic_state *state,
				 unsigned int plane, unsigned int crtc,
				 struct drm_framebuffer *fb, int x, int y,
				 u32 w, u32 h);

#endif /* ATOMKMS_TEST_H */
