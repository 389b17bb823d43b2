// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: tk2_rsp_sessions() (src/lib/tk2_session.c) on the
 * input as a response, then, when it is accepted, the ordinary Unseal
 * parser on what it left; tk2_cmd_sessions() on the input as a
 * command; tk2_ecc_public_parse() and tk2_rsa_public_parse() on it as a salt key's public area. The crypto is a stand-in whose HMAC is all zeros, so that a
 * response with a zero HMAC field passes the check and the decryption
 * path is reached too; no real cryptography is under test here (that is
 * tests/host/test_tk2_*.c). The first input byte picks the sessions:
 * bits 0-1 how many (1..3), bit 2 a handle in the response, bits 3-4
 * which session encrypts (none if 3), bit 5 session 0 without HMAC.
 * Inputs are exact-size heap copies, so ASan sees any access past them.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "tk2_kdf.h"
#include "tk2_session.h"
#include "tk2_msg.h"

static int fake_digest(void *ctx, const struct tk_span *in, unsigned int n,
		       u8 out[TK2_SHA256_SIZE])
{
	unsigned int i, j;

	(void)ctx;
	memset(out, 0, TK2_SHA256_SIZE);
	for (i = 0; i < n; i++)
		for (j = 0; j < in[i].len; j++)
			out[j % TK2_SHA256_SIZE] ^= in[i].p[j];
	return 0;
}

static int fake_hmac(void *ctx, const u8 *key, u32 key_len,
		     const struct tk_span *in, unsigned int n,
		     u8 out[TK2_SHA256_SIZE])
{
	u8 scratch[TK2_SHA256_SIZE];

	if (key_len)
		memcpy(scratch, key, key_len < 32 ? key_len : 32);
	fake_digest(ctx, in, n, scratch);	/* reads every input byte */
	memset(out, 0, TK2_SHA256_SIZE);
	return 0;
}

static int fake_setkey(void *ctx, const u8 *key, u32 key_len)
{
	(void)ctx;
	(void)key;
	return key_len == 16 ? 0 : -EINVAL;
}

static void fake_encrypt(void *ctx, u8 out[16], const u8 in[16])
{
	unsigned int i;

	(void)ctx;
	for (i = 0; i < 16; i++)
		out[i] = in[i] ^ 0x5a;
}

static const struct tk2_crypto fake = {
	.digest = fake_digest,
	.hmac = fake_hmac,
	.aes_setkey = fake_setkey,
	.aes_encrypt = fake_encrypt,
};

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tk2_session ss[TK2_SESSIONS_MAX];
	struct tk2_session *s[TK2_SESSIONS_MAX] = { &ss[0], &ss[1], &ss[2] };
	u8 name[34] = { 0x00, 0x0b };
	struct tk_span names[1] = { { name, sizeof(name) } }, data_out;
	struct tk2_ecc_key key;
	struct tk2_rsa_key rkey;
	unsigned int n, i, enc;
	const char *why;
	u32 len, nh;
	u8 cfg, *buf;

	if (size < 1 || size > 0x10000)
		return 0;
	cfg = data[0];
	n = 1 + (cfg & 3) % 3;
	nh = (cfg >> 2) & 1;
	enc = (cfg >> 3) & 3;
	memset(ss, 0, sizeof(ss));
	for (i = 0; i < n; i++) {
		ss[i].handle = 0x02000000 + i;
		ss[i].hmac = !(i == 0 && (cfg & 0x20));
		ss[i].attrs = TK2_SESS_CONTINUE;
		ss[i].key_len = TK2_SHA256_SIZE;
		ss[i].nonce_caller_len = 16;
		ss[i].nonce_tpm_len = 16;
		ss[i].auth_len = i;
	}
	if (enc < n && ss[enc].hmac)
		ss[enc].attrs |= TK2_SESS_ENCRYPT | TK2_SESS_DECRYPT;

	len = size - 1;
	buf = malloc(len ? len : 1);
	memcpy(buf, data + 1, len);
	if (!tk2_rsp_sessions(&fake, buf, len, TK2_CC_UNSEAL, nh, s, n,
			      &why)) {
		for (i = 0; i < n; i++)
			if (ss[i].nonce_tpm_len > TK2_NONCE_MAX)
				abort();
		if (!nh && n == 1 && !tk2_rsp_unseal(buf, len, &data_out) &&
		    (data_out.p < buf || data_out.len > len ||
		     data_out.p + data_out.len > buf + len))
			abort();
	}
	free(buf);

	/* the input as a command, with room for the session area */
	buf = malloc(len + 512);
	memcpy(buf, data + 1, len);
	if (!tk2_cmd_sessions(&fake, buf, len + 512, nh, names, s, n, &why) &&
	    (get_unaligned_be32(buf + 2) > len + 512 ||
	     get_unaligned_be16(buf) != TK2_TAG_SESSIONS))
		abort();
	free(buf);

	/* the input as a salt key's public area */
	buf = malloc(len ? len : 1);
	memcpy(buf, data + 1, len);
	if (!tk2_ecc_public_parse(buf, len, &key) &&
	    (key.x < buf || key.y + TK2_ECC_P256_SIZE > buf + len))
		abort();
	if (!tk2_rsa_public_parse(buf, len, &rkey) &&
	    (rkey.n < buf || rkey.n + rkey.n_len > buf + len ||
	     rkey.n_len > TK2_RSA_MAX_BYTES))
		abort();
	free(buf);
	return 0;
}
