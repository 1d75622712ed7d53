// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/core/atomkms_timing.c: frame periods, refresh rates and
 * the limits that keep the vblank timer sane.
 */
#include <limits.h>
#include <stdint.h>

#include "atomkms_timing.h"
#include "check.h"

/* CEA 1920x1080: 2200x1125 totals, horizontal and vertical apart. */
#define H1080	.hdisplay = 1920, .hsync_start = 2008, .hsync_end = 2052, \
		.htotal = 2200
#define V1080	.vdisplay = 1080, .vsync_start = 1084, .vsync_end = 1089, \
		.vtotal = 1125
#define H(d, ss, se, tot) \
	.hdisplay = (d), .hsync_start = (ss), .hsync_end = (se), .htotal = (tot)
#define V(d, ss, se, tot) \
	.vdisplay = (d), .vsync_start = (ss), .vsync_end = (se), .vtotal = (tot)

/* 4096x2160 DMT reduced blanking at 556.744 MHz: 60 Hz. */
#define UHD_RB	.clock_khz = 556744, H(4096, 4104, 4136, 4176), \
		V(2160, 2208, 2216, 2222)

/* What atomkms_timing_check() says of a timing. */
static const struct {
	const char *what;
	struct atomkms_timing t;
	enum atomkms_timing_status status;
} checks[] = {
	{ "1080p60", { 148500, H1080, V1080 }, ATOMKMS_TIMING_OK },
	{ "1080p59.94", { 148352, H1080, V1080 }, ATOMKMS_TIMING_OK },
	{ "4k reduced blanking", { UHD_RB }, ATOMKMS_TIMING_OK },
	{ "zero clock", { 0, H1080, V1080 }, ATOMKMS_TIMING_NO_CLOCK },
	/* igt kms_invalid_mode@int-max-clock: INT_MAX kHz. */
	{ "INT_MAX kHz", { INT_MAX, H1080, V1080 }, ATOMKMS_TIMING_CLOCK_HIGH },
	{ "UINT_MAX kHz", { UINT_MAX, H1080, V1080 },
	  ATOMKMS_TIMING_CLOCK_HIGH },
	/* The highest clock still accepted, on a tiny mode: over 1000 Hz. */
	{ "highest clock", { ATOMKMS_MAX_CLOCK_KHZ, H1080, V1080 },
	  ATOMKMS_TIMING_RATE_HIGH },
	/* Exactly 1000 Hz passes, a hair above fails. */
	{ "1000 Hz", { 2475000, H1080, V1080 }, ATOMKMS_TIMING_OK },
	{ "1000+ Hz", { 2475002, H1080, V1080 }, ATOMKMS_TIMING_RATE_HIGH },
	{ "below 1 Hz", { 2474, H1080, V1080 }, ATOMKMS_TIMING_RATE_LOW },
	/* Totals that would overflow 32-bit arithmetic. */
	{ "UINT_MAX htotal",
	  { 148500, H(1920, 2008, UINT_MAX, UINT_MAX), V1080 },
	  ATOMKMS_TIMING_TOO_BIG },
	{ "hdisplay 0", { 148500, H(0, 2008, 2052, 2200), V1080 },
	  ATOMKMS_TIMING_BAD_H },
	{ "hsync before hdisplay", { 148500, H(1920, 1900, 2052, 2200), V1080 },
	  ATOMKMS_TIMING_BAD_H },
	{ "hsync past htotal", { 148500, H(1920, 2008, 2300, 2200), V1080 },
	  ATOMKMS_TIMING_BAD_H },
	{ "vdisplay 0", { 148500, H1080, V(0, 1084, 1089, 1125) },
	  ATOMKMS_TIMING_BAD_V },
	{ "vsync before vdisplay", { 148500, H1080, V(1080, 1000, 1089, 1125) },
	  ATOMKMS_TIMING_BAD_V },
	{ "vtotal before vsync end",
	  { 148500, H1080, V(1080, 1084, 1089, 1088) }, ATOMKMS_TIMING_BAD_V },
	/* Sync pulses may be zero-length; display may equal total. */
	{ "no blanking", { 1920 * 1125 * 60 / 1000, H(1920, 1920, 1920, 1920),
	  V1080 }, ATOMKMS_TIMING_OK },
	/* Above the size limits. */
	{ "8193 wide", { 148500, H(8193, 9000, 9000, 9000), V1080 },
	  ATOMKMS_TIMING_TOO_BIG },
};

/* A frame period not to check: beyond the totals it is exact for. */
#define ANY_NS	UINT64_MAX

/* Frame periods, rounded to the ns, and refresh rates, to the mHz. */
static const struct {
	const char *what;
	struct atomkms_timing t;
	uint64_t frame_ns;
	uint32_t refresh_mhz;
} rates[] = {
	/* 2475000 pixels at 148.5 MHz: exactly 1/60 s, rounded. */
	{ "1080p60", { 148500, H1080, V1080 }, 16666667, 60000 },
	/* 59.94 Hz is the 1000/1001 clock, not 60 Hz. */
	{ "1080p59.94", { 148352, H1080, V1080 }, 16683294, 59940 },
	/* 9279072 pixels at 556.744 MHz: 16666676.4 ns. */
	{ "4k reduced blanking", { UHD_RB }, 16666676, 60000 },
	{ "1000 Hz", { 2475000, H1080, V1080 }, 1000000, 1000000 },
	/* No division by zero. */
	{ "zero clock", { 0, H1080, V1080 }, 0, 0 },
	{ "UINT_MAX htotal",
	  { 148500, H(1920, 2008, UINT_MAX, UINT_MAX), V1080 }, ANY_NS, 0 },
};

int main(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		CHECK(atomkms_timing_check(&checks[i].t) == checks[i].status,
		      "%s: %d", checks[i].what,
		      atomkms_timing_check(&checks[i].t));
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		const struct atomkms_timing *t = &rates[i].t;

		CHECK(rates[i].frame_ns == ANY_NS ||
		      atomkms_timing_frame_ns(t) == rates[i].frame_ns,
		      "%s: %llu", rates[i].what,
		      (unsigned long long)atomkms_timing_frame_ns(t));
		CHECK(atomkms_timing_refresh_mhz(t) == rates[i].refresh_mhz,
		      "%s: %u", rates[i].what, atomkms_timing_refresh_mhz(t));
	}
	CHECK(atomkms_timing_status_str(ATOMKMS_TIMING_RATE_HIGH)[0] != 'u',
	      "every status has a string");
	return check_done("test_timing");
}
