// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 1.2 command layouts for trusted keys. Every response is checked
 * against its header size and fully consumed before a field is trusted.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "tk_buf.h"
#include "tk1_msg.h"

/* TPM_STORED_DATA: ver/tag(4) sealInfoSize(4) sealInfo encDataSize(4) encData */
#define STORED_DATA_MIN		12

int tk1_build_oiap(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	tk_cmd_start(b, buf, size, TK1_TAG_RQU_COMMAND, TK1_ORD_OIAP);
	return tk_cmd_end(b);
}

int tk1_parse_oiap(const u8 *rsp, u32 size, struct tk1_session *s)
{
	struct tk_rsp_buf r;
	const u8 *nonce;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_COMMAND);
	if (rc)
		return rc;
	s->handle = tk_rsp_u32(&r);
	nonce = tk_rsp_bytes(&r, TK1_NONCE_SIZE);
	if (tk_rsp_end(&r))
		return -EBADMSG;
	memcpy(s->nonce_even, nonce, TK1_NONCE_SIZE);
	return 0;
}

int tk1_build_osap(struct tk_cmd_buf *b, u8 *buf, u32 size, u16 etype,
		    u32 handle, const u8 *nonce_odd_osap)
{
	tk_cmd_start(b, buf, size, TK1_TAG_RQU_COMMAND, TK1_ORD_OSAP);
	tk_cmd_u16(b, etype);
	tk_cmd_u32(b, handle);
	tk_cmd_bytes(b, nonce_odd_osap, TK1_NONCE_SIZE);
	return tk_cmd_end(b);
}

int tk1_parse_osap(const u8 *rsp, u32 size, struct tk1_session *s)
{
	const u8 *even, *even_osap;
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_COMMAND);
	if (rc)
		return rc;
	s->handle = tk_rsp_u32(&r);
	even = tk_rsp_bytes(&r, TK1_NONCE_SIZE);
	even_osap = tk_rsp_bytes(&r, TK1_NONCE_SIZE);
	if (tk_rsp_end(&r))
		return -EBADMSG;
	memcpy(s->nonce_even, even, TK1_NONCE_SIZE);
	memcpy(s->nonce_even_osap, even_osap, TK1_NONCE_SIZE);
	return 0;
}

int tk1_seal_params(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 keyhandle,
		     const u8 *encauth, const u8 *pcrinfo, u32 pcrinfo_len,
		     const u8 *data, u32 data_len, struct tk_span *params)
{
	u32 start;

	tk_cmd_start(b, buf, size, TK1_TAG_RQU_AUTH1_COMMAND, TK1_ORD_SEAL);
	tk_cmd_u32(b, keyhandle);
	start = b->len;
	tk_cmd_bytes(b, encauth, TK1_DIGEST_SIZE);
	tk_cmd_u32(b, pcrinfo_len);
	tk_cmd_bytes(b, pcrinfo, pcrinfo_len);
	tk_cmd_u32(b, data_len);
	tk_cmd_bytes(b, data, data_len);
	if (b->bad)
		return -E2BIG;
	params->p = b->data + start;
	params->len = b->len - start;
	return 0;
}

int tk1_unseal_params(struct tk_cmd_buf *b, u8 *buf, u32 size,
		       u32 keyhandle, const u8 *blob, u32 blob_len,
		       struct tk_span *params)
{
	u32 start;

	tk_cmd_start(b, buf, size, TK1_TAG_RQU_AUTH2_COMMAND,
		     TK1_ORD_UNSEAL);
	tk_cmd_u32(b, keyhandle);
	start = b->len;
	tk_cmd_bytes(b, blob, blob_len);
	if (b->bad)
		return -E2BIG;
	params->p = b->data + start;
	params->len = b->len - start;
	return 0;
}

void tk1_append_auth(struct tk_cmd_buf *b, const struct tk1_auth_in *a)
{
	tk_cmd_u32(b, a->handle);
	tk_cmd_bytes(b, a->nonce_odd, TK1_NONCE_SIZE);
	tk_cmd_u8(b, a->cont);
	tk_cmd_bytes(b, a->hmac, TK1_DIGEST_SIZE);
}

int tk1_finish(struct tk_cmd_buf *b)
{
	return tk_cmd_end(b);
}

static void take_auth(struct tk_rsp_buf *r, struct tk1_auth_out *a)
{
	a->nonce_even = tk_rsp_bytes(r, TK1_NONCE_SIZE);
	a->cont = tk_rsp_u8(r);
	a->hmac = tk_rsp_bytes(r, TK1_DIGEST_SIZE);
}

/* Walk a TPM_STORED_DATA in @r; returns its length or 0 when malformed. */
static u32 take_stored_data(struct tk_rsp_buf *r)
{
	u32 start = r->pos, n;

	tk_rsp_bytes(r, 4);
	n = tk_rsp_u32(r);
	tk_rsp_bytes(r, n);
	n = tk_rsp_u32(r);
	tk_rsp_bytes(r, n);
	return r->bad ? 0 : r->pos - start;
}

int tk1_parse_seal(const u8 *rsp, u32 size, struct tk1_seal_out *out)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_AUTH1_COMMAND);
	if (rc)
		return rc;
	out->params.p = rsp + r.pos;
	out->params.len = take_stored_data(&r);
	take_auth(&r, &out->auth);
	return tk_rsp_end(&r);
}

int tk1_parse_unseal(const u8 *rsp, u32 size, struct tk1_unseal_out *out)
{
	struct tk_rsp_buf r;
	u32 n;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_AUTH2_COMMAND);
	if (rc)
		return rc;
	out->params.p = rsp + r.pos;
	n = tk_rsp_u32(&r);
	out->secret.p = tk_rsp_bytes(&r, n);
	out->secret.len = n;
	out->params.len = 4 + n;
	take_auth(&r, &out->auth[0]);
	take_auth(&r, &out->auth[1]);
	return tk_rsp_end(&r);
}

int tk1_stored_data_check(const u8 *blob, u32 len)
{
	struct tk_rsp_buf r = { .data = blob, .len = len };
	u32 n;

	if (len < STORED_DATA_MIN)
		return -EINVAL;
	n = take_stored_data(&r);
	return n && n == len ? 0 : -EINVAL;
}
