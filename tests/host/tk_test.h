/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny unit test framework for the host tests of src/lib.
 *
 *	static void test_thing(void) { CHECK_EQ(f(1), 2); }
 *	int main(void) { RUN(test_thing); return tk_test_done(); }
 *
 * Output: KTAP (Documentation/dev-tools/ktap.rst), every check one test
 * point, "ok N test_thing: f(1) == 2" or "not ok N ...". What a failed
 * check prints (the values, the test's own printf lines) comes before its
 * "not ok" line, as KTAP's diagnostics do: the result line waits for the
 * next check, RUN's end or tk_test_done(). No plan line (the count is
 * known at the end only): tests/host/run-tests.sh, which nests each
 * binary's document in one for the run, writes it. tk_test_done() ends
 * with "# Totals: pass:N fail:N" and returns the exit code.
 */
#ifndef TK_TEST_H
#define TK_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned int tk_passed, tk_failed;
static const char *tk_current = "?";
/*
 * A failed check whose result line is not printed yet: its description,
 * copied (a check's expression may be a buffer the test reuses, and
 * tk_current may change before the line is printed).
 */
static char tk_pending[1024];

/* The document's version line, before its first line. */
static inline void tk_start(void)
{
	static int started;

	if (!started++)
		printf("KTAP version 1\n");
}

/*
 * A result line, "ok N DESC" or "not ok N DESC"; DESC without '#' (it would
 * start a directive) and newlines.
 */
static inline void tk_result(int ok, const char *desc)
{
	tk_start();
	if (ok)
		tk_passed++;
	else
		tk_failed++;
	printf("%sok %u ", ok ? "" : "not ", tk_passed + tk_failed);
	for (; *desc; desc++)
		putchar(*desc == '#' || *desc == '\n' ? ' ' : *desc);
	putchar('\n');
}

/* The result line of a failed check, once its diagnostics are out. */
static inline void tk_flush_pending(void)
{
	if (tk_pending[0]) {
		tk_result(0, tk_pending);
		tk_pending[0] = 0;
	}
	fflush(stdout);
}

static inline int tk_check(int ok, const char *file, int line,
			   const char *expr)
{
	char desc[sizeof(tk_pending)];

	tk_flush_pending();
	snprintf(desc, sizeof(desc), "%s: %s", tk_current, expr);
	if (ok) {
		tk_result(1, desc);
	} else {
		tk_start();
		printf("# %s (%s:%d): %s failed\n", tk_current, file, line, expr);
		memcpy(tk_pending, desc, sizeof(tk_pending));
	}
	return ok;
}

static inline void tk_hexdump(const char *label, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	printf("#     %s (%zu):", label, n);
	for (i = 0; i < n; i++)
		printf("%s%02x", i % 16 ? " " : "\n#       ", b[i]);
	printf("\n");
}

/* A condition. */
#define CHECK(cond) tk_check(!!(cond), __FILE__, __LINE__, #cond)

/* Two integers (compared as long long), both printed when they differ. */
#define CHECK_EQ(a, b) do {						\
	long long tk_a_ = (long long)(a), tk_b_ = (long long)(b);	\
	if (!tk_check(tk_a_ == tk_b_, __FILE__, __LINE__, #a " == " #b)) \
		printf("#     %lld (0x%llx) != %lld (0x%llx)\n", tk_a_,	\
		       (unsigned long long)tk_a_, tk_b_,		\
		       (unsigned long long)tk_b_);			\
} while (0)

/* Two strings; NULL is a value of its own. */
#define CHECK_STR(a, b) do {						\
	const char *tk_a_ = (a), *tk_b_ = (b);				\
	int tk_ok_ = tk_a_ && tk_b_ ? !strcmp(tk_a_, tk_b_) : tk_a_ == tk_b_; \
	if (!tk_check(tk_ok_, __FILE__, __LINE__, #a " == " #b))	\
		printf("#     \"%s\" != \"%s\"\n", tk_a_ ? tk_a_ : "(null)", \
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

/* Run one test function; its name labels its checks. */
#define RUN(fn) do { tk_start(); tk_current = #fn; fn(); tk_flush_pending(); } while (0)

/* The closing totals (a diagnostic line); the exit code. */
static inline int tk_test_done(void)
{
	tk_flush_pending();
	tk_start();
	printf("# Totals: pass:%u fail:%u\n", tk_passed, tk_failed);
	return tk_failed ? 1 : 0;
}

#endif /* TK_TEST_H */
