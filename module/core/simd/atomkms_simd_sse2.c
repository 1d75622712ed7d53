// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compositor's line loops in SSE2 (include/atomkms_simd.h), for every
 * x86-64 CPU. Built with SSE2 allowed (Kbuild: CFLAGS_atomkms_simd_sse2.o;
 * the tests and the benchmark: -msse2); in the kernel, called only
 * between kernel_fpu_begin() and kernel_fpu_end().
 */
#include "atomkms_compose.h"
#include "atomkms_simd.h"

#ifdef __SSE2__
/*
 * The compiler's intrinsics; in the kernel, without the libc its
 * mm_malloc.h includes (_mm_malloc() is not used).
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <emmintrin.h>

#define V		__m128i
#define W		4
#define V_ALL		0xffff
#define V_LOAD(p)	_mm_loadu_si128((const V *)(p))
#define V_STORE(p, v)	_mm_storeu_si128((V *)(p), v)
#define V_STREAM(p, v)	_mm_stream_si128((V *)(p), v)
#define V_SFENCE()	_mm_sfence()
#define V_SET1_32(x)	_mm_set1_epi32((int)(x))
#define V_SET1_16(x)	_mm_set1_epi16((short)(x))
#define V_ZERO()	_mm_setzero_si128()
#define V_AND		_mm_and_si128
#define V_OR		_mm_or_si128
#define V_XOR		_mm_xor_si128
#define V_CMPEQ32	_mm_cmpeq_epi32
#define V_MOVEMASK	_mm_movemask_epi8
#define V_LO8		_mm_unpacklo_epi8
#define V_HI8		_mm_unpackhi_epi8
#define V_PACK16	_mm_packus_epi16
#define V_MULLO16	_mm_mullo_epi16
#define V_ADD16		_mm_add_epi16
#define V_MULHI16	_mm_mulhi_epu16
#define V_ADDS8		_mm_adds_epu8
#define V_BCAST_A16(v)	_mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xff), 0xff)

static __always_inline V atomkms_sse2_alpha16_lo(V v)
{
	return V_BCAST_A16(V_LO8(v, V_ZERO()));
}

static __always_inline V atomkms_sse2_alpha16_hi(V v)
{
	return V_BCAST_A16(V_HI8(v, V_ZERO()));
}

static __always_inline bool atomkms_sse2_all_opaque(V s, V a)
{
	return V_MOVEMASK(V_CMPEQ32(V_AND(s, a), a)) == V_ALL;
}

static __always_inline bool atomkms_sse2_all_zero(V s)
{
	return V_MOVEMASK(V_CMPEQ32(s, V_ZERO())) == V_ALL;
}

#define V_ALPHA16_LO	atomkms_sse2_alpha16_lo
#define V_ALPHA16_HI	atomkms_sse2_alpha16_hi
#define V_ALL_OPAQUE	atomkms_sse2_all_opaque
#define V_ALL_ZERO	atomkms_sse2_all_zero
#define V_SET1_64(x)	_mm_set1_epi64x((long long)(x))
#define V_ADD64		_mm_add_epi64
#define V_SRLI64	_mm_srli_epi64
#define V_SLLI64	_mm_slli_epi64
#define V_MULU32	_mm_mul_epu32
#define V_ADD32		_mm_add_epi32
#define V_SUB32		_mm_sub_epi32
#define V_SRLI32	_mm_srli_epi32
#define V_MULLO32	atomkms_sse2_mullo32
#define V_SLLI32	_mm_slli_epi32
#define V_MADD16	_mm_madd_epi16
#define V_PACKS32	_mm_packs_epi32
#define V_LO16		_mm_unpacklo_epi16
#define V_SUB64		_mm_sub_epi64
#define V_WIDEN8(p)	V_LO16(V_LO8(_mm_cvtsi32_si128((int)atomkms_v_load32(p)), \
				     V_ZERO()), V_ZERO())
#define V_SRL32(v, n)	_mm_srl_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define V_SLL32(v, n)	_mm_sll_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define ATOMKMS_SIMD_NAME(x)	atomkms_sse2_##x

/*
 * The low halves of the 32-bit products @a * @k, which SSE2 lacks
 * (pmulld is SSE4.1's): the even lanes' and the odd lanes' 64-bit
 * products (the odd lanes moved down by a pshufd, which copies as it
 * moves: one instruction fewer than a copy and a shift), their low halves
 * interleaved back. @k is a V_SET1_32(), so its odd lanes are its even
 * lanes.
 */
static __always_inline V atomkms_sse2_mullo32(V a, V k)
{
	V odd = _mm_mul_epu32(_mm_shuffle_epi32(a, 0xf5), k);
	V even = _mm_mul_epu32(a, k);

	return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, 0x08),
				  _mm_shuffle_epi32(odd, 0x08));
}

static __always_inline u32 atomkms_v_load32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* No gather in SSE2: four loads, the indices from memory (@ix). */
static __always_inline V atomkms_v_gather(const u32 *b, V v, const u32 *ix)
{
	(void)v;
	return _mm_set_epi32((int)b[ix[3]], (int)b[ix[2]], (int)b[ix[1]],
			     (int)b[ix[0]]);
}

#include "atomkms_simd_lines.h"
#include "atomkms_simd_yuv.h"

const struct atomkms_simd_ops atomkms_simd_sse2 = {
	.name = "sse2",
	.blend32 = atomkms_sse2_blend32,
	.over_n = atomkms_sse2_over_n,
	.crc_blocks = atomkms_sse2_crc_blocks,
	.copy_xff = atomkms_sse2_copy_xff,
	.stream_xff = atomkms_sse2_stream_xff,
	.yuv_vlerp = atomkms_sse2_yuv_vlerp,
	.yuv_hlerp = atomkms_sse2_yuv_hlerp,
};
#endif
