#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot-time unlock: initramfs/trusted-keys-unlock, the script the initramfs
# runs, run here unchanged. Phase 1 enrols a volume (new key, blob saved,
# data written); phase 2 (after the reboot) opens it from the config file,
# then fails cleanly (one message, exit 1, mapping absent, so the boot
# goes on to the passphrase) with a missing blob, a wrong blob and a blob
# sealed to a PCR that has changed since.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"
. "$here/../lib/trusted.sh"

t_disk_begin impl
O=$(t_disk_opts)
D=/tmp/dk30
mkdir -p $D
t_dm_remove dkvol dkmiss dkwrong dkpcr

# conf NAME BLOB: a config of one volume (MiB 12-15 of the disk).
conf() {
	echo "# test volume" >$D/volumes
	t_disk_volume "$1" "$2" "$O" >>$D/volumes
}

# fails NAME BLOB PATTERN: the unlock exits 1 with one line on stderr
# that matches PATTERN, and NAME is not mapped.
fails() {
	conf "$1" "$2"
	if sh $T_DISK_UNLOCK -c $D/volumes >$D/out 2>$D/err; then
		echo "exit 0" >&2
		return 1
	fi
	[ "$(wc -l <$D/err)" -eq 1 ] || { echo "not one line:" >&2; cat $D/err >&2; return 1; }
	grep -Eq "^trusted-keys: $1: .*($3)" $D/err || { cat $D/err >&2; return 1; }
	sed 's/^/message: /' $D/err >&2
	! dmsetup info "$1" >/dev/null 2>&1 || { echo "$1 is mapped" >&2; return 1; }
}

phase1() {
	t_check "enrol: new 32 logon=trusted-keys:dkvol, blob saved" \
		keyctl add trusted dkvol "new 32 $O logon=trusted-keys:dkvol" @u
	blob=$(keyctl pipe "$(t_disk_id trusted dkvol)" 2>/dev/null)
	sum=$(t_disk_write dkvol :32:logon:trusted-keys:dkvol "$T_DISK_U30")
	t_check "enrol: data written through the volume" [ -n "$sum" ]
	printf '%s\n%s\n' "$blob" "$sum" | t_state_save disk-u30
	keyctl revoke "$(t_disk_id trusted dkvol)"
	t_skip_rest "the unlock runs after the reboot"
}

# opens: the config opens dkvol and it reads the data of phase 1; the
# keys the script made went with its session.
opens() {
	conf dkvol $D/good.blob
	sh $T_DISK_UNLOCK -c $D/volumes || return 1
	[ -b /dev/mapper/dkvol ] || { echo "no /dev/mapper/dkvol" >&2; return 1; }
	s=$(t_disk_sum /dev/mapper/dkvol)
	t_dm_remove dkvol
	[ "$s" = "$sum" ] || { echo "read $s, expected $sum" >&2; return 1; }
	! t_disk_id logon trusted-keys:dkvol >/dev/null || { echo "logon key left in our session" >&2; return 1; }
}

# pcr_changed: a blob sealed to PCR 16 opens until PCR 16 is extended.
pcr_changed() {
	if [ "$TKH_TPM" = 2.0 ]; then
		pol="pcrs=sha256:16"
	else
		pol="pcrinfo=$(t_pcrinfo 16)" || { echo "PCR 16 unreadable" >&2; return 1; }
	fi
	keyctl add trusted dkpcr "new 32 $O $pol" @u >/dev/null || return 1
	keyctl pipe "$(t_disk_id trusted dkpcr)" >$D/pcr.blob || return 1
	conf dkpcr $D/pcr.blob
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	sh $T_DISK_UNLOCK -c $D/volumes && dmsetup info dkpcr >/dev/null ||
		{ echo "the PCR-sealed blob does not open before the extend" >&2; return 1; }
	t_dm_remove dkpcr
	# load with pcrlock=16 extends PCR 16
	keyctl add trusted dklock "load $(cat $D/pcr.blob) $O pcrlock=16" @u >/dev/null ||
		{ echo "pcrlock=16 failed" >&2; return 1; }
	fails dkpcr $D/pcr.blob "TPM refused"
}

phase2() {
	t_state_get disk-u30 >/tmp/u30 || { t_skip_rest "phase 1 saved nothing"; return; }
	sed -n 1p /tmp/u30 >$D/good.blob
	sum=$(sed -n 2p /tmp/u30)
	t_check "unlock: the saved blob opens the volume, the data of phase 1 reads back" opens
	t_check "unlock: a second run says the volume is open and exits 0" sh -c "
		sh $T_DISK_UNLOCK -c $D/volumes 2>&1 | grep -q . && exit 1
		sh $T_DISK_UNLOCK -c $D/volumes 2>&1 | grep -q 'dkvol: already open'"
	t_dm_remove dkvol
	t_check "unlock: a missing blob: one message, volume closed" fails dkmiss $D/none.blob "no blob"
	sed 's/^/# said: /' $D/err
	# four hex digits of the sealed data changed
	new=ffff
	[ "$(cut -c61-64 $D/good.blob)" = ffff ] && new=0000
	sed "s/^\(.\{60\}\)..../\1$new/" $D/good.blob >$D/wrong.blob
	t_check "unlock: a wrong blob: one message, volume closed" fails dkwrong $D/wrong.blob "unseal|blob"
	sed 's/^/# said: /' $D/err
	t_check "unlock: PCR 16 changed since sealing: one message, volume closed" pcr_changed
	sed 's/^/# said: /' $D/err
	t_check "unlock: no config: nothing to do, exit 0" sh $T_DISK_UNLOCK -c $D/nothing
	t_check "unlock: the keys of the unlock are gone with its session" \
		sh -c "! keyctl search @s logon trusted-keys:dkvol >/dev/null 2>&1"
	t_check "the unlock script is where the initramfs expects it" \
		sh -n $T_DISK_UNLOCK
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
t_dm_remove dkvol dkmiss dkwrong dkpcr
