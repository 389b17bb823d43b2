// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 1.2 authorisation sessions: OIAP and OSAP, the digests and HMACs of
 * a command's and a response's authorisation, and SHA-1 / HMAC-SHA1 under
 * them. HMAC is built on the stateless sha1 transform, so concurrent
 * callers never share a keyed transform; all state lives in one heap
 * block, wiped after use.
 */
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/sha1.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "trusted.h"

static struct crypto_shash *sha1_tfm;

struct hmac_work {
	u8 pad[SHA1_BLOCK_SIZE];
	u8 inner[SHA1_DIGEST_SIZE];
	struct shash_desc desc;		/* followed by the descriptor context */
};

/**
 * trusted_auth_init() - allocate the SHA-1 transform of TPM 1.2 authorisations
 *
 * Return: 0, or the crypto API's error.
 */
int trusted_auth_init(void)
{
	sha1_tfm = crypto_alloc_shash("sha1", 0, 0);
	if (IS_ERR(sha1_tfm)) {
		pr_err("sha1 is not available (%ld)\n", PTR_ERR(sha1_tfm));
		return PTR_ERR(sha1_tfm);
	}
	return 0;
}

/**
 * trusted_auth_exit() - free what trusted_auth_init() allocated
 */
void trusted_auth_exit(void)
{
	crypto_free_shash(sha1_tfm);
}

/**
 * trusted_tpm1_flush() - release a TPM 1.2 session an exchange left open
 * @buf: a command buffer to use
 * @handle: the session's handle
 * @type: its resource type (TK1_RT_AUTH, TK1_RT_TRANS)
 *
 * TPM_FlushSpecific through trusted_tpm_send(), the exchange fault
 * injection sees; a failure is ignored (nothing left to undo).
 */
void trusted_tpm1_flush(u8 *buf, u32 handle, u32 type)
{
	struct tk_cmd_buf b;

	tk_cmd_start(&b, buf, PAGE_SIZE, TK1_TAG_RQU_COMMAND,
		     TK1_ORD_FLUSH_SPECIFIC);
	tk_cmd_u32(&b, handle);
	tk_cmd_u32(&b, type);
	if (!tk_cmd_end(&b))
		trusted_tpm_send(buf, NULL);
}

/* Test kernels (CONFIG_FAIL_FUNCTION) can make this allocation fail. */
static noinline struct hmac_work *trusted_hmac_work_alloc(void)
{
	struct hmac_work *w;

	w = kzalloc(sizeof(*w) + crypto_shash_descsize(sha1_tfm), GFP_KERNEL);
	if (w)
		w->desc.tfm = sha1_tfm;
	return w;
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_hmac_work_alloc, NULL);
#endif

static int digest_spans(struct shash_desc *desc, const u8 *prefix,
			const struct tk_span *spans, unsigned int n, u8 *out)
{
	unsigned int i;
	int ret;

	ret = crypto_shash_init(desc);
	if (ret)
		return ret;
	if (prefix) {
		ret = crypto_shash_update(desc, prefix, SHA1_BLOCK_SIZE);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = crypto_shash_update(desc, spans[i].p, spans[i].len);
		if (ret)
			return ret;
	}
	return crypto_shash_final(desc, out);
}

/**
 * trusted_sha1() - SHA-1 over a list of spans
 * @out: SHA1_DIGEST_SIZE bytes
 * @spans: the data
 * @n: how many spans
 *
 * Return: 0, -ENOMEM, or the crypto API's error.
 */
int trusted_sha1(u8 *out, const struct tk_span *spans, unsigned int n)
{
	struct hmac_work *w = trusted_hmac_work_alloc();
	int ret;

	if (!w)
		return -ENOMEM;
	ret = digest_spans(&w->desc, NULL, spans, n, out);
	kfree_sensitive(w);
	return ret;
}

static void key_pad(u8 *pad, const u8 *key, u8 byte)
{
	unsigned int i;

	memset(pad, byte, SHA1_BLOCK_SIZE);
	for (i = 0; i < SHA1_DIGEST_SIZE; i++)
		pad[i] ^= key[i];
}

/**
 * trusted_hmac() - HMAC-SHA1 over a list of spans
 * @out: SHA1_DIGEST_SIZE bytes
 * @key: a 20-byte key (a TPM 1.2 authorisation value)
 * @spans: the data
 * @n: how many spans
 *
 * Return: 0, -ENOMEM, or the crypto API's error.
 */
int trusted_hmac(u8 *out, const u8 *key, const struct tk_span *spans,
		 unsigned int n)
{
	struct hmac_work *w = trusted_hmac_work_alloc();
	struct tk_span inner;
	int ret;

	if (!w)
		return -ENOMEM;
	key_pad(w->pad, key, 0x36);
	ret = digest_spans(&w->desc, w->pad, spans, n, w->inner);
	if (!ret) {
		key_pad(w->pad, key, 0x5c);
		inner.p = w->inner;
		inner.len = sizeof(w->inner);
		ret = digest_spans(&w->desc, w->pad, &inner, 1, out);
	}
	kfree_sensitive(w);
	return ret;
}

/*
 * The TPM's answer to OSAP or OIAP. Test kernels (CONFIG_FAIL_FUNCTION)
 * can make it fail as for a malformed response.
 */
static noinline int trusted_tpm1_parse_session(const u8 *buf,
					       struct tk1_session *s,
					       bool osap)
{
	return osap ? tk1_parse_osap(buf, PAGE_SIZE, s) :
		      tk1_parse_oiap(buf, PAGE_SIZE, s);
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_tpm1_parse_session, ERRNO);
#endif

/**
 * trusted_tpm1_session() - send the OSAP or OIAP command in @buf, parse it
 * @buf: the command; the response replaces it
 * @s: the session, on success
 * @osap: OSAP, else OIAP
 * @open: set as soon as the TPM has opened the session (flush it then)
 *
 * Return: 0 or a negative errno.
 */
int trusted_tpm1_session(u8 *buf, struct tk1_session *s, bool osap,
			 bool *open)
{
	const char *what = osap ? "OSAP" : "OIAP";
	int rc;

	rc = trusted_tpm_send(buf, what);
	if (rc)
		return trusted_tpm_errno(rc, NULL);
	*open = !tk1_session_handle(buf, PAGE_SIZE, &s->handle);
	rc = trusted_tpm1_parse_session(buf, s, osap);
	return trusted_tpm_errno(rc, rc ? what : NULL);
}

/**
 * trusted_tpm1_oiap() - open an OIAP session
 * @buf: the command buffer
 * @s: the session, on success
 * @open: set as soon as the TPM opened it
 *
 * Return: 0 or a negative errno.
 */
int trusted_tpm1_oiap(u8 *buf, struct tk1_session *s, bool *open)
{
	struct tk_cmd_buf b;
	int ret;

	ret = tk1_build_oiap(&b, buf, PAGE_SIZE);
	if (ret)
		return ret;
	return trusted_tpm1_session(buf, s, false, open);
}

/**
 * trusted_tpm1_param_digest() - the digest an authorisation HMAC covers
 * @out: SHA1(ordinal || params) for a request, SHA1(0 || ordinal ||
 *	 params) for a successful response
 * @ordinal: the command's ordinal
 * @params: its parameters
 * @response: which of the two
 *
 * Return: 0 or a negative errno.
 */
int trusted_tpm1_param_digest(u8 *out, u32 ordinal,
			      const struct tk_span *params, bool response)
{
	__be32 words[2] = { 0, cpu_to_be32(ordinal) };
	struct tk_span spans[2] = {
		{ response ? (u8 *)words : (u8 *)&words[1],
		  response ? 8 : 4 },
		*params,
	};

	return trusted_sha1(out, spans, 2);
}

/**
 * trusted_tpm1_auth_hmac() - HMAC(key, digest || nonce_even || nonce_odd || continue)
 * @out: the HMAC
 * @key: the 20-byte authorisation secret
 * @digest: trusted_tpm1_param_digest()
 * @even: nonceEven
 * @odd: nonceOdd
 * @cont: continueAuthSession, one byte
 *
 * Return: 0 or a negative errno.
 */
int trusted_tpm1_auth_hmac(u8 *out, const u8 *key, const u8 *digest,
			   const u8 *even, const u8 *odd, const u8 *cont)
{
	struct tk_span spans[4] = {
		{ digest, TK1_DIGEST_SIZE },
		{ even, TK1_NONCE_SIZE },
		{ odd, TK1_NONCE_SIZE },
		{ cont, 1 },
	};

	return trusted_hmac(out, key, spans, 4);
}

/**
 * trusted_tpm1_check_response() - verify a response's authorisation HMAC
 * @check: scratch for the expected HMAC
 * @key: the 20-byte authorisation secret
 * @digest: trusted_tpm1_param_digest() of the response
 * @in: the request's trailer (its nonceOdd)
 * @out: the response's trailer
 *
 * Return: 0, -EINVAL (logged) when it does not match, or a negative errno.
 */
int trusted_tpm1_check_response(u8 *check, const u8 *key, const u8 *digest,
				const struct tk1_auth_in *in,
				const struct tk1_auth_out *out)
{
	int ret;

	ret = trusted_tpm1_auth_hmac(check, key, digest, out->nonce_even, in->nonce_odd,
				     &out->cont);
	if (ret)
		return ret;
	if (crypto_memneq(check, out->hmac, TK1_DIGEST_SIZE)) {
		pr_info_ratelimited("TPM response failed its HMAC check\n");
		return -EINVAL;
	}
	return 0;
}
