// SPDX-License-Identifier: GPL-2.0
/*
 * tkstress: concurrent operations on trusted and encrypted keys and their
 * masters, in the guest (issue 9). Threads add (new, load), update, read,
 * describe, revoke, invalidate, unlink, set timeouts, search and request
 * the same few keys at once, replace, revoke and expire the masters under
 * the encrypted keys using them, read /proc/keys, while the keyring
 * garbage collector runs (gc_delay 1 s) and, with -m, a thread unloads and
 * reloads the modules. The historic races it aims at: CVE-2017-15951 (read
 * of a key under construction or negative), CVE-2015-8539 (update of a
 * negative key), CVE-2015-7550 (read vs revoke), CVE-2016-7042 (/proc/keys
 * with timeouts), a master revoked, expired or replaced mid-operation.
 *
 * usage: tkstress [-d SECONDS] [-j THREADS] [-t 1.2|2.0|none] [-x OPTS]
 *                 [-m TRUSTED.KO,ENCRYPTED.KO] [-s SEED]
 * The kernel's verdict (KASAN, lockdep, kmemleak, WARN) is the harness's;
 * this program checks that every failure has an errno keyctl(2)/add_key(2)
 * document for that situation and prints
 *   # stress: ops N failed N rmmod N reload N unexpected N
 * and the unexpected ones; exit 1 when there was any.
 * Built static (-pthread) by tests/qemu/mkinitramfs.sh.
 */
#include "tkutil.h"
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>

#define NKEYS	4
#define BUF	(16 * 1024)

static const char *xopts = "";
static int tpm = -1;
static int32_t ring;
static volatile int stop;
static char tblob[BUF], eblob[BUF];
static const char *mod_t, *mod_e;
static long n_ops, n_failed, n_unexpected, n_rmmod, n_reload;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t modlock = PTHREAD_RWLOCK_INITIALIZER;

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int32_t addk(const char *type, const char *desc, const char *data,
		    int32_t r)
{
	return t_add_key(type, desc, data, strlen(data), r);
}

/* Errnos an operation may give while other threads race it. */
static int expected(int e)
{
	return t_errno_allowed(e) || e == ENOENT || e == EEXIST ||
	       e == ENODEV;
}

static void count(const char *op, long ret, int e)
{
	pthread_mutex_lock(&lock);
	n_ops++;
	if (ret < 0) {
		n_failed++;
		if (!expected(e)) {
			n_unexpected++;
			if (n_unexpected <= 20)
				printf("# stress: unexpected %s from %s\n",
				       t_errname(e), op);
		}
	}
	pthread_mutex_unlock(&lock);
}

static void desc(char *d, size_t n, const char *p, uint64_t *s)
{
	snprintf(d, n, "%s%u", p, (unsigned int)(rnd(s) % NKEYS));
}

/* The key's id, or one no key has (-1 would be the thread keyring). */
static int32_t find(const char *type, const char *d)
{
	long id = t_keyctl(KEYCTL_SEARCH, ring, (unsigned long)type,
			    (unsigned long)d, 0);

	return id < 0 ? 0x3fffffff : id;
}

/* One random operation. */
static void one(uint64_t *s)
{
	static char rb[BUF];	/* contents are not checked: shared is fine */
	char d[32], p[BUF + 128];
	const char *type = rnd(s) & 1 ? "trusted" : "encrypted";
	int trusted = type[0] == 't', op = rnd(s) % 18;
	const char *name = "?";
	int32_t id;
	long ret = 0;

	if (trusted && tpm < 0)
		type = "encrypted", trusted = 0;
	desc(d, sizeof(d), trusted ? "st_t" : "st_e", s);
	id = find(type, d);
	switch (op) {
	case 0:
	case 1:
		name = "add new";
		if (trusted)
			snprintf(p, sizeof(p), "new 32%s%s", *xopts ? " " : "", xopts);
		else
			snprintf(p, sizeof(p), "new %s:st_m%u 32",
				 tpm >= 0 && rnd(s) % 2 ? "trusted" : "user",
				 (unsigned int)(rnd(s) % 2));
		ret = addk(type, d, p, ring);
		break;
	case 2:
		name = "add load";
		if (trusted)
			snprintf(p, sizeof(p), "load %s%s%s", tblob,
				 *xopts ? " " : "", xopts);
		else
			snprintf(p, sizeof(p), "load %s", eblob);
		ret = addk(type, d, p, ring);
		break;
	case 3:
		name = "update";
		if (trusted)
			snprintf(p, sizeof(p), "update%s%s", *xopts ? " " : "", xopts);
		else
			snprintf(p, sizeof(p), "update user:st_m%u",
				 (unsigned int)(rnd(s) % 2));
		ret = t_keyctl(KEYCTL_UPDATE, id, (unsigned long)p, strlen(p), 0);
		break;
	case 4:
	case 5:
		name = "read";
		ret = t_keyctl(KEYCTL_READ, id, (unsigned long)rb,
				rnd(s) % 3 ? sizeof(rb) : rnd(s) % 64, 0);
		break;
	case 6:
		name = "describe";
		ret = t_keyctl(KEYCTL_DESCRIBE, id, (unsigned long)p, 256, 0);
		break;
	case 7:
		name = "revoke";
		ret = t_keyctl(KEYCTL_REVOKE, id, 0, 0, 0);
		break;
	case 8:
		name = "invalidate";
		ret = t_keyctl(KEYCTL_INVALIDATE, id, 0, 0, 0);
		break;
	case 9:
		name = "unlink";
		ret = t_keyctl(KEYCTL_UNLINK, id, ring, 0, 0);
		break;
	case 10:
		name = "set timeout";
		ret = t_keyctl(KEYCTL_SET_TIMEOUT, id, rnd(s) % 3, 0, 0);
		break;
	case 11:
		/* no /sbin/request-key: a key under construction, then negative */
		name = "request_key";
		snprintf(p, sizeof(p), trusted ? "new 32" : "new user:st_m0 32");
		desc(d, sizeof(d), trusted ? "st_rt" : "st_re", s);
		ret = syscall(SYS_request_key, type, d, p, ring);
		break;
	case 12:
		/* add on a possibly negative key: the type's update (8539) */
		name = "add on request";
		desc(d, sizeof(d), trusted ? "st_rt" : "st_re", s);
		snprintf(p, sizeof(p), trusted ? "new 32%s%s" : "new user:st_m0 32",
			 *xopts ? " " : "", xopts);
		ret = addk(type, d, p, ring);
		break;
	case 13:
		/* read of a key under construction / negative (15951) */
		name = "read requested";
		desc(d, sizeof(d), trusted ? "st_rt" : "st_re", s);
		id = find(type, d);
		ret = t_keyctl(KEYCTL_READ, id, (unsigned long)rb, sizeof(rb), 0);
		break;
	case 14:
		/* a user master replaced, revoked or expired under its users */
		desc(d, sizeof(d), "st_m", s);
		d[4] = '0' + d[4] % 2;
		d[5] = 0;
		switch (rnd(s) % 4) {
		case 0:
			name = "master revoke";
			ret = t_keyctl(KEYCTL_REVOKE, find("user", d), 0, 0, 0);
			break;
		case 1:
			name = "master timeout";
			ret = t_keyctl(KEYCTL_SET_TIMEOUT, find("user", d), 1, 0, 0);
			break;
		default:
			name = "master replace";
			ret = addk("user", d, "0123456789abcdef0123456789abcdef", ring);
			break;
		}
		break;
	case 15:
		/* a trusted master replaced or revoked */
		if (tpm < 0)
			return;
		snprintf(d, sizeof(d), "st_m%u", (unsigned int)(rnd(s) % 2));
		if (rnd(s) % 3) {
			name = "trusted master load";
			snprintf(p, sizeof(p), "load %s%s%s", tblob,
				 *xopts ? " " : "", xopts);
			ret = addk("trusted", d, p, ring);
		} else {
			name = "trusted master revoke";
			ret = t_keyctl(KEYCTL_REVOKE, find("trusted", d), 0, 0, 0);
		}
		break;
	case 16: {
		int fd = open("/proc/keys", O_RDONLY);

		name = "/proc/keys";
		ret = fd < 0 ? -1 : 0;
		while (fd >= 0 && read(fd, rb, sizeof(rb)) > 0)
			;
		if (fd >= 0)
			close(fd);
		break;
	}
	default:
		name = "clear";
		if (rnd(s) % 8 == 0)
			ret = t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
		break;
	}
	count(name, ret, ret < 0 ? errno : 0);
}

static void *worker(void *arg)
{
	uint64_t s = (uintptr_t)arg;

	while (!stop) {
		pthread_rwlock_rdlock(&modlock);
		one(&s);
		pthread_rwlock_unlock(&modlock);
	}
	return NULL;
}

static int modload(const char *path)
{
	int fd = open(path, O_RDONLY), r;

	if (fd < 0)
		return -1;
	r = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return r;
}

/*
 * Every few seconds: rmmod encrypted_keys and trusted while the workers
 * run (O_NONBLOCK: refused while a key operation is inside the module),
 * then, with the workers held off, load them again.
 */
static void *modder(void *arg)
{
	uint64_t s = (uintptr_t)arg;

	while (!stop) {
		usleep(500000 + rnd(&s) % 2000000);
		if (stop)
			break;
		if (syscall(SYS_delete_module, "encrypted_keys", O_NONBLOCK) == 0) {
			pthread_mutex_lock(&lock);
			n_rmmod++;
			pthread_mutex_unlock(&lock);
			syscall(SYS_delete_module, "trusted", O_NONBLOCK);
		}
		usleep(rnd(&s) % 300000);
		pthread_rwlock_wrlock(&modlock);
		if ((modload(mod_t) == 0 || errno == EEXIST) &&
		    (modload(mod_e) == 0 || errno == EEXIST)) {
			pthread_mutex_lock(&lock);
			n_reload++;
			pthread_mutex_unlock(&lock);
		}
		pthread_rwlock_unlock(&modlock);
	}
	return NULL;
}

static void setup(void)
{
	char p[BUF + 128];
	int32_t id;
	int fd;

	fd = open("/proc/sys/kernel/keys/gc_delay", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			perror("gc_delay");
		close(fd);
	}
	ring = addk("keyring", "st", "", KEY_SPEC_SESSION_KEYRING);
	if (ring < 0)
		exit(2);
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	addk("user", "st_m0", "0123456789abcdef0123456789abcdef", ring);
	addk("user", "st_m1", "fedcba9876543210fedcba9876543210", ring);
	if (tpm >= 0) {
		snprintf(p, sizeof(p), "new 32%s%s", *xopts ? " " : "", xopts);
		id = addk("trusted", "st_m0", p, ring);
		if (id < 0 || t_read(id, tblob, sizeof(tblob)) < 0) {
			perror("tkstress: a trusted key");
			exit(2);
		}
		addk("trusted", "st_m1", p, ring);
	}
	id = addk("encrypted", "st_seed", "new user:st_m0 32", ring);
	if (id < 0 || t_read(id, eblob, sizeof(eblob)) < 0) {
		perror("tkstress: an encrypted key");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	long secs = 20, threads = 4, i;
	uint64_t seed = 1;
	pthread_t th[64], mt;
	char *m = NULL;
	int c;

	while ((c = getopt(argc, argv, "d:j:t:x:m:s:")) != -1) {
		switch (c) {
		case 'd': secs = atol(optarg); break;
		case 'j': threads = atol(optarg); break;
		case 't': tpm = !strcmp(optarg, "2.0") ? 1 :
				!strcmp(optarg, "1.2") ? 0 : -1; break;
		case 'x': xopts = optarg; break;
		case 'm': m = optarg; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: tkstress [-d S] [-j N] [-t 1.2|2.0|none] [-x OPTS] [-m T.KO,E.KO] [-s SEED]\n");
			return 2;
		}
	}
	if (threads < 1 || threads > 64)
		threads = 4;
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	for (i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)(seed * 1000 + i));
	if (m) {
		mod_t = strtok(m, ",");
		mod_e = strtok(NULL, ",");
		if (mod_t && mod_e)
			pthread_create(&mt, NULL, modder, (void *)(uintptr_t)seed);
		else
			m = NULL;
	}
	sleep(secs);
	stop = 1;
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	if (m)
		pthread_join(mt, NULL);
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	t_keyctl(KEYCTL_UNLINK, ring, KEY_SPEC_SESSION_KEYRING, 0, 0);
	printf("# stress: threads %ld seconds %ld ops %ld failed %ld rmmod %ld reload %ld unexpected %ld\n",
	       threads, secs, n_ops, n_failed, n_rmmod, n_reload, n_unexpected);
	return n_unexpected ? 1 : 0;
}
