// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: tools/tp_blob.c, what `trusted-policy` reads from a
 * blob. The input is a file as the tool reads it (DER, or hex as keyctl
 * pipe prints it); the decoded TPMKey goes into an exact-size heap buffer
 * so that ASan sees any read past it. Then, as the tool does:
 *  - list: its output is printable ASCII and newlines only (names are
 *    escaped), one line per signed policy when it succeeds;
 *  - remove, each entry in turn: the rewritten key parses, with one entry
 *    less, and its [1] field unchanged;
 *  - add: a new first entry; the rewritten key parses with one more.
 * The signers' names take SHA-256 from a stand-in (a byte sum): only the
 * parsing is under test here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/errno.h>
#include "tp_blob.h"

static void fake_sha256(const u8 *p, u32 n, u8 *out)
{
	u32 i, s = n;

	for (i = 0; i < n; i++)
		s += p[i];
	memset(out, s, TP_SHA256_LEN);
}

static void check_list(const struct tp_key *k, unsigned int count, bool ok)
{
	const char *why = NULL;
	char *text = NULL;
	size_t len = 0, i, lines = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		abort();
	ret = tp_list(k, f, fake_sha256, &why);
	if (fclose(f))
		abort();
	if (ret && ((ret != -EINVAL && ret != -E2BIG) || !why))
		abort();
	for (i = 0; i < len; i++) {
		if (text[i] == '\n')
			lines++;
		else if (text[i] < ' ' || text[i] > '~')
			abort();
	}
	/* tp_entries() succeeded (@ok): list fails only in a command body */
	if (!ret && (!ok || lines != count))
		abort();
	free(text);
}

/* Parse @len bytes of @out as a key with @want entries and [1] @pol. */
static void reparse(const u8 *out, int len, unsigned int want,
		    const struct tp_elem *pol)
{
	struct tp_entry ents[TP_ENTRIES_MAX];
	const char *why;
	struct tp_key k;
	unsigned int n;
	u8 *copy;

	if (len == -E2BIG)
		return;
	if (len <= 0)
		abort();
	copy = malloc(len);
	if (!copy)
		abort();
	memcpy(copy, out, len);
	if (tp_key_parse(copy, len, &k, &why) ||
	    tp_entries(&k, ents, TP_ENTRIES_MAX, &n, &why) || n != want)
		abort();
	if ((k.policy >= 0) != !!pol ||
	    (pol && (k.e[k.policy].raw_len != pol->raw_len ||
		     memcmp(k.e[k.policy].raw, pol->raw, pol->raw_len))))
		abort();
	free(copy);
}

static void edit(const struct tp_key *k, const struct tp_entry *ents,
		 unsigned int n)
{
	static const u8 item[] = {	/* SEQUENCE { [1] SEQUENCE { } } */
		0x30, 0x04, 0xa1, 0x02, 0x30, 0x00,
	};
	static u8 auth[TP_BLOB_MAX], out[TP_BLOB_MAX];
	const u8 *raw[TP_ENTRIES_MAX + 1];
	u32 len[TP_ENTRIES_MAX + 1];
	const struct tp_elem *pol = k->policy >= 0 ? &k->e[k->policy] : NULL;
	const char *why;
	unsigned int i, j, m;
	int a, w;

	for (i = 0; i < n; i++) {		/* remove entry i */
		for (j = 0, m = 0; j < n; j++) {
			if (j == i)
				continue;
			raw[m] = ents[j].raw;
			len[m++] = ents[j].raw_len;
		}
		a = m ? tp_auth_field(raw, len, m, auth, sizeof(auth), &why) : 0;
		if (a < 0)
			abort();		/* shorter than what parsed */
		w = tp_key_write(k, pol ? pol->raw : NULL, pol ? pol->raw_len : 0,
				 m ? auth : NULL, a, out, sizeof(out), &why);
		reparse(out, w, m, pol);
	}
	if (n == TP_ENTRIES_MAX)
		return;
	raw[0] = item;
	len[0] = sizeof(item);
	for (i = 0; i < n; i++) {
		raw[i + 1] = ents[i].raw;
		len[i + 1] = ents[i].raw_len;
	}
	a = tp_auth_field(raw, len, n + 1, auth, sizeof(auth), &why);
	if (a == -E2BIG)
		return;
	w = tp_key_write(k, pol ? pol->raw : NULL, pol ? pol->raw_len : 0,
			 auth, a, out, sizeof(out), &why);
	reparse(out, w, n + 1, pol);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 blob[TP_BLOB_MAX];
	struct tp_entry ents[TP_ENTRIES_MAX];
	const char *why = NULL;
	struct tp_key k;
	unsigned int n;
	const u8 *pol;
	u8 *text, *b;
	bool hex, ok;
	u32 len;

	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	if (tp_blob_decode(text, size, blob, sizeof(blob), &len, &hex, &why)) {
		free(text);
		if (!why)
			abort();
		return 0;
	}
	free(text);
	b = malloc(len ? len : 1);
	if (!b)
		return 0;
	memcpy(b, blob, len);
	if (tp_key_parse(b, len, &k, &why)) {
		if (!why)
			abort();
		free(b);
		return 0;
	}
	tp_key_auth_policy(&k, &pol, &why);
	ok = !tp_entries(&k, ents, TP_ENTRIES_MAX, &n, &why);
	check_list(&k, n, ok);
	if (ok)
		edit(&k, ents, n);
	free(b);
	return 0;
}
