// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of module/core/atomkms_limits.c: each limit at its boundary
 * (accepted) and one over it (refused, the message checked word for
 * word: the limit's name and the numbers), "no limit" taking a huge
 * state and 0 refusing any use; the plane pool's matching against a
 * brute-force search; the presets.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_limits.h"
#include "atomkms_formats.h"
#include "atomkms_topology.h"
#include "check.h"

#define XR24	ATOMKMS_FMT_XRGB8888
#define AR24	ATOMKMS_FMT_ARGB8888
#define NV12	ATOMKMS_FMT_NV12
#define OVL	ATOMKMS_TOPO_OVERLAY
#define PRI	ATOMKMS_TOPO_PRIMARY
#define CUR	ATOMKMS_TOPO_CURSOR
#define NONE	ATOMKMS_LIMIT_NONE

static char why[256];

static int judge(const struct atomkms_limits *l,
		 const struct atomkms_limits_state *s)
{
	memset(why, 'X', sizeof(why));
	return atomkms_limits_check(l, s, why, sizeof(why));
}

#define ACCEPTED(what, l, s)						\
	CHECK(judge(l, s) == 0, "%s: refused: %s", what, why)

#define REFUSED(what, l, s, msg) do {					\
	int r_ = judge(l, s);						\
	CHECK(r_ == -ATOMKMS_EINVAL, "%s: returned %d", what, r_);	\
	CHECK(!strcmp(why, msg), "%s: \"%s\", expected \"%s\"", what,	\
	      why, msg);						\
} while (0)

static struct atomkms_limits unlimited(void)
{
	struct atomkms_limits l;

	memset(&l, 0x5a, sizeof(l));	/* init must set every field */
	atomkms_limits_init(&l);
	return l;
}

/* A state of @n CRTCs, all active at 148.5 MHz and 60 Hz, no plane. */
static struct atomkms_limits_state state(u32 n)
{
	struct atomkms_limits_state s;
	u32 i;

	memset(&s, 0, sizeof(s));
	s.num_crtcs = n;
	for (i = 0; i < n; i++) {
		s.crtcs[i].active = true;
		s.crtcs[i].clock_khz = 148500;
		s.crtcs[i].refresh_mhz = 60000;
	}
	return s;
}

/* Add a plane (index: its position) of @sw x @sh pixels shown @dw x @dh. */
static struct atomkms_limits_plane *add(struct atomkms_limits_state *s,
					u32 crtc, u32 type, u32 fourcc,
					u32 sw, u32 sh, u32 dw, u32 dh)
{
	struct atomkms_limits_plane *p = &s->planes[s->num_planes];

	*p = (struct atomkms_limits_plane){
		.plane = (u8)s->num_planes, .crtc = (u8)crtc, .type = (u8)type,
		.rotation = ATOMKMS_TOPO_ROTATE_0, .fourcc = fourcc,
		.src_w = sw << 16, .src_h = sh << 16, .dst_w = dw, .dst_h = dh,
	};
	s->num_planes++;
	return p;
}

static void test_unlimited(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(8);
	const char *err = NULL;
	u8 hw[32];
	u32 i;

	CHECK(!atomkms_limits_validate(&l, &err), "no limit validates: %s", err);
	CHECK(l.scaler_min_src_w == 0 && l.scaler_min_dst_h == 0 &&
	      l.num_hw_planes == NONE && l.num_scalers[7] == NONE &&
	      l.bandwidth_mbps == NONE && l.num_cursor_sizes == NONE,
	      "init: no limit, minimums 0");
	ACCEPTED("nothing at all", &l, &s);
	/* 8 CRTCs at 8 distinct 3 GHz-ish clocks, 1000 Hz. */
	for (i = 0; i < 8; i++) {
		s.crtcs[i].clock_khz = 3000000 - i;
		s.crtcs[i].refresh_mhz = 1000000;
	}
	/* 32 planes of 8192x8192 FP16, scaled x16 and /16, rotated. */
	for (i = 0; i < 32; i++) {
		struct atomkms_limits_plane *p =
			add(&s, i % 8, i % 8 ? OVL : PRI,
			    ATOMKMS_FMT_ARGB16161616F, 8192, 8192,
			    i & 1 ? 512 : 65535, i & 1 ? 512 : 65535);

		p->rotation = ATOMKMS_TOPO_ROTATE_90 | ATOMKMS_TOPO_REFLECT_X;
	}
	ACCEPTED("a huge state", &l, &s);
	CHECK(atomkms_limits_assign(&l, &s, hw) == 32 && hw[0] == 0xff &&
	      hw[31] == 0xff, "no pool: every plane its own hardware");
	s.planes[8].type = CUR;
	s.planes[8].dst_w = 4096;
	ACCEPTED("a 4096x4096 cursor", &l, &s);
}

static void test_state_promises(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(2);

	s.crtcs[1].active = false;
	add(&s, 1, PRI, XR24, 64, 64, 64, 64);
	REFUSED("plane on an inactive CRTC", &l, &s,
		"state: plane 0 is on CRTC 1, which is not active");
	s.planes[0].crtc = 2;
	REFUSED("plane on no CRTC", &l, &s,
		"state: plane 0 is on CRTC 2, which is not active");
	s.planes[0].crtc = 0;
	s.planes[0].fourcc = ATOMKMS_FOURCC('Q', 'Q', 'Q', 'Q');
	REFUSED("unknown format", &l, &s,
		"state: plane 0's format 0x51515151 is not the compositor's");
	s.planes[0].fourcc = XR24;
	s.planes[0].dst_w = 0;
	REFUSED("empty destination", &l, &s,
		"state: plane 0's source 64x64 or destination 0x64 is empty or too large");
	s.planes[0].dst_w = 65535;
	ACCEPTED("destination 65535 wide", &l, &s);
	s.planes[0].dst_w = 65536;
	REFUSED("destination 65536 wide", &l, &s,
		"state: plane 0's source 64x64 or destination 65536x64 is empty or too large");
}

static void test_planes(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(2);

	l.max_active_planes = 3;
	l.max_crtc_planes = 2;
	add(&s, 0, PRI, XR24, 64, 64, 64, 64);
	add(&s, 0, OVL, XR24, 64, 64, 64, 64);
	add(&s, 1, PRI, XR24, 64, 64, 64, 64);
	ACCEPTED("3 planes, 2 on a CRTC", &l, &s);
	add(&s, 1, OVL, XR24, 64, 64, 64, 64);
	REFUSED("4 planes", &l, &s,
		"max_active_planes: 4 planes visible, limit 3");
	l.max_active_planes = 4;
	ACCEPTED("4 planes, limit 4", &l, &s);
	add(&s, 1, CUR, AR24, 64, 64, 64, 64);
	l.max_active_planes = 5;
	REFUSED("3 planes on CRTC 1", &l, &s,
		"max_crtc_planes: CRTC 1 shows 3 planes, limit 2");

	l = unlimited();
	l.max_active_planes = 0;
	s = state(1);
	ACCEPTED("no plane, max_active_planes 0", &l, &s);
	add(&s, 0, PRI, XR24, 64, 64, 64, 64);
	REFUSED("a plane, max_active_planes 0", &l, &s,
		"max_active_planes: 1 plane visible, limit 0");
	l = unlimited();
	l.max_crtc_planes = 0;
	REFUSED("a plane, max_crtc_planes 0", &l, &s,
		"max_crtc_planes: CRTC 0 shows 1 plane, limit 0");
}

static void test_scaler_counts(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(2);
	struct atomkms_limits_plane *p;

	l.num_scalers[0] = 1;
	l.num_scalers[1] = 2;
	l.max_scalers = 2;
	add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 0, OVL, XR24, 1280, 720, 1920, 1080);
	add(&s, 1, OVL, XR24, 1920, 1080, 1280, 720);
	ACCEPTED("a scaled plane on each CRTC", &l, &s);
	add(&s, 0, OVL, XR24, 640, 480, 1920, 1080);
	REFUSED("2 scaled on CRTC 0", &l, &s,
		"num_scalers: CRTC 0 scales 2 planes, 1 scaler");
	s.planes[3].crtc = 1;
	REFUSED("3 scaled in all", &l, &s,
		"max_scalers: 3 planes scale, 2 scalers in all");
	l.max_scalers = 3;
	ACCEPTED("3 scaled, 3 scalers", &l, &s);

	/* Rotated by 90: the source's width is the destination's height. */
	s = state(1);
	p = add(&s, 0, PRI, XR24, 1080, 1920, 1920, 1080);
	p->rotation = ATOMKMS_TOPO_ROTATE_90;
	CHECK(!atomkms_limits_plane_scales(p), "rotated 90, same size: no scaling");
	p->rotation = ATOMKMS_TOPO_ROTATE_270 | ATOMKMS_TOPO_REFLECT_Y;
	CHECK(!atomkms_limits_plane_scales(p), "rotated 270: no scaling");
	p->rotation = ATOMKMS_TOPO_ROTATE_180;
	CHECK(atomkms_limits_plane_scales(p), "rotated 180: scaling");
	p->rotation = ATOMKMS_TOPO_ROTATE_0;
	p->src_w = 1920 << 16;
	p->src_h = (1080 << 16) + 1;
	CHECK(atomkms_limits_plane_scales(p), "1/65536 pixel more: scaling");

	/* 0 scalers: no scaling at all, unscaled planes fine. */
	l = unlimited();
	l.num_scalers[0] = 0;
	s = state(1);
	add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
	ACCEPTED("unscaled, no scaler", &l, &s);
	s.planes[0].dst_w = 1919;
	REFUSED("scaled, no scaler", &l, &s,
		"num_scalers: CRTC 0 scales 1 plane, 0 scalers");
	l = unlimited();
	l.max_scalers = 0;
	REFUSED("scaled, no scaler in all", &l, &s,
		"max_scalers: 1 plane scales, 0 scalers in all");

	/* A panel fitter is one of its CRTC's scalers (the max counts it). */
	l = unlimited();
	l.num_scalers[0] = 1;
	l.max_scalers = 1;
	s = state(2);
	add(&s, 0, PRI, XR24, 640, 480, 640, 480);
	s.crtcs[0].panel_fitter = true;
	ACCEPTED("a panel fitter, 1 scaler", &l, &s);
	s.planes[0].dst_w = 320;
	REFUSED("a panel fitter and a scaled plane, 1 scaler", &l, &s,
		"num_scalers: CRTC 0 scales 1 plane and its output, 1 scaler");
	s.planes[0].dst_w = 640;
	add(&s, 1, PRI, XR24, 640, 480, 320, 240);
	REFUSED("a panel fitter and a scaled plane elsewhere, 1 in all", &l, &s,
		"max_scalers: 2 planes scale, 1 scaler in all");
	s.crtcs[0].active = false;
	s.num_planes = 0;
	add(&s, 1, PRI, XR24, 640, 480, 320, 240);
	ACCEPTED("an inactive CRTC's fitter counts nothing", &l, &s);
}

static void test_scaler_limits(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(1);
	struct atomkms_limits_plane *p;

	l.max_upscale = 2 * ATOMKMS_LIMITS_SCALE_ONE;
	l.max_downscale = 3 * ATOMKMS_LIMITS_SCALE_ONE - 1;
	p = add(&s, 0, PRI, XR24, 960, 540, 1920, 1080);
	ACCEPTED("upscale x2, limit x2", &l, &s);
	p->src_w = 959 << 16;
	REFUSED("upscale 959 to 1920", &l, &s,
		"max_upscale: plane 0 upscales its width x2.002 (959 to 1920 pixels), limit x2.000");
	p->src_w = 960 << 16;
	p->src_h = (540 << 16) - 1;
	REFUSED("upscale 539.99998 to 1080", &l, &s,
		"max_upscale: plane 0 upscales its height x2.000 (539 to 1080 pixels), limit x2.000");
	/* Rotated: the source's width meets the destination's height. */
	p->src_w = 540 << 16;
	p->src_h = 960 << 16;
	p->rotation = ATOMKMS_TOPO_ROTATE_90;
	ACCEPTED("upscale x2 rotated", &l, &s);
	p->src_w = 539 << 16;
	REFUSED("upscale rotated 539 to 1080", &l, &s,
		"max_upscale: plane 0 upscales its height x2.003 (539 to 1080 pixels), limit x2.000");
	p->rotation = ATOMKMS_TOPO_ROTATE_0;
	p->src_w = 3839 << 16;
	p->src_h = 2160 << 16;
	p->dst_w = 1280;
	p->dst_h = 721;
	ACCEPTED("downscale 3839 to 1280, under x3", &l, &s);
	p->src_w = 3840 << 16;
	REFUSED("downscale x3", &l, &s,
		"max_downscale: plane 0 downscales its width x3.000 (3840 to 1280 pixels), limit x2.999");

	/* Minimum sizes apply while scaling only. */
	l = unlimited();
	l.scaler_min_src_w = 8;
	l.scaler_min_src_h = 8;
	l.scaler_min_dst_w = 16;
	l.scaler_min_dst_h = 16;
	s = state(1);
	p = add(&s, 0, OVL, XR24, 8, 8, 16, 16);
	ACCEPTED("8x8 to 16x16", &l, &s);
	p->src_w = 7 << 16;
	REFUSED("7x8 to 16x16", &l, &s,
		"scaler_min_src: plane 0 scales from 7x8, minimum 8x8");
	p->src_w = 8 << 16;
	p->src_h = 32 << 16;
	p->dst_h = 15;
	REFUSED("8x32 to 16x15", &l, &s,
		"scaler_min_dst: plane 0 scales to 16x15, minimum 16x16");
	*p = (struct atomkms_limits_plane){ .plane = 0, .crtc = 0, .type = OVL,
		.fourcc = XR24, .src_w = 4 << 16, .src_h = 4 << 16,
		.dst_w = 4, .dst_h = 4, .rotation = ATOMKMS_TOPO_ROTATE_0 };
	ACCEPTED("4x4 unscaled", &l, &s);

	/* The line buffer: source or destination, whichever is wider. */
	l = unlimited();
	l.scaler_max_width = 4096;
	s = state(1);
	p = add(&s, 0, PRI, XR24, 2048, 1080, 4096, 2160);
	ACCEPTED("2048 to 4096 wide", &l, &s);
	p->dst_w = 4097;
	REFUSED("2048 to 4097 wide", &l, &s,
		"scaler_max_width: plane 0 scales lines 4097 pixels wide (2048 to 4097), limit 4096");
	p->src_w = 4097 << 16;
	p->dst_w = 2048;
	REFUSED("4097 to 2048 wide", &l, &s,
		"scaler_max_width: plane 0 scales lines 4097 pixels wide (4097 to 2048), limit 4096");
	p->src_w = 5120 << 16;
	p->dst_w = 5120;
	p->src_h = 2160 << 16;
	ACCEPTED("5120 wide unscaled", &l, &s);
}

static void test_bandwidth(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(2);
	struct atomkms_limits_plane p = { .fourcc = NV12, .src_w = 3 << 16,
					  .src_h = 3 << 16 };
	u32 i;

	/* Bytes a frame: memory plane by plane, chroma rounded up. */
	CHECK(atomkms_limits_plane_bytes(&p) == 9 + 2 * 2 * 2, "NV12 3x3");
	p.fourcc = ATOMKMS_FMT_YUV420;
	CHECK(atomkms_limits_plane_bytes(&p) == 9 + 4 + 4, "YUV420 3x3");
	p.fourcc = ATOMKMS_FMT_YUYV;
	p.src_w = 2 << 16;
	CHECK(atomkms_limits_plane_bytes(&p) == 2 * 3 * 2, "YUYV 2x3");
	p.fourcc = ATOMKMS_FMT_RGB888;
	p.src_w = (2 << 16) + 0x8000;
	CHECK(atomkms_limits_plane_bytes(&p) == 3 * 3 * 3, "RGB888 2.5x3");

	/* 1000x1000 XRGB8888 at 60 Hz: 240 MB/s; NV12: 90 MB/s. */
	l.bandwidth_mbps = 240;
	add(&s, 0, PRI, XR24, 1000, 1000, 1920, 1080);
	ACCEPTED("240 MB/s, budget 240", &l, &s);
	l.bandwidth_mbps = 239;
	REFUSED("240 MB/s, budget 239", &l, &s,
		"bandwidth_mbps: 1 plane needs 240 MB/s, budget 239 MB/s");
	add(&s, 0, OVL, NV12, 1000, 1000, 500, 500);
	l.bandwidth_mbps = 330;
	ACCEPTED("330 MB/s, budget 330", &l, &s);
	l.bandwidth_mbps = 329;
	REFUSED("330 MB/s, budget 329", &l, &s,
		"bandwidth_mbps: 2 planes need 330 MB/s, budget 329 MB/s");
	/* Another CRTC's refresh: 1000x1000 ARGB at 30.000 Hz, 120 MB/s. */
	s.crtcs[1].refresh_mhz = 30000;
	add(&s, 1, PRI, AR24, 1000, 1000, 1000, 1000);
	l.bandwidth_mbps = 450;
	ACCEPTED("450 MB/s, budget 450", &l, &s);
	s.crtcs[1].refresh_mhz = 30001;
	REFUSED("a mHz more", &l, &s,
		"bandwidth_mbps: 3 planes need 451 MB/s, budget 450 MB/s");
	/* Issue 15's example: 3 planes of 1920x1080 XRGB at 100 Hz. */
	s = state(1);
	s.crtcs[0].refresh_mhz = 100000;
	add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 0, OVL, XR24, 1920, 1080, 1920, 1080);
	add(&s, 0, OVL, XR24, 1920, 1080, 1920, 1080);
	l.bandwidth_mbps = 2000;
	REFUSED("3 1080p100 planes", &l, &s,
		"bandwidth_mbps: 3 planes need 2489 MB/s, budget 2000 MB/s");
	l.bandwidth_mbps = 0;
	REFUSED("budget 0", &l, &s,
		"bandwidth_mbps: 3 planes need 2489 MB/s, budget 0 MB/s");
	s.num_planes = 0;
	ACCEPTED("no plane, budget 0", &l, &s);

	/* Needs beyond 64 bits saturate, and are still refused. */
	s = state(8);
	for (i = 0; i < 32; i++) {
		s.crtcs[i % 8].refresh_mhz = 0xffffffff;
		add(&s, i % 8, OVL, ATOMKMS_FMT_ARGB16161616F, 65535, 65535,
		    65535, 65535);
	}
	l.bandwidth_mbps = 0xfffffffe;
	REFUSED("32 huge planes at 4 MHz", &l, &s,
		"bandwidth_mbps: 32 planes need 18446744074 MB/s, budget 4294967294 MB/s");
	s.num_planes = 1;
	s.crtcs[0].refresh_mhz = 1000;
	ACCEPTED("one at 1 Hz", &l, &s);
}

static void test_clocks(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(4);

	/* 3 PLLs: 4 CRTCs, 3 distinct clocks share them. */
	l.num_plls = 3;
	s.crtcs[0].clock_khz = 594000;
	s.crtcs[1].clock_khz = 148500;
	s.crtcs[2].clock_khz = 241500;
	s.crtcs[3].clock_khz = 148500;
	ACCEPTED("4 CRTCs, 3 distinct clocks, 3 PLLs", &l, &s);
	s.crtcs[3].clock_khz = 297000;
	REFUSED("4 distinct clocks, 3 PLLs", &l, &s,
		"num_plls: 4 active CRTCs need 4 distinct pixel clocks (148500, 241500, 297000, 594000 kHz), 3 PLLs");
	s.crtcs[2].active = false;
	ACCEPTED("an inactive CRTC needs no PLL", &l, &s);
	l.num_plls = 0;
	REFUSED("0 PLLs", &l, &s,
		"num_plls: 3 active CRTCs need 3 distinct pixel clocks (148500, 297000, 594000 kHz), 0 PLLs");
	s = state(2);
	s.crtcs[1].active = false;
	REFUSED("0 PLLs, one CRTC: singular", &l, &s,
		"num_plls: 1 active CRTC needs 1 distinct pixel clock (148500 kHz), 0 PLLs");
	l.num_plls = 1;
	s.crtcs[1].active = true;
	s.crtcs[1].clock_khz = 297000;
	REFUSED("1 PLL: singular", &l, &s,
		"num_plls: 2 active CRTCs need 2 distinct pixel clocks (148500, 297000 kHz), 1 PLL");
	l.num_plls = 0;
	s.crtcs[0].active = s.crtcs[1].active = false;
	ACCEPTED("0 PLLs, all off", &l, &s);

	l = unlimited();
	l.max_crtc_clock_khz = 675000;
	s = state(2);
	s.crtcs[1].clock_khz = 675000;
	ACCEPTED("675000 kHz, limit 675000", &l, &s);
	s.crtcs[1].clock_khz = 675001;
	REFUSED("675001 kHz", &l, &s,
		"max_crtc_clock_khz: CRTC 1 runs at 675001 kHz, limit 675000 kHz");

	l = unlimited();
	l.max_total_clock_khz = 460000;
	s.crtcs[0].clock_khz = 230000;
	s.crtcs[1].clock_khz = 230000;
	ACCEPTED("460000 kHz in all", &l, &s);
	s.crtcs[1].clock_khz = 230001;
	REFUSED("460001 kHz in all", &l, &s,
		"max_total_clock_khz: 2 active CRTCs run at 460001 kHz in all, limit 460000 kHz");
	l.max_total_clock_khz = 0;
	s.num_crtcs = 1;
	REFUSED("total 0", &l, &s,
		"max_total_clock_khz: 1 active CRTC runs at 230000 kHz in all, limit 0 kHz");
}

static void test_cursor(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(1);
	struct atomkms_limits_plane *p;

	l.cursor_max_w = 256;
	l.cursor_max_h = 256;
	p = add(&s, 0, CUR, AR24, 256, 256, 256, 256);
	ACCEPTED("256x256, limit 256x256", &l, &s);
	p->dst_w = 257;
	REFUSED("257x256", &l, &s, "cursor_max: plane 0 is 257x256, limit 256x256");
	l.cursor_max_h = NONE;
	p->dst_w = 256;
	p->dst_h = 4000;
	ACCEPTED("any height", &l, &s);
	p->dst_w = 300;
	REFUSED("300 wide", &l, &s, "cursor_max: plane 0 is 300x4000, limit 256 wide");

	l = unlimited();
	l.num_cursor_sizes = 3;
	l.cursor_sizes[0].w = l.cursor_sizes[0].h = 64;
	l.cursor_sizes[1].w = l.cursor_sizes[1].h = 128;
	l.cursor_sizes[2].w = l.cursor_sizes[2].h = 256;
	s = state(1);
	p = add(&s, 0, CUR, AR24, 128, 128, 128, 128);
	ACCEPTED("128x128", &l, &s);
	p->dst_h = 64;
	REFUSED("128x64", &l, &s,
		"cursor_sizes: plane 0 is 128x64, sizes: 64x64 128x128 256x256");
	p->type = OVL;
	ACCEPTED("an overlay of 128x64", &l, &s);
	l.num_cursor_sizes = 0;
	ACCEPTED("no cursor size, no cursor", &l, &s);
	p->type = CUR;
	REFUSED("no cursor size", &l, &s,
		"cursor_sizes: plane 0 is 128x64, sizes: none (no cursor)");
}

/* A hardware plane of CRTCs @crtcs taking every type, format, rotation. */
static struct atomkms_limits_hw_plane any_hw(u32 crtcs)
{
	struct atomkms_limits_hw_plane hw = {
		.possible_crtcs = crtcs, .drm_planes = NONE,
		.types = ATOMKMS_LIMITS_PRIMARY | ATOMKMS_LIMITS_OVERLAY |
			 ATOMKMS_LIMITS_CURSOR,
		.rotations = ATOMKMS_TOPO_ROTATIONS, .scales = true,
		.formats = ~0ULL, .max_width = NONE, .max_height = NONE,
	};
	return hw;
}

static u64 fmt_bit(u32 fourcc)
{
	return 1ULL << (atomkms_format_lookup(fourcc) - atomkms_formats);
}

static void test_pool_rules(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(2);
	struct atomkms_limits_plane *p;
	u8 hw[32];

	/* Greedy in order fails: the XRGB plane would take the only YUV one. */
	l.num_hw_planes = 2;
	l.hw_planes[0] = any_hw(1);
	l.hw_planes[1] = any_hw(1);
	l.hw_planes[1].formats = fmt_bit(XR24);
	add(&s, 0, PRI, XR24, 64, 64, 64, 64);
	add(&s, 0, OVL, NV12, 64, 64, 64, 64);
	ACCEPTED("XRGB then NV12 on an any and an RGB plane", &l, &s);
	CHECK(atomkms_limits_assign(&l, &s, hw) == 2 && hw[0] == 1 && hw[1] == 0,
	      "the XRGB plane moved over: %u %u", hw[0], hw[1]);
	add(&s, 0, OVL, XR24, 64, 64, 64, 64);
	REFUSED("3 planes, 2 hardware planes", &l, &s,
		"hw_planes: plane 2 (overlay on CRTC 0, XRGB8888 64x64) fits 2 hardware planes, all taken: 3 planes visible, 2 hardware planes");
	CHECK(atomkms_limits_assign(&l, &s, hw) == 2, "the third is not placed");
	l.hw_planes[1].possible_crtcs = 0;
	s.num_planes = 2;
	REFUSED("2 planes, 1 hardware plane for them: singular", &l, &s,
		"hw_planes: plane 1 (overlay on CRTC 0, NV12 64x64) fits 1 hardware plane, all taken: 2 planes visible, 2 hardware planes");
	l.hw_planes[1] = any_hw(1);
	l.hw_planes[1].formats = fmt_bit(XR24);
	s.num_planes = 3;
	s.num_planes = 2;
	s.planes[1].fourcc = ATOMKMS_FMT_P010;
	l.hw_planes[0].formats = fmt_bit(XR24) | fmt_bit(NV12);
	REFUSED("P010 on neither", &l, &s,
		"hw_planes: plane 1 (overlay on CRTC 0, P010 64x64) fits none of the 2 hardware planes");

	/* Each capability, just in and just out. */
	l = unlimited();
	l.num_hw_planes = 1;
	l.hw_planes[0] = any_hw(BIT(1));
	l.hw_planes[0].max_width = 2560;
	l.hw_planes[0].max_height = 1600;
	s = state(2);
	p = add(&s, 1, OVL, XR24, 2560, 1600, 2560, 1600);
	ACCEPTED("2560x1600, limit 2560x1600", &l, &s);
	p->src_w = (2560 << 16) + 1;
	REFUSED("2560.00002 wide", &l, &s,
		"hw_planes: plane 0 (overlay on CRTC 1, XRGB8888 2561x1600 to 2560x1600) fits none of the 1 hardware plane");
	p->src_w = 2560 << 16;
	p->src_h = 1601 << 16;
	p->dst_h = 1601;
	REFUSED("1601 high", &l, &s,
		"hw_planes: plane 0 (overlay on CRTC 1, XRGB8888 2560x1601) fits none of the 1 hardware plane");
	p->src_h = 1600 << 16;
	p->dst_h = 1600;
	p->crtc = 0;
	REFUSED("on CRTC 0", &l, &s,
		"hw_planes: plane 0 (overlay on CRTC 0, XRGB8888 2560x1600) fits none of the 1 hardware plane");
	p->crtc = 1;
	l.hw_planes[0].types = ATOMKMS_LIMITS_PRIMARY;
	REFUSED("an overlay on a primary", &l, &s,
		"hw_planes: plane 0 (overlay on CRTC 1, XRGB8888 2560x1600) fits none of the 1 hardware plane");
	p->type = PRI;
	ACCEPTED("a primary on a primary", &l, &s);
	l.hw_planes[0].rotations = ATOMKMS_TOPO_ROTATE_0 | ATOMKMS_TOPO_ROTATE_180;
	p->rotation = ATOMKMS_TOPO_ROTATE_180;
	ACCEPTED("rotate-180 taken", &l, &s);
	p->rotation = ATOMKMS_TOPO_ROTATE_180 | ATOMKMS_TOPO_REFLECT_X;
	REFUSED("reflect-x not taken", &l, &s,
		"hw_planes: plane 0 (primary on CRTC 1, XRGB8888 2560x1600, rotation 0x14) fits none of the 1 hardware plane");
	p->rotation = ATOMKMS_TOPO_ROTATE_0;
	p->dst_w = 1280;
	ACCEPTED("scaled on a scaling plane", &l, &s);
	l.hw_planes[0].scales = false;
	REFUSED("scaled on a plane without scaler", &l, &s,
		"hw_planes: plane 0 (primary on CRTC 1, XRGB8888 2560x1600 to 1280x1600) fits none of the 1 hardware plane");
	p->dst_w = 2560;
	ACCEPTED("unscaled on it", &l, &s);
	l.hw_planes[0].drm_planes = BIT(1);
	REFUSED("another DRM plane's hardware", &l, &s,
		"hw_planes: plane 0 (primary on CRTC 1, XRGB8888 2560x1600) fits none of the 1 hardware plane");
	p->plane = 1;
	ACCEPTED("its own hardware", &l, &s);

	/* 0 hardware planes: nothing can be shown. */
	l.num_hw_planes = 0;
	REFUSED("no hardware plane", &l, &s,
		"hw_planes: plane 1 (primary on CRTC 1, XRGB8888 2560x1600) fits none of the 0 hardware planes");
	s.num_planes = 0;
	ACCEPTED("no plane, no hardware plane", &l, &s);
}

/*
 * The matching against a brute-force search: random pools of up to 6
 * hardware planes (CRTCs, formats, scaling at random) and up to 6
 * planes. Every state with an assignment is accepted, with a valid one;
 * every state without is refused.
 */
static bool fits(const struct atomkms_limits_hw_plane *hw,
		 const struct atomkms_limits_plane *p)
{
	bool scaled = p->src_w != (u32)p->dst_w << 16 ||
		      p->src_h != (u32)p->dst_h << 16;

	return (hw->possible_crtcs >> p->crtc & 1) &&
	       (hw->formats & fmt_bit(p->fourcc)) &&
	       (hw->types >> p->type & 1) && (!scaled || hw->scales);
}

static bool brute(const struct atomkms_limits *l,
		  const struct atomkms_limits_state *s, u32 i, u32 used)
{
	u32 j;

	if (i == s->num_planes)
		return true;
	for (j = 0; j < l->num_hw_planes; j++)
		if (!(used & BIT(j)) && fits(&l->hw_planes[j], &s->planes[i]) &&
		    brute(l, s, i + 1, used | BIT(j)))
			return true;
	return false;
}

static void test_pool_random(void)
{
	static const u32 formats[] = { XR24, NV12, ATOMKMS_FMT_XRGB2101010 };
	u32 n, tried = 0, feasible = 0, bad = 0, greedy_fails = 0;

	srand(15);
	for (n = 0; n < 20000; n++) {
		struct atomkms_limits l = unlimited();
		struct atomkms_limits_state s = state(3);
		u32 i, j, taken = 0, greedy = 1;
		bool expect;
		int r;
		u8 hw[32], hw2[32];

		l.num_hw_planes = 1 + rand() % 6;
		for (j = 0; j < l.num_hw_planes; j++) {
			l.hw_planes[j] = any_hw(1 + rand() % 7);
			l.hw_planes[j].formats = 0;
			for (i = 0; i < 3; i++)
				if (rand() % 3)
					l.hw_planes[j].formats |= fmt_bit(formats[i]);
			if (!l.hw_planes[j].formats)
				l.hw_planes[j].formats = fmt_bit(XR24);
			l.hw_planes[j].scales = rand() % 2;
			l.hw_planes[j].types = (u8)(rand() % 4 ? 7 : 1 + rand() % 7);
		}
		s.num_planes = 0;
		for (i = 1 + rand() % l.num_hw_planes; i; i--)
			add(&s, rand() % 3, rand() % 3, formats[rand() % 3],
			    64, 64, rand() % 3 ? 64 : 128, 64);
		expect = brute(&l, &s, 0, 0);
		r = judge(&l, &s);
		tried++;
		feasible += expect;
		if ((r == 0) != expect) {
			bad++;
			continue;
		}
		if (!expect) {
			bad += strncmp(why, "hw_planes: plane ", 17) != 0;
			continue;
		}
		bad += atomkms_limits_assign(&l, &s, hw) != s.num_planes;
		for (i = 0; i < s.num_planes; i++) {
			bad += hw[i] >= l.num_hw_planes ||
			       (taken & BIT(hw[i])) ||
			       !fits(&l.hw_planes[hw[i]], &s.planes[i]);
			taken |= BIT(hw[i]);
		}
		/* Deterministic: the same again. */
		atomkms_limits_assign(&l, &s, hw2);
		bad += memcmp(hw, hw2, s.num_planes) != 0;
		/* Would placing each plane on its first free fit do? */
		taken = 0;
		for (i = 0; greedy && i < s.num_planes; i++) {
			for (j = 0; j < l.num_hw_planes; j++)
				if (!(taken & BIT(j)) &&
				    fits(&l.hw_planes[j], &s.planes[i]))
					break;
			if (j == l.num_hw_planes)
				greedy = 0;
			else
				taken |= BIT(j);
		}
		greedy_fails += !greedy;
	}
	printf("# pool: %u random states, %u with an assignment, %u of them not found greedily\n",
	       tried, feasible, greedy_fails);
	CHECK(!bad, "%u states judged unlike the brute-force search", bad);
	CHECK(feasible > tried / 4 && feasible < tried - tried / 4,
	      "both outcomes tried: %u of %u", feasible, tried);
	CHECK(greedy_fails > 100, "greedy order fails often enough: %u",
	      greedy_fails);
}

/* The limits not tested at 0 above: 0 refuses any use of them. */
static void test_zero(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(1);
	struct atomkms_limits_plane *p;

	l.max_crtc_clock_khz = 0;
	REFUSED("max_crtc_clock_khz 0", &l, &s,
		"max_crtc_clock_khz: CRTC 0 runs at 148500 kHz, limit 0 kHz");
	s.crtcs[0].active = false;
	ACCEPTED("max_crtc_clock_khz 0, CRTC off", &l, &s);

	l = unlimited();
	l.cursor_max_w = 0;
	l.cursor_max_h = 0;
	s = state(1);
	p = add(&s, 0, CUR, AR24, 64, 64, 64, 64);
	REFUSED("cursor_max 0x0", &l, &s, "cursor_max: plane 0 is 64x64, limit 0x0");
	p->type = PRI;
	ACCEPTED("cursor_max 0x0, a primary", &l, &s);

	/* A line buffer of 0: no scaling; factors of 1.0: none that way. */
	l = unlimited();
	l.scaler_max_width = 0;
	ACCEPTED("scaler_max_width 0, unscaled", &l, &s);
	p->dst_w = 65;
	REFUSED("scaler_max_width 0, scaled", &l, &s,
		"scaler_max_width: plane 0 scales lines 65 pixels wide (64 to 65), limit 0");
	l = unlimited();
	l.max_upscale = ATOMKMS_LIMITS_SCALE_ONE;
	l.max_downscale = ATOMKMS_LIMITS_SCALE_ONE;
	REFUSED("max_upscale 1.0", &l, &s,
		"max_upscale: plane 0 upscales its width x1.015 (64 to 65 pixels), limit x1.000");
	p->dst_w = 63;
	REFUSED("max_downscale 1.0", &l, &s,
		"max_downscale: plane 0 downscales its width x1.015 (64 to 63 pixels), limit x1.000");
	p->dst_w = 64;
	ACCEPTED("factors 1.0, unscaled", &l, &s);

	s = state(8);
	s.num_crtcs = 9;
	REFUSED("9 CRTCs", &l, &s, "state: 9 CRTCs and 0 planes, at most 8 and 32");
}

static void test_validate(void)
{
	struct atomkms_limits l = unlimited();
	const char *err = NULL;

#define INVALID(what, msg) do {						\
	err = NULL;							\
	CHECK(atomkms_limits_validate(&l, &err) == -ATOMKMS_EINVAL &&	\
	      err && !strcmp(err, msg), "%s: %s", what, err);		\
	l = unlimited();						\
} while (0)

	l.num_hw_planes = 33;
	INVALID("33 hardware planes", "limits: at most 32 hardware planes");
	l.num_hw_planes = 1;
	l.hw_planes[0] = any_hw(1);
	l.hw_planes[0].types = 0x8;
	INVALID("type 3", "limits: a hardware plane takes primary, overlay or cursor planes");
	l.num_hw_planes = 1;
	l.hw_planes[0] = any_hw(1);
	l.hw_planes[0].rotations = ATOMKMS_TOPO_ROTATE_90;
	INVALID("no rotate-0", "limits: hardware plane rotations: rotate-0, any of 90/180/270, reflect-x/y");
	l.num_hw_planes = 1;
	l.hw_planes[0] = any_hw(1);
	l.hw_planes[0].formats = 0;
	INVALID("no format", "limits: a hardware plane reads some format");
	l.num_hw_planes = 1;
	l.hw_planes[0] = any_hw(1);
	l.hw_planes[0].max_height = 0;
	INVALID("0 high", "limits: a hardware plane's largest source is at least 1x1");
	l.max_upscale = ATOMKMS_LIMITS_SCALE_ONE - 1;
	INVALID("upscale under 1", "limits: scale factors are at least 1.0 (0x10000): 1.0 is no scaling");
	l.max_downscale = 0;
	INVALID("downscale 0", "limits: scale factors are at least 1.0 (0x10000): 1.0 is no scaling");
	l.num_cursor_sizes = 9;
	INVALID("9 cursor sizes", "limits: at most 8 cursor sizes");
	l.num_cursor_sizes = 1;
	INVALID("a 0x0 cursor size", "limits: a cursor size is at least 1x1");
	l.max_upscale = ATOMKMS_LIMITS_SCALE_ONE;
	l.max_downscale = ATOMKMS_LIMITS_SCALE_ONE;
	l.num_hw_planes = 0;
	l.num_cursor_sizes = 0;
	CHECK(!atomkms_limits_validate(&l, &err), "no scaling, no plane: valid");
#undef INVALID
}

static void test_messages(void)
{
	struct atomkms_limits l = unlimited();
	struct atomkms_limits_state s = state(1);
	char small[16];

	l.max_active_planes = 0;
	add(&s, 0, PRI, XR24, 64, 64, 64, 64);
	memset(small, 'X', sizeof(small));
	CHECK(atomkms_limits_check(&l, &s, small, sizeof(small)) ==
	      -ATOMKMS_EINVAL && !strcmp(small, "max_active_plan"),
	      "truncated: %.16s", small);
	CHECK(atomkms_limits_check(&l, &s, NULL, 0) == -ATOMKMS_EINVAL,
	      "no buffer");
	l.max_active_planes = 1;
	memset(small, 'X', sizeof(small));
	CHECK(!atomkms_limits_check(&l, &s, small, sizeof(small)) && !small[0],
	      "accepted: an empty message");
}

/* The presets load, validate, and judge states of their class. */
static void test_presets(void)
{
	struct atomkms_limits l;
	struct atomkms_limits_state s;
	const char *err = NULL;
	static const char * const names[] = { "none", "soc", "laptop", "desktop" };
	u32 i;

	for (i = 0; i < 4; i++) {
		memset(&l, 0, sizeof(l));
		CHECK(!atomkms_limits_preset(names[i], &l), "%s loads", names[i]);
		err = NULL;
		CHECK(!atomkms_limits_validate(&l, &err), "%s: %s", names[i], err);
		/* One 1080p60 desktop on CRTC 0: any preset takes it. */
		s = state(1);
		add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
		ACCEPTED(names[i], &l, &s);
	}
	l.bandwidth_mbps = 1234;
	CHECK(atomkms_limits_preset("phone", &l) == -ATOMKMS_EINVAL &&
	      l.bandwidth_mbps == 1234, "unknown preset refused, untouched");
	CHECK(atomkms_limits_preset("", &l) == -ATOMKMS_EINVAL, "empty name");

	/* soc: 4 shared pipes, one of them scales; 2 PLLs; 6800 MB/s. */
	atomkms_limits_preset("soc", &l);
	CHECK(l.num_hw_planes == 4 && l.max_scalers == 1 && l.num_plls == 2 &&
	      l.bandwidth_mbps == 6800 && l.max_crtc_clock_khz == 460000 &&
	      l.max_total_clock_khz == ATOMKMS_LIMIT_NONE &&
	      l.max_upscale == 20 << 16 && l.max_downscale == 4 << 16,
	      "soc's numbers");
	s = state(2);
	s.crtcs[1].clock_khz = 148500;
	add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 0, OVL, NV12, 1280, 720, 1920, 1080);
	add(&s, 1, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 1, CUR, AR24, 64, 64, 64, 64);
	ACCEPTED("soc: a scaled video, two screens, a cursor", &l, &s);
	s.planes[2].dst_w = 1280;
	REFUSED("soc: a second scaled plane", &l, &s,
		"max_scalers: 2 planes scale, 1 scaler in all");
	s.planes[2].dst_w = 1920;
	add(&s, 1, OVL, XR24, 64, 64, 64, 64);
	REFUSED("soc: a fifth plane", &l, &s,
		"hw_planes: plane 4 (overlay on CRTC 1, XRGB8888 64x64) fits 4 hardware planes, all taken: 5 planes visible, 4 hardware planes");
	s.num_planes = 4;
	s.planes[2].src_w = 2561 << 16;
	s.planes[2].src_h = 1080 << 16;
	s.planes[2].dst_w = 2561;
	REFUSED("soc: wider than a pipe's line", &l, &s,
		"hw_planes: plane 2 (primary on CRTC 1, XRGB8888 2561x1080) fits none of the 4 hardware planes");
	s = state(3);
	s.crtcs[2].clock_khz = 74250;
	s.crtcs[1].clock_khz = 138500;
	REFUSED("soc: 3 clocks", &l, &s,
		"num_plls: 3 active CRTCs need 3 distinct pixel clocks (74250, 138500, 148500 kHz), 2 PLLs");
	/*
	 * 460000 kHz per CRTC, not in all: DPU's core clock is the highest
	 * any CRTC needs (two 2560x1440@60 screens, 483000 kHz together).
	 */
	s = state(2);
	s.crtcs[0].clock_khz = s.crtcs[1].clock_khz = 241500;
	add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 1, PRI, XR24, 1920, 1080, 1920, 1080);
	ACCEPTED("soc: two CRTCs at 241500 kHz", &l, &s);
	s.crtcs[1].clock_khz = 460000;
	ACCEPTED("soc: a CRTC at 460000 kHz", &l, &s);
	s.crtcs[1].clock_khz = 533250;
	REFUSED("soc: a CRTC at 533250 kHz", &l, &s,
		"max_crtc_clock_khz: CRTC 1 runs at 533250 kHz, limit 460000 kHz");

	/* laptop: pipes A, B, C; 2, 2 and 1 scalers; no NV12 on C. */
	atomkms_limits_preset("laptop", &l);
	CHECK(l.num_hw_planes == 11 && l.num_scalers[0] == 2 &&
	      l.num_scalers[1] == 2 && l.num_scalers[2] == 1 &&
	      l.num_scalers[3] == 0 && l.max_downscale == 0x2ffff &&
	      l.max_upscale == NONE && l.num_plls == 3 &&
	      l.max_crtc_clock_khz == 675000 && l.num_cursor_sizes == 3 &&
	      l.cursor_sizes[2].w == 256 && l.scaler_max_width == 4096,
	      "laptop's numbers");
	s = state(3);
	add(&s, 0, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 0, OVL, NV12, 1280, 720, 1920, 1080);
	add(&s, 0, OVL, XR24, 640, 480, 1280, 960);
	add(&s, 0, CUR, AR24, 256, 256, 256, 256);
	add(&s, 2, PRI, XR24, 1920, 1080, 1920, 1080);
	add(&s, 2, OVL, XR24, 1280, 720, 1920, 1080);
	ACCEPTED("laptop: 2 scaled on A, 1 on C", &l, &s);
	s.planes[4].dst_w = 1280;
	REFUSED("laptop: 2 scaled on C", &l, &s,
		"num_scalers: CRTC 2 scales 2 planes, 1 scaler");
	s.planes[4].dst_w = 1920;
	s.planes[5].fourcc = NV12;
	REFUSED("laptop: NV12 on pipe C", &l, &s,
		"hw_planes: plane 5 (overlay on CRTC 2, NV12 1280x720 to 1920x1080) fits none of the 11 hardware planes");
	s.planes[5].fourcc = ATOMKMS_FMT_YUYV;
	ACCEPTED("laptop: YUYV on pipe C", &l, &s);
	s.planes[3].fourcc = XR24;
	REFUSED("laptop: an XRGB cursor", &l, &s,
		"hw_planes: plane 3 (cursor on CRTC 0, XRGB8888 256x256) fits none of the 11 hardware planes");
	s = state(4);
	add(&s, 3, PRI, XR24, 1920, 1080, 1920, 1080);
	REFUSED("laptop: no pipe D", &l, &s,
		"hw_planes: plane 0 (primary on CRTC 3, XRGB8888 1920x1080) fits none of the 11 hardware planes");

	/* desktop: 6 pipes shared, a cursor per CRTC; 4K60 x 4. */
	atomkms_limits_preset("desktop", &l);
	CHECK(l.num_hw_planes == 12 && l.max_scalers == 6 && l.num_plls == 6 &&
	      l.max_upscale == 16 << 16 && l.max_downscale == 0x5fcef &&
	      l.bandwidth_mbps == 32000 && l.cursor_max_w == 256,
	      "desktop's numbers");
	s = state(4);
	for (i = 0; i < 4; i++) {
		s.crtcs[i].clock_khz = 533250 + i;
		add(&s, i, PRI, ATOMKMS_FMT_XRGB2101010, 3840, 2160, 3840, 2160);
		add(&s, i, CUR, AR24, 256, 256, 256, 256);
	}
	add(&s, 0, OVL, NV12, 3840, 2160, 1920, 1080);
	add(&s, 1, OVL, NV12, 1920, 1080, 3840, 2160);
	ACCEPTED("desktop: 4 4K screens, 2 videos", &l, &s);
	add(&s, 2, OVL, XR24, 64, 64, 64, 64);
	REFUSED("desktop: a seventh pipe", &l, &s,
		"hw_planes: plane 10 (overlay on CRTC 2, XRGB8888 64x64) fits 6 hardware planes, all taken: 11 planes visible, 12 hardware planes");
}

/* The module's and configfs's profiles: a preset, numbers replacing its. */
static void test_from_params(void)
{
	struct atomkms_limits_params p = {
		.max_active_planes = NONE, .num_plls = NONE,
		.bandwidth_mbps = NONE,
	};
	struct atomkms_limits l, ref = unlimited();
	const char *err = NULL;
	u32 i;

	CHECK(!atomkms_limits_from_params(&p, &l, &err), "unset: %s", err);
	CHECK(!memcmp(&l, &ref, sizeof(l)) && !atomkms_limits_any(&l),
	      "unset: no limit at all");
	p.preset = "laptop";
	p.num_plls = 0;
	p.bandwidth_mbps = 5000;
	p.num_scalers[0] = 3;
	p.num_scalers[1] = NONE;
	p.num_num_scalers = 2;
	CHECK(!atomkms_limits_from_params(&p, &l, &err), "laptop: %s", err);
	CHECK(l.num_plls == 0 && l.bandwidth_mbps == 5000 &&
	      l.max_active_planes == NONE && l.num_hw_planes == 11 &&
	      l.num_scalers[0] == 3 && l.num_scalers[1] == 2 &&
	      l.num_scalers[2] == 1 && l.num_scalers[7] == 0,
	      "laptop: the numbers given replace the preset's, NONE keeps it");
	p.preset = NULL;
	p.num_scalers[1] = 1;
	CHECK(!atomkms_limits_from_params(&p, &l, &err), "none: %s", err);
	for (i = 1; i < 8; i++)
		CHECK(l.num_scalers[i] == 1, "CRTC %u takes the last entry", i);
	CHECK(atomkms_limits_any(&l), "a number given is a limit");
	p.preset = "phone";
	CHECK(atomkms_limits_from_params(&p, &l, &err) == -ATOMKMS_EINVAL &&
	      !strcmp(err, "limits: the presets are none, soc, laptop and desktop"),
	      "unknown preset: %s", err);
	p.preset = "soc";
	p.num_num_scalers = 9;
	CHECK(atomkms_limits_from_params(&p, &l, &err) == -ATOMKMS_EINVAL,
	      "9 CRTCs' scalers refused");

	for (i = 0; i < 19; i++) {
		struct atomkms_limits m = unlimited();
		u32 *f[] = {
			&m.max_active_planes, &m.max_crtc_planes,
			&m.num_hw_planes, &m.num_scalers[7], &m.max_scalers,
			&m.max_upscale, &m.max_downscale, &m.scaler_min_src_w,
			&m.scaler_min_src_h, &m.scaler_min_dst_w,
			&m.scaler_min_dst_h, &m.scaler_max_width,
			&m.bandwidth_mbps, &m.num_plls, &m.max_crtc_clock_khz,
			&m.max_total_clock_khz, &m.cursor_max_w,
			&m.cursor_max_h, &m.num_cursor_sizes,
		};

		*f[i] = 8;
		CHECK(atomkms_limits_any(&m), "field %u is a limit", i);
	}
}

/* What a DRM plane offers: the union of the hardware planes it may use. */
static void test_plane_caps(void)
{
	u64 all = (1ULL << atomkms_num_formats) - 1, fmts;
	struct atomkms_limits l = unlimited();
	u32 crtcs = 0x3;
	u8 rots = ATOMKMS_TOPO_ROTATIONS;

	fmts = all;
	atomkms_limits_plane_caps(&l, 0, PRI, &crtcs, &fmts, &rots);
	CHECK(crtcs == 0x3 && fmts == all && rots == ATOMKMS_TOPO_ROTATIONS,
	      "no pool: unchanged");
	atomkms_limits_preset("laptop", &l);
	atomkms_limits_plane_caps(&l, 0, PRI, &crtcs, &fmts, &rots);
	CHECK(crtcs == 0x3 && fmts == all &&
	      rots == (ATOMKMS_TOPO_ROTATE_0 | ATOMKMS_TOPO_ROTATE_90 |
		       ATOMKMS_TOPO_ROTATE_180 | ATOMKMS_TOPO_ROTATE_270),
	      "laptop primary: pipes A and B, no reflection");
	crtcs = 0x4;
	fmts = all;
	atomkms_limits_plane_caps(&l, 0, OVL, &crtcs, &fmts, &rots);
	CHECK(crtcs == 0x4 && fmts != all &&
	      !(fmts & (1ULL << (atomkms_format_lookup(NV12) - atomkms_formats))),
	      "laptop pipe C: no NV12");
	crtcs = 0x1;
	fmts = all;
	rots = ATOMKMS_TOPO_ROTATIONS;
	atomkms_limits_plane_caps(&l, 3, CUR, &crtcs, &fmts, &rots);
	CHECK(fmts == (1ULL << (atomkms_format_lookup(AR24) - atomkms_formats)) &&
	      rots == (ATOMKMS_TOPO_ROTATE_0 | ATOMKMS_TOPO_ROTATE_180),
	      "laptop cursor: ARGB8888, 0 and 180");
	crtcs = 0x10;
	fmts = all;
	atomkms_limits_plane_caps(&l, 0, PRI, &crtcs, &fmts, &rots);
	CHECK(crtcs == 0x10 && fmts == all, "no hardware plane: unchanged");
}

int main(void)
{
	test_unlimited();
	test_state_promises();
	test_planes();
	test_scaler_counts();
	test_scaler_limits();
	test_bandwidth();
	test_clocks();
	test_cursor();
	test_zero();
	test_pool_rules();
	test_pool_random();
	test_validate();
	test_messages();
	test_presets();
	test_from_params();
	test_plane_caps();
	return check_done("test_limits");
}
