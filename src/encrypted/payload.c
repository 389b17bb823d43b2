// SPDX-License-Identifier: GPL-2.0
/*
 * struct encrypted_key_payload is the consumers' view of a key (dm-crypt,
 * EVM and nvdimm read decrypted_data/decrypted_datalen, ecryptfs reads
 * payload_data as its auth token), laid out as the in-tree type does:
 *
 *   payload_data[payload_datalen]   key material, or the ecryptfs auth token
 *                                   whose session key encryption key it is
 *   image[image_len]                format NUL master NUL datalen NUL
 *                                   iv NUL ciphertext  (what the HMAC covers)
 *   mac[32], one spare byte
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "encrypted.h"

static size_t payload_bytes(enum tk_enc_format format, unsigned int datalen)
{
	if (format == TK_ENC_FMT_ECRYPTFS)
		return sizeof(struct ecryptfs_auth_tok);
	return datalen;
}

/**
 * encrypted_payload_alloc() - allocate a payload laid out as the in-tree type's
 * @format: the key's format (default, ecryptfs, enc32)
 * @master_desc: the master key's "trusted:" or "user:" description
 * @datalen_str: the key length as the user wrote it (it is part of the image)
 * @datalen: that length as a number, already checked against the format
 *
 * Writes the image text (format, master, datalen) and points every field of
 * the consumers' view at its place; the iv, ciphertext and MAC are left zero.
 *
 * Return: the payload (free with encrypted_payload_free()), or NULL when out
 * of memory or when the whole would not fit the key's 16-bit size.
 */
struct encrypted_key_payload *
encrypted_payload_alloc(enum tk_enc_format format, const char *master_desc,
			const char *datalen_str, unsigned int datalen)
{
	const char *fmt = tk_enc_format_name(format);
	struct encrypted_key_payload *ep;
	size_t plen = payload_bytes(format, datalen);
	struct tk_enc_layout l;
	u8 *image;

	tk_enc_layout(&l, strlen(fmt), strlen(master_desc), strlen(datalen_str),
		      datalen);
	if (unlikely(plen + l.image_len + TK_ENC_MAC_SIZE + 1 > U16_MAX))
		return NULL;
	ep = kzalloc(struct_size(ep, payload_data,
				 plen + l.image_len + TK_ENC_MAC_SIZE + 1),
		     GFP_KERNEL);
	if (unlikely(!ep))
		return NULL;

	image = ep->payload_data + plen;
	tk_enc_image_text(image, &l, fmt, master_desc, datalen_str);
	ep->format = (char *)image;
	ep->master_desc = (char *)image + l.master_off;
	ep->datalen = (char *)image + l.datalen_off;
	ep->iv = image + l.iv_off;
	ep->encrypted_data = image + l.enc_off;
	ep->datablob_len = l.image_len;
	ep->decrypted_datalen = datalen;
	ep->payload_datalen = plen;
	ep->encrypted_key_format = format;
	if (format == TK_ENC_FMT_ECRYPTFS) {
		struct ecryptfs_auth_tok *tok = (void *)ep->payload_data;

		ep->decrypted_data = ecryptfs_get_auth_tok_key(tok);
	} else {
		ep->decrypted_data = ep->payload_data;
	}
	return ep;
}

/**
 * encrypted_payload_layout() - the offsets and lengths of a payload's image
 * @ep: the payload
 * @l: filled with the layout of @ep's image and blob
 */
void encrypted_payload_layout(const struct encrypted_key_payload *ep,
			      struct tk_enc_layout *l)
{
	tk_enc_layout(l, strlen(ep->format), strlen(ep->master_desc),
		      strlen(ep->datalen), ep->decrypted_datalen);
}

/**
 * encrypted_payload_quota() - what a key with this payload is charged
 * @ep: the payload
 *
 * Return: the same figure the in-tree type reserves against the key quota.
 */
size_t encrypted_payload_quota(const struct encrypted_key_payload *ep)
{
	return ep->payload_datalen + ep->datablob_len + TK_ENC_MAC_SIZE + 1;
}

/**
 * encrypted_payload_free() - wipe and free a payload no reader can see
 * @ep: the payload, or NULL
 */
void encrypted_payload_free(struct encrypted_key_payload *ep)
{
	kfree_sensitive(ep);
}

static void payload_free_rcu(struct rcu_head *rcu)
{
	kfree_sensitive(container_of(rcu, struct encrypted_key_payload, rcu));
}

/**
 * encrypted_payload_free_rcu() - wipe and free a payload after RCU readers
 * @ep: the payload a key no longer points to
 */
void encrypted_payload_free_rcu(struct encrypted_key_payload *ep)
{
	call_rcu(&ep->rcu, payload_free_rcu);
}
