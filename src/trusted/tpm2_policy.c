// SPDX-License-Identifier: GPL-2.0
/*
 * PCR policies built by the kernel (pcrs=<bank>:<list>).
 *
 * Seal: read the selected PCRs, hash their values with the object's name
 * algorithm into pcrDigest, and compute the policy a PolicyPCR with that
 * digest yields, then, with blobauth=, a PolicyAuthValue after it (the
 * PIN is the object's authValue and keeps its dictionary-attack
 * protection); the object gets the digest as authPolicy, the blob the
 * commands in its policy field (the TPMKey format's way to say how to
 * satisfy the policy). Load: recompute the policy from the blob's policy
 * field and refuse the blob when it is not the object's; then run the
 * policy in a fresh policy session, which the TPM refuses at PolicyPCR
 * once a PCR has moved. With sessions, that policy session is salted to
 * the checked parent (tpm2_session.c), so its HMAC (keyed by sessionKey,
 * and by the PIN after PolicyAuthValue) and its encryption of Unseal's
 * outData are unknown on the bus. The hash transform is allocated
 * (crypto_alloc_shash() may load a module) before tpm2.c takes its TPM
 * lock.
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
#include "tpm2.h"

#define PCR_READ_TRIES	3	/* a PCR changed while we read: start over */

struct pcr_work {
	struct tk2_pcr_values got;
	u8 values[TK2_PCR_COUNT * TK2_DIGEST_MAX];
	u8 input[TK2_POLICY_INPUT_MAX];
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

/* Extend the policy @policy (digest_len bytes) by one PolicyPCR. */
static int policy_extend(struct crypto_shash *tfm, u8 *policy,
			 const struct tk2_policy_pcr *pp, u8 *input)
{
	int n = tk2_policy_pcr_input(input, TK2_POLICY_INPUT_MAX, policy, pp);

	return n < 0 ? n : crypto_shash_tfm_digest(tfm, input, n, policy);
}

/* Extend @policy by PolicyAuthValue (Part 3 §23.17). */
static int extend_auth_value(struct crypto_shash *tfm, u8 *policy, u8 *input)
{
	int n = tk2_policy_auth_value_input(input, TK2_POLICY_INPUT_MAX, policy,
					    crypto_shash_digestsize(tfm));

	return n < 0 ? n : crypto_shash_tfm_digest(tfm, input, n, policy);
}

/**
 * trusted_tpm2_pcr_policy() - the PolicyPCR digest of a pcrs= key at seal
 * @buf: a command buffer (PCR_Read)
 * @ts: the operation's started session, or NULL without sessions
 * @o: the options: the bank and the PCRs of pcrs=, and pcrcap=
 * @name_alg: the sealed object's name algorithm, the policy's hash
 * @tfm: a transform of that hash, allocated before the chip was held
 * @pol: filled with the policy digest and the policy to store in the blob
 *
 * With blobauth= the digest ends in PolicyAuthValue; the caller stores
 * that command after the PolicyPCR.
 *
 * Return: 0, -ENOMEM, -EKEYREJECTED for PCR values that fail the session's
 * HMAC, or an exchange's errno.
 */
int trusted_tpm2_pcr_policy(u8 *buf, struct trusted_tpm2_sess *ts,
			    const struct tk_options *o, u16 name_alg,
			    struct crypto_shash *tfm,
			    struct trusted_tpm2_pcr_policy *pol)
{
	struct tk2_pcrs sel = {
		.alg = tk2_hash_alg(o->pcrs_bank),
		.mask = o->pcrs_mask,
	};
	u32 dsize = tk2_alg_digest_size(name_alg);
	bool cap = tk_opt_given(o, TK_OPT_PCRCAP);
	struct tk2_policy_pcr pp;
	struct pcr_work *w;
	int ret, n;

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
	if (ret)
		goto out;
	ret = tk2_policy_pcr_body(pol->body, sizeof(pol->body), &sel,
				  w->pcr_digest, dsize);
	if (ret < 0)
		goto out;
	pol->body_len = ret;
	ret = tk2_policy_pcr_parse(pol->body, pol->body_len, name_alg, &pp);
	if (ret)
		goto out;
	memset(pol->digest, 0, sizeof(pol->digest));
	ret = policy_extend(tfm, pol->digest, &pp, w->input);
	if (!ret && o->blobauth_len)
		ret = extend_auth_value(tfm, pol->digest, w->input);
out:
	kfree(w);
	return ret;
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
	u16 alg = k->info.name_alg;
	u8 policy[TK2_DIGEST_MAX] = { 0 };
	struct crypto_shash *tfm;
	struct tk2_policy_pcr pp;
	unsigned int i;
	u8 *input;
	int ret = 0;

	tfm = trusted_tpm2_hash_alloc(alg);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	input = kmalloc(TK2_POLICY_INPUT_MAX, GFP_KERNEL);
	if (!input)
		ret = -ENOMEM;
	for (i = 0; !ret && i < k->npolicy; i++) {
		if (k->policy[i].code == TK2_CC_POLICY_AUTH_VALUE) {
			ret = extend_auth_value(tfm, policy, input);
			continue;
		}
		ret = tk2_policy_pcr_parse(k->policy[i].body, k->policy[i].len,
					   alg, &pp);
		if (ret)
			break;
		ret = policy_extend(tfm, policy, &pp, input);
	}
	kfree(input);
	crypto_free_shash(tfm);
	if (ret)
		return ret;
	if (memcmp(policy, k->info.policy, k->info.policy_len)) {
		pr_info_ratelimited("load: the blob's policy is not the object's\n");
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

/**
 * trusted_tpm2_policy_session() - a policy session that satisfies a blob's policy
 * @buf: a command buffer
 * @k: the parsed blob
 * @ts: the operation's session state to salt the session, or NULL
 * @pa: the parent to salt it to, with @ts
 * @s: set to the session; the caller flushes it unless Unseal ends it
 *
 * Runs the blob's PolicyPCRs and, for a PIN, PolicyAuthValue: the PIN
 * then keys the HMAC of the command the session authorises.
 *
 * Return: 0, or a negative errno.
 */
int trusted_tpm2_policy_session(u8 *buf, const struct tk2_key *k,
				struct trusted_tpm2_sess *ts,
				const struct trusted_tpm2_parent *pa,
				struct tk2_session *s)
{
	struct tk_cmd_buf b;
	unsigned int i;
	int rc;

	rc = trusted_tpm2_policy_start(buf, k->info.name_alg, ts, pa, s);
	if (rc)
		return rc;
	for (i = 0; i < k->npolicy; i++) {
		rc = tk2_cmd_policy(&b, buf, PAGE_SIZE, k->policy[i].code,
				    s->handle, k->policy[i].body,
				     k->policy[i].len);
		if (rc)
			break;
		rc = trusted_tpm_send(buf, NULL);
		if (rc)
			break;
		rc = tk2_rsp_empty(buf, PAGE_SIZE);
		if (rc)
			break;
	}
	if (!rc)
		return 0;
	trusted_tpm2_flush(buf, s->handle);
	if (rc > 0) {
		pr_info_ratelimited("load: %sthe TPM refused policy command 0x%03x (0x%03x)\n",
				    k->policy[i].code == TK2_CC_POLICY_PCR ?
				    "PCR values changed: " : "", k->policy[i].code,
				    rc);
		return trusted_tpm_errno(rc, NULL);
	}
	return trusted_tpm_errno(rc, "load: PolicyPCR");
}
