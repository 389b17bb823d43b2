#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A relay between QEMU's tpm-emulator backend and swtpm that records every
TPM command and response, and can tamper with or fuzz responses.

usage: relay.py --listen SOCK --swtpm SOCK --record FILE [--mode MODE] [--log FILE]

QEMU connects to SOCK (its "-chardev socket,path=SOCK" of the tpm-emulator)
as it would to swtpm's control channel; the relay connects to swtpm's control
socket and forwards the control messages both ways. The message that carries
a file descriptor (CMD_SET_DATAFD, SCM_RIGHTS) is the data channel: the relay
keeps QEMU's descriptor, hands swtpm one end of a socketpair of its own, and
relays the TPM traffic between the two, one command then its response, framed
by the TPM header (10 bytes, big-endian size at offset 2). It serves one QEMU
connection and exits when QEMU goes away (swtpm then exits too).

Recording (FILE): one line per message, "SEQ C|R ORDINAL HEX" (C = command to
the TPM, R = its response as the guest got it, ORDINAL of the command, 8 hex
digits), "# ..." lines for marks and for each tampering ("# tamper SEQ ...",
the original response on a "# orig SEQ R ORD HEX" line). detect.py reads it.

MODE (also armed later by the guest, see below):
  record                 record only (the default)
  tamper:RULE[,RULE...]  RULE = ORD[@N]:ACTION  (ORD hex; the Nth response to
                         ORD counted from the start, default 1)
                         ACTION = flip=OFF | rc=HEX | tag=HEX | trunc=LEN |
                         grow=N | byte=OFF=HEX  (OFF may be negative: from the end;
                         HEX of more bytes overwrites that many) |
                         answer=HEX  (the command is not sent to the TPM: the
                         relay answers it, a bare header with that code: a
                         glitch the TPM never saw, e.g. answer=918, "session
                         not loaded")
  fuzz:SEED[:N[:ORDS]]   random mutations of the next N (default 50) responses
                         to ORDS (hex, '+'-separated; default every ordinal)

The response keeps a header size equal to the bytes sent (QEMU frames by it).

Guest control: a command with ordinal 0x20544b52 ("\\x20TKR", either tag) never
reaches swtpm; its body is ASCII, the reply (rc 0) carries an ASCII answer:
  ping                      -> "pong MODE"
  mark LABEL                -> a "# mark LABEL" line; scans start there
  scan HEX [LABEL]          -> "hits N": messages since the last mark that hold HEX
                               (with LABEL: those from "mark LABEL" to the next mark)
  sniff ORD [LABEL]         -> "data HEX...": what a passive sniffer reads as the data
                               of each response to ORD (hex) since the last mark
                               (or in LABEL's segment), oldest first:
                               the TPM 2.0 response's first TPM2B parameter (GetRandom's
                               randomBytes, Unseal's outData), in clear or encrypted
                               as it crossed the bus; "data none" without one
  count ORD                 -> "count N": commands of ordinal ORD (hex) since the last
                               mark, as sent (a TPM 1.2 command wrapped in
                               TPM_ExecuteTransport counts as that, 0xe7)
  tamper RULE[,RULE...]     -> "armed K" (N counts from now)
  fuzz SEED N [ORDS]        -> "armed N"
  disarm                    -> "fired K" (tamperings since the start or the last disarm), all off
  fired                     -> "fired K"
  tampered                  -> "cmd HEX": the last command whose response was changed
                               (since the last disarm), or "cmd none"
  replay [LABEL]            -> an interposer that sends commands of its own: the relay
                               takes inPrivate and inPublic from the last successful
                               Load since the last mark (or in LABEL's segment), sends
                               its own Load under the same parent (empty password), runs
                               the PolicyPCR, PolicyCommandCode, PolicyAuthValue, PolicyAuthorize and
                               PolicyNV commands the guest ran in its last policy
                               session after that Load in a policy session of its own
                               (PolicyNV authorised by the empty password), when
                               there were any, and its own Unseal (empty password, or
                               that policy session); it answers "key HEX" (outData),
                               "refused CMD RC" or "none" (no Load seen). Its commands
                               are "# own" lines of the recording, not bus traffic; the
                               object and session are flushed.
Without the relay, swtpm answers that ordinal with an error code: the guest
knows there is no relay.
"""
import argparse
import os
import random
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import detect  # noqa: E402

RELAY_CC = 0x20544B52
HDR = 10
MAX_MSG = 64 * 1024


class Rule:
    """One tampering: the Nth response to ORD gets ACTION."""

    def __init__(self, text, counts):
        try:
            target, action = text.split(":", 1)
            if "@" in target:
                o, n = target.split("@", 1)
            else:
                o, n = target, "1"
            self.ordinal = int(o, 16)
            self.nth = int(n)
            # N counts from when the rule is armed
            self.at = counts.get(self.ordinal, 0) + self.nth
            name, _, arg = action.partition("=")
            self.action, self.arg = name, arg
            if name not in ("flip", "rc", "tag", "trunc", "grow", "byte", "answer"):
                raise ValueError(name)
            apply_action(bytearray(64), name, arg)   # validates arg
        except (ValueError, IndexError) as e:
            raise ValueError("bad tamper rule '%s' (%s)" % (text, e))
        self.text = text
        self.done = False


def _off(arg, n):
    off = int(arg, 0)
    return off + n if off < 0 else off


def fix_size(buf):
    struct.pack_into(">I", buf, 2, len(buf))
    return buf


def apply_action(buf, action, arg):
    """ACTION on response BUF (bytearray); returns the new response."""
    if action == "flip":
        off = _off(arg, len(buf))
        if 0 <= off < len(buf):
            buf[off] ^= 0xFF
    elif action == "byte":
        # byte=OFF=HEX: one byte, or as many as HEX holds (a substitution)
        o, v = arg.split("=")
        off = _off(o, len(buf))
        data = bytes.fromhex(v if len(v) > 2 else v.zfill(2))
        if 0 <= off < len(buf):
            buf[off:off + len(data)] = data[:len(buf) - off]
    elif action == "rc":
        struct.pack_into(">I", buf, 6, int(arg, 16) & 0xFFFFFFFF)
    elif action == "tag":
        struct.pack_into(">H", buf, 0, int(arg, 16) & 0xFFFF)
    elif action == "trunc":
        n = max(HDR, int(arg, 0))
        del buf[n:]
    elif action == "grow":
        buf += bytes(int(arg, 0))
    elif action == "answer":
        buf[:] = struct.pack(">HII", 0x8001, HDR, int(arg, 16) & 0xFFFFFFFF)
    else:
        raise ValueError(action)
    # The size field always says what is sent, or QEMU waits for the rest.
    return fix_size(buf)


RCS = [0x80000000, 0xFFFFFFFF, 0x00000101, 0x0000098E, 0x00000922, 0x00000001,
       0x00000018, 0x80000101, 0x00000100]


def fuzz_one(rng, resp):
    """One random mutation of response RESP; returns (new, description)."""
    buf = bytearray(resp)
    kind = rng.choice(["flip", "flip", "byte", "rc", "tag", "trunc", "trunc", "grow", "zero"])
    if kind == "flip":
        off = rng.randrange(len(buf))
        buf[off] ^= 1 << rng.randrange(8)
        desc = "flip bit at %d" % off
    elif kind == "byte":
        off = rng.randrange(len(buf))
        buf[off] = rng.randrange(256)
        desc = "byte %d := %02x" % (off, buf[off])
    elif kind == "rc":
        rc = rng.choice(RCS + [rng.getrandbits(32)])
        struct.pack_into(">I", buf, 6, rc)
        desc = "rc := %08x" % rc
    elif kind == "tag":
        tag = rng.choice([0x8001, 0x8002, 0x00C4, 0x00C5, 0x00C6, rng.getrandbits(16)])
        struct.pack_into(">H", buf, 0, tag)
        desc = "tag := %04x" % tag
    elif kind == "trunc":
        n = rng.randrange(HDR, max(HDR + 1, len(buf)))
        del buf[n:]
        desc = "trunc to %d" % n
    elif kind == "grow":
        n = rng.randrange(1, 64)
        buf += bytes(rng.randrange(256) for _ in range(n))
        desc = "grow by %d" % n
    else:
        if len(buf) > HDR:
            off = rng.randrange(HDR, len(buf))
            n = rng.randrange(1, len(buf) - off + 1)
            buf[off:off + n] = bytes(n)
            desc = "zero %d bytes at %d" % (n, off)
        else:
            desc = "zero nothing"
    return fix_size(buf), desc


class Relay:
    def __init__(self, record, log):
        self.rec = open(record, "a", buffering=1)
        self.log = log
        self.tpm = None           # the TPM's data channel (replay's own commands)
        self.lock = threading.Lock()
        self.seq = 0
        self.counts = {}          # ordinal -> responses so far
        self.rules = []
        self.fired = 0
        self.fuzz = None          # (rng, left, ordinals or None)
        self.mode = "record"
        self.cmd = b""            # the command being answered
        self.tampered = None      # the last command whose response was changed
        self.segment = []         # (seq, dir, ordinal, bytes) since the last mark
        self.segments = {}        # label -> its segment (the last mark of that label)

    def say(self, msg):
        if self.log:
            print("relay: %.3f %s" % (time.monotonic(), msg), file=self.log, flush=True)

    def write(self, line):
        self.rec.write(line + "\n")

    def record(self, d, ordinal, data):
        self.write("%d %s %08x %s" % (self.seq, d, ordinal, data.hex()))
        self.segment.append((self.seq, d, ordinal, bytes(data)))

    def arm(self, text):
        rules = [Rule(t, self.counts) for t in text.split(",") if t]
        self.rules += rules
        self.write("# arm %s" % text)
        return len(rules)

    def arm_fuzz(self, seed, n, ords):
        self.fuzz = [random.Random(seed), n, ords]
        self.write("# fuzz seed=%d n=%d ords=%s" % (
            seed, n, "+".join("%x" % o for o in ords) if ords else "all"))

    def set_mode(self, mode):
        self.mode = mode
        kind, _, arg = mode.partition(":")
        if kind == "record":
            return
        if kind == "tamper":
            self.arm(arg)
        elif kind == "fuzz":
            parts = arg.split(":")
            seed = int(parts[0], 0)
            n = int(parts[1], 0) if len(parts) > 1 and parts[1] else 50
            ords = parse_ords(parts[2]) if len(parts) > 2 else None
            self.arm_fuzz(seed, n, ords)
        else:
            raise ValueError("unknown mode '%s'" % mode)

    # --- the guest's control command ------------------------------------
    def control(self, text):
        words = text.split()
        if not words:
            return "error empty"
        w = words[0]
        try:
            if w == "ping":
                return "pong %s" % self.mode
            if w == "mark":
                self.write("# mark %s" % " ".join(words[1:]))
                self.segment = []
                if len(words) > 1:
                    self.segments[words[1]] = self.segment
                return "marked"
            if w == "scan":
                needle = detect.unhex(words[1])
                seg = self.segment
                if len(words) > 2:
                    if words[2] not in self.segments:
                        return "error no mark %s" % words[2]
                    seg = self.segments[words[2]]
                hits = detect.find(seg, needle)
                for seq, d, o in hits:
                    self.write("# hit %s in %d %s %08x" % (words[1], seq, d, o))
                return "hits %d" % len(hits)
            if w == "sniff":
                seg = self.segment
                if len(words) > 2:
                    if words[2] not in self.segments:
                        return "error no mark %s" % words[2]
                    seg = self.segments[words[2]]
                return "data %s" % sniff(seg, int(words[1], 16))
            if w == "count":
                o = int(words[1], 16)
                return "count %d" % sum(1 for _, d, oo, _ in self.segment if d == "C" and oo == o)
            if w == "tamper":
                return "armed %d" % self.arm(words[1])
            if w == "fuzz":
                ords = parse_ords(words[3]) if len(words) > 3 else None
                n = int(words[2], 0)
                self.arm_fuzz(int(words[1], 0), n, ords)
                return "armed %d" % n
            if w == "disarm":
                fired = self.fired
                self.rules, self.fuzz, self.fired, self.tampered = [], None, 0, None
                self.write("# disarm fired=%d" % fired)
                return "fired %d" % fired
            if w == "fired":
                return "fired %d" % self.fired
            if w == "tampered":
                return "cmd %s" % (self.tampered.hex() if self.tampered else "none")
            if w == "replay":
                seg = self.segment
                if len(words) > 1:
                    if words[1] not in self.segments:
                        return "error no mark %s" % words[1]
                    seg = self.segments[words[1]]
                return self.replay(seg)
        except (ValueError, IndexError, struct.error) as e:
            return "error %s" % e
        return "error unknown %s" % w

    # --- an interposer that sends its own commands ----------------------
    def own(self, cmd):
        """One command of the relay's own to the TPM: (rc, response)."""
        ordinal = struct.unpack_from(">I", cmd, 6)[0]
        self.write("# own C %08x %s" % (ordinal, cmd.hex()))
        self.tpm.sendall(cmd)
        resp = read_msg(self.tpm)
        if resp is None:
            raise EOFError("swtpm closed the data channel")
        self.write("# own R %08x %s" % (ordinal, resp.hex()))
        return struct.unpack_from(">I", resp, 6)[0] if len(resp) >= HDR else 0xFFFFFFFF, resp

    def replay(self, seg):
        load, policy = parse_replay(seg)
        if load is None:
            return "none"
        parent, priv, pub = load
        pw = struct.pack(">IIHBH", 9, 0x40000009, 0, 0, 0)   # empty password
        rc, r = self.own(tpm2_cmd(0x8002, 0x157, struct.pack(">I", parent) + pw + priv + pub))
        if rc:
            return "refused 157 %x" % rc
        item = struct.unpack_from(">I", r, HDR)[0]
        sess = None
        try:
            auth = pw
            if policy:
                rc, r = self.own(tpm2_cmd(0x8001, 0x176, struct.pack(">II", 0x40000007, 0x40000007) +
                                          struct.pack(">H", 16) + os.urandom(16) +
                                          struct.pack(">HBHH", 0, 1, 0x10, 0xB)))
                if rc:
                    return "refused 176 %x" % rc
                sess = struct.unpack_from(">I", r, HDR)[0]
                for o, handles, params in policy:
                    body = handles + struct.pack(">I", sess)
                    tag = 0x8001
                    if handles:                  # authorised: the empty password
                        body += pw
                        tag = 0x8002
                    rc, r = self.own(tpm2_cmd(tag, o, body + params))
                    if rc:
                        return "refused %x %x" % (o, rc)
                auth = struct.pack(">IIHBH", 9, sess, 0, 0, 0)
            rc, r = self.own(tpm2_cmd(0x8002, 0x15E, struct.pack(">I", item) + auth))
            if rc:
                return "refused 15e %x" % rc
            sess = None                                  # ended by Unseal
            n = struct.unpack_from(">H", r, HDR + 4)[0]
            return "key %s" % r[HDR + 6:HDR + 6 + n].hex()
        finally:
            for h in (item, sess):
                if h is not None:
                    self.own(tpm2_cmd(0x8001, 0x165, struct.pack(">I", h)))

    # --- one response ---------------------------------------------------
    def answer(self, ordinal):
        """A rule's answer=, when one is due for this command: not sent."""
        n = self.counts.get(ordinal, 0) + 1
        for r in self.rules:
            if not r.done and r.action == "answer" and r.ordinal == ordinal and r.at == n:
                r.done = True
                self.rules = [x for x in self.rules if not x.done]
                self.counts[ordinal] = n
                self.fired += 1
                self.tampered = self.cmd
                self.write("# tamper %d %08x %s (answered by the relay, not sent)" % (
                    self.seq, ordinal, r.text))
                self.say("answered command %d to %08x: %s" % (self.seq, ordinal, r.text))
                return bytes(apply_action(bytearray(HDR), "answer", r.arg))
        return None

    def tamper(self, ordinal, resp):
        n = self.counts.get(ordinal, 0) + 1
        self.counts[ordinal] = n
        out = bytearray(resp)
        what = []
        for r in self.rules:
            if not r.done and r.action != "answer" and r.ordinal == ordinal and r.at == n:
                out = apply_action(out, r.action, r.arg)
                r.done = True
                what.append(r.text)
        self.rules = [r for r in self.rules if not r.done]
        if self.fuzz and self.fuzz[1] > 0 and (not self.fuzz[2] or ordinal in self.fuzz[2]):
            out, desc = fuzz_one(self.fuzz[0], bytes(out))
            self.fuzz[1] -= 1
            what.append("fuzz " + desc)
        if what:
            self.fired += len(what)
            self.tampered = self.cmd
            self.write("# tamper %d %08x %s" % (self.seq, ordinal, "; ".join(what)))
            self.write("# orig %d R %08x %s" % (self.seq, ordinal, resp.hex()))
            self.say("tampered response %d to %08x: %s" % (self.seq, ordinal, "; ".join(what)))
        return bytes(out)

    def transact(self, cmd, tpm):
        """Command CMD from QEMU; returns the response for QEMU."""
        with self.lock:
            self.seq += 1
            ordinal = struct.unpack_from(">I", cmd, 6)[0] if len(cmd) >= HDR else 0
            if ordinal == RELAY_CC:
                self.tpm = tpm
                tag = struct.unpack_from(">H", cmd, 0)[0]
                text = cmd[HDR:].decode("ascii", "replace")
                ans = self.control(text).encode()
                self.write("# control %r -> %r" % (text, ans.decode()))
                rtag = 0x8001 if tag in (0x8001, 0x8002) else 0x00C4
                return struct.pack(">HII", rtag, HDR + len(ans), 0) + ans
            self.record("C", ordinal, cmd)
            self.cmd = cmd
            ans = self.answer(ordinal)
            if ans is not None:
                self.record("R", ordinal, ans)
                return ans
            tpm.sendall(cmd)
            resp = read_msg(tpm)
            if resp is None:
                raise EOFError("swtpm closed the data channel")
            resp = self.tamper(ordinal, resp)
            self.record("R", ordinal, resp)
            return resp


def sniff(segment, ordinal):
    """The first TPM2B parameter of each successful TPM 2.0 response to
    ORDINAL in SEGMENT, hex, oldest first, space-separated ("none" without
    one): after the header, or after the parameterSize of a response with
    sessions (tag 0x8002)."""
    out = []
    for _, d, o, b in segment:
        if d != "R" or o != ordinal or len(b) < 12:
            continue
        tag, _, rc = struct.unpack_from(">HII", b, 0)
        if rc != 0:
            continue
        off = HDR + (4 if tag == 0x8002 else 0)
        if len(b) < off + 2:
            continue
        n = struct.unpack_from(">H", b, off)[0]
        if n and len(b) >= off + 2 + n:
            out.append(b[off + 2:off + 2 + n].hex())
    return " ".join(out) or "none"


def tpm2_cmd(tag, cc, body):
    return struct.pack(">HII", tag, HDR + len(body), cc) + body


# The policy commands replay runs again, and how many handles each names:
# PolicyPCR, PolicyCommandCode, PolicyAuthValue, PolicyAuthorize (its ticket
# is the TPM's, and good for anyone's session), PolicyNV (authHandle,
# nvIndex, the session).
POLICY_HANDLES = {0x17F: 1, 0x16C: 1, 0x16B: 1, 0x16A: 1, 0x149: 3}


def _params(cmd, nh=1):
    """The parameters of a TPM 2.0 command with NH handles."""
    off = HDR + 4 * nh
    if struct.unpack_from(">H", cmd, 0)[0] == 0x8002:
        off += 4 + struct.unpack_from(">I", cmd, off)[0]
    return cmd[off:]


def parse_replay(segment):
    """From SEGMENT: the last successful Load's (parent, inPrivate, inPublic),
    each TPM2B with its size, and the successful policy commands
    (POLICY_HANDLES) run after it in the last policy session started, as
    (ordinal, the handles before the session's, parameters); (None, [])
    without a Load."""
    xs = {}
    for seq, d, o, b in segment:
        xs.setdefault(seq, {})[d] = (o, b)
    load, policy = None, []
    for seq in sorted(xs):
        x = xs[seq]
        if "C" not in x or "R" not in x or len(x["R"][1]) < HDR or len(x["C"][1]) < HDR:
            continue
        o, c = x["C"]
        r = x["R"][1]
        if struct.unpack_from(">I", r, 6)[0] != 0:
            continue
        if o == 0x157:
            p = _params(c)
            n1 = struct.unpack_from(">H", p, 0)[0]
            n2 = struct.unpack_from(">H", p, 2 + n1)[0]
            load = (struct.unpack_from(">I", c, HDR)[0], p[:2 + n1], p[2 + n1:4 + n1 + n2])
            policy = []
        elif o == 0x176 and len(r) > HDR and r[HDR] == 0x03:
            policy = []                      # a new policy session: its own commands
        elif o in POLICY_HANDLES and load is not None:
            nh = POLICY_HANDLES[o]
            policy.append((o, c[HDR:HDR + 4 * (nh - 1)], _params(c, nh)))
    return load, policy


def parse_ords(text):
    return {int(o, 16) for o in text.replace(",", "+").split("+") if o}


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        c = s.recv(n - len(buf))
        if not c:
            return None
        buf += c
    return buf


def read_msg(s):
    """One TPM message (command or response) framed by its header."""
    hdr = recv_exact(s, HDR)
    if hdr is None:
        return None
    size = struct.unpack_from(">I", hdr, 2)[0]
    if size < HDR or size > MAX_MSG:
        # Not framed as a TPM message: pass what there is.
        return hdr
    rest = recv_exact(s, size - HDR)
    if rest is None:
        return None
    return hdr + rest


def data_loop(relay, qemu, tpm):
    try:
        while True:
            cmd = read_msg(qemu)
            if cmd is None:
                break
            qemu.sendall(relay.transact(cmd, tpm))
    except (OSError, EOFError) as e:
        relay.say("data channel: %s" % e)
    finally:
        relay.say("data channel closed")


def pump(src, dst, relay, name):
    """Control bytes SRC -> DST, unchanged (swtpm -> QEMU)."""
    try:
        while True:
            b = src.recv(4096)
            if not b:
                break
            dst.sendall(b)
    except OSError as e:
        relay.say("%s: %s" % (name, e))
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(args, relay):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        os.unlink(args.listen)
    except FileNotFoundError:
        pass
    srv.bind(args.listen)
    srv.listen(1)
    if args.ready:
        with open(args.ready, "w") as f:
            f.write("%d\n" % os.getpid())
    qctrl, _ = srv.accept()
    srv.close()
    sctrl = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sctrl.connect(args.swtpm)
    relay.say("QEMU connected; forwarding to %s" % args.swtpm)
    back = threading.Thread(target=pump, args=(sctrl, qctrl, relay, "swtpm ctrl"), daemon=True)
    back.start()
    data = []
    try:
        while True:
            msg, fds, _, _ = socket.recv_fds(qctrl, 8192, 4)
            if not msg:
                break
            if fds:
                # CMD_SET_DATAFD: QEMU's end stays here, swtpm gets ours.
                for extra in fds[1:]:
                    os.close(extra)
                qdata = socket.socket(fileno=fds[0])
                mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
                socket.send_fds(sctrl, [msg], [theirs.fileno()])
                theirs.close()
                relay.say("data channel set (ctrl command %s)" % msg[:4].hex())
                t = threading.Thread(target=data_loop, args=(relay, qdata, mine), daemon=True)
                t.start()
                data.append(t)
            else:
                relay.say("ctrl command %s (%d bytes), last data seq %d" % (msg[:4].hex(), len(msg), relay.seq))
                sctrl.sendall(msg)
    except OSError as e:
        relay.say("QEMU ctrl: %s" % e)
    relay.say("QEMU disconnected")
    for s in (qctrl, sctrl):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()
    back.join(5)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--listen", required=True, help="socket QEMU connects to")
    ap.add_argument("--swtpm", required=True, help="swtpm's control socket")
    ap.add_argument("--record", required=True, help="recording file (appended)")
    ap.add_argument("--mode", default="record")
    ap.add_argument("--log", help="log file (default stderr)")
    ap.add_argument("--ready", help="file written (our pid) once listening")
    args = ap.parse_args()
    log = open(args.log, "a") if args.log else sys.stderr
    relay = Relay(args.record, log)
    try:
        relay.set_mode(args.mode)
    except ValueError as e:
        print("relay.py: %s" % e, file=sys.stderr)
        return 2
    relay.write("# relay mode=%s" % args.mode)
    serve(args, relay)
    relay.write("# end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
