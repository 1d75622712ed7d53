// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input - garbage thrown at atomkms through every KMS entry point.
 *
 * Seeded and reproducible (the seed is printed; -s SEED reruns it). First
 * a fixed list: invalid object ids (0, huge, objects of the wrong type),
 * properties that do not belong to the object, out-of-range values for
 * every range, enum and bitmask property the device exposes (rotation 0
 * and 0x7fff, alpha > 0xffff, zpos out of range... whatever exists),
 * wrong-type values for every blob and object property, blobs of the wrong
 * size (MODE_ID, GAMMA_LUT, DEGAMMA_LUT, CTM, FB_DAMAGE_CLIPS), a 64 MiB
 * blob, malformed modes, plane/CRTC mismatches, source and destination
 * rectangles out of range, and raw ioctls with garbage (ATOMIC with huge
 * counts and NULL pointers, SETCRTC with bogus connector lists, CURSOR with
 * huge sizes, PAGE_FLIP on a disabled CRTC, blob and framebuffer ioctls).
 * Where the core or the driver defines the errno, the test asserts it;
 * elsewhere it only requires a failure. Then thousands of random atomic
 * requests built from the real objects and properties, with values biased
 * to the edges: mostly TEST_ONLY, some real commits, some nonblocking, a
 * few with events. A request holding an item that is invalid whatever the
 * state must fail. Every call runs under an alarm() watchdog: a hang fails
 * the test. Results are counted per errno. Finally the driver must still
 * work: a modeset and 10 page flips with events.
 *
 * Usage: test-bad-input [-s SEED] [-n RANDOM_REQUESTS]   (default 1, 5000)
 */
#define _GNU_SOURCE
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

struct fbuf {
	uint32_t width, height, format;
	uint32_t handle, fb_id;
};

static struct {
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
	struct fbuf rgb565;		/* pipe 0's mode in RGB565 */
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
} g;

static unsigned long hist_fixed[134], hist_random[134];
static unsigned long *hist = hist_fixed;

/* ---- output ---- */

/* "0" or "-EINVAL". */
static const char *ename(int ret)
{
	const char *n;

	if (ret >= 0)
		return ret ? sf("%d", ret) : "0";
	n = strerrorname_np(-ret);
	return n ? sf("-%s", n) : sf("-%d", -ret);
}

static void count(int ret)
{
	int e = ret < 0 ? -ret : 0;

	if (e >= (int)ARRAY_SIZE(hist_fixed) - 1)
		e = ARRAY_SIZE(hist_fixed) - 1;
	hist[e]++;
}

static void print_hist(const char *what, const unsigned long *h)
{
	char line[1024];
	size_t len = 0;
	unsigned int e;

	len += snprintf(line + len, sizeof(line) - len, "# %s:", what);
	for (e = 0; e < ARRAY_SIZE(hist_fixed); e++) {
		if (!h[e])
			continue;
		len += snprintf(line + len, sizeof(line) - len, " %s %lu",
				e ? ename(-(int)e) + 1 : "success", h[e]);
		if (len >= sizeof(line))
			break;
	}
	printf("%s\n", line);
}

/* ---- watchdog ---- */

static char cur_op[256];

static void on_alarm(int sig)
{
	static const char a[] = "not ok - watchdog: ";
	static const char b[] = " did not return within 20 s\ntest-bad-input: FAIL\n";
	ssize_t r;

	(void)sig;
	r = write(1, a, sizeof(a) - 1);
	r = write(1, cur_op, strnlen(cur_op, sizeof(cur_op)));
	r = write(1, b, sizeof(b) - 1);
	(void)r;
	_exit(1);
}

static void arm(const char *op)
{
	snprintf(cur_op, sizeof(cur_op), "%s", op);
	alarm(WATCHDOG_S);
}

static void disarm(void)
{
	alarm(0);
}

/* ---- results ---- */

/* Check @ret against @want and count it. */
static bool expect(int ret, int want, const char *what)
{
	count(ret);
	if (want == EXPECT_ANY) {
		printf("# %s: %s\n", what, ename(ret));
		return true;
	}
	if (want == EXPECT_FAIL)
		return check(ret < 0, sf("%s fails", what), "succeeded");
	if (want == 0)
		return check(ret == 0, sf("%s succeeds", what), ename(ret));
	return check(ret == want, sf("%s fails %s", what, ename(want)),
		     sf("got %s", ename(ret)));
}

/* ---- events ---- */

/* Can any encoder of @conn be driven by the CRTC with index @crtc_idx? */
static bool conn_reaches_crtc(uint32_t conn, unsigned int crtc_idx)
{
	drmModeConnector *c = drmModeGetConnector(g.fd, conn);
	bool reach = false;
	int i;

	for (i = 0; c && i < c->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(g.fd, c->encoders[i]);

		if (e && (e->possible_crtcs & (1u << crtc_idx)))
			reach = true;
		drmModeFreeEncoder(e);
	}
	drmModeFreeConnector(c);
	return reach;
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	(void)fd;
	(void)tv_sec;
	(void)tv_usec;
	(void)crtc_id;
	(void)data;
	g.events++;
	g.event_seq = seq;
}

static drmEventContext evctx = {
	.version = DRM_EVENT_CONTEXT_VERSION,
	.page_flip_handler2 = flip_handler,
};

static void drain(int ms)
{
	arm("reading events");
	while (wait_event(g.fd, &evctx, ms) > 0)
		ms = 0;
	disarm();
}

/* ---- building requests ---- */

#define MAX_ITEMS	32

/* A request as the ioctl takes it: objects in order, their properties. */
struct raw_req {
	unsigned int nobj, nitems;
	uint32_t objs[MAX_ITEMS], counts[MAX_ITEMS];
	uint32_t props[MAX_ITEMS];
	uint64_t vals[MAX_ITEMS];
};

static void raw_add(struct raw_req *q, uint32_t obj, uint32_t prop,
		    uint64_t val)
{
	if (q->nitems == MAX_ITEMS)
		return;
	if (!q->nobj || q->objs[q->nobj - 1] != obj) {
		q->objs[q->nobj] = obj;
		q->counts[q->nobj] = 0;
		q->nobj++;
	}
	q->counts[q->nobj - 1]++;
	q->props[q->nitems] = prop;
	q->vals[q->nitems] = val;
	q->nitems++;
}

/* DRM_IOCTL_MODE_ATOMIC without libdrm, which refuses ids of 0 itself. */
static int raw_commit(const struct raw_req *q, uint32_t flags)
{
	struct drm_mode_atomic a = {
		.flags = flags,
		.count_objs = q->nobj,
		.objs_ptr = (uintptr_t)q->objs,
		.count_props_ptr = (uintptr_t)q->counts,
		.props_ptr = (uintptr_t)q->props,
		.prop_values_ptr = (uintptr_t)q->vals,
	};

	return drmIoctl(g.fd, DRM_IOCTL_MODE_ATOMIC, &a) ? -errno : 0;
}


static int commit(struct areq *r, uint32_t flags, const char *what)
{
	int ret;

	arm(what);
	ret = areq_commit(r, flags, NULL);
	disarm();
	areq_fini(r);
	return ret;
}

static const uint32_t TEST = DRM_MODE_ATOMIC_TEST_ONLY |
			     DRM_MODE_ATOMIC_ALLOW_MODESET;

/* One property, TEST_ONLY, straight to the kernel. */
static int try1(uint32_t obj, uint32_t prop, uint64_t val, const char *what)
{
	struct raw_req q = { 0 };
	int ret;

	raw_add(&q, obj, prop, val);
	arm(what);
	ret = raw_commit(&q, TEST);
	disarm();
	return ret;
}

static uint32_t pid(uint32_t obj, uint32_t type, const char *name)
{
	return prop_id(g.fd, obj, type, name);
}

static void add_modeset(struct areq *r, int pipe, uint32_t blob,
			const struct dumb_fb *fb)
{
	const struct kms_pipe *p = &g.pipe[pipe];

	if (fb) {
		areq_modeset(r, p, blob, fb);
		return;
	}
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	areq_add(r, p->conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", p->crtc);
}

static void add_plane(struct areq *r, uint32_t plane, uint32_t crtc,
		      uint32_t fb_id, uint32_t w, uint32_t h)
{
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_id);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
}

static int disable_all(const char *what)
{
	int ret;

	arm(what);
	ret = kms_disable_all(g.fd);
	disarm();
	return ret;
}

/* Pipe 0 on with fb[0], for a real commit; 0 or -errno. */
static int pipe0_on(void)
{
	struct areq r;

	areq_init(&r, g.fd);
	add_modeset(&r, 0, g.mode_blob[0], &g.fb[0]);
	return commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "modeset pipe 0");
}

/* Every pipe on with its mode, fb[0] where it fits; 0 or -errno. */
static int all_pipes_on(void)
{
	struct areq r;
	int i;

	areq_init(&r, g.fd);
	for (i = 0; i < g.npipes; i++)
		add_modeset(&r, i, g.mode_blob[i],
			    g.pipe[i].mode.hdisplay == g.fb[0].width &&
			    g.pipe[i].mode.vdisplay == g.fb[0].height ?
			    &g.fb[0] : NULL);
	return commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "all pipes on");
}

/* ---- setup ---- */

static void add_object(uint32_t id, uint32_t type)
{
	drmModeObjectProperties *props;
	struct object *o;
	uint32_t i;

	if (g.nobj == MAX_OBJS)
		return;
	o = &g.obj[g.nobj++];
	o->id = id;
	o->type = type;
	o->ptype = -1;
	props = drmModeObjectGetProperties(g.fd, id, type);
	for (i = 0; props && i < props->count_props && i < MAX_PROPS; i++) {
		struct prop_ent *e = &o->props[o->nprops];

		e->id = props->props[i];
		e->cur = props->prop_values[i];
		e->p = drmModeGetProperty(g.fd, e->id);
		if (e->p)
			o->nprops++;
	}
	drmModeFreeObjectProperties(props);
	if (type == DRM_MODE_OBJECT_PLANE) {
		drmModePlane *pl = drmModeGetPlane(g.fd, id);

		o->ptype = plane_type(g.fd, id);
		o->possible_crtcs = pl ? pl->possible_crtcs : 0;
		drmModeFreePlane(pl);
	}
}

static struct prop_ent *find_prop(struct object *o, const char *name)
{
	int i;

	for (i = 0; i < o->nprops; i++)
		if (!strcmp(o->props[i].p->name, name))
			return &o->props[i];
	return NULL;
}

static int make_fb(uint32_t w, uint32_t h, uint32_t bpp, uint32_t format,
		   struct fbuf *f)
{
	struct drm_mode_create_dumb create = {
		.width = w, .height = h, .bpp = bpp,
	};
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	memset(f, 0, sizeof(*f));
	if (drmIoctl(g.fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	f->handle = create.handle;
	handles[0] = create.handle;
	pitches[0] = create.pitch;
	if (drmModeAddFB2(g.fd, w, h, format, handles, pitches, offsets,
			  &f->fb_id, 0))
		return -errno;
	f->width = w;
	f->height = h;
	f->format = format;
	return 0;
}

static uint32_t make_blob(const void *data, size_t len)
{
	uint32_t id = 0;

	if (drmModeCreatePropertyBlob(g.fd, data, len, &id))
		return 0;
	return id;
}

static int setup(void)
{
	drmModeConnector *conn;
	drmModeModeInfo m, big = { 0 };
	struct drm_mode_rect clip;
	struct object *o;
	int i, k, ret;
	uint64_t cap = 0;

	g.npipes = kms_pipes_find(g.fd, g.pipe, MAX_PIPES);
	if (!check(g.npipes >= 1, "find connector/crtc pairs", "see stderr"))
		return -1;
	g.res = drmModeGetResources(g.fd);
	g.pres = drmModeGetPlaneResources(g.fd);
	if (!check(g.res && g.pres, "get resources", strerror(errno)))
		return -1;
	/* Earlier clients may have left rotation, LUTs... behind. */
	arm("reset everything");
	ret = kms_reset_all(g.fd);
	disarm();
	if (!check(!ret, "start with everything off and default properties",
		   ename(ret)))
		return -1;

	for (i = 0; i < g.res->count_crtcs; i++)
		add_object(g.res->crtcs[i], DRM_MODE_OBJECT_CRTC);
	for (i = 0; i < g.res->count_connectors; i++)
		add_object(g.res->connectors[i], DRM_MODE_OBJECT_CONNECTOR);
	for (i = 0; i < (int)g.pres->count_planes; i++)
		add_object(g.pres->planes[i], DRM_MODE_OBJECT_PLANE);

	for (i = 0; i < g.npipes; i++) {
		for (k = 0; k < g.nobj; k++) {
			o = &g.obj[k];
			if (o->type == DRM_MODE_OBJECT_PLANE &&
			    o->ptype == DRM_PLANE_TYPE_CURSOR &&
			    o->possible_crtcs == (1u << g.pipe[i].crtc_idx) &&
			    !g.cursor[i])
				g.cursor[i] = o->id;
		}
		g.mode_blob[i] = make_blob(&g.pipe[i].mode,
					   sizeof(g.pipe[i].mode));
		printf("# pipe %d: connector %u crtc %u primary %u cursor %u, %s\n",
		       i, g.pipe[i].conn, g.pipe[i].crtc, g.pipe[i].plane,
		       g.cursor[i], g.pipe[i].mode.name);
	}

	conn = drmModeGetConnector(g.fd, g.pipe[0].conn);
	m = g.pipe[0].mode;
	for (k = 0; conn && k < conn->count_modes; k++) {
		const drmModeModeInfo *c = &conn->modes[k];

		if (c->hdisplay == 640 && c->vdisplay == 480)
			m = *c;
		if ((uint32_t)c->hdisplay * c->vdisplay >
		    (uint32_t)big.hdisplay * big.vdisplay)
			big = *c;
	}
	drmModeFreeConnector(conn);
	g.alt_blob = make_blob(&m, sizeof(m));

	for (i = 0; i < 2; i++) {
		ret = dumb_fb_create(g.fd, g.pipe[0].mode.hdisplay,
				     g.pipe[0].mode.vdisplay, &g.fb[i]);
		if (!check(!ret, sf("create framebuffer %d", i), ename(ret)))
			return -1;
	}
	ret = dumb_fb_create(g.fd, 64, 64, &g.small);
	if (!check(!ret, "create 64x64 framebuffer", ename(ret)))
		return -1;
	if (big.hdisplay)
		dumb_fb_create(g.fd, big.hdisplay, big.vdisplay, &g.big);
	ret = make_fb(g.pipe[0].mode.hdisplay, g.pipe[0].mode.vdisplay, 16,
		      DRM_FORMAT_RGB565, &g.rgb565);
	if (!check(!ret, "create RGB565 framebuffer", ename(ret)))
		return -1;

	m = g.pipe[0].mode;
	m.clock = 0;
	g.bad_blob[0] = make_blob(&m, sizeof(m));
	m = g.pipe[0].mode;
	m.htotal = m.hdisplay - 1;
	g.bad_blob[1] = make_blob(&m, sizeof(m));
	m = g.pipe[0].mode;
	m.vrefresh = UINT_MAX;
	g.bad_blob[2] = make_blob(&m, sizeof(m));
	m = g.pipe[0].mode;
	m.hdisplay = 0;
	g.bad_blob[3] = make_blob(&m, sizeof(m));
	g.short_blob = make_blob(&g.pipe[0].mode, sizeof(m) - 1);

	clip = (struct drm_mode_rect){ 0, 0, 64, 64 };
	g.damage_blob = make_blob(&clip, sizeof(clip));
	clip = (struct drm_mode_rect){ 20, 0, 10, 64 };	/* x1 > x2 */
	g.bad_damage_blob = make_blob(&clip, sizeof(clip));

	for (k = 0; k < g.nobj; k++) {
		struct prop_ent *e = find_prop(&g.obj[k], "IN_FORMATS");

		if (e && e->cur) {
			g.other_blob = e->cur;
			break;
		}
	}
	if (!check(g.alt_blob && g.bad_blob[0] && g.bad_blob[1] &&
		   g.bad_blob[2] && g.bad_blob[3] && g.short_blob &&
		   g.damage_blob && g.bad_damage_blob && g.mode_blob[0],
		   "create property blobs", strerror(errno)))
		return -1;

	g.async_cap = !drmGetCap(g.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP, &cap) &&
		      cap;
	printf("# %d objects, atomic async flips %s\n", g.nobj,
	       g.async_cap ? "supported" : "not supported");
	return 0;
}

/* ---- fixed cases ---- */

static void test_object_ids(void)
{
	uint32_t crtc = g.pipe[0].crtc, plane = g.pipe[0].plane;
	uint32_t conn = g.pipe[0].conn;
	uint32_t active = pid(crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	uint32_t mode_id = pid(crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID");
	uint32_t fb_id = pid(plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	uint32_t pcrtc = pid(plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID");
	uint32_t ccrtc = pid(conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
	uint32_t enc = g.res->count_encoders ? g.res->encoders[0] : BOGUS_ID;
	const char *w;

	printf("# invalid object ids\n");
	w = "ACTIVE on object id 0";
	expect(try1(0, active, 0, w), -ENOENT, w);
	w = "ACTIVE on object id 0xffffffff";
	expect(try1(0xffffffffu, active, 0, w), -ENOENT, w);
	w = "ACTIVE on a nonexistent object id";
	expect(try1(BOGUS_ID, active, 0, w), -ENOENT, w);
	w = "ACTIVE on an encoder (no properties)";
	expect(try1(enc, active, 0, w), -ENOENT, w);
	w = "ACTIVE on a framebuffer";
	expect(try1(g.fb[0].fb_id, active, 0, w), -ENOENT, w);
	w = "ACTIVE on a blob";
	expect(try1(g.mode_blob[0], active, 0, w), -ENOENT, w);
	w = "crtc property ACTIVE on a plane";
	expect(try1(plane, active, 0, w), -ENOENT, w);
	w = "plane property FB_ID on a connector";
	expect(try1(conn, fb_id, g.fb[0].fb_id, w), -ENOENT, w);
	w = "property id 0 on a crtc";
	expect(try1(crtc, 0, 0, w), -ENOENT, w);
	w = "property id 0xffffffff on a crtc";
	expect(try1(crtc, 0xffffffffu, 0, w), -ENOENT, w);
	w = "the crtc's own id as a property id";
	expect(try1(crtc, crtc, 0, w), -ENOENT, w);
	w = "a blob id as a property id";
	expect(try1(crtc, g.mode_blob[0], 0, w), -ENOENT, w);

	printf("# object ids of the wrong type as values\n");
	w = "connector CRTC_ID = a plane id";
	expect(try1(conn, ccrtc, plane, w), -EINVAL, w);
	w = "connector CRTC_ID = a connector id";
	expect(try1(conn, ccrtc, conn, w), -EINVAL, w);
	w = "connector CRTC_ID = a blob id";
	expect(try1(conn, ccrtc, g.mode_blob[0], w), -EINVAL, w);
	w = "connector CRTC_ID = a nonexistent id";
	expect(try1(conn, ccrtc, BOGUS_ID, w), -EINVAL, w);
	w = "plane CRTC_ID = a plane id";
	expect(try1(plane, pcrtc, plane, w), -EINVAL, w);
	w = "plane CRTC_ID = an encoder id";
	expect(try1(plane, pcrtc, enc, w), -EINVAL, w);
	w = "plane FB_ID = a crtc id";
	expect(try1(plane, fb_id, crtc, w), -EINVAL, w);
	w = "plane FB_ID = a blob id";
	expect(try1(plane, fb_id, g.mode_blob[0], w), -EINVAL, w);
	w = "plane FB_ID = a nonexistent id";
	expect(try1(plane, fb_id, BOGUS_ID, w), -EINVAL, w);
	w = "plane FB_ID = 0xffffffff";
	expect(try1(plane, fb_id, 0xffffffffu, w), -EINVAL, w);
	w = "MODE_ID = a framebuffer id";
	expect(try1(crtc, mode_id, g.fb[0].fb_id, w), -EINVAL, w);
	w = "MODE_ID = a plane id";
	expect(try1(crtc, mode_id, plane, w), -EINVAL, w);
	w = "MODE_ID = a nonexistent blob";
	expect(try1(crtc, mode_id, BOGUS_ID, w), -EINVAL, w);
	w = "MODE_ID = 1 << 32";
	expect(try1(crtc, mode_id, 1ull << 32, w), -EINVAL, w);
}

/* Invalid values for @e, each -EINVAL: out of range, enum, mask... */
static int bad_values(const struct prop_ent *e,
		      uint64_t *v, const char **why, int max)
{
	drmModePropertyRes *p = e->p;
	int n = 0, i;

	if (p->flags & DRM_MODE_PROP_IMMUTABLE) {
		v[n] = e->cur;
		why[n++] = "immutable, current value";
		v[n] = e->cur + 1;
		why[n++] = "immutable, another value";
		return n;
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_RANGE)) {
		uint64_t lo = p->values[0], hi = p->values[1];

		if (hi != UINT64_MAX) {
			v[n] = hi + 1;
			why[n++] = "max + 1";
			v[n] = UINT64_MAX;
			why[n++] = "UINT64_MAX";
			v[n] = hi << 16 > hi ? hi << 16 : UINT64_MAX;
			why[n++] = "max << 16";
		}
		if (lo > 0) {
			v[n] = lo - 1;
			why[n++] = "min - 1";
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		int64_t lo = (int64_t)p->values[0], hi = (int64_t)p->values[1];

		if (hi != INT64_MAX) {
			v[n] = (uint64_t)(hi + 1);
			why[n++] = "max + 1";
			v[n] = (uint64_t)INT64_MAX;
			why[n++] = "INT64_MAX";
		}
		if (lo != INT64_MIN) {
			v[n] = (uint64_t)(lo - 1);
			why[n++] = "min - 1";
			v[n] = (uint64_t)INT64_MIN;
			why[n++] = "INT64_MIN";
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_ENUM)) {
		uint64_t top = 0;

		for (i = 0; i < p->count_enums; i++)
			if (p->enums[i].value > top)
				top = p->enums[i].value;
		v[n] = top + 1;
		why[n++] = "largest enum value + 1";
		v[n] = 0xdeadbeef;
		why[n++] = "0xdeadbeef";
		v[n] = UINT64_MAX;
		why[n++] = "UINT64_MAX";
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		uint64_t mask = 0, rot = 0;
		int nrot = 0;

		for (i = 0; i < p->count_enums; i++)
			mask |= 1ull << p->enums[i].value;
		if (~mask) {
			v[n] = ~mask & (mask + 1);
			why[n++] = "lowest bit not in the mask";
			v[n] = UINT64_MAX;
			why[n++] = "all bits";
		}
		if (!strcmp(p->name, "rotation")) {
			v[n] = 0;
			why[n++] = "rotation 0 (no angle)";
			v[n] = 0x7fff;
			why[n++] = "rotation 0x7fff";
			for (i = 0; i < 4; i++) {
				if (mask & (1ull << i)) {
					rot |= 1ull << i;
					nrot++;
				}
			}
			if (nrot >= 2) {
				v[n] = rot;
				why[n++] = "two angles at once";
			}
			if (mask & DRM_MODE_REFLECT_MASK) {
				v[n] = mask & DRM_MODE_REFLECT_MASK;
				why[n++] = "a reflection without an angle";
			}
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BLOB)) {
		v[n] = BOGUS_ID;
		why[n++] = "a nonexistent blob";
		v[n] = g.pipe[0].crtc;
		why[n++] = "a crtc id";
		v[n] = g.fb[0].fb_id;
		why[n++] = "a framebuffer id";
		if (!strcmp(p->name, "MODE_ID")) {
			v[n] = g.short_blob;
			why[n++] = "a 67-byte blob";
			for (i = 0; i < 4 && n < max; i++) {
				v[n] = g.bad_blob[i];
				why[n++] = "a malformed mode";
			}
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_OBJECT)) {
		v[n] = BOGUS_ID;
		why[n++] = "a nonexistent object";
		v[n] = g.mode_blob[0];
		why[n++] = "a blob id";
		/* An object of another type than the property wants. */
		v[n] = p->values[0] == DRM_MODE_OBJECT_CRTC ?
		       g.pipe[0].plane : g.pipe[0].crtc;
		why[n++] = "an object of the wrong type";
	}
	return n;
}

/* Every property of every object, each invalid value -EINVAL. */
static void test_prop_values(void)
{
	int i, j, k;

	printf("# invalid values for every property\n");
	for (i = 0; i < g.nobj; i++) {
		struct object *o = &g.obj[i];

		for (j = 0; j < o->nprops; j++) {
			struct prop_ent *e = &o->props[j];
			const char *name = e->p->name;
			uint64_t v[16];
			const char *why[16];
			const char *bad = NULL;
			int n, ret;

			/* Pointers and fds: see test_fences(). */
			if (strstr(name, "FENCE"))
				continue;
			n = bad_values(e, v, why, 12);
			if (!n)
				continue;
			for (k = 0; k < n; k++) {
				ret = try1(o->id, e->id, v[k],
					   sf("%s %u %s = %#llx", obj_type_name(o->type),
					      o->id, name,
					      (unsigned long long)v[k]));
				count(ret);
				if (ret != -EINVAL && !bad)
					bad = sf("%s (%#llx): got %s", why[k],
						 (unsigned long long)v[k],
						 ename(ret));
			}
			check(!bad, sf("%s %u %s: %d invalid values fail -EINVAL",
				       obj_type_name(o->type), o->id, name, n),
			      bad ? bad : "");
		}
	}
}

static void test_fences(void)
{
	uint32_t crtc = g.pipe[0].crtc, plane = g.pipe[0].plane;
	uint32_t out = pid(crtc, DRM_MODE_OBJECT_CRTC, "OUT_FENCE_PTR");
	uint32_t in = pid(plane, DRM_MODE_OBJECT_PLANE, "IN_FENCE_FD");
	const char *w;

	printf("# fence properties\n");
	if (out) {
		w = "OUT_FENCE_PTR = 8 (unmapped)";
		expect(try1(crtc, out, 8, w), -EFAULT, w);
		w = "OUT_FENCE_PTR = a kernel address";
		expect(try1(crtc, out, 0xffff888000000000ull, w), -EFAULT, w);
		w = "OUT_FENCE_PTR = UINT64_MAX";
		expect(try1(crtc, out, UINT64_MAX, w), -EFAULT, w);
	}
	if (in) {
		w = "IN_FENCE_FD = the drm fd (not a sync file)";
		expect(try1(plane, in, g.fd, w), -EINVAL, w);
		w = "IN_FENCE_FD = a closed fd";
		expect(try1(plane, in, 999999, w), -EINVAL, w);
		w = "IN_FENCE_FD = 0 (stdin)";
		expect(try1(plane, in, 0, w), -EINVAL, w);
	}
}

static void test_blobs(void)
{
	uint32_t crtc = g.pipe[0].crtc;
	uint32_t mode_id = pid(crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID");
	struct drm_mode_create_blob cb;
	struct drm_mode_destroy_blob db;
	size_t big = 64u << 20;
	uint8_t *page;
	char *mem;
	uint32_t id;
	const char *w;
	int ret, i;

	printf("# property blobs\n");
	w = "MODE_ID = a 67-byte blob";
	expect(try1(crtc, mode_id, g.short_blob, w), -EINVAL, w);
	{
		uint8_t buf[sizeof(drmModeModeInfo) + 1] = { 0 };
		uint32_t b;

		memcpy(buf, &g.pipe[0].mode, sizeof(g.pipe[0].mode));
		b = make_blob(buf, sizeof(buf));
		w = "MODE_ID = a 69-byte blob";
		expect(try1(crtc, mode_id, b, w), -EINVAL, w);
		if (b)
			drmModeDestroyPropertyBlob(g.fd, b);
		b = make_blob(buf, 1);
		w = "MODE_ID = a 1-byte blob";
		expect(try1(crtc, mode_id, b, w), -EINVAL, w);
		if (b)
			drmModeDestroyPropertyBlob(g.fd, b);
	}

	/* 64 MiB: the kernel may refuse it, but cleanly. */
	mem = malloc(big);
	if (mem) {
		memset(mem, 0x5a, big);
		memcpy(mem, &g.pipe[0].mode, sizeof(g.pipe[0].mode));
		arm("create a 64 MiB blob");
		ret = drmModeCreatePropertyBlob(g.fd, mem, big, &id);
		disarm();
		count(ret);
		printf("# create a 64 MiB blob: %s\n", ename(ret));
		if (!ret) {
			w = "MODE_ID = a 64 MiB blob";
			expect(try1(crtc, mode_id, id, w), -EINVAL, w);
			arm("destroy the 64 MiB blob");
			ret = drmModeDestroyPropertyBlob(g.fd, id);
			disarm();
			expect(ret, 0, "destroy the 64 MiB blob");
		}
		free(mem);
	}

	memset(&cb, 0, sizeof(cb));
	cb.data = (uintptr_t)&g.pipe[0].mode;
	arm("CREATEPROPBLOB length 0");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EINVAL, "CREATEPROPBLOB with length 0");

	cb.length = 0x7fffffff;
	arm("CREATEPROPBLOB length 0x7fffffff");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EINVAL, "CREATEPROPBLOB with length 0x7fffffff");

	cb.length = 0xffffffff;
	arm("CREATEPROPBLOB length 0xffffffff");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EINVAL, "CREATEPROPBLOB with length 0xffffffff");

	cb.length = sizeof(drmModeModeInfo);
	cb.data = 0;
	arm("CREATEPROPBLOB data NULL");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EFAULT, "CREATEPROPBLOB with NULL data");

	/* One readable page, then a hole: copy_from_user must fault. */
	page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		munmap(page + 4096, 4096);
		memset(&cb, 0, sizeof(cb));
		cb.data = (uintptr_t)page;
		cb.length = 1 << 20;
		arm("CREATEPROPBLOB past the end of the mapping");
		ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ?
		      -errno : 0;
		disarm();
		expect(ret, -EFAULT,
		       "CREATEPROPBLOB reading past the end of the mapping");
		munmap(page, 4096);
	}

	memset(&db, 0, sizeof(db));
	db.blob_id = BOGUS_ID;
	arm("DESTROYPROPBLOB nonexistent");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ? -errno : 0;
	disarm();
	expect(ret, -ENOENT, "DESTROYPROPBLOB of a nonexistent blob");

	id = make_blob(&g.pipe[0].mode, sizeof(g.pipe[0].mode));
	db.blob_id = id;
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ? -errno : 0;
	expect(ret, 0, "DESTROYPROPBLOB of our blob");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ? -errno : 0;
	expect(ret, -ENOENT, "DESTROYPROPBLOB of the same blob again");
	w = "MODE_ID = a destroyed blob";
	expect(try1(crtc, mode_id, id, w), -EINVAL, w);
	if (g.other_blob) {
		db.blob_id = g.other_blob;
		ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ?
		      -errno : 0;
		expect(ret, -EPERM, "DESTROYPROPBLOB of the kernel's IN_FORMATS blob");
	}
	{
		drmModePropertyBlobRes *b;

		arm("GETPROPBLOB nonexistent");
		b = drmModeGetPropertyBlob(g.fd, BOGUS_ID);
		ret = b ? 0 : -errno;
		disarm();
		drmModeFreePropertyBlob(b);
		expect(ret, -ENOENT, "GETPROPBLOB of a nonexistent blob");
	}

	/* Colour management blobs of the wrong size, where they exist. */
	for (i = 0; i < g.npipes; i++) {
		static const char *const luts[] = { "GAMMA_LUT", "DEGAMMA_LUT" };
		uint32_t c = g.pipe[i].crtc, prop, b;
		uint8_t buf[16 * 1024] = { 0 };
		unsigned int l;
		uint64_t size;

		for (l = 0; l < ARRAY_SIZE(luts); l++) {
			prop = pid(c, DRM_MODE_OBJECT_CRTC, luts[l]);
			if (!prop)
				continue;
			b = make_blob(buf, 7);
			w = sf("crtc %u %s = a 7-byte blob", c, luts[l]);
			expect(try1(c, prop, b, w), -EINVAL, w);
			drmModeDestroyPropertyBlob(g.fd, b);
			if (!prop_get(g.fd, c, DRM_MODE_OBJECT_CRTC,
				      sf("%s_SIZE", luts[l]), &size) &&
			    size && (size + 1) * 8 <= sizeof(buf)) {
				uint64_t cnt[2] = { size + 1, size - 1 };
				unsigned int z;

				for (z = 0; z < 2; z++) {
					struct areq r;

					b = make_blob(buf, cnt[z] * 8);
					/* Rejected where it is set, on or off. */
					w = sf("crtc %u (off) %s with %llu entries, %s_SIZE %llu",
					       c, luts[l],
					       (unsigned long long)cnt[z],
					       luts[l], (unsigned long long)size);
					expect(try1(c, prop, b, w), -EINVAL, w);
					areq_init(&r, g.fd);
					add_modeset(&r, i, g.mode_blob[i], NULL);
					areq_add_id(&r, c, prop, b);
					w = sf("modeset crtc %u with %s of %llu entries, %s_SIZE %llu",
					       c, luts[l],
					       (unsigned long long)cnt[z],
					       luts[l], (unsigned long long)size);
					expect(commit(&r, TEST, w), EXPECT_FAIL,
					       w);
					drmModeDestroyPropertyBlob(g.fd, b);
				}
			}
		}
		prop = pid(c, DRM_MODE_OBJECT_CRTC, "CTM");
		if (prop) {
			b = make_blob(buf, sizeof(struct drm_color_ctm) - 1);
			w = sf("crtc %u CTM = a 71-byte blob", c);
			expect(try1(c, prop, b, w), -EINVAL, w);
			drmModeDestroyPropertyBlob(g.fd, b);
			b = make_blob(buf, sizeof(struct drm_color_ctm) + 8);
			w = sf("crtc %u CTM = an 80-byte blob", c);
			expect(try1(c, prop, b, w), -EINVAL, w);
			drmModeDestroyPropertyBlob(g.fd, b);
		}
	}
}

static void test_modes(void)
{
	const drmModeModeInfo pref = g.pipe[0].mode;
	struct {
		const char *what;
		drmModeModeInfo m;
		int expect;
	} t[16];
	int n = 0, i;

	printf("# malformed modes\n");
#define MODE(w, e) do { t[n].what = (w); t[n].m = pref; t[n].expect = (e); \
		       snprintf(t[n].m.name, sizeof(t[n].m.name), "bad%d", n); } while (0)
#define NEXT n++
	MODE("zero clock", -EINVAL); t[n].m.clock = 0; NEXT;
	MODE("hdisplay > htotal", -EINVAL); t[n].m.htotal = pref.hdisplay - 1; NEXT;
	MODE("hsync_start < hdisplay", -EINVAL);
	t[n].m.hsync_start = pref.hdisplay - 1; NEXT;
	MODE("vsync_end > vtotal", -EINVAL); t[n].m.vsync_end = pref.vtotal + 1; NEXT;
	MODE("hdisplay 0", -EINVAL); t[n].m.hdisplay = 0; NEXT;
	MODE("vdisplay 0", -EINVAL); t[n].m.vdisplay = 0; NEXT;
	MODE("clock INT_MAX", -EINVAL); t[n].m.clock = INT_MAX; NEXT;
	MODE("clock UINT_MAX", -EINVAL); t[n].m.clock = UINT_MAX; NEXT;
	MODE("vrefresh UINT_MAX", -EINVAL); t[n].m.vrefresh = UINT_MAX; NEXT;
	MODE("65535x65535 totals (refresh < 1 Hz)", -EINVAL);
	t[n].m.htotal = t[n].m.vtotal = 65535; NEXT;
	MODE("1x1 in 2x2 at 3 GHz (refresh > 1000 Hz)", -EINVAL);
	t[n].m.clock = 3000000; t[n].m.hdisplay = t[n].m.vdisplay = 1;
	t[n].m.hsync_start = t[n].m.hsync_end = 1;
	t[n].m.vsync_start = t[n].m.vsync_end = 1;
	t[n].m.htotal = t[n].m.vtotal = 2; NEXT;
	MODE("8200 wide, larger than any fb", -EINVAL);
	t[n].m.hdisplay = 8200; t[n].m.hsync_start = 8210;
	t[n].m.hsync_end = 8220; t[n].m.htotal = 8400;
	t[n].m.vdisplay = 100; t[n].m.vsync_start = 105;
	t[n].m.vsync_end = 110; t[n].m.vtotal = 120; t[n].m.clock = 60480; NEXT;
	MODE("invalid picture aspect ratio flags", -EINVAL);
	t[n].m.flags |= 7u << 19; NEXT;
	MODE("vscan 65535 (adjusted vtotal too big)", EXPECT_FAIL);
	t[n].m.vscan = 65535; NEXT;
	MODE("garbage flags", EXPECT_ANY); t[n].m.flags = 0xffffffffu & ~(15u << 19); NEXT;
	MODE("unterminated name, garbage type", 0);
	memset(t[n].m.name, 'A', sizeof(t[n].m.name)); t[n].m.type = 0xffffffffu; NEXT;
#undef MODE
#undef NEXT

	for (i = 0; i < n; i++) {
		uint32_t blob = 0;
		struct areq r;
		int ret;

		arm("create a mode blob");
		ret = drmModeCreatePropertyBlob(g.fd, &t[i].m, sizeof(t[i].m),
						&blob);
		disarm();
		if (!check(!ret, sf("create blob for mode: %s", t[i].what),
			   ename(ret)))
			continue;
		areq_init(&r, g.fd);
		add_modeset(&r, 0, blob, NULL);
		ret = commit(&r, TEST, t[i].what);
		expect(ret, t[i].expect, sf("modeset with a mode: %s",
					    t[i].what));
		drmModeDestroyPropertyBlob(g.fd, blob);
	}
}

static void test_plane_crtc(void)
{
	int i, j, combos = 0;
	struct areq r;
	int ret;

	printf("# plane/crtc mismatches\n");
	for (i = 0; i < g.nobj && combos < 12; i++) {
		const struct object *o = &g.obj[i];

		if (o->type != DRM_MODE_OBJECT_PLANE)
			continue;
		for (j = 0; j < g.npipes && combos < 12; j++) {
			if (o->possible_crtcs & (1u << g.pipe[j].crtc_idx))
				continue;
			areq_init(&r, g.fd);
			add_modeset(&r, j, g.mode_blob[j], NULL);
			add_plane(&r, o->id, g.pipe[j].crtc,
				  o->ptype == DRM_PLANE_TYPE_CURSOR ?
				  g.small.fb_id : g.fb[0].fb_id,
				  o->ptype == DRM_PLANE_TYPE_CURSOR ? 64 :
				  g.fb[0].width,
				  o->ptype == DRM_PLANE_TYPE_CURSOR ? 64 :
				  g.fb[0].height);
			ret = commit(&r, TEST, "plane on a foreign crtc");
			expect(ret, -EINVAL,
			       sf("%s plane %u on crtc %u, not in its possible_crtcs",
				  o->ptype == DRM_PLANE_TYPE_CURSOR ? "cursor" :
				  o->ptype == DRM_PLANE_TYPE_PRIMARY ?
				  "primary" : "overlay", o->id,
				  g.pipe[j].crtc));
			combos++;
		}
	}
	if (!combos)
		printf("# (one crtc: no plane has a foreign crtc)\n");

	areq_init(&r, g.fd);
	add_modeset(&r, 0, g.mode_blob[0], &g.fb[0]);
	areq_add(&r, g.pipe[0].plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	expect(commit(&r, TEST, "fb, no crtc"), -EINVAL,
	       "primary plane with an fb but no crtc");

	areq_init(&r, g.fd);
	add_modeset(&r, 0, g.mode_blob[0], &g.fb[0]);
	areq_add(&r, g.pipe[0].plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	expect(commit(&r, TEST, "crtc, no fb"), -EINVAL,
	       "primary plane with a crtc but no fb");

	if (g.cursor[0]) {
		struct fbuf f;

		if (!make_fb(64, 64, 16, DRM_FORMAT_RGB565, &f)) {
			areq_init(&r, g.fd);
			add_modeset(&r, 0, g.mode_blob[0], &g.fb[0]);
			add_plane(&r, g.cursor[0], g.pipe[0].crtc, f.fb_id, 64,
				  64);
			expect(commit(&r, TEST, "cursor RGB565"), -EINVAL,
			       "cursor plane with an RGB565 fb (not a cursor format)");
			drmModeRmFB(g.fd, f.fb_id);
		}
	}

	areq_init(&r, g.fd);
	add_modeset(&r, 0, g.mode_blob[0], NULL);
	add_plane(&r, g.pipe[0].plane, g.pipe[0].crtc, g.fb[0].fb_id,
		  g.fb[0].width, g.fb[0].height);
	areq_add(&r, g.pipe[0].conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	expect(commit(&r, TEST, "crtc without connector"), -EINVAL,
	       "crtc enabled without a connector");

	/* With crossbar=1 every encoder reaches every CRTC: nothing to reject. */
	if (g.npipes >= 2 && !conn_reaches_crtc(g.pipe[1].conn,
						g.pipe[0].crtc_idx)) {
		areq_init(&r, g.fd);
		add_modeset(&r, 0, g.mode_blob[0], &g.fb[0]);
		areq_add(&r, g.pipe[1].conn, DRM_MODE_OBJECT_CONNECTOR,
			 "CRTC_ID", g.pipe[0].crtc);
		expect(commit(&r, TEST, "foreign connector"), EXPECT_FAIL,
		       sf("connector %u on crtc %u, which its encoder cannot drive",
			  g.pipe[1].conn, g.pipe[0].crtc));
	}
}

static void test_rects(void)
{
	uint32_t plane = g.pipe[0].plane;
	uint32_t w = g.fb[0].width;
	const struct {
		const char *what;
		const char *prop;
		uint64_t val;
		int expect;
	} t[] = {
		{ "SRC_W one pixel wider than the fb", "SRC_W",
		  (uint64_t)(w + 1) << 16, -ENOSPC },
		{ "SRC_X = 0xffffffff << 16", "SRC_X", 0xffffffffull << 16, -EINVAL },
		{ "SRC_X = 0xffff0000", "SRC_X", 0xffff0000ull, -ENOSPC },
		{ "SRC_X = 1 pixel with the full width", "SRC_X", 1 << 16, -ENOSPC },
		{ "SRC_Y = 0xfffffffe", "SRC_Y", 0xfffffffeull, -ENOSPC },
		{ "SRC_W = 0xffffffff", "SRC_W", 0xffffffffull, -ENOSPC },
		{ "SRC_H = -1 << 16 (as u64)", "SRC_H", (uint64_t)-1 << 16, -EINVAL },
		/* The core helper takes a zero-size destination for an
		 * invisible plane (drm_rect_calc_hscale() lets dst 0 by). */
		{ "CRTC_W = 0", "CRTC_W", 0, EXPECT_ANY },
		{ "CRTC_H = 0", "CRTC_H", 0, EXPECT_ANY },
		{ "CRTC_W = 0x80000000", "CRTC_W", 0x80000000ull, -EINVAL },
		{ "CRTC_H = 0xffffffff", "CRTC_H", 0xffffffffull, -EINVAL },
		{ "CRTC_W = INT_MAX", "CRTC_W", INT_MAX, EXPECT_FAIL },
		{ "CRTC_X = INT_MAX - 10", "CRTC_X", INT_MAX - 10, -ERANGE },
		{ "CRTC_Y = INT_MAX", "CRTC_Y", INT_MAX, -ERANGE },
		{ "CRTC_X = INT_MIN", "CRTC_X", (uint64_t)(int64_t)INT_MIN, EXPECT_ANY },
		{ "CRTC_Y = -(1 << 40)", "CRTC_Y", (uint64_t)-(1ll << 40), -EINVAL },
		{ "CRTC_X = -fb width (just off screen)", "CRTC_X",
		  (uint64_t)-(int64_t)w, EXPECT_ANY },
		{ "CRTC_X = 0x7fffffff00000000", "CRTC_X", 0x7fffffff00000000ull, -EINVAL },
	};
	unsigned int i;
	int ret;

	printf("# source and destination rectangles (crtc %u on)\n",
	       g.pipe[0].crtc);
	ret = pipe0_on();
	if (!check(!ret, "modeset pipe 0 for the rectangle tests", ename(ret)))
		return;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, t[i].prop, t[i].val);
		expect(commit(&r, TEST, t[i].what), t[i].expect, t[i].what);
	}
	{
		/* An empty source cannot be scaled to anything. */
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", 0);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", 0);
		expect(commit(&r, TEST, "SRC_W = SRC_H = 0"), EXPECT_FAIL,
		       "SRC_W = SRC_H = 0");
	}

	{
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS",
			 g.damage_blob);
		expect(commit(&r, TEST, "valid damage clip"), 0,
		       "FB_DAMAGE_CLIPS with one clip inside the fb");
		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS",
			 g.bad_damage_blob);
		expect(commit(&r, TEST, "inverted damage clip"), -EINVAL,
		       "FB_DAMAGE_CLIPS with x1 > x2");
		{
			/*
			 * 6.12's drm_atomic_plane_check() compares clips in
			 * pixels with the fb size in 16.16: a clip past the
			 * fb's edge gets through, and the damage helpers clip
			 * it. Informational only.
			 */
			struct drm_mode_rect c = { 0, 0, g.fb[0].width + 1,
						   g.fb[0].height + 1 };
			uint32_t b = make_blob(&c, sizeof(c));

			areq_init(&r, g.fd);
			areq_add(&r, plane, DRM_MODE_OBJECT_PLANE,
				 "FB_DAMAGE_CLIPS", b);
			expect(commit(&r, TEST, "damage clip beyond the fb"),
			       EXPECT_ANY,
			       "FB_DAMAGE_CLIPS with a clip one pixel beyond the fb");
			drmModeDestroyPropertyBlob(g.fd, b);
		}
		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS",
			 g.short_blob);
		expect(commit(&r, TEST, "damage blob of 67 bytes"), -EINVAL,
		       "FB_DAMAGE_CLIPS with a 67-byte blob");
	}
}

/* ---- raw ioctls ---- */

/*
 * @bytes at the very end of a readable page that is followed by unmapped
 * memory: the kernel reading one element further must fault.
 */
static void *guarded(size_t bytes)
{
	char *page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED || bytes > 4096)
		return NULL;
	munmap(page + 4096, 4096);
	return page + 4096 - bytes;
}

static int ioc(unsigned long req, void *arg, const char *what)
{
	int ret;

	arm(what);
	ret = drmIoctl(g.fd, req, arg) ? -errno : 0;
	disarm();
	return ret;
}

static void test_atomic_ioctl(void)
{
	uint32_t crtc = g.pipe[0].crtc;
	uint32_t active = pid(crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	uint32_t *objs = guarded(2 * sizeof(uint32_t));
	uint32_t *counts = guarded(2 * sizeof(uint32_t));
	uint32_t *props = guarded(2 * sizeof(uint32_t));
	uint64_t *vals = guarded(2 * sizeof(uint64_t));
	struct drm_mode_atomic a;
	uint32_t *page;
	uint64_t *many;
	char *path;
	int ret, i;

	if (!check(objs && counts && props && vals, "map guarded arrays",
		   strerror(errno)))
		return;
	objs[0] = objs[1] = crtc;
	counts[0] = counts[1] = 1;
	props[0] = props[1] = active;
	vals[0] = vals[1] = 0;

	printf("# DRM_IOCTL_MODE_ATOMIC with garbage\n");
#define A(f, n) do { memset(&a, 0, sizeof(a)); a.flags = (f); a.count_objs = (n); \
		     a.objs_ptr = (uintptr_t)objs; a.count_props_ptr = (uintptr_t)counts; \
		     a.props_ptr = (uintptr_t)props; a.prop_values_ptr = (uintptr_t)vals; } while (0)
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "valid raw atomic"), 0,
	       "ATOMIC with one valid property (sanity)");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 0xffffffffu);
	a.objs_ptr = a.count_props_ptr = a.props_ptr = a.prop_values_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_objs huge, NULL"),
	       -EFAULT, "ATOMIC with count_objs 0xffffffff and NULL pointers");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 0xffffffffu);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_objs huge"), -EFAULT,
	       "ATOMIC with count_objs 0xffffffff and 2-entry arrays before unmapped memory");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.count_props_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_props_ptr NULL"),
	       -EFAULT, "ATOMIC with count_props_ptr NULL");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.props_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "props_ptr NULL"), -EFAULT,
	       "ATOMIC with props_ptr NULL");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.prop_values_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "prop_values_ptr NULL"), -EFAULT,
	       "ATOMIC with prop_values_ptr NULL");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.objs_ptr = 0xffff888000000000ull;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "objs_ptr kernel"), -EFAULT,
	       "ATOMIC with objs_ptr a kernel address");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.reserved = 1;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "reserved"), -EINVAL,
	       "ATOMIC with reserved != 0");
	A(DRM_MODE_ATOMIC_TEST_ONLY | 0x80000000u, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "flag 0x80000000"), -EINVAL,
	       "ATOMIC with flag 0x80000000");
	A(0xffffffffu, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "flags ~0"), -EINVAL,
	       "ATOMIC with every flag bit");
	A(DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "test+event"), -EINVAL,
	       "ATOMIC with TEST_ONLY and PAGE_FLIP_EVENT");
	if (!g.async_cap) {
		A(DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_ASYNC, 1);
		expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "async"), -EINVAL,
		       "ATOMIC with PAGE_FLIP_ASYNC, cap not advertised");
	}
	A(DRM_MODE_ATOMIC_TEST_ONLY, 0);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "empty"), 0,
	       "ATOMIC with no objects");
	A(DRM_MODE_PAGE_FLIP_EVENT, 0);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "empty with event"), -EINVAL,
	       "ATOMIC with no objects and PAGE_FLIP_EVENT");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 2);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "same object twice"), EXPECT_ANY,
	       "ATOMIC with the same object twice");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	counts[1] = 0xffffffffu;
	a.count_objs = 2;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_props huge"), -EFAULT,
	       "ATOMIC with count_props 0xffffffff and 2-entry arrays before unmapped memory");
	counts[1] = 1;

	/* 1024 valid property ids, then unmapped memory. */
	page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	many = calloc(2048, sizeof(*many));
	if (page != MAP_FAILED && many) {
		uint32_t big = 0x7fffffff;

		munmap((char *)page + 4096, 4096);
		for (i = 0; i < 1024; i++)
			page[i] = active;
		A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
		a.count_props_ptr = (uintptr_t)&big;
		a.props_ptr = (uintptr_t)page;
		a.prop_values_ptr = (uintptr_t)many;
		expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "props past the mapping"),
		       -EFAULT,
		       "ATOMIC with count_props 0x7fffffff, ids running into unmapped memory");
		munmap(page, 4096);
	}
	free(many);
#undef A

	/* Our client without the atomic cap, for a moment. */
	ret = drmSetClientCap(g.fd, DRM_CLIENT_CAP_ATOMIC, 0) ? -errno : 0;
	if (check(!ret, "clear DRM_CLIENT_CAP_ATOMIC", ename(ret))) {
		memset(&a, 0, sizeof(a));
		a.flags = DRM_MODE_ATOMIC_TEST_ONLY;
		expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "atomic without the cap"),
		       -EINVAL, "ATOMIC without DRM_CLIENT_CAP_ATOMIC");
		ret = drmSetClientCap(g.fd, DRM_CLIENT_CAP_ATOMIC, 1) ?
		      -errno : 0;
		check(!ret, "set DRM_CLIENT_CAP_ATOMIC again", ename(ret));
	}

	/* A second client: not master. */
	path = drmGetDeviceNameFromFd2(g.fd);
	if (path) {
		int fd2 = open(path, O_RDWR | O_CLOEXEC);

		if (fd2 >= 0) {
			struct drm_mode_destroy_blob db = {
				.blob_id = g.mode_blob[0],
			};

			drmSetClientCap(fd2, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
			drmSetClientCap(fd2, DRM_CLIENT_CAP_ATOMIC, 1);
			memset(&a, 0, sizeof(a));
			a.flags = DRM_MODE_ATOMIC_TEST_ONLY;
			arm("atomic from a second client");
			ret = drmIoctl(fd2, DRM_IOCTL_MODE_ATOMIC, &a) ?
			      -errno : 0;
			disarm();
			expect(ret, -EACCES,
			       "ATOMIC from a client that is not master");
			ret = drmSetClientCap(fd2, 0xdead, 1) ? -errno : 0;
			expect(ret, -EINVAL, "SET_CLIENT_CAP with an unknown cap");
			ret = drmSetClientCap(fd2, DRM_CLIENT_CAP_ATOMIC, 3) ?
			      -errno : 0;
			expect(ret, -EINVAL, "SET_CLIENT_CAP ATOMIC = 3");
			ret = drmIoctl(fd2, DRM_IOCTL_MODE_DESTROYPROPBLOB,
				       &db) ? -errno : 0;
			expect(ret, -EPERM,
			       "DESTROYPROPBLOB of another client's blob");
			close(fd2);
		}
		free(path);
	}
}

static void test_setcrtc(void)
{
	const struct kms_pipe *p = &g.pipe[0];
	uint32_t conns[4] = { p->conn };
	struct drm_mode_crtc c;

	printf("# DRM_IOCTL_MODE_SETCRTC with garbage\n");
#define C() do { memset(&c, 0, sizeof(c)); c.crtc_id = p->crtc; c.fb_id = g.fb[0].fb_id; \
		 c.set_connectors_ptr = (uintptr_t)conns; c.count_connectors = 1; \
		 c.mode_valid = 1; memcpy(&c.mode, &p->mode, sizeof(c.mode)); \
		 conns[0] = p->conn; } while (0)
	C();
	c.count_connectors = 1000;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc 1000 connectors"),
	       -EINVAL, "SETCRTC with count_connectors 1000");
	C();
	c.count_connectors = 0xffffffffu;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc ~0 connectors"),
	       -EINVAL, "SETCRTC with count_connectors 0xffffffff");
	C();
	c.set_connectors_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc NULL connectors"),
	       -EFAULT, "SETCRTC with a NULL connector list");
	C();
	conns[0] = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc bogus connector"),
	       -ENOENT, "SETCRTC with a nonexistent connector");
	C();
	conns[0] = p->crtc;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc crtc as connector"),
	       -ENOENT, "SETCRTC with a crtc id in the connector list");
	C();
	c.crtc_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc bogus crtc"), -ENOENT,
	       "SETCRTC on a nonexistent crtc");
	C();
	c.crtc_id = p->plane;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc plane as crtc"),
	       -ENOENT, "SETCRTC on a plane id");
	C();
	c.x = 0x10000;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc x 0x10000"), -ERANGE,
	       "SETCRTC with x = 0x10000");
	C();
	c.x = 1;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc x 1"), -ENOSPC,
	       "SETCRTC with the viewport one pixel beyond the fb");
	C();
	c.fb_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc bogus fb"), -ENOENT,
	       "SETCRTC with a nonexistent fb");
	C();
	c.fb_id = 0xffffffffu;	/* -1: the current fb, and there is none */
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc fb -1"), -EINVAL,
	       "SETCRTC with fb -1 and no current fb");
	C();
	c.count_connectors = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc no connectors"),
	       -EINVAL, "SETCRTC with a mode and no connectors");
	C();
	c.mode.clock = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc zero clock"), -EINVAL,
	       "SETCRTC with a zero-clock mode");
	C();
	c.mode.clock = INT_MAX;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc INT_MAX clock"),
	       -EINVAL, "SETCRTC with an INT_MAX clock");
	C();
	c.mode_valid = 0;
	c.fb_id = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc connectors, no mode"),
	       -EINVAL, "SETCRTC with connectors but no mode");
	if (g.npipes >= 2 && !conn_reaches_crtc(g.pipe[1].conn,
						g.pipe[0].crtc_idx)) {
		C();
		conns[0] = g.pipe[1].conn;
		expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc foreign conn"),
		       EXPECT_FAIL,
		       sf("SETCRTC crtc %u with connector %u of another crtc",
			  p->crtc, g.pipe[1].conn));
	}
	C();
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc valid"), 0,
	       "SETCRTC with a valid configuration (sanity)");
	C();
	c.mode_valid = 0;
	c.fb_id = 0;
	c.count_connectors = 0;
	c.set_connectors_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc off"), 0,
	       "SETCRTC switching the crtc off (sanity)");
#undef C
}

static void test_cursor(void)
{
	const struct kms_pipe *p = &g.pipe[0];
	struct drm_mode_cursor2 c;
	/* Without a cursor plane the core says -ENXIO to everything. */
	int bad = g.cursor[0] ? -EINVAL : EXPECT_FAIL;
	int ret;

	printf("# DRM_IOCTL_MODE_CURSOR with garbage (crtc %u on)\n", p->crtc);
	ret = pipe0_on();
	if (!check(!ret, "modeset pipe 0 for the cursor tests", ename(ret)))
		return;
#define K(f) do { memset(&c, 0, sizeof(c)); c.flags = (f); c.crtc_id = p->crtc; \
		 c.handle = g.small.handle; c.width = 64; c.height = 64; } while (0)
	K(0);
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor flags 0"), -EINVAL,
	       "CURSOR with no flags");
	K(0x80);
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor flags 0x80"), -EINVAL,
	       "CURSOR with an unknown flag");
	K(DRM_MODE_CURSOR_BO);
	c.crtc_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor bogus crtc"), -ENOENT,
	       "CURSOR on a nonexistent crtc");
	K(DRM_MODE_CURSOR_BO);
	c.width = c.height = 100000;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor 100000x100000"), bad,
	       "CURSOR 100000x100000");
	K(DRM_MODE_CURSOR_BO);
	c.width = 0x40000001;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor pitch overflow"), bad,
	       "CURSOR 0x40000001 wide (pitch overflows)");
	K(DRM_MODE_CURSOR_BO);
	c.width = 0xffffffffu;
	c.height = 0xffffffffu;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor ~0 x ~0"), bad,
	       "CURSOR 0xffffffff x 0xffffffff");
	K(DRM_MODE_CURSOR_BO);
	c.width = c.height = 512;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor 512 on a 64 bo"), bad,
	       "CURSOR 512x512 from a 64x64 buffer");
	K(DRM_MODE_CURSOR_BO);
	c.handle = 0xdead;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor bogus handle"),
	       EXPECT_FAIL, "CURSOR with a nonexistent handle");
	K(DRM_MODE_CURSOR_BO);
	c.width = 0;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor width 0"), bad,
	       "CURSOR 0x64");
	K(DRM_MODE_CURSOR_BO | DRM_MODE_CURSOR_MOVE);
	c.x = INT_MIN;
	c.y = INT_MAX;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor at INT_MIN,INT_MAX"),
	       EXPECT_ANY, "CURSOR at INT_MIN,INT_MAX");
	K(DRM_MODE_CURSOR_BO);
	c.hot_x = INT_MAX;
	c.hot_y = INT_MIN;
	expect(ioc(DRM_IOCTL_MODE_CURSOR2, &c, "cursor2 huge hotspot"),
	       EXPECT_ANY, "CURSOR2 with hotspot INT_MAX,INT_MIN");
	K(DRM_MODE_CURSOR_BO);
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor valid"),
	       g.cursor[0] ? 0 : EXPECT_ANY, "CURSOR 64x64 (sanity)");
	K(DRM_MODE_CURSOR_MOVE);
	c.x = 100;
	c.y = 100;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor move"),
	       g.cursor[0] ? 0 : EXPECT_ANY, "CURSOR move (sanity)");
	K(DRM_MODE_CURSOR_BO);
	c.handle = 0;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor off"),
	       g.cursor[0] ? 0 : EXPECT_ANY, "CURSOR off (sanity)");
#undef K
}

static void test_page_flip(void)
{
	const struct kms_pipe *p = &g.pipe[0];
	struct drm_mode_crtc_page_flip_target f;
	unsigned int before;
	int ret;

	printf("# DRM_IOCTL_MODE_PAGE_FLIP with garbage\n");
	ret = disable_all("switch everything off");
	check(!ret, "switch everything off for the page-flip tests",
	      ename(ret));
#define F(fl) do { memset(&f, 0, sizeof(f)); f.crtc_id = p->crtc; \
		   f.fb_id = g.fb[1].fb_id; f.flags = (fl); } while (0)
	F(DRM_MODE_PAGE_FLIP_EVENT);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip on a disabled crtc"),
	       -EBUSY, "PAGE_FLIP on a disabled crtc (no fb bound)");
	F(0);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip, no event, disabled"),
	       -EBUSY, "PAGE_FLIP without event on a disabled crtc");

	ret = pipe0_on();
	if (!check(!ret, "modeset pipe 0 for the page-flip tests", ename(ret)))
		return;
	{
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, p->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
		ret = commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "ACTIVE=0");
		check(!ret, "ACTIVE=0 keeping the mode and fb", ename(ret));
		F(DRM_MODE_PAGE_FLIP_EVENT);
		expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip on inactive"),
		       -EINVAL,
		       "PAGE_FLIP with event on an inactive crtc with an fb");
		ret = pipe0_on();
		check(!ret, "modeset pipe 0 again", ename(ret));
	}
	F(0xffff0000u);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip bad flags"), -EINVAL,
	       "PAGE_FLIP with unknown flags");
	F(DRM_MODE_PAGE_FLIP_TARGET);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip both targets"), -EINVAL,
	       "PAGE_FLIP with both TARGET_ABSOLUTE and TARGET_RELATIVE");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.sequence = 5;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip sequence no target"),
	       -EINVAL, "PAGE_FLIP with a sequence but no target flag");
	F(DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_PAGE_FLIP_TARGET_RELATIVE);
	f.sequence = 1000;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip relative 1000"),
	       -EINVAL, "PAGE_FLIP relative target 1000 vblanks away");
	if (!g.async_cap) {
		F(DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_PAGE_FLIP_ASYNC);
		expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip async"),
		       EXPECT_FAIL, "PAGE_FLIP ASYNC, async not advertised");
	}
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.crtc_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip bogus crtc"), -ENOENT,
	       "PAGE_FLIP on a nonexistent crtc");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.fb_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip bogus fb"), -ENOENT,
	       "PAGE_FLIP to a nonexistent fb");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.fb_id = g.small.fb_id;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip small fb"), -ENOSPC,
	       "PAGE_FLIP to a 64x64 fb");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.fb_id = g.rgb565.fb_id;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip format change"), -EINVAL,
	       "PAGE_FLIP changing the format to RGB565");
	drain(0);
	before = g.events;
	F(DRM_MODE_PAGE_FLIP_EVENT);
	ret = ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "valid flip");
	expect(ret, 0, "PAGE_FLIP with event (sanity)");
	if (!ret) {
		arm("waiting for the flip event");
		while (g.events == before &&
		       wait_event(g.fd, &evctx, EVENT_TIMEOUT_MS) > 0)
			;
		disarm();
		check(g.events == before + 1, "PAGE_FLIP event arrives",
		      sf("%u events", g.events - before));
	}
#undef F
}

static void test_misc_ioctls(void)
{
	struct drm_mode_obj_get_properties op;
	struct drm_mode_get_property gp;
	struct drm_mode_crtc gc;
	struct drm_mode_get_plane gpl;
	struct drm_mode_get_encoder ge;
	struct drm_mode_fb_cmd2 fc;
	uint32_t fb = 0;

	printf("# other ioctls with garbage\n");
	memset(&op, 0, sizeof(op));
	op.obj_id = g.pipe[0].crtc;
	op.obj_type = DRM_MODE_OBJECT_PLANE;
	expect(ioc(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "getprops type"),
	       -ENOENT, "OBJ_GETPROPERTIES of a crtc as a plane");
	op.obj_id = BOGUS_ID;
	op.obj_type = DRM_MODE_OBJECT_ANY;
	expect(ioc(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "getprops bogus"),
	       -ENOENT, "OBJ_GETPROPERTIES of a nonexistent object");
	op.obj_id = g.pipe[0].crtc;
	op.obj_type = DRM_MODE_OBJECT_CRTC;
	op.count_props = 1000;
	op.props_ptr = 8;
	op.prop_values_ptr = 8;
	expect(ioc(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "getprops bad ptr"),
	       -EFAULT, "OBJ_GETPROPERTIES into unmapped memory");
	memset(&gp, 0, sizeof(gp));
	gp.prop_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_GETPROPERTY, &gp, "getproperty bogus"),
	       -ENOENT, "GETPROPERTY of a nonexistent property");
	memset(&gc, 0, sizeof(gc));
	gc.crtc_id = g.pipe[0].plane;
	expect(ioc(DRM_IOCTL_MODE_GETCRTC, &gc, "getcrtc plane"), -ENOENT,
	       "GETCRTC of a plane id");
	memset(&gpl, 0, sizeof(gpl));
	gpl.plane_id = g.pipe[0].crtc;
	expect(ioc(DRM_IOCTL_MODE_GETPLANE, &gpl, "getplane crtc"), -ENOENT,
	       "GETPLANE of a crtc id");
	gpl.plane_id = g.pipe[0].plane;
	gpl.count_format_types = 1000;
	gpl.format_type_ptr = 8;
	expect(ioc(DRM_IOCTL_MODE_GETPLANE, &gpl, "getplane bad ptr"), -EFAULT,
	       "GETPLANE formats into unmapped memory");
	memset(&ge, 0, sizeof(ge));
	ge.encoder_id = g.pipe[0].conn;
	expect(ioc(DRM_IOCTL_MODE_GETENCODER, &ge, "getencoder conn"), -ENOENT,
	       "GETENCODER of a connector id");
	fb = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_RMFB, &fb, "rmfb bogus"), -ENOENT,
	       "RMFB of a nonexistent fb");
	fb = g.pipe[0].crtc;
	expect(ioc(DRM_IOCTL_MODE_RMFB, &fb, "rmfb crtc"), -ENOENT,
	       "RMFB of a crtc id");

#define FB() do { memset(&fc, 0, sizeof(fc)); fc.width = 64; fc.height = 64; \
		  fc.pixel_format = DRM_FORMAT_XRGB8888; fc.handles[0] = g.small.handle; \
		  fc.pitches[0] = g.small.stride; } while (0)
	FB();
	fc.handles[0] = 0xdead;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 bogus handle"),
	       EXPECT_FAIL, "ADDFB2 with a nonexistent handle");
	FB();
	fc.width = 0;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 width 0"), -EINVAL,
	       "ADDFB2 0x64");
	FB();
	fc.width = 100000;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 width 100000"), -EINVAL,
	       "ADDFB2 100000x64");
	FB();
	fc.pitches[0] = 16;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 pitch 16"), -EINVAL,
	       "ADDFB2 with a pitch smaller than a line");
	FB();
	fc.height = 65;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 beyond bo"), -EINVAL,
	       "ADDFB2 larger than its buffer");
	FB();
	fc.pixel_format = 0x20202020;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 format"), -EINVAL,
	       "ADDFB2 with an unknown format");
	FB();
	fc.offsets[0] = 0xfffffff0u;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 offset"), EXPECT_FAIL,
	       "ADDFB2 with a huge offset");
	FB();
	fc.flags = DRM_MODE_FB_MODIFIERS;
	fc.modifier[0] = 0x00ffffffffffffffull;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 modifier"), -EINVAL,
	       "ADDFB2 with an unknown modifier");
	FB();
	fc.flags = 0x80;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 flags"), -EINVAL,
	       "ADDFB2 with unknown flags");
#undef FB
}

/* ---- random requests ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static uint64_t pick(const uint64_t *v, unsigned int n)
{
	return v[rn(n)];
}

/*
 * A value for @e, edge-biased. Sets *invalid when the value is invalid
 * whatever the state (the kernel must refuse it at set-property time).
 */
static uint64_t random_value(const struct prop_ent *e, bool *invalid)
{
	drmModePropertyRes *p = e->p;
	const char *name = p->name;
	unsigned int r = rn(100);
	int i;

	if (p->flags & DRM_MODE_PROP_IMMUTABLE) {
		*invalid = true;
		return r < 50 ? e->cur : rnd();
	}
	if (!strcmp(name, "OUT_FENCE_PTR") || strstr(name, "FENCE_PTR")) {
		if (r < 70)
			return 0;
		if (r < 90) {
			g.fence = 12345;
			return (uintptr_t)&g.fence;
		}
		*invalid = true;
		return 8;		/* -EFAULT */
	}
	if (!strcmp(name, "IN_FENCE_FD")) {
		if (r < 80)
			return (uint64_t)-1;
		*invalid = true;
		return r < 90 ? (uint64_t)g.fd : 999999;
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_OBJECT)) {
		bool crtc = p->values[0] == DRM_MODE_OBJECT_CRTC;

		if (r < 15)
			return 0;
		if (r < 75) {
			if (crtc)
				return g.res->crtcs[rn(g.res->count_crtcs)];
			switch (rn(6)) {
			case 0:
				return g.fb[1].fb_id;
			case 1:
				return g.small.fb_id;
			case 2:
				return g.big.fb_id ? g.big.fb_id :
				       g.fb[0].fb_id;
			case 3:
				return g.rgb565.fb_id;
			default:
				return g.fb[0].fb_id;
			}
		}
		*invalid = true;
		switch (rn(4)) {
		case 0:
			return BOGUS_ID;
		case 1:
			return g.mode_blob[0];
		case 2:
			return crtc ? g.pipe[0].plane : g.pipe[0].crtc;
		default:
			return rnd();
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_BLOB)) {
		bool mode = !strcmp(name, "MODE_ID");

		if (r < 15)
			return 0;
		if (mode && r < 75) {
			if (rn(4) == 0)
				return g.alt_blob;
			return g.mode_blob[rn(g.npipes)];
		}
		if (!strcmp(name, "FB_DAMAGE_CLIPS") && r < 75)
			return rn(2) ? g.damage_blob : g.bad_damage_blob;
		switch (rn(4)) {
		case 0:
			*invalid = true;
			return BOGUS_ID;
		case 1:
			*invalid = true;
			return g.pipe[0].crtc;
		case 2:
			if (mode) {
				*invalid = true;
				return g.bad_blob[rn(4)];
			}
			return g.mode_blob[0];
		default:
			if (mode || !strcmp(name, "FB_DAMAGE_CLIPS"))
				*invalid = true;
			return g.short_blob;
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_RANGE)) {
		uint64_t lo = p->values[0], hi = p->values[1];
		bool src = !strncmp(name, "SRC_", 4);
		uint64_t v;

		if (src && r < 60) {
			static const uint64_t px[] = {
				0, 1, 63, 64, 65, 480, 640, 720, 1080, 1280,
				1920, 1921, 2160, 4096, 8192, 0xffff,
			};

			v = pick(px, ARRAY_SIZE(px)) << 16;
			if (rn(8) == 0)
				v += rn(0x10000);
			return v;
		}
		if (!strcmp(name, "CRTC_W") || !strcmp(name, "CRTC_H")) {
			static const uint64_t px[] = {
				0, 1, 64, 480, 640, 720, 1080, 1280, 1920,
				2160, 4096, 0x7fffffff,
			};

			if (r < 70)
				return pick(px, ARRAY_SIZE(px));
		}
		switch (rn(8)) {
		case 0:
			return lo;
		case 1:
			return hi;
		case 2:
			if (hi == UINT64_MAX)
				return hi - 1;
			*invalid = true;
			return hi + 1;
		case 3:
			if (lo == 0)
				return 0;
			*invalid = true;
			return lo - 1;
		case 4:
			return lo + (hi - lo) / 2;
		case 5:
			v = rnd();
			if (v < lo || v > hi)
				*invalid = true;
			return v;
		default:
			return hi - lo + 1 ? lo + rnd() % (hi - lo + 1) : rnd();
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		int64_t lo = (int64_t)p->values[0], hi = (int64_t)p->values[1];
		static const int64_t px[] = {
			0, -1, 1, -64, 64, -1920, 100, 1919, 1920, 4095,
			INT_MAX, INT_MIN, INT_MAX - 64,
		};
		int64_t v;

		if (r < 60) {
			v = px[rn(ARRAY_SIZE(px))];
		} else if (r < 80) {
			v = rn(2) ? lo : hi;
		} else {
			v = (int64_t)rnd();
		}
		if (v < lo || v > hi)
			*invalid = true;
		return (uint64_t)v;
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_ENUM)) {
		if (r < 85 && p->count_enums)
			return p->enums[rn(p->count_enums)].value;
		*invalid = true;
		{
			uint64_t top = 0;

			for (i = 0; i < p->count_enums; i++)
				if (p->enums[i].value > top)
					top = p->enums[i].value;
			return r < 95 ? top + 1 : rnd() | (1ull << 40);
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		uint64_t mask = 0, v = 0;

		for (i = 0; i < p->count_enums; i++)
			mask |= 1ull << p->enums[i].value;
		if (r < 80 && p->count_enums) {
			v = 1ull << p->enums[rn(p->count_enums)].value;
			if (rn(3) == 0)
				v |= 1ull << p->enums[rn(p->count_enums)].value;
		} else {
			v = rnd();
		}
		if (v & ~mask)
			*invalid = true;
		if (!strcmp(name, "rotation") &&
		    __builtin_popcountll(v & DRM_MODE_ROTATE_MASK) != 1)
			*invalid = true;
		return v;
	}
	return rnd();
}

struct rstats {
	unsigned long requests, real, real_ok, nonblock, events_asked;
	unsigned long must_fail, must_fail_ok;
	unsigned long flag_checks, flag_checks_ok;
	unsigned long resets, reset_fail;
	char first_bad[384];
};

static void note_bad(struct rstats *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note_bad(struct rstats *st, const char *fmt, ...)
{
	va_list ap;

	if (st->first_bad[0])
		return;
	va_start(ap, fmt);
	vsnprintf(st->first_bad, sizeof(st->first_bad), fmt, ap);
	va_end(ap);
}

/* A valid value for @e, or false if none came up (immutable...). */
static bool random_valid(const struct prop_ent *e, uint64_t *v)
{
	int i;

	for (i = 0; i < 8; i++) {
		bool inv = false;

		*v = random_value(e, &inv);
		if (!inv)
			return true;
	}
	return false;
}

/* Add one item that is invalid whatever the state. */
static void add_invalid(struct raw_req *q, const struct object *o,
			const char **kind)
{
	const struct object *x;
	int i;

	switch (rn(4)) {
	case 0: {
		static const char *const names[] = {
			"object 0", "nonexistent object", "a framebuffer",
			"a blob", "an encoder",
		};
		uint32_t k = rn(5);
		uint32_t id = k == 0 ? 0 : k == 1 ? BOGUS_ID :
			      k == 2 ? g.fb[0].fb_id :
			      k == 3 ? g.mode_blob[0] :
			      (g.res->count_encoders ? g.res->encoders[0] :
			       BOGUS_ID);

		*kind = names[k];
		raw_add(q, id, o->props[rn(o->nprops)].id, 0);
		return;
	}
	case 1:
		x = &g.obj[rn(g.nobj)];
		if (x->type != o->type && x->nprops) {
			uint32_t prop = x->props[rn(x->nprops)].id;
			bool shared = false;

			/* CRTC_ID is one property on planes and connectors. */
			for (i = 0; i < o->nprops; i++)
				shared |= o->props[i].id == prop;
			if (!shared) {
				*kind = "a property of another object type";
				raw_add(q, o->id, prop, 0);
				return;
			}
		}
		*kind = "property id 0 or nonexistent";
		raw_add(q, o->id, rn(2) ? 0 : BOGUS_ID, 0);
		return;
	default:
		for (i = 0; i < 32; i++) {
			const struct prop_ent *e = &o->props[rn(o->nprops)];
			bool inv = false;
			uint64_t v = random_value(e, &inv);

			if (inv) {
				*kind = e->p->name;
				raw_add(q, o->id, e->id, v);
				return;
			}
		}
		*kind = "nonexistent object";
		raw_add(q, BOGUS_ID, o->props[0].id, 0);
		return;
	}
}

static void random_request(struct rstats *st)
{
	struct raw_req q = { 0 };
	unsigned int nobj = 1 + rn(4), i, k, r;
	unsigned int bad_at = rn(100) < 35 ? rn(nobj) : ~0u;
	const char *kind = NULL;
	bool flag_bad = false, plain_flip = false;
	uint32_t flags;
	int ret;

	if (rn(100) < 5) {
		/* A plain page flip of some pipe, amid the garbage. */
		const struct kms_pipe *p = &g.pipe[rn(g.npipes)];

		raw_add(&q, p->plane, pid(p->plane, DRM_MODE_OBJECT_PLANE,
					  "FB_ID"), g.fb[rn(2)].fb_id);
		nobj = 0;
		bad_at = ~0u;
		plain_flip = true;
	}
	for (i = 0; i < nobj; i++) {
		const struct object *o = &g.obj[rn(g.nobj)];
		unsigned int nprops = 1 + rn(5);

		if (!o->nprops)
			continue;
		for (k = 0; k < nprops; k++) {
			const struct prop_ent *e = &o->props[rn(o->nprops)];
			uint64_t v;

			if (random_valid(e, &v))
				raw_add(&q, o->id, e->id, v);
		}
		if (i == bad_at)
			add_invalid(&q, o, &kind);
	}

	r = rn(100);
	if (r < 70) {
		flags = DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET;
	} else if (r < 78) {
		flags = DRM_MODE_ATOMIC_TEST_ONLY;
	} else if (r < 80) {
		flags = DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT;
		flag_bad = true;
	} else if (r < 82) {
		/* An unknown flag bit, or async without the cap. */
		k = rn(2) ? 3 + rn(5) : 11 + rn(21);
		flags = DRM_MODE_ATOMIC_TEST_ONLY | (1u << k);
		if (!g.async_cap && rn(4) == 0)
			flags = DRM_MODE_ATOMIC_TEST_ONLY |
				DRM_MODE_PAGE_FLIP_ASYNC;
		flag_bad = !(flags & DRM_MODE_PAGE_FLIP_ASYNC) || !g.async_cap;
	} else if (r < 90) {
		flags = DRM_MODE_ATOMIC_ALLOW_MODESET;
	} else if (r < 95) {
		flags = DRM_MODE_ATOMIC_NONBLOCK |
			DRM_MODE_ATOMIC_ALLOW_MODESET;
	} else {
		flags = DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT |
			(rn(2) ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0);
	}
	if (plain_flip) {
		flags = DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT;
		flag_bad = false;
	}
	if (!(flags & DRM_MODE_ATOMIC_TEST_ONLY))
		st->real++;
	if (flags & DRM_MODE_ATOMIC_NONBLOCK)
		st->nonblock++;
	if ((flags & DRM_MODE_PAGE_FLIP_EVENT) && !flag_bad)
		st->events_asked++;

	g.fence = 12345;
	arm(sf("random request %lu (flags %#x)", st->requests, flags));
	ret = raw_commit(&q, flags);
	disarm();
	count(ret);
	st->requests++;
	if (!(flags & DRM_MODE_ATOMIC_TEST_ONLY) && !ret)
		st->real_ok++;

	if (flag_bad) {
		st->flag_checks++;
		if (ret == -EINVAL)
			st->flag_checks_ok++;
		else
			note_bad(st, "request %lu with flags %#x: %s, expected -EINVAL",
				 st->requests - 1, flags, ename(ret));
	} else if (kind) {
		st->must_fail++;
		if (ret < 0)
			st->must_fail_ok++;
		else
			note_bad(st, "request %lu (flags %#x) with an invalid item (%s) succeeded",
				 st->requests - 1, flags, kind);
	}
	if (!ret && g.fence != 12345 && g.fence >= 0)
		close(g.fence);
	drain(0);
}

static void test_random(unsigned long n)
{
	struct rstats st = { 0 };
	double t0 = mono_now();
	unsigned int events0 = g.events;
	unsigned long i;
	int ret;

	printf("# %lu random atomic requests\n", n);
	hist = hist_random;
	for (i = 0; i < n; i++) {
		random_request(&st);
		if (i % 500 == 499) {
			/* Back to a known state now and then. */
			drain(20);
			st.resets++;
			ret = disable_all("reset to all off");
			if (ret) {
				st.reset_fail++;
				note_bad(&st, "switching all off after request %lu: %s",
					 i, ename(ret));
			}
			/* Every other round starts with every pipe on. */
			if (!ret && (i / 500) % 2 == 0) {
				ret = all_pipes_on();
				if (ret) {
					st.reset_fail++;
					note_bad(&st, "switching all pipes on after request %lu: %s",
						 i, ename(ret));
				}
			}
		}
	}
	drain(100);
	hist = hist_fixed;
	printf("# random: %lu requests in %.1f s: %lu real (%lu accepted; %lu nonblocking, %lu with events), %lu with an invalid item, %lu with invalid flags, %u events received\n",
	       st.requests, mono_now() - t0, st.real, st.real_ok,
	       st.nonblock, st.events_asked, st.must_fail, st.flag_checks,
	       g.events - events0);
	print_hist("random requests by result", hist_random);
	check(st.requests == n, sf("%lu random requests all returned", n),
	      sf("%lu", st.requests));
	check(st.must_fail_ok == st.must_fail,
	      "random requests with an invalid item fail",
	      st.first_bad);
	check(st.flag_checks_ok == st.flag_checks,
	      "random requests with invalid flags fail -EINVAL",
	      st.first_bad);
	check(!st.reset_fail, "switching everything off between rounds works",
	      st.first_bad);
}

/* ---- still alive? ---- */

static void test_still_works(void)
{
	uint32_t plane = g.pipe[0].plane;
	uint32_t fb_prop = pid(plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	unsigned int i, done = 0, seq0 = 0, before;
	const char *err = "";
	int ret;

	printf("# the driver still works\n");
	drain(50);
	ret = disable_all("switch everything off");
	check(!ret, "switch everything off after the garbage", ename(ret));
	ret = pipe0_on();
	if (!check(!ret, "valid modeset after the garbage", ename(ret)))
		return;
	for (i = 0; i < 10; i++) {
		struct areq r;

		before = g.events;
		areq_init(&r, g.fd);
		areq_add_id(&r, plane, fb_prop, g.fb[(i + 1) & 1].fb_id);
		arm("flip after the garbage");
		ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
				  DRM_MODE_PAGE_FLIP_EVENT, NULL);
		disarm();
		areq_fini(&r);
		if (ret) {
			err = sf("flip %u: %s", i, ename(ret));
			break;
		}
		arm("waiting for a flip event");
		while (g.events == before &&
		       wait_event(g.fd, &evctx, EVENT_TIMEOUT_MS) > 0)
			;
		disarm();
		if (g.events != before + 1) {
			err = sf("flip %u: no event within 1 s", i);
			break;
		}
		if (i == 0)
			seq0 = g.event_seq;
		else if ((int32_t)(g.event_seq - seq0) < (int)i) {
			err = sf("flip %u: sequence %u after %u", i,
				 g.event_seq, seq0);
			break;
		}
		done++;
	}
	check(done == 10, "10 page flips with events after the garbage", err);
	ret = disable_all("switch everything off");
	check(!ret, "switch everything off at the end", ename(ret));
}

/* Put every settable property back as it was when the test started. */
static void restore_start_state(void)
{
	struct areq r;
	int i, j, n = 0, ret;

	areq_init(&r, g.fd);
	for (i = 0; i < g.nobj; i++) {
		const struct object *o = &g.obj[i];

		for (j = 0; j < o->nprops; j++) {
			const drmModePropertyRes *p = o->props[j].p;

			if ((p->flags & DRM_MODE_PROP_IMMUTABLE) ||
			    strstr(p->name, "FENCE") ||
			    strstr(p->name, "WRITEBACK") ||
			    !strcmp(p->name, "DPMS") ||
			    !strcmp(p->name, "FB_DAMAGE_CLIPS"))
				continue;
			areq_add_id(&r, o->id, o->props[j].id,
				    o->props[j].cur);
			n++;
		}
	}
	ret = commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "restore");
	check(!ret, sf("restore all %d settable properties to their start values",
		       n), ename(ret));
}

int main(int argc, char **argv)
{
	unsigned long n = 5000;
	uint64_t seed = 1;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n RANDOM_REQUESTS]\n",
				argv[0]);
			return 2;
		}
	}
	rng_state = seed;
	printf("# seed %llu (rerun with -s %llu), %lu random requests\n",
	       (unsigned long long)seed, (unsigned long long)seed, n);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);

	g.fd = atomkms_open();
	if (!check(g.fd >= 0, "open atomkms device", "not found"))
		goto out;
	if (setup())
		goto out_close;

	/* Everything off: the TEST_ONLY cases see the same state each time. */
	test_object_ids();
	test_prop_values();
	test_fences();
	test_blobs();
	test_modes();
	test_plane_crtc();
	test_atomic_ioctl();
	test_setcrtc();
	test_page_flip();
	test_rects();
	test_cursor();
	test_misc_ioctls();
	print_hist("fixed cases by result", hist_fixed);

	disable_all("switch everything off");
	test_random(n);
	test_still_works();
	restore_start_state();

out_close:
	close(g.fd);
out:
	printf("test-bad-input: %s\n", failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
