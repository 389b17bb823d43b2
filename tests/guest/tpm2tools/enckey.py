#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Host side of tpm2tools/: encrypted key blobs ("default MASTER 32 HEX", as
# keyctl pipe prints them) from the format alone (docs/encrypted.md):
#   enc key  = SHA-256("ENC_KEY\0"  || master, zero-padded to >= 32 bytes)
#   auth key = SHA-256("AUTH_KEY\0" || master, same length)
#   HEX      = iv || 0 || AES-256-CBC(enc key, iv, data) || HMAC-SHA256(auth
#              key, "default\0" MASTER "\0" datalen "\0" iv "\0" ciphertext)
# usage: enckey.py make MASTER-DESC MASTER-HEX    prints a new blob
#        enckey.py verify MASTER-HEX < BLOB        exit 0 when its HMAC holds
import hashlib, hmac, os, subprocess, sys


def derive(label, master):
    buf = label + b"\0" + master
    return hashlib.sha256(buf + b"\0" * (max(len(buf), 32) - len(buf))).digest()


def image(fmt, desc, datalen, body):
    return fmt.encode() + b"\0" + desc.encode() + b"\0" + datalen.encode() + b"\0" + body


def make(desc, master):
    iv, data = os.urandom(16), os.urandom(32)
    ct = subprocess.run(["openssl", "enc", "-aes-256-cbc", "-K", derive(b"ENC_KEY", master).hex(),
                         "-iv", iv.hex(), "-nopad"], input=data, capture_output=True, check=True).stdout
    body = iv + b"\0" + ct
    mac = hmac.new(derive(b"AUTH_KEY", master), image("default", desc, "32", body), hashlib.sha256).digest()
    return "default %s 32 %s" % (desc, (body + mac).hex())


def verify(blob, master):
    fmt, desc, datalen, hx = blob.split()
    raw = bytes.fromhex(hx)
    body, mac = raw[:-32], raw[-32:]
    want = hmac.new(derive(b"AUTH_KEY", master), image(fmt, desc, datalen, body), hashlib.sha256).digest()
    return hmac.compare_digest(mac, want)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        print(make(sys.argv[2], bytes.fromhex(sys.argv[3])))
    elif len(sys.argv) == 3 and sys.argv[1] == "verify":
        sys.exit(0 if verify(sys.stdin.read(), bytes.fromhex(sys.argv[2])) else 1)
    else:
        sys.exit("usage: enckey.py make MASTER-DESC MASTER-HEX | verify MASTER-HEX < BLOB")
