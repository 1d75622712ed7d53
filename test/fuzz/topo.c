// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device as the fuzzer sees it: CRTCs, planes, connectors (writeback
 * ones too), their properties with types and ranges, the formats planes
 * scan out and the modes connectors offer. Read once per run.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <drm_fourcc.h>

#include "fuzz.h"

static const struct prop *prop_intern(struct topo *t, int fd, uint32_t id)
{
	drmModePropertyRes *p;
	struct prop *q;
	int i;

	for (i = 0; i < t->nprops; i++)
		if (t->props[i].id == id)
			return &t->props[i];
	if (t->nprops == (int)ARRAY_SIZE(t->props))
		return NULL;
	p = drmModeGetProperty(fd, id);
	if (!p)
		return NULL;
	q = &t->props[t->nprops++];
	memset(q, 0, sizeof(*q));
	q->id = id;
	snprintf(q->name, sizeof(q->name), "%s", p->name);
	q->flags = p->flags;
	q->immutable = p->flags & DRM_MODE_PROP_IMMUTABLE;
	if (drm_property_type_is(p, DRM_MODE_PROP_RANGE) ||
	    drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		if (p->count_values >= 2) {
			q->min = p->values[0];
			q->max = p->values[1];
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_ENUM) ||
		   drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		for (i = 0; i < p->count_enums && i < 32; i++)
			q->enums[q->nenums++] = p->enums[i].value;
	}
	drmModeFreeProperty(p);
	return q;
}

static void obj_read(struct topo *t, int fd, struct kobj *o, uint32_t id,
		     uint32_t type)
{
	drmModeObjectProperties *props;
	uint32_t i;

	o->id = id;
	o->type = type;
	o->nprops = 0;
	props = drmModeObjectGetProperties(fd, id, type);
	for (i = 0; props && i < props->count_props && o->nprops < MAX_OBJ_PROPS; i++) {
		const struct prop *p = prop_intern(t, fd, props->props[i]);

		if (p)
			o->props[o->nprops++] = p;
	}
	drmModeFreeObjectProperties(props);
}

const struct prop *obj_prop(const struct kobj *o, const char *name)
{
	int i;

	for (i = 0; i < o->nprops; i++)
		if (!strcmp(o->props[i]->name, name))
			return o->props[i];
	return NULL;
}

const struct tcrtc *crtc_by_id(const struct topo *t, uint32_t id)
{
	int i;

	for (i = 0; i < t->ncrtcs; i++)
		if (t->crtcs[i].o.id == id)
			return &t->crtcs[i];
	return NULL;
}

static void add_format(struct topo *t, uint32_t f)
{
	int i;

	for (i = 0; i < t->nformats; i++)
		if (t->formats[i] == f)
			return;
	if (t->nformats < MAX_FORMATS)
		t->formats[t->nformats++] = f;
}

static int mode_area_cmp(const void *a, const void *b)
{
	const drmModeModeInfo *x = a, *y = b;
	long ax = (long)x->hdisplay * x->vdisplay;
	long ay = (long)y->hdisplay * y->vdisplay;

	return ax < ay ? -1 : ax > ay;
}

static void wb_formats(int fd, struct tconn *k)
{
	drmModePropertyBlobRes *b;
	uint64_t id;
	uint32_t i;

	if (prop_get(fd, k->o.id, DRM_MODE_OBJECT_CONNECTOR,
		     "WRITEBACK_PIXEL_FORMATS", &id))
		return;
	b = drmModeGetPropertyBlob(fd, id);
	for (i = 0; b && i < b->length / 4 && k->nwb_formats < MAX_FORMATS; i++)
		k->wb_formats[k->nwb_formats++] = ((uint32_t *)b->data)[i];
	drmModeFreePropertyBlob(b);
}

int topo_read(struct topo *t)
{
	drmModeRes *res;
	drmModePlaneRes *pres;
	struct stat st;
	int fd, i, j;

	memset(t, 0, sizeof(*t));
	fd = atomkms_open();
	if (fd < 0)
		return -1;
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	if (!fstat(fd, &st))
		t->minor = minor(st.st_rdev);
	res = drmModeGetResources(fd);
	pres = drmModeGetPlaneResources(fd);
	if (!res || !pres) {
		fprintf(stderr, "fuzz: no resources: %s\n", strerror(errno));
		return -1;
	}
	for (i = 0; i < res->count_crtcs && t->ncrtcs < MAX_CRTCS; i++) {
		struct tcrtc *c = &t->crtcs[t->ncrtcs];
		drmModeCrtc *kc = drmModeGetCrtc(fd, res->crtcs[i]);

		obj_read(t, fd, &c->o, res->crtcs[i], DRM_MODE_OBJECT_CRTC);
		c->idx = i;
		c->gamma_size = kc ? kc->gamma_size : 0;
		drmModeFreeCrtc(kc);
		t->ncrtcs++;
	}
	for (i = 0; i < (int)pres->count_planes && t->nplanes < MAX_PLANES; i++) {
		struct tplane *p = &t->planes[t->nplanes];
		drmModePlane *kp = drmModeGetPlane(fd, pres->planes[i]);

		if (!kp)
			continue;
		obj_read(t, fd, &p->o, kp->plane_id, DRM_MODE_OBJECT_PLANE);
		p->type = plane_type(fd, kp->plane_id);
		p->possible_crtcs = kp->possible_crtcs;
		for (j = 0; j < (int)kp->count_formats && j < MAX_FORMATS; j++) {
			p->formats[p->nformats++] = kp->formats[j];
			add_format(t, kp->formats[j]);
		}
		for (j = 0; j < t->ncrtcs; j++) {
			if (!(p->possible_crtcs & (1u << j)))
				continue;
			if (p->type == DRM_PLANE_TYPE_PRIMARY && !t->crtcs[j].primary)
				t->crtcs[j].primary = p->o.id;
			if (p->type == DRM_PLANE_TYPE_CURSOR && !t->crtcs[j].cursor)
				t->crtcs[j].cursor = p->o.id;
		}
		drmModeFreePlane(kp);
		t->nplanes++;
	}
	for (i = 0; i < res->count_encoders && t->nencoders < (int)ARRAY_SIZE(t->encoders); i++)
		t->encoders[t->nencoders++] = res->encoders[i];
	for (i = 0; i < res->count_connectors && t->nconns < MAX_CONNS; i++) {
		struct tconn *k = &t->conns[t->nconns];
		drmModeConnector *kc = drmModeGetConnector(fd, res->connectors[i]);

		if (!kc)
			continue;
		obj_read(t, fd, &k->o, kc->connector_id, DRM_MODE_OBJECT_CONNECTOR);
		k->writeback = kc->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		for (j = 0; j < kc->count_encoders; j++) {
			drmModeEncoder *e = drmModeGetEncoder(fd, kc->encoders[j]);

			if (e)
				k->possible_crtcs |= e->possible_crtcs;
			drmModeFreeEncoder(e);
		}
		for (j = 0; j < kc->count_modes && k->nmodes < MAX_MODES; j++) {
			if (kc->modes[j].flags & DRM_MODE_FLAG_INTERLACE)
				continue;
			k->modes[k->nmodes++] = kc->modes[j];
		}
		qsort(k->modes, k->nmodes, sizeof(k->modes[0]), mode_area_cmp);
		if (k->writeback)
			wb_formats(fd, k);
		drmModeFreeConnector(kc);
		t->nconns++;
	}
	snprintf(t->card, sizeof(t->card), "/dev/dri/card%d", t->minor);
	drmModeFreeResources(res);
	drmModeFreePlaneResources(pres);
	close(fd);
	return t->ncrtcs && t->nplanes ? 0 : -1;
}

uint64_t rnd_weird(struct rng *r)
{
	static const uint64_t w[] = {
		0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
		0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull,
		(uint64_t)-2, 4096, 8192, 16384, 65535u << 16,
	};

	switch (rnd_below(r, 3)) {
	case 0:
		return w[rnd_below(r, ARRAY_SIZE(w))];
	case 1:
		return rnd_below(r, 5000);
	default:
		return rnd(r);
	}
}

uint64_t prop_value(struct rng *r, const struct prop *p)
{
	if (chance(r, 6))
		return rnd_weird(r);
	if (p->flags & DRM_MODE_PROP_RANGE) {
		if (chance(r, 30))
			return chance(r, 50) ? p->min : p->max;
		if (p->max - p->min < 0xffffffffull)
			return p->min + rnd(r) % (p->max - p->min + 1);
		return p->min + rnd_below(r, 1 << 16);
	}
	if ((p->flags & DRM_MODE_PROP_EXTENDED_TYPE) == DRM_MODE_PROP_SIGNED_RANGE)
		return (uint64_t)(int64_t)rnd_range(r, -100, 100);
	if (p->flags & DRM_MODE_PROP_ENUM)
		return p->nenums ? p->enums[rnd_below(r, p->nenums)] : 0;
	if (p->flags & DRM_MODE_PROP_BITMASK) {
		/* rotation: one rotate-N bit and maybe reflections */
		uint64_t v = 0;
		int i;

		for (i = 0; i < p->nenums; i++)
			if (chance(r, i < 4 ? 25 : 20))
				v |= 1ull << p->enums[i];
		return v;
	}
	return rnd_below(r, 2);
}
