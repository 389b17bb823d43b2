// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_signed.c: TPM2_LoadExternal, VerifySignature,
 * PolicyAuthorize and PolicyAuthValue byte for byte against TPM 2.0
 * Library Part 3 (12.3, 20.1, 23.16, 23.17), their response parsers on
 * well-formed, truncated, padded and wrong responses, and the TPMKey
 * CommandPolicy of PolicyAuthorize on bodies written by tools/trusted-policy
 * (signatures TPM2_VerifySignature accepted in tools/trusted-policy-test.sh),
 * with a policyRef too: its signature checked here with OpenSSL over
 * SHA-256(approvedPolicy || policyRef), its authPolicy recomputed.
 * Revocation (issue 27): PolicyNV's CommandPolicy, command and digest (the
 * digest tpm2_policynv -L gave on swtpm for the same counter), the
 * NV_ReadPublic response, the counter check and the policyRef form.
 */
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/sha.h>
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk2_signed.h"
#include "tk2_policy.h"

/* trusted-policy add: PolicyAuthorize of an ECDSA P-256 signer, signed */
TK_FIXTURE ec_body_hex[] =
	"00560023000b00040040000000100010000300100020317e8f38fac140034712"
	"8db46400e7041cb199aeba6bd6df111d0c1c9dabcdec0020c17cea7fae947685"
	"79adfe80ac45bb6d9645293e3e0720b13b7f4255eeae75d200000018000b0020"
	"203c8bf24d3d236123d563f9fdf94a9f246d3bdce8ef2efbd88bc472bdefccdd"
	"00206983f29eef040ef358c995a8a629ee19c93dc7252c4d58ee95e61f021fc0"
	"fd6d";

/* the same with an RSA-2048 signer */
TK_FIXTURE rsa_body_hex[] =
	"01160001000b0004004000000010001008000000000001009ec9aaa2afcfa86c"
	"6a6200d68ea60115d9a4dd76f44bfa473003b1290a1791b936b907d99580c59a"
	"2dd48fee06c981f1116d9d51f37941e53843924532f6bd7635797a27f36103db"
	"e39db1a00a435d62d8f9f2707b2d8887656485a270fbed8e9d849bf6163f10f4"
	"82cfd8c6dac4fd7884f76bfb0b17c6220f4f8a07f5a980f132ee061be92ce05b"
	"1f637b20313280937b3851a3f627472d94f03cae6f11a158683e0deb6879f1ba"
	"9baaabe35fe44d6129e05cb8c8eb711096582fae48040f8566de9a22d50c3345"
	"dba9b47831bbdd9aecf26aedce21a1d427b22de34099e3da8a50173ce0534092"
	"74a3e08d6f1c43474af5808713916febf32c62ba3996df1900000014000b0100"
	"089aa36622d70b6f24fda97f764ab9698d47287271dc4c61cb240a5b565ed9fc"
	"ab34d1a5e1f86e0dbf1bcbce6eab8ab0438d06637c4ffe91aa856cf69134bfb2"
	"124c5f1e9b2724e91a43df553cef10ff94c4ed5348848fdfd1b1569bfd476e39"
	"1e90e172032273bda3862c26cbfbc4773bb340b5ff88a641ca6f4bb4383369ff"
	"909af7a0ddcd95fbc4b5f3690d2aef047db3db8cf661a2c8648047e9a83b709a"
	"6115abd5dcb43e93b43c5c58fcf0e809f08ec86cad195eb77c7e41587eb51dcf"
	"58beaa6324e63c6a2c51a69273afa6ed0c47b48c61b7cdfcb5ad453ab43291dd"
	"fe96499c95b562f8b3c7499d3be49820c74ac9ca460b68f082fe7709a77acf3d";

/* the key's own PolicyAuthorize (RSA signer): sigAlg NULL */
TK_FIXTURE rsa_key_policy_hex[] =
	"01160001000b0004004000000010001008000000000001009ec9aaa2afcfa86c"
	"6a6200d68ea60115d9a4dd76f44bfa473003b1290a1791b936b907d99580c59a"
	"2dd48fee06c981f1116d9d51f37941e53843924532f6bd7635797a27f36103db"
	"e39db1a00a435d62d8f9f2707b2d8887656485a270fbed8e9d849bf6163f10f4"
	"82cfd8c6dac4fd7884f76bfb0b17c6220f4f8a07f5a980f132ee061be92ce05b"
	"1f637b20313280937b3851a3f627472d94f03cae6f11a158683e0deb6879f1ba"
	"9baaabe35fe44d6129e05cb8c8eb711096582fae48040f8566de9a22d50c3345"
	"dba9b47831bbdd9aecf26aedce21a1d427b22de34099e3da8a50173ce0534092"
	"74a3e08d6f1c43474af5808713916febf32c62ba3996df1900000010";

/*
 * trusted-policy add --policy-ref 6b6d6b2d61 ("kmk-a"): the signed
 * PolicyAuthorize of a policy for sha256:16 all zeros, ECDSA P-256 signer;
 * the approved policy (trusted-policy pcr-digest) and the authPolicy
 * (trusted-policy authorize --policy-ref) of that signer.
 */
TK_FIXTURE ref_body_hex[] =
	"00560023000b0004004000000010001000030010002033d9d6593b6460c7aac7"
	"47189180015a6c4f48cb1836cce1368926603b1b89f6002052f981cd42f72422"
	"290fad7b01cf43aed8b7b93066a6aa263c6bb50288eb6aa900056b6d6b2d6100"
	"18000b0020beca55f58ed8d590a1c1a59ea426b529c954b58637921b4b834bea"
	"1cbf90b8620020ebb910667e5a74399aada20e2722a12f18fbbf6288787608e6"
	"bc01c19201e8a6";
TK_FIXTURE ref_approved_hex[] =
	"bff2d58e9813f97cefc14f72ad8133bc7092d652b7c877959254af140c841f36";
TK_FIXTURE ref_auth_policy_hex[] =
	"15f2d4edc78654523530b55a3f5ca46ab1b1a8271620d0f310b4cf2196dc7ff1";

static u8 buf[4096];

static void check_hex(const u8 *p, u32 n, const char *hex)
{
	u32 len;
	u8 *want = tk_unhex(hex, &len);

	CHECK_EQ(n, len);
	if (n == len)
		CHECK_MEM(p, want, n);
	free(want);
}

static void test_load_external(void)
{
	static const u8 pub[] = { 0x00, 0x04, 0x00, 0x23, 0x00, 0x0b };
	struct tk_cmd_buf b;

	CHECK_EQ(tk2_cmd_load_external(&b, buf, sizeof(buf), pub, sizeof(pub),
				       TK2_RH_OWNER), 0);
	/* tag, size, cc; inPrivate empty; inPublic; hierarchy */
	check_hex(buf, b.len, "8001" "00000016" "00000167" "0000"
		  "0004" "0023" "000b" "40000001");
	CHECK_EQ(tk2_cmd_load_external(&b, buf, 20, pub, sizeof(pub),
				       TK2_RH_OWNER), -E2BIG);
}

static int rsp(const char *hex, int (*fn)(const u8 *, u32, void *), void *arg)
{
	u32 len;
	u8 *r = tk_unhex(hex, &len);
	int ret = fn(r, len, arg);

	free(r);
	return ret;
}

static u32 got_handle;
static struct tk_span got_span;

static int le(const u8 *r, u32 n, void *arg)
{
	(void)arg;
	return tk2_rsp_load_external(r, n, &got_handle, &got_span);
}

static u16 got_tag;
static long got_off;

static int vs(const u8 *r, u32 n, void *arg)
{
	int ret = tk2_rsp_verify_signature(r, n, &got_span);

	(void)arg;
	if (!ret) {		/* the span points into @r, freed after */
		got_tag = get_unaligned_be16(got_span.p);
		got_off = got_span.p - r;
	}
	return ret;
}

#define NAME "000b" "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

static void test_rsp_load_external(void)
{
	CHECK_EQ(rsp("8001" "00000032" "00000000" "80000001" "0022" NAME, le, NULL), 0);
	CHECK_EQ(got_handle, 0x80000001);
	CHECK_EQ(got_span.len, 34);
	CHECK_EQ(rsp("8001" "00000033" "00000000" "80000001" "0022" NAME "00", le, NULL),
		 -EBADMSG);			/* a byte left over */
	CHECK_EQ(rsp("8001" "00000031" "00000000" "80000001" "0022" NAME, le, NULL),
		 -EBADMSG);			/* the name runs past */
	CHECK_EQ(rsp("8001" "00000032" "00000000" "81000001" "0022" NAME, le, NULL),
		 -EBADMSG);			/* not a transient handle */
	CHECK_EQ(rsp("8001" "0000000a" "000001c4", le, NULL), 0x1c4);
}

static void test_verify_signature(void)
{
	static const u8 digest[32] = { 1, 2, 3 };
	static const u8 sig[] = { 0x00, 0x10 };
	struct tk_cmd_buf b;

	CHECK_EQ(tk2_cmd_verify_signature(&b, buf, sizeof(buf), 0x80000001,
					  digest, sizeof(digest), sig,
					  sizeof(sig)), 0);
	check_hex(buf, b.len, "8001" "00000032" "00000177" "80000001" "0020"
		  "0102030000000000000000000000000000000000000000000000000000000000"
		  "0010");

	/* TPMT_TK_VERIFIED: tag 0x8022, hierarchy, digest */
	CHECK_EQ(rsp("8001" "00000032" "00000000" "8022" "40000001" "0020"
		      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
		      vs, NULL), 0);
	CHECK_EQ(got_span.len, 2 + 4 + 2 + 32);
	CHECK_EQ(got_tag, TK2_ST_VERIFIED);
	CHECK_EQ(got_off, 10);
	CHECK_EQ(rsp("8001" "00000012" "00000000" "8022" "40000007" "0000", vs, NULL),
		 -EBADMSG);			/* a null ticket */
	CHECK_EQ(rsp("8001" "00000012" "00000000" "8021" "40000001" "0000", vs, NULL),
		 -EBADMSG);			/* another ticket tag */
	CHECK_EQ(rsp("8001" "00000014" "00000000" "8022" "40000001" "0001" "aa" "bb",
		      vs, NULL), -EBADMSG);	/* a byte left over */
	CHECK_EQ(rsp("8001" "0000000a" "000002db", vs, NULL), 0x2db);
}

static void test_policy_authorize(void)
{
	static const u8 approved[32] = { 0xaa }, name[34] = { 0x00, 0x0b, 0xcc };
	static const u8 ticket[] = { 0x80, 0x22, 0x40, 0x00, 0x00, 0x01, 0x00, 0x01, 0xdd };
	struct tk2_policy_authorize_in in = {
		.session = 0x03000000,
		.approved = { approved, sizeof(approved) },
		.key_name = { name, sizeof(name) },
		.ticket = { ticket, sizeof(ticket) },
	};
	struct tk_cmd_buf b;

	CHECK_EQ(tk2_cmd_policy_authorize(&b, buf, sizeof(buf), &in), 0);
	check_hex(buf, b.len, "8001" "0000005f" "0000016a" "03000000"
		  "0020" "aa00000000000000000000000000000000000000000000000000000000000000"
		  "0000"
		  "0022" "000bcc00000000000000000000000000000000000000000000000000000000000000"
		  "8022" "40000001" "0001" "dd");
	CHECK_EQ(tk2_cmd_policy_auth_value(&b, buf, sizeof(buf), 0x03000001), 0);
	check_hex(buf, b.len, "8001" "0000000e" "0000016b" "03000001");
}

static void test_authorize_body(void)
{
	struct tk2_authorize_body ab;
	u32 len, i;
	u8 *p;

	p = tk_unhex(ec_body_hex, &len);
	CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), 0);
	CHECK_EQ(ab.sig_alg, TK2_ALG_ECDSA);
	CHECK_EQ(ab.sig_hash, TK2_ALG_SHA256);
	CHECK_EQ(ab.pub.len, 2 + 0x56);
	CHECK_EQ(ab.policy_ref.len, 0);
	CHECK_EQ(ab.sig.len, 2 + 2 + 2 + 32 + 2 + 32);
	CHECK(ab.sig.p + ab.sig.len == p + len);
	/* every truncation and one byte more are refused */
	for (i = 0; i < len; i++) {
		u8 *c = tk_dup(p, i);

		CHECK_EQ(tk2_authorize_body_parse(c, i, &ab), -EINVAL);
		free(c);
	}
	free(p);

	p = tk_unhex(rsa_body_hex, &len);
	CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), 0);
	CHECK_EQ(ab.sig_alg, TK2_ALG_RSASSA);
	CHECK_EQ(ab.sig.len, 2 + 2 + 2 + 256);
	CHECK_EQ(get_unaligned_be16(ab.pub.p + 2), TK2_ALG_RSA);
	p[len - 257 - 2 - 2] ^= 0x01;		/* sigAlg: not a scheme */
	CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), -EINVAL);
	free(p);

	p = tk_unhex(rsa_key_policy_hex, &len);
	CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), 0);
	CHECK_EQ(ab.sig_alg, TK2_ALG_NULL);
	CHECK_EQ(ab.sig.len, 2);
	p[3] = 0x08;				/* keySign keyed-hash: refused */
	CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), -EINVAL);
	free(p);
}

/* SHA-256(@a || @b), @an + @bn at most 128 bytes. */
/* tk2_policy_hash's digest: SHA-256 only. */
static int sha256_spans(void *ctx, u16 alg, const struct tk_span *in,
			unsigned int n, u8 *out)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int i;
	int ok;

	(void)ctx;
	ok = alg == TK2_ALG_SHA256 && c && EVP_DigestInit_ex(c, EVP_sha256(), NULL);
	for (i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(c, in[i].p, in[i].len);
	ok = ok && EVP_DigestFinal_ex(c, out, NULL);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -EINVAL;
}

static void sha256_2(const u8 *a, u32 an, const u8 *b, u32 bn, u8 *out)
{
	u8 in[128];

	memcpy(in, a, an);
	if (bn)
		memcpy(in + an, b, bn);
	SHA256(in, an + bn, out);
}

/*
 * Whether the ECDSA signature of @ab (signer @ab->pub, P-256) verifies
 * over SHA-256(@approved || @ref), by OpenSSL.
 */
static bool ecdsa_verifies(const struct tk2_authorize_body *ab,
			   const u8 *approved, const u8 *ref, u32 ref_len)
{
	/* TPMT_PUBLIC of ECC: ..., x at the end less 2 + 32 + 2 + 32 */
	const u8 *pub = ab->pub.p + ab->pub.len - (2 + 32 + 2 + 32);
	const u8 *sig = ab->sig.p + 4;		/* sigAlg, hash */
	u8 point[65], d[SHA256_DIGEST_LENGTH], der[80], *dp = der;
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL), *vc;
	EVP_PKEY *key = NULL;
	ECDSA_SIG *es = ECDSA_SIG_new();
	bool ok;
	int n;

	point[0] = 0x04;
	memcpy(point + 1, pub + 2, 32);
	memcpy(point + 33, pub + 2 + 32 + 2, 32);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						     (char *)"prime256v1", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
						      point, sizeof(point));
	params[2] = OSSL_PARAM_construct_end();
	if (!pc || EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0 ||
	    !es || !ECDSA_SIG_set0(es, BN_bin2bn(sig + 2, 32, NULL),
				   BN_bin2bn(sig + 2 + 32 + 2, 32, NULL)))
		abort();
	n = i2d_ECDSA_SIG(es, &dp);
	sha256_2(approved, 32, ref, ref_len, d);
	vc = EVP_PKEY_CTX_new(key, NULL);
	ok = vc && EVP_PKEY_verify_init(vc) > 0 &&
	     EVP_PKEY_verify(vc, der, n, d, sizeof(d)) == 1;
	EVP_PKEY_CTX_free(vc);
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(key);
	ECDSA_SIG_free(es);
	return ok;
}

/*
 * issue 22 item 5: a PolicyAuthorize the tool wrote with a policyRef. The
 * kernel's reader finds it; the signature is over SHA-256(approvedPolicy
 * || policyRef), not over the approved policy alone nor another
 * policyRef; the authPolicy is SHA-256(SHA-256(0^32 || CC_PolicyAuthorize
 * || signerName) || policyRef).
 */
static void test_authorize_body_policy_ref(void)
{
	struct tk2_authorize_body ab;
	u8 *p, *approved, *want, in[32 + 4 + 34], d[32], name[34];
	u32 len, alen, wlen, i;

	p = tk_unhex(ref_body_hex, &len);
	approved = tk_unhex(ref_approved_hex, &alen);
	want = tk_unhex(ref_auth_policy_hex, &wlen);
	CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), 0);
	CHECK_EQ(ab.policy_ref.len, 5);
	CHECK_MEM(ab.policy_ref.p, "kmk-a", 5);
	CHECK_EQ(ab.sig_alg, TK2_ALG_ECDSA);
	CHECK_EQ(ab.sig_hash, TK2_ALG_SHA256);
	CHECK(ecdsa_verifies(&ab, approved, ab.policy_ref.p, 5));
	CHECK(!ecdsa_verifies(&ab, approved, NULL, 0));
	CHECK(!ecdsa_verifies(&ab, approved, (const u8 *)"kmk-b", 5));

	put_unaligned_be16(TK2_ALG_SHA256, name);
	SHA256(ab.pub.p + 2, ab.pub.len - 2, name + 2);
	memset(in, 0, 32);
	put_unaligned_be32(0x16a, in + 32);
	memcpy(in + 36, name, sizeof(name));
	SHA256(in, sizeof(in), d);
	sha256_2(d, 32, ab.policy_ref.p, ab.policy_ref.len, d);
	CHECK_EQ(wlen, 32);
	CHECK_MEM(d, want, 32);
	{	/* the PolicyAuthorize row of tk2_policy.c: the same, from any digest */
		struct tk2_policy_hash h = { .digest = sha256_spans,
					     .alg = TK2_ALG_SHA256 };
		struct tk2_key_policy a = { TK2_CC_POLICY_AUTHORIZE, p, len };

		memset(d, 0x55, sizeof(d));
		CHECK_EQ(tk2_policy_extend(&h, &a, 1, d), 0);
		CHECK_MEM(d, want, 32);
	}

	/* every truncation refused; a policyRef longer than a digest too */
	for (i = 0; i < len; i++) {
		u8 *t = tk_dup(p, i);

		CHECK_EQ(tk2_authorize_body_parse(t, i, &ab), -EINVAL);
		free(t);
	}
	free(p);
	free(approved);
	free(want);
}

/* The signers the tool writes pass; every truncation, a bad curve do not. */
static void test_signer_check(void)
{
	const char *const bodies[] = { ec_body_hex, rsa_body_hex };
	struct tk2_authorize_body ab;
	u32 len, i, k;
	u16 alg;
	u8 *p, *c;

	for (k = 0; k < 2; k++) {
		p = tk_unhex(bodies[k], &len);
		CHECK_EQ(tk2_authorize_body_parse(p, len, &ab), 0);
		CHECK_EQ(tk2_signer_check(ab.pub.p + 2, ab.pub.len - 2, &alg), 0);
		CHECK_EQ(alg, TK2_ALG_SHA256);
		for (i = 0; i < ab.pub.len - 2; i++) {
			c = tk_dup(ab.pub.p + 2, i);
			CHECK_EQ(tk2_signer_check(c, i, &alg), -EINVAL);
			free(c);
		}
		c = tk_dup(ab.pub.p + 2, ab.pub.len - 2);
		c[3] = 0x55;			/* nameAlg: unknown */
		CHECK_EQ(tk2_signer_check(c, ab.pub.len - 2, &alg), -EINVAL);
		free(c);
		c = tk_dup(ab.pub.p + 2, ab.pub.len - 2);
		c[11] = 0x06;			/* symmetric AES: a parent */
		CHECK_EQ(tk2_signer_check(c, ab.pub.len - 2, &alg), -EINVAL);
		free(c);
		free(p);
	}
}

/* tpm2_nvdefine -C o -s 8 -a "nt=counter|ownerwrite|ownerread|authread|no_da"
 * 0x01800100, tpm2_nvincrement, tpm2_nvreadpublic: Name and attributes. */
#define NV_AREA	"01800100" "000b" "22060012" "0000" "0008"
#define NV_NAME	"000b93c8e7879e17492fe8c5f3e87a46b32f7c3e3a4ebbd93700da512ec4ce1f5186"

/* PolicyNV's response with the password session: empty, or refused. */
static void check_rsp_nv_ok(void)
{
	u32 len;
	u8 *r = tk_unhex("8002" "00000013" "00000000" "00000000" "0000" "01" "0000", &len);

	CHECK_EQ(tk2_rsp_policy_nv(r, len), 0);
	r[13] = 1;				/* a parameter */
	CHECK_EQ(tk2_rsp_policy_nv(r, len), -EBADMSG);
	free(r);
	r = tk_unhex("8001" "0000000a" "0000099d", &len);
	CHECK_EQ(tk2_rsp_policy_nv(r, len), 0x99d);
	free(r);
}

static void test_policy_nv(void)
{
	u8 body[TK2_POLICY_NV_BODY_MAX], args[16], in[128], d[32] = { 0 };
	u8 h[32];
	struct tk2_policy_nv nv;
	struct tk_cmd_buf b;
	u32 nlen;
	u8 *name = tk_unhex(NV_NAME, &nlen);
	u64 count = 0;
	int n;

	n = tk2_policy_nv_body(body, sizeof(body), 0x01800100, 5);
	CHECK_EQ(n, 18);
	check_hex(body, n, "01800100" "0008" "0000000000000005" "0000" "0009");
	CHECK_EQ(tk2_policy_nv_body(body, 17, 0x01800100, 5), -E2BIG);
	CHECK_EQ(tk2_policy_nv_parse(body, n, &nv), 0);
	CHECK_EQ(nv.index, 0x01800100);
	CHECK_EQ(nv.operand.len, 8);
	CHECK(tk2_policy_nv_is_revoke(&nv, 0x01800100, &count));
	CHECK_EQ(count, 5);
	CHECK(!tk2_policy_nv_is_revoke(&nv, 0x01800101, &count));
	/* tpm2_policynv -i <0000000000000005> 0x01800100 ule -L, from zero */
	n = tk2_policy_nv_args(args, sizeof(args), &nv);
	CHECK_EQ(n, 12);
	SHA256(args, n, h);
	memcpy(in, d, 32);
	memcpy(in + 32, "\x00\x00\x01\x49", 4);
	memcpy(in + 36, h, 32);
	memcpy(in + 68, name, nlen);
	SHA256(in, 68 + nlen, d);
	check_hex(d, 32, "fd5bf3acd8e09b6d83743bc9506c92702b326f850320863fb718b49c1fccab62");

	/* malformed bodies */
	CHECK_EQ(tk2_policy_nv_parse(body, 17, &nv), -EINVAL);
	body[0] = 0x81;
	CHECK_EQ(tk2_policy_nv_parse(body, 18, &nv), -EINVAL);
	body[0] = 0x01;
	body[17] = 0x0c;			/* no such TPM_EO */
	CHECK_EQ(tk2_policy_nv_parse(body, 18, &nv), -EINVAL);
	body[17] = 0x00;			/* EQ: parses, no revocation check */
	CHECK_EQ(tk2_policy_nv_parse(body, 18, &nv), 0);
	CHECK(!tk2_policy_nv_is_revoke(&nv, 0x01800100, &count));
	body[17] = 0x09;
	body[15] = 0x02;			/* offset 2 */
	CHECK_EQ(tk2_policy_nv_parse(body, 18, &nv), 0);
	CHECK(!tk2_policy_nv_is_revoke(&nv, 0x01800100, &count));

	/* the command: index authorises itself, password area, parameters */
	n = tk2_policy_nv_body(body, sizeof(body), 0x01800100, 5);
	tk2_policy_nv_parse(body, n, &nv);
	CHECK_EQ(tk2_cmd_policy_nv(&b, buf, sizeof(buf), 0x03000000, &nv), 0);
	check_hex(buf, b.len, "8002" "00000031" "00000149" "01800100" "01800100"
		  "03000000" "00000009" "40000009" "0000" "00" "0000"
		  "0008" "0000000000000005" "0000" "0009");
	check_rsp_nv_ok();
	free(name);
}

static void test_nv_public(void)
{
	struct tk2_nv_public nv;
	struct tk_cmd_buf b;
	u32 len;
	u8 *r;

	CHECK_EQ(tk2_cmd_nv_read_public(&b, buf, sizeof(buf), 0x01800100), 0);
	check_hex(buf, b.len, "8001" "0000000e" "00000169" "01800100");
	r = tk_unhex("8001" "0000003e" "00000000" "000e" NV_AREA "0022" NV_NAME, &len);
	CHECK_EQ(tk2_rsp_nv_read_public(r, len, false, &nv), 0);
	CHECK_EQ(nv.index, 0x01800100);
	CHECK_EQ(nv.attrs, 0x22060012);
	CHECK_EQ(nv.data_size, 8);
	CHECK_EQ(nv.area.len, 14);
	CHECK_EQ(nv.name.len, 34);
	CHECK_STR(tk2_nv_counter_check(&nv, 0x01800100), NULL);
	CHECK(tk2_nv_counter_check(&nv, 0x01800101) != NULL);
	nv.attrs &= ~TK2_NV_WRITTEN;
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "never incremented"));
	nv.attrs = 0x22060012 | TK2_NV_AUTHWRITE;
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "owner alone"));
	nv.attrs = 0x22060012 & ~TK2_NV_OWNERWRITE;
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "owner alone"));
	nv.attrs = 0x22060012 & ~TK2_NV_NO_DA;
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "authread|no_da"));
	nv.attrs = 0x22060012 | TK2_NV_READ_STCLEAR;
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "locked"));
	nv.attrs = (0x22060012 & ~TK2_NV_TYPE_MASK);	/* ordinary */
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "counter"));
	nv.attrs = 0x22060012;
	nv.name_alg = 0x0004;
	CHECK(strstr(tk2_nv_counter_check(&nv, 0x01800100), "SHA-256"));
	/* one byte short, one over, an error */
	r[5] = 0x3d;
	CHECK_EQ(tk2_rsp_nv_read_public(r, len - 1, false, &nv), -EBADMSG);
	r[5] = 0x3e;
	free(r);
	r = tk_unhex("8001" "0000003f" "00000000" "000e" NV_AREA "0022" NV_NAME "00", &len);
	CHECK_EQ(tk2_rsp_nv_read_public(r, len, false, &nv), -EBADMSG);
	free(r);
	r = tk_unhex("8001" "0000000a" "0000018b", &len);
	CHECK_EQ(tk2_rsp_nv_read_public(r, len, false, &nv), 0x18b);
	free(r);
	/* in a session: parameterSize, then the parameters alone */
	r = tk_unhex("8002" "00000047" "00000000" "00000034" "000e" NV_AREA "0022" NV_NAME
		     "0000" "01" "0000", &len);
	CHECK_EQ(tk2_rsp_nv_read_public(r, len, true, &nv), 0);
	CHECK_EQ(nv.attrs, 0x22060012);
	free(r);
}

static void test_revoke_ref(void)
{
	u8 ref[64];
	const u8 *name;
	u32 nlen;
	u8 *nm = tk_unhex(NV_NAME, &nlen);
	u32 index = 0;
	int n;

	n = tk2_revoke_ref(ref, sizeof(ref), 0x01800100, nm, (const u8 *)"kmk", 3);
	CHECK_EQ(n, 45);
	check_hex(ref, n, "544b5256" "01800100" NV_NAME "6b6d6b");
	CHECK(tk2_revoke_ref_parse(ref, n, &index, &name));
	CHECK_EQ(index, 0x01800100);
	CHECK_MEM(name, nm, 34);
	CHECK(tk2_revoke_ref_parse(ref, 42, &index, &name));
	CHECK(!tk2_revoke_ref_parse(ref, 41, &index, &name));
	CHECK_EQ(tk2_revoke_ref(ref, sizeof(ref), 0x01800100, nm, ref, 23), -EINVAL);
	CHECK_EQ(tk2_revoke_ref(ref, sizeof(ref), 0x01800100, nm, ref, 22), 64);
	ref[0] = 'X';
	CHECK(!tk2_revoke_ref_parse(ref, n, &index, &name));
	ref[0] = 'T';
	ref[4] = 0x81;				/* not an NV index */
	CHECK(!tk2_revoke_ref_parse(ref, n, &index, &name));
	free(nm);
}

int main(void)
{
	RUN(test_signer_check);
	RUN(test_load_external);
	RUN(test_rsp_load_external);
	RUN(test_verify_signature);
	RUN(test_policy_authorize);
	RUN(test_authorize_body);
	RUN(test_authorize_body_policy_ref);
	RUN(test_policy_nv);
	RUN(test_nv_public);
	RUN(test_revoke_ref);
	return tk_test_done();
}
