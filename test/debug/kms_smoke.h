/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers the debug stage's guest programs share (fault-inject.c,
 * lifecycle.c), header-only because the Makefile builds each
 * test/debug/X.c with drmutil.c alone:
 *
 *   kms_smoke()    the short proof that a device works: a mode set, page
 *                  flips with events, one CRC read;
 *   kmsg_*()       a reader of the kernel log from where it was opened,
 *                  which reports the lines of a kernel problem (the same
 *                  words qemu/run-guest.sh fails a run on, and DRM's
 *                  "... timed out" errors of a commit that never
 *                  completed), so that a report is tied to the step that
 *                  caused it;
 *   ko_load() and ko_unload()   init_module(2) and delete_module(2).
 */
#ifndef ATOMKMS_KMS_SMOKE_H
#define ATOMKMS_KMS_SMOKE_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"

/* --- the kernel log ------------------------------------------------ */

/* The detail log (--log), or NULL: note() writes a line there, at once. */
static FILE *detail;

static inline void note(const char *fmt, ...)
{
	va_list ap;

	if (!detail)
		return;
	va_start(ap, fmt);
	vfprintf(detail, fmt, ap);
	va_end(ap);
	fflush(detail);
}

/* Why the last check failed: fail_why() sets it and returns -1. */
static char why[256];

static inline int fail_why(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return -1;
}

static int kmsg_fd = -1;

/* Read the kernel log from now on (records already there are skipped). */
static inline int kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd < 0)
		return -errno;
	lseek(kmsg_fd, 0, SEEK_END);
	return 0;
}

/* A kernel problem: what run-guest.sh's check fails a run on. */
static inline bool kmsg_bad(const char *msg)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "BUG ", "Oops", "general protection",
		"Call Trace", "lockdep", "circular locking",
		"possible recursive locking", "soft lockup", "hard LOCKUP",
		"self-detected", "rcu: INFO", "blocked for more than",
		"UBSAN", "ODEBUG", "KASAN", "unreferenced object",
		"page allocation failure", "vmalloc error",
		"tainting kernel", "taints kernel", "debug_locks",
		/* DRM's 10 s waits for a commit: a lost flip_done. */
		"timed out",
	};
	unsigned int i;

	if (strstr(msg, "loading out-of-tree module taints kernel") ||
	    strstr(msg, "module verification failed"))
		return false;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (strstr(msg, bad[i]))
			return true;
	return false;
}

/*
 * Read what the kernel logged since the last call. Returns how many
 * lines were bad; the first one is copied to @first (if not NULL).
 * @injected counts "FAULT_INJECTION: forcing a failure" notices.
 */
static inline int kmsg_scan(char *first, size_t len, int *injected)
{
	char rec[2048];
	int nbad = 0;
	ssize_t n;

	if (first && len)
		first[0] = 0;
	if (kmsg_fd < 0)
		return 0;
	for (;;) {
		char *msg, *nl;

		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0) {
			if (errno == EPIPE)	/* overwritten: go on */
				continue;
			break;
		}
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		if (injected && strstr(msg, "FAULT_INJECTION: forcing a failure"))
			(*injected)++;
		if (!kmsg_bad(msg))
			continue;
		if (!nbad && first)
			snprintf(first, len, "%.240s", msg);
		nbad++;
	}
	return nbad;
}

/* --- the module ------------------------------------------------------ */

static inline int ko_read(const char *path, void **image, size_t *len)
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	*len = st.st_size;
	*image = malloc(*len);
	n = *image ? read(fd, *image, *len) : -1;
	close(fd);
	if (n != (ssize_t)*len) {
		free(*image);
		return -EIO;
	}
	return 0;
}

/*
 * init_module(2) from a copy in memory: the kernel copies it with
 * __GFP_NOWARN, where finit_module(2)'s read of the file is a vmalloc()
 * whose failure prints a stack (warn_alloc) that no driver could avoid.
 */
static inline int ko_load(const void *image, size_t len, const char *params)
{
	return syscall(SYS_init_module, image, len, params) ? -errno : 0;
}

/* delete_module(2), not waiting: -EWOULDBLOCK (-EAGAIN) while in use. */
static inline int ko_unload(void)
{
	return syscall(SYS_delete_module, "atomkms", O_NONBLOCK) ? -errno : 0;
}

static inline bool ko_loaded(void)
{
	return access("/sys/module/atomkms", F_OK) == 0;
}

/*
 * Unload, waiting up to @ms for the last users to go (out-fences are let
 * go by a reaper a tenth of a second after their last user).
 */
static inline int ko_unload_wait(int ms)
{
	double end = mono_now() + ms / 1000.0;
	int ret;

	for (;;) {
		ret = ko_unload();
		if (ret != -EAGAIN && ret != -EBUSY)
			return ret;
		if (mono_now() > end)
			return ret;
		usleep(20000);
	}
}

/* --- the smoke test ---------------------------------------------------- */

static void smoke_flip_handler(int fd, unsigned int seq, unsigned int sec,
			       unsigned int usec, void *data)
{
	(void)fd; (void)seq; (void)sec; (void)usec;
	(*(unsigned int *)data)++;
}

/*
 * Open the atomkms device, set its first pipe's preferred mode, flip
 * @flips times between two framebuffers with events (each must come
 * within a second), read one CRC of a frame after the flips, switch off.
 * Returns 0, or -1 after saying why in @why.
 */
static inline int kms_smoke(int flips, char *why, size_t len)
{
	drmEventContext ev = {
		.version = 2,
		.page_flip_handler = smoke_flip_handler,
	};
	struct crc_reader crc = { .data = -1 };
	struct dumb_fb fb[2] = { 0 };
	struct crc_entry e;
	struct kms_pipe p;
	struct areq *r = NULL;
	uint32_t blob = 0, seq;
	unsigned int events = 0, want;
	int fd, i, ret = -1;

	why[0] = 0;
	fd = atomkms_open();
	if (fd < 0) {
		snprintf(why, len, "no atomkms device");
		return -1;
	}
	if (kms_pipe_find(fd, &p)) {
		snprintf(why, len, "no pipe");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		if (dumb_fb_create(fd, p.mode.hdisplay, p.mode.vdisplay, &fb[i])) {
			snprintf(why, len, "dumb fb: %s", strerror(errno));
			goto out;
		}
		memset(fb[i].pixels, i ? 0x40 : 0xc0, fb[i].size);
	}
	if (drmModeCreatePropertyBlob(fd, &p.mode, sizeof(p.mode), &blob)) {
		snprintf(why, len, "mode blob: %s", strerror(errno));
		goto out;
	}
	r = calloc(1, sizeof(*r));
	areq_init(r, fd);
	areq_modeset(r, &p, blob, &fb[0]);
	ret = areq_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (ret) {
		snprintf(why, len, "mode set: %s", strerror(-ret));
		ret = -1;
		goto out;
	}
	ret = -1;
	for (i = 1; i <= flips; i++) {
		int err;

		areq_init(r, fd);
		areq_plane(r, p.plane, p.crtc, fb[i & 1].fb_id,
			   p.mode.hdisplay, p.mode.vdisplay, 0, 0);
		err = areq_commit(r, DRM_MODE_ATOMIC_NONBLOCK |
				  DRM_MODE_PAGE_FLIP_EVENT, &events);
		if (err) {
			snprintf(why, len, "flip %d: %s", i, strerror(-err));
			goto off;
		}
		want = i;
		while (events < want)
			if (wait_event(fd, &ev, 1000) <= 0) {
				snprintf(why, len, "flip %d: no event within 1 s", i);
				goto off;
			}
	}
	if (crc_reader_init(&crc, fd, p.crtc_idx) ||
	    crc_reader_start(&crc)) {
		snprintf(why, len, "CRC start: %s", strerror(errno));
		goto off;
	}
	if (vblank_count(fd, p.crtc_idx, &seq) ||
	    crc_reader_next_after(&crc, seq, &e, 3000)) {
		snprintf(why, len, "no CRC within 3 s");
		goto off;
	}
	ret = 0;
off:
	crc_reader_stop(&crc);
	if (kms_disable_all(fd) && !ret) {
		snprintf(why, len, "switching off: %s", strerror(errno));
		ret = -1;
	}
out:
	free(r);
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	for (i = 0; i < 2; i++)
		if (fb[i].fb_id)
			dumb_fb_destroy(fd, &fb[i]);
	close(fd);
	return ret;
}

#endif /* ATOMKMS_KMS_SMOKE_H */
