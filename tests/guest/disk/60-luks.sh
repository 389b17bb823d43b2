#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# LUKS2 with initramfs/trusted-keys-luks, run here as shipped, on volumes
# that cryptsetup formats and fills (its own mapping writes the data; ours
# must read it back: cipher, offset, sector size, IVs as cryptsetup's).
# Phase 1, as on a running system whose initramfs capped its PCR: cap, then
# enrol three volumes (lka: aes-xts-plain64 512 bits, 4096-byte sectors;
# lkb: 512-byte sectors; lkc: with a PIN), the keyslots unchanged, and the
# key does not unseal in this boot. Phase 2, the next boot before its cap:
# each opens with no passphrase and reads cryptsetup's data; another
# volume's blob is refused before any table is loaded (keydigest=); one
# wrong PIN, then the right one; after the cap nothing opens.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"
. "$here/../lib/tpm2.sh"

t_disk_begin ours
t_require tpm 2.0
t_require cmd cryptsetup
# cryptsetup takes flock(2) on /run/cryptsetup for every header write: a
# kernel without CONFIG_FILE_LOCKING (the tinyconfig-based test kernel) has
# no /proc/locks and answers ENOSYS. The stock kernels' rows run it.
[ -e /proc/locks ] || t_skip_all "cryptsetup needs file locks (flock): this kernel has no CONFIG_FILE_LOCKING"
L=/initramfs/trusted-keys-luks
D=/tmp/dk60
mkdir -p $D /run/cryptsetup
export TRUSTED_KEYS_LUKS=$D/luks DM_DISABLE_UDEV=1
printf 'correct horse battery' >$D/pass
VOLS="lka lkb lkc"
# The cap PCR: 13, not the default 15, which 50-luks-key caps in the same boots
C=13

# slices: lka, lkb, lkc: MiB 40-47, 48-55, 56-63 of the disk (dm-linear)
slices() {
	s=81920
	for v in $VOLS; do
		t_dm_remove "$v"
		dmsetup create "$v" --noudevsync --table "0 16384 linear /dev/vda $s" || return 1
		dmsetup mknodes "$v" >/dev/null 2>&1
		s=$((s + 16384))
	done
}

# fmt VOL SECTOR: luksFormat (a small header: fast under TCG), then 1 MiB of
# random data written through cryptsetup's own mapping; its sha256 and the
# keyslots' go to $D/state. Says what failed.
fmt() {
	cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--luks2-metadata-size 16k --luks2-keyslots-size 512k --cipher aes-xts-plain64 \
		--key-size 512 --sector-size "$2" --key-file $D/pass --debug "/dev/mapper/$1" \
		>$D/fmt.log 2>&1 || { grep -iE 'fail|error|lock|cannot|denied' $D/fmt.log | tail -n 20 >&2
		return 1; }
	cryptsetup open --key-file $D/pass "/dev/mapper/$1" "ref$1" ||
		{ echo "cryptsetup open failed" >&2; return 1; }
	dd if=/dev/urandom of="/dev/mapper/ref$1" bs=1048576 count=1 conv=fsync 2>/dev/null
	_s=$(t_disk_sum "/dev/mapper/ref$1")
	cryptsetup close "ref$1" || return 1
	echo "$1 $_s $(keyslots "$1" | cut -c1-64)" >>$D/state
}

keyslots() { cryptsetup luksDump "/dev/mapper/$1" | sed -n '/^Keyslots:/,/^Tokens:/p' | sha256sum; }
header_sum() { dd if="/dev/mapper/$1" bs=4096 count=160 2>/dev/null | sha256sum | cut -d' ' -f1; }
uuid() { cryptsetup luksUUID "/dev/mapper/$1"; }

# enrolled VOL: status says so, the config names its UUID with the cap
enrolled() {
	$L status "/dev/mapper/$1" | grep -q "enrolled (token" &&
		grep -q "^$(uuid "$1") sha256:$C\$" $D/luks
}

# refused VOL NAME PATTERN: open fails with PATTERN, NAME not mapped
refused() {
	if $L open "/dev/mapper/$1" "$2" </dev/null >$D/out 2>$D/err; then
		echo "opened" >&2
		return 1
	fi
	sed 's/^/said: /' $D/err >&2
	grep -Eq "$3" $D/err || return 1
	! dmsetup info "$2" >/dev/null 2>&1 || { echo "$2 is mapped" >&2; return 1; }
}

phase1() {
	t_check "set-up: three dm-linear slices of the disk" slices || { t_skip_rest "no slices"; return; }
	p0=$(t_tpm2_pcr $C)
	t_check "cap: PCR $C extended by the raw command" $L cap sha256:$C
	t_check "cap: PCR $C moved" [ "$(t_tpm2_pcr $C)" != "$p0" ]
	for v in $VOLS; do
		sector=4096
		[ "$v" = lkb ] && sector=512
		t_check "$v: luksFormat, data written by cryptsetup's own mapping" fmt "$v" $sector
	done
	t_check "enrol lka (no PIN)" $L enrol /dev/mapper/lka --key-file=$D/pass \
		--keyhandle=0x81000001 --pcrs=sha256:0,7 --cap=$C
	t_check "enrol lka: status enrolled, the config names its UUID and cap" enrolled lka
	t_check "enrol lkb" $L enrol /dev/mapper/lkb --key-file=$D/pass --keyhandle=0x81000001 \
		--pcrs=sha256:0,7 --cap=$C
	t_check "enrol lkc with a PIN (asked twice), default PCRs" sh -c "printf '4711\n4711\n' |
		$L enrol /dev/mapper/lkc --key-file=$D/pass --keyhandle=0x81000001 --cap=$C --pin"
	t_check "enrol lkc: status says PIN yes" sh -c "$L status /dev/mapper/lkc | grep -q 'PIN yes'"
	t_check "enrol: mismatched PINs refused" sh -c "! printf '1\n2\n' |
		$L enrol /dev/mapper/lkc --key-file=$D/pass --pin --replace"
	t_check "enrol: a wrong passphrase refused" sh -c "printf nope >$D/bad;
		! $L enrol /dev/mapper/lka --key-file=$D/bad --replace"
	t_check "the config is 0600" [ "$(stat -c %a $D/luks)" = 600 ]
	for v in $VOLS; do
		ks=$(sed -n "s/^$v [^ ]* //p" $D/state)
		t_check "$v: keyslots unchanged by enrolment" [ "$(keyslots "$v" | cut -c1-64)" = "$ks" ]
		echo "$v $(header_sum "$v")" >>$D/headers
	done
	t_check "enrolled again without --replace: refused" sh -c "
		! $L enrol /dev/mapper/lka --key-file=$D/pass 2>$D/e && grep -q 'enrolled already' $D/e"
	t_check "this boot (PCR $C capped): the key does not unseal" refused lka v1 "TPM refused"
	cat $D/state $D/headers $D/luks | t_state_save disk-luks
}

# opens VOL NAME: maps, reads the data of phase 1, looks like cryptsetup's
opens() {
	$L open "/dev/mapper/$1" "$2" >&2 || return 1
	s=$(t_disk_sum "/dev/mapper/$2")
	want=$(awk -v v="$1" '$1 == v && NF == 3 { print $2 }' $D/saved)
	[ "$s" = "$want" ] || { echo "read $s, expected $want" >&2; return 1; }
}

like_luks() {
	u=CRYPT-LUKS2-$(uuid "$1" | tr -d -)-$2
	got=$(dmsetup info -c --noheadings -o uuid "$2")
	[ "$got" = "$u" ] || { echo "dm uuid $got, expected $u" >&2; return 1; }
	dmsetup table "$2" | grep -q " aes-xts-plain64 :64:logon:trusted-keys:$2 0 " ||
		{ dmsetup table "$2" >&2; return 1; }
	cryptsetup status "$2" | grep -q 'type: *LUKS2' || { cryptsetup status "$2" >&2; return 1; }
}

phase2() {
	t_state_get disk-luks >$D/saved || { t_skip_rest "phase 1 saved nothing"; return; }
	grep -v '^lk' $D/saved | grep . >$D/luks
	t_check "set-up: the slices again" slices || { t_skip_rest "no slices"; return; }
	t_check "PCR $C at its reset value in this boot" [ "$(t_tpm2_pcr $C)" = "$(printf '%064d' 0)" ]
	t_check "lka (4096-byte sectors): opens with no passphrase, reads cryptsetup's data" opens lka v1
	t_check "lka: dm UUID, table and cryptsetup status as a LUKS2 mapping" like_luks lka v1
	t_check "lka: no logon key left readable or searchable" \
		sh -c "! keyctl search @s logon trusted-keys:v1 >/dev/null 2>&1"
	t_dm_remove v1
	t_check "lkb (512-byte sectors): opens, reads cryptsetup's data" opens lkb v2
	t_dm_remove v2
	for v in lka lkb; do
		h=$(awk -v v="$v" '$1 == v && NF == 2 { print $2 }' $D/saved)
		t_check "$v: header unchanged by the unlocks" [ "$(header_sum "$v")" = "$h" ]
	done
	# lkb's blob in lka's token: a good sealed key of this TPM, another volume's
	$L blob /dev/mapper/lka >$D/a.blob
	$L blob /dev/mapper/lkb >$D/b.blob
	$L blob /dev/mapper/lka --set $D/b.blob >/dev/null 2>&1
	t_check "another volume's blob: refused before any table is loaded (keydigest=)" \
		refused lka v1 "not this volume's"
	$L blob /dev/mapper/lka --set $D/a.blob >/dev/null 2>&1
	t_check "a damaged blob: refused" sh -c "sed 's/^\(.\{80\}\)..../\1ffff/' $D/a.blob >$D/x.blob;
		$L blob /dev/mapper/lka --set $D/x.blob"
	t_check "a damaged blob: no mapping" refused lka v1 "refused|not a sealed key|cannot unseal"
	$L blob /dev/mapper/lka --set $D/a.blob >/dev/null 2>&1
	t_check "lkc: one wrong PIN, then the right one: opens" sh -c "printf '1234\n4711\n' |
		$L open /dev/mapper/lkc v3 && [ -b /dev/mapper/v3 ]"
	t_dm_remove v3
	t_check "remove lkb: the token goes" sh -c "$L remove /dev/mapper/lkb &&
		$L status /dev/mapper/lkb | grep -q 'not enrolled'"
	t_check "the token removed: refused, no mapping" refused lkb v2 "no trusted-keys token"
	t_check "remove: the passphrase still opens lkb" \
		cryptsetup open --test-passphrase --key-file $D/pass /dev/mapper/lkb
	t_check "cap: the initramfs's last step" $L cap sha256:$C
	t_check "after the cap: lka does not open again in this boot" refused lka v1 "TPM refused"
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
t_dm_remove v1 v2 v3 reflka reflkb reflkc lka lkb lkc
