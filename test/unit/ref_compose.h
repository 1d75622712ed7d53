/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A slow, per-pixel reference of the software compositor for the unit
 * tests, written from the documented semantics (include/atomkms_*.h and
 * DRM's drm_rect_rotate()/drm_rect_rotate_inv()) rather than from the
 * core, plus helpers to run the core on the same scene.
 */
#ifndef ATOMKMS_TEST_REF_COMPOSE_H
#define ATOMKMS_TEST_REF_COMPOSE_H

#include <stdint.h>

#include "atomkms_compose.h"

/* A framebuffer in test memory. */
struct test_fb {
	u32 fourcc;
	u32 width;
	u32 height;
	u8 *mem[3];
	u32 pitch[3];
	size_t size[3];
};

struct ref_plane {
	struct atomkms_plane_desc desc;
	struct atomkms_plane_src src;
};

struct ref_scene {
	u32 width;
	u32 height;
	u32 num_planes;
	const struct ref_plane *planes;
	const struct atomkms_color *color;
};

/* Random numbers: splitmix64. */
u64 test_rand(u64 *state);
u32 test_rand_below(u64 *state, u32 n);

void test_fb_alloc(struct test_fb *fb, u32 fourcc, u32 width, u32 height,
		   u32 pad, u64 *rng);
void test_fb_free(struct test_fb *fb);
void test_fb_src(const struct test_fb *fb, struct atomkms_plane_src *src);
/* A desc showing all of @fb at (x, y), 1:1, opaque, premultiplied. */
void test_desc_full(struct atomkms_plane_desc *d, const struct test_fb *fb,
		    s32 x, s32 y, u32 crtc_w, u32 crtc_h);

/* Per-pixel reference: @out gets width * height pixels (alpha unused). */
void ref_compose(const struct ref_scene *sc, struct atomkms_px *out);
/* The reference's YCbCr conversion, in double. */
void ref_yuv_to_rgb(u32 encoding, u32 range, u32 depth,
		    const struct atomkms_px *in, struct atomkms_px *out);
/* Raw pixel of a framebuffer, as a reader returns it. */
struct atomkms_px ref_fetch_raw(u32 fourcc, const struct atomkms_plane_src *s,
				u32 x, u32 y);
u32 ref_format_depth(u32 fourcc);
u64 ref_crc(const struct atomkms_px *img, u32 width, u32 height);
u64 ref_crc_words(const u32 *px, u32 width, u32 height);
void ref_writeback(const struct atomkms_px *img, u32 width, u32 height,
		   const struct atomkms_writeback *wb);

/*
 * Run the core on a scene: jobs, scratch, frame. @out (width * height) may
 * be NULL; @crc and @wb too. Returns the first job_init error, or 0.
 */
int core_compose(const struct ref_scene *sc, struct atomkms_px *out, u64 *crc,
		 const struct atomkms_writeback *wb);

#endif /* ATOMKMS_TEST_REF_COMPOSE_H */
