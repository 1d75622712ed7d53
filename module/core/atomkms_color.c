// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CRTC colour pipeline of the software compositor: degamma LUT, CTM,
 * gamma LUT, in 16-bit fixed point. Pure C: built into the module and into
 * the userspace unit tests. include/atomkms_color.h defines the rounding.
 */
#include "atomkms_color.h"

#define ATOMKMS_CTM_MAX_MAG	((1ULL << 44) - 1)

static bool atomkms_lut_is_identity(const struct atomkms_color_lut *lut,
				    u32 size)
{
	u32 i;

	if (size < 2)
		return false;
	for (i = 0; i < size; i++) {
		u32 want = (i * 65535u + (size - 1) / 2) / (size - 1);

		if (lut[i].red != want || lut[i].green != want ||
		    lut[i].blue != want)
			return false;
	}
	return true;
}

/**
 * atomkms_color_prepare - classify a colour pipeline for one frame
 * @prep: the result
 * @color: the pipeline, or NULL
 *
 * Drops absent and identity stages, converts the CTM to two's complement.
 * A LUT of more than 65536 entries is ignored.
 *
 * Return: true if any stage remains to be applied.
 */
bool atomkms_color_prepare(struct atomkms_color_prep *prep,
			   const struct atomkms_color *color)
{
	u32 i;

	prep->degamma_lut = NULL;
	prep->gamma_lut = NULL;
	prep->degamma_size = 0;
	prep->gamma_size = 0;
	prep->has_ctm = false;
	if (!color)
		return false;
	if (color->degamma_lut && color->degamma_size &&
	    color->degamma_size <= 65536 &&
	    !atomkms_lut_is_identity(color->degamma_lut, color->degamma_size)) {
		prep->degamma_lut = color->degamma_lut;
		prep->degamma_size = color->degamma_size;
	}
	if (color->gamma_lut && color->gamma_size &&
	    color->gamma_size <= 65536 &&
	    !atomkms_lut_is_identity(color->gamma_lut, color->gamma_size)) {
		prep->gamma_lut = color->gamma_lut;
		prep->gamma_size = color->gamma_size;
	}
	if (color->ctm) {
		for (i = 0; i < 9; i++) {
			u64 v = color->ctm->matrix[i];
			u64 mag = v & ~(1ULL << 63);
			s64 q;

			if (mag > ATOMKMS_CTM_MAX_MAG)
				mag = ATOMKMS_CTM_MAX_MAG;
			q = (s64)mag;
			prep->ctm[i] = (v >> 63) ? -q : q;
			if (prep->ctm[i] != ((i % 4) ? 0 : (s64)1 << 32))
				prep->has_ctm = true;
		}
	}
	return prep->degamma_lut || prep->gamma_lut || prep->has_ctm;
}

/*
 * Apply one LUT (1 to 65536 entries) to a line. The entries are read as
 * u16 words: red, green, blue, reserved each (the layout is asserted).
 */
static void atomkms_lut_line(const struct atomkms_color_lut *lut, u32 size,
			     struct atomkms_px *px, u32 count)
{
	const u16 *w = &lut->red;
	u32 n = size - 1;
	u32 i, k;

	for (i = 0; i < count; i++) {
		u32 c[3] = { px[i].r, px[i].g, px[i].b };

		for (k = 0; k < 3; k++) {
			u32 pos = c[k] * n;
			u32 idx = n ? pos / 65535 : 0;
			u32 rem = pos - idx * 65535;
			u32 lo = w[idx * 4 + k];
			u32 hi = w[(idx < n ? idx + 1 : idx) * 4 + k];

			c[k] = (lo * (65535 - rem) + hi * rem + 32767) / 65535;
		}
		px[i].r = c[0];
		px[i].g = c[1];
		px[i].b = c[2];
	}
}

static inline u16 atomkms_ctm_clamp(s64 v)
{
	v = (v + (1LL << 31)) >> 32;
	if (v < 0)
		return 0;
	if (v > 0xffff)
		return 0xffff;
	return (u16)v;
}

/**
 * atomkms_color_apply_line - run a prepared colour pipeline on a line
 * @prep: from atomkms_color_prepare()
 * @px: the composed line, converted in place
 * @count: number of pixels
 */
void atomkms_color_apply_line(const struct atomkms_color_prep *prep,
			      struct atomkms_px *px, u32 count)
{
	u32 i;

	if (prep->degamma_lut)
		atomkms_lut_line(prep->degamma_lut, prep->degamma_size, px,
				 count);
	if (prep->has_ctm) {
		const s64 *m = prep->ctm;

		for (i = 0; i < count; i++) {
			s64 r = px[i].r, g = px[i].g, b = px[i].b;

			px[i].r = atomkms_ctm_clamp(m[0] * r + m[1] * g +
						    m[2] * b);
			px[i].g = atomkms_ctm_clamp(m[3] * r + m[4] * g +
						    m[5] * b);
			px[i].b = atomkms_ctm_clamp(m[6] * r + m[7] * g +
						    m[8] * b);
		}
	}
	if (prep->gamma_lut)
		atomkms_lut_line(prep->gamma_lut, prep->gamma_size, px, count);
}
