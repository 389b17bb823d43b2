#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the TPM command counters (tpm1_count.py, tpm2_count.py) on
tiny synthetic swtpm logs. Run: python3 tests/qemu/count_test.py"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tpm1_count  # noqa: E402
import tpm2_count  # noqa: E402


def cmd(tag, ordinal, body=b""):
    return tag.to_bytes(2, "big") + (10 + len(body)).to_bytes(4, "big") + \
        ordinal.to_bytes(4, "big") + body


def rsp(tag, rc=0):
    return tag.to_bytes(2, "big") + (10).to_bytes(4, "big") + rc.to_bytes(4, "big")


def dump(kind, data):
    """DATA as swtpm logs it at level 20: 16 bytes a line."""
    out = " SWTPM_IO_%s: length %d\n" % (kind, len(data))
    for i in range(0, len(data), 16):
        out += " " + " ".join("%02X" % b for b in data[i:i + 16]) + " \n"
    return out


def log(cmds, rsp_tag):
    text = " Ctrl Cmd: length 4\n 00 00 00 01 \n"
    for c in cmds:
        rc = 0
        if isinstance(c, tuple):
            c, rc = c
        text += dump("Read", c) + dump("Write", rsp(rsp_tag, rc))
    return text


def u32(v):
    return v.to_bytes(4, "big")


def pcr1(n):
    return cmd(0xC1, 0x15, u32(n))


def wrap(inner):
    """A TPM_ExecuteTransport around INNER (body beyond it: zeros)."""
    return cmd(0xC2, 0xE7, u32(len(inner)) + inner + bytes(4 + 20 + 1 + 20))


KTAP = """KTAP version 1
# seg 0 ours new
# seg 1 ref new
# bench ours new 10 2000
# bench ref new 10 1000
# bench-tpm2 ours new 4 400
ok 1 counts
"""


class Count(unittest.TestCase):
    def run_on(self, text, fn, *args):
        with tempfile.TemporaryDirectory() as d:
            lp, kp = os.path.join(d, "swtpm.log"), os.path.join(d, "results.ktap")
            with open(lp, "w") as f:
                f.write(text)
            with open(kp, "w") as f:
                f.write(KTAP)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                res = fn(lp, kp, *args)
            return res, out.getvalue()

    def tpm1_log(self):
        seal = cmd(0xC2, 0x17, u32(0x40000000) + bytes(100))
        return log([
            cmd(0xC1, 0x46, u32(32)),             # before any marker
            pcr1(0),
            cmd(0xC1, 0x0A),                      # OIAP
            cmd(0xC2, 0x21, u32(0x40000000) + bytes(45)),
            cmd(0xC1, 0x46, u32(64)),             # the hwrng's: skipped
            cmd(0xC2, 0xE6, bytes(300)),
            wrap(cmd(0xC1, 0x46, u32(32))),
            cmd(0xC1, 0x0B, bytes(26)),           # OSAP
            wrap(seal),
            cmd(0xC1, 0xBA, u32(0x02000000) + u32(4)),
            pcr1(20),                             # not a marker: counted
            pcr1(1),
            cmd(0xC1, 0x46, u32(32)),
            cmd(0xC1, 0x46, u32(20)),
            cmd(0xC1, 0x0B, bytes(26)),
            seal,
            pcr1(2),                              # no "# seg 2": the end
            cmd(0xC1, 0x0A),
        ], 0xC4)

    def test_tpm1_segments(self):
        segs, _ = self.run_on(self.tpm1_log(), tpm1_count.segments)
        self.assertEqual([(i, o) for i, o, _ in segs], [("ours", "new"), ("ref", "new")])
        self.assertEqual(dict(segs[0][2]), {
            "OIAP": 1, "GetPubKey": 1, "EstablishTransport": 1,
            "ExecuteTransport/GetRandom": 1, "OSAP": 1, "ExecuteTransport/Seal": 1,
            "FlushSpecific": 1, "PCRRead": 1})
        self.assertEqual(dict(segs[1][2]), {"GetRandom": 2, "OSAP": 1, "Seal": 1})

    def test_tpm1_table(self):
        _, out = self.run_on(self.tpm1_log(), tpm2_count.table, "bench", tpm1_count.segments)
        row = out.splitlines()[1].split()
        # op, ours ms, tree ms, ours/s, tree/s, ratio, cmds, tree
        self.assertEqual(row, ["new", "200", "100", "5.00", "10.00", "2.00", "8", "4"])

    def test_tpm2_segments(self):
        def pcr2(n):
            return cmd(0x8001, 0x17E, u32(1) + (0xB).to_bytes(2, "big") + bytes([3]) +
                       (1 << n).to_bytes(3, "little"))
        text = log([
            pcr2(0),
            cmd(0x8001, 0x17B, (32).to_bytes(2, "big")),
            cmd(0x8001, 0x17B, (64).to_bytes(2, "big")),     # hwrng: skipped
            (cmd(0x8002, 0x153, bytes(40)), 0x922),          # TPM_RC_RETRY: resent
            cmd(0x8002, 0x153, bytes(40)),
            pcr2(1),
            cmd(0x8001, 0x165, u32(0x80000000)),
            pcr2(5),
        ], 0x8001)
        segs, _ = self.run_on(text, tpm2_count.segments)
        self.assertEqual(dict(segs[0][2]), {"GetRandom": 1, "Create": 1})
        self.assertEqual(dict(segs[1][2]), {"FlushContext": 1})
        _, out = self.run_on(text, tpm2_count.table)
        self.assertEqual(out.splitlines()[1].split(),
                         ["new", "100", "-", "10.00", "-", "-", "2", "1"])


if __name__ == "__main__":
    unittest.main()
