#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite realsys-luks: the check of the LUKS2 real system after a boot
# (tests/realsys/luks.sh installs it as /usr/local/sbin/tek-realsys-check,
# run by tek-realsys-check.service once the serial getty runs; not run by
# tests/guest/init). tk.realsys.unlock= on the command line says who was to
# open the root: token (our TPM unlock, no prompt) or passphrase (typed at
# cryptroot's prompt by the harness) or clevis (Clevis's initramfs typed its
# keyslot passphrase there: the table realsys-clevis). Points: the root file system is LVM's
# root LV on the dm-crypt mapping vda3_crypt of the LUKS2 volume, with
# crypttab's discard; swap on the swap_1 LV; who opened the root (the
# mapping's key); the sealed key in the header's token does not load again
# on the running system (the initramfs extended its cap PCR); no crypto
# self-test failed; with clevis instead of the reload, root unseals Clevis's
# key again on the running system (nothing extends PCR 7). KTAP on ttyS1;
# then powers off.
# tk.realsys.refused=swap: this is the attacker's system, booted from a
# volume of its own (the real UUID and the real token in its header, its
# own passphrase) through the fallback prompt; it tries the real blob with
# the real volume's keydigest (/etc/tek-realsys/real-keydigest, what the
# attacker read off the real disk): the TPM must refuse it (the cap PCR),
# EPERM, not the keydigest check.
# The console's side (the prompt, the login, the header's checksums):
# host-check.
# shellcheck source=../../realsys/check-lib.sh
. /usr/local/lib/tek-realsys/check.sh
unlock=$(sed -n 's/.*tk\.realsys\.unlock=\([^ ]*\).*/\1/p' /proc/cmdline)
refused=$(sed -n 's/.*tk\.realsys\.refused=\([^ ]*\).*/\1/p' /proc/cmdline)
nosealed=0
[ "$refused" != notoken ] || nosealed=1
# the load's refusal: the TPM's policy (EPERM: the cap PCR, or a changed
# PCR; a PIN blob loaded without its PIN), or on another machine's TPM the
# pinned parent (EKEYREJECTED)
want_err="Operation not permitted"
[ "$refused" != tpm ] || want_err="Key was rejected"
realdigest=
if [ "$refused" = swap ]; then
	realdigest=$(cat /etc/tek-realsys/real-keydigest 2>/dev/null)
	[ -n "$realdigest" ] || realdigest=missing
fi
rc_start 6

root_on_luks() {
	src=$(findmnt -n -o SOURCE /)
	echo "# /: $src" >&3
	[ "$src" = /dev/mapper/realsys--vg-root ] || return 1
	u=$(dmsetup info -c --noheadings -o uuid vda3_crypt) || return 1
	echo "# vda3_crypt: dm uuid $u; $(dmsetup table vda3_crypt | awk '{ print $4, $6, $7, $8, $9, $10 }')" >&3
	case $u in CRYPT-LUKS2-*-vda3_crypt) ;; *) return 1 ;; esac
	# the root LV's only slave is the crypt mapping
	deps=$(dmsetup deps -o devname realsys--vg-root)
	echo "# $deps" >&3
	echo "$deps" | grep -q '(vda3_crypt)' || return 1
	dmsetup table vda3_crypt | grep -q 'allow_discards'
}
t "/ is LVM's root LV on vda3_crypt (LUKS2, discard)" root_on_luks
swap_on() {
	s=$(swapon --show=NAME --noheadings | head -n 1)
	[ -n "$s" ] && [ "$(realpath "$s")" = "$(realpath /dev/mapper/realsys--vg-swap_1)" ]
}
t "swap on the swap_1 LV" swap_on

# Who opened the root: the mapping's key is the logon key our unlock made
# (trusted-keys:NAME) or the one cryptsetup made from the passphrase.
opened_by() {
	key=$(dmsetup table vda3_crypt | awk '{ print $5 }')
	case $key in
	:*:logon:trusted-keys:vda3_crypt) who=token ;;
	*) who=passphrase ;;
	esac
	# Clevis types a keyslot passphrase: cryptsetup's key, as typed
	want=$unlock
	[ "$unlock" != clevis ] || want=passphrase
	echo "# vda3_crypt's key: $key: opened by $who (expected: $want)" >&3
	[ "$who" = "$want" ]
}
t "the root was opened by $unlock" opened_by

# After the initramfs's unlock attempt, the cap PCR is extended: the blob
# does not load again on the running system, whoever opened the root. The
# load's options are the token's; EPERM is the TPM's policy refusal, and
# on another machine's TPM the pinned parent refuses first.
blob_refused() {
	tok=$(cryptsetup luksDump --dump-json-metadata /dev/vda3 2>/dev/null |
		tr -d '\n' | sed -n 's/.*\("type": *"trusted-keys"[^}]*\)}.*/\1/p')
	blob=$(echo "$tok" | sed -n 's/.*"blob": *"\([0-9a-f]*\)".*/\1/p')
	opts=$(echo "$tok" | sed -n 's/.*"options": *"\([^"]*\)".*/\1/p')
	[ -n "$blob" ] || { echo "# no trusted-keys token with a blob in /dev/vda3's header" >&3; return 1; }
	[ "$realdigest" != missing ] || { echo "# no /etc/tek-realsys/real-keydigest" >&3; return 1; }
	[ -z "$realdigest" ] || opts="$opts keydigest=$realdigest"
	modprobe trusted 2>/dev/null
	if id=$(keyctl add trusted tek-realsys-again "load $blob $opts" @u 2>&1); then
		echo "# the blob loaded again (key $id)" >&3
		keyctl unlink "$id" @u >/dev/null 2>&1
		return 1
	fi
	echo "# keyctl add trusted ... \"load <blob> $opts\": $id (expected: $want_err)" >&3
	echo "# PCR 15 (sha256): $(cat /sys/class/tpm/tpm0/pcr-sha256/15 2>/dev/null)" >&3
	case $id in *"$want_err"*) ;; *) return 1 ;; esac
	# EPERM: the TPM's policy, not a check of ours (the kernel says which)
	[ "$want_err" = "Operation not permitted" ] || return 0
	dmesg | tail -n 5 | grep 'trusted: load:' | sed 's/^/# /' >&3
	dmesg | tail -n 5 | grep -q 'trusted: load: PCR values changed: the TPM refused policy command'
}
# Clevis's initramfs extends nothing: root unseals its JWK again (PCR 7
# as at boot) and the keyslot passphrase it decrypts opens the volume.
clevis_again() {
	slot=$(clevis luks list -d /dev/vda3 | sed -n 's/^\([0-9]*\): tpm2 .*/\1/p' | head -n 1)
	[ -n "$slot" ] || { echo "# no tpm2 binding in clevis luks list" >&3; return 1; }
	if ! clevis luks pass -d /dev/vda3 -s "$slot" >/run/tek-clevis-pass 2>/run/tek-clevis.err; then
		sed 's/^/# /' /run/tek-clevis.err >&3
		rm -f /run/tek-clevis-pass
		return 1
	fi
	echo "# clevis luks pass -d /dev/vda3 -s $slot: $(wc -c </run/tek-clevis-pass) bytes" >&3
	cryptsetup open --test-passphrase --key-slot "$slot" --key-file /run/tek-clevis-pass /dev/vda3
	rc=$?
	rm -f /run/tek-clevis-pass
	[ "$rc" = 0 ]
}
if [ "$unlock" = clevis ]; then
	t "root unseals Clevis's key again (clevis luks pass), and it opens keyslot" clevis_again
elif [ "$nosealed" = 1 ]; then
	skip "root cannot load the sealed key again" "no token in the header (tk.realsys.refused=notoken)"
elif [ -n "$realdigest" ]; then
	t "the attacker, root in its own system, cannot unseal the real blob (real keydigest): $want_err" blob_refused
else
	t "root cannot load the sealed key again: $want_err" blob_refused
fi
# The device-mapper devices of this boot, in the order they were made:
# vda3_crypt first (minor 0), and no gap in the minors (a gap: a device
# made and removed, e.g. a mapping from a refused key).
dm_first() {
	l=$(dmsetup info -c --noheadings -o minor,name --sort minor --separator ' ')
	echo "# dm devices: $(echo "$l" | tr '\n' ' ')" >&3
	n=0
	for m in $(echo "$l" | awk '{ print $1 }'); do
		[ "$m" = $n ] || return 1
		n=$((n + 1))
	done
	[ "$(echo "$l" | awk '$2 == "vda3_crypt" { print $1 }')" = 0 ]
}
t "vda3_crypt is the boot's first device-mapper device, none made and removed" dm_first
rc_end
