/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny unit test framework for the host tests of src/lib.
 *
 *	static void test_thing(void) { CHECK_EQ(f(1), 2); }
 *	int main(void) { RUN(test_thing); return tk_test_done(); }
 *
 * Checks are quiet when they pass (TK_VERBOSE=1 prints them all); a failed
 * check prints where and why and the test goes on. tk_test_done() prints
 * "N passed, N failed" as the binary's last line and returns the exit code.
 */
#ifndef TK_TEST_H
#define TK_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned int tk_passed, tk_failed;
static const char *tk_current = "?";

static inline int tk_verbose(void)
{
	static int v = -1;

	if (v < 0)
		v = getenv("TK_VERBOSE") && *getenv("TK_VERBOSE") == '1';
	return v;
}

static inline int tk_check(int ok, const char *file, int line,
			   const char *expr)
{
	if (ok) {
		tk_passed++;
		if (tk_verbose())
			printf("ok   %s: %s\n", tk_current, expr);
	} else {
		tk_failed++;
		printf("FAIL %s (%s:%d): %s\n", tk_current, file, line, expr);
	}
	return ok;
}

static inline void tk_hexdump(const char *label, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	printf("     %s (%zu):", label, n);
	for (i = 0; i < n; i++)
		printf("%s%02x", i % 16 ? " " : "\n       ", b[i]);
	printf("\n");
}

/* A condition. */
#define CHECK(cond) tk_check(!!(cond), __FILE__, __LINE__, #cond)

/* Two integers (compared as long long), both printed when they differ. */
#define CHECK_EQ(a, b) do {						\
	long long tk_a_ = (long long)(a), tk_b_ = (long long)(b);	\
	if (!tk_check(tk_a_ == tk_b_, __FILE__, __LINE__, #a " == " #b)) \
		printf("     %lld (0x%llx) != %lld (0x%llx)\n", tk_a_,	\
		       (unsigned long long)tk_a_, tk_b_,		\
		       (unsigned long long)tk_b_);			\
} while (0)

/* Two strings; NULL is a value of its own. */
#define CHECK_STR(a, b) do {						\
	const char *tk_a_ = (a), *tk_b_ = (b);				\
	int tk_ok_ = tk_a_ && tk_b_ ? !strcmp(tk_a_, tk_b_) : tk_a_ == tk_b_; \
	if (!tk_check(tk_ok_, __FILE__, __LINE__, #a " == " #b))	\
		printf("     \"%s\" != \"%s\"\n", tk_a_ ? tk_a_ : "(null)", \
		       tk_b_ ? tk_b_ : "(null)");			\
} while (0)

/* Two byte ranges of @n bytes, both dumped when they differ. */
#define CHECK_MEM(a, b, n) do {						\
	const void *tk_a_ = (a), *tk_b_ = (b);				\
	size_t tk_n_ = (n);						\
	if (!tk_check(!memcmp(tk_a_, tk_b_, tk_n_), __FILE__, __LINE__,	\
		      "memcmp(" #a ", " #b ", " #n ") == 0")) {		\
		tk_hexdump(#a, tk_a_, tk_n_);				\
		tk_hexdump(#b, tk_b_, tk_n_);				\
	}								\
} while (0)

/* Run one test function; its name labels its failures. */
#define RUN(fn) do { tk_current = #fn; fn(); } while (0)

/* Last line of the binary's output; the exit code. */
static inline int tk_test_done(void)
{
	printf("%u passed, %u failed\n", tk_passed, tk_failed);
	return tk_failed ? 1 : 0;
}

#endif /* TK_TEST_H */
