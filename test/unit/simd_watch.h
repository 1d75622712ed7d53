/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A table of line loops that watches another: every call of a loop is
 * counted, and so is every call made outside a vector section (between
 * the table's begin() and end()), the section rule of
 * include/atomkms_simd.h. The unit tests of the SIMD levels put
 * &simd_watch in place of the compositor's table and check the counters.
 * A header of static state: one copy a test program.
 */
#ifndef SIMD_WATCH_H
#define SIMD_WATCH_H

#include "atomkms_simd.h"

/* The loops watched, and the table whose crc_blocks is watched. */
static const struct atomkms_simd_ops *inner, *inner_crc;
static bool in_section;
/* Sections begun, the longest in lines of the frame's sink, nestings. */
static u32 sections, section_lines, max_section_lines, nested;
/* Loop calls outside a section; calls of some of the loops. */
static u32 outside, watch_fused, watch_crc, vlerps, hlerps;

static void watch_begin(void)
{
	nested += in_section;
	in_section = true;
	section_lines = 0;
	sections++;
}

static void watch_end(void)
{
	nested += !in_section;
	in_section = false;
	if (section_lines > max_section_lines)
		max_section_lines = section_lines;
}

static void watch_blend32(u32 op, u32 pa, const u32 *s, u32 *d, u32 n)
{
	outside += !in_section;
	inner->blend32(op, pa, s, d, n);
}

static void watch_over_n(u32 *d, const u32 *base, const u32 *const *s,
			 u32 ns, u32 n)
{
	outside += !in_section;
	watch_fused++;
	inner->over_n(d, base, s, ns, n);
}

static void watch_crc_blocks(u32 *h, const u32 *px, u32 blocks)
{
	outside += !in_section;
	watch_crc++;
	(inner_crc ? inner_crc : inner)->crc_blocks(h, px, blocks);
}

static void watch_copy_xff(u32 *d, const u32 *s, u32 n)
{
	outside += !in_section;
	inner->copy_xff(d, s, n);
}

static void watch_stream_xff(u32 *d, const u32 *s, u32 n)
{
	outside += !in_section;
	inner->stream_xff(d, s, n);
}

static void watch_vlerp(u32 wy, const u8 *r0, const u8 *r1, u32 *out, u32 n)
{
	outside += !in_section;
	vlerps++;
	inner->yuv_vlerp(wy, r0, r1, out, n);
}

static void watch_hlerp(const struct atomkms_yuv_lerp *l, u32 *out, u32 n)
{
	outside += !in_section;
	hlerps++;
	inner->yuv_hlerp(l, out, n);
}

static const struct atomkms_simd_ops simd_watch = {
	.name = "watch",
	.blend32 = watch_blend32,
	.over_n = watch_over_n,
	.crc_blocks = watch_crc_blocks,
	.copy_xff = watch_copy_xff,
	.stream_xff = watch_stream_xff,
	.yuv_vlerp = watch_vlerp,
	.yuv_hlerp = watch_hlerp,
	.begin = watch_begin,
	.end = watch_end,
};

#endif /* SIMD_WATCH_H */
