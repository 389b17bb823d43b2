// SPDX-License-Identifier: GPL-2.0
/*
 * The table of parents trusted this boot: the rule is in tk_trust_check().
 * Kernel-free.
 */
#include <crypto/algapi.h>
#include <linux/string.h>
#include "tk_trust.h"

/**
 * tk_trust_find() - the record of a handle
 * @t: the table
 * @handle: the parent handle
 *
 * Return: the record, or NULL when the handle has none.
 */
const struct tk_trust_rec *tk_trust_find(const struct tk_trust *t, u32 handle)
{
	unsigned int i;

	for (i = 0; i < TK_TRUST_MAX; i++)
		if (t->rec[i].used && t->rec[i].handle == handle)
			return &t->rec[i];
	return NULL;
}

/**
 * tk_trust_binds() - whether a record binds a caller
 * @r: the record
 * @privileged: the caller has CAP_SYS_ADMIN
 *
 * What an unprivileged caller saw first does not bind root: a user may
 * have met an interposer that root would not have.
 *
 * Return: true when @r decides for this caller.
 */
bool tk_trust_binds(const struct tk_trust_rec *r, bool privileged)
{
	return r && (r->privileged || !privileged);
}

/**
 * tk_trust_check() - may a parent be trusted, and record it
 * @t: the table
 * @handle: the parent handle (persistent or permanent: a transient handle
 *	is reused by other objects and is not recorded)
 * @digest: SHA-256 of the public area the TPM answered with
 * @privileged: the caller has CAP_SYS_ADMIN
 *
 * The first key seen at a handle is recorded; later the same handle must
 * answer with the same public area (every byte of it: a rewritten nameAlg
 * is another area). A record made by an unprivileged caller binds
 * unprivileged callers only; root's answer replaces it, or marks it
 * privileged when it is the same. With the table full, a handle not in it
 * is refused, never accepted unrecorded.
 *
 * Return: the verdict; TK_TRUST_CHANGED and TK_TRUST_FULL mean refuse.
 */
enum tk_trust_verdict tk_trust_check(struct tk_trust *t, u32 handle,
				     const u8 digest[TK_TRUST_DIGEST_SIZE],
				     bool privileged)
{
	struct tk_trust_rec *r = (struct tk_trust_rec *)tk_trust_find(t, handle);
	bool same;
	unsigned int i;

	if (r) {
		same = !crypto_memneq(r->digest, digest, TK_TRUST_DIGEST_SIZE);
		if (tk_trust_binds(r, privileged))
			return same ? TK_TRUST_SAME : TK_TRUST_CHANGED;
		r->privileged = true;
		if (same)
			return TK_TRUST_SAME;
		memcpy(r->digest, digest, TK_TRUST_DIGEST_SIZE);
		return TK_TRUST_REPLACED;
	}
	for (i = 0; i < TK_TRUST_MAX; i++) {
		r = &t->rec[i];
		if (r->used)
			continue;
		r->used = true;
		r->handle = handle;
		r->privileged = privileged;
		memcpy(r->digest, digest, TK_TRUST_DIGEST_SIZE);
		return TK_TRUST_NEW;
	}
	return TK_TRUST_FULL;
}

/**
 * tk_trust_forget() - drop a handle's record
 * @t: the table
 * @handle: the handle
 */
void tk_trust_forget(struct tk_trust *t, u32 handle)
{
	struct tk_trust_rec *r = (struct tk_trust_rec *)tk_trust_find(t, handle);

	if (r)
		memset(r, 0, sizeof(*r));
}

/**
 * tk_trust_why() - a refusal's reason, for the log
 * @v: a verdict
 *
 * Return: a phrase, or NULL when @v is no refusal.
 */
const char *tk_trust_why(enum tk_trust_verdict v)
{
	switch (v) {
	case TK_TRUST_CHANGED:
		return "its public area is not the one seen first";
	case TK_TRUST_FULL:
		return "no room to record another parent";
	default:
		return NULL;
	}
}
