// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of src/lib/tk_enc_blob.c: the encrypted key type's command
 * parser and blob decoder, fed what add_key/keyctl_update would pass.
 *
 * Besides memory safety (ASan, UBSan, exact-size heap buffers) it checks:
 * an accepted command has the fields its kind promises; an accepted load
 * decodes, and re-encoding the decoded blob gives back the input's hex
 * (lowercased) and its three text fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "tk_enc_blob.h"

static void roundtrip(const struct tk_enc_cmdline *cl)
{
	const char *fmt = tk_enc_format_name(cl->format);
	struct tk_enc_layout l;
	u8 *image, *mac;
	char *out;
	size_t n, i, hex_off;

	tk_enc_layout(&l, strlen(fmt), strlen(cl->master_desc),
		      strlen(cl->datalen_str), cl->datalen);
	image = calloc(1, l.image_len);
	mac = malloc(TK_ENC_MAC_SIZE);
	out = malloc(l.blob_len);
	if (!image || !mac || !out)
		abort();
	tk_enc_image_text(image, &l, fmt, cl->master_desc, cl->datalen_str);
	if (tk_enc_blob_decode(&l, cl->blob_hex, cl->blob_hex_len,
			       image + l.iv_off, image + l.enc_off, mac))
		abort();	/* the parser accepted it: it must decode */
	n = tk_enc_blob_encode(out, l.blob_len, &l, image, mac);
	if (n != l.blob_len)
		abort();
	hex_off = l.text_len;
	if (n - hex_off != cl->blob_hex_len)
		abort();
	for (i = 0; i < cl->blob_hex_len; i++) {
		char c = cl->blob_hex[i];

		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (out[hex_off + i] != c)
			abort();
	}
	if (memcmp(out, fmt, strlen(fmt)) ||
	    memcmp(out + l.master_off, cl->master_desc, l.master_len) ||
	    memcmp(out + l.datalen_off, cl->datalen_str, l.datalen_len))
		abort();
	free(out);
	free(mac);
	free(image);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tk_enc_cmdline cl;
	enum tk_enc_master kind;
	size_t prefix;
	char *buf;

	if (size > TK_ENC_MAX_INPUT)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;

	tk_enc_ecryptfs_desc_ok(buf);
	tk_enc_master_kind(buf, &kind, &prefix);

	if (tk_enc_parse(buf, &cl) == 0) {
		if (!cl.master_desc || cl.master_prefix_len >= strlen(cl.master_desc))
			abort();
		if (cl.cmd != TK_ENC_CMD_UPDATE &&
		    (!cl.datalen_str || cl.datalen < TK_ENC_MIN_DATALEN ||
		     cl.datalen > TK_ENC_MAX_DATALEN))
			abort();
		if (cl.data_hex && strlen(cl.data_hex) != 2 * (size_t)cl.datalen)
			abort();
		if (cl.cmd == TK_ENC_CMD_LOAD)
			roundtrip(&cl);
	} else if (!cl.why) {
		abort();	/* every rejection names its reason */
	}
	free(buf);
	return 0;
}
