// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "atomkms-topology": atomkms_topology_from_params() and
 * atomkms_topology_validate() as atomkms.ko runs them, in the kernel.
 * The default topology validates; each rule of the validator, broken
 * alone in an otherwise valid topology, is the rule it names; the
 * boundaries (32 planes, 16 planes a CRTC, 8 CRTCs, 16 encoders and
 * connectors, 1 and 1000 Hz, 640x480 and 8192x8192) hold on both sides.
 */
#include <kunit/test.h>

#include "atomkms_test.h"

#define ONE	ATOMKMS_TOPO_SCALE_ONE

static void topo_default_validates(struct kunit *test)
{
	struct atomkms_topology *t;
	struct atomkms_params p;
	const char *why = "";
	unsigned int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	akt_default_params(&p);
	KUNIT_ASSERT_EQ(test, atomkms_topology_from_params(&p, t, &why), 0);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_validate(t, &why), 0,
			    "%s", why);

	/* Primary, 3 overlays, cursor; a Virtual and a writeback encoder. */
	KUNIT_EXPECT_EQ(test, t->num_crtcs, 1);
	KUNIT_EXPECT_EQ(test, t->num_planes, 5);
	KUNIT_EXPECT_EQ(test, t->num_encoders, 2);
	KUNIT_EXPECT_EQ(test, t->num_connectors, 1);
	KUNIT_EXPECT_EQ(test, t->planes[0].type, ATOMKMS_TOPO_PRIMARY);
	KUNIT_EXPECT_EQ(test, t->planes[4].type, ATOMKMS_TOPO_CURSOR);
	KUNIT_EXPECT_EQ(test, t->crtcs[0].primary, 0);
	KUNIT_EXPECT_EQ(test, t->crtcs[0].cursor, 4);
	KUNIT_EXPECT_EQ(test, t->crtcs[0].lut_size, ATOMKMS_TOPO_LUT_SIZE);
	for (i = 1; i <= 3; i++) {
		KUNIT_EXPECT_EQ(test, t->planes[i].type, ATOMKMS_TOPO_OVERLAY);
		KUNIT_EXPECT_EQ(test, t->planes[i].zpos, i);
		KUNIT_EXPECT_EQ(test, t->planes[i].zpos_min, 1);
		KUNIT_EXPECT_EQ(test, t->planes[i].zpos_max, 3);
		/* max_scale_factor=4: a quarter to 4 times. */
		KUNIT_EXPECT_EQ(test, t->planes[i].min_scale, ONE / 4);
		KUNIT_EXPECT_EQ(test, t->planes[i].max_scale, ONE * 4);
	}
	/* The cursor is above every overlay, immutable, and does not scale. */
	KUNIT_EXPECT_EQ(test, t->planes[4].zpos, 4);
	KUNIT_EXPECT_EQ(test, t->planes[4].zpos_min, t->planes[4].zpos_max);
	KUNIT_EXPECT_EQ(test, t->planes[4].min_scale, ONE);
	KUNIT_EXPECT_EQ(test, t->planes[4].max_scale, ONE);
	KUNIT_EXPECT_EQ(test, t->encoders[0].kind, ATOMKMS_TOPO_ENC_VIRTUAL);
	KUNIT_EXPECT_EQ(test, t->encoders[1].kind, ATOMKMS_TOPO_ENC_WRITEBACK);
	/* The writeback connector may clone the display it taps. */
	KUNIT_EXPECT_EQ(test, t->encoders[0].possible_clones, 0x3);
	KUNIT_EXPECT_EQ(test, t->encoders[1].possible_clones, 0x3);
	KUNIT_EXPECT_EQ(test, t->connectors[0].encoder, 0);
	KUNIT_EXPECT_EQ(test, t->connectors[0].refresh, 60);
	KUNIT_EXPECT_EQ(test, t->connectors[0].pref_width, 1920);
	KUNIT_EXPECT_EQ(test, t->connectors[0].pref_height, 1080);
	KUNIT_EXPECT_EQ(test, atomkms_topology_writeback(t, 0), 1);
}

/* Parameter sets: those on a boundary that must make a valid topology. */
struct topo_params_case {
	const char *desc;
	u32 num_crtcs, num_overlays;
	bool shared, cursor, crossbar, writeback;
	int num_connectors;
	u32 writeback_mask, scale;
	u32 refresh;
	u32 max_w, max_h, pref_w, pref_h;
	/* What must result, or, if refused, the rule and which step refuses. */
	u32 planes, encoders, connectors;
	const char *why;
	bool by_validate;
};

#define PARAMS(crtcs, ovl, sh, cur, xbar, wb, conns, mask, scl, hz, mw, mh, \
	       pw, ph)							\
	.num_crtcs = (crtcs), .num_overlays = (ovl), .shared = (sh),	\
	.cursor = (cur), .crossbar = (xbar), .writeback = (wb),		\
	.num_connectors = (conns), .writeback_mask = (mask),		\
	.scale = (scl), .refresh = (hz), .max_w = (mw), .max_h = (mh),	\
	.pref_w = (pw), .pref_h = (ph)

static const struct topo_params_case topo_valid_cases[] = {
	{ "32 planes: 8 CRTCs, 2 overlays and a cursor each",
	  PARAMS(8, 2, false, true, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .planes = 32, .encoders = 16, .connectors = 8 },
	{ "16 planes on one CRTC: 14 overlays",
	  PARAMS(1, 14, false, true, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .planes = 16, .encoders = 2, .connectors = 1 },
	{ "16 planes feed each CRTC: 7 CRTCs, 2 shared overlays each",
	  PARAMS(7, 2, true, true, true, false, -1, 0, 4, 60, 4096, 2160,
		 1920, 1080), .planes = 28, .encoders = 7, .connectors = 7 },
	{ "fewest objects: 1 CRTC, primary and a connector only",
	  PARAMS(1, 0, false, false, false, false, -1, 0, 1, 60, 640, 480,
		 640, 480), .planes = 1, .encoders = 1, .connectors = 1 },
	{ "writeback only: no connector at all",
	  PARAMS(2, 1, false, true, false, true, 0, 0x3, 4, 60, 4096, 2160,
		 1920, 1080), .planes = 6, .encoders = 2, .connectors = 0 },
	{ "1 Hz, 8192x8192, scale factor 16",
	  PARAMS(1, 3, false, true, false, true, -1, 0xff, 16, 1, 8192, 8192,
		 8192, 8192), .planes = 5, .encoders = 2, .connectors = 1 },
	{ "1000 Hz",
	  PARAMS(1, 3, false, true, false, true, -1, 0xff, 4, 1000, 4096, 2160,
		 1920, 1080), .planes = 5, .encoders = 2, .connectors = 1 },
	{ "crossbar at 8 CRTCs, 1 connector",
	  PARAMS(8, 1, true, true, true, true, 1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .planes = 24, .encoders = 9, .connectors = 1 },
};

/* Parameter sets just past a boundary: refused, and by which rule. */
static const struct topo_params_case topo_refused_cases[] = {
	{ "0 CRTCs",
	  PARAMS(0, 3, false, true, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .why = "num_crtcs must be 1 to 8" },
	{ "9 CRTCs",
	  PARAMS(9, 0, false, false, false, false, -1, 0, 4, 60, 4096, 2160,
		 1920, 1080), .why = "num_crtcs must be 1 to 8" },
	{ "33 planes: 3 CRTCs, 9 overlays and a cursor each",
	  PARAMS(3, 9, false, true, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080),
	  .why = "planes: at most 32 in all (DRM's plane masks are 32 bits)" },
	{ "40 planes: 8 CRTCs, 3 overlays and a cursor each",
	  PARAMS(8, 3, false, true, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080),
	  .why = "planes: at most 32 in all (DRM's plane masks are 32 bits)" },
	{ "33 overlays on one CRTC",
	  PARAMS(1, 33, false, false, false, false, -1, 0, 4, 60, 4096, 2160,
		 1920, 1080),
	  .why = "planes: at most 32 in all (DRM's plane masks are 32 bits)" },
	{ "2^31 overlays a CRTC",
	  PARAMS(2, 0x80000000u, false, true, false, true, -1, 0xff, 4, 60,
		 4096, 2160, 1920, 1080),
	  .why = "planes: at most 32 in all (DRM's plane masks are 32 bits)" },
	{ "more connectors than CRTCs",
	  PARAMS(2, 1, false, true, false, true, 3, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .why = "num_connectors must be 0 to num_crtcs" },
	{ "scale factor 0",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 0, 60, 4096, 2160,
		 1920, 1080), .why = "max_scale_factor must be 1 to 16" },
	{ "scale factor 17",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 17, 60, 4096, 2160,
		 1920, 1080), .why = "max_scale_factor must be 1 to 16" },
	{ "largest mode 639 wide",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 4, 60, 639, 480,
		 639, 480),
	  .why = "connectors: the largest mode must be 640x480 to 8192x8192" },
	{ "largest mode 8193 tall",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 4, 60, 4096, 8193,
		 1920, 1080),
	  .why = "connectors: the largest mode must be 640x480 to 8192x8192" },
	{ "preferred mode wider than the largest",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 4, 60, 1920, 1080,
		 1921, 1080),
	  .why = "connectors: the preferred mode is larger than the largest" },
	{ "17 planes may feed one CRTC: 15 overlays",
	  PARAMS(1, 15, false, true, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .by_validate = true,
	  .why = "crtcs: at most 16 planes may feed one CRTC (the compositor's)" },
	{ "17 planes may feed one CRTC: 8 CRTCs, 2 shared overlays each",
	  PARAMS(8, 2, true, false, false, true, -1, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .by_validate = true,
	  .why = "crtcs: at most 16 planes may feed one CRTC (the compositor's)" },
	{ "0 Hz",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 4, 0, 4096, 2160,
		 1920, 1080), .by_validate = true,
	  .why = "connectors: refresh must be 1 to 1000 Hz" },
	{ "1001 Hz",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 4, 1001, 4096,
		 2160, 1920, 1080), .by_validate = true,
	  .why = "connectors: refresh must be 1 to 1000 Hz" },
	{ "65596 Hz, which 16 bits would wrap to 60",
	  PARAMS(1, 1, false, true, false, true, -1, 0xff, 4, 65596, 4096,
		 2160, 1920, 1080), .by_validate = true,
	  .why = "connectors: refresh must be 1 to 1000 Hz" },
	{ "no connector and no writeback",
	  PARAMS(1, 1, false, true, false, false, 0, 0xff, 4, 60, 4096, 2160,
		 1920, 1080), .by_validate = true,
	  .why = "connectors: none at all (with no display, a writeback connector is needed)" },
};

static void topo_case_desc(const struct topo_params_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(topo_valid, topo_valid_cases, topo_case_desc);
KUNIT_ARRAY_PARAM(topo_refused, topo_refused_cases, topo_case_desc);

static void topo_params_of(const struct topo_params_case *c,
			   struct atomkms_params *p)
{
	unsigned int i;

	*p = (struct atomkms_params){
		.num_crtcs = c->num_crtcs,
		.num_overlays = c->num_overlays,
		.shared_overlays = c->shared,
		.cursor = c->cursor,
		.num_connectors = c->num_connectors,
		.writeback = c->writeback,
		.writeback_mask = c->writeback_mask,
		.crossbar = c->crossbar,
		.num_refresh = 1,
		.max_scale_factor = c->scale,
		.max_width = c->max_w,
		.max_height = c->max_h,
		.pref_width = c->pref_w,
		.pref_height = c->pref_h,
	};
	for (i = 0; i < ATOMKMS_TOPO_MAX_CRTCS; i++)
		p->refresh[i] = c->refresh;
}

static void topo_params_valid(struct kunit *test)
{
	const struct topo_params_case *c = test->param_value;
	struct atomkms_topology *t;
	struct atomkms_params p;
	const char *why = "";

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	topo_params_of(c, &p);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_from_params(&p, t, &why), 0,
			    "%s", why);
	KUNIT_EXPECT_EQ_MSG(test, atomkms_topology_validate(t, &why), 0, "%s",
			    why);
	KUNIT_EXPECT_EQ(test, t->num_crtcs, c->num_crtcs);
	KUNIT_EXPECT_EQ(test, t->num_planes, c->planes);
	KUNIT_EXPECT_EQ(test, t->num_encoders, c->encoders);
	KUNIT_EXPECT_EQ(test, t->num_connectors, c->connectors);
}

static void topo_params_refused(struct kunit *test)
{
	const struct topo_params_case *c = test->param_value;
	struct atomkms_topology *t;
	struct atomkms_params p;
	const char *why = "";
	int ret;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	topo_params_of(c, &p);
	ret = atomkms_topology_from_params(&p, t, &why);
	if (c->by_validate) {
		/* The parameters make a topology; the validator refuses it. */
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s", why);
		ret = atomkms_topology_validate(t, &why);
	}
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, c->why);
}

/*
 * The base for breaking one rule at a time: 2 CRTCs, each with a primary,
 * an overlay and a cursor, a Virtual connector and a writeback connector.
 *   planes   0 P(0)  1 O(0)  2 C(0)  3 P(1)  4 O(1)  5 C(1)
 *   encoders 0 V(0)  1 W(0)  2 V(1)  3 W(1); clones {0,1} and {2,3}
 *   connectors 0 -> encoder 0, 1 -> encoder 2
 */
static void topo_base(struct kunit *test, struct atomkms_topology *t)
{
	struct atomkms_params p;
	const char *why = "";

	akt_default_params(&p);
	p.num_crtcs = 2;
	p.num_overlays = 1;
	KUNIT_ASSERT_EQ(test, atomkms_topology_from_params(&p, t, &why), 0);
	KUNIT_ASSERT_EQ(test, t->num_planes, 6);
	KUNIT_ASSERT_EQ(test, t->num_encoders, 4);
	KUNIT_ASSERT_EQ(test, t->num_connectors, 2);
	KUNIT_ASSERT_EQ(test, t->connectors[1].encoder, 2);
	KUNIT_ASSERT_EQ(test, t->crtcs[1].cursor, 5);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_validate(t, &why), 0, "%s",
			    why);
}

/* 14 overlays more on CRTC 1 that may also feed CRTC 0: 17 reach it. */
static void break_crtc_reach(struct atomkms_topology *t)
{
	unsigned int i;

	for (i = 0; i < 14; i++)
		t->planes[t->num_planes++] = (struct atomkms_topo_plane){
			.type = ATOMKMS_TOPO_OVERLAY, .pipe = 1,
			.possible_crtcs = 0x3, .zpos = 1, .zpos_min = 1,
			.zpos_max = 1, .min_scale = ONE, .max_scale = ONE,
		};
}

/* Encoder 2 (CRTC 1's display) made a second writeback of CRTC 1. */
static void break_two_writebacks(struct atomkms_topology *t)
{
	t->encoders[2].kind = ATOMKMS_TOPO_ENC_WRITEBACK;
}

static void break_no_encoders(struct atomkms_topology *t)
{
	t->num_encoders = 0;
	t->num_connectors = 0;
}

struct topo_break_case {
	const char *desc;
	/* One of: a field set by the table's BREAK(), or a function. */
	void (*apply)(struct atomkms_topology *t);
	size_t offset, size;
	u64 value;
	const char *why;
};

#define BREAK(field, v)							\
	.offset = offsetof(struct atomkms_topology, field),		\
	.size = sizeof(((struct atomkms_topology *)NULL)->field),	\
	.value = (u64)(v)

static const struct topo_break_case topo_break_cases[] = {
	{ "0 CRTCs", BREAK(num_crtcs, 0), .why = "crtcs: 1 to 8" },
	{ "9 CRTCs", BREAK(num_crtcs, 9), .why = "crtcs: 1 to 8" },
	{ "33 planes", BREAK(num_planes, 33),
	  .why = "planes: at most 32 in all (DRM's plane masks are 32 bits)" },
	{ "17 encoders", BREAK(num_encoders, 17),
	  .why = "encoders: at most 16" },
	{ "17 connectors", BREAK(num_connectors, 17),
	  .why = "connectors: at most 16" },
	{ "a plane listed out of pipe order", BREAK(planes[5].pipe, 0),
	  .why = "planes: listed pipe by pipe, each on an existing CRTC" },
	{ "a plane on a CRTC that does not exist", BREAK(planes[5].pipe, 2),
	  .why = "planes: listed pipe by pipe, each on an existing CRTC" },
	{ "an encoder listed out of pipe order", BREAK(encoders[3].pipe, 0),
	  .why = "encoders: listed pipe by pipe, each on an existing CRTC" },
	{ "a plane of no known type", BREAK(planes[1].type, 3),
	  .why = "planes: primary, overlay or cursor" },
	{ "a plane that cannot feed its own CRTC",
	  BREAK(planes[1].possible_crtcs, 0x2),
	  .why = "planes: possible CRTCs must exist and include the plane's own" },
	{ "a plane that may feed a CRTC that does not exist",
	  BREAK(planes[1].possible_crtcs, 0x5),
	  .why = "planes: possible CRTCs must exist and include the plane's own" },
	{ "a zpos outside its range", BREAK(planes[1].zpos, 2),
	  .why = "planes: zpos outside its range" },
	{ "a primary with a mutable zpos", BREAK(planes[0].zpos_max, 1),
	  .why = "planes: a primary's or cursor's zpos is immutable" },
	{ "a plane upscaling more than 16x",
	  BREAK(planes[1].min_scale, ATOMKMS_TOPO_MIN_SCALE - 1),
	  .why = "planes: scaling limits must be 1/16 to 1 and 1 to 16" },
	{ "a plane whose upscale limit is a downscale",
	  BREAK(planes[1].min_scale, ONE + 1),
	  .why = "planes: scaling limits must be 1/16 to 1 and 1 to 16" },
	{ "a plane downscaling more than 16x",
	  BREAK(planes[1].max_scale, ATOMKMS_TOPO_MAX_SCALE + 1),
	  .why = "planes: scaling limits must be 1/16 to 1 and 1 to 16" },
	{ "a plane whose downscale limit is an upscale",
	  BREAK(planes[1].max_scale, ONE - 1),
	  .why = "planes: scaling limits must be 1/16 to 1 and 1 to 16" },
	{ "a cursor that scales", BREAK(planes[2].max_scale, 2 * ONE),
	  .why = "planes: cursors do not scale" },
	{ "a CRTC whose primary is another CRTC's", BREAK(crtcs[0].primary, 3),
	  .why = "crtcs: each has a primary plane of its own" },
	{ "a CRTC whose primary is an overlay", BREAK(crtcs[0].primary, 1),
	  .why = "crtcs: each has a primary plane of its own" },
	{ "a CRTC whose primary does not exist", BREAK(crtcs[0].primary, 6),
	  .why = "crtcs: each has a primary plane of its own" },
	{ "a CRTC whose cursor is another CRTC's", BREAK(crtcs[0].cursor, 5),
	  .why = "crtcs: a cursor plane is the CRTC's own" },
	{ "a CRTC with 255 LUT entries", BREAK(crtcs[1].lut_size, 255),
	  .why = "crtcs: LUTs have 256 entries" },
	{ "17 planes that may feed one CRTC", .apply = break_crtc_reach,
	  .why = "crtcs: at most 16 planes may feed one CRTC (the compositor's)" },
	{ "a cursor plane of no CRTC",
	  BREAK(crtcs[1].cursor, ATOMKMS_TOPO_NONE),
	  .why = "planes: every primary and cursor plane belongs to one CRTC" },
	{ "a second primary on a CRTC", BREAK(planes[1].type, ATOMKMS_TOPO_PRIMARY),
	  .why = "planes: every primary and cursor plane belongs to one CRTC" },
	{ "an encoder of no known kind", BREAK(encoders[0].kind, 2),
	  .why = "encoders: Virtual or writeback" },
	{ "an encoder its own CRTC cannot drive",
	  BREAK(encoders[0].possible_crtcs, 0x2),
	  .why = "encoders: possible CRTCs must exist and include the encoder's own" },
	{ "an encoder a CRTC that does not exist may drive",
	  BREAK(encoders[0].possible_crtcs, 0x5),
	  .why = "encoders: possible CRTCs must exist and include the encoder's own" },
	{ "a writeback connector on two CRTCs",
	  BREAK(encoders[1].possible_crtcs, 0x3),
	  .why = "encoders: a writeback connector taps one CRTC" },
	{ "two writeback connectors on one CRTC",
	  .apply = break_two_writebacks,
	  .why = "encoders: one writeback connector per CRTC" },
	{ "an encoder not in its own possible clones",
	  BREAK(encoders[0].possible_clones, 0x2),
	  .why = "encoders: each is in its own possible clones" },
	{ "an encoder cloned with one that does not exist",
	  BREAK(encoders[3].possible_clones, 0x1c),
	  .why = "encoders: possible clones must exist" },
	{ "clones one way only", BREAK(encoders[0].possible_clones, 0x7),
	  .why = "encoders: possible clones are mutual" },
	{ "a connector on a writeback encoder", BREAK(connectors[0].encoder, 1),
	  .why = "connectors: each has a Virtual encoder" },
	{ "a connector on an encoder that does not exist",
	  BREAK(connectors[0].encoder, 4),
	  .why = "connectors: each has a Virtual encoder" },
	{ "two connectors on one encoder", BREAK(connectors[1].encoder, 0),
	  .why = "connectors: each has an encoder of its own" },
	{ "a monitor at 0 Hz", BREAK(connectors[1].refresh, 0),
	  .why = "connectors: refresh must be 1 to 1000 Hz" },
	{ "a monitor at 1001 Hz", BREAK(connectors[1].refresh, 1001),
	  .why = "connectors: refresh must be 1 to 1000 Hz" },
	{ "a largest mode 639 wide", BREAK(connectors[0].max_width, 639),
	  .why = "connectors: the largest mode must be 640x480 to 8192x8192" },
	{ "a largest mode 8193 tall", BREAK(connectors[0].max_height, 8193),
	  .why = "connectors: the largest mode must be 640x480 to 8192x8192" },
	{ "a preferred mode taller than the largest",
	  BREAK(connectors[0].pref_height, 2161),
	  .why = "connectors: the preferred mode is larger than the largest" },
	{ "a Virtual encoder without its connector", BREAK(num_connectors, 1),
	  .why = "encoders: each Virtual encoder has a connector" },
	{ "no encoder and no connector", .apply = break_no_encoders,
	  .why = "connectors: none at all (with no display, a writeback connector is needed)" },
};

static void topo_break_desc(const struct topo_break_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(topo_break, topo_break_cases, topo_break_desc);

static void topo_rule_broken(struct kunit *test)
{
	const struct topo_break_case *c = test->param_value;
	struct atomkms_topology *t;
	const char *why = "";
	void *field;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	topo_base(test, t);

	if (c->apply) {
		c->apply(t);
	} else {
		field = (u8 *)t + c->offset;
		switch (c->size) {
		case 1:
			*(u8 *)field = (u8)c->value;
			break;
		case 2:
			*(u16 *)field = (u16)c->value;
			break;
		case 4:
			*(u32 *)field = (u32)c->value;
			break;
		default:
			KUNIT_FAIL(test, "field of %zu bytes", c->size);
			return;
		}
	}
	KUNIT_EXPECT_EQ(test, atomkms_topology_validate(t, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, c->why);
}

/* 16 connectors (two Virtual encoders on each of 8 CRTCs) and no more. */
static void topo_sixteen_connectors(struct kunit *test)
{
	struct atomkms_topology *t;
	struct atomkms_params p;
	const char *why = "";
	unsigned int i, e;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	akt_default_params(&p);
	p.num_crtcs = 8;
	p.num_overlays = 0;
	p.writeback = false;
	KUNIT_ASSERT_EQ(test, atomkms_topology_from_params(&p, t, &why), 0);
	KUNIT_ASSERT_EQ(test, t->num_encoders, 8);
	/* Eight more, listed after CRTC 7's own: each on CRTC 7. */
	for (i = 0; i < 8; i++) {
		e = t->num_encoders++;
		t->encoders[e] = (struct atomkms_topo_encoder){
			.kind = ATOMKMS_TOPO_ENC_VIRTUAL, .pipe = 7,
			.possible_crtcs = BIT(7), .possible_clones = BIT(e),
		};
		t->connectors[t->num_connectors] = t->connectors[0];
		t->connectors[t->num_connectors++].encoder = e;
	}
	KUNIT_EXPECT_EQ(test, t->num_connectors, ATOMKMS_TOPO_MAX_CONNECTORS);
	KUNIT_EXPECT_EQ_MSG(test, atomkms_topology_validate(t, &why), 0, "%s",
			    why);

	/* A 17th display: the encoders' limit is the first to break. */
	t->num_encoders++;
	t->num_connectors++;
	KUNIT_EXPECT_EQ(test, atomkms_topology_validate(t, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "encoders: at most 16");
}

/*
 * crossbar: every CRTC may drive every display encoder, and all displays
 * but the last may share a CRTC; writeback connectors clone with every
 * display their CRTC may drive.
 */
static void topo_crossbar_routing(struct kunit *test)
{
	struct atomkms_topology *t;
	struct atomkms_params p;
	const char *why = "";

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	akt_default_params(&p);
	p.num_crtcs = 3;
	p.crossbar = true;
	p.writeback_mask = 0x2;
	KUNIT_ASSERT_EQ(test, atomkms_topology_from_params(&p, t, &why), 0);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_validate(t, &why), 0, "%s",
			    why);
	/* encoders: 0 V(0), 1 V(1), 2 W(1), 3 V(2) */
	KUNIT_ASSERT_EQ(test, t->num_encoders, 4);
	KUNIT_EXPECT_EQ(test, t->encoders[0].possible_crtcs, 0x7);
	KUNIT_EXPECT_EQ(test, t->encoders[1].possible_crtcs, 0x7);
	KUNIT_EXPECT_EQ(test, t->encoders[3].possible_crtcs, 0x7);
	KUNIT_EXPECT_EQ(test, t->encoders[2].possible_crtcs, 0x2);
	KUNIT_EXPECT_EQ(test, t->encoders[0].possible_clones, 0x7);
	KUNIT_EXPECT_EQ(test, t->encoders[1].possible_clones, 0x7);
	KUNIT_EXPECT_EQ(test, t->encoders[2].possible_clones, 0xf);
	/* The last display clones with nothing but the writeback. */
	KUNIT_EXPECT_EQ(test, t->encoders[3].possible_clones, 0xc);
	KUNIT_EXPECT_EQ(test, atomkms_topology_writeback(t, 0), -1);
	KUNIT_EXPECT_EQ(test, atomkms_topology_writeback(t, 1), 2);
	KUNIT_EXPECT_EQ(test, atomkms_topology_writeback(t, 2), -1);
}

/* refresh=60,75,144 on 4 CRTCs: the last rate goes on. */
static void topo_refresh_list(struct kunit *test)
{
	struct atomkms_topology *t;
	struct atomkms_params p;
	const char *why = "";

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	akt_default_params(&p);
	p.num_crtcs = 4;
	p.num_overlays = 1;
	p.refresh[0] = 60;
	p.refresh[1] = 75;
	p.refresh[2] = 144;
	p.num_refresh = 3;
	KUNIT_ASSERT_EQ(test, atomkms_topology_from_params(&p, t, &why), 0);
	KUNIT_ASSERT_EQ(test, t->num_connectors, 4);
	KUNIT_EXPECT_EQ(test, t->connectors[0].refresh, 60);
	KUNIT_EXPECT_EQ(test, t->connectors[1].refresh, 75);
	KUNIT_EXPECT_EQ(test, t->connectors[2].refresh, 144);
	KUNIT_EXPECT_EQ(test, t->connectors[3].refresh, 144);

	p.num_refresh = ATOMKMS_TOPO_MAX_CRTCS + 1;
	KUNIT_EXPECT_EQ(test, atomkms_topology_from_params(&p, t, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "refresh: at most 8 rates");
}

static struct kunit_case topo_cases[] = {
	KUNIT_CASE(topo_default_validates),
	KUNIT_CASE_PARAM(topo_params_valid, topo_valid_gen_params),
	KUNIT_CASE_PARAM(topo_params_refused, topo_refused_gen_params),
	KUNIT_CASE_PARAM(topo_rule_broken, topo_break_gen_params),
	KUNIT_CASE(topo_sixteen_connectors),
	KUNIT_CASE(topo_crossbar_routing),
	KUNIT_CASE(topo_refresh_list),
	{}
};

static struct kunit_suite topo_suite = {
	.name = "atomkms-topology",
	.test_cases = topo_cases,
};

kunit_test_suite(topo_suite);
