/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the tests of src/lib/tk2_*: OpenSSL's libcrypto twice over.
 *  - ossl_crypto: the struct tk2_crypto that the code under test runs on
 *    (EVP digest, EVP_MAC HMAC, AES-128-ECB as the block function), with
 *    a switch that makes the Nth digest/HMAC call fail.
 *  - ref_*: the expected values, computed independently of src/lib:
 *    KDFa written again from Part 1 §11.4.10.2 over one contiguous
 *    message, HMAC and SHA-256 one-shot, AES-128-CFB from EVP
 *    (aes-128-cfb128), never from tk2_aes_cfb().
 */
#ifndef TK2_REF_H
#define TK2_REF_H

#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <linux/types.h>
#include "tk2_kdf.h"

struct ossl {
	EVP_CIPHER_CTX *aes;
	int calls;		/* digest + hmac calls so far */
	int fail_at;		/* make call number fail_at fail (0: never) */
};

static inline int ossl_fail(struct ossl *o)
{
	return o->fail_at && ++o->calls == o->fail_at;
}

static inline int ossl_digest(void *ctx, const struct tk_span *in, unsigned int n,
			      u8 out[TK2_SHA256_SIZE])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int i, len = 0;
	int ok;

	if (ossl_fail(ctx)) {
		EVP_MD_CTX_free(md);
		return -EIO;
	}
	ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	for (i = 0; ok && i < n; i++)
		if (in[i].len)
			ok = EVP_DigestUpdate(md, in[i].p, in[i].len);
	ok = ok && EVP_DigestFinal_ex(md, out, &len) && len == TK2_SHA256_SIZE;
	EVP_MD_CTX_free(md);
	return ok ? 0 : -EIO;
}

static inline int ossl_hmac(void *ctx, const u8 *key, u32 key_len,
			    const struct tk_span *in, unsigned int n,
			    u8 out[TK2_SHA256_SIZE])
{
	static const u8 none[1];
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						 "SHA256", 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *m = mac ? EVP_MAC_CTX_new(mac) : NULL;
	size_t len = 0;
	unsigned int i;
	int ok;

	ok = m && !ossl_fail(ctx) &&
	     EVP_MAC_init(m, key_len ? key : none, key_len, params);
	for (i = 0; ok && i < n; i++)
		if (in[i].len)
			ok = EVP_MAC_update(m, in[i].p, in[i].len);
	ok = ok && EVP_MAC_final(m, out, &len, TK2_SHA256_SIZE) &&
	     len == TK2_SHA256_SIZE;
	EVP_MAC_CTX_free(m);
	EVP_MAC_free(mac);
	return ok ? 0 : -EIO;
}

static inline int ossl_aes_setkey(void *ctx, const u8 *key, u32 key_len)
{
	struct ossl *o = ctx;

	if (key_len != 16 ||
	    !EVP_EncryptInit_ex(o->aes, EVP_aes_128_ecb(), NULL, key, NULL))
		return -EINVAL;
	EVP_CIPHER_CTX_set_padding(o->aes, 0);
	return 0;
}

static inline void ossl_aes_encrypt(void *ctx, u8 out[16], const u8 in[16])
{
	struct ossl *o = ctx;
	int len;

	if (!EVP_EncryptUpdate(o->aes, out, &len, in, 16) || len != 16)
		abort();
}

static struct ossl ossl_state;

static inline const struct tk2_crypto *ossl_crypto(int fail_at)
{
	static struct tk2_crypto c = {
		.ctx = &ossl_state,
		.digest = ossl_digest,
		.hmac = ossl_hmac,
		.aes_setkey = ossl_aes_setkey,
		.aes_encrypt = ossl_aes_encrypt,
	};

	if (!ossl_state.aes)
		ossl_state.aes = EVP_CIPHER_CTX_new();
	ossl_state.calls = 0;
	ossl_state.fail_at = fail_at;
	return &c;
}

static inline void ossl_done(void)
{
	EVP_CIPHER_CTX_free(ossl_state.aes);
	ossl_state.aes = NULL;
}

/* ---- the independent side ---- */

static inline void ref_hmac(const u8 *key, size_t key_len, const u8 *msg,
			    size_t len, u8 out[32])
{
	static const u8 none[1];
	size_t n = 0;

	if (!EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL,
		       key_len ? key : none, key_len, msg, len, out, 32, &n) ||
	    n != 32)
		abort();
}

static inline void ref_sha256(const u8 *msg, size_t len, u8 out[32])
{
	unsigned int n = 0;

	if (!EVP_Digest(msg, len, out, &n, EVP_sha256(), NULL) || n != 32)
		abort();
}

static inline size_t ref_put(u8 *p, const void *src, size_t n)
{
	if (n)
		memcpy(p, src, n);
	return n;
}

static inline size_t ref_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
	return 4;
}

/*
 * KDFa (Part 1 §11.4.10.2): K(i) = HMAC(key, [i]32 || Label || 00 ||
 * Context || [L]32), Context = contextU || contextV; the result is the
 * leftmost L bits of K(1) || K(2) || ..., the excess high bits of the
 * first octet cleared.
 */
static inline void ref_kdfa(const u8 *key, size_t key_len, const char *label,
			    const u8 *u, size_t ulen, const u8 *v, size_t vlen,
			    u32 bits, u8 *out)
{
	size_t len = (bits + 7) / 8, done, take, m;
	u8 msg[1024], k[32];
	u32 i;

	for (i = 1, done = 0; done < len; i++, done += take) {
		m = ref_be32(msg, i);
		m += ref_put(msg + m, label, strlen(label));
		msg[m++] = 0;
		m += ref_put(msg + m, u, ulen);
		m += ref_put(msg + m, v, vlen);
		m += ref_be32(msg + m, bits);
		ref_hmac(key, key_len, msg, m, k);
		take = len - done < 32 ? len - done : 32;
		memcpy(out + done, k, take);
	}
	if (bits % 8)
		out[0] &= 0xff >> (8 - bits % 8);
}

/* AES-128-CFB (cfb128) from EVP. */
static inline void ref_cfb(const u8 key[16], const u8 iv[16], const u8 *in,
			   size_t len, u8 *out, int enc)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, f = 0;

	if (!x || !EVP_CipherInit_ex(x, EVP_aes_128_cfb128(), NULL, key, iv,
				     enc) ||
	    !EVP_CipherUpdate(x, out, &n, in, (int)len) ||
	    !EVP_CipherFinal_ex(x, out + n, &f) || (size_t)(n + f) != len)
		abort();
	EVP_CIPHER_CTX_free(x);
}

/* Hex string to bytes; returns the count. */
static inline size_t unhex(u8 *out, const char *hex)
{
	size_t n = 0;
	unsigned int b;

	while (hex[0] && hex[1] && sscanf(hex, "%2x", &b) == 1) {
		out[n++] = (u8)b;
		hex += 2;
	}
	return n;
}

#endif /* TK2_REF_H */
