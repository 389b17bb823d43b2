// SPDX-License-Identifier: GPL-2.0
/*
 * PBKDF2 (RFC 8018 §5.2):
 *
 *   T_i = U_1 ^ U_2 ^ ... ^ U_c
 *   U_1 = PRF(P, S || INT(i)),  U_j = PRF(P, U_{j-1})
 *   DK  = T_1 || T_2 || ... (the first dkLen octets)
 *
 * with the PRF keyed by P (the password) before the call.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include "tk_pbkdf2.h"

/**
 * tk_pbkdf2() - derive @out_len octets with PBKDF2
 * @p: the PRF (HMAC keyed with the password) and its scheduling point
 * @salt: the salt
 * @salt_len: its length
 * @iterations: c, at least 1
 * @out: the derived key
 * @out_len: dkLen, at least 1
 *
 * Every intermediate value is wiped before return; @out is wiped on error.
 *
 * Return: 0, -EINVAL for an impossible request, or the errno of @p's prf
 * or yield (-EINTR).
 */
int tk_pbkdf2(const struct tk_pbkdf2_prf *p, const u8 *salt, u32 salt_len,
	      u32 iterations, u8 *out, u32 out_len)
{
	u8 u[TK_PBKDF2_HLEN_MAX], t[TK_PBKDF2_HLEN_MAX], ctr[4];
	struct tk_span in[2] = {
		{ .p = salt, .len = salt_len },
		{ .p = ctr, .len = sizeof(ctr) },
	};
	struct tk_span chain = { .p = u, .len = p->hlen };
	u32 block, done, take, j, k;
	int ret = 0;

	if (!p->hlen || p->hlen > TK_PBKDF2_HLEN_MAX || !iterations ||
	    !out_len)
		return -EINVAL;
	for (block = 1, done = 0; done < out_len; block++) {
		put_unaligned_be32(block, ctr);
		ret = p->prf(p->ctx, in, 2, u);
		if (ret)
			break;
		memcpy(t, u, p->hlen);
		for (j = 1; j < iterations; j++) {
			if (p->yield && !(j % TK_PBKDF2_YIELD_EVERY)) {
				ret = p->yield(p->ctx);
				if (ret)
					break;
			}
			ret = p->prf(p->ctx, &chain, 1, u);
			if (ret)
				break;
			for (k = 0; k < p->hlen; k++)
				t[k] ^= u[k];
		}
		if (ret)
			break;
		take = out_len - done < p->hlen ? out_len - done : p->hlen;
		memcpy(out + done, t, take);
		done += take;
	}
	memzero_explicit(u, sizeof(u));
	memzero_explicit(t, sizeof(t));
	if (ret)
		memzero_explicit(out, out_len);
	return ret;
}
