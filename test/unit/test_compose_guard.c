// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compositor on guarded buffers: every plane of every framebuffer, the
 * writeback buffer and the scratch end exactly where the DRM core's
 * guarantee ends, next to a PROT_NONE page, or start right after one
 * (test_fb_alloc()), so that any read or write outside them faults. The
 * matrix: every format; odd and even framebuffer widths and heights (even
 * widths for packed 4:2:2, which the driver requires, with odd source
 * offsets and widths); sources at even, odd and fractional offsets, that
 * reach the last column and line, stop inside them, or are the last pixel
 * alone; every rotation and reflection; 1:1, up-, down- and mixed scaling
 * with both filters; alone and full-screen (the direct and in-place fast
 * paths, the CRC over the framebuffer itself), over a background with each
 * blend mode, with a colour pipeline; fast paths on and off, CRC and
 * writeback on. Each composition is checked against the reference.
 *
 * ATOMKMS_GUARD_QUICK=1 in the environment runs one guard placement only.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_compose.h"
#include "check.h"
#include "ref_compose.h"

static u64 rng = 0x6a4d;

/* Framebuffer sizes: width, height, and the width for packed 4:2:2. */
static const struct {
	u32 w, h, w422;
} sizes[] = {
	{ 5, 3, 4 },	/* odd x odd (4:2:0 chroma 3 x 2) */
	{ 6, 4, 6 },	/* even x even */
	{ 7, 4, 8 },	/* odd x even */
	{ 4, 5, 2 },	/* even x odd */
	{ 1, 1, 2 },	/* one pixel (one macropixel) */
	{ 37, 3, 38 },	/* CRC blocks, pairs and an odd pixel in place */
	{ 32, 2, 32 },	/* whole copy and OVER blocks */
};

/*
 * Source rectangles, 16.16: from (x, y) to (W - gx, H - gy); @last: the
 * last pixel alone, (W - 1, H - 1) 1 x 1.
 */
static const struct {
	u32 x, y, gx, gy;
	bool last;
	const char *name;
} rects[] = {
	{ 0, 0, 0, 0, false, "whole" },
	{ 0x10000, 0x10000, 0, 0, false, "odd offset to the end" },
	{ 0x20000, 0x20000, 0x10000, 0x10000, false, "even offset, inside" },
	{ 0x18000, 0x8000, 0, 0, false, "fractional to the end" },
	{ 0x4000, 0x1c000, 0xc000, 0x4000, false, "fractional, ends inside" },
	{ 0, 0, 0, 0, true, "last pixel" },
};

/* Scalings of the rotated source: 1:1, up, down, up x and down y. */
#define N_SCALES 4

static u32 scaled(u64 r16, u32 how)
{
	u64 px = (r16 + 0xffff) >> 16;

	if (how == 1)	/* 2.5x up */
		return (u32)((r16 * 5 / 2 + 0xffff) >> 16);
	if (how == 2)	/* 2.5x down, at most: rounded up */
		return (u32)((r16 * 2 / 5 + 0xffff) >> 16);
	return (u32)px;
}

/* How the plane under test is drawn. */
static const struct {
	u8 blend;
	u16 alpha;
	bool alone;	/* alone, full screen, else over a background */
	bool color;	/* with a colour pipeline: no mode32 */
	bool clip;	/* half off the screen (left/top or right/bottom) */
	const char *name;
} layouts[] = {
	{ ATOMKMS_BLEND_PIXEL_NONE, 0xffff, true, false, false, "alone" },
	{ ATOMKMS_BLEND_PREMULTI, 0xffff, false, false, false, "premulti" },
	{ ATOMKMS_BLEND_PREMULTI, 0x6000, false, false, false,
	  "premulti alpha" },
	{ ATOMKMS_BLEND_COVERAGE, 0x9000, false, false, false, "coverage" },
	{ ATOMKMS_BLEND_PIXEL_NONE, 0xffff, false, true, false,
	  "none, colour" },
	{ ATOMKMS_BLEND_PREMULTI, 0xffff, false, true, false,
	  "premulti, colour" },
	{ ATOMKMS_BLEND_PREMULTI, 0x6000, false, true, false,
	  "premulti alpha, colour" },
	{ ATOMKMS_BLEND_PREMULTI, 0xffff, false, false, true, "clipped" },
};

/* R and B swapped: an exact CTM, which makes the frame leave mode32. */
static struct atomkms_color_ctm swap_rb = { {
	0, 0, 1ULL << 32, 0, 1ULL << 32, 0, 1ULL << 32, 0, 0 } };
static struct atomkms_color swap_color = { NULL, 0, &swap_rb, NULL, 0 };

struct stats {
	u64 cycle;	/* picks what varies from scene to scene */
	u64 clips;	/* picks the side of clipped scenes */
	u64 scenes;
	u64 compositions;
	u64 against_ref;
	u64 bad;
};

static void wb_map(const struct test_fb *fb, struct atomkms_writeback *wb)
{
	u32 p;

	memset(wb, 0, sizeof(*wb));
	wb->fourcc = fb->fourcc;
	for (p = 0; p < 3; p++) {
		wb->map[p] = fb->mem[p];
		wb->pitch[p] = fb->pitch[p];
	}
}

static bool same_fb(const struct test_fb *a, const struct test_fb *b)
{
	u32 p;

	for (p = 0; p < 3; p++)
		if (a->size[p] && memcmp(a->mem[p], b->mem[p], a->size[p]))
			return false;
	return true;
}

/*
 * Compose @sc with fast paths on and off, and on without a line sink (as
 * the driver does), CRC and writeback (@wb_fourcc) on, and check:
 * identical outputs, CRCs and writeback bytes; the image within @tol of
 * the reference (CRC equal to the reference's when exact); the writeback
 * equal to the writer run on the composed image.
 */
static void run_scene(const struct ref_scene *sc, u32 wb_fourcc, u32 tol,
		      struct stats *st)
{
	size_t n = (size_t)sc->width * sc->height, at;
	struct atomkms_px *img[2], *ref;
	struct test_fb wbfb[3], wbexp;
	struct atomkms_writeback wb;
	u64 crc[3] = { 1, 2, 3 };
	int err[3], fast;
	u32 d, y;
	bool ok;

	for (fast = 0; fast < 2; fast++) {
		img[fast] = calloc(n, sizeof(**img));
		test_fb_alloc(&wbfb[fast], wb_fourcc, sc->width, sc->height,
			      3, NULL);
		wb_map(&wbfb[fast], &wb);
		core_compose_general = !fast;
		err[fast] = core_compose(sc, img[fast], &crc[fast], &wb);
		st->compositions++;
	}
	core_compose_general = false;
	/* As the driver runs it: no line sink, the sinks read in place. */
	test_fb_alloc(&wbfb[2], wb_fourcc, sc->width, sc->height, 3, NULL);
	wb_map(&wbfb[2], &wb);
	err[2] = core_compose(sc, NULL, &crc[2], &wb);
	st->compositions++;
	test_fb_alloc(&wbexp, wb_fourcc, sc->width, sc->height, 3, NULL);
	wb_map(&wbexp, &wb);
	for (y = 0; y < sc->height; y++)
		atomkms_writeback_line(&wb, y, img[1] + (size_t)y * sc->width,
				       sc->width);
	ref = calloc(n, sizeof(*ref));
	ref_compose(sc, ref);
	st->against_ref++;
	d = test_px_max_diff(img[1], ref, n, &at);
	ok = !err[0] && !err[1] && !err[2] &&
	     !test_px_max_diff(img[0], img[1], n, &at) && crc[0] == crc[1] &&
	     crc[2] == crc[1] && d <= tol &&
	     (d || crc[1] == ref_crc(ref, sc->width, sc->height)) &&
	     same_fb(&wbfb[0], &wbfb[1]) && same_fb(&wbfb[2], &wbfb[1]) &&
	     same_fb(&wbfb[1], &wbexp);
	/* The first wrong scene in full; test_format_size() counts them. */
	if (!ok && !st->bad++)
		printf("first wrong scene: %s: err %d/%d/%d, crc %016llx/%016llx/%016llx, ref diff %u at %zu, writeback %d/%d/%d\n",
		       test_what, err[0], err[1], err[2],
		       (unsigned long long)crc[0], (unsigned long long)crc[1],
		       (unsigned long long)crc[2], d, at,
		       same_fb(&wbfb[0], &wbfb[1]),
		       same_fb(&wbfb[2], &wbfb[1]), same_fb(&wbfb[1], &wbexp));
	for (fast = 0; fast < 2; fast++)
		free(img[fast]);
	for (fast = 0; fast < 3; fast++)
		test_fb_free(&wbfb[fast]);
	test_fb_free(&wbexp);
	free(ref);
	st->scenes++;
}

/*
 * Draw the plane @d of format @f in layout @li (over @bg unless alone) and
 * run the scene.
 */
static void draw(const struct atomkms_format *f, const struct test_fb *fb,
		 const struct test_fb *bg, const struct atomkms_plane_desc *d,
		 u32 li, const char *rect, struct stats *st)
{
	u32 tol = f->is_yuv ? (f->depth <= 8 ? 257 : 2) : 0;
	u32 wbf = atomkms_writeback_formats[st->cycle %
					    atomkms_num_writeback_formats];
	struct ref_plane pl[2];
	struct ref_scene sc = { 0 };
	struct atomkms_plane_desc *p = &pl[1].desc;

	*p = *d;
	test_fb_src(fb, &pl[1].src);
	p->blend_mode = layouts[li].blend;
	p->alpha = layouts[li].alpha;
	p->color_encoding = st->cycle % 3;
	p->color_range = st->cycle / 3 % 2;
	sc.width = p->dst_w;
	sc.height = p->dst_h;
	if (layouts[li].alone) {
		sc.num_planes = 1;
		sc.planes = &pl[1];
	} else {
		sc.num_planes = 2;
		sc.planes = pl;
		if (layouts[li].color)
			sc.color = &swap_color;
		if (layouts[li].clip) {
			p->dst_x = p->dst_w / 2;
			p->dst_y = p->dst_h / 2;
			if (st->clips++ % 2) {
				p->dst_x = -p->dst_x;
				p->dst_y = -p->dst_y;
			}
		} else {
			p->dst_x = 2;
			p->dst_y = 1;
			sc.width += 3;
			sc.height += 2;
		}
		test_fb_src(bg, &pl[0].src);
		test_desc_full(&pl[0].desc, bg, 0, 0, sc.width, sc.height);
		pl[0].desc.src_w = sc.width << 16;
		pl[0].desc.src_h = sc.height << 16;
		pl[0].desc.dst_w = sc.width;
		pl[0].desc.dst_h = sc.height;
	}
	p->crtc_width = sc.width;
	p->crtc_height = sc.height;
	snprintf(test_what, sizeof(test_what),
		 "%s %ux%u (pitch %u) src %s %08x,%08x %08x x %08x rotation %02x dst %ux%u at %d,%d filter %u, %s, wb %.4s, guard %s",
		 f->name, fb->width, fb->height, fb->pitch[0], rect, p->src_x,
		 p->src_y, p->src_w, p->src_h, p->rotation, p->dst_w, p->dst_h,
		 p->dst_x, p->dst_y, p->filter, layouts[li].name,
		 (const char *)&wbf,
		 test_fb_guard == TEST_GUARD_START ? "start" : "end");
	run_scene(&sc, wbf, tol, st);
	st->cycle++;
}

/*
 * The plane on @fb for source rectangle @ri, rotation @rot (ROTATE_0 <<
 * (@rot & 3), reflections @rot >> 2), scaling @how and filter @filt, alone
 * on a CRTC of its size. False if the rectangle does not fit in @fb.
 */
static bool make_desc(struct atomkms_plane_desc *d, const struct test_fb *fb,
		      u32 ri, u32 rot, u32 how, u32 filt)
{
	u64 rw, rh;

	test_desc_full(d, fb, 0, 0, 1, 1);
	if (rects[ri].last) {
		d->src_x = (fb->width - 1) << 16;
		d->src_y = (fb->height - 1) << 16;
		d->src_w = 1 << 16;
		d->src_h = 1 << 16;
	} else {
		s64 w = ((s64)fb->width << 16) - rects[ri].x - rects[ri].gx;
		s64 h = ((s64)fb->height << 16) - rects[ri].y - rects[ri].gy;

		if (w <= 0 || h <= 0)
			return false;
		d->src_x = rects[ri].x;
		d->src_y = rects[ri].y;
		d->src_w = w;
		d->src_h = h;
	}
	d->rotation = (1u << (rot & 3)) | (rot >> 2) << 4;
	d->filter = filt;
	/* 90 or 270: the rotated source is src_h x src_w */
	rw = rot & 1 ? d->src_h : d->src_w;
	rh = rot & 1 ? d->src_w : d->src_h;
	d->dst_w = scaled(rw, how == 3 ? 1 : how);
	d->dst_h = scaled(rh, how == 3 ? 2 : how);
	d->crtc_width = d->dst_w;
	d->crtc_height = d->dst_h;
	return true;
}

/* One format at one framebuffer size, in the current guard placement. */
static void test_format_size(const struct atomkms_format *f, u32 si,
			     const struct test_fb *bg, struct stats *st)
{
	u32 fw = atomkms_format_block_w(f) > 1 ? sizes[si].w422 : sizes[si].w;
	struct atomkms_plane_desc d;
	struct atomkms_plane_job job;
	u64 bad = st->bad, scenes = st->scenes;
	struct test_fb fb;
	u32 k, ri, rot, how, filt, li;
	const char *why;

	test_fb_alloc(&fb, f->fourcc, fw, sizes[si].h,
		      test_rand_below(&rng, 6), &rng);
	/* Every rectangle, rotation, scaling and filter. */
	for (k = 0; k < ARRAY_SIZE(rects) * 16 * N_SCALES * 2; k++) {
		ri = k / (16 * N_SCALES * 2);
		rot = k / (N_SCALES * 2) % 16;
		how = k / 2 % N_SCALES;
		filt = k % 2;
		if (!make_desc(&d, &fb, ri, rot, how, filt))
			continue;
		why = "?";
		if (atomkms_plane_job_init(&job, &d, &why)) {
			CHECK(0, "%s %ux%u %s rotation %x scale %u: job: %s",
			      f->name, fb.width, fb.height, rects[ri].name,
			      d.rotation, how, why);
			continue;
		}
		if (!(job.flags & ATOMKMS_JOB_UNSCALED)) {
			/* The general path: the layouts in turn. */
			draw(f, &fb, bg, &d, st->cycle % ARRAY_SIZE(layouts),
			     rects[ri].name, st);
			continue;
		}
		/* Bilinear at 1:1 is nearest: once. */
		if (filt)
			continue;
		/* Fast path candidates: every layout. */
		for (li = 0; li < ARRAY_SIZE(layouts); li++)
			draw(f, &fb, bg, &d, li, rects[ri].name, st);
	}
	CHECK(st->bad == bad, "%s %ux%u, guard %s: %llu of %llu scenes wrong",
	      f->name, fb.width, fb.height,
	      test_fb_guard == TEST_GUARD_START ? "start" : "end",
	      (unsigned long long)(st->bad - bad),
	      (unsigned long long)(st->scenes - scenes));
	test_fb_free(&fb);
}

int main(void)
{
	const char *q = getenv("ATOMKMS_GUARD_QUICK");
	int guard, last = q && *q == '1' ? TEST_GUARD_END : TEST_GUARD_START;
	struct stats st = { 0 };
	struct test_fb bg;
	u32 i, si;

	test_guard_catch();
	for (guard = TEST_GUARD_END; guard <= last; guard++) {
		test_fb_guard = guard;
		test_fb_alloc(&bg, ATOMKMS_FMT_XRGB8888, 100, 100, 0, &rng);
		for (i = 0; i < atomkms_num_formats; i++)
			for (si = 0; si < ARRAY_SIZE(sizes); si++)
				test_format_size(&atomkms_formats[i], si, &bg,
						 &st);
		test_fb_free(&bg);
	}
	test_fb_guard = TEST_GUARD_END;
	printf("guard: %llu scenes, %llu guarded compositions (fast, general, fast without a line sink; CRC and writeback on), %llu against the reference, %llu guarded buffers\n",
	       (unsigned long long)st.scenes,
	       (unsigned long long)st.compositions,
	       (unsigned long long)st.against_ref,
	       (unsigned long long)test_guarded_allocs);
	return check_done("test_compose_guard");
}
