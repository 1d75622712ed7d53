// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tiled monitors: the CRTCs that drive the tiles of one monitor are
 * genlocked, so that a commit flipping every tile shows the whole picture
 * at one vblank, as on hardware that syncs its pipes' timing generators
 * (i915's transcoder port sync).
 *
 * Which connectors are tiles of one monitor is the DRM core's to say: the
 * tile group it made from the DisplayID tiled-display block of their EDIDs
 * (&drm_connector.tile_group, the TILE property), generated or written.
 * A CRTC's state records the group of the connectors it drives at each
 * modeset, under the connection_mutex that probing holds while it changes
 * the group.
 *
 * Genlock: a CRTC switched on while another CRTC of its group runs with
 * the same fixed frame period starts its schedule in step with that one
 * (atomkms_vblank_start_genlocked()): their vblanks fall at the same
 * nanosecond from then on, with equal timestamps, and their counters
 * step together. VRR stays off on tiles: it would end their frames apart.
 *
 * Vblank evasion: a commit arms each CRTC's event for the vblank after it
 * is programmed, one CRTC after the other. A group's vblank between two
 * of them would split the flip across two vblanks, so a commit that flips
 * two or more tiles of a group waits, before programming them, until the
 * group's next vblank is at least %ATOMKMS_TILE_EVADE_NS away, as i915
 * evades the vblank while it writes a pipe's registers. Programming takes
 * microseconds; a vCPU stalled longer than the margin at that moment can
 * still split it.
 */
#include <linux/hrtimer.h>
#include <linux/sched.h>

#include <drm/drm_atomic.h>
#include <drm/drm_connector.h>
#include <drm/drm_print.h>

#include "atomkms_drv.h"

/* How close to a vblank a tiled commit does not start programming. */
#define ATOMKMS_TILE_EVADE_NS	(1000 * NSEC_PER_USEC)

/**
 * atomkms_tile_group_of - the tile group a CRTC state drives
 * @crtc: the CRTC
 * @state: a state being checked, which holds every connector the CRTC
 *         drives (a modeset's affected connectors) and so the
 *         connection_mutex
 *
 * Return: the id of the DRM tile group of the first tiled connector
 * routed to @crtc, or 0 if none is a tile.
 */
int atomkms_tile_group_of(struct drm_crtc *crtc, struct drm_atomic_commit *state)
{
	struct drm_connector_state *conn_state;
	struct drm_connector *conn;
	int i;

	for_each_new_connector_in_state(state, conn, conn_state, i)
		if (conn_state->crtc == crtc && conn->has_tile &&
		    conn->tile_group)
			return conn->tile_group->id;
	return 0;
}

/* A consistent copy of a CRTC's schedule, its group and whether it runs. */
static bool atomkms_tile_read(struct atomkms_crtc *akcrtc,
			      struct atomkms_vblank_sched *s, int *group)
{
	unsigned int seq;
	bool scanning;

	do {
		seq = read_seqbegin(&akcrtc->vbl_lock);
		*s = akcrtc->sched;
		*group = akcrtc->tile_group;
		scanning = akcrtc->scanning;
	} while (read_seqretry(&akcrtc->vbl_lock, seq));
	return scanning;
}

/**
 * atomkms_tile_peer - a running schedule to genlock a CRTC to
 * @akcrtc: the CRTC being switched on
 * @group: the tile group its new state drives (0: none)
 * @t: its frame lengths
 * @peer: filled in with the peer's schedule if there is one
 *
 * Called from atomic_enable, before @akcrtc's own lock is taken. A peer
 * switched off meanwhile by a commit on its own CRTC leaves a phase that
 * no one shares: harmless.
 *
 * Return: true if another CRTC of @group scans out with the same fixed
 * period.
 */
bool atomkms_tile_peer(struct atomkms_crtc *akcrtc, int group,
		       const struct atomkms_vblank_timing *t,
		       struct atomkms_vblank_sched *peer)
{
	struct drm_crtc *crtc;
	int other;

	if (!group || t->vrr)
		return false;
	drm_for_each_crtc(crtc, akcrtc->base.dev) {
		struct atomkms_crtc *o = to_atomkms_crtc(crtc);

		if (o == akcrtc || !atomkms_tile_read(o, peer, &other) ||
		    other != group)
			continue;
		if (peer->t.vrr || peer->t.frame_ns != t->frame_ns) {
			drm_dbg_kms(crtc->dev,
				    "[CRTC:%d:%s] not genlocked to [CRTC:%d:%s]: frame %u ns, not %u\n",
				    akcrtc->base.base.id, akcrtc->base.name,
				    crtc->base.id, crtc->name,
				    peer->t.frame_ns, t->frame_ns);
			continue;
		}
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] genlocked to [CRTC:%d:%s], tile group %d\n",
			    akcrtc->base.base.id, akcrtc->base.name,
			    crtc->base.id, crtc->name, group);
		return true;
	}
	return false;
}

/* Sleep past @akcrtc's next vblank while it is closer than the margin. */
static void atomkms_tile_evade_crtc(struct atomkms_crtc *akcrtc)
{
	struct atomkms_vblank_sched s;
	unsigned int tries;
	ktime_t until;
	s64 now;
	int group;

	for (tries = 0; tries < 2; tries++) {
		if (!atomkms_tile_read(akcrtc, &s, &group))
			return;
		now = ktime_to_ns(ktime_get());
		atomkms_vblank_advance(&s, now);
		if (s.next - now >= ATOMKMS_TILE_EVADE_NS)
			return;
		/* Just past it: the event then waits for the one after. */
		until = ns_to_ktime(s.next + NSEC_PER_USEC);
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_hrtimeout(&until, HRTIMER_MODE_ABS);
	}
}

/**
 * atomkms_tile_evade - keep a commit that flips several tiles of a group
 *                      clear of that group's vblank
 * @state: the commit's state, swapped in, before its planes are
 *         programmed
 */
void atomkms_tile_evade(struct drm_atomic_commit *state)
{
	struct drm_crtc_state *cs, *cs2;
	struct drm_crtc *crtc, *crtc2;
	int i, j, group;

	for_each_new_crtc_in_state(state, crtc, cs, i) {
		group = to_atomkms_crtc_state(cs)->tile_group;
		if (!group || !cs->active || cs->async_flip)
			continue;
		for_each_new_crtc_in_state(state, crtc2, cs2, j) {
			if (j <= i || !cs2->active || cs2->async_flip ||
			    to_atomkms_crtc_state(cs2)->tile_group != group)
				continue;
			atomkms_tile_evade_crtc(to_atomkms_crtc(crtc));
			break;
		}
	}
}
