// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms_test.ko: KUnit suites of atomkms's kernel-side logic (the
 * topology rules, the plane and CRTC checks, the timing arithmetic),
 * calling into atomkms.ko through its EXPORT_SYMBOL_IF_KUNIT symbols.
 * This file holds the fixture the suites share (atomkms_test.h).
 */
#include <linux/module.h>

#include <kunit/test.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_drv.h>
#include <drm/drm_edid.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_kunit_helpers.h>
#include <drm/drm_modeset_lock.h>

#include "atomkms_test.h"

/*
 * The device's driver: atomic KMS only. atomkms_modeset_init() sets up
 * the mode config itself, so the device is allocated as
 * drm_kunit_helper_alloc_drm_device() does, without its mode config.
 */
static const struct drm_driver akt_driver = {
	.driver_features	= DRIVER_MODESET | DRIVER_ATOMIC,
	.name			= "atomkms-kunit",
	.desc			= "atomkms KUnit device",
	.major			= 0,
	.minor			= 1,
};

/**
 * akt_init - a suite's init: the test's &struct akt_env in test->priv
 * @test: the test
 *
 * Return: 0, or -ENOMEM.
 */
int akt_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct akt_env), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

/**
 * akt_default_params - the module parameters' defaults (README's table)
 * @p: filled in
 */
void akt_default_params(struct atomkms_params *p)
{
	*p = (struct atomkms_params){
		.num_crtcs = 1,
		.num_overlays = 3,
		.cursor = true,
		.num_connectors = -1,
		.writeback = true,
		.writeback_mask = GENMASK(ATOMKMS_TOPO_MAX_CRTCS - 1, 0),
		.max_scale_factor = 4,
		.max_width = 4096,
		.max_height = 2160,
		.pref_width = 1920,
		.pref_height = 1080,
	};
}

/**
 * akt_device - an atomkms device of the topology of @p
 * @test: the test; its device is released when it ends
 * @p: module parameters
 *
 * The topology is built and validated as atomkms_init() does, and the
 * device's objects are created by the driver's own atomkms_modeset_init()
 * on a KUnit device: no platform device, not registered, so no client
 * can reach it.
 *
 * Return: the device; the test stops if any of that fails.
 */
struct atomkms_device *akt_device(struct kunit *test,
				  const struct atomkms_params *p)
{
	struct akt_env *env = test->priv;

	KUNIT_ASSERT_EQ(test, akt_device_init(test, p), 0);
	return env->akdev;
}

/**
 * akt_device_init - as akt_device(), but the driver's verdict is returned
 * @test: the test; its device is released when it ends
 * @p: module parameters, which the topology must accept
 *
 * Return: what atomkms_modeset_init() returned; on 0 the device is the
 * test's (akt_connector() and the others find it).
 */
int akt_device_init(struct kunit *test, const struct atomkms_params *p)
{
	struct akt_env *env = test->priv;
	struct atomkms_device *akdev;
	const char *why = "";
	struct device *dev;
	int ret;

	dev = drm_kunit_helper_alloc_device(test);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	akdev = devm_drm_dev_alloc(dev, &akt_driver, struct atomkms_device,
				   drm);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, akdev);

	KUNIT_ASSERT_EQ_MSG(test,
			    atomkms_topology_from_params(p, &akdev->topo, &why),
			    0, "parameters refused: %s", why);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_validate(&akdev->topo, &why),
			    0, "topology refused: %s", why);
	ret = atomkms_modeset_init(akdev);
	if (!ret)
		env->akdev = akdev;
	return ret;
}

/**
 * akt_state - an empty atomic state of the test's device, modesets allowed
 * @test: the test; the state is put when it ends
 *
 * The first one starts the test's lock context and takes every modeset
 * lock of the device: the test calls akt_unlock() before it returns.
 *
 * Return: the state.
 */
struct drm_atomic_state *akt_state(struct kunit *test)
{
	struct akt_env *env = test->priv;
	struct drm_atomic_state *state;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, env->akdev);
	if (!env->locked) {
		drm_modeset_acquire_init(&env->ctx, 0);
		env->locked = true;
		/*
		 * Every lock at once, backing off as the debug kernel makes
		 * it (DEBUG_WW_MUTEX_SLOWPATH injects -EDEADLK): the states
		 * built next then never wait for a lock, nor back off.
		 */
		while ((ret = drm_modeset_lock_all_ctx(&env->akdev->drm,
						       &env->ctx)) == -EDEADLK)
			drm_modeset_backoff(&env->ctx);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	state = drm_kunit_helper_atomic_state_alloc(test, &env->akdev->drm,
						    &env->ctx);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, state);
	state->allow_modeset = true;
	return state;
}

/**
 * akt_unlock - release the test's modeset locks and end its lock context
 * @test: the test
 *
 * Its states stay valid (they are put when the test ends); a later
 * akt_state() starts a new context.
 */
void akt_unlock(struct kunit *test)
{
	struct akt_env *env = test->priv;

	if (!env->locked)
		return;
	drm_modeset_drop_locks(&env->ctx);
	drm_modeset_acquire_fini(&env->ctx);
	env->locked = false;
}

/**
 * akt_fb - a stand-in framebuffer
 * @test: the test
 * @fourcc: its format (one DRM knows)
 * @width: its width
 * @height: its height
 *
 * Linear, with the smallest pitches of its format. It has no GEM object
 * and no ID and is not refcounted (no free callback): only atomic_check
 * ever sees it.
 *
 * Return: the framebuffer.
 */
struct drm_framebuffer *akt_fb(struct kunit *test, u32 fourcc, u32 width,
			       u32 height)
{
	struct akt_env *env = test->priv;
	struct drm_framebuffer *fb;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, env->akdev);
	KUNIT_ASSERT_LT(test, env->num_fbs, AKT_MAX_FBS);
	fb = &env->fbs[env->num_fbs++];
	fb->dev = &env->akdev->drm;
	fb->format = drm_format_info(fourcc);
	KUNIT_ASSERT_NOT_NULL(test, fb->format);
	fb->modifier = DRM_FORMAT_MOD_LINEAR;
	fb->width = width;
	fb->height = height;
	for (i = 0; i < fb->format->num_planes; i++)
		fb->pitches[i] = drm_format_info_min_pitch(fb->format, i, width);
	return fb;
}

/**
 * akt_plane - the test device's plane of topology index @index
 * @test: the test
 * @index: its index in the topology (= its DRM index)
 *
 * Return: the plane.
 */
struct drm_plane *akt_plane(struct kunit *test, unsigned int index)
{
	struct akt_env *env = test->priv;
	struct drm_plane *plane;

	plane = drm_plane_from_index(&env->akdev->drm, index);
	KUNIT_ASSERT_NOT_NULL(test, plane);
	return plane;
}

/**
 * akt_crtc - the test device's CRTC @index
 * @test: the test
 * @index: its index
 *
 * Return: the CRTC.
 */
struct drm_crtc *akt_crtc(struct kunit *test, unsigned int index)
{
	struct akt_env *env = test->priv;

	KUNIT_ASSERT_LT(test, index, env->akdev->topo.num_crtcs);
	return &env->akdev->crtcs[index]->base;
}

/**
 * akt_connector - the test device's Virtual connector @index
 * @test: the test
 * @index: its index among the topology's connectors
 *
 * Return: the connector.
 */
struct drm_connector *akt_connector(struct kunit *test, unsigned int index)
{
	struct akt_env *env = test->priv;

	KUNIT_ASSERT_LT(test, index, env->akdev->topo.num_connectors);
	return &env->akdev->outputs[index]->connector;
}

/**
 * akt_mode - a mode of the given timing, freed when the test ends
 * @test: the test
 * @clock: pixel clock in kHz
 * @hdisplay: horizontal timing
 * @hsync_start: horizontal timing
 * @hsync_end: horizontal timing
 * @htotal: horizontal timing
 * @vdisplay: vertical timing
 * @vsync_start: vertical timing
 * @vsync_end: vertical timing
 * @vtotal: vertical timing
 * @flags: DRM_MODE_FLAG_*
 *
 * Its crtc_* timings are set from it (drm_mode_set_crtcinfo()).
 *
 * Return: the mode.
 */
struct drm_display_mode *akt_mode(struct kunit *test, int clock,
				  u16 hdisplay, u16 hsync_start, u16 hsync_end,
				  u16 htotal, u16 vdisplay, u16 vsync_start,
				  u16 vsync_end, u16 vtotal, u32 flags)
{
	struct drm_display_mode *mode;

	mode = kunit_kzalloc(test, sizeof(*mode), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	*mode = (struct drm_display_mode){
		.clock = clock,
		.hdisplay = hdisplay,
		.hsync_start = hsync_start,
		.hsync_end = hsync_end,
		.htotal = htotal,
		.vdisplay = vdisplay,
		.vsync_start = vsync_start,
		.vsync_end = vsync_end,
		.vtotal = vtotal,
		.flags = flags,
		.type = DRM_MODE_TYPE_USERDEF,
	};
	drm_mode_set_name(mode);
	drm_mode_set_crtcinfo(mode, 0);
	return mode;
}

/**
 * akt_dmt - a VESA DMT mode, freed when the test ends
 * @test: the test
 * @drm: a device
 * @width: its width
 * @height: its height
 * @hz: its refresh rate
 *
 * Return: the mode.
 */
struct drm_display_mode *akt_dmt(struct kunit *test, struct drm_device *drm,
				 int width, int height, int hz)
{
	struct drm_display_mode *mode;

	mode = drm_mode_find_dmt(drm, width, height, hz, false);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	KUNIT_ASSERT_EQ(test, drm_kunit_add_mode_destroy_action(test, mode), 0);
	drm_mode_set_crtcinfo(mode, 0);
	return mode;
}

/**
 * akt_enable - switch a CRTC on in a state, with a mode and a connector
 * @test: the test
 * @state: the state
 * @crtc: the CRTC's index
 * @connector: the index of the Virtual connector it drives, or -1
 * @mode: its mode
 *
 * Return: the CRTC's new state.
 */
struct drm_crtc_state *akt_enable(struct kunit *test,
				  struct drm_atomic_state *state,
				  unsigned int crtc, int connector,
				  const struct drm_display_mode *mode)
{
	struct drm_crtc *c = akt_crtc(test, crtc);
	struct drm_connector_state *conn_state;
	struct drm_crtc_state *crtc_state;

	crtc_state = drm_atomic_get_crtc_state(state, c);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, crtc_state);
	KUNIT_ASSERT_EQ(test, drm_atomic_set_mode_for_crtc(crtc_state, mode), 0);
	crtc_state->active = true;
	if (connector < 0)
		return crtc_state;

	conn_state = drm_atomic_get_connector_state(state,
						    akt_connector(test, connector));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, conn_state);
	KUNIT_ASSERT_EQ(test, drm_atomic_set_crtc_for_connector(conn_state, c),
			0);
	return crtc_state;
}

/**
 * akt_show - put a framebuffer on a plane, whole, at a place on a CRTC
 * @test: the test
 * @state: the state
 * @plane: the plane's topology index
 * @crtc: the CRTC's index
 * @fb: the framebuffer; its whole area is the source
 * @x: destination x
 * @y: destination y
 * @w: destination width
 * @h: destination height
 *
 * Return: the plane's new state, for the test to change further.
 */
struct drm_plane_state *akt_show(struct kunit *test,
				 struct drm_atomic_state *state,
				 unsigned int plane, unsigned int crtc,
				 struct drm_framebuffer *fb, int x, int y,
				 u32 w, u32 h)
{
	struct drm_plane_state *ps;

	ps = drm_atomic_get_plane_state(state, akt_plane(test, plane));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ps);
	KUNIT_ASSERT_EQ(test,
			drm_atomic_set_crtc_for_plane(ps, akt_crtc(test, crtc)),
			0);
	drm_atomic_set_fb_for_plane(ps, fb);
	ps->crtc_x = x;
	ps->crtc_y = y;
	ps->crtc_w = w;
	ps->crtc_h = h;
	ps->src_x = 0;
	ps->src_y = 0;
	ps->src_w = fb->width << 16;
	ps->src_h = fb->height << 16;
	return ps;
}

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of atomkms: topology, plane and CRTC checks, timing");
MODULE_LICENSE("GPL");
