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

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "atomkms_drv.h"
#include "atomkms_timing.h"

static void atomkms_timing_from_mode(struct atomkms_timing *t,
				     const struct drm_display_mode *mode)
{
	t->clock_khz = mode->crtc_clock > 0 ? mode->crtc_clock : 0;
	t->hdisplay = mode->crtc_hdisplay;
	t->hsync_start = mode->crtc_hsync_start;
	t->hsync_end = mode->crtc_hsync_end;
	t->htotal = mode->crtc_htotal;
	t->vdisplay = mode->crtc_vdisplay;
	t->vsync_start = mode->crtc_vsync_start;
	t->vsync_end = mode->crtc_vsync_end;
	t->vtotal = mode->crtc_vtotal;
}

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

	/* Exact by construction: the timer handler stamps each vblank. */
	*vblank_time = READ_ONCE(akcrtc->last_vblank);
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
	state->frame_ns = to_atomkms_crtc_state(crtc->state)->frame_ns;
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
};

static enum drm_mode_status
atomkms_crtc_mode_valid(struct drm_crtc *crtc,
			const struct drm_display_mode *mode)
{
	struct atomkms_timing t = {
		.clock_khz = mode->clock > 0 ? mode->clock : 0,
		.hdisplay = mode->hdisplay,
		.hsync_start = mode->hsync_start,
		.hsync_end = mode->hsync_end,
		.htotal = mode->htotal,
		.vdisplay = mode->vdisplay,
		.vsync_start = mode->vsync_start,
		.vsync_end = mode->vsync_end,
		.vtotal = mode->vtotal,
	};
	enum atomkms_timing_status status = atomkms_timing_check(&t);

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

static int atomkms_crtc_atomic_check(struct drm_crtc *crtc,
				     struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state =
		drm_atomic_get_new_crtc_state(state, crtc);
	struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(crtc_state);
	struct atomkms_timing t;
	enum atomkms_timing_status status;

	if (!crtc_state->enable)
		return 0;

	/* mode_valid saw the user's mode; the timer runs the adjusted one. */
	atomkms_timing_from_mode(&t, &crtc_state->adjusted_mode);
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
	hrtimer_start(&akcrtc->vblank_timer, ktime_add(now, akcrtc->frame_ns),
		      HRTIMER_MODE_ABS);

	drm_crtc_vblank_on(crtc);
}

static void atomkms_crtc_atomic_disable(struct drm_crtc *crtc,
					struct drm_atomic_state *state)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);

	/* Sends pending events; the timer must still run until it returns. */
	drm_crtc_vblank_off(crtc);
	hrtimer_cancel(&akcrtc->vblank_timer);

	/* An event on a commit that switches the CRTC off has no vblank. */
	if (crtc->state->event && !crtc->state->active) {
		spin_lock_irq(&crtc->dev->event_lock);
		drm_crtc_send_vblank_event(crtc, crtc->state->event);
		spin_unlock_irq(&crtc->dev->event_lock);
		crtc->state->event = NULL;
	}
}

static void atomkms_crtc_atomic_flush(struct drm_crtc *crtc,
				      struct drm_atomic_state *state)
{
	struct drm_pending_vblank_event *event = crtc->state->event;

	if (!event)
		return;

	/* The new state is latched at the next vblank: signal it then. */
	spin_lock_irq(&crtc->dev->event_lock);
	if (drm_crtc_vblank_get(crtc) == 0)
		drm_crtc_arm_vblank_event(crtc, event);
	else
		drm_crtc_send_vblank_event(crtc, event);
	spin_unlock_irq(&crtc->dev->event_lock);
	crtc->state->event = NULL;
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
 *
 * Return: the CRTC, or an ERR_PTR(); freed with the drm_device.
 */
struct atomkms_crtc *atomkms_crtc_create(struct atomkms_device *akdev,
					 struct drm_plane *primary,
					 struct drm_plane *cursor)
{
	struct atomkms_crtc *akcrtc;

	akcrtc = drmm_crtc_alloc_with_planes(&akdev->drm, struct atomkms_crtc,
					     base, primary, cursor,
					     &atomkms_crtc_funcs, NULL);
	if (IS_ERR(akcrtc))
		return akcrtc;

	drm_crtc_helper_add(&akcrtc->base, &atomkms_crtc_helper_funcs);
	hrtimer_init(&akcrtc->vblank_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	akcrtc->vblank_timer.function = atomkms_vblank_fire;
	akcrtc->last_vblank = ktime_get();
	return akcrtc;
}
