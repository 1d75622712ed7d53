/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vector line loops of include/atomkms_simd.h, written once for
 * either vector width: atomkms_simd_sse2.c (16-byte vectors, 4 pixels)
 * and atomkms_simd_avx2.c (32 bytes, 8 pixels) define the intrinsics'
 * names below and include this file. Every integer instruction used
 * works within 128-bit lanes, so the AVX2 build is the SSE2 one twice
 * over.
 *
 * Per pixel, the channels are widened to 16-bit lanes and multiplied as
 * the scalar core does: mul8(x, a) = (t + (t >> 8)) >> 8 with
 * t = x a + 0x80 (t < 65536: no lane overflows), and min(255, s + m) is a
 * saturating byte add: the bytes equal atomkms_compose.c's.
 *
 * Expected from the includer: V (the vector type), W (pixels a vector),
 * V_ALL (what V_MOVEMASK() returns when every byte's top bit is set),
 * V_LOAD, V_STORE, V_STREAM (non-temporal, aligned), V_SFENCE,
 * V_SET1_32, V_SET1_16, V_ZERO, V_AND, V_OR, V_XOR,
 * V_CMPEQ32, V_MOVEMASK, V_LO8, V_HI8 (interleave bytes with 0), V_PACK16
 * (unsigned saturation), V_MULLO16, V_MULHI16 (unsigned), V_ADD16, V_ADDS8,
 * V_BCAST_A16 (each pixel's alpha lane into its four lanes),
 * V_ALPHA16_LO and V_ALPHA16_HI (V_BCAST_A16 of V_LO8 or V_HI8 of a
 * vector with 0), V_ALL_OPAQUE(s, a) (every alpha byte of s is 0xff; a:
 * V_SET1_32(0xff000000)) and V_ALL_ZERO(s) (s is all 0),
 * for the
 * CRC's 32-bit lanes V_ADD32, V_SRLI32 (by a constant) and V_MULLO32(a, k)
 * (the low halves of the 32-bit products, k a V_SET1_32()), and
 * ATOMKMS_SIMD_NAME(x), the symbol prefix.
 */

/*
 * atomkms_mul8() in every 16-bit lane, as (t * 257) >> 16: the high half
 * of one multiply, equal to (t + (t >> 8)) >> 8 for every t < 65536.
 */
static __always_inline V atomkms_v_mul8(V x, V a)
{
	V t = V_ADD16(V_MULLO16(x, a), V_SET1_16(0x80));

	return V_MULHI16(t, V_SET1_16(257));
}

/* 255 - x in every 16-bit lane holding 0..255. */
static __always_inline V atomkms_v_inv8(V x)
{
	return V_XOR(x, V_SET1_16(0xff));
}

/* Premultiplied OVER, plane alpha 255, of one vector of pixels. */
static __always_inline V atomkms_v_over(V s, V d)
{
	V z = V_ZERO(), a = V_SET1_32(0xff000000u);
	V ns, lo, hi;

	if (V_ALL_OPAQUE(s, a))
		return s;			/* all opaque */
	if (V_ALL_ZERO(s))
		return d;			/* all transparent */
	/* 255 - alpha: the alpha bytes of ~s. */
	ns = V_XOR(s, V_SET1_32(0xffffffffu));
	lo = atomkms_v_mul8(V_LO8(d, z), V_ALPHA16_LO(ns));
	hi = atomkms_v_mul8(V_HI8(d, z), V_ALPHA16_HI(ns));
	return V_ADDS8(s, V_PACK16(lo, hi));
}

/*
 * Blend mode @op at plane alpha @pav (a 16-bit lane vector of pa), one
 * vector of pixels: the source's four lanes times pa (the alpha lane then
 * holds a = mul8(sa, pa)), coverage multiplies again by a, and
 * none takes a = pa.
 */
static __always_inline V atomkms_v_half(u32 op, V pav, V s16, V d16)
{
	V sm = atomkms_v_mul8(s16, pav), a;

	if (op == ATOMKMS_BLEND_PIXEL_NONE) {
		a = pav;
	} else {
		a = V_BCAST_A16(sm);
		if (op == ATOMKMS_BLEND_COVERAGE)
			sm = atomkms_v_mul8(s16, a);
	}
	return V_ADD16(sm, atomkms_v_mul8(d16, atomkms_v_inv8(a)));
}

static __always_inline V atomkms_v_blend(u32 op, V pav, V s, V d)
{
	V z = V_ZERO();

	/* Each sum is at most 510: the pack saturates as min(255, .) does. */
	return V_PACK16(atomkms_v_half(op, pav, V_LO8(s, z), V_LO8(d, z)),
			atomkms_v_half(op, pav, V_HI8(s, z), V_HI8(d, z)));
}

/*
 * One vector of pixels: @op 0xff is OVER at plane alpha 255, 0xfe a
 * copy, else blend mode @op at plane alpha @pav.
 */
#define ATOMKMS_V_OVER	0xff
#define ATOMKMS_V_COPY	0xfe

static __always_inline V atomkms_v_pixels(u32 op, V pav, V s, V d)
{
	if (op == ATOMKMS_V_OVER)
		return atomkms_v_over(s, d);
	if (op == ATOMKMS_V_COPY)
		return s;
	return atomkms_v_blend(op, pav, s, d);
}

/* The line loop for one @op (a constant once inlined), tail included. */
static __always_inline void atomkms_v_line(u32 op, u32 pa, const u32 *s,
					   u32 *d, u32 n)
{
	V pav = V_SET1_16(pa);
	u32 ts[W], td[W];
	u32 i;

	for (i = 0; i + W <= n; i += W) {
		V v = atomkms_v_pixels(op, pav, V_LOAD(s + i), V_LOAD(d + i));

		V_STORE(d + i, v);
	}
	if (i == n)
		return;
	/* The last n % W pixels, through a vector's worth on the stack. */
	memset(ts, 0, sizeof(ts));
	memset(td, 0, sizeof(td));
	memcpy(ts, s + i, (n - i) * 4);
	memcpy(td, d + i, (n - i) * 4);
	V_STORE(td, atomkms_v_pixels(op, pav, V_LOAD(ts), V_LOAD(td)));
	memcpy(d + i, td, (n - i) * 4);
}

static void ATOMKMS_SIMD_NAME(over)(const u32 *s, u32 *d, u32 n)
{
	atomkms_v_line(ATOMKMS_V_OVER, 255, s, d, n);
}

static void ATOMKMS_SIMD_NAME(copy)(const u32 *s, u32 *d, u32 n)
{
	atomkms_v_line(ATOMKMS_V_COPY, 255, s, d, n);
}

static void ATOMKMS_SIMD_NAME(premulti)(u32 pa, const u32 *s, u32 *d, u32 n)
{
	atomkms_v_line(ATOMKMS_BLEND_PREMULTI, pa, s, d, n);
}

static void ATOMKMS_SIMD_NAME(coverage)(u32 pa, const u32 *s, u32 *d, u32 n)
{
	atomkms_v_line(ATOMKMS_BLEND_COVERAGE, pa, s, d, n);
}

static void ATOMKMS_SIMD_NAME(none)(u32 pa, const u32 *s, u32 *d, u32 n)
{
	atomkms_v_line(ATOMKMS_BLEND_PIXEL_NONE, pa, s, d, n);
}

static void ATOMKMS_SIMD_NAME(blend32)(u32 op, u32 pa, const u32 *s, u32 *d,
				       u32 n)
{
	switch (op) {
	case ATOMKMS_BLEND_PREMULTI:
		if (pa == 255)
			ATOMKMS_SIMD_NAME(over)(s, d, n);
		else
			ATOMKMS_SIMD_NAME(premulti)(pa, s, d, n);
		return;
	case ATOMKMS_BLEND_COVERAGE:
		ATOMKMS_SIMD_NAME(coverage)(pa, s, d, n);
		return;
	default:
		if (pa == 255)
			ATOMKMS_SIMD_NAME(copy)(s, d, n);
		else
			ATOMKMS_SIMD_NAME(none)(pa, s, d, n);
		return;
	}
}

/*
 * The overlays @s[0..@ns) OVER @base into @d, one vector at a time: the
 * line is read and written once, whatever @ns. Each step is
 * atomkms_v_over(), the over() pass's, so the bytes are a copy then
 * over() each in turn; the tail goes through a vector's worth on the
 * stack as atomkms_v_line()'s does. @ns is a constant once inlined (the
 * loop over the overlays unrolled); the pointers are copied to locals,
 * which the stores to @d cannot change.
 */
static __always_inline void atomkms_v_over_n(u32 *d, const u32 *base,
					     const u32 *const *s, u32 ns,
					     u32 n)
{
	const u32 *sp[ATOMKMS_SIMD_OVER_MAX];
	u32 ts[W], td[W];
	u32 i, k;
	V v;

	for (k = 0; k < ns; k++)
		sp[k] = s[k];
	for (i = 0; i + W <= n; i += W) {
		v = V_LOAD(base + i);
		for (k = 0; k < ns; k++)
			v = atomkms_v_over(V_LOAD(sp[k] + i), v);
		V_STORE(d + i, v);
	}
	if (i == n)
		return;
	memset(td, 0, sizeof(td));
	memcpy(td, base + i, (n - i) * 4);
	v = V_LOAD(td);
	for (k = 0; k < ns; k++) {
		memset(ts, 0, sizeof(ts));
		memcpy(ts, sp[k] + i, (n - i) * 4);
		v = atomkms_v_over(V_LOAD(ts), v);
	}
	V_STORE(td, v);
	memcpy(d + i, td, (n - i) * 4);
}

static void ATOMKMS_SIMD_NAME(over_n)(u32 *d, const u32 *base,
				      const u32 *const *s, u32 ns, u32 n)
{
	static_assert(ATOMKMS_SIMD_OVER_MAX == 4, "one case a count");
	switch (ns) {
	case 1:
		atomkms_v_over_n(d, base, s, 1, n);
		return;
	case 2:
		atomkms_v_over_n(d, base, s, 2, n);
		return;
	case 3:
		atomkms_v_over_n(d, base, s, 3, n);
		return;
	default:
		atomkms_v_over_n(d, base, s, 4, n);
		return;
	}
}

/*
 * The CRC's lane step (include/atomkms_crc.h) on W lanes at once, a pixel
 * each: x = (h + (p & ATOMKMS_CRC_MASK)) * ATOMKMS_CRC_MUL;
 * h = x ^ (x >> 16), mod 2^32.
 */
static __always_inline V atomkms_v_crc_step(V h, V p)
{
	V x = V_ADD32(h, V_AND(p, V_SET1_32(ATOMKMS_CRC_MASK)));

	x = V_MULLO32(x, V_SET1_32(ATOMKMS_CRC_MUL));
	return V_XOR(x, V_SRLI32(x, 16));
}

/*
 * atomkms_crc_blocks(): a block of ATOMKMS_CRC_LANES pixels, pixel j to
 * lane j: ATOMKMS_CRC_V vectors of W lanes (4 with AVX2, 8 with SSE2),
 * one variable each so that they stay in registers over the run (an
 * array, GCC kept on the stack), their steps independent so that the
 * multiplies' latencies overlap.
 */
#define ATOMKMS_CRC_V	(ATOMKMS_CRC_LANES / W)

static void ATOMKMS_SIMD_NAME(crc_blocks)(u32 *hp, const u32 *px, u32 blocks)
{
	V h0, h1, h2, h3, h4 = V_ZERO(), h5 = V_ZERO(), h6 = V_ZERO();
	V h7 = V_ZERO();

	static_assert(ATOMKMS_CRC_V == 4 || ATOMKMS_CRC_V == 8,
		      "4 or 8 vectors of lanes");
	h0 = V_LOAD(hp);
	h1 = V_LOAD(hp + W);
	h2 = V_LOAD(hp + 2 * W);
	h3 = V_LOAD(hp + 3 * W);
	if (ATOMKMS_CRC_V == 8) {
		h4 = V_LOAD(hp + 4 * W);
		h5 = V_LOAD(hp + 5 * W);
		h6 = V_LOAD(hp + 6 * W);
		h7 = V_LOAD(hp + 7 * W);
	}
	for (; blocks; blocks--, px += ATOMKMS_CRC_LANES) {
		h0 = atomkms_v_crc_step(h0, V_LOAD(px));
		h1 = atomkms_v_crc_step(h1, V_LOAD(px + W));
		h2 = atomkms_v_crc_step(h2, V_LOAD(px + 2 * W));
		h3 = atomkms_v_crc_step(h3, V_LOAD(px + 3 * W));
		if (ATOMKMS_CRC_V == 8) {
			h4 = atomkms_v_crc_step(h4, V_LOAD(px + 4 * W));
			h5 = atomkms_v_crc_step(h5, V_LOAD(px + 5 * W));
			h6 = atomkms_v_crc_step(h6, V_LOAD(px + 6 * W));
			h7 = atomkms_v_crc_step(h7, V_LOAD(px + 7 * W));
		}
	}
	V_STORE(hp, h0);
	V_STORE(hp + W, h1);
	V_STORE(hp + 2 * W, h2);
	V_STORE(hp + 3 * W, h3);
	if (ATOMKMS_CRC_V == 8) {
		V_STORE(hp + 4 * W, h4);
		V_STORE(hp + 5 * W, h5);
		V_STORE(hp + 6 * W, h6);
		V_STORE(hp + 7 * W, h7);
	}
}

static void ATOMKMS_SIMD_NAME(copy_xff)(u32 *d, const u32 *s, u32 n)
{
	V x = V_SET1_32(0xff000000u);
	u32 i;

	for (i = 0; i + W <= n; i += W)
		V_STORE(d + i, V_OR(V_LOAD(s + i), x));
	for (; i < n; i++)
		d[i] = s[i] | 0xff000000u;
}

/*
 * The writeback copy of a frame too large to stay in the caches: the
 * stores bypass them (non-temporal, from the first aligned vector on), as
 * memcpy does for large copies, which saves reading the destination's
 * lines in first; an sfence orders them before whatever follows.
 */
static void ATOMKMS_SIMD_NAME(stream_xff)(u32 *d, const u32 *s, u32 n)
{
	V x = V_SET1_32(0xff000000u);
	u32 i = 0;

	for (; i < n && ((unsigned long)(d + i) & (sizeof(V) - 1)); i++)
		d[i] = s[i] | 0xff000000u;
	for (; i + W <= n; i += W)
		V_STREAM(d + i, V_OR(V_LOAD(s + i), x));
	for (; i < n; i++)
		d[i] = s[i] | 0xff000000u;
	V_SFENCE();
}
