// SPDX-License-Identifier: GPL-2.0-only
/*
 * drmutil - small libdrm helpers shared by the atomkms tools and guest tests.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"

int atomkms_open(void)
{
	const char *want = getenv("ATOMKMS_DRIVER");
	char path[32];
	int i, fd;

	if (!want || !*want)
		want = "atomkms";

	for (i = 0; i < 64; i++) {
		drmVersion *ver;
		bool match;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				fprintf(stderr, "%s: %s\n", path,
					strerror(errno));
			continue;
		}
		ver = drmGetVersion(fd);
		match = ver && ver->name && !strcmp(ver->name, want);
		drmFreeVersion(ver);
		if (!match) {
			close(fd);
			continue;
		}

		if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
		    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1)) {
			fprintf(stderr, "%s: no atomic modesetting: %s\n",
				path, strerror(errno));
			close(fd);
			return -1;
		}
		return fd;
	}

	fprintf(stderr, "no /dev/dri/card* with driver \"%s\" (module loaded?)\n",
		want);
	return -1;
}

static uint32_t prop_lookup(int fd, uint32_t obj, uint32_t type,
			    const char *name, uint64_t *val)
{
	drmModeObjectProperties *props;
	uint32_t id = 0;
	uint32_t i;

	props = drmModeObjectGetProperties(fd, obj, type);
	if (!props)
		return 0;

	for (i = 0; i < props->count_props && !id; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name)) {
			id = p->prop_id;
			if (val)
				*val = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	return prop_lookup(fd, obj, type, name, NULL);
}

int prop_get(int fd, uint32_t obj, uint32_t type, const char *name,
	     uint64_t *val)
{
	return prop_lookup(fd, obj, type, name, val) ? 0 : -ENOENT;
}

void areq_init(struct areq *r, int fd)
{
	r->fd = fd;
	r->err = 0;
	r->req = drmModeAtomicAlloc();
	if (!r->req)
		r->err = -ENOMEM;
}

void areq_add_id(struct areq *r, uint32_t obj, uint32_t prop, uint64_t val)
{
	int ret;

	if (r->err)
		return;
	ret = drmModeAtomicAddProperty(r->req, obj, prop, val);
	if (ret < 0)
		r->err = ret;
}

void areq_add(struct areq *r, uint32_t obj, uint32_t type, const char *name,
	      uint64_t val)
{
	uint32_t id;

	if (r->err)
		return;
	id = prop_id(r->fd, obj, type, name);
	if (!id) {
		fprintf(stderr, "object %u has no property \"%s\"\n",
			obj, name);
		r->err = -ENOENT;
		return;
	}
	areq_add_id(r, obj, id, val);
}

int areq_commit(struct areq *r, uint32_t flags, void *user_data)
{
	if (r->err)
		return r->err;
	/* libdrm returns -errno here. */
	return drmModeAtomicCommit(r->fd, r->req, flags, user_data);
}

void areq_fini(struct areq *r)
{
	drmModeAtomicFree(r->req);
	r->req = NULL;
}

int dumb_fb_create(int fd, uint32_t width, uint32_t height,
		   struct dumb_fb *fb)
{
	struct drm_mode_create_dumb create = {
		.width = width,
		.height = height,
		.bpp = 32,
	};
	struct drm_mode_map_dumb map = { 0 };
	struct drm_mode_destroy_dumb destroy = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	void *pixels;
	int err;

	memset(fb, 0, sizeof(*fb));
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
		err = -errno;
		fprintf(stderr, "CREATE_DUMB %ux%u: %s\n", width, height,
			strerror(errno));
		return err;
	}

	handles[0] = create.handle;
	pitches[0] = create.pitch;
	if (drmModeAddFB2(fd, width, height, DRM_FORMAT_XRGB8888, handles,
			  pitches, offsets, &fb->fb_id, 0)) {
		err = -errno;
		fprintf(stderr, "AddFB2 %ux%u XR24: %s\n", width, height,
			strerror(errno));
		goto err_destroy;
	}

	map.handle = create.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
		err = -errno;
		fprintf(stderr, "MAP_DUMB: %s\n", strerror(errno));
		goto err_rmfb;
	}
	pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, map.offset);
	if (pixels == MAP_FAILED) {
		err = -errno;
		fprintf(stderr, "mmap dumb buffer: %s\n", strerror(errno));
		goto err_rmfb;
	}

	fb->width = width;
	fb->height = height;
	fb->stride = create.pitch;
	fb->handle = create.handle;
	fb->size = create.size;
	fb->pixels = pixels;
	return 0;

err_rmfb:
	drmModeRmFB(fd, fb->fb_id);
	fb->fb_id = 0;
err_destroy:
	destroy.handle = create.handle;
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	return err;
}

void dumb_fb_destroy(int fd, struct dumb_fb *fb)
{
	struct drm_mode_destroy_dumb destroy = { .handle = fb->handle };

	if (fb->pixels)
		munmap(fb->pixels, fb->size);
	if (fb->fb_id)
		drmModeRmFB(fd, fb->fb_id);
	if (fb->handle)
		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(fb, 0, sizeof(*fb));
}

/* Index of the first CRTC an encoder of @conn can drive, or -1. */
static int pick_crtc(int fd, const drmModeRes *res,
		     const drmModeConnector *conn)
{
	uint32_t mask = 0;
	int i;

	for (i = 0; i < conn->count_encoders; i++) {
		drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoders[i]);

		if (enc)
			mask |= enc->possible_crtcs;
		drmModeFreeEncoder(enc);
	}
	for (i = 0; i < res->count_crtcs && i < 32; i++)
		if (mask & (1u << i))
			return i;
	return -1;
}

static uint32_t pick_primary(int fd, int crtc_idx)
{
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	uint32_t id = 0;
	uint32_t i;

	if (!planes)
		return 0;
	for (i = 0; i < planes->count_planes && !id; i++) {
		drmModePlane *pl = drmModeGetPlane(fd, planes->planes[i]);
		uint64_t type;

		if (pl && (pl->possible_crtcs & (1u << crtc_idx)) &&
		    !prop_get(fd, pl->plane_id, DRM_MODE_OBJECT_PLANE, "type",
			      &type) &&
		    type == DRM_PLANE_TYPE_PRIMARY)
			id = pl->plane_id;
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(planes);
	return id;
}

int kms_pipe_find(int fd, struct kms_pipe *p)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModeConnector *conn = NULL;
	int i, ret = -1;

	memset(p, 0, sizeof(*p));
	if (!res) {
		fprintf(stderr, "drmModeGetResources: %s\n", strerror(errno));
		return -1;
	}

	for (i = 0; i < res->count_connectors; i++) {
		conn = drmModeGetConnector(fd, res->connectors[i]);
		if (conn && conn->connection == DRM_MODE_CONNECTED &&
		    conn->count_modes > 0)
			break;
		drmModeFreeConnector(conn);
		conn = NULL;
	}
	if (!conn) {
		fprintf(stderr, "no connected connector with modes\n");
		goto out;
	}

	p->conn = conn->connector_id;
	p->mode = conn->modes[0];
	for (i = 0; i < conn->count_modes; i++) {
		if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) {
			p->mode = conn->modes[i];
			break;
		}
	}

	p->crtc_idx = pick_crtc(fd, res, conn);
	if (p->crtc_idx < 0) {
		fprintf(stderr, "connector %u: no usable CRTC\n", p->conn);
		goto out;
	}
	p->crtc = res->crtcs[p->crtc_idx];

	p->plane = pick_primary(fd, p->crtc_idx);
	if (!p->plane) {
		fprintf(stderr, "crtc %u: no primary plane\n", p->crtc);
		goto out;
	}
	ret = 0;
out:
	drmModeFreeConnector(conn);
	drmModeFreeResources(res);
	return ret;
}

void areq_modeset(struct areq *r, const struct kms_pipe *p,
		  uint32_t mode_blob, const struct dumb_fb *fb)
{
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", mode_blob);
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	areq_add(r, p->conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", p->crtc);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb->fb_id);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", p->crtc);
	/* Source rectangle in 16.16 fixed point, destination in pixels. */
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "SRC_W",
		 (uint64_t)fb->width << 16);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "SRC_H",
		 (uint64_t)fb->height << 16);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", fb->width);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", fb->height);
}

void areq_disable(struct areq *r, const struct kms_pipe *p)
{
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0);
	areq_add(r, p->conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	areq_add(r, p->plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
}

double mode_refresh(const drmModeModeInfo *m)
{
	double frame = (double)m->htotal * m->vtotal;

	return frame ? m->clock * 1000.0 / frame : 0.0;
}

int wait_event(int fd, drmEventContext *ev, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return 0;
	if (drmHandleEvent(fd, ev))
		return errno ? -errno : -EIO;
	return 1;
}

int flip_stats_add(struct flip_stats *s, unsigned int seq,
		   unsigned int tv_sec, unsigned int tv_usec)
{
	uint64_t us = (uint64_t)tv_sec * 1000000 + tv_usec;
	int step = 0;

	if (s->events == 0) {
		s->seq_first = seq;
		s->us_first = us;
	} else {
		/* The counter is 32 bits and may wrap; compare modulo 2^32. */
		step = (int32_t)(seq - s->seq_last);
		if (step <= 0) {
			s->backwards++;
		} else if (step > 1) {
			s->jumps++;
			s->missed += step - 1;
		}
		if (us <= s->us_last)
			s->ts_bad++;
	}
	s->seq_last = seq;
	s->us_last = us;
	s->events++;
	return step;
}

double flip_stats_refresh(const struct flip_stats *s)
{
	int32_t vblanks = (int32_t)(s->seq_last - s->seq_first);

	if (s->events < 2 || vblanks <= 0 || s->us_last <= s->us_first)
		return 0.0;
	return vblanks * 1e6 / (double)(s->us_last - s->us_first);
}

double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Kuhn's augmenting path: give connector @c a CRTC, moving others along. */
static bool pipes_augment(int c, int ncrtcs, const uint32_t *mask,
			  int *crtc_owner, bool *seen)
{
	int k;

	for (k = 0; k < ncrtcs; k++) {
		if (!(mask[c] & (1u << k)) || seen[k])
			continue;
		seen[k] = true;
		if (crtc_owner[k] < 0 ||
		    pipes_augment(crtc_owner[k], ncrtcs, mask, crtc_owner,
				  seen)) {
			crtc_owner[k] = c;
			return true;
		}
	}
	return false;
}

int kms_pipes_find(int fd, struct kms_pipe *pipes, int max)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModeConnector **conns = NULL;
	uint32_t *mask = NULL;
	int crtc_owner[32];
	bool seen[32];
	int i, j, ncrtcs, n = -1;

	if (!res) {
		fprintf(stderr, "drmModeGetResources: %s\n", strerror(errno));
		return -1;
	}
	ncrtcs = res->count_crtcs < 32 ? res->count_crtcs : 32;
	conns = calloc(res->count_connectors + 1, sizeof(*conns));
	mask = calloc(res->count_connectors + 1, sizeof(*mask));
	if (!conns || !mask)
		goto out;

	for (i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(fd,
							  res->connectors[i]);

		if (!c || c->connection != DRM_MODE_CONNECTED ||
		    c->count_modes <= 0) {
			drmModeFreeConnector(c);
			continue;
		}
		conns[i] = c;
		for (j = 0; j < c->count_encoders; j++) {
			drmModeEncoder *enc = drmModeGetEncoder(fd,
								c->encoders[j]);

			if (enc)
				mask[i] |= enc->possible_crtcs;
			drmModeFreeEncoder(enc);
		}
	}

	for (i = 0; i < ncrtcs; i++)
		crtc_owner[i] = -1;
	for (i = 0; i < res->count_connectors; i++) {
		if (!conns[i])
			continue;
		memset(seen, 0, sizeof(seen));
		pipes_augment(i, ncrtcs, mask, crtc_owner, seen);
	}

	n = 0;
	for (i = 0; i < res->count_connectors && n < max; i++) {
		struct kms_pipe *p = &pipes[n];
		int k;

		if (!conns[i])
			continue;
		for (k = 0; k < ncrtcs && crtc_owner[k] != i; k++)
			;
		if (k == ncrtcs) {
			fprintf(stderr, "connector %u: no free CRTC\n",
				conns[i]->connector_id);
			continue;
		}
		memset(p, 0, sizeof(*p));
		p->conn = conns[i]->connector_id;
		p->mode = conns[i]->modes[0];
		for (j = 0; j < conns[i]->count_modes; j++) {
			if (conns[i]->modes[j].type & DRM_MODE_TYPE_PREFERRED) {
				p->mode = conns[i]->modes[j];
				break;
			}
		}
		p->crtc_idx = k;
		p->crtc = res->crtcs[k];
		p->plane = pick_primary(fd, k);
		if (!p->plane) {
			fprintf(stderr, "crtc %u: no primary plane\n",
				p->crtc);
			continue;
		}
		n++;
	}
out:
	if (conns)
		for (i = 0; i < res->count_connectors; i++)
			drmModeFreeConnector(conns[i]);
	free(conns);
	free(mask);
	drmModeFreeResources(res);
	return n;
}

int kms_disable_all(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	struct areq r;
	uint32_t i;
	int ret;

	if (!res || !planes) {
		ret = -errno;
		drmModeFreeResources(res);
		drmModeFreePlaneResources(planes);
		return ret ? ret : -ENOMEM;
	}
	areq_init(&r, fd);
	for (i = 0; i < (uint32_t)res->count_crtcs; i++) {
		areq_add(&r, res->crtcs[i], DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
		areq_add(&r, res->crtcs[i], DRM_MODE_OBJECT_CRTC, "MODE_ID",
			 0);
	}
	for (i = 0; i < (uint32_t)res->count_connectors; i++)
		areq_add(&r, res->connectors[i], DRM_MODE_OBJECT_CONNECTOR,
			 "CRTC_ID", 0);
	for (i = 0; i < planes->count_planes; i++) {
		areq_add(&r, planes->planes[i], DRM_MODE_OBJECT_PLANE,
			 "FB_ID", 0);
		areq_add(&r, planes->planes[i], DRM_MODE_OBJECT_PLANE,
			 "CRTC_ID", 0);
	}
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	drmModeFreeResources(res);
	drmModeFreePlaneResources(planes);
	return ret;
}

int plane_type(int fd, uint32_t plane)
{
	uint64_t type;

	if (prop_get(fd, plane, DRM_MODE_OBJECT_PLANE, "type", &type))
		return -1;
	return (int)type;
}

/* Queue the default value of each standard property @obj has. */
static void reset_obj_props(struct areq *r, uint32_t obj, uint32_t type)
{
	drmModeObjectProperties *props;
	uint32_t i;
	int k;

	props = drmModeObjectGetProperties(r->fd, obj, type);
	for (i = 0; props && i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(r->fd,
							   props->props[i]);
		uint64_t val = props->prop_values[i];
		bool set = false;

		if (!p || (p->flags & DRM_MODE_PROP_IMMUTABLE)) {
			drmModeFreeProperty(p);
			continue;
		}
		if (type == DRM_MODE_OBJECT_PLANE &&
		    !strcmp(p->name, "rotation")) {
			for (k = 0; k < p->count_enums; k++)
				if (!strcmp(p->enums[k].name, "rotate-0")) {
					val = 1ull << p->enums[k].value;
					set = true;
				}
		} else if (type == DRM_MODE_OBJECT_PLANE &&
			   !strcmp(p->name, "alpha") &&
			   drm_property_type_is(p, DRM_MODE_PROP_RANGE)) {
			val = p->values[1];
			set = true;
		} else if (type == DRM_MODE_OBJECT_PLANE &&
			   !strcmp(p->name, "pixel blend mode")) {
			for (k = 0; k < p->count_enums; k++)
				if (!strcmp(p->enums[k].name,
					    "Pre-multiplied")) {
					val = p->enums[k].value;
					set = true;
				}
		} else if (type == DRM_MODE_OBJECT_CRTC &&
			   (!strcmp(p->name, "GAMMA_LUT") ||
			    !strcmp(p->name, "DEGAMMA_LUT") ||
			    !strcmp(p->name, "CTM") ||
			    !strcmp(p->name, "VRR_ENABLED"))) {
			val = 0;
			set = true;
		}
		if (set && val != props->prop_values[i])
			areq_add_id(r, obj, p->prop_id, val);
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
}

int kms_reset_all(int fd)
{
	drmModeRes *res;
	drmModePlaneRes *planes;
	struct areq r;
	uint32_t i;
	int ret;

	ret = kms_disable_all(fd);
	if (ret)
		return ret;
	res = drmModeGetResources(fd);
	planes = drmModeGetPlaneResources(fd);
	if (!res || !planes) {
		ret = errno ? -errno : -ENOMEM;
		drmModeFreeResources(res);
		drmModeFreePlaneResources(planes);
		return ret;
	}
	areq_init(&r, fd);
	for (i = 0; i < (uint32_t)res->count_crtcs; i++)
		reset_obj_props(&r, res->crtcs[i], DRM_MODE_OBJECT_CRTC);
	for (i = 0; i < planes->count_planes; i++)
		reset_obj_props(&r, planes->planes[i], DRM_MODE_OBJECT_PLANE);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	drmModeFreeResources(res);
	drmModeFreePlaneResources(planes);
	return ret;
}
