// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/core/atomkms_formats.c, atomkms_crc.c and
 * atomkms_writeback.c: the format table against DRM's, every reader
 * against the reference decoder in every direction, edge values, half
 * floats, YCbCr conversion, the frame checksum and the writeback writers.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_compose.h"
#include "check.h"
#include "ref_compose.h"

/* drm_format_info of drivers/gpu/drm/drm_fourcc.c, for our formats. */
static const struct {
	u32 fourcc;
	u8 planes, cpp0, cpp1, cpp2, hsub, vsub;
	bool yuv, alpha;
} drm_info[] = {
	{ ATOMKMS_FMT_XRGB8888, 1, 4, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ARGB8888, 1, 4, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_XBGR8888, 1, 4, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ABGR8888, 1, 4, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_RGBX8888, 1, 4, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_RGBA8888, 1, 4, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_BGRX8888, 1, 4, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_BGRA8888, 1, 4, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_RGB888, 1, 3, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_BGR888, 1, 3, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_RGB565, 1, 2, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_BGR565, 1, 2, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_XRGB1555, 1, 2, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ARGB1555, 1, 2, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_XRGB2101010, 1, 4, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ARGB2101010, 1, 4, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_XBGR2101010, 1, 4, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ABGR2101010, 1, 4, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_XRGB16161616, 1, 8, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ARGB16161616, 1, 8, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_XRGB16161616F, 1, 8, 0, 0, 1, 1, false, false },
	{ ATOMKMS_FMT_ARGB16161616F, 1, 8, 0, 0, 1, 1, false, true },
	{ ATOMKMS_FMT_NV12, 2, 1, 2, 0, 2, 2, true, false },
	{ ATOMKMS_FMT_NV21, 2, 1, 2, 0, 2, 2, true, false },
	{ ATOMKMS_FMT_NV16, 2, 1, 2, 0, 2, 1, true, false },
	{ ATOMKMS_FMT_NV61, 2, 1, 2, 0, 2, 1, true, false },
	{ ATOMKMS_FMT_NV24, 2, 1, 2, 0, 1, 1, true, false },
	{ ATOMKMS_FMT_NV42, 2, 1, 2, 0, 1, 1, true, false },
	{ ATOMKMS_FMT_YUV420, 3, 1, 1, 1, 2, 2, true, false },
	{ ATOMKMS_FMT_YVU420, 3, 1, 1, 1, 2, 2, true, false },
	{ ATOMKMS_FMT_YUV422, 3, 1, 1, 1, 2, 1, true, false },
	{ ATOMKMS_FMT_YUV444, 3, 1, 1, 1, 1, 1, true, false },
	{ ATOMKMS_FMT_P010, 2, 2, 4, 0, 2, 2, true, false },
	{ ATOMKMS_FMT_YUYV, 1, 2, 0, 0, 2, 1, true, false },
	{ ATOMKMS_FMT_UYVY, 1, 2, 0, 0, 2, 1, true, false },
};

#define N_INFO (sizeof(drm_info) / sizeof(drm_info[0]))

static void test_table(void)
{
	u32 i, j;

	CHECK(atomkms_num_formats == N_INFO, "%u formats", atomkms_num_formats);
	CHECK(ATOMKMS_FMT_XRGB8888 == 0x34325258, "XR24 fourcc");
	CHECK(ATOMKMS_FMT_NV12 == 0x3231564e, "NV12 fourcc");
	for (i = 0; i < N_INFO; i++) {
		const struct atomkms_format *f =
			atomkms_format_lookup(drm_info[i].fourcc);

		CHECK(f, "format %08x present", drm_info[i].fourcc);
		if (!f)
			continue;
		CHECK(f->num_planes == drm_info[i].planes &&
		      f->cpp[0] == drm_info[i].cpp0 &&
		      f->cpp[1] == drm_info[i].cpp1 &&
		      f->cpp[2] == drm_info[i].cpp2 &&
		      f->hsub == drm_info[i].hsub &&
		      f->vsub == drm_info[i].vsub &&
		      f->is_yuv == drm_info[i].yuv &&
		      f->has_alpha == drm_info[i].alpha,
		      "%s metadata", f->name);
		CHECK((f->depth > 8) == (ref_format_depth(f->fourcc) > 8),
		      "%s depth", f->name);
		for (j = 0; j < i; j++)
			CHECK(drm_info[j].fourcc != drm_info[i].fourcc,
			      "duplicate");
	}
	CHECK(!atomkms_format_lookup(ATOMKMS_FOURCC('C', '8', ' ', ' ')),
	      "C8 unsupported");
	CHECK(atomkms_formats[0].fourcc == ATOMKMS_FMT_XRGB8888,
	      "XRGB8888 first");
}

static bool px_eq(struct atomkms_px a, struct atomkms_px b)
{
	return a.a == b.a && a.r == b.r && a.g == b.g && a.b == b.b;
}

/* Every reader, every direction, odd sizes, offsets and pitches. */
static void test_readers(void)
{
	static const s32 dirs[][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 },
				       { 0, -1 }, { 1, 1 }, { -1, 1 } };
	struct atomkms_px out[64];
	u64 rng = 1;
	u32 i, d, t;

	for (i = 0; i < atomkms_num_formats; i++) {
		const struct atomkms_format *f = &atomkms_formats[i];
		struct atomkms_plane_src src;
		struct test_fb fb;
		u32 bad = 0, n = 0;

		/* Odd sizes; packed 4:2:2 at 38: odd widths are refused. */
		test_fb_alloc(&fb, f->fourcc, test_fb_width(f->fourcc, 37),
			      23, 5, &rng);
		test_fb_src(&fb, &src);
		snprintf(test_what, sizeof(test_what), "%s reader %ux%u",
			 f->name, fb.width, fb.height);
		for (t = 0; t < 200; t++) {
			s32 dx, dy, x, y, cnt, maxc = 64;
			s32 k;

			d = test_rand_below(&rng, 6);
			dx = dirs[d][0];
			dy = dirs[d][1];
			x = test_rand_below(&rng, fb.width);
			y = test_rand_below(&rng, fb.height);
			if (dx > 0 && (s32)fb.width - x < maxc)
				maxc = fb.width - x;
			if (dx < 0 && x + 1 < maxc)
				maxc = x + 1;
			if (dy > 0 && (s32)fb.height - y < maxc)
				maxc = fb.height - y;
			if (dy < 0 && y + 1 < maxc)
				maxc = y + 1;
			cnt = 1 + test_rand_below(&rng, maxc);
			f->read_line(&src, x, y, dx, dy, cnt, out);
			for (k = 0; k < cnt; k++, n++)
				if (!px_eq(out[k],
					   ref_fetch_raw(f->fourcc, &src,
							 x + k * dx,
							 y + k * dy)))
					bad++;
		}
		CHECK(!bad, "%s: %u of %u pixels differ", f->name, bad, n);
		test_fb_free(&fb);
	}
}

/* One pixel of @bytes, read from a guarded 1x1 framebuffer. */
static struct atomkms_px read1(u32 fourcc, const void *bytes)
{
	const struct atomkms_format *f = atomkms_format_lookup(fourcc);
	static struct test_fb fb;
	static enum test_guard guard;
	struct atomkms_plane_src src;
	struct atomkms_px px;

	if (fb.fourcc != fourcc || guard != test_fb_guard) {
		guard = test_fb_guard;
		test_fb_free(&fb);
		test_fb_alloc(&fb, fourcc, 1, 1, 0, NULL);
	}
	memcpy(fb.mem[0], bytes, f->cpp[0]);
	test_fb_src(&fb, &src);
	f->read_line(&src, 0, 0, 1, 0, 1, &px);
	return px;
}

static void test_edges(void)
{
	u8 b[8];
	struct atomkms_px p;
	u32 v, h, bad = 0;

	memset(b, 0xff, sizeof(b));
	snprintf(test_what, sizeof(test_what), "one-pixel reads");
	p = read1(ATOMKMS_FMT_XRGB8888, b);
	CHECK(p.a == 0xffff && p.r == 0xffff && p.g == 0xffff &&
	      p.b == 0xffff, "white 8888");
	p = read1(ATOMKMS_FMT_RGB565, b);
	CHECK(p.r == 0xffff && p.g == 0xffff && p.b == 0xffff, "white 565");
	p = read1(ATOMKMS_FMT_ARGB2101010, b);
	CHECK(p.a == 0xffff && p.r == 0xffff, "white 2101010");
	p = read1(ATOMKMS_FMT_ARGB1555, b);
	CHECK(p.a == 0xffff && p.r == 0xffff, "white 1555");
	memset(b, 0, sizeof(b));
	p = read1(ATOMKMS_FMT_ARGB8888, b);
	CHECK(!p.a && !p.r && !p.g && !p.b, "black 8888");
	p = read1(ATOMKMS_FMT_XRGB1555, b);
	CHECK(p.a == 0xffff && !p.r, "X formats read opaque");

	/* ARGB8888 0x80402010: channel order. */
	b[0] = 0x10;
	b[1] = 0x20;
	b[2] = 0x40;
	b[3] = 0x80;
	p = read1(ATOMKMS_FMT_ARGB8888, b);
	CHECK(p.a == 0x8080 && p.r == 0x4040 && p.g == 0x2020 &&
	      p.b == 0x1010, "ARGB8888 order");
	p = read1(ATOMKMS_FMT_ABGR8888, b);
	CHECK(p.r == 0x1010 && p.b == 0x4040, "ABGR8888 order");
	p = read1(ATOMKMS_FMT_RGBA8888, b);
	CHECK(p.a == 0x1010 && p.r == 0x8080 && p.b == 0x2020, "RGBA8888");
	p = read1(ATOMKMS_FMT_BGR888, b);
	CHECK(p.r == 0x1010 && p.g == 0x2020 && p.b == 0x4040, "BGR888");
	p = read1(ATOMKMS_FMT_RGB888, b);
	CHECK(p.r == 0x4040 && p.b == 0x1010, "RGB888");

	/* 5/6-bit expansion is pixman's bit replication (then * 257). */
	for (v = 0; v < 32; v++) {
		u16 w = v << 11;

		p = read1(ATOMKMS_FMT_RGB565, &w);
		if (p.r != ((v << 3) | (v >> 2)) * 257)
			bad++;
	}
	for (v = 0; v < 64; v++) {
		u16 w = v << 5;

		p = read1(ATOMKMS_FMT_RGB565, &w);
		if (p.g != ((v << 2) | (v >> 4)) * 257)
			bad++;
	}
	/* 10 bits: top 8 bits are v >> 2, as pixman converts. */
	for (v = 0; v < 1024; v++) {
		u32 w = v << 20;

		p = read1(ATOMKMS_FMT_XRGB2101010, &w);
		if (p.r >> 8 != v >> 2 || p.r >> 6 != v)
			bad++;
	}
	CHECK(!bad, "%u expansions wrong", bad);

	/* Half floats: all 65536 against the reference in double. */
	bad = 0;
	for (h = 0; h < 65536; h++) {
		u16 w[4] = { 0, 0, (u16)h, 0 };	/* red */
		struct atomkms_plane_src s = { { (u8 *)w }, { 64 } };

		p = read1(ATOMKMS_FMT_XRGB16161616F, w);
		if (p.r != ref_fetch_raw(ATOMKMS_FMT_XRGB16161616F, &s, 0, 0).r)
			bad++;
	}
	CHECK(!bad, "%u half floats differ", bad);
	CHECK(atomkms_f16_to_unorm16(0x3c00) == 0xffff, "1.0");
	CHECK(atomkms_f16_to_unorm16(0x3800) == 0x8000, "0.5 rounds up");
	CHECK(atomkms_f16_to_unorm16(0xbc00) == 0, "-1.0");
	CHECK(atomkms_f16_to_unorm16(0x7c00) == 0xffff, "+inf");
	CHECK(atomkms_f16_to_unorm16(0x7e00) == 0, "NaN");
	CHECK(atomkms_f16_to_unorm16(0x4000) == 0xffff, "2.0 clamps");
	CHECK(atomkms_f16_to_unorm16(0x0001) == 0, "tiny subnormal");
	CHECK(atomkms_f16_to_unorm16(0x3bff) == 65503, "just below 1: %u",
	      atomkms_f16_to_unorm16(0x3bff));
}

static void test_csc(void)
{
	struct atomkms_csc c;
	struct atomkms_px p, q;
	u32 enc, range, depth, i, maxerr = 0;
	u64 rng = 7;

	CHECK(atomkms_csc_init(&c, 3, 0, 8) == -22, "bad encoding");
	CHECK(atomkms_csc_init(&c, 0, 2, 8) == -22, "bad range");
	CHECK(atomkms_csc_init(&c, 0, 0, 12) == -22, "bad depth");

	/* Limited range black and white, every matrix, 8 and 10 bits. */
	for (enc = 0; enc < 3; enc++) {
		for (depth = 8; depth <= 10; depth += 2) {
			atomkms_csc_init(&c, enc, ATOMKMS_YCBCR_LIMITED_RANGE,
					 depth);
			p = (struct atomkms_px){ 0xffff, 0x8000, 16 << 8,
						 0x8000 };
			atomkms_yuv_to_rgb_line(&c, &p, 1);
			CHECK(!p.r && !p.g && !p.b, "black %u/%u", enc, depth);
			p = (struct atomkms_px){ 0xffff, 0x8000, 235 << 8,
						 0x8000 };
			atomkms_yuv_to_rgb_line(&c, &p, 1);
			CHECK(p.r == 0xffff && p.g == 0xffff && p.b == 0xffff,
			      "white %u/%u: %u %u %u", enc, depth, p.r, p.g,
			      p.b);
			atomkms_csc_init(&c, enc, ATOMKMS_YCBCR_FULL_RANGE,
					 depth);
			p = (struct atomkms_px){ 0xffff, 0x8000,
						 ((1 << depth) - 1) <<
						 (16 - depth), 0x8000 };
			atomkms_yuv_to_rgb_line(&c, &p, 1);
			CHECK(p.r == 0xffff && p.g == 0xffff && p.b == 0xffff,
			      "full white %u/%u: %u %u %u", enc, depth, p.r,
			      p.g, p.b);
		}
	}
	/* BT.709 limited 100% red (Y 63, Cb 102, Cr 240 at 8 bits). */
	atomkms_csc_init(&c, ATOMKMS_YCBCR_BT709, 0, 8);
	p = (struct atomkms_px){ 0xffff, 240 << 8, 63 << 8, 102 << 8 };
	atomkms_yuv_to_rgb_line(&c, &p, 1);
	CHECK(p.r >> 8 >= 254 && p.g >> 8 <= 1 &&
	      p.b >> 8 <= 1, "709 red %u %u %u", p.r >> 8, p.g >> 8, p.b >> 8);

	/* Random codes against the reference in double. */
	for (enc = 0; enc < 3; enc++) {
		for (range = 0; range < 2; range++) {
			for (depth = 8; depth <= 10; depth += 2) {
				atomkms_csc_init(&c, enc, range, depth);
				for (i = 0; i < 20000; i++) {
					u32 m = depth == 8 ? 0xff00 : 0xffc0;
					u32 e;

					p.a = 0xffff;
					p.r = test_rand(&rng) & m;
					p.g = test_rand(&rng) & m;
					p.b = test_rand(&rng) & m;
					ref_yuv_to_rgb(enc, range, depth, &p,
						       &q);
					atomkms_yuv_to_rgb_line(&c, &p, 1);
					e = abs(p.r - q.r);
					if (abs(p.g - q.g) > (int)e)
						e = abs(p.g - q.g);
					if (abs(p.b - q.b) > (int)e)
						e = abs(p.b - q.b);
					if (e > maxerr)
						maxerr = e;
				}
			}
		}
	}
	printf("csc: max error against double %u/65535\n", maxerr);
	CHECK(maxerr <= 4, "csc error %u", maxerr);
}

/*
 * The frame checksum: the core's line blocks against the definition, on a
 * copy of @px in a guarded buffer of exactly @w * @h words (the CRC must
 * read no word past a line's last, whatever the width).
 */
static u64 core_crc(const u32 *px, u32 w, u32 h)
{
	size_t len, size = (size_t)w * h * sizeof(*px);
	struct atomkms_crc c;
	void *base;
	u32 *g = (u32 *)test_guarded_alloc(size, &base, &len);
	u32 y;

	memcpy(g, px, size);
	atomkms_crc_init(&c);
	for (y = 0; y < h; y++)
		atomkms_crc_line(&c, g + (size_t)y * w, w);
	test_guarded_free(base, len);
	return atomkms_crc_final(&c);
}

static void test_crc(void)
{
	static u32 buf[64 * 40], alt[64 * 40];
	u64 rng = 3;
	u32 i, bad = 0, same = 0, xdep = 0;

	snprintf(test_what, sizeof(test_what), "checksum of lines");
	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = 0;
	CHECK(core_crc(buf, 64, 40) != 0 && ref_crc_words(buf, 64, 40) ==
	      core_crc(buf, 64, 40), "black frame: %016llx",
	      (unsigned long long)core_crc(buf, 64, 40));
	for (i = 0; i < 300; i++) {
		u32 w = 1 + test_rand_below(&rng, 64);
		u32 h = 1 + test_rand_below(&rng, 40), k, at;
		u64 c0;

		for (k = 0; k < w * h; k++)
			buf[k] = test_rand(&rng);
		c0 = core_crc(buf, w, h);
		if (c0 != ref_crc_words(buf, w, h))
			bad++;
		/* X bytes do not count. */
		for (k = 0; k < w * h; k++)
			alt[k] = buf[k] ^ (test_rand(&rng) & 0xff000000u);
		if (core_crc(alt, w, h) != c0)
			xdep++;
		/* One pixel changed: always another value. */
		memcpy(alt, buf, sizeof(u32) * w * h);
		at = test_rand_below(&rng, w * h);
		alt[at] ^= 1u << test_rand_below(&rng, 24);
		if (core_crc(alt, w, h) == c0)
			same++;
		/* Two pixels changed, e.g. a swap. */
		k = test_rand_below(&rng, w * h);
		if (buf[k] != buf[at]) {
			memcpy(alt, buf, sizeof(u32) * w * h);
			alt[k] = buf[at];
			alt[at] = buf[k];
			if (core_crc(alt, w, h) == c0)
				same++;
		}
	}
	CHECK(!bad, "%u checksums differ from the definition", bad);
	CHECK(!xdep, "%u checksums depend on the X byte", xdep);
	CHECK(!same, "%u changed frames kept their checksum", same);
}

static void test_writeback(void)
{
	static const u32 w = 13, h = 5;
	struct atomkms_px img[13 * 5];
	u64 rng = 11;
	u32 i, k;

	for (i = 0; i < w * h; i++) {
		img[i].a = 0xffff;
		img[i].r = test_rand(&rng);
		img[i].g = test_rand(&rng);
		img[i].b = test_rand(&rng);
	}
	img[0] = (struct atomkms_px){ 0xffff, 0, 0, 0 };
	img[1] = (struct atomkms_px){ 0xffff, 0xffff, 0xffff, 0xffff };
	for (k = 0; k < atomkms_num_writeback_formats; k++) {
		u32 fourcc = atomkms_writeback_formats[k];
		struct test_fb a, b;
		struct atomkms_writeback wa = { .fourcc = fourcc };
		struct atomkms_writeback wr = { .fourcc = fourcc };
		u32 p, maxd = 0;
		size_t j;

		CHECK(atomkms_writeback_supported(fourcc), "supported");
		snprintf(test_what, sizeof(test_what), "writeback %.4s %ux%u",
			 (const char *)&fourcc, w, h);
		test_fb_alloc(&a, fourcc, w, h, 3, NULL);
		test_fb_alloc(&b, fourcc, w, h, 3, NULL);
		for (p = 0; p < 3; p++) {
			wa.map[p] = a.mem[p];
			wa.pitch[p] = a.pitch[p];
			wr.map[p] = b.mem[p];
			wr.pitch[p] = b.pitch[p];
		}
		for (i = 0; i < h; i++)
			atomkms_writeback_line(&wa, i, img + i * w, w);
		ref_writeback(img, w, h, &wr);
		for (p = 0; p < 3; p++)
			for (j = 0; j < a.size[p]; j++) {
				u32 d = abs(a.mem[p][j] - b.mem[p][j]);

				if (d > maxd)
					maxd = d;
			}
		/* Exact for RGB; NV12 in fixed point vs double: 1 code. */
		CHECK(maxd <= (fourcc == ATOMKMS_FMT_NV12 ? 1u : 0u),
		      "writeback %08x: max diff %u", fourcc, maxd);
		if (fourcc == ATOMKMS_FMT_NV12)
			CHECK(a.mem[0][0] == 16 && a.mem[0][1] == 235,
			      "NV12 black/white luma %u %u", a.mem[0][0],
			      a.mem[0][1]);
		test_fb_free(&a);
		test_fb_free(&b);
	}
	CHECK(!atomkms_writeback_supported(ATOMKMS_FMT_YUYV), "YUYV no");
}

int main(void)
{
	int guard;

	test_guard_catch();
	test_table();
	/* Buffers end at a guard page, then start after one. */
	for (guard = TEST_GUARD_END; guard <= TEST_GUARD_START; guard++) {
		test_fb_guard = guard;
		test_readers();
		test_edges();
		test_crc();
		test_writeback();
	}
	test_csc();
	return check_done("test_formats");
}
