/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame checksum of the software compositor, reported through the DRM
 * CRC API as two 32-bit words (igt only compares them for equality). It is
 * not a CRC-32 but a 64-bit hash built for speed on lines of 0xXXRRGGBB
 * words, read in place whatever their X byte, and for vector code: 32
 * lanes of 32 bits, a step per pixel, that AVX2 steps 8 at a time with
 * five instructions (the line loops: include/atomkms_simd.h):
 *
 *   The frame's lines are cut into chunks of ATOMKMS_CRC_CHUNK_LINES
 *   lines (chunk i: lines 16i to 16i + 15; the last chunk may be
 *   shorter), each hashed on its own: pixel x of a chunk's line goes to
 *   lane x mod ATOMKMS_CRC_LANES (32); a lane h takes pixel p (X byte
 *   masked off) as
 *     x = (h + (p & 0x00ffffff)) * ATOMKMS_CRC_MUL; h = x ^ (x >> 16)
 *   (all mod 2^32). The lanes start at
 *   ATOMKMS_CRC_SEED + k * ATOMKMS_CRC_LANE_STEP (mod 2^32) in every
 *   chunk; chunk i's hash is fmix64() (MurmurHash3's finaliser) chained
 *   over the lanes two at a time from i * 0x9e3779b97f4a7c15,
 *   c = fmix64(c ^ (h[2j] | h[2j + 1] << 32)), j = 0..15. The frame's sum
 *   S is the sum of its chunks' hashes (mod 2^64), its value fmix64(S).
 *   The words reported are the value's high and low halves, with two
 *   folds for igt's sanity checks, which warn about a CRC of all zeroes
 *   and about a word of 0xffffffff: a word 0xffffffff becomes 0xfffffffe,
 *   and a value 0 becomes 1.
 *
 * The chunks are fixed by the frame, not by who hashes them: a frame
 * composed in bands of whole chunks (atomkms_compose_band()), by any
 * number of workers finishing in any order, has the value of the frame
 * composed in one pass. Each band sums its chunks from 0
 * (atomkms_crc_init_at() at its first line); the sums add up.
 *
 * Properties: deterministic and the same in every build; X bytes ignored;
 * every step is a bijection of the lane for a fixed pixel (an add, a
 * multiply by an odd constant, x ^ x >> 16: all invertible mod 2^32) and
 * injective in the pixel's 24 bits for a fixed lane (the add is, the rest
 * is a bijection), the chaining is a bijection of each lane (the other
 * lane of its pair fixed), and the sum and fmix64() are bijections of
 * each chunk's hash, so two frames that differ in one pixel always give
 * different values (bar the folds). Two changes in one lane cancel only
 * if the second undoes the lane difference the first left; one 32-bit
 * multiply spreads that less than the 64-bit step this replaced: for a
 * change of +1, +256 or +65536 in a pixel, the likeliest lane difference
 * one step later has a probability of 4e-4, 5e-4 and 1.3e-3 over 2^22
 * random lane states (the 64-bit step of two pixels: below 2e-6; with
 * 0x9e3779b1 as the multiplier, up to 4e-3). A change of +65536 moves the
 * product's high half by a constant only, so its likeliest difference is
 * the likeliest of the low half's xor. The lanes are 32 bits so that
 * AVX2, which has a 32-bit multiply low (vpmulld) but no 64-bit one, steps
 * 8 pixels in 5 instructions; the scalar code pays a step a pixel instead
 * of a step per two (figures in the README).
 *
 * A frame sent at 10 bits per channel (a connector's output depth; see
 * &struct atomkms_frame.bpc) has two more bits a channel than the words
 * above hold. Its value hashes them too, as the deviation of each 10-bit
 * channel c from the 10-bit replication of its top 8 bits t (t << 2 |
 * t >> 6): the 2 bits (c ^ t >> 6) & 3, as 0x00RRGGBB words of a second
 * set of lanes. Their chain is added only to a frame in which some
 * deviation is not 0: an 8-bit image, whose 10-bit channels are all
 * replications, has the same value at 8 and 10 bits (no 8-bit path pays
 * for 10-bit output), and two 10-bit frames that differ in any low bit
 * have different values. Its chunks are those of the frame, summed to D;
 * the value is then fmix64(fmix64(S) ^ D).
 */
#ifndef ATOMKMS_CRC_H
#define ATOMKMS_CRC_H

#include "atomkms_types.h"

#define ATOMKMS_CRC_LANES	32
/* Lines a chunk hashes; a band of a frame is a union of whole chunks. */
#define ATOMKMS_CRC_CHUNK_LINES	16
#define ATOMKMS_CRC_SEED	0x61746b6du
#define ATOMKMS_CRC_LANE_STEP	0x9e3779b9u
/* Odd (a bijection mod 2^32), and 1 mod 4. */
#define ATOMKMS_CRC_MUL		0x7feb352du
/* A pixel's X byte. */
#define ATOMKMS_CRC_MASK	0x00ffffffu
/* 32-bit words a frame's value is reported as. */
#define ATOMKMS_CRC_WORDS	2

/**
 * struct atomkms_crc - a frame checksum in progress, over some of its lines
 * @h: the lanes of the chunk being hashed
 * @sum: the sum of the chunks finished
 * @line: the index in the frame of the next line to hash
 */
struct atomkms_crc {
	u32 h[ATOMKMS_CRC_LANES];
	u64 sum;
	u32 line;
};

void atomkms_crc_init(struct atomkms_crc *c);
void atomkms_crc_init_at(struct atomkms_crc *c, u32 y);
/**
 * typedef atomkms_crc_blocks_fn - the lane steps of whole blocks of a line
 * @h: the %ATOMKMS_CRC_LANES lanes, updated
 * @px: %ATOMKMS_CRC_LANES * @blocks pixels, pixel j to lane j mod 32
 * @blocks: the number of blocks
 *
 * atomkms_crc_blocks() is the scalar one; include/atomkms_simd.h's vector
 * tables have their own, which give the same lanes.
 */
typedef void (*atomkms_crc_blocks_fn)(u32 *h, const u32 *px, u32 blocks);

void atomkms_crc_blocks(u32 *h, const u32 *px, u32 blocks);
void atomkms_crc_line(struct atomkms_crc *c, const u32 *px, u32 n);
void atomkms_crc_line_with(struct atomkms_crc *c, const u32 *px, u32 n,
			   atomkms_crc_blocks_fn blocks);
u64 atomkms_crc_sum(const struct atomkms_crc *c);
u64 atomkms_crc_value(u64 sum);
u64 atomkms_crc_value_deep(u64 sum, u64 deep_sum);
u64 atomkms_crc_final(const struct atomkms_crc *c);
u64 atomkms_crc_final_deep(const struct atomkms_crc *c,
			   const struct atomkms_crc *deep);

/**
 * atomkms_crc_words - a frame's value as the DRM CRC API's words
 * @v: atomkms_crc_final()'s value
 * @w: the words, high half first
 */
static inline void atomkms_crc_words(u64 v, u32 w[ATOMKMS_CRC_WORDS])
{
	w[0] = (u32)(v >> 32);
	w[1] = (u32)v;
}

#endif /* ATOMKMS_CRC_H */
