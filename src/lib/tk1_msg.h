/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TPM 1.2 commands used by trusted keys (TPM Main Part 3): OIAP, OSAP,
 * Seal, Unseal, GetRandom, as byte layouts. Kernel-free: no crypto here; callers
 * compute the authorisation HMACs over the spans these functions return.
 */
#ifndef TK1_MSG_H
#define TK1_MSG_H

#include <linux/types.h>
#include "tk_buf.h"

#define TK1_DIGEST_SIZE	20
#define TK1_NONCE_SIZE		20

enum tk1_tag {
	TK1_TAG_RQU_COMMAND		= 0x00c1,
	TK1_TAG_RQU_AUTH1_COMMAND	= 0x00c2,
	TK1_TAG_RQU_AUTH2_COMMAND	= 0x00c3,
	TK1_TAG_RSP_COMMAND		= 0x00c4,
	TK1_TAG_RSP_AUTH1_COMMAND	= 0x00c5,
	TK1_TAG_RSP_AUTH2_COMMAND	= 0x00c6,
};

enum tk1_ordinal {
	TK1_ORD_OIAP		= 0x0000000a,
	TK1_ORD_OSAP		= 0x0000000b,
	TK1_ORD_SEAL		= 0x00000017,
	TK1_ORD_UNSEAL		= 0x00000018,
	TK1_ORD_GET_RANDOM	= 0x00000046,
	TK1_ORD_FLUSH_SPECIFIC	= 0x000000ba,
};

enum tk1_resource_type {
	TK1_RT_AUTH		= 0x00000002,
};

enum tk1_entity {
	TK1_ET_KEYHANDLE	= 0x0001,
	TK1_ET_SRK		= 0x0004,
};

enum tk1_handle {
	TK1_KH_SRK		= 0x40000000,
};

enum tk1_rc {
	TK1_RC_AUTHFAIL	= 0x01,
	TK1_RC_BADINDEX	= 0x02,
	TK1_RC_BAD_PARAMETER	= 0x03,
	TK1_RC_DECRYPT_ERROR	= 0x21,
	TK1_RC_INVALID_KEYHANDLE = 0x0c,
	TK1_RC_WRONGPCRVAL	= 0x18,
	TK1_RC_AUTH2FAIL	= 0x1d,
	TK1_RC_NOTSEALED_BLOB	= 0x13,
	TK1_RC_DEFEND_LOCK_RUNNING = 0x803,
};

/* One authorisation trailer of a request. */
struct tk1_auth_in {
	u32 handle;
	u8 nonce_odd[TK1_NONCE_SIZE];
	u8 cont;
	u8 hmac[TK1_DIGEST_SIZE];
};

/* One authorisation trailer of a response, pointing into the response. */
struct tk1_auth_out {
	const u8 *nonce_even;
	u8 cont;
	const u8 *hmac;
};

struct tk1_session {
	u32 handle;
	u8 nonce_even[TK1_NONCE_SIZE];
	u8 nonce_even_osap[TK1_NONCE_SIZE];	/* OSAP only */
};

/*
 * Layout of a response's output parameters: the span that feeds the
 * response HMAC (it follows the return code and the ordinal) and the
 * authorisation trailers after it.
 */
struct tk1_seal_out {
	struct tk_span params;		/* == the TPM_STORED_DATA blob */
	struct tk1_auth_out auth;
};

struct tk1_unseal_out {
	struct tk_span params;		/* secret size (4) + secret */
	struct tk_span secret;
	struct tk1_auth_out auth[2];
};

int tk1_build_oiap(struct tk_cmd_buf *b, u8 *buf, u32 size);
int tk1_parse_oiap(const u8 *rsp, u32 size, struct tk1_session *s);
int tk1_build_osap(struct tk_cmd_buf *b, u8 *buf, u32 size, u16 etype,
		   u32 handle, const u8 *nonce_odd_osap);
int tk1_parse_osap(const u8 *rsp, u32 size, struct tk1_session *s);

/*
 * The session handle in a successful OIAP or OSAP response, however
 * malformed the rest of it: the TPM opened that session and it must be
 * flushed. -EBADMSG when the response does not name one.
 */
int tk1_session_handle(const u8 *rsp, u32 size, u32 *handle);

/*
 * Seal and Unseal are built in two steps: *_params() writes the header,
 * handles and parameters and returns the span the request HMAC covers
 * (after the ordinal, which the caller hashes first), then
 * tk1_append_auth() adds each authorisation trailer and
 * tk1_finish() closes the command.
 */
int tk1_seal_params(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 keyhandle,
		    const u8 *encauth, const u8 *pcrinfo, u32 pcrinfo_len,
		     const u8 *data, u32 data_len, struct tk_span *params);
int tk1_unseal_params(struct tk_cmd_buf *b, u8 *buf, u32 size,
		      u32 keyhandle, const u8 *blob, u32 blob_len,
		       struct tk_span *params);
void tk1_append_auth(struct tk_cmd_buf *b, const struct tk1_auth_in *a);
int tk1_finish(struct tk_cmd_buf *b);

/* The end of *_params(): the span from @start to the writer's end. */
int tk1_params_span(const struct tk_cmd_buf *b, u32 start,
		    struct tk_span *params);

/* Read one authorisation trailer of a response into @a. */
void tk1_take_auth(struct tk_rsp_buf *r, struct tk1_auth_out *a);

int tk1_parse_seal(const u8 *rsp, u32 size, struct tk1_seal_out *out);
int tk1_parse_unseal(const u8 *rsp, u32 size, struct tk1_unseal_out *out);

int tk1_build_get_random(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 count);
int tk1_parse_get_random(const u8 *rsp, u32 size, struct tk_span *bytes);

/* 0 when @blob is one well-formed TPM_STORED_DATA(12) of exactly @len bytes. */
int tk1_stored_data_check(const u8 *blob, u32 len);

#endif /* TK1_MSG_H */
