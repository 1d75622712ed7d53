// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reference compositor of the unit tests: one output pixel at a time,
 * every step spelt out, floating point where it is the obvious way (YCbCr,
 * half floats). See ref_compose.h.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ref_compose.h"

u64 test_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 test_rand_below(u64 *state, u32 n)
{
	return n ? (u32)(test_rand(state) % n) : 0;
}

enum test_guard test_fb_guard = TEST_GUARD_END;

static size_t test_page_size(void)
{
	static size_t ps;

	if (!ps)
		ps = (size_t)sysconf(_SC_PAGESIZE);
	return ps;
}

char test_what[256];
u64 test_guarded_allocs;

/* The live guarded buffers, for the fault handler's report. */
#define TEST_MAX_LIVE	256
static struct {
	u8 *base;
	size_t len;
	u8 *data;
	size_t size;
} test_live[TEST_MAX_LIVE];

/*
 * Freed mappings, guard pages and all, kept for reuse: tests allocate
 * hundreds of thousands of small buffers, and the system calls would
 * dominate their time.
 */
#define TEST_POOL	64
static struct {
	u8 *base;
	size_t len;
} test_pool[TEST_POOL];

u8 *test_guarded_alloc(size_t size, void **base, size_t *len)
{
	size_t ps = test_page_size();
	size_t data = (size + ps - 1) / ps * ps;
	u8 *m = NULL, *d;
	u32 i;

	*len = data + 2 * ps;
	for (i = 0; i < TEST_POOL; i++)
		if (test_pool[i].base && test_pool[i].len == *len) {
			m = test_pool[i].base;
			test_pool[i].base = NULL;
			break;
		}
	if (!m) {
		m = mmap(NULL, *len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (m == MAP_FAILED ||
		    (data && mprotect(m + ps, data, PROT_READ | PROT_WRITE))) {
			perror("test_guarded_alloc");
			exit(2);
		}
	}
	*base = m;
	d = test_fb_guard == TEST_GUARD_START ? m + ps : m + ps + data - size;
	for (i = 0; i < TEST_MAX_LIVE; i++)
		if (!test_live[i].base) {
			test_live[i].base = m;
			test_live[i].len = *len;
			test_live[i].data = d;
			test_live[i].size = size;
			break;
		}
	test_guarded_allocs++;
	return d;
}

void test_guarded_free(void *base, size_t len)
{
	u32 i;

	if (!base)
		return;
	for (i = 0; i < TEST_MAX_LIVE; i++)
		if (test_live[i].base == base)
			test_live[i].base = NULL;
	for (i = 0; i < TEST_POOL; i++)
		if (!test_pool[i].base) {
			test_pool[i].base = base;
			test_pool[i].len = len;
			return;
		}
	munmap(base, len);
}

static void test_guard_fault(int sig, siginfo_t *si, void *uc)
{
	u8 *a = si->si_addr;
	char msg[1024], where[160] = "";
	int n;
	u32 i;

	(void)uc;
	for (i = 0; i < TEST_MAX_LIVE; i++) {
		ptrdiff_t off = a - test_live[i].data;

		if (!test_live[i].base || a < test_live[i].base ||
		    a >= test_live[i].base + test_live[i].len)
			continue;
		if (off < 0)
			snprintf(where, sizeof(where),
				 ": %td bytes before a guarded buffer of %zu bytes",
				 -off, test_live[i].size);
		else
			snprintf(where, sizeof(where),
				 ": byte %td of a guarded buffer of %zu bytes (%td past its end)",
				 off, test_live[i].size,
				 off - (ptrdiff_t)test_live[i].size + 1);
	}
	n = snprintf(msg, sizeof(msg), "\nFAULT (signal %d) at %p%s\n  while: %s\n",
		     sig, (void *)a, where, test_what[0] ? test_what : "?");
	if (n > (int)sizeof(msg) - 1)
		n = sizeof(msg) - 1;
	if (write(2, msg, n) < 0)
		n = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

void test_guard_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = test_guard_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* Pixels per block of a format's one plane: 2 for packed 4:2:2. */
static u32 test_block_w(const struct atomkms_format *f)
{
	return f->num_planes == 1 ? f->hsub : 1;
}

u32 test_fb_width(u32 fourcc, u32 width)
{
	const struct atomkms_format *f = atomkms_format_lookup(fourcc);
	u32 bw = f ? test_block_w(f) : 1;

	return (width + bw - 1) / bw * bw;
}

void test_fb_alloc(struct test_fb *fb, u32 fourcc, u32 width, u32 height,
		   u32 pad, u64 *rng)
{
	const struct atomkms_format *f = atomkms_format_lookup(fourcc);
	u32 p;

	if (!f) {
		fprintf(stderr, "test_fb_alloc: unknown format %08x\n", fourcc);
		exit(2);
	}
	if (width % test_block_w(f) || !width || !height) {
		/* As the driver's ADDFB2 does; see test_fb_width(). */
		fprintf(stderr, "test_fb_alloc: %s: illegal size %ux%u\n",
			f->name, width, height);
		exit(2);
	}
	memset(fb, 0, sizeof(*fb));
	fb->fourcc = fourcc;
	fb->width = width;
	fb->height = height;
	for (p = 0; p < f->num_planes; p++) {
		/* drm_format_info_plane_width()/_height(), _min_pitch() */
		u32 w = p ? (width + f->hsub - 1) / f->hsub : width;
		u32 h = p ? (height + f->vsub - 1) / f->vsub : height;
		u32 min_pitch = w * f->cpp[p];
		size_t i;

		fb->pitch[p] = min_pitch + pad;
		fb->size[p] = (size_t)fb->pitch[p] * (h - 1) + min_pitch;
		fb->mem[p] = test_guarded_alloc(fb->size[p], &fb->map_base[p],
						&fb->map_len[p]);
		for (i = 0; i < fb->size[p]; i++)
			fb->mem[p][i] = rng ? (u8)test_rand(rng) : 0;
	}
}

void test_fb_free(struct test_fb *fb)
{
	u32 p;

	for (p = 0; p < 3; p++)
		test_guarded_free(fb->map_base[p], fb->map_len[p]);
	memset(fb, 0, sizeof(*fb));
}

void test_fb_src(const struct test_fb *fb, struct atomkms_plane_src *src)
{
	u32 p;

	memset(src, 0, sizeof(*src));
	for (p = 0; p < 3; p++) {
		src->map[p] = fb->mem[p];
		src->pitch[p] = fb->pitch[p];
	}
}

void test_desc_full(struct atomkms_plane_desc *d, const struct test_fb *fb,
		    s32 x, s32 y, u32 crtc_w, u32 crtc_h)
{
	memset(d, 0, sizeof(*d));
	d->fourcc = fb->fourcc;
	d->fb_width = fb->width;
	d->fb_height = fb->height;
	d->src_w = fb->width << 16;
	d->src_h = fb->height << 16;
	d->dst_x = x;
	d->dst_y = y;
	d->dst_w = fb->width;
	d->dst_h = fb->height;
	d->crtc_width = crtc_w;
	d->crtc_height = crtc_h;
	d->rotation = ATOMKMS_ROTATE_0;
	d->alpha = 0xffff;
	d->blend_mode = ATOMKMS_BLEND_PREMULTI;
}

/* ---- pixel decoding ---- */

static u64 le(const u8 *p, int n)
{
	u64 v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static u32 field(u64 v, int shift, int bits)
{
	return (u32)(v >> shift) & ((1u << bits) - 1);
}

/* The documented expansions to 16 bits. */
static u16 expand(u32 v, int bits)
{
	u32 out = 0;
	int pos;

	if (bits == 16)
		return v;
	if (bits == 8)
		return v * 257;
	if (bits < 8) {
		/* Replicate to 8 bits (pixman), then 8 to 16. */
		for (pos = 8 - bits; pos > -bits; pos -= bits)
			out |= pos >= 0 ? v << pos : v >> -pos;
		return (out & 0xff) * 257;
	}
	for (pos = 16 - bits; pos > -bits; pos -= bits)
		out |= pos >= 0 ? v << pos : v >> -pos;
	return out & 0xffff;
}

static u16 half(u32 h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(1024 + m, e - 25);
	if (h & 0x8000)
		v = -v;
	if (isnan(v) || v <= 0)
		return 0;
	if (v >= 1)
		return 0xffff;
	return (u16)floor(v * 65535 + 0.5);
}

struct rgb_layout {
	u32 fourcc;
	int bytes;
	int as, ab, rs, rb, gs, gb, bs, bb;
	bool half;
};

/* From the bit diagrams of drm_fourcc.h. */
static const struct rgb_layout rgb_layouts[] = {
	{ ATOMKMS_FMT_XRGB8888, 4, 0, 0, 16, 8, 8, 8, 0, 8, false },
	{ ATOMKMS_FMT_ARGB8888, 4, 24, 8, 16, 8, 8, 8, 0, 8, false },
	{ ATOMKMS_FMT_XBGR8888, 4, 0, 0, 0, 8, 8, 8, 16, 8, false },
	{ ATOMKMS_FMT_ABGR8888, 4, 24, 8, 0, 8, 8, 8, 16, 8, false },
	{ ATOMKMS_FMT_RGBX8888, 4, 0, 0, 24, 8, 16, 8, 8, 8, false },
	{ ATOMKMS_FMT_RGBA8888, 4, 0, 8, 24, 8, 16, 8, 8, 8, false },
	{ ATOMKMS_FMT_BGRX8888, 4, 0, 0, 8, 8, 16, 8, 24, 8, false },
	{ ATOMKMS_FMT_BGRA8888, 4, 0, 8, 8, 8, 16, 8, 24, 8, false },
	{ ATOMKMS_FMT_RGB888, 3, 0, 0, 16, 8, 8, 8, 0, 8, false },
	{ ATOMKMS_FMT_BGR888, 3, 0, 0, 0, 8, 8, 8, 16, 8, false },
	{ ATOMKMS_FMT_RGB565, 2, 0, 0, 11, 5, 5, 6, 0, 5, false },
	{ ATOMKMS_FMT_BGR565, 2, 0, 0, 0, 5, 5, 6, 11, 5, false },
	{ ATOMKMS_FMT_XRGB1555, 2, 0, 0, 10, 5, 5, 5, 0, 5, false },
	{ ATOMKMS_FMT_ARGB1555, 2, 15, 1, 10, 5, 5, 5, 0, 5, false },
	{ ATOMKMS_FMT_XRGB2101010, 4, 0, 0, 20, 10, 10, 10, 0, 10, false },
	{ ATOMKMS_FMT_ARGB2101010, 4, 30, 2, 20, 10, 10, 10, 0, 10, false },
	{ ATOMKMS_FMT_XBGR2101010, 4, 0, 0, 0, 10, 10, 10, 20, 10, false },
	{ ATOMKMS_FMT_ABGR2101010, 4, 30, 2, 0, 10, 10, 10, 20, 10, false },
	{ ATOMKMS_FMT_XRGB16161616, 8, 0, 0, 32, 16, 16, 16, 0, 16, false },
	{ ATOMKMS_FMT_ARGB16161616, 8, 48, 16, 32, 16, 16, 16, 0, 16, false },
	{ ATOMKMS_FMT_XRGB16161616F, 8, 0, 0, 32, 16, 16, 16, 0, 16, true },
	{ ATOMKMS_FMT_ARGB16161616F, 8, 48, 16, 32, 16, 16, 16, 0, 16, true },
};

u32 ref_format_depth(u32 fourcc)
{
	switch (fourcc) {
	case ATOMKMS_FMT_XRGB2101010: case ATOMKMS_FMT_ARGB2101010:
	case ATOMKMS_FMT_XBGR2101010: case ATOMKMS_FMT_ABGR2101010:
	case ATOMKMS_FMT_P010:
		return 10;
	case ATOMKMS_FMT_XRGB16161616: case ATOMKMS_FMT_ARGB16161616:
	case ATOMKMS_FMT_XRGB16161616F: case ATOMKMS_FMT_ARGB16161616F:
		return 16;
	}
	return 8;
}

static bool ref_has_alpha(u32 fourcc)
{
	switch (fourcc) {
	case ATOMKMS_FMT_ARGB8888: case ATOMKMS_FMT_ABGR8888:
	case ATOMKMS_FMT_RGBA8888: case ATOMKMS_FMT_BGRA8888:
	case ATOMKMS_FMT_ARGB1555: case ATOMKMS_FMT_ARGB2101010:
	case ATOMKMS_FMT_ABGR2101010: case ATOMKMS_FMT_ARGB16161616:
	case ATOMKMS_FMT_ARGB16161616F:
		return true;
	}
	return false;
}

static const u8 *at(const struct atomkms_plane_src *s, int plane, u32 x,
		    u32 y, u32 bytes)
{
	return s->map[plane] + (size_t)y * s->pitch[plane] + (size_t)x * bytes;
}

/* YCbCr: Y, Cb, Cr codes MSB-aligned to 16 bits. */
static struct atomkms_px ref_fetch_yuv(u32 fourcc,
				       const struct atomkms_plane_src *s,
				       u32 x, u32 y)
{
	u32 Y = 0, U = 0, V = 0;
	const u8 *c;

	switch (fourcc) {
	case ATOMKMS_FMT_NV12: case ATOMKMS_FMT_NV21:
		Y = *at(s, 0, x, y, 1);
		c = at(s, 1, x / 2, y / 2, 2);
		U = c[fourcc == ATOMKMS_FMT_NV21];
		V = c[fourcc != ATOMKMS_FMT_NV21];
		break;
	case ATOMKMS_FMT_NV16: case ATOMKMS_FMT_NV61:
		Y = *at(s, 0, x, y, 1);
		c = at(s, 1, x / 2, y, 2);
		U = c[fourcc == ATOMKMS_FMT_NV61];
		V = c[fourcc != ATOMKMS_FMT_NV61];
		break;
	case ATOMKMS_FMT_NV24: case ATOMKMS_FMT_NV42:
		Y = *at(s, 0, x, y, 1);
		c = at(s, 1, x, y, 2);
		U = c[fourcc == ATOMKMS_FMT_NV42];
		V = c[fourcc != ATOMKMS_FMT_NV42];
		break;
	case ATOMKMS_FMT_YUV420:
		Y = *at(s, 0, x, y, 1);
		U = *at(s, 1, x / 2, y / 2, 1);
		V = *at(s, 2, x / 2, y / 2, 1);
		break;
	case ATOMKMS_FMT_YVU420:
		Y = *at(s, 0, x, y, 1);
		V = *at(s, 1, x / 2, y / 2, 1);
		U = *at(s, 2, x / 2, y / 2, 1);
		break;
	case ATOMKMS_FMT_YUV422:
		Y = *at(s, 0, x, y, 1);
		U = *at(s, 1, x / 2, y, 1);
		V = *at(s, 2, x / 2, y, 1);
		break;
	case ATOMKMS_FMT_YUV444:
		Y = *at(s, 0, x, y, 1);
		U = *at(s, 1, x, y, 1);
		V = *at(s, 2, x, y, 1);
		break;
	case ATOMKMS_FMT_YUYV:	/* Y0 Cb Y1 Cr */
		c = at(s, 0, x / 2, y, 4);
		Y = c[(x & 1) * 2];
		U = c[1];
		V = c[3];
		break;
	case ATOMKMS_FMT_UYVY:	/* Cb Y0 Cr Y1 */
		c = at(s, 0, x / 2, y, 4);
		Y = c[1 + (x & 1) * 2];
		U = c[0];
		V = c[2];
		break;
	case ATOMKMS_FMT_P010:
		Y = le(at(s, 0, x, y, 2), 2) >> 6;
		c = at(s, 1, x / 2, y / 2, 4);
		U = le(c, 2) >> 6;
		V = le(c + 2, 2) >> 6;
		return (struct atomkms_px){ 0xffff, V << 6, Y << 6, U << 6 };
	}
	return (struct atomkms_px){ 0xffff, V << 8, Y << 8, U << 8 };
}

struct atomkms_px ref_fetch_raw(u32 fourcc, const struct atomkms_plane_src *s,
				u32 x, u32 y)
{
	const struct rgb_layout *l = NULL;
	struct atomkms_px px;
	size_t i;
	u64 v;

	for (i = 0; i < sizeof(rgb_layouts) / sizeof(rgb_layouts[0]); i++)
		if (rgb_layouts[i].fourcc == fourcc)
			l = &rgb_layouts[i];
	if (!l)
		return ref_fetch_yuv(fourcc, s, x, y);
	v = le(at(s, 0, x, y, l->bytes), l->bytes);
	if (l->half) {
		px.a = l->ab ? half(field(v, l->as, 16)) : 0xffff;
		px.r = half(field(v, l->rs, 16));
		px.g = half(field(v, l->gs, 16));
		px.b = half(field(v, l->bs, 16));
		return px;
	}
	px.a = l->ab ? expand(field(v, l->as, l->ab), l->ab) : 0xffff;
	px.r = expand(field(v, l->rs, l->rb), l->rb);
	px.g = expand(field(v, l->gs, l->gb), l->gb);
	px.b = expand(field(v, l->bs, l->bb), l->bb);
	return px;
}

static u16 clamp_round(double v)
{
	v = floor(v * 65535 + 0.5);
	return v < 0 ? 0 : v > 65535 ? 65535 : (u16)v;
}

void ref_yuv_to_rgb(u32 encoding, u32 range, u32 depth,
		    const struct atomkms_px *in, struct atomkms_px *out)
{
	static const double k[3][2] = { { 0.299, 0.114 }, { 0.2126, 0.0722 },
					{ 0.2627, 0.0593 } };
	double kr = k[encoding][0], kb = k[encoding][1], kg = 1 - kr - kb;
	double y, u, v;

	if (range == ATOMKMS_YCBCR_LIMITED_RANGE) {
		y = (in->g / 256.0 - 16) / 219;
		u = (in->b / 256.0 - 128) / 224;
		v = (in->r / 256.0 - 128) / 224;
	} else {
		double max = (double)(((1u << depth) - 1) << (16 - depth));

		y = in->g / max;
		u = (in->b - 32768.0) / max;
		v = (in->r - 32768.0) / max;
	}
	out->a = in->a;
	out->r = clamp_round(y + (2 - 2 * kr) * v);
	out->g = clamp_round(y - 2 * kb * (1 - kb) / kg * u -
			     2 * kr * (1 - kr) / kg * v);
	out->b = clamp_round(y + (2 - 2 * kb) * u);
}

/*
 * ---- geometry: DRM's rectangle rotation (drm_rect_rotate() and
 * drm_rect_rotate_inv()), from a reflection and a counter-clockwise turn
 * ----
 */

struct rect {
	s64 x1, y1, x2, y2;
};

/* Reflect @r in a @width x @height space as @rotation's REFLECT bits say. */
static void rect_reflect(struct rect *r, s64 width, s64 height, u32 rotation)
{
	struct rect tmp = *r;

	if (rotation & ATOMKMS_REFLECT_X) {
		r->x1 = width - tmp.x2;
		r->x2 = width - tmp.x1;
	}
	if (rotation & ATOMKMS_REFLECT_Y) {
		r->y1 = height - tmp.y2;
		r->y2 = height - tmp.y1;
	}
}

/* Turn @r in a @width x @height space by @turn, one ATOMKMS_ROTATE_*. */
static void rect_turn(struct rect *r, s64 width, s64 height, u32 turn)
{
	struct rect tmp = *r;

	switch (turn) {
	case ATOMKMS_ROTATE_90:
		r->x1 = tmp.y1;
		r->x2 = tmp.y2;
		r->y1 = width - tmp.x2;
		r->y2 = width - tmp.x1;
		break;
	case ATOMKMS_ROTATE_180:
		rect_reflect(r, width, height,
			     ATOMKMS_REFLECT_X | ATOMKMS_REFLECT_Y);
		break;
	case ATOMKMS_ROTATE_270:
		r->x1 = height - tmp.y2;
		r->x2 = height - tmp.y1;
		r->y1 = tmp.x1;
		r->y2 = tmp.x2;
		break;
	}
}

/* drm_rect_rotate(): reflect, then turn. */
static void drm_rect_rotate(struct rect *r, s64 width, s64 height,
			    u32 rotation)
{
	rect_reflect(r, width, height, rotation);
	rect_turn(r, width, height, rotation & ATOMKMS_ROTATE_MASK);
}

/*
 * drm_rect_rotate_inv(): undo the turn (turn back: 90 and 270 swap, in the
 * turned space, whose width and height they swap too), then the reflection.
 */
static void drm_rect_rotate_inv(struct rect *r, s64 width, s64 height,
				u32 rotation)
{
	u32 turn = rotation & ATOMKMS_ROTATE_MASK;

	if (turn == ATOMKMS_ROTATE_90 || turn == ATOMKMS_ROTATE_270)
		rect_turn(r, height, width,
			  turn ^ (ATOMKMS_ROTATE_90 | ATOMKMS_ROTATE_270));
	else
		rect_turn(r, width, height, turn);
	rect_reflect(r, width, height, rotation);
}

/* Rotated-space pixel (a, b) of a plane, raw. */
static struct atomkms_px ref_fetch_rotated(const struct ref_plane *p,
					   s64 a, s64 b)
{
	const struct atomkms_plane_desc *d = &p->desc;
	struct rect r = { a, b, a + 1, b + 1 };

	drm_rect_rotate_inv(&r, d->fb_width, d->fb_height, d->rotation);
	if (r.x2 != r.x1 + 1 || r.y2 != r.y1 + 1 || r.x1 < 0 ||
	    r.y1 < 0 || r.x1 >= d->fb_width || r.y1 >= d->fb_height) {
		fprintf(stderr, "ref: bad pixel\n");
		exit(2);
	}
	return ref_fetch_raw(d->fourcc, &p->src, r.x1, r.y1);
}

static s64 clampll(s64 v, s64 lo, s64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static s64 floor_div(s64 a, s64 b)
{
	s64 q = a / b;

	return (a % b && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Sample plane @p for output pixel (X, Y), inside its destination. */
static struct atomkms_px ref_sample(const struct ref_plane *p, s64 X, s64 Y)
{
	const struct atomkms_plane_desc *d = &p->desc;
	struct rect r = { d->src_x, d->src_y, (s64)d->src_x + d->src_w,
			  (s64)d->src_y + d->src_h };
	s64 i = X - d->dst_x, j = Y - d->dst_y;
	s64 rw, rh, pa, pb, amin, amax, bmin, bmax;
	struct atomkms_px px;

	drm_rect_rotate(&r, (s64)d->fb_width << 16, (s64)d->fb_height << 16,
			d->rotation);
	rw = r.x2 - r.x1;
	rh = r.y2 - r.y1;
	/* Pixel centre (i + 1/2, j + 1/2) mapped, rounded down to 1/65536. */
	pa = r.x1 + (s64)(((unsigned __int128)(2 * i + 1) * rw) / (2 * d->dst_w));
	pb = r.y1 + (s64)(((unsigned __int128)(2 * j + 1) * rh) / (2 * d->dst_h));
	amin = r.x1 >> 16;
	amax = (r.x2 + 0xffff) / 65536 - 1;
	bmin = r.y1 >> 16;
	bmax = (r.y2 + 0xffff) / 65536 - 1;

	if (d->filter == ATOMKMS_FILTER_NEAREST) {
		px = ref_fetch_rotated(p, clampll(pa >> 16, amin, amax),
				       clampll(pb >> 16, bmin, bmax));
	} else {
		s64 ta = pa - 32768, tb = pb - 32768;
		s64 a0 = floor_div(ta, 65536), b0 = floor_div(tb, 65536);
		u64 wx = ta - a0 * 65536, wy = tb - b0 * 65536;
		struct atomkms_px q[4];
		u64 w[4];
		int k;

		q[0] = ref_fetch_rotated(p, clampll(a0, amin, amax),
					 clampll(b0, bmin, bmax));
		q[1] = ref_fetch_rotated(p, clampll(a0 + 1, amin, amax),
					 clampll(b0, bmin, bmax));
		q[2] = ref_fetch_rotated(p, clampll(a0, amin, amax),
					 clampll(b0 + 1, bmin, bmax));
		q[3] = ref_fetch_rotated(p, clampll(a0 + 1, amin, amax),
					 clampll(b0 + 1, bmin, bmax));
		w[0] = (65536 - wx) * (65536 - wy);
		w[1] = wx * (65536 - wy);
		w[2] = (65536 - wx) * wy;
		w[3] = wx * wy;
		u64 sa = 0, sr = 0, sg = 0, sb = 0;

		for (k = 0; k < 4; k++) {
			sa += w[k] * q[k].a;
			sr += w[k] * q[k].r;
			sg += w[k] * q[k].g;
			sb += w[k] * q[k].b;
		}
		px.a = (sa + (1ULL << 31)) >> 32;
		px.r = (sr + (1ULL << 31)) >> 32;
		px.g = (sg + (1ULL << 31)) >> 32;
		px.b = (sb + (1ULL << 31)) >> 32;
	}
	if (atomkms_format_lookup(d->fourcc)->is_yuv) {
		struct atomkms_px in = px;

		ref_yuv_to_rgb(d->color_encoding, d->color_range,
			       ref_format_depth(d->fourcc), &in, &px);
	}
	return px;
}

/* round(a * b / max) */
static u32 mul(u32 a, u32 b, u32 max)
{
	return (a * (u64)b + max / 2) / max;
}

static u32 ref_blend_channel(u32 op, u32 pa, u32 sa, u32 s, u32 d, u32 max)
{
	u32 sp, ap, out;

	if (op == ATOMKMS_BLEND_PIXEL_NONE) {
		sp = mul(s, pa, max);
		ap = pa;
	} else if (op == ATOMKMS_BLEND_PREMULTI) {
		sp = mul(s, pa, max);
		ap = mul(sa, pa, max);
	} else {
		ap = mul(sa, pa, max);
		sp = mul(s, ap, max);
	}
	out = sp + mul(d, max - ap, max);
	return out > max ? max : out;
}

static bool ref_visible(const struct atomkms_plane_desc *d, u32 w, u32 h)
{
	s64 x1 = d->dst_x > 0 ? d->dst_x : 0, y1 = d->dst_y > 0 ? d->dst_y : 0;
	s64 x2 = (s64)d->dst_x + d->dst_w, y2 = (s64)d->dst_y + d->dst_h;

	if (!d->alpha || !d->src_w || !d->src_h || !d->dst_w || !d->dst_h)
		return false;
	if (x2 > w)
		x2 = w;
	if (y2 > h)
		y2 = h;
	return x1 < x2 && y1 < y2;
}

static u16 ref_lut(const struct atomkms_color_lut *lut, u32 size, int ch,
		   u32 v)
{
	const u16 *e = &lut->red;
	u32 pos, idx, rem, hi;

	if (size == 1)
		return e[ch];
	pos = v * (size - 1);
	idx = pos / 65535;
	rem = pos % 65535;
	hi = idx + 1 < size ? idx + 1 : idx;
	return (e[idx * 4 + ch] * (u64)(65535 - rem) + e[hi * 4 + ch] * (u64)rem +
		32767) / 65535;
}

static bool ref_lut_identity(const struct atomkms_color_lut *lut, u32 size)
{
	u32 i;

	if (size < 2)
		return false;
	for (i = 0; i < size; i++) {
		u16 want = (u16)((i * 65535ULL + (size - 1) / 2) / (size - 1));

		if (lut[i].red != want || lut[i].green != want ||
		    lut[i].blue != want)
			return false;
	}
	return true;
}

static void ref_color(const struct atomkms_color *c, struct atomkms_px *px)
{
	u32 v[3] = { px->r, px->g, px->b };
	int ch, k;

	if (c->degamma_lut && c->degamma_size &&
	    !ref_lut_identity(c->degamma_lut, c->degamma_size))
		for (ch = 0; ch < 3; ch++)
			v[ch] = ref_lut(c->degamma_lut, c->degamma_size, ch,
					v[ch]);
	if (c->ctm) {
		u32 in[3] = { v[0], v[1], v[2] };

		for (ch = 0; ch < 3; ch++) {
			__int128 sum = 0;

			for (k = 0; k < 3; k++) {
				u64 m = c->ctm->matrix[ch * 3 + k];
				__int128 mag = m & ~(1ULL << 63);

				if (mag > (1LL << 44) - 1)
					mag = (1LL << 44) - 1;
				sum += (m >> 63 ? -mag : mag) * in[k];
			}
			/* floor((sum + 2^31) / 2^32) */
			sum += (__int128)1 << 31;
			sum = sum >= 0 ? sum >> 32 :
			      -((-sum + 0xffffffffLL) >> 32);
			v[ch] = sum < 0 ? 0 : sum > 65535 ? 65535 : (u32)sum;
		}
	}
	if (c->gamma_lut && c->gamma_size &&
	    !ref_lut_identity(c->gamma_lut, c->gamma_size))
		for (ch = 0; ch < 3; ch++)
			v[ch] = ref_lut(c->gamma_lut, c->gamma_size, ch,
					v[ch]);
	px->r = v[0];
	px->g = v[1];
	px->b = v[2];
}

void ref_compose(const struct ref_scene *sc, struct atomkms_px *out)
{
	bool prec8 = true;
	u32 X, Y, k;

	for (k = 0; k < sc->num_planes; k++)
		if (ref_visible(&sc->planes[k].desc, sc->width, sc->height) &&
		    ref_format_depth(sc->planes[k].desc.fourcc) > 8)
			prec8 = false;

	for (Y = 0; Y < sc->height; Y++) {
		for (X = 0; X < sc->width; X++) {
			u32 c[3] = { 0, 0, 0 };
			struct atomkms_px *o = &out[Y * sc->width + X];

			for (k = 0; k < sc->num_planes; k++) {
				const struct ref_plane *p = &sc->planes[k];
				const struct atomkms_plane_desc *d = &p->desc;
				struct atomkms_px s;
				u32 op = d->blend_mode, pa = d->alpha;
				u32 max = 65535, sh = 0, sv[3], i;

				if (!ref_visible(d, sc->width, sc->height) ||
				    (s64)X < d->dst_x ||
				    (s64)X >= (s64)d->dst_x + d->dst_w ||
				    (s64)Y < d->dst_y ||
				    (s64)Y >= (s64)d->dst_y + d->dst_h)
					continue;
				s = ref_sample(p, X, Y);
				if (!ref_has_alpha(d->fourcc))
					op = ATOMKMS_BLEND_PIXEL_NONE;
				if (prec8) {
					max = 255;
					sh = 8;
				}
				sv[0] = s.r;
				sv[1] = s.g;
				sv[2] = s.b;
				for (i = 0; i < 3; i++) {
					c[i] = ref_blend_channel(op, pa >> sh,
								 s.a >> sh,
								 sv[i] >> sh,
								 c[i] >> sh,
								 max);
					if (prec8)
						c[i] *= 257;
				}
			}
			o->a = 0xffff;
			o->r = c[0];
			o->g = c[1];
			o->b = c[2];
			if (sc->color)
				ref_color(sc->color, o);
		}
	}
}

/* The lanes of include/atomkms_crc.h over lines [@y0, @y1) of @width words. */
static void ref_crc_lanes(u32 *h, const u32 *px, u32 width, u32 y0, u32 y1)
{
	u32 k, x, y;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++)
		h[k] = ATOMKMS_CRC_SEED + k * ATOMKMS_CRC_LANE_STEP;
	for (y = y0; y < y1; y++)
		for (x = 0; x < width; x++) {
			u32 *l = &h[x % ATOMKMS_CRC_LANES];
			u32 t = (*l + (px[(size_t)y * width + x] & 0xffffff)) *
				ATOMKMS_CRC_MUL;

			*l = t ^ (t >> 16);
		}
}

static u64 ref_fmix64(u64 f)
{
	f ^= f >> 33;
	f *= 0xff51afd7ed558ccdull;
	f ^= f >> 33;
	f *= 0xc4ceb9fe1a85ec53ull;
	return f ^ (f >> 33);
}

/* The sum S of the chunks' hashes (atomkms_crc.h), one chunk at a time. */
static u64 ref_crc_sum(const u32 *px, u32 width, u32 height)
{
	u32 h[ATOMKMS_CRC_LANES], i, k, n = ATOMKMS_CRC_CHUNK_LINES;
	u64 sum = 0, f;

	for (i = 0; (u64)i * n < height; i++) {
		ref_crc_lanes(h, px, width, i * n,
			      height - i * n < n ? height : i * n + n);
		f = i * 0x9e3779b97f4a7c15ull;
		for (k = 0; k < ATOMKMS_CRC_LANES; k += 2)
			f = ref_fmix64(f ^ ((u64)h[k + 1] << 32 | h[k]));
		sum += f;
	}
	return sum;
}

static u64 ref_crc_fold(u64 f)
{
	if (f >> 32 == 0xffffffffu)
		f -= 1ull << 32;
	if ((f & 0xffffffffu) == 0xffffffffu)
		f -= 1;
	return f ? f : 1;
}

/*
 * The frame checksum of include/atomkms_crc.h, written from its definition
 * pixel by pixel: @px holds @height lines of @width 0xXXRRGGBB words.
 */
u64 ref_crc_words(const u32 *px, u32 width, u32 height)
{
	return ref_crc_fold(ref_fmix64(ref_crc_sum(px, width, height)));
}

u64 ref_crc(const struct atomkms_px *img, u32 width, u32 height)
{
	return ref_crc_bpc(img, width, height, 8);
}

/*
 * The checksum of @img sent at @bpc (8 or 10), from atomkms_crc.h's words:
 * at 10, each channel's 10-bit value c = v >> 6 against t = v >> 8.
 */
u64 ref_crc_bpc(const struct atomkms_px *img, u32 width, u32 height, u32 bpc)
{
	size_t i, n = (size_t)width * height;
	u32 *px = calloc(n + 1, sizeof(*px));
	u32 *dev = calloc(n + 1, sizeof(*dev));
	u64 f;
	u32 any = 0;

	for (i = 0; i < n; i++) {
		const u16 c[3] = { img[i].r, img[i].g, img[i].b };
		u32 k;

		px[i] = 0;
		dev[i] = 0;
		for (k = 0; k < 3; k++) {
			u32 t = c[k] >> 8, ten = c[k] >> 6;

			px[i] |= t << (16 - 8 * k);
			dev[i] |= ((ten ^ (t << 2 | t >> 6)) & 3) << (16 - 8 * k);
		}
		any |= dev[i];
	}
	f = ref_fmix64(ref_crc_sum(px, width, height));
	if (bpc > 8 && any)
		f = ref_fmix64(f ^ ref_crc_sum(dev, width, height));
	free(px);
	free(dev);
	return ref_crc_fold(f);
}

static u8 u8_round(double v)
{
	v = floor(v + 0.5);
	return v < 0 ? 0 : v > 255 ? 255 : (u8)v;
}

void ref_writeback(const struct atomkms_px *img, u32 width, u32 height,
		   const struct atomkms_writeback *wb)
{
	const double kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb;
	u32 x, y;

	for (y = 0; y < height; y++) {
		for (x = 0; x < width; x++) {
			const struct atomkms_px *p = &img[y * width + x];
			u8 *o = wb->map[0] + (size_t)y * wb->pitch[0];
			u32 v;

			switch (wb->fourcc) {
			case ATOMKMS_FMT_XRGB8888:
			case ATOMKMS_FMT_ARGB8888:
				v = 0xffu << 24 | (p->r >> 8) << 16 |
				    (p->g >> 8) << 8 | p->b >> 8;
				memcpy(o + 4 * x, &v, 4);
				break;
			case ATOMKMS_FMT_XRGB2101010:
				v = 3u << 30 | (u32)(p->r >> 6) << 20 |
				    (u32)(p->g >> 6) << 10 | p->b >> 6;
				memcpy(o + 4 * x, &v, 4);
				break;
			case ATOMKMS_FMT_RGB565:
				v = (p->r >> 11) << 11 | (p->g >> 10) << 5 |
				    p->b >> 11;
				o[2 * x] = v;
				o[2 * x + 1] = v >> 8;
				break;
			case ATOMKMS_FMT_NV12: {
				double r = p->r / 65535.0, g = p->g / 65535.0;
				double b = p->b / 65535.0, yy;
				u8 *c;
				u32 n;

				yy = kr * r + kg * g + kb * b;
				o[x] = u8_round(16 + 219 * yy);
				if ((y & 1) || (x & 1))
					break;
				n = x + 1 < width ? x + 1 : x;
				r = (p->r + img[y * width + n].r + 1) / 2 / 65535.0;
				g = (p->g + img[y * width + n].g + 1) / 2 / 65535.0;
				b = (p->b + img[y * width + n].b + 1) / 2 / 65535.0;
				yy = kr * r + kg * g + kb * b;
				c = wb->map[1] + (size_t)(y / 2) * wb->pitch[1];
				c[x] = u8_round(128 + 224 * (b - yy) /
						(2 - 2 * kb));
				c[x + 1] = u8_round(128 + 224 * (r - yy) /
						    (2 - 2 * kr));
				break;
			}
			}
		}
	}
}

struct capture {
	struct atomkms_px *img;
};

static void capture_line(void *ctx, u32 y, const struct atomkms_px *line,
			 u32 width)
{
	struct capture *c = ctx;

	memcpy(c->img + (size_t)y * width, line, width * sizeof(*line));
}

bool core_compose_general;
u32 core_compose_bpc;
const struct atomkms_simd_ops *core_compose_simd;

u32 test_simd_levels(const struct atomkms_simd_ops **ops)
{
	u32 n = 0;

	ops[n++] = &atomkms_simd_scalar;
#ifdef ATOMKMS_TEST_SIMD
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse2"))
		ops[n++] = &atomkms_simd_sse2;
	if (__builtin_cpu_supports("avx2"))
		ops[n++] = &atomkms_simd_avx2;
#endif
	return n;
}

u32 core_compose_bands;
bool core_compose_threads;
u64 core_compose_order;

struct band_run {
	const struct atomkms_frame *f;
	struct atomkms_band band;
	void *scratch, *base;
	size_t len;
	int ret;
	bool threaded;
	pthread_t thread;
};

static void *band_thread(void *arg)
{
	struct band_run *b = arg;

	b->ret = atomkms_compose_band(b->f, b->scratch, &b->band);
	return NULL;
}

/*
 * @f in core_compose_bands bands (atomkms_band_split()), each with a
 * guarded scratch of its own, started in an order drawn from
 * core_compose_order, on a thread each with core_compose_threads.
 */
static int core_compose_banded(const struct atomkms_frame *f, u32 width)
{
	struct band_run *b = calloc(core_compose_bands, sizeof(*b));
	u32 *order = calloc(core_compose_bands, sizeof(*order));
	u32 i, j, t, n = core_compose_bands;
	int ret = 0;

	for (i = 0; i < n; i++) {
		order[i] = i;
		b[i].f = f;
		atomkms_band_split(&b[i].band, f->height, n, i);
		b[i].scratch = test_guarded_alloc(atomkms_compose_scratch_size(width),
						  &b[i].base, &b[i].len);
		atomkms_compose_scratch_init(b[i].scratch, width);
	}
	for (i = n; i > 1; i--) {	/* Fisher-Yates */
		j = test_rand_below(&core_compose_order, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++) {
		struct band_run *r = &b[order[i]];

		r->threaded = core_compose_threads &&
			      !pthread_create(&r->thread, NULL, band_thread, r);
		if (!r->threaded)
			band_thread(r);
	}
	for (i = 0; i < n; i++) {
		if (b[i].threaded)
			pthread_join(b[i].thread, NULL);
		if (b[i].ret)
			ret = b[i].ret;
		test_guarded_free(b[i].base, b[i].len);
	}
	if (!ret && f->crc) {
		struct atomkms_band *bands = calloc(n, sizeof(*bands));

		/* Any order of the bands gives the frame's CRC: take them reversed. */
		for (i = 0; i < n; i++)
			bands[i] = b[n - 1 - i].band;
		*f->crc = atomkms_compose_crc(bands, n);
		free(bands);
	}
	free(order);
	free(b);
	return ret;
}

int core_compose(const struct ref_scene *sc, struct atomkms_px *out, u64 *crc,
		 const struct atomkms_writeback *wb)
{
	struct atomkms_plane_job jobs[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_frame_plane fp[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_frame f = { 0 };
	struct atomkms_color_prep color;
	struct capture cap = { out };
	const char *why;
	void *scratch, *base;
	size_t len;
	u32 k;
	int ret;

	for (k = 0; k < sc->num_planes; k++) {
		ret = atomkms_plane_job_init(&jobs[k], &sc->planes[k].desc,
					     &why);
		if (ret) {
			printf("core_compose: plane %u: %s (%d)\n", k, why,
			       ret);
			return ret;
		}
		fp[k].job = &jobs[k];
		fp[k].src = sc->planes[k].src;
	}
	/* Guarded too; its size is a multiple of 8, so it is 8-aligned. */
	scratch = test_guarded_alloc(atomkms_compose_scratch_size(sc->width),
				     &base, &len);
	atomkms_compose_scratch_init(scratch, sc->width);
	f.width = sc->width;
	f.height = sc->height;
	f.num_planes = sc->num_planes;
	f.planes = fp;
	if (core_compose_general)
		f.flags = ATOMKMS_FRAME_GENERAL;
	if (atomkms_color_prepare(&color, sc->color))
		f.color = &color;
	f.bpc = (u8)core_compose_bpc;
	f.simd = core_compose_simd;
	f.crc = crc;
	f.wb = wb;
	if (out) {
		f.line_sink = capture_line;
		f.sink_ctx = &cap;
	}
	if (core_compose_bands > 1)
		ret = core_compose_banded(&f, sc->width);
	else
		ret = atomkms_compose_frame(&f, scratch);
	test_guarded_free(base, len);
	return ret;
}

u32 test_px_max_diff(const struct atomkms_px *a, const struct atomkms_px *b,
		     size_t n, size_t *at)
{
	u32 m = 0;
	size_t i, where = 0;

	for (i = 0; i < n; i++) {
		u32 d[3] = { abs(a[i].r - b[i].r), abs(a[i].g - b[i].g),
			     abs(a[i].b - b[i].b) };
		u32 k;

		for (k = 0; k < 3; k++)
			if (d[k] > m) {
				m = d[k];
				where = i;
			}
	}
	if (at)
		*at = where;
	return m;
}
