// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parsers of tk2_signed.c. The first byte picks one:
 * 0 the PolicyAuthorize CommandPolicy of a TPMKey (user input), 1 a
 * LoadExternal response, 2 a VerifySignature response (TPM input), 3 a
 * PolicyNV CommandPolicy and a policyRef naming a counter (user input),
 * 4 an NV_ReadPublic response in clear or in a session and the counter
 * check, 5 a PolicyNV response (TPM input); the rest is the input, in an exact-size heap buffer. What parses must point
 * only inside the input.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/errno.h>
#include "tk2_signed.h"

static const u8 *lo, *hi;

static void inside(const struct tk_span *s)
{
	if (!s->len)
		return;
	if (!s->p || s->p < lo || s->len > (size_t)(hi - s->p))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tk2_authorize_body ab;
	struct tk2_policy_nv nv;
	struct tk2_nv_public np;
	struct tk_span s;
	const u8 *name;
	u8 args[80];
	u64 count;
	u32 handle;
	u8 *c;
	int ret;

	if (size < 1 || size > 4096)
		return 0;
	c = malloc(size - 1 ? size - 1 : 1);
	if (!c)
		return 0;
	memcpy(c, data + 1, size - 1);
	lo = c;
	hi = c + size - 1;
	switch (data[0] % 6) {
	case 0:
		ret = tk2_authorize_body_parse(c, size - 1, &ab);
		if (!ret) {
			inside(&ab.pub);
			inside(&ab.policy_ref);
			inside(&ab.sig);
		} else if (ret != -EINVAL) {
			abort();
		}
		break;
	case 1:
		if (!tk2_rsp_load_external(c, size - 1, &handle, &s))
			inside(&s);
		break;
	case 2:
		if (!tk2_rsp_verify_signature(c, size - 1, &s))
			inside(&s);
		break;
	case 3:
		if (!tk2_policy_nv_parse(c, size - 1, &nv)) {
			inside(&nv.operand);
			tk2_policy_nv_is_revoke(&nv, nv.index, &count);
			if (tk2_policy_nv_args(args, sizeof(args), &nv) < 0)
				abort();	/* operandB is at most 64 bytes */
		}
		if (tk2_revoke_ref_parse(c, size - 1, &handle, &name)) {
			s.p = name;
			s.len = TK2_NV_NAME_SIZE;
			inside(&s);
		}
		break;
	case 4:
		if (!tk2_rsp_nv_read_public(c, size - 1, data[0] & 0x80, &np)) {
			inside(&np.area);
			inside(&np.name);
			tk2_nv_counter_check(&np, np.index);
		}
		break;
	default:
		tk2_rsp_policy_nv(c, size - 1);
		break;
	}
	free(c);
	return 0;
}
