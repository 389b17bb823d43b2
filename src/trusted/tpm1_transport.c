// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 1.2 encrypted transport sessions (TPM Main Part 3 §24) around
 * TPM_GetRandom, TPM_Seal and TPM_Unseal, so the key bytes never cross the
 * bus in clear: the parameters of the wrapped command and of its response
 * are XORed with MGF1 pads only the TPM and we can compute.
 *
 * A sequence (trusted_tpm1_begin() .. trusted_tpm1_end()) runs under one
 * lock with the chip held. It reads the parent key's public part
 * (TPM_GetPubKey, OIAP with keyauth), checks it (srk_pub= when set, else
 * the SRK's first answer since the module was loaded: trust.c),
 * OAEP-encrypts a fresh transport secret to it and opens the session
 * (TPM_EstablishTransport, OIAP with keyauth). The SRK's public key so
 * checked is kept for the module's lifetime: later sequences send no
 * TPM_GetPubKey, and read it again only when the transport fails to open.
 * A transport under the SRK that served a sequence well is kept open for
 * the next one (no TPM_EstablishTransport, no RSA per operation); a
 * failure flushes it, and one found gone (flushed by another TPM user) is
 * replaced once by the caller (trusted_tpm1_begin() again).
 * A TPM 1.2 answers TPM_GetPubKey for the SRK only when its owner set
 * readSRKPub; without it, or without RSA in the kernel, the sequence is
 * refused rather than run in clear: sessions=0 is the user's way to go
 * without (docs/trusted.md).
 */
#include <crypto/akcipher.h>
#include <crypto/sha2.h>
#include <linux/crypto.h>
#include <linux/error-injection.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "trusted.h"
#include "tk1_transport.h"

/* One exchange at a time: a TPM 1.2 has only a few session slots. */
static DEFINE_MUTEX(tpm1_lock);

/* The transport kept between sequences under the SRK (tpm1_lock). */
static struct {
	bool valid;
	struct tk1_transport t;
} kept_x;

/* The SRK's public key, checked once (under tpm1_lock). */
static struct {
	bool valid;
	u32 exponent;
	u32 len;
	u8 modulus[TK1_RSA_MAX_BYTES];
	u8 digest[SHA256_DIGEST_SIZE];	/* of its TPM_PUBKEY: srk_pub='s form */
} srk_kept;

struct start_work {
	struct tk1_session sess;
	struct tk1_auth_in auth;
	struct tk1_pubkey pk;
	bool open;
	u8 digest[TK1_DIGEST_SIZE];
	u8 check[TK1_DIGEST_SIZE];
	u8 plain[TK1_TRANSPORT_AUTH_SIZE];
	u8 seed[TK1_DIGEST_SIZE];
	u8 der[TK1_RSA_MAX_BYTES + 32];
	u8 em[TK1_RSA_MAX_BYTES];
	u8 secret[TK1_RSA_MAX_BYTES];
	u32 secret_len;
};

static int x_sha1(void *ctx, const struct tk_span *in, unsigned int n,
		  u8 out[TK1_DIGEST_SIZE])
{
	return trusted_sha1(out, in, n);
}

static int x_hmac(void *ctx, const u8 *key, const struct tk_span *in,
		  unsigned int n, u8 out[TK1_DIGEST_SIZE])
{
	return trusted_hmac(out, key, in, n);
}

static const struct tk1_crypto x_crypto = {
	.sha1 = x_sha1,
	.hmac = x_hmac,
};

static u32 parent_handle(const struct tk_options *o)
{
	return tk_opt_given(o, TK_OPT_KEYHANDLE) ? o->keyhandle : TK1_KH_SRK;
}

/*
 * Send a command authorised by keyauth under a fresh OIAP session (not
 * continued) and check the response HMAC over @out_params, which
 * @parse fills in. The session is flushed on any path that leaves it open.
 */
static int oiap_command(u8 *buf, struct start_work *w,
			const struct tk_options *o, struct tk_cmd_buf *b,
			const struct tk_span *params, u32 ordinal,
			const char *what)
{
	int ret;

	ret = trusted_tpm1_param_digest(w->digest, ordinal, params, false);
	if (ret)
		return ret;
	w->auth.handle = w->sess.handle;
	w->auth.cont = 0;
	get_random_bytes(w->auth.nonce_odd, TK1_NONCE_SIZE);
	ret = trusted_tpm1_auth_hmac(w->auth.hmac, o->keyauth, w->digest,
				     w->sess.nonce_even, w->auth.nonce_odd,
				     &w->auth.cont);
	if (ret)
		return ret;
	tk1_append_auth(b, &w->auth);
	ret = tk1_finish(b);
	if (ret)
		return ret;
	/*
	 * The TPM ends the session with the command; after a TPM error it
	 * is flushed all the same (a flush of a closed handle is harmless).
	 */
	ret = trusted_tpm_send(buf, NULL);
	if (ret == 0)
		w->open = false;
	if (ret < 0)
		return trusted_tpm_errno(ret, what);
	return ret;
}

/*
 * The TPM's answer to TPM_GetPubKey. Test kernels (CONFIG_FAIL_FUNCTION)
 * can make it any return code: TPM_INVALID_KEYHANDLE (12) as from a TPM
 * without readSRKPub, -EBADMSG as for a malformed response.
 */
static noinline int trusted_tpm1_parse_pubkey(const u8 *buf,
					      struct tk1_pubkey *pk)
{
	return tk1_parse_pubkey(buf, PAGE_SIZE, pk);
}

#ifdef TK_HAVE_EI_ETYPE_NONE
#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_tpm1_parse_pubkey, NONE);
#endif
#endif

/* The parent's public key, its response HMAC checked. -EOPNOTSUPP: unreadable SRK. */
static int read_pubkey(u8 *buf, struct start_work *w,
		       const struct tk_options *o)
{
	struct tk_span params;
	struct tk_cmd_buf b;
	int ret;

	ret = trusted_tpm1_oiap(buf, &w->sess, &w->open);
	if (ret)
		return ret;
	ret = tk1_get_pubkey_params(&b, buf, PAGE_SIZE, parent_handle(o),
				    &params);
	if (ret)
		return ret;
	ret = oiap_command(buf, w, o, &b, &params, TK1_ORD_GET_PUBKEY,
			   "TPM_GetPubKey");
	if (ret < 0)
		return ret;
	if (ret > 0)
		goto refused;
	ret = trusted_tpm1_parse_pubkey(buf, &w->pk);
	if (ret)
		goto refused;
	ret = trusted_tpm1_param_digest(w->digest, TK1_ORD_GET_PUBKEY,
					&w->pk.params, true);
	if (ret)
		return ret;
	ret = trusted_tpm1_check_response(w->check, o->keyauth, w->digest,
					  &w->auth, &w->pk.auth);
	if (ret)
		return ret;
	ret = trusted_trust_parent(parent_handle(o),
				   parent_handle(o) == TK1_KH_SRK,
				   w->pk.params.p, w->pk.params.len, NULL, 0);
	if (ret || parent_handle(o) != TK1_KH_SRK ||
	    w->pk.modulus.len > sizeof(srk_kept.modulus))
		return ret;
	sha256(w->pk.params.p, w->pk.params.len, srk_kept.digest);
	memcpy(srk_kept.modulus, w->pk.modulus.p, w->pk.modulus.len);
	srk_kept.len = w->pk.modulus.len;
	srk_kept.exponent = w->pk.exponent;
	srk_kept.valid = true;
	return 0;

refused:
	if (ret == TK1_RC_INVALID_KEYHANDLE && parent_handle(o) == TK1_KH_SRK)
		return trusted_refuse(TK1_KH_SRK, trusted_trust_known(TK1_KH_SRK) ?
				      "its public key is no longer readable, but it was earlier" :
				      "its public key is not readable (readSRKPub is off): run tpm_restrictsrk -a once as the TPM's owner, or use sessions=0");
	return trusted_tpm_errno(ret, "TPM_GetPubKey");
}

/* Is the parent the SRK, its public key kept, trusted and pinned? */
static bool srk_usable(const struct tk_options *o)
{
	return parent_handle(o) == TK1_KH_SRK && srk_kept.valid &&
	       trusted_trust_known(TK1_KH_SRK) &&
	       trusted_trust_pin(TK1_KH_SRK, srk_kept.digest,
				 sizeof(srk_kept.digest)) >= 0;
}

/* The SRK's kept public key into w->pk: true when there is one. */
static bool take_kept(struct start_work *w, const struct tk_options *o)
{
	if (!srk_usable(o))
		return false;
	w->pk.modulus = (struct tk_span){ .p = srk_kept.modulus,
					  .len = srk_kept.len };
	w->pk.exponent = srk_kept.exponent;
	return true;
}

/* w->secret = RSA(OAEP(TPM_TRANSPORT_AUTH)) for the key in w->pk. */
static int encrypt_secret(struct start_work *w, struct crypto_akcipher *tfm,
			  const u8 *auth)
{
	u32 k = w->pk.modulus.len;
	int ret;

	put_unaligned_be16(TK1_TAG_TRANSPORT_AUTH, w->plain);
	memcpy(w->plain + 2, auth, TK1_DIGEST_SIZE);
	get_random_bytes(w->seed, sizeof(w->seed));
	ret = tk1_oaep_encode(&x_crypto, w->plain, sizeof(w->plain), w->seed,
			      w->em, k);
	if (ret)
		return ret;
	ret = tk1_rsa_pub_der(w->der, sizeof(w->der), &w->pk.modulus,
			      w->pk.exponent);
	if (ret < 0)
		return ret;
	w->secret_len = k;
	return trusted_rsa_encrypt(tfm, w->der, ret, w->em, w->secret, k);
}

static int establish(u8 *buf, struct start_work *w, struct trusted_tpm1_xport *x,
		     const struct tk_options *o)
{
	struct tk1_establish_out out;
	struct tk_span params;
	struct tk_cmd_buf b;
	int ret;

	ret = trusted_tpm1_oiap(buf, &w->sess, &w->open);
	if (ret)
		return ret;
	ret = tk1_establish_params(&b, buf, PAGE_SIZE, parent_handle(o),
				   w->secret, w->secret_len, &params);
	if (ret)
		return ret;
	/* a TPM's code (> 0) is returned as it is: start_transport() maps it */
	ret = oiap_command(buf, w, o, &b, &params, TK1_ORD_ESTABLISH_TRANSPORT,
			   "TPM_EstablishTransport");
	if (ret)
		return ret;
	ret = tk1_parse_establish(buf, PAGE_SIZE, &out);
	if (ret > 0)
		return ret;
	if (ret)
		return trusted_tpm_errno(ret, "TPM_EstablishTransport");
	x->t.handle = out.handle;
	x->open = true;		/* from here on it is flushed on any error */
	memcpy(x->t.nonce_even, out.nonce_even, TK1_NONCE_SIZE);
	ret = trusted_tpm1_param_digest(w->digest, TK1_ORD_ESTABLISH_TRANSPORT,
					&out.params, true);
	if (ret)
		return ret;
	return trusted_tpm1_check_response(w->check, o->keyauth, w->digest,
					   &w->auth, &out.auth);
}

/* Did the TPM refuse an authorisation (a retry would count twice)? */
static bool auth_refused(int rc)
{
	return rc == TK1_RC_AUTHFAIL || rc == TK1_RC_AUTH2FAIL ||
	       rc == TK1_RC_DEFEND_LOCK_RUNNING;
}

/*
 * Open the transport, to the kept SRK key when @kept, else as read:
 * 0, a negative errno, or TPM_EstablishTransport's code (> 0).
 */
static int open_transport(u8 *buf, struct start_work *w, struct trusted_tpm1_xport *x,
			  const struct tk_options *o, bool kept)
{
	int ret = 0;

	if (!kept) {
		ret = read_pubkey(buf, w, o);
		if (w->open)
			trusted_tpm1_flush(buf, w->sess.handle, TK1_RT_AUTH);
		w->open = false;
		if (ret)
			return ret;
	}
	ret = encrypt_secret(w, x->rsa, x->t.auth);
	if (ret)
		return ret;
	ret = establish(buf, w, x, o);
	if (w->open)
		trusted_tpm1_flush(buf, w->sess.handle, TK1_RT_AUTH);
	w->open = false;
	return ret;
}

static int start_transport(u8 *buf, struct trusted_tpm1_xport *x,
			   const struct tk_options *o)
{
	struct start_work *w;
	bool kept;
	int ret;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	get_random_bytes(x->t.auth, sizeof(x->t.auth));
	kept = take_kept(w, o);
	ret = open_transport(buf, w, x, o, kept);
	if (ret > 0 && kept && !x->open && !auth_refused(ret)) {
		/*
		 * The TPM's SRK may have changed: read and check it again (not
		 * after an authorisation failure, which would count twice).
		 */
		srk_kept.valid = false;
		memset(w, 0, sizeof(*w));
		ret = open_transport(buf, w, x, o, false);
	}
	kfree_sensitive(w);
	return ret > 0 ? trusted_tpm_errno(ret, "TPM_EstablishTransport") : ret;
}

/* Flush the kept transport, if any. */
static void drop_kept_transport(u8 *buf)
{
	if (kept_x.valid)
		trusted_tpm1_flush(buf, kept_x.t.handle, TK1_RT_TRANS);
	memzero_explicit(&kept_x, sizeof(kept_x));
	trusted_set_kept(0);
}

/* The kept transport into @x when the SRK it was opened to is still ours. */
static bool take_kept_transport(struct trusted_tpm1_xport *x,
				const struct tk_options *o)
{
	if (!kept_x.valid || !x->keep || !srk_usable(o))
		return false;
	x->t = kept_x.t;
	memzero_explicit(&kept_x, sizeof(kept_x));
	trusted_set_kept(0);
	x->open = true;
	x->kept = true;
	return true;
}

/**
 * trusted_tpm1_begin() - start a sequence of TPM 1.2 commands
 * @buf: a command buffer
 * @x: the transport state, zeroed by the caller
 * @o: the options: the parent key and its keyauth, sessions=
 *
 * Takes the TPM 1.2 lock and the chip, and, unless sessions=0, opens an
 * encrypted transport session; where it cannot (no RSA in the kernel, a
 * parent public key that cannot be read or is not the one trusted) the
 * sequence is refused. The RSA transform is allocated first: that may
 * load a module, which IMA may measure into the TPM, and the chip must
 * not be held then.
 *
 * Return: 0, or a negative errno (then nothing is held).
 */
int trusted_tpm1_begin(u8 *buf, struct trusted_tpm1_xport *x,
		       const struct tk_options *o)
{
	int ret;

	if (o->sessions) {
		x->rsa = trusted_crypto_alloc_rsa();
		if (IS_ERR(x->rsa)) {
			ret = trusted_crypto_missing(PTR_ERR(x->rsa), "rsa",
						     "CONFIG_CRYPTO_RSA");
			x->rsa = NULL;
			return ret;
		}
	}
	mutex_lock(&tpm1_lock);
	ret = trusted_tpm_hold();
	if (ret) {
		mutex_unlock(&tpm1_lock);
		crypto_free_akcipher(x->rsa);
		x->rsa = NULL;
		return ret;
	}
	if (!x->rsa) {
		trusted_clear_warn(parent_handle(o));
		return 0;
	}
	x->keep = parent_handle(o) == TK1_KH_SRK;
	if (take_kept_transport(x, o))
		return 0;
	drop_kept_transport(buf);
	ret = start_transport(buf, x, o);
	if (ret)
		trusted_tpm1_end(buf, x, false);
	return ret;
}

/**
 * trusted_tpm1_end() - end a sequence: keep or flush the transport, release all
 * @buf: a command buffer
 * @x: the transport state
 * @ok: the sequence succeeded: a transport under the SRK is kept open
 */
void trusted_tpm1_end(u8 *buf, struct trusted_tpm1_xport *x, bool ok)
{
	struct crypto_akcipher *rsa = x->rsa;

	if (x->open && ok && x->keep && !kept_x.valid) {
		kept_x.t = x->t;
		kept_x.t.last = false;
		kept_x.valid = true;
		trusted_set_kept(x->t.handle);
	} else if (x->open) {
		trusted_tpm1_flush(buf, x->t.handle, TK1_RT_TRANS);
	}
	memzero_explicit(x, sizeof(*x));
	trusted_tpm_release();
	mutex_unlock(&tpm1_lock);
	crypto_free_akcipher(rsa);
}

/**
 * trusted_tpm1_exit() - flush the transport kept between sequences
 *
 * trusted_tpm1_ops.exit.
 */
void trusted_tpm1_exit(void)
{
	u8 *buf;

	if (!kept_x.valid)
		return;
	buf = trusted_tpm_buf_alloc();
	mutex_lock(&tpm1_lock);
	if (buf && !trusted_tpm_hold()) {
		drop_kept_transport(buf);
		trusted_tpm_release();
	}
	memzero_explicit(&kept_x, sizeof(kept_x));	/* flushed or not */
	memzero_explicit(&srk_kept, sizeof(srk_kept));
	mutex_unlock(&tpm1_lock);
	trusted_tpm_buf_free(buf);
}

/**
 * trusted_tpm1_send() - send a command, through the transport when open
 * @buf: the command; the (decrypted) response replaces it
 * @x: the transport state
 * @handles: how many handles the command has after its header
 * @what: the command's name for the log
 * @ran: set when the TPM executed the command (its sessions are closed)
 *
 * Return: as trusted_tpm_send(): 0, a negative errno, or the wrapped
 * command's TPM return code.
 */
int trusted_tpm1_send(u8 *buf, struct trusted_tpm1_xport *x, u32 handles,
		      const char *what, bool *ran)
{
	u32 ordinal = get_unaligned_be32(buf + 6);
	u8 odd[TK1_NONCE_SIZE];
	int ret;

	*ran = false;
	if (!x->open) {
		ret = trusted_tpm_send(buf, what);
		*ran = ret >= 0;
		return ret;
	}
	get_random_bytes(odd, sizeof(odd));
	/*
	 * Seal and Unseal end a sequence: a transport that is not to be
	 * kept is ended by the TPM then, with no TPM_FlushSpecific after it.
	 */
	x->t.last = !x->keep &&
		    (ordinal == TK1_ORD_SEAL || ordinal == TK1_ORD_UNSEAL);
	ret = tk1_transport_wrap(&x_crypto, &x->t, buf, PAGE_SIZE, handles,
				 odd);
	if (ret)
		return ret;
	/*
	 * A TPM that refuses the transport usually ends it; it stays marked
	 * open all the same, so trusted_tpm1_end() flushes it (a flush of a
	 * handle already gone fails harmlessly, and the chip is still ours).
	 */
	ret = trusted_tpm_send(buf, NULL);
	if (ret > 0 && x->kept && !auth_refused(ret))
		x->gone = true;	/* the kept transport: flushed by someone? */
	if (ret)
		return trusted_tpm_errno(ret, what);
	*ran = true;
	ret = tk1_transport_unwrap(&x_crypto, &x->t, buf, PAGE_SIZE, ordinal,
				   odd);
	if (ret == -EINVAL)
		pr_info_ratelimited("%s: transport response failed its HMAC check\n",
				    what);
	if (ret)
		return trusted_tpm_errno(ret, ret == -EINVAL ? NULL : what);
	if (x->t.last)
		x->open = false;	/* ended by the TPM: nothing to flush */
	ret = get_unaligned_be32(buf + 6);
	if (ret > 0)
		pr_info_ratelimited("%s: TPM error %d\n", what, ret);
	return ret;
}

struct random_ctx {
	u8 *buf;
	struct trusted_tpm1_xport *x;
};

/* One TPM_GetRandom: at most @len bytes into @out; the count or an errno. */
static int random_chunk(void *ctx, u8 *out, u32 len)
{
	struct random_ctx *r = ctx;
	u8 *buf = r->buf;
	struct tk_cmd_buf b;
	struct tk_span got;
	bool ran;
	int rc;

	rc = tk1_build_get_random(&b, buf, PAGE_SIZE, len);
	if (rc)
		return trusted_tpm_errno(rc, NULL);
	rc = trusted_tpm1_send(buf, r->x, 0, "GetRandom", &ran);
	if (rc)
		return trusted_tpm_errno(rc, NULL);
	if (tk1_parse_get_random(buf, PAGE_SIZE, &got) || got.len > len)
		return -EIO;
	memcpy(out, got.p, got.len);
	return got.len;
}

/**
 * trusted_tpm1_random_in() - random bytes from the TPM 1.2, in an open sequence
 * @buf: a command buffer
 * @x: the sequence's transport state (trusted_tpm1_begin())
 * @out: where to put them
 * @len: how many
 *
 * The TPM may hand out fewer bytes a call; it is asked again.
 *
 * Return: 0, -EIO when the TPM gave too little, or an exchange's errno.
 */
int trusted_tpm1_random_in(u8 *buf, struct trusted_tpm1_xport *x, u8 *out, size_t len)
{
	struct random_ctx r = { .buf = buf, .x = x };

	return trusted_tpm_draw(out, len, random_chunk, &r);
}
