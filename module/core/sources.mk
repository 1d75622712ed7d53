# SPDX-License-Identifier: GPL-2.0-only
#
# The pure-C core, built unchanged into the module (Kbuild), the userspace
# tests (Makefile, test/unit/unit.mk) and the benchmark (bench/run.sh, via
# `make core-srcs`): one list, read by all of them. Its headers are in
# include/; it includes no kernel header but through atomkms_types.h.

# The compositor: formats, plane jobs, composition, colour, CRC, writeback,
# the panel fitter.
ATOMKMS_COMPOSE_CORE := formats plane_job compose simd color crc writeback fit
# Everything pure C: the compositor, mode timing, EDIDs, the topology,
# the simulated display-engine limits.
ATOMKMS_CORE := $(ATOMKMS_COMPOSE_CORE) timing vblank edid topology limits

# The compositor's vector line loops (include/atomkms_simd.h), x86-64
# only: module/core/simd/atomkms_simd_<level>.c, each compiled alone with
# the flags that allow its vector registers (Kbuild's CFLAGS_..., and
# ATOMKMS_SIMD_CFLAGS_<level> for the tests and the benchmark).
ATOMKMS_SIMD := sse2 avx2
ATOMKMS_SIMD_CFLAGS_sse2 := -msse2
ATOMKMS_SIMD_CFLAGS_avx2 := -mavx2
