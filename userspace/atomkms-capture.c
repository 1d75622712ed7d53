// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms-capture - compose a small scene on the first CRTC and save the
 * frame the writeback connector returns as a PNG.
 *
 * The demo scene: the primary plane shows a gradient, an overlay a
 * translucent rounded box with per-pixel alpha (premultiplied ARGB8888)
 * and the cursor plane an arrow, as far as those planes exist. An
 * XRGB8888 framebuffer of the mode's size is attached to the CRTC's
 * writeback connector in the same commit; once its out-fence signals the
 * frame is written out with libpng. The writeback connector drives the
 * CRTC alongside the Virtual connector if the driver allows that clone,
 * else alone.
 *
 * Usage: atomkms-capture [-o out.png] [-s WxH] [--scene demo]
 *   -o  output file (default capture.png)
 *   -s  mode size (default: the Virtual connector's preferred mode)
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <png.h>

#include "drmutil.h"

#define FENCE_TIMEOUT_MS	2000
#define CURSOR_SIZE		64

struct capture {
	int fd;
	uint32_t crtc;
	uint32_t vconn;		/* Virtual connector of the CRTC, 0 if none */
	bool clone;
	struct wb_conn wb;
	uint32_t primary, overlay, cursor;
	uint32_t planes[64];
	unsigned int num_planes;
	drmModeModeInfo mode;
	uint32_t mode_blob;
	struct fmt_fb fb_primary, fb_overlay, fb_cursor, fb_wb;
	int32_t ov_x, ov_y, cur_x, cur_y;
};

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-o out.png] [-s WxH] [--scene demo]\n",
		argv0);
}

static uint32_t *fb_row(const struct fmt_fb *fb, uint32_t y)
{
	return (uint32_t *)(fb->map + fb->offset[0] + (size_t)y * fb->pitch[0]);
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Premultiplied ARGB8888 of a colour (0..1 channels) with coverage @a. */
static uint32_t premul(double r, double g, double b, double a)
{
	uint32_t A = lround(clamp01(a) * 255);

	return A << 24 | (uint32_t)lround(clamp01(r) * A) << 16 |
	       (uint32_t)lround(clamp01(g) * A) << 8 |
	       (uint32_t)lround(clamp01(b) * A);
}

static void paint_gradient(const struct fmt_fb *fb)
{
	uint32_t x, y, w = fb->width, h = fb->height;

	for (y = 0; y < h; y++) {
		uint32_t *p = fb_row(fb, y);

		for (x = 0; x < w; x++) {
			uint32_t r = x * 255 / (w > 1 ? w - 1 : 1);
			uint32_t g = y * 255 / (h > 1 ? h - 1 : 1);
			uint32_t b = 255 - (r + g) / 2;

			/* A faint 64-pixel grid, to see geometry in the capture. */
			if (x % 64 == 0 || y % 64 == 0) {
				r = (r + 255) / 2;
				g = (g + 255) / 2;
				b = (b + 255) / 2;
			}
			p[x] = r << 16 | g << 8 | b;
		}
	}
}

/*
 * A translucent blue rounded box with a brighter, nearly opaque border,
 * anti-aliased: the signed distance to the rounded rectangle gives each
 * pixel's coverage.
 */
static void paint_rounded_box(const struct fmt_fb *fb)
{
	double w = fb->width, h = fb->height;
	double rad = (w < h ? w : h) / 5, border = 4;
	uint32_t x, y;

	for (y = 0; y < fb->height; y++) {
		uint32_t *p = fb_row(fb, y);

		for (x = 0; x < fb->width; x++) {
			double px = x + 0.5, py = y + 0.5;
			double qx = fabs(px - w / 2) - (w / 2 - rad);
			double qy = fabs(py - h / 2) - (h / 2 - rad);
			double ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0;
			double in = qx > qy ? qx : qy;
			double d = sqrt(ox * ox + oy * oy) + (in < 0 ? in : 0) -
				   rad;
			double cov = clamp01(0.5 - d);
			double edge = clamp01(d + border + 0.5);
			/* Inside: blue at 55%, with a vertical sheen. */
			double a = 0.55 + 0.35 * edge;
			double r = 0.15 + 0.85 * edge, g = 0.45 + 0.55 * edge;
			double b = 0.95;

			g += 0.2 * (1 - py / h) * (1 - edge);
			p[x] = premul(r, g, b, a * cov);
		}
	}
}

/* The classic arrow pointer, as a polygon in 1/2 pixel units. */
static const double arrow[][2] = {
	{ 1, 1 }, { 1, 33 }, { 9, 25 }, { 15, 39 }, { 21, 36 },
	{ 15, 23 }, { 26, 23 },
};

static bool in_arrow(double x, double y)
{
	size_t i, j, n = sizeof(arrow) / sizeof(arrow[0]);
	bool in = false;

	for (i = 0, j = n - 1; i < n; j = i++) {
		double xi = arrow[i][0], yi = arrow[i][1];
		double xj = arrow[j][0], yj = arrow[j][1];

		if ((yi > y) != (yj > y) &&
		    x < (xj - xi) * (y - yi) / (yj - yi) + xi)
			in = !in;
	}
	return in;
}

/* Distance from (x, y) to the arrow's outline. */
static double arrow_edge_dist(double x, double y)
{
	size_t i, j, n = sizeof(arrow) / sizeof(arrow[0]);
	double best = 1e9;

	for (i = 0, j = n - 1; i < n; j = i++) {
		double ax = arrow[j][0], ay = arrow[j][1];
		double dx = arrow[i][0] - ax, dy = arrow[i][1] - ay;
		double t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
		double ex, ey, d;

		t = t < 0 ? 0 : t > 1 ? 1 : t;
		ex = ax + t * dx - x;
		ey = ay + t * dy - y;
		d = sqrt(ex * ex + ey * ey);
		if (d < best)
			best = d;
	}
	return best;
}

/* White arrow with a black outline, 4x4 supersampled; transparent around. */
static void paint_arrow(const struct fmt_fb *fb)
{
	const double scale = 1.4;	/* arrow units per pixel: 1 / scale */
	uint32_t x, y;
	int sx, sy;

	for (y = 0; y < fb->height; y++) {
		uint32_t *p = fb_row(fb, y);

		for (x = 0; x < fb->width; x++) {
			double white = 0, black = 0, a;

			for (sy = 0; sy < 4; sy++)
				for (sx = 0; sx < 4; sx++) {
					double ux = (x + (sx + 0.5) / 4) / scale;
					double uy = (y + (sy + 0.5) / 4) / scale;

					if (!in_arrow(ux, uy))
						continue;
					if (arrow_edge_dist(ux, uy) < 1.6)
						black += 1.0 / 16;
					else
						white += 1.0 / 16;
				}
			a = white + black;
			p[x] = a ? premul(white / a, white / a, white / a, a) : 0;
		}
	}
}

static bool want_mode(const drmModeModeInfo *m, uint32_t w, uint32_t h,
		      const drmModeModeInfo *best)
{
	if (m->flags & DRM_MODE_FLAG_INTERLACE || m->hdisplay != w ||
	    m->vdisplay != h)
		return false;
	return !best || abs((int)m->vrefresh - 60) <
			abs((int)best->vrefresh - 60);
}

/* The first CRTC, its planes, connectors and the mode to drive. */
static int setup_pipe(struct capture *c, uint32_t want_w, uint32_t want_h)
{
	drmModeRes *res = drmModeGetResources(c->fd);
	drmModePlaneRes *pres = drmModeGetPlaneResources(c->fd);
	const drmModeModeInfo *best = NULL;
	drmModeConnector *vc = NULL;
	unsigned int i;
	int j, ret = -1;

	if (!res || !pres || res->count_crtcs < 1) {
		fprintf(stderr, "atomkms-capture: no CRTC or planes\n");
		goto out;
	}
	c->crtc = res->crtcs[0];
	for (i = 0; i < pres->count_planes; i++) {
		drmModePlane *pl = drmModeGetPlane(c->fd, pres->planes[i]);
		int type;

		if (pl && (pl->possible_crtcs & 1u)) {
			type = plane_type(c->fd, pl->plane_id);
			if (type == DRM_PLANE_TYPE_PRIMARY && !c->primary)
				c->primary = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_OVERLAY && !c->overlay)
				c->overlay = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_CURSOR && !c->cursor)
				c->cursor = pl->plane_id;
			if (c->num_planes < sizeof(c->planes) / sizeof(c->planes[0]))
				c->planes[c->num_planes++] = pl->plane_id;
		}
		drmModeFreePlane(pl);
	}
	if (!c->primary) {
		fprintf(stderr, "atomkms-capture: crtc %u has no primary plane\n",
			c->crtc);
		goto out;
	}
	if (wb_conn_find(c->fd, 0, &c->wb))
		goto out;

	for (j = 0; j < res->count_connectors && !c->vconn; j++) {
		drmModeConnector *conn = drmModeGetConnector(c->fd,
							     res->connectors[j]);
		int e;

		for (e = 0; conn && conn->connector_type ==
			    DRM_MODE_CONNECTOR_VIRTUAL &&
			    e < conn->count_encoders && !c->vconn; e++) {
			drmModeEncoder *enc = drmModeGetEncoder(c->fd,
								conn->encoders[e]);

			if (enc && (enc->possible_crtcs & 1u)) {
				c->vconn = conn->connector_id;
				vc = conn;
			}
			drmModeFreeEncoder(enc);
		}
		if (vc != conn)
			drmModeFreeConnector(conn);
	}

	/* Default size: the Virtual connector's preferred mode. */
	if (!want_w && vc)
		for (j = 0; j < vc->count_modes && !want_w; j++)
			if (vc->modes[j].type & DRM_MODE_TYPE_PREFERRED) {
				want_w = vc->modes[j].hdisplay;
				want_h = vc->modes[j].vdisplay;
			}
	if (!want_w) {
		want_w = 1024;
		want_h = 768;
	}
	for (j = 0; vc && j < vc->count_modes; j++)
		if ((vc->modes[j].type & DRM_MODE_TYPE_PREFERRED) &&
		    vc->modes[j].hdisplay == want_w &&
		    vc->modes[j].vdisplay == want_h)
			best = &vc->modes[j];
	for (j = 0; !best && vc && j < vc->count_modes; j++)
		if (want_mode(&vc->modes[j], want_w, want_h, best))
			best = &vc->modes[j];
	for (j = 0; !best && j < c->wb.count_modes; j++)
		if (want_mode(&c->wb.modes[j], want_w, want_h, best))
			best = &c->wb.modes[j];
	if (!best) {
		fprintf(stderr, "atomkms-capture: no %ux%u mode\n", want_w,
			want_h);
		goto out;
	}
	c->mode = *best;
	ret = 0;
out:
	drmModeFreeConnector(vc);
	drmModeFreePlaneResources(pres);
	drmModeFreeResources(res);
	return ret;
}

static void add_plane(struct areq *r, uint32_t plane, uint32_t crtc,
		      const struct fmt_fb *fb, int32_t x, int32_t y)
{
	const uint32_t o = DRM_MODE_OBJECT_PLANE;
	uint64_t premulti;

	areq_plane(r, plane, crtc, fb->fb_id, fb->width, fb->height, x, y);
	if (!prop_enum(r->fd, plane, o, "pixel blend mode", "Pre-multiplied",
		       &premulti))
		areq_add(r, plane, o, "pixel blend mode", premulti);
}

static int commit_scene(struct capture *c, int *fence, uint32_t flags)
{
	const uint32_t conn = DRM_MODE_OBJECT_CONNECTOR;
	struct areq r;
	unsigned int i;
	int ret;

	areq_init(&r, c->fd);
	areq_add(&r, c->crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", c->mode_blob);
	areq_add(&r, c->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	if (c->vconn)
		areq_add(&r, c->vconn, conn, "CRTC_ID", c->clone ? c->crtc : 0);
	areq_add(&r, c->wb.conn, conn, "CRTC_ID", c->crtc);
	areq_add(&r, c->wb.conn, conn, "WRITEBACK_FB_ID", c->fb_wb.fb_id);
	if (fence) {
		*fence = -1;
		areq_add(&r, c->wb.conn, conn, "WRITEBACK_OUT_FENCE_PTR",
			 (uint64_t)(uintptr_t)fence);
	}
	for (i = 0; i < c->num_planes; i++) {
		uint32_t p = c->planes[i];

		if (p == c->primary)
			add_plane(&r, p, c->crtc, &c->fb_primary, 0, 0);
		else if (p == c->overlay)
			add_plane(&r, p, c->crtc, &c->fb_overlay, c->ov_x,
				  c->ov_y);
		else if (p == c->cursor)
			add_plane(&r, p, c->crtc, &c->fb_cursor, c->cur_x,
				  c->cur_y);
		else {
			areq_add(&r, p, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
			areq_add(&r, p, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
		}
	}
	ret = areq_commit(&r, flags | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return ret;
}

/* libpng's part, apart: it reports errors by longjmp(). */
static int png_encode(png_structp png, png_infop info, FILE *f,
		      const struct fmt_fb *fb, png_bytep row)
{
	uint32_t x, y;

	if (setjmp(png_jmpbuf(png)))
		return -1;
	png_init_io(png, f);
	png_set_IHDR(png, info, fb->width, fb->height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < fb->height; y++) {
		const uint32_t *p = fb_row(fb, y);

		for (x = 0; x < fb->width; x++) {
			row[3 * x] = p[x] >> 16;
			row[3 * x + 1] = p[x] >> 8;
			row[3 * x + 2] = p[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	return 0;
}

static int write_png(const char *path, const struct fmt_fb *fb)
{
	png_structp png = NULL;
	png_infop info = NULL;
	png_bytep row = NULL;
	FILE *f;
	int ret = -1;

	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "atomkms-capture: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (png)
		info = png_create_info_struct(png);
	row = malloc((size_t)fb->width * 3);
	if (!png || !info || !row)
		fprintf(stderr, "atomkms-capture: libpng setup failed\n");
	else if (png_encode(png, info, f, fb, row))
		fprintf(stderr, "atomkms-capture: writing %s failed\n", path);
	else
		ret = 0;
	png_destroy_write_struct(&png, &info);
	free(row);
	if (fclose(f) && !ret) {
		fprintf(stderr, "atomkms-capture: %s: %s\n", path,
			strerror(errno));
		ret = -1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "scene", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct capture c = { .fd = -1 };
	const char *out = "capture.png";
	uint32_t want_w = 0, want_h = 0, w, h;
	int opt, ret, fence = -1, st, status = 1;
	double t0, t1;
	char tail;

	while ((opt = getopt_long(argc, argv, "o:s:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 's':
			if (sscanf(optarg, "%ux%u%c", &want_w, &want_h,
				   &tail) != 2 || !want_w || !want_h) {
				fprintf(stderr, "atomkms-capture: bad size %s\n",
					optarg);
				return 2;
			}
			break;
		case 'S':
			if (strcmp(optarg, "demo")) {
				fprintf(stderr, "atomkms-capture: unknown scene %s (only \"demo\")\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			usage(argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		usage(argv[0]);
		return 2;
	}

	c.fd = atomkms_open();
	if (c.fd < 0)
		return 1;
	ret = kms_reset_all(c.fd);
	if (ret) {
		fprintf(stderr, "atomkms-capture: reset: %s\n", strerror(-ret));
		goto out;
	}
	if (setup_pipe(&c, want_w, want_h))
		goto out;
	if (!wb_conn_has_format(&c.wb, DRM_FORMAT_XRGB8888)) {
		fprintf(stderr, "atomkms-capture: writeback connector %u cannot write XR24\n",
			c.wb.conn);
		goto out;
	}
	w = c.mode.hdisplay;
	h = c.mode.vdisplay;
	ret = drmModeCreatePropertyBlob(c.fd, &c.mode, sizeof(c.mode),
					&c.mode_blob);
	if (ret) {
		fprintf(stderr, "atomkms-capture: mode blob: %s\n",
			strerror(-ret));
		goto out;
	}

	if (fmt_fb_create(c.fd, w, h, DRM_FORMAT_XRGB8888, &c.fb_primary) ||
	    fmt_fb_create(c.fd, w, h, DRM_FORMAT_XRGB8888, &c.fb_wb))
		goto out;
	paint_gradient(&c.fb_primary);
	/* Poison: a frame that is not written back shows up magenta. */
	{
		uint32_t x, y;

		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				fb_row(&c.fb_wb, y)[x] = 0xff00ff;
	}
	if (c.overlay) {
		if (fmt_fb_create(c.fd, w / 2, h / 2, DRM_FORMAT_ARGB8888,
				  &c.fb_overlay))
			goto out;
		paint_rounded_box(&c.fb_overlay);
		c.ov_x = w / 8;
		c.ov_y = h / 4;
	}
	if (c.cursor) {
		if (fmt_fb_create(c.fd, CURSOR_SIZE, CURSOR_SIZE,
				  DRM_FORMAT_ARGB8888, &c.fb_cursor))
			goto out;
		paint_arrow(&c.fb_cursor);
		/* On the box's right edge: half over the box, half off it. */
		c.cur_x = w / 8 + w / 2 - CURSOR_SIZE / 3;
		c.cur_y = h / 2 - CURSOR_SIZE / 2;
	}

	/* Clone the Virtual connector if the driver lets us. */
	c.clone = c.vconn != 0;
	if (c.clone && commit_scene(&c, NULL, DRM_MODE_ATOMIC_TEST_ONLY))
		c.clone = false;

	t0 = mono_now();
	ret = commit_scene(&c, &fence, 0);
	if (ret || fence < 0) {
		fprintf(stderr, "atomkms-capture: commit: %s\n",
			ret ? strerror(-ret) : "no out-fence");
		goto out;
	}
	ret = fence_wait(fence, FENCE_TIMEOUT_MS);
	t1 = mono_now();
	st = ret == 1 ? fence_status(fence) : 0;
	if (ret != 1 || st != 1) {
		fprintf(stderr, "atomkms-capture: out-fence %s\n",
			ret == 0 ? "not signalled within 2 s" :
			ret < 0 ? strerror(-ret) :
			st < 0 ? strerror(-st) : "still pending");
		goto out;
	}

	printf("crtc %u: %ux%u@%u, driven by writeback connector %u%s\n",
	       c.crtc, w, h, c.mode.vrefresh, c.wb.conn,
	       c.clone ? " and the Virtual connector (clone)" :
	       " alone (no clone with the Virtual connector)");
	printf("primary plane %u: XR24 %ux%u gradient\n", c.primary, w, h);
	if (c.overlay)
		printf("overlay plane %u: AR24 %ux%u translucent rounded box (premultiplied) at %d,%d\n",
		       c.overlay, c.fb_overlay.width, c.fb_overlay.height,
		       c.ov_x, c.ov_y);
	else
		printf("no overlay plane\n");
	if (c.cursor)
		printf("cursor plane %u: AR24 %ux%u arrow at %d,%d\n",
		       c.cursor, CURSOR_SIZE, CURSOR_SIZE, c.cur_x, c.cur_y);
	else
		printf("no cursor plane\n");
	printf("writeback: XR24 %ux%u fb %u, out-fence signalled %.1f ms after the commit started\n",
	       w, h, c.fb_wb.fb_id, (t1 - t0) * 1000.0);

	if (write_png(out, &c.fb_wb))
		goto out;
	printf("wrote %s (%ux%u RGB)\n", out, w, h);
	status = 0;
out:
	if (fence >= 0)
		close(fence);
	if (c.fd >= 0) {
		kms_disable_all(c.fd);
		fmt_fb_destroy(c.fd, &c.fb_cursor);
		fmt_fb_destroy(c.fd, &c.fb_overlay);
		fmt_fb_destroy(c.fd, &c.fb_wb);
		fmt_fb_destroy(c.fd, &c.fb_primary);
		if (c.mode_blob)
			drmModeDestroyPropertyBlob(c.fd, c.mode_blob);
		wb_conn_fini(&c.wb);
		close(c.fd);
	}
	return status;
}
