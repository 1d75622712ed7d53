// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frame composition of the software compositor: the general per-line path
 * (read, resample, convert, blend), the fast paths that replace it for
 * common planes, occlusion, and the sinks. Pure C: built into the module
 * and into the userspace unit tests. include/atomkms_compose.h defines the
 * arithmetic.
 */
#include "atomkms_compose.h"
#include "atomkms_simd.h"

#define ATOMKMS_SCRATCH_MAGIC	0x61746b63u
#define ATOMKMS_TMP_EXTRA	16

/*
 * Strips of a plane rotated by 90 or 270 degrees (packed lines): its
 * output lines read one pixel from each framebuffer line, so a line at a
 * time, each framebuffer line's cache line and page would be fetched
 * again for every output line. A strip holds ATOMKMS_STRIP_LINES output
 * lines of one such plane, read at once: ATOMKMS_STRIP_LINES adjacent
 * pixels of each framebuffer line, with the framebuffer line
 * ATOMKMS_STRIP_AHEAD lines on prefetched. Up to ATOMKMS_STRIPS planes a
 * frame have one; others read a line at a time. Eight lines measured
 * best on this project's machine (scene (d), AVX2, kernel flags: 5.7 ms
 * at 1080p and 22.7 ms at 4K, against 20.6 and 17.6 ms with 16 lines and
 * 15.3 and 103 ms a line at a time).
 */
#define ATOMKMS_STRIPS		2
#define ATOMKMS_STRIP_LINES	8
#define ATOMKMS_STRIP_AHEAD	16

/*
 * One strip: @job's output lines [@y0, @y1), read from the framebuffer
 * mapped at @map; @px holds line y at (y - @y0) * width.
 */
struct atomkms_strip {
	const struct atomkms_plane_job *job;
	const u8 *map;
	s32 y0;
	s32 y1;
	u32 *px;
};

/*
 * The output pixels' source columns of a plane's line (ctx->idx0, idx1,
 * wx), the same on every line: whole lines keep them from one line to
 * the next (atomkms_line_yuv8()); anything else that writes them
 * (atomkms_span_chunk()) forgets them.
 */
struct atomkms_span_cache {
	const struct atomkms_plane_job *job;
	s32 lo;
	s32 hi;
};

/*
 * The head of the caller's scratch buffer; the line buffers follow it.
 * @width: widest frame the buffers hold
 * @tmp_len: pixels of each source span buffer
 */
struct atomkms_scratch {
	u32 magic;
	u32 width;
	u32 tmp_len;
	struct atomkms_strip strips[ATOMKMS_STRIPS];
	struct atomkms_span_cache span_cache;
};

/* Per-frame view of the scratch buffers. */
struct atomkms_line_ctx {
	struct atomkms_px *acc;
	struct atomkms_px *line;
	struct atomkms_px *tmp0;
	struct atomkms_px *tmp1;
	u32 *idx0;
	u32 *idx1;
	u32 *wx;
	u32 *win;
	u32 *woff;
	u8 *out8;
	u32 *acc32;
	u32 *tmp32;
	u32 tmp_len;
	u32 width;
	bool prec8;
	bool mode32;
	bool stream;
	const struct atomkms_simd_ops *simd;
	struct atomkms_strip *strips;
	struct atomkms_span_cache *span_cache;
};

/*
 * The line a frame composes into, one bit each so that a fast path row
 * can take several: 16-bit pixels (&struct atomkms_px), 8-bit frames'
 * pixels (the same struct, every channel a multiple of 257), or packed
 * 0x00RRGGBB words (ctx->mode32: 8-bit frames without a colour pipeline).
 */
#define ATOMKMS_LINE_PX16	BIT(0)
#define ATOMKMS_LINE_PX8	BIT(1)
#define ATOMKMS_LINE_PACKED	BIT(2)
#define ATOMKMS_LINE_PX		(ATOMKMS_LINE_PX16 | ATOMKMS_LINE_PX8)

typedef void (*atomkms_plane_line_fn)(const struct atomkms_line_ctx *ctx,
				      const struct atomkms_plane_job *job,
				      const struct atomkms_plane_src *src,
				      s32 y);

static size_t atomkms_align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/**
 * atomkms_compose_scratch_size - bytes of scratch a CRTC needs
 * @width: widest output the CRTC will compose (its mode's hdisplay)
 *
 * Return: the size to allocate (once, at CRTC enable) for
 * atomkms_compose_frame(), or 0 if @width is 0 or too large.
 */
size_t atomkms_compose_scratch_size(u32 width)
{
	size_t w = width, tmp = w + ATOMKMS_TMP_EXTRA;

	if (!width || width > ATOMKMS_COMPOSE_MAX_WIDTH)
		return 0;
	return atomkms_align8(sizeof(struct atomkms_scratch)) +
	       2 * w * sizeof(struct atomkms_px) +
	       2 * tmp * sizeof(struct atomkms_px) +
	       3 * w * sizeof(u32) + 4 * w +
	       2 * tmp * sizeof(u32) +
	       ATOMKMS_STRIPS * ATOMKMS_STRIP_LINES * w * sizeof(u32) +
	       atomkms_align8((w + 2 * (w / ATOMKMS_YUV_WIN + 1)) *
			      sizeof(u32));
}

/**
 * atomkms_compose_scratch_init - prepare a freshly allocated scratch buffer
 * @scratch: atomkms_compose_scratch_size(@width) bytes, 8-byte aligned
 * @width: the width it was sized for
 *
 * Call once after allocation.
 *
 * Return: 0, or -22 (EINVAL) for a bad @width.
 */
int atomkms_compose_scratch_init(void *scratch, u32 width)
{
	struct atomkms_scratch *s = scratch;

	if (!atomkms_compose_scratch_size(width))
		return -ATOMKMS_EINVAL;
	s->magic = ATOMKMS_SCRATCH_MAGIC;
	s->width = width;
	s->tmp_len = width + ATOMKMS_TMP_EXTRA;
	return 0;
}

static void atomkms_line_ctx_init(struct atomkms_line_ctx *ctx,
				  struct atomkms_scratch *s)
{
	u8 *p = (u8 *)s + atomkms_align8(sizeof(*s));
	size_t w = s->width;
	u32 i;

	ctx->acc = (struct atomkms_px *)p;
	ctx->line = ctx->acc + w;
	ctx->tmp0 = ctx->line + w;
	ctx->tmp1 = ctx->tmp0 + s->tmp_len;
	ctx->idx0 = (u32 *)(ctx->tmp1 + s->tmp_len);
	ctx->idx1 = ctx->idx0 + w;
	ctx->wx = ctx->idx1 + w;
	ctx->out8 = (u8 *)(ctx->wx + w);
	ctx->acc32 = (u32 *)(ctx->out8 + 4 * w);
	ctx->tmp32 = ctx->acc32 + s->tmp_len;
	ctx->tmp_len = s->tmp_len;
	ctx->width = s->width;
	ctx->strips = s->strips;
	ctx->span_cache = &s->span_cache;
	/* After the strips: the YCbCr path's windows. */
	ctx->woff = ctx->tmp32 + s->tmp_len +
		    (size_t)ATOMKMS_STRIPS * ATOMKMS_STRIP_LINES * w;
	ctx->win = ctx->woff + w;
	s->span_cache.job = NULL;
	/* A new frame: what the strips held may have changed since. */
	for (i = 0; i < ATOMKMS_STRIPS; i++)
		s->strips[i] = (struct atomkms_strip){
			.px = ctx->tmp32 + s->tmp_len +
			      (size_t)i * ATOMKMS_STRIP_LINES * w,
		};
}

/* round(a * b / 255) and round(a * b / 65535), ties up, exact. */
static __always_inline u32 atomkms_mul8(u32 a, u32 b)
{
	u32 t = a * b + 0x80;

	return (t + (t >> 8)) >> 8;
}

static __always_inline u32 atomkms_mul16(u32 a, u32 b)
{
	u32 t = a * b + 0x8000;

	return (t + (t >> 16)) >> 16;
}

static __always_inline u16 atomkms_sat8(u32 v)
{
	return (v > 255 ? 255 : v) * 257;
}

static __always_inline u16 atomkms_sat16(u32 v)
{
	return v > 65535 ? 65535 : v;
}

static void atomkms_blend8(u32 op, u32 pa, const struct atomkms_px *s,
			   struct atomkms_px *d, u32 n)
{
	u32 i, a, ia;

	for (i = 0; i < n; i++) {
		u32 sr = s[i].r >> 8, sg = s[i].g >> 8, sb = s[i].b >> 8;

		if (op == ATOMKMS_BLEND_COVERAGE) {
			a = atomkms_mul8(s[i].a >> 8, pa);
			sr = atomkms_mul8(sr, a);
			sg = atomkms_mul8(sg, a);
			sb = atomkms_mul8(sb, a);
		} else {
			a = op == ATOMKMS_BLEND_PREMULTI ?
			    atomkms_mul8(s[i].a >> 8, pa) : pa;
			sr = atomkms_mul8(sr, pa);
			sg = atomkms_mul8(sg, pa);
			sb = atomkms_mul8(sb, pa);
		}
		ia = 255 - a;
		d[i].r = atomkms_sat8(sr + atomkms_mul8(d[i].r >> 8, ia));
		d[i].g = atomkms_sat8(sg + atomkms_mul8(d[i].g >> 8, ia));
		d[i].b = atomkms_sat8(sb + atomkms_mul8(d[i].b >> 8, ia));
	}
}

static void atomkms_blend16(u32 op, u32 pa, const struct atomkms_px *s,
			    struct atomkms_px *d, u32 n)
{
	u32 i, a, ia, sr, sg, sb;

	for (i = 0; i < n; i++) {
		if (op == ATOMKMS_BLEND_COVERAGE) {
			a = atomkms_mul16(s[i].a, pa);
			sr = atomkms_mul16(s[i].r, a);
			sg = atomkms_mul16(s[i].g, a);
			sb = atomkms_mul16(s[i].b, a);
		} else {
			a = op == ATOMKMS_BLEND_PREMULTI ?
			    atomkms_mul16(s[i].a, pa) : pa;
			sr = atomkms_mul16(s[i].r, pa);
			sg = atomkms_mul16(s[i].g, pa);
			sb = atomkms_mul16(s[i].b, pa);
		}
		ia = 65535 - a;
		d[i].r = atomkms_sat16(sr + atomkms_mul16(d[i].r, ia));
		d[i].g = atomkms_sat16(sg + atomkms_mul16(d[i].g, ia));
		d[i].b = atomkms_sat16(sb + atomkms_mul16(d[i].b, ia));
	}
}

/*
 * The 8-bit frame path ("mode32"): in a frame of 8-bit planes without a
 * colour pipeline, the line accumulates as 0xXXRRGGBB words, the bytes
 * of the XRGB8888 frame that the CRC covers and that XRGB8888 writeback
 * stores; X may be junk, which no sink reads. Blending works on all three
 * channels of a pixel at once, in 16-bit lanes of a u64
 * (0x000000GG00RR00BB, X dropped: R and B stay where they are, so the
 * pixel goes in and out in three or four operations), or a byte at a
 * time in vectorisable blocks; the
 * arithmetic is atomkms_blend8()'s, so the bytes equal the general path's.
 */
#define ATOMKMS_LANES	0x000000ff00ff00ffULL

static __always_inline u64 atomkms_lanes(u32 p)
{
	return (p & 0xff00ff) | (u64)(p & 0xff00) << 24;
}

static __always_inline u32 atomkms_unlanes(u64 v)
{
	return (u32)v | (u32)(v >> 24);
}

/* atomkms_mul8() of each lane by @a (at most 255). */
static __always_inline u64 atomkms_mul8_lanes(u64 v, u32 a)
{
	u64 t = v * a + 0x0000008000800080ULL;

	return ((t + ((t >> 8) & ATOMKMS_LANES)) >> 8) & ATOMKMS_LANES;
}

/*
 * min(255, s + d) in each lane (lanes hold at most 510). A lane passes
 * 255 only for an invalid premultiplied pixel (a channel above its
 * alpha), so the saturation is a branch rarely taken.
 */
static __always_inline u64 atomkms_add_sat_lanes(u64 s, u64 d)
{
	u64 v = s + d;

	if (unlikely(v & 0x0000010001000100ULL))
		v = (v | ((v >> 8) & 0x0000000100010001ULL) * 0xff) &
		    ATOMKMS_LANES;
	return v;
}

/*
 * s + d (1 - sa) for premultiplied @p, plane alpha 255: pixman's OVER,
 * in 32 bits: R and B in the 16-bit lanes of one product, G in another
 * (atomkms_mul8() in each lane, no carry between lanes: t <= 65407).
 */
static __always_inline u32 atomkms_over32(u32 p, u32 d)
{
	u32 ia = 255 - (p >> 24);
	u32 rb = (d & 0xff00ff) * ia + 0x800080;
	u32 g = (d & 0xff00) * ia + 0x8000;	/* 256 t */

	rb = ((rb + ((rb >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
	g = ((g >> 8) + (g >> 16)) & 0xff00;
	/* Add the source; lanes that pass 255 saturate. */
	rb += p & 0xff00ff;
	rb = (rb | (0x1000100 - ((rb >> 8) & 0x10001))) & 0xff00ff;
	g += p & 0xff00;
	return rb | (g > 0xff00 ? 0xff00 : g);
}

/*
 * atomkms_over32() of premultiplied @p onto the pixel @x in lanes: each
 * lane atomkms_mul8() by 255 - alpha, plus the source, saturating as it
 * does, so the bytes are its. About 19 instructions against its 40: the
 * scalar line loops', which the module runs where no vector unit pays
 * (an emulated CPU).
 */
static __always_inline u64 atomkms_over_lanes(u32 p, u64 x)
{
	return atomkms_add_sat_lanes(atomkms_lanes(p),
				     atomkms_mul8_lanes(x, ~p >> 24));
}

static __always_inline u32 atomkms_over32_fast(u32 p, u32 d)
{
	return atomkms_unlanes(atomkms_over_lanes(p, atomkms_lanes(d)));
}

static __always_inline u32 atomkms_load32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Line loops in blocks of ATOMKMS_BLK pixels: a fixed trip count and
 * restrict pointers let a compiler that vectorises at -O2 (GCC 12 and
 * later) turn each block into vector code where the build allows vector
 * registers (userspace; the module is built without them and keeps
 * scalar code). The tails take the scalar words.
 */
#define ATOMKMS_BLK	8

/* d = s with X = 0, for @ATOMKMS_BLK pixels. */
static __always_inline void atomkms_copy_x0_blk(u32 *restrict d,
						const u32 *restrict s)
{
	u32 i;

	for (i = 0; i < ATOMKMS_BLK; i++)
		d[i] = s[i] & 0xffffff;
}

/* d = s with X = 0xff, for @ATOMKMS_BLK pixels. */
static __always_inline void atomkms_copy_xff_blk(u32 *restrict d,
						 const u32 *restrict s)
{
	u32 i;

	for (i = 0; i < ATOMKMS_BLK; i++)
		d[i] = s[i] | 0xff000000u;
}

static void atomkms_copy_x0(u32 *d, const u32 *s, u32 n)
{
	u32 i;

	for (i = 0; i + ATOMKMS_BLK <= n; i += ATOMKMS_BLK)
		atomkms_copy_x0_blk(d + i, s + i);
	for (; i < n; i++)
		d[i] = s[i] & 0xffffff;
}

static void atomkms_copy_xff(u32 *d, const u32 *s, u32 n)
{
	u32 i;

	for (i = 0; i + ATOMKMS_BLK <= n; i += ATOMKMS_BLK)
		atomkms_copy_xff_blk(d + i, s + i);
	for (; i < n; i++)
		d[i] = s[i] | 0xff000000u;
}

/*
 * atomkms_over32() on @ATOMKMS_OVER_BLK pixels, a byte at a time: @s the
 * premultiplied ARGB8888 source words, @d the line's. The X byte of @d
 * becomes junk, which no sink reads. Four pixels are one 16-byte vector.
 */
#define ATOMKMS_OVER_BLK	4

static __always_inline void atomkms_over_blk(u32 *restrict d32,
					     const u32 *restrict s32)
{
	u32 ia[ATOMKMS_OVER_BLK];
	u8 m[4 * ATOMKMS_OVER_BLK];
	const u8 *a = (const u8 *)ia, *s = (const u8 *)s32;
	u8 *d = (u8 *)d32;
	u32 i;

	/* 255 - alpha in every byte of the pixel's word. */
	for (i = 0; i < ATOMKMS_OVER_BLK; i++) {
		u32 x = s32[i] >> 24;

		x |= x << 8;
		ia[i] = ~(x | x << 16);
	}
	/*
	 * atomkms_mul8() as (t * 257) >> 16, equal for every t < 65536
	 * (pixman's form; a high-half multiply in vector code).
	 */
	for (i = 0; i < 4 * ATOMKMS_OVER_BLK; i++) {
		u16 t = (u16)(d[i] * a[i] + 0x80);

		m[i] = ((u32)t * 257) >> 16;
	}
	/* min(255, s + m) as min(s, 255 - m) + m: bytes all the way. */
	for (i = 0; i < 4 * ATOMKMS_OVER_BLK; i++) {
		u8 x = 255 - m[i];

		d[i] = (s[i] > x ? x : s[i]) + m[i];
	}
}

/*
 * atomkms_over32() of the premultiplied ARGB8888 words @s onto @d. The
 * byte blocks only pay where they become vector code: without vector
 * registers (the module), atomkms_over32_fast() does fewer operations.
 */
static void atomkms_over_line(u32 *d, const u32 *s, u32 n)
{
	u32 i = 0;

#if defined(__SSE2__) || defined(__ARM_NEON)
	for (; i + 2 * ATOMKMS_OVER_BLK <= n; i += 2 * ATOMKMS_OVER_BLK) {
		atomkms_over_blk(d + i, s + i);
		atomkms_over_blk(d + i + ATOMKMS_OVER_BLK,
				 s + i + ATOMKMS_OVER_BLK);
	}
	for (; i + ATOMKMS_OVER_BLK <= n; i += ATOMKMS_OVER_BLK)
		atomkms_over_blk(d + i, s + i);
#endif
	for (; i < n; i++)
		d[i] = atomkms_over32_fast(s[i], d[i]);
}

/* atomkms_blend8() on 0xAARRGGBB source words and the 32-bit line. */
static __always_inline void atomkms_blend32_op(u32 op, u32 pa, const u32 *s,
					       u32 *d, u32 n)
{
	u32 i, a;

	for (i = 0; i < n; i++) {
		u64 sv = atomkms_lanes(s[i]), dv;

		if (op == ATOMKMS_BLEND_COVERAGE) {
			a = atomkms_mul8(s[i] >> 24, pa);
			sv = atomkms_mul8_lanes(sv, a);
		} else {
			a = op == ATOMKMS_BLEND_PREMULTI ?
			    atomkms_mul8(s[i] >> 24, pa) : pa;
			sv = atomkms_mul8_lanes(sv, pa);
		}
		dv = atomkms_mul8_lanes(atomkms_lanes(d[i]), 255 - a);
		d[i] = atomkms_unlanes(atomkms_add_sat_lanes(sv, dv));
	}
}

static void atomkms_blend32(u32 op, u32 pa, const u32 *s, u32 *d, u32 n)
{
	switch (op) {
	case ATOMKMS_BLEND_PREMULTI:
		if (pa == 255) {
			atomkms_over_line(d, s, n);
			return;
		}
		atomkms_blend32_op(ATOMKMS_BLEND_PREMULTI, pa, s, d, n);
		return;
	case ATOMKMS_BLEND_COVERAGE:
		atomkms_blend32_op(ATOMKMS_BLEND_COVERAGE, pa, s, d, n);
		return;
	default:
		if (pa == 255) {
			atomkms_copy_x0(d, s, n);
			return;
		}
		atomkms_blend32_op(ATOMKMS_BLEND_PIXEL_NONE, pa, s, d, n);
		return;
	}
}

/*
 * The overlays @s[0..@ns) OVER @base into @d (include/atomkms_simd.h),
 * the scalar way: a pixel at a time, its base word in lanes then each
 * overlay's atomkms_over_lanes() in turn, so the bytes are those of
 * atomkms_copy_x0() then atomkms_over_line() per overlay; one store a
 * pixel instead of one a pass, and the pixel stays in lanes between
 * overlays. @ns is a constant in each instance, so
 * the overlay pointers stay in registers.
 */
static __always_inline void atomkms_over_n_inl(u32 *d, const u32 *base,
					       const u32 *const *s, u32 ns,
					       u32 n)
{
	const u32 *sp[ATOMKMS_SIMD_OVER_MAX];
	u32 i, k;
	u64 v;

	for (k = 0; k < ns; k++)
		sp[k] = s[k];
	for (i = 0; i < n; i++) {
		v = atomkms_lanes(base[i]);
		for (k = 0; k < ns; k++)
			v = atomkms_over_lanes(sp[k][i], v);
		d[i] = atomkms_unlanes(v);
	}
}

static void atomkms_over_n(u32 *d, const u32 *base, const u32 *const *s,
			   u32 ns, u32 n)
{
	static_assert(ATOMKMS_SIMD_OVER_MAX == 4, "one instance a count");
	switch (ns) {
	case 1:
		atomkms_over_n_inl(d, base, s, 1, n);
		return;
	case 2:
		atomkms_over_n_inl(d, base, s, 2, n);
		return;
	case 3:
		atomkms_over_n_inl(d, base, s, 3, n);
		return;
	default:
		atomkms_over_n_inl(d, base, s, 4, n);
		return;
	}
}

/* The bilinear YCbCr line's scalar loops (simd/atomkms_simd_yuv.h). */
#include "simd/atomkms_simd_yuv.h"

static void atomkms_yuv_vlerp(u32 wy, const u8 *r0, const u8 *r1, u32 *out,
			      u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		out[i] = atomkms_yuv_vlerp1(wy, r0[i], r1[i]);
}

static void atomkms_yuv_hlerp(const struct atomkms_yuv_lerp *l, u32 *out,
			      u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		out[i] = atomkms_yuv_px(l, i);
}

/* The scalar line loops: include/atomkms_simd.h, for any CPU. */
const struct atomkms_simd_ops atomkms_simd_scalar = {
	.name = "scalar",
	.blend32 = atomkms_blend32,
	.over_n = atomkms_over_n,
	.crc_blocks = atomkms_crc_blocks,
	.copy_xff = atomkms_copy_xff,
	.stream_xff = atomkms_copy_xff,
	.yuv_vlerp = atomkms_yuv_vlerp,
	.yuv_hlerp = atomkms_yuv_hlerp,
};

/* Intermediate pixels to 0xAARRGGBB words: the 8 bits blend8 takes. */
static void atomkms_pack32(const struct atomkms_px *px, u32 *out, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		out[i] = (u32)(px[i].a >> 8) << 24 | (u32)(px[i].r >> 8) << 16 |
			 (u32)(px[i].g >> 8) << 8 | px[i].b >> 8;
}

/* Convert YCbCr and blend @n resampled pixels onto the line at @x. */
static void atomkms_finish(const struct atomkms_line_ctx *ctx,
			   const struct atomkms_plane_job *job,
			   struct atomkms_px *px, s32 x, u32 n)
{
	if (job->fmt->is_yuv)
		atomkms_yuv_to_rgb_line(&job->csc, px, n);
	if (ctx->mode32) {
		atomkms_pack32(px, ctx->tmp32, n);
		ctx->simd->blend32(job->op, job->alpha >> 8, ctx->tmp32,
				   ctx->acc32 + x, n);
		return;
	}
	/* Specialise the loops on the op. */
	switch (job->op) {
	case ATOMKMS_BLEND_PREMULTI:
		if (ctx->prec8)
			atomkms_blend8(ATOMKMS_BLEND_PREMULTI, job->alpha >> 8,
				       px, ctx->acc + x, n);
		else
			atomkms_blend16(ATOMKMS_BLEND_PREMULTI, job->alpha,
					px, ctx->acc + x, n);
		break;
	case ATOMKMS_BLEND_COVERAGE:
		if (ctx->prec8)
			atomkms_blend8(ATOMKMS_BLEND_COVERAGE, job->alpha >> 8,
				       px, ctx->acc + x, n);
		else
			atomkms_blend16(ATOMKMS_BLEND_COVERAGE, job->alpha,
					px, ctx->acc + x, n);
		break;
	default:
		if (ctx->prec8)
			atomkms_blend8(ATOMKMS_BLEND_PIXEL_NONE,
				       job->alpha >> 8, px, ctx->acc + x, n);
		else
			atomkms_blend16(ATOMKMS_BLEND_PIXEL_NONE, job->alpha,
					px, ctx->acc + x, n);
		break;
	}
}

/* Read @n pixels of rotated row @b from rotated column @a on. */
static void atomkms_read_rotated(const struct atomkms_plane_job *job,
				 const struct atomkms_plane_src *src,
				 s32 a, s32 b, u32 n, struct atomkms_px *out)
{
	s32 x = job->mx0 + job->mxa * a + job->mxb * b;
	s32 y = job->my0 + job->mya * a + job->myb * b;

	job->fmt->read_line(src, x, y, job->mxa, job->mya, n, out);
}

static inline s32 atomkms_clamp(s64 v, s32 lo, s32 hi)
{
	return v < lo ? lo : v > hi ? hi : (s32)v;
}

static inline u16 atomkms_lerp(u32 p0, u32 p1, u32 w)
{
	return ((65536 - w) * p0 + w * p1 + 0x8000) >> 16;
}

static inline u16 atomkms_lerp2(u32 p00, u32 p01, u32 p10, u32 p11,
				u32 wx, u32 wy)
{
	u64 w00 = (u64)(65536 - wx) * (65536 - wy);
	u64 w01 = (u64)wx * (65536 - wy);
	u64 w10 = (u64)(65536 - wx) * wy;
	u64 w11 = (u64)wx * wy;

	return (w00 * p00 + w01 * p01 + w10 * p10 + w11 * p11 +
		(1ULL << 31)) >> 32;
}

/* Resample one chunk of @n output pixels from the source spans. */
static void atomkms_resample(const struct atomkms_line_ctx *ctx,
			     bool bilinear, u32 wy, u32 n)
{
	const struct atomkms_px *t0 = ctx->tmp0, *t1 = ctx->tmp1;
	struct atomkms_px *o = ctx->line;
	u32 i;

	if (!bilinear) {
		for (i = 0; i < n; i++)
			o[i] = t0[ctx->idx0[i]];
		return;
	}
	if (!wy) {
		for (i = 0; i < n; i++) {
			const struct atomkms_px *p = &t0[ctx->idx0[i]];
			const struct atomkms_px *q = &t0[ctx->idx1[i]];
			u32 w = ctx->wx[i];

			o[i].a = atomkms_lerp(p->a, q->a, w);
			o[i].r = atomkms_lerp(p->r, q->r, w);
			o[i].g = atomkms_lerp(p->g, q->g, w);
			o[i].b = atomkms_lerp(p->b, q->b, w);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		const struct atomkms_px *p = &t0[ctx->idx0[i]];
		const struct atomkms_px *q = &t0[ctx->idx1[i]];
		const struct atomkms_px *u = &t1[ctx->idx0[i]];
		const struct atomkms_px *v = &t1[ctx->idx1[i]];
		u32 w = ctx->wx[i];

		o[i].a = atomkms_lerp2(p->a, q->a, u->a, v->a, w, wy);
		o[i].r = atomkms_lerp2(p->r, q->r, u->r, v->r, w, wy);
		o[i].g = atomkms_lerp2(p->g, q->g, u->g, v->g, w, wy);
		o[i].b = atomkms_lerp2(p->b, q->b, u->b, v->b, w, wy);
	}
}

/*
 * The source rows *@b0, *@b1 of output row @j (from the plane's top) of a
 * scaled plane. Return: the weight of *@b1 in 1/65536 (0 for nearest).
 */
static u32 atomkms_src_rows(const struct atomkms_plane_job *job,
			    bool bilinear, u32 j, s32 *b0, s32 *b1)
{
	u64 pv = job->ry + div_u64((2 * (u64)j + 1) * job->rh,
				   2 * job->dst_h);
	s64 t = (s64)pv - 0x8000;

	if (!bilinear) {
		*b0 = atomkms_clamp(pv >> 16, job->bmin, job->bmax);
		*b1 = *b0;
		return 0;
	}
	*b0 = atomkms_clamp(t >> 16, job->bmin, job->bmax);
	*b1 = atomkms_clamp((t >> 16) + 1, job->bmin, job->bmax);
	return t & 0xffff;
}

/*
 * The source columns of the next chunk of a scaled line: ctx->idx0,
 * idx1 and wx of up to @n output pixels whose span [*@lo, *@hi] of
 * source columns holds at most @span; *@q and *@r (the DDA of
 * &struct atomkms_plane_job) advance past them.
 *
 * Return: the chunk's pixels, at least 1.
 */
static u32 atomkms_span_chunk(const struct atomkms_line_ctx *ctx,
			      const struct atomkms_plane_job *job,
			      bool bilinear, u32 n, u32 span, u64 *q, u32 *r,
			      s32 *lo, s32 *hi)
{
	u32 k;

	ctx->span_cache->job = NULL;	/* the columns it kept are lost */
	*lo = 0;
	*hi = 0;
	for (k = 0; k < n; k++) {
		u64 p = job->rx + *q;
		s32 a0, a1;
		u32 w = 0;

		if (bilinear) {
			s64 t = (s64)p - 0x8000;

			a0 = atomkms_clamp(t >> 16, job->amin, job->amax);
			a1 = atomkms_clamp((t >> 16) + 1, job->amin,
					   job->amax);
			w = t & 0xffff;
		} else {
			a0 = atomkms_clamp(p >> 16, job->amin, job->amax);
			a1 = a0;
		}
		if (!k)
			*lo = a0;
		if ((u32)(a1 - *lo) >= span)
			break;
		ctx->idx0[k] = a0 - *lo;
		ctx->idx1[k] = a1 - *lo;
		ctx->wx[k] = w;
		*hi = a1;
		*q += job->sq;
		*r += job->sr;
		if (*r >= job->den) {
			*r -= job->den;
			(*q)++;
		}
	}
	return k;
}

/*
 * The general path for one output line @y of a plane: every format, blend
 * mode, rotation and scale. Scaled lines go in chunks whose source span
 * fits the span buffers, so any scaling factor works with any scratch.
 */
static void atomkms_line_general(const struct atomkms_line_ctx *ctx,
				 const struct atomkms_plane_job *job,
				 const struct atomkms_plane_src *src, s32 y)
{
	bool bilinear = job->filter == ATOMKMS_FILTER_BILINEAR;
	u32 n = job->x2 - job->x1;
	u32 j = y - job->dst_y;
	u32 done = 0, wy, r = job->r0;
	u64 q = job->q0;
	s32 b0, b1;

	if (job->flags & ATOMKMS_JOB_UNSCALED) {
		atomkms_read_rotated(job, src,
				     (s32)(job->rx >> 16) + job->x1 - job->dst_x,
				     (s32)(job->ry >> 16) + j, n, ctx->line);
		atomkms_finish(ctx, job, ctx->line, job->x1, n);
		return;
	}

	wy = atomkms_src_rows(job, bilinear, j, &b0, &b1);
	while (done < n) {
		s32 lo, hi;
		u32 k = atomkms_span_chunk(ctx, job, bilinear, n - done,
					   ctx->tmp_len, &q, &r, &lo, &hi);

		atomkms_read_rotated(job, src, lo, b0, hi - lo + 1, ctx->tmp0);
		if (wy && b1 != b0)
			atomkms_read_rotated(job, src, lo, b1, hi - lo + 1,
					     ctx->tmp1);
		else if (wy)
			wy = 0;	/* both rows are the same: 1D */
		atomkms_resample(ctx, bilinear, wy, k);
		atomkms_finish(ctx, job, ctx->line, job->x1 + done, k);
		done += k;
	}
}

/*
 * Fast path: an opaque, unscaled RGB plane (any rotation) is read straight
 * into the output line. Equal to the general path: blend none at alpha
 * 0xffff is a copy, and in 8-bit frames these readers give multiples of
 * 257 already.
 */
static void atomkms_line_direct(const struct atomkms_line_ctx *ctx,
				const struct atomkms_plane_job *job,
				const struct atomkms_plane_src *src, s32 y)
{
	atomkms_read_rotated(job, src,
			     (s32)(job->rx >> 16) + job->x1 - job->dst_x,
			     (s32)(job->ry >> 16) + y - job->dst_y,
			     job->x2 - job->x1, ctx->acc + job->x1);
}

static __always_inline const u8 *
atomkms_unrotated_src(const struct atomkms_plane_job *job,
		      const struct atomkms_plane_src *src, s32 y, u32 cpp)
{
	s32 fx = (s32)(job->rx >> 16) + job->x1 - job->dst_x;
	s32 fy = (s32)(job->ry >> 16) + y - job->dst_y;

	return src->map[0] + (ptrdiff_t)fy * src->pitch[0] +
	       (ptrdiff_t)fx * cpp;
}

/*
 * Fast path: premultiplied ARGB8888 OVER, plane alpha 0xffff, unscaled and
 * unrotated, in an 8-bit frame: pixman's OVER, straight from memory, with
 * opaque and fully transparent pixels short-cut.
 */
static void atomkms_line_over8(const struct atomkms_line_ctx *ctx,
			       const struct atomkms_plane_job *job,
			       const struct atomkms_plane_src *src, s32 y)
{
	const u8 *p = atomkms_unrotated_src(job, src, y, 4);
	struct atomkms_px *d = ctx->acc + job->x1;
	u32 n = job->x2 - job->x1;
	u32 i, ia;

	for (i = 0; i < n; i++, p += 4) {
		u32 sa = p[3];

		if (sa == 0xff) {
			d[i].r = p[2] * 257;
			d[i].g = p[1] * 257;
			d[i].b = p[0] * 257;
			continue;
		}
		if (!(sa | p[2] | p[1] | p[0]))
			continue;
		ia = 255 - sa;
		d[i].r = atomkms_sat8(p[2] + atomkms_mul8(d[i].r >> 8, ia));
		d[i].g = atomkms_sat8(p[1] + atomkms_mul8(d[i].g >> 8, ia));
		d[i].b = atomkms_sat8(p[0] + atomkms_mul8(d[i].b >> 8, ia));
	}
}

/* As atomkms_line_over8(), with plane alpha (cairo's paint_with_alpha). */
static void atomkms_line_over8_alpha(const struct atomkms_line_ctx *ctx,
				     const struct atomkms_plane_job *job,
				     const struct atomkms_plane_src *src, s32 y)
{
	const u8 *p = atomkms_unrotated_src(job, src, y, 4);
	struct atomkms_px *d = ctx->acc + job->x1;
	u32 n = job->x2 - job->x1;
	u32 pa = job->alpha >> 8;
	u32 i, ia;

	for (i = 0; i < n; i++, p += 4) {
		if (!(p[3] | p[2] | p[1] | p[0]))
			continue;
		ia = 255 - atomkms_mul8(p[3], pa);
		d[i].r = atomkms_sat8(atomkms_mul8(p[2], pa) +
				      atomkms_mul8(d[i].r >> 8, ia));
		d[i].g = atomkms_sat8(atomkms_mul8(p[1], pa) +
				      atomkms_mul8(d[i].g >> 8, ia));
		d[i].b = atomkms_sat8(atomkms_mul8(p[0], pa) +
				      atomkms_mul8(d[i].b >> 8, ia));
	}
}

/*
 * 8-bit frames: an unscaled XRGB8888 or ARGB8888 plane, any rotation and
 * blend, straight from memory (an unrotated, aligned line in place, else
 * gathered), blended by atomkms_blend32().
 */
/*
 * The strip that holds output line @y of @job, read from @src, filling one
 * if needed; NULL if none is free. @p: line @y's first pixel; @step:
 * bytes from one pixel of the line to the next; @bstep: from one line's
 * pixel to the next line's (4 or -4).
 */
static const u32 *
atomkms_strip_line(const struct atomkms_line_ctx *ctx,
		   const struct atomkms_plane_job *job,
		   const struct atomkms_plane_src *src, s32 y, const u8 *p,
		   ptrdiff_t step, ptrdiff_t bstep, u32 n)
{
	struct atomkms_strip *st = NULL;
	u32 i, j, lines;
	u32 k;

	for (k = 0; k < ATOMKMS_STRIPS; k++) {
		if (ctx->strips[k].job == job || !ctx->strips[k].job) {
			st = &ctx->strips[k];
			break;
		}
	}
	if (!st)
		return NULL;
	if (st->job == job && st->map == src->map[0] && y >= st->y0 &&
	    y < st->y1)
		return st->px + (size_t)(y - st->y0) * ctx->width;
	/* The lines from @y on, to the strip's size or the plane's end. */
	lines = job->y2 - y;
	if (lines > ATOMKMS_STRIP_LINES)
		lines = ATOMKMS_STRIP_LINES;
	for (i = 0; i < n; i++, p += step) {
		const u8 *q = p;

		/* Each line is a miss: ask for the lines ahead meanwhile. */
		if (i + ATOMKMS_STRIP_AHEAD < n)
			__builtin_prefetch(p + ATOMKMS_STRIP_AHEAD * step);
		for (j = 0; j < lines; j++, q += bstep)
			st->px[(size_t)j * ctx->width + i] = atomkms_load32(q);
	}
	st->job = job;
	st->map = src->map[0];
	st->y0 = y;
	st->y1 = y + lines;
	return st->px;
}

/*
 * 8-bit frames: an unscaled XRGB8888 or ARGB8888 plane, any rotation and
 * blend, straight from memory (an unrotated, aligned line in place; a
 * plane rotated by 90 or 270 degrees through a strip; else gathered),
 * blended by the frame's blend32 (include/atomkms_simd.h).
 */
static void atomkms_line32_8888(const struct atomkms_line_ctx *ctx,
				const struct atomkms_plane_job *job,
				const struct atomkms_plane_src *src, s32 y)
{
	s32 a = (s32)(job->rx >> 16) + job->x1 - job->dst_x;
	s32 b = (s32)(job->ry >> 16) + y - job->dst_y;
	s32 fx = job->mx0 + job->mxa * a + job->mxb * b;
	s32 fy = job->my0 + job->mya * a + job->myb * b;
	const u8 *p = src->map[0] + (ptrdiff_t)fy * src->pitch[0] +
		      (ptrdiff_t)fx * 4;
	ptrdiff_t step = (ptrdiff_t)job->mya * src->pitch[0] + job->mxa * 4;
	ptrdiff_t bstep = (ptrdiff_t)job->myb * src->pitch[0] + job->mxb * 4;
	u32 n = job->x2 - job->x1, i;
	const u32 *line = NULL;

	if (step == 4 && !((unsigned long)p & 3))
		line = (const u32 *)p;
	else if (bstep == 4 || bstep == -4)
		line = atomkms_strip_line(ctx, job, src, y, p, step, bstep, n);
	if (!line) {
		for (i = 0; i < n; i++, p += step)
			ctx->tmp32[i] = atomkms_load32(p);
		line = ctx->tmp32;
	}
	ctx->simd->blend32(job->op, job->alpha >> 8, line,
			   ctx->acc32 + job->x1, n);
}

/*
 * The YCbCr fast path's offsets of &struct atomkms_yuv_lerp: the
 * conversion's constants, its rounding and the bias, one per channel.
 */
static void atomkms_yuv_lerp_init(struct atomkms_yuv_lerp *l,
				  const struct atomkms_csc *c)
{
	s64 k = (1 << 15) + ((s64)ATOMKMS_YUV_BIAS << 24) -
		(s64)c->cy * c->y_off;

	l->cy = c->cy;
	l->crv = c->crv;
	l->cgu = c->cgu;
	l->cgv = c->cgv;
	l->cbu = c->cbu;
	l->kr = (u64)(k - (s64)c->crv * c->c_off);
	l->kg = (u64)(k + ((s64)c->cgu + c->cgv) * c->c_off);
	l->kb = (u64)(k - (s64)c->cbu * c->c_off);
}

/**
 * atomkms_yuv_lerp_windows - where the YCbCr line's pixels fit windows
 * @l: the line's columns, chroma layout and sample counts (all but @win,
 *     @woff)
 * @n: output pixels
 * @win: 2 words per group of %ATOMKMS_YUV_WIN pixels (@n / 8 + 1 groups)
 * @woff: a word per pixel
 *
 * Fills @win and @woff as &struct atomkms_yuv_lerp describes them: the
 * vector loops then load a group's samples as one window of each channel
 * and pick them by lane (scaling up by about 8/7 or more, or unscaled),
 * instead of gathering them a sample at a time. Computed once per source
 * span: the columns of a plane's lines are kept from one line to the
 * next, and these with them.
 */
void atomkms_yuv_lerp_windows(const struct atomkms_yuv_lerp *l, u32 n,
			      u32 *win, u32 *woff)
{
	const u32 w = ATOMKMS_YUV_WIN;
	u32 g, i;

	for (g = 0; g * w < n; g++) {
		u32 a = l->idx0[g * w];
		u32 c = atomkms_yuv_cgroup(l, a);
		bool fit = g * w + w <= n && a + w <= l->ny && c + w <= l->nc;

		for (i = g * w; fit && i < g * w + w; i++) {
			u32 o0 = l->idx0[i] - a, o1 = l->idx1[i] - a;
			u32 p0 = atomkms_yuv_cgroup(l, l->idx0[i]) - c;
			u32 p1 = atomkms_yuv_cgroup(l, l->idx1[i]) - c;

			fit = (o0 | o1 | p0 | p1) < w;
			woff[i] = o0 | o1 << 8 | p0 << 16 | p1 << 24;
		}
		win[2 * g] = fit ? a : ~0u;
		win[2 * g + 1] = c;
	}
}

/*
 * Source columns [@lo, @lo + @n) of framebuffer line @b of an unrotated
 * 8-bit YCbCr plane, for atomkms_line_yuv8(): luma into *@y, chroma
 * into *@c. NV12 and NV21 point into the framebuffer (the luma line, and
 * its chroma line's pairs from column lo & ~1 on, NV21's as (Cr, Cb));
 * YUYV and UYVY at their macropixels from column lo & ~1 on, their luma
 * copied to @ybuf; other formats go through their reader (into
 * ctx->tmp1), a (Cb, Cr) pair per column, into @ybuf and @cbuf.
 * Return: the bytes of chroma.
 */
static u32 atomkms_yuv_row(const struct atomkms_line_ctx *ctx,
			   const struct atomkms_plane_job *job,
			   const struct atomkms_plane_src *src, s32 lo, s32 b,
			   u32 n, const u8 **y, const u8 **c, u8 *ybuf,
			   u8 *cbuf)
{
	u32 fourcc = job->fmt->fourcc, i;

	if (fourcc == ATOMKMS_FMT_NV12 || fourcc == ATOMKMS_FMT_NV21) {
		*y = src->map[0] + (ptrdiff_t)b * src->pitch[0] + lo;
		*c = src->map[1] + (ptrdiff_t)(b >> 1) * src->pitch[1] +
		     (lo & ~1);
		return ((lo + n - 1) | 1) - (lo & ~1) + 1;
	}
	if (fourcc == ATOMKMS_FMT_YUYV || fourcc == ATOMKMS_FMT_UYVY) {
		/* The macropixels of columns lo .. lo + n - 1, whole. */
		const u8 *p = src->map[0] + (ptrdiff_t)b * src->pitch[0];
		u32 ly = fourcc == ATOMKMS_FMT_UYVY;

		for (i = 0; i < n; i++)
			ybuf[i] = p[2 * ((u32)lo + i) + ly];
		*y = ybuf;
		*c = p + 4 * (lo >> 1);
		return 4 * (((lo + n - 1) >> 1) - (lo >> 1) + 1);
	}
	job->fmt->read_line(src, lo, b, 1, 0, n, ctx->tmp1);
	for (i = 0; i < n; i++) {
		ybuf[i] = ctx->tmp1[i].g >> 8;
		cbuf[2 * i] = ctx->tmp1[i].b >> 8;
		cbuf[2 * i + 1] = ctx->tmp1[i].r >> 8;
	}
	*y = ybuf;
	*c = cbuf;
	return 2 * n;
}

/*
 * Fast path: an unrotated 8-bit YCbCr plane on packed lines, scaled
 * (bilinear or nearest) or not, any blend. A chunk of output pixels at
 * a time (as the general path's, its source span at most
 * min(2 * width, ctx->tmp_len - 2) columns, never less than a pair; a whole
 * line's columns are kept for the next line): the two source lines'
 * luma and chroma, interpolated across the lines (yuv_vlerp; NV12's
 * straight from the framebuffer, its chroma a pair per two columns, and
 * YUYV's chroma as its macropixels hold it), then
 * along them (yuv_hlerp) and converted to 0xffRRGGBB words, then blended
 * (blend32): the frame's vector loops (include/atomkms_simd.h) all
 * through. The bytes are the general path's: its arithmetic, reordered
 * exactly (simd/atomkms_simd_yuv.h).
 *
 * Scratch: copied byte lines in ctx->tmp0 (luma 2 x tmp_len bytes,
 * chroma 2 x 2 x tmp_len), the interpolated luma in ctx->line (as u32:
 * 2 * width of them), the chroma in ctx->tmp1 (2 * tmp_len u32), after
 * the readers' use of it; the windows (atomkms_yuv_lerp_windows()) in
 * ctx->win and ctx->woff, kept with the columns.
 */
static void atomkms_line_yuv8(const struct atomkms_line_ctx *ctx,
			      const struct atomkms_plane_job *job,
			      const struct atomkms_plane_src *src, s32 y)
{
	const struct atomkms_simd_ops *simd = ctx->simd;
	struct atomkms_span_cache *cache = ctx->span_cache;
	bool bilinear = job->filter == ATOMKMS_FILTER_BILINEAR;
	bool unscaled = job->flags & ATOMKMS_JOB_UNSCALED;
	u32 fourcc = job->fmt->fourcc;
	bool nv = fourcc == ATOMKMS_FMT_NV12 || fourcc == ATOMKMS_FMT_NV21;
	bool yuyv = fourcc == ATOMKMS_FMT_YUYV || fourcc == ATOMKMS_FMT_UYVY;
	u32 n = job->x2 - job->x1, j = y - job->dst_y, done = 0, wy = 0;
	u32 r = job->r0, t = ctx->tmp_len, i;
	/*
	 * At least 2 (a bilinear pair), whatever the width; YUYV's chroma,
	 * whole macropixels, takes up to 2 * span + 4 words of ctx->tmp1.
	 */
	u32 span = 2 * ctx->width < t - 2 ? 2 * ctx->width : t - 2;
	u8 *buf = (u8 *)ctx->tmp0;
	u32 *c = (u32 *)ctx->tmp1;
	/* Where Cb and Cr are in a group of chroma (a pair, a macropixel). */
	u32 ob = fourcc == ATOMKMS_FMT_NV21 || fourcc == ATOMKMS_FMT_YUYV;
	u32 orr = fourcc == ATOMKMS_FMT_YUYV ? 3 :
		  fourcc == ATOMKMS_FMT_UYVY ? 2 : !ob;
	struct atomkms_yuv_lerp l = {
		.y = (u32 *)ctx->line, .cb = c + ob, .cr = c + orr,
		.idx0 = ctx->idx0, .idx1 = ctx->idx1, .wx = ctx->wx,
		.win = ctx->win, .woff = ctx->woff,
		.cshift = nv || yuyv, .cstep = yuyv ? 2 : 1,
	};
	/*
	 * Opaque pixels at full plane alpha: blend32() of them, no blend or
	 * OVER, would copy them, so they go onto the line at once.
	 */
	bool direct = job->alpha >> 8 == 255 &&
		      (job->op == ATOMKMS_BLEND_PIXEL_NONE ||
		       job->op == ATOMKMS_BLEND_PREMULTI);
	u64 q = job->q0;
	s32 b0, b1;

	atomkms_yuv_lerp_init(&l, &job->csc);
	if (unscaled) {
		b0 = (s32)(job->ry >> 16) + j;
		b1 = b0;
	} else {
		wy = atomkms_src_rows(job, bilinear, j, &b0, &b1);
	}
	if (b1 == b0)
		wy = 0;
	while (done < n) {
		const u8 *y0, *y1, *c0, *c1;
		s32 lo, hi;
		u32 k, nc;
		bool kept = cache->job == job;

		if (kept) {
			/* This plane's previous line: one chunk, kept. */
			k = n;
			lo = cache->lo;
			hi = cache->hi;
		} else if (unscaled) {
			k = n - done < ctx->width ? n - done : ctx->width;
			lo = (s32)(job->rx >> 16) + job->x1 - job->dst_x + done;
			hi = lo + k - 1;
			cache->job = NULL;
			for (i = 0; i < k; i++) {
				ctx->idx0[i] = i;
				ctx->idx1[i] = i;
				ctx->wx[i] = 0;
			}
		} else {
			k = atomkms_span_chunk(ctx, job, bilinear, n - done,
					       span, &q, &r, &lo, &hi);
		}
		if (k == n) {
			cache->job = job;
			cache->lo = lo;
			cache->hi = hi;
		}
		nc = atomkms_yuv_row(ctx, job, src, lo, b0, hi - lo + 1, &y0,
				     &c0, buf, buf + 2 * t);
		if (wy)
			atomkms_yuv_row(ctx, job, src, lo, b1, hi - lo + 1, &y1,
					&c1, buf + t, buf + 4 * t);
		else
			y1 = y0, c1 = c0;	/* not read: wy 0 */
		l.cpar = nv || yuyv ? lo & 1 : 0;
		l.ny = hi - lo + 1;
		l.nc = nc - (ob > orr ? ob : orr);
		if (!kept)
			atomkms_yuv_lerp_windows(&l, k, ctx->win, ctx->woff);
		simd->yuv_vlerp(wy, y0, y1, (u32 *)l.y, hi - lo + 1);
		simd->yuv_vlerp(wy, c0, c1, c, nc);
		if (direct) {
			simd->yuv_hlerp(&l, ctx->acc32 + job->x1 + done, k);
		} else {
			simd->yuv_hlerp(&l, ctx->tmp32, k);
			simd->blend32(job->op, job->alpha >> 8, ctx->tmp32,
				      ctx->acc32 + job->x1 + done, k);
		}
		done += k;
	}
}

/**
 * struct atomkms_fast_path - one row of the fast path table
 * @fourcc: the plane's format; 0 matches any RGB format,
 *          %ATOMKMS_PATH_YUV8 any 8-bit YCbCr one
 * @op: the plane's effective blend mode; %ATOMKMS_PATH_ANY_OP matches any
 * @lines: the frame lines it composes into (ATOMKMS_LINE_*)
 * @flags: the ATOMKMS_JOB_* flags the plane must have
 * @in_place: on a packed line that this opaque plane covers alone, its
 *            framebuffer line itself is the output line, with no copy (the
 *            sinks ignore the X bytes)
 * @fn: draws one line of the plane
 */
struct atomkms_fast_path {
	u32 fourcc;
	u8 op;
	u8 lines;
	u8 flags;
	bool in_place;
	atomkms_plane_line_fn fn;
};

#define ATOMKMS_PATH_ANY_OP	0xff
/* Not a fourcc: every 8-bit YCbCr format. */
#define ATOMKMS_PATH_YUV8	1

/*
 * Searched in order once per plane per frame; a plane no row takes goes
 * through atomkms_general_path. On packed lines the general path packs
 * what it composed.
 */
static const struct atomkms_fast_path atomkms_fast_path_table[] = {
	{ ATOMKMS_FMT_ARGB8888, ATOMKMS_BLEND_PREMULTI, ATOMKMS_LINE_PX8,
	  ATOMKMS_JOB_UNSCALED | ATOMKMS_JOB_UNROTATED | ATOMKMS_JOB_FULL_ALPHA,
	  false, atomkms_line_over8 },
	{ ATOMKMS_FMT_ARGB8888, ATOMKMS_BLEND_PREMULTI, ATOMKMS_LINE_PX8,
	  ATOMKMS_JOB_UNSCALED | ATOMKMS_JOB_UNROTATED,
	  false, atomkms_line_over8_alpha },
	{ 0, ATOMKMS_BLEND_PIXEL_NONE, ATOMKMS_LINE_PX,
	  ATOMKMS_JOB_OPAQUE | ATOMKMS_JOB_UNSCALED,
	  false, atomkms_line_direct },
	{ ATOMKMS_FMT_XRGB8888, ATOMKMS_PATH_ANY_OP, ATOMKMS_LINE_PACKED,
	  ATOMKMS_JOB_UNSCALED | ATOMKMS_JOB_UNROTATED,
	  true, atomkms_line32_8888 },
	{ ATOMKMS_FMT_ARGB8888, ATOMKMS_PATH_ANY_OP, ATOMKMS_LINE_PACKED,
	  ATOMKMS_JOB_UNSCALED | ATOMKMS_JOB_UNROTATED,
	  true, atomkms_line32_8888 },
	{ ATOMKMS_FMT_XRGB8888, ATOMKMS_PATH_ANY_OP, ATOMKMS_LINE_PACKED,
	  ATOMKMS_JOB_UNSCALED, false, atomkms_line32_8888 },
	{ ATOMKMS_FMT_ARGB8888, ATOMKMS_PATH_ANY_OP, ATOMKMS_LINE_PACKED,
	  ATOMKMS_JOB_UNSCALED, false, atomkms_line32_8888 },
	{ ATOMKMS_PATH_YUV8, ATOMKMS_PATH_ANY_OP, ATOMKMS_LINE_PACKED,
	  ATOMKMS_JOB_UNROTATED, false, atomkms_line_yuv8 },
};

static const struct atomkms_fast_path atomkms_general_path = {
	.op = ATOMKMS_PATH_ANY_OP,
	.lines = ATOMKMS_LINE_PX | ATOMKMS_LINE_PACKED,
	.fn = atomkms_line_general,
};

static bool atomkms_fast_path_takes(const struct atomkms_fast_path *f,
				    const struct atomkms_plane_job *job,
				    u32 line)
{
	if (f->fourcc == ATOMKMS_PATH_YUV8) {
		if (!job->fmt->is_yuv || job->fmt->depth != 8)
			return false;
	} else if (f->fourcc ? f->fourcc != job->fmt->fourcc :
		   job->fmt->is_yuv) {
		return false;
	}
	return (f->op == ATOMKMS_PATH_ANY_OP || f->op == job->op) &&
	       (f->lines & line) && (job->flags & f->flags) == f->flags;
}

/* The path of plane @job in a frame of ATOMKMS_LINE_* @line. */
static const struct atomkms_fast_path *
atomkms_fast_path_lookup(const struct atomkms_plane_job *job, u32 line,
			 bool fast)
{
	u32 i;

	for (i = 0; fast && i < ARRAY_SIZE(atomkms_fast_path_table); i++)
		if (atomkms_fast_path_takes(&atomkms_fast_path_table[i], job,
					    line))
			return &atomkms_fast_path_table[i];
	return &atomkms_general_path;
}

/* Does opaque plane @job cover [x1, x2) of line @y? */
static inline bool atomkms_covers(const struct atomkms_plane_job *job, s32 y,
				  s32 x1, s32 x2)
{
	return job && (job->flags & ATOMKMS_JOB_OPAQUE) && y >= job->y1 &&
	       y < job->y2 && job->x1 <= x1 && job->x2 >= x2;
}

/*
 * Line @y of a mode32 frame when the opaque plane @start that covers it
 * is the only plane on it and its path works in place: its framebuffer
 * line itself. NULL otherwise.
 */
static const u32 *
atomkms_line32_alone(const struct atomkms_frame *f,
		     const struct atomkms_plane_job *const *jobs,
		     const struct atomkms_fast_path *const *paths,
		     s32 start, s32 y)
{
	const struct atomkms_plane_job *job = jobs[start];
	const u8 *p;
	s32 k;

	if (!paths[start]->in_place)
		return NULL;
	for (k = start + 1; k < (s32)f->num_planes; k++)
		if (jobs[k] && y >= jobs[k]->y1 && y < jobs[k]->y2)
			return NULL;
	p = atomkms_unrotated_src(job, &f->planes[start].src, y, 4);
	return (unsigned long)p & 3 ? NULL : (const u32 *)p;
}

/* The sinks of a mode32 line @px; widens it for those that take pixels. */
static void atomkms_sinks32(const struct atomkms_frame *f,
			    const struct atomkms_line_ctx *ctx, u32 y,
			    const u32 *px, struct atomkms_crc *crc)
{
	const struct atomkms_writeback *wb = f->wb;
	u32 x;

	if (f->crc)
		atomkms_crc_line_with(crc, px, f->width, ctx->simd->crc_blocks);
	if (wb && (wb->fourcc == ATOMKMS_FMT_XRGB8888 ||
		   wb->fourcc == ATOMKMS_FMT_ARGB8888)) {
		u32 *o = (u32 *)(wb->map[0] + (size_t)y * wb->pitch[0]);

		if (!((unsigned long)o & 3)) {
			if (ctx->stream)
				ctx->simd->stream_xff(o, px, f->width);
			else
				ctx->simd->copy_xff(o, px, f->width);
			wb = NULL;
		}
	}
	if (!f->line_sink && !wb)
		return;
	for (x = 0; x < f->width; x++)
		ctx->acc[x] = (struct atomkms_px){
			0xffff, ((px[x] >> 16) & 0xff) * 257,
			((px[x] >> 8) & 0xff) * 257, (px[x] & 0xff) * 257 };
	if (f->line_sink)
		f->line_sink(f->sink_ctx, y, ctx->acc, f->width);
	if (wb)
		atomkms_writeback_line(wb, y, ctx->acc, f->width);
}

/* A channel's 10-bit deviation from its top 8 bits' (atomkms_crc.h). */
static __always_inline u32 atomkms_dev10(u16 v)
{
	return ((v >> 6) ^ (v >> 14)) & 3;
}

/*
 * The deviation words of a 10-bit line into @o, hashed into @deep;
 * Return: their OR, 0 when the line is all 8-bit replications.
 */
static u32 atomkms_crc_deep_line(struct atomkms_crc *deep, u32 *o,
				 const struct atomkms_px *px, u32 width)
{
	u32 x, any = 0;

	for (x = 0; x < width; x++) {
		o[x] = atomkms_dev10(px[x].r) << 16 |
		       atomkms_dev10(px[x].g) << 8 | atomkms_dev10(px[x].b);
		any |= o[x];
	}
	atomkms_crc_line(deep, o, width);
	return any;
}

static void atomkms_sinks(const struct atomkms_frame *f,
			  const struct atomkms_line_ctx *ctx, u32 y,
			  struct atomkms_crc *crc, struct atomkms_crc *deep,
			  u32 *deep_any)
{
	const struct atomkms_px *px = ctx->acc;
	u32 x;

	if (f->line_sink)
		f->line_sink(f->sink_ctx, y, px, f->width);
	if (f->crc) {
		u32 *o = (u32 *)ctx->out8;

		for (x = 0; x < f->width; x++)
			o[x] = (u32)(px[x].r >> 8) << 16 |
			       (u32)(px[x].g >> 8) << 8 | px[x].b >> 8;
		atomkms_crc_line(crc, o, f->width);
		if (f->bpc > 8)
			*deep_any |= atomkms_crc_deep_line(deep, o, px,
							   f->width);
	}
	if (f->wb)
		atomkms_writeback_line(f->wb, y, px, f->width);
}

/*
 * Which planes draw (visible, inside the frame), at which precision, and
 * through which path each. Return: the colour pipeline has work.
 */
static bool atomkms_frame_setup(const struct atomkms_frame *frame,
				struct atomkms_line_ctx *ctx,
				const struct atomkms_plane_job **jobs,
				const struct atomkms_fast_path **paths,
				bool fast)
{
	s32 n = frame->num_planes, k;
	bool has_color = atomkms_color_active(frame->color);
	u32 line;

	ctx->prec8 = true;
	for (k = 0; k < n; k++) {
		const struct atomkms_plane_job *job = frame->planes[k].job;

		jobs[k] = NULL;
		if (!job || !job->visible || job->x2 > (s32)frame->width ||
		    job->y2 > (s32)frame->height)
			continue;
		jobs[k] = job;
		if (job->fmt->depth > 8)
			ctx->prec8 = false;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	ctx->mode32 = fast && ctx->prec8 && !has_color;
#else
	ctx->mode32 = false;
#endif
	line = ctx->mode32 ? ATOMKMS_LINE_PACKED :
	       ctx->prec8 ? ATOMKMS_LINE_PX8 : ATOMKMS_LINE_PX16;
	for (k = 0; k < n; k++)
		if (jobs[k])
			paths[k] = atomkms_fast_path_lookup(jobs[k], line, fast);
	return has_color;
}

/* The topmost plane that covers line @y whole, or -1: none below counts. */
static s32 atomkms_line_bottom(const struct atomkms_plane_job *const *jobs,
			       s32 n, s32 y, s32 w)
{
	s32 k;

	for (k = n - 1; k >= 0; k--)
		if (atomkms_covers(jobs[k], y, 0, w))
			break;
	return k;
}

/* The black background of a line that no plane covers whole. */
static void atomkms_line_clear(struct atomkms_line_ctx *ctx, s32 w)
{
	s32 k;

	if (ctx->mode32) {
		memset(ctx->acc32, 0, 4 * (size_t)w);
		return;
	}
	for (k = 0; k < w; k++)
		ctx->acc[k] = (struct atomkms_px){ 0xffff, 0, 0, 0 };
}

/* A 32-bit plane's framebuffer line @y as words, or NULL if unaligned. */
static const u32 *atomkms_line32_words(const struct atomkms_plane_job *job,
				       const struct atomkms_plane_src *src,
				       s32 y)
{
	const u8 *p = atomkms_unrotated_src(job, src, y, 4);

	return (unsigned long)p & 3 ? NULL : (const u32 *)p;
}

/*
 * A plane whose line (@y) over_n() can take as an overlay: premultiplied
 * ARGB8888 at plane alpha 255, across the whole frame line, unscaled,
 * unrotated, aligned. Return: its line, or NULL.
 */
static const u32 *
atomkms_line32_overlay(const struct atomkms_frame *f,
		       const struct atomkms_plane_job *job,
		       const struct atomkms_fast_path *path,
		       const struct atomkms_plane_src *src, s32 y)
{
	if (path->fn != atomkms_line32_8888 || !path->in_place ||
	    job->fmt->fourcc != ATOMKMS_FMT_ARGB8888 ||
	    job->op != ATOMKMS_BLEND_PREMULTI ||
	    !(job->flags & ATOMKMS_JOB_FULL_ALPHA) || job->x1 ||
	    job->x2 != (s32)f->width)
		return NULL;
	return atomkms_line32_words(job, src, y);
}

/*
 * Plane @k and those above it on packed line @y, in one pass of
 * over_n() (include/atomkms_simd.h) instead of one a plane: @k as the
 * base if it is the line's first plane (@first), opaque, across the
 * line, its framebuffer line in place (a copy), followed by overlays
 * (atomkms_line32_overlay()); else @k and the planes above it as
 * overlays onto the line so far, when there are at least two. The
 * planes between that are not on line @y draw nothing; the first on it
 * that cannot be an overlay ends the run. None of the run is culled: it
 * spans the line, and no opaque plane above @k covers the whole line
 * (the line's first plane is the topmost that does).
 *
 * Return: the plane after the run, or @k when nothing was fused.
 */
static s32 atomkms_line32_fused(const struct atomkms_frame *f,
				struct atomkms_line_ctx *ctx,
				const struct atomkms_plane_job *const *jobs,
				const struct atomkms_fast_path *const *paths,
				s32 k, s32 y, bool first)
{
	const u32 *s[ATOMKMS_SIMD_OVER_MAX], *base = ctx->acc32;
	s32 n = f->num_planes, m = k;
	u32 ns = 0;

	if (first && paths[k]->in_place &&
	    atomkms_covers(jobs[k], y, 0, f->width)) {
		base = paths[k]->fn == atomkms_line32_8888 ?
		       atomkms_line32_words(jobs[k], &f->planes[k].src, y) :
		       NULL;
		if (!base)
			return k;
		m = k + 1;
	}
	for (; m < n && ns < ATOMKMS_SIMD_OVER_MAX; m++) {
		const struct atomkms_plane_job *job = jobs[m];

		if (!job || y < job->y1 || y >= job->y2)
			continue;
		s[ns] = atomkms_line32_overlay(f, job, paths[m],
					       &f->planes[m].src, y);
		if (!s[ns])
			break;
		ns++;
	}
	if (!ns || (base == ctx->acc32 && ns < 2))
		return k;
	ctx->simd->over_n(ctx->acc32, base, s, ns, f->width);
	return m;
}

/*
 * Blend the planes from @start up into line @y; with @cull, skip a plane
 * that an opaque plane above covers on this line.
 */
static void atomkms_line_blend(const struct atomkms_frame *frame,
			       struct atomkms_line_ctx *ctx,
			       const struct atomkms_plane_job *const *jobs,
			       const struct atomkms_fast_path *const *paths,
			       s32 start, s32 y, bool cull)
{
	s32 n = frame->num_planes, k, m;
	bool first = true;

	for (k = start; k < n; k++) {
		const struct atomkms_plane_job *job = jobs[k];

		if (!job || y < job->y1 || y >= job->y2)
			continue;
		m = ctx->mode32 ? atomkms_line32_fused(frame, ctx, jobs, paths,
						       k, y, first) : k;
		first = false;
		if (m > k) {
			k = m - 1;
			continue;
		}
		if (cull) {
			for (m = k + 1; m < n; m++)
				if (atomkms_covers(jobs[m], y, job->x1, job->x2))
					break;
			if (m < n)
				continue;
		}
		paths[k]->fn(ctx, job, &frame->planes[k].src, y);
	}
}

/*
 * The vector sections: a frame whose lines call &struct atomkms_simd_ops
 * functions (packed lines) composes between ops->begin() and ops->end()
 * (in the module kernel_fpu_begin() and kernel_fpu_end(): preemption is
 * off in between), a chunk of lines at a time: at most
 * ATOMKMS_SIMD_SECTION_LINES lines, and about ATOMKMS_SIMD_SECTION_PX
 * plane pixels, so that a section stays short whatever the width and the
 * plane count. A frame's line_hook runs between sections, never in one.
 */
#define ATOMKMS_SIMD_SECTION_LINES	8
#define ATOMKMS_SIMD_SECTION_PX		32768

/*
 * Does the frame's data (the planes it reads, a line of framebuffer per
 * line of output each, and the writeback buffer) pass
 * ATOMKMS_SIMD_STREAM_BYTES?
 */
static bool atomkms_frame_streams(const struct atomkms_frame *frame,
				  const struct atomkms_plane_job *const *jobs)
{
	u64 bytes = frame->wb ? 4ull * frame->width * frame->height : 0;
	u32 k;

	for (k = 0; k < frame->num_planes; k++)
		if (jobs[k])
			bytes += 4ull * (u32)(jobs[k]->x2 - jobs[k]->x1) *
				 (u32)(jobs[k]->y2 - jobs[k]->y1);
	return bytes > ATOMKMS_SIMD_STREAM_BYTES;
}

static u32 atomkms_simd_section_lines(const struct atomkms_frame *frame,
				      const struct atomkms_plane_job *const *jobs)
{
	u32 k, planes = 1, px, lines;

	for (k = 0; k < frame->num_planes; k++)
		planes += !!jobs[k];
	px = frame->width * planes;
	lines = ATOMKMS_SIMD_SECTION_PX / px;
	if (!lines)
		return 1;
	return lines > ATOMKMS_SIMD_SECTION_LINES ? ATOMKMS_SIMD_SECTION_LINES :
	       lines;
}

/* Compose line @y of @frame into its sinks. */
static void atomkms_compose_line(const struct atomkms_frame *frame,
				 struct atomkms_line_ctx *ctx,
				 const struct atomkms_plane_job *const *jobs,
				 const struct atomkms_fast_path *const *paths,
				 s32 y, bool cull, bool has_color,
				 struct atomkms_crc *crc, struct atomkms_crc *deep,
				 u32 *deep_any)
{
	s32 w = frame->width, n = frame->num_planes, start;

	start = cull ? atomkms_line_bottom(jobs, n, y, w) : -1;
	if (start >= 0 && ctx->mode32) {
		const u32 *px = atomkms_line32_alone(frame, jobs, paths, start,
						     y);

		if (px) {
			atomkms_sinks32(frame, ctx, y, px, crc);
			return;
		}
	}
	if (start < 0) {
		atomkms_line_clear(ctx, w);
		start = 0;
	}
	atomkms_line_blend(frame, ctx, jobs, paths, start, y, cull);
	if (ctx->mode32) {
		atomkms_sinks32(frame, ctx, y, ctx->acc32, crc);
		return;
	}
	if (has_color)
		atomkms_color_apply_line(frame->color, ctx->acc, w);
	atomkms_sinks(frame, ctx, y, crc, deep, deep_any);
}

/**
 * atomkms_band_split - the lines of one of @n bands of a frame
 * @band: receives @y0 and @y1, and is ready for atomkms_compose_band()
 * @height: the frame's height
 * @n: the number of bands, at least 1
 * @i: which band, from 0 (the top)
 *
 * The bands are unions of whole CRC chunks (%ATOMKMS_CRC_CHUNK_LINES
 * lines), as even as the chunks allow, in order from the top; a band may
 * be empty when the frame has fewer chunks than bands.
 */
void atomkms_band_split(struct atomkms_band *band, u32 height, u32 n, u32 i)
{
	u64 chunks = ((u64)height + ATOMKMS_CRC_CHUNK_LINES - 1) /
		     ATOMKMS_CRC_CHUNK_LINES;
	u64 c0 = n ? chunks * i / n : 0, c1 = n ? chunks * (i + 1) / n : chunks;

	band->y0 = (u32)(c0 * ATOMKMS_CRC_CHUNK_LINES < height ?
			 c0 * ATOMKMS_CRC_CHUNK_LINES : height);
	band->y1 = (u32)(c1 * ATOMKMS_CRC_CHUNK_LINES < height ?
			 c1 * ATOMKMS_CRC_CHUNK_LINES : height);
}

/**
 * atomkms_compose_band - compose lines [@band->y0, @band->y1) of a frame
 * @frame: output size, planes, colour pipeline and sinks
 * @scratch: a scratch buffer from atomkms_compose_scratch_init(), this
 *           band's alone while it runs
 * @band: the lines (atomkms_band_split()); receives their share of the
 *        frame's CRC when @frame->crc is set (atomkms_compose_crc())
 *
 * Composes line by line: black background, the planes in order (unless
 * %ATOMKMS_FRAME_GENERAL, planes covered on a line by an opaque plane
 * above are skipped), the colour pipeline, then the sinks. Bands with
 * scratch buffers of their own are independent: they may run at once, on
 * several threads, in any order, and give the bytes and CRC of one pass
 * over the frame; @frame->line_hook, if set, is called from each. A band
 * starts on a CRC chunk (a multiple of %ATOMKMS_CRC_CHUNK_LINES) and ends
 * on one or at the frame's last line. Jobs whose destination does not fit
 * the frame are skipped. Packed lines blend through @frame->simd, in
 * sections of a few lines between its begin() and end()
 * (atomkms_simd_section_lines()).
 *
 * Return: 0, or -22 (EINVAL) for a frame the scratch buffer or the plane
 * limit cannot take, or a band that is not made of whole chunks of the
 * frame (nothing is written then).
 */
int atomkms_compose_band(const struct atomkms_frame *frame, void *scratch,
			 struct atomkms_band *band)
{
	const struct atomkms_plane_job *jobs[ATOMKMS_COMPOSE_MAX_PLANES];
	const struct atomkms_fast_path *paths[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_scratch *s = scratch;
	struct atomkms_line_ctx ctx;
	bool has_color, cull = !(frame->flags & ATOMKMS_FRAME_GENERAL);
	const struct atomkms_simd_ops *simd;
	s32 y;
	u32 section = 0, lines = 0;

	if (!s || s->magic != ATOMKMS_SCRATCH_MAGIC || !frame->width || !frame->height ||
	    frame->width > s->width || frame->height > ATOMKMS_COMPOSE_MAX_DST ||
	    frame->num_planes > ATOMKMS_COMPOSE_MAX_PLANES ||
	    band->y0 > band->y1 || band->y1 > frame->height ||
	    band->y0 % ATOMKMS_CRC_CHUNK_LINES ||
	    (band->y1 % ATOMKMS_CRC_CHUNK_LINES && band->y1 != frame->height))
		return -ATOMKMS_EINVAL;

	atomkms_line_ctx_init(&ctx, s);
	atomkms_crc_init_at(&band->crc, band->y0);
	atomkms_crc_init_at(&band->deep, band->y0);
	band->deep_any = 0;
	has_color = atomkms_frame_setup(frame, &ctx, jobs, paths, cull);
	simd = frame->simd ? frame->simd : &atomkms_simd_scalar;
	ctx.simd = simd;
	ctx.stream = ctx.mode32 && atomkms_frame_streams(frame, jobs);
	if (ctx.mode32 && simd->begin)
		section = atomkms_simd_section_lines(frame, jobs);

	for (y = band->y0; y < (s32)band->y1; y++) {
		if (frame->line_hook) {
			if (lines) {
				simd->end();
				lines = 0;
			}
			frame->line_hook(frame->hook_ctx, y);
		}
		if (section && !lines++)
			simd->begin();
		atomkms_compose_line(frame, &ctx, jobs, paths, y, cull,
				     has_color, &band->crc, &band->deep,
				     &band->deep_any);
		if (lines == section && lines) {
			simd->end();
			lines = 0;
		}
	}
	if (lines)
		simd->end();
	return 0;
}

/**
 * atomkms_compose_crc - a frame's CRC from its bands'
 * @bands: bands that cover the frame once each, composed with
 *         &atomkms_frame.crc set, in any order
 * @n: their number
 *
 * The CRC is the checksum of atomkms_crc.h (never 0) over the frame's
 * lines as 0x00RRGGBB words (each channel v >> 8): equal 8-bit pixels
 * give equal CRCs, whatever planes, formats and bands produced them. At
 * an &atomkms_frame.bpc of 10 it covers each channel's 10 bits (v >> 6):
 * the deviation words of atomkms_crc.h, which only 16-bit lines can have
 * (a packed 8-bit line's are all 0).
 *
 * Return: the frame's CRC.
 */
u64 atomkms_compose_crc(const struct atomkms_band *bands, u32 n)
{
	u64 sum = 0, deep = 0;
	u32 i, deep_any = 0;

	for (i = 0; i < n; i++) {
		sum += atomkms_crc_sum(&bands[i].crc);
		deep += atomkms_crc_sum(&bands[i].deep);
		deep_any |= bands[i].deep_any;
	}
	return deep_any ? atomkms_crc_value_deep(sum, deep) :
	       atomkms_crc_value(sum);
}

/**
 * atomkms_compose_frame - compose one frame into its sinks, in one band
 * @frame: output size, planes, colour pipeline and sinks
 * @scratch: the CRTC's scratch buffer, from atomkms_compose_scratch_init()
 *
 * atomkms_compose_band() over every line, then, if @frame->crc is set,
 * the frame's CRC (atomkms_compose_crc()) into it.
 *
 * Return: 0, or -22 (EINVAL) for a frame the scratch buffer or the plane
 * limit cannot take (nothing is written then).
 */
int atomkms_compose_frame(const struct atomkms_frame *frame, void *scratch)
{
	struct atomkms_band band = { .y0 = 0, .y1 = frame->height };
	int ret = atomkms_compose_band(frame, scratch, &band);

	if (!ret && frame->crc)
		*frame->crc = atomkms_compose_crc(&band, 1);
	return ret;
}
