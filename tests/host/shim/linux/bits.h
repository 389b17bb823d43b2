/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: BIT() of <linux/bits.h>. */
#ifndef TK_SHIM_LINUX_BITS_H
#define TK_SHIM_LINUX_BITS_H

#define BIT(n)		(1UL << (n))

#endif /* TK_SHIM_LINUX_BITS_H */
