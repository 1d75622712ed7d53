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
	struct atomkms_device *akdev;
	struct atomkms_params p;
	struct drm_encoder *encoder;
	struct drm_plane *plane;
	unsigned int n = 0;

	akt_default_params(&p);
	p.num_crtcs = 3;
	p.num_overlays = 2;
	p.crossbar = true;
	p.writeback_mask = 0x5;
	akdev = akt_device(test, &p);

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

/* A mode set, with no plane at all: the frame period of the mode. */
static void crtc_modeset_frame_period(struct kunit *test)
{
	struct atomkms_params p;
	struct drm_atomic_state *state;
	struct drm_crtc_state *cs;
	struct atomkms_device *akdev;

	akt_default_params(&p);
	akdev = akt_device(test, &p);

	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0,
			akt_dmt(test, &akdev->drm, 1920, 1080, 60));
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);
	/* 2200x1125 at 148.5 MHz. */
	KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->frame_ns, 16666667ULL);

	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0,
			akt_dmt(test, &akdev->drm, 1024, 768, 60));
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);
	/* 1344x806 at 65 MHz. */
	KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->frame_ns, 16665600ULL);
	akt_unlock(test);
}

/* mode_valid's verdict on a mode of each kind. */
struct crtc_mode_case {
	const char *desc;
	int clock;
	u16 hd, hss, hse, ht, vd, vss, vse, vt;
	u32 flags;
	enum drm_mode_status status;
};

static const struct crtc_mode_case crtc_mode_cases[] = {
	{ "1080p60", 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125,
	  0, MODE_OK },
	{ "interlaced 1080i", 74250, 1920, 2008, 2052, 2200, 1080, 1084, 1094,
	  1125, DRM_MODE_FLAG_INTERLACE, MODE_NO_INTERLACE },
	{ "no clock", 0, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, 0,
	  MODE_CLOCK_LOW },
	{ "3 GHz and a kHz", 3000001, 1920, 2008, 2052, 2200, 1080, 1084, 1089,
	  1125, 0, MODE_CLOCK_HIGH },
	{ "hsync past htotal", 148500, 1920, 2008, 2252, 2200, 1080, 1084,
	  1089, 1125, 0, MODE_H_ILLEGAL },
	{ "vsync past vtotal", 148500, 1920, 2008, 2052, 2200, 1080, 1084,
	  1189, 1125, 0, MODE_V_ILLEGAL },
	{ "8193 lines", 1485000, 1920, 2008, 2052, 2200, 8193, 8194, 8195,
	  8196, 0, MODE_BAD },
	{ "1001 Hz", 420420, 640, 656, 752, 800, 480, 490, 492, 525, 0,
	  MODE_BAD_VVALUE },
	{ "1000 Hz", 420000, 640, 656, 752, 800, 480, 490, 492, 525, 0,
	  MODE_OK },
	{ "0.99 Hz", 415, 640, 656, 752, 800, 480, 490, 492, 525, 0,
	  MODE_BAD_VVALUE },
};

static void crtc_mode_desc(const struct crtc_mode_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crtc_mode, crtc_mode_cases, crtc_mode_desc);

static void crtc_mode_valid(struct kunit *test)
{
	const struct crtc_mode_case *c = test->param_value;
	struct drm_display_mode *mode;
	struct atomkms_params p;
	struct drm_crtc *crtc;

	akt_default_params(&p);
	akt_device(test, &p);
	crtc = akt_crtc(test, 0);
	mode = akt_mode(test, c->clock, c->hd, c->hss, c->hse, c->ht, c->vd,
			c->vss, c->vse, c->vt, c->flags);
	KUNIT_ASSERT_NOT_NULL(test, crtc->helper_private->mode_valid);
	KUNIT_EXPECT_EQ(test, crtc->helper_private->mode_valid(crtc, mode),
			c->status);
}

/* A mode above 1000 Hz fails the whole atomic check, not only probing. */
static void crtc_check_refuses_fast_mode(struct kunit *test)
{
	struct drm_atomic_state *state;
	struct atomkms_params p;

	akt_default_params(&p);
	akt_device(test, &p);

	state = akt_state(test);
	akt_enable(test, state, 0, 0, akt_mode(test, 420000, 640, 656, 752,
					       800, 480, 490, 492, 525, 0));
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);

	state = akt_state(test);
	akt_enable(test, state, 0, 0, akt_mode(test, 420001, 640, 656, 752,
					       800, 480, 490, 492, 525, 0));
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	akt_unlock(test);
}

/*
 * atomic_check times the adjusted mode's crtc_* timings (what the CRTC
 * scans out), not the user's mode it was derived from.
 */
static void crtc_check_times_adjusted_mode(struct kunit *test)
{
	const struct drm_crtc_helper_funcs *funcs;
	struct drm_display_mode *fast;
	struct drm_atomic_state *state;
	struct drm_crtc_state *cs;
	struct atomkms_params p;
	struct drm_crtc *crtc;

	akt_default_params(&p);
	akt_device(test, &p);
	crtc = akt_crtc(test, 0);
	funcs = crtc->helper_private;

	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0, akt_mode(test, 148500, 1920, 2008,
						    2052, 2200, 1080, 1084,
						    1089, 1125, 0));
	drm_mode_copy(&cs->adjusted_mode, &cs->mode);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(crtc, state), 0);
	KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->frame_ns, 16666667ULL);

	/* The same mode, but the CRTC would run it at 1200 Hz. */
	fast = akt_mode(test, 148500, 1920, 2008, 2052, 2200, 1080, 1084,
			1089, 1125, 0);
	fast->crtc_clock = 148500 * 20;
	drm_mode_copy(&cs->adjusted_mode, fast);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(crtc, state), -EINVAL);

	/* Its crtc_vtotal doubled: 30 Hz, fine, and its period doubles. */
	fast->crtc_clock = 148500;
	fast->crtc_vtotal = 2250;
	fast->crtc_vblank_end = 2250;
	drm_mode_copy(&cs->adjusted_mode, fast);
	KUNIT_EXPECT_EQ(test, funcs->atomic_check(crtc, state), 0);
	KUNIT_EXPECT_EQ(test, to_atomkms_crtc_state(cs)->frame_ns, 33333333ULL);
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

static void crtc_lut_desc(const struct crtc_lut_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crtc_lut, crtc_lut_cases, crtc_lut_desc);

static void crtc_lut_size(struct kunit *test)
{
	const struct crtc_lut_case *c = test->param_value;
	struct drm_property_blob *blob, *ctm;
	struct atomkms_crtc_state *akcs;
	struct drm_atomic_state *state;
	struct atomkms_device *akdev;
	struct drm_crtc_state *cs;
	struct atomkms_params p;

	akt_default_params(&p);
	akdev = akt_device(test, &p);
	state = akt_state(test);
	if (c->enable)
		cs = akt_enable(test, state, 0, 0,
				akt_dmt(test, &akdev->drm, 1920, 1080, 60));
	else
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

/* An async flip cannot carry a mode set. */
static void crtc_async_flip_modeset(struct kunit *test)
{
	struct atomkms_device *akdev;
	struct drm_atomic_state *state;
	struct drm_crtc_state *cs;
	struct atomkms_params p;

	akt_default_params(&p);
	akdev = akt_device(test, &p);

	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0,
			akt_dmt(test, &akdev->drm, 1920, 1080, 60));
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);

	state = akt_state(test);
	cs = akt_enable(test, state, 0, 0,
			akt_dmt(test, &akdev->drm, 1920, 1080, 60));
	cs->async_flip = true;
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	akt_unlock(test);
}

/* Which connectors a CRTC may drive, together: the topology's masks. */
static void crtc_routing(struct kunit *test)
{
	struct atomkms_device *akdev;
	struct drm_atomic_state *state;
	struct drm_display_mode *mode;
	struct atomkms_params p;

	/* Without crossbar, each connector has its own CRTC only. */
	akt_default_params(&p);
	p.num_crtcs = 2;
	akdev = akt_device(test, &p);
	mode = akt_dmt(test, &akdev->drm, 1024, 768, 60);
	state = akt_state(test);
	akt_enable(test, state, 1, 1, mode);
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);
	state = akt_state(test);
	akt_enable(test, state, 0, 1, mode);
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	akt_unlock(test);
}

static void crtc_crossbar_clones(struct kunit *test)
{
	struct atomkms_device *akdev;
	struct drm_atomic_state *state;
	struct drm_display_mode *mode;
	struct atomkms_params p;

	akt_default_params(&p);
	p.num_crtcs = 3;
	p.crossbar = true;
	akdev = akt_device(test, &p);
	mode = akt_dmt(test, &akdev->drm, 1024, 768, 60);

	/* Any CRTC drives any connector. */
	state = akt_state(test);
	akt_enable(test, state, 0, 2, mode);
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);

	/* Connectors 0 and 1 may share a CRTC (clone mode)... */
	state = akt_state(test);
	akt_enable(test, state, 2, 0, mode);
	akt_enable(test, state, 2, 1, mode);
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), 0);

	/* ...but the last connector shares with none. */
	state = akt_state(test);
	akt_enable(test, state, 1, 0, mode);
	akt_enable(test, state, 1, 2, mode);
	KUNIT_EXPECT_EQ(test, drm_atomic_check_only(state), -EINVAL);
	akt_unlock(test);
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

static void crtc_pref_desc(const struct crtc_pref_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crtc_pref, crtc_pref_cases, crtc_pref_desc);

static void crtc_preferred_mode(struct kunit *test)
{
	const struct crtc_pref_case *c = test->param_value;
	struct drm_display_mode *mode, *pref = NULL;
	struct drm_atomic_state *state;
	struct drm_connector *conn;
	struct atomkms_device *akdev;
	struct drm_crtc_state *cs;
	struct atomkms_params p;
	int count;

	akt_default_params(&p);
	p.pref_width = c->width;
	p.pref_height = c->height;
	p.max_width = max_t(u32, c->width, 640);
	p.max_height = max_t(u32, c->height, 480);
	p.refresh[0] = c->hz;
	p.num_refresh = 1;
	if (c->refused) {
		KUNIT_EXPECT_EQ(test, akt_device_init(test, &p), -EINVAL);
		return;
	}
	akdev = akt_device(test, &p);
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
	KUNIT_EXPECT_GE(test, to_atomkms_crtc_state(cs)->frame_ns,
			ATOMKMS_MIN_FRAME_NS);
	KUNIT_EXPECT_LE(test, to_atomkms_crtc_state(cs)->frame_ns,
			ATOMKMS_MAX_FRAME_NS);
	akt_unlock(test);
}

static struct kunit_case crtc_test_cases[] = {
	KUNIT_CASE(crtc_device_follows_topology),
	KUNIT_CASE(crtc_modeset_frame_period),
	KUNIT_CASE_PARAM(crtc_mode_valid, crtc_mode_gen_params),
	KUNIT_CASE(crtc_check_refuses_fast_mode),
	KUNIT_CASE(crtc_check_times_adjusted_mode),
	KUNIT_CASE_PARAM(crtc_lut_size, crtc_lut_gen_params),
	KUNIT_CASE(crtc_async_flip_modeset),
	KUNIT_CASE(crtc_routing),
	KUNIT_CASE(crtc_crossbar_clones),
	KUNIT_CASE_PARAM(crtc_preferred_mode, crtc_pref_gen_params),
	{}
};

static struct kunit_suite crtc_suite = {
	.name = "atomkms-crtc",
	.init = akt_init,
	.test_cases = crtc_test_cases,
};

kunit_test_suite(crtc_suite);
