/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * When a CRTC's simulated vblanks come: at the mode's fixed period, or,
 * with variable refresh (VRR), when a flip arrives, within the panel's
 * range. Pure C, shared by the module's vblank timer and the userspace
 * unit tests.
 */
#ifndef ATOMKMS_VBLANK_H
#define ATOMKMS_VBLANK_H

#include "atomkms_types.h"

/**
 * struct atomkms_vblank_timing - how long a CRTC's frames are
 * @frame_ns: the mode's frame period; every frame's, with @vrr off
 * @min_ns: with @vrr, the shortest frame: 1/Vmax, and never shorter than
 *          @frame_ns (a panel stretches the front porch, never shortens it)
 * @max_ns: with @vrr, the longest frame, 1/Vmin: a frame that no flip
 *          ends early ends there
 * @vrr: variable refresh is active
 */
struct atomkms_vblank_timing {
	u32 frame_ns, min_ns, max_ns;
	bool vrr;
};

/**
 * struct atomkms_vblank_sched - a CRTC's vblank schedule
 * @count: vblanks so far: the simulated hardware frame counter, which the
 *         DRM vblank core trusts (&drm_device.max_vblank_count), so that
 *         a frame of any length counts once
 * @last: time of vblank @count, in ns of the monotonic clock
 * @next: time of the next vblank, where the timer is set
 * @t: the frame lengths in force
 *
 * Only atomkms_vblank_advance() moves @count and @last, and only up to a
 * time that has passed. A flip or a timing change moves @next only when
 * it has not passed, and never to before the time the change is made at:
 * no vblank is ever reported that an earlier reader was told had not
 * happened, and every reader extrapolating from the same schedule (the
 * timer, the timestamp and counter hooks) agrees.
 */
struct atomkms_vblank_sched {
	u64 count;
	s64 last, next;
	struct atomkms_vblank_timing t;
};

void atomkms_vblank_start(struct atomkms_vblank_sched *s, s64 now,
			  const struct atomkms_vblank_timing *t);
void atomkms_vblank_start_genlocked(struct atomkms_vblank_sched *s, s64 now,
				    const struct atomkms_vblank_timing *t,
				    const struct atomkms_vblank_sched *peer);
u64 atomkms_vblank_advance(struct atomkms_vblank_sched *s, s64 now);
bool atomkms_vblank_update(struct atomkms_vblank_sched *s, s64 now,
			   const struct atomkms_vblank_timing *t, bool flip);
bool atomkms_vblank_vrr_timing(struct atomkms_vblank_timing *t, u32 frame_ns,
			       u32 min_hz, u32 max_hz);

#endif /* ATOMKMS_VBLANK_H */
