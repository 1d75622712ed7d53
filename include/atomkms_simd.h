/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compositor's vector line functions: one table of the line loops of
 * 8-bit packed frames (atomkms_compose.c's mode32), filled by the scalar
 * core, and by the SSE2 and AVX2 objects (module/core/simd/), built with
 * their own per-object flags. Every entry gives the same bytes as the
 * scalar one (test/unit/test_simd.c checks it).
 *
 * Who picks a table: the module, once at load (module/atomkms_simd_choice.c:
 * the fastest the CPU runs, or the simd= parameter); the tests and the
 * benchmark pass each in turn. A frame takes one through
 * &struct atomkms_frame.simd. The module's table may take its @crc_blocks
 * from another level than its line loops (timed apart); its begin and
 * end then open the vector sections for either.
 *
 * A vector table's functions use vector registers; the kernel lets code
 * do that only between kernel_fpu_begin() and kernel_fpu_end(). The core
 * calls them only between @begin and @end, which it calls around bounded
 * chunks of lines (see atomkms_compose_frame()); userspace leaves both
 * NULL. Nothing between them sleeps.
 */
#ifndef ATOMKMS_SIMD_H
#define ATOMKMS_SIMD_H

#include "atomkms_types.h"
#include "atomkms_crc.h"

/* The most overlays &atomkms_simd_ops.over_n takes in one pass. */
#define ATOMKMS_SIMD_OVER_MAX	4

/**
 * struct atomkms_yuv_lerp - one chunk of a bilinear 8-bit YCbCr line
 * @y: luma of source columns lo, lo + 1, ..., each interpolated across
 *     the two source lines: (65536 - wy) y0 + wy y1 (yuv_vlerp)
 * @cb: Cb, interpolated alike, in groups with Cr: output pixel i's left
 *      column's at @cb[((@idx0[i] + @cpar) >> @cshift) << @cstep]
 * @cr: Cr, the same (@cb + 1, or @cb - 1 for NV21's (Cr, Cb) pairs, or
 *      @cb + 2 in YUYV's and UYVY's 4-byte macropixels)
 * @idx0: per output pixel, the left source column (from lo)
 * @idx1: per output pixel, the right source column
 * @wx: per output pixel, the weight of @idx1 in 1/65536
 * @ny: words of @y yuv_vlerp wrote (the vector loops read none past them)
 * @nc: words of @cb, and of @cr, yuv_vlerp wrote (the fewer of the two)
 * @win: per group of %ATOMKMS_YUV_WIN output pixels from 0, two words:
 *       the first pixel's left column and its chroma group's index, where
 *       the group's columns and chroma all lie in the %ATOMKMS_YUV_WIN
 *       words of @y, @cb and @cr from there on (within @ny and @nc), else
 *       ~0 (atomkms_yuv_lerp_windows())
 * @woff: per output pixel of a group that fits, the offsets of its
 *        columns and chroma groups in those windows, a byte each: left
 *        column, right, left chroma, right chroma (low byte first)
 * @cpar: added to a column before the shift: lo's chroma phase
 * @cshift: 1 when the chroma is one group per two columns (NV12, YUYV:
 *          lo & 1 in @cpar), 0 when one per column
 * @cstep: log2 of the group's size: 1 (a pair), 2 (YUYV's macropixel)
 * @cy: &struct atomkms_csc's weights
 * @crv: see @cy
 * @cgu: see @cy
 * @cgv: see @cy
 * @cbu: see @cy
 * @kr: &struct atomkms_csc's offsets, rounding and a bias of
 *      %ATOMKMS_YUV_BIAS << 24 folded in, for red, modulo 2^64
 *      (atomkms_yuv_lerp_init())
 * @kg: the same for green
 * @kb: the same for blue
 */
struct atomkms_yuv_lerp {
	const u32 *y;
	const u32 *cb;
	const u32 *cr;
	const u32 *idx0;
	const u32 *idx1;
	const u32 *wx;
	u32 ny;
	u32 nc;
	const u32 *win;
	const u32 *woff;
	u32 cpar;
	u32 cshift;
	u32 cstep;
	u32 cy;
	u32 crv;
	u32 cgu;
	u32 cgv;
	u32 cbu;
	u64 kr;
	u64 kg;
	u64 kb;
};

/*
 * The output pixels of one window (&struct atomkms_yuv_lerp's @win): the
 * vector width of the AVX2 loops, in 32-bit lanes.
 */
#define ATOMKMS_YUV_WIN		8

void atomkms_yuv_lerp_windows(const struct atomkms_yuv_lerp *l, u32 n,
			      u32 *win, u32 *woff);

/*
 * Added to each output channel's sum, in units of 2^24, so that it is
 * never negative (it is at least -2^35) and can be shifted as unsigned.
 */
#define ATOMKMS_YUV_BIAS	4096

/**
 * struct atomkms_simd_ops - the line loops of 8-bit packed frames
 * @name: "scalar", "sse2", "avx2"
 * @blend32: blend the n 0xAARRGGBB words @s onto the 0xXXRRGGBB line @d
 *           with blend mode @op (ATOMKMS_BLEND_*) and 8-bit plane alpha
 *           @pa: atomkms_compose.h's arithmetic at max = 255; the X bytes
 *           of @d become junk, which no sink reads
 * @over_n: the premultiplied OVER (plane alpha 255) of @ns (1 to
 *          %ATOMKMS_SIMD_OVER_MAX) lines of ARGB words @s[0] .. @s[ns - 1],
 *          in that order, onto the line @base, n words, into @d: the bytes
 *          of a copy of @base to @d then blend32() of each in turn, X
 *          junk (@base may be @d: the overlays onto @d in place); the
 *          line stays in registers from the first to the last
 * @crc_blocks: atomkms_crc_blocks() (include/atomkms_crc.h): the same
 *              lanes
 * @copy_xff: @d = @s with X = 0xff, n words (XRGB8888 writeback)
 * @stream_xff: the same, for frames larger than
 *              %ATOMKMS_SIMD_STREAM_BYTES: the vector levels store past
 *              the caches
 * @yuv_vlerp: @out[i] = (65536 - @wy) @r0[i] + @wy @r1[i], n bytes of two
 *             source lines of one 8-bit YCbCr channel (@wy < 65536)
 * @yuv_hlerp: n 0xffRRGGBB words into @out: each the bilinear sample of
 *             @l's columns, converted as atomkms_yuv_to_rgb_line() does,
 *             bit for bit the general path's (atomkms_line_general())
 * @begin: if not NULL, called before a chunk of lines that may call the
 *         functions above (the module: kernel_fpu_begin())
 * @end: called after it (the module: kernel_fpu_end())
 */
struct atomkms_simd_ops {
	const char *name;
	void (*blend32)(u32 op, u32 pa, const u32 *s, u32 *d, u32 n);
	void (*over_n)(u32 *d, const u32 *base, const u32 *const *s, u32 ns,
		       u32 n);
	atomkms_crc_blocks_fn crc_blocks;
	void (*copy_xff)(u32 *d, const u32 *s, u32 n);
	void (*stream_xff)(u32 *d, const u32 *s, u32 n);
	void (*yuv_vlerp)(u32 wy, const u8 *r0, const u8 *r1, u32 *out, u32 n);
	void (*yuv_hlerp)(const struct atomkms_yuv_lerp *l, u32 *out, u32 n);
	void (*begin)(void);
	void (*end)(void);
};

/*
 * A frame whose planes and writeback buffer hold more bytes than this
 * does not stay in a CPU's caches from one frame to the next (a large
 * L3's share): its writeback copy goes through @stream_xff.
 */
#define ATOMKMS_SIMD_STREAM_BYTES	(24u << 20)

/* The scalar loops (module/core/atomkms_compose.c): any CPU. */
extern const struct atomkms_simd_ops atomkms_simd_scalar;
/* SSE2 (module/core/simd/atomkms_simd_sse2.c): every x86-64 CPU. */
extern const struct atomkms_simd_ops atomkms_simd_sse2;
/* AVX2 (module/core/simd/atomkms_simd_avx2.c): CPUs with AVX2 and OS support. */
extern const struct atomkms_simd_ops atomkms_simd_avx2;

/*
 * The choice of a level (module/core/atomkms_simd.c): the module times
 * atomkms_simd_calib_step() on each level for a few milliseconds at load,
 * and keeps the fastest for the line loops; then
 * atomkms_simd_crc_calib_step() alike for the CRC's @crc_blocks, whose
 * level it chooses on its own (an emulator may run the CRC's 32-bit
 * vector arithmetic well and the compositor's byte shuffles badly).
 */
#define ATOMKMS_SIMD_CALIB_PX	1024

void atomkms_simd_calib_init(u32 *s, u32 *d);
u32 atomkms_simd_calib_step(const struct atomkms_simd_ops *ops, const u32 *s,
			    u32 *d);
u32 atomkms_simd_crc_calib_step(const struct atomkms_simd_ops *ops, u32 *h,
				const u32 *s);

#endif /* ATOMKMS_SIMD_H */
