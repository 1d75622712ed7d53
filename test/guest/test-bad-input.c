// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input - garbage thrown at atomkms through every KMS entry point.
 *
 * Seeded and reproducible (the seed is printed; -s SEED reruns it). First
 * a fixed list: invalid object ids (0, huge, objects of the wrong type),
 * properties that do not belong to the object, out-of-range values for
 * every range, enum and bitmask property the device exposes (rotation 0
 * and 0x7fff, alpha > 0xffff, zpos out of range... whatever exists),
 * wrong-type values for every blob and object property, blobs of the wrong
 * size (MODE_ID, GAMMA_LUT, DEGAMMA_LUT, CTM, FB_DAMAGE_CLIPS), a 64 MiB
 * blob, malformed modes, plane/CRTC mismatches, source and destination
 * rectangles out of range, and raw ioctls with garbage (ATOMIC with huge
 * counts and NULL pointers, SETCRTC with bogus connector lists, CURSOR with
 * huge sizes, PAGE_FLIP on a disabled CRTC, blob and framebuffer ioctls).
 * Where the core or the driver defines the errno, the test asserts it;
 * elsewhere it only requires a failure. Then thousands of random atomic
 * requests built from the real objects and properties, with values biased
 * to the edges: mostly TEST_ONLY, some real commits, some nonblocking, a
 * few with events. A request holding an item that is invalid whatever the
 * state must fail. Every call runs under an alarm() watchdog: a hang fails
 * the test. Results are counted per errno. Finally the driver must still
 * work: a modeset and 10 page flips with events.
 *
 * The cases are in bad_input_*.c, one file a concern (ids and property
 * values, blobs and modes, planes, raw ioctls, random requests), on the
 * inventory bad_input.c sets up.
 *
 * Usage: test-bad-input [-s SEED] [-n RANDOM_REQUESTS]   (default 1, 5000)
 */
#include "bad_input.h"

/* ---- still alive? ---- */

static void test_still_works(void)
{
	uint32_t plane = g.pipe[0].plane;
	uint32_t fb_prop = pid(plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	unsigned int i, done = 0, seq0 = 0, before;
	const char *err = "";
	int ret;

	printf("# the driver still works\n");
	drain(50);
	ret = disable_all("switch everything off");
	check(!ret, "switch everything off after the garbage", ename(ret));
	ret = pipe0_on();
	if (!check(!ret, "valid modeset after the garbage", ename(ret)))
		return;
	for (i = 0; i < 10; i++) {
		struct areq r;

		before = g.events;
		areq_init(&r, g.fd);
		areq_add_id(&r, plane, fb_prop, g.fb[(i + 1) & 1].fb_id);
		arm("flip after the garbage");
		ret = areq_commit(&r, DRM_MODE_ATOMIC_NONBLOCK |
				  DRM_MODE_PAGE_FLIP_EVENT, NULL);
		disarm();
		areq_fini(&r);
		if (ret) {
			err = sf("flip %u: %s", i, ename(ret));
			break;
		}
		arm("waiting for a flip event");
		while (g.events == before &&
		       wait_event(g.fd, &evctx, EVENT_TIMEOUT_MS) > 0)
			;
		disarm();
		if (g.events != before + 1) {
			err = sf("flip %u: no event within 1 s", i);
			break;
		}
		if (i == 0)
			seq0 = g.event_seq;
		else if ((int32_t)(g.event_seq - seq0) < (int)i) {
			err = sf("flip %u: sequence %u after %u", i,
				 g.event_seq, seq0);
			break;
		}
		done++;
	}
	check(done == 10, "10 page flips with events after the garbage", err);
	ret = disable_all("switch everything off");
	check(!ret, "switch everything off at the end", ename(ret));
}

/* Put every settable property back as it was when the test started. */
static void restore_start_state(void)
{
	struct areq r;
	int i, j, n = 0, ret;

	areq_init(&r, g.fd);
	for (i = 0; i < g.nobj; i++) {
		const struct object *o = &g.obj[i];

		for (j = 0; j < o->nprops; j++) {
			const drmModePropertyRes *p = o->props[j].p;

			if ((p->flags & DRM_MODE_PROP_IMMUTABLE) ||
			    strstr(p->name, "FENCE") ||
			    strstr(p->name, "WRITEBACK") ||
			    !strcmp(p->name, "DPMS") ||
			    !strcmp(p->name, "FB_DAMAGE_CLIPS"))
				continue;
			areq_add_id(&r, o->id, o->props[j].id,
				    o->props[j].cur);
			n++;
		}
	}
	ret = commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "restore");
	check(!ret, sf("restore all %d settable properties to their start values",
		       n), ename(ret));
}

int main(int argc, char **argv)
{
	unsigned long n = 5000;
	uint64_t seed = 1;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n RANDOM_REQUESTS]\n",
				argv[0]);
			return 2;
		}
	}
	rng_state = seed;
	printf("# seed %llu (rerun with -s %llu), %lu random requests\n",
	       (unsigned long long)seed, (unsigned long long)seed, n);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);

	g.fd = atomkms_open();
	if (!check(g.fd >= 0, "open atomkms device", "not found"))
		goto out;
	if (setup())
		goto out_close;

	/* Everything off: the TEST_ONLY cases see the same state each time. */
	test_object_ids();
	test_prop_values();
	test_fences();
	test_blobs();
	test_modes();
	test_plane_crtc();
	test_atomic_ioctl();
	test_setcrtc();
	test_page_flip();
	test_rects();
	test_cursor();
	test_misc_ioctls();
	print_hist("fixed cases by result", hist_fixed);

	disable_all("switch everything off");
	test_random(n);
	test_still_works();
	restore_start_state();

out_close:
	close(g.fd);
out:
	return tap_done("test-bad-input");
}
