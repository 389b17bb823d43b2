// SPDX-License-Identifier: GPL-2.0
/*
 * Parents of TPM 2.0 sealed objects.
 *
 * A persistent or transient handle is used as it is, authorised with
 * keyauth=. A permanent (hierarchy) handle stands for the primary key
 * that the TCG provisioning guidance's ECC NIST P-256 storage template
 * derives in that hierarchy: created here, with keyauth= authorising the
 * hierarchy, used with its empty authorisation and flushed after use. The
 * template is fixed and the hierarchy's seed only changes when the TPM is
 * cleared, so the same primary comes back after every reboot.
 *
 * Without keyhandle= the parent is the TCG's persistent storage root key
 * at 0x81000001 when the TPM has one (an RSA or ECC restricted decryption
 * key that is fixedTPM and fixedParent), otherwise that primary in the
 * owner hierarchy; the blob records which (0x81000001 or 0x40000001).
 *
 * A hierarchy's authorisation is exempt from dictionary-attack lockout,
 * so keyauth= for a hierarchy would let anyone guess its password at full
 * speed: the owner and null hierarchies take a non-empty keyauth= only
 * from CAP_SYS_ADMIN (who can send TPM2_CreatePrimary to /dev/tpm0 anyway);
 * the endorsement and platform hierarchies are no parents at all.
 *
 * With sessions (the default) the parent's public area is read (ReadPublic,
 * or CreatePrimary's outPublic) and must be an ECC P-256 or RSA decryption
 * key with a SHA-256 Name, the salt key of the operation's session
 * (docs/tpm2-sessions.md); its Name must be one srk_name= lists when that
 * is set, and its public area the one first seen at the handle since the
 * module was loaded (trust.c; a transient parent, whose handle is reused,
 * only when pinned). Anything else is refused with EKEYREJECTED, never
 * used without a session. A persistent parent so checked is kept for the
 * module's lifetime (parent_cache): later operations send no ReadPublic;
 * if the TPM's key at that handle changed, the salted session fails, and
 * trusted_tpm2_parent_recheck() reads and checks it again.
 */
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "tk_trust.h"
#include "trusted_tpm2.h"

/* Persistent parents checked this boot, by handle (under tpm2_lock). */
static struct trusted_tpm2_parent parent_cache[TK_TRUST_MAX];

#define SRK_ATTRS	(TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT | \
			 TK2_OA_RESTRICTED | TK2_OA_DECRYPT)

/* A TPM 2.0 password is compared without its trailing zeros. */
static struct tk2_auth parent_password(const u8 *value, u16 len)
{
	struct tk2_auth a = { .handle = TK2_RS_PW, .value = value };

	while (len && !value[len - 1])
		len--;
	a.len = len;
	return a;
}

/* A persistent handle names one key for the boot: it may be kept. */
static bool is_persistent(u32 handle)
{
	return handle >> 24 == TK2_HT_PERSISTENT;
}

/* The kept parent at @handle, or NULL. */
static struct trusted_tpm2_parent *parent_cached(u32 handle)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parent_cache); i++)
		if (parent_cache[i].named && parent_cache[i].recorded == handle)
			return &parent_cache[i];
	return NULL;
}

/* Keep a checked persistent parent (its salt key) for later operations. */
static void parent_keep(const struct trusted_tpm2_parent *pa)
{
	struct trusted_tpm2_parent *slot = parent_cached(pa->recorded);
	unsigned int i;

	for (i = 0; !slot && i < ARRAY_SIZE(parent_cache); i++)
		if (!parent_cache[i].named)
			slot = &parent_cache[i];
	if (slot) {
		*slot = *pa;
		slot->flush = false;
		slot->cached = false;
		slot->auth = (struct tk2_auth){ };	/* the request's, not kept */
	}
}

/* Read a kept parent again at its next use. */
static void parent_forget(u32 handle)
{
	struct trusted_tpm2_parent *pa = parent_cached(handle);

	if (pa)
		memzero_explicit(pa, sizeof(*pa));
}

/* A kept parent for this caller: into @pa, true; else false. */
static bool parent_take_cached(u32 handle, struct trusted_tpm2_parent *pa)
{
	const struct trusted_tpm2_parent *c = parent_cached(handle);

	struct tk2_auth auth = pa->auth;	/* this operation's keyauth */

	if (!c || !trusted_trust_known(handle) ||
	    trusted_trust_pin(handle, c->name, sizeof(c->name)) < 0)
		return false;
	*pa = *c;
	pa->auth = auth;
	pa->cached = true;
	return true;
}

/*
 * The parent's public area @pub: it must salt a session (an ECC P-256 or
 * RSA decryption key with a SHA-256 Name) and be the parent we trust
 * (trust.c); then its Name and salt key are taken.
 */
static int take_public(const struct trusted_tpm2_sess *ts,
		       struct trusted_tpm2_parent *pa,
		       const struct tk2_public_area *pub)
{
	static const u8 sha256_alg[2] = { 0x00, 0x0b };
	const u8 *area = pub->area.p;
	u32 len = pub->area.len;
	struct tk2_ecc_key k;
	struct tk2_rsa_key r;
	char why[64];

	pa->named = !tk2_name(&ts->c, area, len, pa->name);
	if (!pa->named) {
		snprintf(why, sizeof(why), "nameAlg 0x%04x cannot salt a SHA-256 session",
			 pub->name_alg);
		return trusted_refuse(pa->recorded, why);
	}
	pa->ecc = !tk2_ecc_public_parse(area, len, &k) &&
		  (k.attrs & TK2_OA_DECRYPT);
	pa->rsa = !pa->ecc && !tk2_rsa_public_parse(area, len, &r) &&
		  (r.attrs & TK2_OA_DECRYPT);
	pa->noda = pub->attrs & TK2_OA_NODA;
	if (!pa->ecc && !pa->rsa)
		return trusted_refuse(pa->recorded,
				      "no ECC P-256 or RSA decryption key: it cannot salt a session");
	if (pa->ecc) {
		memcpy(pa->x, k.x, sizeof(pa->x));
		memcpy(pa->y, k.y, sizeof(pa->y));
	} else {
		memcpy(pa->n, r.n, r.n_len);
		pa->n_len = r.n_len;
		pa->e = r.exponent;
	}
	return trusted_trust_parent(pa->recorded,
				    pa->recorded >> 24 != TK2_HT_TRANSIENT,
				    area, len, sha256_alg, sizeof(sha256_alg));
}

/* A parent's public area, as ReadPublic returned it: kept when persistent. */
static int read_public_area(const struct trusted_tpm2_sess *ts,
			    const struct tk2_public_area *pub,
			    struct trusted_tpm2_parent *pa)
{
	int ret = take_public(ts, pa, pub);

	if (!ret && is_persistent(pa->recorded))
		parent_keep(pa);
	return ret;
}

/* "No such handle" where a key answered this boot is not believed. */
static int parent_missing(u32 handle)
{
	if (trusted_trust_known(handle))
		return trusted_refuse(handle, "no such handle, but it answered earlier");
	pr_info_ratelimited("no parent key at 0x%08x\n", handle);
	return -ENOKEY;
}

/*
 * TPM2_ReadPublic of @handle: 0 with its public area in @pub (pointing
 * into @buf), the TPM's return code (> 0) or a negative errno.
 */
static int read_public(u8 *buf, u32 handle, struct tk2_public_area *pub)
{
	struct tk_cmd_buf b;
	int rc;

	rc = tk2_cmd_read_public(&b, buf, PAGE_SIZE, handle);
	if (rc)
		return rc;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		return rc;
	return tk2_rsp_read_public(buf, PAGE_SIZE, pub);
}

/*
 * ReadPublic of a parent named by keyhandle= or a blob: it must be there;
 * with sessions it is checked and its salt key taken.
 */
static int read_parent(u8 *buf, const struct trusted_tpm2_sess *ts,
		       struct trusted_tpm2_parent *pa)
{
	struct tk2_public_area pub;
	int rc;

	if (is_persistent(pa->handle) && parent_take_cached(pa->handle, pa))
		return 0;
	rc = read_public(buf, pa->handle, &pub);
	if (rc > 0 && (tk2_rc_base(rc) == TK2_RC_HANDLE ||
		       rc == TK2_RC_REFERENCE_H0))
		return parent_missing(pa->recorded);
	if (rc)
		return trusted_tpm_errno(rc, "reading the parent");
	return read_public_area(ts, &pub, pa);
}

/* 1 when the TPM has a storage key at 0x81000001, 0 when it has none. */
static int srk_present(u8 *buf, const struct trusted_tpm2_sess *ts,
		       struct trusted_tpm2_parent *pa)
{
	struct tk2_public_area pub;
	int rc;

	if (ts && parent_take_cached(TK2_SRK_HANDLE, pa))
		return 1;
	rc = read_public(buf, TK2_SRK_HANDLE, &pub);
	if (rc > 0 && tk2_rc_base(rc) == TK2_RC_HANDLE)
		return trusted_trust_known(TK2_SRK_HANDLE) ?
		       trusted_refuse(TK2_SRK_HANDLE,
				      "no such handle, but it answered earlier") : 0;
	if (rc)
		return trusted_tpm_errno(rc, "reading the SRK");
	if ((pub.type != TK2_ALG_RSA && pub.type != TK2_ALG_ECC) ||
	    (pub.attrs & SRK_ATTRS) != SRK_ATTRS) {
		pr_info_ratelimited("0x%08x is not a storage root key (type 0x%04x, attributes 0x%08x)\n",
				    TK2_SRK_HANDLE, pub.type, pub.attrs);
		return -EINVAL;
	}
	if (ts) {
		pa->recorded = TK2_SRK_HANDLE;
		pa->handle = TK2_SRK_HANDLE;
		rc = read_public_area(ts, &pub, pa);
		if (rc)
			return rc;
	}
	return 1;
}

/*
 * An unsalted, unbound HMAC session (its session key is empty, Part 1
 * §19.6.8) for one command: the hierarchy password keys its HMAC and
 * never crosses the bus; the TPM checks the HMAC as it would the password.
 */
static int start_hmac_session(u8 *buf, struct tk2_session *s)
{
	struct tk_span nc = { .p = s->nonce_caller, .len = TK2_SHA256_SIZE };
	struct tk_cmd_buf b;
	int rc;

	s->nonce_caller_len = TK2_SHA256_SIZE;
	get_random_bytes(s->nonce_caller, TK2_SHA256_SIZE);
	rc = tk2_cmd_start_auth_session(&b, buf, PAGE_SIZE, TK2_RH_NULL,
					TK2_RH_NULL, &nc, NULL, TK2_SE_HMAC);
	if (rc)
		goto failed;
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto failed;
	rc = tk2_rsp_start_auth_session(buf, PAGE_SIZE, &s->handle, s);
	if (rc)
		goto flush;
	s->hmac = true;
	s->key_len = 0;
	return 0;

flush:
	/* a malformed response may still have started it */
	if (rc == -EBADMSG && s->handle >> 24 == TK2_HT_HMAC_SESSION)
		trusted_tpm2_flush(buf, s->handle);
failed:
	return trusted_tpm_errno(rc, "starting an HMAC session");
}

/* The HMAC session of one CreatePrimary, keyed by the hierarchy's @auth. */
static struct tk2_session *primary_session(u8 *buf, const struct tk2_auth *auth)
{
	struct tk2_session *s;
	int rc;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	rc = start_hmac_session(buf, s);
	if (rc) {
		kfree_sensitive(s);
		return ERR_PTR(rc);
	}
	memcpy(s->auth, auth->value, auth->len);
	s->auth_len = auth->len;
	s->attrs = 0;		/* the TPM ends it with the command */
	get_random_bytes(s->nonce_caller, TK2_SHA256_SIZE);
	return s;
}

/*
 * CreatePrimary in @hierarchy. With sessions (@c) and a hierarchy
 * password, in an HMAC session; else with the password (in clear).
 * @handle and @pub (its outPublic, in @buf) on success.
 */
static int create_primary(u8 *buf, u32 hierarchy, const struct tk2_auth *auth,
			  const struct tk2_crypto *c, u32 *handle,
			  struct tk2_public_area *pub)
{
	struct tk2_session *s = NULL;
	struct tk_cmd_buf b;
	u8 hname[4];
	struct tk_span name = { .p = hname, .len = sizeof(hname) };
	const char *why;
	int rc;

	if (c && auth->len) {
		s = primary_session(buf, auth);
		if (IS_ERR(s))
			return PTR_ERR(s);
		put_unaligned_be32(hierarchy, hname);	/* a permanent handle's Name */
	}
	rc = tk2_cmd_create_srk(&b, buf, PAGE_SIZE, hierarchy, auth);
	if (rc)
		goto flush_session;
	if (s) {
		rc = tk2_cmd_sessions(c, buf, PAGE_SIZE, 1, &name, &s, 1, &why);
		if (rc) {
			pr_info_ratelimited("CreatePrimary: %s\n", why);
			goto flush_session;
		}
	}
	rc = trusted_tpm_send(buf, NULL);
	if (rc)
		goto flush_session;
	if (s && tk2_rsp_sessions(c, buf, PAGE_SIZE, TK2_CC_CREATE_PRIMARY, 1,
				  &s, 1, &why) < 0) {
		pr_warn_ratelimited("TPM response to CreatePrimary refused: %s\n",
				    why);
		rc = -EBADMSG;
		/* the TPM said success: it made a primary, named here */
		tk2_rsp_handle(buf, PAGE_SIZE, handle);
		goto flush_session;
	}
	/* the session is gone after a successful command */
	rc = tk2_rsp_create_primary(buf, PAGE_SIZE, handle, pub);
	if (rc)
		goto flush_primary;
	kfree_sensitive(s);
	return 0;

flush_session:
	if (s)
		trusted_tpm2_flush(buf, s->handle);
flush_primary:
	/* A malformed response may still have made a primary. */
	if (rc == -EBADMSG && *handle >> 24 == TK2_HT_TRANSIENT)
		trusted_tpm2_flush(buf, *handle);
	kfree_sensitive(s);
	return trusted_tpm_errno(rc, "creating the storage primary");
}

/* May the caller have a primary made in @hierarchy with @auth? */
static int hierarchy_ok(u32 hierarchy, const struct tk2_auth *auth)
{
	if (hierarchy != TK2_RH_OWNER && hierarchy != TK2_RH_NULL) {
		pr_info_ratelimited("parent 0x%08x: only the owner and null hierarchies make parents\n",
				    hierarchy);
		return -EINVAL;
	}
	if (auth->len && !capable(CAP_SYS_ADMIN)) {
		pr_info_ratelimited("parent 0x%08x: a hierarchy password (keyauth=) needs CAP_SYS_ADMIN\n",
				    hierarchy);
		return -EPERM;
	}
	return 0;
}

/**
 * trusted_tpm2_parent_get() - make a parent ready for commands under it
 * @buf: the command buffer
 * @handle: the parent handle (keyhandle= or the blob's)
 * @probe_srk: no keyhandle= on new: 0x81000001 if there, else the owner
 *	hierarchy's primary
 * @o: the options (keyauth=)
 * @ts: with sessions: read the parent's public area, compute and check
 *	its Name (srk_name=, else trust on first use) and take its point;
 *	NULL: as without sessions
 * @pa: the parent, on success
 *
 * trusted_tpm2_parent_put() undoes it.
 *
 * Return: 0 or a negative errno (-EKEYREJECTED: not the parent we trust).
 */
int trusted_tpm2_parent_get(u8 *buf, u32 handle, bool probe_srk,
			    const struct tk_options *o,
			    const struct trusted_tpm2_sess *ts,
			    struct trusted_tpm2_parent *pa)
{
	struct tk2_public_area pub;
	int ret;

	pa->flush = false;
	pa->cached = false;
	pa->named = false;
	pa->ecc = false;
	pa->rsa = false;
	pa->noda = false;	/* unknown: as if DA-protected */
	pa->auth = parent_password(o->keyauth, sizeof(o->keyauth));
	if (probe_srk) {
		ret = srk_present(buf, ts, pa);
		if (ret < 0)
			return ret;
		if (ret) {
			pa->recorded = TK2_SRK_HANDLE;
			pa->handle = TK2_SRK_HANDLE;
			return 0;
		}
		handle = TK2_RH_OWNER;
	}
	pa->recorded = handle;
	pa->handle = handle;
	if (handle >> 24 != TK2_HT_PERMANENT)
		return ts ? read_parent(buf, ts, pa) : 0;

	ret = hierarchy_ok(handle, &pa->auth);
	if (ret)
		return ret;
	ret = create_primary(buf, handle, &pa->auth, ts ? &ts->c : NULL,
			     &pa->handle, &pub);
	if (ret)
		return ret;
	pa->flush = true;
	pa->noda = true;	/* the template's */
	pa->auth = parent_password(NULL, 0);
	if (!ts)
		return 0;
	ret = take_public(ts, pa, &pub);
	if (ret)
		trusted_tpm2_parent_put(buf, pa);
	return ret;
}

/**
 * trusted_tpm2_parent_open() - the parent, and the operation's session
 * @buf: the command buffer
 * @handle: as for trusted_tpm2_parent_get()
 * @probe_srk: as for trusted_tpm2_parent_get()
 * @o: the options: keyauth=, sessions=
 * @ts: the session state, prepared by trusted_tpm2_sess_init() when
 *	o->sessions
 * @pa: the parent, on success
 *
 * With sessions the parent is checked (or kept from an earlier check)
 * and the salted session started (a failure under a kept parent:
 * trusted_tpm2_parent_recheck()). Without sessions (the user's choice)
 * one warning.
 * trusted_tpm2_parent_put() and trusted_tpm2_sess_end() undo it.
 *
 * Return: 0 or a negative errno (nothing held then).
 */
int trusted_tpm2_parent_open(u8 *buf, u32 handle, bool probe_srk,
			     const struct tk_options *o,
			     struct trusted_tpm2_sess *ts,
			     struct trusted_tpm2_parent *pa)
{
	int ret;

	if (!o->sessions) {
		ret = trusted_tpm2_parent_get(buf, handle, probe_srk, o, NULL, pa);
		if (!ret)
			trusted_clear_warn(pa->recorded);
		return ret;
	}
	ret = trusted_tpm2_parent_get(buf, handle, probe_srk, o, ts, pa);
	if (ret)
		return ret;
	ret = trusted_tpm2_sess_start(buf, ts, pa);
	if (ret) {
		ret = trusted_tpm2_parent_recheck(buf, ts, pa, ret);
		trusted_tpm2_parent_put(buf, pa);
	}
	return ret;
}

/**
 * trusted_tpm2_parent_recheck() - after a failure under a kept parent
 * @buf: the command buffer
 * @ts: the operation's session state
 * @pa: the parent
 * @err: the operation's error
 *
 * A kept parent is used without reading it: if the TPM's key at its handle
 * changed, the session's salt or HMAC fails. So on any failure the kept
 * copy is dropped and the parent read and checked again once (ReadPublic
 * only: nothing is retried, no authorisation is tried twice).
 *
 * Return: -EKEYREJECTED when the handle now holds another key or none,
 * else @err.
 */
int trusted_tpm2_parent_recheck(u8 *buf, const struct trusted_tpm2_sess *ts,
				const struct trusted_tpm2_parent *pa, int err)
{
	struct trusted_tpm2_parent *again;
	int ret;

	if (!pa->cached || err == -EKEYREJECTED)
		return err;
	parent_forget(pa->recorded);
	again = kzalloc(sizeof(*again), GFP_KERNEL);
	if (!again)
		return err;
	again->handle = pa->recorded;
	again->recorded = pa->recorded;
	ret = read_parent(buf, ts, again);
	kfree_sensitive(again);
	return ret == -EKEYREJECTED ? ret : err;
}

/**
 * trusted_tpm2_parent_put() - release what trusted_tpm2_parent_get() made
 * @buf: a command buffer to use
 * @pa: the parent; a primary created for the operation is flushed
 */
void trusted_tpm2_parent_put(u8 *buf, struct trusted_tpm2_parent *pa)
{
	if (pa->flush)
		trusted_tpm2_flush(buf, pa->handle);
	pa->flush = false;
}
