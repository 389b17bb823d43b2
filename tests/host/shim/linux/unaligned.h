/* SPDX-License-Identifier: GPL-2.0 */
/* 6.12 spelling of the unaligned accessors; the shim keeps one copy. */
#ifndef SHIM_LINUX_UNALIGNED_H
#define SHIM_LINUX_UNALIGNED_H
#include <asm/unaligned.h>
#endif
