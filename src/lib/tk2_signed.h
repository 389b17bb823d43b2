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

#include <linux/bits.h>
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

/*
 * Revocation (revoke=): an NV counter (TPM_NT_COUNTER) that every approval
 * of the key checks with TPM2_PolicyNV (Part 3 §23.9): counter <= the
 * value the approval was signed for (TPM_EO_UNSIGNED_LE), so incrementing
 * it revokes every older approval. The key's policyRef names the counter:
 * "TKRV" || nvIndex || the counter's Name || the policyref= bytes.
 */
#define TK2_CC_POLICY_NV	0x00000149
#define TK2_CC_NV_READ_PUBLIC	0x00000169
#define TK2_EO_UNSIGNED_LE	0x0009
#define TK2_EO_MAX		0x000b	/* TPM_EO_BITCLEAR */
#define TK2_HT_NV_INDEX	0x01
#define TK2_NV_NAME_SIZE	(2 + 32)	/* a SHA-256 Name */
#define TK2_REVOKE_TAG		"TKRV"
#define TK2_REVOKE_REF_HEAD	(4 + 4 + TK2_NV_NAME_SIZE)
#define TK2_REVOKE_USER_MAX	(64 - TK2_REVOKE_REF_HEAD)
#define TK2_POLICY_NV_BODY_MAX	(4 + 2 + 64 + 2 + 2)

/* TPMA_NV (Part 2 §13.4) */
#define TK2_NV_PPWRITE		BIT(0)
#define TK2_NV_OWNERWRITE	BIT(1)
#define TK2_NV_AUTHWRITE	BIT(2)
#define TK2_NV_POLICYWRITE	BIT(3)
#define TK2_NV_TYPE_SHIFT	4
#define TK2_NV_TYPE_MASK	(0xfU << 4)
#define TK2_NT_COUNTER		1
#define TK2_NV_WRITELOCKED	BIT(11)
#define TK2_NV_WRITEDEFINE	BIT(13)
#define TK2_NV_WRITE_STCLEAR	BIT(14)
#define TK2_NV_GLOBALLOCK	BIT(15)
#define TK2_NV_OWNERREAD	BIT(17)
#define TK2_NV_AUTHREAD	BIT(18)
#define TK2_NV_NO_DA		BIT(25)
#define TK2_NV_READLOCKED	BIT(28)
#define TK2_NV_WRITTEN		BIT(29)
#define TK2_NV_READ_STCLEAR	BIT(31)
/* What trusted-policy(1) and docs/trusted-tpm2.md have the owner define. */
#define TK2_NV_COUNTER_ATTRS	(TK2_NV_OWNERWRITE | \
				 (TK2_NT_COUNTER << TK2_NV_TYPE_SHIFT) | \
				 TK2_NV_OWNERREAD | TK2_NV_AUTHREAD | \
				 TK2_NV_NO_DA)

/* The CommandPolicy of a PolicyNV in a TPMKey: nvIndex || parameters. */
struct tk2_policy_nv {
	u32 index;
	struct tk_span operand;		/* operandB's contents */
	u16 offset;
	u16 op;				/* TPM_EO */
};

int tk2_policy_nv_parse(const u8 *body, u32 len, struct tk2_policy_nv *out);
int tk2_policy_nv_body(u8 *out, u32 size, u32 index, u64 count);
bool tk2_policy_nv_is_revoke(const struct tk2_policy_nv *nv, u32 index,
			     u64 *count);
int tk2_policy_nv_args(u8 *out, u32 size, const struct tk2_policy_nv *nv);

int tk2_cmd_policy_nv(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 session,
		      const struct tk2_policy_nv *nv);
int tk2_rsp_policy_nv(const u8 *rsp, u32 size);

/* TPMS_NV_PUBLIC, as NV_ReadPublic returns it. */
struct tk2_nv_public {
	u32 index;
	u16 name_alg;
	u32 attrs;
	u16 data_size;
	struct tk_span area;		/* the TPMS_NV_PUBLIC: its Name's input */
	struct tk_span name;		/* the TPM's nvName, contents */
};

int tk2_cmd_nv_read_public(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 index);
int tk2_rsp_nv_read_public(const u8 *rsp, u32 size, bool sessions,
			   struct tk2_nv_public *out);
const char *tk2_nv_counter_check(const struct tk2_nv_public *nv, u32 index);

int tk2_revoke_ref(u8 *out, u32 size, u32 index, const u8 *name,
		   const u8 *user, u32 user_len);
bool tk2_revoke_ref_parse(const u8 *ref, u32 len, u32 *index,
			  const u8 **name);

#endif /* TK2_SIGNED_H */
