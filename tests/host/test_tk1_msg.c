// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk1_msg.c against byte layouts written out by
 * hand from TPM Main Part 3 (Commands), version 1.2:
 *   TPM_OIAP   18.1  ordinal 0x0a, tag 0xc1; rsp authHandle nonceEven
 *   TPM_OSAP   18.2  ordinal 0x0b: entityType(2) entityValue(4)
 *                    nonceOddOSAP(20); rsp authHandle nonceEven nonceEvenOSAP
 *   TPM_Seal   10.1  ordinal 0x17, tag 0xc2: keyHandle encAuth(20)
 *                    pcrInfoSize pcrInfo inDataSize inData, one auth trailer;
 *                    rsp tag 0xc5: TPM_STORED_DATA, one auth trailer
 *   TPM_Unseal 10.2  ordinal 0x18, tag 0xc3: parentHandle TPM_STORED_DATA,
 *                    two auth trailers; rsp tag 0xc6: secretSize secret, two
 * Request auth trailer: authHandle(4) nonceOdd(20) continue(1) auth(20).
 * Response auth trailer: nonceEven(20) continue(1) auth(20).
 * Every parse runs on an exact-size heap copy, so ASan sees any overread.
 */
#include "tk_test.h"
#include "tk1_msg.h"

#define N20(b)	b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, \
		b + 9, b + 10, b + 11, b + 12, b + 13, b + 14, b + 15, b + 16, \
		b + 17, b + 18, b + 19

static const u8 nonce_a0[20] = { N20(0xa0) };
static const u8 nonce_c0[20] = { N20(0xc0) };

static u8 *dup(const u8 *p, size_t n)
{
	u8 *d = malloc(n ? n : 1);

	memcpy(d, p, n);
	return d;
}

static void expect(int got, int want, const char *what, unsigned int k)
{
	char d[128];

	snprintf(d, sizeof(d), "%s [%u]: got %d, want %d", what, k, got, want);
	tk_check(got == want, __FILE__, __LINE__, d);
}

/* ---- requests ---- */

static void test_build_oiap(void)
{
	static const u8 want[] = {
		0x00, 0xc1, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x0a,
	};
	struct tk_cmd_buf b;
	u8 *buf = malloc(sizeof(want));

	CHECK_EQ(tk1_build_oiap(&b, buf, sizeof(want)), 0);
	CHECK_EQ(b.len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	free(buf);

	buf = malloc(sizeof(want) - 1);
	CHECK_EQ(tk1_build_oiap(&b, buf, sizeof(want) - 1), -E2BIG);
	free(buf);
	CHECK_EQ(tk1_build_oiap(&b, NULL, 0), -E2BIG);
}

static void test_build_osap(void)
{
	static const u8 want[] = {
		0x00, 0xc1, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0x0b,
		0x00, 0x04,			/* entityType: TPM_ET_SRK */
		0x40, 0x00, 0x00, 0x00,		/* entityValue: TPM_KH_SRK */
		N20(0xc0),			/* nonceOddOSAP */
	};
	struct tk_cmd_buf b;
	unsigned int size;
	u8 *buf;

	for (size = 0; size <= sizeof(want); size++) {
		buf = malloc(size ? size : 1);
		expect(tk1_build_osap(&b, buf, size, TK1_ET_SRK, TK1_KH_SRK,
				       nonce_c0),
		       size == sizeof(want) ? 0 : -E2BIG, "osap size", size);
		if (size == sizeof(want)) {
			CHECK_EQ(b.len, 36);
			CHECK_MEM(buf, want, sizeof(want));
		}
		free(buf);
	}
}

static const struct tk1_auth_in auth1 = {
	.handle = 0x11223344,
	.nonce_odd = { N20(0x20) },
	.cont = 0,
	.hmac = { N20(0x40) },
};

static const struct tk1_auth_in auth2 = {
	.handle = 0x55667788,
	.nonce_odd = { N20(0x60) },
	.cont = 1,
	.hmac = { N20(0x80) },
};

#define AUTH1_BYTES							\
	0x11, 0x22, 0x33, 0x44, N20(0x20), 0x00, N20(0x40)
#define AUTH2_BYTES							\
	0x55, 0x66, 0x77, 0x88, N20(0x60), 0x01, N20(0x80)

static const u8 seal_cmd[] = {
	0x00, 0xc2,			/* TPM_TAG_RQU_AUTH1_COMMAND */
	0x00, 0x00, 0x00, 0x7a,		/* paramSize: 122 */
	0x00, 0x00, 0x00, 0x17,		/* TPM_ORD_Seal */
	0x81, 0x00, 0x00, 0x01,		/* keyHandle */
	N20(0xc0),			/* encAuth */
	0x00, 0x00, 0x00, 0x03,		/* pcrInfoSize */
	0xe1, 0xe2, 0xe3,		/* pcrInfo */
	0x00, 0x00, 0x00, 0x20,		/* inDataSize */
	N20(0x00), 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b,
	0x1c, 0x1d, 0x1e, 0x1f,		/* inData */
	AUTH1_BYTES,			/* authHandle nonceOdd cont pubAuth */
};

static const u8 seal_data[32] = {
	N20(0x00), 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b,
	0x1c, 0x1d, 0x1e, 0x1f,
};

static const u8 pcrinfo3[3] = { 0xe1, 0xe2, 0xe3 };

/* Build Seal into an exact heap buffer of @size; returns the first error. */
static int build_seal(u8 *buf, u32 size, struct tk_span *params,
		      struct tk_cmd_buf *b)
{
	int ret;

	ret = tk1_seal_params(b, buf, size, 0x81000001, nonce_c0, pcrinfo3,
			       sizeof(pcrinfo3), seal_data, sizeof(seal_data),
			       params);
	if (ret)
		return ret;
	tk1_append_auth(b, &auth1);
	return tk1_finish(b);
}

static void test_build_seal(void)
{
	struct tk_span params;
	struct tk_cmd_buf b;
	u8 *buf = malloc(sizeof(seal_cmd));

	CHECK_EQ(sizeof(seal_cmd), 122);
	CHECK_EQ(build_seal(buf, sizeof(seal_cmd), &params, &b), 0);
	CHECK_EQ(b.len, sizeof(seal_cmd));
	CHECK_MEM(buf, seal_cmd, sizeof(seal_cmd));
	/* The HMAC covers encAuth .. inData: after the keyHandle. */
	CHECK(params.p == buf + 14);
	CHECK_EQ(params.len, 20 + 4 + 3 + 4 + 32);
	free(buf);
}

/* Every buffer too small by 1..122 bytes fails, and writes within it only. */
static void test_build_seal_small(void)
{
	struct tk_span params;
	struct tk_cmd_buf b;
	unsigned int size;
	u8 *buf;

	for (size = 0; size < sizeof(seal_cmd); size++) {
		buf = malloc(size ? size : 1);
		expect(build_seal(buf, size, &params, &b), -E2BIG, "seal size",
		       size);
		free(buf);
	}
}

/* Huge lengths fail before a byte of the data is read. */
static void test_build_seal_huge(void)
{
	const u32 fit = 4096 - 10 - 4 - 20 - 4 - 1 - 4;
	struct tk_span params;
	struct tk_cmd_buf b;
	u8 *buf = malloc(4096);
	u8 *data = calloc(1, fit);
	u8 *one = malloc(1);

	CHECK_EQ(tk1_seal_params(&b, buf, 4096, 1, nonce_c0, one, 0xffffffff,
				  one, 1, &params), -E2BIG);
	CHECK_EQ(tk1_seal_params(&b, buf, 4096, 1, nonce_c0, one, 1, one,
				  0xffffffff, &params), -E2BIG);
	CHECK_EQ(tk1_seal_params(&b, buf, 4096, 1, nonce_c0, one, 1, one,
				  fit + 1, &params), -E2BIG);
	/* Parameters fill the buffer exactly: the auth trailer fails. */
	CHECK_EQ(tk1_seal_params(&b, buf, 4096, 1, nonce_c0, one, 1, data,
				  fit, &params), 0);
	CHECK_EQ(b.len, 4096);
	CHECK_EQ(params.len, 4096 - 14);
	tk1_append_auth(&b, &auth1);
	CHECK_EQ(b.len, 4096);
	CHECK_EQ(tk1_finish(&b), -E2BIG);
	free(one);
	free(data);
	free(buf);
}

static const u8 stored_data[] = {
	0x01, 0x01, 0x00, 0x00,		/* TPM_STRUCT_VER 1.1.0.0 */
	0x00, 0x00, 0x00, 0x02,		/* sealInfoSize */
	0xaa, 0xbb,			/* sealInfo */
	0x00, 0x00, 0x00, 0x04,		/* encDataSize */
	0xcc, 0xdd, 0xee, 0xff,		/* encData */
};

static const u8 unseal_cmd[] = {
	0x00, 0xc3,			/* TPM_TAG_RQU_AUTH2_COMMAND */
	0x00, 0x00, 0x00, 0x7a,		/* paramSize: 122 */
	0x00, 0x00, 0x00, 0x18,		/* TPM_ORD_Unseal */
	0x40, 0x00, 0x00, 0x00,		/* parentHandle */
	0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,
	0x00, 0x00, 0x00, 0x04, 0xcc, 0xdd, 0xee, 0xff,	/* inData */
	AUTH1_BYTES,			/* parentAuth trailer */
	AUTH2_BYTES,			/* dataAuth trailer */
};

static int build_unseal(u8 *buf, u32 size, struct tk_span *params,
			struct tk_cmd_buf *b)
{
	int ret;

	ret = tk1_unseal_params(b, buf, size, TK1_KH_SRK, stored_data,
				 sizeof(stored_data), params);
	if (ret)
		return ret;
	tk1_append_auth(b, &auth1);
	tk1_append_auth(b, &auth2);
	return tk1_finish(b);
}

static void test_build_unseal(void)
{
	struct tk_span params;
	struct tk_cmd_buf b;
	unsigned int size;
	u8 *buf;

	CHECK_EQ(sizeof(unseal_cmd), 122);
	for (size = 0; size <= sizeof(unseal_cmd); size++) {
		buf = malloc(size ? size : 1);
		expect(build_unseal(buf, size, &params, &b),
		       size == sizeof(unseal_cmd) ? 0 : -E2BIG, "unseal size",
		       size);
		if (size == sizeof(unseal_cmd)) {
			CHECK_EQ(b.len, sizeof(unseal_cmd));
			CHECK_MEM(buf, unseal_cmd, sizeof(unseal_cmd));
			CHECK(params.p == buf + 14);
			CHECK_EQ(params.len, sizeof(stored_data));
		}
		free(buf);
	}
}

/* ---- responses ---- */

static const u8 oiap_rsp[] = {
	0x00, 0xc4, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x02, 0x03, 0x04,		/* authHandle */
	N20(0xa0),			/* nonceEven */
};

static const u8 osap_rsp[] = {
	0x00, 0xc4, 0x00, 0x00, 0x00, 0x36, 0x00, 0x00, 0x00, 0x00,
	0x05, 0x06, 0x07, 0x08,		/* authHandle */
	N20(0xa0),			/* nonceEven */
	N20(0xc0),			/* nonceEvenOSAP */
};

static const u8 seal_rsp[] = {
	0x00, 0xc5, 0x00, 0x00, 0x00, 0x45, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,
	0x00, 0x00, 0x00, 0x04, 0xcc, 0xdd, 0xee, 0xff,	/* sealedData */
	N20(0xa0), 0x01, N20(0x40),	/* nonceEven cont resAuth */
};

static const u8 unseal_rsp[] = {
	0x00, 0xc6, 0x00, 0x00, 0x00, 0x65, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x05,		/* secretSize */
	0x11, 0x22, 0x33, 0x44, 0x55,	/* secret */
	N20(0xa0), 0x00, N20(0x40),	/* nonceEven cont resAuth */
	N20(0xc0), 0x01, N20(0x60),	/* dataNonceEven cont dataAuth */
};

/* TPM_GetRandom 13.6: randomBytesSize(4) randomBytes */
static const u8 get_random_rsp[] = {
	0x00, 0xc4, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,
};

enum which { OIAP, OSAP, SEAL, UNSEAL, GET_RANDOM, NWHICH };

static const struct {
	const char *name;
	const u8 *rsp;
	u32 len;
	u16 tag;
} rsps[NWHICH] = {
	[OIAP]		= { "oiap", oiap_rsp, sizeof(oiap_rsp), 0xc4 },
	[OSAP]		= { "osap", osap_rsp, sizeof(osap_rsp), 0xc4 },
	[SEAL]		= { "seal", seal_rsp, sizeof(seal_rsp), 0xc5 },
	[UNSEAL]	= { "unseal", unseal_rsp, sizeof(unseal_rsp), 0xc6 },
	[GET_RANDOM]	= { "get random", get_random_rsp,
			    sizeof(get_random_rsp), 0xc4 },
};

/* Parse an exact heap copy of @rsp[0..size) with parser @w. */
static int parse_as(enum which w, const u8 *rsp, u32 size)
{
	struct tk1_session s;
	struct tk1_seal_out so;
	struct tk1_unseal_out uo;
	u8 *copy = dup(rsp, size);
	struct tk_span bytes;
	int ret = -1;

	switch (w) {
	case OIAP:
		ret = tk1_parse_oiap(copy, size, &s);
		break;
	case OSAP:
		ret = tk1_parse_osap(copy, size, &s);
		break;
	case SEAL:
		ret = tk1_parse_seal(copy, size, &so);
		break;
	case UNSEAL:
		ret = tk1_parse_unseal(copy, size, &uo);
		break;
	case GET_RANDOM:
		ret = tk1_parse_get_random(copy, size, &bytes);
		if (!ret && (bytes.p != copy + 14 ||
			     bytes.len != get_unaligned_be32(copy + 2) - 14))
			ret = -1000;
		break;
	default:
		break;
	}
	free(copy);
	return ret;
}

static void test_build_get_random(void)
{
	static const u8 want[] = {
		0x00, 0xc1, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x46,
		0x00, 0x00, 0x00, 0x40,
	};
	struct tk_cmd_buf b;
	u8 buf[sizeof(want)];

	CHECK_EQ(tk1_build_get_random(&b, buf, sizeof(buf), 64), 0);
	CHECK_MEM(buf, want, sizeof(want));
	CHECK_EQ(tk1_build_get_random(&b, buf, sizeof(buf) - 1, 64), -E2BIG);
}

static void test_parse_oiap(void)
{
	struct tk1_session s;
	u8 *rsp = dup(oiap_rsp, sizeof(oiap_rsp));

	memset(&s, 0, sizeof(s));
	CHECK_EQ(sizeof(oiap_rsp), 34);
	CHECK_EQ(tk1_parse_oiap(rsp, sizeof(oiap_rsp), &s), 0);
	CHECK_EQ(s.handle, 0x01020304);
	CHECK_MEM(s.nonce_even, nonce_a0, 20);
	free(rsp);
}

static void test_parse_osap(void)
{
	struct tk1_session s;
	u8 *rsp = dup(osap_rsp, sizeof(osap_rsp));

	CHECK_EQ(sizeof(osap_rsp), 54);
	CHECK_EQ(tk1_parse_osap(rsp, sizeof(osap_rsp), &s), 0);
	CHECK_EQ(s.handle, 0x05060708);
	CHECK_MEM(s.nonce_even, nonce_a0, 20);
	CHECK_MEM(s.nonce_even_osap, nonce_c0, 20);
	free(rsp);
}

/*
 * Regression (issue 9, review finding 3, "TPM 1.2 sessions leaked"): the
 * handle of a session the TPM opened is known even when the rest of the
 * response is malformed, so that it can be flushed.
 */
static void test_session_handle(void)
{
	u8 *rsp = dup(osap_rsp, sizeof(osap_rsp));
	u32 h = 0;

	CHECK_EQ(tk1_session_handle(rsp, sizeof(osap_rsp), &h), 0);
	CHECK_EQ(h, 0x05060708);
	rsp[5] = 0x30;				/* a nonce cut short */
	h = 0;
	CHECK_EQ(tk1_parse_osap(rsp, sizeof(osap_rsp), &(struct tk1_session){ 0 }), -EBADMSG);
	CHECK_EQ(tk1_session_handle(rsp, sizeof(osap_rsp), &h), 0);
	CHECK_EQ(h, 0x05060708);
	rsp[5] = 0x0d;				/* not even a whole handle */
	h = 0;
	CHECK_EQ(tk1_session_handle(rsp, sizeof(osap_rsp), &h), -EBADMSG);
	CHECK_EQ(h, 0);
	rsp[5] = 0x36;
	CHECK_EQ(tk1_session_handle(rsp, 9, &h), -EBADMSG);
	free(rsp);
}

static void test_parse_seal(void)
{
	struct tk1_seal_out out;
	u8 *rsp = dup(seal_rsp, sizeof(seal_rsp));

	CHECK_EQ(sizeof(seal_rsp), 69);
	CHECK_EQ(tk1_parse_seal(rsp, sizeof(seal_rsp), &out), 0);
	/* The response HMAC covers the sealed blob, the blob is returned. */
	CHECK(out.params.p == rsp + 10);
	CHECK_EQ(out.params.len, sizeof(stored_data));
	CHECK_MEM(out.params.p, stored_data, sizeof(stored_data));
	CHECK(out.auth.nonce_even == rsp + 28);
	CHECK_EQ(out.auth.cont, 1);
	CHECK(out.auth.hmac == rsp + 49);
	free(rsp);
}

static void test_parse_unseal(void)
{
	struct tk1_unseal_out out;
	u8 *rsp = dup(unseal_rsp, sizeof(unseal_rsp));

	CHECK_EQ(sizeof(unseal_rsp), 101);
	CHECK_EQ(tk1_parse_unseal(rsp, sizeof(unseal_rsp), &out), 0);
	CHECK(out.params.p == rsp + 10);
	CHECK_EQ(out.params.len, 4 + 5);
	CHECK(out.secret.p == rsp + 14);
	CHECK_EQ(out.secret.len, 5);
	CHECK_MEM(out.secret.p, "\x11\x22\x33\x44\x55", 5);
	CHECK(out.auth[0].nonce_even == rsp + 19);
	CHECK_EQ(out.auth[0].cont, 0);
	CHECK(out.auth[0].hmac == rsp + 40);
	CHECK(out.auth[1].nonce_even == rsp + 60);
	CHECK_EQ(out.auth[1].cont, 1);
	CHECK(out.auth[1].hmac == rsp + 81);
	free(rsp);
}

/* An empty secret is well-formed. */
static void test_parse_unseal_empty_secret(void)
{
	static const u8 rsp0[] = {
		0x00, 0xc6, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		N20(0xa0), 0x00, N20(0x40), N20(0xc0), 0x01, N20(0x60),
	};
	struct tk1_unseal_out out;
	u8 *rsp = dup(rsp0, sizeof(rsp0));

	CHECK_EQ(tk1_parse_unseal(rsp, sizeof(rsp0), &out), 0);
	CHECK_EQ(out.secret.len, 0);
	CHECK_EQ(out.params.len, 4);
	CHECK(out.auth[1].hmac == rsp + 76);
	free(rsp);
}

/* Every prefix is refused: as read (header size > buffer) and re-sized. */
static void test_parse_truncated(void)
{
	unsigned int w, k;
	u8 *t;

	for (w = 0; w < NWHICH; w++) {
		for (k = 0; k < rsps[w].len; k++) {
			expect(parse_as(w, rsps[w].rsp, k), -EBADMSG,
			       rsps[w].name, k);
			if (k < TK_TPM_HEADER_SIZE)
				continue;
			t = dup(rsps[w].rsp, k);
			put_unaligned_be32(k, t + 2);
			expect(parse_as(w, t, k), -EBADMSG, rsps[w].name, k);
			free(t);
		}
		expect(parse_as(w, rsps[w].rsp, rsps[w].len), 0, rsps[w].name,
		       rsps[w].len);
	}
}

/* Bytes inside the stated size that no field claims are refused. */
static void test_parse_trailing(void)
{
	unsigned int w, extra;
	u32 len;
	u8 *t;

	for (w = 0; w < NWHICH; w++) {
		for (extra = 1; extra <= 41; extra += 20) {
			len = rsps[w].len + extra;
			t = calloc(1, len);
			memcpy(t, rsps[w].rsp, rsps[w].len);
			put_unaligned_be32(len, t + 2);
			expect(parse_as(w, t, len), -EBADMSG, rsps[w].name, len);
			/* Past the stated size they are not the response's. */
			put_unaligned_be32(rsps[w].len, t + 2);
			expect(parse_as(w, t, len), 0, rsps[w].name, len);
			free(t);
		}
	}
}

static void test_parse_header_size(void)
{
	static const u32 sizes[] = { 0, 1, 9, 0xffffffff, 0x80000000 };
	unsigned int w, i;
	u32 len;
	u8 *t;

	for (w = 0; w < NWHICH; w++) {
		len = rsps[w].len;
		t = dup(rsps[w].rsp, len);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			put_unaligned_be32(sizes[i], t + 2);
			expect(parse_as(w, t, len), -EBADMSG, rsps[w].name,
			       sizes[i]);
		}
		/* One more than the buffer holds. */
		put_unaligned_be32(len + 1, t + 2);
		expect(parse_as(w, t, len), -EBADMSG, rsps[w].name, len + 1);
		free(t);
	}
}

static void test_parse_wrong_tag(void)
{
	static const u16 tags[] = {
		0x0000, 0x00c1, 0x00c2, 0x00c3, 0x00c4, 0x00c5, 0x00c6,
		0xc400, 0xc500, 0xc600, 0x01c4, 0xffff,
	};
	unsigned int w, i;
	u8 *t;

	for (w = 0; w < NWHICH; w++) {
		t = dup(rsps[w].rsp, rsps[w].len);
		for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
			put_unaligned_be16(tags[i], t);
			expect(parse_as(w, t, rsps[w].len),
			       tags[i] == rsps[w].tag ? 0 : -EBADMSG,
			       rsps[w].name, tags[i]);
		}
		free(t);
	}
}

/* A TPM error is returned as such; its header alone is the response. */
static void test_parse_return_code(void)
{
	static const u32 rcs[] = {
		TK1_RC_AUTHFAIL, TK1_RC_BADINDEX, TK1_RC_BAD_PARAMETER,
		TK1_RC_INVALID_KEYHANDLE, TK1_RC_WRONGPCRVAL,
		TK1_RC_AUTH2FAIL, TK1_RC_DECRYPT_ERROR,
		TK1_RC_NOTSEALED_BLOB, TK1_RC_DEFEND_LOCK_RUNNING,
		0x7fffffff,
	};
	u8 err[10] = { 0x00, 0xc4, 0x00, 0x00, 0x00, 0x0a };
	unsigned int w, i;

	for (w = 0; w < NWHICH; w++) {
		for (i = 0; i < sizeof(rcs) / sizeof(rcs[0]); i++) {
			put_unaligned_be32(rcs[i], err + 6);
			expect(parse_as(w, err, sizeof(err)), rcs[i],
			       rsps[w].name, rcs[i]);
		}
		/* Not representable as a positive int: malformed. */
		put_unaligned_be32(0x80000000, err + 6);
		expect(parse_as(w, err, sizeof(err)), -EBADMSG, rsps[w].name,
		       0x80000000);
		put_unaligned_be32(0xffffffff, err + 6);
		expect(parse_as(w, err, sizeof(err)), -EBADMSG, rsps[w].name,
		       0xffffffff);
		/* Even an error must fit its buffer. */
		put_unaligned_be32(TK1_RC_AUTHFAIL, err + 6);
		put_unaligned_be32(11, err + 2);
		expect(parse_as(w, err, sizeof(err)), -EBADMSG, rsps[w].name, 11);
		put_unaligned_be32(10, err + 2);
	}
	/* A full-size response with a return code is still that code. */
	{
		u8 *t = dup(seal_rsp, sizeof(seal_rsp));

		put_unaligned_be32(TK1_RC_WRONGPCRVAL, t + 6);
		CHECK_EQ(parse_as(SEAL, t, sizeof(seal_rsp)),
			 TK1_RC_WRONGPCRVAL);
		free(t);
	}
}

/* Seal: stored-data sizes that overflow or overrun. */
static void test_parse_seal_sizes(void)
{
	static const u32 bad[] = {
		0xffffffff, 0xfffffffc, 0xfffffff0, 0x80000000, 3, 1 + 41,
	};
	unsigned int i;
	u8 *t;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = dup(seal_rsp, sizeof(seal_rsp));
		put_unaligned_be32(bad[i], t + 14);	/* sealInfoSize */
		expect(parse_as(SEAL, t, sizeof(seal_rsp)), -EBADMSG,
		       "seal sealInfoSize", bad[i]);
		memcpy(t, seal_rsp, sizeof(seal_rsp));
		put_unaligned_be32(bad[i] == 3 ? 5 : bad[i], t + 20);
		expect(parse_as(SEAL, t, sizeof(seal_rsp)), -EBADMSG,
		       "seal encDataSize", bad[i]);
		free(t);
	}
	/* encData swallowing the auth trailer leaves it missing. */
	t = dup(seal_rsp, sizeof(seal_rsp));
	put_unaligned_be32(4 + 41, t + 20);
	CHECK_EQ(parse_as(SEAL, t, sizeof(seal_rsp)), -EBADMSG);
	free(t);
}

/* Unseal: secret sizes that overflow (4 + n wraps) or overrun. */
static void test_parse_unseal_sizes(void)
{
	static const u32 bad[] = {
		0xffffffff, 0xfffffffc, 0xfffffffb, 0xfffffff7, 0x80000000,
		6, 5 + 82, 101, 4,
	};
	unsigned int i;
	u8 *t;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = dup(unseal_rsp, sizeof(unseal_rsp));
		put_unaligned_be32(bad[i], t + 10);
		expect(parse_as(UNSEAL, t, sizeof(unseal_rsp)), -EBADMSG,
		       "unseal secretSize", bad[i]);
		free(t);
	}
}

/* ---- TPM_STORED_DATA ---- */

static int stored_check(const u8 *blob, u32 len)
{
	u8 *copy = dup(blob, len);
	int ret = tk1_stored_data_check(copy, len);

	free(copy);
	return ret;
}

static void test_stored_data_valid(void)
{
	static const u8 minimal[12] = { 0x00, 0x16, 0x00, 0x00 };
	u32 len = 4 + 4 + 0x40 + 4 + 0x100;
	u8 *big = calloc(1, len);

	CHECK_EQ(stored_check(stored_data, sizeof(stored_data)), 0);
	CHECK_EQ(stored_check(minimal, sizeof(minimal)), 0);
	/* The size of a real TPM_STORED_DATA12 from a 2048-bit SRK. */
	put_unaligned_be32(0x40, big + 4);
	put_unaligned_be32(0x100, big + 4 + 4 + 0x40);
	CHECK_EQ(stored_check(big, len), 0);
	free(big);
	CHECK_EQ(tk1_stored_data_check(NULL, 0), -EINVAL);
}

static void test_stored_data_truncated(void)
{
	unsigned int k;

	for (k = 0; k < sizeof(stored_data); k++) {
		expect(stored_check(stored_data, k), -EINVAL, "stored prefix", k);
	}
}

static void test_stored_data_extended(void)
{
	u8 t[sizeof(stored_data) + 4];
	unsigned int extra;

	memcpy(t, stored_data, sizeof(stored_data));
	memset(t + sizeof(stored_data), 0, 4);
	for (extra = 1; extra <= 4; extra++)
		expect(stored_check(t, sizeof(stored_data) + extra), -EINVAL,
		       "stored extended", extra);
}

static void test_stored_data_overflow(void)
{
	static const u32 bad[] = {
		0xffffffff, 0xfffffffc, 0xfffffff8, 0xfffffff4, 0x80000000,
		3, 7,
	};
	unsigned int i;
	u8 *t;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = dup(stored_data, sizeof(stored_data));
		put_unaligned_be32(bad[i], t + 4);
		expect(stored_check(t, sizeof(stored_data)), -EINVAL,
		       "stored sealInfoSize", bad[i]);
		memcpy(t, stored_data, sizeof(stored_data));
		put_unaligned_be32(bad[i], t + 10);
		expect(stored_check(t, sizeof(stored_data)), -EINVAL,
		       "stored encDataSize", bad[i]);
		free(t);
	}
}

int main(void)
{
	RUN(test_build_oiap);
	RUN(test_build_osap);
	RUN(test_build_seal);
	RUN(test_build_seal_small);
	RUN(test_build_seal_huge);
	RUN(test_build_unseal);
	RUN(test_build_get_random);
	RUN(test_parse_oiap);
	RUN(test_session_handle);
	RUN(test_parse_osap);
	RUN(test_parse_seal);
	RUN(test_parse_unseal);
	RUN(test_parse_unseal_empty_secret);
	RUN(test_parse_truncated);
	RUN(test_parse_trailing);
	RUN(test_parse_header_size);
	RUN(test_parse_wrong_tag);
	RUN(test_parse_return_code);
	RUN(test_parse_seal_sizes);
	RUN(test_parse_unseal_sizes);
	RUN(test_stored_data_valid);
	RUN(test_stored_data_truncated);
	RUN(test_stored_data_extended);
	RUN(test_stored_data_overflow);
	return tk_test_done();
}
