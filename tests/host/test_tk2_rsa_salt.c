// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the RSA salt of TPM 2.0 sessions (src/lib/tk2_session.c
 * tk2_rsa_public_parse, tk2_rsa_salt_encode; src/lib/tk_oaep.c). The
 * expected values come from OpenSSL: our encoding, raw-RSA encrypted with
 * OpenSSL, must decrypt with OpenSSL's own RSAES-OAEP with SHA-256,
 * MGF1-SHA256 and the label "SECRET\0" (TPM 2.0 Part 1 Annex B.10.3, B.4),
 * as the TPM decrypts an encryptedSalt; the public area parser takes the
 * TPMT_PUBLIC written here from Part 2 §12.2.4 and refuses its variants.
 * Every parse runs on an exact-size heap copy, so ASan sees any overread.
 */
#include <stdlib.h>
#include "tk_test.h"
#include "tk2_ref.h"
#include "tk2_kdf.h"
#include "tk2_session.h"
#include "tk2_msg.h"
#include "tk_oaep.h"
#include <openssl/rsa.h>
#include <openssl/bn.h>

static void fill(u8 *p, size_t n, u8 v)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(v + 7 * i);
}

static void test_salt_decrypts_with_openssl(void)
{
	static const unsigned int sizes[] = { 1024, 2048, 3072 };
	unsigned int z;

	for (z = 0; z < 3; z++) {
		EVP_PKEY *k = EVP_RSA_gen(sizes[z]);
		u32 kb = sizes[z] / 8;
		u8 salt[32], seed[32], em[512], ct[512], pt[512];
		size_t ctlen, ptlen;
		EVP_PKEY_CTX *c;
		unsigned char *label;
		int i;

		for (i = 0; i < 3; i++) {
			fill(salt, sizeof(salt), 0x10 + i);
			fill(seed, sizeof(seed), 0x80 + i);
			CHECK_EQ(tk2_rsa_salt_encode(ossl_crypto(0), salt, seed,
						     em, kb), 0);
			CHECK_EQ(em[0], 0);
			c = EVP_PKEY_CTX_new(k, NULL);
			ctlen = sizeof(ct);
			CHECK_EQ(EVP_PKEY_encrypt_init(c), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING), 1);
			CHECK_EQ(EVP_PKEY_encrypt(c, ct, &ctlen, em, kb), 1);
			EVP_PKEY_CTX_free(c);

			c = EVP_PKEY_CTX_new(k, NULL);
			label = OPENSSL_malloc(7);
			memcpy(label, "SECRET", 7);
			ptlen = sizeof(pt);
			CHECK_EQ(EVP_PKEY_decrypt_init(c), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_oaep_md(c, EVP_sha256()), 1);
			CHECK_EQ(EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()), 1);
			CHECK_EQ(EVP_PKEY_CTX_set0_rsa_oaep_label(c, label, 7), 1);
			CHECK_EQ(EVP_PKEY_decrypt(c, pt, &ptlen, ct, ctlen), 1);
			CHECK_EQ(ptlen, sizeof(salt));
			CHECK_MEM(pt, salt, sizeof(salt));
			EVP_PKEY_CTX_free(c);
		}
		EVP_PKEY_free(k);
	}
}

static void test_oaep_refuses(void)
{
	u8 msg[512] = { 0 }, seed[32] = { 0 }, em[600];
	struct tk_oaep h = {
		.ctx = NULL, .hash = ossl_digest, .hlen = 32,
		.label = (const u8 *)"L", .label_len = 1,
	};

	h.ctx = (void *)ossl_crypto(0)->ctx;
	CHECK_EQ(tk_oaep_encode(&h, msg, 128 - 65, seed, em, 128), -EINVAL);
	CHECK_EQ(tk_oaep_encode(&h, msg, 128 - 66, seed, em, 128), 0);
	CHECK_EQ(tk_oaep_encode(&h, msg, 32, seed, em, 127), -EINVAL);
	CHECK_EQ(tk_oaep_encode(&h, msg, 32, seed, em, 513), -EINVAL);
	h.hlen = 33;
	CHECK_EQ(tk_oaep_encode(&h, msg, 32, seed, em, 256), -EINVAL);
	CHECK_EQ(tk_mgf1_xor(&h, NULL, 0, em, 8), -EINVAL);
	/* a failing digest leaves no encoding behind */
	memset(em, 0x55, sizeof(em));
	CHECK_EQ(tk2_rsa_salt_encode(ossl_crypto(2), msg, seed, em, 256),
		 -EIO);
	CHECK_EQ(em[5] | em[60] | em[255], 0);
	ossl_crypto(0);
}

/* A TPMT_PUBLIC of an RSA storage key (the TCG RSA 2048 SRK template). */
static u32 rsa_area(u8 *p, u16 bits, u16 scheme, u16 hash, u32 exp)
{
	u32 n = 0, i;

	n += ref_put(p + n, "\x00\x01\x00\x0b", 4);	/* RSA, SHA-256 */
	n += ref_be32(p + n, 0x00030472);
	n += ref_put(p + n, "\x00\x00", 2);		/* authPolicy */
	n += ref_put(p + n, "\x00\x06\x00\x80\x00\x43", 6);	/* AES-128-CFB */
	p[n++] = scheme >> 8;
	p[n++] = scheme;
	if (scheme != TK2_ALG_NULL) {
		p[n++] = hash >> 8;
		p[n++] = hash;
	}
	p[n++] = bits >> 8;
	p[n++] = bits;
	n += ref_be32(p + n, exp);
	p[n++] = bits / 8 >> 8;
	p[n++] = bits / 8;
	for (i = 0; i < bits / 8u; i++)
		p[n++] = 0x80 | i;
	return n;
}

static int parse_copy(const u8 *p, u32 len, struct tk2_rsa_key *k)
{
	u8 *c = malloc(len ? len : 1);
	int ret;

	memcpy(c, p, len);
	ret = tk2_rsa_public_parse(c, len, k);
	free(c);
	return ret;
}

static void test_rsa_public_parse(void)
{
	struct tk2_rsa_key k;
	struct tk2_ecc_key e;
	u8 a[700];
	u32 n, i;

	n = rsa_area(a, 2048, TK2_ALG_NULL, 0, 0);
	CHECK_EQ(parse_copy(a, n, &k), 0);
	CHECK_EQ(k.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(k.attrs, 0x00030472u);
	CHECK_EQ(k.exponent, 65537u);
	CHECK_EQ(k.n_len, 256);
	CHECK_EQ(tk2_ecc_public_parse(a, n, &e), -EINVAL);
	n = rsa_area(a, 4096, 0x0017, TK2_ALG_SHA256, 3);
	CHECK_EQ(parse_copy(a, n, &k), 0);
	CHECK_EQ(k.exponent, 3u);
	CHECK_EQ(k.n_len, 512);
	/* OAEP with another hash, RSAES (PKCS#1 v1.5), odd sizes */
	n = rsa_area(a, 2048, 0x0017, 0x0004, 0);
	CHECK_EQ(parse_copy(a, n, &k), -EINVAL);
	n = rsa_area(a, 2048, 0x0015, 0, 0);
	CHECK_EQ(parse_copy(a, n, &k), -EINVAL);
	n = rsa_area(a, 512, TK2_ALG_NULL, 0, 0);
	CHECK_EQ(parse_copy(a, n, &k), -EINVAL);
	n = rsa_area(a, 2048, TK2_ALG_NULL, 0, 0);
	for (i = 0; i < n; i++)		/* every truncation */
		CHECK_EQ(parse_copy(a, i, &k), -EINVAL);
	a[n] = 0;
	CHECK_EQ(parse_copy(a, n + 1, &k), -EINVAL);
	a[1] = 0x23;			/* ECC */
	CHECK_EQ(parse_copy(a, n, &k), -EINVAL);
}

int main(void)
{
	RUN(test_salt_decrypts_with_openssl);
	RUN(test_oaep_refuses);
	RUN(test_rsa_public_parse);
	ossl_done();
	return tk_test_done();
}
