// SPDX-License-Identifier: GPL-2.0
/*
 * keydigest=pbkdf2:<hash>:<iterations>:<salt>:<digest>: the key must be
 * the one a LUKS2 header's "pbkdf2" digest names, PBKDF2-HMAC-<hash> with
 * the key bytes as password giving the digest. Checked after the key was
 * unsealed or imported and before anything is made of it, so a blob of
 * another volume's key (or an import= of the wrong bytes) makes no key
 * and no logon key. The PBKDF2 loop is src/lib/tk_pbkdf2.c's; the HMAC
 * is the crypto API's, keyed once.
 */
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <linux/err.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted.h"
#include "tk_pbkdf2.h"

/* tk_pbkdf2_prf.prf: the HMAC over @n spans, with the key set once. */
static int keydigest_prf(void *ctx, const struct tk_span *in, unsigned int n,
			 u8 *out)
{
	struct shash_desc *desc = ctx;
	unsigned int i;
	int ret;

	if (n == 1)
		return crypto_shash_digest(desc, in[0].p, in[0].len, out);
	ret = crypto_shash_init(desc);
	for (i = 0; !ret && i < n; i++)
		ret = crypto_shash_update(desc, in[i].p, in[i].len);
	return ret ?: crypto_shash_final(desc, out);
}

/* tk_pbkdf2_prf.yield: up to 16M iterations; a killed caller stops them. */
static int keydigest_yield(void *ctx)
{
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/**
 * trusted_keydigest_check() - does the key match keydigest=?
 * @key: the unsealed or imported key bytes
 * @key_len: their length
 * @kd: the parsed keydigest= option
 * @op: "new" or "load", for the log
 *
 * Return: 0 when it matches; -EKEYREJECTED (one log line) when not;
 * -EINTR when the caller was killed meanwhile, -ENOPKG without the HMAC in
 * the kernel, -ENOMEM.
 */
int trusted_keydigest_check(const u8 *key, u32 key_len,
			    const struct tk_keydigest *kd, const char *op)
{
	char name[CRYPTO_MAX_ALG_NAME];
	struct tk_pbkdf2_prf prf = { .prf = keydigest_prf,
				     .yield = keydigest_yield };
	u8 dk[TK_KD_DIGEST_MAX];
	struct crypto_shash *tfm;
	struct shash_desc *desc;
	int ret;

	snprintf(name, sizeof(name), "hmac(%s)",
		 tk_hash_crypto_name(kd->hash));
	tfm = crypto_alloc_shash(name, 0, 0);
	if (IS_ERR(tfm)) {
		pr_info_ratelimited("%s: keydigest=: %s is not available (%ld)\n",
				    op, name, PTR_ERR(tfm));
		return -ENOPKG;
	}
	desc = kzalloc(sizeof(*desc) + crypto_shash_descsize(tfm), GFP_KERNEL);
	ret = -ENOMEM;
	if (!desc)
		goto out;
	desc->tfm = tfm;
	ret = crypto_shash_setkey(tfm, key, key_len);
	if (ret)
		goto out;
	prf.ctx = desc;
	prf.hlen = crypto_shash_digestsize(tfm);
	ret = tk_pbkdf2(&prf, kd->salt, kd->salt_len, kd->iterations, dk,
			kd->digest_len);
	if (ret)
		goto out;
	if (crypto_memneq(dk, kd->digest, kd->digest_len)) {
		pr_info_ratelimited("%s: the key does not match keydigest=: another volume's key?\n",
				    op);
		ret = -EKEYREJECTED;
	}
out:
	memzero_explicit(dk, sizeof(dk));
	kfree_sensitive(desc);
	crypto_free_shash(tfm);	/* wipes its keyed state */
	return ret;
}
