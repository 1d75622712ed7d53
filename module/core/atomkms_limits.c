// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated display-engine limits (issue 15): profiles, the presets, and
 * the check of a state against a profile, with the assignment of DRM
 * planes to a pool of hardware planes. Pure C, integer arithmetic only:
 * built into the module and into test/unit/test_limits.
 */
#include "atomkms_limits.h"
#include "atomkms_formats.h"
#include "atomkms_topology.h"

static_assert(ATOMKMS_LIMITS_MAX_CRTCS == ATOMKMS_TOPO_MAX_CRTCS, "CRTCs");
static_assert(ATOMKMS_LIMITS_MAX_PLANES == ATOMKMS_TOPO_MAX_PLANES, "planes");
static_assert(BIT(ATOMKMS_TOPO_OVERLAY) == ATOMKMS_LIMITS_OVERLAY, "types");
static_assert(BIT(ATOMKMS_TOPO_PRIMARY) == ATOMKMS_LIMITS_PRIMARY, "types");
static_assert(BIT(ATOMKMS_TOPO_CURSOR) == ATOMKMS_LIMITS_CURSOR, "types");

/* A plane placed on no hardware plane of a pool. */
#define ATOMKMS_LIMITS_NO_HW		0xff
/* The rotations that swap a plane's width and height. */
#define ATOMKMS_LIMITS_ROT_SWAP		(ATOMKMS_TOPO_ROTATE_90 | \
					 ATOMKMS_TOPO_ROTATE_270)
/* A bandwidth in MB/s, in the unit planes' needs add up in: mB/s. */
#define ATOMKMS_LIMITS_MBPS		1000000000U

/*
 * The compositor's formats of at most @max_planes memory planes; YCbCr
 * ones only if @yuv.
 */
static u64 atomkms_limits_formats(u32 max_planes, bool yuv)
{
	u64 set = 0;
	u32 i;

	for (i = 0; i < atomkms_num_formats && i < 64; i++)
		if (atomkms_formats[i].num_planes <= max_planes &&
		    (yuv || !atomkms_formats[i].is_yuv))
			set |= 1ULL << i;
	return set;
}

/* The bit of @fourcc in a set of formats, 0 if the compositor has none. */
static u64 atomkms_limits_format_bit(u32 fourcc)
{
	const struct atomkms_format *f = atomkms_format_lookup(fourcc);
	u32 i = f ? (u32)(f - atomkms_formats) : 64;

	return i < 64 ? 1ULL << i : 0;
}

static void atomkms_limits_add_hw(struct atomkms_limits *l, u32 crtcs,
				  u8 types, u8 rotations, bool scales,
				  u64 formats, u32 max_w, u32 max_h)
{
	l->hw_planes[l->num_hw_planes++] = (struct atomkms_limits_hw_plane){
		.possible_crtcs = crtcs, .drm_planes = ATOMKMS_LIMIT_NONE,
		.types = types, .rotations = rotations, .scales = scales,
		.formats = formats, .max_width = max_w, .max_height = max_h,
	};
}

/* Every CRTC a topology may have. */
#define ATOMKMS_LIMITS_ALL_CRTCS	(BIT(ATOMKMS_TOPO_MAX_CRTCS) - 1)

/*
 * soc: the class of Qualcomm's DPU 6.2 (SC7180), after the upstream msm
 * driver's catalog; include/atomkms_limits.h lists the sources.
 */
static void atomkms_limits_soc(struct atomkms_limits *l)
{
	/* DPU flips (reflect-x/y, so rotate-180) but rotates 90 only inline. */
	u8 rot = ATOMKMS_TOPO_ROTATE_0 | ATOMKMS_TOPO_ROTATE_180 |
		 ATOMKMS_TOPO_REFLECT_X | ATOMKMS_TOPO_REFLECT_Y;
	u8 planes = ATOMKMS_LIMITS_PRIMARY | ATOMKMS_LIMITS_OVERLAY;
	u64 rgb = atomkms_limits_formats(1, false);

	l->num_hw_planes = 0;
	/* VIG0: the one pipe with a scaler (QSEED3) and YCbCr. */
	atomkms_limits_add_hw(l, ATOMKMS_LIMITS_ALL_CRTCS, planes, rot, true,
			      atomkms_limits_formats(3, true), 2560,
			      ATOMKMS_LIMIT_NONE);
	/* DMA0 to DMA2: RGB, no scaling; DMA1 and DMA2 also cursors. */
	atomkms_limits_add_hw(l, ATOMKMS_LIMITS_ALL_CRTCS, planes, rot, false,
			      rgb, 2560, ATOMKMS_LIMIT_NONE);
	atomkms_limits_add_hw(l, ATOMKMS_LIMITS_ALL_CRTCS,
			      planes | ATOMKMS_LIMITS_CURSOR, rot, false, rgb,
			      2560, ATOMKMS_LIMIT_NONE);
	atomkms_limits_add_hw(l, ATOMKMS_LIMITS_ALL_CRTCS,
			      planes | ATOMKMS_LIMITS_CURSOR, rot, false, rgb,
			      2560, ATOMKMS_LIMIT_NONE);
	l->max_scalers = 1;
	l->max_upscale = 20 * ATOMKMS_LIMITS_SCALE_ONE;
	l->max_downscale = 4 * ATOMKMS_LIMITS_SCALE_ONE;
	l->scaler_max_width = 2560;
	l->bandwidth_mbps = 6800;
	l->num_plls = 2;
	l->max_crtc_clock_khz = 460000;
}

/*
 * laptop: the class of Intel's display version 9, after i915;
 * include/atomkms_limits.h lists the sources.
 */
static void atomkms_limits_laptop(struct atomkms_limits *l)
{
	u8 rot = ATOMKMS_TOPO_ROTATE_0 | ATOMKMS_TOPO_ROTATE_90 |
		 ATOMKMS_TOPO_ROTATE_180 | ATOMKMS_TOPO_ROTATE_270;
	u8 planes = ATOMKMS_LIMITS_PRIMARY | ATOMKMS_LIMITS_OVERLAY;
	u64 all = atomkms_limits_formats(3, true);
	u64 packed = atomkms_limits_formats(1, true);
	u64 cursor = atomkms_limits_format_bit(ATOMKMS_FMT_ARGB8888);
	u32 pipe, i;

	l->num_hw_planes = 0;
	for (pipe = 0; pipe < 3; pipe++) {
		/* Planes 1 to 3 on pipes A and B, 1 and 2 on pipe C. */
		for (i = 0; i < (pipe < 2 ? 3u : 2u); i++)
			atomkms_limits_add_hw(l, BIT(pipe), planes, rot, true,
					      pipe < 2 && i < 2 ? all : packed,
					      5120, 4096);
		atomkms_limits_add_hw(l, BIT(pipe), ATOMKMS_LIMITS_CURSOR,
				      ATOMKMS_TOPO_ROTATE_0 |
				      ATOMKMS_TOPO_ROTATE_180, false, cursor,
				      256, 256);
	}
	for (pipe = 0; pipe < ATOMKMS_TOPO_MAX_CRTCS; pipe++)
		l->num_scalers[pipe] = pipe < 2 ? 2 : pipe == 2 ? 1 : 0;
	l->max_downscale = 3 * ATOMKMS_LIMITS_SCALE_ONE - 1;
	l->scaler_min_src_w = 8;
	l->scaler_min_src_h = 8;
	l->scaler_min_dst_w = 8;
	l->scaler_min_dst_h = 8;
	l->scaler_max_width = 4096;
	l->bandwidth_mbps = 12000;
	l->num_plls = 3;
	l->max_crtc_clock_khz = 675000;
	l->cursor_max_w = 256;
	l->cursor_max_h = 256;
	l->num_cursor_sizes = 3;
	for (i = 0; i < 3; i++) {
		l->cursor_sizes[i].w = 64 << i;
		l->cursor_sizes[i].h = 64 << i;
	}
}

/*
 * desktop: the class of AMD's DCN 3.0 (Navi 21), after amdgpu; include/
 * atomkms_limits.h lists the sources.
 */
static void atomkms_limits_desktop(struct atomkms_limits *l)
{
	u8 rot = ATOMKMS_TOPO_ROTATE_0 | ATOMKMS_TOPO_ROTATE_90 |
		 ATOMKMS_TOPO_ROTATE_180 | ATOMKMS_TOPO_ROTATE_270;
	u64 all = atomkms_limits_formats(3, true);
	u64 cursor = atomkms_limits_format_bit(ATOMKMS_FMT_ARGB8888);
	u32 i;

	l->num_hw_planes = 0;
	/* Six pipes (HUBP and DPP, each with its scaler), any CRTC's. */
	for (i = 0; i < 6; i++)
		atomkms_limits_add_hw(l, ATOMKMS_LIMITS_ALL_CRTCS,
				      ATOMKMS_LIMITS_PRIMARY |
				      ATOMKMS_LIMITS_OVERLAY, rot, true, all,
				      ATOMKMS_LIMIT_NONE, ATOMKMS_LIMIT_NONE);
	/* A cursor per CRTC, which takes no pipe of its own. */
	for (i = 0; i < 6; i++)
		atomkms_limits_add_hw(l, BIT(i), ATOMKMS_LIMITS_CURSOR,
				      ATOMKMS_TOPO_ROTATE_0, false, cursor,
				      256, 256);
	l->max_scalers = 6;
	l->max_upscale = 16 * ATOMKMS_LIMITS_SCALE_ONE;
	l->max_downscale = (1000 * ATOMKMS_LIMITS_SCALE_ONE) / 167;
	l->scaler_max_width = 7680;
	l->bandwidth_mbps = 32000;
	l->num_plls = 6;
	l->cursor_max_w = 256;
	l->cursor_max_h = 256;
}

/**
 * atomkms_limits_preset - a named profile
 * @name: "none" (no limit), "soc", "laptop" or "desktop"; the header's
 *        DOC section gives their numbers and where each comes from
 * @l: filled in
 *
 * Return: 0, or -EINVAL for an unknown name (@l is then untouched).
 */
int atomkms_limits_preset(const char *name, struct atomkms_limits *l)
{
	static const struct {
		const char *name;
		void (*fill)(struct atomkms_limits *l);
	} presets[] = {
		{ "none", NULL },
		{ "soc", atomkms_limits_soc },
		{ "laptop", atomkms_limits_laptop },
		{ "desktop", atomkms_limits_desktop },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(presets); i++) {
		if (strcmp(name, presets[i].name))
			continue;
		atomkms_limits_init(l);
		if (presets[i].fill)
			presets[i].fill(l);
		return 0;
	}
	return -ATOMKMS_EINVAL;
}

static const char *
atomkms_limits_check_hw(const struct atomkms_limits_hw_plane *hw)
{
	if (!hw->types || (hw->types & ~(ATOMKMS_LIMITS_PRIMARY |
					 ATOMKMS_LIMITS_OVERLAY |
					 ATOMKMS_LIMITS_CURSOR)))
		return "limits: a hardware plane takes primary, overlay or cursor planes";
	if (!(hw->rotations & ATOMKMS_TOPO_ROTATE_0) ||
	    (hw->rotations & ~ATOMKMS_TOPO_ROTATIONS))
		return "limits: hardware plane rotations: rotate-0, any of 90/180/270, reflect-x/y";
	if (!hw->formats)
		return "limits: a hardware plane reads some format";
	if (!hw->max_width || !hw->max_height)
		return "limits: a hardware plane's largest source is at least 1x1";
	return NULL;
}

/**
 * atomkms_limits_validate - refuse a profile that makes no sense
 * @l: the profile
 * @why: on error, the rule it breaks
 *
 * Counts and maxima take any value (0 included: none of the resource);
 * the rules are about the profile's own consistency.
 *
 * Return: 0, or -EINVAL.
 */
int atomkms_limits_validate(const struct atomkms_limits *l, const char **why)
{
	const char *err = NULL;
	u32 i;

	if (l->num_hw_planes != ATOMKMS_LIMIT_NONE &&
	    l->num_hw_planes > ATOMKMS_LIMITS_MAX_HW_PLANES)
		err = "limits: at most 32 hardware planes";
	for (i = 0; !err && l->num_hw_planes != ATOMKMS_LIMIT_NONE &&
	     i < l->num_hw_planes; i++)
		err = atomkms_limits_check_hw(&l->hw_planes[i]);
	if (!err && (l->max_upscale < ATOMKMS_LIMITS_SCALE_ONE ||
		     l->max_downscale < ATOMKMS_LIMITS_SCALE_ONE))
		err = "limits: scale factors are at least 1.0 (0x10000): 1.0 is no scaling";
	if (!err && l->num_cursor_sizes != ATOMKMS_LIMIT_NONE &&
	    l->num_cursor_sizes > ATOMKMS_LIMITS_MAX_CURSOR_SIZES)
		err = "limits: at most 8 cursor sizes";
	for (i = 0; !err && l->num_cursor_sizes != ATOMKMS_LIMIT_NONE &&
	     i < l->num_cursor_sizes; i++)
		if (!l->cursor_sizes[i].w || !l->cursor_sizes[i].h)
			err = "limits: a cursor size is at least 1x1";
	if (err) {
		*why = err;
		return -ATOMKMS_EINVAL;
	}
	return 0;
}

/**
 * atomkms_limits_from_params - the profile the parameters describe
 * @p: a preset, and the numbers that replace its own
 * @l: filled in, validated by atomkms_limits_validate()
 * @why: on error, what is wrong
 *
 * Return: 0, or -EINVAL for an unknown preset or a profile that
 * atomkms_limits_validate() refuses.
 */
int atomkms_limits_from_params(const struct atomkms_limits_params *p,
			       struct atomkms_limits *l, const char **why)
{
	const char *name = p->preset && p->preset[0] ? p->preset : "none";
	u32 i, n;

	if (p->num_num_scalers > ATOMKMS_LIMITS_MAX_CRTCS) {
		*why = "limits: num_scalers: at most 8 CRTCs";
		return -ATOMKMS_EINVAL;
	}
	if (atomkms_limits_preset(name, l)) {
		*why = "limits: the presets are none, soc, laptop and desktop";
		return -ATOMKMS_EINVAL;
	}
	if (p->max_active_planes != ATOMKMS_LIMIT_NONE)
		l->max_active_planes = p->max_active_planes;
	if (p->num_plls != ATOMKMS_LIMIT_NONE)
		l->num_plls = p->num_plls;
	if (p->bandwidth_mbps != ATOMKMS_LIMIT_NONE)
		l->bandwidth_mbps = p->bandwidth_mbps;
	for (i = 0; p->num_num_scalers && i < ATOMKMS_LIMITS_MAX_CRTCS; i++) {
		n = p->num_scalers[i < p->num_num_scalers ? i :
				   p->num_num_scalers - 1];
		if (n != ATOMKMS_LIMIT_NONE)
			l->num_scalers[i] = n;
	}
	return atomkms_limits_validate(l, why);
}

/**
 * atomkms_limits_any - does a profile limit anything
 * @l: the profile
 *
 * Return: false if @l is atomkms_limits_init()'s, which accepts any
 * state: the driver then skips the check altogether.
 */
bool atomkms_limits_any(const struct atomkms_limits *l)
{
	u32 i;

	for (i = 0; i < ATOMKMS_LIMITS_MAX_CRTCS; i++)
		if (l->num_scalers[i] != ATOMKMS_LIMIT_NONE)
			return true;
	return l->max_active_planes != ATOMKMS_LIMIT_NONE ||
	       l->max_crtc_planes != ATOMKMS_LIMIT_NONE ||
	       l->num_hw_planes != ATOMKMS_LIMIT_NONE ||
	       l->max_scalers != ATOMKMS_LIMIT_NONE ||
	       l->max_upscale != ATOMKMS_LIMIT_NONE ||
	       l->max_downscale != ATOMKMS_LIMIT_NONE ||
	       l->scaler_min_src_w || l->scaler_min_src_h ||
	       l->scaler_min_dst_w || l->scaler_min_dst_h ||
	       l->scaler_max_width != ATOMKMS_LIMIT_NONE ||
	       l->bandwidth_mbps != ATOMKMS_LIMIT_NONE ||
	       l->num_plls != ATOMKMS_LIMIT_NONE ||
	       l->max_crtc_clock_khz != ATOMKMS_LIMIT_NONE ||
	       l->max_total_clock_khz != ATOMKMS_LIMIT_NONE ||
	       l->cursor_max_w != ATOMKMS_LIMIT_NONE ||
	       l->cursor_max_h != ATOMKMS_LIMIT_NONE ||
	       l->num_cursor_sizes != ATOMKMS_LIMIT_NONE;
}

/**
 * atomkms_limits_plane_caps - narrow a DRM plane's capabilities to its
 * hardware planes'
 * @l: the profile
 * @plane: the DRM plane's index
 * @type: its type (&enum atomkms_topo_plane_type)
 * @possible_crtcs: in, the topology's; out, those a hardware plane it may
 *                  use can feed
 * @formats: likewise, the formats (bit i for atomkms_formats[i])
 * @rotations: likewise, the rotations (DRM's bits)
 *
 * The hardware planes it may use are those of its type that may stand
 * for it and feed one of its CRTCs; what it offers is the union of
 * theirs: in a shared pool a plane may land on any of them, so whatever
 * one takes, the plane may take (IN_FORMATS promises that a format may
 * work, not that it always does: the check decides with the other planes
 * placed). What none of them takes can never pass the check, and is not
 * offered. Without a pool, or if nothing would be left of a value (the
 * plane can never be shown then, which the check says), each value stays
 * as it is.
 */
void atomkms_limits_plane_caps(const struct atomkms_limits *l, u32 plane,
			       u32 type, u32 *possible_crtcs, u64 *formats,
			       u8 *rotations)
{
	u32 crtcs = 0, i;
	u64 fmts = 0;
	u8 rots = 0;

	if (l->num_hw_planes == ATOMKMS_LIMIT_NONE || plane >= 32 || type > 2)
		return;
	for (i = 0; i < l->num_hw_planes &&
	     i < ATOMKMS_LIMITS_MAX_HW_PLANES; i++) {
		const struct atomkms_limits_hw_plane *hw = &l->hw_planes[i];

		if (!(hw->drm_planes & BIT(plane)) || !(hw->types & BIT(type)) ||
		    !(hw->possible_crtcs & *possible_crtcs))
			continue;
		crtcs |= hw->possible_crtcs;
		fmts |= hw->formats;
		rots |= hw->rotations;
	}
	if (crtcs & *possible_crtcs)
		*possible_crtcs &= crtcs;
	if (fmts & *formats)
		*formats &= fmts;
	if (rots & *rotations)
		*rotations &= rots;
}

/* A rejection's message, appended to piece by piece, truncated. */
struct atomkms_why {
	char *buf;
	u32 len, used;
};

static char *atomkms_why_end(struct atomkms_why *w)
{
	return w->buf ? w->buf + w->used : NULL;
}

static u32 atomkms_why_room(struct atomkms_why *w)
{
	return w->buf ? w->len - w->used : 0;
}

/* snprintf() wrote @n characters, or would have. */
static void atomkms_why_used(struct atomkms_why *w, int n)
{
	if (w->buf && n > 0)
		w->used = w->used + n < w->len ? w->used + n : w->len - 1;
}

/* Append to @w: a printf format and its arguments (snprintf checks them). */
#define atomkms_why_add(w, ...) ({					\
	struct atomkms_why *w_ = (w);					\
									\
	atomkms_why_used(w_, snprintf(atomkms_why_end(w_),		\
				      atomkms_why_room(w_), __VA_ARGS__)); \
})

/* The plural ending of a count's noun: "1 plane", "2 planes". */
static const char *atomkms_s(u64 n)
{
	return n == 1 ? "" : "s";
}

static const char *atomkms_limits_type_name(u32 type)
{
	static const char * const names[] = {
		[ATOMKMS_TOPO_OVERLAY] = "overlay",
		[ATOMKMS_TOPO_PRIMARY] = "primary",
		[ATOMKMS_TOPO_CURSOR] = "cursor",
	};

	return type < ARRAY_SIZE(names) ? names[type] : "plane";
}

/* Pixels of a 16.16 size, rounded up. */
static u32 atomkms_limits_px(u32 v)
{
	return (v >> 16) + !!(v & 0xffff);
}

/* The plane's source as it reaches the CRTC: 90 and 270 swap it. */
static void atomkms_limits_src(const struct atomkms_limits_plane *p,
			       u32 *w, u32 *h)
{
	bool swap = p->rotation & ATOMKMS_LIMITS_ROT_SWAP;

	*w = swap ? p->src_h : p->src_w;
	*h = swap ? p->src_w : p->src_h;
}

/**
 * atomkms_limits_plane_scales - does a plane need a scaler
 * @p: the plane
 *
 * Return: its source, rotated (90 and 270 swap width and height), is not
 * its destination's size, to the 1/65536 pixel.
 */
bool atomkms_limits_plane_scales(const struct atomkms_limits_plane *p)
{
	u32 w, h;

	atomkms_limits_src(p, &w, &h);
	return w != (u64)p->dst_w << 16 || h != (u64)p->dst_h << 16;
}

/**
 * atomkms_limits_plane_bytes - bytes a plane fetches a frame
 * @p: the plane
 *
 * Its source, each size rounded up to whole pixels, times its format's
 * bytes per pixel, memory plane by memory plane (chroma planes
 * subsampled, rounded up): NV12 fetches 1.5 bytes a pixel.
 *
 * Return: the bytes, or 0 if the compositor has no such format.
 */
u64 atomkms_limits_plane_bytes(const struct atomkms_limits_plane *p)
{
	const struct atomkms_format *f = atomkms_format_lookup(p->fourcc);
	u32 w = atomkms_limits_px(p->src_w), h = atomkms_limits_px(p->src_h);
	u64 bytes = 0;
	u32 i;

	for (i = 0; f && i < f->num_planes; i++) {
		u32 hs = i ? f->hsub : 1, vs = i ? f->vsub : 1;

		bytes += (u64)f->cpp[i] * ((w + hs - 1) / hs) *
			 ((h + vs - 1) / vs);
	}
	return bytes;
}

/* Does @s keep what atomkms_limits_check() asks of its caller? */
static bool atomkms_limits_state_ok(const struct atomkms_limits_state *s,
				    struct atomkms_why *w)
{
	u32 i;

	if (s->num_crtcs > ATOMKMS_TOPO_MAX_CRTCS ||
	    s->num_planes > ATOMKMS_TOPO_MAX_PLANES) {
		atomkms_why_add(w,
				"state: %u CRTCs and %u planes, at most %u and %u",
				s->num_crtcs, s->num_planes,
				ATOMKMS_TOPO_MAX_CRTCS, ATOMKMS_TOPO_MAX_PLANES);
		return false;
	}
	for (i = 0; i < s->num_planes; i++) {
		const struct atomkms_limits_plane *p = &s->planes[i];

		if (p->plane >= ATOMKMS_TOPO_MAX_PLANES ||
		    p->type > ATOMKMS_TOPO_CURSOR) {
			atomkms_why_add(w,
					"state: plane %u of type %u", p->plane,
					p->type);
			return false;
		}
		if (p->crtc >= s->num_crtcs || !s->crtcs[p->crtc].active) {
			atomkms_why_add(w,
					"state: plane %u is on CRTC %u, which is not active",
					p->plane, p->crtc);
			return false;
		}
		if (!atomkms_format_lookup(p->fourcc)) {
			atomkms_why_add(w,
					"state: plane %u's format 0x%08x is not the compositor's",
					p->plane, p->fourcc);
			return false;
		}
		if (!p->src_w || !p->src_h || !p->dst_w || !p->dst_h ||
		    p->dst_w > 0xffff || p->dst_h > 0xffff) {
			atomkms_why_add(w,
					"state: plane %u's source %ux%u or destination %ux%u is empty or too large",
					p->plane, atomkms_limits_px(p->src_w),
					atomkms_limits_px(p->src_h), p->dst_w,
					p->dst_h);
			return false;
		}
	}
	return true;
}

static bool atomkms_limits_cursor_ok(const struct atomkms_limits *l,
				     const struct atomkms_limits_plane *p,
				     struct atomkms_why *w)
{
	u32 i;

	if (p->type != ATOMKMS_TOPO_CURSOR)
		return true;
	if (p->dst_w > l->cursor_max_w || p->dst_h > l->cursor_max_h) {
		atomkms_why_add(w,
				"cursor_max: plane %u is %ux%u, ", p->plane,
				p->dst_w, p->dst_h);
		if (l->cursor_max_w == ATOMKMS_LIMIT_NONE)
			atomkms_why_add(w, "limit %u high", l->cursor_max_h);
		else if (l->cursor_max_h == ATOMKMS_LIMIT_NONE)
			atomkms_why_add(w, "limit %u wide", l->cursor_max_w);
		else
			atomkms_why_add(w, "limit %ux%u", l->cursor_max_w,
					l->cursor_max_h);
		return false;
	}
	if (l->num_cursor_sizes == ATOMKMS_LIMIT_NONE)
		return true;
	for (i = 0; i < l->num_cursor_sizes &&
	     i < ATOMKMS_LIMITS_MAX_CURSOR_SIZES; i++)
		if (p->dst_w == l->cursor_sizes[i].w &&
		    p->dst_h == l->cursor_sizes[i].h)
			return true;
	atomkms_why_add(w,
			"cursor_sizes: plane %u is %ux%u, sizes:", p->plane,
			p->dst_w, p->dst_h);
	for (i = 0; i < l->num_cursor_sizes &&
	     i < ATOMKMS_LIMITS_MAX_CURSOR_SIZES; i++)
		atomkms_why_add(w, " %ux%u", l->cursor_sizes[i].w,
				l->cursor_sizes[i].h);
	if (!l->num_cursor_sizes)
		atomkms_why_add(w, " none (no cursor)");
	return false;
}

/* A 16.16 factor's whole part, and its thousandths (truncated). */
static unsigned long long atomkms_limits_xi(u64 f)
{
	return f >> 16;
}

static u32 atomkms_limits_xf(u64 f)
{
	return (u32)(((f & 0xffff) * 1000) >> 16);
}

/* Prints a 16.16 factor as x1.234 (truncated). */
#define ATOMKMS_X_FMT		"x%llu.%03u"

/* One axis of a scaled plane: @src 16.16, @dst pixels. */
static bool atomkms_limits_ratio_ok(const struct atomkms_limits *l,
				    const struct atomkms_limits_plane *p,
				    const char *axis, u32 src, u32 dst,
				    struct atomkms_why *w)
{
	const char *name = NULL, *verb;
	u64 f, max;

	/* dst / src > max_upscale / 2^16, without a division. */
	if (l->max_upscale != ATOMKMS_LIMIT_NONE &&
	    ((u64)dst << 32) > (u64)l->max_upscale * src) {
		name = "max_upscale";
		verb = "upscales";
		f = div_u64((u64)dst << 32, src);
		max = l->max_upscale;
	/* src / dst > max_downscale / 2^16 */
	} else if (l->max_downscale != ATOMKMS_LIMIT_NONE &&
		   src > (u64)l->max_downscale * dst) {
		name = "max_downscale";
		verb = "downscales";
		f = src / dst;
		max = l->max_downscale;
	}
	if (!name)
		return true;
	atomkms_why_add(w, "%s: plane %u %s its %s " ATOMKMS_X_FMT,
			name, p->plane, verb, axis, atomkms_limits_xi(f),
			atomkms_limits_xf(f));
	atomkms_why_add(w, " (%u to %u pixels), limit " ATOMKMS_X_FMT,
			src >> 16, dst, atomkms_limits_xi(max),
			atomkms_limits_xf(max));
	return false;
}

/* A scaled plane's own limits: factors, sizes, line buffer. */
static bool atomkms_limits_scaling_ok(const struct atomkms_limits *l,
				      const struct atomkms_limits_plane *p,
				      struct atomkms_why *w)
{
	u32 sw, sh, width;

	atomkms_limits_src(p, &sw, &sh);
	if (!atomkms_limits_ratio_ok(l, p, "width", sw, p->dst_w, w) ||
	    !atomkms_limits_ratio_ok(l, p, "height", sh, p->dst_h, w))
		return false;
	if (sw < (u64)l->scaler_min_src_w << 16 ||
	    sh < (u64)l->scaler_min_src_h << 16) {
		atomkms_why_add(w,
				"scaler_min_src: plane %u scales from %ux%u, minimum %ux%u",
				p->plane, sw >> 16, sh >> 16,
				l->scaler_min_src_w, l->scaler_min_src_h);
		return false;
	}
	if (p->dst_w < l->scaler_min_dst_w || p->dst_h < l->scaler_min_dst_h) {
		atomkms_why_add(w,
				"scaler_min_dst: plane %u scales to %ux%u, minimum %ux%u",
				p->plane, p->dst_w, p->dst_h,
				l->scaler_min_dst_w, l->scaler_min_dst_h);
		return false;
	}
	width = atomkms_limits_px(sw);
	if (p->dst_w > width)
		width = p->dst_w;
	if (width > l->scaler_max_width) {
		atomkms_why_add(w,
				"scaler_max_width: plane %u scales lines %u pixels wide (%u to %u), limit %u",
				p->plane, width, atomkms_limits_px(sw),
				p->dst_w, l->scaler_max_width);
		return false;
	}
	return true;
}

/* Counts: visible planes and scaled planes, per CRTC and in all. */
static bool atomkms_limits_counts_ok(const struct atomkms_limits *l,
				     const struct atomkms_limits_state *s,
				     struct atomkms_why *w)
{
	u32 planes[ATOMKMS_TOPO_MAX_CRTCS] = { 0 };
	u32 scaled[ATOMKMS_TOPO_MAX_CRTCS] = { 0 };
	u32 i, pfit, all_scaled = 0;

	for (i = 0; i < s->num_planes; i++) {
		planes[s->planes[i].crtc]++;
		if (atomkms_limits_plane_scales(&s->planes[i])) {
			scaled[s->planes[i].crtc]++;
			all_scaled++;
		}
	}
	/* A panel fitter takes one of its CRTC's scalers. */
	for (i = 0; i < s->num_crtcs; i++)
		if (s->crtcs[i].active && s->crtcs[i].panel_fitter)
			all_scaled++;
	if (s->num_planes > l->max_active_planes) {
		atomkms_why_add(w,
				"max_active_planes: %u plane%s visible, limit %u",
				s->num_planes, atomkms_s(s->num_planes),
				l->max_active_planes);
		return false;
	}
	for (i = 0; i < s->num_crtcs; i++) {
		if (planes[i] > l->max_crtc_planes) {
			atomkms_why_add(w,
					"max_crtc_planes: CRTC %u shows %u plane%s, limit %u",
					i, planes[i], atomkms_s(planes[i]),
					l->max_crtc_planes);
			return false;
		}
		pfit = s->crtcs[i].active && s->crtcs[i].panel_fitter;
		if (scaled[i] + pfit > l->num_scalers[i]) {
			atomkms_why_add(w,
					"num_scalers: CRTC %u scales %u plane%s%s, %u scaler%s",
					i, scaled[i], atomkms_s(scaled[i]),
					pfit ? " and its output" : "",
					l->num_scalers[i],
					atomkms_s(l->num_scalers[i]));
			return false;
		}
	}
	if (all_scaled > l->max_scalers) {
		atomkms_why_add(w,
				"max_scalers: %u %s, %u scaler%s in all",
				all_scaled,
				all_scaled == 1 ? "plane scales" : "planes scale",
				l->max_scalers, atomkms_s(l->max_scalers));
		return false;
	}
	return true;
}

/* May @p use hardware plane @hw? */
static bool atomkms_limits_fits(const struct atomkms_limits_hw_plane *hw,
				const struct atomkms_limits_plane *p)
{
	u64 fmt = atomkms_limits_format_bit(p->fourcc);

	return (hw->possible_crtcs & BIT(p->crtc)) &&
	       (hw->drm_planes & BIT(p->plane)) &&
	       (hw->types & BIT(p->type)) &&
	       !(p->rotation & ~hw->rotations) &&
	       (hw->formats & fmt) &&
	       (hw->scales || !atomkms_limits_plane_scales(p)) &&
	       atomkms_limits_px(p->src_w) <= hw->max_width &&
	       atomkms_limits_px(p->src_h) <= hw->max_height;
}

/*
 * Place plane @i by an augmenting path (Kuhn's algorithm, breadth
 * first): the planes placed before may move to other hardware planes
 * they fit. @owner is each hardware plane's plane, @hw each plane's
 * hardware plane. Deterministic: hardware planes are tried in index
 * order. Returns whether @i was placed.
 */
static bool atomkms_limits_augment(const u32 *fits, u32 n_hw, u32 i, u8 *hw,
				   u8 *owner)
{
	u8 queue[ATOMKMS_TOPO_MAX_PLANES], from[ATOMKMS_LIMITS_MAX_HW_PLANES];
	u32 head = 0, tail = 0, seen = 0, j, found = ATOMKMS_LIMITS_NO_HW;

	queue[tail++] = (u8)i;
	while (head < tail && found == ATOMKMS_LIMITS_NO_HW) {
		u32 p = queue[head++];

		for (j = 0; j < n_hw; j++) {
			if (!(fits[p] & BIT(j)) || (seen & BIT(j)))
				continue;
			seen |= BIT(j);
			from[j] = (u8)p;
			if (owner[j] == ATOMKMS_LIMITS_NO_HW) {
				found = j;
				break;
			}
			queue[tail++] = owner[j];
		}
	}
	if (found == ATOMKMS_LIMITS_NO_HW)
		return false;
	/* Shift every plane of the path to the hardware plane it reached. */
	for (j = found; ; ) {
		u32 p = from[j], prev = hw[p];

		hw[p] = (u8)j;
		owner[j] = (u8)p;
		if (p == i)
			return true;
		j = prev;
	}
}

static u32 atomkms_limits_match(const struct atomkms_limits *l,
				const struct atomkms_limits_state *s, u8 *hw,
				u32 *fits)
{
	u8 owner[ATOMKMS_LIMITS_MAX_HW_PLANES];
	u32 n_hw = l->num_hw_planes, i, j;

	if (n_hw > ATOMKMS_LIMITS_MAX_HW_PLANES)
		n_hw = ATOMKMS_LIMITS_MAX_HW_PLANES;
	memset(owner, ATOMKMS_LIMITS_NO_HW, sizeof(owner));
	for (i = 0; i < s->num_planes; i++) {
		hw[i] = ATOMKMS_LIMITS_NO_HW;
		fits[i] = 0;
		for (j = 0; j < n_hw; j++)
			if (atomkms_limits_fits(&l->hw_planes[j], &s->planes[i]))
				fits[i] |= BIT(j);
	}
	for (i = 0; i < s->num_planes; i++)
		if (!atomkms_limits_augment(fits, n_hw, i, hw, owner))
			return i;
	return s->num_planes;
}

/**
 * atomkms_limits_assign - place the visible planes on the hardware planes
 * @l: the profile
 * @s: the state (its planes as atomkms_limits_check() takes them)
 * @hw: filled in, an entry per plane of @s: the index of its hardware
 *      plane, or 0xff (not placed; or no pool: its own hardware)
 *
 * A bipartite matching, planes to hardware planes they fit (CRTC, DRM
 * plane, type, rotation, format, scaling, size), by augmenting paths: it
 * finds an assignment whenever one exists, where placing the planes
 * greedily in order may not. Deterministic: the same state gets the same
 * assignment.
 *
 * Return: @s->num_planes if every plane is placed, otherwise the index in
 * @s of the first plane that could not be (with the planes before it).
 */
u32 atomkms_limits_assign(const struct atomkms_limits *l,
			  const struct atomkms_limits_state *s, u8 *hw)
{
	u32 fits[ATOMKMS_TOPO_MAX_PLANES], i;

	if (l->num_hw_planes == ATOMKMS_LIMIT_NONE) {
		for (i = 0; i < s->num_planes; i++)
			hw[i] = ATOMKMS_LIMITS_NO_HW;
		return s->num_planes;
	}
	return atomkms_limits_match(l, s, hw, fits);
}

static u32 atomkms_limits_popcount(u32 v)
{
	u32 n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static bool atomkms_limits_pool_ok(const struct atomkms_limits *l,
				   const struct atomkms_limits_state *s,
				   struct atomkms_why *w)
{
	u32 fits[ATOMKMS_TOPO_MAX_PLANES], i;
	const struct atomkms_limits_plane *p;
	u8 hw[ATOMKMS_TOPO_MAX_PLANES];

	if (l->num_hw_planes == ATOMKMS_LIMIT_NONE)
		return true;
	i = atomkms_limits_match(l, s, hw, fits);
	if (i == s->num_planes)
		return true;
	p = &s->planes[i];
	atomkms_why_add(w,
			"hw_planes: plane %u (%s on CRTC %u, %s %ux%u",
			p->plane, atomkms_limits_type_name(p->type), p->crtc,
			atomkms_format_lookup(p->fourcc)->name,
			atomkms_limits_px(p->src_w), atomkms_limits_px(p->src_h));
	if (atomkms_limits_plane_scales(p))
		atomkms_why_add(w, " to %ux%u", p->dst_w, p->dst_h);
	if (p->rotation & ~ATOMKMS_TOPO_ROTATE_0)
		atomkms_why_add(w, ", rotation 0x%x", p->rotation);
	if (!fits[i])
		atomkms_why_add(w,
				") fits none of the %u hardware plane%s",
				l->num_hw_planes, atomkms_s(l->num_hw_planes));
	else
		atomkms_why_add(w,
				") fits %u hardware plane%s, all taken: %u plane%s visible, %u hardware plane%s",
				atomkms_limits_popcount(fits[i]),
				atomkms_s(atomkms_limits_popcount(fits[i])),
				s->num_planes, atomkms_s(s->num_planes),
				l->num_hw_planes, atomkms_s(l->num_hw_planes));
	return false;
}

/* Saturating: a state's needs may exceed 64 bits only absurdly. */
static u64 atomkms_limits_mul(u64 a, u32 b)
{
	if (b && a > div_u64(~0ULL, b))
		return ~0ULL;
	return a * b;
}

static bool atomkms_limits_bandwidth_ok(const struct atomkms_limits *l,
					const struct atomkms_limits_state *s,
					struct atomkms_why *w)
{
	u64 need = 0, budget, mbps;
	u32 i;

	if (l->bandwidth_mbps == ATOMKMS_LIMIT_NONE)
		return true;
	/* bytes a frame x mHz: mB/s, 10^-9 MB/s. */
	for (i = 0; i < s->num_planes; i++) {
		const struct atomkms_limits_plane *p = &s->planes[i];
		u64 b = atomkms_limits_mul(atomkms_limits_plane_bytes(p),
					   s->crtcs[p->crtc].refresh_mhz);

		need = need + b < need ? ~0ULL : need + b;
	}
	budget = (u64)l->bandwidth_mbps * ATOMKMS_LIMITS_MBPS;
	if (need <= budget)
		return true;
	/* In MB/s, rounded up. */
	mbps = div_u64(need, ATOMKMS_LIMITS_MBPS);
	mbps += mbps * ATOMKMS_LIMITS_MBPS < need;
	atomkms_why_add(w,
			"bandwidth_mbps: %u %s %llu MB/s, budget %u MB/s",
			s->num_planes,
			s->num_planes == 1 ? "plane needs" : "planes need",
			(unsigned long long)mbps,
			l->bandwidth_mbps);
	return false;
}

static bool atomkms_limits_clocks_ok(const struct atomkms_limits *l,
				     const struct atomkms_limits_state *s,
				     struct atomkms_why *w)
{
	u32 clocks[ATOMKMS_TOPO_MAX_CRTCS], n = 0, active = 0, i, j;
	u64 total = 0;

	for (i = 0; i < s->num_crtcs; i++) {
		u32 khz = s->crtcs[i].clock_khz;

		if (!s->crtcs[i].active)
			continue;
		if (khz > l->max_crtc_clock_khz) {
			atomkms_why_add(w,
					"max_crtc_clock_khz: CRTC %u runs at %u kHz, limit %u kHz",
					i, khz, l->max_crtc_clock_khz);
			return false;
		}
		active++;
		total += khz;
		/* The distinct clocks, in increasing order. */
		for (j = 0; j < n && clocks[j] < khz; j++)
			;
		if (j < n && clocks[j] == khz)
			continue;
		memmove(&clocks[j + 1], &clocks[j], (n - j) * sizeof(*clocks));
		clocks[j] = khz;
		n++;
	}
	if (l->max_total_clock_khz != ATOMKMS_LIMIT_NONE &&
	    total > l->max_total_clock_khz) {
		atomkms_why_add(w,
				"max_total_clock_khz: %u active %s at %llu kHz in all, limit %u kHz",
				active, active == 1 ? "CRTC runs" : "CRTCs run",
				(unsigned long long)total,
				l->max_total_clock_khz);
		return false;
	}
	if (n <= l->num_plls)
		return true;
	atomkms_why_add(w,
			"num_plls: %u active %s %u distinct pixel clock%s (",
			active, active == 1 ? "CRTC needs" : "CRTCs need", n,
			atomkms_s(n));
	for (j = 0; j < n; j++)
		atomkms_why_add(w, "%s%u", j ? ", " : "", clocks[j]);
	atomkms_why_add(w, " kHz), %u PLL%s", l->num_plls,
			atomkms_s(l->num_plls));
	return false;
}

/**
 * atomkms_limits_check - judge a state against a profile
 * @l: the profile (atomkms_limits_validate() took it)
 * @s: the state: its active CRTCs and visible planes, each on an active
 *     CRTC, sizes clipped (as drm_atomic_helper_check_plane_state()
 *     leaves them)
 * @why: on error, the limit's name and the numbers that break it (a
 *       promise of @s that does not hold is named "state")
 * @why_len: its size; %ATOMKMS_LIMITS_WHY_LEN fits any message but the
 *           longest lists (it is truncated then)
 *
 * The limits, in the order they are checked: cursor sizes; for each
 * scaled plane, its factors, its minimum sizes and its line width; the
 * numbers of visible planes and of scalers used, per CRTC and in all; the
 * hardware plane pool; the memory bandwidth; the pixel clocks, per CRTC
 * and in all, and the PLLs they need.
 *
 * Return: 0 if the hardware takes the state, otherwise -EINVAL (what
 * atomic_check returns: compositors expect it of a state the hardware
 * cannot do).
 */
int atomkms_limits_check(const struct atomkms_limits *l,
			 const struct atomkms_limits_state *s,
			 char *why, u32 why_len)
{
	struct atomkms_why w = { .buf = why_len ? why : NULL, .len = why_len };
	bool ok;
	u32 i;

	if (w.buf)
		why[0] = '\0';
	ok = atomkms_limits_state_ok(s, &w);
	for (i = 0; ok && i < s->num_planes; i++)
		ok = atomkms_limits_cursor_ok(l, &s->planes[i], &w);
	for (i = 0; ok && i < s->num_planes; i++)
		if (atomkms_limits_plane_scales(&s->planes[i]))
			ok = atomkms_limits_scaling_ok(l, &s->planes[i], &w);
	ok = ok && atomkms_limits_counts_ok(l, s, &w) &&
	     atomkms_limits_pool_ok(l, s, &w) &&
	     atomkms_limits_bandwidth_ok(l, s, &w) &&
	     atomkms_limits_clocks_ok(l, s, &w);
	return ok ? 0 : -ATOMKMS_EINVAL;
}
