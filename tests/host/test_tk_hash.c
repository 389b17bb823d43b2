// SPDX-License-Identifier: GPL-2.0
/* Unit tests of src/lib/tk_hash.c: the one table of hash algorithms. */
#include "tk_test.h"
#include "tk_hash.h"
#include "tk2_msg.h"

/* Every row, from TPM 2.0 Part 2 (TPM_ALG_ID) and the crypto API names. */
static const struct {
	enum tk_hash hash;
	const char *name, *crypto;
	u16 alg;
	unsigned int size;
} rows[] = {
	{ TK_HASH_SHA1, "sha1", "sha1", 0x0004, 20 },
	{ TK_HASH_SHA256, "sha256", "sha256", 0x000b, 32 },
	{ TK_HASH_SHA384, "sha384", "sha384", 0x000c, 48 },
	{ TK_HASH_SHA512, "sha512", "sha512", 0x000d, 64 },
	{ TK_HASH_SM3_256, "sm3", "sm3", 0x0012, 32 },
};

static void test_rows(void)
{
	unsigned int i;

	CHECK_EQ(sizeof(rows) / sizeof(rows[0]), TK_HASH_COUNT);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CHECK_STR(tk_hash_name(rows[i].hash), rows[i].name);
		CHECK_STR(tk_hash_crypto_name(rows[i].hash), rows[i].crypto);
		CHECK_EQ(tk_hash_size(rows[i].hash), rows[i].size);
		CHECK_EQ(tk2_hash_alg(rows[i].hash), rows[i].alg);
		CHECK_EQ(tk2_alg_digest_size(rows[i].alg), rows[i].size);
		CHECK_EQ(tk_hash_by_name(rows[i].name), rows[i].hash);
		CHECK_EQ(tk_hash_by_alg(rows[i].alg), rows[i].hash);
	}
}

static void test_outside(void)
{
	CHECK_EQ(tk_hash_by_name("md5"), TK_HASH_COUNT);
	CHECK_EQ(tk_hash_by_name("SHA256"), TK_HASH_COUNT);
	CHECK_EQ(tk_hash_by_name(""), TK_HASH_COUNT);
	CHECK_EQ(tk_hash_by_alg(TK2_ALG_NULL), TK_HASH_COUNT);
	CHECK_EQ(tk_hash_by_alg(TK2_ALG_AES), TK_HASH_COUNT);
	CHECK_EQ(tk2_alg_digest_size(TK2_ALG_KEYEDHASH), 0);
	CHECK_EQ(tk2_hash_alg(TK_HASH_COUNT), TK2_ALG_NULL);
	CHECK(tk_hash_crypto_name(TK_HASH_COUNT) == NULL);
	CHECK_STR(tk_hash_name(TK_HASH_COUNT), "?");
	CHECK_EQ(tk_hash_size(TK_HASH_COUNT), 0);
}

int main(void)
{
	RUN(test_rows);
	RUN(test_outside);
	return tk_test_done();
}
