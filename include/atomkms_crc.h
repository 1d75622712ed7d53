/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame checksum of the software compositor, reported through the DRM
 * CRC API (igt only compares these values for equality). It is not a
 * CRC-32 but a hash built for speed on lines of 0xXXRRGGBB words, in
 * place, whatever their X byte:
 *
 *   Each line's pixel x goes to lane x mod ATOMKMS_CRC_LANES; a lane h
 *   takes pixel p (X masked off) as
 *     h += p; h += h << 10; h ^= h >> 6; h += h << 3; h ^= h >> 11
 *   (one step of Jenkins' one-at-a-time hash and part of its avalanche,
 *   all mod 2^32). The lanes start at ATOMKMS_CRC_SEED + k * 0x9e3779b9;
 *   the value of a frame is fmix32() (MurmurHash3's finaliser) chained over
 *   the lanes, f = fmix32(f ^ h[k]), and 1 where that gives 0 (igt warns
 *   about a CRC of 0).
 *
 * Properties: deterministic and the same in every build; X bytes ignored;
 * every step is a bijection of the lane for a fixed pixel and injective in
 * the pixel for a fixed lane, and the chaining is a bijection of each
 * lane, so two frames that differ in one pixel always give different
 * values (bar the 0 -> 1 fold). Two changes in one lane cancel only if
 * the second undoes the lane difference the first left, which is spread:
 * for a change of +1, +256 or +65536 the likeliest difference after one
 * step has a probability below 1e-3 over random lane states (one step of
 * plain one-at-a-time: 5e-2, hence the second shift pair); other changes
 * collide with a probability near 2^-32. The lanes are independent, so a
 * compiler vectorises a line's blocks where the build has vector
 * registers.
 */
#ifndef ATOMKMS_CRC_H
#define ATOMKMS_CRC_H

#include "atomkms_types.h"

#define ATOMKMS_CRC_LANES	16
#define ATOMKMS_CRC_SEED	0x61746b6du

/**
 * struct atomkms_crc - a frame checksum in progress
 * @h: the lanes
 */
struct atomkms_crc {
	u32 h[ATOMKMS_CRC_LANES];
};

void atomkms_crc_init(struct atomkms_crc *c);
void atomkms_crc_line(struct atomkms_crc *c, const u32 *px, u32 n);
u32 atomkms_crc_final(const struct atomkms_crc *c);

#endif /* ATOMKMS_CRC_H */
