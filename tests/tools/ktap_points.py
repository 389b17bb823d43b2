# SPDX-License-Identifier: GPL-2.0
"""The test points of the host's Python tests (tests/tools/*-test.py): each
point recorded as it is checked, then the run as one KTAP document."""

results = []


def point(ok, desc, diag=""):
    """A point: ok when OK is true; DIAG (lines) shown when it is not."""
    results.append((bool(ok), desc, diag, None))


def skip(desc, why):
    """A point that could not run here, and why."""
    results.append((True, desc, "", why))


def report():
    """Print the KTAP document; 1 when a point failed, else 0."""
    print("KTAP version 1")
    print("1..%d" % len(results))
    fails = 0
    for i, (ok, desc, diag, why) in enumerate(results, 1):
        if why:
            print("ok %d %s # SKIP %s" % (i, desc, why))
            continue
        if not ok and diag:
            for line in str(diag).splitlines():
                print("# " + line)
        print("%s %d %s" % ("ok" if ok else "not ok", i, desc))
        fails += not ok
    return 1 if fails else 0
