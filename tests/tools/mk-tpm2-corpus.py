#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed corpora of fuzz_tk2_rsp and fuzz_tk2_key from a real TPM 2.0.

Starts a throw-away swtpm (TPM 2.0), sends the commands trusted.ko sends
(marshalled here independently of src/lib, from TPM 2.0 Part 3) and writes
each response as corpus/tk2_rsp/<command>, and the sealed object as
corpus/tk2_key/ (a TPMKey like the in-tree module writes, and the raw form).
Standard library only; needs swtpm.

usage: mk-tpm2-corpus.py [OUTDIR]     (default: tests/fuzz/corpus)
The host tests read corpus/tk2_rsp/ through a header the tests/host Makefile
makes of it (build/tk2_rsp.h).
"""
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

ST_NO_SESSIONS, ST_SESSIONS = 0x8001, 0x8002
RH_OWNER, RH_NULL, RS_PW = 0x40000001, 0x40000007, 0x40000009
ALG_SHA256, ALG_KEYEDHASH, ALG_NULL = 0x000B, 0x0008, 0x0010
ALG_ECC, ALG_AES, ALG_CFB = 0x0023, 0x0006, 0x0043


def u8(v): return struct.pack(">B", v)
def u16(v): return struct.pack(">H", v)
def u32(v): return struct.pack(">I", v)
def tpm2b(b): return u16(len(b)) + b


def pw_auth(secret=b""):
    area = u32(RS_PW) + tpm2b(b"") + u8(0) + tpm2b(secret)
    return u32(len(area)) + area


def cmd(tag, cc, body):
    return u16(tag) + u32(10 + len(body)) + u32(cc) + body


class Tpm:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))

    def send(self, data):
        for _ in range(20):
            rsp = self.send_once(data)
            if rc(rsp) not in (0x908, 0x90A, 0x922):   # YIELDED, TESTING, RETRY
                return rsp
            time.sleep(0.05)
        return rsp

    def send_once(self, data):
        self.s.sendall(data)
        hdr = b""
        while len(hdr) < 10:
            hdr += self.s.recv(10 - len(hdr))
        size = struct.unpack(">I", hdr[2:6])[0]
        rest = b""
        while len(rest) < size - 10:
            rest += self.s.recv(size - 10 - len(rest))
        return hdr + rest


def rc(rsp):
    return struct.unpack(">I", rsp[6:10])[0]


def srk_template():
    pub = (u16(ALG_ECC) + u16(ALG_SHA256) + u32(0x00030472) + tpm2b(b"") +
           u16(ALG_AES) + u16(128) + u16(ALG_CFB) + u16(ALG_NULL) +
           u16(0x0003) + u16(ALG_NULL) + tpm2b(b"") + tpm2b(b""))
    return tpm2b(pub)


def seal_template(policy=b""):
    attrs = 0 if policy else 0x40
    pub = (u16(ALG_KEYEDHASH) + u16(ALG_SHA256) + u32(attrs) + tpm2b(policy) +
           u16(ALG_NULL) + tpm2b(b""))
    return tpm2b(pub)


def pcr_sel(mask):
    return u32(1) + u16(ALG_SHA256) + u8(3) + bytes([mask & 0xff, (mask >> 8) & 0xff, mask >> 16])


def der_len(n):
    if n < 0x80:
        return bytes([n])
    if n < 0x100:
        return bytes([0x81, n])
    return bytes([0x82, n >> 8, n & 0xff])


def der(tag, val):
    return bytes([tag]) + der_len(len(val)) + val


def tpmkey(parent, pub, priv, bool_true=b"\x01"):
    """As the in-tree module writes it: emptyAuth TRUE encoded as 0x01."""
    oid = der(0x06, bytes([0x67, 0x81, 0x05, 0x0A, 0x01, 0x05]))
    empty = der(0xA0, der(0x01, bool_true))
    p = parent.to_bytes(4, "big")
    if p[0] & 0x80:
        p = b"\x00" + p
    return der(0x30, oid + empty + der(0x02, p) + der(0x04, pub) + der(0x04, priv))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "fuzz", "corpus")
    rdir, kdir = os.path.join(out, "tk2_rsp"), os.path.join(out, "tk2_key")
    os.makedirs(rdir, exist_ok=True)
    os.makedirs(kdir, exist_ok=True)
    state = tempfile.mkdtemp(prefix="tk-corpus-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sw = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + state,
                           "--server", "type=tcp,port=%d,bindaddr=127.0.0.1" % port,
                           "--ctrl", "type=tcp,port=%d,bindaddr=127.0.0.1" % (port + 1),
                           "--flags", "not-need-init,startup-clear"])
    try:
        for _ in range(50):
            try:
                tpm = Tpm(port)
                break
            except OSError:
                time.sleep(0.1)
        saved = {}

        def save(name, rsp, ok=True):
            if ok and rc(rsp):
                raise SystemExit("%s: TPM error 0x%x" % (name, rc(rsp)))
            with open(os.path.join(rdir, name), "wb") as f:
                f.write(rsp)
            saved[name] = rsp
            return rsp

        r = save("create-primary", tpm.send(cmd(ST_SESSIONS, 0x131, u32(RH_OWNER) + pw_auth() +
                 tpm2b(tpm2b(b"") + tpm2b(b"")) + srk_template() + tpm2b(b"") + u32(0))))
        primary = struct.unpack(">I", r[10:14])[0]
        save("read-public", tpm.send(cmd(ST_NO_SESSIONS, 0x173, u32(primary))))
        key = bytes(range(0x40, 0x60))
        r = save("create", tpm.send(cmd(ST_SESSIONS, 0x153, u32(primary) + pw_auth() +
                 tpm2b(tpm2b(b"") + tpm2b(key)) + seal_template() + tpm2b(b"") + u32(0))))
        off = 14
        priv = r[off:off + 2 + struct.unpack(">H", r[off:off + 2])[0]]
        off += len(priv)
        pub = r[off:off + 2 + struct.unpack(">H", r[off:off + 2])[0]]
        r = save("load", tpm.send(cmd(ST_SESSIONS, 0x157, u32(primary) + pw_auth() + priv + pub)))
        obj = struct.unpack(">I", r[10:14])[0]
        save("unseal", tpm.send(cmd(ST_SESSIONS, 0x15E, u32(obj) + pw_auth())))
        save("pcr-read-partial", tpm.send(cmd(ST_NO_SESSIONS, 0x17E, pcr_sel(0x3ff))))
        save("pcr-read-one", tpm.send(cmd(ST_NO_SESSIONS, 0x17E, pcr_sel(1 << 16))))
        r = save("start-session", tpm.send(cmd(ST_NO_SESSIONS, 0x176, u32(RH_NULL) + u32(RH_NULL) +
                 tpm2b(bytes(32)) + tpm2b(b"") + u8(1) + u16(ALG_NULL) + u16(ALG_SHA256))))
        sess = struct.unpack(">I", r[10:14])[0]
        save("policy-pcr", tpm.send(cmd(ST_NO_SESSIONS, 0x17F, u32(sess) + tpm2b(b"") +
             pcr_sel(1 << 16))))
        save("flush", tpm.send(cmd(ST_NO_SESSIONS, 0x165, u32(sess))))
        r = tpm.send(cmd(ST_NO_SESSIONS, 0x176, u32(RH_NULL) + u32(RH_NULL) + tpm2b(bytes(32)) +
                         tpm2b(b"") + u8(0) + u16(ALG_NULL) + u16(ALG_SHA256)))
        hmac = struct.unpack(">I", r[10:14])[0]
        r = save("context-save", tpm.send(cmd(ST_NO_SESSIONS, 0x162, u32(hmac))))
        save("context-load", tpm.send(cmd(ST_NO_SESSIONS, 0x161, r[10:])))
        tpm.send(cmd(ST_NO_SESSIONS, 0x165, u32(hmac)))
        save("error-handle", tpm.send(cmd(ST_SESSIONS, 0x157, u32(0x81000010) + pw_auth() +
             priv + pub)), ok=False)
        for h in (obj, primary):
            tpm.send(cmd(ST_NO_SESSIONS, 0x165, u32(h)))

        with open(os.path.join(kdir, "tpmkey-owner"), "wb") as f:
            f.write(tpmkey(RH_OWNER, pub, priv))
        with open(os.path.join(kdir, "tpmkey-srk-der-true"), "wb") as f:
            f.write(tpmkey(0x81000001, pub, priv, b"\xff"))
        with open(os.path.join(kdir, "raw"), "wb") as f:
            f.write(priv + pub)
        print("mk-tpm2-corpus: %d responses in %s, 3 blobs in %s" % (len(saved), rdir, kdir))
    finally:
        sw.terminate()
        sw.wait()
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    main()
