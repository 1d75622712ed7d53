// SPDX-License-Identifier: GPL-2.0-only
/*
 * Display timing arithmetic for the simulated scanout. Pure C: it is built
 * into the module and into test/unit/test_timing.
 */
#include "atomkms_timing.h"

static bool atomkms_axis_ok(u32 display, u32 sync_start, u32 sync_end,
			    u32 total)
{
	return display > 0 && display <= sync_start &&
	       sync_start <= sync_end && sync_end <= total;
}

/**
 * atomkms_timing_check - can the vblank timer simulate this timing?
 * @t: the timing
 *
 * All arithmetic is in 64 bits so that no u32 or int value of userspace's
 * choosing can overflow it (igt's kms_invalid_mode sends INT_MAX and
 * UINT_MAX clocks and totals).
 *
 * Return: %ATOMKMS_TIMING_OK, or the first reason it cannot.
 */
enum atomkms_timing_status atomkms_timing_check(const struct atomkms_timing *t)
{
	u64 frame_ns;

	if (!t->clock_khz)
		return ATOMKMS_TIMING_NO_CLOCK;
	if (t->clock_khz > ATOMKMS_MAX_CLOCK_KHZ)
		return ATOMKMS_TIMING_CLOCK_HIGH;
	if (!atomkms_axis_ok(t->hdisplay, t->hsync_start, t->hsync_end,
			     t->htotal))
		return ATOMKMS_TIMING_BAD_H;
	if (!atomkms_axis_ok(t->vdisplay, t->vsync_start, t->vsync_end,
			     t->vtotal))
		return ATOMKMS_TIMING_BAD_V;
	if (t->hdisplay > ATOMKMS_MAX_DISPLAY ||
	    t->vdisplay > ATOMKMS_MAX_DISPLAY ||
	    t->htotal > ATOMKMS_MAX_TOTAL || t->vtotal > ATOMKMS_MAX_TOTAL)
		return ATOMKMS_TIMING_TOO_BIG;

	frame_ns = atomkms_timing_frame_ns(t);
	if (frame_ns < ATOMKMS_MIN_FRAME_NS)
		return ATOMKMS_TIMING_RATE_HIGH;
	if (frame_ns > ATOMKMS_MAX_FRAME_NS)
		return ATOMKMS_TIMING_RATE_LOW;
	return ATOMKMS_TIMING_OK;
}

/**
 * atomkms_timing_frame_ns - frame period of a timing
 * @t: the timing; htotal and vtotal at most %ATOMKMS_MAX_TOTAL for an exact
 *     result (atomkms_timing_check() ensures it)
 *
 * The period is htotal * vtotal pixels at clock_khz, rounded to the nearest
 * nanosecond: 1920x1080 CEA at 148.352 MHz gives 16683350 ns (59.94 Hz).
 *
 * Return: the period in ns, or 0 for a zero clock.
 */
u64 atomkms_timing_frame_ns(const struct atomkms_timing *t)
{
	u64 pixels = (u64)t->htotal * t->vtotal;

	if (!t->clock_khz)
		return 0;
	/* pixels <= 2^28, so pixels * 10^6 + clock/2 fits in 64 bits. */
	return div_u64(pixels * 1000000ULL + t->clock_khz / 2, t->clock_khz);
}

/**
 * atomkms_timing_refresh_mhz - refresh rate of a timing in millihertz
 * @t: the timing
 *
 * Return: the rate rounded to the nearest mHz (59940 for 59.94 Hz), or 0
 * when htotal * vtotal is zero or does not fit in 32 bits.
 */
u32 atomkms_timing_refresh_mhz(const struct atomkms_timing *t)
{
	u64 pixels = (u64)t->htotal * t->vtotal;

	if (!pixels || pixels >> 32)
		return 0;
	/* clock_khz * 10^6 < 2^52: no overflow; the quotient fits in u32
	 * for any timing that passes atomkms_timing_check().
	 */
	return (u32)div_u64((u64)t->clock_khz * 1000000ULL + pixels / 2,
			    (u32)pixels);
}

/**
 * atomkms_timing_status_str - what an &enum atomkms_timing_status means
 * @status: the status
 *
 * Return: a short human-readable reason, for debug messages.
 */
const char *atomkms_timing_status_str(enum atomkms_timing_status status)
{
	switch (status) {
	case ATOMKMS_TIMING_OK:
		return "ok";
	case ATOMKMS_TIMING_NO_CLOCK:
		return "zero pixel clock";
	case ATOMKMS_TIMING_CLOCK_HIGH:
		return "pixel clock too high";
	case ATOMKMS_TIMING_BAD_H:
		return "bad horizontal timing";
	case ATOMKMS_TIMING_BAD_V:
		return "bad vertical timing";
	case ATOMKMS_TIMING_TOO_BIG:
		return "mode too large";
	case ATOMKMS_TIMING_RATE_HIGH:
		return "refresh above 1000 Hz";
	case ATOMKMS_TIMING_RATE_LOW:
		return "refresh below 1 Hz";
	}
	return "unknown";
}
