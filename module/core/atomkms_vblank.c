// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vblank schedule of a CRTC. Pure C: it is built into the module and
 * into test/unit/test_vblank.
 *
 * With VRR off every frame lasts the mode's period. With VRR on, a frame
 * ends when a flip arrives, but not before its shortest length (1/Vmax
 * after the vblank that began it) and, without a flip, at its longest
 * (1/Vmin): the stretched front porch of an adaptive-sync panel.
 */
#include "atomkms_timing.h"
#include "atomkms_vblank.h"

#define ATOMKMS_NS_PER_SEC	1000000000U

/* The length of a frame that no flip ends early. */
static u32 atomkms_vblank_period(const struct atomkms_vblank_timing *t)
{
	return t->vrr ? t->max_ns : t->frame_ns;
}

/**
 * atomkms_vblank_start - start a schedule: scanout begins now
 * @s: the schedule; @s->count carries on from where it stopped, as a
 *     hardware frame counter that is never reset
 * @now: the time
 * @t: the frame lengths
 *
 * The first frame has the mode's own length, VRR or not.
 */
void atomkms_vblank_start(struct atomkms_vblank_sched *s, s64 now,
			  const struct atomkms_vblank_timing *t)
{
	s->t = *t;
	s->last = now;
	s->next = now + t->frame_ns;
}

/**
 * atomkms_vblank_start_genlocked - start a schedule in step with another
 * @s: the schedule; @s->count carries on, as for atomkms_vblank_start()
 * @now: the time scanout begins
 * @t: the frame lengths, fixed (no VRR) and the same as @peer's
 * @peer: a running schedule of the same period (another tile of the
 *        same monitor): not changed
 *
 * The first frame ends at @peer's first vblank after @now, so it may be
 * short; from then on both schedules' vblanks fall at the same instants,
 * exactly (the same integer period from the same phase), so the two CRTCs'
 * vblank timestamps are equal and their counters step together.
 */
void atomkms_vblank_start_genlocked(struct atomkms_vblank_sched *s, s64 now,
				    const struct atomkms_vblank_timing *t,
				    const struct atomkms_vblank_sched *peer)
{
	struct atomkms_vblank_sched p = *peer;

	atomkms_vblank_advance(&p, now);
	s->t = *t;
	s->last = now;
	s->next = p.next > now ? p.next : now + t->frame_ns;
}

/**
 * atomkms_vblank_advance - account for the vblanks up to a time
 * @s: the schedule
 * @now: the time
 *
 * However late @now is, in one step: frames after @s->next that no flip
 * ended early all have the same length.
 *
 * Return: the number of vblanks that came after the last one accounted
 * for, up to and including @now.
 */
u64 atomkms_vblank_advance(struct atomkms_vblank_sched *s, s64 now)
{
	u32 p = atomkms_vblank_period(&s->t);
	u64 k;

	if (now < s->next || !p)
		return 0;
	k = div_u64((u64)(now - s->next), p) + 1;
	s->count += k;
	s->last = s->next + (s64)(k - 1) * p;
	s->next = s->last + p;
	return k;
}

/**
 * atomkms_vblank_update - a commit on the CRTC: new timing, maybe a flip
 * @s: the schedule
 * @now: the time
 * @t: the frame lengths from now on
 * @flip: the commit is a flip: with VRR, it ends the current frame as
 *        soon as the frame is long enough
 *
 * If the vblank at @s->next is already due, it is accounted for first, and
 * the change applies to the frame after it.
 *
 * Return: true if @s->next moved and the timer must be set to it; false if
 * it did not, or if the vblank was due: then the timer's handler is about
 * to run, and it sets the timer itself (moving the timer now would delay
 * the due vblank's report).
 */
bool atomkms_vblank_update(struct atomkms_vblank_sched *s, s64 now,
			   const struct atomkms_vblank_timing *t, bool flip)
{
	bool due = now >= s->next;
	s64 old = s->next, end;

	if (due)
		atomkms_vblank_advance(s, now);
	if (t->vrr != s->t.vrr || t->frame_ns != s->t.frame_ns ||
	    t->min_ns != s->t.min_ns || t->max_ns != s->t.max_ns) {
		s->t = *t;
		end = s->last + atomkms_vblank_period(t);
		s->next = end > now ? end : now;
	}
	if (flip && s->t.vrr) {
		end = s->last + s->t.min_ns;
		if (end < now)
			end = now;
		if (end < s->next)
			s->next = end;
	}
	return !due && s->next != old;
}

/**
 * atomkms_vblank_vrr_timing - the VRR frame lengths for a mode and a range
 * @t: filled in, with @t->vrr set, if VRR can run
 * @frame_ns: the mode's frame period
 * @min_hz: the panel's lowest refresh (an EDID's range limits)
 * @max_hz: its highest
 *
 * The shortest frame is the mode's own, or 1/@max_hz if that is longer;
 * the longest is 1/@min_hz, at most %ATOMKMS_MAX_FRAME_NS.
 *
 * Return: false, and @t left alone, if the range is empty or the mode's
 * frame longer than 1/@min_hz: the panel cannot vary this mode.
 */
bool atomkms_vblank_vrr_timing(struct atomkms_vblank_timing *t, u32 frame_ns,
			       u32 min_hz, u32 max_hz)
{
	u32 min_ns, max_ns;

	if (!min_hz || max_hz <= min_hz || !frame_ns)
		return false;
	max_ns = ATOMKMS_NS_PER_SEC / min_hz;
	if (max_ns > ATOMKMS_MAX_FRAME_NS)
		max_ns = ATOMKMS_MAX_FRAME_NS;
	min_ns = (ATOMKMS_NS_PER_SEC + max_hz - 1) / max_hz;
	if (min_ns < frame_ns)
		min_ns = frame_ns;
	if (min_ns < ATOMKMS_MIN_FRAME_NS || min_ns > max_ns)
		return false;
	*t = (struct atomkms_vblank_timing){
		.frame_ns = frame_ns,
		.min_ns = min_ns,
		.max_ns = max_ns,
		.vrr = true,
	};
	return true;
}
