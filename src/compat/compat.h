/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels we build against, probed by feature in
 * Kbuild.include. Force-included before every source file of the modules.
 * Core files use only the tk_* names defined here.
 */
#ifndef TK_COMPAT_H
#define TK_COMPAT_H

#ifdef __KERNEL__
#include <linux/tpm.h>

#if !IS_ENABLED(CONFIG_TCG_TPM)
#error "the target kernel has no TPM support (CONFIG_TCG_TPM)"
#endif
#if !IS_ENABLED(CONFIG_KEYS)
#error "the target kernel has no key retention service (CONFIG_KEYS)"
#endif

/*
 * Hold the chip (its ops lock) across a sequence of commands, so that no
 * other TPM user's command or context swap comes between ours.
 */
static inline int tk_tpm_get(struct tpm_chip *chip)
{
	return tpm_try_get_ops(chip);
}

static inline void tk_tpm_put(struct tpm_chip *chip)
{
	tpm_put_ops(chip);
}

/*
 * Send one TPM command held in @buf (PAGE_SIZE bytes, the command's own
 * header gives its length) to a chip held with tk_tpm_get() and leave the
 * response in @buf. Returns a negative errno, or the TPM return code (0
 * on success).
 */
static inline int tk_tpm_transmit_held(struct tpm_chip *chip, u8 *buf)
{
	struct tpm_buf tb = { .data = buf };

#ifdef TK_HAVE_TPM_BUF_LENGTH
	tb.length = be32_to_cpup((__be32 *)(buf + 2));
#endif
	/*
	 * No description: the TPM core then logs nothing and the caller
	 * logs one rate-limited line. (tpm_send(), gone in 6.10, always
	 * logged every TPM error; tpm_transmit_cmd() is exported by every
	 * kernel we support.)
	 */
	return tpm_transmit_cmd(chip, &tb, 0, NULL);
}

/* One command on its own: get, transmit, put. */
static inline int tk_tpm_transmit(struct tpm_chip *chip, u8 *buf)
{
	int rc = tk_tpm_get(chip);

	if (rc)
		return rc;
	rc = tk_tpm_transmit_held(chip, buf);
	tk_tpm_put(chip);
	return rc;
}

#endif /* __KERNEL__ */
#endif /* TK_COMPAT_H */
