/* SPDX-License-Identifier: GPL-2.0 */
/* Before 6.12 the unaligned accessors lived in <asm/unaligned.h>. */
#ifndef TK_COMPAT_LINUX_UNALIGNED_H
#define TK_COMPAT_LINUX_UNALIGNED_H
#include <asm/unaligned.h>
#endif
