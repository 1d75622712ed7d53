// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clients (one fd each, with their objects in slots), their events and
 * out-fences: each requested event must come exactly once, each out-fence
 * must signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

#define SW_SYNC "/sys/kernel/debug/sync/sw_sync"

int client_open(struct fuzz *f, struct client *c, int idx)
{
	int i;

	memset(c->fbs, 0, sizeof(c->fbs));
	memset(c->blobs, 0, sizeof(c->blobs));
	memset(c->dumbs, 0, sizeof(c->dumbs));
	for (i = 0; i < FENCE_SLOTS; i++)
		c->out_fences[i] = -1;
	c->idx = idx;
	c->serial = 0;
	c->npend = 0;
	memset(c->ring_tag, 0, sizeof(c->ring_tag));
	c->lease_fd = -1;
	c->lessee_id = 0;
	c->crc_fd = -1;
	c->timeline = -1;
	c->tl_value = 0;
	c->fd = open(f->topo.card, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	if (drmSetClientCap(c->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(c->fd, DRM_CLIENT_CAP_ATOMIC, 1) ||
	    drmSetClientCap(c->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		return -errno;
	if (f->have_sw_sync)
		c->timeline = open(SW_SYNC, O_RDWR | O_CLOEXEC);
	if (drmIsMaster(c->fd))
		f->master = idx;
	return 0;
}

void res_free_all(struct client *c)
{
	int i;

	for (i = 0; i < FB_SLOTS; i++)
		if (c->fbs[i].map)
			munmap(c->fbs[i].map, c->fbs[i].size);
	memset(c->fbs, 0, sizeof(c->fbs));
	memset(c->blobs, 0, sizeof(c->blobs));
	memset(c->dumbs, 0, sizeof(c->dumbs));
}

/* Closing the fd frees its framebuffers, blobs, buffers and events. */
void client_close(struct fuzz *f, struct client *c)
{
	int i;

	for (i = 0; i < FENCE_SLOTS; i++) {
		if (c->out_fences[i] >= 0)
			close(c->out_fences[i]);
		c->out_fences[i] = -1;
	}
	if (c->crc_fd >= 0)
		close(c->crc_fd);
	c->crc_fd = -1;
	if (c->lease_fd >= 0)
		close(c->lease_fd);
	c->lease_fd = -1;
	if (c->timeline >= 0)
		close(c->timeline);	/* signals what is left on it */
	c->timeline = -1;
	res_free_all(c);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->npend = 0;
	if (f->master == c->idx)
		f->master = -1;
}

int fuzz_setup(struct fuzz *f)
{
	int i, ret, m;

	f->master = -1;
	for (i = 0; i < f->nclients; i++) {
		pthread_mutex_init(&f->clients[i].lock, NULL);
		ret = client_open(f, &f->clients[i], i);
		if (ret) {
			fprintf(stderr, "fuzz: open %s: %s\n", f->topo.card,
				strerror(-ret));
			return ret;
		}
	}
	if (f->master < 0) {
		fprintf(stderr, "fuzz: no client became master (another master holds the device?)\n");
		return -EBUSY;
	}
	/* A known state: everything off, standard properties at defaults. */
	m = f->clients[f->master].fd;
	ret = kms_reset_all(m);
	if (ret) {
		fprintf(stderr, "fuzz: reset: %s\n", strerror(-ret));
		return ret;
	}
	return 0;
}

void fuzz_teardown(struct fuzz *f)
{
	int i;

	for (i = 0; i < f->nclients; i++) {
		client_close(f, &f->clients[i]);
		pthread_mutex_destroy(&f->clients[i].lock);
	}
}

uint64_t client_new_ud(struct client *c)
{
	return ((uint64_t)(c->idx + 1) << 40) | ++c->serial;
}

void pend_add(struct fuzz *f, struct client *c, uint64_t ud, uint32_t must,
	      bool any, bool vblank, uint64_t op)
{
	uint64_t s = ud & ((1ull << 40) - 1);
	unsigned int k = s % EVRING;

	c->ring_tag[k] = s;
	c->ring_got[k] = 0;
	c->ring_vblank[k] = vblank;
	if (c->npend == PEND_MAX) {
		/* Too many in flight: wait for the oldest first. */
		events_drain(f, c, 2000, op);
		if (c->npend == PEND_MAX)
			c->npend--;
	}
	c->pend[c->npend++] = (struct pend){ ud, must, any, op, mono_now() };
}

void pend_drop(struct client *c, uint64_t ud)
{
	uint64_t s = ud & ((1ull << 40) - 1);
	int i;

	c->ring_tag[s % EVRING] = 0;
	for (i = 0; i < c->npend; i++) {
		if (c->pend[i].ud == ud) {
			c->pend[i] = c->pend[--c->npend];
			return;
		}
	}
}

struct evctx {
	struct fuzz *f;
	struct client *c;
	uint64_t op;
};

static __thread struct evctx tls_ev;

static void got_event(uint64_t ud, uint32_t crtc_id, bool vblank,
		      unsigned int bit_if_unknown)
{
	struct evctx *e = &tls_ev;
	struct client *c = e->c;
	uint64_t s = ud & ((1ull << 40) - 1);
	unsigned int k = s % EVRING;
	const struct tcrtc *kc = crtc_by_id(&e->f->topo, crtc_id);
	uint32_t bit = kc ? 1u << kc->idx : bit_if_unknown;
	int i;

	__atomic_add_fetch(&e->f->events, 1, __ATOMIC_RELAXED);
	if ((ud >> 40) != (uint64_t)c->idx + 1 || s == 0 || s > c->serial) {
		fuzz_fail(e->f, FAIL_EVENT_EXTRA, e->op,
			  "client %d: event with user data %#llx it never sent",
			  c->idx, (unsigned long long)ud);
		return;
	}
	if (c->ring_tag[k] != s) {
		if (s + EVRING > c->serial)
			fuzz_fail(e->f, FAIL_EVENT_EXTRA, e->op,
				  "client %d: event for serial %llu, which asked for none (or had it already)",
				  c->idx, (unsigned long long)s);
		return;
	}
	if (c->ring_vblank[k] != vblank)
		fuzz_fail(e->f, FAIL_EVENT_EXTRA, e->op,
			  "client %d: serial %llu: %s event for a %s request",
			  c->idx, (unsigned long long)s,
			  vblank ? "vblank" : "flip", vblank ? "flip" : "vblank");
	if (c->ring_got[k] & bit) {
		fuzz_fail(e->f, FAIL_EVENT_EXTRA, e->op,
			  "client %d: serial %llu: second event for CRTC %u",
			  c->idx, (unsigned long long)s, crtc_id);
		return;
	}
	c->ring_got[k] |= bit;
	for (i = 0; i < c->npend; i++) {
		struct pend *p = &c->pend[i];

		if (p->ud != ud)
			continue;
		if ((c->ring_got[k] & p->must) == p->must &&
		    (!p->any || c->ring_got[k]))
			c->pend[i] = c->pend[--c->npend];
		break;
	}
	/* One-shot kinds are done with their one event. */
	if (vblank)
		c->ring_tag[k] = 0;
}

static void flip_handler2(int fd, unsigned int seq, unsigned int sec,
			  unsigned int usec, unsigned int crtc_id, void *data)
{
	(void)fd; (void)seq; (void)sec; (void)usec;
	got_event((uintptr_t)data, crtc_id, false, 0);
}

static void vblank_handler(int fd, unsigned int seq, unsigned int sec,
			   unsigned int usec, void *data)
{
	(void)fd; (void)seq; (void)sec; (void)usec;
	got_event((uintptr_t)data, 0, true, 1u << 31);
}

static void seq_handler(int fd, uint64_t seq, uint64_t ns, uint64_t ud)
{
	(void)fd; (void)seq; (void)ns;
	got_event(ud, 0, true, 1u << 31);
}

static drmEventContext evctx = {
	.version = 4,
	.vblank_handler = vblank_handler,
	.page_flip_handler2 = flip_handler2,
	.sequence_handler = seq_handler,
};

void events_drain(struct fuzz *f, struct client *c, int ms, uint64_t op)
{
	double end = mono_now() + ms / 1000.0;
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int i;

	tls_ev = (struct evctx){ f, c, op };
	for (;;) {
		int left = ms ? (int)((end - mono_now()) * 1000) : 0;
		int n;

		if (ms && !c->npend)
			left = 0;	/* only what is already there */
		n = poll(&pfd, 1, left > 0 ? left : 0);
		if (n > 0) {
			drmHandleEvent(c->fd, &evctx);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	if (!ms)
		return;
	for (i = 0; i < c->npend; i++) {
		struct pend *p = &c->pend[i];

		fuzz_fail(f, FAIL_EVENT_MISSING, p->op,
			  "client %d: no event (CRTC mask %#x%s) within %d ms for user data %#llx",
			  c->idx, p->must, p->any ? ", any CRTC" : "", ms,
			  (unsigned long long)p->ud);
		break;
	}
}

void out_fence_keep(struct fuzz *f, struct client *c, int fence, uint64_t op)
{
	int i;

	for (i = 0; i < FENCE_SLOTS; i++) {
		if (c->out_fences[i] < 0) {
			c->out_fences[i] = fence;
			return;
		}
	}
	/* Full: the oldest must have signalled by now, or soon. */
	fences_drain(f, c, 3000, op);
	for (i = 0; i < FENCE_SLOTS; i++)
		if (c->out_fences[i] < 0) {
			c->out_fences[i] = fence;
			return;
		}
	close(fence);
}

void fences_drain(struct fuzz *f, struct client *c, int ms, uint64_t op)
{
	int i, ret;

	for (i = 0; i < FENCE_SLOTS; i++) {
		if (c->out_fences[i] < 0)
			continue;
		ret = fence_wait(c->out_fences[i], ms);
		if (ret == 0) {
			fuzz_fail(f, FAIL_FENCE, op,
				  "client %d: out-fence not signalled after %d ms",
				  c->idx, ms);
			return;
		}
		close(c->out_fences[i]);
		c->out_fences[i] = -1;
	}
}
