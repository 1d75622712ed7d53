// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/core/atomkms_plane_job.c, atomkms_compose.c and
 * atomkms_color.c against the per-pixel reference (ref_compose.c): every
 * format, blend mode and alpha, rotation and reflection, scaling with both
 * filters, clipping, the colour pipeline, CRCs and writeback.
 */
#include <stdlib.h>
#include <string.h>

#include "atomkms_compose.h"
#include "check.h"
#include "ref_compose.h"

static u64 rng = 0x5eed;

/* Max channel difference between two images; first mismatch in *at. */
static u32 img_diff(const struct atomkms_px *a, const struct atomkms_px *b,
		    u32 n, u32 *at)
{
	u32 i, m = 0;

	*at = 0;
	for (i = 0; i < n; i++) {
		u32 d = abs(a[i].r - b[i].r);

		if ((u32)abs(a[i].g - b[i].g) > d)
			d = abs(a[i].g - b[i].g);
		if ((u32)abs(a[i].b - b[i].b) > d)
			d = abs(a[i].b - b[i].b);
		if (d > m) {
			if (!m)
				*at = i;
			m = d;
		}
	}
	return m;
}

/*
 * Compose @sc with the core (fast paths on and off) and the reference;
 * the core's two results must be identical and within @tol of the
 * reference. Returns true if all is well.
 */
static bool check_scene(const struct ref_scene *sc, u32 tol, const char *what)
{
	size_t n = (size_t)sc->width * sc->height;
	struct atomkms_px *c1 = calloc(n, sizeof(*c1));
	struct atomkms_px *c2 = calloc(n, sizeof(*c2));
	struct atomkms_px *r = calloc(n, sizeof(*r));
	u64 crc1 = 1, crc2 = 2, crc3 = 3, crc4 = 4;
	u32 at, d1, d2;
	bool ok;
	int e1, e2, e3, e4;

	snprintf(test_what, sizeof(test_what), "%s (guard %s)", what,
		 test_fb_guard == TEST_GUARD_START ? "start" : "end");
	e1 = core_compose(sc, c1, &crc1, NULL);
	core_compose_general = true;
	e2 = core_compose(sc, c2, &crc2, NULL);
	/* The CRC of the same frame sent at 10 bpc. */
	core_compose_bpc = 10;
	e4 = core_compose(sc, NULL, &crc4, NULL);
	core_compose_general = false;
	e3 = core_compose(sc, NULL, &crc3, NULL);
	core_compose_bpc = 0;
	ref_compose(sc, r);
	d1 = img_diff(c1, c2, n, &at);
	d2 = img_diff(c1, r, n, &at);
	ok = !e1 && !e2 && !e3 && !e4 && !d1 && crc1 == crc2 &&
	     crc3 == crc4 && d2 <= tol;
	if (!d2 && ok)
		ok = crc1 == ref_crc(r, sc->width, sc->height) &&
		     crc3 == ref_crc_bpc(r, sc->width, sc->height, 10);
	CHECK(ok, "%s: err %d/%d/%d/%d fast-vs-general %u crc %016llx/%016llx, 10 bpc %016llx/%016llx, ref diff %u at (%u,%u): core %04x %04x %04x ref %04x %04x %04x",
	      what, e1, e2, e3, e4, d1, (unsigned long long)crc1,
	      (unsigned long long)crc2, (unsigned long long)crc3,
	      (unsigned long long)crc4, d2, at % sc->width,
	      at / sc->width, c1[at].r, c1[at].g, c1[at].b, r[at].r, r[at].g,
	      r[at].b);
	free(c1);
	free(c2);
	free(r);
	return ok;
}

static void plane_init(struct ref_plane *p, struct test_fb *fb, u32 fourcc,
		       u32 w, u32 h, u32 crtc_w, u32 crtc_h)
{
	test_fb_alloc(fb, fourcc, w, h, 3, &rng);
	test_fb_src(fb, &p->src);
	test_desc_full(&p->desc, fb, 0, 0, crtc_w, crtc_h);
}

static u32 yuv_tol(u32 fourcc, bool prec8)
{
	if (!atomkms_format_lookup(fourcc)->is_yuv)
		return 0;
	return prec8 ? 257 : 2;
}

/* Every format alone and over a background, odd sizes and offsets. */
static void test_formats_alone(void)
{
	u32 i, mode;

	for (i = 0; i < atomkms_num_formats; i++) {
		const struct atomkms_format *f = &atomkms_formats[i];
		struct ref_plane pl[2];
		struct test_fb bg, fb;
		struct ref_scene sc = { 41, 29, 2, pl, NULL };
		char what[64];
		bool p8 = f->depth <= 8;

		plane_init(&pl[0], &bg, ATOMKMS_FMT_XRGB8888, 41, 29, 41, 29);
		/* Packed 4:2:2 at 34: the driver refuses odd widths. */
		plane_init(&pl[1], &fb, f->fourcc,
			   test_fb_width(f->fourcc, 33), 21, 41, 29);
		for (mode = 0; mode < 3; mode++) {
			pl[1].desc.blend_mode = mode;
			pl[1].desc.dst_x = 5 - 9 * (mode == 1);
			pl[1].desc.dst_y = 3 + 10 * (mode == 2);
			pl[1].desc.src_x = 3 << 16;
			pl[1].desc.src_y = 1 << 16;
			pl[1].desc.src_w = 29 << 16;
			pl[1].desc.src_h = 19 << 16;
			pl[1].desc.dst_w = 29;
			pl[1].desc.dst_h = 19;
			snprintf(what, sizeof(what), "%s mode %u", f->name,
				 mode);
			check_scene(&sc, yuv_tol(f->fourcc, p8), what);
		}
		for (mode = 0; mode < 3; mode++) {
			pl[1].desc.color_encoding = mode;
			pl[1].desc.color_range = mode & 1;
			snprintf(what, sizeof(what), "%s encoding %u", f->name,
				 mode);
			check_scene(&sc, yuv_tol(f->fourcc, p8), what);
		}
		test_fb_free(&bg);
		test_fb_free(&fb);
	}
}

static void test_blend(void)
{
	static const u32 fmts[] = { ATOMKMS_FMT_ARGB8888,
				    ATOMKMS_FMT_ABGR8888,
				    ATOMKMS_FMT_ARGB1555,
				    ATOMKMS_FMT_ARGB2101010,
				    ATOMKMS_FMT_ARGB16161616,
				    ATOMKMS_FMT_ARGB16161616F };
	static const u16 alphas[] = { 0xffff, 0, 1, 0x7fff, 0x8000, 0xfeff,
				      0x00ff, 0x1234 };
	u32 f, mode, a;

	for (f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		for (mode = 0; mode < 3; mode++) {
			for (a = 0; a < sizeof(alphas) / sizeof(alphas[0]);
			     a++) {
				struct ref_plane pl[3];
				struct test_fb fb[3];
				struct ref_scene sc = { 31, 17, 3, pl, NULL };
				char what[64];
				u32 k;

				plane_init(&pl[0], &fb[0],
					   ATOMKMS_FMT_XRGB8888, 31, 17, 31,
					   17);
				plane_init(&pl[1], &fb[1], fmts[f], 20, 10, 31,
					   17);
				plane_init(&pl[2], &fb[2],
					   ATOMKMS_FMT_ARGB8888, 12, 12, 31,
					   17);
				pl[1].desc.blend_mode = mode;
				pl[1].desc.alpha = alphas[a];
				pl[1].desc.dst_x = 3;
				pl[1].desc.dst_y = 2;
				pl[2].desc.dst_x = 15;
				pl[2].desc.dst_y = 4;
				pl[2].desc.blend_mode = (mode + 1) % 3;
				pl[2].desc.alpha = alphas[(a + 3) % 8];
				snprintf(what, sizeof(what),
					 "blend %08x mode %u alpha %04x",
					 fmts[f], mode, alphas[a]);
				check_scene(&sc, 0, what);
				for (k = 0; k < 3; k++)
					test_fb_free(&fb[k]);
			}
		}
	}
}

static void test_rotation(void)
{
	u32 rot, refl, filt, sc_i;

	for (rot = 0; rot < 4; rot++) {
		for (refl = 0; refl < 4; refl++) {
			for (filt = 0; filt < 2; filt++) {
				for (sc_i = 0; sc_i < 3; sc_i++) {
					struct ref_plane pl[2];
					struct test_fb fb[2];
					struct ref_scene sc = { 40, 36, 2, pl,
								NULL };
					struct atomkms_plane_desc *d =
						&pl[1].desc;
					char what[80];
					u32 f = sc_i == 2 ?
						ATOMKMS_FMT_NV12 :
						ATOMKMS_FMT_ARGB8888;

					plane_init(&pl[0], &fb[0],
						   ATOMKMS_FMT_XRGB8888, 40,
						   36, 40, 36);
					plane_init(&pl[1], &fb[1], f, 27, 19,
						   40, 36);
					d->rotation = (1u << rot) | refl << 4;
					d->filter = filt;
					d->src_x = 2 << 16;
					d->src_y = 3 << 16;
					d->src_w = 21 << 16;
					d->src_h = 13 << 16;
					/* rotated size: 13 x 21 for 90/270 */
					d->dst_w = rot & 1 ? 13 : 21;
					d->dst_h = rot & 1 ? 21 : 13;
					if (sc_i) {
						d->src_x += 0x4000;
						d->src_w -= 0x9000;
						d->dst_w = d->dst_w * 3 / 2;
						d->dst_h = d->dst_h * 5 / 3;
					}
					d->dst_x = 4;
					d->dst_y = -2;
					snprintf(what, sizeof(what),
						 "rotation %x filter %u scaled %u",
						 d->rotation, filt, sc_i);
					check_scene(&sc, yuv_tol(f, true),
						    what);
					test_fb_free(&fb[0]);
					test_fb_free(&fb[1]);
				}
			}
		}
	}
}

/* Rotation semantics, by hand: DRM's ROTATE_90 is counter-clockwise. */
static void test_rotation_by_hand(void)
{
	/* 3x2 fb:  A B C / D E F  (value = blue channel). */
	static const u32 pix[6] = { 1, 2, 3, 4, 5, 6 };
	static const struct {
		u32 rotation;
		u32 w, h;
		u32 want[6];
	} cases[] = {
		{ ATOMKMS_ROTATE_0, 3, 2, { 1, 2, 3, 4, 5, 6 } },
		/* CCW: C F / B E / A D */
		{ ATOMKMS_ROTATE_90, 2, 3, { 3, 6, 2, 5, 1, 4 } },
		{ ATOMKMS_ROTATE_180, 3, 2, { 6, 5, 4, 3, 2, 1 } },
		/* D A / E B / F C */
		{ ATOMKMS_ROTATE_270, 2, 3, { 4, 1, 5, 2, 6, 3 } },
		{ ATOMKMS_ROTATE_0 | ATOMKMS_REFLECT_X, 3, 2,
		  { 3, 2, 1, 6, 5, 4 } },
		{ ATOMKMS_ROTATE_0 | ATOMKMS_REFLECT_Y, 3, 2,
		  { 4, 5, 6, 1, 2, 3 } },
		/* reflect first (C B A / F E D), then 90 CCW */
		{ ATOMKMS_ROTATE_90 | ATOMKMS_REFLECT_X, 2, 3,
		  { 1, 4, 2, 5, 3, 6 } },
	};
	u32 c, i;

	snprintf(test_what, sizeof(test_what), "%s", __func__);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct ref_plane pl;
		struct test_fb fb;
		struct atomkms_px out[6];
		struct ref_scene sc = { cases[c].w, cases[c].h, 1, &pl, NULL };
		bool ok = true;

		test_fb_alloc(&fb, ATOMKMS_FMT_XRGB8888, 3, 2, 0, NULL);
		for (i = 0; i < 6; i++)
			fb.mem[0][(i / 3) * fb.pitch[0] + (i % 3) * 4] = pix[i];
		test_fb_src(&fb, &pl.src);
		test_desc_full(&pl.desc, &fb, 0, 0, cases[c].w, cases[c].h);
		pl.desc.rotation = cases[c].rotation;
		pl.desc.dst_w = cases[c].w;
		pl.desc.dst_h = cases[c].h;
		CHECK(!core_compose(&sc, out, NULL, NULL), "compose");
		for (i = 0; i < 6; i++)
			if (out[i].b != cases[c].want[i] * 257)
				ok = false;
		CHECK(ok, "rotation %x by hand: %u %u %u %u %u %u",
		      cases[c].rotation, out[0].b / 257, out[1].b / 257,
		      out[2].b / 257, out[3].b / 257, out[4].b / 257,
		      out[5].b / 257);
		test_fb_free(&fb);
	}
}

static void test_scaling(void)
{
	static const struct {
		u32 sw, sh;	/* 16.16 */
		u32 dw, dh;
	} s[] = {
		{ 20 << 16, 10 << 16, 80, 40 },		/* 4x up */
		{ 80 << 16, 40 << 16, 20, 10 },		/* 4x down */
		{ 33 << 16, 17 << 16, 47, 9 },
		{ (21 << 16) + 0x3333, (11 << 16) + 0x8000, 23, 29 },
		{ 64 << 16, 3 << 16, 64, 11 },		/* vertical only */
		{ 1 << 16, 1 << 16, 4, 4 },		/* one pixel */
		{ 79 << 16, 40 << 16, 70, 40 },
	};
	u32 i, filt;
	u32 fmts[] = { ATOMKMS_FMT_XRGB8888, ATOMKMS_FMT_ARGB16161616,
		       ATOMKMS_FMT_YUV420 };
	u32 f;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		for (filt = 0; filt < 2; filt++) {
			for (f = 0; f < 3; f++) {
				struct ref_plane pl;
				struct test_fb fb;
				struct ref_scene sc = { 90, 45, 1, &pl, NULL };
				char what[64];

				plane_init(&pl, &fb, fmts[f], 85, 43, 90, 45);
				pl.desc.src_x = 1 << 16;
				pl.desc.src_y = 0x8000;
				pl.desc.src_w = s[i].sw;
				pl.desc.src_h = s[i].sh;
				pl.desc.dst_w = s[i].dw;
				pl.desc.dst_h = s[i].dh;
				pl.desc.dst_x = -3;
				pl.desc.dst_y = 2;
				pl.desc.filter = filt;
				snprintf(what, sizeof(what),
					 "scale %u filter %u fmt %u", i, filt,
					 f);
				check_scene(&sc, yuv_tol(fmts[f], f != 1),
					    what);
				test_fb_free(&fb);
			}
		}
	}
}

/* A 4x downscale across a wide output: source spans larger than scratch. */
static void test_scaling_chunks(void)
{
	struct ref_plane pl;
	struct test_fb fb;
	struct ref_scene sc = { 64, 4, 1, &pl, NULL };
	u32 filt;

	plane_init(&pl, &fb, ATOMKMS_FMT_XRGB8888, 256, 16, 64, 4);
	for (filt = 0; filt < 2; filt++) {
		pl.desc.dst_w = 64;
		pl.desc.dst_h = 4;
		pl.desc.filter = filt;
		check_scene(&sc, 0, filt ? "chunks nearest" : "chunks bilinear");
	}
	test_fb_free(&fb);
}

static void test_job_init(void)
{
	struct atomkms_plane_desc d;
	struct atomkms_plane_job job;
	struct test_fb fb;
	const char *why = NULL;

	test_fb_alloc(&fb, ATOMKMS_FMT_XRGB8888, 64, 32, 0, NULL);
	test_desc_full(&d, &fb, 0, 0, 100, 100);
	CHECK(!atomkms_plane_job_init(&job, &d, &why) && job.visible,
	      "plain: %s", why);
	CHECK(job.flags & ATOMKMS_JOB_OPAQUE && job.flags &
	      ATOMKMS_JOB_UNSCALED && job.flags & ATOMKMS_JOB_UNROTATED,
	      "flags %x", job.flags);
	CHECK(!(job.flags & ATOMKMS_JOB_FULL_SCREEN), "not full screen");
	d.crtc_width = 64;
	d.crtc_height = 32;
	atomkms_plane_job_init(&job, &d, NULL);
	CHECK(job.flags & ATOMKMS_JOB_FULL_SCREEN, "full screen");

	d.fourcc = ATOMKMS_FOURCC('C', '8', ' ', ' ');
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22 && why &&
	      strstr(why, "format"), "bad format: %s", why);
	d.fourcc = ATOMKMS_FMT_XRGB8888;
	d.rotation = 0;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22, "no rotation");
	d.rotation = ATOMKMS_ROTATE_90 | ATOMKMS_ROTATE_180;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22, "two rotations");
	d.rotation = ATOMKMS_ROTATE_0 | (1u << 6);
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22, "unknown bit");
	d.rotation = ATOMKMS_ROTATE_270 | ATOMKMS_REFLECT_X |
		     ATOMKMS_REFLECT_Y;
	CHECK(!atomkms_plane_job_init(&job, &d, &why), "270 + reflections");
	d.rotation = ATOMKMS_ROTATE_0;
	d.blend_mode = 3;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22, "blend mode");
	d.blend_mode = 0;
	d.src_w = 65 << 16;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -28, "src outside");
	d.src_w = 64 << 16;
	d.dst_w = 15;	/* 64 / 15 > 4 */
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -34 &&
	      strstr(why, "down"), "downscale: %s", why);
	d.dst_w = 16;
	CHECK(!atomkms_plane_job_init(&job, &d, &why), "4x down ok: %s", why);
	d.dst_w = 257;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -34 &&
	      strstr(why, "up"), "upscale: %s", why);
	d.max_scale = 8 << 16;
	d.min_scale = 1 << 12;
	CHECK(!atomkms_plane_job_init(&job, &d, &why), "custom limits");
	d.dst_w = 8;
	CHECK(!atomkms_plane_job_init(&job, &d, &why), "8x down custom");
	d.min_scale = d.max_scale = 0;
	d.dst_w = 64;
	d.dst_x = -64;
	CHECK(!atomkms_plane_job_init(&job, &d, &why) && !job.visible,
	      "off-screen left");
	d.dst_x = 100;
	CHECK(!atomkms_plane_job_init(&job, &d, &why) && !job.visible,
	      "off-screen right");
	d.dst_x = -63;
	CHECK(!atomkms_plane_job_init(&job, &d, &why) && job.visible &&
	      job.x1 == 0 && job.x2 == 1, "one column visible");
	d.dst_x = 0;
	d.alpha = 0;
	CHECK(!atomkms_plane_job_init(&job, &d, &why) && !job.visible,
	      "alpha 0 invisible");
	d.alpha = 0xffff;
	d.fourcc = ATOMKMS_FMT_NV12;
	d.color_encoding = 3;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22, "encoding");
	d.color_encoding = 0;
	/* Packed 4:2:2: odd fb widths split a macropixel; odd sources do not. */
	d.fourcc = ATOMKMS_FMT_YUYV;
	d.fb_width = 63;
	d.src_w = 63 << 16;
	d.dst_w = 63;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22 &&
	      strstr(why, "macropixel"), "YUYV odd width: %s", why);
	d.fourcc = ATOMKMS_FMT_UYVY;
	CHECK(atomkms_plane_job_init(&job, &d, &why) == -22, "UYVY odd width");
	d.fb_width = 64;
	d.src_x = 1 << 16;
	CHECK(!atomkms_plane_job_init(&job, &d, &why) && job.visible,
	      "UYVY even width, odd source: %s", why);
	d.fourcc = ATOMKMS_FMT_NV12;
	d.fb_width = 63;
	d.src_x = 0;
	CHECK(!atomkms_plane_job_init(&job, &d, &why), "NV12 odd width: %s",
	      why);
	test_fb_free(&fb);
}

static void test_clipping(void)
{
	static const s32 pos[][2] = { { -10, -5 }, { 30, 20 }, { -10, 20 },
				      { 30, -5 }, { -100, 0 }, { 0, 100 },
				      { -39, -29 } };
	u32 i;

	for (i = 0; i < sizeof(pos) / sizeof(pos[0]); i++) {
		struct ref_plane pl[2];
		struct test_fb fb[2];
		struct ref_scene sc = { 43, 31, 2, pl, NULL };

		plane_init(&pl[0], &fb[0], ATOMKMS_FMT_RGB565, 17, 13, 43, 31);
		plane_init(&pl[1], &fb[1], ATOMKMS_FMT_ARGB8888, 40, 30, 43,
			   31);
		pl[0].desc.dst_x = 20;
		pl[0].desc.dst_y = 10;
		pl[1].desc.dst_x = pos[i][0];
		pl[1].desc.dst_y = pos[i][1];
		check_scene(&sc, 0, "clipping");
		test_fb_free(&fb[0]);
		test_fb_free(&fb[1]);
	}
}

static void lut_fill(struct atomkms_color_lut *l, u32 n, int kind)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 v = (u32)((i * 65535ULL + (n - 1) / 2) / (n - 1));

		if (kind == 1)
			v = 65535 - v;
		else if (kind == 2)
			v = (u32)((u64)v * v / 65535);
		l[i].red = v;
		l[i].green = kind == 2 ? 65535 - v : v;
		l[i].blue = v;
		l[i].reserved = 0xdead;
	}
}

static u64 s3132(double v)
{
	u64 m = (u64)((v < 0 ? -v : v) * 4294967296.0 + 0.5);

	return v < 0 ? m | 1ULL << 63 : m;
}

static void test_color(void)
{
	static struct atomkms_color_lut lut_a[4096], lut_b[4096];
	static const u32 sizes[] = { 256, 1024, 4096, 17, 2 };
	struct atomkms_color_ctm ctm;
	struct atomkms_color col;
	struct ref_plane pl[2];
	struct test_fb fb[2];
	struct ref_scene sc = { 37, 19, 2, pl, &col };
	size_t n = 37 * 19;
	struct atomkms_px *plain = calloc(n, sizeof(*plain));
	struct atomkms_px *out = calloc(n, sizeof(*out));
	struct atomkms_px *ref = calloc(n, sizeof(*ref));
	u32 i, at, k;
	u32 fmts[2] = { ATOMKMS_FMT_ARGB2101010, ATOMKMS_FMT_ARGB8888 };

	snprintf(test_what, sizeof(test_what), "%s", __func__);
	for (k = 0; k < 2; k++) {
		plane_init(&pl[0], &fb[0], ATOMKMS_FMT_XRGB8888, 37, 19, 37,
			   19);
		plane_init(&pl[1], &fb[1], fmts[k], 20, 10, 37, 19);
		pl[1].desc.dst_x = 9;
		pl[1].desc.dst_y = 4;
		memset(&col, 0, sizeof(col));
		sc.color = NULL;
		core_compose(&sc, plain, NULL, NULL);
		sc.color = &col;

		/* Identity LUTs of any size and an identity CTM: exact. */
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			lut_fill(lut_a, sizes[i], 0);
			memset(&ctm, 0, sizeof(ctm));
			ctm.matrix[0] = ctm.matrix[4] = ctm.matrix[8] =
				1ULL << 32;
			col = (struct atomkms_color){ lut_a, sizes[i], &ctm,
						      lut_a, sizes[i] };
			core_compose(&sc, out, NULL, NULL);
			CHECK(!img_diff(out, plain, n, &at),
			      "identity pipeline %u is a no-op", sizes[i]);
		}
		/* Swap red and blue with the CTM. */
		memset(&ctm, 0, sizeof(ctm));
		ctm.matrix[2] = ctm.matrix[4] = ctm.matrix[6] = 1ULL << 32;
		col = (struct atomkms_color){ NULL, 0, &ctm, NULL, 0 };
		core_compose(&sc, out, NULL, NULL);
		for (i = 0, at = 0; i < n; i++)
			if (out[i].r != plain[i].b || out[i].b != plain[i].r ||
			    out[i].g != plain[i].g)
				at++;
		CHECK(!at, "CTM swaps R/B (%u wrong)", at);
		/* An inverting gamma LUT. */
		lut_fill(lut_b, 256, 1);
		col = (struct atomkms_color){ NULL, 0, NULL, lut_b, 256 };
		core_compose(&sc, out, NULL, NULL);
		for (i = 0, at = 0; i < n; i++)
			if (out[i].r != 65535 - plain[i].r ||
			    out[i].g != 65535 - plain[i].g ||
			    out[i].b != 65535 - plain[i].b)
				at++;
		CHECK(!at, "inverting LUT (%u wrong)", at);

		/* Everything at once against the reference. */
		for (i = 0; i < 9; i++)
			ctm.matrix[i] = s3132((double)(test_rand(&rng) % 2000) /
					      1000.0 - 0.7);
		lut_fill(lut_a, 1024, 2);
		lut_fill(lut_b, 33, 2);
		col = (struct atomkms_color){ lut_a, 1024, &ctm, lut_b, 33 };
		check_scene(&sc, 0, "degamma + CTM + gamma");
		col = (struct atomkms_color){ lut_b, 1, NULL, NULL, 0 };
		check_scene(&sc, 0, "one-entry LUT");
		ctm.matrix[0] = s3132(-5000.0);
		ctm.matrix[1] = s3132(100000.0);
		col = (struct atomkms_color){ NULL, 0, &ctm, NULL, 0 };
		check_scene(&sc, 0, "saturating CTM");
		ref_compose(&sc, ref);
		test_fb_free(&fb[0]);
		test_fb_free(&fb[1]);
	}
	free(plain);
	free(out);
	free(ref);
}

/*
 * 10-bit output: the CRC of a frame sent at 10 bpc covers each channel's
 * two bits below the top 8, and only they tell it from the 8-bit CRC.
 *  - two XRGB2101010 planes that differ in the low 2 bits of one channel
 *    of one pixel: the same CRC at 8 bpc, different ones at 10, fast and
 *    general paths alike;
 *  - an 8-bit image (an ARGB8888 plane over an XRGB8888 one, the packed
 *    fast path) has the same CRC at 8 and 10 bpc, and so has the
 *    XRGB2101010 plane whose channels replicate its 8 bits
 *    (t << 2 | t >> 6), composed in 16 bits.
 */
static void test_crc_deep(void)
{
	struct ref_plane pl[2];
	struct test_fb fb[2], rep;
	struct ref_scene one = { 37, 11, 1, pl, NULL };
	struct ref_scene two = { 37, 11, 2, pl, NULL };
	u64 c[2][2][2], e8, e10, r8, r10;
	u32 i, x, y, fast, bpc, img;

	snprintf(test_what, sizeof(test_what), "%s", __func__);
	plane_init(&pl[0], &fb[0], ATOMKMS_FMT_XRGB2101010, 37, 11, 37, 11);
	for (img = 0; img < 2; img++) {
		if (img) {
			/* Pixel (5, 3): green's bit 1 flipped (bit 11 of the word). */
			u8 *w = fb[0].mem[0] + 3 * fb[0].pitch[0] + 5 * 4;
			u32 v;

			/* The pitch may leave the word unaligned: bytes. */
			memcpy(&v, w, sizeof(v));
			v ^= 1u << 11;
			memcpy(w, &v, sizeof(v));
		}
		for (fast = 0; fast < 2; fast++)
			for (bpc = 0; bpc < 2; bpc++) {
				core_compose_general = !fast;
				core_compose_bpc = bpc ? 10 : 8;
				c[img][fast][bpc] = 0;
				CHECK(!core_compose(&one, NULL,
						    &c[img][fast][bpc], NULL),
				      "compose");
			}
	}
	core_compose_general = false;
	for (fast = 0; fast < 2; fast++) {
		CHECK(c[0][fast][0] == c[1][fast][0],
		      "fast %u: 8 bpc sees low bits: %016llx %016llx", fast,
		      (unsigned long long)c[0][fast][0],
		      (unsigned long long)c[1][fast][0]);
		CHECK(c[0][fast][1] != c[1][fast][1],
		      "fast %u: 10 bpc misses low bits: %016llx", fast,
		      (unsigned long long)c[0][fast][1]);
		CHECK(c[0][fast][1] == c[0][1][1] && c[1][fast][1] == c[1][1][1],
		      "fast %u: paths differ at 10 bpc", fast);
	}
	test_fb_free(&fb[0]);

	plane_init(&pl[0], &fb[0], ATOMKMS_FMT_XRGB8888, 37, 11, 37, 11);
	plane_init(&pl[1], &fb[1], ATOMKMS_FMT_ARGB8888, 20, 7, 37, 11);
	pl[1].desc.dst_x = 9;
	pl[1].desc.dst_y = 2;
	pl[1].desc.alpha = 0xa000;
	core_compose_bpc = 8;
	CHECK(!core_compose(&two, NULL, &e8, NULL), "8-bit stack");
	core_compose_bpc = 10;
	CHECK(!core_compose(&two, NULL, &e10, NULL), "8-bit stack, 10 bpc");
	CHECK(e8 == e10, "8-bit stack: %016llx at 8 bpc, %016llx at 10",
	      (unsigned long long)e8, (unsigned long long)e10);

	/* The XRGB8888 plane alone, and as replicated 10 bits. */
	CHECK(!core_compose(&one, NULL, &r10, NULL), "8-bit plane");
	test_fb_alloc(&rep, ATOMKMS_FMT_XRGB2101010, 37, 11, 0, NULL);
	for (y = 0; y < 11; y++)
		for (x = 0; x < 37; x++) {
			const u8 *s = fb[0].mem[0] + y * fb[0].pitch[0] + 4 * x;
			u32 w = 0;

			for (i = 0; i < 3; i++)
				w |= (u32)(s[i] << 2 | s[i] >> 6) << (10 * i);
			memcpy(rep.mem[0] + y * rep.pitch[0] + 4 * x, &w, 4);
		}
	test_fb_src(&rep, &pl[0].src);
	test_desc_full(&pl[0].desc, &rep, 0, 0, 37, 11);
	CHECK(!core_compose(&one, NULL, &r8, NULL), "replicated 10-bit plane");
	CHECK(r8 == r10, "replicated 10 bits: %016llx, the 8-bit plane %016llx",
	      (unsigned long long)r8, (unsigned long long)r10);
	core_compose_bpc = 0;
	test_fb_free(&rep);
	test_fb_free(&fb[0]);
	test_fb_free(&fb[1]);
}

/*
 * CRC equivalence: a plane stack, and the same 8-bit image drawn into one
 * XRGB8888 plane, give the same CRC; the writeback matches the reference.
 */
static void test_crc_and_writeback(void)
{
	struct ref_plane pl[3];
	struct test_fb fb[3], flat, wbfb, wbref;
	struct ref_scene sc = { 50, 30, 3, pl, NULL };
	struct ref_scene one = { 50, 30, 1, pl, NULL };
	struct atomkms_px *img = calloc(50 * 30, sizeof(*img));
	struct atomkms_writeback wb, wr;
	u64 crc_stack = 0, crc_flat = 1;
	u32 i, k, p;

	snprintf(test_what, sizeof(test_what), "%s", __func__);
	plane_init(&pl[0], &fb[0], ATOMKMS_FMT_RGB565, 50, 30, 50, 30);
	plane_init(&pl[1], &fb[1], ATOMKMS_FMT_ARGB8888, 30, 20, 50, 30);
	plane_init(&pl[2], &fb[2], ATOMKMS_FMT_BGRA8888, 13, 37, 50, 30);
	pl[1].desc.dst_x = 7;
	pl[1].desc.alpha = 0x9000;
	pl[2].desc.dst_x = 30;
	pl[2].desc.rotation = ATOMKMS_ROTATE_90;
	pl[2].desc.dst_w = 37;
	pl[2].desc.dst_h = 13;
	pl[2].desc.dst_y = 15;
	CHECK(!core_compose(&sc, img, &crc_stack, NULL), "stack");
	test_fb_alloc(&flat, ATOMKMS_FMT_XRGB8888, 50, 30, 0, &rng);
	for (i = 0; i < 50 * 30; i++) {
		u8 *o = flat.mem[0] + (i / 50) * flat.pitch[0] + (i % 50) * 4;

		o[0] = img[i].b >> 8;
		o[1] = img[i].g >> 8;
		o[2] = img[i].r >> 8;	/* o[3], the X byte, stays random */
	}
	{
		struct ref_plane save = pl[0];

		test_fb_src(&flat, &pl[0].src);
		test_desc_full(&pl[0].desc, &flat, 0, 0, 50, 30);
		CHECK(!core_compose(&one, NULL, &crc_flat, NULL), "flat");
		pl[0] = save;
	}
	CHECK(crc_stack == crc_flat, "stack CRC %016llx, flat image CRC %016llx",
	      (unsigned long long)crc_stack, (unsigned long long)crc_flat);

	for (k = 0; k < atomkms_num_writeback_formats; k++) {
		u32 fourcc = atomkms_writeback_formats[k], same = 1;
		size_t j;

		test_fb_alloc(&wbfb, fourcc, 50, 30, 8, NULL);
		test_fb_alloc(&wbref, fourcc, 50, 30, 8, NULL);
		wb.fourcc = wr.fourcc = fourcc;
		for (p = 0; p < 3; p++) {
			wb.map[p] = wbfb.mem[p];
			wb.pitch[p] = wbfb.pitch[p];
			wr.map[p] = wbref.mem[p];
			wr.pitch[p] = wbref.pitch[p];
		}
		CHECK(!core_compose(&sc, NULL, NULL, &wb), "writeback");
		for (i = 0; i < 30; i++)
			atomkms_writeback_line(&wr, i, img + i * 50, 50);
		for (p = 0; p < 3; p++)
			for (j = 0; j < wbfb.size[p]; j++)
				if (wbfb.mem[p][j] != wbref.mem[p][j])
					same = 0;
		CHECK(same, "writeback %08x equals the composed image", fourcc);
		test_fb_free(&wbfb);
		test_fb_free(&wbref);
	}
	for (k = 0; k < 3; k++)
		test_fb_free(&fb[k]);
	test_fb_free(&flat);
	free(img);
}

struct hook_ctx {
	struct atomkms_frame_plane *fp;
	const u8 *next;
	u32 at, calls;
	struct atomkms_px out[8 * 8];
};

/* Repoints the plane at line @at, as an async flip latching mid-frame. */
static void flip_at_line(void *ctx, u32 y)
{
	struct hook_ctx *h = ctx;

	h->calls++;
	if (y == h->at)
		h->fp->src.map[0] = h->next;
}

static void keep_line(void *ctx, u32 y, const struct atomkms_px *line, u32 w)
{
	struct hook_ctx *h = ctx;

	memcpy(h->out + y * w, line, w * sizeof(*line));
}

/* The line hook runs before every line; sources it changes apply at once. */
static void test_line_hook(void)
{
	struct test_fb red, blue;
	const struct atomkms_plane_desc desc = {
		.fourcc = ATOMKMS_FMT_XRGB8888, .fb_width = 8, .fb_height = 8,
		.src_w = 8 << 16, .src_h = 8 << 16, .dst_w = 8, .dst_h = 8,
		.crtc_width = 8, .crtc_height = 8, .rotation = ATOMKMS_ROTATE_0,
		.alpha = 0xffff,
	};
	struct atomkms_plane_job job;
	struct atomkms_frame_plane fp;
	struct hook_ctx h;
	struct atomkms_frame f;
	const char *why = NULL;
	void *s = malloc(atomkms_compose_scratch_size(8));
	int fast, i;

	snprintf(test_what, sizeof(test_what), "%s", __func__);
	test_fb_alloc(&red, ATOMKMS_FMT_XRGB8888, 8, 8, 0, NULL);
	test_fb_alloc(&blue, ATOMKMS_FMT_XRGB8888, 8, 8, 0, NULL);
	for (i = 0; i < 64; i++) {
		red.mem[0][4 * i + 2] = 0xff;
		blue.mem[0][4 * i] = 0xff;
	}
	CHECK(!atomkms_plane_job_init(&job, &desc, &why), "job: %s", why);
	CHECK(!atomkms_compose_scratch_init(s, 8), "scratch");
	for (fast = 0; fast < 2; fast++) {
		bool ok = true;

		fp = (struct atomkms_frame_plane){ .job = &job };
		test_fb_src(&red, &fp.src);
		h = (struct hook_ctx){ .fp = &fp, .next = blue.mem[0],
				       .at = 5 };
		f = (struct atomkms_frame){
			.width = 8, .height = 8, .num_planes = 1, .planes = &fp,
			.flags = fast ? 0 : ATOMKMS_FRAME_GENERAL,
			.line_sink = keep_line, .sink_ctx = &h,
			.line_hook = flip_at_line, .hook_ctx = &h,
		};
		CHECK(!atomkms_compose_frame(&f, s), "compose, fast %d", fast);
		for (i = 0; i < 64; i++) {
			bool top = i / 8 < 5;

			ok &= h.out[i].r == (top ? 0xffff : 0) &&
			      h.out[i].b == (top ? 0 : 0xffff) && !h.out[i].g;
		}
		CHECK(h.calls == 8, "hook called once a line, fast %d: %u",
		      fast, h.calls);
		CHECK(ok, "lines 0-4 from the first buffer, 5-7 from the second, fast %d",
		      fast);
	}
	test_fb_free(&red);
	test_fb_free(&blue);
	free(s);
}

static void test_frame_errors(void)
{
	struct atomkms_frame f = { 0 };
	void *s = malloc(atomkms_compose_scratch_size(64));

	CHECK(atomkms_compose_scratch_size(0) == 0, "width 0");
	CHECK(atomkms_compose_scratch_size(ATOMKMS_COMPOSE_MAX_WIDTH + 1) == 0,
	      "too wide");
	CHECK(atomkms_compose_scratch_init(s, 64) == 0, "init");
	f.width = 65;
	f.height = 1;
	CHECK(atomkms_compose_frame(&f, s) == -22, "wider than scratch");
	f.width = 64;
	f.num_planes = ATOMKMS_COMPOSE_MAX_PLANES + 1;
	CHECK(atomkms_compose_frame(&f, s) == -22, "too many planes");
	f.num_planes = 0;
	CHECK(atomkms_compose_frame(&f, s) == 0, "no planes: black");
	memset(s, 0, 16);
	CHECK(atomkms_compose_frame(&f, s) == -22, "uninitialised scratch");
	free(s);
}

int main(void)
{
	int guard;

	test_guard_catch();
	/* Every buffer ends at a guard page, then starts after one. */
	for (guard = TEST_GUARD_END; guard <= TEST_GUARD_START; guard++) {
		test_fb_guard = guard;
		test_job_init();
		test_rotation_by_hand();
		test_formats_alone();
		test_blend();
		test_rotation();
		test_scaling();
		test_scaling_chunks();
		test_clipping();
		test_color();
		test_crc_and_writeback();
		test_crc_deep();
		test_line_hook();
		test_frame_errors();
	}
	return check_done("test_compose");
}
