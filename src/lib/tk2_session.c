// SPDX-License-Identifier: GPL-2.0
/*
 * Session areas of TPM 2.0 commands and responses. A command is built as
 * before (by a tk2_msg builder, with a password area or none); then
 * tk2_cmd_sessions() replaces its area with real sessions, encrypts the
 * first parameter and writes the HMACs. A response goes through
 * tk2_rsp_sessions() first: it is walked to its last byte, every HMAC
 * checked in constant time, and only then the first parameter decrypted
 * and the nonces rolled, so the caller's parser sees a response that the
 * TPM, and not the bus, produced.
 *
 * Layouts: Part 1 §18 (authorisation area, cpHash, rpHash), HMACs §19.6,
 * parameter encryption §21.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <crypto/algapi.h>	/* crypto_memneq */
#include "tk_buf.h"
#include "tk2_msg.h"
#include "tk2_kdf.h"
#include "tk2_session.h"
#include "tk_oaep.h"

#define HANDLES_MAX	3
#define SEAL_ATTRS	(TK2_SESS_CONTINUE | TK2_SESS_DECRYPT | TK2_SESS_ENCRYPT)

static struct tk_span nonce_caller(const struct tk2_session *s)
{
	return (struct tk_span){ .p = s->nonce_caller,
				 .len = s->nonce_caller_len };
}

static struct tk_span nonce_tpm(const struct tk2_session *s)
{
	return (struct tk_span){ .p = s->nonce_tpm, .len = s->nonce_tpm_len };
}

/*
 * sessionKey || authValue into @out; its length. The TPM keeps an
 * authValue without its trailing zero octets and uses it so (Part 1
 * §19.6): so do we.
 */
static u32 session_value(const struct tk2_session *s, u8 *out)
{
	u32 n = tk2_auth_len(s->auth, s->auth_len);

	memcpy(out, s->key, s->key_len);
	memcpy(out + s->key_len, s->auth, n);
	return s->key_len + n;
}

static u32 entry_size(const struct tk2_session *s)
{
	return 4 + 2 + s->nonce_caller_len + 1 + 2 +
	       (s->hmac ? TK2_SHA256_SIZE : s->auth_len);
}

static bool session_ok(const struct tk2_session *s)
{
	if (s->nonce_caller_len > TK2_NONCE_MAX ||
	    s->nonce_tpm_len > TK2_NONCE_MAX || s->auth_len > TK2_AUTH_MAX ||
	    (s->key_len && s->key_len != TK2_SHA256_SIZE))
		return false;
	/* Encryption keyed by a password alone would hide nothing. */
	if (s->attrs & (TK2_SESS_DECRYPT | TK2_SESS_ENCRYPT))
		return s->hmac && s->key_len;
	return true;
}

/* The one session with attribute @bit: its index, -1 if none, -2 if two. */
static int session_with(struct tk2_session *const *s, unsigned int n, u8 bit)
{
	int found = -1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!(s[i]->attrs & bit))
			continue;
		if (found >= 0)
			return -2;
		found = i;
	}
	return found;
}

/*
 * AES-128-CFB over the first parameter, a TPM2B at @p within @len bytes:
 * its size field stays clear. Commands: nonceNewer is nonceCaller;
 * responses: nonceTPM (Part 1 §21.3).
 */
static int crypt_param(const struct tk2_crypto *c, const struct tk2_session *s,
		       u8 *p, u32 len, bool response)
{
	u8 sv[TK2_HMAC_KEY_MAX], kiv[TK2_AES128_KEY_SIZE + TK2_AES_BLOCK_SIZE];
	struct tk_span caller = nonce_caller(s), tpm = nonce_tpm(s);
	u32 n, sv_len;
	int ret;

	if (len < 2)
		return -EINVAL;
	n = get_unaligned_be16(p);
	if (n > len - 2)
		return -EINVAL;
	sv_len = session_value(s, sv);
	ret = tk2_cfb_key(c, sv, sv_len, response ? &tpm : &caller,
			  response ? &caller : &tpm, kiv);
	if (!ret)
		ret = c->aes_setkey(c->ctx, kiv, TK2_AES128_KEY_SIZE);
	if (!ret)
		tk2_aes_cfb(c, kiv + TK2_AES128_KEY_SIZE, p + 2, n, response);
	memzero_explicit(sv, sizeof(sv));
	memzero_explicit(kiv, sizeof(kiv));
	return ret;
}

/*
 * HMAC(sessionKey || authValue, pHash || nonceNewer || nonceOlder
 *      [|| nonceTPMdecrypt] [|| nonceTPMencrypt] || sessionAttributes)
 */
static int session_hmac(const struct tk2_crypto *c,
			const struct tk2_session *s, const u8 *phash,
			const struct tk_span *newer,
			const struct tk_span *older,
			const struct tk_span *extra, u8 attrs, u8 *out)
{
	u8 key[TK2_HMAC_KEY_MAX];
	struct tk_span in[6] = {
		{ .p = phash, .len = TK2_SHA256_SIZE }, *newer, *older,
		extra[0], extra[1], { .p = &attrs, .len = 1 },
	};
	int ret;

	ret = c->hmac(c->ctx, key, session_value(s, key), in, 6, out);
	memzero_explicit(key, sizeof(key));
	return ret;
}

/*
 * The nonces the first session's command HMAC adds when another session
 * encrypts (Part 1 §19.6): nonceTPM of the decrypt session, then of the
 * encrypt session if that is a third one.
 */
static void extra_nonces(struct tk2_session *const *s, int dec, int enc,
			 struct tk_span *extra)
{
	extra[0] = (struct tk_span){ .p = NULL, .len = 0 };
	extra[1] = extra[0];
	if (dec > 0)
		extra[0] = nonce_tpm(s[dec]);
	if (enc > 0 && enc != dec)
		extra[1] = nonce_tpm(s[enc]);
}

/* Write the authorisation area at @p; the HMAC fields are left zero. */
static void put_area(u8 *p, struct tk2_session *const *s, unsigned int n,
		     u32 *hmac_at)
{
	unsigned int i;
	u32 pos = 0;

	for (i = 0; i < n; i++) {
		u16 hlen = s[i]->hmac ? TK2_SHA256_SIZE : s[i]->auth_len;

		put_unaligned_be32(s[i]->handle, p + pos);
		put_unaligned_be16(s[i]->nonce_caller_len, p + pos + 4);
		pos += 6;
		memcpy(p + pos, s[i]->nonce_caller, s[i]->nonce_caller_len);
		pos += s[i]->nonce_caller_len;
		p[pos++] = s[i]->attrs;
		put_unaligned_be16(hlen, p + pos);
		pos += 2;
		hmac_at[i] = pos;
		if (s[i]->hmac)
			memset(p + pos, 0, hlen);
		else
			memcpy(p + pos, s[i]->auth, hlen);
		pos += hlen;
	}
}

/**
 * tk2_cmd_sessions() - give a built command its sessions
 * @c: the caller's primitives
 * @cmd: a whole command, in a buffer of @size bytes
 * @size: the buffer's size (room for the session area)
 * @nhandles: how many handles the command has
 * @names: the Names of those handles, in order (cpHash)
 * @s: the sessions, the authorisation sessions first, in handle order
 * @n: how many (1..TK2_SESSIONS_MAX)
 * @why: set to a static reason on -EINVAL
 *
 * Replaces the command's authorisation area (a password area from a
 * builder, or none: the tag then becomes TPM_ST_SESSIONS) with @s and
 * wipes whatever the old area leaves behind. With a session marked
 * TK2_SESS_DECRYPT the first parameter, which must be a TPM2B, is
 * encrypted; then cpHash = SHA-256(commandCode || names || parameters) and
 * each HMAC session's HMAC (Part 1 §19.6) is written.
 *
 * Return: 0; -E2BIG when the buffer is too small; -EINVAL for a malformed
 * command or sessions; or the primitive's error. On error the command
 * must not be sent.
 */
int tk2_cmd_sessions(const struct tk2_crypto *c, u8 *cmd, u32 size,
		     u32 nhandles, const struct tk_span *names,
		     struct tk2_session *const *s, unsigned int n,
		     const char **why)
{
	struct tk_span in[2 + HANDLES_MAX], extra[2];
	u32 len, hoff, poff, plen, alen = 0, nlen, i, hmac_at[TK2_SESSIONS_MAX];
	u8 phash[TK2_SHA256_SIZE];
	int dec, enc, ret;
	u16 tag;

	*why = "malformed command";
	if (!n || n > TK2_SESSIONS_MAX || nhandles > HANDLES_MAX ||
	    size < TK_TPM_HEADER_SIZE)
		return -EINVAL;
	tag = get_unaligned_be16(cmd);
	len = get_unaligned_be32(cmd + 2);
	hoff = TK_TPM_HEADER_SIZE + 4 * nhandles;
	if (len > size || len < hoff)
		return -EINVAL;
	poff = hoff;
	if (tag == TK2_TAG_SESSIONS) {
		if (len - hoff < 4 ||
		    get_unaligned_be32(cmd + hoff) > len - hoff - 4)
			return -EINVAL;
		poff = hoff + 4 + get_unaligned_be32(cmd + hoff);
	} else if (tag != TK2_TAG_NO_SESSIONS) {
		return -EINVAL;
	}
	plen = len - poff;

	*why = "bad session";
	for (i = 0; i < n; i++) {
		if (!session_ok(s[i]))
			return -EINVAL;
		alen += entry_size(s[i]);
	}
	dec = session_with(s, n, TK2_SESS_DECRYPT);
	enc = session_with(s, n, TK2_SESS_ENCRYPT);
	if (dec == -2 || enc == -2)
		return -EINVAL;
	*why = "no room for the sessions";
	if (alen + 4 > size - hoff || plen > size - hoff - 4 - alen)
		return -E2BIG;

	/* Move the parameters; wipe what the old area leaves past the end. */
	nlen = hoff + 4 + alen + plen;
	memmove(cmd + hoff + 4 + alen, cmd + poff, plen);
	if (nlen < len)
		memzero_explicit(cmd + nlen, len - nlen);
	poff = hoff + 4 + alen;
	put_unaligned_be16(TK2_TAG_SESSIONS, cmd);
	put_unaligned_be32(nlen, cmd + 2);
	put_unaligned_be32(alen, cmd + hoff);
	put_area(cmd + hoff + 4, s, n, hmac_at);

	*why = "first parameter cannot be encrypted";
	if (dec >= 0) {
		ret = crypt_param(c, s[dec], cmd + poff, plen, false);
		if (ret)
			goto fail;
	}

	/* cpHash = H(commandCode || Name1 .. NameN || parameters) */
	in[0] = (struct tk_span){ .p = cmd + 6, .len = 4 };
	for (i = 0; i < nhandles; i++)
		in[1 + i] = names[i];
	in[1 + nhandles] = (struct tk_span){ .p = cmd + poff, .len = plen };
	*why = "hash failed";
	ret = c->digest(c->ctx, in, 2 + nhandles, phash);
	if (ret)
		goto fail;

	for (i = 0; i < n; i++) {
		struct tk_span newer = nonce_caller(s[i]), older = nonce_tpm(s[i]);

		if (!s[i]->hmac)
			continue;
		extra_nonces(s, i ? -1 : dec, i ? -1 : enc, extra);
		ret = session_hmac(c, s[i], phash, &newer, &older, extra,
				   s[i]->attrs, cmd + hoff + 4 + hmac_at[i]);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	memzero_explicit(cmd, nlen);
	return ret;
}

/* One TPMS_AUTH_RESPONSE, as read. */
struct auth_rsp {
	const u8 *nonce;
	u16 nonce_len;
	u8 attrs;
	const u8 *hmac;
	u16 hmac_len;
};

static void take_auth(struct tk_rsp_buf *r, struct auth_rsp *a)
{
	struct tk_span nonce, hmac;

	tk2_take_tpm2b(r, TK2_NONCE_MAX, &nonce);
	a->attrs = tk_rsp_u8(r);
	tk2_take_tpm2b(r, TK2_AUTH_MAX, &hmac);
	a->nonce = nonce.p;
	a->nonce_len = nonce.len;
	a->hmac = hmac.p;
	a->hmac_len = hmac.len;
}

/* The response HMAC of an HMAC session: 0 when it is the TPM's. */
static int check_hmac(const struct tk2_crypto *c, const struct tk2_session *s,
		      const u8 *rphash, const struct auth_rsp *a,
		      const char **why)
{
	struct tk_span newer = { .p = a->nonce, .len = a->nonce_len };
	struct tk_span older = nonce_caller(s), extra[2] = { };
	u8 want[TK2_SHA256_SIZE];
	int ret;

	*why = "response session attributes changed";
	if ((a->attrs ^ s->attrs) & SEAL_ATTRS)
		return -EBADMSG;
	*why = "response HMAC of the wrong size";
	if (a->hmac_len != TK2_SHA256_SIZE || a->nonce_len < 16)
		return -EBADMSG;
	*why = "hash failed";
	ret = session_hmac(c, s, rphash, &newer, &older, extra, a->attrs, want);
	if (ret)
		return ret;
	*why = "response HMAC mismatch";
	ret = crypto_memneq(want, a->hmac, TK2_SHA256_SIZE) ? -EBADMSG : 0;
	memzero_explicit(want, sizeof(want));
	return ret;
}

/**
 * tk2_rsp_sessions() - check a response's sessions; decrypt it
 * @c: the caller's primitives
 * @rsp: the response, in a buffer of @size bytes
 * @size: the buffer's size
 * @cc: the command's code (rpHash)
 * @nhandles: how many handles the response has (before parameterSize)
 * @s: the command's sessions, in the same order
 * @n: how many
 * @why: set to a static reason on a negative return
 *
 * The response must be whole: header, handles, parameterSize, parameters
 * and one TPMS_AUTH_RESPONSE per session, nothing more. For each HMAC
 * session, HMAC(sessionKey || authValue, rpHash || nonceTPM || nonceCaller
 * || sessionAttributes) with rpHash = SHA-256(0 || commandCode ||
 * parameters) must equal the one received (constant-time compare) and
 * the attributes must be the ones sent. Only then are the new nonceTPMs
 * stored and, with a TK2_SESS_ENCRYPT session, the first parameter
 * decrypted in place. A response with an error code has no sessions and
 * is returned as that code (nothing in it is authenticated).
 *
 * Return: 0; the TPM's return code (> 0); -EBADMSG for a malformed or
 * forged response; -EINVAL for bad arguments; or the primitive's error.
 * On a negative return nothing in @rsp may be used.
 */
int tk2_rsp_sessions(const struct tk2_crypto *c, u8 *rsp, u32 size, u32 cc,
		     u32 nhandles, struct tk2_session *const *s,
		     unsigned int n, const char **why)
{
	struct auth_rsp a[TK2_SESSIONS_MAX];
	struct tk_span in[3];
	struct tk_rsp_buf r;
	u8 zero[4] = { }, ccb[4], rphash[TK2_SHA256_SIZE];
	const u8 *params;
	u32 plen, i;
	int enc, ret;

	*why = "bad sessions";
	if (!n || n > TK2_SESSIONS_MAX || nhandles > HANDLES_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!session_ok(s[i]))
			return -EINVAL;
	enc = session_with(s, n, TK2_SESS_ENCRYPT);
	if (enc == -2)
		return -EINVAL;

	*why = "malformed response";
	ret = tk_rsp_open(&r, rsp, size, TK2_TAG_SESSIONS);
	if (ret)
		return ret;
	tk_rsp_bytes(&r, 4 * nhandles);
	plen = tk_rsp_u32(&r);
	params = tk_rsp_bytes(&r, plen);
	for (i = 0; i < n; i++)
		take_auth(&r, &a[i]);
	if (tk_rsp_end(&r))
		return -EBADMSG;

	/* rpHash = H(responseCode || commandCode || parameters) */
	put_unaligned_be32(cc, ccb);
	in[0] = (struct tk_span){ .p = zero, .len = 4 };
	in[1] = (struct tk_span){ .p = ccb, .len = 4 };
	in[2] = (struct tk_span){ .p = params, .len = plen };
	*why = "hash failed";
	ret = c->digest(c->ctx, in, 3, rphash);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (!s[i]->hmac)
			continue;
		ret = check_hmac(c, s[i], rphash, &a[i], why);
		if (ret)
			return ret;
	}

	for (i = 0; i < n; i++) {
		if (a[i].nonce_len)
			memcpy(s[i]->nonce_tpm, a[i].nonce, a[i].nonce_len);
		s[i]->nonce_tpm_len = a[i].nonce_len;
	}
	*why = "first response parameter cannot be decrypted";
	if (enc >= 0)
		return crypt_param(c, s[enc], rsp + (u32)(params - rsp), plen,
				   true);
	return 0;
}

/**
 * tk2_ecc_public_parse() - the public area of an ECC P-256 key
 * @pub: a TPMT_PUBLIC (the contents of a TPM2B_PUBLIC), whole
 * @len: its length
 * @k: the fields; @k->x and @k->y point into @pub
 *
 * Part 2 §12.2.4 (TPMT_PUBLIC), §12.2.3.6 (TPMS_ECC_PARMS), §11.2.5.2
 * (TPMS_ECC_POINT). Every byte must be accounted for.
 *
 * Return: 0, or -EINVAL when @pub is not exactly an ECC P-256 public area.
 */
int tk2_ecc_public_parse(const u8 *pub, u32 len, struct tk2_ecc_key *k)
{
	struct tk_rsp_buf r = { .data = pub, .len = len };
	u16 n;

	memset(k, 0, sizeof(*k));
	if (tk_rsp_u16(&r) != TK2_ALG_ECC)
		return -EINVAL;
	k->name_alg = tk_rsp_u16(&r);
	k->attrs = tk_rsp_u32(&r);
	n = tk_rsp_u16(&r);
	k->auth_policy = n;
	tk_rsp_bytes(&r, n);
	k->sym_alg = tk_rsp_u16(&r);
	if (k->sym_alg != TK2_ALG_NULL) {
		k->sym_bits = tk_rsp_u16(&r);
		k->sym_mode = tk_rsp_u16(&r);
	}
	k->scheme = tk_rsp_u16(&r);
	if (k->scheme != TK2_ALG_NULL)
		tk_rsp_u16(&r);			/* its hash */
	k->curve = tk_rsp_u16(&r);
	k->kdf = tk_rsp_u16(&r);
	if (k->kdf != TK2_ALG_NULL)
		tk_rsp_u16(&r);
	if (tk_rsp_u16(&r) != TK2_ECC_P256_SIZE)
		r.bad = true;
	k->x = tk_rsp_bytes(&r, TK2_ECC_P256_SIZE);
	if (tk_rsp_u16(&r) != TK2_ECC_P256_SIZE)
		r.bad = true;
	k->y = tk_rsp_bytes(&r, TK2_ECC_P256_SIZE);
	if (tk_rsp_end(&r) || k->curve != TK2_ECC_NIST_P256)
		return -EINVAL;
	return 0;
}

#define TK2_ALG_OAEP	0x0017

/**
 * tk2_rsa_public_parse() - the public area of an RSA key
 * @pub: a TPMT_PUBLIC (the contents of a TPM2B_PUBLIC), whole
 * @len: its length
 * @k: the fields; @k->n points into @pub
 *
 * Part 2 §12.2.4 (TPMT_PUBLIC), §12.2.3.5 (TPMS_RSA_PARMS), §11.2.4.5
 * (TPM2B_PUBLIC_KEY_RSA). Every byte must be accounted for; the modulus
 * must be keyBits long, 1024 to 4096 bits; the scheme none or OAEP with
 * the name algorithm (the TPM decrypts a salt with OAEP then).
 *
 * Return: 0, or -EINVAL when @pub is not such an RSA public area.
 */
int tk2_rsa_public_parse(const u8 *pub, u32 len, struct tk2_rsa_key *k)
{
	struct tk_rsp_buf r = { .data = pub, .len = len };
	u16 sym, hash = TK2_ALG_NULL;

	memset(k, 0, sizeof(*k));
	if (tk_rsp_u16(&r) != TK2_ALG_RSA)
		return -EINVAL;
	k->name_alg = tk_rsp_u16(&r);
	k->attrs = tk_rsp_u32(&r);
	tk_rsp_bytes(&r, tk_rsp_u16(&r));	/* authPolicy */
	sym = tk_rsp_u16(&r);
	if (sym != TK2_ALG_NULL) {
		tk_rsp_u16(&r);
		tk_rsp_u16(&r);
	}
	k->scheme = tk_rsp_u16(&r);
	if (k->scheme != TK2_ALG_NULL)
		hash = tk_rsp_u16(&r);
	k->bits = tk_rsp_u16(&r);
	k->exponent = tk_rsp_u32(&r);
	if (!k->exponent)
		k->exponent = 65537;
	k->n_len = tk_rsp_u16(&r);
	k->n = tk_rsp_bytes(&r, k->n_len);
	if (tk_rsp_end(&r) || k->n_len != k->bits / 8 || k->bits % 8 ||
	    k->n_len < 128 || k->n_len > TK2_RSA_MAX_BYTES || !(k->n[0] & 0x80))
		return -EINVAL;
	if (k->scheme != TK2_ALG_NULL &&
	    (k->scheme != TK2_ALG_OAEP || hash != k->name_alg))
		return -EINVAL;
	return 0;
}

static const u8 salt_label[TK2_OAEP_SALT_LABEL_LEN] = TK2_OAEP_SALT_LABEL;

/**
 * tk2_rsa_salt_encode() - a session salt, OAEP-encoded for an RSA key
 * @c: the primitives (their digest is SHA-256: the parent's nameAlg)
 * @salt: the salt
 * @seed: 32 random bytes
 * @em: the encoded message, @k bytes; RSA-encrypted to the parent it is
 *	StartAuthSession's encryptedSalt (Part 1 Annex B.10.3, B.4)
 * @k: the parent's modulus size in bytes
 *
 * EME-OAEP with SHA-256, MGF1-SHA256 and the label "SECRET" with its NUL.
 *
 * Return: 0, -EINVAL for a modulus out of range, or the digest's errno.
 */
int tk2_rsa_salt_encode(const struct tk2_crypto *c,
			const u8 salt[TK2_SHA256_SIZE],
			const u8 seed[TK2_SHA256_SIZE], u8 *em, u32 k)
{
	struct tk_oaep h = {
		.ctx = c->ctx,
		.hash = c->digest,
		.hlen = TK2_SHA256_SIZE,
		.label = salt_label,
		.label_len = sizeof(salt_label),
	};

	return tk_oaep_encode(&h, salt, TK2_SHA256_SIZE, seed, em, k);
}

/**
 * tk2_ecc_is_srk() - whether a key is made from the TCG SRK template
 * @k: a parsed public area
 *
 * The ECC NIST P-256 storage key of the TCG Provisioning Guidance, as
 * tk2_cmd_create_srk() asks for it: SHA-256 name, fixedTPM, fixedParent,
 * sensitiveDataOrigin, userWithAuth, noDA, restricted, decrypt, no
 * authPolicy, AES-128-CFB, no scheme, no KDF. The template fixes the kind
 * of key, not the key: it does not make a key genuine (see
 * docs/tpm2-sessions.md).
 *
 * Return: true when every field matches.
 */
bool tk2_ecc_is_srk(const struct tk2_ecc_key *k)
{
	return k->name_alg == TK2_ALG_SHA256 &&
	       k->attrs == (TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT |
			    TK2_OA_SENSITIVE_ORIGIN | TK2_OA_USERWITHAUTH |
			    TK2_OA_NODA | TK2_OA_RESTRICTED | TK2_OA_DECRYPT) &&
	       !k->auth_policy && k->sym_alg == TK2_ALG_AES &&
	       k->sym_bits == 8 * TK2_AES128_KEY_SIZE &&
	       k->sym_mode == TK2_ALG_CFB && k->scheme == TK2_ALG_NULL &&
	       k->curve == TK2_ECC_NIST_P256 && k->kdf == TK2_ALG_NULL;
}

/**
 * tk2_name() - the Name of an object with a SHA-256 name algorithm
 * @c: the caller's primitives
 * @pub: its TPMT_PUBLIC
 * @len: its length
 * @out: nameAlg || SHA-256(@pub) (Part 1 §16, Names)
 *
 * Computed from a public area we hold or have checked, never taken from
 * a response: this is what goes into cpHash.
 *
 * Return: 0, -EINVAL when the name algorithm is not SHA-256, or the
 * primitive's error.
 */
int tk2_name(const struct tk2_crypto *c, const u8 *pub, u32 len,
	     u8 out[TK2_NAME_SIZE])
{
	struct tk_span in = { .p = pub, .len = len };

	if (len < 4 || get_unaligned_be16(pub + 2) != TK2_ALG_SHA256)
		return -EINVAL;
	put_unaligned_be16(TK2_ALG_SHA256, out);
	return c->digest(c->ctx, &in, 1, out + 2);
}

/**
 * tk2_ecc_point() - a TPMS_ECC_POINT of P-256, as encryptedSalt carries it
 * @out: x and y, each a TPM2B of 32 octets
 * @x: the x coordinate, big-endian
 * @y: the y coordinate, big-endian
 */
void tk2_ecc_point(u8 out[TK2_ECC_POINT_SIZE],
		   const u8 x[TK2_ECC_P256_SIZE], const u8 y[TK2_ECC_P256_SIZE])
{
	put_unaligned_be16(TK2_ECC_P256_SIZE, out);
	memcpy(out + 2, x, TK2_ECC_P256_SIZE);
	put_unaligned_be16(TK2_ECC_P256_SIZE, out + 2 + TK2_ECC_P256_SIZE);
	memcpy(out + 4 + TK2_ECC_P256_SIZE, y, TK2_ECC_P256_SIZE);
}

/**
 * tk2_cmd_start_auth_session() - TPM2_StartAuthSession (Part 3 §11.1)
 * @b: the writer
 * @buf: the command buffer
 * @size: its size
 * @tpm_key: the salt key, or TK2_RH_NULL for an unsalted session
 * @bind: the bind entity, or TK2_RH_NULL for an unbound session
 * @nonce_caller: nonceCaller, 16 to 32 octets
 * @encrypted_salt: the contents of encryptedSalt (tk2_ecc_point() for an
 *	ECC key, the OAEP ciphertext for RSA), or NULL when unsalted
 * @type: TK2_SE_HMAC or TK2_SE_POLICY
 *
 * SHA-256 session, AES-128-CFB for parameter encryption.
 *
 * Return: 0, or -E2BIG when @size is too small.
 */
int tk2_cmd_start_auth_session(struct tk_cmd_buf *b, u8 *buf, u32 size,
			       u32 tpm_key, u32 bind,
			       const struct tk_span *nonce_caller,
			       const struct tk_span *encrypted_salt, u8 type)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_START_SESSION);
	tk_cmd_u32(b, tpm_key);
	tk_cmd_u32(b, bind);
	tk2_put_tpm2b(b, nonce_caller->p, nonce_caller->len);
	if (encrypted_salt)
		tk2_put_tpm2b(b, encrypted_salt->p, encrypted_salt->len);
	else
		tk2_put_tpm2b(b, NULL, 0);
	tk_cmd_u8(b, type);
	tk_cmd_u16(b, TK2_ALG_AES);
	tk_cmd_u16(b, 8 * TK2_AES128_KEY_SIZE);
	tk_cmd_u16(b, TK2_ALG_CFB);
	tk_cmd_u16(b, TK2_ALG_SHA256);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_start_auth_session() - the response to StartAuthSession
 * @rsp: the response, in a buffer of @size bytes
 * @size: the buffer's size
 * @handle: the session handle (an HMAC or policy session)
 * @s: receives nonceTPM (16 to 32 octets)
 *
 * Return: 0, the TPM's return code (> 0), or -EBADMSG.
 */
int tk2_rsp_start_auth_session(const u8 *rsp, u32 size, u32 *handle,
			       struct tk2_session *s)
{
	struct tk_span nonce;
	struct tk_rsp_buf r;
	int ret;

	ret = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (ret)
		return ret;
	*handle = tk_rsp_u32(&r);
	tk2_take_tpm2b(&r, TK2_NONCE_MAX, &nonce);
	if (tk_rsp_end(&r) || nonce.len < 16 ||
	    (*handle >> 24 != TK2_HT_HMAC_SESSION &&
	     *handle >> 24 != TK2_HT_POLICY_SESSION))
		return -EBADMSG;
	memcpy(s->nonce_tpm, nonce.p, nonce.len);
	s->nonce_tpm_len = nonce.len;
	return 0;
}
