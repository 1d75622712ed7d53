// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/core/atomkms_timing.c: frame periods, refresh rates and
 * the limits that keep the vblank timer sane.
 */
#include <limits.h>

#include "atomkms_timing.h"
#include "check.h"

/* CEA 1920x1080: 2200x1125 totals. */
static const struct atomkms_timing cea1080 = {
	.clock_khz = 148500,
	.hdisplay = 1920, .hsync_start = 2008, .hsync_end = 2052, .htotal = 2200,
	.vdisplay = 1080, .vsync_start = 1084, .vsync_end = 1089, .vtotal = 1125,
};

static void test_periods(void)
{
	struct atomkms_timing t = cea1080;

	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_OK, "1080p60 ok");
	/* 2475000 pixels at 148.5 MHz: exactly 1/60 s, rounded. */
	CHECK(atomkms_timing_frame_ns(&t) == 16666667ULL, "%llu",
	      (unsigned long long)atomkms_timing_frame_ns(&t));
	CHECK(atomkms_timing_refresh_mhz(&t) == 60000, "%u",
	      atomkms_timing_refresh_mhz(&t));

	/* 59.94 Hz is the 1000/1001 clock, not 60 Hz. */
	t.clock_khz = 148352;
	CHECK(atomkms_timing_frame_ns(&t) == 16683294ULL, "%llu",
	      (unsigned long long)atomkms_timing_frame_ns(&t));
	CHECK(atomkms_timing_refresh_mhz(&t) == 59940, "%u",
	      atomkms_timing_refresh_mhz(&t));

	/* 4096x2160 DMT reduced blanking at 556.744 MHz: 60 Hz. */
	t = (struct atomkms_timing){
		.clock_khz = 556744,
		.hdisplay = 4096, .hsync_start = 4104, .hsync_end = 4136,
		.htotal = 4176,
		.vdisplay = 2160, .vsync_start = 2208, .vsync_end = 2216,
		.vtotal = 2222,
	};
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_OK, "4k ok");
	CHECK(atomkms_timing_refresh_mhz(&t) == 60000, "%u",
	      atomkms_timing_refresh_mhz(&t));
}

static void test_limits(void)
{
	struct atomkms_timing t = cea1080;

	t.clock_khz = 0;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_NO_CLOCK, "zero");
	CHECK(atomkms_timing_frame_ns(&t) == 0, "no division by zero");

	/* igt kms_invalid_mode@int-max-clock: INT_MAX kHz. */
	t.clock_khz = INT_MAX;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_CLOCK_HIGH, "int max");
	t.clock_khz = UINT_MAX;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_CLOCK_HIGH, "uint max");

	/* The highest clock still accepted, on a tiny mode: over 1000 Hz. */
	t = cea1080;
	t.clock_khz = ATOMKMS_MAX_CLOCK_KHZ;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_RATE_HIGH, "%d",
	      atomkms_timing_check(&t));

	/* Exactly 1000 Hz passes, a hair above fails. */
	t = cea1080;
	t.clock_khz = 2475000;
	CHECK(atomkms_timing_frame_ns(&t) == 1000000ULL, "1 ms");
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_OK, "1000 Hz ok");
	t.clock_khz = 2475002;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_RATE_HIGH, "1000+ Hz");

	/* Below 1 Hz. */
	t = cea1080;
	t.clock_khz = 2474;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_RATE_LOW, "< 1 Hz");

	/* Totals that would overflow 32-bit arithmetic. */
	t = cea1080;
	t.htotal = UINT_MAX;
	t.hsync_end = UINT_MAX;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_TOO_BIG, "%d",
	      atomkms_timing_check(&t));
	CHECK(atomkms_timing_refresh_mhz(&t) == 0, "refresh of huge totals");
}

static void test_ordering(void)
{
	struct atomkms_timing t = cea1080;

	t.hdisplay = 0;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_BAD_H, "hdisplay 0");
	t = cea1080;
	t.hsync_start = 1900;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_BAD_H, "hsync < hdisp");
	t = cea1080;
	t.hsync_end = 2300;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_BAD_H, "hsync > htot");
	t = cea1080;
	t.vdisplay = 0;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_BAD_V, "vdisplay 0");
	t = cea1080;
	t.vsync_start = 1000;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_BAD_V, "vsync < vdisp");
	t = cea1080;
	t.vtotal = 1088;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_BAD_V, "vtot < vsync");

	/* Sync pulses may be zero-length; display may equal total. */
	t = cea1080;
	t.hsync_start = t.hsync_end = t.htotal = 1920;
	t.clock_khz = 1920 * 1125 * 60 / 1000;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_OK, "no blanking");

	/* Above the size limits. */
	t = cea1080;
	t.hdisplay = 8193;
	t.hsync_start = t.hsync_end = t.htotal = 9000;
	CHECK(atomkms_timing_check(&t) == ATOMKMS_TIMING_TOO_BIG, "8193 wide");

	CHECK(atomkms_timing_status_str(ATOMKMS_TIMING_RATE_HIGH)[0] != 'u',
	      "every status has a string");
}

int main(void)
{
	test_periods();
	test_limits();
	test_ordering();
	return check_done("test_timing");
}
