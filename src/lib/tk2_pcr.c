// SPDX-License-Identifier: GPL-2.0
/*
 * PCR policies for TPM 2.0 trusted keys (TPM 2.0 Part 3, TPM2_PolicyPCR):
 *
 *   body   = pcrDigest (TPM2B_DIGEST) || pcrs (TPML_PCR_SELECTION)
 *
 * where pcrDigest is H over the selected PCR values in selection order
 * and H is the sealed object's name algorithm. What it adds to a policy
 * digest is its row's in tk2_policy.c.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "tk_hex.h"
#include "tk_buf.h"
#include "tk2_pcr.h"

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

/**
 * tk2_pcrs_parse() - parse the value of the pcrs= option
 * @val: "<bank>:<pcr>[,<pcr>...]", a pcr being N or N-M: "sha256:0-7,16"
 * @bank: the bank's hash, on success
 * @mask: bit n set for PCR n, on success
 *
 * Return: 0, or -EINVAL.
 */
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

/**
 * tk2_policy_pcr_body() - write the body of a PolicyPCR for one bank
 * @out: the buffer
 * @size: its size
 * @sel: the bank and PCRs
 * @digest: pcrDigest
 * @digest_len: its length
 *
 * Return: the length written, or -E2BIG when @size is short.
 */
int tk2_policy_pcr_body(u8 *out, u32 size, const struct tk2_pcrs *sel,
			const u8 *digest, u16 digest_len)
{
	struct tk_cmd_buf b;

	tk_cmd_init(&b, out, size);
	tk2_put_tpm2b(&b, digest, digest_len);
	tk2_put_pcr_selection(&b, sel);
	return b.bad ? -E2BIG : (int)b.len;
}

/**
 * tk2_policy_pcr_parse() - check a PolicyPCR body from a blob
 * @body: the body
 * @len: its length
 * @name_alg: the sealed object's name algorithm
 * @out: the digest and the marshalled selections, pointing into @body
 *
 * The body must be a pcrDigest of @name_alg (an empty one could not be
 * checked against the object's policy), then selections of known banks
 * with at least one PCR, and nothing after them.
 *
 * Return: 0, or -EINVAL.
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
