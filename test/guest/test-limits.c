// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-limits: the simulated display-engine limits (issue 15,
 * module/atomkms_limits.c). For each limit the module parameters and
 * configfs set (max_active_planes, num_scalers per CRTC, bandwidth_mbps,
 * num_plls), a configfs device with that limit: the state at the limit
 * is accepted and one over it refused with EINVAL, each judged twice,
 * by a TEST_ONLY commit and by a real blocking commit (no event), whose
 * verdicts must be equal. Then a device with the soc preset: its planes'
 * rotations narrowed to the pool's, and a few hundred random states,
 * each TEST_ONLY then real, the verdicts compared. The limits' debugfs
 * file says what each device has, and the default device (no limit
 * parameter) has none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drmutil.h"
#include "tap.h"

#define ROOT		"/sys/kernel/config/atomkms"
#define MAX_CRTCS	4
#define MAX_PLANES	16
#define FB_W		1920
#define FB_H		1080
#define CURSOR		256
#define RANDOM_STATES	300

/* A configfs device: CRTCs, each with a primary, overlays, a connector. */
struct spec {
	const char *name;
	int ncrtcs;
	int noverlays;		/* per CRTC */
	bool cursor;		/* a cursor plane per CRTC */
	int refresh[MAX_CRTCS];	/* each CRTC's, 0: 60 Hz */
	const char *puts[4];	/* "ATTR VALUE" under the device, NULL-ended */
};

/* The device as DRM shows it. */
struct dev {
	int fd;
	unsigned int minor;
	int ncrtcs, nplanes;
	uint32_t crtc[MAX_CRTCS], conn[MAX_CRTCS], blob[MAX_CRTCS];
	drmModeModeInfo mode[MAX_CRTCS];
	uint32_t plane[MAX_PLANES];
	int pcrtc[MAX_PLANES];	/* the CRTC index the plane is made for */
	int ptype[MAX_PLANES];	/* DRM_PLANE_TYPE_* */
	struct fmt_fb xr24, nv12, ar24;
};

/* A whole device's state: every CRTC and plane, on or off. */
struct state {
	bool on[MAX_CRTCS];
	struct {
		bool on;
		uint32_t fourcc;
		uint32_t sw, sh, dw, dh;
		int32_t x, y;
		uint64_t rotation;
	} p[MAX_PLANES];
};

static char lines[160][160];
static const char *script[161];
static int nlines;

static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...)
{
	va_list ap;

	if (nlines >= (int)(sizeof(lines) / sizeof(lines[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(lines[nlines], sizeof(lines[0]), fmt, ap);
	va_end(ap);
	script[nlines] = lines[nlines];
	script[++nlines] = NULL;
}

/* The configfs script of @s: the CRTCs' planes made CRTC by CRTC. */
static void spec_script(const struct spec *s)
{
	const char *n = s->name;
	int c, k;

	nlines = 0;
	script[0] = NULL;
	line("mkdir %s", n);
	for (c = 0; c < s->ncrtcs; c++) {
		line("mkdir %s/crtcs/c%d", n, c);
		if (s->refresh[c])
			line("put %s/crtcs/c%d/refresh %d", n, c, s->refresh[c]);
	}
	for (c = 0; c < s->ncrtcs; c++) {
		line("mkdir %s/planes/p%d_0", n, c);
		line("put %s/planes/p%d_0/type 1", n, c);
		line("ln %s/planes/p%d_0/possible_crtcs %s/crtcs/c%d", n, c, n, c);
		for (k = 1; k <= s->noverlays; k++) {
			line("mkdir %s/planes/p%d_%d", n, c, k);
			line("ln %s/planes/p%d_%d/possible_crtcs %s/crtcs/c%d", n,
			     c, k, n, c);
		}
		if (s->cursor) {
			line("mkdir %s/planes/p%d_c", n, c);
			line("put %s/planes/p%d_c/type 2", n, c);
			line("ln %s/planes/p%d_c/possible_crtcs %s/crtcs/c%d", n,
			     c, n, c);
		}
	}
	for (c = 0; c < s->ncrtcs; c++) {
		line("mkdir %s/encoders/e%d", n, c);
		line("ln %s/encoders/e%d/possible_crtcs %s/crtcs/c%d", n, c, n, c);
		line("mkdir %s/connectors/n%d", n, c);
		line("ln %s/connectors/n%d/possible_encoders %s/encoders/e%d", n,
		     c, n, c);
	}
	for (k = 0; k < 4 && s->puts[k]; k++)
		line("put %s/%s", n, s->puts[k]);
}

/* Its CRTCs, connectors, preferred modes and planes; 0 or -1. */
static int dev_probe(struct dev *d)
{
	struct kms_pipe pipes[MAX_CRTCS];
	drmModePlaneRes *pr;
	drmModeRes *res;
	int i, n;
	uint32_t j;

	res = drmModeGetResources(d->fd);
	if (!res)
		return -1;
	d->ncrtcs = res->count_crtcs < MAX_CRTCS ? res->count_crtcs : MAX_CRTCS;
	drmModeFreeResources(res);
	n = kms_pipes_find(d->fd, pipes, MAX_CRTCS);
	if (n != d->ncrtcs)
		return -1;
	for (i = 0; i < n; i++) {
		int c = pipes[i].crtc_idx;

		if (c < 0 || c >= MAX_CRTCS)
			return -1;
		d->crtc[c] = pipes[i].crtc;
		d->conn[c] = pipes[i].conn;
		d->mode[c] = pipes[i].mode;
		if (drmModeCreatePropertyBlob(d->fd, &d->mode[c],
					      sizeof(d->mode[c]), &d->blob[c]))
			return -1;
	}
	pr = drmModeGetPlaneResources(d->fd);
	if (!pr)
		return -1;
	for (j = 0; j < pr->count_planes && d->nplanes < MAX_PLANES; j++) {
		drmModePlane *p = drmModeGetPlane(d->fd, pr->planes[j]);

		if (!p)
			continue;
		d->plane[d->nplanes] = p->plane_id;
		d->pcrtc[d->nplanes] = p->possible_crtcs ?
				       __builtin_ctz(p->possible_crtcs) : 0;
		d->ptype[d->nplanes] = plane_type(d->fd, p->plane_id);
		d->nplanes++;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pr);
	if (fmt_fb_create(d->fd, FB_W, FB_H, DRM_FORMAT_XRGB8888, &d->xr24) ||
	    fmt_fb_create(d->fd, FB_W, FB_H, DRM_FORMAT_NV12, &d->nv12) ||
	    fmt_fb_create(d->fd, CURSOR, CURSOR, DRM_FORMAT_ARGB8888, &d->ar24))
		return -1;
	return 0;
}

static uint32_t fb_of(const struct dev *d, uint32_t fourcc)
{
	if (fourcc == DRM_FORMAT_NV12)
		return d->nv12.fb_id;
	if (fourcc == DRM_FORMAT_ARGB8888)
		return d->ar24.fb_id;
	return d->xr24.fb_id;
}

/* The request that sets every CRTC, connector and plane of @d as @st. */
static void request(const struct dev *d, const struct state *st,
		    struct areq *r)
{
	int c, j;

	areq_init(r, d->fd);
	for (c = 0; c < d->ncrtcs; c++) {
		areq_add(r, d->crtc[c], DRM_MODE_OBJECT_CRTC, "ACTIVE", st->on[c]);
		areq_add(r, d->crtc[c], DRM_MODE_OBJECT_CRTC, "MODE_ID",
			 st->on[c] ? d->blob[c] : 0);
		areq_add(r, d->conn[c], DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
			 st->on[c] ? d->crtc[c] : 0);
	}
	for (j = 0; j < d->nplanes; j++) {
		uint32_t id = d->plane[j];
		bool on = st->p[j].on && st->on[d->pcrtc[j]];

		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "rotation",
			 st->p[j].rotation ? st->p[j].rotation :
			 DRM_MODE_ROTATE_0);
		if (!on) {
			areq_add(r, id, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
			areq_add(r, id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
			continue;
		}
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "FB_ID",
			 fb_of(d, st->p[j].fourcc));
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "CRTC_ID",
			 d->crtc[d->pcrtc[j]]);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "SRC_W",
			 (uint64_t)st->p[j].sw << 16);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "SRC_H",
			 (uint64_t)st->p[j].sh << 16);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "CRTC_X",
			 (uint64_t)(int64_t)st->p[j].x);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "CRTC_Y",
			 (uint64_t)(int64_t)st->p[j].y);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "CRTC_W", st->p[j].dw);
		areq_add(r, id, DRM_MODE_OBJECT_PLANE, "CRTC_H", st->p[j].dh);
	}
}

/* @st judged by TEST_ONLY, then by a real blocking commit, no event. */
static void judge(const struct dev *d, const struct state *st, int *test,
		  int *real)
{
	struct areq *r = malloc(sizeof(*r));

	if (!r) {
		*test = *real = -ENOMEM;
		return;
	}
	request(d, st, r);
	*test = areq_commit(r, DRM_MODE_ATOMIC_TEST_ONLY |
			    DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	*real = areq_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(r);
	free(r);
}

/* Two checks: TEST_ONLY answers @want, the real commit the same. */
static void expect(const struct dev *d, const struct state *st, int want,
		   const char *what)
{
	int test, real;

	judge(d, st, &test, &real);
	check(test == want, sf("%s: TEST_ONLY %s", what,
			       want ? "refuses it (EINVAL)" : "accepts it"),
	      sf("answered %d (%s)", test, strerror(-test)));
	check(real == test, sf("%s: a real commit answers as TEST_ONLY", what),
	      sf("TEST_ONLY %d, commit %d", test, real));
}

/* Plane @j (the @k-th of its type on CRTC @c) of @d, or -1. */
static int plane_of(const struct dev *d, int c, int type, int k)
{
	int j;

	for (j = 0; j < d->nplanes; j++)
		if (d->pcrtc[j] == c && d->ptype[j] == type && !k--)
			return j;
	return -1;
}

/* Plane @j showing @sw x @sh of the XRGB8888 framebuffer as @dw x @dh. */
static void show(struct state *st, int j, uint32_t sw, uint32_t sh,
		 uint32_t dw, uint32_t dh)
{
	if (j < 0)
		return;
	st->p[j].on = true;
	st->p[j].fourcc = DRM_FORMAT_XRGB8888;
	st->p[j].sw = sw;
	st->p[j].sh = sh;
	st->p[j].dw = dw;
	st->p[j].dh = dh;
	st->p[j].x = 0;
	st->p[j].y = 0;
	st->p[j].rotation = DRM_MODE_ROTATE_0;
}

/* CRTC @c on, its primary showing the framebuffer unscaled, the mode's size. */
static void crtc_on(const struct dev *d, struct state *st, int c)
{
	uint32_t w = d->mode[c].hdisplay < FB_W ? d->mode[c].hdisplay : FB_W;
	uint32_t h = d->mode[c].vdisplay < FB_H ? d->mode[c].vdisplay : FB_H;

	st->on[c] = true;
	show(st, plane_of(d, c, DRM_PLANE_TYPE_PRIMARY, 0), w, h, w, h);
}

/* The device's atomkms_limits debugfs file has a line starting @want. */
static bool debugfs_has(const struct dev *d, const char *want)
{
	char buf[256];
	bool found = false;
	FILE *f;

	if (access("/sys/kernel/debug/dri", F_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = fopen(sf("/sys/kernel/debug/dri/%u/atomkms_limits", d->minor), "r");
	if (!f)
		return false;
	while (!found && fgets(buf, sizeof(buf), f))
		found = !strncmp(buf, want, strlen(want));
	fclose(f);
	return found;
}

static void dev_close(struct dev *d)
{
	int c;

	kms_disable_all(d->fd);
	fmt_fb_destroy(d->fd, &d->xr24);
	fmt_fb_destroy(d->fd, &d->nv12);
	fmt_fb_destroy(d->fd, &d->ar24);
	for (c = 0; c < d->ncrtcs; c++)
		if (d->blob[c])
			drmModeDestroyPropertyBlob(d->fd, d->blob[c]);
	close(d->fd);
}

/*
 * Build, enable and open the device @s describes, run @fn on it, then
 * take it apart. @fn gets the device and its configfs directory.
 */
static void with_device(const struct spec *s,
			void (*fn)(struct dev *d, const char *dir))
{
	struct dev *d = calloc(1, sizeof(*d));
	uint64_t before;
	struct stat st;
	char dir[256];

	/* Its own copy: sf()'s buffers are reused by the checks. */
	snprintf(dir, sizeof(dir), ROOT "/%s", s->name);
	if (!d) {
		check(false, sf("%s: memory", s->name), strerror(ENOMEM));
		return;
	}
	atomkms_cfs_remove(dir);
	before = atomkms_card_mask();
	spec_script(s);
	if (!check(!atomkms_cfs_build(ROOT, script),
		   sf("%s: described in configfs", s->name), "see above"))
		goto out;
	if (!check(!write_str(sf("%s/enabled", dir), "1"),
		   sf("%s: enabled", s->name), "refused"))
		goto out;
	d->fd = atomkms_open_card(atomkms_card_mask() & ~before);
	if (!check(d->fd >= 0, sf("%s: its card opens", s->name), "missing"))
		goto out;
	if (!fstat(d->fd, &st))
		d->minor = minor(st.st_rdev);
	if (check(!dev_probe(d) && d->ncrtcs == s->ncrtcs,
		  sf("%s: %d CRTCs with their connectors, modes and planes",
		     s->name, s->ncrtcs),
		  sf("%d CRTCs, %d planes", d->ncrtcs, d->nplanes)))
		fn(d, dir);
	dev_close(d);
	write_str(sf("%s/enabled", dir), "0");
out:
	atomkms_cfs_remove(dir);
	free(d);
}

/* max_active_planes 2: a primary and an overlay; a second overlay over. */
static void run_max_active_planes(struct dev *d, const char *dir)
{
	struct state st = { 0 };

	crtc_on(d, &st, 0);
	show(&st, plane_of(d, 0, DRM_PLANE_TYPE_OVERLAY, 0), 256, 256, 256, 256);
	expect(d, &st, 0, "max_active_planes 2: 2 planes");
	show(&st, plane_of(d, 0, DRM_PLANE_TYPE_OVERLAY, 1), 256, 256, 256, 256);
	expect(d, &st, -EINVAL, "max_active_planes 2: 3 planes");
	check(write_str(sf("%s/max_active_planes", dir), "3") == -EBUSY,
	      "max_active_planes: written while enabled: EBUSY", "not EBUSY");
	check(debugfs_has(d, "max_active_planes: 2"),
	      "max_active_planes: debugfs atomkms_limits says 2",
	      "no such line");
}

/* max_active_planes 0: no plane at all may be shown. */
static void run_no_planes(struct dev *d, const char *dir)
{
	struct state st = { 0 };

	(void)dir;
	crtc_on(d, &st, 0);
	expect(d, &st, -EINVAL, "max_active_planes 0: one plane");
}

/*
 * num_scalers 1 on CRTC 0, 0 on CRTC 1: one scaled overlay on CRTC 0;
 * two there, or one on CRTC 1, over.
 */
static void run_num_scalers(struct dev *d, const char *dir)
{
	int o0 = plane_of(d, 0, DRM_PLANE_TYPE_OVERLAY, 0);
	int o1 = plane_of(d, 0, DRM_PLANE_TYPE_OVERLAY, 1);
	int o2 = plane_of(d, 1, DRM_PLANE_TYPE_OVERLAY, 0);
	struct state st = { 0 };

	(void)dir;
	crtc_on(d, &st, 0);
	crtc_on(d, &st, 1);
	show(&st, o0, 640, 360, 1280, 720);
	show(&st, o1, 256, 256, 256, 256);
	show(&st, o2, 256, 256, 256, 256);
	expect(d, &st, 0, "num_scalers 1,0: one scaled plane on CRTC 0");
	show(&st, o1, 320, 180, 640, 360);
	expect(d, &st, -EINVAL, "num_scalers 1,0: two scaled planes on CRTC 0");
	show(&st, o1, 256, 256, 256, 256);
	show(&st, o2, 320, 180, 640, 360);
	expect(d, &st, -EINVAL, "num_scalers 1,0: one scaled plane on CRTC 1");
	check(debugfs_has(d, "num_scalers: 0:1 1:0"),
	      "num_scalers: debugfs atomkms_limits says 0:1 1:0",
	      "no such line");
}

#define BUDGET_MBPS	800

/* The mode's refresh in mHz, rounded, as the driver computes it. */
static uint64_t refresh_mhz(const drmModeModeInfo *m)
{
	uint64_t pixels = (uint64_t)m->htotal * m->vtotal;

	return pixels ? ((uint64_t)m->clock * 1000000 + pixels / 2) / pixels : 0;
}

/*
 * bandwidth_mbps 800: a full-screen XRGB8888 primary and an overlay of
 * full width, as high as the budget allows; one line more is over.
 */
static void run_bandwidth(struct dev *d, const char *dir)
{
	uint64_t r = refresh_mhz(&d->mode[0]), budget = BUDGET_MBPS * 1000000000ULL;
	uint32_t w = d->mode[0].hdisplay < FB_W ? d->mode[0].hdisplay : FB_W;
	uint32_t h = d->mode[0].vdisplay < FB_H ? d->mode[0].vdisplay : FB_H;
	int o = plane_of(d, 0, DRM_PLANE_TYPE_OVERLAY, 0);
	struct state st = { 0 };
	uint32_t lines_max = 0, k;

	(void)dir;
	for (k = 1; k < h; k++)
		if (((uint64_t)w * h * 4 + (uint64_t)w * k * 4) * r <= budget)
			lines_max = k;
	if (!check(lines_max > 0 && lines_max + 1 < h,
		   "bandwidth_mbps 800: the boundary is on screen",
		   sf("%u lines of %ux%u at %llu mHz", lines_max, w, h,
		      (unsigned long long)r)))
		return;
	printf("# bandwidth: %ux%u at %llu mHz, an overlay of %u lines fits %u MB/s\n",
	       w, h, (unsigned long long)r, lines_max, BUDGET_MBPS);
	crtc_on(d, &st, 0);
	show(&st, o, w, lines_max, w, lines_max);
	expect(d, &st, 0, "bandwidth_mbps 800: at the budget");
	show(&st, o, w, lines_max + 1, w, lines_max + 1);
	expect(d, &st, -EINVAL, "bandwidth_mbps 800: one line over");
	check(debugfs_has(d, "bandwidth_mbps: 800 MB/s"),
	      "bandwidth_mbps: debugfs atomkms_limits says 800 MB/s",
	      "no such line");
}

/* num_plls 2 over CRTCs at 60, 75 and 50 Hz: two on, not three. */
static void run_num_plls(struct dev *d, const char *dir)
{
	struct state st = { 0 };

	(void)dir;
	if (!check(d->mode[0].clock != d->mode[1].clock &&
		   d->mode[0].clock != d->mode[2].clock &&
		   d->mode[1].clock != d->mode[2].clock,
		   "num_plls 2: three distinct pixel clocks",
		   sf("%u, %u, %u kHz", d->mode[0].clock, d->mode[1].clock,
		      d->mode[2].clock)))
		return;
	crtc_on(d, &st, 0);
	crtc_on(d, &st, 1);
	expect(d, &st, 0, "num_plls 2: two CRTCs at two clocks");
	crtc_on(d, &st, 2);
	expect(d, &st, -EINVAL, "num_plls 2: three CRTCs at three clocks");
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)random() % n : 0;
}

/* A random state of the soc device's planes, from the previous one. */
static void random_state(const struct dev *d, struct state *st)
{
	static const uint32_t cursors[] = { 32, 64, 128, 256 };
	int c, j;

	for (c = 0; c < d->ncrtcs; c++)
		if (!rnd(10))
			st->on[c] = !st->on[c];
	for (j = 0; j < d->nplanes; j++) {
		int type = d->ptype[j];
		uint32_t mw = d->mode[d->pcrtc[j]].hdisplay;
		uint32_t mh = d->mode[d->pcrtc[j]].vdisplay;
		uint32_t sz, r = rnd(100);

		st->p[j].on = rnd(100) < (type == DRM_PLANE_TYPE_PRIMARY ? 85u :
					  type == DRM_PLANE_TYPE_CURSOR ? 40u :
					  50u);
		st->p[j].rotation = r < 80 ? DRM_MODE_ROTATE_0 :
				    r < 95 ? DRM_MODE_ROTATE_180 :
				    DRM_MODE_ROTATE_90;
		if (type == DRM_PLANE_TYPE_CURSOR) {
			sz = cursors[rnd(4)];
			st->p[j].fourcc = DRM_FORMAT_ARGB8888;
			st->p[j].sw = st->p[j].dw = sz;
			st->p[j].sh = st->p[j].dh = sz;
			st->p[j].x = (int32_t)rnd(mw + sz) - (int32_t)sz / 2;
			st->p[j].y = (int32_t)rnd(mh + sz) - (int32_t)sz / 2;
			continue;
		}
		st->p[j].fourcc = rnd(5) ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_NV12;
		st->p[j].sw = 2 * (8 + rnd(FB_W / 2 - 8));
		st->p[j].sh = 2 * (8 + rnd(FB_H / 2 - 8));
		st->p[j].dw = st->p[j].sw;
		st->p[j].dh = st->p[j].sh;
		if (!rnd(3)) {
			/* Scaled from a quarter up to three times. */
			st->p[j].dw = st->p[j].sw * (1 + rnd(12)) / 4;
			st->p[j].dh = st->p[j].sh * (1 + rnd(12)) / 4;
			st->p[j].dw += !st->p[j].dw;
			st->p[j].dh += !st->p[j].dh;
		}
		st->p[j].x = (int32_t)rnd(mw) - (int32_t)st->p[j].dw / 4;
		st->p[j].y = (int32_t)rnd(mh) - (int32_t)st->p[j].dh / 4;
	}
}

/* Does the rotation property of plane @id offer @name? */
static bool has_rotation(int fd, uint32_t id, const char *name)
{
	uint64_t v;

	return !prop_enum(fd, id, DRM_MODE_OBJECT_PLANE, "rotation", name, &v);
}

/* @m set to a CVT reduced-blanking 60 Hz mode: 2560x1440 or 3840x2160. */
static void cvt_rb_mode(drmModeModeInfo *m, bool uhd)
{
	static const uint16_t t[2][8] = {
		{ 2560, 2608, 2640, 2720, 1440, 1443, 1448, 1481 },
		{ 3840, 3888, 3920, 4000, 2160, 2163, 2168, 2222 },
	};
	const uint16_t *v = t[uhd];

	memset(m, 0, sizeof(*m));
	m->clock = uhd ? 533250 : 241500;
	m->hdisplay = v[0];
	m->hsync_start = v[1];
	m->hsync_end = v[2];
	m->htotal = v[3];
	m->vdisplay = v[4];
	m->vsync_start = v[5];
	m->vsync_end = v[6];
	m->vtotal = v[7];
	m->vrefresh = 60;
	m->flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NVSYNC;
	m->type = DRM_MODE_TYPE_USERDEF;
	snprintf(m->name, sizeof(m->name), "%ux%u", v[0], v[4]);
}

/*
 * soc's pixel clock, 460000 kHz per CRTC (DPU's core clock is the
 * highest any CRTC needs, not their sum): two CRTCs at 2560x1440@60
 * (241500 kHz each, 483000 in all) are accepted, one at 3840x2160@60
 * (533250 kHz) is refused.
 */
static void soc_clocks(struct dev *d)
{
	uint32_t saved[2] = { d->blob[0], d->blob[1] }, qhd = 0, uhd = 0;
	drmModeModeInfo m[2], kept[2] = { d->mode[0], d->mode[1] };
	struct state st = { 0 };

	cvt_rb_mode(&m[0], false);
	cvt_rb_mode(&m[1], true);
	if (!check(!drmModeCreatePropertyBlob(d->fd, &m[0], sizeof(m[0]), &qhd) &&
		   !drmModeCreatePropertyBlob(d->fd, &m[1], sizeof(m[1]), &uhd),
		   "soc: mode blobs of 2560x1440 and 3840x2160", strerror(errno)))
		goto out;
	d->blob[0] = d->blob[1] = qhd;
	d->mode[0] = d->mode[1] = m[0];
	crtc_on(d, &st, 0);
	crtc_on(d, &st, 1);
	expect(d, &st, 0, "soc: two CRTCs at 241500 kHz, 483000 kHz in all");
	memset(&st, 0, sizeof(st));
	d->blob[0] = uhd;
	d->mode[0] = m[1];
	crtc_on(d, &st, 0);
	expect(d, &st, -EINVAL, "soc: a CRTC at 533250 kHz, limit 460000 kHz");
out:
	d->blob[0] = saved[0];
	d->blob[1] = saved[1];
	d->mode[0] = kept[0];
	d->mode[1] = kept[1];
	if (qhd)
		drmModeDestroyPropertyBlob(d->fd, qhd);
	if (uhd)
		drmModeDestroyPropertyBlob(d->fd, uhd);
}

/*
 * The soc preset: its pool rotates 0 and 180 only, so no plane offers
 * rotate-90; then random states, each TEST_ONLY and real; then its
 * pixel clock limit.
 */
static void run_soc(struct dev *d, const char *dir)
{
	unsigned int accepted = 0, refused = 0, other = 0, differ = 0, i;
	struct state st = { 0 };
	int test, real, j;
	bool rot90 = false;

	(void)dir;
	for (j = 0; j < d->nplanes; j++)
		rot90 |= has_rotation(d->fd, d->plane[j], "rotate-90");
	check(!rot90 && has_rotation(d->fd, d->plane[0], "rotate-180"),
	      "soc: the planes offer rotate-180, not rotate-90", "rotate-90 offered");
	check(debugfs_has(d, "limits: on") && debugfs_has(d, "num_plls: 2") &&
	      debugfs_has(d, "hw_planes: 4"),
	      "soc: debugfs atomkms_limits shows the preset", "it does not");
	srandom(15);
	crtc_on(d, &st, 0);
	crtc_on(d, &st, 1);
	for (i = 0; i < RANDOM_STATES; i++) {
		random_state(d, &st);
		judge(d, &st, &test, &real);
		if (test != real && !differ++)
			printf("# soc: state %u: TEST_ONLY %d, commit %d\n", i,
			       test, real);
		accepted += !test;
		refused += test == -EINVAL;
		other += test && test != -EINVAL;
	}
	printf("# soc: %u random states: %u accepted, %u refused (EINVAL), %u other errors, %u verdicts differ\n",
	       RANDOM_STATES, accepted, refused, other, differ);
	check(!differ, "soc: TEST_ONLY and real commits agree on every random state",
	      sf("%u of %u differ", differ, RANDOM_STATES));
	check(accepted && refused,
	      "soc: the random states are both accepted and refused",
	      sf("%u accepted, %u refused", accepted, refused));
	soc_clocks(d);
}

static const struct spec specs[] = {
	{ "lim_planes", 1, 3, false, { 0 },
	  { "max_active_planes 2" } },
	{ "lim_noplane", 1, 0, false, { 0 },
	  { "max_active_planes 0" } },
	{ "lim_scalers", 2, 2, false, { 0 },
	  { "crtcs/c0/num_scalers 1", "crtcs/c1/num_scalers 0" } },
	{ "lim_bw", 1, 1, false, { 0 },
	  { "bandwidth_mbps 800" } },
	{ "lim_plls", 3, 0, false, { 60, 75, 50 },
	  { "num_plls 2" } },
	{ "lim_soc", 2, 2, true, { 60, 75 },
	  { "limits soc" } },
};

static void (*const runs[])(struct dev *d, const char *dir) = {
	run_max_active_planes, run_no_planes, run_num_scalers, run_bandwidth,
	run_num_plls, run_soc,
};

/* A preset name configfs refuses, and its numbers' range. */
static void test_attrs(void)
{
	const char *dir = ROOT "/lim_attrs";

	atomkms_cfs_remove(dir);
	if (!check(!mkdir(dir, 0755), "configfs: a device for its attributes",
		   strerror(errno)))
		return;
	check(write_str(sf("%s/limits", dir), "phone") == -EINVAL,
	      "configfs: limits \"phone\": EINVAL", "accepted");
	check(!write_str(sf("%s/limits", dir), "laptop"),
	      "configfs: limits \"laptop\" accepted", "refused");
	check(write_str(sf("%s/num_plls", dir), "-1") == -EINVAL,
	      "configfs: num_plls \"-1\": EINVAL", "accepted");
	check(write_str(sf("%s/bandwidth_mbps", dir), "x") == -EINVAL,
	      "configfs: bandwidth_mbps \"x\": EINVAL", "accepted");
	atomkms_cfs_remove(dir);
}

int main(void)
{
	struct dev def = { 0 };
	struct stat st;
	unsigned int i;

	def.fd = atomkms_open();
	if (def.fd < 0)
		return 2;
	if (!fstat(def.fd, &st))
		def.minor = minor(st.st_rdev);
	check(debugfs_has(&def, "limits: none at all"),
	      "default device: no limit without the limit parameters",
	      "its debugfs atomkms_limits says otherwise");
	close(def.fd);

	if (access("/sys/kernel/config", F_OK) == 0 && access(ROOT, F_OK) != 0)
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	if (!check(access(ROOT, F_OK) == 0, "configfs has atomkms",
		   ROOT " missing"))
		return tap_done("test-limits");
	test_attrs();
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		with_device(&specs[i], runs[i]);
	return tap_done("test-limits");
}
