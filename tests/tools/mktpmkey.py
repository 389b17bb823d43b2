#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A TPMKey (the ASN.1 blob of a TPM 2.0 sealed key) whose public part is
a keyedhash object (SHA-256, fixedTPM|fixedParent, NULL scheme) under the
SRK at 0x81000001 with the given authPolicy, and an empty private part:
what signing tools and hooks read an approval's target from, made without
a TPM (tests/tools/sign-hooks.sh, tools/trusted-policy-test.sh,
tests/realsys/uefi.sh).

usage: mktpmkey.py AUTHPOLICY-HEX     (the TPMKey in hex, one line)
"""
import sys


def tlv(t, v):
    n = len(v)
    h = bytes([n]) if n < 0x80 else (b"\x81" + bytes([n]) if n < 0x100 else b"\x82" + n.to_bytes(2, "big"))
    return bytes([t]) + h + v


def tpmkey(auth):
    # TPMT_PUBLIC: keyedhash, sha256, fixedTPM|fixedParent, authPolicy,
    # NULL scheme, a zero unique
    body = bytes.fromhex("0008000b000000120020") + auth + bytes.fromhex("00100020") + bytes(32)
    pub = len(body).to_bytes(2, "big") + body
    f = tlv(6, bytes.fromhex("6781050a0105")) + tlv(0xa0, tlv(1, b"\xff")) + \
        tlv(2, bytes.fromhex("0081000001")) + tlv(4, pub) + tlv(4, bytes.fromhex("0004") + bytes(4))
    return tlv(0x30, f)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: mktpmkey.py AUTHPOLICY-HEX")
    auth = bytes.fromhex(sys.argv[1])
    if len(auth) != 32:
        sys.exit("mktpmkey.py: the authPolicy is 32 bytes (SHA-256)")
    print(tpmkey(auth).hex())


if __name__ == "__main__":
    main()
