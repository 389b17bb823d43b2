#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdict of one boot: the KTAP results channel plus the console log.

usage: ktap.py --name BOOT --results FILE [--console FILE] [--qemu-status N]
               [--elapsed S] [--counts FILE] [--done LINE]

The same verdict for documents that are not a boot's (the host tests,
tests/host/run-tests.sh): no --console, --done '' (no end marker).

Fails when: any "not ok" (SKIP is a pass, listed with its reason); a plan
missing or not matching its results; results out of order; the document
missing or truncated (no "# tk-init: done", or --done's line, at the end);
QEMU timed out; the console shows a kernel report (WARNING:, BUG:, Oops,
KASAN, kmemleak leaks, Call Trace, Kernel panic). Lines the guest init copied from test output to
the console ("tk| ", "tk! ", "tk-init: ") are not scanned.

Counts are leaf test points; a script that fails without failing results
(exit status, no plan) counts one failure, and so does each boot-level problem.
Writes "PASSED FAILED SKIPPED" to --counts; exit 0 = pass, 1 = fail.
"""
import argparse
import re
import sys

RESULT = re.compile(r"^(not ok|ok)\s+(\d+)\s*([^#]*?)\s*(?:#\s*(.*))?$")
PLAN = re.compile(r"^1\.\.(\d+)")
DIRECTIVE = re.compile(r"^(SKIP|TODO|XFAIL|TIMEOUT|ERROR)\b\s*(.*)$", re.I)
CONSOLE_BAD = re.compile(
    r"WARNING:|BUG:|Oops|KASAN|kmemleak: .* new suspected|unreferenced object|"
    r"Call Trace|Kernel panic")
OURS = ("tk| ", "tk! ", "tk-init: ")
DONE = "# tk-init: done"


class Block:
    def __init__(self, indent):
        self.indent = indent
        self.plan = None
        self.version = False
        self.results = []   # (ok, num, desc, directive, reason, child, diags)
        self.errors = []


def indent_of(line):
    return len(line) - len(line.lstrip(" "))


def parse(lines, i, indent):
    blk = Block(indent)
    child = None
    diags = []
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if not s:
            i += 1
            continue
        ind = indent_of(line)
        if ind < indent:
            break
        if ind > indent:
            if child is not None:
                blk.errors.append("nested block without a result line")
            child, i = parse(lines, i, ind)
            continue
        i += 1
        if s.startswith("KTAP version"):
            if blk.version or blk.plan is not None or blk.results:
                blk.errors.append("unexpected version line: %s" % s)
            blk.version = True
            continue
        m = PLAN.match(s)
        if m:
            if blk.plan is not None:
                blk.errors.append("second plan line: %s" % s)
            blk.plan = int(m.group(1))
            continue
        m = RESULT.match(s)
        if m:
            directive, reason = None, ""
            if m.group(4):
                d = DIRECTIVE.match(m.group(4))
                if d:
                    directive, reason = d.group(1).upper(), d.group(2)
                else:
                    reason = m.group(4)
            blk.results.append((m.group(1) == "ok", int(m.group(2)), m.group(3).strip(),
                                directive, reason, child, diags))
            child, diags = None, []
            continue
        if s.startswith("#"):
            diags.append(s)
        # anything else: an unknown line, allowed by KTAP
    if child is not None:
        blk.errors.append("nested block without a result line (truncated?)")
    return blk, i


class Verdict:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.problems = []   # boot-level, each counts one failure
        self.fails = []      # (path, diags)
        self.skips = []      # (path, reason)

    def problem(self, msg):
        self.problems.append(msg)
        self.failed += 1


def evaluate(blk, path, v):
    """Returns True when the block passed."""
    good = True
    where = path or "top level"
    for e in blk.errors:
        v.problem("%s: %s" % (where, e))
        good = False
    if blk.plan is None:
        v.problem("%s: no plan" % where)
        good = False
    elif blk.plan != len(blk.results):
        v.problem("%s: planned %d, got %d results" % (where, blk.plan, len(blk.results)))
        good = False
    for k, (ok, num, desc, directive, reason, child, diags) in enumerate(blk.results, 1):
        name = "%s/%s" % (path, desc or num) if path else (desc or str(num))
        if num != k:
            v.problem("%s: result number %d where %d was expected" % (where, num, k))
            good = False
        if child is not None and ok and directive == "SKIP" and child.plan == 0:
            # a whole script skipped: "1..0 # SKIP reason" (lib.sh t_require)
            evaluate(child, name, v)
            v.skipped += 1
            v.skips.append((name, "SKIP %s" % reason))
        elif child is not None:
            before = v.failed
            cgood = evaluate(child, name, v)
            if not ok and v.failed == before:
                v.failed += 1
                v.fails.append((name, diags))
            if ok and not cgood:
                v.problem("%s: reported ok but its subtests failed" % name)
            good = good and ok and cgood
        elif directive in ("SKIP", "TODO", "XFAIL") and (ok or directive == "SKIP"):
            v.skipped += 1
            v.skips.append((name, "%s %s" % (directive, reason)))
        elif ok and directive is None:
            v.passed += 1
        else:
            v.failed += 1
            v.fails.append((name, diags + (["# %s %s" % (directive, reason)] if directive else [])))
            good = False
    return good


def group_skips(skips):
    """Consecutive skips of one script with one reason become one line."""
    out = []
    for name, reason in skips:
        where, _, leaf = name.rpartition("/")
        if out and out[-1][0] == where and out[-1][1] == reason and where:
            out[-1][2].append(leaf)
        else:
            out.append((where, reason, [leaf]))
    lines = []
    for where, reason, leaves in out:
        if len(leaves) == 1:
            lines.append((where + "/" + leaves[0] if where else leaves[0], reason, ""))
        else:
            lines.append((where, reason, " (%d tests)" % len(leaves)))
    return lines


def console_reports(path, warn_ok=None, accepted=None):
    """The kernel reports in a console log, as "PATH:LINE: text".

    warn_ok: a WARNING: line containing this text, and its report up to
    "---[ end trace", is not one (a known warning of a row's kernel, not
    ours: --warn-ok); each such line goes to the list accepted."""
    bad = []
    skipping = False
    with open(path, "rb") as f:
        for n, line in enumerate(f.read().decode("utf-8", "replace").splitlines(), 1):
            line = line.rstrip("\r")
            if line.startswith(OURS):
                continue
            if skipping:
                skipping = "---[ end trace" not in line
                continue
            if warn_ok and "WARNING:" in line and warn_ok in line:
                skipping = True
                if accepted is not None:
                    accepted.append("%s:%d: %s" % (path, n, line))
                continue
            if CONSOLE_BAD.search(line):
                bad.append("%s:%d: %s" % (path, n, line))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--console")
    ap.add_argument("--qemu-status", type=int, default=0)
    ap.add_argument("--elapsed", default="")
    ap.add_argument("--counts")
    ap.add_argument("--warn-ok", default=None,
                    help="a kernel WARNING: with this text is known, not a failure")
    ap.add_argument("--done", default=DONE,
                    help="the line that ends a complete document ('': none)")
    a = ap.parse_args()
    v = Verdict()

    if a.qemu_status == 124:
        v.problem("QEMU killed by the timeout")
    elif a.qemu_status != 0:
        v.problem("QEMU exited with status %d" % a.qemu_status)

    try:
        with open(a.results, "rb") as f:
            raw = f.read().decode("utf-8", "replace")
    except OSError as e:
        raw = None
        v.problem("no results: %s" % e)
    if raw is not None:
        lines = [l.rstrip("\r") for l in raw.replace("\0", "").split("\n")]
        start = next((k for k, l in enumerate(lines) if l.strip() == "KTAP version 1"
                      and indent_of(l) == 0), None)
        if start is None:
            v.problem("results: no KTAP document")
        else:
            top, _ = parse(lines, start, 0)
            evaluate(top, "", v)
            if top.plan == 0:
                v.problem("no tests ran")
            if a.done and not any(l.strip() == a.done for l in lines):
                v.problem("results truncated (no '%s'): the guest did not finish" % a.done)

    bad = []
    accepted = []
    if a.console is not None:
        try:
            bad = console_reports(a.console, a.warn_ok, accepted)
        except OSError as e:
            v.problem("no console log: %s" % e)
    if bad:
        v.problem("kernel reports on the console (%d lines)" % len(bad))

    ok = v.failed == 0
    t = " (%ss)" % a.elapsed if a.elapsed else ""
    print("%s %s: %d passed, %d failed, %d skipped%s" % (
        "PASS" if ok else "FAIL", a.name, v.passed, v.failed, v.skipped, t))
    for where, reason, nums in group_skips(v.skips):
        print("  skip %s%s: %s" % (where, nums, reason))
    for name, diags in v.fails:
        print("  not ok %s" % name)
        for d in diags[-10:]:
            print("      %s" % d)
    for p in v.problems:
        print("  problem: %s" % p)
    for b in bad[:20]:
        print("      %s" % b)
    if accepted:
        print("  known warning (--warn-ok %s), %d times: %s" % (a.warn_ok, len(accepted), accepted[0]))
    if a.counts:
        with open(a.counts, "w") as f:
            f.write("%d %d %d\n" % (v.passed, v.failed, v.skipped))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
