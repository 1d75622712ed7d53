// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frame checksum of composed frames; include/atomkms_crc.h defines it
 * and its properties. Pure C: built into the module and the unit tests.
 */
#include "atomkms_crc.h"

static __always_inline u32 atomkms_crc_step(u32 h, u32 p)
{
	h += p & 0xffffff;
	h += h << 10;
	h ^= h >> 6;
	h += h << 3;
	return h ^ (h >> 11);
}

/**
 * atomkms_crc_init - start a frame
 * @c: the checksum
 */
void atomkms_crc_init(struct atomkms_crc *c)
{
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++)
		c->h[k] = ATOMKMS_CRC_SEED + k * 0x9e3779b9u;
}

/*
 * One block of 4 pixels a lane: a fixed trip count for the vectoriser,
 * and the lanes loaded and stored once for 4 steps.
 */
static __always_inline void atomkms_crc_blk(u32 *restrict h,
					    const u32 *restrict px)
{
	u32 k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++) {
		u32 v = atomkms_crc_step(h[k], px[k]);

		v = atomkms_crc_step(v, px[ATOMKMS_CRC_LANES + k]);
		v = atomkms_crc_step(v, px[2 * ATOMKMS_CRC_LANES + k]);
		h[k] = atomkms_crc_step(v, px[3 * ATOMKMS_CRC_LANES + k]);
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
	u32 x;

	for (x = 0; x + 4 * ATOMKMS_CRC_LANES <= n; x += 4 * ATOMKMS_CRC_LANES)
		atomkms_crc_blk(c->h, px + x);
	for (; x < n; x++)
		c->h[x % ATOMKMS_CRC_LANES] =
			atomkms_crc_step(c->h[x % ATOMKMS_CRC_LANES], px[x]);
}

static u32 atomkms_fmix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

/**
 * atomkms_crc_final - the frame's value
 * @c: the checksum, after every line
 *
 * Return: the value, never 0.
 */
u32 atomkms_crc_final(const struct atomkms_crc *c)
{
	u32 f = 0, k;

	for (k = 0; k < ATOMKMS_CRC_LANES; k++)
		f = atomkms_fmix32(f ^ c->h[k]);
	return f ? f : 1;
}
