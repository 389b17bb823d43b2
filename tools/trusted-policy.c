// SPDX-License-Identifier: GPL-2.0
/*
 * trusted-policy: signed PCR policies for TPM 2.0 trusted key blobs
 * (TPMKey, draft-bottomley-tpm2-keys): the authPolicy a key must be sealed
 * with (TPM2_PolicyAuthorize of a signer and a policyRef, empty unless
 * --policy-ref gives one), PolicyPCR digests, and the signed policies of a
 * blob's authPolicy [3] field, which it adds, lists and removes. See
 * trusted-policy.1.
 *
 * The DER and TPM marshalling is src/lib's (tk_der.c, tk2_pcr.c, built
 * against tests/host/shim); hashing and signatures are OpenSSL's. Reading
 * and rewriting blobs is tp_blob.c's (bounded, no OpenSSL: fuzzed).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include "tk_der.h"
#include "tk2_msg.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk2_policy.h"
#include "tk_hash.h"
#include "tp_blob.h"

#define CC_POLICY_AUTHORIZE	0x0000016a
#define ALG_RSA			0x0001
#define ALG_RSASSA		0x0014
#define ALG_ECDSA		0x0018
#define SIGNER_ATTRS		(TK2_OA_SIGN | TK2_OA_USERWITHAUTH)
#define CTX(n)			TP_CTX(n)
#define BLOB_MAX		TP_BLOB_MAX
#define SHA256_LEN		TP_SHA256_LEN

static const char *prog = "trusted-policy";

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: trusted-policy COMMAND [OPTIONS]\n"
"\n"
"  authorize --signer KEY [--policy-ref HEX]\n"
"                                     the authPolicy to seal with: new ... policydigest=HEX\n"
"  signer-name --signer KEY           the TPM name of the signer (nameAlg SHA-256)\n"
"  signer-public --signer KEY -o FILE the signer's TPM2B_PUBLIC, as the blob carries it\n"
"  pcr-digest --pcrs BANK:LIST --pcr-values FILE\n"
"                                     the PolicyPCR policy digest (the approved policy)\n"
"  sign --signer KEY --policy HEX [--policy-ref HEX]\n"
"                                     the TPMT_SIGNATURE of an approved policy, in hex\n"
"  sign --signer KEY --counter-index NV --counter N --pcrs BANK:LIST\n"
"      --pcr-values FILE [--policy-ref HEX]\n"
"                                     the same for a revoke= key: the approved policy is\n"
"                                     built here, PolicyPCR then PolicyNV(NV <= N)\n"
"  add --signer KEY --pcrs BANK:LIST --pcr-values FILE [--name NAME]\n"
"      [--policy-ref HEX] IN OUT\n"
"                                     sign a PolicyPCR policy (and PolicyCommandCode:\n"
"                                     Unseal only) and put it first in IN's\n"
"                                     authPolicy [3] field; write OUT\n"
"  list IN                            the signed policies of IN\n"
"  remove (--name NAME | --index N) IN OUT\n"
"  counter --counter-index NV [--counter-name HEX]\n"
"                                     the tpm2-tools commands that make NV a\n"
"                                     revocation counter, and its Name\n"
"\n"
"Revocation (a key sealed with revoke=NV): add, pcr-digest and sign take\n"
"--counter N: the approval checks PolicyNV(NV <= N) and the TPM refuses it\n"
"once the counter is above N (tpm2_nvincrement -C o NV). The counter's index\n"
"and Name come from IN's policy field, or --counter-index NV (and\n"
"--counter-name HEX when it was not defined as 'counter' prints). sign never\n"
"signs a given --policy digest for such a key: one without the counter's\n"
"check would never be revoked.\n"
"\n"
"KEY: a PEM RSA-2048 or ECDSA P-256 private key (authorize, signer-name and\n"
"signer-public take a public key too). IN: a TPMKey as DER, or in hex as keyctl\n"
"pipe prints it; OUT is written in the same form ('-': standard input/output).\n"
"--pcr-values FILE: lines 'N: HEX' or 'N HEX' (tpm2_pcrread's form), one per PCR\n"
"of the list, values of the bank's size. Objects must have nameAlg SHA-256.\n"
"--policy-ref HEX: 1 to 64 bytes, the kernel's policyref=; an approval then\n"
"opens only keys sealed with that policyRef. Without it the policyRef is\n"
"empty: one approval opens every key sealed to that signer without one.\n");
}

/* ---- bytes ---------------------------------------------------------------- */

static void hex_print(FILE *f, const u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

static size_t read_all(const char *path, u8 *buf, size_t size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	n = fread(buf, 1, size, f);
	if (n == size)
		die("%s: longer than %zu bytes", path, size - 1);
	if (f != stdin)
		fclose(f);
	return n;
}

/* A new file is 0600: blobs and signatures are for their owner alone. */
static FILE *open_out(const char *path)
{
	int fd;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "wb");
	if (!f)
		close(fd);
	return f;
}

static void write_all(const char *path, const u8 *p, size_t n, bool hex)
{
	FILE *f = open_out(path);

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (hex) {
		hex_print(f, p, n);
		fputc('\n', f);
	} else {
		fwrite(p, 1, n, f);
	}
	if (ferror(f) || (f != stdout && fclose(f)))
		die("%s: write failed", path);
}

static void sha256(const void *a, size_t an, const void *b, size_t bn, u8 *out)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	if (!c || !EVP_DigestInit_ex(c, EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(c, a, an) || !EVP_DigestUpdate(c, b, bn) ||
	    !EVP_DigestFinal_ex(c, out, NULL))
		die("SHA-256 failed");
	EVP_MD_CTX_free(c);
}

static void sha256_1(const u8 *p, u32 n, u8 *out)
{
	sha256(p, n, "", 0, out);
}

/* tk2_policy_hash's digest: the TPM hash @alg over the spans. */
static int policy_hash(void *ctx, u16 alg, const struct tk_span *in,
		       unsigned int n, u8 *out)
{
	const char *name = tk_hash_crypto_name(tk_hash_by_alg(alg));
	const EVP_MD *md = name ? EVP_get_digestbyname(name) : NULL;
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int i;
	int ok;

	(void)ctx;
	ok = md && c && EVP_DigestInit_ex(c, md, NULL);
	for (i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(c, in[i].p, in[i].len);
	ok = ok && EVP_DigestFinal_ex(c, out, NULL);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -EINVAL;
}

/*
 * Extend the SHA-256 policy @policy by one command, through src/lib's
 * table of policy commands (the kernel's own); @nv_name for a PolicyNV.
 */
static void policy_extend(u8 *policy, u32 code, const u8 *body, u32 len,
			  const u8 *nv_name)
{
	struct tk2_policy_hash h = {
		.digest = policy_hash, .alg = TK2_ALG_SHA256,
		.nv_name = { nv_name, nv_name ? TK2_NV_NAME_SIZE : 0 },
	};
	struct tk2_key_policy cmd = { code, body, len };

	if (tk2_policy_extend(&h, &cmd, 1, policy))
		die("internal: policy command 0x%03x", code);
}

/* ---- the signer ------------------------------------------------------------ */

struct signer {
	EVP_PKEY *key;
	bool priv;
	bool ecc;
	u8 pub[600];		/* TPMT_PUBLIC */
	u32 pub_len;
	u8 name[2 + SHA256_LEN];
};

static void bn_out(const BIGNUM *bn, u8 *out, int len)
{
	if (BN_bn2binpad(bn, out, len) != len)
		die("a key parameter does not fit %d bytes", len);
}

static void signer_public(struct signer *s)
{
	struct tk_cmd_buf b;
	BIGNUM *x = NULL, *y = NULL;
	u8 v[256];

	tk_cmd_init(&b, s->pub, sizeof(s->pub));
	if (!s->ecc) {
		unsigned long e;

		if (EVP_PKEY_get_bits(s->key) != 2048 ||
		    !EVP_PKEY_get_bn_param(s->key, OSSL_PKEY_PARAM_RSA_N, &x) ||
		    !EVP_PKEY_get_bn_param(s->key, OSSL_PKEY_PARAM_RSA_E, &y))
			die("the signer must be RSA-2048 or ECDSA P-256");
		e = BN_get_word(y);
		if (e == (unsigned long)-1 || e > 0xffffffffUL)
			die("the RSA exponent does not fit 32 bits");
		tk_cmd_u16(&b, ALG_RSA);
		tk_cmd_u16(&b, TK2_ALG_SHA256);
		tk_cmd_u32(&b, SIGNER_ATTRS);
		tk_cmd_u16(&b, 0);			/* authPolicy */
		tk_cmd_u16(&b, TK2_ALG_NULL);		/* symmetric */
		tk_cmd_u16(&b, TK2_ALG_NULL);		/* scheme: any */
		tk_cmd_u16(&b, 2048);
		tk_cmd_u32(&b, e == 65537 ? 0 : e);
		bn_out(x, v, 256);
		tk_cmd_u16(&b, 256);
		tk_cmd_bytes(&b, v, 256);
	} else {
		char group[64];

		if (!EVP_PKEY_get_utf8_string_param(s->key,
						    OSSL_PKEY_PARAM_GROUP_NAME,
						    group, sizeof(group), NULL) ||
		    strcmp(group, "prime256v1") ||
		    !EVP_PKEY_get_bn_param(s->key, OSSL_PKEY_PARAM_EC_PUB_X, &x) ||
		    !EVP_PKEY_get_bn_param(s->key, OSSL_PKEY_PARAM_EC_PUB_Y, &y))
			die("the signer must be RSA-2048 or ECDSA P-256");
		tk_cmd_u16(&b, TK2_ALG_ECC);
		tk_cmd_u16(&b, TK2_ALG_SHA256);
		tk_cmd_u32(&b, SIGNER_ATTRS);
		tk_cmd_u16(&b, 0);
		tk_cmd_u16(&b, TK2_ALG_NULL);		/* symmetric */
		tk_cmd_u16(&b, TK2_ALG_NULL);		/* scheme: any */
		tk_cmd_u16(&b, TK2_ECC_NIST_P256);
		tk_cmd_u16(&b, TK2_ALG_NULL);		/* kdf */
		bn_out(x, v, 32);
		tk_cmd_u16(&b, 32);
		tk_cmd_bytes(&b, v, 32);
		bn_out(y, v, 32);
		tk_cmd_u16(&b, 32);
		tk_cmd_bytes(&b, v, 32);
	}
	BN_free(x);
	BN_free(y);
	if (b.bad)
		die("internal: signer public area too long");
	s->pub_len = b.len;
	put_unaligned_be16(TK2_ALG_SHA256, s->name);
	sha256(s->pub, s->pub_len, "", 0, s->name + 2);
}

static void signer_load(const char *path, bool need_priv, struct signer *s)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	memset(s, 0, sizeof(*s));
	s->key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	s->priv = s->key;
	if (!s->key && !need_priv) {
		rewind(f);
		s->key = PEM_read_PUBKEY(f, NULL, NULL, NULL);
	}
	fclose(f);
	if (!s->key)
		die("%s: not a PEM %s key", path, need_priv ? "private" : "public or private");
	if (EVP_PKEY_is_a(s->key, "EC"))
		s->ecc = true;
	else if (!EVP_PKEY_is_a(s->key, "RSA"))
		die("%s: the signer must be RSA-2048 or ECDSA P-256", path);
	signer_public(s);
}

/* A policyRef: 0 to TP_REF_MAX bytes (empty: none given). */
struct policy_ref {
	u8 p[TP_REF_MAX];
	u32 len;
};

#define REF_TEXT_MAX	(2 * TP_REF_MAX + 1)

/* A policyRef for a message, into @t (REF_TEXT_MAX): hex, or "none". */
static const char *ref_text(char *t, const u8 *p, u32 len)
{
	u32 i;

	if (!len)
		return "none";
	for (i = 0; i < len; i++)
		sprintf(t + 2 * i, "%02x", p[i]);
	return t;
}

/*
 * TPMT_SIGNATURE over aHash = SHA-256(approvedPolicy || policyRef), as
 * TPM2_VerifySignature checks it: RSASSA-PKCS1-v1_5 or ECDSA, SHA-256.
 */
static u32 sign_policy(const struct signer *s, const u8 *approved,
		       const struct policy_ref *ref, u8 *out, u32 size)
{
	unsigned char sig[512];
	size_t siglen = sizeof(sig);
	struct tk_cmd_buf b;
	EVP_PKEY_CTX *c;
	u8 ahash[SHA256_LEN], v[32];

	if (!s->priv)
		die("signing needs the signer's private key");
	sha256(approved, SHA256_LEN, ref->p, ref->len, ahash);
	c = EVP_PKEY_CTX_new(s->key, NULL);
	if (!c || EVP_PKEY_sign_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0 ||
	    (!s->ecc && EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) <= 0) ||
	    EVP_PKEY_sign(c, sig, &siglen, ahash, sizeof(ahash)) <= 0)
		die("signing failed");
	EVP_PKEY_CTX_free(c);
	tk_cmd_init(&b, out, size);
	tk_cmd_u16(&b, s->ecc ? ALG_ECDSA : ALG_RSASSA);
	tk_cmd_u16(&b, TK2_ALG_SHA256);
	if (!s->ecc) {
		tk_cmd_u16(&b, siglen);
		tk_cmd_bytes(&b, sig, siglen);
	} else {
		const unsigned char *p = sig;
		ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, siglen);

		if (!es)
			die("signing failed (ECDSA)");
		bn_out(ECDSA_SIG_get0_r(es), v, 32);
		tk_cmd_u16(&b, 32);
		tk_cmd_bytes(&b, v, 32);
		bn_out(ECDSA_SIG_get0_s(es), v, 32);
		tk_cmd_u16(&b, 32);
		tk_cmd_bytes(&b, v, 32);
		ECDSA_SIG_free(es);
	}
	if (b.bad)
		die("internal: signature too long");
	return b.len;
}

/*
 * The CommandPolicy of a TPM2_PolicyAuthorize in a TPMKey: TPM2B_PUBLIC
 * keySign, TPM2B_DIGEST policyRef, TPMT_SIGNATURE (@sig, or the empty
 * one, sigAlg TPM_ALG_NULL, in the key's own policy).
 */
static u32 authorize_body(const struct signer *s, const struct policy_ref *ref,
			  const u8 *sig, u32 sig_len, u8 *out, u32 size)
{
	static const u8 null_sig[] = { 0x00, 0x10 };
	struct tk_cmd_buf b;

	tk_cmd_init(&b, out, size);
	tk_cmd_u16(&b, s->pub_len);
	tk_cmd_bytes(&b, s->pub, s->pub_len);
	tk_cmd_u16(&b, ref->len);
	tk_cmd_bytes(&b, ref->p, ref->len);
	if (sig)
		tk_cmd_bytes(&b, sig, sig_len);
	else
		tk_cmd_bytes(&b, null_sig, sizeof(null_sig));
	if (b.bad)
		die("internal: PolicyAuthorize body too long");
	return b.len;
}

/*
 * The object's authPolicy: TPM2_PolicyAuthorize of the signer with @ref
 * (Part 3, 23.16: the digest reset, then two hashes):
 * SHA-256(SHA-256(0^32 || CC_PolicyAuthorize || signerName) || policyRef).
 */
static void authorize_digest(const struct signer *s,
			     const struct policy_ref *ref, u8 *out)
{
	u8 body[1024];
	u32 n = authorize_body(s, ref, NULL, 0, body, sizeof(body));

	policy_extend(out, CC_POLICY_AUTHORIZE, body, n, NULL);
}

/* ---- PCRs -------------------------------------------------------------------- */

struct pcr_policy {
	struct tk2_pcrs sel;
	enum tk_hash bank;
	u8 pcr_digest[SHA256_LEN];	/* SHA-256 over the values */
	u8 policy[SHA256_LEN];		/* PolicyPCR from a zero digest */
	u8 body[TK2_POLICY_PCR_BODY_MAX];
	int body_len;
};

static void pcr_values(const char *path, const struct pcr_policy *pp,
		       u8 values[TK2_PCR_COUNT][TK2_DIGEST_MAX])
{
	unsigned int dsize = tk_hash_size(pp->bank), n;
	u32 seen = 0;
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		long got;

		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			continue;		/* a bank header, a comment */
		n = strtoul(p, &end, 10);
		p = end;
		while (isspace((unsigned char)*p) || *p == ':' || *p == '=')
			p++;
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2;
		if (n >= TK2_PCR_COUNT || !(pp->sel.mask & 1U << n))
			continue;
		got = tp_hex_decode(p, strcspn(p, "\r\n"), values[n], TK2_DIGEST_MAX);
		if (got != (long)dsize)
			die("%s: PCR %u: not %u bytes of hex", path, n, dsize);
		seen |= 1U << n;
	}
	fclose(f);
	for (n = 0; n < TK2_PCR_COUNT; n++)
		if ((pp->sel.mask & 1U << n) && !(seen & 1U << n))
			die("%s: no value for PCR %u", path, n);
}

/* pcrDigest, the PolicyPCR digest and the body for the TPMKey. */
static void pcr_policy(const char *pcrs, const char *values_path,
		       struct pcr_policy *pp)
{
	u8 values[TK2_PCR_COUNT][TK2_DIGEST_MAX];
	u8 all[TK2_PCR_COUNT * TK2_DIGEST_MAX];
	unsigned int n, dsize, len = 0;

	if (!pcrs || !values_path)
		die("need --pcrs and --pcr-values");
	if (tk2_pcrs_parse(pcrs, &pp->bank, &pp->sel.mask) || !pp->sel.mask)
		die("--pcrs %s: not BANK:LIST (e.g. sha256:7,16)", pcrs);
	pp->sel.alg = tk2_hash_alg(pp->bank);
	dsize = tk_hash_size(pp->bank);
	pcr_values(values_path, pp, values);

	for (n = 0; n < TK2_PCR_COUNT; n++) {
		if (pp->sel.mask & 1U << n) {
			memcpy(all + len, values[n], dsize);
			len += dsize;
		}
	}
	sha256(all, len, "", 0, pp->pcr_digest);

	pp->body_len = tk2_policy_pcr_body(pp->body, sizeof(pp->body), &pp->sel,
					   pp->pcr_digest, SHA256_LEN);
	if (pp->body_len < 0)
		die("internal: PolicyPCR body too long");
	memset(pp->policy, 0, sizeof(pp->policy));
	policy_extend(pp->policy, TK2_CC_POLICY_PCR, pp->body, pp->body_len,
		      NULL);
}

/* ---- the TPMKey ------------------------------------------------------------ */

/* A TPMKey read from a file: its DER and elements (tp_blob.c). */
struct tpmkey {
	u8 blob[BLOB_MAX];
	u32 len;
	bool hex;
	struct tp_key k;
};

static void key_read(const char *path, struct tpmkey *k)
{
	static u8 text[2 * BLOB_MAX + 64];
	size_t n = read_all(path, text, sizeof(text));
	const char *why;

	memset(k, 0, sizeof(*k));
	if (tp_blob_decode(text, n, k->blob, sizeof(k->blob), &k->len, &k->hex,
			   &why) ||
	    tp_key_parse(k->blob, k->len, &k->k, &why))
		die("%s: %s", path, why);
}

/* The object's authPolicy (SHA-256 objects only). */
static const u8 *key_auth_policy(const char *path, const struct tpmkey *k)
{
	const char *why;
	const u8 *p;

	if (tp_key_auth_policy(&k->k, &p, &why))
		die("%s: %s", path, why);
	return p;
}

/* One TPMPolicy: SEQUENCE { [0] INTEGER code, [1] OCTET STRING body }. */
static void put_policy(struct tk_cmd_buf *w, u32 code, const u8 *body, u32 len)
{
	u32 c = tk_der_size(tk_der_u32_size(code)), b = tk_der_size(len);

	tk_der_put_hdr(w, TK_DER_SEQUENCE, tk_der_size(c) + tk_der_size(b));
	tk_der_put_hdr(w, CTX(0), c);
	tk_der_put_u32(w, code);
	tk_der_put_hdr(w, CTX(1), b);
	tk_der_put(w, TK_DER_OCTET_STRING, body, len);
}

static u32 policy_size(u32 code, u32 len)
{
	return tk_der_size(tk_der_size(tk_der_size(tk_der_u32_size(code))) +
			   tk_der_size(tk_der_size(len)));
}

/* Write @k with [1] and [3] replaced by @pol and @auth (NULL: none). */
static u32 key_write(const struct tpmkey *k, const u8 *pol, u32 pol_len,
		     const u8 *auth, u32 auth_len, u8 *out, u32 size)
{
	const char *why;
	int n = tp_key_write(&k->k, pol, pol_len, auth, auth_len, out, size,
			     &why);

	if (n < 0)
		die("%s", why);
	return n;
}

/*
 * The key's own policy [1]: exactly the initial PolicyAuthorize of @s with
 * @ref, then with @pin (a key sealed with blobauth=) PolicyAuthValue, empty.
 */
static u32 key_policy(const struct signer *s, const struct policy_ref *ref,
		      bool pin, u8 *out, u32 size)
{
	u8 body[1024];
	u32 n = authorize_body(s, ref, NULL, 0, body, sizeof(body)), p;
	struct tk_cmd_buf w;

	p = policy_size(CC_POLICY_AUTHORIZE, n);
	if (pin)
		p += policy_size(TK2_CC_POLICY_AUTH_VALUE, 0);
	tk_cmd_init(&w, out, size);
	tk_der_put_hdr(&w, CTX(1), tk_der_size(p));
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, p);
	put_policy(&w, CC_POLICY_AUTHORIZE, body, n);
	if (pin)
		put_policy(&w, TK2_CC_POLICY_AUTH_VALUE, body, 0);
	if (w.bad)
		die("internal: policy too long");
	return w.len;
}

static unsigned int entries(const char *path, const struct tpmkey *k,
			    struct tp_entry *out, unsigned int max)
{
	const char *why;
	unsigned int n;

	if (tp_entries(&k->k, out, max, &n, &why))
		die("%s: %s", path, why);
	return n;
}

/* [3] EXPLICIT SEQUENCE OF TPMAuthPolicy from encoded entries. */
static u32 auth_field(const u8 *const *raw, const u32 *len, unsigned int n,
		      u8 *out, u32 size)
{
	const char *why;
	int ret = tp_auth_field(raw, len, n, out, size, &why);

	if (ret < 0)
		die("%s", why);
	return ret;
}

#define ENTRIES_MAX	TP_ENTRIES_MAX

/* ---- commands ------------------------------------------------------------- */

struct opts {
	const char *signer, *pcrs, *values, *name, *policy, *out;
	long index;
	struct policy_ref ref;		/* --policy-ref; empty without */
	bool counter;			/* --counter N given */
	unsigned long long count;
	u32 nv_index;			/* --counter-index, or 0 */
	bool nv_named;			/* --counter-name given */
	u8 nv_name[TK2_NV_NAME_SIZE];
};

/* ---- revocation ------------------------------------------------------------ */

/*
 * The Name of the counter docs/trusted-tpm2.md has the owner define at
 * @index (TK2_NV_COUNTER_ATTRS, written, SHA-256, empty authPolicy, 8
 * bytes): SHA-256 of its TPMS_NV_PUBLIC.
 */
static void counter_name(u32 index, u8 *name)
{
	u8 area[14];

	put_unaligned_be32(index, area);
	put_unaligned_be16(TK2_ALG_SHA256, area + 4);
	put_unaligned_be32(TK2_NV_COUNTER_ATTRS | TK2_NV_WRITTEN, area + 6);
	put_unaligned_be16(0, area + 10);
	put_unaligned_be16(8, area + 12);
	put_unaligned_be16(TK2_ALG_SHA256, name);
	sha256(area, sizeof(area), "", 0, name + 2);
}

/* The counter of @o: its index and Name, when --counter-index is given. */
static void counter_of(const struct opts *o, u32 *index, u8 *name)
{
	*index = o->nv_index;
	if (o->nv_named)
		memcpy(name, o->nv_name, TK2_NV_NAME_SIZE);
	else
		counter_name(o->nv_index, name);
}

/* @pp->policy extended by PolicyNV(@index <= @count) of the counter @name. */
static u32 approve_counter(u8 *policy, u32 index, const u8 *name,
			   unsigned long long count, u8 *body, u32 size)
{
	int n = tk2_policy_nv_body(body, size, index, count);

	if (n < 0)
		die("internal: PolicyNV body");
	policy_extend(policy, TK2_CC_POLICY_NV, body, n, name);
	return n;
}

/* The full policyRef of a key with revocation: "TKRV" || NV || Name || ref. */
static void revoke_ref(struct policy_ref *out, u32 index, const u8 *name,
		       const struct policy_ref *user)
{
	int n = tk2_revoke_ref(out->p, sizeof(out->p), index, name, user->p,
			       user->len);

	if (n < 0)
		die("--policy-ref: at most %u bytes with revocation",
		    TK2_REVOKE_USER_MAX);
	out->len = n;
}

/*
 * sign: the signature of an approved policy over the key's policyRef
 * @full. For a revoke= key (--counter-index) the approved policy is built
 * here, PolicyPCR then PolicyNV of the counter, never taken as a digest:
 * an approval without the counter's check would never be revoked.
 */
static int cmd_sign(const struct opts *o, const struct policy_ref *full)
{
	u8 d[SHA256_LEN], sig[600], body[TK2_POLICY_NV_BODY_MAX];
	u8 name[TK2_NV_NAME_SIZE];
	struct pcr_policy pp;
	struct signer s;
	const u8 *rn;
	u32 n, index;

	if (!o->signer)
		die("sign: --signer KEY");
	if (o->nv_index) {
		if (o->policy)
			die("sign: a revoke= key's approval must check its counter: give --counter N, --pcrs and --pcr-values, not --policy");
		if (!o->counter)
			die("sign: --counter-index NV needs --counter N, the value this approval is for");
		pcr_policy(o->pcrs, o->values, &pp);
		counter_of(o, &index, name);
		approve_counter(pp.policy, index, name, o->count, body, sizeof(body));
		memcpy(d, pp.policy, sizeof(d));
	} else {
		if (tk2_revoke_ref_parse(full->p, full->len, &index, &rn))
			die("sign: --policy-ref names revocation counter 0x%08x: give --counter-index and --counter instead", index);
		if (o->counter || o->pcrs || o->values)
			die("sign: --counter, --pcrs and --pcr-values go with --counter-index");
		if (!o->policy ||
		    tp_hex_decode(o->policy, strlen(o->policy), d, sizeof(d)) != SHA256_LEN)
			die("sign: --signer KEY --policy HEX (32 bytes)");
	}
	signer_load(o->signer, true, &s);
	n = sign_policy(&s, d, full, sig, sizeof(sig));
	EVP_PKEY_free(s.key);
	if (o->out) {
		write_all(o->out, sig, n, false);
	} else {
		hex_print(stdout, sig, n);
		printf("\n");
	}
	return 0;
}

static int cmd_counter(const struct opts *o, int argc)
{
	u8 name[TK2_NV_NAME_SIZE];
	u32 index;

	if (argc || !o->nv_index)
		die("counter: --counter-index NV");
	counter_of(o, &index, name);
	printf("# as the owner (tpm2-tools; -P for an owner password):\n");
	printf("tpm2_nvdefine -C o -s 8 -a 'nt=counter|ownerwrite|ownerread|authread|no_da' 0x%08x\n",
	       index);
	printf("tpm2_nvincrement -C o 0x%08x\n", index);
	printf("# then: keyctl add trusted KEY \"new 32 policykey=... revoke=%08x\" @u\n",
	       index);
	printf("# revoke older approvals: tpm2_nvincrement -C o 0x%08x\n", index);
	printf("# read: tpm2_nvread -C 0x%08x 0x%08x | xxd -p\n", index, index);
	printf("name: ");
	hex_print(stdout, name, sizeof(name));
	printf("\n");
	return 0;
}

static int cmd_add(const struct opts *o, char **argv, int argc)
{
	static struct tpmkey k;
	static u8 out[BLOB_MAX], pol[2048], auth[BLOB_MAX], item[2048];
	struct tp_entry ents[ENTRIES_MAX];
	const u8 *raw[ENTRIES_MAX + 1];
	u32 len[ENTRIES_MAX + 1], pol_len, auth_len, n, i, cmds, body_len;
	u8 digest[SHA256_LEN], sig[600], body[1200];
	struct pcr_policy pp;
	struct tk_cmd_buf w;
	struct signer s;
	char kt[REF_TEXT_MAX], ot[REF_TEXT_MAX];
	const u8 *kref, *nv_name;
	const char *why;
	u32 sig_len, kref_len, nv_index = 0, nv_len = 0;
	u8 nv_mine[TK2_NV_NAME_SIZE], nv_body[TK2_POLICY_NV_BODY_MAX], cc_body[4];
	struct policy_ref ref;
	bool pin = false;
	int ret;

	if (argc != 2 || !o->signer)
		die("add: --signer KEY --pcrs BANK:LIST --pcr-values FILE [--name NAME] [--policy-ref HEX] [--counter N [--counter-index NV]] IN OUT");
	signer_load(o->signer, true, &s);
	pcr_policy(o->pcrs, o->values, &pp);
	key_read(argv[0], &k);
	ref = o->ref;
	/*
	 * The key's policy [1], when there, names the policyRef its authPolicy
	 * was made with: an approval for another one would never load it.
	 * With revocation it also names the counter.
	 */
	ret = tp_key_policy_ref(&k.k, &kref, &kref_len, &why);
	if (ret && ret != -ENOENT)
		die("%s: %s", argv[0], why);
	if (!ret && tk2_revoke_ref_parse(kref, kref_len, &nv_index, &nv_name)) {
		if (!o->counter)
			die("%s: the key has a revocation counter (0x%08x): give --counter N, the value this approval is for",
			    argv[0], nv_index);
		if (o->nv_index && o->nv_index != nv_index)
			die("%s: the key's revocation counter is 0x%08x, not 0x%08x",
			    argv[0], nv_index, o->nv_index);
		memcpy(nv_mine, nv_name, sizeof(nv_mine));
		revoke_ref(&ref, nv_index, nv_mine, &o->ref);
	} else if (o->counter) {
		if (!ret)
			die("%s: the key was sealed without revoke=: no counter to check", argv[0]);
		if (!o->nv_index)
			die("add: --counter needs --counter-index NV for a key without a policy field yet");
		counter_of(o, &nv_index, nv_mine);
		revoke_ref(&ref, nv_index, nv_mine, &o->ref);
	}
	if (!ret && (kref_len != ref.len ||
		     (kref_len && memcmp(kref, ref.p, kref_len)))) {
		die("%s: the key's policyRef is %s, not %s: give --policy-ref %s",
		    argv[0], ref_text(kt, kref, kref_len),
		    ref_text(ot, ref.p, ref.len),
		    kref_len ? kt : "(none: leave it out)");
	}
	authorize_digest(&s, &ref, digest);
	if (memcmp(key_auth_policy(argv[0], &k), digest, SHA256_LEN)) {
		/* sealed with a PIN: PolicyAuthorize, then PolicyAuthValue */
		policy_extend(digest, TK2_CC_POLICY_AUTH_VALUE, NULL, 0, NULL);
		pin = true;
	}
	if (memcmp(key_auth_policy(argv[0], &k), digest, SHA256_LEN))
		die("%s: the object's authPolicy is not PolicyAuthorize of this signer with policyRef %s (nor followed by PolicyAuthValue): another signer, sealed with another policyref= (--policy-ref) or revoke= (--counter-index, --counter-name)",
		    argv[0], ref_text(ot, ref.p, ref.len));
	pol_len = key_policy(&s, &ref, pin, pol, sizeof(pol));
	if (k.k.policy >= 0 && (k.k.e[k.k.policy].raw_len != pol_len ||
				memcmp(k.k.e[k.k.policy].raw, pol, pol_len)))
		die("%s: the policy field is not this signer's PolicyAuthorize", argv[0]);

	n = entries(argv[0], &k, ents, ENTRIES_MAX);
	for (i = 0; o->name && i < n; i++)
		if (ents[i].name_len == strlen(o->name) &&
		    !memcmp(ents[i].name, o->name, ents[i].name_len))
			die("%s: a signed policy named '%s' exists (remove it first)",
			    argv[0], o->name);
	if (n == ENTRIES_MAX)
		die("%s: %u signed policies already", argv[0], n);

	/*
	 * The new entry: PolicyPCR, with revocation PolicyNV(counter <= N),
	 * PolicyCommandCode(Unseal) (the approval opens the object for
	 * Unseal only, as a pcrs= seal does), then PolicyAuthorize signed
	 * over them.
	 */
	if (o->counter)
		nv_len = approve_counter(pp.policy, nv_index, nv_mine, o->count,
					 nv_body, sizeof(nv_body));
	put_unaligned_be32(TK2_CC_UNSEAL, cc_body);
	policy_extend(pp.policy, TK2_CC_POLICY_COMMAND_CODE, cc_body,
		      sizeof(cc_body), NULL);
	sig_len = sign_policy(&s, pp.policy, &ref, sig, sizeof(sig));
	body_len = authorize_body(&s, &ref, sig, sig_len, body,
				  sizeof(body));
	cmds = policy_size(TK2_CC_POLICY_PCR, pp.body_len) +
	       policy_size(TK2_CC_POLICY_COMMAND_CODE, sizeof(cc_body)) +
	       policy_size(CC_POLICY_AUTHORIZE, body_len);
	if (nv_len)
		cmds += policy_size(TK2_CC_POLICY_NV, nv_len);
	i = tk_der_size(tk_der_size(cmds));
	if (o->name)
		i += tk_der_size(tk_der_size(strlen(o->name)));
	tk_cmd_init(&w, item, sizeof(item));
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, i);
	if (o->name) {
		tk_der_put_hdr(&w, CTX(0), tk_der_size(strlen(o->name)));
		tk_der_put(&w, TK_DER_UTF8STRING, o->name, strlen(o->name));
	}
	tk_der_put_hdr(&w, CTX(1), tk_der_size(cmds));
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, cmds);
	put_policy(&w, TK2_CC_POLICY_PCR, pp.body, pp.body_len);
	if (nv_len)
		put_policy(&w, TK2_CC_POLICY_NV, nv_body, nv_len);
	put_policy(&w, TK2_CC_POLICY_COMMAND_CODE, cc_body, sizeof(cc_body));
	put_policy(&w, CC_POLICY_AUTHORIZE, body, body_len);
	if (w.bad)
		die("internal: signed policy too long");

	/* first: the draft says to put the likeliest policy first */
	raw[0] = item;
	len[0] = w.len;
	for (i = 0; i < n; i++) {
		raw[i + 1] = ents[i].raw;
		len[i + 1] = ents[i].raw_len;
	}
	auth_len = auth_field(raw, len, n + 1, auth, sizeof(auth));
	n = key_write(&k, pol, pol_len, auth, auth_len, out, sizeof(out));
	write_all(argv[1], out, n, k.hex);
	EVP_PKEY_free(s.key);
	return 0;
}

/*
 * The listing goes to a memory stream first: a blob malformed halfway
 * prints nothing but the error.
 */
static int cmd_list(char **argv, int argc)
{
	static struct tpmkey k;
	const char *why;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (argc != 1)
		die("list: IN");
	key_read(argv[0], &k);
	f = open_memstream(&text, &len);
	if (!f)
		die("out of memory");
	if (tp_list(&k.k, f, sha256_1, &why)) {
		fclose(f);
		free(text);
		die("%s: %s", argv[0], why);
	}
	if (fclose(f))
		die("out of memory");
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
}

static int cmd_remove(const struct opts *o, char **argv, int argc)
{
	static struct tpmkey k;
	static u8 out[BLOB_MAX], auth[BLOB_MAX];
	struct tp_entry ents[ENTRIES_MAX];
	const u8 *raw[ENTRIES_MAX];
	u32 len[ENTRIES_MAX], n, i, m = 0, auth_len, out_len;
	long hit = -1;

	if (argc != 2 || (!o->name && o->index < 0) || (o->name && o->index >= 0))
		die("remove: (--name NAME | --index N) IN OUT");
	key_read(argv[0], &k);
	n = entries(argv[0], &k, ents, ENTRIES_MAX);
	for (i = 0; i < n; i++) {
		bool match = o->name ? ents[i].name_len == strlen(o->name) &&
				       !memcmp(ents[i].name, o->name, ents[i].name_len) :
				       (long)i == o->index;
		if (match && hit < 0) {
			hit = i;
			continue;
		}
		raw[m] = ents[i].raw;
		len[m++] = ents[i].raw_len;
	}
	if (hit < 0)
		die("%s: no such signed policy", argv[0]);
	auth_len = m ? auth_field(raw, len, m, auth, sizeof(auth)) : 0;
	out_len = key_write(&k, k.k.policy >= 0 ? k.k.e[k.k.policy].raw : NULL,
			    k.k.policy >= 0 ? k.k.e[k.k.policy].raw_len : 0,
			    m ? auth : NULL, auth_len, out, sizeof(out));
	write_all(argv[1], out, out_len, k.hex);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "signer", required_argument, NULL, 's' },
		{ "pcrs", required_argument, NULL, 'p' },
		{ "pcr-values", required_argument, NULL, 'v' },
		{ "name", required_argument, NULL, 'n' },
		{ "index", required_argument, NULL, 'i' },
		{ "policy", required_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "policy-ref", required_argument, NULL, 'R' },
		{ "counter", required_argument, NULL, 'C' },
		{ "counter-index", required_argument, NULL, 'I' },
		{ "counter-name", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .index = -1 };
	struct policy_ref full;
	const char *cmd;
	struct signer s;
	u8 d[SHA256_LEN];
	char *end;
	long got;
	int c;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cmd = argv[1];
	argv++;
	argc--;
	while ((c = getopt_long(argc, argv, "s:p:v:n:i:P:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': o.signer = optarg; break;
		case 'p': o.pcrs = optarg; break;
		case 'v': o.values = optarg; break;
		case 'n': o.name = optarg; break;
		case 'i': o.index = strtol(optarg, NULL, 10); break;
		case 'P': o.policy = optarg; break;
		case 'o': o.out = optarg; break;
		case 'R':
			got = tp_hex_decode(optarg, strlen(optarg), o.ref.p,
					    sizeof(o.ref.p));
			if (got < 1)
				die("--policy-ref %s: not 1 to %u bytes in hex",
				    optarg, TP_REF_MAX);
			o.ref.len = got;
			break;
		case 'C':
			o.count = strtoull(optarg, &end, 0);
			if (!*optarg || *end || *optarg == '-')
				die("--counter %s: not a number", optarg);
			o.counter = true;
			break;
		case 'I':
			o.nv_index = strtoul(optarg, &end, 16);
			if (!*optarg || *end || o.nv_index >> 24 != TK2_HT_NV_INDEX)
				die("--counter-index %s: not an NV index (0x01xxxxxx)", optarg);
			break;
		case 'N':
			if (tp_hex_decode(optarg, strlen(optarg), o.nv_name,
					  sizeof(o.nv_name)) != TK2_NV_NAME_SIZE ||
			    get_unaligned_be16(o.nv_name) != TK2_ALG_SHA256)
				die("--counter-name %s: not a SHA-256 Name (000b and 32 bytes, hex)", optarg);
			o.nv_named = true;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	argv += optind;
	argc -= optind;
	if (o.ref.len && strcmp(cmd, "authorize") && strcmp(cmd, "sign") &&
	    strcmp(cmd, "add"))
		die("%s: --policy-ref is for authorize, sign and add", cmd);

	if ((o.counter || o.nv_index) && strcmp(cmd, "add") &&
	    strcmp(cmd, "pcr-digest") && strcmp(cmd, "sign") &&
	    strcmp(cmd, "counter") && strcmp(cmd, "authorize"))
		die("%s: --counter and --counter-index are for add, pcr-digest, sign, authorize and counter", cmd);
	full = o.ref;
	if (o.nv_index && (!strcmp(cmd, "authorize") || !strcmp(cmd, "sign"))) {
		u8 name[TK2_NV_NAME_SIZE];
		u32 index;

		counter_of(&o, &index, name);
		revoke_ref(&full, index, name, &o.ref);
	}
	if (!strcmp(cmd, "authorize") || !strcmp(cmd, "signer-name") ||
	    !strcmp(cmd, "signer-public")) {
		if (!o.signer || argc)
			die("%s: --signer KEY", cmd);
		signer_load(o.signer, false, &s);
		if (!strcmp(cmd, "authorize")) {
			authorize_digest(&s, &full, d);
			hex_print(stdout, d, sizeof(d));
		} else if (!strcmp(cmd, "signer-name")) {
			hex_print(stdout, s.name, sizeof(s.name));
		} else {
			u8 b[sizeof(s.pub) + 2];

			if (!o.out)
				die("signer-public: -o FILE");
			put_unaligned_be16(s.pub_len, b);
			memcpy(b + 2, s.pub, s.pub_len);
			write_all(o.out, b, s.pub_len + 2, false);
			EVP_PKEY_free(s.key);
			return 0;
		}
		printf("\n");
		EVP_PKEY_free(s.key);
		return 0;
	}
	if (!strcmp(cmd, "counter"))
		return cmd_counter(&o, argc);
	if (!strcmp(cmd, "pcr-digest")) {
		struct pcr_policy pp;
		u8 body[TK2_POLICY_NV_BODY_MAX], name[TK2_NV_NAME_SIZE];
		u32 index;

		pcr_policy(o.pcrs, o.values, &pp);
		if (o.counter != !!o.nv_index)
			die("pcr-digest: --counter N and --counter-index NV go together");
		if (o.counter) {
			counter_of(&o, &index, name);
			approve_counter(pp.policy, index, name, o.count, body,
					sizeof(body));
		}
		hex_print(stdout, pp.policy, sizeof(pp.policy));
		printf("\n");
		return 0;
	}
	if (!strcmp(cmd, "sign"))
		return cmd_sign(&o, &full);
	if (!strcmp(cmd, "add"))
		return cmd_add(&o, argv, argc);
	if (!strcmp(cmd, "list"))
		return cmd_list(argv, argc);
	if (!strcmp(cmd, "remove"))
		return cmd_remove(&o, argv, argc);
	usage(stderr);
	return 2;
}
