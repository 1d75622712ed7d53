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
 * 40 bits: 64-bit lanes, from 32 x 32-bit multiplies. The conversion
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

/* Output pixel @i of @l, as a 0xffRRGGBB word. */
static __always_inline u32 atomkms_yuv_px(const struct atomkms_yuv_lerp *l,
					  u32 i)
{
	u32 i0 = l->idx0[i], i1 = l->idx1[i], w = l->wx[i];
	u32 c0 = ((i0 + l->cpar) >> l->cshift) << l->cstep;
	u32 c1 = ((i1 + l->cpar) >> l->cshift) << l->cstep;
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

	for (i = 0; i + W <= n; i += W) {
		V a = V_WIDEN8(r0 + i), d = V_SUB32(V_WIDEN8(r1 + i), a);
		V pair = V_OR(V_AND(V_ADD32(d, d), lo), V_SLLI32(d, 16));

		V_STORE(out + i, V_ADD32(V_SLLI32(a, 16), V_MADD16(pair, wv)));
	}
	for (; i < n; i++)
		out[i] = atomkms_yuv_vlerp1(wy, r0[i], r1[i]);
}
#endif
