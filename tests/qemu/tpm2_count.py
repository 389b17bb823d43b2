#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count TPM 2.0 commands per segment in a swtpm log (log level 20).

usage: tpm2_count.py SWTPM_LOG RESULTS_KTAP

The guest (tests/guest/bench2) brackets each operation with marker
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


def main():
    log, ktap = sys.argv[1], sys.argv[2]
    names = {}
    for line in open(ktap, errors="replace"):
        m = re.search(r"# seg (\d+) (\S+) (\S+)", line)
        if m:
            names[int(m.group(1))] = (m.group(2), m.group(3))
    segs, cur = OrderedDict(), None
    for c, rc in commands(log):
        cc = int.from_bytes(c[6:10], "big")
        if rc in RESENT or (cc == 0x17B and int.from_bytes(c[10:12], "big") != 32):
            continue
        s = marker(c)
        if s is not None:
            cur = s if s in names else None
            if cur is not None:
                segs[cur] = Counter()
            continue
        if cur is not None:
            segs[cur][NAMES.get(cc, hex(cc))] += 1
    for s, cnt in segs.items():
        impl, op = names[s]
        detail = " ".join("%s:%d" % (k, v) for k, v in sorted(cnt.items()))
        print("%s %s %d %s" % (impl, op, sum(cnt.values()), detail))


if __name__ == "__main__":
    main()
