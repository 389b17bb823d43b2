// SPDX-License-Identifier: GPL-2.0
/*
 * PCR policies for TPM 2.0 trusted keys (TPM 2.0 Part 3, TPM2_PolicyPCR):
 *
 *   body   = pcrDigest (TPM2B_DIGEST) || pcrs (TPML_PCR_SELECTION)
 *   policy = H(policy || TPM_CC_PolicyPCR || pcrs || pcrDigest)
 *
 * where pcrDigest is H over the selected PCR values in selection order
 * and H is the sealed object's name algorithm.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "tk_hex.h"
#include "tk_buf.h"
#include "tk2_pcr.h"

u16 tk2_hash_alg(enum tk_hash hash)
{
	switch (hash) {
	case TK_HASH_SHA1:
		return TK2_ALG_SHA1;
	case TK_HASH_SHA256:
		return TK2_ALG_SHA256;
	case TK_HASH_SHA384:
		return TK2_ALG_SHA384;
	case TK_HASH_SHA512:
		return TK2_ALG_SHA512;
	case TK_HASH_SM3_256:
		return TK2_ALG_SM3_256;
	default:
		return TK2_ALG_NULL;
	}
}

/* "N" or "N-M", 0 <= N <= M < 24, into @mask. */
static int parse_range(char *tok, u32 *mask)
{
	char *dash = strchr(tok, '-');
	u32 lo, hi;

	if (dash)
		*dash++ = '\0';
	if (tk_parse_u32(tok, 10, &lo))
		return -EINVAL;
	hi = lo;
	if (dash && tk_parse_u32(dash, 10, &hi))
		return -EINVAL;
	if (lo > hi || hi >= TK2_PCR_COUNT)
		return -EINVAL;
	for (; lo <= hi; lo++)
		*mask |= 1U << lo;
	return 0;
}

/* "<bank>:<pcr>[,<pcr>...]", a pcr being N or N-M: "sha256:0-7,16". */
int tk2_pcrs_parse(const char *val, enum tk_hash *bank, u32 *mask)
{
	char list[3 * TK2_PCR_COUNT + 1], *tok, *rest;
	const char *colon = strchr(val, ':');
	unsigned int i;
	size_t n;

	if (!colon)
		return -EINVAL;
	n = strlen(colon + 1);
	if (!n || n >= sizeof(list))
		return -EINVAL;
	for (i = 0; i < TK_HASH_COUNT; i++) {
		const char *name = tk_hash_name(i);

		if (strlen(name) == (size_t)(colon - val) &&
		    !strncmp(val, name, colon - val))
			break;
	}
	if (i == TK_HASH_COUNT)
		return -EINVAL;
	*bank = i;
	*mask = 0;

	memcpy(list, colon + 1, n + 1);
	rest = list;
	while ((tok = strsep(&rest, ","))) {
		if (!*tok || parse_range(tok, mask))
			return -EINVAL;
	}
	return 0;
}

static void put_selection(struct tk_cmd_buf *b, const struct tk2_pcrs *sel)
{
	tk_cmd_u32(b, 1);
	tk_cmd_u16(b, sel->alg);
	tk_cmd_u8(b, TK2_PCR_SELECT_SIZE);
	tk_cmd_u8(b, sel->mask);
	tk_cmd_u8(b, sel->mask >> 8);
	tk_cmd_u8(b, sel->mask >> 16);
}

/* Write a PolicyPCR body for one bank; returns its length. */
int tk2_policy_pcr_body(u8 *out, u32 size, const struct tk2_pcrs *sel,
			 const u8 *digest, u16 digest_len)
{
	struct tk_cmd_buf b = { .data = out, .size = size };

	tk_cmd_u16(&b, digest_len);
	tk_cmd_bytes(&b, digest, digest_len);
	put_selection(&b, sel);
	return b.bad ? -E2BIG : (int)b.len;
}

/*
 * Check a PolicyPCR body from a blob: a pcrDigest of the object's name
 * algorithm (an empty one could not be checked against the object's
 * policy), then selections of known banks with at least one PCR, and
 * nothing after them.
 */
int tk2_policy_pcr_parse(const u8 *body, u32 len, u16 name_alg,
			  struct tk2_policy_pcr *out)
{
	struct tk_rsp_buf r = { .data = body, .len = len };
	u32 count, i, j, n, any;

	out->digest_len = tk_rsp_u16(&r);
	out->digest = tk_rsp_bytes(&r, out->digest_len);
	if (r.bad || !out->digest_len ||
	    out->digest_len != tk2_alg_digest_size(name_alg))
		return -EINVAL;

	out->sel = body + r.pos;
	count = tk_rsp_u32(&r);
	if (count == 0 || count > TK2_SELECTIONS_MAX)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		if (!tk2_alg_digest_size(tk_rsp_u16(&r)))
			return -EINVAL;
		n = tk_rsp_u8(&r);
		if (n < TK2_PCR_SELECT_SIZE || n > 4)
			return -EINVAL;
		for (j = 0, any = 0; j < n; j++)
			any |= tk_rsp_u8(&r);
		if (!any)
			return -EINVAL;
	}
	if (tk_rsp_end(&r))
		return -EINVAL;
	out->sel_len = body + len - out->sel;
	return 0;
}

/*
 * The bytes a PolicyPCR hashes into the policy digest @old (of the same
 * size as the pcrDigest); returns their length.
 */
int tk2_policy_pcr_input(u8 *out, u32 size, const u8 *old,
			  const struct tk2_policy_pcr *pp)
{
	struct tk_cmd_buf b = { .data = out, .size = size };

	tk_cmd_bytes(&b, old, pp->digest_len);
	tk_cmd_u32(&b, TK2_CC_POLICY_PCR);
	tk_cmd_bytes(&b, pp->sel, pp->sel_len);
	tk_cmd_bytes(&b, pp->digest, pp->digest_len);
	return b.bad ? -E2BIG : (int)b.len;
}
