// SPDX-License-Identifier: GPL-2.0
/*
 * KDFa and KDFe of TPM 2.0 (Part 1 §11.4.10) for SHA-256, and the session
 * values derived with them. Both produce ceil(bits / 8) octets; when bits
 * is not a multiple of 8 the unused high bits of the first octet are
 * cleared, as the specification's reference code does.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include "tk2_kdf.h"

/*
 * The counter loop: block i (from 1) is HMAC(@key, [i]32 || @in[1..n-1])
 * for KDFa, SHA-256([i]32 || @in[1..n-1]) for KDFe; in[0] is the
 * counter, filled in here. Writes ceil(bits / 8) octets to @out.
 */
static int counter_kdf(const struct tk2_crypto *c, bool hmac, const u8 *key,
		       u32 key_len, struct tk_span *in, unsigned int n,
		       u32 bits, u8 *out)
{
	u8 block[TK2_SHA256_SIZE], ctr[4];
	u32 len = bits / 8 + (bits % 8 ? 1 : 0);
	u32 done, i;
	int ret = 0;

	if (!bits || len > TK2_KDF_BYTES_MAX)
		return -EINVAL;
	in[0].p = ctr;
	in[0].len = sizeof(ctr);
	for (i = 1, done = 0; done < len; i++) {
		u32 take = len - done < TK2_SHA256_SIZE ? len - done :
							  TK2_SHA256_SIZE;

		put_unaligned_be32(i, ctr);
		if (hmac)
			ret = c->hmac(c->ctx, key, key_len, in, n, block);
		else
			ret = c->digest(c->ctx, in, n, block);
		if (ret)
			break;
		memcpy(out + done, block, take);
		done += take;
	}
	memzero_explicit(block, sizeof(block));
	if (ret) {
		memzero_explicit(out, len);
		return ret;
	}
	if (bits % 8)
		out[0] &= (1u << (bits % 8)) - 1;
	return 0;
}

/**
 * tk2_auth_len() - the length of an authValue as the TPM uses it
 * @auth: the authValue
 * @len: its length as given
 *
 * The TPM removes trailing zero octets from an authValue (Part 1 §19.6)
 * and keys its HMACs with what remains; a caller must do the same.
 *
 * Return: @len less the trailing zero octets of @auth.
 */
u32 tk2_auth_len(const u8 *auth, u32 len)
{
	while (len && !auth[len - 1])
		len--;
	return len;
}

static struct tk_span opt(const struct tk_span *s)
{
	return s ? *s : (struct tk_span){ .p = NULL, .len = 0 };
}

/**
 * tk2_kdfa() - KDFa with HMAC-SHA256 (TPM 2.0 Part 1 §11.4.10.2)
 * @c: the caller's primitives
 * @key: the HMAC key
 * @key_len: its length
 * @label: a NUL-terminated label; the NUL is part of the input
 * @context_u: contextU, or NULL for none
 * @context_v: contextV, or NULL for none
 * @bits: how many bits to derive (at most 8 * TK2_KDF_BYTES_MAX)
 * @out: ceil(@bits / 8) octets
 *
 * Block i is HMAC(key, [i]32 || label || 0x00 || contextU || contextV ||
 * [bits]32).
 *
 * Return: 0, -EINVAL for a size out of range, or the primitive's error
 * (then @out is zeroed).
 */
int tk2_kdfa(const struct tk2_crypto *c, const u8 *key, u32 key_len,
	     const char *label, const struct tk_span *context_u,
	     const struct tk_span *context_v, u32 bits, u8 *out)
{
	u8 nbits[4];
	struct tk_span in[5] = {
		[1] = { .p = (const u8 *)label, .len = strlen(label) + 1 },
		[2] = opt(context_u),
		[3] = opt(context_v),
		[4] = { .p = nbits, .len = sizeof(nbits) },
	};

	put_unaligned_be32(bits, nbits);
	return counter_kdf(c, true, key, key_len, in, 5, bits, out);
}

/**
 * tk2_kdfe() - KDFe with SHA-256 (TPM 2.0 Part 1 §11.4.10.3)
 * @c: the caller's primitives
 * @z: the shared secret Z (for ECDH, the x coordinate of the shared point)
 * @z_len: its length
 * @use: a NUL-terminated label; the NUL is part of the input
 * @party_u: PartyUInfo, or NULL for none
 * @party_v: PartyVInfo, or NULL for none
 * @bits: how many bits to derive (at most 8 * TK2_KDF_BYTES_MAX)
 * @out: ceil(@bits / 8) octets
 *
 * Block i is SHA-256([i]32 || Z || use || 0x00 || PartyUInfo || PartyVInfo).
 *
 * Return: 0, -EINVAL for a size out of range, or the primitive's error
 * (then @out is zeroed).
 */
int tk2_kdfe(const struct tk2_crypto *c, const u8 *z, u32 z_len,
	     const char *use, const struct tk_span *party_u,
	     const struct tk_span *party_v, u32 bits, u8 *out)
{
	struct tk_span in[5] = {
		[1] = { .p = z, .len = z_len },
		[2] = { .p = (const u8 *)use, .len = strlen(use) + 1 },
		[3] = opt(party_u),
		[4] = opt(party_v),
	};

	return counter_kdf(c, false, NULL, 0, in, 5, bits, out);
}

/**
 * tk2_session_key() - the sessionKey of an HMAC or policy session
 * @c: the caller's primitives
 * @bind_auth: authValue of the bind entity (NULL when unbound); its
 *	trailing zero octets are left out, as the TPM does
 * @bind_auth_len: its length, at most TK2_AUTH_MAX
 * @salt: the decrypted salt (NULL when unsalted)
 * @salt_len: its length, at most TK2_SHA256_SIZE
 * @nonce_tpm: nonceTPM of the StartAuthSession response
 * @nonce_caller: nonceCaller of the StartAuthSession command
 * @out: the session key
 *
 * sessionKey = KDFa(SHA-256, bind.authValue || salt, "ATH", nonceTPM,
 * nonceCaller, 256) (Part 1 §19.6.8). A session neither bound nor salted
 * has an empty session key: the caller must not call this then.
 *
 * Return: 0, -EINVAL for sizes out of range or no key at all, or the
 * primitive's error.
 */
int tk2_session_key(const struct tk2_crypto *c, const u8 *bind_auth,
		    u16 bind_auth_len, const u8 *salt, u16 salt_len,
		    const struct tk_span *nonce_tpm,
		    const struct tk_span *nonce_caller,
		    u8 out[TK2_SHA256_SIZE])
{
	u8 key[TK2_AUTH_MAX + TK2_SHA256_SIZE];
	int ret;

	if (bind_auth_len > TK2_AUTH_MAX || salt_len > TK2_SHA256_SIZE)
		return -EINVAL;
	bind_auth_len = tk2_auth_len(bind_auth, bind_auth_len);
	if (!(bind_auth_len + salt_len))
		return -EINVAL;
	if (bind_auth_len)
		memcpy(key, bind_auth, bind_auth_len);
	if (salt_len)
		memcpy(key + bind_auth_len, salt, salt_len);
	ret = tk2_kdfa(c, key, bind_auth_len + salt_len, "ATH", nonce_tpm,
		       nonce_caller, 8 * TK2_SHA256_SIZE, out);
	memzero_explicit(key, sizeof(key));
	return ret;
}

/**
 * tk2_ecdh_salt() - the salt of a session salted to an ECC P-256 key
 * @c: the caller's primitives
 * @z: x coordinate of the shared point (ephemeral private * TPM public)
 * @z_len: its length (32 for P-256)
 * @ephemeral_x: x coordinate of our ephemeral public point (PartyUInfo)
 * @ephemeral_x_len: its length
 * @tpm_key_x: x coordinate of the TPM key's public point (PartyVInfo)
 * @tpm_key_x_len: its length
 * @out: the salt, as many octets as the key's nameAlg digest (SHA-256)
 *
 * salt = KDFe(SHA-256, Z, "SECRET", QeU.x, QsV.x, 256) (Part 1 §C.6.1).
 * The caller sends the ephemeral point as encryptedSalt.
 *
 * Return: 0 or an errno, as tk2_kdfe().
 */
int tk2_ecdh_salt(const struct tk2_crypto *c, const u8 *z, u32 z_len,
		  const u8 *ephemeral_x, u32 ephemeral_x_len,
		  const u8 *tpm_key_x, u32 tpm_key_x_len,
		  u8 out[TK2_SHA256_SIZE])
{
	struct tk_span u = { .p = ephemeral_x, .len = ephemeral_x_len };
	struct tk_span v = { .p = tpm_key_x, .len = tpm_key_x_len };

	return tk2_kdfe(c, z, z_len, "SECRET", &u, &v, 8 * TK2_SHA256_SIZE,
			out);
}

/**
 * tk2_cfb_key() - key and IV of AES-128-CFB parameter encryption
 * @c: the caller's primitives
 * @session_value: sessionKey || authValue (Part 1 §21.1)
 * @session_value_len: its length
 * @nonce_newer: nonceCaller for a command, nonceTPM for a response
 * @nonce_older: the other nonce
 * @out: the AES-128 key, then the IV
 *
 * KDFa(SHA-256, sessionValue, "CFB", nonceNewer, nonceOlder, 128 + 128)
 * (Part 1 §21.3).
 *
 * Return: 0 or an errno, as tk2_kdfa().
 */
int tk2_cfb_key(const struct tk2_crypto *c, const u8 *session_value,
		u32 session_value_len, const struct tk_span *nonce_newer,
		const struct tk_span *nonce_older,
		u8 out[TK2_AES128_KEY_SIZE + TK2_AES_BLOCK_SIZE])
{
	return tk2_kdfa(c, session_value, session_value_len, "CFB",
			nonce_newer, nonce_older,
			8 * (TK2_AES128_KEY_SIZE + TK2_AES_BLOCK_SIZE), out);
}

/**
 * tk2_aes_cfb() - AES-CFB (full-block feedback) in place
 * @c: the caller's primitives, with the key set by @c->aes_setkey
 * @iv: the IV; on return the feedback block (wipe it)
 * @buf: the data
 * @len: its length; the last block may be partial
 * @decrypt: true to decrypt
 *
 * Each output block is the input block XOR E(previous ciphertext block),
 * the first one XOR E(IV).
 */
void tk2_aes_cfb(const struct tk2_crypto *c, u8 iv[TK2_AES_BLOCK_SIZE],
		 u8 *buf, u32 len, bool decrypt)
{
	u8 ks[TK2_AES_BLOCK_SIZE];
	u32 i, n;

	while (len) {
		n = len < TK2_AES_BLOCK_SIZE ? len : TK2_AES_BLOCK_SIZE;
		c->aes_encrypt(c->ctx, ks, iv);
		for (i = 0; i < n; i++) {
			u8 x = buf[i];

			buf[i] = x ^ ks[i];
			iv[i] = decrypt ? x : buf[i];
		}
		buf += n;
		len -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}
