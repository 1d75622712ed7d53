// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms-demo - modeset the first connected output and page-flip between
 * two dumb buffers with nonblocking atomic commits, then report how the
 * flip events matched the mode's nominal refresh rate.
 *
 * Usage: atomkms-demo [-n FLIPS] [-q]
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drmutil.h"

#define BAR_W		32	/* moving bar width, pixels */
#define BAR_STEP	8	/* bar movement per frame, pixels */
#define MARK		64	/* per-buffer corner marker size */

struct demo {
	struct flip_stats st;
	uint32_t crtc;
	bool pending;
	unsigned int wrong_crtc;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint32_t gradient(const struct dumb_fb *fb, uint32_t x, uint32_t y)
{
	uint32_t r = x * 255 / fb->width;
	uint32_t g = y * 255 / fb->height;
	uint32_t b = 255 - (r + g) / 2;

	return r << 16 | g << 8 | b;
}

static uint32_t *row(const struct dumb_fb *fb, uint32_t y)
{
	return (uint32_t *)((char *)fb->pixels + (size_t)y * fb->stride);
}

static void fill_columns(const struct dumb_fb *fb, uint32_t x0, uint32_t w,
			 bool bar)
{
	uint32_t x, y;

	for (y = 0; y < fb->height; y++) {
		uint32_t *p = row(fb, y);

		for (x = x0; x < x0 + w && x < fb->width; x++)
			p[x] = bar ? 0xffffff : gradient(fb, x, y);
	}
}

/* Background gradient plus a marker telling the two buffers apart. */
static void paint_background(const struct dumb_fb *fb, int idx)
{
	uint32_t x, y;

	fill_columns(fb, 0, fb->width, false);
	for (y = 0; y < MARK && y < fb->height; y++)
		for (x = 0; x < MARK && x < fb->width; x++)
			row(fb, y)[x] = idx ? 0x000000 : 0xffffff;
}

/* Move the bar of @fb from *bar_x to where frame @frame wants it. */
static void paint_frame(const struct dumb_fb *fb, int64_t *bar_x,
			unsigned int frame)
{
	uint32_t span = fb->width > BAR_W ? fb->width - BAR_W : 1;
	uint32_t x = (uint64_t)frame * BAR_STEP % span;

	if (*bar_x >= 0)
		fill_columns(fb, *bar_x, BAR_W, false);
	fill_columns(fb, x, BAR_W, true);
	*bar_x = x;
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	struct demo *d = data;

	(void)fd;
	if (crtc_id && crtc_id != d->crtc)
		d->wrong_crtc++;
	flip_stats_add(&d->st, seq, tv_sec, tv_usec);
	d->pending = false;
}

static int modeset(int fd, const struct kms_pipe *p, uint32_t blob,
		   const struct dumb_fb *fb)
{
	struct areq r;
	int ret;

	areq_init(&r, fd);
	areq_modeset(&r, p, blob, fb);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	if (ret)
		fprintf(stderr, "modeset: %s\n", strerror(-ret));
	return ret;
}

static void disable(int fd, const struct kms_pipe *p)
{
	struct areq r;
	int ret;

	areq_init(&r, fd);
	areq_disable(&r, p);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	if (ret)
		fprintf(stderr, "disable crtc: %s\n", strerror(-ret));
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-n FLIPS] [-q]\n", argv0);
}

int main(int argc, char **argv)
{
	drmEventContext ev = {
		.version = DRM_EVENT_CONTEXT_VERSION,
		.page_flip_handler2 = flip_handler,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	struct dumb_fb fb[2] = { 0 };
	int64_t bar_x[2] = { -1, -1 };
	struct demo d = { 0 };
	struct kms_pipe p;
	const drmModeModeInfo *m = &p.mode;
	unsigned int flips = 120, done = 0, last_events = 0;
	uint32_t blob = 0, fb_prop;
	double nominal, measured, t_start, t_print;
	bool quiet = false, failed = false, active = false;
	int opt, fd, ret, i;

	while ((opt = getopt(argc, argv, "n:qh")) != -1) {
		switch (opt) {
		case 'n':
			flips = strtoul(optarg, NULL, 0);
			break;
		case 'q':
			quiet = true;
			break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}

	fd = atomkms_open();
	if (fd < 0)
		return 1;
	if (kms_pipe_find(fd, &p))
		goto fail;
	d.crtc = p.crtc;
	nominal = mode_refresh(m);
	printf("connector %u, crtc %u, plane %u: %ux%u@%.3f Hz (%s)\n",
	       p.conn, p.crtc, p.plane, m->hdisplay, m->vdisplay, nominal,
	       m->name);

	for (i = 0; i < 2; i++) {
		if (dumb_fb_create(fd, m->hdisplay, m->vdisplay, &fb[i]))
			goto fail;
		paint_background(&fb[i], i);
	}
	paint_frame(&fb[0], &bar_x[0], 0);

	ret = drmModeCreatePropertyBlob(fd, m, sizeof(*m), &blob);
	if (ret) {
		fprintf(stderr, "mode blob: %s\n", strerror(-ret));
		goto fail;
	}
	fb_prop = prop_id(fd, p.plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	if (!fb_prop) {
		fprintf(stderr, "plane %u has no FB_ID\n", p.plane);
		goto fail;
	}
	if (modeset(fd, &p, blob, &fb[0]))
		goto fail;
	active = true;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	t_start = t_print = mono_now();
	while (done < flips && !stop) {
		int back = (done + 1) & 1;
		struct areq r;
		double now;

		paint_frame(&fb[back], &bar_x[back], done + 1);
		areq_init(&r, fd);
		areq_add_id(&r, p.plane, fb_prop, fb[back].fb_id);
		ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
				  DRM_MODE_PAGE_FLIP_EVENT, &d);
		areq_fini(&r);
		if (ret) {
			fprintf(stderr, "flip %u: %s\n", done, strerror(-ret));
			failed = true;
			break;
		}
		d.pending = true;
		done++;

		while (d.pending && !stop) {
			ret = wait_event(fd, &ev, 1000);
			if (ret == 0 || (ret < 0 && ret != -EINTR)) {
				fprintf(stderr, "flip %u: %s\n", done - 1, ret ?
					strerror(-ret) : "no event within 1 s");
				failed = true;
				break;
			}
		}
		if (failed)
			break;

		now = mono_now();
		if (!quiet && now - t_print >= 1.0) {
			printf("%5.1f s: %u flips, seq %u, %.2f flips/s, %u missed\n",
			       now - t_start, done, d.st.seq_last,
			       (d.st.events - last_events) / (now - t_print),
			       d.st.missed);
			last_events = d.st.events;
			t_print = now;
		}
	}
	/* Let a flip cut short by a signal land before switching off. */
	if (d.pending)
		wait_event(fd, &ev, 1000);

	measured = flip_stats_refresh(&d.st);
	printf("flips %u/%u, events %u, missed %u vblanks in %u jumps\n",
	       done, flips, d.st.events, d.st.missed, d.st.jumps);
	printf("sequence first %u last %u\n", d.st.seq_first, d.st.seq_last);
	printf("refresh measured %.4f Hz, nominal %.4f Hz (clock %u kHz, %ux%u total), error %+.4f%%\n",
	       measured, nominal, m->clock, m->htotal, m->vtotal,
	       measured && nominal ? (measured / nominal - 1.0) * 100.0 : 0.0);

	if (d.st.events != done) {
		fprintf(stderr, "%u events for %u flips\n", d.st.events, done);
		failed = true;
	}
	if (d.st.backwards) {
		fprintf(stderr, "sequence went backwards %u times\n",
			d.st.backwards);
		failed = true;
	}
	if (d.wrong_crtc) {
		fprintf(stderr, "%u events for another crtc\n", d.wrong_crtc);
		failed = true;
	}
	if (stop) {
		fprintf(stderr, "interrupted\n");
		failed = true;
	}
	goto out;

fail:
	failed = true;
out:
	if (active)
		disable(fd, &p);
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	for (i = 0; i < 2; i++)
		dumb_fb_destroy(fd, &fb[i]);
	close(fd);
	return failed ? 1 : 0;
}
