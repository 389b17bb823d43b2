// SPDX-License-Identifier: GPL-2.0
/*
 * tkfuzz: differential fuzzing of the trusted and encrypted key ABI, in the
 * test guest. The same inputs go to whichever modules are loaded; the
 * guest script loads ours, runs a batch, loads the in-tree ones, runs the
 * same batch and compares the outcome classes line by line.
 *
 * usage: tkfuzz [-x OPTS] [-t 1.2|2.0] [-d DIR] trusted|encrypted SEED FIRST COUNT
 *   Input I (FIRST <= I < FIRST + COUNT) is a function of SEED and I only,
 *   so a batch can be cut anywhere. The payloads follow the ABI grammar
 *   ("new N [opts]", "load HEX [opts]", "update [opts]" for trusted; "new
 *   [format] type:desc len [data]", "load HEX", "update type:desc" for
 *   encrypted), with random and mutated words, and mutations of real blobs.
 *   DIR (default /tmp/tkfuzz) keeps the seeds both implementations share:
 *   the blobs of a trusted key and of encrypted keys, made by the first run
 *   (whichever implementation it is) and loaded by every later one.
 *   -x: options every well-formed trusted command gets (keyhandle= on TPM
 *   2.0). On TPM 1.2 no input carries an authorisation (keyauth=,
 *   blobauth=), names a handle other than the SRK's that an OSAP could
 *   authorise against, or changes, cuts or extends a blob (the TPM may
 *   take it for a wrong authorisation): a TPM 1.2 locks out after a few.
 * -n: print the inputs ("I CATEGORY PAYLOAD"), call nothing (host use).
 * Output: one line per input, "I CATEGORY CLASS": CATEGORY is the kind of
 * input (new, new-nokh: TPM 2.0 without keyhandle=, blob-trunc...) and a
 * "+NAME" per option added and odd length word (+space, +plus); CLASS is
 * "ok" (a key was made or updated) or the errno's name; then "# tkfuzz"
 * counts.
 * Built static by tests/qemu/mkinitramfs.sh.
 */
#include "tkutil.h"
#include <stdarg.h>
#include <sys/stat.h>

#define BUF	(40 * 1024)

static const char *xopts = "", *dir = "/tmp/tkfuzz";
static int tpm2, dry;
static uint64_t seed;
static int32_t ring, mring, upd_id;
static char tblob[BUF], eblob_u[BUF], eblob_t[BUF], eblob_x[BUF], in[BUF * 2];
static const char *cat;
static char tags[256];	/* "+name" per option and odd number given */

static void tag(const char *t)
{
	size_t n = strlen(tags);

	snprintf(tags + n, sizeof(tags) - n, "+%s", t);
}

static void die(const char *what)
{
	fprintf(stderr, "tkfuzz: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* splitmix64: input I's stream depends on SEED and I only. */
static uint64_t st;
static uint64_t rnd(void)
{
	uint64_t z = (st += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rn(unsigned int n)
{
	return rnd() % n;
}

static const char *pick(const char *const *v, size_t n)
{
	return v[rn(n)];
}

#define PICK(v)	pick(v, ARRAY_SIZE(v))

static size_t len;	/* of in[] */
static void app(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void app(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (len < sizeof(in))
		len += vsnprintf(in + len, sizeof(in) - len, fmt, ap);
	va_end(ap);
	if (len >= sizeof(in))
		len = sizeof(in) - 1;
}

static void rand_hex(size_t n)
{
	while (n--)
		app("%x", rn(16));
}

/* A word of random bytes: printable, or anything but NUL and space. */
static void rand_word(void)
{
	size_t n = 1 + rn(12), i;

	for (i = 0; i < n && len + 1 < sizeof(in); i++) {
		int c = rn(2) ? 33 + rn(94) : 1 + rn(255);

		in[len++] = c == ' ' ? '_' : c;
	}
	in[len] = 0;
}

/*
 * The two hex digits between IV and ciphertext of an encrypted key blob
 * ("FORMAT MASTER LEN HEX"; HEX starts with the 16-byte IV): tagged "+sep"
 * when a mutation hits them (in-tree ignores them, we want "00").
 */
static void tag_sep(const char *b, size_t i)
{
	const char *h = strrchr(b, ' ');
	size_t sep;

	if (!h)
		return;
	sep = h - b + 1 + 32;
	if (i == sep || i == sep + 1)
		tag("sep");
}

/* A mutated copy of hex blob @b. */
static void blob_mut(const char *b, int flips)
{
	size_t n = strlen(b), start = len, i;

	static const int tpm1_cases[] = { 0, 2, 3, 4, 6 };

	switch (flips ? rn(9) : tpm1_cases[rn(5)]) {
	case 0:		/* as it is */
		cat = "blob";
		app("%s", b);
		break;
	case 1:		/* truncated */
		cat = "blob-trunc";
		app("%.*s", (int)(rn(n / 2 + 1) * 2), b);
		break;
	case 2:		/* an odd digit appended */
		cat = "blob-odd";
		app("%s%x", b, rn(16));
		break;
	case 3:		/* a non-hex character */
		cat = "blob-nonhex";
		app("%s", b);
		i = rn(n);
		in[start + i] = "gxz-:G"[rn(6)];
		tag_sep(b, i);
		break;
	case 4:		/* upper case */
		cat = "blob-upper";
		for (i = 0; i < n; i++)
			app("%c", b[i] >= 'a' && b[i] <= 'f' ? b[i] - 32 : b[i]);
		break;
	case 5:		/* bytes appended */
		cat = "blob-extended";
		app("%s", b);
		rand_hex(2 * (1 + rn(40)));
		break;
	case 6:		/* empty or a random word */
		cat = "blob-word";
		if (rn(2))
			rand_word();
		break;
	case 7:		/* one byte changed: the size fields are up front */
		cat = rn(2) ? "blob-flip-head" : "blob-flip";
		app("%s", b);
		i = cat[9] ? rn(n < 24 ? n : 24) : rn(n);
		in[start + i] = "0123456789abcdef"[rn(16)];
		if (in[start + i] == b[i])
			in[start + i] = b[i] == '0' ? '1' : '0';
		tag_sep(b, i);
		break;
	default:	/* a byte changed at the end (MAC, data) */
		cat = "blob-flip-tail";
		app("%s", b);
		i = n - 1 - rn(n < 64 ? n : 64);
		in[start + i] = b[i] == 'f' ? '0' : 'f';
		tag_sep(b, i);
		break;
	}
}

static const char *const lens[] = {
	"32", "32", "64", "128", "0", "1", "31", "33", "129", "-1", "-32",
	"0x20", "032", "4294967328", "18446744073709551648", "32x", "",
	"+32", " 32",
};

static void trusted_opt(void)
{
	static const char *const hashes[] = {
		"sha1", "sha256", "sha384", "sha512", "sm3-256", "md5", "SHA256", "",
	};
	static const char *const mig[] = { "0", "1", "2", "-1", "x", "" };
	static const char *const kh[] = {
		"0x81000001", "81000001", "0x40000000", "40000000", "0x40000001",
		"0", "0x80000000", "0xffffffff", "0x181000001", "", "zz",
	};
	/*
	 * TPM 1.2: no handle an OSAP could authorise against with the wrong
	 * secret (the owner, reserved handles): every failed authorisation
	 * counts toward the dictionary-attack lockout.
	 */
	static const char *const kh1[] = {
		"0x40000000", "40000000", "0x81000001", "0x181000001", "", "zz",
	};
	static const char *const unknown[] = {
		"foo=1", "keyhandle", "=1", "hash", "logon", "pcrlock=x", "pcrlock=",
	};

	switch (rn(tpm2 ? 9 : 7)) {
	case 0:
		tag("keyhandle");
		app(" keyhandle=%s", tpm2 ? PICK(kh) : PICK(kh1));
		break;
	case 1: tag("hash"); app(" hash=%s", PICK(hashes)); break;
	case 2: tag("migratable"); app(" migratable=%s", PICK(mig)); break;
	case 3:
		tag("pcrinfo");
		app(" pcrinfo=");
		rand_hex(rn(3) ? 2 * rn(70) : rn(200));
		break;
	case 4:
		tag("policydigest");
		app(" policydigest=");
		rand_hex(rn(3) ? 2 * (rn(2) ? 20 : 32) : rn(100));
		break;
	case 5: tag("unknown"); app(" %s", PICK(unknown)); break;
	case 6: tag("word"); app(" "); rand_word(); break;
	case 7:		/* TPM 2.0 only: new with a blobauth is no DA risk */
		tag("blobauth");
		app(" blobauth=");
		if (rn(2))
			rand_hex(rn(3) ? 40 : rn(80));
		else
			rand_word();
		break;
	default:
		tag("policyhandle");
		app(" policyhandle=%s", rn(2) ? "0" : "0x03000000");
		break;
	}
}

/* Input I of trusted keys: "new", "load", "update" or garbage. */
static int gen_trusted(int *is_update)
{
	unsigned int r = rn(100), i, n;

	*is_update = 0;
	if (r < 35) {
		int kh = rn(4);

		const char *l = PICK(lens);

		cat = "new";
		app("new %s", l);
		if (*l == ' ')
			tag("space");	/* an empty word before the length */
		else if (*l == '+')
			tag("plus");
		if (kh)
			app("%s%s", *xopts ? " " : "", xopts);
		for (n = rn(3), i = 0; i < n; i++)
			trusted_opt();
		if (!kh && tpm2)	/* the default parent differs */
			cat = "new-nokh";
	} else if (r < 75) {
		app("load ");
		blob_mut(tblob, tpm2);
		if (rn(4))
			app("%s%s", *xopts ? " " : "", xopts);
		if (rn(3))
			trusted_opt();
		if (!tpm2 && strstr(in, "blobauth="))
			return -1;
	} else if (r < 87) {
		*is_update = 1;
		cat = "update";
		app("update");
		if (rn(4))
			app("%s%s", *xopts ? " " : "", xopts);
		else if (tpm2)
			cat = "update-nokh";
		for (n = rn(3), i = 0; i < n; i++)
			trusted_opt();
		if (strstr(in, "migratable=0"))
			return -1;	/* would end the batch's updates */
	} else {
		cat = "garbage";
		app("%s", rn(2) ? "new" : rn(2) ? "load" : "");
		for (n = rn(4), i = 0; i < n; i++) {
			app(" ");
			rand_word();
		}
	}
	return 0;
}

static void enc_master(void)
{
	static const char *const m[] = {
		"user:fz_um", "user:fz_um", "trusted:fz_tm", "user:fz_um2",
		"user:nosuch", "trusted:nosuch", "logon:fz_um", "user:",
		"user", ":fz_um", "bogus:fz_um", "trusted:fz_um",
	};

	app("%s", PICK(m));
}

/* Input I of encrypted keys. */
static int gen_encrypted(int *is_update)
{
	static const char *const fmts[] = {
		"", "", "default ", "ecryptfs ", "enc32 ", "bogus ", "DEFAULT ",
	};
	static const char *const elens[] = {
		"32", "32", "64", "4096", "20", "19", "0", "4097", "-1",
		"0x20", "32x", "", "1024", "65",
	};
	unsigned int r = rn(100);

	*is_update = 0;
	if (r < 45) {
		const char *f = PICK(fmts);

		cat = *f ? "new-format" : "new";
		app("new %s", f);
		if (!strcmp(f, "ecryptfs ") && rn(2)) {
			app("user:0011223344556677 64");
		} else {
			enc_master();
			app(" %s", PICK(elens));
		}
		if (!rn(5)) {	/* user-provided decrypted data */
			cat = "new-data";
			app(" ");
			rand_hex(rn(3) ? 2 * (16 << rn(3)) : rn(100));
		}
		if (!rn(10)) {
			app(" ");
			rand_word();
		}
	} else if (r < 85) {
		app("load ");
		if (rn(2)) {
			blob_mut(eblob_u, 1);
		} else {
			blob_mut(eblob_t, 1);
			cat = strcmp(cat, "blob") ? cat : "blob-trusted";
		}
	} else if (r < 93) {
		*is_update = 1;
		cat = "update";
		app("update ");
		enc_master();
		if (!rn(4)) {
			app(" ");
			rand_word();
		}
	} else {
		cat = "garbage";
		app("%s", rn(2) ? "new " : rn(2) ? "load " : "");
		rand_word();
	}
	return 0;
}

/* shared seeds ----------------------------------------------------------- */

static int file_get(const char *name, char *buf, size_t size)
{
	char p[256];
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

static void file_put(const char *name, const char *buf)
{
	char p[256];
	int fd;

	mkdir(dir, 0700);
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
		die(p);
	close(fd);
}

static int32_t addk(const char *type, const char *desc, const char *data,
		    int32_t r)
{
	return t_add_key(type, desc, data, strlen(data), r);
}

/* A key of @type: loaded from the saved blob @name, else made and saved. */
static int32_t seed_key(const char *type, const char *desc, const char *newp,
			const char *name, char *blob, int32_t r)
{
	char p[BUF + 256];
	int32_t id;

	if (!file_get(name, blob, BUF)) {
		if (!strcmp(type, "trusted"))
			snprintf(p, sizeof(p), "load %s%s%s", blob,
				 *xopts ? " " : "", xopts);
		else
			snprintf(p, sizeof(p), "load %s", blob);
		id = addk(type, desc, p, r);
		if (id < 0)
			die(name);
		return id;
	}
	id = addk(type, desc, newp, r);
	if (id < 0 || t_read(id, blob, BUF) < 0)
		die(name);
	file_put(name, blob);
	return id;
}

static void setup(int trusted)
{
	char p[256];

	ring = addk("keyring", "fz", "", KEY_SPEC_SESSION_KEYRING);
	mring = addk("keyring", "fz_m", "", KEY_SPEC_SESSION_KEYRING);
	if (ring < 0 || mring < 0)
		die("keyrings");
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	t_keyctl(KEYCTL_CLEAR, mring, 0, 0, 0);
	snprintf(p, sizeof(p), "new 32%s%s", *xopts ? " " : "", xopts);
	if (trusted) {
		seed_key("trusted", "fz_t", p, "trusted.blob", tblob, mring);
		upd_id = seed_key("trusted", "fz_upd", p, "trusted.blob", tblob, mring);
		return;
	}
	if (addk("user", "fz_um", "0123456789abcdef0123456789abcdef", mring) < 0 ||
	    addk("user", "fz_um2", "fedcba9876543210fedcba9876543210", mring) < 0 ||
	    addk("user", "0011223344556677", "0123456789abcdef0123456789abcdef", mring) < 0)
		die("user masters");
	seed_key("trusted", "fz_tm", p, "trusted-master.blob", tblob, mring);
	seed_key("encrypted", "fz_eu", "new user:fz_um 32", "enc-user.blob",
		 eblob_u, mring);
	seed_key("encrypted", "fz_et", "new trusted:fz_tm 64", "enc-trusted.blob",
		 eblob_t, mring);
	upd_id = seed_key("encrypted", "fz_upd", "new user:fz_um 32",
			  "enc-upd.blob", eblob_x, mring);
}

/* TPM2_DictionaryAttackLockReset (empty lockout auth): a blobauth= on load
 * that is not the blob's counts as a failed authorisation. */
static void da_reset(void)
{
	static const unsigned char c[] = {
		0x80, 0x02, 0, 0, 0, 27, 0, 0, 0x01, 0x39, 0x40, 0, 0, 0x0a,
		0, 0, 0, 9, 0x40, 0, 0, 9, 0, 0, 0, 0, 0 };
	unsigned char r[64];

	t_tpm(c, sizeof(c), r, sizeof(r));
}

/*
 * TPM 1.2: TPM_ResetLockValue under an OIAP session with the owner's
 * authorisation (provision.sh: the well-known owner secret, SHA-1 of 20
 * zero bytes). The in-tree module sends malformed blobs and options to the TPM,
 * which counts some as failed authorisations and, after a few, refuses
 * everything (TPM_DEFEND_LOCK_RUNNING) for a growing time; this clears the
 * count. Returns the TPM's return code, or -1.
 */
/* SHA-1 and HMAC-SHA1 (FIPS 180-4, RFC 2104), for TPM 1.2 authorisations. */
static uint32_t rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 |
		       p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

/* SHA-1 of the concatenation of @a (@al bytes) and @b (@bl bytes). */
static void sha1_2(const unsigned char *a, size_t al, const unsigned char *b,
		   size_t bl, unsigned char out[20])
{
	uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
			  0xc3d2e1f0 };
	unsigned char blk[64];
	uint64_t bits = (uint64_t)(al + bl) * 8;
	size_t n = 0, i;
	int j;

	for (i = 0; i < al + bl; i++) {
		blk[n++] = i < al ? a[i] : b[i - al];
		if (n == 64) {
			sha1_block(h, blk);
			n = 0;
		}
	}
	blk[n++] = 0x80;
	if (n > 56) {
		memset(blk + n, 0, 64 - n);
		sha1_block(h, blk);
		n = 0;
	}
	memset(blk + n, 0, 56 - n);
	for (j = 0; j < 8; j++)
		blk[56 + j] = bits >> (56 - 8 * j);
	sha1_block(h, blk);
	for (j = 0; j < 20; j++)
		out[j] = h[j / 4] >> (24 - 8 * (j % 4));
}

/* HMAC-SHA1 with a key of at most 64 bytes. */
static void hmac_sha1(const unsigned char *key, size_t klen,
		      const unsigned char *m, size_t len, unsigned char out[20])
{
	unsigned char k[64], in[20];
	int i;

	memset(k, 0, sizeof(k));
	memcpy(k, key, klen);
	for (i = 0; i < 64; i++)
		k[i] ^= 0x36;
	sha1_2(k, 64, m, len, in);
	for (i = 0; i < 64; i++)
		k[i] ^= 0x36 ^ 0x5c;
	sha1_2(k, 64, in, 20, out);
}

static long t_tpm1_resets, t_tpm1_reset_fail;

static int t_tpm1_reset_lock(void)
{
	static const unsigned char oiap[] = {
		0x00, 0xc1, 0, 0, 0, 10, 0, 0, 0, 0x0a };
	static const unsigned char ord[4] = { 0, 0, 0, 0x40 };
	unsigned char owner[20], r[64], c[55], h[61];
	int n;

	memset(r, 0, 20);
	sha1_2(r, 20, NULL, 0, owner);

	n = t_tpm(oiap, sizeof(oiap), r, sizeof(r));
	if (n < 34 || t_be32(r + 6))
		goto fail;
	/* HMAC(owner, SHA1(ordinal) || nonceEven || nonceOdd || continue) */
	sha1_2(ord, 4, NULL, 0, h);
	memcpy(h + 20, r + 14, 20);
	memset(h + 40, 0x5a, 20);	/* nonceOdd: fixed, the TPM's is fresh */
	h[60] = 0;
	memcpy(c, (const unsigned char[]){ 0x00, 0xc2, 0, 0, 0, 55, 0, 0, 0, 0x40 }, 10);
	memcpy(c + 10, r + 10, 4);	/* authHandle */
	memcpy(c + 14, h + 40, 20);
	c[34] = 0;
	hmac_sha1(owner, sizeof(owner), h, sizeof(h), c + 35);
	n = t_tpm(c, sizeof(c), r, sizeof(r));
	if (n < 10)
		goto fail;
	t_tpm1_resets++;
	if (t_be32(r + 6))
		t_tpm1_reset_fail++;
	return (int)t_be32(r + 6);
fail:
	t_tpm1_reset_fail++;
	return -1;
}

/*
 * TPM 1.2: the authorisation sessions an input left in the TPM, flushed
 * (TPM_FlushSpecific, TPM_RT_AUTH) and counted. The in-tree module leaves
 * some on its error paths, and a TPM 1.2 has only a few (TPM_RESOURCES for
 * every later command); ours must leave none (the guest script checks).
 */
static long t_tpm1_left;

static int t_tpm1_flush_sessions(void)
{
	unsigned char c[18] = { 0x00, 0xc1, 0, 0, 0, 18, 0, 0, 0, 0xba },
		      r[64];
	uint32_t h[32];
	int n, i;

	n = t_handles(0, 0, h, 32);
	for (i = 0; i < n && i < 32; i++) {
		c[10] = h[i] >> 24;
		c[11] = h[i] >> 16;
		c[12] = h[i] >> 8;
		c[13] = h[i];
		c[14] = c[15] = c[16] = 0;
		c[17] = 2;	/* TPM_RT_AUTH */
		t_tpm(c, sizeof(c), r, sizeof(r));
		t_tpm1_left++;
	}
	return n;
}

int main(int argc, char **argv)
{
	long first, count, i, made = 0, failed = 0, skipped = 0;
	int c, trusted, upd, e;
	long ret;

	while ((c = getopt(argc, argv, "x:t:d:n")) != -1) {
		switch (c) {
		case 'n': dry = 1; break;
		case 'x': xopts = optarg; break;
		case 't': tpm2 = !strcmp(optarg, "2.0"); break;
		case 'd': dir = optarg; break;
		default: goto usage;
		}
	}
	if (argc - optind != 4)
		goto usage;
	trusted = !strcmp(argv[optind], "trusted");
	if (!trusted && strcmp(argv[optind], "encrypted"))
		goto usage;
	seed = strtoull(argv[optind + 1], NULL, 0);
	first = atol(argv[optind + 2]);
	count = atol(argv[optind + 3]);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (dry)
		strcpy(tblob, strcpy(eblob_u, strcpy(eblob_t, "0123456789abcdef0123456789abcdef")));
	else
		setup(trusted);
	for (i = first; i < first + count; i++) {
		st = seed * 0x100000001b3ull + (uint64_t)i;
		len = 0;
		in[0] = 0;
		tags[0] = 0;
		if ((trusted ? gen_trusted(&upd) : gen_encrypted(&upd)) < 0) {
			printf("%ld %s%s skipped\n", i, cat, tags);
			skipped++;
			continue;
		}
		if (dry) {
			printf("%ld %s%s %s\n", i, cat, tags, in);
			continue;
		}
		if (upd)
			ret = t_keyctl(KEYCTL_UPDATE, upd_id, (unsigned long)in,
					len, 0);
		else
			ret = t_add_key(trusted ? "trusted" : "encrypted",
					 "fz_k", in, len, ring);
		e = ret < 0 ? errno : 0;
		printf("%ld %s%s %s\n", i, cat, tags, t_errname(e));
		if (e == 0 && !upd) {
			made++;
			t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
		} else if (e) {
			failed++;
		}
		if (trusted && tpm2 && strstr(in, "blobauth="))
			da_reset();
		if (trusted && !tpm2) {
			if (t_tpm1_flush_sessions() > 0)
				fprintf(stderr, "tkfuzz: input %ld left sessions in the TPM\n", i);
			if (e && !getenv("TKFUZZ_NO_RESET"))
				t_tpm1_reset_lock();
		}
		if (getenv("TKFUZZ_SHOW"))
			fprintf(stderr, "%ld: %.200s\n", i, in);
	}
	printf("# tkfuzz %s seed %llu inputs %ld: made %ld failed %ld skipped %ld\n",
	       argv[optind], (unsigned long long)seed, count, made, failed,
	       skipped);
	if (trusted && !tpm2 && !dry)
		printf("# tkfuzz TPM 1.2 lock resets %ld, failed %ld; sessions left %ld\n",
		       t_tpm1_resets, t_tpm1_reset_fail, t_tpm1_left);
	t_keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
	t_keyctl(KEYCTL_CLEAR, mring, 0, 0, 0);
	return t_tpm1_reset_fail ? 1 : 0;
usage:
	fprintf(stderr, "usage: tkfuzz [-x OPTS] [-t 1.2|2.0] [-d DIR] trusted|encrypted SEED FIRST COUNT\n");
	return 2;
}
