// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure-C core's topology (with the format table it names formats
 * by, and the limits' profiles it builds) and timing, built into
 * atomkms_test.ko from the same sources and with the same flags as into
 * atomkms.ko. The core includes no kernel header, so atomkms.ko cannot
 * export these functions next to their definitions
 * (EXPORT_SYMBOL_IF_KUNIT); the suites call this copy, and atomkms.ko's
 * own through its CRTC hooks. Neither module exports them, so the two
 * copies never meet.
 */
#include "../core/atomkms_formats.c"
#include "../core/atomkms_topology.c"
#include "../core/atomkms_limits.c"
#include "../core/atomkms_timing.c"
