/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TPM 2.0 commands used by trusted keys (TPM 2.0 Library, Part 3), as byte
 * layouts: builders write a whole command into a caller's buffer, parsers
 * check a whole response (header size, parameterSize, the authorisation
 * area, nothing left over) before they hand out a field. Kernel-free.
 */
#ifndef TK2_MSG_H
#define TK2_MSG_H

#include <linux/types.h>
#include "tk_buf.h"
#include "tk_hash.h"

#define TK2_DIGEST_MAX		64	/* SHA-512 */
#define TK2_PCR_SELECT_SIZE	3	/* 24 PCRs */
#define TK2_PCR_COUNT		24
#define TK2_PCR_READ_MAX	8	/* digests in one TPML_DIGEST */

enum tk2_tag {
	TK2_TAG_NO_SESSIONS	= 0x8001,
	TK2_TAG_SESSIONS	= 0x8002,
};

enum tk2_cc {
	TK2_CC_CREATE_PRIMARY	= 0x00000131,
	TK2_CC_LOAD_EXTERNAL	= 0x00000167,
	TK2_CC_POLICY_AUTHORIZE = 0x0000016a,
	TK2_CC_POLICY_AUTH_VALUE = 0x0000016b,
	TK2_CC_VERIFY_SIGNATURE = 0x00000177,
	TK2_CC_CREATE		= 0x00000153,
	TK2_CC_LOAD		= 0x00000157,
	TK2_CC_UNSEAL		= 0x0000015e,
	TK2_CC_FLUSH		= 0x00000165,
	TK2_CC_CONTEXT_LOAD	= 0x00000161,
	TK2_CC_CONTEXT_SAVE	= 0x00000162,
	TK2_CC_READ_PUBLIC	= 0x00000173,
	TK2_CC_START_SESSION	= 0x00000176,
	TK2_CC_GET_CAPABILITY	= 0x0000017a,
	TK2_CC_GET_RANDOM	= 0x0000017b,
	TK2_CC_PCR_READ	= 0x0000017e,
	TK2_CC_POLICY_PCR	= 0x0000017f,
};

enum tk2_handle {
	TK2_RH_OWNER		= 0x40000001,
	TK2_RH_NULL		= 0x40000007,
	TK2_RS_PW		= 0x40000009,
	TK2_RH_ENDORSEMENT	= 0x4000000b,
	TK2_RH_PLATFORM	= 0x4000000c,
	TK2_SRK_HANDLE		= 0x81000001,	/* TCG: the storage root key */
};

/* The most significant octet of a handle: its kind. */
enum tk2_handle_kind {
	TK2_HT_TRANSIENT	= 0x80,
	TK2_HT_PERSISTENT	= 0x81,
	TK2_HT_PERMANENT	= 0x40,
	TK2_HT_POLICY_SESSION	= 0x03,
	TK2_HT_HMAC_SESSION	= 0x02,
};

enum tk2_alg {
	TK2_ALG_RSA		= 0x0001,
	TK2_ALG_SHA1		= 0x0004,
	TK2_ALG_AES		= 0x0006,
	TK2_ALG_KEYEDHASH	= 0x0008,
	TK2_ALG_SHA256		= 0x000b,
	TK2_ALG_SHA384		= 0x000c,
	TK2_ALG_SHA512		= 0x000d,
	TK2_ALG_NULL		= 0x0010,
	TK2_ALG_RSASSA		= 0x0014,
	TK2_ALG_ECDSA		= 0x0018,
	TK2_ALG_SM3_256	= 0x0012,
	TK2_ALG_ECC		= 0x0023,
	TK2_ALG_CFB		= 0x0043,
};

enum tk2_ecc_curve {
	TK2_ECC_NIST_P256	= 0x0003,
};

enum tk2_object_attr {
	TK2_OA_FIXEDTPM	= 1U << 1,
	TK2_OA_FIXEDPARENT	= 1U << 4,
	TK2_OA_SENSITIVE_ORIGIN = 1U << 5,
	TK2_OA_USERWITHAUTH	= 1U << 6,
	TK2_OA_NODA		= 1U << 10,
	TK2_OA_RESTRICTED	= 1U << 16,
	TK2_OA_DECRYPT	= 1U << 17,
	TK2_OA_SIGN		= 1U << 18,
};

enum tk2_sa {
	TK2_SA_CONTINUE	= 1U << 0,
};

enum tk2_session_type {
	TK2_SE_POLICY		= 0x01,
};

/*
 * Return codes that change what we tell user space (Part 2, 6.6).
 * Format-one codes (TK2_RC_FMT1) carry the number of the handle, session or
 * parameter at fault in bits 8..11 and, in TK2_RC_P, whether it is a
 * parameter: tk2_rc_base() strips both, tk2_rc_index() returns the number.
 * TK2_RC_REFERENCE_H0 + n: handle n + 1 names no loaded object (a warning).
 */
enum tk2_rc {
	TK2_RC_P		= 0x040,
	TK2_RC_FMT1		= 0x080,
	TK2_RC_HASH		= 0x083,
	TK2_RC_VALUE		= 0x084,
	TK2_RC_HANDLE		= 0x08b,
	TK2_RC_SIZE		= 0x095,
	TK2_RC_BAD_AUTH	= 0x0a2,
	TK2_RC_AUTH_FAIL	= 0x08e,
	TK2_RC_POLICY_FAIL	= 0x09d,
	TK2_RC_INTEGRITY	= 0x09f,
	TK2_RC_REFERENCE_H0	= 0x910,
	TK2_RC_REFERENCE_S0	= 0x918,
	TK2_RC_LOCKOUT		= 0x921,
	TK2_RC_WARN		= 0x900,	/* format zero, a warning */
};

/* A warning (Part 2, 6.6.2): the command was not run, nothing judged. */
static inline bool tk2_rc_is_warn(u32 rc)
{
	return !(rc & TK2_RC_FMT1) && (rc & TK2_RC_WARN) == TK2_RC_WARN;
}

static inline u32 tk2_rc_base(u32 rc)
{
	return rc & TK2_RC_FMT1 ? rc & (TK2_RC_FMT1 | 0x3f) : rc;
}

static inline bool tk2_base_is_handle(u32 rc)
{
	return tk2_rc_base(rc) == TK2_RC_HANDLE;
}

/* Which handle or parameter a format-one code names (0: none). */
static inline u32 tk2_rc_index(u32 rc)
{
	return rc & TK2_RC_FMT1 ? (rc >> 8) & 0xf : 0;
}

/*
 * Does @rc say that session @n (1: the first) is not loaded: gone, or
 * never there (a warning TPM_RC_REFERENCE_Sn, or TPM_RC_HANDLE naming it)?
 */
static inline bool tk2_rc_session_gone(int rc, unsigned int n)
{
	return rc > 0 && (rc == TK2_RC_REFERENCE_S0 + (int)(n - 1) ||
			  (tk2_base_is_handle(rc) && !(rc & TK2_RC_P) &&
			   tk2_rc_index(rc) == 8 + n));
}

/*
 * The one TPM2B writer and reader (Part 2, 10.4: a 16-bit size, then that
 * many bytes) of every TPM 2.0 message, command or response.
 */

/* Write a TPM2B: @len, then @len bytes of @p (which may be NULL then). */
static inline void tk2_put_tpm2b(struct tk_cmd_buf *b, const void *p, u16 len)
{
	tk_cmd_u16(b, len);
	if (len)
		tk_cmd_bytes(b, p, len);
}

/*
 * Read a TPM2B of at most @max bytes: its contents into @out (NULL: skip
 * it). False, with the reader marked bad and @out empty, when it is
 * longer than @max or not all there.
 */
static inline bool tk2_take_tpm2b(struct tk_rsp_buf *r, u16 max,
				  struct tk_span *out)
{
	u16 n = tk_rsp_u16(r);
	const u8 *p;

	if (n > max)
		r->bad = true;
	p = tk_rsp_bytes(r, n);
	if (out) {
		out->p = p;
		out->len = r->bad ? 0 : n;
	}
	return !r->bad;
}

/* One authorisation of a command: a password, or a policy session. */
struct tk2_auth {
	u32 handle;			/* TK2_RS_PW or a session */
	const u8 *value;		/* password, or the session's hmac */
	u16 len;
	u8 attrs;
};

/* A PCR selection in one bank: bit n of @mask is PCR n. */
struct tk2_pcrs {
	u16 alg;
	u32 mask;
};

/* TPM2B_PUBLIC of a sealed data object, as the parsers see it. */
struct tk2_public {
	u16 name_alg;
	u32 attrs;
	const u8 *policy;
	u16 policy_len;
};

int tk2_public_parse(const u8 *p, u32 len, struct tk2_public *out);
int tk2_private_check(const u8 *p, u32 len);

/* Create: a sealed data object under @parent. */
struct tk2_create_in {
	u32 parent;
	struct tk2_auth parent_auth;
	const u8 *user_auth;
	u16 user_auth_len;
	const u8 *data;
	u16 data_len;
	u16 name_alg;
	u32 attrs;
	const u8 *policy;
	u16 policy_len;
};

int tk2_cmd_create(struct tk_cmd_buf *b, u8 *buf, u32 size,
		   const struct tk2_create_in *in);
int tk2_rsp_create(const u8 *rsp, u32 size, struct tk_span *priv,
		   struct tk_span *pub);

int tk2_cmd_load(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 parent,
		 const struct tk2_auth *auth, const u8 *priv, u32 priv_len,
		  const u8 *pub, u32 pub_len);
int tk2_rsp_load(const u8 *rsp, u32 size, u32 *handle);

int tk2_cmd_unseal(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 item,
		   const struct tk2_auth *auth);
int tk2_rsp_unseal(const u8 *rsp, u32 size, struct tk_span *data);
int tk2_rsp_unseal_params(const u8 *rsp, u32 size, struct tk_span *data);

/*
 * The parameters of a response without response handles, in sessions
 * (checked by tk2_rsp_sessions()) or not, as a reader of their own.
 */
int tk2_rsp_params(const u8 *rsp, u32 size, bool sessions,
		   struct tk_rsp_buf *p);

int tk2_cmd_get_random(struct tk_cmd_buf *b, u8 *buf, u32 size, u16 count);
int tk2_rsp_get_random(const u8 *rsp, u32 size, struct tk_span *bytes);
int tk2_rsp_get_random_params(const u8 *rsp, u32 size,
			      struct tk_span *bytes);

/*
 * The dictionary-attack state (TPM2_GetCapability, TPM_CAP_TPM_PROPERTIES
 * from TPM_PT_LOCKOUT_COUNTER): failed authorisations counted now, and how
 * many put the TPM in lockout.
 */
struct tk2_da_state {
	u32 counter;		/* TPM_PT_LOCKOUT_COUNTER */
	u32 max_tries;		/* TPM_PT_MAX_AUTH_FAIL */
};

int tk2_cmd_get_da_state(struct tk_cmd_buf *b, u8 *buf, u32 size);
int tk2_rsp_get_da_state(const u8 *rsp, u32 size, struct tk2_da_state *da);

/* A command without sessions whose one parameter is a handle. */
int tk2_cmd_one_handle(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 cc,
		       u32 handle);
int tk2_cmd_flush(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 handle);

/*
 * A saved session, as TPM2_ContextSave returns it and TPM2_ContextLoad
 * takes it: the marshalled TPMS_CONTEXT (sequence, savedHandle, hierarchy,
 * contextBlob), at most TK2_CONTEXT_MAX bytes.
 */
#define TK2_CONTEXT_MAX		1536
int tk2_cmd_context_save(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 u32 handle);
int tk2_rsp_context_save(const u8 *rsp, u32 size, u32 handle,
			 struct tk_span *ctx);
int tk2_cmd_context_load(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 const u8 *ctx, u32 ctx_len);
int tk2_rsp_context_load(const u8 *rsp, u32 size, u32 *handle);

/*
 * The public area of a key as ReadPublic and CreatePrimary return it:
 * the first fields of its TPMT_PUBLIC, and the whole of it (the contents
 * of the TPM2B_PUBLIC) for its Name and its key.
 */
struct tk2_public_area {
	u16 type;
	u16 name_alg;
	u32 attrs;
	struct tk_span area;
};

/* CreatePrimary with the TCG's ECC NIST P-256 storage key template. */
int tk2_cmd_create_srk(struct tk_cmd_buf *b, u8 *buf, u32 size,
		       u32 hierarchy, const struct tk2_auth *auth);
int tk2_rsp_create_primary(const u8 *rsp, u32 size, u32 *handle,
			   struct tk2_public_area *pub);
int tk2_rsp_handle(const u8 *rsp, u32 size, u32 *handle);

int tk2_cmd_read_public(struct tk_cmd_buf *b, u8 *buf, u32 size,
			u32 handle);
int tk2_rsp_read_public(const u8 *rsp, u32 size, struct tk2_public_area *pub);

int tk2_cmd_start_policy(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 const u8 *nonce, u16 nonce_len, u16 hash_alg);
int tk2_rsp_start_session(const u8 *rsp, u32 size, u32 *handle);

/* A policy command on @session whose body is already marshalled. */
int tk2_cmd_policy(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 cc,
		   u32 session, const u8 *body, u32 body_len);

/* A response that is a header and nothing more (Flush, Policy*). */
int tk2_rsp_empty(const u8 *rsp, u32 size);

void tk2_put_pcr_selection(struct tk_cmd_buf *b, const struct tk2_pcrs *sel);
int tk2_cmd_pcr_read(struct tk_cmd_buf *b, u8 *buf, u32 size,
		     const struct tk2_pcrs *sel);

/* What one PCR_Read returned: the PCRs in @got, their values in order. */
struct tk2_pcr_values {
	u32 update_counter;
	u32 got;
	u32 count;
	const u8 *digest[TK2_PCR_READ_MAX];
};

int tk2_rsp_pcr_read(const u8 *rsp, u32 size, const struct tk2_pcrs *sel,
		     struct tk2_pcr_values *out);
int tk2_rsp_pcr_read_params(const u8 *rsp, u32 size,
			    const struct tk2_pcrs *sel,
			    struct tk2_pcr_values *out);

#endif /* TK2_MSG_H */
