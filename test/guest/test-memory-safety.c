// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-memory-safety - what a client could do to the kernel through
 * atomkms, and what its teardown did wrong. Each part failed (or oopsed
 * the guest) on the driver before its fix:
 *
 *  - odd-422: a YUYV/UYVY framebuffer of odd width ending at its buffer's
 *    last byte (the sequence: 3x1, pitch 8, offset 4090 in one
 *    page) is refused with EINVAL; the compositor read the last pixel's
 *    whole Y0 U Y1 V group, past the buffer, and oopsed. An even width
 *    there, with an odd source rectangle, is shown.
 *  - guarded: every format the overlay scans out, at an odd size, each
 *    plane of the framebuffer in a buffer of its own that it ends exactly
 *    at (a vmap is followed by a guard page), composed with CRC capture
 *    on: odd and fractional source offsets, the last pixel alone, every
 *    rotation, reflections, up- and downscaling, both filters. Each
 *    commit must succeed and two frames of it give one CRC.
 *  - cursor: a legacy cursor update while a nonblocking flip waits for
 *    its in-fence (sw_sync) must wait for that flip to be programmed, not
 *    change in place the cursor state the shown frame still reads.
 *  - fb-race: framebuffers put on a plane by id while another thread
 *    creates them (a framebuffer was findable before it was mapped).
 *  - split-mapping: a dumb buffer's mapping split by munmap or mprotect
 *    before it is touched shows each page where it belongs.
 *  - interlaced: a user mode with DRM_MODE_FLAG_INTERLACE is refused.
 *  - unbind: the device unbound and bound again, three times, with a CRC
 *    reader, a writeback job's out-fence, a pending flip event and a
 *    mapping held across it, and modesets racing it; the writeback and
 *    CRTC out-fences still answer after the device's last close, and
 *    closing them lets the device and the module go; the rebound device
 *    then flips.
 *
 * Usage: test-memory-safety [PART...]   (default: all; unbind needs root)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/sync_file.h>

#include <drm_fourcc.h>

#include "drmutil.h"
#include "tap.h"

#define CRC_TIMEOUT_MS		3000
#define EVENT_TIMEOUT_MS	2000
#define PAGE			4096u
#define PLATFORM_DRIVER		"/sys/bus/platform/drivers/atomkms"

/* sw_sync's debugfs interface (drivers/dma-buf/sw_sync.c). */
struct sw_sync_create_fence_data {
	uint32_t value;
	char name[32];
	int32_t fence;
};

#define SW_SYNC_IOC_CREATE_FENCE \
	_IOWR('W', 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC		_IOW('W', 1, uint32_t)
#define SW_SYNC_PATH		"/sys/kernel/debug/sync/sw_sync"

static struct {
	int fd;
	struct kms_pipe pipe;
	uint32_t overlay;
	uint32_t cursor;
	uint32_t mode_blob;
	struct dumb_fb bg;
	struct crc_reader crc;
	uint64_t rng;
} t;

static uint32_t rnd(void)
{
	t.rng ^= t.rng << 13;
	t.rng ^= t.rng >> 7;
	t.rng ^= t.rng << 17;
	return (uint32_t)(t.rng >> 16);
}

/* A dumb buffer of @pages pages; its handle, or 0. */
static uint32_t dumb_pages(unsigned int pages)
{
	struct drm_mode_create_dumb create = {
		.width = PAGE / 4, .height = pages, .bpp = 32,
	};

	if (drmIoctl(t.fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) ||
	    create.size != (uint64_t)pages * PAGE)
		return 0;
	return create.handle;
}

static void dumb_destroy(uint32_t handle)
{
	struct drm_mode_destroy_dumb destroy = { .handle = handle };

	if (handle)
		drmIoctl(t.fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
}

static int dumb_fill_random(uint32_t handle, size_t size)
{
	uint8_t *p = dumb_map(t.fd, handle, size);
	size_t i;

	if (!p)
		return -errno;
	for (i = 0; i < size; i++)
		p[i] = (uint8_t)rnd();
	munmap(p, size);
	return 0;
}

/*
 * The CRC of the state committed before the call: that of the first two
 * frames after the present vblank, which must agree (the queue holds
 * older frames first).
 */
static int crc_settled(uint64_t *value)
{
	struct crc_entry e[2];
	uint32_t now;
	int ret;

	ret = vblank_count(t.fd, t.pipe.crtc_idx, &now);
	if (!ret)
		ret = crc_reader_next_after(&t.crc, now, &e[0], CRC_TIMEOUT_MS);
	if (!ret)
		ret = crc_reader_next(&t.crc, &e[1], CRC_TIMEOUT_MS);
	if (ret)
		return ret;
	*value = e[1].value;
	return e[0].value == e[1].value ? 0 : -EAGAIN;
}

struct overlay_cfg {
	const char *name;
	uint32_t src_x, src_y, src_w, src_h;	/* 16.16 */
	int32_t crtc_x, crtc_y;
	uint32_t crtc_w, crtc_h;
	const char *rotation;		/* "rotate-0" ... */
	const char *reflect;		/* NULL, "reflect-x", "reflect-y" */
	const char *filter;		/* "Default" or "Nearest Neighbor" */
};

static int overlay_commit(uint32_t fb_id, const struct overlay_cfg *c)
{
	uint64_t rot = 0, v;
	struct areq r;
	int ret;

	if (prop_enum(t.fd, t.overlay, DRM_MODE_OBJECT_PLANE, "rotation",
		      c->rotation, &v))
		return -ENOENT;
	rot |= 1ull << v;
	if (c->reflect) {
		if (prop_enum(t.fd, t.overlay, DRM_MODE_OBJECT_PLANE,
			      "rotation", c->reflect, &v))
			return -ENOENT;
		rot |= 1ull << v;
	}
	areq_init(&r, t.fd);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_id);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "CRTC_ID", t.pipe.crtc);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "SRC_X", c->src_x);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "SRC_Y", c->src_y);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "SRC_W", c->src_w);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "SRC_H", c->src_h);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "CRTC_X",
		 (uint64_t)(int64_t)c->crtc_x);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "CRTC_Y",
		 (uint64_t)(int64_t)c->crtc_y);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "CRTC_W", c->crtc_w);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "CRTC_H", c->crtc_h);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "rotation", rot);
	if (prop_id(t.fd, t.overlay, DRM_MODE_OBJECT_PLANE, "SCALING_FILTER") &&
	    !prop_enum(t.fd, t.overlay, DRM_MODE_OBJECT_PLANE,
		       "SCALING_FILTER", c->filter, &v))
		areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE,
			 "SCALING_FILTER", v);
	ret = areq_commit(&r, 0, NULL);
	areq_fini(&r);
	return ret;
}

static int overlay_off(void)
{
	struct areq r;
	int ret;

	areq_init(&r, t.fd);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	areq_add(&r, t.overlay, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	ret = areq_commit(&r, 0, NULL);
	areq_fini(&r);
	return ret;
}

#define FX(v)	((uint32_t)(v) << 16)

/* odd-422: the sequence, and an even width with odd sources. */
static void test_odd_422(void)
{
	static const uint32_t fourccs[] = { DRM_FORMAT_YUYV, DRM_FORMAT_UYVY };
	uint32_t handle = dumb_pages(1), handles[4] = { handle };
	uint32_t pitches[4] = { 8 }, offsets[4] = { 4090 };
	struct overlay_cfg c = {
		.src_x = FX(1), .src_w = FX(3), .src_h = FX(1),
		.crtc_x = 64, .crtc_y = 64, .crtc_w = 12, .crtc_h = 4,
		.rotation = "rotate-0", .filter = "Default",
	};
	uint64_t crc;
	uint32_t fb;
	size_t i;
	int ret;

	if (!check(handle && !dumb_fill_random(handle, PAGE),
		   "odd-422: a one-page dumb buffer", strerror(errno)))
		return;
	for (i = 0; i < ARRAY_SIZE(fourccs); i++) {
		const char *f = fourcc_str(fourccs[i]);

		ret = drmModeAddFB2(t.fd, 3, 1, fourccs[i], handles, pitches,
				    offsets, &fb, 0) ? -errno : 0;
		if (!ret) {
			/* What oopsed: all of it on a plane, CRC on. */
			struct overlay_cfg whole = c;

			whole.src_x = 0;
			overlay_commit(fb, &whole);
			crc_settled(&crc);
			overlay_off();
			drmModeRmFB(t.fd, fb);
		}
		check(ret == -EINVAL,
		      sf("odd-422: %s 3x1 at offset 4090 of one page refused", f),
		      sf("ADDFB2 gave %s", ret ? strerror(-ret) : "success"));

		/* 4x1 ends at the page's end too; show pixels 1..3 of it. */
		offsets[0] = 4088;
		ret = drmModeAddFB2(t.fd, 4, 1, fourccs[i], handles, pitches,
				    offsets, &fb, 0) ? -errno : 0;
		offsets[0] = 4090;
		if (!check(!ret, sf("odd-422: %s 4x1 at offset 4088 accepted", f),
			   strerror(-ret)))
			continue;
		ret = overlay_commit(fb, &c);
		if (!ret)
			ret = crc_settled(&crc);
		check(!ret, sf("odd-422: %s source 3 pixels from x=1 shown", f),
		      strerror(-ret));
		overlay_off();
		drmModeRmFB(t.fd, fb);
	}
	dumb_destroy(handle);
}

/*
 * A framebuffer of @fourcc, @w x @h, each plane in a dumb buffer of its
 * own that its last line ends exactly at. 0 or a negative errno.
 */
static int guarded_fb(uint32_t fourcc, uint32_t w, uint32_t h,
		      uint32_t *fb_id, uint32_t handles[4])
{
	unsigned int num_planes, cpp[3], hsub, vsub, i;
	uint32_t pitches[4] = { 0 }, offsets[4] = { 0 };
	int ret;

	memset(handles, 0, 4 * sizeof(handles[0]));
	ret = fourcc_layout(fourcc, &num_planes, cpp, &hsub, &vsub);
	if (ret)
		return ret;
	for (i = 0; i < num_planes; i++) {
		uint32_t pw = i ? (w + hsub - 1) / hsub : w;
		uint32_t ph = i ? (h + vsub - 1) / vsub : h;
		uint32_t row = pw * cpp[i];
		uint64_t size;
		unsigned int pages;

		/* One pixel of padding: the last line has none. */
		pitches[i] = row + cpp[i];
		size = (uint64_t)(ph - 1) * pitches[i] + row;
		pages = (size + PAGE - 1) / PAGE;
		handles[i] = dumb_pages(pages);
		if (!handles[i] ||
		    dumb_fill_random(handles[i], (size_t)pages * PAGE))
			return -ENOMEM;
		offsets[i] = pages * PAGE - size;
	}
	return drmModeAddFB2(t.fd, w, h, fourcc, handles, pitches, offsets,
			     fb_id, 0) ? -errno : 0;
}

static void test_guarded(void)
{
	drmModePlane *pl = drmModeGetPlane(t.fd, t.overlay);
	unsigned int formats = 0, commits = 0, bad = 0, i, k;
	char first_bad[160] = "";

	if (!check(pl != NULL, "guarded: the overlay's formats", "GETPLANE"))
		return;
	for (i = 0; i < pl->count_formats; i++) {
		uint32_t fourcc = pl->formats[i], handles[4], fb = 0;
		unsigned int num_planes, cpp[3], hsub, vsub;
		/* Packed 4:2:2 framebuffers have even widths (odd-422). */
		bool packed = fourcc == DRM_FORMAT_YUYV ||
			      fourcc == DRM_FORMAT_UYVY;
		uint32_t w = packed ? 34 : 33, h = 17;
		const struct overlay_cfg cfgs[] = {
			{ "whole", 0, 0, FX(w), FX(h), 8, 8, w, h,
			  "rotate-0", NULL, "Nearest Neighbor" },
			{ "odd offset, rotate-90, up", FX(1), FX(1),
			  FX(w - 1), FX(h - 1), 64, 40, 2 * (h - 1), 2 * (w - 1),
			  "rotate-90", NULL, "Default" },
			{ "fractional, rotate-180 reflect-x, down",
			  0x8000, 0x4000, FX(w - 1), FX(h - 1), 200, 30,
			  (w - 1) / 2, (h - 1) / 2, "rotate-180", "reflect-x",
			  "Default" },
			{ "last pixel, rotate-270 reflect-y, up",
			  FX(w - 1), FX(h - 1), FX(1), FX(1), 300, 60, 4, 4,
			  "rotate-270", "reflect-y", "Default" },
			{ "last column, nearest, up", FX(w - 1), 0, FX(1),
			  FX(h), 320, 8, 3, 2 * h, "rotate-0", NULL,
			  "Nearest Neighbor" },
			{ "last line, rotate-90, down", 0, FX(h - 1), FX(w),
			  FX(1), 340, 8, 1, w / 2, "rotate-90", NULL,
			  "Default" },
		};

		if (fourcc_layout(fourcc, &num_planes, cpp, &hsub, &vsub))
			continue;
		formats++;
		if (guarded_fb(fourcc, w, h, &fb, handles)) {
			bad++;
			snprintf(first_bad, sizeof(first_bad), "%s: ADDFB2: %s",
				 fourcc_str(fourcc), strerror(errno));
		}
		for (k = 0; fb && k < ARRAY_SIZE(cfgs); k++) {
			uint64_t crc;
			int ret = overlay_commit(fb, &cfgs[k]);

			if (!ret)
				ret = crc_settled(&crc);
			commits++;
			if (ret && !bad++)
				snprintf(first_bad, sizeof(first_bad),
					 "%s %ux%u %s: %s", fourcc_str(fourcc),
					 w, h, cfgs[k].name, strerror(-ret));
		}
		overlay_off();
		if (fb)
			drmModeRmFB(t.fd, fb);
		for (k = 0; k < 3; k++)
			dumb_destroy(handles[k]);
	}
	drmModeFreePlane(pl);
	printf("# guarded: %u formats, %u compositions\n", formats, commits);
	check(formats > 20 && !bad,
	      sf("guarded: %u formats, each plane at its buffer's end, %u commits shown",
		 formats, commits),
	      sf("%u failed, first %s", bad, first_bad));
}

struct signaller {
	int timeline;
	unsigned int delay_ms;
	double signalled_at;
};

static void *signal_later(void *arg)
{
	struct signaller *s = arg;
	uint32_t one = 1;

	usleep(s->delay_ms * 1000);
	s->signalled_at = mono_now();
	ioctl(s->timeline, SW_SYNC_IOC_INC, &one);
	return NULL;
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	(void)fd, (void)seq, (void)tv_sec, (void)tv_usec, (void)crtc_id;
	++*(unsigned int *)data;
}

/* cursor: a legacy cursor update beside a flip waiting for its fence. */
static void test_cursor_vs_fenced_flip(void)
{
	struct sw_sync_create_fence_data fdata = { .value = 1 };
	struct signaller sig = { .delay_ms = 300 };
	struct drm_mode_create_dumb big = { .width = 128, .height = 128,
					    .bpp = 32 };
	drmEventContext ev = { .version = 3,
			       .page_flip_handler2 = flip_handler };
	unsigned int events = 0;
	struct dumb_fb other, small;
	uint64_t crc_after, crc_a, crc_again;
	pthread_t thread;
	double t0, took;
	struct areq r;
	int ret;

	strcpy(fdata.name, "atomkms-test");
	sig.timeline = open(SW_SYNC_PATH, O_RDWR);
	if (!check(sig.timeline >= 0, "cursor: sw_sync timeline",
		   sf("%s: %s", SW_SYNC_PATH, strerror(errno))))
		return;
	if (!check(!dumb_fb_create(t.fd, t.bg.width, t.bg.height, &other) &&
		   !dumb_fb_create(t.fd, 64, 64, &small) &&
		   !drmIoctl(t.fd, DRM_IOCTL_MODE_CREATE_DUMB, &big),
		   "cursor: buffers", "see stderr"))
		goto out;
	memset(other.pixels, 0x40, other.size);
	memset(small.pixels, 0xc0, small.size);
	{
		uint8_t *px = dumb_map(t.fd, big.handle, big.size);

		if (px) {
			memset(px, 0xff, big.size);
			munmap(px, big.size);
		}
	}

	ret = drmModeSetCursor(t.fd, t.pipe.crtc, small.handle, 64, 64) ?
	      -errno : 0;
	if (!check(!ret, "cursor: a 64x64 cursor", strerror(-ret)) ||
	    !check(!ioctl(sig.timeline, SW_SYNC_IOC_CREATE_FENCE, &fdata),
		   "cursor: an unsignalled in-fence", strerror(errno)))
		goto out;

	areq_init(&r, t.fd);
	areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
		 other.fb_id);
	areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "IN_FENCE_FD",
		 fdata.fence);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
			  DRM_MODE_PAGE_FLIP_EVENT, &events);
	areq_fini(&r);
	if (!check(!ret, "cursor: a nonblocking flip waiting for its fence",
		   strerror(-ret)))
		goto out_fence;

	pthread_create(&thread, NULL, signal_later, &sig);
	t0 = mono_now();
	ret = drmModeSetCursor2(t.fd, t.pipe.crtc, big.handle, 128, 128, 3, 3) ?
	      -errno : 0;
	took = mono_now() - t0;
	pthread_join(thread, NULL);
	check(!ret, "cursor: a 128x128 cursor meanwhile", strerror(-ret));
	check(mono_now() >= sig.signalled_at && took > 0.2,
	      "cursor: the update waits for the fenced flip to be programmed",
	      sf("returned after %.1f ms, the fence signalled after %u ms",
		 took * 1000, sig.delay_ms));
	while (!events && wait_event(t.fd, &ev, EVENT_TIMEOUT_MS) > 0)
		;
	check(events == 1, "cursor: the flip's event", "none came");

	/* The frame shown is the committed one: the same CRC once rebuilt. */
	ret = crc_settled(&crc_after);
	if (!ret) {
		areq_init(&r, t.fd);
		areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
			 t.bg.fb_id);
		ret = areq_commit(&r, 0, NULL);
		areq_fini(&r);
	}
	if (!ret)
		ret = crc_settled(&crc_a);
	if (!ret) {
		areq_init(&r, t.fd);
		areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
			 other.fb_id);
		ret = areq_commit(&r, 0, NULL);
		areq_fini(&r);
	}
	if (!ret)
		ret = crc_settled(&crc_again);
	check(!ret && crc_after == crc_again && crc_a != crc_after,
	      "cursor: the frame after the race is the committed state's",
	      ret ? strerror(-ret) : sf("CRC %016llx, rebuilt %016llx",
					(unsigned long long)crc_after,
					(unsigned long long)crc_again));
out_fence:
	close(fdata.fence);
out:
	drmModeSetCursor(t.fd, t.pipe.crtc, 0, 0, 0);
	areq_init(&r, t.fd);
	areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID", t.bg.fb_id);
	areq_commit(&r, 0, NULL);
	areq_fini(&r);
	dumb_fb_destroy(t.fd, &other);
	dumb_fb_destroy(t.fd, &small);
	dumb_destroy(big.handle);
	close(sig.timeline);
}

struct race {
	atomic_uint last_id;
	atomic_bool done;
	unsigned int created, shown;
};

#define RACE_FBS 300

static void *race_create(void *arg)
{
	static struct dumb_fb fbs[RACE_FBS];
	struct race *rc = arg;
	unsigned int i;

	for (i = 0; i < RACE_FBS; i++) {
		if (dumb_fb_create(t.fd, 64, 64, &fbs[i]))
			break;
		atomic_store(&rc->last_id, fbs[i].fb_id);
		rc->created++;
	}
	atomic_store(&rc->done, true);
	while (i--)
		dumb_fb_destroy(t.fd, &fbs[i]);
	return NULL;
}

/* fb-race: framebuffers put on the overlay by id as they are created. */
static void test_fb_race(void)
{
	struct overlay_cfg c = {
		.src_w = FX(64), .src_h = FX(64), .crtc_x = 16, .crtc_y = 16,
		.crtc_w = 64, .crtc_h = 64, .rotation = "rotate-0",
		.filter = "Default",
	};
	struct race rc = { 0 };
	pthread_t thread;
	unsigned int tries = 0;

	pthread_create(&thread, NULL, race_create, &rc);
	while (!atomic_load(&rc.done)) {
		uint32_t id = atomic_load(&rc.last_id) + 1 + tries % 2;

		tries++;
		if (!overlay_commit(id, &c))
			rc.shown++;
	}
	pthread_join(thread, NULL);
	overlay_off();
	printf("# fb-race: %u framebuffers created, %u of %u commits by guessed id took one\n",
	       rc.created, rc.shown, tries);
	check(rc.created == RACE_FBS,
	      "fb-race: framebuffers created while another thread commits them by id",
	      sf("%u of %u", rc.created, RACE_FBS));
}

/* split-mapping: each page of a split mapping shows its own page. */
static void test_split_mapping(void)
{
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handle = dumb_pages(4);
	uint8_t *p, *q;
	unsigned int i, wrong = 0;

	if (!check(handle != 0, "split-mapping: a 4-page dumb buffer",
		   strerror(errno)))
		return;
	p = dumb_map(t.fd, handle, 4 * PAGE);
	if (!check(p != NULL, "split-mapping: map it", strerror(errno)))
		goto out;
	for (i = 0; i < 4; i++)
		memset(p + i * PAGE, 0x11 * (i + 1), PAGE);
	munmap(p, 4 * PAGE);

	map.handle = handle;
	drmIoctl(t.fd, DRM_IOCTL_MODE_MAP_DUMB, &map);
	/* munmap of the first page, before any page is touched. */
	q = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, t.fd,
		 map.offset);
	if (q != MAP_FAILED) {
		munmap(q, PAGE);
		for (i = 1; i < 4; i++)
			wrong += q[i * PAGE] != 0x11 * (i + 1);
		munmap(q + PAGE, 3 * PAGE);
	}
	/* mprotect of the third page: three VMAs. */
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, t.fd,
		 map.offset);
	if (p != MAP_FAILED) {
		mprotect(p + 2 * PAGE, PAGE, PROT_READ);
		for (i = 3; i-- > 0;)
			wrong += p[(i + 1) * PAGE - 1] != 0x11 * (i + 1);
		wrong += p[3 * PAGE] != 0x44;
		munmap(p, 4 * PAGE);
	}
	check(q != MAP_FAILED && p != MAP_FAILED && !wrong,
	      "split-mapping: every page of a split mapping is its own",
	      sf("%u pages wrong", wrong));
out:
	dumb_destroy(handle);
}

/* interlaced: a user mode the vblank core would count in fields. */
static void test_interlaced(void)
{
	drmModeModeInfo mode = t.pipe.mode;
	uint32_t blob = 0;
	struct areq r;
	int ret;

	mode.flags |= DRM_MODE_FLAG_INTERLACE;
	snprintf(mode.name, sizeof(mode.name), "%ux%ui", mode.hdisplay,
		 mode.vdisplay);
	if (drmModeCreatePropertyBlob(t.fd, &mode, sizeof(mode), &blob)) {
		check(false, "interlaced: a mode blob", strerror(errno));
		return;
	}
	areq_init(&r, t.fd);
	areq_add(&r, t.pipe.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_TEST_ONLY |
			  DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	check(ret == -EINVAL, "interlaced: an interlaced mode is refused",
	      ret ? strerror(-ret) : "accepted");
	ret = drmModeSetCrtc(t.fd, t.pipe.crtc, t.bg.fb_id, 0, 0,
			     &t.pipe.conn, 1, &mode) ? -errno : 0;
	check(ret == -EINVAL, "interlaced: SETCRTC with it is refused",
	      ret ? strerror(-ret) : "accepted");
	drmModeDestroyPropertyBlob(t.fd, blob);
}

/* A mode of at most 1024 pixels a line, to keep compositions short. */
static void pick_small_mode(void)
{
	drmModeConnector *c = drmModeGetConnector(t.fd, t.pipe.conn);
	int i;

	for (i = 0; c && i < c->count_modes; i++)
		if (c->modes[i].hdisplay <= 1024 &&
		    c->modes[i].hdisplay >= 640 &&
		    !(c->modes[i].flags & DRM_MODE_FLAG_INTERLACE)) {
			t.pipe.mode = c->modes[i];
			break;
		}
	drmModeFreeConnector(c);
}

static int setup(void)
{
	struct areq r;
	int ret;

	t.fd = atomkms_open();
	if (t.fd < 0)
		return -ENODEV;
	ret = kms_reset_all(t.fd);
	if (!ret)
		ret = kms_pipe_find(t.fd, &t.pipe) ? -ENOENT : 0;
	if (ret)
		return ret;
	pick_small_mode();
	t.overlay = t.cursor = 0;
	{
		drmModePlaneRes *pr = drmModeGetPlaneResources(t.fd);
		uint32_t i;

		for (i = 0; pr && i < pr->count_planes; i++) {
			drmModePlane *pl = drmModeGetPlane(t.fd, pr->planes[i]);
			int type = plane_type(t.fd, pr->planes[i]);

			if (pl && (pl->possible_crtcs & (1u << t.pipe.crtc_idx))) {
				if (type == DRM_PLANE_TYPE_OVERLAY && !t.overlay)
					t.overlay = pl->plane_id;
				if (type == DRM_PLANE_TYPE_CURSOR && !t.cursor)
					t.cursor = pl->plane_id;
			}
			drmModeFreePlane(pl);
		}
		drmModeFreePlaneResources(pr);
	}
	if (!t.overlay)
		return -ENOENT;
	ret = dumb_fb_create(t.fd, t.pipe.mode.hdisplay, t.pipe.mode.vdisplay,
			     &t.bg);
	if (ret)
		return ret;
	memset(t.bg.pixels, 0x80, t.bg.size);
	if (drmModeCreatePropertyBlob(t.fd, &t.pipe.mode, sizeof(t.pipe.mode),
				      &t.mode_blob))
		return -errno;
	areq_init(&r, t.fd);
	areq_modeset(&r, &t.pipe, t.mode_blob, &t.bg);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	if (ret)
		return ret;
	ret = crc_reader_init(&t.crc, t.fd, t.pipe.crtc_idx);
	return ret ? ret : crc_reader_start(&t.crc);
}

static void teardown(void)
{
	crc_reader_stop(&t.crc);
	kms_disable_all(t.fd);
	dumb_fb_destroy(t.fd, &t.bg);
	if (t.mode_blob)
		drmModeDestroyPropertyBlob(t.fd, t.mode_blob);
	close(t.fd);
	t.mode_blob = 0;
}

/* A writeback job with an out-fence, queued on the pipe: its fence fd. */
static int writeback_job(struct dumb_fb *wbfb)
{
	struct wb_conn wb;
	int32_t fence = -1;
	struct areq r;
	int ret;

	uint32_t conn;

	ret = wb_conn_find(t.fd, t.pipe.crtc_idx, &wb);
	if (ret)
		return ret;
	conn = wb.conn;
	wb_conn_fini(&wb);
	ret = dumb_fb_create(t.fd, t.pipe.mode.hdisplay, t.pipe.mode.vdisplay,
			     wbfb);
	if (ret)
		return ret;
	/* The writeback connector drives the CRTC alone (no clones yet). */
	areq_init(&r, t.fd);
	areq_add(&r, t.pipe.conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	areq_add(&r, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", t.pipe.crtc);
	areq_add(&r, conn, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID",
		 wbfb->fb_id);
	areq_add(&r, conn, DRM_MODE_OBJECT_CONNECTOR,
		 "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return ret ? ret : fence;
}

struct toggler {
	atomic_bool stop;
	unsigned int commits;
	int last_err;
};

/* Switch the CRTC off and on until told to stop or the device is gone. */
static void *toggle_crtc(void *arg)
{
	struct toggler *tg = arg;
	/* Looked up once: the unplugged device answers no lookup either. */
	uint32_t prop = prop_id(t.fd, t.pipe.crtc, DRM_MODE_OBJECT_CRTC,
				"ACTIVE");
	uint64_t active = 0;

	while (prop && !atomic_load(&tg->stop)) {
		struct areq r;
		int ret;

		areq_init(&r, t.fd);
		areq_add_id(&r, t.pipe.crtc, prop, active);
		ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
		areq_fini(&r);
		if (ret) {
			tg->last_err = ret;
			break;
		}
		tg->commits++;
		active = !active;
	}
	return NULL;
}

/*
 * A signalled out-fence answers SYNC_IOC_FILE_INFO after the device's last
 * close: its lock and its driver name live in the device. Newer kernels
 * (7.3, not 6.12) no longer ask the driver about a signalled fence, and
 * name its driver "detached-driver" themselves.
 */
static void check_fence_info(const char *what, int fence)
{
	struct sync_fence_info finfo = { 0 };
	struct sync_file_info info = { 0 };
	int ret;

	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)&finfo;
	ret = ioctl(fence, SYNC_IOC_FILE_INFO, &info) ? -errno : 0;
	check(!ret && finfo.status != 0 &&
	      (!strcmp(finfo.driver_name, "atomkms") ||
	       !strcmp(finfo.driver_name, "detached-driver")),
	      sf("%s answers after the device's last close", what),
	      ret ? strerror(-ret) : sf("driver \"%.32s\", status %d",
					finfo.driver_name, finfo.status));
}

static int module_refcnt(void)
{
	FILE *f = fopen("/sys/module/atomkms/refcnt", "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/* The module's refcount falls below @held within a second. */
static bool module_refcnt_drops(int held)
{
	double end = mono_now() + 1.0;

	while (mono_now() < end) {
		if (module_refcnt() < held)
			return true;
		usleep(10000);
	}
	return false;
}

/* unbind: the device goes away under a busy client, and comes back. */
static void test_unbind(unsigned int cycles)
{
	drmEventContext ev = { .version = 3,
			       .page_flip_handler2 = flip_handler };
	unsigned int i, k, events = 0;
	struct dumb_fb wbfb, other;
	struct toggler tg;
	pthread_t thread;
	drmModeRes *res;
	int fence, crtc_fence, ret;

	for (i = 0; i < cycles; i++) {
		const char *c = sf("unbind %u", i + 1);
		volatile uint32_t sum = 0;
		struct areq r;

		ret = setup();
		if (!check(!ret, sf("%s: a pipe with CRC capture", c),
			   strerror(-ret)))
			return;
		fence = writeback_job(&wbfb);
		check(fence >= 0, sf("%s: a writeback job with an out-fence", c),
		      strerror(-fence));
		ret = dumb_fb_create(t.fd, t.pipe.mode.hdisplay,
				     t.pipe.mode.vdisplay, &other);
		crtc_fence = -1;
		if (!ret) {
			areq_init(&r, t.fd);
			areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE,
				 "FB_ID", other.fb_id);
			areq_add(&r, t.pipe.crtc, DRM_MODE_OBJECT_CRTC,
				 "OUT_FENCE_PTR", (uintptr_t)&crtc_fence);
			ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
					  DRM_MODE_PAGE_FLIP_EVENT, &events);
			areq_fini(&r);
		}
		/* Polled while pending: its close then takes the fence's lock. */
		if (!ret && crtc_fence >= 0)
			fence_wait(crtc_fence, 0);
		check(!ret && crtc_fence >= 0,
		      sf("%s: a flip pending, with an out-fence", c),
		      strerror(-ret));

		/* Modesets race with the removal: one may come after it. */
		tg = (struct toggler){ 0 };
		pthread_create(&thread, NULL, toggle_crtc, &tg);
		usleep(100000);
		ret = write_str(PLATFORM_DRIVER "/unbind", "atomkms");
		for (k = 0; k < 100 && !tg.last_err; k++)
			usleep(10000);
		atomic_store(&tg.stop, true);
		pthread_join(thread, NULL);
		if (!check(!ret, sf("%s: unbind with all that held", c),
			   strerror(-ret)))
			return;
		check(tg.commits > 0 && tg.last_err == -ENODEV,
		      sf("%s: modesets raced the unbind until ENODEV", c),
		      sf("%u modesets, then %s", tg.commits,
			 tg.last_err ? strerror(-tg.last_err) : "no error"));
		res = drmModeGetResources(t.fd);
		check(!res && errno == ENODEV,
		      sf("%s: the unplugged device answers ENODEV", c),
		      res ? "it answered" : strerror(errno));
		drmModeFreeResources(res);
		/* The mapping still reads the buffer's pages. */
		sum += t.bg.pixels[0] + other.pixels[other.size / 4 - 1];
		/* The last close releases the device, but for the fence. */
		crc_reader_stop(&t.crc);
		munmap(t.bg.pixels, t.bg.size);
		munmap(other.pixels, other.size);
		munmap(wbfb.pixels, wbfb.size);
		close(t.fd);
		if (fence >= 0 && crtc_fence >= 0) {
			int held = module_refcnt();

			check_fence_info(sf("%s: the writeback out-fence", c),
					 fence);
			check_fence_info(sf("%s: the CRTC out-fence", c),
					 crtc_fence);
			close(fence);
			close(crtc_fence);
			check(held > 0 && module_refcnt_drops(held),
			      sf("%s: closing them lets the device and module go", c),
			      sf("module refcnt stayed %d", held));
		} else {
			if (fence >= 0)
				close(fence);
			if (crtc_fence >= 0)
				close(crtc_fence);
		}

		ret = write_str(PLATFORM_DRIVER "/bind", "atomkms");
		if (!check(!ret, sf("%s: bind again", c), strerror(-ret)))
			return;
	}

	/* The rebound device works: a modeset and a flip with its event. */
	ret = setup();
	if (!ret) {
		struct areq r;

		events = 0;
		areq_init(&r, t.fd);
		areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
			 t.bg.fb_id);
		ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
				  DRM_MODE_PAGE_FLIP_EVENT, &events);
		areq_fini(&r);
		while (!ret && !events &&
		       wait_event(t.fd, &ev, EVENT_TIMEOUT_MS) > 0)
			;
	}
	check(!ret && events == 1,
	      sf("unbind: after %u cycles the device flips", cycles),
	      ret ? strerror(-ret) : "no event");
	teardown();
}

static const struct {
	const char *name;
	void (*run)(void);
} parts[] = {
	{ "odd-422", test_odd_422 },
	{ "guarded", test_guarded },
	{ "cursor", test_cursor_vs_fenced_flip },
	{ "fb-race", test_fb_race },
	{ "split-mapping", test_split_mapping },
	{ "interlaced", test_interlaced },
};

static bool wanted(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return argc < 2;
}

int main(int argc, char **argv)
{
	size_t i;
	int ret;

	t.rng = 0x9e3779b97f4a7c15ull;
	ret = setup();
	if (!check(!ret, "a pipe with CRC capture and an overlay",
		   strerror(-ret)))
		goto out;
	printf("# mode %ux%u, overlay %u\n", t.pipe.mode.hdisplay,
	       t.pipe.mode.vdisplay, t.overlay);

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		if (wanted(argc, argv, parts[i].name))
			parts[i].run();
	teardown();
	if (wanted(argc, argv, "unbind"))
		test_unbind(3);
out:
	return tap_done("test-memory-safety");
}
