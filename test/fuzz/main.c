// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms-fuzz --seed S --ops N [--threads T] [--clients C]
 *              [--replay LIST] [--min-time SECONDS] [-v]
 *
 * Runs N operations derived from seed S over C clients (separate fds, one
 * master at a time) on T threads, checking its invariants as it goes. On a
 * failure it prints the seed, minimises the run to the shortest sequence
 * of operations that fails the same way (single-threaded replays on fresh
 * fds, at most --min-time seconds, default 180) and prints the --replay
 * command line that reproduces it. Exit 0 clean, 1 failure, 2 usage/set-up.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static struct fuzz fz;

static void usage(void)
{
	fprintf(stderr,
		"usage: atomkms-fuzz [--seed S] [--ops N] [--threads T] [--clients C]\n"
		"                    [--replay LIST] [--min-time SECONDS] [--no-minimise]\n"
		"                    [--only KIND] [-v]\n"
		"  LIST: operation indices of the run, e.g. 3,17,40-52\n"
		"  KIND: run only the run's first N operations of that kind\n"
		"        (atomic, configfs...: the names of the per-kind report)\n");
	exit(2);
}

static uint64_t *parse_list(const char *s, uint64_t *n)
{
	uint64_t *l = NULL, cap = 0, a, b;
	char *end;

	*n = 0;
	while (*s) {
		a = strtoull(s, &end, 0);
		if (end == s)
			return NULL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtoull(s + 1, &end, 0);
			s = end;
		}
		for (; a <= b; a++) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 64;
				l = realloc(l, cap * sizeof(*l));
				if (!l)
					return NULL;
			}
			l[(*n)++] = a;
		}
		if (*s == ',')
			s++;
	}
	return l;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ "clients", required_argument, NULL, 'c' },
		{ "replay", required_argument, NULL, 'r' },
		{ "min-time", required_argument, NULL, 'm' },
		{ "no-minimise", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "only", required_argument, NULL, 'o' },
		{ 0 }
	};
	struct fuzz *f = &fz;
	const char *replay = NULL, *only = NULL;
	uint64_t *list = NULL, n;
	double budget = 180, t0, dt;
	bool do_min = true;
	unsigned int i;
	int opt;

	f->seed = 1;
	f->nops = 1000;
	f->nthreads = 1;
	f->nclients = 2;
	while ((opt = getopt_long(argc, argv, "s:n:t:c:r:m:o:Nv", opts, NULL)) != -1) {
		switch (opt) {
		case 's': f->seed = strtoull(optarg, NULL, 0); break;
		case 'n': f->nops = strtoull(optarg, NULL, 0); break;
		case 't': f->nthreads = atoi(optarg); break;
		case 'c': f->nclients = atoi(optarg); break;
		case 'r': replay = optarg; break;
		case 'm': budget = atof(optarg); break;
		case 'N': do_min = false; break;
		case 'v': f->verbose = true; break;
		case 'o': only = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || f->nclients < 1 || f->nclients > 8 ||
	    f->nthreads < 1 || f->nthreads > 16)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (replay) {
		list = parse_list(replay, &n);
		if (!list)
			usage();
		f->nthreads = 1;
	} else if (only) {
		uint64_t idx;
		int ci;

		list = calloc(f->nops ? f->nops : 1, sizeof(*list));
		if (!list)
			return 2;
		/* Draws depend on the client count: f->nclients is set. */
		for (n = 0, idx = 0; n < f->nops && idx < f->nops * 100000; idx++)
			if (!strcmp(op_name(f, idx, &ci), only))
				list[n++] = idx;
		if (!n) {
			fprintf(stderr, "fuzz: no operation of kind %s\n", only);
			return 2;
		}
	} else {
		n = f->nops;
	}
	printf("fuzz: seed %llu, %llu ops, %d threads, %d clients%s%s\n",
	       (unsigned long long)f->seed, (unsigned long long)n,
	       f->nthreads, f->nclients, replay ? ", replay " : "",
	       replay ? replay : "");

	pthread_rwlock_init(&f->big, NULL);
	pthread_mutex_init(&f->fail_lock, NULL);
	f->have_sw_sync = !access("/sys/kernel/debug/sync/sw_sync", R_OK | W_OK);
	if (topo_read(&f->topo)) {
		fprintf(stderr, "fuzz: cannot read the device's topology\n");
		return 2;
	}
	printf("fuzz: %s: %d CRTCs, %d planes, %d connectors, %d formats, in-fences %s\n",
	       f->topo.card, f->topo.ncrtcs, f->topo.nplanes, f->topo.nconns,
	       f->topo.nformats, f->have_sw_sync ? "from sw_sync" : "skipped (no sw_sync)");
	klog_open(f);
	if (fuzz_setup(f)) {
		fuzz_teardown(f);
		return 2;
	}
	t0 = mono_now();
	run_ops(f, list, n, f->nthreads, !replay && !only);
	dt = mono_now() - t0;
	fuzz_teardown(f);

	printf("fuzz: %llu ops in %.1f s (%.0f ops/s): %llu commits (%llu ok), %llu TEST_ONLY/real pairs, %llu events, %llu errnos\n",
	       (unsigned long long)f->done, dt, dt > 0 ? f->done / dt : 0.0,
	       (unsigned long long)f->commits, (unsigned long long)f->commits_ok,
	       (unsigned long long)f->pairs, (unsigned long long)f->events,
	       (unsigned long long)f->errs);
	printf("fuzz: per kind:");
	for (i = 0; i < op_count; i++)
		printf(" %s %llu (%.1f s)", op_table[i].name,
		       (unsigned long long)f->per_kind[i], f->per_kind_s[i]);
	printf("\nfuzz: reached:");
	for (i = 0; i < ST_COUNT; i++)
		printf(" %s %llu", stat_names[i], (unsigned long long)f->stat[i]);
	printf("\nfuzz: errnos:");
	for (i = 0; i < ARRAY_SIZE(f->errno_count); i++)
		if (f->errno_count[i])
			printf(" %s %llu", strerror(i),
			       (unsigned long long)f->errno_count[i]);
	printf("\n");

	if (f->fail.kind == FAIL_NONE) {
		printf("fuzz: seed %llu clean\n", (unsigned long long)f->seed);
		return 0;
	}
	{
		struct failure orig = f->fail;

		printf("fuzz: FAIL seed %llu op %llu: %s: %s\n",
		       (unsigned long long)f->seed, (unsigned long long)orig.op,
		       fail_names[orig.kind], orig.what);
		if (do_min && orig.kind != FAIL_SETUP)
			minimise(f, &orig, budget);
		printf("fuzz: FAIL seed %llu op %llu: %s\n",
		       (unsigned long long)f->seed, (unsigned long long)orig.op,
		       fail_names[orig.kind]);
	}
	return 1;
}
