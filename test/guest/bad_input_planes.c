// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input: planes on CRTCs they cannot reach, planes and CRTCs
 * missing their other half, source and destination rectangles out of range.
 */
#include "bad_input.h"

void test_plane_crtc(void)
{
	int i, j, combos = 0;
	struct areq r;
	int ret;

	printf("# plane/crtc mismatches\n");
	for (i = 0; i < g.nobj && combos < 12; i++) {
		const struct object *o = &g.obj[i];

		if (o->type != DRM_MODE_OBJECT_PLANE)
			continue;
		for (j = 0; j < g.npipes && combos < 12; j++) {
			if (o->possible_crtcs & (1u << g.pipe[j].crtc_idx))
				continue;
			areq_init(&r, g.fd);
			areq_modeset(&r, &g.pipe[j], g.mode_blob[j], NULL);
			areq_plane(&r, o->id, g.pipe[j].crtc,
				   o->ptype == DRM_PLANE_TYPE_CURSOR ?
				   g.small.fb_id : g.fb[0].fb_id,
				   o->ptype == DRM_PLANE_TYPE_CURSOR ? 64 :
				   g.fb[0].width,
				   o->ptype == DRM_PLANE_TYPE_CURSOR ? 64 :
				   g.fb[0].height, 0, 0);
			ret = commit(&r, TEST, "plane on a foreign crtc");
			expect(ret, -EINVAL,
			       sf("%s plane %u on crtc %u, not in its possible_crtcs",
				  o->ptype == DRM_PLANE_TYPE_CURSOR ? "cursor" :
				  o->ptype == DRM_PLANE_TYPE_PRIMARY ?
				  "primary" : "overlay", o->id,
				  g.pipe[j].crtc));
			combos++;
		}
	}
	if (!combos)
		printf("# (one crtc: no plane has a foreign crtc)\n");

	areq_init(&r, g.fd);
	areq_modeset(&r, &g.pipe[0], g.mode_blob[0], &g.fb[0]);
	areq_add(&r, g.pipe[0].plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	expect(commit(&r, TEST, "fb, no crtc"), -EINVAL,
	       "primary plane with an fb but no crtc");

	areq_init(&r, g.fd);
	areq_modeset(&r, &g.pipe[0], g.mode_blob[0], &g.fb[0]);
	areq_add(&r, g.pipe[0].plane, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	expect(commit(&r, TEST, "crtc, no fb"), -EINVAL,
	       "primary plane with a crtc but no fb");

	if (g.cursor[0]) {
		struct fmt_fb f;

		if (!fmt_fb_create(g.fd, 64, 64, DRM_FORMAT_RGB565, &f)) {
			areq_init(&r, g.fd);
			areq_modeset(&r, &g.pipe[0], g.mode_blob[0], &g.fb[0]);
			areq_plane(&r, g.cursor[0], g.pipe[0].crtc, f.fb_id, 64,
				   64, 0, 0);
			expect(commit(&r, TEST, "cursor RGB565"), -EINVAL,
			       "cursor plane with an RGB565 fb (not a cursor format)");
			fmt_fb_destroy(g.fd, &f);
		}
	}

	areq_init(&r, g.fd);
	areq_modeset(&r, &g.pipe[0], g.mode_blob[0], NULL);
	areq_plane(&r, g.pipe[0].plane, g.pipe[0].crtc, g.fb[0].fb_id,
		   g.fb[0].width, g.fb[0].height, 0, 0);
	areq_add(&r, g.pipe[0].conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	expect(commit(&r, TEST, "crtc without connector"), -EINVAL,
	       "crtc enabled without a connector");

	/* With crossbar=1 every encoder reaches every CRTC: nothing to reject. */
	if (g.npipes >= 2 && !conn_reaches_crtc(g.pipe[1].conn,
						g.pipe[0].crtc_idx)) {
		areq_init(&r, g.fd);
		areq_modeset(&r, &g.pipe[0], g.mode_blob[0], &g.fb[0]);
		areq_add(&r, g.pipe[1].conn, DRM_MODE_OBJECT_CONNECTOR,
			 "CRTC_ID", g.pipe[0].crtc);
		expect(commit(&r, TEST, "foreign connector"), EXPECT_FAIL,
		       sf("connector %u on crtc %u, which its encoder cannot drive",
			  g.pipe[1].conn, g.pipe[0].crtc));
	}
}

void test_rects(void)
{
	uint32_t plane = g.pipe[0].plane;
	uint32_t w = g.fb[0].width;
	const struct {
		const char *what;
		const char *prop;
		uint64_t val;
		int expect;
	} t[] = {
		{ "SRC_W one pixel wider than the fb", "SRC_W",
		  (uint64_t)(w + 1) << 16, -ENOSPC },
		{ "SRC_X = 0xffffffff << 16", "SRC_X", 0xffffffffull << 16, -EINVAL },
		{ "SRC_X = 0xffff0000", "SRC_X", 0xffff0000ull, -ENOSPC },
		{ "SRC_X = 1 pixel with the full width", "SRC_X", 1 << 16, -ENOSPC },
		{ "SRC_Y = 0xfffffffe", "SRC_Y", 0xfffffffeull, -ENOSPC },
		{ "SRC_W = 0xffffffff", "SRC_W", 0xffffffffull, -ENOSPC },
		{ "SRC_H = -1 << 16 (as u64)", "SRC_H", (uint64_t)-1 << 16, -EINVAL },
		/* The core helper takes a zero-size destination for an
		 * invisible plane (drm_rect_calc_hscale() lets dst 0 by). */
		{ "CRTC_W = 0", "CRTC_W", 0, EXPECT_ANY },
		{ "CRTC_H = 0", "CRTC_H", 0, EXPECT_ANY },
		{ "CRTC_W = 0x80000000", "CRTC_W", 0x80000000ull, -EINVAL },
		{ "CRTC_H = 0xffffffff", "CRTC_H", 0xffffffffull, -EINVAL },
		{ "CRTC_W = INT_MAX", "CRTC_W", INT_MAX, EXPECT_FAIL },
		{ "CRTC_X = INT_MAX - 10", "CRTC_X", INT_MAX - 10, -ERANGE },
		{ "CRTC_Y = INT_MAX", "CRTC_Y", INT_MAX, -ERANGE },
		{ "CRTC_X = INT_MIN", "CRTC_X", (uint64_t)(int64_t)INT_MIN, EXPECT_ANY },
		{ "CRTC_Y = -(1 << 40)", "CRTC_Y", (uint64_t)-(1ll << 40), -EINVAL },
		{ "CRTC_X = -fb width (just off screen)", "CRTC_X",
		  (uint64_t)-(int64_t)w, EXPECT_ANY },
		{ "CRTC_X = 0x7fffffff00000000", "CRTC_X", 0x7fffffff00000000ull, -EINVAL },
	};
	unsigned int i;
	int ret;

	printf("# source and destination rectangles (crtc %u on)\n",
	       g.pipe[0].crtc);
	ret = pipe0_on();
	if (!check(!ret, "modeset pipe 0 for the rectangle tests", ename(ret)))
		return;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, t[i].prop, t[i].val);
		expect(commit(&r, TEST, t[i].what), t[i].expect, t[i].what);
	}
	{
		/* An empty source cannot be scaled to anything. */
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", 0);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", 0);
		expect(commit(&r, TEST, "SRC_W = SRC_H = 0"), EXPECT_FAIL,
		       "SRC_W = SRC_H = 0");
	}

	{
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS",
			 g.damage_blob);
		expect(commit(&r, TEST, "valid damage clip"), 0,
		       "FB_DAMAGE_CLIPS with one clip inside the fb");
		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS",
			 g.bad_damage_blob);
		expect(commit(&r, TEST, "inverted damage clip"), -EINVAL,
		       "FB_DAMAGE_CLIPS with x1 > x2");
		{
			/*
			 * 6.12's drm_atomic_plane_check() compares clips in
			 * pixels with the fb size in 16.16: a clip past the
			 * fb's edge gets through, and the damage helpers clip
			 * it. Informational only.
			 */
			struct drm_mode_rect c = { 0, 0, g.fb[0].width + 1,
						   g.fb[0].height + 1 };
			uint32_t b = make_blob(&c, sizeof(c));

			areq_init(&r, g.fd);
			areq_add(&r, plane, DRM_MODE_OBJECT_PLANE,
				 "FB_DAMAGE_CLIPS", b);
			expect(commit(&r, TEST, "damage clip beyond the fb"),
			       EXPECT_ANY,
			       "FB_DAMAGE_CLIPS with a clip one pixel beyond the fb");
			drmModeDestroyPropertyBlob(g.fd, b);
		}
		areq_init(&r, g.fd);
		areq_add(&r, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS",
			 g.short_blob);
		expect(commit(&r, TEST, "damage blob of 67 bytes"), -EINVAL,
		       "FB_DAMAGE_CLIPS with a 67-byte blob");
	}
}
