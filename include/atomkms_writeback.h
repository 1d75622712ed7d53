/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writeback writers of the software compositor: a composed line of
 * &struct atomkms_px into a writeback framebuffer.
 *
 * Conversions truncate (v >> (16 - n)); alpha and X bits are written as
 * all ones. NV12 is BT.709 limited range, rounded to nearest; its chroma
 * is written on even lines only, each sample from the mean of the pixel
 * pair (x, x + 1) of that line (a last odd pixel alone).
 */
#ifndef ATOMKMS_WRITEBACK_H
#define ATOMKMS_WRITEBACK_H

#include "atomkms_types.h"
#include "atomkms_formats.h"

/**
 * struct atomkms_writeback - a writeback framebuffer, mapped
 * @fourcc: one of atomkms_writeback_formats
 * @map: address of each plane's first pixel
 * @pitch: bytes per line of each plane
 */
struct atomkms_writeback {
	u32 fourcc;
	u8 *map[3];
	u32 pitch[3];
};

extern const u32 atomkms_writeback_formats[];
extern const u32 atomkms_num_writeback_formats;

bool atomkms_writeback_supported(u32 fourcc);
void atomkms_writeback_line(const struct atomkms_writeback *wb, u32 y,
			    const struct atomkms_px *px, u32 width);

#endif /* ATOMKMS_WRITEBACK_H */
