// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk_pbkdf2.c, keydigest='s PBKDF2, over OpenSSL's
 * HMAC as the PRF:
 *  - RFC 6070's HMAC-SHA1 vectors (all but the one of 16777216
 *    iterations: minutes under the sanitizers, and the loop is the same);
 *  - HMAC-SHA256 and HMAC-SHA512 values computed with Python's
 *    hashlib.pbkdf2_hmac, one shaped as a LUKS2 digest (32-byte volume key,
 *    32-byte salt, 1000 iterations);
 *  - OpenSSL's own PKCS5_PBKDF2_HMAC over varied sizes (an independent
 *    implementation);
 *  - the scheduling point (how often, and -EINTR stops the loop with the
 *    output wiped), PRF errors, refused parameters.
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include "tk_test.h"
#include "tk2_ref.h"	/* unhex() */
#include "tk_pbkdf2.h"
#include <linux/errno.h>

struct prf_ctx {
	const EVP_MD *md;
	const u8 *key;
	size_t key_len;
	unsigned int calls;	/* prf calls */
	unsigned int yields;	/* yield calls */
	unsigned int stop_at;	/* yield fails at this call (0: never) */
	unsigned int fail_at;	/* prf fails at this call (0: never) */
};

static int ossl_prf(void *ctx, const struct tk_span *in, unsigned int n, u8 *out)
{
	struct prf_ctx *c = ctx;
	u8 msg[512];
	size_t len = 0;
	unsigned int i, olen;

	if (c->fail_at && ++c->calls == c->fail_at)
		return -EIO;
	for (i = 0; i < n; i++) {
		if (len + in[i].len > sizeof(msg))
			return -E2BIG;
		memcpy(msg + len, in[i].p, in[i].len);
		len += in[i].len;
	}
	return HMAC(c->md, c->key, (int)c->key_len, msg, len, out, &olen) ? 0 : -EIO;
}

static int count_yield(void *ctx)
{
	struct prf_ctx *c = ctx;

	c->yields++;
	return c->stop_at && c->yields == c->stop_at ? -EINTR : 0;
}

static int derive(const EVP_MD *md, const void *pw, size_t pw_len,
		  const void *salt, size_t salt_len, u32 iter, u8 *out,
		  u32 out_len, struct prf_ctx *c)
{
	struct tk_pbkdf2_prf p = {
		.ctx = c, .hlen = EVP_MD_size(md), .prf = ossl_prf,
		.yield = count_yield,
	};

	c->md = md;
	c->key = pw;
	c->key_len = pw_len;
	return tk_pbkdf2(&p, salt, salt_len, iter, out, out_len);
}

static const struct {
	const char *md, *pw, *salt;
	size_t pw_len, salt_len;
	u32 iter, len;
	const char *dk;
} vectors[] = {
	/* RFC 6070 §2 */
	{ "sha1", "password", "salt", 8, 4, 1, 20,
	  "0c60c80f961f0e71f3a9b524af6012062fe037a6" },
	{ "sha1", "password", "salt", 8, 4, 2, 20,
	  "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957" },
	{ "sha1", "password", "salt", 8, 4, 4096, 20,
	  "4b007901b765489abead49d926f721d065a429c1" },
	{ "sha1", "passwordPASSWORDpassword",
	  "saltSALTsaltSALTsaltSALTsaltSALTsalt", 24, 36, 4096, 25,
	  "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038" },
	{ "sha1", "pass\0word", "sa\0lt", 9, 5, 4096, 16,
	  "56fa6aa75548099dcc37d7f03425e0c3" },
	/* hashlib.pbkdf2_hmac('sha256', b'password', b'salt', 4096, 32) */
	{ "sha256", "password", "salt", 8, 4, 4096, 32,
	  "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a" },
	/* hashlib.pbkdf2_hmac('sha512', b'password', b'salt', 1000, 64) */
	{ "sha512", "password", "salt", 8, 4, 1000, 64,
	  "afe6c5530785b6cc6b1c6453384731bd5ee432ee549fd42fb6695779ad8a1c5b"
	  "f59de69c48f774efc4007d5298f9033c0241d5ab69305e7b64eceeb8d834cfec" },
};

static void test_vectors(void)
{
	u8 out[64], want[64];
	struct prf_ctx c;
	unsigned int i;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		memset(&c, 0, sizeof(c));
		unhex(want, vectors[i].dk);
		CHECK_EQ(derive(EVP_get_digestbyname(vectors[i].md), vectors[i].pw,
				vectors[i].pw_len, vectors[i].salt, vectors[i].salt_len,
				vectors[i].iter, out, vectors[i].len, &c), 0);
		CHECK_MEM(out, want, vectors[i].len);
	}
}

/* A LUKS2 "pbkdf2" digest: PBKDF2-SHA256(volume key, salt, 1000, 32). */
static void test_luks2_shape(void)
{
	/* hashlib.pbkdf2_hmac('sha256', bytes(range(32)), bytes(range(32, 64)), 1000, 32) */
	static const char dk[] =
		"1c9bf98a51e74fed4ca5bd6ea95fd84d91d582ce5dd4a4b064b8c55ff3324168";
	/* hashlib.pbkdf2_hmac('sha256', bytes(range(64)), b'\xab', 1000, 40): two blocks */
	static const char dk2[] =
		"d79ac501479301078a490aa13f78dd1821ee1643e7b4a6f707e04972191c384645eaadcfbaeda68f";
	u8 key[64], salt[32], out[40], want[40];
	struct prf_ctx c = { 0 };
	unsigned int i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = i;
	for (i = 0; i < sizeof(salt); i++)
		salt[i] = 32 + i;
	unhex(want, dk);
	CHECK_EQ(derive(EVP_sha256(), key, 32, salt, 32, 1000, out, 32, &c), 0);
	CHECK_MEM(out, want, 32);
	/* 1000 iterations: a yield at 256, 512 and 768 */
	CHECK_EQ(c.yields, 3);
	memset(&c, 0, sizeof(c));
	unhex(want, dk2);
	CHECK_EQ(derive(EVP_sha256(), key, 64, "\xab", 1, 1000, out, 40, &c), 0);
	CHECK_MEM(out, want, 40);
	CHECK_EQ(c.yields, 6);
}

/* OpenSSL's PBKDF2 agrees over varied passwords, salts, counts and lengths. */
static void test_against_openssl(void)
{
	static const char * const mds[] = { "sha1", "sha256", "sha512" };
	u8 pw[128], salt[128], out[150], want[150];
	unsigned int i, bad = 0, n = 0;
	u32 seed = 0x9e3779b9;

	for (i = 0; i < 300; i++) {
		const EVP_MD *md = EVP_get_digestbyname(mds[i % 3]);
		size_t pl, sl;
		u32 iter, len;
		struct prf_ctx c = { 0 };
		unsigned int j;

		seed = seed * 1103515245 + 12345;
		pl = 1 + (seed >> 8) % 128;
		sl = 1 + (seed >> 16) % 128;
		iter = 1 + (seed >> 4) % 600;
		len = 1 + (i * 7) % 150;
		for (j = 0; j < pl; j++)
			pw[j] = (u8)(seed >> (j % 24)) ^ j;
		for (j = 0; j < sl; j++)
			salt[j] = (u8)(j * 31 + i);
		if (derive(md, pw, pl, salt, sl, iter, out, len, &c) ||
		    !PKCS5_PBKDF2_HMAC((const char *)pw, pl, salt, sl, iter, md, len, want) ||
		    memcmp(out, want, len))
			bad++;
		n++;
	}
	CHECK_EQ(n, 300);
	CHECK_EQ(bad, 0);
}

static bool all_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* The scheduling point stops the loop; the output is wiped. */
static void test_yield_stops(void)
{
	struct prf_ctx c = { .stop_at = 2 };
	u8 out[32];

	memset(out, 0xa5, sizeof(out));
	CHECK_EQ(derive(EVP_sha256(), "k", 1, "s", 1, 100000, out, 32, &c), -EINTR);
	CHECK_EQ(c.yields, 2);
	CHECK(all_zero(out, sizeof(out)));
	/* no yield below 256 iterations */
	memset(&c, 0, sizeof(c));
	c.stop_at = 1;
	CHECK_EQ(derive(EVP_sha256(), "k", 1, "s", 1, 256, out, 32, &c), 0);
	CHECK_EQ(c.yields, 0);
	CHECK_EQ(derive(EVP_sha256(), "k", 1, "s", 1, 257, out, 32, &c), -EINTR);
	/* a NULL yield is allowed */
	{
		struct tk_pbkdf2_prf p = { .ctx = &c, .hlen = 32, .prf = ossl_prf };

		memset(&c, 0, sizeof(c));
		c.md = EVP_sha256();
		c.key = (const u8 *)"k";
		c.key_len = 1;
		CHECK_EQ(tk_pbkdf2(&p, (const u8 *)"s", 1, 1000, out, 32), 0);
	}
}

static void test_errors(void)
{
	struct prf_ctx c = { .fail_at = 5 };
	struct tk_pbkdf2_prf p = { .ctx = &c, .prf = ossl_prf };
	u8 out[32];

	memset(out, 0xa5, sizeof(out));
	CHECK_EQ(derive(EVP_sha256(), "k", 1, "s", 1, 1000, out, 32, &c), -EIO);
	CHECK(all_zero(out, sizeof(out)));
	memset(&c, 0, sizeof(c));
	c.md = EVP_sha256();
	p.hlen = 0;
	CHECK_EQ(tk_pbkdf2(&p, (const u8 *)"s", 1, 1000, out, 32), -EINVAL);
	p.hlen = TK_PBKDF2_HLEN_MAX + 1;
	CHECK_EQ(tk_pbkdf2(&p, (const u8 *)"s", 1, 1000, out, 32), -EINVAL);
	p.hlen = 32;
	CHECK_EQ(tk_pbkdf2(&p, (const u8 *)"s", 1, 0, out, 32), -EINVAL);
	CHECK_EQ(tk_pbkdf2(&p, (const u8 *)"s", 1, 1000, out, 0), -EINVAL);
}

int main(void)
{
	RUN(test_vectors);
	RUN(test_luks2_shape);
	RUN(test_against_openssl);
	RUN(test_yield_stops);
	RUN(test_errors);
	return tk_test_done();
}
