// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing on a TPM 2.0: not implemented yet.
 */
#include <linux/errno.h>
#include "trusted.h"

int trusted_tpm2_seal(struct trusted_key_payload *p,
		      const struct tk_options *o)
{
	pr_info_ratelimited("TPM 2.0 sealing is not supported yet\n");
	return -EOPNOTSUPP;
}

int trusted_tpm2_unseal(struct trusted_key_payload *p,
			const struct tk_options *o)
{
	pr_info_ratelimited("TPM 2.0 unsealing is not supported yet\n");
	return -EOPNOTSUPP;
}
