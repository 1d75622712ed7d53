// SPDX-License-Identifier: GPL-2.0-only
/*
 * Legacy KMS ioctls, which atomkms runs through the atomic helpers:
 * SETCRTC, SETPLANE, the cursor (SETCURSOR, SETCURSOR2, MOVECURSOR),
 * PAGE_FLIP (with events, async), WAIT_VBLANK and CRTC_QUEUE_SEQUENCE
 * events, gamma, OBJ_SETPROPERTY.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define RET(x) ((x) ? -errno : 0)

static const struct tcrtc *any_crtc(struct opctx *o, uint32_t *id)
{
	const struct topo *t = &o->f->topo;
	const struct tcrtc *k = &t->crtcs[rnd_below(&o->r, t->ncrtcs)];

	*id = chance(&o->r, 97) ? k->o.id : (uint32_t)rnd_weird(&o->r);
	return k;
}

void op_setcrtc(struct opctx *o)
{
	uint32_t crtc, conn_id, fb = 0;
	const struct tcrtc *k = any_crtc(o, &crtc);
	const struct tconn *kc = pick_conn_for(o, k->idx, false);
	const drmModeModeInfo *m = pick_mode(o, kc);
	drmModeModeInfo mode;
	struct fb_slot *s = NULL;
	int i, ret;

	if (!kc || !m || chance(&o->r, 15)) {
		ret = drmModeSetCrtc(o->c->fd, crtc, 0, 0, 0, NULL, 0, NULL);
		check_ret(o->f, o->idx, "SETCRTC off", RET(ret));
		return;
	}
	mode = *m;
	conn_id = kc->o.id;
	/* a framebuffer that covers the mode, if we have one */
	for (i = 0; i < FB_SLOTS; i++) {
		s = &o->c->fbs[(i + rnd_below(&o->r, FB_SLOTS)) % FB_SLOTS];
		if (s->fb_id && s->w >= mode.hdisplay && s->h >= mode.vdisplay)
			break;
		s = NULL;
	}
	fb = s && chance(&o->r, 90) ? s->fb_id : pick_fb(o, NULL);
	if (chance(&o->r, 5))
		mode.clock = (uint32_t)rnd_weird(&o->r);
	ret = drmModeSetCrtc(o->c->fd, crtc, fb,
			     chance(&o->r, 90) ? 0 : rnd_below(&o->r, 64),
			     chance(&o->r, 90) ? 0 : rnd_below(&o->r, 64),
			     &conn_id, chance(&o->r, 95) ? 1 : 0, &mode);
	check_ret(o->f, o->idx, "SETCRTC", RET(ret));
}

void op_setplane(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	const struct tplane *p = &t->planes[rnd_below(&o->r, t->nplanes)];
	uint32_t crtc;
	struct fb_slot *s;
	uint32_t fb;
	uint32_t w, h;
	int ret;

	any_crtc(o, &crtc);
	fb = pick_fb(o, &s);
	w = s ? s->w : 64;
	h = s ? s->h : 64;
	if (chance(&o->r, 10))
		fb = 0;
	ret = drmModeSetPlane(o->c->fd, p->o.id, fb ? crtc : 0, fb, 0,
			      (int32_t)rnd_range(&o->r, -32, 600),
			      (int32_t)rnd_range(&o->r, -32, 400),
			      chance(&o->r, 80) ? w : w * 2, chance(&o->r, 80) ? h : h / 2 + 1,
			      0, 0, w << 16, h << 16);
	check_ret(o->f, o->idx, "SETPLANE", RET(ret));
}

void op_cursor(struct opctx *o)
{
	uint32_t crtc;
	uint32_t h = pick_handle(o);
	uint32_t w = chance(&o->r, 80) ? 64 : (uint32_t)rnd_range(&o->r, 0, 600);
	int ret;

	any_crtc(o, &crtc);
	if (chance(&o->r, 15))
		h = 0;		/* hide */
	switch (rnd_below(&o->r, 3)) {
	case 0:
		ret = drmModeSetCursor(o->c->fd, crtc, h, w, w);
		check_ret(o->f, o->idx, "SETCURSOR", RET(ret));
		break;
	case 1:
		ret = drmModeSetCursor2(o->c->fd, crtc, h, w, w,
					(int32_t)rnd_range(&o->r, -4, 70),
					(int32_t)rnd_range(&o->r, -4, 70));
		check_ret(o->f, o->idx, "SETCURSOR2", RET(ret));
		break;
	default:
		ret = drmModeMoveCursor(o->c->fd, crtc,
					(int32_t)rnd_range(&o->r, -100, 2000),
					(int32_t)rnd_range(&o->r, -100, 1200));
		check_ret(o->f, o->idx, "MOVECURSOR", RET(ret));
	}
}

void op_page_flip(struct opctx *o)
{
	uint32_t crtc, flags = 0;
	const struct tcrtc *k = any_crtc(o, &crtc);
	uint64_t ud = client_new_ud(o->c);
	int ret;

	if (chance(&o->r, 75))
		flags |= DRM_MODE_PAGE_FLIP_EVENT;
	if (chance(&o->r, 8))
		flags |= DRM_MODE_PAGE_FLIP_ASYNC;
	if (chance(&o->r, 2))
		flags |= 1u << rnd_below(&o->r, 32);
	ret = drmModePageFlip(o->c->fd, crtc, pick_fb(o, NULL), flags,
			      (void *)(uintptr_t)ud);
	check_ret(o->f, o->idx, "PAGE_FLIP", RET(ret));
	if (!ret && (flags & DRM_MODE_PAGE_FLIP_EVENT)) {
		STAT(o->f, ST_FLIP_EVENTS_ASKED);
		pend_add(o->f, o->c, ud, 1u << k->idx, false, false, o->idx);
	}
}

void op_vblank(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	const struct tcrtc *k = &t->crtcs[rnd_below(&o->r, t->ncrtcs)];
	uint64_t ud = client_new_ud(o->c);
	int ret;

	if (chance(&o->r, 50)) {
		drmVBlank v = { 0 };

		v.request.type = DRM_VBLANK_RELATIVE |
			((k->idx << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK);
		v.request.sequence = 0;
		if (chance(&o->r, 70)) {
			v.request.type |= DRM_VBLANK_EVENT;
			v.request.sequence = rnd_range(&o->r, 0, 3);
			v.request.signal = (unsigned long)ud;
		}
		if (chance(&o->r, 3))
			v.request.type |= (uint32_t)rnd(&o->r) & 0x00f00000;
		ret = drmWaitVBlank(o->c->fd, &v);
		check_ret(o->f, o->idx, "WAIT_VBLANK", RET(ret));
		if (!ret && (v.request.type & DRM_VBLANK_EVENT) &&
		    !(v.request.type & 0x00f00000)) {
			STAT(o->f, ST_VBLANK_EVENTS_ASKED);
			pend_add(o->f, o->c, ud, 1u << 31, false, true, o->idx);
		}
		return;
	}
	{
		uint64_t seq = 0;
		uint32_t flags = DRM_CRTC_SEQUENCE_RELATIVE;

		if (chance(&o->r, 20))
			flags |= DRM_CRTC_SEQUENCE_NEXT_ON_MISS;
		if (chance(&o->r, 3))
			flags = (uint32_t)rnd(&o->r);
		ret = drmCrtcQueueSequence(o->c->fd, chance(&o->r, 97) ? k->o.id : 0,
					   flags, rnd_range(&o->r, 0, 3), &seq, ud);
		check_ret(o->f, o->idx, "CRTC_QUEUE_SEQUENCE", RET(ret));
		if (!ret) {
			STAT(o->f, ST_VBLANK_EVENTS_ASKED);
			pend_add(o->f, o->c, ud, 1u << 31, false, true, o->idx);
		}
		if (chance(&o->r, 30)) {
			uint64_t s, ns;

			ret = drmCrtcGetSequence(o->c->fd, k->o.id, &s, &ns);
			check_ret(o->f, o->idx, "CRTC_GET_SEQUENCE", RET(ret));
		}
	}
}

void op_gamma(struct opctx *o)
{
	uint32_t crtc;
	const struct tcrtc *k = any_crtc(o, &crtc);
	uint32_t n = k->gamma_size ? k->gamma_size : 256;
	uint16_t *lut;
	uint32_t i;
	int ret;

	if (chance(&o->r, 10))
		n = rnd_range(&o->r, 1, 1024);
	lut = calloc(3 * n, sizeof(*lut));
	if (!lut)
		return;
	for (i = 0; i < 3 * n; i++)
		lut[i] = (uint16_t)((i % n) * 0xffff / n);
	if (chance(&o->r, 40)) {
		ret = drmModeCrtcGetGamma(o->c->fd, crtc, n, lut, lut + n, lut + 2 * n);
		check_ret(o->f, o->idx, "GETGAMMA", RET(ret));
	} else {
		ret = drmModeCrtcSetGamma(o->c->fd, crtc, n, lut, lut + n, lut + 2 * n);
		check_ret(o->f, o->idx, "SETGAMMA", RET(ret));
	}
	free(lut);
}

/* Legacy OBJ_SETPROPERTY / GETPROPERTIES on any object. */
void op_setprop(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	unsigned int w = rnd_below(&o->r, t->ncrtcs + t->nplanes + t->nconns);
	const struct kobj *ob = w < (unsigned)t->ncrtcs ? &t->crtcs[w].o :
		w < (unsigned)(t->ncrtcs + t->nplanes) ? &t->planes[w - t->ncrtcs].o :
		&t->conns[w - t->ncrtcs - t->nplanes].o;
	const struct prop *p;
	uint64_t v;
	int ret;

	if (!ob->nprops)
		return;
	if (chance(&o->r, 30)) {
		drmModeObjectProperties *pr = drmModeObjectGetProperties(o->c->fd, ob->id, ob->type);

		check_ret(o->f, o->idx, "OBJ_GETPROPERTIES", pr ? 0 : -errno);
		drmModeFreeObjectProperties(pr);
		return;
	}
	p = ob->props[rnd_below(&o->r, ob->nprops)];
	/* no pointers the kernel would write to, no fds */
	if (strstr(p->name, "FENCE"))
		return;
	v = prop_value(&o->r, p);
	if (!strcmp(p->name, "FB_ID"))
		v = pick_fb(o, NULL);
	else if (p->flags & DRM_MODE_PROP_BLOB)
		v = pick_blob(o, rnd_below(&o->r, BLOB_KINDS));
	ret = drmModeObjectSetProperty(o->c->fd, ob->id, ob->type, p->id, v);
	check_ret(o->f, o->idx, "OBJ_SETPROPERTY", RET(ret));
}
