// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk2_session.c. The test plays the TPM, written
 * independently from Part 1 §18-§21 with OpenSSL (tk2_ref.h), never with
 * src/lib: it parses each command the library produced, recomputes
 * cpHash and every HMAC, decrypts the first parameter with EVP's
 * aes-128-cfb128; it builds responses (encrypted first parameter, rpHash,
 * HMACs) that the library must accept, and every corruption of them
 * (each byte, each truncation, replays, changed attributes) that it must
 * refuse. Commands come from the tk2_msg builders, as in the kernel.
 */
#include <linux/kernel.h>
#include "tk_test.h"
#include "tk2_ref.h"
#include "tk2_kdf.h"
#include "tk2_session.h"
#include "tk2_msg.h"

#define BUF 1024

static u32 rng = 0x9e3779b9;

static void fill(u8 *p, size_t n)
{
	while (n--) {
		rng ^= rng << 13;
		rng ^= rng >> 17;
		rng ^= rng << 5;
		*p++ = (u8)rng;
	}
}

static u16 be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static size_t put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
	return 2;
}

static bool contains(const u8 *hay, size_t n, const u8 *needle, size_t k)
{
	size_t i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(hay + i, needle, k))
			return true;
	return false;
}

/* A salted HMAC session as StartAuthSession would leave it. */
static void new_session(struct tk2_session *s, u8 attrs, const void *auth,
			u8 auth_len)
{
	memset(s, 0, sizeof(*s));
	s->handle = 0x02000000 | (rng & 0xff);
	s->hmac = true;
	s->attrs = attrs;
	s->key_len = 32;
	fill(s->key, 32);
	s->auth_len = auth_len;
	if (auth_len)
		memcpy(s->auth, auth, auth_len);
	s->nonce_caller_len = 32;
	fill(s->nonce_caller, 32);
	s->nonce_tpm_len = 32;
	fill(s->nonce_tpm, 32);
}

/* ---- the TPM's side, independent of src/lib ---- */

static size_t sess_value(const struct tk2_session *s, u8 *out)
{
	memcpy(out, s->key, s->key_len);
	memcpy(out + s->key_len, s->auth, s->auth_len);
	return s->key_len + s->auth_len;
}

/* CFB over a TPM2B's contents with KDFa(sessionValue, "CFB", newer, older) */
static void tpm_cfb(const struct tk2_session *s, u8 *tpm2b, const u8 *newer,
		    const u8 *older, int enc)
{
	u8 sv[96], kiv[32], tmp[BUF];
	size_t svl = sess_value(s, sv);
	u16 n = be16(tpm2b);

	ref_kdfa(sv, svl, "CFB", newer, 32, older, s->nonce_caller_len, 256,
		 kiv);
	ref_cfb(kiv, kiv + 16, tpm2b + 2, n, tmp, enc);
	memcpy(tpm2b + 2, tmp, n);
}

/*
 * Check a command as the TPM would: layout, every HMAC over cpHash; then
 * decrypt the first parameter. Returns 0, or which check failed.
 */
static int tpm_check_cmd(const u8 *cmd, u32 nh, const struct tk_span *names,
			 struct tk2_session *const *s, unsigned int n,
			 u8 *params, u32 *plen)
{
	u32 len = be32(cmd + 2), pos = 10 + 4 * nh, aend, i;
	const u8 *hm[3];
	u16 hl[3];
	u8 msg[BUF * 2], cp[32], want[32], key[96];
	size_t m;
	int dec = -1, enc = -1;

	if (be16(cmd) != 0x8002)
		return 1;
	aend = pos + 4 + be32(cmd + pos);
	pos += 4;
	for (i = 0; i < n; i++) {
		u16 nl;

		if (be32(cmd + pos) != s[i]->handle)
			return 2;
		nl = be16(cmd + pos + 4);
		pos += 6;
		if (nl != s[i]->nonce_caller_len ||
		    memcmp(cmd + pos, s[i]->nonce_caller, nl))
			return 3;
		pos += nl;
		if (cmd[pos++] != s[i]->attrs)
			return 4;
		hl[i] = be16(cmd + pos);
		hm[i] = cmd + pos + 2;
		pos += 2 + hl[i];
		if (s[i]->attrs & 0x20)
			dec = i;
		if (s[i]->attrs & 0x40)
			enc = i;
	}
	if (pos != aend || pos > len)
		return 5;
	*plen = len - pos;
	memcpy(params, cmd + pos, *plen);

	m = 0;
	memcpy(msg, cmd + 6, 4);
	m += 4;
	for (i = 0; i < nh; i++) {
		memcpy(msg + m, names[i].p, names[i].len);
		m += names[i].len;
	}
	memcpy(msg + m, params, *plen);
	m += *plen;
	ref_sha256(msg, m, cp);

	for (i = 0; i < n; i++) {
		if (!s[i]->hmac) {
			if (hl[i] != s[i]->auth_len ||
			    memcmp(hm[i], s[i]->auth, hl[i]))
				return 6;
			continue;
		}
		m = 0;
		memcpy(msg, cp, 32);
		m += 32;
		memcpy(msg + m, s[i]->nonce_caller, s[i]->nonce_caller_len);
		m += s[i]->nonce_caller_len;
		memcpy(msg + m, s[i]->nonce_tpm, s[i]->nonce_tpm_len);
		m += s[i]->nonce_tpm_len;
		if (i == 0 && dec > 0) {
			memcpy(msg + m, s[dec]->nonce_tpm, 32);
			m += 32;
		}
		if (i == 0 && enc > 0 && enc != dec) {
			memcpy(msg + m, s[enc]->nonce_tpm, 32);
			m += 32;
		}
		msg[m++] = s[i]->attrs;
		ref_hmac(key, sess_value(s[i], key), msg, m, want);
		if (hl[i] != 32 || memcmp(hm[i], want, 32))
			return 7;
	}
	if (dec >= 0)
		tpm_cfb(s[dec], params, s[dec]->nonce_caller, s[dec]->nonce_tpm,
			0);
	return 0;
}

/*
 * A response as the TPM makes it: the first parameter encrypted for the
 * encrypt session, new nonces @nt, HMACs over rpHash. @flip_attrs is
 * XORed into every returned attribute byte (the HMAC covers the result).
 */
static u32 tpm_make_rsp(u8 *rsp, u32 cc, const u8 *handles, u32 nh,
			const u8 *params, u32 plen,
			struct tk2_session *const *s, unsigned int n,
			u8 nt[][32], u8 flip_attrs)
{
	u8 p[BUF], msg[BUF * 2], rph[32], key[96];
	u32 pos, i;
	size_t m;

	memcpy(p, params, plen);
	for (i = 0; i < n; i++)
		if (s[i]->attrs & 0x40)
			tpm_cfb(s[i], p, nt[i], s[i]->nonce_caller, 1);
	memset(msg, 0, 4);
	memcpy(msg + 4, (u8[]){ cc >> 24, cc >> 16, cc >> 8, cc }, 4);
	memcpy(msg + 8, p, plen);
	ref_sha256(msg, 8 + plen, rph);

	pos = 10;
	if (nh)
		memcpy(rsp + pos, handles, 4 * nh);
	pos += 4 * nh;
	ref_be32(rsp + pos, plen);
	memcpy(rsp + pos + 4, p, plen);
	pos += 4 + plen;
	for (i = 0; i < n; i++) {
		u8 attrs = s[i]->attrs ^ flip_attrs;

		pos += put16(rsp + pos, 32);
		memcpy(rsp + pos, nt[i], 32);
		pos += 32;
		rsp[pos++] = attrs;
		if (!s[i]->hmac) {
			pos += put16(rsp + pos, 0);
			continue;
		}
		m = 0;
		memcpy(msg, rph, 32);
		memcpy(msg + 32, nt[i], 32);
		m = 64;
		memcpy(msg + m, s[i]->nonce_caller, s[i]->nonce_caller_len);
		m += s[i]->nonce_caller_len;
		msg[m++] = attrs;
		pos += put16(rsp + pos, 32);
		ref_hmac(key, sess_value(s[i], key), msg, m, rsp + pos);
		pos += 32;
	}
	put16(rsp, 0x8002);
	ref_be32(rsp + 2, pos);
	ref_be32(rsp + 6, 0);
	return pos;
}

/* ---- commands ---- */

static const u8 secret[32] = {
	0x5e, 0xc7, 0xe7, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12,
	0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x5e,
};

static u32 build_create(u8 *buf, u32 size, const u8 *pw, u16 pw_len,
			u8 *params, u32 *plen)
{
	struct tk_cmd_buf b;
	struct tk2_create_in in = {
		.parent = TK2_SRK_HANDLE,
		.parent_auth = { .handle = TK2_RS_PW, .value = pw, .len = pw_len },
		.user_auth = (const u8 *)"blobauth",
		.user_auth_len = 8,
		.data = secret,
		.data_len = sizeof(secret),
		.name_alg = TK2_ALG_SHA256,
		.attrs = TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT,
	};
	u32 poff;

	if (tk2_cmd_create(&b, buf, size, &in))
		return 0;
	poff = 14 + 4 + be32(buf + 14);
	*plen = b.len - poff;
	memcpy(params, buf + poff, *plen);
	return b.len;
}

/*
 * Create under the SRK in a salted session that encrypts inSensitive:
 * the TPM accepts the HMAC and recovers the parameters exactly, and the
 * secret is nowhere in the bytes on the bus.
 */
static void test_create_hmac_and_encrypted_sensitive(void)
{
	u8 cmd[BUF], want[BUF], got[BUF], name[34];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, *s[] = { &s0 };
	u32 wlen, glen;
	const char *why = NULL;

	fill(name, sizeof(name));
	new_session(&s0, TK2_SESS_CONTINUE | TK2_SESS_DECRYPT, "srkauth", 7);
	CHECK(build_create(cmd, BUF, (const u8 *)"pw", 2, want, &wlen));
	CHECK(contains(cmd, be32(cmd + 2), secret, 8));
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), 0);
	CHECK(!contains(cmd, be32(cmd + 2), secret, 4));
	CHECK(!contains(cmd, be32(cmd + 2), (const u8 *)"blobauth", 8));
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, s, 1, got, &glen), 0);
	CHECK_EQ(glen, wlen);
	CHECK_MEM(got, want, wlen);
	CHECK_EQ(be32(cmd + 10), TK2_SRK_HANDLE);
}

/* Same, without encryption: parameters sent as they were. */
static void test_create_hmac_only(void)
{
	u8 cmd[BUF], want[BUF], got[BUF], name[34];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, *s[] = { &s0 };
	u32 wlen, glen;
	const char *why;

	fill(name, sizeof(name));
	new_session(&s0, TK2_SESS_CONTINUE, NULL, 0);
	CHECK(build_create(cmd, BUF, NULL, 0, want, &wlen));
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, s, 1, got, &glen), 0);
	CHECK_MEM(got, want, wlen);
	CHECK(contains(cmd, be32(cmd + 2), secret, 32));
}

/*
 * A long password area replaced by a shorter session area: nothing of
 * the password is left in the buffer, past the new end included.
 */
static void test_password_area_wiped(void)
{
	u8 cmd[BUF], params[BUF], pw[64], name[34];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, *s[] = { &s0 };
	u32 plen, old, i, nonzero = 0;
	const char *why;

	memset(pw, 0x77, sizeof(pw));
	fill(name, sizeof(name));
	new_session(&s0, TK2_SESS_CONTINUE | TK2_SESS_DECRYPT, NULL, 0);
	s0.nonce_caller_len = 16;
	memset(cmd, 0, sizeof(cmd));
	old = build_create(cmd, BUF, pw, 64, params, &plen);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), 0);
	CHECK(be32(cmd + 2) < old);
	for (i = be32(cmd + 2); i < old; i++)
		nonzero += cmd[i] != 0;
	CHECK_EQ(nonzero, 0);
	CHECK(!contains(cmd, BUF, pw, 8));
}

/* A command without sessions (GetRandom) gains an encrypt-only session. */
static void test_getrandom_encrypt_session(void)
{
	u8 cmd[BUF] = { 0x80, 0x01, 0, 0, 0, 12, 0, 0, 0x01, 0x7b, 0, 32 };
	u8 params[BUF], rsp[BUF], rparams[2 + 32], nt[1][32];
	struct tk2_session s0, *s[] = { &s0 };
	const char *why;
	u32 plen, rlen;

	new_session(&s0, TK2_SESS_CONTINUE | TK2_SESS_ENCRYPT, NULL, 0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 0, NULL, s, 1,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 0, NULL, s, 1, params, &plen), 0);
	CHECK_EQ(plen, 2);
	CHECK_EQ(be16(params), 32);

	put16(rparams, 32);
	memcpy(rparams + 2, secret, 32);
	fill(nt[0], 32);
	rlen = tpm_make_rsp(rsp, 0x17b, NULL, 0, rparams, sizeof(rparams), s,
			    1, nt, 0);
	CHECK(!contains(rsp, rlen, secret, 4));
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, 0x17b, 0, s, 1,
				  &why), 0);
	CHECK_MEM(rsp + 10 + 4 + 2, secret, 32);
	CHECK_MEM(s0.nonce_tpm, nt[0], 32);
}

/* ---- responses ---- */

struct unseal_case {
	struct tk2_session s0;
	u8 rsp[BUF];
	u32 rlen;
	u8 nt[1][32];
};

static void make_unseal(struct unseal_case *u)
{
	u8 params[2 + 32];

	new_session(&u->s0, TK2_SESS_CONTINUE | TK2_SESS_ENCRYPT,
		    "blobauth", 8);
	put16(params, 32);
	memcpy(params + 2, secret, 32);
	fill(u->nt[0], 32);
	u->rlen = tpm_make_rsp(u->rsp, TK2_CC_UNSEAL, NULL, 0, params,
			       sizeof(params),
			       (struct tk2_session *[]){ &u->s0 }, 1, u->nt, 0);
}

/* Unseal: checked, decrypted, then parsed by the ordinary parser. */
static void test_unseal_response(void)
{
	struct unseal_case u;
	struct tk2_session *s[] = { &u.s0 };
	struct tk_span data;
	const char *why;
	u8 *copy;

	make_unseal(&u);
	CHECK(!contains(u.rsp, u.rlen, secret, 4));
	copy = malloc(u.rlen);
	memcpy(copy, u.rsp, u.rlen);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), copy, u.rlen, TK2_CC_UNSEAL,
				  0, s, 1, &why), 0);
	CHECK_EQ(tk2_rsp_unseal(copy, u.rlen, &data), 0);
	CHECK_EQ(data.len, 32);
	CHECK_MEM(data.p, secret, 32);
	CHECK_MEM(u.s0.nonce_tpm, u.nt[0], 32);
	free(copy);
}

/*
 * Every byte of the response changed, in each of three ways, and every
 * truncation: refused (an error code or a negative errno, never 0), and
 * the session's nonces untouched.
 */
static void test_tampered_response_refused(void)
{
	static const u8 flips[] = { 0x01, 0x80, 0xff };
	struct unseal_case u;
	struct tk2_session s0, *s[] = { &s0 };
	unsigned int accepted = 0, nonce_moved = 0, i, f;
	const char *why;

	make_unseal(&u);
	for (i = 0; i < u.rlen; i++) {
		for (f = 0; f < ARRAY_SIZE(flips); f++) {
			u8 *copy = malloc(u.rlen);

			memcpy(copy, u.rsp, u.rlen);
			copy[i] ^= flips[f];
			s0 = u.s0;
			if (!tk2_rsp_sessions(ossl_crypto(0), copy, u.rlen,
					      TK2_CC_UNSEAL, 0, s, 1, &why))
				accepted++;
			if (memcmp(s0.nonce_tpm, u.s0.nonce_tpm, 32))
				nonce_moved++;
			free(copy);
		}
	}
	for (i = 0; i < u.rlen; i++) {
		u8 *copy = malloc(i ? i : 1);

		memcpy(copy, u.rsp, i);
		s0 = u.s0;
		if (!tk2_rsp_sessions(ossl_crypto(0), copy, i, TK2_CC_UNSEAL,
				      0, s, 1, &why))
			accepted++;
		free(copy);
	}
	CHECK_EQ(accepted, 0);
	CHECK_EQ(nonce_moved, 0);
}

/* The right response to another command, or to an earlier nonce. */
static void test_replayed_response_refused(void)
{
	struct unseal_case u;
	struct tk2_session *s[] = { &u.s0 };
	const char *why;
	u8 copy[BUF];

	make_unseal(&u);
	memcpy(copy, u.rsp, u.rlen);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), copy, u.rlen, TK2_CC_CREATE,
				  0, s, 1, &why), -EBADMSG);
	CHECK_STR(why, "response HMAC mismatch");

	memcpy(copy, u.rsp, u.rlen);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), copy, u.rlen, TK2_CC_UNSEAL,
				  0, s, 1, &why), 0);
	/* the next command has a fresh nonceCaller: the old answer is stale */
	fill(u.s0.nonce_caller, 32);
	memcpy(copy, u.rsp, u.rlen);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), copy, u.rlen, TK2_CC_UNSEAL,
				  0, s, 1, &why), -EBADMSG);
}

/* A TPM (or a bus) that drops the encrypt attribute, HMAC and all. */
static void test_changed_attributes_refused(void)
{
	struct tk2_session s0, *s[] = { &s0 };
	u8 params[2 + 32], rsp[BUF], nt[1][32];
	const char *why;
	u32 rlen;

	new_session(&s0, TK2_SESS_CONTINUE | TK2_SESS_ENCRYPT, NULL, 0);
	put16(params, 32);
	memcpy(params + 2, secret, 32);
	fill(nt[0], 32);
	rlen = tpm_make_rsp(rsp, TK2_CC_UNSEAL, NULL, 0, params,
			    sizeof(params), s, 1, nt, TK2_SESS_ENCRYPT);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, TK2_CC_UNSEAL, 0,
				  s, 1, &why), -EBADMSG);
	CHECK_STR(why, "response session attributes changed");
}

/* An error response has no sessions: its code comes back as it is. */
static void test_error_response(void)
{
	u8 rsp[10] = { 0x80, 0x01, 0, 0, 0, 10, 0, 0, 0x09, 0x8e };
	struct tk2_session s0, *s[] = { &s0 };
	const char *why;

	new_session(&s0, TK2_SESS_CONTINUE, NULL, 0);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, 10, TK2_CC_UNSEAL, 0,
				  s, 1, &why), 0x98e);
	rsp[6] = 0x80;		/* not a TPM_RC: refused, not passed on */
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, 10, TK2_CC_UNSEAL, 0,
				  s, 1, &why), -EBADMSG);
}

/*
 * Load (a handle before the parameters) with an HMAC session for the
 * parent and a second session that encrypts both ways: the first
 * session's HMAC covers the second's nonceTPM (Part 1 §19.6).
 */
static void test_two_sessions(void)
{
	u8 cmd[BUF], got[BUF], name[34], rsp[BUF], nt[2][32];
	u8 priv[40], pub[30], handle[4] = { 0x80, 0, 0, 1 }, rp[2 + 34];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, s1, *s[] = { &s0, &s1 };
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	struct tk_cmd_buf b;
	const char *why;
	u32 glen, rlen, h = 0;

	fill(name, sizeof(name));
	fill(priv, sizeof(priv));
	fill(pub, sizeof(pub));
	put16(priv, sizeof(priv) - 2);
	put16(pub, sizeof(pub) - 2);
	new_session(&s0, TK2_SESS_CONTINUE, "parent", 6);
	new_session(&s1, TK2_SESS_CONTINUE | TK2_SESS_DECRYPT |
		    TK2_SESS_ENCRYPT, NULL, 0);
	CHECK_EQ(tk2_cmd_load(&b, cmd, BUF, TK2_SRK_HANDLE, &pw, priv,
			       sizeof(priv), pub, sizeof(pub)), 0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 2,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, s, 2, got, &glen), 0);
	CHECK_EQ(glen, sizeof(priv) + sizeof(pub));
	CHECK_MEM(got, priv, sizeof(priv));
	CHECK(!contains(cmd, be32(cmd + 2), priv + 2, 8));

	/* the TPM's answer: the handle, then the object's name (encrypted) */
	put16(rp, 34);
	memcpy(rp + 2, name, 34);
	fill(nt[0], 32);
	fill(nt[1], 32);
	rlen = tpm_make_rsp(rsp, TK2_CC_LOAD, handle, 1, rp, sizeof(rp), s, 2,
			    nt, 0);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, TK2_CC_LOAD, 1, s,
				  2, &why), 0);
	CHECK_MEM(rsp + 10 + 4 + 4 + 2, name, 34);
	CHECK_EQ(tk2_rsp_load(rsp, rlen, &h), -EBADMSG); /* two sessions */
	CHECK_MEM(s1.nonce_tpm, nt[1], 32);
}

/* A policy session (no HMAC, empty hmac field) beside an encrypt session. */
static void test_policy_and_encrypt_session(void)
{
	u8 cmd[BUF], got[BUF], name[34], rsp[BUF], nt[2][32], rp[2 + 32];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, s1, *s[] = { &s0, &s1 };
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	struct tk_cmd_buf b;
	const char *why;
	u32 glen, rlen;

	fill(name, sizeof(name));
	memset(&s0, 0, sizeof(s0));
	s0.handle = 0x03000000;
	s0.attrs = TK2_SESS_CONTINUE;
	new_session(&s1, TK2_SESS_CONTINUE | TK2_SESS_ENCRYPT, NULL, 0);
	CHECK_EQ(tk2_cmd_unseal(&b, cmd, BUF, 0x80000001, &pw), 0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 2,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, s, 2, got, &glen), 0);
	CHECK_EQ(glen, 0);

	put16(rp, 32);
	memcpy(rp + 2, secret, 32);
	fill(nt[0], 32);
	fill(nt[1], 32);
	rlen = tpm_make_rsp(rsp, TK2_CC_UNSEAL, NULL, 0, rp, sizeof(rp), s, 2,
			    nt, 0);
	CHECK(!contains(rsp, rlen, secret, 4));
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, TK2_CC_UNSEAL, 0,
				  s, 2, &why), 0);
	CHECK_MEM(rsp + 10 + 4 + 2, secret, 32);
}

/*
 * The salted policy session of a pcrs= key with a PIN, alone on Unseal:
 * after PolicyAuthValue its HMAC is keyed by sessionKey || PIN both ways
 * (Part 1 §19.6) and it encrypts outData with the same key; the TPM side
 * (tpm_check_cmd, tpm_make_rsp: OpenSSL, not src/lib) agrees, the PIN is
 * not in the command, the key not in the response. A response keyed
 * without the PIN (a TPM that did not run PolicyAuthValue) is refused.
 * Unsalted (sessions=0), the PIN alone keys the HMAC.
 */
static void test_salted_policy_session_pin(void)
{
	u8 cmd[BUF], got[BUF], name[34], rsp[BUF], nt[1][32], rp[2 + 32];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, other, *s[] = { &s0 }, *o[] = { &other };
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	struct tk_cmd_buf b;
	const char *why;
	u32 glen, rlen;

	fill(name, sizeof(name));
	new_session(&s0, TK2_SESS_ENCRYPT, "4711", 4);
	s0.handle = 0x03000002;
	CHECK_EQ(tk2_cmd_unseal(&b, cmd, BUF, 0x80000001, &pw), 0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, s, 1, got, &glen), 0);
	CHECK(!contains(cmd, be32(cmd + 2), (const u8 *)"4711", 4));
	/* the same command checked with the session key alone: not the TPM's */
	other = s0;
	other.auth_len = 0;
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, o, 1, got, &glen), 7);

	put16(rp, 32);
	memcpy(rp + 2, secret, 32);
	fill(nt[0], 32);
	rlen = tpm_make_rsp(rsp, TK2_CC_UNSEAL, NULL, 0, rp, sizeof(rp), o, 1,
			    nt, 0);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, TK2_CC_UNSEAL, 0,
				  s, 1, &why), -EBADMSG);
	rlen = tpm_make_rsp(rsp, TK2_CC_UNSEAL, NULL, 0, rp, sizeof(rp), s, 1,
			    nt, 0);
	CHECK(!contains(rsp, rlen, secret, 4));
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, TK2_CC_UNSEAL, 0,
				  s, 1, &why), 0);
	CHECK_MEM(rsp + 10 + 4 + 2, secret, 32);

	/* unsalted: no session key, the HMAC keyed by the PIN alone */
	new_session(&s0, 0, "4711", 4);
	s0.handle = 0x03000003;
	s0.key_len = 0;
	CHECK_EQ(tk2_cmd_unseal(&b, cmd, BUF, 0x80000001, &pw), 0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, s, 1, got, &glen), 0);
	CHECK(!contains(cmd, be32(cmd + 2), (const u8 *)"4711", 4));
}

/*
 * blobauth given as 20 octets ending in zeros: the TPM keeps "pw" and
 * keys its HMACs with that; so must the command's and the response's.
 */
static void test_auth_trailing_zeros_left_out(void)
{
	u8 cmd[BUF], got[BUF], name[34], rsp[BUF], nt[1][32], rp[2 + 32];
	u8 pw[20] = { 'p', 'w' };
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, tpm_view, *s[] = { &s0 }, *t[] = { &tpm_view };
	struct tk2_auth none = { .handle = TK2_RS_PW };
	struct tk_cmd_buf b;
	const char *why;
	u32 glen, rlen;

	fill(name, sizeof(name));
	new_session(&s0, TK2_SESS_CONTINUE | TK2_SESS_ENCRYPT, pw, 20);
	tpm_view = s0;
	tpm_view.auth_len = 2;
	CHECK_EQ(tk2_cmd_unseal(&b, cmd, BUF, 0x80000001, &none), 0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), 0);
	CHECK_EQ(tpm_check_cmd(cmd, 1, names, t, 1, got, &glen), 0);

	put16(rp, 32);
	memcpy(rp + 2, secret, 32);
	fill(nt[0], 32);
	rlen = tpm_make_rsp(rsp, TK2_CC_UNSEAL, NULL, 0, rp, sizeof(rp), t, 1,
			    nt, 0);
	CHECK_EQ(tk2_rsp_sessions(ossl_crypto(0), rsp, rlen, TK2_CC_UNSEAL, 0,
				  s, 1, &why), 0);
	CHECK_MEM(rsp + 10 + 4 + 2, secret, 32);
	CHECK_EQ(tk2_auth_len(pw, 20), 2);
	CHECK_EQ(tk2_auth_len(pw + 2, 18), 0);
}

/* ---- refusals of the command side ---- */

static void test_command_refusals(void)
{
	u8 cmd[BUF], params[BUF], name[34];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, s1, *s[] = { &s0, &s1 };
	struct tk2_auth pw = { .handle = TK2_RS_PW };
	struct tk_cmd_buf b;
	const char *why;
	u32 plen, len;

	fill(name, sizeof(name));
	/* two sessions that both decrypt */
	new_session(&s0, TK2_SESS_DECRYPT, NULL, 0);
	new_session(&s1, TK2_SESS_DECRYPT, NULL, 0);
	build_create(cmd, BUF, NULL, 0, params, &plen);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 2,
				  &why), -EINVAL);
	/* encryption without a session key, or in a password session */
	s0.key_len = 0;
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), -EINVAL);
	new_session(&s0, TK2_SESS_DECRYPT, NULL, 0);
	s0.hmac = false;
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), -EINVAL);
	/* no sessions, too many, too many handles */
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 0,
				  &why), -EINVAL);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 4,
				  &why), -EINVAL);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 4, names, s, 1,
				  &why), -EINVAL);
	/* a command that claims more than its buffer, or a bad area size */
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, 20, 1, names, s, 1,
				  &why), -EINVAL);
	ref_be32(cmd + 14, 0xfffffff0);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), -EINVAL);
	/* Unseal has no parameter to encrypt */
	new_session(&s0, TK2_SESS_DECRYPT, NULL, 0);
	tk2_cmd_unseal(&b, cmd, BUF, 0x80000001, &pw);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, BUF, 1, names, s, 1,
				  &why), -EINVAL);
	CHECK_STR(why, "first parameter cannot be encrypted");

	/* exactly enough room, and one byte less */
	new_session(&s0, TK2_SESS_DECRYPT | TK2_SESS_CONTINUE, NULL, 0);
	len = build_create(cmd, BUF, NULL, 0, params, &plen);
	len += 4 + 2 + 32 + 1 + 2 + 32 - (4 + 2 + 1 + 2);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, len - 1, 1, names, s, 1,
				  &why), -E2BIG);
	build_create(cmd, BUF, NULL, 0, params, &plen);
	CHECK_EQ(tk2_cmd_sessions(ossl_crypto(0), cmd, len, 1, names, s, 1,
				  &why), 0);
	CHECK_EQ(be32(cmd + 2), len);
}

/* A failing primitive: an error, and nothing left worth sending. */
static void test_command_primitive_failure(void)
{
	u8 cmd[BUF], params[BUF], name[34];
	struct tk_span names[1] = { { name, sizeof(name) } };
	struct tk2_session s0, *s[] = { &s0 };
	const char *why;
	u32 plen, len;
	int at;

	fill(name, sizeof(name));
	new_session(&s0, TK2_SESS_DECRYPT | TK2_SESS_CONTINUE, NULL, 0);
	for (at = 1; at <= 3; at++) {
		len = build_create(cmd, BUF, NULL, 0, params, &plen);
		CHECK_EQ(tk2_cmd_sessions(ossl_crypto(at), cmd, BUF, 1, names,
					  s, 1, &why), -EIO);
		CHECK(!contains(cmd, len + 64, secret, 4));
		CHECK_EQ(be32(cmd + 2), 0);
	}
}

/* ---- the salt key's public area and Name ---- */

/* tpm-test-vectors ecc_labeled_encaps.json 06: a TPMT_PUBLIC of P-256 */
static const char vector06_public[] =
	"0023000b00030460000000060080004300100003001000207d1f639091f4f937"
	"53e5ca964f537491e2ee50058bdf8d93c2f6f165d02a6f2c00205b4e618a7dad"
	"9e0cbc7d974ff78ac75ac3ca7be3c54a2b064e0f42f3b43de892";

static u32 srk_public(u8 *p, const u8 *x, const u8 *y)
{
	static const u8 head[] = {
		0x00, 0x23, 0x00, 0x0b, 0x00, 0x03, 0x04, 0x72, 0x00, 0x00,
		0x00, 0x06, 0x00, 0x80, 0x00, 0x43, 0x00, 0x10, 0x00, 0x03,
		0x00, 0x10, 0x00, 0x20,
	};
	u32 n = sizeof(head);

	memcpy(p, head, n);
	memcpy(p + n, x, 32);
	n += 32;
	n += put16(p + n, 32);
	memcpy(p + n, y, 32);
	return n + 32;
}

static void test_salt_key_public_and_name(void)
{
	u8 pub[200], x[32], y[32], name[TK2_NAME_SIZE], want[34];
	struct tk2_ecc_key k;
	u32 len, i, bad = 0;
	u8 *copy;

	len = unhex(pub, vector06_public);
	CHECK_EQ(tk2_ecc_public_parse(pub, len, &k), 0);
	CHECK_EQ(k.name_alg, TK2_ALG_SHA256);
	CHECK_EQ(k.attrs, 0x00030460);
	CHECK_MEM(k.x, pub + 24, 32);
	CHECK_MEM(k.y, pub + 58, 32);
	CHECK(!tk2_ecc_is_srk(&k));	/* neither fixedTPM nor fixedParent */
	CHECK_EQ(tk2_name(ossl_crypto(0), pub, len, name), 0);
	want[0] = 0x00;
	want[1] = 0x0b;
	ref_sha256(pub, len, want + 2);
	CHECK_MEM(name, want, 34);

	fill(x, 32);
	fill(y, 32);
	len = srk_public(pub, x, y);
	CHECK_EQ(tk2_ecc_public_parse(pub, len, &k), 0);
	CHECK(tk2_ecc_is_srk(&k));
	CHECK_MEM(k.x, x, 32);
	CHECK_MEM(k.y, y, 32);
	/* any one of the template's first 24 octets changed: not the SRK */
	for (i = 2; i < 24; i++) {
		pub[i] ^= 0x01;
		if (!tk2_ecc_public_parse(pub, len, &k) && tk2_ecc_is_srk(&k))
			bad++;
		pub[i] ^= 0x01;
	}
	CHECK_EQ(bad, 0);
	/* every truncation, one byte more, another type: refused */
	for (i = 0; i < len; i++) {
		copy = malloc(i ? i : 1);
		memcpy(copy, pub, i);
		if (!tk2_ecc_public_parse(copy, i, &k))
			bad++;
		free(copy);
	}
	CHECK_EQ(bad, 0);
	copy = malloc(len + 1);
	memcpy(copy, pub, len);
	copy[len] = 0;
	CHECK_EQ(tk2_ecc_public_parse(copy, len + 1, &k), -EINVAL);
	free(copy);
	pub[1] = 0x01;			/* TPM_ALG_RSA */
	CHECK_EQ(tk2_ecc_public_parse(pub, len, &k), -EINVAL);
	pub[1] = 0x23;
	pub[3] = 0x04;			/* SHA-1 name */
	CHECK_EQ(tk2_name(ossl_crypto(0), pub, len, name), -EINVAL);
	CHECK_EQ(tk2_name(ossl_crypto(0), pub, 3, name), -EINVAL);
}

/* ---- StartAuthSession ---- */

static void test_start_auth_session(void)
{
	u8 nc[32], x[32], y[32], point[TK2_ECC_POINT_SIZE], buf[BUF];
	u8 want[BUF], rsp[10 + 4 + 2 + 32];
	struct tk_span n = { nc, 32 }, salt = { point, sizeof(point) };
	struct tk2_session s0;
	struct tk_cmd_buf b;
	size_t w = 0;
	u32 h = 0;

	fill(nc, 32);
	fill(x, 32);
	fill(y, 32);
	tk2_ecc_point(point, x, y);
	CHECK_EQ(tk2_cmd_start_auth_session(&b, buf, BUF, TK2_SRK_HANDLE,
					    TK2_RH_NULL, &n, &salt,
					    TK2_SE_HMAC), 0);
	w += put16(want + w, 0x8001);
	w += ref_be32(want + w, 10 + 8 + 34 + 70 + 1 + 6 + 2);
	w += ref_be32(want + w, 0x176);
	w += ref_be32(want + w, 0x81000001);
	w += ref_be32(want + w, 0x40000007);
	w += put16(want + w, 32);
	memcpy(want + w, nc, 32);
	w += 32;
	w += put16(want + w, 68);
	w += put16(want + w, 32);
	memcpy(want + w, x, 32);
	w += 32;
	w += put16(want + w, 32);
	memcpy(want + w, y, 32);
	w += 32;
	want[w++] = 0;			/* TPM_SE_HMAC */
	w += put16(want + w, 0x0006);	/* TPM_ALG_AES */
	w += put16(want + w, 128);
	w += put16(want + w, 0x0043);	/* TPM_ALG_CFB */
	w += put16(want + w, 0x000b);	/* TPM_ALG_SHA256 */
	CHECK_EQ(b.len, w);
	CHECK_MEM(buf, want, w);
	CHECK_EQ(tk2_cmd_start_auth_session(&b, buf, w - 1, TK2_SRK_HANDLE,
					    TK2_RH_NULL, &n, &salt,
					    TK2_SE_HMAC), -E2BIG);
	/* unsalted, unbound policy session */
	CHECK_EQ(tk2_cmd_start_auth_session(&b, buf, BUF, TK2_RH_NULL,
					    TK2_RH_NULL, &n, NULL,
					    TK2_SE_POLICY), 0);
	CHECK_EQ(b.len, w - 68);

	memcpy(rsp, (u8[]){ 0x80, 0x01, 0, 0, 0, sizeof(rsp), 0, 0, 0, 0,
			    0x02, 0, 0, 0, 0, 32 }, 16);
	fill(rsp + 16, 32);
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, sizeof(rsp), &h, &s0), 0);
	CHECK_EQ(h, 0x02000000);
	CHECK_EQ(s0.nonce_tpm_len, 32);
	CHECK_MEM(s0.nonce_tpm, rsp + 16, 32);
	rsp[10] = 0x80;			/* not a session handle */
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, sizeof(rsp), &h, &s0),
		 -EBADMSG);
	rsp[10] = 0x03;
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, sizeof(rsp), &h, &s0), 0);
	rsp[15] = 33;			/* nonce runs past the end */
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, sizeof(rsp), &h, &s0),
		 -EBADMSG);
	rsp[15] = 8;			/* short nonce, and bytes left over */
	CHECK_EQ(tk2_rsp_start_auth_session(rsp, sizeof(rsp), &h, &s0),
		 -EBADMSG);
}

int main(void)
{
	RUN(test_create_hmac_and_encrypted_sensitive);
	RUN(test_create_hmac_only);
	RUN(test_password_area_wiped);
	RUN(test_getrandom_encrypt_session);
	RUN(test_unseal_response);
	RUN(test_tampered_response_refused);
	RUN(test_replayed_response_refused);
	RUN(test_changed_attributes_refused);
	RUN(test_error_response);
	RUN(test_two_sessions);
	RUN(test_policy_and_encrypt_session);
	RUN(test_salted_policy_session_pin);
	RUN(test_auth_trailing_zeros_left_out);
	RUN(test_command_refusals);
	RUN(test_command_primitive_failure);
	RUN(test_salt_key_public_and_name);
	RUN(test_start_auth_session);
	ossl_done();
	return tk_test_done();
}
