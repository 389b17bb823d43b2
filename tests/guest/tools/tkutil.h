/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest programs tkfault, tkfuzz and tkstress: the key
 * syscalls without libkeyutils, the errnos add_key(2)/keyctl(2) document,
 * and raw TPM commands through /dev/tpm0 (handle counts, flushes).
 * Header-only: each program is one static binary (tests/qemu/mkinitramfs.sh).
 */
#ifndef TKUTIL_H
#define TKUTIL_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#ifndef TK_TPM_DEV
#define TK_TPM_DEV "/dev/tpm0"	/* host tests point it elsewhere */
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline long t_add_key(const char *type, const char *desc,
			      const void *data, size_t len, int32_t ring)
{
	return syscall(SYS_add_key, type, desc, data, len, ring);
}

static inline long t_keyctl(int cmd, unsigned long a2, unsigned long a3,
			     unsigned long a4, unsigned long a5)
{
	return syscall(SYS_keyctl, cmd, a2, a3, a4, a5);
}

/* Read key @id into @buf (NUL-terminated); returns its length or -1. */
static inline long t_read(int32_t id, char *buf, size_t size)
{
	long n = t_keyctl(KEYCTL_READ, id, (unsigned long)buf, size - 1, 0);

	if (n < 0)
		return -1;
	if ((size_t)n >= size) {
		errno = E2BIG;
		return -1;
	}
	buf[n] = 0;
	return n;
}

/*
 * The errnos add_key(2) and keyctl(2) document, plus those the key types'
 * documentation names (EBADMSG is not among them: a caller cannot expect
 * it, so it is not allowed).
 */
static inline int t_errno_allowed(int e)
{
	static const int ok[] = {
		ENOMEM, EIO, EINVAL, EPERM, EACCES, EKEYREJECTED, ENODEV,
		EBUSY, EAGAIN, ENOKEY, EKEYREVOKED, EKEYEXPIRED, EOPNOTSUPP,
		EDQUOT, E2BIG, EINTR,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++)
		if (e == ok[i])
			return 1;
	return 0;
}

static inline const char *t_errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case ERANGE: return "ERANGE";
	case ENODATA: return "ENODATA";
	case EBADMSG: return "EBADMSG";
	case EOVERFLOW: return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EDQUOT: return "EDQUOT";
	case ENOKEY: return "ENOKEY";
	case EKEYEXPIRED: return "EKEYEXPIRED";
	case EKEYREVOKED: return "EKEYREVOKED";
	case EKEYREJECTED: return "EKEYREJECTED";
	case 524: return "ENOTSUPP(524)";
	default: return "E?";
	}
}

/* --- raw TPM commands through /dev/tpm0 ------------------------------- */

static inline uint32_t t_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static inline void t_put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* One command; the response in @rsp. Returns its length or -1. */
static inline int t_tpm(const unsigned char *cmd, size_t len,
			 unsigned char *rsp, size_t size)
{
	int fd = open(TK_TPM_DEV, O_RDWR);
	ssize_t n;

	if (fd < 0)
		return -1;
	if (write(fd, cmd, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	n = read(fd, rsp, size);
	close(fd);
	return n < 10 ? -1 : (int)n;
}

/*
 * The handles of one kind the TPM holds: TPM 2.0 by the top byte @mso
 * (0x80 transient, 0x02 loaded and 0x03 saved sessions), TPM 1.2 the
 * authorisation sessions (TPM_RT_AUTH; @mso ignored). Up to @max into
 * @h (may be NULL). Returns the count or -1.
 */
static inline int t_handles(int tpm2, unsigned int mso, uint32_t *h, int max)
{
	unsigned char c[22], r[4096];
	int n, cnt, i, off;

	if (tpm2) {
		static const unsigned char t[] = {
			0x80, 0x01, 0, 0, 0, 22, 0, 0, 0x01, 0x7a,
			0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x40 };
		memcpy(c, t, sizeof(t));
		c[14] = mso;
		n = t_tpm(c, sizeof(t), r, sizeof(r));
		off = 15;
		if (n < 19 || t_be32(r + 6))
			return -1;
		cnt = t_be32(r + off);
		off += 4;
	} else {
		static const unsigned char t[] = {
			0x00, 0xc1, 0, 0, 0, 22, 0, 0, 0, 0x65,
			0, 0, 0, 0x14, 0, 0, 0, 4, 0, 0, 0, 2 };
		memcpy(c, t, sizeof(t));
		n = t_tpm(c, sizeof(t), r, sizeof(r));
		off = 14;
		if (n < 16 || t_be32(r + 6))
			return -1;
		cnt = r[off] << 8 | r[off + 1];
		off += 2;
	}
	for (i = 0; h && i < cnt && i < max && off + 4 * i + 4 <= n; i++)
		h[i] = t_be32(r + off + 4 * i);
	return cnt;
}

/* Flush one handle (TPM2_FlushContext; TPM 1.2 TPM_FlushSpecific, AUTH). */
static inline int t_flush(int tpm2, uint32_t h)
{
	unsigned char c[18], r[64];

	if (tpm2) {
		static const unsigned char t[] = {
			0x80, 0x01, 0, 0, 0, 14, 0, 0, 0x01, 0x65 };
		memcpy(c, t, sizeof(t));
		t_put32(c + 10, h);
		return t_tpm(c, 14, r, sizeof(r)) < 0 || t_be32(r + 6) ? -1 : 0;
	}
	static const unsigned char t1[] = {
		0x00, 0xc1, 0, 0, 0, 18, 0, 0, 0, 0xba };
	memcpy(c, t1, sizeof(t1));
	t_put32(c + 10, h);
	t_put32(c + 14, 2);
	return t_tpm(c, 18, r, sizeof(r)) < 0 || t_be32(r + 6) ? -1 : 0;
}

/* TPM leftovers as one number: transient + loaded + saved (1.2: auth). */
/*
 * The session our trusted.ko keeps between TPM 2.0 operations (its
 * parameter session=, issue 22): 0 when none, or not ours.
 */
static inline uint32_t t_kept_session(void)
{
	FILE *f = fopen("/sys/module/trusted/parameters/session", "r");
	unsigned int h = 0;

	if (f) {
		if (fscanf(f, "%x", &h) != 1)
			h = 0;
		fclose(f);
	}
	return h;
}

/*
 * How many of the @n handles in @h are the kept session @kept, loaded or
 * saved (a saved session may be listed under either kind: its slot).
 */
static inline int t_kept_among(const uint32_t *h, int n, uint32_t kept)
{
	int i, k = 0;

	for (i = 0; kept && i < n && i < 64; i++)
		if ((h[i] & 0xffffff) == (kept & 0xffffff))
			k++;
	return k;
}

static inline int t_leftovers(int tpm2)
{
	uint32_t h[64], s[64], kept;
	int a, b, c;

	if (!tpm2)
		return t_handles(0, 0, NULL, 0);
	a = t_handles(1, 0x80, NULL, 0);
	b = t_handles(1, 0x02, h, 64);
	c = t_handles(1, 0x03, s, 64);
	if (a < 0 || b < 0 || c < 0)
		return -1;
	kept = t_kept_session();	/* between operations: saved */
	return a + b - t_kept_among(h, b, kept) + c - t_kept_among(s, c, kept);
}

/* Flush every transient object and session (1.2: auth session). */
static inline void t_flush_all(int tpm2)
{
	static const unsigned int kinds[] = { 0x80, 0x02, 0x03 };
	uint32_t h[64];
	int k, i, n;

	for (k = 0; k < (tpm2 ? 3 : 1); k++) {
		n = t_handles(tpm2, kinds[k], h, 64);
		for (i = 0; i < n && i < 64; i++)
			t_flush(tpm2, h[i]);
	}
}

#endif /* TKUTIL_H */
