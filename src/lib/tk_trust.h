/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parents trusted this boot (docs/tpm2-sessions.md, "Which parent"):
 * per handle, the SHA-256 digest of the public area first seen there
 * (TPM 2.0: the TPMT_PUBLIC, whatever its nameAlg; TPM 1.2: the
 * TPM_PUBKEY), and whether a privileged caller saw it. Kernel-free: the
 * decision is host-tested; the caller holds the lock that guards it.
 */
#ifndef TK_TRUST_H
#define TK_TRUST_H

#include <linux/types.h>

#define TK_TRUST_MAX		16
#define TK_TRUST_DIGEST_SIZE	32

struct tk_trust_rec {
	u32 handle;
	bool used;
	bool privileged;	/* seen by a CAP_SYS_ADMIN caller */
	u8 digest[TK_TRUST_DIGEST_SIZE];
};

struct tk_trust {
	struct tk_trust_rec rec[TK_TRUST_MAX];
};

/* What tk_trust_check() decided. */
enum tk_trust_verdict {
	TK_TRUST_SAME,		/* the key recorded for the handle */
	TK_TRUST_NEW,		/* first seen: recorded now */
	TK_TRUST_REPLACED,	/* an unprivileged record, replaced by root's */
	TK_TRUST_CHANGED,	/* another key than recorded: refuse */
	TK_TRUST_FULL,		/* not recorded, no room: refuse */
};

enum tk_trust_verdict tk_trust_check(struct tk_trust *t, u32 handle,
				     const u8 digest[TK_TRUST_DIGEST_SIZE],
				     bool privileged);
const struct tk_trust_rec *tk_trust_find(const struct tk_trust *t,
					 u32 handle);
bool tk_trust_binds(const struct tk_trust_rec *r, bool privileged);
void tk_trust_forget(struct tk_trust *t, u32 handle);
const char *tk_trust_why(enum tk_trust_verdict v);

#endif /* TK_TRUST_H */
