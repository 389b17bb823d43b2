/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The encrypted key type: kernel-random (or user-provided) key material that
 * user space only ever sees sealed under a master key (a trusted or a user
 * key), as AES-256-CBC ciphertext authenticated with HMAC-SHA256.
 *
 *   core.c      key type operations, module init and exit
 *   payload.c   struct encrypted_key_payload: allocation and layout
 *   seal.c      sealing a payload into a blob and opening one
 *   crypto.c    key derivation, HMAC, CBC on the crypto API (transforms
 *               allocated once, shared)
 *   master.c    looking up the master key and deriving from it
 *   ecryptfs.c  the ecryptfs auth token of the "ecryptfs" format
 *   ../lib/tk_enc_blob.c  every check of user text (shared with host tests)
 */
#ifndef ENCRYPTED_H
#define ENCRYPTED_H

#include <linux/types.h>
#include <linux/export.h>
#include <linux/kconfig.h>
#include <keys/encrypted-type.h>
#include <linux/ecryptfs.h>
#include <crypto/hash.h>
#include <crypto/sha2.h>

#include "tk_enc_blob.h"

#ifdef TK_OUT_OF_TREE
/*
 * Out of tree, on a kernel with the encrypted key type built in (Debian's
 * stock kernels) the kernel already exports everything this module would:
 * there the module is built without exports and without a link to the
 * trusted key type, and its init refuses to load with one log line. Our
 * trusted.ko is built next to it everywhere else.
 */
#define ENCRYPTED_SHADOWED IS_BUILTIN(CONFIG_ENCRYPTED_KEYS)
#define ENCRYPTED_TRUSTED_MASTER (!ENCRYPTED_SHADOWED)
#if ENCRYPTED_SHADOWED
#define ENCRYPTED_EXPORT(sym)
#define ENCRYPTED_EXPORT_GPL(sym)
#else
/* the in-tree module exports key_type_encrypted GPL-only, the rest not */
#define ENCRYPTED_EXPORT_GPL(sym) EXPORT_SYMBOL_GPL(sym)
/* (ecryptfs_get_auth_tok_key, ecryptfs_get_versions, ecryptfs_fill_auth_tok) */
#define ENCRYPTED_EXPORT(sym) EXPORT_SYMBOL(sym)
#endif
#else
/*
 * Trusted masters where the trusted key type can be reached: not from a
 * built-in encrypted type with trusted keys in a module.
 */
#define ENCRYPTED_TRUSTED_MASTER IS_REACHABLE(CONFIG_TRUSTED_KEYS)
#endif

/* Keys derived from one master key. */
struct encrypted_dkeys {
	u8 enc[TK_ENC_KEY_SIZE];
	u8 auth[TK_ENC_KEY_SIZE];
};

struct encrypted_engine;

/*
 * Everything secret one seal or open works with, in one heap object per
 * operation (encrypted_work_alloc(): the transforms it uses are shared,
 * their state is not), wiped by encrypted_work_free().
 */
struct encrypted_work {
	struct encrypted_dkeys dk;
	struct encrypted_engine *engine;
	u8 pad[SHA256_BLOCK_SIZE];	/* HMAC key block */
	u8 blk[TK_ENC_BLOCK_SIZE];	/* the last, partial CBC block */
	u8 iv[TK_ENC_IV_SIZE];		/* the chaining value the API updates */
	u8 mac[TK_ENC_MAC_SIZE];
	struct shash_desc desc;		/* the "sha256" hash: its state follows */
};

/* crypto.c */
struct encrypted_work *encrypted_work_alloc(void);
void encrypted_work_free(struct encrypted_work *w);
void encrypted_crypto_exit(void);
int encrypted_derive(struct encrypted_work *w, const u8 *master,
		     size_t master_len);
int encrypted_hmac(struct encrypted_work *w, const u8 *data, size_t len,
		   u8 *mac);
int encrypted_cbc_encrypt(struct encrypted_work *w, const u8 *iv,
			  const u8 *in, size_t in_len, u8 *out, size_t out_len);
int encrypted_cbc_decrypt(struct encrypted_work *w, const u8 *iv,
			  const u8 *in, size_t in_len, u8 *out, size_t out_len);

/* master.c */
int encrypted_master_derive(const char *master_desc, struct encrypted_work *w);

/* payload.c */
struct encrypted_key_payload *
encrypted_payload_alloc(enum tk_enc_format format, const char *master_desc,
			const char *datalen_str, unsigned int datalen);
void encrypted_payload_layout(const struct encrypted_key_payload *ep,
			      struct tk_enc_layout *l);
size_t encrypted_payload_quota(const struct encrypted_key_payload *ep);
void encrypted_payload_free(struct encrypted_key_payload *ep);
void encrypted_payload_free_rcu(struct encrypted_key_payload *ep);

/* seal.c */
int encrypted_blob_open(struct encrypted_key_payload *ep,
			const struct tk_enc_cmdline *cl);
long encrypted_blob_seal(const struct encrypted_key_payload *ep, char *out,
			 size_t out_len);

/*
 * ecryptfs.c: the in-tree module exports these under these names, so ours
 * does too (they are ABI, hence no module prefix).
 */
u8 *ecryptfs_get_auth_tok_key(struct ecryptfs_auth_tok *auth_tok);
void ecryptfs_get_versions(int *major, int *minor, int *file_version);
int ecryptfs_fill_auth_tok(struct ecryptfs_auth_tok *auth_tok,
			   const char *key_desc);

#endif /* ENCRYPTED_H */
