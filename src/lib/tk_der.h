/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small DER (X.690) reader and writer: single-octet tags, definite
 * lengths in their shortest form, INTEGER, BOOLEAN, OID and OCTET STRING.
 * Only what TPM key blobs need; anything else is refused. Kernel-free.
 */
#ifndef TK_DER_H
#define TK_DER_H

#include <linux/types.h>
#include "tk_buf.h"

enum tk_der_tag {
	TK_DER_BOOLEAN		= 0x01,
	TK_DER_INTEGER		= 0x02,
	TK_DER_OCTET_STRING	= 0x04,
	TK_DER_OID		= 0x06,
	TK_DER_UTF8STRING	= 0x0c,
	TK_DER_SEQUENCE		= 0x30,
	TK_DER_CONTEXT		= 0xa0,	/* [n] EXPLICIT: TK_DER_CONTEXT + n */
};

#define TK_DER_LEN_MAX	0xffff	/* the longest length we read or write */

/* A reader over the contents of one constructed element (or a whole blob). */
struct tk_der {
	const u8 *p;
	u32 left;
};

/* One element: its tag and contents. */
struct tk_der_tlv {
	u8 tag;
	const u8 *val;
	u32 len;
};

static inline void tk_der_init(struct tk_der *d, const u8 *p, u32 len)
{
	d->p = p;
	d->left = len;
}

static inline bool tk_der_empty(const struct tk_der *d)
{
	return d->left == 0;
}

/* The tag of the next element, or -1 at the end. */
static inline int tk_der_peek(const struct tk_der *d)
{
	return d->left ? d->p[0] : -1;
}

int tk_der_next(struct tk_der *d, struct tk_der_tlv *t);
int tk_der_expect(struct tk_der *d, u8 tag, struct tk_der_tlv *t);
int tk_der_enter(struct tk_der *d, u8 tag, struct tk_der *inner);
int tk_der_u32(const struct tk_der_tlv *t, u32 *out);
int tk_der_bool(const struct tk_der_tlv *t, bool *out);

/*
 * The writer is tk_buf.h's (tk_cmd_init(), then check ->bad and ->len at
 * the end): these functions add DER elements to it.
 */
u32 tk_der_size(u32 len);
u32 tk_der_u32_size(u32 v);
void tk_der_put_hdr(struct tk_cmd_buf *w, u8 tag, u32 len);
void tk_der_put(struct tk_cmd_buf *w, u8 tag, const void *val, u32 len);
void tk_der_put_u32(struct tk_cmd_buf *w, u32 v);
void tk_der_put_bool(struct tk_cmd_buf *w, bool v);

#endif /* TK_DER_H */
