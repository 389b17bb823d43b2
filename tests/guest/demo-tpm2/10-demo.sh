#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo (issue 26): what we are for, on Debian's own kernel with a TPM
# 2.0 behind the recording relay (tests/relay) and a scratch disk. Two
# boots of one machine:
#   phase 1  1. a new sealed key; the bus recording scanned for its key
#               bytes (GetRandom's output) and its blobauth: with sessions
#               (ours) and with sessions=0 (the in-tree behaviour)
#            2. an encrypted key under it; a dm-crypt volume opened from
#               the sealed key (logon=), a file written
#   phase 2  3. reboot: the blob loads, the volume opens, the file reads back
#            4. a signed policy: sealed to a signer, a PCR extended, the old
#               approval refused, a newly signed one loads the same object;
#               a PIN, a wrong try counted by the TPM
#            5. a forged TPM reply: refused, nothing leaks
#   LUKS2    6. (phase 1) the installer's LUKS2 volume, a file through
#               cryptsetup, trusted-keys-luks enrol, the keyslots unchanged
#            7. (phase 2) the TPM opens it (no prompt), 0 bus messages hold
#               the volume key, the cap; a changed boot (PCR 9): refused,
#               the passphrase opens it
# Each step: the commands (as a user types them), their output, one line
# "what this shows". The narration goes to the KTAP diagnostics and, live,
# to the console as "demo| " lines (tests/qemu/demo.sh prints them as they
# come); "demo| @step N RESULT SECONDS TITLE" closes a step. Every check is
# a test point; a step whose check fails does not stop the next steps.
# shellcheck disable=SC2016,SC2094  # command lines shown, then eval'd; state names = file names
# shellcheck source=/dev/null
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/relay.sh"

t_require tpm 2.0
t_require disk
t_require cmd dmsetup
t_require ours
mkdir -p /tmp/demo && cd /tmp/demo || exit 1

KH=keyhandle=0x81000001
BA=6f70656e20736573616d652c20706c6561736521	# blobauth: "open sesame, please!" (20 bytes, hex)
BAX=6f70656e20736573616d652c20706c6561736520	# a wrong one: "open sesame, please "
VOL=32768			# sectors of the volume (16 MiB at the disk's start)
MNT=/mnt/demo
KEYS=$(cd "$here/../trusted-tpm2/keys" 2>/dev/null && pwd)	# test-only signers
P=16
LUKS=/initramfs/trusted-keys-luks	# the package's tool, as shipped
PASS='correct horse battery staple'	# the LUKS2 volume's passphrase

# --- narration -----------------------------------------------------------
# say TEXT: a line of the transcript (KTAP diagnostic and console).
say() {
	printf '%s\n' "$*" | sed 's/^/# /'
	printf '%s\n' "$*" | sed 's/^/demo| /' >/dev/ttyS0 2>/dev/null
	return 0
}
# run CMDLINE: show it, run it (eval), show its output, long lines shortened.
_out=
run() {
	say "\$ $1"
	_out=$(eval "$1" 2>&1)
	_rc=$?
	[ -z "$_out" ] || say "$(printf '%s\n' "$_out" |
		awk '{ if (length($0) > 96) printf "%s... (%d characters)\n", substr($0, 1, 64), length($0); else print }' |
		sed 's/^/  /')"
	[ $_rc -eq 0 ] || say "  (exit status $_rc)"
	return $_rc
}
# step N TITLE: a step begins.
step() {
	_sn=$1 _st=$2 _sfail=0
	_s0=$(cut -d' ' -f1 /proc/uptime)
	say ""
	say "=== step $1: $2"
}
# shows TEXT: the step's one line "what this shows".
shows() {
	say "  -> what this shows: $*"
}
# step_end: the step's result line.
step_end() {
	_r=ok
	[ $_sfail = 0 ] || _r=FAIL
	_e=$(awk -v a="$_s0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')
	printf 'demo| @step %s %s %s %s\n' "$_sn" "$_r" "$_e" "$_st" >/dev/ttyS0 2>/dev/null
	echo "# @step $_sn $_r $_e $_st"
}
# ok DESC / bad DESC [WHY]: a check of the current step.
ok() { t_ok "step $_sn: $1"; }
bad() {
	_sfail=1
	say "  !! $1${2:+: $2}"
	t_fail "step $_sn: $1" "${2:-}"
}
# expect DESC CMDLINE: run it; a check that it worked.
expect() {
	if run "$2"; then ok "$1"; else bad "$1" "exit status $_rc"; fi
}
# refuse DESC CMDLINE: run it; a check that it failed.
refuse() {
	if run "$2"; then bad "$1" "it worked"; else ok "$1"; fi
}

# --- the relay's view of the bus (the sniffer), as shell functions --------
# tpmbus mark LABEL | scan HEX [LABEL] | sniff ORD [LABEL] | tamper RULES |
# disarm: tests/relay/relay.py's control command, sent through /dev/tpm0.
tpmbus() {
	_a=$(t_relay_ctl "$*") || { echo "tpmbus: no relay" >&2; return 1; }
	case $_a in error*) echo "tpmbus: $_a" >&2; return 1 ;; esac
	echo "$_a"
}
# hits HEX LABEL: the number of messages of LABEL's segment holding HEX.
hits() {
	_h=$(tpmbus scan "$1" "$2") || return 1
	echo "${_h#hits }"
}
# sniffed32 ORD LABEL: the last 32-byte data of a response to ORD in LABEL
# (the key's GetRandom; the hwrng asks for more at a time).
sniffed32() {
	tpmbus sniff "$1" "$2" | tr ' ' '\n' | awk 'length($0) == 64 { k = $0 } END { print k }'
}
# lockout_counter: the TPM's failed-authorisation count
# (tpm2_getcap properties-variable: TPM2_PT_LOCKOUT_COUNTER).
lockout_counter() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a 000000060000020e00000001)")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "GetCapability: $_r" >&2; return 1; }
	echo "lockoutCounter $((0x$(echo "$_r" | cut -c47-54)))"
}
# pcr_extend N: TPM2_PCR_Extend of PCR N with SHA-256("x") (tpm2_pcrextend).
pcr_extend() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000182 "000000$(printf %02x "$1")0000000940000009000000000000000001000b$(echo x | sha256sum | cut -c1-64)")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "PCR_Extend: $_r" >&2; return 1; }
	echo "PCR $1 (sha256): $(t_tpm2_pcr "$1")"
}

# The modules: our trusted.ko (and ecdh_generic, which the salted sessions
# need: busybox's modprobe does not resolve the crypto alias), dm-crypt.
load_mods() {
	grep -q 'ecdh-nist-p256' /proc/crypto || modprobe ecdh_generic 2>/dev/null
	t_mods_load ours ours >/dev/null 2>&1 || return 1
	modprobe dm-crypt 2>/dev/null
	modprobe crc32c_generic 2>/dev/null	# (ext4 asks for "crc32c" by alias)
	modprobe ext4 2>/dev/null
	grep -q '^trusted ' /proc/modules && grep -q '^dm_crypt ' /proc/modules
}
why=$(t_relay_why)
[ -z "$why" ] || t_skip_all "$why"
load_mods || t_bail "load trusted.ko, dm-crypt and ext4" "$(t_mods_load ours ours 2>&1)"
say "(Debian kernel $(uname -r), our trusted.ko loaded; a TPM 2.0 with its SRK at 0x81000001; every TPM command goes through the recording relay)"

# lk_slice: the LUKS2 partition of the demo: MiB 24-55 of the disk (a
# dm-linear slice standing for /dev/sda3; 16 MiB of LUKS2 header, as the
# installer's, and 16 MiB of data).
lk_slice() {
	dmsetup info lk >/dev/null 2>&1 && return 0
	dmsetup create lk --noudevsync --table "0 65536 linear /dev/vda 49152" &&
		dmsetup mknodes lk
}

# step 6 (phase 1): the disk as the installer makes it, enrolled
luks_enrol() {
	step 6 "the disk Debian's installer makes (LUKS2), a TPM unlock added"
	mkdir -p /run/cryptsetup /etc/trusted-keys
	lk_slice || bad "the LUKS2 partition" "dmsetup"
	expect "LUKS2 as the installer makes it: argon2id, aes-xts-plain64, 512-bit key (lighter argon2 for the demo)" \
		"printf '%s' '$PASS' | cryptsetup luksFormat -q --type luks2 --pbkdf argon2id --pbkdf-memory 32768 --pbkdf-force-iterations 4 --cipher aes-xts-plain64 --key-size 512 --key-file - /dev/mapper/lk && cryptsetup luksDump /dev/mapper/lk | grep -e Version -e cipher: -e PBKDF -e Key:"
	expect "a file system and a file, through cryptsetup with the passphrase" \
		"printf '%s' '$PASS' | cryptsetup open --key-file - /dev/mapper/lk root && mke2fs -q -F /dev/mapper/root && mkdir -p $MNT && mount -t ext4 /dev/mapper/root $MNT && echo 'my root file system' > $MNT/etc-hostname && umount $MNT && cryptsetup close root && echo written"
	run "cryptsetup luksDump /dev/mapper/lk | sed -n '/^Keyslots:/,/^Tokens:/p' | sha256sum | cut -c1-16 > ks.before; cat ks.before"
	expect "trusted-keys-luks enrol (asks for a passphrase: given on stdin here)" \
		"printf '%s' '$PASS' | $LUKS enrol /dev/mapper/lk --key-file=- --$KH"
	expect "what it left: a token in the header, the UUID and cap in /etc/trusted-keys/luks (0600)" \
		"$LUKS status /dev/mapper/lk && cryptsetup luksDump /dev/mapper/lk | sed -n '/^Tokens:/,/^Digests:/p' && ls -l /etc/trusted-keys/luks"
	if run "cryptsetup luksDump /dev/mapper/lk | sed -n '/^Keyslots:/,/^Tokens:/p' | sha256sum | cut -c1-16" &&
		[ "$_out" = "$(cat ks.before)" ]; then
		ok "every keyslot as it was: the passphrase stays the recovery path"
	else
		bad "every keyslot as it was" "$_out"
	fi
	t_state_save luks.conf </etc/trusted-keys/luks
	shows "the installer's LUKS2 disk gets a TPM unlock without re-formatting; the volume key is sealed to this TPM, this boot chain and this volume's header; the passphrase keyslot is untouched"
	step_end
}

phase1() {
	# 1 ------------------------------------------------------------------
	step 1 "a new sealed key, and what a TPM bus sniffer sees"
	run "tpmbus mark new"
	expect "new 32 with a blobauth and logon=" \
		"keyctl add trusted kmk \"new 32 $KH blobauth=$BA logon=demo:disk\" @u"
	kmk=$_out
	expect "the blob" "keyctl pipe $kmk > kmk.blob; wc -c < kmk.blob"
	t_state_save kmk.blob <kmk.blob
	say "  # the key bytes are nowhere in user space (logon=: dm-crypt only); a sniffer learns"
	say "  # them from a load without sessions (sessions=0, what the in-tree module sends):"
	run "tpmbus mark load0"
	expect "load with sessions=0" \
		"keyctl add trusted kmk0 \"load \$(cat kmk.blob) $KH blobauth=$BA sessions=0\" @u"
	run "K=\$(tpmbus sniff 15e load0 | cut -c6-69); echo \"key bytes read off the bus: \$K\""
	K=$(tpmbus sniff 15e load0 | cut -c6-69)
	run "tpmbus mark new0"
	expect "new 32 with sessions=0, for comparison" \
		"keyctl add trusted kmk1 \"new 32 $KH blobauth=$BA sessions=0\" @u"
	K1=$(sniffed32 17b new0)
	G=$(sniffed32 17b new)
	say "  GetRandom's reply as the bus carried it: with sessions $(echo "$G" | cut -c1-24)...,"
	say "  with sessions=0 $(echo "$K1" | cut -c1-24)... (that one is the new key)"
	hk=$(hits "$K" new) hb=$(hits "$BA" new)
	hk1=$(hits "$K1" new0) hb1=$(hits "$BA" new0)
	hk0=$(hits "$K" load0) hb0=$(hits "$BA" load0)
	say "  messages on the bus holding:     key bytes   GetRandom output   blobauth"
	say "$(printf '  %-32s %-11s %-18s %s' "new (ours, sessions)" "$hk" "$hk" "$hb")"
	say "$(printf '  %-32s %-11s %-18s %s' "new sessions=0 (in-tree)" "$hk1" "$hk1" "$hb1")"
	say "$(printf '  %-32s %-11s %-18s %s' "load sessions=0 (in-tree)" "$hk0" "-" "$hb0")"
	if [ ${#K} = 64 ] && [ "$hk" = 0 ] && [ "$hb" = 0 ]; then
		ok "new with sessions: key bytes, GetRandom output and blobauth in 0 messages"
	else
		bad "new with sessions: key bytes, GetRandom output and blobauth in 0 messages" \
			"key ${K:-unknown}: $hk, blobauth: $hb"
	fi
	if [ ${#K1} = 64 ] && [ "${hk1:-0}" -gt 0 ] 2>/dev/null && [ "${hb1:-0}" -gt 0 ] 2>/dev/null &&
		[ "${hk0:-0}" -gt 0 ] 2>/dev/null; then
		ok "sessions=0: the sniffer sees key bytes and blobauth"
	else
		bad "sessions=0: the sniffer sees key bytes and blobauth" "new: $hk1, $hb1; load: $hk0"
	fi
	if [ -n "$G" ] && [ "$G" != "$K" ]; then
		ok "GetRandom's reply crossed encrypted"
	else
		bad "GetRandom's reply crossed encrypted" "${G:-no 32-byte GetRandom reply}"
	fi
	t_drop kmk0 kmk1
	shows "with our sessions no message on the TPM bus holds the key or its blobauth (0 messages), so a bus sniffer learns nothing; the in-tree behaviour (sessions=0) hands both to anyone on the bus"
	step_end

	# 2 ------------------------------------------------------------------
	step 2 "keys under it: an encrypted key, a dm-crypt volume, a file"
	if run "keyctl add encrypted evm \"new trusted:kmk 32\" @u > evm.id && keyctl pipe \$(cat evm.id) > evm.blob && cut -c1-60 evm.blob"; then
		ok "an encrypted key under kmk"
		t_state_save evm.blob <evm.blob
	elif t_keytype_builtin encrypted; then
		say "  # Debian's kernel has the encrypted type built in, compiled without trusted keys"
		say "  # (CONFIG_TRUSTED_KEYS unset): it cannot use a trusted master. dm-crypt takes the"
		say "  # sealed key itself, as a logon key (logon=demo:disk above):"
		ok "an encrypted key under kmk: refused by this kernel's built-in type, as expected"
	else
		bad "an encrypted key under kmk"
	fi
	expect "the logon key made by logon=" "keyctl show @s | grep -e trusted -e logon"
	expect "dm-crypt opens a volume from the sealed key" \
		"dmsetup create demo --noudevsync --table \"0 $VOL crypt aes-cbc-plain64 :32:logon:demo:disk 0 /dev/vda 0\" && dmsetup mknodes demo && dmsetup table demo"
	expect "a file system on it, a file written" \
		"mke2fs -F /dev/mapper/demo >/dev/null && mkdir -p $MNT && mount -t ext4 /dev/mapper/demo $MNT && echo 'the TPM keeps this safe' > $MNT/secret.txt && sync && ls -l $MNT/secret.txt"
	umount $MNT 2>/dev/null
	dk_close
	refuse "the disk holds no plaintext" "dd if=/dev/vda bs=1M count=16 2>/dev/null | grep -c 'the TPM keeps this safe'"
	shows "a disk key sealed by the TPM unlocks a dm-crypt volume on Debian's own kernel; no program ever holds the key"
	step_end
}

# dk_close: the volume closed.
dk_close() {
	umount $MNT 2>/dev/null
	dmsetup remove --noudevsync demo >/dev/null 2>&1
	dmsetup mknodes >/dev/null 2>&1
	return 0
}

phase2() {
	t_state_get kmk.blob >kmk.blob || t_skip_all "boot 1 saved no blob"
	# 3 ------------------------------------------------------------------
	step 3 "reboot: the blob loads, the volume opens, the file reads back"
	expect "the blob loads (with its blobauth)" \
		"keyctl add trusted kmk \"load \$(cat kmk.blob) $KH blobauth=$BA logon=demo:disk\" @u"
	expect "the volume opens" \
		"dmsetup create demo --noudevsync --table \"0 $VOL crypt aes-cbc-plain64 :32:logon:demo:disk 0 /dev/vda 0\" && dmsetup mknodes demo"
	if run "mkdir -p $MNT && mount -t ext4 /dev/mapper/demo $MNT && cat $MNT/secret.txt" &&
		[ "$_out" = "the TPM keeps this safe" ]; then
		ok "the file reads back"
	else
		bad "the file reads back" "$_out"
	fi
	dk_close
	refuse "a wrong blobauth does not load it" \
		"keyctl add trusted kmkx \"load \$(cat kmk.blob) $KH blobauth=$BAX\" @u"
	t_tpm2_da_reset >/dev/null 2>&1
	shows "after a reboot the same TPM unseals the blob and the volume opens: the disk needs this machine's TPM (and the blobauth)"
	step_end

	# 4 ------------------------------------------------------------------
	step 4 "a signed policy: the key follows a PCR change without a reseal"
	if ! command -v trusted-policy >/dev/null || [ -z "$(t_tpm2_pcr $P)" ]; then
		bad "trusted-policy and PCR $P" "not in this initramfs"
	else
		expect "the signer's public key" \
			"trusted-policy signer-public --signer $KEYS/ec.pem -o signer.pub && xxd -p signer.pub | tr -d '\\n' > signer.hex; wc -c < signer.pub"
		expect "a key sealed to the signer (policykey=)" \
			"keyctl add trusted pk \"new 32 policykey=\$(cat signer.hex)\" @u"
		run "keyctl pipe \$(keyctl search @u trusted pk) > pk.blob; echo \"$P: \$(tr A-F a-f < /sys/class/tpm/tpm0/pcr-sha256/$P)\" > pcr.txt; cat pcr.txt"
		expect "the signer approves PCR $P as it is" \
			"trusted-policy add --signer $KEYS/ec.pem --pcrs sha256:$P --pcr-values pcr.txt --name boot1 pk.blob pk1.blob && echo approved"
		expect "the key loads with that approval" "keyctl add trusted pk1 \"load \$(cat pk1.blob)\" @u"
		expect "PCR $P extended (an update of what is measured)" "pcr_extend $P"
		refuse "the old approval is refused" "keyctl add trusted pk2 \"load \$(cat pk1.blob)\" @u"
		expect "the signer approves the new value" \
			"echo \"$P: \$(tr A-F a-f < /sys/class/tpm/tpm0/pcr-sha256/$P)\" > pcr.txt && trusted-policy add --signer $KEYS/ec.pem --pcrs sha256:$P --pcr-values pcr.txt --name boot2 pk1.blob pk2.blob && echo approved"
		expect "the same blob loads with it, no reseal" "keyctl add trusted pk2 \"load \$(cat pk2.blob)\" @u"
		b0=$(cat pk.blob) b2=$(cat pk2.blob)
		if [ "$(t_tpm2_der_get "$b2" 04 2)" = "$(t_tpm2_der_get "$b0" 04 2)" ] &&
			[ -n "$(t_tpm2_der_get "$b0" 04 2)" ]; then
			say "  (the sealed object in pk2.blob is byte for byte the one new made)"
			ok "the same TPM object: nothing resealed"
		else
			bad "the same TPM object: nothing resealed"
		fi
		# A PIN: blobauth= on a pcrs= key; a wrong try counts.
		t_tpm2_da_reset >/dev/null 2>&1 && t_tpm2_da_params 32 600 600 >/dev/null 2>&1
		expect "a key with a PIN (blobauth=) and a PCR policy" \
			"keyctl add trusted pin \"new 32 $KH pcrs=sha256:$P blobauth=4711\" @u && keyctl pipe \$(keyctl search @u trusted pin) > pin.blob; lockout_counter"
		refuse "a wrong PIN is refused" "keyctl add trusted pinx \"load \$(cat pin.blob) $KH blobauth=0815\" @u"
		if run "lockout_counter" && [ "$_out" = "lockoutCounter 1" ]; then
			ok "the TPM counted the wrong try"
		else
			bad "the TPM counted the wrong try" "$_out"
		fi
		expect "the right PIN loads it" "keyctl add trusted pin2 \"load \$(cat pin.blob) $KH blobauth=4711\" @u"
		t_tpm2_da_restore >/dev/null 2>&1
	fi
	shows "a key sealed to a signer survives a PCR change: a new signed approval, not a reseal; old approvals stop working; a PIN's wrong tries count toward the TPM's lockout"
	step_end

	# 5 ------------------------------------------------------------------
	step 5 "a forged TPM reply"
	K=
	run "tpmbus mark forged"
	expect "the relay will forge the next Unseal reply (one byte of outData)" "tpmbus tamper 15e:flip=16"
	t_tpm2_dmesg_mark
	refuse "a load given the forged reply is refused" \
		"keyctl add trusted kmkf \"load \$(cat kmk.blob) $KH blobauth=$BA\" @u"
	e=$_out
	run "tpmbus disarm"
	if [ "$_out" = "fired 1" ] && t_relay_errno_ok "$e" >/dev/null && t_key_absent trusted kmkf; then
		ok "refused ($(t_relay_errno_ok "$e")), no key made"
	else
		bad "refused, no key made" "$_out; $e"
	fi
	expect "the kernel log says why" "dmesg | grep ' trusted: ' | tail -n 2 | cut -c16-"
	run "tpmbus scan $BA forged; tpmbus sniff 15e forged | cut -c1-40"
	if [ "$(hits "$BA" forged)" = 0 ]; then
		ok "nothing secret on the bus"
	else
		bad "nothing secret on the bus"
	fi
	expect "a clean load still works" \
		"keyctl add trusted kmkg \"load \$(cat kmk.blob) $KH blobauth=$BA\" @u"
	shows "an interposer who forges TPM replies gets a refusal, not a wrong key, and learns nothing: every reply is authenticated and its data encrypted"
	step_end
}

# step 7 (phase 2): the boot unlock, then a changed boot and the passphrase
luks_boot() {
	step 7 "reboot: the TPM opens the LUKS2 volume (no prompt); a changed boot gets the passphrase"
	mkdir -p /run/cryptsetup /etc/trusted-keys
	t_state_get luks.conf >/etc/trusted-keys/luks || bad "the config of boot 1"
	lk_slice || bad "the LUKS2 partition" "dmsetup"
	run "printf '%s' '$PASS' | cryptsetup luksDump --dump-volume-key -q --volume-key-file vk --key-file - /dev/mapper/lk >/dev/null; od -An -v -tx1 vk | tr -d ' \\n' > vk.hex; rm -f vk; echo '(the volume key, for the sniffer check below only)'"
	run "tpmbus mark luks"
	expect "what the initramfs runs before cryptroot: open with the TPM-sealed key" \
		"$LUKS open /dev/mapper/lk root"
	if run "mount -t ext4 /dev/mapper/root $MNT && cat $MNT/etc-hostname" && [ "$_out" = "my root file system" ]; then
		ok "no prompt: the volume opened and the file reads back"
	else
		bad "no prompt: the volume opened and the file reads back" "$_out"
	fi
	umount $MNT 2>/dev/null
	expect "a LUKS2 mapping like cryptsetup's (cryptsetup status)" \
		"cryptsetup status root | grep -e type -e cipher -e keysize -e 'key location'"
	h=$(hits "$(cat vk.hex)" luks) h2=$(hits "$(cut -c1-64 vk.hex)" luks)
	say "  messages on the bus holding the volume key (or its first half): $h ($h2)"
	if [ "$h" = 0 ] && [ "$h2" = 0 ]; then
		ok "the volume key crossed the TPM bus in 0 messages"
	else
		bad "the volume key crossed the TPM bus in 0 messages" "$h, $h2"
	fi
	rm -f vk.hex
	dmsetup remove --noudevsync root >/dev/null 2>&1
	say "  # the next boot's firmware, boot loader or kernel measure something else"
	say "  # (PCR 9: what GRUB measures of the kernel and initramfs). Then:"
	expect "a changed boot (PCR 9 extended)" "pcr_extend 9"
	refuse "the TPM refuses the key: the volume stays closed" "$LUKS open /dev/mapper/lk root"
	expect "cryptroot's usual prompt: the passphrase opens it" \
		"printf '%s' '$PASS' | cryptsetup open --key-file - /dev/mapper/lk root && mount -t ext4 /dev/mapper/root $MNT && cat $MNT/etc-hostname"
	umount $MNT 2>/dev/null
	dmsetup remove --noudevsync root >/dev/null 2>&1
	expect "the initramfs's last step, on every path: PCR 15 capped" "$LUKS cap sha256:15 && t_tpm2_pcr 15"
	refuse "root after the boot (or a system booted through the prompt): the key no longer unseals" \
		"$LUKS open /dev/mapper/lk root"
	shows "the TPM opens the installer's LUKS2 volume with no prompt and the volume key never crosses the bus or enters user space; a changed boot falls back to the passphrase, and after the unlock nothing in this boot unseals the key again"
	step_end
}

case $TKH_PHASE in
1) phase1; luks_enrol ;;
2) phase2; luks_boot ;;
*) t_skip_all "phase $TKH_PHASE: nothing to do" ;;
esac
dk_close
dmsetup remove --noudevsync root >/dev/null 2>&1
dmsetup remove --noudevsync lk >/dev/null 2>&1
