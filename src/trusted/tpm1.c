// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing on a TPM 1.2 (TPM Main Part 3, TPM_Seal and TPM_Unseal).
 *
 * The sealed data is the key followed by one byte, the migratable flag;
 * the blob handed to user space is the TPM_STORED_DATA the TPM returns.
 * Seal runs under an OSAP session for the parent key, Unseal under two
 * OIAP sessions (parent key, then the blob). Nonces come from the kernel
 * RNG; every response HMAC is verified before its data is used. A session
 * counts as open from the TPM's successful answer to OSAP/OIAP, however
 * malformed the rest of it, until the TPM answers the command that uses
 * it; one left open on any path is flushed. Unless sessions=0, Seal and
 * Unseal travel in an encrypted transport session (tpm1_transport.c).
 */
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted.h"

struct seal_work {
	struct trusted_tpm1_xport x;
	struct tk1_session sess;
	bool open;
	struct tk1_auth_in auth;
	u8 osap_odd[TK1_NONCE_SIZE];
	u8 secret[TK1_DIGEST_SIZE];
	u8 encauth[TK1_DIGEST_SIZE];
	u8 digest[TK1_DIGEST_SIZE];
	u8 check[TK1_DIGEST_SIZE];
	u8 data[TK_KEY_MAX + 1];
};

struct unseal_work {
	struct trusted_tpm1_xport x;
	struct tk1_session sess[2];
	bool open[2];
	struct tk1_auth_in auth[2];
	u8 digest[TK1_DIGEST_SIZE];
	u8 check[TK1_DIGEST_SIZE];
};

static u32 parent_handle(const struct tk_options *o)
{
	return tk_opt_given(o, TK_OPT_KEYHANDLE) ? o->keyhandle : TK1_KH_SRK;
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
	ret = trusted_tpm1_session(buf, &w->sess, true, &w->open);
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

/* TPM_Seal of p->key in @buf, authorised by an OSAP session opened here. */
static int seal_build(u8 *buf, struct seal_work *w,
		      const struct trusted_key_payload *p,
		      const struct tk_options *o)
{
	struct tk_span params;
	struct tk_cmd_buf b;
	int ret;

	ret = start_osap(buf, w, o);
	if (ret)
		return ret;
	ret = encrypt_blobauth(w, o);
	if (ret)
		return ret;
	memcpy(w->data, p->key, p->key_len);
	w->data[p->key_len] = p->migratable;
	ret = tk1_seal_params(&b, buf, PAGE_SIZE, parent_handle(o),
			      w->encauth, o->pcrinfo, o->pcrinfo_len,
			       w->data, p->key_len + 1, &params);
	if (ret)
		return ret;
	ret = trusted_tpm1_param_digest(w->digest, TK1_ORD_SEAL, &params, false);
	if (ret)
		return ret;
	w->auth.handle = w->sess.handle;
	get_random_bytes(w->auth.nonce_odd, sizeof(w->auth.nonce_odd));
	ret = trusted_tpm1_auth_hmac(w->auth.hmac, w->secret, w->digest,
				     w->sess.nonce_even, w->auth.nonce_odd, &w->auth.cont);
	if (ret)
		return ret;
	tk1_append_auth(&b, &w->auth);
	return tk1_finish(&b);
}

static int seal_exchange(u8 *buf, struct seal_work *w,
			 struct trusted_key_payload *p,
			 const struct tk_options *o)
{
	struct tk1_seal_out out;
	bool ran;
	int ret;

	ret = seal_build(buf, w, p, o);
	if (ret)
		return ret;

	ret = trusted_tpm1_send(buf, &w->x, 1, "TPM_Seal", &ran);
	if (ran)
		w->open = false;	/* the TPM saw it and closed the session */
	if (ret)
		return trusted_tpm_errno(ret, NULL);
	ret = tk1_parse_seal(buf, PAGE_SIZE, &out);
	if (ret)
		return trusted_tpm_errno(ret, "TPM_Seal");
	ret = trusted_tpm1_param_digest(w->digest, TK1_ORD_SEAL, &out.params, true);
	if (ret)
		return ret;
	ret = trusted_tpm1_check_response(w->check, w->secret, w->digest, &w->auth,
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

/*
 * One sequence of a seal; @gone: it failed in a kept transport that was
 * not there (nothing ran in it: the caller tries once more).
 */
static int seal_sequence(u8 *buf, struct seal_work *w,
			 struct trusted_key_payload *p,
			 const struct tk_options *o, bool draw, bool *gone)
{
	int ret;

	*gone = false;
	ret = trusted_tpm1_begin(buf, &w->x, o);
	if (ret)
		return ret;
	if (draw)
		ret = trusted_tpm1_random_in(buf, &w->x, p->key, p->key_len);
	if (!ret)
		ret = seal_exchange(buf, w, p, o);
	if (w->open)
		trusted_tpm1_flush(buf, w->sess.handle, TK1_RT_AUTH);
	*gone = ret && w->x.gone;
	trusted_tpm1_end(buf, &w->x, !ret);
	return ret;
}

/*
 * Seal p->key; with @draw, draw it from the TPM first, in the same
 * transport session (one transport for the whole of a new key).
 */
static int tpm1_seal(struct trusted_key_payload *p, const struct tk_options *o,
		     bool draw)
{
	struct seal_work *w;
	bool gone;
	u8 *buf;
	int ret = -ENOMEM;

	buf = trusted_tpm_buf_alloc();
	if (!buf)
		return ret;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		goto out_buf;

	ret = seal_sequence(buf, w, p, o, draw, &gone);
	if (gone) {	/* the kept transport was flushed: anew */
		memset(w, 0, sizeof(*w));
		ret = seal_sequence(buf, w, p, o, draw, &gone);
	}

	kfree_sensitive(w);
out_buf:
	trusted_tpm_buf_free(buf);
	return ret;
}

/* trusted_tpm1_ops.seal: TPM_Seal of p->key into p->blob. */
static int trusted_tpm1_seal(struct trusted_key_payload *p,
			     const struct tk_options *o)
{
	return tpm1_seal(p, o, false);
}

/*
 * trusted_tpm1_ops.seal_random: p->key_len bytes from the TPM, sealed:
 * GetRandom and TPM_Seal in one transport session (unless sessions=0).
 */
static int trusted_tpm1_seal_random(struct trusted_key_payload *p,
				    const struct tk_options *o)
{
	return tpm1_seal(p, o, true);
}

/* TPM_Unseal in @buf, authorised by two OIAP sessions opened here. */
static int unseal_build(u8 *buf, struct unseal_work *w,
			const struct trusted_key_payload *p,
			const struct tk_options *o, const u8 *const *keys)
{
	struct tk_span params;
	struct tk_cmd_buf b;
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = trusted_tpm1_oiap(buf, &w->sess[i], &w->open[i]);
		if (ret)
			return ret;
	}
	ret = tk1_unseal_params(&b, buf, PAGE_SIZE, parent_handle(o),
				p->blob, p->blob_len, &params);
	if (ret)
		return ret;
	ret = trusted_tpm1_param_digest(w->digest, TK1_ORD_UNSEAL, &params, false);
	if (ret)
		return ret;
	for (i = 0; i < 2; i++) {
		w->auth[i].handle = w->sess[i].handle;
		get_random_bytes(w->auth[i].nonce_odd, TK1_NONCE_SIZE);
		ret = trusted_tpm1_auth_hmac(w->auth[i].hmac, keys[i], w->digest,
					     w->sess[i].nonce_even, w->auth[i].nonce_odd,
				&w->auth[i].cont);
		if (ret)
			return ret;
		tk1_append_auth(&b, &w->auth[i]);
	}
	return tk1_finish(&b);
}

static int unseal_exchange(u8 *buf, struct unseal_work *w,
			   struct trusted_key_payload *p,
			   const struct tk_options *o)
{
	const u8 *keys[2] = { o->keyauth, o->blobauth };
	struct tk1_unseal_out out;
	bool ran;
	int i, ret;

	ret = unseal_build(buf, w, p, o, keys);
	if (ret)
		return ret;

	ret = trusted_tpm1_send(buf, &w->x, 1, "TPM_Unseal", &ran);
	if (ran) {	/* the TPM saw it and closed both sessions */
		w->open[0] = false;
		w->open[1] = false;
	}
	if (ret == TK1_RC_WRONGPCRVAL)
		pr_info_ratelimited("load: PCR values changed (TPM_WRONGPCRVAL)\n");
	else if (ret == TK1_RC_DECRYPT_ERROR || ret == TK1_RC_NOTSEALED_BLOB)
		pr_info_ratelimited("load: not sealed by this TPM (%d: another TPM's or another parent's blob, or tampered)\n",
				    ret);
	if (ret)
		return trusted_tpm_errno(ret, NULL);
	ret = tk1_parse_unseal(buf, PAGE_SIZE, &out);
	if (ret)
		return trusted_tpm_errno(ret, "TPM_Unseal");
	ret = trusted_tpm1_param_digest(w->digest, TK1_ORD_UNSEAL, &out.params, true);
	for (i = 0; !ret && i < 2; i++)
		ret = trusted_tpm1_check_response(w->check, keys[i], w->digest, &w->auth[i],
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

/* One sequence of an unseal; @gone as for seal_sequence(). */
static int unseal_sequence(u8 *buf, struct unseal_work *w,
			   struct trusted_key_payload *p,
			   const struct tk_options *o, bool *gone)
{
	unsigned int i;
	int ret;

	*gone = false;
	ret = trusted_tpm1_begin(buf, &w->x, o);
	if (ret)
		return ret;
	ret = unseal_exchange(buf, w, p, o);
	for (i = 0; i < 2; i++)
		if (w->open[i])
			trusted_tpm1_flush(buf, w->sess[i].handle,
					   TK1_RT_AUTH);
	*gone = ret && w->x.gone;
	trusted_tpm1_end(buf, &w->x, !ret);
	return ret;
}

/*
 * trusted_tpm1_ops.unseal: TPM_Unseal of @blob (@len bytes, kept in
 * p->blob) into p->key and p->migratable.
 */
static int trusted_tpm1_unseal(struct trusted_key_payload *p, const u8 *blob,
			       u32 len, const struct tk_options *o)
{
	struct unseal_work *w;
	bool gone;
	u8 *buf;
	int ret = -ENOMEM;

	if (len > sizeof(p->blob)) {
		pr_info_ratelimited("load: a TPM 1.2 blob of %u bytes is too large\n",
				    len);
		return -EINVAL;
	}
	memcpy(p->blob, blob, len);
	p->blob_len = len;
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

	ret = unseal_sequence(buf, w, p, o, &gone);
	if (gone) {	/* the kept transport was flushed: anew */
		memset(w, 0, sizeof(*w));
		ret = unseal_sequence(buf, w, p, o, &gone);
	}
	kfree_sensitive(w);
out_buf:
	trusted_tpm_buf_free(buf);
	return ret;
}

/* trusted_tpm1_ops.parse: a key command with the TPM 1.2 options. */
static int trusted_tpm1_parse(char *line, struct tk_request *req)
{
	return tk_parse_request(line, false, req);
}

/* trusted_tpm1_ops.exit: the kept transport flushed, SHA-1 freed. */
static void trusted_tpm1_ops_exit(void)
{
	trusted_tpm1_exit();
	trusted_auth_exit();
}

/* TPM 1.2, as core.c and tpm.c see it (trusted_tpm_ops()). */
const struct trusted_tpm_ops trusted_tpm1_ops = {
	.version = "1.2",
	.tpm2 = false,
	.parse = trusted_tpm1_parse,
	.init = trusted_auth_init,
	.exit = trusted_tpm1_ops_exit,
	.seal = trusted_tpm1_seal,
	.seal_random = trusted_tpm1_seal_random,
	.unseal = trusted_tpm1_unseal,
};
