// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk_trust.c: the parents trusted this boot
 * (issue 22: a rewritten nameAlg, a full table, unprivileged records).
 */
#include "tk_test.h"
#include "tk_trust.h"
#include "tk2_session.h"
#include "tk2_ref.h"

#define SRK	0x81000001
#define OWNER	0x40000001

/* A public area with nameAlg @alg; the digest the kernel records of it. */
static void area(u8 pub[64], u16 alg, u8 seed)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		pub[i] = (u8)(seed + 7 * i);
	pub[0] = 0x00;
	pub[1] = 0x23;			/* TPM_ALG_ECC */
	pub[2] = alg >> 8;
	pub[3] = alg & 0xff;
}

static void digest_of(const u8 pub[64], u8 d[TK_TRUST_DIGEST_SIZE])
{
	ref_sha256(pub, 64, d);
}

static void test_first_use_then_same(void)
{
	struct tk_trust t = { };
	u8 pub[64], d[32];

	area(pub, 0x000b, 1);
	digest_of(pub, d);
	CHECK_EQ(tk_trust_check(&t, SRK, d, true), TK_TRUST_NEW);
	CHECK_EQ(tk_trust_check(&t, SRK, d, true), TK_TRUST_SAME);
	CHECK_EQ(tk_trust_check(&t, SRK, d, false), TK_TRUST_SAME);
	CHECK(tk_trust_binds(tk_trust_find(&t, SRK), true));
	CHECK(!tk_trust_find(&t, OWNER));
	CHECK(tk_trust_why(TK_TRUST_SAME) == NULL);
	CHECK(tk_trust_why(TK_TRUST_NEW) == NULL);
}

/*
 * The downgrade of issue 22 case 1: the same key with its nameAlg
 * rewritten to SHA-1, SHA-384 or SHA-512 is another public area, refused
 * after a good first use; and no such area has a Name we can salt with.
 */
static void test_name_alg_rewrite(void)
{
	static const u16 algs[] = { 0x0004, 0x000c, 0x000d, 0x0012 };
	struct tk_trust t = { };
	u8 pub[64], d[32], name[TK2_NAME_SIZE];
	unsigned int i;

	area(pub, 0x000b, 2);
	digest_of(pub, d);
	CHECK_EQ(tk2_name(ossl_crypto(0), pub, sizeof(pub), name), 0);
	CHECK_EQ(tk_trust_check(&t, SRK, d, true), TK_TRUST_NEW);
	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		pub[2] = algs[i] >> 8;
		pub[3] = algs[i] & 0xff;
		digest_of(pub, d);
		CHECK_EQ(tk_trust_check(&t, SRK, d, true), TK_TRUST_CHANGED);
		CHECK_EQ(tk_trust_check(&t, SRK, d, false), TK_TRUST_CHANGED);
		CHECK_EQ(tk2_name(ossl_crypto(0), pub, sizeof(pub), name),
			 -EINVAL);
	}
	CHECK(tk_trust_why(TK_TRUST_CHANGED) != NULL);
}

/* A full table refuses a handle it has no record of: never silent. */
static void test_full_table(void)
{
	struct tk_trust t = { };
	u8 pub[64], d[32];
	unsigned int i;

	for (i = 0; i < TK_TRUST_MAX; i++) {
		area(pub, 0x000b, (u8)i);
		digest_of(pub, d);
		CHECK_EQ(tk_trust_check(&t, SRK + i, d, true), TK_TRUST_NEW);
	}
	area(pub, 0x000b, 99);
	digest_of(pub, d);
	CHECK_EQ(tk_trust_check(&t, SRK + TK_TRUST_MAX, d, true),
		 TK_TRUST_FULL);
	CHECK(tk_trust_why(TK_TRUST_FULL) != NULL);
	CHECK(!tk_trust_find(&t, SRK + TK_TRUST_MAX));
	/* recorded handles still answer */
	area(pub, 0x000b, 3);
	digest_of(pub, d);
	CHECK_EQ(tk_trust_check(&t, SRK + 3, d, false), TK_TRUST_SAME);
	tk_trust_forget(&t, SRK + 3);
	CHECK_EQ(tk_trust_check(&t, SRK + TK_TRUST_MAX, d, true),
		 TK_TRUST_NEW);
}

/* What an unprivileged caller saw first binds unprivileged callers only. */
static void test_unprivileged_record(void)
{
	struct tk_trust t = { };
	u8 good[64], bad[64], dg[32], db[32];

	area(good, 0x000b, 4);
	area(bad, 0x000b, 5);
	digest_of(good, dg);
	digest_of(bad, db);
	CHECK_EQ(tk_trust_check(&t, SRK, db, false), TK_TRUST_NEW);
	CHECK(!tk_trust_binds(tk_trust_find(&t, SRK), true));
	CHECK(tk_trust_binds(tk_trust_find(&t, SRK), false));
	CHECK_EQ(tk_trust_check(&t, SRK, dg, false), TK_TRUST_CHANGED);
	/* root is not bound: its answer replaces the record */
	CHECK_EQ(tk_trust_check(&t, SRK, dg, true), TK_TRUST_REPLACED);
	CHECK(tk_trust_binds(tk_trust_find(&t, SRK), true));
	CHECK_EQ(tk_trust_check(&t, SRK, db, false), TK_TRUST_CHANGED);
	CHECK_EQ(tk_trust_check(&t, SRK, dg, false), TK_TRUST_SAME);
	/* the same answer marks it privileged */
	CHECK_EQ(tk_trust_check(&t, OWNER, dg, false), TK_TRUST_NEW);
	CHECK_EQ(tk_trust_check(&t, OWNER, dg, true), TK_TRUST_SAME);
	CHECK(tk_trust_binds(tk_trust_find(&t, OWNER), true));
}

int main(void)
{
	RUN(test_first_use_then_same);
	RUN(test_name_alg_rewrite);
	RUN(test_full_table);
	RUN(test_unprivileged_record);
	ossl_done();
	return tk_test_done();
}
