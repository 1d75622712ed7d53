// SPDX-License-Identifier: GPL-2.0-only
/*
 * A frame in bands (atomkms_compose_band()) is the frame in one pass: the
 * CRC's chunks (include/atomkms_crc.h) hashed in any split and order give
 * the one-pass value; atomkms_band_split() cuts whole chunks that cover
 * the frame once; composed bands, 1 to 8 of them, in random orders, on
 * threads or not, give the same pixels, writeback and CRC as one pass, at
 * 8 and at 10 bits per channel, for odd and tall heights; a band that is
 * not made of whole chunks is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_compose.h"
#include "check.h"
#include "ref_compose.h"

static u64 rng = 20261206;

/*
 * The checksum of @h lines of @w words, hashed in pieces: the chunk
 * boundaries each kept or not at random, the pieces summed in reverse.
 */
static u64 crc_pieces(const u32 *px, u32 w, u32 h, u32 *pieces)
{
	u32 y0 = 0, y1, y;
	u64 sum = 0;

	*pieces = 0;
	while (y0 < h) {
		struct atomkms_crc c;

		y1 = y0;
		do {
			y1 += ATOMKMS_CRC_CHUNK_LINES;
		} while (y1 < h && test_rand_below(&rng, 2));
		if (y1 > h)
			y1 = h;
		atomkms_crc_init_at(&c, y0);
		for (y = y0; y < y1; y++)
			atomkms_crc_line(&c, px + (size_t)y * w, w);
		sum += atomkms_crc_sum(&c);
		(*pieces)++;
		y0 = y1;
	}
	return atomkms_crc_value(sum);
}

static void test_crc_pieces(void)
{
	u32 i, bad = 0, bad_ref = 0, split = 0;

	for (i = 0; i < 400; i++) {
		u32 w = 1 + test_rand_below(&rng, 70);
		u32 h = 1 + test_rand_below(&rng, 100);
		u32 *px = malloc((size_t)w * h * sizeof(*px));
		struct atomkms_crc c;
		u32 y, n, pieces;
		u64 one;

		for (n = 0; n < w * h; n++)
			px[n] = (u32)test_rand(&rng);
		atomkms_crc_init(&c);
		for (y = 0; y < h; y++)
			atomkms_crc_line(&c, px + (size_t)y * w, w);
		one = atomkms_crc_final(&c);
		if (crc_pieces(px, w, h, &pieces) != one)
			bad++;
		split += pieces > 1;
		if (one != ref_crc_words(px, w, h))
			bad_ref++;
		/* One pixel changed, in any chunk: another value. */
		px[test_rand_below(&rng, w * h)] ^=
			1u << test_rand_below(&rng, 24);
		if (crc_pieces(px, w, h, &pieces) == one)
			bad++;
		free(px);
	}
	CHECK(!bad, "%u checksums in pieces differ from one pass", bad);
	CHECK(!bad_ref, "%u checksums differ from the definition", bad_ref);
	CHECK(split > 100, "only %u frames were split", split);
}

static void test_split(void)
{
	static const u32 heights[] = { 1, 2, 15, 16, 17, 31, 33, 100, 1080,
				       1081, 2160, 4095 };
	u32 i, n, k, bad = 0;

	for (i = 0; i < sizeof(heights) / sizeof(heights[0]); i++) {
		u32 h = heights[i];

		for (n = 1; n <= 9; n++) {
			u32 next = 0, most = 0, least = ~0u;

			for (k = 0; k < n; k++) {
				struct atomkms_band b;
				u32 lines;

				atomkms_band_split(&b, h, n, k);
				lines = b.y1 - b.y0;
				if (b.y0 != next || b.y1 < b.y0 ||
				    b.y0 % ATOMKMS_CRC_CHUNK_LINES ||
				    (b.y1 % ATOMKMS_CRC_CHUNK_LINES &&
				     b.y1 != h))
					bad++;
				next = b.y1;
				if (b.y1 < h) {	/* the last may be short */
					most = lines > most ? lines : most;
					least = lines < least ? lines : least;
				}
			}
			/* Covered once; whole bands within a chunk of each other. */
			if (next != h || (most && most - least >
					  ATOMKMS_CRC_CHUNK_LINES))
				bad++;
		}
	}
	CHECK(!bad, "%u band splits wrong", bad);
}

/* A scene of @np planes of random formats over a @w x @h frame. */
struct tall {
	struct ref_scene sc;
	struct ref_plane pl[4];
	struct test_fb fb[4];
};

static void tall_scene(struct tall *t, u32 w, u32 h, u32 np, bool deep)
{
	static const u32 fmt8[] = { ATOMKMS_FMT_XRGB8888, ATOMKMS_FMT_ARGB8888 };
	u32 k;

	memset(t, 0, sizeof(*t));
	t->sc.width = w;
	t->sc.height = h;
	t->sc.num_planes = np;
	t->sc.planes = t->pl;
	for (k = 0; k < np; k++) {
		u32 fourcc = deep ? atomkms_formats[test_rand_below(&rng,
					atomkms_num_formats)].fourcc :
			     fmt8[test_rand_below(&rng, 2)];
		u32 fw = test_fb_width(fourcc, 1 + test_rand_below(&rng, w));
		u32 fh = 1 + test_rand_below(&rng, h);
		struct atomkms_plane_desc *d = &t->pl[k].desc;

		test_fb_alloc(&t->fb[k], fourcc, fw, fh, 0, &rng);
		test_fb_src(&t->fb[k], &t->pl[k].src);
		test_desc_full(d, &t->fb[k],
			       (s32)test_rand_below(&rng, w) - (s32)fw / 2,
			       (s32)test_rand_below(&rng, h) - (s32)fh / 2, w, h);
		if (k && test_rand_below(&rng, 2))
			d->alpha = (u16)test_rand(&rng);
		if (test_rand_below(&rng, 3) == 0) {	/* scaled */
			d->dst_w = fw + test_rand_below(&rng, fw);
			d->dst_h = fh + test_rand_below(&rng, fh);
		}
	}
}

static void tall_free(struct tall *t)
{
	u32 k;

	for (k = 0; k < t->sc.num_planes; k++)
		test_fb_free(&t->fb[k]);
}

struct result {
	struct atomkms_px *img;
	struct test_fb wb;
	u64 crc;
	int err;
};

static void compose(struct tall *t, struct result *r, u32 wb_fourcc,
		    u32 bands, bool threads)
{
	struct atomkms_writeback wb = { .fourcc = wb_fourcc };
	u32 p;

	r->img = calloc((size_t)t->sc.width * t->sc.height, sizeof(*r->img));
	test_fb_alloc(&r->wb, wb_fourcc, t->sc.width, t->sc.height, 0, NULL);
	for (p = 0; p < 3; p++) {
		wb.map[p] = r->wb.mem[p];
		wb.pitch[p] = r->wb.pitch[p];
	}
	core_compose_bands = bands;
	core_compose_threads = threads;
	r->err = core_compose(&t->sc, r->img, &r->crc, &wb);
	core_compose_bands = 1;
	core_compose_threads = false;
}

static bool same(const struct tall *t, const struct result *a,
		 const struct result *b)
{
	size_t n = (size_t)t->sc.width * t->sc.height;
	u32 p;

	if (a->err || b->err || a->crc != b->crc ||
	    memcmp(a->img, b->img, n * sizeof(*a->img)))
		return false;
	for (p = 0; p < 3; p++)
		if (a->wb.size[p] &&
		    memcmp(a->wb.mem[p], b->wb.mem[p], a->wb.size[p]))
			return false;
	return true;
}

static void result_free(struct result *r)
{
	free(r->img);
	test_fb_free(&r->wb);
}

static void test_bands(void)
{
	u32 i, n, bad = 0, runs = 0, deep_frames = 0;

	core_compose_order = 77;
	for (i = 0; i < 60; i++) {
		bool deep = i & 1;
		u32 w = 1 + test_rand_below(&rng, 90);
		u32 h = 1 + test_rand_below(&rng, i % 5 ? 120 : 600);
		u32 wb_fourcc = atomkms_writeback_formats[
			test_rand_below(&rng, atomkms_num_writeback_formats)];
		struct result one, banded;
		struct tall t;
		u64 crc8;

		tall_scene(&t, w, h, 1 + test_rand_below(&rng, 4), deep);
		core_compose_bpc = deep ? 10 : 8;
		compose(&t, &one, wb_fourcc, 1, false);
		for (n = 2; n <= 8; n++) {
			compose(&t, &banded, wb_fourcc, n, n & 1);
			if (!same(&t, &one, &banded)) {
				if (!bad++)
					printf("scene %u (%ux%u): %u bands differ from one\n",
					       i, w, h, n);
			}
			runs++;
			result_free(&banded);
		}
		if (deep) {
			/* 10 bits with a low bit set: the deep CRC took part. */
			core_compose_bpc = 8;
			core_compose(&t.sc, NULL, &crc8, NULL);
			deep_frames += crc8 != one.crc;
		}
		core_compose_bpc = 0;
		result_free(&one);
		tall_free(&t);
	}
	CHECK(!bad, "%u of %u banded frames differ from one pass", bad, runs);
	CHECK(deep_frames >= 5, "only %u frames had a 10-bit CRC", deep_frames);
}

static void test_refused(void)
{
	struct atomkms_frame f = { .width = 8, .height = 40 };
	void *s = malloc(atomkms_compose_scratch_size(8));
	struct atomkms_band b;

	atomkms_compose_scratch_init(s, 8);
	b = (struct atomkms_band){ .y0 = 8, .y1 = 16 };
	CHECK(atomkms_compose_band(&f, s, &b) == -22, "band off a chunk");
	b = (struct atomkms_band){ .y0 = 0, .y1 = 20 };
	CHECK(atomkms_compose_band(&f, s, &b) == -22, "band ending mid-chunk");
	b = (struct atomkms_band){ .y0 = 32, .y1 = 48 };
	CHECK(atomkms_compose_band(&f, s, &b) == -22, "band past the frame");
	b = (struct atomkms_band){ .y0 = 32, .y1 = 16 };
	CHECK(atomkms_compose_band(&f, s, &b) == -22, "band upside down");
	b = (struct atomkms_band){ .y0 = 32, .y1 = 40 };
	CHECK(atomkms_compose_band(&f, s, &b) == 0, "last band, short chunk");
	b = (struct atomkms_band){ .y0 = 16, .y1 = 16 };
	CHECK(atomkms_compose_band(&f, s, &b) == 0, "empty band");
	free(s);
}

int main(void)
{
	test_guard_catch();
	test_crc_pieces();
	test_split();
	test_bands();
	test_refused();
	return check_done("test_compose_bands");
}
