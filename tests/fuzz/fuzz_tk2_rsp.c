// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: every TPM 2.0 response parser of src/lib/tk2_msg.c
 * (and the TPM2B_PUBLIC / TPM2B_PRIVATE checks) on the input as it is, an
 * exact-size heap buffer so that ASan sees any read past it. The first
 * byte picks the PCR selection PCR_Read is checked against. A parse that
 * succeeds must point only inside the input.
 */
#include <stdlib.h>
#include <linux/types.h>
#include "tk2_msg.h"

static const u8 *lo, *hi;

static void inside(const u8 *p, u32 len)
{
	if (!p || p < lo || len > (size_t)(hi - p))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const u16 algs[] = { TK2_ALG_SHA1, TK2_ALG_SHA256,
				    TK2_ALG_SHA384, TK2_ALG_SHA512 };
	struct tk2_pcr_values v;
	struct tk2_pcrs sel;
	struct tk_span a, b;
	struct tk2_public pub;
	unsigned int i;
	struct tk2_public_area area;
	struct tk2_da_state da;
	u32 len, h;

	if (size > 0xffffffff)
		return 0;
	len = size;
	lo = data;
	hi = data + size;

	if (!tk2_rsp_create(data, len, &a, &b)) {
		inside(a.p, a.len);
		inside(b.p, b.len);
		if (a.len < 2 || b.len < 2)
			abort();
	}
	tk2_rsp_load(data, len, &h);
	if (!tk2_rsp_unseal(data, len, &a) && a.len)
		inside(a.p, a.len);
	if (!tk2_rsp_create_primary(data, len, &h, &area))
		inside(area.area.p, area.area.len);
	if (!tk2_rsp_read_public(data, len, &area))
		inside(area.area.p, area.area.len);
	tk2_rsp_handle(data, len, &h);
	if (!tk2_rsp_get_random(data, len, &a) && a.len)
		inside(a.p, a.len);
	if (!tk2_rsp_get_random_params(data, len, &a) && a.len)
		inside(a.p, a.len);
	if (!tk2_rsp_unseal_params(data, len, &a) && a.len)
		inside(a.p, a.len);
	if (!tk2_rsp_start_session(data, len, &h) && h >> 24 != 0x03)
		abort();
	tk2_rsp_empty(data, len);
	/* exactly two properties: the header's size is 35 (the buffer may be longer) */
	if (!tk2_rsp_get_da_state(data, len, &da) &&
	    (len < 6 || ((u32)data[2] << 24 | (u32)data[3] << 16 |
			 (u32)data[4] << 8 | data[5]) != 35))
		abort();
	if (!tk2_rsp_context_save(data, len, 0x02000000, &a)) {
		inside(a.p, a.len);
		if (a.len < 18 || a.len > TK2_CONTEXT_MAX)
			abort();
	}
	tk2_rsp_context_load(data, len, &h);

	sel.alg = algs[size ? data[0] % 4 : 0];
	sel.mask = size > 1 ? 0xffffffu >> (data[1] % 24) : 0xffffff;
	if (!tk2_rsp_pcr_read(data, len, &sel, &v)) {
		if (v.got & ~sel.mask || v.count > TK2_PCR_READ_MAX)
			abort();
		for (i = 0; i < v.count; i++)
			inside(v.digest[i], tk2_alg_digest_size(sel.alg));
	}
	if (!tk2_public_parse(data, len, &pub) && pub.policy_len)
		inside(pub.policy, pub.policy_len);
	tk2_private_check(data, len);
	return 0;
}
