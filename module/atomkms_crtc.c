// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRTCs and their simulated scanout: an hrtimer per CRTC fires at each
 * vblank of the committed mode and feeds the DRM vblank core.
 *
 * Locking: the timer runs from CRTC enable to CRTC disable. The vblank
 * core's enable/disable hooks, which it calls with vblank_time_lock held,
 * never touch the timer: the timer's handler takes that lock through
 * drm_crtc_handle_vblank(), so cancelling the timer there would deadlock
 * (upstream vkms 6.12 does so). With the vblank interrupt "masked" the
 * handler still runs and the core ignores it, like a hardware counter that
 * keeps counting.
 */
#include <linux/hrtimer.h>
#include <linux/sched.h>

#include <kunit/visibility.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/drm_vblank.h>

#include "atomkms_drv.h"
#include "atomkms_timing.h"

/**
 * atomkms_timing_from_mode - a DRM mode's timing, as the core takes it
 * @t: filled in
 * @mode: the mode
 * @hw: its hardware timings (crtc_*: what a CRTC scans out once the mode
 *      is set), rather than the mode's own as userspace gave them
 */
void atomkms_timing_from_mode(struct atomkms_timing *t,
			      const struct drm_display_mode *mode, bool hw)
{
	int clock = hw ? mode->crtc_clock : mode->clock;

	*t = (struct atomkms_timing){
		.clock_khz = clock > 0 ? clock : 0,
		.hdisplay = hw ? mode->crtc_hdisplay : mode->hdisplay,
		.hsync_start = hw ? mode->crtc_hsync_start : mode->hsync_start,
		.hsync_end = hw ? mode->crtc_hsync_end : mode->hsync_end,
		.htotal = hw ? mode->crtc_htotal : mode->htotal,
		.vdisplay = hw ? mode->crtc_vdisplay : mode->vdisplay,
		.vsync_start = hw ? mode->crtc_vsync_start : mode->vsync_start,
		.vsync_end = hw ? mode->crtc_vsync_end : mode->vsync_end,
		.vtotal = hw ? mode->crtc_vtotal : mode->vtotal,
		.hsync_positive = mode->flags & DRM_MODE_FLAG_PHSYNC,
		.vsync_positive = mode->flags & DRM_MODE_FLAG_PVSYNC,
	};
}
EXPORT_SYMBOL_IF_KUNIT(atomkms_timing_from_mode);

static enum hrtimer_restart atomkms_vblank_fire(struct hrtimer *timer)
{
	struct atomkms_crtc *akcrtc =
		container_of(timer, struct atomkms_crtc, vblank_timer);

	/*
	 * Forward past now in one step however late we are: the vblank core
	 * counts the vblanks we missed from the timestamp difference. The
	 * vblank that just happened is one period before the new expiry.
	 */
	hrtimer_forward_now(timer, akcrtc->frame_ns);
	WRITE_ONCE(akcrtc->last_vblank,
		   ktime_sub(hrtimer_get_expires(timer), akcrtc->frame_ns));

	drm_crtc_handle_vblank(&akcrtc->base);
	atomkms_scanout_vblank(akcrtc);

	return HRTIMER_RESTART;
}

static int atomkms_enable_vblank(struct drm_crtc *crtc)
{
	return 0;
}

static void atomkms_disable_vblank(struct drm_crtc *crtc)
{
}

static bool atomkms_get_vblank_timestamp(struct drm_crtc *crtc,
					 int *max_error, ktime_t *vblank_time,
					 bool in_vblank_irq)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);
	s64 last = ktime_to_ns(READ_ONCE(akcrtc->last_vblank));
	s64 now = last;
	u64 period = 0;

	/*
	 * Exact by construction: the timer handler stamps each vblank. Asked
	 * from elsewhere, answer with the latest vblank of the timer's
	 * schedule, even if the timer is late to report it: an event armed
	 * after a vblank then waits for the next one instead of being sent,
	 * with a timestamp from before it was armed, by the late handler.
	 * Never an earlier time than the last answer: see
	 * atomkms_timing_vblank_stamp(). The vblank core asks with its
	 * vblank_time_lock held, which guards @vblank_given.
	 */
	if (!in_vblank_irq && READ_ONCE(akcrtc->scanning)) {
		now = ktime_get_ns();
		period = ktime_to_ns(akcrtc->frame_ns);
	}
	akcrtc->vblank_given = atomkms_timing_vblank_stamp(last, now, period,
							   akcrtc->vblank_given);
	*vblank_time = ns_to_ktime(akcrtc->vblank_given);
	*max_error = 0;
	return true;
}

static struct drm_crtc_state *
atomkms_crtc_duplicate_state(struct drm_crtc *crtc)
{
	struct atomkms_crtc_state *state;

	if (drm_WARN_ON(crtc->dev, !crtc->state))
		return NULL;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return NULL;

	__drm_atomic_helper_crtc_duplicate_state(crtc, &state->base);
	/* Derived fields are derived again by atomic_check and flush. */
	state->frame_ns = to_atomkms_crtc_state(crtc->state)->frame_ns;
	state->wb_queued = false;
	return &state->base;
}

static void atomkms_crtc_destroy_state(struct drm_crtc *crtc,
				       struct drm_crtc_state *state)
{
	__drm_atomic_helper_crtc_destroy_state(state);
	kfree(to_atomkms_crtc_state(state));
}

static void atomkms_crtc_reset(struct drm_crtc *crtc)
{
	struct atomkms_crtc_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (crtc->state)
		atomkms_crtc_destroy_state(crtc, crtc->state);

	__drm_atomic_helper_crtc_reset(crtc, state ? &state->base : NULL);
}

static const struct drm_crtc_funcs atomkms_crtc_funcs = {
	.set_config		= drm_atomic_helper_set_config,
	.page_flip		= drm_atomic_helper_page_flip,
	.reset			= atomkms_crtc_reset,
	.atomic_duplicate_state	= atomkms_crtc_duplicate_state,
	.atomic_destroy_state	= atomkms_crtc_destroy_state,
	.enable_vblank		= atomkms_enable_vblank,
	.disable_vblank		= atomkms_disable_vblank,
	.get_vblank_timestamp	= atomkms_get_vblank_timestamp,
	.set_crc_source		= atomkms_crc_set_source,
	.verify_crc_source	= atomkms_crc_verify_source,
	.get_crc_sources	= atomkms_crc_get_sources,
};

static enum drm_mode_status
atomkms_crtc_mode_valid(struct drm_crtc *crtc,
			const struct drm_display_mode *mode)
{
	enum atomkms_timing_status status;
	struct atomkms_timing t;

	/*
	 * The vblank core counts an interlaced mode's fields, at half its
	 * frame period; the timer scans out frames. No connector of ours
	 * offers such a mode, and a user mode that asks for one is refused.
	 */
	if (mode->flags & DRM_MODE_FLAG_INTERLACE) {
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] mode " DRM_MODE_FMT
			    " rejected: interlaced\n", crtc->base.id,
			    crtc->name, DRM_MODE_ARG(mode));
		return MODE_NO_INTERLACE;
	}

	atomkms_timing_from_mode(&t, mode, false);
	status = atomkms_timing_check(&t);
	if (status != ATOMKMS_TIMING_OK)
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] mode " DRM_MODE_FMT
			    " rejected: %s\n", crtc->base.id, crtc->name,
			    DRM_MODE_ARG(mode),
			    atomkms_timing_status_str(status));

	switch (status) {
	case ATOMKMS_TIMING_OK:
		return MODE_OK;
	case ATOMKMS_TIMING_NO_CLOCK:
		return MODE_CLOCK_LOW;
	case ATOMKMS_TIMING_CLOCK_HIGH:
		return MODE_CLOCK_HIGH;
	case ATOMKMS_TIMING_BAD_H:
		return MODE_H_ILLEGAL;
	case ATOMKMS_TIMING_BAD_V:
		return MODE_V_ILLEGAL;
	case ATOMKMS_TIMING_TOO_BIG:
		return MODE_BAD;
	case ATOMKMS_TIMING_RATE_HIGH:
	case ATOMKMS_TIMING_RATE_LOW:
		return MODE_BAD_VVALUE;
	}
	return MODE_BAD;
}

static int atomkms_check_lut(struct drm_crtc *crtc,
			     const struct drm_property_blob *lut,
			     const char *name)
{
	if (lut && drm_color_lut_size(lut) != ATOMKMS_LUT_SIZE) {
		drm_dbg_atomic(crtc->dev,
			       "[CRTC:%d:%s] %s has %d entries, not %d\n",
			       crtc->base.id, crtc->name, name,
			       drm_color_lut_size(lut), ATOMKMS_LUT_SIZE);
		return -EINVAL;
	}
	return 0;
}

/*
 * The compositor applies DEGAMMA_LUT, CTM and GAMMA_LUT in that order. Our
 * DRM structures and the core's are the same layout (static_assert'ed in
 * atomkms_color.h), so the color pipeline points straight into the blobs
 * this state holds references to.
 */
static int atomkms_crtc_check_color(struct drm_crtc *crtc,
				    struct drm_crtc_state *crtc_state)
{
	struct atomkms_color_prep *prep =
		&to_atomkms_crtc_state(crtc_state)->color;
	struct atomkms_color color = { };
	int ret;

	ret = atomkms_check_lut(crtc, crtc_state->degamma_lut, "DEGAMMA_LUT");
	if (ret)
		return ret;
	ret = atomkms_check_lut(crtc, crtc_state->gamma_lut, "GAMMA_LUT");
	if (ret)
		return ret;

	if (crtc_state->degamma_lut) {
		color.degamma_lut = crtc_state->degamma_lut->data;
		color.degamma_size = ATOMKMS_LUT_SIZE;
	}
	if (crtc_state->ctm)
		color.ctm = crtc_state->ctm->data;
	if (crtc_state->gamma_lut) {
		color.gamma_lut = crtc_state->gamma_lut->data;
		color.gamma_size = ATOMKMS_LUT_SIZE;
	}
	atomkms_color_prepare(prep, &color);
	return 0;
}

static int atomkms_crtc_atomic_check(struct drm_crtc *crtc,
				     struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state =
		drm_atomic_get_new_crtc_state(state, crtc);
	struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(crtc_state);
	struct atomkms_timing t;
	enum atomkms_timing_status status;
	int ret;

	/*
	 * Colour blobs are checked even on a CRTC that is off: a state that
	 * holds a LUT we cannot use would otherwise only fail later, on the
	 * commit that enables the CRTC, and not where userspace set it.
	 */
	ret = atomkms_crtc_check_color(crtc, crtc_state);
	if (ret)
		return ret;

	if (!crtc_state->enable)
		return 0;

	if (crtc_state->async_flip && drm_atomic_crtc_needs_modeset(crtc_state)) {
		drm_dbg_atomic(crtc->dev,
			       "[CRTC:%d:%s] async flip cannot change the mode\n",
			       crtc->base.id, crtc->name);
		return -EINVAL;
	}

	/* mode_valid saw the user's mode; the timer runs the adjusted one. */
	atomkms_timing_from_mode(&t, &crtc_state->adjusted_mode, true);
	status = atomkms_timing_check(&t);
	if (status != ATOMKMS_TIMING_OK) {
		drm_dbg_atomic(crtc->dev,
			       "[CRTC:%d:%s] adjusted mode rejected: %s\n",
			       crtc->base.id, crtc->name,
			       atomkms_timing_status_str(status));
		return -EINVAL;
	}
	akstate->frame_ns = atomkms_timing_frame_ns(&t);
	return 0;
}

static void atomkms_crtc_atomic_enable(struct drm_crtc *crtc,
				       struct drm_atomic_state *state)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);
	struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(crtc->state);
	ktime_t now = ktime_get();

	/* Scanout starts now: the first vblank is one frame away. */
	akcrtc->frame_ns = ns_to_ktime(akstate->frame_ns);
	WRITE_ONCE(akcrtc->last_vblank, now);
	WRITE_ONCE(akcrtc->scanning, true);
	hrtimer_start(&akcrtc->vblank_timer, ktime_add(now, akcrtc->frame_ns),
		      HRTIMER_MODE_ABS);

	drm_crtc_vblank_on(crtc);
}

/*
 * A pipe being switched off finishes the frame it is scanning out, as
 * hardware does: the disable, and with it the event of its commit,
 * completes at the next vblank, not the moment the commit work runs. igt's
 * kms_cursor_legacy@*nonblocking-modeset-vs-cursor-atomic checks that a
 * nonblocking disable has not signalled when its ioctl returns.
 */
static void atomkms_crtc_finish_frame(struct atomkms_crtc *akcrtc)
{
	ktime_t end = hrtimer_get_expires(&akcrtc->vblank_timer);

	if (!READ_ONCE(akcrtc->scanning) || ktime_after(ktime_get(), end))
		return;
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_hrtimeout(&end, HRTIMER_MODE_ABS);
}

static void atomkms_crtc_atomic_disable(struct drm_crtc *crtc,
					struct drm_atomic_state *state)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);

	atomkms_crtc_finish_frame(akcrtc);
	atomkms_scanout_publish(akcrtc, NULL);
	/* Sends pending events; the timer must still run until it returns. */
	drm_crtc_vblank_off(crtc);
	hrtimer_cancel(&akcrtc->vblank_timer);
	WRITE_ONCE(akcrtc->scanning, false);
	flush_work(&akcrtc->scanout.work);
	atomkms_scanout_cancel_wb(akcrtc);

	/* An event on a commit that switches the CRTC off has no vblank. */
	if (crtc->state->event && !crtc->state->active) {
		spin_lock_irq(&crtc->dev->event_lock);
		drm_crtc_send_vblank_event(crtc, crtc->state->event);
		spin_unlock_irq(&crtc->dev->event_lock);
		crtc->state->event = NULL;
	}
}

/**
 * atomkms_crtc_stop - stop a CRTC's timer and compositor for good
 * @akcrtc: the CRTC, of a device being released
 *
 * drm_atomic_helper_shutdown() switched the CRTC off at removal, but a
 * commit that entered its ioctl before drm_dev_unplug() can switch it on
 * again after that. Called before the vblank core and the CRTC are
 * freed, so that neither the timer nor a composition outlives them, and
 * the vblank core is not left with the CRTC's vblank on.
 */
void atomkms_crtc_stop(struct atomkms_crtc *akcrtc)
{
	bool scanning = READ_ONCE(akcrtc->scanning);

	hrtimer_cancel(&akcrtc->vblank_timer);
	if (scanning)
		drm_crtc_vblank_off(&akcrtc->base);
	WRITE_ONCE(akcrtc->scanning, false);
	cancel_work_sync(&akcrtc->scanout.work);
}

/**
 * atomkms_crtc_build_frame - describe the frame of a CRTC state's planes
 * @crtc: the CRTC
 * @akstate: its current state
 *
 * The visible planes in zpos order, from the current plane states. Called
 * with &atomkms_scanout.lock held, by atomic_flush and by async
 * cursor updates, which change plane states in place.
 */
void atomkms_crtc_build_frame(struct drm_crtc *crtc,
			      struct atomkms_crtc_state *akstate)
{
	struct drm_crtc_state *crtc_state = &akstate->base;
	struct atomkms_frame_plane *fp = akstate->planes;
	struct drm_plane *plane;
	unsigned int n = 0, i, j;

	drm_for_each_plane_mask(plane, crtc->dev, crtc_state->plane_mask) {
		struct drm_plane_state *ps = plane->state;
		struct atomkms_plane_state *akps = to_atomkms_plane_state(ps);
		struct atomkms_frame_plane cur;

		if (!ps->visible || !akps->job.visible ||
		    drm_WARN_ON_ONCE(crtc->dev, n == ARRAY_SIZE(akstate->planes)))
			continue;

		cur = (struct atomkms_frame_plane){ .job = &akps->job };
		for (i = 0; i < ps->fb->format->num_planes && i < 3; i++) {
			cur.src.map[i] = to_atomkms_fb(ps->fb)->data[i].vaddr;
			cur.src.pitch[i] = ps->fb->pitches[i];
		}
		/* Insertion sort on the normalized zpos: at most 16 planes. */
		for (j = n; j > 0; j--) {
			const struct atomkms_plane_state *prev =
				atomkms_job_plane_state(fp[j - 1].job);

			if (prev->base.normalized_zpos <= ps->normalized_zpos)
				break;
			fp[j] = fp[j - 1];
			akstate->fbs[j] = akstate->fbs[j - 1];
		}
		fp[j] = cur;
		akstate->fbs[j] = ps->fb;
		n++;
	}

	akstate->frame = (struct atomkms_frame){
		.width = crtc_state->mode.hdisplay,
		.height = crtc_state->mode.vdisplay,
		.num_planes = n,
		.planes = akstate->planes,
		.color = &akstate->color,
	};
}

static void atomkms_crtc_atomic_flush(struct drm_crtc *crtc,
				      struct drm_atomic_state *state)
{
	struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(crtc->state);
	struct drm_pending_vblank_event *event = crtc->state->event;

	atomkms_scanout_publish(to_atomkms_crtc(crtc), akstate);

	if (!event)
		return;
	crtc->state->event = NULL;

	/*
	 * Not synchronized to vblank: the new buffer shows now, or, if a
	 * composition is reading the old one, from its next line on.
	 */
	if (crtc->state->async_flip &&
	    atomkms_scanout_defer_async_event(to_atomkms_crtc(crtc), event))
		return;

	spin_lock_irq(&crtc->dev->event_lock);
	if (crtc->state->async_flip) {
		drm_crtc_send_vblank_event(crtc, event);
	} else if (drm_crtc_vblank_get(crtc) == 0) {
		/* The new state is latched at the next vblank: signal it then. */
		drm_crtc_arm_vblank_event(crtc, event);
	} else {
		drm_crtc_send_vblank_event(crtc, event);
	}
	spin_unlock_irq(&crtc->dev->event_lock);
}

static const struct drm_crtc_helper_funcs atomkms_crtc_helper_funcs = {
	.mode_valid	= atomkms_crtc_mode_valid,
	.atomic_check	= atomkms_crtc_atomic_check,
	.atomic_flush	= atomkms_crtc_atomic_flush,
	.atomic_enable	= atomkms_crtc_atomic_enable,
	.atomic_disable	= atomkms_crtc_atomic_disable,
};

/**
 * atomkms_crtc_create - create a CRTC with its planes and vblank timer
 * @akdev: the device
 * @primary: its primary plane
 * @cursor: its cursor plane, or NULL
 * @index: its index
 *
 * Return: the CRTC, or an ERR_PTR(); freed with the drm_device.
 */
struct atomkms_crtc *atomkms_crtc_create(struct atomkms_device *akdev,
					 struct drm_plane *primary,
					 struct drm_plane *cursor,
					 unsigned int index)
{
	struct atomkms_crtc *akcrtc;
	int ret;

	akcrtc = drmm_crtc_alloc_with_planes(&akdev->drm, struct atomkms_crtc,
					     base, primary, cursor,
					     &atomkms_crtc_funcs, NULL);
	if (IS_ERR(akcrtc))
		return akcrtc;

	drm_crtc_helper_add(&akcrtc->base, &atomkms_crtc_helper_funcs);
	hrtimer_init(&akcrtc->vblank_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	akcrtc->vblank_timer.function = atomkms_vblank_fire;
	akcrtc->last_vblank = ktime_get();

	drm_mode_crtc_set_gamma_size(&akcrtc->base, ATOMKMS_LUT_SIZE);
	drm_crtc_enable_color_mgmt(&akcrtc->base, ATOMKMS_LUT_SIZE, true,
				   ATOMKMS_LUT_SIZE);

	ret = atomkms_scanout_init(akcrtc, index, ATOMKMS_MAX_FB_WIDTH);
	if (ret)
		return ERR_PTR(ret);
	return akcrtc;
}
