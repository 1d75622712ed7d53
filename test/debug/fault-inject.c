// SPDX-License-Identifier: GPL-2.0-only
/*
 * fault-inject: fail each allocation site of atomkms's paths once, in turn
 * (issue 16, item 5), the way syzkaller does: write N to
 * /proc/thread-self/fail-nth, do the operation, read fail-nth back. 0: the
 * N-th fault-able call of this task (a slab or page allocation: failslab
 * and fail_page_alloc, set up here to count GFP_KERNEL allocations and
 * order 0 pages) failed. Not 0: the operation made fewer than N such
 * calls, so every one of them has been failed once: the operation is done.
 *
 * For each N the operation must return 0 or an errno, log nothing but
 * fault injection's one-line notice (the kernel log is read after every
 * N), and work again at once without injection. Operations:
 *
 *   insmod     init_module(2) of atomkms.ko: the module loader's own calls
 *              before atomkms_init are skipped (counted with a load whose
 *              parameters atomkms refuses), the rest failed in turn
 *   bind       probe through sysfs (drivers/atomkms/bind)
 *   addfb      ADDFB2 of a dumb buffer
 *   blob       CREATEPROPBLOB of a mode
 *   dumb       CREATE_DUMB
 *   map        MAP_DUMB and mmap(2) (which pins the pages)
 *   test-only  an atomic TEST_ONLY plane update
 *   flip       a blocking atomic plane update
 *   flip-event a nonblocking flip with PAGE_FLIP_EVENT and OUT_FENCE_PTR
 *              (the event must come, and be the only one, when it succeeds;
 *              none may come when it fails)
 *   modeset    an ALLOW_MODESET commit to another mode
 *   writeback  a commit with WRITEBACK_FB_ID and WRITEBACK_OUT_FENCE_PTR
 *              (the fence must signal when it succeeds)
 *   crc        open crc/control, write "auto", open crc/data, read an entry
 *   configfs   a device made in configfs (mkdir, attribute writes,
 *              symlinks) and enabled: its probe; it must have a working
 *              card when it succeeds, and leave none when it fails
 *
 * Then a smoke test (a mode set, flips with events, a CRC) and the
 * module's removal.
 *
 * Usage: fault-inject [--ko PATH] [--params STR] [--ops a,b,...]
 *                     [--max N] [--log FILE] [--dry] [--probe-stride S]
 *                     [--configfs-stride S] [--insmod-probe-stride S]
                     [--within FUNC]
 *                     [--stacks]
 * --probe-stride S: the insmod and bind passes try every S-th N only (a
 * probe makes hundreds of calls, a second each under KASAN in TCG).
 * --configfs-stride S: the same for the configfs pass (default: the
 * probe stride), which probes twice an N (about 6 s under KASAN).
 * --insmod-probe-stride S: the insmod pass tries every S-th N from where
 * its probe begins (measured: a load's calls less a bind's), as the bind
 * pass fails each of the probe's calls already.
 * --within FUNC: count and fail only calls made under kernel function FUNC.
 * --stacks: each injected fault logs its stack (to find which call an N
 * is); the kernel-log checks then fail the run.
 * Prints an "ok"/"not ok" line per operation (ok when every N was) with
 * its results per N as runs ("1-7 ENOMEM, 8 ok, ..."), then "#
 * fault-inject: done". --log gets one line per N.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"
#include "kms_smoke.h"

#define DRV "/sys/bus/platform/drivers/atomkms"
#define FAIL_DIR "/sys/kernel/debug"

static const char *ko_path = "build/debug-kmod/atomkms.ko";
/* A small device: fewer modes and planes to create, small frames to compose. */
static const char *params =
	"num_crtcs=1 num_overlays=1 pref_width=640 pref_height=480 max_width=1024 max_height=768";
static unsigned int max_n = 20000;
/* The probe passes try every stride-th N (--probe-stride; 1: every one). */
static unsigned int probe_stride = 1;
/* The configfs pass's stride (--configfs-stride; 0: the probe stride). */
static unsigned int cfs_stride;
/*
 * The insmod pass's stride from the probe on (--insmod-probe-stride; 0:
 * the pass's own stride throughout): the bind pass fails each of the probe's calls, and
 * the insmod pass need not fail them all again. insmod_probe_n: the N
 * where insmod_first() found the probe to begin (0: not measured).
 */
static unsigned int insmod_probe_stride, insmod_probe_n;
/* The probe passes start at this N at least (--from: to go back to one). */
static unsigned int from_n = 1;
static const struct op insmod_op, bind_op, configfs_op;
static void *ko_image;
static size_t ko_len;
static int failnth = -1;
static int failed_ops, passed_ops;

/* --- fail-nth --------------------------------------------------------- */

/* --dry: no fault injection (any kernel): each operation runs once. */
static int dry;

static void arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (dry)
		return;
	if (pwrite(failnth, buf, len, 0) != len) {
		perror("fail-nth");
		exit(2);
	}
}

/* What is left of N: 0 if the fault was injected. Disarms. */
static unsigned int disarm(void)
{
	char buf[16] = "";
	unsigned int left;

	if (dry)
		return 1;
	if (pread(failnth, buf, sizeof(buf) - 1, 0) <= 0) {
		perror("fail-nth");
		exit(2);
	}
	left = strtoul(buf, NULL, 10);
	arm(0);
	return left;
}

/*
 * A bug of Linux 6.12's DRM core, not atomkms's, that one fault would turn
 * into an oops ending the run: when drm_sysfs_minor_alloc() fails (its
 * kzalloc or dev_set_name), drm_minor_alloc() keeps its ERR_PTR in
 * minor->kdev, and the drmm release action drm_minor_alloc_release()
 * puts it: put_device(ERR_PTR(-ENOMEM)), a general protection fault in
 * kobject_put() (found by this test at the bind pass's 19th call). Calls
 * made from that function are neither failed nor counted: the fault
 * injectors' stack filter rejects its address range (fail-nth honours it).
 */
static const char *known_bug = "drm_sysfs_minor_alloc";

/*
 * --within FUNC: only calls made under FUNC (a kernel function, its range
 * from /proc/kallsyms) are counted and failed, through the fault
 * injectors' stack filter (require-start/-end, which fail-nth honours):
 * a probe pass aimed at one site, e.g. the DRM core's
 * __drm_crtc_init_with_planes(), whose failure once freed a CRTC still on
 * the mode config's list (see atomkms_crtc_drop_half_init()).
 */
static const char *within;
/* --stacks: each fault logs its stack (a diagnostic: the log checks fail on it). */
static int stacks;

/* The address range [*start, *end) of kernel function @name. */
static int ksym_range(const char *name, unsigned long long *start,
		      unsigned long long *end)
{
	unsigned long long a;
	char line[512], sym[256], t;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	*start = 0;
	*end = ~0ULL;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 &&
		    !strcmp(sym, name))
			*start = a;
	rewind(f);
	while (*start && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 &&
		    a > *start && a < *end)
			*end = a;
	fclose(f);
	if (!*start || *end == ~0ULL) {
		fprintf(stderr, "%s: not in /proc/kallsyms\n", name);
		return -1;
	}
	return 0;
}

/* Set both injectors' stack filter @kind ("reject" or "require") to @name. */
static int filter_range(const char *kind, const char *name)
{
	static const char *const dirs[] = { "failslab", "fail_page_alloc" };
	unsigned long long start, end;
	unsigned int i;

	if (ksym_range(name, &start, &end))
		return -1;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		char path[128], val[32];

		snprintf(val, sizeof(val), "%llu", start);
		snprintf(path, sizeof(path), FAIL_DIR "/%s/%s-start", dirs[i], kind);
		if (write_str(path, val))
			return -1;
		snprintf(val, sizeof(val), "%llu", end);
		snprintf(path, sizeof(path), FAIL_DIR "/%s/%s-end", dirs[i], kind);
		if (write_str(path, val))
			return -1;
	}
	printf("# %s: calls from %s() (0x%llx-0x%llx)\n", kind, name, start, end);
	return 0;
}

static int setup_fault_attrs(void)
{
	static const char *const w[][2] = {
		{ "failslab/ignore-gfp-wait", "N" },
		{ "failslab/verbose", "1" },
		{ "failslab/probability", "0" },
		{ "fail_page_alloc/ignore-gfp-wait", "N" },
		{ "fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "fail_page_alloc/min-order", "0" },
		{ "fail_page_alloc/verbose", "1" },
		{ "fail_page_alloc/probability", "0" },
	};
	char path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		const char *val = w[i][1];

		/* --stacks: verbose=2, a stack per fault, to name an N's call. */
		if (stacks && strstr(w[i][0], "verbose"))
			val = "2";
		snprintf(path, sizeof(path), FAIL_DIR "/%s", w[i][0]);
		if (write_str(path, val)) {
			fprintf(stderr, "%s: %s (a kernel without fault injection?)\n",
				path, strerror(errno));
			return -1;
		}
	}
	/* Linux 6.12's drm_minor_alloc_release() would put its ERR_PTR: an oops. */
	if (filter_range("reject", known_bug))
		return -1;
	/* Without --within, the default: every address (an earlier run may have set it). */
	if (within ? filter_range("require", within) :
	    write_str(FAIL_DIR "/failslab/require-start", "0") ||
	    write_str(FAIL_DIR "/failslab/require-end", "18446744073709551615") ||
	    write_str(FAIL_DIR "/fail_page_alloc/require-start", "0") ||
	    write_str(FAIL_DIR "/fail_page_alloc/require-end", "18446744073709551615"))
		return -1;
	failnth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (failnth < 0) {
		perror("/proc/thread-self/fail-nth");
		return -1;
	}
	return 0;
}

/* --- one operation, each N in turn ------------------------------------ */

struct op {
	const char *name;
	/* The operation: 0 or a negative errno. */
	int (*run)(void);
	/* After a success (injected or not): check it, release what it made. */
	int (*undo)(void);
	/* After a failure: check the driver's state (NULL: nothing to check). */
	int (*after_fail)(void);
	/* Before each N: bring the state the operation starts from. */
	int (*prepare)(void);
	/* The first N to try (the insmod pass skips the loader's calls). */
	unsigned int (*first)(void);
};

/* Results as runs of equal outcomes: "1-7 ENOMEM, 8 ok". */
struct runs {
	char text[4096];
	char last[32];
	unsigned int from, to, step;
};

static void runs_flush(struct runs *r)
{
	size_t n = strlen(r->text);

	if (!r->last[0])
		return;
	if (n + 64 >= sizeof(r->text)) {
		if (!strstr(r->text, "..."))
			strcat(r->text, ", ...");
		return;
	}
	if (r->from == r->to)
		snprintf(r->text + n, sizeof(r->text) - n, "%s%u %s",
			 n ? ", " : "", r->from, r->last);
	else
		snprintf(r->text + n, sizeof(r->text) - n, "%s%u-%u %s",
			 n ? ", " : "", r->from, r->to, r->last);
}

static void runs_add(struct runs *r, unsigned int n, const char *what)
{
	if (r->last[0] && !strcmp(r->last, what) && r->to + r->step == n) {
		r->to = n;
		return;
	}
	runs_flush(r);
	snprintf(r->last, sizeof(r->last), "%s", what);
	r->from = r->to = n;
}

static const char *errname(int err)
{
	static char buf[16];

	switch (-err) {
	case 0: return "ok";
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case ENODEV: return "ENODEV";
	case ENOSPC: return "ENOSPC";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	}
	snprintf(buf, sizeof(buf), "E%d", -err);
	return buf;
}

static void run_op(const struct op *op)
{
	unsigned int n, left = 0, injected = 0, survived = 0, bad = 0;
	unsigned int start = op->first ? op->first() : 1;
	struct runs runs = { .text = "", .step = 1 };
	char first_why[300] = "";
	double t0 = mono_now();
	char klog[256];
	int ret;

	bool probe = op == &insmod_op || op == &bind_op || op == &configfs_op;
	unsigned int step = op == &insmod_op || op == &bind_op ? probe_stride :
			    op == &configfs_op ? (cfs_stride ?: probe_stride) : 1;

	runs.step = step;
	if ((op == &insmod_op || op == &bind_op) && start < from_n)
		start = from_n;

	for (n = start; n <= max_n;
	     n += op == &insmod_op && insmod_probe_stride && insmod_probe_n &&
		  n >= insmod_probe_n ? insmod_probe_stride : step) {
		char what[48];
		int nk;

		if (op->prepare && op->prepare()) {
			bad++;
			note("%s N=%u: prepare: %s\n", op->name, n, why);
			break;
		}
		arm(n);
		ret = op->run();
		left = disarm();
		snprintf(what, sizeof(what), "%s", left ? "ok" : errname(ret));
		if (left && ret) {
			/* Not injected, yet failed: the operation is broken. */
			bad++;
			note("%s N=%u: no fault injected, but %s\n", op->name,
			     n, errname(ret));
			snprintf(what, sizeof(what), "FAILED(%s)", errname(ret));
		}
		if (!left)
			injected++;
		if (!left && !ret)
			survived++;
		if (!ret && op->undo && op->undo()) {
			bad++;
			note("%s N=%u: after success: %s\n", op->name, n, why);
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 ":BROKEN");
		}
		if (ret && op->after_fail && op->after_fail()) {
			bad++;
			note("%s N=%u: after %s: %s\n", op->name, n,
			     errname(ret), why);
			snprintf(what, sizeof(what), "%s:BROKEN", errname(ret));
		}
		/*
		 * The driver works again at once: the operation, no fault. A
		 * probe that survived its fault has just shown a working
		 * device and been undone, and the next N loads it again: its
		 * retry would only double the pass's time.
		 */
		if (!left && !(ret == 0 && probe)) {
			if (op->prepare && op->prepare()) {
				ret = -1;
			} else {
				ret = op->run();
				if (!ret && op->undo && op->undo())
					ret = -1;
			}
			if (ret) {
				bad++;
				note("%s N=%u: retry without fault: %s %s\n",
				     op->name, n, errname(ret), why);
				snprintf(what, sizeof(what), "%s:RETRY-FAILED",
					 errname(ret));
			}
		}
		nk = kmsg_scan(klog, sizeof(klog), NULL);
		if (bad && !first_why[0])
			snprintf(first_why, sizeof(first_why), "N=%u: %s: %s", n,
				 what, why);
		if (nk) {
			if (!first_why[0])
				snprintf(first_why, sizeof(first_why),
					 "N=%u: kernel log: %.200s", n, klog);
			bad++;
			note("%s N=%u: kernel log: %s (%d lines)\n", op->name,
			     n, klog, nk);
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 ":KERNEL-LOG");
		}
		note("%s N=%u: %s%s\n", op->name, n, what,
		     left ? " (no fault left to inject: done)" : "");
		if (left)
			break;
		runs_add(&runs, n, what);
		/* Each broken N is reported; past five, the rest would repeat them. */
		if (bad >= 5) {
			note("%s: five broken N, stopped\n", op->name);
			break;
		}
	}
	runs_flush(&runs);
	if (!left && !bad) {
		bad++;
		note("%s: more than %u calls, stopped\n", op->name, max_n);
	}
	{
		char how[96] = "";
		char every[24] = "every N";

		if (step > 1)
			snprintf(every, sizeof(every), "every %uth N", step);
		if (op == &insmod_op && insmod_probe_stride && insmod_probe_n)
			snprintf(how, sizeof(how),
				 " (%s before the probe at N=%u, every %uth from it)",
				 every, insmod_probe_n, insmod_probe_stride);
		else if (step > 1)
			snprintf(how, sizeof(how), " (%s)", every);
		printf("%s %s: %u sites%s, %u failed with an errno, %u survived, %.1f s: %s\n",
		       bad ? "not ok -" : "ok -", op->name, injected, how,
		       injected - survived, survived, mono_now() - t0,
		       runs.text[0] ? runs.text : "(none)");
	}
	if (bad)
		printf("#   %s: %s\n", op->name, first_why[0] ? first_why : "see the log");
	fflush(stdout);
	if (bad)
		failed_ops++;
	else
		passed_ops++;
}

/* --- probe: insmod and bind --------------------------------------------- */

/*
 * devtmpfs makes a device's node as the device is added, and the driver
 * core goes on when that fails (an injected fault in devtmpfs's own
 * allocations): the device is registered, its node missing, and udev
 * would make it from the uevent. Do as udev does for atomkms's card
 * nodes, from sysfs; return how many were made.
 */
static int make_card_nodes(void)
{
	char path[96], dev[32];
	unsigned int maj, min;
	int made = 0;
	glob_t g;
	size_t i;
	FILE *f;

	/* The default device is "atomkms", configfs's "atomkms.N.auto". */
	if (glob("/sys/bus/platform/devices/atomkms*/drm/card*/dev", 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		const char *card = strstr(g.gl_pathv[i], "/drm/card");

		f = fopen(g.gl_pathv[i], "r");
		if (!f)
			continue;
		if (fgets(dev, sizeof(dev), f) &&
		    sscanf(dev, "%u:%u", &maj, &min) == 2) {
			snprintf(path, sizeof(path), "/dev/dri/%.*s",
				 (int)strcspn(card + 5, "/"), card + 5);
			if (access(path, F_OK) &&
			    !mknod(path, S_IFCHR | 0666, makedev(maj, min)))
				made++;
		}
		fclose(f);
	}
	globfree(&g);
	return made;
}

/* A load, then a short look at the device: it opens and has a pipe. */
static int device_works(void)
{
	struct kms_pipe p;
	int fd = atomkms_open();

	if (fd < 0 && make_card_nodes()) {
		note("  devtmpfs dropped the card's node (udev would make it): made it\n");
		fd = atomkms_open();
	}
	if (fd < 0)
		return fail_why("no device");
	if (kms_pipe_find(fd, &p)) {
		close(fd);
		return fail_why("device has no pipe");
	}
	close(fd);
	return 0;
}

static int insmod_run(void)
{
	return ko_load(ko_image, ko_len, params);
}

static int insmod_undo(void)
{
	int ret = device_works();

	if (ko_unload_wait(3000))
		return fail_why("rmmod: %s", strerror(errno));
	return ret;
}

static int insmod_after_fail(void)
{
	if (ko_loaded())
		return fail_why("load failed, but the module is there");
	return 0;
}

/*
 * The module loader's own calls come before atomkms_init's: count them
 * with a load that atomkms_init refuses at once (num_crtcs=0: its first
 * call is the topology's allocation, then it fails with EINVAL), and start
 * a few calls before.
 */
static unsigned int probe_start(void);

static unsigned int insmod_first(void)
{
	unsigned int big = 1000000, left, used;
	int ret;

	if (dry)
		return 1;
	arm(big);
	ret = ko_load(ko_image, ko_len, "num_crtcs=0");
	left = disarm();
	used = big - left;
	kmsg_scan(NULL, 0, NULL);
	if (ret != -EINVAL) {
		printf("# insmod num_crtcs=0: %s, not EINVAL: failing every call\n",
		       errname(ret));
		return 1;
	}
	printf("# insmod: the module loader makes about %u counted calls before atomkms_init: starting at N=%u\n",
	       used ? used - 1 : 0, used > 8 ? used - 8 : 1);
	if (insmod_probe_stride)
		insmod_probe_n = probe_start();
	return used > 8 ? used - 8 : 1;
}

/*
 * Where the probe begins in a load: the calls of a whole load less those
 * of a bind through sysfs, which the probe ends (16 calls of margin, as
 * the counts vary a little). 0 when it cannot be measured.
 */
static unsigned int probe_start(void)
{
	unsigned int big = 1000000, load, bind;
	int bfd, ret;

	if (within)
		return 0;
	arm(big);
	ret = ko_load(ko_image, ko_len, params);
	load = big - disarm();
	if (ret)
		return 0;
	bfd = open(DRV "/bind", O_WRONLY | O_CLOEXEC);
	if (bfd < 0 || write_str(DRV "/unbind", "atomkms")) {
		if (bfd >= 0)
			close(bfd);
		ko_unload_wait(3000);
		return 0;
	}
	arm(big);
	ret = pwrite(bfd, "atomkms", 7, 0) == 7 ? 0 : -1;
	bind = big - disarm();
	close(bfd);
	ko_unload_wait(3000);
	kmsg_scan(NULL, 0, NULL);
	if (ret || bind + 16 >= load)
		return 0;
	printf("# insmod: a load makes %u counted calls, a bind %u: the probe begins near N=%u\n",
	       load, bind, load - bind - 16);
	return load - bind - 16;
}

/* Opened once: the VFS's own calls in open(2) are not the probe's. */
static int bind_fd = -1;

static int bind_run(void)
{
	ssize_t n = pwrite(bind_fd, "atomkms", 7, 0);

	return n == 7 ? 0 : n < 0 ? -errno : -EIO;
}

static int bound(void)
{
	return access("/sys/bus/platform/devices/atomkms/driver", F_OK) == 0;
}

static int bind_undo(void)
{
	int ret = device_works();

	if (write_str(DRV "/unbind", "atomkms"))
		return fail_why("unbind: %s", strerror(errno));
	return ret;
}

static int bind_after_fail(void)
{
	if (bound())
		return fail_why("bind failed, but the device is bound");
	return 0;
}

/* --- the device's operations ------------------------------------------- */

static int fd = -1;
static struct kms_pipe pipe_;
static drmModeModeInfo mode2;		/* another mode, for the modeset */
static uint32_t blob1, blob2, cur_blob;
static struct dumb_fb fbs[2], wbfb;
static struct wb_conn wb;
static int flip_idx;
static uint32_t handle, mapped_size;	/* a dumb buffer for addfb and map */
static uint32_t made;			/* what run() made, for undo() */
static void *map;
static struct areq req;
static int out_fence = -1, wb_fence = -1;
static unsigned int events;
static struct crc_reader crc = { .data = -1 };

static void flip_handler(int fd_, unsigned int seq, unsigned int sec,
			 unsigned int usec, void *data)
{
	(void)fd_; (void)seq; (void)sec; (void)usec; (void)data;
	events++;
}

static drmEventContext evctx = {
	.version = 2,
	.page_flip_handler = flip_handler,
};

/* Any event that comes within @ms. */
static void drain_events(int ms)
{
	while (wait_event(fd, &evctx, ms) > 0)
		;
}

static int dev_open(void)
{
	drmModeConnector *c;
	int i, w, h;

	fd = atomkms_open();
	if (fd < 0)
		return fail_why("no device");
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		return fail_why("writeback cap: %s", strerror(errno));
	if (kms_pipe_find(fd, &pipe_))
		return fail_why("no pipe");
	/* Another mode of the connector, of another size. */
	c = drmModeGetConnector(fd, pipe_.conn);
	for (i = 0; c && i < c->count_modes; i++)
		if (c->modes[i].hdisplay != pipe_.mode.hdisplay &&
		    c->modes[i].hdisplay <= 1024 && c->modes[i].vdisplay <= 768 &&
		    !(c->modes[i].flags & DRM_MODE_FLAG_INTERLACE)) {
			mode2 = c->modes[i];
			break;
		}
	drmModeFreeConnector(c);
	if (!mode2.hdisplay)
		return fail_why("the connector has one mode size only");
	w = pipe_.mode.hdisplay > mode2.hdisplay ? pipe_.mode.hdisplay : mode2.hdisplay;
	h = pipe_.mode.vdisplay > mode2.vdisplay ? pipe_.mode.vdisplay : mode2.vdisplay;
	for (i = 0; i < 2; i++)
		if (dumb_fb_create(fd, w, h, &fbs[i]))
			return fail_why("dumb fb: %s", strerror(errno));
	if (drmModeCreatePropertyBlob(fd, &pipe_.mode, sizeof(pipe_.mode), &blob1) ||
	    drmModeCreatePropertyBlob(fd, &mode2, sizeof(mode2), &blob2))
		return fail_why("mode blob: %s", strerror(errno));
	if (wb_conn_find(fd, pipe_.crtc_idx, &wb))
		return fail_why("no writeback connector");
	if (dumb_fb_create(fd, pipe_.mode.hdisplay, pipe_.mode.vdisplay, &wbfb))
		return fail_why("writeback fb: %s", strerror(errno));
	/* A buffer for addfb and map: 64 KiB, 16 pages. */
	{
		struct drm_mode_create_dumb cd = { .width = 128, .height = 128, .bpp = 32 };

		if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
			return fail_why("dumb: %s", strerror(errno));
		handle = cd.handle;
		mapped_size = cd.size;
	}
	/* The pipe on, with the writeback connector attached. */
	areq_init(&req, fd);
	areq_modeset(&req, &pipe_, blob1, NULL);
	areq_plane(&req, pipe_.plane, pipe_.crtc, fbs[0].fb_id,
		   pipe_.mode.hdisplay, pipe_.mode.vdisplay, 0, 0);
	areq_add(&req, wb.conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", pipe_.crtc);
	if (areq_commit(&req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		return fail_why("mode set: %s", strerror(errno));
	cur_blob = blob1;
	return 0;
}

static void dev_close(void)
{
	int i;

	if (fd < 0)
		return;
	kms_disable_all(fd);
	for (i = 0; i < 2; i++)
		dumb_fb_destroy(fd, &fbs[i]);
	dumb_fb_destroy(fd, &wbfb);
	wb_conn_fini(&wb);
	close(fd);
	fd = -1;
}

static drmModeModeInfo *cur_mode(void)
{
	return cur_blob == blob2 ? &mode2 : &pipe_.mode;
}

/* ADDFB2 */
static int addfb_run(void)
{
	uint32_t h[4] = { handle }, p[4] = { 128 * 4 }, o[4] = { 0 };

	made = 0;
	return drmModeAddFB2(fd, 128, 128, DRM_FORMAT_XRGB8888, h, p, o,
			     &made, 0) ? -errno : 0;
}

static int addfb_undo(void)
{
	drmModeFBPtr f = drmModeGetFB(fd, made);
	int ok = f && f->width == 128;

	drmModeFreeFB(f);
	if (drmModeRmFB(fd, made))
		return fail_why("RMFB: %s", strerror(errno));
	return ok ? 0 : fail_why("the framebuffer is not there");
}

/* CREATEPROPBLOB */
static int blob_run(void)
{
	made = 0;
	return drmModeCreatePropertyBlob(fd, &mode2, sizeof(mode2), &made) ?
	       -errno : 0;
}

static int blob_undo(void)
{
	drmModePropertyBlobPtr b = drmModeGetPropertyBlob(fd, made);
	int ok = b && b->length == sizeof(mode2) &&
		 !memcmp(b->data, &mode2, sizeof(mode2));

	drmModeFreePropertyBlob(b);
	if (drmModeDestroyPropertyBlob(fd, made))
		return fail_why("DESTROYPROPBLOB: %s", strerror(errno));
	return ok ? 0 : fail_why("the blob reads back wrong");
}

/* CREATE_DUMB */
static int dumb_run(void)
{
	struct drm_mode_create_dumb cd = { .width = 64, .height = 64, .bpp = 32 };

	made = 0;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
		return -errno;
	made = cd.handle;
	return 0;
}

static int dumb_undo(void)
{
	struct drm_mode_destroy_dumb dd = { .handle = made };

	return drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd) ?
	       fail_why("DESTROY_DUMB: %s", strerror(errno)) : 0;
}

/* MAP_DUMB and mmap */
static int map_run(void)
{
	struct drm_mode_map_dumb md = { .handle = handle };

	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md))
		return -errno;
	map = mmap(NULL, mapped_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   md.offset);
	return map == MAP_FAILED ? -errno : 0;
}

static int map_undo(void)
{
	volatile uint32_t *px = map;
	unsigned int i;
	int ok = 1;

	/* Every page written and read back. */
	for (i = 0; i < mapped_size / 4; i += 1024)
		px[i] = i;
	for (i = 0; i < mapped_size / 4; i += 1024)
		ok &= px[i] == i;
	munmap(map, mapped_size);
	return ok ? 0 : fail_why("the mapping reads back wrong");
}

/* Atomic commits: a plane update to the other framebuffer. */
static void plane_req(void)
{
	drmModeModeInfo *m = cur_mode();

	areq_init(&req, fd);
	areq_plane(&req, pipe_.plane, pipe_.crtc, fbs[flip_idx ^ 1].fb_id,
		   m->hdisplay, m->vdisplay, 0, 0);
}

static int test_only_prepare(void)
{
	plane_req();
	return 0;
}

static int test_only_run(void)
{
	return areq_commit(&req, DRM_MODE_ATOMIC_TEST_ONLY, NULL);
}

/* The plane shows framebuffer @fb_id, as the last commit left it. */
static int plane_shows(uint32_t fb_id)
{
	drmModePlanePtr p = drmModeGetPlane(fd, pipe_.plane);
	int ok = p && p->fb_id == fb_id;

	drmModeFreePlane(p);
	return ok ? 0 : fail_why("the plane does not show fb %u", fb_id);
}

static int test_only_undo(void)
{
	return plane_shows(fbs[flip_idx].fb_id);
}

static int flip_run(void)
{
	return areq_commit(&req, 0, NULL);
}

static int flip_undo(void)
{
	flip_idx ^= 1;
	return plane_shows(fbs[flip_idx].fb_id);
}

static int flip_after_fail(void)
{
	return plane_shows(fbs[flip_idx].fb_id);
}

static int flip_event_prepare(void)
{
	plane_req();
	out_fence = -1;
	areq_add(&req, pipe_.crtc, DRM_MODE_OBJECT_CRTC, "OUT_FENCE_PTR",
		 (uint64_t)(uintptr_t)&out_fence);
	events = 0;
	return 0;
}

static int flip_event_run(void)
{
	return areq_commit(&req, DRM_MODE_ATOMIC_NONBLOCK |
			   DRM_MODE_PAGE_FLIP_EVENT, NULL);
}

static int flip_event_undo(void)
{
	int ret = 0;

	while (!events)
		if (wait_event(fd, &evctx, 1000) <= 0)
			return fail_why("no flip event within 1 s");
	if (out_fence < 0)
		ret = fail_why("no out-fence");
	else if (fence_wait(out_fence, 1000) != 1)
		ret = fail_why("the out-fence did not signal");
	if (out_fence >= 0)
		close(out_fence);
	drain_events(20);
	if (events != 1)
		ret = fail_why("%u events for one flip", events);
	if (!ret)
		ret = flip_undo();
	return ret;
}

static int flip_event_after_fail(void)
{
	drain_events(50);
	if (events)
		return fail_why("an event for a failed commit");
	if (out_fence >= 0) {
		close(out_fence);
		return fail_why("an out-fence for a failed commit");
	}
	return flip_after_fail();
}

/* ALLOW_MODESET to the other mode (the plane follows its size). */
static int modeset_prepare(void)
{
	uint32_t next = cur_blob == blob1 ? blob2 : blob1;
	drmModeModeInfo *m = next == blob2 ? &mode2 : &pipe_.mode;

	areq_init(&req, fd);
	areq_add(&req, pipe_.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", next);
	areq_plane(&req, pipe_.plane, pipe_.crtc, fbs[flip_idx].fb_id,
		   m->hdisplay, m->vdisplay, 0, 0);
	/* The writeback connector would need a frame of the mode's size. */
	areq_add(&req, wb.conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	return 0;
}

static int modeset_run(void)
{
	return areq_commit(&req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
}

static int crtc_mode_is(const drmModeModeInfo *m)
{
	drmModeCrtcPtr c = drmModeGetCrtc(fd, pipe_.crtc);
	int ok = c && c->mode_valid && c->mode.hdisplay == m->hdisplay &&
		 c->mode.vdisplay == m->vdisplay;

	drmModeFreeCrtc(c);
	return ok ? 0 : fail_why("the CRTC is not in mode %ux%u",
				 m->hdisplay, m->vdisplay);
}

static int modeset_undo(void)
{
	cur_blob = cur_blob == blob1 ? blob2 : blob1;
	return crtc_mode_is(cur_mode());
}

static int modeset_after_fail(void)
{
	return crtc_mode_is(cur_mode());
}

/* Back to the first mode, the writeback connector attached. */
static int modeset_restore(void)
{
	areq_init(&req, fd);
	areq_add(&req, pipe_.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob1);
	areq_plane(&req, pipe_.plane, pipe_.crtc, fbs[flip_idx].fb_id,
		   pipe_.mode.hdisplay, pipe_.mode.vdisplay, 0, 0);
	areq_add(&req, wb.conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", pipe_.crtc);
	if (areq_commit(&req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		return fail_why("back to the first mode: %s", strerror(errno));
	cur_blob = blob1;
	return 0;
}

/* A writeback job with its out-fence. */
static int writeback_prepare(void)
{
	areq_init(&req, fd);
	wb_fence = -1;
	areq_add(&req, wb.conn, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID",
		 wbfb.fb_id);
	areq_add(&req, wb.conn, DRM_MODE_OBJECT_CONNECTOR,
		 "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&wb_fence);
	return 0;
}

static int writeback_run(void)
{
	return areq_commit(&req, 0, NULL);
}

static int writeback_undo(void)
{
	int st;

	if (wb_fence < 0)
		return fail_why("no writeback out-fence");
	st = fence_wait(wb_fence, 3000);
	close(wb_fence);
	return st == 1 ? 0 : fail_why("the writeback fence: %d", st);
}

static int writeback_after_fail(void)
{
	if (wb_fence >= 0) {
		close(wb_fence);
		return fail_why("an out-fence for a failed writeback commit");
	}
	return 0;
}

/* CRC: control, data, one entry. */
static int crc_run(void)
{
	struct crc_entry e;
	int ret;

	ret = crc_reader_start(&crc);
	if (ret)
		return ret;
	return crc_reader_next(&crc, &e, 3000);
}

static int crc_undo(void)
{
	crc_reader_stop(&crc);
	return 0;
}

static int crc_after_fail(void)
{
	crc_reader_stop(&crc);
	return 0;
}

/* --- configfs: a device made and enabled -------------------------------- */

#define CFS "/sys/kernel/config/atomkms/fi"

/* One pipe, as a vkms script would make it; each step can fail. */
static const char *const cfs_script[][2] = {
	{ "mkdir", CFS },
	{ "mkdir", CFS "/crtcs/c" },
	{ "mkdir", CFS "/planes/p" },
	{ "put", CFS "/planes/p/type=1" },
	{ "ln", CFS "/crtcs/c:" CFS "/planes/p/possible_crtcs/c" },
	{ "mkdir", CFS "/encoders/e" },
	{ "ln", CFS "/crtcs/c:" CFS "/encoders/e/possible_crtcs/c" },
	{ "mkdir", CFS "/connectors/n" },
	{ "ln", CFS "/encoders/e:" CFS "/connectors/n/possible_encoders/e" },
	{ "put", CFS "/enabled=1" },
};

static int cfs_step(const char *op, const char *arg)
{
	char path[256];
	char *sep;

	snprintf(path, sizeof(path), "%s", arg);
	if (!strcmp(op, "mkdir"))
		return mkdir(path, 0755) ? -errno : 0;
	sep = strchr(path, !strcmp(op, "ln") ? ':' : '=');
	if (!sep)
		return -EINVAL;
	*sep++ = 0;
	if (!strcmp(op, "ln"))
		return symlink(path, sep) ? -errno : 0;
	return write_str(path, sep);
}

/* atomkms cards that open and have a pipe. */
static int cards_with_pipe(void)
{
	uint64_t mask = atomkms_card_mask();
	char path[32];
	int n = 0;

	for (; mask; mask &= mask - 1) {
		struct kms_pipe p;
		int cfd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", __builtin_ctzll(mask));
		cfd = open(path, O_RDWR | O_CLOEXEC);
		if (cfd < 0)
			continue;
		drmSetClientCap(cfd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
		drmSetClientCap(cfd, DRM_CLIENT_CAP_ATOMIC, 1);
		if (!kms_pipe_find(cfd, &p))
			n++;
		close(cfd);
	}
	return n;
}

static int cfs_cards;

/* Undo the script, whatever part of it ran. */
static void cfs_teardown(void)
{
	atomkms_cfs_remove(CFS);
}

static int configfs_prepare(void)
{
	if (access("/sys/kernel/config/atomkms", F_OK))
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	cfs_teardown();
	if (!access(CFS, F_OK))
		return fail_why("%s is left from the last N", CFS);
	cfs_cards = cards_with_pipe();
	return 0;
}

static int configfs_run(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cfs_script); i++) {
		ret = cfs_step(cfs_script[i][0], cfs_script[i][1]);
		if (ret)
			return ret;
	}
	return 0;
}

static int configfs_undo(void)
{
	int n = cards_with_pipe();

	if (n != cfs_cards + 1 && make_card_nodes())
		n = cards_with_pipe();
	cfs_teardown();
	if (n != cfs_cards + 1)
		return fail_why("enabled, but %d new cards with a pipe", n - cfs_cards);
	if (!access(CFS, F_OK))
		return fail_why("%s does not go away", CFS);
	if (cards_with_pipe() != cfs_cards)
		return fail_why("the card stays after the device is removed");
	return 0;
}

static int configfs_after_fail(void)
{
	int n = cards_with_pipe();

	cfs_teardown();
	if (n != cfs_cards)
		return fail_why("failed, yet %d new cards", n - cfs_cards);
	if (!access(CFS, F_OK))
		return fail_why("%s does not go away", CFS);
	return 0;
}

static const struct op dev_ops[] = {
	{ "addfb", addfb_run, addfb_undo, NULL, NULL, NULL },
	{ "blob", blob_run, blob_undo, NULL, NULL, NULL },
	{ "dumb", dumb_run, dumb_undo, NULL, NULL, NULL },
	{ "map", map_run, map_undo, NULL, NULL, NULL },
	{ "test-only", test_only_run, test_only_undo, test_only_undo,
	  test_only_prepare, NULL },
	{ "flip", flip_run, flip_undo, flip_after_fail, test_only_prepare, NULL },
	{ "flip-event", flip_event_run, flip_event_undo, flip_event_after_fail,
	  flip_event_prepare, NULL },
	{ "modeset", modeset_run, modeset_undo, modeset_after_fail,
	  modeset_prepare, NULL },
	{ "writeback", writeback_run, writeback_undo, writeback_after_fail,
	  writeback_prepare, NULL },
	{ "crc", crc_run, crc_undo, crc_after_fail, NULL, NULL },
};

static const struct op configfs_op = {
	"configfs", configfs_run, configfs_undo, configfs_after_fail,
	configfs_prepare, NULL,
};

static const struct op insmod_op = {
	"insmod", insmod_run, insmod_undo, insmod_after_fail, NULL, insmod_first,
};
static const struct op bind_op = {
	"bind", bind_run, bind_undo, bind_after_fail, NULL, NULL,
};

static const char *ops = "insmod,bind,addfb,blob,dumb,map,test-only,flip,flip-event,modeset,writeback,crc,configfs";

static int want(const char *name)
{
	size_t n = strlen(name);
	const char *p = ops;

	while ((p = strstr(p, name))) {
		if ((p == ops || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static void result(const char *name, int ok, const char *msg)
{
	printf("%s - %s%s%s\n", ok ? "ok" : "not ok", name, msg[0] ? ": " : "",
	       msg);
	fflush(stdout);
	if (ok)
		passed_ops++;
	else
		failed_ops++;
}

int main(int argc, char **argv)
{
	char klog[256];
	unsigned int i;
	int ret;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--ko") && i + 1 < (unsigned int)argc)
			ko_path = argv[++i];
		else if (!strcmp(argv[i], "--params") && i + 1 < (unsigned int)argc)
			params = argv[++i];
		else if (!strcmp(argv[i], "--ops") && i + 1 < (unsigned int)argc)
			ops = argv[++i];
		else if (!strcmp(argv[i], "--max") && i + 1 < (unsigned int)argc)
			max_n = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--probe-stride") && i + 1 < (unsigned int)argc)
			probe_stride = strtoul(argv[++i], NULL, 0) ?: 1;
		else if (!strcmp(argv[i], "--configfs-stride") && i + 1 < (unsigned int)argc)
			cfs_stride = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--insmod-probe-stride") && i + 1 < (unsigned int)argc)
			insmod_probe_stride = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--from") && i + 1 < (unsigned int)argc)
			from_n = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--within") && i + 1 < (unsigned int)argc)
			within = argv[++i];
		else if (!strcmp(argv[i], "--stacks"))
			stacks = 1;
		else if (!strcmp(argv[i], "--dry"))
			dry = 1;
		else if (!strcmp(argv[i], "--log") && i + 1 < (unsigned int)argc)
			detail = fopen(argv[++i], "w");
		else {
			fprintf(stderr, "usage: fault-inject [--ko PATH] [--params STR] [--ops a,b,..] [--max N] [--log FILE]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (ko_read(ko_path, &ko_image, &ko_len)) {
		fprintf(stderr, "%s: cannot read\n", ko_path);
		return 2;
	}
	if (!dry && setup_fault_attrs())
		return 2;
	kmsg_open();
	printf("# atomkms parameters: %s\n", params);

	/* Probe, from the module's load. */
	if (ko_loaded() && ko_unload_wait(3000)) {
		result("rmmod before the test", 0, strerror(errno));
		goto out;
	}
	if (want("insmod"))
		run_op(&insmod_op);

	ret = ko_load(ko_image, ko_len, params);
	if (ret) {
		result("insmod", 0, strerror(-ret));
		goto out;
	}
	/* Probe, from sysfs. */
	if (want("bind")) {
		bind_fd = open(DRV "/bind", O_WRONLY | O_CLOEXEC);
		if (bind_fd < 0 || write_str(DRV "/unbind", "atomkms"))
			result("unbind", 0, strerror(errno));
		else
			run_op(&bind_op);
		if (!bound() && write_str(DRV "/bind", "atomkms"))
			result("bind", 0, strerror(errno));
	}

	/* The device's operations, on one client. */
	if (dev_open()) {
		result("device set-up", 0, why);
		goto out;
	}
	if (crc_reader_init(&crc, fd, pipe_.crtc_idx)) {
		result("CRC directory", 0, strerror(errno));
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(dev_ops); i++) {
		if (!want(dev_ops[i].name))
			continue;
		why[0] = 0;
		run_op(&dev_ops[i]);
		if (!strcmp(dev_ops[i].name, "modeset") && modeset_restore())
			result("modeset restore", 0, why);
	}
	{
		struct drm_mode_destroy_dumb dd = { .handle = handle };

		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
	}
	dev_close();

	/* Device creation from configfs, beside the first device. */
	if (want("configfs")) {
		why[0] = 0;
		run_op(&configfs_op);
	}

	/* The driver works: a mode set, flips with events, a CRC. */
	ret = kms_smoke(10, why, sizeof(why));
	result("smoke test after the faults", !ret, why);

	/* And lets go: the module unloads. */
	ret = ko_unload_wait(5000);
	result("rmmod", !ret, ret ? strerror(-ret) : "");
out:
	ret = kmsg_scan(klog, sizeof(klog), NULL);
	result("kernel log after the last operation", !ret, klog);
	/* qemu/jobs/fault-inject.sh counts the "ok" and "not ok" lines. */
	printf("# fault-inject: done, %d ok, %d not ok\n", passed_ops, failed_ops);
	return failed_ops ? 1 : 0;
}
