// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-test-only - DRM_MODE_ATOMIC_TEST_ONLY changes nothing, and what it
 * accepts a real commit accepts too.
 *
 * Snapshots every property value of every CRTC, connector and plane
 * (drmModeObjectGetProperties), each CRTC's legacy state and mode
 * (drmModeGetCrtc), each plane's CRTC and fb (drmModeGetPlane), each
 * connector's and encoder's routing; then runs a series of TEST_ONLY
 * commits that would change things: modesets to another mode, CRTCs on and
 * off, planes moved and resized, cursor moves, and every other settable
 * property the device exposes (zpos, alpha, rotation, blend mode, colour
 * management... whatever appears) through its whole range of values, plus
 * invalid requests that must fail with a given errno. After each one the
 * snapshot must be identical and no event may have been delivered;
 * TEST_ONLY with PAGE_FLIP_EVENT must be -EINVAL. Every TEST_ONLY that
 * passes is then committed for real: it must be accepted, the properties
 * must read back as set, and restoring the base state must give the
 * identical snapshot again. All of it from two base states: everything
 * off, and every pipe on with a cursor on the first.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drmutil.h"
#include "tap.h"

#define MAX_PIPES	16
#define MAX_OBJS	128
#define MAX_PROPS	64
#define BOGUS_ID	0x7ffffff0u

/* Expectations besides a specific result (0 or -errno). */
#define EXPECT_ANY	1	/* either way, but consistent with a commit */
#define EXPECT_FAIL	2	/* any negative errno */

struct obj_snap {
	uint32_t id, type;
	uint32_t count;
	uint32_t props[MAX_PROPS];
	uint64_t vals[MAX_PROPS];
};

struct snapshot {
	int nobj;
	struct obj_snap obj[MAX_OBJS];
	int ncrtc;
	drmModeCrtc crtc[MAX_PIPES * 2];
	int nplane;
	struct {
		uint32_t id, crtc_id, fb_id, possible_crtcs, gamma_size;
	} plane[MAX_OBJS];
	int nconn;
	struct {
		uint32_t id, encoder_id, connection;
	} conn[MAX_PIPES * 2];
	int nenc;
	struct {
		uint32_t id, crtc_id;
	} enc[MAX_PIPES * 2];
};

struct pipe_ctx {
	struct kms_pipe p;
	uint32_t cursor;		/* its cursor plane, 0 if none */
	uint32_t blob, alt_blob;
	drmModeModeInfo alt;		/* another mode of the connector */
};

struct ctx {
	int fd;
	int npipes;
	struct pipe_ctx pipe[MAX_PIPES];
	struct dumb_fb fb[2];		/* preferred size */
	struct dumb_fb alt_fb;		/* pipe 0's other mode */
	struct dumb_fb cur_fb;		/* 64x64 cursor */
	uint32_t bad_mode_blob;
	drmModeRes *res;
	drmModePlaneRes *pres;
	struct snapshot base, now;
	const char *state;		/* name of the base state */
	unsigned int cases, commits;
};


static const char *err_name(int err)
{
	return err ? strerror(-err) : "success";
}

/* Property metadata, fetched once per id. */
static drmModePropertyRes *prop_info(int fd, uint32_t id)
{
	static drmModePropertyRes *cache[512];
	static uint32_t ids[512];
	static unsigned int n;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return cache[i];
	if (n == ARRAY_SIZE(cache))
		return drmModeGetProperty(fd, id);	/* leaks; never */
	ids[n] = id;
	cache[n] = drmModeGetProperty(fd, id);
	return cache[n++];
}

static const char *prop_name(int fd, uint32_t id)
{
	drmModePropertyRes *p = prop_info(fd, id);

	return p ? p->name : "?";
}

/* ---- snapshots ---- */

static void snap_obj(int fd, struct snapshot *s, uint32_t id, uint32_t type)
{
	drmModeObjectProperties *props;
	struct obj_snap *o;
	uint32_t i;

	if (s->nobj == MAX_OBJS)
		return;
	o = &s->obj[s->nobj++];
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->type = type;
	props = drmModeObjectGetProperties(fd, id, type);
	if (!props) {
		o->count = ~0u;
		return;
	}
	for (i = 0; i < props->count_props && i < MAX_PROPS; i++) {
		o->props[i] = props->props[i];
		o->vals[i] = props->prop_values[i];
	}
	o->count = props->count_props;
	drmModeFreeObjectProperties(props);
}

static void snapshot_take(struct ctx *c, struct snapshot *s)
{
	int fd = c->fd;
	int i;
	uint32_t j;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < c->res->count_crtcs; i++)
		snap_obj(fd, s, c->res->crtcs[i], DRM_MODE_OBJECT_CRTC);
	for (i = 0; i < c->res->count_connectors; i++)
		snap_obj(fd, s, c->res->connectors[i],
			 DRM_MODE_OBJECT_CONNECTOR);
	for (j = 0; j < c->pres->count_planes; j++)
		snap_obj(fd, s, c->pres->planes[j], DRM_MODE_OBJECT_PLANE);

	for (i = 0; i < c->res->count_crtcs &&
	     i < (int)ARRAY_SIZE(s->crtc); i++) {
		drmModeCrtc *cr = drmModeGetCrtc(fd, c->res->crtcs[i]);

		if (cr)
			s->crtc[i] = *cr;
		else
			s->crtc[i].crtc_id = 0;
		drmModeFreeCrtc(cr);
		s->ncrtc++;
	}
	for (j = 0; j < c->pres->count_planes && j < MAX_OBJS; j++) {
		drmModePlane *pl = drmModeGetPlane(fd, c->pres->planes[j]);

		s->plane[j].id = c->pres->planes[j];
		if (pl) {
			s->plane[j].crtc_id = pl->crtc_id;
			s->plane[j].fb_id = pl->fb_id;
			s->plane[j].possible_crtcs = pl->possible_crtcs;
			s->plane[j].gamma_size = pl->gamma_size;
		} else {
			s->plane[j].crtc_id = ~0u;
		}
		drmModeFreePlane(pl);
		s->nplane++;
	}
	for (i = 0; i < c->res->count_connectors &&
	     i < (int)ARRAY_SIZE(s->conn); i++) {
		/* _Current: no probe, which might touch EDID or modes. */
		drmModeConnector *cn =
			drmModeGetConnectorCurrent(fd, c->res->connectors[i]);

		s->conn[i].id = c->res->connectors[i];
		s->conn[i].encoder_id = cn ? cn->encoder_id : ~0u;
		s->conn[i].connection = cn ? cn->connection : ~0u;
		drmModeFreeConnector(cn);
		s->nconn++;
	}
	for (i = 0; i < c->res->count_encoders &&
	     i < (int)ARRAY_SIZE(s->enc); i++) {
		drmModeEncoder *e = drmModeGetEncoder(fd, c->res->encoders[i]);

		s->enc[i].id = c->res->encoders[i];
		s->enc[i].crtc_id = e ? e->crtc_id : ~0u;
		drmModeFreeEncoder(e);
		s->nenc++;
	}
}

/* NULL if @a and @b are identical, else what differs first. */
static const char *snapshot_diff(int fd, const struct snapshot *a,
				 const struct snapshot *b)
{
	int i;
	uint32_t k;

	if (a->nobj != b->nobj)
		return sf("%d objects, then %d", a->nobj, b->nobj);
	for (i = 0; i < a->nobj; i++) {
		const struct obj_snap *x = &a->obj[i], *y = &b->obj[i];

		if (x->id != y->id || x->count != y->count)
			return sf("%s %u: %u properties, then %s %u: %u",
				  obj_type_name(x->type), x->id, x->count,
				  obj_type_name(y->type), y->id, y->count);
		for (k = 0; k < x->count && k < MAX_PROPS; k++) {
			if (x->props[k] != y->props[k])
				return sf("%s %u: property %u became %u",
					  obj_type_name(x->type), x->id,
					  x->props[k], y->props[k]);
			if (x->vals[k] != y->vals[k])
				return sf("%s %u: %s %llu -> %llu",
					  obj_type_name(x->type), x->id,
					  prop_name(fd, x->props[k]),
					  (unsigned long long)x->vals[k],
					  (unsigned long long)y->vals[k]);
		}
	}
	for (i = 0; i < a->ncrtc; i++) {
		const drmModeCrtc *x = &a->crtc[i], *y = &b->crtc[i];

		if (x->crtc_id != y->crtc_id || x->buffer_id != y->buffer_id ||
		    x->x != y->x || x->y != y->y || x->width != y->width ||
		    x->height != y->height || x->mode_valid != y->mode_valid ||
		    x->gamma_size != y->gamma_size ||
		    memcmp(&x->mode, &y->mode, sizeof(x->mode)))
			return sf("GetCrtc %u: fb %u %ux%u+%u+%u mode_valid %d %s %u kHz -> fb %u %ux%u+%u+%u mode_valid %d %s %u kHz",
				  x->crtc_id, x->buffer_id, x->width,
				  x->height, x->x, x->y, x->mode_valid,
				  x->mode.name, x->mode.clock, y->buffer_id,
				  y->width, y->height, y->x, y->y,
				  y->mode_valid, y->mode.name, y->mode.clock);
	}
	for (i = 0; i < a->nplane; i++)
		if (memcmp(&a->plane[i], &b->plane[i], sizeof(a->plane[i])))
			return sf("GetPlane %u: crtc %u fb %u -> crtc %u fb %u",
				  a->plane[i].id, a->plane[i].crtc_id,
				  a->plane[i].fb_id, b->plane[i].crtc_id,
				  b->plane[i].fb_id);
	for (i = 0; i < a->nconn; i++)
		if (memcmp(&a->conn[i], &b->conn[i], sizeof(a->conn[i])))
			return sf("GetConnector %u: encoder %u -> %u, connection %u -> %u",
				  a->conn[i].id, a->conn[i].encoder_id,
				  b->conn[i].encoder_id, a->conn[i].connection,
				  b->conn[i].connection);
	for (i = 0; i < a->nenc; i++)
		if (memcmp(&a->enc[i], &b->enc[i], sizeof(a->enc[i])))
			return sf("GetEncoder %u: crtc %u -> %u", a->enc[i].id,
				  a->enc[i].crtc_id, b->enc[i].crtc_id);
	return NULL;
}

/* ---- requests ---- */

static void req_plane_off(struct areq *r, uint32_t plane)
{
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
}

/* @fb whole on @plane at (@x, @y). */
static void req_plane(struct areq *r, uint32_t plane, uint32_t crtc,
		      const struct dumb_fb *fb, int32_t x, int32_t y)
{
	areq_plane(r, plane, crtc, fb->fb_id, fb->width, fb->height, x, y);
}

static void req_pipe_off(struct areq *r, const struct pipe_ctx *pc)
{
	areq_disable(r, &pc->p);
	if (pc->cursor)
		req_plane_off(r, pc->cursor);
}

/* ---- the base state and its restoration ---- */

/* Properties a restore (or the generic sweep) must not write. */
static bool prop_not_restorable(const drmModePropertyRes *p)
{
	static const char *const skip[] = {
		"DPMS", "OUT_FENCE_PTR", "IN_FENCE_FD", "FB_DAMAGE_CLIPS",
		"WRITEBACK_OUT_FENCE_PTR", "WRITEBACK_FB_ID",
	};
	unsigned int i;

	if (p->flags & DRM_MODE_PROP_IMMUTABLE)
		return true;
	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(p->name, skip[i]))
			return true;
	return false;
}

/* Write every settable property back to its value in @s. */
static int restore(struct ctx *c, const struct snapshot *s)
{
	struct areq *r = calloc(1, sizeof(*r));
	int i, ret;
	uint32_t k;

	if (!r)
		return -ENOMEM;
	areq_init(r, c->fd);
	for (i = 0; i < s->nobj; i++) {
		const struct obj_snap *o = &s->obj[i];

		for (k = 0; k < o->count && k < MAX_PROPS; k++) {
			drmModePropertyRes *p = prop_info(c->fd, o->props[k]);

			if (p && !prop_not_restorable(p))
				areq_add_id(r, o->id, o->props[k], o->vals[k]);
		}
	}
	ret = areq_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	free(r);
	return ret;
}

/* Read the fd without blocking; how many events were waiting. */
static unsigned int events_seen;

static void any_handler(int fd, unsigned int seq, unsigned int tv_sec,
			unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	(void)fd;
	(void)seq;
	(void)tv_sec;
	(void)tv_usec;
	(void)crtc_id;
	(void)data;
	events_seen++;
}

static void vbl_handler(int fd, unsigned int seq, unsigned int tv_sec,
			unsigned int tv_usec, void *data)
{
	any_handler(fd, seq, tv_sec, tv_usec, 0, data);
}

static drmEventContext evctx = {
	.version = DRM_EVENT_CONTEXT_VERSION,
	.vblank_handler = vbl_handler,
	.page_flip_handler2 = any_handler,
};

static unsigned int pending_events(int fd, int timeout_ms)
{
	unsigned int before = events_seen;

	while (wait_event(fd, &evctx, timeout_ms) > 0)
		timeout_ms = 0;
	return events_seen - before;
}

/* ---- one case ---- */

static bool value_reads_back(const struct ctx *c, const struct areq *r,
			     const char **why)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		drmModePropertyRes *p = prop_info(c->fd, r->items[i].prop);
		drmModeObjectProperties *props;
		uint64_t got = 0;
		bool found = false;
		uint32_t k;

		if (!p || !strcmp(p->name, "OUT_FENCE_PTR") ||
		    !strcmp(p->name, "IN_FENCE_FD") ||
		    !strcmp(p->name, "link-status"))
			continue;
		/* Any type: drmModeObjectGetProperties wants the real one. */
		props = drmModeObjectGetProperties(c->fd, r->items[i].obj,
						   DRM_MODE_OBJECT_ANY);
		for (k = 0; props && k < props->count_props; k++) {
			if (props->props[k] == r->items[i].prop) {
				got = props->prop_values[k];
				found = true;
			}
		}
		drmModeFreeObjectProperties(props);
		if (!found || got != r->items[i].val) {
			*why = sf("object %u %s reads %llu, set %llu",
				  r->items[i].obj, p->name,
				  (unsigned long long)got,
				  (unsigned long long)r->items[i].val);
			return false;
		}
	}
	return true;
}

/*
 * TEST_ONLY @r with @flags; the result must be @expect, and nothing may
 * change or be signalled. If it passes and @commit, also commit it for
 * real, read it back and restore the base state.
 */
static int try_case(struct ctx *c, const char *what, const struct areq *r,
		    uint32_t flags, int expect, bool commit)
{
	const char *diff, *why = "";
	unsigned int ev;
	bool ok;
	int ret, ret2;

	c->cases++;
	if (r->err) {
		check(false, sf("[%s] %s", c->state, what),
		      sf("building the request: %s", err_name(r->err)));
		return r->err;
	}
	ret = areq_commit(r, flags | DRM_MODE_ATOMIC_TEST_ONLY, NULL);
	if (expect == EXPECT_ANY)
		printf("# [%s] %s: TEST_ONLY %s\n", c->state, what,
		       err_name(ret));
	else if (expect == EXPECT_FAIL)
		check(ret < 0, sf("[%s] TEST_ONLY %s fails", c->state, what),
		      err_name(ret));
	else
		check(ret == expect, sf("[%s] TEST_ONLY %s returns %s",
					c->state, what, err_name(expect)),
		      err_name(ret));

	snapshot_take(c, &c->now);
	diff = snapshot_diff(c->fd, &c->base, &c->now);
	ev = pending_events(c->fd, 0);
	check(!diff && !ev,
	      sf("[%s] TEST_ONLY %s changes nothing", c->state, what),
	      diff ? diff : sf("%u events delivered", ev));
	if (diff)
		restore(c, &c->base);

	if (ret || !commit)
		return ret;

	/* Check/commit consistency: the real thing must do as it said. */
	c->commits++;
	ret2 = areq_commit(r, flags, NULL);
	ok = ret2 == 0;
	if (!ok)
		why = sf("TEST_ONLY passed, commit %s", err_name(ret2));
	if (ok)
		ok = value_reads_back(c, r, &why);
	ret2 = restore(c, &c->base);
	snapshot_take(c, &c->now);
	diff = snapshot_diff(c->fd, &c->base, &c->now);
	ev = pending_events(c->fd, 0);
	if (ok && ret2) {
		ok = false;
		why = sf("restore commit %s", err_name(ret2));
	}
	if (ok && diff) {
		ok = false;
		why = sf("after restore: %s", diff);
	}
	if (ok && ev) {
		ok = false;
		why = sf("%u events without PAGE_FLIP_EVENT", ev);
	}
	check(ok, sf("[%s] real commit of %s is accepted, reads back, restores",
		     c->state, what), why);
	return ret;
}

/* ---- the cases ---- */

static bool on_state(const struct ctx *c)
{
	return !strcmp(c->state, "on");
}

static void cases_modeset(struct ctx *c)
{
	struct pipe_ctx *p0 = &c->pipe[0];
	bool on = on_state(c);
	struct areq r;
	int i;

	areq_init(&r, c->fd);
	areq_modeset(&r, &p0->p, p0->alt_blob, &c->alt_fb);
	try_case(c, sf("modeset crtc %u to %s", p0->p.crtc, p0->alt.name), &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, 0, true);
	try_case(c, sf("modeset crtc %u to %s without ALLOW_MODESET",
		       p0->p.crtc, p0->alt.name), &r, 0, -EINVAL, false);

	if (c->npipes >= 2) {
		areq_init(&r, c->fd);
		for (i = 0; i < c->npipes; i++) {
			areq_modeset(&r, &c->pipe[i].p,
				     c->pipe[i].alt_blob,
				     c->pipe[i].alt.hdisplay == c->alt_fb.width &&
				     c->pipe[i].alt.vdisplay == c->alt_fb.height ?
				     &c->alt_fb : NULL);
			if (c->pipe[i].alt.hdisplay != c->alt_fb.width ||
			    c->pipe[i].alt.vdisplay != c->alt_fb.height)
				req_plane_off(&r, c->pipe[i].p.plane);
		}
		try_case(c, sf("modeset all %d pipes to another mode",
			       c->npipes), &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
			 0, true);
	}

	if (on) {
		areq_init(&r, c->fd);
		req_pipe_off(&r, p0);
		try_case(c, sf("switch crtc %u off", p0->p.crtc), &r,
			 DRM_MODE_ATOMIC_ALLOW_MODESET, 0, true);

		areq_init(&r, c->fd);
		for (i = 0; i < c->npipes; i++)
			req_pipe_off(&r, &c->pipe[i]);
		try_case(c, "switch every pipe off", &r,
			 DRM_MODE_ATOMIC_ALLOW_MODESET, 0, true);

		areq_init(&r, c->fd);
		areq_add(&r, p0->p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE",
			 0);
		try_case(c, sf("ACTIVE=0 on crtc %u keeping its mode",
			       p0->p.crtc), &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
			 0, true);
		try_case(c, sf("ACTIVE=0 on crtc %u without ALLOW_MODESET",
			       p0->p.crtc), &r, 0, -EINVAL, false);

		areq_init(&r, c->fd);
		areq_add(&r, p0->p.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID",
			 p0->blob);
		try_case(c, sf("MODE_ID on crtc %u set to its current mode",
			       p0->p.crtc), &r, 0, 0, true);
	} else {
		areq_init(&r, c->fd);
		areq_modeset(&r, &p0->p, p0->blob, &c->fb[0]);
		try_case(c, sf("switch crtc %u on", p0->p.crtc), &r,
			 DRM_MODE_ATOMIC_ALLOW_MODESET, 0, true);

		areq_init(&r, c->fd);
		areq_modeset(&r, &p0->p, p0->blob, NULL);
		try_case(c, sf("switch crtc %u on with no plane", p0->p.crtc),
			 &r, DRM_MODE_ATOMIC_ALLOW_MODESET, 0, true);

		areq_init(&r, c->fd);
		areq_add(&r, p0->p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE",
			 1);
		try_case(c, sf("ACTIVE=1 on crtc %u without a mode",
			       p0->p.crtc), &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
			 -EINVAL, false);

		areq_init(&r, c->fd);
		areq_add(&r, p0->p.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID",
			 p0->blob);
		areq_add(&r, p0->p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE",
			 1);
		try_case(c, sf("crtc %u on without a connector", p0->p.crtc),
			 &r, DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);
	}
}

static void cases_planes(struct ctx *c)
{
	struct pipe_ctx *p0 = &c->pipe[0];
	uint32_t plane = p0->p.plane, crtc = p0->p.crtc;
	uint32_t w = c->fb[0].width, h = c->fb[0].height;
	struct areq r;

	if (!on_state(c)) {
		/*
		 * A driver may let planes be set up on a disabled CRTC
		 * (can_update_disabled, as vkms does); if it says so, the
		 * commit must agree.
		 */
		areq_init(&r, c->fd);
		req_plane(&r, plane, crtc, &c->fb[0], 0, 0);
		try_case(c, sf("primary plane %u on disabled crtc %u", plane,
			       crtc), &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
			 EXPECT_ANY, true);
		if (p0->cursor) {
			areq_init(&r, c->fd);
			req_plane(&r, p0->cursor, crtc, &c->cur_fb, 10,
				  10);
			try_case(c, sf("cursor plane %u on disabled crtc %u",
				       p0->cursor, crtc), &r,
				 DRM_MODE_ATOMIC_ALLOW_MODESET, EXPECT_ANY,
				 true);
		}
		return;
	}

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
		 c->fb[1].fb_id);
	try_case(c, sf("flip plane %u to another fb", plane), &r, 0, 0, true);
	try_case(c, sf("nonblocking flip of plane %u", plane), &r,
		 DRM_MODE_ATOMIC_NONBLOCK, 0, false);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", 100);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 50);
	try_case(c, sf("move plane %u to +100+50", plane), &r, 0, 0, true);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W",
		 (uint64_t)(w / 2) << 16);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_H",
		 (uint64_t)(h / 2) << 16);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w / 2);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", h / 2);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", w / 4);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", h / 4);
	try_case(c, sf("resize plane %u to %ux%u+%u+%u", plane, w / 2, h / 2,
		       w / 4, h / 4), &r, 0, 0, true);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_X",
		 (uint64_t)(w / 4) << 16);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W",
		 (uint64_t)(w / 2) << 16);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w / 2);
	try_case(c, sf("pan plane %u's source", plane), &r, 0, 0, true);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w / 2);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", h / 2);
	try_case(c, sf("scale plane %u down by 2", plane), &r, 0, EXPECT_ANY,
		 true);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W",
		 (uint64_t)(w + 1) << 16);
	try_case(c, sf("plane %u source beyond its fb", plane), &r, 0,
		 -ENOSPC, false);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	try_case(c, sf("plane %u with an fb but no crtc", plane), &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);

	areq_init(&r, c->fd);
	areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	try_case(c, sf("plane %u with a crtc but no fb", plane), &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);

	areq_init(&r, c->fd);
	req_plane_off(&r, plane);
	try_case(c, sf("switch primary plane %u off", plane), &r, 0, 0, true);

	if (p0->cursor) {
		areq_init(&r, c->fd);
		areq_add(&r, p0->cursor, DRM_MODE_OBJECT_PLANE,
			 "CRTC_X", 200);
		areq_add(&r, p0->cursor, DRM_MODE_OBJECT_PLANE,
			 "CRTC_Y", 300);
		try_case(c, sf("move cursor plane %u", p0->cursor), &r, 0, 0,
			 true);

		areq_init(&r, c->fd);
		areq_add(&r, p0->cursor, DRM_MODE_OBJECT_PLANE,
			 "CRTC_X", (uint64_t)-32);
		areq_add(&r, p0->cursor, DRM_MODE_OBJECT_PLANE,
			 "CRTC_Y", (uint64_t)-32);
		try_case(c, sf("cursor plane %u partly off screen", p0->cursor),
			 &r, 0, 0, true);

		areq_init(&r, c->fd);
		req_plane_off(&r, p0->cursor);
		try_case(c, sf("switch cursor plane %u off", p0->cursor), &r,
			 0, 0, true);
	}
}

/* Errors that do not depend on the base state. */
static void cases_invalid(struct ctx *c)
{
	struct pipe_ctx *p0 = &c->pipe[0];
	uint32_t active = prop_id(c->fd, p0->p.crtc, DRM_MODE_OBJECT_CRTC,
				  "ACTIVE");
	uint32_t fb_prop = prop_id(c->fd, p0->p.plane, DRM_MODE_OBJECT_PLANE,
				   "FB_ID");
	struct areq r;

	areq_init(&r, c->fd);
	areq_modeset(&r, &p0->p, c->bad_mode_blob, NULL);
	try_case(c, "modeset to a mode with a zero clock", &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);

	areq_init(&r, c->fd);
	areq_modeset(&r, &p0->p, p0->p.plane, NULL);
	try_case(c, "modeset with a plane id as MODE_ID", &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);

	areq_init(&r, c->fd);
	areq_add_id(&r, BOGUS_ID, active, 1);
	try_case(c, "ACTIVE on an unknown object id", &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -ENOENT, false);

	areq_init(&r, c->fd);
	areq_add_id(&r, p0->p.crtc, fb_prop, c->fb[0].fb_id);
	try_case(c, "plane property FB_ID on a crtc", &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -ENOENT, false);

	areq_init(&r, c->fd);
	areq_modeset(&r, &p0->p, p0->blob, &c->fb[0]);
	areq_add(&r, p0->p.plane, DRM_MODE_OBJECT_PLANE, "SRC_H",
		 (uint64_t)(c->fb[0].height + 1) << 16);
	try_case(c, "modeset with the source beyond the fb", &r,
		 DRM_MODE_ATOMIC_ALLOW_MODESET, -ENOSPC, false);

	if (c->npipes >= 2) {
		struct pipe_ctx *p1 = &c->pipe[1];

		areq_init(&r, c->fd);
		areq_modeset(&r, &p1->p, p1->blob, NULL);
		req_plane(&r, p0->p.plane, p1->p.crtc, &c->fb[0], 0, 0);
		try_case(c, sf("plane %u on crtc %u, not in its possible_crtcs",
			       p0->p.plane, p1->p.crtc), &r,
			 DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);
		if (p0->cursor) {
			areq_init(&r, c->fd);
			areq_modeset(&r, &p1->p, p1->blob, &c->fb[0]);
			req_plane(&r, p0->cursor, p1->p.crtc,
				  &c->cur_fb, 0, 0);
			try_case(c, sf("cursor plane %u of crtc %u on crtc %u",
				       p0->cursor, p0->p.crtc, p1->p.crtc), &r,
				 DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL,
				 false);
		}
	}

	/* The core must refuse to promise an event for a test. */
	areq_init(&r, c->fd);
	if (on_state(c))
		areq_add(&r, p0->p.plane, DRM_MODE_OBJECT_PLANE,
			 "FB_ID", c->fb[1].fb_id);
	else
		areq_modeset(&r, &p0->p, p0->blob, &c->fb[0]);
	try_case(c, "TEST_ONLY with PAGE_FLIP_EVENT", &r,
		 DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_ALLOW_MODESET,
		 -EINVAL, false);
	try_case(c, "TEST_ONLY with PAGE_FLIP_EVENT and NONBLOCK", &r,
		 DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK,
		 -EINVAL, false);
	try_case(c, "TEST_ONLY with an unknown flag", &r,
		 0x40000000u | DRM_MODE_ATOMIC_ALLOW_MODESET, -EINVAL, false);

	if (on_state(c)) {
		int32_t fence = 12345;

		areq_init(&r, c->fd);
		areq_add(&r, p0->p.plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
			 c->fb[1].fb_id);
		areq_add(&r, p0->p.crtc, DRM_MODE_OBJECT_CRTC,
			 "OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
		try_case(c, "TEST_ONLY flip with OUT_FENCE_PTR", &r, 0, 0,
			 false);
		check(fence == -1, "[on] TEST_ONLY with OUT_FENCE_PTR makes no fence",
		      sf("fence fd %d", fence));
		if (fence >= 0 && fence != 12345)
			close(fence);
	}
}

/* Candidate values for a settable property; returns how many. */
static int prop_values(drmModePropertyRes *p, uint64_t *v, int max,
		       uint64_t *bad, int *nbad)
{
	int n = 0, i;

	*nbad = 0;
	if (drm_property_type_is(p, DRM_MODE_PROP_RANGE)) {
		uint64_t lo = p->values[0], hi = p->values[1];

		v[n++] = lo;
		if (hi != lo)
			v[n++] = hi;
		if (hi - lo > 1)
			v[n++] = lo + (hi - lo) / 2;
		if (hi != UINT64_MAX)
			bad[(*nbad)++] = hi + 1;
		if (lo > 0)
			bad[(*nbad)++] = lo - 1;
	} else if (drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		int64_t lo = (int64_t)p->values[0], hi = (int64_t)p->values[1];

		v[n++] = (uint64_t)lo;
		if (hi != lo)
			v[n++] = (uint64_t)hi;
		if (hi > lo + 1)
			v[n++] = (uint64_t)(lo + (hi - lo) / 2);
		if (hi != INT64_MAX)
			bad[(*nbad)++] = (uint64_t)(hi + 1);
		if (lo != INT64_MIN)
			bad[(*nbad)++] = (uint64_t)(lo - 1);
	} else if (drm_property_type_is(p, DRM_MODE_PROP_ENUM)) {
		uint64_t top = 0;

		for (i = 0; i < p->count_enums && n < max; i++) {
			v[n++] = p->enums[i].value;
			if (p->enums[i].value > top)
				top = p->enums[i].value;
		}
		bad[(*nbad)++] = top + 1;
		bad[(*nbad)++] = 0xdeadbeefull;
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		uint64_t mask = 0, rot = 0;
		bool rotation = !strcmp(p->name, "rotation");

		for (i = 0; i < p->count_enums; i++)
			mask |= 1ull << p->enums[i].value;
		if (rotation)
			rot = mask & DRM_MODE_ROTATE_0;
		for (i = 0; i < p->count_enums && n < max; i++) {
			uint64_t bit = 1ull << p->enums[i].value;

			/* Reflections go with an angle, angles alone. */
			if (rotation && (bit & DRM_MODE_REFLECT_MASK))
				bit |= rot;
			v[n++] = bit;
		}
		if (~mask)	/* the lowest bit not in the mask */
			bad[(*nbad)++] = ~mask & (mask + 1);
		if (rotation)
			bad[(*nbad)++] = 0;
	}
	return n;
}

static void do_color_blob(struct ctx *c, uint32_t crtc, const char *name,
			  const char *size_name)
{
	uint32_t prop = prop_id(c->fd, crtc, DRM_MODE_OBJECT_CRTC, name);
	uint64_t size = 0;
	uint32_t blob = 0;
	size_t len;
	void *data;
	struct areq r;
	uint64_t i;

	if (!prop)
		return;
	if (size_name) {
		if (prop_get(c->fd, crtc, DRM_MODE_OBJECT_CRTC, size_name,
			     &size) || !size || size > 65536) {
			check(false, sf("crtc %u: %s has a usable %s", crtc,
					name, size_name),
			      sf("%s = %llu", size_name,
				 (unsigned long long)size));
			return;
		}
		len = size * sizeof(struct drm_color_lut);
		data = calloc(1, len);
		if (!data)
			return;
		for (i = 0; i < size; i++) {
			struct drm_color_lut *e = (struct drm_color_lut *)data +
						  i;
			uint16_t val = size > 1 ? (uint16_t)(i * 0xffff /
							     (size - 1)) : 0;

			e->red = e->green = e->blue = val;
		}
	} else {
		struct drm_color_ctm *ctm;

		len = sizeof(*ctm);
		ctm = calloc(1, len);
		if (!ctm)
			return;
		/* S31.32 sign-magnitude identity. */
		ctm->matrix[0] = ctm->matrix[4] = ctm->matrix[8] = 1ull << 32;
		data = ctm;
	}
	if (drmModeCreatePropertyBlob(c->fd, data, len, &blob)) {
		check(false, sf("create a %s blob", name), strerror(errno));
		free(data);
		return;
	}
	free(data);

	areq_init(&r, c->fd);
	areq_add_id(&r, crtc, prop, blob);
	try_case(c, sf("crtc %u %s = identity (%zu bytes)", crtc, name, len),
		 &r, 0, on_state(c) ? 0 : EXPECT_ANY, true);
	drmModeDestroyPropertyBlob(c->fd, blob);
}

/* Properties handled by the cases above, not by the sweep. */
static bool prop_is_core(const char *name)
{
	static const char *const core[] = {
		"FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
		"CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H", "ACTIVE", "MODE_ID",
		"GAMMA_LUT", "DEGAMMA_LUT", "CTM",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(core); i++)
		if (!strcmp(name, core[i]))
			return true;
	return false;
}

/*
 * Every other property of every object: each valid value must leave the
 * state alone under TEST_ONLY and, if accepted, commit the same way; each
 * invalid value (out of range, not in the enum, a bit not in the mask) and
 * every write to an immutable property must be -EINVAL.
 */
static void cases_props(struct ctx *c)
{
	int i;
	uint32_t k;

	for (i = 0; i < c->base.nobj; i++) {
		const struct obj_snap *o = &c->base.obj[i];
		const char *tn = obj_type_name(o->type);

		if (o->type == DRM_MODE_OBJECT_CRTC) {
			do_color_blob(c, o->id, "GAMMA_LUT", "GAMMA_LUT_SIZE");
			do_color_blob(c, o->id, "DEGAMMA_LUT",
				      "DEGAMMA_LUT_SIZE");
			do_color_blob(c, o->id, "CTM", NULL);
		}

		for (k = 0; k < o->count && k < MAX_PROPS; k++) {
			drmModePropertyRes *p = prop_info(c->fd, o->props[k]);
			uint64_t v[64], bad[4];
			int n, nbad, j;
			struct areq r;

			if (!p || prop_is_core(p->name))
				continue;
			if (p->flags & DRM_MODE_PROP_IMMUTABLE) {
				areq_init(&r, c->fd);
				areq_add_id(&r, o->id, p->prop_id, o->vals[k]);
				try_case(c, sf("%s %u immutable %s = %llu", tn,
					       o->id, p->name,
					       (unsigned long long)o->vals[k]),
					 &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
					 -EINVAL, false);
				continue;
			}
			if (!strcmp(p->name, "OUT_FENCE_PTR") ||
			    !strcmp(p->name, "IN_FENCE_FD") ||
			    !strcmp(p->name, "FB_DAMAGE_CLIPS") ||
			    strstr(p->name, "WRITEBACK"))
				continue;

			n = prop_values(p, v, ARRAY_SIZE(v), bad, &nbad);
			for (j = 0; j < n; j++) {
				bool dpms = !strcmp(p->name, "DPMS");
				bool link = !strcmp(p->name, "link-status");
				int expect = EXPECT_ANY;

				if (dpms)
					expect = -EINVAL; /* legacy only */
				else if (o->type == DRM_MODE_OBJECT_PLANE &&
					 (!strcmp(p->name, "alpha") ||
					  !strcmp(p->name, "zpos")))
					expect = 0;
				areq_init(&r, c->fd);
				areq_add_id(&r, o->id, p->prop_id, v[j]);
				try_case(c, sf("%s %u %s = %llu", tn, o->id,
					       p->name,
					       (unsigned long long)v[j]),
					 &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
					 expect, !dpms && !link);
			}
			for (j = 0; j < nbad; j++) {
				areq_init(&r, c->fd);
				areq_add_id(&r, o->id, p->prop_id, bad[j]);
				try_case(c, sf("%s %u %s = %llu (invalid)", tn,
					       o->id, p->name,
					       (unsigned long long)bad[j]),
					 &r, DRM_MODE_ATOMIC_ALLOW_MODESET,
					 -EINVAL, false);
			}
		}
	}
}

static int enter_state(struct ctx *c, bool on)
{
	struct areq r;
	int i, ret;

	ret = kms_reset_all(c->fd);
	if (!check(!ret, "switch everything off, default properties",
		   err_name(ret)))
		return ret;
	c->state = on ? "on" : "off";
	if (on) {
		areq_init(&r, c->fd);
		for (i = 0; i < c->npipes; i++)
			areq_modeset(&r, &c->pipe[i].p, c->pipe[i].blob,
				     c->pipe[i].p.mode.hdisplay ==
				     c->fb[0].width &&
				     c->pipe[i].p.mode.vdisplay ==
				     c->fb[0].height ? &c->fb[0] : NULL);
		if (c->pipe[0].cursor)
			req_plane(&r, c->pipe[0].cursor,
				  c->pipe[0].p.crtc, &c->cur_fb, 100, 100);
		ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET,
				  NULL);
		if (!check(!ret, sf("modeset all %d pipes, cursor on crtc %u",
				    c->npipes, c->pipe[0].p.crtc),
			   err_name(ret)))
			return ret;
	}
	pending_events(c->fd, 50);
	snapshot_take(c, &c->base);
	snapshot_take(c, &c->now);
	{
		const char *d = snapshot_diff(c->fd, &c->base, &c->now);

		check(!d, sf("[%s] two snapshots in a row are identical",
			     c->state), d ? d : "");
	}
	printf("# [%s] snapshot: %d objects, %d crtcs, %d planes, %d connectors\n",
	       c->state, c->base.nobj, c->base.ncrtc, c->base.nplane,
	       c->base.nconn);
	return 0;
}

static int setup(struct ctx *c)
{
	drmModeConnector *conn;
	struct kms_pipe pipes[MAX_PIPES];
	drmModeModeInfo bad;
	int i, k, ret;

	c->npipes = kms_pipes_find(c->fd, pipes, MAX_PIPES);
	if (!check(c->npipes >= 1, "find connector/crtc pairs", "see stderr"))
		return -1;
	c->res = drmModeGetResources(c->fd);
	c->pres = drmModeGetPlaneResources(c->fd);
	if (!check(c->res && c->pres, "get resources", strerror(errno)))
		return -1;

	for (i = 0; i < c->npipes; i++) {
		struct pipe_ctx *pc = &c->pipe[i];
		uint32_t j;

		pc->p = pipes[i];
		for (j = 0; j < c->pres->count_planes; j++) {
			drmModePlane *pl = drmModeGetPlane(c->fd,
							   c->pres->planes[j]);

			if (pl && pl->possible_crtcs == (1u << pc->p.crtc_idx) &&
			    plane_type(c->fd, pl->plane_id) ==
			    DRM_PLANE_TYPE_CURSOR && !pc->cursor)
				pc->cursor = pl->plane_id;
			drmModeFreePlane(pl);
		}

		/* Another mode, smaller than the preferred one. */
		conn = drmModeGetConnector(c->fd, pc->p.conn);
		pc->alt = pc->p.mode;
		for (k = 0; conn && k < conn->count_modes; k++) {
			const drmModeModeInfo *m = &conn->modes[k];

			if (m->hdisplay == 1280 && m->vdisplay == 720) {
				pc->alt = *m;
				break;
			}
			if (m->hdisplay < pc->p.mode.hdisplay &&
			    pc->alt.hdisplay == pc->p.mode.hdisplay)
				pc->alt = *m;
		}
		drmModeFreeConnector(conn);
		if (drmModeCreatePropertyBlob(c->fd, &pc->p.mode,
					      sizeof(pc->p.mode), &pc->blob) ||
		    drmModeCreatePropertyBlob(c->fd, &pc->alt,
					      sizeof(pc->alt), &pc->alt_blob)) {
			check(false, "create mode blobs", strerror(errno));
			return -1;
		}
		printf("# pipe %d: connector %u crtc %u primary %u cursor %u, mode %s, other mode %s\n",
		       i, pc->p.conn, pc->p.crtc, pc->p.plane, pc->cursor,
		       pc->p.mode.name, pc->alt.name);
	}

	for (i = 0; i < 2; i++) {
		ret = dumb_fb_create(c->fd, c->pipe[0].p.mode.hdisplay,
				     c->pipe[0].p.mode.vdisplay, &c->fb[i]);
		if (!check(!ret, sf("create framebuffer %d", i), err_name(ret)))
			return -1;
	}
	ret = dumb_fb_create(c->fd, c->pipe[0].alt.hdisplay,
			     c->pipe[0].alt.vdisplay, &c->alt_fb);
	if (!check(!ret, "create framebuffer for the other mode",
		   err_name(ret)))
		return -1;
	ret = dumb_fb_create(c->fd, 64, 64, &c->cur_fb);
	if (!check(!ret, "create 64x64 cursor framebuffer", err_name(ret)))
		return -1;

	bad = c->pipe[0].p.mode;
	bad.clock = 0;
	snprintf(bad.name, sizeof(bad.name), "zero-clock");
	if (drmModeCreatePropertyBlob(c->fd, &bad, sizeof(bad),
				      &c->bad_mode_blob)) {
		check(false, "create bad mode blob", strerror(errno));
		return -1;
	}
	return 0;
}

static void cleanup(struct ctx *c)
{
	int i, ret;

	if (c->res) {
		ret = kms_disable_all(c->fd);
		check(!ret, "switch everything off at exit", err_name(ret));
	}
	for (i = 0; i < c->npipes; i++) {
		if (c->pipe[i].blob)
			drmModeDestroyPropertyBlob(c->fd, c->pipe[i].blob);
		if (c->pipe[i].alt_blob)
			drmModeDestroyPropertyBlob(c->fd, c->pipe[i].alt_blob);
	}
	if (c->bad_mode_blob)
		drmModeDestroyPropertyBlob(c->fd, c->bad_mode_blob);
	for (i = 0; i < 2; i++)
		dumb_fb_destroy(c->fd, &c->fb[i]);
	dumb_fb_destroy(c->fd, &c->alt_fb);
	dumb_fb_destroy(c->fd, &c->cur_fb);
	drmModeFreePlaneResources(c->pres);
	drmModeFreeResources(c->res);
}

int main(void)
{
	static struct ctx ctx;
	struct ctx *c = &ctx;
	int round;

	c->fd = atomkms_open();
	if (!check(c->fd >= 0, "open atomkms device", "not found"))
		goto out;
	if (setup(c))
		goto out_clean;

	/*
	 * The core keeps a legacy DPMS value per connector that reads ON
	 * until the first commit that routes the connector: cycle every pipe
	 * on and off once so that the "off" base state is what a restore
	 * gives back.
	 */
	if (enter_state(c, true))
		goto out_clean;
	{
		/* The snapshot must see what a real commit changes. */
		struct areq r;
		const char *d;
		int ret;

		areq_init(&r, c->fd);
		areq_add(&r, c->pipe[0].p.plane, DRM_MODE_OBJECT_PLANE,
			 "FB_ID", c->fb[1].fb_id);
		ret = areq_commit(&r, 0, NULL);
		snapshot_take(c, &c->now);
		d = snapshot_diff(c->fd, &c->base, &c->now);
		check(!ret && d, "a real flip shows in the snapshot",
		      ret ? err_name(ret) : "no difference seen");
		if (d)
			printf("# it saw: %s\n", d);
		ret = restore(c, &c->base);
		snapshot_take(c, &c->now);
		d = snapshot_diff(c->fd, &c->base, &c->now);
		check(!ret && !d, "restoring the snapshot gives it back",
		      ret ? err_name(ret) : d);
	}

	for (round = 0; round < 2; round++) {
		if (enter_state(c, round == 1))
			break;
		cases_modeset(c);
		cases_planes(c);
		cases_invalid(c);
		cases_props(c);
		check(!pending_events(c->fd, 100),
		      sf("[%s] no stray events at the end", c->state),
		      "events arrived");
	}
	printf("# %u TEST_ONLY cases, %u of them also committed for real\n",
	       c->cases, c->commits);

out_clean:
	cleanup(c);
	close(c->fd);
out:
	return tap_done("test-test-only");
}
