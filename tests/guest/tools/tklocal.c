// SPDX-License-Identifier: GPL-2.0
/*
 * tklocal: the local user of the guest tests (tests/guest/disk/40-local.sh).
 *
 *   tklocal [-u UID] run CMD [ARG...]   exec CMD as UID (gid UID, no
 *                                       supplementary groups, no
 *                                       capabilities), keeping the
 *                                       caller's keyrings: a second user
 *                                       in the same session
 *   tklocal [-u UID] algbind SERIAL     AF_ALG: bind xts(aes) to key SERIAL
 *                                       (ALG_SET_KEY_BY_KEY_SERIAL, 6.2+)
 *                                       and encrypt one block with it;
 *                                       prints the ciphertext in hex
 *
 * Errors are one line "tklocal: WHAT: strerror" (what t_errno matches),
 * exit 1. Static (t_static_tool): the guest has busybox only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif
#ifndef ALG_SET_KEY_BY_KEY_SERIAL
#define ALG_SET_KEY_BY_KEY_SERIAL 7
#endif

static int fail(const char *what)
{
	fprintf(stderr, "tklocal: %s: %s\n", what, strerror(errno));
	return 1;
}

static int drop(const char *uid_s)
{
	char *end;
	long uid = strtol(uid_s, &end, 10);

	if (*end || uid <= 0) {
		fprintf(stderr, "tklocal: bad uid %s\n", uid_s);
		return 1;
	}
	if (setgroups(0, NULL))
		return fail("setgroups");
	if (setresgid(uid, uid, uid))
		return fail("setresgid");
	if (setresuid(uid, uid, uid))
		return fail("setresuid");
	return 0;
}

static int algbind(const char *serial_s)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 16)] = { 0 };
	unsigned char in[16] = { 0 }, out[16];
	struct iovec iov = { .iov_base = in, .iov_len = sizeof(in) };
	struct msghdr msg = {
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	struct af_alg_iv *iv;
	struct cmsghdr *c;
	int32_t serial = (int32_t)strtol(serial_s, NULL, 0);
	int fd, op;
	size_t i;

	strcpy((char *)sa.salg_type, "skcipher");
	strcpy((char *)sa.salg_name, "xts(aes)");
	fd = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return fail("socket AF_ALG");
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return fail("bind xts(aes)");
	if (setsockopt(fd, SOL_ALG, ALG_SET_KEY_BY_KEY_SERIAL, &serial,
		       sizeof(serial)))
		return fail("setsockopt ALG_SET_KEY_BY_KEY_SERIAL");
	op = accept(fd, NULL, NULL);
	if (op < 0)
		return fail("accept");
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	*(uint32_t *)CMSG_DATA(c) = ALG_OP_ENCRYPT;
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(*iv) + 16);
	iv = (struct af_alg_iv *)CMSG_DATA(c);
	iv->ivlen = 16;
	memset(iv->iv, 0, 16);
	if (sendmsg(op, &msg, 0) != sizeof(in))
		return fail("sendmsg");
	if (read(op, out, sizeof(out)) != sizeof(out))
		return fail("read");
	for (i = 0; i < sizeof(out); i++)
		printf("%02x", out[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int a = 1;

	if (argc > 3 && !strcmp(argv[1], "-u")) {
		if (drop(argv[2]))
			return 1;
		a = 3;
	}
	if (argc > a + 1 && !strcmp(argv[a], "run")) {
		execvp(argv[a + 1], argv + a + 1);
		return fail(argv[a + 1]);
	}
	if (argc == a + 2 && !strcmp(argv[a], "algbind"))
		return algbind(argv[a + 1]);
	fprintf(stderr, "usage: tklocal [-u UID] run CMD [ARG...] | algbind SERIAL\n");
	return 2;
}
