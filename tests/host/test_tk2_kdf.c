// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_kdf.c: KDFa, KDFe, the session key, the CFB
 * key and AES-CFB, and the ECDH salt.
 *  - Published vectors: the KDFa self-test vector of the TCG reference
 *    code as libtpms ships it (KdfTestData.h, SHA-256), KDFe vectors and
 *    two ECDH salts of github.com/chrisfenner/tpm-test-vectors (validated
 *    there against the TCG reference implementation; the salts by
 *    TPM2_StartAuthSession).
 *  - Independent values: tk2_ref.h (KDFa from the spec text, EVP's
 *    aes-128-cfb128) over thousands of sizes.
 */
#include <openssl/ec.h>
#include <openssl/bn.h>
#include "tk_test.h"
#include "tk2_ref.h"
#include "tk2_kdf.h"
#include "tk2_session.h"
#include <linux/kernel.h>

static u32 rng = 0x2545f491;

static u8 rnd8(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return (u8)rng;
}

static void fill(u8 *p, size_t n)
{
	while (n--)
		*p++ = rnd8();
}

static bool all_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* ---- KDFa ---- */

static void test_kdfa_reference_vector(void)
{
	u8 key[20], u[8], v[8], want[20], out[20];
	struct tk_span su = { u, sizeof(u) }, sv = { v, sizeof(v) };

	unhex(key, "271fa08bbdc5060ec3dfa928ff9b73123a12da0c");
	unhex(u, "ce244f395dca7391");
	unhex(v, "da504031ddf12e83");
	unhex(want, "bb0259e1c8ba607e6a2cd704b69a902e9ade84c4");
	CHECK_EQ(tk2_kdfa(ossl_crypto(0), key, 20, "KDFSELFTESTLABEL", &su,
			  &sv, 160, out), 0);
	CHECK_MEM(out, want, 20);
	/* and the independent KDFa agrees with the published value */
	ref_kdfa(key, 20, "KDFSELFTESTLABEL", u, 8, v, 8, 160, out);
	CHECK_MEM(out, want, 20);
}

/* Every length from 1 to 2048 bits, keys and contexts of varied sizes. */
static void test_kdfa_matches_spec_text(void)
{
	static const char *const labels[] = { "ATH", "CFB", "", "STORAGE" };
	u8 key[96], u[40], v[40], got[256], want[256];
	unsigned int bad = 0;
	u32 bits;

	for (bits = 1; bits <= 2048; bits++) {
		u32 klen = rnd8() % sizeof(key), ulen = rnd8() % 41;
		u32 vlen = rnd8() % 41, n = (bits + 7) / 8;
		struct tk_span su = { u, ulen }, sv = { v, vlen };
		const char *label = labels[bits % 4];

		fill(key, klen);
		fill(u, ulen);
		fill(v, vlen);
		memset(got, 0xee, sizeof(got));
		ref_kdfa(key, klen, label, u, ulen, v, vlen, bits, want);
		if (tk2_kdfa(ossl_crypto(0), key, klen, label,
			     ulen ? &su : NULL, vlen ? &sv : NULL, bits, got) ||
		    memcmp(got, want, n) || (n < 256 && got[n] != 0xee))
			bad++;
	}
	CHECK_EQ(bad, 0);
}

static void test_kdfa_refuses_sizes(void)
{
	u8 out[257];

	CHECK_EQ(tk2_kdfa(ossl_crypto(0), out, 4, "ATH", NULL, NULL, 0, out),
		 -EINVAL);
	CHECK_EQ(tk2_kdfa(ossl_crypto(0), out, 4, "ATH", NULL, NULL, 2049,
			  out), -EINVAL);
	CHECK_EQ(tk2_kdfa(ossl_crypto(0), out, 4, "ATH", NULL, NULL,
			  0xffffffff, out), -EINVAL);
}

/* A failing HMAC in any block: its error, and no partial output left. */
static void test_kdfa_primitive_failure_wipes_output(void)
{
	u8 key[32] = { 1 }, out[100];
	int at;

	for (at = 1; at <= 4; at++) {
		memset(out, 0xaa, sizeof(out));
		CHECK_EQ(tk2_kdfa(ossl_crypto(at), key, 32, "CFB", NULL, NULL,
				  800, out), -EIO);
		CHECK(all_zero(out, sizeof(out)));
	}
}

/* ---- KDFe ---- */

struct kdfe_vector {
	const char *name, *z, *use, *u, *v;
	u32 bits;
	const char *result;
};

/* github.com/chrisfenner/tpm-test-vectors vectors/kdfe.json, SHA-256 */
static const struct kdfe_vector kdfe_vectors[] = {
	{ "30_SHA256_109", "c3e3c34e82ccfa82d8999bf2635bb7cd01f3d65f03ff",
	  "CFB", "55576a51c0e45b86557535e9ea50d5e7f4a80bb426e7ff",
	  "dffdece923181dc335c1e936ff", 109,
	  "1106264c89948737c140d2f5b40e" },
	{ "37_SHA256_431", "e89fc5304cf46c1cf7d1f5de5d3d1ec7eddc80b0386700",
	  "SECRET",
	  "e602bc959fd97af0405649e0c80e02e9dd64e9d79e698292b043c79dfa9f9261",
	  "", 431,
	  "3a8e893b8b76cdddbf87845b2567fa7152577829f6a55b73cb82d4a1f0342a05"
	  "1d6e50e20ec2f96bc4de38d7d0d79a9caf99e1d574b9" },
	{ "38_SHA256_496", "00", "OBFUSCATE",
	  "ebcb3cd4a002941ed496ef1d32a70b0b7f6f05b8a51803d5a9ff9b",
	  "a1f79a7ee2beee21e2bfaee67769874687bfe21b2468fc8e721b6e967e12ff",
	  496,
	  "dcd14d72e0d5d8ec15b5ea15ae060e02f0e042f3af7efbd73650bb4457d73b06"
	  "0ef8f78bdf8cea099fe98fad6359bcfe92c1c6be8a157c1064c85ada3ad2" },
	{ "43_SHA256_59", "ff", "CFB",
	  "06579b559c31d03d5b180c1c66de6ae998f2",
	  "19c9c896a8a4c3976fda215f2f1b408a5cbee066d115e5a009ff", 59,
	  "073c247e3fcb57b9" },
	{ "48_SHA256_744", "fd4f9daba331a0a50a4e4c5fdf55034267", "CFB",
	  "93bc3d509a00",
	  "beb773b718a4642d40ac3f80d34f2361b7c5f47cf7f69bb397a45b00", 744,
	  "cf21b4a548a004a64acf5e5a5a199cfa3407fe691f0eb73a7ec664a973bb22c9"
	  "fd79155cd0972e0f2b1c135e61749723833e7cfc9e82df2e74e46ab0c3a9a25d"
	  "64016c1de347bb48d134d9c92e37043497839c57aec585b0f434c79ff5" },
};

static void test_kdfe_published_vectors(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kdfe_vectors); i++) {
		const struct kdfe_vector *t = &kdfe_vectors[i];
		u8 z[64], u[64], v[64], want[128], got[128];
		size_t zl = unhex(z, t->z), ul = unhex(u, t->u);
		size_t vl = unhex(v, t->v), wl = unhex(want, t->result);
		struct tk_span su = { u, ul }, sv = { v, vl };

		tk_current = t->name;
		CHECK_EQ(wl, (t->bits + 7) / 8);
		CHECK_EQ(tk2_kdfe(ossl_crypto(0), z, zl, t->use,
				  ul ? &su : NULL, vl ? &sv : NULL, t->bits,
				  got), 0);
		CHECK_MEM(got, want, wl);
	}
}

/* ---- the ECDH salt, end to end with P-256 ---- */

struct ecdh_vector {
	const char *name, *priv, *tpm_x, *tpm_y, *point, *secret;
};

/* tpm-test-vectors vectors/ecc_labeled_encaps.json, label "SECRET" */
static const struct ecdh_vector ecdh_vectors[] = {
	{ "06_P256_SHA256_128_restricted",
	  "897989c19f950c5f32f3a2156832bb49b39b0562f372e6e180be309c2bbc07c0",
	  "7d1f639091f4f93753e5ca964f537491e2ee50058bdf8d93c2f6f165d02a6f2c",
	  "5b4e618a7dad9e0cbc7d974ff78ac75ac3ca7be3c54a2b064e0f42f3b43de892",
	  "00208588b3516e0cc43073b2577362ff1b712373213043bcb0c7364c74bfc6f6"
	  "26e200203534ac662cd4462172cdd0dbe3f0d0e28edb9e08484a3a34b8e8e00d"
	  "9cb5b4c1",
	  "428bee6074a8d9c43979617363ca78cedc7b56673d43750678c965d0fddeb4be" },
	{ "19_P256_SHA256_SHA256_unrestricted",
	  "40c3b31378b535bb618a115f08061376fa3eb9242d13343143fcb1d271553a54",
	  "fae82d36fb69d05a8efb90bb880f3d925f6eb9cc5a4eaad869ff3bbbaa7ed024",
	  "a96ba543244580bd8d7d1f41c63fe854821745732d3f02e9fb37638147766ff4",
	  "002077368305b2997c86b558c5f74c2c1e132792b994ed6b11adb853b0372e17"
	  "81e400200c2eae6b750a77c7c42c170a14339af176a0b31fd58c6a3042266246"
	  "012e1c62",
	  "0869d99565293986d2e153fa642549e896617463b78a6956f11660a7aeec7660" },
};

/* x and y of @p, 32 octets each */
static void point_xy(const EC_GROUP *g, const EC_POINT *p, u8 *x, u8 *y)
{
	BIGNUM *bx = BN_new(), *by = BN_new();

	if (!EC_POINT_get_affine_coordinates(g, p, bx, by, NULL) ||
	    BN_bn2binpad(bx, x, 32) != 32 || BN_bn2binpad(by, y, 32) != 32)
		abort();
	BN_free(bx);
	BN_free(by);
}

/*
 * What the kernel will do with its ecdh kpp, done here with OpenSSL:
 * Z = x of (ephemeral private * TPM key); the salt must be the one the
 * TPM recovered, and the encryptedSalt bytes the ones it was sent.
 */
static void test_ecdh_salt_published_vectors(void)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ecdh_vectors); i++) {
		const struct ecdh_vector *t = &ecdh_vectors[i];
		u8 d[32], tx[32], ty[32], point[68], secret[32];
		u8 ex[32], ey[32], zx[32], zy[32], got[32];
		u8 marshalled[TK2_ECC_POINT_SIZE];
		EC_POINT *tpm = EC_POINT_new(g), *eph = EC_POINT_new(g);
		EC_POINT *z = EC_POINT_new(g);
		BIGNUM *bd, *bx, *by;

		tk_current = t->name;
		unhex(d, t->priv);
		unhex(tx, t->tpm_x);
		unhex(ty, t->tpm_y);
		CHECK_EQ(unhex(point, t->point), sizeof(point));
		unhex(secret, t->secret);
		bd = BN_bin2bn(d, 32, NULL);
		bx = BN_bin2bn(tx, 32, NULL);
		by = BN_bin2bn(ty, 32, NULL);
		CHECK(EC_POINT_set_affine_coordinates(g, tpm, bx, by, NULL));
		CHECK(EC_POINT_mul(g, eph, bd, NULL, NULL, NULL));
		CHECK(EC_POINT_mul(g, z, NULL, tpm, bd, NULL));
		point_xy(g, eph, ex, ey);
		point_xy(g, z, zx, zy);

		tk2_ecc_point(marshalled, ex, ey);
		CHECK_MEM(marshalled, point, sizeof(point));
		CHECK_EQ(tk2_ecdh_salt(ossl_crypto(0), zx, 32, ex, 32, tx, 32,
				       got), 0);
		CHECK_MEM(got, secret, 32);

		BN_free(bd);
		BN_free(bx);
		BN_free(by);
		EC_POINT_free(tpm);
		EC_POINT_free(eph);
		EC_POINT_free(z);
	}
	EC_GROUP_free(g);
}

/* ---- session key, CFB key, AES-CFB ---- */

static void test_session_key(void)
{
	u8 bind[64], salt[32], nt[32], nc[32], kin[96], got[32], want[32];
	struct tk_span t = { nt, 32 }, c = { nc, 16 };
	static const u16 binds[] = { 0, 1, 20, 32, 64 };
	unsigned int i;

	fill(bind, sizeof(bind));
	for (i = 0; i < ARRAY_SIZE(binds); i++)	/* no trailing zero */
		if (binds[i])
			bind[binds[i] - 1] |= 1;
	fill(salt, sizeof(salt));
	fill(nt, sizeof(nt));
	fill(nc, sizeof(nc));
	for (i = 0; i < ARRAY_SIZE(binds); i++) {
		u16 bl = binds[i], sl = i % 2 ? 0 : 32;

		if (!bl && !sl)
			sl = 32;
		memcpy(kin, bind, bl);
		memcpy(kin + bl, salt, sl);
		ref_kdfa(kin, bl + sl, "ATH", nt, 32, nc, 16, 256, want);
		CHECK_EQ(tk2_session_key(ossl_crypto(0), bind, bl, salt, sl,
					 &t, &c, got), 0);
		CHECK_MEM(got, want, 32);
	}
	/* the bind authValue without its trailing zeros, as the TPM keeps it */
	memcpy(kin, bind, 20);
	memset(kin + 20, 0, 12);
	CHECK_EQ(tk2_session_key(ossl_crypto(0), kin, 32, NULL, 0, &t, &c,
				 got), 0);
	ref_kdfa(bind, 20, "ATH", nt, 32, nc, 16, 256, want);
	CHECK_MEM(got, want, 32);
	CHECK_EQ(tk2_session_key(ossl_crypto(0), kin + 20, 12, NULL, 0, &t, &c,
				 got), -EINVAL);
	/* neither bound nor salted: no session key; sizes out of range */
	CHECK_EQ(tk2_session_key(ossl_crypto(0), NULL, 0, NULL, 0, &t, &c,
				 got), -EINVAL);
	CHECK_EQ(tk2_session_key(ossl_crypto(0), bind, 65, salt, 32, &t, &c,
				 got), -EINVAL);
	CHECK_EQ(tk2_session_key(ossl_crypto(0), bind, 1, salt, 33, &t, &c,
				 got), -EINVAL);
}

static void test_cfb_key(void)
{
	u8 sv[64], newer[32], older[32], got[32], want[32];
	struct tk_span n = { newer, 32 }, o = { older, 20 };

	fill(sv, sizeof(sv));
	fill(newer, sizeof(newer));
	fill(older, sizeof(older));
	ref_kdfa(sv, 64, "CFB", newer, 32, older, 20, 256, want);
	CHECK_EQ(tk2_cfb_key(ossl_crypto(0), sv, 64, &n, &o, got), 0);
	CHECK_MEM(got, want, 32);
}

/* tk2_aes_cfb() against EVP's aes-128-cfb128, every length to 80. */
static void test_aes_cfb_matches_evp(void)
{
	const struct tk2_crypto *c = ossl_crypto(0);
	u8 key[16], iv0[16], iv[16], pt[80], ct[80], buf[80];
	unsigned int len, bad = 0;

	fill(key, 16);
	fill(iv0, 16);
	fill(pt, sizeof(pt));
	CHECK_EQ(c->aes_setkey(c->ctx, key, 16), 0);
	for (len = 0; len <= sizeof(pt); len++) {
		ref_cfb(key, iv0, pt, len, ct, 1);
		memcpy(buf, pt, len);
		memcpy(iv, iv0, 16);
		tk2_aes_cfb(c, iv, buf, len, false);
		if (memcmp(buf, ct, len))
			bad++;
		memcpy(iv, iv0, 16);
		tk2_aes_cfb(c, iv, buf, len, true);
		if (memcmp(buf, pt, len))
			bad++;
	}
	CHECK_EQ(bad, 0);
}

static void test_oaep_label(void)
{
	CHECK_EQ(TK2_OAEP_SALT_LABEL_LEN, sizeof(TK2_OAEP_SALT_LABEL));
}

int main(void)
{
	RUN(test_kdfa_reference_vector);
	RUN(test_kdfa_matches_spec_text);
	RUN(test_kdfa_refuses_sizes);
	RUN(test_kdfa_primitive_failure_wipes_output);
	RUN(test_kdfe_published_vectors);
	RUN(test_ecdh_salt_published_vectors);
	RUN(test_session_key);
	RUN(test_cfb_key);
	RUN(test_aes_cfb_matches_evp);
	RUN(test_oaep_label);
	ossl_done();
	return tk_test_done();
}
