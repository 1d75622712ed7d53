// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-multi-crtc - every pipe of atomkms at once, each at its own rate.
 *
 * Pairs every connected connector with a distinct CRTC its encoder allows,
 * modesets all of them with their preferred modes in one atomic commit,
 * then runs nonblocking page flips with events on all CRTCs concurrently
 * from one poll loop, each CRTC flipping again as soon as its own event
 * arrives. Per CRTC: events arrive and name that CRTC, the sequence steps
 * by 1 (at most 10% skips), timestamps increase, the refresh measured from
 * the event timestamps and from CLOCK_MONOTONIC arrival times are within
 * 0.5% of the mode's nominal rate, and the flip count matches the CRTC's
 * own rate within 10% (CRTCs do not lock to the slowest one). With two or
 * more CRTCs, one is switched off halfway; it must stop sending events
 * while the others keep flipping at their rates. Everything is switched
 * off at the end. The flip loop runs SCHED_FIFO when allowed, and prints
 * per CRTC where the time went (event wake-up latency, flip ioctl time,
 * how late a flip that missed its vblank was sent) to tell a slow driver
 * from a slow guest.
 *
 * Usage: test-multi-crtc [-t SECONDS]   (default 5)
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "drmutil.h"
#include "tap.h"

#define MAX_PIPES		32
#define EVENT_TIMEOUT_MS	1000
/*
 * Skipped vblanks and flips per second against the nominal rate. These
 * two measure the client as much as the driver: a flip sent after the
 * vblank it aimed at (the guest's vCPU not run by the host for a frame,
 * under TCG) skips one. On a quiet 2-core CI machine such stalls cost up
 * to 3.5% of a 5 s run's vblanks and 7% of the 2.5 s after the victim
 * goes off (6/295, 12/363, 12/175). What these checks are for is a pipe
 * that waits for another: one locked to a slower neighbour loses 20%
 * (75 Hz behind 60 Hz) to 50% of its flips, so 10% tells the two apart.
 * The driver's own timing is held to 0.5% by MAX_REFRESH_ERROR, from
 * timestamps and from arrival times.
 *
 * Under the debug kernel (KASAN, lockdep: several times slower), the
 * client misses frames of a 120 Hz CRTC beside two others by design,
 * a flip sent up to two frames after its vblank: there, as in
 * test/igt/debug.list, no client deadline is judged. A skip counts
 * only when its flip had returned within the first half of the frame it
 * aimed at (the driver's skip: a pipe waiting for a slower neighbour
 * skips so, in time), and the flip rate is printed, not judged.
 */
#define MAX_SKIP_PERCENT	10
#define MAX_FLIPRATE_ERROR	0.10
#define MAX_REFRESH_ERROR	0.005

struct window {
	struct flip_stats st;
	double recv_first, recv_last;	/* CLOCK_MONOTONIC at reception */
};

struct pipe_ctx {
	struct kms_pipe p;
	struct dumb_fb fb[2];
	uint32_t blob, fb_prop;
	int cur;			/* fb index being scanned out */

	struct window all;		/* the whole run */
	struct window after;		/* after the victim was disabled */
	bool track_after;

	unsigned int flips;		/* commits that returned 0 */
	int flip_err;			/* first failed flip, -errno */
	unsigned int flip_err_at;
	unsigned int wrong_crtc;
	unsigned int late_events;	/* events after being disabled */

	/* Where the time goes, to tell a slow driver from a slow guest. */
	double last_ts;			/* last event's timestamp, s */
	double wake_max, wake_sum;	/* event arrival - its timestamp */
	double ioctl_max, ioctl_sum;	/* flip commit duration */
	double sub_max;			/* flip submitted - last timestamp */
	double sub_last, sub_end;	/* last flip ioctl start, return */
	double jump_end_min;		/* earliest return before a skip */
	double jump_sub_max;		/* same, before a flip that jumped */
	/* Skips after a flip returned in the first half of the frame. */
	unsigned int early_jumps, early_jumps_after;
	unsigned int nwake, nioctl;
	bool pending, running, stopping, disabled;
};


static const char *err_name(int err)
{
	return err ? strerror(-err) : "success";
}

static void window_add(struct window *w, unsigned int seq,
		       unsigned int tv_sec, unsigned int tv_usec, double now)
{
	flip_stats_add(&w->st, seq, tv_sec, tv_usec);
	w->recv_last = now;
	if (w->st.events == 1)
		w->recv_first = now;
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	struct pipe_ctx *c = data;
	double now = mono_now();

	(void)fd;
	if (crtc_id != c->p.crtc)
		c->wrong_crtc++;
	if (c->disabled) {
		c->late_events++;
		return;
	}
	if (!c->pending)
		c->late_events++;
	c->pending = false;
	{
		double ts = tv_sec + tv_usec / 1e6, wake = now - ts;

		if (c->all.st.events &&
		    (int32_t)(seq - c->all.st.seq_last) > 1 &&
		    c->sub_last - c->last_ts > c->jump_sub_max)
			c->jump_sub_max = c->sub_last - c->last_ts;
		if (c->all.st.events &&
		    (int32_t)(seq - c->all.st.seq_last) > 1 &&
		    (!c->jump_end_min ||
		     c->sub_end - c->last_ts < c->jump_end_min))
			c->jump_end_min = c->sub_end - c->last_ts;
		if (c->all.st.events &&
		    (int32_t)(seq - c->all.st.seq_last) > 1 &&
		    c->sub_end - c->last_ts < 0.5 / mode_refresh(&c->p.mode)) {
			c->early_jumps++;
			if (c->track_after && c->after.st.events)
				c->early_jumps_after++;
		}
		if (wake > c->wake_max)
			c->wake_max = wake;
		c->wake_sum += wake;
		c->nwake++;
		c->last_ts = ts;
	}
	window_add(&c->all, seq, tv_sec, tv_usec, now);
	if (c->track_after)
		window_add(&c->after, seq, tv_sec, tv_usec, now);
}

static drmEventContext evctx = {
	.version = DRM_EVENT_CONTEXT_VERSION,
	.page_flip_handler2 = flip_handler,
};

static int flip(int fd, struct pipe_ctx *c)
{
	struct areq r;
	double t0, t1;
	int ret;

	areq_init(&r, fd);
	areq_add_id(&r, c->p.plane, c->fb_prop, c->fb[c->cur ^ 1].fb_id);
	t0 = mono_now();
	ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
			  DRM_MODE_PAGE_FLIP_EVENT, c);
	t1 = mono_now();
	areq_fini(&r);
	if (c->nwake) {
		c->sub_last = t0;
		c->sub_end = t1;
		if (t0 - c->last_ts > c->sub_max)
			c->sub_max = t0 - c->last_ts;
	}
	if (t1 - t0 > c->ioctl_max)
		c->ioctl_max = t1 - t0;
	c->ioctl_sum += t1 - t0;
	c->nioctl++;
	if (!ret) {
		c->cur ^= 1;
		c->pending = true;
		c->flips++;
	}
	return ret;
}

static int disable_pipe(int fd, const struct pipe_ctx *c)
{
	struct areq r;
	int ret;

	areq_init(&r, fd);
	areq_disable(&r, &c->p);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return ret;
}

/* Fraction by which @measured misses @nominal. */
static double rel_err(double measured, double nominal)
{
	return nominal > 0 ? measured / nominal - 1.0 : 1.0;
}

/* The debug kernel (qemu/build-debug-kernel.sh names its release so). */
static bool debug_kernel(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.release, "atomkms-debug");
}

static bool within(double err, double max)
{
	return err <= max && err >= -max;
}

/* Vblanks per second between the first and last event's arrival. */
static double arrival_refresh(const struct window *w)
{
	if (w->st.events < 2 || w->recv_last <= w->recv_first)
		return 0;
	return (int32_t)(w->st.seq_last - w->st.seq_first) /
	       (w->recv_last - w->recv_first);
}

/* Flips completed per second between the first and the last one. */
static double flip_rate(const struct window *w)
{
	if (w->st.events < 2 || w->recv_last <= w->recv_first)
		return 0;
	return (w->st.events - 1) / (w->recv_last - w->recv_first);
}

static int setup(int fd, struct pipe_ctx *pc, int n)
{
	struct areq r;
	int i, k, ret;

	for (i = 0; i < n; i++) {
		struct pipe_ctx *c = &pc[i];

		printf("# pipe %d: connector %u crtc %u plane %u, %ux%u clock %u htotal %u vtotal %u (%.4f Hz)\n",
		       i, c->p.conn, c->p.crtc, c->p.plane,
		       c->p.mode.hdisplay, c->p.mode.vdisplay,
		       c->p.mode.clock, c->p.mode.htotal, c->p.mode.vtotal,
		       mode_refresh(&c->p.mode));
		for (k = 0; k < 2; k++) {
			ret = dumb_fb_create(fd, c->p.mode.hdisplay,
					     c->p.mode.vdisplay, &c->fb[k]);
			if (!check(!ret, sf("crtc %u: create dumb framebuffer %d",
					    c->p.crtc, k), err_name(ret)))
				return -1;
			memset(c->fb[k].pixels, k ? 0x20 * (i + 1) : 0xc0,
			       c->fb[k].size);
		}
		ret = drmModeCreatePropertyBlob(fd, &c->p.mode,
						sizeof(c->p.mode), &c->blob);
		if (!check(!ret, sf("crtc %u: create mode blob", c->p.crtc),
			   err_name(ret)))
			return -1;
		c->fb_prop = prop_id(fd, c->p.plane, DRM_MODE_OBJECT_PLANE,
				     "FB_ID");
		if (!check(c->fb_prop, sf("plane %u has FB_ID", c->p.plane),
			   "missing"))
			return -1;
	}

	areq_init(&r, fd);
	for (i = 0; i < n; i++)
		areq_modeset(&r, &pc[i].p, pc[i].blob, &pc[i].fb[0]);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	if (!check(!ret, sf("one atomic modeset of all %d pipes", n),
		   err_name(ret)))
		return -1;

	for (i = 0; i < n; i++) {
		struct pipe_ctx *c = &pc[i];
		drmModeCrtc *crtc = drmModeGetCrtc(fd, c->p.crtc);
		uint64_t active = 0;

		prop_get(fd, c->p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE",
			 &active);
		check(crtc && active == 1 && crtc->mode_valid &&
		      crtc->buffer_id == c->fb[0].fb_id &&
		      crtc->mode.clock == c->p.mode.clock &&
		      crtc->mode.hdisplay == c->p.mode.hdisplay &&
		      crtc->mode.vdisplay == c->p.mode.vdisplay &&
		      crtc->mode.htotal == c->p.mode.htotal &&
		      crtc->mode.vtotal == c->p.mode.vtotal,
		      sf("crtc %u is active with its mode and fb", c->p.crtc),
		      crtc ? sf("ACTIVE %llu, mode_valid %d %ux%u clock %u, fb %u",
				(unsigned long long)active, crtc->mode_valid,
				crtc->mode.hdisplay, crtc->mode.vdisplay,
				crtc->mode.clock, crtc->buffer_id) :
		      strerror(errno));
		drmModeFreeCrtc(crtc);
	}
	return 0;
}

/*
 * The flip loop. Every running pipe flips again as soon as its event is
 * in; at @t_disable the victim stops flipping and, once its last flip has
 * landed, is switched off with a blocking modeset while the others go on.
 */
static void run(int fd, struct pipe_ctx *pc, int n, double seconds,
		struct pipe_ctx *victim)
{
	double t0, t_end, t_disable, dis_start = 0, dis_end = 0;
	const char *stall = NULL;
	int i, ret, dis_ret = 1;

	t0 = mono_now();
	t_end = t0 + seconds;
	t_disable = t0 + seconds / 2;

	for (i = 0; i < n; i++) {
		pc[i].running = true;
		ret = flip(fd, &pc[i]);
		if (ret) {
			pc[i].flip_err = ret;
			pc[i].running = false;
		}
	}

	for (;;) {
		bool busy = false;
		double now = mono_now();

		if (victim && !victim->stopping && !victim->disabled &&
		    now >= t_disable)
			victim->stopping = true;

		for (i = 0; i < n; i++) {
			struct pipe_ctx *c = &pc[i];

			if (c->pending || !c->running)
				continue;
			if (c == victim && c->stopping) {
				int j;

				c->running = false;
				dis_start = mono_now();
				dis_ret = disable_pipe(fd, c);
				dis_end = mono_now();
				c->disabled = true;
				for (j = 0; j < n; j++) {
					if (&pc[j] != victim && pc[j].running)
						pc[j].track_after = true;
				}
				continue;
			}
			if (now >= t_end) {
				c->running = false;
				continue;
			}
			ret = flip(fd, c);
			if (ret) {
				c->flip_err = ret;
				c->flip_err_at = c->flips;
				c->running = false;
			}
		}

		for (i = 0; i < n; i++)
			busy |= pc[i].pending;
		if (!busy)
			break;

		ret = wait_event(fd, &evctx, EVENT_TIMEOUT_MS);
		if (ret == 0) {
			stall = "no event within 1 s";
			break;
		}
		if (ret < 0 && ret != -EINTR) {
			stall = sf("waiting for events: %s", strerror(-ret));
			break;
		}
	}
	/* Catch events that should not come, e.g. from the disabled pipe. */
	while (wait_event(fd, &evctx, 100) > 0)
		;

	check(!stall, "event loop finished", stall ? stall : "");
	if (victim) {
		uint64_t active = ~0ull;

		prop_get(fd, victim->p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE",
			 &active);
		printf("# crtc %u disabled after %.2f s, the commit took %.1f ms\n",
		       victim->p.crtc, dis_start - t0,
		       (dis_end - dis_start) * 1e3);
		check(dis_ret == 0 && active == 0,
		      sf("disable crtc %u while the others flip",
			 victim->p.crtc),
		      sf("commit %s, ACTIVE %llu", dis_ret > 0 ?
			 "never made" : err_name(dis_ret),
			 (unsigned long long)active));
	}
}

static void check_pipe(struct pipe_ctx *c, const struct pipe_ctx *victim)
{
	const struct flip_stats *st = &c->all.st;
	double nominal = mode_refresh(&c->p.mode);
	double ts = flip_stats_refresh(st);
	double arr = arrival_refresh(&c->all);
	double rate = flip_rate(&c->all);
	double span = c->all.recv_last - c->all.recv_first;
	unsigned int crtc = c->p.crtc;
	bool debug = debug_kernel();

	printf("# crtc %u: nominal %.4f Hz, measured %.4f Hz (ts), %.4f Hz (arrival)\n",
	       crtc, nominal, ts, arr);
	printf("# crtc %u: %u flips, %u events in %.3f s = %.4f flips/s; sequence %u..%u, %u jumps skipping %u vblanks\n",
	       crtc, c->flips, st->events, span, rate, st->seq_first,
	       st->seq_last, st->jumps, st->missed);

	printf("# crtc %u: frame %.2f ms; event wake-up latency mean %.2f max %.2f ms; flip ioctl mean %.2f max %.2f ms; flip sent at most %.2f ms after the vblank",
	       crtc, nominal > 0 ? 1e3 / nominal : 0,
	       c->nwake ? c->wake_sum / c->nwake * 1e3 : 0,
	       c->wake_max * 1e3,
	       c->nioctl ? c->ioctl_sum / c->nioctl * 1e3 : 0,
	       c->ioctl_max * 1e3, c->sub_max * 1e3);
	if (st->jumps)
		printf("; before a skip: sent at most %.2f ms, returned at least %.2f ms after the vblank",
		       c->jump_sub_max * 1e3, c->jump_end_min * 1e3);
	printf("\n");
	check(!c->flip_err, sf("crtc %u: nonblocking flip commits return 0",
			       crtc),
	      sf("flip %u: %s", c->flip_err_at, err_name(c->flip_err)));
	check(st->events >= 2 && st->events == c->flips && !c->late_events,
	      sf("crtc %u: one event per flip", crtc),
	      sf("%u events for %u flips, %u unexpected", st->events,
		 c->flips, c->late_events));
	check(!c->wrong_crtc, sf("crtc %u: events name their crtc", crtc),
	      sf("%u events name another crtc", c->wrong_crtc));
	check(st->events >= 2 && !st->backwards &&
	      (debug ? c->early_jumps : st->jumps) * 100 <=
			MAX_SKIP_PERCENT * st->events,
	      sf("crtc %u: event sequence increases by 1 per flip%s", crtc,
		 debug ? " (debug kernel: skips after a flip in time)" : ""),
	      st->backwards ? sf("went backwards %u times", st->backwards) :
	      sf("%u of %u events skipped vblanks, %u after a flip in time",
		 st->jumps, st->events, c->early_jumps));
	check(st->events >= 2 && !st->ts_bad,
	      sf("crtc %u: event timestamps strictly increase", crtc),
	      sf("%u non-increasing timestamps in %u events", st->ts_bad,
		 st->events));
	check(within(rel_err(ts, nominal), MAX_REFRESH_ERROR),
	      sf("crtc %u: refresh from timestamps within 0.5%% of nominal",
		 crtc),
	      sf("%.4f Hz vs %.4f Hz (%+.3f%%)", ts, nominal,
		 rel_err(ts, nominal) * 100));
	check(within(rel_err(arr, nominal), MAX_REFRESH_ERROR),
	      sf("crtc %u: refresh from arrival times within 0.5%% of nominal",
		 crtc),
	      sf("%.4f Hz vs %.4f Hz (%+.3f%%)", arr, nominal,
		 rel_err(arr, nominal) * 100));
	if (debug)
		printf("# crtc %u: %.4f flips/s vs %.4f Hz (%+.3f%%): the debug guest's speed, not judged\n",
		       crtc, rate, nominal, rel_err(rate, nominal) * 100);
	else
		check(within(rel_err(rate, nominal), MAX_FLIPRATE_ERROR),
		      sf("crtc %u: flips per second within 10%% of its own refresh",
			 crtc),
		      sf("%.4f flips/s vs %.4f Hz (%+.3f%%)", rate, nominal,
			 rel_err(rate, nominal) * 100));

	if (victim && c != victim) {
		const struct flip_stats *as = &c->after.st;
		double ats = flip_stats_refresh(as);
		double arate = flip_rate(&c->after);

		printf("# crtc %u after crtc %u went off: %u events in %.3f s, %.4f Hz (ts), %.4f flips/s, %u jumps\n",
		       crtc, victim->p.crtc, as->events,
		       c->after.recv_last - c->after.recv_first, ats, arate,
		       as->jumps);
		check(as->events >= 2 &&
		      (debug ? c->early_jumps_after : as->jumps) * 100 <=
				MAX_SKIP_PERCENT * as->events &&
		      within(rel_err(ats, nominal), MAX_REFRESH_ERROR) &&
		      (debug || within(rel_err(arate, nominal),
				       MAX_FLIPRATE_ERROR)),
		      sf("crtc %u keeps flipping at its rate after crtc %u is disabled",
			 crtc, victim->p.crtc),
		      sf("%u events, %u jumps, %.4f Hz (ts), %.4f flips/s vs %.4f Hz",
			 as->events, as->jumps, ats, arate, nominal));
	}
}

/* The disabled pipe refuses flips: its plane has no CRTC any more. */
static void check_victim_flip(int fd, struct pipe_ctx *victim)
{
	struct areq r;
	int ret;

	areq_init(&r, fd);
	areq_add_id(&r, victim->p.plane, victim->fb_prop,
		    victim->fb[0].fb_id);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
			  DRM_MODE_PAGE_FLIP_EVENT, victim);
	areq_fini(&r);
	check(ret == -EINVAL,
	      sf("flip on disabled crtc %u fails -EINVAL", victim->p.crtc),
	      err_name(ret));
	while (wait_event(fd, &evctx, 50) > 0)
		;
}

int main(int argc, char **argv)
{
	struct pipe_ctx *pc = NULL, *victim = NULL;
	struct kms_pipe pipes[MAX_PIPES];
	double seconds = 5.0;
	int opt, fd, n = 0, i, k, ret;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't') {
			fprintf(stderr, "usage: %s [-t SECONDS]\n", argv[0]);
			return 2;
		}
		seconds = strtod(optarg, NULL);
	}
	if (seconds < 1)
		seconds = 1;

	fd = atomkms_open();
	if (!check(fd >= 0, "open atomkms device", "not found"))
		goto out;

	n = kms_pipes_find(fd, pipes, MAX_PIPES);
	if (!check(n >= 1, "find connector/crtc pairs", "see stderr"))
		goto out_close;
	{
		drmModeRes *res = drmModeGetResources(fd);
		int conns = 0;

		for (i = 0; res && i < res->count_connectors; i++) {
			drmModeConnector *c =
				drmModeGetConnector(fd, res->connectors[i]);

			conns += c && c->connection == DRM_MODE_CONNECTED &&
				 c->count_modes > 0;
			drmModeFreeConnector(c);
		}
		printf("# %d crtcs, %d connected connectors, %d pipes\n",
		       res ? res->count_crtcs : -1, conns, n);
		check(n == conns, "every connected connector gets its own crtc",
		      sf("%d pipes for %d connectors", n, conns));
		drmModeFreeResources(res);
	}

	pc = calloc(n, sizeof(*pc));
	if (!pc)
		goto out_close;
	for (i = 0; i < n; i++)
		pc[i].p = pipes[i];

	ret = kms_reset_all(fd);
	check(!ret, "start with everything off and default properties",
	      err_name(ret));
	if (setup(fd, pc, n))
		goto out_free;

	if (n >= 2)
		victim = &pc[n - 1];
	{
		/*
		 * The flip loop measures the driver, not the guest's
		 * scheduler: run it ahead of everything else if allowed.
		 */
		struct sched_param sp = { .sched_priority = 10 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			printf("# no SCHED_FIFO (%s): timings include scheduling latency\n",
			       strerror(errno));
	}
	run(fd, pc, n, seconds, victim);
	{
		struct sched_param sp = { .sched_priority = 0 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
	}
	for (i = 0; i < n; i++)
		check_pipe(&pc[i], victim);
	if (victim)
		check_victim_flip(fd, victim);

out_free:
	ret = kms_disable_all(fd);
	check(!ret, "switch every crtc off", err_name(ret));
	for (i = 0; pc && i < n; i++) {
		drmModeCrtc *crtc = drmModeGetCrtc(fd, pc[i].p.crtc);
		uint64_t active = ~0ull;

		prop_get(fd, pc[i].p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE",
			 &active);
		check(crtc && !crtc->mode_valid && active == 0,
		      sf("crtc %u is off at exit", pc[i].p.crtc),
		      sf("ACTIVE %llu, mode_valid %d",
			 (unsigned long long)active,
			 crtc ? crtc->mode_valid : -1));
		drmModeFreeCrtc(crtc);
		if (pc[i].blob)
			drmModeDestroyPropertyBlob(fd, pc[i].blob);
		for (k = 0; k < 2; k++)
			dumb_fb_destroy(fd, &pc[i].fb[k]);
	}
	free(pc);
out_close:
	close(fd);
out:
	return tap_done("test-multi-crtc");
}
