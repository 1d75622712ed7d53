// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input: thousands of random atomic requests built from the real
 * objects and properties, values biased to the edges; a request holding an
 * item that is invalid whatever the state must fail.
 */
#include "bad_input.h"

uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static uint64_t pick(const uint64_t *v, unsigned int n)
{
	return v[rn(n)];
}

/*
 * A value for @e, edge-biased. Sets *invalid when the value is invalid
 * whatever the state (the kernel must refuse it at set-property time).
 */
static uint64_t random_value(const struct prop_ent *e, bool *invalid)
{
	drmModePropertyRes *p = e->p;
	const char *name = p->name;
	unsigned int r = rn(100);
	int i;

	if (p->flags & DRM_MODE_PROP_IMMUTABLE) {
		*invalid = true;
		return r < 50 ? e->cur : rnd();
	}
	if (!strcmp(name, "OUT_FENCE_PTR") || strstr(name, "FENCE_PTR")) {
		if (r < 70)
			return 0;
		if (r < 90) {
			g.fence = 12345;
			return (uintptr_t)&g.fence;
		}
		*invalid = true;
		return 8;		/* -EFAULT */
	}
	if (!strcmp(name, "IN_FENCE_FD")) {
		if (r < 80)
			return (uint64_t)-1;
		*invalid = true;
		return r < 90 ? (uint64_t)g.fd : 999999;
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_OBJECT)) {
		bool crtc = p->values[0] == DRM_MODE_OBJECT_CRTC;

		if (r < 15)
			return 0;
		if (r < 75) {
			if (crtc)
				return g.res->crtcs[rn(g.res->count_crtcs)];
			switch (rn(6)) {
			case 0:
				return g.fb[1].fb_id;
			case 1:
				return g.small.fb_id;
			case 2:
				return g.big.fb_id ? g.big.fb_id :
				       g.fb[0].fb_id;
			case 3:
				return g.rgb565.fb_id;
			default:
				return g.fb[0].fb_id;
			}
		}
		*invalid = true;
		switch (rn(4)) {
		case 0:
			return BOGUS_ID;
		case 1:
			return g.mode_blob[0];
		case 2:
			return crtc ? g.pipe[0].plane : g.pipe[0].crtc;
		default:
			return rnd();
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_BLOB)) {
		bool mode = !strcmp(name, "MODE_ID");

		if (r < 15)
			return 0;
		if (mode && r < 75) {
			if (rn(4) == 0)
				return g.alt_blob;
			return g.mode_blob[rn(g.npipes)];
		}
		if (!strcmp(name, "FB_DAMAGE_CLIPS") && r < 75)
			return rn(2) ? g.damage_blob : g.bad_damage_blob;
		switch (rn(4)) {
		case 0:
			*invalid = true;
			return BOGUS_ID;
		case 1:
			*invalid = true;
			return g.pipe[0].crtc;
		case 2:
			if (mode) {
				*invalid = true;
				return g.bad_blob[rn(4)];
			}
			return g.mode_blob[0];
		default:
			if (mode || !strcmp(name, "FB_DAMAGE_CLIPS"))
				*invalid = true;
			return g.short_blob;
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_RANGE)) {
		uint64_t lo = p->values[0], hi = p->values[1];
		bool src = !strncmp(name, "SRC_", 4);
		uint64_t v;

		if (src && r < 60) {
			static const uint64_t px[] = {
				0, 1, 63, 64, 65, 480, 640, 720, 1080, 1280,
				1920, 1921, 2160, 4096, 8192, 0xffff,
			};

			v = pick(px, ARRAY_SIZE(px)) << 16;
			if (rn(8) == 0)
				v += rn(0x10000);
			return v;
		}
		if (!strcmp(name, "CRTC_W") || !strcmp(name, "CRTC_H")) {
			static const uint64_t px[] = {
				0, 1, 64, 480, 640, 720, 1080, 1280, 1920,
				2160, 4096, 0x7fffffff,
			};

			if (r < 70)
				return pick(px, ARRAY_SIZE(px));
		}
		switch (rn(8)) {
		case 0:
			return lo;
		case 1:
			return hi;
		case 2:
			if (hi == UINT64_MAX)
				return hi - 1;
			*invalid = true;
			return hi + 1;
		case 3:
			if (lo == 0)
				return 0;
			*invalid = true;
			return lo - 1;
		case 4:
			return lo + (hi - lo) / 2;
		case 5:
			v = rnd();
			if (v < lo || v > hi)
				*invalid = true;
			return v;
		default:
			return hi - lo + 1 ? lo + rnd() % (hi - lo + 1) : rnd();
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		int64_t lo = (int64_t)p->values[0], hi = (int64_t)p->values[1];
		static const int64_t px[] = {
			0, -1, 1, -64, 64, -1920, 100, 1919, 1920, 4095,
			INT_MAX, INT_MIN, INT_MAX - 64,
		};
		int64_t v;

		if (r < 60) {
			v = px[rn(ARRAY_SIZE(px))];
		} else if (r < 80) {
			v = rn(2) ? lo : hi;
		} else {
			v = (int64_t)rnd();
		}
		if (v < lo || v > hi)
			*invalid = true;
		return (uint64_t)v;
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_ENUM)) {
		if (r < 85 && p->count_enums)
			return p->enums[rn(p->count_enums)].value;
		*invalid = true;
		{
			uint64_t top = 0;

			for (i = 0; i < p->count_enums; i++)
				if (p->enums[i].value > top)
					top = p->enums[i].value;
			return r < 95 ? top + 1 : rnd() | (1ull << 40);
		}
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		uint64_t mask = 0, v = 0;

		for (i = 0; i < p->count_enums; i++)
			mask |= 1ull << p->enums[i].value;
		if (r < 80 && p->count_enums) {
			v = 1ull << p->enums[rn(p->count_enums)].value;
			if (rn(3) == 0)
				v |= 1ull << p->enums[rn(p->count_enums)].value;
		} else {
			v = rnd();
		}
		if (v & ~mask)
			*invalid = true;
		if (!strcmp(name, "rotation") &&
		    __builtin_popcountll(v & DRM_MODE_ROTATE_MASK) != 1)
			*invalid = true;
		return v;
	}
	return rnd();
}

struct rstats {
	unsigned long requests, real, real_ok, nonblock, events_asked;
	unsigned long must_fail, must_fail_ok;
	unsigned long flag_checks, flag_checks_ok;
	unsigned long resets, reset_fail;
	char first_bad[384];
};

static void note_bad(struct rstats *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note_bad(struct rstats *st, const char *fmt, ...)
{
	va_list ap;

	if (st->first_bad[0])
		return;
	va_start(ap, fmt);
	vsnprintf(st->first_bad, sizeof(st->first_bad), fmt, ap);
	va_end(ap);
}

/* A valid value for @e, or false if none came up (immutable...). */
static bool random_valid(const struct prop_ent *e, uint64_t *v)
{
	int i;

	for (i = 0; i < 8; i++) {
		bool inv = false;

		*v = random_value(e, &inv);
		if (!inv)
			return true;
	}
	return false;
}

/* Add one item that is invalid whatever the state. */
static void add_invalid(struct areq *q, const struct object *o,
			const char **kind)
{
	const struct object *x;
	int i;

	switch (rn(4)) {
	case 0: {
		static const char *const names[] = {
			"object 0", "nonexistent object", "a framebuffer",
			"a blob", "an encoder",
		};
		uint32_t k = rn(5);
		uint32_t id = k == 0 ? 0 : k == 1 ? BOGUS_ID :
			      k == 2 ? g.fb[0].fb_id :
			      k == 3 ? g.mode_blob[0] :
			      (g.res->count_encoders ? g.res->encoders[0] :
			       BOGUS_ID);

		*kind = names[k];
		areq_add_raw(q, id, o->props[rn(o->nprops)].id, 0);
		return;
	}
	case 1:
		x = &g.obj[rn(g.nobj)];
		if (x->type != o->type && x->nprops) {
			uint32_t prop = x->props[rn(x->nprops)].id;
			bool shared = false;

			/* CRTC_ID is one property on planes and connectors. */
			for (i = 0; i < o->nprops; i++)
				shared |= o->props[i].id == prop;
			if (!shared) {
				*kind = "a property of another object type";
				areq_add_raw(q, o->id, prop, 0);
				return;
			}
		}
		*kind = "property id 0 or nonexistent";
		areq_add_raw(q, o->id, rn(2) ? 0 : BOGUS_ID, 0);
		return;
	default:
		for (i = 0; i < 32; i++) {
			const struct prop_ent *e = &o->props[rn(o->nprops)];
			bool inv = false;
			uint64_t v = random_value(e, &inv);

			if (inv) {
				*kind = e->p->name;
				areq_add_raw(q, o->id, e->id, v);
				return;
			}
		}
		*kind = "nonexistent object";
		areq_add_raw(q, BOGUS_ID, o->props[0].id, 0);
		return;
	}
}

static void random_request(struct rstats *st)
{
	struct areq q;
	unsigned int nobj = 1 + rn(4), i, k, r;
	unsigned int bad_at = rn(100) < 35 ? rn(nobj) : ~0u;
	const char *kind = NULL;
	bool flag_bad = false, plain_flip = false;
	uint32_t flags;
	int ret;

	areq_init(&q, g.fd);
	if (rn(100) < 5) {
		/* A plain page flip of some pipe, amid the garbage. */
		const struct kms_pipe *p = &g.pipe[rn(g.npipes)];

		areq_add_raw(&q, p->plane,
			     pid(p->plane, DRM_MODE_OBJECT_PLANE, "FB_ID"),
			     g.fb[rn(2)].fb_id);
		nobj = 0;
		bad_at = ~0u;
		plain_flip = true;
	}
	for (i = 0; i < nobj; i++) {
		const struct object *o = &g.obj[rn(g.nobj)];
		unsigned int nprops = 1 + rn(5);

		if (!o->nprops)
			continue;
		for (k = 0; k < nprops; k++) {
			const struct prop_ent *e = &o->props[rn(o->nprops)];
			uint64_t v;

			if (random_valid(e, &v))
				areq_add_raw(&q, o->id, e->id, v);
		}
		if (i == bad_at)
			add_invalid(&q, o, &kind);
	}

	r = rn(100);
	if (r < 70) {
		flags = DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET;
	} else if (r < 78) {
		flags = DRM_MODE_ATOMIC_TEST_ONLY;
	} else if (r < 80) {
		flags = DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT;
		flag_bad = true;
	} else if (r < 82) {
		/* An unknown flag bit, or async without the cap. */
		k = rn(2) ? 3 + rn(5) : 11 + rn(21);
		flags = DRM_MODE_ATOMIC_TEST_ONLY | (1u << k);
		if (!g.async_cap && rn(4) == 0)
			flags = DRM_MODE_ATOMIC_TEST_ONLY |
				DRM_MODE_PAGE_FLIP_ASYNC;
		flag_bad = !(flags & DRM_MODE_PAGE_FLIP_ASYNC) || !g.async_cap;
	} else if (r < 90) {
		flags = DRM_MODE_ATOMIC_ALLOW_MODESET;
	} else if (r < 95) {
		flags = DRM_MODE_ATOMIC_NONBLOCK |
			DRM_MODE_ATOMIC_ALLOW_MODESET;
	} else {
		flags = DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT |
			(rn(2) ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0);
	}
	if (plain_flip) {
		flags = DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT;
		flag_bad = false;
	}
	if (!(flags & DRM_MODE_ATOMIC_TEST_ONLY))
		st->real++;
	if (flags & DRM_MODE_ATOMIC_NONBLOCK)
		st->nonblock++;
	if ((flags & DRM_MODE_PAGE_FLIP_EVENT) && !flag_bad)
		st->events_asked++;

	g.fence = 12345;
	arm(sf("random request %lu (flags %#x)", st->requests, flags));
	ret = areq_commit_raw(&q, flags);
	disarm();
	count(ret);
	st->requests++;
	if (!(flags & DRM_MODE_ATOMIC_TEST_ONLY) && !ret)
		st->real_ok++;

	if (flag_bad) {
		st->flag_checks++;
		if (ret == -EINVAL)
			st->flag_checks_ok++;
		else
			note_bad(st, "request %lu with flags %#x: %s, expected -EINVAL",
				 st->requests - 1, flags, ename(ret));
	} else if (kind) {
		st->must_fail++;
		if (ret < 0)
			st->must_fail_ok++;
		else
			note_bad(st, "request %lu (flags %#x) with an invalid item (%s) succeeded",
				 st->requests - 1, flags, kind);
	}
	if (!ret && g.fence != 12345 && g.fence >= 0)
		close(g.fence);
	drain(0);
}

void test_random(unsigned long n)
{
	struct rstats st = { 0 };
	double t0 = mono_now();
	unsigned int events0 = g.events;
	unsigned long i;
	int ret;

	printf("# %lu random atomic requests\n", n);
	hist = hist_random;
	for (i = 0; i < n; i++) {
		random_request(&st);
		if (i % 500 == 499) {
			/* Back to a known state now and then. */
			drain(20);
			st.resets++;
			ret = disable_all("reset to all off");
			if (ret) {
				st.reset_fail++;
				note_bad(&st, "switching all off after request %lu: %s",
					 i, ename(ret));
			}
			/* Every other round starts with every pipe on. */
			if (!ret && (i / 500) % 2 == 0) {
				ret = all_pipes_on();
				if (ret) {
					st.reset_fail++;
					note_bad(&st, "switching all pipes on after request %lu: %s",
						 i, ename(ret));
				}
			}
		}
	}
	drain(100);
	hist = hist_fixed;
	printf("# random: %lu requests in %.1f s: %lu real (%lu accepted; %lu nonblocking, %lu with events), %lu with an invalid item, %lu with invalid flags, %u events received\n",
	       st.requests, mono_now() - t0, st.real, st.real_ok,
	       st.nonblock, st.events_asked, st.must_fail, st.flag_checks,
	       g.events - events0);
	print_hist("random requests by result", hist_random);
	check(st.requests == n, sf("%lu random requests all returned", n),
	      sf("%lu", st.requests));
	check(st.must_fail_ok == st.must_fail,
	      "random requests with an invalid item fail",
	      st.first_bad);
	check(st.flag_checks_ok == st.flag_checks,
	      "random requests with invalid flags fail -EINVAL",
	      st.first_bad);
	check(!st.reset_fail, "switching everything off between rounds works",
	      st.first_bad);
}
