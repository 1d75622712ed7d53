// SPDX-License-Identifier: GPL-2.0-only
/*
 * The panel fitter's arithmetic (include/atomkms_fit.h): the destination
 * rectangle of each scaling mode, and the two-pass composition of a
 * fitted frame. Pure C: built into the module and the userspace tests.
 */
#include "atomkms_fit.h"

/**
 * atomkms_fit_init - where a @width x @height image goes in the raster
 * @fit: filled in
 * @mode: ATOMKMS_FIT_FULL, _CENTER or _ASPECT
 * @width: the image's width, 1 to @out_width
 * @height: its height, 1 to @out_height
 * @out_width: the raster's width
 * @out_height: its height
 *
 * Full: the whole raster. Center: the image's own size. Aspect: the
 * largest rectangle of the image's aspect ratio that fits, its other
 * side rounded to the nearest pixel (ties up). Center and Aspect are
 * centred, the odd pixel of a border going right and down.
 *
 * Return: 0, or -EINVAL for an unknown mode or an image that is empty
 * or larger than the raster.
 */
int atomkms_fit_init(struct atomkms_fit *fit, u32 mode, u32 width, u32 height,
		     u32 out_width, u32 out_height)
{
	u32 w, h;

	if (!width || !height || width > out_width || height > out_height ||
	    out_width > ATOMKMS_COMPOSE_MAX_WIDTH ||
	    out_height > ATOMKMS_COMPOSE_MAX_WIDTH)
		return -ATOMKMS_EINVAL;

	switch (mode) {
	case ATOMKMS_FIT_FULL:
		w = out_width;
		h = out_height;
		break;
	case ATOMKMS_FIT_CENTER:
		w = width;
		h = height;
		break;
	case ATOMKMS_FIT_ASPECT:
		/* width / height against out_width / out_height. */
		if ((u64)width * out_height >= (u64)height * out_width) {
			w = out_width;
			h = (u32)div_u64((u64)height * out_width * 2 + width,
					 2 * width);
		} else {
			h = out_height;
			w = (u32)div_u64((u64)width * out_height * 2 + height,
					 2 * height);
		}
		if (w > out_width)
			w = out_width;
		if (h > out_height)
			h = out_height;
		break;
	default:
		return -ATOMKMS_EINVAL;
	}

	*fit = (struct atomkms_fit){
		.mode = mode,
		.width = width,
		.height = height,
		.out_width = out_width,
		.out_height = out_height,
		.x = (out_width - w) / 2,
		.y = (out_height - h) / 2,
		.w = w,
		.h = h,
	};
	return 0;
}

/**
 * atomkms_fit_format - the intermediate image's format
 * @bpc: the output depth, 8 or 10
 *
 * Return: XRGB2101010 at 10 bits per channel, else XRGB8888: the
 * precision the CRC covers survives the intermediate image.
 */
u32 atomkms_fit_format(u8 bpc)
{
	return bpc == 10 ? ATOMKMS_FMT_XRGB2101010 : ATOMKMS_FMT_XRGB8888;
}

/**
 * atomkms_fit_buffer_size - bytes of a @width x @height intermediate image
 * @width: the mode's width
 * @height: its height
 *
 * Return: the size (4 bytes a pixel in either format).
 */
size_t atomkms_fit_buffer_size(u32 width, u32 height)
{
	return (size_t)width * height * 4;
}

/**
 * atomkms_fit_compose - compose a fitted frame
 * @frame: the frame at the mode's size (@fit->width x @fit->height):
 *         its planes, colour pipeline, flags, line hook and depth; its
 *         sinks (CRC, writeback, line sink) take the output raster
 * @fit: from atomkms_fit_init()
 * @buf: the intermediate image, at least atomkms_fit_buffer_size() bytes
 * @size: its size
 * @scratch: the compositor's scratch buffer, for @fit->out_width
 *
 * Return: 0, or -EINVAL for a frame that does not match @fit, a buffer
 * too small, or what atomkms_compose_frame() refuses.
 */
int atomkms_fit_compose(const struct atomkms_frame *frame,
			const struct atomkms_fit *fit, void *buf, size_t size,
			void *scratch)
{
	struct atomkms_frame pass = *frame;
	struct atomkms_writeback wb = { 0 };
	struct atomkms_plane_desc desc = { 0 };
	struct atomkms_frame_plane fp = { 0 };
	struct atomkms_plane_job job;
	const char *why;
	int ret;

	if (!buf || frame->width != fit->width ||
	    frame->height != fit->height ||
	    size < atomkms_fit_buffer_size(fit->width, fit->height))
		return -ATOMKMS_EINVAL;

	/* The planes and colour pipeline at the mode's size. */
	wb.fourcc = atomkms_fit_format(frame->bpc);
	wb.map[0] = buf;
	wb.pitch[0] = fit->width * 4;
	pass.crc = NULL;
	pass.wb = &wb;
	pass.line_sink = NULL;
	ret = atomkms_compose_frame(&pass, scratch);
	if (ret)
		return ret;

	/* That image, scaled into the raster: the output's sinks. */
	desc = (struct atomkms_plane_desc){
		.fourcc = wb.fourcc,
		.fb_width = fit->width,
		.fb_height = fit->height,
		.src_w = fit->width << 16,
		.src_h = fit->height << 16,
		.dst_x = (s32)fit->x,
		.dst_y = (s32)fit->y,
		.dst_w = fit->w,
		.dst_h = fit->h,
		.crtc_width = fit->out_width,
		.crtc_height = fit->out_height,
		.rotation = ATOMKMS_ROTATE_0,
		.alpha = 0xffff,
		.blend_mode = ATOMKMS_BLEND_PIXEL_NONE,
		.filter = ATOMKMS_FILTER_BILINEAR,
		/* The fitter scales up without limit, and never down. */
		.min_scale = 1,
		.max_scale = 1u << 16,
	};
	ret = atomkms_plane_job_init(&job, &desc, &why);
	if (ret)
		return ret;
	fp.job = &job;
	fp.src.map[0] = buf;
	fp.src.pitch[0] = fit->width * 4;

	pass = *frame;
	pass.width = fit->out_width;
	pass.height = fit->out_height;
	pass.num_planes = 1;
	pass.planes = &fp;
	pass.color = NULL;
	pass.line_hook = NULL;
	pass.hook_ctx = NULL;
	return atomkms_compose_frame(&pass, scratch);
}
