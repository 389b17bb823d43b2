/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TPM 2.0 authorisation sessions on the wire (TPM 2.0 Library, Part 1
 * §18-§21, Part 2 §10.13, Part 3 §11.1): put the session area into a
 * command that a tk2_msg builder wrote, with its HMAC and the first
 * parameter encrypted; check a response's session area, its HMAC in
 * constant time, and decrypt its first parameter, before the caller's
 * parser sees a byte of it. StartAuthSession for a session salted to an
 * ECC key. SHA-256 sessions with AES-128-CFB only. Kernel-free.
 */
#ifndef TK2_SESSION_H
#define TK2_SESSION_H

#include <linux/types.h>
#include "tk_buf.h"
#include "tk2_kdf.h"

#define TK2_SESSIONS_MAX	3	/* a command carries at most three */
#define TK2_NONCE_MAX		64	/* TPM2B_NONCE: a SHA-512 policy session's */
#define TK2_ECC_P256_SIZE	32

/* TPMA_SESSION (Part 2 §8.4) */
enum tk2_session_attr {
	TK2_SESS_CONTINUE	= 1U << 0,
	TK2_SESS_DECRYPT	= 1U << 5,	/* first command parameter */
	TK2_SESS_ENCRYPT	= 1U << 6,	/* first response parameter */
	TK2_SESS_AUDIT		= 1U << 7,	/* HMAC a command with no entity */
};

/* TPM_SE (Part 2 §6.14); TK2_SE_POLICY is in tk2_msg.h */
#define TK2_SE_HMAC		0x00

/*
 * One session of a command. With @hmac set the session's HMAC is computed
 * and checked with the key sessionKey || @auth; without it (a password,
 * TPM_RS_PW, or a policy session that needs no HMAC) @auth is sent as the
 * hmac field as it is and the response's is not checked.
 * @auth is the authValue of the entity the session authorises, or empty
 * for a session that authorises nothing (an encrypt-only session); with
 * the session key it also keys parameter encryption (Part 1 §21.1).
 * Trailing zero octets of @auth are left out of both keys, as the TPM does.
 * The caller puts a fresh nonce into @nonce_caller before each command;
 * a good response replaces @nonce_tpm. Wipe the struct when done.
 */
struct tk2_session {
	u32 handle;
	bool hmac;
	u8 attrs;
	u8 key_len;				/* 0 or TK2_SHA256_SIZE */
	u8 key[TK2_SHA256_SIZE];		/* sessionKey */
	u8 auth_len;
	u8 auth[TK2_AUTH_MAX];
	u8 nonce_caller_len;
	u8 nonce_caller[TK2_NONCE_MAX];
	u8 nonce_tpm_len;
	u8 nonce_tpm[TK2_NONCE_MAX];
};

int tk2_cmd_sessions(const struct tk2_crypto *c, u8 *cmd, u32 size,
		     u32 nhandles, const struct tk_span *names,
		     struct tk2_session *const *s, unsigned int n,
		     const char **why);

int tk2_rsp_sessions(const struct tk2_crypto *c, u8 *rsp, u32 size, u32 cc,
		     u32 nhandles, struct tk2_session *const *s,
		     unsigned int n, const char **why);

/* The public area of an ECC P-256 salt key (a parent), as parsed. */
struct tk2_ecc_key {
	u16 name_alg;
	u32 attrs;
	u16 sym_alg, sym_bits, sym_mode;	/* TPMT_SYM_DEF_OBJECT */
	u16 scheme, curve, kdf;
	bool auth_policy;			/* a non-empty authPolicy */
	const u8 *x, *y;			/* TK2_ECC_P256_SIZE each */
};

int tk2_ecc_public_parse(const u8 *pub, u32 len, struct tk2_ecc_key *k);
bool tk2_ecc_is_srk(const struct tk2_ecc_key *k);
#define TK2_NAME_SIZE		(2 + TK2_SHA256_SIZE)
int tk2_name(const struct tk2_crypto *c, const u8 *pub, u32 len,
	     u8 out[TK2_NAME_SIZE]);

/* The public area of an RSA salt key (a parent), as parsed. */
#define TK2_RSA_MAX_BYTES	512		/* a 4096-bit modulus */
struct tk2_rsa_key {
	u16 name_alg;
	u32 attrs;
	u16 scheme;				/* TK2_ALG_NULL or OAEP */
	u16 bits;
	u32 exponent;				/* 0 in the area: 65537 */
	const u8 *n;				/* the modulus, big-endian */
	u16 n_len;
};

int tk2_rsa_public_parse(const u8 *pub, u32 len, struct tk2_rsa_key *k);
int tk2_rsa_salt_encode(const struct tk2_crypto *c,
			const u8 salt[TK2_SHA256_SIZE],
			const u8 seed[TK2_SHA256_SIZE], u8 *em, u32 k);

/* TPMS_ECC_POINT of P-256 (x and y as TPM2Bs): an ECDH encryptedSalt */
#define TK2_ECC_POINT_SIZE	(2 + TK2_ECC_P256_SIZE + 2 + TK2_ECC_P256_SIZE)

void tk2_ecc_point(u8 out[TK2_ECC_POINT_SIZE],
		   const u8 x[TK2_ECC_P256_SIZE], const u8 y[TK2_ECC_P256_SIZE]);

int tk2_cmd_start_auth_session(struct tk_cmd_buf *b, u8 *buf, u32 size,
			       u32 tpm_key, u32 bind,
			       const struct tk_span *nonce_caller,
			       const struct tk_span *encrypted_salt, u8 type);

int tk2_rsp_start_auth_session(const u8 *rsp, u32 size, u32 *handle,
			       struct tk2_session *s);

#endif /* TK2_SESSION_H */
