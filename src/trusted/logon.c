// SPDX-License-Identifier: GPL-2.0
/*
 * logon=<prefix>:<desc>: a "logon" key that mirrors a trusted key's secret
 * for kernels whose dm-crypt was built without trusted-key support.
 *
 * Only dm-crypt needs it, and dm-crypt is root's (CAP_SYS_ADMIN in the
 * initial user namespace): so is logon=. The key is root's too: owned by
 * uid 0 with VIEW|SEARCH for its owner and nothing for anyone else, not
 * even for those who possess it (possessor bits are added to anyone's, and
 * AF_ALG's ALG_SET_KEY_BY_KEY_SERIAL binds any logon key its caller may
 * search). Root's dm-crypt finds it by request_key() (the owner's SEARCH);
 * nobody can read, update, link or chown it, nor loosen its permissions.
 * It goes into the caller's session keyring (where dm-crypt, run by
 * dmsetup in that session, looks), or its user-session keyring when it has
 * none, and only when root owns that keyring: sudo without pam_keyinit
 * leaves root in the invoking user's session, whose owner could swap keys
 * in it. Any answer of the lookup other than "absent" is a refusal, never
 * an overwrite. The trusted key holds a reference in payload.data[1] and
 * revokes the logon key when it is revoked, updated away or destroyed.
 */
#include <keys/user-type.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/key-type.h>
#include <uapi/linux/keyctl.h>
#include "trusted.h"

#define TRUSTED_LOGON_PERM	(KEY_USR_VIEW | KEY_USR_SEARCH)

/**
 * trusted_logon_permitted() - may the caller ask for logon=?
 *
 * Return: 0, or -EPERM (one log line) without CAP_SYS_ADMIN in the initial
 * user namespace.
 */
int trusted_logon_permitted(void)
{
	if (capable(CAP_SYS_ADMIN))
		return 0;
	pr_info_ratelimited("refused: logon= needs CAP_SYS_ADMIN\n");
	return -EPERM;
}

/*
 * The keyring to make the logon key in: the session keyring, or the
 * user-session keyring for a caller without one (where request_key()
 * looks then), never a new session (that would change the caller's
 * credentials behind its back). It must be root's.
 */
static key_ref_t logon_keyring(void)
{
	key_serial_t spec = current_cred()->session_keyring ?
			    KEY_SPEC_SESSION_KEYRING :
			    KEY_SPEC_USER_SESSION_KEYRING;
	key_ref_t ring;

	ring = lookup_user_key(spec, KEY_LOOKUP_CREATE, KEY_NEED_WRITE);
	if (IS_ERR(ring)) {
		pr_info_ratelimited("refused: logon=: no writable session keyring (%ld)\n",
				    PTR_ERR(ring));
		return ring;
	}
	if (!uid_eq(key_ref_to_ptr(ring)->uid, GLOBAL_ROOT_UID)) {
		key_ref_put(ring);
		pr_info_ratelimited("refused: logon=: the session keyring is not root's (keyctl new_session)\n");
		return ERR_PTR(-EPERM);
	}
	return ring;
}

/*
 * Is @desc absent from @ring? keyring_search() says -EAGAIN when nothing
 * matches and -EKEYREVOKED when only a revoked or invalidated key does
 * (dead: linking ours in replaces the link, nothing is written into it).
 * A live key is -EEXIST; one we may not search (-EACCES), an expired or a
 * negative one is refused with that error.
 */
static int logon_absent(key_ref_t ring, const char *desc)
{
	key_ref_t found;
	long ret;

	found = keyring_search(ring, &key_type_logon, desc, false);
	if (!IS_ERR(found)) {
		key_ref_put(found);
		pr_info_ratelimited("refused: logon=: a logon key %s exists\n", desc);
		return -EEXIST;
	}
	ret = PTR_ERR(found);
	if (ret == -EAGAIN || ret == -EKEYREVOKED)
		return 0;
	pr_info_ratelimited("refused: logon=: lookup of %s failed (%ld)\n", desc, ret);
	return ret;
}

/**
 * trusted_logon_make() - make the logon key of a trusted key
 * @desc: "<prefix>:<desc>", already validated by the option parser
 * @data: the unsealed key bytes
 * @len: their length
 * @keyring: set to the keyring it was linked into (a reference)
 *
 * Every refusal logs one line. The caller checked trusted_logon_permitted().
 *
 * Return: the logon key (a reference) or an ERR_PTR.
 */
struct key *trusted_logon_make(const char *desc, const u8 *data, size_t len,
			       struct key **keyring)
{
	struct key *ring, *logon;
	key_ref_t ring_ref;
	int ret;

	ring_ref = logon_keyring();
	if (IS_ERR(ring_ref))
		return ERR_CAST(ring_ref);
	ring = key_ref_to_ptr(ring_ref);
	ret = logon_absent(ring_ref, desc);
	if (ret)
		goto err_ring;

	logon = key_alloc(&key_type_logon, desc, GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
			  current_cred(), TRUSTED_LOGON_PERM, KEY_ALLOC_IN_QUOTA,
			  NULL);
	if (IS_ERR(logon)) {
		ret = PTR_ERR(logon);
		goto err_log;
	}
	ret = key_instantiate_and_link(logon, data, len, ring, NULL);
	if (ret) {
		key_put(logon);
		goto err_log;
	}
	*keyring = ring;
	return logon;

err_log:
	pr_info_ratelimited("refused: logon=: %s not made (%d)\n", desc, ret);
err_ring:
	key_put(ring);
	return ERR_PTR(ret);
}

/**
 * trusted_logon_alive() - may dm-crypt still find @logon?
 * @logon: a logon key, or NULL
 *
 * Return: false when NULL, revoked or invalidated.
 */
bool trusted_logon_alive(const struct key *logon)
{
	return logon && !test_bit(KEY_FLAG_REVOKED, &logon->flags) &&
	       !test_bit(KEY_FLAG_INVALIDATED, &logon->flags);
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
