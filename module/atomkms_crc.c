// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRC-32 of composed frames, slice-by-8, compatible with the kernel's
 * crc32_le(). Pure C: built into the module and into the unit tests.
 */
#include "atomkms_crc.h"

#define ATOMKMS_CRC32_POLY	0xedb88320u

/**
 * atomkms_crc32_table_init - compute the slice-by-8 tables
 * @tab: the tables to fill
 */
void atomkms_crc32_table_init(struct atomkms_crc32_table *tab)
{
	u32 i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ ((c & 1) ? ATOMKMS_CRC32_POLY : 0);
		tab->t[0][i] = c;
	}
	for (i = 0; i < 256; i++) {
		c = tab->t[0][i];
		for (j = 1; j < 8; j++) {
			c = tab->t[0][c & 0xff] ^ (c >> 8);
			tab->t[j][i] = c;
		}
	}
}

/**
 * atomkms_crc32_le - continue a CRC-32 over a buffer
 * @tab: tables from atomkms_crc32_table_init()
 * @crc: CRC so far (the kernel's crc32_le() seed semantics)
 * @p: the bytes
 * @len: their number
 *
 * Return: the updated CRC, equal to crc32_le(@crc, @p, @len).
 */
u32 atomkms_crc32_le(const struct atomkms_crc32_table *tab, u32 crc,
		     const u8 *p, size_t len)
{
	const u32 (*t)[256] = tab->t;

	while (len >= 8) {
		u32 lo = crc ^ (p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
				(u32)p[3] << 24);
		u32 hi = p[4] | (u32)p[5] << 8 | (u32)p[6] << 16 |
			 (u32)p[7] << 24;

		crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
		      t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
		      t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}
