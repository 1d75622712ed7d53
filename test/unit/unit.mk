# SPDX-License-Identifier: GPL-2.0-only
#
# Unit tests of the compositor core (CORE_SRCS: module/core/sources.mk),
# built unchanged against include/, with the reference compositor
# test/unit/ref_compose.c. Included from the top Makefile; adds its
# binaries to UNITS.

COMPOSE_SRCS := $(CORE_SRCS) test/unit/ref_compose.c
# The vector line loops (module/core/sources.mk's ATOMKMS_SIMD), x86-64
# only, each compiled alone with its own flags, as Kbuild does.
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
SIMD_OBJS := $(patsubst %,$(B)/unit/simd/atomkms_simd_%.o,$(ATOMKMS_SIMD))
SIMD_CFLAGS := -DATOMKMS_TEST_SIMD
endif

$(B)/unit/simd/atomkms_simd_%.o: module/core/simd/atomkms_simd_%.c \
		module/core/simd/atomkms_simd_lines.h \
		module/core/simd/atomkms_simd_yuv.h $(wildcard include/atomkms_*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ATOMKMS_SIMD_CFLAGS_$*) -Iinclude -c -o $@ $<
COMPOSE_DEPS := $(COMPOSE_SRCS) $(wildcard include/atomkms_*.h) \
	module/core/simd/atomkms_simd_yuv.h \
	test/unit/check.h test/unit/ref_compose.h test/unit/unit.mk
COMPOSE_UNITS := $(addprefix $(B)/unit/,test_formats test_compose \
	test_compose_random test_compose_guard test_simd test_simd_yuv test_fit \
	test_compose_bands)
COMPOSE_PIXMAN_UNITS := $(B)/unit/test_compose_pixman
PIXMAN_CFLAGS := $(shell pkg-config --cflags pixman-1 2>/dev/null)
PIXMAN_LIBS := $(shell pkg-config --libs pixman-1 2>/dev/null)

# sort: the top Makefile's test_*.c wildcard may list them already.
UNITS := $(sort $(UNITS) $(COMPOSE_UNITS) $(COMPOSE_PIXMAN_UNITS))

$(COMPOSE_UNITS): $(B)/unit/%: test/unit/%.c $(COMPOSE_DEPS) $(SIMD_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIMD_CFLAGS) -pthread -Iinclude -Itest/unit -o $@ $< \
		$(COMPOSE_SRCS) $(SIMD_OBJS) -lm

$(COMPOSE_PIXMAN_UNITS): $(B)/unit/%: test/unit/%.c $(COMPOSE_DEPS) $(SIMD_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIMD_CFLAGS) $(PIXMAN_CFLAGS) -Iinclude -Itest/unit -o $@ $< \
		$(COMPOSE_SRCS) $(SIMD_OBJS) $(PIXMAN_LIBS) -pthread -lm
