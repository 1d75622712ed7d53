/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame checksum of the software compositor, reported through the DRM
 * CRC API as two 32-bit words (igt only compares them for equality). It is
 * not a CRC-32 but a 64-bit hash built for speed on lines of 0xXXRRGGBB
 * words, read in place whatever their X byte, and for plain 64-bit integer
 * code (the module has no vector registers):
 *
 *   Each line is taken as 64-bit words w of two pixels (pixel 2j in the
 *   low half of word j, pixel 2j + 1 in the high half; the last pixel of
 *   an odd line alone, high half 0). The frame's lines are cut into
 *   chunks of ATOMKMS_CRC_CHUNK_LINES lines (chunk i: lines 16i to
 *   16i + 15; the last chunk may be shorter), each hashed on its own:
 *   word j of a chunk's line goes to lane j mod ATOMKMS_CRC_LANES; a
 *   lane h takes w (X bytes masked off) as
 *     h += w; h ^= h >> 32; h *= ATOMKMS_CRC_MUL; h ^= h >> 32
 *   (all mod 2^64). The lanes start at ATOMKMS_CRC_SEED + k * 0x9e3779b97f4a7c15
 *   in every chunk; chunk i's hash is fmix64() (MurmurHash3's finaliser)
 *   chained over the lanes from i * 0x9e3779b97f4a7c15,
 *   c = fmix64(c ^ h[k]). The frame's sum S is the sum of its chunks'
 *   hashes (mod 2^64), its value fmix64(S). The words reported are the
 *   value's high and low halves, with two folds for igt's sanity checks,
 *   which warn about a CRC of all zeroes and about a word of 0xffffffff:
 *   a word 0xffffffff becomes 0xfffffffe, and a value 0 becomes 1.
 *
 * The chunks are fixed by the frame, not by who hashes them: a frame
 * composed in bands of whole chunks (atomkms_compose_band()), by any
 * number of workers finishing in any order, has the value of the frame
 * composed in one pass. Each band sums its chunks from 0
 * (atomkms_crc_init_at() at its first line); the sums add up.
 *
 * Properties: deterministic and the same in every build; X bytes ignored;
 * every step is a bijection of the lane for a fixed word and injective in
 * the word for a fixed lane, the chaining is a bijection of each lane, and
 * the sum and fmix64() are bijections of each chunk's hash, so two frames
 * that differ in one pixel always give different values (bar the folds).
 * Two changes in one lane cancel only if the second undoes the lane
 * difference the first left, which is spread: for a change
 * of +1, +256 or +65536 in either pixel of a word, the likeliest lane
 * difference one step later has a probability below 2e-6 over 2^22 random
 * lane states (without the first shift, a change in the high pixel left
 * 3e-3). One step per two pixels is about a third of the operations per
 * pixel of the 32-bit hash this replaced, which matters most where the
 * code stays scalar (the module; figures in the README).
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

#define ATOMKMS_CRC_LANES	8
/* Lines a chunk hashes; a band of a frame is a union of whole chunks. */
#define ATOMKMS_CRC_CHUNK_LINES	16
#define ATOMKMS_CRC_SEED	0x61746b6d73637263ull
#define ATOMKMS_CRC_MUL		0xbf58476d1ce4e5b9ull
/* The X bytes of a word's two pixels. */
#define ATOMKMS_CRC_MASK	0x00ffffff00ffffffull
/* 32-bit words a frame's value is reported as. */
#define ATOMKMS_CRC_WORDS	2

/**
 * struct atomkms_crc - a frame checksum in progress, over some of its lines
 * @h: the lanes of the chunk being hashed
 * @sum: the sum of the chunks finished
 * @line: the index in the frame of the next line to hash
 */
struct atomkms_crc {
	u64 h[ATOMKMS_CRC_LANES];
	u64 sum;
	u32 line;
};

void atomkms_crc_init(struct atomkms_crc *c);
void atomkms_crc_init_at(struct atomkms_crc *c, u32 y);
/**
 * typedef atomkms_crc_blocks_fn - the lane steps of whole blocks of a line
 * @h: the %ATOMKMS_CRC_LANES lanes, updated
 * @px: 2 * %ATOMKMS_CRC_LANES * @blocks pixels, word j to lane j mod 8
 * @blocks: the number of blocks
 *
 * atomkms_crc_blocks() is the scalar one; include/atomkms_simd.h's vector
 * tables have their own, which give the same lanes.
 */
typedef void (*atomkms_crc_blocks_fn)(u64 *h, const u32 *px, u32 blocks);

void atomkms_crc_blocks(u64 *h, const u32 *px, u32 blocks);
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
