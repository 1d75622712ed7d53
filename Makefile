# SPDX-License-Identifier: GPL-2.0-only
#
# atomkms: the module (through kbuild), the userspace tools and tests, and
# the QEMU guest that runs them. `make help` lists the targets.

# The kernel to build for (qemu/kernels.sh): 6.12, the default, is whatever
# linux-headers-6.12-amd64 installed on the host, not the host's running
# kernel; 7.3 and 7.2 build in the trixie chroot make setup keeps in the
# cache (qemu/build-module.sh), into build/kmod-$(KERNEL). The guest boots
# $(KERNEL) too (make run KERNEL=7.3); 7.2 is built, not booted.
KERNEL ?= 6.12
KERNELS := 6.12 7.3 7.2
ifeq ($(filter $(KERNEL),$(KERNELS)),)
$(error KERNEL=$(KERNEL) is not supported: the supported kernels are $(KERNELS))
endif
ifneq ($(KERNEL),7.2)
export GUEST_KERNEL ?= $(KERNEL)
endif
KVER ?= $(shell ls -1d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | \
	sed 's|.*/linux-headers-||' | sort -V | tail -n 1)
KDIR ?= /usr/src/linux-headers-$(KVER)
# Caches that outlive a checkout (the guest rootfs takes a minute to build).
CACHE ?= /var/cache/atomkms
B := build

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Werror=implicit-function-declaration
DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null)
DRM_LIBS := $(shell pkg-config --libs libdrm 2>/dev/null)

TOOLS := atomkms-info atomkms-demo atomkms-capture
GUEST_TESTS := $(patsubst test/guest/%.c,%,$(wildcard test/guest/test-*.c))
UNIT_TESTS := $(patsubst test/unit/%.c,%,$(wildcard test/unit/test_*.c))

# The debug stage's guest programs (issue 16): the fuzzer, test/fuzz/*.c,
# and fault injection, test/debug/*.c (one program per file there).
FUZZ_SRCS := $(wildcard test/fuzz/*.c)
DEBUG_PROGS := $(patsubst test/debug/%.c,%,$(wildcard test/debug/*.c))

BINS := $(addprefix $(B)/bin/,$(TOOLS) $(GUEST_TESTS) frame-check dmabuf-tiles $(DEBUG_PROGS)) \
	$(if $(FUZZ_SRCS),$(B)/bin/atomkms-fuzz)
UNITS := $(addprefix $(B)/unit/,$(UNIT_TESTS))

export KVER CACHE

.PHONY: all module userspace unit clean setup run check igt shell help clients \
	sparse checkpatch lint bench sw_sync core-srcs kdir module-debug check-debug \
	check-limits

all: module userspace sw_sync

module:
ifeq ($(KERNEL),6.12)
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR): run make setup"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
else
	@JOBS=2 qemu/build-module.sh $(KERNEL)
endif

userspace: $(BINS) $(UNITS)

# Test-only: the kernel's sw_sync, which igt's fence tests need and the
# Debian kernel lacks, built from linux-source (qemu/build-sw-sync.sh).
sw_sync:
ifneq ($(KERNEL),7.2)
	@qemu/build-sw-sync.sh $(KERNEL)
endif

$(B)/bin/%: userspace/%.c userspace/drmutil.c userspace/drmutil.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -o $@ userspace/drmutil.c $< $(DRM_LIBS)

$(B)/bin/test-%: test/guest/test-%.c test/guest/tap.h userspace/drmutil.c userspace/drmutil.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -Itest/guest -o $@ userspace/drmutil.c $< $(DRM_LIBS) -lm

$(B)/bin/atomkms-capture: userspace/atomkms-capture.c userspace/drmutil.c userspace/drmutil.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) $(shell pkg-config --cflags libpng) -Iuserspace -o $@ userspace/drmutil.c $< $(DRM_LIBS) $(shell pkg-config --libs libpng) -lm

# test-bad-input is one program in parts: bad_input.c and bad_input_*.c.
BAD_INPUT := $(wildcard test/guest/bad_input*.c)
$(B)/bin/test-bad-input: test/guest/test-bad-input.c $(BAD_INPUT) test/guest/bad_input.h test/guest/tap.h userspace/drmutil.c userspace/drmutil.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -Itest/guest -o $@ userspace/drmutil.c $< $(BAD_INPUT) $(DRM_LIBS) -lm

$(B)/bin/atomkms-fuzz: $(FUZZ_SRCS) $(wildcard test/fuzz/*.h) userspace/drmutil.c userspace/drmutil.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -Itest/fuzz -o $@ userspace/drmutil.c $(FUZZ_SRCS) $(DRM_LIBS) -lpthread

$(B)/bin/%: test/debug/%.c $(wildcard test/debug/*.h) userspace/drmutil.c userspace/drmutil.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -Itest/guest -o $@ userspace/drmutil.c $< $(DRM_LIBS) -lpthread

# The pure-C core's one list of sources (module/core/sources.mk).
include module/core/sources.mk
CORE_SRCS := $(patsubst %,module/core/atomkms_%.c,$(ATOMKMS_COMPOSE_CORE))

# test-writeback compares the writeback frames with the compositor core.
$(B)/bin/test-writeback: test/guest/test-writeback.c test/guest/tap.h userspace/drmutil.c userspace/drmutil.h $(CORE_SRCS) $(wildcard include/atomkms_*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -Itest/guest -Iinclude -o $@ userspace/drmutil.c $< $(CORE_SRCS) $(DRM_LIBS) -lm

# test-scaling compares fitted writeback frames with the core's panel fitter.
$(B)/bin/test-scaling: test/guest/test-scaling.c test/guest/tap.h userspace/drmutil.c userspace/drmutil.h $(CORE_SRCS) $(wildcard include/atomkms_*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -Iuserspace -Itest/guest -Iinclude -o $@ userspace/drmutil.c $< $(CORE_SRCS) $(DRM_LIBS) -lm

# The clients stage's checker hashes clients' screenshots with the module's
# frame CRC (test/clients/frame-check.c).
$(B)/bin/frame-check: test/clients/frame-check.c userspace/drmutil.c userspace/drmutil.h module/core/atomkms_crc.c include/atomkms_crc.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) $(shell pkg-config --cflags libpng) -Iuserspace -Iinclude -o $@ userspace/drmutil.c $< module/core/atomkms_crc.c $(DRM_LIBS) $(shell pkg-config --libs libpng)

# The limits stage's client: udmabuf buffers through linux-dmabuf
# (test/clients/dmabuf-tiles.c), with its protocols' code generated from
# wayland-protocols (libwayland-dev, wayland-protocols).
WL_PROTOCOLS := $(shell pkg-config --variable=pkgdatadir wayland-protocols 2>/dev/null)
WL_XML := $(WL_PROTOCOLS)/stable/xdg-shell/xdg-shell.xml \
	$(WL_PROTOCOLS)/stable/viewporter/viewporter.xml \
	$(WL_PROTOCOLS)/unstable/linux-dmabuf/linux-dmabuf-unstable-v1.xml
WL_GEN := $(B)/wayland
$(WL_GEN)/%-client-protocol.h: $(WL_XML)
	@mkdir -p $(@D)
	wayland-scanner client-header $(filter %/$*.xml,$(WL_XML)) $@
$(WL_GEN)/%-protocol.c: $(WL_XML)
	@mkdir -p $(@D)
	wayland-scanner private-code $(filter %/$*.xml,$(WL_XML)) $@
WL_NAMES := $(basename $(notdir $(WL_XML)))
$(B)/bin/dmabuf-tiles: test/clients/dmabuf-tiles.c $(WL_NAMES:%=$(WL_GEN)/%-client-protocol.h) $(WL_NAMES:%=$(WL_GEN)/%-protocol.c)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRM_CFLAGS) -I$(WL_GEN) -o $@ $< $(WL_NAMES:%=$(WL_GEN)/%-protocol.c) $(shell pkg-config --libs wayland-client)

# Unit tests build the core's files unchanged, against include/:
# test_X.c tests module/core/atomkms_X.c; the compositor's are in unit.mk.
# The topology and the limits name formats by the compositor's table;
# test_topology also loads the limits' presets.
$(B)/unit/test_%: test/unit/test_%.c module/core/atomkms_%.c include/atomkms_%.h include/atomkms_types.h test/unit/check.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iinclude -Itest/unit -o $@ $< module/core/atomkms_$*.c \
		$(if $(filter topology limits,$*),module/core/atomkms_formats.c) \
		$(if $(filter topology,$*),module/core/atomkms_limits.c)
$(B)/unit/test_topology $(B)/unit/test_limits: module/core/atomkms_formats.c \
	include/atomkms_formats.h include/atomkms_limits.h include/atomkms_topology.h
$(B)/unit/test_topology: module/core/atomkms_limits.c

include test/unit/unit.mk

unit: $(UNITS)
	@test/run-unit.sh $(UNITS) test/test_igt_compare.py

setup:
	@qemu/setup.sh

# The demo: topology, then a mode set and page flips with events.
run: all
	@qemu/run-guest.sh --name run --show --timeout 120 -- sh qemu/jobs/demo.sh

check: all module-debug
	@test/check.sh

# igt's kms_atomic, kms_plane_multiple and kms_bw whole under each preset
# of simulated limits, then weston and sway under PRESETS, one guest a
# preset (test/check-limits.sh, test/run-limits.sh); make check runs a
# part of the igt list and the compositors under soc:reject.
PRESETS ?= soc:reject laptop:reject desktop:accept
check-limits: all
	@PRESETS="$(PRESETS)" test/check-limits.sh

# The debug stage at full length (test/run-debug.sh full): about N minutes.
check-debug: all module-debug
	@test/run-debug.sh full

# The clients stage alone: weston, sway, kmscube and modetest in the
# clients image (test/run-clients.sh).
clients: all
	@test/run-clients.sh

# Any igt list: make igt LIST=test/igt/ci.list (one igt_runner -t regex a line).
LIST ?= test/igt/ci.list
igt: all
	@test/run-igt.sh $(LIST)

# An interactive shell in the guest, atomkms loaded (exit to power off).
shell: all
	@qemu/run-guest.sh --name shell --interactive --timeout 3600 -- /bin/bash

# atomkms.ko for the debug kernel (qemu/build-debug-kernel.sh), built from
# a copy of the module's sources in build/debug-kmod so that the two
# builds' objects never mix.
DEBUG_KDIR := $(CACHE)/debug-kernel/obj
module-debug:
	@test -f "$(CACHE)/debug-kernel/stamp" || { echo "no debug kernel in $(CACHE)/debug-kernel: run make setup"; exit 1; }
	@mkdir -p $(B)/debug-kmod/module/core/simd $(B)/debug-kmod/module/tests $(B)/debug-kmod/include
	@cp -pu Kbuild $(B)/debug-kmod/
	@cp -pu module/*.[ch] $(B)/debug-kmod/module/
	@cp -pu module/core/*.c module/core/sources.mk $(B)/debug-kmod/module/core/
	@cp -pu module/core/simd/*.[ch] $(B)/debug-kmod/module/core/simd/
	@cp -pu module/tests/*.[ch] $(B)/debug-kmod/module/tests/
	@cp -pu include/*.h $(B)/debug-kmod/include/
	$(MAKE) -C $(DEBUG_KDIR) M=$(CURDIR)/$(B)/debug-kmod modules

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules

CHECKPATCH ?= $(CACHE)/checkpatch/scripts/checkpatch.pl
checkpatch:
	@qemu/setup.sh checkpatch
	$(CHECKPATCH) --no-tree --quiet --strict --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $(filter-out module/atomkms_compat.%,$(wildcard module/*.c module/*.h)) module/core/*.c module/core/simd/*.[ch] module/tests/*.c module/tests/*.h include/*.h
	@# The compat files are where kernel versions are compared, by design.
	$(CHECKPATCH) --no-tree --quiet --strict --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE,CONSTANT_COMPARISON,MACRO_ARG_UNUSED -f module/atomkms_compat.c module/atomkms_compat.h

lint: sparse checkpatch

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(B)

help:
	@echo "make setup      install packages, build the guest rootfs (once)"
	@echo "make            build atomkms.ko (for 6.12) and the userspace tools"
	@echo "make KERNEL=7.3 the same for 7.3 (or 7.2); make run/check-style targets then boot 7.3"
	@echo "make run        boot the guest, show the topology, run the demo"
	@echo "make check      unit tests, guest tests and the CI igt list"
	@echo "make check-debug the debug stage at full length (debug kernel)"
	@echo "make check-limits igt's kms_atomic, kms_plane_multiple, kms_bw, then weston and sway, under each limits preset (PRESETS=...)"
	@echo "make module-debug atomkms.ko for the debug kernel"
	@echo "make clients    weston, sway, kmscube, modetest on atomkms (guest)"
	@echo "make igt LIST=f run an igt list in the guest (default test/igt/ci.list)"
	@echo "make shell      interactive shell in the guest"
	@echo "make lint       sparse and checkpatch on module/"

# The benchmark, not part of check: the compositor core against pixman and
# memcpy natively, then atomkms against upstream vkms in the guest
# (bench/run.sh; BENCH_GUEST=0 skips the guest, BENCH_QUICK=1 samples less).
bench:
	@bench/run.sh

# The compositor core's sources, for scripts (bench/run.sh).
core-srcs:
	@echo $(CORE_SRCS)

# The target kernel's headers, for scripts (bench/kflags.sh).
kdir:
	@echo $(KDIR)

# The atomkms-dkms package (dkms.conf, debian/), built from a copy of only
# what it ships so that every output stays in build/deb. make check-dkms
# (root; also a stage of make check) installs it, loads dkms's module in
# the guest and purges it again (test/dkms.sh).
.PHONY: deb check-dkms
deb:
	rm -rf $(B)/deb
	mkdir -p $(B)/deb/atomkms/module/core/simd $(B)/deb/atomkms/include
	cp -r Kbuild LICENSE dkms.conf dkms-recompress.sh debian $(B)/deb/atomkms/
	cp module/*.[ch] $(B)/deb/atomkms/module/
	cp module/core/*.c module/core/sources.mk $(B)/deb/atomkms/module/core/
	cp module/core/simd/*.[ch] $(B)/deb/atomkms/module/core/simd/
	cp include/*.h $(B)/deb/atomkms/include/
	cd $(B)/deb/atomkms && dpkg-buildpackage -b -us -uc > ../build.log 2>&1 || \
		{ tail -n 30 ../build.log; exit 1; }
	rm -rf $(B)/deb/atomkms
	@ls $(B)/deb/*.deb

check-dkms:
	@test/dkms.sh

# Upstream vkms of KERNEL (6.12 or 7.3) against atomkms through one igt
# list, side by side (test/compare-vkms.sh; not part of check).
.PHONY: compare-vkms
compare-vkms: all
	@test/compare-vkms.sh $(KERNEL) $(LIST)

# Weston's own DRM-backend tests (drm-smoke, drm-writeback-screenshot),
# built once in a trixie chroot in $(CACHE)/weston-build and run in the
# clients image (test/run-weston-tests.sh; not part of check). When the
# archive has no weston source, WESTON_GIT=clone builds upstream's tag.
.PHONY: check-weston
check-weston: module
	@test/run-weston-tests.sh
