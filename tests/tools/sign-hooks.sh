#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs/trusted-keys-sign and Debian's hooks that run it (host, no
# kernel, no TPM): a LUKS2 image (cryptsetup) whose trusted-keys token holds
# a key sealed to a signer and a revocation counter (a TPMKey made here:
# trusted-policy reads only its public area), and a plain volume's blob;
# the real trusted-policy signs; tk-pcr-predict, tpm2_nvread and
# tpm2_nvincrement are fakes (their values in files). Checks: what sign
# puts into each blob (PolicyPCR over the predicted PCRs and the cap PCR,
# PolicyNV with the bound), nothing when the next boot is approved already,
# a new bound per approval, keep, a refused prediction (nothing changed,
# exit 3, the passphrase message; the hooks exit 0), revoke-older (the
# counter up to this boot's bound, older approvals gone; a boot matching no
# approval refused), the hooks' order under run-parts and their skip inside
# a kernel's postinst, the apt snippet; GRUB's menu (menu kernels): the
# default entry with the new bound, the default kernel's submenu entry too,
# the old kernel's with the bound below, recovery and memtest entries never,
# an entry not predicted skipped with a warning, keep counting runs,
# revoke-older dropping the old kernel's approval and not approving its
# kernel again, menu default; and the real tk-pcr-predict on a recorded
# boot (tests/tools/pcr-predict/bookworm-update: its manifests) approving
# both kernels' entries. TP=path: trusted-policy. KTAP.
# The checks are strings for eval (their variables expand there):
# shellcheck disable=SC2016,SC2034
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
sign=$top/initramfs/trusted-keys-sign
luks=$top/initramfs/trusted-keys-luks
TP=${TP:-$top/tools/trusted-policy}
work=$(mktemp -d "${TMPDIR:-/tmp}/sign-hooks.XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0 fails=0
echo "KTAP version 1"
echo "1..42"
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)) fails=$((fails + 1)); echo "not ok $n $*"; }
check() { # description command...
	local d=$1
	shift
	if "$@" >"$work/check.out" 2>&1; then ok "$d"; else sed 's/^/# /' "$work/check.out"; notok "$d"; fi
}
not() { ! "$@"; }
has() { grep -q -- "$1" "$2" || { echo "no '$1' in $2:"; cat "$2"; return 1; }; }
if [ ! -x "$TP" ] || ! command -v cryptsetup >/dev/null || ! command -v openssl >/dev/null; then
	for i in $(seq 42); do echo "ok $i # SKIP needs trusted-policy ($TP), cryptsetup, openssl"; done
	exit 0
fi

# --- the machine's stand-ins ------------------------------------------------
mkdir -p "$work/bin" "$work/etc" "$work/dev" "$work/pcr"
cat >"$work/bin/tk-pcr-predict" <<EOF
#!/bin/sh
echo "\$*" >>"$work/predict.args"
# entries: GRUB's menu, as written in entries.txt; predict --entry PATH:
# the values in pred.entry.PATH.txt ('>' as _), refused without one
if [ "\$1" = entries ]; then cat "$work/entries.txt"; exit 0; fi
e='' prev=''
for a in "\$@"; do [ "\$prev" != --entry ] || e=\$a; prev=\$a; done
if [ -n "\$e" ]; then
	f="$work/pred.entry.\$(echo "\$e" | tr '>' _).txt"
	[ -f "\$f" ] || { echo "tk-pcr-predict: refused: menu entry '\$e': GRUB's command 'frobnicate': not predicted" >&2; exit 3; }
	cat "\$f"
	exit 0
fi
rc=\$(cat "$work/pred.rc")
if [ "\$rc" != 0 ]; then
	echo "tk-pcr-predict: PCR 4: event 17 EV_EFI_BOOT_SERVICES_APPLICATION: no file path" >&2
	exit "\$rc"
fi
echo "# PCR  4 (explain)"
cat "$work/pred.txt"
EOF
cat >"$work/bin/tpm2_nvread" <<EOF
#!/bin/sh
v=\$(cat "$work/counter")
printf '%016x' "\$v" | xxd -r -p
EOF
cat >"$work/bin/tpm2_nvincrement" <<EOF
#!/bin/sh
echo \$((\$(cat "$work/counter") + 1)) >"$work/counter"
EOF
ln -s "$TP" "$work/bin/trusted-policy"
ln -s "$luks" "$work/bin/trusted-keys-luks"
chmod +x "$work/bin/"*
echo 7 >"$work/counter"
echo 0 >"$work/pred.rc"
: >"$work/entries.txt"
export TRUSTED_KEYS_PATH=$work/bin TRUSTED_KEYS_ETC=$work/etc TRUSTED_KEYS_DEVDIR=$work/dev
export TRUSTED_KEYS_LUKS=$work/etc/luks TRUSTED_KEYS_PCR_DIR=$work/pcr
export TRUSTED_KEYS_EVENTLOG=$work/eventlog
: >"$work/eventlog"
# pred N: a prediction: PCRs 0,2,4,7,8,9 with values made from N
pred() {
	for p in 0 2 4 7 8 9; do
		printf '%2d %s\n' "$p" "$(printf '%s-%s' "$1" "$p" | sha256sum | cut -c1-64)"
	done >"$work/pred.txt"
}
# boot_pcrs N: the PCRs this boot read are those of prediction N
boot_pcrs() {
	rm -f "$work/pcr/"*
	for p in 0 2 4 7 8 9; do printf '%s-%s' "$1" "$p" | sha256sum | cut -c1-64 >"$work/pcr/$p"; done
}

# the signer, the configuration; a key sealed to the signer and counter
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/etc/signer.pem" 2>/dev/null
chmod 0600 "$work/etc/signer.pem"
mkdir -p "$work/efivars"
printf 'signer %s\npcrs 0,2,4,7,8,9\ncounter 01800100\nkeep 3\npredict --part hd0,gpt1=/esp --part hd0,gpt2=/root\nblob %s\nefivars %s\n' \
	"$work/etc/signer.pem" "$work/etc/data.blob" "$work/efivars" >"$work/etc/signing"
auth=$("$TP" authorize --signer "$work/etc/signer.pem" --counter-index 01800100)
# a TPMKey sealed to the signer (keyedhash, sha256; made without a TPM)
python3 "$here/mktpmkey.py" "$auth" >"$work/etc/data.blob"
blob0=$(cat "$work/etc/data.blob")
# the LUKS2 volume with its token ("signed":"1", cap sha256:15)
printf 'pw' >"$work/pass"
truncate -s 20M "$work/vol.img"
cryptsetup luksFormat -q --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file "$work/pass" \
	"$work/vol.img" >/dev/null 2>&1
uuid=$(cryptsetup luksUUID "$work/vol.img")
ln -s "$work/vol.img" "$work/dev/$uuid"
printf '{"type":"trusted-keys","keyslots":[],"blob":"%s","options":"keyhandle=0x81000001","pin":"0","cap":"sha256:15","signed":"1"}\n' \
	"$blob0" >"$work/tok.json"
cryptsetup token import --json-file "$work/tok.json" "$work/vol.img"
echo "$uuid sha256:15" >"$work/etc/luks"
lblob() { "$luks" blob "$work/vol.img" >"$work/l.hex" 2>/dev/null; }
lists() { # both blobs' listings, in $work/l.list and $work/p.list
	lblob && "$TP" list "$work/l.hex" >"$work/l.list" 2>&1 &&
		"$TP" list "$work/etc/data.blob" >"$work/p.list" 2>&1
}

# --- sign ---------------------------------------------------------------------
pred 1
"$sign" sign >"$work/s1.out" 2>&1
rc=$?
check "sign: exit 0, both volumes approved" eval '[ $rc = 0 ] && has "approved (boot-8, PCRs 0,2,4,7,8,9, counter 0x01800100 <= 8) for 2 volume" "$work/s1.out"'
lists
check "sign: the LUKS2 token's blob has the approval: PolicyPCR over the PCRs and the cap PCR, PolicyNV(counter <= 8)" \
	eval 'has "boot-8" "$work/l.list" && has "PolicyPCR(sha256:0,2,4,7,8,9,15)" "$work/l.list" && has "PolicyNV(counter 0x01800100 <= 8)" "$work/l.list"'
check "sign: the plain volume's blob has it, over the PCRs (no cap)" \
	eval 'has "PolicyPCR(sha256:0,2,4,7,8,9)" "$work/p.list" && has "boot-8" "$work/p.list"'
check "sign: tk-pcr-predict got the configuration's PCRs, log, efivars and partitions; entries its log and partitions" \
	eval 'has "^predict --log $work/eventlog --pcrs 0,2,4,7,8,9 --efivars $work/efivars --part hd0,gpt1=/esp --part hd0,gpt2=/root\$" "$work/predict.args" &&
		has "^entries --log $work/eventlog --part hd0,gpt1=/esp --part hd0,gpt2=/root\$" "$work/predict.args"'
check "sign: the token keeps its other fields (options, cap, signed)" \
	eval '"$luks" token "$work/vol.img" | grep -q "\"options\":\"keyhandle=0x81000001\",\"pin\":\"0\",\"cap\":\"sha256:15\",\"signed\":\"1\""'
check "sign: the plain blob stays 0600" test "$(stat -c %a "$work/etc/data.blob")" = 600
# the approval is over the predicted values: its PolicyPCR's pcrDigest,
# SHA-256 of the values in PCR order (the cap PCR's zeros last), is in the blob
pd=$( { cut -c4- "$work/pred.txt"; printf '%064d\n' 0; } | tr -d '\n' | xxd -r -p | sha256sum | cut -c1-64)
pdp=$(cut -c4- "$work/pred.txt" | tr -d '\n' | xxd -r -p | sha256sum | cut -c1-64)
check "sign: the approvals are over the predicted values (each PolicyPCR's pcrDigest)" \
	eval 'grep -q "$pd" "$work/l.hex" && grep -q "$pdp" "$work/etc/data.blob"'
cp "$work/l.hex" "$work/l1.hex"
"$sign" sign >"$work/s2.out" 2>&1
lblob
check "sign again, same prediction: approved already, nothing signed" \
	eval 'has "approved already (boot-8)" "$work/s2.out" && cmp -s "$work/l.hex" "$work/l1.hex"'
# the plain volume enrolled again: its new blob lacks the approval
cp "$work/etc/data.blob" "$work/data.keep"
echo "$blob0" >"$work/etc/data.blob"
"$sign" sign >"$work/s2b.out" 2>&1
check "sign, same prediction, a blob without it (enrolled again): signed again (boot-9)" \
	eval 'has "approved (boot-9" "$work/s2b.out" && "$TP" list "$work/etc/data.blob" | grep -q " boot-9 "'
cp "$work/data.keep" "$work/etc/data.blob"
pred 2
echo 20 >"$work/counter"
"$sign" sign >"$work/s3.out" 2>&1
lists
check "sign, a new prediction: bound above the counter (21), first in the blob" \
	eval 'has "boot-21" "$work/s3.out" && [ "$(sed -n "s/^0 \([^ ]*\).*/\1/p" "$work/l.list")" = boot-21 ]'
pred 3; "$sign" sign >/dev/null 2>&1
pred 4; "$sign" sign >/dev/null 2>&1
lists
check "sign: keep 3: the oldest approval leaves the blobs" \
	eval '[ "$(grep -c "^[0-9]" "$work/l.list")" = 3 ] && not grep -q boot-8 "$work/l.list" && [ "$(grep -c "^[0-9]" "$work/p.list")" = 3 ]'
check "sign: the state records each approval's bound and values" \
	eval '[ "$(awk "{print \$1, \$2}" "$work/etc/approvals" | tr "\n" " ")" = "boot-8 8 boot-9 9 boot-21 21 boot-22 22 boot-23 23 " ]'

# --- a refused prediction -------------------------------------------------------
cp "$work/l.hex" "$work/before.hex"
cp "$work/etc/data.blob" "$work/before.blob"
echo 3 >"$work/pred.rc"
pred 5
"$sign" sign >"$work/r.out" 2>&1
rc=$?
lblob
check "refused prediction: exit 3, the refusal named" eval '[ $rc = 3 ] && has "EV_EFI_BOOT_SERVICES_APPLICATION" "$work/r.out"'
check "refused prediction: says the passphrase is asked once, and what to run after" \
	eval 'has "asks for the passphrase once" "$work/r.out" && has "trusted-keys-sign sign" "$work/r.out"'
check "refused prediction: both blobs unchanged (the old approvals stay)" \
	eval 'cmp -s "$work/l.hex" "$work/before.hex" && cmp -s "$work/etc/data.blob" "$work/before.blob"'
"$sign" sign --hook "kernel 6.12" >"$work/rh.out" 2>&1
rc=$?
check "refused prediction in a hook: exit 0, a warning" eval '[ $rc = 0 ] && has "installation goes on" "$work/rh.out"'
echo 0 >"$work/pred.rc"
mv "$work/etc/signer.pem" "$work/signer.away"
"$sign" sign --hook apt >"$work/ns.out" 2>&1
rc=$?
"$sign" sign >/dev/null 2>&1
rc2=$?
mv "$work/signer.away" "$work/etc/signer.pem"
check "no signer key: a hook exits 0 with the warning, sign alone exits 1" \
	eval '[ $rc = 0 ] && [ $rc2 = 1 ] && has "no signer key" "$work/ns.out"'

# --- the hooks --------------------------------------------------------------------
mkdir -p "$work/hooks/postinst.d"
for h in kernel/postinst.d/zzz-trusted-keys initramfs/post-update.d/trusted-keys; do
	sed "s|/usr/sbin/trusted-keys-sign|$sign|g" "$top/initramfs/etc/$h" >"$work/hooks/${h##*/}"
	chmod +x "$work/hooks/${h##*/}"
done
for h in initramfs-tools dkms zz-update-grub; do : >"$work/hooks/postinst.d/$h"; chmod +x "$work/hooks/postinst.d/$h"; done
cp "$top/initramfs/etc/kernel/postinst.d/zzz-trusted-keys" "$work/hooks/postinst.d/"
check "run-parts runs zzz-trusted-keys last, after initramfs-tools and zz-update-grub" \
	eval '[ "$(run-parts --test "$work/hooks/postinst.d" | tail -n 1)" = "$work/hooks/postinst.d/zzz-trusted-keys" ]'
pred 6
DPKG_MAINTSCRIPT_PACKAGE=linux-image-6.12.57+deb12-amd64 DPKG_MAINTSCRIPT_NAME=postinst \
	"$work/hooks/trusted-keys" 6.12.57+deb12-amd64 /boot/initrd.img >"$work/h1.out" 2>&1
check "post-update.d inside a kernel's postinst: nothing (the kernel's zzz hook follows)" \
	eval '[ ! -s "$work/h1.out" ] && not grep -q boot-24 "$work/etc/approvals"'
"$work/hooks/zzz-trusted-keys" 6.12.57+deb12-amd64 /boot/vmlinuz >"$work/h2.out" 2>&1
rc=$?
check "postinst.d/zzz-trusted-keys: signs the next boot (exit 0)" eval '[ $rc = 0 ] && has "boot-24" "$work/h2.out" && has "after kernel 6.12.57" "$work/h2.out"'
pred 7
DPKG_MAINTSCRIPT_PACKAGE=initramfs-tools DPKG_MAINTSCRIPT_NAME=postinst \
	"$work/hooks/trusted-keys" 6.1.0-40-amd64 /boot/initrd.img >"$work/h3.out" 2>&1
check "post-update.d after an initramfs trigger: signs" has "boot-25.*after update-initramfs" "$work/h3.out"
echo 3 >"$work/pred.rc"
"$work/hooks/zzz-trusted-keys" 6.12.57+deb12-amd64 /boot/vmlinuz >"$work/h4.out" 2>&1
rc=$?
echo 0 >"$work/pred.rc"
check "postinst.d hook with a refused prediction: exit 0 (apt goes on), the message" \
	eval '[ $rc = 0 ] && has "asks for the passphrase once" "$work/h4.out"'
if command -v apt-config >/dev/null; then
	check "the apt snippet: DPkg::Post-Invoke runs trusted-keys-sign sign --hook apt" \
		eval 'apt-config -c "$top/initramfs/etc/apt/apt.conf.d/99trusted-keys" dump DPkg::Post-Invoke | grep -q "trusted-keys-sign sign --hook apt"'
else
	ok "the apt snippet # SKIP no apt-config"
fi

# --- revoke-older -----------------------------------------------------------------------
boot_pcrs 99
c0=$(cat "$work/counter")
"$sign" revoke-older >"$work/v1.out" 2>&1
rc=$?
check "revoke-older on a boot matching no approval: refused, the counter unchanged" \
	eval '[ $rc = 1 ] && has "not those of an approval" "$work/v1.out" && [ "$(cat "$work/counter")" = "$c0" ]'
boot_pcrs 6
"$sign" revoke-older >"$work/v2.out" 2>&1
rc=$?
check "revoke-older: the counter goes up to this boot's bound (24)" \
	eval '[ $rc = 0 ] && [ "$(cat "$work/counter")" = 24 ] && has "before boot-24 no longer load" "$work/v2.out"'
lists
check "revoke-older: the older approvals leave the blobs and the state" \
	eval 'not grep -q "boot-2[23]" "$work/l.list" && grep -q boot-24 "$work/l.list" && not grep -q "boot-2[23]" "$work/p.list" && [ "$(awk "{print \$1}" "$work/etc/approvals" | tr "\n" " ")" = "boot-24 boot-25 " ]'
"$sign" revoke-older >/dev/null 2>&1
check "revoke-older again: the counter stays at the bound (this boot's approval holds)" \
	test "$(cat "$work/counter")" = 24

# --- GRUB's menu: the older kernel's entry ------------------------------------------------
# the default entry boots the new kernel (prediction 8); "Advanced options"
# has each kernel and its recovery mode, an entry not predicted, another
# not listed right, and memtest86+ (not Linux)
tab=$(printf '\t')
adv="Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux"
kn=$(echo new-kernel | sha256sum | cut -c1-64) ko=$(echo old-kernel | sha256sum | cut -c1-64)
{
	printf '0\tdefault\t/boot/vmlinuz-7.0\t%s\troot=UUID=r ro quiet\tDebian GNU/Linux\n' "$kn"
	printf '1>0\t-\t/boot/vmlinuz-7.0\t%s\troot=UUID=r ro quiet\t%s 7.0\n' "$kn" "$adv"
	printf '1>1\t-\t/boot/vmlinuz-7.0\t%s\troot=UUID=r ro single\t%s 7.0 (recovery mode)\n' "$kn" "$adv"
	printf '1>2\t-\t/boot/vmlinuz-6.1\t%s\troot=UUID=r ro quiet\t%s 6.1\n' "$ko" "$adv"
	printf '1>3\t-\t/boot/vmlinuz-6.1\t%s\troot=UUID=r ro single\t%s 6.1 (recovery mode)\n' "$ko" "$adv"
	printf '1>4\t-\t?\t-\tGRUB'"'"'s command '"'"'frobnicate'"'"': not predicted\t%s 5.10\n' "$adv"
	printf '1>5\t-\t/boot/vmlinuz-5.9\t%s\troot=UUID=r ro\t%s 5.9\n' "$ko" "$adv"
	printf '2\t-\t/boot/memtest86+x64.efi\t%s\t-\tMemory test (memtest86+x64.efi)\n' "$ko"
} >"$work/entries.txt"
# pred_entry PATH N: predict --entry PATH gives values made from N
pred_entry() {
	for p in 0 2 4 7 8 9; do
		printf '%2d %s\n' "$p" "$(printf '%s-%s' "$2" "$p" | sha256sum | cut -c1-64)"
	done >"$work/pred.entry.$(echo "$1" | tr '>' _).txt"
}
pred_entry '1>0' e70; pred_entry '1>1' e70r; pred_entry '1>2' e61; pred_entry '1>3' e61r
pred_entry '2' mt
# 1>5 ("5.9", its kernel's file as the old one's, listed): predicted
pred_entry '1>5' e59
rm -f "$work/predict.args"
pred 8
echo 24 >"$work/counter"
"$sign" sign >"$work/m1.out" 2>&1
rc=$?
lists
check "menu: sign approves the default (boot-26) and the other kernels' entries, exit 0" \
	eval '[ $rc = 0 ] && has "approved (boot-26, PCRs 0,2,4,7,8,9, counter 0x01800100 <= 26)" "$work/m1.out" &&
		has "menu entry 1>2 ($adv 6.1) approved (boot-26.2, counter <= 25)" "$work/m1.out"'
check "menu: the default kernel's submenu entry with the new bound (26), the old kernel's with 25, in both blobs" \
	eval 'for f in l p; do grep -q "^[0-9]* boot-26 .*PolicyNV(counter 0x01800100 <= 26)" "$work/$f.list" &&
		grep -q "^[0-9]* boot-26.1 .*PolicyNV(counter 0x01800100 <= 26)" "$work/$f.list" &&
		grep -q "^[0-9]* boot-26.2 .*PolicyNV(counter 0x01800100 <= 25)" "$work/$f.list" &&
		grep -q "^[0-9]* boot-26.3 .*PolicyNV(counter 0x01800100 <= 25)" "$work/$f.list" || exit 1; done'
pd=$( { cut -c4- "$work/pred.entry.1_2.txt"; printf '%064d\n' 0; } | tr -d '\n' | xxd -r -p | sha256sum | cut -c1-64)
check "menu: the old kernel's approval is over predict --entry 1>2's values (its PolicyPCR's pcrDigest)" \
	eval 'grep -q "$pd" "$work/l.hex" && has "--entry 1>2$" "$work/predict.args"'
check "menu: the recovery entries are never predicted nor approved; the default is first in the blob" \
	eval 'not grep -q -- "--entry 1>[13]" "$work/predict.args" && [ "$(grep -c " boot-26" "$work/l.list")" = 4 ] &&
		not grep -q "recovery" "$work/etc/approvals" && [ "$(sed -n "s/^0 \([^ ]*\).*/\1/p" "$work/l.list")" = boot-26 ]'
check "menu: an entry not predicted is skipped with a warning naming it; memtest86+ not approved" \
	eval 'has "menu entry 1>4 ($adv 5.10): not predicted: GRUB.s command .frobnicate.: not predicted: not approved" "$work/m1.out" &&
		not grep -q -- "--entry 2 " "$work/predict.args"'
check "menu: the state records each approval's entry; status lists them" \
	eval 'grep -q "^boot-26.2 25 .* # 1>2${tab}$ko${tab}$adv 6.1\$" "$work/etc/approvals" &&
		"$sign" status | grep -q "^approval boot-26.2 bound 25 entry 1>2 ($adv 6.1)\$" &&
		"$sign" status | grep -q "^approval boot-26 bound 26 entry 0 (Debian GNU/Linux)\$"'
check "menu: keep 3 counts sign runs: runs 24, 25 and 26's four approvals stay" \
	eval '[ "$(grep -c "^[0-9]" "$work/l.list")" = 6 ] && grep -q " boot-24 " "$work/l.list"'
"$sign" sign >"$work/m2.out" 2>&1
check "menu: sign again: approved already, with the 3 other entries" has "approved already (boot-26, and 3 other menu entries)" "$work/m2.out"
# the new kernel's boot: revoke-older revokes the old kernel's approvals
boot_pcrs 8
"$sign" revoke-older >"$work/m3.out" 2>&1
rc=$?
lists
check "menu: revoke-older from the new boot: the counter at 26, above the old kernel's bound (25): the TPM refuses it" \
	eval '[ $rc = 0 ] && [ "$(cat "$work/counter")" = 26 ]'
check "menu: ...the old kernel's approvals leave the blobs and the state, the new kernel's stay" \
	eval 'not grep -q "boot-26.[23]" "$work/l.list" && not grep -q "boot-26.[23]" "$work/p.list" &&
		grep -q " boot-26.1 " "$work/l.list" && not grep -q "^boot-26.[23] " "$work/etc/approvals" &&
		grep -q "^boot-26.1 " "$work/etc/approvals"'
check "menu: ...and its kernel is recorded as revoked (not the new one)" \
	eval 'grep -q "^$ko " "$work/etc/revoked" && not grep -q "^$kn " "$work/etc/revoked"'
"$sign" sign >"$work/m4.out" 2>&1
check "menu: sign after revoke-older: the revoked kernel's entries are not approved again" \
	eval 'has "menu entry 1>2 ($adv 6.1): its kernel.s approvals were revoked" "$work/m4.out" &&
		has "approved already (boot-26, and 1 other menu entry)" "$work/m4.out"'
echo "menu default" >>"$work/etc/signing"
rm -f "$work/predict.args"
pred 9
"$sign" sign >"$work/m5.out" 2>&1
lists
check "menu default: only the default entry approved, the menu not listed" \
	eval 'has "approved (boot-27," "$work/m5.out" && not grep -q "boot-27\." "$work/l.list" &&
		not grep -q "^entries" "$work/predict.args"'

# --- the real tk-pcr-predict: a recorded boot's log and files ------------------------------
# bookworm-update (tests/tools/pcr-predict/): boot 1's log, the next boot's
# files (grub.cfg: 6.12 the default, both kernels in Advanced options) and
# boot 1's kernel (6.1), as manifests of their digests (predict --manifest)
fx=$top/tests/tools/pcr-predict/bookworm-update
mkdir -p "$work/real/bin" "$work/real/etc"
python3 - "$fx/manifest.json" "$fx/next/manifest.json" >"$work/real/m.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for k, v in a["files"].items():
    b["files"].setdefault(k, v)
json.dump(b, sys.stdout)
PY
for t in tpm2_nvread tpm2_nvincrement trusted-policy; do ln -s "$work/bin/$t" "$work/real/bin/$t"; done
ln -s "$top/tools/tk-pcr-predict" "$work/real/bin/tk-pcr-predict"
printf 'signer %s\npcrs 4,7,8,9\ncounter 01800100\nkeep 3\npredict --manifest %s\nefivars none\nblob %s\n' \
	"$work/etc/signer.pem" "$work/real/m.json" "$work/real/etc/data.blob" >"$work/real/etc/signing"
echo "$blob0" >"$work/real/etc/data.blob"
: >"$work/real/etc/luks"
echo 5 >"$work/counter"
TRUSTED_KEYS_PATH=$work/real/bin TRUSTED_KEYS_ETC=$work/real/etc TRUSTED_KEYS_LUKS=$work/real/etc/luks \
	TRUSTED_KEYS_EVENTLOG=$fx/eventlog.bin "$sign" sign >"$work/real.out" 2>&1
rc=$?
"$TP" list "$work/real/etc/data.blob" >"$work/real.list" 2>&1
check "real predictor: the default, Advanced options > 6.12 (bound 6) and > 6.1 (bound 5) approved" \
	eval '[ $rc = 0 ] && grep -q "^0 boot-6 .*<= 6)" "$work/real.list" &&
		grep -q "^[0-9] boot-6.1 .*<= 6)" "$work/real.list" && grep -q "^[0-9] boot-6.2 .*<= 5)" "$work/real.list" &&
		has "menu entry 1>1 (Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-57-amd64) approved (boot-6.2" "$work/real.out"'
"$top/tools/tk-pcr-predict" predict --log "$fx/eventlog.bin" --pcrs 4,7,8,9 --manifest "$work/real/m.json" \
	--entry "1>1" >"$work/real.pred" 2>&1
pd=$(cut -c4- "$work/real.pred" | tr -d '\n' | xxd -r -p | sha256sum | cut -c1-64)
check "real predictor: the 6.1 entry's approval is over predict --entry 1>1's values (PolicyPCR digest)" \
	eval '[ "$(wc -l <"$work/real.pred")" = 4 ] && grep -q "$pd" "$work/real/etc/data.blob"'
[ "$n" = 42 ] || echo "# plan 42, ran $n"
[ "$fails" = 0 ]
