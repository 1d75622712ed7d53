/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software plane compositor: per-plane jobs derived once at atomic
 * check, and the per-frame composition of a CRTC's planes into its CRC and
 * writeback sinks. Pure C, built into the module and the unit tests.
 *
 * Per output line: fill black, then for each plane in ascending zpos read
 * the line's source pixels (rotated, scaled) into &struct atomkms_px,
 * convert YCbCr, blend onto the line; then the CRTC colour pipeline
 * (degamma LUT, CTM, gamma LUT), then the sinks. Fast paths replace steps
 * of this general path for common cases and give the same bytes.
 *
 * Blending, with plane alpha pa, pixel alpha sa, source s, destination d
 * (DRM's equations; mul(x, y) = round(x * y / max), ties up):
 *   none:           s' = mul(s, pa),          a' = pa
 *   premultiplied:  s' = mul(s, pa),          a' = mul(sa, pa)
 *   coverage:       a' = mul(sa, pa),         s' = mul(s, a')
 *   out = min(max, s' + mul(d, max - a'))
 * The precision of a frame is 8 bits (max = 255, each channel taken as
 * v >> 8, pa as alpha >> 8, the result stored as out * 257) when every
 * visible plane's format has at most 8 bits per channel, else 16 bits
 * (max = 65535). 8-bit frames therefore blend bit-exactly like pixman's
 * (and cairo's) OVER of premultiplied a8r8g8b8, layer after layer, with a
 * solid mask for plane alpha.
 *
 * With fast paths on, an 8-bit frame without a colour pipeline runs on a
 * line of 0xXXRRGGBB words (X ignored) instead of &struct atomkms_px:
 * XRGB8888 and ARGB8888 planes are read in place, others through the
 * general path and packed to 8 bits, and the three channels of a pixel
 * blend together (16-bit lanes of a u64, or bytes in vectorisable blocks)
 * with the same arithmetic; the CRC runs over the line itself (over the
 * framebuffer line when one opaque plane is alone on it) and XRGB8888
 * writeback is a copy that sets X.
 */
#ifndef ATOMKMS_COMPOSE_H
#define ATOMKMS_COMPOSE_H

#include "atomkms_types.h"
#include "atomkms_formats.h"
#include "atomkms_color.h"
#include "atomkms_crc.h"
#include "atomkms_writeback.h"

struct atomkms_simd_ops;

/* DRM_MODE_ROTATE_* and DRM_MODE_REFLECT_* values. */
#define ATOMKMS_ROTATE_0		BIT(0)
#define ATOMKMS_ROTATE_90		BIT(1)
#define ATOMKMS_ROTATE_180		BIT(2)
#define ATOMKMS_ROTATE_270		BIT(3)
#define ATOMKMS_ROTATE_MASK		0xfu
#define ATOMKMS_REFLECT_X		BIT(4)
#define ATOMKMS_REFLECT_Y		BIT(5)

/* DRM_MODE_BLEND_* values (drm_blend.h). */
#define ATOMKMS_BLEND_PREMULTI		0
#define ATOMKMS_BLEND_COVERAGE		1
#define ATOMKMS_BLEND_PIXEL_NONE	2

/* enum drm_scaling_filter values: the default filter is bilinear. */
#define ATOMKMS_FILTER_BILINEAR		0
#define ATOMKMS_FILTER_NEAREST		1

/* Default scaling limits, src/dst in 16.16 (DRM's min_scale, max_scale). */
#define ATOMKMS_MIN_SCALE_DEFAULT	0x4000u	/* 4x upscale */
#define ATOMKMS_MAX_SCALE_DEFAULT	(4u << 16)	/* 4x downscale */

/* Limits of the compositor (larger values are rejected). */
#define ATOMKMS_COMPOSE_MAX_WIDTH	16384
#define ATOMKMS_COMPOSE_MAX_DST		0x1000000
#define ATOMKMS_COMPOSE_MAX_PLANES	16

/**
 * struct atomkms_plane_desc - a plane's state, as atomic check sees it
 * @fourcc: framebuffer format
 * @fb_width: framebuffer width in pixels
 * @fb_height: framebuffer height in pixels
 * @src_x: source rectangle in framebuffer pixels, 16.16 fixed point
 * @src_y: see @src_x
 * @src_w: see @src_x
 * @src_h: see @src_x
 * @dst_x: destination rectangle in CRTC pixels; may hang off the CRTC
 * @dst_y: see @dst_x
 * @dst_w: see @dst_x
 * @dst_h: see @dst_x
 * @crtc_width: active width of the CRTC
 * @crtc_height: active height of the CRTC
 * @rotation: DRM rotation bitmask: one ATOMKMS_ROTATE_*, optionally
 *            ATOMKMS_REFLECT_X and ATOMKMS_REFLECT_Y
 * @alpha: plane alpha, 0xffff opaque
 * @blend_mode: ATOMKMS_BLEND_*
 * @color_encoding: ATOMKMS_YCBCR_BT601/709/2020 (YCbCr formats only)
 * @color_range: ATOMKMS_YCBCR_LIMITED_RANGE or _FULL_RANGE
 * @filter: ATOMKMS_FILTER_BILINEAR (DRM's default) or _NEAREST
 * @min_scale: smallest src/dst ratio in 16.16, 0 for 1/4 (4x upscale)
 * @max_scale: largest src/dst ratio in 16.16, 0 for 4 (4x downscale)
 */
struct atomkms_plane_desc {
	u32 fourcc;
	u32 fb_width;
	u32 fb_height;
	u32 src_x;
	u32 src_y;
	u32 src_w;
	u32 src_h;
	s32 dst_x;
	s32 dst_y;
	u32 dst_w;
	u32 dst_h;
	u32 crtc_width;
	u32 crtc_height;
	u32 rotation;
	u16 alpha;
	u8 blend_mode;
	u8 color_encoding;
	u8 color_range;
	u8 filter;
	u32 min_scale;
	u32 max_scale;
};

/* &struct atomkms_plane_job flags: what the fast paths may assume. */
#define ATOMKMS_JOB_OPAQUE		BIT(0) /* op none, alpha 0xffff */
#define ATOMKMS_JOB_UNSCALED		BIT(1) /* 1:1, integer source */
#define ATOMKMS_JOB_UNROTATED		BIT(2) /* ROTATE_0, no reflection */
#define ATOMKMS_JOB_FULL_ALPHA		BIT(3) /* plane alpha 0xffff */
#define ATOMKMS_JOB_FULL_SCREEN		BIT(4) /* covers the whole CRTC */

/**
 * struct atomkms_plane_job - everything a frame needs to draw one plane
 * @visible: false if the plane draws nothing (off-screen, or alpha 0);
 *           no other field is meaningful then
 * @op: effective blend mode (ATOMKMS_BLEND_*): formats without alpha
 *      always use %ATOMKMS_BLEND_PIXEL_NONE, which is equivalent
 * @filter: effective filter (nearest when unscaled)
 * @alpha: plane alpha
 * @flags: ATOMKMS_JOB_*
 * @fmt: format table entry
 * @x1: clipped destination, CRTC pixels, [@x1, @x2) x [@y1, @y2)
 * @y1: see @x1
 * @x2: see @x1
 * @y2: see @x1
 * @dst_x: unclipped destination origin
 * @dst_y: see @dst_x
 * @dst_w: unclipped destination size
 * @dst_h: see @dst_w
 * @rx: source rectangle in the rotated framebuffer, 16.16
 * @ry: see @rx
 * @rw: see @rx
 * @rh: see @rx
 * @amin: valid source pixels in rotated space, [@amin, @amax] along
 *        output lines, [@bmin, @bmax] across them
 * @amax: see @amin
 * @bmin: see @amin
 * @bmax: see @amin
 * @mx0: rotated pixel (a, b) is framebuffer pixel
 *       (@mx0 + @mxa a + @mxb b, @my0 + @mya a + @myb b)
 * @mxa: see @mx0
 * @mxb: see @mx0
 * @my0: see @mx0
 * @mya: see @mx0
 * @myb: see @mx0
 * @q0: sampling position of output pixel @x1 relative to @rx (16.16)
 * @r0: remainder of @q0's division, in units of 1 / @den
 * @sq: position step per output pixel, whole 16.16 units
 * @sr: remainder of the step
 * @den: 2 * @dst_w
 * @csc: YCbCr to RGB conversion (YCbCr formats)
 *
 * Output pixel i (from @dst_x) samples the rotated source at
 * @rx + floor((2i + 1) @rw / (2 @dst_w)) along the line, and row j at
 * @ry + floor((2j + 1) @rh / (2 @dst_h)): pixel centres mapped exactly,
 * then rounded down to 1/65536 pixel. Nearest takes the pixel containing
 * the position; bilinear the four around it, weights in 1/65536, edge
 * pixels of the source rectangle replicated, one rounding at the end.
 */
struct atomkms_plane_job {
	bool visible;
	u8 op;
	u8 filter;
	u16 alpha;
	u32 flags;
	const struct atomkms_format *fmt;
	s32 x1;
	s32 y1;
	s32 x2;
	s32 y2;
	s32 dst_x;
	s32 dst_y;
	u32 dst_w;
	u32 dst_h;
	u64 rx;
	u64 ry;
	u64 rw;
	u64 rh;
	s32 amin;
	s32 amax;
	s32 bmin;
	s32 bmax;
	s32 mx0;
	s32 mxa;
	s32 mxb;
	s32 my0;
	s32 mya;
	s32 myb;
	u64 q0;
	u32 r0;
	u64 sq;
	u32 sr;
	u32 den;
	struct atomkms_csc csc;
};

int atomkms_plane_job_init(struct atomkms_plane_job *job,
			   const struct atomkms_plane_desc *desc,
			   const char **reason);

/**
 * struct atomkms_frame_plane - one plane of a frame
 * @job: the job computed at atomic check
 * @src: where the framebuffer is mapped this frame
 */
struct atomkms_frame_plane {
	const struct atomkms_plane_job *job;
	struct atomkms_plane_src src;
};

/*
 * ATOMKMS_FRAME_GENERAL: every plane through the general path, and every
 * plane drawn (no fast paths, no occlusion culling). The output bytes are
 * the same either way (the unit tests check it): a reference for the fast
 * paths, and the module parameter compose_fast_paths=0.
 */
#define ATOMKMS_FRAME_GENERAL		BIT(0)

/**
 * struct atomkms_frame - one frame to compose
 * @width: output width, at most the scratch buffer's width
 * @height: output height
 * @num_planes: entries in @planes, at most %ATOMKMS_COMPOSE_MAX_PLANES
 * @planes: the planes in ascending zpos
 * @flags: ATOMKMS_FRAME_*
 * @color: CRTC colour pipeline from atomkms_color_prepare(), NULL for none
 * @bpc: the output depth in bits per channel the CRC covers: 10, or 8
 *       (0 reads as 8); writeback takes the composed pixels in its own
 *       format whatever it is
 * @crc: if not NULL, receives the frame's CRC from atomkms_compose_frame()
 *       (see atomkms_compose_crc()); atomkms_compose_band() only reads
 *       whether it is set
 * @wb: if not NULL, the writeback framebuffer, @width x @height
 * @line_sink: if not NULL, called with every composed output line, after
 *             the colour pipeline (for tests and debugging)
 * @sink_ctx: first argument of @line_sink
 * @line_hook: if not NULL, called before each output line is composed; it
 *             may repoint the planes' sources to framebuffers of the same
 *             format, size and pitch (an async flip latching mid-frame, as
 *             on tearing hardware), never change their jobs
 * @hook_ctx: first argument of @line_hook; the hook runs outside the
 *            vector sections (include/atomkms_simd.h), so it may do what
 *            they must not
 * @simd: the line loops of packed 8-bit lines (include/atomkms_simd.h),
 *        NULL for &atomkms_simd_scalar
 */
struct atomkms_frame {
	u32 width;
	u32 height;
	u32 num_planes;
	const struct atomkms_frame_plane *planes;
	u32 flags;
	const struct atomkms_color_prep *color;
	u8 bpc;
	u64 *crc;
	const struct atomkms_writeback *wb;
	void (*line_sink)(void *ctx, u32 y, const struct atomkms_px *line,
			  u32 width);
	void *sink_ctx;
	void (*line_hook)(void *ctx, u32 y);
	void *hook_ctx;
	const struct atomkms_simd_ops *simd;
};

/**
 * struct atomkms_band - lines of a frame composed on their own
 * @y0: first line
 * @y1: the line after the last: the band is [@y0, @y1)
 * @crc: the band's share of the frame's CRC (atomkms_crc.h)
 * @deep: the same for the frame's 10-bit deviation words
 * @deep_any: some deviation word of the band is not 0
 *
 * A frame split into bands (atomkms_band_split()) composes them with one
 * scratch buffer each, at once or in any order (atomkms_compose_band()),
 * and takes its CRC from them all (atomkms_compose_crc()).
 */
struct atomkms_band {
	u32 y0;
	u32 y1;
	struct atomkms_crc crc;
	struct atomkms_crc deep;
	u32 deep_any;
};

size_t atomkms_compose_scratch_size(u32 width);
int atomkms_compose_scratch_init(void *scratch, u32 width);
void atomkms_band_split(struct atomkms_band *band, u32 height, u32 n, u32 i);
int atomkms_compose_band(const struct atomkms_frame *frame, void *scratch,
			 struct atomkms_band *band);
u64 atomkms_compose_crc(const struct atomkms_band *bands, u32 n);
int atomkms_compose_frame(const struct atomkms_frame *frame, void *scratch);

#endif /* ATOMKMS_COMPOSE_H */
