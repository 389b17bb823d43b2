// SPDX-License-Identifier: GPL-2.0
/*
 * Whether an operation may trust the TPM bus: the module parameters that
 * say so, and the parents trusted this boot (src/lib/tk_trust.c).
 *
 * With sessions (the default) every operation checks its parent: the
 * pinned one (srk_name= for TPM 2.0, srk_pub= for TPM 1.2) when a pin is
 * set, else the one first seen at that handle since the module was
 * loaded. A parent that cannot be checked, or cannot protect the bus, is
 * refused (EKEYREJECTED, one warning naming the handle and the reason):
 * we never fall back to clear. Going without sessions is the user's
 * choice (sessions=0 per key, or this module's sessions=0 as the
 * default), warned about at every operation, and require_sessions=1
 * takes that choice away. The parents= file lists what was trusted, in
 * the form the pins take: what enrolment writes to /etc/modprobe.d; the
 * session= file the session kept between operations (tests tell it from
 * a leftover).
 */
#include <crypto/algapi.h>
#include <crypto/sha2.h>
#include <linux/capability.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/user_namespace.h>
#include "trusted.h"
#include "tk_hex.h"
#include "tk_trust.h"

static bool sessions = true;
module_param(sessions, bool, 0644);
MODULE_PARM_DESC(sessions, "Default of the sessions= option (protect the TPM bus); 0 only for a TPM that cannot");

static bool require_sessions;
module_param(require_sessions, bool, 0644);
MODULE_PARM_DESC(require_sessions, "Refuse sessions=0");

/* Up to PINS_MAX pins, comma-separated: one per parent a machine uses. */
#define PINS_MAX	4
#define PINS_SIZE	(PINS_MAX * (2 * TRUSTED_PIN_MAX + 1) + 1)

static char srk_name[PINS_SIZE];
module_param_string(srk_name, srk_name, sizeof(srk_name), 0644);
MODULE_PARM_DESC(srk_name, "TPM 2.0: the only parent Names (hex, as tpm2_readpublic -n prints them; up to 4, comma-separated) sessions accept");

static char srk_pub[PINS_SIZE];
module_param_string(srk_pub, srk_pub, sizeof(srk_pub), 0644);
MODULE_PARM_DESC(srk_pub, "TPM 1.2: SHA-256 of the SRK public key (TPM_PUBKEY, hex) the transport accepts; comma-separated for several");

static DEFINE_MUTEX(trust_lock);
static struct tk_trust table;

/* Whether the TPM found (if any) is a TPM 2.0: its pins are Names. */
static bool trust_tpm2(void)
{
	const struct trusted_tpm_ops *ops = trusted_tpm_ops();

	return ops && ops->tpm2;
}

/* One line per record: the handle and its pin, as parents= shows it. */
static int parents_get(char *buf, const struct kernel_param *kp)
{
	const char *name_alg = trust_tpm2() ? "000b" : "";
	const struct tk_trust_rec *r;
	int n = 0, i, j;

	mutex_lock(&trust_lock);
	for (i = 0; i < TK_TRUST_MAX; i++) {
		r = &table.rec[i];
		if (!r->used)
			continue;
		n += scnprintf(buf + n, PAGE_SIZE - n, "0x%08x %s", r->handle,
			       name_alg);
		for (j = 0; j < TK_TRUST_DIGEST_SIZE; j++)
			n += scnprintf(buf + n, PAGE_SIZE - n, "%02x",
				       r->digest[j]);
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s\n",
			       r->privileged ? "" : " (unprivileged)");
	}
	mutex_unlock(&trust_lock);
	return n;
}

static const struct kernel_param_ops parents_ops = {
	.get = parents_get,
};
module_param_cb(parents, &parents_ops, NULL, 0444);
MODULE_PARM_DESC(parents, "The parents trusted since the module was loaded: handle and pin");

/* Does a record made now bind root (CAP_SYS_ADMIN, not audited)? */
static bool trusted_privileged(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/**
 * trusted_refuse() - refuse an operation for its parent
 * @handle: the parent handle
 * @why: the reason
 *
 * Return: -EKEYREJECTED.
 */
int trusted_refuse(u32 handle, const char *why)
{
	pr_warn_ratelimited("parent 0x%08x refused: %s\n", handle, why);
	return -EKEYREJECTED;
}

/**
 * trusted_sessions_option() - apply the module's say to sessions=
 * @o: the parsed options; sessions is set to the default when not given
 *
 * Return: 0, or -EPERM for sessions=0 under require_sessions=1.
 */
int trusted_sessions_option(struct tk_options *o)
{
	if (!tk_opt_given(o, TK_OPT_SESSIONS))
		o->sessions = READ_ONCE(sessions);
	if (o->sessions || !READ_ONCE(require_sessions))
		return 0;
	pr_info_ratelimited("refused: sessions=0 while require_sessions is set\n");
	return -EPERM;
}

/**
 * trusted_clear_warn() - the warning of an operation without sessions
 * @handle: its parent
 */
void trusted_clear_warn(u32 handle)
{
	pr_warn_ratelimited("parent 0x%08x: sessions=0: key material crosses the TPM bus in clear\n",
			    handle);
}

/*
 * Is @form (@len bytes) among the pins of @param: 1 yes, 0 when none is
 * set, -ENOKEY when it is not, -EINVAL when a pin is malformed.
 */
static int pin_match(const char *param, const u8 *form, u32 len)
{
	char s[PINS_SIZE], *rest, *one;
	u8 pin[TRUSTED_PIN_MAX];
	int ret = 0, n;

	kernel_param_lock(THIS_MODULE);
	memcpy(s, param, sizeof(s));
	kernel_param_unlock(THIS_MODULE);
	s[sizeof(s) - 1] = '\0';
	rest = strim(s);		/* a pin is one word: no blank inside */
	if (strpbrk(rest, " \t\n"))
		return -EINVAL;
	if (!*rest)
		return 0;
	while ((one = strsep(&rest, ","))) {
		n = strlen(one);
		if (!n || n % 2 || n > 2 * TRUSTED_PIN_MAX ||
		    tk_hex_decode(pin, sizeof(pin), one, n) != n / 2)
			return -EINVAL;
		if (n / 2 == len && !crypto_memneq(pin, form, len))
			ret = 1;
		else if (ret == 0)
			ret = -ENOKEY;
	}
	return ret;
}

/**
 * trusted_trust_pin() - check a parent against the pins
 * @handle: the parent handle
 * @form: what a pin must be: TPM 2.0 the parent's Name, TPM 1.2 the
 *	SHA-256 of its TPM_PUBKEY
 * @len: its length
 *
 * Return: 1 when pins are set and @form is one, 0 when none is set, or
 * -EKEYREJECTED (one warning) for a parent no pin names, or a malformed
 * pin.
 */
int trusted_trust_pin(u32 handle, const u8 *form, u32 len)
{
	bool tpm2 = trust_tpm2();
	int ret = pin_match(tpm2 ? srk_name : srk_pub, form, len);

	if (ret == -EINVAL)
		return trusted_refuse(handle, tpm2 ? "srk_name is not a list of Names in hex" :
				      "srk_pub is not a list of digests in hex");
	if (ret < 0)
		return trusted_refuse(handle, tpm2 ? "not a key srk_name pins" :
				      "not a key srk_pub pins");
	return ret;
}

/**
 * trusted_trust_parent() - check a parent's public area, record it
 * @handle: the parent handle
 * @record: the handle names one key for the boot (persistent, permanent,
 *	the TPM 1.2 SRK); a transient handle is accepted only when pinned
 * @area: the public area the TPM answered with (TPM 2.0 TPMT_PUBLIC, TPM
 *	1.2 TPM_PUBKEY)
 * @len: its length
 * @prefix: what comes before the SHA-256 digest of @area in its pin form
 *	(TPM 2.0: the nameAlg 000b, as in a Name; the caller refuses areas
 *	of another nameAlg before, since they cannot salt our sessions)
 * @prefix_len: its length, 0 for TPM 1.2
 *
 * Return: 0, or -EKEYREJECTED (one warning) for a parent not trusted.
 */
int trusted_trust_parent(u32 handle, bool record, const u8 *area, u32 len,
			 const u8 *prefix, u32 prefix_len)
{
	u8 form[TRUSTED_PIN_MAX];
	u8 *digest = form + prefix_len;
	enum tk_trust_verdict v;
	int pinned;

	if (prefix_len + TK_TRUST_DIGEST_SIZE > sizeof(form))
		return -EINVAL;
	memcpy(form, prefix, prefix_len);
	sha256(area, len, digest);
	pinned = trusted_trust_pin(handle, form,
				   prefix_len + TK_TRUST_DIGEST_SIZE);
	if (pinned < 0)
		return pinned;
	if (!record)	/* its handle is reused: nothing to compare with */
		return pinned ? 0 : trusted_refuse(handle,
			"a transient parent cannot be checked: pin it (srk_name=, srk_pub=) or make it persistent");
	mutex_lock(&trust_lock);
	if (pinned)	/* the pin decides: what was seen before does not */
		tk_trust_forget(&table, handle);
	v = tk_trust_check(&table, handle, digest,
			   pinned || trusted_privileged());
	mutex_unlock(&trust_lock);
	if (v == TK_TRUST_REPLACED)
		pr_notice_ratelimited("parent 0x%08x: an unprivileged caller's record replaced\n",
				      handle);
	return tk_trust_why(v) ? trusted_refuse(handle, tk_trust_why(v)) : 0;
}

/**
 * trusted_trust_known() - did a handle answer with a key this boot
 * @handle: the parent handle
 *
 * Return: true when a record binds this caller: a later "no such handle"
 * there is an interposer's or a changed TPM's, and is refused.
 */
bool trusted_trust_known(u32 handle)
{
	bool known;

	mutex_lock(&trust_lock);
	known = tk_trust_binds(tk_trust_find(&table, handle),
			       trusted_privileged());
	mutex_unlock(&trust_lock);
	return known;
}
