// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_policy.c, the table of TPM 2.0 policy
 * commands: each row's body check, the digest it extends a policy by
 * (against values computed apart from the code under test, with Python's
 * hashlib or tpm2-tools, as each test says), and the command it builds.
 */
#include <openssl/evp.h>
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk2_key.h"
#include "tk2_policy.h"

/* tk2_policy_hash's digest, with OpenSSL. */
static int evp_digest(void *ctx, u16 alg, const struct tk_span *in,
		      unsigned int n, u8 *out)
{
	const EVP_MD *md = alg == TK2_ALG_SHA1 ? EVP_sha1() :
			   alg == TK2_ALG_SHA256 ? EVP_sha256() :
			   alg == TK2_ALG_SHA384 ? EVP_sha384() : NULL;
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int i, len;
	int ok;

	(void)ctx;
	ok = md && c && EVP_DigestInit_ex(c, md, NULL);
	for (i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(c, in[i].p, in[i].len);
	ok = ok && EVP_DigestFinal_ex(c, out, &len);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -EINVAL;
}

static struct tk2_policy_hash hash_of(u16 alg)
{
	return (struct tk2_policy_hash){ .digest = evp_digest, .alg = alg };
}

static void want_hex(const u8 *got, u32 n, const char *hex)
{
	u32 len;
	u8 *w = tk_unhex(hex, &len);

	CHECK_EQ(len, n);
	CHECK_MEM(got, w, n);
	free(w);
}

/* Every row: its code, a name, a parser, an extend and a builder. */
static void test_table(void)
{
	static const u32 codes[] = {
		TK2_CC_POLICY_PCR, TK2_CC_POLICY_AUTH_VALUE,
		TK2_CC_POLICY_COMMAND_CODE, TK2_CC_POLICY_NV,
		TK2_CC_POLICY_AUTHORIZE,
	};
	const struct tk2_policy_cmd *c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		c = tk2_policy_cmd(codes[i]);
		CHECK(c);
		if (!c)
			continue;
		CHECK_EQ(c->code, codes[i]);
		CHECK(c->name && c->parse && c->extend && c->build);
	}
	CHECK(!tk2_policy_cmd(0x16d));		/* PolicyPassword: not a row */
	CHECK(!tk2_policy_cmd(TK2_CC_UNSEAL));
	CHECK_EQ(tk2_policy_cmd(TK2_CC_POLICY_NV)->send, TK2_POLICY_NV_AUTH);
	CHECK_EQ(tk2_policy_cmd(TK2_CC_POLICY_AUTHORIZE)->send, TK2_POLICY_TICKET);
	CHECK_EQ(tk2_policy_cmd(TK2_CC_POLICY_COMMAND_CODE)->send, TK2_POLICY_PLAIN);
}

/*
 * PolicyAuthValue from zero: the well-known PolicyAuthValue / PolicyPassword
 * digest (tpm2_policyauthvalue; lib/tpm2.sh T_TPM2_POLICY_PW), SHA-256 and
 * SHA-1.
 */
static void test_auth_value(void)
{
	struct tk2_policy_hash h = hash_of(TK2_ALG_SHA256);
	struct tk2_key_policy av = { TK2_CC_POLICY_AUTH_VALUE, NULL, 0 };
	u8 d[TK2_DIGEST_MAX] = { 0 };

	CHECK_EQ(tk2_policy_extend(&h, &av, 1, d), 0);
	want_hex(d, 32, "8fcd2169ab92694e0c633f1ab772842b8241bbc20288981fc7ac1eddc1fddb0e");
	memset(d, 0, sizeof(d));
	h = hash_of(TK2_ALG_SHA1);
	CHECK_EQ(tk2_policy_extend(&h, &av, 1, d), 0);
	want_hex(d, 20, "af6038c78c5c962d37127e319124e3a8dc582e9b");
	av.len = 1;
	av.body = d;
	CHECK_EQ(tk2_policy_parse(&av, TK2_ALG_SHA256), -EINVAL);
	CHECK_EQ(tk2_policy_extend(&h, &av, 1, d), -EINVAL);
}

/*
 * pcrs= with blobauth=: PolicyPCR, then PolicyAuthValue. Python:
 *   p = sha256(bytes(32) + bytes.fromhex("0000017f") +
 *              bytes.fromhex("00000001000b03800001") + bytes(range(0xd0, 0xf0)))
 *   sha256(p.digest() + bytes.fromhex("0000016b"))
 */
static void test_pcr_then_pin(void)
{
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 1U << 7 | 1U << 16 };
	struct tk2_policy_hash h = hash_of(TK2_ALG_SHA256);
	u8 digest[32], body[TK2_POLICY_PCR_BODY_MAX], d[TK2_DIGEST_MAX] = { 0 };
	struct tk2_key_policy cmds[2];
	unsigned int i;
	int n;

	for (i = 0; i < 32; i++)
		digest[i] = 0xd0 + i;
	n = tk2_policy_pcr_body(body, sizeof(body), &sel, digest, 32);
	cmds[0] = (struct tk2_key_policy){ TK2_CC_POLICY_PCR, body, n };
	cmds[1] = (struct tk2_key_policy){ TK2_CC_POLICY_AUTH_VALUE, NULL, 0 };
	CHECK_EQ(tk2_policy_parse(&cmds[0], TK2_ALG_SHA256), 0);
	CHECK_EQ(tk2_policy_parse(&cmds[0], TK2_ALG_SHA1), -EINVAL);
	CHECK_EQ(tk2_policy_extend(&h, cmds, 1, d), 0);
	want_hex(d, 32, "349646c19534e84052cfc01dd6079364c9065e8923a83a26651f08e26617dfe2");
	memset(d, 0, sizeof(d));
	CHECK_EQ(tk2_policy_extend(&h, cmds, 2, d), 0);
	want_hex(d, 32, "3568f79d248e2f93b3b07ed2c94c32452c8b8e55b5326f0a3055cc06df70d2cf");
	cmds[0].len--;
	CHECK_EQ(tk2_policy_extend(&h, cmds, 2, d), -EINVAL);
}

/*
 * PolicyCommandCode(TPM2_Unseal), from zero and after PolicyPCR. Python:
 *   sha256(bytes(32) + bytes.fromhex("0000016c" "0000015e"))
 * and the pcrs= seal's policy: PolicyPCR (as above), PolicyCommandCode,
 * PolicyAuthValue:
 *   q = sha256(p.digest() + bytes.fromhex("0000016c" "0000015e"))
 *   sha256(q.digest() + bytes.fromhex("0000016b")) Only TPM2_Unseal is a body the row takes.
 */
static void test_command_code(void)
{
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 1U << 7 | 1U << 16 };
	struct tk2_policy_hash h = hash_of(TK2_ALG_SHA256);
	u8 digest[32], body[TK2_POLICY_PCR_BODY_MAX], d[TK2_DIGEST_MAX] = { 0 };
	u8 unseal[4] = { 0, 0, 0x01, 0x5e }, create[4] = { 0, 0, 0x01, 0x53 };
	struct tk2_key_policy cc = { TK2_CC_POLICY_COMMAND_CODE, unseal, 4 };
	struct tk2_key_policy cmds[3];
	struct tk2_policy_run run = { .session = 0x03000000 };
	struct tk_cmd_buf b;
	u8 cmd[64];
	unsigned int i;
	int n;

	CHECK_EQ(tk2_policy_parse(&cc, TK2_ALG_SHA256), 0);
	CHECK_EQ(tk2_policy_extend(&h, &cc, 1, d), 0);
	want_hex(d, 32, "e613137076524bde487533865884e9732ebee3aacb095d94a6de492ec06c46fa");

	for (i = 0; i < 32; i++)
		digest[i] = 0xd0 + i;
	n = tk2_policy_pcr_body(body, sizeof(body), &sel, digest, 32);
	cmds[0] = (struct tk2_key_policy){ TK2_CC_POLICY_PCR, body, n };
	cmds[1] = cc;
	cmds[2] = (struct tk2_key_policy){ TK2_CC_POLICY_AUTH_VALUE, NULL, 0 };
	memset(d, 0, sizeof(d));
	CHECK_EQ(tk2_policy_extend(&h, cmds, 2, d), 0);
	want_hex(d, 32, "f094d355c2bb20c55ba2c3bda95b77e842803afac6dd0ee0e2dc44b4ff59102b");
	memset(d, 0, sizeof(d));
	CHECK_EQ(tk2_policy_extend(&h, cmds, 3, d), 0);
	want_hex(d, 32, "f2b8e554e78316e4277cda93d1ce505b64a90e663982d4270219fceda4a7da4e");

	/* TPM2_PolicyCommandCode: session handle, then the code */
	CHECK_EQ(tk2_policy_build(&b, cmd, sizeof(cmd), &run, &cc), 0);
	want_hex(cmd, b.len, "8001" "00000012" "0000016c" "03000000" "0000015e");

	cc.body = create;
	CHECK_EQ(tk2_policy_parse(&cc, TK2_ALG_SHA256), -EINVAL);
	CHECK_EQ(tk2_policy_extend(&h, &cc, 1, d), -EINVAL);
	cc.body = unseal;
	cc.len = 3;
	CHECK_EQ(tk2_policy_parse(&cc, TK2_ALG_SHA256), -EINVAL);
	cc.len = 0;
	CHECK_EQ(tk2_policy_parse(&cc, TK2_ALG_SHA256), -EINVAL);
}

/*
 * PolicyNV(counter <= 5) of index 0x01800100, from zero: what
 * tpm2_policynv -i <0000000000000005> 0x01800100 ule -L gives; the index's
 * Name is needed, and not in the body.
 */
#define NV_NAME	"000b93c8e7879e17492fe8c5f3e87a46b32f7c3e3a4ebbd93700da512ec4ce1f5186"
static void test_nv(void)
{
	struct tk2_policy_hash h = hash_of(TK2_ALG_SHA256);
	u8 body[TK2_POLICY_NV_BODY_MAX], d[TK2_DIGEST_MAX] = { 0 };
	struct tk2_key_policy nv = { TK2_CC_POLICY_NV, body, 0 };
	u32 nlen;
	u8 *name = tk_unhex(NV_NAME, &nlen);
	int n;

	n = tk2_policy_nv_body(body, sizeof(body), 0x01800100, 5);
	nv.len = n;
	CHECK_EQ(tk2_policy_parse(&nv, TK2_ALG_SHA256), 0);
	CHECK_EQ(tk2_policy_extend(&h, &nv, 1, d), -EINVAL);	/* no Name */
	h.nv_name = (struct tk_span){ name, nlen };
	memset(d, 0, sizeof(d));
	CHECK_EQ(tk2_policy_extend(&h, &nv, 1, d), 0);
	want_hex(d, 32, "fd5bf3acd8e09b6d83743bc9506c92702b326f850320863fb718b49c1fccab62");
	free(name);
}

/*
 * A blob sealed with pcrs= before PolicyCommandCode (PolicyPCR alone,
 * tk2_fixtures.h): it parses, and its policy field still yields its
 * object's authPolicy: it loads as before.
 */
static void test_old_blob(void)
{
	struct tk2_policy_hash h = hash_of(TK2_ALG_SHA256);
	u8 d[TK2_DIGEST_MAX] = { 0 };
	struct tk2_key k;
	u32 len;
	u8 *blob = tk_unhex(ours_pcrs_hex, &len);

	CHECK_EQ(tk2_key_parse(blob, len, &k), 0);
	CHECK_EQ(k.npolicy, 1);
	CHECK_EQ(k.policy[0].code, TK2_CC_POLICY_PCR);
	CHECK_EQ(tk2_policy_extend(&h, k.policy, k.npolicy, d), 0);
	CHECK_EQ(k.info.policy_len, 32);
	CHECK_MEM(d, k.info.policy, 32);
	free(blob);
}

/* An unknown command: no digest, no check. */
static void test_unknown(void)
{
	struct tk2_policy_hash h = hash_of(TK2_ALG_SHA256);
	struct tk2_key_policy x = { 0x16d, NULL, 0 };
	u8 d[TK2_DIGEST_MAX] = { 0 };

	CHECK_EQ(tk2_policy_parse(&x, TK2_ALG_SHA256), -EINVAL);
	CHECK_EQ(tk2_policy_extend(&h, &x, 1, d), -EINVAL);
	h.alg = 0x1234;				/* no such hash */
	x.code = TK2_CC_POLICY_AUTH_VALUE;
	CHECK_EQ(tk2_policy_extend(&h, &x, 1, d), -EINVAL);
}

int main(void)
{
	RUN(test_table);
	RUN(test_auth_value);
	RUN(test_pcr_then_pin);
	RUN(test_command_code);
	RUN(test_nv);
	RUN(test_old_blob);
	RUN(test_unknown);
	return tk_test_done();
}
