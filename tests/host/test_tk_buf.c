// SPDX-License-Identifier: GPL-2.0
/* Unit tests of src/lib/tk_buf.h: the bounded command writer and reader. */
#include "tk_test.h"
#include "tk_buf.h"

static void test_cmd_encoding(void)
{
	static const u8 want[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x01, 0x44,
		0xab, 0x12, 0x34, 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03,
	};
	struct tk_cmd_buf b;
	u8 *buf = malloc(sizeof(want));

	tk_cmd_start(&b, buf, sizeof(want), 0x8001, 0x144);
	CHECK_EQ(b.len, TK_TPM_HEADER_SIZE);
	tk_cmd_u8(&b, 0xab);
	tk_cmd_u16(&b, 0x1234);
	tk_cmd_u32(&b, 0xdeadbeef);
	tk_cmd_bytes(&b, "\x01\x02\x03", 3);
	CHECK(!b.bad);
	CHECK_EQ(tk_cmd_end(&b), 0);
	CHECK_EQ(b.len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	free(buf);
}

/* The first overrun sticks: later writes that would fit do nothing. */
static void test_cmd_sticky(void)
{
	struct tk_cmd_buf b;
	u8 *buf = malloc(12);

	tk_cmd_start(&b, buf, 12, 0xc1, 1);
	tk_cmd_u32(&b, 1);
	CHECK(b.bad);
	CHECK_EQ(b.len, 10);
	tk_cmd_u16(&b, 2);
	tk_cmd_u8(&b, 3);
	tk_cmd_bytes(&b, "", 0);
	CHECK_EQ(b.len, 10);
	CHECK_EQ(tk_cmd_end(&b), -E2BIG);
	free(buf);
}

/* Each writer at the exact end of the buffer: fits, then one more fails. */
static void test_cmd_exact(void)
{
	struct tk_cmd_buf b;
	u8 *buf = malloc(17);

	tk_cmd_start(&b, buf, 17, 0xc1, 1);
	tk_cmd_u32(&b, 1);
	tk_cmd_u16(&b, 2);
	tk_cmd_u8(&b, 3);
	CHECK(!b.bad);
	CHECK_EQ(b.len, 17);
	tk_cmd_bytes(&b, "", 0);
	CHECK(!b.bad);
	tk_cmd_u8(&b, 4);
	CHECK(b.bad);
	CHECK_EQ(tk_cmd_end(&b), -E2BIG);
	free(buf);
}

static void test_cmd_tiny(void)
{
	struct tk_cmd_buf b;
	unsigned int size;
	u8 *buf;

	for (size = 0; size < TK_TPM_HEADER_SIZE; size++) {
		buf = malloc(size ? size : 1);
		tk_cmd_start(&b, buf, size, 0xc1, 1);
		CHECK(b.bad);
		CHECK_EQ(tk_cmd_end(&b), -E2BIG);
		free(buf);
	}
	/* A huge count must not wrap the room check. */
	buf = malloc(16);
	tk_cmd_start(&b, buf, 16, 0xc1, 1);
	tk_cmd_bytes(&b, buf, 0xffffffff);
	CHECK(b.bad);
	tk_cmd_start(&b, buf, 16, 0xc1, 1);
	tk_cmd_bytes(&b, buf, 0xfffffffa);
	CHECK(b.bad);
	free(buf);
}

static const u8 rsp[] = {
	0x00, 0xc4, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00, 0x00,
	0xab, 0x12, 0x34, 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02,
};

static void test_rsp_reader(void)
{
	struct tk_rsp_buf r;
	u8 *p = malloc(sizeof(rsp));
	const u8 *q;

	memcpy(p, rsp, sizeof(rsp));
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp), 0xc4), 0);
	CHECK_EQ(r.len, sizeof(rsp));
	CHECK_EQ(r.pos, TK_TPM_HEADER_SIZE);
	CHECK_EQ(tk_rsp_u8(&r), 0xab);
	CHECK_EQ(tk_rsp_u16(&r), 0x1234);
	CHECK_EQ(tk_rsp_u32(&r), 0xdeadbeef);
	CHECK_EQ(tk_rsp_end(&r), -EBADMSG);		/* 2 bytes left */
	q = tk_rsp_bytes(&r, 0);
	CHECK(q == p + 17);
	q = tk_rsp_bytes(&r, 2);
	CHECK(q == p + 17);
	CHECK_EQ(tk_rsp_end(&r), 0);
	/* Past the end: NULL and zeroes, and it sticks. */
	CHECK(tk_rsp_bytes(&r, 1) == NULL);
	CHECK(r.bad);
	CHECK_EQ(tk_rsp_end(&r), -EBADMSG);
	free(p);
}

static void test_rsp_sticky(void)
{
	struct tk_rsp_buf r;
	u8 *p = malloc(sizeof(rsp));

	memcpy(p, rsp, sizeof(rsp));
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp), 0), 0);	/* any tag */
	CHECK(tk_rsp_bytes(&r, 10) == NULL);
	CHECK_EQ(tk_rsp_u8(&r), 0);
	CHECK_EQ(tk_rsp_u16(&r), 0);
	CHECK_EQ(tk_rsp_u32(&r), 0);
	CHECK(tk_rsp_bytes(&r, 0) == NULL);
	CHECK_EQ(tk_rsp_end(&r), -EBADMSG);
	/* A huge count must not wrap. */
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp), 0), 0);
	CHECK(tk_rsp_bytes(&r, 0xffffffff) == NULL);
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp), 0), 0);
	CHECK(tk_rsp_bytes(&r, 0xfffffff8) == NULL);
	free(p);
}

/* A reader that failed to open reads nothing. */
static void test_rsp_open_refused(void)
{
	struct tk_rsp_buf r;
	u8 *p = malloc(sizeof(rsp));

	memcpy(p, rsp, sizeof(rsp));
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp), 0xc5), -EBADMSG);
	CHECK(r.bad);
	CHECK(tk_rsp_bytes(&r, 0) == NULL);
	CHECK_EQ(tk_rsp_end(&r), -EBADMSG);
	CHECK_EQ(tk_rsp_open(&r, p, 9, 0), -EBADMSG);
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp) - 1, 0), -EBADMSG);
	p[9] = 0x01;					/* TPM_AUTHFAIL */
	CHECK_EQ(tk_rsp_open(&r, p, sizeof(rsp), 0xc5), 1);
	CHECK(r.bad);
	CHECK(tk_rsp_bytes(&r, 1) == NULL);
	free(p);
}

int main(void)
{
	RUN(test_cmd_encoding);
	RUN(test_cmd_sticky);
	RUN(test_cmd_exact);
	RUN(test_cmd_tiny);
	RUN(test_rsp_reader);
	RUN(test_rsp_sticky);
	RUN(test_rsp_open_refused);
	return tk_test_done();
}
