// SPDX-License-Identifier: GPL-2.0
/*
 * The "trusted" key type: symmetric keys generated in the kernel and
 * sealed by a TPM; user space only ever sees the sealed blob.
 *
 *   keyctl add trusted NAME "new LEN [options]" RING
 *   keyctl add trusted NAME "load HEXBLOB [options]" RING
 *   keyctl update ID "update [options]"
 *   keyctl print ID
 *
 * logon=<prefix>:<desc> (new, load, update; CAP_SYS_ADMIN) also makes a
 * root-only logon key of the secret in the caller's session keyring, for
 * dm-crypt (logon.c).
 *
 * import=<hex> (new) seals these bytes instead of RNG output: an existing
 * volume key, such as a LUKS2 volume's. keydigest= (new with import=,
 * load) makes nothing of a key that fails LUKS2's PBKDF2 digest of the
 * volume's key (keydigest.c).
 */
#include <keys/user-type.h>
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/hex.h>
#include <linux/key-type.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted.h"

static char *rng = "default";
module_param(rng, charp, 0444);
MODULE_PARM_DESC(rng, "Source of new keys: default (the TPM), tpm or kernel");

static char *source;
module_param(source, charp, 0444);
MODULE_PARM_DESC(source, "Trust source: only tpm is supported");

static bool kernel_rng;

/* What preparse hands to instantiate in prep->payload.data[]. */
enum { PREP_REQ, PREP_PAYLOAD, PREP_LOGON, PREP_KEYRING };

/*
 * key->payload.data[1]: our reference to the logon key of logon=, if any.
 * data[0] is struct trusted_key_payload, as in-kernel consumers expect.
 * data[1] is only touched under key->sem (update, revoke) or in destroy.
 */
#define TRUSTED_LOGON	1

/* pcrlock=0 means no lock, as it always has. */
static bool trusted_wants_pcrlock(const struct tk_options *o)
{
	return tk_opt_given(o, TK_OPT_PCRLOCK) && o->pcrlock;
}

static int trusted_seal(struct trusted_key_payload *p, const struct tk_options *o)
{
	return trusted_tpm_ops()->seal(p, o);
}

static int trusted_new_key(struct trusted_key_payload *p, const struct tk_request *req)
{
	const struct tk_options *o = &req->opt;
	int ret = 0;

	p->key_len = req->key_len;
	p->migratable = o->migratable;
	if (tk_opt_given(o, TK_OPT_IMPORT)) {
		/* import=: the caller's bytes (an existing volume key) */
		memcpy(p->key, o->import, p->key_len);
		if (tk_opt_given(o, TK_OPT_KEYDIGEST)) {
			ret = trusted_keydigest_check(p->key, p->key_len,
						      &o->keydigest, "new");
			if (ret)
				return ret;
		}
		return trusted_seal(p, o);
	}
	/* From the TPM: drawn inside the sealing session or transport */
	if (!kernel_rng)
		return trusted_tpm_ops()->seal_random(p, o);
	ret = get_random_bytes_wait(p->key, p->key_len);
	if (ret)
		return ret;
	return trusted_seal(p, o);
}

static int trusted_load_key(struct trusted_key_payload *p, const struct tk_request *req)
{
	int ret;

	ret = trusted_tpm_ops()->unseal(p, req->blob, req->blob_len, &req->opt);
	if (ret || !tk_opt_given(&req->opt, TK_OPT_KEYDIGEST))
		return ret;
	return trusted_keydigest_check(p->key, p->key_len, &req->opt.keydigest,
				       "load");
}

/*
 * The key of new or load, into @p (the caller frees it on failure with
 * kfree_sensitive()). The request's copy of import= is wiped here, made
 * or not; every other path frees the request with kfree_sensitive().
 */
static int trusted_make_key(struct trusted_key_payload *p, struct tk_request *req)
{
	int ret;

	ret = req->cmd == TK_CMD_NEW ? trusted_new_key(p, req) : trusted_load_key(p, req);
	memzero_explicit(req->opt.import, sizeof(req->opt.import));
	req->opt.import_len = 0;
	return ret;
}

/*
 * logon= or keydigest= with new or load: the key is made here, before
 * add_key(2) takes the destination keyring's lock and the construction
 * mutex. logon= because the logon key is created and linked into the
 * caller's session keyring, which may well be that destination;
 * keydigest= because its PBKDF2 may run for seconds, which nobody else's
 * key construction should wait for. Nothing is linked unless all of it
 * worked; free_preparse undoes it when the add fails later.
 */
static int preparse_key(struct key_preparsed_payload *prep,
			struct tk_request *req)
{
	struct trusted_key_payload *p;
	struct key *logon = NULL, *keyring = NULL;
	int ret;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	ret = trusted_make_key(p, req);
	if (ret)
		goto err;
	if (tk_opt_given(&req->opt, TK_OPT_LOGON)) {
		logon = trusted_logon_make(req->opt.logon, p->key, p->key_len,
					   &keyring);
		if (IS_ERR(logon)) {
			ret = PTR_ERR(logon);	/* logged by logon.c */
			goto err;
		}
	}
	prep->payload.data[PREP_PAYLOAD] = p;
	prep->payload.data[PREP_LOGON] = logon;
	prep->payload.data[PREP_KEYRING] = keyring;
	return 0;
err:
	kfree_sensitive(p);
	return ret;
}

static int trusted_preparse(struct key_preparsed_payload *prep)
{
	struct tk_request *req;
	char *line;
	int ret;

	if (!prep->data || prep->datalen == 0 || prep->datalen > TK_DATA_MAX)
		return -EINVAL;
	if (!trusted_tpm_present())
		return -ENODEV;
	line = kmemdup_nul(prep->data, prep->datalen, GFP_KERNEL);
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	ret = -ENOMEM;
	if (!line || !req)
		goto out;

	ret = trusted_tpm_ops()->parse(line, req);
	if (ret) {
		pr_info_ratelimited("refused: %s\n", req->why);
		goto out;
	}
	ret = trusted_sessions_option(&req->opt);
	if (ret)
		goto out;
	if (trusted_wants_pcrlock(&req->opt) && !capable(CAP_SYS_ADMIN)) {
		ret = -EPERM;
		goto out;
	}
	if (tk_opt_given(&req->opt, TK_OPT_LOGON)) {
		ret = trusted_logon_permitted();
		if (ret)
			goto out;
	}
	if ((tk_opt_given(&req->opt, TK_OPT_LOGON) ||
	     tk_opt_given(&req->opt, TK_OPT_KEYDIGEST)) &&
	    req->cmd != TK_CMD_UPDATE) {
		ret = preparse_key(prep, req);
		if (ret)
			goto out;
	}
	prep->payload.data[PREP_REQ] = req;
	req = NULL;
out:
	kfree_sensitive(line);
	kfree_sensitive(req);
	return ret;
}

static void trusted_free_preparse(struct key_preparsed_payload *prep)
{
	kfree_sensitive(prep->payload.data[PREP_REQ]);
	kfree_sensitive(prep->payload.data[PREP_PAYLOAD]);
	/* a logon key not taken over by instantiate is revoked and unlinked */
	trusted_logon_drop(prep->payload.data[PREP_LOGON],
			   prep->payload.data[PREP_KEYRING]);
}

/*
 * pcrlock= is the last step: it only happens once the key exists; the key
 * is not made (or updated) when it fails.
 */
static int trusted_lock_pcr(const struct tk_request *req)
{
	if (!trusted_wants_pcrlock(&req->opt))
		return 0;
	return trusted_tpm_pcrlock(req->opt.pcrlock);
}

static int trusted_instantiate(struct key *key, struct key_preparsed_payload *prep)
{
	struct tk_request *req = prep->payload.data[PREP_REQ];
	struct trusted_key_payload *p;
	int ret;

	if (req->cmd == TK_CMD_UPDATE)
		return -EINVAL;
	ret = key_payload_reserve(key, sizeof(*p));
	if (ret)
		return ret;
	p = prep->payload.data[PREP_PAYLOAD];
	if (p) {
		/* logon=, keydigest=: made by preparse; take it over */
		ret = trusted_lock_pcr(req);
		if (ret)
			return ret;
		rcu_assign_keypointer(key, p);
		key->payload.data[TRUSTED_LOGON] = prep->payload.data[PREP_LOGON];
		prep->payload.data[PREP_PAYLOAD] = NULL;
		prep->payload.data[PREP_LOGON] = NULL;
		return 0;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	ret = trusted_make_key(p, req);
	if (ret)
		goto free;
	ret = trusted_lock_pcr(req);
	if (ret)
		goto free;
	rcu_assign_keypointer(key, p);
	return 0;

free:
	kfree_sensitive(p);
	return ret;
}

static void trusted_free_payload_rcu(struct rcu_head *rcu)
{
	kfree_sensitive(container_of(rcu, struct trusted_key_payload, rcu));
}

/*
 * update logon=<desc>: the logon key is made again (in the caller's
 * session) unless the one we hold has that description and is alive. Its
 * bytes never need rewriting: update reseals the same key, and nobody may
 * write a logon key of ours. Made here, linked, and the old one left as it
 * is until trusted_update() has nothing left that can fail; NULL when none
 * is needed. Under key->sem, like revoke.
 */
static struct key *update_logon(struct key *key,
				const struct trusted_key_payload *p,
				const struct tk_request *req,
				struct key **keyring)
{
	struct key *old = key->payload.data[TRUSTED_LOGON];

	*keyring = NULL;
	if (!tk_opt_given(&req->opt, TK_OPT_LOGON))
		return NULL;
	if (trusted_logon_alive(old) && trusted_logon_matches(old, req->opt.logon))
		return NULL;
	/* an ERR_PTR is logged by logon.c */
	return trusted_logon_make(req->opt.logon, p->key, p->key_len, keyring);
}

/* Reseal the same key under new options (new PCR values, new auth). */
static int trusted_update(struct key *key, struct key_preparsed_payload *prep)
{
	const struct tk_request *req = prep->payload.data[PREP_REQ];
	struct trusted_key_payload *old, *p;
	struct key *logon, *keyring;
	int ret;

	if (key_is_negative(key))
		return -ENOKEY;
	if (req->cmd != TK_CMD_UPDATE)
		return -EINVAL;
	old = key->payload.data[0];
	if (!old->migratable)
		return -EPERM;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->key_len = old->key_len;
	/* update migratable=0 seals the key as final, as in-tree */
	p->migratable = tk_opt_given(&req->opt, TK_OPT_MIGRATABLE) ?
			req->opt.migratable : old->migratable;
	memcpy(p->key, old->key, old->key_len);

	if (trusted_tpm_ops()->update_check) {
		ret = trusted_tpm_ops()->update_check(old, &req->opt);
		if (ret)
			goto free;
	}
	ret = trusted_seal(p, &req->opt);
	if (ret)
		goto free;
	logon = update_logon(key, p, req, &keyring);
	if (IS_ERR(logon)) {
		ret = PTR_ERR(logon);
		goto free;
	}
	ret = trusted_lock_pcr(req);
	if (ret) {
		/* the key stays as it was: the new logon key goes, the old stays */
		trusted_logon_drop(logon, keyring);
		goto free;
	}
	if (logon) {
		key_put(keyring);
		trusted_logon_drop(key->payload.data[TRUSTED_LOGON], NULL);
		key->payload.data[TRUSTED_LOGON] = logon;
	}
	rcu_assign_keypointer(key, p);
	call_rcu(&old->rcu, trusted_free_payload_rcu);
	return 0;

free:
	kfree_sensitive(p);
	return ret;
}

/*
 * Revoked: the logon key goes too. The trusted payload (data[0]) stays
 * until destroy, as in-kernel holders of the key may still read it.
 */
static void trusted_revoke(struct key *key)
{
	struct key *logon = key->payload.data[TRUSTED_LOGON];

	key->payload.data[TRUSTED_LOGON] = NULL;
	trusted_logon_drop(logon, NULL);
}

static void trusted_destroy(struct key *key)
{
	trusted_logon_drop(key->payload.data[TRUSTED_LOGON], NULL);
	kfree_sensitive(key->payload.data[0]);
}

/* The sealed blob, in hex; never the key. */
static long trusted_read(const struct key *key, char *buffer, size_t buflen)
{
	const struct trusted_key_payload *p = dereference_key_locked(key);

	if (!p)
		return -EINVAL;
	if (buffer && buflen >= 2 * p->blob_len)
		bin2hex(buffer, p->blob, p->blob_len);
	return 2 * p->blob_len;
}

struct key_type key_type_trusted = {
	.name		= "trusted",
	.preparse	= trusted_preparse,
	.free_preparse	= trusted_free_preparse,
	.instantiate	= trusted_instantiate,
	.update		= trusted_update,
	.revoke		= trusted_revoke,
	.destroy	= trusted_destroy,
	.describe	= user_describe,
	.read		= trusted_read,
};
EXPORT_SYMBOL_GPL(key_type_trusted);

static int trusted_check_params(void)
{
	if (source && strcmp(source, "tpm")) {
		pr_err("source=%s is not supported; only tpm\n", source);
		return -EINVAL;
	}
	if (!strcmp(rng, "kernel")) {
		kernel_rng = true;
	} else if (strcmp(rng, "default") && strcmp(rng, "tpm")) {
		pr_err("rng=%s is not supported: default, tpm or kernel\n", rng);
		return -EINVAL;
	}
	return 0;
}

static int __init trusted_init(void)
{
	int ret;

	ret = trusted_check_params();
	if (ret)
		return ret;
	/*
	 * Without a TPM the type still registers (new/load then fail with
	 * ENODEV), so that encrypted-keys.ko, which links against
	 * key_type_trusted, loads for its user: masters.
	 */
	ret = trusted_tpm_init();
	if (ret == -ENODEV)
		pr_info("no TPM found: trusted keys cannot be created or loaded\n");
	else if (ret)
		goto err;
	ret = register_key_type(&key_type_trusted);
	if (ret)
		goto err_tpm;
	return 0;

err_tpm:
	trusted_tpm_exit();
err:
	pr_err("not loaded (%d)\n", ret);
	return ret;
}

static void __exit trusted_exit(void)
{
	unregister_key_type(&key_type_trusted);
	rcu_barrier();		/* payloads freed by update run our code */
	trusted_tpm_exit();	/* the version's .exit, then the chip */
}

/* After the TPM drivers and the crypto API, like the in-tree module. */
late_initcall(trusted_init);
module_exit(trusted_exit);

MODULE_DESCRIPTION("Trusted keys sealed by a TPM");
MODULE_LICENSE("GPL");
