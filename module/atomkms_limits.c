// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated display-engine limits (issue 15) in the driver: the
 * device-level atomic check that judges every state against the device's
 * profile (module/core/atomkms_limits.c holds the judgement itself), and
 * the profile in debugfs. The profile's per-plane limits that DRM has a
 * place for (formats, rotations, CRTCs, cursor sizes) are given to the
 * planes when they are made (atomkms_plane.c).
 *
 * A device whose profile limits nothing (atomkms_limits_any(): the
 * default) checks nothing more than drm_atomic_helper_check() does.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_print.h>

#include "atomkms_drv.h"
#include "atomkms_limits.h"

/* What one check needs, too large for the stack (about 1 KiB). */
struct atomkms_limits_work {
	struct atomkms_limits_state s;
	char why[ATOMKMS_LIMITS_WHY_LEN];
};

/*
 * Most limits are the whole device's (planes shown, scalers and hardware
 * planes shared, bandwidth, PLLs, the total pixel clock), so the check
 * needs every CRTC and plane as this commit leaves it, not only those in
 * the commit. Their states are read, not added to the commit: adding an
 * unchanged CRTC would give it a commit of its own to complete, so that
 * a page flip on one CRTC would wait for another's vblank, and a
 * nonblocking flip answer -EBUSY while another CRTC's flip is pending
 * (stall_checks() in drm_atomic_helper_setup_commit()). Instead their
 * locks are taken, in the commit's acquire context (-EDEADLK backs off
 * and retries, as for any lock): no other commit can then swap their
 * states until this one is done, and the committed states read below are
 * the ones this commit will run with. This is how i915 reads its global
 * state (intel_atomic_lock_global_state()). A blocking commit holds these
 * locks until it completes: with a profile set, commits on different
 * CRTCs are serialized, as on hardware with shared resources.
 */
static int atomkms_limits_lock_all(struct drm_atomic_commit *state)
{
	struct drm_device *dev = state->dev;
	struct drm_plane *plane;
	struct drm_crtc *crtc;
	int ret;

	drm_for_each_crtc(crtc, dev) {
		ret = drm_modeset_lock(&crtc->mutex, state->acquire_ctx);
		if (ret)
			return ret;
	}
	drm_for_each_plane(plane, dev) {
		ret = drm_modeset_lock(&plane->mutex, state->acquire_ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* The CRTC's state after this commit: its new one, or its current one. */
static struct drm_crtc_state *atomkms_limits_crtc(struct drm_atomic_commit *state,
						  struct drm_crtc *crtc)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state, crtc);

	return cs ? cs : crtc->state;
}

static void atomkms_limits_fill_crtcs(struct drm_atomic_commit *state,
				      struct atomkms_limits_state *s)
{
	struct atomkms_timing t;
	struct drm_crtc *crtc;

	drm_for_each_crtc(crtc, state->dev) {
		struct drm_crtc_state *cs = atomkms_limits_crtc(state, crtc);
		struct atomkms_limits_crtc *lc;
		unsigned int i = drm_crtc_index(crtc);

		if (i >= ATOMKMS_LIMITS_MAX_CRTCS)
			continue;
		lc = &s->crtcs[i];
		s->num_crtcs = max(s->num_crtcs, i + 1);
		lc->active = cs->active;
		if (!cs->active)
			continue;
		/* The mode as the CRTC runs it, at its nominal refresh. */
		atomkms_timing_from_mode(&t, &cs->adjusted_mode, false);
		lc->clock_khz = t.clock_khz;
		lc->refresh_mhz = atomkms_timing_refresh_mhz(&t);
		/* Its fit, from atomkms_scaling_check(), ran before. */
		lc->panel_fitter = to_atomkms_crtc_state(cs)->fit.mode != 0;
	}
}

/*
 * The visible planes on active CRTCs, in DRM plane order, as the plane
 * checks left them: sizes clipped to the CRTC. A cursor is judged by its
 * full size, as display engines do (i915's cursor checks): a 64x64 cursor
 * partly off screen is still a 64x64 cursor, not a smaller one.
 */
static void atomkms_limits_fill_planes(struct drm_atomic_commit *state,
				       struct atomkms_limits_state *s)
{
	struct drm_plane *plane;

	drm_for_each_plane(plane, state->dev) {
		struct drm_plane_state *ps =
			drm_atomic_get_new_plane_state(state, plane);
		struct atomkms_limits_plane *lp;
		bool cursor = plane->type == DRM_PLANE_TYPE_CURSOR;

		if (!ps)
			ps = plane->state;
		if (!ps->visible || !ps->crtc || !ps->fb ||
		    !atomkms_limits_crtc(state, ps->crtc)->active ||
		    s->num_planes >= ATOMKMS_LIMITS_MAX_PLANES)
			continue;
		lp = &s->planes[s->num_planes++];
		*lp = (struct atomkms_limits_plane){
			.plane = drm_plane_index(plane),
			.crtc = drm_crtc_index(ps->crtc),
			.type = plane->type,
			.rotation = ps->rotation & ATOMKMS_TOPO_ROTATIONS,
			.fourcc = ps->fb->format->format,
			.src_w = cursor ? ps->src_w : drm_rect_width(&ps->src),
			.src_h = cursor ? ps->src_h : drm_rect_height(&ps->src),
			.dst_w = cursor ? ps->crtc_w : drm_rect_width(&ps->dst),
			.dst_h = cursor ? ps->crtc_h : drm_rect_height(&ps->dst),
		};
	}
}

/*
 * drm_atomic_helper_check(), with the panel fitter and fastsets
 * (atomkms_scaling_check()) between the modeset and the plane checks:
 * the planes are checked against the mode the CRTC gets, and a mode
 * change that needs no modeset no longer asks for one.
 */
static int atomkms_helper_check(struct drm_device *dev,
				struct drm_atomic_commit *state)
{
	int ret;

	ret = drm_atomic_helper_check_modeset(dev, state);
	if (ret)
		return ret;
	ret = atomkms_scaling_check(state);
	if (ret)
		return ret;
	if (dev->mode_config.normalize_zpos) {
		ret = drm_atomic_normalize_zpos(dev, state);
		if (ret)
			return ret;
	}
	ret = drm_atomic_helper_check_planes(dev, state);
	if (ret)
		return ret;
	/* No self refresh here: drm_self_refresh_helper_alter_state() is moot. */
	if (state->legacy_cursor_update)
		state->async_update = !drm_atomic_helper_async_check(dev, state);
	return 0;
}

/**
 * atomkms_atomic_check - the device's atomic check (mode_config's)
 * @dev: the device
 * @state: the state to check
 *
 * drm_atomic_helper_check() first (with atomkms_scaling_check() inside
 * it): it checks the modesets, then each
 * plane and CRTC, which derive what the limits judge (each plane's
 * visibility and clipped sizes). Then, if the device has a profile, the
 * state of the whole device after this commit is judged against it
 * (atomkms_limits_check()). Nothing here depends on the commit's flags:
 * TEST_ONLY accepts exactly what a real commit accepts.
 *
 * Return: 0, -EINVAL if a limit refuses the state (a drm_dbg_atomic()
 * line names the limit and its numbers), or another error of the helper
 * or of the locks (-EDEADLK: back off and retry).
 */
int atomkms_atomic_check(struct drm_device *dev, struct drm_atomic_commit *state)
{
	struct atomkms_device *akdev = to_atomkms_device(dev);
	struct atomkms_limits_work *w;
	int ret;

	ret = atomkms_helper_check(dev, state);
	if (ret || !akdev->limits_on)
		return ret;
	ret = atomkms_limits_lock_all(state);
	if (ret)
		return ret;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	atomkms_limits_fill_crtcs(state, &w->s);
	atomkms_limits_fill_planes(state, &w->s);
	ret = atomkms_limits_check(&akdev->topo.limits, &w->s, w->why,
				   sizeof(w->why));
	if (ret) {
		drm_dbg_atomic(dev, "limits: %s\n", w->why);
		ret = -EINVAL;
	}
	kfree(w);
	return ret;
}

/* A limit's value in words: "none" (no limit), or the number. */
static void atomkms_limits_seq_u32(struct seq_file *m, const char *name,
				   u32 v, const char *unit)
{
	if (v == ATOMKMS_LIMIT_NONE)
		seq_printf(m, "%s: none\n", name);
	else
		seq_printf(m, "%s: %u%s\n", name, v, unit);
}

/* A 16.16 factor, "none" or x1.234. */
static void atomkms_limits_seq_scale(struct seq_file *m, const char *name,
				     u32 v)
{
	if (v == ATOMKMS_LIMIT_NONE)
		seq_printf(m, "%s: none\n", name);
	else
		seq_printf(m, "%s: x%u.%03u (0x%x)\n", name, v >> 16,
			   (u32)(((u64)(v & 0xffff) * 1000) >> 16), v);
}

/* The core's lists (a line an entry) on one line, space-separated. */
static char *atomkms_limits_oneline(char *buf)
{
	char *c;

	for (c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return strim(buf);
}

static void atomkms_limits_seq_pool(struct seq_file *m,
				    const struct atomkms_limits *l)
{
	static const char * const types[] = { "overlay", "primary", "cursor" };
	char buf[512];
	u32 i, t;

	if (l->num_hw_planes == ATOMKMS_LIMIT_NONE) {
		seq_puts(m, "hw_planes: none (each DRM plane is its own hardware)\n");
		return;
	}
	seq_printf(m, "hw_planes: %u\n", l->num_hw_planes);
	for (i = 0; i < l->num_hw_planes && i < ATOMKMS_LIMITS_MAX_HW_PLANES;
	     i++) {
		const struct atomkms_limits_hw_plane *hw = &l->hw_planes[i];

		seq_printf(m, "  %u: crtcs 0x%x, drm planes ", i,
			   hw->possible_crtcs);
		if (hw->drm_planes == ATOMKMS_LIMIT_NONE)
			seq_puts(m, "any");
		else
			seq_printf(m, "0x%x", hw->drm_planes);
		seq_puts(m, ", types");
		for (t = 0; t < ARRAY_SIZE(types); t++)
			if (hw->types & BIT(t))
				seq_printf(m, " %s", types[t]);
		atomkms_topo_print_rotations(hw->rotations, buf, sizeof(buf));
		seq_printf(m, ", %sscales, rotations %s", hw->scales ? "" : "no ",
			   atomkms_limits_oneline(buf));
		if (hw->max_width != ATOMKMS_LIMIT_NONE ||
		    hw->max_height != ATOMKMS_LIMIT_NONE) {
			seq_puts(m, ", source at most ");
			if (hw->max_width == ATOMKMS_LIMIT_NONE)
				seq_puts(m, "any");
			else
				seq_printf(m, "%u", hw->max_width);
			if (hw->max_height == ATOMKMS_LIMIT_NONE)
				seq_puts(m, "xany");
			else
				seq_printf(m, "x%u", hw->max_height);
		}
		atomkms_topo_print_formats(hw->formats, buf, sizeof(buf));
		seq_printf(m, ", formats %s\n", atomkms_limits_oneline(buf));
	}
}

static int atomkms_limits_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct atomkms_device *akdev = to_atomkms_device(entry->dev);
	const struct atomkms_limits *l = &akdev->topo.limits;
	u32 i;

	seq_printf(m, "limits: %s\n", akdev->limits_on ?
		   "on (atomic_check judges every state)" : "none at all");
	atomkms_limits_seq_u32(m, "max_active_planes", l->max_active_planes, "");
	atomkms_limits_seq_u32(m, "max_crtc_planes", l->max_crtc_planes, "");
	atomkms_limits_seq_pool(m, l);
	seq_puts(m, "num_scalers:");
	for (i = 0; i < akdev->topo.num_crtcs && i < ATOMKMS_LIMITS_MAX_CRTCS;
	     i++) {
		if (l->num_scalers[i] == ATOMKMS_LIMIT_NONE)
			seq_printf(m, " %u:none", i);
		else
			seq_printf(m, " %u:%u", i, l->num_scalers[i]);
	}
	seq_puts(m, "\n");
	atomkms_limits_seq_u32(m, "max_scalers", l->max_scalers, "");
	atomkms_limits_seq_scale(m, "max_upscale", l->max_upscale);
	atomkms_limits_seq_scale(m, "max_downscale", l->max_downscale);
	seq_printf(m, "scaler_min_src: %ux%u\n", l->scaler_min_src_w,
		   l->scaler_min_src_h);
	seq_printf(m, "scaler_min_dst: %ux%u\n", l->scaler_min_dst_w,
		   l->scaler_min_dst_h);
	atomkms_limits_seq_u32(m, "scaler_max_width", l->scaler_max_width,
			       " pixels");
	atomkms_limits_seq_u32(m, "bandwidth_mbps", l->bandwidth_mbps, " MB/s");
	atomkms_limits_seq_u32(m, "num_plls", l->num_plls, "");
	atomkms_limits_seq_u32(m, "max_crtc_clock_khz", l->max_crtc_clock_khz,
			       " kHz");
	atomkms_limits_seq_u32(m, "max_total_clock_khz", l->max_total_clock_khz,
			       " kHz");
	atomkms_limits_seq_u32(m, "cursor_max_w", l->cursor_max_w, " pixels");
	atomkms_limits_seq_u32(m, "cursor_max_h", l->cursor_max_h, " pixels");
	if (l->num_cursor_sizes == ATOMKMS_LIMIT_NONE) {
		seq_puts(m, "cursor_sizes: any\n");
		return 0;
	}
	seq_puts(m, "cursor_sizes:");
	for (i = 0; i < l->num_cursor_sizes &&
	     i < ATOMKMS_LIMITS_MAX_CURSOR_SIZES; i++)
		seq_printf(m, " %ux%u", l->cursor_sizes[i].w,
			   l->cursor_sizes[i].h);
	seq_puts(m, l->num_cursor_sizes ? "\n" : " none (no cursor)\n");
	return 0;
}

/*
 * The cursor size DRM_CAP_CURSOR_WIDTH and _HEIGHT advertise: the
 * profile's largest, if below @max.
 */
static void atomkms_limits_cursor_cap(const struct atomkms_limits *l,
				      u32 *w, u32 *h)
{
	u32 mw = l->cursor_max_w, mh = l->cursor_max_h, i, sw = 0, sh = 0;

	if (l->num_cursor_sizes != ATOMKMS_LIMIT_NONE) {
		for (i = 0; i < l->num_cursor_sizes &&
		     i < ATOMKMS_LIMITS_MAX_CURSOR_SIZES; i++) {
			sw = max_t(u32, sw, l->cursor_sizes[i].w);
			sh = max_t(u32, sh, l->cursor_sizes[i].h);
		}
		mw = min(mw, sw);
		mh = min(mh, sh);
	}
	/* 0: no cursor can be shown; keep the default rather than say 0. */
	if (mw && mw < *w)
		*w = mw;
	if (mh && mh < *h)
		*h = mh;
}

/**
 * atomkms_limits_init_device - the device's limits, before registration
 * @akdev: the device, its topology (and limits) set
 *
 * Notes whether the profile limits anything at all, advertises its
 * cursor size in mode_config and adds the debugfs file atomkms_limits
 * (under the DRM device's debugfs directory, dri/N/).
 */
void atomkms_limits_init_device(struct atomkms_device *akdev)
{
	struct drm_mode_config *mc = &akdev->drm.mode_config;

	akdev->limits_on = atomkms_limits_any(&akdev->topo.limits);
	if (akdev->limits_on)
		atomkms_limits_cursor_cap(&akdev->topo.limits, &mc->cursor_width,
					  &mc->cursor_height);
	drm_debugfs_add_file(&akdev->drm, "atomkms_limits",
			     atomkms_limits_show, NULL);
}

/**
 * atomkms_limits_cursor_hints - the SIZE_HINTS of a cursor plane
 * @akdev: the device
 * @hints: filled in, up to @max
 * @max: room in @hints
 *
 * Return: the hints' number; 0 if the profile does not limit cursor sizes
 * (the plane keeps its default hints then).
 */
unsigned int atomkms_limits_cursor_hints(struct atomkms_device *akdev,
					 struct drm_plane_size_hint *hints,
					 unsigned int max)
{
	const struct atomkms_limits *l = &akdev->topo.limits;
	unsigned int n = 0, i;

	if (l->num_cursor_sizes != ATOMKMS_LIMIT_NONE) {
		for (i = 0; i < l->num_cursor_sizes && n < max &&
		     i < ATOMKMS_LIMITS_MAX_CURSOR_SIZES; i++)
			hints[n++] = (struct drm_plane_size_hint){
				.width = l->cursor_sizes[i].w,
				.height = l->cursor_sizes[i].h,
			};
		return n;
	}
	if (l->cursor_max_w == ATOMKMS_LIMIT_NONE &&
	    l->cursor_max_h == ATOMKMS_LIMIT_NONE)
		return 0;
	/* Powers of two from 64 up to the largest size taken. */
	for (i = 64; i <= ATOMKMS_MAX_CURSOR && n < max; i *= 2)
		if (i <= l->cursor_max_w && i <= l->cursor_max_h)
			hints[n++] = (struct drm_plane_size_hint){ i, i };
	if (!n && l->cursor_max_w && l->cursor_max_h && max)
		hints[n++] = (struct drm_plane_size_hint){
			min_t(u32, l->cursor_max_w, ATOMKMS_MAX_CURSOR),
			min_t(u32, l->cursor_max_h, ATOMKMS_MAX_CURSOR),
		};
	return n;
}
