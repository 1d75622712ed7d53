// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frame checksum of composed frames; include/atomkms_crc.h defines it
 * and its properties. Pure C: built into the module and the unit tests.
 */
#include "atomkms_crc.h"

static __always_inline u32 atomkms_crc_step(u32 h, u32 p)
{
	u32 x = (h + (p & ATOMKMS_CRC_MASK)) * ATOMKMS_CRC_MUL;

	return x ^ (x >> 16);
}

static u64 atomkms_fmix64(u64 h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* The hash of the chunk holding line @y, from its lanes @h, two a link. */
static u64 atomkms_crc_chunk(u32 y, const u32 *h)
{
	u64 f = (u64)(y / ATOMKMS_CRC_CHUNK_LINES) * 0x9e3779b97f4a7c15ull;
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k += 2)
		f = atomkms_fmix64(f ^ (h[k] | (u64)h[k + 1] << 32));
	return f;
}

/* Fresh lanes, for a new chunk. */
static void atomkms_crc_lanes_init(u32 *h)
{
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++)
		h[k] = ATOMKMS_CRC_SEED + k * ATOMKMS_CRC_LANE_STEP;
}

/**
 * atomkms_crc_init_at - start hashing a frame's lines from line @y on
 * @c: the checksum
 * @y: the first line it will take: the first line of a chunk (a multiple
 *     of %ATOMKMS_CRC_CHUNK_LINES), as every band's first line is
 */
void atomkms_crc_init_at(struct atomkms_crc *c, u32 y)
{
	atomkms_crc_lanes_init(c->h);
	c->sum = 0;
	c->line = y;
}

/**
 * atomkms_crc_init - start a frame, from its first line
 * @c: the checksum
 */
void atomkms_crc_init(struct atomkms_crc *c)
{
	atomkms_crc_init_at(c, 0);
}

/*
 * Blocks of one pixel a lane (ATOMKMS_CRC_LANES pixels). 32 lanes do not
 * fit x86-64's 16 registers: a group of ATOMKMS_CRC_GROUP lanes at a
 * time is held in registers over the whole run, stepping through the
 * blocks with a stride of a block, so that a step costs its own
 * operations only and the group's steps are independent for the CPU to
 * overlap; the run is read once a group (a line fits the L1 cache).
 */
#define ATOMKMS_CRC_GROUP	8

/* A block's 8 pixels from @p into the group's lanes h0..h7. */
#define ATOMKMS_CRC_GROUP_STEP(p)				\
	do {							\
		const u32 *b_ = (p);				\
								\
		h0 = atomkms_crc_step(h0, b_[0]);		\
		h1 = atomkms_crc_step(h1, b_[1]);		\
		h2 = atomkms_crc_step(h2, b_[2]);		\
		h3 = atomkms_crc_step(h3, b_[3]);		\
		h4 = atomkms_crc_step(h4, b_[4]);		\
		h5 = atomkms_crc_step(h5, b_[5]);		\
		h6 = atomkms_crc_step(h6, b_[6]);		\
		h7 = atomkms_crc_step(h7, b_[7]);		\
	} while (0)

static __always_inline void atomkms_crc_group(u32 *restrict hp,
					      const u32 *restrict px,
					      u32 blocks)
{
	u32 h0 = hp[0], h1 = hp[1], h2 = hp[2], h3 = hp[3];
	u32 h4 = hp[4], h5 = hp[5], h6 = hp[6], h7 = hp[7];

	static_assert(ATOMKMS_CRC_GROUP == 8, "one variable a lane");
	/* Two blocks an iteration: the loop's 3 instructions per 16 steps. */
	for (; blocks >= 2; blocks -= 2, px += 2 * ATOMKMS_CRC_LANES) {
		ATOMKMS_CRC_GROUP_STEP(px);
		ATOMKMS_CRC_GROUP_STEP(px + ATOMKMS_CRC_LANES);
	}
	if (blocks)
		ATOMKMS_CRC_GROUP_STEP(px);
	hp[0] = h0;
	hp[1] = h1;
	hp[2] = h2;
	hp[3] = h3;
	hp[4] = h4;
	hp[5] = h5;
	hp[6] = h6;
	hp[7] = h7;
}

static __always_inline void atomkms_crc_blocks_inl(u32 *restrict hp,
						   const u32 *restrict px,
						   u32 blocks)
{
	u32 g;

	static_assert(ATOMKMS_CRC_LANES % ATOMKMS_CRC_GROUP == 0,
		      "whole groups");
	for (g = 0; g < ATOMKMS_CRC_LANES; g += ATOMKMS_CRC_GROUP)
		atomkms_crc_group(hp + g, px + g, blocks);
}

/**
 * atomkms_crc_blocks - the scalar &atomkms_crc_blocks_fn
 * @h: the lanes
 * @px: the blocks' pixels
 * @blocks: their number
 */
void atomkms_crc_blocks(u32 *h, const u32 *px, u32 blocks)
{
	atomkms_crc_blocks_inl(h, px, blocks);
}

static __always_inline void atomkms_crc_line_inl(struct atomkms_crc *c,
						 const u32 *px, u32 n,
						 atomkms_crc_blocks_fn blocks)
{
	u32 x = n / ATOMKMS_CRC_LANES * ATOMKMS_CRC_LANES;

	if (x && blocks)
		blocks(c->h, px, n / ATOMKMS_CRC_LANES);
	else if (x)
		atomkms_crc_blocks_inl(c->h, px, n / ATOMKMS_CRC_LANES);
	for (; x < n; x++)
		c->h[x % ATOMKMS_CRC_LANES] =
			atomkms_crc_step(c->h[x % ATOMKMS_CRC_LANES], px[x]);
	if (!(++c->line % ATOMKMS_CRC_CHUNK_LINES)) {
		c->sum += atomkms_crc_chunk(c->line - 1, c->h);
		atomkms_crc_lanes_init(c->h);
	}
}

/**
 * atomkms_crc_line - add the frame's next line (line @c->line)
 * @c: the checksum
 * @px: the line's pixels, 0xXXRRGGBB (X ignored), in place
 * @n: their number, the frame's width
 */
void atomkms_crc_line(struct atomkms_crc *c, const u32 *px, u32 n)
{
	atomkms_crc_line_inl(c, px, n, NULL);
}

/**
 * atomkms_crc_line_with - atomkms_crc_line(), whole blocks through @blocks
 * @c: the checksum
 * @px: the line's pixels, 0xXXRRGGBB (X ignored), in place
 * @n: their number, the frame's width
 * @blocks: the lane steps of the line's whole blocks of
 *          %ATOMKMS_CRC_LANES pixels (a vector table's: call it only
 *          where that table's functions may run); the rest is scalar
 *
 * The same checksum as atomkms_crc_line(), whatever @blocks.
 */
void atomkms_crc_line_with(struct atomkms_crc *c, const u32 *px, u32 n,
			   atomkms_crc_blocks_fn blocks)
{
	atomkms_crc_line_inl(c, px, n, blocks);
}

/* igt's sanity checks: no word 0xffffffff, no value 0. */
static u64 atomkms_crc_fold(u64 f)
{
	if ((u32)(f >> 32) == 0xffffffffu)
		f -= 1ull << 32;
	if ((u32)f == 0xffffffffu)
		f -= 1;
	return f ? f : 1;
}

/**
 * atomkms_crc_sum - the sum of the chunks hashed so far
 * @c: the checksum
 *
 * A chunk cut short (the frame's last, when its height is not a multiple
 * of %ATOMKMS_CRC_CHUNK_LINES) counts as it is. The sums of bands that
 * cover a frame, each from atomkms_crc_init_at() at its first line, add
 * up (mod 2^64) to the frame's.
 *
 * Return: the sum.
 */
u64 atomkms_crc_sum(const struct atomkms_crc *c)
{
	if (!(c->line % ATOMKMS_CRC_CHUNK_LINES))
		return c->sum;
	return c->sum + atomkms_crc_chunk(c->line - 1, c->h);
}

/**
 * atomkms_crc_value - a frame's value from the sum of its chunks
 * @sum: the sum of every chunk of the frame (atomkms_crc_sum())
 *
 * Return: the value, never 0, neither half 0xffffffff.
 */
u64 atomkms_crc_value(u64 sum)
{
	return atomkms_crc_fold(atomkms_fmix64(sum));
}

/**
 * atomkms_crc_value_deep - the value of a 10-bit frame with deviations
 * @sum: the sum of the chunks of the frame's 8-bit words
 * @deep_sum: the sum of the chunks of its deviation words (see
 *            atomkms_crc.h); call only if one of them was not 0
 *
 * Return: the value, never 0, neither half 0xffffffff.
 */
u64 atomkms_crc_value_deep(u64 sum, u64 deep_sum)
{
	return atomkms_crc_fold(atomkms_fmix64(atomkms_fmix64(sum) ^
					       deep_sum));
}

/**
 * atomkms_crc_final - the frame's value
 * @c: the checksum, after every line of the frame, from its first
 *
 * Return: the value, never 0, neither half 0xffffffff.
 */
u64 atomkms_crc_final(const struct atomkms_crc *c)
{
	return atomkms_crc_value(atomkms_crc_sum(c));
}

/**
 * atomkms_crc_final_deep - the value of a 10-bit frame with deviations
 * @c: the checksum of the frame's 8-bit words, after every line
 * @deep: the checksum of its deviation words (see atomkms_crc.h), after
 *        every line; call only if one of them was not 0
 *
 * Return: the value, never 0, neither half 0xffffffff.
 */
u64 atomkms_crc_final_deep(const struct atomkms_crc *c,
			   const struct atomkms_crc *deep)
{
	return atomkms_crc_value_deep(atomkms_crc_sum(c), atomkms_crc_sum(deep));
}
