// SPDX-License-Identifier: GPL-2.0
/*
 * Signed policies (policykey=, draft-bottomley-tpm2-keys authPolicy [3]).
 *
 * Seal: the object's authPolicy is TPM2_PolicyAuthorize of the signer
 * (Part 3, 23.16): H(H(0 || TPM_CC_PolicyAuthorize || signerName) ||
 * policyRef) in the object's name algorithm, policyRef the policyref=
 * option (empty without it); trusted_tpm2_authorize_body() writes the
 * command, tk2_policy.c's row gives its digest. An approval is a signature over
 * H(approvedPolicy || policyRef): with an empty policyRef, one approval
 * opens every key sealed to that signer; with a policyref= per key (or
 * per class of keys) it opens only those. The blob carries no policy yet:
 * trusted-policy(1) adds the PolicyAuthorize (with the same policyRef) to
 * policy [1] and signed policies to authPolicy [3].
 *
 * Load: each signed policy is a list of policy commands (PolicyPCR,
 * PolicyCommandCode; PolicyNV with revocation) ending in a
 * PolicyAuthorize that carries the signer and its signature over
 * aHash = H_sig(approvedPolicy || policyRef), approvedPolicy being the
 * digest those commands give from zero (tpm2_policy.c's extend loop). Before the TPM is held, every
 * entry is checked (signer and policyRef those of policy [1], commands we
 * can replay) and its digests computed; then the entries are tried in
 * order: a fresh policy session (salted to the parent, with sessions, as
 * tpm2_policy.c's) replays the commands, the signer is loaded
 * with TPM2_LoadExternal in the owner hierarchy (a null-hierarchy key
 * gives null tickets, which PolicyAuthorize refuses), TPM2_VerifySignature
 * gives the ticket, the signer is flushed, TPM2_PolicyAuthorize, and for a
 * PIN (blobauth=) TPM2_PolicyAuthValue: the object's authPolicy is then
 * H(PolicyAuthorize's digest || TPM_CC_PolicyAuthValue), so the PIN is
 * needed whatever the signer approves. The first
 * session that gets through is handed back for TPM2_Unseal; a session the
 * TPM refused is flushed and the next entry tried.
 *
 * Revocation (revoke=<nvindex>): the key's policyRef names an NV counter
 * ("TKRV" || nvIndex || its Name || policyref=), read at seal with
 * NV_ReadPublic, audited in the operation's salted session. Every approval
 * of such a key is PolicyPCRs, PolicyNV(counter <= N), PolicyAuthorize:
 * the TPM refuses it once the owner has incremented the counter past N,
 * and a counter never goes back. At load the counter's Name is read the
 * same way and must be the policyRef's; approvals without the check are
 * not tried (no such signature exists for this policyRef unless the
 * signer made one), and PolicyNV is authorised by the index's empty
 * authValue in the operation's HMAC session, whose cpHash holds the Name.
 */
#include <crypto/algapi.h>	/* crypto_memneq */
#include <crypto/hash.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "tk2_signed.h"
#include "trusted_tpm2.h"

#define TICKET_MAX	(2 + 4 + 2 + TK2_DIGEST_MAX)

/* H(@a || @b) into @out, which may be @a. */
static int hash_two(struct crypto_shash *tfm, const u8 *a, u32 a_len,
		    const u8 *b, u32 b_len, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	int ret;

	desc->tfm = tfm;
	ret = crypto_shash_init(desc);
	if (ret)
		goto out;
	ret = crypto_shash_update(desc, a, a_len);
	if (ret)
		goto out;
	ret = crypto_shash_update(desc, b, b_len);
	if (ret)
		goto out;
	ret = crypto_shash_final(desc, out);
out:
	shash_desc_zero(desc);
	return ret;
}

/*
 * TPM_RC_HANDLE for NV_ReadPublic's one handle: no such index. Where the
 * index answered before (at load: the key was sealed to it) it is gone,
 * or an interposer says so: either way a refusal.
 */
static int nv_missing(u32 index)
{
	pr_info_ratelimited("revoke: no NV index 0x%08x\n", index);
	return -ENOENT;
}

static int nv_refuse(u32 index, const char *why)
{
	pr_warn_ratelimited("revoke: NV index 0x%08x refused: %s\n", index, why);
	return -EKEYREJECTED;
}

/**
 * trusted_tpm2_nv_counter() - read and check a revocation counter's Name
 * @buf: a command buffer
 * @ts: the operation's salted session (audit), or NULL without sessions
 * @c: SHA-256, for the Name
 * @index: the NV index
 * @name: set to its Name, TK2_NV_NAME_SIZE bytes
 *
 * NV_ReadPublic in clear gives the public area and the Name the TPM says
 * it has, which must agree; then, with @ts, NV_ReadPublic again in the
 * salted session with the audit attribute: its cpHash carries that Name
 * and its response HMAC covers the public area, which must be the same.
 * So an interposer's public area (another index's attributes, a Name that
 * is not the TPM's) is refused, as a parent's is. Then the index must be
 * a counter only the owner increments (tk2_nv_counter_check()).
 *
 * Return: 0; -ENOENT when the TPM has no such index; -EKEYREJECTED for a
 * reply that fails these checks; -EINVAL for an index that is no such
 * counter; or an exchange's errno.
 */
int trusted_tpm2_nv_counter(u8 *buf, struct trusted_tpm2_sess *ts,
			    const struct tk2_crypto *c, u32 index, u8 *name)
{
	struct tk2_session *s[] = { ts ? &ts->s : NULL };
	u8 area[128], mine[TK2_NV_NAME_SIZE];
	struct tk_span nm = { .p = mine, .len = sizeof(mine) };
	struct tk2_nv_public nv;
	struct tk_cmd_buf b;
	struct tk_span in;
	const char *why;
	u32 area_len;
	int rc;

	rc = tk2_cmd_nv_read_public(&b, buf, PAGE_SIZE, index);
	if (rc)
		return rc;
	rc = trusted_tpm_send(buf, NULL);
	if (rc > 0 && tk2_rc_base(rc) == TK2_RC_HANDLE)
		return nv_missing(index);
	if (rc)
		return trusted_tpm_errno(rc, "revoke: NV_ReadPublic");
	rc = tk2_rsp_nv_read_public(buf, PAGE_SIZE, false, &nv);
	if (rc)
		return nv_refuse(index, "malformed NV_ReadPublic reply");
	if (nv.area.len > sizeof(area))
		return nv_refuse(index, "malformed NV_ReadPublic reply");
	if (nv.name_alg != TK2_ALG_SHA256) {
		pr_info_ratelimited("revoke: NV index 0x%08x: its nameAlg is not SHA-256\n",
				    index);
		return -EINVAL;
	}
	in = nv.area;
	put_unaligned_be16(TK2_ALG_SHA256, mine);
	rc = c->digest(c->ctx, &in, 1, mine + 2);
	if (rc)
		return rc;
	if (nv.name.len != sizeof(mine) ||
	    crypto_memneq(nv.name.p, mine, sizeof(mine)))
		return nv_refuse(index, "the Name in the reply is not its public area's");
	memcpy(area, nv.area.p, nv.area.len);
	area_len = nv.area.len;

	if (ts) {
		rc = tk2_cmd_nv_read_public(&b, buf, PAGE_SIZE, index);
		if (rc)
			return rc;
		ts->s.auth_len = 0;
		ts->s.attrs = TK2_SESS_CONTINUE | TK2_SESS_AUDIT;
		rc = trusted_tpm2_sess_send(buf, ts, s, 1, 1, &nm, 0);
		if (rc == -EBADMSG)
			return nv_refuse(index, "the audited NV_ReadPublic reply fails its HMAC");
		if (rc > 0 && (tk2_rc_base(rc) == TK2_RC_AUTH_FAIL ||
			       tk2_rc_base(rc) == TK2_RC_BAD_AUTH))
			return nv_refuse(index, "the TPM knows it by another Name");
		if (rc > 0 && tk2_rc_base(rc) == TK2_RC_HANDLE)
			return nv_missing(index);
		if (rc)
			return trusted_tpm_errno(rc, "revoke: NV_ReadPublic");
		rc = tk2_rsp_nv_read_public(buf, PAGE_SIZE, true, &nv);
		if (rc)
			return nv_refuse(index, "malformed NV_ReadPublic reply");
		if (nv.area.len != area_len ||
		    crypto_memneq(nv.area.p, area, area_len))
			return nv_refuse(index, "the public area differs from the audited one");
	}
	why = tk2_nv_counter_check(&nv, index);
	if (why) {
		pr_info_ratelimited("revoke: NV index 0x%08x: %s\n", index, why);
		return -EINVAL;
	}
	memcpy(name, mine, sizeof(mine));
	return 0;
}

/**
 * trusted_tpm2_authorize_body() - the PolicyAuthorize of a policykey= key
 * @buf: a command buffer
 * @ts: the operation's salted session (the counter's read is audited), or
 *      NULL without sessions
 * @c: SHA-256
 * @o: the options: policykey, policyref, revoke
 * @body: set to the body: the signer's TPM2B_PUBLIC, the policyRef and
 *        sigAlg NULL, as policy [1] of the blob carries it
 * @size: its size
 *
 * With revoke= the counter is read and checked (trusted_tpm2_nv_counter())
 * and its Name goes into the policyRef. SHA-256 objects only then.
 *
 * Return: the body's length, -E2BIG, or trusted_tpm2_nv_counter()'s errno.
 */
int trusted_tpm2_authorize_body(u8 *buf, struct trusted_tpm2_sess *ts,
				const struct tk2_crypto *c,
				const struct tk_options *o, u8 *body, u32 size)
{
	u8 name[TK2_NV_NAME_SIZE], ref[TK2_DIGEST_MAX];
	struct tk_cmd_buf b;
	int rc, n = o->policyref_len;

	if (o->revoke) {
		rc = trusted_tpm2_nv_counter(buf, ts, c, o->revoke, name);
		if (rc)
			return rc;
		n = tk2_revoke_ref(ref, sizeof(ref), o->revoke, name,
				   o->policyref, o->policyref_len);
		if (n < 0)
			return n;
	}
	tk_cmd_init(&b, body, size);
	tk2_put_tpm2b(&b, o->policykey, o->policykey_len);
	tk2_put_tpm2b(&b, o->revoke ? ref : o->policyref, n);
	tk_cmd_u16(&b, TK2_ALG_NULL);
	return b.bad ? -E2BIG : (int)b.len;
}

/**
 * trusted_tpm2_blob_revocable() - whether a blob was sealed with revoke=
 * @blob: a TPMKey, as a payload keeps it
 * @len: its length
 *
 * Return: true when its policy [1] is a PolicyAuthorize whose policyRef
 * names a revocation counter; false otherwise (also for a blob that does
 * not parse, or whose policy [1] did not fit the payload).
 */
bool trusted_tpm2_blob_revocable(const u8 *blob, u32 len)
{
	struct tk2_authorize_body ab;
	struct tk2_key *k;
	const u8 *name;
	u32 index;
	bool ret;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return false;
	ret = !tk2_key_parse(blob, len, k) && k->signed_policy &&
	      !tk2_authorize_body_parse(k->policy[0].body, k->policy[0].len,
					&ab) &&
	      tk2_revoke_ref_parse(ab.policy_ref.p, ab.policy_ref.len, &index,
				   &name);
	kfree_sensitive(k);
	return ret;
}

/**
 * trusted_tpm2_signed_check() - whether policy [1]'s policyRef may be used
 * @k: a parsed blob with k->signed_policy
 * @o: the options: policyref= when given must be the blob's
 *
 * Whether policy [1] gives the object's authPolicy is
 * trusted_tpm2_policy_check()'s.
 *
 * Return: 0, or -EINVAL when the PolicyAuthorize of policy [1] names
 * another policyRef than policyref=, or a revocation counter for an
 * object that is not SHA-256.
 */
int trusted_tpm2_signed_check(const struct tk2_key *k,
			      const struct tk_options *o)
{
	struct tk2_authorize_body ab;
	struct tk_span user;
	const u8 *name;
	u32 index;
	int ret;

	ret = tk2_authorize_body_parse(k->policy[0].body, k->policy[0].len,
				       &ab);
	if (ret)
		return ret;
	user = ab.policy_ref;
	if (tk2_revoke_ref_parse(ab.policy_ref.p, ab.policy_ref.len, &index,
				 &name)) {
		user.p += TK2_REVOKE_REF_HEAD;
		user.len -= TK2_REVOKE_REF_HEAD;
		if (k->info.name_alg != TK2_ALG_SHA256) {
			pr_info_ratelimited("load: revocation needs a SHA-256 object\n");
			return -EINVAL;
		}
	}
	if (tk_opt_given(o, TK_OPT_POLICYREF) &&
	    (user.len != o->policyref_len ||
	     crypto_memneq(user.p, o->policyref, o->policyref_len))) {
		pr_info_ratelimited("load: the blob's policyRef is not policyref=\n");
		return -EINVAL;
	}
	return 0;
}

static bool signed_same(const struct tk_span *a, const struct tk_span *b)
{
	return a->len == b->len && !crypto_memneq(a->p, b->p, a->len);
}

/*
 * The commands of signed policy @a before its PolicyAuthorize: rows load
 * can replay (tk2_policy.c), for a key with revocation a PolicyNV of its
 * counter among them (and only then a PolicyNV); a reason to skip it, or
 * NULL.
 */
static const char *check_commands(const struct tk2_key_auth *a,
				  struct trusted_tpm2_signed *sg,
				  unsigned int i, u16 alg)
{
	const struct tk2_policy_cmd *row;
	const struct tk2_key_policy *p;
	struct tk2_policy_nv nv;
	bool counted = false;
	unsigned int c;

	for (c = 0; c + 1 < a->ncmd; c++) {
		p = &a->cmd[c];
		row = tk2_policy_cmd(p->code);
		if (!row || row->send == TK2_POLICY_TICKET ||
		    (row->send == TK2_POLICY_NV_AUTH && !sg->revoke) ||
		    tk2_policy_parse(p, alg))
			return "a command load cannot run";
		if (row->send != TK2_POLICY_NV_AUTH)
			continue;
		if (tk2_policy_nv_parse(p->body, p->len, &nv) ||
		    !tk2_policy_nv_is_revoke(&nv, sg->nv_index, &sg->count[i]))
			return "no revocation check (PolicyNV of the counter)";
		counted = true;
	}
	if (sg->revoke && !counted)
		return "no revocation check (PolicyNV of the counter)";
	return NULL;
}

/* Check signed policy @i and compute its digests; a reason to skip it. */
static const char *prepare_one(const struct tk2_key *k, unsigned int i,
			       struct trusted_tpm2_signed *sg,
			       struct trusted_tpm2_hash *hs)
{
	const struct tk2_key_auth *a = &k->auth[i];
	const struct tk2_key_policy *last = &a->cmd[a->ncmd - 1];
	struct tk2_authorize_body *ab = &sg->ab[i], key;
	u16 alg = k->info.name_alg;
	struct crypto_shash *tfm;
	const char *why;
	u32 dsize = tk2_alg_digest_size(alg);
	int ret;

	if (last->code != TK2_CC_POLICY_AUTHORIZE ||
	    tk2_authorize_body_parse(last->body, last->len, ab) ||
	    ab->sig_alg == TK2_ALG_NULL)
		return "not signed";
	if (tk2_authorize_body_parse(k->policy[0].body, k->policy[0].len,
				     &key) ||
	    !signed_same(&ab->pub, &key.pub) || !signed_same(&ab->policy_ref, &key.policy_ref))
		return "another signer or policyRef";
	why = check_commands(a, sg, i, alg);
	if (why)
		return why;
	if (trusted_tpm2_policy_digest(hs, a->cmd, a->ncmd - 1,
				       sg->revoke ? sg->nv_name : NULL,
				       sg->approved[i]))
		return "policy digest failed";

	tfm = trusted_tpm2_hash_alloc(ab->sig_hash);
	if (IS_ERR(tfm))
		return "signature hash not available";
	ret = hash_two(tfm, sg->approved[i], dsize, ab->policy_ref.p,
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
 * Return: 0, or -EPERM when the blob has no signed policy load could try.
 */
int trusted_tpm2_signed_prepare(const struct tk2_key *k,
				struct trusted_tpm2_signed *sg)
{
	unsigned int i, usable = 0;
	struct tk2_authorize_body key;
	struct trusted_tpm2_hash hs;
	const u8 *name;

	sg->revoke = !tk2_authorize_body_parse(k->policy[0].body,
					       k->policy[0].len, &key) &&
		     tk2_revoke_ref_parse(key.policy_ref.p, key.policy_ref.len,
					  &sg->nv_index, &name);
	if (sg->revoke)
		memcpy(sg->nv_name, name, TK2_NV_NAME_SIZE);
	trusted_tpm2_hash_init(&hs, k->info.name_alg);
	for (i = 0; i < k->nauth; i++) {
		sg->skip[i] = prepare_one(k, i, sg, &hs);
		usable += !sg->skip[i];
	}
	trusted_tpm2_hash_free(&hs);
	if (usable)
		return 0;
	pr_info_ratelimited("load: the blob has no signed policy to try (%s)\n",
			    k->nauth ? sg->skip[0] : "none added");
	return -EPERM;
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
	if (rc)
		return rc;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		return rc;
	rc = tk2_rsp_load_external(buf, PAGE_SIZE, &key, &n);
	if (rc) {
		if (rc == -EBADMSG && key >> 24 == TK2_HT_TRANSIENT)
			trusted_tpm2_flush(buf, key);
		return rc;
	}
	memcpy(name, n.p, n.len);
	*name_len = n.len;
	rc = tk2_cmd_verify_signature(&b, buf, PAGE_SIZE, key, sg->ahash[i],
				      sg->ahash_len[i], ab->sig.p, ab->sig.len);
	if (rc)
		goto out;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto out;
	rc = tk2_rsp_verify_signature(buf, PAGE_SIZE, &t);
	if (rc)
		goto out;
	if (t.len > TICKET_MAX) {
		rc = -EBADMSG;
		goto out;
	}
	memcpy(ticket, t.p, t.len);
	*ticket_len = t.len;
out:
	trusted_tpm2_flush(buf, key);
	return rc;
}

/*
 * Run signed policy @i in a new session: its commands, the signer's
 * ticket, its PolicyAuthorize, then the rest of the key's own policy (a
 * PIN's PolicyAuthValue). The session, or an error.
 */
static int try_one(u8 *buf, const struct tk2_key *k,
		   const struct trusted_tpm2_signed *sg, unsigned int i,
		   struct trusted_tpm2_sess *ts,
		   const struct trusted_tpm2_parent *pa, struct tk2_session *s,
		   bool *revoked)
{
	const struct tk2_key_auth *a = &k->auth[i];
	u16 alg = k->info.name_alg;
	u8 name[TK2_NAME_MAX], ticket[TICKET_MAX];
	struct trusted_tpm2_replay r = {
		.ts = ts,
		.nv_name = sg->revoke ? sg->nv_name : NULL,
	};
	u32 name_len = 0, ticket_len = 0;
	int rc;

	rc = trusted_tpm2_policy_start(buf, alg, ts, pa, s);
	if (rc)
		return rc;
	r.run.session = s->handle;
	rc = trusted_tpm2_policy_replay(buf, a->cmd, a->ncmd - 1, &r);
	if (rc)
		goto fail;
	rc = signed_verify(buf, sg, i, name, &name_len, ticket, &ticket_len);
	if (rc)
		goto fail;
	r.run.approved.p = sg->approved[i];
	r.run.approved.len = tk2_alg_digest_size(alg);
	r.run.key_name.p = name;
	r.run.key_name.len = name_len;
	r.run.ticket.p = ticket;
	r.run.ticket.len = ticket_len;
	rc = trusted_tpm2_policy_replay(buf, &a->cmd[a->ncmd - 1], 1, &r);
	if (rc)
		goto fail;
	/* after the reset digest: the key's own commands (a PIN) */
	rc = trusted_tpm2_policy_replay(buf, k->policy + 1, k->npolicy - 1, &r);
	if (rc)
		goto fail;
	return 0;
fail:
	/* PolicyPCR came first and passed: this boot's approval, revoked */
	if (rc > 0 && r.refused && r.refused->code == TK2_CC_POLICY_NV)
		*revoked = true;
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
 * @c: SHA-256 (a revocation counter's Name)
 * @pa: the parent to salt them to, with @ts
 * @s: set to the session; the caller flushes it unless Unseal ends it
 *
 * With revocation the counter is read first (trusted_tpm2_nv_counter()):
 * it must be there and have the Name the key's policyRef records.
 * Logs which signed policy the TPM accepted (its index and name).
 *
 * Return: 0; -EKEYREVOKED when the TPM refused every signed policy and
 * one of them for its counter alone (its PCRs matched: this boot was
 * approved, and the approval is revoked); -EPERM when it refused every
 * one otherwise; -ENOENT or -EKEYREJECTED for a counter missing, not the
 * key's, or refusing its empty authValue; or the errno of an exchange
 * that failed.
 */
int trusted_tpm2_signed_session(u8 *buf, const struct tk2_key *k,
				const struct trusted_tpm2_signed *sg,
				struct trusted_tpm2_sess *ts,
				const struct tk2_crypto *c,
				const struct trusted_tpm2_parent *pa,
				struct tk2_session *s)
{
	int rc, last = 0;
	unsigned int i;
	bool revoked = false;
	u8 name[TK2_NV_NAME_SIZE];

	if (sg->revoke) {
		rc = trusted_tpm2_nv_counter(buf, ts, c, sg->nv_index, name);
		if (rc == -EINVAL || (!rc && crypto_memneq(name, sg->nv_name, sizeof(name))))
			return nv_refuse(sg->nv_index, "not the counter the key was sealed to");
		if (rc)
			return rc;
	}
	for (i = 0; i < k->nauth; i++) {
		if (sg->skip[i])
			continue;
		rc = try_one(buf, k, sg, i, ts, pa, s, &revoked);
		if (!rc) {
			bool p = printable(&k->auth[i]);

			if (sg->revoke)
				pr_info_ratelimited("load: signed policy %u (%.*s, counter <= %llu) satisfied the TPM\n",
						    i, p ? (int)k->auth[i].name_len : 1,
						    p ? (const char *)k->auth[i].name : "-",
						    sg->count[i]);
			else
				pr_info_ratelimited("load: signed policy %u (%.*s) satisfied the TPM\n",
						    i, p ? (int)k->auth[i].name_len : 1,
						    p ? (const char *)k->auth[i].name : "-");
			return 0;
		}
		/* logged: a forged reply, or a counter no approval passes */
		if (rc == -EKEYREJECTED)
			return rc;
		if (rc < 0)
			return trusted_tpm_errno(rc, "load: signed policy");
		last = rc;
	}
	if (revoked) {
		pr_info_ratelimited("load: the signed policy for these PCR values is revoked (counter 0x%08x above its limit)\n",
				    sg->nv_index);
		return -EKEYREVOKED;
	}
	pr_info_ratelimited("load: the TPM refused every signed policy (last: 0x%03x)\n",
			    last);
	return -EPERM;
}
