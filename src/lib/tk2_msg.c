// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 2.0 command layouts for trusted keys. A response is only trusted
 * once it has been walked to its last byte: the header size bounds the
 * walk, parameterSize must end exactly where the parameters do, and the
 * authorisation area must hold exactly one entry per command session.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "tk_buf.h"
#include "tk2_msg.h"

#define SENSITIVE_NAME_MAX	(2 + TK2_DIGEST_MAX)	/* alg + digest */
#define SRK_ATTRS	(TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT | \
			 TK2_OA_SENSITIVE_ORIGIN | TK2_OA_USERWITHAUTH | \
			 TK2_OA_NODA | TK2_OA_RESTRICTED | TK2_OA_DECRYPT)

static void put_bytes(struct tk_cmd_buf *b, const u8 *p, u32 len)
{
	if (len)		/* p may be NULL then */
		tk_cmd_bytes(b, p, len);
}

/* The authorisation area of a command with one session. */
static void put_auth(struct tk_cmd_buf *b, const struct tk2_auth *a)
{
	tk_cmd_u32(b, 4 + 2 + 1 + 2 + a->len);
	tk_cmd_u32(b, a->handle);
	tk_cmd_u16(b, 0);			/* nonceCaller */
	tk_cmd_u8(b, a->attrs);
	tk2_put_tpm2b(b, a->value, a->len);
}

/*
 * A TPM2B kept as it was marshalled, size field included (a TPMKey holds
 * TPM2B_PRIVATE and TPM2B_PUBLIC so); empty when tk2_take_tpm2b() fails.
 */
static struct tk_span take_marshalled(struct tk_rsp_buf *r, u16 max)
{
	struct tk_span s;

	if (!tk2_take_tpm2b(r, max, &s))
		return (struct tk_span){ };
	return (struct tk_span){ .p = s.p - 2, .len = s.len + 2 };
}

/* parameterSize: the end of the parameters, as an offset. */
static u32 take_param_size(struct tk_rsp_buf *r)
{
	u32 n = tk_rsp_u32(r);

	if (r->bad || n > r->len - r->pos) {
		r->bad = true;
		return 0;
	}
	return r->pos + n;
}

/*
 * A response in sessions, up to its parameters: @handle, when not NULL,
 * gets the one response handle before them (also when the rest turns out
 * malformed); @end, where parameterSize says they end, as an offset.
 */
static int open_sessions(struct tk_rsp_buf *r, const u8 *rsp, u32 size,
			 u32 *handle, u32 *end)
{
	int rc;

	rc = tk_rsp_open(r, rsp, size, TK2_TAG_SESSIONS);
	if (rc)
		return rc;
	if (handle)
		*handle = tk_rsp_u32(r);
	*end = take_param_size(r);
	return 0;
}

/*
 * What Create and CreatePrimary return after outPublic: creationData,
 * creationHash and creationTicket.
 */
static void take_creation(struct tk_rsp_buf *r)
{
	tk2_take_tpm2b(r, 0xffff, NULL);	/* creationData */
	tk2_take_tpm2b(r, TK2_DIGEST_MAX, NULL);	/* creationHash */
	tk_rsp_u16(r);				/* creationTicket: tag */
	tk_rsp_u32(r);				/* hierarchy */
	tk2_take_tpm2b(r, TK2_DIGEST_MAX, NULL);	/* digest */
}

/* The parameters must end at @end, then one response session follows. */
static int end_with_session(struct tk_rsp_buf *r, u32 end)
{
	if (r->bad || r->pos != end)
		return -EBADMSG;
	tk2_take_tpm2b(r, TK2_DIGEST_MAX, NULL);	/* nonceTPM */
	tk_rsp_u8(r);				/* session attributes */
	tk2_take_tpm2b(r, TK2_DIGEST_MAX, NULL);	/* hmac */
	return tk_rsp_end(r);
}

/**
 * tk2_public_parse() - check a TPM2B_PUBLIC of a sealed data object
 * @p: the TPM2B
 * @len: its length, size field included
 * @out: the fields, pointing into @p
 *
 * Return: 0, or -EINVAL when it is not a keyed-hash object without a scheme,
 * with a known name algorithm, a policy of its size or none, and nothing left
 * over.
 */
int tk2_public_parse(const u8 *p, u32 len, struct tk2_public *out)
{
	struct tk_rsp_buf r = { .data = p, .len = len };
	struct tk_span policy;
	u32 dsize;

	if (len < 2 || get_unaligned_be16(p) != len - 2)
		return -EINVAL;
	tk_rsp_u16(&r);
	if (tk_rsp_u16(&r) != TK2_ALG_KEYEDHASH)
		return -EINVAL;
	out->name_alg = tk_rsp_u16(&r);
	dsize = tk2_alg_digest_size(out->name_alg);
	out->attrs = tk_rsp_u32(&r);
	tk2_take_tpm2b(&r, 0xffff, &policy);
	out->policy = policy.p;
	out->policy_len = policy.len;
	if (r.bad || !dsize || (out->policy_len && out->policy_len != dsize))
		return -EINVAL;
	/* A sealed data object has no scheme, and its unique is a digest. */
	if (tk_rsp_u16(&r) != TK2_ALG_NULL || tk_rsp_u16(&r) != dsize)
		return -EINVAL;
	tk_rsp_bytes(&r, dsize);
	return tk_rsp_end(&r) ? -EINVAL : 0;
}

/**
 * tk2_private_check() - check the outer form of a TPM2B_PRIVATE
 * @p: the TPM2B
 * @len: its length, size field included
 *
 * Return: 0, or -EINVAL when its size, integrity HMAC or sensitive area is
 * out of bounds.
 */
int tk2_private_check(const u8 *p, u32 len)
{
	u16 n;

	if (len < 2 || get_unaligned_be16(p) != len - 2)
		return -EINVAL;
	/* integrityHMAC, then the encrypted sensitive area */
	if (len < 4)
		return -EINVAL;
	n = get_unaligned_be16(p + 2);
	if (!n || n > TK2_DIGEST_MAX || n >= len - 4)
		return -EINVAL;
	return 0;
}

/**
 * tk2_cmd_create() - write TPM2_Create of a sealed data object
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @in: the parent, its authorisation and the object to create
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_create(struct tk_cmd_buf *b, u8 *buf, u32 size,
		   const struct tk2_create_in *in)
{
	tk_cmd_start(b, buf, size, TK2_TAG_SESSIONS, TK2_CC_CREATE);
	tk_cmd_u32(b, in->parent);
	put_auth(b, &in->parent_auth);

	/* inSensitive: userAuth, then the data to seal */
	tk_cmd_u16(b, 2 + in->user_auth_len + 2 + in->data_len);
	tk2_put_tpm2b(b, in->user_auth, in->user_auth_len);
	tk2_put_tpm2b(b, in->data, in->data_len);

	/* inPublic: a keyed hash object without a scheme */
	tk_cmd_u16(b, 2 + 2 + 4 + 2 + in->policy_len + 2 + 2);
	tk_cmd_u16(b, TK2_ALG_KEYEDHASH);
	tk_cmd_u16(b, in->name_alg);
	tk_cmd_u32(b, in->attrs);
	tk2_put_tpm2b(b, in->policy, in->policy_len);
	tk_cmd_u16(b, TK2_ALG_NULL);
	tk_cmd_u16(b, 0);			/* unique */

	tk_cmd_u16(b, 0);			/* outsideInfo */
	tk_cmd_u32(b, 0);			/* creationPCR */
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_create() - parse the response to TPM2_Create
 * @rsp: the response
 * @size: the size of its buffer
 * @priv: the TPM2B_PRIVATE, on success
 * @pub: the TPM2B_PUBLIC, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_create(const u8 *rsp, u32 size, struct tk_span *priv,
		   struct tk_span *pub)
{
	struct tk_rsp_buf r;
	u32 end;
	int rc;

	rc = open_sessions(&r, rsp, size, NULL, &end);
	if (rc)
		return rc;
	*priv = take_marshalled(&r, 0xffff);
	*pub = take_marshalled(&r, 0xffff);
	take_creation(&r);
	return end_with_session(&r, end);
}

/**
 * tk2_cmd_load() - write TPM2_Load
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @parent: the parent handle
 * @auth: the authorisation of the parent
 * @priv: the TPM2B_PRIVATE
 * @priv_len: its length
 * @pub: the TPM2B_PUBLIC
 * @pub_len: its length
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_load(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 parent,
		 const struct tk2_auth *auth, const u8 *priv, u32 priv_len,
		  const u8 *pub, u32 pub_len)
{
	tk_cmd_start(b, buf, size, TK2_TAG_SESSIONS, TK2_CC_LOAD);
	tk_cmd_u32(b, parent);
	put_auth(b, auth);
	put_bytes(b, priv, priv_len);
	put_bytes(b, pub, pub_len);
	return tk_cmd_end(b);
}

/*
 * A TPM2B_PUBLIC whose TPMT_PUBLIC starts with a type, a name algorithm
 * and attributes: into @pub, pointing into the response.
 */
static void take_public_area(struct tk_rsp_buf *r, struct tk2_public_area *pub)
{
	struct tk_rsp_buf a;
	struct tk_span s;

	if (!tk2_take_tpm2b(r, 0xffff, &s) || s.len < 8) {
		r->bad = true;
		return;
	}
	a = (struct tk_rsp_buf){ .data = s.p, .len = s.len };
	pub->type = tk_rsp_u16(&a);
	pub->name_alg = tk_rsp_u16(&a);
	pub->attrs = tk_rsp_u32(&a);
	pub->area = s;
}

/*
 * A response that returns an object's handle (Load, CreatePrimary): the
 * handle, then parameters that end with the object's name. @pub, for
 * CreatePrimary: its outPublic, creationData, creationHash and
 * creationTicket come before the name.
 */
static int rsp_handle(const u8 *rsp, u32 size, u32 *handle,
		      struct tk2_public_area *pub)
{
	struct tk_rsp_buf r;
	u32 end;
	int rc;

	rc = open_sessions(&r, rsp, size, handle, &end);
	if (rc)
		return rc;
	if (pub) {
		take_public_area(&r, pub);		/* outPublic */
		take_creation(&r);
	}
	tk2_take_tpm2b(&r, SENSITIVE_NAME_MAX, NULL);	/* name */
	return end_with_session(&r, end);
}

/**
 * tk2_rsp_load() - parse the response to TPM2_Load
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the object's handle, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_load(const u8 *rsp, u32 size, u32 *handle)
{
	return rsp_handle(rsp, size, handle, NULL);
}

/**
 * tk2_cmd_unseal() - write TPM2_Unseal
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @item: the loaded sealed object
 * @auth: the authorisation of the object (password or policy session)
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_unseal(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 item,
		   const struct tk2_auth *auth)
{
	tk_cmd_start(b, buf, size, TK2_TAG_SESSIONS, TK2_CC_UNSEAL);
	tk_cmd_u32(b, item);
	put_auth(b, auth);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_unseal() - parse the response to TPM2_Unseal
 * @rsp: the response
 * @size: the size of its buffer
 * @data: the unsealed data, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_unseal(const u8 *rsp, u32 size, struct tk_span *data)
{
	struct tk_rsp_buf r;
	struct tk_span s;
	u32 end;
	int rc;

	rc = open_sessions(&r, rsp, size, NULL, &end);
	if (rc)
		return rc;
	tk2_take_tpm2b(&r, 0xffff, &s);
	rc = end_with_session(&r, end);
	if (rc)
		return rc;
	*data = s;
	return 0;
}

/**
 * tk2_rsp_params() - a reader of the parameters of a response without
 * response handles (Unseal, GetRandom, PCR_Read, NV_ReadPublic)
 * @rsp: the response
 * @size: the size of its buffer
 * @sessions: the response is in sessions, whose area tk2_rsp_sessions()
 *	checked: @p holds its parameters (parameterSize bytes) and nothing
 *	else; otherwise it has no sessions and @p holds all after its header
 * @p: the reader, which the caller walks to its end, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * header is malformed, has the other tag, or parameterSize overruns it.
 */
int tk2_rsp_params(const u8 *rsp, u32 size, bool sessions,
		   struct tk_rsp_buf *p)
{
	struct tk_rsp_buf r;
	int rc;

	if (!sessions)
		return tk_rsp_open(p, rsp, size, TK2_TAG_NO_SESSIONS);
	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_SESSIONS);
	if (rc)
		return rc;
	*p = (struct tk_rsp_buf){ };
	p->len = tk_rsp_u32(&r);
	p->data = tk_rsp_bytes(&r, p->len);
	return r.bad ? -EBADMSG : 0;
}

/* Parameters that are one TPM2B exactly (Unseal, GetRandom): its contents. */
static int one_tpm2b(const u8 *rsp, u32 size, bool sessions,
		     struct tk_span *out)
{
	struct tk_rsp_buf p;
	struct tk_span s;
	int rc;

	rc = tk2_rsp_params(rsp, size, sessions, &p);
	if (rc)
		return rc;
	tk2_take_tpm2b(&p, 0xffff, &s);
	if (tk_rsp_end(&p))
		return -EBADMSG;
	*out = s;
	return 0;
}

/**
 * tk2_rsp_unseal_params() - outData of an Unseal response in sessions
 * @rsp: the response, whose sessions tk2_rsp_sessions() checked (and
 *	whose outData it decrypted)
 * @size: the size of its buffer
 * @data: the unsealed data, pointing into @rsp, on success
 *
 * Return: 0, or -EBADMSG when the parameters are not one TPM2B exactly.
 */
int tk2_rsp_unseal_params(const u8 *rsp, u32 size, struct tk_span *data)
{
	return one_tpm2b(rsp, size, true, data);
}

/**
 * tk2_cmd_get_random() - write TPM2_GetRandom
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @count: bytesRequested
 *
 * Written without sessions; tk2_cmd_sessions() may add them.
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_get_random(struct tk_cmd_buf *b, u8 *buf, u32 size, u16 count)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_GET_RANDOM);
	tk_cmd_u16(b, count);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_get_random() - parse the response to TPM2_GetRandom
 * @rsp: the response
 * @size: the size of its buffer
 * @bytes: randomBytes, pointing into @rsp, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_get_random(const u8 *rsp, u32 size, struct tk_span *bytes)
{
	return one_tpm2b(rsp, size, false, bytes);
}

/**
 * tk2_rsp_get_random_params() - randomBytes of a GetRandom response in
 * sessions
 * @rsp: the response, whose sessions tk2_rsp_sessions() checked (and
 *	decrypted)
 * @size: the size of its buffer
 * @bytes: randomBytes, pointing into @rsp, on success
 *
 * Return: 0, or -EBADMSG when the parameters are not one TPM2B exactly.
 */
int tk2_rsp_get_random_params(const u8 *rsp, u32 size, struct tk_span *bytes)
{
	return one_tpm2b(rsp, size, true, bytes);
}

#define TK2_CAP_TPM_PROPERTIES	0x00000006
#define TK2_PT_LOCKOUT_COUNTER	0x0000020e	/* PT_VAR + 14 */
#define TK2_PT_MAX_AUTH_FAIL	0x0000020f

/**
 * tk2_cmd_get_da_state() - write TPM2_GetCapability of the lockout counter
 * and maxTries (two TPM properties from TPM_PT_LOCKOUT_COUNTER)
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_get_da_state(struct tk_cmd_buf *b, u8 *buf, u32 size)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_GET_CAPABILITY);
	tk_cmd_u32(b, TK2_CAP_TPM_PROPERTIES);
	tk_cmd_u32(b, TK2_PT_LOCKOUT_COUNTER);
	tk_cmd_u32(b, 2);			/* propertyCount */
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_get_da_state() - parse the response to tk2_cmd_get_da_state()
 * @rsp: the response
 * @size: the size of its buffer
 * @da: the lockout counter and maxTries, on success
 *
 * The TPM lists the properties it has from the first one asked; both must
 * be there, in order, and nothing else.
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed, lacks either property or has bytes left over.
 */
int tk2_rsp_get_da_state(const u8 *rsp, u32 size, struct tk2_da_state *da)
{
	struct tk_rsp_buf r;
	u32 n;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	tk_rsp_u8(&r);				/* moreData */
	if (tk_rsp_u32(&r) != TK2_CAP_TPM_PROPERTIES)
		return -EBADMSG;
	n = tk_rsp_u32(&r);
	if (n != 2 || tk_rsp_u32(&r) != TK2_PT_LOCKOUT_COUNTER)
		return -EBADMSG;
	da->counter = tk_rsp_u32(&r);
	if (tk_rsp_u32(&r) != TK2_PT_MAX_AUTH_FAIL)
		return -EBADMSG;
	da->max_tries = tk_rsp_u32(&r);
	return tk_rsp_end(&r);
}

/**
 * tk2_cmd_one_handle() - write a command without sessions whose only
 * parameter is a handle (FlushContext, ReadPublic, NV_ReadPublic)
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @cc: the command code
 * @handle: the handle
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_one_handle(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 cc,
		       u32 handle)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, cc);
	tk_cmd_u32(b, handle);
	return tk_cmd_end(b);
}

/**
 * tk2_cmd_flush() - write TPM2_FlushContext
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @handle: the object or session to flush
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_flush(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 handle)
{
	return tk2_cmd_one_handle(b, buf, size, TK2_CC_FLUSH, handle);
}

/**
 * tk2_cmd_context_save() - write TPM2_ContextSave
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @handle: the session to save
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_context_save(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 u32 handle)
{
	return tk2_cmd_one_handle(b, buf, size, TK2_CC_CONTEXT_SAVE, handle);
}

/**
 * tk2_rsp_context_save() - parse the response to TPM2_ContextSave
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the handle that was saved: the context must name it
 * @ctx: the marshalled TPMS_CONTEXT, pointing into @rsp, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed, names another handle, is longer than
 * TK2_CONTEXT_MAX or has bytes left over.
 */
int tk2_rsp_context_save(const u8 *rsp, u32 size, u32 handle,
			 struct tk_span *ctx)
{
	struct tk_rsp_buf r;
	u32 start, saved;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	start = r.pos;
	tk_rsp_u32(&r);				/* sequence */
	tk_rsp_u32(&r);
	saved = tk_rsp_u32(&r);			/* savedHandle */
	tk_rsp_u32(&r);				/* hierarchy */
	tk2_take_tpm2b(&r, TK2_CONTEXT_MAX, NULL);	/* contextBlob */
	rc = tk_rsp_end(&r);
	if (rc)
		return rc;
	if (saved != handle || r.pos - start > TK2_CONTEXT_MAX)
		return -EBADMSG;
	*ctx = (struct tk_span){ .p = rsp + start, .len = r.pos - start };
	return 0;
}

/**
 * tk2_cmd_context_load() - write TPM2_ContextLoad
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @ctx: a TPMS_CONTEXT as tk2_rsp_context_save() gave it
 * @ctx_len: its length
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_context_load(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 const u8 *ctx, u32 ctx_len)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_CONTEXT_LOAD);
	put_bytes(b, ctx, ctx_len);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_context_load() - parse the response to TPM2_ContextLoad
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the loaded handle, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_context_load(const u8 *rsp, u32 size, u32 *handle)
{
	struct tk_rsp_buf r;
	u32 h;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	h = tk_rsp_u32(&r);
	rc = tk_rsp_end(&r);
	if (rc)
		return rc;
	*handle = h;
	return 0;
}

/**
 * tk2_cmd_create_srk() - write TPM2_CreatePrimary of the TCG storage key
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @hierarchy: the hierarchy (TK2_RH_OWNER, ...)
 * @auth: the authorisation of the hierarchy
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_create_srk(struct tk_cmd_buf *b, u8 *buf, u32 size,
		       u32 hierarchy, const struct tk2_auth *auth)
{
	tk_cmd_start(b, buf, size, TK2_TAG_SESSIONS, TK2_CC_CREATE_PRIMARY);
	tk_cmd_u32(b, hierarchy);
	put_auth(b, auth);

	tk_cmd_u16(b, 4);			/* inSensitive: both empty */
	tk_cmd_u16(b, 0);
	tk_cmd_u16(b, 0);

	/* TCG Provisioning Guidance: the ECC NIST P-256 SRK template */
	tk_cmd_u16(b, 26);
	tk_cmd_u16(b, TK2_ALG_ECC);
	tk_cmd_u16(b, TK2_ALG_SHA256);
	tk_cmd_u32(b, SRK_ATTRS);
	tk_cmd_u16(b, 0);			/* authPolicy */
	tk_cmd_u16(b, TK2_ALG_AES);		/* symmetric: AES-128-CFB */
	tk_cmd_u16(b, 128);
	tk_cmd_u16(b, TK2_ALG_CFB);
	tk_cmd_u16(b, TK2_ALG_NULL);		/* scheme */
	tk_cmd_u16(b, TK2_ECC_NIST_P256);
	tk_cmd_u16(b, TK2_ALG_NULL);		/* kdf */
	tk_cmd_u16(b, 0);			/* unique: empty x and y */
	tk_cmd_u16(b, 0);

	tk_cmd_u16(b, 0);			/* outsideInfo */
	tk_cmd_u32(b, 0);			/* creationPCR */
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_create_primary() - parse the response to TPM2_CreatePrimary
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the object's handle (set from a response that names one, also
 *	when the rest is malformed: the TPM made that object)
 * @pub: its outPublic, pointing into @rsp, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_create_primary(const u8 *rsp, u32 size, u32 *handle,
			   struct tk2_public_area *pub)
{
	return rsp_handle(rsp, size, handle, pub);
}

/**
 * tk2_rsp_handle() - the handle a successful response starts with
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the handle after the header
 *
 * For a response whose rest is not to be trusted (its sessions were
 * refused) but whose TPM said success: the object it made is flushed.
 *
 * Return: 0, the TPM's return code (> 0), or -EBADMSG when the response
 * does not reach a handle.
 */
int tk2_rsp_handle(const u8 *rsp, u32 size, u32 *handle)
{
	return tk_rsp_handle(rsp, size, handle);
}

/**
 * tk2_cmd_read_public() - write TPM2_ReadPublic
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @handle: the object
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_read_public(struct tk_cmd_buf *b, u8 *buf, u32 size,
			u32 handle)
{
	return tk2_cmd_one_handle(b, buf, size, TK2_CC_READ_PUBLIC, handle);
}

/**
 * tk2_rsp_read_public() - parse the response to TPM2_ReadPublic
 * @rsp: the response
 * @size: the size of its buffer
 * @pub: the object's public area, pointing into @rsp, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_read_public(const u8 *rsp, u32 size, struct tk2_public_area *pub)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	take_public_area(&r, pub);
	tk2_take_tpm2b(&r, SENSITIVE_NAME_MAX, NULL);	/* name */
	tk2_take_tpm2b(&r, SENSITIVE_NAME_MAX, NULL);	/* qualifiedName */
	return tk_rsp_end(&r);
}

/**
 * tk2_cmd_start_policy() - write TPM2_StartAuthSession for an unsalted,
 * unbound policy session
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @nonce: nonceCaller
 * @nonce_len: its length
 * @hash_alg: the session hash algorithm
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_start_policy(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 const u8 *nonce, u16 nonce_len, u16 hash_alg)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_START_SESSION);
	tk_cmd_u32(b, TK2_RH_NULL);		/* tpmKey: no salt */
	tk_cmd_u32(b, TK2_RH_NULL);		/* bind: none */
	tk2_put_tpm2b(b, nonce, nonce_len);
	tk_cmd_u16(b, 0);			/* encryptedSalt */
	tk_cmd_u8(b, TK2_SE_POLICY);
	tk_cmd_u16(b, TK2_ALG_NULL);		/* symmetric: none */
	tk_cmd_u16(b, hash_alg);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_start_session() - parse the response to TPM2_StartAuthSession
 * @rsp: the response
 * @size: the size of its buffer
 * @handle: the session handle, on success
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or the handle is not a policy session.
 */
int tk2_rsp_start_session(const u8 *rsp, u32 size, u32 *handle)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	*handle = tk_rsp_u32(&r);
	tk2_take_tpm2b(&r, TK2_DIGEST_MAX, NULL);	/* nonceTPM */
	if (tk_rsp_end(&r) || *handle >> 24 != TK2_HT_POLICY_SESSION)
		return -EBADMSG;
	return 0;
}

/**
 * tk2_cmd_policy() - write a policy command whose body is already marshalled
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @cc: the command code
 * @session: the policy session
 * @body: the parameters after the session handle
 * @body_len: their length
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_policy(struct tk_cmd_buf *b, u8 *buf, u32 size, u32 cc,
		   u32 session, const u8 *body, u32 body_len)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, cc);
	tk_cmd_u32(b, session);
	put_bytes(b, body, body_len);
	return tk_cmd_end(b);
}

/**
 * tk2_rsp_empty() - parse a response that is a header and nothing more
 * (FlushContext, Policy*)
 * @rsp: the response
 * @size: the size of its buffer
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_empty(const u8 *rsp, u32 size)
{
	struct tk_rsp_buf r;
	int rc;

	rc = tk_rsp_open(&r, rsp, size, TK2_TAG_NO_SESSIONS);
	if (rc)
		return rc;
	return tk_rsp_end(&r);
}

/**
 * tk2_put_pcr_selection() - write a TPML_PCR_SELECTION of one bank
 * @b: the command or body being written
 * @sel: the bank and the PCRs (bit n of the mask: PCR n, n < 24)
 *
 * PCR_Read and the PolicyPCR body marshal the selection the same way.
 */
void tk2_put_pcr_selection(struct tk_cmd_buf *b, const struct tk2_pcrs *sel)
{
	tk_cmd_u32(b, 1);
	tk_cmd_u16(b, sel->alg);
	tk_cmd_u8(b, TK2_PCR_SELECT_SIZE);
	tk_cmd_u8(b, sel->mask);
	tk_cmd_u8(b, sel->mask >> 8);
	tk_cmd_u8(b, sel->mask >> 16);
}

/**
 * tk2_cmd_pcr_read() - write TPM2_PCR_Read of one bank
 * @b: the writer, started here
 * @buf: the command buffer
 * @size: the size of the buffer
 * @sel: the bank and PCRs
 *
 * Return: 0, or -E2BIG when @size is short.
 */
int tk2_cmd_pcr_read(struct tk_cmd_buf *b, u8 *buf, u32 size,
		     const struct tk2_pcrs *sel)
{
	tk_cmd_start(b, buf, size, TK2_TAG_NO_SESSIONS, TK2_CC_PCR_READ);
	tk2_put_pcr_selection(b, sel);
	return tk_cmd_end(b);
}

static unsigned int popcount32(u32 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The selection a PCR_Read answers with: none, or part of @sel. */
static u32 take_pcr_selection(struct tk_rsp_buf *r, const struct tk2_pcrs *sel)
{
	u32 count, mask = 0;
	unsigned int i, n;

	count = tk_rsp_u32(r);
	if (count == 0)
		return 0;
	if (count != 1 || tk_rsp_u16(r) != sel->alg) {
		r->bad = true;
		return 0;
	}
	n = tk_rsp_u8(r);
	if (n > 4) {
		r->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++)
		mask |= (u32)tk_rsp_u8(r) << (8 * i);
	if (mask & ~sel->mask)
		r->bad = true;
	return mask;
}

/* PCR_Read's parameters, in sessions or not (tk2_rsp_params()). */
static int pcr_read(const u8 *rsp, u32 size, bool sessions,
		    const struct tk2_pcrs *sel, struct tk2_pcr_values *out)
{
	u32 dsize = tk2_alg_digest_size(sel->alg);
	struct tk_rsp_buf p;
	unsigned int i;
	int rc;

	rc = tk2_rsp_params(rsp, size, sessions, &p);
	if (rc)
		return rc;
	out->update_counter = tk_rsp_u32(&p);
	out->got = take_pcr_selection(&p, sel);
	out->count = tk_rsp_u32(&p);
	if (p.bad || out->count != popcount32(out->got) ||
	    out->count > TK2_PCR_READ_MAX)
		return -EBADMSG;
	for (i = 0; i < out->count; i++) {
		if (tk_rsp_u16(&p) != dsize)
			return -EBADMSG;
		out->digest[i] = tk_rsp_bytes(&p, dsize);
	}
	return tk_rsp_end(&p);
}

/**
 * tk2_rsp_pcr_read() - parse the response to TPM2_PCR_Read
 * @rsp: the response
 * @size: the size of its buffer
 * @sel: the selection the command asked for
 * @out: the PCRs returned and their values, pointing into @rsp
 *
 * Return: 0; the TPM's return code (> 0) when it refused; -EBADMSG when the
 * response is malformed or has bytes left over.
 */
int tk2_rsp_pcr_read(const u8 *rsp, u32 size, const struct tk2_pcrs *sel,
		     struct tk2_pcr_values *out)
{
	return pcr_read(rsp, size, false, sel, out);
}

/**
 * tk2_rsp_pcr_read_params() - PCR_Read's parameters, of a response in sessions
 * @rsp: the response, whose sessions tk2_rsp_sessions() checked
 * @size: the size of its buffer
 * @sel: the selection the command asked for
 * @out: the PCRs returned and their values, pointing into @rsp
 *
 * Return: 0, or -EBADMSG when the parameters are malformed or have bytes
 * left over.
 */
int tk2_rsp_pcr_read_params(const u8 *rsp, u32 size,
			    const struct tk2_pcrs *sel,
			    struct tk2_pcr_values *out)
{
	return pcr_read(rsp, size, true, sel, out);
}
