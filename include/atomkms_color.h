/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CRTC colour pipeline of the software compositor: degamma LUT, colour
 * transformation matrix, gamma LUT, applied in that order to each composed
 * line, in 16-bit fixed point.
 */
#ifndef ATOMKMS_COLOR_H
#define ATOMKMS_COLOR_H

#include "atomkms_types.h"
#include "atomkms_formats.h"

/**
 * struct atomkms_color_lut - one LUT entry, laid out as &struct drm_color_lut
 * @red: red output for this entry, 0xffff is 1.0
 * @green: green output
 * @blue: blue output
 * @reserved: unused
 */
struct atomkms_color_lut {
	u16 red;
	u16 green;
	u16 blue;
	u16 reserved;
};

static_assert(sizeof(struct atomkms_color_lut) == 8, "drm_color_lut layout");

/**
 * struct atomkms_color_ctm - a CTM, laid out as &struct drm_color_ctm
 * @matrix: row-major 3x3 matrix (out = matrix * in, rows red, green,
 *          blue), each entry S31.32 sign-magnitude: bit 63 the sign, bits
 *          62:0 the magnitude in 31.32 fixed point
 */
struct atomkms_color_ctm {
	u64 matrix[9];
};

static_assert(sizeof(struct atomkms_color_ctm) == 72, "drm_color_ctm layout");

/**
 * struct atomkms_color - a CRTC's colour pipeline
 * @degamma_lut: degamma LUT, NULL for none
 * @degamma_size: its number of entries (at most 65536)
 * @ctm: colour transformation matrix, NULL for none
 * @gamma_lut: gamma LUT, NULL for none
 * @gamma_size: its number of entries (at most 65536)
 *
 * A LUT maps input v (0 to 0xffff) to entry v * (size - 1) / 0xffff,
 * interpolating linearly between the two entries around it and rounding
 * half up; a one-entry LUT maps everything to its entry. A CTM entry's
 * magnitude saturates at 4096; results are rounded half up and clamped to
 * [0, 0xffff]. An identity LUT (entry i equal to round(i * 0xffff /
 * (size - 1)) in every channel) and an identity CTM are exact no-ops.
 */
struct atomkms_color {
	const struct atomkms_color_lut *degamma_lut;
	u32 degamma_size;
	const struct atomkms_color_ctm *ctm;
	const struct atomkms_color_lut *gamma_lut;
	u32 gamma_size;
};

/**
 * struct atomkms_color_prep - a colour pipeline ready for a frame
 * @degamma_lut: degamma LUT, NULL if absent or identity
 * @degamma_size: its size
 * @gamma_lut: gamma LUT, NULL if absent or identity
 * @gamma_size: its size
 * @ctm: the CTM in two's complement 32.32, if @has_ctm
 * @has_ctm: the CTM is present and not the identity
 */
struct atomkms_color_prep {
	const struct atomkms_color_lut *degamma_lut;
	u32 degamma_size;
	const struct atomkms_color_lut *gamma_lut;
	u32 gamma_size;
	s64 ctm[9];
	bool has_ctm;
};

bool atomkms_color_prepare(struct atomkms_color_prep *prep,
			   const struct atomkms_color *color);

/* Does @prep (or NULL) have a stage to apply? */
static inline bool atomkms_color_active(const struct atomkms_color_prep *prep)
{
	return prep && (prep->degamma_lut || prep->gamma_lut || prep->has_ctm);
}

void atomkms_color_apply_line(const struct atomkms_color_prep *prep,
			      struct atomkms_px *px, u32 count);

#endif /* ATOMKMS_COLOR_H */
