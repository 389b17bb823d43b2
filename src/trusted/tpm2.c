// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing on a TPM 2.0 (TPM 2.0 Library Part 3: TPM2_Create, TPM2_Load,
 * TPM2_Unseal).
 *
 * The key is the sensitive data of a keyed-hash object without a scheme,
 * its name algorithm the hash= option; migratable=0 makes the object
 * fixedTPM and fixedParent, which is how a blob says so. The blob is a
 * TPMKey (tk2_key.h) naming the parent; blobs in the older raw form, whose
 * sealed data ends with the migratable byte, still load. Parents are
 * tpm2_parent.c's, PCR policies tpm2_policy.c's, signed policies
 * (policykey=) tpm2_signed.c's.
 *
 * Every handle this code makes the TPM create (a primary, the loaded
 * object, a policy session) is flushed before it returns, on every path.
 *
 * With sessions (sessions=1, the default), each operation runs in an
 * HMAC session salted to its checked parent, an ECC P-256 or RSA key
 * (tpm2_session.c; kept from the previous operation when that was under
 * a parent of the same Name): GetRandom encrypted, Create with the parent
 * authorised by the session and inSensitive encrypted, Load authorised by
 * it, Unseal authorised by it with outData encrypted; every response's
 * HMAC is checked before a byte is used. A blob with a policy of its own
 * (pcrs=, policykey=) and a SHA-256 name algorithm gets a second salted
 * session, the policy session, which authorises Unseal alone (with the
 * PIN as authValue after PolicyAuthValue) and encrypts outData; the HMAC
 * session goes on, to be kept. The chip is held from the first command
 * to the last.
 *
 * Dictionary attacks: a sealed object without blobauth= is noDA (it has no
 * authValue to guess), one with a PIN is DA-protected; the module's own
 * primaries are noDA (the TCG template). An operation that may count a
 * failed authorisation (a DA-protected parent or object) by a caller
 * without CAP_SYS_ADMIN first reads the TPM's lockout counter and is
 * refused (EBUSY) once it reaches half of maxTries: the other half is
 * root's, so no unprivileged user can put the TPM in lockout through us
 * (docs/trusted-tpm2.md, "Dictionary attacks").
 */
#include <crypto/hash.h>
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted_tpm2.h"

/* One operation at a time: a TPM has few slots for loaded objects. */
static DEFINE_MUTEX(tpm2_lock);

struct seal_work {
	struct trusted_tpm2_parent parent;
	struct trusted_tpm2_seal_policy pol;
	struct trusted_tpm2_hash hs;
	struct tk2_key key;
	struct trusted_tpm2_sess ts;
	bool use;		/* in a session */
};

struct unseal_work {
	struct trusted_tpm2_parent parent;
	struct tk2_key key;
	u32 item;
	struct trusted_tpm2_sess ts;
	bool use;
	bool salted;			/* the policy session is salted */
	u8 name[2 + TK2_DIGEST_MAX];	/* the object's Name, from the blob */
	u32 name_len;
	struct tk2_session pol;		/* the policy session, in sessions */
	struct trusted_tpm2_signed sg;	/* signed policies, checked */
};

static void set_auth(struct tk2_session *s, const u8 *auth, u32 len, u8 attrs)
{
	len = min_t(u32, len, sizeof(s->auth));
	memcpy(s->auth, auth, len);
	s->auth_len = len;
	s->attrs = attrs;
}

static struct tk_span name_of(const struct trusted_tpm2_parent *pa)
{
	return (struct tk_span){ .p = pa->name, .len = sizeof(pa->name) };
}

static bool is_handle_error(int rc, unsigned int n)
{
	return rc > 0 && !(rc & TK2_RC_P) && tk2_rc_index(rc) == n &&
	       tk2_rc_base(rc) == TK2_RC_HANDLE;
}

/* The TPM has no object at a handle the command names. */
static bool is_missing(int rc, unsigned int n)
{
	return is_handle_error(rc, n) || rc == TK2_RC_REFERENCE_H0 + (int)(n - 1);
}

/* policyhandle=0 means none, as in-tree. */
static bool has_policyhandle(const struct tk_options *o)
{
	return tk_opt_given(o, TK_OPT_POLICYHANDLE) && o->policyhandle;
}

static int check_seal_options(const struct tk_options *o)
{
	const char *why = NULL;

	if (tk_opt_given(o, TK_OPT_PCRINFO))
		why = "pcrinfo is TPM 1.2 only; use pcrs= or policydigest=";
	else if (tk_opt_given(o, TK_OPT_PCRS) &&
		 (tk_opt_given(o, TK_OPT_POLICYDIGEST) || has_policyhandle(o)))
		why = "pcrs cannot be combined with policydigest or policyhandle";
	else if (tk_opt_given(o, TK_OPT_PCRS) && o->blobauth_len &&
		 tk2_hash_alg(o->hash) != TK2_ALG_SHA256)
		why = "pcrs with blobauth needs hash=sha256";
	else if (o->policykey_len &&
		 (tk_opt_given(o, TK_OPT_PCRS) || has_policyhandle(o) ||
		  tk_opt_given(o, TK_OPT_POLICYDIGEST)))
		why = "policykey cannot be combined with pcrs, policydigest or policyhandle";
	else if (o->policykey_len && o->blobauth_len &&
		 tk2_hash_alg(o->hash) != TK2_ALG_SHA256)
		why = "policykey with blobauth needs hash=sha256";
	else if (o->policyref_len && !o->policykey_len)
		why = "policyref goes with policykey";
	else if (o->revoke && !o->policykey_len)
		why = "revoke goes with policykey";
	else if (o->revoke && tk2_hash_alg(o->hash) != TK2_ALG_SHA256)
		why = "revoke needs hash=sha256";
	else if (o->revoke && o->policyref_len > TK2_REVOKE_USER_MAX)
		why = "policyref with revoke is at most 22 bytes";
	else if (o->policyref_len > tk2_alg_digest_size(tk2_hash_alg(o->hash)))
		why = "policyref is longer than a digest of hash=";
	else if (tk_opt_given(o, TK_OPT_KEYHANDLE) &&
		 !tk2_key_parent_ok(o->keyhandle))
		why = "keyhandle is not a TPM 2.0 parent handle";
	if (!why)
		return 0;
	pr_info_ratelimited("refused: %s\n", why);
	return -EINVAL;
}

/*
 * Before an authorisation the TPM may count as a dictionary-attack failure
 * (@counted): a caller without CAP_SYS_ADMIN goes on only while the
 * lockout counter is below half of maxTries. One failure at most per
 * operation (the first refused authorisation ends it), and operations are
 * serialised by tpm2_lock, so the counter never reaches maxTries through
 * them. The counter heals by the TPM's recoveryTime.
 */
static int da_guard(u8 *buf, bool counted, const char *what)
{
	struct tk2_da_state da;
	struct tk_cmd_buf b;
	int rc;

	if (!counted || capable(CAP_SYS_ADMIN))
		return 0;
	rc = tk2_cmd_get_da_state(&b, buf, PAGE_SIZE);
	if (rc)
		return rc;
	rc = trusted_tpm_send(buf, NULL);
	if (!rc)
		rc = tk2_rsp_get_da_state(buf, PAGE_SIZE, &da);
	if (rc)
		return trusted_tpm_errno(rc, "reading the lockout counter");
	if (da.counter < da.max_tries / 2)
		return 0;
	pr_info_ratelimited("%s: refused without CAP_SYS_ADMIN: the TPM has counted %u of %u failed authorisations; the last half are root's\n",
			    what, da.counter, da.max_tries);
	return -EBUSY;
}

/* May Unseal of this object count a failed authorisation? */
static bool object_da_counted(const struct tk2_key *k,
			      const struct tk_options *o)
{
	u32 attrs = k->info.attrs;

	/* no noDA, and an authValue checked: a password, HMAC or policy's */
	return !(attrs & TK2_OA_NODA) &&
	       ((attrs & TK2_OA_USERWITHAUTH) || k->auth_value ||
		has_policyhandle(o));
}

/* A refusal of TPM2_Create, as an errno user space can act on. */
static int create_errno(int rc, const struct trusted_key_payload *p,
			const struct tk_options *o, u32 parent)
{
	u32 base = rc > 0 ? tk2_rc_base(rc) : 0;

	if (is_missing(rc, 1)) {
		pr_info_ratelimited("new: no parent key at 0x%08x\n", parent);
		return -ENOKEY;
	}
	if (base == TK2_RC_HASH) {
		pr_info_ratelimited("new: the TPM does not support hash=%s\n",
				    tk_hash_name(o->hash));
		return -EINVAL;
	}
	if ((rc & TK2_RC_P) && (base == TK2_RC_SIZE || base == TK2_RC_VALUE)) {
		pr_info_ratelimited("new: the TPM cannot seal a %u-byte key (0x%03x)\n",
				    p->key_len, rc);
		return -EINVAL;
	}
	return trusted_tpm_errno(rc, "new: TPM2_Create");
}

/*
 * Send the command in @buf under the parent, which it names as its one
 * handle: in the operation's session (@ts) with the parent's authorisation
 * and @attrs, or plain (@ts NULL: the password stays in the command).
 */
static int tpm2_send_under(u8 *buf, struct trusted_tpm2_sess *ts,
			   const struct trusted_tpm2_parent *pa, u8 attrs,
			   u32 nh_rsp)
{
	struct tk2_session *s[1];
	struct tk_span name = name_of(pa);

	if (!ts)
		return trusted_tpm_send(buf, NULL);
	s[0] = &ts->s;
	set_auth(&ts->s, pa->auth.value, pa->auth.len, attrs);
	return trusted_tpm2_sess_send(buf, ts, s, 1, 1, &name, nh_rsp);
}

/* The TPMKey of the object Create returned, into p->blob. */
static int tpm2_encode_blob(struct seal_work *w, struct trusted_key_payload *p,
			    const struct tk_options *o, const struct tk_span *priv,
			    const struct tk_span *pub)
{
	bool pcrs = tk_opt_given(o, TK_OPT_PCRS);
	int rc;

	w->key.empty_auth = !o->blobauth_len;
	w->key.parent = w->parent.recorded;
	w->key.pub = pub->p;
	w->key.pub_len = pub->len;
	w->key.priv = priv->p;
	w->key.priv_len = priv->len;
	if (pcrs) {	/* policykey=: trusted-policy(1) writes it */
		w->key.npolicy = w->pol.ncmd;
		memcpy(w->key.policy, w->pol.cmd,
		       w->pol.ncmd * sizeof(w->pol.cmd[0]));
	}
	rc = tk2_key_encode(p->blob, sizeof(p->blob), &w->key);
	if (rc < 0) {
		pr_info_ratelimited("new: a %u-byte key with hash=%s%s does not fit a %zu-byte blob\n",
				    p->key_len, tk_hash_name(o->hash),
				    pcrs ? " and a PCR policy" : "", sizeof(p->blob));
		return -EINVAL;
	}
	p->blob_len = rc;
	return 0;
}

static int tpm2_create(u8 *buf, struct seal_work *w, struct trusted_key_payload *p,
		       const struct tk_options *o, u16 alg)
{
	bool own = tk_opt_given(o, TK_OPT_PCRS) || o->policykey_len;
	struct tk2_create_in in = {
		.parent = w->parent.handle,
		.parent_auth = w->parent.auth,
		.user_auth = o->blobauth,
		.user_auth_len = o->blobauth_len,
		.data = p->key,
		.data_len = p->key_len,
		.name_alg = alg,
		.policy = own ? w->pol.digest : o->policydigest,
		.policy_len = own ? tk2_alg_digest_size(alg) :
				     o->policydigest_len,
	};
	struct tk_span priv, pub;
	struct tk_cmd_buf b;
	int rc;

	in.attrs = in.policy_len ? 0 : TK2_OA_USERWITHAUTH;
	if (!o->blobauth_len)	/* no authValue to guess: no DA counting */
		in.attrs |= TK2_OA_NODA;
	if (!p->migratable)
		in.attrs |= TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT;
	rc = tk2_cmd_create(&b, buf, PAGE_SIZE, &in);
	if (rc)
		goto refused;
	/* continued: kept for the next operation */
	rc = tpm2_send_under(buf, w->use ? &w->ts : NULL, &w->parent,
			     TK2_SESS_DECRYPT | TK2_SESS_CONTINUE, 0);
	if (rc)
		goto refused;
	rc = tk2_rsp_create(buf, PAGE_SIZE, &priv, &pub);
	if (rc)
		return trusted_tpm_errno(rc, "new: TPM2_Create");
	return tpm2_encode_blob(w, p, o, &priv, &pub);

refused:
	return create_errno(rc, p, o, w->parent.recorded);
}

/* Add command @code with @len bytes of @body to the seal's policy. */
static void seal_policy_add(struct trusted_tpm2_seal_policy *pol, u32 code,
			    const u8 *body, int len)
{
	pol->cmd[pol->ncmd++] = (struct tk2_key_policy){
		.code = code, .body = body, .len = len,
	};
}

/*
 * The object's own policy (pcrs=, policykey=), with the chip held: its
 * commands into w->pol, in the order a session runs them, and their
 * digest. pcrs=: PolicyPCR, PolicyCommandCode(Unseal); policykey=:
 * PolicyAuthorize (the blob keeps none: trusted-policy(1) writes it);
 * blobauth=: PolicyAuthValue last.
 */
static int seal_policy(u8 *buf, struct seal_work *w, const struct tk_options *o)
{
	struct trusted_tpm2_sess *ts = w->use ? &w->ts : NULL;
	struct trusted_tpm2_seal_policy *pol = &w->pol;
	int n;

	pol->ncmd = 0;
	if (tk_opt_given(o, TK_OPT_PCRS)) {
		n = trusted_tpm2_pcr_body(buf, ts, o, &w->hs, pol->pcr,
					  sizeof(pol->pcr));
		if (n < 0)
			return n;
		seal_policy_add(pol, TK2_CC_POLICY_PCR, pol->pcr, n);
		put_unaligned_be32(TK2_CC_UNSEAL, pol->unseal);
		seal_policy_add(pol, TK2_CC_POLICY_COMMAND_CODE, pol->unseal,
				sizeof(pol->unseal));
	}
	if (o->policykey_len) {
		n = trusted_tpm2_authorize_body(buf, ts, &w->ts.c, o,
						pol->authorize,
						sizeof(pol->authorize));
		if (n < 0)
			return n;
		seal_policy_add(pol, TK2_CC_POLICY_AUTHORIZE, pol->authorize, n);
	}
	if (o->blobauth_len)	/* the PIN, last */
		seal_policy_add(pol, TK2_CC_POLICY_AUTH_VALUE, NULL, 0);
	return trusted_tpm2_policy_digest(&w->hs, pol->cmd, pol->ncmd, NULL,
					  pol->digest);
}

/* The TPM part of a seal, with the chip held. */
static int seal_held(u8 *buf, struct seal_work *w,
		     struct trusted_key_payload *p, const struct tk_options *o,
		     bool draw)
{
	u16 alg = tk2_hash_alg(o->hash);
	int ret;

	ret = trusted_tpm2_parent_open(buf, o->keyhandle,
				       !tk_opt_given(o, TK_OPT_KEYHANDLE), o,
				       &w->ts, &w->parent);
	if (ret)
		return ret;
	w->use = o->sessions;
	ret = da_guard(buf, !w->parent.noda, "seal");
	if (ret)
		goto end_session;
	if (draw)
		ret = trusted_tpm2_random(buf, w->use ? &w->ts : NULL, p->key,
					  p->key_len);
	if (ret)
		goto end_session;
	if (tk_opt_given(o, TK_OPT_PCRS) || o->policykey_len) {
		ret = seal_policy(buf, w, o);
		if (ret)
			goto end_session;
	}
	ret = tpm2_create(buf, w, p, o, alg);
end_session:
	trusted_tpm2_sess_end(buf, &w->ts, !ret);
	if (ret && !w->ts.gone)
		ret = trusted_tpm2_parent_recheck(buf, &w->ts, &w->parent, ret);
	trusted_tpm2_parent_put(buf, &w->parent);
	return ret;
}

static int tpm2_seal(struct trusted_key_payload *p, const struct tk_options *o,
		     bool draw)
{
	u16 alg = tk2_hash_alg(o->hash), signer;
	struct seal_work *w;
	u8 *buf;
	int ret;

	ret = check_seal_options(o);
	if (ret)
		return ret;
	buf = trusted_tpm_buf_alloc();
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf || !w)
		goto out;
	/* the policy's hashes: may load a module, not under the lock */
	trusted_tpm2_hash_init(&w->hs, alg);
	if (tk_opt_given(o, TK_OPT_PCRS) || o->policykey_len) {
		ret = PTR_ERR_OR_ZERO(trusted_tpm2_hash_get(&w->hs, alg));
		if (ret)
			goto out;
	}
	if (o->policykey_len) {	/* the signer's Name */
		ret = tk2_signer_check(o->policykey, o->policykey_len, &signer);
		if (!ret)
			ret = PTR_ERR_OR_ZERO(trusted_tpm2_hash_get(&w->hs,
								    signer));
		if (ret)
			goto out;
	}
	if (o->sessions)
		trusted_tpm2_sess_init(&w->ts);
	else
		trusted_tpm2_sess_crypto(&w->ts);	/* revoke=: a Name */

	mutex_lock(&tpm2_lock);
	ret = trusted_tpm_hold();
	if (ret)
		goto out_unlock;
	ret = seal_held(buf, w, p, o, draw);
	if (ret && w->ts.gone)	/* the kept session was flushed: anew */
		ret = seal_held(buf, w, p, o, draw);
	trusted_tpm_release();
out_unlock:
	mutex_unlock(&tpm2_lock);
out:
	if (w) {	/* NULL when its allocation failed */
		trusted_tpm2_hash_free(&w->hs);
		trusted_tpm2_sess_free(&w->ts);
	}
	kfree_sensitive(w);
	trusted_tpm_buf_free(buf);
	return ret;
}

/* trusted_tpm2_ops.seal: p->key sealed under the options' parent. */
static int trusted_tpm2_seal(struct trusted_key_payload *p,
			     const struct tk_options *o)
{
	return tpm2_seal(p, o, false);
}

/*
 * trusted_tpm2_ops.seal_random: p->key_len bytes from the TPM, drawn
 * inside the operation's session (encrypted on the bus), then sealed.
 */
static int trusted_tpm2_seal_random(struct trusted_key_payload *p,
				    const struct tk_options *o)
{
	return tpm2_seal(p, o, true);
}

/* What the options may add to a blob at load, checked before the TPM. */
static int check_load(struct unseal_work *w, const struct tk_options *o)
{
	const struct tk2_key *k = &w->key;
	const char *why = NULL;

	if (tk_opt_given(o, TK_OPT_PCRS))
		why = "pcrs applies to new and update, not load";
	else if (k->raw && !tk_opt_given(o, TK_OPT_KEYHANDLE))
		why = "a raw TPM 2.0 blob needs keyhandle=";
	else if (!k->raw && tk_opt_given(o, TK_OPT_KEYHANDLE) &&
		 o->keyhandle != k->parent)
		why = "keyhandle differs from the blob's parent";
	else if (k->raw && !tk2_key_parent_ok(o->keyhandle))
		why = "keyhandle is not a TPM 2.0 parent handle";
	else if (k->npolicy && has_policyhandle(o))
		why = "the blob carries its own policy: no policyhandle";
	else if (k->auth_value && k->info.name_alg != TK2_ALG_SHA256)
		why = "a PIN in a policy needs a SHA-256 object";
	else if (o->policyref_len && !k->signed_policy)
		why = "policyref= given for a blob without a signed policy";
	else if (tk_opt_given(o, TK_OPT_REVOKE))
		why = "revoke applies to new and update, not load";
	if (why) {
		pr_info_ratelimited("load: %s\n", why);
		return -EINVAL;
	}
	if (!k->npolicy)
		return 0;
	if (k->signed_policy)
		return trusted_tpm2_signed_check(k, o) ?:
		       trusted_tpm2_policy_check(k) ?:
		       trusted_tpm2_signed_prepare(k, &w->sg);
	return trusted_tpm2_policy_check(k);
}

static int load_object(u8 *buf, struct unseal_work *w)
{
	struct tk_cmd_buf b;
	int rc;

	rc = tk2_cmd_load(&b, buf, PAGE_SIZE, w->parent.handle,
			  &w->parent.auth, w->key.priv, w->key.priv_len,
			  w->key.pub, w->key.pub_len);
	if (rc)
		goto out;
	/* continued, also when a salted policy session does the rest */
	rc = tpm2_send_under(buf, w->use ? &w->ts : NULL, &w->parent,
			     TK2_SESS_CONTINUE, 1);
	if (is_missing(rc, 1)) {
		pr_info_ratelimited("load: no parent key at 0x%08x\n",
				    w->parent.recorded);
		return -ENOKEY;
	}
	if (rc > 0 && tk2_rc_base(rc) == TK2_RC_INTEGRITY) {
		pr_info_ratelimited("load: not sealed by this TPM (the blob fails its integrity check under parent 0x%08x: another TPM's or another parent's, or tampered)\n",
				    w->parent.recorded);
		return -EKEYREJECTED;
	}
	if (rc)
		goto out;
	rc = tk2_rsp_load(buf, PAGE_SIZE, &w->item);
	if (!rc)
		return 0;
	/* A malformed response may still have loaded the object. */
	if (rc == -EBADMSG && w->item >> 24 == TK2_HT_TRANSIENT)
		trusted_tpm2_flush(buf, w->item);
out:
	return trusted_tpm_errno(rc, "load: TPM2_Load");
}

/* The sealed data: the key, plus the migratable byte in the raw form. */
static int take_key(struct trusted_key_payload *p, const struct unseal_work *w,
		    const struct tk_span *data)
{
	u32 extra = w->key.raw ? 1 : 0, fixed;

	if (data->len < TK_KEY_MIN + extra || data->len > TK_KEY_MAX + extra) {
		pr_info_ratelimited("load: unsealed %u bytes: not a trusted key\n",
				    data->len);
		return -EINVAL;
	}
	p->key_len = data->len - extra;
	memcpy(p->key, data->p, p->key_len);
	if (w->key.raw) {
		p->migratable = data->p[p->key_len];
		p->old_format = 1;
	} else {
		fixed = TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT;
		p->migratable = (w->key.info.attrs & fixed) != fixed;
	}
	return 0;
}

/*
 * The sessions of Unseal, into @s; 0 for none (a plain command). Our
 * policy session with an HMAC (salted, or keyed by the PIN alone with
 * sessions=0) authorises Unseal by itself and, salted, encrypts outData.
 * Otherwise the operation's session authorises the object with blobauth,
 * or goes beside the policy session that does (ours unsalted, or user
 * space's policyhandle=, its blobauth as the hmac field), encrypting.
 */
static unsigned int unseal_sessions(struct unseal_work *w,
				    const struct tk2_auth *auth,
				    const struct tk_options *o,
				    struct tk2_session **s)
{
	if (w->pol.hmac) {
		set_auth(&w->pol, o->blobauth,
			 w->key.auth_value ? o->blobauth_len : 0,
			 w->pol.key_len ? TK2_SESS_ENCRYPT : 0);
		s[0] = &w->pol;
		return 1;
	}
	if (!w->use)
		return 0;
	if (auth->handle == TK2_RS_PW) {
		set_auth(&w->ts.s, auth->value, auth->len,
			 TK2_SESS_ENCRYPT | TK2_SESS_CONTINUE);
		s[0] = &w->ts.s;
		return 1;
	}
	memset(&w->pol, 0, sizeof(w->pol));
	w->pol.handle = auth->handle;
	set_auth(&w->pol, auth->value, auth->len, auth->attrs);
	set_auth(&w->ts.s, NULL, 0, TK2_SESS_ENCRYPT | TK2_SESS_CONTINUE);
	s[0] = &w->pol;
	s[1] = &w->ts.s;
	return 2;
}

/*
 * The authorisation of Unseal into @auth: the blob's own policy session,
 * started here (@session: the caller flushes it unless Unseal ends it),
 * user space's policyhandle=, or blobauth= as a password.
 */
static int unseal_auth(u8 *buf, struct unseal_work *w,
		       const struct tk_options *o, struct tk2_auth *auth,
		       bool *session)
{
	struct trusted_tpm2_sess *ts = w->salted ? &w->ts : NULL;
	int rc;

	*auth = (struct tk2_auth){
		.handle = TK2_RS_PW,
		.value = o->blobauth,
		.len = o->blobauth_len,
	};
	*session = false;
	if (w->key.npolicy) {
		rc = w->key.signed_policy ?
		     trusted_tpm2_signed_session(buf, &w->key, &w->sg, ts,
						 &w->ts.c, &w->parent,
						 &w->pol) :
		     trusted_tpm2_policy_session(buf, &w->key, ts, &w->parent,
						 &w->pol);
		if (rc)
			return rc;
		*session = true;
		auth->handle = w->pol.handle;
		auth->len = 0;
		/* PolicyAuthValue: an HMAC keyed by the PIN, salted or not */
		w->pol.hmac |= w->key.auth_value;
		return 0;
	}
	if (has_policyhandle(o)) {
		/* user space's session: it stays open for user space */
		auth->handle = o->policyhandle;
		auth->attrs = TK2_SA_CONTINUE;
	}
	return 0;
}

static int unseal_object(u8 *buf, struct unseal_work *w,
			 struct trusted_key_payload *p,
			 const struct tk_options *o)
{
	struct tk_span name = { .p = w->name, .len = w->name_len };
	struct tk2_session *s[2];
	struct tk2_auth auth;
	struct tk_cmd_buf b;
	struct tk_span data;
	unsigned int n;
	bool session;
	int rc;

	rc = unseal_auth(buf, w, o, &auth, &session);
	if (rc)
		return rc;
	rc = tk2_cmd_unseal(&b, buf, PAGE_SIZE, w->item, &auth);
	if (rc)
		goto flush_policy;
	n = unseal_sessions(w, &auth, o, s);
	if (n)
		rc = trusted_tpm2_sess_send(buf, &w->ts, s, n, 1, &name, 0);
	else
		rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto flush_policy;
	/* outData: in sessions, checked and decrypted by the session check */
	if (n)
		rc = tk2_rsp_unseal_params(buf, PAGE_SIZE, &data);
	else
		rc = tk2_rsp_unseal(buf, PAGE_SIZE, &data);
	if (rc)
		goto refused;
	return take_key(p, w, &data);

flush_policy:
	if (session)
		trusted_tpm2_flush(buf, w->pol.handle);	/* else it ended */
refused:
	if (rc > 0) {
		pr_info_ratelimited("load: the TPM refused to unseal (0x%03x)\n",
				    rc);
		return trusted_tpm_errno(rc, NULL);
	}
	return trusted_tpm_errno(rc, "load: TPM2_Unseal");
}

/* The object's Name, nameAlg || H(TPMT_PUBLIC), from the blob. */
static int object_name(struct unseal_work *w)
{
	u16 alg = w->key.info.name_alg;
	struct crypto_shash *tfm;
	int ret;

	if (w->key.pub_len < 2)
		return -EINVAL;
	tfm = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	put_unaligned_be16(alg, w->name);
	ret = crypto_shash_tfm_digest(tfm, w->key.pub + 2, w->key.pub_len - 2,
				      w->name + 2);
	w->name_len = 2 + crypto_shash_digestsize(tfm);
	crypto_free_shash(tfm);
	return ret;
}

/*
 * A blob longer than the payload's (signed policies make it so) is kept
 * as far as it fits: without authPolicy [3], or without policy [1] too.
 */
static int keep_blob(struct trusted_key_payload *p, struct tk2_key *k)
{
	int n;

	k->nauth = 0;
	n = tk2_key_encode(p->blob, sizeof(p->blob), k);
	if (n < 0) {
		k->npolicy = 0;
		n = tk2_key_encode(p->blob, sizeof(p->blob), k);
	}
	if (n < 0)
		return -EINVAL;
	p->blob_len = n;
	return 0;
}

/* The TPM part of a load, with the chip held. */
static int unseal_held(u8 *buf, struct unseal_work *w,
		       struct trusted_key_payload *p,
		       const struct tk_options *o)
{
	bool loaded;
	int ret;

	ret = trusted_tpm2_parent_open(buf, w->key.raw ? o->keyhandle :
				       w->key.parent, false, o, &w->ts,
				       &w->parent);
	if (ret)
		return ret;
	w->use = o->sessions;
	w->salted = w->use && w->key.npolicy &&
		    w->key.info.name_alg == TK2_ALG_SHA256;
	ret = da_guard(buf, !w->parent.noda || object_da_counted(&w->key, o),
		       "load");
	if (!ret)
		ret = load_object(buf, w);
	loaded = !ret;
	if (loaded)	/* the parent salts the policy session: kept till then */
		ret = unseal_object(buf, w, p, o);
	/* the session saved first: a load's last command stays the flush */
	trusted_tpm2_sess_end(buf, &w->ts, !ret);
	if (loaded)
		trusted_tpm2_flush(buf, w->item);
	if (ret && !w->ts.gone)
		ret = trusted_tpm2_parent_recheck(buf, &w->ts, &w->parent, ret);
	trusted_tpm2_parent_put(buf, &w->parent);
	return ret;
}

/*
 * trusted_tpm2_ops.update_check: update reseals the same key bytes into a
 * new object and cannot touch the blobs made before, which stay valid.
 * revoke= on update is taken only for a key whose blob shows it was made
 * with a counter (its policy [1], which trusted-policy add writes: a key
 * loaded with approvals), whose earlier approvals the counter revokes; on
 * another key it would promise a revocation the earlier blobs escape.
 */
static int trusted_tpm2_update_check(const struct trusted_key_payload *old,
				     const struct tk_options *o)
{
	if (!tk_opt_given(o, TK_OPT_REVOKE) ||
	    trusted_tpm2_blob_revocable(old->blob, old->blob_len))
		return 0;
	pr_info_ratelimited("update: refused: revoke= on a key whose blob names no revocation counter; update cannot revoke earlier blobs, they stay valid (make a new key)\n");
	return -EINVAL;
}

/* trusted_tpm2_ops.exit: flush the session kept between operations. */
static void trusted_tpm2_exit(void)
{
	u8 *buf;

	if (!trusted_tpm2_sess_kept())
		return;
	buf = trusted_tpm_buf_alloc();
	mutex_lock(&tpm2_lock);
	if (buf && !trusted_tpm_hold()) {
		trusted_tpm2_sess_drop(buf);
		trusted_tpm_release();
	}
	trusted_tpm2_sess_drop(NULL);	/* wiped, flushed or not */
	mutex_unlock(&tpm2_lock);
	trusted_tpm_buf_free(buf);
}

/*
 * trusted_tpm2_ops.unseal: load and unseal @blob (@len bytes; longer than
 * p->blob with signed policies) into p->key; p->blob is set to it when
 * @blob is not p->blob (in part when it does not fit: see keep_blob()).
 */
static int trusted_tpm2_unseal(struct trusted_key_payload *p, const u8 *blob,
			       u32 len, const struct tk_options *o)
{
	struct unseal_work *w;
	u8 *buf = NULL;
	int ret = -ENOMEM;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return ret;
	if (tk2_key_parse(blob, len, &w->key)) {
		pr_info_ratelimited("load: %s\n", w->key.why);
		ret = -EINVAL;
		goto out;
	}
	ret = check_load(w, o);
	if (ret)
		goto out;
	if (o->sessions || w->key.auth_value) {	/* the Name is in cpHash */
		ret = object_name(w);
		if (ret)
			goto out;
	}
	if (o->sessions)
		trusted_tpm2_sess_init(&w->ts);
	else
		trusted_tpm2_sess_crypto(&w->ts);	/* a PIN's HMAC */
	buf = trusted_tpm_buf_alloc();
	ret = -ENOMEM;
	if (!buf)
		goto out;

	mutex_lock(&tpm2_lock);
	ret = trusted_tpm_hold();
	if (ret)
		goto out_unlock;
	ret = unseal_held(buf, w, p, o);
	if (ret && w->ts.gone)	/* the kept session was flushed: anew */
		ret = unseal_held(buf, w, p, o);
	trusted_tpm_release();
out_unlock:
	mutex_unlock(&tpm2_lock);
	trusted_tpm_buf_free(buf);
out:
	if (!ret && blob != p->blob && len <= sizeof(p->blob)) {
		memcpy(p->blob, blob, len);
		p->blob_len = len;
	} else if (!ret && blob != p->blob) {
		ret = keep_blob(p, &w->key);
	}
	trusted_tpm2_sess_free(&w->ts);
	kfree_sensitive(w);
	return ret;
}

/* trusted_tpm2_ops.parse: a key command with the TPM 2.0 options. */
static int trusted_tpm2_parse(char *line, struct tk_request *req)
{
	return tk_parse_request(line, true, req);
}

/* TPM 2.0, as core.c and tpm.c see it (trusted_tpm_ops()). */
const struct trusted_tpm_ops trusted_tpm2_ops = {
	.version = "2.0",
	.tpm2 = true,
	.parse = trusted_tpm2_parse,
	.seal = trusted_tpm2_seal,
	.seal_random = trusted_tpm2_seal_random,
	.unseal = trusted_tpm2_unseal,
	.update_check = trusted_tpm2_update_check,
	.exit = trusted_tpm2_exit,
};
