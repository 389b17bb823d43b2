// SPDX-License-Identifier: GPL-2.0
/*
 * logon=<prefix>:<desc>: a "logon" key that mirrors a trusted key's secret
 * for kernels whose dm-crypt was built without trusted-key support. It is
 * made in the caller's session keyring (where dm-crypt's request_key(),
 * run by dmsetup/cryptsetup in that session, finds it), owned by the
 * caller, and user space can never read it back (the logon type has no
 * read op). The trusted key holds a reference in payload.data[1] and
 * keeps it in step: update rewrites it, revoke/destroy revoke it.
 */
#include <keys/user-type.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key.h>
#include <uapi/linux/keyctl.h>
#include "trusted.h"

/**
 * trusted_logon_make() - make the logon key of a trusted key
 * @desc: "<prefix>:<desc>", already validated by the option parser
 * @data: the unsealed key bytes
 * @len: their length
 * @keyring: set to the session keyring it was linked into (a reference)
 *
 * Refuses with -EEXIST when the session keyring already holds a logon key
 * of that description: one secret per description, never a silent swap.
 *
 * Return: the logon key (a reference) or an ERR_PTR.
 */
struct key *trusted_logon_make(const char *desc, const u8 *data, size_t len,
			       struct key **keyring)
{
	key_ref_t session, found, made;

	session = lookup_user_key(KEY_SPEC_SESSION_KEYRING, KEY_LOOKUP_CREATE,
				  KEY_NEED_WRITE);
	if (IS_ERR(session))
		return ERR_CAST(session);

	found = keyring_search(session, &key_type_logon, desc, false);
	if (!IS_ERR(found)) {
		key_ref_put(found);
		made = ERR_PTR(-EEXIST);
		goto out;
	}
	made = key_create_or_update(session, "logon", desc, data, len,
				    KEY_PERM_UNDEF, KEY_ALLOC_IN_QUOTA);
	if (IS_ERR(made))
		goto out;
	*keyring = key_ref_to_ptr(session);
	return key_ref_to_ptr(made);
out:
	key_ref_put(session);
	return ERR_CAST(made);
}

/**
 * trusted_logon_sync() - rewrite the logon key with the trusted key's bytes
 * @logon: the logon key
 * @data: the key bytes
 * @len: their length
 *
 * key_update() would refill a revoked key too: a logon key its owner
 * revoked or invalidated stays dead (-EKEYREVOKED).
 *
 * Return: 0 or the error of key_update().
 */
int trusted_logon_sync(struct key *logon, const u8 *data, size_t len)
{
	if (test_bit(KEY_FLAG_REVOKED, &logon->flags) ||
	    test_bit(KEY_FLAG_INVALIDATED, &logon->flags))
		return -EKEYREVOKED;
	return key_update(make_key_ref(logon, true), data, len);
}

/**
 * trusted_logon_drop() - revoke a logon key and drop our reference
 * @logon: the logon key, or NULL
 * @keyring: the keyring to unlink it from, or NULL (its reference dropped)
 */
void trusted_logon_drop(struct key *logon, struct key *keyring)
{
	if (logon) {
		key_revoke(logon);
		if (keyring)
			key_unlink(keyring, logon);
		key_put(logon);
	}
	key_put(keyring);
}

/**
 * trusted_logon_matches() - is @logon the logon key named @desc?
 * @logon: a logon key, or NULL
 * @desc: a description
 *
 * Return: true when they match.
 */
bool trusted_logon_matches(const struct key *logon, const char *desc)
{
	return logon && !strcmp(logon->description, desc);
}
