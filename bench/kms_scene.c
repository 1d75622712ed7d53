// SPDX-License-Identifier: GPL-2.0-only
/*
 * kms_scene - set a benchmark scene up through atomic KMS on the driver
 * named by $ATOMKMS_DRIVER (default "atomkms"), then read the CRTC's CRCs
 * (source "auto") for a while and report how many arrived against the
 * vblank rate. Run inside the guest by bench/guest-bench.sh.
 *
 * Usage: kms_scene [--scene a|b] [--mode WxH] [--seconds S]
 *   a  opaque XRGB8888 primary alone
 *   b  primary + 2 full-screen premultiplied ARGB8888 overlays with
 *      per-pixel alpha + a 64x64 ARGB8888 cursor (bench_compose's scene b)
 *
 * Output: "key=value" lines on stdout (parsed by bench/guest.sh).
 * Self-contained (libdrm only), so that it builds whatever userspace/ does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static int fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "kms_scene: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint32_t prop_id(uint32_t obj, uint32_t type, const char *name,
			uint64_t *val, uint32_t *flags)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;

	if (!props)
		return 0;
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name)) {
			id = p->prop_id;
			if (val)
				*val = props->prop_values[i];
			if (flags)
				*flags = p->flags;
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

static void add(drmModeAtomicReq *req, uint32_t obj, uint32_t type,
		const char *name, uint64_t val)
{
	uint32_t id = prop_id(obj, type, name, NULL, NULL);

	if (!id) {
		fprintf(stderr, "kms_scene: object %u has no property %s\n",
			obj, name);
		exit(1);
	}
	if (drmModeAtomicAddProperty(req, obj, id, val) < 0)
		die("drmModeAtomicAddProperty");
}

struct fb {
	uint32_t w, h, pitch, handle, id;
	uint64_t size;
	uint32_t *px;
};

static void fb_create(struct fb *f, uint32_t w, uint32_t h, uint32_t fourcc)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		die("CREATE_DUMB");
	f->w = w;
	f->h = h;
	f->pitch = c.pitch;
	f->handle = c.handle;
	f->size = c.size;
	m.handle = c.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m))
		die("MAP_DUMB");
	f->px = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     m.offset);
	if (f->px == MAP_FAILED)
		die("mmap");
	handles[0] = f->handle;
	pitches[0] = f->pitch;
	if (drmModeAddFB2(fd, w, h, fourcc, handles, pitches, offsets, &f->id, 0))
		die("AddFB2");
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 0x2545f4914f6cdd1dull) >> 32;
}

/* As bench_compose: random XRGB; premultiplied ARGB with per-pixel alpha. */
static void fill(struct fb *f, int argb)
{
	for (uint32_t y = 0; y < f->h; y++) {
		uint32_t *p = (uint32_t *)((char *)f->px + (size_t)y * f->pitch);

		for (uint32_t x = 0; x < f->w; x++) {
			uint32_t r = rnd(), a = r & 0xff, c[3], q = rnd();

			if (!argb) {
				p[x] = q & 0xffffff;
				continue;
			}
			if ((r >> 8) % 4 == 0)
				a = 0;
			else if ((r >> 8) % 4 == 1)
				a = 255;
			for (int k = 0; k < 3; k++)
				c[k] = a ? ((q >> (8 * k)) & 0xff) % (a + 1) : 0;
			p[x] = a << 24 | c[2] << 16 | c[1] << 8 | c[0];
		}
	}
}

static int plane_has(drmModePlane *p, uint32_t fourcc)
{
	for (uint32_t i = 0; i < p->count_formats; i++)
		if (p->formats[i] == fourcc)
			return 1;
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void set_plane(drmModeAtomicReq *req, uint32_t plane, uint32_t crtc,
		      struct fb *f, int32_t x, int32_t y)
{
	add(req, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", f->id);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)f->w << 16);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)f->h << 16);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", (uint64_t)(int64_t)x);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", (uint64_t)(int64_t)y);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", f->w);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", f->h);
}

int main(int argc, char **argv)
{
	const char *drv = getenv("ATOMKMS_DRIVER"), *scene = "b";
	uint32_t want_w = 1920, want_h = 1080, conn_id = 0, crtc_id = 0;
	uint32_t primary = 0, cursor = 0, ovl[2] = { 0 }, novl = 0, blob;
	int crtc_idx = -1, minor = -1, nplanes, user_mode = 0;
	double seconds = 5;
	drmModeModeInfo mode;
	drmModeRes *res;
	drmModePlaneRes *pres;
	drmModeAtomicReq *req;
	struct fb fbs[4];
	char path[256];

	if (!drv)
		drv = "atomkms";
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--scene"))
			scene = argv[i + 1];
		else if (!strcmp(argv[i], "--mode"))
			sscanf(argv[i + 1], "%ux%u", &want_w, &want_h);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = atof(argv[i + 1]);
	}

	for (int i = 0; i < 16 && fd < 0; i++) {
		drmVersion *v;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, drv)) {
			minor = i;
		} else {
			close(fd);
			fd = -1;
		}
		drmFreeVersion(v);
	}
	if (fd < 0) {
		fprintf(stderr, "kms_scene: no DRM device driven by %s\n", drv);
		return 1;
	}
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
		die("client caps");

	res = drmModeGetResources(fd);
	if (!res)
		die("GetResources");
	for (int i = 0; i < res->count_connectors && !conn_id; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
		int best = -1;

		if (!c || c->connection != DRM_MODE_CONNECTED) {
			drmModeFreeConnector(c);
			continue;
		}
		for (int m = 0; m < c->count_modes; m++)
			if (c->modes[m].hdisplay == want_w &&
			    c->modes[m].vdisplay == want_h &&
			    !(c->modes[m].flags & DRM_MODE_FLAG_INTERLACE) &&
			    (best < 0 ||
			     abs((int)c->modes[m].vrefresh - 60) <
			     abs((int)c->modes[best].vrefresh - 60)))
				best = m;
		if (best >= 0) {
			mode = c->modes[best];
		} else if (want_w == 3840 && want_h == 2160) {
			/* Not listed: CTA-861 VIC 97, 3840x2160p60, as a user mode. */
			static const drmModeModeInfo vic97 = {
				.clock = 594000, .hdisplay = 3840,
				.hsync_start = 4016, .hsync_end = 4104,
				.htotal = 4400, .vdisplay = 2160,
				.vsync_start = 2168, .vsync_end = 2178,
				.vtotal = 2250, .vrefresh = 60,
				.flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC,
				.type = DRM_MODE_TYPE_USERDEF,
				.name = "3840x2160",
			};

			mode = vic97;
			user_mode = 1;
		} else {
			drmModeFreeConnector(c);
			continue;
		}
		for (int e = 0; e < c->count_encoders && crtc_idx < 0; e++) {
			drmModeEncoder *enc = drmModeGetEncoder(fd, c->encoders[e]);

			for (int k = 0; enc && k < res->count_crtcs; k++)
				if (enc->possible_crtcs & (1u << k)) {
					crtc_idx = k;
					break;
				}
			drmModeFreeEncoder(enc);
		}
		if (crtc_idx >= 0)
			conn_id = c->connector_id;
		drmModeFreeConnector(c);
	}
	if (!conn_id) {
		fprintf(stderr, "kms_scene: no connector with a %ux%u mode\n",
			want_w, want_h);
		return 1;
	}
	crtc_id = res->crtcs[crtc_idx];

	pres = drmModeGetPlaneResources(fd);
	if (!pres)
		die("GetPlaneResources");
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		drmModePlane *p = drmModeGetPlane(fd, pres->planes[i]);
		uint64_t type = 0;

		if (!p || !(p->possible_crtcs & (1u << crtc_idx)) ||
		    !prop_id(p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type,
			     NULL)) {
			drmModeFreePlane(p);
			continue;
		}
		if (type == DRM_PLANE_TYPE_PRIMARY && !primary &&
		    plane_has(p, DRM_FORMAT_XRGB8888))
			primary = p->plane_id;
		else if (type == DRM_PLANE_TYPE_CURSOR && !cursor &&
			 plane_has(p, DRM_FORMAT_ARGB8888))
			cursor = p->plane_id;
		else if (type == DRM_PLANE_TYPE_OVERLAY && novl < 2 &&
			 plane_has(p, DRM_FORMAT_ARGB8888))
			ovl[novl++] = p->plane_id;
		drmModeFreePlane(p);
	}
	if (!primary || (!strcmp(scene, "b") && (novl < 2 || !cursor))) {
		fprintf(stderr, "kms_scene: planes missing: primary %u, overlays %u, cursor %u\n",
			primary, novl, cursor);
		return 1;
	}

	fb_create(&fbs[0], mode.hdisplay, mode.vdisplay, DRM_FORMAT_XRGB8888);
	fill(&fbs[0], 0);
	nplanes = 1;
	if (!strcmp(scene, "b")) {
		for (int k = 1; k <= 2; k++) {
			fb_create(&fbs[k], mode.hdisplay, mode.vdisplay,
				  DRM_FORMAT_ARGB8888);
			fill(&fbs[k], 1);
		}
		fb_create(&fbs[3], 64, 64, DRM_FORMAT_ARGB8888);
		fill(&fbs[3], 1);
		nplanes = 4;
	}

	if (drmModeCreatePropertyBlob(fd, &mode, sizeof(mode), &blob))
		die("CreatePropertyBlob");
	req = drmModeAtomicAlloc();
	add(req, conn_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc_id);
	add(req, crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	add(req, crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	set_plane(req, primary, crtc_id, &fbs[0], 0, 0);
	if (nplanes == 4) {
		set_plane(req, ovl[0], crtc_id, &fbs[1], 0, 0);
		set_plane(req, ovl[1], crtc_id, &fbs[2], 0, 0);
		set_plane(req, cursor, crtc_id, &fbs[3],
			  mode.hdisplay / 2 + 100, mode.vdisplay / 2 - 32);
	}
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		die("atomic commit");
	drmModeAtomicFree(req);

	{
		uint32_t ids[4] = { primary, ovl[0], ovl[1], cursor };

		printf("driver=%s scene=%s mode=%ux%u@%u clock=%u planes=%d mode_source=%s\n",
		       drv, scene, mode.hdisplay, mode.vdisplay, mode.vrefresh,
		       mode.clock, nplanes, user_mode ? "user(CTA-VIC-97)" : "connector");
		for (int k = 0; k < nplanes; k++) {
			uint64_t z = 0;
			uint32_t fl = 0;

			if (prop_id(ids[k], DRM_MODE_OBJECT_PLANE, "zpos", &z, &fl))
				printf("plane=%u zpos=%llu%s\n", ids[k],
				       (unsigned long long)z,
				       fl & DRM_MODE_PROP_IMMUTABLE ? " (immutable)" : "");
			else
				printf("plane=%u zpos=none\n", ids[k]);
		}
	}

	/* The CRCs: source "auto", then read crc/data for @seconds. */
	{
		char ctl[256], data[256], buf[4096], line[256];
		unsigned long first = 0, last = 0, prev = 0, gaps = 0, missing = 0;
		unsigned long lines = 0, changes = 0, crc0 = 0, lastcrc = 0;
		unsigned long b0 = 0, nb0 = 0;
		double t0, tfirst = 0, tlast = 0, nominal;
		size_t ll = 0;
		int cfd, dfd, k;

		snprintf(ctl, sizeof(ctl), "/sys/kernel/debug/dri/%d/crtc-%d/crc/control",
			 minor, crtc_idx);
		snprintf(data, sizeof(data), "/sys/kernel/debug/dri/%d/crtc-%d/crc/data",
			 minor, crtc_idx);
		cfd = open(ctl, O_WRONLY);
		if (cfd < 0 || write(cfd, "auto", 4) != 4)
			die(ctl);
		close(cfd);
		dfd = open(data, O_RDONLY);
		if (dfd < 0)
			die(data);
		t0 = now();
		while (now() - t0 < seconds) {
			struct pollfd pf = { .fd = dfd, .events = POLLIN };
			ssize_t n;

			if (poll(&pf, 1, 200) <= 0)
				continue;
			n = read(dfd, buf, sizeof(buf));
			if (n <= 0) {
				if (n < 0 && errno == EINTR)
					continue;
				break;
			}
			for (ssize_t i = 0; i < n; i++) {
				unsigned long fr, hi, lo, crc;

				if (!buf[i])
					continue;
				if (buf[i] != '\n') {
					if (ll < sizeof(line) - 1)
						line[ll++] = buf[i];
					continue;
				}
				line[ll] = 0;
				ll = 0;
				/* frame, then atomkms's two words (vkms: one) */
				k = sscanf(line, "%lx %lx %lx", &fr, &hi, &lo);
				if (k < 2)
					continue;
				crc = k == 3 ? hi << 32 | lo : hi;
				tlast = now();
				if (!lines++) {
					first = b0 = fr;
					tfirst = tlast;
					crc0 = crc;
				} else {
					/* lines come in bursts: the rate counts from
					 * the end of the first one */
					if (tlast - tfirst < 0.002) {
						b0 = fr;
						nb0++;
					}
					if (fr != prev + 1) {
						gaps++;
						if (fr > prev)
							missing += fr - prev - 1;
					}
					if (crc != lastcrc)
						changes++;
				}
				prev = last = fr;
				lastcrc = crc;
			}
		}
		close(dfd);
		nominal = mode.clock * 1000.0 / ((double)mode.htotal * mode.vtotal);
		printf("crc_lines=%lu frames=%lu..%lu gaps=%lu missing=%lu crc_changes=%lu crc0=%016lx\n",
		       lines, first, last, gaps, missing, changes, crc0);
		if (lines > 1 && tlast > tfirst) {
			double el = tlast - tfirst;

			printf("elapsed=%.3f crc_per_s=%.3f vblank_per_s=%.3f nominal_hz=%.3f crc_per_vblank=%.4f\n",
			       el, (lines - 1 - nb0) / el, (last - b0) / el, nominal,
			       (double)(lines - 1) / (double)(last - first));
		} else {
			printf("elapsed=0 crc_per_s=0 vblank_per_s=0 nominal_hz=%.3f crc_per_vblank=0\n",
			       nominal);
		}
	}
	return 0;
}
