#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host self-test of relay.py and detect.py without QEMU: a swtpm (TPM 2.0)
behind the relay, driven the way QEMU's tpm-emulator backend drives it
(control channel, CMD_SET_DATAFD with a socketpair end, CMD_INIT), then
TPM commands, the guest's control command, tampering and the detector.

usage: relay_test.py   (prints KTAP; exit 0 = all passed)
"""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import detect  # noqa: E402
import relay  # noqa: E402

CMD_INIT, CMD_SET_DATAFD = 2, 16
results = []


def check(desc, cond, diag=""):
    results.append((bool(cond), desc, diag))


def tpm2(cc, body=b"", tag=0x8001):
    return struct.pack(">HII", tag, 10 + len(body), cc) + body


def xfer(sock, cmd):
    sock.sendall(cmd)
    return relay.read_msg(sock)


def wait_for(path):
    for _ in range(100):
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def unit_tests():
    r = bytearray(struct.pack(">HII", 0x8001, 20, 0) + bytes(range(10)))
    out = relay.apply_action(bytearray(r), "trunc", "12")
    check("trunc keeps a consistent size field", len(out) == 12 and out[2:6] == b"\0\0\0\x0c")
    out = relay.apply_action(bytearray(r), "rc", "80000000")
    check("rc sets the response code", out[6:10] == b"\x80\0\0\0")
    out = relay.apply_action(bytearray(r), "flip", "-1")
    check("flip -1 flips the last byte", out[-1] == 9 ^ 0xFF)
    out = relay.apply_action(bytearray(r), "byte", "11=aabbcc")
    check("byte=OFF=HEX of three bytes overwrites three, size kept",
          bytes(out[10:15]) == bytes.fromhex("00aabbcc04") and len(out) == 20)
    out = relay.apply_action(bytearray(r), "byte", "-1=aabb")
    check("byte= past the end is cut", out[-1] == 0xAA and len(out) == 20)
    out = relay.apply_action(bytearray(r), "grow", "3")
    check("grow appends and fixes the size", len(out) == 23 and out[5] == 23)
    msgs = detect.parse(["# mark a\n", "1 C 0000015e 8001aabbcc\n", "2 R 0000015e 00112233\n",
                         "# orig 2 R 0000015e 99887766\n"])
    check("detect: found in a message", detect.find(msgs, bytes.fromhex("bbcc")) == [(1, "C", 0x15E)])
    check("detect: orig lines are ignored", detect.find(msgs, bytes.fromhex("9988")) == [])
    dump = [" SWTPM_IO_Write: length 12\n", " 80 01 00 00 00 0C 00 00\n", " 00 00 de ad\n"]
    check("detect: a secret wrapped across dump lines",
          detect.find(detect.parse(dump), bytes.fromhex("00 00 de ad".replace(" ", ""))) != [])
    check("detect: unhex takes separators", detect.unhex("de:ad be\nef") == b"\xde\xad\xbe\xef")
    mut = [relay.fuzz_one(__import__("random").Random(7), bytes(r))[0] for _ in range(3)]
    mut2 = [relay.fuzz_one(__import__("random").Random(7), bytes(r))[0] for _ in range(3)]
    check("fuzz is deterministic for a seed", mut == mut2)
    check("fuzz keeps the size field consistent",
          all(struct.unpack_from(">I", m, 2)[0] == len(m) for m in mut))
    ok = struct.pack(">HII", 0x8001, 10, 0)               # PolicyPCR's, PolicyAuthorize's
    pw = struct.pack(">IIHBH", 9, 0x40000009, 0, 0, 0)
    priv, pub = b"\0\2ab", b"\0\3cde"
    nvb = b"\0\x08" + bytes(8) + b"\0\0\0\x03"
    seg = [(1, "C", 0x157, tpm2(0x157, struct.pack(">I", 0x81000001) + pw + priv + pub, 0x8002)),
           (1, "R", 0x157, ok),
           (2, "C", 0x176, tpm2(0x176, b"")),
           (2, "R", 0x176, struct.pack(">HII", 0x8001, 14, 0) + b"\3\0\0\0"),
           (3, "C", 0x17F, tpm2(0x17F, b"\3\0\0\0" + b"\0\0pcrs")),
           (3, "R", 0x17F, ok),
           (4, "C", 0x176, tpm2(0x176, b"")),
           (4, "R", 0x176, struct.pack(">HII", 0x8001, 14, 0) + b"\3\0\0\0"),
           (5, "C", 0x17F, tpm2(0x17F, b"\3\0\0\0" + b"\0\0pcrs")),
           (5, "R", 0x17F, ok),
           (6, "C", 0x16C, tpm2(0x16C, b"\3\0\0\0" + b"\0\0\1\x5e")),
           (6, "R", 0x16C, ok),
           (7, "C", 0x149, tpm2(0x149, struct.pack(">III", 0x01800111, 0x01800111, 0x03000000) +
                                pw + nvb, 0x8002)),
           (7, "R", 0x149, ok),
           (8, "C", 0x16A, tpm2(0x16A, b"\3\0\0\0" + b"ticket")),
           (8, "R", 0x16A, ok),
           (9, "C", 0x16A, tpm2(0x16A, b"\3\0\0\0" + b"refused")),
           (9, "R", 0x16A, struct.pack(">HII", 0x8001, 10, 0x99D))]
    load, policy = relay.parse_replay(seg)
    check("replay: the Load's parent, inPrivate and inPublic", load == (0x81000001, priv, pub), repr(load))
    check("replay: the last policy session's successful commands, PolicyNV's handles kept",
          policy == [(0x17F, b"", b"\0\0pcrs"), (0x16C, b"", b"\0\0\1\x5e"),
                     (0x149, struct.pack(">II", 0x01800111, 0x01800111), nvb),
                     (0x16A, b"", b"ticket")], repr(policy))


PW = struct.pack(">IIHBH", 9, 0x40000009, 0, 0, 0)     # empty password session


def tpm2b(b):
    return struct.pack(">H", len(b)) + b


def replay_test(mine, ctl):
    """A sealed object loaded by "the guest"; the relay replays the Load and
    gets the sealed bytes with its own Unseal."""
    srk = bytes.fromhex("0023000b00030472000000060080004300100003001000000000")
    r = xfer(mine, tpm2(0x131, struct.pack(">I", 0x40000001) + PW + bytes.fromhex("000400000000") +
                        tpm2b(srk) + bytes(6), 0x8002))
    check("CreatePrimary through the relay", r[6:10] == b"\0\0\0\0", r[:10].hex())
    parent = struct.unpack_from(">I", r, 10)[0]
    secret = b"relay-replay-secret-0123456789ab"
    tmpl = struct.pack(">HHIHHH", 0x0008, 0x000B, 0x452, 0, 0x0010, 0)
    r = xfer(mine, tpm2(0x153, struct.pack(">I", parent) + PW + tpm2b(tpm2b(b"") + tpm2b(secret)) +
                        tpm2b(tmpl) + bytes(6), 0x8002))
    check("Create of a sealed object", r[6:10] == b"\0\0\0\0", r[:10].hex())
    n1 = struct.unpack_from(">H", r, 14)[0]
    n2 = struct.unpack_from(">H", r, 16 + n1)[0]
    priv, pub = r[14:16 + n1], r[16 + n1:18 + n1 + n2]
    check("control replay without a Load: none", ctl("mark rp0") == "marked" and ctl("replay") == "none")
    ctl("mark rp")
    r = xfer(mine, tpm2(0x157, struct.pack(">I", parent) + PW + priv + pub, 0x8002))
    check("Load by the guest", r[6:10] == b"\0\0\0\0", r[:10].hex())
    xfer(mine, tpm2(0x165, r[10:14]))
    got = ctl("replay")
    check("control replay: its own Load and Unseal give the sealed bytes",
          got == "key " + secret.hex(), got)
    check("control replay LABEL: the same from the segment of a mark",
          ctl("mark rp2") == "marked" and ctl("replay rp") == "key " + secret.hex())
    r = xfer(mine, tpm2(0x17A, struct.pack(">III", 1, 0x80000000, 8)))
    check("replay leaves no transient object but the parent",
          r[6:10] == b"\0\0\0\0" and struct.unpack_from(">I", r, 15)[0] == 1, r.hex())
    xfer(mine, tpm2(0x165, struct.pack(">I", parent)))


def live_test(d):
    ctrl, lsock, rec = d + "/swtpm.sock", d + "/relay.sock", d + "/relay.rec"
    os.makedirs(d + "/state")
    sw = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + d + "/state",
                           "--ctrl", "type=unixio,path=" + ctrl, "--flags", "not-need-init",
                           "--log", "file=" + d + "/swtpm.log"])
    if not wait_for(ctrl):
        check("swtpm starts", False)
        sw.kill()
        return
    rl = subprocess.Popen([sys.executable, HERE + "/relay.py", "--listen", lsock, "--swtpm", ctrl,
                           "--record", rec, "--mode", "tamper:17b@2:rc=80000000",
                           "--log", d + "/relay.log", "--ready", d + "/ready"])
    check("relay starts", wait_for(d + "/ready"))
    q = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    q.connect(lsock)
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    socket.send_fds(q, [struct.pack(">I", CMD_SET_DATAFD)], [theirs.fileno()])
    theirs.close()
    res = q.recv(4)
    check("CMD_SET_DATAFD through the relay", res == b"\0\0\0\0", res.hex())
    q.sendall(struct.pack(">II", CMD_INIT, 0))
    res = q.recv(4)
    check("CMD_INIT through the relay", res == b"\0\0\0\0", res.hex())
    r = xfer(mine, tpm2(0x144, b"\0\0"))                     # TPM2_Startup(CLEAR)
    check("TPM2_Startup answered", r is not None and r[6:10] == b"\0\0\0\0", r.hex() if r else "")
    r1 = xfer(mine, tpm2(0x17B, b"\0\x10"))                  # GetRandom 16: untouched
    check("GetRandom 1 untouched", r1[6:10] == b"\0\0\0\0" and len(r1) == 28, r1.hex())
    r2 = xfer(mine, tpm2(0x17B, b"\0\x10"))                  # 2nd: rc from the mode
    check("GetRandom 2 tampered by the mode (rc 0x80000000)", r2[6:10] == b"\x80\0\0\0", r2.hex())
    ctl = lambda t: xfer(mine, tpm2(relay.RELAY_CC, t.encode()))[10:].decode()  # noqa: E731
    check("control ping", ctl("ping").startswith("pong tamper:"))
    check("control mark", ctl("mark s1") == "marked")
    r3 = xfer(mine, tpm2(0x17B, b"\0\x10"))
    secret = r3[12:28].hex()
    check("control scan finds a response's bytes", ctl("scan " + secret) == "hits 1")
    check("control count: commands of an ordinal since the mark",
          ctl("count 17b") == "count 1" and ctl("count 15e") == "count 0")
    check("control sniff: a plain GetRandom's bytes", ctl("sniff 17b") == "data " + secret)
    check("control sniff: none for an ordinal not answered", ctl("sniff 15e") == "data none")
    check("control mark s2", ctl("mark s2") == "marked")
    check("control scan LABEL: an earlier mark's segment",
          ctl("scan " + secret) == "hits 0" and ctl("scan %s s1" % secret) == "hits 1")
    check("control scan LABEL: an unknown mark", ctl("scan %s nosuch" % secret).startswith("error"))
    check("control sniff LABEL: in an earlier mark's segment",
          ctl("sniff 17b") == "data none" and ctl("sniff 17b s1") == "data " + secret)
    check("control arms a rule", ctl("tamper 17b:trunc=11") == "armed 1")
    r4 = xfer(mine, tpm2(0x17B, b"\0\x10"))
    check("armed rule truncates the next response", len(r4) == 11 and r4[5] == 11, r4.hex())
    check("control fuzz", ctl("fuzz 5 2 17b") == "armed 2")
    f = [xfer(mine, tpm2(0x17B, b"\0\x10")) for _ in range(3)]
    check("fuzz framing stays consistent", all(struct.unpack_from(">I", m, 2)[0] == len(m) for m in f))
    check("control tampered names the last tampered command",
          ctl("tampered") == "cmd " + tpm2(0x17B, b"\0\x10").hex())
    check("control disarm counts what fired", ctl("disarm") == "fired 4")
    check("after disarm, no tampered command", ctl("tampered") == "cmd none")
    check("control arms answer=", ctl("tamper 17b:answer=918") == "armed 1")
    r5 = xfer(mine, tpm2(0x17B, b"\0\x10"))
    check("answer= replies a bare header with the code, not the TPM's bytes",
          r5 == struct.pack(">HII", 0x8001, 10, 0x918), r5.hex())
    r6 = xfer(mine, tpm2(0x17B, b"\0\x10"))
    check("answer= fires once", r6[6:10] == b"\0\0\0\0" and len(r6) == 28, r6.hex())
    ctl("disarm")
    replay_test(mine, ctl)
    q.close()
    mine.close()
    try:
        rl.wait(10)
        check("the relay exits when QEMU goes", rl.returncode == 0, "exit %s" % rl.returncode)
    except subprocess.TimeoutExpired as e:
        check("the relay exits when QEMU goes", False, str(e))
        rl.kill()
    sw.terminate()
    sw.wait(10)
    with open(rec) as fh:
        msgs = detect.parse(fh, "s1")
    check("detect.py finds the marked segment's bytes", detect.find(msgs, bytes.fromhex(secret)) != [])
    rc = subprocess.call([sys.executable, HERE + "/detect.py", "-q", rec, secret])
    check("detect.py exits 1 on a leak", rc == 1)
    rc = subprocess.call([sys.executable, HERE + "/detect.py", "-q", rec, "00" * 31 + "42"])
    check("detect.py exits 0 when clean", rc == 0)


def main():
    unit_tests()
    with tempfile.TemporaryDirectory(prefix="tk-relay-test.") as d:
        live_test(d)
    print("KTAP version 1")
    print("1..%d" % len(results))
    for i, (ok, desc, diag) in enumerate(results, 1):
        if not ok and diag:
            print("# %s" % diag)
        print("%s %d %s" % ("ok" if ok else "not ok", i, desc))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
