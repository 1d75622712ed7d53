// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writeback writers of the software compositor. Pure C: built into the
 * module and into the unit tests. include/atomkms_writeback.h documents
 * the conversions.
 */
#include "atomkms_writeback.h"

const u32 atomkms_writeback_formats[] = {
	ATOMKMS_FMT_XRGB8888,
	ATOMKMS_FMT_ARGB8888,
	ATOMKMS_FMT_XRGB2101010,
	ATOMKMS_FMT_RGB565,
	ATOMKMS_FMT_NV12,
};

const u32 atomkms_num_writeback_formats =
	ARRAY_SIZE(atomkms_writeback_formats);

/**
 * atomkms_writeback_supported - can the compositor write this format?
 * @fourcc: DRM fourcc code
 *
 * Return: true for the formats of atomkms_writeback_formats.
 */
bool atomkms_writeback_supported(u32 fourcc)
{
	u32 i;

	for (i = 0; i < atomkms_num_writeback_formats; i++)
		if (atomkms_writeback_formats[i] == fourcc)
			return true;
	return false;
}

static inline void atomkms_store_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * BT.709 limited range from 16-bit RGB, 8-bit codes: Q24 weights of the
 * 16-bit inputs, Y = 16 + 219 (Kr R + Kg G + Kb B), Cb = 128 + 224 (B - Y)
 * / (2 - 2Kb), Cr = 128 + 224 (R - Y) / (2 - 2Kr) (R, G, B in [0, 1]).
 */
#define ATOMKMS_Q24(num, den)	((s64)((((u64)(num)) << 24) / (den)))
#define ATOMKMS_YR	ATOMKMS_Q24(219ULL * 2126, 10000ULL * 65535)
#define ATOMKMS_YG	ATOMKMS_Q24(219ULL * 7152, 10000ULL * 65535)
#define ATOMKMS_YB	ATOMKMS_Q24(219ULL * 722, 10000ULL * 65535)
#define ATOMKMS_UR	ATOMKMS_Q24(112ULL * 2126, 9278ULL * 65535)
#define ATOMKMS_UG	ATOMKMS_Q24(112ULL * 7152, 9278ULL * 65535)
#define ATOMKMS_UB	ATOMKMS_Q24(112ULL, 65535ULL)
#define ATOMKMS_VG	ATOMKMS_Q24(112ULL * 7152, 7874ULL * 65535)
#define ATOMKMS_VB	ATOMKMS_Q24(112ULL * 722, 7874ULL * 65535)

static inline u8 atomkms_q24_to_u8(s64 v)
{
	v = (v + (1 << 23)) >> 24;
	if (v < 0)
		return 0;
	if (v > 255)
		return 255;
	return (u8)v;
}

static void atomkms_write_nv12(const struct atomkms_writeback *wb, u32 y,
			       const struct atomkms_px *px, u32 width)
{
	u8 *yp = wb->map[0] + (size_t)y * wb->pitch[0];
	u8 *cp = wb->map[1] + (size_t)(y / 2) * wb->pitch[1];
	u32 x;

	for (x = 0; x < width; x++)
		yp[x] = atomkms_q24_to_u8((16LL << 24) + ATOMKMS_YR * px[x].r +
					  ATOMKMS_YG * px[x].g +
					  ATOMKMS_YB * px[x].b);
	if (y & 1)
		return;
	for (x = 0; x < width; x += 2) {
		u32 n = x + 1 < width ? x + 1 : x;
		s64 r = (px[x].r + px[n].r + 1) / 2;
		s64 g = (px[x].g + px[n].g + 1) / 2;
		s64 b = (px[x].b + px[n].b + 1) / 2;

		cp[x] = atomkms_q24_to_u8((128LL << 24) - ATOMKMS_UR * r -
					  ATOMKMS_UG * g + ATOMKMS_UB * b);
		cp[x + 1] = atomkms_q24_to_u8((128LL << 24) + ATOMKMS_UB * r -
					      ATOMKMS_VG * g - ATOMKMS_VB * b);
	}
}

/**
 * atomkms_writeback_line - write one composed line
 * @wb: the writeback framebuffer; its format must be supported
 * @y: the line
 * @px: the composed line (opaque)
 * @width: number of pixels
 */
void atomkms_writeback_line(const struct atomkms_writeback *wb, u32 y,
			    const struct atomkms_px *px, u32 width)
{
	u8 *p = wb->map[0] + (size_t)y * wb->pitch[0];
	u32 x;

	switch (wb->fourcc) {
	case ATOMKMS_FMT_XRGB8888:
	case ATOMKMS_FMT_ARGB8888:
		for (x = 0; x < width; x++, p += 4)
			atomkms_store_le32(p, 0xff000000u |
					   (px[x].r >> 8) << 16 |
					   (px[x].g >> 8) << 8 | px[x].b >> 8);
		break;
	case ATOMKMS_FMT_XRGB2101010:
		for (x = 0; x < width; x++, p += 4)
			atomkms_store_le32(p, 0xc0000000u |
					   (u32)(px[x].r >> 6) << 20 |
					   (u32)(px[x].g >> 6) << 10 |
					   px[x].b >> 6);
		break;
	case ATOMKMS_FMT_RGB565:
		for (x = 0; x < width; x++, p += 2) {
			u32 v = (px[x].r >> 11) << 11 | (px[x].g >> 10) << 5 |
				px[x].b >> 11;

			p[0] = v;
			p[1] = v >> 8;
		}
		break;
	case ATOMKMS_FMT_NV12:
		atomkms_write_nv12(wb, y, px, width);
		break;
	}
}
