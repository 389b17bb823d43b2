/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trusted-policy's reading and rewriting of TPMKey blobs
 * (draft-bottomley-tpm2-keys), apart from the tool so that a fuzz target
 * and host tests can call it: no OpenSSL, no exit, no output but the FILE
 * it is given. Every read of blob bytes is bounded by the element it is in
 * (src/lib's DER reader and tk_rsp_buf). Errors: -EINVAL (malformed),
 * -E2BIG (too long), with a one-line reason in *why.
 */
#ifndef TP_BLOB_H
#define TP_BLOB_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "tk_der.h"

#define TP_BLOB_MAX	8192		/* a TPMKey, as DER */
#define TP_ELEMS_MAX	12		/* top-level elements of a TPMKey */
#define TP_ENTRIES_MAX	32		/* signed policies in [3] */
#define TP_SHA256_LEN	32
#define TP_REF_MAX	64		/* a policyRef: at most a digest */
#define TP_CTX(n)	(TK_DER_CONTEXT + (n))

/* A top-level element of a TPMKey, kept as encoded. */
struct tp_elem {
	u8 tag;
	const u8 *raw;
	u32 raw_len;
	struct tk_der_tlv t;
};

/* A TPMKey as its top-level elements; indexes into e[], or -1. */
struct tp_key {
	struct tp_elem e[TP_ELEMS_MAX];
	unsigned int n;
	int policy, auth_policy, pub;
};

/* One TPMAuthPolicy of [3]. */
struct tp_entry {
	const u8 *raw;
	u32 raw_len;
	const u8 *name;			/* NULL: no name */
	u32 name_len;
	struct tk_der cmds;		/* SEQUENCE OF TPMPolicy contents */
};

/* SHA-256 of @n bytes at @p into @out: the caller's (OpenSSL in the tool). */
typedef void tp_sha256_fn(const u8 *p, u32 n, u8 *out);

long tp_hex_decode(const char *s, size_t n, u8 *out, size_t size);
int tp_blob_decode(const u8 *text, size_t n, u8 *out, u32 size, u32 *len,
		   bool *hex, const char **why);
int tp_key_parse(const u8 *blob, u32 len, struct tp_key *k, const char **why);
int tp_key_auth_policy(const struct tp_key *k, const u8 **policy,
		       const char **why);
int tp_entries(const struct tp_key *k, struct tp_entry *out, unsigned int max,
	       unsigned int *count, const char **why);
int tp_auth_field(const u8 *const *raw, const u32 *len, unsigned int n,
		  u8 *out, u32 size, const char **why);
int tp_key_write(const struct tp_key *k, const u8 *pol, u32 pol_len,
		 const u8 *auth, u32 auth_len, u8 *out, u32 size,
		 const char **why);
void tp_print_escaped(FILE *f, const u8 *p, u32 n);
int tp_key_policy_ref(const struct tp_key *k, const u8 **ref, u32 *len,
		      const char **why);
void tp_print_ref(FILE *f, const u8 *ref, u32 len);
int tp_list(const struct tp_key *k, FILE *f, tp_sha256_fn *sha256,
	    const char **why);

#endif /* TP_BLOB_H */
