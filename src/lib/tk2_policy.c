// SPDX-License-Identifier: GPL-2.0
/*
 * The table of TPM 2.0 policy commands (tk2_policy.h). Each row's extend
 * is the command's PolicyUpdate (TPM 2.0 Part 3):
 *
 *   PolicyPCR          H(old || CC || pcrs || pcrDigest)
 *   PolicyAuthValue    H(old || CC)
 *   PolicyCommandCode  H(old || CC || code)
 *   PolicyNV           H(old || CC || H(operandB || offset || operation)
 *                        || nvIndexName)
 *   PolicyAuthorize    H(H(0 || CC || keySignName) || policyRef), the old
 *                      digest replaced (the approved one is checked by the
 *                      TPM's ticket instead)
 *
 * H being the policy's hash, the object's name algorithm; keySignName is
 * the signer's nameAlg || H_nameAlg(its TPMT_PUBLIC).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "tk_hash.h"
#include "tk2_msg.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk2_policy.h"

/* H(@old || CC || @in[0..n - 1]) into @policy, which @old is. */
static int update(const struct tk2_policy_hash *h, u32 code, u8 *policy,
		  const struct tk_span *in, unsigned int n)
{
	struct tk_span s[5];
	u8 cc[4];

	if (n > ARRAY_SIZE(s) - 2)
		return -EINVAL;
	put_unaligned_be32(code, cc);
	s[0] = (struct tk_span){ .p = policy, .len = tk2_alg_digest_size(h->alg) };
	s[1] = (struct tk_span){ .p = cc, .len = sizeof(cc) };
	if (!s[0].len)
		return -EINVAL;
	if (n)
		memcpy(s + 2, in, n * sizeof(*in));
	return h->digest(h->ctx, h->alg, s, n + 2, policy);
}

/* A command whose parameters are the body: session handle || body. */
static int build_plain(struct tk_cmd_buf *b, u8 *buf, u32 size,
		       const struct tk2_policy_run *run,
		       const struct tk2_policy_body *pb)
{
	return tk2_cmd_policy(b, buf, size, pb->code, run->session, pb->p,
			      pb->len);
}

/* ---- PolicyPCR (Part 3 §23.7) ---- */

static int pcr_parse(const struct tk2_policy_body *pb)
{
	struct tk2_policy_pcr pp;

	return tk2_policy_pcr_parse(pb->p, pb->len, pb->alg, &pp);
}

static int pcr_extend(const struct tk2_policy_hash *h,
		      const struct tk2_policy_body *pb, u8 *policy)
{
	struct tk2_policy_pcr pp;
	struct tk_span in[2];
	int ret;

	ret = tk2_policy_pcr_parse(pb->p, pb->len, h->alg, &pp);
	if (ret)
		return ret;
	in[0] = (struct tk_span){ .p = pp.sel, .len = pp.sel_len };
	in[1] = (struct tk_span){ .p = pp.digest, .len = pp.digest_len };
	return update(h, TK2_CC_POLICY_PCR, policy, in, 2);
}

/* ---- PolicyAuthValue (Part 3 §23.17): a PIN; PolicyPassword's digest too ---- */

static int empty_parse(const struct tk2_policy_body *pb)
{
	return pb->len ? -EINVAL : 0;
}

static int auth_value_extend(const struct tk2_policy_hash *h,
			     const struct tk2_policy_body *pb, u8 *policy)
{
	if (pb->len)
		return -EINVAL;
	return update(h, TK2_CC_POLICY_AUTH_VALUE, policy, NULL, 0);
}

/*
 * ---- PolicyCommandCode (Part 3 §23.11) ----
 * The body is the one command the session may authorise: TPM2_Unseal, the
 * only command a trusted key's object is used for.
 */
static int command_code_parse(const struct tk2_policy_body *pb)
{
	if (pb->len != 4 || get_unaligned_be32(pb->p) != TK2_CC_UNSEAL)
		return -EINVAL;
	return 0;
}

static int command_code_extend(const struct tk2_policy_hash *h,
			       const struct tk2_policy_body *pb, u8 *policy)
{
	struct tk_span in = { .p = pb->p, .len = pb->len };

	if (command_code_parse(pb))
		return -EINVAL;
	return update(h, TK2_CC_POLICY_COMMAND_CODE, policy, &in, 1);
}

/* ---- PolicyNV (Part 3 §23.9): a revocation counter ---- */

static int nv_parse(const struct tk2_policy_body *pb)
{
	struct tk2_policy_nv nv;

	return tk2_policy_nv_parse(pb->p, pb->len, &nv);
}

static int nv_extend(const struct tk2_policy_hash *h,
		     const struct tk2_policy_body *pb, u8 *policy)
{
	u8 args[TK2_POLICY_NV_BODY_MAX], args_hash[TK2_DIGEST_MAX];
	struct tk2_policy_nv nv;
	struct tk_span in[2];
	int n, ret;

	if (!h->nv_name.len || tk2_policy_nv_parse(pb->p, pb->len, &nv))
		return -EINVAL;
	n = tk2_policy_nv_args(args, sizeof(args), &nv);
	if (n < 0)
		return n;
	in[0] = (struct tk_span){ .p = args, .len = n };
	ret = h->digest(h->ctx, h->alg, in, 1, args_hash);
	if (ret)
		return ret;
	in[0] = (struct tk_span){ .p = args_hash,
				  .len = tk2_alg_digest_size(h->alg) };
	in[1] = h->nv_name;
	return update(h, TK2_CC_POLICY_NV, policy, in, 2);
}

static int nv_build(struct tk_cmd_buf *b, u8 *buf, u32 size,
		    const struct tk2_policy_run *run,
		    const struct tk2_policy_body *pb)
{
	struct tk2_policy_nv nv;

	if (tk2_policy_nv_parse(pb->p, pb->len, &nv))
		return -EINVAL;
	return tk2_cmd_policy_nv(b, buf, size, run->session, &nv);
}

/* ---- PolicyAuthorize (Part 3 §23.16): a signed policy ---- */

static int authorize_parse(const struct tk2_policy_body *pb)
{
	struct tk2_authorize_body ab;

	return tk2_authorize_body_parse(pb->p, pb->len, &ab);
}

static int authorize_extend(const struct tk2_policy_hash *h,
			    const struct tk2_policy_body *pb, u8 *policy)
{
	u8 name[TK2_NAME_MAX];
	struct tk2_authorize_body ab;
	struct tk_span in[2];
	u16 name_alg;
	int ret;

	if (tk2_authorize_body_parse(pb->p, pb->len, &ab) ||
	    tk2_signer_check(ab.pub.p + 2, ab.pub.len - 2, &name_alg))
		return -EINVAL;
	put_unaligned_be16(name_alg, name);
	in[0] = (struct tk_span){ .p = ab.pub.p + 2, .len = ab.pub.len - 2 };
	ret = h->digest(h->ctx, name_alg, in, 1, name + 2);
	if (ret)
		return ret;
	memset(policy, 0, tk2_alg_digest_size(h->alg));
	in[0] = (struct tk_span){ .p = name,
				  .len = 2 + tk2_alg_digest_size(name_alg) };
	ret = update(h, TK2_CC_POLICY_AUTHORIZE, policy, in, 1);
	if (ret)
		return ret;
	/* PolicyUpdate's second hash: H(digest || policyRef) */
	in[0] = (struct tk_span){ .p = policy,
				  .len = tk2_alg_digest_size(h->alg) };
	in[1] = ab.policy_ref;
	return h->digest(h->ctx, h->alg, in, 2, policy);
}

static int authorize_build(struct tk_cmd_buf *b, u8 *buf, u32 size,
			   const struct tk2_policy_run *run,
			   const struct tk2_policy_body *pb)
{
	struct tk2_policy_authorize_in in = {
		.session = run->session,
		.approved = run->approved,
		.key_name = run->key_name,
		.ticket = run->ticket,
	};
	struct tk2_authorize_body ab;

	if (!run->ticket.len || tk2_authorize_body_parse(pb->p, pb->len, &ab))
		return -EINVAL;
	in.policy_ref = ab.policy_ref;
	return tk2_cmd_policy_authorize(b, buf, size, &in);
}

static const struct tk2_policy_cmd table[] = {
	{
		.code = TK2_CC_POLICY_PCR, .name = "PolicyPCR",
		.send = TK2_POLICY_PLAIN, .refused = "PCR values changed",
		.parse = pcr_parse, .extend = pcr_extend, .build = build_plain,
	}, {
		.code = TK2_CC_POLICY_AUTH_VALUE, .name = "PolicyAuthValue",
		.send = TK2_POLICY_PLAIN,
		.parse = empty_parse, .extend = auth_value_extend,
		.build = build_plain,
	}, {
		.code = TK2_CC_POLICY_COMMAND_CODE, .name = "PolicyCommandCode",
		.send = TK2_POLICY_PLAIN,
		.parse = command_code_parse, .extend = command_code_extend,
		.build = build_plain,
	}, {
		.code = TK2_CC_POLICY_NV, .name = "PolicyNV",
		.send = TK2_POLICY_NV_AUTH, .refused = "the counter is past the approval's",
		.parse = nv_parse, .extend = nv_extend, .build = nv_build,
	}, {
		.code = TK2_CC_POLICY_AUTHORIZE, .name = "PolicyAuthorize",
		.send = TK2_POLICY_TICKET,
		.parse = authorize_parse, .extend = authorize_extend,
		.build = authorize_build,
	},
};

/**
 * tk2_policy_cmd() - the row of a policy command
 * @code: its command code
 *
 * Return: the row, or NULL for a command the table does not have.
 */
const struct tk2_policy_cmd *tk2_policy_cmd(u32 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}

/* The body of @p as a row sees it, for the policy's hash @alg. */
static struct tk2_policy_body body_of(const struct tk2_key_policy *p, u16 alg)
{
	return (struct tk2_policy_body){
		.code = p->code, .p = p->body, .len = p->len, .alg = alg,
	};
}

/**
 * tk2_policy_parse() - check one command of a blob's policy
 * @p: the command: its code and body
 * @alg: the policy's hash, the object's name algorithm
 *
 * Return: 0, or -EINVAL for a command the table does not have or a body
 * its row refuses.
 */
int tk2_policy_parse(const struct tk2_key_policy *p, u16 alg)
{
	const struct tk2_policy_cmd *c = tk2_policy_cmd(p->code);
	struct tk2_policy_body pb = body_of(p, alg);

	return c ? c->parse(&pb) : -EINVAL;
}

/**
 * tk2_policy_build() - write one policy command for a policy session
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @run: the session, and a PolicyAuthorize's ticket and digests
 * @p: the command: its code and body
 *
 * Return: 0; -E2BIG when @size is short; -EINVAL for a command the table
 * does not have, a body its row refuses, or a PolicyAuthorize without a
 * ticket.
 */
int tk2_policy_build(struct tk_cmd_buf *b, u8 *buf, u32 size,
		     const struct tk2_policy_run *run,
		     const struct tk2_key_policy *p)
{
	const struct tk2_policy_cmd *c = tk2_policy_cmd(p->code);
	struct tk2_policy_body pb = body_of(p, 0);

	return c ? c->build(b, buf, size, run, &pb) : -EINVAL;
}

/**
 * tk2_policy_extend() - extend a policy digest by a list of commands
 * @h: the hash, the policy's algorithm, and a PolicyNV's index Name
 * @cmds: the commands, in the order a session runs them
 * @n: how many
 * @policy: the digest so far (zero to start), of @h->alg's size; extended
 *
 * Return: 0; -EINVAL for a command the table does not have or a body it
 * refuses; or the hash's error.
 */
int tk2_policy_extend(const struct tk2_policy_hash *h,
		      const struct tk2_key_policy *cmds, unsigned int n,
		      u8 *policy)
{
	const struct tk2_policy_cmd *c;
	struct tk2_policy_body pb;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		c = tk2_policy_cmd(cmds[i].code);
		if (!c)
			return -EINVAL;
		pb = body_of(&cmds[i], h->alg);
		ret = c->extend(h, &pb, policy);
		if (ret)
			return ret;
	}
	return 0;
}
