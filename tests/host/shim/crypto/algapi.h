/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: crypto_memneq of <crypto/algapi.h>, without early exit. */
#ifndef TK_SHIM_CRYPTO_ALGAPI_H
#define TK_SHIM_CRYPTO_ALGAPI_H

#include <stddef.h>

static inline int crypto_memneq(const void *a, const void *b, size_t size)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;

	while (size--)
		d |= *x++ ^ *y++;
	return d != 0;
}

#endif /* TK_SHIM_CRYPTO_ALGAPI_H */
