// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "atomkms-crtc": devices built by atomkms_modeset_init()
 * from a topology, and what atomkms's CRTC hooks accept and refuse:
 * mode_valid's verdict on each kind of bad timing, atomic_check's frame
 * period of the adjusted mode, its colour checks (LUT sizes, on a CRTC
 * on or off), async flips that would change the mode, the routing the
 * topology gives encoders (clones, crossbar), and the preferred mode of
 * each connector the topology accepts.
 */
#include <linux/mutex.h>

#include <kunit/test.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_connector.h>
#include <drm/drm_encoder.h>
#include <drm/drm_kunit_helpers.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_property.h>

#include "atomkms_test.h"

/* The device walks the topology: objects, order, masks, properties. */
static void crtc_device_follows_topology(struct kunit *test)
{
	struct atomkms_params *p;
	struct atomkms_device *akdev;
	struct drm_encoder *encoder;
	struct drm_plane *plane;
	unsigned int n = 0;

	p = akt_params(test, "num_crtcs=3 num_overlays=2 crossbar=1");
	p->writeback_mask = 0x5;
	akdev = akt_device(test, p);

	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.num_crtc, 3);
	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.num_total_plane,
			akdev->topo.num_planes);
	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.num_encoder,
			akdev->topo.num_encoders);
	/* Three Virtual connectors and two writeback connectors. */
	KUNIT_EXPECT_EQ(test, akdev->drm.mode_config.num_connector, 5);

	drm_for_each_plane(plane, &akdev->drm) {
		const struct atomkms_topo_plane *tp = &akdev->topo.planes[n++];

		KUNIT_EXPECT_EQ(test, (int)plane->type, (int)tp->type);
		KUNIT_EXPECT_EQ(test, plane->possible_crtcs, tp->possible_crtcs);
	}
	KUNIT_EXPECT_EQ(test, n, akdev->topo.num_planes);
	KUNIT_EXPECT_PTR_EQ(test, akt_crtc(test, 1)->primary,
			    akt_plane(test, akdev->topo.crtcs[1].primary));
	KUNIT_EXPECT_PTR_EQ(test, akt_crtc(test, 2)->cursor,
			    akt_plane(test, akdev->topo.crtcs[2].cursor));
	drm_for_each_encoder(encoder, &akdev->drm) {
		const struct atomkms_topo_encoder *te =
			&akdev->topo.encoders[encoder->index];

		KUNIT_EXPECT_EQ(test, encoder->possible_crtcs,
				te->possible_crtcs);
		KUNIT_EXPECT_EQ(test, encoder->possible_clones,
				te->possible_clones);
	}
	KUNIT_EXPECT_EQ(test, akt_crtc(test, 0)->gamma_size,
			ATOMKMS_TOPO_LUT_SIZE);
}

/*
 * A mode set on CRTC 0, with no plane at all: what atomic_check says, and
 * the frame period of the mode it takes. A mode above 1000 Hz fails the
 * whole atomic check, not only probing; an async flip cannot carry a mode
 * set.
 */
struct crtc_modeset_case {
	const char *desc;
	struct akt_timing mode;
	bool async_flip;
	int ret;
	u64 frame_ns;
};

#define CRTC_1080P60	{ 148500, AKT_H_1080P, AKT_V_1080P, \
			  DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC }

static const struct crtc_modeset_case crtc_modeset_cases[] = {
	{ "1920x1080@60: 2200x1125 at 148.5 MHz", CRTC_1080P60,
	  .frame_ns = 16666667 },
	{ "1024x768@60: 1344x806 at 65 MHz",
	  { 65000, 1024, 1048, 1184, 1344, 768, 771, 777, 806,
	    DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_NVSYNC },
	  .frame_ns = 16665600 },
	{ "1000 Hz", { 420000, AKT_VGA }, .frame_ns = 1000000 },
	{ "just above 1000 Hz", { 420001, AKT_VGA }, .ret = -EINVAL },
	{ "1920x1080@60 in an async flip", CRTC_1080P60, .async_flip = true,
	  .ret = -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(crtc_modeset, crtc_modeset_cases, desc);

static void crtc_modeset(struct kunit *test)
{
	const struct crtc_modeset_case *c = test->param_value;
	struct drm_atomic_commit *state;
	struct drm_crtc_state *cs;

	akt_device(test, akt_params(test, NULL));
	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0, akt_mode(test, &c->mode));
	cs->async_flip = c->async_flip;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), c->ret);
	akt_unlock(test);
	if (!c->ret)
		KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->timing.frame_ns,
				c->frame_ns);
}

/* mode_valid's verdict on a mode of each kind. */
struct crtc_mode_case {
	const char *desc;
	struct akt_timing mode;
	enum drm_mode_status status;
};

static const struct crtc_mode_case crtc_mode_cases[] = {
	{ "1080p60", { 148500, AKT_H_1080P, AKT_V_1080P }, MODE_OK },
	{ "interlaced 1080i",
	  { 74250, AKT_H_1080P, .vdisplay = 1080, .vsync_start = 1084,
	    .vsync_end = 1094, .vtotal = 1125,
	    .flags = DRM_MODE_FLAG_INTERLACE }, MODE_NO_INTERLACE },
	{ "no clock", { 0, AKT_H_1080P, AKT_V_1080P }, MODE_CLOCK_LOW },
	{ "3 GHz and a kHz", { 3000001, AKT_H_1080P, AKT_V_1080P },
	  MODE_CLOCK_HIGH },
	{ "hsync past htotal",
	  { 148500, 1920, 2008, 2252, 2200, AKT_V_1080P }, MODE_H_ILLEGAL },
	{ "vsync past vtotal",
	  { 148500, AKT_H_1080P, .vdisplay = 1080, .vsync_start = 1084,
	    .vsync_end = 1189, .vtotal = 1125 }, MODE_V_ILLEGAL },
	{ "8193 lines",
	  { 1485000, AKT_H_1080P, .vdisplay = 8193, .vsync_start = 8194,
	    .vsync_end = 8195, .vtotal = 8196 }, MODE_BAD },
	{ "1001 Hz", { 420420, AKT_VGA }, MODE_BAD_VVALUE },
	{ "1000 Hz", { 420000, AKT_VGA }, MODE_OK },
	{ "0.99 Hz", { 415, AKT_VGA }, MODE_BAD_VVALUE },
};

KUNIT_ARRAY_PARAM_DESC(crtc_mode, crtc_mode_cases, desc);

static void crtc_mode_valid(struct kunit *test)
{
	const struct crtc_mode_case *c = test->param_value;
	struct drm_display_mode *mode;
	struct drm_crtc *crtc;

	akt_device(test, akt_params(test, NULL));
	crtc = akt_crtc(test, 0);
	mode = akt_mode(test, &c->mode);
	KUNIT_ASSERT_NOT_NULL(test, crtc->helper_private->mode_valid);
	KUNIT_EXPECT_EQ(test, crtc->helper_private->mode_valid(crtc, mode),
			c->status);
}

/*
 * atomic_check times the adjusted mode's crtc_* timings (what the CRTC
 * scans out), not the user's mode it was derived from.
 */
static void crtc_check_times_adjusted_mode(struct kunit *test)
{
	const struct akt_timing mode = { 148500, AKT_H_1080P, AKT_V_1080P };
	const struct drm_crtc_helper_funcs *funcs;
	struct drm_display_mode *fast;
	struct drm_atomic_commit *state;
	struct drm_crtc_state *cs;
	struct drm_crtc *crtc;

	akt_device(test, akt_params(test, NULL));
	crtc = akt_crtc(test, 0);
	funcs = crtc->helper_private;

	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0, akt_mode(test, &mode));
	drm_mode_copy(&cs->adjusted_mode, &cs->mode);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(crtc, state), 0);
	KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->timing.frame_ns, 16666667ULL);

	/* The same mode, but the CRTC would run it at 1200 Hz. */
	fast = akt_mode(test, &mode);
	fast->crtc_clock = 148500 * 20;
	drm_mode_copy(&cs->adjusted_mode, fast);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(crtc, state), -EINVAL);

	/* Its crtc_vtotal doubled: 30 Hz, fine, and its period doubles. */
	fast->crtc_clock = 148500;
	fast->crtc_vtotal = 2250;
	fast->crtc_vblank_end = 2250;
	drm_mode_copy(&cs->adjusted_mode, fast);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(crtc, state), 0);
	KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->timing.frame_ns, 33333333ULL);
	akt_unlock(test);
}

/* Colour blobs: sizes checked, on a CRTC on or off. */
struct crtc_lut_case {
	const char *desc;
	bool degamma;
	unsigned int entries;
	bool enable;
	int ret;
};

static const struct crtc_lut_case crtc_lut_cases[] = {
	{ "GAMMA_LUT of 256", false, 256, true, 0 },
	{ "GAMMA_LUT of 255", false, 255, true, -EINVAL },
	{ "GAMMA_LUT of 257", false, 257, true, -EINVAL },
	{ "GAMMA_LUT of 1", false, 1, true, -EINVAL },
	{ "DEGAMMA_LUT of 256", true, 256, true, 0 },
	{ "DEGAMMA_LUT of 4096", true, 4096, true, -EINVAL },
	{ "GAMMA_LUT of 256, CRTC off", false, 256, false, 0 },
	{ "GAMMA_LUT of 255, CRTC off", false, 255, false, -EINVAL },
	{ "DEGAMMA_LUT of 128, CRTC off", true, 128, false, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(crtc_lut, crtc_lut_cases, desc);

static void crtc_lut_size(struct kunit *test)
{
	const struct crtc_lut_case *c = test->param_value;
	struct drm_property_blob *blob, *ctm;
	struct atomkms_crtc_state *akcs;
	struct drm_atomic_commit *state;
	struct atomkms_device *akdev;
	struct drm_crtc_state *cs;

	if (c->enable) {
		state = akt_setup(test, NULL);
	} else {
		akt_device(test, akt_params(test, NULL));
		state = akt_state(test);
	}
	akdev = to_atomkms_device(state->dev);
	cs = drm_atomic_get_crtc_state(state, akt_crtc(test, 0));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cs);

	blob = drm_property_create_blob(&akdev->drm,
					c->entries * sizeof(struct drm_color_lut),
					NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, blob);
	ctm = drm_property_create_blob(&akdev->drm,
				       sizeof(struct drm_color_ctm), NULL);
	if (IS_ERR(ctm))
		drm_property_blob_put(blob);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctm);
	drm_property_replace_blob(c->degamma ? &cs->degamma_lut :
				  &cs->gamma_lut, blob);
	drm_property_replace_blob(&cs->ctm, ctm);
	drm_property_blob_put(blob);
	drm_property_blob_put(ctm);
	cs->color_mgmt_changed = true;

	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), c->ret);
	akt_unlock(test);
	if (c->ret)
		return;

	/*
	 * The pipeline is prepared at check: zero LUTs and a zero CTM are not
	 * identities, so it keeps them, the LUTs pointing into the blobs.
	 */
	akcs = to_atomkms_crtc_state(cs);
	KUNIT_EXPECT_TRUE(test, akcs->color.has_ctm);
	if (c->degamma) {
		KUNIT_EXPECT_PTR_EQ(test, (const void *)akcs->color.degamma_lut,
				    (const void *)blob->data);
		KUNIT_EXPECT_EQ(test, akcs->color.degamma_size, 256);
		KUNIT_EXPECT_NULL(test, akcs->color.gamma_lut);
	} else {
		KUNIT_EXPECT_PTR_EQ(test, (const void *)akcs->color.gamma_lut,
				    (const void *)blob->data);
		KUNIT_EXPECT_EQ(test, akcs->color.gamma_size, 256);
		KUNIT_EXPECT_NULL(test, akcs->color.degamma_lut);
	}
}

/* Which connectors a CRTC may drive, together: the topology's masks. */
static const struct akt_scene crtc_routing_cases[] = {
	/* Without crossbar, each connector has its own CRTC only. */
	{ "connector 1 on CRTC 1", "num_crtcs=2",
	  .drive = { [1] = AKT_CRTC(1) }, .ret = 0 },
	{ "connector 1 on CRTC 0", "num_crtcs=2",
	  .drive = { [1] = AKT_CRTC(0) }, .ret = -EINVAL },
	/* crossbar: any CRTC drives any connector... */
	{ "crossbar, connector 2 on CRTC 0", "num_crtcs=3 crossbar=1",
	  .drive = { [2] = AKT_CRTC(0) }, .ret = 0 },
	/* ...and connectors 0 and 1 may share a CRTC (clone mode)... */
	{ "crossbar, connectors 0 and 1 on CRTC 2", "num_crtcs=3 crossbar=1",
	  .drive = { AKT_CRTC(2), AKT_CRTC(2) }, .ret = 0 },
	/* ...but the last connector shares with none. */
	{ "crossbar, connectors 0 and 2 on CRTC 1", "num_crtcs=3 crossbar=1",
	  .drive = { AKT_CRTC(1), [2] = AKT_CRTC(1) }, .ret = -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(crtc_routing, crtc_routing_cases, desc);

static void crtc_routing(struct kunit *test)
{
	akt_check_scene(test, test->param_value);
}

/*
 * Every monitor the topology accepts offers its preferred mode, at its
 * refresh, and the CRTC takes it: probing prunes the modes mode_valid
 * refuses, so a preferred mode the timer cannot run would vanish.
 */
struct crtc_pref_case {
	const char *desc;
	u16 width, height, hz;
	bool refused;
};

static const struct crtc_pref_case crtc_pref_cases[] = {
	{ "1920x1080@60 (DMT)", 1920, 1080, 60 },
	{ "1024x768@60 (DMT)", 1024, 768, 60 },
	{ "1920x1080@144 (CVT-RB)", 1920, 1080, 144 },
	{ "2560x1440@240", 2560, 1440, 240 },
	{ "640x480@1000", 640, 480, 1000 },
	/* CVT makes the frame 1.0127 s: longer than a second. */
	{ "1920x1080@1 Hz refused", 1920, 1080, 1, true },
	/* CVT-RB needs 4.16 GHz, 8192x8192@60 4.22 GHz: above 3 GHz. */
	{ "1920x1080@1000 refused", 1920, 1080, 1000, true },
	{ "8192x8192@60 refused", 8192, 8192, 60, true },
};

KUNIT_ARRAY_PARAM_DESC(crtc_pref, crtc_pref_cases, desc);

static void crtc_preferred_mode(struct kunit *test)
{
	const struct crtc_pref_case *c = test->param_value;
	struct drm_display_mode *mode, *pref = NULL;
	struct drm_atomic_commit *state;
	struct drm_connector *conn;
	struct atomkms_device *akdev;
	struct atomkms_params *p;
	struct drm_crtc_state *cs;
	int count;

	p = akt_params(test, NULL);
	p->pref_width = c->width;
	p->pref_height = c->height;
	p->max_width = max_t(u32, c->width, 640);
	p->max_height = max_t(u32, c->height, 480);
	p->refresh[0] = c->hz;
	p->num_refresh = 1;
	if (c->refused) {
		KUNIT_EXPECT_EQ(test, akt_device_init(test, p), -EINVAL);
		return;
	}
	akdev = akt_device(test, p);
	conn = akt_connector(test, 0);

	mutex_lock(&akdev->drm.mode_config.mutex);
	count = conn->funcs->fill_modes(conn,
					akdev->drm.mode_config.max_width,
					akdev->drm.mode_config.max_height);
	list_for_each_entry(mode, &conn->modes, head)
		if (mode->type & DRM_MODE_TYPE_PREFERRED) {
			pref = drm_mode_duplicate(&akdev->drm, mode);
			break;
		}
	mutex_unlock(&akdev->drm.mode_config.mutex);

	KUNIT_EXPECT_GT(test, count, 0);
	KUNIT_ASSERT_NOT_NULL_MSG(test, pref,
				  "no preferred mode left of %ux%u@%u",
				  c->width, c->height, c->hz);
	KUNIT_ASSERT_EQ(test, drm_kunit_add_mode_destroy_action(test, pref), 0);
	KUNIT_EXPECT_EQ(test, pref->hdisplay, c->width);
	KUNIT_EXPECT_EQ(test, pref->vdisplay, c->height);
	KUNIT_EXPECT_EQ(test, drm_mode_vrefresh(pref), c->hz);

	drm_mode_set_crtcinfo(pref, 0);
	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0, pref);
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);
	KUNIT_EXPECT_GE(test, to_atomkms_crtc_state(cs)->timing.frame_ns,
			ATOMKMS_MIN_FRAME_NS);
	KUNIT_EXPECT_LE(test, to_atomkms_crtc_state(cs)->timing.frame_ns,
			ATOMKMS_MAX_FRAME_NS);
	akt_unlock(test);
}

static struct kunit_case crtc_test_cases[] = {
	KUNIT_CASE(crtc_device_follows_topology),
	KUNIT_CASE_PARAM(crtc_modeset, crtc_modeset_gen_params),
	KUNIT_CASE_PARAM(crtc_mode_valid, crtc_mode_gen_params),
	KUNIT_CASE(crtc_check_times_adjusted_mode),
	KUNIT_CASE_PARAM(crtc_lut_size, crtc_lut_gen_params),
	KUNIT_CASE_PARAM(crtc_routing, crtc_routing_gen_params),
	KUNIT_CASE_PARAM(crtc_preferred_mode, crtc_pref_gen_params),
	{}
};

static struct kunit_suite crtc_suite = {
	.name = "atomkms-crtc",
	.init = akt_init,
	.test_cases = crtc_test_cases,
};

kunit_test_suite(crtc_suite);
