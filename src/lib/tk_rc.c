// SPDX-License-Identifier: GPL-2.0
/*
 * TPM return codes as errnos, for both TPM versions (TPM Main Part 2
 * section 16 for TPM 1.2; TPM 2.0 Library Part 2, TPM_RC).
 *
 *   class                          TPM 1.2             TPM 2.0             errno
 *   success                        0                   0                   0
 *   out of slots or memory         0x011, 0x015        0x902..0x906        -EAGAIN
 *   busy, retry later              0x800..0x802        0x908..0x90a,
 *                                                      0x920, 0x922, 0x923 -EAGAIN
 *   dictionary-attack lockout      0x803               0x921               -EBUSY
 *   the TPM cannot work            0x006, 0x007,       0x100, 0x101,
 *                                  0x009, 0x01c        0x153               -EIO
 *   not a return code              above 0xfff         above 0xfff         -EIO
 *   a wrong authorisation value    0x001, 0x01d        AUTH_FAIL,
 *   (keyauth, blobauth, a PIN)                         BAD_AUTH            -EACCES
 *   not this TPM's blob (it fails  0x013, 0x021        INTEGRITY           -EKEYREJECTED
 *   its integrity check)
 *   any other code: a refusal      (PCRs, policy, ...)                     -EPERM
 *
 * EPERM for a refusal is what the in-tree modules return for every TPM
 * error; the two classes above it give the caller the cause: another
 * PIN may open an EACCES, nothing but another TPM or blob an
 * EKEYREJECTED (a signature check's errno elsewhere in the kernel), and
 * an EPERM waits for the boot the key is sealed to.
 * A 0xfff-bounded code cannot collide with a negative int, so a caller
 * can hand any u32 the TPM sent here.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "tk_rc.h"

/* TPM 2.0: format-one codes carry a handle/session/parameter number. */
#define TK2_RC_FMT1	0x080
#define TK2_RC_WARN	0x900

static int tk2_errno(u32 rc)
{
	/* parameter, handle or session errors: the number of it stripped */
	if (rc & TK2_RC_FMT1) {
		switch (rc & (TK2_RC_FMT1 | 0x3f)) {
		case 0x08e:		/* AUTH_FAIL */
		case 0x0a2:		/* BAD_AUTH */
			return -EACCES;
		case 0x09f:		/* INTEGRITY */
			return -EKEYREJECTED;
		default:
			return -EPERM;
		}
	}
	switch (rc) {
	case 0x902 ... 0x906:	/* OBJECT_MEMORY, SESSION_MEMORY, MEMORY, *_HANDLES */
	case 0x908 ... 0x90a:	/* YIELDED, CANCELED, TESTING */
	case 0x920:		/* NV_RATE */
	case 0x922:		/* RETRY */
	case 0x923:		/* NV_UNAVAILABLE */
		return -EAGAIN;
	case 0x921:		/* LOCKOUT */
		return -EBUSY;
	case 0x100:		/* INITIALIZE */
	case 0x101:		/* FAILURE */
	case 0x153:		/* NEEDS_TEST */
		return -EIO;
	default:
		return -EPERM;
	}
}

static int tk1_errno(u32 rc)
{
	switch (rc) {
	case 0x011:		/* TPM_NOSPACE: no room to load a key */
	case 0x015:		/* TPM_RESOURCES */
	case 0x800 ... 0x802:	/* TPM_RETRY, NEEDS_SELFTEST, DOING_SELFTEST */
		return -EAGAIN;
	case 0x803:		/* TPM_DEFEND_LOCK_RUNNING */
		return -EBUSY;
	case 0x001:		/* TPM_AUTHFAIL */
	case 0x01d:		/* TPM_AUTH2FAIL */
		return -EACCES;
	case 0x013:		/* TPM_NOTSEALED_BLOB */
	case 0x021:		/* TPM_DECRYPT_ERROR */
		return -EKEYREJECTED;
	case 0x006:		/* TPM_DEACTIVATED */
	case 0x007:		/* TPM_DISABLED */
	case 0x009:		/* TPM_FAIL */
	case 0x01c:		/* TPM_FAILEDSELFTEST */
		return -EIO;
	default:
		return -EPERM;
	}
}

/**
 * tk_rc_errno() - the errno user space gets for a TPM return code
 * @rc: the code from the response header, as the TPM sent it
 * @tpm2: a TPM 2.0 sent it (else a TPM 1.2)
 *
 * Return: 0 for success, else a negative errno (table above).
 */
int tk_rc_errno(u32 rc, bool tpm2)
{
	if (!rc)
		return 0;
	if (rc > TK_TPM_RC_MAX)
		return -EIO;
	return tpm2 ? tk2_errno(rc) : tk1_errno(rc);
}
