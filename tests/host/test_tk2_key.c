// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_key.c: the TPMKey DER form of TPM 2.0 trusted
 * key blobs ("TSS2 PRIVATE KEY", OID 2.23.133.10.1.5) and the raw form.
 * Real blobs of the in-tree module must parse; every malformed variant
 * must be refused with a reason, from an exact-size heap copy (ASan).
 */
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk2_key.h"

static int parse_copy(const u8 *blob, u32 len, struct tk2_key *k)
{
	u8 *c = tk_dup(blob, len);
	int ret = tk2_key_parse(c, len, k);

	/* Spans must lie inside the blob; make them point into the original. */
	if (!ret) {
		if (k->pub < c || k->pub + k->pub_len > c + len ||
		    k->priv < c || k->priv + k->priv_len > c + len)
			ret = -1000;
		k->pub = blob + (k->pub - c);
		k->priv = blob + (k->priv - c);
		k->info.policy = k->info.policy ? blob + (k->info.policy - c) : NULL;
		for (unsigned int i = 0; i < k->npolicy; i++)
			k->policy[i].body = blob + (k->policy[i].body - c);
	}
	free(c);
	return ret;
}

static void test_intree_default(void)
{
	struct tk2_key k;
	u32 len;
	u8 *b = tk_unhex(intree_default_hex, &len);

	CHECK_EQ(parse_copy(b, len, &k), 0);
	CHECK(!k.raw);
	CHECK(k.empty_auth);		/* BOOLEAN TRUE as the kernel writes it: 0x01 */
	CHECK_EQ(k.parent, 0x81000001);
	CHECK_EQ(k.pub_len, 2 + 0x2e);
	CHECK_EQ(k.priv_len, 2 + 0x9e);
	CHECK_EQ(k.info.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(k.info.attrs, TK2_OA_USERWITHAUTH);
	CHECK_EQ(k.info.policy_len, 0);
	CHECK_EQ(k.npolicy, 0);
	free(b);
}

static void test_intree_blobauth_sha1_fixed(void)
{
	struct tk2_key k;
	u32 len;
	u8 *b = tk_unhex(intree_blobauth_hex, &len);

	CHECK_EQ(parse_copy(b, len, &k), 0);
	CHECK(!k.empty_auth);		/* a blobauth: no emptyAuth field */
	CHECK_EQ(k.info.name_alg, TK2_ALG_SHA1);
	CHECK_EQ(k.info.attrs, TK2_OA_USERWITHAUTH | TK2_OA_FIXEDTPM |
		 TK2_OA_FIXEDPARENT);
	free(b);
}

static void test_intree_policydigest(void)
{
	static const u8 auth_value_policy[32] = {
		0x8f, 0xcd, 0x21, 0x69, 0xab, 0x92, 0x69, 0x4e, 0x0c, 0x63, 0x3f,
		0x1a, 0xb7, 0x72, 0x84, 0x2b, 0x82, 0x41, 0xbb, 0xc2, 0x02, 0x88,
		0x98, 0x1f, 0xc7, 0xac, 0x1e, 0xdd, 0xc1, 0xfd, 0xdb, 0x0e,
	};
	struct tk2_key k;
	u32 len;
	u8 *b = tk_unhex(intree_policy_hex, &len);

	CHECK_EQ(parse_copy(b, len, &k), 0);
	CHECK_EQ(k.info.attrs, 0);	/* no userWithAuth */
	CHECK_EQ(k.info.policy_len, 32);
	CHECK_MEM(k.info.policy, auth_value_policy, 32);
	CHECK_EQ(k.npolicy, 0);		/* the in-tree module records none */
	free(b);
}

static void test_ours_pcrs(void)
{
	struct tk2_key k;
	u32 len;
	u8 *b = tk_unhex(ours_pcrs_hex, &len);

	CHECK_EQ(parse_copy(b, len, &k), 0);
	CHECK_EQ(k.npolicy, 1);
	CHECK_EQ(k.policy[0].code, TK2_CC_POLICY_PCR);
	CHECK_EQ(k.policy[0].len, 2 + 32 + 10);
	CHECK_EQ(k.info.policy_len, 32);
	free(b);
}

/* Parse, then encode again: the same bytes (DER is canonical). */
static void test_roundtrip(void)
{
	const char *hex[] = { intree_blobauth_hex, intree_policy_hex,
			      ours_pcrs_hex, intree_default_hex };
	struct tk2_key k;
	unsigned int i;
	u8 out[600];
	u32 len;
	int n;

	for (i = 0; i < ARRAY_SIZE(hex); i++) {
		u8 *b = tk_unhex(hex[i], &len);

		CHECK_EQ(parse_copy(b, len, &k), 0);
		n = tk2_key_encode(out, sizeof(out), &k);
		CHECK_EQ(n, len);
		/* ours writes DER's TRUE, 0xff, where the kernel wrote 0x01 */
		for (u32 j = 0; n == (int)len && j + 5 <= len; j++) {
			if (!memcmp(b + j, "\xa0\x03\x01\x01\x01", 5)) {
				CHECK_EQ(out[j + 4], 0xff);
				out[j + 4] = 0x01;
				break;
			}
		}
		if (n == (int)len)
			CHECK_MEM(out, b, len);
		free(b);
	}
}

static void test_encode_e2big(void)
{
	struct tk2_key k;
	u32 len, size;
	u8 *b = tk_unhex(ours_pcrs_hex, &len), *out;
	int bad = 0;

	CHECK_EQ(parse_copy(b, len, &k), 0);
	for (size = 0; size < len; size++) {
		out = malloc(size ? size : 1);
		if (tk2_key_encode(out, size, &k) != -E2BIG)
			bad++;
		free(out);
	}
	CHECK_EQ(bad, 0);
	free(b);
}

/* TPM2B_PRIVATE || TPM2B_PUBLIC, as kernels before 5.13 wrote it. */
static void test_raw_form(void)
{
	struct tk2_key der, k;
	u8 raw[400], *b;
	u32 len, n;

	b = tk_unhex(intree_default_hex, &len);
	CHECK_EQ(parse_copy(b, len, &der), 0);
	memcpy(raw, der.priv, der.priv_len);
	memcpy(raw + der.priv_len, der.pub, der.pub_len);
	n = der.priv_len + der.pub_len;

	CHECK_EQ(parse_copy(raw, n, &k), 0);
	CHECK(k.raw);
	CHECK_EQ(k.parent, 0);
	CHECK_EQ(k.priv_len, der.priv_len);
	CHECK_EQ(k.pub_len, der.pub_len);
	CHECK_MEM(k.priv, der.priv, der.priv_len);
	CHECK_EQ(k.info.name_alg, TK2_ALG_SHA256);

	CHECK_EQ(parse_copy(raw, n + 1, &k), -EINVAL);	/* a trailing byte */
	CHECK_EQ(parse_copy(raw, n - 1, &k), -EINVAL);
	raw[1] += 1;				/* private size past its data */
	CHECK_EQ(parse_copy(raw, n, &k), -EINVAL);
	raw[0] = 0xff;
	CHECK_EQ(parse_copy(raw, n, &k), -EINVAL);
	CHECK_EQ(parse_copy(raw, 0, &k), -EINVAL);
	CHECK_EQ(parse_copy(raw, 3, &k), -EINVAL);
	free(b);
}

/* Every proper prefix of a valid blob is refused. */
static void test_truncated(void)
{
	const char *hex[] = { intree_default_hex, intree_blobauth_hex,
			      intree_policy_hex, ours_pcrs_hex };
	struct tk2_key k;
	unsigned int i, bad = 0;
	u32 len, n;

	for (i = 0; i < ARRAY_SIZE(hex); i++) {
		u8 *b = tk_unhex(hex[i], &len);

		for (n = 0; n < len; n++)
			if (parse_copy(b, n, &k) != -EINVAL)
				bad++;
		free(b);
	}
	CHECK_EQ(bad, 0);
}

/* Any one byte changed: refused, or a blob whose parts are still inside. */
static void test_every_byte_changed(void)
{
	const char *hex[] = { intree_default_hex, ours_pcrs_hex };
	static const u8 xors[] = { 0x01, 0x80, 0xff, 0x7f };
	struct tk2_key k;
	unsigned int i, j, bad = 0, refused = 0;
	u32 len, n;
	int ret;

	for (i = 0; i < ARRAY_SIZE(hex); i++) {
		u8 *b = tk_unhex(hex[i], &len);

		for (n = 0; n < len; n++) {
			for (j = 0; j < ARRAY_SIZE(xors); j++) {
				b[n] ^= xors[j];
				ret = parse_copy(b, len, &k);
				if (ret == -1000 || (ret && ret != -EINVAL) ||
				    (ret && !k.why))
					bad++;
				refused += !!ret;
				b[n] ^= xors[j];
			}
		}
		free(b);
	}
	CHECK_EQ(bad, 0);
	CHECK(refused > 0);
}

/* ---- hand-built variants ---- */

struct der {
	u8 b[4096];
	u32 n;
};

static void raw_bytes(struct der *d, const void *p, u32 n)
{
	if (n)
		memcpy(d->b + d->n, p, n);
	d->n += n;
}

static void tlv(struct der *d, u8 tag, const void *p, u32 n)
{
	u8 h[4] = { tag };
	u32 hn;

	if (n < 0x80) {
		h[1] = n;
		hn = 2;
	} else if (n < 0x100) {
		h[1] = 0x81;
		h[2] = n;
		hn = 3;
	} else {
		h[1] = 0x82;
		h[2] = n >> 8;
		h[3] = n;
		hn = 4;
	}
	raw_bytes(d, h, hn);
	raw_bytes(d, p, n);
}

static void wrap(struct der *d, u8 tag, const struct der *inner)
{
	tlv(d, tag, inner->b, inner->n);
}

static const u8 oid_sealed[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x05 };
static const u8 parent_srk[] = { 0x00, 0x81, 0x00, 0x00, 0x01 };

struct parts {
	const u8 *pub, *priv, *policy_pub, *policy_priv;
	u32 pub_len, priv_len, policy_pub_len, policy_priv_len;
	const u8 *pcr_body;
	u32 pcr_body_len;
};

static struct parts parts;

static void load_parts(void)
{
	static struct tk2_key a, b;
	static u8 *ba, *bb;
	u32 len;

	ba = tk_unhex(intree_default_hex, &len);
	tk2_key_parse(ba, len, &a);
	bb = tk_unhex(ours_pcrs_hex, &len);
	tk2_key_parse(bb, len, &b);
	parts.pub = a.pub;
	parts.pub_len = a.pub_len;
	parts.priv = a.priv;
	parts.priv_len = a.priv_len;
	parts.policy_pub = b.pub;
	parts.policy_pub_len = b.pub_len;
	parts.policy_priv = b.priv;
	parts.policy_priv_len = b.priv_len;
	parts.pcr_body = b.policy[0].body;
	parts.pcr_body_len = b.policy[0].len;
}

/* A TPMKey from its fields, each given as already encoded bytes. */
static void tpmkey(struct der *out, const struct der *fields)
{
	out->n = 0;
	wrap(out, 0x30, fields);
}

static void base_fields(struct der *f, const u8 *parent, u32 parent_len)
{
	f->n = 0;
	tlv(f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(f, 0x02, parent, parent_len);
	tlv(f, 0x04, parts.pub, parts.pub_len);
	tlv(f, 0x04, parts.priv, parts.priv_len);
}

static int parse_der(const struct der *d, struct tk2_key *k)
{
	return parse_copy(d->b, d->n, k);
}

static void expect_refused(const struct der *d, const char *what)
{
	struct tk2_key k;
	char msg[160];
	int ret = parse_der(d, &k);

	snprintf(msg, sizeof(msg), "%s: refused (got %d, why \"%s\")", what,
		 ret, ret ? (k.why ? k.why : "(none)") : "-");
	tk_check(ret == -EINVAL && k.why, __FILE__, __LINE__, msg);
}

static void expect_parsed(const struct der *d, const char *what)
{
	struct tk2_key k;
	char msg[160];
	int ret = parse_der(d, &k);

	snprintf(msg, sizeof(msg), "%s: parsed (got %d, why \"%s\")", what, ret,
		 ret && k.why ? k.why : "-");
	tk_check(ret == 0, __FILE__, __LINE__, msg);
}

static void test_minimal_blob(void)
{
	struct der f, d;
	struct tk2_key k;

	base_fields(&f, parent_srk, sizeof(parent_srk));
	tpmkey(&d, &f);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK(!k.empty_auth);
	CHECK_EQ(k.parent, 0x81000001);
}

static void test_bad_framing(void)
{
	struct der f, d;

	base_fields(&f, parent_srk, sizeof(parent_srk));
	tpmkey(&d, &f);
	d.b[d.n++] = 0;
	expect_refused(&d, "a byte after the SEQUENCE");

	tpmkey(&d, &f);
	memmove(d.b + 4, d.b + 3, d.n - 3);	/* 30 81 e9 -> 30 82 00 e9 */
	d.b[1] = 0x82;
	d.b[2] = 0x00;
	d.n++;
	expect_refused(&d, "a length in a longer form than needed");

	tpmkey(&d, &f);
	d.b[1] = 0x80;
	expect_refused(&d, "indefinite length");

	tpmkey(&d, &f);
	d.b[1] = 0x84;
	expect_refused(&d, "a four-byte length");

	tlv(&f, 0x04, "x", 1);
	tpmkey(&d, &f);
	expect_refused(&d, "an element after privkey");

	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, parts.pub, parts.pub_len);
	tpmkey(&d, &f);
	expect_refused(&d, "no privkey");

	d.n = 0;
	tlv(&d, 0x31, f.b, f.n);
	expect_refused(&d, "a SET, not a SEQUENCE");

	d.n = 0;
	expect_refused(&d, "empty");
}

static void test_bad_oid(void)
{
	static const u8 loadable[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x03 };
	static const u8 longer[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x05, 0x01 };
	struct der f, d;

	f.n = 0;
	tlv(&f, 0x06, loadable, sizeof(loadable));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, parts.pub, parts.pub_len);
	tlv(&f, 0x04, parts.priv, parts.priv_len);
	tpmkey(&d, &f);
	expect_parsed(&d, "loadable key OID on a sealed data object");

	memcpy(f.b + 2, longer, 6);		/* same length, then: */
	f.n = 0;
	tlv(&f, 0x06, longer, sizeof(longer));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, parts.pub, parts.pub_len);
	tlv(&f, 0x04, parts.priv, parts.priv_len);
	tpmkey(&d, &f);
	expect_refused(&d, "OID with an extra arc");

	f.n = 0;
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, parts.pub, parts.pub_len);
	tlv(&f, 0x04, parts.priv, parts.priv_len);
	tpmkey(&d, &f);
	expect_refused(&d, "no OID");
}

/* The object's attributes in a copy of a TPM2B_PUBLIC (after size, type, nameAlg). */
static void set_attrs(u8 *pub, u32 attrs)
{
	put_unaligned_be32(attrs, pub + 6);
}

static void test_tpm2tools(void)
{
	static const u8 oid_loadable[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x03 };
	static const struct {
		u32 attr;
		const char *what;
	} not_sealed[] = {
		{ TK2_OA_SIGN, "loadable with sign" },
		{ TK2_OA_DECRYPT, "loadable with decrypt" },
		{ TK2_OA_RESTRICTED, "loadable with restricted" },
		{ TK2_OA_SENSITIVE_ORIGIN, "loadable with sensitiveDataOrigin" },
	};
	struct tk2_key k, k2;
	struct der f, d;
	u8 pub[256], out[512];
	unsigned int i;
	u32 len;
	u8 *b;
	int n;

	b = tk_unhex(tpm2tools_sealed_hex, &len);
	CHECK_EQ(parse_copy(b, len, &k), 0);
	CHECK(k.loadable);
	CHECK(!k.raw);
	CHECK(!k.empty_auth);		/* tpm2-tools 5.4 writes it inverted */
	CHECK_EQ(k.parent, 0x81000001);
	CHECK_EQ(k.info.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(k.info.attrs, TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT |
		 TK2_OA_USERWITHAUTH);
	CHECK_EQ(k.npolicy, 0);
	/* written back, it is a sealed data TPMKey with the same parts */
	n = tk2_key_encode(out, sizeof(out), &k);
	CHECK(n > 0);
	CHECK_EQ(parse_copy(out, n, &k2), 0);
	CHECK(!k2.loadable);
	CHECK_EQ(k2.pub_len, k.pub_len);
	CHECK_EQ(k2.priv_len, k.priv_len);
	CHECK(!memcmp(k2.pub, k.pub, k.pub_len) &&
	      !memcmp(k2.priv, k.priv, k.priv_len));
	free(b);

	b = tk_unhex(tpm2tools_sealed_auth_hex, &len);
	CHECK_EQ(parse_copy(b, len, &k), 0);
	CHECK(k.loadable);
	CHECK(k.empty_auth);
	free(b);

	b = tk_unhex(tpm2tools_hmac_hex, &len);
	CHECK_EQ(parse_copy(b, len, &k), -EINVAL);
	CHECK(k.why && strstr(k.why, "sealed data"));
	free(b);

	/* a sealed data object under the loadable OID, then one bit more */
	CHECK(parts.pub_len <= sizeof(pub));
	memcpy(pub, parts.pub, parts.pub_len);
	for (i = 0; i <= ARRAY_SIZE(not_sealed); i++) {
		u32 attrs = TK2_OA_USERWITHAUTH;

		if (i < ARRAY_SIZE(not_sealed))
			attrs |= not_sealed[i].attr;
		set_attrs(pub, attrs);
		f.n = 0;
		tlv(&f, 0x06, oid_loadable, sizeof(oid_loadable));
		tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
		tlv(&f, 0x04, pub, parts.pub_len);
		tlv(&f, 0x04, parts.priv, parts.priv_len);
		tpmkey(&d, &f);
		if (i == ARRAY_SIZE(not_sealed)) {
			expect_parsed(&d, "loadable, userWithAuth only");
			continue;
		}
		expect_refused(&d, not_sealed[i].what);
		CHECK_EQ(parse_der(&d, &k), -EINVAL);
		CHECK(k.why && !strcmp(k.why,
				       "loadable key is not a sealed data object"));
	}
}

static void test_parent(void)
{
	static const struct {
		u8 v[8];
		u32 n;
		int ok;
		const char *what;
	} cases[] = {
		{ { 0x00, 0x81, 0x00, 0x00, 0x01 }, 5, 1, "0x81000001" },
		{ { 0x40, 0x00, 0x00, 0x01 }, 4, 1, "0x40000001 (owner)" },
		{ { 0x40, 0x00, 0x00, 0x0b }, 4, 1, "0x4000000b (endorsement)" },
		{ { 0x00, 0x80, 0x00, 0x00, 0x00 }, 5, 1, "0x80000000 (transient)" },
		{ { 0x40, 0x00, 0x00, 0x09 }, 4, 0, "0x40000009 (a session)" },
		{ { 0x01, 0x00, 0x00, 0x00 }, 4, 0, "MSO 0x01" },
		{ { 0x00 }, 1, 0, "0" },
		{ { 0x81, 0x00, 0x00, 0x01 }, 4, 0, "negative" },
		{ { 0x00, 0x00, 0x81, 0x00, 0x00, 0x01 }, 6, 0, "redundant zero" },
		{ { 0x00, 0x40, 0x00, 0x00, 0x01 }, 5, 0, "zero before 0x40" },
		/* in-tree kept the low 32 bits of 0x0181000001: refuse */
		{ { 0x01, 0x81, 0x00, 0x00, 0x01 }, 5, 0, "33 bits" },
		{ { 0x00, 0x01, 0x81, 0x00, 0x00, 0x01 }, 6, 0, "over-long parent" },
		{ { 0 }, 0, 0, "empty INTEGER" },
	};
	struct der f, d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		base_fields(&f, cases[i].v, cases[i].n);
		tpmkey(&d, &f);
		if (cases[i].ok)
			expect_parsed(&d, cases[i].what);
		else
			expect_refused(&d, cases[i].what);
	}
}

/* The DER lengths must agree exactly with the TPM2B sizes inside. */
static void test_size_agreement(void)
{
	u8 pub[200], priv[300];
	struct der f, d;

	memcpy(pub, parts.pub, parts.pub_len);
	memcpy(priv, parts.priv, parts.priv_len);

	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	pub[parts.pub_len] = 0;
	tlv(&f, 0x04, pub, parts.pub_len + 1);
	tlv(&f, 0x04, priv, parts.priv_len);
	tpmkey(&d, &f);
	expect_refused(&d, "public OCTET STRING one byte longer than its TPM2B");

	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, pub, parts.pub_len - 1);
	tlv(&f, 0x04, priv, parts.priv_len);
	tpmkey(&d, &f);
	expect_refused(&d, "public OCTET STRING one byte short");

	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, pub, parts.pub_len);
	priv[parts.priv_len] = 0;
	tlv(&f, 0x04, priv, parts.priv_len + 1);
	tpmkey(&d, &f);
	expect_refused(&d, "private OCTET STRING one byte longer than its TPM2B");

	/* The TPM2B_PUBLIC's own fields must fill it: a longer unique. */
	pub[1] += 1;
	pub[parts.pub_len - 1 - 32] += 1;
	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, pub, parts.pub_len + 1);
	tlv(&f, 0x04, priv, parts.priv_len);
	tpmkey(&d, &f);
	expect_refused(&d, "unique longer than the name algorithm's digest");
}

/*
 * Regression: the in-tree TPM 2.0 loader reads past its heap buffer when
 * the public or private part is shorter than a TPMT_PUBLIC header.
 */
static void test_intree_overread_short_parts(void)
{
	static const u8 tiny[][4] = { { 0x00, 0x00 }, { 0x00, 0x02, 0x00, 0x08 } };
	static const u32 tiny_len[] = { 2, 4 };
	struct der f, d;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		f.n = 0;
		tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
		tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
		tlv(&f, 0x04, tiny[i], tiny_len[i]);
		tlv(&f, 0x04, parts.priv, parts.priv_len);
		tpmkey(&d, &f);
		expect_refused(&d, "public shorter than a TPMT_PUBLIC header");

		f.n = 0;
		tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
		tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
		tlv(&f, 0x04, parts.pub, parts.pub_len);
		tlv(&f, 0x04, tiny[i], tiny_len[i]);
		tpmkey(&d, &f);
		expect_refused(&d, "private shorter than its integrity HMAC");
	}
	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, "", 0);
	tlv(&f, 0x04, "", 0);
	tpmkey(&d, &f);
	expect_refused(&d, "empty public and private");
}

static void bool_field(struct der *f, u8 tag, const u8 *v, u32 n)
{
	struct der b = { .n = 0 };

	tlv(&b, 0x01, v, n);
	wrap(f, tag, &b);
}

static void with_optional(struct der *d, const struct der *opt)
{
	struct der f;

	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	raw_bytes(&f, opt->b, opt->n);
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	tlv(&f, 0x04, parts.pub, parts.pub_len);
	tlv(&f, 0x04, parts.priv, parts.priv_len);
	tpmkey(d, &f);
}

static void test_optional_fields(void)
{
	struct der o, d, inner;
	struct tk2_key k;

	o.n = 0;
	bool_field(&o, 0xa0, (const u8 *)"\xff", 1);
	with_optional(&d, &o);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK(k.empty_auth);

	o.n = 0;
	bool_field(&o, 0xa0, (const u8 *)"\x00", 1);
	with_optional(&d, &o);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK(!k.empty_auth);

	o.n = 0;
	bool_field(&o, 0xa0, (const u8 *)"\x02", 1);
	with_optional(&d, &o);
	expect_refused(&d, "emptyAuth BOOLEAN 0x02");

	o.n = 0;
	bool_field(&o, 0xa0, (const u8 *)"\xff\xff", 2);
	with_optional(&d, &o);
	expect_refused(&d, "emptyAuth BOOLEAN of two bytes");

	o.n = 0;
	inner.n = 0;
	tlv(&inner, 0x02, "\x01", 1);
	wrap(&o, 0xa0, &inner);
	with_optional(&d, &o);
	expect_refused(&d, "emptyAuth as an INTEGER");

	o.n = 0;
	tlv(&o, 0xa0, "", 0);
	with_optional(&d, &o);
	expect_refused(&d, "empty [0]");

	o.n = 0;
	inner.n = 0;
	tlv(&inner, 0x04, "secret", 6);
	wrap(&o, 0xa2, &inner);
	with_optional(&d, &o);
	expect_refused(&d, "import secret [2]");

	o.n = 0;
	inner.n = 0;
	tlv(&inner, 0x30, "", 0);
	wrap(&o, 0xa3, &inner);
	with_optional(&d, &o);
	expect_refused(&d, "authPolicy [3]");

	o.n = 0;
	inner.n = 0;
	tlv(&inner, 0x0c, "my key", 6);
	wrap(&o, 0xa4, &inner);
	with_optional(&d, &o);
	expect_parsed(&d, "description [4]");

	o.n = 0;
	bool_field(&o, 0xa5, (const u8 *)"\x00", 1);
	with_optional(&d, &o);
	expect_parsed(&d, "rsaParent FALSE");

	o.n = 0;
	bool_field(&o, 0xa5, (const u8 *)"\xff", 1);
	with_optional(&d, &o);
	expect_refused(&d, "rsaParent TRUE");

	o.n = 0;
	bool_field(&o, 0xa5, (const u8 *)"\xff", 1);
	bool_field(&o, 0xa0, (const u8 *)"\xff", 1);
	with_optional(&d, &o);
	expect_refused(&d, "optional fields out of order");

	o.n = 0;
	tlv(&o, 0xa6, "\x01\x01\x00", 3);
	with_optional(&d, &o);
	expect_refused(&d, "an unknown [6]");
}

/* A policy field of @n TPMPolicy entries, each (code, body). */
static void policy_field(struct der *o, unsigned int n, const u8 *code,
			 u32 code_len, const u8 *body, u32 body_len)
{
	struct der seq = { .n = 0 }, one, f, outer = { .n = 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		one.n = 0;
		f.n = 0;
		tlv(&f, 0x02, code, code_len);
		wrap(&one, 0xa0, &f);
		f.n = 0;
		tlv(&f, 0x04, body, body_len);
		wrap(&one, 0xa1, &f);
		wrap(&seq, 0x30, &one);
	}
	wrap(&outer, 0x30, &seq);
	wrap(o, 0xa1, &outer);
}

/* A policy field of @n different commands: codes[i] (2 octets), bodies[i]. */
static void policy_list(struct der *o, unsigned int n, const u8 *const *codes,
			const u8 *const *bodies, const u32 *lens)
{
	struct der seq = { .n = 0 }, one, f, outer = { .n = 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		one.n = 0;
		f.n = 0;
		tlv(&f, 0x02, codes[i], 2);
		wrap(&one, 0xa0, &f);
		f.n = 0;
		tlv(&f, 0x04, bodies[i], lens[i]);
		wrap(&one, 0xa1, &f);
		wrap(&seq, 0x30, &one);
	}
	wrap(&outer, 0x30, &seq);
	wrap(o, 0xa1, &outer);
}

static void policy_blob(struct der *d, const struct der *opt, bool with_policy)
{
	struct der f;

	f.n = 0;
	tlv(&f, 0x06, oid_sealed, sizeof(oid_sealed));
	raw_bytes(&f, opt->b, opt->n);
	tlv(&f, 0x02, parent_srk, sizeof(parent_srk));
	if (with_policy) {
		tlv(&f, 0x04, parts.policy_pub, parts.policy_pub_len);
		tlv(&f, 0x04, parts.policy_priv, parts.policy_priv_len);
	} else {
		tlv(&f, 0x04, parts.pub, parts.pub_len);
		tlv(&f, 0x04, parts.priv, parts.priv_len);
	}
	tpmkey(d, &f);
}

/* An ECDSA P-256 signer's TPM2B_PUBLIC, policyRef empty (trusted-policy). */
TK_FIXTURE signer_hex[] = "00560023000b00040040000000100010000300100020317e8f38fac1400347128db46400e7041cb199aeba6bd6df111d0c1c9dabcdec0020c17cea7fae94768579adfe80ac45bb6d9645293e3e0720b13b7f4255eeae75d2" "0000";
/* sigAlg NULL (the key's own policy [1]), and a signature (a signed one). */
TK_FIXTURE null_sig_hex[] = "0010";
TK_FIXTURE sig_hex[] = "00000018000b0020203c8bf24d3d236123d563f9fdf94a9f246d3bdce8ef2efbd88bc472bdefccdd00206983f29eef040ef358c995a8a629ee19c93dc7252c4d58ee95e61f021fc0fd6d";

/* One TPMPolicy into @seq. */
static void one_policy(struct der *seq, u16 cc, const u8 *body, u32 len)
{
	struct der one = { .n = 0 }, f = { .n = 0 };
	u8 c[2] = { cc >> 8, cc & 0xff };

	tlv(&f, 0x02, c, 2);
	wrap(&one, 0xa0, &f);
	f.n = 0;
	tlv(&f, 0x04, body, len);
	wrap(&one, 0xa1, &f);
	wrap(seq, 0x30, &one);
}

/* After [1]'s PolicyAuthorize: 1 a PolicyAuthValue, 2 one with a body. */
static int signed_pin;

/* [1] PolicyAuthorize (sigAlg NULL unless @sig); @nauth entries in [3]. */
static void signed_blob(struct der *d, bool policy, bool sig, unsigned int nauth,
			unsigned int ncmd)
{
	struct der o = { .n = 0 }, seq = { .n = 0 }, outer = { .n = 0 };
	struct der ent, cmds, f, all = { .n = 0 };
	u8 key[200], signed_body[300];
	u32 kl, sl, n;
	u8 *p;
	unsigned int i, c;

	p = tk_unhex(signer_hex, &kl);
	memcpy(key, p, kl);
	memcpy(signed_body, p, kl);
	free(p);
	p = tk_unhex(sig ? sig_hex : null_sig_hex, &n);
	memcpy(key + kl, p, n);
	free(p);
	p = tk_unhex(sig_hex, &sl);
	memcpy(signed_body + kl, p, sl);
	free(p);
	sl += kl;
	kl += n;
	if (policy) {
		one_policy(&seq, TK2_CC_POLICY_AUTHORIZE, key, kl);
		if (signed_pin)
			one_policy(&seq, TK2_CC_POLICY_AUTH_VALUE, key,
				   signed_pin - 1);
		wrap(&outer, 0x30, &seq);
		wrap(&o, 0xa1, &outer);
	}
	for (i = 0; i < nauth; i++) {
		ent.n = 0;
		cmds.n = 0;
		f.n = 0;
		tlv(&f, 0x0c, "boot", 4);
		wrap(&ent, 0xa0, &f);
		for (c = 0; c + 1 < ncmd; c++)
			one_policy(&cmds, TK2_CC_POLICY_PCR, parts.pcr_body,
				   parts.pcr_body_len);
		one_policy(&cmds, TK2_CC_POLICY_AUTHORIZE, signed_body, sl);
		f.n = 0;
		wrap(&f, 0x30, &cmds);
		wrap(&ent, 0xa1, &f);
		wrap(&all, 0x30, &ent);
	}
	if (nauth) {
		f.n = 0;
		wrap(&f, 0x30, &all);
		wrap(&o, 0xa3, &f);
	}
	policy_blob(d, &o, true);
}

static void test_signed_policies(void)
{
	struct der d;
	struct tk2_key k;

	signed_blob(&d, true, false, 0, 0);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK(k.signed_policy);
	CHECK_EQ(k.nauth, 0);

	signed_blob(&d, true, false, 2, 2);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK(k.signed_policy);
	CHECK(!k.auth_value);
	CHECK_EQ(k.nauth, 2);
	CHECK_EQ(k.auth[1].ncmd, 2);

	/* a PIN: PolicyAuthValue after the PolicyAuthorize */
	signed_pin = 1;
	signed_blob(&d, true, false, 2, 2);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK(k.signed_policy);
	CHECK(k.auth_value);
	CHECK_EQ(k.npolicy, 2);
	CHECK_EQ(k.nauth, 2);
	signed_pin = 2;
	signed_blob(&d, true, false, 2, 2);
	expect_refused(&d, "PolicyAuthValue with a body after PolicyAuthorize");
	signed_pin = 0;
	CHECK_EQ(k.auth[1].cmd[0].code, TK2_CC_POLICY_PCR);
	CHECK_EQ(k.auth[1].cmd[1].code, TK2_CC_POLICY_AUTHORIZE);
	CHECK_EQ(k.auth[0].name_len, 4);

	signed_blob(&d, true, false, TK2_KEY_AUTH_MAX, TK2_KEY_AUTH_CMDS);
	CHECK_EQ(parse_der(&d, &k), 0);
	signed_blob(&d, true, false, TK2_KEY_AUTH_MAX + 1, 2);
	expect_refused(&d, "more signed policies than load tries");
	signed_blob(&d, true, false, 1, TK2_KEY_AUTH_CMDS + 1);
	expect_refused(&d, "a signed policy of too many commands");
	signed_blob(&d, false, false, 1, 2);
	expect_refused(&d, "authPolicy [3] without policy [1]");
	signed_blob(&d, true, true, 0, 0);
	expect_refused(&d, "policy [1] PolicyAuthorize with a signature");
	signed_blob(&d, true, true, 1, 2);
	expect_refused(&d, "[3] beside a signed [1]");
}

static void test_policy(void)
{
	static const u8 cc_pcr[] = { 0x01, 0x7f };
	static const u8 cc_authvalue[] = { 0x01, 0x6b };
	u8 body[100];
	struct der o, d;
	struct tk2_key k;

	memcpy(body, parts.pcr_body, parts.pcr_body_len);

	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, true);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK_EQ(k.npolicy, 1);

	o.n = 0;
	policy_field(&o, 2, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, true);
	CHECK_EQ(parse_der(&d, &k), 0);
	CHECK_EQ(k.npolicy, 2);

	o.n = 0;
	policy_field(&o, TK2_KEY_POLICY_MAX + 1, cc_pcr, 2, body,
		     parts.pcr_body_len);
	policy_blob(&d, &o, true);
	expect_refused(&d, "more policy commands than we run");

	o.n = 0;
	policy_field(&o, 0, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, true);
	expect_refused(&d, "an empty policy");

	o.n = 0;
	policy_field(&o, 1, cc_authvalue, 2, NULL, 0);
	policy_blob(&d, &o, true);
	expect_refused(&d, "PolicyAuthValue alone (a PIN alone is userWithAuth)");

	/* a PIN with pcrs=: PolicyPCR(s), then one PolicyAuthValue */
	{
		const u8 *pa_codes[] = { cc_pcr, cc_authvalue };
		const u8 *av_first[] = { cc_authvalue, cc_pcr };
		const u8 *pcr_av_av[] = { cc_pcr, cc_authvalue, cc_authvalue };
		const u8 *pcr_pcr_av[] = { cc_pcr, cc_pcr, cc_authvalue };
		const u8 *bodies[] = { body, NULL, NULL };
		const u8 *bodies_r[] = { NULL, body };
		const u8 *bodies3[] = { body, body, NULL };
		u32 lens[] = { parts.pcr_body_len, 0, 0 };
		u32 lens_r[] = { 0, parts.pcr_body_len };
		u32 lens3[] = { parts.pcr_body_len, parts.pcr_body_len, 0 };
		u32 lens_b[] = { parts.pcr_body_len, 1 };

		o.n = 0;
		policy_list(&o, 2, pa_codes, bodies, lens);
		policy_blob(&d, &o, true);
		CHECK_EQ(parse_der(&d, &k), 0);
		CHECK_EQ(k.npolicy, 2);
		CHECK(k.auth_value);
		CHECK(!k.signed_policy);

		o.n = 0;
		policy_list(&o, 3, pcr_pcr_av, bodies3, lens3);
		policy_blob(&d, &o, true);
		CHECK_EQ(parse_der(&d, &k), 0);
		CHECK(k.auth_value);

		o.n = 0;
		policy_list(&o, 2, av_first, bodies_r, lens_r);
		policy_blob(&d, &o, true);
		expect_refused(&d, "PolicyAuthValue before the PolicyPCR");

		o.n = 0;
		policy_list(&o, 3, pcr_av_av, bodies, lens);
		policy_blob(&d, &o, true);
		expect_refused(&d, "PolicyAuthValue twice");

		o.n = 0;
		policy_list(&o, 2, pa_codes, bodies3, lens_b);
		policy_blob(&d, &o, true);
		expect_refused(&d, "PolicyAuthValue with a body");

		o.n = 0;
		policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len);
		policy_blob(&d, &o, true);
		CHECK_EQ(parse_der(&d, &k), 0);
		CHECK(!k.auth_value);
	}

	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, false);
	expect_refused(&d, "a policy for an object without authPolicy");

	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len - 1);
	policy_blob(&d, &o, true);
	expect_refused(&d, "PolicyPCR body one byte short");

	body[parts.pcr_body_len] = 0;
	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len + 1);
	policy_blob(&d, &o, true);
	expect_refused(&d, "PolicyPCR body with a trailing byte");

	body[1] = 20;			/* pcrDigest of SHA-1 size, object SHA-256 */
	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, 2 + 20 + 10);
	policy_blob(&d, &o, true);
	expect_refused(&d, "pcrDigest of the wrong size");
	memcpy(body, parts.pcr_body, parts.pcr_body_len);

	body[2 + 32 + 3] = 0;		/* count 0 selections */
	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, true);
	expect_refused(&d, "no PCR selection");
	memcpy(body, parts.pcr_body, parts.pcr_body_len);

	memset(body + 2 + 32 + 7, 0, 3);	/* a selection without a PCR */
	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, true);
	expect_refused(&d, "selection of no PCR");
	memcpy(body, parts.pcr_body, parts.pcr_body_len);

	body[2 + 32 + 5] = 0x99;	/* unknown bank */
	o.n = 0;
	policy_field(&o, 1, cc_pcr, 2, body, parts.pcr_body_len);
	policy_blob(&d, &o, true);
	expect_refused(&d, "selection of an unknown bank");
	memcpy(body, parts.pcr_body, parts.pcr_body_len);

	o.n = 0;
	policy_field(&o, 1, (const u8 *)"\x00\x00\x01\x7f", 4, body,
		     parts.pcr_body_len);
	policy_blob(&d, &o, true);
	expect_refused(&d, "command code INTEGER with redundant zeros");
}

int main(void)
{
	load_parts();
	RUN(test_intree_default);
	RUN(test_intree_blobauth_sha1_fixed);
	RUN(test_intree_policydigest);
	RUN(test_ours_pcrs);
	RUN(test_roundtrip);
	RUN(test_encode_e2big);
	RUN(test_raw_form);
	RUN(test_truncated);
	RUN(test_every_byte_changed);
	RUN(test_minimal_blob);
	RUN(test_bad_framing);
	RUN(test_bad_oid);
	RUN(test_tpm2tools);
	RUN(test_parent);
	RUN(test_size_agreement);
	RUN(test_intree_overread_short_parts);
	RUN(test_optional_fields);
	RUN(test_policy);
	RUN(test_signed_policies);
	return tk_test_done();
}
