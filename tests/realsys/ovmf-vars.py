#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read an OVMF variable store file (OVMF_VARS*.fd) and add a
non-authenticated variable to it, before the machine's first boot: a MOK
in shim's MokList without MokManager at the console.

usage: ovmf-vars.py list VARS
       ovmf-vars.py get VARS NAME [--guid GUID]          (the data to stdout)
       ovmf-vars.py add VARS NAME --guid GUID --attrs N --data FILE [--replace]
       ovmf-vars.py add-mok VARS CERT [--replace]

The file is what EDK2's OVMF keeps its non-volatile variables in (layouts:
the PI specification's EFI_FIRMWARE_VOLUME_HEADER, EDK2's
MdeModulePkg/Include/Guid/VariableFormat.h):
  the firmware volume header: 16 zero bytes, the file system GUID
    EFI_SYSTEM_NV_DATA_FV_GUID, FvLength (u64), "_FVH", Attributes (u32),
    HeaderLength (u16), Checksum (u16: the header's 16-bit words sum to 0),
    ExtHeaderOffset (u16), a reserved byte, Revision (2), then the block
    map ((count, length) pairs, a (0, 0) pair last);
  at HeaderLength the variable store header (28 bytes): the GUID of the
    authenticated store (aaf32c78-947b-439a-a180-2e144ec37792), Size (u32,
    the store with this header, without the FV header), Format 0x5a
    (formatted), State 0xfe (healthy), 6 reserved bytes;
  the variables, each at a 4-byte boundary from the store's header:
    AUTHENTICATED_VARIABLE_HEADER (60 bytes): StartId 0x55aa, State,
    a reserved byte, Attributes (u32), MonotonicCount (u64), TimeStamp
    (EFI_TIME, 16 bytes), PubKeyIndex (u32), NameSize (u32, the UCS-2 name
    with its NUL), DataSize (u32), the vendor GUID; then the name, then
    the data (x86: no padding between them), then 0xff up to the next
    4-byte boundary;
  after the last variable the store's free space, all 0xff (what erased
  flash reads), to the store's end; after the store, the fault-tolerant
  write areas, which this tool leaves as they are.
A variable's State: 0x3f added; 0x3e added, in deletion; 0x3d or 0x3c
deleted; 0x7f header only (an interrupted write). OVMF's PEI phase checks
the same (PlatformValidateNvVarStore); the variable driver finds the end
of the variables at the first header whose StartId is not 0x55aa.

add appends a variable with State 0x3f and zero monotonic count, time
stamp and key index: a variable set without authentication (the
attributes must not ask for it: 0x10, 0x20 and 0x40 are refused). It
refuses a file it does not understand (any of the above not as described,
a variable running past the store, bytes after the last variable that are
not 0xff), a variable that would not fit in the free space or is larger than OVMF
allows one to be (PcdMaxVariableSize: 0x2000 bytes with the header in the
2 MiB build, 0x8400 in the 4 MiB one), and a name
and GUID that a live variable (0x3f, 0x3e) has already, unless --replace:
then that variable's State becomes 0x3d (deleted, as the variable driver
marks an old copy once the new one is written) and the new one is
appended. Nothing is written unless everything was understood; the file
is written in place (its size never changes).

add-mok: MokList, in shim's vendor GUID 605dab50-e046-4300-abb6-
3dd810dd8b23, attributes NV|BS (0x3: shim deletes a MokList that has the
runtime attribute, or lacks both NV and BS; it mirrors MokList into
MokListRT and its configuration table for the kernel), its data one
EFI_SIGNATURE_LIST of type EFI_CERT_X509_GUID (a5c059a1-94e4-4aa7-87b5-
ab155c2bf072): SignatureType, SignatureListSize, SignatureHeaderSize 0,
SignatureSize (16 + the certificate), then one EFI_SIGNATURE_DATA: the
owner GUID (shim's) and the DER certificate (CERT: DER, or PEM).
Exit 0 on success; 1 with a message on stderr when refused."""

import argparse
import base64
import struct
import sys
import uuid

FV_NV_GUID = uuid.UUID("fff12b8d-7696-4c8b-a985-2747075b4f50")
AUTH_STORE_GUID = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
PLAIN_STORE_GUID = uuid.UUID("ddcf3616-3275-4164-98b6-fe85707ffe7d")
SHIM_LOCK_GUID = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23")
CERT_X509_GUID = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")

FV_HDR = struct.Struct("<16s16sQ4sIHHHBB")          # 56 bytes, the block map after it
STORE_HDR = struct.Struct("<16sIBBHI")              # 28 bytes
VAR_HDR = struct.Struct("<HBBIQ16sIII16s")          # 60 bytes
VAR_DATA = 0x55aa
VAR_ADDED = 0x3f
VAR_IN_DELETED_TRANSITION = 0xfe
VAR_DELETED = 0xfd
VAR_HEADER_VALID_ONLY = 0x7f
LIVE = (VAR_ADDED, VAR_ADDED & VAR_IN_DELETED_TRANSITION)
STATES = (VAR_HEADER_VALID_ONLY, VAR_ADDED, VAR_ADDED & VAR_DELETED,
          VAR_ADDED & VAR_IN_DELETED_TRANSITION,
          VAR_ADDED & VAR_IN_DELETED_TRANSITION & VAR_DELETED)
ATTR_NV, ATTR_BS, ATTR_RT = 0x1, 0x2, 0x4
ATTR_AUTH = 0x10 | 0x20 | 0x40      # authenticated write, time-based, append


class Refused(Exception):
    pass


class Var:
    """One variable of the store: OFF its header's offset in the file."""

    def __init__(self, off, state, attrs, name, guid, data, end):
        self.off, self.state, self.attrs = off, state, attrs
        self.name, self.guid, self.data, self.end = name, guid, data, end

    @property
    def live(self):
        return self.state in LIVE


def align4(n):
    return (n + 3) & ~3


class Store:
    """The variable store of an OVMF_VARS file (bytes): the FV header's
    fields, the store's bounds (start: its header; vars: the first
    variable; limit: its end), the variables, free: the first free byte."""

    def __init__(self, image):
        self.image = bytearray(image)
        b = self.image
        if len(b) < FV_HDR.size + 8:
            raise Refused("too short for a firmware volume (%d bytes)" % len(b))
        (zero, fsguid, fvlen, sig, self.fv_attrs, hlen, _, exthdr, _, rev) = \
            FV_HDR.unpack_from(b, 0)
        if sig != b"_FVH" or any(zero):
            raise Refused("no firmware volume header (signature %r)" % sig)
        if uuid.UUID(bytes_le=fsguid) != FV_NV_GUID:
            raise Refused("the firmware volume is not a variable store (file system %s)"
                          % uuid.UUID(bytes_le=fsguid))
        if rev != 2 or hlen & 1 or hlen < FV_HDR.size + 8 or hlen > len(b):
            raise Refused("firmware volume header: revision %d, length %d" % (rev, hlen))
        if sum(struct.unpack_from("<%dH" % (hlen // 2), b, 0)) & 0xffff:
            raise Refused("firmware volume header: bad checksum")
        if exthdr:
            raise Refused("firmware volume with an extended header (offset %d)" % exthdr)
        if fvlen > len(b):
            raise Refused("FvLength %d is more than the file's %d bytes" % (fvlen, len(b)))
        self.fv_len, self.hdr_len = fvlen, hlen
        o, total = FV_HDR.size, 0
        while True:
            if o + 8 > hlen:
                raise Refused("firmware volume header: the block map has no end")
            n, ln = struct.unpack_from("<II", b, o)
            o += 8
            if n == 0 and ln == 0:
                break
            total += n * ln
        if o != hlen or total != fvlen:
            raise Refused("firmware volume header: block map (%d bytes) against FvLength %d"
                          % (total, fvlen))
        self.start = hlen
        sguid, size, fmt, state, _, _ = STORE_HDR.unpack_from(b, hlen)
        sguid = uuid.UUID(bytes_le=sguid)
        if sguid == PLAIN_STORE_GUID:
            raise Refused("a variable store without authenticated variables (%s)" % sguid)
        if sguid != AUTH_STORE_GUID:
            raise Refused("no authenticated variable store header (%s)" % sguid)
        if fmt != 0x5a or state != 0xfe:
            raise Refused("variable store: format 0x%02x, state 0x%02x (not formatted, healthy)"
                          % (fmt, state))
        if size < STORE_HDR.size or hlen + size > fvlen:
            raise Refused("variable store size %d does not fit the volume" % size)
        self.size = size
        # OVMF's PcdMaxVariableSize: 0x2000 in the 1 and 2 MiB builds (a
        # 0xe000-byte store), 0x8400 in the 4 MiB build (0x40000)
        self.max_var = 0x2000 if size <= 0xe000 else 0x8400
        self.vars_at = hlen + STORE_HDR.size
        self.limit = hlen + size
        self.vars = []
        o = self.vars_at
        while o + 2 <= self.limit:
            if struct.unpack_from("<H", b, o)[0] != VAR_DATA:
                break
            if o + VAR_HDR.size > self.limit:
                raise Refused("variable at 0x%x: its header runs past the store" % o)
            (_, st, _, attrs, _, _, _, ns, ds, vguid) = VAR_HDR.unpack_from(b, o)
            if st not in STATES:
                raise Refused("variable at 0x%x: state 0x%02x" % (o, st))
            end = o + VAR_HDR.size + ns + ds
            if end > self.limit:
                raise Refused("variable at 0x%x: name and data run past the store" % o)
            raw = bytes(b[o + VAR_HDR.size:o + VAR_HDR.size + ns])
            if st != VAR_HEADER_VALID_ONLY and (ns < 2 or ns & 1 or raw[-2:] != b"\0\0"):
                raise Refused("variable at 0x%x: a name of %d bytes without its NUL" % (o, ns))
            try:
                name = raw[:-2].decode("utf-16-le")
            except UnicodeDecodeError:
                name = raw.hex()
            nxt = min(align4(end - self.vars_at) + self.vars_at, self.limit)
            if any(x != 0xff for x in b[end:nxt]):
                raise Refused("variable at 0x%x: padding is not 0xff" % o)
            self.vars.append(Var(o, st, attrs, name, uuid.UUID(bytes_le=vguid),
                                 bytes(b[o + VAR_HDR.size + ns:end]), end))
            o = nxt
        self.free = min(o, self.limit)
        if any(x != 0xff for x in b[self.free:self.limit]):
            raise Refused("the store's free space (0x%x-0x%x) is not all 0xff"
                          % (self.free, self.limit))

    def find(self, name, guid=None):
        return [v for v in self.vars
                if v.live and v.name == name and (guid is None or v.guid == guid)]

    def add(self, name, guid, attrs, data, replace=False):
        if attrs & ATTR_AUTH:
            raise Refused("attributes 0x%x ask for authentication (0x%x): not this tool's"
                          % (attrs, attrs & ATTR_AUTH))
        if not attrs & ATTR_NV:
            raise Refused("attributes 0x%x: not non-volatile (0x1)" % attrs)
        if not name or "\0" in name:
            raise Refused("a variable name must not be empty or hold NUL")
        old = self.find(name, guid)
        if old and not replace:
            raise Refused("%s-%s is there already (at 0x%x; --replace replaces it)"
                          % (name, guid, old[0].off))
        raw = name.encode("utf-16-le") + b"\0\0"
        need = VAR_HDR.size + len(raw) + len(data)
        if need > self.max_var:
            raise Refused("%d bytes: more than OVMF's PcdMaxVariableSize (0x%x) for a store "
                          "of this size" % (need, self.max_var))
        if self.free + need > self.limit:
            raise Refused("the store is full: %d bytes needed, %d free"
                          % (need, self.limit - self.free))
        hdr = VAR_HDR.pack(VAR_DATA, VAR_ADDED, 0, attrs, 0, bytes(16), 0,
                           len(raw), len(data), guid.bytes_le)
        o = self.free
        self.image[o:o + need] = hdr + raw + data
        for v in old:
            self.image[v.off + 2] = v.state & VAR_DELETED
        return o


def esl_x509(cert, owner=SHIM_LOCK_GUID):
    """One EFI_SIGNATURE_LIST of EFI_CERT_X509_GUID holding CERT (DER)."""
    sig_size = 16 + len(cert)
    return (CERT_X509_GUID.bytes_le + struct.pack("<III", 28 + sig_size, 0, sig_size)
            + owner.bytes_le + cert)


def der_cert(raw):
    """CERT's DER: raw as it is when DER, the first CERTIFICATE of PEM.
    Checks that it is one DER SEQUENCE of its whole length."""
    if raw.lstrip().startswith(b"-----BEGIN"):
        text = raw.decode("ascii", "replace")
        try:
            body = text.split("-----BEGIN CERTIFICATE-----", 1)[1].split("-----END", 1)[0]
            raw = base64.b64decode("".join(body.split()), validate=True)
        except (IndexError, ValueError):
            raise Refused("PEM without a CERTIFICATE")
    if len(raw) < 4 or raw[0] != 0x30:
        raise Refused("not a DER certificate (no SEQUENCE)")
    n = raw[1]
    if n < 0x80:
        hl = 2
    elif 0x81 <= n <= 0x84:
        k = n & 0x7f
        hl = 2 + k
        n = int.from_bytes(raw[2:2 + k], "big")
    else:
        raise Refused("not a DER certificate (length byte 0x%02x)" % n)
    if hl + n != len(raw):
        raise Refused("not one DER certificate: a SEQUENCE of %d bytes in %d" % (hl + n, len(raw)))
    return raw


def load(path):
    with open(path, "rb") as f:
        return Store(f.read())


def save(path, store):
    with open(path, "r+b") as f:
        f.write(store.image)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("list", help="the store's variables")
    p.add_argument("vars")
    p = sub.add_parser("get", help="a live variable's data to stdout")
    p.add_argument("vars")
    p.add_argument("name")
    p.add_argument("--guid", type=uuid.UUID)
    p = sub.add_parser("add", help="add a non-authenticated variable")
    p.add_argument("vars")
    p.add_argument("name")
    p.add_argument("--guid", type=uuid.UUID, required=True)
    p.add_argument("--attrs", type=lambda s: int(s, 0), required=True)
    p.add_argument("--data", required=True, help="a file of the variable's data")
    p.add_argument("--replace", action="store_true")
    p = sub.add_parser("add-mok", help="MokList holding one certificate")
    p.add_argument("vars")
    p.add_argument("cert", help="DER or PEM")
    p.add_argument("--replace", action="store_true")
    a = ap.parse_args(argv)
    try:
        st = load(a.vars)
        if a.cmd == "list":
            print("# %s: store 0x%x-0x%x (%d bytes), %d used, %d free"
                  % (a.vars, st.start, st.limit, st.size, st.free - st.start,
                     st.limit - st.free))
            for v in st.vars:
                print("0x%06x %02x %08x %-36s %6d %s" % (v.off, v.state, v.attrs, v.guid,
                                                         len(v.data), v.name))
            return 0
        if a.cmd == "get":
            found = st.find(a.name, a.guid)
            if len(found) != 1:
                raise Refused("%d live variables %s%s" % (len(found), a.name,
                              "-%s" % a.guid if a.guid else ""))
            sys.stdout.buffer.write(found[0].data)
            return 0
        if a.cmd == "add":
            with open(a.data, "rb") as f:
                data = f.read()
            name, guid, attrs = a.name, a.guid, a.attrs
        else:
            with open(a.cert, "rb") as f:
                data = esl_x509(der_cert(f.read()))
            name, guid, attrs = "MokList", SHIM_LOCK_GUID, ATTR_NV | ATTR_BS
        off = st.add(name, guid, attrs, data, a.replace)
        save(a.vars, st)
        print("%s: %s-%s (attributes 0x%x, %d bytes) at 0x%x; %d bytes free"
              % (a.vars, name, guid, attrs, len(data), off, st.limit - off
                 - VAR_HDR.size - 2 * len(name) - 2 - len(data)), file=sys.stderr)
        return 0
    except Refused as e:
        print("ovmf-vars.py: %s: refused: %s" % (a.vars, e), file=sys.stderr)
        return 1
    except OSError as e:
        print("ovmf-vars.py: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
