// SPDX-License-Identifier: GPL-2.0
/* Unit tests of src/lib/tk_opts.c: the trusted key command line. */
#include "tk_test.h"
#include <linux/errno.h>
#include <linux/kernel.h>
#include "tk_opts.h"

#define TPM12 false
#define TPM20 true

#define HEX40 "000102030405060708090a0b0c0d0e0f10111213"
#define HEX64 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
/* a well-formed keydigest=: 1000 iterations, 32-byte salt and digest */
#define KD_GOOD "pbkdf2:sha256:1000:" HEX64 ":" HEX64

static struct tk_request req;

/* Parse a heap copy of exactly strlen(s) + 1 bytes, so ASan sees overruns. */
static int parse(const char *s, bool tpm2)
{
	char *line = strdup(s);
	int ret;

	memset(&req, 0xa5, sizeof(req));
	ret = tk_parse_request(line, tpm2, &req);
	free(line);
	return ret;
}

/* @s parses; on failure say why. */
#define OK(s, tpm2) do {						\
	int ok_ret_ = parse(s, tpm2);					\
	if (!CHECK(ok_ret_ == 0))					\
		printf("     \"%s\" (%s): %d, %s\n", s,			\
		       tpm2 ? "2.0" : "1.2", ok_ret_, req.why);		\
	else								\
		CHECK(req.why == NULL);					\
} while (0)

/* @s is refused with -EINVAL and a reason containing @reason. */
#define REFUSED(s, tpm2, reason) do {					\
	int bad_ret_ = parse(s, tpm2);					\
	if (!CHECK(bad_ret_ == -EINVAL)) {				\
		printf("     \"%s\" (%s): %d\n", s, tpm2 ? "2.0" : "1.2",	\
		       bad_ret_);					\
	} else if (CHECK(req.why != NULL && *req.why)) {		\
		if (!CHECK(strstr(req.why, reason) != NULL))		\
			printf("     \"%s\": why \"%s\", want \"%s\"\n", s, \
			       req.why, reason);			\
	}								\
} while (0)

/* A hex string of @n bytes 00 01 02 ... */
static char *hexbytes(unsigned int n)
{
	char *s = malloc(2 * n + 1);
	unsigned int i;

	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", i & 0xff);
	s[2 * n] = '\0';
	return s;
}

static char *cat(const char *a, const char *b)
{
	char *s = malloc(strlen(a) + strlen(b) + 1);

	strcpy(s, a);
	strcat(s, b);
	return s;
}

static const u8 seq20[20] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
};

static void test_new_defaults(void)
{
	OK("new 32", TPM12);
	CHECK_EQ(req.cmd, TK_CMD_NEW);
	CHECK_EQ(req.key_len, 32);
	CHECK_EQ(req.opt.given, 0);
	CHECK_EQ(req.opt.migratable, 1);
	CHECK_EQ(req.opt.hash, TK_HASH_SHA1);
	CHECK_EQ(req.opt.pcrinfo_len, 0);
	CHECK_EQ(req.opt.blobauth_len, 0);
	CHECK_EQ(req.opt.policydigest_len, 0);
	CHECK_EQ(req.blob_len, 0);

	OK("new 64", TPM20);
	CHECK_EQ(req.key_len, 64);
	CHECK_EQ(req.opt.hash, TK_HASH_SHA256);
	CHECK_EQ(req.opt.migratable, 1);
	CHECK_EQ(req.opt.given, 0);
}

static void test_new_key_length(void)
{
	OK("new 32", TPM12);
	OK("new 128", TPM12);
	CHECK_EQ(req.key_len, 128);
	OK("new 128", TPM20);
	REFUSED("new 31", TPM12, "out of range");
	REFUSED("new 129", TPM12, "out of range");
	REFUSED("new 31", TPM20, "out of range");
	REFUSED("new 129", TPM20, "out of range");
	REFUSED("new 0", TPM12, "out of range");
	REFUSED("new", TPM12, "key length");
	REFUSED("new ", TPM12, "key length");
	REFUSED("new 32x", TPM12, "key length");
	REFUSED("new x32", TPM12, "key length");
	REFUSED("new -32", TPM12, "key length");
	REFUSED("new +32", TPM12, "key length");
	REFUSED("new 0x20", TPM12, "key length");
	REFUSED("new 3 2", TPM12, "out of range");
	/* 2^32 + 32 must not wrap to 32. */
	REFUSED("new 4294967328", TPM12, "key length");
	REFUSED("new 4294967295", TPM12, "out of range");
	/* Leading zeros are still decimal. */
	OK("new 064", TPM12);
	CHECK_EQ(req.key_len, 64);
	/* A second number is not an option. */
	REFUSED("new 32 32", TPM12, "without a value");
	REFUSED("new 32x keyhandle=1", TPM12, "key length");
}

static void test_load(void)
{
	char *hex, *line;

	OK("load 0011aaBB", TPM12);
	CHECK_EQ(req.cmd, TK_CMD_LOAD);
	CHECK_EQ(req.blob_len, 4);
	CHECK_MEM(req.blob, "\x00\x11\xaa\xbb", 4);
	CHECK_EQ(req.key_len, 0);
	REFUSED("load", TPM12, "needs a blob");
	REFUSED("load   ", TPM20, "needs a blob");
	REFUSED("load 001", TPM12, "hex");
	REFUSED("load 0g", TPM12, "hex");
	REFUSED("load 0x00", TPM12, "hex");

	hex = hexbytes(TK_BLOB_MAX);
	line = cat("load ", hex);
	OK(line, TPM12);
	CHECK_EQ(req.blob_len, TK_BLOB_MAX);
	CHECK_EQ(req.blob[TK_BLOB_MAX - 1], (TK_BLOB_MAX - 1) & 0xff);
	free(line);
	free(hex);

	hex = hexbytes(TK_BLOB_MAX + 1);
	line = cat("load ", hex);
	REFUSED(line, TPM12, "too large");
	OK(line, TPM20);			/* signed policies make it long */
	CHECK_EQ(req.blob_len, TK_BLOB_MAX + 1);
	free(line);
	free(hex);

	hex = hexbytes(TK_LOAD_MAX + 1);
	line = cat("load ", hex);
	REFUSED(line, TPM20, "too large");
	free(line);
	free(hex);

	OK("load 00 keyhandle=0x40000000", TPM12);
	CHECK_EQ(req.blob_len, 1);
	CHECK(tk_opt_given(&req.opt, TK_OPT_KEYHANDLE));
	REFUSED("load 00 01", TPM12, "without a value");
	REFUSED("load keyhandle=1", TPM12, "hex");
}

static void test_update(void)
{
	OK("update", TPM12);
	CHECK_EQ(req.cmd, TK_CMD_UPDATE);
	CHECK_EQ(req.opt.given, 0);
	OK("update pcrinfo=00ff", TPM12);
	CHECK_EQ(req.opt.pcrinfo_len, 2);
	OK("update\n", TPM20);
	REFUSED("update 32", TPM12, "without a value");
	REFUSED("update 00ff", TPM12, "without a value");
}

static void test_commands(void)
{
	REFUSED("", TPM12, "empty");
	REFUSED("   ", TPM12, "empty");
	REFUSED("\t\n", TPM20, "empty");
	REFUSED("NEW 32", TPM12, "unknown command");
	REFUSED("add 32", TPM12, "unknown command");
	REFUSED("news 32", TPM12, "unknown command");
	REFUSED("new32", TPM12, "unknown command");
	REFUSED("keyhandle=1", TPM12, "unknown command");
	REFUSED("loadnew 32", TPM12, "unknown command");
}

static void test_whitespace(void)
{
	OK("new 32\n", TPM12);
	CHECK_EQ(req.key_len, 32);
	OK("\tnew\t32\t", TPM12);
	OK("  new   32   migratable=0    keyhandle=1  \n", TPM12);
	CHECK_EQ(req.key_len, 32);
	CHECK_EQ(req.opt.migratable, 0);
	CHECK_EQ(req.opt.keyhandle, 1);
	OK("new\n32\nmigratable=0\n", TPM12);
	CHECK_EQ(req.opt.migratable, 0);
	OK(" \t \n new \t\n 33 \t\n", TPM20);
	CHECK_EQ(req.key_len, 33);
	OK("load\t00ff\n", TPM12);
	CHECK_EQ(req.blob_len, 2);
	/* Only space, tab and newline separate. */
	REFUSED("new 32\r", TPM12, "key length");
	REFUSED("new\v32", TPM12, "unknown command");
	REFUSED("new 32 migratable=0\r", TPM12, "migratable");
	/* No blanks around '='. */
	REFUSED("new 32 migratable =0", TPM12, "without a value");
	REFUSED("new 32 migratable= 0", TPM12, "empty value");
}

static void test_option_syntax(void)
{
	REFUSED("new 32 keyhandle", TPM12, "without a value");
	REFUSED("new 32 keyhandle=", TPM12, "empty value");
	REFUSED("new 32 =1", TPM12, "unknown option");
	REFUSED("new 32 foo=1", TPM12, "unknown option");
	REFUSED("new 32 KEYHANDLE=1", TPM12, "unknown option");
	REFUSED("new 32 keyhandle1=1", TPM12, "unknown option");
	REFUSED("new 32 key=1", TPM12, "unknown option");
	REFUSED("new 32 keytype=1", TPM12, "unknown option");
	REFUSED("new 32 keyhandle==1", TPM12, "keyhandle");
	REFUSED("new 32 keyhandle=1=1", TPM12, "keyhandle");
}

static void test_keyhandle(void)
{
	OK("new 32 keyhandle=0x81000001", TPM20);
	CHECK(tk_opt_given(&req.opt, TK_OPT_KEYHANDLE));
	CHECK_EQ(req.opt.given, 1U << TK_OPT_KEYHANDLE);
	CHECK_EQ(req.opt.keyhandle, 0x81000001);
	OK("new 32 keyhandle=81000001", TPM20);
	CHECK_EQ(req.opt.keyhandle, 0x81000001);
	OK("new 32 keyhandle=0X40000000", TPM12);
	CHECK_EQ(req.opt.keyhandle, 0x40000000);
	OK("new 32 keyhandle=ffffffff", TPM12);
	CHECK_EQ(req.opt.keyhandle, 0xffffffffu);
	REFUSED("new 32 keyhandle=0", TPM12, "must not be 0");
	REFUSED("new 32 keyhandle=0x0", TPM20, "must not be 0");
	REFUSED("new 32 keyhandle=100000000", TPM12, "keyhandle");
	REFUSED("new 32 keyhandle=0x", TPM12, "keyhandle");
	REFUSED("new 32 keyhandle=xyz", TPM12, "keyhandle");
	REFUSED("new 32 keyhandle=0x4000000g", TPM12, "keyhandle");
	REFUSED("new 32 keyhandle=-1", TPM12, "keyhandle");
}

static void test_keyauth(void)
{
	OK("new 32 keyauth=" HEX40, TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_KEYAUTH));
	CHECK_MEM(req.opt.keyauth, seq20, 20);
	OK("new 32 keyauth=" "000102030405060708090A0B0C0D0E0F10111213", TPM20);
	CHECK_MEM(req.opt.keyauth, seq20, 20);
	REFUSED("new 32 keyauth=0001020304050607080900", TPM12, "keyauth");
	REFUSED("new 32 keyauth=" HEX40 "00", TPM12, "keyauth");
	REFUSED("new 32 keyauth=" HEX40 "0", TPM12, "keyauth");
	REFUSED("new 32 keyauth=000102030405060708090a0b0c0d0e0f101112", TPM12,
		"keyauth");
	REFUSED("new 32 keyauth=000102030405060708090a0b0c0d0e0f1011121", TPM12,
		"keyauth");
	REFUSED("new 32 keyauth=000102030405060708090a0b0c0d0e0f1011121g", TPM12,
		"keyauth");
	REFUSED("new 32 keyauth=secret", TPM20, "keyauth");
}

static void test_blobauth(void)
{
	OK("new 32 blobauth=" HEX40, TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_BLOBAUTH));
	CHECK_EQ(req.opt.blobauth_len, 20);
	CHECK_MEM(req.opt.blobauth, seq20, 20);
	OK("new 32 blobauth=" HEX40, TPM20);
	CHECK_EQ(req.opt.blobauth_len, 20);
	CHECK_MEM(req.opt.blobauth, seq20, 20);
	/* TPM 1.2: 40 hex digits only. */
	REFUSED("new 32 blobauth=hello", TPM12, "blobauth");
	REFUSED("new 32 blobauth=" HEX40 "00", TPM12, "blobauth");
	REFUSED("new 32 blobauth=000102030405060708090a0b0c0d0e0f1011121", TPM12,
		"blobauth");
	REFUSED("new 32 blobauth=000102030405060708090a0b0c0d0e0f1011121z", TPM12,
		"not hex");
	/* TPM 2.0: a password of 1..20 bytes, taken as it is. */
	OK("new 32 blobauth=hello", TPM20);
	CHECK_EQ(req.opt.blobauth_len, 5);
	CHECK_MEM(req.opt.blobauth, "hello", 5);
	OK("new 32 blobauth=x", TPM20);
	CHECK_EQ(req.opt.blobauth_len, 1);
	OK("new 32 blobauth=01234567890123456789", TPM20);
	CHECK_EQ(req.opt.blobauth_len, 20);
	CHECK_MEM(req.opt.blobauth, "01234567890123456789", 20);
	REFUSED("new 32 blobauth=012345678901234567890", TPM20, "blobauth");
	REFUSED("new 32 blobauth=" HEX40 "0", TPM20, "blobauth");
	/* 40 characters are always hex, also on a TPM 2.0. */
	REFUSED("new 32 blobauth=abcdefghijabcdefghijabcdefghijabcdefghij",
		TPM20, "not hex");
}

static void test_pcrinfo(void)
{
	char *hex, *line;

	OK("new 32 pcrinfo=00", TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_PCRINFO));
	CHECK_EQ(req.opt.pcrinfo_len, 1);
	OK("new 32 pcrinfo=" HEX40, TPM20);
	CHECK_EQ(req.opt.pcrinfo_len, 20);
	CHECK_MEM(req.opt.pcrinfo, seq20, 20);

	hex = hexbytes(TK_PCRINFO_MAX);
	line = cat("new 32 pcrinfo=", hex);
	OK(line, TPM12);
	CHECK_EQ(req.opt.pcrinfo_len, 64);
	CHECK_EQ(req.opt.pcrinfo[63], 63);
	free(line);
	free(hex);

	hex = hexbytes(TK_PCRINFO_MAX + 1);
	line = cat("new 32 pcrinfo=", hex);
	REFUSED(line, TPM12, "longer than 64 bytes");
	REFUSED(line, TPM20, "longer than 64 bytes");
	free(line);
	free(hex);

	REFUSED("new 32 pcrinfo=0", TPM12, "not hex");
	REFUSED("new 32 pcrinfo=001", TPM12, "not hex");
	REFUSED("new 32 pcrinfo=0g", TPM12, "not hex");
	REFUSED("new 32 pcrinfo=0x00", TPM12, "not hex");
}

static void test_pcrlock(void)
{
	OK("new 32 pcrlock=0", TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_PCRLOCK));
	CHECK_EQ(req.opt.pcrlock, 0);
	OK("new 32 pcrlock=23", TPM12);
	CHECK_EQ(req.opt.pcrlock, 23);
	OK("new 32 pcrlock=7", TPM20);
	CHECK_EQ(req.opt.pcrlock, 7);
	REFUSED("new 32 pcrlock=24", TPM12, "pcrlock");
	REFUSED("new 32 pcrlock=4294967296", TPM12, "pcrlock");
	REFUSED("new 32 pcrlock=-1", TPM12, "pcrlock");
	REFUSED("new 32 pcrlock=0x1", TPM12, "pcrlock");
	REFUSED("new 32 pcrlock=1a", TPM12, "pcrlock");
	REFUSED("new 32 pcrlock=a", TPM12, "pcrlock");
}

static void test_migratable(void)
{
	OK("new 32 migratable=0", TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_MIGRATABLE));
	CHECK_EQ(req.opt.migratable, 0);
	OK("new 32 migratable=1", TPM12);
	CHECK_EQ(req.opt.migratable, 1);
	OK("new 32 migratable=0", TPM20);
	CHECK_EQ(req.opt.migratable, 0);
	REFUSED("new 32 migratable=2", TPM12, "migratable");
	REFUSED("new 32 migratable=01", TPM12, "migratable");
	REFUSED("new 32 migratable=00", TPM12, "migratable");
	REFUSED("new 32 migratable=10", TPM12, "migratable");
	REFUSED("new 32 migratable=yes", TPM12, "migratable");
	REFUSED("new 32 migratable=true", TPM12, "migratable");
}

/* sessions=0|1 on a TPM 1.2 too (its transport session), default 1. */
static void test_sessions_tpm12(void)
{
	OK("new 32", TPM12);
	CHECK_EQ(req.opt.sessions, 1);
	OK("new 32 sessions=0", TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_SESSIONS));
	CHECK_EQ(req.opt.sessions, 0);
	OK("load 00 sessions=1", TPM12);
	CHECK_EQ(req.opt.sessions, 1);
	REFUSED("new 32 sessions=2", TPM12, "sessions must be 0 or 1");
	REFUSED("new 32 sessions=off", TPM12, "sessions must be 0 or 1");
	REFUSED("new 32 sessions=0 sessions=1", TPM12, "twice");
}

static void test_hash(void)
{
	static const struct {
		const char *name;
		enum tk_hash hash;
		unsigned int size;
	} h[] = {
		{ "sha1", TK_HASH_SHA1, 20 },
		{ "sha256", TK_HASH_SHA256, 32 },
		{ "sha384", TK_HASH_SHA384, 48 },
		{ "sha512", TK_HASH_SHA512, 64 },
		{ "sm3", TK_HASH_SM3_256, 32 },
	};
	char line[64];
	unsigned int i;

	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		snprintf(line, sizeof(line), "new 32 hash=%s", h[i].name);
		OK(line, TPM20);
		CHECK(tk_opt_given(&req.opt, TK_OPT_HASH));
		CHECK_EQ(req.opt.hash, h[i].hash);
		CHECK_EQ(tk_hash_size(h[i].hash), h[i].size);
		CHECK_STR(tk_hash_name(h[i].hash), h[i].name);
		/* TPM 1.2 seals with SHA-1 only. */
		if (h[i].hash == TK_HASH_SHA1)
			OK(line, TPM12);
		else
			REFUSED(line, TPM12, "sha1 only");
	}
	CHECK_EQ(tk_hash_size(TK_HASH_COUNT), 0);
	CHECK_STR(tk_hash_name(TK_HASH_COUNT), "?");

	REFUSED("new 32 hash=SHA256", TPM20, "unknown hash");
	REFUSED("new 32 hash=sha224", TPM20, "unknown hash");
	REFUSED("new 32 hash=md5", TPM20, "unknown hash");
	REFUSED("new 32 hash=sm3-256", TPM20, "unknown hash");
	REFUSED("new 32 hash=sha", TPM20, "unknown hash");
	REFUSED("new 32 hash=sha2566", TPM20, "unknown hash");
	REFUSED("new 32 hash=md5", TPM12, "unknown hash");
}

static void test_policydigest(void)
{
	char *hex, *line;

	/* The digest size follows the hash; the default is sha256. */
	OK("new 32 policydigest=" HEX64, TPM20);
	CHECK(tk_opt_given(&req.opt, TK_OPT_POLICYDIGEST));
	CHECK_EQ(req.opt.policydigest_len, 32);
	CHECK_EQ(req.opt.policydigest[31], 31);
	OK("new 32 hash=sha1 policydigest=" HEX40, TPM20);
	CHECK_EQ(req.opt.policydigest_len, 20);
	CHECK_MEM(req.opt.policydigest, seq20, 20);
	OK("new 32 hash=sm3 policydigest=" HEX64, TPM20);
	CHECK_EQ(req.opt.policydigest_len, 32);

	hex = hexbytes(48);
	line = cat("new 32 hash=sha384 policydigest=", hex);
	OK(line, TPM20);
	CHECK_EQ(req.opt.policydigest_len, 48);
	free(line);
	line = cat("new 32 policydigest=", hex);
	REFUSED(line, TPM20, "does not match hash");
	free(line);
	free(hex);

	hex = hexbytes(64);
	line = cat("new 32 hash=sha512 policydigest=", hex);
	OK(line, TPM20);
	CHECK_EQ(req.opt.policydigest_len, 64);
	CHECK_EQ(req.opt.policydigest[63], 63);
	free(line);
	line = cat("new 32 hash=sha256 policydigest=", hex);
	REFUSED(line, TPM20, "does not match hash");
	free(line);
	free(hex);

	REFUSED("new 32 policydigest=" HEX40, TPM20, "does not match hash");
	REFUSED("new 32 hash=sha1 policydigest=" HEX64, TPM20,
		"does not match hash");
	REFUSED("new 32 hash=sha256 policydigest=" HEX64 "0", TPM20,
		"does not match hash");
	REFUSED("new 32 policydigest="
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g",
		TPM20, "does not match hash");
	/* The hash must come first: its size governs the digest. */
	REFUSED("new 32 policydigest=" HEX64 " hash=sha256", TPM20,
		"hash must come before policydigest");
	REFUSED("new 32 policydigest=" HEX64 " hash=sha1", TPM20,
		"hash must come before policydigest");
	/* TPM 1.2 has no policies. */
	REFUSED("new 32 policydigest=" HEX40, TPM12, "needs a TPM 2.0");
	REFUSED("new 32 hash=sha1 policydigest=" HEX40, TPM12,
		"needs a TPM 2.0");
}

static void test_policyhandle(void)
{
	OK("new 32 policyhandle=0x03000000", TPM20);
	CHECK(tk_opt_given(&req.opt, TK_OPT_POLICYHANDLE));
	CHECK_EQ(req.opt.policyhandle, 0x03000000);
	OK("new 32 policyhandle=3000001", TPM20);
	CHECK_EQ(req.opt.policyhandle, 0x03000001);
	REFUSED("new 32 policyhandle=0x03000000", TPM12, "needs a TPM 2.0");
	REFUSED("new 32 policyhandle=session", TPM20, "policyhandle");
	REFUSED("new 32 policyhandle=0x", TPM20, "policyhandle");
	REFUSED("new 32 policyhandle=100000000", TPM20, "policyhandle");
}

/* pcrs=<bank>:<pcr>[,<pcr>...], a pcr being N or N-M, PCRs 0..23. */
static void test_pcrs(void)
{
	static const char * const bad[] = {
		"sha256", "sha256:", ":0", "md5:0", "SHA256:0", "sha:0",
		"sha2566:0", "sha256:24", "sha256:0-24", "sha256:7-0",
		"sha256:0,", "sha256:,0", "sha256:0,,1", "sha256:-1",
		"sha256:1-", "sha256:-", "sha256:1-2-3", "sha256:a",
		"sha256:0x1", "sha256:0:1", "sha256:4294967296",
		"sha256:4294967296-4294967297", "sha256;0",
	};
	char line[160];
	unsigned int i;

	OK("new 32 pcrs=sha256:0", TPM20);
	CHECK(tk_opt_given(&req.opt, TK_OPT_PCRS));
	CHECK_EQ(req.opt.pcrs_bank, TK_HASH_SHA256);
	CHECK_EQ(req.opt.pcrs_mask, 0x1);
	OK("new 32 pcrs=sha1:0-7,16", TPM20);
	CHECK_EQ(req.opt.pcrs_bank, TK_HASH_SHA1);
	CHECK_EQ(req.opt.pcrs_mask, 0x100ff);
	OK("new 32 pcrs=sha384:23", TPM20);
	CHECK_EQ(req.opt.pcrs_bank, TK_HASH_SHA384);
	CHECK_EQ(req.opt.pcrs_mask, 0x800000);
	OK("new 32 pcrs=sha512:0-23", TPM20);
	CHECK_EQ(req.opt.pcrs_bank, TK_HASH_SHA512);
	CHECK_EQ(req.opt.pcrs_mask, 0xffffff);
	OK("new 32 pcrs=sm3:5,5,7-7", TPM20);
	CHECK_EQ(req.opt.pcrs_bank, TK_HASH_SM3_256);
	CHECK_EQ(req.opt.pcrs_mask, 0xa0);
	OK("new 32 pcrs=sha256:00,023", TPM20);
	CHECK_EQ(req.opt.pcrs_mask, 0x800001);
	/* The bank is not the sealing hash: each has its own default. */
	OK("update hash=sha1 pcrs=sha256:7", TPM20);
	CHECK_EQ(req.opt.hash, TK_HASH_SHA1);
	CHECK_EQ(req.opt.pcrs_bank, TK_HASH_SHA256);
	/* Every PCR named once is the longest list anyone needs. */
	OK("new 32 pcrs=sha256:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,"
	   "18,19,20,21,22,23", TPM20);
	CHECK_EQ(req.opt.pcrs_mask, 0xffffff);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "new 32 pcrs=%s", bad[i]);
		REFUSED(line, TPM20, "pcrs must be");
	}
	/* An overlong list is refused, not copied past its buffer. */
	strcpy(line, "new 32 pcrs=sha256:");
	for (i = 0; i < 40; i++)
		strcat(line, "1,");
	strcat(line, "1");
	REFUSED(line, TPM20, "pcrs must be");

	REFUSED("new 32 pcrs=sha1:0", TPM12, "needs a TPM 2.0");
	REFUSED("new 32 pcrs=sha256:0-7", TPM12, "needs a TPM 2.0");
}

/* logon=<prefix>:<desc>: what the logon key type and dm-crypt accept. */
static void test_logon(void)
{
	static const char * const bad[] = {
		"disk", ":disk", "tk:", ":", "::", "tk\x01:a", "t\x7f:a",
		"t\xc3\xa9:a",
	};
	char line[600], desc[300];
	unsigned int i;

	OK("new 32 logon=tk:disk", TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_LOGON));
	CHECK(!strcmp(req.opt.logon, "tk:disk"));
	OK("load 00ff logon=cryptsetup:vol:a:b", TPM20);
	CHECK(!strcmp(req.opt.logon, "cryptsetup:vol:a:b"));
	OK("update logon=x::", TPM12);
	CHECK(!strcmp(req.opt.logon, "x::"));
	OK("new 32 logon=a:~!\"$%&'()*+,-./0123456789;<=>?@[]^_`{|}", TPM12);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "new 32 logon=%s", bad[i]);
		REFUSED(line, TPM12, "logon");
	}
	REFUSED("new 32 logon=", TPM12, "empty value");
	REFUSED("new 32 logon", TPM12, "without a value");

	/* 255 characters is the bound; 256 are refused. */
	memset(desc, 'a', sizeof(desc));
	desc[1] = ':';
	desc[255] = '\0';
	snprintf(line, sizeof(line), "new 32 logon=%s", desc);
	OK(line, TPM12);
	CHECK_EQ(strlen(req.opt.logon), 255);
	desc[255] = 'a';
	desc[256] = '\0';
	snprintf(line, sizeof(line), "new 32 logon=%s", desc);
	REFUSED(line, TPM12, "longer than 255");
}

/* sessions=0|1: TPM 2.0 only, default 1. */
static void test_sessions(void)
{
	OK("new 32", TPM20);
	CHECK_EQ(req.opt.sessions, 1);
	OK("new 32 sessions=0", TPM20);
	CHECK_EQ(req.opt.sessions, 0);
	OK("load 00 sessions=1", TPM20);
	CHECK_EQ(req.opt.sessions, 1);
	OK("update sessions=0", TPM20);
	CHECK_EQ(req.opt.sessions, 0);
	REFUSED("new 32 sessions=2", TPM20, "sessions must be 0 or 1");
	REFUSED("new 32 sessions=", TPM20, "empty value");
}

/* An ECC P-256 signer's TPMT_PUBLIC (nameAlg SHA-256, sign|userWithAuth). */
#define EC_SIGNER "0023000b00040040000000100010000300100020111111111111111111111111111111111111111111111111111111111111111100202222222222222222222222222222222222222222222222222222222222222222"

static void test_policykey(void)
{
	OK("new 32 policykey=" EC_SIGNER, TPM20);
	CHECK_EQ(req.opt.policykey_len, 86);
	CHECK_EQ(req.opt.policykey[1], 0x23);
	/* the TPM2B form, as trusted-policy signer-public writes it */
	OK("new 32 policykey=0056" EC_SIGNER, TPM20);
	CHECK_EQ(req.opt.policykey_len, 86);
	CHECK_EQ(req.opt.policykey[1], 0x23);
	REFUSED("new 32 policykey=" EC_SIGNER, TPM12, "needs a TPM 2.0");
	REFUSED("new 32 policykey=0023000b", TPM20, "RSA-2048 or ECC P-256");
	REFUSED("new 32 policykey=0057" EC_SIGNER, TPM20, "RSA-2048 or ECC P-256");
	REFUSED("new 32 policykey=zz", TPM20, "not hex");
}

/* policyref=: 1 to 64 bytes that bind approvals to a key (issue 22). */
static void test_policyref(void)
{
	OK("new 32 policykey=" EC_SIGNER " policyref=6b6d6b", TPM20);
	CHECK_EQ(req.opt.policyref_len, 3);
	CHECK_EQ(req.opt.policyref[0], 0x6b);
	OK("load 00 policyref=" HEX64, TPM20);
	CHECK_EQ(req.opt.policyref_len, 32);
	REFUSED("new 32 policyref=6b", TPM12, "needs a TPM 2.0");
	REFUSED("new 32 policyref=6", TPM20, "1 to 64 bytes");
	REFUSED("new 32 policyref=zz", TPM20, "1 to 64 bytes");
	REFUSED("new 32 policyref=" HEX64 HEX64 "00", TPM20, "1 to 64 bytes");
}

/* revoke=: an NV counter's handle, TPM 2.0 only (issue 27). */
static void test_revoke(void)
{
	OK("new 32 policykey=" EC_SIGNER " revoke=01800100", TPM20);
	CHECK_EQ(req.opt.revoke, 0x01800100);
	OK("new 32 policykey=" EC_SIGNER " revoke=0x01c00001", TPM20);
	CHECK_EQ(req.opt.revoke, 0x01c00001);
	REFUSED("new 32 revoke=01800100", TPM12, "needs a TPM 2.0");
	REFUSED("new 32 revoke=81000001", TPM20, "not an NV index");
	REFUSED("new 32 revoke=0", TPM20, "not an NV index");
	REFUSED("new 32 revoke=zz", TPM20, "not an NV index");
	REFUSED("new 32 revoke=101800100", TPM20, "not an NV index");
}

/* Every option, given twice, is refused; the first value alone parses. */
static void test_duplicates(void)
{
	static const char * const opts[] = {
		"keyhandle=0x81000001", "keyauth=" HEX40, "blobauth=" HEX40,
		"pcrinfo=00", "pcrlock=1", "migratable=0", "hash=sha256",
		"policydigest=" HEX64, "policyhandle=0x03000000",
		"pcrs=sha256:0-7", "logon=tk:disk", "sessions=0",
		"policykey=" EC_SIGNER, "policyref=00", "revoke=01800100",
		"import=" HEX64, "keydigest=" KD_GOOD, "pcrcap=15",
	};
	/* what an option needs beside it, and the bit that adds */
	static const struct { enum tk_opt opt; const char *with; enum tk_opt bit; } need[] = {
		{ TK_OPT_KEYDIGEST, "import=" HEX64, TK_OPT_IMPORT },
		{ TK_OPT_PCRCAP, "pcrs=sha256:0", TK_OPT_PCRS },
	};
	char line[1024];
	unsigned int i, j;

	CHECK_EQ(sizeof(opts) / sizeof(opts[0]), TK_OPT_COUNT);
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *with = "";
		u32 more = 0;

		for (j = 0; j < sizeof(need) / sizeof(need[0]); j++) {
			if (need[j].opt == i) {
				with = need[j].with;
				more = 1U << need[j].bit;
			}
		}
		snprintf(line, sizeof(line), "new 32 %s %s", with, opts[i]);
		OK(line, TPM20);
		CHECK_EQ(req.opt.given, (1U << i) | more);
		snprintf(line, sizeof(line), "new 32 %s %s %s", with, opts[i], opts[i]);
		REFUSED(line, TPM20, "given twice");
		if (i == TK_OPT_IMPORT || i == TK_OPT_KEYDIGEST)
			continue;	/* not update options: test_import, test_keydigest */
		snprintf(line, sizeof(line), "update %s migratable=1 %s",
			 i == TK_OPT_MIGRATABLE ? "pcrlock=2" : opts[i], opts[i]);
		REFUSED(line, TPM20, "given twice");
	}
	REFUSED("new 32 hash=sha1 hash=sha1", TPM12, "given twice");
	/* A duplicate with a different value is still a duplicate. */
	REFUSED("new 32 migratable=0 migratable=1", TPM12, "given twice");
	REFUSED("new 32 keyhandle=1 keyhandle=2", TPM12, "given twice");
}

static bool all_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* import=: exactly the key of "new LEN", in hex; new only; wiped if refused. */
static void test_import(void)
{
	char *h48 = hexbytes(48), *h128 = hexbytes(128), *h129 = hexbytes(129);
	char line[600];
	u8 want[128];
	unsigned int i;

	for (i = 0; i < sizeof(want); i++)
		want[i] = i;
	OK("new 32 import=" HEX64, TPM12);
	CHECK(tk_opt_given(&req.opt, TK_OPT_IMPORT));
	CHECK_EQ(req.opt.import_len, 32);
	CHECK_MEM(req.opt.import, want, 32);
	OK("new 32 import=" HEX64 " logon=tk:vol", TPM20);
	CHECK_EQ(req.opt.import_len, 32);
	snprintf(line, sizeof(line), "new 48 import=%s", h48);
	OK(line, TPM20);
	CHECK_EQ(req.opt.import_len, 48);
	snprintf(line, sizeof(line), "new 128 import=%s", h128);
	OK(line, TPM20);
	CHECK_EQ(req.opt.import_len, 128);
	CHECK_MEM(req.opt.import, want, 128);
	/* upper-case hex is hex */
	OK("new 32 import=000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", TPM12);
	CHECK_MEM(req.opt.import, want, 32);

	/* bounds: the length must be new's */
	REFUSED("new 48 import=" HEX64, TPM20, "as many bytes as new's key length");
	snprintf(line, sizeof(line), "new 32 import=%s", h48);
	REFUSED(line, TPM12, "as many bytes as new's key length");
	snprintf(line, sizeof(line), "new 128 import=%s", h129);
	REFUSED(line, TPM20, "as many bytes as new's key length");
	REFUSED("new 32 import=00", TPM20, "as many bytes");
	/* syntax */
	REFUSED("new 32 import=" HEX64 "0", TPM20, "not hex");
	REFUSED("new 32 import=0x" HEX64, TPM20, "not hex");
	REFUSED("new 32 import=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g",
		TPM20, "not hex");
	REFUSED("new 32 import=", TPM20, "empty value");
	/* new only */
	REFUSED("load 00 import=" HEX64, TPM20, "new only");
	REFUSED("update import=" HEX64, TPM20, "new only");
	REFUSED("load 00 import=" HEX64, TPM12, "new only");

	/* a refused line leaves none of the bytes in the request */
	REFUSED("new 32 import=" HEX64 " pcrlock=99", TPM12, "pcrlock");
	CHECK(all_zero(req.opt.import, sizeof(req.opt.import)));
	CHECK_EQ(req.opt.import_len, 0);
	REFUSED("new 32 import=1111111111111111111111111111111111111111111111111111111111111zz1",
		TPM20, "not hex");
	CHECK(all_zero(req.opt.import, sizeof(req.opt.import)));
	snprintf(line, sizeof(line), "new 32 import=%s", h48);
	REFUSED(line, TPM20, "as many bytes");
	CHECK(all_zero(req.opt.import, sizeof(req.opt.import)));
	REFUSED("new 32 import=" HEX64 " keydigest=pbkdf2:md5:1000:00:" HEX64, TPM20,
		"keydigest hash");
	CHECK(all_zero(req.opt.import, sizeof(req.opt.import)));
	free(h48);
	free(h128);
	free(h129);
}

/* keydigest=pbkdf2:<hash>:<iterations>:<salt>:<digest>, LUKS2's digest. */
static void test_keydigest(void)
{
	static const char * const syntax[] = {
		"pbkdf2", "pbkdf2:sha256", "pbkdf2:sha256:1000",
		"pbkdf2:sha256:1000:00", "pbkdf2:sha256:1000:00:" HEX64 ":",
		"pbkdf2:sha256:1000:00:" HEX64 ":00", "argon2id:sha256:1000:00:" HEX64,
		"PBKDF2:sha256:1000:00:" HEX64, "pbkdf:sha256:1000:00:" HEX64,
		":sha256:1000:00:" HEX64, "pbkdf2::sha256:1000:00:" HEX64,
	};
	char *s128 = hexbytes(128), *s129 = hexbytes(129);
	char line[800];
	unsigned int i;

	OK("load 00 keydigest=" KD_GOOD, TPM20);
	CHECK(tk_opt_given(&req.opt, TK_OPT_KEYDIGEST));
	CHECK_EQ(req.opt.keydigest.hash, TK_HASH_SHA256);
	CHECK_EQ(req.opt.keydigest.iterations, 1000);
	CHECK_EQ(req.opt.keydigest.salt_len, 32);
	CHECK_EQ(req.opt.keydigest.digest_len, 32);
	CHECK_EQ(req.opt.keydigest.salt[1], 0x01);
	CHECK_EQ(req.opt.keydigest.digest[31], 0x1f);
	OK("load 00 keydigest=" KD_GOOD, TPM12);
	OK("new 32 import=" HEX64 " keydigest=" KD_GOOD, TPM12);
	OK("new 32 keydigest=" KD_GOOD " import=" HEX64, TPM20);
	OK("load 00 keydigest=pbkdf2:sha1:16777216:ab:" HEX40, TPM20);
	CHECK_EQ(req.opt.keydigest.hash, TK_HASH_SHA1);
	CHECK_EQ(req.opt.keydigest.iterations, 16777216);
	CHECK_EQ(req.opt.keydigest.salt_len, 1);
	CHECK_EQ(req.opt.keydigest.digest_len, 20);
	OK("load 00 keydigest=pbkdf2:sha512:1000:ab:" HEX64 HEX64, TPM20);
	CHECK_EQ(req.opt.keydigest.hash, TK_HASH_SHA512);
	CHECK_EQ(req.opt.keydigest.digest_len, 64);
	OK("load 00 keydigest=pbkdf2:sha256:01000:ab:000102030405060708090a0b0c0d0e0f", TPM20);
	CHECK_EQ(req.opt.keydigest.digest_len, 16);
	snprintf(line, sizeof(line), "load 00 keydigest=pbkdf2:sha256:1000:%s:" HEX64, s128);
	OK(line, TPM20);
	CHECK_EQ(req.opt.keydigest.salt_len, 128);

	for (i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		snprintf(line, sizeof(line), "load 00 keydigest=%s", syntax[i]);
		REFUSED(line, TPM20, "keydigest must be pbkdf2:");
	}
	/* hash */
	REFUSED("load 00 keydigest=pbkdf2:sha384:1000:00:" HEX64, TPM20, "sha1, sha256 or sha512");
	REFUSED("load 00 keydigest=pbkdf2:md5:1000:00:" HEX64, TPM20, "sha1, sha256 or sha512");
	REFUSED("load 00 keydigest=pbkdf2:SHA256:1000:00:" HEX64, TPM20, "sha1, sha256 or sha512");
	REFUSED("load 00 keydigest=pbkdf2:sha2566:1000:00:" HEX64, TPM20, "sha1, sha256 or sha512");
	REFUSED("load 00 keydigest=pbkdf2::1000:00:" HEX64, TPM20, "sha1, sha256 or sha512");
	/* iterations: 1000 to 16777216, decimal */
	REFUSED("load 00 keydigest=pbkdf2:sha256:999:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:16777217:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:0:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256::00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1e3:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:+1000:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:0x1000:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:4294968296:00:" HEX64, TPM20, "iterations");
	REFUSED("load 00 keydigest=pbkdf2:sha256:000000000001000:00:" HEX64, TPM20, "iterations");
	/* salt: 1 to 128 bytes */
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000::" HEX64, TPM20, "salt");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:0:" HEX64, TPM20, "salt");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:zz:" HEX64, TPM20, "salt");
	snprintf(line, sizeof(line), "load 00 keydigest=pbkdf2:sha256:1000:%s:" HEX64, s129);
	REFUSED(line, TPM20, "salt");
	/* digest: 16 to 64 bytes */
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:00:", TPM20, "digest must be");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:00:000102030405060708090a0b0c0d0e", TPM20,
		"digest must be");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:00:" HEX64 HEX64 "00", TPM20, "digest must be");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:00:" HEX64 "0", TPM20, "digest must be");
	REFUSED("load 00 keydigest=pbkdf2:sha256:1000:00:zz" HEX64, TPM20, "digest must be");
	/* new with import only; never update */
	REFUSED("new 32 keydigest=" KD_GOOD, TPM20, "goes with import");
	REFUSED("new 32 keydigest=" KD_GOOD, TPM12, "goes with import");
	REFUSED("update keydigest=" KD_GOOD, TPM20, "new and load");
	free(s128);
	free(s129);
}

/* pcrcap=<n>: TPM 2.0, new/update with pcrs=, PCRs 0..15. */
static void test_pcrcap(void)
{
	static const char * const bad[] = {
		"16", "23", "24", "-1", "x", "0x1", "1.5", "4294967296", "15a",
	};
	char line[160];
	unsigned int i;

	OK("new 32 pcrs=sha256:0 pcrcap=15", TPM20);
	CHECK(tk_opt_given(&req.opt, TK_OPT_PCRCAP));
	CHECK_EQ(req.opt.pcrcap, 15);
	CHECK_EQ(req.opt.pcrs_mask, 0x1);	/* joins at seal, not here */
	OK("new 32 pcrcap=0 pcrs=sha1:7", TPM20);
	CHECK_EQ(req.opt.pcrcap, 0);
	OK("update pcrs=sha256:7 pcrcap=9", TPM20);
	CHECK_EQ(req.opt.pcrcap, 9);
	OK("new 32 pcrs=sha256:15 pcrcap=15 blobauth=4711", TPM20);
	OK("new 32 pcrs=sha256:0 pcrcap=015", TPM20);
	CHECK_EQ(req.opt.pcrcap, 15);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "new 32 pcrs=sha256:0 pcrcap=%s", bad[i]);
		REFUSED(line, TPM20, "pcrcap must be a PCR from 0 to 15");
	}
	REFUSED("new 32 pcrs=sha256:0 pcrcap=15", TPM12, "pcrs needs a TPM 2.0");
	REFUSED("new 32 pcrcap=15", TPM12, "pcrcap needs a TPM 2.0");
	REFUSED("load 00 pcrcap=15", TPM20, "new and update");
	REFUSED("load 00 pcrs=sha256:0 pcrcap=15", TPM20, "new and update");
	REFUSED("new 32 pcrcap=15", TPM20, "goes with pcrs");
	REFUSED("update pcrcap=15", TPM20, "goes with pcrs");
	REFUSED("new 32 pcrs=sha256:0 pcrcap=15 policydigest=" HEX64, TPM20,
		"cannot be combined");
	REFUSED("new 32 pcrcap=15 pcrs=sha256:0 policykey=" EC_SIGNER, TPM20,
		"cannot be combined");
}

/* Every option at once, in an order the rules allow. */
static void test_all_options(void)
{
	OK("new 48 keyhandle=0x81000001 keyauth=" HEX40 " blobauth=pw "
	   "pcrinfo=0102 pcrlock=16 migratable=0 hash=sha1 policydigest="
	   HEX40 " policyhandle=0x03000002", TPM20);
	CHECK_EQ(req.cmd, TK_CMD_NEW);
	CHECK_EQ(req.key_len, 48);
	CHECK_EQ(req.opt.given, BIT(TK_OPT_KEYHANDLE) | BIT(TK_OPT_KEYAUTH) |
		 BIT(TK_OPT_BLOBAUTH) | BIT(TK_OPT_PCRINFO) |
		 BIT(TK_OPT_PCRLOCK) | BIT(TK_OPT_MIGRATABLE) |
		 BIT(TK_OPT_HASH) | BIT(TK_OPT_POLICYDIGEST) |
		 BIT(TK_OPT_POLICYHANDLE));
	CHECK_EQ(req.opt.keyhandle, 0x81000001);
	CHECK_MEM(req.opt.keyauth, seq20, 20);
	CHECK_EQ(req.opt.blobauth_len, 2);
	CHECK_MEM(req.opt.blobauth, "pw", 2);
	CHECK_EQ(req.opt.pcrinfo_len, 2);
	CHECK_MEM(req.opt.pcrinfo, "\x01\x02", 2);
	CHECK_EQ(req.opt.pcrlock, 16);
	CHECK_EQ(req.opt.migratable, 0);
	CHECK_EQ(req.opt.hash, TK_HASH_SHA1);
	CHECK_EQ(req.opt.policydigest_len, 20);
	CHECK_EQ(req.opt.policyhandle, 0x03000002);

	OK("load 00ff keyhandle=40000000 keyauth=" HEX40 " blobauth=" HEX40
	   " pcrinfo=00 pcrlock=0 migratable=1 hash=sha1", TPM12);
	CHECK_EQ(req.cmd, TK_CMD_LOAD);
	CHECK_EQ(req.opt.given, BIT(TK_OPT_KEYHANDLE) | BIT(TK_OPT_KEYAUTH) |
		 BIT(TK_OPT_BLOBAUTH) | BIT(TK_OPT_PCRINFO) |
		 BIT(TK_OPT_PCRLOCK) | BIT(TK_OPT_MIGRATABLE) |
		 BIT(TK_OPT_HASH));

	/* One bad option among good ones spoils the line. */
	REFUSED("new 32 keyhandle=1 pcrlock=99 migratable=0", TPM12, "pcrlock");
}

/* A parse starts afresh: no reason left over from an earlier refusal. */
static void test_why_is_reset(void)
{
	REFUSED("new 31", TPM12, "out of range");
	OK("new 32", TPM12);
	CHECK(req.why == NULL);
}

int main(void)
{
	RUN(test_new_defaults);
	RUN(test_new_key_length);
	RUN(test_load);
	RUN(test_update);
	RUN(test_commands);
	RUN(test_whitespace);
	RUN(test_option_syntax);
	RUN(test_keyhandle);
	RUN(test_keyauth);
	RUN(test_blobauth);
	RUN(test_pcrinfo);
	RUN(test_pcrlock);
	RUN(test_migratable);
	RUN(test_sessions_tpm12);
	RUN(test_hash);
	RUN(test_policydigest);
	RUN(test_policyhandle);
	RUN(test_pcrs);
	RUN(test_logon);
	RUN(test_sessions);
	RUN(test_policykey);
	RUN(test_policyref);
	RUN(test_revoke);
	RUN(test_duplicates);
	RUN(test_import);
	RUN(test_keydigest);
	RUN(test_pcrcap);
	RUN(test_all_options);
	RUN(test_why_is_reset);
	return tk_test_done();
}
