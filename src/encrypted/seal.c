// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing a key into its blob (read) and opening a blob (load).
 *
 * Sealing works on a heap copy of the image, so readers never write to the
 * shared payload: the plaintext is zero-padded to whole blocks, encrypted
 * in place under the derived AES key, and the image is MACed. Opening checks
 * the MAC in constant time before a single block is decrypted.
 */
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/algapi.h>

#include "encrypted.h"

int encrypted_blob_open(struct encrypted_key_payload *ep,
			const struct tk_enc_cmdline *cl)
{
	struct encrypted_dkeys *dk;
	struct tk_enc_layout l;
	u8 *image = (u8 *)ep->format;
	u8 *stored_mac, *mac, *plain;
	size_t skip;
	int ret;

	encrypted_payload_layout(ep, &l);
	stored_mac = image + l.image_len;
	ret = tk_enc_blob_decode(&l, cl->blob_hex, cl->blob_hex_len, ep->iv,
				 ep->encrypted_data, stored_mac);
	if (unlikely(ret))
		return ret;

	dk = encrypted_master_derive(ep->master_desc);
	if (IS_ERR(dk))
		return PTR_ERR(dk);
	ret = -ENOMEM;
	mac = kmalloc(TK_ENC_MAC_SIZE, GFP_KERNEL);
	if (unlikely(!mac))
		goto out_dk;

	/* An old-style blob (no format token) was MACed without "default". */
	skip = cl->format_given ? 0 : l.master_off;
	ret = encrypted_hmac(dk->auth, image + skip, l.image_len - skip, mac);
	if (unlikely(ret))
		goto out_mac;
	if (crypto_memneq(mac, stored_mac, TK_ENC_MAC_SIZE)) {
		pr_info_ratelimited("blob rejected: HMAC mismatch (wrong master key or tampered blob)\n");
		ret = -EINVAL;
		goto out_mac;
	}

	ret = -ENOMEM;
	plain = kmemdup(ep->encrypted_data, l.enc_len, GFP_KERNEL);
	if (unlikely(!plain))
		goto out_mac;
	ret = encrypted_cbc(dk->enc, ep->iv, plain, l.enc_len, false);
	if (likely(!ret))
		memcpy(ep->decrypted_data, plain, ep->decrypted_datalen);
	kfree_sensitive(plain);
out_mac:
	kfree_sensitive(mac);
out_dk:
	encrypted_dkeys_free(dk);
	return ret;
}

long encrypted_blob_seal(const struct encrypted_key_payload *ep, char *out,
			 size_t out_len)
{
	struct encrypted_dkeys *dk;
	struct tk_enc_layout l;
	u8 *image;
	long ret;

	encrypted_payload_layout(ep, &l);
	if (out_len < l.blob_len)
		return -EINVAL;
	dk = encrypted_master_derive(ep->master_desc);
	if (IS_ERR(dk))
		return PTR_ERR(dk);
	ret = -ENOMEM;
	image = kzalloc(l.image_len + TK_ENC_MAC_SIZE, GFP_KERNEL);
	if (unlikely(!image))
		goto out_dk;

	memcpy(image, ep->format, l.enc_off);
	memcpy(image + l.enc_off, ep->decrypted_data, ep->decrypted_datalen);
	ret = encrypted_cbc(dk->enc, ep->iv, image + l.enc_off, l.enc_len, true);
	if (unlikely(ret))
		goto out_image;
	ret = encrypted_hmac(dk->auth, image, l.image_len, image + l.image_len);
	if (unlikely(ret))
		goto out_image;
	ret = tk_enc_blob_encode(out, out_len, &l, image, image + l.image_len);

out_image:
	kfree_sensitive(image);
out_dk:
	encrypted_dkeys_free(dk);
	return ret;
}
