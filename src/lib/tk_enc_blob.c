// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and formatting of the encrypted key type's commands and blobs.
 * Every check on user text lives here, so the host tests and the fuzzer
 * exercise exactly what the module runs. Nothing here allocates or logs.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "tk_hex.h"
#include "tk_enc_blob.h"

static const char * const format_names[] = {
	[TK_ENC_FMT_DEFAULT] = "default",
	[TK_ENC_FMT_ECRYPTFS] = "ecryptfs",
	[TK_ENC_FMT_ENC32] = "enc32",
};

static const struct {
	const char *prefix;
	enum tk_enc_master kind;
} master_kinds[] = {
	{ "trusted:", TK_ENC_MASTER_TRUSTED },
	{ "user:", TK_ENC_MASTER_USER },
};

/**
 * tk_enc_format_name() - the name of a blob format
 * @format: a format of enum tk_enc_format
 *
 * Return: "default", "ecryptfs" or "enc32".
 */
const char *tk_enc_format_name(enum tk_enc_format format)
{
	return format_names[format];
}

/* Split off the next token, ending at one space or tab (like strsep). */
static char *next_token(char **cursor)
{
	char *tok = *cursor, *p;

	if (!tok)
		return NULL;
	for (p = tok; *p && *p != ' ' && *p != '\t'; p++)
		;
	if (*p) {
		*p = '\0';
		*cursor = p + 1;
	} else {
		*cursor = NULL;
	}
	return tok;
}

static int reject(struct tk_enc_cmdline *cl, const char *why)
{
	cl->why = why;
	return -EINVAL;
}

static bool all_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (tk_hex_digit(s[i]) < 0)
			return false;
	return true;
}

static int match_format(const char *tok, enum tk_enc_format *format)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcmp(tok, format_names[i])) {
			*format = (enum tk_enc_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * tk_enc_master_kind() - the kind of a master key description
 * @desc: "trusted:<desc>" or "user:<desc>"
 * @kind: the kind, on success
 * @prefix_len: the length of the "<kind>:" prefix, on success
 *
 * Return: 0, or -EINVAL for another prefix or a bare one.
 */
int tk_enc_master_kind(const char *desc, enum tk_enc_master *kind,
		       size_t *prefix_len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(master_kinds); i++) {
		n = strlen(master_kinds[i].prefix);
		if (strncmp(desc, master_kinds[i].prefix, n))
			continue;
		if (!desc[n])
			return -EINVAL;	/* a bare prefix names no key */
		*kind = master_kinds[i].kind;
		*prefix_len = n;
		return 0;
	}
	return -EINVAL;
}

/**
 * tk_enc_same_master_kind() - whether two master descriptions are of a kind
 * @a: a master key description
 * @b: another
 *
 * Return: true when both are valid and of the same kind (update may only
 * move a key to a master of its own kind).
 */
bool tk_enc_same_master_kind(const char *a, const char *b)
{
	enum tk_enc_master ka, kb;
	size_t na, nb;

	if (tk_enc_master_kind(a, &ka, &na) || tk_enc_master_kind(b, &kb, &nb))
		return false;
	return ka == kb;
}

/*
 * The key length: decimal digits after an optional '+', and at most one
 * newline at the end (what the reference's kstrtol accepts). The text is
 * kept verbatim because the blob and its HMAC carry it.
 */
static int parse_datalen(const char *s, unsigned int *out)
{
	unsigned int v = 0;
	const char *p = s;

	if (*p == '+')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned int)(*p - '0');
		if (v > TK_ENC_MAX_DATALEN)
			return -EINVAL;
	}
	if (*p == '\n')
		p++;
	if (*p || v < TK_ENC_MIN_DATALEN)
		return -EINVAL;
	*out = v;
	return 0;
}

static int check_datalen(struct tk_enc_cmdline *cl)
{
	if (parse_datalen(cl->datalen_str, &cl->datalen))
		return reject(cl, "key length is not a number in 20..4096");
	if (cl->format == TK_ENC_FMT_ECRYPTFS &&
	    cl->datalen != TK_ENC_ECRYPTFS_DATALEN)
		return reject(cl, "ecryptfs keys are 64 bytes long");
	if (cl->format == TK_ENC_FMT_ENC32 &&
	    cl->datalen != TK_ENC_ENC32_DATALEN)
		return reject(cl, "enc32 keys are 32 bytes long");
	return 0;
}

static int check_user_data(struct tk_enc_cmdline *cl)
{
	size_t n = strlen(cl->data_hex);

	if (n != 2 * (size_t)cl->datalen)
		return reject(cl, "decrypted data does not match the key length");
	if (!all_hex(cl->data_hex, n))
		return reject(cl, "decrypted data is not hex");
	return 0;
}

static int check_blob(struct tk_enc_cmdline *cl)
{
	struct tk_enc_layout l;

	/* Only the key length matters for the hex part. */
	tk_enc_layout(&l, 0, 0, 0, cl->datalen);
	cl->blob_hex_len = strlen(cl->blob_hex);
	if (tk_enc_blob_decode(&l, cl->blob_hex, cl->blob_hex_len,
			       NULL, NULL, NULL))
		return reject(cl, "blob is malformed or has the wrong length");
	return 0;
}

/**
 * tk_enc_parse() - parse an encrypted key command line
 * @buf: the NUL-terminated, writable command ("new", "load" or "update")
 * @cl: the command and its fields, pointing into @buf, on success; on
 *      failure cl->why names the reason
 *
 * Return: 0, or -EINVAL.
 */
int tk_enc_parse(char *buf, struct tk_enc_cmdline *cl)
{
	char *cursor = buf, *kw, *tok;

	memset(cl, 0, sizeof(*cl));
	kw = next_token(&cursor);
	if (!strcmp(kw, "new"))
		cl->cmd = TK_ENC_CMD_NEW;
	else if (!strcmp(kw, "load"))
		cl->cmd = TK_ENC_CMD_LOAD;
	else if (!strcmp(kw, "update"))
		cl->cmd = TK_ENC_CMD_UPDATE;
	else
		return reject(cl, "unknown command");

	tok = next_token(&cursor);
	if (tok && !match_format(tok, &cl->format)) {
		cl->format_given = true;
		tok = next_token(&cursor);
	}
	if (!tok)
		return reject(cl, "master key is missing");
	if (tk_enc_master_kind(tok, &cl->master, &cl->master_prefix_len))
		return reject(cl, "master key must be trusted:<desc> or user:<desc>");
	cl->master_desc = tok;
	if (cl->cmd == TK_ENC_CMD_UPDATE)
		return 0;

	cl->datalen_str = next_token(&cursor);
	if (!cl->datalen_str)
		return reject(cl, "key length is missing");
	if (check_datalen(cl))
		return -EINVAL;

	if (cl->cmd == TK_ENC_CMD_NEW) {
		cl->data_hex = next_token(&cursor);
		return cl->data_hex ? check_user_data(cl) : 0;
	}
	cl->blob_hex = next_token(&cursor);
	if (!cl->blob_hex)
		return reject(cl, "blob is missing");
	return check_blob(cl);
}

/**
 * tk_enc_ecryptfs_desc_ok() - check the description of an ecryptfs key
 * @desc: the key's description
 *
 * Return: 0 when it is 16 hex digits (the signature ecryptfs looks the key
 * up by), else -EINVAL.
 */
int tk_enc_ecryptfs_desc_ok(const char *desc)
{
	if (strlen(desc) != TK_ENC_ECRYPTFS_DESC_LEN ||
	    !all_hex(desc, TK_ENC_ECRYPTFS_DESC_LEN))
		return -EINVAL;
	return 0;
}

/**
 * tk_enc_layout() - compute the offsets and lengths of a key's image and blob
 * @l: the layout, filled in
 * @format_len: the length of the format name
 * @master_len: the length of the master key description
 * @datalen_len: the length of the datalen text
 * @datalen: the key length in bytes
 */
void tk_enc_layout(struct tk_enc_layout *l, size_t format_len,
		   size_t master_len, size_t datalen_len, unsigned int datalen)
{
	l->format_len = format_len;
	l->master_len = master_len;
	l->datalen_len = datalen_len;
	l->enc_len = ((size_t)datalen + TK_ENC_BLOCK_SIZE - 1) /
		     TK_ENC_BLOCK_SIZE * TK_ENC_BLOCK_SIZE;
	l->master_off = format_len + 1;
	l->datalen_off = l->master_off + master_len + 1;
	l->iv_off = l->datalen_off + datalen_len + 1;
	l->enc_off = l->iv_off + TK_ENC_IV_SIZE + 1;
	l->image_len = l->enc_off + l->enc_len;
	l->text_len = l->iv_off;
	l->blob_len = l->text_len +
		      2 * (TK_ENC_IV_SIZE + 1 + l->enc_len + TK_ENC_MAC_SIZE);
}

/**
 * tk_enc_image_text() - write the strings and NUL separators of an image
 * @image: the image, of l->image_len bytes
 * @l: its layout
 * @format: the format name
 * @master: the master key description
 * @datalen: the datalen text
 */
void tk_enc_image_text(u8 *image, const struct tk_enc_layout *l,
		       const char *format, const char *master,
		       const char *datalen)
{
	memcpy(image, format, l->format_len);
	image[l->format_len] = 0;
	memcpy(image + l->master_off, master, l->master_len);
	image[l->master_off + l->master_len] = 0;
	memcpy(image + l->datalen_off, datalen, l->datalen_len);
	image[l->datalen_off + l->datalen_len] = 0;
	image[l->enc_off - 1] = 0;
}

/* Decode the @len bytes at @hex into @dst, or only check them (@dst NULL). */
static int hex_part(u8 *dst, size_t len, const char *hex)
{
	if (!dst)
		return all_hex(hex, 2 * len) ? 0 : -EINVAL;
	return tk_hex_decode(dst, len, hex, 2 * len) < 0 ? -EINVAL : 0;
}

/**
 * tk_enc_blob_decode() - decode the hex part of a blob
 * @l: the blob's layout
 * @hex: the hex digits after the blob's text
 * @hex_len: their number
 * @iv: the IV, or NULL to only validate
 * @enc: the ciphertext, or NULL
 * @mac: the HMAC, or NULL
 *
 * The byte between the IV and the ciphertext is always zero in the image;
 * anything else here is a damaged or forged blob. On failure the outputs may
 * hold part of the decoding (the caller discards them).
 *
 * Return: 0, or -EINVAL when the length or a digit is wrong.
 */
int tk_enc_blob_decode(const struct tk_enc_layout *l, const char *hex,
		       size_t hex_len, u8 *iv, u8 *enc, u8 *mac)
{
	const char *sep, *ct, *tag;

	if (hex_len != 2 * (TK_ENC_IV_SIZE + 1 + l->enc_len + TK_ENC_MAC_SIZE))
		return -EINVAL;
	sep = hex + 2 * TK_ENC_IV_SIZE;
	ct = sep + 2;
	tag = ct + 2 * l->enc_len;
	if (sep[0] != '0' || sep[1] != '0')
		return -EINVAL;
	if (hex_part(iv, TK_ENC_IV_SIZE, hex) || hex_part(enc, l->enc_len, ct) ||
	    hex_part(mac, TK_ENC_MAC_SIZE, tag))
		return -EINVAL;
	return 0;
}

static char *hex_out(char *p, const u8 *src, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		*p++ = digits[src[i] >> 4];
		*p++ = digits[src[i] & 15];
	}
	return p;
}

/**
 * tk_enc_blob_encode() - format a blob as read
 * @out: the buffer
 * @out_len: its size
 * @l: the layout
 * @image: the image
 * @mac: its HMAC
 *
 * The image's strings with spaces for the NULs, then the hex of IV,
 * separator, ciphertext and @mac.
 *
 * Return: the length written (no NUL), or 0 when @out_len is too small.
 */
size_t tk_enc_blob_encode(char *out, size_t out_len,
			  const struct tk_enc_layout *l, const u8 *image,
			  const u8 *mac)
{
	char *p = out;
	size_t i;

	if (out_len < l->blob_len)
		return 0;
	for (i = 0; i < l->text_len; i++)
		*p++ = image[i] ? (char)image[i] : ' ';
	p = hex_out(p, image + l->iv_off, l->image_len - l->iv_off);
	p = hex_out(p, mac, TK_ENC_MAC_SIZE);
	return (size_t)(p - out);
}
