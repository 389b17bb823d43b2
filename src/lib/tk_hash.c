// SPDX-License-Identifier: GPL-2.0
/*
 * The one table of hash algorithms (see tk_hash.h). A hash outside the
 * table, or a TPM algorithm id not in it, has size 0 and name "?".
 */
#include <linux/types.h>
#include <linux/string.h>
#include "tk_hash.h"
#include "tk2_msg.h"

static const struct {
	const char *name;	/* hash= and pcrs= */
	const char *crypto;	/* crypto_alloc_shash() */
	u16 alg;		/* TPM_ALG_ID */
	u8 size;		/* digest bytes */
} hashes[TK_HASH_COUNT] = {
	[TK_HASH_SHA1]		= { "sha1", "sha1", TK2_ALG_SHA1, 20 },
	[TK_HASH_SHA256]	= { "sha256", "sha256", TK2_ALG_SHA256, 32 },
	[TK_HASH_SHA384]	= { "sha384", "sha384", TK2_ALG_SHA384, 48 },
	[TK_HASH_SHA512]	= { "sha512", "sha512", TK2_ALG_SHA512, 64 },
	[TK_HASH_SM3_256]	= { "sm3", "sm3", TK2_ALG_SM3_256, 32 },
};

/**
 * tk_hash_by_name() - look a hash up by its option name
 * @name: "sha1", "sha256", ... as the hash= and pcrs= options spell it
 *
 * Return: the hash, or TK_HASH_COUNT when @name is none of ours.
 */
enum tk_hash tk_hash_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < TK_HASH_COUNT; i++)
		if (!strcmp(name, hashes[i].name))
			break;
	return i;
}

/**
 * tk_hash_by_alg() - look a hash up by its TPM 2.0 algorithm id
 * @alg: a TPM_ALG_ID (TK2_ALG_SHA256, ...)
 *
 * Return: the hash, or TK_HASH_COUNT when @alg is not a hash we know.
 */
enum tk_hash tk_hash_by_alg(u16 alg)
{
	unsigned int i;

	for (i = 0; i < TK_HASH_COUNT; i++)
		if (hashes[i].alg == alg)
			break;
	return i;
}

/**
 * tk_hash_name() - the option name of a hash
 * @hash: a hash of the table
 *
 * Return: its name, "?" when @hash is out of range.
 */
const char *tk_hash_name(enum tk_hash hash)
{
	return hash < TK_HASH_COUNT ? hashes[hash].name : "?";
}

/**
 * tk_hash_crypto_name() - the kernel crypto API name of a hash
 * @hash: a hash of the table
 *
 * Return: the name for crypto_alloc_shash(), NULL when out of range.
 */
const char *tk_hash_crypto_name(enum tk_hash hash)
{
	return hash < TK_HASH_COUNT ? hashes[hash].crypto : NULL;
}

/**
 * tk_hash_size() - the digest size of a hash
 * @hash: a hash of the table
 *
 * Return: its size in bytes, 0 when out of range.
 */
unsigned int tk_hash_size(enum tk_hash hash)
{
	return hash < TK_HASH_COUNT ? hashes[hash].size : 0;
}

/**
 * tk2_hash_alg() - the TPM 2.0 algorithm id of a hash
 * @hash: a hash of the table
 *
 * Return: its TPM_ALG_ID, TK2_ALG_NULL when out of range.
 */
u16 tk2_hash_alg(enum tk_hash hash)
{
	return hash < TK_HASH_COUNT ? hashes[hash].alg : TK2_ALG_NULL;
}

/**
 * tk2_alg_digest_size() - the digest size of a TPM 2.0 hash algorithm
 * @alg: a TPM_ALG_ID
 *
 * Return: its size in bytes, 0 when @alg is not a hash we know.
 */
u32 tk2_alg_digest_size(u16 alg)
{
	return tk_hash_size(tk_hash_by_alg(alg));
}
