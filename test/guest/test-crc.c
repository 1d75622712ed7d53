// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-crc - atomkms's CRCs through the DRM debugfs CRC API, as igt reads
 * them.
 *
 * Modesets the first connected output with framebuffer A (a gradient),
 * then checks:
 *  - reference: each of A and B (another gradient) gives one CRC value
 *    over 8 consecutive frames, frame numbers +1 apart, and A's differs
 *    from B's;
 *  - reopen: an async flip between closing the CRC file and opening it
 *    again changes the state while a composition for the old reader may
 *    still run; the first CRC of the new reader must be the new
 *    framebuffer's (a stale one was once reported: igt's collect_crc
 *    pattern, start/read/stop, flaked on it), N times;
 *  - current: in one session, after each blocking commit of A or B, the
 *    CRC of the first frame after the vblank counter at return (igt's
 *    igt_pipe_crc_get_current()) is the committed framebuffer's.
 *
 * Usage: test-crc [-n ROUNDS]   (default 60)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drmutil.h"
#include "tap.h"

#define CRC_TIMEOUT_MS		2000
#define EVENT_TIMEOUT_MS	1000
#define REF_FRAMES		8

static struct {
	int fd;
	struct kms_pipe pipe;
	struct dumb_fb fb[2];
	struct crc_reader crc;
	unsigned int flips;	/* page-flip events received */
} t;

static void fill(struct dumb_fb *fb, uint32_t seed)
{
	uint32_t x, y;

	for (y = 0; y < fb->height; y++)
		for (x = 0; x < fb->width; x++)
			fb->pixels[y * (fb->stride / 4) + x] =
				(x * seed) ^ (y << 8) ^ (seed << 16);
}

/* The vblank counter, after waiting for @wait vblanks. */
static uint32_t vblank_wait(unsigned int wait)
{
	drmVBlank vbl = { 0 };

	vbl.request.sequence = wait;
	vbl.request.type = DRM_VBLANK_RELATIVE |
		((t.pipe.crtc_idx << DRM_VBLANK_HIGH_CRTC_SHIFT) &
		 DRM_VBLANK_HIGH_CRTC_MASK);
	if (drmWaitVBlank(t.fd, &vbl))
		return 0;
	return vbl.reply.sequence;
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	(void)fd, (void)seq, (void)tv_sec, (void)tv_usec, (void)crtc_id;
	(void)data;
	t.flips++;
}

static int commit_fb(unsigned int i)
{
	struct areq r;

	areq_init(&r, t.fd);
	areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID",
		 t.fb[i].fb_id);
	return areq_commit(&r, 0, NULL);
}

/* An async flip to fb @i, and its event. 0 or a negative errno. */
static int async_flip(unsigned int i)
{
	drmEventContext ev = {
		.version = 3, .page_flip_handler2 = flip_handler,
	};
	unsigned int want = t.flips + 1;
	int ret;

	ret = drmModePageFlip(t.fd, t.pipe.crtc, t.fb[i].fb_id,
			      DRM_MODE_PAGE_FLIP_EVENT |
			      DRM_MODE_PAGE_FLIP_ASYNC, NULL);
	if (ret)
		return -errno;
	while (t.flips < want) {
		ret = wait_event(t.fd, &ev, EVENT_TIMEOUT_MS);
		if (ret <= 0)
			return ret ? ret : -ETIMEDOUT;
	}
	return 0;
}

/* One CRC session on fb @i: its value over REF_FRAMES frames, or 0. */
static uint64_t reference(unsigned int i)
{
	struct crc_entry e, first = { 0 };
	unsigned int n, gaps = 0, changes = 0;
	int ret;

	ret = commit_fb(i);
	if (!check(!ret, sf("commit framebuffer %c", 'A' + i), strerror(-ret)))
		return 0;
	ret = crc_reader_start(&t.crc);
	if (!check(!ret, "open the CRC file", strerror(-ret)))
		return 0;
	for (n = 0; n < REF_FRAMES; n++) {
		ret = crc_reader_next(&t.crc, &e, CRC_TIMEOUT_MS);
		if (ret)
			break;
		if (n == 0)
			first = e;
		else
			gaps += e.frame != first.frame + n;
		changes += e.value != first.value;
	}
	crc_reader_stop(&t.crc);
	check(!ret, sf("read %u CRCs of %c", REF_FRAMES, 'A' + i),
	      strerror(-ret));
	check(!gaps, sf("%c: frame numbers go up by 1", 'A' + i),
	      sf("%u gaps after frame %u", gaps, first.frame));
	check(!changes, sf("%c: one CRC value for a still frame", 'A' + i),
	      sf("%u of %u differ from %#llx", changes, REF_FRAMES,
		 (unsigned long long)first.value));
	printf("# %c: CRC %#018llx from frame %u\n", 'A' + i,
	       (unsigned long long)first.value, first.frame);
	return ret || gaps || changes ? 0 : first.value;
}

static void test_reopen(const uint64_t ref[2], unsigned int rounds)
{
	unsigned int i, cur = 1, stale = 0, errors = 0;
	struct crc_entry e;
	int ret;

	for (i = 0; i < rounds; i++) {
		if (crc_reader_start(&t.crc) || crc_reader_next(&t.crc, &e, CRC_TIMEOUT_MS)) {
			errors++;
			crc_reader_stop(&t.crc);
			continue;
		}
		/* Just after a vblank, a composition for this reader runs. */
		vblank_wait(1);
		crc_reader_stop(&t.crc);
		cur ^= 1;
		ret = async_flip(cur);
		if (ret) {
			errors++;
			break;
		}
		ret = crc_reader_start(&t.crc);
		if (!ret)
			ret = crc_reader_next(&t.crc, &e, CRC_TIMEOUT_MS);
		crc_reader_stop(&t.crc);
		if (ret) {
			errors++;
			continue;
		}
		if (e.value != ref[cur]) {
			stale++;
			printf("# round %u: frame %u CRC %#018llx, want %c's %#018llx\n",
			       i, e.frame, (unsigned long long)e.value,
			       'A' + cur, (unsigned long long)ref[cur]);
		}
	}
	check(!errors, sf("reopen: %u rounds without errors", rounds),
	      sf("%u errors", errors));
	check(!stale, "reopen: the first CRC after an async flip is the new framebuffer's",
	      sf("%u of %u stale", stale, rounds));
}

static void test_current(const uint64_t ref[2], unsigned int rounds)
{
	unsigned int i, wrong = 0, errors = 0;
	struct crc_entry e;
	uint32_t target;
	int ret;

	ret = crc_reader_start(&t.crc);
	if (!check(!ret, "current: open the CRC file", strerror(-ret)))
		return;
	for (i = 0; i < rounds && !errors; i++) {
		ret = commit_fb(i & 1);
		if (ret) {
			errors++;
			break;
		}
		target = vblank_wait(0) + 1;
		do {
			ret = crc_reader_next(&t.crc, &e, CRC_TIMEOUT_MS);
		} while (!ret && (int32_t)(e.frame - target) < 0);
		if (ret) {
			errors++;
			break;
		}
		if (e.value != ref[i & 1]) {
			wrong++;
			printf("# round %u: frame %u (target %u) CRC %#018llx, want %c's %#018llx\n",
			       i, e.frame, target, (unsigned long long)e.value,
			       'A' + (i & 1), (unsigned long long)ref[i & 1]);
		}
	}
	crc_reader_stop(&t.crc);
	check(!errors, sf("current: %u commits and CRC reads", rounds),
	      sf("failed in round %u: %s", i, strerror(-ret)));
	check(!wrong, "current: the frame after a blocking commit has its CRC",
	      sf("%u of %u wrong", wrong, rounds));
}

int main(int argc, char **argv)
{
	unsigned int rounds = 60;
	uint64_t async = 0;
	uint32_t blob;
	uint64_t ref[2];
	struct areq r;
	int ret, opt;

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			rounds = strtoul(optarg, NULL, 0);

	t.fd = atomkms_open();
	if (!check(t.fd >= 0, "open atomkms device", "not found"))
		goto out;
	if (!check(!kms_reset_all(t.fd), "reset the device", "failed") ||
	    !check(!kms_pipe_find(t.fd, &t.pipe), "find a pipe", "see stderr"))
		goto out_close;
	ret = crc_reader_init(&t.crc, t.fd, t.pipe.crtc_idx);
	if (!check(!ret, sf("CRC directory %s", t.crc.dir), strerror(-ret)))
		goto out_close;
	drmGetCap(t.fd, DRM_CAP_ASYNC_PAGE_FLIP, &async);
	check(async == 1, "DRM_CAP_ASYNC_PAGE_FLIP", "0");

	if (!check(!dumb_fb_create(t.fd, t.pipe.mode.hdisplay,
				   t.pipe.mode.vdisplay, &t.fb[0]) &&
		   !dumb_fb_create(t.fd, t.pipe.mode.hdisplay,
				   t.pipe.mode.vdisplay, &t.fb[1]),
		   "create framebuffers A and B", "failed"))
		goto out_close;
	fill(&t.fb[0], 3);
	fill(&t.fb[1], 7);
	ret = drmModeCreatePropertyBlob(t.fd, &t.pipe.mode,
					sizeof(t.pipe.mode), &blob);
	if (!check(!ret, "create mode blob", strerror(-ret)))
		goto out_fbs;
	areq_init(&r, t.fd);
	areq_modeset(&r, &t.pipe, blob, &t.fb[0]);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (!check(!ret, sf("modeset %ux%u", t.pipe.mode.hdisplay,
			    t.pipe.mode.vdisplay), strerror(-ret)))
		goto out_fbs;

	ref[0] = reference(0);
	ref[1] = reference(1);
	if (check(ref[0] && ref[1] && ref[0] != ref[1],
		  "A and B have distinct CRCs",
		  sf("%#llx and %#llx", (unsigned long long)ref[0],
		     (unsigned long long)ref[1]))) {
		if (async == 1)
			test_reopen(ref, rounds);
		test_current(ref, rounds / 2);
	}

	kms_disable_all(t.fd);
	drmModeDestroyPropertyBlob(t.fd, blob);
out_fbs:
	dumb_fb_destroy(t.fd, &t.fb[1]);
	dumb_fb_destroy(t.fd, &t.fb[0]);
out_close:
	close(t.fd);
out:
	return tap_done("test-crc");
}
