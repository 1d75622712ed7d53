// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input: invalid object and property ids, invalid values for every
 * property the device exposes, fence properties pointing nowhere.
 */
#include "bad_input.h"

/* One property, TEST_ONLY, each case failing as it says. */
struct id_case {
	uint32_t obj, prop;
	uint64_t val;
	int want;
	const char *what;
};

static void try_cases(const struct id_case *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		expect(try1(t[i].obj, t[i].prop, t[i].val, t[i].what),
		       t[i].want, t[i].what);
}

void test_object_ids(void)
{
	uint32_t crtc = g.pipe[0].crtc, plane = g.pipe[0].plane;
	uint32_t conn = g.pipe[0].conn;
	uint32_t active = pid(crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	uint32_t mode_id = pid(crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID");
	uint32_t fb_id = pid(plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	uint32_t pcrtc = pid(plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID");
	uint32_t ccrtc = pid(conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
	uint32_t enc = g.res->count_encoders ? g.res->encoders[0] : BOGUS_ID;
	const struct id_case ids[] = {
		{ 0, active, 0, -ENOENT,
		  "ACTIVE on object id 0" },
		{ 0xffffffffu, active, 0, -ENOENT,
		  "ACTIVE on object id 0xffffffff" },
		{ BOGUS_ID, active, 0, -ENOENT,
		  "ACTIVE on a nonexistent object id" },
		{ enc, active, 0, -ENOENT,
		  "ACTIVE on an encoder (no properties)" },
		{ g.fb[0].fb_id, active, 0, -ENOENT,
		  "ACTIVE on a framebuffer" },
		{ g.mode_blob[0], active, 0, -ENOENT,
		  "ACTIVE on a blob" },
		{ plane, active, 0, -ENOENT,
		  "crtc property ACTIVE on a plane" },
		{ conn, fb_id, g.fb[0].fb_id, -ENOENT,
		  "plane property FB_ID on a connector" },
		{ crtc, 0, 0, -ENOENT,
		  "property id 0 on a crtc" },
		{ crtc, 0xffffffffu, 0, -ENOENT,
		  "property id 0xffffffff on a crtc" },
		{ crtc, crtc, 0, -ENOENT,
		  "the crtc's own id as a property id" },
		{ crtc, g.mode_blob[0], 0, -ENOENT,
		  "a blob id as a property id" },
	}, values[] = {
		{ conn, ccrtc, plane, -EINVAL,
		  "connector CRTC_ID = a plane id" },
		{ conn, ccrtc, conn, -EINVAL,
		  "connector CRTC_ID = a connector id" },
		{ conn, ccrtc, g.mode_blob[0], -EINVAL,
		  "connector CRTC_ID = a blob id" },
		{ conn, ccrtc, BOGUS_ID, -EINVAL,
		  "connector CRTC_ID = a nonexistent id" },
		{ plane, pcrtc, plane, -EINVAL,
		  "plane CRTC_ID = a plane id" },
		{ plane, pcrtc, enc, -EINVAL,
		  "plane CRTC_ID = an encoder id" },
		{ plane, fb_id, crtc, -EINVAL,
		  "plane FB_ID = a crtc id" },
		{ plane, fb_id, g.mode_blob[0], -EINVAL,
		  "plane FB_ID = a blob id" },
		{ plane, fb_id, BOGUS_ID, -EINVAL,
		  "plane FB_ID = a nonexistent id" },
		{ plane, fb_id, 0xffffffffu, -EINVAL,
		  "plane FB_ID = 0xffffffff" },
		{ crtc, mode_id, g.fb[0].fb_id, -EINVAL,
		  "MODE_ID = a framebuffer id" },
		{ crtc, mode_id, plane, -EINVAL,
		  "MODE_ID = a plane id" },
		{ crtc, mode_id, BOGUS_ID, -EINVAL,
		  "MODE_ID = a nonexistent blob" },
		{ crtc, mode_id, 1ull << 32, -EINVAL,
		  "MODE_ID = 1 << 32" },
	};

	printf("# invalid object ids\n");
	try_cases(ids, ARRAY_SIZE(ids));
	printf("# object ids of the wrong type as values\n");
	try_cases(values, ARRAY_SIZE(values));
}

/* Invalid values for @e, each -EINVAL: out of range, enum, mask... */
static int bad_values(const struct prop_ent *e,
		      uint64_t *v, const char **why, int max)
{
	drmModePropertyRes *p = e->p;
	int n = 0, i;

	if (p->flags & DRM_MODE_PROP_IMMUTABLE) {
		v[n] = e->cur;
		why[n++] = "immutable, current value";
		v[n] = e->cur + 1;
		why[n++] = "immutable, another value";
		return n;
	}
	if (drm_property_type_is(p, DRM_MODE_PROP_RANGE)) {
		uint64_t lo = p->values[0], hi = p->values[1];

		if (hi != UINT64_MAX) {
			v[n] = hi + 1;
			why[n++] = "max + 1";
			v[n] = UINT64_MAX;
			why[n++] = "UINT64_MAX";
			v[n] = hi << 16 > hi ? hi << 16 : UINT64_MAX;
			why[n++] = "max << 16";
		}
		if (lo > 0) {
			v[n] = lo - 1;
			why[n++] = "min - 1";
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		int64_t lo = (int64_t)p->values[0], hi = (int64_t)p->values[1];

		if (hi != INT64_MAX) {
			v[n] = (uint64_t)(hi + 1);
			why[n++] = "max + 1";
			v[n] = (uint64_t)INT64_MAX;
			why[n++] = "INT64_MAX";
		}
		if (lo != INT64_MIN) {
			v[n] = (uint64_t)(lo - 1);
			why[n++] = "min - 1";
			v[n] = (uint64_t)INT64_MIN;
			why[n++] = "INT64_MIN";
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_ENUM)) {
		uint64_t top = 0;

		for (i = 0; i < p->count_enums; i++)
			if (p->enums[i].value > top)
				top = p->enums[i].value;
		v[n] = top + 1;
		why[n++] = "largest enum value + 1";
		v[n] = 0xdeadbeef;
		why[n++] = "0xdeadbeef";
		v[n] = UINT64_MAX;
		why[n++] = "UINT64_MAX";
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		uint64_t mask = 0, rot = 0;
		int nrot = 0;

		for (i = 0; i < p->count_enums; i++)
			mask |= 1ull << p->enums[i].value;
		if (~mask) {
			v[n] = ~mask & (mask + 1);
			why[n++] = "lowest bit not in the mask";
			v[n] = UINT64_MAX;
			why[n++] = "all bits";
		}
		if (!strcmp(p->name, "rotation")) {
			v[n] = 0;
			why[n++] = "rotation 0 (no angle)";
			v[n] = 0x7fff;
			why[n++] = "rotation 0x7fff";
			for (i = 0; i < 4; i++) {
				if (mask & (1ull << i)) {
					rot |= 1ull << i;
					nrot++;
				}
			}
			if (nrot >= 2) {
				v[n] = rot;
				why[n++] = "two angles at once";
			}
			if (mask & DRM_MODE_REFLECT_MASK) {
				v[n] = mask & DRM_MODE_REFLECT_MASK;
				why[n++] = "a reflection without an angle";
			}
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BLOB)) {
		v[n] = BOGUS_ID;
		why[n++] = "a nonexistent blob";
		v[n] = g.pipe[0].crtc;
		why[n++] = "a crtc id";
		v[n] = g.fb[0].fb_id;
		why[n++] = "a framebuffer id";
		if (!strcmp(p->name, "MODE_ID")) {
			v[n] = g.short_blob;
			why[n++] = "a 67-byte blob";
			for (i = 0; i < 4 && n < max; i++) {
				v[n] = g.bad_blob[i];
				why[n++] = "a malformed mode";
			}
		}
	} else if (drm_property_type_is(p, DRM_MODE_PROP_OBJECT)) {
		v[n] = BOGUS_ID;
		why[n++] = "a nonexistent object";
		v[n] = g.mode_blob[0];
		why[n++] = "a blob id";
		/* An object of another type than the property wants. */
		v[n] = p->values[0] == DRM_MODE_OBJECT_CRTC ?
		       g.pipe[0].plane : g.pipe[0].crtc;
		why[n++] = "an object of the wrong type";
	}
	return n;
}

/* Every property of every object, each invalid value -EINVAL. */
void test_prop_values(void)
{
	int i, j, k;

	printf("# invalid values for every property\n");
	for (i = 0; i < g.nobj; i++) {
		struct object *o = &g.obj[i];

		for (j = 0; j < o->nprops; j++) {
			struct prop_ent *e = &o->props[j];
			const char *name = e->p->name;
			uint64_t v[16];
			const char *why[16];
			const char *bad = NULL;
			int n, ret;

			/* Pointers and fds: see test_fences(). */
			if (strstr(name, "FENCE"))
				continue;
			n = bad_values(e, v, why, 12);
			if (!n)
				continue;
			for (k = 0; k < n; k++) {
				ret = try1(o->id, e->id, v[k],
					   sf("%s %u %s = %#llx", obj_type_name(o->type),
					      o->id, name,
					      (unsigned long long)v[k]));
				count(ret);
				if (ret != -EINVAL && !bad)
					bad = sf("%s (%#llx): got %s", why[k],
						 (unsigned long long)v[k],
						 ename(ret));
			}
			check(!bad, sf("%s %u %s: %d invalid values fail -EINVAL",
				       obj_type_name(o->type), o->id, name, n),
			      bad ? bad : "");
		}
	}
}

void test_fences(void)
{
	uint32_t crtc = g.pipe[0].crtc, plane = g.pipe[0].plane;
	uint32_t out = pid(crtc, DRM_MODE_OBJECT_CRTC, "OUT_FENCE_PTR");
	uint32_t in = pid(plane, DRM_MODE_OBJECT_PLANE, "IN_FENCE_FD");
	const char *w;

	printf("# fence properties\n");
	if (out) {
		w = "OUT_FENCE_PTR = 8 (unmapped)";
		expect(try1(crtc, out, 8, w), -EFAULT, w);
		w = "OUT_FENCE_PTR = a kernel address";
		expect(try1(crtc, out, 0xffff888000000000ull, w), -EFAULT, w);
		w = "OUT_FENCE_PTR = UINT64_MAX";
		expect(try1(crtc, out, UINT64_MAX, w), -EFAULT, w);
	}
	if (in) {
		w = "IN_FENCE_FD = the drm fd (not a sync file)";
		expect(try1(plane, in, g.fd, w), -EINVAL, w);
		w = "IN_FENCE_FD = a closed fd";
		expect(try1(plane, in, 999999, w), -EINVAL, w);
		w = "IN_FENCE_FD = 0 (stdin)";
		expect(try1(plane, in, 0, w), -EINVAL, w);
	}
}
