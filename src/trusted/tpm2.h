/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the TPM 2.0 sealing code: tpm2.c (seal, unseal)
 * on top of the parent keys (tpm2_parent.c) and PCR policies
 * (tpm2_policy.c). All of it runs under tpm2.c's lock, with one
 * page-sized command buffer per operation.
 */
#ifndef TRUSTED_TPM2_H
#define TRUSTED_TPM2_H

#include "trusted.h"
#include "tk2_msg.h"
#include "tk2_pcr.h"
#include "tk2_key.h"

/* The parent of a sealed object, ready for commands under it. */
struct trusted_tpm2_parent {
	u32 handle;		/* the handle commands name */
	u32 recorded;		/* the handle the blob records */
	bool flush;		/* a primary we created: flush it after use */
	struct tk2_auth auth;	/* authorisation of commands under it */
};

/* tpm2_parent.c */
int trusted_tpm2_parent_get(u8 *buf, u32 handle, bool probe_srk,
			    const struct tk_options *o,
			    struct trusted_tpm2_parent *pa);
void trusted_tpm2_parent_put(u8 *buf, struct trusted_tpm2_parent *pa);
void trusted_tpm2_flush(u8 *buf, u32 handle);
int trusted_tpm2_errno(int rc, const char *what);

/* tpm2_policy.c */
struct trusted_tpm2_pcr_policy {
	u8 digest[TK2_DIGEST_MAX];		/* the object's authPolicy */
	u8 body[TK2_POLICY_PCR_BODY_MAX];	/* PolicyPCR, for the blob */
	u32 body_len;
};

int trusted_tpm2_pcr_policy(u8 *buf, const struct tk_options *o, u16 name_alg,
			    struct trusted_tpm2_pcr_policy *pol);
int trusted_tpm2_policy_check(const struct tk2_key *k);
int trusted_tpm2_policy_session(u8 *buf, const struct tk2_key *k,
				u32 *session);

#endif /* TRUSTED_TPM2_H */
