// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resource operations: framebuffers (ADDFB2 good and bad, RMFB, CLOSEFB,
 * DIRTYFB, GETFB/GETFB2), dumb buffers (create, map and touch, destroy,
 * PRIME export/import, GEM close), property blobs (modes, LUTs, CTMs,
 * damage clips, junk). Objects live in the client's slots.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fuzz.h"

#ifndef DRM_IOCTL_MODE_CLOSEFB
struct drm_mode_closefb {
	__u32 fb_id;
	__u32 pad;
};
#define DRM_IOCTL_MODE_CLOSEFB DRM_IOWR(0xD0, struct drm_mode_closefb)
#endif

#define CALL(o, what, expr) check_ret((o)->f, (o)->idx, what, (expr) ? -errno : 0)

uint32_t pick_fb(struct opctx *o, struct fb_slot **slot)
{
	struct client *c = o->c;
	int i, start = rnd_below(&o->r, FB_SLOTS);

	if (slot)
		*slot = NULL;
	if (chance(&o->r, 3))
		return chance(&o->r, 50) ? 0 : (uint32_t)rnd_weird(&o->r);
	if (chance(&o->r, 3)) {
		/* another client's: not ours to use */
		struct client *d = &o->f->clients[rnd_below(&o->r, o->f->nclients)];

		return d->fbs[rnd_below(&o->r, FB_SLOTS)].fb_id;
	}
	for (i = 0; i < FB_SLOTS; i++) {
		struct fb_slot *s = &c->fbs[(start + i) % FB_SLOTS];

		if (s->fb_id) {
			if (slot)
				*slot = s;
			return s->fb_id;
		}
	}
	return 0;
}

uint32_t pick_blob(struct opctx *o, int kind)
{
	struct client *c = o->c;
	int i, start = rnd_below(&o->r, BLOB_SLOTS);

	for (i = 0; i < BLOB_SLOTS; i++) {
		struct blob_slot *s = &c->blobs[(start + i) % BLOB_SLOTS];

		if (s->id && (s->kind == kind || chance(&o->r, 4)))
			return s->id;
	}
	return 0;
}

uint32_t pick_handle(struct opctx *o)
{
	struct client *c = o->c;
	int i, start = rnd_below(&o->r, DUMB_SLOTS);

	if (chance(&o->r, 4))
		return (uint32_t)rnd_weird(&o->r);
	for (i = 0; i < DUMB_SLOTS; i++)
		if (c->dumbs[(start + i) % DUMB_SLOTS].handle)
			return c->dumbs[(start + i) % DUMB_SLOTS].handle;
	return 0;
}

/*
 * Mostly one of the smallest modes (cheap to compose, to write back), now
 * and then one up to 1920x1080, rarely any (4096x2160 costs a lot of
 * guest CPU per frame).
 */
const drmModeModeInfo *pick_mode(struct opctx *o, const struct tconn *k)
{
	int n, big;

	if (!k || !k->nmodes)
		return NULL;
	n = k->nmodes < 4 ? k->nmodes : 4;
	if (chance(&o->r, 1))
		return &k->modes[rnd_below(&o->r, k->nmodes)];
	if (chance(&o->r, 6)) {
		for (big = 0; big < k->nmodes &&
		     (long)k->modes[big].hdisplay * k->modes[big].vdisplay <= 1920 * 1080; big++)
			;
		return &k->modes[rnd_below(&o->r, big ? big : k->nmodes)];
	}
	return &k->modes[rnd_below(&o->r, n)];
}

const struct tconn *pick_conn_for(struct opctx *o, int crtc_idx, bool wb)
{
	const struct topo *t = &o->f->topo;
	const struct tconn *cand[MAX_CONNS];
	int i, n = 0;

	for (i = 0; i < t->nconns; i++)
		if (t->conns[i].writeback == wb &&
		    (crtc_idx < 0 || (t->conns[i].possible_crtcs & (1u << crtc_idx))))
			cand[n++] = &t->conns[i];
	if (!n || chance(&o->r, 3)) {
		for (i = 0; i < t->nconns; i++)
			if (t->conns[i].writeback == wb)
				cand[n++] = &t->conns[i];
	}
	return n ? cand[rnd_below(&o->r, n)] : NULL;
}

void fb_slot_free(int fd, struct fb_slot *s)
{
	struct drm_mode_destroy_dumb d = { .handle = s->handle };

	if (s->map)
		munmap(s->map, s->size);
	if (s->fb_id)
		drmModeRmFB(fd, s->fb_id);
	if (s->handle)
		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
	memset(s, 0, sizeof(*s));
}

static uint32_t pick_format(struct opctx *o)
{
	const struct topo *t = &o->f->topo;

	if (chance(&o->r, 60) || !t->nformats)
		return chance(&o->r, 50) ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888;
	return t->formats[rnd_below(&o->r, t->nformats)];
}

/* A good @w x @h @fourcc framebuffer in a random slot: its id, 0 if none. */
uint32_t fb_make(struct opctx *o, uint32_t w, uint32_t h, uint32_t fourcc)
{
	struct client *c = o->c;
	struct fb_slot *s = &c->fbs[rnd_below(&o->r, FB_SLOTS)];
	unsigned int np, cpp[3], hs, vs;
	struct fmt_fb fb;
	int ret;

	if (fourcc_layout(fourcc, &np, cpp, &hs, &vs))
		fourcc = DRM_FORMAT_XRGB8888;
	/* fmt_fb_create makes only valid ones (odd sizes: op_fb_add_raw) */
	if (np > 1 || fourcc == DRM_FORMAT_YUYV || fourcc == DRM_FORMAT_UYVY) {
		w &= ~1u;
		h &= ~1u;
		if (!w || !h)
			w = h = 2;
	}
	fb_slot_free(c->fd, s);
	ret = fmt_fb_create(c->fd, w, h, fourcc, &fb);
	check_ret(o->f, o->idx, "ADDFB2 (fmt_fb_create)", ret);
	if (ret)
		return 0;
	s->fb_id = fb.fb_id;
	s->handle = fb.handle;
	s->w = w;
	s->h = h;
	s->fourcc = fourcc;
	s->size = fb.size;
	s->map = fb.map;
	if (chance(&o->r, 10))
		memset(fb.map, (int)rnd_below(&o->r, 256), fb.size < 4096 ? fb.size : 4096);
	return s->fb_id;
}

void op_fb_add(struct opctx *o)
{
	const struct tconn *k = pick_conn_for(o, -1, chance(&o->r, 20));
	uint32_t w, h, fourcc = pick_format(o);

	if (k && k->writeback && k->nwb_formats)
		fourcc = k->wb_formats[rnd_below(&o->r, k->nwb_formats)];
	if (k && chance(&o->r, 20)) {
		const drmModeModeInfo *m = pick_mode(o, k);

		w = m->hdisplay;
		h = m->vdisplay;
	} else if (chance(&o->r, 3)) {
		w = rnd_range(&o->r, 1, 1920);
		h = rnd_range(&o->r, 1, 1080);
	} else {
		w = rnd_range(&o->r, 64, 256);
		h = rnd_range(&o->r, 64, 256);
	}
	if (chance(&o->r, 10) && fourcc == DRM_FORMAT_ARGB8888) {
		w = 64;		/* cursor sized */
		h = 64;
	}
	fb_make(o, w, h, fourcc);
}

/* ADDFB2 by hand, on one of our dumb buffers, with perturbed arguments. */
void op_fb_add_raw(struct opctx *o)
{
	struct client *c = o->c;
	struct dumb_slot *d = &c->dumbs[rnd_below(&o->r, DUMB_SLOTS)];
	struct drm_mode_fb_cmd2 cmd = { 0 };
	unsigned int np = 1, cpp[3] = { 4 }, hs = 1, vs = 1, i;
	int ret;

	cmd.pixel_format = pick_format(o);
	if (chance(&o->r, 10))
		cmd.pixel_format = (uint32_t)rnd_weird(&o->r);
	fourcc_layout(cmd.pixel_format, &np, cpp, &hs, &vs);
	cmd.width = d->w ? d->w : 64;
	cmd.height = d->h ? d->h : 64;
	if (chance(&o->r, 30))
		cmd.width = rnd_range(&o->r, 0, cmd.width + 2);
	if (chance(&o->r, 20))
		cmd.height = rnd_range(&o->r, 0, cmd.height + 2);
	if (chance(&o->r, 5)) {
		cmd.width = (uint32_t)rnd_weird(&o->r);
		cmd.height = (uint32_t)rnd_weird(&o->r);
	}
	for (i = 0; i < np && i < 4; i++) {
		cmd.handles[i] = d->handle;
		cmd.pitches[i] = d->pitch ? d->pitch : cmd.width * cpp[i];
		cmd.offsets[i] = i * (d->size / (np + 1));
		if (chance(&o->r, 10))
			cmd.pitches[i] = (uint32_t)rnd_weird(&o->r);
		if (chance(&o->r, 10))
			cmd.offsets[i] = (uint32_t)rnd_weird(&o->r);
		if (chance(&o->r, 5))
			cmd.handles[i] = pick_handle(o);
	}
	if (chance(&o->r, 30)) {
		cmd.flags |= DRM_MODE_FB_MODIFIERS;
		for (i = 0; i < 4; i++)
			cmd.modifier[i] = chance(&o->r, 70) ? DRM_FORMAT_MOD_LINEAR :
				chance(&o->r, 50) ? I915_FORMAT_MOD_X_TILED : rnd(&o->r);
	}
	if (chance(&o->r, 5))
		cmd.flags |= rnd_below(&o->r, 16);
	if (!d->handle && !chance(&o->r, 10))
		return;
	ret = drmIoctl(c->fd, DRM_IOCTL_MODE_ADDFB2, &cmd) ? -errno : 0;
	check_ret(o->f, o->idx, "ADDFB2 raw", ret);
	if (!ret) {
		/* A slot of its own, not owning the dumb buffer. */
		struct fb_slot *s = &c->fbs[rnd_below(&o->r, FB_SLOTS)];

		fb_slot_free(c->fd, s);
		s->fb_id = cmd.fb_id;
		s->w = cmd.width;
		s->h = cmd.height;
		s->fourcc = cmd.pixel_format;
	}
}

void op_fb_rm(struct opctx *o)
{
	struct client *c = o->c;
	struct fb_slot *s = &c->fbs[rnd_below(&o->r, FB_SLOTS)];
	struct drm_mode_closefb cf = { 0 };
	uint32_t id = s->fb_id;
	int ret;

	if (chance(&o->r, 5))
		id = pick_fb(o, NULL);
	switch (rnd_below(&o->r, 3)) {
	case 0:
		ret = check_ret(o->f, o->idx, "RMFB", drmModeRmFB(c->fd, id) ? -errno : 0);
		break;
	case 1:
		cf.fb_id = id;
		ret = CALL(o, "CLOSEFB", drmIoctl(c->fd, DRM_IOCTL_MODE_CLOSEFB, &cf));
		break;
	default:
		/* the whole slot: munmap, rmfb, destroy the buffer */
		fb_slot_free(c->fd, s);
		return;
	}
	if (!ret && id == s->fb_id) {
		s->fb_id = 0;
		fb_slot_free(c->fd, s);
	}
}

void op_fb_query(struct opctx *o)
{
	struct client *c = o->c;
	uint32_t id = pick_fb(o, NULL);
	drmModeClip clips[4];
	int i, n;

	switch (rnd_below(&o->r, 3)) {
	case 0: {
		drmModeFB *fb = drmModeGetFB(c->fd, id);

		check_ret(o->f, o->idx, "GETFB", fb ? 0 : -errno);
		if (fb && fb->handle)
			drmCloseBufferHandle(c->fd, fb->handle);
		drmModeFreeFB(fb);
		break;
	}
	case 1: {
		drmModeFB2 *fb = drmModeGetFB2(c->fd, id);

		check_ret(o->f, o->idx, "GETFB2", fb ? 0 : -errno);
		/* GETFB2 gives a new handle per plane when it may */
		for (i = 0; fb && i < 4; i++) {
			int j, dup = 0;

			for (j = 0; j < i; j++)
				dup |= fb->handles[j] == fb->handles[i];
			if (fb->handles[i] && !dup)
				drmCloseBufferHandle(c->fd, fb->handles[i]);
		}
		drmModeFreeFB2(fb);
		break;
	}
	default:
		n = rnd_below(&o->r, 5);
		for (i = 0; i < n; i++) {
			clips[i].x1 = rnd_below(&o->r, 300);
			clips[i].y1 = rnd_below(&o->r, 300);
			clips[i].x2 = clips[i].x1 + rnd_below(&o->r, 300);
			clips[i].y2 = clips[i].y1 + rnd_below(&o->r, 300);
		}
		{
			int ret = drmModeDirtyFB(c->fd, id, n ? clips : NULL, n);

			/* libdrm returns -errno; no dirty hook: ENOSYS */
			check_ret(o->f, o->idx, "DIRTYFB", ret < 0 ? ret : 0);
		}
	}
}

void op_dumb(struct opctx *o)
{
	struct client *c = o->c;
	struct dumb_slot *d = &c->dumbs[rnd_below(&o->r, DUMB_SLOTS)];
	struct drm_mode_create_dumb cr = { 0 };
	struct drm_mode_destroy_dumb de = { 0 };
	struct drm_mode_map_dumb mp = { 0 };
	int ret;

	switch (rnd_below(&o->r, 4)) {
	case 0:		/* create */
	case 1:
		cr.width = rnd_range(&o->r, 1, 256);
		cr.height = rnd_range(&o->r, 1, 256);
		cr.bpp = chance(&o->r, 80) ? 32 : (uint32_t)rnd_range(&o->r, 1, 64);
		if (chance(&o->r, 10)) {
			cr.width = 64;
			cr.height = 64;
			cr.bpp = 32;
		}
		if (chance(&o->r, 5)) {
			cr.width = (uint32_t)rnd_weird(&o->r);
			cr.height = (uint32_t)rnd_weird(&o->r) & 0xffff;
			cr.bpp = (uint32_t)rnd_weird(&o->r);
			cr.flags = chance(&o->r, 50) ? (uint32_t)rnd(&o->r) : 0;
		}
		ret = CALL(o, "CREATE_DUMB", drmIoctl(c->fd, DRM_IOCTL_MODE_CREATE_DUMB, &cr));
		if (ret)
			return;
		if (d->handle) {
			de.handle = d->handle;
			drmIoctl(c->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &de);
		}
		*d = (struct dumb_slot){ cr.handle, cr.width, cr.height, cr.bpp,
					 cr.pitch, cr.size };
		break;
	case 2: {	/* map, touch, unmap */
		void *p;

		mp.handle = chance(&o->r, 90) ? d->handle : pick_handle(o);
		if (CALL(o, "MAP_DUMB", drmIoctl(c->fd, DRM_IOCTL_MODE_MAP_DUMB, &mp)))
			return;
		if (!d->handle || mp.handle != d->handle || d->size > (4u << 20))
			return;
		p = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 c->fd, mp.offset);
		if (p == MAP_FAILED) {
			check_ret(o->f, o->idx, "mmap dumb", -errno);
			return;
		}
		((volatile uint8_t *)p)[rnd_below(&o->r, d->size)] = 1;
		((volatile uint8_t *)p)[d->size - 1] ^= 1;
		munmap(p, d->size);
		break;
	}
	default:	/* destroy, or GEM close, or PRIME round trip */
		if (chance(&o->r, 40)) {
			int pfd = -1;
			uint32_t h = 0, src = chance(&o->r, 90) ? d->handle : pick_handle(o);

			if (CALL(o, "PRIME_HANDLE_TO_FD", drmPrimeHandleToFD(c->fd, src, DRM_CLOEXEC | DRM_RDWR, &pfd)))
				return;
			CALL(o, "PRIME_FD_TO_HANDLE", drmPrimeFDToHandle(c->fd, pfd, &h));
			/* one object, one handle per file */
			if (h && h != src)
				fuzz_fail(o->f, FAIL_ERRNO, o->idx,
					  "PRIME import of own buffer %u gave handle %u", src, h);
			close(pfd);
			return;
		}
		de.handle = chance(&o->r, 90) ? d->handle : pick_handle(o);
		if (chance(&o->r, 30))
			CALL(o, "GEM_CLOSE", drmCloseBufferHandle(c->fd, de.handle));
		else
			CALL(o, "DESTROY_DUMB", drmIoctl(c->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &de));
		if (de.handle == d->handle)
			memset(d, 0, sizeof(*d));
	}
}

static void fill_lut(struct opctx *o, struct drm_color_lut *l, unsigned int n)
{
	unsigned int i, mode = rnd_below(&o->r, 3);

	for (i = 0; i < n; i++) {
		uint16_t v = mode == 0 ? (uint16_t)(i * 0xffff / (n > 1 ? n - 1 : 1)) :
			mode == 1 ? (uint16_t)(0xffff - i * 0xffff / (n > 1 ? n - 1 : 1)) :
			(uint16_t)rnd(&o->r);
		l[i].red = l[i].green = l[i].blue = v;
		l[i].reserved = 0;
	}
}

uint32_t blob_make(struct opctx *o, int kind, const drmModeModeInfo *mode)
{
	struct client *c = o->c;
	uint8_t buf[4096 * sizeof(struct drm_color_lut) + 64];
	uint32_t len = 0, id = 0;
	int ret;

	memset(buf, 0, 256);
	switch (kind) {
	case BLOB_MODE: {
		drmModeModeInfo m;

		if (!mode)
			mode = pick_mode(o, pick_conn_for(o, -1, false));
		if (!mode)
			return 0;
		m = *mode;
		if (chance(&o->r, 8)) {
			switch (rnd_below(&o->r, 4)) {
			case 0: m.clock = (uint32_t)rnd_weird(&o->r); break;
			case 1: m.hdisplay = (uint16_t)rnd_weird(&o->r); break;
			case 2: m.vtotal = (uint16_t)rnd_range(&o->r, 0, m.vdisplay); break;
			default: m.flags |= DRM_MODE_FLAG_INTERLACE; break;
			}
		}
		len = sizeof(m);
		if (chance(&o->r, 3))
			len = rnd_range(&o->r, 1, sizeof(m) + 8);
		memcpy(buf, &m, sizeof(m));
		break;
	}
	case BLOB_GAMMA:
	case BLOB_DEGAMMA: {
		unsigned int n = 256;

		if (chance(&o->r, 10))
			n = rnd_range(&o->r, 1, 4096);
		fill_lut(o, (struct drm_color_lut *)buf, n);
		len = n * sizeof(struct drm_color_lut);
		break;
	}
	case BLOB_CTM: {
		struct drm_color_ctm *ctm = (void *)buf;
		int i;

		for (i = 0; i < 9; i++)
			ctm->matrix[i] = chance(&o->r, 70) ?
				((i % 4 == 0) ? 1ull << 32 : 0) :
				(chance(&o->r, 50) ? 1ull << 63 : 0) |
				rnd_below(&o->r, 3) * (1ull << 31);
		len = sizeof(*ctm);
		if (chance(&o->r, 5))
			len = rnd_range(&o->r, 1, 100);
		break;
	}
	case BLOB_DAMAGE: {
		struct drm_mode_rect *r = (void *)buf;
		unsigned int i, n = rnd_range(&o->r, 1, 8);

		for (i = 0; i < n; i++) {
			r[i].x1 = rnd_range(&o->r, -10, 300);
			r[i].y1 = rnd_range(&o->r, -10, 300);
			r[i].x2 = r[i].x1 + rnd_range(&o->r, -2, 300);
			r[i].y2 = r[i].y1 + rnd_range(&o->r, -2, 300);
		}
		len = n * sizeof(*r);
		break;
	}
	default:
		len = rnd_range(&o->r, 0, 300);
		for (uint32_t i = 0; i < len; i++)
			buf[i] = (uint8_t)rnd(&o->r);
		if (chance(&o->r, 3))
			len = (uint32_t)rnd_weird(&o->r);
		break;
	}
	if (len > sizeof(buf) && chance(&o->r, 50)) {
		/* a length the buffer does not have: EFAULT, or the core's cap */
		struct drm_mode_create_blob cb = { .data = 0x1000, .length = len };

		check_ret(o->f, o->idx, "CREATEPROPBLOB bad",
			  drmIoctl(c->fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0);
		if (cb.blob_id)
			drmModeDestroyPropertyBlob(c->fd, cb.blob_id);
		return 0;
	}
	if (len > sizeof(buf))
		len = sizeof(buf);
	ret = drmModeCreatePropertyBlob(c->fd, buf, len, &id);
	check_ret(o->f, o->idx, "CREATEPROPBLOB", ret < 0 ? -errno : 0);
	return ret ? 0 : id;
}

void op_blob(struct opctx *o)
{
	struct client *c = o->c;
	struct blob_slot *s = &c->blobs[rnd_below(&o->r, BLOB_SLOTS)];

	if (chance(&o->r, 30)) {
		uint32_t id = chance(&o->r, 90) ? s->id : (uint32_t)rnd_weird(&o->r);
		int ret = drmModeDestroyPropertyBlob(c->fd, id);

		check_ret(o->f, o->idx, "DESTROYPROPBLOB", ret < 0 ? -errno : 0);
		if (id == s->id)
			s->id = 0;
		return;
	}
	if (chance(&o->r, 15)) {
		drmModePropertyBlobRes *b;
		uint32_t id = chance(&o->r, 80) ? s->id : (uint32_t)rnd_weird(&o->r);

		b = drmModeGetPropertyBlob(c->fd, id);
		check_ret(o->f, o->idx, "GETPROPBLOB", b ? 0 : -errno);
		drmModeFreePropertyBlob(b);
		return;
	}
	if (s->id)
		drmModeDestroyPropertyBlob(c->fd, s->id);
	s->kind = rnd_below(&o->r, BLOB_KINDS);
	if (chance(&o->r, 30))
		s->kind = BLOB_MODE;
	s->id = blob_make(o, s->kind, NULL);
}

/* Read-only getters over the whole device. */
void op_getters(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	int fd = o->c->fd;

	switch (rnd_below(&o->r, 7)) {
	case 0: {
		drmModeRes *r = drmModeGetResources(fd);

		check_ret(o->f, o->idx, "GETRESOURCES", r ? 0 : -errno);
		drmModeFreeResources(r);
		break;
	}
	case 1: {
		drmModeCrtc *k = drmModeGetCrtc(fd, chance(&o->r, 95) ?
			t->crtcs[rnd_below(&o->r, t->ncrtcs)].o.id : (uint32_t)rnd_weird(&o->r));

		check_ret(o->f, o->idx, "GETCRTC", k ? 0 : -errno);
		drmModeFreeCrtc(k);
		break;
	}
	case 2: {
		drmModePlane *p = drmModeGetPlane(fd, t->planes[rnd_below(&o->r, t->nplanes)].o.id);

		check_ret(o->f, o->idx, "GETPLANE", p ? 0 : -errno);
		drmModeFreePlane(p);
		break;
	}
	case 3: {
		drmModeConnector *k = drmModeGetConnectorCurrent(fd,
			t->conns[rnd_below(&o->r, t->nconns)].o.id);

		check_ret(o->f, o->idx, "GETCONNECTOR", k ? 0 : -errno);
		drmModeFreeConnector(k);
		break;
	}
	case 4: {
		drmModeEncoder *e = t->nencoders ?
			drmModeGetEncoder(fd, t->encoders[rnd_below(&o->r, t->nencoders)]) : NULL;

		check_ret(o->f, o->idx, "GETENCODER", e || !t->nencoders ? 0 : -errno);
		drmModeFreeEncoder(e);
		break;
	}
	case 5: {
		uint64_t v;
		int ret = drmGetCap(fd, rnd_below(&o->r, 0x20), &v);

		check_ret(o->f, o->idx, "GET_CAP", ret ? -errno : 0);
		break;
	}
	default: {
		uint64_t cap = rnd_below(&o->r, 8);
		/* never switch off what the fuzzer relies on */
		uint64_t val = cap == DRM_CLIENT_CAP_ATOMIC ? 1 : rnd_below(&o->r, 3);
		int ret = drmSetClientCap(fd, cap, val);

		check_ret(o->f, o->idx, "SET_CLIENT_CAP", ret ? -errno : 0);
		if (!ret && cap != DRM_CLIENT_CAP_ATOMIC) {
			drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
			drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
			drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
		}
	}
	}
}
