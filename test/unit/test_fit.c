// SPDX-License-Identifier: GPL-2.0-only
/*
 * The panel fitter (include/atomkms_fit.h): the destination rectangle of
 * each scaling mode (odd sizes, aspect rounding, refusals), and fitted
 * frames against the reference compositor: the mode-size image composed
 * by ref_compose(), stored as the intermediate format, then scaled into
 * the fit's rectangle by ref_compose() again. Both the fast and the
 * general path, 8 and 10 bits per channel.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_fit.h"
#include "check.h"
#include "ref_compose.h"

static void check_rect(u32 mode, u32 w, u32 h, u32 ow, u32 oh,
		       u32 ex, u32 ey, u32 ew, u32 eh)
{
	struct atomkms_fit fit;
	int ret = atomkms_fit_init(&fit, mode, w, h, ow, oh);

	CHECK(!ret && fit.x == ex && fit.y == ey && fit.w == ew &&
	      fit.h == eh && fit.out_width == ow && fit.out_height == oh &&
	      fit.width == w && fit.height == h,
	      "mode %u %ux%u in %ux%u: %d, %ux%u+%u+%u, want %ux%u+%u+%u",
	      mode, w, h, ow, oh, ret, fit.w, fit.h, fit.x, fit.y,
	      ew, eh, ex, ey);
}

static void test_rects(void)
{
	struct atomkms_fit fit;

	check_rect(ATOMKMS_FIT_FULL, 640, 480, 1024, 768, 0, 0, 1024, 768);
	check_rect(ATOMKMS_FIT_CENTER, 640, 480, 1024, 768, 192, 144, 640, 480);
	/* Same aspect: the whole raster. */
	check_rect(ATOMKMS_FIT_ASPECT, 640, 480, 1024, 768, 0, 0, 1024, 768);
	/* 4:3 on 16:9: pillarboxed. */
	check_rect(ATOMKMS_FIT_ASPECT, 640, 480, 1920, 1080, 240, 0, 1440, 1080);
	/* Wider than the raster: letterboxed, 575.488 rounds down. */
	check_rect(ATOMKMS_FIT_ASPECT, 1000, 562, 1024, 768, 0, 96, 1024, 575);
	check_rect(ATOMKMS_FIT_CENTER, 1000, 562, 1024, 768, 12, 103, 1000, 562);
	/* Odd borders: the odd pixel goes right and down. */
	check_rect(ATOMKMS_FIT_CENTER, 801, 601, 1024, 768, 111, 83, 801, 601);
	check_rect(ATOMKMS_FIT_FULL, 801, 601, 1024, 768, 0, 0, 1024, 768);
	/* 4x3 in 10x10: 7.5 rows, a tie, rounds up. */
	check_rect(ATOMKMS_FIT_ASPECT, 4, 3, 10, 10, 0, 1, 10, 8);
	/* 3x4 in 10x10: 7.5 columns. */
	check_rect(ATOMKMS_FIT_ASPECT, 3, 4, 10, 10, 1, 0, 8, 10);
	/* 1x1 in 3x2: 2x2, centred with an odd border. */
	check_rect(ATOMKMS_FIT_ASPECT, 1, 1, 3, 2, 0, 0, 2, 2);
	/* The native size itself. */
	check_rect(ATOMKMS_FIT_ASPECT, 1024, 768, 1024, 768, 0, 0, 1024, 768);
	check_rect(ATOMKMS_FIT_CENTER, 1024, 768, 1024, 768, 0, 0, 1024, 768);
	/* 800x600 on 1280x720: h 720, w 960. */
	check_rect(ATOMKMS_FIT_ASPECT, 800, 600, 1280, 720, 160, 0, 960, 720);

	CHECK(atomkms_fit_init(&fit, ATOMKMS_FIT_NONE, 640, 480, 1024, 768) ==
	      -ATOMKMS_EINVAL, "None is not a fit");
	CHECK(atomkms_fit_init(&fit, 4, 640, 480, 1024, 768) ==
	      -ATOMKMS_EINVAL, "unknown mode");
	CHECK(atomkms_fit_init(&fit, ATOMKMS_FIT_FULL, 1025, 480, 1024, 768) ==
	      -ATOMKMS_EINVAL, "wider than native");
	CHECK(atomkms_fit_init(&fit, ATOMKMS_FIT_FULL, 640, 769, 1024, 768) ==
	      -ATOMKMS_EINVAL, "taller than native");
	CHECK(atomkms_fit_init(&fit, ATOMKMS_FIT_FULL, 0, 480, 1024, 768) ==
	      -ATOMKMS_EINVAL, "empty");
	CHECK(atomkms_fit_format(8) == ATOMKMS_FMT_XRGB8888 &&
	      atomkms_fit_format(10) == ATOMKMS_FMT_XRGB2101010,
	      "intermediate formats");
}

static void capture(void *ctx, u32 y, const struct atomkms_px *line, u32 w)
{
	memcpy((struct atomkms_px *)ctx + (size_t)y * w, line, w * sizeof(*line));
}

/*
 * Fit a @w x @h scene of two planes (a random XRGB8888 primary, an
 * ARGB8888 overlay half over it) into @ow x @oh with @mode, and compare
 * with the reference's two passes.
 */
static void test_frame(u32 mode, u32 w, u32 h, u32 ow, u32 oh, u8 bpc,
		       bool general, u64 seed)
{
	struct test_fb prim, ovl, mid;
	struct ref_plane rp[2];
	struct ref_scene sc = { w, h, 2, rp, NULL };
	struct ref_plane fp;
	struct ref_scene fsc = { ow, oh, 1, &fp, NULL };
	struct atomkms_plane_job jobs[2];
	struct atomkms_frame_plane planes[2];
	struct atomkms_writeback midwb, outwb;
	struct atomkms_px *ref_mid, *ref_out, *img;
	struct atomkms_frame f = { 0 };
	struct atomkms_fit fit;
	struct test_fb outfb, reffb;
	void *scratch, *buf;
	const char *why;
	u64 crc = 0, rng = seed;
	size_t n = (size_t)ow * oh, at = 0;
	u32 d, k;
	int ret;

	CHECK(!atomkms_fit_init(&fit, mode, w, h, ow, oh), "fit");
	test_fb_alloc(&prim, ATOMKMS_FMT_XRGB8888, w, h, 0, &rng);
	test_fb_alloc(&ovl, ATOMKMS_FMT_ARGB8888, w / 2 + 1, h / 2 + 1, 4, &rng);
	test_desc_full(&rp[0].desc, &prim, 0, 0, w, h);
	test_fb_src(&prim, &rp[0].src);
	/* Hanging off the bottom right: clipped at the mode's size. */
	test_desc_full(&rp[1].desc, &ovl, (s32)(w - w / 4), (s32)(h - h / 4),
		       w, h);
	test_fb_src(&ovl, &rp[1].src);

	/* The reference: mode-size image, stored as the fitter stores it. */
	ref_mid = calloc((size_t)w * h, sizeof(*ref_mid));
	ref_out = calloc(n, sizeof(*ref_out));
	img = calloc(n, sizeof(*img));
	ref_compose(&sc, ref_mid);
	test_fb_alloc(&mid, atomkms_fit_format(bpc), w, h, 0, &rng);
	midwb = (struct atomkms_writeback){ mid.fourcc, { mid.mem[0] },
					    { mid.pitch[0] } };
	ref_writeback(ref_mid, w, h, &midwb);
	memset(&fp, 0, sizeof(fp));
	fp.desc = (struct atomkms_plane_desc){
		.fourcc = mid.fourcc, .fb_width = w, .fb_height = h,
		.src_w = w << 16, .src_h = h << 16,
		.dst_x = (s32)fit.x, .dst_y = (s32)fit.y,
		.dst_w = fit.w, .dst_h = fit.h,
		.crtc_width = ow, .crtc_height = oh,
		.rotation = ATOMKMS_ROTATE_0, .alpha = 0xffff,
		.blend_mode = ATOMKMS_BLEND_PIXEL_NONE,
		.filter = ATOMKMS_FILTER_BILINEAR,
		.min_scale = 1, .max_scale = 1u << 16,
	};
	test_fb_src(&mid, &fp.src);
	ref_compose(&fsc, ref_out);

	/* The core. */
	for (k = 0; k < 2; k++) {
		ret = atomkms_plane_job_init(&jobs[k], &rp[k].desc, &why);
		CHECK(!ret, "job %u: %s", k, why);
		planes[k].job = &jobs[k];
		planes[k].src = rp[k].src;
	}
	test_fb_alloc(&outfb, ATOMKMS_FMT_XRGB8888, ow, oh, 0, &rng);
	test_fb_alloc(&reffb, ATOMKMS_FMT_XRGB8888, ow, oh, 0, &rng);
	outwb = (struct atomkms_writeback){ outfb.fourcc, { outfb.mem[0] },
					    { outfb.pitch[0] } };
	scratch = malloc(atomkms_compose_scratch_size(ow));
	atomkms_compose_scratch_init(scratch, ow);
	buf = malloc(atomkms_fit_buffer_size(w, h));
	f = (struct atomkms_frame){
		.width = w, .height = h, .num_planes = 2, .planes = planes,
		.flags = general ? ATOMKMS_FRAME_GENERAL : 0, .bpc = bpc,
		.crc = &crc, .wb = &outwb, .line_sink = capture, .sink_ctx = img,
	};
	ret = atomkms_fit_compose(&f, &fit, buf,
				  atomkms_fit_buffer_size(w, h) - 1, scratch);
	CHECK(ret == -ATOMKMS_EINVAL, "a buffer too small is refused");
	ret = atomkms_fit_compose(&f, &fit, buf, atomkms_fit_buffer_size(w, h),
				  scratch);
	d = test_px_max_diff(img, ref_out, n, &at);
	CHECK(!ret && !d, "mode %u %ux%u in %ux%u bpc %u%s: %d, differs by %u at %zu",
	      mode, w, h, ow, oh, bpc, general ? " general" : "", ret, d, at);
	CHECK(crc == ref_crc_bpc(ref_out, ow, oh, bpc),
	      "CRC mode %u %ux%u bpc %u", mode, w, h, bpc);
	/* Writeback is the output raster. */
	outwb.map[0] = reffb.mem[0];
	ref_writeback(ref_out, ow, oh, &outwb);
	CHECK(!memcmp(outfb.mem[0], reffb.mem[0], outfb.size[0]),
	      "writeback mode %u %ux%u", mode, w, h);
	/* Center: the mode-size image, unscaled, on black. */
	if (mode == ATOMKMS_FIT_CENTER) {
		u32 x, y, bad = 0;

		for (y = 0; y < oh; y++)
			for (x = 0; x < ow; x++) {
				const struct atomkms_px *p = &img[y * ow + x];
				bool in = x >= fit.x && x < fit.x + w &&
					  y >= fit.y && y < fit.y + h;
				const struct atomkms_px *q = in ?
					&ref_mid[(y - fit.y) * w + x - fit.x] :
					NULL;

				if (bpc == 8 && in &&
				    (p->r >> 8 != q->r >> 8 || p->g >> 8 != q->g >> 8 ||
				     p->b >> 8 != q->b >> 8))
					bad++;
				if (!in && (p->r || p->g || p->b))
					bad++;
			}
		CHECK(!bad, "center %ux%u: %u pixels off", w, h, bad);
	}
	free(buf);
	free(scratch);
	free(img);
	free(ref_out);
	free(ref_mid);
	test_fb_free(&reffb);
	test_fb_free(&outfb);
	test_fb_free(&mid);
	test_fb_free(&ovl);
	test_fb_free(&prim);
}

int main(void)
{
	static const u32 sizes[][4] = {
		{ 64, 48, 128, 96 },	/* 2x, same aspect */
		{ 50, 28, 64, 48 },	/* wider than the raster, as 1000x562 on 1024x768 */
		{ 41, 31, 64, 48 },	/* odd */
		{ 32, 24, 96, 54 },	/* 4:3 on 16:9 */
		{ 64, 48, 64, 48 },	/* native: 1:1 */
	};
	u32 m, i;

	test_rects();
	for (m = ATOMKMS_FIT_FULL; m <= ATOMKMS_FIT_ASPECT; m++)
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			test_frame(m, sizes[i][0], sizes[i][1], sizes[i][2],
				   sizes[i][3], 8, false, 1 + i);
			test_frame(m, sizes[i][0], sizes[i][1], sizes[i][2],
				   sizes[i][3], 8, true, 1 + i);
			test_frame(m, sizes[i][0], sizes[i][1], sizes[i][2],
				   sizes[i][3], 10, false, 100 + i);
		}
	return check_done("test_fit");
}
