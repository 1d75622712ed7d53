// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-scaling - the connector's "scaling mode" and the panel fitter.
 *
 * On the first connected connector and its CRTC, cloned by the CRTC's
 * writeback connector: "scaling mode" exists and is Full aspect at reset.
 * For each scaling mode (None, Full, Center, Full aspect): the native
 * (preferred) mode, then modes of 640x480, 800x600, 1000x562 and half the
 * native size on the native timings, each committed WITHOUT
 * ALLOW_MODESET (a fastset), showing a known pattern of the mode's size.
 * Each must succeed; the vblank schedule must run on through it (the
 * sequence advances by exactly the frames elapsed between the timestamps
 * around the commit, on the same phase: a modeset restarts it); the
 * written-back frame, of the output's size (native when fitting, the
 * mode's with None), must be byte for byte the userspace core's fit of
 * the same pattern (module/core/atomkms_fit.c), and the live CRC the
 * core's. Then the CRCs: equal for identical images (Full and Full
 * aspect at half the native size; the same commit twice), different where
 * the images differ (Full, Center and Full aspect at 640x480 unless the
 * native size makes two of them the same picture; None against the
 * fitted ones). Rejections, -EINVAL: a mode larger than native on its
 * timings, a writeback framebuffer of the mode's size while fitting or
 * of the native size with None, a scaling mode value out of range.
 *
 * Usage: test-scaling
 */
#include "atomkms_fit.h"
/* drmutil.h defines its own. */
#undef ARRAY_SIZE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"
#include "tap.h"

#define FENCE_TIMEOUT_MS	3000
#define WB_POISON		0x5a
#define NUM_SIZES		4

static const char *const mode_names[] = {
	"None", "Full", "Center", "Full aspect",
};

static struct {
	int fd;
	struct kms_pipe p;
	struct wb_conn wb;
	uint32_t scaling_prop;
	uint32_t planes[64];
	unsigned int num_planes;
	struct crc_reader crc;
	void *scratch;
} k = { .fd = -1, .crc = { .data = -1 } };

/* A pattern that shows any scaling: gradients, a grid, a frame, a dot. */
static void fill_pattern(const struct fmt_fb *fb, uint32_t seed)
{
	uint32_t x, y;

	for (y = 0; y < fb->height; y++) {
		uint32_t *line = (uint32_t *)(fb->map + (size_t)y * fb->pitch[0]);

		for (x = 0; x < fb->width; x++) {
			uint32_t r = x * 255 / fb->width;
			uint32_t g = y * 255 / fb->height;
			uint32_t b = ((x / 16) ^ (y / 16) ^ seed) & 1 ? 0xc0 : 0x30;

			if (x == 0 || y == 0 || x == fb->width - 1 ||
			    y == fb->height - 1 || (x % 64 == 0 && y % 3))
				r = g = b = 0xff;
			line[x] = 0xff000000u | r << 16 | g << 8 | b;
		}
	}
}

/* The mode @w x @h on the native mode's timings, as igt builds them. */
static drmModeModeInfo native_timed(uint32_t w, uint32_t h)
{
	drmModeModeInfo m = k.p.mode;

	m.hdisplay = w;
	m.vdisplay = h;
	m.type = DRM_MODE_TYPE_USERDEF;
	snprintf(m.name, sizeof(m.name), "%ux%u", w, h);
	return m;
}

/*
 * Commit @mode on the pipe, the primary plane showing all of @fb, the
 * other planes off, "scaling mode" @scaling, and a writeback job into
 * @wbfb (0: none) whose out-fence goes to @fence.
 */
static int commit_mode(const drmModeModeInfo *mode, const struct fmt_fb *fb,
		       uint64_t scaling, uint32_t wbfb, int *fence,
		       uint32_t flags)
{
	const uint32_t conn = DRM_MODE_OBJECT_CONNECTOR;
	uint32_t blob = 0;
	struct areq r;
	unsigned int i;
	int ret;

	ret = drmModeCreatePropertyBlob(k.fd, mode, sizeof(*mode), &blob);
	if (ret)
		return -errno;
	areq_init(&r, k.fd);
	areq_add(&r, k.p.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	areq_add(&r, k.p.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	areq_add(&r, k.p.conn, conn, "CRTC_ID", k.p.crtc);
	areq_add_id(&r, k.p.conn, k.scaling_prop, scaling);
	areq_add(&r, k.wb.conn, conn, "CRTC_ID", wbfb ? k.p.crtc : 0);
	areq_add(&r, k.wb.conn, conn, "WRITEBACK_FB_ID", wbfb);
	if (fence) {
		*fence = -1;
		areq_add(&r, k.wb.conn, conn, "WRITEBACK_OUT_FENCE_PTR",
			 (uint64_t)(uintptr_t)fence);
	}
	for (i = 0; i < k.num_planes; i++) {
		if (k.planes[i] == k.p.plane)
			continue;
		areq_add(&r, k.planes[i], DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
		areq_add(&r, k.planes[i], DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	}
	areq_plane(&r, k.p.plane, k.p.crtc, fb->fb_id, fb->width, fb->height,
		   0, 0);
	ret = areq_commit(&r, flags, NULL);
	areq_fini(&r);
	drmModeDestroyPropertyBlob(k.fd, blob);
	return ret;
}

/* The latest vblank: its sequence and timestamp in microseconds. */
static int vblank_now(uint32_t *seq, uint64_t *us)
{
	drmVBlank vbl = { 0 };

	vbl.request.type = DRM_VBLANK_RELATIVE |
		((k.p.crtc_idx << DRM_VBLANK_HIGH_CRTC_SHIFT) &
		 DRM_VBLANK_HIGH_CRTC_MASK);
	if (drmWaitVBlank(k.fd, &vbl))
		return -errno;
	*seq = vbl.reply.sequence;
	*us = (uint64_t)vbl.reply.tval_sec * 1000000 + vbl.reply.tval_usec;
	return 0;
}

/*
 * The core's picture of @fb shown at its size with @scaling on the
 * native raster: written into @ref (pitch @pitch, the output's size),
 * its CRC into @crc.
 */
static int core_fit(const struct fmt_fb *fb, uint64_t scaling, uint8_t *ref,
		    uint32_t pitch, uint64_t *crc)
{
	struct atomkms_plane_desc desc = {
		.fourcc = DRM_FORMAT_XRGB8888,
		.fb_width = fb->width, .fb_height = fb->height,
		.src_w = fb->width << 16, .src_h = fb->height << 16,
		.dst_w = fb->width, .dst_h = fb->height,
		.crtc_width = fb->width, .crtc_height = fb->height,
		.rotation = ATOMKMS_ROTATE_0, .alpha = 0xffff,
		.blend_mode = ATOMKMS_BLEND_PREMULTI,
	};
	struct atomkms_writeback wb = {
		.fourcc = DRM_FORMAT_XRGB8888, .map = { ref }, .pitch = { pitch },
	};
	struct atomkms_plane_job job;
	struct atomkms_frame_plane fp = { .job = &job };
	struct atomkms_frame f = {
		.width = fb->width, .height = fb->height, .num_planes = 1,
		.planes = &fp, .bpc = 8, .crc = crc, .wb = &wb,
	};
	struct atomkms_fit fit;
	const char *why;
	void *buf;
	int ret;

	ret = atomkms_plane_job_init(&job, &desc, &why);
	if (ret)
		return ret;
	fp.src.map[0] = fb->map;
	fp.src.pitch[0] = fb->pitch[0];
	if (scaling == ATOMKMS_FIT_NONE ||
	    (fb->width == k.p.mode.hdisplay && fb->height == k.p.mode.vdisplay))
		return atomkms_compose_frame(&f, k.scratch);
	ret = atomkms_fit_init(&fit, (uint32_t)scaling, fb->width, fb->height,
			       k.p.mode.hdisplay, k.p.mode.vdisplay);
	if (ret)
		return ret;
	buf = malloc(atomkms_fit_buffer_size(fb->width, fb->height));
	if (!buf)
		return -ENOMEM;
	ret = atomkms_fit_compose(&f, &fit, buf,
				  atomkms_fit_buffer_size(fb->width, fb->height),
				  k.scratch);
	free(buf);
	return ret;
}

/* Identical? If not, the first differing pixel. */
static bool same_pixels(const struct fmt_fb *wbfb, const uint8_t *ref,
			const char **why)
{
	uint32_t y, x;

	for (y = 0; y < wbfb->height; y++) {
		const uint32_t *a = (const uint32_t *)(wbfb->map +
						       (size_t)y * wbfb->pitch[0]);
		const uint32_t *b = (const uint32_t *)(ref +
						       (size_t)y * wbfb->pitch[0]);

		for (x = 0; x < wbfb->width; x++)
			if (a[x] != b[x]) {
				*why = sf("pixel (%u, %u): writeback %08x, core %08x",
					  x, y, a[x], b[x]);
				return false;
			}
	}
	return true;
}

/*
 * Show @w x @h with @scaling as a fastset from whatever runs, and check
 * it against the core. Returns the live CRC (0 if unknown).
 */
static uint64_t show(uint64_t scaling, uint32_t w, uint32_t h, bool fastset)
{
	const char *name = sf("%s %ux%u", mode_names[scaling], w, h);
	bool fitted = scaling != ATOMKMS_FIT_NONE &&
		      (w != k.p.mode.hdisplay || h != k.p.mode.vdisplay);
	uint32_t ow = fitted ? k.p.mode.hdisplay : w;
	uint32_t oh = fitted ? k.p.mode.vdisplay : h;
	drmModeModeInfo mode = native_timed(w, h);
	struct fmt_fb fb = { 0 }, wbfb = { 0 };
	uint64_t us0 = 0, us1 = 0, crc = 0, live_crc = 0;
	uint32_t seq0 = 0, seq1 = 0, now;
	struct crc_entry live;
	const char *why = "";
	uint8_t *ref = NULL;
	int ret, fence = -1;
	char what[96];

	snprintf(what, sizeof(what), "%s", name);
	if (fmt_fb_create(k.fd, w, h, DRM_FORMAT_XRGB8888, &fb) ||
	    fmt_fb_create(k.fd, ow, oh, DRM_FORMAT_XRGB8888, &wbfb)) {
		check(false, sf("%s: framebuffers", what), "create failed");
		goto out;
	}
	fill_pattern(&fb, w ^ h);
	memset(wbfb.map, WB_POISON, wbfb.size);

	if (fastset) {
		ret = vblank_now(&seq0, &us0);
		check(!ret, sf("%s: vblank before", what), strerror(-ret));
	}
	ret = commit_mode(&mode, &fb, scaling, wbfb.fb_id, &fence,
			  fastset ? 0 : DRM_MODE_ATOMIC_ALLOW_MODESET);
	if (!check(!ret, sf("%s: commit %s", what,
			    fastset ? "without ALLOW_MODESET" : "with ALLOW_MODESET"),
		   strerror(-ret)))
		goto out;
	ret = fence_wait(fence, FENCE_TIMEOUT_MS);
	check(ret == 1 && fence_status(fence) == 1,
	      sf("%s: writeback out-fence signals", what),
	      sf("wait %d", ret));
	ret = vblank_now(&seq1, &us1);
	if (fastset && !ret) {
		/* The schedule ran on: frames and time agree, same phase. */
		double period = 1e6 / mode_refresh(&k.p.mode);
		double frames = (double)(us1 - us0) / period;
		double off = frames - (double)(seq1 - seq0);

		check(seq1 > seq0 && off > -0.01 && off < 0.01,
		      sf("%s: vblanks run on through the fastset", what),
		      sf("%u vblanks in %.3f frame periods", seq1 - seq0,
			 frames));
	}

	ref = malloc(wbfb.size);
	if (!ref)
		goto out;
	memset(ref, WB_POISON, wbfb.size);
	ret = core_fit(&fb, scaling, ref, wbfb.pitch[0], &crc);
	if (!check(!ret, sf("%s: the core fits the pattern", what),
		   strerror(-ret)))
		goto out;
	check(same_pixels(&wbfb, ref, &why),
	      sf("%s: writeback (%ux%u) is the core's fit", what, ow, oh), why);

	ret = crc_reader_start(&k.crc);
	if (!ret)
		ret = vblank_count(k.fd, k.p.crtc_idx, &now);
	if (!ret)
		ret = crc_reader_next_after(&k.crc, now, &live,
					    FENCE_TIMEOUT_MS);
	crc_reader_stop(&k.crc);
	if (check(!ret && live.value == crc,
		  sf("%s: the live CRC is the core's", what),
		  ret ? strerror(-ret) :
		  sf("live %016llx, core %016llx",
		     (unsigned long long)live.value,
		     (unsigned long long)crc)))
		live_crc = live.value;
out:
	if (fence >= 0)
		close(fence);
	free(ref);
	fmt_fb_destroy(k.fd, &wbfb);
	fmt_fb_destroy(k.fd, &fb);
	return live_crc;
}

static void expect_einval(const char *what, int ret)
{
	check(ret == -EINVAL, what,
	      sf("returned %d (%s), want -EINVAL", ret, strerror(-ret)));
}

static void test_rejects(void)
{
	const uint32_t flags = DRM_MODE_ATOMIC_TEST_ONLY |
			       DRM_MODE_ATOMIC_ALLOW_MODESET;
	drmModeModeInfo big = k.p.mode, small = native_timed(640, 480);
	struct fmt_fb fb = { 0 }, wb_small = { 0 }, wb_native = { 0 };
	int ret;

	if (fmt_fb_create(k.fd, 640, 480, DRM_FORMAT_XRGB8888, &fb) ||
	    fmt_fb_create(k.fd, 640, 480, DRM_FORMAT_XRGB8888, &wb_small) ||
	    fmt_fb_create(k.fd, k.p.mode.hdisplay, k.p.mode.vdisplay,
			  DRM_FORMAT_XRGB8888, &wb_native)) {
		check(false, "reject: framebuffers", "create failed");
		goto out;
	}
	/* Larger than native, still a valid mode: into the front porch. */
	if (big.hsync_start > big.hdisplay)
		big.hdisplay++;
	else
		big.vdisplay++;
	ret = commit_mode(&big, &fb, ATOMKMS_FIT_FULL, 0, NULL, flags);
	expect_einval(sf("reject %ux%u on the native %ux%u timings",
			 big.hdisplay, big.vdisplay, k.p.mode.hdisplay,
			 k.p.mode.vdisplay), ret);
	ret = commit_mode(&small, &fb, ATOMKMS_FIT_FULL, wb_small.fb_id, NULL,
			  flags);
	expect_einval("reject a 640x480 writeback fb while fitting to native",
		      ret);
	ret = commit_mode(&small, &fb, ATOMKMS_FIT_NONE, wb_native.fb_id, NULL,
			  flags);
	expect_einval("reject a native-size writeback fb with None at 640x480",
		      ret);
	ret = commit_mode(&small, &fb, 4, 0, NULL, flags);
	expect_einval("reject scaling mode 4", ret);
	/* The right sizes pass the same checks. */
	ret = commit_mode(&small, &fb, ATOMKMS_FIT_FULL, wb_native.fb_id, NULL,
			  flags);
	check(!ret, "accept a native-size writeback fb while fitting",
	      strerror(-ret));
	ret = commit_mode(&small, &fb, ATOMKMS_FIT_NONE, wb_small.fb_id, NULL,
			  flags);
	check(!ret, "accept a 640x480 writeback fb with None", strerror(-ret));
out:
	fmt_fb_destroy(k.fd, &wb_native);
	fmt_fb_destroy(k.fd, &wb_small);
	fmt_fb_destroy(k.fd, &fb);
}

static int find_planes(void)
{
	drmModePlaneRes *pres = drmModeGetPlaneResources(k.fd);
	unsigned int i;

	if (!pres)
		return -1;
	for (i = 0; i < pres->count_planes && k.num_planes < 64; i++) {
		drmModePlane *pl = drmModeGetPlane(k.fd, pres->planes[i]);

		if (pl && (pl->possible_crtcs & (1u << k.p.crtc_idx)))
			k.planes[k.num_planes++] = pl->plane_id;
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(pres);
	return 0;
}

int main(void)
{
	uint32_t sizes[NUM_SIZES][2] = {
		{ 640, 480 }, { 800, 600 }, { 1000, 562 }, { 0, 0 },
	};
	uint64_t crcs[4][NUM_SIZES] = { { 0 } };
	uint64_t val = 0, again;
	struct fmt_fb nfb = { 0 };
	unsigned int m, i;
	int ret;

	k.fd = atomkms_open();
	if (!check(k.fd >= 0, "open atomkms device", "not found"))
		goto out;
	ret = kms_reset_all(k.fd);
	check(!ret, "reset the device to defaults", strerror(-ret));
	if (!check(!kms_pipe_find(k.fd, &k.p) && !find_planes(),
		   "find a connector, its CRTC and planes", "see stderr"))
		goto out_close;
	ret = wb_conn_find(k.fd, k.p.crtc_idx, &k.wb);
	if (!check(!ret, "the CRTC has a writeback connector", strerror(-ret)))
		goto out_close;
	k.scaling_prop = prop_id(k.fd, k.p.conn, DRM_MODE_OBJECT_CONNECTOR,
				 "scaling mode");
	if (!check(k.scaling_prop, "the connector has \"scaling mode\"",
		   "missing"))
		goto out_close;
	ret = prop_get(k.fd, k.p.conn, DRM_MODE_OBJECT_CONNECTOR,
		       "scaling mode", &val);
	check(!ret && val == ATOMKMS_FIT_ASPECT,
	      "\"scaling mode\" is Full aspect at reset",
	      sf("%d, value %llu", ret, (unsigned long long)val));
	check(prop_id(k.fd, k.wb.conn, DRM_MODE_OBJECT_CONNECTOR,
		      "scaling mode") == 0,
	      "the writeback connector has no \"scaling mode\"", "it has");
	printf("# connector %u, crtc %u, writeback %u, native %ux%u@%u\n",
	       k.p.conn, k.p.crtc, k.wb.conn, k.p.mode.hdisplay,
	       k.p.mode.vdisplay, k.p.mode.vrefresh);
	sizes[3][0] = k.p.mode.hdisplay / 2;
	sizes[3][1] = k.p.mode.vdisplay / 2;
	if (!check(k.p.mode.hdisplay >= 1000 && k.p.mode.vdisplay >= 600,
		   "the native mode holds 1000x600", "too small"))
		goto out_close;
	k.scratch = malloc(atomkms_compose_scratch_size(k.p.mode.hdisplay));
	if (!k.scratch ||
	    atomkms_compose_scratch_init(k.scratch, k.p.mode.hdisplay))
		goto out_close;
	ret = crc_reader_init(&k.crc, k.fd, k.p.crtc_idx);
	check(!ret, "live CRC directory", strerror(-ret));

	for (m = ATOMKMS_FIT_NONE; m <= ATOMKMS_FIT_ASPECT; m++) {
		/* The native mode, a full modeset; then fastsets. */
		show(m, k.p.mode.hdisplay, k.p.mode.vdisplay, false);
		for (i = 0; i < NUM_SIZES; i++)
			crcs[m][i] = show(m, sizes[i][0], sizes[i][1], true);
		/* Back to native, and the scaling mode alone, as fastsets. */
		show(m, k.p.mode.hdisplay, k.p.mode.vdisplay, true);
		show(m, 640, 480, true);
		show((m + 1) % 4, 640, 480, true);
	}

	/* The same picture twice: the same CRC. */
	again = show(ATOMKMS_FIT_FULL, 640, 480, true);
	check(again && again == crcs[ATOMKMS_FIT_FULL][0],
	      "the same commit again gives the same CRC", "differs");
	/* Half the native size: Full and Full aspect are the same picture. */
	check(crcs[ATOMKMS_FIT_FULL][3] &&
	      crcs[ATOMKMS_FIT_FULL][3] == crcs[ATOMKMS_FIT_ASPECT][3],
	      "half native: Full and Full aspect give the same CRC", "differ");
	check(crcs[ATOMKMS_FIT_CENTER][3] != crcs[ATOMKMS_FIT_FULL][3],
	      "half native: Center and Full differ", "same CRC");
	for (i = 0; i < NUM_SIZES; i++) {
		check(crcs[ATOMKMS_FIT_NONE][i] != crcs[ATOMKMS_FIT_FULL][i] &&
		      crcs[ATOMKMS_FIT_NONE][i] != crcs[ATOMKMS_FIT_CENTER][i],
		      sf("%ux%u: None differs from Full and Center",
			 sizes[i][0], sizes[i][1]), "same CRC");
		check(crcs[ATOMKMS_FIT_CENTER][i] != crcs[ATOMKMS_FIT_FULL][i],
		      sf("%ux%u: Center differs from Full", sizes[i][0],
			 sizes[i][1]), "same CRC");
		/* Same aspect as the native raster: the same picture. */
		if ((uint64_t)sizes[i][0] * k.p.mode.vdisplay ==
		    (uint64_t)sizes[i][1] * k.p.mode.hdisplay)
			continue;
		check(crcs[ATOMKMS_FIT_ASPECT][i] != crcs[ATOMKMS_FIT_FULL][i],
		      sf("%ux%u: Full aspect differs from Full", sizes[i][0],
			 sizes[i][1]), "same CRC");
	}

	test_rejects();

	/* Leave the default behind: Full aspect, the native mode. */
	if (!fmt_fb_create(k.fd, k.p.mode.hdisplay, k.p.mode.vdisplay,
			   DRM_FORMAT_XRGB8888, &nfb)) {
		ret = commit_mode(&k.p.mode, &nfb, ATOMKMS_FIT_ASPECT, 0, NULL,
				  DRM_MODE_ATOMIC_ALLOW_MODESET);
		check(!ret, "back to Full aspect at the native mode",
		      strerror(-ret));
		fmt_fb_destroy(k.fd, &nfb);
	}
	ret = kms_reset_all(k.fd);
	check(!ret, "switch everything off", strerror(-ret));
	free(k.scratch);
	wb_conn_fini(&k.wb);
out_close:
	close(k.fd);
out:
	return tap_done("test-scaling");
}
