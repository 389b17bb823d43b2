// SPDX-License-Identifier: GPL-2.0
/*
 * encbench: encrypted key operations per second, run in the test guest.
 *
 * Calls add_key(2) and keyctl(2) directly (no libkeyutils, no process per
 * operation) against whichever encrypted-keys implementation is loaded;
 * tests/guest/bench-enc swaps the modules between runs and
 * tests/qemu/bench-enc.sh turns the lines into a table.
 *
 * usage: encbench bench LABEL MS   new/read/load of encrypted keys of 32
 *                                  and 4096 bytes under a user: master
 *        encbench user LABEL MS    add of user keys of the same sizes
 *                                  (the floor of "new")
 *        encbench check N          N rounds of new, read, load, read-back
 *                                  at both sizes; exit 0 when all agree
 * A measurement runs its operation in batches until MS milliseconds have
 * passed and prints "# bench LABEL OP SIZE OPS NS" (KTAP diagnostic).
 * Keys live in a keyring "encbench" in the session keyring, cleared
 * between batches outside the timing; the master is the user key
 * "encbench_m" (32 random bytes) in the session keyring.
 *
 * Built static on the host by tests/qemu/mkinitramfs.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#define MASTER_DESC	"encbench_m"
#define BATCH		16
#define BLOB_MAX	16384
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const unsigned int sizes[] = { 32, 4096 };

static long add_key(const char *type, const char *desc, const void *data,
		    size_t len, int32_t ring)
{
	return syscall(SYS_add_key, type, desc, data, len, ring);
}

static long keyctl(int cmd, unsigned long a2, unsigned long a3,
		   unsigned long a4)
{
	return syscall(SYS_keyctl, cmd, a2, a3, a4, 0UL);
}

static void die(const char *what)
{
	fprintf(stderr, "encbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int32_t ring;
static char cmd_new[64], blob[BLOB_MAX], cmd_load[BLOB_MAX + 8];
static unsigned char user_data[4096];
static int32_t read_id;
static size_t read_len;	/* the blob's length: one read as keyutils does it */
static unsigned int cur_size;

/* One operation; i numbers it within its batch. Returns <0 on failure. */
typedef long (*op_fn)(unsigned int i);

static long op_new(unsigned int i)
{
	char d[16];

	snprintf(d, sizeof(d), "n%u", i);
	return add_key("encrypted", d, cmd_new, strlen(cmd_new), ring);
}

static long op_read(unsigned int i)
{
	(void)i;
	return keyctl(KEYCTL_READ, read_id, (unsigned long)blob, read_len);
}

static long op_load(unsigned int i)
{
	char d[16];

	snprintf(d, sizeof(d), "l%u", i);
	return add_key("encrypted", d, cmd_load, strlen(cmd_load), ring);
}

static long op_user(unsigned int i)
{
	char d[16];

	snprintf(d, sizeof(d), "u%u", i);
	return add_key("user", d, user_data, cur_size, ring);
}

static void clear_ring(void)
{
	if (keyctl(KEYCTL_CLEAR, ring, 0, 0) < 0)
		die("keyctl clear");
}

/* Batches of op until ms have passed (after one untimed batch); keys made are dropped between batches. */
static void measure(const char *label, const char *name, op_fn op, int drop,
		    unsigned int ms)
{
	uint64_t spent = 0, ops = 0, t0;
	unsigned int i;

	/*
	 * One batch untimed first: the first operation after a module load
	 * pays one-time costs (crypto modules requested through modprobe,
	 * caches) that belong to whichever implementation happens to run
	 * first, not to the operation.
	 */
	for (i = 0; i < BATCH; i++)
		if (op(i) < 0)
			die(name);
	if (drop)
		clear_ring();
	while (spent < (uint64_t)ms * 1000000u) {
		t0 = now_ns();
		for (i = 0; i < BATCH; i++)
			if (op(i) < 0)
				die(name);
		spent += now_ns() - t0;
		ops += BATCH;
		if (drop)
			clear_ring();
	}
	printf("# bench %s %s %u %llu %llu\n", label, name, cur_size,
	       (unsigned long long)ops, (unsigned long long)spent);
	fflush(stdout);
}

/* A new encrypted key of cur_size bytes named desc; its blob in blob. */
static int32_t make_key(const char *desc)
{
	long id, n;

	id = add_key("encrypted", desc, cmd_new, strlen(cmd_new), ring);
	if (id < 0)
		die("add_key encrypted new");
	n = keyctl(KEYCTL_READ, id, (unsigned long)blob, sizeof(blob) - 1);
	if (n < 0)
		die("keyctl read");
	if (n >= (long)sizeof(blob) - 1) {
		fprintf(stderr, "encbench: blob of %ld bytes does not fit\n", n);
		exit(1);
	}
	blob[n] = '\0';
	read_len = n;
	return id;
}

static void set_size(unsigned int size)
{
	cur_size = size;
	snprintf(cmd_new, sizeof(cmd_new), "new user:%s %u", MASTER_DESC, size);
}

static void setup(void)
{
	unsigned char m[32];
	long id;

	for (size_t i = 0; i < sizeof(m); i++)
		m[i] = (unsigned char)rand();
	for (size_t i = 0; i < sizeof(user_data); i++)
		user_data[i] = (unsigned char)rand();
	id = add_key("user", MASTER_DESC, m, sizeof(m),
		     KEY_SPEC_SESSION_KEYRING);
	if (id < 0)
		die("add_key user master (is there a session keyring?)");
	id = add_key("keyring", "encbench", NULL, 0, KEY_SPEC_SESSION_KEYRING);
	if (id < 0)
		die("add_key keyring");
	ring = (int32_t)id;
	clear_ring();
}

static void teardown(void)
{
	clear_ring();
	keyctl(KEYCTL_UNLINK, ring, KEY_SPEC_SESSION_KEYRING, 0);
}

static int bench(const char *label, unsigned int ms)
{
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		set_size(sizes[s]);
		measure(label, "new", op_new, 1, ms);
		read_id = make_key("r");
		measure(label, "read", op_read, 0, ms);
		snprintf(cmd_load, sizeof(cmd_load), "load %s", blob);
		measure(label, "load", op_load, 1, ms);
		clear_ring();
	}
	return 0;
}

static int user(const char *label, unsigned int ms)
{
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		set_size(sizes[s]);
		measure(label, "new", op_user, 1, ms);
	}
	return 0;
}

/* Round trips: a loaded blob reads back byte for byte; the blob names its master. */
static int check(unsigned int rounds)
{
	static char first[BLOB_MAX];
	char head[64];
	int bad = 0;

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		set_size(sizes[s]);
		for (unsigned int r = 0; r < rounds; r++) {
			clear_ring();
			make_key("c");
			snprintf(head, sizeof(head), "default user:%s %u ",
				 MASTER_DESC, cur_size);
			if (strncmp(blob, head, strlen(head))) {
				fprintf(stderr, "encbench: blob starts '%.40s', not '%s'\n",
					blob, head);
				bad = 1;
			}
			strcpy(first, blob);
			snprintf(cmd_load, sizeof(cmd_load), "load %s", blob);
			if (op_load(r) < 0)
				die("add_key encrypted load");
			snprintf(head, sizeof(head), "l%u", r);
			read_id = keyctl(KEYCTL_SEARCH, ring,
					 (unsigned long)"encrypted",
					 (unsigned long)head);
			if (read_id < 0)
				die("keyctl search");
			memset(blob, 0, sizeof(blob));
			if (op_read(0) != (long)read_len)
				die("keyctl read of the loaded key");
			if (strcmp(first, blob)) {
				fprintf(stderr, "encbench: %u bytes: loaded key reads back differently\n",
					cur_size);
				bad = 1;
			}
			if (op_user(r) < 0)
				die("add_key user");
		}
		clear_ring();
		printf("# encbench check: %u bytes, %u rounds: %s\n", cur_size,
		       rounds, bad ? "FAILED" : "ok");
	}
	return bad;
}

int main(int argc, char **argv)
{
	int ret;

	srand((unsigned int)now_ns());
	if (argc == 4 && !strcmp(argv[1], "bench")) {
		setup();
		ret = bench(argv[2], (unsigned int)atoi(argv[3]));
	} else if (argc == 4 && !strcmp(argv[1], "user")) {
		setup();
		ret = user(argv[2], (unsigned int)atoi(argv[3]));
	} else if (argc == 3 && !strcmp(argv[1], "check")) {
		setup();
		ret = check((unsigned int)atoi(argv[2]));
	} else {
		fputs("usage: encbench bench LABEL MS | user LABEL MS | check N\n",
		      stderr);
		return 2;
	}
	teardown();
	return ret;
}
