// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_pcr.c and of the pcrs= option as the trusted
 * option parser hands it over: "<bank>:<pcr>[,<pcr>...]" with N or N-M,
 * TPM 2.0 only; the PolicyPCR body (TPM 2.0 Part 3, 23.7: pcrDigest then
 * pcrs). The digests it gives are test_tk2_policy.c's.
 */
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
	u8 digest[32], body[TK2_POLICY_PCR_BODY_MAX];
	struct tk2_policy_pcr pp;
	unsigned int i;
	int n;

	for (i = 0; i < 32; i++)
		digest[i] = 0xd0 + i;
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
	RUN(test_policy_parse_selections);
	return tk_test_done();
}
