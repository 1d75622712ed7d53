// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmabuf-tiles: a Wayland client whose buffers can go on KMS planes, for
 * the limits stage (qemu/jobs/limits-clients.sh). Every buffer is a
 * dma-buf, XRGB8888 with the linear modifier, sent through
 * zwp_linux_dmabuf_v1, made without a GPU:
 *   -d CARD  a dumb buffer of the display's own device, exported through
 *            PRIME (what a GBM client of a KMS-only device gets)
 *   -u       a memfd turned into a dma-buf by /dev/udmabuf (weston's test
 *            suite's way)
 * A compositor that scans client buffers out may put each surface on a
 * plane of its own; one that cannot composes them.
 *
 * The window (640x480, a pattern) holds three subsurfaces:
 *   scaled-a  a 64x48 buffer of one colour shown at 256x192 (wp_viewporter)
 *   scaled-b  the same in another colour, beside it
 *   mover     160x120, a pattern, unscaled; it moves 2 pixels a frame for
 *             the first FRAMES frames, then stays where it is
 * Two scaled surfaces need two scalers: a display engine with one refuses
 * one of them, and the compositor must compose it instead. The scaled
 * buffers are of one colour so that any scaler's filter gives the same
 * pixels; the unscaled ones are patterns, so that a wrong offset shows.
 *
 * Usage: dmabuf-tiles -d CARD | -u [-f FRAMES]
 * Prints "mapped" when the window is first shown, and "still after N
 * frames" when the mover has stopped; then shows the window until killed.
 * Exit status 1 on any failure (no buffer, a buffer refused, ...).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <drm.h>
#include <drm_mode.h>
#include <linux/udmabuf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define FOURCC_XRGB8888 0x34325258	/* 'XR24', DRM_FORMAT_XRGB8888 */

struct tile {
	const char *name;
	int w, h;		/* the buffer's size */
	int dst_w, dst_h;	/* shown at, when scaled */
	int x, y;		/* position in the window */
	uint32_t colour;	/* one colour, or 0 for a pattern */
	struct wl_surface *surface;
	struct wl_subsurface *sub;
	struct wp_viewport *viewport;
	struct wl_buffer *buffer;
};

static struct wl_compositor *compositor;
static struct wl_subcompositor *subcompositor;
static struct xdg_wm_base *wm_base;
static struct zwp_linux_dmabuf_v1 *dmabuf;
static struct wp_viewporter *viewporter;
static int configured, frames_done, failed;

static void registry_global(void *data, struct wl_registry *reg,
			    uint32_t name, const char *iface, uint32_t ver)
{
	(void)data;
	if (!strcmp(iface, wl_compositor_interface.name))
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, wl_subcompositor_interface.name))
		subcompositor = wl_registry_bind(reg, name, &wl_subcompositor_interface, 1);
	else if (!strcmp(iface, xdg_wm_base_interface.name))
		wm_base = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
	else if (!strcmp(iface, zwp_linux_dmabuf_v1_interface.name) && ver >= 3)
		dmabuf = wl_registry_bind(reg, name, &zwp_linux_dmabuf_v1_interface, 3);
	else if (!strcmp(iface, wp_viewporter_interface.name))
		viewporter = wl_registry_bind(reg, name, &wp_viewporter_interface, 1);
}

static void registry_remove(void *data, struct wl_registry *reg, uint32_t name)
{
	(void)data; (void)reg; (void)name;
}

static const struct wl_registry_listener registry_listener = {
	registry_global, registry_remove,
};

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = { wm_base_ping };

static void xdg_surface_configure(void *data, struct xdg_surface *xs,
				  uint32_t serial)
{
	(void)data;
	xdg_surface_ack_configure(xs, serial);
	configured = 1;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w,
			       int32_t h, struct wl_array *states)
{
	(void)data; (void)t; (void)w; (void)h; (void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	(void)data; (void)t;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

/* A create_immed whose buffer the compositor refuses ends up here. */
static void params_created(void *data, struct zwp_linux_buffer_params_v1 *p,
			   struct wl_buffer *b)
{
	(void)data; (void)p; (void)b;
}

static void params_failed(void *data, struct zwp_linux_buffer_params_v1 *p)
{
	fprintf(stderr, "dmabuf-tiles: the compositor refused %s's buffer\n",
		(const char *)data);
	(void)p;
	failed = 1;
}

static const struct zwp_linux_buffer_params_v1_listener params_listener = {
	params_created, params_failed,
};

/* A pattern whose every pixel says where it is. */
static uint32_t pattern(int x, int y)
{
	uint32_t r = (x * 5) & 0xff, g = (y * 3) & 0xff;
	uint32_t b = ((x / 8 + y / 8) & 1) ? 0xe0 : 0x20;

	return 0xff000000 | r << 16 | g << 8 | b;
}

static const char *card;	/* -d: dumb buffers of this device */
static int card_fd = -1;

/* The pixels of a tile, in a mapping of its buffer, PITCH bytes a line. */
static void fill(const struct tile *t, uint32_t *px, size_t pitch)
{
	int x, y;

	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++)
			px[y * pitch / 4 + x] = t->colour ? t->colour : pattern(x, y);
}

/* A dma-buf of the tile from a memfd, through /dev/udmabuf. */
static int udmabuf_fd(const struct tile *t, size_t size)
{
	struct udmabuf_create create = { .flags = UDMABUF_FLAGS_CLOEXEC };
	uint32_t *px;
	int memfd, dev, fd;

	memfd = memfd_create(t->name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (memfd < 0 || ftruncate(memfd, size) < 0 ||
	    fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		fprintf(stderr, "dmabuf-tiles: memfd: %s\n", strerror(errno));
		return -1;
	}
	px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (px == MAP_FAILED) {
		fprintf(stderr, "dmabuf-tiles: mmap: %s\n", strerror(errno));
		return -1;
	}
	fill(t, px, t->w * 4);
	munmap(px, size);

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		fprintf(stderr, "dmabuf-tiles: /dev/udmabuf: %s\n", strerror(errno));
		return -1;
	}
	create.memfd = memfd;
	create.size = size;
	fd = ioctl(dev, UDMABUF_CREATE, &create);
	if (fd < 0)
		fprintf(stderr, "dmabuf-tiles: UDMABUF_CREATE: %s\n", strerror(errno));
	close(dev);
	close(memfd);
	return fd;
}

/* A dma-buf of the tile from a dumb buffer of the card, through PRIME. */
static int dumb_fd(const struct tile *t, size_t *stride)
{
	struct drm_mode_create_dumb create = {
		.width = t->w, .height = t->h, .bpp = 32,
	};
	struct drm_mode_map_dumb map = { 0 };
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_mode_destroy_dumb destroy = { 0 };
	uint32_t *px;

	if (card_fd < 0)
		card_fd = open(card, O_RDWR | O_CLOEXEC);
	if (card_fd < 0 || ioctl(card_fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) < 0) {
		fprintf(stderr, "dmabuf-tiles: %s: a dumb buffer: %s\n", card,
			strerror(errno));
		return -1;
	}
	map.handle = create.handle;
	if (ioctl(card_fd, DRM_IOCTL_MODE_MAP_DUMB, &map) < 0 ||
	    (px = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       card_fd, map.offset)) == MAP_FAILED) {
		fprintf(stderr, "dmabuf-tiles: mapping a dumb buffer: %s\n",
			strerror(errno));
		return -1;
	}
	*stride = create.pitch;
	fill(t, px, create.pitch);
	munmap(px, create.size);
	prime.handle = create.handle;
	if (ioctl(card_fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime) < 0) {
		fprintf(stderr, "dmabuf-tiles: PRIME export: %s\n", strerror(errno));
		return -1;
	}
	/* The dma-buf holds the buffer now. */
	destroy.handle = create.handle;
	ioctl(card_fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	return prime.fd;
}

static struct wl_buffer *make_buffer(struct tile *t)
{
	struct zwp_linux_buffer_params_v1 *params;
	size_t stride = t->w * 4, size;
	long page = sysconf(_SC_PAGESIZE);
	struct wl_buffer *buf;
	int fd;

	size = (stride * t->h + page - 1) / page * page;
	fd = card ? dumb_fd(t, &stride) : udmabuf_fd(t, size);
	if (fd < 0)
		return NULL;

	params = zwp_linux_dmabuf_v1_create_params(dmabuf);
	zwp_linux_buffer_params_v1_add_listener(params, &params_listener,
						(void *)t->name);
	/* The linux modifier, 0: the DRM backend scans out explicit ones only. */
	zwp_linux_buffer_params_v1_add(params, fd, 0, 0, stride, 0, 0);
	buf = zwp_linux_buffer_params_v1_create_immed(params, t->w, t->h,
						      FOURCC_XRGB8888, 0);
	zwp_linux_buffer_params_v1_destroy(params);
	close(fd);
	return buf;
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t time);

static const struct wl_callback_listener frame_listener = { frame_done };

static struct tile tiles[] = {
	{ .name = "window", .w = 640, .h = 480 },
	{ .name = "scaled-a", .w = 64, .h = 48, .dst_w = 256, .dst_h = 192,
	  .x = 32, .y = 32, .colour = 0xffc03030 },
	{ .name = "scaled-b", .w = 64, .h = 48, .dst_w = 256, .dst_h = 192,
	  .x = 352, .y = 32, .colour = 0xff30c030 },
	{ .name = "mover", .w = 160, .h = 120, .x = 32, .y = 300 },
};
#define NTILES (int)(sizeof(tiles) / sizeof(tiles[0]))
static int frames = 60;
static int udmabuf;

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct tile *mover = &tiles[NTILES - 1];

	(void)data; (void)time;
	wl_callback_destroy(cb);
	if (++frames_done >= frames) {
		printf("still after %d frames\n", frames_done);
		fflush(stdout);
		return;
	}
	/* Subsurface positions apply with the parent's next commit. */
	wl_subsurface_set_position(mover->sub, mover->x + 2 * frames_done,
				   mover->y);
	wl_callback_add_listener(wl_surface_frame(tiles[0].surface),
				 &frame_listener, NULL);
	wl_surface_damage(tiles[0].surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(tiles[0].surface);
}

int main(int argc, char **argv)
{
	struct wl_display *display;
	struct wl_registry *registry;
	struct xdg_surface *xs;
	struct xdg_toplevel *toplevel;
	int opt, i;

	while ((opt = getopt(argc, argv, "d:uf:")) != -1) {
		if (opt == 'd') {
			card = optarg;
		} else if (opt == 'u') {
			udmabuf = 1;
		} else if (opt == 'f') {
			frames = atoi(optarg);
			if (frames < 1)
				goto usage;
		} else {
			goto usage;
		}
	}
	if (!card == !udmabuf)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "dmabuf-tiles: no Wayland display\n");
		return 1;
	}
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!compositor || !subcompositor || !wm_base || !dmabuf || !viewporter) {
		fprintf(stderr, "dmabuf-tiles: the compositor lacks wl_compositor, wl_subcompositor, xdg_wm_base, zwp_linux_dmabuf_v1 (3) or wp_viewporter\n");
		return 1;
	}
	xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);

	for (i = 0; i < NTILES; i++) {
		struct tile *t = &tiles[i];

		t->surface = wl_compositor_create_surface(compositor);
		t->buffer = make_buffer(t);
		if (!t->buffer)
			return 1;
		if (i == 0)
			continue;
		t->sub = wl_subcompositor_get_subsurface(subcompositor, t->surface,
							 tiles[0].surface);
		wl_subsurface_set_position(t->sub, t->x, t->y);
		if (t->dst_w) {
			t->viewport = wp_viewporter_get_viewport(viewporter, t->surface);
			wp_viewport_set_destination(t->viewport, t->dst_w, t->dst_h);
		}
		wl_surface_attach(t->surface, t->buffer, 0, 0);
		wl_surface_damage(t->surface, 0, 0, INT32_MAX, INT32_MAX);
		wl_surface_commit(t->surface);
	}

	xs = xdg_wm_base_get_xdg_surface(wm_base, tiles[0].surface);
	xdg_surface_add_listener(xs, &xdg_surface_listener, NULL);
	toplevel = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_title(toplevel, "dmabuf-tiles");
	wl_surface_commit(tiles[0].surface);
	while (!configured && !failed)
		if (wl_display_dispatch(display) < 0)
			break;
	if (!configured || failed)
		return 1;

	wl_surface_attach(tiles[0].surface, tiles[0].buffer, 0, 0);
	wl_surface_damage(tiles[0].surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_callback_add_listener(wl_surface_frame(tiles[0].surface),
				 &frame_listener, NULL);
	wl_surface_commit(tiles[0].surface);
	printf("mapped\n");

	while (!failed && wl_display_dispatch(display) >= 0)
		;
	fprintf(stderr, "dmabuf-tiles: %s\n",
		failed ? "a buffer was refused" : "the connection ended");
	return 1;

usage:
	fprintf(stderr, "usage: dmabuf-tiles -d CARD | -u [-f FRAMES]\n");
	return 2;
}
