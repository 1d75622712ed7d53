// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-topology - what atomkms exposes with default module parameters.
 *
 * Checks the driver name, CRTC/plane/connector layout, connector modes,
 * caps and primary plane formats, then a few atomic commits: a TEST_ONLY
 * modeset succeeds without touching the hardware state, an unknown object
 * id is -ENOENT, and a source rectangle larger than the fb is rejected.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"
#include "tap.h"

/* Object ids come from an idr and stay small; this one cannot exist. */
#define BOGUS_OBJECT_ID	0x7ffffff0u


static const char *err_name(int err)
{
	return err ? strerror(-err) : "success";
}

static void test_driver(int fd)
{
	drmVersion *ver = drmGetVersion(fd);

	check(ver && !strcmp(ver->name, "atomkms"), "driver name is atomkms",
	      sf("driver is \"%s\"", ver ? ver->name : "?"));
	drmFreeVersion(ver);
}

static void test_caps(int fd)
{
	uint64_t dumb = 0, cw = 0, ch = 0;
	int r1, r2, r3;

	r1 = drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &dumb);
	r2 = drmGetCap(fd, DRM_CAP_CURSOR_WIDTH, &cw);
	r3 = drmGetCap(fd, DRM_CAP_CURSOR_HEIGHT, &ch);
	check(!r1 && dumb == 1, "DRM_CAP_DUMB_BUFFER is 1",
	      r1 ? strerror(errno) : sf("%llu", (unsigned long long)dumb));
	check(!r2 && !r3 && cw >= 64 && ch >= 64,
	      "DRM_CAP_CURSOR_WIDTH/HEIGHT >= 64",
	      sf("%llux%llu", (unsigned long long)cw,
		 (unsigned long long)ch));
}

static bool has_format(const drmModePlane *pl, uint32_t format)
{
	uint32_t i;

	for (i = 0; i < pl->count_formats; i++)
		if (pl->formats[i] == format)
			return true;
	return false;
}

/* struct drm_plane_size_hint of Linux 6.8's drm_mode.h (libdrm here predates it). */
struct size_hint {
	uint16_t width;
	uint16_t height;
};

/*
 * A cursor's SIZE_HINTS: square sizes, growing, up to the cursor caps,
 * 64x64 among them (the size compositors use without hints).
 */
static void test_size_hints(int fd, uint32_t plane)
{
	const struct size_hint *h;
	drmModePropertyBlobPtr blob = NULL;
	uint64_t id = 0, cw = 0, ch = 0;
	unsigned int i, n = 0, bad = 0, has64 = 0;

	prop_get(fd, plane, DRM_MODE_OBJECT_PLANE, "SIZE_HINTS", &id);
	if (id)
		blob = drmModeGetPropertyBlob(fd, id);
	drmGetCap(fd, DRM_CAP_CURSOR_WIDTH, &cw);
	drmGetCap(fd, DRM_CAP_CURSOR_HEIGHT, &ch);
	if (blob) {
		h = blob->data;
		n = blob->length / sizeof(*h);
		for (i = 0; i < n; i++) {
			has64 |= h[i].width == 64 && h[i].height == 64;
			bad += h[i].width != h[i].height || h[i].width > cw ||
			       h[i].height > ch ||
			       (i && h[i].width <= h[i - 1].width);
		}
	}
	check(blob && n && !(blob->length % sizeof(*h)) && !bad && has64,
	      sf("cursor plane %u: SIZE_HINTS up to the cursor caps", plane),
	      sf("blob %llu, %u hints, %u bad, 64x64 %s",
		 (unsigned long long)id, n, bad, has64 ? "yes" : "no"));
	drmModeFreePropertyBlob(blob);
}

static void test_planes(int fd, const drmModeRes *res)
{
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	uint32_t i;
	int c;

	if (!check(planes, "get plane resources", strerror(errno)))
		return;

	for (c = 0; c < res->count_crtcs; c++) {
		int primary = 0, cursor = 0;

		for (i = 0; i < planes->count_planes; i++) {
			drmModePlane *pl = drmModeGetPlane(fd,
							   planes->planes[i]);
			uint64_t type = ~0ull;

			if (!pl)
				continue;
			prop_get(fd, pl->plane_id, DRM_MODE_OBJECT_PLANE,
				 "type", &type);
			if (pl->possible_crtcs & (1u << c)) {
				primary += type == DRM_PLANE_TYPE_PRIMARY;
				cursor += type == DRM_PLANE_TYPE_CURSOR;
			}
			drmModeFreePlane(pl);
		}
		check(primary == 1 && cursor == 1,
		      sf("crtc %u has one primary and one cursor plane",
			 res->crtcs[c]),
		      sf("%d primary, %d cursor", primary, cursor));
	}

	for (i = 0; i < planes->count_planes; i++) {
		drmModePlane *pl = drmModeGetPlane(fd, planes->planes[i]);
		uint64_t type = ~0ull;

		if (!pl)
			continue;
		prop_get(fd, pl->plane_id, DRM_MODE_OBJECT_PLANE, "type",
			 &type);
		if (type == DRM_PLANE_TYPE_PRIMARY)
			check(has_format(pl, DRM_FORMAT_XRGB8888) &&
			      has_format(pl, DRM_FORMAT_ARGB8888),
			      sf("primary plane %u has XRGB8888 and ARGB8888",
				 pl->plane_id),
			      sf("XR24 %s, AR24 %s",
				 has_format(pl, DRM_FORMAT_XRGB8888) ?
				 "yes" : "no",
				 has_format(pl, DRM_FORMAT_ARGB8888) ?
				 "yes" : "no"));
		if (type == DRM_PLANE_TYPE_CURSOR)
			test_size_hints(fd, pl->plane_id);
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(planes);
}

/*
 * The connector's EDID property: a blob of whole 128-byte blocks, each
 * with a valid checksum, the EDID header, the preferred 1920x1080 mode as
 * its first detailed timing, and edid-decode --check finds nothing wrong.
 */
static void test_edid(int fd, uint32_t id)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0 };
	drmModePropertyBlobPtr blob = NULL;
	const uint8_t *e;
	uint64_t blob_id = 0;
	unsigned int i, bad_sum = 0, w, h;
	char path[64], cmd[192];
	FILE *f;

	prop_get(fd, id, DRM_MODE_OBJECT_CONNECTOR, "EDID", &blob_id);
	if (blob_id)
		blob = drmModeGetPropertyBlob(fd, blob_id);
	if (!check(blob && blob->length >= 128 && !(blob->length % 128),
		   sf("connector %u has an EDID blob of whole blocks", id),
		   blob ? sf("%u bytes", blob->length) :
		   sf("EDID property %llu", (unsigned long long)blob_id)))
		goto out;
	e = blob->data;
	for (i = 0; i < blob->length / 128; i++) {
		uint8_t sum = 0;
		unsigned int j;

		for (j = 0; j < 128; j++)
			sum += e[128 * i + j];
		bad_sum += sum != 0;
	}
	w = e[56] | (e[58] & 0xf0) << 4;
	h = e[59] | (e[61] & 0xf0) << 4;
	check(!memcmp(e, header, sizeof(header)) && !bad_sum &&
	      e[126] == blob->length / 128 - 1,
	      sf("connector %u EDID: header, checksums, extension count", id),
	      sf("%u bad checksums, %u extensions in %u bytes", bad_sum,
		 e[126], blob->length));
	check(w == 1920 && h == 1080,
	      sf("connector %u EDID's first detailed timing is 1920x1080", id),
	      sf("%ux%u", w, h));

	snprintf(path, sizeof(path), "/tmp/edid-%u.bin", id);
	f = fopen(path, "wb");
	if (f && fwrite(e, 1, blob->length, f) == blob->length && !fclose(f)) {
		snprintf(cmd, sizeof(cmd),
			 "edid-decode --check %s > %s.txt 2>&1", path, path);
		check(system(cmd) == 0,
		      sf("edid-decode --check passes connector %u's EDID", id),
		      sf("see %s.txt", path));
	} else {
		check(0, sf("write %s", path), strerror(errno));
		if (f)
			fclose(f);
	}
out:
	drmModeFreePropertyBlob(blob);
}

static void test_connector(int fd, uint32_t id)
{
	drmModeConnector *c = drmModeGetConnector(fd, id);
	bool fhd = false, uhd = false;
	const char *type;
	int i;

	if (!check(c, sf("get connector %u", id), strerror(errno)))
		return;

	type = drmModeGetConnectorTypeName(c->connector_type);
	check(c->connector_type == DRM_MODE_CONNECTOR_VIRTUAL,
	      sf("connector %u is Virtual", id),
	      sf("type %s (%u)", type ? type : "?", c->connector_type));
	check(c->connection == DRM_MODE_CONNECTED,
	      sf("connector %u is connected", id),
	      sf("connection %d", c->connection));

	for (i = 0; i < c->count_modes; i++) {
		const drmModeModeInfo *m = &c->modes[i];

		if (m->hdisplay == 1920 && m->vdisplay == 1080 &&
		    (m->type & DRM_MODE_TYPE_PREFERRED))
			fhd = true;
		if (m->hdisplay >= 4096 && m->vdisplay >= 2160)
			uhd = true;
	}
	check(fhd, sf("connector %u has 1920x1080 as preferred mode", id),
	      sf("not among %d modes", c->count_modes));
	check(uhd, sf("connector %u has a mode of at least 4096x2160", id),
	      sf("not among %d modes", c->count_modes));
	drmModeFreeConnector(c);
	test_edid(fd, id);
}

/* TEST_ONLY commits against the first usable pipe. */
static void test_commits(int fd)
{
	uint64_t active0 = ~0ull, active1 = ~0ull, fb0 = ~0ull, fb1 = ~0ull;
	struct dumb_fb fb = { 0 };
	const uint32_t flags = DRM_MODE_ATOMIC_TEST_ONLY |
			       DRM_MODE_ATOMIC_ALLOW_MODESET;
	struct kms_pipe p;
	uint32_t blob = 0, active_prop;
	struct areq r;
	int ret;

	if (!check(kms_pipe_find(fd, &p) == 0,
		   "find connector, crtc and primary plane", "see stderr"))
		return;
	ret = dumb_fb_create(fd, p.mode.hdisplay, p.mode.vdisplay, &fb);
	if (!check(!ret, "create dumb framebuffer", err_name(ret)))
		return;
	ret = drmModeCreatePropertyBlob(fd, &p.mode, sizeof(p.mode), &blob);
	if (!check(!ret, "create mode blob", err_name(ret)))
		goto out;

	prop_get(fd, p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", &active0);
	prop_get(fd, p.plane, DRM_MODE_OBJECT_PLANE, "FB_ID", &fb0);
	areq_init(&r, fd);
	areq_modeset(&r, &p, blob, &fb);
	ret = areq_commit(&r, flags, NULL);
	areq_fini(&r);
	prop_get(fd, p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", &active1);
	prop_get(fd, p.plane, DRM_MODE_OBJECT_PLANE, "FB_ID", &fb1);
	check(!ret, "TEST_ONLY modeset returns 0", err_name(ret));
	check(active0 != ~0ull && active0 == active1 && fb0 == fb1,
	      "TEST_ONLY modeset leaves ACTIVE and FB_ID unchanged",
	      sf("ACTIVE %llu -> %llu, FB_ID %llu -> %llu",
		 (unsigned long long)active0, (unsigned long long)active1,
		 (unsigned long long)fb0, (unsigned long long)fb1));

	active_prop = prop_id(fd, p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	areq_init(&r, fd);
	areq_add_id(&r, BOGUS_OBJECT_ID, active_prop, 1);
	ret = areq_commit(&r, flags, NULL);
	areq_fini(&r);
	check(ret == -ENOENT, "commit on an unknown object id fails -ENOENT",
	      err_name(ret));

	/* Same modeset, but the source is one pixel wider than the fb. */
	areq_init(&r, fd);
	areq_modeset(&r, &p, blob, &fb);
	areq_add(&r, p.plane, DRM_MODE_OBJECT_PLANE, "SRC_W",
		 (uint64_t)(fb.width + 1) << 16);
	ret = areq_commit(&r, flags, NULL);
	areq_fini(&r);
	check(ret == -ENOSPC || ret == -EINVAL,
	      "TEST_ONLY with SRC_W beyond the fb fails -ENOSPC or -EINVAL",
	      err_name(ret));

out:
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	dumb_fb_destroy(fd, &fb);
}

int main(void)
{
	drmModeRes *res;
	int fd, i;

	fd = atomkms_open();
	if (!check(fd >= 0, "open atomkms device", "not found"))
		goto out;

	test_driver(fd);
	res = drmModeGetResources(fd);
	if (!check(res, "get resources", strerror(errno)))
		goto out_close;

	check(res->count_crtcs >= 1, "at least one crtc",
	      sf("%d crtcs", res->count_crtcs));
	check(res->count_connectors >= 1, "at least one connector",
	      sf("%d connectors", res->count_connectors));
	test_planes(fd, res);
	for (i = 0; i < res->count_connectors; i++)
		test_connector(fd, res->connectors[i]);
	drmModeFreeResources(res);

	test_caps(fd);
	test_commits(fd);

out_close:
	close(fd);
out:
	return tap_done("test-topology");
}
