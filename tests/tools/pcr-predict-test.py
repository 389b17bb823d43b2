#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of tools/tk-pcr-predict against event logs that OVMF (Secure
Boot, Microsoft's keys), Debian's signed shim and GRUB and swtpm produced
(tests/realsys/uefi.sh's boots), stored in tests/tools/pcr-predict/NAME/:
  eventlog.bin   /sys/kernel/security/tpm0/binary_bios_measurements
  pcrs.sysfs     the PCRs read in the same boot (/sys/class/tpm/tpm0/pcr-sha256/N)
  pcrs.tpm2      tpm2_pcrread sha256:0-15, the same boot
  manifest.json  the digests of the files the prediction of that boot read
                 (tk-pcr-predict predict --record-manifest): the ESP's shim,
                 GRUB (with its embedded configuration), the grub.cfg files,
                 the kernel and the initrd
  next/          (when there) the next boot's log and PCRs, and the manifest
                 of its files, which the first boot's log predicts (a newer
                 kernel; bookworm-grubenv: /boot/grub/grubenv added, which
                 GRUB's "[ -s ]" and load_env read and measure)
Menu entries (predict --entry, list_entries): "Advanced options" > the
older kernel predicted from the first boot's log and files, against the
next boot's log rebuilt for that entry; update-grub's layout with recovery
entries; the refusals of paths GRUB would not boot as asked.
KTAP on stdout; exit 1 on a failure. Fast: no boot, no TPM."""

import copy
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktap_points import point, report

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "tk-pcr-predict")
FIX = os.path.join(HERE, "pcr-predict")

loader = importlib.machinery.SourceFileLoader("tk_pcr_predict", TOOL)
spec = importlib.util.spec_from_loader("tk_pcr_predict", loader)
tp = importlib.util.module_from_spec(spec)
loader.exec_module(tp)

def read(path):
    with open(path, "rb") as f:
        return f.read()


def pcrs_read(d):
    return tp.read_pcr_file(os.path.join(d, "pcrs.sysfs"), False)


def predict(log, manifest, wanted):
    files = tp.Files({}, manifest.get("uuids", {}), manifest["files"])
    return tp.Prediction(tp.parse_log(log), files, wanted, "hd0,gpt1").run()


def refusal(log, manifest, wanted):
    try:
        predict(log, manifest, wanted)
    except tp.Refusal as r:
        return str(r)
    return None


def fixture(name):
    d = os.path.join(FIX, name)
    log = read(os.path.join(d, "eventlog.bin"))
    man = json.loads(read(os.path.join(d, "manifest.json")))
    ref = pcrs_read(d)
    events = tp.parse_log(log)
    point(len(events) > 50 and events[0].data.startswith(b"Spec ID Event03"),
          "%s: the log parses: %d events, crypto-agile" % (name, len(events)))
    pcrs = tp.replay(events)
    bad = [n for n in list(range(10)) + [14] if pcrs[n] != ref[n]]
    point(not bad, "%s: the replay equals the PCRs read (sysfs), PCRs 0-9, 14" % name,
          "differ: %s" % bad)
    ref2 = tp.read_pcr_file(os.path.join(d, "pcrs.tpm2"), True)
    bad = [n for n in list(range(10)) + [14] if pcrs[n] != ref2.get(n)]
    point(not bad, "%s: the replay equals tpm2_pcrread's PCRs" % name, "differ: %s" % bad)
    # each GRUB string event: SHA-256 of the text after "PREFIX: "
    bad = []
    for e in events[1:]:
        if e.pcr == 8:
            t = e.data.rstrip(b"\0")
            pre, _, rest = t.partition(b": ")
            if hashlib.sha256(rest).digest() != e.digests[tp.SHA256]:
                bad.append(e.num)
    point(not bad, "%s: GRUB's PCR 8 events: SHA-256 of the string after its prefix" % name,
          "differ: %s" % bad)

    wanted = [4, 7, 8, 9]
    try:
        v = predict(log, man, wanted)
        bad = [n for n in wanted if v[n] != ref[n]]
        point(not bad, "%s: this boot's PCRs 4, 7, 8, 9 predicted from its files" % name,
              "differ: %s" % bad)
    except tp.Refusal as r:
        point(False, "%s: this boot's PCRs 4, 7, 8, 9 predicted from its files" % name,
              "refused: %s" % r)
    return log, man, ref, events


def key_of(man, suffix):
    for k in man["files"]:
        if k.endswith(suffix):
            return k
    raise KeyError(suffix)


def refusals(name, log, man, ref, events):
    wanted = [4, 7, 8, 9]
    kern = [k for k in man["files"] if "/boot/vmlinuz-" in k][0]
    cfg = key_of(man, "/boot/grub/grub.cfg")

    # a kernel signed under another certificate: PCR 7's shim authority
    m = copy.deepcopy(man)
    m["files"][kern]["certs"] = "00" * 64
    r = refusal(log, m, wanted)
    point(r and "PCR 7" in r and "not signed under this certificate" in r,
          "%s: a kernel not signed under shim's certificate: PCR 7 refused" % name, r or "")
    # ...but without PCR 7, predicted (its PCRs 4 and 9 do not change: same digests)
    try:
        v = predict(log, m, [4, 8, 9])
        point(all(v[n] == ref[n] for n in (4, 8, 9)),
              "%s: the same kernel without PCR 7: 4, 8, 9 predicted" % name)
    except tp.Refusal as e:
        point(False, "%s: the same kernel without PCR 7" % name, str(e))

    # a new kernel: PCRs 4 and 9 change, 7 and 8 do not
    m = copy.deepcopy(man)
    m["files"][kern]["authenticode"] = hashlib.sha256(b"new kernel pe").hexdigest()
    m["files"][kern]["sha256"] = hashlib.sha256(b"new kernel file").hexdigest()
    v = predict(log, m, wanted)
    point(v[4] != ref[4] and v[9] != ref[9] and v[7] == ref[7] and v[8] == ref[8],
          "%s: another kernel at the same path: PCRs 4 and 9 change, 7 and 8 do not" % name)

    # a command line edited in grub.cfg: PCRs 8 and 9 change, and the new
    # kernel_cmdline event's digest is the new line's
    m = copy.deepcopy(man)
    text = m["files"][cfg]["text"].replace(" ro ", " ro quiet ")
    m["files"][cfg]["text"] = text
    m["files"][cfg]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    files = tp.Files({}, m.get("uuids", {}), m["files"])
    pr = tp.Prediction(tp.parse_log(log), files, wanted, "hd0,gpt1")
    v = pr.run()
    lines = [w for _, w in pr.out[8] if w.startswith("kernel_cmdline: ")]
    point(v[8] != ref[8] and v[9] != ref[9] and v[4] == ref[4] and v[7] == ref[7] and
          len(lines) == 1 and " ro quiet " in lines[0],
          "%s: grub.cfg's command line edited: PCRs 8 and 9 change, 4 and 7 do not" % name)

    # a grub.cfg this tool does not read: refused, naming the line
    m = copy.deepcopy(man)
    text = m["files"][cfg]["text"].replace("set timeout=0", "set timeout=0\nwhile true; do echo; done")
    m["files"][cfg]["text"] = text
    r = refusal(log, m, wanted)
    point(r and "grub.cfg" in r and "while" in r,
          "%s: a grub.cfg with a loop: refused, naming it" % name, r or "")
    m = copy.deepcopy(man)
    text = m["files"][cfg]["text"].replace("set timeout=0", "set timeout=0\nfrobnicate now")
    m["files"][cfg]["text"] = text
    r = refusal(log, m, wanted)
    point(r and "frobnicate" in r, "%s: an unknown GRUB command: refused, naming it" % name, r or "")

    # a grubenv with a line this tool does not read (an escape): refused
    m = copy.deepcopy(man)
    text = "# GRUB Environment Block\nsaved_entry=a\\\\b\n"
    text += "#" * (1024 - len(text))
    m["files"][key_of(m, "/boot/grub/grubenv")] = {
        "kind": "file", "size": 1024, "text": text,
        "sha256": hashlib.sha256(text.encode()).hexdigest()}
    r = refusal(log, m, wanted)
    point(r and "grubenv" in r and "does not read" in r,
          "%s: a grubenv line with an escape: refused" % name, r or "")

    # a new shim: SbatLevel in PCR 7 refused; PCR 4 predicted
    m = copy.deepcopy(man)
    shim = key_of(m, "/EFI/BOOT/BOOTX64.EFI")
    m["files"][shim]["authenticode"] = hashlib.sha256(b"new shim").hexdigest()
    r = refusal(log, m, wanted)
    point(r and "PCR 7" in r and "SbatLevel" in r, "%s: a new shim: SbatLevel refused" % name, r or "")
    v = predict(log, m, [4, 8, 9])
    point(v[4] != ref[4] and v[8] == ref[8], "%s: a new shim: PCR 4 predicted, changed" % name)

    # an event this tool does not know, in a PCR asked for: refused by name
    ev = struct.pack("<III", 9, 0x6, 1) + struct.pack("<H", tp.SHA256) + bytes(32)
    desc = b"Linux frobnicator\0"
    data = struct.pack("<II", 0x8F3B22ED, len(desc)) + desc
    bad = log + ev + struct.pack("<I", len(data)) + data
    r = refusal(bad, man, wanted)
    point(r and "PCR 9 event %d" % len(events) in r and "EV_EVENT_TAG" in r and
          "frobnicator" in r,
          "%s: an unknown event in PCR 9: refused, naming it" % name, r or "")
    r = refusal(bad, man, [4, 7, 8])
    point(r is None, "%s: ...and not when PCR 9 is not asked for" % name, r or "")
    # a PCR the tool does not predict
    r = refusal(log, man, [4, 11])
    point(r and "PCR 11" in r, "%s: PCR 11: refused" % name, r or "")
    # a truncated log
    try:
        tp.parse_log(log[:len(log) - 7])
        point(False, "%s: a truncated log: refused" % name)
    except tp.LogError as e:
        point(True, "%s: a truncated log: refused (%s)" % (name, e))


def next_boot(name, log, man):
    d = os.path.join(FIX, name, "next")
    if not os.path.isdir(d):
        return
    nman = json.loads(read(os.path.join(d, "manifest.json")))
    ref = pcrs_read(d)
    nlog = read(os.path.join(d, "eventlog.bin"))
    wanted = [4, 7, 8, 9]
    try:
        v = predict(log, nman, wanted)
        bad = [n for n in wanted if v[n] != ref[n]]
        point(not bad, "%s: the next boot's PCRs 4, 7, 8, 9 predicted from this boot's log" % name,
              "differ: %s" % bad)
    except tp.Refusal as r:
        point(False, "%s: the next boot's PCRs predicted" % name, "refused: %s" % r)
    pcrs = tp.replay(tp.parse_log(nlog))
    point(all(pcrs[n] == ref[n] for n in wanted), "%s: the next boot's log replays to its PCRs" % name)


def efivars(name, log, man, ref):
    """--efivars: Secure Boot's variables now, as this boot measured them
    (their 4 attribute bytes, then the data), or changed (a dbx update)."""
    import tempfile
    events = tp.parse_log(log)
    with tempfile.TemporaryDirectory() as d:
        for e in events[1:]:
            if e.etype == 0x80000001:
                vname, data = tp.var_name(e)
                guid = "%08x-%04x-%04x-%s-%s" % (struct.unpack_from("<IHH", e.data, 0) +
                                                 (e.data[8:10].hex(), e.data[10:16].hex()))
                with open(os.path.join(d, "%s-%s" % (vname, guid)), "wb") as f:
                    f.write(b"\x27\0\0\0" + data)
        files = tp.Files({}, man.get("uuids", {}), man["files"])
        try:
            v = tp.Prediction(events, files, [7], "hd0,gpt1", d).run()
            point(v[7] == ref[7], "%s: --efivars, the variables unchanged: PCR 7 predicted" % name)
        except tp.Refusal as r:
            point(False, "%s: --efivars, the variables unchanged" % name, str(r))
        dbx = [f for f in os.listdir(d) if f.startswith("dbx-")][0]
        with open(os.path.join(d, dbx), "ab") as f:
            f.write(b"\1" * 48)
        files = tp.Files({}, man.get("uuids", {}), man["files"])
        try:
            tp.Prediction(events, files, [7], "hd0,gpt1", d).run()
            point(False, "%s: --efivars, dbx updated: PCR 7 refused" % name)
        except tp.Refusal as r:
            point("dbx" in str(r) and "differs now" in str(r),
                  "%s: --efivars, dbx updated: PCR 7 refused" % name, str(r))


def merged(man, nman):
    """The next boot's manifest with the first boot's files added (its older
    kernel, which the next grub.cfg's "Advanced options" still boots)."""
    m = copy.deepcopy(nman)
    for k, v in man["files"].items():
        m["files"].setdefault(k, v)
    return m


def with_cfg(man, text):
    m = copy.deepcopy(man)
    k = key_of(m, "/boot/grub/grub.cfg")
    m["files"][k]["text"] = text
    m["files"][k]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    m["files"][k]["size"] = len(text.encode())
    return m


def run_entry(log, man, wanted, entry):
    files = tp.Files({}, man.get("uuids", {}), man["files"])
    pr = tp.Prediction(tp.parse_log(log), files, wanted, "hd0,gpt1", entry=entry)
    return pr.run(), pr


def entry_refusal(log, man, entry):
    try:
        run_entry(log, man, [4, 7, 8, 9], entry)
    except tp.Refusal as r:
        return str(r)
    return None


def listing(log, man):
    files = tp.Files({}, man.get("uuids", {}), man["files"])
    return tp.Prediction(tp.parse_log(log), files, [], "hd0,gpt1").list_entries()


NESTED = re.compile(r"\n\tmenuentry '([^']*)' ((?:--class \S+ )*)\$menuentry_id_option '([^']*)' "
                    r"\{(.*?\n\t)\}", re.S)


def old_kernel_entry(name):
    """The boot of "Advanced options" > the older kernel, predicted from the
    first boot's log, against the events of the next boot (its log: the
    new kernel by the default entry, from the same grub.cfg) rebuilt the
    way GRUB's source says a submenu's entry runs: the log's events up to
    the "submenu" command; "setparams" and the submenu's title; each nested
    menuentry command (its title, classes, --id, its block's raw text); the
    chosen entry's setparams; then the default entry's commands, files and
    kernel stub events for the older kernel."""
    d = os.path.join(FIX, name)
    nd = os.path.join(d, "next")
    if not os.path.isdir(nd):
        return
    man = json.loads(read(os.path.join(d, "manifest.json")))
    nman = json.loads(read(os.path.join(nd, "manifest.json")))
    text = nman["files"][key_of(nman, "/boot/grub/grub.cfg")]["text"]
    oldk = [k for k in man["files"] if "/boot/vmlinuz-" in k][0]
    newk = [k for k in nman["files"] if "/boot/vmlinuz-" in k][0]
    oldv, newv = oldk.split("/boot/vmlinuz-")[1], newk.split("/boot/vmlinuz-")[1]
    if oldv == newv or "submenu " not in text:
        return
    m = merged(man, nman)
    log = read(os.path.join(d, "eventlog.bin"))
    nev = tp.parse_log(read(os.path.join(nd, "eventlog.bin")))
    sub_title = re.search(r"\nsubmenu '([^']*)' \$menuentry_id_option '([^']*)'", text)
    nested = NESTED.findall(text)
    idx = [n for n, e in enumerate(nested) if e[0].endswith("Linux " + oldv)][0]
    title = nested[idx][0]

    def h(t):
        return hashlib.sha256(t.encode()).digest()

    exp = {4: [], 7: [], 8: [], 9: []}
    part = oldk[1:oldk.index(")")]
    entry = False	# the default entry's own events, from its setparams on
    for e in nev[1:]:
        if e.etype == tp.EV_NO_ACTION or e.pcr not in exp:
            continue
        t = e.data.rstrip(b"\0").decode("utf-8", "replace") if e.etype == tp.EV_IPL else ""
        if e.pcr == 8 and t.startswith("grub_cmd: setparams "):
            exp[8].append(h("setparams " + sub_title.group(1)))
            for nt, cls, nid, blk in nested:
                exp[8].append(h("menuentry %s %s--id %s {%s}" % (nt, cls, nid, blk)))
            exp[8].append(h("setparams " + title))
            entry = True
        elif e.pcr == 8:
            exp[8].append(h(t.partition(": ")[2].replace(newv, oldv)) if entry and newv in t
                          else e.digests[tp.SHA256])
        elif e.pcr == 9 and e.etype == tp.EV_IPL and newv in t:
            f = "(%s)%s" % (part, t.replace(newv, oldv))
            exp[9].append(bytes.fromhex(m["files"][f]["sha256"]))
        elif e.pcr == 9 and e.etype == 0x6:
            if b"LoadOptions" in e.data:
                cl = [x for x in nev if x.pcr == 8 and x.data.startswith(b"kernel_cmdline: ")]
                s2 = "BOOT_IMAGE=" + cl[-1].data.rstrip(b"\0").decode()[16:].replace(newv, oldv)
                exp[9].append(hashlib.sha256(s2.encode("utf-16-le")).digest())
            else:
                f = "(%s)/boot/initrd.img-%s" % (part, oldv)
                exp[9].append(bytes.fromhex(m["files"][f]["sha256"]))
        elif e.pcr == 4 and e.etype == tp.EV_EFI_BOOT_SERVICES_APPLICATION and \
                not tp.image_path(e.data):
            exp[4].append(bytes.fromhex(m["files"][oldk]["authenticode"]))
        else:
            exp[4 if e.pcr == 4 else e.pcr].append(e.digests[tp.SHA256])
    init = tp.initial_pcrs(nev)
    want = {}
    for n, digs in exp.items():
        v = init[n]
        for dg in digs:
            v = tp.extend(v, dg)
        want[n] = v
    path = "1>%d" % idx
    wanted = [4, 7, 8, 9]
    try:
        v, pr = run_entry(log, m, wanted, path)
        bad = [n for n in wanted if v[n] != want[n]]
        point(not bad, "%s: --entry %s (Advanced options > Linux %s): PCRs 4, 7, 8, 9 are the "
              "next boot's events rebuilt for that entry" % (name, path, oldv), "differ: %s" % bad)
        ref = pcrs_read(nd)
        point(v[7] == ref[7] and all(v[n] != ref[n] for n in (4, 8, 9)),
              "%s: ...PCR 7 the default entry's, PCRs 4, 8, 9 not" % name)
    except tp.Refusal as r:
        point(False, "%s: --entry %s predicted" % (name, path), "refused: %s" % r)
        return
    ids = "%s>%s" % (sub_title.group(2), nested[idx][2])
    titles = "%s>%s" % (sub_title.group(1), title)
    for spec in (ids, titles):
        try:
            v2, _ = run_entry(log, m, wanted, spec)
            point(v2 == v, "%s: --entry by %s: the same values" %
                  (name, "ids" if spec == ids else "titles"))
        except tp.Refusal as r:
            point(False, "%s: --entry %s" % (name, spec), "refused: %s" % r)
    got = [(x[0], x[1], x[2]) for x in listing(log, m)]
    point(got == [("0", ["Debian GNU/Linux"], "/boot/vmlinuz-" + newv),
                  ("1>0", [sub_title.group(1), nested[0][0]], "/boot/vmlinuz-" + nested[0][0].split()[-1]),
                  ("1>1", [sub_title.group(1), nested[1][0]], "/boot/vmlinuz-" + nested[1][0].split()[-1])],
          "%s: entries: the default, and both kernels in Advanced options" % name, repr(got))
    menus(name, log, m, text, oldv, newv)


def menus(name, log, m, text, oldv, newv):
    """A grub.cfg with what update-grub's 10_linux writes that appears
    in ours too: load_video, set root, the search hint branch, the xen test,
    recovery mode entries; a variable not exported; default as a path."""
    uuid = re.search(r"--set=root (\S+)", text).group(1)
    hdr = ("function load_video {\n  if [ x$feature_all_video_module = xy ]; then\n"
           "    insmod all_video\n  else\n    insmod efi_gop\n  fi\n}\n"
           "set note=top\nset shared=yes\nexport shared\n")
    body = ("\tload_video\n\tinsmod gzio\n\tif [ x$grub_platform = xxen ]; then insmod xzio; "
            "insmod lzopio; fi\n\tinsmod part_gpt\n\tinsmod ext2\n\tset root='hd0,gpt2'\n"
            "\tif [ x$feature_platform_search_hint = xy ]; then\n\t  search --no-floppy --fs-uuid "
            "--set=root --hint-bios=hd0,gpt2 --hint-efi=hd0,gpt2 --hint-baremetal=ahci0,gpt2  %s\n"
            "\telse\n\t  search --no-floppy --fs-uuid --set=root %s\n\tfi\n"
            "\techo\t\"note $note shared $shared\"\n"
            "\tlinux\t/boot/vmlinuz-%s root=UUID=%s ro %s\n\tinitrd\t/boot/initrd.img-%s\n")
    cls = "--class debian --class gnu-linux --class gnu --class os"

    def ent(indent, t, eid, v, args):
        b = body % (uuid, uuid, v, uuid, args, v)
        b = "".join(indent + ln + "\n" for ln in b.rstrip("\n").split("\n"))
        return "%smenuentry '%s' %s $menuentry_id_option '%s' {\n%s%s}\n" % (indent, t, cls, eid, b, indent)
    cfg = text[:text.index("menuentry ")].replace("terminal_output console\n",
                                                   "terminal_output console\n" + hdr)
    cfg += ent("", "Debian GNU/Linux", "gnulinux-simple-" + uuid, newv, "quiet")
    cfg += "submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'gnulinux-advanced-%s' {\n" % uuid
    for v in (newv, oldv):
        cfg += ent("\t", "Debian GNU/Linux, with Linux " + v, "gnulinux-%s-advanced-%s" % (v, uuid), v, "quiet")
        cfg += ent("\t", "Debian GNU/Linux, with Linux %s (recovery mode)" % v,
                   "gnulinux-%s-recovery-%s" % (v, uuid), v, "single")
    cfg += "}\n"
    mm = with_cfg(m, cfg)
    got = listing(log, mm)
    rows = [(x[0], x[1][-1], x[2], x[3].split()[-1], x[4]) for x in got]
    kd = {x[2]: x[5] for x in got}
    want = [("0", "Debian GNU/Linux", "/boot/vmlinuz-" + newv, "quiet", True),
            ("1>0", "Debian GNU/Linux, with Linux " + newv, "/boot/vmlinuz-" + newv, "quiet", False),
            ("1>1", "Debian GNU/Linux, with Linux %s (recovery mode)" % newv, "/boot/vmlinuz-" + newv,
             "single", False),
            ("1>2", "Debian GNU/Linux, with Linux " + oldv, "/boot/vmlinuz-" + oldv, "quiet", False),
            ("1>3", "Debian GNU/Linux, with Linux %s (recovery mode)" % oldv, "/boot/vmlinuz-" + oldv,
             "single", False)]
    point(rows == want, "%s: update-grub's layout with recovery entries: the five entries listed, "
          "the default marked, each predicted" % name, repr(rows))
    point(all(kd[k] == m["files"]["(hd0,gpt2)" + k]["sha256"] for k in kd),
          "%s: entries: each kernel file's SHA-256" % name, repr(kd))
    # the command's lines, which trusted-keys-sign reads: six tab-separated fields
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "log"), "wb") as f:
            f.write(log)
        with open(os.path.join(d, "m.json"), "w") as f:
            json.dump(mm, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = tp.main(["entries", "--log", os.path.join(d, "log"), "--manifest",
                          os.path.join(d, "m.json")])
    lines = [ln.split("\t") for ln in out.getvalue().splitlines()]
    point(rc == 0 and len(lines) == 5 and all(len(x) == 6 for x in lines) and
          lines[0][:4] == ["0", "default", "/boot/vmlinuz-" + newv, kd["/boot/vmlinuz-" + newv]] and
          lines[3][0] == "1>2" and lines[3][1] == "-" and lines[3][4].endswith(" ro quiet") and
          lines[3][5] == "Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux " + oldv,
          "%s: tk-pcr-predict entries: a line an entry, PATH, default, kernel, SHA-256, "
          "arguments, titles" % name, out.getvalue())
    try:
        _, pr = run_entry(log, mm, [8], "1>2")
        ech = [w for _, w in pr.out[8] if w.startswith("grub_cmd: echo note")]
        point(ech == ["grub_cmd: echo note  shared yes"],
              "%s: in a submenu's entry, a variable not exported is empty, an exported one set "
              "(GRUB's new context)" % name, repr(ech))
        _, pr0 = run_entry(log, mm, [8], None)
        ech = [w for _, w in pr0.out[8] if w.startswith("grub_cmd: echo note")]
        point(ech == ["grub_cmd: echo note top shared yes"],
              "%s: ...and in a top-level entry both are set" % name, repr(ech))
    except tp.Refusal as r:
        point(False, "%s: update-grub's layout predicted" % name, str(r))
    # GRUB skips a configuration file's lines that start with '#', also
    # inside a block: the measured menuentry commands do not change
    try:
        ref8, _ = run_entry(log, mm, [8], "1>2")
        c8, _ = run_entry(log, with_cfg(mm, cfg.replace("\tinsmod gzio\n", "\tinsmod gzio\n# x\n")),
                          [8], "1>2")
        point(c8 == ref8, "%s: a line starting with '#' inside the blocks: PCR 8 unchanged" % name)
    except tp.Refusal as r:
        point(False, "%s: a line starting with '#' inside the blocks" % name, str(r))
    for spec, why in (("1", "names a submenu"), ("2", "has 2 entries"), ("1>4", "has 4 entries"),
                      ("0>1", "is not a submenu"), ("nosuch", "not among"),
                      ("01", "strtoul"), ("1>0x1", "strtoul")):
        r = entry_refusal(log, mm, spec)
        point(r and why in r, "%s: --entry %s: refused (%s)" % (name, spec, why), r or "")
    r = entry_refusal(log, with_cfg(mm, cfg.replace("$menuentry_id_option 'gnulinux-%s-adv" % oldv,
                                                    "--users bob $menuentry_id_option 'gnulinux-%s-adv" % oldv)), "1>2")
    point(r and "--users" in r, "%s: a password-protected entry (--users): refused" % name, r or "")
    # GRUB's default as a path: the same entry's boot (with its own "set default=")
    try:
        for d, sub in (("1>2", "Linux " + oldv), ("1", "Linux %s'" % newv)):
            _, pr = run_entry(log, with_cfg(mm, cfg.replace('set default="0"', 'set default="%s"' % d)),
                              [4, 8], None)
            sp = [w for _, w in pr.out[8] if w.startswith("grub_cmd: setparams")]
            k = [w for _, w in pr.out[4] if "kernel" in w]
            exp_k = oldv if d == "1>2" else newv
            point(len(sp) == 2 and sp[0].endswith("Advanced options for Debian GNU/Linux") and
                  (sub.rstrip("'") in sp[1]) and all(exp_k in x for x in k) and k,
                  "%s: default=\"%s\": the submenu, then its %s entry" %
                  (name, d, "named" if ">" in d else "first"), repr(sp))
    except tp.Refusal as r:
        point(False, "%s: default as a path" % name, str(r))


def pe_props():
    """Authenticode: the checksum, the certificate table's directory entry
    and the table itself are outside the digest; the sections are in it."""
    sect = b"\x90" * 512
    hdrsize = 512
    pe_off = 0x40
    img = bytearray(hdrsize)
    img[0:2] = b"MZ"
    struct.pack_into("<I", img, 0x3c, pe_off)
    img[pe_off:pe_off + 4] = b"PE\0\0"
    coff = pe_off + 4
    struct.pack_into("<HHIIIHH", img, coff, 0x8664, 1, 0, 0, 0, 240, 0x22)
    opt = coff + 20
    struct.pack_into("<H", img, opt, 0x20b)
    struct.pack_into("<I", img, opt + 60, hdrsize)
    struct.pack_into("<I", img, opt + 108, 16)
    st = opt + 240
    img[st:st + 8] = b".text\0\0\0"
    struct.pack_into("<II", img, st + 16, len(sect), hdrsize)
    body = bytes(img) + sect
    base = tp.authenticode_sha256(body)
    signed = bytearray(body + b"SIGNATURE" * 8)
    struct.pack_into("<II", signed, opt + 112 + 32, len(body), 72)
    struct.pack_into("<I", signed, opt + 64, 0x12345678)
    point(tp.authenticode_sha256(bytes(signed)) == base,
          "Authenticode: the checksum, the certificate entry and table are left out")
    changed = bytearray(body)
    changed[hdrsize + 10] ^= 1
    point(tp.authenticode_sha256(bytes(changed)) != base, "Authenticode: a section's byte is in")


def grub_images():
    """The GRUB image's mods section: Debian 12's layout (embedded
    "normal (memdisk)/grub.cfg", the memdisk's script, the prefix), Debian
    13's (no configuration), and another (refused)."""
    script = b'if [ -z "$prefix" -o ! -e "$prefix" ]; then\n\tset prefix=x\nfi\n'

    def obj(typ, body):
        body += bytes(-len(body) % 8)
        return struct.pack("<II", typ, 8 + len(body)) + body

    def image(objs):
        mods = b"".join(objs)
        mods = struct.pack("<IIQQ", 0x676d696d, 0, 24, 24 + len(mods)) + mods
        pe_off = 0x40
        img = bytearray(0x200)
        img[0:2] = b"MZ"
        struct.pack_into("<I", img, 0x3c, pe_off)
        img[pe_off:pe_off + 4] = b"PE\0\0"
        struct.pack_into("<HH", img, pe_off + 4, 0x8664, 1)
        struct.pack_into("<H", img, pe_off + 4 + 16, 240)
        st = pe_off + 24 + 240
        img[st:st + 8] = b"mods\0\0\0\0"
        struct.pack_into("<II", img, st + 16, len(mods), 0x200)
        return bytes(img) + mods

    fat = b"\xeb<\x90mkfs.fat" + bytes(100) + script + bytes(64)
    g = tp.grub_image(image([obj(1, fat), obj(2, b"normal (memdisk)/grub.cfg\n"),
                             obj(3, b"/EFI/debian")]))
    point(g["config"] == script.decode() and g["prefix"] == "/EFI/debian",
          "GRUB image (2.06): the memdisk's script and the prefix from the mods section")
    g = tp.grub_image(image([obj(1, b"hsqs" + bytes(60)), obj(3, b"/EFI/debian")]))
    point(g["config"] is None and g["prefix"] == "/EFI/debian",
          "GRUB image (2.12): no embedded configuration, the prefix")
    try:
        tp.grub_image(image([obj(2, b"configfile (hd0,gpt1)/x.cfg"), obj(3, b"/EFI/debian")]))
        point(False, "GRUB image with another embedded configuration: refused")
    except ValueError as e:
        point("not Debian's" in str(e), "GRUB image with another embedded configuration: refused")


def main():
    names = sorted(n for n in os.listdir(FIX) if os.path.isdir(os.path.join(FIX, n)))
    for name in names:
        log, man, ref, events = fixture(name)
        refusals(name, log, man, ref, events)
        next_boot(name, log, man)
        efivars(name, log, man, ref)
        old_kernel_entry(name)
    pe_props()
    grub_images()
    return report()


if __name__ == "__main__":
    sys.exit(main())
