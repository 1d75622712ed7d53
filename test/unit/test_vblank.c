// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/core/atomkms_vblank.c: the vblank schedule, fixed
 * and VRR, and that its counter goes up by exactly one a vblank however
 * long the frames are.
 */
#include "atomkms_timing.h"
#include "atomkms_vblank.h"
#include "check.h"

#define MS	1000000LL
/* 1920x1080 DMT at 60 Hz: 2200 x 1125 at 148.5 MHz. */
#define F60	16666667U

static const struct atomkms_vblank_timing fixed60 = { .frame_ns = F60 };

static void test_fixed(void)
{
	struct atomkms_vblank_sched s = { .count = 7 };

	atomkms_vblank_start(&s, 1000 * MS, &fixed60);
	CHECK(s.next == 1000 * MS + F60, "first vblank a frame away: %lld",
	      (long long)s.next);
	CHECK(atomkms_vblank_advance(&s, 1000 * MS + F60 - 1) == 0,
	      "nothing before it");
	CHECK(atomkms_vblank_advance(&s, 1000 * MS + F60) == 1 &&
	      s.count == 8 && s.last == 1000 * MS + F60,
	      "one at it: count %llu", (unsigned long long)s.count);
	/* A handler 10 frames late accounts for them all in one step. */
	CHECK(atomkms_vblank_advance(&s, 1000 * MS + 11 * (s64)F60 + 5) == 10 &&
	      s.count == 18 && s.last == 1000 * MS + 11 * (s64)F60 &&
	      s.next == s.last + F60, "late by 10 frames: count %llu",
	      (unsigned long long)s.count);
	/* A flip with VRR off changes nothing. */
	CHECK(!atomkms_vblank_update(&s, s.last + MS, &fixed60, true) &&
	      s.next == s.last + F60, "flip, VRR off");
}

static void test_vrr(void)
{
	struct atomkms_vblank_timing t;
	struct atomkms_vblank_sched s = { 0 };
	s64 l;

	CHECK(atomkms_vblank_vrr_timing(&t, F60, 30, 60) && t.vrr &&
	      t.min_ns == F60 && t.max_ns == 33333333,
	      "30-60 Hz: %u-%u ns", t.min_ns, t.max_ns);
	CHECK(!atomkms_vblank_vrr_timing(&t, F60, 60, 60) &&
	      !atomkms_vblank_vrr_timing(&t, F60, 0, 60) &&
	      !atomkms_vblank_vrr_timing(&t, 40 * MS, 30, 60),
	      "no range, or a mode slower than Vmin");
	atomkms_vblank_vrr_timing(&t, F60, 30, 60);

	atomkms_vblank_start(&s, 0, &t);
	CHECK(atomkms_vblank_advance(&s, F60) == 1 && s.count == 1,
	      "first frame the mode's");
	/* A flip 22 ms after the vblank: the next one comes then. */
	l = s.last;
	CHECK(atomkms_vblank_update(&s, l + 22 * MS, &t, false) == false,
	      "no flip, no change");
	CHECK(atomkms_vblank_update(&s, l + 22 * MS, &t, true) &&
	      s.next == l + 22 * MS, "flip in range: now (%lld)",
	      (long long)(s.next - l));
	CHECK(atomkms_vblank_advance(&s, l + 22 * MS) == 1 && s.count == 2,
	      "counted once");
	/* Too early: at 1/Vmax. */
	l = s.last;
	CHECK(atomkms_vblank_update(&s, l + 5 * MS, &t, true) &&
	      s.next == l + F60, "flip too early: 1/Vmax");
	atomkms_vblank_advance(&s, l + F60);
	/* No flip: at 1/Vmin, and then every 1/Vmin, once a frame. */
	l = s.last;
	CHECK(atomkms_vblank_advance(&s, l + 33333332) == 0 &&
	      atomkms_vblank_advance(&s, l + 3 * 33333333LL) == 3 &&
	      s.count == 6 && s.last == l + 3 * 33333333LL,
	      "no flip: 1/Vmin, count %llu", (unsigned long long)s.count);
	/* A flip when the vblank is due: it is accounted for first. */
	l = s.next;
	CHECK(!atomkms_vblank_update(&s, l + MS, &t, true) && s.count == 7 &&
	      s.last == l && s.next == l + F60,
	      "flip while due: next frame at 1/Vmax");
	/* VRR off mid-frame: the frame ends at the mode's period... */
	l = s.last;
	atomkms_vblank_advance(&s, l + F60);
	l = s.last;
	CHECK(atomkms_vblank_update(&s, l + 20 * MS, &fixed60, false) &&
	      s.next == l + 20 * MS, "VRR off past the mode's period: now");
	atomkms_vblank_advance(&s, l + 20 * MS);
	l = s.last;
	CHECK(atomkms_vblank_advance(&s, l + F60) == 1 && s.last == l + F60,
	      "then fixed");
}

int main(void)
{
	test_fixed();
	test_vrr();
	return check_done("test_vblank");
}
