#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count TPM 1.2 commands per segment in a swtpm log (log level 20).

usage: tpm1_count.py [--tpm 1.2|2.0] [--tag TAG] [--table] SWTPM_LOG RESULTS_KTAP

The sibling of tpm2_count.py (whose log reader and table it uses) for the
guest's tests/guest/bench: a TPM_PCRRead of exactly PCR s (s = 0..11) starts
segment s; the KTAP's "# seg s IMPL OP" lines name the segments. Prints one
line per segment: IMPL OP TOTAL and the commands by name. --table: the
table of tpm2_count.py from the "# TAG IMPL OP N MS" lines (TAG: bench).
--tpm 2.0: the segments of tpm2_count.py (PCR_Read markers) instead.

Counted: every command on the bus between two markers. A TPM_ExecuteTransport
is one command, named with the ordinal it wraps (its header stays in clear):
"ExecuteTransport/Seal". Not counted: TPM_GetRandom of 64 bytes outside a
transport, the size the kernel's hwrng thread asks for on x86-64
(RNG_BUFFER_SIZE = SMP_CACHE_BYTES) whenever it likes; neither module asks
for 64 (nonces are 20 bytes, the keys here 32).
"""
import os
import sys
from collections import Counter, OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tpm2_count  # noqa: E402

# TPM Main Part 2, TPM_ORD_*.
NAMES = {
    0x0A: "OIAP", 0x0B: "OSAP", 0x14: "Extend", 0x15: "PCRRead", 0x17: "Seal",
    0x18: "Unseal", 0x21: "GetPubKey", 0x41: "LoadKey2", 0x46: "GetRandom",
    0x65: "GetCapability", 0xBA: "FlushSpecific", 0xE6: "EstablishTransport",
    0xE7: "ExecuteTransport", 0xE8: "ReleaseTransportSigned",
}
ORD_PCR_READ, ORD_GET_RANDOM, ORD_EXECUTE = 0x15, 0x46, 0xE7
HWRNG_SIZE = 64
MARKERS = range(12)


def u32(c, off):
    return int.from_bytes(c[off:off + 4], "big") if len(c) >= off + 4 else None


def marker(c):
    """The segment a marker TPM_PCRRead starts, or None."""
    if len(c) != 14 or u32(c, 6) != ORD_PCR_READ or c[0:2] != b"\x00\xc1":
        return None
    pcr = u32(c, 10)
    return pcr if pcr in MARKERS else None


def name(c):
    """The name of command C; a wrapped one's after ExecuteTransport/."""
    o = u32(c, 6)
    n = NAMES.get(o, hex(o))
    if o == ORD_EXECUTE and len(c) >= 24:
        w = u32(c, 20)      # wrappedCmdSize at 10, the wrapped header at 14
        n += "/" + NAMES.get(w, hex(w))
    return n


def segments(log, ktap):
    """[(IMPL, OP, Counter)] of the marked segments."""
    names = tpm2_count.segment_names(ktap)
    segs, cur = OrderedDict(), None
    for c, _rc in tpm2_count.commands(log):
        if u32(c, 6) == ORD_GET_RANDOM and u32(c, 10) == HWRNG_SIZE:
            continue
        s = marker(c)
        if s is not None:
            cur = s if s in names else None
            if cur is not None:
                segs[cur] = Counter()
            continue
        if cur is not None:
            segs[cur][name(c)] += 1
    return [(names[s][0], names[s][1], cnt) for s, cnt in segs.items()]


def main(argv):
    tpm, tag, tab = "1.2", "bench", False
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--table":
            tab = True
        elif opt == "--tpm":
            tpm = argv.pop(0)
        elif opt == "--tag":
            tag = argv.pop(0)
        else:
            sys.exit("unknown option " + opt)
    if len(argv) != 2:
        sys.exit(__doc__)
    segs = tpm2_count.segments if tpm == "2.0" else segments
    if tab:
        tpm2_count.table(argv[0], argv[1], tag, segs)
        return
    tpm2_count.print_segments(segs(argv[0], argv[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
