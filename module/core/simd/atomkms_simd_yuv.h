/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bilinear 8-bit YCbCr line of include/atomkms_simd.h (yuv_vlerp,
 * yuv_hlerp), written once: atomkms_compose.c includes it for the scalar
 * table, atomkms_simd_sse2.c and atomkms_simd_avx2.c for the vector ones
 * (with ATOMKMS_SIMD_NAME and the intrinsics' names defined; see
 * atomkms_simd_lines.h), whose tails are the scalar functions below.
 *
 * The general path (atomkms_line_general()) reads 8-bit samples as v << 8
 * and interpolates them with weights wx, wy in 1/65536 and one rounding:
 * (sum of w_ij v_ij 256 + 2^31) >> 32, that is
 * (wx' Y(a0) + wx Y(a1) + 2^23) >> 24 (wx' = 65536 - wx), where
 * Y(a) = wy' v(a, b0) + wy v(a, b1) < 2^24 is exact in 32 bits (yuv_vlerp;
 * nearest and 1D have zero weights, and the same result). The sum takes
 * 40 bits: SSE2 works in 64-bit lanes, from 32 x 32-bit multiplies; AVX2
 * in 32-bit lanes, the sum in parts (see V_MULLO32 below). The conversion
 * (atomkms_yuv_to_rgb_line(), then the pack to 8 bits: c >> 8 of
 * clamp16()) is clamp((x + 2^15) >> 24, 0, 255), x the conversion's sum
 * (35 bits, signed); with every constant folded into one offset per
 * channel and %ATOMKMS_YUV_BIAS << 24 added, the sum is a 64-bit unsigned
 * one, shifted as such, the bias taken off after.
 */

/* One channel across two lines: (65536 - wy) a + wy b, exact. */
static __always_inline u32 atomkms_yuv_vlerp1(u32 wy, u32 a, u32 b)
{
	return (a << 16) + (u32)((s32)wy * ((s32)b - (s32)a));
}

/* Across two columns: the general path's 16-bit sample. */
static __always_inline u64 atomkms_yuv_hlerp1(u32 w, u32 a, u32 b)
{
	return ((u64)(65536 - w) * a + (u64)w * b + (1u << 23)) >> 24;
}

static __always_inline u32 atomkms_yuv_clamp8(u64 t)
{
	s32 v = (s32)(t >> 24) - ATOMKMS_YUV_BIAS;

	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* The index in @l->cb of source column @col's chroma group. */
static __always_inline u32 atomkms_yuv_cgroup(const struct atomkms_yuv_lerp *l,
					      u32 col)
{
	return ((col + l->cpar) >> l->cshift) << l->cstep;
}

/* Output pixel @i of @l, as a 0xffRRGGBB word. */
static __always_inline u32 atomkms_yuv_px(const struct atomkms_yuv_lerp *l,
					  u32 i)
{
	u32 i0 = l->idx0[i], i1 = l->idx1[i], w = l->wx[i];
	u32 c0 = atomkms_yuv_cgroup(l, i0), c1 = atomkms_yuv_cgroup(l, i1);
	u64 y = atomkms_yuv_hlerp1(w, l->y[i0], l->y[i1]);
	u64 u = atomkms_yuv_hlerp1(w, l->cb[c0], l->cb[c1]);
	u64 v = atomkms_yuv_hlerp1(w, l->cr[c0], l->cr[c1]);
	u64 cy = l->cy * y;

	return 0xff000000u |
	       atomkms_yuv_clamp8(cy + l->crv * v + l->kr) << 16 |
	       atomkms_yuv_clamp8(cy - l->cgu * u - l->cgv * v + l->kg) << 8 |
	       atomkms_yuv_clamp8(cy + l->cbu * u + l->kb);
}

#ifdef ATOMKMS_SIMD_NAME
/*
 * Expected from the includer, beyond atomkms_simd_lines.h's: V_ADD32,
 * V_SUB32, V_SLLI32, V_MADD16 (pairs of signed 16-bit lanes, multiplied
 * and summed into 32 bits), V_PACKS32 (signed saturation to 16 bits),
 * V_LO8 and V_LO16 (interleave with 0, low halves), V_MULU32 (the low 32
 * bits of each 64-bit lane, multiplied into 64), V_ADD64, V_SUB64,
 * V_SRLI64, V_SLLI64, V_SET1_64, V_SRL32(v, n) and V_SLL32(v, n) (logical, n a
 * variable),
 * V_WIDEN8(p) (W bytes from p, each in a 32-bit lane), and the function
 * atomkms_v_gather(b, v, ix): b[ix[0]], ..., b[ix[W - 1]], where vector v
 * holds the W indices of array ix (each level takes the one it loads
 * faster).
 */

/* atomkms_yuv_hlerp1() in the 64-bit lanes (their low 32-bit inputs). */
static __always_inline V atomkms_v_hlerp(V wc, V w, V a, V b)
{
	return V_SRLI64(V_ADD64(V_ADD64(V_MULU32(wc, a), V_MULU32(w, b)),
				V_SET1_64(1u << 23)), 24);
}

/* The three channels' (t >> 24) in the 64-bit lanes of y, u, v. */
static __always_inline void atomkms_v_csc(const struct atomkms_yuv_lerp *l,
					  V y, V u, V v, V *r, V *g, V *b)
{
	V cy = V_MULU32(V_SET1_64(l->cy), y);

	*r = V_SRLI64(V_ADD64(V_ADD64(cy, V_MULU32(V_SET1_64(l->crv), v)),
			      V_SET1_64(l->kr)), 24);
	*g = V_SRLI64(V_SUB64(V_SUB64(V_ADD64(cy, V_SET1_64(l->kg)),
				      V_MULU32(V_SET1_64(l->cgu), u)),
			      V_MULU32(V_SET1_64(l->cgv), v)), 24);
	*b = V_SRLI64(V_ADD64(V_ADD64(cy, V_MULU32(V_SET1_64(l->cbu), u)),
			      V_SET1_64(l->kb)), 24);
}

/*
 * Even pixels' values @e and odd ones' @o (the low halves of the 64-bit
 * lanes) into 32-bit lanes in order, the bias taken off, clamped to
 * 0..255 by two saturating packs, widened back.
 */
static __always_inline V atomkms_v_clamp8(V e, V o)
{
	V z = V_ZERO();
	V x = V_SUB32(V_OR(e, V_SLLI64(o, 32)), V_SET1_32(ATOMKMS_YUV_BIAS));

	x = V_PACKS32(x, x);
	x = V_PACK16(x, x);
	return V_LO16(V_LO8(x, z), z);
}

#ifdef ATOMKMS_SIMD_YUV32
/*
 * The same in 32-bit lanes, W pixels at a time, where the includer
 * defines ATOMKMS_SIMD_YUV32 (AVX2: V_MULLO32, the low
 * 32 bits of a 32 x 32-bit product; V_SRLI32, V_SRAI32; V_BLEND_HI16, the
 * low 16 bits of each lane from a and the high 16 from b; V_SHUF8, a byte
 * shuffle within each 128-bit half, and V_BGRA_ORDER(), its control that
 * interleaves four pixels' b, g, r, a bytes). Exact, as follows.
 *
 * Along the line: with D = Y(a1) - Y(a0) (|D| < 2^24) split as
 * D = 256 Dh + Dl (Dh = D >> 8 arithmetic, 0 <= Dl < 256), the sum
 * S = wx' Y(a0) + wx Y(a1) = 65536 Y(a0) + wx D, and
 * T = floor((S + 2^23) / 256) = (Y(a0) << 8) + wx Dh + ((wx Dl + 2^23) >> 8),
 * each term computed modulo 2^32: T lies in [0, 255 << 24 + 2^15] (Y(a)
 * is at most 255 << 16), so the wrapped sum is T itself, and the sample
 * is T >> 16, in T's high 16 bits.
 *
 * The conversion: each sample as the signed 16-bit s - 32768 (s ^ 0x8000),
 * in pairs (y, v) and (y, u) of one 32-bit lane, times pairs of weights
 * with vpmaddwd. A weight c (|c| < 2^18: the largest, BT.2020's
 * limited-range Cb in blue, is about 140,900) is split as 256 ch + cl,
 * 0 <= cl < 256: the sums A of ch s and B of cl s take at most 27 and 25
 * bits. With the channel's offset K (its rounding, offsets and
 * 32768 times the weights; bias taken back) split alike as 256 Kh + Kl,
 * floor((256 (A + Kh) + B + Kl) / 2^24) is
 * (A + Kh + ((B + Kl) >> 8)) >> 16, shifts arithmetic, each sum within
 * 31 bits. Two saturating packs clamp it to 0..255, as atomkms_yuv_clamp8().
 */
static_assert(W == ATOMKMS_YUV_WIN, "a window is one vector");

struct atomkms_v_csc32 {
	V wh[4];	/* ch pairs: r (y, v); g (y, u), (0, v); b (y, u) */
	V wl[4];	/* cl pairs, the same */
	V kh[3];	/* Kh, Kl: r, g, b */
	V kl[3];
};

static __always_inline V atomkms_v_pair16(s32 lo, s32 hi)
{
	return V_SET1_32((u32)(u16)lo | (u32)hi << 16);
}

static void atomkms_v_csc32_init(const struct atomkms_yuv_lerp *l,
				 struct atomkms_v_csc32 *k)
{
	s32 c[4][2] = { { l->cy, l->crv }, { l->cy, -(s32)l->cgu },
			{ 0, -(s32)l->cgv }, { l->cy, l->cbu } };
	s64 bias = (s64)ATOMKMS_YUV_BIAS << 24, o[3];
	u32 j;

	o[0] = (s64)l->kr - bias + 32768 * ((s64)l->cy + l->crv);
	o[1] = (s64)l->kg - bias +
	       32768 * ((s64)l->cy - l->cgu - l->cgv);
	o[2] = (s64)l->kb - bias + 32768 * ((s64)l->cy + l->cbu);
	for (j = 0; j < 4; j++) {
		k->wh[j] = atomkms_v_pair16(c[j][0] >> 8, c[j][1] >> 8);
		k->wl[j] = atomkms_v_pair16(c[j][0] & 255, c[j][1] & 255);
	}
	for (j = 0; j < 3; j++) {
		k->kh[j] = V_SET1_32((u32)(s32)(o[j] >> 8));
		k->kl[j] = V_SET1_32((u32)(o[j] & 255));
	}
}

/* T of the sample between a and b at weight w (see above). */
static __always_inline V atomkms_v_hlerp32(V w, V a, V b)
{
	V d = V_SUB32(b, a);
	V t = V_ADD32(V_SLLI32(a, 8), V_MULLO32(w, V_SRAI32(d, 8)));
	V r = V_ADD32(V_MULLO32(w, V_AND(d, V_SET1_32(255))),
		      V_SET1_32(1u << 23));

	return V_ADD32(t, V_SRLI32(r, 8));
}

/* One channel: floor(x / 2^24) from A (its ch sums) and B. */
static __always_inline V atomkms_v_chan32(V a, V b, V kh, V kl)
{
	return V_SRAI32(V_ADD32(V_ADD32(a, kh),
				V_SRAI32(V_ADD32(b, kl), 8)), 16);
}

static void ATOMKMS_SIMD_NAME(yuv_hlerp)(const struct atomkms_yuv_lerp *l,
					 u32 *out, u32 n)
{
	const V order = V_BGRA_ORDER();
	const V flip = V_SET1_32(0x80008000u), alpha = V_SET1_32(255);
	V par = V_SET1_32(l->cpar);
	/* In locals: the stores to @out cannot change them. */
	const struct atomkms_yuv_lerp c = *l;
	struct atomkms_v_csc32 k;
	u32 ci[2][W];
	u32 i;

	atomkms_v_csc32_init(&c, &k);
	for (i = 0; i + W <= n; i += W) {
		V w = V_LOAD(c.wx + i);
		u32 a = c.win[2 * (i / W)];
		/* y0, y1, u0, u1, v0, v1: left and right columns' samples */
		V s[6];
		V y, yv, yu, r, g, b;

		if (a != ~0u) {
			/* One window each; the lanes' offsets in woff's bytes. */
			V o = V_LOAD(c.woff + i), p0 = V_SRLI32(o, 16);
			V p1 = V_SRLI32(o, 24), win = V_LOAD(c.y + a);
			u32 cg = c.win[2 * (i / W) + 1];

			s[0] = V_PERMUTE32(win, o);
			s[1] = V_PERMUTE32(win, V_SRLI32(o, 8));
			win = V_LOAD(c.cb + cg);
			s[2] = V_PERMUTE32(win, p0);
			s[3] = V_PERMUTE32(win, p1);
			win = V_LOAD(c.cr + cg);
			s[4] = V_PERMUTE32(win, p0);
			s[5] = V_PERMUTE32(win, p1);
		} else {
			V ix0 = V_LOAD(c.idx0 + i), ix1 = V_LOAD(c.idx1 + i);
			/* The chroma groups: ((i + cpar) >> cshift) << cstep. */
			V c0 = V_SLL32(V_SRL32(V_ADD32(ix0, par), c.cshift),
				       c.cstep);
			V c1 = V_SLL32(V_SRL32(V_ADD32(ix1, par), c.cshift),
				       c.cstep);

			s[0] = atomkms_v_gather(c.y, ix0, c.idx0 + i);
			s[1] = atomkms_v_gather(c.y, ix1, c.idx1 + i);
			V_STORE(ci[0], c0);
			V_STORE(ci[1], c1);
			s[2] = atomkms_v_gather(c.cb, c0, ci[0]);
			s[3] = atomkms_v_gather(c.cb, c1, ci[1]);
			s[4] = atomkms_v_gather(c.cr, c0, ci[0]);
			s[5] = atomkms_v_gather(c.cr, c1, ci[1]);
		}
		/* The samples as signed 16-bit pairs (y, v), (y, u). */
		y = V_SRLI32(atomkms_v_hlerp32(w, s[0], s[1]), 16);
		yu = V_XOR(V_BLEND_HI16(y, atomkms_v_hlerp32(w, s[2], s[3])),
			   flip);
		yv = V_XOR(V_BLEND_HI16(y, atomkms_v_hlerp32(w, s[4], s[5])),
			   flip);
		r = atomkms_v_chan32(V_MADD16(yv, k.wh[0]),
				     V_MADD16(yv, k.wl[0]), k.kh[0], k.kl[0]);
		g = atomkms_v_chan32(V_ADD32(V_MADD16(yu, k.wh[1]),
					     V_MADD16(yv, k.wh[2])),
				     V_ADD32(V_MADD16(yu, k.wl[1]),
					     V_MADD16(yv, k.wl[2])),
				     k.kh[1], k.kl[1]);
		b = atomkms_v_chan32(V_MADD16(yu, k.wh[3]),
				     V_MADD16(yu, k.wl[3]), k.kh[2], k.kl[2]);
		V_STORE(out + i,
			V_SHUF8(V_PACK16(V_PACKS32(b, g), V_PACKS32(r, alpha)),
				order));
	}
	for (; i < n; i++)
		out[i] = atomkms_yuv_px(l, i);
}
#else
static void ATOMKMS_SIMD_NAME(yuv_hlerp)(const struct atomkms_yuv_lerp *l,
					 u32 *out, u32 n)
{
	V one = V_SET1_32(65536), ff = V_SET1_32(0xff000000u);
	V par = V_SET1_32(l->cpar);
	u32 ci[2][W];
	u32 i;

	for (i = 0; i + W <= n; i += W) {
		V w = V_LOAD(l->wx + i), wc = V_SUB32(one, w);
		V ix0 = V_LOAD(l->idx0 + i), ix1 = V_LOAD(l->idx1 + i);
		V y0 = atomkms_v_gather(l->y, ix0, l->idx0 + i);
		V y1 = atomkms_v_gather(l->y, ix1, l->idx1 + i);
		V u0, u1, v0, v1;

		/* The chroma pairs' indices: ((i + cpar) >> cshift) << cstep. */
		ix0 = V_SLL32(V_SRL32(V_ADD32(ix0, par), l->cshift), l->cstep);
		ix1 = V_SLL32(V_SRL32(V_ADD32(ix1, par), l->cshift), l->cstep);
		V_STORE(ci[0], ix0);
		V_STORE(ci[1], ix1);
		u0 = atomkms_v_gather(l->cb, ix0, ci[0]);
		u1 = atomkms_v_gather(l->cb, ix1, ci[1]);
		v0 = atomkms_v_gather(l->cr, ix0, ci[0]);
		v1 = atomkms_v_gather(l->cr, ix1, ci[1]);
		V wco = V_SRLI64(wc, 32), wo = V_SRLI64(w, 32);
		V re, ge, be, ro, go, bo;

		atomkms_v_csc(l, atomkms_v_hlerp(wc, w, y0, y1),
			      atomkms_v_hlerp(wc, w, u0, u1),
			      atomkms_v_hlerp(wc, w, v0, v1), &re, &ge, &be);
		atomkms_v_csc(l, atomkms_v_hlerp(wco, wo, V_SRLI64(y0, 32),
						 V_SRLI64(y1, 32)),
			      atomkms_v_hlerp(wco, wo, V_SRLI64(u0, 32),
					      V_SRLI64(u1, 32)),
			      atomkms_v_hlerp(wco, wo, V_SRLI64(v0, 32),
					      V_SRLI64(v1, 32)), &ro, &go, &bo);
		V_STORE(out + i,
			V_OR(V_OR(V_SLLI32(atomkms_v_clamp8(re, ro), 16),
				  V_SLLI32(atomkms_v_clamp8(ge, go), 8)),
			     V_OR(atomkms_v_clamp8(be, bo), ff)));
	}
	for (; i < n; i++)
		out[i] = atomkms_yuv_px(l, i);
}
#endif

/*
 * wy (b - a) as one multiply-add of 16-bit pairs: wy = 2 wh + wl, the
 * pair (2 (b - a), b - a) times (wh, wl), every factor a signed 16-bit
 * value.
 */
static void ATOMKMS_SIMD_NAME(yuv_vlerp)(u32 wy, const u8 *r0, const u8 *r1,
					 u32 *out, u32 n)
{
	V wv = V_SET1_32((wy & 1) << 16 | wy >> 1), lo = V_SET1_32(0xffff);
	u32 i;

	/*
	 * One line, or weight 0 (NV12's chroma between two luma lines of
	 * one chroma line, every other output line scaling up 1.5x): a << 16.
	 */
	if (r0 == r1 || !wy) {
		for (i = 0; i + W <= n; i += W)
			V_STORE(out + i, V_SLLI32(V_WIDEN8(r0 + i), 16));
		for (; i < n; i++)
			out[i] = (u32)r0[i] << 16;
		return;
	}
	for (i = 0; i + W <= n; i += W) {
		V a = V_WIDEN8(r0 + i), d = V_SUB32(V_WIDEN8(r1 + i), a);
		V pair = V_OR(V_AND(V_ADD32(d, d), lo), V_SLLI32(d, 16));

		V_STORE(out + i, V_ADD32(V_SLLI32(a, 16), V_MADD16(pair, wv)));
	}
	for (; i < n; i++)
		out[i] = atomkms_yuv_vlerp1(wy, r0[i], r1[i]);
}
#endif
