/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signed policies of TPM 2.0 trusted keys (draft-bottomley-tpm2-keys): the
 * commands that satisfy a TPM2_PolicyAuthorize (LoadExternal of the signer,
 * VerifySignature, PolicyAuthorize) and PolicyAuthValue, and the
 * CommandPolicy of a PolicyAuthorize in a TPMKey. Builders and parsers
 * for src/trusted/tpm2_signed.c. Kernel-free.
 */
#ifndef TK2_SIGNED_H
#define TK2_SIGNED_H

#include <linux/types.h>
#include "tk_buf.h"
#include "tk2_msg.h"

#define TK2_ST_VERIFIED		0x8022	/* the tag of a TPMT_TK_VERIFIED */
#define TK2_NAME_MAX		(2 + TK2_DIGEST_MAX)

int tk2_cmd_load_external(struct tk_cmd_buf *b, u8 *buf, u32 size,
			  const u8 *pub, u32 pub_len, u32 hierarchy);
int tk2_rsp_load_external(const u8 *rsp, u32 size, u32 *handle,
			  struct tk_span *name);

int tk2_cmd_verify_signature(struct tk_cmd_buf *b, u8 *buf, u32 size,
			     u32 key, const u8 *digest, u16 digest_len,
			      const u8 *sig, u32 sig_len);
int tk2_rsp_verify_signature(const u8 *rsp, u32 size, struct tk_span *ticket);

/* TPM2_PolicyAuthorize: the spans hold the TPM2Bs' contents, not sizes. */
struct tk2_policy_authorize_in {
	u32 session;
	struct tk_span approved;
	struct tk_span policy_ref;
	struct tk_span key_name;
	struct tk_span ticket;		/* a whole TPMT_TK_VERIFIED */
};

int tk2_cmd_policy_authorize(struct tk_cmd_buf *b, u8 *buf, u32 size,
			     const struct tk2_policy_authorize_in *in);
int tk2_cmd_policy_auth_value(struct tk_cmd_buf *b, u8 *buf, u32 size,
			      u32 session);

/*
 * The CommandPolicy of a PolicyAuthorize in a TPMKey: TPM2B_PUBLIC keySign,
 * TPM2B_DIGEST policyRef, TPMT_SIGNATURE (sigAlg NULL: none, in the key's
 * own policy). @pub and @sig whole, @policy_ref its contents.
 */
struct tk2_authorize_body {
	struct tk_span pub;
	struct tk_span policy_ref;
	struct tk_span sig;
	u16 sig_alg;
	u16 sig_hash;
};

int tk2_signer_check(const u8 *pub, u32 len, u16 *name_alg);

int tk2_authorize_body_parse(const u8 *body, u32 len,
			     struct tk2_authorize_body *out);

#endif /* TK2_SIGNED_H */
