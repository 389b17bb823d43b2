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

/**
 * tk1_build_oiap() - write TPM_OIAP
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk1_build_oiap(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	tk_cmd_start(b, buf, size, TK1_TAG_RQU_COMMAND, TK1_ORD_OIAP);
	return tk_cmd_end(b);
}

/**
 * tk1_parse_oiap() - parse the response to TPM_OIAP
 * @rsp: the response
 * @size: the size of its buffer
 * @s: the session handle and nonceEven, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed or has bytes left over.
 */
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

/**
 * tk1_session_handle() - the handle of an OIAP/OSAP response, even a malformed one
 * @rsp: the response
 * @size: its size
 * @handle: set to the handle the TPM opened
 *
 * Return: 0, or -EBADMSG when the response is too short to hold one.
 */
int tk1_session_handle(const u8 *rsp, u32 size, u32 *handle)
{
	/* a TPM that refused opened nothing: no handle either */
	return tk_rsp_handle(rsp, size, handle) ? -EBADMSG : 0;
}

/**
 * tk1_build_osap() - write TPM_OSAP
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @etype: the entity type (TK1_ET_KEYHANDLE, TK1_ET_SRK)
 * @handle: the entity
 * @nonce_odd_osap: our nonceOddOSAP
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk1_build_osap(struct tk_cmd_buf *b, u8 *buf, u32 size, u16 etype,
		   u32 handle, const u8 *nonce_odd_osap)
{
	tk_cmd_start(b, buf, size, TK1_TAG_RQU_COMMAND, TK1_ORD_OSAP);
	tk_cmd_u16(b, etype);
	tk_cmd_u32(b, handle);
	tk_cmd_bytes(b, nonce_odd_osap, TK1_NONCE_SIZE);
	return tk_cmd_end(b);
}

/**
 * tk1_parse_osap() - parse the response to TPM_OSAP
 * @rsp: the response
 * @size: the size of its buffer
 * @s: the session handle, nonceEven and nonceEvenOSAP, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed or has bytes left over.
 */
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

/**
 * tk1_params_span() - end the parameters a request HMAC covers
 * @b: the writer, after the command's last parameter
 * @start: where those parameters start in @b (after the handles)
 * @params: set to them, when nothing overran
 *
 * Return: 0, or -E2BIG when anything overran the buffer.
 */
int tk1_params_span(const struct tk_cmd_buf *b, u32 start,
		    struct tk_span *params)
{
	if (b->bad)
		return -E2BIG;
	params->p = b->data + start;
	params->len = b->len - start;
	return 0;
}

/**
 * tk1_seal_params() - write TPM_Seal up to its authorisation
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @keyhandle: the parent key
 * @encauth: the encrypted blob authorisation (ADIP)
 * @pcrinfo: TPM_PCR_INFO, or NULL
 * @pcrinfo_len: its length (0: none)
 * @data: the data to seal
 * @data_len: its length
 * @params: the span the request HMAC covers, after the ordinal
 *
 * Return: 0, or -E2BIG when @size is short.
 */
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
	return tk1_params_span(b, start, params);
}

/**
 * tk1_unseal_params() - write TPM_Unseal up to its authorisations
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @keyhandle: the parent key
 * @blob: the TPM_STORED_DATA to unseal
 * @blob_len: its length
 * @params: the span the request HMACs cover, after the ordinal
 *
 * Return: 0, or -E2BIG when @size is short.
 */
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
	return tk1_params_span(b, start, params);
}

/**
 * tk1_append_auth() - add one authorisation trailer to a command
 * @b: the writer
 * @a: the session handle, nonceOdd, continueAuthSession and HMAC
 */
void tk1_append_auth(struct tk_cmd_buf *b, const struct tk1_auth_in *a)
{
	tk_cmd_u32(b, a->handle);
	tk_cmd_bytes(b, a->nonce_odd, TK1_NONCE_SIZE);
	tk_cmd_u8(b, a->cont);
	tk_cmd_bytes(b, a->hmac, TK1_DIGEST_SIZE);
}

/**
 * tk1_finish() - close a command: write its size into the header
 * @b: the writer
 *
 * Return: 0, or -E2BIG when anything overran the buffer.
 */
int tk1_finish(struct tk_cmd_buf *b)
{
	return tk_cmd_end(b);
}

/**
 * tk1_take_auth() - read one authorisation trailer of a response
 * @r: the reader, at the trailer
 * @a: nonceEven, continueAuthSession and the HMAC, pointing into the
 *	response (NULL, and @r marked bad, when they are not there)
 */
void tk1_take_auth(struct tk_rsp_buf *r, struct tk1_auth_out *a)
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

/**
 * tk1_parse_seal() - parse the response to TPM_Seal
 * @rsp: the response
 * @size: the size of its buffer
 * @out: the sealed TPM_STORED_DATA (the HMAC's span) and the trailer
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed or has bytes left over.
 */
int tk1_parse_seal(const u8 *rsp, u32 size, struct tk1_seal_out *out)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_AUTH1_COMMAND);
	if (rc)
		return rc;
	out->params.p = rsp + r.pos;
	out->params.len = take_stored_data(&r);
	tk1_take_auth(&r, &out->auth);
	return tk_rsp_end(&r);
}

/**
 * tk1_parse_unseal() - parse the response to TPM_Unseal
 * @rsp: the response
 * @size: the size of its buffer
 * @out: the secret, the span the HMACs cover and both trailers
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when
 * the response is malformed or has bytes left over.
 */
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
	tk1_take_auth(&r, &out->auth[0]);
	tk1_take_auth(&r, &out->auth[1]);
	return tk_rsp_end(&r);
}

/**
 * tk1_stored_data_check() - check a blob is one TPM_STORED_DATA
 * @blob: the blob
 * @len: its length
 *
 * Return: 0 when @blob is one well-formed TPM_STORED_DATA(12) of exactly
 * @len bytes, else -EINVAL.
 */
int tk1_stored_data_check(const u8 *blob, u32 len)
{
	struct tk_rsp_buf r = { .data = blob, .len = len };
	u32 n;

	if (len < STORED_DATA_MIN)
		return -EINVAL;
	n = take_stored_data(&r);
	return n && n == len ? 0 : -EINVAL;
}

/**
 * tk1_build_get_random() - write TPM_GetRandom
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: its size
 * @count: bytesRequested
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk1_build_get_random(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 count)
{
	tk_cmd_start(b, buf, size, TK1_TAG_RQU_COMMAND, TK1_ORD_GET_RANDOM);
	tk_cmd_u32(b, count);
	return tk_cmd_end(b);
}

/**
 * tk1_parse_get_random() - parse the response to TPM_GetRandom
 * @rsp: the response (in a transport: as unwrapped)
 * @size: its size
 * @bytes: randomBytes, pointing into @rsp, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk1_parse_get_random(const u8 *rsp, u32 size, struct tk_span *bytes)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK1_TAG_RSP_COMMAND);
	if (rc)
		return rc;
	bytes->len = tk_rsp_u32(&r);
	bytes->p = tk_rsp_bytes(&r, bytes->len);
	return tk_rsp_end(&r);
}
