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

/*
 * Two tiles of one monitor: the second CRTC starts 5.3 ms after the first,
 * genlocked to it. Its first frame ends at the first's next vblank; from
 * then on both have their vblanks at the same instants, however late a
 * handler accounts for them, and their counters step together.
 */
static void test_genlock(void)
{
	struct atomkms_vblank_sched a = { .count = 100 }, b = { .count = 3 };
	s64 t0 = 1000 * MS, t1 = t0 + 5300000, t;
	u32 i, bad = 0;

	atomkms_vblank_start(&a, t0, &fixed60);
	atomkms_vblank_start_genlocked(&b, t1, &fixed60, &a);
	CHECK(b.next == t0 + F60 && b.last == t1 && a.next == t0 + F60 &&
	      a.count == 100, "first frame ends at the peer's vblank: %lld",
	      (long long)(b.next - t0));
	/* A peer whose handler is late: its vblanks are extrapolated. */
	atomkms_vblank_start_genlocked(&b, t0 + 3 * (s64)F60 + 7, &fixed60, &a);
	CHECK(b.next == t0 + 4 * (s64)F60, "peer late by 3 frames: %lld",
	      (long long)(b.next - t0));
	for (i = 1; i < 1000; i++) {
		t = t0 + 3 * (s64)F60 + (s64)i * 7777777;
		atomkms_vblank_advance(&a, t);
		atomkms_vblank_advance(&b, t);
		/* Before its first vblank, b's last is when it started. */
		if (t < t0 + 4 * (s64)F60)
			continue;
		bad += a.last != b.last || a.next != b.next ||
		       a.count - 100 != b.count - 3 + 3;
	}
	CHECK(!bad, "vblanks at the same instants, counters in step: %u bad",
	      bad);
	/* Started on the peer's vblank itself: the next one, a frame on. */
	atomkms_vblank_start_genlocked(&b, a.next, &fixed60, &a);
	CHECK(b.next == a.next + F60, "on the peer's vblank");
}

int main(void)
{
	test_fixed();
	test_genlock();
	test_vrr();
	return check_done("test_vblank");
}
