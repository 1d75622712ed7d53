// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-plane job of the software compositor: validation, clipping and
 * the sampling geometry of a plane, derived once at atomic check so that
 * nothing is recomputed per frame. Pure C: built into the module and into
 * the userspace unit tests.
 */
#include "atomkms_compose.h"

/* A rectangle in 16.16 framebuffer coordinates, [x1, x2) x [y1, y2). */
struct atomkms_rect64 {
	s64 x1;
	s64 y1;
	s64 x2;
	s64 y2;
};

/*
 * drm_rect_rotate(): reflect, then rotate a rectangle of a @w x @h space
 * (counter-clockwise, as DRM_MODE_ROTATE_* are).
 */
static void atomkms_rect_rotate(struct atomkms_rect64 *r, s64 w, s64 h,
				u32 rotation)
{
	struct atomkms_rect64 t = *r;

	if (rotation & ATOMKMS_REFLECT_X) {
		r->x1 = w - t.x2;
		r->x2 = w - t.x1;
	}
	if (rotation & ATOMKMS_REFLECT_Y) {
		r->y1 = h - t.y2;
		r->y2 = h - t.y1;
	}
	t = *r;
	switch (rotation & ATOMKMS_ROTATE_MASK) {
	case ATOMKMS_ROTATE_90:
		r->x1 = t.y1;
		r->x2 = t.y2;
		r->y1 = w - t.x2;
		r->y2 = w - t.x1;
		break;
	case ATOMKMS_ROTATE_180:
		r->x1 = w - t.x2;
		r->x2 = w - t.x1;
		r->y1 = h - t.y2;
		r->y2 = h - t.y1;
		break;
	case ATOMKMS_ROTATE_270:
		r->x1 = h - t.y2;
		r->x2 = h - t.y1;
		r->y1 = t.x1;
		r->y2 = t.x2;
		break;
	}
}

/*
 * The inverse, per pixel: rotated pixel (a, b) to framebuffer pixel, as
 * coefficients of a and b. Unrotate first, then unreflect.
 */
static void atomkms_job_pixel_map(struct atomkms_plane_job *job, s32 w, s32 h,
				  u32 rotation)
{
	s32 cx = 0, xa = 1, xb = 0, cy = 0, ya = 0, yb = 1;

	switch (rotation & ATOMKMS_ROTATE_MASK) {
	case ATOMKMS_ROTATE_90:		/* x' = w - 1 - b, y' = a */
		cx = w - 1;
		xa = 0;
		xb = -1;
		ya = 1;
		yb = 0;
		break;
	case ATOMKMS_ROTATE_180:	/* x' = w - 1 - a, y' = h - 1 - b */
		cx = w - 1;
		xa = -1;
		cy = h - 1;
		yb = -1;
		break;
	case ATOMKMS_ROTATE_270:	/* x' = b, y' = h - 1 - a */
		xa = 0;
		xb = 1;
		cy = h - 1;
		ya = -1;
		yb = 0;
		break;
	}
	if (rotation & ATOMKMS_REFLECT_X) {
		cx = w - 1 - cx;
		xa = -xa;
		xb = -xb;
	}
	if (rotation & ATOMKMS_REFLECT_Y) {
		cy = h - 1 - cy;
		ya = -ya;
		yb = -yb;
	}
	job->mx0 = cx;
	job->mxa = xa;
	job->mxb = xb;
	job->my0 = cy;
	job->mya = ya;
	job->myb = yb;
}

static int atomkms_job_fail(const char **reason, const char *why, int err)
{
	*reason = why;
	return -err;
}

/* The descriptor's own values, before any geometry: 0 or a -errno. */
static int atomkms_job_check_desc(struct atomkms_plane_job *job,
				  const struct atomkms_plane_desc *desc,
				  const struct atomkms_format *fmt,
				  const char **reason)
{
	u32 rot = desc->rotation & ATOMKMS_ROTATE_MASK;

	if (!fmt)
		return atomkms_job_fail(reason, "unsupported format",
					ATOMKMS_EINVAL);
	if (!rot || (rot & (rot - 1)) ||
	    (desc->rotation & ~(ATOMKMS_ROTATE_MASK | ATOMKMS_REFLECT_X |
				ATOMKMS_REFLECT_Y)))
		return atomkms_job_fail(reason, "unsupported rotation",
					ATOMKMS_EINVAL);
	if (desc->blend_mode > ATOMKMS_BLEND_PIXEL_NONE)
		return atomkms_job_fail(reason, "unsupported blend mode",
					ATOMKMS_EINVAL);
	if (desc->filter > ATOMKMS_FILTER_NEAREST)
		return atomkms_job_fail(reason, "unsupported scaling filter",
					ATOMKMS_EINVAL);
	if (fmt->is_yuv &&
	    atomkms_csc_init(&job->csc, desc->color_encoding,
			     desc->color_range, fmt->depth))
		return atomkms_job_fail(reason, "unsupported color encoding",
					ATOMKMS_EINVAL);
	if (!desc->fb_width || !desc->fb_height ||
	    desc->fb_width > 0x7fff || desc->fb_height > 0x7fff)
		return atomkms_job_fail(reason, "bad framebuffer size",
					ATOMKMS_EINVAL);
	/* The reader needs whole macropixels (ADDFB2 checks this first). */
	if (desc->fb_width % atomkms_format_block_w(fmt))
		return atomkms_job_fail(reason,
					"framebuffer width splits a macropixel",
					ATOMKMS_EINVAL);
	if (!desc->crtc_width || !desc->crtc_height ||
	    desc->crtc_width > ATOMKMS_COMPOSE_MAX_WIDTH ||
	    desc->crtc_height > ATOMKMS_COMPOSE_MAX_DST)
		return atomkms_job_fail(reason, "bad CRTC size",
					ATOMKMS_EINVAL);
	if ((u64)desc->src_x + desc->src_w > (u64)desc->fb_width << 16 ||
	    (u64)desc->src_y + desc->src_h > (u64)desc->fb_height << 16)
		return atomkms_job_fail(reason, "source outside framebuffer",
					ATOMKMS_ENOSPC);
	if (desc->dst_w > ATOMKMS_COMPOSE_MAX_DST ||
	    desc->dst_h > ATOMKMS_COMPOSE_MAX_DST)
		return atomkms_job_fail(reason, "destination too large",
					ATOMKMS_EINVAL);
	return 0;
}

/*
 * The source rectangle in the rotated framebuffer's coordinates, and the
 * scaling limits it must keep against the destination: 0 or a -errno.
 */
static int atomkms_job_source(struct atomkms_plane_job *job,
			      const struct atomkms_plane_desc *desc,
			      const char **reason)
{
	u32 min_scale = desc->min_scale ?: ATOMKMS_MIN_SCALE_DEFAULT;
	u32 max_scale = desc->max_scale ?: ATOMKMS_MAX_SCALE_DEFAULT;
	struct atomkms_rect64 r;

	r.x1 = desc->src_x;
	r.y1 = desc->src_y;
	r.x2 = (s64)desc->src_x + desc->src_w;
	r.y2 = (s64)desc->src_y + desc->src_h;
	atomkms_rect_rotate(&r, (s64)desc->fb_width << 16,
			    (s64)desc->fb_height << 16, desc->rotation);
	job->rx = r.x1;
	job->ry = r.y1;
	job->rw = r.x2 - r.x1;
	job->rh = r.y2 - r.y1;

	if (job->rw < (u64)min_scale * desc->dst_w ||
	    job->rh < (u64)min_scale * desc->dst_h)
		return atomkms_job_fail(reason, "upscaling beyond the limit",
					ATOMKMS_ERANGE);
	if (job->rw > (u64)max_scale * desc->dst_w ||
	    job->rh > (u64)max_scale * desc->dst_h)
		return atomkms_job_fail(reason, "downscaling beyond the limit",
					ATOMKMS_ERANGE);
	return 0;
}

/* The destination clipped to the CRTC: false if nothing is left. */
static bool atomkms_job_clip(struct atomkms_plane_job *job,
			     const struct atomkms_plane_desc *desc)
{
	s64 x1 = desc->dst_x > 0 ? desc->dst_x : 0;
	s64 y1 = desc->dst_y > 0 ? desc->dst_y : 0;
	s64 x2 = (s64)desc->dst_x + desc->dst_w;
	s64 y2 = (s64)desc->dst_y + desc->dst_h;

	if (x2 > desc->crtc_width)
		x2 = desc->crtc_width;
	if (y2 > desc->crtc_height)
		y2 = desc->crtc_height;
	if (x1 >= x2 || y1 >= y2)
		return false;
	job->x1 = x1;
	job->y1 = y1;
	job->x2 = x2;
	job->y2 = y2;
	return true;
}

/*
 * What the line loops read: the source texels the plane touches, the
 * pixel map of the rotation, and the DDA that steps through the source.
 */
static void atomkms_job_sampling(struct atomkms_plane_job *job,
				 const struct atomkms_plane_desc *desc)
{
	u64 num, step;
	u32 i0;

	job->dst_x = desc->dst_x;
	job->dst_y = desc->dst_y;
	job->dst_w = desc->dst_w;
	job->dst_h = desc->dst_h;
	job->amin = job->rx >> 16;
	job->amax = ((job->rx + job->rw + 0xffff) >> 16) - 1;
	job->bmin = job->ry >> 16;
	job->bmax = ((job->ry + job->rh + 0xffff) >> 16) - 1;
	atomkms_job_pixel_map(job, desc->fb_width, desc->fb_height,
			      desc->rotation);

	/* Exact DDA of floor((2i + 1) rw / (2 dst_w)) from i = x1 - dst_x. */
	job->den = 2 * desc->dst_w;
	i0 = job->x1 - desc->dst_x;
	num = (2 * (u64)i0 + 1) * job->rw;
	job->q0 = div_u64(num, job->den);
	job->r0 = num - job->q0 * job->den;
	step = 2 * job->rw;
	job->sq = div_u64(step, job->den);
	job->sr = step - job->sq * job->den;
}

/* The flags that make the compositor's fast paths eligible. */
static void atomkms_job_flags(struct atomkms_plane_job *job,
			      const struct atomkms_plane_desc *desc)
{
	if (job->rw == (u64)desc->dst_w << 16 &&
	    job->rh == (u64)desc->dst_h << 16 &&
	    !(job->rx & 0xffff) && !(job->ry & 0xffff)) {
		/* Bilinear at pixel centres has zero weights: nearest. */
		job->flags |= ATOMKMS_JOB_UNSCALED;
		job->filter = ATOMKMS_FILTER_NEAREST;
	}
	if (desc->rotation == ATOMKMS_ROTATE_0)
		job->flags |= ATOMKMS_JOB_UNROTATED;
	if (desc->alpha == 0xffff)
		job->flags |= ATOMKMS_JOB_FULL_ALPHA;
	if (desc->alpha == 0xffff && job->op == ATOMKMS_BLEND_PIXEL_NONE)
		job->flags |= ATOMKMS_JOB_OPAQUE;
	if (!job->x1 && !job->y1 && (s64)job->x2 == desc->crtc_width &&
	    (s64)job->y2 == desc->crtc_height)
		job->flags |= ATOMKMS_JOB_FULL_SCREEN;
}

/**
 * atomkms_plane_job_init - derive a plane's job from its state
 * @job: the result
 * @desc: the plane state
 * @reason: if not NULL, set to a short reason on failure (for
 *          drm_dbg_atomic()), or to "ok"
 *
 * Validates the format, rotation, blend mode, colour encoding and scaling
 * factors, clips the destination to the CRTC and derives the matching
 * source geometry, the pixel map of the rotation, the effective blend op
 * and the flags that make fast paths eligible. A plane that draws nothing
 * (empty or off-screen destination, empty source, alpha 0) yields a job
 * with @job->visible false and returns 0.
 *
 * Return: 0, -22 (EINVAL) for an unsupported format, rotation, mode or
 * size (a framebuffer width that is not a multiple of
 * atomkms_format_block_w() included), -28 (ENOSPC) for a source outside
 * the framebuffer, -34 (ERANGE) for a scaling factor beyond the limits.
 */
int atomkms_plane_job_init(struct atomkms_plane_job *job,
			   const struct atomkms_plane_desc *desc,
			   const char **reason)
{
	const struct atomkms_format *fmt = atomkms_format_lookup(desc->fourcc);
	const char *dummy;
	int ret;

	if (!reason)
		reason = &dummy;
	*reason = "ok";
	memset(job, 0, sizeof(*job));

	ret = atomkms_job_check_desc(job, desc, fmt, reason);
	if (ret)
		return ret;
	if (!desc->src_w || !desc->src_h || !desc->dst_w || !desc->dst_h ||
	    !desc->alpha)
		return 0;
	ret = atomkms_job_source(job, desc, reason);
	if (ret || !atomkms_job_clip(job, desc))
		return ret;

	job->visible = true;
	job->fmt = fmt;
	job->alpha = desc->alpha;
	job->op = fmt->has_alpha ? desc->blend_mode : ATOMKMS_BLEND_PIXEL_NONE;
	job->filter = desc->filter;
	atomkms_job_sampling(job, desc);
	atomkms_job_flags(job, desc);
	return 0;
}
