// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing a key into its blob (read) and opening a blob (load).
 *
 * Each operation derives its keys into one heap struct encrypted_work and
 * wipes it before returning (crypto.c: the transforms are shared, no
 * state of an operation is). Sealing never writes to the shared payload:
 * the image is built in a heap copy, the zero-padded plaintext encrypted
 * into it, and the image MACed. Opening checks the MAC in constant time
 * before a single block is decrypted, and decrypts straight into the
 * payload's key material (the padding is dropped).
 */
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/algapi.h>

#include "encrypted.h"

/**
 * encrypted_blob_open() - check a blob's MAC and decrypt it into a payload
 * @ep: a payload from encrypted_payload_alloc() for the blob's format,
 *      master and length
 * @cl: the parsed "load" command line whose blob is opened
 *
 * Return: 0, or -EINVAL for a malformed blob or a MAC mismatch (wrong master
 * key or tampered blob), -ENOMEM, or the master key lookup's errno.
 */
int encrypted_blob_open(struct encrypted_key_payload *ep,
			const struct tk_enc_cmdline *cl)
{
	struct encrypted_work *w;
	struct tk_enc_layout l;
	u8 *image = (u8 *)ep->format;
	u8 *stored_mac;
	size_t skip;
	int ret;

	encrypted_payload_layout(ep, &l);
	stored_mac = image + l.image_len;
	ret = tk_enc_blob_decode(&l, cl->blob_hex, cl->blob_hex_len, ep->iv,
				 ep->encrypted_data, stored_mac);
	if (unlikely(ret))
		return ret;

	w = encrypted_work_alloc();
	if (IS_ERR(w))
		return PTR_ERR(w);
	ret = encrypted_master_derive(ep->master_desc, w);
	if (unlikely(ret))
		goto out_work;

	/* An old-style blob (no format token) was MACed without "default". */
	skip = cl->format_given ? 0 : l.master_off;
	ret = encrypted_hmac(w, image + skip, l.image_len - skip, w->mac);
	if (unlikely(ret))
		goto out_work;
	if (crypto_memneq(w->mac, stored_mac, TK_ENC_MAC_SIZE)) {
		pr_info_ratelimited("blob refused: HMAC mismatch (wrong master key or tampered blob)\n");
		ret = -EINVAL;
		goto out_work;
	}
	ret = encrypted_cbc_decrypt(w, ep->iv, ep->encrypted_data, l.enc_len,
				    ep->decrypted_data, ep->decrypted_datalen);
out_work:
	encrypted_work_free(w);
	return ret;
}

/**
 * encrypted_blob_seal() - write a payload's blob as "keyctl read" shows it
 * @ep: the payload; not written to
 * @out: the user's buffer in kernel memory
 * @out_len: its size; must hold the whole blob
 *
 * Return: the blob's length, -EINVAL when @out is too small, -ENOMEM, or the
 * master key lookup's errno.
 */
long encrypted_blob_seal(const struct encrypted_key_payload *ep, char *out,
			 size_t out_len)
{
	struct encrypted_work *w;
	struct tk_enc_layout l;
	u8 *image;
	long ret;

	encrypted_payload_layout(ep, &l);
	if (out_len < l.blob_len)
		return -EINVAL;
	w = encrypted_work_alloc();
	if (IS_ERR(w))
		return PTR_ERR(w);
	ret = encrypted_master_derive(ep->master_desc, w);
	if (unlikely(ret))
		goto out_work;
	ret = -ENOMEM;
	image = kmalloc(l.image_len, GFP_KERNEL);
	if (unlikely(!image))
		goto out_work;

	memcpy(image, ep->format, l.enc_off);
	ret = encrypted_cbc_encrypt(w, ep->iv, ep->decrypted_data,
				    ep->decrypted_datalen, image + l.enc_off,
				    l.enc_len);
	if (unlikely(ret))
		goto out_image;
	ret = encrypted_hmac(w, image, l.image_len, w->mac);
	if (unlikely(ret))
		goto out_image;
	ret = tk_enc_blob_encode(out, out_len, &l, image, w->mac);

out_image:
	kfree_sensitive(image);
out_work:
	encrypted_work_free(w);
	return ret;
}
