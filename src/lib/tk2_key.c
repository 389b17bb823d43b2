// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 2.0 key blobs: the TPMKey DER form and the old raw form.
 *
 * A blob that starts with a SEQUENCE tag is DER and must be a valid
 * TPMKey: no retry as the raw form when it is not (a raw blob starts with
 * the high byte of its private size, never 0x30). Every length must agree
 * with the one around it: the DER lengths with the blob, the OCTET STRING
 * lengths with the TPM2B sizes inside them, and the TPM2B_PUBLIC with its
 * own fields.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "tk_der.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk2_key.h"
#include "tk2_policy.h"

/* 2.23.133.10.1.5: TCG, TPM 2.0 key, sealed data */
static const u8 oid_sealed[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x05 };
/* 2.23.133.10.1.3: loadable key, as tpm2_encodeobject labels any object */
static const u8 oid_loadable[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x03 };

/* What a sealed data object never has: TPM2_Unseal refuses the first three. */
#define NOT_SEALED	(TK2_OA_SIGN | TK2_OA_DECRYPT | TK2_OA_RESTRICTED | \
			 TK2_OA_SENSITIVE_ORIGIN)

#define CTX(n)	(TK_DER_CONTEXT + (n))

static int refuse(struct tk2_key *k, const char *why)
{
	k->why = why;
	return -EINVAL;
}

/**
 * tk2_key_parent_ok() - whether a blob may name @h as its parent
 * @h: the parent handle
 *
 * Persistent, permanent (a primary is made from the TCG template under
 * that hierarchy) or, as the in-tree module allows, transient.
 *
 * Return: true when @h is one of those kinds.
 */
bool tk2_key_parent_ok(u32 h)
{
	switch (h >> 24) {
	case TK2_HT_PERSISTENT:
	case TK2_HT_TRANSIENT:
		return true;
	case TK2_HT_PERMANENT:
		return h == TK2_RH_OWNER || h == TK2_RH_NULL ||
		       h == TK2_RH_ENDORSEMENT || h == TK2_RH_PLATFORM;
	default:
		return false;
	}
}

static int check_parts(struct tk2_key *k)
{
	if (tk2_private_check(k->priv, k->priv_len))
		return refuse(k, "private part is not a TPM2B_PRIVATE");
	if (tk2_public_parse(k->pub, k->pub_len, &k->info))
		return refuse(k, "public part is not a sealed data TPM2B_PUBLIC");
	return 0;
}

/* TPM2B_PRIVATE || TPM2B_PUBLIC, filling the blob exactly. */
static int parse_raw(const u8 *blob, u32 len, struct tk2_key *k)
{
	u32 n;

	k->raw = true;
	if (len < 4)
		return refuse(k, "blob too short");
	n = 2u + get_unaligned_be16(blob);
	if (n > len - 2)
		return refuse(k, "private size runs past the blob");
	k->priv = blob;
	k->priv_len = n;
	k->pub = blob + n;
	k->pub_len = len - n;
	if (2u + get_unaligned_be16(k->pub) != k->pub_len)
		return refuse(k, "public size does not fill the blob");
	return check_parts(k);
}

static int parse_one_policy(struct tk_der *seq, struct tk2_key_policy *pol)
{
	struct tk_der item, field;
	struct tk_der_tlv t;

	if (tk_der_enter(seq, TK_DER_SEQUENCE, &item) ||
	    tk_der_enter(&item, CTX(0), &field) ||
	    tk_der_next(&field, &t) || tk_der_u32(&t, &pol->code) ||
	    !tk_der_empty(&field) ||
	    tk_der_enter(&item, CTX(1), &field) ||
	    tk_der_expect(&field, TK_DER_OCTET_STRING, &t) ||
	    !tk_der_empty(&field) || !tk_der_empty(&item))
		return -EINVAL;
	pol->body = t.val;
	pol->len = t.len;
	return 0;
}

/* A SEQUENCE OF TPMPolicy (not empty) into @pol, at most @max of them. */
static int parse_policy_seq(struct tk_der *seq, struct tk2_key_policy *pol,
			    unsigned int max, unsigned int *n)
{
	if (tk_der_empty(seq))
		return -EINVAL;
	for (*n = 0; !tk_der_empty(seq); (*n)++) {
		if (*n == max || parse_one_policy(seq, &pol[*n]))
			return -EINVAL;
	}
	return 0;
}

/* A PolicyAuthValue, the last command of policy [1]: a PIN. */
static bool ends_in_auth_value(const struct tk2_key *k)
{
	return k->npolicy > 1 &&
	       k->policy[k->npolicy - 1].code == TK2_CC_POLICY_AUTH_VALUE;
}

/*
 * policy [1] starts with one PolicyAuthorize of sigAlg NULL: a signed
 * policy key.
 */
static bool is_authorize(const struct tk2_key *k)
{
	struct tk2_authorize_body ab;

	return k->policy[0].code == TK2_CC_POLICY_AUTHORIZE &&
	       !tk2_authorize_body_parse(k->policy[0].body, k->policy[0].len,
					 &ab) &&
	       ab.sig_alg == TK2_ALG_NULL;
}

/*
 * Only commands load can replay (tk2_policy.c's rows), each for the
 * object's hash: PolicyPCR first, then PolicyPCR or PolicyCommandCode,
 * PolicyAuthValue last; or a signed policy key's PolicyAuthorize first
 * and such commands after it.
 */
static int check_policy(struct tk2_key *k)
{
	const struct tk2_policy_cmd *c;
	unsigned int i;

	if (k->nauth && !k->npolicy)
		return refuse(k, "signed policies without a PolicyAuthorize policy");
	if (!k->npolicy)
		return 0;
	if (!k->info.policy_len)
		return refuse(k, "policy given for an object without one");
	/* a PIN: one PolicyAuthValue, last, after PolicyPCRs or PolicyAuthorize */
	if (ends_in_auth_value(k)) {
		if (k->policy[k->npolicy - 1].len)
			return refuse(k, "PolicyAuthValue with a body");
		k->auth_value = true;
	}
	k->signed_policy = is_authorize(k);
	if (k->nauth && !k->signed_policy)
		return refuse(k, "signed policies without a PolicyAuthorize policy");
	/* what makes it more than the authValue: PCRs, or a signer */
	if (!k->signed_policy && k->policy[0].code != TK2_CC_POLICY_PCR)
		return refuse(k, "unsupported policy command");
	for (i = k->signed_policy; i < k->npolicy; i++) {
		c = tk2_policy_cmd(k->policy[i].code);
		if (!c || c->send != TK2_POLICY_PLAIN)
			return refuse(k, "unsupported policy command");
		if (c->code == TK2_CC_POLICY_AUTH_VALUE && i != k->npolicy - 1)
			return refuse(k, "PolicyAuthValue before the end of the policy");
		if (tk2_policy_parse(&k->policy[i], k->info.name_alg))
			return refuse(k, "malformed policy command");
	}
	return 0;
}

static int parse_policies(struct tk_der *d, struct tk2_key *k)
{
	struct tk_der outer, seq;

	if (tk_der_enter(d, CTX(1), &outer) ||
	    tk_der_enter(&outer, TK_DER_SEQUENCE, &seq) ||
	    !tk_der_empty(&outer) ||
	    parse_policy_seq(&seq, k->policy, TK2_KEY_POLICY_MAX, &k->npolicy))
		return refuse(k, "malformed policy");
	return 0;
}

static int parse_one_auth(struct tk_der *seq, struct tk2_key_auth *a)
{
	struct tk_der item, field, cmds;
	struct tk_der_tlv t;

	if (tk_der_enter(seq, TK_DER_SEQUENCE, &item))
		return -EINVAL;
	if (tk_der_peek(&item) == CTX(0)) {
		if (tk_der_enter(&item, CTX(0), &field) ||
		    tk_der_expect(&field, TK_DER_UTF8STRING, &t) ||
		    !tk_der_empty(&field))
			return -EINVAL;
		a->name = t.val;
		a->name_len = t.len;
	}
	if (tk_der_enter(&item, CTX(1), &field) ||
	    tk_der_enter(&field, TK_DER_SEQUENCE, &cmds) ||
	    !tk_der_empty(&field) || !tk_der_empty(&item))
		return -EINVAL;
	return parse_policy_seq(&cmds, a->cmd, TK2_KEY_AUTH_CMDS, &a->ncmd);
}

/* authPolicy [3]: the signed policies, in the order load tries them. */
static int parse_auth_policies(struct tk_der *d, struct tk2_key *k)
{
	struct tk_der outer, seq;

	if (tk_der_enter(d, CTX(3), &outer) ||
	    tk_der_enter(&outer, TK_DER_SEQUENCE, &seq) ||
	    !tk_der_empty(&outer) || tk_der_empty(&seq))
		return refuse(k, "malformed authPolicy");
	while (!tk_der_empty(&seq)) {
		if (k->nauth == TK2_KEY_AUTH_MAX)
			return refuse(k, "more than 8 signed policies");
		if (parse_one_auth(&seq, &k->auth[k->nauth++]))
			return refuse(k, "malformed signed policy");
	}
	return 0;
}

/* The optional [n] EXPLICIT fields, in tag order. */
static int parse_optional(struct tk_der *d, struct tk2_key *k)
{
	struct tk_der inner;
	struct tk_der_tlv t;
	bool flag;
	int ret;

	if (tk_der_peek(d) == CTX(0)) {
		if (tk_der_enter(d, CTX(0), &inner) ||
		    tk_der_next(&inner, &t) || tk_der_bool(&t, &flag) ||
		    !tk_der_empty(&inner))
			return refuse(k, "malformed emptyAuth");
		k->empty_auth = flag;
	}
	if (tk_der_peek(d) == CTX(1)) {
		ret = parse_policies(d, k);
		if (ret)
			return ret;
	}
	if (tk_der_peek(d) == CTX(2))
		return refuse(k, "a sealed key has no import secret");
	if (tk_der_peek(d) == CTX(3)) {
		ret = parse_auth_policies(d, k);
		if (ret)
			return ret;
	}
	if (tk_der_peek(d) == CTX(4)) {
		if (tk_der_enter(d, CTX(4), &inner) ||
		    tk_der_expect(&inner, TK_DER_UTF8STRING, &t) ||
		    !tk_der_empty(&inner))
			return refuse(k, "malformed description");
	}
	if (tk_der_peek(d) == CTX(5)) {
		if (tk_der_enter(d, CTX(5), &inner) ||
		    tk_der_next(&inner, &t) || tk_der_bool(&t, &flag) ||
		    !tk_der_empty(&inner))
			return refuse(k, "malformed rsaParent");
		if (flag)
			return refuse(k, "RSA primary parents are not supported");
	}
	return 0;
}

static bool oid_is(const struct tk_der_tlv *t, const u8 *oid, u32 len)
{
	return t->len == len && !memcmp(t->val, oid, len);
}

/*
 * A loadable key may be any object; only a sealed data object is a trusted
 * key: keyed-hash without a scheme (tk2_public_parse() checks that), data
 * the creator gave (no sensitiveDataOrigin), neither sign nor decrypt.
 */
static int check_loadable(struct tk2_key *k)
{
	if (k->loadable && (k->info.attrs & NOT_SEALED))
		return refuse(k, "loadable key is not a sealed data object");
	return 0;
}

static int parse_der(const u8 *blob, u32 len, struct tk2_key *k)
{
	struct tk_der top, d;
	struct tk_der_tlv t;
	int ret;

	tk_der_init(&top, blob, len);
	if (tk_der_enter(&top, TK_DER_SEQUENCE, &d) || !tk_der_empty(&top))
		return refuse(k, "not one DER SEQUENCE filling the blob");
	if (tk_der_expect(&d, TK_DER_OID, &t))
		return refuse(k, "no key type OID");
	k->loadable = oid_is(&t, oid_loadable, sizeof(oid_loadable));
	if (!k->loadable && !oid_is(&t, oid_sealed, sizeof(oid_sealed)))
		return refuse(k, "key type is not TPM sealed data");
	ret = parse_optional(&d, k);
	if (ret)
		return ret;

	ret = tk_der_expect(&d, TK_DER_INTEGER, &t);
	if (ret || tk_der_u32(&t, &k->parent))
		return refuse(k, "parent is not a 32-bit handle");
	if (!tk2_key_parent_ok(k->parent))
		return refuse(k, "parent is not a usable handle");

	if (tk_der_expect(&d, TK_DER_OCTET_STRING, &t))
		return refuse(k, "no public part");
	k->pub = t.val;
	k->pub_len = t.len;
	if (tk_der_expect(&d, TK_DER_OCTET_STRING, &t))
		return refuse(k, "no private part");
	k->priv = t.val;
	k->priv_len = t.len;
	if (!tk_der_empty(&d))
		return refuse(k, "trailing data in the TPMKey");

	ret = check_parts(k);
	if (ret)
		return ret;
	ret = check_loadable(k);
	if (ret)
		return ret;
	return check_policy(k);
}

/**
 * tk2_key_parse() - parse and check a TPM 2.0 trusted key blob
 * @blob: a TPMKey (DER) or the older raw form
 * @len: its length
 * @k: the parts, pointing into @blob; on failure k->why says what is wrong
 *
 * Return: 0, or -EINVAL when the blob is malformed or not loadable.
 */
int tk2_key_parse(const u8 *blob, u32 len, struct tk2_key *k)
{
	memset(k, 0, sizeof(*k));
	if (len && blob[0] == TK_DER_SEQUENCE)
		return parse_der(blob, len, k);
	return parse_raw(blob, len, k);
}

/* Contents size of one TPMPolicy SEQUENCE. */
static u32 policy_size(const struct tk2_key_policy *p)
{
	return tk_der_size(tk_der_size(tk_der_u32_size(p->code))) +
	       tk_der_size(tk_der_size(p->len));
}

/**
 * tk2_key_encode() - write a TPM 2.0 trusted key blob as a TPMKey
 * @out: the buffer
 * @size: its size
 * @k: the parts; emptyAuth is written only when TRUE, the policy field
 *     only when there is a policy
 *
 * Return: the length written, or -E2BIG when @size is short.
 */
int tk2_key_encode(u8 *out, u32 size, const struct tk2_key *k)
{
	u32 seq, pols = 0, i;
	struct tk_cmd_buf w;

	for (i = 0; i < k->npolicy; i++)
		pols += tk_der_size(policy_size(&k->policy[i]));
	seq = tk_der_size(sizeof(oid_sealed)) +
	      (k->empty_auth ? tk_der_size(tk_der_size(1)) : 0) +
	      (k->npolicy ? tk_der_size(tk_der_size(pols)) : 0) +
	      tk_der_size(tk_der_u32_size(k->parent)) +
	      tk_der_size(k->pub_len) + tk_der_size(k->priv_len);

	tk_cmd_init(&w, out, size);
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, seq);
	tk_der_put(&w, TK_DER_OID, oid_sealed, sizeof(oid_sealed));
	if (k->empty_auth) {
		tk_der_put_hdr(&w, CTX(0), tk_der_size(1));
		tk_der_put_bool(&w, true);
	}
	if (k->npolicy) {
		tk_der_put_hdr(&w, CTX(1), tk_der_size(pols));
		tk_der_put_hdr(&w, TK_DER_SEQUENCE, pols);
	}
	for (i = 0; i < k->npolicy; i++) {
		const struct tk2_key_policy *p = &k->policy[i];

		tk_der_put_hdr(&w, TK_DER_SEQUENCE, policy_size(p));
		tk_der_put_hdr(&w, CTX(0), tk_der_size(tk_der_u32_size(p->code)));
		tk_der_put_u32(&w, p->code);
		tk_der_put_hdr(&w, CTX(1), tk_der_size(p->len));
		tk_der_put(&w, TK_DER_OCTET_STRING, p->body, p->len);
	}
	tk_der_put_u32(&w, k->parent);
	tk_der_put(&w, TK_DER_OCTET_STRING, k->pub, k->pub_len);
	tk_der_put(&w, TK_DER_OCTET_STRING, k->priv, k->priv_len);
	return w.bad ? -E2BIG : (int)w.len;
}
