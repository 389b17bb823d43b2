// SPDX-License-Identifier: GPL-2.0
/*
 * RSAES-OAEP encoding with MGF1 over a caller's hash (tk_oaep.h).
 *
 *  DB   = lHash || PS (zeros) || 0x01 || M		(k - hLen - 1 bytes)
 *  maskedDB   = DB ^ MGF1(seed)
 *  maskedSeed = seed ^ MGF1(maskedDB)
 *  EM   = 0x00 || maskedSeed || maskedDB		(k bytes)
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "tk_oaep.h"

#define MGF1_SEEDS_MAX	4

/**
 * tk_mgf1_xor() - XOR a buffer with MGF1 of a seed
 * @h: the hash
 * @seed: the seed, as the concatenation of @n spans (at most 4)
 * @n: how many
 * @buf: the buffer, changed in place
 * @len: its length
 *
 * Return: 0 or a negative errno.
 */
int tk_mgf1_xor(const struct tk_oaep *h, const struct tk_span *seed,
		unsigned int n, u8 *buf, u32 len)
{
	struct tk_span in[MGF1_SEEDS_MAX + 1];
	u8 block[TK_OAEP_HASH_MAX], ctr[4];
	u32 i, done, k;
	int ret = 0;

	if (n > MGF1_SEEDS_MAX || !h->hlen || h->hlen > TK_OAEP_HASH_MAX)
		return -EINVAL;
	memcpy(in, seed, n * sizeof(*seed));
	in[n].p = ctr;
	in[n].len = sizeof(ctr);
	for (i = 0, done = 0; done < len; i++) {
		put_unaligned_be32(i, ctr);
		ret = h->hash(h->ctx, in, n + 1, block);
		if (ret)
			break;
		for (k = 0; k < h->hlen && done < len; k++)
			buf[done++] ^= block[k];
	}
	memzero_explicit(block, sizeof(block));
	return ret;
}

/**
 * tk_oaep_encode() - RSAES-OAEP encoding (EME-OAEP, PKCS#1 v2.1)
 * @h: the hash and label
 * @msg: the message
 * @msg_len: its length, at most @k - 2 * hLen - 2
 * @seed: hLen random bytes
 * @em: the encoded message, @k bytes
 * @k: the modulus size in bytes
 *
 * Return: 0, -EINVAL when @msg or @k does not fit, or the hash's errno
 * (@em is wiped then).
 */
int tk_oaep_encode(const struct tk_oaep *h, const u8 *msg, u32 msg_len,
		   const u8 *seed, u8 *em, u32 k)
{
	struct tk_span s = { h->label, h->label_len };
	u8 *db = em + 1 + h->hlen;
	u32 db_len;
	int ret;

	if (!h->hlen || h->hlen > TK_OAEP_HASH_MAX ||
	    k < TK_OAEP_MIN_BYTES || k > TK_OAEP_MAX_BYTES ||
	    msg_len > k - 2 * h->hlen - 2)
		return -EINVAL;
	db_len = k - 1 - h->hlen;
	memset(em, 0, k);
	ret = h->hash(h->ctx, &s, 1, db);
	if (ret)
		goto out;
	db[db_len - msg_len - 1] = 0x01;
	memcpy(db + db_len - msg_len, msg, msg_len);
	s.p = seed;
	s.len = h->hlen;
	ret = tk_mgf1_xor(h, &s, 1, db, db_len);
	if (ret)
		goto out;
	memcpy(em + 1, seed, h->hlen);
	s.p = db;
	s.len = db_len;
	ret = tk_mgf1_xor(h, &s, 1, em + 1, h->hlen);
out:
	if (ret)
		memzero_explicit(em, k);
	return ret;
}
