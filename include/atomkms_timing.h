/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Display timing arithmetic for the simulated scanout: frame period from a
 * mode's pixel clock and totals, and the limits the vblank timer can honour.
 * Pure C, shared by the module and the userspace unit tests.
 */
#ifndef ATOMKMS_TIMING_H
#define ATOMKMS_TIMING_H

#include "atomkms_types.h"

/* Shortest frame the vblank hrtimer simulates: 1 ms, that is 1000 Hz. */
#define ATOMKMS_MIN_FRAME_NS		1000000ULL
/* Longest frame: 1 s, that is 1 Hz. */
#define ATOMKMS_MAX_FRAME_NS		1000000000ULL
/* Highest pixel clock accepted, in kHz (beyond DP 2.1 UHBR20 rates). */
#define ATOMKMS_MAX_CLOCK_KHZ		3000000U
/* Largest active area, per axis, and largest total, per axis. */
#define ATOMKMS_MAX_DISPLAY		8192U
#define ATOMKMS_MAX_TOTAL		16384U

/**
 * enum atomkms_timing_status - why a timing cannot be simulated
 * @ATOMKMS_TIMING_OK: the vblank timer can run this timing
 * @ATOMKMS_TIMING_NO_CLOCK: pixel clock is zero
 * @ATOMKMS_TIMING_CLOCK_HIGH: pixel clock above %ATOMKMS_MAX_CLOCK_KHZ
 * @ATOMKMS_TIMING_BAD_H: horizontal display/sync/total not ordered or empty
 * @ATOMKMS_TIMING_BAD_V: vertical display/sync/total not ordered or empty
 * @ATOMKMS_TIMING_TOO_BIG: active or total size above the limits
 * @ATOMKMS_TIMING_RATE_HIGH: frame shorter than %ATOMKMS_MIN_FRAME_NS
 * @ATOMKMS_TIMING_RATE_LOW: frame longer than %ATOMKMS_MAX_FRAME_NS
 */
enum atomkms_timing_status {
	ATOMKMS_TIMING_OK,
	ATOMKMS_TIMING_NO_CLOCK,
	ATOMKMS_TIMING_CLOCK_HIGH,
	ATOMKMS_TIMING_BAD_H,
	ATOMKMS_TIMING_BAD_V,
	ATOMKMS_TIMING_TOO_BIG,
	ATOMKMS_TIMING_RATE_HIGH,
	ATOMKMS_TIMING_RATE_LOW,
};

/**
 * struct atomkms_timing - the parts of a display mode the timer depends on
 * @clock_khz: pixel clock in kHz, as in &drm_display_mode.clock
 * @hdisplay: active pixels per line
 * @hsync_start: first pixel of horizontal sync
 * @hsync_end: pixel after horizontal sync
 * @htotal: pixels per line including blanking
 * @vdisplay: active lines
 * @vsync_start: first line of vertical sync
 * @vsync_end: line after vertical sync
 * @vtotal: lines per frame including blanking
 * @hsync_positive: horizontal sync is active high (an EDID says; the
 *                  timer ignores it)
 * @vsync_positive: vertical sync is active high
 *
 * The one description of a mode's timing the core takes, from the vblank
 * timer to the EDID's detailed timings.
 */
struct atomkms_timing {
	u32 clock_khz;
	u32 hdisplay, hsync_start, hsync_end, htotal;
	u32 vdisplay, vsync_start, vsync_end, vtotal;
	bool hsync_positive, vsync_positive;
};

enum atomkms_timing_status atomkms_timing_check(const struct atomkms_timing *t);
u64 atomkms_timing_frame_ns(const struct atomkms_timing *t);
u32 atomkms_timing_refresh_mhz(const struct atomkms_timing *t);
const char *atomkms_timing_status_str(enum atomkms_timing_status status);

#endif /* ATOMKMS_TIMING_H */
