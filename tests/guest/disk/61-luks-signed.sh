#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A LUKS2 volume enrolled with a signed policy (trusted-keys-luks enrol
# --signed) whose approvals initramfs/trusted-keys-sign signs, both as
# shipped, against this TPM and its revocation counter. The predictor is a
# stand-in (the PCRs of this boot, which the next boot of this machine
# repeats: the real one needs UEFI's event log, make realsys-uefi), and so
# are tpm2_nvread/tpm2_nvincrement (the same TPM commands, raw).
# Phase 1: the counter defined; enrol lkd --signed (sealed to the signer
# and the counter, no PCR values); sign approves the next boot (PCRs 0, 7
# and the cap PCR at its reset value, the counter bound) into the token;
# the volume opens before the cap, not after it. Phase 2, the next boot:
# opens with no passphrase; sign again with the same PCRs: nothing signed;
# a second approval (--force); revoke-older: the counter up to that
# approval's bound, the first approval gone from the token, the volume
# still opens; the counter once more (as a later revoke-older would):
# every approval refused by the TPM; the passphrase still opens it.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"
. "$here/../lib/tpm2.sh"

t_disk_begin ours
t_require tpm 2.0
t_require cmd cryptsetup
t_require cmd trusted-policy
[ -e /proc/locks ] || t_skip_all "cryptsetup needs file locks (flock): this kernel has no CONFIG_FILE_LOCKING"
L=/initramfs/trusted-keys-luks
S=/initramfs/trusted-keys-sign
D=/tmp/dk61
NV=01800103
# the cap PCR: 12 (60-luks caps 13, 50-luks-key 15, in the same boots)
C=12
mkdir -p $D/bin $D/etc $D/dev /run/cryptsetup
export TRUSTED_KEYS_ETC=$D/etc TRUSTED_KEYS_LUKS=$D/etc/luks TRUSTED_KEYS_PATH=$D/bin
export TRUSTED_KEYS_DEVDIR=$D/dev TRUSTED_KEYS_EVENTLOG=$D/eventlog DM_DISABLE_UDEV=1
printf 'correct horse battery' >$D/pass
: >$D/eventlog

# the stand-ins, and the tools by name (trusted-keys-luks calls them so)
cat >$D/bin/tk-pcr-predict <<'EOF'
#!/bin/sh
# tk-pcr-predict predict ... --pcrs LIST ...: this boot's values; entries
# (GRUB's menu, sign's menu kernels): none here, no GRUB
[ "$1" != entries ] || exit 0
while [ $# -gt 0 ]; do [ "$1" = --pcrs ] && l=$2; shift; done
for p in $(echo "$l" | tr , ' '); do
	echo "$p $(tr -d ' \n' </sys/class/tpm/tpm0/pcr-sha256/"$p" | tr A-F a-f)"
done
EOF
# tpm_cmd HEX: one raw TPM command, its response in hex (a function's text
# for the scripts below)
# shellcheck disable=SC2016
tpm_cmd='tpm_cmd() {
	(exec 5<>/dev/tpm0 && echo "$1" | xxd -r -p >&5 && dd bs=4096 count=1 <&5 2>/dev/null) |
		xxd -p | tr -d "\n"
}'
cat >$D/bin/tpm2_nvread <<EOF
#!/bin/sh
# tpm2_nvread -C 0xNV -s 8 0xNV: NV_Read of 8 bytes, the index's own authorisation
$tpm_cmd
nv=\${2#0x}
r=\$(tpm_cmd "8002000000230000014e\${nv}\${nv}00000009400000090000000000""00080000")
[ "\$(echo "\$r" | cut -c13-20)" = 00000000 ] || { echo "NV_Read: \$r" >&2; exit 1; }
echo "\$r" | cut -c33-48 | xxd -r -p
EOF
cat >$D/bin/tpm2_nvincrement <<EOF
#!/bin/sh
# tpm2_nvincrement -C o 0xNV: NV_Increment by the owner (empty password)
$tpm_cmd
nv=\${3#0x}
r=\$(tpm_cmd "80020000001f0000013440000001\${nv}00000009400000090000000000")
[ "\$(echo "\$r" | cut -c13-20)" = 00000000 ] || { echo "NV_Increment: \$r" >&2; exit 1; }
EOF
# tpm2_getcap handles-nv-index: the counter is there (counter_define, below)
printf '#!/bin/sh\necho "- 0x%x"\n' $((0x$NV)) >$D/bin/tpm2_getcap
chmod +x $D/bin/*
ln -sf $S $D/bin/trusted-keys-sign
ln -sf $L $D/bin/trusted-keys-luks

# slice: lkd, MiB 64-71 of the disk (60-luks has 40-63)
slice() {
	t_dm_remove lkd
	dmsetup create lkd --noudevsync --table "0 16384 linear /dev/vda 131072" || return 1
	dmsetup mknodes lkd >/dev/null 2>&1
}
uuid() { cryptsetup luksUUID /dev/mapper/lkd; }
# config: the signing configuration (the test's signer key, no ESP here)
config() {
	cp "$here/../trusted-tpm2/keys/ec.pem" $D/etc/signer.pem && chmod 0600 $D/etc/signer.pem || return 1
	ln -sf /dev/mapper/lkd "$D/dev/$(uuid)"
}
# opens: the volume maps from its token with no passphrase, reads its data
opens() {
	$L open /dev/mapper/lkd v61 >&2 || return 1
	s=$(t_disk_sum /dev/mapper/v61)
	t_dm_remove v61
	[ "$s" = "$(cat $D/sum)" ] || { echo "read $s, expected $(cat $D/sum)" >&2; return 1; }
}
refused() {
	if $L open /dev/mapper/lkd v61 </dev/null >$D/out 2>$D/err; then
		t_dm_remove v61
		echo "opened" >&2
		return 1
	fi
	sed 's/^/said: /' $D/err >&2
	grep -q "TPM refused" $D/err
}
token_has() {
	$L blob /dev/mapper/lkd >$D/t.hex && trusted-policy list $D/t.hex >$D/t.list 2>&1 || return 1
	grep -qF "$1" $D/t.list || { cat $D/t.list >&2; return 1; }
}
not_in_token() {
	$L blob /dev/mapper/lkd >$D/t.hex && trusted-policy list $D/t.hex >$D/t.list 2>&1 || return 1
	! grep -q " $1 " $D/t.list
}
count() { t_tpm2_nv_count $NV; }
counter_define() { t_tpm2_nv_define $NV && [ "$(t_tpm2_nv_increment $NV)" = 00000000 ]; }

phase1() {
	t_check "set-up: a dm-linear slice of the disk" slice || { t_skip_rest "no slice"; return; }
	t_tpm2_nv_undefine $NV
	t_check "the revocation counter: NV_DefineSpace, NV_Increment (owner)" counter_define ||
		{ t_skip_rest "no counter"; return; }
	t_check "lkd: luksFormat, data written by cryptsetup's own mapping" sh -c "
		cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
			--luks2-metadata-size 16k --luks2-keyslots-size 512k --key-file $D/pass /dev/mapper/lkd &&
		cryptsetup open --key-file $D/pass /dev/mapper/lkd reflkd &&
		dd if=/dev/urandom of=/dev/mapper/reflkd bs=1048576 count=1 conv=fsync 2>/dev/null &&
		cryptsetup close reflkd"
	cryptsetup open --key-file $D/pass /dev/mapper/lkd reflkd && t_disk_sum /dev/mapper/reflkd >$D/sum
	cryptsetup close reflkd
	t_check "set-up: the signer key" config
	t_check "enrol lkd --signed: sealed to the signer and counter $NV" $L enrol /dev/mapper/lkd \
		--key-file=$D/pass --keyhandle=0x81000001 --pcrs=sha256:0,7 --cap=$C --signed --counter=$NV
	t_check "status: enrolled, signed policy yes" sh -c "$L status /dev/mapper/lkd | grep -q 'signed policy yes'"
	t_check "the configuration: the signer, PCRs 0,7, the counter" \
		sh -c "grep -qx 'pcrs 0,7' $D/etc/signing && grep -qx 'counter $NV' $D/etc/signing"
	echo "predict --part hd0,gpt1=/" >>$D/etc/signing
	t_check "enrolled, not yet approved: the TPM refuses" refused
	c=$(count)
	t_check "sign: the next boot approved (bound $((c + 1)))" sh -c "$S sign 2>&1 | grep -q 'approved (boot-$((c + 1))'"
	t_check "the token holds it: PolicyPCR(sha256:0,7,$C), PolicyNV(<= $((c + 1)))" \
		token_has "boot-$((c + 1)) PolicyPCR(sha256:0,7,$C) PolicyNV(counter 0x$NV <= $((c + 1)))"
	t_check "before the cap: opens with the approval" opens
	t_check "cap PCR $C (the initramfs's last step)" $L cap sha256:$C
	t_check "after the cap: the TPM refuses" refused
	{ echo "c $c"; sed 's/^/a /' $D/etc/approvals; } | t_state_save disk-luks-signed
}

phase2() {
	t_state_get disk-luks-signed >$D/saved || { t_skip_rest "phase 1 saved nothing"; return; }
	t_check "set-up: the slice again" slice || { t_skip_rest "no slice"; return; }
	c=$(sed -n 's/^c //p' $D/saved)
	sed -n 's/^a //p' $D/saved >$D/etc/approvals
	printf 'signer %s\npcrs 0,7\ncounter %s\nkeep 4\npredict --part hd0,gpt1=/\n' $D/etc/signer.pem $NV >$D/etc/signing
	echo "$(uuid) sha256:$C" >$D/etc/luks
	cryptsetup open --key-file $D/pass /dev/mapper/lkd reflkd && t_disk_sum /dev/mapper/reflkd >$D/sum
	cryptsetup close reflkd
	t_check "set-up: the signer key" config
	t_check "the next boot: opens with no passphrase (the approval of phase 1)" opens
	t_check "sign again, the same PCRs: approved already, nothing signed" \
		sh -c "$S sign 2>&1 | grep -q 'approved already (boot-$((c + 1)))'"
	t_check "sign --force: a second approval, bound $((c + 2))" \
		sh -c "$S sign --force 2>&1 | grep -q 'approved (boot-$((c + 2))'"
	t_check "revoke-older: this boot is boot-$((c + 2))'s, the counter goes up to it" $S revoke-older
	t_check "the counter is $((c + 2))" t_eq counter "$(count)" $((c + 2))
	t_check "revoke-older: boot-$((c + 1)) left the token" not_in_token boot-$((c + 1))
	t_check "the newer approval still opens it" opens
	t_check "the counter once more ($((c + 3))): NV_Increment" t_eq rc "$(t_tpm2_nv_increment $NV)" 00000000
	t_check "every approval revoked: the TPM refuses" refused
	t_check "the passphrase still opens lkd" cryptsetup open --test-passphrase --key-file $D/pass /dev/mapper/lkd
	$L cap sha256:$C
	t_tpm2_nv_undefine $NV
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
t_dm_remove v61 reflkd lkd
