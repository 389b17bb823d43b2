/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the trusted key type: the key type (core.c) on
 * top of the TPM transport and the ops table of the TPM found (tpm.c),
 * each version's sealing behind that table (tpm1.c; tpm2.c, whose own
 * files share trusted_tpm2.h), the TPM 1.2 sessions and transport
 * (tpm1_auth.c, tpm1_transport.c), the algorithms of the bus (crypto.c), the
 * fail-closed rule (trust.c), the logon key of logon= (logon.c) and the
 * check of keydigest= (keydigest.c).
 */
#ifndef TRUSTED_H
#define TRUSTED_H

#include <keys/trusted-type.h>
#include <linux/types.h>
#include "tk_opts.h"
#include "tk1_msg.h"
#include "tk1_transport.h"

/* trusted-type.h imposes its own prefix; use ours throughout. */
#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

/* tpm.c: the one TPM we use, chosen at module load. */
int trusted_tpm_init(void);
void trusted_tpm_exit(void);
bool trusted_tpm_present(void);
u8 *trusted_tpm_buf_alloc(void);
void trusted_tpm_buf_free(u8 *buf);
int trusted_tpm_hold(void);
void trusted_tpm_release(void);
int trusted_tpm_send(u8 *buf, const char *what);
int trusted_tpm_errno(int rc, const char *what);
int trusted_tpm_draw(u8 *out, size_t len,
		     int (*chunk)(void *ctx, u8 *to, u32 n), void *ctx);
int trusted_tpm_pcrlock(u32 pcr);
void trusted_set_kept(u32 handle);

/* crypto.c: the algorithms that protect the bus, for both versions. */
struct crypto_akcipher;
struct crypto_kpp;
struct crypto_akcipher *trusted_crypto_alloc_rsa(void);
struct crypto_kpp *trusted_crypto_alloc_ecdh(void);
int trusted_crypto_missing(int err, const char *alg, const char *option);
int trusted_rsa_encrypt(struct crypto_akcipher *tfm, const u8 *der,
			u32 der_len, u8 *em, u8 *out, u32 k);

/* trust.c: sessions=, the pins and the parents trusted this boot. */
#define TRUSTED_PIN_MAX	66	/* a SHA-512 Name */
int trusted_refuse(u32 handle, const char *why);
int trusted_sessions_option(struct tk_options *o);
void trusted_clear_warn(u32 handle);
int trusted_trust_pin(u32 handle, const u8 *form, u32 len);
int trusted_trust_parent(u32 handle, bool record, const u8 *area, u32 len,
			 const u8 *prefix, u32 prefix_len);
bool trusted_trust_known(u32 handle);

/*
 * Everything that differs between the TPM versions, chosen once the chip
 * is found (tpm.c): tpm1.c and tpm2.c each export one. @tpm2 selects
 * src/lib's TPM 2.0 syntax (return codes, pins); @parse reads a key
 * command with the version's options; @init, when set, runs when the chip
 * is found and @exit at module unload (what the version keeps between
 * operations). @unseal takes the blob from the request (a TPM 2.0 blob
 * with signed policies may be longer than p->blob); @update_check, when
 * set, may refuse an update of the key whose payload is @old before
 * anything is sealed. Each version's GetRandom and flush are its own,
 * through trusted_tpm_draw() and trusted_tpm_send().
 */
struct tk_request;
struct trusted_tpm_ops {
	const char *version;		/* "1.2", "2.0": for the log */
	bool tpm2;
	int (*parse)(char *line, struct tk_request *req);
	int (*init)(void);
	int (*seal)(struct trusted_key_payload *p,
		    const struct tk_options *o);
	int (*seal_random)(struct trusted_key_payload *p,
			   const struct tk_options *o);
	int (*unseal)(struct trusted_key_payload *p, const u8 *blob, u32 len,
		      const struct tk_options *o);
	int (*update_check)(const struct trusted_key_payload *old,
			    const struct tk_options *o);
	void (*exit)(void);
};

extern const struct trusted_tpm_ops trusted_tpm1_ops;
extern const struct trusted_tpm_ops trusted_tpm2_ops;
const struct trusted_tpm_ops *trusted_tpm_ops(void);

/* tpm1_auth.c: authorisation sessions, SHA-1 and HMAC-SHA1. */
int trusted_auth_init(void);
void trusted_auth_exit(void);
void trusted_tpm1_flush(u8 *buf, u32 handle, u32 type);
int trusted_sha1(u8 *out, const struct tk_span *spans, unsigned int n);
int trusted_hmac(u8 *out, const u8 *key, const struct tk_span *spans,
		 unsigned int n);
int trusted_tpm1_session(u8 *buf, struct tk1_session *s, bool osap,
			 bool *open);
int trusted_tpm1_oiap(u8 *buf, struct tk1_session *s, bool *open);
int trusted_tpm1_param_digest(u8 *out, u32 ordinal,
			      const struct tk_span *params, bool response);
int trusted_tpm1_auth_hmac(u8 *out, const u8 *key, const u8 *digest,
			   const u8 *even, const u8 *odd, const u8 *cont);
int trusted_tpm1_check_response(u8 *check, const u8 *key, const u8 *digest,
				const struct tk1_auth_in *in,
				const struct tk1_auth_out *out);

/* tpm1_transport.c: a TPM 1.2 sequence, in a transport session. */
struct trusted_tpm1_xport {
	struct tk1_transport t;
	struct crypto_akcipher *rsa;	/* allocated before the chip is held */
	bool open;
	bool keep;		/* under the SRK: kept for the next sequence */
	bool kept;		/* taken over from an earlier sequence */
	bool gone;		/* the kept transport was not there */
};

int trusted_tpm1_begin(u8 *buf, struct trusted_tpm1_xport *x,
		       const struct tk_options *o);
void trusted_tpm1_end(u8 *buf, struct trusted_tpm1_xport *x, bool ok);
void trusted_tpm1_exit(void);
int trusted_tpm1_send(u8 *buf, struct trusted_tpm1_xport *x, u32 handles,
		      const char *what, bool *ran);
int trusted_tpm1_random_in(u8 *buf, struct trusted_tpm1_xport *x, u8 *out, size_t len);

/* logon.c: the logon key of logon=<prefix>:<desc>, for dm-crypt. */
struct key;
int trusted_logon_permitted(void);
struct key *trusted_logon_make(const char *desc, const u8 *data, size_t len,
			       struct key **keyring);
bool trusted_logon_alive(const struct key *logon);
void trusted_logon_drop(struct key *logon, struct key *keyring);
bool trusted_logon_matches(const struct key *logon, const char *desc);

/* keydigest.c: keydigest=, LUKS2's PBKDF2 digest of a volume key. */
int trusted_keydigest_check(const u8 *key, u32 key_len,
			    const struct tk_keydigest *kd, const char *op);

#endif /* TRUSTED_H */
