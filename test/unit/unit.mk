# SPDX-License-Identifier: GPL-2.0-only
#
# Unit tests of the compositor core (CORE_SRCS: module/core/sources.mk),
# built unchanged against include/, with the reference compositor
# test/unit/ref_compose.c. Included from the top Makefile; adds its
# binaries to UNITS.

COMPOSE_SRCS := $(CORE_SRCS) test/unit/ref_compose.c
COMPOSE_DEPS := $(COMPOSE_SRCS) $(wildcard include/atomkms_*.h) \
	test/unit/check.h test/unit/ref_compose.h test/unit/unit.mk
COMPOSE_UNITS := $(addprefix $(B)/unit/,test_formats test_compose \
	test_compose_random test_compose_guard test_compose_bands)
COMPOSE_PIXMAN_UNITS := $(B)/unit/test_compose_pixman
PIXMAN_CFLAGS := $(shell pkg-config --cflags pixman-1 2>/dev/null)
PIXMAN_LIBS := $(shell pkg-config --libs pixman-1 2>/dev/null)

# sort: the top Makefile's test_*.c wildcard may list them already.
UNITS := $(sort $(UNITS) $(COMPOSE_UNITS) $(COMPOSE_PIXMAN_UNITS))

$(COMPOSE_UNITS): $(B)/unit/%: test/unit/%.c $(COMPOSE_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -Iinclude -Itest/unit -o $@ $< $(COMPOSE_SRCS) -lm

$(COMPOSE_PIXMAN_UNITS): $(B)/unit/%: test/unit/%.c $(COMPOSE_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PIXMAN_CFLAGS) -Iinclude -Itest/unit -o $@ $< \
		$(COMPOSE_SRCS) $(PIXMAN_LIBS) -pthread -lm
