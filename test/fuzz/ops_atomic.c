// SPDX-License-Identifier: GPL-2.0-only
/*
 * Atomic commits: built around one CRTC from the client's framebuffers and
 * blobs, mostly plausible (so that they get deep into atomic_check and
 * often succeed), with random flags, in-fences, out-fences, writeback jobs
 * and now and then a wrong value. Also the TEST_ONLY/real pairs, raw junk
 * requests and commits through a lease.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fuzz.h"

/* sw_sync's debugfs interface (drivers/dma-buf/sw_sync.c) */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};
#define SW_SYNC_IOC_CREATE_FENCE _IOWR('W', 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC _IOW('W', 1, __u32)

struct build {
	struct areq req;
	uint32_t must;			/* CRTC index bits in the request */
	int in_fence;			/* -1: none */
	bool in_pending;		/* signalled only after the commit */
	int32_t out[MAX_CRTCS];		/* OUT_FENCE_PTR targets */
	bool want_out[MAX_CRTCS];
	int32_t wb_out;
	bool want_wb_out;
	uint32_t fresh_blob;		/* made for this commit, destroyed after */
	bool modeset;
	int scen;			/* ST_PLANES, ST_MODESET... */
};


static void add(struct build *b, const struct kobj *o, const char *name,
		uint64_t val)
{
	const struct prop *p = obj_prop(o, name);

	if (p)
		areq_add_id(&b->req, o->id, p->id, val);
	if (p && o->type == DRM_MODE_OBJECT_CRTC) {
		const struct tcrtc *k = (const struct tcrtc *)o;

		b->must |= 1u << k->idx;
	}
}

static const struct tplane *plane_by_id(const struct topo *t, uint32_t id)
{
	int i;

	for (i = 0; i < t->nplanes; i++)
		if (t->planes[i].o.id == id)
			return &t->planes[i];
	return NULL;
}

static const struct tplane *pick_plane(struct opctx *o, const struct tcrtc *k)
{
	const struct topo *t = &o->f->topo;
	const struct tplane *cand[MAX_PLANES];
	int i, n = 0;

	for (i = 0; i < t->nplanes; i++)
		if ((t->planes[i].possible_crtcs & (1u << k->idx)) || chance(&o->r, 2))
			cand[n++] = &t->planes[i];
	return n ? cand[rnd_below(&o->r, n)] : &t->planes[0];
}

/* An in-fence: already signalled, or (nonblocking only) signalled after. */
static void in_fence(struct opctx *o, struct build *b, bool may_pend)
{
	struct client *c = o->c;
	struct sw_sync_create_fence_data d = { 0 };

	if (c->timeline < 0) {
		if (chance(&o->r, 20))
			b->in_fence = (int)rnd_range(&o->r, -2, 1000);	/* not a fence */
		return;
	}
	b->in_pending = may_pend && chance(&o->r, 50);
	d.value = c->tl_value + (b->in_pending ? 1 : 0);
	snprintf(d.name, sizeof(d.name), "fuzz%llu", (unsigned long long)o->idx);
	if (ioctl(c->timeline, SW_SYNC_IOC_CREATE_FENCE, &d)) {
		b->in_pending = false;
		return;
	}
	b->in_fence = d.fence;
}

static void in_fence_done(struct client *c, struct build *b)
{
	__u32 one = 1;

	if (b->in_pending && c->timeline >= 0 &&
	    !ioctl(c->timeline, SW_SYNC_IOC_INC, &one))
		c->tl_value++;
	if (b->in_fence >= 0 && c->timeline >= 0)
		close(b->in_fence);
	b->in_fence = -1;
	b->in_pending = false;
}

static const drmModeModeInfo *crtc_mode(struct opctx *o, const struct tcrtc *k,
					const struct tconn **conn)
{
	const struct tconn *kc = pick_conn_for(o, k->idx, false);

	if (conn)
		*conn = kc;
	return pick_mode(o, kc);
}

static void add_plane(struct opctx *o, struct build *b, const struct tplane *p,
		      const struct tcrtc *k, const drmModeModeInfo *m,
		      bool may_pend)
{
	struct fb_slot *s;
	uint32_t fb = pick_fb(o, &s);
	uint32_t fw = s ? s->w : 64, fh = s ? s->h : 64;
	uint32_t mw = m ? m->hdisplay : 1024, mh = m ? m->vdisplay : 768;
	uint32_t sw, sh, sx, sy, dw, dh;
	int32_t dx, dy;
	uint64_t frac = 0;
	int i;
	static const char *const extras[] = {
		"zpos", "alpha", "rotation", "pixel blend mode",
		"COLOR_ENCODING", "COLOR_RANGE", "SCALING_FILTER",
	};

	if (chance(&o->r, 10)) {
		add(b, &p->o, "FB_ID", 0);
		add(b, &p->o, "CRTC_ID", 0);
		return;
	}
	if (p->type == DRM_PLANE_TYPE_CURSOR && chance(&o->r, 60)) {
		fw = fw < 64 ? fw : 64;
		fh = fh < 64 ? fh : 64;
	}
	sw = chance(&o->r, 60) ? fw : (uint32_t)rnd_range(&o->r, 1, fw);
	sh = chance(&o->r, 60) ? fh : (uint32_t)rnd_range(&o->r, 1, fh);
	sx = rnd_below(&o->r, fw - sw + 1);
	sy = rnd_below(&o->r, fh - sh + 1);
	dw = sw;
	dh = sh;
	if (chance(&o->r, 25)) {
		static const int num[] = { 1, 1, 3, 2, 4, 5 };
		static const int den[] = { 2, 4, 2, 1, 1, 1 };
		int j = rnd_below(&o->r, ARRAY_SIZE(num));

		dw = sw * num[j] / den[j];
		dh = sh * num[j] / den[j];
		if (!dw || !dh)
			dw = dh = 1;
	}
	dx = chance(&o->r, 80) ? (int32_t)rnd_below(&o->r, mw > dw ? mw - dw + 1 : 1) :
		(int32_t)rnd_range(&o->r, -(int64_t)dw, mw);
	dy = chance(&o->r, 80) ? (int32_t)rnd_below(&o->r, mh > dh ? mh - dh + 1 : 1) :
		(int32_t)rnd_range(&o->r, -(int64_t)dh, mh);
	if (chance(&o->r, 10))
		frac = rnd_below(&o->r, 0x10000);
	add(b, &p->o, "FB_ID", fb);
	add(b, &p->o, "CRTC_ID", chance(&o->r, 97) ? k->o.id :
	    o->f->topo.crtcs[rnd_below(&o->r, o->f->topo.ncrtcs)].o.id);
	add(b, &p->o, "SRC_X", ((uint64_t)sx << 16) + frac);
	add(b, &p->o, "SRC_Y", (uint64_t)sy << 16);
	add(b, &p->o, "SRC_W", ((uint64_t)sw << 16) - frac);
	add(b, &p->o, "SRC_H", (uint64_t)sh << 16);
	add(b, &p->o, "CRTC_X", (uint64_t)(int64_t)dx);
	add(b, &p->o, "CRTC_Y", (uint64_t)(int64_t)dy);
	add(b, &p->o, "CRTC_W", dw);
	add(b, &p->o, "CRTC_H", dh);
	for (i = 0; i < (int)ARRAY_SIZE(extras); i++) {
		const struct prop *q = obj_prop(&p->o, extras[i]);

		if (q && !q->immutable && chance(&o->r, 8))
			areq_add_id(&b->req, p->o.id, q->id, prop_value(&o->r, q));
	}
	if (chance(&o->r, 8))
		add(b, &p->o, "FB_DAMAGE_CLIPS", pick_blob(o, BLOB_DAMAGE));
	if (b->in_fence < 0 && chance(&o->r, 8)) {
		in_fence(o, b, may_pend);
		if (b->in_fence != -1)
			add(b, &p->o, "IN_FENCE_FD", (uint64_t)(int64_t)b->in_fence);
	}
}

/* A framebuffer of exactly @w x @h (in a writeback format for @wb). */
static uint32_t fb_of_size(struct opctx *o, uint32_t w, uint32_t h,
			   const struct tconn *wb)
{
	struct client *c = o->c;
	int i, start = rnd_below(&o->r, FB_SLOTS);

	for (i = 0; i < FB_SLOTS; i++) {
		struct fb_slot *s = &c->fbs[(start + i) % FB_SLOTS];
		int j;
		bool fmt_ok = !wb;

		for (j = 0; wb && j < wb->nwb_formats; j++)
			fmt_ok |= wb->wb_formats[j] == s->fourcc;
		if (s->fb_id && s->w == w && s->h == h && fmt_ok)
			return s->fb_id;
	}
	if (w && h && w <= 4096 && h <= 4096 && chance(&o->r, 70))
		return fb_make(o, w, h, wb && wb->nwb_formats ?
			       wb->wb_formats[rnd_below(&o->r, wb->nwb_formats)] :
			       DRM_FORMAT_XRGB8888);
	return pick_fb(o, NULL);
}

/* What the CRTC does now: ACTIVE and its mode's size (0 x 0: none). */
struct cur {
	bool active;
	uint32_t w, h;
};

static void crtc_cur(struct opctx *o, const struct tcrtc *k, struct cur *cu)
{
	const struct prop *pa = obj_prop(&k->o, "ACTIVE");
	const struct prop *pm = obj_prop(&k->o, "MODE_ID");
	uint32_t props[64];
	uint64_t vals[64];
	struct drm_mode_obj_get_properties g = {
		.props_ptr = (uintptr_t)props,
		.prop_values_ptr = (uintptr_t)vals,
		.count_props = 64,
		.obj_id = k->o.id,
		.obj_type = DRM_MODE_OBJECT_CRTC,
	};
	uint32_t i, mode_id = 0;

	memset(cu, 0, sizeof(*cu));
	if (!pa || !pm || drmIoctl(o->c->fd, DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &g))
		return;
	for (i = 0; i < g.count_props && i < 64; i++) {
		if (props[i] == pa->id)
			cu->active = vals[i];
		if (props[i] == pm->id)
			mode_id = vals[i];
	}
	if (mode_id) {
		drmModePropertyBlobRes *b = drmModeGetPropertyBlob(o->c->fd, mode_id);

		if (b && b->length >= sizeof(drmModeModeInfo)) {
			cu->w = ((drmModeModeInfo *)b->data)->hdisplay;
			cu->h = ((drmModeModeInfo *)b->data)->vdisplay;
		}
		drmModeFreePropertyBlob(b);
	}
}

/* The primary plane showing a whole fb over the @w x @h mode. */
static void add_primary_full(struct opctx *o, struct build *b,
			     const struct tcrtc *k, uint32_t w, uint32_t h)
{
	const struct tplane *pp = plane_by_id(&o->f->topo, k->primary);
	struct fb_slot *s = NULL;
	uint32_t fb = fb_of_size(o, w, h, NULL);
	uint32_t fw = w, fh = h;
	int i;

	if (!pp)
		return;
	for (i = 0; i < FB_SLOTS; i++)
		if (o->c->fbs[i].fb_id == fb)
			s = &o->c->fbs[i];
	if (s) {
		fw = s->w;
		fh = s->h;
	}
	add(b, &pp->o, "FB_ID", fb);
	add(b, &pp->o, "CRTC_ID", k->o.id);
	add(b, &pp->o, "SRC_X", 0);
	add(b, &pp->o, "SRC_Y", 0);
	add(b, &pp->o, "SRC_W", (uint64_t)fw << 16);
	add(b, &pp->o, "SRC_H", (uint64_t)fh << 16);
	add(b, &pp->o, "CRTC_X", 0);
	add(b, &pp->o, "CRTC_Y", 0);
	add(b, &pp->o, "CRTC_W", w);
	add(b, &pp->o, "CRTC_H", h);
}

/* A writeback job on @wb for a @w x @h mode, with maybe its out-fence. */
static void add_wb_job(struct opctx *o, struct build *b, const struct tcrtc *k,
		       const struct tconn *wb, uint32_t w, uint32_t h, bool pair)
{
	add(b, &wb->o, "CRTC_ID", chance(&o->r, 95) ? k->o.id : 0);
	add(b, &wb->o, "WRITEBACK_FB_ID",
	    chance(&o->r, 95) ? fb_of_size(o, w, h, wb) : 0);
	if (!pair && chance(&o->r, 70)) {
		b->want_wb_out = true;
		add(b, &wb->o, "WRITEBACK_OUT_FENCE_PTR",
		    chance(&o->r, 97) ? (uintptr_t)&b->wb_out : 0x1000);
	}
}

/* Fill @b for CRTC @k; returns the commit flags. */
static uint32_t build_commit(struct opctx *o, struct build *b,
			     const struct tcrtc *k, bool pair)
{
	const struct topo *t = &o->f->topo;
	const struct tconn *conn = NULL;
	const drmModeModeInfo *m = crtc_mode(o, k, &conn);
	drmModeModeInfo mcur;
	struct cur cu;
	uint32_t flags = 0;
	bool nonblock = !pair && chance(&o->r, 85);
	unsigned int sc = rnd_below(&o->r, 100);
	int i, n;

	areq_init(&b->req, o->c->fd);
	b->must = 0;
	b->in_fence = -1;
	b->in_pending = false;
	b->fresh_blob = 0;
	b->modeset = false;
	b->want_wb_out = false;
	for (i = 0; i < MAX_CRTCS; i++) {
		b->out[i] = -1;
		b->want_out[i] = false;
	}
	b->wb_out = -1;

	crtc_cur(o, k, &cu);
	if (cu.w && m && (sc < 50 || (sc >= 77 && sc < 87) || sc >= 95)) {
		/* planes placed within the mode the CRTC has */
		mcur = *m;
		mcur.hdisplay = cu.w;
		mcur.vdisplay = cu.h;
		m = &mcur;
	}
	if (sc < 50) {			/* planes on the CRTC */
		b->scen = ST_PLANES;
		n = rnd_range(&o->r, 1, 3);
		for (i = 0; i < n; i++)
			add_plane(o, b, pick_plane(o, k), k, m, nonblock);
		if (chance(&o->r, 20))
			add(b, &k->o, "ACTIVE", 1);
	} else if (sc < 70) {		/* mode set */
		const struct tconn *wb = pick_conn_for(o, k->idx, true);
		uint32_t blob = chance(&o->r, 30) ? pick_blob(o, BLOB_MODE) : 0;

		b->scen = ST_MODESET;
		/* a CRTC without a display of its own drives its writeback */
		if (!conn || !(conn->possible_crtcs & (1u << k->idx))) {
			if (wb && (wb->possible_crtcs & (1u << k->idx)) && chance(&o->r, 90)) {
				conn = wb;
				m = pick_mode(o, wb);
			}
		}
		if (!blob && m)
			blob = b->fresh_blob = blob_make(o, BLOB_MODE, m);
		add(b, &k->o, "MODE_ID", blob);
		add(b, &k->o, "ACTIVE", chance(&o->r, 95));
		if (conn && conn->writeback && m)
			add_wb_job(o, b, k, conn, m->hdisplay, m->vdisplay, pair);
		else if (conn && chance(&o->r, 95))
			add(b, &conn->o, "CRTC_ID", k->o.id);
		if (m && chance(&o->r, 85))
			add_primary_full(o, b, k, m->hdisplay, m->vdisplay);
		if (chance(&o->r, 30))
			add_plane(o, b, pick_plane(o, k), k, m, nonblock);
		b->modeset = true;
	} else if (sc < 77) {		/* switch off */
		b->scen = ST_OFF;
		add(b, &k->o, "ACTIVE", 0);
		if (chance(&o->r, 60))
			add(b, &k->o, "MODE_ID", 0);
		for (i = 0; i < t->nconns; i++)
			if ((t->conns[i].possible_crtcs & (1u << k->idx)) && chance(&o->r, 70))
				add(b, &t->conns[i].o, "CRTC_ID", 0);
		for (i = 0; i < t->nplanes; i++)
			if ((t->planes[i].possible_crtcs & (1u << k->idx)) && chance(&o->r, 50)) {
				add(b, &t->planes[i].o, "FB_ID", 0);
				add(b, &t->planes[i].o, "CRTC_ID", 0);
			}
		b->modeset = true;
	} else if (sc < 87) {		/* colour */
		b->scen = ST_COLOR;
		if (chance(&o->r, 60))
			add(b, &k->o, "GAMMA_LUT", pick_blob(o, BLOB_GAMMA));
		if (chance(&o->r, 40))
			add(b, &k->o, "DEGAMMA_LUT", pick_blob(o, BLOB_DEGAMMA));
		if (chance(&o->r, 40))
			add(b, &k->o, "CTM", pick_blob(o, BLOB_CTM));
		if (chance(&o->r, 20))
			add(b, &k->o, "VRR_ENABLED", rnd_below(&o->r, 2));
		if (chance(&o->r, 30))
			add_plane(o, b, pick_plane(o, k), k, m, nonblock);
		if (!b->req.n)
			add(b, &k->o, "ACTIVE", 1);
	} else if (sc < 95) {		/* writeback job */
		const struct tconn *wb = pick_conn_for(o, k->idx, true);

		b->scen = ST_WB;
		if (wb && cu.active && cu.w && chance(&o->r, 90)) {
			add_wb_job(o, b, k, wb, cu.w, cu.h, pair);
		} else if (wb && m) {
			/* switch the CRTC on for it */
			const struct tconn *wm = (!conn || !(conn->possible_crtcs & (1u << k->idx))) ? wb : conn;

			m = pick_mode(o, wm);
			b->fresh_blob = blob_make(o, BLOB_MODE, m);
			add(b, &k->o, "MODE_ID", b->fresh_blob);
			add(b, &k->o, "ACTIVE", 1);
			if (wm != wb)
				add(b, &wm->o, "CRTC_ID", k->o.id);
			add_primary_full(o, b, k, m->hdisplay, m->vdisplay);
			add_wb_job(o, b, k, wb, m->hdisplay, m->vdisplay, pair);
			b->modeset = true;
		} else {
			add_plane(o, b, pick_plane(o, k), k, m, nonblock);
		}
		if (chance(&o->r, 30))
			add_plane(o, b, pick_plane(o, k), k, m, nonblock);
	} else {			/* several CRTCs at once */
		b->scen = ST_MULTI;
		for (i = 0; i < t->ncrtcs; i++) {
			const struct tcrtc *kk = &t->crtcs[i];

			if (chance(&o->r, 60))
				add_plane(o, b, pick_plane(o, kk), kk, crtc_mode(o, kk, NULL), nonblock);
		}
		if (!b->req.n)
			add(b, &k->o, "ACTIVE", 1);
	}

	/* now and then one value turned to junk */
	if (b->req.n && chance(&o->r, 6))
		b->req.items[rnd_below(&o->r, b->req.n)].val = rnd_weird(&o->r);

	/* out-fences of the CRTCs in the request */
	for (i = 0; !pair && i < t->ncrtcs; i++) {
		const struct prop *q = obj_prop(&t->crtcs[i].o, "OUT_FENCE_PTR");

		if (!q || !(b->must & (1u << i)) || !chance(&o->r, 15))
			continue;
		b->want_out[i] = true;
		areq_add_id(&b->req, t->crtcs[i].o.id, q->id,
			    chance(&o->r, 97) ? (uintptr_t)&b->out[i] :
			    (chance(&o->r, 50) ? 1 : 0xffff800000000000ull));
	}

	if (pair)
		flags = 0;
	else {
		if (nonblock)
			flags |= DRM_MODE_ATOMIC_NONBLOCK;
		if (chance(&o->r, 25))
			flags |= DRM_MODE_ATOMIC_TEST_ONLY;
		if (chance(&o->r, cu.active || b->modeset ? 40 : 5) &&
		    (!(flags & DRM_MODE_ATOMIC_TEST_ONLY) || chance(&o->r, 5)))
			flags |= DRM_MODE_PAGE_FLIP_EVENT;
		if (chance(&o->r, 4))
			flags |= DRM_MODE_PAGE_FLIP_ASYNC;
		if (chance(&o->r, 1))
			flags |= 1u << rnd_below(&o->r, 32);
	}
	if (b->modeset ? chance(&o->r, 85) : chance(&o->r, 30))
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	return flags;
}

static const char *flags_str(uint32_t flags)
{
	static __thread char s[96];

	snprintf(s, sizeof(s), "ATOMIC%s%s%s%s%s",
		 flags & DRM_MODE_ATOMIC_TEST_ONLY ? " TEST_ONLY" : "",
		 flags & DRM_MODE_ATOMIC_NONBLOCK ? " NONBLOCK" : "",
		 flags & DRM_MODE_ATOMIC_ALLOW_MODESET ? " ALLOW_MODESET" : "",
		 flags & DRM_MODE_PAGE_FLIP_EVENT ? " EVENT" : "",
		 flags & DRM_MODE_PAGE_FLIP_ASYNC ? " ASYNC" : "");
	return s;
}

static const char *prop_name(const struct fuzz *f, uint32_t id)
{
	int j;

	for (j = 0; j < f->topo.nprops; j++)
		if (f->topo.props[j].id == id)
			return f->topo.props[j].name;
	return "?";
}

/* -v: the request, item by item, with property names. */
static void dump_req(struct fuzz *f, const struct areq *r)
{
	unsigned int i;

	for (i = 0; f->verbose && i < r->n; i++) {
		const char *name = prop_name(f, r->items[i].prop);

		fprintf(stderr, "    obj %u %s = %llu (%#llx)\n", r->items[i].obj,
			name, (unsigned long long)r->items[i].val,
			(unsigned long long)r->items[i].val);
	}
}

/* Fences and events after a commit that returned @ret. */
static void commit_after(struct opctx *o, struct build *b, uint32_t flags,
			 uint64_t ud, int ret)
{
	struct client *c = o->c;
	bool real = !ret && !(flags & DRM_MODE_ATOMIC_TEST_ONLY);
	int i;

	if (b->in_fence >= 0)
		STAT(o->f, b->in_pending ? ST_IN_PENDING : ST_IN_FENCES);
	in_fence_done(c, b);
	STAT(o->f, b->scen);
	if (!ret)
		STAT(o->f, b->scen + 1);
	for (i = 0; i < MAX_CRTCS; i++) {
		if (!b->want_out[i])
			continue;
		if (real && b->out[i] < 0 && !o->f->stop)
			fuzz_fail(o->f, FAIL_FENCE, o->idx,
				  "%s succeeded without the out-fence of CRTC index %d",
				  flags_str(flags), i);
		if (!real && b->out[i] >= 0)
			fuzz_fail(o->f, FAIL_FENCE, o->idx,
				  "%s (ret %d) installed out-fence fd %d",
				  flags_str(flags), ret, b->out[i]);
		if (b->out[i] >= 0) {
			STAT(o->f, ST_OUT_FENCES);
			out_fence_keep(o->f, c, b->out[i], o->idx);
		}
	}
	if (b->want_wb_out) {
		if (!real && b->wb_out >= 0)
			fuzz_fail(o->f, FAIL_FENCE, o->idx,
				  "%s (ret %d) installed writeback fence fd %d",
				  flags_str(flags), ret, b->wb_out);
		if (b->wb_out >= 0) {
			STAT(o->f, ST_WB_FENCES);
			out_fence_keep(o->f, c, b->wb_out, o->idx);
		}
	}
	if (b->fresh_blob)
		drmModeDestroyPropertyBlob(c->fd, b->fresh_blob);
	b->fresh_blob = 0;
	if (!ret && (flags & DRM_MODE_PAGE_FLIP_EVENT)) {
		STAT(o->f, ST_FLIP_EVENTS_ASKED);
		pend_add(o->f, c, ud, b->must, !b->must, false, o->idx);
	}
}

void op_atomic(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	const struct tcrtc *k = &t->crtcs[rnd_below(&o->r, t->ncrtcs)];
	struct build *b = malloc(sizeof(*b));
	uint32_t flags;
	uint64_t ud;
	int ret;

	if (!b)
		return;
	flags = build_commit(o, b, k, false);
	ud = client_new_ud(o->c);
	dump_req(o->f, &b->req);
	ret = areq_commit(&b->req, flags, (void *)(uintptr_t)ud);
	__atomic_add_fetch(&o->f->commits, 1, __ATOMIC_RELAXED);
	if (!ret)
		__atomic_add_fetch(&o->f->commits_ok, 1, __ATOMIC_RELAXED);
	check_ret(o->f, o->idx, flags_str(flags), ret);
	commit_after(o, b, flags, ud, ret);
	free(b);
}

/*
 * The same request as TEST_ONLY and then for real (blocking, no event,
 * no out-fences: the core skips prepare_signaling() for TEST_ONLY, so
 * those are checked only for real), with everything else held off
 * (f->big taken for writing): same verdict, and the TEST_ONLY commit
 * changes no property.
 */
void op_atomic_pair(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	const struct tcrtc *k = &t->crtcs[rnd_below(&o->r, t->ncrtcs)];
	struct build *b = malloc(sizeof(*b));
	struct snapshot *s0, *s1;
	uint32_t flags;
	int rt, rr;

	if (!b)
		return;
	flags = build_commit(o, b, k, true);
	dump_req(o->f, &b->req);
	s0 = snapshot_take(o->f, o->c->fd);
	rt = areq_commit(&b->req, flags | DRM_MODE_ATOMIC_TEST_ONLY, NULL);
	s1 = snapshot_take(o->f, o->c->fd);
	snapshot_cmp(o->f, o->idx, s0, s1, "TEST_ONLY");
	snapshot_free(s0);
	snapshot_free(s1);
	check_ret(o->f, o->idx, "pair: TEST_ONLY", rt);
	rr = areq_commit(&b->req, flags, NULL);
	check_ret(o->f, o->idx, "pair: real", rr);
	__atomic_add_fetch(&o->f->pairs, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&o->f->commits, 2, __ATOMIC_RELAXED);
	if (!rr)
		__atomic_add_fetch(&o->f->commits_ok, 1, __ATOMIC_RELAXED);
	if (rt != rr) {
		char items[256];
		int n = 0;
		unsigned int i;

		for (i = 0; i < b->req.n && n < (int)sizeof(items) - 32; i++)
			n += snprintf(items + n, sizeof(items) - n, " %u.%u=%llu",
				      b->req.items[i].obj, b->req.items[i].prop,
				      (unsigned long long)b->req.items[i].val);
		fuzz_fail(o->f, FAIL_VERDICT, o->idx,
			  "%s: TEST_ONLY %d (%s), real %d (%s); items:%s",
			  flags_str(flags), rt, rt ? strerror(-rt) : "ok", rr,
			  rr ? strerror(-rr) : "ok", items);
	}
	commit_after(o, b, flags, 0, rr);
	free(b);
}

/* Anything: random objects, properties and values, raw, in any order. */
void op_atomic_junk(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	struct areq *r = malloc(sizeof(*r));
	uint32_t flags = 0;
	int32_t fence = -1;
	int i, n = rnd_range(&o->r, 0, 12), ret;

	if (!r)
		return;
	areq_init(r, o->c->fd);
	for (i = 0; i < n; i++) {
		const struct kobj *ob;
		const struct prop *p;
		uint64_t v;
		unsigned int w = rnd_below(&o->r, t->ncrtcs + t->nplanes + t->nconns);

		ob = w < (unsigned)t->ncrtcs ? &t->crtcs[w].o :
			w < (unsigned)(t->ncrtcs + t->nplanes) ? &t->planes[w - t->ncrtcs].o :
			&t->conns[w - t->ncrtcs - t->nplanes].o;
		if (!ob->nprops)
			continue;
		p = ob->props[rnd_below(&o->r, ob->nprops)];
		v = prop_value(&o->r, p);
		if (strstr(p->name, "FENCE_PTR"))
			v = chance(&o->r, 50) ? (uintptr_t)&fence : (chance(&o->r, 50) ? 0 : 1);
		else if (!strcmp(p->name, "FB_ID") || !strcmp(p->name, "WRITEBACK_FB_ID"))
			v = pick_fb(o, NULL);
		else if (!strcmp(p->name, "CRTC_ID"))
			v = chance(&o->r, 80) ? t->crtcs[rnd_below(&o->r, t->ncrtcs)].o.id : rnd_weird(&o->r);
		else if (p->flags & DRM_MODE_PROP_BLOB)
			v = chance(&o->r, 70) ? pick_blob(o, rnd_below(&o->r, BLOB_KINDS)) : rnd_weird(&o->r);
		else if (!strcmp(p->name, "IN_FENCE_FD"))
			v = (uint64_t)(int64_t)rnd_range(&o->r, -3, 64);
		if (chance(&o->r, 5))
			areq_add_raw(r, (uint32_t)rnd_weird(&o->r), p->id, v);
		else if (chance(&o->r, 5))
			areq_add_raw(r, ob->id, (uint32_t)rnd_weird(&o->r), v);
		else
			areq_add_raw(r, ob->id, p->id, v);
	}
	if (chance(&o->r, 50))
		flags |= DRM_MODE_ATOMIC_TEST_ONLY;
	if (chance(&o->r, 50))
		flags |= DRM_MODE_ATOMIC_NONBLOCK;
	if (chance(&o->r, 50))
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	if (chance(&o->r, 5))
		flags |= DRM_MODE_PAGE_FLIP_ASYNC;
	if (chance(&o->r, 3))
		flags |= DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_TEST_ONLY;
	if (chance(&o->r, 3))
		flags |= (uint32_t)rnd(&o->r) & ~DRM_MODE_PAGE_FLIP_EVENT;
	/*
	 * Junk may detach a plane on which a pending in-fence commit waits:
	 * never block behind our own unsignalled fences (we signal them
	 * within the same operation, so there are none here).
	 */
	dump_req(o->f, r);
	ret = areq_commit_raw(r, flags);
	__atomic_add_fetch(&o->f->commits, 1, __ATOMIC_RELAXED);
	if (!ret)
		__atomic_add_fetch(&o->f->commits_ok, 1, __ATOMIC_RELAXED);
	check_ret(o->f, o->idx, "ATOMIC junk", ret);
	if (fence >= 0)
		out_fence_keep(o->f, o->c, fence, o->idx);
	free(r);
}

/* A commit through the lessee's fd: only its leased objects are visible. */
void op_lease_commit(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	const struct tcrtc *k = &t->crtcs[rnd_below(&o->r, t->ncrtcs)];
	struct build *b;
	uint32_t flags;
	int ret, fd = o->c->lease_fd;

	if (fd < 0)
		return;
	b = malloc(sizeof(*b));
	if (!b)
		return;
	flags = build_commit(o, b, k, true);
	b->req.fd = fd;
	flags |= chance(&o->r, 50) ? DRM_MODE_ATOMIC_TEST_ONLY : DRM_MODE_ATOMIC_NONBLOCK;
	dump_req(o->f, &b->req);
	ret = areq_commit(&b->req, flags, NULL);
	check_ret(o->f, o->idx, "lease ATOMIC", ret);
	commit_after(o, b, flags, 0, ret);
	free(b);
}
