/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user ABI of the trusted key type: the command line handed to
 * add_key(2)/keyctl_update(2), parsed into a request. Kernel-free.
 */
#ifndef TK_OPTS_H
#define TK_OPTS_H

#include <linux/types.h>
#include "tk_hash.h"

#define TK_KEY_MIN	32
#define TK_KEY_MAX	128	/* struct trusted_key_payload: MAX_KEY_SIZE */
#define TK_BLOB_MAX	512	/* MAX_BLOB_SIZE */
#define TK_LOAD_MAX	4096	/* a TPM 2.0 blob with signed policies */
#define TK_SIGNER_MAX	600	/* policykey=: a TPMT_PUBLIC */
#define TK_PCRINFO_MAX	64	/* MAX_PCRINFO_SIZE */
#define TK_DIGEST_MAX	64	/* MAX_DIGEST_SIZE */
#define TK_AUTH_SIZE	20	/* TPM 1.2 authorisation data: SHA-1 sized */
#define TK_DATA_MAX	32767	/* what add_key may hand a key type */
#define TK_PCR_COUNT	24
#define TK_LOGON_MAX	255	/* logon=: description length, without the NUL */
#define TK_KD_ITER_MIN	1000	/* keydigest=: LUKS2 enforces at least 1000 */
#define TK_KD_ITER_MAX	16777216
#define TK_KD_SALT_MAX	128
#define TK_KD_DIGEST_MIN 16
#define TK_KD_DIGEST_MAX 64
#define TK_PCRCAP_MAX	15	/* pcrcap=: PCRs that reset to zeros, no locality */

enum tk_cmd {
	TK_CMD_NEW = 1,
	TK_CMD_LOAD,
	TK_CMD_UPDATE,
};

enum tk_opt {
	TK_OPT_KEYHANDLE,
	TK_OPT_KEYAUTH,
	TK_OPT_BLOBAUTH,
	TK_OPT_PCRINFO,
	TK_OPT_PCRLOCK,
	TK_OPT_MIGRATABLE,
	TK_OPT_HASH,
	TK_OPT_POLICYDIGEST,
	TK_OPT_POLICYHANDLE,
	TK_OPT_PCRS,
	TK_OPT_LOGON,
	TK_OPT_SESSIONS,
	TK_OPT_POLICYKEY,
	TK_OPT_POLICYREF,
	TK_OPT_REVOKE,
	TK_OPT_IMPORT,
	TK_OPT_KEYDIGEST,
	TK_OPT_PCRCAP,
	TK_OPT_COUNT
};

/*
 * keydigest=pbkdf2:<hash>:<iterations>:<salt>:<digest>: what the key must
 * give as PBKDF2 password (LUKS2's "pbkdf2" digest of a volume key).
 */
struct tk_keydigest {
	enum tk_hash hash;		/* sha1, sha256 or sha512 */
	u32 iterations;
	u32 salt_len;
	u32 digest_len;
	u8 salt[TK_KD_SALT_MAX];
	u8 digest[TK_KD_DIGEST_MAX];
};

struct tk_options {
	u32 given;			/* BIT(enum tk_opt) per option seen */
	u32 keyhandle;
	u32 pcrlock;
	u32 policyhandle;
	u32 blobauth_len;
	u32 pcrinfo_len;
	u32 policydigest_len;
	u32 policykey_len;
	u32 policyref_len;
	u32 revoke;			/* revoke=: the NV counter, or 0 */
	enum tk_hash hash;
	enum tk_hash pcrs_bank;		/* pcrs=: TPM 2.0 PCR policy */
	u32 pcrs_mask;
	u32 pcrcap;			/* pcrcap=: sealed to its reset value */
	u8 migratable;
	u8 sessions;			/* sessions=: 1.2 transport, 2.0 sessions */
	u8 keyauth[TK_AUTH_SIZE];
	u8 blobauth[TK_AUTH_SIZE];
	u8 pcrinfo[TK_PCRINFO_MAX];
	u8 policydigest[TK_DIGEST_MAX];
	u8 policykey[TK_SIGNER_MAX + 2];	/* TPMT_PUBLIC of the signer */
	u8 policyref[TK_DIGEST_MAX];	/* what the signer's approvals name */
	char logon[TK_LOGON_MAX + 1];	/* logon=: "<prefix>:<desc>" */
	struct tk_keydigest keydigest;
	u32 import_len;			/* import=: the key, not RNG output */
	u8 import[TK_KEY_MAX];		/* wiped as soon as it was used */
};

struct tk_request {
	enum tk_cmd cmd;
	u32 key_len;			/* new */
	u32 blob_len;			/* load */
	u8 blob[TK_LOAD_MAX];		/* at most TK_BLOB_MAX on a TPM 1.2 */
	struct tk_options opt;
	const char *why;		/* static text: why the input was refused */
};

static inline bool tk_opt_given(const struct tk_options *o, enum tk_opt opt)
{
	return o->given & (1U << opt);
}

int tk_parse_request(char *line, bool tpm2, struct tk_request *req);

#endif /* TK_OPTS_H */
