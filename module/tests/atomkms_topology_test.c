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

/*
 * A topology of the test's, built from @p: the parameters must make one
 * and it must validate.
 */
static struct atomkms_topology *topo_new(struct kunit *test,
					 const struct atomkms_params *p)
{
	struct atomkms_topology *t;
	const char *why = "";

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_from_params(p, t, &why), 0,
			    "%s", why);
	KUNIT_ASSERT_EQ_MSG(test, atomkms_topology_validate(t, &why), 0, "%s",
			    why);
	return t;
}

static void topo_default_validates(struct kunit *test)
{
	struct atomkms_topology *t = topo_new(test, akt_params(test, NULL));
	unsigned int i;

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

/* The validator's rules that more than one row breaks, as it names them. */
#define WHY_PLANES_32	\
	"planes: at most 32 in all (DRM's plane masks are 32 bits)"
#define WHY_PLANE_CRTCS	\
	"planes: possible CRTCs must exist and include the plane's own"
#define WHY_SCALING	"planes: scaling limits must be 1/16 to 1 and 1 to 16"
#define WHY_ONE_CRTC	\
	"planes: every primary and cursor plane belongs to one CRTC"
#define WHY_PRIMARY	"crtcs: each has a primary plane of its own"
#define WHY_REACH	\
	"crtcs: at most 16 planes may feed one CRTC (the compositor's)"
#define WHY_ENCODER_CRTCS \
	"encoders: possible CRTCs must exist and include the encoder's own"
#define WHY_VIRTUAL	"connectors: each has a Virtual encoder"
#define WHY_REFRESH	"connectors: refresh must be 1 to 1000 Hz"
#define WHY_MODES	\
	"connectors: the largest mode must be 640x480 to 8192x8192"
#define WHY_PREFERRED	\
	"connectors: the preferred mode is larger than the largest"
#define WHY_NO_DISPLAY	\
	"connectors: none at all (with no display, a writeback connector is needed)"

/*
 * Parameter sets, as modprobe takes them (the rest are the defaults): those
 * on a boundary must make a valid topology, of so many objects; those just
 * past one are refused, by the rule named, and by atomkms_topology_validate()
 * if @by_validate, else already by atomkms_topology_from_params().
 */
struct topo_params_case {
	const char *desc;
	const char *params;
	u32 planes, encoders, connectors;
	bool by_validate;
	const char *why;
};

static const struct topo_params_case topo_valid_cases[] = {
	{ "32 planes: 8 CRTCs, 2 overlays and a cursor each",
	  "num_crtcs=8 num_overlays=2", 32, 16, 8 },
	{ "16 planes on one CRTC: 14 overlays", "num_overlays=14", 16, 2, 1 },
	{ "16 planes feed each CRTC: 7 CRTCs, 2 shared overlays each",
	  "num_crtcs=7 num_overlays=2 shared_overlays=1 crossbar=1 enable_writeback=0",
	  28, 7, 7 },
	{ "fewest objects: 1 CRTC, primary and a connector only",
	  "num_overlays=0 enable_cursor=0 enable_writeback=0 max_scale_factor=1 max_width=640 max_height=480 pref_width=640 pref_height=480",
	  1, 1, 1 },
	{ "writeback only: no connector at all",
	  "num_crtcs=2 num_overlays=1 num_connectors=0 writeback_mask=0x3",
	  6, 2, 0 },
	{ "1 Hz, 8192x8192, scale factor 16",
	  "max_scale_factor=16 refresh=1 max_width=8192 max_height=8192 pref_width=8192 pref_height=8192",
	  5, 2, 1 },
	{ "1000 Hz", "refresh=1000", 5, 2, 1 },
	{ "crossbar at 8 CRTCs, 1 connector",
	  "num_crtcs=8 num_overlays=1 shared_overlays=1 crossbar=1 num_connectors=1",
	  24, 9, 1 },
};

static const struct topo_params_case topo_refused_cases[] = {
	{ "0 CRTCs", "num_crtcs=0", .why = "num_crtcs must be 1 to 8" },
	{ "9 CRTCs",
	  "num_crtcs=9 num_overlays=0 enable_cursor=0 enable_writeback=0",
	  .why = "num_crtcs must be 1 to 8" },
	{ "33 planes: 3 CRTCs, 9 overlays and a cursor each",
	  "num_crtcs=3 num_overlays=9", .why = WHY_PLANES_32 },
	{ "40 planes: 8 CRTCs, 3 overlays and a cursor each",
	  "num_crtcs=8 num_overlays=3", .why = WHY_PLANES_32 },
	{ "33 overlays on one CRTC",
	  "num_overlays=33 enable_cursor=0 enable_writeback=0",
	  .why = WHY_PLANES_32 },
	{ "2^31 overlays a CRTC", "num_crtcs=2 num_overlays=0x80000000",
	  .why = WHY_PLANES_32 },
	{ "more connectors than CRTCs",
	  "num_crtcs=2 num_overlays=1 num_connectors=3",
	  .why = "num_connectors must be 0 to num_crtcs" },
	{ "scale factor 0", "num_overlays=1 max_scale_factor=0",
	  .why = "max_scale_factor must be 1 to 16" },
	{ "scale factor 17", "num_overlays=1 max_scale_factor=17",
	  .why = "max_scale_factor must be 1 to 16" },
	{ "largest mode 639 wide",
	  "num_overlays=1 max_width=639 max_height=480 pref_width=639 pref_height=480",
	  .why = WHY_MODES },
	{ "largest mode 8193 tall", "num_overlays=1 max_height=8193",
	  .why = WHY_MODES },
	{ "preferred mode wider than the largest",
	  "num_overlays=1 max_width=1920 max_height=1080 pref_width=1921",
	  .why = WHY_PREFERRED },
	{ "17 planes may feed one CRTC: 15 overlays", "num_overlays=15",
	  .by_validate = true, .why = WHY_REACH },
	{ "17 planes may feed one CRTC: 8 CRTCs, 2 shared overlays each",
	  "num_crtcs=8 num_overlays=2 shared_overlays=1 enable_cursor=0",
	  .by_validate = true, .why = WHY_REACH },
	{ "0 Hz", "num_overlays=1 refresh=0", .by_validate = true,
	  .why = WHY_REFRESH },
	{ "1001 Hz", "num_overlays=1 refresh=1001", .by_validate = true,
	  .why = WHY_REFRESH },
	{ "65596 Hz, which 16 bits would wrap to 60",
	  "num_overlays=1 refresh=65596", .by_validate = true,
	  .why = WHY_REFRESH },
	{ "no connector and no writeback",
	  "num_overlays=1 num_connectors=0 enable_writeback=0",
	  .by_validate = true, .why = WHY_NO_DISPLAY },
};

KUNIT_ARRAY_PARAM_DESC(topo_valid, topo_valid_cases, desc);
KUNIT_ARRAY_PARAM_DESC(topo_refused, topo_refused_cases, desc);

static void topo_params_valid(struct kunit *test)
{
	const struct topo_params_case *c = test->param_value;
	const struct atomkms_params *p = akt_params(test, c->params);
	struct atomkms_topology *t = topo_new(test, p);

	KUNIT_EXPECT_EQ(test, t->num_crtcs, p->num_crtcs);
	KUNIT_EXPECT_EQ(test, t->num_planes, c->planes);
	KUNIT_EXPECT_EQ(test, t->num_encoders, c->encoders);
	KUNIT_EXPECT_EQ(test, t->num_connectors, c->connectors);
}

static void topo_params_refused(struct kunit *test)
{
	const struct topo_params_case *c = test->param_value;
	struct atomkms_topology *t;
	const char *why = "";
	int ret;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	ret = atomkms_topology_from_params(akt_params(test, c->params), t,
					   &why);
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
static struct atomkms_topology *topo_base(struct kunit *test)
{
	struct atomkms_topology *t;

	t = topo_new(test, akt_params(test, "num_crtcs=2 num_overlays=1"));
	KUNIT_ASSERT_EQ(test, t->num_planes, 6);
	KUNIT_ASSERT_EQ(test, t->num_encoders, 4);
	KUNIT_ASSERT_EQ(test, t->num_connectors, 2);
	KUNIT_ASSERT_EQ(test, t->connectors[1].encoder, 2);
	KUNIT_ASSERT_EQ(test, t->crtcs[1].cursor, 5);
	return t;
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
			.formats = atomkms_topo_formats_all(),
			.rotations = ATOMKMS_TOPO_ROTATIONS,
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

/*
 * The rows of topo_break_cases name the field they break as one of this
 * topology's, which is never read: only where the field lies in a
 * topology, and its size, are taken.
 */
static const struct atomkms_topology base;

struct topo_break_case {
	const char *desc;
	/* One of: a field of @base, set by BREAK(), or a function. */
	void (*apply)(struct atomkms_topology *t);
	const void *at;
	size_t size;
	u64 value;
	const char *why;
};

#define BREAK(f, v)	.at = &(f), .size = sizeof(f), .value = (u64)(v)

#define WHY_ROTATIONS \
	"planes: rotations: rotate-0 and any of rotate-90/180/270, reflect-x/y"

static const struct topo_break_case topo_break_cases[] = {
	{ "0 CRTCs", BREAK(base.num_crtcs, 0), .why = "crtcs: 1 to 8" },
	{ "9 CRTCs", BREAK(base.num_crtcs, 9), .why = "crtcs: 1 to 8" },
	{ "33 planes", BREAK(base.num_planes, 33), .why = WHY_PLANES_32 },
	{ "17 encoders", BREAK(base.num_encoders, 17),
	  .why = "encoders: at most 16" },
	{ "17 connectors", BREAK(base.num_connectors, 17),
	  .why = "connectors: at most 16" },
	{ "a plane listed out of pipe order", BREAK(base.planes[5].pipe, 0),
	  .why = "planes: listed pipe by pipe, each on an existing CRTC" },
	{ "a plane on a CRTC that does not exist",
	  BREAK(base.planes[5].pipe, 2),
	  .why = "planes: listed pipe by pipe, each on an existing CRTC" },
	{ "an encoder listed out of pipe order",
	  BREAK(base.encoders[3].pipe, 0),
	  .why = "encoders: listed pipe by pipe, each on an existing CRTC" },
	{ "a plane of no known type", BREAK(base.planes[1].type, 3),
	  .why = "planes: primary, overlay or cursor" },
	{ "a plane that cannot feed its own CRTC",
	  BREAK(base.planes[1].possible_crtcs, 0x2), .why = WHY_PLANE_CRTCS },
	{ "a plane that may feed a CRTC that does not exist",
	  BREAK(base.planes[1].possible_crtcs, 0x5), .why = WHY_PLANE_CRTCS },
	{ "a zpos outside its range", BREAK(base.planes[1].zpos, 2),
	  .why = "planes: zpos outside its range" },
	{ "a zpos range above 255", BREAK(base.planes[1].zpos_max, 256),
	  .why = "planes: zpos must be 0 to 255" },
	{ "a plane without formats", BREAK(base.planes[1].formats, 0),
	  .why = "planes: formats must be a non-empty set of the compositor's" },
	{ "a plane without rotate-0", BREAK(base.planes[1].rotations, 0x2),
	  .why = WHY_ROTATIONS },
	{ "a plane upscaling more than 16x",
	  BREAK(base.planes[1].min_scale, ATOMKMS_TOPO_MIN_SCALE - 1),
	  .why = WHY_SCALING },
	{ "a plane whose upscale limit is a downscale",
	  BREAK(base.planes[1].min_scale, ONE + 1), .why = WHY_SCALING },
	{ "a plane downscaling more than 16x",
	  BREAK(base.planes[1].max_scale, ATOMKMS_TOPO_MAX_SCALE + 1),
	  .why = WHY_SCALING },
	{ "a plane whose downscale limit is an upscale",
	  BREAK(base.planes[1].max_scale, ONE - 1), .why = WHY_SCALING },
	{ "a cursor that scales", BREAK(base.planes[2].max_scale, 2 * ONE),
	  .why = "planes: cursors do not scale" },
	{ "a CRTC whose primary is another CRTC's",
	  BREAK(base.crtcs[0].primary, 3), .why = WHY_PRIMARY },
	{ "a CRTC whose primary is an overlay",
	  BREAK(base.crtcs[0].primary, 1), .why = WHY_PRIMARY },
	{ "a CRTC whose primary does not exist",
	  BREAK(base.crtcs[0].primary, 6), .why = WHY_PRIMARY },
	{ "a CRTC whose cursor is another CRTC's",
	  BREAK(base.crtcs[0].cursor, 5),
	  .why = "crtcs: a cursor plane is the CRTC's own" },
	{ "a CRTC with 255 LUT entries", BREAK(base.crtcs[1].lut_size, 255),
	  .why = "crtcs: LUTs have 256 entries" },
	{ "17 planes that may feed one CRTC", .apply = break_crtc_reach,
	  .why = WHY_REACH },
	{ "a cursor plane of no CRTC",
	  BREAK(base.crtcs[1].cursor, ATOMKMS_TOPO_NONE), .why = WHY_ONE_CRTC },
	{ "a second primary on a CRTC",
	  BREAK(base.planes[1].type, ATOMKMS_TOPO_PRIMARY),
	  .why = WHY_ONE_CRTC },
	{ "an encoder of no known kind", BREAK(base.encoders[0].kind, 2),
	  .why = "encoders: Virtual or writeback" },
	{ "an encoder its own CRTC cannot drive",
	  BREAK(base.encoders[0].possible_crtcs, 0x2),
	  .why = WHY_ENCODER_CRTCS },
	{ "an encoder a CRTC that does not exist may drive",
	  BREAK(base.encoders[0].possible_crtcs, 0x5),
	  .why = WHY_ENCODER_CRTCS },
	{ "a writeback connector on two CRTCs",
	  BREAK(base.encoders[1].possible_crtcs, 0x3),
	  .why = "encoders: a writeback connector taps one CRTC" },
	{ "two writeback connectors on one CRTC",
	  .apply = break_two_writebacks,
	  .why = "encoders: one writeback connector per CRTC" },
	{ "an encoder not in its own possible clones",
	  BREAK(base.encoders[0].possible_clones, 0x2),
	  .why = "encoders: each is in its own possible clones" },
	{ "an encoder cloned with one that does not exist",
	  BREAK(base.encoders[3].possible_clones, 0x1c),
	  .why = "encoders: possible clones must exist" },
	{ "clones one way only", BREAK(base.encoders[0].possible_clones, 0x7),
	  .why = "encoders: possible clones are mutual" },
	{ "a connector on a writeback encoder",
	  BREAK(base.connectors[0].encoder, 1), .why = WHY_VIRTUAL },
	{ "a connector on an encoder that does not exist",
	  BREAK(base.connectors[0].encoder, 4), .why = WHY_VIRTUAL },
	{ "two connectors on one encoder", BREAK(base.connectors[1].encoder, 0),
	  .why = "connectors: each has an encoder of its own" },
	{ "a monitor at 0 Hz", BREAK(base.connectors[1].refresh, 0),
	  .why = WHY_REFRESH },
	{ "a monitor at 1001 Hz", BREAK(base.connectors[1].refresh, 1001),
	  .why = WHY_REFRESH },
	{ "a largest mode 639 wide", BREAK(base.connectors[0].max_width, 639),
	  .why = WHY_MODES },
	{ "a largest mode 8193 tall",
	  BREAK(base.connectors[0].max_height, 8193), .why = WHY_MODES },
	{ "a preferred mode taller than the largest",
	  BREAK(base.connectors[0].pref_height, 2161), .why = WHY_PREFERRED },
	{ "a Virtual encoder without its connector",
	  BREAK(base.num_connectors, 1),
	  .why = "encoders: each Virtual encoder has a connector" },
	{ "no encoder and no connector", .apply = break_no_encoders,
	  .why = WHY_NO_DISPLAY },
};

KUNIT_ARRAY_PARAM_DESC(topo_break, topo_break_cases, desc);

static void topo_rule_broken(struct kunit *test)
{
	const struct topo_break_case *c = test->param_value;
	struct atomkms_topology *t = topo_base(test);
	const char *why = "";
	void *field;

	if (c->apply) {
		c->apply(t);
	} else {
		field = (u8 *)t + ((const u8 *)c->at - (const u8 *)&base);
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
		case 8:
			*(u64 *)field = c->value;
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
	const char *params = "num_crtcs=8 num_overlays=0 enable_writeback=0";
	struct atomkms_topology *t = topo_new(test, akt_params(test, params));
	const char *why = "";
	unsigned int i, e;

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
	const char *params = "num_crtcs=3 crossbar=1 writeback_mask=0x2";
	struct atomkms_topology *t = topo_new(test, akt_params(test, params));

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
	struct atomkms_params *p;
	struct atomkms_topology *t;
	const char *why = "";

	p = akt_params(test, "num_crtcs=4 num_overlays=1 refresh=60,75,144");
	KUNIT_ASSERT_EQ(test, p->num_refresh, 3);
	t = topo_new(test, p);
	KUNIT_ASSERT_EQ(test, t->num_connectors, 4);
	KUNIT_EXPECT_EQ(test, t->connectors[0].refresh, 60);
	KUNIT_EXPECT_EQ(test, t->connectors[1].refresh, 75);
	KUNIT_EXPECT_EQ(test, t->connectors[2].refresh, 144);
	KUNIT_EXPECT_EQ(test, t->connectors[3].refresh, 144);

	p->num_refresh = ATOMKMS_TOPO_MAX_CRTCS + 1;
	KUNIT_EXPECT_EQ(test, atomkms_topology_from_params(p, t, &why),
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
