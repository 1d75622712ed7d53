// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRTCs and their simulated scanout: an hrtimer per CRTC fires at each
 * vblank and feeds the DRM vblank core. When vblanks come is the
 * schedule's to say (module/core/atomkms_vblank.c): at the mode's period,
 * or with VRR, when a flip arrives within the connector's range.
 *
 * Locking: the timer runs from CRTC enable to CRTC disable. The vblank
 * core's enable/disable hooks, which it calls with vblank_time_lock held,
 * never touch the timer: the timer's handler takes that lock through
 * drm_crtc_handle_vblank(), so cancelling the timer there would deadlock
 * (upstream vkms 6.12 does so). With the vblank interrupt "masked" the
 * handler still runs and the core ignores it, like a hardware counter that
 * keeps counting. &atomkms_crtc.vbl_lock, which the handler and commits
 * take to change the schedule and set the timer, is never held while
 * calling into the vblank core, and the core's hooks only read it
 * (lockless seqlock readers), so it orders after vblank_time_lock and
 * event_lock and never before them.
 *
 * Counting: the vblank core counts missed vblanks from timestamp
 * differences and the mode's nominal frame duration unless the driver
 * has a hardware frame counter. A VRR frame is up to 1/Vmin long, which
 * that division would count as two or more, so the schedule keeps a frame
 * counter (get_vblank_counter, &drm_device.max_vblank_count) that goes up
 * by exactly one per vblank, and the core trusts it.
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
	u64 fresh;

	/*
	 * Account for every vblank up to now in one step however late we
	 * are, and set the timer to the next one, which is always in the
	 * future: the timer never fires without end. A commit that moved the
	 * timer meanwhile (hrtimer_start() under the lock) wins.
	 */
	write_seqlock(&akcrtc->vbl_lock);
	atomkms_vblank_advance(&akcrtc->sched, ktime_to_ns(ktime_get()));
	if (!hrtimer_is_queued(timer))
		hrtimer_set_expires(timer, ns_to_ktime(akcrtc->sched.next));
	fresh = akcrtc->sched.count - akcrtc->reported;
	akcrtc->reported = akcrtc->sched.count;
	write_sequnlock(&akcrtc->vbl_lock);

	/* The core reads the counter: a vblank a commit accounted for too. */
	drm_crtc_handle_vblank(&akcrtc->base);
	if (fresh)
		atomkms_scanout_vblank(akcrtc);

	return HRTIMER_RESTART;
}

/*
 * The frame counter and the time of the latest vblank, as a hardware
 * counter would give them: the schedule's, extrapolated to now if the
 * timer is late to report a vblank, so that an event armed after a
 * vblank waits for the next one instead of being sent, with a timestamp
 * from before it was armed, by the late handler.
 */
static void atomkms_crtc_vblank_now(struct atomkms_crtc *akcrtc, u64 *count,
				    ktime_t *time)
{
	struct atomkms_vblank_sched s;
	unsigned int seq;
	bool scanning;

	do {
		seq = read_seqbegin(&akcrtc->vbl_lock);
		s = akcrtc->sched;
		scanning = akcrtc->scanning;
	} while (read_seqretry(&akcrtc->vbl_lock, seq));

	if (scanning)
		atomkms_vblank_advance(&s, ktime_to_ns(ktime_get()));
	*count = s.count;
	*time = ns_to_ktime(s.last);
}

static u32 atomkms_get_vblank_counter(struct drm_crtc *crtc)
{
	ktime_t time;
	u64 count;

	atomkms_crtc_vblank_now(to_atomkms_crtc(crtc), &count, &time);
	return lower_32_bits(count);
}

static int atomkms_enable_vblank(struct drm_crtc *crtc)
{
	return 0;
}

static void atomkms_disable_vblank(struct drm_crtc *crtc)
{
}

/* Exact by construction: the schedule knows when each vblank was. */
static bool atomkms_get_vblank_timestamp(struct drm_crtc *crtc,
					 int *max_error, ktime_t *vblank_time,
					 bool in_vblank_irq)
{
	u64 count;

	atomkms_crtc_vblank_now(to_atomkms_crtc(crtc), &count, vblank_time);
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
	state->timing = to_atomkms_crtc_state(crtc->state)->timing;
	state->tile_group = to_atomkms_crtc_state(crtc->state)->tile_group;
	state->bpc = to_atomkms_crtc_state(crtc->state)->bpc;
	state->fit = to_atomkms_crtc_state(crtc->state)->fit;
	state->fit_buf =
		atomkms_fit_buf_get(to_atomkms_crtc_state(crtc->state)->fit_buf);
	state->wb_queued = false;
	return &state->base;
}

static void atomkms_crtc_destroy_state(struct drm_crtc *crtc,
				       struct drm_crtc_state *state)
{
	__drm_atomic_helper_crtc_destroy_state(state);
	atomkms_fit_buf_put(to_atomkms_crtc_state(state)->fit_buf);
	kfree(to_atomkms_crtc_state(state));
}

static void atomkms_crtc_reset(struct drm_crtc *crtc)
{
	struct atomkms_crtc_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (crtc->state)
		atomkms_crtc_destroy_state(crtc, crtc->state);

	if (state)
		state->bpc = 8;
	__drm_atomic_helper_crtc_reset(crtc, state ? &state->base : NULL);
}

/* In debugfs "state": the output depth this state chose. */
static void atomkms_crtc_print_state(struct drm_printer *p,
				     const struct drm_crtc_state *state)
{
	drm_printf(p, "\toutput_bpc=%u\n",
		   container_of(state, struct atomkms_crtc_state, base)->bpc);
}

static int atomkms_crtc_late_register(struct drm_crtc *crtc)
{
	atomkms_scanout_debugfs_init(to_atomkms_crtc(crtc));
	return 0;
}

static const struct drm_crtc_funcs atomkms_crtc_funcs = {
	.set_config		= drm_atomic_helper_set_config,
	.page_flip		= drm_atomic_helper_page_flip,
	.reset			= atomkms_crtc_reset,
	.atomic_duplicate_state	= atomkms_crtc_duplicate_state,
	.atomic_destroy_state	= atomkms_crtc_destroy_state,
	.atomic_print_state	= atomkms_crtc_print_state,
	.enable_vblank		= atomkms_enable_vblank,
	.disable_vblank		= atomkms_disable_vblank,
	.get_vblank_counter	= atomkms_get_vblank_counter,
	.get_vblank_timestamp	= atomkms_get_vblank_timestamp,
	.set_crc_source		= atomkms_crc_set_source,
	.verify_crc_source	= atomkms_crc_verify_source,
	.get_crc_sources	= atomkms_crc_get_sources,
	.late_register		= atomkms_crtc_late_register,
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

/**
 * atomkms_crtc_check_vrr - the VRR timing of a CRTC state
 * @crtc: the CRTC
 * @crtc_state: its new state, VRR_ENABLED set
 * @akstate: the same, whose @timing gets the range
 *
 * VRR runs when every display connector the CRTC drives is vrr_capable
 * and the range their EDIDs give (&drm_display_info.monitor_range, as
 * debugfs vrr_range shows it; the intersection, for clones) holds the
 * mode. Otherwise VRR_ENABLED is accepted and the CRTC keeps the mode's
 * fixed timing, as on a VRR-capable driver with a fixed-rate monitor:
 * userspace (igt's kms_vrr@negative-basic) may set it on any CRTC.
 */
static void atomkms_crtc_check_vrr(struct drm_crtc *crtc,
				   struct drm_crtc_state *crtc_state,
				   struct atomkms_crtc_state *akstate)
{
	struct drm_connector_list_iter iter;
	struct drm_connector *connector;
	u32 min_hz = 0, max_hz = U32_MAX;
	bool any = false, capable = true;

	drm_connector_list_iter_begin(crtc->dev, &iter);
	drm_for_each_connector_iter(connector, &iter) {
		const struct drm_monitor_range_info *range =
			&connector->display_info.monitor_range;

		if (!(crtc_state->connector_mask & drm_connector_mask(connector)) ||
		    connector->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			continue;
		if (!atomkms_output_vrr_capable(connector)) {
			drm_dbg_atomic(crtc->dev,
				       "[CRTC:%d:%s] fixed timing: [CONNECTOR:%d:%s] is not vrr_capable\n",
				       crtc->base.id, crtc->name,
				       connector->base.id, connector->name);
			capable = false;
			break;
		}
		min_hz = max_t(u32, min_hz, range->min_vfreq);
		max_hz = min_t(u32, max_hz, range->max_vfreq);
		any = true;
	}
	drm_connector_list_iter_end(&iter);
	if (!capable)
		return;
	if (!any)
		return;
	if (!atomkms_vblank_vrr_timing(&akstate->timing,
				       akstate->timing.frame_ns, min_hz, max_hz)) {
		drm_dbg_atomic(crtc->dev,
			       "[CRTC:%d:%s] fixed timing: range %u-%u Hz cannot vary the mode\n",
			       crtc->base.id, crtc->name, min_hz, max_hz);
		return;
	}
	drm_dbg_atomic(crtc->dev,
		       "[CRTC:%d:%s] VRR %u-%u Hz: frames %u-%u ns\n",
		       crtc->base.id, crtc->name, min_hz, max_hz,
		       akstate->timing.min_ns, akstate->timing.max_ns);
}

/**
 * atomkms_crtc_check_bpc - the output depth of a CRTC state
 * @crtc: the CRTC
 * @state: the commit
 * @akstate: the CRTC's new state, whose @bpc gets the depth
 *
 * The depth every display connector the CRTC drives takes: the smallest
 * &drm_connector_state.max_bpc (the core's min of "max bpc" and the
 * EDID's depth), 10 bits per channel if it is 10 or more, else 8. A
 * change of either connector property or routing is a modeset, which
 * brings all the CRTC's connectors into @state; without one the depth
 * stays that of the current state. A CRTC with only a writeback
 * connector outputs 8 bits: writeback takes the composed pixels in its
 * framebuffer's format whatever the depth.
 */
static void atomkms_crtc_check_bpc(struct drm_crtc *crtc,
				   struct drm_atomic_commit *state,
				   struct atomkms_crtc_state *akstate)
{
	struct drm_connector_state *conn_state;
	struct drm_connector *connector;
	unsigned int max = 0;
	int i;

	if (!drm_atomic_crtc_needs_modeset(&akstate->base))
		return;
	for_each_new_connector_in_state(state, connector, conn_state, i) {
		if (conn_state->crtc != crtc ||
		    connector->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			continue;
		if (!max || conn_state->max_bpc < max)
			max = conn_state->max_bpc;
	}
	akstate->bpc = max >= 10 ? 10 : 8;
	drm_dbg_atomic(crtc->dev, "[CRTC:%d:%s] output %u bpc (connectors' max %u)\n",
		       crtc->base.id, crtc->name, akstate->bpc, max);
}

static int atomkms_crtc_atomic_check(struct drm_crtc *crtc,
				     struct drm_atomic_commit *state)
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
	/* At most ATOMKMS_MAX_FRAME_NS, 1 s: it fits. */
	akstate->timing = (struct atomkms_vblank_timing){
		.frame_ns = (u32)atomkms_timing_frame_ns(&t),
	};
	if (drm_atomic_crtc_needs_modeset(crtc_state))
		akstate->tile_group = atomkms_tile_group_of(crtc, state);
	if (crtc_state->vrr_enabled && akstate->tile_group)
		drm_dbg_atomic(crtc->dev,
			       "[CRTC:%d:%s] fixed timing: tiles of group %d are genlocked\n",
			       crtc->base.id, crtc->name, akstate->tile_group);
	else if (crtc_state->vrr_enabled)
		atomkms_crtc_check_vrr(crtc, crtc_state, akstate);
	atomkms_crtc_check_bpc(crtc, state, akstate);
	return 0;
}

static void atomkms_crtc_atomic_enable(struct drm_crtc *crtc,
				       struct drm_atomic_commit *state)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);
	struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(crtc->state);
	struct atomkms_vblank_sched peer;
	bool genlock;

	/*
	 * Scanout starts now: the first vblank is one frame away, or, for a
	 * tile of a monitor whose other tiles are scanned out, at theirs.
	 */
	genlock = atomkms_tile_peer(akcrtc, akstate->tile_group,
				    &akstate->timing, &peer);
	write_seqlock_irq(&akcrtc->vbl_lock);
	if (genlock)
		atomkms_vblank_start_genlocked(&akcrtc->sched,
					       ktime_to_ns(ktime_get()),
					       &akstate->timing, &peer);
	else
		atomkms_vblank_start(&akcrtc->sched, ktime_to_ns(ktime_get()),
				     &akstate->timing);
	akcrtc->tile_group = akstate->tile_group;
	akcrtc->reported = akcrtc->sched.count;
	WRITE_ONCE(akcrtc->scanning, true);
	hrtimer_start(&akcrtc->vblank_timer, ns_to_ktime(akcrtc->sched.next),
		      HRTIMER_MODE_ABS);
	write_sequnlock_irq(&akcrtc->vbl_lock);

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

/*
 * The timer is cancelled: account for the vblanks it was late to report,
 * which the counter hook has already shown, so that the counter never
 * goes back, then stop extrapolating.
 */
static void atomkms_crtc_stop_schedule(struct atomkms_crtc *akcrtc)
{
	write_seqlock_irq(&akcrtc->vbl_lock);
	if (akcrtc->scanning)
		atomkms_vblank_advance(&akcrtc->sched,
				       ktime_to_ns(ktime_get()));
	WRITE_ONCE(akcrtc->scanning, false);
	akcrtc->tile_group = 0;
	write_sequnlock_irq(&akcrtc->vbl_lock);
}

static void atomkms_crtc_atomic_disable(struct drm_crtc *crtc,
					struct drm_atomic_commit *state)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);

	atomkms_crtc_finish_frame(akcrtc);
	atomkms_scanout_publish(akcrtc, NULL);
	/* Sends pending events; the timer must still run until it returns. */
	drm_crtc_vblank_off(crtc);
	hrtimer_cancel(&akcrtc->vblank_timer);
	atomkms_crtc_stop_schedule(akcrtc);
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
	atomkms_crtc_stop_schedule(akcrtc);
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
		.bpc = akstate->bpc,
	};
}

/*
 * A commit reaches the schedule: its timing from now on (VRR switched on
 * or off, or its range changed), and, unless it is an async flip, which
 * does not wait for a vblank, a flip that ends a VRR frame as soon as the
 * frame is long enough. After the commit's event is armed: the flip's
 * vblank is then the one the event waits for.
 */
static void atomkms_crtc_vblank_commit(struct atomkms_crtc *akcrtc,
				       const struct atomkms_crtc_state *akstate,
				       bool flip)
{
	unsigned long flags;

	write_seqlock_irqsave(&akcrtc->vbl_lock, flags);
	if (akcrtc->scanning &&
	    atomkms_vblank_update(&akcrtc->sched, ktime_to_ns(ktime_get()),
				  &akstate->timing, flip))
		hrtimer_start(&akcrtc->vblank_timer,
			      ns_to_ktime(akcrtc->sched.next), HRTIMER_MODE_ABS);
	write_sequnlock_irqrestore(&akcrtc->vbl_lock, flags);
}

static void atomkms_crtc_send_event(struct drm_crtc *crtc,
				    struct drm_pending_vblank_event *event)
{
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

static void atomkms_crtc_atomic_flush(struct drm_crtc *crtc,
				      struct drm_atomic_commit *state)
{
	struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(crtc->state);
	struct drm_pending_vblank_event *event = crtc->state->event;

	atomkms_scanout_publish(to_atomkms_crtc(crtc), akstate);

	if (event) {
		crtc->state->event = NULL;
		atomkms_crtc_send_event(crtc, event);
	}
	atomkms_crtc_vblank_commit(to_atomkms_crtc(crtc), akstate,
				   !crtc->state->async_flip);
}

static const struct drm_crtc_helper_funcs atomkms_crtc_helper_funcs = {
	.mode_valid	= atomkms_crtc_mode_valid,
	.atomic_check	= atomkms_crtc_atomic_check,
	.atomic_flush	= atomkms_crtc_atomic_flush,
	.atomic_enable	= atomkms_crtc_atomic_enable,
	.atomic_disable	= atomkms_crtc_atomic_disable,
};

/*
 * Linux 6.12's __drm_crtc_init_with_planes() puts the CRTC on the mode
 * config's list, then fails when drm_crtc_crc_init()'s kstrdup() fails,
 * and leaves it there. drmm_crtc_alloc_with_planes() then returns an error,
 * and the CRTC's memory, a drmm allocation made after
 * drmm_mode_config_init(), is freed with the device before
 * drm_mode_config_cleanup() walks that list: a use-after-free (found by
 * fault injection, qemu/jobs/debug-stage.sh). Such a CRTC is the list's
 * last, and its mode object is already unregistered (id 0), which no
 * other CRTC's is before drm_dev_register(): clean it up here.
 */
static void atomkms_crtc_drop_half_init(struct drm_device *drm)
{
	struct list_head *crtcs = &drm->mode_config.crtc_list;
	struct drm_crtc *crtc;

	if (list_empty(crtcs))
		return;
	crtc = list_last_entry(crtcs, struct drm_crtc, head);
	if (!crtc->base.id) {
		drm_dbg_kms(drm, "dropping a CRTC that the DRM core left half made\n");
		drm_crtc_cleanup(crtc);
	}
}

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
	if (IS_ERR(akcrtc)) {
		atomkms_crtc_drop_half_init(&akdev->drm);
		return akcrtc;
	}

	drm_crtc_helper_add(&akcrtc->base, &atomkms_crtc_helper_funcs);
	hrtimer_setup(&akcrtc->vblank_timer, atomkms_vblank_fire,
		      CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	seqlock_init(&akcrtc->vbl_lock);

	ret = drm_mode_crtc_set_gamma_size(&akcrtc->base, ATOMKMS_LUT_SIZE);
	if (ret)
		return ERR_PTR(ret);
	drm_crtc_enable_color_mgmt(&akcrtc->base, ATOMKMS_LUT_SIZE, true,
				   ATOMKMS_LUT_SIZE);

	ret = atomkms_scanout_init(akcrtc, index, ATOMKMS_MAX_FB_WIDTH);
	if (ret)
		return ERR_PTR(ret);
	return akcrtc;
}
