// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the TPM 2.0 key blob parser (TPMKey DER and the raw
 * form) on the input as it is, an exact-size heap buffer so that ASan
 * sees any read past it. A blob that parses must point only inside the
 * input and encode back to DER that parses to the same fields; a blob
 * that does not must say why.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/errno.h>
#include "tk2_pcr.h"
#include "tk2_key.h"

static const u8 *lo, *hi;

static void inside(const u8 *p, u32 len)
{
	if (!p || p < lo || len > (size_t)(hi - p))
		abort();
}

static void same(const struct tk2_key *a, const struct tk2_key *b)
{
	unsigned int i;

	if (a->parent != b->parent || a->empty_auth != b->empty_auth ||
	    a->pub_len != b->pub_len || a->priv_len != b->priv_len ||
	    memcmp(a->pub, b->pub, a->pub_len) ||
	    memcmp(a->priv, b->priv, a->priv_len) || a->npolicy != b->npolicy)
		abort();
	for (i = 0; i < a->npolicy; i++)
		if (a->policy[i].code != b->policy[i].code ||
		    a->policy[i].len != b->policy[i].len ||
		    memcmp(a->policy[i].body, b->policy[i].body, a->policy[i].len))
			abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 out[4096];
	struct tk2_key k, k2;
	struct tk2_policy_pcr pp;
	unsigned int i;
	int n;

	if (size > 0xffff)
		return 0;
	lo = data;
	hi = data + size;
	if (tk2_key_parse(data, size, &k)) {
		if (!k.why)
			abort();
		return 0;
	}
	inside(k.pub, k.pub_len);
	inside(k.priv, k.priv_len);
	if (k.info.policy_len)
		inside(k.info.policy, k.info.policy_len);
	for (i = 0; i < k.nauth; i++) {
		unsigned int c;

		if (!k.signed_policy || !k.auth[i].ncmd ||
		    k.auth[i].ncmd > TK2_KEY_AUTH_CMDS)
			abort();
		if (k.auth[i].name)
			inside(k.auth[i].name, k.auth[i].name_len);
		for (c = 0; c < k.auth[i].ncmd; c++)
			inside(k.auth[i].cmd[c].body, k.auth[i].cmd[c].len);
	}
	for (i = 0; i < k.npolicy; i++) {
		inside(k.policy[i].body, k.policy[i].len);
		if (k.signed_policy)
			continue;	/* one PolicyAuthorize, sigAlg NULL */
		if (tk2_policy_pcr_parse(k.policy[i].body, k.policy[i].len,
					  k.info.name_alg, &pp))
			abort();
	}
	if (k.raw) {
		if (!tk2_key_parent_ok(0x81000001))
			abort();
		k.parent = 0x81000001;
	}
	n = tk2_key_encode(out, sizeof(out), &k);
	if (n < 0 || tk2_key_parse(out, n, &k2) || k2.raw)
		abort();
	same(&k, &k2);
	/* Never longer: ours drops emptyAuth FALSE, description, rsaParent
	 * FALSE, authPolicy [3].
	 */
	if (!k.raw && (size_t)n > size)
		abort();
	return 0;
}
