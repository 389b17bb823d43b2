/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RSAES-OAEP encoding (PKCS#1 v2.1 §7.1.1, EME-OAEP) with MGF1, over a
 * hash the caller provides: SHA-1 with label "TCPA" for TPM 1.2 transport
 * secrets (tk1_transport.c), the parent's name algorithm with label
 * "SECRET\0" for TPM 2.0 session salts (tk2_session.c). The RSA operation
 * on the encoded message is the caller's. Kernel-free.
 */
#ifndef TK_OAEP_H
#define TK_OAEP_H

#include <linux/types.h>
#include "tk_buf.h"

#define TK_OAEP_HASH_MAX	32	/* SHA-256 */
#define TK_OAEP_MIN_BYTES	128	/* 1024-bit modulus */
#define TK_OAEP_MAX_BYTES	512	/* 4096-bit modulus */

/* The hash of an OAEP encoding: @hash of the concatenated spans. */
struct tk_oaep {
	void *ctx;
	int (*hash)(void *ctx, const struct tk_span *in, unsigned int n,
		    u8 *out);
	u32 hlen;			/* its digest size, <= TK_OAEP_HASH_MAX */
	const u8 *label;
	u32 label_len;
};

int tk_mgf1_xor(const struct tk_oaep *h, const struct tk_span *seed,
		unsigned int n, u8 *buf, u32 len);
int tk_oaep_encode(const struct tk_oaep *h, const u8 *msg, u32 msg_len,
		   const u8 *seed, u8 *em, u32 k);

#endif /* TK_OAEP_H */
