// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parsers of tk2_signed.c. The first byte picks one:
 * 0 the PolicyAuthorize CommandPolicy of a TPMKey (user input), 1 a
 * LoadExternal response, 2 a VerifySignature response (TPM input); the
 * rest is the input, in an exact-size heap buffer. What parses must point
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
	struct tk_span s;
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
	switch (data[0] % 3) {
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
	default:
		if (!tk2_rsp_verify_signature(c, size - 1, &s))
			inside(&s);
		break;
	}
	free(c);
	return 0;
}
