// SPDX-License-Identifier: GPL-2.0
/*
 * Signed policies (policykey=, draft-bottomley-tpm2-keys authPolicy [3]).
 *
 * Seal: the object's authPolicy is TPM2_PolicyAuthorize of the signer
 * (Part 3, 23.16): H(H(0 || TPM_CC_PolicyAuthorize || signerName) ||
 * policyRef) in the object's name algorithm, policyRef the policyref=
 * option (empty without it). An approval is a signature over
 * H(approvedPolicy || policyRef): with an empty policyRef, one approval
 * opens every key sealed to that signer; with a policyref= per key (or
 * per class of keys) it opens only those. The blob carries no policy yet:
 * trusted-policy(1) adds the PolicyAuthorize (with the same policyRef) to
 * policy [1] and signed policies to authPolicy [3].
 *
 * Load: each signed policy is a list of PolicyPCR commands ending in a
 * PolicyAuthorize that carries the signer and its signature over
 * aHash = H_sig(approvedPolicy || policyRef), approvedPolicy being the
 * digest the PolicyPCRs give from zero. Before the TPM is held, every
 * entry is checked (signer and policyRef those of policy [1], commands we
 * can replay) and its digests computed; then the entries are tried in
 * order: a fresh policy session (salted to the parent, with sessions, as
 * tpm2_policy.c's) runs the PolicyPCRs, the signer is loaded
 * with TPM2_LoadExternal in the owner hierarchy (a null-hierarchy key
 * gives null tickets, which PolicyAuthorize refuses), TPM2_VerifySignature
 * gives the ticket, the signer is flushed, TPM2_PolicyAuthorize, and for a
 * PIN (blobauth=) TPM2_PolicyAuthValue: the object's authPolicy is then
 * H(PolicyAuthorize's digest || TPM_CC_PolicyAuthValue), so the PIN is
 * needed whatever the signer approves. The first
 * session that gets through is handed back for TPM2_Unseal; a session the
 * TPM refused is flushed and the next entry tried.
 */
#include <crypto/algapi.h>	/* crypto_memneq */
#include <crypto/hash.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "tk2_signed.h"
#include "tpm2.h"

#define TICKET_MAX	(2 + 4 + 2 + TK2_DIGEST_MAX)

/* nameAlg || H(TPMT_PUBLIC) of the signer @pub (a TPMT_PUBLIC). */
static int signer_name(const u8 *pub, u32 len, u8 *name, u32 *name_len)
{
	struct crypto_shash *tfm;
	u16 alg;
	int ret;

	if (tk2_signer_check(pub, len, &alg))
		return -EINVAL;
	tfm = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	put_unaligned_be16(alg, name);
	ret = crypto_shash_tfm_digest(tfm, pub, len, name + 2);
	*name_len = 2 + crypto_shash_digestsize(tfm);
	crypto_free_shash(tfm);
	return ret;
}

/* H(H(0 || CC_PolicyAuthorize || name) || ref), in @alg, into @out. */
static int authorize_digest(u16 alg, const u8 *pub, u32 pub_len,
			    const struct tk_span *ref, u8 *out)
{
	u32 dsize = tk2_alg_digest_size(alg), name_len;
	u8 in[TK2_DIGEST_MAX + 4 + TK2_NAME_MAX];
	struct crypto_shash *tfm;
	int ret;

	ret = signer_name(pub, pub_len, in + dsize + 4, &name_len);
	if (ret)
		return ret;
	tfm = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	memset(in, 0, dsize);
	put_unaligned_be32(TK2_CC_POLICY_AUTHORIZE, in + dsize);
	ret = crypto_shash_tfm_digest(tfm, in, dsize + 4 + name_len, out);
	if (!ret) {
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		ret = crypto_shash_init(desc);
		ret = ret ?: crypto_shash_update(desc, out, dsize);
		ret = ret ?: crypto_shash_update(desc, ref->p, ref->len);
		ret = ret ?: crypto_shash_final(desc, out);
		shash_desc_zero(desc);
	}
	crypto_free_shash(tfm);
	return ret;
}

/* A PIN: @d extended by PolicyAuthValue (Part 3 §23.17), in @alg. */
static int add_auth_value(u16 alg, u8 *d)
{
	u8 in[TK2_DIGEST_MAX + 4];
	struct crypto_shash *tfm;
	int n, ret;

	tfm = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	n = tk2_policy_auth_value_input(in, sizeof(in), d,
					tk2_alg_digest_size(alg));
	ret = n < 0 ? n : crypto_shash_tfm_digest(tfm, in, n, d);
	crypto_free_shash(tfm);
	return ret;
}

/**
 * trusted_tpm2_authorize_policy() - the authPolicy of a policykey= key
 * @o: the options: policykey, policyref
 * @name_alg: the object's name algorithm
 * @pol: its digest is set
 *
 * With blobauth= PolicyAuthValue follows the PolicyAuthorize: the PIN is
 * the object's, whatever policy the signer approves. Allocates hash
 * transforms: call it before taking the TPM lock.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int trusted_tpm2_authorize_policy(const struct tk_options *o, u16 name_alg,
				  struct trusted_tpm2_pcr_policy *pol)
{
	struct tk_span ref = { .p = o->policyref, .len = o->policyref_len };
	int ret;

	memset(pol->digest, 0, sizeof(pol->digest));
	ret = authorize_digest(name_alg, o->policykey, o->policykey_len, &ref,
			       pol->digest);
	if (!ret && o->blobauth_len)
		ret = add_auth_value(name_alg, pol->digest);
	return ret;
}

/**
 * trusted_tpm2_signed_check() - whether policy [1] is the object's authPolicy
 * @k: a parsed blob with k->signed_policy
 * @o: the options: policyref= when given must be the blob's
 *
 * Return: 0, or -EINVAL when the PolicyAuthorize of policy [1] (and its
 * PolicyAuthValue, for a PIN) does not give the object's authPolicy, or
 * names another policyRef than policyref=.
 */
int trusted_tpm2_signed_check(const struct tk2_key *k,
			      const struct tk_options *o)
{
	struct tk2_authorize_body ab;
	u8 d[TK2_DIGEST_MAX];
	int ret;

	ret = tk2_authorize_body_parse(k->policy[0].body, k->policy[0].len,
				       &ab);
	if (!ret && tk_opt_given(o, TK_OPT_POLICYREF) &&
	    (ab.policy_ref.len != o->policyref_len ||
	     crypto_memneq(ab.policy_ref.p, o->policyref, o->policyref_len))) {
		pr_info_ratelimited("load: the blob's policyRef is not policyref=\n");
		return -EINVAL;
	}
	ret = ret ?: authorize_digest(k->info.name_alg, ab.pub.p + 2,
				      ab.pub.len - 2, &ab.policy_ref, d);
	if (!ret && k->auth_value)
		ret = add_auth_value(k->info.name_alg, d);
	if (ret)
		return ret;
	if (k->info.policy_len != tk2_alg_digest_size(k->info.name_alg) ||
	    crypto_memneq(d, k->info.policy, k->info.policy_len)) {
		pr_info_ratelimited("load: the blob's PolicyAuthorize is not the object's policy\n");
		return -EINVAL;
	}
	return 0;
}

static bool signed_same(const struct tk_span *a, const struct tk_span *b)
{
	return a->len == b->len && !crypto_memneq(a->p, b->p, a->len);
}

/* Check signed policy @i and compute its digests; a reason to skip it. */
static const char *prepare_one(const struct tk2_key *k, unsigned int i,
			       struct trusted_tpm2_signed *sg, u8 *input)
{
	const struct tk2_key_auth *a = &k->auth[i];
	const struct tk2_key_policy *last = &a->cmd[a->ncmd - 1];
	struct tk2_authorize_body *ab = &sg->ab[i], key;
	u16 alg = k->info.name_alg;
	struct crypto_shash *tfm;
	struct tk2_policy_pcr pp;
	unsigned int c;
	int ret = 0, n;

	if (last->code != TK2_CC_POLICY_AUTHORIZE ||
	    tk2_authorize_body_parse(last->body, last->len, ab) ||
	    ab->sig_alg == TK2_ALG_NULL)
		return "not signed";
	if (tk2_authorize_body_parse(k->policy[0].body, k->policy[0].len,
				     &key) ||
	    !signed_same(&ab->pub, &key.pub) || !signed_same(&ab->policy_ref, &key.policy_ref))
		return "another signer or policyRef";
	for (c = 0; c + 1 < a->ncmd; c++)
		if (a->cmd[c].code != TK2_CC_POLICY_PCR ||
		    tk2_policy_pcr_parse(a->cmd[c].body, a->cmd[c].len, alg, &pp))
			return "a command load cannot run";

	tfm = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(tfm))
		return "hash not available";
	memset(sg->approved[i], 0, sizeof(sg->approved[i]));
	for (c = 0; !ret && c + 1 < a->ncmd; c++) {
		tk2_policy_pcr_parse(a->cmd[c].body, a->cmd[c].len, alg, &pp);
		n = tk2_policy_pcr_input(input, TK2_POLICY_INPUT_MAX,
					 sg->approved[i], &pp);
		ret = n < 0 ? n : crypto_shash_tfm_digest(tfm, input, n,
							  sg->approved[i]);
	}
	crypto_free_shash(tfm);
	if (ret)
		return "policy digest failed";

	tfm = trusted_tpm2_hash_alloc(ab->sig_hash);
	if (IS_ERR(tfm))
		return "signature hash not available";
	memcpy(input, sg->approved[i], tk2_alg_digest_size(alg));
	memcpy(input + tk2_alg_digest_size(alg), ab->policy_ref.p,
	       ab->policy_ref.len);
	ret = crypto_shash_tfm_digest(tfm, input, tk2_alg_digest_size(alg) +
				      ab->policy_ref.len, sg->ahash[i]);
	sg->ahash_len[i] = crypto_shash_digestsize(tfm);
	crypto_free_shash(tfm);
	return ret ? "signature digest failed" : NULL;
}

/**
 * trusted_tpm2_signed_prepare() - check a blob's signed policies
 * @k: a parsed blob with k->signed_policy
 * @sg: filled with each policy's digests, or why it will not be tried
 *
 * Allocates hash transforms: call it before taking the TPM lock.
 *
 * Return: 0, -ENOMEM, or -EPERM when the blob has no signed policy load
 * could try.
 */
int trusted_tpm2_signed_prepare(const struct tk2_key *k,
				struct trusted_tpm2_signed *sg)
{
	unsigned int i, usable = 0;
	u8 *input;

	input = kmalloc(TK2_POLICY_INPUT_MAX + TK2_DIGEST_MAX, GFP_KERNEL);
	if (!input)
		return -ENOMEM;
	for (i = 0; i < k->nauth; i++) {
		sg->skip[i] = prepare_one(k, i, sg, input);
		usable += !sg->skip[i];
	}
	kfree_sensitive(input);
	if (usable)
		return 0;
	pr_info_ratelimited("load: the blob has no signed policy to try (%s)\n",
			    k->nauth ? sg->skip[0] : "none added");
	return -EPERM;
}

/* Send the command in @buf; an empty response wanted. */
static int send_empty(u8 *buf)
{
	int rc = trusted_tpm_send(buf, NULL);

	return rc ?: tk2_rsp_empty(buf, PAGE_SIZE);
}

/* LoadExternal, VerifySignature, flush: the ticket of entry @i. */
static int signed_verify(u8 *buf, const struct trusted_tpm2_signed *sg,
			 unsigned int i, u8 *name, u32 *name_len, u8 *ticket,
		  u32 *ticket_len)
{
	const struct tk2_authorize_body *ab = &sg->ab[i];
	struct tk_span n, t;
	struct tk_cmd_buf b;
	u32 key = 0;
	int rc;

	rc = tk2_cmd_load_external(&b, buf, PAGE_SIZE, ab->pub.p, ab->pub.len,
				   TK2_RH_OWNER);
	rc = rc ?: trusted_tpm_send(buf, NULL);
	rc = rc ?: tk2_rsp_load_external(buf, PAGE_SIZE, &key, &n);
	if (rc) {
		if (rc == -EBADMSG && key >> 24 == TK2_HT_TRANSIENT)
			trusted_tpm2_flush(buf, key);
		return rc;
	}
	memcpy(name, n.p, n.len);
	*name_len = n.len;
	rc = tk2_cmd_verify_signature(&b, buf, PAGE_SIZE, key, sg->ahash[i],
				      sg->ahash_len[i], ab->sig.p, ab->sig.len);
	rc = rc ?: trusted_tpm_send(buf, NULL);
	rc = rc ?: tk2_rsp_verify_signature(buf, PAGE_SIZE, &t);
	if (!rc && t.len > TICKET_MAX)
		rc = -EBADMSG;
	if (!rc) {
		memcpy(ticket, t.p, t.len);
		*ticket_len = t.len;
	}
	trusted_tpm2_flush(buf, key);
	return rc;
}

/* Run signed policy @i in a new session; the session, or an error. */
static int try_one(u8 *buf, const struct tk2_key *k,
		   const struct trusted_tpm2_signed *sg, unsigned int i,
		   struct trusted_tpm2_sess *ts,
		   const struct trusted_tpm2_parent *pa, struct tk2_session *s)
{
	const struct tk2_key_auth *a = &k->auth[i];
	u16 alg = k->info.name_alg;
	u8 name[TK2_NAME_MAX], ticket[TICKET_MAX];
	struct tk2_policy_authorize_in in = { 0 };
	u32 name_len = 0, ticket_len = 0;
	struct tk_cmd_buf b;
	unsigned int c;
	int rc;

	rc = trusted_tpm2_policy_start(buf, alg, ts, pa, s);
	if (rc)
		return rc;
	for (c = 0; !rc && c + 1 < a->ncmd; c++) {
		rc = tk2_cmd_policy(&b, buf, PAGE_SIZE, a->cmd[c].code,
				    s->handle, a->cmd[c].body, a->cmd[c].len);
		rc = rc ?: send_empty(buf);
	}
	rc = rc ?: signed_verify(buf, sg, i, name, &name_len, ticket, &ticket_len);
	if (!rc) {
		in.session = s->handle;
		in.approved.p = sg->approved[i];
		in.approved.len = tk2_alg_digest_size(alg);
		in.policy_ref = sg->ab[i].policy_ref;
		in.key_name.p = name;
		in.key_name.len = name_len;
		in.ticket.p = ticket;
		in.ticket.len = ticket_len;
		rc = tk2_cmd_policy_authorize(&b, buf, PAGE_SIZE, &in);
		rc = rc ?: send_empty(buf);
	}
	if (!rc && k->auth_value) {	/* a PIN, after the reset digest */
		rc = tk2_cmd_policy_auth_value(&b, buf, PAGE_SIZE, s->handle);
		rc = rc ?: send_empty(buf);
	}
	if (rc)
		trusted_tpm2_flush(buf, s->handle);
	return rc;
}

/* A signed policy's name, for the log: printable ASCII or nothing. */
static bool printable(const struct tk2_key_auth *a)
{
	u32 i;

	if (!a->name || a->name_len > 64)
		return false;
	for (i = 0; i < a->name_len; i++)
		if (!isprint(a->name[i]))
			return false;
	return true;
}

/**
 * trusted_tpm2_signed_session() - a policy session one signed policy satisfies
 * @buf: a command buffer
 * @k: the parsed blob, k->signed_policy set
 * @sg: what trusted_tpm2_signed_prepare() made of it
 * @ts: the operation's session state to salt each policy session, or NULL
 * @pa: the parent to salt them to, with @ts
 * @s: set to the session; the caller flushes it unless Unseal ends it
 *
 * Logs which signed policy the TPM accepted (its index and name).
 *
 * Return: 0; -EPERM when the TPM refused every signed policy; or the
 * errno of an exchange that failed.
 */
int trusted_tpm2_signed_session(u8 *buf, const struct tk2_key *k,
				const struct trusted_tpm2_signed *sg,
				struct trusted_tpm2_sess *ts,
				const struct trusted_tpm2_parent *pa,
				struct tk2_session *s)
{
	int rc, last = 0;
	unsigned int i;

	for (i = 0; i < k->nauth; i++) {
		if (sg->skip[i])
			continue;
		rc = try_one(buf, k, sg, i, ts, pa, s);
		if (!rc) {
			bool p = printable(&k->auth[i]);

			pr_info_ratelimited("load: signed policy %u (%.*s) satisfied the TPM\n",
					    i, p ? (int)k->auth[i].name_len : 1,
					    p ? (const char *)k->auth[i].name : "-");
			return 0;
		}
		if (rc < 0)
			return trusted_tpm_errno(rc, "load: signed policy");
		last = rc;
	}
	pr_info_ratelimited("load: the TPM refused every signed policy (last: 0x%03x)\n",
			    last);
	return -EPERM;
}
