/* SPDX-License-Identifier: GPL-2.0 */
/* Before 6.5 the hex helpers (bin2hex, hex2bin) were <linux/kernel.h>'s. */
#ifndef TK_COMPAT_LINUX_HEX_H
#define TK_COMPAT_LINUX_HEX_H
#include <linux/kernel.h>
#endif
