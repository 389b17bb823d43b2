/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TPM 2.0 policy commands a trusted key's policy can hold, in one
 * table (tk2_policy.c): per command its code, how the body that a TPMKey's
 * CommandPolicy carries (the command's parameters after the session handle)
 * is checked, what the command adds to a policy digest (TPM 2.0 Part 3,
 * the command's PolicyUpdate), and how the command is built for the TPM.
 * The kernel's seal and load (src/trusted/tpm2_policy.c) and
 * trusted-policy(1) extend digests and replay sessions through it. Hashing
 * is the caller's. Kernel-free.
 *
 * Adding a command: a row in tk2_policy.c and its tests.
 */
#ifndef TK2_POLICY_H
#define TK2_POLICY_H

#include <linux/types.h>
#include "tk_buf.h"
#include "tk2_key.h"

#define TK2_CC_POLICY_COMMAND_CODE	0x0000016c

/* Extending digests: the caller's hash, and what is not in a body. */
struct tk2_policy_hash {
	/* H_@alg(in[0] || ... || in[n - 1]) into @out */
	int (*digest)(void *ctx, u16 alg, const struct tk_span *in,
		      unsigned int n, u8 *out);
	void *ctx;
	u16 alg;		/* the policy's hash: the object's name algorithm */
	struct tk_span nv_name;	/* PolicyNV: the index's Name, from the TPM */
};

/* How a command is sent, beyond being built. */
enum tk2_policy_send {
	TK2_POLICY_PLAIN,	/* no authorisation: an empty response */
	TK2_POLICY_NV_AUTH,	/* the NV index authorises it (PolicyNV) */
	TK2_POLICY_TICKET,	/* needs a VerifySignature ticket (PolicyAuthorize) */
};

/* Building a command: the session, and what a ticket row needs. */
struct tk2_policy_run {
	u32 session;
	struct tk_span approved;	/* PolicyAuthorize: approvedPolicy */
	struct tk_span key_name;	/* the signer's Name, from LoadExternal */
	struct tk_span ticket;		/* a whole TPMT_TK_VERIFIED */
};

/* One command's body as its row sees it. */
struct tk2_policy_body {
	u32 code;
	const u8 *p;
	u32 len;
	u16 alg;		/* the policy's hash (parse) */
};

/* A row: a command, its body's check, its PolicyUpdate, its builder. */
struct tk2_policy_cmd {
	u32 code;
	const char *name;
	enum tk2_policy_send send;
	const char *refused;	/* what a refusal of it means, or NULL */
	int (*parse)(const struct tk2_policy_body *pb);
	int (*extend)(const struct tk2_policy_hash *h,
		      const struct tk2_policy_body *pb, u8 *policy);
	int (*build)(struct tk_cmd_buf *b, u8 *buf, u32 size,
		     const struct tk2_policy_run *run,
		     const struct tk2_policy_body *pb);
};

const struct tk2_policy_cmd *tk2_policy_cmd(u32 code);
int tk2_policy_parse(const struct tk2_key_policy *p, u16 alg);
int tk2_policy_build(struct tk_cmd_buf *b, u8 *buf, u32 size,
		     const struct tk2_policy_run *run,
		     const struct tk2_key_policy *p);
int tk2_policy_extend(const struct tk2_policy_hash *h,
		      const struct tk2_key_policy *cmds, unsigned int n,
		      u8 *policy);

#endif /* TK2_POLICY_H */
