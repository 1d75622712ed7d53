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
#include "atomkms_simd.h"

/*
 * A framebuffer in test memory. Each plane p holds exactly the bytes DRM's
 * core guarantees a driver (drm_gem_fb_init_with_funcs()): @size[p] =
 * (plane height - 1) * @pitch[p] + min_pitch, min_pitch = plane width *
 * cpp[p] (the last line has no padding), with PROT_NONE pages around it
 * (test_guarded_alloc()): an access outside the guarantee faults.
 */
struct test_fb {
	u32 fourcc;
	u32 width;
	u32 height;
	u8 *mem[3];
	u32 pitch[3];
	size_t size[3];
	void *map_base[3];
	size_t map_len[3];
};

/*
 * Where a guarded buffer sits in its pages: TEST_GUARD_END (the default)
 * ends it at a page boundary followed by a PROT_NONE page (reads or writes
 * past the end fault); TEST_GUARD_START starts it at a page boundary after
 * a PROT_NONE page (accesses before the start fault). Both guard pages are
 * always there; the other end then has slack of less than a page.
 */
enum test_guard {
	TEST_GUARD_END,
	TEST_GUARD_START,
};

extern enum test_guard test_fb_guard;

/* @size bytes placed as test_fb_guard says; free with test_guarded_free(). */
u8 *test_guarded_alloc(size_t size, void **base, size_t *len);
void test_guarded_free(void *base, size_t len);
/*
 * On a fault, print the faulting address relative to the guarded buffer
 * it hit and @test_what (what the test was doing), then die of the signal.
 */
void test_guard_catch(void);
extern char test_what[256];
/* Guarded buffers allocated so far (a count of what ran guarded). */
extern u64 test_guarded_allocs;

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

/*
 * The smallest legal framebuffer width >= @width for @fourcc: the driver
 * (ADDFB2) refuses odd widths for formats with 2-pixel blocks in one plane
 * (packed 4:2:2: YUYV, UYVY), whose last macropixel would otherwise lie
 * half outside the bytes DRM guarantees. Their source rectangles may still
 * start and end at odd pixels.
 */
u32 test_fb_width(u32 fourcc, u32 width);
/* @pad: bytes of padding after each line but the last. */
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
u64 ref_crc_bpc(const struct atomkms_px *img, u32 width, u32 height, u32 bpc);
void ref_writeback(const struct atomkms_px *img, u32 width, u32 height,
		   const struct atomkms_writeback *wb);

/*
 * Run the core on a scene: jobs, scratch, frame. @out (width * height) may
 * be NULL; @crc and @wb too. Returns the first job_init error, or 0.
 * With core_compose_general, the frame is %ATOMKMS_FRAME_GENERAL.
 */
extern bool core_compose_general;
/* The frame's &atomkms_frame.bpc (0: 8). */
extern u32 core_compose_bpc;
/* The frame's &atomkms_frame.simd (NULL: scalar). */
extern const struct atomkms_simd_ops *core_compose_simd;

/*
 * The line loops this build and CPU can run (include/atomkms_simd.h):
 * scalar, then SSE2 and AVX2 where the tests were built with them
 * (ATOMKMS_TEST_SIMD, x86-64) and the CPU has them. Return: how many, at
 * most 3, in @ops.
 */
u32 test_simd_levels(const struct atomkms_simd_ops **ops);

/*
 * Above 1: the frame in that many bands (atomkms_compose_band()), each
 * with its own scratch, started in an order drawn from the random state
 * core_compose_order, each on a thread of its own with
 * core_compose_threads, the CRC taken from the bands in reverse.
 */
extern u32 core_compose_bands;
extern bool core_compose_threads;
extern u64 core_compose_order;
int core_compose(const struct ref_scene *sc, struct atomkms_px *out, u64 *crc,
		 const struct atomkms_writeback *wb);

/*
 * Largest difference of R, G or B between @a and @b over @n pixels, and
 * where (the first pixel with it) if @at.
 */
u32 test_px_max_diff(const struct atomkms_px *a, const struct atomkms_px *b,
		     size_t n, size_t *at);

#endif /* ATOMKMS_TEST_REF_COMPOSE_H */
