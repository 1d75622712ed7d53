// SPDX-License-Identifier: GPL-2.0-only
/*
 * Invariants that do not belong to one operation: the errno set, the
 * kernel log, and property snapshots (TEST_ONLY changes nothing).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

const char *const fail_names[FAIL_KINDS] = {
	[FAIL_NONE] = "none",
	[FAIL_ERRNO] = "errno outside the documented set",
	[FAIL_VERDICT] = "TEST_ONLY verdict differs from the real commit's",
	[FAIL_TEST_CHANGED] = "TEST_ONLY commit changed state",
	[FAIL_EVENT_MISSING] = "requested event missing",
	[FAIL_EVENT_EXTRA] = "event duplicated or never requested",
	[FAIL_FENCE] = "out-fence misbehaved",
	[FAIL_KLOG] = "kernel log not clean",
	[FAIL_SETUP] = "set-up failed",
	[FAIL_CONFIGFS] = "configfs device misbehaved",
};

const char *const stat_names[ST_COUNT] = {
	"planes", "ok", "modeset", "ok", "off", "ok", "colour", "ok",
	"writeback", "ok", "multi-CRTC", "ok",
	"out-fences", "writeback-fences", "in-fences", "unsignalled",
	"leases", "CRC-lines", "flip-events-asked", "vblank-events-asked",
	"configfs-devices", "enabled",
};

void fuzz_fail(struct fuzz *f, int kind, uint64_t op, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&f->fail_lock);
	if (f->fail.kind == FAIL_NONE) {
		f->fail.kind = kind;
		f->fail.op = op;
		va_start(ap, fmt);
		vsnprintf(f->fail.what, sizeof(f->fail.what), fmt, ap);
		va_end(ap);
		f->stop = true;
	}
	pthread_mutex_unlock(&f->fail_lock);
}

/*
 * The errnos atomkms's ioctls (through the DRM core) may answer a client
 * that sends garbage, and why each is fine:
 *   EINVAL   the argument is wrong (most checks);
 *   ENOENT   an object, property, handle or blob id names nothing;
 *   ERANGE   a property value outside its range / enum / bitmask;
 *   EBUSY    a nonblocking commit while one is in flight, master taken,
 *            a lease object already leased, a CRC capture already open;
 *   ENOSPC   out of event space (drm_event_reserve_init), too many ids;
 *   ENOMEM   allocation failure (huge dumb buffers, blobs);
 *   EACCES   not the master (or a lessee outside its lease);
 *   EPERM    a master-only ioctl without the rights (SET_MASTER rules);
 *   EFAULT   a bad user pointer (OUT_FENCE_PTR, blob data);
 *   EAGAIN   nothing to read yet (CRC data, nonblocking event reads);
 *   EINTR    a signal during a wait (we send none, but it is legal);
 *   EOPNOTSUPP/ENOTSUPP (524) an optional feature not there (ASYNC
 *            on a property it cannot change, GETFB2 handles...);
 *   EIO      CRC capture on a CRTC that is off (drm_debugfs_crc);
 *   E2BIG    a blob or count larger than the core accepts;
 *   EOVERFLOW a count that does not fit (getters with short arrays);
 *   ENOSYS   an ioctl the device does not implement (legacy gamma on
 *            a CRTC without one, prime where there is no prime).
 * Anything else (EDEADLK leaking out, ENODEV, EPROTO...) is a bug.
 */
bool errno_ok(int err)
{
	switch (err) {
	case 0:
	case EINVAL: case ENOENT: case ERANGE: case EBUSY: case ENOSPC:
	case ENOMEM: case EACCES: case EPERM: case EFAULT: case EAGAIN:
	case EINTR: case EOPNOTSUPP: case 524 /* ENOTSUPP */: case EIO:
	case E2BIG: case EOVERFLOW: case ENOSYS:
		return true;
	}
	return false;
}

int check_ret(struct fuzz *f, uint64_t op, const char *what, int ret)
{
	if (ret < 0) {
		__atomic_add_fetch(&f->errs, 1, __ATOMIC_RELAXED);
		if (-ret < (int)ARRAY_SIZE(f->errno_count))
			__atomic_add_fetch(&f->errno_count[-ret], 1, __ATOMIC_RELAXED);
		if (!errno_ok(-ret))
			fuzz_fail(f, FAIL_ERRNO, op, "%s: errno %d (%s)", what,
				  -ret, strerror(-ret));
	}
	if (f->verbose)
		fprintf(stderr, "  op %llu: %s -> %d%s%s\n",
			(unsigned long long)op, what, ret, ret < 0 ? " " : "",
			ret < 0 ? strerror(-ret) : "");
	return ret;
}

void klog_open(struct fuzz *f)
{
	f->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->kmsg >= 0)
		lseek(f->kmsg, 0, SEEK_END);
}

/* The guest harness's patterns, minus the expected taint lines. */
static bool klog_bad(const char *s)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "BUG ", "Oops", "general protection",
		"Call Trace", "lockdep", "circular locking",
		"possible recursive locking", "KASAN", "UBSAN", "ODEBUG",
		"blocked for more than", "soft lockup",
		/* A commit whose state was never latched: a lost event. */
		"flip_done timed out", "hw_done timed out",
		"commit wait timed out",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (strstr(s, bad[i]))
			return true;
	return false;
}

void klog_check(struct fuzz *f, uint64_t op)
{
	char buf[2048];
	ssize_t n;

	if (f->kmsg < 0)
		return;
	for (;;) {
		n = read(f->kmsg, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on */
		if (n <= 0)
			return;
		buf[n] = 0;
		if (klog_bad(buf)) {
			char *msg = strchr(buf, ';');

			fuzz_fail(f, FAIL_KLOG, op, "kernel: %s",
				  msg ? msg + 1 : buf);
		}
	}
}

/* Every property value of every KMS object, in topology order. */
struct snapshot {
	int n;
	uint32_t obj[MAX_CRTCS + MAX_PLANES + MAX_CONNS];
	uint32_t count[MAX_CRTCS + MAX_PLANES + MAX_CONNS];
	uint32_t props[MAX_CRTCS + MAX_PLANES + MAX_CONNS][64];
	uint64_t vals[MAX_CRTCS + MAX_PLANES + MAX_CONNS][64];
};

static void snap_obj(struct snapshot *s, int fd, uint32_t id, uint32_t type)
{
	struct drm_mode_obj_get_properties g = {
		.props_ptr = (uintptr_t)s->props[s->n],
		.prop_values_ptr = (uintptr_t)s->vals[s->n],
		.count_props = 64,
		.obj_id = id,
		.obj_type = type,
	};

	if (drmIoctl(fd, DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &g))
		g.count_props = 0;
	s->obj[s->n] = id;
	s->count[s->n] = g.count_props > 64 ? 64 : g.count_props;
	s->n++;
}

struct snapshot *snapshot_take(struct fuzz *f, int fd)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	const struct topo *t = &f->topo;
	int i;

	if (!s)
		return NULL;
	for (i = 0; i < t->ncrtcs; i++)
		snap_obj(s, fd, t->crtcs[i].o.id, DRM_MODE_OBJECT_CRTC);
	for (i = 0; i < t->nplanes; i++)
		snap_obj(s, fd, t->planes[i].o.id, DRM_MODE_OBJECT_PLANE);
	for (i = 0; i < t->nconns; i++)
		snap_obj(s, fd, t->conns[i].o.id, DRM_MODE_OBJECT_CONNECTOR);
	return s;
}

void snapshot_free(struct snapshot *s)
{
	free(s);
}

static const char *prop_name(const struct fuzz *f, uint32_t id)
{
	int i;

	for (i = 0; i < f->topo.nprops; i++)
		if (f->topo.props[i].id == id)
			return f->topo.props[i].name;
	return "?";
}

/*
 * A connector's legacy DPMS follows the hardware: the commit tail of a
 * nonblocking commit still in flight updates it
 * (drm_atomic_helper_update_legacy_modeset_state()), whatever a TEST_ONLY
 * commit does meanwhile. Not state: left out of the comparison.
 */
static bool prop_async(const struct fuzz *f, uint32_t id)
{
	return !strcmp(prop_name(f, id), "DPMS");
}

void snapshot_cmp(struct fuzz *f, uint64_t op, struct snapshot *a,
		  struct snapshot *b, const char *what)
{
	int i;
	uint32_t j;

	if (!a || !b)
		return;
	for (i = 0; i < a->n && i < b->n; i++) {
		if (a->count[i] != b->count[i]) {
			fuzz_fail(f, FAIL_TEST_CHANGED, op,
				  "%s: object %u has %u properties, had %u",
				  what, a->obj[i], b->count[i], a->count[i]);
			return;
		}
		for (j = 0; j < a->count[i]; j++) {
			if (a->props[i][j] == b->props[i][j] &&
			    prop_async(f, a->props[i][j]))
				continue;
			if (a->props[i][j] != b->props[i][j] ||
			    a->vals[i][j] != b->vals[i][j]) {
				fuzz_fail(f, FAIL_TEST_CHANGED, op,
					  "%s: object %u property %u (%s): %llu -> %llu",
					  what, a->obj[i], a->props[i][j],
					  prop_name(f, a->props[i][j]),
					  (unsigned long long)a->vals[i][j],
					  (unsigned long long)b->vals[i][j]);
				return;
			}
		}
	}
}
