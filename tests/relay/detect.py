#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Search recorded TPM traffic for secret bytes.

usage: detect.py [--from-mark LABEL] [--to-mark LABEL] [-q] RECORDING SECRET_HEX...

RECORDING is relay.py's (lines "SEQ C|R ORDINAL HEX", "# ..." comments) or any
text dump of the traffic (e.g. swtpm --log level=20): there, runs of lines
made only of hex (bytes with or without spaces, an optional "label:" before
them) are one message each, wherever the dump wraps its lines. SECRET_HEX may
hold spaces, colons or newlines. A secret is found when its bytes appear,
byte-aligned, inside one message or across the concatenation of all of them
(a dump that splits a message into several blocks).

--from-mark/--to-mark: only the messages after the relay's "# mark LABEL"
line (and before the next "# mark LABEL2"). "# orig" lines (a response before
the relay tampered with it) are not traffic the guest saw and are ignored.

Prints one line per hit; exit 0 = no secret found, 1 = found, 2 = error.
"""
import argparse
import re
import sys

HEXRUN = re.compile(r"^(?:[\w .\-\[\]]*:)?\s*((?:[0-9a-fA-F]{2}\s*)+)$")
RELAY = re.compile(r"^(\d+) ([CR]) ([0-9a-f]{8}) ([0-9a-f]*)$")


def unhex(text):
    """Bytes from hex text with any separators (spaces, colons, newlines)."""
    digits = re.sub(r"[^0-9a-fA-F]", "", re.sub(r"0[xX]", "", text))
    if len(digits) % 2 or not digits:
        raise ValueError("not an even number of hex digits: %r" % text[:40])
    return bytes.fromhex(digits)


def parse(lines, from_mark=None, to_mark=None):
    """Messages (seq, dir, ordinal, bytes) of a recording or a text dump."""
    msgs = []
    on = from_mark is None
    block = None
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if line.startswith("# mark "):
            label = line[len("# mark "):].strip()
            if from_mark is not None and label == from_mark:
                on, msgs = True, []
            elif to_mark is not None and label == to_mark:
                on = False
            block = None
            continue
        if line.startswith("#"):
            block = None
            continue
        m = RELAY.match(line)
        if m:
            block = None
            if on:
                msgs.append((int(m.group(1)), m.group(2), int(m.group(3), 16),
                             bytes.fromhex(m.group(4))))
            continue
        m = HEXRUN.match(line.strip())
        if m and on:
            data = bytes.fromhex(re.sub(r"\s", "", m.group(1)))
            if block is None:
                block = [n, bytearray()]
                msgs.append(None)
                block.append(len(msgs) - 1)
            block[1] += data
            msgs[block[2]] = (block[0], "?", 0, bytes(block[1]))
            continue
        block = None
    return msgs


def find(msgs, needle):
    """(seq, dir, ordinal) of each message holding NEEDLE; a hit only in the
    concatenation of all messages is reported as (-1, '*', 0)."""
    hits = [(s, d, o) for s, d, o, b in msgs if needle in b]
    if not hits and needle in b"".join(b for _, _, _, b in msgs):
        hits.append((-1, "*", 0))
    return hits


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from-mark")
    ap.add_argument("--to-mark")
    ap.add_argument("-q", action="store_true", help="no output, exit status only")
    ap.add_argument("recording")
    ap.add_argument("secret", nargs="+")
    a = ap.parse_args()
    try:
        needles = [unhex(s) for s in a.secret]
        with open(a.recording, errors="replace") as f:
            msgs = parse(f, a.from_mark, a.to_mark)
    except (OSError, ValueError) as e:
        print("detect.py: %s" % e, file=sys.stderr)
        return 2
    found = 0
    for needle in needles:
        for seq, d, o in find(msgs, needle):
            found += 1
            if not a.q:
                where = "across messages" if seq < 0 else "message %d %s ordinal %08x" % (seq, d, o)
                print("LEAK %s... (%d bytes) in %s" % (needle[:8].hex(), len(needle), where))
    if not a.q:
        print("%d message(s) searched, %d hit(s)" % (len(msgs), found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
