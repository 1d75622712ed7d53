// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-writeback - atomkms's writeback connector against the compositor
 * core built in userspace.
 *
 * On the first CRTC, at 1024x768 (else the smallest mode of at least
 * 640x480), for each scene: fill the framebuffers with seeded
 * pseudo-random pixels, commit the planes with a writeback job, wait for
 * its out-fence (2 s), then compose the same scene with the userspace
 * build of module/atomkms_{formats,plane_job,compose,color,crc,writeback}.c
 * from the values the kernel's plane check hands the core, and require the
 * written-back bytes to be identical, line by line. Scenes: an opaque
 * XRGB8888 primary; + a premultiplied ARGB8888 overlay with plane alpha
 * 0x8000 at an odd offset hanging off the right edge; + a rotated-90
 * overlay; an RGB565 primary; + a scaled NV12 overlay (BT.709 limited,
 * fractional source); + an XRGB2101010 primary (16-bit blending) with a
 * coverage overlay, rotated 270, reflected, downscaled with the nearest
 * filter, off the left and bottom edges, and a cursor off the top. Then
 * every writeback format of WRITEBACK_PIXEL_FORMATS on the first scene,
 * and what must be rejected: a writeback framebuffer of the wrong size, a
 * format not in the list, writeback on an inactive CRTC or without a
 * CRTC, an out-fence without a framebuffer.
 *
 * Where the CRTC has a Virtual connector, the writeback connector clones
 * it (the frame shown is the frame written back), and each scene's live
 * CRC, read through debugfs, must be the core's CRC of the frame written
 * back. A writeback-only CRTC is driven by the writeback connector alone.
 * The Virtual connector is committed at "max bpc" 10 (8 by default), so
 * the CRC covers 10 bits a channel; the core composes at that depth.
 *
 * Deep colour (when cloning): an XRGB2101010 primary into an XRGB2101010
 * writeback at "max bpc" 10 and 8, each against the core; every pixel's
 * 30 bits written back exactly as the framebuffer holds them, at both
 * depths (writeback takes its own format); and a second framebuffer with
 * the low 2 bits of every channel flipped: a live CRC of its own at 10
 * bpc, the first's at 8.
 *
 * Usage: test-writeback
 */
#include "atomkms_compose.h"
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

#define FENCE_TIMEOUT_MS	2000
#define MAX_OVERLAYS		16
#define WB_POISON		0x5a	/* fills writeback buffers beforehand */
#define NO_SCALING		(1 << 16)	/* DRM_PLANE_NO_SCALING */
#define TEST_ONLY		DRM_MODE_ATOMIC_TEST_ONLY

enum role { PRIMARY, OVERLAY, CURSOR };
enum fill { FILL_RANDOM, FILL_PREMULT, FILL_STRAIGHT };

/* One plane of a scene: what is committed and what the core is given. */
struct splane {
	enum role role;
	uint32_t fourcc;
	uint32_t fb_w, fb_h;
	uint32_t src_x, src_y, src_w, src_h;	/* 16.16 */
	int32_t crtc_x, crtc_y;
	uint32_t crtc_w, crtc_h;
	uint32_t rotation;			/* ATOMKMS_ROTATE_* etc. */
	uint16_t alpha;
	uint8_t blend;				/* ATOMKMS_BLEND_* */
	uint8_t encoding, range;		/* ATOMKMS_YCBCR_* */
	uint8_t filter;				/* ATOMKMS_FILTER_* */
	unsigned int zpos;			/* overlays */
	enum fill fill;
};

#define MAX_SPLANES 4

struct scene {
	const char *name;
	unsigned int n;
	struct splane p[MAX_SPLANES];
};

/* The device and the pipe under test. */
static struct {
	int fd;
	uint32_t crtc;
	int crtc_idx;
	uint32_t vconn;		/* the CRTC's Virtual connector */
	bool clone;		/* drive it alongside the writeback one */
	struct wb_conn wb;
	uint32_t primary, cursor;
	uint32_t overlays[MAX_OVERLAYS];
	unsigned int num_overlays;
	uint32_t all_planes[64];
	unsigned int num_planes;
	drmModeModeInfo mode;
	uint32_t mode_blob;
	uint32_t min_scale, max_scale;
	void *scratch;
	struct crc_reader crc;	/* live CRCs, while cloning */
	unsigned int bpc;	/* "max bpc" of the Virtual connector */
} k = { .fd = -1, .crc = { .data = -1 }, .bpc = 10 };

/*
 * The depth the CRTC outputs, which its CRC covers: the Virtual
 * connector's "max bpc" (its monitor takes 10 at the default load); 8
 * for the writeback connector alone.
 */
static unsigned int out_bpc(void)
{
	return k.clone ? k.bpc : 8;
}

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (rng_state * 0x2545f4914f6cdd1dull) >> 32;
}

static void rnd_seed(uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 0x6a09e667f3bcc909ull;
	if (!rng_state)
		rng_state = 1;
	rnd();
}

/*
 * Random ARGB8888 with a quarter of the pixels transparent and a quarter
 * opaque: premultiplied (every channel at most alpha) or straight.
 */
static uint32_t rnd_argb(bool premult)
{
	uint32_t r = rnd(), q = rnd(), a = r & 0xff, c[3];
	int i;

	if ((r >> 8) % 4 == 0)
		a = 0;
	else if ((r >> 8) % 4 == 1)
		a = 0xff;
	for (i = 0; i < 3; i++) {
		c[i] = (q >> (8 * i)) & 0xff;
		if (premult)
			c[i] = a ? c[i] % (a + 1) : 0;
	}
	return a << 24 | c[2] << 16 | c[1] << 8 | c[0];
}

static void fill_fb(const struct fmt_fb *fb, enum fill fill, uint64_t seed)
{
	unsigned int i;
	uint32_t x, y;

	rnd_seed(seed);
	for (i = 0; i < fb->num_planes; i++) {
		for (y = 0; y < fb->rows[i]; y++) {
			uint8_t *p = fb->map + fb->offset[i] +
				     (size_t)y * fb->pitch[i];

			if (fill == FILL_RANDOM) {
				for (x = 0; x < fb->row_bytes[i]; x++)
					p[x] = rnd() >> 24;
				continue;
			}
			for (x = 0; x + 4 <= fb->row_bytes[i]; x += 4) {
				uint32_t v = rnd_argb(fill == FILL_PREMULT);

				memcpy(p + x, &v, 4);
			}
		}
	}
}

static uint32_t role_plane(enum role role, unsigned int *next_overlay)
{
	switch (role) {
	case PRIMARY:
		return k.primary;
	case CURSOR:
		return k.cursor;
	case OVERLAY:
		if (*next_overlay < k.num_overlays)
			return k.overlays[(*next_overlay)++];
		return 0;
	}
	return 0;
}

static const char *const rotation_names[] = {
	"rotate-0", "rotate-90", "rotate-180", "rotate-270",
	"reflect-x", "reflect-y",
};
static const char *const blend_names[] = {
	[ATOMKMS_BLEND_PREMULTI] = "Pre-multiplied",
	[ATOMKMS_BLEND_COVERAGE] = "Coverage",
	[ATOMKMS_BLEND_PIXEL_NONE] = "None",
};
static const char *const encoding_names[] = {
	[ATOMKMS_YCBCR_BT601] = "ITU-R BT.601 YCbCr",
	[ATOMKMS_YCBCR_BT709] = "ITU-R BT.709 YCbCr",
	[ATOMKMS_YCBCR_BT2020] = "ITU-R BT.2020 YCbCr",
};
static const char *const range_names[] = {
	[ATOMKMS_YCBCR_LIMITED_RANGE] = "YCbCr limited range",
	[ATOMKMS_YCBCR_FULL_RANGE] = "YCbCr full range",
};
static const char *const filter_names[] = {
	[ATOMKMS_FILTER_BILINEAR] = "Default",
	[ATOMKMS_FILTER_NEAREST] = "Nearest Neighbor",
};

/* Set enum property @prop to the entry called @name, as a client does. */
static void add_enum(struct areq *r, uint32_t plane, const char *prop,
		     const char *name)
{
	uint64_t val;

	if (r->err)
		return;
	if (prop_enum(r->fd, plane, DRM_MODE_OBJECT_PLANE, prop, name, &val)) {
		fprintf(stderr, "plane %u: no %s \"%s\"\n", plane, prop, name);
		r->err = -ENOENT;
		return;
	}
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, prop, val);
}

static void add_rotation(struct areq *r, uint32_t plane, uint32_t rotation)
{
	uint64_t mask = 0, bit;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rotation_names) && !r->err; i++) {
		if (!(rotation & (1u << i)))
			continue;
		if (prop_enum(r->fd, plane, DRM_MODE_OBJECT_PLANE, "rotation",
			      rotation_names[i], &bit)) {
			fprintf(stderr, "plane %u: no rotation %s\n", plane,
				rotation_names[i]);
			r->err = -ENOENT;
			return;
		}
		mask |= 1ull << bit;
	}
	areq_add(r, plane, DRM_MODE_OBJECT_PLANE, "rotation", mask);
}

static bool plane_has_prop(uint32_t plane, const char *name)
{
	return prop_id(k.fd, plane, DRM_MODE_OBJECT_PLANE, name) != 0;
}

static void add_plane(struct areq *r, uint32_t plane, const struct splane *sp,
		      const struct fmt_fb *fb)
{
	const uint32_t o = DRM_MODE_OBJECT_PLANE;

	areq_add(r, plane, o, "FB_ID", fb->fb_id);
	areq_add(r, plane, o, "CRTC_ID", k.crtc);
	areq_add(r, plane, o, "SRC_X", sp->src_x);
	areq_add(r, plane, o, "SRC_Y", sp->src_y);
	areq_add(r, plane, o, "SRC_W", sp->src_w);
	areq_add(r, plane, o, "SRC_H", sp->src_h);
	areq_add(r, plane, o, "CRTC_X", (uint64_t)(int64_t)sp->crtc_x);
	areq_add(r, plane, o, "CRTC_Y", (uint64_t)(int64_t)sp->crtc_y);
	areq_add(r, plane, o, "CRTC_W", sp->crtc_w);
	areq_add(r, plane, o, "CRTC_H", sp->crtc_h);
	add_rotation(r, plane, sp->rotation);
	areq_add(r, plane, o, "alpha", sp->alpha);
	add_enum(r, plane, "pixel blend mode", blend_names[sp->blend]);
	if (sp->role == OVERLAY)
		areq_add(r, plane, o, "zpos", sp->zpos);
	if (plane_has_prop(plane, "SCALING_FILTER"))
		add_enum(r, plane, "SCALING_FILTER", filter_names[sp->filter]);
	if (plane_has_prop(plane, "COLOR_ENCODING"))
		add_enum(r, plane, "COLOR_ENCODING",
			 encoding_names[sp->encoding]);
	if (plane_has_prop(plane, "COLOR_RANGE"))
		add_enum(r, plane, "COLOR_RANGE", range_names[sp->range]);
}

/* What the writeback connector gets in a commit. */
struct wb_req {
	uint32_t crtc;		/* its CRTC_ID */
	uint32_t fb_id;		/* WRITEBACK_FB_ID, 0 for none */
	int *fence;		/* WRITEBACK_OUT_FENCE_PTR, NULL for none */
	bool active;		/* the CRTC's ACTIVE */
	bool vconn;		/* the Virtual connector drives the CRTC too */
};

/*
 * Commit a scene (@s may be NULL: no plane) with @wr on the writeback
 * connector; every other plane of the CRTC is detached.
 */
static int commit(const struct scene *s, const struct fmt_fb *fbs,
		  const struct wb_req *wr, uint32_t flags)
{
	const uint32_t conn = DRM_MODE_OBJECT_CONNECTOR;
	uint32_t used[MAX_SPLANES] = { 0 };
	unsigned int i, j, next_overlay = 0;
	struct areq r;
	int ret;

	areq_init(&r, k.fd);
	areq_add(&r, k.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", k.mode_blob);
	areq_add(&r, k.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", wr->active);
	areq_add(&r, k.vconn, conn, "CRTC_ID",
		 k.clone || wr->vconn ? k.crtc : 0);
	areq_add(&r, k.vconn, conn, "max bpc", k.bpc);
	areq_add(&r, k.wb.conn, conn, "CRTC_ID", wr->crtc);
	areq_add(&r, k.wb.conn, conn, "WRITEBACK_FB_ID", wr->fb_id);
	if (wr->fence) {
		*wr->fence = -1;
		areq_add(&r, k.wb.conn, conn, "WRITEBACK_OUT_FENCE_PTR",
			 (uint64_t)(uintptr_t)wr->fence);
	}
	for (i = 0; s && i < s->n; i++) {
		used[i] = role_plane(s->p[i].role, &next_overlay);
		if (!used[i]) {
			areq_fini(&r);
			return -ENODEV;
		}
		add_plane(&r, used[i], &s->p[i], &fbs[i]);
	}
	for (j = 0; j < k.num_planes; j++) {
		bool in_scene = false;

		for (i = 0; s && i < s->n; i++)
			in_scene |= used[i] == k.all_planes[j];
		if (in_scene)
			continue;
		areq_add(&r, k.all_planes[j], DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
		areq_add(&r, k.all_planes[j], DRM_MODE_OBJECT_PLANE, "CRTC_ID",
			 0);
	}
	ret = areq_commit(&r, flags | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return ret;
}

/* Zpos order, as the kernel sorts normalized zpos: primary, overlays, cursor. */
static int zrank(const struct splane *sp)
{
	if (sp->role == PRIMARY)
		return 0;
	if (sp->role == CURSOR)
		return 1 << 20;
	return 1 + (int)sp->zpos;
}

/*
 * Compose @s with the userspace core into @wb. The descriptors are filled
 * as atomkms_plane_atomic_check() fills them from the plane state: the
 * user's unclipped src (16.16) and CRTC rectangles, the CRTC's active
 * size, and the plane's rotation, alpha, blend mode, colour encoding and
 * range, filter, and its scaling limits.
 */
static int core_compose(const struct scene *s, const struct fmt_fb *fbs,
			const struct atomkms_writeback *wb, uint64_t *crc,
			const char **why)
{
	struct atomkms_plane_job jobs[MAX_SPLANES];
	struct atomkms_frame_plane fp[MAX_SPLANES];
	unsigned int order[MAX_SPLANES], i, j, n = 0;
	struct atomkms_frame frame;
	int ret;

	for (i = 0; i < s->n; i++)
		order[i] = i;
	for (i = 1; i < s->n; i++)
		for (j = i; j > 0 && zrank(&s->p[order[j - 1]]) >
				     zrank(&s->p[order[j]]); j--) {
			unsigned int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}

	for (i = 0; i < s->n; i++) {
		const struct splane *sp = &s->p[order[i]];
		const struct fmt_fb *fb = &fbs[order[i]];
		bool cursor = sp->role == CURSOR;
		struct atomkms_plane_desc desc = {
			.fourcc = fb->fourcc,
			.fb_width = fb->width,
			.fb_height = fb->height,
			.src_x = sp->src_x,
			.src_y = sp->src_y,
			.src_w = sp->src_w,
			.src_h = sp->src_h,
			.dst_x = sp->crtc_x,
			.dst_y = sp->crtc_y,
			.dst_w = sp->crtc_w,
			.dst_h = sp->crtc_h,
			.crtc_width = k.mode.hdisplay,
			.crtc_height = k.mode.vdisplay,
			.rotation = sp->rotation,
			.alpha = sp->alpha,
			.blend_mode = sp->blend,
			.color_encoding = sp->encoding,
			.color_range = sp->range,
			.filter = sp->filter,
			.min_scale = cursor ? NO_SCALING : k.min_scale,
			.max_scale = cursor ? NO_SCALING : k.max_scale,
		};
		unsigned int m;

		ret = atomkms_plane_job_init(&jobs[n], &desc, why);
		if (ret)
			return ret;
		if (!jobs[n].visible)
			continue;
		fp[n] = (struct atomkms_frame_plane){ .job = &jobs[n] };
		for (m = 0; m < fb->num_planes; m++) {
			fp[n].src.map[m] = fb->map + fb->offset[m];
			fp[n].src.pitch[m] = fb->pitch[m];
		}
		n++;
	}

	frame = (struct atomkms_frame){
		.width = k.mode.hdisplay,
		.height = k.mode.vdisplay,
		.num_planes = n,
		.planes = fp,
		.wb = wb,
		.bpc = (uint8_t)out_bpc(),
		.crc = crc,
	};
	ret = atomkms_compose_frame(&frame, k.scratch);
	if (ret)
		*why = "atomkms_compose_frame failed";
	return ret;
}

static uint64_t pixel_value(const uint8_t *p, unsigned int cpp)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < cpp; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Identical line by line? If not, describe the first differing pixel. */
static bool compare_wb(const struct fmt_fb *wbfb, const uint8_t *ref,
		       const char **detail)
{
	unsigned int np, cpp[3], hsub, vsub, i;
	unsigned long bad_lines = 0;
	const char *first = NULL;
	uint32_t y, x;

	if (fourcc_layout(wbfb->fourcc, &np, cpp, &hsub, &vsub)) {
		*detail = "unknown writeback format";
		return false;
	}
	for (i = 0; i < wbfb->num_planes; i++) {
		for (y = 0; y < wbfb->rows[i]; y++) {
			size_t off = wbfb->offset[i] + (size_t)y * wbfb->pitch[i];
			const uint8_t *a = wbfb->map + off, *b = ref + off;

			if (!memcmp(a, b, wbfb->row_bytes[i]))
				continue;
			bad_lines++;
			if (first)
				continue;
			for (x = 0; x < wbfb->row_bytes[i] && a[x] == b[x]; x++)
				;
			x -= x % cpp[i];
			first = sf("plane %u pixel (%u, %u): writeback 0x%0*llx, core 0x%0*llx",
				   i, x / cpp[i], y, (int)cpp[i] * 2,
				   (unsigned long long)pixel_value(a + x, cpp[i]),
				   (int)cpp[i] * 2,
				   (unsigned long long)pixel_value(b + x, cpp[i]));
		}
	}
	if (first)
		*detail = sf("%s; %lu lines differ", first, bad_lines);
	return !first;
}

/* Lines of @fb still all WB_POISON: the compositor did not write them. */
static unsigned int poison_lines(const struct fmt_fb *fb)
{
	unsigned int i, n = 0;
	uint32_t y, x;

	for (i = 0; i < fb->num_planes; i++)
		for (y = 0; y < fb->rows[i]; y++) {
			const uint8_t *p = fb->map + fb->offset[i] +
					   (size_t)y * fb->pitch[i];

			for (x = 0; x < fb->row_bytes[i] && p[x] == WB_POISON;
			     x++)
				;
			n += x == fb->row_bytes[i];
		}
	return n;
}

/* A valid writeback commit of @s, waited for, compared with the core. */
static void run_scene(const char *scene_name, const struct scene *s,
		      uint32_t wb_fourcc, uint64_t seed)
{
	char name[160];
	struct fmt_fb fbs[MAX_SPLANES] = { 0 }, wbfb = { 0 };
	struct atomkms_writeback wb = { .fourcc = wb_fourcc };
	const char *why = "";
	uint8_t *ref = NULL;
	unsigned int i, m;
	int fence = -1, ret, st;
	double t0, t1;
	bool same;
	struct wb_req wr = { .crtc = k.crtc, .active = true, .fence = &fence };
	struct crc_entry live;
	uint64_t crc = 0;
	uint32_t now;

	/* @scene_name may be an sf() buffer, which later sf() calls reuse. */
	snprintf(name, sizeof(name), "%s", scene_name);
	for (i = 0; i < s->n; i++) {
		ret = fmt_fb_create(k.fd, s->p[i].fb_w, s->p[i].fb_h,
				    s->p[i].fourcc, &fbs[i]);
		if (!check(!ret, sf("%s: create %s %ux%u framebuffer", name,
				    fourcc_str(s->p[i].fourcc), s->p[i].fb_w,
				    s->p[i].fb_h), strerror(-ret)))
			goto out;
		fill_fb(&fbs[i], s->p[i].fill, seed * 16 + i);
	}
	ret = fmt_fb_create(k.fd, k.mode.hdisplay, k.mode.vdisplay, wb_fourcc,
			    &wbfb);
	if (!check(!ret, sf("%s: create %s writeback framebuffer", name,
			    fourcc_str(wb_fourcc)), strerror(-ret)))
		goto out;
	memset(wbfb.map, WB_POISON, wbfb.size);
	wr.fb_id = wbfb.fb_id;

	t0 = mono_now();
	ret = commit(s, fbs, &wr, 0);
	if (!check(!ret && fence >= 0, sf("%s: commit with a writeback job", name),
		   ret ? strerror(-ret) : "no out-fence fd returned"))
		goto out;
	ret = fence_wait(fence, FENCE_TIMEOUT_MS);
	t1 = mono_now();
	st = ret == 1 ? fence_status(fence) : 0;
	if (!check(ret == 1 && st == 1, sf("%s: out-fence signals", name),
		   ret == 0 ? "not signalled within 2 s" :
		   ret < 0 ? sf("poll: %s", strerror(-ret)) :
		   sf("signalled with status %d (%s)", st,
		      st < 0 ? strerror(-st) : "pending")))
		goto out;
	printf("# %s: frame written back %.1f ms after the commit started\n",
	       name, (t1 - t0) * 1000.0);
	st = poison_lines(&wbfb);
	check(!st, sf("%s: every line is written back", name),
	      sf("%d lines untouched", st));

	ref = malloc(wbfb.size);
	if (!check(ref != NULL, sf("%s: allocate the core's buffer", name),
		   "out of memory"))
		goto out;
	memset(ref, WB_POISON, wbfb.size);
	for (m = 0; m < wbfb.num_planes; m++) {
		wb.map[m] = ref + wbfb.offset[m];
		wb.pitch[m] = wbfb.pitch[m];
	}
	ret = core_compose(s, fbs, &wb, &crc, &why);
	if (!check(!ret, sf("%s: the core composes the scene", name),
		   sf("%s (%d)", why, ret)))
		goto out;
	/* Not inline: check()'s arguments are evaluated in any order. */
	same = compare_wb(&wbfb, ref, &why);
	check(same, sf("%s: writeback identical to the core", name), why);
	/*
	 * Shown and written back: the live CRC is the written frame's. The
	 * capture starts with the first scene (it needs an active CRTC).
	 */
	if (k.crc.data < 0 && k.crc.dir[0]) {
		ret = crc_reader_start(&k.crc);
		check(!ret, "live CRC capture", strerror(-ret));
	}
	if (k.crc.data >= 0) {
		ret = vblank_count(k.fd, k.crtc_idx, &now);
		if (!ret)
			ret = crc_reader_next_after(&k.crc, now, &live,
						    FENCE_TIMEOUT_MS);
		check(!ret && live.value == crc,
		      sf("%s: the live CRC is the written-back frame's", name),
		      ret ? strerror(-ret) :
		      sf("live %016llx, core %016llx",
			 (unsigned long long)live.value,
			 (unsigned long long)crc));
	}
out:
	if (fence >= 0)
		close(fence);
	free(ref);
	fmt_fb_destroy(k.fd, &wbfb);
	for (i = 0; i < s->n; i++)
		fmt_fb_destroy(k.fd, &fbs[i]);
}

static bool scene_available(const struct scene *s, const char **why)
{
	unsigned int i, overlays = 0;

	for (i = 0; i < s->n; i++) {
		if (s->p[i].role == OVERLAY)
			overlays++;
		if (s->p[i].role == CURSOR && !k.cursor) {
			*why = "no cursor plane";
			return false;
		}
	}
	if (overlays > k.num_overlays) {
		*why = sf("needs %u overlay planes, the CRTC has %u", overlays,
			  k.num_overlays);
		return false;
	}
	return true;
}

/* A full-screen plane of @fourcc, unscaled. */
static struct splane full_plane(enum role role, uint32_t fourcc, enum fill f)
{
	uint32_t w = k.mode.hdisplay, h = k.mode.vdisplay;

	return (struct splane){
		.role = role, .fourcc = fourcc, .fb_w = w, .fb_h = h,
		.src_w = w << 16, .src_h = h << 16, .crtc_w = w, .crtc_h = h,
		.rotation = ATOMKMS_ROTATE_0, .alpha = 0xffff,
		.blend = ATOMKMS_BLEND_PREMULTI, .fill = f,
	};
}

/* An unscaled plane of an fb_w x fb_h framebuffer at (x, y). */
static struct splane rect_plane(enum role role, uint32_t fourcc,
				uint32_t fb_w, uint32_t fb_h, int32_t x,
				int32_t y, enum fill f)
{
	return (struct splane){
		.role = role, .fourcc = fourcc, .fb_w = fb_w, .fb_h = fb_h,
		.src_w = fb_w << 16, .src_h = fb_h << 16, .crtc_x = x,
		.crtc_y = y, .crtc_w = fb_w, .crtc_h = fb_h,
		.rotation = ATOMKMS_ROTATE_0, .alpha = 0xffff,
		.blend = ATOMKMS_BLEND_PREMULTI, .zpos = 1, .fill = f,
	};
}

/* Start scene @s, @name, with a full-screen @primary_fourcc primary. */
static void scene_start(struct scene *s, const char *name,
			uint32_t primary_fourcc)
{
	*s = (struct scene){ .name = name, .n = 1 };
	s->p[0] = full_plane(PRIMARY, primary_fourcc, FILL_RANDOM);
}

/* Put @p on top of scene @s; returns it there, to adjust. */
static struct splane *scene_add(struct scene *s, struct splane p)
{
	s->p[s->n] = p;
	return &s->p[s->n++];
}

static unsigned int make_scenes(struct scene *sc)
{
	int32_t w = k.mode.hdisplay, h = k.mode.vdisplay;
	struct splane *p;
	struct scene *s = sc;

	scene_start(s++, "XRGB8888 primary", DRM_FORMAT_XRGB8888);

	scene_start(s, "ARGB8888 overlay, premultiplied, alpha 0x8000, off the right edge",
		    DRM_FORMAT_XRGB8888);
	p = scene_add(s++, rect_plane(OVERLAY, DRM_FORMAT_ARGB8888, 301, 203,
				      w - 151, 77, FILL_PREMULT));
	p->alpha = 0x8000;

	scene_start(s, "rotated-90 ARGB8888 overlay", DRM_FORMAT_XRGB8888);
	/* A 160x240 framebuffer shows as 240x160. */
	p = scene_add(s++, rect_plane(OVERLAY, DRM_FORMAT_ARGB8888, 160, 240,
				      101, 203, FILL_PREMULT));
	p->crtc_w = 240;
	p->crtc_h = 160;
	p->rotation = ATOMKMS_ROTATE_90;

	scene_start(s++, "RGB565 primary", DRM_FORMAT_RGB565);

	scene_start(s, "NV12 overlay, BT.709 limited, scaled 2x from a fractional source",
		    DRM_FORMAT_XRGB8888);
	p = scene_add(s++, rect_plane(OVERLAY, DRM_FORMAT_NV12, 320, 180, 123,
				      99, FILL_RANDOM));
	p->src_x = 8 << 16 | 0x8000;
	p->src_y = 4 << 16 | 0x4000;
	p->src_w = 300 << 16;
	p->src_h = 170 << 16;
	p->crtc_w = 600;
	p->crtc_h = 340;
	p->encoding = ATOMKMS_YCBCR_BT709;
	p->range = ATOMKMS_YCBCR_LIMITED_RANGE;

	scene_start(s, "XRGB2101010 primary, coverage overlay rotated 270 and reflected, nearest downscale, cursor",
		    DRM_FORMAT_XRGB2101010);
	/* 400x300 rotated is 300x400, shown at 150x200. */
	p = scene_add(s, rect_plane(OVERLAY, DRM_FORMAT_ARGB8888, 400, 300,
				    -37, h - 150, FILL_STRAIGHT));
	p->crtc_w = 150;
	p->crtc_h = 200;
	p->rotation = ATOMKMS_ROTATE_270 | ATOMKMS_REFLECT_X;
	p->blend = ATOMKMS_BLEND_COVERAGE;
	p->filter = ATOMKMS_FILTER_NEAREST;
	p->alpha = 0xc000;
	scene_add(s++, rect_plane(CURSOR, DRM_FORMAT_ARGB8888, 64, 64, w - 33,
				  -17, FILL_PREMULT));
	return s - sc;
}

/* A commit (TEST_ONLY unless @flags say) of @s with @wr must fail with @want. */
static void expect_reject(const char *what, const struct fmt_fb *fbs,
			  const struct scene *s, const struct wb_req *wr,
			  int want, uint32_t flags)
{
	int ret = commit(s, fbs, wr, flags);

	check(ret == want, what,
	      sf("returned %d (%s), want %d", ret,
		 ret ? strerror(-ret) : "accepted", want));
}

/*
 * @wr without a writeback job passes TEST_ONLY (@ok says what), and with
 * the job of framebuffer @fb_id is rejected with -EINVAL (@bad says what):
 * only the writeback check refuses it.
 */
static void expect_job_reject(const struct fmt_fb *fbs, const struct scene *s,
			      struct wb_req wr, uint32_t fb_id,
			      const char *ok, const char *bad)
{
	int ret;

	wr.fb_id = 0;
	ret = commit(s, fbs, &wr, TEST_ONLY);
	check(!ret, ok, strerror(-ret));
	wr.fb_id = fb_id;
	expect_reject(bad, fbs, s, &wr, -EINVAL, TEST_ONLY);
}

/*
 * With @wr, a writeback job into a new @w x @h @fourcc framebuffer (@fb
 * says which) is rejected with -EINVAL (@what), TEST_ONLY.
 */
static void expect_fb_reject(const struct fmt_fb *fbs, const struct scene *s,
			     struct wb_req wr, uint32_t w, uint32_t h,
			     uint32_t fourcc, const char *fb, const char *what)
{
	struct fmt_fb wbfb;
	int ret = fmt_fb_create(k.fd, w, h, fourcc, &wbfb);

	if (!check(!ret, sf("rejects: create %s", fb), strerror(-ret)))
		return;
	wr.fb_id = wbfb.fb_id;
	expect_reject(what, fbs, s, &wr, -EINVAL, TEST_ONLY);
	fmt_fb_destroy(k.fd, &wbfb);
}

static void test_rejects(const struct scene *s)
{
	struct fmt_fb fbs[1] = { 0 }, wbfb = { 0 };
	uint32_t w = k.mode.hdisplay, h = k.mode.vdisplay;
	struct wb_req wr = { .crtc = k.crtc, .active = true };
	int fence = -1, ret;

	ret = fmt_fb_create(k.fd, s->p[0].fb_w, s->p[0].fb_h, s->p[0].fourcc,
			    &fbs[0]);
	if (!check(!ret, "rejects: create the primary framebuffer",
		   strerror(-ret)))
		return;

	ret = fmt_fb_create(k.fd, w, h, DRM_FORMAT_XRGB8888, &wbfb);
	if (!check(!ret, "rejects: create a writeback framebuffer",
		   strerror(-ret)))
		goto out;
	wr.fb_id = wbfb.fb_id;
	ret = commit(s, fbs, &wr, TEST_ONLY);
	check(!ret, "TEST_ONLY: a valid writeback commit passes",
	      strerror(-ret));

	wr.active = false;
	expect_job_reject(fbs, s, wr, wbfb.fb_id,
			  "TEST_ONLY: an inactive CRTC without a writeback job passes",
			  "TEST_ONLY: writeback on an inactive CRTC is rejected (-EINVAL)");
	wr.active = true;
	/*
	 * No CRTC for the writeback connector: the Virtual connector keeps the
	 * CRTC enabled, so that only the writeback check can refuse.
	 */
	wr.crtc = 0;
	wr.vconn = true;
	expect_job_reject(fbs, s, wr, wbfb.fb_id,
			  "the Virtual connector alone drives the CRTC (TEST_ONLY)",
			  "TEST_ONLY: writeback framebuffer without a CRTC is rejected (-EINVAL)");
	wr.crtc = k.crtc;
	wr.vconn = false;
	/*
	 * TEST_ONLY commits create no out-fences (prepare_signaling() returns
	 * early), so this one is a real commit: it must fail, changing
	 * nothing.
	 */
	wr.fb_id = 0;
	wr.fence = &fence;
	expect_reject("out-fence without a writeback framebuffer is rejected (-EINVAL, real commit)",
		      fbs, s, &wr, -EINVAL, 0);
	if (fence >= 0)
		close(fence);
	wr.fence = NULL;
	fmt_fb_destroy(k.fd, &wbfb);

	/* Wrong sizes: narrower, taller. */
	expect_fb_reject(fbs, s, wr, w - 2, h, DRM_FORMAT_XRGB8888,
			 "a narrower writeback framebuffer",
			 sf("TEST_ONLY: writeback framebuffer %ux%u for a %ux%u mode is rejected (-EINVAL)",
			    w - 2, h, w, h));
	expect_fb_reject(fbs, s, wr, w, h + 2, DRM_FORMAT_XRGB8888,
			 "a taller writeback framebuffer",
			 sf("TEST_ONLY: writeback framebuffer %ux%u for a %ux%u mode is rejected (-EINVAL)",
			    w, h + 2, w, h));

	/* A format the planes read but the writeback connector does not list. */
	if (wb_conn_has_format(&k.wb, DRM_FORMAT_XBGR8888))
		printf("ok - unsupported writeback format is rejected # SKIP XB24 is listed\n");
	else
		expect_fb_reject(fbs, s, wr, w, h, DRM_FORMAT_XBGR8888,
				 "an XB24 framebuffer",
				 "TEST_ONLY: writeback format XB24 (not in WRITEBACK_PIXEL_FORMATS) is rejected (-EINVAL)");
out:
	fmt_fb_destroy(k.fd, &fbs[0]);
}

/* 1024x768 nearest 60 Hz if listed, else the smallest mode of 640x480 up. */
/* The live CRC of the first frame after the commit now showing. */
static int live_crc_now(uint64_t *value)
{
	struct crc_entry e;
	uint32_t now;
	int ret;

	ret = vblank_count(k.fd, k.crtc_idx, &now);
	if (!ret)
		ret = crc_reader_next_after(&k.crc, now, &e, FENCE_TIMEOUT_MS);
	if (!ret)
		*value = e.value;
	return ret;
}

/* Pixels of two XRGB2101010 framebuffers whose 30 colour bits differ. */
static unsigned long diff30(const struct fmt_fb *a, const struct fmt_fb *b,
			    const char **first)
{
	unsigned long n = 0;
	uint32_t x, y, va, vb;

	for (y = 0; y < a->height; y++)
		for (x = 0; x < a->width; x++) {
			memcpy(&va, a->map + (size_t)y * a->pitch[0] + 4 * x, 4);
			memcpy(&vb, b->map + (size_t)y * b->pitch[0] + 4 * x, 4);
			if (!((va ^ vb) & 0x3fffffff))
				continue;
			if (!n++)
				*first = sf("(%u, %u): %08x against %08x", x, y,
					    va, vb);
		}
	return n;
}

/*
 * Deep colour: a 10-bit framebuffer's low bits reach a 10-bit writeback
 * exactly, and the CRC covers them at "max bpc" 10, not at 8.
 */
static void test_deep_color(void)
{
	/* The low 2 bits of blue, green and red. */
	static const uint32_t low2 = 0x00300c03;
	struct fmt_fb fb[2] = { 0 }, wbfb = { 0 };
	struct scene s;
	const char *why = "";
	uint64_t live[2][2] = { { 0 } };
	unsigned int d, i, bpcs[2] = { 10, 8 };
	uint32_t x, y, v;
	int fence = -1, ret;
	unsigned long n;

	if (!k.clone || k.crc.data < 0) {
		printf("ok - deep colour # SKIP no Virtual connector with live CRCs on the CRTC\n");
		return;
	}
	scene_start(&s, "XRGB2101010 primary", DRM_FORMAT_XRGB2101010);
	for (d = 0; d < 2; d++) {
		k.bpc = bpcs[d];
		run_scene(sf("max bpc %u: XR30 writeback, %s", k.bpc, s.name),
			  &s, DRM_FORMAT_XRGB2101010, 300 + d);
	}

	for (i = 0; i < 2; i++) {
		ret = fmt_fb_create(k.fd, k.mode.hdisplay, k.mode.vdisplay,
				    DRM_FORMAT_XRGB2101010, &fb[i]);
		if (!check(!ret, "deep colour: create an XR30 framebuffer",
			   strerror(-ret)))
			goto out;
	}
	ret = fmt_fb_create(k.fd, k.mode.hdisplay, k.mode.vdisplay,
			    DRM_FORMAT_XRGB2101010, &wbfb);
	if (!check(!ret, "deep colour: create an XR30 writeback framebuffer",
		   strerror(-ret)))
		goto out;
	fill_fb(&fb[0], FILL_RANDOM, 400);
	for (y = 0; y < fb[0].height; y++)
		for (x = 0; x < fb[0].width; x++) {
			memcpy(&v, fb[0].map + (size_t)y * fb[0].pitch[0] + 4 * x, 4);
			v ^= low2;
			memcpy(fb[1].map + (size_t)y * fb[1].pitch[0] + 4 * x, &v, 4);
		}

	for (d = 0; d < 2; d++) {
		k.bpc = bpcs[d];
		for (i = 0; i < 2; i++) {
			struct wb_req wr = { .crtc = k.crtc, .active = true,
					     .fence = &fence,
					     .fb_id = wbfb.fb_id };

			memset(wbfb.map, WB_POISON, wbfb.size);
			ret = commit(&s, &fb[i], &wr, 0);
			if (!ret)
				ret = fence_wait(fence, FENCE_TIMEOUT_MS) == 1 ?
				      0 : -ETIMEDOUT;
			if (fence >= 0)
				close(fence);
			fence = -1;
			if (!check(!ret, sf("max bpc %u: commit framebuffer %c with an XR30 writeback job",
					    k.bpc, 'A' + i), strerror(-ret)))
				goto out;
			n = diff30(&wbfb, &fb[i], &why);
			check(!n, sf("max bpc %u: framebuffer %c's 30 bits written back exactly",
				     k.bpc, 'A' + i),
			      sf("%lu pixels differ, first %s", n, why));
			ret = live_crc_now(&live[d][i]);
			check(!ret, sf("max bpc %u: live CRC of framebuffer %c",
				       k.bpc, 'A' + i), strerror(-ret));
		}
	}
	printf("# live CRCs: 10 bpc A %016llx B %016llx, 8 bpc A %016llx B %016llx\n",
	       (unsigned long long)live[0][0], (unsigned long long)live[0][1],
	       (unsigned long long)live[1][0], (unsigned long long)live[1][1]);
	check(live[0][0] != live[0][1],
	      "max bpc 10: framebuffers that differ in their low 2 bits have different CRCs",
	      "the same CRC");
	check(live[1][0] == live[1][1],
	      "max bpc 8: the low 2 bits are not sent, the CRCs are equal",
	      "different CRCs");
	check(live[0][0] != live[1][0],
	      "framebuffer A: its CRC at 10 bpc is not its 8-bit one",
	      "the same CRC");
out:
	k.bpc = 10;
	fmt_fb_destroy(k.fd, &wbfb);
	for (i = 0; i < 2; i++)
		fmt_fb_destroy(k.fd, &fb[i]);
}

static bool pick_mode(const drmModeModeInfo *modes, int count,
		      drmModeModeInfo *out)
{
	const drmModeModeInfo *best = NULL;
	int i;

	for (i = 0; i < count; i++) {
		const drmModeModeInfo *m = &modes[i];

		if (m->flags & DRM_MODE_FLAG_INTERLACE ||
		    m->hdisplay != 1024 || m->vdisplay != 768)
			continue;
		if (!best || abs((int)m->vrefresh - 60) <
			     abs((int)best->vrefresh - 60))
			best = m;
	}
	for (i = 0; i < count && !best; i++) {
		const drmModeModeInfo *m = &modes[i];

		if (m->flags & DRM_MODE_FLAG_INTERLACE || m->hdisplay < 640 ||
		    m->vdisplay < 480)
			continue;
		if (!best || (uint32_t)m->hdisplay * m->vdisplay <
			     (uint32_t)best->hdisplay * best->vdisplay)
			best = m;
	}
	for (i = 0; i < count && best && best->hdisplay != 1024; i++) {
		const drmModeModeInfo *m = &modes[i];

		/* Same size, closer to 60 Hz. */
		if (!(m->flags & DRM_MODE_FLAG_INTERLACE) &&
		    m->hdisplay == best->hdisplay &&
		    m->vdisplay == best->vdisplay &&
		    abs((int)m->vrefresh - 60) < abs((int)best->vrefresh - 60))
			best = m;
	}
	if (best)
		*out = *best;
	return best != NULL;
}

static unsigned int read_max_scale_factor(void)
{
	FILE *f = fopen("/sys/module/atomkms/parameters/max_scale_factor", "r");
	unsigned int v = 4;

	if (f) {
		if (fscanf(f, "%u", &v) != 1 || !v)
			v = 4;
		fclose(f);
	}
	return v;
}

/* The first CRTC, its planes, its Virtual and writeback connectors. */
static int find_pipe(void)
{
	drmModeRes *res = drmModeGetResources(k.fd);
	drmModePlaneRes *pres = drmModeGetPlaneResources(k.fd);
	unsigned int i;
	int j, ret = -1;

	if (!res || !pres || res->count_crtcs < 1) {
		fprintf(stderr, "no CRTC or planes\n");
		goto out;
	}
	k.crtc_idx = 0;
	k.crtc = res->crtcs[0];
	for (i = 0; i < pres->count_planes; i++) {
		drmModePlane *pl = drmModeGetPlane(k.fd, pres->planes[i]);
		int type;

		if (!pl)
			continue;
		if (pl->possible_crtcs & 1u) {
			type = plane_type(k.fd, pl->plane_id);
			if (type == DRM_PLANE_TYPE_PRIMARY && !k.primary)
				k.primary = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_CURSOR && !k.cursor)
				k.cursor = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_OVERLAY &&
				 k.num_overlays < MAX_OVERLAYS)
				k.overlays[k.num_overlays++] = pl->plane_id;
			if (k.num_planes < ARRAY_SIZE(k.all_planes))
				k.all_planes[k.num_planes++] = pl->plane_id;
		}
		drmModeFreePlane(pl);
	}
	for (j = 0; j < res->count_connectors && !k.vconn; j++) {
		drmModeConnector *c = drmModeGetConnector(k.fd,
							  res->connectors[j]);
		int e;

		for (e = 0; c && c->connector_type == DRM_MODE_CONNECTOR_VIRTUAL &&
			    e < c->count_encoders; e++) {
			drmModeEncoder *enc = drmModeGetEncoder(k.fd,
								c->encoders[e]);

			if (enc && (enc->possible_crtcs & 1u))
				k.vconn = c->connector_id;
			drmModeFreeEncoder(enc);
		}
		drmModeFreeConnector(c);
	}
	if (!k.primary || !k.vconn) {
		fprintf(stderr, "crtc %u: primary plane %u, Virtual connector %u\n",
			k.crtc, k.primary, k.vconn);
		goto out;
	}
	ret = 0;
out:
	drmModeFreePlaneResources(pres);
	drmModeFreeResources(res);
	return ret;
}

int main(void)
{
	static const uint32_t expect_formats[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888,
		DRM_FORMAT_XRGB2101010, DRM_FORMAT_RGB565, DRM_FORMAT_NV12,
	};
	struct scene scenes[8];
	struct fmt_fb fb0 = { 0 };
	char list[128] = "";
	unsigned int factor, i, n;
	bool listed = true;
	const char *why;
	int ret;

	k.fd = atomkms_open();
	if (!check(k.fd >= 0, "open atomkms device", "not found"))
		goto out;
	ret = kms_reset_all(k.fd);
	check(!ret, "reset the device to defaults", strerror(-ret));
	if (!check(find_pipe() == 0, "find the first CRTC, its planes and Virtual connector",
		   "see stderr"))
		goto out_close;
	ret = wb_conn_find(k.fd, k.crtc_idx, &k.wb);
	if (!check(!ret, "the CRTC has a writeback connector", strerror(-ret)))
		goto out_close;
	for (i = 0; i < k.wb.num_formats; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? " " : "", fourcc_str(k.wb.formats[i]));
	for (i = 0; i < ARRAY_SIZE(expect_formats); i++)
		listed &= wb_conn_has_format(&k.wb, expect_formats[i]);
	check(listed && k.wb.num_formats == ARRAY_SIZE(expect_formats),
	      "WRITEBACK_PIXEL_FORMATS is XR24 AR24 XR30 RG16 NV12",
	      sf("lists %s", list));
	for (i = 0; i < k.wb.num_formats; i++)
		check(atomkms_writeback_supported(k.wb.formats[i]),
		      sf("the core writes listed format %s",
			 fourcc_str(k.wb.formats[i])), "not supported");

	if (!check(pick_mode(k.wb.modes, k.wb.count_modes, &k.mode),
		   "the writeback connector has a mode of at least 640x480",
		   sf("%d modes", k.wb.count_modes)))
		goto out_close;
	factor = read_max_scale_factor();
	k.min_scale = (1 << 16) / factor;
	k.max_scale = factor << 16;
	printf("# crtc %u, writeback connector %u, Virtual connector %u, primary %u, %u overlays, cursor %u\n",
	       k.crtc, k.wb.conn, k.vconn, k.primary, k.num_overlays, k.cursor);
	printf("# mode %ux%u@%u (clock %u), scaling limits %#x..%#x\n",
	       k.mode.hdisplay, k.mode.vdisplay, k.mode.vrefresh, k.mode.clock,
	       k.min_scale, k.max_scale);

	ret = drmModeCreatePropertyBlob(k.fd, &k.mode, sizeof(k.mode),
					&k.mode_blob);
	if (!check(!ret, "create mode blob", strerror(-ret)))
		goto out_close;
	k.scratch = malloc(atomkms_compose_scratch_size(k.mode.hdisplay));
	if (!check(k.scratch && !atomkms_compose_scratch_init(k.scratch,
							      k.mode.hdisplay),
		   "allocate the core's scratch buffer", "failed"))
		goto out_free;

	n = make_scenes(scenes);

	/* Clone the Virtual connector, if the encoders allow it. */
	ret = fmt_fb_create(k.fd, k.mode.hdisplay, k.mode.vdisplay,
			    DRM_FORMAT_XRGB8888, &fb0);
	if (!check(!ret, "create a framebuffer", strerror(-ret)))
		goto out_free;
	{
		struct fmt_fb wbfb = { 0 };
		struct wb_req wr = { .crtc = k.crtc, .active = true };

		ret = fmt_fb_create(k.fd, k.mode.hdisplay, k.mode.vdisplay,
				    DRM_FORMAT_XRGB8888, &wbfb);
		if (!ret) {
			wr.fb_id = wbfb.fb_id;
			k.clone = true;
			ret = commit(&scenes[0], &fb0, &wr,
				     DRM_MODE_ATOMIC_TEST_ONLY);
			k.clone = !ret;
			check(!ret || !k.vconn,
			      "writeback alongside the CRTC's Virtual connector (clone, TEST_ONLY)",
			      strerror(-ret));
			if (ret) {
				ret = commit(&scenes[0], &fb0, &wr,
					     DRM_MODE_ATOMIC_TEST_ONLY);
				check(!ret, "writeback connector alone drives the CRTC (TEST_ONLY)",
				      strerror(-ret));
			}
			fmt_fb_destroy(k.fd, &wbfb);
		}
	}
	fmt_fb_destroy(k.fd, &fb0);

	ret = crc_reader_init(&k.crc, k.fd, k.crtc_idx);
	check(!ret, "live CRC directory", strerror(-ret));

	for (i = 0; i < n; i++) {
		if (!scene_available(&scenes[i], &why)) {
			printf("ok - %s # SKIP %s\n", scenes[i].name, why);
			continue;
		}
		run_scene(scenes[i].name, &scenes[i], DRM_FORMAT_XRGB8888,
			  i + 1);
	}
	for (i = 0; i < k.wb.num_formats; i++)
		run_scene(sf("writeback %s, %s", fourcc_str(k.wb.formats[i]),
			     scenes[0].name),
			  &scenes[0], k.wb.formats[i], 100 + i);
	test_deep_color();

	crc_reader_stop(&k.crc);
	test_rejects(&scenes[0]);

	ret = kms_reset_all(k.fd);
	check(!ret, "switch everything off", strerror(-ret));
out_free:
	free(k.scratch);
	if (k.mode_blob)
		drmModeDestroyPropertyBlob(k.fd, k.mode_blob);
	wb_conn_fini(&k.wb);
out_close:
	close(k.fd);
out:
	return tap_done("test-writeback");
}
