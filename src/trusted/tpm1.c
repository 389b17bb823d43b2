// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing on a TPM 1.2 (TPM Main Part 3, TPM_Seal and TPM_Unseal).
 *
 * The sealed data is the key followed by one byte, the migratable flag;
 * the blob handed to user space is the TPM_STORED_DATA the TPM returns.
 * Seal runs under an OSAP session for the parent key, Unseal under two
 * OIAP sessions (parent key, then the blob). Nonces come from the kernel
 * RNG; every response HMAC is verified before its data is used.
 */
#include <crypto/algapi.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted.h"

/* One exchange at a time: a TPM 1.2 has only a few session slots. */
static DEFINE_MUTEX(tk1_lock);

struct seal_work {
	struct tk1_session sess;
	struct tk1_auth_in auth;
	u8 osap_odd[TK1_NONCE_SIZE];
	u8 secret[TK1_DIGEST_SIZE];
	u8 encauth[TK1_DIGEST_SIZE];
	u8 digest[TK1_DIGEST_SIZE];
	u8 check[TK1_DIGEST_SIZE];
	u8 data[TK_KEY_MAX + 1];
};

struct unseal_work {
	struct tk1_session sess[2];
	struct tk1_auth_in auth[2];
	u8 digest[TK1_DIGEST_SIZE];
	u8 check[TK1_DIGEST_SIZE];
};

static u32 parent_handle(const struct tk_options *o)
{
	return tk_opt_given(o, TK_OPT_KEYHANDLE) ? o->keyhandle : TK1_KH_SRK;
}

/* A TPM refusal is EPERM to user space, as it always has been. */
static int tpm_errno(int rc)
{
	if (rc > 0)
		return -EPERM;
	return rc == -EBADMSG ? -EIO : rc;
}

static int send_parse_session(u8 *buf, struct tk1_session *s, bool osap)
{
	int rc;

	rc = trusted_tpm_send(buf, osap ? "OSAP" : "OIAP");
	if (rc)
		return tpm_errno(rc);
	rc = osap ? tk1_parse_osap(buf, PAGE_SIZE, s) :
		    tk1_parse_oiap(buf, PAGE_SIZE, s);
	return tpm_errno(rc);
}

/* SHA1(ordinal || params) for a request, SHA1(0 || ordinal || params)
 * for a successful response.
 */
static int param_digest(u8 *out, u32 ordinal, const struct tk_span *params,
			bool response)
{
	__be32 words[2] = { 0, cpu_to_be32(ordinal) };
	struct tk_span spans[2] = {
		{ response ? (u8 *)words : (u8 *)&words[1],
		  response ? 8 : 4 },
		*params,
	};

	return trusted_sha1(out, spans, 2);
}

/* HMAC(key, digest || nonce_even || nonce_odd || continue) */
static int auth_hmac(u8 *out, const u8 *key, const u8 *digest,
		     const u8 *even, const u8 *odd, const u8 *cont)
{
	struct tk_span spans[4] = {
		{ digest, TK1_DIGEST_SIZE },
		{ even, TK1_NONCE_SIZE },
		{ odd, TK1_NONCE_SIZE },
		{ cont, 1 },
	};

	return trusted_hmac(out, key, spans, 4);
}

static int check_response(u8 *check, const u8 *key, const u8 *digest,
			  const struct tk1_auth_in *in,
			  const struct tk1_auth_out *out)
{
	int ret;

	ret = auth_hmac(check, key, digest, out->nonce_even, in->nonce_odd,
			&out->cont);
	if (ret)
		return ret;
	if (crypto_memneq(check, out->hmac, TK1_DIGEST_SIZE)) {
		pr_info_ratelimited("TPM response failed its HMAC check\n");
		return -EINVAL;
	}
	return 0;
}

/* OSAP for the parent key; leaves the shared secret in w->secret. */
static int start_osap(u8 *buf, struct seal_work *w, const struct tk_options *o)
{
	bool by_handle = tk_opt_given(o, TK_OPT_KEYHANDLE);
	struct tk_span spans[2] = {
		{ w->sess.nonce_even_osap, TK1_NONCE_SIZE },
		{ w->osap_odd, TK1_NONCE_SIZE },
	};
	struct tk_cmd_buf b;
	int ret;

	get_random_bytes(w->osap_odd, sizeof(w->osap_odd));
	ret = tk1_build_osap(&b, buf, PAGE_SIZE,
			      by_handle ? TK1_ET_KEYHANDLE : TK1_ET_SRK,
			      parent_handle(o), w->osap_odd);
	if (ret)
		return ret;
	ret = send_parse_session(buf, &w->sess, true);
	if (ret)
		return ret;
	return trusted_hmac(w->secret, o->keyauth, spans, 2);
}

/* encAuth = blobauth XOR SHA1(shared secret || nonce_even) (ADIP) */
static int encrypt_blobauth(struct seal_work *w, const struct tk_options *o)
{
	struct tk_span spans[2] = {
		{ w->secret, TK1_DIGEST_SIZE },
		{ w->sess.nonce_even, TK1_NONCE_SIZE },
	};
	int i, ret;

	ret = trusted_sha1(w->encauth, spans, 2);
	for (i = 0; !ret && i < TK1_DIGEST_SIZE; i++)
		w->encauth[i] ^= o->blobauth[i];
	return ret;
}

static int seal_exchange(u8 *buf, struct seal_work *w,
			 struct trusted_key_payload *p,
			 const struct tk_options *o, bool *open)
{
	struct tk1_seal_out out;
	struct tk_span params;
	struct tk_cmd_buf b;
	int ret;

	ret = start_osap(buf, w, o);
	if (ret)
		return ret;
	*open = true;
	ret = encrypt_blobauth(w, o);
	if (ret)
		return ret;

	memcpy(w->data, p->key, p->key_len);
	w->data[p->key_len] = p->migratable;
	ret = tk1_seal_params(&b, buf, PAGE_SIZE, parent_handle(o),
			       w->encauth, o->pcrinfo, o->pcrinfo_len,
			       w->data, p->key_len + 1, &params);
	if (!ret)
		ret = param_digest(w->digest, TK1_ORD_SEAL, &params, false);
	if (ret)
		return ret;
	w->auth.handle = w->sess.handle;
	get_random_bytes(w->auth.nonce_odd, sizeof(w->auth.nonce_odd));
	ret = auth_hmac(w->auth.hmac, w->secret, w->digest,
			w->sess.nonce_even, w->auth.nonce_odd, &w->auth.cont);
	if (ret)
		return ret;
	tk1_append_auth(&b, &w->auth);
	ret = tk1_finish(&b);
	if (ret)
		return ret;

	ret = trusted_tpm_send(buf, "TPM_Seal");
	if (ret >= 0)
		*open = false;	/* the TPM saw it and closed the session */
	if (ret)
		return tpm_errno(ret);
	ret = tk1_parse_seal(buf, PAGE_SIZE, &out);
	if (ret)
		return tpm_errno(ret);
	ret = param_digest(w->digest, TK1_ORD_SEAL, &out.params, true);
	if (!ret)
		ret = check_response(w->check, w->secret, w->digest, &w->auth,
				     &out.auth);
	if (ret)
		return ret;
	if (out.params.len > sizeof(p->blob)) {
		pr_info_ratelimited("sealed blob of %u bytes is too large\n",
				    out.params.len);
		return -E2BIG;
	}
	memcpy(p->blob, out.params.p, out.params.len);
	p->blob_len = out.params.len;
	return 0;
}

int trusted_tpm1_seal(struct trusted_key_payload *p,
		      const struct tk_options *o)
{
	struct seal_work *w;
	bool open = false;
	u8 *buf;
	int ret = -ENOMEM;

	buf = trusted_tpm_buf_alloc();
	if (!buf)
		return ret;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		goto out_buf;

	mutex_lock(&tk1_lock);
	ret = seal_exchange(buf, w, p, o, &open);
	if (open)
		trusted_tpm1_flush_auth(buf, w->sess.handle);
	mutex_unlock(&tk1_lock);

	kfree_sensitive(w);
out_buf:
	trusted_tpm_buf_free(buf);
	return ret;
}

static int open_oiap(u8 *buf, struct tk1_session *s)
{
	struct tk_cmd_buf b;
	int ret;

	ret = tk1_build_oiap(&b, buf, PAGE_SIZE);
	return ret ?: send_parse_session(buf, s, false);
}

static int unseal_exchange(u8 *buf, struct unseal_work *w,
			   struct trusted_key_payload *p,
			   const struct tk_options *o, unsigned int *open)
{
	const u8 *keys[2] = { o->keyauth, o->blobauth };
	struct tk1_unseal_out out;
	struct tk_span params;
	struct tk_cmd_buf b;
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = open_oiap(buf, &w->sess[i]);
		if (ret)
			return ret;
		*open = i + 1;
	}

	ret = tk1_unseal_params(&b, buf, PAGE_SIZE, parent_handle(o),
				 p->blob, p->blob_len, &params);
	if (!ret)
		ret = param_digest(w->digest, TK1_ORD_UNSEAL, &params, false);
	for (i = 0; !ret && i < 2; i++) {
		w->auth[i].handle = w->sess[i].handle;
		get_random_bytes(w->auth[i].nonce_odd, TK1_NONCE_SIZE);
		ret = auth_hmac(w->auth[i].hmac, keys[i], w->digest,
				w->sess[i].nonce_even, w->auth[i].nonce_odd,
				&w->auth[i].cont);
		tk1_append_auth(&b, &w->auth[i]);
	}
	ret = ret ?: tk1_finish(&b);
	if (ret)
		return ret;

	ret = trusted_tpm_send(buf, "TPM_Unseal");
	if (ret >= 0)
		*open = 0;	/* the TPM saw it and closed both sessions */
	if (ret)
		return tpm_errno(ret);
	ret = tk1_parse_unseal(buf, PAGE_SIZE, &out);
	if (ret)
		return tpm_errno(ret);
	ret = param_digest(w->digest, TK1_ORD_UNSEAL, &out.params, true);
	for (i = 0; !ret && i < 2; i++)
		ret = check_response(w->check, keys[i], w->digest, &w->auth[i],
				     &out.auth[i]);
	if (ret)
		return ret;

	/* The secret is the key plus the migratable byte. */
	if (out.secret.len < TK_KEY_MIN + 1 || out.secret.len > TK_KEY_MAX + 1) {
		pr_info_ratelimited("unsealed %u bytes: not a trusted key\n",
				    out.secret.len);
		return -EINVAL;
	}
	p->key_len = out.secret.len - 1;
	memcpy(p->key, out.secret.p, p->key_len);
	p->migratable = out.secret.p[p->key_len];
	return 0;
}

int trusted_tpm1_unseal(struct trusted_key_payload *p,
			const struct tk_options *o)
{
	struct unseal_work *w;
	unsigned int open = 0, i;
	u8 *buf;
	int ret = -ENOMEM;

	if (tk1_stored_data_check(p->blob, p->blob_len)) {
		pr_info_ratelimited("load: blob is not a TPM_STORED_DATA\n");
		return -EINVAL;
	}
	buf = trusted_tpm_buf_alloc();
	if (!buf)
		return ret;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		goto out_buf;

	mutex_lock(&tk1_lock);
	ret = unseal_exchange(buf, w, p, o, &open);
	for (i = 0; i < open; i++)
		trusted_tpm1_flush_auth(buf, w->sess[i].handle);
	mutex_unlock(&tk1_lock);

	kfree_sensitive(w);
out_buf:
	trusted_tpm_buf_free(buf);
	return ret;
}
