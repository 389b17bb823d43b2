#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest's serial console (ttyS0) for boot.sh when something must be typed.

usage: console.py --socket PATH --log FILE --record FILE
                  --expect TEXT --answer-file FILE [--expect TEXT --answer-file FILE]...
                  [--connect-timeout S] [--delay S --unless TEXT]

Connects to QEMU's console chardev (a UNIX socket, QEMU the server), appends
everything the guest writes to --log (what boot.sh's file chardev would have
written), and each time one of the TEXTs appears in the output (cryptroot's
"Please unlock disk", our unlock's "Enter the TPM PIN"), types the first
line of its --answer-file (the one given after it) and Enter, the way a
user at the console would. --record gets one line per prompt seen:
"prompt N at S s: <the prompt's line>". Ends when QEMU closes the socket.

An --answer-file whose name ends in ".keys" is keys, not a line: its
bytes are typed as they are (no Enter: GRUB's menu, Ctrl-N 0x0e, Enter
0x0d, its command line), once: GRUB draws the menu's lines again as the
highlight moves, and the TEXT seen again is not a new prompt.

--delay S --unless TEXT: a user who waits for something else to answer
the prompt (Clevis's initramfs types into cryptroot's prompt itself): types
only when TEXT (cryptroot's "set up successfully") has not appeared within S
seconds of the prompt; the record line then ends in " [typed after S s]" or
" [not typed: 'TEXT' after X s]".
"""
import argparse
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--socket", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--expect", required=True, action="append")
    ap.add_argument("--answer-file", required=True, action="append")
    ap.add_argument("--record", required=True)
    ap.add_argument("--connect-timeout", type=float, default=30)
    ap.add_argument("--delay", type=float, default=0)
    ap.add_argument("--unless")
    a = ap.parse_args()
    if len(a.expect) != len(a.answer_file):
        print("console.py: one --answer-file for each --expect", file=sys.stderr)
        return 2

    pairs = []
    for text, name in zip(a.expect, a.answer_file):
        with open(name, "rb") as f:
            if name.endswith(".keys"):
                pairs.append((text.encode(), f.read(), True))
            else:
                pairs.append((text.encode(), f.read().split(b"\n", 1)[0] + b"\n", False))
    keep = max(len(e) for e, _, _ in pairs)
    unless = a.unless.encode() if a.unless else None
    # QEMU waits for this connection before it starts the guest
    # (server=on,wait=on): nothing the guest writes is lost.
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    t_end = time.monotonic() + a.connect_timeout
    while True:
        try:
            s.connect(a.socket)
            break
        except OSError:
            if time.monotonic() > t_end:
                print(f"console.py: no console socket {a.socket}", file=sys.stderr)
                return 2
            time.sleep(0.05)
    t0 = time.monotonic()
    n = 0
    tail = b""		# the output not yet searched, from the last line's start
    with open(a.log, "ab", buffering=0) as log, open(a.record, "w") as rec:
        while True:
            try:
                data = s.recv(4096)
            except OSError:
                break
            if not data:
                break
            log.write(data)
            tail += data
            while True:
                # the first prompt in the output, whichever it is
                hits = [(tail.find(e), e, ans, once) for e, ans, once in pairs]
                hits = [h for h in hits if h[0] >= 0]
                if not hits:
                    break
                i, expect, answer, once = min(hits, key=lambda h: h[0])
                if once:
                    # keys are typed once: the pair is used up
                    pairs = [p for p in pairs if p[0] != expect]
                seen = time.monotonic() - t0
                # cryptroot's askpass sets the terminal up after printing
                # the prompt (and flushes its input): type a moment later;
                # meanwhile the rest of the prompt's line comes (with
                # --delay, and --unless's text, if it comes, ends the wait)
                t_type = time.monotonic() + max(1.0, a.delay)
                s.settimeout(0.1)
                while time.monotonic() < t_type:
                    try:
                        more = s.recv(4096)
                    except socket.timeout:
                        continue
                    except OSError:
                        more = b""
                    if not more:
                        break
                    log.write(more)
                    tail += more
                    if unless and unless in tail[i:]:
                        break
                s.settimeout(None)
                end = tail.find(b"\n", i)
                line = tail[i:end if end >= 0 else len(tail)]
                n += 1
                note = ""
                answered = unless is not None and unless in tail[i:]
                if answered:
                    note = " [not typed: '%s' after %.1f s]" % (
                        a.unless, time.monotonic() - t0 - seen)
                elif a.delay:
                    note = " [typed after %.0f s]" % a.delay
                rec.write("prompt %d at %.1f s: %s%s\n" % (n, seen,
                          line.decode(errors="replace").strip(), note))
                rec.flush()
                if not answered:
                    try:
                        s.sendall(answer)
                    except OSError:
                        break
                tail = tail[i + len(expect):]
            # keep enough to match a prompt split across reads
            if len(tail) > keep:
                tail = tail[-keep:]
    s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
