// SPDX-License-Identifier: GPL-2.0
/*
 * "TPM return codes as errnos". Every 32-bit code maps to 0 or a negative errno of the table
 * in tk_rc.c; codes above 0xfff (a negative int included) are EIO.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "tk_test.h"
#include "tk_rc.h"

static void test_tpm2_table(void)
{
	CHECK_EQ(tk_rc_errno(0, true), 0);
	CHECK_EQ(tk_rc_errno(0x98e, true), -EACCES);	/* AUTH_FAIL, session 1 */
	CHECK_EQ(tk_rc_errno(0x08e, true), -EACCES);	/* AUTH_FAIL */
	CHECK_EQ(tk_rc_errno(0x9a2, true), -EACCES);	/* BAD_AUTH */
	CHECK_EQ(tk_rc_errno(0x99d, true), -EPERM);	/* POLICY_FAIL, session 1 */
	CHECK_EQ(tk_rc_errno(0x1df, true), -EKEYREJECTED);	/* INTEGRITY, parameter 1 */
	CHECK_EQ(tk_rc_errno(0x9df, true), -EKEYREJECTED);	/* INTEGRITY, session 1 */
	CHECK_EQ(tk_rc_errno(0x084, true), -EPERM);	/* VALUE (PolicyPCR's digest) */
	CHECK_EQ(tk_rc_errno(0x126, true), -EPERM);	/* POLICY (PolicyNV) */
	CHECK_EQ(tk_rc_errno(0x128, true), -EPERM);	/* PCR_CHANGED */
	CHECK_EQ(tk_rc_errno(0x902, true), -EAGAIN);
	CHECK_EQ(tk_rc_errno(0x903, true), -EAGAIN);
	CHECK_EQ(tk_rc_errno(0x922, true), -EAGAIN);
	CHECK_EQ(tk_rc_errno(0x921, true), -EBUSY);
	CHECK_EQ(tk_rc_errno(0x101, true), -EIO);
	CHECK_EQ(tk_rc_errno(0x1000, true), -EIO);
}

static void test_tpm1_table(void)
{
	CHECK_EQ(tk_rc_errno(0, false), 0);
	CHECK_EQ(tk_rc_errno(0x01, false), -EACCES);	/* TPM_AUTHFAIL */
	CHECK_EQ(tk_rc_errno(0x1d, false), -EACCES);	/* TPM_AUTH2FAIL */
	CHECK_EQ(tk_rc_errno(0x13, false), -EKEYREJECTED);	/* TPM_NOTSEALED_BLOB */
	CHECK_EQ(tk_rc_errno(0x21, false), -EKEYREJECTED);	/* TPM_DECRYPT_ERROR */
	CHECK_EQ(tk_rc_errno(0x18, false), -EPERM);	/* TPM_WRONGPCRVAL */
	CHECK_EQ(tk_rc_errno(0x15, false), -EAGAIN);	/* TPM_RESOURCES */
	CHECK_EQ(tk_rc_errno(0x800, false), -EAGAIN);	/* TPM_RETRY */
	CHECK_EQ(tk_rc_errno(0x803, false), -EBUSY);	/* DEFEND_LOCK_RUNNING */
	CHECK_EQ(tk_rc_errno(0x09, false), -EIO);	/* TPM_FAIL */
	CHECK_EQ(tk_rc_errno(0x1000, false), -EIO);
}

/* Whatever the TPM sends, the result is 0 or a valid -errno. */
static void test_every_code_is_an_errno(void)
{
	static const u32 edges[] = {
		0x1, 0xfff, 0x1000, 0x7fffffff, 0x80000000, 0x80000001,
		0xfffff000, 0xfffff001, 0xfffffffe, 0xffffffff,
	};
	unsigned int i, bad = 0;
	u32 rc;
	int e;

	for (rc = 1; rc <= 0x2000; rc++) {
		e = tk_rc_errno(rc, rc & 1);
		bad += !(e < 0 && e >= -4095);
		e = tk_rc_errno(rc, !(rc & 1));
		bad += !(e < 0 && e >= -4095);
	}
	CHECK_EQ(bad, 0);
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		CHECK_EQ(tk_rc_errno(edges[i], true), edges[i] > 0xfff ? -EIO : -EPERM);
		CHECK_EQ(tk_rc_errno(edges[i], false), edges[i] > 0xfff ? -EIO :
			 edges[i] == 0x1 ? -EACCES : -EPERM);
	}
}

int main(void)
{
	RUN(test_tpm2_table);
	RUN(test_tpm1_table);
	RUN(test_every_code_is_an_errno);
	return tk_test_done();
}
