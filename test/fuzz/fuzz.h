// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms-fuzz: a seeded fuzzer of atomkms's userspace interface.
 *
 * Operation i of a run is derived from (seed, i) alone: its kind, its
 * client and every value it draws come from a generator seeded with both,
 * and objects are named by slot (the client's fb 3, blob 5...), resolved
 * when the operation runs. So any subset of a run's operations, replayed in
 * index order on fresh file descriptors, is again a well-defined run: the
 * minimiser (replay.c) cuts a failing run down to the operations it needs.
 */
#ifndef ATOMKMS_FUZZ_H
#define ATOMKMS_FUZZ_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "drmutil.h"

/* ------------------------------------------------------------ random */

struct rng {
	uint64_t s;
};

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rnd(struct rng *r)
{
	return splitmix64(&r->s);
}

/* Uniform in [0, n), 0 when n is 0. */
static inline uint32_t rnd_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(((rnd(r) >> 32) * n) >> 32) : 0;
}

/* In [lo, hi]. */
static inline int64_t rnd_range(struct rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(r) % (uint64_t)(hi - lo + 1));
}

/* True with probability pct/100. */
static inline bool chance(struct rng *r, unsigned int pct)
{
	return rnd_below(r, 100) < pct;
}

/* A value a fuzzer likes: boundaries, small numbers, all-ones, random. */
uint64_t rnd_weird(struct rng *r);

/* ---------------------------------------------------------- topology */

#define MAX_CRTCS	8
#define MAX_PLANES	32
#define MAX_CONNS	16
#define MAX_OBJ_PROPS	48
#define MAX_FORMATS	64
#define MAX_MODES	64

struct prop {
	uint32_t id;
	char name[DRM_PROP_NAME_LEN];
	uint32_t flags;
	bool immutable;
	uint64_t min, max;		/* range / signed range */
	int nenums;
	uint64_t enums[32];		/* enum values, bitmask bit numbers */
};

struct kobj {
	uint32_t id;
	uint32_t type;			/* DRM_MODE_OBJECT_* */
	int nprops;
	const struct prop *props[MAX_OBJ_PROPS];
};

struct tcrtc {
	struct kobj o;
	int idx;
	uint32_t gamma_size;
	uint32_t primary, cursor;	/* plane ids, 0 if none */
};

struct tplane {
	struct kobj o;
	int type;			/* DRM_PLANE_TYPE_* */
	uint32_t possible_crtcs;
	int nformats;
	uint32_t formats[MAX_FORMATS];
};

struct tconn {
	struct kobj o;
	bool writeback;
	uint32_t possible_crtcs;
	int nmodes;
	drmModeModeInfo modes[MAX_MODES];	/* smallest first */
	int nwb_formats;
	uint32_t wb_formats[MAX_FORMATS];
};

struct topo {
	int ncrtcs, nplanes, nconns;
	struct tcrtc crtcs[MAX_CRTCS];
	struct tplane planes[MAX_PLANES];
	struct tconn conns[MAX_CONNS];
	uint32_t encoders[MAX_CONNS * 2];
	int nencoders;
	int nprops;
	struct prop props[256];
	/* every format some plane scans out (IN_FORMATS are all linear) */
	int nformats;
	uint32_t formats[MAX_FORMATS];
	char card[64];
	int minor;
};

int topo_read(struct topo *t);
const struct prop *obj_prop(const struct kobj *o, const char *name);
/* A value for @p: mostly valid for its type, sometimes not. */
uint64_t prop_value(struct rng *r, const struct prop *p);
const struct tcrtc *crtc_by_id(const struct topo *t, uint32_t id);

/* ----------------------------------------------------------- clients */

#define FB_SLOTS	12
#define BLOB_SLOTS	12
#define DUMB_SLOTS	6
#define FENCE_SLOTS	16
#define PEND_MAX	256
#define EVRING		4096

struct fb_slot {
	uint32_t fb_id;
	uint32_t handle;		/* its dumb buffer, 0 if none of ours */
	uint32_t w, h, fourcc;
	uint64_t size;
	void *map;
};

enum blob_kind { BLOB_MODE, BLOB_GAMMA, BLOB_DEGAMMA, BLOB_CTM, BLOB_DAMAGE,
		 BLOB_JUNK, BLOB_KINDS };

struct blob_slot {
	uint32_t id;
	int kind;
	uint32_t w, h;			/* BLOB_MODE: its size */
};

struct dumb_slot {
	uint32_t handle;
	uint32_t w, h, bpp, pitch;
	uint64_t size;
};

/* An event the client asked for and has not had in full yet. */
struct pend {
	uint64_t ud;
	uint32_t must;			/* CRTC index bits that must report */
	bool any;			/* or at least one CRTC, unknown which */
	uint64_t op;			/* the operation that asked */
	double since;
};

struct client {
	int idx;
	int fd;
	pthread_mutex_t lock;
	struct fb_slot fbs[FB_SLOTS];
	struct blob_slot blobs[BLOB_SLOTS];
	struct dumb_slot dumbs[DUMB_SLOTS];
	int out_fences[FENCE_SLOTS];
	/* events */
	uint64_t serial;
	int npend;
	struct pend pend[PEND_MAX];
	uint64_t ring_tag[EVRING];	/* serial stored at serial % EVRING */
	uint32_t ring_got[EVRING];	/* CRTC bits that reported */
	bool ring_vblank[EVRING];
	/* sw_sync timeline for in-fences, -1 if none */
	int timeline;
	uint32_t tl_value;
	/* a lease this client (the lessor) made: the lessee's fd */
	int lease_fd;
	uint32_t lessee_id;
	/* a CRC capture left running */
	int crc_fd;
};

/* ------------------------------------------------------------- runs */

/* What the run reached, for its report (and for tuning the odds). */
enum fuzz_stat {
	ST_PLANES, ST_PLANES_OK, ST_MODESET, ST_MODESET_OK, ST_OFF, ST_OFF_OK,
	ST_COLOR, ST_COLOR_OK, ST_WB, ST_WB_OK, ST_MULTI, ST_MULTI_OK,
	ST_OUT_FENCES, ST_WB_FENCES, ST_IN_FENCES, ST_IN_PENDING,
	ST_LEASES, ST_CRC_LINES, ST_FLIP_EVENTS_ASKED, ST_VBLANK_EVENTS_ASKED,
	ST_CONFIGFS, ST_CONFIGFS_ENABLED,
	ST_COUNT,
};

extern const char *const stat_names[ST_COUNT];

enum fail_kind {
	FAIL_NONE,
	FAIL_ERRNO,		/* an errno outside the documented set */
	FAIL_VERDICT,		/* TEST_ONLY said otherwise than the real commit */
	FAIL_TEST_CHANGED,	/* a TEST_ONLY commit changed a property */
	FAIL_EVENT_MISSING,
	FAIL_EVENT_EXTRA,	/* duplicated or never asked for */
	FAIL_FENCE,		/* out-fence never signalled, fd on failure */
	FAIL_KLOG,		/* a WARN/BUG/KASAN... line in the kernel log */
	FAIL_SETUP,		/* the fuzzer could not set itself up */
	FAIL_CONFIGFS,		/* a configfs device misbehaved */
	FAIL_KINDS,
};

extern const char *const fail_names[FAIL_KINDS];

struct failure {
	int kind;
	uint64_t op;
	char what[512];
};

struct fuzz {
	uint64_t seed;
	uint64_t nops;
	int nthreads, nclients;
	bool verbose;
	struct topo topo;
	struct client clients[8];
	int master;			/* client index, -1: none */
	bool have_sw_sync;
	/* test/real pairs and master changes take it for writing */
	pthread_rwlock_t big;
	pthread_mutex_t fail_lock;
	struct failure fail;
	volatile bool stop;
	int kmsg;			/* /dev/kmsg, -1 if unreadable */
	/* statistics (racy counters are fine: they are only reported) */
	uint64_t done, commits, commits_ok, pairs, events, errs;
	uint64_t per_kind[64];
	double per_kind_s[64];		/* time spent in each kind */
	uint64_t errno_count[600];
	uint64_t stat[ST_COUNT];
};

void fuzz_fail(struct fuzz *f, int kind, uint64_t op, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* client.c */
int client_open(struct fuzz *f, struct client *c, int idx);
void client_close(struct fuzz *f, struct client *c);
int fuzz_setup(struct fuzz *f);
void fuzz_teardown(struct fuzz *f);
uint64_t client_new_ud(struct client *c);
void pend_add(struct fuzz *f, struct client *c, uint64_t ud, uint32_t must,
	      bool any, bool vblank, uint64_t op);
void pend_drop(struct client *c, uint64_t ud);
/* Dispatch what is readable now (timeout 0) or wait up to @ms for all. */
void events_drain(struct fuzz *f, struct client *c, int ms, uint64_t op);
void fences_drain(struct fuzz *f, struct client *c, int ms, uint64_t op);
void out_fence_keep(struct fuzz *f, struct client *c, int fence, uint64_t op);

#define STAT(f, s) __atomic_add_fetch(&(f)->stat[s], 1, __ATOMIC_RELAXED)

/* check.c */
bool errno_ok(int err);
/* Record @ret (0 or -errno) of @what; fails the run on a foreign errno. */
int check_ret(struct fuzz *f, uint64_t op, const char *what, int ret);
void klog_open(struct fuzz *f);
void klog_check(struct fuzz *f, uint64_t op);
struct snapshot;
struct snapshot *snapshot_take(struct fuzz *f, int fd);
/* Compare; fails the run with @what on a difference. Frees @a. */
void snapshot_cmp(struct fuzz *f, uint64_t op, struct snapshot *a,
		  struct snapshot *b, const char *what);
void snapshot_free(struct snapshot *s);

/* ops*.c: one operation. */
struct opctx {
	struct fuzz *f;
	struct client *c;
	struct rng r;
	uint64_t idx;
};

typedef void (*op_fn)(struct opctx *o);

struct op_desc {
	const char *name;
	unsigned int weight;
	op_fn fn;
	bool exclusive;			/* takes f->big for writing */
};

extern const struct op_desc op_table[];
extern const unsigned int op_count;
/* Run operation @idx of the run. */
void op_run(struct fuzz *f, uint64_t idx);
/* Its kind and client, without running it (for the minimised listing). */
const char *op_name(struct fuzz *f, uint64_t idx, int *client);

/* Slot helpers (ops_res.c). */
uint32_t pick_fb(struct opctx *o, struct fb_slot **slot);
uint32_t pick_blob(struct opctx *o, int kind);
uint32_t pick_handle(struct opctx *o);
const drmModeModeInfo *pick_mode(struct opctx *o, const struct tconn *k);
const struct tconn *pick_conn_for(struct opctx *o, int crtc_idx, bool wb);
uint32_t fb_make(struct opctx *o, uint32_t w, uint32_t h, uint32_t fourcc);
uint32_t blob_make(struct opctx *o, int kind, const drmModeModeInfo *mode);
void fb_slot_free(int fd, struct fb_slot *s);
void res_free_all(struct client *c);

/* ops_atomic.c */
void op_atomic(struct opctx *o);
void op_atomic_pair(struct opctx *o);
void op_atomic_junk(struct opctx *o);
void op_lease_commit(struct opctx *o);

/* ops_configfs.c */
void op_configfs(struct opctx *o);

/* run.c */
int run_ops(struct fuzz *f, const uint64_t *idx, uint64_t n, int threads,
	    bool progress);
int minimise(struct fuzz *f, const struct failure *orig, double budget_s);

#endif /* ATOMKMS_FUZZ_H */
