/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixed-width types for atomkms's pure-C core: the same source builds into
 * the kernel module and into userspace tests and benchmarks, so it includes
 * this header instead of any kernel or libc header directly.
 */
#ifndef ATOMKMS_TYPES_H
#define ATOMKMS_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/build_bug.h>
#include <linux/bits.h>
#include <linux/array_size.h>
#include <linux/sprintf.h>
#include <linux/compiler.h>
#else
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>		/* snprintf(), as <linux/sprintf.h> */
#include <string.h>
#include <sys/cdefs.h>	/* __always_inline, as the kernel spells it */
/* The compiler's own names for the C99 types, as <stdint.h> uses them. */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT16_TYPE__ s16;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

#define BIT(nr)		(1UL << (nr))
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#endif

/*
 * Errors the core returns, negated: Linux's errno numbers, the same on
 * every architecture (module/atomkms_uapi.c ties them to the kernel's).
 */
#define ATOMKMS_EINVAL	22
#define ATOMKMS_ENOSPC	28
#define ATOMKMS_ERANGE	34

#endif /* ATOMKMS_TYPES_H */
