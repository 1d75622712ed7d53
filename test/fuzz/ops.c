// SPDX-License-Identifier: GPL-2.0-only
/*
 * The operation table, how operation i is drawn from (seed, i) and run,
 * and the operations on clients themselves: master changes, reopening,
 * leases, CRC capture, draining events and fences.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

void op_fb_add(struct opctx *o);
void op_fb_add_raw(struct opctx *o);
void op_fb_rm(struct opctx *o);
void op_fb_query(struct opctx *o);
void op_dumb(struct opctx *o);
void op_blob(struct opctx *o);
void op_getters(struct opctx *o);
void op_setcrtc(struct opctx *o);
void op_setplane(struct opctx *o);
void op_cursor(struct opctx *o);
void op_page_flip(struct opctx *o);
void op_vblank(struct opctx *o);
void op_gamma(struct opctx *o);
void op_setprop(struct opctx *o);

#define RET(x) ((x) ? -errno : 0)

/* The master drops it, client c takes it (with everything held off). */
static void op_master(struct opctx *o)
{
	struct fuzz *f = o->f;
	int m = f->master, ret;

	if (m >= 0 && chance(&o->r, 80)) {
		ret = drmDropMaster(f->clients[m].fd);
		check_ret(f, o->idx, "DROP_MASTER", RET(ret));
		if (!ret)
			f->master = -1;
	}
	if (chance(&o->r, 10) && o->c->idx != f->master) {
		/* not the master: EINVAL */
		ret = drmDropMaster(o->c->fd);
		check_ret(f, o->idx, "DROP_MASTER (not master)", RET(ret));
	}
	ret = drmSetMaster(o->c->fd);
	check_ret(f, o->idx, "SET_MASTER", RET(ret));
	if (!ret)
		f->master = o->c->idx;
	else if (f->master < 0 && m >= 0 && !drmSetMaster(f->clients[m].fd))
		f->master = m;
}

/* Close the client's fd with whatever it has in flight; open again. */
static void op_reopen(struct opctx *o)
{
	struct fuzz *f = o->f;
	struct client *c = o->c;
	int idx = c->idx, ret;

	if (chance(&o->r, 60))
		events_drain(f, c, 0, o->idx);
	client_close(f, c);
	ret = client_open(f, c, idx);
	if (ret)
		fuzz_fail(f, FAIL_SETUP, o->idx, "reopen: %s", strerror(-ret));
	/* nobody master (the master left): take it */
	if (f->master < 0 && !drmSetMaster(c->fd))
		f->master = idx;
}

static void op_drain(struct opctx *o)
{
	events_drain(o->f, o->c, 3000, o->idx);
	if (chance(&o->r, 30))
		fences_drain(o->f, o->c, 3000, o->idx);
}

static void op_lease(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	struct client *c = o->c;
	uint32_t objs[8];
	int n = 0, i, ret;

	switch (rnd_below(&o->r, 5)) {
	case 0:
	case 1: {	/* create: a CRTC, its primary, a connector */
		const struct tcrtc *k = &t->crtcs[rnd_below(&o->r, t->ncrtcs)];
		const struct tconn *kc = pick_conn_for(o, k->idx, chance(&o->r, 20));
		uint32_t lessee = 0;

		if (chance(&o->r, 90))
			objs[n++] = k->o.id;
		if (k->primary && chance(&o->r, 90))
			objs[n++] = k->primary;
		if (kc && chance(&o->r, 90))
			objs[n++] = kc->o.id;
		if (k->cursor && chance(&o->r, 30))
			objs[n++] = k->cursor;
		if (chance(&o->r, 10))
			objs[n++] = chance(&o->r, 50) ? objs[0] : (uint32_t)rnd_weird(&o->r);
		ret = drmModeCreateLease(c->fd, objs, n,
					 chance(&o->r, 95) ? O_CLOEXEC : (int)rnd(&o->r), &lessee);
		check_ret(o->f, o->idx, "CREATE_LEASE", ret < 0 ? -errno : 0);
		if (ret >= 0) {
			STAT(o->f, ST_LEASES);
			if (c->lease_fd >= 0)
				close(c->lease_fd);
			c->lease_fd = ret;
			c->lessee_id = lessee;
			drmSetClientCap(ret, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
			drmSetClientCap(ret, DRM_CLIENT_CAP_ATOMIC, 1);
			drmSetClientCap(ret, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
		}
		break;
	}
	case 2: {
		drmModeLesseeListPtr l = drmModeListLessees(c->fd);

		check_ret(o->f, o->idx, "LIST_LESSEES", l ? 0 : -errno);
		drmFree(l);
		if (c->lease_fd >= 0) {
			drmModeObjectListPtr g = drmModeGetLease(c->lease_fd);

			check_ret(o->f, o->idx, "GET_LEASE", g ? 0 : -errno);
			drmFree(g);
		}
		break;
	}
	case 3:
		ret = drmModeRevokeLease(c->fd, chance(&o->r, 90) ? c->lessee_id :
					 (uint32_t)rnd_weird(&o->r));
		check_ret(o->f, o->idx, "REVOKE_LEASE", ret < 0 ? -errno : 0);
		if (!ret && chance(&o->r, 50)) {
			close(c->lease_fd);
			c->lease_fd = -1;
		}
		break;
	default:
		if (c->lease_fd >= 0 && chance(&o->r, 30)) {
			close(c->lease_fd);
			c->lease_fd = -1;
			break;
		}
		for (i = 0; i < 2; i++)
			op_lease_commit(o);
	}
}

/*
 * The DRM debugfs CRC API: select a source (mostly "auto"), open data,
 * read what is there, close now or leave it open for later operations.
 */
static void op_crc(struct opctx *o)
{
	const struct topo *t = &o->f->topo;
	struct client *c = o->c;
	int k = rnd_below(&o->r, t->ncrtcs);
	struct crc_reader cr;
	char path[200], line[128];
	ssize_t n;
	int ret;

	if (c->crc_fd >= 0) {
		n = read(c->crc_fd, line, sizeof(line));
		check_ret(o->f, o->idx, "crc/data read", n < 0 ? -errno : 0);
		if (n > 0)
			STAT(o->f, ST_CRC_LINES);
		if (chance(&o->r, 50)) {
			close(c->crc_fd);
			c->crc_fd = -1;
		}
		return;
	}
	ret = crc_reader_init(&cr, c->fd, k);
	if (ret)
		return;		/* no debugfs: nothing to fuzz here */
	snprintf(path, sizeof(path), "%s/control", cr.dir);
	ret = write_str(path, chance(&o->r, 90) ? "auto" :
			chance(&o->r, 50) ? "none" : "bogus");
	check_ret(o->f, o->idx, "crc/control write", ret);
	snprintf(path, sizeof(path), "%s/data", cr.dir);
	ret = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	check_ret(o->f, o->idx, "crc/data open", ret < 0 ? -errno : 0);
	if (ret < 0)
		return;
	n = read(ret, line, sizeof(line) - 1);
	check_ret(o->f, o->idx, "crc/data read", n < 0 ? -errno : 0);
	if (n > 0)
		STAT(o->f, ST_CRC_LINES);
	if (chance(&o->r, 50))
		c->crc_fd = ret;
	else
		close(ret);
}

/* Weights: plausible commits dominate; everything else now and then. */
const struct op_desc op_table[] = {
	{ "atomic", 300, op_atomic, false },
	{ "atomic-pair", 25, op_atomic_pair, true },
	{ "atomic-junk", 30, op_atomic_junk, false },
	{ "fb-add", 60, op_fb_add, false },
	{ "fb-add-raw", 25, op_fb_add_raw, false },
	{ "fb-rm", 30, op_fb_rm, false },
	{ "fb-query", 15, op_fb_query, false },
	{ "dumb", 30, op_dumb, false },
	{ "blob", 50, op_blob, false },
	{ "getters", 15, op_getters, false },
	{ "setcrtc", 15, op_setcrtc, false },
	{ "setplane", 15, op_setplane, false },
	{ "cursor", 30, op_cursor, false },
	{ "page-flip", 30, op_page_flip, false },
	{ "vblank", 20, op_vblank, false },
	{ "gamma", 8, op_gamma, false },
	{ "setprop", 15, op_setprop, false },
	{ "lease", 12, op_lease, false },
	{ "crc", 8, op_crc, false },
	{ "master", 4, op_master, true },
	{ "reopen", 3, op_reopen, true },
	{ "drain", 15, op_drain, false },
	{ "configfs", 1, op_configfs, false },
};
const unsigned int op_count = ARRAY_SIZE(op_table);

/* The generator of operation @idx, and its kind and client. */
static const struct op_desc *op_draw(struct fuzz *f, uint64_t idx,
				     struct rng *r, int *client)
{
	static unsigned int total;
	unsigned int i, w;

	r->s = f->seed * 0x2545f4914f6cdd1dull ^ (idx + 1) * 0x9e3779b97f4a7c15ull;
	rnd(r);
	if (!total)
		for (i = 0; i < op_count; i++)
			total += op_table[i].weight;
	w = rnd_below(r, total);
	for (i = 0; i < op_count - 1 && w >= op_table[i].weight; i++)
		w -= op_table[i].weight;
	/* mostly the master's work (its index as of the op's start) */
	*client = rnd_below(r, f->nclients);
	if (chance(r, 85) && f->master >= 0)
		*client = f->master;
	return &op_table[i];
}

const char *op_name(struct fuzz *f, uint64_t idx, int *client)
{
	struct rng r;

	return op_draw(f, idx, &r, client)->name;
}

void op_run(struct fuzz *f, uint64_t idx)
{
	struct opctx o = { .f = f, .idx = idx };
	const struct op_desc *d;
	struct client *c;
	double t0 = mono_now();
	int ci;

	d = op_draw(f, idx, &o.r, &ci);
	c = o.c = &f->clients[ci];
	if (f->verbose)
		fprintf(stderr, "op %llu: %s client %d\n",
			(unsigned long long)idx, d->name, ci);
	pthread_mutex_lock(&c->lock);
	if (d->exclusive)
		pthread_rwlock_wrlock(&f->big);
	else
		pthread_rwlock_rdlock(&f->big);
	if (c->fd >= 0)
		d->fn(&o);
	pthread_rwlock_unlock(&f->big);
	if (c->fd >= 0)
		events_drain(f, c, 0, idx);
	pthread_mutex_unlock(&c->lock);
	klog_check(f, idx);
	__atomic_add_fetch(&f->per_kind[d - op_table], 1, __ATOMIC_RELAXED);
	f->per_kind_s[d - op_table] += mono_now() - t0;	/* racy: a report */
	__atomic_add_fetch(&f->done, 1, __ATOMIC_RELAXED);
}
