// SPDX-License-Identifier: GPL-2.0
/*
 * The TPM transport: one chip reference held for the module's lifetime,
 * page-sized command buffers, random numbers and PCR locking.
 */
#include <linux/errno.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/tpm.h>
#include "trusted.h"

#define TK1_ORD_FLUSH_SPECIFIC	0x000000ba
#define TK1_ORD_GET_RANDOM	0x00000046
#define TK1_RT_AUTH		0x00000002

static struct tpm_chip *chip;
static bool is_tpm2;

int trusted_tpm_init(void)
{
	int ret;

	chip = tpm_default_chip();
	if (!chip)
		return -ENODEV;
	ret = tpm_is_tpm2(chip);
	if (ret < 0) {
		put_device(&chip->dev);
		chip = NULL;
		return ret;
	}
	is_tpm2 = ret;
	return 0;
}

void trusted_tpm_exit(void)
{
	if (chip)
		put_device(&chip->dev);
	chip = NULL;
}

bool trusted_tpm_present(void)
{
	return chip;
}

bool trusted_tpm_is_tpm2(void)
{
	return is_tpm2;
}

/* The TPM core reads and writes a whole page of a command buffer. */
u8 *trusted_tpm_buf_alloc(void)
{
	return kzalloc(PAGE_SIZE, GFP_KERNEL);
}

void trusted_tpm_buf_free(u8 *buf)
{
	kfree_sensitive(buf);
}

/*
 * Send the command in @buf; the response replaces it. Returns 0, a
 * negative errno, or the TPM's positive return code, which callers turn
 * into an errno after naming it in the log as @what (NULL: the caller
 * logs what went wrong itself).
 */
int trusted_tpm_send(u8 *buf, const char *what)
{
	int rc = tk_tpm_transmit(chip, buf);

	if (!what)
		return rc;
	if (rc > 0)
		pr_info_ratelimited("%s: TPM error %d\n", what, rc);
	else if (rc < 0)
		pr_info_ratelimited("%s: transmit failed (%d)\n", what, rc);
	return rc;
}

/*
 * One TPM_GetRandom / TPM2_GetRandom in our own buffer (so the bytes are
 * wiped with it, unlike the TPM core's): at most @len bytes into @out.
 */
static int tpm_random_chunk(u8 *buf, u8 *out, u32 len)
{
	struct tk_rsp_buf r;
	struct tk_cmd_buf b;
	const u8 *p;
	u32 n;
	int rc;

	if (is_tpm2) {
		tk_cmd_start(&b, buf, PAGE_SIZE, TPM2_ST_NO_SESSIONS,
			     TPM2_CC_GET_RANDOM);
		tk_cmd_u16(&b, min_t(u32, len, TPM2_MAX_DIGEST_SIZE));
	} else {
		tk_cmd_start(&b, buf, PAGE_SIZE, TK1_TAG_RQU_COMMAND,
			     TK1_ORD_GET_RANDOM);
		tk_cmd_u32(&b, len);
	}
	rc = tk_cmd_end(&b) ?: trusted_tpm_send(buf, "GetRandom");
	if (rc)
		return rc > 0 ? -EIO : rc;
	rc = tk_rsp_open(&r, buf, PAGE_SIZE, is_tpm2 ? TPM2_ST_NO_SESSIONS :
			 TK1_TAG_RSP_COMMAND);
	if (rc)
		return -EIO;
	n = is_tpm2 ? tk_rsp_u16(&r) : tk_rsp_u32(&r);
	p = tk_rsp_bytes(&r, n);
	if (tk_rsp_end(&r) || n > len)
		return -EIO;
	memcpy(out, p, n);
	return n;
}

/* Fill @out from the TPM's RNG; the TPM may hand out fewer bytes a call. */
int trusted_tpm_random(u8 *out, size_t len)
{
	size_t done = 0;
	int tries = 16, n = 0;
	u8 *buf;

	buf = trusted_tpm_buf_alloc();
	if (!buf)
		return -ENOMEM;
	while (done < len && tries--) {
		n = tpm_random_chunk(buf, out + done, len - done);
		if (n < 0)
			break;
		done += n;
	}
	trusted_tpm_buf_free(buf);
	if (n < 0)
		return n;
	return done == len ? 0 : -EIO;
}

/* Extend @pcr in every bank with a random value: nothing sealed to its
 * current value unseals again until the next boot.
 */
int trusted_tpm_pcrlock(u32 pcr)
{
	struct tpm_digest *digests;
	int i, ret;

	digests = kcalloc(chip->nr_allocated_banks, sizeof(*digests),
			  GFP_KERNEL);
	if (!digests)
		return -ENOMEM;
	for (i = 0; i < chip->nr_allocated_banks; i++) {
		digests[i].alg_id = chip->allocated_banks[i].alg_id;
		get_random_bytes(digests[i].digest,
				 chip->allocated_banks[i].digest_size);
	}
	ret = tpm_pcr_extend(chip, pcr, digests);
	kfree(digests);
	if (ret) {
		pr_info_ratelimited("pcrlock of PCR %u failed (%d)\n", pcr, ret);
		return -EINVAL;
	}
	return 0;
}

/* Release an authorisation session a failed exchange left open. */
void trusted_tpm1_flush_auth(u8 *buf, u32 handle)
{
	struct tk_cmd_buf b;

	tk_cmd_start(&b, buf, PAGE_SIZE, TK1_TAG_RQU_COMMAND,
		     TK1_ORD_FLUSH_SPECIFIC);
	tk_cmd_u32(&b, handle);
	tk_cmd_u32(&b, TK1_RT_AUTH);
	if (!tk_cmd_end(&b))
		tk_tpm_transmit(chip, buf);
}
