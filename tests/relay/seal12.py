#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""TPM 1.2: seal known data under the SRK (swtpm over TCP), the way trusted.ko
seals (OSAP on the SRK, no PCRs), and print the blob (TPM_STORED_DATA) in hex.

usage: seal12.py --port P --data HEX [--data-auth HEX40] [--srk-auth HEX40]
       seal12.py --port P --savestate
Defaults: data auth and SRK auth are 20 zero bytes (the kernel's defaults).
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "qemu"))
import tpm  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--data")
    ap.add_argument("--data-auth", type=tpm.hexauth, default=tpm.ZERO)
    ap.add_argument("--srk-auth", type=tpm.hexauth, default=tpm.ZERO)
    ap.add_argument("--savestate", action="store_true")
    a = ap.parse_args()
    t = tpm.Tpm(a.port)
    try:
        if a.savestate:
            t.simple(tpm.ORD_SAVE_STATE, b"", "TPM_SaveState")
            return 0
        data = bytes.fromhex(a.data)
        sess = t.osap(tpm.ET_SRK, tpm.KH_SRK, a.srk_auth)
        params = sess.encauth(a.data_auth) + struct.pack(">I", 0) + \
            struct.pack(">I", len(data)) + data
        blob = t.authorized(tpm.ORD_SEAL, struct.pack(">I", tpm.KH_SRK), params,
                            [(sess, sess.secret)], "TPM_Seal")
        print(blob.hex())
    finally:
        t.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (tpm.TpmError, IOError, OSError, ValueError) as e:
        print("seal12.py: %s" % e, file=sys.stderr)
        sys.exit(1)
