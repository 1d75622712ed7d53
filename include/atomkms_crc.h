/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CRC-32 (IEEE 802.3, reflected polynomial 0xedb88320) of the software
 * compositor's frames, slice-by-8, compatible with the kernel's
 * crc32_le(): no inversion on entry or exit. zlib's crc32() of a buffer
 * is ~atomkms_crc32_le(t, ~0, buf, len).
 */
#ifndef ATOMKMS_CRC_H
#define ATOMKMS_CRC_H

#include "atomkms_types.h"

/**
 * struct atomkms_crc32_table - slice-by-8 lookup tables (8 KiB)
 * @t: t[0] is the classic byte table, t[k][i] is t[0] applied k more
 *     times to a zero byte
 */
struct atomkms_crc32_table {
	u32 t[8][256];
};

void atomkms_crc32_table_init(struct atomkms_crc32_table *tab);
u32 atomkms_crc32_le(const struct atomkms_crc32_table *tab, u32 crc,
		     const u8 *p, size_t len);

#endif /* ATOMKMS_CRC_H */
