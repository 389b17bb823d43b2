// SPDX-License-Identifier: GPL-2.0
/*
 * The three primitives of the blob format, over the kernel's AES and SHA-256
 * libraries (<crypto/aes.h>, <crypto/sha2.h>: in every kernel we support):
 *   derive  SHA-256 over  label NUL master-key  zero-padded to the length
 *           of "AUTH_KEY" NUL master-key, and to at least 32 bytes;
 *           label "ENC_KEY" for the AES key, "AUTH_KEY" for the HMAC key
 *   hmac    HMAC-SHA256 (RFC 2104) under the derived 32-byte HMAC key
 *   cbc     AES-256-CBC under the derived AES key, whole blocks, the
 *           plaintext zero-padded to the last block
 * No crypto transform is allocated, keyed or shared: every byte of working
 * state (derived keys, key schedule, hash state, one block) is in the
 * caller's struct encrypted_work, so concurrent operations share nothing
 * and the owner wipes it all with one kfree_sensitive().
 */
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <crypto/algapi.h>

#include "encrypted.h"

static const char enc_label[] = "ENC_KEY";
static const char auth_label[] = "AUTH_KEY";
static const u8 zeros[SHA256_DIGEST_SIZE];

static void derive_one(struct sha256_state *sha, const char *label,
		       const u8 *master, size_t master_len, size_t total,
		       u8 *out)
{
	size_t done = strlen(label) + 1 + master_len, n;

	sha256_init(sha);
	sha256_update(sha, label, strlen(label) + 1);
	sha256_update(sha, master, master_len);
	for (; done < total; done += n) {
		n = min(total - done, sizeof(zeros));
		sha256_update(sha, zeros, n);
	}
	sha256_final(sha, out);
}

/**
 * encrypted_derive() - derive the AES and HMAC keys from a master key
 * @w: working state; the keys land in @w->dk
 * @master: the master key's bytes
 * @master_len: their number (at most what a user or trusted key holds)
 *
 * The in-tree type hashes a buffer as long as "AUTH_KEY" NUL master (at
 * least one digest long) for both labels: so does this.
 */
void encrypted_derive(struct encrypted_work *w, const u8 *master,
		      size_t master_len)
{
	size_t total = max_t(size_t, sizeof(auth_label) + master_len,
			     SHA256_DIGEST_SIZE);

	derive_one(&w->sha, enc_label, master, master_len, total, w->dk.enc);
	derive_one(&w->sha, auth_label, master, master_len, total, w->dk.auth);
}

/* The hash state after the key XOR @x, padded to a block. */
static void hmac_start(struct encrypted_work *w, u8 x)
{
	size_t i;

	memset(w->pad, x, sizeof(w->pad));
	for (i = 0; i < TK_ENC_KEY_SIZE; i++)
		w->pad[i] ^= w->dk.auth[i];
	sha256_init(&w->sha);
	sha256_update(&w->sha, w->pad, sizeof(w->pad));
}

/**
 * encrypted_hmac() - HMAC-SHA256 of @len bytes at @data under @w->dk.auth
 * @w: working state with the derived keys
 * @data: what to authenticate
 * @len: its length (an image: below 64 KiB)
 * @mac: TK_ENC_MAC_SIZE bytes out
 */
void encrypted_hmac(struct encrypted_work *w, const u8 *data, size_t len,
		    u8 *mac)
{
	hmac_start(w, 0x36);
	sha256_update(&w->sha, data, len);
	sha256_final(&w->sha, mac);
	hmac_start(w, 0x5c);
	sha256_update(&w->sha, mac, SHA256_DIGEST_SIZE);
	sha256_final(&w->sha, mac);
	memzero_explicit(w->pad, sizeof(w->pad));
}

/**
 * encrypted_cbc_encrypt() - AES-256-CBC under @w->dk.enc
 * @w: working state with the derived keys
 * @iv: TK_ENC_IV_SIZE bytes
 * @in: plaintext
 * @in_len: its length, at most @out_len
 * @out: ciphertext, not overlapping @in
 * @out_len: its length, a whole number of blocks (@in is zero-padded)
 *
 * Return: 0, or -EINVAL when the lengths do not fit.
 */
int encrypted_cbc_encrypt(struct encrypted_work *w, const u8 *iv,
			  const u8 *in, size_t in_len, u8 *out, size_t out_len)
{
	const u8 *chain = iv;
	size_t off, n;
	int ret;

	if (unlikely(out_len % TK_ENC_BLOCK_SIZE || in_len > out_len))
		return -EINVAL;
	ret = aes_expandkey(&w->aes, w->dk.enc, TK_ENC_KEY_SIZE);
	if (unlikely(ret))
		return ret;
	for (off = 0; off < out_len; off += TK_ENC_BLOCK_SIZE) {
		n = in_len > off ? min_t(size_t, in_len - off, TK_ENC_BLOCK_SIZE) : 0;
		memset(w->blk, 0, sizeof(w->blk));
		memcpy(w->blk, in + off, n);
		crypto_xor(w->blk, chain, TK_ENC_BLOCK_SIZE);
		aes_encrypt(&w->aes, out + off, w->blk);
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
 * @in: ciphertext
 * @in_len: its length, a whole number of blocks
 * @out: the first @out_len bytes of plaintext (the padding is dropped),
 *       not overlapping @in
 * @out_len: at most @in_len
 *
 * Return: 0, or -EINVAL when the lengths do not fit.
 */
int encrypted_cbc_decrypt(struct encrypted_work *w, const u8 *iv,
			  const u8 *in, size_t in_len, u8 *out, size_t out_len)
{
	const u8 *chain = iv;
	size_t off, n;
	int ret;

	if (unlikely(in_len % TK_ENC_BLOCK_SIZE || out_len > in_len))
		return -EINVAL;
	ret = aes_expandkey(&w->aes, w->dk.enc, TK_ENC_KEY_SIZE);
	if (unlikely(ret))
		return ret;
	for (off = 0; off < in_len; off += TK_ENC_BLOCK_SIZE) {
		aes_decrypt(&w->aes, w->blk, in + off);
		crypto_xor(w->blk, chain, TK_ENC_BLOCK_SIZE);
		n = out_len > off ? min_t(size_t, out_len - off, TK_ENC_BLOCK_SIZE) : 0;
		memcpy(out + off, w->blk, n);
		chain = in + off;
	}
	return 0;
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(encrypted_cbc_decrypt, ERRNO);
#endif
