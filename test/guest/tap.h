/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every guest test prints: "ok - what" or "not ok - what: detail"
 * per check (TAP-like), counted in @failures for the closing
 * "NAME: PASS" or "NAME: FAIL" line.
 */
#ifndef ATOMKMS_TAP_H
#define ATOMKMS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* A test in several files defines TAP_EXTERN_FAILURES and one count. */
#ifdef TAP_EXTERN_FAILURES
extern int failures;
#else
static int failures;
#endif

static inline bool check(bool ok, const char *what, const char *detail)
{
	if (ok) {
		printf("ok - %s\n", what);
	} else {
		printf("not ok - %s: %s\n", what, detail);
		failures++;
	}
	fflush(stdout);
	return ok;
}

/* printf into one of a few static buffers, for check() arguments. */
static inline const char *sf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline const char *sf(const char *fmt, ...)
{
	static char buf[16][256];
	static unsigned int next;
	char *s = buf[next++ % 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(buf[0]), fmt, ap);
	va_end(ap);
	return s;
}

/* The closing "NAME: PASS" or "NAME: FAIL" line; main()'s exit status. */
static inline int tap_done(const char *name)
{
	printf("%s: %s\n", name, failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}

#endif /* ATOMKMS_TAP_H */
