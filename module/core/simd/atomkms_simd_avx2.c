// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compositor's line loops in AVX2 (include/atomkms_simd.h), for CPUs
 * with AVX2 whose OS saves the YMM state. Built with AVX2 allowed (Kbuild:
 * CFLAGS_atomkms_simd_avx2.o; the tests and the benchmark: -mavx2); in
 * the kernel, called only between kernel_fpu_begin() and
 * kernel_fpu_end(). GCC ends each function that used YMM registers with
 * vzeroupper.
 */
#include "atomkms_compose.h"
#include "atomkms_simd.h"

#ifdef __AVX2__
/*
 * The compiler's intrinsics; in the kernel, without the libc its
 * mm_malloc.h includes (_mm_malloc() is not used).
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#define V		__m256i
#define W		8
#define V_ALL		(-1)
#define V_LOAD(p)	_mm256_loadu_si256((const V *)(p))
#define V_STORE(p, v)	_mm256_storeu_si256((V *)(p), v)
#define V_STREAM(p, v)	_mm256_stream_si256((V *)(p), v)
#define V_SFENCE()	_mm_sfence()
#define V_SET1_32(x)	_mm256_set1_epi32((int)(x))
#define V_SET1_16(x)	_mm256_set1_epi16((short)(x))
#define V_ZERO()	_mm256_setzero_si256()
#define V_AND		_mm256_and_si256
#define V_OR		_mm256_or_si256
#define V_XOR		_mm256_xor_si256
#define V_CMPEQ32	_mm256_cmpeq_epi32
#define V_MOVEMASK	_mm256_movemask_epi8
#define V_LO8		_mm256_unpacklo_epi8
#define V_HI8		_mm256_unpackhi_epi8
#define V_PACK16	_mm256_packus_epi16
#define V_MULLO16	_mm256_mullo_epi16
#define V_ADD16		_mm256_add_epi16
#define V_MULHI16	_mm256_mulhi_epu16
#define V_ADDS8		_mm256_adds_epu8
/* One byte shuffle: bytes 6, 7 (the alpha lane) of each 8-byte pixel. */
#define V_BCAST_A16(v)	_mm256_shuffle_epi8(v, _mm256_set_epi8(		\
	15, 14, 15, 14, 15, 14, 15, 14, 7, 6, 7, 6, 7, 6, 7, 6,		\
	15, 14, 15, 14, 15, 14, 15, 14, 7, 6, 7, 6, 7, 6, 7, 6))
#define V_SET1_64(x)	_mm256_set1_epi64x((long long)(x))
#define V_ADD64		_mm256_add_epi64
#define V_SRLI64	_mm256_srli_epi64
#define V_SLLI64	_mm256_slli_epi64
#define V_MULU32	_mm256_mul_epu32
/*
 * V_BCAST_A16 of the interleave with 0 in one shuffle: each pixel's alpha
 * byte (3, 7 of the low 8 bytes of each 128-bit lane; 11, 15 of the high
 * 8) into its four 16-bit lanes, the high bytes zeroed (index 0x80).
 */
static __always_inline V atomkms_avx2_alpha16_lo(V v)
{
	const V m = _mm256_set_epi8(-128, 7, -128, 7, -128, 7, -128, 7,
				    -128, 3, -128, 3, -128, 3, -128, 3,
				    -128, 7, -128, 7, -128, 7, -128, 7,
				    -128, 3, -128, 3, -128, 3, -128, 3);

	return _mm256_shuffle_epi8(v, m);
}

static __always_inline V atomkms_avx2_alpha16_hi(V v)
{
	const V m = _mm256_set_epi8(-128, 15, -128, 15, -128, 15, -128, 15,
				    -128, 11, -128, 11, -128, 11, -128, 11,
				    -128, 15, -128, 15, -128, 15, -128, 15,
				    -128, 11, -128, 11, -128, 11, -128, 11);

	return _mm256_shuffle_epi8(v, m);
}

/* vptest: every alpha byte of @s is 0xff ((~s & a) == 0), @s is 0. */
static __always_inline bool atomkms_avx2_all_opaque(V s, V a)
{
	return _mm256_testc_si256(s, a);
}

static __always_inline bool atomkms_avx2_all_zero(V s)
{
	return _mm256_testz_si256(s, s);
}

#define V_ALPHA16_LO	atomkms_avx2_alpha16_lo
#define V_ALPHA16_HI	atomkms_avx2_alpha16_hi
#define V_ALL_OPAQUE	atomkms_avx2_all_opaque
#define V_ALL_ZERO	atomkms_avx2_all_zero
#define V_ADD32		_mm256_add_epi32
#define V_SUB32		_mm256_sub_epi32
#define V_SRLI32	_mm256_srli_epi32
#define V_MULLO32	_mm256_mullo_epi32
#define V_SLLI32	_mm256_slli_epi32
#define V_MADD16	_mm256_madd_epi16
#define V_PACKS32	_mm256_packs_epi32
#define V_LO16		_mm256_unpacklo_epi16
#define V_SUB64		_mm256_sub_epi64
#define V_WIDEN8(p)	_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p)))
#define V_SRL32(v, n)	_mm256_srl_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define V_SLL32(v, n)	_mm256_sll_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define V_PERMUTE32	_mm256_permutevar8x32_epi32
#define V_SRAI32	_mm256_srai_epi32
#define V_BLEND_HI16(a, b)	_mm256_blend_epi16(a, b, 0xaa)
#define V_SHUF8		_mm256_shuffle_epi8
/*
 * In each 128-bit half, bytes b0..3 g0..3 r0..3 a0..3 (four pixels'
 * channels) to b0 g0 r0 a0 b1 ...: V_SHUF8's control.
 */
#define V_BGRA_ORDER()	_mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, \
	10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7,	\
	11, 15)
/* The YCbCr line in 32-bit lanes, from windows (atomkms_simd_yuv.h). */
#define ATOMKMS_SIMD_YUV32
#define ATOMKMS_SIMD_NAME(x)	atomkms_avx2_##x

/* The gather instruction, the indices from vector @v. */
static __always_inline V atomkms_v_gather(const u32 *b, V v, const u32 *ix)
{
	(void)ix;
	return _mm256_i32gather_epi32((const int *)b, v, 4);
}

#include "atomkms_simd_lines.h"
#include "atomkms_simd_yuv.h"

const struct atomkms_simd_ops atomkms_simd_avx2 = {
	.name = "avx2",
	.blend32 = atomkms_avx2_blend32,
	.over_n = atomkms_avx2_over_n,
	.crc_blocks = atomkms_avx2_crc_blocks,
	.copy_xff = atomkms_avx2_copy_xff,
	.stream_xff = atomkms_avx2_stream_xff,
	.yuv_vlerp = atomkms_avx2_yuv_vlerp,
	.yuv_hlerp = atomkms_avx2_yuv_hlerp,
};
#endif
