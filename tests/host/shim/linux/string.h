/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the kernel's string functions are libc's (strsep included). */
#ifndef TK_SHIM_LINUX_STRING_H
#define TK_SHIM_LINUX_STRING_H

#include <string.h>

#endif /* TK_SHIM_LINUX_STRING_H */
