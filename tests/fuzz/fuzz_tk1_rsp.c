// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: every TPM 1.2 response parser and
 * tk1_stored_data_check on the input as it is (libFuzzer hands over an
 * exact-size heap buffer, so ASan sees any read past it). A parse that
 * succeeds must point only inside the input.
 */
#include <stdlib.h>
#include <linux/types.h>
#include "tk1_msg.h"

static const u8 *lo, *hi;

static void inside(const u8 *p, u32 len)
{
	if (!p || p < lo || len > (size_t)(hi - p))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tk1_unseal_out uo;
	struct tk1_seal_out so;
	struct tk1_session s;
	struct tk_span bytes;
	unsigned int i;
	u32 len;

	if (size > 0xffffffff)
		return 0;
	len = size;
	lo = data;
	hi = data + size;

	tk1_parse_oiap(data, len, &s);
	tk1_parse_osap(data, len, &s);
	if (!tk1_parse_seal(data, len, &so)) {
		inside(so.params.p, so.params.len);
		inside(so.auth.nonce_even, TK1_NONCE_SIZE);
		inside(so.auth.hmac, TK1_DIGEST_SIZE);
		if (tk1_stored_data_check(so.params.p, so.params.len))
			abort();
	}
	if (!tk1_parse_unseal(data, len, &uo)) {
		inside(uo.params.p, uo.params.len);
		inside(uo.secret.p, uo.secret.len);
		if (uo.params.len != 4 + uo.secret.len)
			abort();
		for (i = 0; i < 2; i++) {
			inside(uo.auth[i].nonce_even, TK1_NONCE_SIZE);
			inside(uo.auth[i].hmac, TK1_DIGEST_SIZE);
		}
	}
	if (!tk1_parse_get_random(data, len, &bytes) && bytes.len)
		inside(bytes.p, bytes.len);
	tk1_stored_data_check(data, len);
	return 0;
}
