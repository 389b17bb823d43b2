// SPDX-License-Identifier: GPL-2.0
/*
 * The "ecryptfs" format: the key's payload is a struct ecryptfs_auth_tok of
 * the password kind, as ecryptfs-utils would build it, whose session key
 * encryption key is the 64 bytes of key material and whose signature is
 * the key's description (16 hex digits). ecryptfs finds the key by that
 * signature and reads the token straight from payload_data.
 */
#include <linux/export.h>
#include <linux/string.h>

#include "encrypted.h"

/* OpenPGP's number for SHA-512 (RFC 4880, 9.4): ecryptfs-utils' default. */
enum { ECRYPTFS_TOK_HASH_SHA512 = 10 };

/**
 * ecryptfs_get_auth_tok_key() - where an auth token keeps its key material
 * @auth_tok: a password auth token
 *
 * Return: its session key encryption key (ECRYPTFS_MAX_KEY_BYTES).
 */
u8 *ecryptfs_get_auth_tok_key(struct ecryptfs_auth_tok *auth_tok)
{
	return auth_tok->token.password.session_key_encryption_key;
}
ENCRYPTED_EXPORT(ecryptfs_get_auth_tok_key);

/**
 * ecryptfs_get_versions() - the ecryptfs versions the tokens are made for
 * @major: set to the major version
 * @minor: set to the minor version
 * @file_version: set to the file version, when not NULL
 */
void ecryptfs_get_versions(int *major, int *minor, int *file_version)
{
	*major = ECRYPTFS_VERSION_MAJOR;
	*minor = ECRYPTFS_VERSION_MINOR;
	if (file_version)
		*file_version = ECRYPTFS_SUPPORTED_FILE_VERSION;
}
ENCRYPTED_EXPORT(ecryptfs_get_versions);

/**
 * ecryptfs_fill_auth_tok() - fill a password auth token but its key material
 * @auth_tok: the token
 * @key_desc: its first ECRYPTFS_PASSWORD_SIG_SIZE characters become the
 *            signature, which stays NUL-terminated
 *
 * Return: 0.
 */
int ecryptfs_fill_auth_tok(struct ecryptfs_auth_tok *auth_tok,
			   const char *key_desc)
{
	struct ecryptfs_password *pw = &auth_tok->token.password;
	int major, minor;

	ecryptfs_get_versions(&major, &minor, NULL);
	auth_tok->version = (u16)(((major & 0xff) << 8) | (minor & 0xff));
	auth_tok->token_type = ECRYPTFS_PASSWORD;
	/* The kernel side of ecryptfs encrypts the session key itself. */
	auth_tok->session_key.encrypted_key[0] = 0;
	auth_tok->session_key.encrypted_key_size = 0;

	strscpy_pad((char *)pw->signature, key_desc, sizeof(pw->signature));
	pw->session_key_encryption_key_bytes = ECRYPTFS_MAX_KEY_BYTES;
	pw->hash_algo = ECRYPTFS_TOK_HASH_SHA512;
	pw->flags |= ECRYPTFS_SESSION_KEY_ENCRYPTION_KEY_SET;
	pw->flags &= ~ECRYPTFS_PERSISTENT_PASSWORD;
	return 0;
}
ENCRYPTED_EXPORT(ecryptfs_fill_auth_tok);
