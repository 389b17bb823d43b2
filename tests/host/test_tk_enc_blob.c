// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk_enc_blob.c: the encrypted key type's command
 * parser, blob layout, blob decoding and encoding.
 */
#include "tk_test.h"
#include <linux/errno.h>
#include <linux/kernel.h>
#include "tk_enc_blob.h"

#include "enc_kat.h"	/* kat_hex: written by tests/tools/kat.py */

/* Parse a copy of @s in a heap buffer of exactly its size (ASan). */
static int parse(const char *s, struct tk_enc_cmdline *cl, char **keep)
{
	size_t n = strlen(s) + 1;
	char *buf = malloc(n);
	int ret;

	memcpy(buf, s, n);
	ret = tk_enc_parse(buf, cl);
	if (keep)
		*keep = buf;
	else
		free(buf);
	return ret;
}

static int parse_rc(const char *s)
{
	struct tk_enc_cmdline cl;
	int ret = parse(s, &cl, NULL);

	if (ret && !cl.why)
		printf("     no reason for rejecting \"%s\"\n", s);
	return ret;
}

static void test_new(void)
{
	struct tk_enc_cmdline cl;
	char *buf;

	CHECK_EQ(parse("new user:k 32", &cl, &buf), 0);
	CHECK_EQ(cl.cmd, TK_ENC_CMD_NEW);
	CHECK_EQ(cl.format, TK_ENC_FMT_DEFAULT);
	CHECK(!cl.format_given);
	CHECK_EQ(cl.master, TK_ENC_MASTER_USER);
	CHECK_STR(cl.master_desc, "user:k");
	CHECK_EQ(cl.master_prefix_len, 5);
	CHECK_STR(cl.datalen_str, "32");
	CHECK_EQ(cl.datalen, 32);
	CHECK(!cl.data_hex);
	free(buf);

	CHECK_EQ(parse("new ecryptfs trusted:kmk 64", &cl, &buf), 0);
	CHECK_EQ(cl.format, TK_ENC_FMT_ECRYPTFS);
	CHECK(cl.format_given);
	CHECK_EQ(cl.master, TK_ENC_MASTER_TRUSTED);
	CHECK_EQ(cl.master_prefix_len, 8);
	free(buf);

	CHECK_EQ(parse("new\tenc32\tuser:k\t32", &cl, &buf), 0);
	CHECK_EQ(cl.format, TK_ENC_FMT_ENC32);
	free(buf);

	CHECK_EQ(parse("new default user:k 20 000102030405060708090a0b0c0d0e0f10111213",
		       &cl, &buf), 0);
	CHECK_STR(cl.data_hex, "000102030405060708090a0b0c0d0e0f10111213");
	free(buf);
	/* Extra tokens after the last one are ignored, as in-tree. */
	CHECK_EQ(parse_rc("new user:k 20 000102030405060708090a0b0c0d0e0f10111213 x"), 0);
	CHECK_EQ(parse_rc("update user:k extra tokens"), 0);
}

static void test_datalen(void)
{
	struct tk_enc_cmdline cl;
	char *buf;

	CHECK_EQ(parse_rc("new user:k 20"), 0);
	CHECK_EQ(parse_rc("new user:k 4096"), 0);
	CHECK_EQ(parse_rc("new user:k 19"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 4097"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 0"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k -32"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k +"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 32x"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 0x20"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 99999999999999999999999"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 32\n\n"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k "), -EINVAL);
	/* kstrtol's leniency, kept verbatim (it is part of the blob). */
	CHECK_EQ(parse("new user:k +32", &cl, &buf), 0);
	CHECK_EQ(cl.datalen, 32);
	CHECK_STR(cl.datalen_str, "+32");
	free(buf);
	CHECK_EQ(parse("new user:k 0032\n", &cl, &buf), 0);
	CHECK_EQ(cl.datalen, 32);
	CHECK_STR(cl.datalen_str, "0032\n");
	free(buf);

	CHECK_EQ(parse_rc("new ecryptfs user:k 64"), 0);
	CHECK_EQ(parse_rc("new ecryptfs user:k 32"), -EINVAL);
	CHECK_EQ(parse_rc("new enc32 user:k 32"), 0);
	CHECK_EQ(parse_rc("new enc32 user:k 33"), -EINVAL);
}

static void test_user_data(void)
{
	CHECK_EQ(parse_rc("new user:k 20 000102030405060708090a0b0c0d0e0f1011121"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 20 000102030405060708090a0b0c0d0e0f101112131"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 20 000102030405060708090a0b0c0d0e0f1011121g"), -EINVAL);
	CHECK_EQ(parse_rc("new user:k 20 000102030405060708090A0B0C0D0E0F10111213"), 0);
	CHECK_EQ(parse_rc("new user:k 20 "), -EINVAL);
}

static void test_bad_commands(void)
{
	static const char * const bad[] = {
		"", " ", "new", "NEW user:k 32", "create user:k 32", "new user:k",
		"new  user:k 32", "new default", "new default default user:k 32",
		"new aes user:k 32", "new Default user:k 32", "new foo:k 32",
		"new user: 32", "new trusted: 32", "new :k 32", "new k 32",
		"new USER:k 32", "new logon:k 32", "load user:k 32", "load default user:k 32",
		"update", "update user:", "update default", "update trusted:",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tk_current = bad[i];
		CHECK_EQ(parse_rc(bad[i]), -EINVAL);
	}
	tk_current = "test_bad_commands";
}

static void test_update(void)
{
	struct tk_enc_cmdline cl;
	char *buf;

	CHECK_EQ(parse("update trusted:other", &cl, &buf), 0);
	CHECK_EQ(cl.cmd, TK_ENC_CMD_UPDATE);
	CHECK_STR(cl.master_desc, "trusted:other");
	CHECK(!cl.datalen_str);
	free(buf);
	CHECK_EQ(parse("update ecryptfs user:x", &cl, &buf), 0);
	CHECK_STR(cl.master_desc, "user:x");
	free(buf);

	CHECK(tk_enc_same_master_kind("user:a", "user:b"));
	CHECK(tk_enc_same_master_kind("trusted:a", "trusted:abc"));
	CHECK(!tk_enc_same_master_kind("user:a", "trusted:a"));
	CHECK(!tk_enc_same_master_kind("user:", "user:a"));
	CHECK(!tk_enc_same_master_kind("usera", "user:a"));
}

static void test_ecryptfs_desc(void)
{
	CHECK_EQ(tk_enc_ecryptfs_desc_ok("0011223344556677"), 0);
	CHECK_EQ(tk_enc_ecryptfs_desc_ok("AABBCCDDEEFFaabb"), 0);
	CHECK_EQ(tk_enc_ecryptfs_desc_ok("001122334455667"), -EINVAL);
	CHECK_EQ(tk_enc_ecryptfs_desc_ok("00112233445566778"), -EINVAL);
	CHECK_EQ(tk_enc_ecryptfs_desc_ok("001122334455667g"), -EINVAL);
	CHECK_EQ(tk_enc_ecryptfs_desc_ok(""), -EINVAL);
}

static void test_layout(void)
{
	struct tk_enc_layout l;

	/* "default\0user:ukm\0" "32\0" iv "\0" ct[32] */
	tk_enc_layout(&l, 7, 8, 2, 32);
	CHECK_EQ(l.enc_len, 32);
	CHECK_EQ(l.master_off, 8);
	CHECK_EQ(l.datalen_off, 17);
	CHECK_EQ(l.iv_off, 20);
	CHECK_EQ(l.enc_off, 37);
	CHECK_EQ(l.image_len, 69);
	CHECK_EQ(l.text_len, 20);
	CHECK_EQ(l.blob_len, 20 + 2 * (16 + 1 + 32 + 32));
	tk_enc_layout(&l, 7, 8, 2, 20);
	CHECK_EQ(l.enc_len, 32);
	tk_enc_layout(&l, 7, 8, 4, 4096);
	CHECK_EQ(l.enc_len, 4096);
	tk_enc_layout(&l, 7, 8, 2, 33);
	CHECK_EQ(l.enc_len, 48);
}

static void test_load_and_roundtrip(void)
{
	static const char head[] = "default user:ukm 32 ";
	struct tk_enc_cmdline cl;
	struct tk_enc_layout l;
	char cmd[512], *buf, *out;
	u8 *image, *mac;
	size_t n;

	snprintf(cmd, sizeof(cmd), "load %s%s", head, kat_hex);
	CHECK_EQ(parse(cmd, &cl, &buf), 0);
	CHECK_EQ(cl.cmd, TK_ENC_CMD_LOAD);
	CHECK(cl.format_given);
	CHECK_EQ(cl.blob_hex_len, strlen(kat_hex));

	tk_enc_layout(&l, 7, strlen(cl.master_desc), strlen(cl.datalen_str),
		      cl.datalen);
	image = calloc(1, l.image_len);
	mac = malloc(TK_ENC_MAC_SIZE);
	tk_enc_image_text(image, &l, "default", cl.master_desc, cl.datalen_str);
	CHECK_EQ(tk_enc_blob_decode(&l, cl.blob_hex, cl.blob_hex_len,
				    image + l.iv_off, image + l.enc_off, mac), 0);
	CHECK_EQ(image[l.iv_off], 0xa0);
	CHECK_EQ(image[l.iv_off + 15], 0xaf);
	CHECK_EQ(image[l.enc_off - 1], 0);
	CHECK_EQ(image[l.enc_off], 0x86);
	CHECK_EQ(mac[0], 0xb3);
	CHECK_EQ(mac[31], 0x35);
	CHECK_MEM(image, "default\0user:ukm\0" "32", 19);

	out = malloc(l.blob_len);
	CHECK_EQ(tk_enc_blob_encode(out, l.blob_len - 1, &l, image, mac), 0);
	n = tk_enc_blob_encode(out, l.blob_len, &l, image, mac);
	CHECK_EQ(n, l.blob_len);
	CHECK_EQ(n, strlen(head) + strlen(kat_hex));
	CHECK_MEM(out, head, strlen(head));
	CHECK_MEM(out + strlen(head), kat_hex, strlen(kat_hex));
	free(out);
	free(mac);
	free(image);
	free(buf);

	/* Old-style: no format token. */
	snprintf(cmd, sizeof(cmd), "load user:ukm 32 %s", kat_hex);
	CHECK_EQ(parse(cmd, &cl, &buf), 0);
	CHECK(!cl.format_given);
	CHECK_EQ(cl.format, TK_ENC_FMT_DEFAULT);
	free(buf);
}

static void test_bad_blobs(void)
{
	char hex[sizeof(kat_hex)], cmd[512];
	size_t n = strlen(kat_hex);

#define LOAD(h) (snprintf(cmd, sizeof(cmd), "load default user:ukm 32 %s", (h)), \
		 parse_rc(cmd))
	memcpy(hex, kat_hex, sizeof(hex));
	CHECK_EQ(LOAD(hex), 0);
	hex[40] = 'g';
	CHECK_EQ(LOAD(hex), -EINVAL);			/* non-hex */
	memcpy(hex, kat_hex, sizeof(hex));
	hex[33] = '1';
	CHECK_EQ(LOAD(hex), -EINVAL);			/* separator not 00 */
	memcpy(hex, kat_hex, sizeof(hex));
	hex[n - 1] = 0;
	CHECK_EQ(LOAD(hex), -EINVAL);			/* odd length */
	hex[n - 2] = 0;
	CHECK_EQ(LOAD(hex), -EINVAL);			/* one byte short */
	CHECK_EQ(LOAD(""), -EINVAL);
	snprintf(cmd, sizeof(cmd), "load default user:ukm 32 %s00", kat_hex);
	CHECK_EQ(parse_rc(cmd), -EINVAL);		/* one byte long */
	snprintf(cmd, sizeof(cmd), "load default user:ukm 48 %s", kat_hex);
	CHECK_EQ(parse_rc(cmd), -EINVAL);		/* length of another size */
	snprintf(cmd, sizeof(cmd), "load default user:ukm 32 %s\n", kat_hex);
	CHECK_EQ(parse_rc(cmd), -EINVAL);		/* trailing newline */
#undef LOAD
}

static void test_format_names(void)
{
	CHECK_STR(tk_enc_format_name(TK_ENC_FMT_DEFAULT), "default");
	CHECK_STR(tk_enc_format_name(TK_ENC_FMT_ECRYPTFS), "ecryptfs");
	CHECK_STR(tk_enc_format_name(TK_ENC_FMT_ENC32), "enc32");
}

int main(void)
{
	RUN(test_new);
	RUN(test_datalen);
	RUN(test_user_data);
	RUN(test_bad_commands);
	RUN(test_update);
	RUN(test_ecryptfs_desc);
	RUN(test_layout);
	RUN(test_load_and_roundtrip);
	RUN(test_bad_blobs);
	RUN(test_format_names);
	return tk_test_done();
}
