// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-1 and HMAC-SHA1 for TPM 1.2 authorisation sessions. HMAC is built
 * on the stateless sha1 transform, so concurrent callers never share a
 * keyed transform; all state lives in one heap block, wiped after use.
 */
#include <crypto/hash.h>
#include <crypto/sha1.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted.h"

static struct crypto_shash *sha1_tfm;

struct hmac_work {
	u8 pad[SHA1_BLOCK_SIZE];
	u8 inner[SHA1_DIGEST_SIZE];
	struct shash_desc desc;		/* followed by the descriptor context */
};

/**
 * trusted_auth_init() - allocate the SHA-1 transform of TPM 1.2 authorisations
 *
 * Return: 0, or the crypto API's error.
 */
int trusted_auth_init(void)
{
	sha1_tfm = crypto_alloc_shash("sha1", 0, 0);
	if (IS_ERR(sha1_tfm)) {
		pr_err("sha1 is not available (%ld)\n", PTR_ERR(sha1_tfm));
		return PTR_ERR(sha1_tfm);
	}
	return 0;
}

/**
 * trusted_auth_exit() - free what trusted_auth_init() allocated
 */
void trusted_auth_exit(void)
{
	crypto_free_shash(sha1_tfm);
}

/* Test kernels (CONFIG_FAIL_FUNCTION) can make this allocation fail. */
static noinline struct hmac_work *trusted_hmac_work_alloc(void)
{
	struct hmac_work *w;

	w = kzalloc(sizeof(*w) + crypto_shash_descsize(sha1_tfm), GFP_KERNEL);
	if (w)
		w->desc.tfm = sha1_tfm;
	return w;
}
#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_hmac_work_alloc, NULL);
#endif

static int digest_spans(struct shash_desc *desc, const u8 *prefix,
			const struct tk_span *spans, unsigned int n, u8 *out)
{
	unsigned int i;
	int ret;

	ret = crypto_shash_init(desc);
	if (!ret && prefix)
		ret = crypto_shash_update(desc, prefix, SHA1_BLOCK_SIZE);
	for (i = 0; !ret && i < n; i++)
		ret = crypto_shash_update(desc, spans[i].p, spans[i].len);
	return ret ?: crypto_shash_final(desc, out);
}

/**
 * trusted_sha1() - SHA-1 over a list of spans
 * @out: SHA1_DIGEST_SIZE bytes
 * @spans: the data
 * @n: how many spans
 *
 * Return: 0, -ENOMEM, or the crypto API's error.
 */
int trusted_sha1(u8 *out, const struct tk_span *spans, unsigned int n)
{
	struct hmac_work *w = trusted_hmac_work_alloc();
	int ret;

	if (!w)
		return -ENOMEM;
	ret = digest_spans(&w->desc, NULL, spans, n, out);
	kfree_sensitive(w);
	return ret;
}

static void key_pad(u8 *pad, const u8 *key, u8 byte)
{
	unsigned int i;

	memset(pad, byte, SHA1_BLOCK_SIZE);
	for (i = 0; i < SHA1_DIGEST_SIZE; i++)
		pad[i] ^= key[i];
}

/**
 * trusted_hmac() - HMAC-SHA1 over a list of spans
 * @out: SHA1_DIGEST_SIZE bytes
 * @key: a 20-byte key (a TPM 1.2 authorisation value)
 * @spans: the data
 * @n: how many spans
 *
 * Return: 0, -ENOMEM, or the crypto API's error.
 */
int trusted_hmac(u8 *out, const u8 *key, const struct tk_span *spans,
		 unsigned int n)
{
	struct hmac_work *w = trusted_hmac_work_alloc();
	struct tk_span inner;
	int ret;

	if (!w)
		return -ENOMEM;
	key_pad(w->pad, key, 0x36);
	ret = digest_spans(&w->desc, w->pad, spans, n, w->inner);
	if (!ret) {
		key_pad(w->pad, key, 0x5c);
		inner.p = w->inner;
		inner.len = sizeof(w->inner);
		ret = digest_spans(&w->desc, w->pad, &inner, 1, out);
	}
	kfree_sensitive(w);
	return ret;
}
