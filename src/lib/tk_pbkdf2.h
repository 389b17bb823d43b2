/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PBKDF2 (RFC 8018 §5.2) over a caller's PRF, for keydigest=: whether a
 * key is the volume key a LUKS2 header's "pbkdf2" digest names. The PRF
 * is HMAC keyed once with the password (the key bytes) by the caller: the
 * kernel's crypto API in the module, OpenSSL in the host tests.
 * Kernel-free.
 */
#ifndef TK_PBKDF2_H
#define TK_PBKDF2_H

#include <linux/types.h>
#include "tk_buf.h"

#define TK_PBKDF2_HLEN_MAX	64	/* HMAC-SHA-512 */
#define TK_PBKDF2_YIELD_EVERY	256	/* iterations between yield calls */

/*
 * The PRF, provided by the caller; @ctx is passed back.
 * @hlen:  its output size, 1 to TK_PBKDF2_HLEN_MAX bytes.
 * @prf:   HMAC(password, the concatenation of @n spans) into @out;
 *         0 or a negative errno.
 * @yield: called every TK_PBKDF2_YIELD_EVERY iterations (may be NULL):
 *         0 to go on, or a negative errno (-EINTR) to stop.
 */
struct tk_pbkdf2_prf {
	void *ctx;
	u32 hlen;
	int (*prf)(void *ctx, const struct tk_span *in, unsigned int n,
		   u8 *out);
	int (*yield)(void *ctx);
};

int tk_pbkdf2(const struct tk_pbkdf2_prf *p, const u8 *salt, u32 salt_len,
	      u32 iterations, u8 *out, u32 out_len);

#endif /* TK_PBKDF2_H */
