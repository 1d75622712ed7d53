// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seeded random scenes through the compositor: thousands of plane stacks
 * (every format, positions off-screen too, alpha, blend modes, rotations,
 * scaling, colour pipelines, writeback), fast paths and occlusion against
 * the general path (identical bytes required) and against the reference,
 * one scene in four a stack of full-width overlays that the packed paths
 * fuse into one pass;
 * and each scene in 2 to 5 bands (atomkms_compose_band()), in a random
 * order, every other scene on threads, against one pass.
 * Then a measurement of the fast paths at 1920x1080.
 *
 * ATOMKMS_SEED=n in the environment replays another seed; ATOMKMS_SCENES=n
 * changes the number of scenes.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomkms_compose.h"
#include "check.h"
#include "ref_compose.h"

#define MAX_PLANES 6

static u64 rng;

struct scene {
	struct ref_scene sc;
	struct ref_plane pl[MAX_PLANES];
	struct test_fb fb[MAX_PLANES];
	struct atomkms_color color;
	struct atomkms_color_lut lut[2][64];
	struct atomkms_color_ctm ctm;
	u32 wb_fourcc;
	bool any_yuv;
};

static u32 pick_format(void)
{
	u32 r = test_rand_below(&rng, 10);

	if (r < 2)
		return ATOMKMS_FMT_ARGB8888;
	if (r < 3)
		return ATOMKMS_FMT_XRGB8888;
	return atomkms_formats[test_rand_below(&rng, atomkms_num_formats)]
		.fourcc;
}

static void random_plane(struct scene *s, u32 k)
{
	struct ref_plane *p = &s->pl[k];
	struct atomkms_plane_desc *d = &p->desc;
	struct atomkms_plane_job job;
	u32 fw = 1 + test_rand_below(&rng, 64);
	u32 fh = 1 + test_rand_below(&rng, 48);
	u32 pad = test_rand_below(&rng, 9);
	u32 fourcc = pick_format();
	u32 tries;

	/*
	 * Packed 4:2:2 framebuffers have even widths (the driver refuses odd
	 * ones); their sources below start and end at any pixel, or between.
	 */
	fw = test_fb_width(fourcc, fw);
	test_fb_alloc(&s->fb[k], fourcc, fw, fh, pad, &rng);
	test_fb_src(&s->fb[k], &p->src);
	for (tries = 0; tries < 100; tries++) {
		u32 sw, sh, rw, rh;

		test_desc_full(d, &s->fb[k], 0, 0, s->sc.width, s->sc.height);
		if (test_rand_below(&rng, 3)) {
			u32 x = test_rand_below(&rng, fw);
			u32 y = test_rand_below(&rng, fh);

			d->src_x = x << 16;
			d->src_y = y << 16;
			d->src_w = (1 + test_rand_below(&rng, fw - x)) << 16;
			d->src_h = (1 + test_rand_below(&rng, fh - y)) << 16;
		} else {
			d->src_x = test_rand_below(&rng, fw << 16);
			d->src_y = test_rand_below(&rng, fh << 16);
			d->src_w = 1 + test_rand_below(&rng,
						       (fw << 16) - d->src_x);
			d->src_h = 1 + test_rand_below(&rng,
						       (fh << 16) - d->src_y);
		}
		d->rotation = test_rand_below(&rng, 2) ? ATOMKMS_ROTATE_0 :
			      (1u << test_rand_below(&rng, 4)) |
			      test_rand_below(&rng, 4) << 4;
		sw = (d->rotation & (ATOMKMS_ROTATE_90 | ATOMKMS_ROTATE_270)) ?
		     d->src_h : d->src_w;
		sh = sw == d->src_w ? d->src_h : d->src_w;
		rw = (sw + 0xffff) >> 16;
		rh = (sh + 0xffff) >> 16;
		if (test_rand_below(&rng, 2)) {
			d->dst_w = rw;
			d->dst_h = rh;
		} else {
			d->dst_w = 1 + test_rand_below(&rng, rw * 4);
			d->dst_h = 1 + test_rand_below(&rng, rh * 4);
		}
		d->dst_x = (s32)test_rand_below(&rng, s->sc.width + 2 * d->dst_w)
			   - (s32)d->dst_w;
		d->dst_y = (s32)test_rand_below(&rng,
						s->sc.height + 2 * d->dst_h) -
			   (s32)d->dst_h;
		switch (test_rand_below(&rng, 5)) {
		case 0:
			d->alpha = 0;
			break;
		case 1:
		case 2:
			d->alpha = 0xffff;
			break;
		default:
			d->alpha = test_rand(&rng);
		}
		d->blend_mode = test_rand_below(&rng, 3);
		d->color_encoding = test_rand_below(&rng, 3);
		d->color_range = test_rand_below(&rng, 2);
		d->filter = test_rand_below(&rng, 2);
		if (!atomkms_plane_job_init(&job, d, NULL))
			break;
	}
	if (job.visible && job.fmt->is_yuv)
		s->any_yuv = true;
}

static void random_scene(struct scene *s)
{
	u32 k, i;

	memset(s, 0, sizeof(*s));
	s->sc.width = 1 + test_rand_below(&rng, 72);
	s->sc.height = 1 + test_rand_below(&rng, 40);
	s->sc.num_planes = 1 + test_rand_below(&rng, MAX_PLANES);
	s->sc.planes = s->pl;
	for (k = 0; k < s->sc.num_planes; k++)
		random_plane(s, k);
	if (!test_rand_below(&rng, 5)) {
		u32 n0 = 1 + test_rand_below(&rng, 64);
		u32 n1 = 1 + test_rand_below(&rng, 64);

		for (k = 0; k < 2; k++)
			for (i = 0; i < 64; i++) {
				s->lut[k][i].red = test_rand(&rng);
				s->lut[k][i].green = i * 1000;
				s->lut[k][i].blue = 65535 - i * 1000;
			}
		for (i = 0; i < 9; i++)
			s->ctm.matrix[i] = (test_rand(&rng) & 0x1ffffffffULL) |
					   (test_rand_below(&rng, 4) ? 0 :
					    1ULL << 63);
		s->color = (struct atomkms_color){
			test_rand_below(&rng, 2) ? s->lut[0] : NULL, n0,
			test_rand_below(&rng, 2) ? &s->ctm : NULL,
			test_rand_below(&rng, 2) ? s->lut[1] : NULL, n1 };
		s->sc.color = &s->color;
	}
	if (!test_rand_below(&rng, 4))
		s->wb_fourcc = atomkms_writeback_formats[
			test_rand_below(&rng, atomkms_num_writeback_formats)];
}

/*
 * Paint @fb's pixels (a packed 32-bit format) as runs of opaque, clear,
 * one translucent value and random ones, premultiplied or not, as
 * overlays really hold, so whole vectors take the shortcuts of OVER and
 * mixed ones the arithmetic; every alpha value comes up.
 */
static void paint_runs(struct test_fb *fb)
{
	bool premul = test_rand_below(&rng, 4);
	u32 x, y, run = 0, kind = 0, fixed = 0;

	for (y = 0; y < fb->height; y++) {
		u32 *row = (u32 *)(fb->mem[0] + (size_t)y * fb->pitch[0]);

		for (x = 0; x < fb->width; x++, run--) {
			u32 p, a, c, q = 0;

			if (!run) {
				kind = test_rand_below(&rng, 4);
				run = 1 + test_rand_below(&rng, 24);
				fixed = (u32)test_rand(&rng);
			}
			p = kind == 2 ? fixed : (u32)test_rand(&rng);
			a = kind == 0 ? 255 : kind == 1 ? 0 : p >> 24;
			for (c = 0; c < 24; c += 8)
				q |= (premul ? ((p >> c) & 0xff) * a / 255 :
				      (p >> c) & 0xff) << c;
			row[x] = a << 24 | q;
		}
	}
}

/*
 * A stack that the packed paths fuse (over_n, include/atomkms_simd.h): an
 * opaque primary across the frame (now and then translucent: the
 * overlays then fuse onto the line so far), then full-width ARGB8888
 * overlays at plane alpha 0xffff over some of the lines, their sources
 * starting at any pixel of wider framebuffers; now and then one with
 * other alpha or blend mode, or a random plane, which ends a run. Widths
 * 1..72, and in one scene in eight 200..455.
 */
static void stack_scene(struct scene *s)
{
	u32 k, w, h;

	memset(s, 0, sizeof(*s));
	w = test_rand_below(&rng, 8) ? 1 + test_rand_below(&rng, 72) :
	    200 + test_rand_below(&rng, 256);
	h = 1 + test_rand_below(&rng, 40);
	s->sc.width = w;
	s->sc.height = h;
	s->sc.num_planes = 2 + test_rand_below(&rng, MAX_PLANES - 1);
	s->sc.planes = s->pl;
	for (k = 0; k < s->sc.num_planes; k++) {
		struct atomkms_plane_desc *d = &s->pl[k].desc;
		u32 ox = test_rand_below(&rng, 9), r = test_rand_below(&rng, 10);
		u32 fourcc = k || test_rand_below(&rng, 2) ?
			     ATOMKMS_FMT_ARGB8888 : ATOMKMS_FMT_XRGB8888;

		if (k && r == 0) {
			random_plane(s, k);
			continue;
		}
		test_fb_alloc(&s->fb[k], fourcc, w + ox, h,
			      4 * test_rand_below(&rng, 3), &rng);
		if (k)
			paint_runs(&s->fb[k]);
		test_fb_src(&s->fb[k], &s->pl[k].src);
		test_desc_full(d, &s->fb[k], 0, 0, w, h);
		d->src_x = ox << 16;
		d->src_w = w << 16;
		d->dst_w = w;
		if (!k) {
			d->blend_mode = r < 8 ? ATOMKMS_BLEND_PIXEL_NONE :
					ATOMKMS_BLEND_PREMULTI;
			continue;
		}
		d->blend_mode = r == 1 ? ATOMKMS_BLEND_COVERAGE :
				ATOMKMS_BLEND_PREMULTI;
		d->alpha = r == 2 ? test_rand(&rng) & 0xffff : 0xffff;
		d->src_y = test_rand_below(&rng, h) << 16;
		d->src_h = (h << 16) - d->src_y;
		d->dst_h = d->src_h >> 16;
		d->dst_y = (s32)test_rand_below(&rng, h) -
			   (s32)test_rand_below(&rng, d->dst_h);
	}
}

static void free_scene(struct scene *s)
{
	u32 k;

	for (k = 0; k < s->sc.num_planes; k++)
		test_fb_free(&s->fb[k]);
}

struct run {
	struct atomkms_px *img;
	struct test_fb wb;
	u64 crc;
	int err;
};

static void run_core_bands(struct scene *s, struct run *r, bool fast,
			   const struct atomkms_simd_ops *simd, u32 bands,
			   bool threads);

static void run_core(struct scene *s, struct run *r, bool fast,
		     const struct atomkms_simd_ops *simd)
{
	run_core_bands(s, r, fast, simd, 1, false);
}

static void run_core_bands(struct scene *s, struct run *r, bool fast,
			   const struct atomkms_simd_ops *simd, u32 bands,
			   bool threads)
{
	struct atomkms_writeback wb = { .fourcc = s->wb_fourcc };
	u32 p;

	r->img = calloc((size_t)s->sc.width * s->sc.height, sizeof(*r->img));
	memset(&r->wb, 0, sizeof(r->wb));
	if (s->wb_fourcc) {
		test_fb_alloc(&r->wb, s->wb_fourcc, s->sc.width, s->sc.height,
			      0, NULL);
		for (p = 0; p < 3; p++) {
			wb.map[p] = r->wb.mem[p];
			wb.pitch[p] = r->wb.pitch[p];
		}
	}
	core_compose_general = !fast;
	core_compose_simd = simd;
	core_compose_bands = bands;
	core_compose_threads = threads;
	r->err = core_compose(&s->sc, r->img, &r->crc,
			      s->wb_fourcc ? &wb : NULL);
	core_compose_general = false;
	core_compose_simd = NULL;
	core_compose_bands = 1;
	core_compose_threads = false;
}

static bool same_run(const struct scene *s, const struct run *a,
		     const struct run *b)
{
	size_t i, n = (size_t)s->sc.width * s->sc.height;
	u32 p;

	if (a->err || b->err || a->crc != b->crc)
		return false;
	for (i = 0; i < n; i++)
		if (a->img[i].r != b->img[i].r || a->img[i].g != b->img[i].g ||
		    a->img[i].b != b->img[i].b)
			return false;
	for (p = 0; p < 3; p++)
		if (a->wb.size[p] &&
		    memcmp(a->wb.mem[p], b->wb.mem[p], a->wb.size[p]))
			return false;
	return true;
}

static void test_random(u64 seed, u32 count)
{
	const struct atomkms_simd_ops *levels[3];
	u32 num_levels = test_simd_levels(levels), l;
	u32 i, bad_fast = 0, bad_ref = 0, bad_bands = 0, compared = 0;
	u32 bad_simd[3] = { 0 };

	rng = seed;
	core_compose_order = seed;
	for (i = 0; i < count; i++) {
		struct scene *s = malloc(sizeof(*s));
		struct run fast, gen, banded;
		struct atomkms_px *ref;
		size_t n;

		/* Buffers end at a guard page, or start after one. */
		test_fb_guard = i & 1 ? TEST_GUARD_START : TEST_GUARD_END;
		snprintf(test_what, sizeof(test_what),
			 "seed %llu scene %u (ATOMKMS_SEED, ATOMKMS_SCENES)",
			 (unsigned long long)seed, i);
		if (i % 4 == 3)
			stack_scene(s);
		else
			random_scene(s);
		n = (size_t)s->sc.width * s->sc.height;
		run_core(s, &fast, true, NULL);
		run_core(s, &gen, false, NULL);
		if (!same_run(s, &fast, &gen)) {
			if (!bad_fast++)
				printf("scene %u: fast path differs from general path\n",
				       i);
		}
		/* The fast path on each vector level's line loops. */
		for (l = 1; l < num_levels; l++) {
			struct run v;

			run_core(s, &v, true, levels[l]);
			if (!same_run(s, &v, &gen) && !bad_simd[l]++)
				printf("scene %u: %s fast path differs from general path\n",
				       i, levels[l]->name);
			free(v.img);
			test_fb_free(&v.wb);
		}
		/* Bands, the fast ones on each line-loop level in turn. */
		run_core_bands(s, &banded, i & 2,
			       i & 2 ? levels[(i >> 2) % num_levels] : NULL,
			       2 + i % 4, i & 1);
		if (!same_run(s, i & 2 ? &fast : &gen, &banded)) {
			if (!bad_bands++)
				printf("scene %u: %u bands differ from one\n",
				       i, 2 + i % 4);
		}
		free(banded.img);
		test_fb_free(&banded.wb);
		/* YCbCr is converted in double by the reference. */
		if (!s->any_yuv || !s->sc.color) {
			u32 tol = s->any_yuv ? 257 : 0, d;

			ref = calloc(n, sizeof(*ref));
			ref_compose(&s->sc, ref);
			d = test_px_max_diff(gen.img, ref, n, NULL);
			compared++;
			if (d > tol || (!tol && gen.crc != ref_crc(ref,
					s->sc.width, s->sc.height))) {
				if (!bad_ref++)
					printf("scene %u: differs from the reference by %u\n",
					       i, d);
			}
			free(ref);
		}
		free(fast.img);
		free(gen.img);
		test_fb_free(&fast.wb);
		test_fb_free(&gen.wb);
		free_scene(s);
		free(s);
	}
	test_fb_guard = TEST_GUARD_END;
	CHECK(!bad_fast, "seed %llu: %u of %u scenes differ fast vs general",
	      (unsigned long long)seed, bad_fast, count);
	CHECK(!bad_bands, "seed %llu: %u of %u scenes differ in bands",
	      (unsigned long long)seed, bad_bands, count);
	CHECK(!bad_ref, "seed %llu: %u of %u scenes differ from the reference",
	      (unsigned long long)seed, bad_ref, compared);
	for (l = 1; l < num_levels; l++)
		CHECK(!bad_simd[l], "seed %llu: %u of %u scenes differ %s fast vs general",
		      (unsigned long long)seed, bad_simd[l], count,
		      levels[l]->name);
	printf("random: seed %llu, %u scenes, %u also against the reference; fast path on line loops:",
	       (unsigned long long)seed, count, compared);
	for (l = 0; l < num_levels; l++)
		printf(" %s", levels[l]->name);
	printf("\n");
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ms per 1920x1080 frame with CRC, fast paths on and off; same CRCs. */
static void bench(const char *name, struct ref_plane *pl, u32 n)
{
	struct atomkms_plane_job jobs[4];
	struct atomkms_frame_plane fp[4];
	struct atomkms_frame f = { .width = 1920, .height = 1080,
				    .num_planes = n, .planes = fp };
	void *scratch = malloc(atomkms_compose_scratch_size(1920));
	double ms[2];
	u64 crc[2];
	u32 k, it, frames = 3;
	int mode;

	atomkms_compose_scratch_init(scratch, 1920);
	for (k = 0; k < n; k++) {
		CHECK(!atomkms_plane_job_init(&jobs[k], &pl[k].desc, NULL),
		      "bench job");
		fp[k].job = &jobs[k];
		fp[k].src = pl[k].src;
	}
	for (mode = 0; mode < 2; mode++) {
		double t0;

		f.flags = mode ? ATOMKMS_FRAME_GENERAL : 0;
		f.crc = &crc[mode];
		atomkms_compose_frame(&f, scratch);	/* warm up */
		t0 = now_ms();
		for (it = 0; it < frames; it++)
			atomkms_compose_frame(&f, scratch);
		ms[mode] = (now_ms() - t0) / frames;
	}
	CHECK(crc[0] == crc[1], "%s: same CRC fast and general", name);
	printf("bench %-34s fast %6.2f ms/frame, general %6.2f ms/frame (x%.1f)\n",
	       name, ms[0], ms[1], ms[1] / ms[0]);
	free(scratch);
}

static void test_bench(void)
{
	struct test_fb prim, ov, cur, nv;
	struct ref_plane pl[4];

	test_fb_alloc(&prim, ATOMKMS_FMT_XRGB8888, 1920, 1080, 0, &rng);
	test_fb_alloc(&ov, ATOMKMS_FMT_ARGB8888, 1280, 720, 0, &rng);
	test_fb_alloc(&cur, ATOMKMS_FMT_ARGB8888, 64, 64, 0, &rng);
	test_fb_alloc(&nv, ATOMKMS_FMT_NV12, 1280, 720, 0, &rng);
	test_fb_src(&prim, &pl[0].src);
	test_desc_full(&pl[0].desc, &prim, 0, 0, 1920, 1080);
	bench("XRGB8888 primary", pl, 1);

	test_fb_src(&ov, &pl[1].src);
	test_desc_full(&pl[1].desc, &ov, 300, 200, 1920, 1080);
	test_fb_src(&cur, &pl[2].src);
	test_desc_full(&pl[2].desc, &cur, 1000, 500, 1920, 1080);
	bench("primary + ARGB overlay + cursor", pl, 3);
	pl[1].desc.alpha = 0x8000;
	bench("... overlay with plane alpha", pl, 3);

	pl[1] = pl[0];	/* an opaque full-screen plane hides the primary */
	bench("primary under an opaque plane", pl, 2);

	test_fb_src(&nv, &pl[1].src);
	test_desc_full(&pl[1].desc, &nv, 0, 0, 1920, 1080);
	pl[1].desc.dst_w = 1920;
	pl[1].desc.dst_h = 1080;
	bench("primary + NV12 720p scaled (general)", pl, 2);
	pl[0].desc.rotation = ATOMKMS_ROTATE_180;
	bench("XRGB8888 primary rotated 180", pl, 1);

	test_fb_free(&prim);
	test_fb_free(&ov);
	test_fb_free(&cur);
	test_fb_free(&nv);
}

int main(void)
{
	const char *e = getenv("ATOMKMS_SEED");
	const char *c = getenv("ATOMKMS_SCENES");
	u64 seed = e ? strtoull(e, NULL, 0) : 20241212;

	test_guard_catch();
	test_random(seed, c ? strtoul(c, NULL, 0) : 4000);
	test_bench();
	return check_done("test_compose_random");
}
