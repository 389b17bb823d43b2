// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 1.2 encrypted transport sessions for trusted keys. Formats as the
 * TPM checks them (Part 3 §24.1 TPM_EstablishTransport, §24.2
 * TPM_ExecuteTransport):
 *
 *  H1 = SHA-1(ORDw || DATAw), DATAw the wrapped command's parameters
 *       after its handles and before its auth trailers, in clear
 *  inParamDigest  = SHA-1(ORDet || wrappedCmdSize || H1)
 *  H2 = SHA-1(RCw || ORDw || S2), S2 the wrapped response's parameters
 *       (none when RCw is not 0)
 *  outParamDigest = SHA-1(RCet || ORDet || currentTicks || locality ||
 *                          wrappedRspSize || H2)
 *  transAuth = HMAC-SHA1(authData, digest || nonceEven || nonceOdd || cont)
 *  DATAw ^= MGF1(lastNonceEven || nonceOdd || "in" || authData)
 *  S2    ^= MGF1(newNonceEven  || nonceOdd || "out" || authData)
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include "tk_buf.h"
#include "tk_der.h"
#include "tk_oaep.h"
#include "tk1_msg.h"
#include "tk1_transport.h"

#define EXEC_HEADER	(TK_TPM_HEADER_SIZE + 4)	/* + wrappedCmdSize */

static const u8 oaep_label[4] = { 'T', 'C', 'P', 'A' };

/* SHA-1 as an OAEP/MGF1 hash, label "TCPA" (unused by MGF1 alone). */
static struct tk_oaep sha1_oaep(const struct tk1_crypto *c)
{
	return (struct tk_oaep){
		.ctx = c->ctx,
		.hash = c->sha1,
		.hlen = TK1_DIGEST_SIZE,
		.label = oaep_label,
		.label_len = sizeof(oaep_label),
	};
}

/**
 * tk1_mgf1_xor() - XOR a buffer with MGF1-SHA1 of a seed
 * @c: the primitives
 * @seed: the seed, as the concatenation of @n spans (at most 4)
 * @n: how many
 * @buf: the buffer, changed in place
 * @len: its length
 *
 * Return: 0 or a negative errno.
 */
int tk1_mgf1_xor(const struct tk1_crypto *c, const struct tk_span *seed,
		 unsigned int n, u8 *buf, u32 len)
{
	struct tk_oaep h = sha1_oaep(c);

	return tk_mgf1_xor(&h, seed, n, buf, len);
}

/**
 * tk1_oaep_encode() - RSAES-OAEP encoding (PKCS#1 v2.1), SHA-1, label "TCPA"
 * @c: the primitives
 * @msg: the message
 * @msg_len: its length, at most @k - 42
 * @seed: 20 random bytes
 * @em: the encoded message, @k bytes
 * @k: the modulus size in bytes
 *
 * Return: 0, -EINVAL when @msg does not fit, or the hash's errno.
 */
int tk1_oaep_encode(const struct tk1_crypto *c, const u8 *msg, u32 msg_len,
		    const u8 *seed, u8 *em, u32 k)
{
	struct tk_oaep h = sha1_oaep(c);

	if (k < TK1_RSA_MIN_BYTES || k > TK1_RSA_MAX_BYTES)
		return -EINVAL;
	return tk_oaep_encode(&h, msg, msg_len, seed, em, k);
}

/**
 * tk1_rsa_pub_der() - an RSAPublicKey (PKCS#1) in DER, for the crypto API
 * @out: where to write it
 * @size: its size
 * @modulus: the modulus, big-endian
 * @exponent: the public exponent
 *
 * Return: the length written, or -E2BIG.
 */
int tk1_rsa_pub_der(u8 *out, u32 size, const struct tk_span *modulus,
		    u32 exponent)
{
	u32 lead = modulus->len && (modulus->p[0] & 0x80) ? 1 : 0;
	u32 mlen = modulus->len + lead;
	u32 body = tk_der_size(mlen) + tk_der_size(tk_der_u32_size(exponent));
	struct tk_cmd_buf w;

	tk_cmd_init(&w, out, size);
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, body);
	tk_der_put_hdr(&w, TK_DER_INTEGER, mlen);
	if (lead)
		tk_cmd_u8(&w, 0);
	tk_cmd_bytes(&w, modulus->p, modulus->len);
	tk_der_put_u32(&w, exponent);
	return w.bad ? -E2BIG : (int)w.len;
}

/**
 * tk1_get_pubkey_params() - write TPM_GetPubKey up to its authorisation
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @keyhandle: the key
 * @params: the span the request HMAC covers after the ordinal (empty)
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk1_get_pubkey_params(struct tk_cmd_buf *b, u8 *buf, u32 size,
			  u32 keyhandle, struct tk_span *params)
{
	tk_cmd_start(b, buf, size, TK1_TAG_RQU_AUTH1_COMMAND,
		     TK1_ORD_GET_PUBKEY);
	tk_cmd_u32(b, keyhandle);
	return tk1_params_span(b, b->len, params);
}

/**
 * tk1_parse_pubkey() - parse the response to TPM_GetPubKey
 * @rsp: the response
 * @size: the size of its buffer
 * @out: the TPM_PUBKEY span, its RSA modulus and exponent, the trailer
 *
 * Only an RSA key of 1024 to 2048 bits is taken, its exponent as its
 * TPM_RSA_KEY_PARMS states it (exponentSize 0 means 65537).
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed, has bytes left over or is no RSA key.
 */
int tk1_parse_pubkey(const u8 *rsp, u32 size, struct tk1_pubkey *out)
{
	struct tk_rsp_buf r;
	u32 alg, parm_size, parm_end, klen, n, i;
	const u8 *e;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_AUTH1_COMMAND);
	if (rc)
		return rc;
	out->params.p = rsp + r.pos;
	alg = tk_rsp_u32(&r);
	out->enc_scheme = tk_rsp_u16(&r);
	tk_rsp_u16(&r);				/* sigScheme */
	parm_size = tk_rsp_u32(&r);
	parm_end = r.pos + parm_size;
	tk_rsp_u32(&r);				/* keyLength, in bits */
	tk_rsp_u32(&r);				/* numPrimes */
	n = tk_rsp_u32(&r);			/* exponentSize */
	e = tk_rsp_bytes(&r, n);
	if (r.bad || alg != TK1_ALG_RSA || n > 4 || r.pos != parm_end)
		return -EBADMSG;
	out->exponent = n ? 0 : 65537;
	for (i = 0; i < n; i++)
		out->exponent = out->exponent << 8 | e[i];
	klen = tk_rsp_u32(&r);
	out->modulus.p = tk_rsp_bytes(&r, klen);
	out->modulus.len = klen;
	out->params.len = rsp + r.pos - out->params.p;
	tk1_take_auth(&r, &out->auth);
	if (tk_rsp_end(&r) || klen < TK1_RSA_MIN_BYTES ||
	    klen > TK1_RSA_MAX_BYTES || !(out->modulus.p[0] & 0x80) ||
	    out->exponent < 3 || !(out->exponent & 1))
		return -EBADMSG;
	return 0;
}

/**
 * tk1_establish_params() - write TPM_EstablishTransport up to its authorisation
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @enchandle: the key the secret is encrypted to
 * @secret: the encrypted TPM_TRANSPORT_AUTH
 * @secret_len: its length
 * @params: the span the request HMAC covers, after the ordinal
 *
 * The session asks for TPM_TRANSPORT_ENCRYPT with TPM_ALG_MGF1.
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk1_establish_params(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 u32 enchandle, const u8 *secret, u32 secret_len,
			 struct tk_span *params)
{
	u32 start;

	tk_cmd_start(b, buf, size, TK1_TAG_RQU_AUTH1_COMMAND,
		     TK1_ORD_ESTABLISH_TRANSPORT);
	tk_cmd_u32(b, enchandle);
	start = b->len;
	tk_cmd_u16(b, TK1_TAG_TRANSPORT_PUBLIC);
	tk_cmd_u32(b, TK1_TRANSPORT_ENCRYPT);
	tk_cmd_u32(b, TK1_ALG_MGF1);
	tk_cmd_u16(b, TK1_ES_NONE);
	tk_cmd_u32(b, secret_len);
	tk_cmd_bytes(b, secret, secret_len);
	return tk1_params_span(b, start, params);
}

/**
 * tk1_parse_establish() - parse the response to TPM_EstablishTransport
 * @rsp: the response
 * @size: the size of its buffer
 * @out: the transport handle, the HMAC's span, transNonceEven, the trailer
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed or has bytes left over.
 */
int tk1_parse_establish(const u8 *rsp, u32 size,
			struct tk1_establish_out *out)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_AUTH1_COMMAND);
	if (rc)
		return rc;
	out->handle = tk_rsp_u32(&r);
	out->params.p = rsp + r.pos;
	tk_rsp_u32(&r);				/* locality */
	/* TPM_CURRENT_TICKS: tag(2) currentTicks(8) tickRate(2) nonce(20) */
	tk_rsp_bytes(&r, 2 + 8 + 2 + TK1_NONCE_SIZE);
	out->nonce_even = tk_rsp_bytes(&r, TK1_NONCE_SIZE);
	out->params.len = rsp + r.pos - out->params.p;
	tk1_take_auth(&r, &out->auth);
	return tk_rsp_end(&r);
}

/* The length of the auth trailers a command (@rsp false) or response has. */
static int trailers(u16 tag, bool rsp)
{
	switch (tag) {
	case TK1_TAG_RQU_COMMAND:
	case TK1_TAG_RSP_COMMAND:
		return 0;
	case TK1_TAG_RQU_AUTH1_COMMAND:
	case TK1_TAG_RSP_AUTH1_COMMAND:
		return rsp ? TK1_AUTH_OUT_SIZE : TK1_AUTH_IN_SIZE;
	case TK1_TAG_RQU_AUTH2_COMMAND:
	case TK1_TAG_RSP_AUTH2_COMMAND:
		return 2 * (rsp ? TK1_AUTH_OUT_SIZE : TK1_AUTH_IN_SIZE);
	}
	return -EINVAL;
}

/* The MGF1 pad of a transport: nonce_even || nonce_odd || dir || authData */
static int transport_xor(const struct tk1_crypto *c, const u8 *auth,
			 const u8 *even, const u8 *odd, const char *dir,
			 u8 *buf, u32 len)
{
	struct tk_span seed[4] = {
		{ even, TK1_NONCE_SIZE },
		{ odd, TK1_NONCE_SIZE },
		{ (const u8 *)dir, strlen(dir) },
		{ auth, TK1_DIGEST_SIZE },
	};

	return len ? tk1_mgf1_xor(c, seed, 4, buf, len) : 0;
}

/* SHA-1(@a || @b) into @out. */
static int sha1_two(const struct tk1_crypto *c, const u8 *a, u32 a_len,
		    const u8 *b, u32 b_len, u8 *out)
{
	struct tk_span s[2] = {
		{ a, a_len },
		{ b, b_len },
	};

	return c->sha1(c->ctx, s, 2, out);
}

static int auth_hmac(const struct tk1_crypto *c, const u8 *key,
		     const u8 *digest, const u8 *even, const u8 *odd,
		     const u8 *cont, u8 *out)
{
	struct tk_span s[4] = {
		{ digest, TK1_DIGEST_SIZE },
		{ even, TK1_NONCE_SIZE },
		{ odd, TK1_NONCE_SIZE },
		{ cont, 1 },
	};

	return c->hmac(c->ctx, key, s, 4, out);
}

/**
 * tk1_transport_wrap() - wrap a command into TPM_ExecuteTransport, in place
 * @c: the primitives
 * @t: the transport session
 * @buf: the command on entry, TPM_ExecuteTransport on return
 * @size: the size of @buf
 * @handles: how many handles the wrapped command has after its header
 * @nonce_odd: transNonceOdd, 20 fresh random bytes
 *
 * The session is asked to continue (continueTransSession TRUE) unless
 * @t->last: then the TPM ends it with this command. A caller that ends
 * otherwise flushes it (TPM_FlushSpecific, TK1_RT_TRANS); the TPM ends it
 * itself when TPM_ExecuteTransport fails.
 *
 * Return: 0, -EINVAL when the command in @buf is malformed, -E2BIG when the
 * wrapped command does not fit, or the primitives' errno.
 */
int tk1_transport_wrap(const struct tk1_crypto *c,
		       const struct tk1_transport *t, u8 *buf, u32 size,
		       u32 handles, const u8 *nonce_odd)
{
	u8 h1[TK1_DIGEST_SIZE], digest[TK1_DIGEST_SIZE], hmac[TK1_DIGEST_SIZE];
	u8 words[8], cont = !t->last;
	struct tk_cmd_buf b;
	u32 len, start, end;
	int auth_len, ret;

	if (size < TK_TPM_HEADER_SIZE)
		return -EINVAL;
	len = get_unaligned_be32(buf + 2);
	auth_len = trailers(get_unaligned_be16(buf), false);
	start = TK_TPM_HEADER_SIZE + 4 * handles;
	if (auth_len < 0 || handles > 2 || len > size ||
	    len < start + (u32)auth_len)
		return -EINVAL;
	end = len - auth_len;
	if (size < EXEC_HEADER || len > size - EXEC_HEADER - TK1_AUTH_IN_SIZE)
		return -E2BIG;

	/* H1 = SHA-1(ORDw || DATAw); inParamDigest = SHA-1(ORDet || size || H1) */
	ret = sha1_two(c, buf + 6, 4, buf + start, end - start, h1);
	if (ret)
		goto out;
	put_unaligned_be32(TK1_ORD_EXECUTE_TRANSPORT, words);
	put_unaligned_be32(len, words + 4);
	ret = sha1_two(c, words, 8, h1, TK1_DIGEST_SIZE, digest);
	if (!ret)
		ret = auth_hmac(c, t->auth, digest, t->nonce_even, nonce_odd,
				&cont, hmac);
	if (!ret)
		ret = transport_xor(c, t->auth, t->nonce_even, nonce_odd, "in",
				    buf + start, end - start);
	if (ret)
		goto out;

	memmove(buf + EXEC_HEADER, buf, len);
	tk_cmd_start(&b, buf, size, TK1_TAG_RQU_AUTH1_COMMAND,
		     TK1_ORD_EXECUTE_TRANSPORT);
	tk_cmd_u32(&b, len);
	b.len += len;
	tk_cmd_u32(&b, t->handle);
	tk_cmd_bytes(&b, nonce_odd, TK1_NONCE_SIZE);
	tk_cmd_u8(&b, cont);
	tk_cmd_bytes(&b, hmac, TK1_DIGEST_SIZE);
	ret = tk_cmd_end(&b);
out:
	memzero_explicit(h1, sizeof(h1));
	return ret;
}

/**
 * tk1_transport_unwrap() - check and decrypt a TPM_ExecuteTransport response
 * @c: the primitives
 * @t: the transport session; its nonceEven rolls on success
 * @buf: the response on entry, the wrapped response (decrypted) on return
 * @size: the size of @buf
 * @ordinal: the wrapped command's ordinal
 * @nonce_odd: the transNonceOdd of the request
 *
 * The wrapped command's response has no handles (GetRandom, Seal, Unseal).
 *
 * Return: 0 (the wrapped response may still carry an error: its own
 * parser reads it); the TPM's return code (> 0) for TPM_ExecuteTransport
 * itself, which ended the session; -EBADMSG when malformed; -EINVAL when
 * the transport HMAC does not match; or the primitives' errno.
 */
int tk1_transport_unwrap(const struct tk1_crypto *c, struct tk1_transport *t,
			 u8 *buf, u32 size, u32 ordinal, const u8 *nonce_odd)
{
	u8 h2[TK1_DIGEST_SIZE], digest[TK1_DIGEST_SIZE], hmac[TK1_DIGEST_SIZE];
	const u8 *even, *mac, *cont;
	u8 words[8], *w, *s2 = NULL;
	struct tk_rsp_buf r;
	struct tk_span s[3];
	u32 wlen, rcw, len2 = 0;
	int auth_len, ret;

	ret = tk_rsp_open(&r, buf, size, TK1_TAG_RSP_AUTH1_COMMAND);
	if (ret)
		return ret;
	tk_rsp_bytes(&r, 8 + 4);		/* currentTicks, locality */
	wlen = tk_rsp_u32(&r);
	w = (u8 *)tk_rsp_bytes(&r, wlen);
	even = tk_rsp_bytes(&r, TK1_NONCE_SIZE);
	cont = tk_rsp_bytes(&r, 1);
	mac = tk_rsp_bytes(&r, TK1_DIGEST_SIZE);
	if (tk_rsp_end(&r) || wlen < TK_TPM_HEADER_SIZE ||
	    get_unaligned_be32(w + 2) != wlen)
		return -EBADMSG;
	rcw = get_unaligned_be32(w + 6);
	if (!rcw) {
		auth_len = trailers(get_unaligned_be16(w), true);
		if (auth_len < 0 ||
		    wlen < TK_TPM_HEADER_SIZE + (u32)auth_len)
			return -EBADMSG;
		s2 = w + TK_TPM_HEADER_SIZE;
		len2 = wlen - TK_TPM_HEADER_SIZE - auth_len;
	}
	ret = transport_xor(c, t->auth, even, nonce_odd, "out", s2, len2);
	if (ret)
		return ret;

	/* H2 = SHA-1(RCw || ORDw || S2) */
	memcpy(words, w + 6, 4);
	put_unaligned_be32(ordinal, words + 4);
	ret = sha1_two(c, words, 8, s2, len2, h2);
	if (ret)
		goto out;
	/* SHA-1(RCet || ORDet || currentTicks || locality || size || H2) */
	put_unaligned_be32(0, words);
	put_unaligned_be32(TK1_ORD_EXECUTE_TRANSPORT, words + 4);
	s[0].p = words;
	s[0].len = 8;
	s[1].p = buf + TK_TPM_HEADER_SIZE;
	s[1].len = 8 + 4 + 4;
	s[2].p = h2;
	s[2].len = TK1_DIGEST_SIZE;
	ret = c->sha1(c->ctx, s, 3, digest);
	if (!ret)
		ret = auth_hmac(c, t->auth, digest, even, nonce_odd, cont,
				hmac);
	if (ret)
		goto out;
	if (crypto_memneq(hmac, mac, TK1_DIGEST_SIZE)) {
		ret = -EINVAL;
		goto out;
	}
	memcpy(t->nonce_even, even, TK1_NONCE_SIZE);
	memmove(buf, w, wlen);
out:
	if (ret)	/* nothing decrypted is left behind */
		memzero_explicit(w, wlen);
	memzero_explicit(h2, sizeof(h2));
	return ret;
}
