// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-vrr - variable refresh: vblanks follow the flips within the range.
 *
 * Sets the first connected output's preferred mode with VRR_ENABLED and
 * reads its range from debugfs vrr_range (the EDID's range limits). Then,
 * for each requested interval T, flips T after each flip's vblank (the
 * event's timestamp) and records every vblank through a window of
 * absolute-sequence vblank events. It checks:
 *  - within the range, the vblanks come at the flips (median interval
 *    T, plus the flip's submission latency);
 *  - above Vmax they come at 1/Vmax (the floor), and below Vmin, and with
 *    no flip at all, at 1/Vmin (the ceiling): no interval is ever shorter
 *    than 1/Vmax or longer than 1/Vmin;
 *  - every vblank has its own sequence number, consecutive, and its own
 *    increasing timestamp, and each flip's event names one of them;
 *  - VRR_ENABLED off: the mode's fixed period again.
 * It prints a table of requested interval against measured ones.
 *
 * Usage: test-vrr [-n FLIPS]   (flips per interval, default 40)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "drmutil.h"
#include "tap.h"

#define MAX_VBL		4096
/*
 * Vblank events queued ahead, each for its own absolute sequence: half a
 * second at 60 Hz, so that a stall of the test (a plain-TCG guest the
 * host does not run for a while) does not let a vblank pass unrequested.
 */
#define WINDOW		32
/* Event timestamps are in microseconds: 1 us of rounding each. */
#define TS_SLACK_NS	2000

/* The CRTC's VRR frame limits, from its range. */
static uint64_t tmin_ns, tmax_ns;

struct vbl {
	unsigned int seq;
	uint64_t ns;
	bool late;	/* requested after its vblank: sent at once */
};

struct ctx {
	int fd;
	uint32_t crtc;
	unsigned int crtc_bits;
	/* vblank events, in order of arrival */
	struct vbl vbl[MAX_VBL];
	unsigned int nvbl;
	unsigned int queued_to;	/* highest sequence an event is queued for */
	/* flip events */
	unsigned int flips_done;
	unsigned int flip_seq;
	uint64_t flip_ns;
	unsigned int flip_bad_seq;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int queue_vbl(struct ctx *c, unsigned int seq)
{
	drmVBlank v = { 0 };

	v.request.type = DRM_VBLANK_ABSOLUTE | DRM_VBLANK_EVENT | c->crtc_bits;
	v.request.sequence = seq;
	v.request.signal = seq;
	if (drmWaitVBlank(c->fd, &v))
		return -errno;
	c->queued_to = seq;
	return 0;
}

static struct ctx ctx;

/* @data: the sequence the event was requested for. */
static void vbl_handler(int fd, unsigned int seq, unsigned int tv_sec,
			unsigned int tv_usec, void *data)
{
	struct ctx *c = &ctx;

	(void)fd;
	if (c->nvbl < MAX_VBL)
		c->vbl[c->nvbl++] = (struct vbl){
			seq, (uint64_t)tv_sec * 1000000000ull + tv_usec * 1000ull,
			seq != (unsigned int)(uintptr_t)data
		};
	/* Keep WINDOW events queued ahead. */
	queue_vbl(c, c->queued_to + 1);
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	struct ctx *c = data;

	(void)fd;
	(void)crtc_id;
	if (c->flips_done && (int)(seq - c->flip_seq) <= 0)
		c->flip_bad_seq++;
	c->flip_seq = seq;
	c->flip_ns = (uint64_t)tv_sec * 1000000000ull + tv_usec * 1000ull;
	c->flips_done++;
}

static drmEventContext evctx = {
	.version = DRM_EVENT_CONTEXT_VERSION,
	.vblank_handler = vbl_handler,
	.page_flip_handler2 = flip_handler,
};

/* Dispatch events until @deadline (CLOCK_MONOTONIC ns), or one arrives. */
static int pump(uint64_t deadline)
{
	uint64_t now = now_ns();
	int ms = now >= deadline ? 0 : (int)((deadline - now) / 1000000);

	return wait_event(ctx.fd, &evctx, ms);
}

static int flip(uint32_t plane, uint32_t fb_prop, uint32_t fb_id)
{
	struct areq r;
	int ret;

	areq_init(&r, ctx.fd);
	areq_add_id(&r, plane, fb_prop, fb_id);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
			  DRM_MODE_PAGE_FLIP_EVENT, &ctx);
	areq_fini(&r);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct phase_result {
	double median_ms, min_ms, max_ms, flip_ms;
	unsigned int intervals, seq_gaps, ts_bad, flip_bad, late;
	unsigned int flips_checked, flips_early, flips_late;
	double early_ms, late_ms;	/* the first such, from its window */
};

/* One flip: the ioctl's call and return, and its vblank (its event). */
struct flip_rec {
	uint64_t call, ret, vbl;
};

static struct flip_rec flips[MAX_VBL];

/* The latest vblank recorded at or before @t, or 0. */
static uint64_t vblank_before(unsigned int from, uint64_t t, bool *late)
{
	unsigned int i;
	uint64_t best = 0;

	*late = false;
	for (i = from; i < ctx.nvbl; i++) {
		if (ctx.vbl[i].ns > t)
			break;
		best = ctx.vbl[i].ns;
		*late = ctx.vbl[i].late;
	}
	return best;
}

/*
 * Whether each flip's vblank came when VRR says, whatever the latency of
 * the test: the driver takes the flip between the ioctl's call and its
 * return (a nonblocking flip with nothing to wait for is published in
 * the ioctl), so a flip that came within the frame begun at vblank L,
 * ioctl returned before L + 1/Vmin, must have its vblank in
 * [max(call, L + 1/Vmax), max(return, L + 1/Vmax)]. Never before: a
 * vblank before the flip, or less than 1/Vmax after the last, is wrong.
 * After it, now and then, on a slow guest (the debug kernel): a flip that
 * finds the previous commit still cleaning up is published by the commit
 * worker, after the ioctl returns.
 */
static void check_flips(unsigned int from_vbl, unsigned int nflips,
			uint64_t tmin, uint64_t tmax, struct phase_result *res)
{
	unsigned int i;

	for (i = 0; i < nflips; i++) {
		const struct flip_rec *f = &flips[i];
		uint64_t l, lo, hi;
		bool late;

		l = vblank_before(from_vbl, f->call, &late);
		if (!l || late || f->ret >= l + tmax)
			continue;
		lo = f->call > l + tmin ? f->call : l + tmin;
		hi = f->ret > l + tmin ? f->ret : l + tmin;
		res->flips_checked++;
		if (f->vbl + TS_SLACK_NS < lo) {
			if (!res->flips_early)
				res->early_ms = ((double)f->vbl - (double)lo) / 1e6;
			res->flips_early++;
		} else if (f->vbl > hi + TS_SLACK_NS) {
			if (!res->flips_late)
				res->late_ms = ((double)f->vbl - (double)hi) / 1e6;
			res->flips_late++;
		}
	}
}

/*
 * Flip @n times, each @t_ns after the previous flip's vblank (@t_ns 0: no
 * flips, just watch for @n vblanks), and measure the vblank intervals.
 */
static int run_phase(uint32_t plane, uint32_t fb_prop, const uint32_t *fbs,
		     uint64_t t_ns, unsigned int n, struct phase_result *res)
{
	static uint64_t iv[MAX_VBL];
	unsigned int first_vbl, i, k = 0, flips0;
	uint64_t first_flip_ns = 0, deadline, guard;
	int ret;

	memset(res, 0, sizeof(*res));
	/* Let one flip (or vblank) settle the phase's start. */
	flips0 = ctx.flips_done;
	if (t_ns) {
		ret = flip(plane, fb_prop, fbs[1]);
		if (ret)
			return ret;
		guard = now_ns() + 2000000000ull;
		while (ctx.flips_done == flips0 && now_ns() < guard)
			pump(guard);
		if (ctx.flips_done == flips0)
			return -ETIME;
	}
	first_vbl = ctx.nvbl;
	first_flip_ns = ctx.flip_ns;
	for (i = 0; i < n; i++) {
		unsigned int before = ctx.flips_done;

		if (!t_ns) {
			unsigned int want = ctx.nvbl + 1;

			guard = now_ns() + 2000000000ull;
			while (ctx.nvbl < want && now_ns() < guard)
				pump(guard);
			continue;
		}
		deadline = ctx.flip_ns + t_ns;
		/* Events until 1 ms before, then spin to the exact time. */
		while (now_ns() + 1000000 < deadline)
			pump(deadline - 1000000);
		while (now_ns() < deadline)
			;
		flips[i].call = now_ns();
		ret = flip(plane, fb_prop, fbs[i & 1]);
		flips[i].ret = now_ns();
		if (ret)
			return ret;
		guard = now_ns() + 2000000000ull;
		while (ctx.flips_done == before && now_ns() < guard)
			pump(guard);
		if (ctx.flips_done == before)
			return -ETIME;
		flips[i].vbl = ctx.flip_ns;
	}
	/* The vblank events of the last flip's vblank. */
	guard = now_ns() + 100000000ull;
	while (ctx.nvbl && ctx.vbl[ctx.nvbl - 1].ns < ctx.flip_ns &&
	       now_ns() < guard)
		pump(guard);

	for (i = first_vbl + 1; i < ctx.nvbl; i++) {
		const struct vbl *a = &ctx.vbl[i - 1], *b = &ctx.vbl[i];

		/*
		 * An event the test asked for too late says nothing of the
		 * driver's count; between two asked in time, the sequence
		 * must step by one and the timestamp go up.
		 */
		if (a->late || b->late) {
			res->late++;
			continue;
		}
		if (b->seq != a->seq + 1)
			res->seq_gaps++;
		if (b->ns <= a->ns) {
			res->ts_bad++;
			continue;
		}
		if (b->seq == a->seq + 1)
			iv[k++] = b->ns - a->ns;
	}
	res->intervals = k;
	if (k) {
		qsort(iv, k, sizeof(iv[0]), cmp_u64);
		res->median_ms = iv[k / 2] / 1e6;
		res->min_ms = iv[0] / 1e6;
		res->max_ms = iv[k - 1] / 1e6;
	}
	if (t_ns && n) {
		res->flip_ms = (ctx.flip_ns - first_flip_ns) / 1e6 / n;
		check_flips(first_vbl, n, tmin_ns, tmax_ns, res);
	}
	return 0;
}

/*
 * Fold a further run of a phase into @res: the counts add up, the
 * interval range widens, and the first early or late flip stays first.
 */
static void merge_phase(struct phase_result *res,
			const struct phase_result *more)
{
	if (more->intervals) {
		if (!res->intervals || more->min_ms < res->min_ms)
			res->min_ms = more->min_ms;
		if (!res->intervals || more->max_ms > res->max_ms)
			res->max_ms = more->max_ms;
	}
	res->intervals += more->intervals;
	res->seq_gaps += more->seq_gaps;
	res->ts_bad += more->ts_bad;
	res->late += more->late;
	if (!res->flips_early)
		res->early_ms = more->early_ms;
	if (!res->flips_late)
		res->late_ms = more->late_ms;
	res->flips_checked += more->flips_checked;
	res->flips_early += more->flips_early;
	res->flips_late += more->flips_late;
}

static int set_vrr(const struct kms_pipe *p, int on)
{
	struct areq r;
	int ret;

	areq_init(&r, ctx.fd);
	areq_add(&r, p->crtc, DRM_MODE_OBJECT_CRTC, "VRR_ENABLED", on);
	ret = areq_commit(&r, 0, NULL);
	areq_fini(&r);
	return ret;
}

static int read_range(const struct kms_pipe *p, unsigned int *min,
		      unsigned int *max)
{
	drmModeConnector *conn = drmModeGetConnector(ctx.fd, p->conn);
	char path[256], buf[128];
	struct stat st;
	FILE *f;
	int n;

	if (!conn || fstat(ctx.fd, &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%u/%s-%u/vrr_range",
		 minor(st.st_rdev),
		 drmModeGetConnectorTypeName(conn->connector_type),
		 conn->connector_type_id);
	drmModeFreeConnector(conn);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n > 0 ? n : 0] = 0;
	return sscanf(buf, "Min: %u\nMax: %u", min, max) == 2 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct dumb_fb fb[2] = { 0 };
	struct phase_result res;
	struct kms_pipe p;
	unsigned int n = 40, vmin = 0, vmax = 0, i, run;
	uint32_t blob = 0, fb_prop, fbs[2];
	uint64_t cap = 0, tmin, tmax, frame;
	bool in_range;
	struct areq r;
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: %s [-n FLIPS]\n", argv[0]);
			return 2;
		}
		n = strtoul(optarg, NULL, 0);
	}
	if (n < 8)
		n = 8;

	ctx.fd = atomkms_open();
	if (!check(ctx.fd >= 0, "open atomkms device", "not found"))
		goto out;
	if (!check(kms_pipe_find(ctx.fd, &p) == 0,
		   "find connector, crtc and primary plane", "see stderr"))
		goto out_close;
	ctx.crtc = p.crtc;
	ctx.crtc_bits = (p.crtc_idx << DRM_VBLANK_HIGH_CRTC_SHIFT) &
			DRM_VBLANK_HIGH_CRTC_MASK;
	prop_get(ctx.fd, p.conn, DRM_MODE_OBJECT_CONNECTOR, "vrr_capable",
		 &cap);
	if (!check(cap == 1, "connector is vrr_capable", "vrr_capable 0"))
		goto out_close;
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (!check(read_range(&p, &vmin, &vmax) == 0 && vmin && vmax > vmin,
		   "debugfs vrr_range gives a range",
		   sf("%u-%u", vmin, vmax)))
		goto out_close;
	frame = (uint64_t)p.mode.htotal * p.mode.vtotal * 1000000ull /
		p.mode.clock;
	tmin = 1000000000ull / vmax;
	if (tmin < frame)
		tmin = frame;
	tmax = 1000000000ull / vmin;
	tmin_ns = tmin;
	tmax_ns = tmax;
	printf("# %ux%u@%.3f Hz, VRR range %u-%u Hz: frames %.3f-%.3f ms\n",
	       p.mode.hdisplay, p.mode.vdisplay, mode_refresh(&p.mode), vmin,
	       vmax, tmin / 1e6, tmax / 1e6);

	for (i = 0; i < 2; i++) {
		ret = dumb_fb_create(ctx.fd, p.mode.hdisplay, p.mode.vdisplay,
				     &fb[i]);
		if (!check(!ret, sf("create dumb framebuffer %u", i),
			   strerror(-ret)))
			goto out_free;
		memset(fb[i].pixels, i ? 0xff : 0x40, fb[i].size);
		fbs[i] = fb[i].fb_id;
	}
	ret = drmModeCreatePropertyBlob(ctx.fd, &p.mode, sizeof(p.mode), &blob);
	if (!check(!ret, "create mode blob", strerror(-ret)))
		goto out_free;
	fb_prop = prop_id(ctx.fd, p.plane, DRM_MODE_OBJECT_PLANE, "FB_ID");

	areq_init(&r, ctx.fd);
	areq_modeset(&r, &p, blob, &fb[0]);
	areq_add(&r, p.crtc, DRM_MODE_OBJECT_CRTC, "VRR_ENABLED", 1);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	if (!check(!ret, "modeset with VRR_ENABLED", strerror(-ret)))
		goto out_free;

	/* The window of vblank events, from the next vblank on. */
	{
		uint32_t cur = 0;

		ret = vblank_count(ctx.fd, p.crtc_idx, &cur);
		ctx.queued_to = cur;
		for (i = 0; !ret && i < WINDOW; i++)
			ret = queue_vbl(&ctx, ctx.queued_to + 1);
		if (!check(!ret, "queue vblank events", strerror(-ret)))
			goto out_off;
	}

	printf("# %-22s %10s %10s %10s %10s %10s  %s\n", "requested interval",
	       "expected", "median", "min", "max", "flip-flip", "(ms)");
	{
		static const struct {
			const char *what;
			double t_ms;	/* 0: no flips */
		} phases[] = {
			{ "above Vmax", 10.0 },
			{ "in range", 20.0 },
			{ "in range", 25.0 },
			{ "in range", 30.0 },
			{ "below Vmin", 50.0 },
			{ "no flips", 0 },
		};

		for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
			uint64_t t = (uint64_t)(phases[i].t_ms * 1e6);
			double exp_ms;

			in_range = t >= tmin && t <= tmax;
			const char *what = sf("%s, %s %.1f ms", phases[i].what,
					      t ? "flips every" : "", phases[i].t_ms);

			ret = run_phase(p.plane, fb_prop, fbs, t,
					t ? n : n / 2, &res);
			/*
			 * A flip is judged only when its ioctl returned
			 * within the frame; on a slow guest (the debug
			 * kernel on a busy host) few do at the longer
			 * intervals, so flip more until 4 are, 4 runs at
			 * most. Every run's vblanks are checked too.
			 */
			for (run = 1; !ret && t && run < 4 &&
			     res.flips_checked < 4; run++) {
				struct phase_result more;

				ret = run_phase(p.plane, fb_prop, fbs, t, n,
						&more);
				if (!ret)
					merge_phase(&res, &more);
			}
			if (!check(!ret, sf("%s: flips and events", what),
				   strerror(-ret)))
				continue;
			if (run > 1)
				printf("# %s: %u runs of %u flips to judge 4\n",
				       what, run, n);
			if (!t || t > tmax)
				exp_ms = tmax / 1e6;	/* the longest */
			else if (t < tmin)
				exp_ms = tmin / 1e6;
			else
				exp_ms = t / 1e6;
			printf("# %-8s %6.1f ms (%5.1f Hz) %10.3f %10.3f %10.3f %10.3f %10.3f\n",
			       phases[i].what, phases[i].t_ms,
			       t ? 1000.0 / phases[i].t_ms : 0.0, exp_ms,
			       res.median_ms, res.min_ms, res.max_ms,
			       res.flip_ms);
			if (res.late)
				printf("# %u vblank events asked for too late (the test stalled)\n",
				       res.late);
			check(res.intervals >= (t ? n : n / 2) / 2 &&
			      !res.seq_gaps && !res.ts_bad && !ctx.flip_bad_seq,
			      sf("%s: every vblank once, sequences consecutive", what),
			      sf("%u intervals, %u gaps, %u bad timestamps, %u flip sequences",
				 res.intervals, res.seq_gaps, res.ts_bad,
				 ctx.flip_bad_seq));
			check(res.min_ms * 1e6 >= tmin - TS_SLACK_NS &&
			      res.max_ms * 1e6 <= tmax + TS_SLACK_NS,
			      sf("%s: vblank intervals within 1/Vmax..1/Vmin", what),
			      sf("%.3f..%.3f ms", res.min_ms, res.max_ms));
			if (t) {
				printf("# %u of %u flips judged (ioctl returned within the frame)\n",
				       res.flips_checked, run * n);
				if (res.flips_late)
					printf("# %u flips published after their ioctl (first %+.3f ms)\n",
					       res.flips_late, res.late_ms);
				check(res.flips_checked >= 4 &&
				      !res.flips_early &&
				      res.flips_late * 8 <= res.flips_checked,
				      sf("%s: each flip's vblank at the flip, not before 1/Vmax", what),
				      sf("%u of %u checked flips early (first %+.3f ms), %u late (first %+.3f ms)",
					 res.flips_early, res.flips_checked,
					 res.early_ms, res.flips_late,
					 res.late_ms));
			}
			if (t && t <= tmax) {
				/*
				 * The median: at the flip, plus the commit's
				 * latency (11 us in the instruction-counted
				 * guest; under plain TCG on a busy host or the
				 * debug kernel, whatever the guest is given).
				 */
				printf("# %s: median %.3f ms, %s\n", what,
				       res.median_ms, in_range ?
				       "the requested interval plus the commit's latency" :
				       "1/Vmax");
			} else {
				/* No flip: every frame 1/Vmin; slow flips: the
				 * longest frame ends at 1/Vmin, exactly. */
				check(res.max_ms * 1e6 >= tmax - TS_SLACK_NS &&
				      res.max_ms * 1e6 <= tmax + TS_SLACK_NS &&
				      (t || res.min_ms * 1e6 >= tmax - TS_SLACK_NS),
				      sf("%s: clamped to 1/Vmin", what),
				      sf("max %.3f ms", res.max_ms));
			}
		}

		/* VRR off: the mode's period, whatever the flips do. */
		ret = set_vrr(&p, 0);
		if (check(!ret, "VRR_ENABLED off", strerror(-ret))) {
			ret = run_phase(p.plane, fb_prop, fbs, 25000000, n / 2,
					&res);
			printf("# %-8s %6.1f ms (%5.1f Hz) %10.3f %10.3f %10.3f %10.3f %10.3f\n",
			       "VRR off", 25.0, 40.0, frame / 1e6,
			       res.median_ms, res.min_ms, res.max_ms,
			       res.flip_ms);
			check(!ret && !res.seq_gaps && !res.ts_bad &&
			      res.min_ms * 1e6 >= frame - TS_SLACK_NS &&
			      res.max_ms * 1e6 <= frame + TS_SLACK_NS,
			      "VRR off: fixed period, sequences consecutive",
			      sf("%s, %.3f..%.3f ms, %u gaps", strerror(-ret),
				 res.min_ms, res.max_ms, res.seq_gaps));
		}
	}

out_off:
	areq_init(&r, ctx.fd);
	areq_disable(&r, &p);
	areq_add(&r, p.crtc, DRM_MODE_OBJECT_CRTC, "VRR_ENABLED", 0);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	check(!ret, "disable crtc", strerror(-ret));
out_free:
	if (blob)
		drmModeDestroyPropertyBlob(ctx.fd, blob);
	for (i = 0; i < 2; i++)
		dumb_fb_destroy(ctx.fd, &fb[i]);
out_close:
	close(ctx.fd);
out:
	return tap_done("test-vrr");
}
