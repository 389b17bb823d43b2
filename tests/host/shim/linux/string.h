/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the kernel's string functions are libc's (strsep included). */
#ifndef TK_SHIM_LINUX_STRING_H
#define TK_SHIM_LINUX_STRING_H

#include <string.h>

/* A wipe the compiler may not drop (glibc has explicit_bzero). */
static inline void memzero_explicit(void *s, size_t count)
{
	explicit_bzero(s, count);
}

#endif /* TK_SHIM_LINUX_STRING_H */
