// SPDX-License-Identifier: GPL-2.0-only
/*
 * lifecycle: unbind/bind of the atomkms device, and unload/load of the
 * module, cycle after cycle, under load (issue 16, item 6).
 *
 * Each cycle starts a load of its own, several processes that each hold
 * the device in some way and keep it busy:
 *
 *   committer  the DRM master: nonblocking page flips with events and
 *              OUT_FENCE_PTR on every pipe, a writeback job with its
 *              out-fence every third flip, the last 16 out-fences kept
 *              open
 *   crc N      a CRC reader on CRTC N (crc/data open and read)
 *   mmap       mapped dumb buffers (framebuffers too) written all the
 *              time, a blob and a dumb buffer made and freed each round
 *   vblank     vblank events requested and read
 *
 * Once the device is gone under them, each keeps what it holds (fds,
 * mappings, which it goes on writing, fences, framebuffers) until it is
 * killed.
 *
 * bind mode: unbind while the load runs; odd cycles kill the load, then
 * bind; even cycles bind while the old clients still hold the old device
 * and kill them after the new one passed its smoke test.
 * module mode: rmmod while the load runs must fail (EAGAIN or EBUSY: in
 * use); odd cycles unbind first; then the load is killed mid-flight and
 * rmmod must succeed (within 5 s: out-fences are let go by a reaper),
 * then insmod.
 *
 * configfs mode: the device is a configfs one (the module loaded with
 * create_default_dev=0, two pipes with writeback made in
 * /sys/kernel/config/atomkms/lc); each cycle writes enabled=0 under the
 * load (drm_dev_unplug() under its clients); odd cycles kill the load,
 * then enable, even ones enable while the old clients still hold the old
 * device. At the end the device is disabled and removed before rmmod.
 *
 * After each bind or load: a smoke test (a mode set, page flips with
 * events, a CRC). After each cycle: the kernel log since the last one
 * must be clean.
 *
 * Usage: lifecycle bind|module|configfs [--cycles N] [--ko PATH] [--params STR]
 *                  [--load-ms MS] [--log FILE]
 * The module must not be loaded. Prints "ok"/"not ok" for each failed
 * cycle and one line a cycle to --log, then "ok - MODE: N cycles" with
 * the time a cycle took.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"
#include "kms_smoke.h"

#define DRV "/sys/bus/platform/drivers/atomkms"
#define MAX_PIPES 8
#define MAX_KIDS 16

static const char *ko_path = "build/debug-kmod/atomkms.ko";
static const char *params =
	"num_crtcs=2 num_overlays=1 pref_width=640 pref_height=480 max_width=1024 max_height=768";
static void *ko_image;
static size_t ko_len;
static const char *log_path;
static int ready_pipe[2];

/* What the load did, shared with its processes (counts since the start). */
struct load_stats {
	unsigned long flips, wb_jobs, events, crcs, mmap_rounds, vblanks;
};
static struct load_stats *stats;

/* --- the load: one process each ------------------------------------------ */

static void tell_ready(char c)
{
	int null;

	if (write(ready_pipe[1], &c, 1) != 1)
		_exit(3);
	/* Set up: what fails from now on is the device going away. */
	null = open("/dev/null", O_WRONLY);
	if (c == 'r' && null >= 0)
		dup2(null, 2);
	if (null >= 0)
		close(null);
}

/* The device is gone (or broken): hold everything until killed. */
static void __attribute__((noreturn)) hold(void)
{
	for (;;)
		pause();
}

/* Whether this client has told the parent it is ready (once only). */
static bool told;

static void ready(void)
{
	if (!told)
		tell_ready('r');
	told = true;
}

/* Set up, then the device went away: ready (if not yet), and hold. */
static void __attribute__((noreturn)) gone(void)
{
	ready();
	hold();
}

/* Could not set up: tell the parent, and hold. */
static void __attribute__((noreturn)) broken(void)
{
	tell_ready('F');
	hold();
}

static void flip_handler(int fd, unsigned int seq, unsigned int sec,
			 unsigned int usec, void *data)
{
	(void)fd; (void)seq; (void)sec; (void)usec;
	if (data)
		(*(int *)data)--;
	__atomic_add_fetch(&stats->events, 1, __ATOMIC_RELAXED);
}

static void committer(void)
{
	drmEventContext ev = { .version = 2, .page_flip_handler = flip_handler };
	struct kms_pipe p[MAX_PIPES];
	struct dumb_fb fb[MAX_PIPES][2], wbfb[MAX_PIPES];
	struct wb_conn wb[MAX_PIPES];
	int has_wb[MAX_PIPES] = { 0 }, pending[MAX_PIPES] = { 0 };
	int fences[16], nf = 0, np, i, fd;
	unsigned long round = 0;
	struct areq *r = calloc(1, sizeof(*r));
	uint32_t blob;

	for (i = 0; i < 16; i++)
		fences[i] = -1;
	fd = atomkms_open();
	if (fd < 0)
		broken();
	/* Before wb_conn_find() shows it the writeback connectors. */
	np = kms_pipes_find(fd, p, MAX_PIPES);
	if (np <= 0)
		broken();
	areq_init(r, fd);
	for (i = 0; i < np; i++) {
		if (dumb_fb_create(fd, p[i].mode.hdisplay, p[i].mode.vdisplay, &fb[i][0]) ||
		    dumb_fb_create(fd, p[i].mode.hdisplay, p[i].mode.vdisplay, &fb[i][1]) ||
		    drmModeCreatePropertyBlob(fd, &p[i].mode, sizeof(p[i].mode), &blob))
			broken();
		memset(fb[i][0].pixels, 0x30 + i, fb[i][0].size);
		memset(fb[i][1].pixels, 0xa0 + i, fb[i][1].size);
		areq_modeset(r, &p[i], blob, &fb[i][0]);
		if (!wb_conn_find(fd, p[i].crtc_idx, &wb[i]) &&
		    !dumb_fb_create(fd, p[i].mode.hdisplay, p[i].mode.vdisplay, &wbfb[i])) {
			has_wb[i] = 1;
			areq_add(r, wb[i].conn, DRM_MODE_OBJECT_CONNECTOR,
				 "CRTC_ID", p[i].crtc);
		}
	}
	if (areq_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		broken();

	for (;;) {
		for (i = 0; i < np; i++) {
			int f = -1, wf = -1, err;

			if (pending[i])
				continue;
			areq_init(r, fd);
			areq_plane(r, p[i].plane, p[i].crtc,
				   fb[i][round & 1].fb_id, p[i].mode.hdisplay,
				   p[i].mode.vdisplay, 0, 0);
			areq_add(r, p[i].crtc, DRM_MODE_OBJECT_CRTC,
				 "OUT_FENCE_PTR", (uint64_t)(uintptr_t)&f);
			if (has_wb[i] && round % 3 == 0) {
				areq_add(r, wb[i].conn, DRM_MODE_OBJECT_CONNECTOR,
					 "WRITEBACK_FB_ID", wbfb[i].fb_id);
				areq_add(r, wb[i].conn, DRM_MODE_OBJECT_CONNECTOR,
					 "WRITEBACK_OUT_FENCE_PTR",
					 (uint64_t)(uintptr_t)&wf);
			}
			err = areq_commit(r, DRM_MODE_ATOMIC_NONBLOCK |
					  DRM_MODE_PAGE_FLIP_EVENT, &pending[i]);
			if (err == -EBUSY)
				continue;
			if (err)
				gone();
			pending[i]++;
			__atomic_add_fetch(&stats->flips, 1, __ATOMIC_RELAXED);
			if (wf >= 0)
				__atomic_add_fetch(&stats->wb_jobs, 1, __ATOMIC_RELAXED);
			/* Keep the newest 16 out-fences: close the oldest. */
			if (fences[nf % 16] >= 0)
				close(fences[nf % 16]);
			fences[nf++ % 16] = f;
			if (wf >= 0) {
				if (fences[nf % 16] >= 0)
					close(fences[nf % 16]);
				fences[nf++ % 16] = wf;
			}
		}
		round++;
		if (wait_event(fd, &ev, 200) < 0)
			gone();
		if (round > 2 * (unsigned long)np)
			ready();
	}
}

static void crc_client(int idx)
{
	struct crc_reader c = { .data = -1 };
	struct crc_entry e;
	int fd;

	fd = atomkms_open();
	if (fd < 0 || crc_reader_init(&c, fd, idx) || crc_reader_start(&c))
		broken();
	for (;;) {
		int ret = crc_reader_next(&c, &e, 500);

		if (ret && ret != -ETIMEDOUT)
			gone();
		if (!ret) {
			__atomic_add_fetch(&stats->crcs, 1, __ATOMIC_RELAXED);
			ready();
		}
	}
}

static void mmap_client(void)
{
	struct dumb_fb fb[3];
	struct drm_mode_create_dumb cd;
	struct drm_mode_destroy_dumb dd;
	drmModeModeInfo m = { .hdisplay = 640 };
	uint32_t blob;
	unsigned int round = 0;
	int fd, i;

	fd = atomkms_open();
	if (fd < 0)
		broken();
	for (i = 0; i < 3; i++)
		if (dumb_fb_create(fd, 256, 256, &fb[i]))
			broken();
	ready();
	for (;; round++) {
		for (i = 0; i < 3; i++)
			memset(fb[i].pixels, round, fb[i].size);
		cd = (struct drm_mode_create_dumb){ .width = 64, .height = 64, .bpp = 32 };
		if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) ||
		    drmModeCreatePropertyBlob(fd, &m, sizeof(m), &blob))
			break;
		dd.handle = cd.handle;
		drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
		drmModeDestroyPropertyBlob(fd, blob);
		__atomic_add_fetch(&stats->mmap_rounds, 1, __ATOMIC_RELAXED);
		usleep(5000);
	}
	/* The device is gone: its mappings still work (fault them in again). */
	for (;; round++) {
		for (i = 0; i < 3; i++)
			memset(fb[i].pixels, round, fb[i].size);
		usleep(20000);
	}
}

static void vblank_handler(int fd, unsigned int seq, unsigned int sec,
			   unsigned int usec, void *data)
{
	(void)fd; (void)seq; (void)sec; (void)usec;
	(*(int *)data)++;
	__atomic_add_fetch(&stats->vblanks, 1, __ATOMIC_RELAXED);
}

static void vblank_client(void)
{
	drmEventContext ev = { .version = 2, .vblank_handler = vblank_handler };
	int fd, got = 0;

	fd = atomkms_open();
	if (fd < 0)
		broken();
	for (;;) {
		drmVBlank vbl = { 0 };
		int i;

		/* Three events pending at a time. */
		for (i = 1; i <= 3; i++) {
			vbl.request.type = DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT;
			vbl.request.sequence = i;
			vbl.request.signal = (unsigned long)&got;
			if (drmWaitVBlank(fd, &vbl) && errno != EINVAL)
				gone();
		}
		if (wait_event(fd, &ev, 500) < 0)
			gone();
		if (got)
			ready();
	}
}

static pid_t kids[MAX_KIDS];
static int nkids;

static void spawn(void (*fn)(int), int arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		close(ready_pipe[0]);
		if (kmsg_fd >= 0)
			close(kmsg_fd);
		fn(arg);
		_exit(0);
	}
	kids[nkids++] = pid;
}

static void run_committer(int a) { (void)a; committer(); }
static void run_crc(int a) { crc_client(a); }
static void run_mmap(int a) { (void)a; mmap_client(); }
static void run_vblank(int a) { (void)a; vblank_client(); }

/* Wait for @n readiness bytes: 0, or -1 (a client failed, or timeout). */
static int wait_ready(int n, int ms)
{
	struct pollfd pfd = { .fd = ready_pipe[0], .events = POLLIN };
	double end = mono_now() + ms / 1000.0;
	int bad = 0;
	char c;

	while (n > 0) {
		int left = (int)((end - mono_now()) * 1000);

		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return -1;
		if (read(ready_pipe[0], &c, 1) != 1)
			return -1;
		if (c != 'r')
			bad++;
		n--;
	}
	return bad ? -1 : 0;
}

static int num_crtcs(void)
{
	drmModeRes *res;
	int fd = atomkms_open(), n = 0;

	if (fd < 0)
		return 0;
	res = drmModeGetResources(fd);
	if (res)
		n = res->count_crtcs;
	drmModeFreeResources(res);
	close(fd);
	return n;
}

/* The load: the committer first (it must be the master), then the rest. */
static int start_load(void)
{
	int i, n = num_crtcs();

	if (n <= 0)
		return fail_why("no device to load");
	nkids = 0;
	spawn(run_committer, 0);
	if (wait_ready(1, 30000))
		return fail_why("the committer did not start");
	for (i = 0; i < n && i < MAX_PIPES; i++)
		spawn(run_crc, i);
	spawn(run_mmap, 0);
	spawn(run_vblank, 0);
	if (wait_ready(nkids - 1, 30000))
		return fail_why("a client did not start");
	return 0;
}

/* Kill the load mid-flight and reap it (a client stuck in the kernel: say so). */
static int kill_load(void)
{
	int i, ret = 0;

	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++) {
		double end = mono_now() + 30;
		int st;

		while (waitpid(kids[i], &st, WNOHANG) == 0) {
			if (mono_now() > end) {
				char path[64], buf[1024] = "";
				int sfd;
				ssize_t len;

				snprintf(path, sizeof(path), "/proc/%d/stack", kids[i]);
				sfd = open(path, O_RDONLY);
				len = sfd >= 0 ? read(sfd, buf, sizeof(buf) - 1) : 0;
				if (len > 0)
					buf[len] = 0;
				if (sfd >= 0)
					close(sfd);
				note("client %d stuck in the kernel:\n%s\n", kids[i], buf);
				ret = fail_why("client %d did not die within 30 s", kids[i]);
				break;
			}
			usleep(10000);
		}
	}
	nkids = 0;
	return ret;
}

/* --- the cycles ---------------------------------------------------------- */

static int smoke(void)
{
	char msg[256];

	if (kms_smoke(5, msg, sizeof(msg)))
		return fail_why("smoke test: %s", msg);
	return 0;
}

/*
 * A step that takes more than 8 s is stuck (DRM's waits time out after
 * 10): a watchdog then dumps the blocked tasks' stacks (sysrq w) and the
 * device's atomic state to the log, while the step still hangs.
 */
static pid_t watchdog_start(const char *step)
{
	pid_t pid = fork();

	if (pid == 0) {
		char cmd[512];

		sleep(8);
		note("%s: stuck for 8 s: blocked tasks in the kernel log, atomic state:\n",
		     step);
		write_str("/proc/sysrq-trigger", "w");
		snprintf(cmd, sizeof(cmd),
			 "for f in /sys/kernel/debug/dri/*/state; do echo \"== $f\"; cat $f; done >> %s 2>&1",
			 log_path ? log_path : "/dev/null");
		if (system(cmd))
			_exit(1);
		_exit(0);
	}
	return pid;
}

static void watchdog_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Unbind or bind, watched. */
static int bind_write(const char *what)
{
	char path[64];
	pid_t wd = watchdog_start(what);
	int ret;

	snprintf(path, sizeof(path), DRV "/%s", what);
	ret = write_str(path, "atomkms");
	watchdog_stop(wd);
	return ret;
}

static int cycle_bind(int c)
{
	int ret;

	if (start_load())
		return -1;
	usleep(300000);
	ret = bind_write("unbind");
	if (ret)
		return fail_why("unbind under load: %s", strerror(-ret));
	if (c & 1 && kill_load())
		return -1;
	ret = bind_write("bind");
	if (ret)
		return fail_why("bind: %s", strerror(-ret));
	if (smoke())
		return -1;
	if (!(c & 1) && kill_load())
		return -1;
	return 0;
}

static int cycle_module(int c)
{
	int ret;

	if (start_load())
		return -1;
	usleep(300000);
	if (c & 1) {
		ret = bind_write("unbind");
		if (ret)
			return fail_why("unbind under load: %s", strerror(-ret));
	}
	ret = ko_unload();
	if (ret != -EAGAIN && ret != -EBUSY)
		return fail_why("rmmod under load: %s, not EAGAIN/EBUSY",
				ret ? strerror(-ret) : "success");
	if (kill_load())
		return -1;
	ret = ko_unload_wait(5000);
	if (ret)
		return fail_why("rmmod after the load was killed: %s", strerror(-ret));
	ret = ko_load(ko_image, ko_len, params);
	if (ret)
		return fail_why("insmod: %s", strerror(-ret));
	return smoke();
}

/* --- configfs: a device of two pipes made, enabled and disabled ---------- */

#define CFS "/sys/kernel/config/atomkms/lc"

static const char *const cfs_dirs[] = {
	CFS, CFS "/crtcs/c0", CFS "/crtcs/c1", CFS "/planes/p0", CFS "/planes/p1",
	CFS "/planes/o0", CFS "/encoders/e0", CFS "/encoders/e1",
	CFS "/connectors/n0", CFS "/connectors/n1",
};

/* "link -> target" pairs, and "file = value" writes, in order. */
static const char *const cfs_links[][2] = {
	{ CFS "/planes/p0/possible_crtcs/c0", CFS "/crtcs/c0" },
	{ CFS "/planes/p1/possible_crtcs/c1", CFS "/crtcs/c1" },
	{ CFS "/planes/o0/possible_crtcs/c0", CFS "/crtcs/c0" },
	{ CFS "/encoders/e0/possible_crtcs/c0", CFS "/crtcs/c0" },
	{ CFS "/encoders/e1/possible_crtcs/c1", CFS "/crtcs/c1" },
	{ CFS "/connectors/n0/possible_encoders/e0", CFS "/encoders/e0" },
	{ CFS "/connectors/n1/possible_encoders/e1", CFS "/encoders/e1" },
};

static const char *const cfs_puts[][2] = {
	{ CFS "/planes/p0/type", "1" }, { CFS "/planes/p1/type", "1" },
	{ CFS "/planes/o0/type", "0" },
	{ CFS "/crtcs/c0/writeback", "1" }, { CFS "/crtcs/c1/writeback", "1" },
};

static int cfs_enable(bool on)
{
	pid_t wd = watchdog_start(on ? "enable" : "disable");
	int ret = write_str(CFS "/enabled", on ? "1" : "0");

	watchdog_stop(wd);
	return ret;
}

static int cfs_make(void)
{
	unsigned int i;

	if (access("/sys/kernel/config/atomkms", F_OK))
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	for (i = 0; i < ARRAY_SIZE(cfs_dirs); i++)
		if (mkdir(cfs_dirs[i], 0755))
			return fail_why("mkdir %s: %s", cfs_dirs[i], strerror(errno));
	for (i = 0; i < ARRAY_SIZE(cfs_puts); i++)
		if (write_str(cfs_puts[i][0], cfs_puts[i][1]))
			return fail_why("%s: %s", cfs_puts[i][0], strerror(errno));
	for (i = 0; i < ARRAY_SIZE(cfs_links); i++)
		if (symlink(cfs_links[i][1], cfs_links[i][0]))
			return fail_why("ln %s: %s", cfs_links[i][0], strerror(errno));
	if (cfs_enable(true))
		return fail_why("enable: %s", strerror(errno));
	return 0;
}

static int cfs_remove(void)
{
	int ret = atomkms_cfs_remove(CFS);

	return ret ? fail_why("rmdir %s: %s", CFS, strerror(-ret)) : 0;
}

static int cycle_configfs(int c)
{
	int ret;

	if (start_load())
		return -1;
	usleep(300000);
	ret = cfs_enable(false);
	if (ret)
		return fail_why("disable under load: %s", strerror(-ret));
	if (c & 1 && kill_load())
		return -1;
	ret = cfs_enable(true);
	if (ret)
		return fail_why("enable: %s", strerror(-ret));
	if (smoke())
		return -1;
	if (!(c & 1) && kill_load())
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode;
	int cycles = 10, i, ok = 0, bad = 0;
	double tmin = 1e9, tmax = 0, t0;
	char klog[256];

	if (argc < 2 || (strcmp(argv[1], "bind") && strcmp(argv[1], "module") &&
			 strcmp(argv[1], "configfs"))) {
		fprintf(stderr, "usage: lifecycle bind|module|configfs [--cycles N] [--ko PATH] [--params STR] [--log FILE]\n");
		return 2;
	}
	mode = argv[1];
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--cycles") && i + 1 < argc)
			cycles = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--ko") && i + 1 < argc)
			ko_path = argv[++i];
		else if (!strcmp(argv[i], "--params") && i + 1 < argc)
			params = argv[++i];
		else if (!strcmp(argv[i], "--log") && i + 1 < argc)
			detail = fopen(log_path = argv[++i], "a");
		else {
			fprintf(stderr, "lifecycle: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (pipe(ready_pipe) || ko_read(ko_path, &ko_image, &ko_len)) {
		fprintf(stderr, "%s: cannot read\n", ko_path);
		return 2;
	}
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED)
		return 2;
	kmsg_open();
	if (ko_loaded() && ko_unload_wait(3000)) {
		printf("not ok - %s: atomkms is loaded and will not unload\n", mode);
		return 1;
	}
	if (!strcmp(mode, "configfs")) {
		static char cparams[512];

		snprintf(cparams, sizeof(cparams), "%s create_default_dev=0", params);
		params = cparams;
	}
	if (ko_load(ko_image, ko_len, params)) {
		printf("not ok - %s: insmod %s: %s\n", mode, params, strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "configfs") && cfs_make()) {
		printf("not ok - %s: the configfs device: %s\n", mode, why);
		cfs_remove();
		ko_unload_wait(5000);
		return 1;
	}
	printf("# %s: %d cycles, atomkms %s\n", mode, cycles, params);

	t0 = mono_now();
	for (i = 1; i <= cycles; i++) {
		double t = mono_now(), dt;
		int ret, nk;

		why[0] = 0;
		ret = !strcmp(mode, "bind") ? cycle_bind(i) :
		      !strcmp(mode, "module") ? cycle_module(i) : cycle_configfs(i);
		if (ret)
			kill_load();
		nk = kmsg_scan(klog, sizeof(klog), NULL);
		dt = mono_now() - t;
		if (dt < tmin)
			tmin = dt;
		if (dt > tmax)
			tmax = dt;
		note("%s cycle %d: %s%s%s %.2f s\n", mode, i, ret ? why : "ok",
		     nk ? ", kernel log: " : "", nk ? klog : "", dt);
		if (ret || nk) {
			bad++;
			printf("not ok - %s cycle %d: %s%s%s\n", mode, i,
			       ret ? why : "", nk ? " kernel log: " : "",
			       nk ? klog : "");
			/* The device may be gone for good: stop here. */
			if (ret)
				break;
		} else {
			ok++;
		}
		if (i % 10 == 0)
			printf("# %s: %d cycles done, %.1f s\n", mode, i, mono_now() - t0);
	}
	printf("# %s: the load did %lu flips with events and out-fences, %lu writeback jobs, %lu flip events, %lu CRCs read, %lu vblank events, %lu rounds of mmap writes and dumb/blob churn\n",
	       mode, stats->flips, stats->wb_jobs, stats->events, stats->crcs,
	       stats->vblanks, stats->mmap_rounds);
	if (!bad)
		printf("ok - %s: %d cycles under load, %.2f s a cycle (min %.2f, max %.2f), %.0f s in all\n",
		       mode, ok, (mono_now() - t0) / ok, tmin, tmax, mono_now() - t0);
	else
		printf("not ok - %s: %d of %d cycles clean\n", mode, ok, cycles);

	/* The device goes (a configfs one pins the module), then the module. */
	if (!strcmp(mode, "configfs") && cfs_remove()) {
		printf("not ok - %s: removing the device: %s\n", mode, why);
		bad++;
	}
	if (ko_unload_wait(5000)) {
		printf("not ok - %s: rmmod at the end: %s\n", mode, strerror(errno ? errno : EBUSY));
		bad++;
	}
	return bad ? 1 : 0;
}
