// SPDX-License-Identifier: GPL-2.0
/*
 * The TPM transport: one chip reference, taken at module load or, on a
 * machine whose TPM driver came later, at the first operation that finds
 * one, and held until the module goes; page-sized command buffers, TPM
 * return codes as errnos, random numbers and PCR locking.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/tpm.h>
#include "trusted.h"
#include "tk_rc.h"
#include "tk2_msg.h"

/* Set once (published with release semantics after is_tpm2), then fixed. */
static struct tpm_chip *chip;
static bool is_tpm2;
static DEFINE_MUTEX(chip_lock);
/* The task that holds the chip across a sequence (trusted_tpm_hold()). */
static struct task_struct *holder;

static int find_chip(void)
{
	struct tpm_chip *c;
	int ret;

	c = tpm_default_chip();
	if (!c)
		return -ENODEV;
	ret = tpm_is_tpm2(c);
	if (ret < 0) {
		put_device(&c->dev);
		return ret;
	}
	is_tpm2 = ret;
	/* pairs with trusted_tpm_present(): is_tpm2 is set before chip */
	smp_store_release(&chip, c);
	return 0;
}

/**
 * trusted_tpm_init() - take a reference on the default TPM at module load
 *
 * Return: 0, -ENODEV without a TPM (then trusted_tpm_present() looks again
 * at each operation), or tpm_is_tpm2()'s error.
 */
int trusted_tpm_init(void)
{
	return find_chip();
}

/**
 * trusted_tpm_exit() - drop the reference on the TPM at module unload
 */
void trusted_tpm_exit(void)
{
	if (chip)
		put_device(&chip->dev);
	chip = NULL;
}

/**
 * trusted_tpm_present() - whether there is a TPM to work with
 *
 * Without one at module load, each call looks again, so a TPM whose
 * driver is loaded after this module is picked up at its first use.
 *
 * Return: true once a TPM was found (then for the module's lifetime).
 */
bool trusted_tpm_present(void)
{
	bool found;

	/* pairs with find_chip(): a chip seen here has its is_tpm2 */
	if (smp_load_acquire(&chip))
		return true;
	mutex_lock(&chip_lock);
	found = chip || !find_chip();
	mutex_unlock(&chip_lock);
	if (found)
		pr_info_once("found a TPM %s after module load\n",
			     is_tpm2 ? "2.0" : "1.2");
	return found;
}

/**
 * trusted_tpm_ops() - the sealing of the TPM found
 *
 * Meaningful once trusted_tpm_present() returned true.
 *
 * Return: the TPM 2.0 or the TPM 1.2 operations.
 */
const struct trusted_tpm_ops *trusted_tpm_ops(void)
{
	return is_tpm2 ? &trusted_tpm2_ops : &trusted_tpm1_ops;
}

/**
 * trusted_tpm_is_tpm2() - whether the TPM found is a TPM 2.0
 *
 * Meaningful once trusted_tpm_present() returned true.
 *
 * Return: true for a TPM 2.0, false for a TPM 1.2.
 */
bool trusted_tpm_is_tpm2(void)
{
	return is_tpm2;
}

#ifdef TK_HAVE_TPM_BUF_INLINE
/*
 * The TPM core's struct tpm_buf holds its data: ours is the data of one,
 * initialized at TPM_BUFSIZE (the most the core takes) in an allocation of
 * PAGE_SIZE bytes of data, which our writers and readers stay within. The
 * core reads and writes no more than the capacity that leaves: a command
 * longer fails (-E2BIG), a response longer is refused.
 */
static struct tpm_buf *to_tpm_buf(u8 *buf)
{
	return (struct tpm_buf *)(buf - offsetof(struct tpm_buf, data));
}

/**
 * trusted_tpm_buf_alloc() - a zeroed command buffer
 *
 * Return: PAGE_SIZE bytes, or NULL. Free with trusted_tpm_buf_free().
 */
u8 *trusted_tpm_buf_alloc(void)
{
	struct tpm_buf *tb;

	tb = kzalloc(struct_size(tb, data, PAGE_SIZE), GFP_KERNEL);
	if (!tb)
		return NULL;
	tpm_buf_init(tb, TPM_BUFSIZE);
	if (tb->flags & TPM_BUF_INVALID) {
		kfree_sensitive(tb);
		return NULL;
	}
	return tb->data;
}

/**
 * trusted_tpm_buf_free() - wipe and free a command buffer
 * @buf: from trusted_tpm_buf_alloc(), or NULL
 */
void trusted_tpm_buf_free(u8 *buf)
{
	if (buf)
		kfree_sensitive(to_tpm_buf(buf));
}
#else
/**
 * trusted_tpm_buf_alloc() - a zeroed command buffer
 *
 * The TPM core reads and writes a whole page of a command buffer.
 *
 * Return: PAGE_SIZE bytes, or NULL. Free with trusted_tpm_buf_free().
 */
u8 *trusted_tpm_buf_alloc(void)
{
	return kzalloc(PAGE_SIZE, GFP_KERNEL);
}

/**
 * trusted_tpm_buf_free() - wipe and free a command buffer
 * @buf: from trusted_tpm_buf_alloc(), or NULL
 */
void trusted_tpm_buf_free(u8 *buf)
{
	kfree_sensitive(buf);
}
#endif

/*
 * Send one TPM command held in @buf (PAGE_SIZE bytes, the command's own
 * header gives its length) to the chip, held by the caller with
 * tpm_try_get_ops(), and leave the response in @buf. No description: the
 * TPM core then logs nothing and the caller logs one rate-limited line.
 * Returns a negative errno, or the TPM return code (0 on success).
 */
static int trusted_tpm_transmit_held(u8 *buf)
{
#ifdef TK_HAVE_TPM_BUF_INLINE
	struct tpm_buf *tb = to_tpm_buf(buf);

	tb->length = min_t(u32, be32_to_cpup((__be32 *)(buf + 2)), tb->capacity);
	return tpm_transmit_cmd(chip, tb, 0, NULL);
#else
	struct tpm_buf tb = { .data = buf };

#ifdef TK_HAVE_TPM_BUF_LENGTH
	/* since 6.10 struct tpm_buf carries the command's length */
	tb.length = be32_to_cpup((__be32 *)(buf + 2));
#endif
	return tpm_transmit_cmd(chip, &tb, 0, NULL);
#endif
}

/* One command on its own: get the chip, transmit, put it. */
static int trusted_tpm_transmit(u8 *buf)
{
	int rc = tpm_try_get_ops(chip);

	if (rc)
		return rc;
	rc = trusted_tpm_transmit_held(buf);
	tpm_put_ops(chip);
	return rc;
}

/*
 * One exchange with the TPM core. Test kernels (CONFIG_FAIL_FUNCTION) can
 * make it return any value without sending anything, as the TPM core
 * would report a TPM's return code: fail_function, see tests/guest.
 */
static noinline int trusted_tpm_exchange(u8 *buf)
{
	if (READ_ONCE(holder) == current)
		return trusted_tpm_transmit_held(buf);
	return trusted_tpm_transmit(buf);
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_tpm_exchange, NONE);
#endif

/**
 * trusted_tpm_hold() - keep the TPM to ourselves for a sequence of commands
 *
 * Until trusted_tpm_release(), every command this task sends goes to the
 * TPM with the chip held (tpm_try_get_ops()), so no other TPM user's
 * command, and no resource manager's context swap, comes between ours:
 * the transient objects and sessions of one key operation are never seen
 * by anyone else. Anything that may load a module (crypto allocations)
 * must come before. Not nested.
 *
 * Return: 0, or a negative errno (no TPM, or it went away).
 */
int trusted_tpm_hold(void)
{
	int rc;

	if (!chip)
		return -ENODEV;
	rc = tpm_try_get_ops(chip);
	if (rc)
		return rc;
	WRITE_ONCE(holder, current);
	return 0;
}

/**
 * trusted_tpm_release() - end trusted_tpm_hold()
 */
void trusted_tpm_release(void)
{
	WRITE_ONCE(holder, NULL);
	tpm_put_ops(chip);
}

/**
 * trusted_tpm_send() - one exchange with the TPM
 * @buf: the command; the response replaces it
 * @what: the command's name for the log, or NULL when the caller logs
 *
 * Callers turn a TPM return code into an errno with trusted_tpm_errno()
 * after naming it in the log as @what. The TPM core returns the TPM's
 * 32-bit code as an int: a code of 0x80000000 and up comes back negative,
 * and one near 0xffffffff looks like an errno. Those are no TPM return
 * codes (TK_TPM_RC_MAX): -EIO.
 *
 * Return: 0, a negative errno, or the TPM's positive return code.
 */
int trusted_tpm_send(u8 *buf, const char *what)
{
	int rc = trusted_tpm_exchange(buf);

	if (rc < 0 && (rc < -MAX_ERRNO ||
		       (u32)rc == get_unaligned_be32(buf + 6))) {
		pr_info_ratelimited("%s: not a TPM return code: 0x%08x\n",
				    what ?: "TPM command", (u32)rc);
		return -EIO;
	}
	if (!what)
		return rc;
	if (rc > 0)
		pr_info_ratelimited("%s: TPM error %d\n", what, rc);
	else if (rc < 0)
		pr_info_ratelimited("%s: transmit failed (%d)\n", what, rc);
	return rc;
}

/**
 * trusted_tpm_errno() - what user space is told about a failed exchange
 * @rc: trusted_tpm_send()'s or a response parser's result: 0, a negative
 *	errno (-EBADMSG: a malformed response), or the TPM's return code
 * @what: the step, for one rate-limited log line; NULL logs nothing
 *
 * The one place TPM return codes become errnos, for both TPM versions:
 * tk_rc_errno()'s table (src/lib/tk_rc.c, docs/trusted-tpm2.md).
 *
 * Return: 0 or a negative errno.
 */
int trusted_tpm_errno(int rc, const char *what)
{
	if (rc > 0) {
		if (what)
			pr_info_ratelimited("%s: TPM error 0x%03x\n", what, rc);
		return tk_rc_errno(rc, is_tpm2);
	}
	if (rc == -EBADMSG) {
		if (what)
			pr_info_ratelimited("%s: malformed TPM response\n", what);
		return -EIO;
	}
	if (rc < 0 && what)
		pr_info_ratelimited("%s: failed (%d)\n", what, rc);
	return rc < -MAX_ERRNO ? -EIO : rc;
}

/*
 * One TPM2_GetRandom in our own buffer (so the bytes are wiped with it,
 * unlike the TPM core's): at most @len bytes into @out, or an errno.
 */
static int tpm_random_chunk(u8 *buf, u8 *out, u32 len)
{
	struct tk_cmd_buf b;
	struct tk_span got;
	int rc;

	rc = tk2_cmd_get_random(&b, buf, PAGE_SIZE,
				min_t(u32, len, TK2_DIGEST_MAX));
	if (rc)
		return trusted_tpm_errno(rc, NULL);
	rc = trusted_tpm_send(buf, "GetRandom");
	if (rc)
		return trusted_tpm_errno(rc, NULL);
	if (tk2_rsp_get_random(buf, PAGE_SIZE, &got) || got.len > len)
		return -EIO;
	memcpy(out, got.p, got.len);
	return got.len;
}

/**
 * trusted_tpm_random() - fill a buffer from a TPM 2.0's random number generator
 * @out: the buffer
 * @len: its length
 * @o: the key's options (unused: outside a session, GetRandom is plain)
 *
 * For sessions=0 on a TPM 2.0 (in a session, tpm2.c draws the key itself;
 * a TPM 1.2 draws it inside its transport, trusted_tpm1_random_in()).
 * The TPM may hand out fewer bytes a call; it is asked again.
 *
 * Return: 0, -ENOMEM, -EIO when the TPM gave too little, or an exchange's
 * errno.
 */
int trusted_tpm_random(u8 *out, size_t len, const struct tk_options *o)
{
	size_t done = 0;
	int tries = 16, n = 0;
	u8 *buf;

	if (WARN_ON_ONCE(!is_tpm2))
		return -ENODEV;
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

/**
 * trusted_tpm_pcrlock() - extend a PCR with random values in every bank
 * @pcr: the PCR
 *
 * Nothing sealed to its current value unseals again until the next boot.
 *
 * Return: 0, -ENOMEM, or -EINVAL when the TPM refused the extend.
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
ALLOW_ERROR_INJECTION(trusted_tpm_pcrlock, ERRNO);

/**
 * trusted_tpm1_flush() - release a TPM 1.2 session an exchange left open
 * @buf: a command buffer to use
 * @handle: the session's handle
 * @type: its resource type (TK1_RT_AUTH, TK1_RT_TRANS)
 */
void trusted_tpm1_flush(u8 *buf, u32 handle, u32 type)
{
	struct tk_cmd_buf b;

	tk_cmd_start(&b, buf, PAGE_SIZE, TK1_TAG_RQU_COMMAND,
		     TK1_ORD_FLUSH_SPECIFIC);
	tk_cmd_u32(&b, handle);
	tk_cmd_u32(&b, type);
	if (tk_cmd_end(&b))
		return;
	/* not through trusted_tpm_exchange(): no fault injected here */
	if (READ_ONCE(holder) == current)
		trusted_tpm_transmit_held(buf);
	else
		trusted_tpm_transmit(buf);
}
