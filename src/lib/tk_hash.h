/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash algorithms trusted keys know, in one table (tk_hash.c): the
 * name of the hash= and pcrs= options, the TPM 2.0 algorithm id, the
 * digest size and the kernel crypto API name. Kernel-free.
 */
#ifndef TK_HASH_H
#define TK_HASH_H

#include <linux/types.h>

enum tk_hash {
	TK_HASH_SHA1,
	TK_HASH_SHA256,
	TK_HASH_SHA384,
	TK_HASH_SHA512,
	TK_HASH_SM3_256,
	TK_HASH_COUNT
};

enum tk_hash tk_hash_by_name(const char *name);
enum tk_hash tk_hash_by_alg(u16 alg);
const char *tk_hash_name(enum tk_hash hash);
const char *tk_hash_crypto_name(enum tk_hash hash);
unsigned int tk_hash_size(enum tk_hash hash);
u16 tk2_hash_alg(enum tk_hash hash);
u32 tk2_alg_digest_size(u16 alg);

#endif /* TK_HASH_H */
