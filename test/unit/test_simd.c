// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compositor's line loops (include/atomkms_simd.h): every level this
 * CPU runs (scalar, SSE2, AVX2) against a per-pixel reference written
 * from atomkms_compose.h's equations and against the scalar table, bit
 * for bit on R, G and B (X is junk by contract); every blend mode, every
 * plane alpha, every source alpha, widths 1..67 and larger, unaligned
 * starts. Then whole frames through atomkms_compose_frame() with each
 * level against the general path, and the vector sections: no line loop
 * outside begin/end, no section longer than its bound, the line hook
 * never inside one; and a rotated plane's strips follow a flip that
 * the line hook makes mid-frame.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_compose.h"
#include "atomkms_simd.h"
#include "simd_watch.h"

static const struct atomkms_simd_ops *levels[3];
static u32 num_levels;
static u64 rng = 20261206;

static u32 mul8(u32 a, u32 b)
{
	return (a * b + 127) / 255;	/* round(a b / 255), ties up: exact */
}

/* atomkms_compose.h's blend at max = 255, one 0x00RRGGBB result. */
static u32 ref_blend(u32 op, u32 pa, u32 s, u32 d)
{
	u32 sa = s >> 24, a, out = 0, c;

	if (op == ATOMKMS_BLEND_COVERAGE)
		a = mul8(sa, pa);
	else if (op == ATOMKMS_BLEND_PREMULTI)
		a = mul8(sa, pa);
	else
		a = pa;
	for (c = 0; c < 24; c += 8) {
		u32 sc = (s >> c) & 0xff, dc = (d >> c) & 0xff, v;

		sc = mul8(sc, op == ATOMKMS_BLEND_COVERAGE ? a : pa);
		v = sc + mul8(dc, 255 - a);
		out |= (v > 255 ? 255 : v) << c;
	}
	return out;
}

/*
 * @n source pixels: runs of opaque, of clear, of one translucent value,
 * and of random ones (premultiplied or not), so that whole vectors take
 * every shortcut and mixed ones the arithmetic.
 */
static void fill_src(u32 *s, u32 n, bool premul)
{
	u32 i = 0;

	while (i < n) {
		u32 kind = test_rand_below(&rng, 4);
		u32 run = 1 + test_rand_below(&rng, 12), k;
		u32 fixed = (u32)test_rand(&rng);

		for (k = 0; k < run && i < n; k++, i++) {
			u32 p = kind == 2 ? fixed : (u32)test_rand(&rng);
			u32 a = p >> 24, c, q = 0;

			if (kind == 0)
				a = 255;
			else if (kind == 1)
				a = 0;
			for (c = 0; c < 24; c += 8) {
				u32 v = (p >> c) & 0xff;

				q |= (premul ? v * a / 255 : v) << c;
			}
			s[i] = a << 24 | q;
		}
	}
}

static bool same_rgb(const u32 *a, const u32 *b, u32 n, u32 *at)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if ((a[i] ^ b[i]) & 0xffffff) {
			*at = i;
			return false;
		}
	}
	return true;
}

/* blend32 of every level, every op and pa, widths @w, offsets 0..3. */
static void test_blend_lines(void)
{
	static const u32 big[] = { 255, 256, 1000, 1920, 3843 };
	u32 cap = 4000, *s = malloc(4 * (cap + 8)), *d0 = malloc(4 * (cap + 8));
	u32 *ref = malloc(4 * cap), *out = malloc(4 * (cap + 8));
	u32 l, op, pa, wi, off, i, bad[3] = { 0 }, runs = 0;

	for (wi = 0; wi < 67 + ARRAY_SIZE(big); wi++) {
		u32 n = wi < 67 ? wi + 1 : big[wi - 67];

		for (op = 0; op < 3; op++) {
			for (pa = 0; pa < 256; pa += n > 67 ? 15 : 1) {
				off = (wi + pa) & 3;
				fill_src(s + off, n, op != ATOMKMS_BLEND_PIXEL_NONE &&
					 (pa & 1));
				for (i = 0; i < n + 8; i++)
					d0[i] = (u32)test_rand(&rng);
				for (i = 0; i < n; i++)
					ref[i] = ref_blend(op, pa, s[off + i],
							   d0[off + i]);
				for (l = 0; l < num_levels; l++) {
					u32 at = 0;

					memcpy(out, d0, 4 * (n + 8));
					levels[l]->blend32(op, pa, s + off,
							   out + off, n);
					runs++;
					if (!same_rgb(out + off, ref, n, &at) ||
					    out[off + n] != d0[off + n] ||
					    (off && out[off - 1] != d0[off - 1])) {
						if (!bad[l]++)
							printf("%s: op %u pa %u n %u off %u: pixel %u src %08x dst %08x: %08x, reference %06x\n",
							       levels[l]->name, op, pa, n, off, at,
							       s[off + at], d0[off + at],
							       out[off + at], ref[at]);
					}
				}
			}
		}
	}
	for (l = 0; l < num_levels; l++)
		CHECK(!bad[l], "%s: %u blend32 lines differ from the reference",
		      levels[l]->name, bad[l]);
	printf("blend32: %u lines (3 modes, plane alpha 0..255, widths 1..67 and 5 larger, offsets 0..3)\n",
	       runs);
	free(s);
	free(d0);
	free(ref);
	free(out);
}

/*
 * over_n of every level against the reference (ref_blend() OVER at plane
 * alpha 255, overlay after overlay) and against the scalar blend32 passes
 * it replaces (a copy, then OVER each): 1 to ATOMKMS_SIMD_OVER_MAX
 * overlays, widths 1..67 and larger, each line at its own word offset,
 * onto a separate base or in place; in one round in ten the overlays'
 * alpha sweeps 0..255 pixel by pixel, premultiplied.
 */
static void test_over_n(void)
{
	static const u32 big[] = { 255, 256, 1000, 1920, 3843 };
	const u32 cap = 4000 + 16;
	u32 *src[ATOMKMS_SIMD_OVER_MAX], *base = malloc(4 * cap);
	u32 *d0 = malloc(4 * cap), *ref = malloc(4 * cap);
	u32 *out = malloc(4 * cap), *pass = malloc(4 * cap);
	u32 l, wi, ns, rnd, i, k, bad[3] = { 0 }, runs = 0, bad_pass = 0;

	for (k = 0; k < ATOMKMS_SIMD_OVER_MAX; k++)
		src[k] = malloc(4 * cap);
	for (wi = 0; wi < 67 + ARRAY_SIZE(big); wi++) {
		u32 n = wi < 67 ? wi + 1 : big[wi - 67];

		for (rnd = 0; rnd < (n > 67 ? 8 : 40); rnd++) {
			const u32 *s[ATOMKMS_SIMD_OVER_MAX];
			u32 ob = test_rand_below(&rng, 8);
			u32 od = test_rand_below(&rng, 8);
			bool in_place = rnd & 1;

			ns = 1 + rnd / 2 % ATOMKMS_SIMD_OVER_MAX;
			for (k = 0; k < ns; k++) {
				u32 os = test_rand_below(&rng, 8);

				fill_src(src[k] + os, n, rnd % 3 != 2);
				if (rnd % 10 == 9)
					for (i = 0; i < n; i++) {
						u32 a = (i * 7 + k * 31) & 255;

						src[k][os + i] = a << 24 |
							(a * 0x010101u & (u32)test_rand(&rng));
					}
				s[k] = src[k] + os;
			}
			for (i = 0; i < cap; i++) {
				base[i] = (u32)test_rand(&rng);
				d0[i] = (u32)test_rand(&rng);
			}
			if (in_place)
				memcpy(d0 + od, base + ob, 4 * n);
			for (i = 0; i < n; i++) {
				ref[i] = base[ob + i];
				for (k = 0; k < ns; k++)
					ref[i] = ref_blend(ATOMKMS_BLEND_PREMULTI,
							   255, s[k][i], ref[i]);
			}
			/* The passes over_n replaces, on the scalar table. */
			memcpy(pass, base + ob, 4 * n);
			for (k = 0; k < ns; k++)
				atomkms_simd_scalar.blend32(ATOMKMS_BLEND_PREMULTI,
							    255, s[k], pass, n);
			for (l = 0; l < num_levels; l++) {
				u32 at = 0;

				memcpy(out, d0, 4 * cap);
				levels[l]->over_n(out + od, in_place ?
						  out + od : base + ob, s, ns, n);
				runs++;
				if (!same_rgb(out + od, ref, n, &at) ||
				    !same_rgb(out + od, pass, n, &at) ||
				    memcmp(out, d0, 4 * od) ||
				    memcmp(out + od + n, d0 + od + n,
					   4 * (cap - od - n))) {
					if (!bad[l]++)
						printf("%s: over_n ns %u n %u in place %u: pixel %u: %08x, reference %06x\n",
						       levels[l]->name, ns, n,
						       in_place, at, out[od + at],
						       ref[at]);
				}
			}
			bad_pass += !same_rgb(pass, ref, n, &i);
		}
	}
	for (l = 0; l < num_levels; l++)
		CHECK(!bad[l], "%s: %u over_n lines differ", levels[l]->name,
		      bad[l]);
	CHECK(!bad_pass, "%u scalar blend32 passes differ from the reference",
	      bad_pass);
	printf("over_n: %u lines (1..%u overlays, widths 1..67 and 5 larger, offsets 0..7, in place or not)\n",
	       runs, ATOMKMS_SIMD_OVER_MAX);
	for (k = 0; k < ATOMKMS_SIMD_OVER_MAX; k++)
		free(src[k]);
	free(base);
	free(d0);
	free(ref);
	free(out);
	free(pass);
}

/*
 * crc_blocks of every level against the scalar atomkms_crc_blocks() on
 * random lanes, 0 to 40 blocks at every word offset; then whole lines
 * through atomkms_crc_line_with() against atomkms_crc_line(), widths 1..67
 * and larger, over more than a chunk of lines.
 */
static void test_crc_blocks(void)
{
	static const u32 big[] = { 255, 1920, 3843 };
	u32 *px = malloc(4 * (40 * 32 + 8 + 4000 * 20));
	u32 l, b, off, i, k, bad[3] = { 0 }, bad_line[3] = { 0 };

	for (i = 0; i < 40 * 32 + 8 + 4000 * 20; i++)
		px[i] = (u32)test_rand(&rng);
	for (b = 0; b <= 40; b++) {
		for (off = 0; off < 8; off++) {
			u32 h0[ATOMKMS_CRC_LANES], ref[ATOMKMS_CRC_LANES];

			for (k = 0; k < ATOMKMS_CRC_LANES; k++)
				h0[k] = (u32)test_rand(&rng);
			memcpy(ref, h0, sizeof(ref));
			atomkms_crc_blocks(ref, px + off, b);
			for (l = 0; l < num_levels; l++) {
				u32 h[ATOMKMS_CRC_LANES];

				memcpy(h, h0, sizeof(h));
				levels[l]->crc_blocks(h, px + off, b);
				if (memcmp(h, ref, sizeof(h)) && !bad[l]++)
					printf("%s: crc_blocks %u blocks at offset %u differ\n",
					       levels[l]->name, b, off);
			}
		}
	}
	for (i = 0; i < 67 + ARRAY_SIZE(big); i++) {
		u32 n = i < 67 ? i + 1 : big[i - 67], y, lines = 20;
		struct atomkms_crc ref, c;

		atomkms_crc_init(&ref);
		for (y = 0; y < lines; y++)
			atomkms_crc_line(&ref, px + y * n + (y & 7), n);
		for (l = 0; l < num_levels; l++) {
			atomkms_crc_init(&c);
			for (y = 0; y < lines; y++)
				atomkms_crc_line_with(&c, px + y * n + (y & 7), n,
						      levels[l]->crc_blocks);
			if (atomkms_crc_final(&c) != atomkms_crc_final(&ref) &&
			    !bad_line[l]++)
				printf("%s: CRC of %u-pixel lines differs\n",
				       levels[l]->name, n);
		}
	}
	for (l = 0; l < num_levels; l++) {
		CHECK(!bad[l], "%s: %u crc_blocks runs differ from scalar",
		      levels[l]->name, bad[l]);
		CHECK(!bad_line[l], "%s: %u line widths' CRCs differ",
		      levels[l]->name, bad_line[l]);
	}
	free(px);
}

/*
 * The sum of the chunks of lines [@y0, @y1) of a @w-wide frame, hashed
 * through @ops' crc_blocks, in pieces of whole chunks from @y0 (a chunk's
 * first line), the pieces' sums added.
 */
static u64 crc_sum_level(const struct atomkms_simd_ops *ops, const u32 *px,
			 u32 w, u32 y0, u32 y1, u32 piece)
{
	u64 sum = 0;
	u32 y = y0;

	while (y < y1) {
		u32 end = y + piece * ATOMKMS_CRC_CHUNK_LINES;
		struct atomkms_crc c;

		atomkms_crc_init_at(&c, y);
		for (end = end < y1 ? end : y1; y < end; y++)
			atomkms_crc_line_with(&c, px + (size_t)y * w, w,
					      ops->crc_blocks);
		sum += atomkms_crc_sum(&c);
	}
	return sum;
}

/*
 * Whole frames on every level against the definition (ref_crc_words()):
 * random sizes, widths below a block and odd ones, 1-line frames, heights
 * that are not multiples of a chunk, hashed in bands of random whole
 * chunks; 10-bit frames' deviation words against ref_crc_bpc(); and a
 * pixel changed in one bit, anywhere: the value always changes.
 */
static void test_crc_frames(void)
{
	static const u32 sizes[][2] = {
		{ 1, 1 }, { 31, 1 }, { 32, 1 }, { 33, 1 }, { 1920, 1 },
		{ 7, 15 }, { 32, 16 }, { 63, 17 }, { 64, 33 }, { 97, 47 },
		{ 1920, 20 }, { 3843, 18 },
	};
	u32 bad[3] = { 0 }, bad_deep[3] = { 0 }, same[3] = { 0 }, frames = 0;
	u32 flips = 0, i, l;

	for (i = 0; i < ARRAY_SIZE(sizes) + 120; i++) {
		u32 w = i < ARRAY_SIZE(sizes) ? sizes[i][0] :
			1 + test_rand_below(&rng, 140);
		u32 h = i < ARRAY_SIZE(sizes) ? sizes[i][1] :
			1 + test_rand_below(&rng, 60);
		size_t n = (size_t)w * h, k;
		u32 *px = malloc(n * sizeof(*px)), *dev = malloc(n * sizeof(*dev));
		struct atomkms_px *img = malloc(n * sizeof(*img));
		u64 ref, ref_deep;
		u32 t;

		for (k = 0; k < n; k++) {
			px[k] = (u32)test_rand(&rng);
			dev[k] = (u32)test_rand(&rng) & 0x030303;
		}
		dev[0] |= 1;	/* some deviation */
		/* 16-bit channels whose 10 bits are top 8 and deviation. */
		for (k = 0; k < n; k++) {
			u16 v[3];

			for (t = 0; t < 3; t++) {
				u32 top = (px[k] >> (16 - 8 * t)) & 0xff;
				u32 c = (top << 2 | top >> 6) ^
					((dev[k] >> (16 - 8 * t)) & 3);

				v[t] = (u16)(c << 6 | c >> 4);
			}
			img[k] = (struct atomkms_px){ 0xffff, v[0], v[1], v[2] };
		}
		ref = ref_crc_words(px, w, h);
		ref_deep = ref_crc_bpc(img, w, h, 10);
		for (l = 0; l < num_levels; l++) {
			u32 piece = 1 + test_rand_below(&rng, 3);
			u64 sum = crc_sum_level(levels[l], px, w, 0, h, piece);
			u64 deep = crc_sum_level(levels[l], dev, w, 0, h, piece);
			u32 at, bit;

			if (atomkms_crc_value(sum) != ref && !bad[l]++)
				printf("%s: CRC of a %ux%u frame differs\n",
				       levels[l]->name, w, h);
			if (atomkms_crc_value_deep(sum, deep) != ref_deep &&
			    !bad_deep[l]++)
				printf("%s: 10-bit CRC of a %ux%u frame differs\n",
				       levels[l]->name, w, h);
			/* One bit of one pixel changed: another value. */
			for (k = 0; k < 8; k++) {
				at = test_rand_below(&rng, (u32)n);
				bit = test_rand_below(&rng, 24);
				px[at] ^= 1u << bit;
				if (atomkms_crc_value(crc_sum_level(levels[l], px, w,
								    0, h, 1)) ==
				    ref)
					same[l]++;
				px[at] ^= 1u << bit;
				flips++;
			}
		}
		frames++;
		free(px);
		free(dev);
		free(img);
	}
	for (l = 0; l < num_levels; l++) {
		CHECK(!bad[l], "%s: %u frames' CRCs differ from the definition",
		      levels[l]->name, bad[l]);
		CHECK(!bad_deep[l],
		      "%s: %u 10-bit frames' CRCs differ from the definition",
		      levels[l]->name, bad_deep[l]);
		CHECK(!same[l], "%s: %u one-pixel changes kept the CRC",
		      levels[l]->name, same[l]);
	}
	printf("crc: %u frames on each level, in bands, at 8 and 10 bits; %u one-bit changes\n",
	       frames, flips);
}

/* copy_xff and stream_xff, widths 0..67 and 1000, every word offset. */
static void test_copy_xff(void)
{
	u32 s[1100], d[1100], ref[1100], l, n, off, i, str, bad = 0;

	for (n = 0; n <= 68; n++) {
		u32 len = n == 68 ? 1000 : n;

		for (off = 0; off < 8; off++) {
			for (i = 0; i < ARRAY_SIZE(s); i++)
				s[i] = (u32)test_rand(&rng);
			for (l = 0; l < 2 * num_levels; l++) {
				const struct atomkms_simd_ops *o = levels[l / 2];

				str = l & 1;
				memset(d, 0x5a, sizeof(d));
				memcpy(ref, d, sizeof(d));
				for (i = 0; i < len; i++)
					ref[off + i] = s[off + i] | 0xff000000u;
				(str ? o->stream_xff : o->copy_xff)(d + off,
								    s + off, len);
				if (memcmp(d, ref, sizeof(d)) && !bad++)
					printf("%s: %s_xff n %u off %u differs\n",
					       o->name, str ? "stream" : "copy",
					       len, off);
			}
		}
	}
	CHECK(!bad, "%u copy_xff/stream_xff lines differ", bad);
}

/*
 * A frame whose planes take every packed path: an XRGB8888 primary, two
 * ARGB8888 overlays (one rotated 90, one with plane alpha and odd
 * position), a cursor hanging off the edge; each blend mode in turn.
 */
static void test_frames(void)
{
	static const u32 widths[] = { 1, 3, 17, 67, 130 };
	u32 wi, mode, l, bad = 0, frames = 0;

	for (wi = 0; wi < ARRAY_SIZE(widths); wi++) {
		for (mode = 0; mode < 6; mode++) {
			u32 w = widths[wi], h = 9 + wi;
			struct test_fb fb[4];
			struct ref_plane pl[4];
			struct ref_scene sc = { w, h, 4, pl, NULL };
			struct atomkms_px *gen, *img;
			u64 crc_gen, crc;
			u32 k;

			test_fb_alloc(&fb[0], ATOMKMS_FMT_XRGB8888, w, h, 4 * (wi & 1), &rng);
			test_fb_alloc(&fb[1], ATOMKMS_FMT_ARGB8888, w, h, 0, &rng);
			test_fb_alloc(&fb[2], ATOMKMS_FMT_ARGB8888, h, w, 8, &rng);
			test_fb_alloc(&fb[3], ATOMKMS_FMT_ARGB8888, 7, 5, 0, &rng);
			for (k = 0; k < 4; k++) {
				test_fb_src(&fb[k], &pl[k].src);
				test_desc_full(&pl[k].desc, &fb[k], 0, 0, w, h);
			}
			pl[1].desc.blend_mode = mode % 3;
			pl[1].desc.alpha = mode < 3 ? 0xffff : 0x80ff;
			pl[2].desc.rotation = ATOMKMS_ROTATE_90;
			pl[2].desc.dst_w = w;
			pl[2].desc.dst_h = h;
			pl[2].desc.blend_mode = mode % 3;
			pl[2].desc.alpha = mode < 3 ? 0xffff : 0x3fff;
			pl[3].desc.dst_x = (s32)w - 3;
			pl[3].desc.dst_y = 2;
			gen = calloc((size_t)w * h, sizeof(*gen));
			img = calloc((size_t)w * h, sizeof(*img));
			core_compose_general = true;
			core_compose_simd = NULL;
			if (core_compose(&sc, gen, &crc_gen, NULL)) {
				bad++;
				printf("frame %ux%u mode %u: no job\n", w, h, mode);
			}
			core_compose_general = false;
			for (l = 0; l < num_levels; l++) {
				core_compose_simd = levels[l];
				memset(img, 0, (size_t)w * h * sizeof(*img));
				core_compose(&sc, img, &crc, NULL);
				frames++;
				if (crc != crc_gen ||
				    test_px_max_diff(img, gen, (size_t)w * h, NULL)) {
					if (!bad++)
						printf("%s: frame %ux%u mode %u differs from the general path\n",
						       levels[l]->name, w, h, mode);
				}
			}
			core_compose_simd = NULL;
			free(gen);
			free(img);
			for (k = 0; k < 4; k++)
				test_fb_free(&fb[k]);
		}
	}
	CHECK(!bad, "%u frames differ from the general path", bad);
	printf("frames: %u, each level against the general path\n", frames);
}

/*
 * The vector sections, watched through a wrapped table (simd_watch.h):
 * @inner's line loops with @inner_crc's crc_blocks (the module's table
 * may mix levels).
 */
static u32 hook_inside;

static void watch_sink(void *ctx, u32 y,
		       const struct atomkms_px *line,
		       u32 width)
{
	(void)ctx, (void)y, (void)line, (void)width;
	section_lines += in_section;
}

static void watch_hook(void *ctx, u32 y)
{
	(void)ctx, (void)y;
	hook_inside += in_section;
}

/* Frames of 3 planes through the watched @inner and @inner_crc. */
static void test_sections_with(void)
{
	/* 4096x520: past ATOMKMS_SIMD_STREAM_BYTES, the writeback streams. */
	static const u32 widths[] = { 64, 1920, 3840, 16384, 4096 };
	u32 wi, hook;

	for (wi = 0; wi < ARRAY_SIZE(widths); wi++) {
		for (hook = 0; hook < 2; hook++) {
			u32 w = widths[wi], h = w == 4096 ? 520 : 40, k;
			struct test_fb fb[3], wbfb[2];
			struct atomkms_writeback wb[2];
			struct atomkms_plane_job job[3];
			struct atomkms_frame_plane fp[3];
			struct atomkms_plane_desc desc;
			struct atomkms_frame f = { 0 };
			u64 crc[2];
			const char *why;
			void *scratch = malloc(atomkms_compose_scratch_size(w));

			atomkms_compose_scratch_init(scratch, w);
			for (k = 0; k < 3; k++) {
				test_fb_alloc(&fb[k], k ? ATOMKMS_FMT_ARGB8888 :
					      ATOMKMS_FMT_XRGB8888, w, h, 0, &rng);
				test_desc_full(&desc, &fb[k], 0, 0, w, h);
				atomkms_plane_job_init(&job[k], &desc, &why);
				fp[k].job = &job[k];
				test_fb_src(&fb[k], &fp[k].src);
			}
			for (k = 0; k < 2; k++) {
				test_fb_alloc(&wbfb[k], ATOMKMS_FMT_XRGB8888, w, h,
					      0, NULL);
				memset(&wb[k], 0, sizeof(wb[k]));
				wb[k].fourcc = ATOMKMS_FMT_XRGB8888;
				wb[k].map[0] = wbfb[k].mem[0];
				wb[k].pitch[0] = wbfb[k].pitch[0];
			}
			f.width = w;
			f.height = h;
			f.num_planes = 3;
			f.planes = fp;
			f.wb = &wb[0];
			f.simd = &simd_watch;
			f.line_sink = watch_sink;
			f.line_hook = hook ? watch_hook : NULL;
			f.crc = &crc[0];
			sections = 0;
			max_section_lines = 0;
			watch_fused = 0;
			watch_crc = 0;
			CHECK(!atomkms_compose_frame(&f, scratch), "frame %u", w);
			/* Both overlays fused with the primary, every line. */
			CHECK(watch_fused == h && watch_crc == h,
			      "%ux%u: %u fused lines, %u CRC lines of %u", w, h,
			      watch_fused, watch_crc, h);
			/* The same frame on the scalar loops, no sections. */
			f.wb = &wb[1];
			f.crc = &crc[1];
			f.simd = NULL;
			f.line_sink = NULL;
			f.line_hook = NULL;
			CHECK(!atomkms_compose_frame(&f, scratch), "frame %u", w);
			CHECK(crc[0] == crc[1], "%ux%u: %s CRC differs from scalar's",
			      w, h, inner_crc->name);
			CHECK(!memcmp(wbfb[0].mem[0], wbfb[1].mem[0], wbfb[0].size[0]),
			      "%ux%u: %s writeback differs from scalar's", w, h,
			      inner->name);
			CHECK(!in_section && !nested, "%ux%u: sections unbalanced",
			      w, h);
			CHECK(sections && max_section_lines <= (hook ? 1 : 8) &&
			      (u64)max_section_lines * w * 4 <= 32768 + 4ull * w,
			      "%ux%u hook %u: %u sections, longest %u lines", w, h,
			      hook, sections, max_section_lines);
			for (k = 0; k < 3; k++)
				test_fb_free(&fb[k]);
			for (k = 0; k < 2; k++)
				test_fb_free(&wbfb[k]);
			free(scratch);
		}
	}
}

/*
 * The best level for both; then the scalar line loops with its CRC, as
 * the module runs when the CRC's calibration alone picks vector code (the
 * sections are then opened for the CRC).
 */
static void test_sections(void)
{
	inner = levels[num_levels - 1];
	inner_crc = levels[num_levels - 1];
	test_sections_with();
	inner = levels[0];
	test_sections_with();
	CHECK(!outside, "%u line loop calls outside a section", outside);
	CHECK(!hook_inside, "%u line hooks inside a section", hook_inside);
}

/* An async flip mid-frame onto a rotated plane: the strip reads it. */
struct flip {
	struct atomkms_frame_plane *fp;
	const u8 *next;
	u32 at;
	u32 red_lines, blue_lines, bad;
};

static void flip_hook(void *ctx, u32 y)
{
	struct flip *fl = ctx;

	if (y == fl->at)
		fl->fp->src.map[0] = fl->next;
}

static void flip_sink(void *ctx, u32 y, const struct atomkms_px *line,
		      u32 width)
{
	struct flip *fl = ctx;
	u32 x;

	for (x = 0; x < width; x++) {
		bool red = line[x].r == 0xffff && !line[x].b;
		bool blue = line[x].b == 0xffff && !line[x].r;

		if (y < fl->at ? !red : !blue)
			fl->bad++;
	}
	if (y < fl->at)
		fl->red_lines++;
	else
		fl->blue_lines++;
}

static void test_rotated_flip(void)
{
	u32 w = 24, h = 40, l, i, at;
	struct test_fb red, blue;
	struct atomkms_plane_desc desc;
	struct atomkms_plane_job job;
	struct atomkms_frame_plane fp;
	const char *why;
	void *scratch = malloc(atomkms_compose_scratch_size(w));

	atomkms_compose_scratch_init(scratch, w);
	/* Framebuffers of the rotated size, h wide and w tall. */
	test_fb_alloc(&red, ATOMKMS_FMT_XRGB8888, h, w, 8, NULL);
	test_fb_alloc(&blue, ATOMKMS_FMT_XRGB8888, h, w, 8, NULL);
	for (i = 0; i < w; i++) {
		u32 x;

		for (x = 0; x < h; x++) {
			red.mem[0][i * red.pitch[0] + 4 * x + 2] = 0xff;
			blue.mem[0][i * blue.pitch[0] + 4 * x] = 0xff;
		}
	}
	test_desc_full(&desc, &red, 0, 0, w, h);
	desc.dst_w = w;
	desc.dst_h = h;
	desc.rotation = ATOMKMS_ROTATE_90;
	CHECK(!atomkms_plane_job_init(&job, &desc, &why), "job: %s", why);
	for (l = 0; l < num_levels; l++) {
		for (at = 1; at < h; at += 6) {
			struct flip fl = { .fp = &fp, .next = blue.mem[0],
					   .at = at };
			struct atomkms_frame f = {
				.width = w, .height = h, .num_planes = 1,
				.planes = &fp, .simd = levels[l],
				.line_sink = flip_sink, .sink_ctx = &fl,
				.line_hook = flip_hook, .hook_ctx = &fl,
			};

			fp.job = &job;
			test_fb_src(&red, &fp.src);
			CHECK(!atomkms_compose_frame(&f, scratch), "compose");
			CHECK(!fl.bad && fl.red_lines == at &&
			      fl.blue_lines == h - at,
			      "%s: rotated plane flipped at line %u: %u bad pixels",
			      levels[l]->name, at, fl.bad);
		}
	}
	test_fb_free(&red);
	test_fb_free(&blue);
	free(scratch);
}

int main(void)
{
	u32 l;

	test_guard_catch();
	num_levels = test_simd_levels(levels);
	printf("test_simd: levels run on this CPU:");
	for (l = 0; l < num_levels; l++)
		printf(" %s", levels[l]->name);
	printf("\n");
	test_blend_lines();
	test_over_n();
	test_crc_blocks();
	test_crc_frames();
	test_copy_xff();
	test_frames();
	test_sections();
	test_rotated_flip();
	return check_done("test_simd");
}
