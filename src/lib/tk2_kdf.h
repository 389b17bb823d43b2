/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TPM 2.0 key derivation for SHA-256 sessions (TPM 2.0 Library, Part 1):
 * KDFa (§11.4.10.2, SP800-108 counter mode over HMAC) and KDFe
 * (§11.4.10.3, SP800-56A concatenation KDF over the hash), and the values
 * derived with them: a session key (§19.6.8), the AES-128-CFB key and IV of
 * parameter encryption (§21.3), and the seed of an ECDH salt (§C.6.1).
 *
 * Kernel-free: the hash, the HMAC and the AES block cipher are the
 * caller's (struct tk2_crypto), so the same code runs over the kernel's
 * SHA-256/AES libraries or crypto API and, in the host tests, over
 * OpenSSL. Every intermediate secret is wiped before return.
 */
#ifndef TK2_KDF_H
#define TK2_KDF_H

#include <linux/types.h>
#include "tk1_msg.h"	/* struct tk_span */

#define TK2_SHA256_SIZE		32
#define TK2_AES128_KEY_SIZE	16
#define TK2_AES_BLOCK_SIZE	16
#define TK2_AUTH_MAX		64	/* TPM2B_AUTH: sizeof(TPMU_HA) */
/* The HMAC key sessionKey || authValue, the longest KDFa key we take. */
#define TK2_HMAC_KEY_MAX	(TK2_SHA256_SIZE + TK2_AUTH_MAX)
#define TK2_KDF_BYTES_MAX	256	/* what one call may derive */

/*
 * The primitives, provided by the caller; @ctx is passed back to each.
 * @digest:  SHA-256 of the concatenation of @n spans.
 * @hmac:    HMAC-SHA256 keyed with @key (any length) over @n spans.
 * @aes_setkey: expand an AES key into the caller's state (held in @ctx,
 *           which the caller wipes when the session ends).
 * @aes_encrypt: one AES block with the key last set.
 * The first three return 0 or a negative errno.
 */
struct tk2_crypto {
	void *ctx;
	int (*digest)(void *ctx, const struct tk_span *in, unsigned int n,
		      u8 out[TK2_SHA256_SIZE]);
	int (*hmac)(void *ctx, const u8 *key, u32 key_len,
		    const struct tk_span *in, unsigned int n,
		    u8 out[TK2_SHA256_SIZE]);
	int (*aes_setkey)(void *ctx, const u8 *key, u32 key_len);
	void (*aes_encrypt)(void *ctx, u8 out[TK2_AES_BLOCK_SIZE],
			    const u8 in[TK2_AES_BLOCK_SIZE]);
};

u32 tk2_auth_len(const u8 *auth, u32 len);

int tk2_kdfa(const struct tk2_crypto *c, const u8 *key, u32 key_len,
	     const char *label, const struct tk_span *context_u,
	     const struct tk_span *context_v, u32 bits, u8 *out);

int tk2_kdfe(const struct tk2_crypto *c, const u8 *z, u32 z_len,
	     const char *use, const struct tk_span *party_u,
	     const struct tk_span *party_v, u32 bits, u8 *out);

int tk2_session_key(const struct tk2_crypto *c, const u8 *bind_auth,
		    u16 bind_auth_len, const u8 *salt, u16 salt_len,
		    const struct tk_span *nonce_tpm,
		    const struct tk_span *nonce_caller,
		    u8 out[TK2_SHA256_SIZE]);

int tk2_ecdh_salt(const struct tk2_crypto *c, const u8 *z, u32 z_len,
		  const u8 *ephemeral_x, u32 ephemeral_x_len,
		  const u8 *tpm_key_x, u32 tpm_key_x_len,
		  u8 out[TK2_SHA256_SIZE]);

int tk2_cfb_key(const struct tk2_crypto *c, const u8 *session_value,
		u32 session_value_len, const struct tk_span *nonce_newer,
		const struct tk_span *nonce_older,
		u8 out[TK2_AES128_KEY_SIZE + TK2_AES_BLOCK_SIZE]);

void tk2_aes_cfb(const struct tk2_crypto *c, u8 iv[TK2_AES_BLOCK_SIZE],
		 u8 *buf, u32 len, bool decrypt);

/*
 * RSA-OAEP salt (Part 1 Annex B.10.3, for an RSA parent): the salt is
 * OAEP-encrypted to the parent with this label, its NUL included.
 */
#define TK2_OAEP_SALT_LABEL	"SECRET"
#define TK2_OAEP_SALT_LABEL_LEN	7

#endif /* TK2_KDF_H */
