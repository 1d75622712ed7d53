// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms_test.ko: KUnit suites of atomkms's kernel-side logic (the
 * topology rules, the plane and CRTC checks, the timing arithmetic),
 * calling into atomkms.ko through its EXPORT_SYMBOL_IF_KUNIT symbols.
 * This file holds the fixture the suites share (atomkms_test.h).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

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
static void akt_default_params(struct atomkms_params *p)
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

/*
 * The module parameters akt_params() reads, by their names in atomkms.ko
 * (module/atomkms_drv.c), and where each goes in &struct atomkms_params.
 */
enum akt_param_type { AKT_U32, AKT_INT, AKT_BOOL, AKT_RATES };

struct akt_param {
	const char *name;
	size_t offset;
	enum akt_param_type type;
};

#define AKT_PARAM(name, field, type)					\
	{ name, offsetof(struct atomkms_params, field), type }

static const struct akt_param akt_param_names[] = {
	AKT_PARAM("num_crtcs", num_crtcs, AKT_U32),
	AKT_PARAM("num_overlays", num_overlays, AKT_U32),
	AKT_PARAM("shared_overlays", shared_overlays, AKT_BOOL),
	AKT_PARAM("refresh", refresh, AKT_RATES),
	AKT_PARAM("max_scale_factor", max_scale_factor, AKT_U32),
	AKT_PARAM("crossbar", crossbar, AKT_BOOL),
	AKT_PARAM("num_connectors", num_connectors, AKT_INT),
	AKT_PARAM("enable_writeback", writeback, AKT_BOOL),
	AKT_PARAM("writeback_mask", writeback_mask, AKT_U32),
	AKT_PARAM("enable_cursor", cursor, AKT_BOOL),
	AKT_PARAM("max_width", max_width, AKT_U32),
	AKT_PARAM("max_height", max_height, AKT_U32),
	AKT_PARAM("pref_width", pref_width, AKT_U32),
	AKT_PARAM("pref_height", pref_height, AKT_U32),
};

/* refresh=60,75,144: a rate for each CRTC, the last for those beyond. */
static int akt_param_refresh(struct atomkms_params *p, char *val)
{
	char *rate;
	int ret;

	p->num_refresh = 0;
	while ((rate = strsep(&val, ","))) {
		if (p->num_refresh == ARRAY_SIZE(p->refresh))
			return -EINVAL;
		ret = kstrtouint(rate, 0, &p->refresh[p->num_refresh++]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The parameters with their limits (module/atomkms_drv.c's limits=,
 * max_active_planes, num_plls, bandwidth_mbps, num_scalers), which
 * @p.limits points at once one is given.
 */
struct akt_params_limits {
	struct atomkms_params p;
	struct atomkms_limits_params limits;
	char preset[16];
};

/* A limit's parameter, as atomkms.ko's; -ENOENT if @name is none. */
static int akt_param_limit(struct akt_params_limits *pl, const char *name,
			   char *val)
{
	struct atomkms_limits_params *l = &pl->limits;
	char *n;
	int ret;

	if (!strcmp(name, "limits")) {
		ret = strscpy(pl->preset, val, sizeof(pl->preset));
		l->preset = pl->preset;
	} else if (!strcmp(name, "max_active_planes")) {
		ret = kstrtou32(val, 0, &l->max_active_planes);
	} else if (!strcmp(name, "num_plls")) {
		ret = kstrtou32(val, 0, &l->num_plls);
	} else if (!strcmp(name, "bandwidth_mbps")) {
		ret = kstrtou32(val, 0, &l->bandwidth_mbps);
	} else if (!strcmp(name, "num_scalers")) {
		l->num_num_scalers = 0;
		ret = 0;
		while (!ret && (n = strsep(&val, ","))) {
			if (l->num_num_scalers == ARRAY_SIZE(l->num_scalers))
				return -EINVAL;
			ret = kstrtou32(n, 0,
					&l->num_scalers[l->num_num_scalers++]);
		}
	} else {
		return -ENOENT;
	}
	pl->p.limits = l;
	return ret < 0 ? ret : 0;
}

static int akt_param_set(struct atomkms_params *p, const char *name,
			 char *val)
{
	const struct akt_param *param;
	void *field;
	int ret;

	if (!val)
		return -EINVAL;
	ret = akt_param_limit(container_of(p, struct akt_params_limits, p),
			      name, val);
	if (ret != -ENOENT)
		return ret;
	for (param = akt_param_names;
	     param < akt_param_names + ARRAY_SIZE(akt_param_names); param++) {
		if (strcmp(name, param->name))
			continue;
		field = (u8 *)p + param->offset;
		switch (param->type) {
		case AKT_U32:
			return kstrtouint(val, 0, field);
		case AKT_INT:
			return kstrtoint(val, 0, field);
		case AKT_BOOL:
			return kstrtobool(val, field);
		case AKT_RATES:
			return akt_param_refresh(p, val);
		}
	}
	return -ENOENT;
}

/**
 * akt_params - module parameters, as modprobe would be given them
 * @test: the test; the parameters are freed when it ends, and a word that
 *        names no parameter, or whose value does not parse, stops it
 * @args: "name=value" words, named as atomkms.ko's parameters (README's
 *        table), e.g. "num_crtcs=2 refresh=60,144"; NULL: none
 *
 * Return: the parameters: the defaults (akt_default_params()) with @args
 * set, for the test to change further if it likes.
 */
struct atomkms_params *akt_params(struct kunit *test, const char *args)
{
	struct akt_params_limits *pl;
	struct atomkms_params *p;
	char *rest, *name, *val;

	pl = kunit_kzalloc(test, sizeof(*pl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pl);
	p = &pl->p;
	akt_default_params(p);
	pl->limits = (struct atomkms_limits_params){
		.max_active_planes = ATOMKMS_LIMIT_NONE,
		.num_plls = ATOMKMS_LIMIT_NONE,
		.bandwidth_mbps = ATOMKMS_LIMIT_NONE,
	};
	if (!args)
		return p;
	rest = kunit_kstrdup(test, args, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rest);
	rest = skip_spaces(rest);
	while (*rest) {
		rest = next_arg(rest, &name, &val);
		KUNIT_ASSERT_EQ_MSG(test, akt_param_set(p, name, val), 0,
				    "module parameter %s=%s", name,
				    val ?: "(no value)");
	}
	return p;
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
struct drm_atomic_commit *akt_state(struct kunit *test)
{
	struct akt_env *env = test->priv;
	struct drm_atomic_commit *state;
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
 * @t: its timing
 *
 * Its crtc_* timings are set from it (drm_mode_set_crtcinfo()).
 *
 * Return: the mode.
 */
struct drm_display_mode *akt_mode(struct kunit *test,
				  const struct akt_timing *t)
{
	struct drm_display_mode *mode;

	mode = kunit_kzalloc(test, sizeof(*mode), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mode);
	*mode = (struct drm_display_mode){
		.clock = t->clock,
		.hdisplay = t->hdisplay,
		.hsync_start = t->hsync_start,
		.hsync_end = t->hsync_end,
		.htotal = t->htotal,
		.vdisplay = t->vdisplay,
		.vsync_start = t->vsync_start,
		.vsync_end = t->vsync_end,
		.vtotal = t->vtotal,
		.flags = t->flags,
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
				  struct drm_atomic_commit *state,
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
				 struct drm_atomic_commit *state,
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

/**
 * akt_setup - a device with CRTC 0 on, at 1920x1080, in a new state
 * @test: the test
 * @args: the device's module parameters (akt_params())
 *
 * CRTC 0 drives connector 0 at VESA DMT 1920x1080@60, with no plane yet.
 * The test calls akt_unlock() before it returns (akt_state()).
 *
 * Return: the state.
 */
struct drm_atomic_commit *akt_setup(struct kunit *test, const char *args)
{
	struct atomkms_device *akdev = akt_device(test, akt_params(test, args));
	struct drm_atomic_commit *state = akt_state(test);

	akt_enable(test, state, 0, 0,
		   akt_dmt(test, &akdev->drm, 1920, 1080, 60));
	return state;
}

/**
 * akt_check_scene - check a &struct akt_scene on a device of its own
 * @test: the test
 * @scene: the scene
 *
 * The test fails unless drm_atomic_check_only() says @scene->ret.
 */
void akt_check_scene(struct kunit *test, const struct akt_scene *scene)
{
	struct atomkms_device *akdev;
	struct drm_atomic_commit *state;
	struct drm_display_mode *mode;
	struct drm_framebuffer *fb;
	unsigned int i;

	akdev = akt_device(test, akt_params(test, scene->params));
	mode = akt_dmt(test, &akdev->drm, 1024, 768, 60);
	state = akt_state(test);
	for (i = 0; i < ARRAY_SIZE(scene->drive); i++)
		if (scene->drive[i])
			akt_enable(test, state, scene->drive[i] - 1, i, mode);
	for (i = 0; i < ARRAY_SIZE(scene->show); i++) {
		if (!scene->show[i])
			continue;
		if (akdev->topo.planes[i].type == ATOMKMS_TOPO_CURSOR)
			fb = akt_fb(test, DRM_FORMAT_ARGB8888, 64, 64);
		else
			fb = akt_fb(test, DRM_FORMAT_XRGB8888, 640, 480);
		akt_show(test, state, i, scene->show[i] - 1, fb, 0, 0,
			 fb->width, fb->height);
	}
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), scene->ret);
	akt_unlock(test);
}

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_DESCRIPTION("KUnit tests of atomkms: topology, plane and CRTC checks, timing");
MODULE_LICENSE("GPL");
