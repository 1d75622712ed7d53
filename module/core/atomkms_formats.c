// SPDX-License-Identifier: GPL-2.0-only
/*
 * The format table and the per-line framebuffer readers of the software
 * compositor, and fixed-point YCbCr to RGB. Pure C: built into the module
 * and into the userspace unit tests. include/atomkms_formats.h documents
 * the conversions.
 */
#include "atomkms_formats.h"

/*
 * A packed RGB layout: the little-endian pixel word of @bytes bytes holds
 * each channel (alpha, red, green, blue) at @shift with @bits bits; a
 * channel of 0 bits is absent (alpha then reads as opaque).
 */
struct atomkms_packed {
	u8 bytes;
	u8 shift[4];
	u8 bits[4];
	bool half;
};

static __always_inline u64 atomkms_load_le(const u8 *p, u32 bytes)
{
	u64 v = p[0] | (u32)p[1] << 8;

	if (bytes >= 3)
		v |= (u32)p[2] << 16;
	if (bytes >= 4)
		v |= (u32)p[3] << 24;
	if (bytes == 8)
		v |= (u64)(p[4] | (u32)p[5] << 8 | (u32)p[6] << 16 |
			   (u32)p[7] << 24) << 32;
	return v;
}

/**
 * atomkms_f16_to_unorm16 - half float to 16-bit unorm, no floating point
 * @h: IEEE 754 binary16 bits
 *
 * Negative values, -0 and NaN give 0; 1.0 and above (and +inf) 0xffff.
 *
 * Return: round(clamp(h, 0, 1) * 65535), ties rounded up.
 */
u16 atomkms_f16_to_unorm16(u16 h)
{
	u32 e = (h >> 10) & 0x1f;
	u32 m = h & 0x3ff;

	if (h & 0x8000)
		return 0;
	if (e == 0x1f)
		return m ? 0 : 0xffff;
	if (e >= 15)
		return 0xffff;
	if (!e)	/* subnormal: m * 2^-24 */
		return (m * 65535 + (1u << 23)) >> 24;
	/* (1024 + m) * 2^(e - 25), e in 1..14 */
	return ((1024 + m) * 65535 + (1u << (24 - e))) >> (25 - e);
}

static __always_inline u16 atomkms_expand(u64 v, u32 shift, u32 bits,
					  bool half)
{
	u32 c;

	if (!bits)
		return 0xffff;
	c = (v >> shift) & ((1u << bits) - 1);
	if (half)
		return atomkms_f16_to_unorm16(c);
	switch (bits) {
	case 1:
		return c ? 0xffff : 0;
	case 2:
		return c * 0x5555;
	case 5:
		return ((c << 3) | (c >> 2)) * 257;
	case 6:
		return ((c << 2) | (c >> 4)) * 257;
	case 8:
		return c * 257;
	case 10:
		return (c << 6) | (c >> 4);
	default:
		return c;
	}
}

static __always_inline void
atomkms_read_packed(const struct atomkms_plane_src *src, s32 x, s32 y,
		    s32 dx, s32 dy, u32 count, struct atomkms_px *out,
		    const struct atomkms_packed *l)
{
	const u8 *p = src->map[0] + (ptrdiff_t)y * src->pitch[0] +
		      (ptrdiff_t)x * l->bytes;
	ptrdiff_t step = (ptrdiff_t)dy * src->pitch[0] +
			 (ptrdiff_t)dx * l->bytes;
	u32 i;

	for (i = 0; i < count; i++, p += step) {
		u64 v = atomkms_load_le(p, l->bytes);

		out[i].a = atomkms_expand(v, l->shift[0], l->bits[0], l->half);
		out[i].r = atomkms_expand(v, l->shift[1], l->bits[1], l->half);
		out[i].g = atomkms_expand(v, l->shift[2], l->bits[2], l->half);
		out[i].b = atomkms_expand(v, l->shift[3], l->bits[3], l->half);
	}
}

/*
 * atomkms_read_NAME(): the reader of format NAME, family reader @reader
 * with the constant layout @type { ... } that follows.
 */
#define ATOMKMS_READER(name, reader, type, ...)				   \
static const type atomkms_layout_##name = { __VA_ARGS__ };		   \
static void atomkms_read_##name(const struct atomkms_plane_src *src,	   \
				s32 x, s32 y, s32 dx, s32 dy, u32 count,   \
				struct atomkms_px *out)			   \
{									   \
	reader(src, x, y, dx, dy, count, out, &atomkms_layout_##name);	   \
}

#define ATOMKMS_PACKED(name, nbytes, as, ab, rs, rb, gs, gb, bs, bb, hf)   \
	ATOMKMS_READER(name, atomkms_read_packed, struct atomkms_packed,   \
		       .bytes = nbytes, .shift = { as, rs, gs, bs },	   \
		       .bits = { ab, rb, gb, bb }, .half = hf)

ATOMKMS_PACKED(xrgb8888, 4, 0, 0, 16, 8, 8, 8, 0, 8, false)
ATOMKMS_PACKED(argb8888, 4, 24, 8, 16, 8, 8, 8, 0, 8, false)
ATOMKMS_PACKED(xbgr8888, 4, 0, 0, 0, 8, 8, 8, 16, 8, false)
ATOMKMS_PACKED(abgr8888, 4, 24, 8, 0, 8, 8, 8, 16, 8, false)
ATOMKMS_PACKED(rgbx8888, 4, 0, 0, 24, 8, 16, 8, 8, 8, false)
ATOMKMS_PACKED(rgba8888, 4, 0, 8, 24, 8, 16, 8, 8, 8, false)
ATOMKMS_PACKED(bgrx8888, 4, 0, 0, 8, 8, 16, 8, 24, 8, false)
ATOMKMS_PACKED(bgra8888, 4, 0, 8, 8, 8, 16, 8, 24, 8, false)
ATOMKMS_PACKED(rgb888, 3, 0, 0, 16, 8, 8, 8, 0, 8, false)
ATOMKMS_PACKED(bgr888, 3, 0, 0, 0, 8, 8, 8, 16, 8, false)
ATOMKMS_PACKED(rgb565, 2, 0, 0, 11, 5, 5, 6, 0, 5, false)
ATOMKMS_PACKED(bgr565, 2, 0, 0, 0, 5, 5, 6, 11, 5, false)
ATOMKMS_PACKED(xrgb1555, 2, 0, 0, 10, 5, 5, 5, 0, 5, false)
ATOMKMS_PACKED(argb1555, 2, 15, 1, 10, 5, 5, 5, 0, 5, false)
ATOMKMS_PACKED(xrgb2101010, 4, 0, 0, 20, 10, 10, 10, 0, 10, false)
ATOMKMS_PACKED(argb2101010, 4, 30, 2, 20, 10, 10, 10, 0, 10, false)
ATOMKMS_PACKED(xbgr2101010, 4, 0, 0, 0, 10, 10, 10, 20, 10, false)
ATOMKMS_PACKED(abgr2101010, 4, 30, 2, 0, 10, 10, 10, 20, 10, false)
ATOMKMS_PACKED(xrgb16161616, 8, 0, 0, 32, 16, 16, 16, 0, 16, false)
ATOMKMS_PACKED(argb16161616, 8, 48, 16, 32, 16, 16, 16, 0, 16, false)
ATOMKMS_PACKED(xrgb16161616f, 8, 0, 0, 32, 16, 16, 16, 0, 16, true)
ATOMKMS_PACKED(argb16161616f, 8, 48, 16, 32, 16, 16, 16, 0, 16, true)

/*
 * A YCbCr layout. Semi-planar (@kind 0): Y in plane 0, chroma pairs in
 * plane 1, Cb first unless @swap. Planar (@kind 1): Y, Cb, Cr planes (Cr
 * before Cb if @swap). Packed 4:2:2 (@kind 2): 4-byte macropixels of two
 * pixels with Y0 at byte @y0, Y1 at @y0 + 2, Cb at @cb, Cr at @cr. @wide:
 * 16-bit little-endian samples (P010), else 8-bit.
 */
struct atomkms_yuv_layout {
	u8 kind;
	u8 hshift;
	u8 vshift;
	bool swap;
	bool wide;
	u8 y0;
	u8 cb;
	u8 cr;
};

static __always_inline u16 atomkms_sample(const u8 *p, bool wide)
{
	if (wide)
		return (p[0] | p[1] << 8) & 0xffc0;
	return p[0] << 8;
}

static __always_inline void
atomkms_read_yuv(const struct atomkms_plane_src *src, s32 x, s32 y,
		 s32 dx, s32 dy, u32 count, struct atomkms_px *out,
		 const struct atomkms_yuv_layout *l)
{
	u32 bps = l->wide ? 2 : 1;
	u32 i;

	for (i = 0; i < count; i++) {
		s32 px = x + (s32)i * dx;
		s32 py = y + (s32)i * dy;
		s32 cx = px >> l->hshift;
		s32 cy = py >> l->vshift;
		const u8 *yp, *up, *vp;

		if (l->kind == 2) {
			/*
			 * The pair's macropixel, chroma included: the fb
			 * width is even (atomkms_format_block_w()).
			 */
			yp = src->map[0] + (ptrdiff_t)py * src->pitch[0] +
			     (ptrdiff_t)(px >> 1) * 4;
			up = yp + l->cb;
			vp = yp + l->cr;
			yp += l->y0 + (px & 1) * 2;
		} else {
			yp = src->map[0] + (ptrdiff_t)py * src->pitch[0] +
			     (ptrdiff_t)px * bps;
		}
		if (l->kind == 0) {
			up = src->map[1] + (ptrdiff_t)cy * src->pitch[1] +
			     (ptrdiff_t)cx * 2 * bps;
			vp = up + bps;
			if (l->swap) {
				vp = up;
				up += bps;
			}
		} else if (l->kind == 1) {
			u32 pu = l->swap ? 2 : 1;
			u32 pv = l->swap ? 1 : 2;

			up = src->map[pu] + (ptrdiff_t)cy * src->pitch[pu] + cx;
			vp = src->map[pv] + (ptrdiff_t)cy * src->pitch[pv] + cx;
		}
		out[i].a = 0xffff;
		out[i].g = atomkms_sample(yp, l->wide);
		out[i].b = atomkms_sample(up, l->wide);
		out[i].r = atomkms_sample(vp, l->wide);
	}
}

#define ATOMKMS_YUV(name, k, hs, vs, sw, wd, oy, ob, orr)		   \
	ATOMKMS_READER(name, atomkms_read_yuv, struct atomkms_yuv_layout,  \
		       .kind = k, .hshift = hs, .vshift = vs, .swap = sw,  \
		       .wide = wd, .y0 = oy, .cb = ob, .cr = orr)

ATOMKMS_YUV(nv12, 0, 1, 1, false, false, 0, 0, 0)
ATOMKMS_YUV(nv21, 0, 1, 1, true, false, 0, 0, 0)
ATOMKMS_YUV(nv16, 0, 1, 0, false, false, 0, 0, 0)
ATOMKMS_YUV(nv61, 0, 1, 0, true, false, 0, 0, 0)
ATOMKMS_YUV(nv24, 0, 0, 0, false, false, 0, 0, 0)
ATOMKMS_YUV(nv42, 0, 0, 0, true, false, 0, 0, 0)
ATOMKMS_YUV(yuv420, 1, 1, 1, false, false, 0, 0, 0)
ATOMKMS_YUV(yvu420, 1, 1, 1, true, false, 0, 0, 0)
ATOMKMS_YUV(yuv422, 1, 1, 0, false, false, 0, 0, 0)
ATOMKMS_YUV(yuv444, 1, 0, 0, false, false, 0, 0, 0)
ATOMKMS_YUV(p010, 0, 1, 1, false, true, 0, 0, 0)
ATOMKMS_YUV(yuyv, 2, 1, 0, false, false, 0, 1, 3)
ATOMKMS_YUV(uyvy, 2, 1, 0, false, false, 1, 0, 2)

#define ATOMKMS_RGB(fmt, rd, bytes, bits, alpha) {			\
	.fourcc = ATOMKMS_FMT_##fmt, .name = #fmt, .num_planes = 1,	\
	.cpp = { bytes }, .hsub = 1, .vsub = 1, .depth = bits,		\
	.has_alpha = alpha, .read_line = atomkms_read_##rd,		\
}

#define ATOMKMS_YCBCR(fmt, rd, planes, c0, c1, c2, h, v, bits) {	\
	.fourcc = ATOMKMS_FMT_##fmt, .name = #fmt, .num_planes = planes, \
	.cpp = { c0, c1, c2 }, .hsub = h, .vsub = v, .depth = bits,	\
	.is_yuv = true, .read_line = atomkms_read_##rd,			\
}

/*
 * Every format the compositor reads. XRGB8888 comes first: the plane code
 * may list the table in order, and userspace tends to take the first one.
 */
const struct atomkms_format atomkms_formats[] = {
	ATOMKMS_RGB(XRGB8888, xrgb8888, 4, 8, false),
	ATOMKMS_RGB(ARGB8888, argb8888, 4, 8, true),
	ATOMKMS_RGB(XBGR8888, xbgr8888, 4, 8, false),
	ATOMKMS_RGB(ABGR8888, abgr8888, 4, 8, true),
	ATOMKMS_RGB(RGBX8888, rgbx8888, 4, 8, false),
	ATOMKMS_RGB(RGBA8888, rgba8888, 4, 8, true),
	ATOMKMS_RGB(BGRX8888, bgrx8888, 4, 8, false),
	ATOMKMS_RGB(BGRA8888, bgra8888, 4, 8, true),
	ATOMKMS_RGB(RGB888, rgb888, 3, 8, false),
	ATOMKMS_RGB(BGR888, bgr888, 3, 8, false),
	ATOMKMS_RGB(RGB565, rgb565, 2, 6, false),
	ATOMKMS_RGB(BGR565, bgr565, 2, 6, false),
	ATOMKMS_RGB(XRGB1555, xrgb1555, 2, 5, false),
	ATOMKMS_RGB(ARGB1555, argb1555, 2, 5, true),
	ATOMKMS_RGB(XRGB2101010, xrgb2101010, 4, 10, false),
	ATOMKMS_RGB(ARGB2101010, argb2101010, 4, 10, true),
	ATOMKMS_RGB(XBGR2101010, xbgr2101010, 4, 10, false),
	ATOMKMS_RGB(ABGR2101010, abgr2101010, 4, 10, true),
	ATOMKMS_RGB(XRGB16161616, xrgb16161616, 8, 16, false),
	ATOMKMS_RGB(ARGB16161616, argb16161616, 8, 16, true),
	ATOMKMS_RGB(XRGB16161616F, xrgb16161616f, 8, 16, false),
	ATOMKMS_RGB(ARGB16161616F, argb16161616f, 8, 16, true),
	ATOMKMS_YCBCR(NV12, nv12, 2, 1, 2, 0, 2, 2, 8),
	ATOMKMS_YCBCR(NV21, nv21, 2, 1, 2, 0, 2, 2, 8),
	ATOMKMS_YCBCR(NV16, nv16, 2, 1, 2, 0, 2, 1, 8),
	ATOMKMS_YCBCR(NV61, nv61, 2, 1, 2, 0, 2, 1, 8),
	ATOMKMS_YCBCR(NV24, nv24, 2, 1, 2, 0, 1, 1, 8),
	ATOMKMS_YCBCR(NV42, nv42, 2, 1, 2, 0, 1, 1, 8),
	ATOMKMS_YCBCR(YUV420, yuv420, 3, 1, 1, 1, 2, 2, 8),
	ATOMKMS_YCBCR(YVU420, yvu420, 3, 1, 1, 1, 2, 2, 8),
	ATOMKMS_YCBCR(YUV422, yuv422, 3, 1, 1, 1, 2, 1, 8),
	ATOMKMS_YCBCR(YUV444, yuv444, 3, 1, 1, 1, 1, 1, 8),
	ATOMKMS_YCBCR(P010, p010, 2, 2, 4, 0, 2, 2, 10),
	ATOMKMS_YCBCR(YUYV, yuyv, 1, 2, 0, 0, 2, 1, 8),
	ATOMKMS_YCBCR(UYVY, uyvy, 1, 2, 0, 0, 2, 1, 8),
};

const u32 atomkms_num_formats = ARRAY_SIZE(atomkms_formats);

/**
 * atomkms_format_lookup - the table entry of a fourcc
 * @fourcc: DRM fourcc code
 *
 * Return: the entry, or NULL if the compositor cannot read @fourcc.
 */
const struct atomkms_format *atomkms_format_lookup(u32 fourcc)
{
	u32 i;

	for (i = 0; i < atomkms_num_formats; i++)
		if (atomkms_formats[i].fourcc == fourcc)
			return &atomkms_formats[i];
	return NULL;
}

/*
 * Q32 value of num / den, then scaled from normalised units to 16-bit
 * output per 16-bit code of a channel whose nominal range spans @range
 * codes, in Q16, rounded.
 */
static s32 atomkms_csc_coef(u64 num, u32 den, u32 range)
{
	u64 q32 = div_u64(num << 32, den);

	return (s32)((div_u64(q32 * 65535, range) + 0x8000) >> 16);
}

/**
 * atomkms_csc_init - derive the fixed-point YCbCr to RGB conversion
 * @csc: the result
 * @encoding: %ATOMKMS_YCBCR_BT601, %ATOMKMS_YCBCR_BT709 or
 *            %ATOMKMS_YCBCR_BT2020 (Kr, Kb 0.299, 0.114; 0.2126, 0.0722;
 *            0.2627, 0.0593)
 * @range: %ATOMKMS_YCBCR_LIMITED_RANGE (Y 16-235, C 16-240 at 8 bits) or
 *         %ATOMKMS_YCBCR_FULL_RANGE (0 to 2^depth - 1)
 * @depth: bits per sample, 8 or 10
 *
 * R = Y' + (2 - 2Kr) Cr', G = Y' - 2Kb(1 - Kb)/Kg Cb' - 2Kr(1 - Kr)/Kg Cr',
 * B = Y' + (2 - 2Kb) Cb', with Y' in [0, 1] and Cb', Cr' in [-1/2, 1/2].
 *
 * Return: 0, or -22 (EINVAL) for an unknown encoding, range or depth.
 */
int atomkms_csc_init(struct atomkms_csc *csc, u32 encoding, u32 range,
		     u32 depth)
{
	static const u32 k[3][2] = { { 2990, 1140 }, { 2126, 722 },
				     { 2627, 593 } };
	u32 kr, kb, kg, yr, cr;

	if (encoding > ATOMKMS_YCBCR_BT2020 ||
	    range > ATOMKMS_YCBCR_FULL_RANGE || (depth != 8 && depth != 10))
		return -ATOMKMS_EINVAL;
	kr = k[encoding][0];
	kb = k[encoding][1];
	kg = 10000 - kr - kb;
	if (range == ATOMKMS_YCBCR_LIMITED_RANGE) {
		csc->y_off = 16 << 8;
		yr = 219 << 8;
		cr = 224 << 8;
	} else {
		csc->y_off = 0;
		yr = ((1u << depth) - 1) << (16 - depth);
		cr = yr;
	}
	csc->c_off = 0x8000;
	csc->cy = atomkms_csc_coef(1, 1, yr);
	csc->crv = atomkms_csc_coef(20000 - 2 * kr, 10000, cr);
	csc->cbu = atomkms_csc_coef(20000 - 2 * kb, 10000, cr);
	csc->cgu = atomkms_csc_coef((u64)2 * kb * (10000 - kb), kg * 10000, cr);
	csc->cgv = atomkms_csc_coef((u64)2 * kr * (10000 - kr), kg * 10000, cr);
	return 0;
}

static inline u16 atomkms_clamp16(s64 v)
{
	v = (v + 0x8000) >> 16;
	if (v < 0)
		return 0;
	if (v > 0xffff)
		return 0xffff;
	return (u16)v;
}

/**
 * atomkms_yuv_to_rgb_line - convert a line of YCbCr samples to RGB
 * @csc: the conversion
 * @px: pixels as a YCbCr reader returns them, converted in place
 * @count: number of pixels
 */
void atomkms_yuv_to_rgb_line(const struct atomkms_csc *csc,
			     struct atomkms_px *px, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		s64 y = (s64)csc->cy * ((s32)px[i].g - csc->y_off);
		s32 u = (s32)px[i].b - csc->c_off;
		s32 v = (s32)px[i].r - csc->c_off;

		px[i].r = atomkms_clamp16(y + (s64)csc->crv * v);
		px[i].g = atomkms_clamp16(y - (s64)csc->cgu * u -
					  (s64)csc->cgv * v);
		px[i].b = atomkms_clamp16(y + (s64)csc->cbu * u);
	}
}
