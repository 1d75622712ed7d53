// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frame checksum of composed frames; include/atomkms_crc.h defines it
 * and its properties. Pure C: built into the module and the unit tests.
 */
#include "atomkms_crc.h"

static __always_inline u64 atomkms_crc_step(u64 h, u64 w)
{
	h += w & ATOMKMS_CRC_MASK;
	h ^= h >> 32;
	h *= ATOMKMS_CRC_MUL;
	return h ^ (h >> 32);
}

/* Two pixels as one little-endian word, from a line of any alignment. */
static __always_inline u64 atomkms_crc_load(const u32 *px)
{
	u64 w;

	memcpy(&w, px, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = w << 32 | w >> 32;
#endif
	return w;
}

/**
 * atomkms_crc_init - start a frame
 * @c: the checksum
 */
void atomkms_crc_init(struct atomkms_crc *c)
{
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++)
		c->h[k] = ATOMKMS_CRC_SEED + k * 0x9e3779b97f4a7c15ull;
}

/*
 * One block of 4 words a lane: the lanes loaded and stored once for
 * 4 steps, and independent steps for the CPU to overlap.
 */
static __always_inline void atomkms_crc_blk(u64 *restrict h,
					    const u32 *restrict px)
{
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++) {
		const u32 *p = px + 2 * k;
		u64 v = atomkms_crc_step(h[k], atomkms_crc_load(p));

		p += 2 * ATOMKMS_CRC_LANES;
		v = atomkms_crc_step(v, atomkms_crc_load(p));
		p += 2 * ATOMKMS_CRC_LANES;
		v = atomkms_crc_step(v, atomkms_crc_load(p));
		p += 2 * ATOMKMS_CRC_LANES;
		h[k] = atomkms_crc_step(v, atomkms_crc_load(p));
	}
}

/**
 * atomkms_crc_line - add one line of the frame
 * @c: the checksum
 * @px: the line's pixels, 0xXXRRGGBB (X ignored), in place
 * @n: their number, the frame's width
 */
void atomkms_crc_line(struct atomkms_crc *c, const u32 *px, u32 n)
{
	const u32 blk = 8 * ATOMKMS_CRC_LANES;
	u32 x, j;

	for (x = 0; x + blk <= n; x += blk)
		atomkms_crc_blk(c->h, px + x);
	for (j = x / 2; x + 2 <= n; x += 2, j++)
		c->h[j % ATOMKMS_CRC_LANES] =
			atomkms_crc_step(c->h[j % ATOMKMS_CRC_LANES],
					 atomkms_crc_load(px + x));
	if (x < n)
		c->h[j % ATOMKMS_CRC_LANES] =
			atomkms_crc_step(c->h[j % ATOMKMS_CRC_LANES], px[x]);
}

static u64 atomkms_fmix64(u64 h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* The lanes of @c chained onto @f. */
static u64 atomkms_crc_chain(u64 f, const struct atomkms_crc *c)
{
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++)
		f = atomkms_fmix64(f ^ c->h[k]);
	return f;
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
 * atomkms_crc_final - the frame's value
 * @c: the checksum, after every line
 *
 * Return: the value, never 0, neither half 0xffffffff.
 */
u64 atomkms_crc_final(const struct atomkms_crc *c)
{
	return atomkms_crc_fold(atomkms_crc_chain(0, c));
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
	return atomkms_crc_fold(atomkms_crc_chain(atomkms_crc_chain(0, c),
						  deep));
}
