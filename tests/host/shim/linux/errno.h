/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: errno values. The uapi header (include_next) carries the
 * kernel's own numbers (EBADMSG, E2BIG, ENOKEY, EKEYREJECTED, ...); the
 * kernel-internal ones are added here. glibc's <errno.h> includes
 * <linux/errno.h> too and lands here: hence include_next, not <errno.h>.
 */
#ifndef TK_SHIM_LINUX_ERRNO_H
#define TK_SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS	512
#define ENOTSUPP	524

#endif /* TK_SHIM_LINUX_ERRNO_H */
