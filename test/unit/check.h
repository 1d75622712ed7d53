/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A minimal assertion harness for the userspace unit tests: each CHECK
 * prints "ok"/"not ok" TAP-style, and check_done() prints the counts and
 * returns the exit status.
 */
#ifndef ATOMKMS_TEST_CHECK_H
#define ATOMKMS_TEST_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		check_passed++;						\
	} else {							\
		check_failed++;						\
		printf("not ok - %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif /* ATOMKMS_TEST_CHECK_H */
