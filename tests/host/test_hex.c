// SPDX-License-Identifier: GPL-2.0
/* Unit tests of src/lib/tk_hex.h and of the shim's hex_to_bin(). */
#include "tk_test.h"
#include "tk_hex.h"

/* Decode @s (length strlen(s)) into a heap buffer of exactly @dstmax bytes. */
static int decode(u8 *out, size_t dstmax, const char *s)
{
	u8 *dst = malloc(dstmax ? dstmax : 1);
	int ret;

	ret = tk_hex_decode(dst, dstmax, s, strlen(s));
	if (ret > 0)
		memcpy(out, dst, ret);
	free(dst);
	return ret;
}

static int ref_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The shim must behave as the kernel's lib/hexdump.c for every byte. */
static void test_hex_to_bin_all_bytes(void)
{
	int c, bad = 0;

	for (c = 0; c < 256; c++) {
		if (hex_to_bin((unsigned char)c) != ref_hex(c)) {
			printf("     hex_to_bin(0x%02x) = %d\n", c,
			       hex_to_bin((unsigned char)c));
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
	/* A plain (signed) char with the top bit set is not a digit. */
	CHECK_EQ(hex_to_bin((char)0xc1), -1);
	CHECK_EQ(hex_to_bin((char)0xe6), -1);
}

/* tk_hex_digit() is hex_to_bin() inline: the same answer for every byte. */
static void test_tk_hex_digit_all_bytes(void)
{
	int c, bad = 0;

	for (c = 0; c < 256; c++) {
		if (tk_hex_digit((char)c) != ref_hex(c)) {
			printf("     tk_hex_digit(0x%02x) = %d\n", c, tk_hex_digit((char)c));
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
}

static void test_decode_valid(void)
{
	u8 out[8] = { 0 };

	CHECK_EQ(decode(out, 4, ""), 0);
	CHECK_EQ(decode(out, 0, ""), 0);
	CHECK_EQ(decode(out, 4, "00ff"), 2);
	CHECK_MEM(out, "\x00\xff", 2);
	CHECK_EQ(decode(out, 4, "0123abCD"), 4);
	CHECK_MEM(out, "\x01\x23\xab\xcd", 4);
	CHECK_EQ(decode(out, 8, "DEADbeef"), 4);
	CHECK_MEM(out, "\xde\xad\xbe\xef", 4);
}

static void test_decode_odd_length(void)
{
	u8 out[8];

	CHECK_EQ(decode(out, 4, "0"), -EINVAL);
	CHECK_EQ(decode(out, 4, "abc"), -EINVAL);
	/* Odd is refused before size: an odd overlong string is -EINVAL. */
	CHECK_EQ(decode(out, 1, "abcde"), -EINVAL);
}

static void test_decode_not_hex(void)
{
	u8 out[8];

	CHECK_EQ(decode(out, 4, "0g"), -EINVAL);
	CHECK_EQ(decode(out, 4, "g0"), -EINVAL);
	CHECK_EQ(decode(out, 4, "00 1"), -EINVAL);
	CHECK_EQ(decode(out, 4, "0x12"), -EINVAL);
	CHECK_EQ(decode(out, 4, "-1"), -EINVAL);
	CHECK_EQ(decode(out, 4, "12\n"), -EINVAL);
	CHECK_EQ(decode(out, 4, "1\xc1"), -EINVAL);
	CHECK_EQ(decode(out, 4, "0011zz"), -EINVAL);
}

static void test_decode_size(void)
{
	u8 out[8];

	CHECK_EQ(decode(out, 2, "aabb"), 2);
	CHECK_EQ(decode(out, 1, "aabb"), -E2BIG);
	CHECK_EQ(decode(out, 0, "aa"), -E2BIG);
	/* Too large is refused before the digits are looked at. */
	CHECK_EQ(decode(out, 1, "zzzz"), -E2BIG);
}

/* Only @srclen digits are read: no reliance on a terminating NUL. */
static void test_decode_srclen(void)
{
	char *src = malloc(4);
	u8 out[2];

	memcpy(src, "a1b2", 4);		/* no NUL */
	CHECK_EQ(tk_hex_decode(out, sizeof(out), src, 4), 2);
	CHECK_MEM(out, "\xa1\xb2", 2);
	CHECK_EQ(tk_hex_decode(out, sizeof(out), src, 2), 1);
	CHECK_EQ(tk_hex_decode(out, sizeof(out), src, 0), 0);
	/* An embedded NUL is not a digit. */
	CHECK_EQ(tk_hex_decode(out, sizeof(out), "a\0b2", 4), -EINVAL);
	free(src);
}

static int u32_of(const char *s, unsigned int base, u32 *v)
{
	char *copy = strdup(s);
	int ret;

	*v = 0xdeadbeef;
	ret = tk_parse_u32(copy, base, v);
	free(copy);
	return ret;
}

static void test_u32_decimal(void)
{
	u32 v;

	CHECK_EQ(u32_of("0", 10, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(u32_of("32", 10, &v), 0);
	CHECK_EQ(v, 32);
	CHECK_EQ(u32_of("032", 10, &v), 0);
	CHECK_EQ(v, 32);
	CHECK_EQ(u32_of("4294967295", 10, &v), 0);
	CHECK_EQ(v, 0xffffffffu);
	CHECK_EQ(u32_of("4294967296", 10, &v), -ERANGE);
	CHECK_EQ(v, 0xdeadbeef);
	CHECK_EQ(u32_of("99999999999999999999999", 10, &v), -ERANGE);
	CHECK_EQ(u32_of("", 10, &v), -EINVAL);
	CHECK_EQ(u32_of("12a", 10, &v), -EINVAL);
	CHECK_EQ(v, 0xdeadbeef);
	CHECK_EQ(u32_of("a", 10, &v), -EINVAL);
	CHECK_EQ(u32_of(" 12", 10, &v), -EINVAL);
	CHECK_EQ(u32_of("12 ", 10, &v), -EINVAL);
	CHECK_EQ(u32_of("+1", 10, &v), -EINVAL);
	CHECK_EQ(u32_of("-1", 10, &v), -EINVAL);
	CHECK_EQ(u32_of("0x10", 10, &v), -EINVAL);
	CHECK_EQ(u32_of("1.5", 10, &v), -EINVAL);
}

static void test_u32_hex(void)
{
	u32 v;

	CHECK_EQ(u32_of("0x81000001", 16, &v), 0);
	CHECK_EQ(v, 0x81000001);
	CHECK_EQ(u32_of("81000001", 16, &v), 0);
	CHECK_EQ(v, 0x81000001);
	CHECK_EQ(u32_of("0X40000000", 16, &v), 0);
	CHECK_EQ(v, 0x40000000);
	CHECK_EQ(u32_of("fFfFfFfF", 16, &v), 0);
	CHECK_EQ(v, 0xffffffffu);
	CHECK_EQ(u32_of("0x000000001", 16, &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(u32_of("0", 16, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(u32_of("100000000", 16, &v), -ERANGE);
	CHECK_EQ(u32_of("0xffffffffffffffffffff", 16, &v), -ERANGE);
	CHECK_EQ(u32_of("0x", 16, &v), -EINVAL);
	CHECK_EQ(v, 0xdeadbeef);
	CHECK_EQ(u32_of("", 16, &v), -EINVAL);
	CHECK_EQ(u32_of("x1", 16, &v), -EINVAL);
	CHECK_EQ(u32_of("0x0x1", 16, &v), -EINVAL);
	CHECK_EQ(u32_of("0xg", 16, &v), -EINVAL);
	CHECK_EQ(u32_of("1h", 16, &v), -EINVAL);
	CHECK_EQ(u32_of("-1", 16, &v), -EINVAL);
	CHECK_EQ(u32_of("0x1 ", 16, &v), -EINVAL);
}

int main(void)
{
	RUN(test_hex_to_bin_all_bytes);
	RUN(test_tk_hex_digit_all_bytes);
	RUN(test_decode_valid);
	RUN(test_decode_odd_length);
	RUN(test_decode_not_hex);
	RUN(test_decode_size);
	RUN(test_decode_srclen);
	RUN(test_u32_decimal);
	RUN(test_u32_hex);
	return tk_test_done();
}
