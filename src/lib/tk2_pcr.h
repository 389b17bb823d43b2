/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PCR policies of TPM 2.0 trusted keys: the pcrs= option, the body of a
 * TPM2_PolicyPCR command as the TPMKey policy field carries it.
 * Kernel-free.
 */
#ifndef TK2_PCR_H
#define TK2_PCR_H

#include <linux/types.h>
#include "tk2_msg.h"
#include "tk_opts.h"

#define TK2_SELECTIONS_MAX	8	/* banks in a TPML_PCR_SELECTION we read */
#define TK2_SELECTION_MAX	(4 + TK2_SELECTIONS_MAX * (2 + 1 + 4))
/* pcrDigest (2 + 64) and a one-bank selection (4 + 2 + 1 + 3) */
#define TK2_POLICY_PCR_BODY_MAX	(2 + TK2_DIGEST_MAX + 10)
/* oldDigest, command code, selections, pcrDigest */
#define TK2_POLICY_INPUT_MAX	(TK2_DIGEST_MAX + 4 + TK2_SELECTION_MAX + \
				 TK2_DIGEST_MAX)

int tk2_pcrs_parse(const char *val, enum tk_hash *bank, u32 *mask);

int tk2_policy_pcr_body(u8 *out, u32 size, const struct tk2_pcrs *sel,
			const u8 *digest, u16 digest_len);

/* A PolicyPCR body, checked: its digest and its marshalled selections. */
struct tk2_policy_pcr {
	const u8 *digest;
	u16 digest_len;
	const u8 *sel;
	u32 sel_len;
};

int tk2_policy_pcr_parse(const u8 *body, u32 len, u16 name_alg,
			 struct tk2_policy_pcr *out);

#endif /* TK2_PCR_H */
