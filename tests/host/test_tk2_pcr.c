// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_pcr.c and of the pcrs= option as the trusted
 * option parser hands it over: "<bank>:<pcr>[,<pcr>...]" with N or N-M,
 * TPM 2.0 only; the PolicyPCR body (TPM 2.0 Part 3, 23.7: pcrDigest then
 * pcrs) and the bytes a PolicyPCR extends the policy digest with
 * (oldDigest || TPM_CC_PolicyPCR || pcrs || pcrDigest); PolicyAuthValue's
 * (oldDigest || TPM_CC_PolicyAuthValue) after it, the digests checked
 * against values computed apart (Python hashlib, see the test).
 */
#include <openssl/evp.h>
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk2_pcr.h"

static int pcrs(const char *val, enum tk_hash *bank, u32 *mask)
{
	char *c = (char *)tk_dup(val, strlen(val) + 1);
	int ret = tk2_pcrs_parse(c, bank, mask);

	free(c);
	return ret;
}

static void test_pcrs_parse(void)
{
	static const struct {
		const char *s;
		int ok;
		enum tk_hash bank;
		u32 mask;
	} cases[] = {
		{ "sha256:7,16", 1, TK_HASH_SHA256, 1U << 7 | 1U << 16 },
		{ "sha1:0", 1, TK_HASH_SHA1, 1 },
		{ "sha384:23", 1, TK_HASH_SHA384, 1U << 23 },
		{ "sha512:0-7", 1, TK_HASH_SHA512, 0xff },
		{ "sm3:16", 1, TK_HASH_SM3_256, 1U << 16 },
		{ "sha256:0-23", 1, TK_HASH_SHA256, 0xffffff },
		{ "sha256:16,16", 1, TK_HASH_SHA256, 1U << 16 },
		{ "sha256:3-3,5", 1, TK_HASH_SHA256, 1U << 3 | 1U << 5 },
		{ "sha256:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23",
		  1, TK_HASH_SHA256, 0xffffff },
		{ "sha256:24", 0, 0, 0 }, { "sha256:", 0, 0, 0 }, { "sha256", 0, 0, 0 },
		{ ":7", 0, 0, 0 }, { "md5:7", 0, 0, 0 }, { "sha256:7,", 0, 0, 0 }, { "sha256:,7", 0, 0, 0 },
		{ "sha256:7-", 0, 0, 0 }, { "sha256:-7", 0, 0, 0 }, { "sha256:8-7", 0, 0, 0 },
		{ "sha256:0x7", 0, 0, 0 }, { "sha256:7 ", 0, 0, 0 }, { "sha256:a", 0, 0, 0 },
		{ "sha256:4294967303", 0, 0, 0 }, { "SHA256:7", 0, 0, 0 }, { "sha2560:7", 0, 0, 0 },
		{ "sha256:7:8", 0, 0, 0 }, { "sha256:1-2-3", 0, 0, 0 }, { "sha25:7", 0, 0, 0 },
		/* longer than any list of distinct PCRs */
		{ "sha256:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", 0, 0, 0 },
	};
	enum tk_hash bank;
	unsigned int i;
	char what[120];
	u32 mask;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ret = pcrs(cases[i].s, &bank, &mask);
		snprintf(what, sizeof(what), "pcrs=%s: %s (got %d)", cases[i].s,
			 cases[i].ok ? "parsed" : "refused", ret);
		tk_check(cases[i].ok ? ret == 0 && bank == cases[i].bank &&
			 mask == cases[i].mask : ret == -EINVAL,
			 __FILE__, __LINE__, what);
	}
}

static int request(const char *line, bool tpm2, struct tk_request *req)
{
	char *c = (char *)tk_dup(line, strlen(line) + 1);
	int ret = tk_parse_request(c, tpm2, req);

	free(c);
	return ret;
}

static void test_pcrs_option(void)
{
	struct tk_request *req = malloc(sizeof(*req));

	CHECK_EQ(request("new 32 pcrs=sha256:7,16", true, req), 0);
	CHECK(tk_opt_given(&req->opt, TK_OPT_PCRS));
	CHECK_EQ(req->opt.pcrs_bank, TK_HASH_SHA256);
	CHECK_EQ(req->opt.pcrs_mask, 1U << 7 | 1U << 16);
	CHECK_EQ(request("update pcrs=sha1:16", true, req), 0);
	CHECK_EQ(req->opt.pcrs_bank, TK_HASH_SHA1);

	CHECK_EQ(request("new 32 pcrs=sha256:16", false, req), -EINVAL);
	CHECK_STR(req->why, "pcrs needs a TPM 2.0");
	CHECK_EQ(request("new 32 pcrs=sha256:24", true, req), -EINVAL);
	CHECK(req->why && strstr(req->why, "pcrs"));
	CHECK_EQ(request("new 32 pcrs=sha256:1 pcrs=sha256:2", true, req), -EINVAL);
	CHECK_STR(req->why, "option given twice");
	CHECK_EQ(request("new 32 pcrs=", true, req), -EINVAL);
	free(req);
}

static void test_hash_alg(void)
{
	CHECK_EQ(tk2_hash_alg(TK_HASH_SHA1), TK2_ALG_SHA1);
	CHECK_EQ(tk2_hash_alg(TK_HASH_SHA256), TK2_ALG_SHA256);
	CHECK_EQ(tk2_hash_alg(TK_HASH_SHA384), TK2_ALG_SHA384);
	CHECK_EQ(tk2_hash_alg(TK_HASH_SHA512), TK2_ALG_SHA512);
	CHECK_EQ(tk2_hash_alg(TK_HASH_SM3_256), TK2_ALG_SM3_256);
	CHECK_EQ(tk2_hash_alg(TK_HASH_COUNT), TK2_ALG_NULL);
}

static void test_policy_body(void)
{
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 1U << 7 | 1U << 16 };
	static const u8 want[] = {
		0x00, 0x20,
		0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
		0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5,
		0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef,
		0x00, 0x00, 0x00, 0x01, 0x00, 0x0b, 0x03, 0x80, 0x00, 0x01,
	};
	u8 digest[32], body[TK2_POLICY_PCR_BODY_MAX], in[TK2_POLICY_INPUT_MAX];
	u8 old[32];
	struct tk2_policy_pcr pp;
	unsigned int i;
	int n;

	for (i = 0; i < 32; i++) {
		digest[i] = 0xd0 + i;
		old[i] = 0x10 + i;
	}
	n = tk2_policy_pcr_body(body, sizeof(body), &sel, digest, 32);
	CHECK_EQ(n, sizeof(want));
	CHECK_MEM(body, want, sizeof(want));
	CHECK_EQ(tk2_policy_pcr_body(body, sizeof(want) - 1, &sel, digest, 32),
		 -E2BIG);

	CHECK_EQ(tk2_policy_pcr_parse(body, n, TK2_ALG_SHA256, &pp), 0);
	CHECK_EQ(pp.digest_len, 32);
	CHECK(pp.digest == body + 2);
	CHECK(pp.sel == body + 34);
	CHECK_EQ(pp.sel_len, 10);
	CHECK_EQ(tk2_policy_pcr_parse(body, n, TK2_ALG_SHA1, &pp), -EINVAL);
	CHECK_EQ(tk2_policy_pcr_parse(body, n - 1, TK2_ALG_SHA256, &pp), -EINVAL);

	n = tk2_policy_pcr_input(in, sizeof(in), old, &pp);
	CHECK_EQ(n, 32 + 4 + 10 + 32);
	CHECK_MEM(in, old, 32);
	CHECK_MEM(in + 32, "\x00\x00\x01\x7f", 4);
	CHECK_MEM(in + 36, want + 34, 10);	/* pcrs before pcrDigest */
	CHECK_MEM(in + 46, digest, 32);
	CHECK_EQ(tk2_policy_pcr_input(in, 77, old, &pp), -E2BIG);
}

static void tk_unhex_to(u8 *out, const char *hex)
{
	u32 len;
	u8 *p = tk_unhex(hex, &len);

	memcpy(out, p, len);
	free(p);
}

static void sha(const EVP_MD *md, const u8 *in, int n, u8 *out)
{
	unsigned int len;

	CHECK(EVP_Digest(in, n, out, &len, md, NULL));
}

/*
 * pcrs= with blobauth=: PolicyPCR then PolicyAuthValue. The expected
 * digests were computed apart from the code under test, with Python:
 *   p = sha256(bytes(32) + bytes.fromhex("0000017f") +
 *              bytes.fromhex("00000001000b03800001") + bytes(range(0xd0, 0xf0)))
 *   sha256(p.digest() + bytes.fromhex("0000016b"))
 * and PolicyAuthValue from zero is the well-known PolicyAuthValue /
 * PolicyPassword digest (tpm2_policyauthvalue; lib/tpm2.sh T_TPM2_POLICY_PW).
 */
static void test_policy_auth_value(void)
{
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 1U << 7 | 1U << 16 };
	u8 digest[32], body[TK2_POLICY_PCR_BODY_MAX], in[TK2_POLICY_INPUT_MAX];
	u8 policy[32] = { 0 }, want[32], sha1[20] = { 0 }, want1[20];
	struct tk2_policy_pcr pp;
	unsigned int i;
	int n;

	n = tk2_policy_auth_value_input(in, sizeof(in), policy, 32);
	CHECK_EQ(n, 36);
	CHECK_MEM(in + 32, "\x00\x00\x01\x6b", 4);
	sha(EVP_sha256(), in, n, policy);
	tk_unhex_to(want, "8fcd2169ab92694e0c633f1ab772842b8241bbc20288981fc7ac1eddc1fddb0e");
	CHECK_MEM(policy, want, 32);

	n = tk2_policy_auth_value_input(in, sizeof(in), sha1, 20);
	CHECK_EQ(n, 24);
	sha(EVP_sha1(), in, n, sha1);
	tk_unhex_to(want1, "af6038c78c5c962d37127e319124e3a8dc582e9b");
	CHECK_MEM(sha1, want1, 20);
	CHECK_EQ(tk2_policy_auth_value_input(in, 35, policy, 32), -E2BIG);

	for (i = 0; i < 32; i++)
		digest[i] = 0xd0 + i;
	n = tk2_policy_pcr_body(body, sizeof(body), &sel, digest, 32);
	CHECK_EQ(tk2_policy_pcr_parse(body, n, TK2_ALG_SHA256, &pp), 0);
	memset(policy, 0, sizeof(policy));
	n = tk2_policy_pcr_input(in, sizeof(in), policy, &pp);
	sha(EVP_sha256(), in, n, policy);
	tk_unhex_to(want, "349646c19534e84052cfc01dd6079364c9065e8923a83a26651f08e26617dfe2");
	CHECK_MEM(policy, want, 32);
	n = tk2_policy_auth_value_input(in, sizeof(in), policy, 32);
	sha(EVP_sha256(), in, n, policy);
	tk_unhex_to(want, "3568f79d248e2f93b3b07ed2c94c32452c8b8e55b5326f0a3055cc06df70d2cf");
	CHECK_MEM(policy, want, 32);
}

/* The body our module wrote for pcrs=sha256:16 (tk2_fixtures.h). */
static void test_policy_body_real(void)
{
	static const u8 sha256_of_32_zeros[32] = {
		0x66, 0x68, 0x7a, 0xad, 0xf8, 0x62, 0xbd, 0x77, 0x6c, 0x8f, 0xc1,
		0x8b, 0x8e, 0x9f, 0x8e, 0x20, 0x08, 0x97, 0x14, 0x85, 0x6e, 0xe2,
		0x33, 0xb3, 0x90, 0x2a, 0x59, 0x1d, 0x0d, 0x5f, 0x29, 0x25,
	};
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 1U << 16 };
	u8 body[TK2_POLICY_PCR_BODY_MAX], *blob;
	const u8 *at;
	u32 len;
	int n;

	blob = tk_unhex(ours_pcrs_hex, &len);
	n = tk2_policy_pcr_body(body, sizeof(body), &sel, sha256_of_32_zeros, 32);
	CHECK_EQ(n, 44);
	for (at = blob; at + n <= blob + len; at++)
		if (!memcmp(at, body, n))
			break;
	CHECK(at + n <= blob + len);	/* the body is in the blob */
	free(blob);
}

static void test_policy_parse_selections(void)
{
	u8 b[2 + 20 + 4 + 8 * 7 + 8];
	struct tk2_policy_pcr pp;
	unsigned int i, n;

	memset(b, 0, sizeof(b));
	b[1] = 20;
	b[2 + 20 + 3] = 2;			/* two banks */
	n = 2 + 20 + 4;
	for (i = 0; i < 2; i++) {
		b[n + 1] = i ? 0x04 : 0x0b;
		b[n + 2] = 3;
		b[n + 3 + i] = 0x01;
		n += 6;
	}
	CHECK_EQ(tk2_policy_pcr_parse(b, n, TK2_ALG_SHA1, &pp), 0);
	CHECK_EQ(pp.sel_len, 4 + 12);

	/* one bank with a select of 4, 2 and 5 bytes */
	b[2 + 20 + 3] = 1;
	n = 2 + 20 + 4;
	b[n + 1] = 0x0b;
	b[n + 2] = 4;
	b[n + 3] = 0x01;
	b[n + 4] = b[n + 5] = b[n + 6] = 0;
	CHECK_EQ(tk2_policy_pcr_parse(b, n + 7, TK2_ALG_SHA1, &pp), 0);
	b[n + 2] = 2;
	CHECK_EQ(tk2_policy_pcr_parse(b, n + 5, TK2_ALG_SHA1, &pp), -EINVAL);
	b[n + 2] = 5;
	CHECK_EQ(tk2_policy_pcr_parse(b, n + 8, TK2_ALG_SHA1, &pp), -EINVAL);
	b[2 + 20 + 3] = 9;			/* more banks than exist */
	CHECK_EQ(tk2_policy_pcr_parse(b, sizeof(b), TK2_ALG_SHA1, &pp), -EINVAL);
	b[1] = 0;				/* empty pcrDigest */
	CHECK_EQ(tk2_policy_pcr_parse(b, 2 + 10, TK2_ALG_SHA1, &pp), -EINVAL);
}

int main(void)
{
	RUN(test_pcrs_parse);
	RUN(test_pcrs_option);
	RUN(test_hash_alg);
	RUN(test_policy_body);
	RUN(test_policy_body_real);
	RUN(test_policy_auth_value);
	RUN(test_policy_parse_selections);
	return tk_test_done();
}
