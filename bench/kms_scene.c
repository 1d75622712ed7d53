// SPDX-License-Identifier: GPL-2.0-only
/*
 * kms_scene - set a benchmark scene up through atomic KMS on the driver
 * named by $ATOMKMS_DRIVER (default "atomkms"), then read the CRTC's CRCs
 * (source "auto") for a while and report how many arrived against the
 * vblank rate. Run inside the guest by bench/guest-bench.sh.
 *
 * Usage: kms_scene [--scene a|b] [--mode WxH] [--seconds S] [--move-cursor 1]
 *   a  opaque XRGB8888 primary alone
 *   b  primary + 2 full-screen premultiplied ARGB8888 overlays with
 *      per-pixel alpha + a 64x64 ARGB8888 cursor (bench_compose's scene b)
 *   --move-cursor 1: scene b's cursor moves by a pixel every frame (a
 *      nonblocking commit after each flip event), so every frame the
 *      compositor really composes has a CRC of its own: crc_distinct_per_s
 *      counts them
 *
 * Output: "key=value" lines on stdout (parsed by bench/guest.sh).
 * Built with userspace/drmutil.c (device, properties, atomic requests,
 * framebuffers, the CRC directory), as the tools and tests are.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"

static int fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "kms_scene: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* @ret from a drmutil call: 0, or die with its negative errno. */
static void or_die(int ret, const char *what)
{
	if (ret) {
		errno = -ret;
		die(what);
	}
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 0x2545f4914f6cdd1dull) >> 32;
}

/*
 * A @w x @h framebuffer filled as bench_compose fills them: random
 * XRGB8888, or (@argb) premultiplied ARGB8888 with per-pixel alpha.
 */
static void fb_random(struct fmt_fb *f, uint32_t w, uint32_t h, int argb)
{
	or_die(fmt_fb_create(fd, w, h, argb ? DRM_FORMAT_ARGB8888 :
			     DRM_FORMAT_XRGB8888, f), "framebuffer");
	for (uint32_t y = 0; y < f->height; y++) {
		uint32_t *p = (uint32_t *)(f->map + f->offset[0] +
					   (size_t)y * f->pitch[0]);

		for (uint32_t x = 0; x < f->width; x++) {
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

/* @plane on @crtc showing all of @f at (@x, @y). */
static void set_plane(struct areq *r, uint32_t plane, uint32_t crtc,
		      const struct fmt_fb *f, int32_t x, int32_t y)
{
	areq_plane(r, plane, crtc, f->fb_id, f->width, f->height, x, y);
}

/* Print plane @id's zpos, and whether userspace may change it. */
static void print_zpos(uint32_t id)
{
	uint32_t prop = prop_id(fd, id, DRM_MODE_OBJECT_PLANE, "zpos");
	drmModePropertyRes *zp = prop ? drmModeGetProperty(fd, prop) : NULL;
	uint64_t z = 0;

	if (zp && !prop_get(fd, id, DRM_MODE_OBJECT_PLANE, "zpos", &z))
		printf("plane=%u zpos=%llu%s\n", id, (unsigned long long)z,
		       zp->flags & DRM_MODE_PROP_IMMUTABLE ? " (immutable)" : "");
	else
		printf("plane=%u zpos=none\n", id);
	drmModeFreeProperty(zp);
}

/* --move-cursor: the cursor plane, its CRTC and framebuffer, and its moves. */
static struct {
	uint32_t plane, crtc, x0, y0;
	const struct fmt_fb *fb;
	unsigned long moves;
	int pending;
} mover;

/* The next position of the cursor, committed without blocking. */
static void cursor_move(void)
{
	static struct areq r;

	areq_init(&r, fd);
	set_plane(&r, mover.plane, mover.crtc, mover.fb,
		  mover.x0 + mover.moves % 256, mover.y0);
	or_die(areq_commit(&r, DRM_MODE_PAGE_FLIP_EVENT |
			   DRM_MODE_ATOMIC_NONBLOCK, NULL), "cursor commit");
	mover.pending = 1;
	mover.moves++;
}

static void cursor_flipped(int fd_, unsigned int seq, unsigned int sec,
			   unsigned int usec, unsigned int crtc, void *data)
{
	(void)fd_, (void)seq, (void)sec, (void)usec, (void)crtc, (void)data;
	mover.pending = 0;
}

int main(int argc, char **argv)
{
	const char *drv = getenv("ATOMKMS_DRIVER"), *scene = "b";
	uint32_t want_w = 1920, want_h = 1080, conn_id = 0, crtc_id = 0;
	uint32_t primary = 0, cursor = 0, ovl[2] = { 0 }, novl = 0, blob;
	int crtc_idx = -1, nplanes, user_mode = 0;
	double seconds = 5;
	int move = 0;
	drmModeModeInfo mode;
	drmModeRes *res;
	drmModePlaneRes *pres;
	static struct areq req;
	struct fmt_fb fbs[4];

	if (!drv)
		drv = "atomkms";
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--scene"))
			scene = argv[i + 1];
		else if (!strcmp(argv[i], "--mode"))
			sscanf(argv[i + 1], "%ux%u", &want_w, &want_h);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--move-cursor"))
			move = atoi(argv[i + 1]);
	}

	/* The device driven by $ATOMKMS_DRIVER, universal planes, atomic. */
	fd = atomkms_open();
	if (fd < 0) {
		fprintf(stderr, "kms_scene: no DRM device driven by %s\n", drv);
		return 1;
	}

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
		int type;

		if (!p || !(p->possible_crtcs & (1u << crtc_idx)) ||
		    (type = plane_type(fd, p->plane_id)) < 0) {
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

	fb_random(&fbs[0], mode.hdisplay, mode.vdisplay, 0);
	nplanes = 1;
	if (!strcmp(scene, "b")) {
		for (int k = 1; k <= 2; k++)
			fb_random(&fbs[k], mode.hdisplay, mode.vdisplay, 1);
		fb_random(&fbs[3], 64, 64, 1);
		nplanes = 4;
	}

	if (drmModeCreatePropertyBlob(fd, &mode, sizeof(mode), &blob))
		die("CreatePropertyBlob");
	areq_init(&req, fd);
	areq_add(&req, conn_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc_id);
	areq_add(&req, crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	areq_add(&req, crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	set_plane(&req, primary, crtc_id, &fbs[0], 0, 0);
	if (nplanes == 4) {
		set_plane(&req, ovl[0], crtc_id, &fbs[1], 0, 0);
		set_plane(&req, ovl[1], crtc_id, &fbs[2], 0, 0);
		set_plane(&req, cursor, crtc_id, &fbs[3],
			  mode.hdisplay / 2 + 100, mode.vdisplay / 2 - 32);
	}
	or_die(areq_commit(&req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL),
	       "atomic commit");

	{
		uint32_t ids[4] = { primary, ovl[0], ovl[1], cursor };

		printf("driver=%s scene=%s mode=%ux%u@%u clock=%u planes=%d mode_source=%s\n",
		       drv, scene, mode.hdisplay, mode.vdisplay, mode.vrefresh,
		       mode.clock, nplanes, user_mode ? "user(CTA-VIC-97)" : "connector");
		for (int k = 0; k < nplanes; k++)
			print_zpos(ids[k]);
	}

	/* The CRCs: source "auto", then read crc/data for @seconds. */
	{
		struct crc_reader crc;
		char buf[4096], line[256];
		unsigned long first = 0, last = 0, prev = 0, gaps = 0, missing = 0;
		unsigned long lines = 0, changes = 0, crc0 = 0, lastcrc = 0;
		unsigned long b0 = 0, nb0 = 0;
		double t0, tfirst = 0, tlast = 0, nominal;
		size_t ll = 0;
		int k;

		drmEventContext ev = { .version = 3,
				       .page_flip_handler2 = cursor_flipped };

		or_die(crc_reader_init(&crc, fd, crtc_idx), "CRC directory");
		or_die(crc_reader_start(&crc), "CRC source auto");
		if (move && nplanes == 4) {
			mover.plane = cursor;
			mover.crtc = crtc_id;
			mover.fb = &fbs[3];
			mover.x0 = mode.hdisplay / 2 + 100;
			mover.y0 = mode.vdisplay / 2 - 32;
			cursor_move();
		}
		t0 = mono_now();
		while (mono_now() - t0 < seconds) {
			struct pollfd pf[2] = {
				{ .fd = crc.data, .events = POLLIN },
				{ .fd = fd, .events = POLLIN },
			};
			ssize_t n;

			if (poll(pf, mover.plane ? 2 : 1, 200) <= 0)
				continue;
			if (pf[1].revents & POLLIN) {
				drmHandleEvent(fd, &ev);
				if (!mover.pending)
					cursor_move();
			}
			if (!(pf[0].revents & POLLIN))
				continue;
			/* crc/data is open O_NONBLOCK: EAGAIN is no data yet. */
			n = read(crc.data, buf, sizeof(buf));
			if (n <= 0) {
				if (n < 0 && (errno == EINTR || errno == EAGAIN))
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
				tlast = mono_now();
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
		while (mover.pending && wait_event(fd, &ev, 1000) > 0)
			;
		crc_reader_stop(&crc);
		nominal = mode_refresh(&mode);
		printf("crc_lines=%lu frames=%lu..%lu gaps=%lu missing=%lu crc_changes=%lu crc0=%016lx\n",
		       lines, first, last, gaps, missing, changes, crc0);
		if (lines > 1 && tlast > tfirst) {
			double el = tlast - tfirst;

			printf("elapsed=%.3f crc_per_s=%.3f vblank_per_s=%.3f nominal_hz=%.3f crc_per_vblank=%.4f crc_distinct_per_s=%.3f cursor_moves=%lu\n",
			       el, (lines - 1 - nb0) / el, (last - b0) / el, nominal,
			       (double)(lines - 1) / (double)(last - first),
			       changes / el, mover.moves);
		} else {
			printf("elapsed=0 crc_per_s=0 vblank_per_s=0 nominal_hz=%.3f crc_per_vblank=0\n",
			       nominal);
		}
	}
	return 0;
}
