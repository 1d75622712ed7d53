# SPDX-License-Identifier: GPL-2.0-only
#
# The pure-C core, built unchanged into the module (Kbuild), the userspace
# tests (Makefile, test/unit/unit.mk) and the benchmark (bench/run.sh, via
# `make core-srcs`): one list, read by all of them. Its headers are in
# include/; it includes no kernel header but through atomkms_types.h.

# The compositor: formats, plane jobs, composition, colour, CRC, writeback,
# the panel fitter.
ATOMKMS_COMPOSE_CORE := formats plane_job compose color crc writeback fit
# Everything pure C: the compositor, mode timing, EDIDs, the topology,
# the simulated display-engine limits.
ATOMKMS_CORE := $(ATOMKMS_COMPOSE_CORE) timing vblank edid topology limits
