#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of tests/realsys/ovmf-vars.py (the MOK in OVMF's variable
store of tests/realsys/uefi.sh) on copies of Debian's OVMF variable stores
(/usr/share/OVMF/OVMF_VARS_4M.ms.fd, OVMF_VARS.ms.fd: package ovmf): each
skipped with the reason when it is not there. The file is read back here
with a walker of this test's own (EDK2's VariableFormat.h layout), not the
tool's parser: add-mok's MokList (name, GUID, attributes 0x3, state 0x3f,
its EFI_SIGNATURE_LIST holding the certificate), every other byte of the
file unchanged (the FV header, the store header's size fields, the other
variables, the areas after the store); a second add refused and the file
unchanged; --replace: the old copy deleted (0x3d), one live MokList; a
variable too big for the free space refused; files it does not understand
refused (a bad FV checksum, another store GUID, the code volume). KTAP on
stdout; exit 1 on a failure. Under a second."""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktap_points import point, report, skip

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "realsys", "ovmf-vars.py")
STORES = ["/usr/share/OVMF/OVMF_VARS_4M.ms.fd", "/usr/share/OVMF/OVMF_VARS.ms.fd"]
SHIM = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23")
X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")

def tool(*args):
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def walk(b):
    """The store's variables (offset, state, attrs, name, guid, data) and
    the end of the last; its bounds from the headers: this test's reading."""
    hlen = struct.unpack_from("<H", b, 48)[0]
    size = struct.unpack_from("<I", b, hlen + 16)[0]
    o, end, out = hlen + 28, hlen + size, []
    while o < end and struct.unpack_from("<H", b, o)[0] == 0x55AA:
        st, attrs = b[o + 2], struct.unpack_from("<I", b, o + 4)[0]
        ns, ds = struct.unpack_from("<II", b, o + 36)
        guid = uuid.UUID(bytes_le=bytes(b[o + 44:o + 60]))
        name = bytes(b[o + 60:o + 60 + ns - 2]).decode("utf-16-le")
        out.append((o, st, attrs, name, guid, bytes(b[o + 60 + ns:o + 60 + ns + ds])))
        o = (o + 60 + ns + ds + 3) & ~3
    return out, o, hlen, size


def fake_cert(n):
    """A DER SEQUENCE of n bytes of content: the tool checks only that."""
    return b"\x30\x82" + struct.pack(">H", n) + bytes((i * 7) & 0xff for i in range(n))


def esl(cert):
    return (X509.bytes_le + struct.pack("<III", 28 + 16 + len(cert), 0, 16 + len(cert))
            + SHIM.bytes_le + cert)


def one_store(src, tmp):
    base = os.path.basename(src)
    vars_fd = os.path.join(tmp, base)
    cert = os.path.join(tmp, "mok.der")
    c = fake_cert(811)
    with open(cert, "wb") as f:
        f.write(c)
    orig = read(src)
    shutil.copyfile(src, vars_fd)
    before, old_end, hlen, size = walk(orig)

    rc, _, err = tool("add-mok", vars_fd, cert)
    point(rc == 0, "%s: add-mok of a %d-byte certificate" % (base, len(c)), err)
    after = read(vars_fd)
    vs, new_end, hlen2, size2 = walk(after)
    new = [v for v in vs if v[3] == "MokList"]
    ok = (len(new) == 1 and new[0][0] == old_end and new[0][1] == 0x3f and new[0][2] == 0x3
          and new[0][4] == SHIM and new[0][5] == esl(c))
    point(ok, "%s: read back: MokList-%s, state 0x3f, attributes 0x3 (NV|BS), at the old "
          "end 0x%x, data one EFI_SIGNATURE_LIST (X.509) holding the certificate"
          % (base, SHIM, old_end), repr(new[:1])[:300])
    ok = (after[:hlen + 28] == orig[:hlen + 28] and hlen2 == hlen and size2 == size
          and len(after) == len(orig))
    point(ok, "%s: FV header and store header unchanged (HeaderLength %d, store Size 0x%x, "
          "file %d bytes)" % (base, hlen, size, len(orig)))
    ok = (after[:old_end] == orig[:old_end] and vs[:len(before)] == before
          and len(vs) == len(before) + 1)
    point(ok, "%s: the other %d variables unchanged, byte for byte" % (base, len(before)))
    ok = (set(after[new_end:hlen + size]) == {0xff}
          and after[hlen + size:] == orig[hlen + size:])
    point(ok, "%s: the free space after it 0xff, the areas after the store unchanged" % base)
    # the header's fields as VariableFormat.h has them: no time stamp, count, key
    o = old_end
    ok = after[o + 3] == 0 and after[o + 8:o + 36] == bytes(28) and \
        struct.unpack_from("<II", after, o + 36) == (16, len(esl(c)))
    point(ok, "%s: reserved, MonotonicCount, TimeStamp, PubKeyIndex zero; NameSize 16, "
          "DataSize %d" % (base, len(esl(c))))

    rc, out, _ = tool("get", vars_fd, "MokList", "--guid", str(SHIM))
    point(rc == 0 and out == esl(c), "%s: get MokList: the same data (the tool's reading)" % base)

    rc, _, err = tool("add-mok", vars_fd, cert)
    point(rc != 0 and "is there already" in err and read(vars_fd) == after,
          "%s: a second add-mok refused, the file unchanged" % base, err)

    c2 = fake_cert(500)
    with open(cert, "wb") as f:
        f.write(c2)
    rc, _, err = tool("add-mok", vars_fd, cert, "--replace")
    again = read(vars_fd)
    vs2, _, _, _ = walk(again)
    moks = [v for v in vs2 if v[3] == "MokList"]
    ok = (rc == 0 and len(moks) == 2 and moks[0][1] == 0x3d and moks[1][1] == 0x3f
          and moks[1][5] == esl(c2) and again[:old_end] == orig[:old_end]
          and again[old_end + 3:new_end] == after[old_end + 3:new_end])
    point(ok, "%s: --replace: the old MokList deleted (state 0x3d), the new one after it"
          % base, err)

    # a store with room for one more 0x2000-byte variable and not two
    big = os.path.join(tmp, "big")
    with open(big, "wb") as f:
        f.write(bytes(0x2000 - 60 - 10))
    full = bytearray(orig)
    room = hlen + size - old_end
    n = (room - 0x2000 - 100) // 0x2000
    o = old_end
    for i in range(n):
        full[o:o + 0x2000] = (struct.pack("<HBBI", 0x55AA, 0x3d, 0, 3) + bytes(28)
                              + struct.pack("<II", 4, 0x2000 - 64) + SHIM.bytes_le
                              + b"F\0\0\0" + bytes(0x2000 - 64))
        o += 0x2000
    with open(vars_fd, "wb") as f:
        f.write(full)
    rc1, _, err1 = tool("add", vars_fd, "Big1", "--guid", str(SHIM), "--attrs", "3",
                        "--data", big)
    once = read(vars_fd)
    rc, _, err = tool("add", vars_fd, "Big2", "--guid", str(SHIM), "--attrs", "3",
                      "--data", big)
    point(rc1 == 0 and rc != 0 and "full" in err and read(vars_fd) == once,
          "%s: a store with %d bytes free: a 0x2000-byte variable added, a second refused "
          "(store full), the file unchanged" % (base, hlen + size - o), err1 + err)
    with open(big, "wb") as f:
        f.write(bytes(0x8400))
    shutil.copyfile(src, vars_fd)
    rc, _, err = tool("add", vars_fd, "Big", "--guid", str(SHIM), "--attrs", "3",
                      "--data", big)
    point(rc != 0 and "PcdMaxVariableSize" in err and read(vars_fd) == orig,
          "%s: a variable larger than OVMF allows refused" % base, err)
    rc, _, err = tool("add", vars_fd, "Auth", "--guid", str(SHIM), "--attrs", "0x27",
                      "--data", cert)
    point(rc != 0 and read(vars_fd) == orig,
          "%s: time-based authenticated attributes (0x27) refused" % base, err)

    bad = bytearray(orig)
    bad[32] ^= 1                        # FvLength: the checksum no longer sums to 0
    refusal(vars_fd, bad, cert, "checksum", "%s: a bad FV header checksum refused" % base)
    bad = bytearray(orig)
    bad[hlen] ^= 0xff                   # the store's GUID
    refusal(vars_fd, bad, cert, "no authenticated variable store",
            "%s: another variable store GUID refused" % base)
    bad = bytearray(orig)
    bad[old_end + 8] = 0                # a stray byte in the free space
    refusal(vars_fd, bad, cert, "free space", "%s: free space not all 0xff refused" % base)
    bad = bytearray(orig)
    bad[before[0][0] + 2] = 0x12        # a state no writer leaves
    refusal(vars_fd, bad, cert, "state 0x12", "%s: a variable's unknown state refused" % base)


def refusal(vars_fd, image, cert, why, desc):
    with open(vars_fd, "wb") as f:
        f.write(image)
    rc, _, err = tool("add-mok", vars_fd, cert)
    point(rc != 0 and why in err and read(vars_fd) == image, desc, err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for src in STORES:
            if os.path.isfile(src):
                one_store(src, tmp)
            else:
                skip("%s: add-mok, read back" % os.path.basename(src),
                     "no %s (package ovmf)" % src)
        code = "/usr/share/OVMF/OVMF_CODE_4M.fd"
        if os.path.isfile(code):
            rc, _, err = tool("list", code)
            point(rc != 0 and "not a variable store" in err,
                  "OVMF_CODE_4M.fd (the code volume) refused", err)
        else:
            skip("the code volume refused", "no %s (package ovmf)" % code)
    return report()


if __name__ == "__main__":
    sys.exit(main())
