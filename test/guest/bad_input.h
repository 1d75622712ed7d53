/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-bad-input's shared part (bad_input.c): the device's inventory (the
 * pipes, every CRTC, connector and plane with its properties), the
 * framebuffers and blobs the cases throw, the watchdog, the expectations
 * and their counts. The cases are in bad_input_*.c, one file a concern,
 * and test-bad-input.c runs them in turn.
 */
#ifndef ATOMKMS_BAD_INPUT_H
#define ATOMKMS_BAD_INPUT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"
/* One count of failures for the whole program (bad_input.c has it). */
#define TAP_EXTERN_FAILURES
#include "tap.h"

#ifndef DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP
#define DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP	0x15
#endif

#define MAX_PIPES	16
#define MAX_OBJS	128
#define MAX_PROPS	64
#define BOGUS_ID	0x7ffffff0u
#define WATCHDOG_S	20
#define EVENT_TIMEOUT_MS 1000

/* Expectations besides a specific result (0 or -errno). */
#define EXPECT_FAIL	1000	/* any negative errno */
#define EXPECT_ANY	1001	/* must return, either way */

struct prop_ent {
	uint32_t id;
	drmModePropertyRes *p;
	uint64_t cur;		/* value when the test started */
};

struct object {
	uint32_t id, type;
	int nprops;
	struct prop_ent props[MAX_PROPS];
	int ptype;		/* plane type, -1 for others */
	uint32_t possible_crtcs;
};

struct bad_input {
	int fd;
	int npipes;
	struct kms_pipe pipe[MAX_PIPES];
	uint32_t cursor[MAX_PIPES];
	drmModeRes *res;
	drmModePlaneRes *pres;
	int nobj;
	struct object obj[MAX_OBJS];

	struct dumb_fb fb[2];		/* pipe 0's mode */
	struct dumb_fb small;		/* 64x64 */
	struct dumb_fb big;		/* the largest mode, or none */
	struct fmt_fb rgb565;		/* pipe 0's mode in RGB565 */
	uint32_t mode_blob[MAX_PIPES];
	uint32_t alt_blob;		/* 640x480 or another mode */
	uint32_t bad_blob[4];		/* modes that convert_umode rejects */
	uint32_t short_blob;		/* 67 bytes */
	uint32_t damage_blob;		/* one valid clip */
	uint32_t bad_damage_blob;	/* clip with x1 > x2 */
	uint32_t other_blob;		/* a blob the kernel made (IN_FORMATS) */
	bool async_cap;

	int32_t fence;			/* OUT_FENCE_PTR target */
	unsigned int events;
	unsigned int event_seq;
};

extern struct bad_input g;
/* Results by errno (0: success), of the fixed cases and the random ones. */
extern unsigned long hist_fixed[134], hist_random[134];
extern unsigned long *hist;		/* the one counting now */

#define TEST	(DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET)

/* Output: "0" or "-EINVAL"; count a result; print a histogram. */
const char *ename(int ret);
void count(int ret);
void print_hist(const char *what, const unsigned long *h);

/* The watchdog: every call between arm() and disarm() has 20 s. */
void on_alarm(int sig);
void arm(const char *op);
void disarm(void);

/* Check @ret against @want (0, -errno, EXPECT_*) and count it. */
bool expect(int ret, int want, const char *what);

/* Can any encoder of @conn be driven by the CRTC with index @crtc_idx? */
bool conn_reaches_crtc(uint32_t conn, unsigned int crtc_idx);
/* Page-flip events land in g.events and g.event_seq. */
extern drmEventContext evctx;
void drain(int ms);

/* Commit @r under the watchdog, then finish it. */
int commit(struct areq *r, uint32_t flags, const char *what);
/* One property, TEST_ONLY, straight to the kernel. */
int try1(uint32_t obj, uint32_t prop, uint64_t val, const char *what);
uint32_t pid(uint32_t obj, uint32_t type, const char *name);
int disable_all(const char *what);
int pipe0_on(void);
int all_pipes_on(void);

struct prop_ent *find_prop(struct object *o, const char *name);
uint32_t make_blob(const void *data, size_t len);
/* The inventory, framebuffers and blobs; 0 or -1 after a failed check. */
int setup(void);

/* The cases, by concern. */
void test_object_ids(void);	/* bad_input_props.c */
void test_prop_values(void);
void test_fences(void);
void test_blobs(void);		/* bad_input_blobs.c */
void test_modes(void);
void test_plane_crtc(void);	/* bad_input_planes.c */
void test_rects(void);
void test_atomic_ioctl(void);	/* bad_input_ioctls.c */
void test_setcrtc(void);
void test_page_flip(void);
void test_cursor(void);
void test_misc_ioctls(void);
extern uint64_t rng_state;	/* bad_input_random.c */
void test_random(unsigned long n);

#endif /* ATOMKMS_BAD_INPUT_H */
