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
 * at 0x81000001 when the TPM has one, otherwise that primary in the owner
 * hierarchy; the blob records which (0x81000001 or 0x40000001).
 */
#include <linux/errno.h>
#include "tpm2.h"

/* A TPM 2.0 password is compared without its trailing zeros. */
static struct tk2_auth password(const u8 *value, u16 len)
{
	struct tk2_auth a = { .handle = TK2_RS_PW, .value = value };

	while (len && !value[len - 1])
		len--;
	a.len = len;
	return a;
}

/* A TPM error, a malformed response or a transport error, as an errno. */
int trusted_tpm2_errno(int rc, const char *what)
{
	if (rc > 0) {
		pr_info_ratelimited("%s: TPM error 0x%03x\n", what, rc);
		return -EPERM;
	}
	if (rc == -EBADMSG) {
		pr_info_ratelimited("%s: malformed TPM response\n", what);
		return -EIO;
	}
	if (rc < 0)
		pr_info_ratelimited("%s: failed (%d)\n", what, rc);
	return rc;
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
		return trusted_tpm2_errno(rc, "reading the SRK");
	if ((attrs & (TK2_OA_RESTRICTED | TK2_OA_DECRYPT)) !=
	    (TK2_OA_RESTRICTED | TK2_OA_DECRYPT)) {
		pr_info_ratelimited("0x%08x is not a storage key\n",
				    TK2_SRK_HANDLE);
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
	return trusted_tpm2_errno(rc, "creating the storage primary");
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

	ret = create_primary(buf, handle, &pa->auth, &pa->handle);
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
