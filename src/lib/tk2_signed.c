// SPDX-License-Identifier: GPL-2.0
/*
 * Messages of signed policies (TPM 2.0 Library Part 3: 12.3 LoadExternal,
 * 20.1 VerifySignature, 23.16 PolicyAuthorize, 23.17 PolicyAuthValue) and
 * the PolicyAuthorize CommandPolicy of a TPMKey. As in tk2_msg.c, a
 * response is walked to its last byte before a field is handed out.
 */
#include <crypto/algapi.h>	/* crypto_memneq */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "tk_buf.h"
#include "tk2_msg.h"
#include "tk2_signed.h"

#define RSA_SIG_MAX	512	/* RSA-4096 */
#define ECC_COORD_MAX	66	/* P-521 */

/**
 * tk2_cmd_load_external() - write TPM2_LoadExternal of a public key alone
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @pub: the key's TPM2B_PUBLIC, size field included
 * @pub_len: its length
 * @hierarchy: where to load it: TK2_RH_OWNER for a key whose signatures
 *             must give tickets (the null hierarchy gives none)
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_load_external(struct tk_cmd_buf *b, u8 *buf, u32 size,
			  const u8 *pub, u32 pub_len, u32 hierarchy)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_LOAD_EXTERNAL);
	tk_cmd_u16(b, 0);			/* inPrivate: none */
	tk_cmd_bytes(b, pub, pub_len);
	tk_cmd_u32(b, hierarchy);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_load_external() - parse the response to TPM2_LoadExternal
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the loaded key, on success
 * @name: its name (contents of the TPM2B_NAME), on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_load_external(const u8 *rsp, u32 size, u32 *handle,
			  struct tk_span *name)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	*handle = tk_rsp_u32(&r);
	tk2_take_tpm2b(&r, TK2_NAME_MAX, name);
	if (tk_rsp_end(&r) || *handle >> 24 != TK2_HT_TRANSIENT)
		return -EBADMSG;
	return 0;
}

/**
 * tk2_cmd_verify_signature() - write TPM2_VerifySignature
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @key: the loaded public key
 * @digest: the signed digest: SHA-256(approvedPolicy || policyRef)
 * @digest_len: its length
 * @sig: a whole TPMT_SIGNATURE
 * @sig_len: its length
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_verify_signature(struct tk_cmd_buf *b, u8 *buf, u32 size,
			     u32 key, const u8 *digest, u16 digest_len,
			      const u8 *sig, u32 sig_len)
{
	struct tk_span d = { .p = digest, .len = digest_len };

	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS,
		     TK2_CC_VERIFY_SIGNATURE);
	tk_cmd_u32(b, key);
	tk2_put_tpm2b(b, d.p, d.len);
	tk_cmd_bytes(b, sig, sig_len);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_verify_signature() - parse the response to TPM2_VerifySignature
 * @rsp: the response
 * @size: the size of its buffer
 * @ticket: the whole TPMT_TK_VERIFIED, for PolicyAuthorize, on success
 *
 * A null ticket (hierarchy TPM_RH_NULL, empty digest: the key was loaded
 * in the null hierarchy) cannot satisfy PolicyAuthorize: -EBADMSG.
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed, has bytes left over or is a null ticket.
 */
int tk2_rsp_verify_signature(const u8 *rsp, u32 size, struct tk_span *ticket)
{
	struct tk_rsp_buf r;
	struct tk_span d;
	u32 hierarchy;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	ticket->p = rsp + r.pos;
	if (tk_rsp_u16(&r) != TK2_ST_VERIFIED)
		return -EBADMSG;
	hierarchy = tk_rsp_u32(&r);
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, &d);
	if (tk_rsp_end(&r) || hierarchy == TK2_RH_NULL || !d.len)
		return -EBADMSG;
	ticket->len = r.pos - (ticket->p - rsp);
	return 0;
}

/**
 * tk2_cmd_policy_authorize() - write TPM2_PolicyAuthorize
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @in: the session, approvedPolicy, policyRef, the signer's name and the
 *      ticket of VerifySignature
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_policy_authorize(struct tk_cmd_buf *b, u8 *buf, u32 size,
			     const struct tk2_policy_authorize_in *in)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS,
		     TK2_CC_POLICY_AUTHORIZE);
	tk_cmd_u32(b, in->session);
	tk2_put_tpm2b(b, in->approved.p, in->approved.len);
	tk2_put_tpm2b(b, in->policy_ref.p, in->policy_ref.len);
	tk2_put_tpm2b(b, in->key_name.p, in->key_name.len);
	if (in->ticket.len)
		tk_cmd_bytes(b, in->ticket.p, in->ticket.len);
	return tk_cmd_end(b);
}

/**
 * tk2_cmd_policy_auth_value() - write TPM2_PolicyAuthValue
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @session: the policy session
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_policy_auth_value(struct tk_cmd_buf *b, u8 *buf, u32 size,
			      u32 session)
{
	return tk2_cmd_policy(b, buf, size, TK2_CC_POLICY_AUTH_VALUE, session,
			       NULL, 0);
}

/* A TPMT_SIGNATURE of the kinds a signer can make, or sigAlg NULL. */
static void take_signature(struct tk_rsp_buf *r, struct tk2_authorize_body *o)
{
	struct tk_span s;

	o->sig_alg = tk_rsp_u16(r);
	o->sig_hash = 0;
	switch (o->sig_alg) {
	case TK2_ALG_NULL:
		return;
	case TK2_ALG_RSASSA:
		o->sig_hash = tk_rsp_u16(r);
		if (tk2_take_tpm2b(r, RSA_SIG_MAX, &s) && !s.len)
			r->bad = true;
		break;
	case TK2_ALG_ECDSA:
		o->sig_hash = tk_rsp_u16(r);
		if ((tk2_take_tpm2b(r, ECC_COORD_MAX, &s) && !s.len) ||
		    (tk2_take_tpm2b(r, ECC_COORD_MAX, &s) && !s.len))
			r->bad = true;
		break;
	default:
		r->bad = true;
		return;
	}
	if (!tk2_alg_digest_size(o->sig_hash))
		r->bad = true;
}

/**
 * tk2_authorize_body_parse() - check the CommandPolicy of a PolicyAuthorize
 * @body: the OCTET STRING's contents
 * @len: their length
 * @out: the parts, pointing into @body
 *
 * Return: 0, or -EINVAL when a part is malformed or bytes are left over:
 * keySign a TPM2B_PUBLIC of an RSA or ECC key, policyRef at most a digest,
 * the signature RSASSA or ECDSA with a known hash, or sigAlg NULL.
 */
int tk2_authorize_body_parse(const u8 *body, u32 len,
			     struct tk2_authorize_body *out)
{
	struct tk_rsp_buf r = { .data = body, .len = len };
	struct tk_span pub;
	u16 type;

	if (!tk2_take_tpm2b(&r, 0xffff, &pub) || pub.len < 2)
		return -EINVAL;
	type = get_unaligned_be16(pub.p);
	if (type != TK2_ALG_RSA && type != TK2_ALG_ECC)
		return -EINVAL;
	out->pub.p = pub.p - 2;
	out->pub.len = pub.len + 2;
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, &out->policy_ref);
	out->sig.p = body + r.pos;
	take_signature(&r, out);
	if (tk_rsp_end(&r))
		return -EINVAL;
	out->sig.len = r.pos - (out->sig.p - body);
	return 0;
}

/* A TPMS_SCHEME of a signer: NULL, or @alg with a known hash. */
static void take_scheme(struct tk_rsp_buf *r, u16 alg)
{
	u16 scheme = tk_rsp_u16(r);

	if (scheme == TK2_ALG_NULL)
		return;
	if (scheme != alg || !tk2_alg_digest_size(tk_rsp_u16(r)))
		r->bad = true;
}

/* A TPM2B of exactly @n bytes. */
static void take_exact(struct tk_rsp_buf *r, u16 n)
{
	struct tk_span s;

	if (tk2_take_tpm2b(r, n, &s) && s.len != n)
		r->bad = true;
}

/**
 * tk2_signer_check() - check the TPMT_PUBLIC of a policy signer
 * @pub: the TPMT_PUBLIC (no size field)
 * @len: its length, which it must fill
 * @name_alg: its name algorithm, on success
 *
 * A signer is an RSA-2048 key (RSASSA or no scheme) or an ECC NIST P-256
 * key (ECDSA or no scheme, no KDF), not a storage key, with a known name
 * algorithm; TPM2_LoadExternal checks the rest.
 *
 * Return: 0, or -EINVAL.
 */
int tk2_signer_check(const u8 *pub, u32 len, u16 *name_alg)
{
	struct tk_rsp_buf r = { .data = pub, .len = len };
	struct tk_span auth;
	u16 type;

	type = tk_rsp_u16(&r);
	*name_alg = tk_rsp_u16(&r);
	tk_rsp_u32(&r);				/* objectAttributes */
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, &auth);
	if (tk_rsp_u16(&r) != TK2_ALG_NULL)	/* symmetric: not a parent */
		r.bad = true;
	switch (type) {
	case TK2_ALG_RSA:
		take_scheme(&r, TK2_ALG_RSASSA);
		if (tk_rsp_u16(&r) != 2048)
			r.bad = true;
		tk_rsp_u32(&r);			/* exponent */
		take_exact(&r, 256);
		break;
	case TK2_ALG_ECC:
		take_scheme(&r, TK2_ALG_ECDSA);
		if (tk_rsp_u16(&r) != TK2_ECC_NIST_P256 ||
		    tk_rsp_u16(&r) != TK2_ALG_NULL)
			r.bad = true;
		take_exact(&r, 32);
		take_exact(&r, 32);
		break;
	default:
		return -EINVAL;
	}
	if (tk_rsp_end(&r) || !tk2_alg_digest_size(*name_alg))
		return -EINVAL;
	return 0;
}

/**
 * tk2_policy_nv_parse() - check the CommandPolicy of a PolicyNV
 * @body: nvIndex (the index authorises its own read), then PolicyNV's
 *        parameters: TPM2B_OPERAND operandB, UINT16 offset, TPM_EO operation
 * @len: its length
 * @out: the parts, pointing into @body
 *
 * Return: 0, or -EINVAL when malformed: not an NV index handle, operandB
 * empty or longer than 64 bytes, an unknown operation, bytes left over.
 */
int tk2_policy_nv_parse(const u8 *body, u32 len, struct tk2_policy_nv *out)
{
	struct tk_rsp_buf r = { .data = body, .len = len };

	out->index = tk_rsp_u32(&r);
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, &out->operand);
	out->offset = tk_rsp_u16(&r);
	out->op = tk_rsp_u16(&r);
	if (tk_rsp_end(&r) || out->index >> 24 != TK2_HT_NV_INDEX ||
	    !out->operand.len || out->op > TK2_EO_MAX)
		return -EINVAL;
	return 0;
}

/**
 * tk2_policy_nv_body() - the PolicyNV of an approval signed for @count
 * @out: the CommandPolicy, TK2_POLICY_NV_BODY_MAX bytes are enough
 * @size: its size
 * @index: the counter
 * @count: the counter value the approval is signed for: the TPM lets it
 *         through while the counter is at most this (UNSIGNED_LE, offset 0,
 *         all 8 bytes of the counter, big-endian as the TPM keeps it)
 *
 * Return: the length, or -E2BIG.
 */
int tk2_policy_nv_body(u8 *out, u32 size, u32 index, u64 count)
{
	u32 n = 4 + 2 + 8 + 2 + 2;

	if (size < n)
		return -E2BIG;
	put_unaligned_be32(index, out);
	put_unaligned_be16(8, out + 4);
	put_unaligned_be32(count >> 32, out + 6);
	put_unaligned_be32((u32)count, out + 10);
	put_unaligned_be16(0, out + 14);
	put_unaligned_be16(TK2_EO_UNSIGNED_LE, out + 16);
	return n;
}

/**
 * tk2_policy_nv_is_revoke() - whether a PolicyNV is a revocation check
 * @nv: a parsed PolicyNV
 * @index: the key's counter
 * @count: the value it was signed for, when it is
 *
 * Return: true for PolicyNV(@index, 8-byte operandB, offset 0,
 * UNSIGNED_LE), the one check revocation takes.
 */
bool tk2_policy_nv_is_revoke(const struct tk2_policy_nv *nv, u32 index,
			     u64 *count)
{
	if (nv->index != index || nv->operand.len != 8 || nv->offset ||
	    nv->op != TK2_EO_UNSIGNED_LE)
		return false;
	*count = (u64)get_unaligned_be32(nv->operand.p) << 32 |
		 get_unaligned_be32(nv->operand.p + 4);
	return true;
}

/**
 * tk2_policy_nv_args() - the args PolicyNV hashes: operandB || offset || op
 * @out: the buffer
 * @size: its size
 * @nv: the PolicyNV
 *
 * Return: the length of args (hash it: H(args)), or -E2BIG.
 */
int tk2_policy_nv_args(u8 *out, u32 size, const struct tk2_policy_nv *nv)
{
	u32 n = nv->operand.len + 4;

	if (size < n)
		return -E2BIG;
	memcpy(out, nv->operand.p, nv->operand.len);
	put_unaligned_be16(nv->offset, out + nv->operand.len);
	put_unaligned_be16(nv->op, out + nv->operand.len + 2);
	return n;
}

/**
 * tk2_cmd_policy_nv() - write TPM2_PolicyNV, the index authorising its read
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @session: the policy session
 * @nv: the PolicyNV: authHandle and nvIndex are both nv->index
 *
 * The authorisation is the index's empty password (TPMA_NV_AUTHREAD); a
 * caller with an HMAC session replaces it (tk2_cmd_sessions()).
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_policy_nv(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 session,
		      const struct tk2_policy_nv *nv)
{
	tk_cmd_start(b, buf, size, TK2_TAG_SESSIONS, TK2_CC_POLICY_NV);
	tk_cmd_u32(b, nv->index);
	tk_cmd_u32(b, nv->index);
	tk_cmd_u32(b, session);
	tk_cmd_u32(b, 4 + 2 + 1 + 2);		/* one password session */
	tk_cmd_u32(b, TK2_RS_PW);
	tk_cmd_u16(b, 0);
	tk_cmd_u8(b, 0);
	tk_cmd_u16(b, 0);
	tk2_put_tpm2b(b, nv->operand.p, nv->operand.len);
	tk_cmd_u16(b, nv->offset);
	tk_cmd_u16(b, nv->op);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_policy_nv() - parse the response to a PolicyNV sent with a password
 * @rsp: the response
 * @size: the size of its buffer
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed: parameters, or more than one session.
 */
int tk2_rsp_policy_nv(const u8 *rsp, u32 size)
{
	struct tk_rsp_buf r;
	struct tk_span s;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_SESSIONS);
	if (rc)
		return rc;
	if (tk_rsp_u32(&r))			/* parameterSize */
		return -EBADMSG;
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, &s);	/* nonceTPM */
	tk_rsp_u8(&r);
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, &s);	/* the password's: empty */
	return tk_rsp_end(&r);
}

/**
 * tk2_cmd_nv_read_public() - write TPM2_NV_ReadPublic
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @index: the NV index
 *
 * Without sessions; a caller auditing it adds one (tk2_cmd_sessions()).
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_nv_read_public(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 index)
{
	return tk2_cmd_one_handle(b, buf, size, TK2_CC_NV_READ_PUBLIC, index);
}

/* nvPublic and nvName, which must fill @r. */
static int take_nv_public(struct tk_rsp_buf *r, struct tk2_nv_public *out)
{
	struct tk_rsp_buf a = { };
	struct tk_span pol;
	u16 n;

	n = tk_rsp_u16(r);
	a.data = tk_rsp_bytes(r, n);
	a.len = n;
	if (r->bad)
		return -EBADMSG;
	out->area.p = a.data;
	out->area.len = n;
	out->index = tk_rsp_u32(&a);
	out->name_alg = tk_rsp_u16(&a);
	out->attrs = tk_rsp_u32(&a);
	tk2_take_tpm2b(&a, TK2_DIGEST_MAX, &pol);
	out->data_size = tk_rsp_u16(&a);
	tk2_take_tpm2b(r, TK2_NAME_MAX, &out->name);
	if (tk_rsp_end(&a) || tk_rsp_end(r))
		return -EBADMSG;
	return 0;
}

/**
 * tk2_rsp_nv_read_public() - parse the response to TPM2_NV_ReadPublic
 * @rsp: the response
 * @size: the size of its buffer
 * @sessions: sent in a session: its area was checked (tk2_rsp_sessions());
 *            only the parameters are parsed
 * @out: the public area and the TPM's Name of the index, pointing into @rsp
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_nv_read_public(const u8 *rsp, u32 size, bool sessions,
			   struct tk2_nv_public *out)
{
	struct tk_rsp_buf p;
	int rc;

	rc = tk2_rsp_params(rsp, size, sessions, &p);
	if (rc)
		return rc;
	return take_nv_public(&p, out);
}

/**
 * tk2_nv_counter_check() - whether an NV index can revoke approvals
 * @nv: its public area
 * @index: the handle asked for
 *
 * An NV counter at @index with a SHA-256 Name, 8 bytes, written (the TPM
 * sets a counter to its highest count at its first increment), that only
 * the owner (or platform) may increment, anyone may read with the
 * index's (empty) authorisation without counting towards the lockout, and
 * that nobody can lock for reading or writing until the next boot.
 *
 * Return: NULL, or why not.
 */
const char *tk2_nv_counter_check(const struct tk2_nv_public *nv, u32 index)
{
	const u32 locks = TK2_NV_WRITELOCKED | TK2_NV_WRITEDEFINE |
			  TK2_NV_WRITE_STCLEAR | TK2_NV_GLOBALLOCK |
			  TK2_NV_READLOCKED | TK2_NV_READ_STCLEAR;

	if (nv->index != index)
		return "NV_ReadPublic answered for another index";
	if (((nv->attrs & TK2_NV_TYPE_MASK) >> TK2_NV_TYPE_SHIFT) != TK2_NT_COUNTER ||
	    nv->data_size != 8)
		return "not an NV counter (nt=counter)";
	if (nv->name_alg != TK2_ALG_SHA256)
		return "its nameAlg is not SHA-256";
	if (!(nv->attrs & TK2_NV_OWNERWRITE) ||
	    (nv->attrs & (TK2_NV_AUTHWRITE | TK2_NV_POLICYWRITE)))
		return "not incremented by the owner alone (ownerwrite only)";
	if ((nv->attrs & (TK2_NV_AUTHREAD | TK2_NV_NO_DA)) !=
	    (TK2_NV_AUTHREAD | TK2_NV_NO_DA))
		return "not readable with its own authorisation (authread|no_da)";
	if (nv->attrs & locks)
		return "it can be locked (writedefine, write_stclear, globallock, read_stclear)";
	if (!(nv->attrs & TK2_NV_WRITTEN))
		return "never incremented (tpm2_nvincrement it once)";
	return NULL;
}

/**
 * tk2_revoke_ref() - the policyRef of a key with revocation
 * @out: "TKRV" || nvIndex || the counter's Name || @user
 * @size: its size
 * @index: the counter
 * @name: its Name, TK2_NV_NAME_SIZE bytes
 * @user: the policyref= bytes, or none
 * @user_len: at most TK2_REVOKE_USER_MAX
 *
 * Return: the length, or -EINVAL when @user is too long.
 */
int tk2_revoke_ref(u8 *out, u32 size, u32 index, const u8 *name,
		   const u8 *user, u32 user_len)
{
	if (user_len > TK2_REVOKE_USER_MAX ||
	    size < TK2_REVOKE_REF_HEAD + user_len)
		return -EINVAL;
	memcpy(out, TK2_REVOKE_TAG, 4);
	put_unaligned_be32(index, out + 4);
	memcpy(out + 8, name, TK2_NV_NAME_SIZE);
	if (user_len)
		memcpy(out + TK2_REVOKE_REF_HEAD, user, user_len);
	return TK2_REVOKE_REF_HEAD + user_len;
}

/**
 * tk2_revoke_ref_parse() - the counter a policyRef names, if it names one
 * @ref: the policyRef
 * @len: its length
 * @index: the counter's handle
 * @name: its Name, pointing into @ref
 *
 * Return: true for a policyRef of tk2_revoke_ref()'s form.
 */
bool tk2_revoke_ref_parse(const u8 *ref, u32 len, u32 *index,
			  const u8 **name)
{
	if (len < TK2_REVOKE_REF_HEAD || crypto_memneq(ref, TK2_REVOKE_TAG, 4) ||
	    ref[4] != TK2_HT_NV_INDEX ||
	    get_unaligned_be16(ref + 8) != TK2_ALG_SHA256)
		return false;
	*index = get_unaligned_be32(ref + 4);
	*name = ref + 8;
	return true;
}
