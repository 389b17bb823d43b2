// SPDX-License-Identifier: GPL-2.0
/*
 * The "encrypted" key type: a drop-in for the in-tree encrypted-keys.ko.
 *
 * preparse parses and checks the command (src/lib/tk_enc_blob.c) and builds
 * a new key's payload (random material or user data); instantiate opens a
 * loaded blob into a payload and commits either; update re-homes a key under
 * another master of the same kind; read seals the key into a fresh blob under
 * its master.
 */
#include <linux/init.h>
#include <linux/key-type.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tk_hex.h"
#include "encrypted.h"

static bool user_decrypted_data = IS_ENABLED(CONFIG_USER_DECRYPTED_DATA);
module_param(user_decrypted_data, bool, 0444);
MODULE_PARM_DESC(user_decrypted_data,
		 "Allow new keys from user-provided decrypted data (default: CONFIG_USER_DECRYPTED_DATA)");

/*
 * What preparse hands to instantiate or update, in prep->payload.data[]: a
 * "new" command is carried out in preparse (the finished payload), a "load"
 * or "update" command is kept as parsed text.
 */
enum {
	ENCRYPTED_PREP_CMD,	/* struct encrypted_prep: load, update */
	ENCRYPTED_PREP_NEW,	/* struct encrypted_key_payload: new */
};

/* The command as preparsed; cl points into text. */
struct encrypted_prep {
	struct tk_enc_cmdline cl;
	char text[];
};

/*
 * Commands shorter than this are parsed in a copy on the stack: "new" (the
 * key length, the format and the master's name) needs no allocation but its
 * payload's, where the in-tree type allocates a copy of the text as well.
 */
#define ENCRYPTED_STACK_TEXT	128

static int encrypted_refuse(const char *why)
{
	pr_info_ratelimited("refused: %s\n", why);
	return -EINVAL;
}

/* Parse and check a command; text is NUL-terminated and writable. */
static int encrypted_parse(char *text, struct tk_enc_cmdline *cl)
{
	if (tk_enc_parse(text, cl))
		return encrypted_refuse(cl->why);
	if (cl->data_hex && !user_decrypted_data)
		return encrypted_refuse("user decrypted data is disabled (user_decrypted_data=0)");
	return 0;
}

/* A new key's material: the user's, or the RNG's. */
static int encrypted_new_material(struct encrypted_key_payload *ep,
				  const struct tk_enc_cmdline *cl)
{
	int ret;

	/* Wait for a seeded RNG: keys may be made early in boot. */
	ret = get_random_bytes_wait(ep->iv, TK_ENC_IV_SIZE);
	if (ret)
		return ret;
	if (!cl->data_hex)
		return get_random_bytes_wait(ep->decrypted_data,
					     ep->decrypted_datalen);
	if (tk_hex_decode(ep->decrypted_data, ep->decrypted_datalen,
			  cl->data_hex, strlen(cl->data_hex)) < 0)
		return -EINVAL;
	return 0;
}

/*
 * "new": the whole payload, built before the key exists (nothing of it
 * depends on the key but an ecryptfs token's signature, which instantiate
 * writes), so that the command text need not outlive preparse.
 */
static int encrypted_preparse_new(struct key_preparsed_payload *prep,
				  const struct tk_enc_cmdline *cl)
{
	struct encrypted_key_payload *ep;
	int ret;

	ep = encrypted_payload_alloc(cl->format, cl->master_desc,
				     cl->datalen_str, cl->datalen);
	if (unlikely(!ep))
		return -ENOMEM;
	ret = encrypted_new_material(ep, cl);
	if (unlikely(ret)) {
		encrypted_payload_free(ep);
		return ret;
	}
	prep->payload.data[ENCRYPTED_PREP_NEW] = ep;
	return 0;
}

/* The command in a heap copy, kept for instantiate or update but for "new". */
static int encrypted_preparse_heap(struct key_preparsed_payload *prep)
{
	struct encrypted_prep *pp;
	int ret;

	pp = kmalloc(struct_size(pp, text, prep->datalen + 1), GFP_KERNEL);
	if (unlikely(!pp))
		return -ENOMEM;
	memcpy(pp->text, prep->data, prep->datalen);
	pp->text[prep->datalen] = '\0';

	ret = encrypted_parse(pp->text, &pp->cl);
	if (ret)
		goto out_free;
	if (pp->cl.cmd == TK_ENC_CMD_NEW) {
		ret = encrypted_preparse_new(prep, &pp->cl);
		goto out_free;
	}
	prep->payload.data[ENCRYPTED_PREP_CMD] = pp;
	return 0;

out_free:
	kfree_sensitive(pp);	/* user decrypted data is secret */
	return ret;
}

static int encrypted_preparse(struct key_preparsed_payload *prep)
{
	char text[ENCRYPTED_STACK_TEXT];
	struct tk_enc_cmdline cl;
	int ret;

	if (!prep->data || !prep->datalen || prep->datalen > TK_ENC_MAX_INPUT)
		return -EINVAL;
	if (prep->datalen >= sizeof(text))
		return encrypted_preparse_heap(prep);

	memcpy(text, prep->data, prep->datalen);
	text[prep->datalen] = '\0';
	ret = encrypted_parse(text, &cl);
	if (!ret) {
		if (cl.cmd == TK_ENC_CMD_NEW)
			ret = encrypted_preparse_new(prep, &cl);
		else	/* kept: parsed again in its own copy */
			ret = encrypted_preparse_heap(prep);
	}
	memzero_explicit(text, sizeof(text));	/* user decrypted data */
	return ret;
}

static void encrypted_free_preparse(struct key_preparsed_payload *prep)
{
	kfree_sensitive(prep->payload.data[ENCRYPTED_PREP_CMD]);
	encrypted_payload_free(prep->payload.data[ENCRYPTED_PREP_NEW]);
}

/* ecryptfs looks its keys up by a signature: the key's description. */
static int encrypted_ecryptfs_desc(const struct key *key)
{
	if (tk_enc_ecryptfs_desc_ok(key->description))
		return encrypted_refuse("an ecryptfs key's description must be 16 hex digits");
	return 0;
}

/* Commit a payload to a new key; the ecryptfs token's signature is its name. */
static int encrypted_commit(struct key *key, struct encrypted_key_payload *ep)
{
	int ret;

	if (ep->encrypted_key_format == TK_ENC_FMT_ECRYPTFS) {
		ret = encrypted_ecryptfs_desc(key);
		if (ret)
			return ret;
		ecryptfs_fill_auth_tok((struct ecryptfs_auth_tok *)ep->payload_data,
				       key->description);
	}
	ret = key_payload_reserve(key, encrypted_payload_quota(ep));
	if (unlikely(ret))
		return ret;
	rcu_assign_keypointer(key, ep);
	return 0;
}

static int encrypted_instantiate(struct key *key,
				 struct key_preparsed_payload *prep)
{
	struct encrypted_key_payload *ep = prep->payload.data[ENCRYPTED_PREP_NEW];
	const struct encrypted_prep *pp = prep->payload.data[ENCRYPTED_PREP_CMD];
	const struct tk_enc_cmdline *cl;
	int ret;

	if (ep) {			/* new: built by preparse */
		ret = encrypted_commit(key, ep);
		if (!ret)
			prep->payload.data[ENCRYPTED_PREP_NEW] = NULL;
		return ret;
	}
	cl = &pp->cl;
	if (cl->cmd == TK_ENC_CMD_UPDATE)
		return encrypted_refuse("update needs an existing key");
	/* before the crypto (commit checks it again) */
	if (cl->format == TK_ENC_FMT_ECRYPTFS && encrypted_ecryptfs_desc(key))
		return -EINVAL;

	ep = encrypted_payload_alloc(cl->format, cl->master_desc,
				     cl->datalen_str, cl->datalen);
	if (unlikely(!ep))
		return -ENOMEM;
	ret = encrypted_blob_open(ep, cl);
	if (likely(!ret))
		ret = encrypted_commit(key, ep);
	if (unlikely(ret))
		encrypted_payload_free(ep);
	return ret;
}

static int encrypted_update(struct key *key, struct key_preparsed_payload *prep)
{
	const struct encrypted_prep *pp = prep->payload.data[ENCRYPTED_PREP_CMD];
	const struct tk_enc_cmdline *cl;
	struct encrypted_key_payload *old, *ep;
	int ret;

	if (key_is_negative(key))
		return -ENOKEY;
	if (!pp || pp->cl.cmd != TK_ENC_CMD_UPDATE)	/* new, load */
		return encrypted_refuse("an existing key only takes update");
	cl = &pp->cl;
	old = dereference_key_locked(key);
	if (!old)
		return -EKEYREVOKED;
	if (!tk_enc_same_master_kind(cl->master_desc, old->master_desc))
		return encrypted_refuse("update may not change the master key's type");

	ep = encrypted_payload_alloc(old->encrypted_key_format, cl->master_desc,
				     old->datalen, old->decrypted_datalen);
	if (unlikely(!ep))
		return -ENOMEM;
	memcpy(ep->iv, old->iv, TK_ENC_IV_SIZE);
	memcpy(ep->payload_data, old->payload_data, old->payload_datalen);
	ret = key_payload_reserve(key, encrypted_payload_quota(ep));
	if (unlikely(ret)) {
		encrypted_payload_free(ep);
		return ret;
	}
	rcu_assign_keypointer(key, ep);
	encrypted_payload_free_rcu(old);
	return 0;
}

static void encrypted_destroy(struct key *key)
{
	encrypted_payload_free(key->payload.data[0]);
}

static void encrypted_describe(const struct key *key, struct seq_file *m)
{
	seq_puts(m, key->description);
	if (key_is_positive(key))
		seq_printf(m, ": %u", key->datalen);
}

static long encrypted_read(const struct key *key, char *buffer, size_t buflen)
{
	const struct encrypted_key_payload *ep = dereference_key_locked(key);
	struct tk_enc_layout l;

	if (!ep)
		return -EKEYREVOKED;
	encrypted_payload_layout(ep, &l);
	if (!buffer || buflen < l.blob_len)
		return l.blob_len;
	return encrypted_blob_seal(ep, buffer, buflen);
}

struct key_type key_type_encrypted = {
	.name = "encrypted",
	.preparse = encrypted_preparse,
	.free_preparse = encrypted_free_preparse,
	.instantiate = encrypted_instantiate,
	.update = encrypted_update,
	.destroy = encrypted_destroy,
	.describe = encrypted_describe,
	.read = encrypted_read,
};
ENCRYPTED_EXPORT_GPL(key_type_encrypted);

static int __init encrypted_mod_init(void)
{
	int ret;

#ifdef TK_OUT_OF_TREE
	if (ENCRYPTED_SHADOWED) {
		pr_err("this kernel has the encrypted key type built in (CONFIG_ENCRYPTED_KEYS=y); not loading\n");
		return -EEXIST;
	}
#endif
	ret = register_key_type(&key_type_encrypted);
	if (ret == -EEXIST)
		pr_err("another encrypted key type is registered; not loading\n");
	return ret;
}

static void __exit encrypted_mod_exit(void)
{
	unregister_key_type(&key_type_encrypted);
	rcu_barrier();		/* payloads freed by update run our code */
	encrypted_crypto_exit();
}

module_init(encrypted_mod_init);
module_exit(encrypted_mod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Encrypted keys sealed under a trusted or user master key");
