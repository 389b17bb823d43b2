// SPDX-License-Identifier: GPL-2.0
/*
 * tk2_kdf/tk2_session against a real TPM: swtpm (libtpms, the TCG
 * reference code) over TCP. CreatePrimary with the SRK template, a
 * session salted to it by ECDH (OpenSSL for the point arithmetic, as the
 * kernel's kpp will do), then Create (inSensitive encrypted), Load and
 * Unseal (outData encrypted) in that session, every response checked by
 * tk2_rsp_sessions() before the tk2_msg parsers see it. If the KDFs,
 * HMACs or CFB were wrong the TPM would refuse the commands or we its
 * responses. Then a session salted by RSA-OAEP to an RSA 2048 primary
 * (tk2_rsa_public_parse, tk2_rsa_salt_encode; the RSA operation with
 * OpenSSL's BIGNUMs) and GetRandom encrypted in it; and CreatePrimary
 * under an owner password authorised by an unsalted HMAC session, the
 * password absent from the command; a PIN with a PCR policy: an object
 * whose authPolicy is PolicyPCR then PolicyAuthValue, unsealed in a policy
 * session salted to the SRK (its HMAC keyed by sessionKey || PIN, outData
 * encrypted by it), the wrong PIN refused, and the same in an unsalted
 * policy session (the HMAC keyed by the PIN alone). Run by tests/tools/tk2-swtpm.sh
 * (make check's host stage: tests/host/run-tests.sh); KTAP, a test point a
 * check (tk_test.h), each case named by a "# case N: ..." line after its
 * checks.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <linux/kernel.h>
#include "../host/tk_test.h"
#include "../host/tk2_ref.h"
#include "tk2_kdf.h"
#include "tk2_session.h"
#include "tk2_msg.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk2_policy.h"

#define BUF 4096

static int fd;
static struct tk2_public_area srk_pub;	/* CreatePrimary's outPublic, unused */

static u32 xfer1(const u8 *cmd, u8 *rsp)
{
	u32 len = get_unaligned_be32(cmd + 2), got = 0, want = 10;
	ssize_t n;

	if (write(fd, cmd, len) != (ssize_t)len)
		abort();
	while (got < want) {
		n = read(fd, rsp + got, BUF - got);
		if (n <= 0)
			abort();
		got += n;
		if (got >= 10)
			want = get_unaligned_be32(rsp + 2);
	}
	return got;
}

/* As the kernel's TPM core does: resend on TPM_RC_RETRY (nothing ran). */
static u32 xfer(const u8 *cmd, u8 *rsp)
{
	u32 rlen;
	int i;

	for (i = 0; i < 20; i++) {
		rlen = xfer1(cmd, rsp);
		if (get_unaligned_be32(rsp + 6) != 0x922)
			break;
		usleep(20000);
	}
	return rlen;
}

static void new_nonce(struct tk2_session *s)
{
	s->nonce_caller_len = 32;
	RAND_bytes(s->nonce_caller, 32);
}

/* Send a command without sessions; the response code. */
static u32 plain(u8 *cmd, u8 *rsp)
{
	xfer(cmd, rsp);
	return get_unaligned_be32(rsp + 6);
}

/*
 * One try at the PIN object: a policy session (salted to @parent with
 * @esalt, or unsalted when @esalt is NULL), PolicyPCR, PolicyAuthValue,
 * Unseal authorised by that session alone with @pin, outData encrypted
 * when salted. Returns the TPM's code; the key into @out.
 */
static int pin_try(const struct tk2_crypto *c, u32 parent,
		   const struct tk_span *esalt, const u8 salt[32], u32 item,
		   const u8 *oname, const u8 *body, u32 body_len,
		   const char *pin, u8 *out)
{
	struct tk2_session s0 = { .hmac = true };
	struct tk2_session *s[] = { &s0 };
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	struct tk_span nc, nt, names[1] = { { oname, TK2_NAME_SIZE } }, data;
	u8 cmd[BUF], rsp[BUF];
	struct tk_cmd_buf b;
	const char *why = "";
	u32 rlen;
	int rc;

	new_nonce(&s0);
	nc = (struct tk_span){ s0.nonce_caller, 32 };
	tk2_cmd_start_auth_session(&b, cmd, BUF, esalt ? parent : TK2_RH_NULL,
				   TK2_RH_NULL, &nc, esalt, TK2_SE_POLICY);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, rlen, &s0.handle, &s0), 0);
	CHECK_EQ(s0.handle >> 24, TK2_HT_POLICY_SESSION);
	if (esalt) {
		nt = (struct tk_span){ s0.nonce_tpm, s0.nonce_tpm_len };
		CHECK_EQ(tk2_session_key(c, NULL, 0, salt, 32, &nt, &nc,
					 s0.key), 0);
		s0.key_len = 32;
	}
	tk2_cmd_policy(&b, cmd, BUF, TK2_CC_POLICY_PCR, s0.handle, body,
		       body_len);
	CHECK_EQ(plain(cmd, rsp), 0);
	tk2_cmd_policy_auth_value(&b, cmd, BUF, s0.handle);
	CHECK_EQ(plain(cmd, rsp), 0);

	tk2_cmd_unseal(&b, cmd, BUF, item, &pw);
	s0.attrs = esalt ? TK2_SESS_ENCRYPT : 0;
	s0.auth_len = strlen(pin);
	memcpy(s0.auth, pin, s0.auth_len);
	new_nonce(&s0);
	CHECK_EQ(tk2_cmd_sessions(c, cmd, BUF, 1, names, s, 1, &why), 0);
	CHECK(!memmem(cmd, get_unaligned_be32(cmd + 2), pin, strlen(pin)));
	rlen = xfer(cmd, rsp);
	rc = tk2_rsp_sessions(c, rsp, rlen, TK2_CC_UNSEAL, 0, s, 1, &why);
	if (rc) {
		tk2_cmd_flush(&b, cmd, BUF, s0.handle);
		xfer(cmd, rsp);
		return rc;
	}
	CHECK_EQ(tk2_rsp_unseal(rsp, rlen, &data), 0);
	CHECK_EQ(data.len, 32);
	memcpy(out, data.p, 32);
	return 0;
}

/* A PIN with a PCR policy: PolicyPCR(16) then PolicyAuthValue. */
/* tk2_policy_hash's digest: the tk2_crypto's SHA-256. */
static int policy_digest(void *ctx, u16 alg, const struct tk_span *in,
			 unsigned int n, u8 *out)
{
	const struct tk2_crypto *c = ctx;

	if (alg != TK2_ALG_SHA256)
		return -EINVAL;
	return c->digest(c->ctx, in, n, out);
}

static void pin_policy(const struct tk2_crypto *c, u32 parent,
		       const struct tk_span *esalt, const u8 salt[32])
{
	static const u8 secret[32] = "PIN-and-PCR-policy-sealed-secret";
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 1U << 16 };
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	u8 cmd[BUF], rsp[BUF], body[TK2_POLICY_PCR_BODY_MAX], zero[32] = { 0 };
	u8 pcr_digest[32], policy[32] = { 0 };
	u8 oname[TK2_NAME_SIZE], out[32], p1[BUF], p2[BUF];
	struct tk_span zs = { zero, 32 }, priv, pub;
	struct tk2_policy_pcr pp;
	struct tk_cmd_buf b;
	u32 rlen, item, l1, l2;
	int n, rc;

	/* PCR 16 of a fresh TPM is zero: pcrDigest = H(0^32) */
	c->digest(c->ctx, &zs, 1, pcr_digest);
	n = tk2_policy_pcr_body(body, sizeof(body), &sel, pcr_digest, 32);
	CHECK_EQ(tk2_policy_pcr_parse(body, n, TK2_ALG_SHA256, &pp), 0);
	{	/* PolicyPCR, PolicyAuthValue: src/lib's table */
		struct tk2_policy_hash h = { .digest = policy_digest, .ctx = (void *)c,
					     .alg = TK2_ALG_SHA256 };
		struct tk2_key_policy cmds[] = {
			{ TK2_CC_POLICY_PCR, body, n },
			{ TK2_CC_POLICY_AUTH_VALUE, NULL, 0 },
		};

		CHECK_EQ(tk2_policy_extend(&h, cmds, 2, policy), 0);
	}
	{
		struct tk2_create_in ci = {
			.parent = parent, .parent_auth = pw,
			.user_auth = (const u8 *)"1234", .user_auth_len = 4,
			.data = secret, .data_len = 32,
			.name_alg = TK2_ALG_SHA256,
			.attrs = TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT,
			.policy = policy, .policy_len = 32,
		};

		tk2_cmd_create(&b, cmd, BUF, &ci);
	}
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_create(rsp, rlen, &priv, &pub), 0);
	l1 = priv.len;
	l2 = pub.len;
	memcpy(p1, priv.p, l1);
	memcpy(p2, pub.p, l2);
	CHECK_EQ(tk2_name(c, p2 + 2, l2 - 2, oname), 0);
	tk2_cmd_load(&b, cmd, BUF, parent, &pw, p1, l1, p2, l2);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_load(rsp, rlen, &item), 0);

	rc = pin_try(c, parent, esalt, salt, item, oname, body, n, "1234", out);
	CHECK_EQ(rc, 0);
	CHECK_MEM(out, secret, 32);
	printf("# case 9: PolicyPCR + PolicyAuthValue in a salted policy session: unsealed, encrypted, PIN not sent\n");
	rc = pin_try(c, parent, esalt, salt, item, oname, body, n, "1235", out);
	CHECK_EQ(rc, TK2_RC_AUTH_FAIL | 0x900);	/* session 1 */
	printf("# case 10: the wrong PIN: 0x%03x\n", rc);
	rc = pin_try(c, parent, NULL, NULL, item, oname, body, n, "1234", out);
	CHECK_EQ(rc, 0);
	CHECK_MEM(out, secret, 32);
	printf("# case 11: the same in an unsalted policy session (HMAC keyed by the PIN)\n");
	tk2_cmd_flush(&b, cmd, BUF, item);
	xfer(cmd, rsp);
}

/* A session salted by RSA-OAEP to an RSA primary; GetRandom in it. */
static void rsa_salt(const struct tk2_crypto *c)
{
	static const char tmpl[] =
		"800200000043000001314000000100000009400000090000000000000400"
		"000000001a0001000b000304720000000600800043001008000000000000"
		"00000000000000";
	u8 cmd[BUF], rsp[BUF], salt[32], seed[32], em[512], ct[512];
	struct tk2_session s0 = { .hmac = true, .key_len = 32 };
	struct tk2_session *s[] = { &s0 };
	struct tk_span nc, nt, es;
	struct tk2_rsa_key k;
	struct tk_cmd_buf b;
	BIGNUM *m, *n, *e, *r;
	BN_CTX *bc = BN_CTX_new();
	const char *why = "";
	u32 h, rlen, plen;

	unhex(cmd, tmpl);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_create_primary(rsp, rlen, &h, &srk_pub), 0);
	plen = get_unaligned_be16(rsp + 18);
	CHECK_EQ(tk2_rsa_public_parse(rsp + 20, plen, &k), 0);
	CHECK_EQ(k.n_len, 256);
	RAND_bytes(salt, 32);
	RAND_bytes(seed, 32);
	CHECK_EQ(tk2_rsa_salt_encode(c, salt, seed, em, k.n_len), 0);
	m = BN_bin2bn(em, k.n_len, NULL);
	n = BN_bin2bn(k.n, k.n_len, NULL);
	e = BN_new();
	r = BN_new();
	BN_set_word(e, k.exponent);
	BN_mod_exp(r, m, e, n, bc);
	BN_bn2binpad(r, ct, k.n_len);
	new_nonce(&s0);
	nc = (struct tk_span){ s0.nonce_caller, 32 };
	es = (struct tk_span){ ct, k.n_len };
	tk2_cmd_start_auth_session(&b, cmd, BUF, h, TK2_RH_NULL, &nc, &es,
				   TK2_SE_HMAC);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, rlen, &s0.handle, &s0), 0);
	nt = (struct tk_span){ s0.nonce_tpm, s0.nonce_tpm_len };
	CHECK_EQ(tk2_session_key(c, NULL, 0, salt, 32, &nt, &nc, s0.key), 0);
	tk_cmd_start(&b, cmd, BUF, TK2_TAG_NO_SESSIONS, TK2_CC_GET_RANDOM);
	tk_cmd_u16(&b, 16);
	tk_cmd_end(&b);
	s0.attrs = TK2_SESS_ENCRYPT;
	new_nonce(&s0);
	CHECK_EQ(tk2_cmd_sessions(c, cmd, BUF, 0, NULL, s, 1, &why), 0);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_sessions(c, rsp, rlen, TK2_CC_GET_RANDOM, 0, s, 1,
				  &why), 0);
	printf("# case 7: a session salted by RSA-OAEP to an RSA 2048 primary: GetRandom accepted\n");
	tk2_cmd_flush(&b, cmd, BUF, h);
	xfer(cmd, rsp);
	BN_free(m);
	BN_free(n);
	BN_free(e);
	BN_free(r);
	BN_CTX_free(bc);
}

/* CreatePrimary under an owner password, in an unsalted HMAC session. */
static void hierarchy_hmac(const struct tk2_crypto *c)
{
	static const u8 pwv[20] = "hierarchy-password-1";
	struct tk2_session s0 = { .hmac = true, .key_len = 0 };
	struct tk2_session *s[] = { &s0 };
	struct tk2_auth pw = { .handle = TK2_RS_PW, .value = pwv, .len = 20 };
	u8 cmd[BUF], rsp[BUF], hname[4] = { 0x40, 0, 0, 1 };
	struct tk_span nc, names[1] = { { hname, 4 } };
	struct tk_cmd_buf b;
	const char *why = "";
	u32 h, rlen;

	tk_cmd_start(&b, cmd, BUF, TK2_TAG_SESSIONS, 0x129);
	tk_cmd_u32(&b, TK2_RH_OWNER);
	tk_cmd_u32(&b, 9);
	tk_cmd_u32(&b, TK2_RS_PW);
	tk_cmd_u16(&b, 0);
	tk_cmd_u8(&b, 0);
	tk_cmd_u16(&b, 0);
	tk_cmd_u16(&b, 20);
	tk_cmd_bytes(&b, pwv, 20);
	tk_cmd_end(&b);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(get_unaligned_be32(rsp + 6), 0);
	new_nonce(&s0);
	nc = (struct tk_span){ s0.nonce_caller, 32 };
	tk2_cmd_start_auth_session(&b, cmd, BUF, TK2_RH_NULL, TK2_RH_NULL, &nc,
				   NULL, TK2_SE_HMAC);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, rlen, &s0.handle, &s0), 0);
	memcpy(s0.auth, pwv, 20);
	s0.auth_len = 20;
	s0.attrs = 0;
	tk2_cmd_create_srk(&b, cmd, BUF, TK2_RH_OWNER, &pw);
	new_nonce(&s0);
	CHECK_EQ(tk2_cmd_sessions(c, cmd, BUF, 1, names, s, 1, &why), 0);
	CHECK(!memmem(cmd, get_unaligned_be32(cmd + 2), pwv, 20));
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_sessions(c, rsp, rlen, TK2_CC_CREATE_PRIMARY, 1, s, 1,
				  &why), 0);
	CHECK_EQ(tk2_rsp_create_primary(rsp, rlen, &h, &srk_pub), 0);
	printf("# case 8: CreatePrimary under an owner password in an HMAC session, the password not sent\n");
	tk2_cmd_flush(&b, cmd, BUF, h);
	xfer(cmd, rsp);
}

int main(int argc, char **argv)
{
	const struct tk2_crypto *c = ossl_crypto(0);
	static const u8 secret[32] = "0123456789abcdef0123456789abcdef";
	struct sockaddr_in sa = { .sin_family = AF_INET };
	u8 cmd[BUF], rsp[BUF], pname[TK2_NAME_SIZE], oname[TK2_NAME_SIZE];
	u8 point[TK2_ECC_POINT_SIZE], ex[32], ey[32], z[32], salt[32];
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	struct tk2_session s0 = { .hmac = true, .key_len = 32 };
	struct tk2_session *s[] = { &s0 };
	struct tk_span names[1], priv, pub, out, nc, nt, esalt;
	struct tk2_ecc_key srk;
	struct tk_cmd_buf b;
	const char *why = "";
	u32 parent, item, rlen, plen;
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *q = EC_POINT_new(g), *e = EC_POINT_new(g), *zp;
	BIGNUM *bx, *by, *d = BN_new(), *ord = BN_new(), *x = BN_new();
	BIGNUM *y = BN_new();
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sa.sin_port = htons(argc > 1 ? atoi(argv[1]) : 2321);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return perror("connect"), 2;

	/* the SRK, and its public area checked and named by us */
	tk2_cmd_create_srk(&b, cmd, BUF, TK2_RH_OWNER, &pw);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_create_primary(rsp, rlen, &parent, &srk_pub), 0);
	plen = get_unaligned_be16(rsp + 18);
	CHECK_EQ(tk2_ecc_public_parse(rsp + 20, plen, &srk), 0);
	CHECK(tk2_ecc_is_srk(&srk));
	CHECK_EQ(tk2_name(c, rsp + 20, plen, pname), 0);
	/* the TPM's own idea of the Name, last in the response */
	CHECK_MEM(rsp + rlen - 5 - 34, pname, 34);
	printf("# case 1: SRK created, template and Name as ours\n");

	/* ECDH: an ephemeral key, Z = x(d * Q) */
	bx = BN_bin2bn(srk.x, 32, NULL);
	by = BN_bin2bn(srk.y, 32, NULL);
	CHECK(EC_POINT_set_affine_coordinates(g, q, bx, by, NULL));
	EC_GROUP_get_order(g, ord, NULL);
	BN_rand_range(d, ord);
	EC_POINT_mul(g, e, d, NULL, NULL, NULL);
	zp = EC_POINT_new(g);
	EC_POINT_mul(g, zp, NULL, q, d, NULL);
	EC_POINT_get_affine_coordinates(g, e, x, y, NULL);
	BN_bn2binpad(x, ex, 32);
	BN_bn2binpad(y, ey, 32);
	EC_POINT_get_affine_coordinates(g, zp, x, y, NULL);
	BN_bn2binpad(x, z, 32);
	CHECK_EQ(tk2_ecdh_salt(c, z, 32, ex, 32, srk.x, 32, salt), 0);
	tk2_ecc_point(point, ex, ey);

	new_nonce(&s0);
	nc = (struct tk_span){ s0.nonce_caller, 32 };
	esalt = (struct tk_span){ point, sizeof(point) };
	tk2_cmd_start_auth_session(&b, cmd, BUF, parent, TK2_RH_NULL, &nc,
				   &esalt, TK2_SE_HMAC);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, rlen, &s0.handle, &s0), 0);
	nt = (struct tk_span){ s0.nonce_tpm, s0.nonce_tpm_len };
	CHECK_EQ(tk2_session_key(c, NULL, 0, salt, 32, &nt, &nc, s0.key), 0);
	printf("# case 2: session 0x%08x salted to the SRK\n", s0.handle);

	/* Create: the key and blobauth encrypted, the parent by HMAC */
	{
		struct tk2_create_in in = {
			.parent = parent, .parent_auth = pw,
			.user_auth = (const u8 *)"hello", .user_auth_len = 5,
			.data = secret, .data_len = 32,
			.name_alg = TK2_ALG_SHA256,
			.attrs = TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT |
				 TK2_OA_USERWITHAUTH,
		};

		tk2_cmd_create(&b, cmd, BUF, &in);
	}
	names[0] = (struct tk_span){ pname, sizeof(pname) };
	s0.attrs = TK2_SESS_CONTINUE | TK2_SESS_DECRYPT;
	new_nonce(&s0);
	CHECK_EQ(tk2_cmd_sessions(c, cmd, BUF, 1, names, s, 1, &why), 0);
	rlen = xfer(cmd, rsp);
	rc = tk2_rsp_sessions(c, rsp, rlen, TK2_CC_CREATE, 0, s, 1, &why);
	CHECK_EQ(rc, 0);
	if (rc)
		printf("# create: rc 0x%x %s\n", rc, why);
	CHECK_EQ(tk2_rsp_create(rsp, rlen, &priv, &pub), 0);
	printf("# case 3: Create in the session, inSensitive encrypted\n");

	/* Load, the parent by HMAC */
	{
		u8 p1[BUF], p2[BUF];
		u32 l1 = priv.len, l2 = pub.len;

		memcpy(p1, priv.p, l1);
		memcpy(p2, pub.p, l2);
		CHECK_EQ(tk2_name(c, p2 + 2, l2 - 2, oname), 0);
		tk2_cmd_load(&b, cmd, BUF, parent, &pw, p1, l1, p2, l2);
	}
	s0.attrs = TK2_SESS_CONTINUE;
	new_nonce(&s0);
	CHECK_EQ(tk2_cmd_sessions(c, cmd, BUF, 1, names, s, 1, &why), 0);
	rlen = xfer(cmd, rsp);
	CHECK_EQ(tk2_rsp_sessions(c, rsp, rlen, TK2_CC_LOAD, 1, s, 1, &why),
		 0);
	CHECK_EQ(tk2_rsp_load(rsp, rlen, &item), 0);
	printf("# case 4: Load in the session\n");

	/* Unseal: the object by HMAC with blobauth, outData encrypted */
	tk2_cmd_unseal(&b, cmd, BUF, item, &pw);
	names[0] = (struct tk_span){ oname, sizeof(oname) };
	s0.attrs = TK2_SESS_ENCRYPT;		/* the last use ends it */
	s0.auth_len = 5;
	memcpy(s0.auth, "hello", 5);
	new_nonce(&s0);
	CHECK_EQ(tk2_cmd_sessions(c, cmd, BUF, 1, names, s, 1, &why), 0);
	rlen = xfer(cmd, rsp);
	CHECK(!memmem(rsp, rlen, secret, 8));
	{
		struct tk2_session copy = s0, *sc[] = { &copy };
		u8 bad[BUF];

		memcpy(bad, rsp, rlen);
		bad[rlen / 2] ^= 1;
		CHECK_EQ(tk2_rsp_sessions(c, bad, rlen, TK2_CC_UNSEAL, 0, sc, 1,
					  &why), -EBADMSG);
		printf("# case 5: a changed Unseal response is refused (%s)\n",
		       why);
	}
	rc = tk2_rsp_sessions(c, rsp, rlen, TK2_CC_UNSEAL, 0, s, 1, &why);
	CHECK_EQ(rc, 0);
	if (rc)
		printf("# unseal: rc 0x%x %s\n", rc, why);
	if (rc || tk2_rsp_unseal(rsp, rlen, &out) || out.len != 32 ||
	    memcmp(out.p, secret, 32)) {
		printf("# case 6: Unseal failed\n");
		return tk_test_done() | 1;
	}
	printf("# case 6: Unseal in the session, outData encrypted, key back\n");

	tk2_cmd_flush(&b, cmd, BUF, item);
	xfer(cmd, rsp);
	pin_policy(c, parent, &esalt, salt);
	tk2_cmd_flush(&b, cmd, BUF, parent);
	xfer(cmd, rsp);
	rsa_salt(c);
	hierarchy_hmac(c);
	close(fd);
	BN_free(bx);
	BN_free(by);
	BN_free(d);
	BN_free(ord);
	BN_free(x);
	BN_free(y);
	EC_POINT_free(q);
	EC_POINT_free(e);
	EC_POINT_free(zp);
	EC_GROUP_free(g);
	ossl_done();
	return tk_test_done();
}
