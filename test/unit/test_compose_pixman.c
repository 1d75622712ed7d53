// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compositor against pixman, an independent oracle, in the 8-bit CRC
 * domain igt works in: OVER of premultiplied ARGB8888 onto XRGB8888 (with
 * and without plane alpha, layer after layer, as cairo draws igt's
 * reference images) and the RGB format conversions pixman has.
 */
#include <pixman.h>
#include <stdlib.h>
#include <string.h>

#include "atomkms_compose.h"
#include "check.h"
#include "ref_compose.h"

#define W 67
#define H 43

static u64 rng = 0x91e;
/* Checksum of an x8r8g8b8 pixman image (the compositor's CRC). */
static u64 pixman_crc(pixman_image_t *img)
{
	u32 *d = pixman_image_get_data(img);
	u32 stride = pixman_image_get_stride(img) / 4, y;
	struct atomkms_crc c;

	atomkms_crc_init(&c);
	for (y = 0; y < H; y++)
		atomkms_crc_line(&c, d + y * stride, W);
	return atomkms_crc_final(&c);
}

static u32 count_diff(const struct atomkms_px *img, pixman_image_t *p,
		      u32 *first)
{
	u32 *d = pixman_image_get_data(p);
	u32 stride = pixman_image_get_stride(p) / 4, i, bad = 0;

	for (i = 0; i < W * H; i++) {
		u32 v = (img[i].r >> 8) << 16 | (img[i].g >> 8) << 8 |
			img[i].b >> 8;
		u32 want = d[(i / W) * stride + i % W] & 0xffffff;

		if (v != want && !bad++)
			*first = i;
	}
	return bad;
}

static pixman_image_t *wrap(const struct test_fb *fb, pixman_format_code_t f)
{
	return pixman_image_create_bits(f, fb->width, fb->height,
					(uint32_t *)fb->mem[0], fb->pitch[0]);
}

/* Random premultiplied ARGB8888 with many 0 and 255 alphas. */
static void fill_premul(struct test_fb *fb, bool valid)
{
	u32 x, y;

	for (y = 0; y < fb->height; y++) {
		for (x = 0; x < fb->width; x++) {
			u8 *p = fb->mem[0] + y * fb->pitch[0] + x * 4;
			u32 r = test_rand(&rng), a = r & 0xff, k;

			if ((r >> 8) % 4 == 0)
				a = 0;
			else if ((r >> 8) % 4 == 1)
				a = 255;
			p[3] = a;
			for (k = 0; k < 3; k++)
				p[k] = valid ? (a ? test_rand(&rng) % (a + 1) :
						0) : test_rand(&rng);
		}
	}
}

/* Core and pixman stacks of OVERs onto an XRGB8888 primary. */
static void over_stack(u32 nlayers, bool valid, const u16 *alphas,
		       const char *what)
{
	struct ref_plane pl[4];
	struct test_fb fb[4];
	struct ref_scene sc = { W, H, nlayers + 1, pl, NULL };
	struct atomkms_px *img = calloc(W * H, sizeof(*img));
	pixman_image_t *dst, *src;
	u32 k, first = 0, bad;
	u64 crc = 0;

	test_fb_alloc(&fb[0], ATOMKMS_FMT_XRGB8888, W, H, 0, &rng);
	test_fb_src(&fb[0], &pl[0].src);
	test_desc_full(&pl[0].desc, &fb[0], 0, 0, W, H);
	dst = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H, NULL, 0);
	src = wrap(&fb[0], PIXMAN_x8r8g8b8);
	pixman_image_composite32(PIXMAN_OP_SRC, src, NULL, dst, 0, 0, 0, 0,
				 0, 0, W, H);
	pixman_image_unref(src);

	for (k = 1; k <= nlayers; k++) {
		u32 w = 20 + test_rand_below(&rng, 40);
		u32 h = 10 + test_rand_below(&rng, 30);
		s32 x = (s32)test_rand_below(&rng, W + 20) - 10;
		s32 y = (s32)test_rand_below(&rng, H + 20) - 10;
		pixman_image_t *mask = NULL;

		test_fb_alloc(&fb[k], ATOMKMS_FMT_ARGB8888, w, h, 4, &rng);
		fill_premul(&fb[k], valid);
		test_fb_src(&fb[k], &pl[k].src);
		test_desc_full(&pl[k].desc, &fb[k], x, y, W, H);
		pl[k].desc.alpha = alphas[k - 1];
		src = wrap(&fb[k], PIXMAN_a8r8g8b8);
		if (alphas[k - 1] != 0xffff) {
			pixman_color_t c = { 0, 0, 0, alphas[k - 1] };

			mask = pixman_image_create_solid_fill(&c);
		}
		pixman_image_composite32(PIXMAN_OP_OVER, src, mask, dst, 0, 0,
					 0, 0, x, y, w, h);
		pixman_image_unref(src);
		if (mask)
			pixman_image_unref(mask);
	}
	CHECK(!core_compose(&sc, img, &crc, NULL), "compose");
	bad = count_diff(img, dst, &first);
	CHECK(!bad && crc == pixman_crc(dst),
	      "%s: %u pixels differ from pixman (first at %u,%u: %06x), CRC %016llx vs %016llx",
	      what, bad, first % W, first / W,
	      (img[first].r >> 8) << 16 | (img[first].g >> 8) << 8 |
	      img[first].b >> 8, (unsigned long long)crc,
	      (unsigned long long)pixman_crc(dst));
	pixman_image_unref(dst);
	for (k = 0; k <= nlayers; k++)
		test_fb_free(&fb[k]);
	free(img);
}

static void test_over(void)
{
	static const u16 opaque[3] = { 0xffff, 0xffff, 0xffff };
	static const u16 mixed[3] = { 0x8080, 0xffff, 0x3f00 };
	u16 alphas[3];
	u32 i;

	for (i = 0; i < 20; i++) {
		over_stack(1, true, opaque, "OVER");
		over_stack(1, false, opaque, "OVER, invalid premultiplied");
		over_stack(3, true, opaque, "3 x OVER");
		over_stack(3, true, mixed, "3 x OVER, plane alpha");
		alphas[0] = test_rand(&rng);
		alphas[1] = test_rand(&rng) | 0xff;
		alphas[2] = test_rand(&rng);
		over_stack(3, i & 1, alphas, "3 x OVER, random alpha");
	}
}

/* Reads: a format alone (alpha ignored), against pixman's SRC. */
static void test_conversions(void)
{
	static const struct {
		u32 fourcc;
		pixman_format_code_t pf;
		bool over;
	} f[] = {
		{ ATOMKMS_FMT_XRGB8888, PIXMAN_x8r8g8b8, false },
		{ ATOMKMS_FMT_ARGB8888, PIXMAN_a8r8g8b8, true },
		{ ATOMKMS_FMT_XBGR8888, PIXMAN_x8b8g8r8, false },
		{ ATOMKMS_FMT_ABGR8888, PIXMAN_a8b8g8r8, true },
		{ ATOMKMS_FMT_RGBX8888, PIXMAN_r8g8b8x8, false },
		{ ATOMKMS_FMT_RGBA8888, PIXMAN_r8g8b8a8, true },
		{ ATOMKMS_FMT_BGRX8888, PIXMAN_b8g8r8x8, false },
		{ ATOMKMS_FMT_BGRA8888, PIXMAN_b8g8r8a8, true },
		{ ATOMKMS_FMT_RGB888, PIXMAN_r8g8b8, false },
		{ ATOMKMS_FMT_BGR888, PIXMAN_b8g8r8, false },
		{ ATOMKMS_FMT_RGB565, PIXMAN_r5g6b5, false },
		{ ATOMKMS_FMT_BGR565, PIXMAN_b5g6r5, false },
		{ ATOMKMS_FMT_XRGB1555, PIXMAN_x1r5g5b5, false },
		{ ATOMKMS_FMT_ARGB1555, PIXMAN_a1r5g5b5, true },
		{ ATOMKMS_FMT_XRGB2101010, PIXMAN_x2r10g10b10, false },
		{ ATOMKMS_FMT_ARGB2101010, PIXMAN_a2r10g10b10, false },
		{ ATOMKMS_FMT_XBGR2101010, PIXMAN_x2b10g10r10, false },
		{ ATOMKMS_FMT_ABGR2101010, PIXMAN_a2b10g10r10, false },
	};
	u32 i, op;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		for (op = 0; op < (f[i].over ? 2u : 1u); op++) {
			struct ref_plane pl[2];
			struct test_fb fb[2];
			struct ref_scene sc = { W, H, 2, pl, NULL };
			struct atomkms_px *img = calloc(W * H, sizeof(*img));
			pixman_image_t *dst, *src;
			u32 first = 0, bad;
			u64 crc = 0;
			u32 cpp = atomkms_format_lookup(f[i].fourcc)->cpp[0];

			test_fb_alloc(&fb[0], ATOMKMS_FMT_XRGB8888, W, H, 0,
				      &rng);
			/* pixman wants strides in whole 32-bit words */
			test_fb_alloc(&fb[1], f[i].fourcc, W - 6, H - 4,
				      (4 - (W - 6) * cpp % 4) % 4, &rng);
			test_fb_src(&fb[0], &pl[0].src);
			test_desc_full(&pl[0].desc, &fb[0], 0, 0, W, H);
			test_fb_src(&fb[1], &pl[1].src);
			test_desc_full(&pl[1].desc, &fb[1], 3, 2, W, H);
			pl[1].desc.blend_mode = op ? ATOMKMS_BLEND_PREMULTI :
					   ATOMKMS_BLEND_PIXEL_NONE;
			dst = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H,
						       NULL, 0);
			src = wrap(&fb[0], PIXMAN_x8r8g8b8);
			pixman_image_composite32(PIXMAN_OP_SRC, src, NULL, dst,
						 0, 0, 0, 0, 0, 0, W, H);
			pixman_image_unref(src);
			src = pixman_image_create_bits(f[i].pf, fb[1].width,
						       fb[1].height,
						       (uint32_t *)fb[1].mem[0],
						       fb[1].pitch[0]);
			if (op) {
				pixman_image_composite32(PIXMAN_OP_OVER, src,
							 NULL, dst, 0, 0, 0, 0,
							 3, 2, fb[1].width,
							 fb[1].height);
			} else {
				/* SRC into x8r8g8b8 drops alpha */
				pixman_image_composite32(PIXMAN_OP_SRC, src,
							 NULL, dst, 0, 0, 0, 0,
							 3, 2, fb[1].width,
							 fb[1].height);
			}
			pixman_image_unref(src);
			CHECK(!core_compose(&sc, img, &crc, NULL), "compose");
			bad = count_diff(img, dst, &first);
			CHECK(!bad && crc == pixman_crc(dst),
			      "%08x %s: %u pixels differ from pixman (first at %u,%u)",
			      f[i].fourcc, op ? "OVER" : "SRC", bad, first % W,
			      first / W);
			pixman_image_unref(dst);
			test_fb_free(&fb[0]);
			test_fb_free(&fb[1]);
			free(img);
		}
	}
}

int main(void)
{
	int guard;

	test_guard_catch();
	/* Buffers end at a guard page, then start after one. */
	for (guard = TEST_GUARD_END; guard <= TEST_GUARD_START; guard++) {
		test_fb_guard = guard;
		test_over();
		test_conversions();
	}
	return check_done("test_compose_pixman");
}
