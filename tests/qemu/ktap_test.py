#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the boot verdict (ktap.py). Run: python3 tests/qemu/ktap_test.py"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

GOOD = """KTAP version 1
1..2
    KTAP version 1
    # Subtest: suite/10-a
    1..2
    ok 1 first
    ok 2 second # SKIP needs TPM 2.0
ok 1 suite/10-a
    KTAP version 1
    # Subtest: suite/20-b
    1..1
    ok 1 only
ok 2 suite/20-b
# tk-init: done
"""


def verdict(results, console="[    1.0] booted\n", status=0):
    with tempfile.TemporaryDirectory() as d:
        r, c, n = (os.path.join(d, x) for x in ("r", "c", "n"))
        if results is not None:
            with open(r, "w") as f:
                f.write(results)
        with open(c, "w") as f:
            f.write(console)
        p = subprocess.run([sys.executable, os.path.join(HERE, "ktap.py"), "--name", "t",
                            "--results", r, "--console", c, "--qemu-status", str(status),
                            "--counts", n], capture_output=True, text=True)
        counts = None
        if os.path.exists(n):
            with open(n) as f:
                counts = [int(x) for x in f.read().split()]
        return p.returncode, counts, p.stdout


class Verdict(unittest.TestCase):
    def test_pass_with_skip(self):
        rc, counts, out = verdict(GOOD)
        self.assertEqual(rc, 0, out)
        self.assertEqual(counts, [2, 0, 1])
        self.assertIn("skip suite/10-a/second: SKIP needs TPM 2.0", out)
        self.assertIn("PASS t: 2 passed, 0 failed, 1 skipped", out)

    def test_whole_script_skipped(self):
        doc = GOOD.replace("    1..1\n    ok 1 only\nok 2 suite/20-b",
                           "    1..0 # SKIP needs a TPM 2.0\nok 2 suite/20-b # SKIP needs a TPM 2.0")
        rc, counts, out = verdict(doc)
        self.assertEqual(rc, 0, out)
        self.assertEqual(counts, [1, 0, 2])
        self.assertIn("skip suite/20-b: SKIP needs a TPM 2.0", out)

    def test_crlf_and_two_space_indent(self):
        doc = GOOD.replace("    ", "  ").replace("\n", "\r\n")
        self.assertEqual(verdict(doc)[:2], (0, [2, 0, 1]))

    def test_not_ok_leaf(self):
        doc = GOOD.replace("    ok 1 only", "    # why it failed\n    not ok 1 only") \
                  .replace("ok 2 suite/20-b", "not ok 2 suite/20-b")
        rc, counts, out = verdict(doc)
        self.assertEqual((rc, counts), (1, [1, 1, 1]))
        self.assertIn("not ok suite/20-b/only", out)
        self.assertIn("# why it failed", out)

    def test_script_exit_status(self):
        doc = GOOD.replace("ok 2 suite/20-b", "# suite/20-b: exit status 2\nnot ok 2 suite/20-b")
        self.assertEqual(verdict(doc)[:2], (1, [2, 1, 1]))

    def test_subtest_plan_mismatch(self):
        doc = GOOD.replace("    1..1\n", "    1..3\n")
        rc, counts, out = verdict(doc)
        self.assertEqual(rc, 1)
        self.assertIn("planned 3, got 1", out)

    def test_subtest_without_plan(self):
        doc = GOOD.replace("    1..1\n", "")
        self.assertEqual(verdict(doc)[0], 1)

    def test_top_plan_mismatch(self):
        self.assertEqual(verdict(GOOD.replace("1..2\n", "1..3\n", 1))[0], 1)

    def test_truncated(self):
        doc = GOOD[:GOOD.index("    # Subtest: suite/20-b")]
        rc, _, out = verdict(doc)
        self.assertEqual(rc, 1)
        self.assertIn("truncated", out)

    def test_missing_results(self):
        self.assertEqual(verdict(None)[0], 1)

    def test_no_tests(self):
        self.assertEqual(verdict("KTAP version 1\n1..0\n# tk-init: done\n")[0], 1)

    def test_numbering(self):
        doc = GOOD.replace("    ok 2 second", "    ok 3 second")
        self.assertEqual(verdict(doc)[0], 1)

    def test_ok_parent_with_failed_child(self):
        doc = GOOD.replace("    ok 1 only", "    not ok 1 only")
        rc, _, out = verdict(doc)
        self.assertEqual(rc, 1)
        self.assertIn("reported ok but its subtests failed", out)

    def test_timeout(self):
        rc, _, out = verdict(GOOD, status=124)
        self.assertEqual(rc, 1)
        self.assertIn("timeout", out)

    def test_console_reports(self):
        for line in ("[  3.1] WARNING: CPU: 0 PID: 1 at foo.c:1 bar+0x1/0x2",
                     "[  3.1] BUG: KASAN: slab-out-of-bounds in x",
                     "[  3.1] Oops: 0000 [#1] SMP", "[  3.1] Call Trace:",
                     "[  3.1] Kernel panic - not syncing: x",
                     "[  3.1] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)",
                     "unreferenced object 0xffff888003d1c000 (size 64):"):
            rc, counts, out = verdict(GOOD, console="ok\n%s\n" % line)
            self.assertEqual(rc, 1, line)
            self.assertIn(line, out)

    def test_console_test_output_ignored(self):
        console = "tk| # expected WARNING: in a description\ntk! BUG: from a test's stderr\n"
        self.assertEqual(verdict(GOOD, console=console)[0], 0)


# The host tests' document (tests/host/run-tests.sh): no console, no end line.
HOST = """KTAP version 1
1..2
  KTAP version 1
  1..2
  ok 1 test_a: x == 1
  # test_b (t.c:9): y == 2 failed
  #     3 (0x3) != 2 (0x2)
  not ok 2 test_b: y == 2
  # Totals: pass:1 fail:1
# test_one: exit status 1
not ok 1 test_one # exit status 1
  KTAP version 1
  1..1
  ok 1 test_c: z
  # Totals: pass:1 fail:0
# test_two: exit status 134
not ok 2 test_two # exit status 134
"""


def host_verdict(results):
    with tempfile.TemporaryDirectory() as d:
        r, n = os.path.join(d, "r"), os.path.join(d, "n")
        with open(r, "w") as f:
            f.write(results)
        p = subprocess.run([sys.executable, os.path.join(HERE, "ktap.py"), "--name", "host",
                            "--results", r, "--done", "", "--counts", n],
                           capture_output=True, text=True)
        with open(n) as f:
            return p.returncode, [int(x) for x in f.read().split()], p.stdout


class HostDocument(unittest.TestCase):
    def test_checks_counted_crash_adds_one(self):
        # a failed check is one failure; a binary that failed with all its
        # checks passing (a sanitizer report at exit) one more
        rc, counts, out = host_verdict(HOST)
        self.assertEqual(rc, 1)
        self.assertEqual(counts, [2, 2, 0])
        self.assertIn("not ok test_one/test_b: y == 2", out)
        self.assertIn("#     3 (0x3) != 2 (0x2)", out)
        self.assertIn("# test_two: exit status 134", out)

    def test_pass_without_console_or_end_line(self):
        doc = HOST.replace("not ok 2 test_b", "ok 2 test_b").replace(
            "not ok 1 test_one", "ok 1 test_one").replace("not ok 2 test_two", "ok 2 test_two")
        rc, counts, out = host_verdict(doc)
        self.assertEqual((rc, counts), (0, [3, 0, 0]), out)
        self.assertTrue(out.startswith("PASS host: 3 passed, 0 failed, 0 skipped"), out)

    def test_truncated_subtest(self):
        doc = HOST.replace("  1..1\n", "  1..2\n")
        rc, counts, out = host_verdict(doc)
        self.assertEqual(rc, 1)
        self.assertIn("planned 2, got 1 results", out)


if __name__ == "__main__":
    unittest.main(verbosity=1)
