// SPDX-License-Identifier: GPL-2.0
/*
 * The TPM transport: one chip reference, taken at module load or, on a
 * machine whose TPM driver came later, at the first operation that finds
 * one, and held until the module goes, with the ops of its version
 * (trusted_tpm_ops(): tpm1.c's or tpm2.c's, the only place either is
 * named); page-sized command buffers, the one exchange (fault-injectable),
 * TPM return codes as errnos, the GetRandom loop, PCR locking, and the
 * handle of the session kept between operations (module parameter
 * "session"). It builds no TPM command of either version.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/tpm.h>
#include "trusted.h"
#include "tk_rc.h"

/* The session kept between operations (TPM 2.0 HMAC, TPM 1.2 transport). */
static u32 kept_session;

static int session_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "0x%08x\n", READ_ONCE(kept_session));
}

static const struct kernel_param_ops session_ops = {
	.get = session_get,
};
module_param_cb(session, &session_ops, NULL, 0444);
MODULE_PARM_DESC(session, "The TPM session kept between operations (0: none)");

/**
 * trusted_set_kept() - record which session is kept between operations
 * @handle: its handle, or 0
 */
void trusted_set_kept(u32 handle)
{
	WRITE_ONCE(kept_session, handle);
}

/* Set once (published with release semantics after ops), then fixed. */
static struct tpm_chip *chip;
static const struct trusted_tpm_ops *ops;
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
	if (ret >= 0) {
		ops = ret ? &trusted_tpm2_ops : &trusted_tpm1_ops;
		ret = ops->init ? ops->init() : 0;
	}
	if (ret < 0) {
		put_device(&c->dev);
		return ret;
	}
	/* pairs with trusted_tpm_present(): ops is set before chip */
	smp_store_release(&chip, c);
	return 0;
}

/**
 * trusted_tpm_init() - take a reference on the default TPM at module load
 *
 * The version's ops are chosen and their .init run.
 *
 * Return: 0, -ENODEV without a TPM (then trusted_tpm_present() looks again
 * at each operation), or tpm_is_tpm2()'s or .init's error.
 */
int trusted_tpm_init(void)
{
	return find_chip();
}

/**
 * trusted_tpm_exit() - undo the version's ops and drop the TPM at unload
 */
void trusted_tpm_exit(void)
{
	if (!chip)
		return;
	if (ops->exit)
		ops->exit();
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

	/* pairs with find_chip(): a chip seen here has its ops */
	if (smp_load_acquire(&chip))
		return true;
	mutex_lock(&chip_lock);
	found = chip || !find_chip();
	mutex_unlock(&chip_lock);
	if (found)
		pr_info_once("found a TPM %s after module load\n",
			     ops->version);
	return found;
}

/**
 * trusted_tpm_ops() - the sealing of the TPM found
 *
 * Meaningful once trusted_tpm_present() returned true.
 *
 * Return: the operations of the TPM's version, or NULL before a TPM was
 * found.
 */
const struct trusted_tpm_ops *trusted_tpm_ops(void)
{
	/* pairs with find_chip() */
	return smp_load_acquire(&chip) ? ops : NULL;
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

#ifdef TK_HAVE_EI_ETYPE_NONE
#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_tpm_exchange, NONE);
#endif
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
		return tk_rc_errno(rc, ops->tpm2);
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

/**
 * trusted_tpm_draw() - fill a buffer with random bytes, a chunk at a time
 * @out: the buffer
 * @len: its length
 * @chunk: one GetRandom of the TPM's version: at most @n bytes into @to,
 *	   the count or a negative errno
 * @ctx: @chunk's context
 *
 * The one GetRandom loop of both versions (plain, in a TPM 2.0 session,
 * in a TPM 1.2 transport): the TPM may hand out fewer bytes a call; it is
 * asked again, at most 16 times.
 *
 * Return: 0, -EIO when the TPM gave too little, or @chunk's errno.
 */
int trusted_tpm_draw(u8 *out, size_t len,
		     int (*chunk)(void *ctx, u8 *to, u32 n), void *ctx)
{
	size_t done = 0;
	int tries = 16, n;

	while (done < len && tries--) {
		n = chunk(ctx, out + done, min_t(size_t, len - done, U32_MAX));
		if (n < 0)
			return n;
		if ((size_t)n > len - done)
			return -EIO;
		done += n;
	}
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
