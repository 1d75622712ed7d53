// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-flip-events - page-flip and vblank event timing of atomkms.
 *
 * Modesets the first connected output, then runs nonblocking atomic flips
 * with DRM_MODE_PAGE_FLIP_EVENT and checks: every commit succeeds, exactly
 * one event per flip, vblank sequence +1 per flip (few skips allowed),
 * timestamps strictly increasing, refresh within 0.5% of the mode's nominal
 * rate, -EBUSY for a flip queued behind a pending one, and that a
 * drmWaitVBlank event for "current + 1" arrives with that sequence.
 *
 * Usage: test-flip-events [-n FLIPS]   (default 300)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drmutil.h"
#include "tap.h"

#define EVENT_TIMEOUT_MS	1000
#define MAX_SKIP_PERCENT	2
#define MAX_REFRESH_ERROR	0.005

struct flip_ctx {
	struct flip_stats st;
	uint32_t crtc;
	unsigned int wrong_crtc;
	unsigned int vbl_events;
	unsigned int vbl_seq;
	double recv_first, recv_last;	/* CLOCK_MONOTONIC at reception */
};


static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	struct flip_ctx *c = data;
	unsigned int prev = c->st.seq_last;
	int step;

	(void)fd;
	if (crtc_id != c->crtc)
		c->wrong_crtc++;
	step = flip_stats_add(&c->st, seq, tv_sec, tv_usec);
	c->recv_last = mono_now();
	if (c->st.events == 1)
		c->recv_first = c->recv_last;
	if (c->st.events > 1 && step != 1)
		printf("# event %u: sequence %u -> %u\n", c->st.events, prev,
		       seq);
}

static void vblank_handler(int fd, unsigned int seq, unsigned int tv_sec,
			   unsigned int tv_usec, void *data)
{
	struct flip_ctx *c = data;

	(void)fd;
	(void)tv_sec;
	(void)tv_usec;
	c->vbl_events++;
	c->vbl_seq = seq;
}

static drmEventContext evctx = {
	.version = DRM_EVENT_CONTEXT_VERSION,
	.vblank_handler = vblank_handler,
	.page_flip_handler2 = flip_handler,
};

static int flip(int fd, uint32_t plane, uint32_t fb_prop, uint32_t fb_id,
		struct flip_ctx *c)
{
	struct areq r;
	int ret;

	areq_init(&r, fd);
	areq_add_id(&r, plane, fb_prop, fb_id);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
			  DRM_MODE_PAGE_FLIP_EVENT, c);
	areq_fini(&r);
	return ret;
}

/* Wait until *count reaches @want; 0, or -ETIME if an event is late. */
static int wait_count(int fd, const unsigned int *count, unsigned int want)
{
	while (*count < want) {
		int ret = wait_event(fd, &evctx, EVENT_TIMEOUT_MS);

		if (ret == 0)
			return -ETIME;
		if (ret < 0 && ret != -EINTR)
			return ret;
	}
	return 0;
}

/* Read any events that arrive within @ms, to catch unexpected extras. */
static void drain(int fd, int ms)
{
	while (wait_event(fd, &evctx, ms) > 0)
		;
}

static void test_flips(int fd, const struct kms_pipe *p, uint32_t fb_prop,
		       const struct dumb_fb *fb, unsigned int n,
		       struct flip_ctx *c)
{
	const char *cerr = "", *everr = "";
	double nominal, measured, err;
	unsigned int i, done = 0;
	int ret;

	for (i = 0; i < n; i++) {
		ret = flip(fd, p->plane, fb_prop, fb[(i + 1) & 1].fb_id, c);
		if (ret) {
			cerr = sf("flip %u: %s", i, strerror(-ret));
			break;
		}
		done++;
		ret = wait_count(fd, &c->st.events, done);
		if (ret) {
			everr = sf("flip %u: %s", i, ret == -ETIME ?
				   "no event within 1 s" : strerror(-ret));
			break;
		}
	}
	drain(fd, 100);

	check(done == n, sf("%u nonblocking flip commits return 0", n), cerr);
	if (!*everr && c->st.events != done)
		everr = sf("%u events for %u flips", c->st.events, done);
	if (!*everr && c->wrong_crtc)
		everr = sf("%u events name another crtc", c->wrong_crtc);
	check(!*everr, "exactly one event per flip", everr);

	printf("# sequence %u..%u, %u jumps skipping %u vblanks\n",
	       c->st.seq_first, c->st.seq_last, c->st.jumps, c->st.missed);
	check(c->st.events >= 2 && !c->st.backwards &&
	      c->st.jumps * 100 <= MAX_SKIP_PERCENT * n,
	      "event sequence increases by 1 per flip",
	      c->st.backwards ?
	      sf("went backwards %u times", c->st.backwards) :
	      sf("%u of %u flips skipped vblanks (%u events)", c->st.jumps,
		 n, c->st.events));
	check(c->st.events >= 2 && !c->st.ts_bad,
	      "event timestamps strictly increase",
	      sf("%u non-increasing timestamps in %u events", c->st.ts_bad,
		 c->st.events));

	nominal = mode_refresh(&p->mode);
	measured = flip_stats_refresh(&c->st);
	err = nominal ? measured / nominal - 1.0 : 1.0;
	printf("# refresh measured %.4f Hz, nominal %.4f Hz, error %+.4f%%\n",
	       measured, nominal, err * 100.0);
	check(err <= MAX_REFRESH_ERROR && err >= -MAX_REFRESH_ERROR,
	      "measured refresh within 0.5% of nominal",
	      sf("%.4f Hz vs %.4f Hz (%+.3f%%)", measured, nominal,
		 err * 100.0));

	/*
	 * The event timestamps come from the driver's own timer, so also
	 * time the events as they arrive: the timer must really run at the
	 * mode's rate, not just claim to.
	 */
	measured = 0;
	if (c->st.events >= 2 && c->recv_last > c->recv_first)
		measured = (c->st.seq_last - c->st.seq_first) /
			   (c->recv_last - c->recv_first);
	err = nominal ? measured / nominal - 1.0 : 1.0;
	printf("# refresh by arrival time %.4f Hz, error %+.4f%%\n",
	       measured, err * 100.0);
	check(err <= MAX_REFRESH_ERROR && err >= -MAX_REFRESH_ERROR,
	      "events arrive at the nominal rate within 0.5%",
	      sf("%.4f Hz vs %.4f Hz (%+.3f%%)", measured, nominal,
		 err * 100.0));
}

static uint32_t vbl_crtc_bits(int idx)
{
	if (idx == 0)
		return 0;
	if (idx == 1)
		return DRM_VBLANK_SECONDARY;
	return (idx << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK;
}

/* CRTC @idx's vblank counter now; 0 if it cannot be read. */
static unsigned int vbl_now(int fd, int idx)
{
	drmVBlank vbl;

	memset(&vbl, 0, sizeof(vbl));
	vbl.request.type = DRM_VBLANK_RELATIVE | vbl_crtc_bits(idx);
	vbl.request.sequence = 0;
	return drmWaitVBlank(fd, &vbl) ? 0 : vbl.reply.sequence;
}

static void test_ebusy(int fd, const struct kms_pipe *p, uint32_t fb_prop,
		       const struct dumb_fb *fb, struct flip_ctx *c)
{
	unsigned int want, seq0, seq1;
	int first, second, ret, attempt;

	/*
	 * Two flips in one frame: the second finds the first pending. A
	 * guest descheduled between them (TCG, a debug kernel) can let a
	 * vblank complete the first; the vblank counter tells, and only
	 * then is the pair tried again.
	 */
	for (attempt = 0; attempt < 5; attempt++) {
		/* Start right after a vblank so the first flip stays pending. */
		want = c->st.events + 1;
		ret = flip(fd, p->plane, fb_prop, fb[1].fb_id, c);
		if (!ret)
			ret = wait_count(fd, &c->st.events, want);
		if (ret) {
			check(false, "flip while a flip is pending returns -EBUSY",
			      sf("sync flip: %s", strerror(-ret)));
			return;
		}

		seq0 = vbl_now(fd, p->crtc_idx);
		first = flip(fd, p->plane, fb_prop, fb[0].fb_id, c);
		second = flip(fd, p->plane, fb_prop, fb[1].fb_id, c);
		seq1 = vbl_now(fd, p->crtc_idx);
		want = c->st.events + !first + !second;
		ret = wait_count(fd, &c->st.events, want);
		drain(fd, 50);
		if (second != 0 || !seq0 || seq1 == seq0)
			break;
		printf("# attempt %d: a vblank (%u to %u) came between the two flips\n",
		       attempt + 1, seq0, seq1);
	}

	check(first == 0 && second == -EBUSY && !ret,
	      "flip while a flip is pending returns -EBUSY",
	      sf("first %s, second %s, events %s, %d attempt(s)",
		 strerror(-first), strerror(-second),
		 ret ? "missing" : "ok", attempt + (attempt < 5)));
}

static void test_wait_vblank(int fd, const struct kms_pipe *p,
			     struct flip_ctx *c)
{
	const char *what =
		"drmWaitVBlank relative 1 event has sequence current+1";
	uint32_t bits = vbl_crtc_bits(p->crtc_idx);
	unsigned int cur = 0, target = 0;
	drmVBlank vbl;
	int attempt, ret = 0;

	/*
	 * A vblank may slip in between reading the counter and queueing the
	 * event; the kernel's reply tells, so retry a couple of times then.
	 */
	for (attempt = 0; attempt < 3; attempt++) {
		memset(&vbl, 0, sizeof(vbl));
		vbl.request.type = DRM_VBLANK_RELATIVE | bits;
		vbl.request.sequence = 0;
		if (drmWaitVBlank(fd, &vbl)) {
			check(false, what, sf("query: %s", strerror(errno)));
			return;
		}
		cur = vbl.reply.sequence;

		memset(&vbl, 0, sizeof(vbl));
		vbl.request.type = DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT |
				   bits;
		vbl.request.sequence = 1;
		vbl.request.signal = (unsigned long)c;
		if (drmWaitVBlank(fd, &vbl)) {
			check(false, what, sf("queue: %s", strerror(errno)));
			return;
		}
		target = vbl.reply.sequence;

		c->vbl_events = 0;
		ret = wait_count(fd, &c->vbl_events, 1);
		if (ret || target == cur + 1)
			break;
		printf("# vblank raced the query (%u, %u), retrying\n", cur,
		       target);
	}

	if (ret)
		check(false, what, ret == -ETIME ? "no event within 1 s" :
		      strerror(-ret));
	else
		check(c->vbl_seq == cur + 1 && target == cur + 1, what,
		      sf("current %u, queued for %u, event %u", cur, target,
			 c->vbl_seq));
}

static int modeset(int fd, const struct kms_pipe *p, uint32_t blob,
		   const struct dumb_fb *fb, bool on)
{
	struct areq r;
	int ret;

	areq_init(&r, fd);
	if (on)
		areq_modeset(&r, p, blob, fb);
	else
		areq_disable(&r, p);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return ret;
}

int main(int argc, char **argv)
{
	struct dumb_fb fb[2] = { 0 };
	struct flip_ctx c = { 0 };
	struct kms_pipe p;
	unsigned int n = 300;
	uint32_t blob = 0, fb_prop;
	int opt, fd, ret, i;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: %s [-n FLIPS]\n", argv[0]);
			return 2;
		}
		n = strtoul(optarg, NULL, 0);
	}
	if (n < 2)
		n = 2;

	fd = atomkms_open();
	if (!check(fd >= 0, "open atomkms device", "not found"))
		goto out;
	if (!check(kms_pipe_find(fd, &p) == 0,
		   "find connector, crtc and primary plane", "see stderr"))
		goto out_close;
	c.crtc = p.crtc;
	printf("# connector %u crtc %u plane %u, %ux%u clock %u htotal %u vtotal %u\n",
	       p.conn, p.crtc, p.plane, p.mode.hdisplay, p.mode.vdisplay,
	       p.mode.clock, p.mode.htotal, p.mode.vtotal);

	for (i = 0; i < 2; i++) {
		ret = dumb_fb_create(fd, p.mode.hdisplay, p.mode.vdisplay,
				     &fb[i]);
		if (!check(!ret, sf("create dumb framebuffer %d", i),
			   strerror(-ret)))
			goto out_free;
		memset(fb[i].pixels, i ? 0xff : 0x40, fb[i].size);
	}
	ret = drmModeCreatePropertyBlob(fd, &p.mode, sizeof(p.mode), &blob);
	if (!check(!ret, "create mode blob", strerror(-ret)))
		goto out_free;
	fb_prop = prop_id(fd, p.plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	if (!check(fb_prop, "primary plane has FB_ID", "missing"))
		goto out_free;

	ret = modeset(fd, &p, blob, &fb[0], true);
	if (!check(!ret, "atomic modeset", strerror(-ret)))
		goto out_free;

	test_flips(fd, &p, fb_prop, fb, n, &c);
	/* Fresh statistics: the pause above is not a missed vblank. */
	memset(&c.st, 0, sizeof(c.st));
	test_ebusy(fd, &p, fb_prop, fb, &c);
	test_wait_vblank(fd, &p, &c);

	ret = modeset(fd, &p, 0, NULL, false);
	check(!ret, "disable crtc", strerror(-ret));

out_free:
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	for (i = 0; i < 2; i++)
		dumb_fb_destroy(fd, &fb[i]);
out_close:
	close(fd);
out:
	return tap_done("test-flip-events");
}
