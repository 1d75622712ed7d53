// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of the software plane compositor (module/core/atomkms_compose.c and
 * the core files it uses, built unchanged), against pixman doing the same
 * composition and against memcpy of one output frame.
 *
 * Scenes, at 1920x1080 and 3840x2160, composed into an XRGB8888 writeback
 * buffer:
 *   a   opaque XRGB8888 primary alone
 *   b   primary + 2 full-screen premultiplied ARGB8888 overlays with
 *       per-pixel alpha (every pixel its own alpha: 1/4 transparent, 1/4
 *       opaque, 1/2 random) + a 64x64 ARGB8888 cursor
 *   bu  as b, "UI-like" overlays: alpha constant over 64x32 blocks
 *       (transparent, opaque or translucent), as windows and shadows are
 *   c   primary + NV12 1280x720 video overlay, bilinear, scaled to full
 *       screen (BT.709 limited range); its reference is libswscale
 *       (SWS_BILINEAR, NV12 to BGRA at the output size, BT.709 limited
 *       range asked for) then pixman, as for the other scenes: SRC of the
 *       primary, OVER of the converted frame. Only the times compare:
 *       libswscale rounds, sites chroma and interpolates its own way, so
 *       its colours are not ours and are not checked
 *   d   as b, the two overlays rotated 90 degrees (framebuffers of the
 *       rotated size)
 *
 * Usage:
 *   bench_compose                 the full tables (what bench/run.sh runs)
 *   bench_compose -q              quicker: fewer samples per measurement
 *   bench_compose -v              also every measurement's spread (stderr)
 *   bench_compose --wall          wall-clock time instead of thread CPU time
 *   bench_compose --targets LABEL then issue 17's targets, MET or NOT MET,
 *                                 each line led by LABEL
 *   bench_compose --count SCENE WIDTH HEIGHT K [general] [crc] [LEVEL]
 *                                 set up SCENE, compose exactly K frames,
 *                                 exit (for valgrind --tool=callgrind);
 *                                 scalar line loops unless LEVEL (sse2,
 *                                 avx2) says otherwise
 *   bench_compose --bands SCENE WIDTH HEIGHT K N
 *                                 compose K frames with CRC in N bands
 *                                 (atomkms_compose_band()) on N threads,
 *                                 and print the median wall-clock ms a
 *                                 frame, and the CRC
 *
 * The line loops (include/atomkms_simd.h): the tables time the scalar
 * ones, and with BENCH_SIMD (the SSE2 and AVX2 objects linked in) each
 * vector level the CPU runs too, side by side; the targets are judged on
 * the level the module would pick on this CPU: the one
 * atomkms_simd_calib_step() runs fastest, as the module times it at load
 * (the CRC's on the level atomkms_simd_crc_calib_step() runs fastest:
 * bench/run.sh's callgrind part).
 *
 * Every timing is the median of N single-frame samples after a warm-up; N
 * is what fits in a time budget, between a minimum and a maximum.
 */
#define _GNU_SOURCE
#include <pixman.h>
#include <pthread.h>
#include <libswscale/swscale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomkms_compose.h"
#include "atomkms_simd.h"

#define MAX_PL 4

enum { SC_A, SC_B, SC_BU, SC_C, SC_D, NUM_SCENES };

static const char *const scene_id[NUM_SCENES] = { "a", "b", "bu", "c", "d" };
static const char *const scene_desc[NUM_SCENES] = {
	"primary XRGB8888 alone",
	"primary + 2 ARGB ovl + cursor",
	"b, UI-like (blocky) alpha",
	"primary + NV12 720p bilinear",
	"b, overlays rotated 90",
};

struct surf {
	u32 fourcc, w, h;
	u8 *mem[2];
	u32 pitch[2];
	size_t size[2];
};

struct scene {
	int id;
	u32 w, h, n;
	struct surf fb[MAX_PL];
	struct atomkms_plane_desc desc[MAX_PL];
	struct atomkms_plane_job job[MAX_PL];
	struct atomkms_frame_plane fp[MAX_PL];
	struct atomkms_frame frame;
	struct atomkms_writeback wb;
	u8 *wbmem;
	void *scratch;
	u64 crc;
	/* pixman: the same layers, into its own destination */
	bool has_pixman;
	pixman_image_t *pimg[MAX_PL];
	pixman_op_t pop[MAX_PL];
	s32 px[MAX_PL], py[MAX_PL];
	u32 pw[MAX_PL], ph[MAX_PL];
	pixman_image_t *pdst;
	u32 *pdstmem;
	/* (c): libswscale's conversion into @swsmem, an a8r8g8b8 image */
	struct SwsContext *sws;
	u32 *swsmem;
};

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u32 rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (rng_state * 0x2545f4914f6cdd1dull) >> 32;
}

static void *xalloc(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);

	if (!p) {
		fprintf(stderr, "bench_compose: out of memory\n");
		exit(1);
	}
	return p;
}

static void surf_alloc(struct surf *s, u32 fourcc, u32 w, u32 h)
{
	memset(s, 0, sizeof(*s));
	s->fourcc = fourcc;
	s->w = w;
	s->h = h;
	if (fourcc == ATOMKMS_FMT_NV12) {
		s->pitch[0] = w;
		s->size[0] = (size_t)w * h;
		s->pitch[1] = w;
		s->size[1] = (size_t)w * (h / 2);
	} else {
		s->pitch[0] = w * 4;
		s->size[0] = (size_t)w * 4 * h;
	}
	for (int i = 0; i < 2; i++)
		if (s->size[i])
			s->mem[i] = xalloc(s->size[i]);
}

static void surf_free(struct surf *s)
{
	free(s->mem[0]);
	free(s->mem[1]);
}

static void fill_xrgb(struct surf *s)
{
	for (u32 y = 0; y < s->h; y++) {
		u32 *p = (u32 *)(s->mem[0] + (size_t)y * s->pitch[0]);

		for (u32 x = 0; x < s->w; x++)
			p[x] = rnd() & 0xffffff;
	}
}

static u32 premul(u32 a)
{
	u32 r = rnd(), c[3];

	for (int k = 0; k < 3; k++)
		c[k] = a ? ((r >> (8 * k)) & 0xff) % (a + 1) : 0;
	return a << 24 | c[2] << 16 | c[1] << 8 | c[0];
}

/* Per-pixel alpha: 1/4 transparent, 1/4 opaque, 1/2 random. */
static void fill_argb_noise(struct surf *s)
{
	for (u32 y = 0; y < s->h; y++) {
		u32 *p = (u32 *)(s->mem[0] + (size_t)y * s->pitch[0]);

		for (u32 x = 0; x < s->w; x++) {
			u32 r = rnd(), a = r & 0xff;

			if ((r >> 8) % 4 == 0)
				a = 0;
			else if ((r >> 8) % 4 == 1)
				a = 255;
			p[x] = premul(a);
		}
	}
}

/* UI-like: alpha constant per 64x32 block: 1/2 transparent, 1/4 opaque. */
static void fill_argb_blocks(struct surf *s)
{
	u32 bw = (s->w + 63) / 64, bh = (s->h + 31) / 32;
	u8 *ba = xalloc((size_t)bw * bh);

	for (u32 i = 0; i < bw * bh; i++) {
		u32 r = rnd() % 8;

		ba[i] = r < 4 ? 0 : r < 6 ? 255 : 32 + rnd() % 192;
	}
	for (u32 y = 0; y < s->h; y++) {
		u32 *p = (u32 *)(s->mem[0] + (size_t)y * s->pitch[0]);

		for (u32 x = 0; x < s->w; x++)
			p[x] = premul(ba[(y / 32) * bw + x / 64]);
	}
	free(ba);
}

static void fill_nv12(struct surf *s)
{
	for (size_t i = 0; i < s->size[0]; i++)
		s->mem[0][i] = 16 + rnd() % 220;
	for (size_t i = 0; i < s->size[1]; i++)
		s->mem[1][i] = 16 + rnd() % 225;
}

static void desc_full(struct atomkms_plane_desc *d, const struct surf *fb,
		      s32 x, s32 y, u32 dw, u32 dh, u32 cw, u32 ch)
{
	*d = (struct atomkms_plane_desc){
		.fourcc = fb->fourcc,
		.fb_width = fb->w, .fb_height = fb->h,
		.src_w = fb->w << 16, .src_h = fb->h << 16,
		.dst_x = x, .dst_y = y, .dst_w = dw, .dst_h = dh,
		.crtc_width = cw, .crtc_height = ch,
		.rotation = ATOMKMS_ROTATE_0,
		.alpha = 0xffff,
		.blend_mode = ATOMKMS_BLEND_PREMULTI,
		.filter = ATOMKMS_FILTER_BILINEAR,
		.color_encoding = ATOMKMS_YCBCR_BT709,
		.color_range = ATOMKMS_YCBCR_LIMITED_RANGE,
	};
}

/*
 * Scene (c)'s reference: libswscale converting and scaling the NV12 frame
 * to BGRA (0xAARRGGBB words, pixman's a8r8g8b8) at the output size,
 * bilinear, BT.709 limited range in (its default would be BT.601), one
 * thread (libswscale's default; the clock is this thread's CPU time).
 */
static void sws_init(struct scene *s)
{
	const struct surf *v = &s->fb[1];

	s->sws = sws_getContext(v->w, v->h, AV_PIX_FMT_NV12, s->w, s->h,
				AV_PIX_FMT_BGRA, SWS_BILINEAR, NULL, NULL,
				NULL);
	if (!s->sws) {
		fprintf(stderr, "bench_compose: sws_getContext failed\n");
		exit(1);
	}
	sws_setColorspaceDetails(s->sws, sws_getCoefficients(SWS_CS_ITU709), 0,
				 sws_getCoefficients(SWS_CS_ITU709), 1, 0,
				 1 << 16, 1 << 16);
	s->swsmem = xalloc((size_t)s->w * s->h * 4);
	memset(s->swsmem, 0, (size_t)s->w * s->h * 4);
}

static void scene_init(struct scene *s, int id, u32 w, u32 h, bool pixman)
{
	bool rot = id == SC_D;
	u32 k;

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->w = w;
	s->h = h;
	rng_state = 0x9e3779b97f4a7c15ull ^ ((u64)id << 32) ^ w;

	surf_alloc(&s->fb[0], ATOMKMS_FMT_XRGB8888, w, h);
	fill_xrgb(&s->fb[0]);
	desc_full(&s->desc[0], &s->fb[0], 0, 0, w, h, w, h);
	s->n = 1;
	switch (id) {
	case SC_B:
	case SC_BU:
	case SC_D:
		for (k = 1; k <= 2; k++) {
			surf_alloc(&s->fb[k], ATOMKMS_FMT_ARGB8888,
				   rot ? h : w, rot ? w : h);
			if (id == SC_BU)
				fill_argb_blocks(&s->fb[k]);
			else
				fill_argb_noise(&s->fb[k]);
			desc_full(&s->desc[k], &s->fb[k], 0, 0, w, h, w, h);
			if (rot)
				s->desc[k].rotation = ATOMKMS_ROTATE_90;
		}
		surf_alloc(&s->fb[3], ATOMKMS_FMT_ARGB8888, 64, 64);
		fill_argb_noise(&s->fb[3]);
		desc_full(&s->desc[3], &s->fb[3], w / 2 + 100, h / 2 - 32,
			  64, 64, w, h);
		s->n = 4;
		break;
	case SC_C:
		surf_alloc(&s->fb[1], ATOMKMS_FMT_NV12, 1280, 720);
		fill_nv12(&s->fb[1]);
		desc_full(&s->desc[1], &s->fb[1], 0, 0, w, h, w, h);
		s->n = 2;
		break;
	}
	for (k = 0; k < s->n; k++) {
		const char *why;

		if (atomkms_plane_job_init(&s->job[k], &s->desc[k], &why) ||
		    !s->job[k].visible) {
			fprintf(stderr, "bench_compose: scene %s plane %u: %s\n",
				scene_id[id], k, why);
			exit(1);
		}
		s->fp[k].job = &s->job[k];
		for (int i = 0; i < 2; i++) {
			s->fp[k].src.map[i] = s->fb[k].mem[i];
			s->fp[k].src.pitch[i] = s->fb[k].pitch[i];
		}
	}
	s->scratch = xalloc(atomkms_compose_scratch_size(w));
	atomkms_compose_scratch_init(s->scratch, w);
	s->wbmem = xalloc((size_t)w * h * 4);
	memset(s->wbmem, 0, (size_t)w * h * 4);
	s->wb.fourcc = ATOMKMS_FMT_XRGB8888;
	s->wb.map[0] = s->wbmem;
	s->wb.pitch[0] = w * 4;
	s->frame.width = w;
	s->frame.height = h;
	s->frame.num_planes = s->n;
	s->frame.planes = s->fp;
	s->frame.wb = &s->wb;

	s->has_pixman = pixman;
	if (!s->has_pixman)
		return;
	s->pdstmem = xalloc((size_t)w * h * 4);
	memset(s->pdstmem, 0, (size_t)w * h * 4);
	s->pdst = pixman_image_create_bits(PIXMAN_x8r8g8b8, w, h, s->pdstmem,
					   w * 4);
	if (id == SC_C)
		sws_init(s);
	for (k = 0; k < s->n; k++) {
		struct surf *fb = &s->fb[k];

		if (id == SC_C && k) {
			/* libswscale's output, the size of the destination */
			s->pimg[k] = pixman_image_create_bits(PIXMAN_a8r8g8b8,
							      w, h, s->swsmem,
							      w * 4);
		} else {
			s->pimg[k] = pixman_image_create_bits(
				k ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8, fb->w,
				fb->h, (uint32_t *)fb->mem[0], fb->pitch[0]);
		}
		s->pop[k] = k ? PIXMAN_OP_OVER : PIXMAN_OP_SRC;
		s->px[k] = s->desc[k].dst_x;
		s->py[k] = s->desc[k].dst_y;
		s->pw[k] = s->desc[k].dst_w;
		s->ph[k] = s->desc[k].dst_h;
		if (s->desc[k].rotation == ATOMKMS_ROTATE_90) {
			/*
			 * DRM's ROTATE_90 is counter-clockwise: output pixel
			 * (X, Y) shows framebuffer pixel (fb_w - 1 - Y, X).
			 * pixman maps destination to source at pixel
			 * centres: x' = fb_w - y, y' = x.
			 */
			pixman_transform_t t;

			pixman_transform_init_identity(&t);
			t.matrix[0][0] = 0;
			t.matrix[0][1] = pixman_int_to_fixed(-1);
			t.matrix[0][2] = pixman_int_to_fixed(fb->w);
			t.matrix[1][0] = pixman_int_to_fixed(1);
			t.matrix[1][1] = 0;
			t.matrix[1][2] = 0;
			pixman_image_set_transform(s->pimg[k], &t);
			pixman_image_set_filter(s->pimg[k],
						PIXMAN_FILTER_NEAREST, NULL, 0);
		}
	}
}

static void scene_fini(struct scene *s)
{
	if (s->sws)
		sws_freeContext(s->sws);
	free(s->swsmem);
	for (u32 k = 0; k < s->n; k++) {
		if (s->pimg[k])
			pixman_image_unref(s->pimg[k]);
		surf_free(&s->fb[k]);
	}
	if (s->pdst)
		pixman_image_unref(s->pdst);
	free(s->pdstmem);
	free(s->scratch);
	free(s->wbmem);
}

/* The line loops measured: scalar first. */
#define MAX_LEVELS 3
static const struct atomkms_simd_ops *levels[MAX_LEVELS];
static int num_levels, chosen, crc_chosen;
static u32 calib_mpx[MAX_LEVELS], crc_calib_mpx[MAX_LEVELS];

/* ---- the measured operations ---- */

struct op {
	struct scene *s;
	bool fast, crc;
	void *src, *dst;
	size_t len;
};

/* The levels this build and CPU run. */
static void levels_detect(void)
{
	levels[num_levels++] = &atomkms_simd_scalar;
#ifdef BENCH_SIMD
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse2"))
		levels[num_levels++] = &atomkms_simd_sse2;
	if (__builtin_cpu_supports("avx2"))
		levels[num_levels++] = &atomkms_simd_avx2;
#endif
}

/* Mpx/s of 1 ms of a calibration workload on level @l (@crc: the CRC's). */
static u32 calib_time(int l, bool crc, u32 *s, u32 *d)
{
	u32 h[ATOMKMS_CRC_LANES] = { 0 };
	struct timespec a, b;
	double ns;
	u64 px = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		if (crc)
			px += atomkms_simd_crc_calib_step(levels[l], h, s);
		else
			px += atomkms_simd_calib_step(levels[l], s, d);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	} while (ns < 1e6);
	return px * 1e3 / ns;
}

/* And the ones the module would pick: line loops, and the CRC's apart. */
static void levels_init(void)
{
	u32 s[ATOMKMS_SIMD_CALIB_PX], d[ATOMKMS_SIMD_CALIB_PX];
	int l, round;

	levels_detect();
	/* module/atomkms_simd_choice.c's calibration: 2 rounds of 1 ms. */
	atomkms_simd_calib_init(s, d);
	for (round = 0; round < 2; round++) {
		for (l = 0; l < num_levels; l++) {
			u32 mpx = calib_time(l, false, s, d);

			if (mpx > calib_mpx[l])
				calib_mpx[l] = mpx;
			mpx = calib_time(l, true, s, d);
			if (mpx > crc_calib_mpx[l])
				crc_calib_mpx[l] = mpx;
		}
	}
	for (l = 1; l < num_levels; l++) {
		if (calib_mpx[l] > calib_mpx[chosen])
			chosen = l;
		if (crc_calib_mpx[l] > crc_calib_mpx[crc_chosen])
			crc_chosen = l;
	}
}

static void op_ours(struct op *o)
{
	o->s->frame.flags = o->fast ? 0 : ATOMKMS_FRAME_GENERAL;
	o->s->frame.crc = o->crc ? &o->s->crc : NULL;
	if (atomkms_compose_frame(&o->s->frame, o->s->scratch)) {
		fprintf(stderr, "bench_compose: compose failed\n");
		exit(1);
	}
}

static void op_pixman(struct op *o)
{
	struct scene *s = o->s;

	if (s->sws) {
		const struct surf *v = &s->fb[1];
		const u8 *const src[4] = { v->mem[0], v->mem[1] };
		const int sstride[4] = { (int)v->pitch[0], (int)v->pitch[1] };
		u8 *const dst[4] = { (u8 *)s->swsmem };
		const int dstride[4] = { (int)s->w * 4 };

		sws_scale(s->sws, src, sstride, 0, v->h, dst, dstride);
	}
	for (u32 k = 0; k < s->n; k++)
		pixman_image_composite32(s->pop[k], s->pimg[k], NULL, s->pdst,
					 0, 0, 0, 0, s->px[k], s->py[k],
					 s->pw[k], s->ph[k]);
}

static void op_memcpy(struct op *o)
{
	memcpy(o->dst, o->src, o->len);
	__asm__ volatile("" : : "r"(o->dst) : "memory");
}

/*
 * The clock: by default the thread's CPU time, so that other processes on a
 * busy machine (they take the CPU away, not counted) disturb the medians
 * less; --wall for CLOCK_MONOTONIC. On an idle machine both agree.
 */
static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(clock_id, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define MAX_SAMPLES 101

static int min_samples = 9, max_samples = 41;
/* --scene: the one scene measured (-1: all) */
static int only_scene = -1;
static double budget_ms = 1500;
static bool verbose;

struct stat {
	double med, p25, p75, min;
	int n;
};

static struct stat measure(void (*fn)(struct op *), struct op *o,
			   const char *what)
{
	double t[MAX_SAMPLES], start;
	struct stat st;
	int n = 0;

	fn(o);		/* warm up: caches, page faults, branch predictors */
	fn(o);
	start = now_ms();
	while (n < max_samples &&
	       (n < min_samples || now_ms() - start < budget_ms)) {
		double t0 = now_ms();

		fn(o);
		t[n++] = now_ms() - t0;
	}
	qsort(t, n, sizeof(t[0]), cmp_double);
	st.n = n;
	st.min = t[0];
	st.med = n & 1 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	st.p25 = t[n / 4];
	st.p75 = t[(3 * n) / 4];
	if (verbose)
		fprintf(stderr, "  %-28s n=%2d min %8.3f p25 %8.3f med %8.3f p75 %8.3f ms\n",
			what, n, st.min, st.p25, st.med, st.p75);
	return st;
}

/* Pixels of our writeback buffer that differ from pixman's (RGB only). */
static u32 diff_pixman(const struct scene *s)
{
	const u32 *a = (const u32 *)s->wbmem, *b = s->pdstmem;
	u32 bad = 0;

	for (size_t i = 0; i < (size_t)s->w * s->h; i++)
		bad += ((a[i] ^ b[i]) & 0xffffff) != 0;
	return bad;
}

struct row {
	double fast, fast_crc, gen, gen_crc, pix;
	u64 crc_fast, crc_gen;
	u32 diff;
	bool has_pix;
	/* fast paths on each level's line loops, CRC off and on */
	double lv_fast[MAX_LEVELS], lv_crc[MAX_LEVELS];
	bool lv_same[MAX_LEVELS];	/* CRC and pixman check as scalar's */
};

static struct row results[2][NUM_SCENES];

/* Scene @id is measured in this run (--scene). */
static bool measured(int id)
{
	return only_scene < 0 || id == only_scene;
}
static double memcpy_ms[2];
static const u32 res_w[2] = { 1920, 3840 }, res_h[2] = { 1080, 2160 };

/* The median ms of our compositor on @o's scene, fast or general, +crc. */
static double measure_ours(struct op *o, bool fast, bool crc,
			   const char *scene)
{
	char what[64];

	o->fast = fast;
	o->crc = crc;
	snprintf(what, sizeof(what), "%s %s%s", scene,
		 fast ? "fast" : "general", crc ? " crc" : "");
	return measure(op_ours, o, what).med;
}

static void run_res(int r)
{
	u32 w = res_w[r], h = res_h[r];
	size_t len = (size_t)w * h * 4;
	struct op o = { 0 };

	o.src = xalloc(len);
	o.dst = xalloc(len);
	memset(o.src, 0x5a, len);
	memset(o.dst, 0, len);
	o.len = len;
	if (verbose)
		fprintf(stderr, "%ux%u memcpy\n", w, h);
	memcpy_ms[r] = measure(op_memcpy, &o, "memcpy").med;
	free(o.src);
	free(o.dst);

	for (int id = 0; id < NUM_SCENES; id++) {
		struct scene s;
		struct row *row = &results[r][id];

		if (!measured(id))
			continue;
		if (verbose)
			fprintf(stderr, "%ux%u scene %s\n", w, h, scene_id[id]);
		scene_init(&s, id, w, h, true);
		memset(&o, 0, sizeof(o));
		o.s = &s;

		row->gen_crc = measure_ours(&o, false, true, scene_id[id]);
		row->crc_gen = s.crc;
		row->gen = measure_ours(&o, false, false, scene_id[id]);
		row->fast_crc = measure_ours(&o, true, true, scene_id[id]);
		row->crc_fast = s.crc;
		/* Last, so that the writeback buffer holds the fast output. */
		row->fast = measure_ours(&o, true, false, scene_id[id]);
		row->has_pix = s.has_pixman;
		if (s.has_pixman) {
			char what[64];

			snprintf(what, sizeof(what), "%s pixman", scene_id[id]);
			row->pix = measure(op_pixman, &o, what).med;
			/* (c): libswscale's colours are its own. */
			row->diff = id == SC_C ? 0 : diff_pixman(&s);
		}
		/* The same fast paths on each level's line loops. */
		row->lv_fast[0] = row->fast;
		row->lv_crc[0] = row->fast_crc;
		row->lv_same[0] = true;
		for (int l = 1; l < num_levels; l++) {
			char what[16];

			s.frame.simd = levels[l];
			snprintf(what, sizeof(what), "%s %s", scene_id[id],
				 levels[l]->name);
			row->lv_crc[l] = measure_ours(&o, true, true, what);
			row->lv_same[l] = s.crc == row->crc_fast;
			row->lv_fast[l] = measure_ours(&o, true, false, what);
			if (s.has_pixman && id != SC_C)
				row->lv_same[l] &= diff_pixman(&s) == row->diff;
			s.frame.simd = NULL;
		}
		scene_fini(&s);
	}
}

/* Fast paths, CRC off, per level of line loops, against pixman. */
static void print_levels(void)
{
	int l;

	printf("\nLine loops (include/atomkms_simd.h), fast paths, ms per frame (median), CRC off [with CRC]; ratio to pixman, or for (a) the share of memcpy bandwidth\n");
	printf("calibration as the module does it at load, Mpx/s:");
	for (l = 0; l < num_levels; l++)
		printf(" %s %u", levels[l]->name, calib_mpx[l]);
	printf(" -> the module would pick %s\n", levels[chosen]->name);
	printf("the CRC's own calibration (crc_blocks), Mpx/s:");
	for (l = 0; l < num_levels; l++)
		printf(" %s %u", levels[l]->name, crc_calib_mpx[l]);
	printf(" -> the module would pick %s for the CRC\n",
	       levels[crc_chosen]->name);
	for (int r = 0; r < 2; r++) {
		printf("%ux%u %-26s", res_w[r], res_h[r], "scene");
		for (l = 0; l < num_levels; l++)
			printf(" | %-26s", levels[l]->name);
		printf(" | %8s\n", "pixman");
		for (int id = 0; id < NUM_SCENES; id++) {
			const struct row *x = &results[r][id];
			char name[48];

			if (!measured(id))
				continue;
			snprintf(name, sizeof(name), "(%s) %s", scene_id[id],
				 scene_desc[id]);
			printf("%-36s", name);
			for (l = 0; l < num_levels; l++) {
				char rt[16];

				if (id == SC_A)
					snprintf(rt, sizeof(rt), "%3.0f%%mc",
						 100 * memcpy_ms[r] / x->lv_fast[l]);
				else if (x->has_pix)
					snprintf(rt, sizeof(rt), "%6.2fx",
						 x->lv_fast[l] / x->pix);
				else
					snprintf(rt, sizeof(rt), "-");
				printf(" | %7.3f [%7.3f] %-7s%s", x->lv_fast[l],
				       x->lv_crc[l], rt, x->lv_same[l] ? " " : "!");
			}
			if (x->has_pix)
				printf(" | %8.3f\n", x->pix);
			else if (id == SC_A)
				printf(" | memcpy %.3f\n", memcpy_ms[r]);
			else
				printf(" | %8s\n", "n/a");
		}
	}
	printf("(!: that level's CRC or pixman check differs from the scalar loops': a bug)\n");
}

static void print_tables(void)
{
	double load = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	printf("clock: %s; load average (1 min) at the end %.2f\n",
	       clock_id == CLOCK_MONOTONIC ? "wall (CLOCK_MONOTONIC)" :
	       "thread CPU time (CLOCK_THREAD_CPUTIME_ID)", load);
	for (int r = 0; r < 2; r++) {
		printf("\n%ux%u, XRGB8888 writeback, ms per frame (median); memcpy of one frame %.3f ms\n",
		       res_w[r], res_h[r], memcpy_ms[r]);
		printf("%-34s %8s %8s %8s %8s %8s | %6s %6s | %6s %6s | %s\n",
		       "scene", "fast", "fast+crc", "general", "gen+crc",
		       "pixman", "ours/p", "gen/p", "mc/ours", "mc/gen",
		       "check");
		for (int id = 0; id < NUM_SCENES; id++) {
			const struct row *x = &results[r][id];
			char name[48], pix[16], rp[16], rg[16], chk[64];

			if (!measured(id))
				continue;
			snprintf(name, sizeof(name), "(%s) %s", scene_id[id],
				 scene_desc[id]);
			if (x->has_pix) {
				snprintf(pix, sizeof(pix), "%8.3f", x->pix);
				snprintf(rp, sizeof(rp), "%6.2f", x->fast / x->pix);
				snprintf(rg, sizeof(rg), "%6.2f", x->gen / x->pix);
			} else {
				snprintf(pix, sizeof(pix), "%8s", "n/a");
				snprintf(rp, sizeof(rp), "%6s", "-");
				snprintf(rg, sizeof(rg), "%6s", "-");
			}
			snprintf(chk, sizeof(chk), "crc fast%sgeneral",
				 x->crc_fast == x->crc_gen ? "=" : "!=");
			if (id == SC_C)
				snprintf(chk + strlen(chk),
					 sizeof(chk) - strlen(chk),
					 ", colours not compared");
			else if (x->has_pix)
				snprintf(chk + strlen(chk),
					 sizeof(chk) - strlen(chk),
					 x->diff ? ", %u px != pixman" :
					 ", =pixman", x->diff);
			printf("%-34s %8.3f %8.3f %8.3f %8.3f %s | %s %s | %5.0f%% %5.0f%% | %s\n",
			       name, x->fast, x->fast_crc, x->gen, x->gen_crc,
			       pix, rp, rg, 100 * memcpy_ms[r] / x->fast,
			       100 * memcpy_ms[r] / x->gen, chk);
		}
	}
	print_levels();
	printf("\nfast = fast paths and occlusion culling, general = ATOMKMS_FRAME_GENERAL;\n"
	       "+crc = with the frame CRC; ours/p, gen/p = ms ratio to pixman (lower is better);\n"
	       "mc/ours = memcpy_ms / ours_ms, the share of memcpy bandwidth reached.\n"
	       "pixman: (a) SRC; (b), (bu) SRC + 3 x OVER; (d) with a 90 degree transform;\n"
	       "(c): libswscale (SWS_BILINEAR, NV12 720p to BGRA at the output size), then pixman SRC + OVER;\n"
	       "its colours differ from ours (its own rounding and chroma siting): only the times compare.\n");
}

/*
 * Issue 17's targets, on this build's figures, each line led by @label
 * (bench/run.sh passes --targets kernel-flags for the build with the
 * kernel's flags: the one the targets are judged on).
 */
static void print_targets(const char *label)
{
	static const struct {
		int id;
		double max;
	} vs_pixman[] = { { SC_B, 0.8 }, { SC_BU, 1.0 }, { SC_D, 1.0 } };

	const char *lv = levels[chosen]->name;

	printf("\nTargets (issue 17), %s build, %s line loops (what the module picks on this CPU)\n",
	       label, lv);
	for (int r = 0; r < 2; r++) {
		for (size_t t = 0; t < ARRAY_SIZE(vs_pixman); t++) {
			const struct row *x = &results[r][vs_pixman[t].id];
			double ours = x->lv_fast[chosen], ratio = ours / x->pix;

			if (!measured(vs_pixman[t].id))
				continue;
			printf("%s scene (%s) %ux%u <= %.1fx pixman: ours (%s) %.3f ms, pixman %.3f ms, %.2fx -> %s\n",
			       label, scene_id[vs_pixman[t].id], res_w[r],
			       res_h[r], vs_pixman[t].max, lv, ours, x->pix,
			       ratio, ratio <= vs_pixman[t].max &&
			       x->lv_same[chosen] ? "MET" : "NOT MET");
		}
	}
	for (int r = 0; r < 2 && measured(SC_C); r++) {
		const struct row *x = &results[r][SC_C];
		double ours = x->lv_fast[chosen], ratio = ours / x->pix;

		printf("%s scene (c) %ux%u <= 1.0x libswscale + pixman (times only; colours differ): ours (%s) %.3f ms, libswscale + pixman %.3f ms, %.2fx -> %s\n",
		       label, res_w[r], res_h[r], lv, ours, x->pix, ratio,
		       ratio <= 1.0 && x->lv_same[chosen] ? "MET" : "NOT MET");
	}
	for (int r = 0; r < 2 && measured(SC_A); r++) {
		const struct row *a = &results[r][SC_A];
		double ours = a->lv_fast[chosen], bw = memcpy_ms[r] / ours;

		printf("%s scene (a) %ux%u >= 90%% of memcpy bandwidth: memcpy %.3f ms, ours (%s) %.3f ms, %.0f%% -> %s\n",
		       label, res_w[r], res_h[r], memcpy_ms[r], lv, ours,
		       100 * bw, bw >= 0.9 && a->lv_same[chosen] ? "MET" :
		       "NOT MET");
	}
}

/* The scene named @name, or -1 (and a message). */
static int scene_lookup(const char *name)
{
	int id;

	for (id = 0; id < NUM_SCENES; id++)
		if (!strcmp(name, scene_id[id]))
			return id;
	fprintf(stderr, "bench_compose: unknown scene %s\n", name);
	return -1;
}

static int count_mode(int argc, char **argv)
{
	struct scene s;
	struct op o = { 0 };
	int id, k;

	if (argc < 6) {
		fprintf(stderr, "usage: %s --count SCENE WIDTH HEIGHT K [general] [crc] [LEVEL]\n",
			argv[0]);
		return 2;
	}
	id = scene_lookup(argv[2]);
	if (id < 0)
		return 2;
	scene_init(&s, id, atoi(argv[3]), atoi(argv[4]), false);
	o.s = &s;
	o.fast = true;
	levels_detect();
	for (k = 6; k < argc; k++) {
		if (!strcmp(argv[k], "general"))
			o.fast = false;
		else if (!strcmp(argv[k], "crc"))
			o.crc = true;
		for (int l = 0; l < num_levels; l++)
			if (!strcmp(argv[k], levels[l]->name))
				s.frame.simd = levels[l];
	}
	for (k = atoi(argv[5]); k > 0; k--)
		op_ours(&o);
	printf("crc %016llx\n", (unsigned long long)s.crc);
	scene_fini(&s);
	return 0;
}

struct band_thread {
	struct scene *s;
	struct atomkms_band band;
	void *scratch;
	pthread_t t;
};

static void *band_run(void *arg)
{
	struct band_thread *b = arg;

	if (atomkms_compose_band(&b->s->frame, b->scratch, &b->band)) {
		fprintf(stderr, "bench_compose: band failed\n");
		exit(1);
	}
	return NULL;
}

/* --bands: K frames in N bands on N threads (band 0 on this one). */
static int bands_mode(int argc, char **argv)
{
	struct band_thread b[16];
	struct atomkms_band bands[16];
	struct scene s;
	double *ms;
	int id, k, i, n, frames;

	if (argc < 7 || (n = atoi(argv[6])) < 1 || n > 16 ||
	    (frames = atoi(argv[5])) < 1) {
		fprintf(stderr, "usage: %s --bands SCENE WIDTH HEIGHT K N (N 1..16)\n",
			argv[0]);
		return 2;
	}
	id = scene_lookup(argv[2]);
	if (id < 0)
		return 2;
	scene_init(&s, id, atoi(argv[3]), atoi(argv[4]), false);
	s.frame.crc = &s.crc;
	ms = xalloc(frames * sizeof(*ms));
	for (i = 0; i < n; i++) {
		b[i].s = &s;
		b[i].scratch = xalloc(atomkms_compose_scratch_size(s.frame.width));
		atomkms_compose_scratch_init(b[i].scratch, s.frame.width);
	}
	for (k = -1; k < frames; k++) {	/* frame -1 warms up */
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < n; i++)
			atomkms_band_split(&b[i].band, s.frame.height, n, i);
		for (i = 1; i < n; i++)
			if (pthread_create(&b[i].t, NULL, band_run, &b[i])) {
				fprintf(stderr, "bench_compose: no thread\n");
				return 1;
			}
		band_run(&b[0]);
		for (i = 1; i < n; i++)
			pthread_join(b[i].t, NULL);
		for (i = 0; i < n; i++)
			bands[i] = b[i].band;
		s.crc = atomkms_compose_crc(bands, n);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (k >= 0)
			ms[k] = (t1.tv_sec - t0.tv_sec) * 1e3 +
				(t1.tv_nsec - t0.tv_nsec) / 1e6;
	}
	qsort(ms, frames, sizeof(*ms), cmp_double);
	printf("bands %d ms %.3f crc %016llx\n", n, ms[frames / 2],
	       (unsigned long long)s.crc);
	for (i = 0; i < n; i++)
		free(b[i].scratch);
	free(ms);
	scene_fini(&s);
	return 0;
}

int main(int argc, char **argv)
{
	const char *targets = NULL;
	int i;

	if (argc > 1 && !strcmp(argv[1], "--count"))
		return count_mode(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "--bands"))
		return bands_mode(argc, argv);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q")) {
			min_samples = 5;
			max_samples = 15;
			budget_ms = 400;
		} else if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--wall")) {
			clock_id = CLOCK_MONOTONIC;
		} else if (!strcmp(argv[i], "--targets") && i + 1 < argc) {
			targets = argv[++i];
		} else if (!strcmp(argv[i], "--scene") && i + 1 < argc) {
			only_scene = scene_lookup(argv[++i]);
			if (only_scene < 0)
				return 2;
		} else {
			fprintf(stderr, "usage: %s [-q] [-v] [--wall] [--targets LABEL] [--scene SCENE] | --count SCENE W H K [general] [crc]\n",
				argv[0]);
			return 2;
		}
	}
	levels_init();
	for (i = 0; i < 2; i++)
		run_res(i);
	print_tables();
	if (targets)
		print_targets(targets);
	return 0;
}
