// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of module/core/atomkms_topology.c: the default topology of every
 * parameter combination the README allows, checked against the rules
 * restated here independently (object order, zpos, the routing masks),
 * and each validation rule broken once on purpose; connectors' own
 * attributes (type names, preferred modes, written EDIDs) likewise.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_topology.h"
#include "check.h"

static struct atomkms_params defaults(void)
{
	struct atomkms_params p = {
		.num_crtcs = 1,
		.num_overlays = 3,
		.cursor = true,
		.num_connectors = -1,
		.writeback = true,
		.writeback_mask = 0xff,
		.vrr_mask = 0xff,
		.hdr_mask = 0xff,
		.max_scale_factor = 4,
		.max_width = 4096,
		.max_height = 2160,
		.pref_width = 1920,
		.pref_height = 1080,
	};
	return p;
}

/* Would the README's rules take these parameters? */
static bool params_ok(const struct atomkms_params *p, u32 conns, u32 wbs)
{
	u32 per_crtc = 1 + p->num_overlays + p->cursor;
	u32 reach = 1 + p->num_overlays *
		    (p->shared_overlays ? p->num_crtcs : 1) + p->cursor;

	return per_crtc * p->num_crtcs <= 32 && reach <= 16 && (conns || wbs);
}

/*
 * The expected topology, restated: per CRTC a primary, the overlays, a
 * cursor, then the Virtual encoder (first num_connectors CRTCs) and the
 * writeback encoder (writeback_mask). Returns the number of problems.
 */
static int compare(const struct atomkms_params *p,
		   const struct atomkms_topology *t, u32 conns)
{
	u32 n = p->num_crtcs, all = (1u << n) - 1, i, j, pl = 0, enc = 0;
	u32 max_ov = p->num_overlays * (p->shared_overlays ? n : 1);
	u32 disp_enc[8], wb_enc[8], ndisp = 0, bad = 0;
	int ms = p->max_scale_factor;

	bad += t->num_crtcs != n || t->num_connectors != conns;
	for (i = 0; i < n; i++) {
		const struct atomkms_topo_plane *q = &t->planes[pl];

		bad += t->crtcs[i].primary != pl || q->type != ATOMKMS_TOPO_PRIMARY ||
		       q->possible_crtcs != 1u << i || q->zpos != 0 ||
		       q->min_scale != 65536 / ms || q->max_scale != 65536 * ms;
		pl++;
		for (j = 0; j < p->num_overlays; j++, pl++) {
			q = &t->planes[pl];
			bad += q->type != ATOMKMS_TOPO_OVERLAY || q->pipe != i ||
			       q->zpos != 1 + j + (p->shared_overlays ?
						   i * p->num_overlays : 0) ||
			       q->zpos_min != 1 || q->zpos_max != max_ov ||
			       q->possible_crtcs != (p->shared_overlays ? all :
						     1u << i);
		}
		if (p->cursor) {
			q = &t->planes[pl];
			bad += t->crtcs[i].cursor != pl ||
			       q->type != ATOMKMS_TOPO_CURSOR ||
			       q->zpos != max_ov + 1 || q->zpos_min != max_ov + 1 ||
			       q->max_scale != 65536;
			pl++;
		} else {
			bad += t->crtcs[i].cursor != ATOMKMS_TOPO_NONE;
		}
		disp_enc[i] = wb_enc[i] = ~0u;
		if (i < conns) {
			disp_enc[i] = enc++;
			ndisp++;
		}
		if (p->writeback && (p->writeback_mask & (1u << i)))
			wb_enc[i] = enc++;
	}
	bad += t->num_planes != pl || t->num_encoders != enc;
	if (bad)
		return bad;

	for (i = 0; i < n; i++) {
		u32 e = disp_enc[i], want_crtcs, want_clones;

		if (e == ~0u)
			continue;
		want_crtcs = p->crossbar ? all : 1u << i;
		want_clones = 1u << e;
		if (p->crossbar && i + 1 < ndisp)
			for (j = 0; j + 1 < ndisp; j++)
				want_clones |= 1u << disp_enc[j];
		for (j = 0; j < n; j++)
			if (wb_enc[j] != ~0u && (want_crtcs & (1u << j)))
				want_clones |= 1u << wb_enc[j];
		bad += t->encoders[e].kind != ATOMKMS_TOPO_ENC_VIRTUAL ||
		       t->encoders[e].possible_crtcs != want_crtcs ||
		       t->encoders[e].possible_clones != want_clones ||
		       t->connectors[i].encoder != e;
	}
	for (i = 0; i < n; i++) {
		u32 w = wb_enc[i], want_clones;

		if (w == ~0u)
			continue;
		want_clones = 1u << w;
		for (j = 0; j < ndisp; j++)
			if (p->crossbar || j == i)
				want_clones |= 1u << disp_enc[j];
		bad += t->encoders[w].kind != ATOMKMS_TOPO_ENC_WRITEBACK ||
		       t->encoders[w].possible_crtcs != 1u << i ||
		       t->encoders[w].possible_clones != want_clones ||
		       atomkms_topology_writeback(t, i) != (int)w;
	}
	return bad;
}

static void test_every_combination(void)
{
	static const u32 masks[] = { 0, 0xff, 0x1, 0x2, 0xaa };
	unsigned long tried = 0, valid = 0, wrong = 0;
	struct atomkms_params p = defaults();
	struct atomkms_topology t;
	u32 m, w, x;

	for (p.num_crtcs = 1; p.num_crtcs <= 8; p.num_crtcs++)
	for (p.num_overlays = 0; p.num_overlays <= 15; p.num_overlays++)
	for (x = 0; x < 8; x++)
	for (p.num_connectors = -1; p.num_connectors <= (int)p.num_crtcs;
	     p.num_connectors++)
	for (m = 0; m < ARRAY_SIZE(masks); m++) {
		u32 conns = p.num_connectors < 0 ? p.num_crtcs :
			    (u32)p.num_connectors;
		u32 wbs;
		const char *why = NULL;
		bool want, got;
		int ret;

		p.shared_overlays = x & 1;
		p.cursor = x & 2;
		p.crossbar = x & 4;
		p.writeback = masks[m] != 0;
		p.writeback_mask = masks[m];
		wbs = p.writeback_mask & ((1u << p.num_crtcs) - 1);
		want = params_ok(&p, conns, wbs);
		ret = atomkms_topology_from_params(&p, &t, &why);
		if (!ret)
			ret = atomkms_topology_validate(&t, &why);
		got = !ret;
		tried++;
		if (got != want) {
			if (wrong++ < 5)
				CHECK(0, "crtcs %u overlays %u%s%s%s conns %d wb 0x%x: %s (%s)",
				      p.num_crtcs, p.num_overlays,
				      p.shared_overlays ? " shared" : "",
				      p.cursor ? " cursor" : "",
				      p.crossbar ? " crossbar" : "",
				      p.num_connectors, p.writeback_mask,
				      got ? "accepted" : "refused", why);
			continue;
		}
		if (!got)
			continue;
		valid++;
		w = compare(&p, &t, conns);
		if (w && wrong++ < 5)
			CHECK(0, "crtcs %u overlays %u x %u conns %d wb 0x%x: %u differences",
			      p.num_crtcs, p.num_overlays, x, p.num_connectors,
			      p.writeback_mask, w);
	}
	CHECK(!wrong, "%lu of %lu combinations wrong", wrong, tried);
	CHECK(valid > 1000, "only %lu valid combinations", valid);
	printf("# %lu parameter combinations, %lu valid\n", tried, valid);
}

/* Refresh rates, scaling and mode limits reach the objects. */
static void test_values(void)
{
	struct atomkms_params p = defaults();
	struct atomkms_topology t;
	const char *why = "";
	u32 i;

	p.num_crtcs = 4;
	p.num_overlays = 1;
	p.refresh[0] = 60;
	p.refresh[1] = 144;
	p.num_refresh = 2;
	p.max_scale_factor = 16;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "4 CRTCs: %s", why);
	CHECK(t.connectors[0].refresh == 60 && t.connectors[1].refresh == 144 &&
	      t.connectors[3].refresh == 144,
	      "the CRTCs beyond the rates given take the last");
	CHECK(t.planes[0].min_scale == 4096 && t.planes[0].max_scale == 16 << 16,
	      "scale 1/16 to 16");
	for (i = 0; i < t.num_connectors; i++)
		CHECK(t.connectors[i].connected &&
		      t.connectors[i].pref_width == 1920 &&
		      t.connectors[i].max_height == 2160, "connector %u", i);
	p.num_refresh = 0;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      t.connectors[2].refresh == 60, "60 Hz by default");
	CHECK(t.crtcs[3].lut_size == 256, "LUT size");
	p.vrr_mask = 0x5;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      t.connectors[0].vrr && !t.connectors[1].vrr &&
	      t.connectors[2].vrr && !t.connectors[3].vrr,
	      "vrr_mask picks the vrr_capable connectors");
	CHECK(t.connectors[0].hdcp == ATOMKMS_TOPO_HDCP_NONE &&
	      t.connectors[0].hdcp_delay_ms == ATOMKMS_TOPO_HDCP_DELAY_MS,
	      "no HDCP by default, the default delay");
	p.hdcp_mask = 0x2;
	p.hdcp_delay_ms = 30;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      t.connectors[0].hdcp == ATOMKMS_TOPO_HDCP_NONE &&
	      t.connectors[1].hdcp == ATOMKMS_TOPO_HDCP_2_2 &&
	      t.connectors[1].hdcp_delay_ms == 30,
	      "hdcp_mask picks the HDCP 2.2 monitors, hdcp_delay_ms their delay");
	CHECK(t.connectors[0].bpc == 10 && t.connectors[3].bpc == 10,
	      "10 bpc monitors by default");
	p.bpc = 8;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      t.connectors[0].bpc == 8 && t.connectors[3].bpc == 8,
	      "bpc sets every monitor's depth");
	CHECK(t.connectors[0].hdr && t.connectors[3].hdr,
	      "HDR monitors by default");
	p.hdr_mask = 0x9;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      t.connectors[0].hdr && !t.connectors[1].hdr &&
	      !t.connectors[2].hdr && t.connectors[3].hdr,
	      "hdr_mask picks the HDR monitors");
}

#define REFUSED(what, expr, rule) do {					\
	const char *why_ = "";						\
	int ret_ = (expr);						\
	CHECK(ret_ == -22 && strstr(why_ = why, rule),			\
	      "%s: %d, \"%s\", want \"%s\"", what, ret_, why_, rule);	\
} while (0)

static void test_bad_params(void)
{
	struct atomkms_params p;
	struct atomkms_topology t;
	const char *why = "";

#define BAD_PARAM(field, value, rule) do {				\
	p = defaults();							\
	p.field = value;						\
	REFUSED(#field "=" #value,					\
		atomkms_topology_from_params(&p, &t, &why), rule);	\
} while (0)
	BAD_PARAM(num_crtcs, 0, "num_crtcs must be 1 to 8");
	BAD_PARAM(num_crtcs, 9, "num_crtcs must be 1 to 8");
	BAD_PARAM(num_connectors, 2, "num_connectors must be 0 to num_crtcs");
	BAD_PARAM(num_overlays, 31, "at most 32 in all");
	BAD_PARAM(num_overlays, 0x40000000, "at most 32 in all");
	BAD_PARAM(max_scale_factor, 0, "max_scale_factor");
	BAD_PARAM(max_scale_factor, 17, "max_scale_factor");
	BAD_PARAM(max_width, 639, "largest mode");
	BAD_PARAM(max_height, 8193, "largest mode");
	BAD_PARAM(pref_width, 4097, "preferred mode is larger");
	BAD_PARAM(num_refresh, 9, "at most 8 rates");
	BAD_PARAM(hdcp_delay_ms, 10001, "hdcp_delay_ms must be at most 10000");
	BAD_PARAM(bpc, 7, "bpc must be 8, 10, 12, 14 or 16");
	BAD_PARAM(bpc, 6, "bpc must be 8, 10, 12, 14 or 16");
	BAD_PARAM(bpc, 18, "bpc must be 8, 10, 12, 14 or 16");
#undef BAD_PARAM
	/* 8 CRTCs with 3 overlays and a cursor each: 40 planes. */
	p = defaults();
	p.num_crtcs = 8;
	REFUSED("40 planes", atomkms_topology_from_params(&p, &t, &why),
		"at most 32 in all");
	/* Shared overlays: 4 CRTCs reach 4 x 4 overlays each. */
	p = defaults();
	p.num_crtcs = 4;
	p.num_overlays = 4;
	p.shared_overlays = true;
	p.cursor = false;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built");
	REFUSED("18 planes on a CRTC", atomkms_topology_validate(&t, &why),
		"at most 16 planes may feed one CRTC");
	p = defaults();
	p.refresh[0] = 1001;
	p.num_refresh = 1;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built");
	REFUSED("1001 Hz", atomkms_topology_validate(&t, &why),
		"refresh must be 1 to 1000");
	p.refresh[0] = 70000;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built");
	REFUSED("70000 Hz", atomkms_topology_validate(&t, &why),
		"refresh must be 1 to 1000");
	p = defaults();
	p.num_connectors = 0;
	p.writeback = false;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built");
	REFUSED("nothing to show", atomkms_topology_validate(&t, &why),
		"none at all");
}

/* Each rule of validate, broken in a valid topology of two CRTCs. */
static void test_rules(void)
{
	struct atomkms_params p = defaults();
	struct atomkms_topology good, t;
	const char *why = "";

	p.num_crtcs = 2;
	p.crossbar = true;
	CHECK(!atomkms_topology_from_params(&p, &good, &why) &&
	      !atomkms_topology_validate(&good, &why), "base: %s", why);
	/* Planes 0-4 and encoders 0 (Virtual), 1 (writeback) are CRTC 0's. */

#define BROKEN(change, rule) do {					\
	t = good;							\
	change;								\
	REFUSED(#change, atomkms_topology_validate(&t, &why), rule);	\
} while (0)
	BROKEN(t.num_crtcs = 0, "crtcs: 1 to 8");
	BROKEN(t.num_planes = 33, "at most 32 in all");
	BROKEN(t.num_encoders = 17, "encoders: at most 16");
	BROKEN(t.planes[3].pipe = 1, "planes: listed pipe by pipe");
	BROKEN(t.planes[9].pipe = 2, "planes: listed pipe by pipe");
	BROKEN(t.encoders[0].pipe = 1, "encoders: listed pipe by pipe");
	BROKEN(t.planes[1].type = 3, "primary, overlay or cursor");
	BROKEN(t.planes[1].possible_crtcs = 2, "include the plane's own");
	BROKEN(t.planes[1].possible_crtcs = 5, "possible CRTCs must exist");
	BROKEN(t.planes[1].zpos = 9, "zpos outside its range");
	BROKEN(t.planes[0].zpos_max = 1, "an immutable zpos has no range");
	BROKEN(t.planes[1].zpos_max = 256, "zpos must be 0 to 255");
	BROKEN(t.planes[1].zpos_min = 4; t.planes[1].zpos = 4,
	       "zpos_min above zpos_max");
	BROKEN(t.planes[1].formats = 0, "formats must be a non-empty set");
	BROKEN(t.planes[1].formats = 1ULL << 40, "formats must be a non-empty set");
	BROKEN(t.planes[1].rotations = ATOMKMS_TOPO_ROTATE_90,
	       "rotations: rotate-0 and any of");
	BROKEN(t.planes[1].rotations = 0x41, "rotations: rotate-0 and any of");
	BROKEN(t.planes[1].min_scale = 100, "scaling limits");
	BROKEN(t.planes[1].max_scale = 17 << 16, "scaling limits");
	BROKEN(t.planes[4].max_scale = 2 << 16, "cursors do not scale");
	BROKEN(t.crtcs[1].primary = 0, "a primary plane of its own");
	BROKEN(t.crtcs[0].primary = 1, "a primary plane of its own");
	BROKEN(t.crtcs[0].cursor = 9, "cursor plane is the CRTC's own");
	BROKEN(t.crtcs[0].cursor = ATOMKMS_TOPO_NONE,
	       "every primary and cursor plane belongs to one CRTC");
	BROKEN(t.crtcs[1].lut_size = 1024, "LUTs have 256 entries");
	BROKEN(t.encoders[0].kind = 2, "Virtual or writeback");
	BROKEN(t.encoders[0].possible_crtcs = 2, "include the encoder's own");
	BROKEN(t.encoders[1].possible_crtcs = 3, "taps one CRTC");
	BROKEN(t.encoders[3].pipe = 0; t.encoders[3].possible_crtcs = 1,
	       "listed pipe by pipe");
	BROKEN(t.encoders[2].possible_clones &= ~4u, "in its own possible clones");
	BROKEN(t.encoders[2].possible_clones |= 16, "clones must exist");
	BROKEN(t.encoders[1].possible_clones &= ~1u, "clones are mutual");
	BROKEN(t.connectors[0].encoder = 1, "has a Virtual encoder");
	BROKEN(t.connectors[1].encoder = 0, "an encoder of its own");
	BROKEN(t.connectors[1].refresh = 0, "refresh must be 1 to 1000");
	BROKEN(t.connectors[0].max_width = 600, "largest mode");
	BROKEN(t.connectors[0].pref_height = 2161, "preferred mode is larger");
	BROKEN(t.num_connectors = 1, "each Virtual encoder has a connector");
	BROKEN(t.num_connectors = 0; t.num_encoders = 0,
	       "none at all");
#undef BROKEN
	/* Two writeback connectors on CRTC 1. */
	t = good;
	t.encoders[2].kind = ATOMKMS_TOPO_ENC_WRITEBACK;
	t.encoders[2].possible_crtcs = 2;
	REFUSED("two writebacks", atomkms_topology_validate(&t, &why),
		"one writeback connector per CRTC");
}

/*
 * A tiled monitor: tiles_across/tiles_down make the first connectors its
 * tiles, in rows, fixed-rate whatever vrr_mask says; each rule of a tile
 * group broken once.
 */
static struct atomkms_config config(u32 crtcs, u32 ovl, bool writeback);

static void test_tiles(void)
{
	struct atomkms_params p = defaults();
	struct atomkms_topology good, t;
	const char *why = "";
	u32 i;

	p.num_crtcs = 4;
	p.num_overlays = 1;
	p.tiles_h = 2;
	p.tiles_v = 1;
	p.pref_width = 1920;
	p.pref_height = 2160;
	CHECK(!atomkms_topology_from_params(&p, &good, &why) &&
	      !atomkms_topology_validate(&good, &why), "2x1 tiles: %s", why);
	CHECK(good.connectors[0].tile_group == 1 &&
	      good.connectors[1].tile_group == 1 &&
	      !good.connectors[2].tile_group && !good.connectors[3].tile_group,
	      "the first two connectors are the tiles");
	CHECK(good.connectors[0].tile_h_loc == 0 &&
	      good.connectors[1].tile_h_loc == 1 &&
	      good.connectors[1].tile_v_loc == 0 &&
	      good.connectors[1].tiles_h == 2 && good.connectors[1].tiles_v == 1,
	      "tiles in a row");
	CHECK(!good.connectors[0].vrr && !good.connectors[1].vrr &&
	      good.connectors[2].vrr, "tiles are fixed-rate, others not");
	p.tiles_v = 2;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "2x2 tiles: %s", why);
	for (i = 0; i < 4; i++)
		CHECK(t.connectors[i].tile_h_loc == i % 2 &&
		      t.connectors[i].tile_v_loc == i / 2, "2x2: tile %u", i);
	p.tiles_v = 0;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      t.connectors[1].tiles_v == 1, "tiles_down 0: one row");

#define BAD_PARAM(field, value, rule) do {				\
	p = defaults();							\
	p.num_crtcs = 4;						\
	p.num_overlays = 1;						\
	p.field = value;						\
	REFUSED(#field "=" #value,					\
		atomkms_topology_from_params(&p, &t, &why), rule);	\
} while (0)
	BAD_PARAM(tiles_v, 2, "tiles_down needs tiles_across");
	BAD_PARAM(tiles_h, 17, "at most 16");
	BAD_PARAM(tiles_h, 5, "at most num_connectors");
#undef BAD_PARAM
	p = defaults();
	p.num_crtcs = 4;
	p.num_overlays = 1;
	p.num_connectors = 2;
	p.tiles_h = 2;
	p.tiles_v = 2;
	REFUSED("4 tiles, 2 connectors", atomkms_topology_from_params(&p, &t, &why),
		"at most num_connectors");
	p.tiles_h = 1;
	p.tiles_v = 1;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "1x1 built");
	REFUSED("1x1", atomkms_topology_validate(&t, &why),
		"at least two tiles");
	p.tiles_h = 2;
	p.tiles_v = 1;
	p.refresh[1] = 75;
	p.refresh[0] = 60;
	p.num_refresh = 2;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "60+75 built");
	REFUSED("tiles at 60 and 75 Hz", atomkms_topology_validate(&t, &why),
		"one tile size and refresh");

#define BROKEN(change, rule) do {					\
	t = good;							\
	change;								\
	REFUSED(#change, atomkms_topology_validate(&t, &why), rule);	\
} while (0)
	BROKEN(t.connectors[0].tiles_h = 17, "1 to 16 tiles across");
	BROKEN(t.connectors[0].tiles_v = 0, "1 to 16 tiles across");
	BROKEN(t.connectors[1].tile_h_loc = 2, "location lies within");
	BROKEN(t.connectors[1].tile_v_loc = 1, "location lies within");
	BROKEN(t.connectors[1].vrr = true, "tiles are fixed-rate");
	BROKEN(t.connectors[1].tiles_v = 2, "agree on tiles across and down");
	BROKEN(t.connectors[1].pref_width = 1280, "one tile size and refresh");
	BROKEN(t.connectors[1].tile_h_loc = 0, "each tile location has one connector");
	BROKEN(t.connectors[1].tile_group = 2, "a connector for every tile");
	BROKEN(t.connectors[2].tile_group = 1; t.connectors[2].tiles_h = 2;
	       t.connectors[2].tiles_v = 1; t.connectors[2].vrr = false;
	       t.connectors[2].pref_width = 1920;
	       t.connectors[2].pref_height = 2160,
	       "each tile location has one connector");
#undef BROKEN

	/* From configfs's description: the same rules. */
	{
		struct atomkms_config c = config(2, 0, false);

		for (i = 0; i < 2; i++) {
			c.connectors[i].tile_group = 7;
			c.connectors[i].tiles_h = 2;
			c.connectors[i].tile_h_loc = (u8)i;
			c.connectors[i].no_vrr = true;
		}
		CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
		      !atomkms_topology_validate(&t, &why) &&
		      t.connectors[1].tile_group == 7 &&
		      t.connectors[1].tiles_v == 1 &&
		      t.connectors[1].tile_h_loc == 1, "config tiles: %s", why);
		c.connectors[1].no_vrr = false;
		CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
		REFUSED("config tile with vrr", atomkms_topology_validate(&t, &why),
			"tiles are fixed-rate");
	}
}

/* A vkms-like configuration: per CRTC a primary, @ovl overlays, a cursor. */
static struct atomkms_config config(u32 crtcs, u32 ovl, bool writeback)
{
	struct atomkms_config c = { .num_crtcs = crtcs };
	u32 i, j;

	for (i = 0; i < crtcs; i++) {
		c.crtcs[i].writeback = writeback;
		c.crtcs[i].refresh = 60;
		c.planes[c.num_planes].type = ATOMKMS_TOPO_PRIMARY;
		c.planes[c.num_planes++].possible_crtcs = BIT(i);
		for (j = 0; j < ovl; j++) {
			c.planes[c.num_planes].type = ATOMKMS_TOPO_OVERLAY;
			c.planes[c.num_planes++].possible_crtcs = BIT(i);
		}
		c.planes[c.num_planes].type = ATOMKMS_TOPO_CURSOR;
		c.planes[c.num_planes++].possible_crtcs = BIT(i);
		c.encoders[c.num_encoders++].possible_crtcs = BIT(i);
		c.connectors[c.num_connectors].connected = true;
		/* configfs's default: an HDR monitor, as hdr_mask's. */
		c.connectors[c.num_connectors].hdr = true;
		c.connectors[c.num_connectors++].possible_encoders = BIT(i);
	}
	return c;
}

static void test_config(void)
{
	struct atomkms_params p = defaults();
	struct atomkms_topology t, want;
	struct atomkms_config c;
	const char *why = "";
	u32 i;

	/* The default device, described the configfs way: the same topology. */
	p.num_overlays = 1;
	c = config(1, 1, true);
	CHECK(!atomkms_topology_from_params(&p, &want, &why), "params: %s", why);
	CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "config: %s", why);
	CHECK(!memcmp(&t, &want, sizeof(t)),
	      "one CRTC: the configuration's topology is the parameters'");

	/* Made in any order, listed pipe by pipe; each CRTC finds its own. */
	c = config(3, 2, true);
	c.planes[0] = c.planes[c.num_planes - 1];	/* CRTC 2's cursor first */
	memset(&c.planes[c.num_planes - 1], 0, sizeof(c.planes[0]));
	c.planes[c.num_planes - 1].type = ATOMKMS_TOPO_PRIMARY;
	c.planes[c.num_planes - 1].possible_crtcs = BIT(0);
	c.crtcs[1].refresh = 144;
	c.encoders[1].possible_crtcs = 0x6;
	CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "shuffled: %s", why);
	for (i = 0; i < 3; i++) {
		CHECK(t.planes[t.crtcs[i].primary].type == ATOMKMS_TOPO_PRIMARY &&
		      t.planes[t.crtcs[i].primary].possible_crtcs == BIT(i) &&
		      t.planes[t.crtcs[i].cursor].type == ATOMKMS_TOPO_CURSOR &&
		      t.planes[t.crtcs[i].cursor].possible_crtcs == BIT(i),
		      "CRTC %u: its own primary and cursor", i);
		CHECK(t.planes[t.crtcs[i].cursor].zpos == 7,
		      "CRTC %u: the cursor above all 6 overlays", i);
	}
	CHECK(t.num_planes == 12 && t.num_encoders == 6 &&
	      t.num_connectors == 3, "12 planes, 6 encoders, 3 connectors");
	CHECK(t.connectors[1].refresh == 144 &&
	      t.encoders[t.connectors[1].encoder].possible_crtcs == 0x6,
	      "connector 1: its encoder on CRTCs 1 and 2, at CRTC 1's rate");
	i = (u32)atomkms_topology_writeback(&t, 1);
	CHECK(t.encoders[i].possible_clones & BIT(t.connectors[1].encoder),
	      "a writeback connector clones the displays of its CRTC");

	c = config(1, 0, false);
	c.num_crtcs = 0;
	REFUSED("no CRTC", atomkms_topology_from_config(&c, &t, &why),
		"crtcs: 1 to 8");
	c = config(2, 0, false);
	c.planes[0].possible_crtcs = 0;
	REFUSED("a plane on no CRTC", atomkms_topology_from_config(&c, &t, &why),
		"planes: each needs a possible CRTC");
	c = config(2, 0, false);
	c.encoders[0].possible_crtcs = BIT(2);
	REFUSED("an encoder on a CRTC that is not", atomkms_topology_from_config(&c, &t, &why),
		"encoders: each needs a possible CRTC");
	c = config(2, 0, false);
	c.connectors[0].possible_encoders = 0x3;
	REFUSED("two encoders", atomkms_topology_from_config(&c, &t, &why),
		"exactly one possible encoder");
	c.connectors[0].possible_encoders = 0;
	REFUSED("no encoder", atomkms_topology_from_config(&c, &t, &why),
		"exactly one possible encoder");

	c = config(2, 0, false);
	c.planes[0].possible_crtcs = 0x3;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("a primary on two CRTCs", atomkms_topology_validate(&t, &why),
		"each has a primary plane of its own");
	c = config(2, 0, false);
	c.planes[2].type = ATOMKMS_TOPO_OVERLAY;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("a CRTC without a primary", atomkms_topology_validate(&t, &why),
		"each has a primary plane of its own");
	c = config(1, 0, false);
	c.planes[1].type = ATOMKMS_TOPO_PRIMARY;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("two primaries", atomkms_topology_validate(&t, &why),
		"every primary and cursor plane belongs to one CRTC");
	c = config(2, 0, false);
	c.num_connectors = 1;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("an encoder without a connector", atomkms_topology_validate(&t, &why),
		"each Virtual encoder has a connector");
	c = config(2, 0, false);
	c.connectors[1].possible_encoders = BIT(0);
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("two connectors on one encoder", atomkms_topology_validate(&t, &why),
		"an encoder of its own");
	c = config(1, 0, false);
	c.crtcs[0].refresh = 0;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("0 Hz", atomkms_topology_validate(&t, &why), "refresh must be 1 to 1000");
}

/* A one-block EDID that passes the structural checks, and its length. */
static u32 edid_ok(u8 *e, u32 blocks)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	u32 b, i;

	memset(e, 0, blocks * 128);
	memcpy(e, header, 8);
	e[126] = (u8)(blocks - 1);
	for (b = 0; b < blocks; b++) {
		u8 sum = 0;

		e[b * 128] = b ? 0x02 : 0;
		for (i = 0; i < 127; i++)
			sum += e[b * 128 + i];
		e[b * 128 + 127] = (u8)(0x100 - sum);
	}
	return blocks * 128;
}

static void test_connector_attrs(void)
{
	static const char *const names[] = { "VGA", "DVI-I", "DVI-D", "LVDS",
		"DP", "HDMI-A", "eDP", "Virtual", "DSI" };
	static const int types[] = { 1, 2, 3, 7, 10, 11, 14, 15, 16 };
	struct atomkms_params p = defaults();
	struct atomkms_topology t;
	struct atomkms_config c;
	const char *why = "";
	u8 e[4352];
	u16 w, h, hz;
	u32 i, len;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		CHECK(atomkms_topo_connector_type(names[i], strlen(names[i])) == types[i],
		      "type %s", names[i]);
		CHECK(!strcmp(atomkms_topo_connector_type_name(types[i]), names[i]),
		      "name of %d", types[i]);
	}
	CHECK(atomkms_topo_connector_type("HDMI-A\n", 7) == 11, "a trailing newline");
	CHECK(atomkms_topo_connector_type("HDMI-A\n\n", 8) < 0, "two newlines");
	CHECK(atomkms_topo_connector_type("HDMI", 4) < 0, "a prefix");
	CHECK(atomkms_topo_connector_type("hdmi-a", 6) < 0, "another case");
	CHECK(atomkms_topo_connector_type("Writeback", 9) < 0, "Writeback");
	CHECK(atomkms_topo_connector_type("Unknown", 7) < 0, "Unknown");
	CHECK(atomkms_topo_connector_type("", 0) < 0, "empty");
	CHECK(!atomkms_topo_connector_type_name(0) &&
	      !atomkms_topo_connector_type_name(18) &&
	      !atomkms_topo_connector_type_name(21), "no name for 0, 18, 21");

	CHECK(!atomkms_topo_parse_mode("2880x1800@90\n", 13, &w, &h, &hz, &why) &&
	      w == 2880 && h == 1800 && hz == 90, "2880x1800@90: %s", why);
	/* CVT-RB 3040x1905 at 120 Hz, 695 MHz: the EDID says it at 60 Hz. */
	CHECK(!atomkms_topo_parse_mode("2880x1800@120", 13, &w, &h, &hz, &why) &&
	      hz == 120, "2880x1800@120: %s", why);
	REFUSED("4095x4095@60", atomkms_topo_parse_mode("4095x4095@60", 12, &w, &h,
							&hz, &why), "even at 60 Hz");
	REFUSED("1920x1080@1000", atomkms_topo_parse_mode("1920x1080@1000", 14, &w, &h,
							  &hz, &why), "3 GHz");
	CHECK(!atomkms_topo_parse_mode("1280x720", 8, &w, &h, &hz, &why) &&
	      w == 1280 && h == 720 && hz == 0, "1280x720: %s", why);
	CHECK(!atomkms_topo_parse_mode("3840x2160@60", 12, &w, &h, &hz, &why),
	      "3840x2160@60: %s", why);
	CHECK(!atomkms_topo_parse_mode("4095x4095@30", 12, &w, &h, &hz, &why),
	      "4095x4095@30: %s", why);
	CHECK(!atomkms_topo_parse_mode("3840x2160@144", 13, &w, &h, &hz, &why),
	      "3840x2160@144: %s", why);
	REFUSED("4096x2160", atomkms_topo_parse_mode("4096x2160", 9, &w, &h, &hz, &why),
		"640x480 to 4095x4095");
	REFUSED("639x480", atomkms_topo_parse_mode("639x480", 7, &w, &h, &hz, &why),
		"640x480 to 4095x4095");
	REFUSED("640x480@1001", atomkms_topo_parse_mode("640x480@1001", 12, &w, &h,
							&hz, &why), "1 to 1000 Hz");
	REFUSED("640x480@0", atomkms_topo_parse_mode("640x480@0", 9, &w, &h, &hz, &why),
		"not WIDTHxHEIGHT");
	REFUSED("640x", atomkms_topo_parse_mode("640x", 4, &w, &h, &hz, &why),
		"not WIDTHxHEIGHT");
	REFUSED("640 x 480", atomkms_topo_parse_mode("640 x 480", 9, &w, &h, &hz, &why),
		"not WIDTHxHEIGHT");
	REFUSED("1920x1080@60Hz", atomkms_topo_parse_mode("1920x1080@60Hz", 14, &w, &h,
							  &hz, &why), "not WIDTHxHEIGHT");
	REFUSED("99999999x1", atomkms_topo_parse_mode("99999999x1", 10, &w, &h, &hz,
						      &why), "not WIDTHxHEIGHT");

	len = edid_ok(e, 1);
	CHECK(!atomkms_topo_check_edid(e, len), "a sound base block");
	CHECK(!atomkms_topo_check_edid(e, edid_ok(e, 2)), "two blocks");
	CHECK(!atomkms_topo_check_edid(e, edid_ok(e, 31)), "31 blocks");
	CHECK(!atomkms_topo_check_edid(e, edid_ok(e, 32)), "32 blocks: 4096 bytes");
	edid_ok(e, 33);
	CHECK(atomkms_topo_check_edid(e, 33 * 128) &&
	      strstr(atomkms_topo_check_edid(e, 33 * 128), "128 to 4096"), "33 blocks");
	len = edid_ok(e, 2);
	CHECK(strstr(atomkms_topo_check_edid(e, 128), "extension count"),
	      "truncated: one block of two");
	CHECK(strstr(atomkms_topo_check_edid(e, 200), "multiple of 128"), "200 bytes");
	CHECK(strstr(atomkms_topo_check_edid(e, 0), "multiple of 128"), "0 bytes");
	memset(e + 256, 0, 128);
	CHECK(strstr(atomkms_topo_check_edid(e, 384), "extension count"),
	      "a zero block after (its checksum holds): the extension count");
	e[200] ^= 1;
	CHECK(strstr(atomkms_topo_check_edid(e, len), "checksum"),
	      "the extension's checksum");
	e[200] ^= 1;
	e[1] = 0xfe;
	CHECK(strstr(atomkms_topo_check_edid(e, len), "header"), "a bad header");
	e[1] = 0xff;

	/* Through the configuration: type, preferred mode, EDID, headset. */
	p.num_overlays = 1;
	c = config(2, 1, true);
	c.connectors[0].type = 14;
	c.connectors[0].pref_width = 2880;
	c.connectors[0].pref_height = 1800;
	c.connectors[0].pref_refresh = 120;
	c.connectors[1].non_desktop = true;
	c.connectors[1].no_vrr = true;
	c.connectors[1].edid = e;
	c.connectors[1].edid_len = len;
	c.connectors[1].edid_enabled = true;
	c.connectors[1].hdcp = ATOMKMS_TOPO_HDCP_1_4;
	c.connectors[1].hdcp_delay_ms = 7;
	c.connectors[1].bpc = 12;
	c.connectors[1].hdr = false;
	CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "eDP 2880x1800@120: %s", why);
	CHECK(t.connectors[0].hdr && !t.connectors[1].hdr,
	      "configfs hdr reaches the topology: 1 as by default, 0");
	CHECK(t.connectors[0].hdcp == ATOMKMS_TOPO_HDCP_NONE &&
	      t.connectors[0].hdcp_delay_ms == ATOMKMS_TOPO_HDCP_DELAY_MS &&
	      t.connectors[1].hdcp == ATOMKMS_TOPO_HDCP_1_4 &&
	      t.connectors[1].hdcp_delay_ms == 7,
	      "configfs hdcp and hdcp_delay_ms reach the topology");
	CHECK(t.connectors[0].bpc == ATOMKMS_TOPO_BPC_DEFAULT &&
	      t.connectors[1].bpc == 12, "configfs bpc: 0 is 10, 12 reaches it");
	c.connectors[1].bpc = 9;
	CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
	      atomkms_topology_validate(&t, &why) && strstr(why, "bpc"),
	      "configfs bpc 9 refused: %s", why);
	c.connectors[1].bpc = 12;
	CHECK(t.connectors[0].type == 14 && t.connectors[0].pref_width == 2880 &&
	      t.connectors[0].pref_height == 1800 && t.connectors[0].refresh == 120 &&
	      t.connectors[0].max_width == 4096 && t.connectors[0].max_height == 2160,
	      "connector 0: eDP, 2880x1800 at 120 Hz, up to 4096x2160");
	CHECK(t.connectors[1].type == 15 && t.connectors[1].non_desktop &&
	      t.connectors[1].pref_width == 1920 && t.connectors[1].refresh == 60,
	      "connector 1: Virtual by default, a headset, 1920x1080 at its CRTC's 60 Hz");
	CHECK(t.connectors[0].vrr && !t.connectors[1].vrr,
	      "vrr by default; no_vrr turns it off");
	c.connectors[0].pref_height = 4000;
	c.connectors[0].pref_refresh = 30;
	CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
	      t.connectors[0].max_height == 4000,
	      "a tall preferred mode raises the largest: %s", why);
	c.connectors[0].pref_height = 1800;
	c.connectors[0].type = 18;
	REFUSED("a Writeback connector", atomkms_topology_from_config(&c, &t, &why),
		"unknown connector type");
	c.connectors[0].type = 14;
	c.connectors[0].pref_refresh = 1000;
	REFUSED("2880x1800@1000", atomkms_topology_from_config(&c, &t, &why), "3 GHz");
	c.connectors[0].pref_refresh = 90;
	c.connectors[1].edid_len = 128;
	REFUSED("a truncated EDID", atomkms_topology_from_config(&c, &t, &why),
		"extension count");
	c.connectors[1].edid_len = 0;
	REFUSED("edid_enabled without an EDID", atomkms_topology_from_config(&c, &t, &why),
		"edid_enabled without an EDID");

	/* The module parameter: types in order, Virtual beyond. */
	p = defaults();
	p.num_crtcs = 3;
	p.num_overlays = 1;
	p.connector_types[0] = 11;
	p.connector_types[1] = 16;
	p.num_connector_types = 2;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "connector_types=HDMI-A,DSI: %s", why);
	CHECK(t.connectors[0].type == 11 && t.connectors[1].type == 16 &&
	      t.connectors[2].type == 15, "HDMI-A, DSI, then Virtual");
	t.connectors[2].type = 0;
	REFUSED("a connector of type 0", atomkms_topology_validate(&t, &why),
		"unknown connector type");
}

/* Parse @text as supported_formats onto @start: the result, ~0 if refused. */
static u64 formats_after(u64 start, const char *text, const char **why)
{
	u64 f = start;

	return atomkms_topo_parse_formats(text, (u32)strlen(text), &f, why) ?
	       ~0ULL : f;
}

/* A plane's capabilities: formats, rotations, scaling, zpos (issue 13). */
static void test_plane_caps(void)
{
	u64 all = atomkms_topo_formats_all(), xr24 = 1, ar24 = 2;
	struct atomkms_params p = defaults();
	struct atomkms_topology t;
	struct atomkms_config c;
	const char *why = "";
	char buf[256];
	u8 rot = 0;
	u32 i;

	/* supported_formats: vkms's +/- syntax, several tokens a write. */
	CHECK(all == (1ULL << 35) - 1, "35 formats in the compositor's table");
	CHECK(atomkms_topo_formats_cursor() == (xr24 | ar24),
	      "a cursor's default: XR24 and AR24");
	CHECK(formats_after(all, "-*", &why) == 0, "-* empties the set");
	CHECK(formats_after(0, "+*\n", &why) == all, "+* fills it");
	CHECK(formats_after(0, "+XR24", &why) == xr24, "+XR24");
	CHECK(formats_after(all, "-* +AR24,+XR24\n", &why) == (xr24 | ar24),
	      "-* +AR24,+XR24 in one write");
	CHECK(formats_after(xr24 | ar24, "-XR24", &why) == ar24, "-XR24");
	CHECK(formats_after(0, "+NV12 +P010 +YUYV", &why) != ~0ULL &&
	      __builtin_popcountll(formats_after(0, "+NV12 +P010 +YUYV", &why)) == 3,
	      "YUV fourccs by DRM's names");
	REFUSED("+XR25", atomkms_topo_parse_formats("+XR25", 5, &all, &why),
		"not a format the compositor reads");
	REFUSED("+C8 (not the compositor's)",
		atomkms_topo_parse_formats("+C8  ", 5, &all, &why),
		"+FOURCC, -FOURCC");
	REFUSED("XR24 without a sign", atomkms_topo_parse_formats("XR24", 4, &all, &why),
		"+FOURCC, -FOURCC, +* or -*");
	REFUSED("+XR24X", atomkms_topo_parse_formats("+XR24X", 6, &all, &why),
		"+FOURCC, -FOURCC, +* or -*");
	REFUSED("nothing", atomkms_topo_parse_formats("\n", 1, &all, &why),
		"+FOURCC, -FOURCC, +* or -*");
	CHECK(all == atomkms_topo_formats_all(), "a refused write changes nothing");
	CHECK(atomkms_topo_print_formats(xr24 | ar24 | (1ULL << 22), buf,
					 sizeof(buf)) == 15 &&
	      !strcmp(buf, "XR24\nAR24\nNV12\n"), "shown one fourcc a line: %s", buf);
	CHECK(atomkms_topo_print_formats(all, buf, sizeof(buf)) == 35 * 5,
	      "all 35 shown");
	CHECK(formats_after(0, buf, &why) == ~0ULL, "the shown form is not a write (no signs)");

	/* supported_rotations: DRM's names or its bitmask; rotate-0 needed. */
	CHECK(!atomkms_topo_parse_rotations("rotate-0 rotate-180\n", 20, &rot, &why) &&
	      rot == 0x5, "rotate-0 rotate-180: %s", why);
	CHECK(!atomkms_topo_parse_rotations("0x3f", 4, &rot, &why) && rot == 0x3f,
	      "0x3f");
	CHECK(!atomkms_topo_parse_rotations("17", 2, &rot, &why) && rot == 0x11,
	      "17: rotate-0 reflect-x");
	CHECK(!atomkms_topo_parse_rotations("rotate-0,reflect-y", 18, &rot, &why) &&
	      rot == 0x21, "commas");
	REFUSED("rotate-90 alone",
		atomkms_topo_parse_rotations("rotate-90", 9, &rot, &why),
		"must include rotate-0");
	REFUSED("0x40", atomkms_topo_parse_rotations("0x40", 4, &rot, &why),
		"reflect-x/y or a bitmask");
	REFUSED("0", atomkms_topo_parse_rotations("0", 1, &rot, &why),
		"reflect-x/y or a bitmask");
	REFUSED("rotate-45", atomkms_topo_parse_rotations("rotate-0 rotate-45", 18,
							  &rot, &why), "or a bitmask");
	REFUSED("a number and a name",
		atomkms_topo_parse_rotations("1 rotate-90", 11, &rot, &why), "or a bitmask");
	REFUSED("0xg", atomkms_topo_parse_rotations("0xg", 3, &rot, &why), "or a bitmask");
	CHECK(rot == 0x21, "a refused write changes nothing");
	CHECK(atomkms_topo_print_rotations(0x3f, buf, sizeof(buf)) &&
	      !strcmp(buf, "rotate-0 rotate-90 rotate-180 rotate-270 reflect-x reflect-y\n"),
	      "all shown by name: %s", buf);
	CHECK(atomkms_topo_print_rotations(0x11, buf, sizeof(buf)) &&
	      !strcmp(buf, "rotate-0 reflect-x\n"), "shown: %s", buf);
	CHECK(!atomkms_topo_parse_rotations(buf, (u32)strlen(buf), &rot, &why) &&
	      rot == 0x11, "the shown form reads back");

	/* mutable_zpos: primaries and overlays share 0 to the overlays. */
	p.num_crtcs = 2;
	p.mutable_zpos = true;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "mutable_zpos: %s", why);
	for (i = 0; i < 2; i++) {
		const struct atomkms_topo_plane *pr = &t.planes[t.crtcs[i].primary];
		const struct atomkms_topo_plane *ov = &t.planes[t.crtcs[i].primary + 1];
		const struct atomkms_topo_plane *cu = &t.planes[t.crtcs[i].cursor];

		CHECK(pr->zpos_mutable && pr->zpos == 0 && pr->zpos_min == 0 &&
		      pr->zpos_max == 3, "CRTC %u: primary 0, mutable 0-3", i);
		CHECK(ov->zpos_mutable && ov->zpos == 1 && ov->zpos_min == 0 &&
		      ov->zpos_max == 3, "CRTC %u: overlay 1, mutable 0-3", i);
		CHECK(!cu->zpos_mutable && cu->zpos == 4 && cu->zpos_min == 4,
		      "CRTC %u: the cursor fixed on top", i);
		CHECK(pr->formats == atomkms_topo_formats_all() &&
		      cu->formats == atomkms_topo_formats_cursor() &&
		      pr->rotations == 0x3f && cu->rotations == 0x3f,
		      "CRTC %u: every format (cursor ARGB/XRGB), every rotation", i);
	}
	p.mutable_zpos = false;
	CHECK(!atomkms_topology_from_params(&p, &t, &why) &&
	      !t.planes[0].zpos_mutable && t.planes[0].zpos_max == 0 &&
	      t.planes[1].zpos_min == 1, "by default the primary is fixed at 0");

	/* A configured plane's capabilities reach the topology. */
	c = config(1, 2, false);
	c.planes[0].caps.formats_set = true;
	c.planes[0].caps.formats = xr24 | ar24;
	c.planes[0].caps.rotations = 0x5;
	c.planes[0].caps.max_scale_factor = 1;
	c.planes[0].caps.zpos_set = ATOMKMS_CFG_ZPOS_MUTABLE;
	c.planes[0].caps.zpos_mutable = true;
	c.planes[1].caps.max_scale_factor = 16;
	c.planes[1].caps.zpos_set = ATOMKMS_CFG_ZPOS_MIN | ATOMKMS_CFG_ZPOS_INITIAL;
	c.planes[1].caps.zpos_min = 0;
	c.planes[1].caps.zpos = 2;
	c.planes[2].caps.zpos_set = ATOMKMS_CFG_ZPOS_MUTABLE;
	c.planes[2].caps.zpos_mutable = false;
	CHECK(!atomkms_topology_from_config(&c, &t, &why) &&
	      !atomkms_topology_validate(&t, &why), "plane caps: %s", why);
	CHECK(t.planes[0].formats == (xr24 | ar24) && t.planes[0].rotations == 0x5 &&
	      t.planes[0].min_scale == 65536 && t.planes[0].max_scale == 65536,
	      "primary: XR24 AR24, rotate-0/180, no scaling");
	CHECK(t.planes[0].zpos_mutable && t.planes[0].zpos == 0 &&
	      t.planes[0].zpos_min == 0 && t.planes[0].zpos_max == 3,
	      "a primary made mutable: 0, over the whole stack 0-3");
	CHECK(t.planes[1].zpos_mutable && t.planes[1].zpos == 2 &&
	      t.planes[1].zpos_min == 0 && t.planes[1].zpos_max == 2 &&
	      t.planes[1].max_scale == 16 << 16 && t.planes[1].min_scale == 4096,
	      "overlay 1: at 2 in 0-2, scaling 1/16 to 16");
	CHECK(!t.planes[2].zpos_mutable && t.planes[2].zpos == 2 &&
	      t.planes[2].zpos_max == 2, "overlay 2 made immutable at its place");
	CHECK(t.planes[3].formats == atomkms_topo_formats_cursor() &&
	      t.planes[3].max_scale == 65536 && t.planes[3].zpos == 3,
	      "the cursor: its defaults");

	c = config(1, 1, false);
	c.planes[1].caps.formats_set = true;
	REFUSED("-* left empty", atomkms_topology_from_config(&c, &t, &why),
		"supported_formats must name at least one format");
	c.planes[1].caps.formats = 1ULL << 50;
	REFUSED("a format beyond the table", atomkms_topology_from_config(&c, &t, &why),
		"supported_formats must name at least one format");
	c = config(1, 1, false);
	c.planes[1].caps.max_scale_factor = 17;
	REFUSED("max_scale_factor 17", atomkms_topology_from_config(&c, &t, &why),
		"max_scale_factor must be 1 to 16");
	c = config(1, 1, false);
	c.planes[2].caps.max_scale_factor = 2;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("a cursor that scales", atomkms_topology_validate(&t, &why),
		"cursors do not scale");
	c = config(1, 1, false);
	c.planes[1].caps.zpos_set = ATOMKMS_CFG_ZPOS_MIN | ATOMKMS_CFG_ZPOS_MAX;
	c.planes[1].caps.zpos_min = 3;
	c.planes[1].caps.zpos_max = 2;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("zpos_min 3, zpos_max 2", atomkms_topology_validate(&t, &why),
		"zpos_min above zpos_max");
	c.planes[1].caps.zpos_min = 0;
	c.planes[1].caps.zpos_max = 300;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("zpos_max 300", atomkms_topology_validate(&t, &why),
		"zpos must be 0 to 255");
	c.planes[1].caps.zpos_max = 5;
	c.planes[1].caps.zpos_set |= ATOMKMS_CFG_ZPOS_INITIAL;
	c.planes[1].caps.zpos = 6;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("zpos 6 in 0-5", atomkms_topology_validate(&t, &why),
		"zpos outside its range");
	c = config(1, 1, false);
	c.planes[0].caps.rotations = 0x2;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built");
	REFUSED("rotate-90 alone", atomkms_topology_validate(&t, &why),
		"rotations: rotate-0 and any of");
}

/* Is @l a profile without any limit (atomkms_limits_init()'s)? */
static bool no_limits(const struct atomkms_limits *l)
{
	u32 i, none = 0;

	for (i = 0; i < ATOMKMS_TOPO_MAX_CRTCS; i++)
		none += l->num_scalers[i] == ATOMKMS_LIMIT_NONE;
	return none == ATOMKMS_TOPO_MAX_CRTCS &&
	       l->max_active_planes == ATOMKMS_LIMIT_NONE &&
	       l->max_crtc_planes == ATOMKMS_LIMIT_NONE &&
	       l->num_hw_planes == ATOMKMS_LIMIT_NONE &&
	       l->max_scalers == ATOMKMS_LIMIT_NONE &&
	       l->max_upscale == ATOMKMS_LIMIT_NONE &&
	       l->max_downscale == ATOMKMS_LIMIT_NONE &&
	       l->scaler_min_src_w == 0 && l->scaler_min_dst_h == 0 &&
	       l->scaler_max_width == ATOMKMS_LIMIT_NONE &&
	       l->bandwidth_mbps == ATOMKMS_LIMIT_NONE &&
	       l->num_plls == ATOMKMS_LIMIT_NONE &&
	       l->max_crtc_clock_khz == ATOMKMS_LIMIT_NONE &&
	       l->max_total_clock_khz == ATOMKMS_LIMIT_NONE &&
	       l->cursor_max_w == ATOMKMS_LIMIT_NONE &&
	       l->cursor_max_h == ATOMKMS_LIMIT_NONE &&
	       l->num_cursor_sizes == ATOMKMS_LIMIT_NONE;
}

/*
 * The limits (issue 15) a topology holds: none by default, whoever built
 * it; with a pool of hardware planes, every CRTC's primary and cursor
 * must have one they may use.
 */
static void test_limits(void)
{
	struct atomkms_params p = defaults();
	struct atomkms_config c = config(2, 1, true);
	struct atomkms_topology t;
	const char *why = "";

	memset(&t.limits, 0, sizeof(t.limits));
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	CHECK(no_limits(&t.limits), "from_params: no limit");
	memset(&t.limits, 0, sizeof(t.limits));
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built: %s", why);
	CHECK(no_limits(&t.limits), "from_config: no limit");
	CHECK(!atomkms_topology_validate(&t, &why), "valid: %s", why);

	/* laptop: three pipes; a fourth CRTC has no plane to light up. */
	p.num_crtcs = 3;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	CHECK(!atomkms_limits_preset("laptop", &t.limits), "laptop");
	CHECK(!atomkms_topology_validate(&t, &why), "3 CRTCs, laptop: %s", why);
	p.num_crtcs = 4;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	CHECK(!atomkms_limits_preset("laptop", &t.limits), "laptop");
	REFUSED("4 CRTCs, laptop", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
	CHECK(!atomkms_limits_preset("soc", &t.limits), "soc");
	CHECK(!atomkms_topology_validate(&t, &why), "4 CRTCs, soc: %s", why);
	/* desktop: 6 cursors, and pipes for any number of CRTCs. */
	p.num_crtcs = 7;
	p.num_overlays = 1;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	CHECK(!atomkms_limits_preset("desktop", &t.limits), "desktop");
	REFUSED("7 cursors, desktop", atomkms_topology_validate(&t, &why),
		"limits: each cursor plane fits a hardware plane");
	p.cursor = false;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	CHECK(!atomkms_limits_preset("desktop", &t.limits), "desktop");
	CHECK(!atomkms_topology_validate(&t, &why), "7 CRTCs, no cursor, desktop: %s",
	      why);

	/* A pool of one, broken each way once. */
	p = defaults();
	p.cursor = false;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	t.limits.num_hw_planes = 1;
	t.limits.hw_planes[0] = (struct atomkms_limits_hw_plane){
		.possible_crtcs = 1, .drm_planes = ATOMKMS_LIMIT_NONE,
		.types = ATOMKMS_LIMITS_PRIMARY,
		.rotations = ATOMKMS_TOPO_ROTATE_0,
		.formats = atomkms_topo_formats_cursor(),
		.max_width = ATOMKMS_LIMIT_NONE,
		.max_height = ATOMKMS_LIMIT_NONE,
	};
	CHECK(!atomkms_topology_validate(&t, &why), "a pool of one: %s", why);
	t.limits.hw_planes[0].drm_planes = BIT(0);
	CHECK(!atomkms_topology_validate(&t, &why), "its own plane: %s", why);
	t.limits.hw_planes[0].drm_planes = BIT(1);
	REFUSED("another plane's", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
	t.limits.hw_planes[0].drm_planes = ATOMKMS_LIMIT_NONE;
	t.limits.hw_planes[0].possible_crtcs = 2;
	REFUSED("another CRTC's", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
	t.limits.hw_planes[0].possible_crtcs = 1;
	t.limits.hw_planes[0].types = ATOMKMS_LIMITS_OVERLAY;
	REFUSED("overlays only", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
	t.limits.hw_planes[0].types = ATOMKMS_LIMITS_PRIMARY;
	t.planes[0].formats = atomkms_topo_formats_all() &
			      ~atomkms_topo_formats_cursor();
	REFUSED("no format in common", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
	t.planes[0].formats = atomkms_topo_formats_all();
	t.limits.num_hw_planes = 33;
	REFUSED("33 hardware planes", atomkms_topology_validate(&t, &why),
		"limits: at most 32 hardware planes");
	t.limits.num_hw_planes = 0;
	REFUSED("no hardware plane", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
}

/*
 * The limits the module parameters and configfs give (a preset, numbers
 * replacing its own) reach the topology through from_params() and
 * from_config(); a bad preset is refused there.
 */
static void test_limits_params(void)
{
	struct atomkms_limits_params lp = {
		.preset = "laptop", .max_active_planes = ATOMKMS_LIMIT_NONE,
		.num_plls = 1, .bandwidth_mbps = ATOMKMS_LIMIT_NONE,
		.num_scalers = { 1 }, .num_num_scalers = 1,
	};
	struct atomkms_params p = defaults();
	struct atomkms_config c = config(2, 1, true);
	struct atomkms_topology t;
	const char *why = "";

	p.num_crtcs = 3;
	p.limits = &lp;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	CHECK(t.limits.num_hw_planes == 11 && t.limits.num_plls == 1 &&
	      t.limits.num_scalers[0] == 1 && t.limits.num_scalers[2] == 1 &&
	      t.limits.bandwidth_mbps == 12000,
	      "from_params: laptop, 1 PLL, 1 scaler a CRTC");
	CHECK(!atomkms_topology_validate(&t, &why), "3 CRTCs, laptop: %s", why);
	p.num_crtcs = 4;
	CHECK(!atomkms_topology_from_params(&p, &t, &why), "built: %s", why);
	REFUSED("params: 4 CRTCs, laptop", atomkms_topology_validate(&t, &why),
		"limits: each CRTC's primary plane fits a hardware plane");
	lp.preset = "phone";
	REFUSED("params: preset phone", atomkms_topology_from_params(&p, &t, &why),
		"limits: the presets are none, soc, laptop and desktop");
	lp.preset = NULL;
	c.limits = &lp;
	CHECK(!atomkms_topology_from_config(&c, &t, &why), "built: %s", why);
	CHECK(t.limits.num_hw_planes == ATOMKMS_LIMIT_NONE &&
	      t.limits.num_plls == 1 && t.limits.num_scalers[7] == 1 &&
	      t.limits.max_active_planes == ATOMKMS_LIMIT_NONE,
	      "from_config: no preset, the numbers given");
	CHECK(!atomkms_topology_validate(&t, &why), "config: %s", why);
	lp.preset = "soc";
	lp.num_num_scalers = 9;
	REFUSED("config: 9 CRTCs' scalers",
		atomkms_topology_from_config(&c, &t, &why),
		"limits: num_scalers: at most 8 CRTCs");
}

int main(void)
{
	test_every_combination();
	test_values();
	test_bad_params();
	test_rules();
	test_tiles();
	test_config();
	test_connector_attrs();
	test_plane_caps();
	test_limits();
	test_limits_params();
	return check_done("test_topology");
}
