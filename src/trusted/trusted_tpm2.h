/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the TPM 2.0 sealing code: tpm2.c (seal, unseal)
 * on top of the parent keys (tpm2_parent.c), signed policies
 * (tpm2_signed.c), policy commands (tpm2_policy.c) and sessions
 * (tpm2_session.c). All of it runs under tpm2.c's lock, with one
 * page-sized command buffer per operation.
 */
#ifndef TRUSTED_TPM2_H
#define TRUSTED_TPM2_H

#include "trusted.h"
#include "tk2_msg.h"
#include "tk2_pcr.h"
#include "tk2_key.h"
#include "tk2_session.h"
#include "tk2_signed.h"
#include "tk2_policy.h"
#include <crypto/aes.h>

/* The parent of a sealed object, ready for commands under it. */
struct trusted_tpm2_parent {
	u32 handle;		/* the handle commands name */
	u32 recorded;		/* the handle the blob records */
	bool flush;		/* a primary we created: flush it after use */
	bool cached;		/* kept from an earlier operation's check */
	struct tk2_auth auth;	/* authorisation of commands under it */
	bool named;		/* name is its Name, from its public area */
	bool ecc;		/* an ECC P-256 decryption key: a salt key */
	bool rsa;		/* an RSA decryption key: a salt key */
	bool noda;		/* known noDA: its authorisation is not DA-counted */
	u8 name[TK2_NAME_SIZE];
	u8 x[TK2_ECC_P256_SIZE], y[TK2_ECC_P256_SIZE];
	u16 n_len;		/* RSA: modulus size in bytes */
	u32 e;			/* RSA: public exponent */
	u8 n[TK2_RSA_MAX_BYTES];
};

/* tpm2_session.c: the salted HMAC session of one key operation; flushes. */
struct crypto_kpp;
struct crypto_akcipher;
struct trusted_tpm2_sess {
	struct tk2_session s;
	struct tk2_crypto c;
#ifdef TK_HAVE_AES_PREPAREKEY
	struct aes_enckey aes;
#else
	struct crypto_aes_ctx aes;
#endif
	struct crypto_kpp *kpp;
	int kpp_err;
	struct crypto_akcipher *rsa;		/* an RSA parent's salt */
	int rsa_err;
	u8 em[TK2_RSA_MAX_BYTES];		/* OAEP-encoded salt */
	u8 esalt[TK2_RSA_MAX_BYTES];		/* encrypted */
	u8 der[TK2_RSA_MAX_BYTES + 32];		/* the parent's RSAPublicKey */
	bool active;				/* the TPM has the session */
	bool kept;				/* taken over from an earlier operation */
	bool gone;				/* the kept session was not there */
	u8 salt_name[TK2_NAME_SIZE];		/* the parent it is salted to */
	u8 point[2 * TK2_ECC_P256_SIZE];	/* our ephemeral key: x || y */
	u8 peer[2 * TK2_ECC_P256_SIZE];		/* the parent's point */
	u8 z[TK2_ECC_P256_SIZE];
};

void trusted_tpm2_sess_crypto(struct trusted_tpm2_sess *ts);
void trusted_tpm2_sess_init(struct trusted_tpm2_sess *ts);
void trusted_tpm2_sess_free(struct trusted_tpm2_sess *ts);
int trusted_tpm2_sess_start(u8 *buf, struct trusted_tpm2_sess *ts,
			    const struct trusted_tpm2_parent *pa);
int trusted_tpm2_sess_start_policy(u8 *buf, struct trusted_tpm2_sess *ts,
				   const struct trusted_tpm2_parent *pa,
				   struct tk2_session *s);
int trusted_tpm2_sess_send(u8 *buf, struct trusted_tpm2_sess *ts,
			   struct tk2_session *const *s, unsigned int n,
			   u32 nh_cmd, const struct tk_span *names, u32 nh_rsp);
void trusted_tpm2_sess_end(u8 *buf, struct trusted_tpm2_sess *ts, bool keep);
void trusted_tpm2_sess_drop(u8 *buf);
bool trusted_tpm2_sess_kept(void);
int trusted_tpm2_random(u8 *buf, struct trusted_tpm2_sess *ts, u8 *out,
			u32 len);
void trusted_tpm2_flush(u8 *buf, u32 handle);

/* tpm2_parent.c */
int trusted_tpm2_parent_get(u8 *buf, u32 handle, bool probe_srk,
			    const struct tk_options *o,
			    const struct trusted_tpm2_sess *ts,
			    struct trusted_tpm2_parent *pa);
int trusted_tpm2_parent_open(u8 *buf, u32 handle, bool probe_srk,
			     const struct tk_options *o,
			     struct trusted_tpm2_sess *ts,
			     struct trusted_tpm2_parent *pa);
int trusted_tpm2_parent_recheck(u8 *buf, const struct trusted_tpm2_sess *ts,
				const struct trusted_tpm2_parent *pa, int err);
void trusted_tpm2_parent_put(u8 *buf, struct trusted_tpm2_parent *pa);

/* tpm2_policy.c: policy commands through src/lib/tk2_policy.c's table */
#define TRUSTED_TPM2_SEAL_CMDS	4
#define TRUSTED_TPM2_AUTHORIZE_BODY_MAX	(2 + TK_SIGNER_MAX + 2 + \
					 TK2_DIGEST_MAX + 2)

/* The policy a seal gives the object: its commands and their digest. */
struct trusted_tpm2_seal_policy {
	u8 digest[TK2_DIGEST_MAX];		/* the object's authPolicy */
	struct tk2_key_policy cmd[TRUSTED_TPM2_SEAL_CMDS];
	unsigned int ncmd;
	u8 pcr[TK2_POLICY_PCR_BODY_MAX];	/* PolicyPCR's body */
	u8 authorize[TRUSTED_TPM2_AUTHORIZE_BODY_MAX];	/* PolicyAuthorize's */
	u8 unseal[4];				/* PolicyCommandCode's */
};

/* The hashes of one operation's policy digests (tk2_policy_hash). */
struct crypto_shash;
struct trusted_tpm2_hash {
	struct tk2_policy_hash h;
	struct crypto_shash *tfm[2];	/* the policy's hash, a signer's */
	u16 alg[2];
};

/* What policy commands need at load beyond their bodies. */
struct trusted_tpm2_replay {
	struct tk2_policy_run run;		/* the session, a ticket */
	struct trusted_tpm2_sess *ts;		/* authorises PolicyNV, or NULL */
	const u8 *nv_name;			/* PolicyNV's index Name */
	const struct tk2_policy_cmd *refused;	/* the command the TPM refused */
};

struct crypto_shash *trusted_tpm2_hash_alloc(u16 alg);
void trusted_tpm2_hash_init(struct trusted_tpm2_hash *hs, u16 alg);
struct crypto_shash *trusted_tpm2_hash_get(struct trusted_tpm2_hash *hs,
					   u16 alg);
void trusted_tpm2_hash_free(struct trusted_tpm2_hash *hs);
int trusted_tpm2_pcr_body(u8 *buf, struct trusted_tpm2_sess *ts,
			  const struct tk_options *o,
			  struct trusted_tpm2_hash *hs, u8 *body, u32 size);
int trusted_tpm2_policy_digest(struct trusted_tpm2_hash *hs,
			       const struct tk2_key_policy *cmds,
			       unsigned int n, const u8 *nv_name, u8 *digest);
int trusted_tpm2_policy_check(const struct tk2_key *k);
int trusted_tpm2_policy_start(u8 *buf, u16 alg, struct trusted_tpm2_sess *ts,
			      const struct trusted_tpm2_parent *pa,
			      struct tk2_session *s);
int trusted_tpm2_policy_replay(u8 *buf, const struct tk2_key_policy *cmds,
			       unsigned int n, struct trusted_tpm2_replay *r);
int trusted_tpm2_policy_session(u8 *buf, const struct tk2_key *k,
				struct trusted_tpm2_sess *ts,
				const struct trusted_tpm2_parent *pa,
				struct tk2_session *s);

/* tpm2_signed.c */
struct trusted_tpm2_signed {
	u8 approved[TK2_KEY_AUTH_MAX][TK2_DIGEST_MAX];	/* approvedPolicy */
	u8 ahash[TK2_KEY_AUTH_MAX][TK2_DIGEST_MAX];	/* what was signed */
	u32 ahash_len[TK2_KEY_AUTH_MAX];
	struct tk2_authorize_body ab[TK2_KEY_AUTH_MAX];
	const char *skip[TK2_KEY_AUTH_MAX];	/* why one is not tried */
	bool revoke;				/* the policyRef names a counter */
	u32 nv_index;
	u8 nv_name[TK2_NV_NAME_SIZE];
	u64 count[TK2_KEY_AUTH_MAX];		/* what each approval allows */
};

int trusted_tpm2_nv_counter(u8 *buf, struct trusted_tpm2_sess *ts,
			    const struct tk2_crypto *c, u32 index, u8 *name);
int trusted_tpm2_authorize_body(u8 *buf, struct trusted_tpm2_sess *ts,
				const struct tk2_crypto *c,
				const struct tk_options *o, u8 *body, u32 size);
bool trusted_tpm2_blob_revocable(const u8 *blob, u32 len);
int trusted_tpm2_signed_check(const struct tk2_key *k,
			      const struct tk_options *o);
int trusted_tpm2_signed_prepare(const struct tk2_key *k,
				struct trusted_tpm2_signed *sg);
int trusted_tpm2_signed_session(u8 *buf, const struct tk2_key *k,
				const struct trusted_tpm2_signed *sg,
				struct trusted_tpm2_sess *ts,
				const struct tk2_crypto *c,
				const struct trusted_tpm2_parent *pa,
				struct tk2_session *s);

#endif /* TRUSTED_TPM2_H */
