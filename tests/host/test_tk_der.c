// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/lib/tk_der.c against X.690 (DER): lengths in their
 * shortest definite form, INTEGER without redundant leading octets,
 * BOOLEAN, and the writer producing exactly what the reader accepts.
 */
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk_der.h"

static int next(const u8 *p, u32 n, struct tk_der_tlv *t, u32 *left)
{
	struct tk_der d;
	u8 *c = tk_dup(p, n);
	int ret;

	tk_der_init(&d, c, n);
	ret = tk_der_next(&d, t);
	*left = d.left;
	if (!ret)
		t->val = p + (t->val - c);
	free(c);
	return ret;
}

static void test_lengths(void)
{
	static const struct {
		u8 b[8];
		u32 n;
		int ok;
		u32 len;
	} cases[] = {
		{ { 0x04, 0x00 }, 2, 1, 0 },
		{ { 0x04, 0x01, 0xaa }, 3, 1, 1 },
		{ { 0x04, 0x02, 0xaa }, 3, 0, 0 },		/* runs past */
		{ { 0x04, 0x81, 0x05 }, 3, 0, 0 },		/* long form < 128 */
		{ { 0x04, 0x82, 0x00, 0x80 }, 4, 0, 0 },	/* 0x82 for < 256 */
		{ { 0x04, 0x80 }, 2, 0, 0 },			/* indefinite */
		{ { 0x04, 0x83, 0x00, 0x00, 0x01 }, 5, 0, 0 },	/* 3 length octets */
		{ { 0x04, 0xff }, 2, 0, 0 },
		{ { 0x04 }, 1, 0, 0 },
		{ { 0x1f, 0x01, 0x00 }, 3, 0, 0 },		/* high tag number */
		{ { 0x04, 0x81 }, 2, 0, 0 },
		{ { 0x04, 0x82, 0x01 }, 3, 0, 0 },
	};
	struct tk_der_tlv t;
	unsigned int i;
	u32 left;
	char what[64];

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = next(cases[i].b, cases[i].n, &t, &left);

		snprintf(what, sizeof(what), "length case %u", i);
		tk_check(cases[i].ok ? ret == 0 && t.len == cases[i].len :
			 ret == -EINVAL, __FILE__, __LINE__, what);
	}

	/* 0x81 for 128..255, 0x82 for 256..65535, read back whole */
	for (u32 n = 126; n < 300; n++) {
		u8 *b = calloc(1, n + 4);
		struct tk_der_w w;

		tk_der_w_init(&w, b, n + 4);
		tk_der_put(&w, 0x04, b + 4, 0);
		tk_der_w_init(&w, b, n + 4);
		tk_der_put_hdr(&w, 0x04, n);
		CHECK_EQ(w.len, tk_der_size(n) - n);
		CHECK_EQ(next(b, tk_der_size(n), &t, &left), 0);
		CHECK_EQ(t.len, n);
		CHECK_EQ(left, 0);
		CHECK_EQ(next(b, tk_der_size(n) - 1, &t, &left), -EINVAL);
		free(b);
	}
}

static void test_u32(void)
{
	static const u32 values[] = {
		0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
		0x7fffff, 0x800000, 0x40000001, 0x7fffffff, 0x80000000,
		0x81000001, 0xffffffff,
	};
	struct tk_der_tlv t;
	struct tk_der_w w;
	unsigned int i;
	u8 buf[16];
	u32 v, left;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		tk_der_w_init(&w, buf, sizeof(buf));
		tk_der_put_u32(&w, values[i]);
		CHECK(!w.bad);
		CHECK_EQ(w.len, 2 + tk_der_u32_size(values[i]));
		CHECK_EQ(next(buf, w.len, &t, &left), 0);
		CHECK_EQ(tk_der_u32(&t, &v), 0);
		CHECK_EQ(v, values[i]);
	}
	tk_der_w_init(&w, buf, sizeof(buf));
	tk_der_put_u32(&w, 0x81000001);
	CHECK_MEM(buf, "\x02\x05\x00\x81\x00\x00\x01", 7);
	tk_der_w_init(&w, buf, sizeof(buf));
	tk_der_put_u32(&w, 0);
	CHECK_MEM(buf, "\x02\x01\x00", 3);

	t.tag = TK_DER_INTEGER;
	t.val = (const u8 *)"\x00\x7f";
	t.len = 2;
	CHECK_EQ(tk_der_u32(&t, &v), -EINVAL);		/* redundant zero */
	t.val = (const u8 *)"\xff";
	t.len = 1;
	CHECK_EQ(tk_der_u32(&t, &v), -EINVAL);		/* negative */
	t.len = 0;
	CHECK_EQ(tk_der_u32(&t, &v), -EINVAL);		/* empty */
	t.val = (const u8 *)"\x01\x00\x00\x00\x00";
	t.len = 5;
	CHECK_EQ(tk_der_u32(&t, &v), -ERANGE);		/* 2^32 */
	t.val = (const u8 *)"\x00\xff\xff\xff\xff";
	CHECK_EQ(tk_der_u32(&t, &v), 0);
	CHECK_EQ(v, 0xffffffff);
	t.tag = TK_DER_OCTET_STRING;
	CHECK_EQ(tk_der_u32(&t, &v), -EINVAL);
}

static void test_bool(void)
{
	struct tk_der_tlv t = { .tag = TK_DER_BOOLEAN, .len = 1 };
	bool v;

	t.val = (const u8 *)"\xff";
	CHECK_EQ(tk_der_bool(&t, &v), 0);
	CHECK(v);
	t.val = (const u8 *)"\x01";		/* what the kernel's encoder writes */
	CHECK_EQ(tk_der_bool(&t, &v), 0);
	CHECK(v);
	t.val = (const u8 *)"\x00";
	CHECK_EQ(tk_der_bool(&t, &v), 0);
	CHECK(!v);
	t.val = (const u8 *)"\x02";
	CHECK_EQ(tk_der_bool(&t, &v), -EINVAL);
	t.len = 2;
	CHECK_EQ(tk_der_bool(&t, &v), -EINVAL);
	t.len = 1;
	t.tag = TK_DER_INTEGER;
	CHECK_EQ(tk_der_bool(&t, &v), -EINVAL);
}

static void test_enter_expect(void)
{
	static const u8 seq[] = { 0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xaa };
	struct tk_der d, in;
	struct tk_der_tlv t;

	tk_der_init(&d, seq, sizeof(seq));
	CHECK_EQ(tk_der_peek(&d), 0x30);
	CHECK_EQ(tk_der_enter(&d, TK_DER_OCTET_STRING, &in), -EINVAL);
	CHECK_EQ(tk_der_enter(&d, TK_DER_SEQUENCE, &in), 0);
	CHECK(tk_der_empty(&d));
	CHECK_EQ(tk_der_peek(&d), -1);
	CHECK_EQ(tk_der_expect(&in, TK_DER_OCTET_STRING, &t), -EINVAL);
	CHECK_EQ(tk_der_expect(&in, TK_DER_INTEGER, &t), 0);
	CHECK_EQ(tk_der_expect(&in, TK_DER_OCTET_STRING, &t), 0);
	CHECK_EQ(t.val[0], 0xaa);
	CHECK(tk_der_empty(&in));
	CHECK_EQ(tk_der_next(&in, &t), -EINVAL);
}

static void test_writer_overrun(void)
{
	struct tk_der_w w;
	u8 buf[8];

	tk_der_w_init(&w, buf, 3);
	tk_der_put(&w, TK_DER_OCTET_STRING, "ab", 2);
	CHECK(w.bad);
	tk_der_w_init(&w, buf, 4);
	tk_der_put(&w, TK_DER_OCTET_STRING, "ab", 2);
	CHECK(!w.bad);
	CHECK_EQ(w.len, 4);
	tk_der_put_bool(&w, true);
	CHECK(w.bad);				/* sticky */
	tk_der_w_init(&w, buf, sizeof(buf));
	tk_der_put_hdr(&w, TK_DER_OCTET_STRING, 0x10000);
	CHECK(w.bad);				/* longer than we write */
}

int main(void)
{
	RUN(test_lengths);
	RUN(test_u32);
	RUN(test_bool);
	RUN(test_enter_expect);
	RUN(test_writer_overrun);
	return tk_test_done();
}
