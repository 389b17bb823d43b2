#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count TPM 2.0 commands per segment in a swtpm log (log level 20).

usage: tpm2_count.py SWTPM_LOG RESULTS_KTAP
       tpm2_count.py --table SWTPM_LOG RESULTS_KTAP

--table: one table of the operations both modules ran: milliseconds per
operation and operations per second from the "# bench-tpm2 IMPL OP N MS"
lines, the ratio ours / in-tree (time), and the commands per operation.

The guest (tests/guest/bench-tpm2) brackets each operation with marker
commands: a PCR_Read of exactly PCR s (s = 0..11) in the SHA-256 bank
starts segment s; its "# seg s IMPL OP" lines in the KTAP name them.
Prints one line per segment: IMPL OP TOTAL and the commands by name.
Not counted: commands the TPM answered with a warning that makes the
kernel send them again (TPM_RC_RETRY, _YIELDED, _TESTING: the resent one
counts), and GetRandom of other than 32 bytes (the keys here are 32 bytes;
the kernel's hwrng thread asks for other sizes whenever it likes).
"""
import re
import sys
from collections import Counter, OrderedDict

NAMES = {
    0x131: "CreatePrimary", 0x139: "DALockReset", 0x153: "Create", 0x157: "Load",
    0x15E: "Unseal", 0x165: "FlushContext", 0x173: "ReadPublic",
    0x176: "StartAuthSession", 0x17A: "GetCapability", 0x17B: "GetRandom",
    0x17E: "PCR_Read", 0x17F: "PolicyPCR", 0x182: "PCR_Extend",
}
MARKERS = range(12)


def random_size(c):
    """bytesRequested of a GetRandom command (after its sessions, if any)."""
    off = 10
    if int.from_bytes(c[0:2], "big") == 0x8002 and len(c) >= 14:
        off = 14 + int.from_bytes(c[10:14], "big")
    return int.from_bytes(c[off:off + 2], "big") if len(c) >= off + 2 else None


RESENT = (0x922, 0x908, 0x90A)


def commands(path):
    """The TPM commands in the log, in order, each with its response code."""
    msgs, cur = [], None
    for line in open(path, errors="replace"):
        if "SWTPM_IO_Read:" in line or "SWTPM_IO_Write:" in line:
            cur = bytearray()
            msgs.append(("cmd" if "Read" in line else "rsp", cur))
            continue
        if cur is not None and re.fullmatch(r"\s*([0-9A-Fa-f]{2}\s+)*[0-9A-Fa-f]{2}\s*", line):
            cur.extend(bytes.fromhex(line.strip().replace(" ", "")))
            continue
        cur = None
    out = []
    for i, (kind, data) in enumerate(msgs):
        if kind != "cmd" or len(data) < 10:
            continue
        rc = None
        if i + 1 < len(msgs) and msgs[i + 1][0] == "rsp" and len(msgs[i + 1][1]) >= 10:
            rc = int.from_bytes(msgs[i + 1][1][6:10], "big")
        out.append((bytes(data), rc))
    return out


def marker(c):
    """The segment a marker PCR_Read starts, or None."""
    if int.from_bytes(c[6:10], "big") != 0x17E or len(c) != 20:
        return None
    count, alg, size = int.from_bytes(c[10:14], "big"), int.from_bytes(c[14:16], "big"), c[16]
    mask = int.from_bytes(c[17:20], "little")
    if count != 1 or alg != 0x000B or size != 3 or bin(mask).count("1") != 1:
        return None
    pcr = mask.bit_length() - 1
    return pcr if pcr in MARKERS else None


def segment_names(ktap):
    """{s: (IMPL, OP)} from the KTAP's "# seg s IMPL OP" lines."""
    names = {}
    for line in open(ktap, errors="replace"):
        m = re.search(r"# seg (\d+) (\S+) (\S+)", line)
        if m:
            names[int(m.group(1))] = (m.group(2), m.group(3))
    return names


def segments(log, ktap):
    """[(IMPL, OP, Counter)] of the marked segments."""
    names = segment_names(ktap)
    segs, cur = OrderedDict(), None
    for c, rc in commands(log):
        cc = int.from_bytes(c[6:10], "big")
        if rc in RESENT or (cc == 0x17B and random_size(c) != 32):
            continue
        s = marker(c)
        if s is not None:
            cur = s if s in names else None
            if cur is not None:
                segs[cur] = Counter()
            continue
        if cur is not None:
            segs[cur][NAMES.get(cc, hex(cc))] += 1
    return [(names[s][0], names[s][1], cnt) for s, cnt in segs.items()]


def table(log, ktap, tag="bench-tpm2", segs=segments):
    """Print the table; TAG names the latency lines, SEGS counts."""
    ms, n, order = {}, {}, []
    for line in open(ktap, errors="replace"):
        m = re.search(r"# %s (\S+) (\S+) (\d+) (\d+)" % tag, line)
        if not m:
            continue
        impl, op, k, t = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        ms[impl, op] = ms.get((impl, op), 0) + t
        n[impl, op] = n.get((impl, op), 0) + k
        if op not in order:
            order.append(op)
    cmds = {(i, o): sum(c.values()) for i, o, c in segs(log, ktap)}
    print("  %-13s %9s %9s %8s %8s %7s %6s %6s" % (
        "op", "ours ms", "tree ms", "ours/s", "tree/s", "ratio", "cmds", "tree"))
    for op in order:
        mo = ms[("ours", op)] / n[("ours", op)]
        if ("ref", op) in ms:
            mr = ms[("ref", op)] / n[("ref", op)]
            tree = "%9.0f" % mr
            trees = "%8.2f" % (1000.0 / mr if mr else 0)
            ratio = "%7.2f" % (mo / mr if mr else 0)
        else:
            tree, trees, ratio = "%9s" % "-", "%8s" % "-", "%7s" % "-"
        print("  %-13s %9.0f %s %8.2f %s %s %6s %6s" % (
            op, mo, tree, 1000.0 / mo if mo else 0, trees, ratio,
            cmds.get(("ours", op), "-"), cmds.get(("ref", op), "-")))


def print_segments(segs):
    """One line per segment: IMPL OP TOTAL NAME:COUNT..."""
    for impl, op, cnt in segs:
        detail = " ".join("%s:%d" % (k, v) for k, v in sorted(cnt.items()))
        print("%s %s %d %s" % (impl, op, sum(cnt.values()), detail))


def main():
    if sys.argv[1] == "--table":
        table(sys.argv[2], sys.argv[3])
        return
    print_segments(segments(sys.argv[1], sys.argv[2]))


if __name__ == "__main__":
    main()
