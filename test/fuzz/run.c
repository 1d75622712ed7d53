// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a list of operations (on T threads), replaying one on fresh file
 * descriptors, and minimising a failing run by ddmin over its operations
 * within a time budget.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

struct worker {
	struct fuzz *f;
	const uint64_t *idx;
	uint64_t n;
	int t, nthreads;
	bool progress;
	double start;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fuzz *f = w->f;
	uint64_t p, next = 10000;

	for (p = w->t; p < w->n && !f->stop; p += w->nthreads) {
		op_run(f, w->idx ? w->idx[p] : p);
		if (w->progress && w->t == 0 && f->done >= next) {
			double dt = mono_now() - w->start;

			printf("fuzz: %llu ops in %.1f s (%.0f ops/s), %llu commits (%llu ok), %llu pairs, %llu events\n",
			       (unsigned long long)f->done, dt, f->done / dt,
			       (unsigned long long)f->commits,
			       (unsigned long long)f->commits_ok,
			       (unsigned long long)f->pairs,
			       (unsigned long long)f->events);
			fflush(stdout);
			next += 10000;
		}
	}
	return NULL;
}

/* Every event asked for must come, every out-fence must signal. */
static void final_drain(struct fuzz *f, uint64_t last)
{
	int i;

	for (i = 0; i < f->nclients && !f->stop; i++) {
		struct client *c = &f->clients[i];

		if (c->fd < 0)
			continue;
		events_drain(f, c, 5000, last);
		fences_drain(f, c, 5000, last);
	}
	klog_check(f, last);
}

int run_ops(struct fuzz *f, const uint64_t *idx, uint64_t n, int threads,
	    bool progress)
{
	struct worker w[16];
	pthread_t th[16];
	int t;

	if (threads < 1)
		threads = 1;
	if (threads > 16)
		threads = 16;
	for (t = 0; t < threads; t++) {
		w[t] = (struct worker){ f, idx, n, t, threads, progress, mono_now() };
		if (threads == 1)
			worker_main(&w[0]);
		else
			pthread_create(&th[t], NULL, worker_main, &w[t]);
	}
	for (t = 0; threads > 1 && t < threads; t++)
		pthread_join(th[t], NULL);
	if (n)
		final_drain(f, idx ? idx[n - 1] : n - 1);
	return f->fail.kind ? -1 : 0;
}

/* Same failure: same kind, same "what" up to its first colon. */
static bool same_failure(const struct failure *a, const struct failure *b)
{
	const char *ca = strchr(a->what, ':'), *cb = strchr(b->what, ':');
	size_t la = ca ? (size_t)(ca - a->what) : strlen(a->what);
	size_t lb = cb ? (size_t)(cb - b->what) : strlen(b->what);

	if (a->kind != b->kind)
		return false;
	if (a->kind == FAIL_KLOG || a->kind == FAIL_EVENT_MISSING ||
	    a->kind == FAIL_EVENT_EXTRA || a->kind == FAIL_FENCE)
		return true;
	return la == lb && !memcmp(a->what, b->what, la);
}

static int replays;

/* Replay @idx on fresh fds, single-threaded: does @orig happen again? */
static bool replay_fails(struct fuzz *f, const struct failure *orig,
			 const uint64_t *idx, uint64_t n)
{
	bool again;

	replays++;
	memset(&f->fail, 0, sizeof(f->fail));
	f->stop = false;
	if (fuzz_setup(f)) {
		fuzz_teardown(f);
		return false;
	}
	klog_check(f, 0);
	memset(&f->fail, 0, sizeof(f->fail));
	f->stop = false;
	run_ops(f, idx, n, 1, false);
	again = same_failure(&f->fail, orig);
	fuzz_teardown(f);
	return again;
}

static void print_list(FILE *out, const uint64_t *idx, uint64_t n)
{
	uint64_t i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && idx[j] == idx[j - 1] + 1; j++)
			;
		if (j - i > 2)
			fprintf(out, "%s%llu-%llu", i ? "," : "",
				(unsigned long long)idx[i],
				(unsigned long long)idx[j - 1]);
		else
			for (; i < j; i++)
				fprintf(out, "%s%llu", i ? "," : "",
					(unsigned long long)idx[i]);
	}
}

int minimise(struct fuzz *f, const struct failure *orig, double budget_s)
{
	double end = mono_now() + budget_s;
	uint64_t last = orig->op, k, n = 0, i;
	uint64_t *list = NULL, *cand = NULL;
	uint64_t chunks = 2;
	bool found = false;

	/* The shortest tail of the run before the failure that still fails. */
	for (k = 8; !found && mono_now() < end; k *= 4) {
		uint64_t from = k > last ? 0 : last - k + 1;

		n = last - from + 1;
		free(list);
		list = malloc(n * sizeof(*list));
		if (!list)
			return -1;
		for (i = 0; i < n; i++)
			list[i] = from + i;
		found = replay_fails(f, orig, list, n);
		printf("fuzz: minimise: ops %llu-%llu (%llu) %s\n",
		       (unsigned long long)from, (unsigned long long)last,
		       (unsigned long long)n, found ? "fail again" : "pass");
		fflush(stdout);
		if (!from)
			break;
	}
	if (!found) {
		printf("fuzz: the failure did not happen again when replayed alone on one thread (timing, or a WARN_ONCE that fired once); full run: atomkms-fuzz --seed %llu --ops %llu --threads %d --clients %d\n",
		       (unsigned long long)f->seed,
		       (unsigned long long)(last + 1), f->nthreads, f->nclients);
		free(list);
		return -1;
	}
	cand = malloc(n * sizeof(*cand));
	/* ddmin, complements only */
	while (cand && n >= 2 && mono_now() < end) {
		uint64_t size = (n + chunks - 1) / chunks, c;
		bool reduced = false;

		for (c = 0; c < chunks && mono_now() < end; c++) {
			uint64_t lo = c * size, hi = lo + size, m = 0;

			if (lo >= n)
				break;
			for (i = 0; i < n; i++)
				if (i < lo || i >= hi)
					cand[m++] = list[i];
			if (m && replay_fails(f, orig, cand, m)) {
				memcpy(list, cand, m * sizeof(*list));
				n = m;
				chunks = chunks > 2 ? chunks - 1 : 2;
				reduced = true;
				break;
			}
		}
		if (!reduced) {
			if (chunks >= n)
				break;
			chunks = chunks * 2 < n ? chunks * 2 : n;
		}
	}
	printf("fuzz: minimal sequence (%llu ops, %d replays%s):\n",
	       (unsigned long long)n, replays,
	       mono_now() >= end ? ", time budget spent: may not be minimal" : "");
	for (i = 0; i < n; i++) {
		int ci;

		printf("fuzz:   op %llu: %s\n", (unsigned long long)list[i],
		       op_name(f, list[i], &ci));
	}
	printf("fuzz: reproduce: atomkms-fuzz --seed %llu --clients %d --replay ",
	       (unsigned long long)f->seed, f->nclients);
	print_list(stdout, list, n);
	printf(" -v\n");
	free(list);
	free(cand);
	return 0;
}
