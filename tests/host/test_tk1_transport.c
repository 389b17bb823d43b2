// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk1_transport.c. The expected values come from
 * OpenSSL's libcrypto, independently of the code under test:
 *  - OAEP: our encoding, raw-RSA encrypted with OpenSSL, must decrypt with
 *    OpenSSL's own RSAES-OAEP (SHA-1, MGF1-SHA1, label "TCPA");
 *  - RSAPublicKey DER: byte-equal to OpenSSL's i2d_PublicKey();
 *  - ExecuteTransport: a reference "TPM side" written here from TPM Main
 *    Part 3 §24.2 (H1, inParamDigest, MGF1 "in"/"out", H2,
 *    outParamDigest) opens what we wrap and builds answers we must take,
 *    and tampered answers we must refuse.
 * Every parse runs on an exact-size heap copy, so ASan sees any overread.
 */
#include "tk_test.h"
#include "tk1_transport.h"
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/core_names.h>
#include <openssl/bn.h>

static int failing;	/* fail the Nth primitive call (1-based), 0: never */

static int o_sha1(void *ctx, const struct tk_span *in, unsigned int n,
		  u8 out[TK1_DIGEST_SIZE])
{
	EVP_MD_CTX *s = EVP_MD_CTX_new();
	unsigned int i;

	(void)ctx;
	if (failing && !--failing) {
		EVP_MD_CTX_free(s);
		return -ENOMEM;
	}
	EVP_DigestInit_ex(s, EVP_sha1(), NULL);
	for (i = 0; i < n; i++)
		EVP_DigestUpdate(s, in[i].p, in[i].len);
	EVP_DigestFinal_ex(s, out, NULL);
	EVP_MD_CTX_free(s);
	return 0;
}

static int o_hmac(void *ctx, const u8 *key, const struct tk_span *in,
		  unsigned int n, u8 out[TK1_DIGEST_SIZE])
{
	u8 cat[4096];
	u32 len = 0, i;
	unsigned int olen;

	(void)ctx;
	if (failing && !--failing)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		memcpy(cat + len, in[i].p, in[i].len);
		len += in[i].len;
	}
	HMAC(EVP_sha1(), key, 20, cat, len, out, &olen);
	return 0;
}

static const struct tk1_crypto oc = { NULL, o_sha1, o_hmac };

static void fill(u8 *p, size_t n, u8 seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(seed + i * 7);
}

static u8 *dup(const u8 *p, size_t n)
{
	u8 *d = malloc(n ? n : 1);

	memcpy(d, p, n);
	return d;
}

/* ---- reference MGF1 (PKCS#1 B.2.1), straight from OpenSSL's SHA-1 ---- */
static void ref_mgf1(const u8 *seed, size_t slen, u8 *out, size_t len)
{
	u8 in[512], md[20];
	size_t done = 0;
	u32 i;

	memcpy(in, seed, slen);
	for (i = 0; done < len; i++) {
		in[slen] = i >> 24;
		in[slen + 1] = i >> 16;
		in[slen + 2] = i >> 8;
		in[slen + 3] = i;
		SHA1(in, slen + 4, md);
		for (u32 k = 0; k < 20 && done < len; k++)
			out[done++] = md[k];
	}
}

static void test_mgf1_matches_reference(void)
{
	u8 seed[70], got[300], want[300];
	struct tk_span s[2] = { { seed, 30 }, { seed + 30, 40 } };
	size_t len;

	fill(seed, sizeof(seed), 3);
	for (len = 0; len <= sizeof(got); len += 13) {
		memset(got, 0, sizeof(got));
		CHECK_EQ(tk1_mgf1_xor(&oc, s, 2, got, len), 0);
		ref_mgf1(seed, sizeof(seed), want, len);
		CHECK_MEM(got, want, len);
	}
	CHECK_EQ(tk1_mgf1_xor(&oc, s, 5, got, 1), -EINVAL);
	failing = 2;
	CHECK_EQ(tk1_mgf1_xor(&oc, s, 2, got, 41), -ENOMEM);
	failing = 0;
}

/* ---- OAEP against OpenSSL ---- */
static EVP_PKEY *rsa_key(unsigned int bits)
{
	return EVP_RSA_gen(bits);
}

static void test_oaep_decrypts_with_openssl(void)
{
	static const unsigned int sizes[] = { 1024, 2048 };
	unsigned int z;

	for (z = 0; z < 2; z++) {
		EVP_PKEY *k = rsa_key(sizes[z]);
		u32 kb = sizes[z] / 8;
		u8 msg[TK1_TRANSPORT_AUTH_SIZE], seed[20], em[256], ct[256];
		u8 pt[256];
		size_t ctlen = sizeof(ct), ptlen = sizeof(pt);
		EVP_PKEY_CTX *c;
		unsigned char *label;
		int i;

		for (i = 0; i < 3; i++) {
			fill(msg, sizeof(msg), 0x10 + i);
			fill(seed, sizeof(seed), 0x80 + i);
			CHECK_EQ(tk1_oaep_encode(&oc, msg, sizeof(msg), seed,
						 em, kb), 0);
			CHECK_EQ(em[0], 0);
			c = EVP_PKEY_CTX_new(k, NULL);
			ctlen = sizeof(ct);
			CHECK_EQ(EVP_PKEY_encrypt_init(c), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING), 1);
			CHECK_EQ(EVP_PKEY_encrypt(c, ct, &ctlen, em, kb), 1);
			EVP_PKEY_CTX_free(c);

			c = EVP_PKEY_CTX_new(k, NULL);
			label = OPENSSL_malloc(4);
			memcpy(label, "TCPA", 4);
			ptlen = sizeof(pt);
			CHECK_EQ(EVP_PKEY_decrypt_init(c), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_oaep_md(c, EVP_sha1()), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha1()), 1);
			CHECK_EQ(EVP_PKEY_CTX_set0_rsa_oaep_label(c, label, 4), 1);
			CHECK_EQ(EVP_PKEY_decrypt(c, pt, &ptlen, ct, ctlen), 1);
			CHECK_EQ(ptlen, sizeof(msg));
			CHECK_MEM(pt, msg, sizeof(msg));
			EVP_PKEY_CTX_free(c);
		}
		EVP_PKEY_free(k);
	}
}

static void test_oaep_refuses(void)
{
	u8 msg[256] = { 0 }, seed[20] = { 0 }, em[300];

	CHECK_EQ(tk1_oaep_encode(&oc, msg, 128 - 41, seed, em, 128), -EINVAL);
	CHECK_EQ(tk1_oaep_encode(&oc, msg, 128 - 42, seed, em, 128), 0);
	CHECK_EQ(tk1_oaep_encode(&oc, msg, 22, seed, em, 127), -EINVAL);
	CHECK_EQ(tk1_oaep_encode(&oc, msg, 22, seed, em, 257), -EINVAL);
	failing = 3;
	memset(em, 0x55, sizeof(em));
	CHECK_EQ(tk1_oaep_encode(&oc, msg, 22, seed, em, 128), -ENOMEM);
	failing = 0;
	CHECK_EQ(em[5] | em[60] | em[127], 0);	/* wiped */
}

static void test_rsa_pub_der_matches_openssl(void)
{
	static const unsigned int sizes[] = { 1024, 2048 };
	unsigned int z;

	for (z = 0; z < 2; z++) {
		EVP_PKEY *k = rsa_key(sizes[z]);
		BIGNUM *n = NULL;
		u8 mod[256], der[300], *want = NULL;
		struct tk_span m;
		int wlen, glen;

		CHECK_EQ(EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n), 1);
		m.len = BN_bn2bin(n, mod);
		m.p = mod;
		glen = tk1_rsa_pub_der(der, sizeof(der), &m, 65537);
		wlen = i2d_PublicKey(k, &want);
		CHECK_EQ(glen, wlen);
		if (glen == wlen)
			CHECK_MEM(der, want, wlen);
		CHECK_EQ(tk1_rsa_pub_der(der, 20, &m, 65537), -E2BIG);
		OPENSSL_free(want);
		BN_free(n);
		EVP_PKEY_free(k);
	}
}

/* ---- GetPubKey and EstablishTransport layouts (Part 3 §10.?/§24.1) ---- */
static void test_get_pubkey_request(void)
{
	static const u8 want[] = {
		0x00, 0xc2, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x21,
		0x40, 0x00, 0x00, 0x00,
	};
	struct tk_cmd_buf b;
	struct tk_span p;
	u8 buf[64];

	CHECK_EQ(tk1_get_pubkey_params(&b, buf, sizeof(buf), 0x40000000, &p), 0);
	CHECK_EQ(tk1_finish(&b), 0);
	CHECK_EQ(b.len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	CHECK_EQ(p.len, 0);
	CHECK_EQ(tk1_get_pubkey_params(&b, buf, 13, 0x40000000, &p), -E2BIG);
}

/* A TPM_GetPubKey response: TPM_PUBKEY (RSA, @explen exponent bytes) + trailer */
static size_t pubkey_rsp(u8 *r, u32 modlen, u32 explen, u32 alg)
{
	size_t n = 10;
	u32 i;

	r[0] = 0x00; r[1] = 0xc5;
	memset(r + 6, 0, 4);
#define P32(v) do { r[n] = (v) >> 24; r[n + 1] = (v) >> 16; \
		    r[n + 2] = (v) >> 8; r[n + 3] = (v); n += 4; } while (0)
#define P16(v) do { r[n] = (v) >> 8; r[n + 1] = (v); n += 2; } while (0)
	P32(alg);
	P16(TK1_ES_RSAESOAEP_SHA1_MGF1);
	P16(0x0001);
	P32(12 + explen);
	P32(modlen * 8);
	P32(2);
	P32(explen);
	for (i = 0; i < explen; i++)
		r[n++] = i == explen - 1 ? 0x11 : (i == explen - 2 ? 0x01 : 0);
	P32(modlen);
	for (i = 0; i < modlen; i++)
		r[n++] = i ? (u8)i : 0xc1;
	for (i = 0; i < 41; i++)
		r[n++] = 0xa0 + i;
	r[2] = n >> 24; r[3] = n >> 16; r[4] = n >> 8; r[5] = n;
	return n;
}

static void test_parse_pubkey(void)
{
	struct tk1_pubkey pk;
	u8 r[512], *d;
	size_t n;

	n = pubkey_rsp(r, 256, 0, TK1_ALG_RSA);
	d = dup(r, n);
	CHECK_EQ(tk1_parse_pubkey(d, n, &pk), 0);
	CHECK_EQ(pk.exponent, 65537);
	CHECK_EQ(pk.modulus.len, 256);
	CHECK(pk.modulus.p == d + 10 + 12 + 12 + 4);
	CHECK(pk.params.p == d + 10);
	CHECK_EQ(pk.params.len, 12 + 12 + 4 + 256);
	CHECK_EQ(pk.enc_scheme, TK1_ES_RSAESOAEP_SHA1_MGF1);
	CHECK(pk.auth.nonce_even == d + n - 41);
	CHECK_EQ(pk.auth.cont, 0xa0 + 20);
	/* every truncation is malformed */
	for (size_t cut = 10; cut < n; cut++) {
		u8 *t = dup(r, cut);

		t[2] = cut >> 24; t[3] = cut >> 16; t[4] = cut >> 8; t[5] = cut;
		CHECK_EQ(tk1_parse_pubkey(t, cut, &pk), -EBADMSG);
		free(t);
	}
	free(d);

	n = pubkey_rsp(r, 128, 3, TK1_ALG_RSA);
	d = dup(r, n);
	CHECK_EQ(tk1_parse_pubkey(d, n, &pk), 0);
	CHECK_EQ(pk.exponent, 0x0111);
	free(d);
	n = pubkey_rsp(r, 128, 5, TK1_ALG_RSA);		/* exponent too long */
	CHECK_EQ(tk1_parse_pubkey(r, n, &pk), -EBADMSG);
	n = pubkey_rsp(r, 64, 0, TK1_ALG_RSA);		/* too small */
	CHECK_EQ(tk1_parse_pubkey(r, n, &pk), -EBADMSG);
	n = pubkey_rsp(r, 128, 0, 2);			/* not RSA */
	CHECK_EQ(tk1_parse_pubkey(r, n, &pk), -EBADMSG);
	n = pubkey_rsp(r, 128, 0, TK1_ALG_RSA);
	r[9] = 0x0c;					/* TPM_INVALID_KEYHANDLE */
	CHECK_EQ(tk1_parse_pubkey(r, n, &pk), 0x0c);
}

static void test_establish(void)
{
	static const u8 want[] = {
		0x00, 0xc2, 0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0xe6,
		0x40, 0x00, 0x00, 0x00,
		0x00, 0x1e, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07,
		0x00, 0x01,
		0x00, 0x00, 0x00, 0x03, 0xaa, 0xbb, 0xcc,
		0x00, 0x00,	/* room to see nothing else is written */
	};
	static const u8 secret[3] = { 0xaa, 0xbb, 0xcc };
	struct tk1_establish_out out;
	struct tk_cmd_buf b;
	struct tk_span p;
	u8 buf[64] = { 0 }, r[200], *d;
	size_t n = 0, i;

	CHECK_EQ(tk1_establish_params(&b, buf, sizeof(buf), 0x40000000, secret,
				      3, &p), 0);
	CHECK_EQ(tk1_finish(&b), 0);
	CHECK_EQ(b.len, sizeof(want) - 2);
	CHECK_MEM(buf, want, sizeof(want));
	CHECK(p.p == buf + 14);
	CHECK_EQ(p.len, b.len - 14);
	CHECK_EQ(tk1_establish_params(&b, buf, 30, 0x40000000, secret, 3, &p),
		 -E2BIG);

	/* rsp: hdr handle locality(4) TPM_CURRENT_TICKS(32) nonceEven trailer */
	memset(r, 0, sizeof(r));
	r[1] = 0xc5;
	n = 10;
	r[n + 3] = 0x77;		/* handle */
	n += 4 + 4 + 32;
	for (i = 0; i < 20; i++)
		r[n++] = 0x40 + i;
	for (i = 0; i < 41; i++)
		r[n++] = 0x90 + i;
	r[5] = n;
	d = dup(r, n);
	CHECK_EQ(tk1_parse_establish(d, n, &out), 0);
	CHECK_EQ(out.handle, 0x77);
	CHECK(out.params.p == d + 14);
	CHECK_EQ(out.params.len, 4 + 32 + 20);
	CHECK(out.nonce_even == d + 14 + 36);
	CHECK(out.auth.nonce_even == d + n - 41);
	free(d);
	r[5] = n - 1;
	CHECK_EQ(tk1_parse_establish(r, n, &out), -EBADMSG);
}

/* ---- the reference TPM side of ExecuteTransport ---- */
struct ref_tpm {
	u8 auth[20];
	u8 even[20];
	u8 ticks_loc[12];
};

static void ref_digest(u8 *out, const void *a, size_t al, const void *b,
		       size_t bl, const void *c, size_t cl)
{
	EVP_MD_CTX *s = EVP_MD_CTX_new();

	EVP_DigestInit_ex(s, EVP_sha1(), NULL);
	EVP_DigestUpdate(s, a, al);
	EVP_DigestUpdate(s, b, bl);
	EVP_DigestUpdate(s, c, cl);
	EVP_DigestFinal_ex(s, out, NULL);
	EVP_MD_CTX_free(s);
}

static void ref_hmac(u8 *out, const u8 *key, const u8 *digest,
		     const u8 *even, const u8 *odd, u8 cont)
{
	u8 in[61];
	unsigned int olen;

	memcpy(in, digest, 20);
	memcpy(in + 20, even, 20);
	memcpy(in + 40, odd, 20);
	in[60] = cont;
	HMAC(EVP_sha1(), key, 20, in, sizeof(in), out, &olen);
}

static void ref_pad(const struct ref_tpm *t, const u8 *even, const u8 *odd,
		    const char *dir, u8 *buf, size_t len)
{
	u8 seed[63], pad[4096];
	size_t dl = strlen(dir), i;

	memcpy(seed, even, 20);
	memcpy(seed + 20, odd, 20);
	memcpy(seed + 40, dir, dl);
	memcpy(seed + 40 + dl, t->auth, 20);
	ref_mgf1(seed, 60 + dl, pad, len);
	for (i = 0; i < len; i++)
		buf[i] ^= pad[i];
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void put32(u8 *p, u32 v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

/*
 * Open an ExecuteTransport as the TPM does (§24.2 steps 2-7): check the
 * transport HMAC and return the decrypted wrapped command in @inner, and
 * transNonceOdd in @odd. 0 when the TPM would accept it.
 */
static int ref_open(const struct ref_tpm *t, const u8 *cmd, u32 handles,
		    u32 authlen, u8 *inner, u8 *odd)
{
	u8 h1[20], dig[20], mac[20], words[8];
	u32 len = be32(cmd + 2), wlen = be32(cmd + 10), s, e;

	if (cmd[1] != 0xc2 || be32(cmd + 6) != 0xe7 || len != 14 + wlen + 45)
		return -1;
	memcpy(inner, cmd + 14, wlen);
	memcpy(odd, cmd + 14 + wlen + 4, 20);
	s = 10 + 4 * handles;
	e = wlen - authlen;
	ref_pad(t, t->even, odd, "in", inner + s, e - s);
	ref_digest(h1, inner + 6, 4, inner + s, e - s, "", 0);
	put32(words, 0xe7);
	put32(words + 4, wlen);
	ref_digest(dig, words, 8, h1, 20, "", 0);
	ref_hmac(mac, t->auth, dig, t->even, odd, cmd[14 + wlen + 24]);
	return memcmp(mac, cmd + 14 + wlen + 25, 20) ? -2 : 0;
}

/* Answer with @inner (a wrapped response, @authlen trailer bytes) as §24.2 15-21. */
static size_t ref_answer(struct ref_tpm *t, const u8 *odd, u32 ordw,
			 const u8 *inner, u32 wlen, u32 authlen, u8 *rsp)
{
	u8 h2[20], dig[20], words[8], tail[16];
	u32 rcw = be32(inner + 6), s2len = rcw ? 0 : wlen - 10 - authlen;
	size_t n;

	fill(t->even, 20, t->even[0] + 1);		/* a new nonceEven */
	put32(words, rcw);
	put32(words + 4, ordw);
	ref_digest(h2, words, 8, inner + 10, s2len, "", 0);
	memcpy(tail, t->ticks_loc, 12);
	put32(tail + 12, wlen);
	put32(words, 0);
	put32(words + 4, 0xe7);
	ref_digest(dig, words, 8, tail, 16, h2, 20);
	rsp[0] = 0; rsp[1] = 0xc5;
	put32(rsp + 6, 0);
	memcpy(rsp + 10, tail, 16);
	memcpy(rsp + 26, inner, wlen);
	ref_pad(t, t->even, odd, "out", rsp + 26 + 10, s2len);
	n = 26 + wlen;
	memcpy(rsp + n, t->even, 20);
	rsp[n + 20] = 1;
	ref_hmac(rsp + n + 21, t->auth, dig, t->even, odd, 1);
	n += 41;
	put32(rsp + 2, n);
	return n;
}

/* An Unseal: parent handle, a 60-byte blob, two auth trailers. */
static u32 unseal_cmd(u8 *c)
{
	u32 n = 10 + 4 + 60 + 90;

	fill(c, n, 0x31);
	c[0] = 0; c[1] = 0xc3;
	put32(c + 2, n);
	put32(c + 6, TK1_ORD_UNSEAL);
	return n;
}

/* Its answer: secretSize(4) secret(33) and two response trailers. */
static u32 unseal_rsp(u8 *r)
{
	u32 n = 10 + 4 + 33 + 82;

	fill(r, n, 0x52);
	r[0] = 0; r[1] = 0xc6;
	put32(r + 2, n);
	put32(r + 6, 0);
	put32(r + 10, 33);
	return n;
}

static void test_transport_roundtrip(void)
{
	struct tk1_transport tr = { .handle = 0x02000001 };
	struct ref_tpm ref;
	u8 cmd[1024], orig[1024], inner[1024], odd_seen[20], odd[20];
	u8 wrsp[256], rsp[1024], *d;
	u32 clen, wlen;
	size_t n;
	int round;

	fill(tr.auth, 20, 0xe0);
	fill(tr.nonce_even, 20, 0x01);
	memcpy(ref.auth, tr.auth, 20);
	memcpy(ref.even, tr.nonce_even, 20);
	fill(ref.ticks_loc, 12, 0x70);

	for (round = 0; round < 3; round++) {
		clen = unseal_cmd(cmd);
		memcpy(orig, cmd, clen);
		fill(odd, 20, 0x90 + round);
		CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd), 0);
		CHECK_EQ(be32(cmd + 2), 14 + clen + 45);
		/* the blob is not in clear, the handle and trailers are */
		CHECK(memcmp(cmd + 14 + 14, orig + 14, 60));
		CHECK_MEM(cmd + 14 + 10, orig + 10, 4);
		CHECK_MEM(cmd + 14 + 74, orig + 74, 90);
		CHECK_EQ(ref_open(&ref, cmd, 1, 90, inner, odd_seen), 0);
		CHECK_MEM(inner, orig, clen);
		CHECK_MEM(odd_seen, odd, 20);

		wlen = unseal_rsp(wrsp);
		n = ref_answer(&ref, odd, TK1_ORD_UNSEAL, wrsp, wlen, 82, rsp);
		CHECK(memcmp(rsp + 26 + 14, wrsp + 14, 33)); /* secret hidden */
		d = dup(rsp, n);
		CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL,
					      odd), 0);
		CHECK_MEM(d, wrsp, wlen);
		CHECK_MEM(tr.nonce_even, ref.even, 20);	/* rolled */
		free(d);
	}
}

/*
 * The last command of a sequence (Seal, Unseal) asks the TPM to end the
 * transport (continueTransSession FALSE), authenticated like the rest:
 * no TPM_FlushSpecific after it (issue 22's command budget).
 */
static void test_transport_last(void)
{
	struct tk1_transport tr = { .handle = 0x02000001, .last = true };
	struct ref_tpm ref;
	u8 cmd[1024], inner[1024], odd_seen[20], odd[20];
	u32 clen;

	fill(tr.auth, 20, 0xe1);
	fill(tr.nonce_even, 20, 0x02);
	memcpy(ref.auth, tr.auth, 20);
	memcpy(ref.even, tr.nonce_even, 20);
	fill(ref.ticks_loc, 12, 0x71);
	clen = unseal_cmd(cmd);
	fill(odd, 20, 0x93);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd), 0);
	CHECK_EQ(cmd[14 + clen + 24], 0);
	CHECK_EQ(ref_open(&ref, cmd, 1, 90, inner, odd_seen), 0);
	tr.last = false;
	clen = unseal_cmd(cmd);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd), 0);
	CHECK_EQ(cmd[14 + clen + 24], 1);
}

static void test_transport_refuses_tampering(void)
{
	struct tk1_transport tr = { .handle = 0x02000001 };
	struct ref_tpm ref;
	u8 cmd[1024], inner[1024], odd[20], odd2[20], wrsp[256], rsp[1024];
	u8 *d, saved[20];
	size_t n, at;
	u32 wlen;

	fill(tr.auth, 20, 0xe0);
	fill(tr.nonce_even, 20, 0x01);
	memcpy(ref.auth, tr.auth, 20);
	memcpy(ref.even, tr.nonce_even, 20);
	fill(ref.ticks_loc, 12, 0x70);
	fill(odd, 20, 0x33);

	/* a wrong transport secret: the TPM refuses the request */
	unseal_cmd(cmd);
	tr.auth[0] ^= 1;
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd), 0);
	CHECK_EQ(ref_open(&ref, cmd, 1, 90, inner, odd2), -2);
	tr.auth[0] ^= 1;

	/* any flipped byte of the answer: refused, nothing rolls, all wiped */
	wlen = unseal_rsp(wrsp);
	memcpy(saved, tr.nonce_even, 20);
	n = ref_answer(&ref, odd, TK1_ORD_UNSEAL, wrsp, wlen, 82, rsp);
	for (at = 10; at < n; at++) {
		int ret;

		if (at >= 22 && at < 26)	/* wrappedRspSize: malformed */
			continue;
		if (at >= 28 && at < 36)	/* wrapped size/rc: malformed */
			continue;
		/*
		 * The wrapped response's own auth trailers are outside S2
		 * (§24.2 step 13): its own HMACs cover them, not the
		 * transport's; they pass through as sent.
		 */
		if (at >= 26 + wlen - 82 && at < 26 + wlen)
			continue;
		d = dup(rsp, n);
		d[at] ^= 0x01;
		ret = tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL, odd);
		if (!CHECK(ret == -EINVAL || ret == -EBADMSG))
			printf("     at %zu of %zu: %d\n", at, n, ret);
		free(d);
	}
	CHECK_MEM(tr.nonce_even, saved, 20);
	d = dup(rsp, n);
	d[26 + wlen - 1] ^= 1;
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL, odd), 0);
	CHECK_EQ(d[wlen - 1], wrsp[wlen - 1] ^ 1);
	free(d);
	memcpy(tr.nonce_even, saved, 20);
	d = dup(rsp, n);
	d[n - 1] ^= 1;
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL, odd),
		 -EINVAL);
	CHECK_EQ(d[26 + 14] | d[26 + 20] | d[26 + 46], 0);
	free(d);
	/* the wrong ordinal or nonceOdd: the HMAC does not match */
	d = dup(rsp, n);
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_SEAL, odd),
		 -EINVAL);
	free(d);
	d = dup(rsp, n);
	odd2[0] ^= 1;
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL, odd2),
		 -EINVAL);
	free(d);
	/* truncated anywhere: malformed */
	for (at = 10; at < n; at += 7) {
		d = dup(rsp, at);
		put32(d + 2, at);
		CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, at, TK1_ORD_UNSEAL,
					      odd), -EBADMSG);
		free(d);
	}
	/* TPM_ExecuteTransport itself failed: its code */
	d = dup(rsp, 10);
	put32(d + 2, 10);
	put32(d + 6, 0x01);
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, 10, TK1_ORD_UNSEAL, odd),
		 0x01);
	free(d);
	/* a primitive failing anywhere: its errno */
	for (int f = 1; f <= 5; f++) {
		d = dup(rsp, n);
		failing = f;
		CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL,
					      odd), -ENOMEM);
		failing = 0;
		free(d);
	}
}

/* The wrapped command failed: no S2, H2 over RCw || ORDw only. */
static void test_transport_wrapped_error(void)
{
	struct tk1_transport tr = { .handle = 7 };
	struct ref_tpm ref;
	u8 wrsp[10], rsp[256], odd[20], *d;
	size_t n;

	fill(tr.auth, 20, 0x11);
	fill(tr.nonce_even, 20, 0x21);
	memcpy(ref.auth, tr.auth, 20);
	memcpy(ref.even, tr.nonce_even, 20);
	fill(ref.ticks_loc, 12, 0x70);
	fill(odd, 20, 0x31);
	wrsp[0] = 0; wrsp[1] = 0xc4;
	put32(wrsp + 2, 10);
	put32(wrsp + 6, TK1_RC_WRONGPCRVAL);
	n = ref_answer(&ref, odd, TK1_ORD_UNSEAL, wrsp, 10, 0, rsp);
	d = dup(rsp, n);
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_UNSEAL, odd), 0);
	CHECK_MEM(d, wrsp, 10);
	free(d);
}

static void test_transport_wrap_refuses(void)
{
	struct tk1_transport tr = { .handle = 7 };
	u8 cmd[2048], odd[20] = { 0 };
	u32 clen;

	clen = unseal_cmd(cmd);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, clen + 58, 1, odd), -E2BIG);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, clen + 59, 1, odd), 0);
	unseal_cmd(cmd);
	cmd[1] = 0xc9;					/* unknown tag */
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd), -EINVAL);
	unseal_cmd(cmd);
	put32(cmd + 2, 10 + 4 + 89);			/* shorter than trailers */
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd), -EINVAL);
	unseal_cmd(cmd);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 3, odd), -EINVAL);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, 9, 0, odd), -EINVAL);
	for (int f = 1; f <= 4; f++) {
		unseal_cmd(cmd);
		failing = f;
		CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 1, odd),
			 -ENOMEM);
		failing = 0;
	}
}

/* A GetRandom (no handles, no auth) wrapped and answered. */
static void test_transport_get_random(void)
{
	struct tk1_transport tr = { .handle = 9 };
	struct ref_tpm ref;
	u8 cmd[128], inner[128], odd[20], odd2[20], wrsp[64], rsp[256], *d;
	size_t n;

	fill(tr.auth, 20, 0x61);
	fill(tr.nonce_even, 20, 0x71);
	memcpy(ref.auth, tr.auth, 20);
	memcpy(ref.even, tr.nonce_even, 20);
	fill(ref.ticks_loc, 12, 0x70);
	fill(odd, 20, 0x81);
	cmd[0] = 0; cmd[1] = 0xc1;
	put32(cmd + 2, 14);
	put32(cmd + 6, TK1_ORD_GET_RANDOM);
	put32(cmd + 10, 32);
	CHECK_EQ(tk1_transport_wrap(&oc, &tr, cmd, sizeof(cmd), 0, odd), 0);
	CHECK_EQ(ref_open(&ref, cmd, 0, 0, inner, odd2), 0);
	CHECK_EQ(be32(inner + 10), 32);
	wrsp[0] = 0; wrsp[1] = 0xc4;
	put32(wrsp + 2, 10 + 4 + 32);
	put32(wrsp + 6, 0);
	put32(wrsp + 10, 32);
	fill(wrsp + 14, 32, 0xd0);
	n = ref_answer(&ref, odd, TK1_ORD_GET_RANDOM, wrsp, 46, 0, rsp);
	CHECK(memcmp(rsp + 26 + 14, wrsp + 14, 32));	/* not in clear */
	d = dup(rsp, n);
	CHECK_EQ(tk1_transport_unwrap(&oc, &tr, d, n, TK1_ORD_GET_RANDOM, odd), 0);
	CHECK_MEM(d, wrsp, 46);
	free(d);
}

int main(void)
{
	RUN(test_mgf1_matches_reference);
	RUN(test_oaep_decrypts_with_openssl);
	RUN(test_oaep_refuses);
	RUN(test_rsa_pub_der_matches_openssl);
	RUN(test_get_pubkey_request);
	RUN(test_parse_pubkey);
	RUN(test_establish);
	RUN(test_transport_roundtrip);
	RUN(test_transport_last);
	RUN(test_transport_refuses_tampering);
	RUN(test_transport_wrapped_error);
	RUN(test_transport_wrap_refuses);
	RUN(test_transport_get_random);
	return tk_test_done();
}
