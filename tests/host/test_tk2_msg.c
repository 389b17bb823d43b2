// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_msg.c. Commands against byte layouts written
 * out by hand from TPM 2.0 Library Part 3 (and Part 2 for the structures);
 * responses: real ones of swtpm (tk2_fixtures.h), then every way to make
 * them inconsistent (sizes, parameterSize, the authorisation area, tags),
 * each parsed from an exact-size heap copy so that ASan sees overreads.
 */
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk2_msg.h"

static void expect(int got, int want, const char *what, unsigned int k)
{
	char d[160];

	snprintf(d, sizeof(d), "%s [%u]: got %d, want %d", what, k, got, want);
	tk_check(got == want, __FILE__, __LINE__, d);
}

/* ---- commands ---- */

typedef int (*build_fn)(struct tk_cmd_buf *b, u8 *buf, u32 size);

/* The builder writes @want exactly, and refuses every smaller buffer. */
static void check_build(build_fn fn, const u8 *want, u32 n, const char *what)
{
	struct tk_cmd_buf b;
	unsigned int size, bad = 0;
	u8 *buf;

	buf = malloc(n);
	expect(fn(&b, buf, n), 0, what, n);
	CHECK_EQ(b.len, n);
	CHECK_MEM(buf, want, n);
	free(buf);
	for (size = 0; size < n; size++) {
		buf = malloc(size ? size : 1);
		if (fn(&b, buf, size) != -E2BIG)
			bad++;
		free(buf);
	}
	expect(bad, 0, what, 0);
}

static const u8 key32[32] = {
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a,
	0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55,
	0x56, 0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f,
};

static int build_create(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	static const u8 pol[32] = { [0] = 0xaa, [31] = 0xbb };
	struct tk2_create_in in = {
		.parent = 0x81000001,
		.parent_auth = { .handle = TK2_RS_PW, .value = (const u8 *)"pw",
				 .len = 2 },
		.user_auth = (const u8 *)"hello",
		.user_auth_len = 5,
		.data = key32,
		.data_len = 32,
		.name_alg = TK2_ALG_SHA256,
		.attrs = TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT,
		.policy = pol,
		.policy_len = 32,
	};

	return tk2_cmd_create(b, buf, size, &in);
}

static void test_cmd_create(void)
{
	static const u8 want[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x7e, 0x00, 0x00, 0x01, 0x53,
		0x81, 0x00, 0x00, 0x01,			/* parentHandle */
		0x00, 0x00, 0x00, 0x0b,			/* authorizationSize */
		0x40, 0x00, 0x00, 0x09, 0x00, 0x00,	/* TPM_RS_PW, nonce */
		0x00, 0x00, 0x02, 'p', 'w',		/* attrs, hmac */
		0x00, 0x29,				/* inSensitive size */
		0x00, 0x05, 'h', 'e', 'l', 'l', 'o',	/* userAuth */
		0x00, 0x20,				/* data */
		0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
		0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53,
		0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c, 0x5d,
		0x5e, 0x5f,
		0x00, 0x2e,				/* inPublic size */
		0x00, 0x08, 0x00, 0x0b,			/* keyedhash, sha256 */
		0x00, 0x00, 0x00, 0x12,			/* fixedTPM|fixedParent */
		0x00, 0x20,				/* authPolicy */
		0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xbb,
		0x00, 0x10,				/* scheme: TPM_ALG_NULL */
		0x00, 0x00,				/* unique */
		0x00, 0x00,				/* outsideInfo */
		0x00, 0x00, 0x00, 0x00,			/* creationPCR */
	};

	check_build(build_create, want, sizeof(want), "create");
}

static int build_load(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	static const struct tk2_auth a = { .handle = TK2_RS_PW };

	return tk2_cmd_load(b, buf, size, 0x80000000, &a,
			     (const u8 *)"\x00\x02\xaa\xbb", 4,
			     (const u8 *)"\x00\x01\xcc", 3);
}

static void test_cmd_load(void)
{
	static const u8 want[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x01, 0x57,
		0x80, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x09, 0x40, 0x00, 0x00, 0x09, 0x00, 0x00,
		0x00, 0x00, 0x00,
		0x00, 0x02, 0xaa, 0xbb,			/* inPrivate, as given */
		0x00, 0x01, 0xcc,			/* inPublic, as given */
	};

	check_build(build_load, want, sizeof(want), "load");
}

static int build_unseal(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	static const struct tk2_auth a = {
		.handle = 0x03000001, .attrs = TK2_SA_CONTINUE,
		.value = (const u8 *)"\x01\x02\x03", .len = 3,
	};

	return tk2_cmd_unseal(b, buf, size, 0x80000002, &a);
}

static void test_cmd_unseal(void)
{
	static const u8 want[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x1e, 0x00, 0x00, 0x01, 0x5e,
		0x80, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x0c, 0x03, 0x00, 0x00, 0x01, 0x00, 0x00,
		0x01, 0x00, 0x03, 0x01, 0x02, 0x03,
	};

	check_build(build_unseal, want, sizeof(want), "unseal");
}

static int build_flush(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	return tk2_cmd_flush(b, buf, size, 0x03000000);
}

static int build_read_public(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	return tk2_cmd_read_public(b, buf, size, 0x81000001);
}

static void test_cmd_flush_read_public(void)
{
	static const u8 flush[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x01, 0x65,
		0x03, 0x00, 0x00, 0x00,
	};
	static const u8 rp[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x01, 0x73,
		0x81, 0x00, 0x00, 0x01,
	};

	check_build(build_flush, flush, sizeof(flush), "flush");
	check_build(build_read_public, rp, sizeof(rp), "read public");
}

static int build_srk(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	static const struct tk2_auth a = { .handle = TK2_RS_PW };

	return tk2_cmd_create_srk(b, buf, size, TK2_RH_OWNER, &a);
}

/* TCG TPM v2.0 Provisioning Guidance: the SRK template, ECC NIST P-256. */
static void test_cmd_create_srk(void)
{
	static const u8 want[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x43, 0x00, 0x00, 0x01, 0x31,
		0x40, 0x00, 0x00, 0x01,			/* TPM_RH_OWNER */
		0x00, 0x00, 0x00, 0x09, 0x40, 0x00, 0x00, 0x09, 0x00, 0x00,
		0x00, 0x00, 0x00,
		0x00, 0x04, 0x00, 0x00, 0x00, 0x00,	/* inSensitive */
		0x00, 0x1a,				/* inPublic size */
		0x00, 0x23, 0x00, 0x0b,			/* ECC, SHA-256 */
		0x00, 0x03, 0x04, 0x72,			/* the SRK attributes */
		0x00, 0x00,				/* authPolicy */
		0x00, 0x06, 0x00, 0x80, 0x00, 0x43,	/* AES-128-CFB */
		0x00, 0x10,				/* scheme */
		0x00, 0x03,				/* NIST P-256 */
		0x00, 0x10,				/* kdf */
		0x00, 0x00, 0x00, 0x00,			/* unique: empty x, y */
		0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
	};

	check_build(build_srk, want, sizeof(want), "create srk");
}

static int build_start(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	return tk2_cmd_start_policy(b, buf, size, key32, 20, TK2_ALG_SHA1);
}

static void test_cmd_start_policy(void)
{
	static const u8 want[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x2f, 0x00, 0x00, 0x01, 0x76,
		0x40, 0x00, 0x00, 0x07, 0x40, 0x00, 0x00, 0x07,
		0x00, 0x14, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
		0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51,
		0x52, 0x53,				/* nonceCaller */
		0x00, 0x00,				/* encryptedSalt */
		0x01,					/* TPM_SE_POLICY */
		0x00, 0x10,				/* symmetric: NULL */
		0x00, 0x04,				/* authHash */
	};

	check_build(build_start, want, sizeof(want), "start session");
}

static int build_policy(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	return tk2_cmd_policy(b, buf, size, TK2_CC_POLICY_PCR, 0x03000000,
			       (const u8 *)"\x00\x00\x00\x00\x00\x01\x00\x0b"
			       "\x03\x00\x00\x01", 12);
}

static int build_pcr_read(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	static const struct tk2_pcrs sel = { TK2_ALG_SHA256, 0x810081 };

	return tk2_cmd_pcr_read(b, buf, size, &sel);
}

static void test_cmd_policy_pcr_read(void)
{
	static const u8 policy[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x01, 0x7f,
		0x03, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x0b, 0x03, 0x00,
		0x00, 0x01,
	};
	static const u8 pcr[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x01, 0x7e,
		0x00, 0x00, 0x00, 0x01, 0x00, 0x0b, 0x03, 0x81, 0x00, 0x81,
	};

	check_build(build_policy, policy, sizeof(policy), "policy");
	check_build(build_pcr_read, pcr, sizeof(pcr), "pcr read");
}

/* ---- responses ---- */

typedef int (*parse_fn)(const u8 *rsp, u32 size);

static int parse_create(const u8 *r, u32 n)
{
	struct tk_span priv, pub;
	int rc = tk2_rsp_create(r, n, &priv, &pub);

	if (!rc && (priv.p < r || priv.p + priv.len > r + n ||
		    pub.p < r || pub.p + pub.len > r + n))
		return -1000;
	return rc;
}

static int parse_load(const u8 *r, u32 n)
{
	u32 h;

	return tk2_rsp_load(r, n, &h);
}

static int parse_unseal(const u8 *r, u32 n)
{
	struct tk_span d;
	int rc = tk2_rsp_unseal(r, n, &d);

	if (!rc && (d.p < r || d.p + d.len > r + n))
		return -1000;
	return rc;
}

/* The public area lies inside the response, after its TPM2B size. */
static int public_inside(const u8 *r, u32 n, const struct tk2_public_area *pub)
{
	if (pub->area.p < r + 2 || pub->area.p + pub->area.len > r + n ||
	    pub->area.len < 8 ||
	    get_unaligned_be16(pub->area.p - 2) != pub->area.len ||
	    get_unaligned_be16(pub->area.p) != pub->type)
		return -1000;
	return 0;
}

static int parse_primary(const u8 *r, u32 n)
{
	struct tk2_public_area pub;
	u32 h;
	int rc = tk2_rsp_create_primary(r, n, &h, &pub);

	return rc ?: public_inside(r, n, &pub);
}

static int parse_read_public(const u8 *r, u32 n)
{
	struct tk2_public_area pub;
	int rc = tk2_rsp_read_public(r, n, &pub);

	return rc ?: public_inside(r, n, &pub);
}

static int parse_get_random(const u8 *r, u32 n)
{
	struct tk_span d;
	int rc = tk2_rsp_get_random(r, n, &d);

	if (!rc && (d.p < r || d.p + d.len > r + n))
		return -1000;
	return rc;
}

static int parse_start(const u8 *r, u32 n)
{
	u32 h;

	return tk2_rsp_start_session(r, n, &h);
}

static const struct tk2_pcrs sel_partial = { TK2_ALG_SHA256, 0x3ff };
static const struct tk2_pcrs sel_one = { TK2_ALG_SHA256, 1 << 16 };

static int parse_pcr_partial(const u8 *r, u32 n)
{
	struct tk2_pcr_values v;
	int rc = tk2_rsp_pcr_read(r, n, &sel_partial, &v);

	for (unsigned int i = 0; !rc && i < v.count; i++)
		if (v.digest[i] < r || v.digest[i] + 32 > r + n)
			return -1000;
	return rc;
}

static int parse_pcr_one(const u8 *r, u32 n)
{
	struct tk2_pcr_values v;

	return tk2_rsp_pcr_read(r, n, &sel_one, &v);
}

static int call(parse_fn fn, const u8 *r, u32 n)
{
	u8 *c = tk_dup(r, n);
	int rc = fn(c, n);

	free(c);
	return rc;
}

static void test_rsp_real(void)
{
	struct tk2_pcr_values v;
	struct tk_span priv, pub, d;
	struct tk2_public_area pa;
	u32 n, h;
	u8 *r;

	r = tk_unhex(rsp_create_hex, &n);
	CHECK_EQ(tk2_rsp_create(r, n, &priv, &pub), 0);
	CHECK_EQ(priv.len, 2 + 0x9e);
	CHECK(priv.p == r + 14);
	CHECK_EQ(pub.len, 2 + 0x2e);
	CHECK(pub.p == r + 14 + priv.len);
	CHECK_EQ(tk2_private_check(priv.p, priv.len), 0);
	free(r);

	r = tk_unhex(rsp_load_hex, &n);
	CHECK_EQ(tk2_rsp_load(r, n, &h), 0);
	CHECK_EQ(h, 0x80000001);
	free(r);

	r = tk_unhex(rsp_unseal_hex, &n);
	CHECK_EQ(tk2_rsp_unseal(r, n, &d), 0);
	CHECK_EQ(d.len, 32);
	CHECK_MEM(d.p, key32, 32);
	free(r);

	r = tk_unhex(rsp_create_primary_hex, &n);
	CHECK_EQ(tk2_rsp_create_primary(r, n, &h, &pa), 0);
	CHECK_EQ(h, 0x80000000);
	/* outPublic: after the handle, parameterSize and its own size */
	CHECK(pa.area.p == r + 20);
	CHECK_EQ(pa.area.len, get_unaligned_be16(r + 18));
	CHECK_EQ(pa.type, TK2_ALG_ECC);
	CHECK_EQ(pa.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(tk2_rsp_handle(r, n, &h), 0);
	CHECK_EQ(h, 0x80000000);
	free(r);

	r = tk_unhex(rsp_read_public_hex, &n);
	CHECK_EQ(tk2_rsp_read_public(r, n, &pa), 0);
	CHECK_EQ(pa.type, TK2_ALG_ECC);
	CHECK_EQ(pa.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(pa.attrs, 0x00030472);
	CHECK(pa.area.p == r + 12);
	CHECK_EQ(pa.area.len, get_unaligned_be16(r + 10));
	free(r);

	r = tk_unhex(rsp_get_random_hex, &n);
	CHECK_EQ(tk2_rsp_get_random(r, n, &d), 0);
	CHECK_EQ(d.len, 4);
	CHECK(d.p == r + 12);
	free(r);

	r = tk_unhex(rsp_pcr_read_partial_hex, &n);
	CHECK_EQ(tk2_rsp_pcr_read(r, n, &sel_partial, &v), 0);
	CHECK_EQ(v.got, 0xff);		/* eight PCRs a response */
	CHECK_EQ(v.count, 8);
	CHECK_EQ(tk2_rsp_pcr_read(r, n, &sel_one, &v), -EBADMSG);
	free(r);

	r = tk_unhex(rsp_pcr_read_one_hex, &n);
	CHECK_EQ(tk2_rsp_pcr_read(r, n, &sel_one, &v), 0);
	CHECK_EQ(v.got, 1 << 16);
	CHECK_EQ(v.count, 1);
	free(r);

	r = tk_unhex(rsp_start_session_hex, &n);
	CHECK_EQ(tk2_rsp_start_session(r, n, &h), 0);
	CHECK_EQ(h >> 24, TK2_HT_POLICY_SESSION);
	free(r);

	r = tk_unhex(rsp_policy_pcr_hex, &n);
	CHECK_EQ(tk2_rsp_empty(r, n), 0);
	free(r);

	/* A TPM error is returned as it is, whatever parser looks at it. */
	r = tk_unhex(rsp_error_handle_hex, &n);
	CHECK_EQ(tk2_rsp_load(r, n, &h), 0x18b);
	CHECK_EQ(tk2_rsp_create(r, n, &priv, &pub), 0x18b);
	CHECK_EQ(tk2_rsp_empty(r, n), 0x18b);
	CHECK_EQ(tk2_rc_base(0x18b), TK2_RC_HANDLE);
	CHECK_EQ(tk2_rc_index(0x18b), 1);
	CHECK_EQ(tk2_rc_base(0x2c3), TK2_RC_HASH);
	CHECK_EQ(tk2_rc_base(0x922), 0x922);
	free(r);
}

static const struct {
	const char *name;
	const char *hex;
	parse_fn fn;
	int params;	/* a parameterSize field follows the handles */
	u32 handles;
} rsps[] = {
	{ "create", rsp_create_hex, parse_create, 1, 0 },
	{ "load", rsp_load_hex, parse_load, 1, 1 },
	{ "unseal", rsp_unseal_hex, parse_unseal, 1, 0 },
	{ "create primary", rsp_create_primary_hex, parse_primary, 1, 1 },
	{ "read public", rsp_read_public_hex, parse_read_public, 0, 0 },
	{ "pcr read 8", rsp_pcr_read_partial_hex, parse_pcr_partial, 0, 0 },
	{ "pcr read 1", rsp_pcr_read_one_hex, parse_pcr_one, 0, 0 },
	{ "start session", rsp_start_session_hex, parse_start, 0, 0 },
	{ "policy", rsp_policy_pcr_hex, tk2_rsp_empty, 0, 0 },
	{ "get random", rsp_get_random_hex, parse_get_random, 0, 0 },
};

static void set_size(u8 *r, u32 n)
{
	put_unaligned_be32(n, r + 2);
}

/*
 * Cut short (header size adjusted), one byte more, header size beyond
 * the buffer, a changed tag, parameterSize off by one either way.
 */
static void test_rsp_inconsistent(void)
{
	unsigned int i, bad;
	u32 n, cut, ps;
	u8 *r, *m;

	for (i = 0; i < ARRAY_SIZE(rsps); i++) {
		r = tk_unhex(rsps[i].hex, &n);
		expect(call(rsps[i].fn, r, n), 0, rsps[i].name, n);

		m = malloc(n + 1);
		for (cut = 0, bad = 0; cut < n; cut++) {
			memcpy(m, r, cut);
			if (cut >= 6)
				set_size(m, cut);
			if (call(rsps[i].fn, m, cut) != -EBADMSG)
				bad++;
		}
		expect(bad, 0, rsps[i].name, 1);

		memcpy(m, r, n);
		m[n] = 0;
		set_size(m, n + 1);
		expect(call(rsps[i].fn, m, n + 1), -EBADMSG, rsps[i].name, 2);

		memcpy(m, r, n);
		set_size(m, n + 1);
		expect(call(rsps[i].fn, m, n), -EBADMSG, rsps[i].name, 3);

		memcpy(m, r, n);
		m[1] ^= 0x03;			/* 8001 <-> 8002 */
		expect(call(rsps[i].fn, m, n), -EBADMSG, rsps[i].name, 4);

		if (rsps[i].params) {
			u32 at = 10 + 4 * rsps[i].handles;

			ps = get_unaligned_be32(r + at);
			memcpy(m, r, n);
			put_unaligned_be32(ps + 1, m + at);
			expect(call(rsps[i].fn, m, n), -EBADMSG, rsps[i].name, 5);
			put_unaligned_be32(ps - 1, m + at);
			expect(call(rsps[i].fn, m, n), -EBADMSG, rsps[i].name, 6);
			put_unaligned_be32(0xffffffff, m + at);
			expect(call(rsps[i].fn, m, n), -EBADMSG, rsps[i].name, 7);
			/* no authorisation area at all */
			memcpy(m, r, 10 + 4 * rsps[i].handles + 4 + ps);
			set_size(m, 10 + 4 * rsps[i].handles + 4 + ps);
			expect(call(rsps[i].fn, m, 10 + 4 * rsps[i].handles + 4 + ps),
			       -EBADMSG, rsps[i].name, 8);
		}
		free(m);
		free(r);
	}
}

/* Any byte changed: an error, or a success whose spans stay inside. */
static void test_rsp_every_byte(void)
{
	unsigned int i, bad = 0;
	u32 n, at;
	u8 *r;

	for (i = 0; i < ARRAY_SIZE(rsps); i++) {
		r = tk_unhex(rsps[i].hex, &n);
		for (at = 0; at < n; at++) {
			r[at] ^= 0xff;
			if (call(rsps[i].fn, r, n) == -1000)
				bad++;
			r[at] ^= 0x80;
			if (call(rsps[i].fn, r, n) == -1000)
				bad++;
			r[at] ^= 0x7f;
		}
		free(r);
	}
	CHECK_EQ(bad, 0);
}

/*
 * The parameters of a response in sessions (Unseal's outData, GetRandom's
 * randomBytes), once tk2_rsp_sessions() checked it: one TPM2B, exactly.
 */
static void test_rsp_params(void)
{
	static const u8 rsp[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x19, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x06,			/* parameterSize */
		0x00, 0x04, 0xde, 0xad, 0xbe, 0xef,	/* the TPM2B */
		0x00, 0x00, 0x01, 0x00, 0x00,		/* one session */
	};
	struct tk_span d;
	u8 *m;

	m = tk_dup(rsp, sizeof(rsp));
	CHECK_EQ(tk2_rsp_unseal_params(m, sizeof(rsp), &d), 0);
	CHECK(d.p == m + 16);
	CHECK_EQ(d.len, 4);
	CHECK_EQ(tk2_rsp_get_random_params(m, sizeof(rsp), &d), 0);
	CHECK(d.p == m + 16);
	CHECK_EQ(d.len, 4);

	/* a byte left over in the parameters */
	m[13] = 0x07;
	CHECK_EQ(tk2_rsp_unseal_params(m, sizeof(rsp), &d), -EBADMSG);
	/* the TPM2B longer than the parameters */
	m[13] = 0x05;
	CHECK_EQ(tk2_rsp_get_random_params(m, sizeof(rsp), &d), -EBADMSG);
	/* parameterSize beyond the response */
	m[13] = 0x0c;
	CHECK_EQ(tk2_rsp_unseal_params(m, sizeof(rsp), &d), -EBADMSG);
	m[13] = 0x06;
	/* without sessions: not a response in sessions */
	m[1] = 0x01;
	CHECK_EQ(tk2_rsp_unseal_params(m, sizeof(rsp), &d), -EBADMSG);
	m[1] = 0x02;
	/* a TPM error comes back as it is */
	m[9] = 0x22;
	CHECK_EQ(tk2_rsp_get_random_params(m, sizeof(rsp), &d), 0x22);
	CHECK_EQ(tk2_rsp_handle(m, sizeof(rsp), &d.len), 0x22);
	free(m);

	/* a handle: at least four bytes after the header */
	m = tk_dup(rsp, 13);
	put_unaligned_be32(13, m + 2);
	CHECK_EQ(tk2_rsp_handle(m, 13, &d.len), -EBADMSG);
	free(m);
}

/* The one TPM2B writer and reader: size, contents, bounds, skipping. */
static void test_tpm2b(void)
{
	static const u8 want[] = { 0x00, 0x03, 'a', 'b', 'c', 0x00, 0x00 };
	struct tk_cmd_buf b;
	struct tk_rsp_buf r;
	struct tk_span s;
	u8 buf[sizeof(want)];

	tk_cmd_init(&b, buf, sizeof(buf));
	tk2_put_tpm2b(&b, "abc", 3);
	tk2_put_tpm2b(&b, NULL, 0);
	CHECK(!b.bad);
	CHECK_EQ(b.len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	tk_cmd_init(&b, buf, 4);
	tk2_put_tpm2b(&b, "abc", 3);
	CHECK(b.bad);

	r = (struct tk_rsp_buf){ .data = want, .len = sizeof(want) };
	CHECK(tk2_take_tpm2b(&r, 3, &s));
	CHECK(s.p == want + 2);
	CHECK_EQ(s.len, 3);
	CHECK(tk2_take_tpm2b(&r, 0, &s));
	CHECK_EQ(s.len, 0);
	CHECK_EQ(tk_rsp_end(&r), 0);

	/* skipped: the reader moves on all the same */
	r = (struct tk_rsp_buf){ .data = want, .len = sizeof(want) };
	CHECK(tk2_take_tpm2b(&r, 3, NULL));
	CHECK_EQ(r.pos, 5);

	/* longer than @max: refused, and it sticks */
	r = (struct tk_rsp_buf){ .data = want, .len = sizeof(want) };
	CHECK(!tk2_take_tpm2b(&r, 2, &s));
	CHECK_EQ(s.len, 0);
	CHECK(!tk2_take_tpm2b(&r, 0xffff, &s));
	CHECK_EQ(tk_rsp_end(&r), -EBADMSG);

	/* not all there */
	r = (struct tk_rsp_buf){ .data = want, .len = 4 };
	CHECK(!tk2_take_tpm2b(&r, 0xffff, &s));
	CHECK_EQ(s.len, 0);
}

static void test_cmd_get_random(void)
{
	static const u8 want[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x01, 0x7b,
		0x00, 0x20,
	};
	struct tk_cmd_buf b;
	u8 buf[sizeof(want)];

	CHECK_EQ(tk2_cmd_get_random(&b, buf, sizeof(buf), 32), 0);
	CHECK_MEM(buf, want, sizeof(want));
	CHECK_EQ(tk2_cmd_get_random(&b, buf, sizeof(buf) - 1, 32), -E2BIG);
}

/* Heap copies, exact size, so that ASan sees an overread. */
static int ctx_save_parse(const u8 *rsp, u32 n, u32 handle,
			  struct tk_span *ctx, u8 **copy)
{
	*copy = malloc(n);
	memcpy(*copy, rsp, n);
	return tk2_rsp_context_save(*copy, n, handle, ctx);
}

/*
 * ContextSave and ContextLoad of a kept session: the TPMS_CONTEXT kept
 * whole, its savedHandle the session's, nothing over or under.
 */
static void test_context(void)
{
	static const u8 save[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x01, 0x62,
		0x02, 0x00, 0x00, 0x00,
	};
	/* sequence 0x1234, savedHandle, hierarchy TPM_RH_NULL, blob 4 bytes */
	static const u8 rsp[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x26, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34,
		0x02, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x07,
		0x00, 0x04, 0xde, 0xad, 0xbe, 0xef,
		/* the header says 0x26: six bytes more than the context */
		0, 0, 0, 0, 0, 0,
	};
	static const u8 load_rsp[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x00,
		0x02, 0x00, 0x00, 0x00,
	};
	u8 good[32], cmd[64], *c;
	struct tk_cmd_buf b;
	struct tk_span ctx;
	u32 h = 0, n;

	CHECK_EQ(tk2_cmd_context_save(&b, cmd, sizeof(cmd), 0x02000000), 0);
	CHECK_MEM(cmd, save, sizeof(save));

	/* a well-formed response: 10 + 22 bytes */
	memcpy(good, rsp, sizeof(good));
	good[5] = sizeof(good);
	CHECK_EQ(ctx_save_parse(good, sizeof(good), 0x02000000, &ctx, &c), 0);
	CHECK_EQ(ctx.len, 22);
	CHECK_MEM(ctx.p, good + 10, 22);

	/* ContextLoad sends it back as it was */
	CHECK_EQ(tk2_cmd_context_load(&b, cmd, sizeof(cmd), ctx.p, ctx.len), 0);
	CHECK_EQ(b.len, 32);
	CHECK_EQ(cmd[9], 0x61);
	CHECK_MEM(cmd + 10, good + 10, 22);
	CHECK_EQ(tk2_cmd_context_load(&b, cmd, 31, ctx.p, ctx.len), -E2BIG);
	free(c);

	/* another savedHandle, bytes left over, one short, the TPM refused */
	CHECK_EQ(ctx_save_parse(good, sizeof(good), 0x02000001, &ctx, &c), -EBADMSG);
	free(c);
	CHECK_EQ(ctx_save_parse(rsp, sizeof(rsp), 0x02000000, &ctx, &c), -EBADMSG);
	free(c);
	good[5] = sizeof(good) - 1;
	CHECK_EQ(ctx_save_parse(good, sizeof(good) - 1, 0x02000000, &ctx, &c), -EBADMSG);
	free(c);
	memcpy(good, rsp, 10);
	good[5] = 10;
	good[8] = 0x09;
	good[9] = 0x03;		/* TPM_RC_SESSION_MEMORY */
	CHECK_EQ(ctx_save_parse(good, 10, 0x02000000, &ctx, &c), 0x903);
	free(c);

	/* a context over TK2_CONTEXT_MAX is refused */
	n = 10 + 18 + TK2_CONTEXT_MAX;
	c = calloc(1, n);
	memcpy(c, rsp, 26);
	c[2] = n >> 24;
	c[3] = n >> 16;
	c[4] = n >> 8;
	c[5] = n;
	c[26] = TK2_CONTEXT_MAX >> 8;
	c[27] = TK2_CONTEXT_MAX & 0xff;
	CHECK_EQ(tk2_rsp_context_save(c, n, 0x02000000, &ctx), -EBADMSG);
	free(c);

	/* swtpm's own: ContextSave of an HMAC session, then ContextLoad of it */
	c = tk_unhex(rsp_context_save_hex, &n);
	CHECK_EQ(tk2_rsp_context_save(c, n, 0x02000000, &ctx), 0);
	CHECK_EQ(ctx.len, n - 10);
	CHECK(ctx.p == c + 10);
	CHECK_EQ(tk2_rsp_context_save(c, n, 0x03000000, &ctx), -EBADMSG);
	free(c);
	c = tk_unhex(rsp_context_load_hex, &n);
	CHECK_EQ(tk2_rsp_context_load(c, n, &h), 0);
	CHECK_EQ(h, 0x02000000);
	free(c);

	/* ContextLoad: the handle, exactly */
	CHECK_EQ(tk2_rsp_context_load(load_rsp, sizeof(load_rsp), &h), 0);
	CHECK_EQ(h, 0x02000000);
	memcpy(good, load_rsp, sizeof(load_rsp));
	good[5] = 0x0d;
	CHECK_EQ(tk2_rsp_context_load(good, 0x0d, &h), -EBADMSG);
	memcpy(good, load_rsp, sizeof(load_rsp));
	good[5] = 0x0f;
	good[14] = 0;
	CHECK_EQ(tk2_rsp_context_load(good, 0x0f, &h), -EBADMSG);
	memcpy(good, load_rsp, 10);
	good[5] = 10;
	good[8] = 0x01;
	good[9] = 0x8b;		/* TPM_RC_HANDLE: flushed by someone */
	CHECK_EQ(tk2_rsp_context_load(good, 10, &h), 0x18b);

	/* the warnings that leave a kept session saved */
	CHECK(tk2_rc_is_warn(0x903));
	CHECK(tk2_rc_is_warn(TK2_RC_REFERENCE_S0));
	CHECK(!tk2_rc_is_warn(0x18b));
	CHECK(!tk2_rc_is_warn(0x98e));	/* format one, session 1: AUTH_FAIL */
}

static void test_rsp_pcr_read_checks(void)
{
	struct tk2_pcr_values v;
	u32 n;
	u8 *r = tk_unhex(rsp_pcr_read_one_hex, &n), *m = tk_dup(r, n);

	/* A PCR we did not ask for. */
	m[19] = 0x02;
	CHECK_EQ(tk2_rsp_pcr_read(m, n, &sel_one, &v), -EBADMSG);
	memcpy(m, r, n);
	/* Another bank than asked for. */
	m[17] = 0x04;
	CHECK_EQ(tk2_rsp_pcr_read(m, n, &sel_one, &v), -EBADMSG);
	memcpy(m, r, n);
	/* A count of digests that is not the count of PCRs. */
	m[25] = 2;
	CHECK_EQ(tk2_rsp_pcr_read(m, n, &sel_one, &v), -EBADMSG);
	memcpy(m, r, n);
	/* A digest of the wrong size. */
	m[27] = 0x14;
	CHECK_EQ(tk2_rsp_pcr_read(m, n, &sel_one, &v), -EBADMSG);
	free(m);
	free(r);
}

static void test_public_parse(void)
{
	struct tk2_public p;
	u8 pub[200];
	u32 n;
	u8 *r = tk_unhex(rsp_create_hex, &n);
	u32 pl = 2 + get_unaligned_be16(r + 14 + 2 + 0x9e);

	memcpy(pub, r + 14 + 2 + 0x9e, pl);
	CHECK_EQ(tk2_public_parse(pub, pl, &p), 0);
	CHECK_EQ(p.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(p.attrs, TK2_OA_USERWITHAUTH);
	CHECK_EQ(tk2_public_parse(pub, pl - 1, &p), -EINVAL);
	CHECK_EQ(tk2_public_parse(pub, 0, &p), -EINVAL);
	CHECK_EQ(tk2_public_parse(pub, 1, &p), -EINVAL);
	pub[3] = 0x23;				/* an ECC key */
	CHECK_EQ(tk2_public_parse(pub, pl, &p), -EINVAL);
	pub[3] = 0x08;
	pub[5] = 0x99;				/* unknown name algorithm */
	CHECK_EQ(tk2_public_parse(pub, pl, &p), -EINVAL);
	pub[5] = 0x0b;
	pub[13] = 0x05;				/* an HMAC scheme */
	CHECK_EQ(tk2_public_parse(pub, pl, &p), -EINVAL);
	pub[13] = 0x10;
	CHECK_EQ(tk2_public_parse(pub, pl, &p), 0);

	CHECK_EQ(tk2_private_check(r + 14, 2 + 0x9e), 0);
	CHECK_EQ(tk2_private_check(r + 14, 2 + 0x9e - 1), -EINVAL);
	CHECK_EQ(tk2_private_check((const u8 *)"\x00\x02\x00\x00", 4), -EINVAL);
	CHECK_EQ(tk2_private_check((const u8 *)"\x00\x03\x00\x01\x00", 5), -EINVAL);
	CHECK_EQ(tk2_private_check((const u8 *)"\x00\x04\x00\x01\x00\xaa", 6), 0);
	free(r);
}

static void test_digest_sizes(void)
{
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_SHA1), 20);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_SHA256), 32);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_SHA384), 48);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_SHA512), 64);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_SM3_256), 32);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_NULL), 0);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_KEYEDHASH), 0);
}

static int build_da_state(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	return tk2_cmd_get_da_state(b, buf, size);
}

/* GetCapability(TPM_PROPERTIES, TPM_PT_LOCKOUT_COUNTER, 2), both ways. */
static void test_da_state(void)
{
	static const u8 cmd[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x16, 0x00, 0x00, 0x01, 0x7a,
		0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x02, 0x0e,
		0x00, 0x00, 0x00, 0x02,
	};
	/* as swtpm answers: counter 3 of maxTries 32, moreData 1 */
	static const u8 rsp[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x23, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x02, 0x0e, 0x00, 0x00, 0x00, 0x03,
		0x00, 0x00, 0x02, 0x0f, 0x00, 0x00, 0x00, 0x20,
	};
	static const unsigned int bad_at[] = { 14, 18, 22, 30 };
	struct tk2_da_state da = { 0 };
	unsigned int i, n, wrong = 0;
	u8 *m;

	check_build(build_da_state, cmd, sizeof(cmd), "get da state");
	m = tk_dup(rsp, sizeof(rsp));
	CHECK_EQ(tk2_rsp_get_da_state(m, sizeof(rsp), &da), 0);
	CHECK_EQ(da.counter, 3);
	CHECK_EQ(da.max_tries, 32);
	/* another capability, count, or property than asked: refused */
	for (i = 0; i < ARRAY_SIZE(bad_at); i++) {
		memcpy(m, rsp, sizeof(rsp));
		m[bad_at[i]] ^= 1;
		expect(tk2_rsp_get_da_state(m, sizeof(rsp), &da), -EBADMSG,
		       "da state, a field changed", bad_at[i]);
	}
	free(m);
	/* every shorter response (its size field too): refused */
	for (n = TK_TPM_HEADER_SIZE; n < sizeof(rsp); n++) {
		m = tk_dup(rsp, n);
		set_size(m, n);
		if (tk2_rsp_get_da_state(m, n, &da) != -EBADMSG)
			wrong++;
		free(m);
	}
	expect(wrong, 0, "da state, truncated", 0);
	/* the TPM's refusal is its return code */
	m = tk_dup(rsp, 10);
	set_size(m, 10);
	m[8] = 0x01;
	m[9] = 0x01;
	CHECK_EQ(tk2_rsp_get_da_state(m, 10, &da), 0x101);
	free(m);
}

int main(void)
{
	RUN(test_cmd_create);
	RUN(test_cmd_load);
	RUN(test_cmd_unseal);
	RUN(test_cmd_flush_read_public);
	RUN(test_cmd_create_srk);
	RUN(test_cmd_start_policy);
	RUN(test_cmd_policy_pcr_read);
	RUN(test_rsp_real);
	RUN(test_rsp_inconsistent);
	RUN(test_rsp_every_byte);
	RUN(test_rsp_params);
	RUN(test_cmd_get_random);
	RUN(test_tpm2b);
	RUN(test_rsp_pcr_read_checks);
	RUN(test_context);
	RUN(test_public_parse);
	RUN(test_digest_sizes);
	RUN(test_da_state);
	return tk_test_done();
}
