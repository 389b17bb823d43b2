/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Out of tree only: force-included before every source file of the
 * modules, it refuses a target kernel without what they need. The
 * differences between the kernels we build against are -DTK_HAVE_* flags
 * probed by feature in Kbuild.include and resolved where they are used
 * (#ifdef): tools/series/mkseries.sh resolves them for each in-tree
 * series with unifdef, so this file has no in-tree counterpart.
 */
#ifndef TK_COMPAT_H
#define TK_COMPAT_H

#ifdef __KERNEL__
#include <linux/tpm.h>

#if !IS_ENABLED(CONFIG_TCG_TPM)
#error "the target kernel has no TPM support (CONFIG_TCG_TPM)"
#endif
#if !IS_ENABLED(CONFIG_KEYS)
#error "the target kernel has no key retention service (CONFIG_KEYS)"
#endif

#endif /* __KERNEL__ */
#endif /* TK_COMPAT_H */
