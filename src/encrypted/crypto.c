// SPDX-License-Identifier: GPL-2.0
/*
 * The three primitives of the blob format:
 *   derive  SHA-256 over  label NUL master-key  zero-padded to the length
 *           of "AUTH_KEY" NUL master-key, and to at least 32 bytes;
 *           label "ENC_KEY" for the AES key, "AUTH_KEY" for the HMAC key
 *   hmac    HMAC-SHA256 (RFC 2104) under the derived 32-byte HMAC key
 *   cbc     AES-256-CBC under the derived AES key, whole blocks, the
 *           plaintext zero-padded to the last block
 *
 * All three run on the kernel crypto API: the "sha256" shash and the
 * "cbc(aes)" skcipher, whichever drivers the kernel prefers for them
 * (x86 with AES-NI and AVX2: cbc-aes-aesni and sha256-avx2; without:
 * the generic C code). The first operation allocates the transforms and
 * says which drivers they are; none is allocated per operation.
 *
 * The "sha256" shash is unkeyed and shared: each operation hashes with its
 * own descriptor, and HMAC is built on it here (the key block XOR ipad and
 * opad), so no keyed hash state is ever shared. A "cbc(aes)" skcipher is
 * keyed, so it is never keyed by two operations at once: the engine holds
 * a small pool of them (one per possible CPU, at most ENCRYPTED_CBC_SLOTS),
 * each with its request and a mutex; an operation takes a free one (its
 * own CPU's first), keys it, runs, and re-keys it with the all-zero key
 * before letting go, so no derived key outlives its operation in a shared
 * transform. A mutex, not disabled preemption: the driver the kernel
 * prefers on AES-NI machines (cbc-aes-aesni) is asynchronous and may hand
 * the request to cryptd when the FPU is not usable; the operation then
 * sleeps until it is done.
 *
 * Every other byte of working state (derived keys, hash state, HMAC key
 * block, one block) is in the caller's struct encrypted_work, which the
 * owner wipes with one kfree_sensitive().
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <crypto/hash.h>
#include <crypto/skcipher.h>

#include "encrypted.h"

/* Transforms of the "cbc(aes)" pool: enough for the CPUs of most machines. */
#define ENCRYPTED_CBC_SLOTS 16

struct encrypted_cbc_slot {
	struct mutex lock;		/* held while keyed */
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
};

struct encrypted_engine {
	struct crypto_shash *sha;
	unsigned int nslots;
	struct encrypted_cbc_slot slots[];
};

static struct encrypted_engine *engine;	/* set once, under engine_lock */
static DEFINE_MUTEX(engine_lock);

static const char enc_label[] = "ENC_KEY";
static const char auth_label[] = "AUTH_KEY";
static const u8 zeros[SHA256_DIGEST_SIZE];	/* also the all-zero AES key */

static void engine_free(struct encrypted_engine *e)
{
	unsigned int i;

	if (!e)
		return;
	for (i = 0; i < e->nslots; i++) {
		skcipher_request_free(e->slots[i].req);
		crypto_free_skcipher(e->slots[i].tfm);
	}
	crypto_free_shash(e->sha);
	kfree_sensitive(e);
}

/* Fill the pool with @n "cbc(aes)" transforms, each with its request. */
static int engine_cbc(struct encrypted_engine *e, unsigned int n)
{
	struct encrypted_cbc_slot *s;
	struct crypto_skcipher *tfm;

	while (e->nslots < n) {
		tfm = crypto_alloc_skcipher("cbc(aes)", 0, 0);
		if (IS_ERR(tfm))
			return PTR_ERR(tfm);
		s = &e->slots[e->nslots++];
		mutex_init(&s->lock);
		s->tfm = tfm;
		s->req = skcipher_request_alloc(tfm, GFP_KERNEL);
		if (unlikely(!s->req))
			return -ENOMEM;
	}
	return 0;
}

static struct encrypted_engine *engine_alloc(void)
{
	unsigned int n = min_t(unsigned int, num_possible_cpus(),
			       ENCRYPTED_CBC_SLOTS);
	struct encrypted_engine *e;
	int ret;

	e = kzalloc(struct_size(e, slots, n), GFP_KERNEL);
	if (unlikely(!e))
		return ERR_PTR(-ENOMEM);
	e->sha = crypto_alloc_shash("sha256", 0, 0);
	if (IS_ERR(e->sha)) {
		ret = PTR_ERR(e->sha);
		e->sha = NULL;
		goto out_free;
	}
	ret = engine_cbc(e, n);
	if (unlikely(ret))
		goto out_free;
	pr_info("SHA-256: %s, AES-256-CBC: %s (%u transforms)\n",
		crypto_shash_driver_name(e->sha),
		crypto_skcipher_driver_name(e->slots[0].tfm), e->nslots);
	return e;

out_free:
	/* Out of memory or interrupted is usual; anything else is worth a line. */
	if (ret != -ENOMEM && ret != -EINTR)
		pr_err_ratelimited("no sha256 or cbc(aes) transform: %d\n", ret);
	engine_free(e);
	return ERR_PTR(ret);
}

/*
 * The engine, set up by the first operation; an ERR_PTR when that fails
 * (that operation's error: the next one tries again).
 */
static struct encrypted_engine *engine_get(void)
{
	/* pairs with the release below: a seen engine is a whole one */
	struct encrypted_engine *e = smp_load_acquire(&engine);

	if (likely(e))
		return e;
	mutex_lock(&engine_lock);
	e = engine;
	if (!e) {
		e = engine_alloc();
		if (!IS_ERR(e))	/* pairs with the acquire above */
			smp_store_release(&engine, e);
	}
	mutex_unlock(&engine_lock);
	return e;
}

/**
 * encrypted_work_alloc() - one operation's working state
 *
 * Sets up the engine at the first call (allocating its transforms).
 *
 * Return: the work area (free with encrypted_work_free()), or an ERR_PTR:
 * -ENOMEM, or the crypto API's error for a missing "sha256" or "cbc(aes)".
 */
struct encrypted_work *encrypted_work_alloc(void)
{
	struct encrypted_engine *e = engine_get();
	struct encrypted_work *w;

	if (IS_ERR(e))
		return ERR_CAST(e);
	w = kmalloc(sizeof(*w) + crypto_shash_descsize(e->sha), GFP_KERNEL);
	if (unlikely(!w))
		return ERR_PTR(-ENOMEM);
	w->engine = e;
	w->desc.tfm = e->sha;
	return w;
}

/**
 * encrypted_work_free() - wipe and free a work area
 * @w: from encrypted_work_alloc(), or an ERR_PTR or NULL
 */
void encrypted_work_free(struct encrypted_work *w)
{
	if (!IS_ERR_OR_NULL(w))
		kfree_sensitive(w);
}

/**
 * encrypted_crypto_exit() - free the engine (module exit: no operation runs)
 */
void encrypted_crypto_exit(void)
{
	engine_free(engine);
	engine = NULL;
}

static int derive_one(struct encrypted_work *w, const char *label,
		      const u8 *master, size_t master_len, size_t total,
		      u8 *out)
{
	size_t done = strlen(label) + 1 + master_len, n;
	int ret;

	ret = crypto_shash_init(&w->desc);
	if (!ret)
		ret = crypto_shash_update(&w->desc, label, strlen(label) + 1);
	if (!ret)
		ret = crypto_shash_update(&w->desc, master, master_len);
	for (; !ret && done < total; done += n) {
		n = min(total - done, sizeof(zeros));
		ret = crypto_shash_update(&w->desc, zeros, n);
	}
	if (!ret)
		ret = crypto_shash_final(&w->desc, out);
	return ret;
}

/**
 * encrypted_derive() - derive the AES and HMAC keys from a master key
 * @w: working state; the keys land in @w->dk
 * @master: the master key's bytes
 * @master_len: their number (at most what a user or trusted key holds)
 *
 * The in-tree type hashes a buffer as long as "AUTH_KEY" NUL master (at
 * least one digest long) for both labels: so does this.
 *
 * Return: 0, or the hash driver's error.
 */
int encrypted_derive(struct encrypted_work *w, const u8 *master,
		     size_t master_len)
{
	size_t total = max_t(size_t, sizeof(auth_label) + master_len,
			     SHA256_DIGEST_SIZE);
	int ret;

	ret = derive_one(w, enc_label, master, master_len, total, w->dk.enc);
	if (!ret)
		ret = derive_one(w, auth_label, master, master_len, total,
				 w->dk.auth);
	return ret;
}

/* Start a hash with the HMAC key XOR @x, padded to a block. */
static int hmac_start(struct encrypted_work *w, u8 x)
{
	size_t i;
	int ret;

	memset(w->pad, x, sizeof(w->pad));
	for (i = 0; i < TK_ENC_KEY_SIZE; i++)
		w->pad[i] ^= w->dk.auth[i];
	ret = crypto_shash_init(&w->desc);
	if (!ret)
		ret = crypto_shash_update(&w->desc, w->pad, sizeof(w->pad));
	return ret;
}

/**
 * encrypted_hmac() - HMAC-SHA256 of @len bytes at @data under @w->dk.auth
 * @w: working state with the derived keys
 * @data: what to authenticate
 * @len: its length (an image: below 64 KiB)
 * @mac: TK_ENC_MAC_SIZE bytes out
 *
 * Return: 0, or the hash driver's error.
 */
int encrypted_hmac(struct encrypted_work *w, const u8 *data, size_t len,
		   u8 *mac)
{
	int ret;

	ret = hmac_start(w, 0x36);
	if (!ret)
		ret = crypto_shash_finup(&w->desc, data, len, mac);
	if (!ret)
		ret = hmac_start(w, 0x5c);
	/* update, then final: the inner hash is both input and output */
	if (!ret)
		ret = crypto_shash_update(&w->desc, mac, SHA256_DIGEST_SIZE);
	if (!ret)
		ret = crypto_shash_final(&w->desc, mac);
	memzero_explicit(w->pad, sizeof(w->pad));
	return ret;
}

/* A free transform of the pool, this CPU's first; sleeps when all are busy. */
static struct encrypted_cbc_slot *slot_get(struct encrypted_engine *e)
{
	unsigned int first = raw_smp_processor_id() % e->nslots, i;
	struct encrypted_cbc_slot *s;

	for (i = 0; i < e->nslots; i++) {
		s = &e->slots[(first + i) % e->nslots];
		if (mutex_trylock(&s->lock))
			return s;
	}
	s = &e->slots[first];
	mutex_lock(&s->lock);
	return s;
}

/* AES-256-CBC of @len bytes (whole blocks) from @src to @dst. */
static int cbc_api(struct encrypted_work *w, bool enc, const u8 *iv,
		   struct scatterlist *src, struct scatterlist *dst,
		   unsigned int len)
{
	struct encrypted_cbc_slot *s = slot_get(w->engine);
	DECLARE_CRYPTO_WAIT(wait);
	int ret;

	ret = crypto_skcipher_setkey(s->tfm, w->dk.enc, TK_ENC_KEY_SIZE);
	if (likely(!ret)) {
		memcpy(w->iv, iv, TK_ENC_IV_SIZE);	/* the driver updates it */
		skcipher_request_set_callback(s->req,
					      CRYPTO_TFM_REQ_MAY_SLEEP |
					      CRYPTO_TFM_REQ_MAY_BACKLOG,
					      crypto_req_done, &wait);
		skcipher_request_set_crypt(s->req, src, dst, len, w->iv);
		ret = crypto_wait_req(enc ? crypto_skcipher_encrypt(s->req) :
					    crypto_skcipher_decrypt(s->req),
				      &wait);
	}
	/* No schedule of a derived key stays in the shared transform. */
	crypto_skcipher_setkey(s->tfm, zeros, TK_ENC_KEY_SIZE);
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * encrypted_cbc_encrypt() - AES-256-CBC under @w->dk.enc
 * @w: working state with the derived keys
 * @iv: TK_ENC_IV_SIZE bytes
 * @in: plaintext
 * @in_len: its length, at most @out_len
 * @out: ciphertext, not overlapping @in, in memory from kmalloc
 * @out_len: its length, a whole number of blocks (@in is zero-padded)
 *
 * Return: 0, -EINVAL when the lengths do not fit, or the cipher's error.
 */
noinline int encrypted_cbc_encrypt(struct encrypted_work *w, const u8 *iv,
				   const u8 *in, size_t in_len, u8 *out,
				   size_t out_len)
{
	struct scatterlist sg;

	if (unlikely(out_len % TK_ENC_BLOCK_SIZE || in_len > out_len ||
		     out_len > U16_MAX))
		return -EINVAL;
	memcpy(out, in, in_len);
	memset(out + in_len, 0, out_len - in_len);
	sg_init_one(&sg, out, out_len);
	return cbc_api(w, true, iv, &sg, &sg, out_len);
}

/* Test kernels (CONFIG_FAIL_FUNCTION): the cipher fails, as a crypto call may. */
#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(encrypted_cbc_encrypt, ERRNO);
#endif

/**
 * encrypted_cbc_decrypt() - AES-256-CBC decryption under @w->dk.enc
 * @w: working state with the derived keys
 * @iv: TK_ENC_IV_SIZE bytes
 * @in: ciphertext, in memory from kmalloc
 * @in_len: its length: @out_len rounded up to a whole block
 * @out: the first @out_len bytes of plaintext (the padding is dropped),
 *       not overlapping @in, in memory from kmalloc
 * @out_len: at least one byte
 *
 * Return: 0, -EINVAL when the lengths do not fit, or the cipher's error.
 */
noinline int encrypted_cbc_decrypt(struct encrypted_work *w, const u8 *iv,
				   const u8 *in, size_t in_len, u8 *out,
				   size_t out_len)
{
	size_t whole = round_down(out_len, TK_ENC_BLOCK_SIZE);
	struct scatterlist src, dst[2];
	unsigned int nents = 0;
	int ret;

	if (unlikely(!out_len || in_len > U16_MAX ||
		     in_len != round_up(out_len, TK_ENC_BLOCK_SIZE)))
		return -EINVAL;
	/* Whole blocks straight to @out, the last partial one aside. */
	sg_init_one(&src, in, in_len);
	sg_init_table(dst, ARRAY_SIZE(dst));
	if (whole)
		sg_set_buf(&dst[nents++], out, whole);
	if (whole < in_len)
		sg_set_buf(&dst[nents++], w->blk, TK_ENC_BLOCK_SIZE);
	sg_mark_end(&dst[nents - 1]);
	ret = cbc_api(w, false, iv, &src, dst, in_len);
	if (likely(!ret))
		memcpy(out + whole, w->blk, out_len - whole);
	memzero_explicit(w->blk, sizeof(w->blk));
	return ret;
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(encrypted_cbc_decrypt, ERRNO);
#endif
