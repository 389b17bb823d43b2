// SPDX-License-Identifier: GPL-2.0
/*
 * tkfault: systematic fault injection into one key operation, in the test
 * guest (CONFIG_FAULT_INJECTION, FAILSLAB, FAIL_FUNCTION).
 *
 * usage: tkfault [options] KIND OPS MODE
 *   KIND  trusted | enc-user | enc-trusted (encrypted under a user: or a
 *         trusted: master)
 *   OPS   comma-separated: new,load,update,read,revoke,unlink (or all)
 *   MODE  nth   the Nth fault site this task reaches fails, N stepping
 *               through the whole space (/proc/thread-self/fail-nth):
 *               every slab allocation (failslab, also those that may
 *               sleep) and every fail_function point named by -F
 *         exch  the Kth TPM exchange (trusted_tpm_exchange, fail_function
 *               with space=K times=1) returns -r; no task filter (it never
 *               fired in the 6.1 test kernel): nothing else in the guest
 *               seals trusted keys meanwhile
 *   -s STRIDE  step of N/K (default 1); -o FIRST (default 1); -m MAX
 *   -t TPM     1.2 | 2.0 | none: which TPM to check for leftover handles
 *   -x OPTS    options of trusted new/load/update (keyhandle=...)
 *   -F F1,F2   fail_function points armed in nth mode
 *   -r RETVAL  what the exchange returns in exch mode, as debugfs takes it
 *              (an unsigned 64-bit number; default 0xfffffffffffffffb, -EIO)
 *   -T N       exch mode: leftover TPM handles are tolerated when one of
 *              the last N exchanges failed, default 0: on TPM 2.0 the last
 *              exchange is a TPM2_FlushContext (skipping it leaves what it
 *              would flush); on TPM 1.2 a command failing with a TPM error
 *              code ends its authorisation sessions in the TPM, so a skipped
 *              last command "failing" with -r leaves them open
 *
 * For every injected fault: the errno is one add_key(2)/keyctl(2) document,
 * a failed operation changed nothing (the keyring's contents, the key's
 * payload, its state), a fault the kernel absorbed still gave the right
 * result, and the TPM holds as many objects and sessions as before.
 * Output: "# " lines, one summary per operation
 *   # faults KIND OP MODE: runs R injected I failed F absorbed A tolerated L violations V
 * and one line per violation; exit 1 when there was any.
 * Keys live in a keyring "tkf" (cleared after every run), masters in "tkf_m",
 * both linked to the session keyring. Built static by mkinitramfs.sh.
 */
#include "tkutil.h"

#define DBG		"/sys/kernel/debug"
#define FF		DBG "/fail_function"
#define BUF		(64 * 1024)

enum kind { K_TRUSTED, K_ENC_USER, K_ENC_TRUSTED };
enum op { OP_NEW, OP_LOAD, OP_UPDATE, OP_READ, OP_REVOKE, OP_UNLINK, OP_N };
static const char *const op_names[OP_N] = {
	"new", "load", "update", "read", "revoke", "unlink"
};

static enum kind kind;
static const char *kind_name, *xopts = "", *ffuncs = "", *retval = "0xfffffffffffffffb";
static int tpm = -1;		/* -1 none, 0 TPM 1.2, 1 TPM 2.0 */
static int32_t ring, mring;
static long stride = 1, first = 1, maxn = 100000, tol;
static char blob[BUF], payload[BUF + 256], upd[512], before[BUF], after[BUF];
static long violations;
static char newp[BUF + 256];

static void die(const char *what)
{
	fprintf(stderr, "tkfault: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static long get_num(const char *path)
{
	char b[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	b[n] = 0;
	return strtol(b, NULL, 0);
}

static void putx(const char *path, const char *val)
{
	if (put(path, val))
		die(path);
}

static const char *type_name(void)
{
	return kind == K_TRUSTED ? "trusted" : "encrypted";
}

static int32_t add(const char *type, const char *desc, const char *data,
		   int32_t r)
{
	return t_add_key(type, desc, data, strlen(data), r);
}

/* The key under test, made outside any fault. */
static int32_t make_key(void)
{
	int32_t id = add(type_name(), "tkf_k", payload, ring);

	if (id < 0)
		die("making the key under test");
	return id;
}

static void set_payload(const char *cmd, const char *arg)
{
	if (kind == K_TRUSTED)
		snprintf(payload, sizeof(payload), "%s%s%s%s%s", cmd,
			 *arg ? " " : "", arg, *xopts ? " " : "", xopts);
	else
		snprintf(payload, sizeof(payload), "%s %s", cmd, arg);
}

static void setup(void)
{
	const char *m = kind == K_ENC_USER ? "user" : "trusted";
	static char mp[256];
	int32_t id;

	ring = add("keyring", "tkf", "", KEY_SPEC_SESSION_KEYRING);
	mring = add("keyring", "tkf_m", "", KEY_SPEC_SESSION_KEYRING);
	if (ring < 0 || mring < 0)
		die("keyrings");
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	t_keyctl(KEYCTL_CLEAR, mring, 0, 0, 0);
	if (kind != K_TRUSTED) {
		const char *names[] = { "tkf_m1", "tkf_m2" };
		int i;

		for (i = 0; i < 2; i++) {
			if (kind == K_ENC_USER)
				snprintf(mp, sizeof(mp), "%032d", i);
			else
				snprintf(mp, sizeof(mp), "new 32%s%s",
					 *xopts ? " " : "", xopts);
			if (add(m, names[i], mp, mring) < 0)
				die("master key");
		}
		snprintf(upd, sizeof(upd), "update %s:tkf_m2", m);
		snprintf(mp, sizeof(mp), "%s:tkf_m1 32", m);
		set_payload("new", mp);
	} else {
		set_payload("new", "32");
		snprintf(upd, sizeof(upd), "update%s%s", *xopts ? " " : "",
			 xopts);
	}
	snprintf(newp, sizeof(newp), "%s", payload);
	id = make_key();
	if (t_read(id, blob, sizeof(blob)) < 0)
		die("reading the key's blob");
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
}

/* The keyring's contents, as a string of its serials. */
static void ring_list(char *out, size_t size)
{
	int32_t ids[512];
	long n = t_keyctl(KEYCTL_READ, ring, (unsigned long)ids,
			   sizeof(ids), 0);
	size_t off = 0;
	long i;

	out[0] = 0;
	for (i = 0; n > 0 && i < n / 4 && i < 512 && off + 16 < size; i++)
		off += snprintf(out + off, size - off, "%d ", ids[i]);
}

static int32_t find_key(void)
{
	return t_keyctl(KEYCTL_SEARCH, ring, (unsigned long)type_name(),
			 (unsigned long)"tkf_k", 0);
}

static void violation(const char *op, long n, const char *fmt, const char *s)
{
	violations++;
	if (violations <= 50) {
		printf("# VIOLATION %s %s fault %ld: ", kind_name, op, n);
		printf(fmt, s);
		printf("\n");
	}
}

/* fault control ---------------------------------------------------------*/

static int nth_fd = -1;
static int mode_exch;

static void arm_nth(void)
{
	char list[512], *f, *save = NULL;

	putx(DBG "/failslab/ignore-gfp-wait", "N");
	putx(DBG "/failslab/verbose", "0");
	putx(DBG "/failslab/probability", "0");
	putx(FF "/verbose", "0");
	putx(FF "/probability", "0");
	putx(FF "/inject", "\n");
	snprintf(list, sizeof(list), "%s", ffuncs);
	for (f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save))
		if (put(FF "/inject", f))
			fprintf(stderr, "tkfault: %s is not injectable\n", f);
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0)
		die("/proc/thread-self/fail-nth");
}

static void arm_exch(void)
{
	putx(FF "/verbose", "0");
	putx(FF "/probability", "0");
	putx(FF "/inject", "\n");
	putx(FF "/inject", "trusted_tpm_exchange");
	putx(FF "/trusted_tpm_exchange/retval", retval);
	putx(FF "/task-filter", "N");
	putx(FF "/interval", "1");
	putx(FF "/times", "0");
	putx(FF "/probability", "100");
}

static void disarm(void)
{
	put(FF "/probability", "0");
	put(FF "/times", "0");
	put(FF "/inject", "\n");
}

static void fault_set(long n)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld", n);
	if (mode_exch) {
		putx(FF "/space", b);
		putx(FF "/times", "1");
	} else if (write(nth_fd, b, strlen(b)) < 0) {
		die("fail-nth");
	}
}

/* Was the armed fault reached? Disarms it. */
static int fault_hit(void)
{
	char b[32];
	ssize_t n;

	if (mode_exch) {
		long t = get_num(FF "/times");

		put(FF "/times", "0");
		return t == 0;
	}
	n = pread(nth_fd, b, sizeof(b) - 1, 0);
	if (write(nth_fd, "0", 1) < 0)
		die("fail-nth");
	if (n <= 0)
		return 0;	/* the read itself took the fault */
	b[n] = 0;
	return atoi(b) == 0;
}

/* Exchanges of one unfaulted operation (exch mode). */
static long count_exchanges(int (*run)(int32_t), int32_t id)
{
	long s;

	putx(FF "/space", "1000000");
	putx(FF "/times", "1");
	run(id);
	s = get_num(FF "/space");
	put(FF "/times", "0");
	return 1000000 - s;
}

/* operations ----------------------------------------------------------- */

static enum op cur;
static long ret;
static int err;

static int run_op(int32_t id)
{
	switch (cur) {
	case OP_NEW:
	case OP_LOAD:
		ret = add(type_name(), "tkf_k", payload, ring);
		break;
	case OP_UPDATE:
		ret = t_keyctl(KEYCTL_UPDATE, id, (unsigned long)upd,
				strlen(upd), 0);
		break;
	case OP_READ:
		ret = t_read(id, after, sizeof(after));
		break;
	case OP_REVOKE:
		ret = t_keyctl(KEYCTL_REVOKE, id, 0, 0, 0);
		break;
	default:
		ret = t_keyctl(KEYCTL_UNLINK, id, ring, 0, 0);
		break;
	}
	err = ret < 0 ? errno : 0;
	return ret < 0 ? -1 : 0;
}

struct counts {
	long runs, injected, failed, absorbed, tolerated;
};

/* One run with the fault at @n; returns whether the fault was reached. */
static int one(const char *on, long n, long calls, struct counts *c)
{
	static char r0[4096], r1[4096];
	int32_t id = 0;
	int hit, l0 = 0, l1;
	long rb;

	if (cur == OP_NEW)
		snprintf(payload, sizeof(payload), "%s", newp);
	if (cur == OP_LOAD)
		set_payload("load", blob);
	if (cur >= OP_UPDATE) {
		snprintf(payload, sizeof(payload), "load %s%s%s", blob,
			 *xopts && kind == K_TRUSTED ? " " : "",
			 kind == K_TRUSTED ? xopts : "");
		id = make_key();
		if (t_read(id, before, sizeof(before)) < 0)
			die("reading the key before");
	}
	if (tpm >= 0)
		l0 = t_leftovers(tpm);
	ring_list(r0, sizeof(r0));
	fault_set(n);
	run_op(id);
	hit = fault_hit();
	c->runs++;
	ring_list(r1, sizeof(r1));
	if (hit)
		c->injected++;
	if (ret < 0) {
		if (hit)
			c->failed++;
		else
			violation(on, n, "failed without a fault: %s", t_errname(err));
		if (!t_errno_allowed(err))
			violation(on, n, "errno %s is not documented", t_errname(err));
		if (strcmp(r0, r1))
			violation(on, n, "the keyring changed: %s", r1);
		if (cur >= OP_UPDATE && cur != OP_UNLINK) {
			rb = t_read(id, after, sizeof(after));
			if (rb < 0)
				violation(on, n, "the key is unreadable after the failure: %s",
					  t_errname(errno));
			else if (strcmp(before, after))
				violation(on, n, "%s: the payload changed", "after the failure");
		}
	} else {
		if (hit)
			c->absorbed++;
		switch (cur) {
		case OP_NEW:
		case OP_LOAD:
			id = find_key();
			if (id < 0 || t_read(id, after, sizeof(after)) < 0)
				violation(on, n, "%s", "made, but no readable key");
			else if (cur == OP_LOAD && kind == K_TRUSTED &&
				 tpm == 1 && strcmp(after, blob))
				violation(on, n, "%s", "loaded, but another blob");
			break;
		case OP_UPDATE:
			if (t_read(id, after, sizeof(after)) < 0)
				violation(on, n, "%s", "updated, but unreadable");
			break;
		case OP_READ:
			if (strcmp(before, after))
				violation(on, n, "%s", "read other bytes");
			break;
		case OP_REVOKE:
			if (t_read(id, after, sizeof(after)) >= 0 ||
			    errno != EKEYREVOKED)
				violation(on, n, "%s", "revoked, but readable");
			break;
		default:
			if (find_key() >= 0)
				violation(on, n, "%s", "unlinked, but still linked");
			break;
		}
	}
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	if (tpm >= 0) {
		l1 = t_leftovers(tpm);
		if (l1 != l0) {
			if (mode_exch && hit && tol && n > calls - tol) {
				c->tolerated++;
			} else {
				char m[64];

				snprintf(m, sizeof(m), "%d -> %d", l0, l1);
				violation(on, n, "TPM objects and sessions %s", m);
			}
			t_flush_all(tpm);
		}
	}
	return hit;
}

static void sweep(enum op o)
{
	struct counts c = { 0 };
	long n, calls = 0;
	int32_t id = 0;

	cur = o;
	if (mode_exch) {
		if (o == OP_LOAD)
			set_payload("load", blob);
		if (o >= OP_UPDATE) {
			snprintf(payload, sizeof(payload), "load %s%s%s", blob,
				 *xopts && kind == K_TRUSTED ? " " : "",
				 kind == K_TRUSTED ? xopts : "");
			id = make_key();
		}
		calls = count_exchanges(run_op, id);
		t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	}
	for (n = first; n <= maxn; n += stride) {
		if (!one(op_names[o], n, calls, &c))
			break;
	}
	printf("# faults %s %s %s: runs %ld injected %ld failed %ld absorbed %ld tolerated %ld%s",
	       kind_name, op_names[o], mode_exch ? "exch" : "nth", c.runs,
	       c.injected, c.failed, c.absorbed, c.tolerated,
	       mode_exch ? "" : "\n");
	if (mode_exch)
		printf(" exchanges %ld\n", calls);
	if (n > maxn)
		printf("# faults %s %s: stopped at MAX %ld\n", kind_name,
		       op_names[o], maxn);
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: tkfault [-s STRIDE] [-o FIRST] [-m MAX] [-t 1.2|2.0|none] [-x OPTS] [-F F1,F2] [-r RETVAL] [-T N] trusted|enc-user|enc-trusted OPS nth|exch\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char ops[128], *o, *save = NULL;
	int c, i;

	while ((c = getopt(argc, argv, "s:o:m:t:x:F:r:T:")) != -1) {
		switch (c) {
		case 's': stride = atol(optarg); break;
		case 'o': first = atol(optarg); break;
		case 'm': maxn = atol(optarg); break;
		case 't': tpm = !strcmp(optarg, "2.0") ? 1 :
				!strcmp(optarg, "1.2") ? 0 : -1; break;
		case 'x': xopts = optarg; break;
		case 'F': ffuncs = optarg; break;
		case 'r': retval = optarg; break;
		case 'T': tol = atol(optarg); break;
		default: usage();
		}
	}
	if (argc - optind != 3 || stride < 1 || first < 1)
		usage();
	kind_name = argv[optind];
	if (!strcmp(kind_name, "trusted"))
		kind = K_TRUSTED;
	else if (!strcmp(kind_name, "enc-user"))
		kind = K_ENC_USER;
	else if (!strcmp(kind_name, "enc-trusted"))
		kind = K_ENC_TRUSTED;
	else
		usage();
	if (!strcmp(argv[optind + 2], "exch"))
		mode_exch = 1;
	else if (strcmp(argv[optind + 2], "nth"))
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	if (tpm >= 0 && t_leftovers(tpm) < 0)
		die("counting TPM handles through /dev/tpm0");
	if (mode_exch)
		arm_exch();
	else
		arm_nth();
	snprintf(ops, sizeof(ops), "%s", argv[optind + 1]);
	for (o = strtok_r(ops, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < OP_N; i++)
			if (!strcmp(o, "all") || !strcmp(o, op_names[i]))
				sweep(i);
	}
	disarm();
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	t_keyctl(KEYCTL_CLEAR, mring, 0, 0, 0);
	t_keyctl(KEYCTL_UNLINK, ring, KEY_SPEC_SESSION_KEYRING, 0, 0);
	t_keyctl(KEYCTL_UNLINK, mring, KEY_SPEC_SESSION_KEYRING, 0, 0);
	if (violations)
		printf("# faults %s: %ld violations\n", kind_name, violations);
	return violations ? 1 : 0;
}
