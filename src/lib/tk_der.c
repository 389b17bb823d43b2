// SPDX-License-Identifier: GPL-2.0
/*
 * DER reading and writing for TPM key blobs. The reader refuses what DER
 * forbids (indefinite or non-minimal lengths, padded integers) and what a
 * key blob never needs (multi-octet tags, lengths past 64 KiB); it never
 * reads past the element it is in.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "tk_der.h"

/**
 * tk_der_next() - take the next element of a reader
 * @d: the reader
 * @t: the element's tag and contents, on success
 *
 * Only single-octet tags and definite lengths in their shortest form, up
 * to TK_DER_LEN_MAX, that fit in what is left.
 *
 * Return: 0, or -EINVAL when the element is malformed or absent.
 */
int tk_der_next(struct tk_der *d, struct tk_der_tlv *t)
{
	const u8 *p = d->p;
	u32 left = d->left, len, hdr;

	if (left < 2 || (p[0] & 0x1f) == 0x1f)
		return -EINVAL;
	t->tag = p[0];
	len = p[1];
	hdr = 2;
	if (len & 0x80) {
		switch (len) {
		case 0x81:
			if (left < 3 || p[2] < 0x80)
				return -EINVAL;
			len = p[2];
			hdr = 3;
			break;
		case 0x82:
			if (left < 4 || p[2] == 0)
				return -EINVAL;
			len = (u32)p[2] << 8 | p[3];
			hdr = 4;
			break;
		default:	/* indefinite, or longer than we accept */
			return -EINVAL;
		}
	}
	if (len > left - hdr)
		return -EINVAL;
	t->val = p + hdr;
	t->len = len;
	d->p += hdr + len;
	d->left -= hdr + len;
	return 0;
}

/**
 * tk_der_expect() - take the next element, which must carry @tag
 * @d: the reader
 * @tag: the tag required
 * @t: the element, on success
 *
 * Return: 0, or -EINVAL when it is malformed, absent or of another tag.
 */
int tk_der_expect(struct tk_der *d, u8 tag, struct tk_der_tlv *t)
{
	if (tk_der_peek(d) != tag)
		return -EINVAL;
	return tk_der_next(d, t);
}

/**
 * tk_der_enter() - step into the next element, the constructed @tag
 * @d: the reader, moved past the element
 * @tag: the tag required (TK_DER_SEQUENCE, TK_DER_CONTEXT + n)
 * @inner: a reader over the element's contents, on success
 *
 * Return: 0, or -EINVAL.
 */
int tk_der_enter(struct tk_der *d, u8 tag, struct tk_der *inner)
{
	struct tk_der_tlv t;
	int ret;

	ret = tk_der_expect(d, tag, &t);
	if (ret)
		return ret;
	tk_der_init(inner, t.val, t.len);
	return 0;
}

/**
 * tk_der_u32() - read a non-negative INTEGER that fits 32 bits
 * @t: the element
 * @out: its value, on success
 *
 * Return: 0; -EINVAL when @t is not an INTEGER in its shortest form or
 * is negative; -ERANGE when it does not fit.
 */
int tk_der_u32(const struct tk_der_tlv *t, u32 *out)
{
	const u8 *v = t->val;
	u32 n = t->len, i, x = 0;

	if (t->tag != TK_DER_INTEGER || n == 0 || (v[0] & 0x80))
		return -EINVAL;
	if (n > 1 && v[0] == 0 && !(v[1] & 0x80))
		return -EINVAL;			/* a redundant leading zero */
	if (v[0] == 0) {
		v++;
		n--;
	}
	if (n > 4)
		return -ERANGE;
	for (i = 0; i < n; i++)
		x = x << 8 | v[i];
	*out = x;
	return 0;
}

/**
 * tk_der_bool() - read a BOOLEAN
 * @t: the element
 * @out: its value, on success
 *
 * DER says TRUE is 0xff; the kernel's own encoder writes 0x01, and blobs
 * it made must load, so both are TRUE. Nothing else is.
 *
 * Return: 0, or -EINVAL.
 */
int tk_der_bool(const struct tk_der_tlv *t, bool *out)
{
	if (t->tag != TK_DER_BOOLEAN || t->len != 1)
		return -EINVAL;
	switch (t->val[0]) {
	case 0x00:
		*out = false;
		return 0;
	case 0x01:
	case 0xff:
		*out = true;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * tk_der_size() - the size of an element
 * @len: the length of its contents
 *
 * Return: tag, length and contents bytes.
 */
u32 tk_der_size(u32 len)
{
	return 1 + (len < 0x80 ? 1 : len < 0x100 ? 2 : 3) + len;
}

/**
 * tk_der_u32_size() - the contents size of the INTEGER @v
 * @v: the value
 *
 * Return: 1 to 5 bytes (a leading zero when the top bit is set).
 */
u32 tk_der_u32_size(u32 v)
{
	u32 n = 1;

	while (n < 4 && v >> (8 * n))
		n++;
	return n + (v >> (8 * n - 1) & 1);
}

/**
 * tk_der_put_hdr() - write the tag and length of an element
 * @w: the writer
 * @tag: the tag
 * @len: the length of the contents that the caller writes next
 *
 * A length above TK_DER_LEN_MAX marks the writer bad.
 */
void tk_der_put_hdr(struct tk_cmd_buf *w, u8 tag, u32 len)
{
	u8 hdr[4] = { tag };
	u32 n;

	if (len > TK_DER_LEN_MAX) {
		w->bad = true;
		return;
	}
	if (len < 0x80) {
		hdr[1] = len;
		n = 2;
	} else if (len < 0x100) {
		hdr[1] = 0x81;
		hdr[2] = len;
		n = 3;
	} else {
		hdr[1] = 0x82;
		hdr[2] = len >> 8;
		hdr[3] = len;
		n = 4;
	}
	tk_cmd_bytes(w, hdr, n);
}

/**
 * tk_der_put() - write a whole primitive element
 * @w: the writer
 * @tag: the tag
 * @val: the contents
 * @len: their length
 */
void tk_der_put(struct tk_cmd_buf *w, u8 tag, const void *val, u32 len)
{
	tk_der_put_hdr(w, tag, len);
	tk_cmd_bytes(w, val, len);
}

/**
 * tk_der_put_u32() - write an INTEGER in its shortest form
 * @w: the writer
 * @v: the value
 */
void tk_der_put_u32(struct tk_cmd_buf *w, u32 v)
{
	u32 n = tk_der_u32_size(v), i;
	u8 b[5];

	for (i = 0; i < n; i++)
		b[i] = i + 4 < n ? 0 : v >> (8 * (n - 1 - i));
	tk_der_put(w, TK_DER_INTEGER, b, n);
}

/**
 * tk_der_put_bool() - write a BOOLEAN (TRUE as 0xff)
 * @w: the writer
 * @v: the value
 */
void tk_der_put_bool(struct tk_cmd_buf *w, bool v)
{
	u8 b = v ? 0xff : 0x00;

	tk_der_put(w, TK_DER_BOOLEAN, &b, 1);
}
