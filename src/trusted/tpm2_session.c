// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of TPM 2.0 sessions (docs/tpm2-sessions.md): the
 * primitives src/lib's session code asks for (the SHA-256 and AES
 * libraries; HMAC-SHA256 over the SHA-256 library), an ephemeral ECDH
 * P-256 key for the salt (the "ecdh-nist-p256" kpp and its RNG set up
 * before the TPM is held, since either may load a module; the "rsa"
 * akcipher for an RSA parent, likewise), the salted TPM2_StartAuthSession
 * to the parent (ECDH, or RSA-OAEP of a random salt), and one exchange in
 * sessions: fresh nonces, the session area, and the response's HMACs
 * checked before any byte of it is used.
 *
 * The HMAC session of an operation that succeeded is continued and kept
 * for the next one under the same parent: no StartAuthSession, no ECDH or
 * RSA per operation. Between operations it is context-saved (it holds no
 * loaded-session slot) and the next operation context-loads it: the TPM
 * itself then tells whether the handle is still our session. A session
 * another TPM user flushed (and whose handle may now be theirs) fails
 * ContextLoad, is forgotten without a flush and replaced by a fresh one;
 * no command ever authorises with it, so nothing counts against the
 * dictionary-attack lockout. A session the TPM calls "not loaded" later
 * in an operation (all of ours are loaded then, the chip held) is flushed
 * and the operation run once more in fresh sessions.
 *
 * trusted_tpm2_flush() drops any handle a TPM 2.0 operation made (an
 * object, a primary, a session): it is here, at the bottom of the TPM 2.0
 * files, so that each of them can call it without calling up.
 */
#include <crypto/aes.h>
#include <crypto/akcipher.h>
#include <crypto/algapi.h>
#include <crypto/kpp.h>
#include <crypto/rng.h>
#include <crypto/sha2.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include "trusted_tpm2.h"

#define P256	TK2_ECC_P256_SIZE

#ifdef TK_HAVE_SHA256_CTX
#define TK_SHA256_STATE	sha256_ctx
#else
#define TK_SHA256_STATE	sha256_state
#endif

static int k_digest(void *ctx, const struct tk_span *in, unsigned int n,
		    u8 out[TK2_SHA256_SIZE])
{
	struct TK_SHA256_STATE st;
	unsigned int i;

	sha256_init(&st);
	for (i = 0; i < n; i++)
		if (in[i].len)
			sha256_update(&st, in[i].p, in[i].len);
	sha256_final(&st, out);
	memzero_explicit(&st, sizeof(st));
	return 0;
}

/* HMAC-SHA256 (RFC 2104) over the SHA-256 library: nothing to allocate. */
static int k_hmac(void *ctx, const u8 *key, u32 key_len,
		  const struct tk_span *in, unsigned int n,
		  u8 out[TK2_SHA256_SIZE])
{
	u8 k[SHA256_BLOCK_SIZE] = { }, inner[TK2_SHA256_SIZE];
	struct TK_SHA256_STATE st;
	unsigned int i;

	if (key_len > SHA256_BLOCK_SIZE) {
		struct tk_span ks = { .p = key, .len = key_len };

		k_digest(ctx, &ks, 1, k);
	} else if (key_len) {
		memcpy(k, key, key_len);
	}
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		k[i] ^= 0x36;
	sha256_init(&st);
	sha256_update(&st, k, SHA256_BLOCK_SIZE);
	for (i = 0; i < n; i++)
		if (in[i].len)
			sha256_update(&st, in[i].p, in[i].len);
	sha256_final(&st, inner);
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		k[i] ^= 0x36 ^ 0x5c;
	sha256_init(&st);
	sha256_update(&st, k, SHA256_BLOCK_SIZE);
	sha256_update(&st, inner, sizeof(inner));
	sha256_final(&st, out);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(inner, sizeof(inner));
	memzero_explicit(&st, sizeof(st));
	return 0;
}

static int k_aes_setkey(void *ctx, const u8 *key, u32 key_len)
{
	struct trusted_tpm2_sess *ts = ctx;

#ifdef TK_HAVE_AES_PREPAREKEY
	return aes_prepareenckey(&ts->aes, key, key_len);
#else
	return aes_expandkey(&ts->aes, key, key_len);
#endif
}

static void k_aes_encrypt(void *ctx, u8 out[TK2_AES_BLOCK_SIZE],
			  const u8 in[TK2_AES_BLOCK_SIZE])
{
	struct trusted_tpm2_sess *ts = ctx;

	aes_encrypt(&ts->aes, out, in);
}

/* One kpp operation: @src (NULL: make our public key) into @dst. */
static int kpp_run(struct crypto_kpp *tfm, u8 *src, u32 src_len, u8 *dst,
		   u32 dst_len)
{
	struct scatterlist sg_src, sg_dst;
	struct kpp_request *req;
	DECLARE_CRYPTO_WAIT(wait);
	int ret;

	req = kpp_request_alloc(tfm, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	sg_init_one(&sg_dst, dst, dst_len);
	if (src) {
		sg_init_one(&sg_src, src, src_len);
		kpp_request_set_input(req, &sg_src, src_len);
	} else {
		kpp_request_set_input(req, NULL, 0);
	}
	kpp_request_set_output(req, &sg_dst, dst_len);
	kpp_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG |
				 CRYPTO_TFM_REQ_MAY_SLEEP, crypto_req_done,
				 &wait);
	ret = crypto_wait_req(src ? crypto_kpp_compute_shared_secret(req) :
			      crypto_kpp_generate_public_key(req), &wait);
	kpp_request_free(req);
	return ret;
}

/*
 * A fresh ephemeral key: the packed ECDH secret with no key (struct
 * kpp_secret, then a zero key size) makes the kpp generate one.
 */
static int make_ephemeral(struct trusted_tpm2_sess *ts)
{
	struct kpp_secret hdr = {
		.type = CRYPTO_KPP_SECRET_TYPE_ECDH,
		.len = sizeof(hdr) + sizeof(u16),
	};
	u8 packed[sizeof(hdr) + sizeof(u16)] = { };
	int ret;

	memcpy(packed, &hdr, sizeof(hdr));
	ret = crypto_kpp_set_secret(ts->kpp, packed, sizeof(packed));
	if (ret)
		return ret;
	return kpp_run(ts->kpp, NULL, 0, ts->point, sizeof(ts->point));
}

/* The salted HMAC session kept between operations (under tpm2_lock). */
static struct {
	bool valid;
	u8 salt_name[TK2_NAME_SIZE];		/* the parent it is salted to */
	struct tk2_session s;
	u32 ctx_len;
	u8 ctx[TK2_CONTEXT_MAX];		/* its saved context */
} kept;

/**
 * trusted_tpm2_flush() - TPM2_FlushContext of a transient object or session
 * @buf: a command buffer to use
 * @handle: the handle; failures are ignored (nothing left to undo)
 */
void trusted_tpm2_flush(u8 *buf, u32 handle)
{
	struct tk_cmd_buf b;
	int rc;

	rc = tk2_cmd_flush(&b, buf, PAGE_SIZE, handle);
	if (rc)
		goto failed;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto failed;
	rc = tk2_rsp_empty(buf, PAGE_SIZE);
	if (!rc)
		return;
failed:
	pr_warn_ratelimited("flushing handle 0x%08x failed (%d)\n", handle, rc);
}

/**
 * trusted_tpm2_sess_crypto() - set the primitives only
 * @ts: zeroed state
 *
 * For an HMAC without a salt (sessions=0 and a PIN in a policy): no
 * allocation, no ECDH.
 */
void trusted_tpm2_sess_crypto(struct trusted_tpm2_sess *ts)
{
	ts->c = (struct tk2_crypto){
		.ctx = ts,
		.digest = k_digest,
		.hmac = k_hmac,
		.aes_setkey = k_aes_setkey,
		.aes_encrypt = k_aes_encrypt,
	};
}

/**
 * trusted_tpm2_sess_init() - prepare a session before the TPM is held
 * @ts: zeroed state, in heap memory (the kpp works on scatterlists)
 *
 * Sets the primitives, allocates the ECDH kpp and the "rsa" akcipher (the
 * parent's kind is not known yet) and instantiates the default RNG, which
 * makes the ephemeral ECDH keys: all of which may load modules, so none
 * is left for a session started under the lock. A kernel
 * without ECDH P-256 (or RSA) fails only trusted_tpm2_sess_start() with
 * such a parent.
 */
void trusted_tpm2_sess_init(struct trusted_tpm2_sess *ts)
{
	int ret;

	ts->rsa = trusted_crypto_alloc_rsa();
	if (IS_ERR(ts->rsa)) {
		ts->rsa_err = PTR_ERR(ts->rsa);
		ts->rsa = NULL;
	}

	trusted_tpm2_sess_crypto(ts);
	ts->kpp = trusted_crypto_alloc_ecdh();
	if (IS_ERR(ts->kpp)) {
		ts->kpp_err = PTR_ERR(ts->kpp);
		ts->kpp = NULL;
		return;
	}
	/* the ephemeral key is made when a session is started: its RNG now */
#ifdef TK_HAVE_STDRNG_GET_BYTES
	{
		u8 b;

		ret = crypto_stdrng_get_bytes(&b, sizeof(b));
		memzero_explicit(&b, sizeof(b));
	}
#else
	ret = crypto_get_default_rng();
	if (!ret)
		crypto_put_default_rng();
#endif
	if (ret) {
		crypto_free_kpp(ts->kpp);
		ts->kpp = NULL;
		ts->kpp_err = ret;
	}
}

/**
 * trusted_tpm2_sess_free() - undo trusted_tpm2_sess_init()
 * @ts: the state; the caller frees it with kfree_sensitive()
 */
void trusted_tpm2_sess_free(struct trusted_tpm2_sess *ts)
{
	if (ts->kpp)
		crypto_free_kpp(ts->kpp);
	ts->kpp = NULL;
	if (ts->rsa)
		crypto_free_akcipher(ts->rsa);
	ts->rsa = NULL;
}

/* The salt, ECDH to the parent's point: @es is our ephemeral point. */
static int ecdh_salt(struct trusted_tpm2_sess *ts,
		     const struct trusted_tpm2_parent *pa,
		     u8 salt[TK2_SHA256_SIZE], struct tk_span *es)
{
	int rc;

	if (!ts->kpp)
		return trusted_crypto_missing(ts->kpp_err, "ecdh-nist-p256",
					      "CONFIG_CRYPTO_ECDH");
	rc = make_ephemeral(ts);
	if (rc) {
		pr_info_ratelimited("session salt: no ephemeral key (%d)\n", rc);
		return rc;
	}
	memcpy(ts->peer, pa->x, P256);
	memcpy(ts->peer + P256, pa->y, P256);
	rc = kpp_run(ts->kpp, ts->peer, sizeof(ts->peer), ts->z, sizeof(ts->z));
	if (rc)
		goto wipe;
	rc = tk2_ecdh_salt(&ts->c, ts->z, sizeof(ts->z), ts->point, P256,
			   pa->x, P256, salt);
	if (rc)
		goto wipe;
	tk2_ecc_point(ts->esalt, ts->point, ts->point + P256);
	*es = (struct tk_span){ .p = ts->esalt, .len = TK2_ECC_POINT_SIZE };
wipe:
	memzero_explicit(ts->z, sizeof(ts->z));
	if (rc)
		pr_info_ratelimited("session salt: ECDH failed (%d)\n", rc);
	return rc;
}

/*
 * A random salt, RSA-OAEP encrypted to the parent (SHA-256, the label
 * "SECRET\0": Part 1 Annex B.10.3): @es is the ciphertext.
 */
static int rsa_salt(struct trusted_tpm2_sess *ts,
		    const struct trusted_tpm2_parent *pa,
		    u8 salt[TK2_SHA256_SIZE], struct tk_span *es)
{
	struct tk_span n = { .p = pa->n, .len = pa->n_len };
	u8 seed[TK2_SHA256_SIZE];
	int rc;

	if (!ts->rsa)
		return trusted_crypto_missing(ts->rsa_err, "rsa",
					      "CONFIG_CRYPTO_RSA");
	get_random_bytes(salt, TK2_SHA256_SIZE);
	get_random_bytes(seed, sizeof(seed));
	rc = tk2_rsa_salt_encode(&ts->c, salt, seed, ts->em, pa->n_len);
	memzero_explicit(seed, sizeof(seed));
	if (rc)
		return rc;
	rc = tk1_rsa_pub_der(ts->der, sizeof(ts->der), &n, pa->e);
	if (rc >= 0)
		rc = trusted_rsa_encrypt(ts->rsa, ts->der, rc, ts->em,
					 ts->esalt, pa->n_len);
	memzero_explicit(ts->em, sizeof(ts->em));
	if (rc)
		return rc;
	*es = (struct tk_span){ .p = ts->esalt, .len = pa->n_len };
	return 0;
}

/*
 * StartAuthSession of @type into @s: tpmKey = the parent, no bind, the
 * salt encrypted to the parent; the session key from the salt and both
 * nonces. Returns 0 with the session open, or an errno with it closed.
 */
static int start_salted(u8 *buf, struct trusted_tpm2_sess *ts,
			const struct trusted_tpm2_parent *pa,
			struct tk2_session *s, u8 type)
{
	u8 salt[TK2_SHA256_SIZE], ht = type == TK2_SE_POLICY ?
		TK2_HT_POLICY_SESSION : TK2_HT_HMAC_SESSION;
	struct tk_span nc, nt, es;
	struct tk_cmd_buf b;
	int rc;

	rc = pa->rsa ? rsa_salt(ts, pa, salt, &es) : ecdh_salt(ts, pa, salt, &es);
	if (rc)
		goto out;
	s->nonce_caller_len = TK2_SHA256_SIZE;
	get_random_bytes(s->nonce_caller, s->nonce_caller_len);
	nc = (struct tk_span){ .p = s->nonce_caller, .len = s->nonce_caller_len };
	rc = tk2_cmd_start_auth_session(&b, buf, PAGE_SIZE, pa->handle,
					TK2_RH_NULL, &nc, &es, type);
	if (rc)
		goto refused;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto refused;
	rc = tk2_rsp_start_auth_session(buf, PAGE_SIZE, &s->handle, s);
	if (!rc && s->handle >> 24 != ht)
		rc = -EBADMSG;	/* not the kind asked for: left alone */
	if (rc)
		goto flush_malformed;
	nt = (struct tk_span){ .p = s->nonce_tpm, .len = s->nonce_tpm_len };
	rc = tk2_session_key(&ts->c, NULL, 0, salt, sizeof(salt), &nt, &nc,
			     s->key);
	if (rc)
		goto flush;
	s->key_len = TK2_SHA256_SIZE;
	s->hmac = true;
	goto out;

flush_malformed:
	/* a malformed response may still have started it */
	if (rc == -EBADMSG && s->handle >> 24 == ht)
		trusted_tpm2_flush(buf, s->handle);
refused:
	rc = trusted_tpm_errno(rc, "starting a salted session");
	goto out;
flush:
	trusted_tpm2_flush(buf, s->handle);
out:
	memzero_explicit(salt, sizeof(salt));
	return rc;
}

static void forget_kept(void)
{
	memzero_explicit(&kept, sizeof(kept));
	trusted_set_kept(0);
}

/* ContextLoad's answer for a context whose session is not there (any more). */
static bool context_gone(int rc)
{
	return rc > 0 && (tk2_base_is_handle(rc) ||
			  tk2_rc_base(rc) == TK2_RC_INTEGRITY ||
			  (rc & ~0xf) == TK2_RC_REFERENCE_H0);
}

/*
 * TPM2_ContextLoad of the kept session. 0: it is loaded, at its handle,
 * and ours (the TPM checked the context's integrity and sequence). A
 * refusal that says nothing about the session (a TPM warning such as no
 * free session slot, or no answer) keeps it saved for later and returns
 * the errno. A context the TPM no longer has (flushed by another TPM user,
 * whose session may hold its handle now; a TPM reset) is forgotten
 * without a flush. Any other answer (not one a TPM gives to this command)
 * has it flushed, lest a saved session stay behind. Both return -ENOENT:
 * the operation goes on in a fresh session.
 */
static int load_kept(u8 *buf)
{
	struct tk_cmd_buf b;
	u32 handle = 0;
	int rc;

	rc = tk2_cmd_context_load(&b, buf, PAGE_SIZE, kept.ctx, kept.ctx_len);
	if (rc)
		return rc;
	rc = trusted_tpm_send(buf, NULL);
	if (!rc)
		rc = tk2_rsp_context_load(buf, PAGE_SIZE, &handle);
	if (!rc && handle == kept.s.handle)
		return 0;
	if (rc < 0 && rc != -EBADMSG)
		return rc;			/* not answered: kept */
	if (rc > 0 && tk2_rc_is_warn(rc) && !context_gone(rc))
		return trusted_tpm_errno(rc, "TPM2_ContextLoad");
	pr_info_ratelimited("the kept session 0x%08x is no longer ours (0x%03x): a fresh one\n",
			    kept.s.handle, rc > 0 ? rc : 0);
	if (!context_gone(rc))
		trusted_tpm2_flush(buf, rc ? kept.s.handle : handle);
	forget_kept();
	return -ENOENT;
}

/*
 * Flush the kept session, if any, once the TPM proved it ours (loaded from
 * its context): never a handle another TPM user may hold now.
 */
static void drop_kept(u8 *buf)
{
	if (buf && kept.valid && !load_kept(buf))
		trusted_tpm2_flush(buf, kept.s.handle);
	forget_kept();
}

/*
 * TPM2_ContextSave of an operation's session into kept: 0, or an errno
 * (the session is still the caller's to flush then).
 */
static int save_kept(u8 *buf, struct trusted_tpm2_sess *ts)
{
	struct tk_cmd_buf b;
	struct tk_span ctx;
	int rc;

	rc = tk2_cmd_context_save(&b, buf, PAGE_SIZE, ts->s.handle);
	if (rc)
		return rc;
	rc = trusted_tpm_send(buf, NULL);
	if (!rc)
		rc = tk2_rsp_context_save(buf, PAGE_SIZE, ts->s.handle, &ctx);
	if (rc)
		return rc;
	memcpy(kept.ctx, ctx.p, ctx.len);
	kept.ctx_len = ctx.len;
	kept.s = ts->s;
	kept.s.auth_len = 0;
	memzero_explicit(kept.s.auth, sizeof(kept.s.auth));
	memcpy(kept.salt_name, ts->salt_name, sizeof(kept.salt_name));
	kept.valid = true;
	trusted_set_kept(kept.s.handle);
	return 0;
}

/**
 * trusted_tpm2_sess_start() - the salted HMAC session of an operation
 * @buf: the command buffer
 * @ts: prepared by trusted_tpm2_sess_init()
 * @pa: the parent, an ECC P-256 or RSA key whose public area we checked
 *
 * The session kept from an earlier operation when it is salted to a
 * parent of the same Name and TPM2_ContextLoad gives it back (else it is
 * forgotten, see load_kept()); else TPM2_StartAuthSession with tpmKey = the
 * parent, no bind, the salt encrypted to the parent: by ECDH to an ECC
 * key (Part 1 §C.6.1), by RSA-OAEP to an RSA key (Annex B.10.3); the
 * session key derived from the salt and both nonces. Unbound: it
 * authorises any entity with that entity's authValue.
 *
 * Return: 0, or a negative errno (the session is not open then).
 */
int trusted_tpm2_sess_start(u8 *buf, struct trusted_tpm2_sess *ts,
			    const struct trusted_tpm2_parent *pa)
{
	int rc;

	ts->kept = false;
	ts->gone = false;
	memcpy(ts->salt_name, pa->name, sizeof(ts->salt_name));
	if (kept.valid &&
	    !crypto_memneq(kept.salt_name, pa->name, sizeof(pa->name))) {
		rc = load_kept(buf);
		if (!rc) {
			ts->s = kept.s;
			forget_kept();
			ts->kept = true;
			ts->active = true;
			return 0;
		}
		if (kept.valid)		/* not answered, or the TPM busy */
			return rc;
	}
	drop_kept(buf);
	rc = start_salted(buf, ts, pa, &ts->s, TK2_SE_HMAC);
	ts->active = !rc;
	return rc;
}

/**
 * trusted_tpm2_sess_start_policy() - a SHA-256 policy session, salted
 * @buf: the command buffer
 * @ts: the operation's session state, its HMAC session started before
 * @pa: the parent, as for trusted_tpm2_sess_start()
 * @s: set to the new session: its handle, nonces and session key
 *
 * A policy session salted to the same checked parent as the operation's
 * HMAC session, with a salt of its own (a fresh ephemeral ECDH key: the
 * default RNG is instantiated by trusted_tpm2_sess_init(), so nothing is
 * loaded here), so that its HMAC (keyed by sessionKey, and the authValue
 * after PolicyAuthValue) and its parameter encryption are unknown on the
 * bus. The caller flushes it unless a command ends it.
 *
 * Return: 0, or a negative errno (the session is not open then).
 */
int trusted_tpm2_sess_start_policy(u8 *buf, struct trusted_tpm2_sess *ts,
				   const struct trusted_tpm2_parent *pa,
				   struct tk2_session *s)
{
	memset(s, 0, sizeof(*s));
	return start_salted(buf, ts, pa, s, TK2_SE_POLICY);
}

/**
 * trusted_tpm2_sess_send() - one command in sessions
 * @buf: the command, built by a tk2_msg builder; the response replaces it
 * @ts: the operation's session state (ts->s among @s)
 * @s: the sessions, the authorisation sessions first
 * @n: how many
 * @nh_cmd: the command's handles
 * @names: their Names (cpHash)
 * @nh_rsp: the response's handles
 *
 * Each HMAC session gets a fresh nonceCaller; the response is refused
 * (-EBADMSG, one log line) unless every HMAC session's HMAC is the TPM's;
 * only then is its first parameter decrypted. A session without
 * continueSession is closed by the TPM when the command succeeds.
 *
 * Return: 0, the TPM's return code (> 0; the sessions stay open; one of
 * them called not loaded sets ts->gone: the caller flushes them and runs
 * the operation once more), or a negative errno.
 */
int trusted_tpm2_sess_send(u8 *buf, struct trusted_tpm2_sess *ts,
			   struct tk2_session *const *s, unsigned int n,
			   u32 nh_cmd, const struct tk_span *names, u32 nh_rsp)
{
	u32 cc = get_unaligned_be32(buf + 6);
	const char *why;
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		if (!s[i]->hmac)
			continue;
		s[i]->nonce_caller_len = TK2_SHA256_SIZE;
		get_random_bytes(s[i]->nonce_caller, TK2_SHA256_SIZE);
	}
	rc = tk2_cmd_sessions(&ts->c, buf, PAGE_SIZE, nh_cmd, names, s, n,
			      &why);
	if (rc) {
		pr_info_ratelimited("command 0x%03x: %s\n", cc, why);
		return rc;
	}
	rc = trusted_tpm_send(buf, NULL);
	for (i = 0; rc > 0 && i < n; i++)
		if (tk2_rc_session_gone(rc, i + 1))
			ts->gone = true;	/* ours, loaded: run again */
	if (rc)
		return rc;
	rc = tk2_rsp_sessions(&ts->c, buf, PAGE_SIZE, cc, nh_rsp, s, n, &why);
	if (rc < 0) {
		pr_warn_ratelimited("TPM response to 0x%03x refused: %s\n", cc,
				    why);
		memzero_explicit(buf, PAGE_SIZE);
		return -EBADMSG;
	}
	if (!rc && !(ts->s.attrs & TK2_SESS_CONTINUE))
		ts->active = false;
	return rc;
}

/**
 * trusted_tpm2_sess_end() - keep the session for the next operation, or close it
 * @buf: the command buffer
 * @ts: the session state
 * @keep: the operation succeeded: the session is kept, else flushed
 */
void trusted_tpm2_sess_end(u8 *buf, struct trusted_tpm2_sess *ts, bool keep)
{
	if (ts->active && (!keep || kept.valid || save_kept(buf, ts)))
		trusted_tpm2_flush(buf, ts->s.handle);
	ts->active = false;
}

/**
 * trusted_tpm2_sess_drop() - flush the kept session (module unload)
 * @buf: a command buffer, the caller holding tpm2_lock and the chip; NULL
 *	(tpm2_lock held): only wipe it
 */
void trusted_tpm2_sess_drop(u8 *buf)
{
	drop_kept(buf);
}

/**
 * trusted_tpm2_sess_kept() - whether a session is kept
 *
 * Return: true when one is.
 */
bool trusted_tpm2_sess_kept(void)
{
	return kept.valid;
}

struct random_ctx {
	u8 *buf;
	struct trusted_tpm2_sess *ts;
};

/*
 * One TPM2_GetRandom, at most @len bytes into @out: in the session with
 * the encrypt attribute (the bytes cross the bus encrypted, the response
 * is authenticated), or plain without one. The count, or an errno.
 */
static int random_chunk(void *ctx, u8 *out, u32 len)
{
	struct random_ctx *r = ctx;
	struct tk2_session *s[] = { r->ts ? &r->ts->s : NULL };
	struct tk_cmd_buf b;
	struct tk_span got;
	int rc;

	rc = tk2_cmd_get_random(&b, r->buf, PAGE_SIZE,
				min_t(u32, len, TK2_SHA256_SIZE));
	if (rc)
		return trusted_tpm_errno(rc, "new: TPM2_GetRandom");
	if (r->ts) {
		r->ts->s.auth_len = 0;
		r->ts->s.attrs = TK2_SESS_CONTINUE | TK2_SESS_ENCRYPT;
		rc = trusted_tpm2_sess_send(r->buf, r->ts, s, 1, 0, NULL, 0);
	} else {
		rc = trusted_tpm_send(r->buf, NULL);
	}
	if (rc)
		return trusted_tpm_errno(rc, "new: TPM2_GetRandom");
	rc = r->ts ? tk2_rsp_get_random_params(r->buf, PAGE_SIZE, &got) :
		     tk2_rsp_get_random(r->buf, PAGE_SIZE, &got);
	if (rc || got.len > len)
		return -EIO;
	memcpy(out, got.p, got.len);
	return got.len;
}

/**
 * trusted_tpm2_random() - key material from the TPM 2.0
 * @buf: the command buffer (the bytes are wiped with it)
 * @ts: a started session, or NULL (sessions=0): GetRandom plain
 * @out: where the bytes go
 * @len: how many
 *
 * In a session the bytes cross the bus encrypted and the response is
 * authenticated.
 *
 * Return: 0, -EIO when the TPM gave too little, or a negative errno.
 */
int trusted_tpm2_random(u8 *buf, struct trusted_tpm2_sess *ts, u8 *out,
			u32 len)
{
	struct random_ctx r = { .buf = buf, .ts = ts };

	return trusted_tpm_draw(out, len, random_chunk, &r);
}
