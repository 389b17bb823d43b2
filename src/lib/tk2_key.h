/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The blob of a TPM 2.0 trusted key: the ASN.1 TPMKey ("TSS2 PRIVATE KEY",
 * TCG OID 2.23.133.10.1.5 for sealed data) that the in-tree module writes,
 * or the older raw form TPM2B_PRIVATE || TPM2B_PUBLIC. Kernel-free. The
 * loadable-key OID 2.23.133.10.1.3 (tpm2_encodeobject) is read too, for a
 * sealed data object only; blobs are always written as sealed data.
 *
 *   TPMKey ::= SEQUENCE {
 *     type        OBJECT IDENTIFIER,
 *     emptyAuth   [0] EXPLICIT BOOLEAN OPTIONAL,
 *     policy      [1] EXPLICIT SEQUENCE OF TPMPolicy OPTIONAL,
 *     secret      [2] EXPLICIT OCTET STRING OPTIONAL,     -- refused
 *     authPolicy  [3] EXPLICIT SEQUENCE OF TPMAuthPolicy OPTIONAL,
 *     description [4] EXPLICIT UTF8String OPTIONAL,       -- ignored
 *     rsaParent   [5] EXPLICIT BOOLEAN OPTIONAL,          -- must be FALSE
 *     parent      INTEGER,
 *     pubkey      OCTET STRING,   -- a whole TPM2B_PUBLIC
 *     privkey     OCTET STRING }  -- a whole TPM2B_PRIVATE
 *   TPMPolicy ::= SEQUENCE {
 *     CommandCode   [0] EXPLICIT INTEGER,
 *     CommandPolicy [1] EXPLICIT OCTET STRING }
 *   TPMAuthPolicy ::= SEQUENCE {
 *     name   [0] EXPLICIT UTF8String OPTIONAL,
 *     policy [1] EXPLICIT SEQUENCE OF TPMPolicy }
 *
 * policy [1] is commands of tk2_policy.c's table that load replays alone:
 * a PolicyPCR first (pcrs=), or, for a key sealed under a signed policy
 * (policykey=), one PolicyAuthorize of the signer with sigAlg NULL first;
 * then PolicyPCRs and PolicyCommandCode(TPM2_Unseal); one PolicyAuthValue
 * with an empty body last (a PIN: blobauth=), k->auth_value. [3] is allowed with a
 * PolicyAuthorize: the signed policies, each a list
 * of commands ending in PolicyAuthorize with the signature. Their
 * commands are checked when load tries them, not here.
 */
#ifndef TK2_KEY_H
#define TK2_KEY_H

#include <linux/types.h>
#include "tk2_msg.h"

#define TK2_KEY_POLICY_MAX	8
#define TK2_KEY_AUTH_MAX	8	/* signed policies in [3] */
#define TK2_KEY_AUTH_CMDS	4	/* commands in one of them */

struct tk2_key_policy {
	u32 code;
	const u8 *body;
	u32 len;
};

struct tk2_key_auth {
	const u8 *name;			/* UTF-8, not NUL-terminated, or NULL */
	u32 name_len;
	unsigned int ncmd;
	struct tk2_key_policy cmd[TK2_KEY_AUTH_CMDS];
};

struct tk2_key {
	bool raw;			/* the old form: no DER, no parent */
	bool loadable;			/* read with the loadable-key OID */
	bool empty_auth;
	u32 parent;
	const u8 *pub;			/* TPM2B_PUBLIC, size field included */
	u32 pub_len;
	const u8 *priv;			/* TPM2B_PRIVATE, size field included */
	u32 priv_len;
	unsigned int npolicy;
	struct tk2_key_policy policy[TK2_KEY_POLICY_MAX];
	bool signed_policy;		/* policy is a PolicyAuthorize */
	bool auth_value;		/* policy ends in PolicyAuthValue */
	unsigned int nauth;
	struct tk2_key_auth auth[TK2_KEY_AUTH_MAX];
	struct tk2_public info;	/* what pub says */
	const char *why;		/* static text: why the blob was refused */
};

int tk2_key_parse(const u8 *blob, u32 len, struct tk2_key *k);
int tk2_key_encode(u8 *out, u32 size, const struct tk2_key *k);
bool tk2_key_parent_ok(u32 handle);

#endif /* TK2_KEY_H */
