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
 * Each runs on one of two engines, chosen once, at the first operation:
 *
 *   the crypto API  the "sha256" shash and the "cbc(aes)" skcipher the
 *                   kernel prefers, when that is an accelerated driver
 *                   (AES-NI; SHA-NI, AVX2, AVX or SSSE3 on x86);
 *   the libraries   <crypto/sha2.h> and <crypto/aes.h> (generic C) where
 *                   the API has nothing better than the same C code behind
 *                   an indirect call (SHA-256), or table-driven AES
 *                   (aes-generic, whose 4 KiB tables the library's
 *                   time-invariant AES avoids), or where accel=0.
 *
 * Transforms are allocated once, never per operation. The "sha256" shash
 * is unkeyed and shared: each operation hashes with its own descriptor,
 * HMAC is built on it here. A "cbc(aes)" skcipher is keyed, so it is never
 * keyed by two operations at once: the engine holds a small pool of them
 * (one per possible CPU, at most ENCRYPTED_CBC_SLOTS), each with its
 * request and a mutex; an operation takes a free one (its own CPU's first),
 * keys it, runs, and re-keys it with the all-zero key before letting go,
 * so no derived key outlives its operation in a shared transform. A mutex,
 * not disabled preemption: the driver the kernel prefers (cbc-aes-aesni)
 * is asynchronous and may hand the request to cryptd when the FPU is not
 * usable; the operation then sleeps until it is done.
 *
 * Every other byte of working state (derived keys, key schedule, hash
 * state, one block) is in the caller's struct encrypted_work, which the
 * owner wipes with one kfree_sensitive().
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/skcipher.h>

#include "encrypted.h"

static bool accel = true;
module_param(accel, bool, 0444);
MODULE_PARM_DESC(accel,
		 "Use the kernel's accelerated AES and SHA-256 drivers where it has them (default: 1)");

/* Transforms of the "cbc(aes)" pool: enough for the CPUs of most machines. */
#define ENCRYPTED_CBC_SLOTS 16

struct encrypted_cbc_slot {
	struct mutex lock;		/* held while keyed */
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
};

struct encrypted_engine {
	struct crypto_shash *sha;	/* NULL: the SHA-256 library */
	unsigned int nslots;		/* 0: the AES library */
	struct encrypted_cbc_slot slots[];
};

static struct encrypted_engine *engine;	/* set once, under engine_lock */
static DEFINE_MUTEX(engine_lock);

static const char enc_label[] = "ENC_KEY";
static const char auth_label[] = "AUTH_KEY";
static const u8 zeros[SHA256_DIGEST_SIZE];	/* also the all-zero AES key */

/* An accelerated driver: not the generic C code the libraries are. */
static bool accelerated(const char *driver)
{
	return !strstr(driver, "generic");
}

/*
 * A failed allocation: out of memory or interrupted is the operation's
 * error (the next one tries again); anything else (no such algorithm, a
 * failed self-test) leaves that primitive to the library.
 */
static int alloc_error(long err)
{
	return err == -ENOMEM || err == -EINTR ? err : 0;
}

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

/* The "sha256" shash when accelerated; NULL for the library; ERR_PTR. */
static struct crypto_shash *engine_sha(void)
{
	struct crypto_shash *sha = crypto_alloc_shash("sha256", 0, 0);

	if (IS_ERR(sha))
		return alloc_error(PTR_ERR(sha)) ? sha : NULL;
	if (accelerated(crypto_shash_driver_name(sha)))
		return sha;
	crypto_free_shash(sha);
	return NULL;
}

/* Fill the pool of "cbc(aes)" transforms, or leave it empty (the library). */
static int engine_cbc(struct encrypted_engine *e, unsigned int n)
{
	struct encrypted_cbc_slot *s;
	struct crypto_skcipher *tfm;

	tfm = crypto_alloc_skcipher("cbc(aes)", 0, 0);
	if (IS_ERR(tfm))
		return alloc_error(PTR_ERR(tfm));
	if (!accelerated(crypto_skcipher_driver_name(tfm))) {
		crypto_free_skcipher(tfm);
		return 0;
	}
	for (;;) {
		s = &e->slots[e->nslots];
		mutex_init(&s->lock);
		s->tfm = tfm;
		s->req = skcipher_request_alloc(tfm, GFP_KERNEL);
		e->nslots++;
		if (unlikely(!s->req))
			return -ENOMEM;
		if (e->nslots == n)
			return 0;
		tfm = crypto_alloc_skcipher("cbc(aes)", 0, 0);
		if (IS_ERR(tfm))
			return PTR_ERR(tfm);
	}
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
	if (!accel)
		goto out;
	e->sha = engine_sha();
	if (IS_ERR(e->sha)) {
		ret = PTR_ERR(e->sha);
		e->sha = NULL;
		goto out_free;
	}
	ret = engine_cbc(e, n);
	if (unlikely(ret))
		goto out_free;
out:
	pr_info("SHA-256: %s, AES-256-CBC: %s (%u transforms)\n",
		e->sha ? crypto_shash_driver_name(e->sha) : "library",
		e->nslots ? crypto_skcipher_driver_name(e->slots[0].tfm) : "library",
		e->nslots);
	return e;

out_free:
	engine_free(e);
	return ERR_PTR(ret);
}

/* The engine, set up by the first operation; an ERR_PTR when that fails. */
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
 * Return: the work area (free with encrypted_work_free()), or an ERR_PTR
 * (-ENOMEM).
 */
struct encrypted_work *encrypted_work_alloc(void)
{
	struct encrypted_engine *e = engine_get();
	struct encrypted_work *w;
	size_t descsize;

	if (IS_ERR(e))
		return ERR_CAST(e);
	descsize = e->sha ? crypto_shash_descsize(e->sha) : 0;
	w = kmalloc(sizeof(*w) + descsize, GFP_KERNEL);
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

static int sha_init(struct encrypted_work *w)
{
	if (!w->desc.tfm) {
		sha256_init(&w->sha);
		return 0;
	}
	return crypto_shash_init(&w->desc);
}

static int sha_update(struct encrypted_work *w, const u8 *data, size_t len)
{
	if (!w->desc.tfm) {
		sha256_update(&w->sha, data, len);
		return 0;
	}
	return crypto_shash_update(&w->desc, data, len);
}

static int sha_final(struct encrypted_work *w, u8 *out)
{
	if (!w->desc.tfm) {
		sha256_final(&w->sha, out);
		return 0;
	}
	return crypto_shash_final(&w->desc, out);
}

static int derive_one(struct encrypted_work *w, const char *label,
		      const u8 *master, size_t master_len, size_t total,
		      u8 *out)
{
	size_t done = strlen(label) + 1 + master_len, n;
	int ret;

	ret = sha_init(w);
	if (!ret)
		ret = sha_update(w, label, strlen(label) + 1);
	if (!ret)
		ret = sha_update(w, master, master_len);
	for (; !ret && done < total; done += n) {
		n = min(total - done, sizeof(zeros));
		ret = sha_update(w, zeros, n);
	}
	if (!ret)
		ret = sha_final(w, out);
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
	ret = sha_init(w);
	if (!ret)
		ret = sha_update(w, w->pad, sizeof(w->pad));
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
		ret = sha_update(w, data, len);
	if (!ret)
		ret = sha_final(w, mac);
	if (!ret)
		ret = hmac_start(w, 0x5c);
	if (!ret)
		ret = sha_update(w, mac, SHA256_DIGEST_SIZE);
	if (!ret)
		ret = sha_final(w, mac);
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

/* AES-256-CBC of @len bytes (whole blocks) from @src to @dst, by the API. */
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
	const u8 *chain = iv;
	size_t off;
	int ret;

	if (unlikely(out_len % TK_ENC_BLOCK_SIZE || in_len > out_len ||
		     out_len > U16_MAX))
		return -EINVAL;
	memcpy(out, in, in_len);
	memset(out + in_len, 0, out_len - in_len);
	if (w->engine->nslots) {
		sg_init_one(&sg, out, out_len);
		return cbc_api(w, true, iv, &sg, &sg, out_len);
	}
#ifdef TK_HAVE_AES_PREPAREKEY
	ret = aes_preparekey(&w->aes, w->dk.enc, TK_ENC_KEY_SIZE);
#else
	ret = aes_expandkey(&w->aes, w->dk.enc, TK_ENC_KEY_SIZE);
#endif
	if (unlikely(ret))
		return ret;
	for (off = 0; off < out_len; off += TK_ENC_BLOCK_SIZE) {
		crypto_xor(out + off, chain, TK_ENC_BLOCK_SIZE);
		aes_encrypt(&w->aes, out + off, out + off);
		chain = out + off;
	}
	return 0;
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
	size_t whole = round_down(out_len, TK_ENC_BLOCK_SIZE), off, n;
	struct scatterlist src, dst[2];
	const u8 *chain = iv;
	unsigned int nents = 0;
	int ret;

	if (unlikely(!out_len || in_len > U16_MAX ||
		     in_len != round_up(out_len, TK_ENC_BLOCK_SIZE)))
		return -EINVAL;
	if (w->engine->nslots) {
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
#ifdef TK_HAVE_AES_PREPAREKEY
	ret = aes_preparekey(&w->aes, w->dk.enc, TK_ENC_KEY_SIZE);
#else
	ret = aes_expandkey(&w->aes, w->dk.enc, TK_ENC_KEY_SIZE);
#endif
	if (unlikely(ret))
		return ret;
	for (off = 0; off < in_len; off += TK_ENC_BLOCK_SIZE) {
		aes_decrypt(&w->aes, w->blk, in + off);
		crypto_xor(w->blk, chain, TK_ENC_BLOCK_SIZE);
		n = min_t(size_t, out_len - off, TK_ENC_BLOCK_SIZE);
		memcpy(out + off, w->blk, n);
		chain = in + off;
	}
	memzero_explicit(w->blk, sizeof(w->blk));
	return 0;
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(encrypted_cbc_decrypt, ERRNO);
#endif
