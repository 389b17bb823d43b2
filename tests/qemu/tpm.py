#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Minimal TPM 1.2 client for provisioning a swtpm over its TCP server port.

Standard library only. Commands (TPM Main Part 3, v1.2 rev 116):
  freeport               print a port P such that P and P+1 are free on 127.0.0.1
  srk-zero   --port P    TPM_ChangeAuthOwner: SRK auth := 20 zero bytes
  srk-pub    --port P    TPM_SetCapability: readSRKPub := TRUE (TPM_GetPubKey of
                         the SRK, for the kernel's encrypted transport sessions)
  seal-test  --port P    TPM_Seal + TPM_Unseal under the SRK (proves the SRK auth)
  savestate  --port P    TPM_SaveState (before stopping swtpm)

Every authorized response is checked: return code and response HMAC.
"""
import argparse
import hashlib
import hmac
import os
import socket
import struct
import sys

WELL_KNOWN = hashlib.sha1(bytes(20)).digest()  # swtpm_setup --*-well-known
ZERO = bytes(20)

TAG_RQU_COMMAND = 0x00C1
TAG_RQU_AUTH1 = 0x00C2
TAG_RQU_AUTH2 = 0x00C3

ORD_OIAP = 0x0A
ORD_OSAP = 0x0B
ORD_CHANGE_AUTH_OWNER = 0x10
ORD_SEAL = 0x17
ORD_UNSEAL = 0x18
ORD_SAVE_STATE = 0x98
ORD_SET_CAPABILITY = 0x3F
ORD_GET_PUBKEY = 0x21
SET_PERM_FLAGS = 0x01
PF_READSRKPUB = 17

ET_KEYHANDLE = 0x0001
ET_OWNER = 0x0002
ET_SRK = 0x0004
PID_ADCP = 0x0004
KH_SRK = 0x40000000
KH_OWNER = 0x40000001

ERRORS = {
    0x01: "TPM_AUTHFAIL", 0x02: "TPM_BADINDEX", 0x03: "TPM_BAD_PARAMETER",
    0x06: "TPM_DEACTIVATED", 0x07: "TPM_DISABLED", 0x09: "TPM_FAIL",
    0x0C: "TPM_INVALID_KEYHANDLE", 0x12: "TPM_NOSRK", 0x19: "TPM_BAD_PARAM_SIZE",
    0x1C: "TPM_FAILEDSELFTEST", 0x1D: "TPM_AUTH2FAIL", 0x1E: "TPM_BADTAG",
    0x22: "TPM_INVALID_AUTHHANDLE", 0x26: "TPM_INVALID_POSTINIT", 0x803: "TPM_DEFEND_LOCK_RUNNING",
}


class TpmError(Exception):
    def __init__(self, what, rc):
        super().__init__("%s: TPM returned 0x%x (%s)" % (what, rc, ERRORS.get(rc, "?")))
        self.rc = rc


def sha1(*parts):
    return hashlib.sha1(b"".join(parts)).digest()


def hmac1(key, *parts):
    return hmac.new(key, b"".join(parts), hashlib.sha1).digest()


class Tpm:
    def __init__(self, port, host="127.0.0.1", timeout=30):
        self.sock = socket.create_connection((host, port), timeout=timeout)

    def close(self):
        self.sock.close()

    def _recv(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise IOError("swtpm closed the connection")
            buf += chunk
        return buf

    def transmit(self, tag, ordinal, body, what):
        """Send one command; return (rc, response body after the 10-byte header)."""
        cmd = struct.pack(">HII", tag, 10 + len(body), ordinal) + body
        self.sock.sendall(cmd)
        hdr = self._recv(10)
        _, size, rc = struct.unpack(">HII", hdr)
        if size < 10:
            raise IOError("%s: bad response size %d" % (what, size))
        return rc, self._recv(size - 10)

    def simple(self, ordinal, body, what):
        rc, out = self.transmit(TAG_RQU_COMMAND, ordinal, body, what)
        if rc:
            raise TpmError(what, rc)
        return out

    # Sessions ------------------------------------------------------------
    def oiap(self):
        out = self.simple(ORD_OIAP, b"", "TPM_OIAP")
        handle, = struct.unpack(">I", out[:4])
        return Session(handle, out[4:24], None)

    def osap(self, etype, evalue, auth):
        odd_osap = os.urandom(20)
        out = self.simple(ORD_OSAP, struct.pack(">HI", etype, evalue) + odd_osap, "TPM_OSAP")
        handle, = struct.unpack(">I", out[:4])
        even, even_osap = out[4:24], out[24:44]
        return Session(handle, even, hmac1(auth, even_osap, odd_osap))

    def authorized(self, ordinal, handles, params, sessions, what):
        """A command authorized by 1 or 2 sessions; each is (Session, key).
        Returns the response's output parameters after checking every resAuth."""
        digest = sha1(struct.pack(">I", ordinal), params)
        trailer = b""
        odds = []
        for sess, key in sessions:
            odd = os.urandom(20)
            odds.append(odd)
            cont = b"\x00"
            trailer += struct.pack(">I", sess.handle) + odd + cont + \
                hmac1(key, digest, sess.even, odd, cont)
        tag = TAG_RQU_AUTH1 if len(sessions) == 1 else TAG_RQU_AUTH2
        rc, out = self.transmit(tag, ordinal, handles + params + trailer, what)
        if rc:
            raise TpmError(what, rc)
        n = 41 * len(sessions)
        if len(out) < n:
            raise IOError("%s: truncated response" % what)
        outparams, auths = out[:len(out) - n], out[len(out) - n:]
        rdigest = sha1(struct.pack(">II", rc, ordinal), outparams)
        for i, (sess, key) in enumerate(sessions):
            a = auths[41 * i:41 * (i + 1)]
            even, cont, res = a[:20], a[20:21], a[21:41]
            if not hmac.compare_digest(res, hmac1(key, rdigest, even, odds[i], cont)):
                raise IOError("%s: response HMAC of session %d does not verify" % (what, i + 1))
        return outparams


class Session:
    def __init__(self, handle, even, secret):
        self.handle, self.even, self.secret = handle, even, secret

    def encauth(self, auth):
        """ADIP/ADCP encryption: auth XOR SHA1(sharedSecret || nonceEven)."""
        pad = sha1(self.secret, self.even)
        return bytes(a ^ b for a, b in zip(auth, pad))


def change_srk_auth(tpm, owner_auth, new_auth):
    sess = tpm.osap(ET_OWNER, KH_OWNER, owner_auth)
    params = struct.pack(">H", PID_ADCP) + sess.encauth(new_auth) + struct.pack(">H", ET_SRK)
    tpm.authorized(ORD_CHANGE_AUTH_OWNER, b"", params, [(sess, sess.secret)],
                   "TPM_ChangeAuthOwner(SRK)")


def srk_pub_readable(tpm, owner_auth, srk_auth):
    sess = tpm.oiap()
    params = struct.pack(">III", SET_PERM_FLAGS, 4, PF_READSRKPUB) + \
        struct.pack(">I", 1) + b"\x01"
    tpm.authorized(ORD_SET_CAPABILITY, b"", params, [(sess, owner_auth)],
                   "TPM_SetCapability(readSRKPub)")
    sess = tpm.oiap()
    out = tpm.authorized(ORD_GET_PUBKEY, struct.pack(">I", KH_SRK), b"",
                         [(sess, srk_auth)], "TPM_GetPubKey(SRK)")
    return len(out)


def seal_test(tpm, srk_auth):
    """Seal 32 random bytes to the SRK the way the kernel's trusted.ko does
    (OSAP on the SRK for TPM_Seal; two OIAP sessions for TPM_Unseal)."""
    data_auth = os.urandom(20)
    secret = os.urandom(32)
    sess = tpm.osap(ET_SRK, KH_SRK, srk_auth)
    params = sess.encauth(data_auth) + struct.pack(">I", 0) + struct.pack(">I", len(secret)) + secret
    blob = tpm.authorized(ORD_SEAL, struct.pack(">I", KH_SRK), params,
                          [(sess, sess.secret)], "TPM_Seal")
    s1, s2 = tpm.oiap(), tpm.oiap()
    out = tpm.authorized(ORD_UNSEAL, struct.pack(">I", KH_SRK), blob,
                         [(s1, srk_auth), (s2, data_auth)], "TPM_Unseal")
    n, = struct.unpack(">I", out[:4])
    if out[4:4 + n] != secret:
        raise IOError("TPM_Unseal returned different data")
    return len(blob)


def freeport():
    for _ in range(50):
        with socket.socket() as a:
            a.bind(("127.0.0.1", 0))
            port = a.getsockname()[1]
            if port >= 65535:
                continue
            with socket.socket() as b:
                try:
                    b.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
            return port
    raise IOError("no free pair of ports")


def hexauth(s):
    b = bytes.fromhex(s)
    if len(b) != 20:
        raise argparse.ArgumentTypeError("auth must be 40 hex digits")
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["freeport", "srk-zero", "srk-pub", "seal-test", "savestate"])
    ap.add_argument("--port", type=int)
    ap.add_argument("--owner-auth", type=hexauth, default=WELL_KNOWN)
    ap.add_argument("--srk-auth", type=hexauth, default=WELL_KNOWN,
                    help="current SRK auth (srk-zero) or the one to test (seal-test)")
    ap.add_argument("--new-auth", type=hexauth, default=ZERO)
    args = ap.parse_args()
    if args.cmd == "freeport":
        print(freeport())
        return 0
    if args.port is None:
        ap.error("--port is required")
    tpm = Tpm(args.port)
    try:
        if args.cmd == "srk-zero":
            change_srk_auth(tpm, args.owner_auth, args.new_auth)
            n = seal_test(tpm, args.new_auth)
            print("tpm.py: SRK auth changed to %s; seal/unseal with it ok (blob %d bytes)"
                  % (args.new_auth.hex(), n), file=sys.stderr)
        elif args.cmd == "srk-pub":
            n = srk_pub_readable(tpm, args.owner_auth, args.srk_auth)
            print("tpm.py: readSRKPub set; TPM_GetPubKey(SRK) ok (%d bytes)" % n,
                  file=sys.stderr)
        elif args.cmd == "seal-test":
            n = seal_test(tpm, args.srk_auth)
            print("tpm.py: seal/unseal with SRK auth %s ok (blob %d bytes)"
                  % (args.srk_auth.hex(), n), file=sys.stderr)
        elif args.cmd == "savestate":
            tpm.simple(ORD_SAVE_STATE, b"", "TPM_SaveState")
    finally:
        tpm.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (TpmError, IOError, OSError) as e:
        print("tpm.py: %s" % e, file=sys.stderr)
        sys.exit(1)
