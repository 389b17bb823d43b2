#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A TPM 2.0 sealed-data object as trusted.ko's "load" takes it: the TPMKey
ASN.1 form (OID 2.23.133.10.1.5, id-sealedkey) in DER, printed in hex.

usage: tpmkey.py PUB PRIV PARENT_HEX [--auth]
PUB/PRIV: tpm2_create -u/-r files (TPM2B_PUBLIC / TPM2B_PRIVATE, size-prefixed).
Without --auth emptyAuth is TRUE (as the kernel writes it for a key without
blobauth); with it the field is left out.
"""
import sys


def der(tag, body):
    n = len(body)
    if n < 0x80:
        ln = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big")
        ln = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + ln + body


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    pub = open(sys.argv[1], "rb").read()
    priv = open(sys.argv[2], "rb").read()
    parent = int(sys.argv[3], 16)
    body = der(0x06, bytes.fromhex("6781050a0105"))
    if "--auth" not in sys.argv[4:]:
        body += der(0xA0, der(0x01, b"\xff"))
    p = parent.to_bytes((parent.bit_length() + 8) // 8, "big")   # a leading 0 when the top bit is set
    body += der(0x02, p) + der(0x04, pub) + der(0x04, priv)
    print(der(0x30, body).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main())
