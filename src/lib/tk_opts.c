// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for "new <len> [opts]", "load <hex> [opts]" and "update [opts]".
 * Stricter than the historical parser: odd-length or non-hex values,
 * trailing junk after numbers and repeated options are refused.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "tk_hex.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk_opts.h"

#define SEPARATORS " \t\n"

static const char * const opt_names[TK_OPT_COUNT] = {
	[TK_OPT_KEYHANDLE]	= "keyhandle",
	[TK_OPT_KEYAUTH]	= "keyauth",
	[TK_OPT_BLOBAUTH]	= "blobauth",
	[TK_OPT_PCRINFO]	= "pcrinfo",
	[TK_OPT_PCRLOCK]	= "pcrlock",
	[TK_OPT_MIGRATABLE]	= "migratable",
	[TK_OPT_HASH]		= "hash",
	[TK_OPT_POLICYDIGEST]	= "policydigest",
	[TK_OPT_POLICYHANDLE]	= "policyhandle",
	[TK_OPT_PCRS]		= "pcrs",
	[TK_OPT_LOGON]		= "logon",
	[TK_OPT_SESSIONS]	= "sessions",
	[TK_OPT_POLICYKEY]	= "policykey",
	[TK_OPT_POLICYREF]	= "policyref",
	[TK_OPT_REVOKE]		= "revoke",
	[TK_OPT_IMPORT]		= "import",
	[TK_OPT_KEYDIGEST]	= "keydigest",
	[TK_OPT_PCRCAP]		= "pcrcap",
};

static int refuse(struct tk_request *req, const char *why)
{
	req->why = why;
	return -EINVAL;
}

/* Next token, skipping runs of separators; NULL at the end. */
static char *next_token(char **line)
{
	char *tok;

	do {
		tok = strsep(line, SEPARATORS);
	} while (tok && !*tok);
	return tok;
}

static int hex_exact(u8 *dst, size_t size, const char *val)
{
	return tk_hex_decode(dst, size, val, strlen(val)) == (int)size ?
	       0 : -EINVAL;
}

static int parse_blobauth(struct tk_request *req, const char *val, bool tpm2)
{
	struct tk_options *o = &req->opt;
	size_t len = strlen(val);

	/* 40 hex digits always mean a 20-byte value. */
	if (len == 2 * TK_AUTH_SIZE) {
		if (hex_exact(o->blobauth, TK_AUTH_SIZE, val))
			return refuse(req, "blobauth is not hex");
		o->blobauth_len = TK_AUTH_SIZE;
		return 0;
	}
	/* A TPM 2.0 object takes a short password as it is. */
	if (tpm2 && len && len <= TK_AUTH_SIZE) {
		memcpy(o->blobauth, val, len);
		o->blobauth_len = len;
		return 0;
	}
	return refuse(req, "blobauth must be 40 hex digits");
}

static int parse_hash(struct tk_request *req, const char *val, bool tpm2)
{
	enum tk_hash i;

	if (tk_opt_given(&req->opt, TK_OPT_POLICYDIGEST))
		return refuse(req, "hash must come before policydigest");
	i = tk_hash_by_name(val);
	if (i == TK_HASH_COUNT)
		return refuse(req, "unknown hash");
	if (!tpm2 && i != TK_HASH_SHA1)
		return refuse(req, "TPM 1.2 seals with sha1 only");
	req->opt.hash = i;
	return 0;
}

/*
 * logon=<prefix>:<desc>: the description of the logon key that mirrors the
 * key for dm-crypt (":<len>:logon:<prefix>:<desc>"). The logon type wants
 * a non-empty prefix before the first ':'; we also want a non-empty rest,
 * printable ASCII only (it ends up in dm tables and logs) and a bound.
 */
static int parse_logon(struct tk_request *req, const char *val)
{
	size_t len = strlen(val);
	const char *colon = strchr(val, ':');
	size_t i;

	if (len > TK_LOGON_MAX)
		return refuse(req, "logon description longer than 255 characters");
	if (!colon || colon == val || !colon[1])
		return refuse(req, "logon must be <prefix>:<description>");
	for (i = 0; i < len; i++) {
		if (val[i] <= ' ' || val[i] > '~')
			return refuse(req, "logon description is not printable ASCII");
	}
	memcpy(req->opt.logon, val, len + 1);
	return 0;
}

/*
 * policykey=<hex>: the signer of a signed policy, a TPM2B_PUBLIC or a bare
 * TPMT_PUBLIC of an RSA-2048 or ECC P-256 key (trusted-policy
 * signer-public writes the former); kept as the TPMT_PUBLIC.
 */
static int parse_policykey(struct tk_request *req, const char *val, bool tpm2)
{
	struct tk_options *o = &req->opt;
	int n;
	u16 alg;

	if (!tpm2)
		return refuse(req, "policykey needs a TPM 2.0");
	n = tk_hex_decode(o->policykey, sizeof(o->policykey), val, strlen(val));
	if (n <= 0)
		return refuse(req, "policykey is not hex or is too long");
	if (n > 2 && get_unaligned_be16(o->policykey) == n - 2) {
		n -= 2;
		memmove(o->policykey, o->policykey + 2, n);
	}
	if (n > TK_SIGNER_MAX || tk2_signer_check(o->policykey, n, &alg))
		return refuse(req, "policykey is not an RSA-2048 or ECC P-256 public key");
	o->policykey_len = n;
	return 0;
}

/*
 * import=<hex>: the key to seal instead of RNG output (an existing volume
 * key), exactly "new LEN" bytes. Wiped by the parser when refused, by the
 * key type once used.
 */
static int parse_import(struct tk_request *req, const char *val)
{
	struct tk_options *o = &req->opt;
	int n;

	if (req->cmd != TK_CMD_NEW)
		return refuse(req, "import applies to new only");
	n = tk_hex_decode(o->import, sizeof(o->import), val, strlen(val));
	if (n != (int)req->key_len) {
		memzero_explicit(o->import, sizeof(o->import));
		return refuse(req, n == -EINVAL ? "import is not hex" :
			      "import must be as many bytes as new's key length");
	}
	o->import_len = n;
	return 0;
}

/*
 * The next ':'-separated field of *@s and its length in @len; *@s moves
 * past the ':', to NULL after the last field.
 */
static const char *next_field(const char **s, size_t *len)
{
	const char *f = *s, *colon;

	if (!f)
		return NULL;
	colon = strchr(f, ':');
	*len = colon ? (size_t)(colon - f) : strlen(f);
	*s = colon ? colon + 1 : NULL;
	return f;
}

static bool field_is(const char *f, size_t len, const char *word)
{
	return strlen(word) == len && !strncmp(f, word, len);
}

static const enum tk_hash kd_hashes[] = {
	TK_HASH_SHA1, TK_HASH_SHA256, TK_HASH_SHA512,
};

/*
 * keydigest=pbkdf2:<hash>:<iterations>:<salt-hex>:<digest-hex>: LUKS2's
 * "pbkdf2" digest of its volume key, which the key must match.
 */
static int parse_keydigest(struct tk_request *req, const char *val)
{
	struct tk_keydigest *kd = &req->opt.keydigest;
	const char *f[5], *s = val;
	size_t len[5], i;
	char num[12];
	int n;

	if (req->cmd == TK_CMD_UPDATE)
		return refuse(req, "keydigest applies to new and load");
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		f[i] = next_field(&s, &len[i]);
		if (!f[i])
			break;
	}
	if (i < ARRAY_SIZE(f) || s || !field_is(f[0], len[0], "pbkdf2"))
		return refuse(req, "keydigest must be pbkdf2:<hash>:<iterations>:<salt>:<digest>");
	for (i = 0; i < ARRAY_SIZE(kd_hashes); i++) {
		if (field_is(f[1], len[1], tk_hash_name(kd_hashes[i])))
			break;
	}
	if (i == ARRAY_SIZE(kd_hashes))
		return refuse(req, "keydigest hash must be sha1, sha256 or sha512");
	kd->hash = kd_hashes[i];
	if (!len[2] || len[2] >= sizeof(num))
		return refuse(req, "keydigest iterations must be 1000 to 16777216");
	memcpy(num, f[2], len[2]);
	num[len[2]] = '\0';
	if (tk_parse_u32(num, 10, &kd->iterations) ||
	    kd->iterations < TK_KD_ITER_MIN || kd->iterations > TK_KD_ITER_MAX)
		return refuse(req, "keydigest iterations must be 1000 to 16777216");
	n = tk_hex_decode(kd->salt, sizeof(kd->salt), f[3], len[3]);
	if (n <= 0)
		return refuse(req, "keydigest salt must be 1 to 128 bytes in hex");
	kd->salt_len = n;
	n = tk_hex_decode(kd->digest, sizeof(kd->digest), f[4], len[4]);
	if (n < TK_KD_DIGEST_MIN)
		return refuse(req, "keydigest digest must be 16 to 64 bytes in hex");
	kd->digest_len = n;
	return 0;
}

static int parse_option(struct tk_request *req, enum tk_opt opt,
			const char *val, bool tpm2)
{
	struct tk_options *o = &req->opt;
	unsigned int size;
	int ret;

	switch (opt) {
	case TK_OPT_KEYHANDLE:
		if (tk_parse_u32(val, 16, &o->keyhandle))
			return refuse(req, "keyhandle is not a 32-bit hex number");
		if (!o->keyhandle)
			return refuse(req, "keyhandle must not be 0");
		return 0;
	case TK_OPT_KEYAUTH:
		if (strlen(val) != 2 * TK_AUTH_SIZE ||
		    hex_exact(o->keyauth, TK_AUTH_SIZE, val))
			return refuse(req, "keyauth must be 40 hex digits");
		return 0;
	case TK_OPT_BLOBAUTH:
		return parse_blobauth(req, val, tpm2);
	case TK_OPT_PCRINFO:
		ret = tk_hex_decode(o->pcrinfo, sizeof(o->pcrinfo), val,
				    strlen(val));
		if (ret <= 0)
			return refuse(req, ret == -E2BIG ?
				      "pcrinfo is longer than 64 bytes" :
				      "pcrinfo is not hex");
		o->pcrinfo_len = ret;
		return 0;
	case TK_OPT_PCRLOCK:
		if (tk_parse_u32(val, 10, &o->pcrlock) ||
		    o->pcrlock >= TK_PCR_COUNT)
			return refuse(req, "pcrlock is not a PCR number");
		return 0;
	case TK_OPT_MIGRATABLE:
		if (strcmp(val, "0") && strcmp(val, "1"))
			return refuse(req, "migratable must be 0 or 1");
		o->migratable = val[0] == '1';
		return 0;
	case TK_OPT_HASH:
		return parse_hash(req, val, tpm2);
	case TK_OPT_POLICYDIGEST:
		if (!tpm2)
			return refuse(req, "policydigest needs a TPM 2.0");
		size = tk_hash_size(o->hash);
		if (strlen(val) != 2 * size ||
		    hex_exact(o->policydigest, size, val))
			return refuse(req, "policydigest does not match hash");
		o->policydigest_len = size;
		return 0;
	case TK_OPT_POLICYHANDLE:
		if (!tpm2)
			return refuse(req, "policyhandle needs a TPM 2.0");
		if (tk_parse_u32(val, 16, &o->policyhandle))
			return refuse(req, "policyhandle is not a 32-bit hex number");
		return 0;
	case TK_OPT_PCRS:
		if (!tpm2)
			return refuse(req, "pcrs needs a TPM 2.0");
		if (tk2_pcrs_parse(val, &o->pcrs_bank, &o->pcrs_mask))
			return refuse(req, "pcrs must be <hash>:<pcr>[,<pcr>...] with PCRs 0..23");
		return 0;
	case TK_OPT_LOGON:
		return parse_logon(req, val);
	case TK_OPT_SESSIONS:
		if (strcmp(val, "0") && strcmp(val, "1"))
			return refuse(req, "sessions must be 0 or 1");
		o->sessions = val[0] == '1';
		return 0;
	case TK_OPT_POLICYKEY:
		return parse_policykey(req, val, tpm2);
	case TK_OPT_POLICYREF:
		if (!tpm2)
			return refuse(req, "policyref needs a TPM 2.0");
		ret = tk_hex_decode(o->policyref, sizeof(o->policyref), val,
				    strlen(val));
		if (ret <= 0)
			return refuse(req, "policyref is not 1 to 64 bytes in hex");
		o->policyref_len = ret;
		return 0;
	case TK_OPT_REVOKE:
		if (!tpm2)
			return refuse(req, "revoke needs a TPM 2.0");
		if (tk_parse_u32(val, 16, &o->revoke) ||
		    o->revoke >> 24 != TK2_HT_NV_INDEX)
			return refuse(req, "revoke is not an NV index (01xxxxxx in hex)");
		return 0;
	case TK_OPT_IMPORT:
		return parse_import(req, val);
	case TK_OPT_KEYDIGEST:
		return parse_keydigest(req, val);
	case TK_OPT_PCRCAP:
		if (!tpm2)
			return refuse(req, "pcrcap needs a TPM 2.0");
		if (req->cmd == TK_CMD_LOAD)
			return refuse(req, "pcrcap applies to new and update");
		if (tk_parse_u32(val, 10, &o->pcrcap) || o->pcrcap > TK_PCRCAP_MAX)
			return refuse(req, "pcrcap must be a PCR from 0 to 15");
		return 0;
	default:
		return refuse(req, "unknown option");
	}
}

static int parse_options(struct tk_request *req, char *line, bool tpm2)
{
	unsigned int opt;
	char *tok, *val;
	int ret;

	while ((tok = next_token(&line))) {
		val = strchr(tok, '=');
		if (!val)
			return refuse(req, "option without a value");
		*val++ = '\0';
		for (opt = 0; opt < TK_OPT_COUNT; opt++) {
			if (!strcmp(tok, opt_names[opt]))
				break;
		}
		if (opt == TK_OPT_COUNT)
			return refuse(req, "unknown option");
		if (tk_opt_given(&req->opt, opt))
			return refuse(req, "option given twice");
		if (!*val)
			return refuse(req, "option with an empty value");
		ret = parse_option(req, opt, val, tpm2);
		if (ret)
			return ret;
		req->opt.given |= 1U << opt;
	}
	return 0;
}

/* What the new options need of the others, whatever their order. */
static int check_request(struct tk_request *req)
{
	const struct tk_options *o = &req->opt;

	if (tk_opt_given(o, TK_OPT_KEYDIGEST) && req->cmd == TK_CMD_NEW &&
	    !tk_opt_given(o, TK_OPT_IMPORT))
		return refuse(req, "keydigest on new goes with import");
	if (!tk_opt_given(o, TK_OPT_PCRCAP))
		return 0;
	if (!tk_opt_given(o, TK_OPT_PCRS))
		return refuse(req, "pcrcap goes with pcrs");
	if (tk_opt_given(o, TK_OPT_POLICYDIGEST) ||
	    tk_opt_given(o, TK_OPT_POLICYKEY))
		return refuse(req, "pcrcap cannot be combined with policydigest or policykey");
	return 0;
}

/**
 * tk_parse_request() - parse a trusted key command line
 * @line: the NUL-terminated, writable command ("new 32 keyhandle=...")
 * @tpm2: whether the TPM is a TPM 2.0 (options and defaults differ)
 * @req: the command and options, on success; on failure req->why names
 *       the reason
 *
 * A refused line leaves no import= bytes in @req.
 *
 * Return: 0, or -EINVAL.
 */
int tk_parse_request(char *line, bool tpm2, struct tk_request *req)
{
	char *tok;
	u32 len;
	int ret;

	memset(req, 0, sizeof(*req));
	req->opt.migratable = 1;
	req->opt.sessions = 1;
	req->opt.hash = tpm2 ? TK_HASH_SHA256 : TK_HASH_SHA1;

	tok = next_token(&line);
	if (!tok)
		return refuse(req, "empty command");
	if (!strcmp(tok, "new")) {
		req->cmd = TK_CMD_NEW;
		tok = next_token(&line);
		if (!tok || tk_parse_u32(tok, 10, &len))
			return refuse(req, "new needs a decimal key length");
		if (len < TK_KEY_MIN || len > TK_KEY_MAX)
			return refuse(req, "key length out of range 32..128");
		req->key_len = len;
	} else if (!strcmp(tok, "load")) {
		req->cmd = TK_CMD_LOAD;
		tok = next_token(&line);
		if (!tok)
			return refuse(req, "load needs a blob");
		ret = tk_hex_decode(req->blob, sizeof(req->blob), tok,
				    strlen(tok));
		if (ret <= 0)
			return refuse(req, ret == -E2BIG ? "blob too large" :
				      "blob is not an even number of hex digits");
		if (!tpm2 && ret > TK_BLOB_MAX)
			return refuse(req, "blob too large");
		req->blob_len = ret;
	} else if (!strcmp(tok, "update")) {
		req->cmd = TK_CMD_UPDATE;
	} else {
		return refuse(req, "unknown command");
	}
	ret = parse_options(req, line, tpm2);
	if (!ret)
		ret = check_request(req);
	if (ret) {
		memzero_explicit(req->opt.import, sizeof(req->opt.import));
		req->opt.import_len = 0;
	}
	return ret;
}
