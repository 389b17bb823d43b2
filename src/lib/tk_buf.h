/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounded byte writer and reader under every message of src/lib: TPM
 * commands and responses (big-endian fields behind a 10-byte header) and,
 * with the same writer, DER (tk_der.c). Kernel-free. Overruns are sticky:
 * the first one marks the buffer bad and every later access is a no-op, so
 * callers check once at the end.
 */
#ifndef TK_BUF_H
#define TK_BUF_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#define TK_TPM_HEADER_SIZE	10	/* tag(2) size(4) ordinal or rc(4) */

/* A byte range inside a command or response buffer. */
struct tk_span {
	const u8 *p;
	u32 len;
};

/* The writer: @len bytes of @data[@size] written so far. */
struct tk_cmd_buf {
	u8 *data;
	u32 size;
	u32 len;
	bool bad;
};

struct tk_rsp_buf {
	const u8 *data;
	u32 len;		/* from the response header, checked */
	u32 pos;
	bool bad;
};

static inline bool tk_cmd_room(struct tk_cmd_buf *b, u32 n)
{
	if (b->bad || n > b->size - b->len) {
		b->bad = true;
		return false;
	}
	return true;
}

static inline void tk_cmd_bytes(struct tk_cmd_buf *b, const void *p, u32 n)
{
	if (tk_cmd_room(b, n)) {
		memcpy(b->data + b->len, p, n);
		b->len += n;
	}
}

static inline void tk_cmd_u8(struct tk_cmd_buf *b, u8 v)
{
	tk_cmd_bytes(b, &v, 1);
}

static inline void tk_cmd_u16(struct tk_cmd_buf *b, u16 v)
{
	if (tk_cmd_room(b, 2)) {
		put_unaligned_be16(v, b->data + b->len);
		b->len += 2;
	}
}

static inline void tk_cmd_u32(struct tk_cmd_buf *b, u32 v)
{
	if (tk_cmd_room(b, 4)) {
		put_unaligned_be32(v, b->data + b->len);
		b->len += 4;
	}
}

/* Start writing raw bytes (no TPM header) into @data[@size]. */
static inline void tk_cmd_init(struct tk_cmd_buf *b, u8 *data, u32 size)
{
	b->data = data;
	b->size = size;
	b->len = 0;
	b->bad = false;
}

/* Start a TPM command: header with @tag and @code, size filled by _end. */
static inline void tk_cmd_start(struct tk_cmd_buf *b, u8 *data, u32 size,
				u16 tag, u32 code)
{
	tk_cmd_init(b, data, size);
	tk_cmd_u16(b, tag);
	tk_cmd_u32(b, 0);
	tk_cmd_u32(b, code);
}

/* Write the final size into the header. */
static inline int tk_cmd_end(struct tk_cmd_buf *b)
{
	if (b->bad)
		return -E2BIG;
	put_unaligned_be32(b->len, b->data + 2);
	return 0;
}

/*
 * Open a response held in a buffer of @bufsize bytes: its header must fit,
 * state a size within the buffer, and carry @tag (any tag when 0).
 * Returns -EBADMSG when malformed, else the TPM return code (0: success),
 * with the reader positioned after the header.
 */
static inline int tk_rsp_open(struct tk_rsp_buf *r, const u8 *data,
			      u32 bufsize, u16 tag)
{
	u32 len, rc;

	r->data = data;
	r->len = 0;
	r->pos = 0;
	r->bad = true;
	if (bufsize < TK_TPM_HEADER_SIZE)
		return -EBADMSG;
	len = get_unaligned_be32(data + 2);
	rc = get_unaligned_be32(data + 6);
	if (len < TK_TPM_HEADER_SIZE || len > bufsize)
		return -EBADMSG;
	if (rc)
		return rc > 0x7fffffff ? -EBADMSG : (int)rc;
	if (tag && get_unaligned_be16(data) != tag)
		return -EBADMSG;
	r->len = len;
	r->pos = TK_TPM_HEADER_SIZE;
	r->bad = false;
	return 0;
}

/* Take @n bytes; NULL (and the reader marked bad) when they are not there. */
static inline const u8 *tk_rsp_bytes(struct tk_rsp_buf *r, u32 n)
{
	const u8 *p;

	if (r->bad || n > r->len - r->pos) {
		r->bad = true;
		return NULL;
	}
	p = r->data + r->pos;
	r->pos += n;
	return p;
}

static inline u8 tk_rsp_u8(struct tk_rsp_buf *r)
{
	const u8 *p = tk_rsp_bytes(r, 1);

	return p ? *p : 0;
}

static inline u16 tk_rsp_u16(struct tk_rsp_buf *r)
{
	const u8 *p = tk_rsp_bytes(r, 2);

	return p ? get_unaligned_be16(p) : 0;
}

static inline u32 tk_rsp_u32(struct tk_rsp_buf *r)
{
	const u8 *p = tk_rsp_bytes(r, 4);

	return p ? get_unaligned_be32(p) : 0;
}

/* The whole response was consumed, and nothing overran. */
static inline int tk_rsp_end(const struct tk_rsp_buf *r)
{
	return !r->bad && r->pos == r->len ? 0 : -EBADMSG;
}

/**
 * tk_rsp_handle() - the handle a response starts with, after its header
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: set to the handle, on success
 *
 * Any tag; the rest of the response is not looked at: for a response the
 * TPM answered with success whose rest is not to be trusted, so that the
 * session or object it opened can still be flushed.
 *
 * Return: 0, the TPM's return code (> 0), or -EBADMSG when the header is
 * malformed or the response does not reach a handle.
 */
static inline int tk_rsp_handle(const u8 *rsp, u32 size, u32 *handle)
{
	struct tk_rsp_buf r;
	u32 h;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, 0);
	if (rc)
		return rc;
	h = tk_rsp_u32(&r);
	if (r.bad)
		return -EBADMSG;
	*handle = h;
	return 0;
}

#endif /* TK_BUF_H */
