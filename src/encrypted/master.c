// SPDX-License-Identifier: GPL-2.0
/*
 * Master keys. "user:<desc>" names a user key, "trusted:<desc>" a trusted
 * key (whichever trusted.ko exports key_type_trusted: ours or the in-tree
 * one). The master is looked up, its bytes are read under its semaphore,
 * both working keys are derived, and it is released at once: nothing of
 * it outlives one call.
 */
#include <linux/err.h>
#include <linux/key.h>
#include <keys/trusted-type.h>
#include <keys/user-type.h>

#include "encrypted.h"

static struct key_type *master_type(enum tk_enc_master kind)
{
	switch (kind) {
	case TK_ENC_MASTER_USER:
		return &key_type_user;
	case TK_ENC_MASTER_TRUSTED:
		/*
		 * Not where it cannot be linked: a shadowed out-of-tree build
		 * (it never registers), or a built-in type with trusted keys
		 * in a module (as the in-tree masterkey_trusted.o).
		 */
		return ENCRYPTED_TRUSTED_MASTER ? &key_type_trusted : NULL;
	}
	return NULL;
}

/* The master's secret bytes; the caller holds mkey->sem. */
static int master_bytes(struct key *mkey, enum tk_enc_master kind,
			const u8 **data, size_t *len)
{
	const struct user_key_payload *up;
	const struct trusted_key_payload *tp;

	if (key_validate(mkey) < 0 || !key_is_positive(mkey))
		return -EKEYREVOKED;
	if (kind == TK_ENC_MASTER_USER) {
		up = user_key_payload_locked(mkey);
		if (!up)
			return -EKEYREVOKED;
		*data = up->data;
		*len = up->datalen;
	} else {
		tp = dereference_key_locked(mkey);
		if (!tp)
			return -EKEYREVOKED;
		*data = tp->key;
		*len = tp->key_len;
	}
	return 0;
}

/**
 * encrypted_master_derive() - derive the working keys from a master key
 * @master_desc: "user:<desc>" or "trusted:<desc>"
 * @w: working state; the derived keys land in @w->dk
 *
 * Looks the master up in the caller's keyrings, reads its bytes under its
 * semaphore and lets go of it before returning.
 *
 * Return: 0, or a negative errno (-EINVAL for a bad description,
 * -EOPNOTSUPP for a trusted master in a build without trusted keys,
 * request_key()'s error, -EKEYREVOKED, the hash driver's error).
 */
int encrypted_master_derive(const char *master_desc, struct encrypted_work *w)
{
	enum tk_enc_master kind;
	struct key_type *type;
	struct key *mkey;
	size_t prefix, len;
	const u8 *data;
	int ret;

	if (tk_enc_master_kind(master_desc, &kind, &prefix))
		return -EINVAL;
	type = master_type(kind);
	if (!type)
		return -EOPNOTSUPP;
	mkey = request_key(type, master_desc + prefix, NULL);
	if (IS_ERR(mkey))
		return PTR_ERR(mkey);
	down_read(&mkey->sem);
	ret = master_bytes(mkey, kind, &data, &len);
	if (likely(!ret))
		ret = encrypted_derive(w, data, len);
	up_read(&mkey->sem);
	key_put(mkey);
	return ret;
}
