/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the few helpers of <linux/kernel.h> that src/lib uses. */
#ifndef TK_SHIM_LINUX_KERNEL_H
#define TK_SHIM_LINUX_KERNEL_H

#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#include <linux/bits.h>
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))

/* lib/hexdump.c: the value of a hex digit, or -1. */
static inline int hex_to_bin(unsigned char ch)
{
	unsigned char cu = ch & 0xdf;

	return -1 +
		((ch - '0' +  1) & (unsigned int)((ch - '9' - 1) & ('0' - 1 - ch)) >> 8) +
		((cu - 'A' + 11) & (unsigned int)((cu - 'F' - 1) & ('A' - 1 - cu)) >> 8);
}

#endif /* TK_SHIM_LINUX_KERNEL_H */
