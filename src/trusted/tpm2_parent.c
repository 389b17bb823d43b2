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
 */
#include <linux/capability.h>
#include <linux/errno.h>
#include "tpm2.h"

#define ALG_RSA		0x0001
#define SRK_ATTRS	(TK2_OA_FIXEDTPM | TK2_OA_FIXEDPARENT | \
			 TK2_OA_RESTRICTED | TK2_OA_DECRYPT)

/* A TPM 2.0 password is compared without its trailing zeros. */
static struct tk2_auth password(const u8 *value, u16 len)
{
	struct tk2_auth a = { .handle = TK2_RS_PW, .value = value };

	while (len && !value[len - 1])
		len--;
	a.len = len;
	return a;
}

void trusted_tpm2_flush(u8 *buf, u32 handle)
{
	struct tk_cmd_buf b;
	int rc;

	rc = tk2_cmd_flush(&b, buf, PAGE_SIZE, handle);
	rc = rc ?: trusted_tpm_send(buf, NULL);
	rc = rc ?: tk2_rsp_empty(buf, PAGE_SIZE);
	if (rc)
		pr_warn_ratelimited("flushing handle 0x%08x failed (%d)\n",
				    handle, rc);
}

/* 1 when the TPM has a storage key at 0x81000001, 0 when it has none. */
static int srk_present(u8 *buf)
{
	struct tk_cmd_buf b;
	u32 attrs;
	u16 type;
	int rc;

	rc = tk2_cmd_read_public(&b, buf, PAGE_SIZE, TK2_SRK_HANDLE);
	rc = rc ?: trusted_tpm_send(buf, NULL);
	if (rc > 0 && tk2_rc_base(rc) == TK2_RC_HANDLE)
		return 0;
	rc = rc ?: tk2_rsp_read_public(buf, PAGE_SIZE, &type, &attrs);
	if (rc)
		return trusted_tpm_errno(rc, "reading the SRK");
	if ((type != ALG_RSA && type != TK2_ALG_ECC) ||
	    (attrs & SRK_ATTRS) != SRK_ATTRS) {
		pr_info_ratelimited("0x%08x is not a storage root key (type 0x%04x, attributes 0x%08x)\n",
				    TK2_SRK_HANDLE, type, attrs);
		return -EINVAL;
	}
	return 1;
}

static int create_primary(u8 *buf, u32 hierarchy, const struct tk2_auth *auth,
			  u32 *handle)
{
	struct tk_cmd_buf b;
	int rc;

	rc = tk2_cmd_create_srk(&b, buf, PAGE_SIZE, hierarchy, auth);
	rc = rc ?: trusted_tpm_send(buf, NULL);
	rc = rc ?: tk2_rsp_create_primary(buf, PAGE_SIZE, handle);
	if (!rc)
		return 0;
	/* A malformed response may still have made a primary. */
	if (rc == -EBADMSG && *handle >> 24 == TK2_HT_TRANSIENT)
		trusted_tpm2_flush(buf, *handle);
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

/*
 * Make @handle ready as a parent, or, with @probe_srk, the default parent.
 * trusted_tpm2_parent_put() undoes it.
 */
int trusted_tpm2_parent_get(u8 *buf, u32 handle, bool probe_srk,
			    const struct tk_options *o,
			    struct trusted_tpm2_parent *pa)
{
	int ret;

	pa->flush = false;
	pa->auth = password(o->keyauth, sizeof(o->keyauth));
	if (probe_srk) {
		ret = srk_present(buf);
		if (ret < 0)
			return ret;
		handle = ret ? TK2_SRK_HANDLE : TK2_RH_OWNER;
	}
	pa->recorded = handle;
	pa->handle = handle;
	if (handle >> 24 != TK2_HT_PERMANENT)
		return 0;

	ret = hierarchy_ok(handle, &pa->auth);
	ret = ret ?: create_primary(buf, handle, &pa->auth, &pa->handle);
	if (ret)
		return ret;
	pa->flush = true;
	pa->auth = password(NULL, 0);
	return 0;
}

void trusted_tpm2_parent_put(u8 *buf, struct trusted_tpm2_parent *pa)
{
	if (pa->flush)
		trusted_tpm2_flush(buf, pa->handle);
	pa->flush = false;
}
