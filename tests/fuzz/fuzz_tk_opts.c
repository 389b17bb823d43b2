// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the trusted key command line parser, on a NUL-terminated
 * heap copy of the input (the parser writes into its line), once as for a
 * TPM 1.2 and once as for a TPM 2.0. Checks what a success promises.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/errno.h>
#include "tk_opts.h"

static void check(const struct tk_request *req, int ret, bool tpm2)
{
	const struct tk_options *o = &req->opt;
	const struct tk_keydigest *kd = &o->keydigest;
	size_t i;

	if (ret) {
		if (ret != -EINVAL || !req->why || !*req->why)
			abort();
		/* import=: no byte of a refused line stays behind */
		for (i = 0; i < sizeof(o->import); i++)
			if (o->import[i])
				abort();
		return;
	}
	if (req->why)
		abort();
	switch (req->cmd) {
	case TK_CMD_NEW:
		if (req->key_len < TK_KEY_MIN || req->key_len > TK_KEY_MAX)
			abort();
		break;
	case TK_CMD_LOAD:
		if (!req->blob_len || req->blob_len > TK_BLOB_MAX)
			abort();
		break;
	case TK_CMD_UPDATE:
		break;
	default:
		abort();
	}
	if (o->given >> TK_OPT_COUNT || o->pcrinfo_len > TK_PCRINFO_MAX ||
	    o->blobauth_len > TK_AUTH_SIZE || o->pcrlock >= TK_PCR_COUNT ||
	    o->migratable > 1 || o->hash >= TK_HASH_COUNT)
		abort();
	if (tk_opt_given(o, TK_OPT_POLICYDIGEST) &&
	    o->policydigest_len != tk_hash_size(o->hash))
		abort();
	if (!tpm2 && (o->hash != TK_HASH_SHA1 ||
		      tk_opt_given(o, TK_OPT_POLICYDIGEST) ||
		      tk_opt_given(o, TK_OPT_POLICYHANDLE) ||
		      tk_opt_given(o, TK_OPT_PCRS)))
		abort();
	if (tk_opt_given(o, TK_OPT_PCRS) &&
	    (!o->pcrs_mask || o->pcrs_mask >> TK_PCR_COUNT ||
	     o->pcrs_bank >= TK_HASH_COUNT))
		abort();
	if (tk_opt_given(o, TK_OPT_IMPORT) &&
	    (req->cmd != TK_CMD_NEW || o->import_len != req->key_len))
		abort();
	if (tk_opt_given(o, TK_OPT_KEYDIGEST) &&
	    (req->cmd == TK_CMD_UPDATE ||
	     (req->cmd == TK_CMD_NEW && !tk_opt_given(o, TK_OPT_IMPORT)) ||
	     kd->iterations < TK_KD_ITER_MIN || kd->iterations > TK_KD_ITER_MAX ||
	     !kd->salt_len || kd->salt_len > TK_KD_SALT_MAX ||
	     kd->digest_len < TK_KD_DIGEST_MIN || kd->digest_len > TK_KD_DIGEST_MAX ||
	     (kd->hash != TK_HASH_SHA1 && kd->hash != TK_HASH_SHA256 &&
	      kd->hash != TK_HASH_SHA512)))
		abort();
	if (tk_opt_given(o, TK_OPT_PCRCAP) &&
	    (!tpm2 || req->cmd == TK_CMD_LOAD || o->pcrcap > TK_PCRCAP_MAX ||
	     !tk_opt_given(o, TK_OPT_PCRS) ||
	     tk_opt_given(o, TK_OPT_POLICYDIGEST) ||
	     tk_opt_given(o, TK_OPT_POLICYKEY)))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct tk_request req;
	unsigned int tpm2;
	char *line;
	int ret;

	for (tpm2 = 0; tpm2 < 2; tpm2++) {
		line = malloc(size + 1);
		if (!line)
			return 0;
		memcpy(line, data, size);
		line[size] = '\0';
		ret = tk_parse_request(line, tpm2, &req);
		check(&req, ret, tpm2);
		free(line);
	}
	return 0;
}
