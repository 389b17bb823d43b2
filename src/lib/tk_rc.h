/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a TPM's return code tells user space: one errno per class of
 * TPM 1.2 and TPM 2.0 return codes (the table in docs/trusted-tpm2.md).
 * Kernel-free.
 */
#ifndef TK_RC_H
#define TK_RC_H

#include <linux/types.h>

/* Both TPM versions define their return codes in the low 12 bits. */
#define TK_TPM_RC_MAX	0xfff

int tk_rc_errno(u32 rc, bool tpm2);

#endif /* TK_RC_H */
