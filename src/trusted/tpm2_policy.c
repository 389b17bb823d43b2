// SPDX-License-Identifier: GPL-2.0
/*
 * The policies of TPM 2.0 trusted keys, through src/lib/tk2_policy.c's
 * table of policy commands: one extend loop (trusted_tpm2_policy_digest():
 * the object's authPolicy at seal, its check at load, a signed policy's
 * approvedPolicy) and one replay loop (trusted_tpm2_policy_replay(): the
 * policy session at load), and the PCR reads of pcrs=.
 *
 * Seal (tpm2.c puts the commands together): pcrs= reads the selected PCRs
 * and hashes their values with the object's name algorithm into the
 * PolicyPCR's pcrDigest; PolicyCommandCode(TPM2_Unseal) follows, then with
 * blobauth= PolicyAuthValue (the PIN is the object's authValue and keeps
 * its dictionary-attack protection). The object gets the digest of the
 * commands as authPolicy, the blob the commands in its policy field (the
 * TPMKey format's way to say how to satisfy the policy). Load: recompute
 * the digest from the blob's policy field and refuse the blob when it is
 * not the object's; then replay the commands in a fresh policy session,
 * which the TPM refuses at PolicyPCR once a PCR has moved. With sessions,
 * that policy session is salted to the checked parent (tpm2_session.c),
 * so its HMAC (keyed by sessionKey, and by the PIN after PolicyAuthValue)
 * and its encryption of Unseal's outData are unknown on the bus. Hash
 * transforms are allocated (crypto_alloc_shash() may load a module) before
 * tpm2.c takes its TPM lock.
 *
 * pcrcap=<n> seals to the reset value of PCR n (all zero bytes), not its
 * value now: the initramfs extends ("caps") PCR n after its unlock attempt
 * at every boot, so a key sealed on the running system, where n is capped,
 * unseals in the next boot's initramfs only, before the cap. The blob's
 * PolicyPCR carries the selection with n and the pcrDigest of those
 * values: load replays it unchanged, and the TPM compares it with PCR n's
 * value then.
 */
#include <crypto/hash.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "tk2_policy.h"
#include "trusted_tpm2.h"

#define PCR_READ_TRIES	3	/* a PCR changed while we read: start over */

struct pcr_work {
	struct tk2_pcr_values got;
	u8 values[TK2_PCR_COUNT * TK2_DIGEST_MAX];
	u8 pcr_digest[TK2_DIGEST_MAX];
};

/**
 * trusted_tpm2_hash_alloc() - the hash transform of a TPM algorithm
 * @alg: a TPM 2.0 hash algorithm
 *
 * May load a module: call it before taking the TPM lock.
 *
 * Return: the transform (crypto_free_shash() it), or ERR_PTR(-EINVAL).
 */
struct crypto_shash *trusted_tpm2_hash_alloc(u16 alg)
{
	const char *name = tk_hash_crypto_name(tk_hash_by_alg(alg));
	struct crypto_shash *tfm;

	tfm = name ? crypto_alloc_shash(name, 0, 0) : ERR_PTR(-ENOENT);
	if (IS_ERR(tfm)) {
		pr_info_ratelimited("pcrs: hash %s is not available (%ld)\n",
				    name ?: "?", PTR_ERR(tfm));
		return ERR_PTR(-EINVAL);
	}
	if (crypto_shash_digestsize(tfm) != tk2_alg_digest_size(alg)) {
		crypto_free_shash(tfm);
		return ERR_PTR(-EINVAL);
	}
	return tfm;
}

/*
 * One PCR_Read of @ask. In the operation's salted session @ts (when there
 * is one) with the audit attribute: the response's HMAC covers the values,
 * so an interposer's are refused (EKEYREJECTED) instead of sealed to.
 */
static int pcr_read(u8 *buf, struct trusted_tpm2_sess *ts,
		    const struct tk2_pcrs *ask, struct tk2_pcr_values *got)
{
	struct tk2_session *s[] = { ts ? &ts->s : NULL };
	struct tk_cmd_buf b;
	int rc;

	rc = tk2_cmd_pcr_read(&b, buf, PAGE_SIZE, ask);
	if (rc)
		return rc;
	if (!ts) {
		rc = trusted_tpm_send(buf, NULL);
		if (rc)
			return rc;
		return tk2_rsp_pcr_read(buf, PAGE_SIZE, ask, got);
	}
	ts->s.auth_len = 0;
	ts->s.attrs = TK2_SESS_CONTINUE | TK2_SESS_AUDIT;
	rc = trusted_tpm2_sess_send(buf, ts, s, 1, 0, NULL, 0);
	if (rc == -EBADMSG)
		return -EKEYREJECTED;
	if (rc)
		return rc;
	return tk2_rsp_pcr_read_params(buf, PAGE_SIZE, ask, got);
}

/*
 * Read the PCRs of @sel into w->values, in index order; a TPM returns at
 * most eight per PCR_Read. Returns the number of bytes.
 */
static int read_pcrs(u8 *buf, struct trusted_tpm2_sess *ts,
		     const struct tk2_pcrs *sel, struct pcr_work *w)
{
	u32 dsize = tk2_alg_digest_size(sel->alg), counter = 0, left, bit;
	u8 *slot[TK2_PCR_COUNT] = { NULL };
	struct tk2_pcrs ask = *sel;
	unsigned int i, n, tries;
	int rc;

	for (i = 0, n = 0; i < TK2_PCR_COUNT; i++)
		if (sel->mask & (1U << i))
			slot[i] = w->values + dsize * n++;

	for (tries = 0; tries < PCR_READ_TRIES; tries++) {
		for (left = sel->mask; left; left &= ~w->got.got) {
			ask.mask = left;
			rc = pcr_read(buf, ts, &ask, &w->got);
			if (rc == -EKEYREJECTED)
				return rc;
			if (rc)
				return trusted_tpm_errno(rc, "pcrs: reading PCRs");
			if (!w->got.got) {
				pr_info_ratelimited("pcrs: the TPM has no such PCR bank\n");
				return -EINVAL;
			}
			if (left == sel->mask)
				counter = w->got.update_counter;
			else if (w->got.update_counter != counter)
				break;
			for (i = 0, bit = 0; bit < TK2_PCR_COUNT; bit++)
				if (w->got.got & (1U << bit))
					memcpy(slot[bit], w->got.digest[i++], dsize);
		}
		if (!left)
			return dsize * n;
	}
	pr_info_ratelimited("pcrs: PCRs kept changing while read\n");
	return -EAGAIN;
}

/*
 * tk2_policy_hash's digest: H_@alg over the spans with the cached (or,
 * before the lock, a newly allocated) transform of @alg. @out may be one
 * of the inputs.
 */
static int hash_digest(void *ctx, u16 alg, const struct tk_span *in,
		       unsigned int n, u8 *out)
{
	struct crypto_shash *tfm = trusted_tpm2_hash_get(ctx, alg);
	unsigned int i;
	int ret;

	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	{
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		ret = crypto_shash_init(desc);
		for (i = 0; !ret && i < n; i++)
			ret = crypto_shash_update(desc, in[i].p, in[i].len);
		if (!ret)
			ret = crypto_shash_final(desc, out);
		shash_desc_zero(desc);
	}
	return ret;
}

/**
 * trusted_tpm2_hash_init() - the hashes of one operation's policy digests
 * @hs: set up, with no transform yet
 * @alg: the policy's hash, the object's name algorithm
 */
void trusted_tpm2_hash_init(struct trusted_tpm2_hash *hs, u16 alg)
{
	memset(hs, 0, sizeof(*hs));
	hs->h.digest = hash_digest;
	hs->h.ctx = hs;
	hs->h.alg = alg;
}

/**
 * trusted_tpm2_hash_get() - the transform of a hash, allocated once
 * @hs: the operation's hashes
 * @alg: a TPM 2.0 hash algorithm
 *
 * Allocates at the first call for @alg, which may load a module: call it
 * for every hash an operation needs before taking the TPM lock.
 *
 * Return: the transform (@hs keeps it), or an ERR_PTR.
 */
struct crypto_shash *trusted_tpm2_hash_get(struct trusted_tpm2_hash *hs,
					   u16 alg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hs->tfm) && hs->tfm[i]; i++)
		if (hs->alg[i] == alg)
			return hs->tfm[i];
	if (i == ARRAY_SIZE(hs->tfm))
		return ERR_PTR(-EINVAL);
	hs->tfm[i] = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(hs->tfm[i])) {
		struct crypto_shash *err = hs->tfm[i];

		hs->tfm[i] = NULL;
		return err;
	}
	hs->alg[i] = alg;
	return hs->tfm[i];
}

/**
 * trusted_tpm2_hash_free() - free an operation's hash transforms
 * @hs: the hashes
 */
void trusted_tpm2_hash_free(struct trusted_tpm2_hash *hs)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hs->tfm); i++)
		crypto_free_shash(hs->tfm[i]);
	memset(hs->tfm, 0, sizeof(hs->tfm));
}

/**
 * trusted_tpm2_pcr_body() - the PolicyPCR body of a pcrs= key at seal
 * @buf: a command buffer (PCR_Read)
 * @ts: the operation's started session, or NULL without sessions
 * @o: the options: the bank and the PCRs of pcrs=, and pcrcap=
 * @hs: the operation's hashes, with the object's name algorithm's
 * @body: set to the body: pcrDigest and the selection
 * @size: its size
 *
 * Return: the body's length, -ENOMEM, -EKEYREJECTED for PCR values that
 * fail the session's HMAC, or an exchange's errno.
 */
int trusted_tpm2_pcr_body(u8 *buf, struct trusted_tpm2_sess *ts,
			  const struct tk_options *o,
			  struct trusted_tpm2_hash *hs, u8 *body, u32 size)
{
	struct tk2_pcrs sel = {
		.alg = tk2_hash_alg(o->pcrs_bank),
		.mask = o->pcrs_mask,
	};
	struct crypto_shash *tfm = trusted_tpm2_hash_get(hs, hs->h.alg);
	bool cap = tk_opt_given(o, TK_OPT_PCRCAP);
	struct pcr_work *w;
	int ret, n;

	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	if (cap)
		sel.mask |= 1U << o->pcrcap;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	n = read_pcrs(buf, ts, &sel, w);
	if (n > 0 && cap)	/* its reset value, in index order's slot */
		memset(w->values + tk2_alg_digest_size(sel.alg) *
		       hweight32(sel.mask & ((1U << o->pcrcap) - 1)), 0,
		       tk2_alg_digest_size(sel.alg));
	ret = n < 0 ? n : crypto_shash_tfm_digest(tfm, w->values, n,
						  w->pcr_digest);
	if (!ret)
		ret = tk2_policy_pcr_body(body, size, &sel, w->pcr_digest,
					  tk2_alg_digest_size(hs->h.alg));
	kfree(w);
	return ret;
}

/**
 * trusted_tpm2_policy_digest() - the digest a list of policy commands gives
 * @hs: the operation's hashes, the policy's algorithm set
 * @cmds: the commands, in the order a session runs them
 * @n: how many
 * @nv_name: a PolicyNV's index Name (TK2_NV_NAME_SIZE bytes), or NULL
 * @digest: set to the digest, from zero
 *
 * The one extend loop: the object's authPolicy at seal, its check at load,
 * a signed policy's approvedPolicy.
 *
 * Return: 0, -EINVAL for a command the table does not have or cannot
 * extend by, or a hash's error.
 */
int trusted_tpm2_policy_digest(struct trusted_tpm2_hash *hs,
			       const struct tk2_key_policy *cmds,
			       unsigned int n, const u8 *nv_name, u8 *digest)
{
	hs->h.nv_name = (struct tk_span){
		.p = nv_name, .len = nv_name ? TK2_NV_NAME_SIZE : 0,
	};
	memset(digest, 0, TK2_DIGEST_MAX);
	return tk2_policy_extend(&hs->h, cmds, n, digest);
}

/**
 * trusted_tpm2_policy_check() - whether a blob's policy yields its authPolicy
 * @k: the parsed blob
 *
 * Return: 0, -EINVAL when the policy field gives another digest, or an
 * allocation or parse error.
 */
int trusted_tpm2_policy_check(const struct tk2_key *k)
{
	u8 policy[TK2_DIGEST_MAX];
	struct trusted_tpm2_hash hs;
	int ret;

	trusted_tpm2_hash_init(&hs, k->info.name_alg);
	ret = trusted_tpm2_policy_digest(&hs, k->policy, k->npolicy, NULL,
					 policy);
	trusted_tpm2_hash_free(&hs);
	if (ret)
		return ret;
	if (k->info.policy_len != tk2_alg_digest_size(k->info.name_alg) ||
	    memcmp(policy, k->info.policy, k->info.policy_len)) {
		pr_info_ratelimited("load: the blob's %s is not the object's policy\n",
				    k->signed_policy ? "PolicyAuthorize" : "policy");
		return -EINVAL;
	}
	return 0;
}

/**
 * trusted_tpm2_policy_start() - start the policy session of a load
 * @buf: a command buffer
 * @alg: the policy's hash, the object's name algorithm
 * @ts: the operation's session state to salt it (SHA-256 only), or NULL
 * @pa: the parent to salt it to, with @ts
 * @s: set to the session; s->hmac when salted
 *
 * Unsalted (sessions=0, a parent that cannot salt, another hash), the
 * session has no session key: it authenticates nothing unless a PIN keys
 * its HMAC.
 *
 * Return: 0 with the session open, or a negative errno.
 */
int trusted_tpm2_policy_start(u8 *buf, u16 alg, struct trusted_tpm2_sess *ts,
			      const struct trusted_tpm2_parent *pa,
			      struct tk2_session *s)
{
	u8 nonce[TK2_DIGEST_MAX];
	struct tk_cmd_buf b;
	int rc;

	if (ts)
		return trusted_tpm2_sess_start_policy(buf, ts, pa, s);
	memset(s, 0, sizeof(*s));
	get_random_bytes(nonce, sizeof(nonce));
	rc = tk2_cmd_start_policy(&b, buf, PAGE_SIZE, nonce,
				  tk2_alg_digest_size(alg), alg);
	if (rc)
		goto fail;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto fail;
	rc = tk2_rsp_start_session(buf, PAGE_SIZE, &s->handle);
	if (rc)
		goto fail;
	/* nonceTPM: in the HMAC a PIN keys (PolicyAuthValue) */
	rc = tk2_rsp_start_auth_session(buf, PAGE_SIZE, &s->handle, s);
	if (rc)
		goto fail;
	return 0;
fail:
	/* A malformed response may still have started one. */
	if (rc == -EBADMSG && s->handle >> 24 == TK2_HT_POLICY_SESSION)
		trusted_tpm2_flush(buf, s->handle);
	return trusted_tpm_errno(rc, "load: starting a policy session");
}

/*
 * PolicyNV's authorisation (the counter's empty authValue) refused: the
 * owner defined the index again with an authValue, which its Name does
 * not show. No approval can pass then, whatever the signer signed.
 * -EKEYREJECTED with one line (not the counter the key was sealed to, as
 * far as the TPM lets it be used); 0 for any other @rc.
 */
static int nv_auth_refused(int rc, u32 index)
{
	if (rc <= 0 || (tk2_rc_base(rc) != TK2_RC_AUTH_FAIL &&
			tk2_rc_base(rc) != TK2_RC_BAD_AUTH))
		return 0;
	pr_info_ratelimited("revoke: NV index 0x%08x takes no empty authValue: its owner defined it again with one; define it as trusted-policy counter prints (0x%03x)\n",
			    index, rc);
	return -EKEYREJECTED;
}

/*
 * Send the PolicyNV in @buf, authorised by the index's empty authValue:
 * in the operation's salted HMAC session r->ts (cpHash names the counter,
 * the response's HMAC is checked), or as an empty password without
 * sessions.
 */
static int send_nv_auth(u8 *buf, const struct tk2_key_policy *cmd,
			struct trusted_tpm2_replay *r)
{
	struct trusted_tpm2_sess *ts = r->ts;
	struct tk2_session *as[] = { ts ? &ts->s : NULL };
	u8 sname[4];
	struct tk_span names[3] = {
		{ .p = r->nv_name, .len = TK2_NV_NAME_SIZE },
		{ .p = r->nv_name, .len = TK2_NV_NAME_SIZE },
		{ .p = sname, .len = sizeof(sname) },
	};
	struct tk2_policy_nv nv;
	int rc;

	if (!r->nv_name || tk2_policy_nv_parse(cmd->body, cmd->len, &nv))
		return -EINVAL;
	if (!ts) {
		rc = trusted_tpm_send(buf, NULL);
		if (rc)
			return nv_auth_refused(rc, nv.index) ?: rc;
		return tk2_rsp_policy_nv(buf, PAGE_SIZE);
	}
	put_unaligned_be32(r->run.session, sname);	/* a session's Name */
	ts->s.auth_len = 0;
	ts->s.attrs = TK2_SESS_CONTINUE;
	rc = trusted_tpm2_sess_send(buf, ts, as, 1, 3, names, 0);
	if (rc == -EBADMSG) {
		pr_warn_ratelimited("revoke: NV index 0x%08x refused: the PolicyNV reply fails its HMAC\n",
				    nv.index);
		return -EKEYREJECTED;
	}
	return nv_auth_refused(rc, nv.index) ?: rc;
}

/**
 * trusted_tpm2_policy_replay() - run policy commands in a policy session
 * @buf: a command buffer
 * @cmds: the commands, each a row of src/lib/tk2_policy.c
 * @n: how many
 * @r: the session (r->run.session) and what rows need beyond their body:
 *     a PolicyNV's authorising session and index Name, a PolicyAuthorize's
 *     ticket; r->refused is set to the row the TPM refused
 *
 * The one replay loop: each command built by its row and sent as its row
 * says. The caller flushes the session on failure.
 *
 * Return: 0; the TPM's return code (> 0) when it refused a command; or a
 * negative errno.
 */
int trusted_tpm2_policy_replay(u8 *buf, const struct tk2_key_policy *cmds,
			       unsigned int n, struct trusted_tpm2_replay *r)
{
	const struct tk2_policy_cmd *c;
	struct tk_cmd_buf b;
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		c = tk2_policy_cmd(cmds[i].code);
		if (!c)
			return -EINVAL;
		rc = tk2_policy_build(&b, buf, PAGE_SIZE, &r->run, &cmds[i]);
		if (rc)
			return rc;
		if (c->send == TK2_POLICY_NV_AUTH) {
			rc = send_nv_auth(buf, &cmds[i], r);
		} else {
			rc = trusted_tpm_send(buf, NULL);
			if (!rc)
				rc = tk2_rsp_empty(buf, PAGE_SIZE);
		}
		if (rc) {
			r->refused = c;
			return rc;
		}
	}
	return 0;
}

/**
 * trusted_tpm2_policy_session() - a policy session that satisfies a blob's policy
 * @buf: a command buffer
 * @k: the parsed blob
 * @ts: the operation's session state to salt the session, or NULL
 * @pa: the parent to salt it to, with @ts
 * @s: set to the session; the caller flushes it unless Unseal ends it
 *
 * Replays the blob's policy field: PolicyPCRs, PolicyCommandCode and, for
 * a PIN, PolicyAuthValue: the PIN then keys the HMAC of the command the
 * session authorises.
 *
 * Return: 0, or a negative errno.
 */
int trusted_tpm2_policy_session(u8 *buf, const struct tk2_key *k,
				struct trusted_tpm2_sess *ts,
				const struct trusted_tpm2_parent *pa,
				struct tk2_session *s)
{
	struct trusted_tpm2_replay r = { };
	const char *why;
	int rc;

	rc = trusted_tpm2_policy_start(buf, k->info.name_alg, ts, pa, s);
	if (rc)
		return rc;
	r.run.session = s->handle;
	rc = trusted_tpm2_policy_replay(buf, k->policy, k->npolicy, &r);
	if (!rc)
		return 0;
	trusted_tpm2_flush(buf, s->handle);
	if (rc > 0) {
		why = r.refused ? r.refused->refused : NULL;
		pr_info_ratelimited("load: %s%sthe TPM refused policy command 0x%03x (0x%03x)\n",
				    why ?: "", why ? ": " : "",
				    r.refused ? r.refused->code : 0, rc);
		return trusted_tpm_errno(rc, NULL);
	}
	return trusted_tpm_errno(rc, "load: policy command");
}
