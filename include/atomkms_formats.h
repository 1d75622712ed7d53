/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pixel formats of the software plane compositor: the one table the plane
 * code builds its format lists from, the per-line readers that decode a
 * framebuffer into the intermediate pixel format, and YCbCr to RGB.
 *
 * Conversions to the intermediate 16 bits per channel (bit-exact, and the
 * same as pixman's in the 8-bit domain):
 *  - 8-bit channels: v * 257 (0xff becomes 0xffff);
 *  - 5/6-bit channels: bit replication to 8 bits as pixman does (r5 << 3 |
 *    r5 >> 2), then * 257; 1-bit alpha: 0 or 0xffff; 2-bit alpha: v * 0x5555;
 *  - 10-bit channels: bit replication to 16 bits (v << 6 | v >> 4), so that
 *    the top 8 bits are v >> 2, pixman's 10 to 8 bit conversion;
 *  - 16-bit channels: as is; half floats: clamped to [0, 1], scaled by
 *    65535 and rounded half up, by integer arithmetic (NaN reads as 0);
 *  - conversions down to n bits truncate: v >> (16 - n).
 * YCbCr readers return the samples MSB-aligned (an 8-bit sample v reads as
 * v << 8, P010's 10-bit samples as they are stored), in @r = Cr, @g = Y,
 * @b = Cb, alpha 0xffff; atomkms_yuv_to_rgb_line() converts them. Chroma
 * of subsampled formats is sited nearest: every pixel takes the chroma
 * sample of the block it lies in (x >> 1, y >> 1 for 4:2:0), replicated.
 */
#ifndef ATOMKMS_FORMATS_H
#define ATOMKMS_FORMATS_H

#include "atomkms_types.h"

/* Fourcc codes, equal to DRM's (include/uapi/drm/drm_fourcc.h). */
#define ATOMKMS_FOURCC(a, b, c, d) \
	((u32)(a) | ((u32)(b) << 8) | ((u32)(c) << 16) | ((u32)(d) << 24))

#define ATOMKMS_FMT_XRGB8888		ATOMKMS_FOURCC('X', 'R', '2', '4')
#define ATOMKMS_FMT_ARGB8888		ATOMKMS_FOURCC('A', 'R', '2', '4')
#define ATOMKMS_FMT_XBGR8888		ATOMKMS_FOURCC('X', 'B', '2', '4')
#define ATOMKMS_FMT_ABGR8888		ATOMKMS_FOURCC('A', 'B', '2', '4')
#define ATOMKMS_FMT_RGBX8888		ATOMKMS_FOURCC('R', 'X', '2', '4')
#define ATOMKMS_FMT_RGBA8888		ATOMKMS_FOURCC('R', 'A', '2', '4')
#define ATOMKMS_FMT_BGRX8888		ATOMKMS_FOURCC('B', 'X', '2', '4')
#define ATOMKMS_FMT_BGRA8888		ATOMKMS_FOURCC('B', 'A', '2', '4')
#define ATOMKMS_FMT_RGB888		ATOMKMS_FOURCC('R', 'G', '2', '4')
#define ATOMKMS_FMT_BGR888		ATOMKMS_FOURCC('B', 'G', '2', '4')
#define ATOMKMS_FMT_RGB565		ATOMKMS_FOURCC('R', 'G', '1', '6')
#define ATOMKMS_FMT_BGR565		ATOMKMS_FOURCC('B', 'G', '1', '6')
#define ATOMKMS_FMT_XRGB1555		ATOMKMS_FOURCC('X', 'R', '1', '5')
#define ATOMKMS_FMT_ARGB1555		ATOMKMS_FOURCC('A', 'R', '1', '5')
#define ATOMKMS_FMT_XRGB2101010		ATOMKMS_FOURCC('X', 'R', '3', '0')
#define ATOMKMS_FMT_ARGB2101010		ATOMKMS_FOURCC('A', 'R', '3', '0')
#define ATOMKMS_FMT_XBGR2101010		ATOMKMS_FOURCC('X', 'B', '3', '0')
#define ATOMKMS_FMT_ABGR2101010		ATOMKMS_FOURCC('A', 'B', '3', '0')
#define ATOMKMS_FMT_XRGB16161616	ATOMKMS_FOURCC('X', 'R', '4', '8')
#define ATOMKMS_FMT_ARGB16161616	ATOMKMS_FOURCC('A', 'R', '4', '8')
#define ATOMKMS_FMT_XRGB16161616F	ATOMKMS_FOURCC('X', 'R', '4', 'H')
#define ATOMKMS_FMT_ARGB16161616F	ATOMKMS_FOURCC('A', 'R', '4', 'H')
#define ATOMKMS_FMT_NV12		ATOMKMS_FOURCC('N', 'V', '1', '2')
#define ATOMKMS_FMT_NV21		ATOMKMS_FOURCC('N', 'V', '2', '1')
#define ATOMKMS_FMT_NV16		ATOMKMS_FOURCC('N', 'V', '1', '6')
#define ATOMKMS_FMT_NV61		ATOMKMS_FOURCC('N', 'V', '6', '1')
#define ATOMKMS_FMT_NV24		ATOMKMS_FOURCC('N', 'V', '2', '4')
#define ATOMKMS_FMT_NV42		ATOMKMS_FOURCC('N', 'V', '4', '2')
#define ATOMKMS_FMT_YUV420		ATOMKMS_FOURCC('Y', 'U', '1', '2')
#define ATOMKMS_FMT_YVU420		ATOMKMS_FOURCC('Y', 'V', '1', '2')
#define ATOMKMS_FMT_YUV422		ATOMKMS_FOURCC('Y', 'U', '1', '6')
#define ATOMKMS_FMT_YUV444		ATOMKMS_FOURCC('Y', 'U', '2', '4')
#define ATOMKMS_FMT_P010		ATOMKMS_FOURCC('P', '0', '1', '0')
#define ATOMKMS_FMT_YUYV		ATOMKMS_FOURCC('Y', 'U', 'Y', 'V')
#define ATOMKMS_FMT_UYVY		ATOMKMS_FOURCC('U', 'Y', 'V', 'Y')

/**
 * struct atomkms_px - the compositor's intermediate pixel
 * @a: alpha
 * @r: red (Cr straight from a YCbCr reader)
 * @g: green (Y)
 * @b: blue (Cb)
 *
 * 16-bit unsigned normalised channels, 0xffff is 1.0. Readers return the
 * framebuffer's values as stored, not premultiplied by the compositor: a
 * premultiplied framebuffer's pixels stay premultiplied, and the plane's
 * blend mode says how to read them. The composed output line is opaque.
 */
struct atomkms_px {
	u16 a;
	u16 r;
	u16 g;
	u16 b;
};

static_assert(sizeof(struct atomkms_px) == 8, "atomkms_px is 4 x u16");

/**
 * struct atomkms_plane_src - where a framebuffer's pixels are, this frame
 * @map: address of each plane's first pixel (vmap address + fb offset)
 * @pitch: bytes from one line of each plane to the next
 *
 * What the compositor reads of a W x H framebuffer: of each plane p, with
 * pw x ph its size in samples (W x H for plane 0, ceil(W / hsub) x
 * ceil(H / vsub) for chroma planes), only bytes [0, (ph - 1) * @pitch[p] +
 * pw * cpp[p]) from @map[p], the bytes the DRM core guarantees
 * (drm_gem_fb_init_with_funcs(): the last line holds no padding), provided
 * W is a multiple of atomkms_format_block_w(). Nothing is assumed of the
 * alignment of @map or @pitch, nor of @pitch beyond what DRM checks.
 */
struct atomkms_plane_src {
	const u8 *map[3];
	u32 pitch[3];
};

/**
 * struct atomkms_format - one readable framebuffer format
 * @fourcc: DRM fourcc code
 * @name: short name, for debug messages
 * @num_planes: number of memory planes
 * @cpp: bytes per pixel (per 2-pixel macropixel / 2 for YUYV, UYVY) of
 *       each plane, as DRM's &drm_format_info.cpp
 * @hsub: horizontal chroma subsampling factor
 * @vsub: vertical chroma subsampling factor
 * @depth: bits of the widest colour channel (sets the blend precision)
 * @is_yuv: YCbCr samples, to convert with atomkms_yuv_to_rgb_line()
 * @has_alpha: the format carries per-pixel alpha
 * @read_line: decode @count pixels at (@x + i * @dx, @y + i * @dy) for i
 *             from 0, where @dx and @dy are -1, 0 or 1 and every pixel
 *             lies inside the framebuffer; it reads no byte outside the
 *             pixels' own samples (see &struct atomkms_plane_src)
 */
struct atomkms_format {
	u32 fourcc;
	const char *name;
	u8 num_planes;
	u8 cpp[3];
	u8 hsub;
	u8 vsub;
	u8 depth;
	bool is_yuv;
	bool has_alpha;
	void (*read_line)(const struct atomkms_plane_src *src, s32 x, s32 y,
			  s32 dx, s32 dy, u32 count, struct atomkms_px *out);
};

/**
 * atomkms_format_block_w - pixels per block of a format's memory layout
 * @f: the format
 *
 * 2 for packed 4:2:2 (YUYV, UYVY: a 4-byte macropixel holds two pixels'
 * luma and their one chroma pair), else 1. A framebuffer's width must be
 * a multiple of it: DRM's core guarantees cpp (2) bytes a pixel, so the
 * last macropixel of an odd-width line is guaranteed only up to its Cb
 * (YUYV) or Y0 (UYVY) byte, and its chroma cannot be read. The driver
 * refuses such framebuffers at ADDFB2; atomkms_plane_job_init() again.
 *
 * Return: the block width in pixels.
 */
static inline u32 atomkms_format_block_w(const struct atomkms_format *f)
{
	return f->num_planes == 1 ? f->hsub : 1;
}

extern const struct atomkms_format atomkms_formats[];
extern const u32 atomkms_num_formats;

const struct atomkms_format *atomkms_format_lookup(u32 fourcc);

u16 atomkms_f16_to_unorm16(u16 h);

/* DRM's enum drm_color_encoding and enum drm_color_range values. */
#define ATOMKMS_YCBCR_BT601		0
#define ATOMKMS_YCBCR_BT709		1
#define ATOMKMS_YCBCR_BT2020		2
#define ATOMKMS_YCBCR_LIMITED_RANGE	0
#define ATOMKMS_YCBCR_FULL_RANGE	1

/**
 * struct atomkms_csc - fixed-point YCbCr to RGB conversion
 * @y_off: Y code of black, MSB-aligned to 16 bits
 * @c_off: chroma code of zero (0x8000)
 * @cy: Q16 weight of (Y - @y_off) in every output channel
 * @crv: Q16 weight of (Cr - @c_off) in red
 * @cgu: Q16 weight of (Cb - @c_off) subtracted from green
 * @cgv: Q16 weight of (Cr - @c_off) subtracted from green
 * @cbu: Q16 weight of (Cb - @c_off) in blue
 *
 * The weights map 16-bit codes straight to 16-bit unorm RGB; the result is
 * rounded half up and clamped to [0, 0xffff].
 */
struct atomkms_csc {
	s32 y_off;
	s32 c_off;
	s32 cy;
	s32 crv;
	s32 cgu;
	s32 cgv;
	s32 cbu;
};

int atomkms_csc_init(struct atomkms_csc *csc, u32 encoding, u32 range,
		     u32 depth);
void atomkms_yuv_to_rgb_line(const struct atomkms_csc *csc,
			     struct atomkms_px *px, u32 count);

#endif /* ATOMKMS_FORMATS_H */
