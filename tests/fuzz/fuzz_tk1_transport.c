// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the TPM 1.2 transport parsers (TPM_GetPubKey,
 * TPM_EstablishTransport) and tk1_transport_unwrap() on the input as it
 * is, each on its own exact-size heap copy (unwrap decrypts in place).
 * The primitives are stand-ins (the fuzzer cannot forge a real HMAC): a
 * zero "HMAC", so an answer with a zero transAuth passes and its wrapped
 * response is reached. Whatever succeeds must point inside the input.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "tk1_transport.h"

static const u8 *lo, *hi;

static void inside(const u8 *p, u32 len)
{
	if (!p || p < lo || len > (size_t)(hi - p))
		abort();
}

static int f_sha1(void *ctx, const struct tk_span *in, unsigned int n,
		  u8 out[TK1_DIGEST_SIZE])
{
	unsigned int i, k;

	(void)ctx;
	memset(out, 0, TK1_DIGEST_SIZE);
	for (i = 0; i < n; i++)
		for (k = 0; k < in[i].len; k++)
			out[k % TK1_DIGEST_SIZE] ^= in[i].p[k];
	return 0;
}

static int f_hmac(void *ctx, const u8 *key, const struct tk_span *in,
		  unsigned int n, u8 out[TK1_DIGEST_SIZE])
{
	(void)ctx;
	(void)key;
	(void)in;
	(void)n;
	memset(out, 0, TK1_DIGEST_SIZE);
	return 0;
}

static const struct tk1_crypto fc = { NULL, f_sha1, f_hmac };

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tk1_transport t = { .handle = 1 };
	struct tk1_establish_out eo;
	struct tk1_pubkey pk;
	u8 odd[TK1_NONCE_SIZE] = { 0 }, *d;
	u32 len;

	if (size > 0xffffffff)
		return 0;
	len = size;
	lo = data;
	hi = data + size;
	if (!tk1_parse_pubkey(data, len, &pk)) {
		inside(pk.params.p, pk.params.len);
		inside(pk.modulus.p, pk.modulus.len);
		inside(pk.auth.nonce_even, TK1_NONCE_SIZE);
		inside(pk.auth.hmac, TK1_DIGEST_SIZE);
		if (pk.modulus.len < TK1_RSA_MIN_BYTES ||
		    pk.modulus.len > TK1_RSA_MAX_BYTES)
			abort();
	}
	if (!tk1_parse_establish(data, len, &eo)) {
		inside(eo.params.p, eo.params.len);
		inside(eo.nonce_even, TK1_NONCE_SIZE);
		inside(eo.auth.hmac, TK1_DIGEST_SIZE);
	}
	d = malloc(size ? size : 1);
	memcpy(d, data, size);
	lo = d;
	hi = d + size;
	if (!tk1_transport_unwrap(&fc, &t, d, len, TK1_ORD_UNSEAL, odd)) {
		/* the wrapped response now starts the buffer, sized by its header */
		u32 w = (u32)d[2] << 24 | d[3] << 16 | d[4] << 8 | d[5];

		if (w < 10 || w > len)
			abort();
	}
	free(d);
	return 0;
}
