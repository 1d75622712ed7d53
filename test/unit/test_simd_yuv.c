// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bilinear 8-bit YCbCr line (include/atomkms_simd.h: yuv_vlerp,
 * yuv_hlerp; atomkms_compose.c's atomkms_line_yuv8()), on every level
 * this CPU runs (scalar, SSE2, AVX2):
 *  - the two loops against references written here from the general
 *    path's arithmetic (atomkms_compose.c's lerp2 of samples read as
 *    v << 8, then atomkms_yuv_to_rgb_line()), every encoding and range,
 *    edge weights, widths 1..70 and larger, unaligned starts;
 *  - whole frames: an 8-bit YCbCr plane of each format over a primary,
 *    odd sizes, odd and fractional source offsets (chroma siting), scaled
 *    up and down, bilinear and nearest, unscaled, plane alpha, off the
 *    edge, against the general path (identical bytes and CRC) and the
 *    reference (within 1 of 8 bits), with the fast path's loops seen to
 *    run, and only inside the vector sections.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_compose.h"
#include "atomkms_simd.h"
#include "simd_watch.h"

static const struct atomkms_simd_ops *levels[3];
static u32 num_levels;
static u64 rng = 20261206;

/* (65536 - wy) a + wy b. */
static u32 ref_vlerp(u32 wy, u32 a, u32 b)
{
	return (u32)((u64)(65536 - wy) * a + (u64)wy * b);
}

/* The general path's bilinear sample of four 8-bit samples (v << 8). */
static u16 ref_lerp2(u32 p00, u32 p01, u32 p10, u32 p11, u32 wx, u32 wy)
{
	u64 w00 = (u64)(65536 - wx) * (65536 - wy);
	u64 w01 = (u64)wx * (65536 - wy), w10 = (u64)(65536 - wx) * wy;
	u64 w11 = (u64)wx * wy;

	return (w00 * (p00 << 8) + w01 * (p01 << 8) + w10 * (p10 << 8) +
		w11 * (p11 << 8) + (1ull << 31)) >> 32;
}

static u32 pick_wy(void)
{
	switch (test_rand_below(&rng, 6)) {
	case 0:
		return 0;
	case 1:
		return 65535;
	case 2:
		return 1;
	case 3:
		return 32768;
	default:
		return test_rand_below(&rng, 65536);
	}
}

/* Bytes: runs of 0, of 255, and random ones. */
static void fill_bytes(u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 k = test_rand_below(&rng, 8);

		p[i] = k == 0 ? 0 : k == 1 ? 255 : (u8)test_rand(&rng);
	}
}

static void test_vlerp(void)
{
	u8 r0[1100], r1[1100];
	u32 out[1100], l, n, off, i, bad = 0, runs = 0;

	for (l = 0; l < num_levels; l++) {
		for (n = 1; n <= 1030; n += n < 70 ? 1 : 480) {
			for (off = 0; off < 4; off++) {
				u32 wy = pick_wy();

				fill_bytes(r0, sizeof(r0));
				fill_bytes(r1, sizeof(r1));
				memset(out, 0xa5, sizeof(out));
				levels[l]->yuv_vlerp(wy, r0 + off, r1 + 3 - off,
						     out + off, n);
				runs++;
				for (i = 0; i < n; i++) {
					if (out[off + i] == ref_vlerp(wy, r0[off + i],
								      r1[3 - off + i]))
						continue;
					if (!bad++)
						printf("%s: vlerp n %u off %u wy %u: [%u] %08x, want %08x\n",
						       levels[l]->name, n, off, wy, i,
						       out[off + i],
						       ref_vlerp(wy, r0[off + i],
								 r1[3 - off + i]));
				}
				/* Nothing past the n words. */
				bad += out[off + n] != 0xa5a5a5a5u;
				/* Both lines the same (NV12's chroma, often). */
				levels[l]->yuv_vlerp(wy, r1 + off, r1 + off, out, n);
				for (i = 0; i < n; i++)
					bad += out[i] != ref_vlerp(wy, r1[off + i],
								   r1[off + i]);
			}
		}
	}
	CHECK(!bad, "%u vlerp words differ from (65536 - wy) a + wy b", bad);
	printf("vlerp: %u runs\n", runs);
}

#define SPAN 600

/* The conversion's constants, as atomkms_compose.c's atomkms_yuv_lerp_init(). */
static void lerp_consts(struct atomkms_yuv_lerp *lp, const struct atomkms_csc *c)
{
	s64 k = (1 << 15) + ((s64)ATOMKMS_YUV_BIAS << 24) - (s64)c->cy * c->y_off;

	lp->cy = c->cy;
	lp->crv = c->crv;
	lp->cgu = c->cgu;
	lp->cgv = c->cgv;
	lp->cbu = c->cbu;
	lp->kr = k - (s64)c->crv * c->c_off;
	lp->kg = k + ((s64)c->cgu + c->cgv) * c->c_off;
	lp->kb = k - (s64)c->cbu * c->c_off;
}

/*
 * Output columns: random steps of 0, 1 or 2 columns (pattern 0), or as a
 * plane scaled by a factor (16.16 source step per output pixel) from a
 * fractional start, as atomkms_span_chunk() computes them: up 3x, 1.5x
 * (scene (c)'s 720p to 1080p), 8/7 (a window's edge: 8 pixels span 8
 * columns), 1:1 off by half a column, down 1.25x. The vector loops load
 * a group of pixels as one window where all its columns fit
 * (atomkms_yuv_lerp_windows()), else gather them.
 */
static void pick_columns(u32 pat, u32 n, u32 *idx0, u32 *idx1, u32 *wx)
{
	static const u32 step[] = { 0, 0x5555, 0xaaab, 0xe000, 0x10000,
				    0x14000 };
	u64 p = 0x8000 + test_rand_below(&rng, 0x30000);
	u32 c = 0, i;

	for (i = 0; i < n; i++) {
		if (!pat) {
			u32 same = test_rand_below(&rng, 4) == 0;

			idx0[i] = c;
			idx1[i] = c + !same;
			wx[i] = same ? 0 : pick_wy();
			c += test_rand_below(&rng, 3);
			if (c > SPAN - 3)
				c = SPAN - 3;
			continue;
		}
		idx0[i] = (p - 0x8000) >> 16;
		idx1[i] = idx0[i] + 1;
		wx[i] = (p - 0x8000) & 0xffff;
		p += step[pat];
		if (idx1[i] > SPAN - 3)
			idx0[i] = idx1[i] = SPAN - 3;
	}
}

/*
 * yuv_hlerp on random columns: the luma and chroma of two source lines
 * (chroma a pair per column, or per two columns from an odd or even
 * phase, Cb first or Cr first), against ref_lerp2() of the bytes and
 * atomkms_yuv_to_rgb_line(). The samples yuv_hlerp may read are in
 * buffers of exactly their size (@ny, @nc), so that a sanitizer build
 * sees a window read past them.
 */
static void test_hlerp(void)
{
	static const u32 enc[] = { ATOMKMS_YCBCR_BT601, ATOMKMS_YCBCR_BT709,
				   ATOMKMS_YCBCR_BT2020 };
	u8 s[6][SPAN];	/* y0, y1 per column; cb0, cb1, cr0, cr1 per pair */
	u32 yv[SPAN], cv[4 * SPAN], idx0[SPAN], idx1[SPAN], wx[SPAN];
	u32 win[2 * (SPAN / ATOMKMS_YUV_WIN + 1)], woff[SPAN];
	u32 out[SPAN + 1];
	u32 l, e, range, mode, pat, n, i, bad = 0, runs = 0;
	u32 groups[2] = { 0, 0 };	/* gathered, windows */

	for (e = 0; e < ARRAY_SIZE(enc); e++) {
		for (range = 0; range < 2; range++) {
			for (mode = 0; mode < 10; mode++) {
				for (n = 1; n <= 530; n += n < 70 ? 1 : 230) {
				for (pat = 0; pat < 6; pat++) {
					struct atomkms_csc csc;
					/*
					 * modes 0-5: pairs (Cb, Cr) or (Cr, Cb), per column
					 * or per two from either phase; 6-9: YUYV's and
					 * UYVY's macropixels, Cb at 1 or 0, Cr 2 after
					 */
					u32 quad = mode >= 6, swap = mode & 1;
					u32 ob = quad ? !swap : swap, orr = quad ? ob + 2 : !swap;
					u32 wy = pick_wy(), g, ny = 0, nc;
					u32 oc = ob > orr ? ob : orr;
					u32 *ybuf, *cbuf;
					struct atomkms_yuv_lerp lp = {
						.idx0 = idx0, .idx1 = idx1, .wx = wx,
						.cshift = mode >= 2, .cpar = quad ? mode >= 8 : mode >= 4,
						.cstep = quad ? 2 : 1,
						.win = win, .woff = woff,
					};

					atomkms_csc_init(&csc, enc[e], range, 8);
					lerp_consts(&lp, &csc);
					for (i = 0; i < 6; i++)
						fill_bytes(s[i], SPAN);
					for (i = 0; i < 4 * SPAN; i++)
						cv[i] = 0xdeadbeef;	/* what no pixel reads */
					for (i = 0; i < SPAN; i++) {
						g = i << lp.cstep;
						yv[i] = ref_vlerp(wy, s[0][i], s[1][i]);
						cv[g + ob] = ref_vlerp(wy, s[2][i], s[3][i]);
						cv[g + orr] = ref_vlerp(wy, s[4][i], s[5][i]);
						if (quad)	/* the luma bytes between */
							cv[g + (ob ? 0 : 1)] = cv[g + (ob ? 2 : 3)] = 0;
					}
					pick_columns(pat, n, idx0, idx1, wx);
					/* The samples read: up to the last pixel's columns. */
					for (i = 0; i < n; i++)
						ny = idx1[i] + 1 > ny ? idx1[i] + 1 : ny;
					nc = (((ny - 1 + lp.cpar) >> lp.cshift) << lp.cstep) + oc + 1;
					ybuf = malloc(ny * sizeof(u32));
					cbuf = malloc(nc * sizeof(u32));
					memcpy(ybuf, yv, ny * sizeof(u32));
					memcpy(cbuf, cv, nc * sizeof(u32));
					lp.y = ybuf;
					lp.cb = cbuf + ob;
					lp.cr = cbuf + orr;
					lp.ny = ny;
					lp.nc = nc - oc;
					atomkms_yuv_lerp_windows(&lp, n, win, woff);
					for (i = 0; i + ATOMKMS_YUV_WIN <= n; i += ATOMKMS_YUV_WIN)
						groups[win[2 * (i / ATOMKMS_YUV_WIN)] != ~0u]++;
					for (l = 0; l < num_levels; l++) {
						out[n] = 0x5a5a5a5a;
						levels[l]->yuv_hlerp(&lp, out, n);
						runs++;
						bad += out[n] != 0x5a5a5a5a;
						for (i = 0; i < n; i++) {
							u32 a = idx0[i], b = idx1[i], want;
							/* the chroma pair of each column */
							u32 ca = (a + lp.cpar) >> lp.cshift;
							u32 cb = (b + lp.cpar) >> lp.cshift;
							struct atomkms_px px = {
								0xffff,
								ref_lerp2(s[4][ca], s[4][cb], s[5][ca], s[5][cb], wx[i], wy),
								ref_lerp2(s[0][a], s[0][b], s[1][a], s[1][b], wx[i], wy),
								ref_lerp2(s[2][ca], s[2][cb], s[3][ca], s[3][cb], wx[i], wy),
							};

							atomkms_yuv_to_rgb_line(&csc, &px, 1);
							want = 0xff000000u | (px.r >> 8) << 16 |
							       (px.g >> 8) << 8 | px.b >> 8;
							if (out[i] == want)
								continue;
							if (!bad++)
								printf("%s: hlerp enc %u range %u mode %u pattern %u n %u: [%u] %08x, want %08x\n",
								       levels[l]->name, enc[e], range, mode, pat,
								       n, i, out[i], want);
						}
					}
					free(ybuf);
					free(cbuf);
				}
				}
			}
		}
	}
	CHECK(!bad, "%u hlerp pixels differ from the general path's arithmetic", bad);
	CHECK(groups[0] && groups[1], "windows: %u groups gathered, %u loaded as windows: want both",
	      groups[0], groups[1]);
	printf("hlerp: %u runs, groups of %u pixels: %u gathered, %u windows\n",
	       runs, ATOMKMS_YUV_WIN, groups[0], groups[1]);
}

/* Every frame's loops are watched (simd_watch.h): a level's, in sections. */

/* A source or destination geometry of the frames below. */
struct geo {
	u32 fw, fh;		/* framebuffer */
	u32 sx, sy, sw, sh;	/* source, 16.16 */
	s32 dx, dy;
	u32 dw, dh;		/* destination */
};

static const struct geo geos[] = {
	/* scaled up 1.5x, whole */
	{ 24, 12, 0, 0, 24 << 16, 12 << 16, 0, 0, 36, 18 },
	/* odd size, odd integer offset, up */
	{ 37, 23, 3 << 16, 5 << 16, 21 << 16, 11 << 16, 2, 1, 40, 21 },
	/* fractional offsets, non-integer factors */
	{ 33, 19, 0x18000, 0x2c000, 0x1a4000, 0xc8000, 1, 2, 29, 17 },
	/* scaled down */
	{ 63, 45, 1 << 16, 1 << 16, 61 << 16, 43 << 16, 0, 0, 17, 13 },
	/* down nearly 4x, odd */
	{ 61, 41, 0x10000, 0x8000, 0x3b0000, 0x270000, 3, 1, 15, 11 },
	/* off the left and top edges */
	{ 30, 20, 1 << 16, 3 << 16, 27 << 16, 15 << 16, -7, -5, 45, 25 },
	/* off the right and bottom */
	{ 31, 17, 0, 0, 31 << 16, 17 << 16, 20, 9, 47, 30 },
	/* unscaled, odd offset */
	{ 29, 15, 5 << 16, 3 << 16, 17 << 16, 9 << 16, 4, 3, 17, 9 },
	/* 1 pixel wide source, stretched */
	{ 9, 7, 3 << 16, 1 << 16, 1 << 16, 5 << 16, 2, 0, 4, 13 },
	/* wider than a span chunk's line (the output), up 4x */
	{ 40, 8, 1 << 16, 0, 36 << 16, 8 << 16, 0, 0, 144, 32 },
};

static u32 frames, bad, bad_ref, missed;

/* One frame: plane @fmt at geometry @ge over a @w x @h primary. */
static void frame_one(const struct atomkms_format *fmt, const struct geo *ge,
		      u32 g, u32 w, u32 h, u32 filter, u32 alpha)
{
	struct test_fb fb[2];
	struct ref_plane pl[2];
	struct ref_scene sc = { w, h, 2, pl, NULL };
	struct atomkms_px *gen, *img, *ref;
	u64 crc_gen, crc;
	size_t np = (size_t)w * h;
	u32 l;
	int ret;

	test_fb_alloc(&fb[0], ATOMKMS_FMT_XRGB8888, w, h, 4, &rng);
	test_fb_alloc(&fb[1], fmt->fourcc, test_fb_width(fmt->fourcc, ge->fw),
		      ge->fh, 3 * (g & 1), &rng);
	test_fb_src(&fb[0], &pl[0].src);
	test_fb_src(&fb[1], &pl[1].src);
	test_desc_full(&pl[0].desc, &fb[0], 0, 0, w, h);
	test_desc_full(&pl[1].desc, &fb[1], ge->dx, ge->dy, w, h);
	pl[1].desc.src_x = ge->sx;
	pl[1].desc.src_y = ge->sy;
	pl[1].desc.src_w = ge->sw;
	pl[1].desc.src_h = ge->sh;
	pl[1].desc.dst_w = ge->dw;
	pl[1].desc.dst_h = ge->dh;
	pl[1].desc.filter = filter;
	pl[1].desc.alpha = alpha ? 0x80ff : 0xffff;
	pl[1].desc.color_encoding = (g + w) % 3;
	pl[1].desc.color_range = (g + alpha) & 1;
	gen = calloc(np, sizeof(*gen));
	img = calloc(np, sizeof(*img));
	ref = calloc(np, sizeof(*ref));
	core_compose_general = true;
	core_compose_simd = NULL;
	ret = core_compose(&sc, gen, &crc_gen, NULL);
	CHECK(!ret, "%s geometry %u: no job (%d)", fmt->name, g, ret);
	core_compose_general = false;
	ref_compose(&sc, ref);
	if (test_px_max_diff(gen, ref, np, NULL) > 257 && !bad_ref++)
		printf("%s geometry %u filter %u: general path and reference differ\n",
		       fmt->name, g, filter);
	for (l = 0; l < num_levels; l++) {
		inner = levels[l];
		core_compose_simd = &simd_watch;
		hlerps = 0;
		memset(img, 0, np * sizeof(*img));
		core_compose(&sc, img, &crc, NULL);
		frames++;
		missed += !hlerps;
		if (crc == crc_gen && !test_px_max_diff(img, gen, np, NULL))
			continue;
		if (!bad++)
			printf("%s: %s geometry %u %ux%u filter %u alpha %u: differs from the general path\n",
			       levels[l]->name, fmt->name, g, w, h, filter,
			       alpha);
	}
	core_compose_simd = NULL;
	free(gen);
	free(img);
	free(ref);
	test_fb_free(&fb[0]);
	test_fb_free(&fb[1]);
}

static void test_frames(void)
{
	static const u32 out_w[] = { 41, 57, 150 };
	u32 f, g, filter, alpha, w;

	for (f = 0; f < atomkms_num_formats; f++) {
		const struct atomkms_format *fmt = &atomkms_formats[f];

		if (!fmt->is_yuv || fmt->depth != 8)
			continue;
		for (g = 0; g < ARRAY_SIZE(geos); g++)
			for (filter = 0; filter < 2; filter++)
				for (alpha = 0; alpha < 2; alpha++)
					frame_one(fmt, &geos[g], g,
						  out_w[(g + filter) % 3],
						  27 + g % 3, filter, alpha);
		/* Outputs 1 to 3 wide: a bilinear pair is wider than a line. */
		for (w = 1; w <= 3; w++)
			for (filter = 0; filter < 2; filter++) {
				frame_one(fmt, &geos[0], 0, w, 5, filter, 0);
				frame_one(fmt, &geos[3], 3, w, 4, filter, 1);
			}
	}
	CHECK(!bad, "%u frames differ from the general path", bad);
	CHECK(!bad_ref, "%u frames differ from the reference by more than 1/255",
	      bad_ref);
	CHECK(!missed, "%u frames did not take the YCbCr fast path", missed);
	CHECK(!outside, "%u line loop calls outside a vector section", outside);
	CHECK(vlerps > 0, "vlerp never ran");
	printf("frames: %u (formats x geometries x filters x alpha x levels)\n",
	       frames);
}

/*
 * Planes that take turns with the columns the YCbCr path keeps from line
 * to line: NV12 and YUYV planes, each its own scale, and between them a
 * scaled ARGB8888 plane (the general path, which overwrites them), on
 * the same lines.
 */
static void test_stack(void)
{
	static const u32 fmts[3] = { ATOMKMS_FMT_NV12, ATOMKMS_FMT_ARGB8888,
				     ATOMKMS_FMT_YUYV };
	const u32 w = 53, h = 21;
	struct test_fb fb[4];
	struct ref_plane pl[4];
	struct ref_scene sc = { w, h, 4, pl, NULL };
	struct atomkms_px gen[53 * 21], img[53 * 21];
	u64 crc_gen, crc;
	u32 k, l, order, bad_stack = 0;

	for (order = 0; order < 2; order++) {
		test_fb_alloc(&fb[0], ATOMKMS_FMT_XRGB8888, w, h, 0, &rng);
		test_fb_src(&fb[0], &pl[0].src);
		test_desc_full(&pl[0].desc, &fb[0], 0, 0, w, h);
		for (k = 1; k < 4; k++) {
			u32 f = fmts[order ? 3 - k : k - 1];

			test_fb_alloc(&fb[k], f, 20 + 2 * k, 9 + k, k, &rng);
			test_fb_src(&fb[k], &pl[k].src);
			test_desc_full(&pl[k].desc, &fb[k], (s32)k - 2, 1, w, h);
			pl[k].desc.src_x = k << 15;
			pl[k].desc.src_w = (16 + k) << 16;
			pl[k].desc.dst_w = 30 + 7 * k;
			pl[k].desc.dst_h = 14 + k;
			pl[k].desc.alpha = 0xc000;
		}
		core_compose_general = true;
		core_compose_simd = NULL;
		core_compose(&sc, gen, &crc_gen, NULL);
		core_compose_general = false;
		for (l = 0; l < num_levels; l++) {
			inner = levels[l];
			core_compose_simd = &simd_watch;
			hlerps = 0;
			core_compose(&sc, img, &crc, NULL);
			bad_stack += !hlerps || crc != crc_gen ||
				     test_px_max_diff(img, gen, (size_t)w * h, NULL);
		}
		core_compose_simd = NULL;
		for (k = 0; k < 4; k++)
			test_fb_free(&fb[k]);
	}
	CHECK(!bad_stack, "%u stacks of YCbCr and scaled RGB planes differ from the general path",
	      bad_stack);
}

int main(void)
{
	u32 l;

	num_levels = test_simd_levels(levels);
	printf("levels:");
	for (l = 0; l < num_levels; l++)
		printf(" %s", levels[l]->name);
	printf("\n");
	test_vlerp();
	test_hlerp();
	test_frames();
	test_stack();
	return check_done("test_simd_yuv");
}
