// SPDX-License-Identifier: GPL-2.0
/*
 * The three primitives of the blob format, each on heap buffers only:
 *   derive  SHA-256 over  label NUL master-key  (zero-padded to 32 bytes),
 *           label "ENC_KEY" for the AES key, "AUTH_KEY" for the HMAC key
 *   hmac    HMAC-SHA256
 *   cbc     AES-256-CBC over whole blocks, in place
 * Transforms that hold a key are per call; the keyless SHA-256 is shared.
 */
#include <linux/err.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/aes.h>
#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <crypto/skcipher.h>

#include "encrypted.h"

static const char enc_label[] = "ENC_KEY";
static const char auth_label[] = "AUTH_KEY";

static struct crypto_shash *sha256_tfm;

/* One digest with the descriptor (the hash state) on the heap. */
static int shash_digest_heap(struct crypto_shash *tfm, const u8 *data,
			     size_t len, u8 *out)
{
	struct shash_desc *desc;
	int ret;

	desc = kzalloc(sizeof(*desc) + crypto_shash_descsize(tfm), GFP_KERNEL);
	if (unlikely(!desc))
		return -ENOMEM;
	desc->tfm = tfm;
	ret = crypto_shash_digest(desc, data, len, out);
	kfree_sensitive(desc);
	return ret;
}

static int derive_one(u8 *buf, size_t buf_len, const char *label,
		      const u8 *master, size_t master_len, u8 *out)
{
	size_t label_len = strlen(label) + 1;

	memset(buf, 0, buf_len);
	memcpy(buf, label, label_len);
	memcpy(buf + label_len, master, master_len);
	return shash_digest_heap(sha256_tfm, buf, buf_len, out);
}

int encrypted_derive(struct encrypted_dkeys *dk, const u8 *master,
		     size_t master_len)
{
	size_t buf_len = max_t(size_t, sizeof(auth_label) + master_len,
			       SHA256_DIGEST_SIZE);
	u8 *buf;
	int ret;

	buf = kmalloc(buf_len, GFP_KERNEL);
	if (unlikely(!buf))
		return -ENOMEM;
	ret = derive_one(buf, buf_len, enc_label, master, master_len, dk->enc);
	if (likely(!ret))
		ret = derive_one(buf, buf_len, auth_label, master, master_len,
				 dk->auth);
	kfree_sensitive(buf);
	return ret;
}

int encrypted_hmac(const u8 *key, const u8 *data, size_t len, u8 *mac)
{
	struct crypto_shash *tfm;
	int ret;

	tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_shash_setkey(tfm, key, TK_ENC_KEY_SIZE);
	if (likely(!ret))
		ret = shash_digest_heap(tfm, data, len, mac);
	crypto_free_shash(tfm);
	return ret;
}

int encrypted_cbc(const u8 *key, const u8 *iv, u8 *buf, size_t len,
		  bool encrypt)
{
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	struct scatterlist sg;
	u8 *ivbuf;
	int ret;

	tfm = crypto_alloc_skcipher("cbc(aes)", 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_skcipher_setkey(tfm, key, TK_ENC_KEY_SIZE);
	if (unlikely(ret))
		goto out_tfm;
	ret = -ENOMEM;
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (unlikely(!req))
		goto out_tfm;
	ivbuf = kmemdup(iv, TK_ENC_IV_SIZE, GFP_KERNEL);
	if (unlikely(!ivbuf))
		goto out_req;

	sg_init_one(&sg, buf, len);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, len, ivbuf);
	ret = encrypt ? crypto_skcipher_encrypt(req) :
			crypto_skcipher_decrypt(req);

	kfree_sensitive(ivbuf);
out_req:
	skcipher_request_free(req);
out_tfm:
	crypto_free_skcipher(tfm);
	return ret;
}

int encrypted_crypto_init(void)
{
	struct crypto_skcipher *cbc;
	int ret = 0;

	cbc = crypto_alloc_skcipher("cbc(aes)", 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(cbc)) {
		pr_err("no synchronous cbc(aes) (%ld)\n", PTR_ERR(cbc));
		return PTR_ERR(cbc);
	}
	if (crypto_skcipher_ivsize(cbc) != TK_ENC_IV_SIZE ||
	    crypto_skcipher_blocksize(cbc) != TK_ENC_BLOCK_SIZE)
		ret = -EINVAL;
	crypto_free_skcipher(cbc);
	if (unlikely(ret))
		return ret;

	sha256_tfm = crypto_alloc_shash("sha256", 0, 0);
	if (IS_ERR(sha256_tfm)) {
		pr_err("no sha256 (%ld)\n", PTR_ERR(sha256_tfm));
		return PTR_ERR(sha256_tfm);
	}
	return 0;
}

void encrypted_crypto_exit(void)
{
	crypto_free_shash(sha256_tfm);
}
