// SPDX-License-Identifier: GPL-2.0
/*
 * Messages of signed policies (TPM 2.0 Library Part 3: 12.3 LoadExternal,
 * 20.1 VerifySignature, 23.16 PolicyAuthorize, 23.17 PolicyAuthValue) and
 * the PolicyAuthorize CommandPolicy of a TPMKey. As in tk2_msg.c, a
 * response is walked to its last byte before a field is handed out.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "tk_buf.h"
#include "tk2_msg.h"
#include "tk2_signed.h"

#define RSA_SIG_MAX	512	/* RSA-4096 */
#define ECC_COORD_MAX	66	/* P-521 */

static void put_span(struct tk_cmd_buf *b, const struct tk_span *s)
{
	tk_cmd_u16(b, s->len);
	if (s->len)
		tk_cmd_bytes(b, s->p, s->len);
}

/* A TPM2B: its contents in @out; false (reader marked bad) past @max. */
static bool take_tpm2b(struct tk_rsp_buf *r, u16 max, struct tk_span *out)
{
	u16 n = tk_rsp_u16(r);

	if (n > max)
		r->bad = true;
	out->p = tk_rsp_bytes(r, n);
	out->len = r->bad ? 0 : n;
	return !r->bad;
}

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
	take_tpm2b(&r, TK2_NAME_MAX, name);
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
	put_span(b, &d);
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
	take_tpm2b(&r, TK2_DIGEST_MAX, &d);
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
	put_span(b, &in->approved);
	put_span(b, &in->policy_ref);
	put_span(b, &in->key_name);
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
		if (take_tpm2b(r, RSA_SIG_MAX, &s) && !s.len)
			r->bad = true;
		break;
	case TK2_ALG_ECDSA:
		o->sig_hash = tk_rsp_u16(r);
		if ((take_tpm2b(r, ECC_COORD_MAX, &s) && !s.len) ||
		    (take_tpm2b(r, ECC_COORD_MAX, &s) && !s.len))
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

	if (!take_tpm2b(&r, 0xffff, &pub) || pub.len < 2)
		return -EINVAL;
	type = get_unaligned_be16(pub.p);
	if (type != TK2_ALG_RSA && type != TK2_ALG_ECC)
		return -EINVAL;
	out->pub.p = pub.p - 2;
	out->pub.len = pub.len + 2;
	take_tpm2b(&r, TK2_DIGEST_MAX, &out->policy_ref);
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

	if (take_tpm2b(r, n, &s) && s.len != n)
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
	take_tpm2b(&r, TK2_DIGEST_MAX, &auth);
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
