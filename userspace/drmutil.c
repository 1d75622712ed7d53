// SPDX-License-Identifier: GPL-2.0-only
/*
 * drmutil - small libdrm helpers shared by the atomkms tools and guest tests.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <drm_fourcc.h>

#include "drmutil.h"

uint64_t atomkms_card_mask(void)
{
	uint64_t mask = 0;
	char path[32];
	int i, fd;

	for (i = 0; i < 64; i++) {
		drmVersion *v;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && v->name && !strcmp(v->name, "atomkms"))
			mask |= 1ull << i;
		drmFreeVersion(v);
		close(fd);
	}
	return mask;
}

int atomkms_open_card(uint64_t mask)
{
	char path[32];
	int fd;

	if (!mask || (mask & (mask - 1)))
		return -1;
	snprintf(path, sizeof(path), "/dev/dri/card%d", __builtin_ctzll(mask));
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
			drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))) {
		close(fd);
		return -1;
	}
	return fd;
}

int atomkms_cfs_remove(const char *dev)
{
	static const char *const kinds[] = { "connectors", "encoders", "planes", "crtcs" };
	char path[PATH_MAX];
	unsigned int k;

	snprintf(path, sizeof(path), "%s/enabled", dev);
	write_str(path, "0");
	for (k = 0; k < 4; k++) {
		const char *links = k == 0 ? "possible_encoders" : "possible_crtcs";
		struct dirent *e, *le;
		DIR *d, *l;

		snprintf(path, sizeof(path), "%s/%s", dev, kinds[k]);
		d = opendir(path);
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s/%s", dev, kinds[k],
				 e->d_name, links);
			l = opendir(path);
			while (l && (le = readdir(l)))
				if (le->d_name[0] != '.')
					unlinkat(dirfd(l), le->d_name, 0);
			if (l)
				closedir(l);
			snprintf(path, sizeof(path), "%s/%s/%s", dev, kinds[k], e->d_name);
			rmdir(path);
		}
		if (d)
			closedir(d);
	}
	return rmdir(dev) && errno != ENOENT ? -errno : 0;
}

int atomkms_cfs_build(const char *root, const char *const *script)
{
	int ret = 0;

	for (; *script && !ret; script++) {
		char op[8], a[256], b[256], t[PATH_MAX], l[PATH_MAX];
		int n = sscanf(*script, "%7s %255s %255s", op, a, b);
		const char *last;

		if (n >= 2 && !strcmp(op, "mkdir")) {
			snprintf(t, sizeof(t), "%s/%s", root, a);
			ret = mkdir(t, 0755) ? -errno : 0;
		} else if (n == 3 && !strcmp(op, "ln")) {
			last = strrchr(b, '/');
			snprintf(t, sizeof(t), "%s/%s", root, b);
			snprintf(l, sizeof(l), "%s/%s/%s", root, a,
				 last ? last + 1 : b);
			ret = symlink(t, l) ? -errno : 0;
		} else if (n == 3 && !strcmp(op, "put")) {
			snprintf(t, sizeof(t), "%s/%s", root, a);
			ret = write_str(t, b);
		} else {
			ret = -EINVAL;
		}
		if (ret)
			printf("# %s: %s\n", *script, strerror(-ret));
	}
	return ret;
}

int drm_open_driver(const char *driver)
{
	char path[32];
	int i, fd;

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
		match = ver && ver->name && !strcmp(ver->name, driver);
		drmFreeVersion(ver);
		if (match)
			return fd;
		close(fd);
	}
	return -1;
}

int atomkms_open(void)
{
	const char *want = getenv("ATOMKMS_DRIVER");
	int fd;

	if (!want || !*want)
		want = "atomkms";

	fd = drm_open_driver(want);
	if (fd < 0) {
		fprintf(stderr, "no /dev/dri/card* with driver \"%s\" (module loaded?)\n",
			want);
		return -1;
	}
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1)) {
		fprintf(stderr, "%s: no atomic modesetting: %s\n",
			want, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
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
	r->n = 0;
}

void areq_add_raw(struct areq *r, uint32_t obj, uint32_t prop, uint64_t val)
{
	if (r->err)
		return;
	if (r->n == AREQ_MAX_ITEMS) {
		r->err = -E2BIG;
		return;
	}
	r->items[r->n++] = (struct areq_item){ obj, prop, val };
}

void areq_add_id(struct areq *r, uint32_t obj, uint32_t prop, uint64_t val)
{
	unsigned int i;

	if (r->err)
		return;
	/* Like libdrm: the last value of a property wins. */
	for (i = 0; i < r->n; i++) {
		if (r->items[i].obj == obj && r->items[i].prop == prop) {
			r->items[i].val = val;
			return;
		}
	}
	areq_add_raw(r, obj, prop, val);
}

void areq_add(struct areq *r, uint32_t obj, uint32_t type, const char *name,
	      uint64_t val)
{
	uint32_t id;

	if (r->err)
		return;
	id = prop_id(r->fd, obj, type, name);
	if (!id) {
		fprintf(stderr, "%s %u has no property \"%s\"\n",
			obj_type_name(type), obj, name);
		r->err = -ENOENT;
		return;
	}
	areq_add_id(r, obj, id, val);
}

int areq_commit(const struct areq *r, uint32_t flags, void *user_data)
{
	drmModeAtomicReq *req;
	unsigned int i;
	int ret = 0;

	if (r->err)
		return r->err;
	req = drmModeAtomicAlloc();
	if (!req)
		return -ENOMEM;
	for (i = 0; i < r->n && ret >= 0; i++)
		ret = drmModeAtomicAddProperty(req, r->items[i].obj,
					       r->items[i].prop,
					       r->items[i].val);
	/* libdrm returns -errno here. */
	if (ret >= 0)
		ret = drmModeAtomicCommit(r->fd, req, flags, user_data);
	drmModeAtomicFree(req);
	return ret;
}

int areq_commit_raw(const struct areq *r, uint32_t flags)
{
	uint32_t objs[AREQ_MAX_ITEMS], counts[AREQ_MAX_ITEMS];
	uint32_t props[AREQ_MAX_ITEMS];
	uint64_t vals[AREQ_MAX_ITEMS];
	struct drm_mode_atomic a = {
		.flags = flags,
		.objs_ptr = (uintptr_t)objs,
		.count_props_ptr = (uintptr_t)counts,
		.props_ptr = (uintptr_t)props,
		.prop_values_ptr = (uintptr_t)vals,
	};
	unsigned int i;

	if (r->err)
		return r->err;
	/* The ioctl's layout: objects, each with its run of properties. */
	for (i = 0; i < r->n; i++) {
		if (!a.count_objs || objs[a.count_objs - 1] != r->items[i].obj) {
			objs[a.count_objs] = r->items[i].obj;
			counts[a.count_objs++] = 0;
		}
		counts[a.count_objs - 1]++;
		props[i] = r->items[i].prop;
		vals[i] = r->items[i].val;
	}
	return drmIoctl(r->fd, DRM_IOCTL_MODE_ATOMIC, &a) ? -errno : 0;
}

void areq_fini(struct areq *r)
{
	r->n = 0;
}

void *dumb_map(int fd, uint32_t handle, uint64_t size)
{
	struct drm_mode_map_dumb map = { .handle = handle };
	void *addr;
	int err;

	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
		err = errno;
		fprintf(stderr, "MAP_DUMB: %s\n", strerror(err));
		errno = err;
		return NULL;
	}
	addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    map.offset);
	if (addr == MAP_FAILED) {
		err = errno;
		fprintf(stderr, "mmap dumb buffer: %s\n", strerror(err));
		errno = err;
		return NULL;
	}
	return addr;
}

/*
 * The one dumb framebuffer maker: a dumb buffer of @create's size holding
 * @np planes one under the other, @rows[i] lines of plane i, every line
 * create->pitch bytes; a framebuffer of @fourcc around it, mapped. Fills
 * @create (handle, pitch, size), @pitches, @offsets, *@fb_id and *@map.
 */
static int dumb_fb_make(int fd, struct drm_mode_create_dumb *create,
			uint32_t width, uint32_t height, uint32_t fourcc,
			unsigned int np, const uint32_t *rows,
			uint32_t pitches[4], uint32_t offsets[4],
			uint32_t *fb_id, void **map_addr)
{
	struct drm_mode_destroy_dumb destroy = { 0 };
	uint32_t handles[4] = { 0 }, row = 0;
	unsigned int i;
	void *addr;
	int err;

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, create)) {
		err = -errno;
		fprintf(stderr, "CREATE_DUMB %ux%u (%s %ux%u): %s\n",
			create->width, create->height, fourcc_str(fourcc),
			width, height, strerror(errno));
		return err;
	}

	for (i = 0; i < np; i++) {
		handles[i] = create->handle;
		pitches[i] = create->pitch;
		offsets[i] = create->pitch * row;
		row += rows[i];
	}
	if (drmModeAddFB2(fd, width, height, fourcc, handles, pitches,
			  offsets, fb_id, 0)) {
		err = -errno;
		fprintf(stderr, "AddFB2 %ux%u %s: %s\n", width, height,
			fourcc_str(fourcc), strerror(errno));
		goto err_destroy;
	}

	addr = dumb_map(fd, create->handle, create->size);
	if (!addr) {
		err = -errno;
		goto err_rmfb;
	}
	*map_addr = addr;
	return 0;

err_rmfb:
	drmModeRmFB(fd, *fb_id);
	*fb_id = 0;
err_destroy:
	destroy.handle = create->handle;
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	return err;
}

int dumb_fb_create(int fd, uint32_t width, uint32_t height,
		   struct dumb_fb *fb)
{
	struct drm_mode_create_dumb create = {
		.width = width,
		.height = height,
		.bpp = 32,
	};
	uint32_t pitches[4] = { 0 }, offsets[4] = { 0 };
	void *pixels;
	int err;

	memset(fb, 0, sizeof(*fb));
	err = dumb_fb_make(fd, &create, width, height, DRM_FORMAT_XRGB8888,
			   1, &height, pitches, offsets, &fb->fb_id, &pixels);
	if (err)
		return err;
	fb->width = width;
	fb->height = height;
	fb->stride = create.pitch;
	fb->handle = create.handle;
	fb->size = create.size;
	fb->pixels = pixels;
	return 0;
}

/* Unmap, remove and free what a dumb framebuffer holds (0/NULL: none). */
static void dumb_release(int fd, void *map, size_t size, uint32_t fb_id,
			 uint32_t handle)
{
	struct drm_mode_destroy_dumb destroy = { .handle = handle };

	if (map)
		munmap(map, size);
	if (fb_id)
		drmModeRmFB(fd, fb_id);
	if (handle)
		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
}

void dumb_fb_destroy(int fd, struct dumb_fb *fb)
{
	dumb_release(fd, fb->pixels, fb->size, fb->fb_id, fb->handle);
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

void areq_plane(struct areq *r, uint32_t plane, uint32_t crtc, uint32_t fb_id,
		uint32_t w, uint32_t h, int32_t x, int32_t y)
{
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_id);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
	/* Source rectangle in 16.16 fixed point, destination in pixels. */
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", (uint64_t)x);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", (uint64_t)y);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
}

void areq_modeset(struct areq *r, const struct kms_pipe *p,
		  uint32_t mode_blob, const struct dumb_fb *fb)
{
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", mode_blob);
	areq_add(r, p->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	areq_add(r, p->conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", p->crtc);
	if (fb)
		areq_plane(r, p->plane, p->crtc, fb->fb_id, fb->width,
			   fb->height, 0, 0);
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

int uevent_open(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_KOBJECT_UEVENT);

	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		return -1;
	}
	return s;
}

void uevent_drain(int s)
{
	char buf[4096];

	while (recv(s, buf, sizeof(buf), 0) > 0)
		;
}

double uevent_wait_drm(int s, uint32_t conn, uint32_t prop, int ms)
{
	char buf[4096], want_conn[32], want_prop[32];
	double end = mono_now() + ms / 1e3;

	snprintf(want_conn, sizeof(want_conn), "CONNECTOR=%u", conn);
	snprintf(want_prop, sizeof(want_prop), "PROPERTY=%u", prop);
	while (mono_now() < end) {
		struct pollfd p = { .fd = s, .events = POLLIN };
		bool drm = false, hp = false, c = false, pr = !prop;
		ssize_t n;
		char *k;

		if (poll(&p, 1, 20) <= 0)
			continue;
		n = recv(s, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = 0;
		for (k = buf; k < buf + n; k += strlen(k) + 1) {
			drm |= !strcmp(k, "SUBSYSTEM=drm");
			hp |= !strcmp(k, "HOTPLUG=1");
			c |= !strcmp(k, want_conn);
			pr |= !strcmp(k, want_prop);
		}
		if (drm && hp && c && pr)
			return mono_now();
	}
	return -1;
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

/*
 * Any-format framebuffers, writeback connectors and sync_file fences.
 */
#include <sys/ioctl.h>
#include <linux/sync_file.h>

struct fourcc_layout {
	uint32_t fourcc;
	uint8_t num_planes;
	uint8_t cpp[3];
	uint8_t hsub, vsub;
};

static const struct fourcc_layout fourcc_layouts[] = {
	{ DRM_FORMAT_XRGB8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ARGB8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XBGR8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ABGR8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_RGBX8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_RGBA8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_BGRX8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_BGRA8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XRGB2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ARGB2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XBGR2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ABGR2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_RGB888, 1, { 3 }, 1, 1 },
	{ DRM_FORMAT_BGR888, 1, { 3 }, 1, 1 },
	{ DRM_FORMAT_RGB565, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_BGR565, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_XRGB1555, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_ARGB1555, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_XRGB16161616, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_ARGB16161616, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_XRGB16161616F, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_ARGB16161616F, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_NV12, 2, { 1, 2 }, 2, 2 },
	{ DRM_FORMAT_NV21, 2, { 1, 2 }, 2, 2 },
	{ DRM_FORMAT_NV16, 2, { 1, 2 }, 2, 1 },
	{ DRM_FORMAT_NV61, 2, { 1, 2 }, 2, 1 },
	{ DRM_FORMAT_NV24, 2, { 1, 2 }, 1, 1 },
	{ DRM_FORMAT_NV42, 2, { 1, 2 }, 1, 1 },
	{ DRM_FORMAT_YUV420, 3, { 1, 1, 1 }, 2, 2 },
	{ DRM_FORMAT_YVU420, 3, { 1, 1, 1 }, 2, 2 },
	{ DRM_FORMAT_YUV422, 3, { 1, 1, 1 }, 2, 1 },
	{ DRM_FORMAT_YUV444, 3, { 1, 1, 1 }, 1, 1 },
	{ DRM_FORMAT_P010, 2, { 2, 4 }, 2, 2 },
	/* Packed 4:2:2: DRM's cpp is per pixel, a macropixel being 2. */
	{ DRM_FORMAT_YUYV, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_UYVY, 1, { 2 }, 1, 1 },
};

int fourcc_layout(uint32_t fourcc, unsigned int *num_planes,
		  unsigned int cpp[3], unsigned int *hsub, unsigned int *vsub)
{
	size_t i;
	int k;

	for (i = 0; i < ARRAY_SIZE(fourcc_layouts); i++) {
		const struct fourcc_layout *l = &fourcc_layouts[i];

		if (l->fourcc != fourcc)
			continue;
		*num_planes = l->num_planes;
		for (k = 0; k < 3; k++)
			cpp[k] = l->cpp[k];
		*hsub = l->hsub;
		*vsub = l->vsub;
		return 0;
	}
	return -EINVAL;
}

const char *fourcc_str(uint32_t fourcc)
{
	static char buf[8][8];
	static unsigned int next;
	char *s = buf[next++ % 8];
	int i;

	for (i = 0; i < 4; i++) {
		char c = (fourcc >> (8 * i)) & 0xff;

		s[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	s[4] = 0;
	return s;
}

int fmt_fb_create(int fd, uint32_t width, uint32_t height, uint32_t fourcc,
		  struct fmt_fb *fb)
{
	struct drm_mode_create_dumb create = { .bpp = 8 };
	uint32_t pitches[4] = { 0 }, offsets[4] = { 0 };
	unsigned int np, cpp[3], hsub, vsub, i;
	uint32_t pitch = 0, rows = 0;
	void *map_addr;
	int err;

	memset(fb, 0, sizeof(*fb));
	if (fourcc_layout(fourcc, &np, cpp, &hsub, &vsub)) {
		fprintf(stderr, "fmt_fb_create: unknown format %s\n",
			fourcc_str(fourcc));
		return -EINVAL;
	}
	for (i = 0; i < np; i++) {
		uint32_t w = i ? (width + hsub - 1) / hsub : width;

		fb->rows[i] = i ? (height + vsub - 1) / vsub : height;
		fb->row_bytes[i] = w * cpp[i];
		if (fb->row_bytes[i] > pitch)
			pitch = fb->row_bytes[i];
		rows += fb->rows[i];
	}
	/* One line pitch for every plane, 64-byte aligned. */
	create.width = (pitch + 63) & ~63u;
	create.height = rows;
	err = dumb_fb_make(fd, &create, width, height, fourcc, np, fb->rows,
			   pitches, offsets, &fb->fb_id, &map_addr);
	if (err)
		return err;
	for (i = 0; i < np; i++) {
		fb->pitch[i] = pitches[i];
		fb->offset[i] = offsets[i];
	}
	fb->width = width;
	fb->height = height;
	fb->fourcc = fourcc;
	fb->handle = create.handle;
	fb->num_planes = np;
	fb->size = create.size;
	fb->map = map_addr;
	return 0;
}

void fmt_fb_destroy(int fd, struct fmt_fb *fb)
{
	dumb_release(fd, fb->map, fb->size, fb->fb_id, fb->handle);
	memset(fb, 0, sizeof(*fb));
}

static int wb_conn_read(int fd, drmModeConnector *c, struct wb_conn *wb)
{
	drmModePropertyBlobRes *blob;
	uint64_t blob_id;
	int i;

	if (prop_get(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR,
		     "WRITEBACK_PIXEL_FORMATS", &blob_id)) {
		fprintf(stderr, "writeback connector %u: no WRITEBACK_PIXEL_FORMATS\n",
			c->connector_id);
		return -ENOENT;
	}
	blob = drmModeGetPropertyBlob(fd, blob_id);
	if (!blob) {
		fprintf(stderr, "writeback connector %u: formats blob %llu: %s\n",
			c->connector_id, (unsigned long long)blob_id,
			strerror(errno));
		return -errno ? -errno : -ENOENT;
	}
	wb->num_formats = blob->length / sizeof(uint32_t);
	wb->formats = calloc(wb->num_formats + 1, sizeof(uint32_t));
	wb->modes = calloc(c->count_modes + 1, sizeof(*wb->modes));
	if (!wb->formats || !wb->modes) {
		drmModeFreePropertyBlob(blob);
		return -ENOMEM;
	}
	memcpy(wb->formats, blob->data, wb->num_formats * sizeof(uint32_t));
	drmModeFreePropertyBlob(blob);
	for (i = 0; i < c->count_modes; i++)
		wb->modes[i] = c->modes[i];
	wb->count_modes = c->count_modes;
	wb->conn = c->connector_id;
	return 0;
}

int wb_conn_find(int fd, int crtc_idx, struct wb_conn *wb)
{
	drmModeRes *res;
	int i, j, ret = -ENOENT;

	memset(wb, 0, sizeof(*wb));
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1)) {
		ret = -errno;
		fprintf(stderr, "DRM_CLIENT_CAP_WRITEBACK_CONNECTORS: %s\n",
			strerror(errno));
		return ret;
	}
	res = drmModeGetResources(fd);
	if (!res) {
		ret = -errno;
		fprintf(stderr, "drmModeGetResources: %s\n", strerror(errno));
		return ret;
	}
	for (i = 0; i < res->count_connectors && ret == -ENOENT; i++) {
		drmModeConnector *c = drmModeGetConnector(fd,
							  res->connectors[i]);
		uint32_t mask = 0;

		if (!c || c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK) {
			drmModeFreeConnector(c);
			continue;
		}
		for (j = 0; j < c->count_encoders; j++) {
			drmModeEncoder *enc = drmModeGetEncoder(fd,
								c->encoders[j]);

			if (enc)
				mask |= enc->possible_crtcs;
			drmModeFreeEncoder(enc);
		}
		if (crtc_idx >= 0 && crtc_idx < 32 &&
		    (mask & (1u << crtc_idx))) {
			ret = wb_conn_read(fd, c, wb);
			wb->possible_crtcs = mask;
			if (ret)
				wb_conn_fini(wb);
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	if (ret == -ENOENT)
		fprintf(stderr, "no writeback connector for CRTC index %d\n",
			crtc_idx);
	return ret;
}

void wb_conn_fini(struct wb_conn *wb)
{
	free(wb->formats);
	free(wb->modes);
	memset(wb, 0, sizeof(*wb));
}

bool wb_conn_has_format(const struct wb_conn *wb, uint32_t fourcc)
{
	unsigned int i;

	for (i = 0; i < wb->num_formats; i++)
		if (wb->formats[i] == fourcc)
			return true;
	return false;
}

int fence_wait(int fence, int timeout_ms)
{
	struct pollfd pfd = { .fd = fence, .events = POLLIN };
	double end = mono_now() + timeout_ms / 1000.0;
	int ret;

	for (;;) {
		int left = (int)((end - mono_now()) * 1000.0 + 0.5);

		ret = poll(&pfd, 1, left > 0 ? left : 0);
		if (ret > 0)
			return (pfd.revents & POLLIN) ? 1 : -EIO;
		if (ret == 0)
			return 0;
		if (errno != EINTR)
			return -errno;
	}
}

int fence_status(int fence)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	return info.status;
}

int prop_enum(int fd, uint32_t obj, uint32_t type, const char *prop,
	      const char *name, uint64_t *val)
{
	drmModePropertyRes *p;
	uint32_t id = prop_id(fd, obj, type, prop);
	int i, ret = -ENOENT;

	if (!id)
		return -ENOENT;
	p = drmModeGetProperty(fd, id);
	if (!p)
		return -errno ? -errno : -ENOENT;
	for (i = 0; i < p->count_enums; i++) {
		if (strcmp(p->enums[i].name, name))
			continue;
		*val = p->enums[i].value;
		ret = 0;
		break;
	}
	drmModeFreeProperty(p);
	return ret;
}

const char *obj_type_name(uint32_t type)
{
	switch (type) {
	case DRM_MODE_OBJECT_CRTC:
		return "crtc";
	case DRM_MODE_OBJECT_CONNECTOR:
		return "connector";
	case DRM_MODE_OBJECT_PLANE:
		return "plane";
	}
	return "object";
}

#define DEBUGFS "/sys/kernel/debug"

int crc_reader_init(struct crc_reader *c, int fd, int crtc_idx)
{
	struct stat st;

	c->data = -1;
	if (fstat(fd, &st))
		return -errno;
	snprintf(c->dir, sizeof(c->dir), DEBUGFS "/dri/%u/crtc-%d/crc",
		 minor(st.st_rdev), crtc_idx);
	if (access(c->dir, F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	return access(c->dir, F_OK) ? -errno : 0;
}

int write_str(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (ssize_t)len ? 0 : n < 0 ? (int)n : -EIO;
}

int crc_reader_start(struct crc_reader *c)
{
	char path[160];
	int ret;

	snprintf(path, sizeof(path), "%s/control", c->dir);
	ret = write_str(path, "auto");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/data", c->dir);
	c->data = open(path, O_RDONLY | O_NONBLOCK);
	return c->data < 0 ? -errno : 0;
}

void crc_reader_stop(struct crc_reader *c)
{
	if (c->data >= 0)
		close(c->data);
	c->data = -1;
}

/* An entry is "0x%08x 0x%08x 0x%08x\n": frame, high and low word. */
int crc_reader_next(struct crc_reader *c, struct crc_entry *e, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->data, .events = POLLIN };
	uint32_t hi, lo;
	char line[64];
	ssize_t n;

	for (;;) {
		n = read(c->data, line, sizeof(line) - 1);
		if (n > 0)
			break;
		if (n == 0 || errno != EAGAIN)
			return n == 0 ? -ENODATA : -errno;
		n = poll(&pfd, 1, timeout_ms);
		if (n <= 0)
			return n == 0 ? -ETIMEDOUT : -errno;
	}
	line[n] = 0;
	if (sscanf(line, "%x %x %x", &e->frame, &hi, &lo) != 3)
		return -EPROTO;
	e->value = (uint64_t)hi << 32 | lo;
	return 0;
}

int vblank_count(int fd, int crtc_idx, uint32_t *seq)
{
	drmVBlank vbl = { 0 };

	vbl.request.type = DRM_VBLANK_RELATIVE |
		((crtc_idx << DRM_VBLANK_HIGH_CRTC_SHIFT) &
		 DRM_VBLANK_HIGH_CRTC_MASK);
	if (drmWaitVBlank(fd, &vbl))
		return -errno;
	*seq = vbl.reply.sequence;
	return 0;
}

int crc_reader_next_after(struct crc_reader *c, uint32_t frame,
			  struct crc_entry *e, int timeout_ms)
{
	int ret;

	do
		ret = crc_reader_next(c, e, timeout_ms);
	while (!ret && (int32_t)(e->frame - frame) <= 0);
	return ret;
}
