// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workloads that choose the compositor's line loops
 * (include/atomkms_simd.h), and apart from them the CRC's: the module
 * times them on every level the CPU runs, at load
 * (module/atomkms_simd_choice.c), and the benchmark repeats that choice
 * (bench/bench_compose.c). Pure C.
 */
#include "atomkms_compose.h"
#include "atomkms_simd.h"

/**
 * atomkms_simd_calib_init - fill the calibration lines
 * @s: %ATOMKMS_SIMD_CALIB_PX source words
 * @d: %ATOMKMS_SIMD_CALIB_PX destination words
 *
 * Premultiplied pixels of every alpha, opaque and clear among them, in
 * runs of four like a UI's, so that the vector loops' shortcuts count as
 * they do on real frames; an opaque destination.
 */
void atomkms_simd_calib_init(u32 *s, u32 *d)
{
	u32 i;

	for (i = 0; i < ATOMKMS_SIMD_CALIB_PX; i++) {
		u32 a = (i / 4 * 37) & 0xff;

		s[i] = a << 24 | (a * 3 / 4) << 16 | (a / 2) << 8 | a / 4;
		d[i] = 0x00406080;
	}
}

/**
 * atomkms_simd_calib_step - one step of the calibration workload
 * @ops: the line loops to run
 * @s: the source line from atomkms_simd_calib_init()
 * @d: the destination line
 *
 * The packed paths of a frame: OVER, OVER with plane alpha, the
 * writeback copy, over %ATOMKMS_SIMD_CALIB_PX pixels each. In the kernel,
 * call it between @ops' begin and end.
 *
 * Return: the pixels it processed.
 */
u32 atomkms_simd_calib_step(const struct atomkms_simd_ops *ops, const u32 *s,
			    u32 *d)
{
	ops->blend32(ATOMKMS_BLEND_PREMULTI, 255, s, d, ATOMKMS_SIMD_CALIB_PX);
	ops->blend32(ATOMKMS_BLEND_PREMULTI, 0xc0, s, d, ATOMKMS_SIMD_CALIB_PX);
	ops->copy_xff(d, d, ATOMKMS_SIMD_CALIB_PX);
	return 3 * ATOMKMS_SIMD_CALIB_PX;
}

/**
 * atomkms_simd_crc_calib_step - one step of the CRC's calibration workload
 * @ops: the level whose crc_blocks to run
 * @h: %ATOMKMS_CRC_LANES lanes, carried from one step to the next
 * @s: a line of %ATOMKMS_SIMD_CALIB_PX pixels (atomkms_simd_calib_init())
 *
 * The CRC's lane steps over the line's whole blocks, as a frame's packed
 * lines take them (include/atomkms_crc.h). In the kernel, call it between
 * @ops' begin and end.
 *
 * Return: the pixels it hashed.
 */
u32 atomkms_simd_crc_calib_step(const struct atomkms_simd_ops *ops, u32 *h,
				const u32 *s)
{
	static_assert(ATOMKMS_SIMD_CALIB_PX % ATOMKMS_CRC_LANES == 0,
		      "whole blocks");
	ops->crc_blocks(h, s, ATOMKMS_SIMD_CALIB_PX / ATOMKMS_CRC_LANES);
	return ATOMKMS_SIMD_CALIB_PX;
}
