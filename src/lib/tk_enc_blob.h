/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-visible text of the encrypted key type: the commands written to
 * add_key/keyctl_update and the blob returned by keyctl_read. Kernel-free:
 * builds unchanged in the module and in tests/host.
 *
 * Commands (tokens separated by one space or tab each):
 *   new    [<format>] <kind>:<master-desc> <datalen> [<data-hex>]
 *   load   [<format>] <kind>:<master-desc> <datalen> <blob-hex>
 *   update [<format>] <kind>:<master-desc>
 *
 * Blob, as read:  <format> <kind>:<master-desc> <datalen> <blob-hex>
 * blob-hex is the hex of  iv[16] 0x00 ciphertext[roundup(datalen, 16)]
 * hmac[32].
 *
 * The authenticated image ("datablob") that the HMAC covers is
 *   <format> NUL <kind>:<master-desc> NUL <datalen> NUL iv[16] NUL ciphertext
 * A load without a format token is an old-style blob: its HMAC covers the
 * image from <kind>:<master-desc> on.
 */
#ifndef TK_ENC_BLOB_H
#define TK_ENC_BLOB_H

#include <linux/types.h>

enum tk_enc_limits {
	TK_ENC_MIN_DATALEN = 20,
	TK_ENC_MAX_DATALEN = 4096,
	TK_ENC_MAX_INPUT = 32767,	/* longest command accepted */
	TK_ENC_IV_SIZE = 16,		/* AES block */
	TK_ENC_BLOCK_SIZE = 16,
	TK_ENC_MAC_SIZE = 32,		/* HMAC-SHA256 */
	TK_ENC_KEY_SIZE = 32,		/* SHA-256 derived keys, AES-256 */
	TK_ENC_ECRYPTFS_DATALEN = 64,	/* ECRYPTFS_MAX_KEY_BYTES */
	TK_ENC_ECRYPTFS_DESC_LEN = 16,	/* hex digits in the key description */
	TK_ENC_ENC32_DATALEN = 32,
};

enum tk_enc_cmd {
	TK_ENC_CMD_NEW,
	TK_ENC_CMD_LOAD,
	TK_ENC_CMD_UPDATE,
};

enum tk_enc_format {
	TK_ENC_FMT_DEFAULT,
	TK_ENC_FMT_ECRYPTFS,
	TK_ENC_FMT_ENC32,
};

enum tk_enc_master {
	TK_ENC_MASTER_TRUSTED,
	TK_ENC_MASTER_USER,
};

/*
 * One parsed command. The strings point into the caller's buffer, which
 * tk_enc_parse() cuts into NUL-terminated tokens.
 */
struct tk_enc_cmdline {
	enum tk_enc_cmd cmd;
	enum tk_enc_format format;
	bool format_given;	/* false: old-style load, see above */
	enum tk_enc_master master;
	const char *master_desc;	/* "<kind>:<desc>", as given */
	size_t master_prefix_len;	/* length of "<kind>:" */
	const char *datalen_str;	/* as given: it is part of the blob */
	unsigned int datalen;		/* bytes of key material */
	const char *blob_hex;		/* load */
	size_t blob_hex_len;
	const char *data_hex;		/* new with user data, or NULL */
	const char *why;		/* reason of the last rejection */
};

/* Offsets into the authenticated image of one key. */
struct tk_enc_layout {
	size_t format_len;
	size_t master_len;
	size_t datalen_len;
	size_t enc_len;		/* ciphertext: datalen rounded up to a block */
	size_t master_off;
	size_t datalen_off;
	size_t iv_off;
	size_t enc_off;
	size_t image_len;	/* the whole authenticated image */
	size_t text_len;	/* "<format> <master> <datalen> " of the blob */
	size_t blob_len;	/* the whole blob as read (no NUL) */
};

const char *tk_enc_format_name(enum tk_enc_format format);
int tk_enc_parse(char *buf, struct tk_enc_cmdline *cl);
int tk_enc_master_kind(const char *desc, enum tk_enc_master *kind,
		       size_t *prefix_len);
bool tk_enc_same_master_kind(const char *a, const char *b);
int tk_enc_ecryptfs_desc_ok(const char *desc);
void tk_enc_layout(struct tk_enc_layout *l, size_t format_len,
		   size_t master_len, size_t datalen_len, unsigned int datalen);
void tk_enc_image_text(u8 *image, const struct tk_enc_layout *l,
		       const char *format, const char *master,
		       const char *datalen);
int tk_enc_blob_decode(const struct tk_enc_layout *l, const char *hex,
		       size_t hex_len, u8 *iv, u8 *enc, u8 *mac);
size_t tk_enc_blob_encode(char *out, size_t out_len,
			  const struct tk_enc_layout *l, const u8 *image,
			  const u8 *mac);

#endif /* TK_ENC_BLOB_H */
