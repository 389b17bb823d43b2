#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite realsys-uefi: the check of the UEFI real system after a boot
# (tests/realsys/uefi.sh installs it as /usr/local/sbin/tek-realsys-check,
# run by tek-realsys-check.service once the system is up; not run by
# tests/guest/init). The firmware (OVMF, Secure Boot with Microsoft's keys)
# booted Debian's signed shim, signed GRUB and signed kernel from the disk.
# Points: Secure Boot is on (mokutil and the EFI variable), the kernel
# says so too, the TCG event log is there, the PCRs can be read; the log,
# the PCR values (sysfs and tpm2_pcrread), the command line and the
# kernel's release go to the host (ttyS2, "NAME BASE64" lines), which
# replays the log (tools/tk-pcr-predict). After the update (boot 2), the
# approval that the update's hook signed (/var/lib/tek-approval: its
# signature and signer, taken from the blob on the host) must get a secret
# sealed to the signer out of the TPM: VerifySignature, PolicyPCR over this
# boot's PCRs, PolicyCommandCode(Unseal), PolicyAuthorize, Unseal. Then
# our module under Secure Boot, in both boots (each kernel's DKMS build):
# the kernel is locked down, the DKMS certificate that the host put into
# shim's MokList is in the kernel's keyrings, the module without its
# signature is refused, `modprobe trusted` loads ours from updates/dkms
# (its parents parameter, no unsigned-module taint), and a trusted key
# sealed by the TPM 2.0 (import= of a known key) loads again from its blob
# with keydigest= (PBKDF2 of the known key: the same key bytes; another
# digest refused). KTAP on ttyS1; then powers off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
exec 3>/dev/ttyS1 4>/dev/ttyS2
echo "KTAP version 1" >&3
echo "1..11" >&3
i=0
t() { # DESCRIPTION CMD...: one test point
	d=$1
	shift
	i=$((i + 1))
	if "$@"; then echo "ok $i $d" >&3; else echo "not ok $i $d" >&3; fi
}
save() { # NAME FILE: to the host, in chunks of whole base64 quanta
	base64 -w 3000 "$2" | sed "s/^/$1 /" >&4
}
sb_on() {
	s=$(mokutil --sb-state 2>&1)
	echo "# mokutil --sb-state: $s" >&3
	# SecureBoot-8be4df61-...: 4 bytes of attributes, then the value
	v=$(od -An -tu1 -j4 -N1 /sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c 2>/dev/null |
		tr -d ' ')
	echo "# EFI variable SecureBoot: ${v:-none}" >&3
	case $s in *"SecureBoot enabled"*) ;; *) return 1 ;; esac
	[ "$v" = 1 ]
}
t "Secure Boot is on (mokutil --sb-state, the EFI variable SecureBoot)" sb_on
kernel_sb() {
	dmesg | grep -iE 'secure ?boot' | sed 's/^/# /' >&3
	dmesg | grep -q 'Secure boot enabled'
}
t "the kernel booted in Secure Boot mode (dmesg)" kernel_sb
log=/sys/kernel/security/tpm0/binary_bios_measurements
evlog() {
	# (securityfs's files say size 0: read it to know)
	cat "$log" >/run/eventlog.bin 2>/dev/null
	[ -s /run/eventlog.bin ] || { echo "# no $log, or empty" >&3; ls -l /sys/kernel/security/ >&3; return 1; }
	echo "# $log: $(wc -c </run/eventlog.bin) bytes" >&3
	save eventlog.bin /run/eventlog.bin
}
t "the TCG event log ($log)" evlog
pcrs() {
	: >/run/pcrs.sysfs
	for n in $(seq 0 23); do
		v=$(cat /sys/class/tpm/tpm0/pcr-sha256/"$n") || return 1
		echo "$n $v" >>/run/pcrs.sysfs
	done
	sed 's/^/# /' /run/pcrs.sysfs >&3
	save pcrs.sysfs /run/pcrs.sysfs
	tpm2_pcrread sha256:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 >/run/pcrs.tpm2 2>&1 || {
		sed 's/^/# /' /run/pcrs.tpm2 >&3
		return 1
	}
	save pcrs.tpm2 /run/pcrs.tpm2
}
t "the PCRs (sysfs pcr-sha256, tpm2_pcrread)" pcrs
facts() {
	cat /proc/cmdline >/run/cmdline
	uname -r >/run/release
	save cmdline /run/cmdline
	save release /run/release
	echo "# $(uname -r): $(cat /proc/cmdline)" >&3
	# (the boot's start to now, as the kernel counts it)
	echo "# up $(cut -d' ' -f1 /proc/uptime) s in Linux" >&3
	[ -d /sys/firmware/efi ]
}
t "booted by UEFI: $(uname -r)" facts
A=/var/lib/tek-approval
approval() {
	cd /run || return 1
	head -c 32 /dev/urandom >secret
	tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -c prim.ctx \
		-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt' &&
	tpm2_create -Q -C prim.ctx -i secret -L $A/auth.bin -a 'fixedtpm|fixedparent' -u o.pub -r o.priv &&
	tpm2_flushcontext -t &&
	tpm2_loadexternal -Q -C o -u $A/signer.pub -c s.ctx -n s.name &&
	tpm2_verifysignature -Q -c s.ctx -g sha256 -m $A/approved.bin -s $A/sig.bin -t s.tkt &&
	tpm2_flushcontext -t && tpm2_load -Q -C prim.ctx -u o.pub -r o.priv -c o.ctx &&
	tpm2_startauthsession -Q --policy-session -S p.ctx &&
	tpm2_policypcr -Q -S p.ctx -l "$(cat $A/pcrs)" &&
	tpm2_policycommandcode -Q -S p.ctx TPM2_CC_Unseal &&
	tpm2_policyauthorize -Q -S p.ctx -i $A/approved.bin -n s.name -t s.tkt &&
	tpm2_unseal -c o.ctx -p session:p.ctx -o out.bin && cmp out.bin secret
}
if [ -d $A ]; then
	t "the TPM unseals with the update hook's approval ($(cat $A/pcrs), this boot's PCRs)" approval
	tpm2_flushcontext p.ctx 2>/dev/null
	tpm2_flushcontext -t 2>/dev/null
else
	i=$((i + 1))
	echo "ok $i the TPM unseals with the update hook's approval # SKIP no approval in this boot (the update's hook signs it)" >&3
fi
lockdown() {
	l=$(cat /sys/kernel/security/lockdown 2>&1)
	echo "# /sys/kernel/security/lockdown: $l" >&3
	dmesg | grep -i 'lockdown' | sed 's/^/# /' >&3
	case $l in *"[integrity]"* | *"[confidentiality]"*) ;; *) return 1 ;; esac
}
t "the kernel is locked down (integrity or confidentiality)" lockdown
M=/lib/modules/$(uname -r)/updates/dkms
mok_key() {
	for k in .platform .machine; do
		keyctl list "%:$k" 2>&1 | sed "s/^/# $k: /" >&3
	done
	dmesg | grep -i "DKMS module signing key" | sed 's/^/# /' >&3
	for k in .platform .machine; do
		keyctl list "%:$k" 2>/dev/null | grep -q "asymmetric: DKMS module signing key:" && return 0
	done
	return 1
}
t "the DKMS certificate (shim's MokList) is in the kernel's .platform or .machine keyring" mok_key
U=/usr/local/lib/tek-realsys/trusted-unsigned-$(uname -r).ko
unsigned_refused() {
	[ -f "$U" ] || { echo "# no $U" >&3; return 1; }
	before=$(grep -c '^trusted ' /proc/modules)
	if out=$(insmod "$U" 2>&1); then
		echo "# insmod of the unsigned module succeeded" >&3
		rmmod trusted
		return 1
	fi
	echo "# insmod $U: $out" >&3
	dmesg | grep -iE 'unsigned module|Loading of .* is rejected' | sed 's/^/# /' >&3
	case $out in *"Key was rejected by service"* | *"Operation not permitted"*) ;; *) return 1 ;; esac
	[ "$(grep -c '^trusted ' /proc/modules)" = "$before" ]
}
t "trusted.ko without its signature is refused (EKEYREJECTED or the lockdown's EPERM)" unsigned_refused
ours_loaded() {
	out=$(modprobe trusted 2>&1) || { echo "# modprobe trusted: $out" >&3; return 1; }
	p=$(modinfo -n trusted)
	echo "# modinfo -n trusted: $p; signer: $(modinfo -F signer trusted)" >&3
	echo "# /proc/modules: $(grep '^trusted ' /proc/modules)" >&3
	case $p in "$M"/trusted.ko*) ;; *) return 1 ;; esac
	[ -e /sys/module/trusted/parameters/parents ] || { echo "# no parents parameter: not ours" >&3; return 1; }
	# taint flags: O (out of tree) yes, E (unsigned module) no
	grep '^trusted ' /proc/modules | grep -q '(O)'
}
t "modprobe trusted loads ours ($M, its parents parameter, taint O and not E)" ours_loaded
# a known key (tests/guest/disk/50-luks-key.sh's) and its LUKS2-style
# digest: hashlib.pbkdf2_hmac('sha256', K, S, 1000)
K=9a7e9ce8fa6798f4f04beeca0a5abb8ea443d08c49ef8c1909ef8c708dd79369
S=c303b3b1e5d1eee2f23be53e629a594ac08badf1c7ed98f6507424bcefd6fac3
D=f454fb8a95d6cbdee25f8331c4c73dca8d4a63f7bef16155c5a789ccbe41ccc3
D2=356054777e290fafbf7021bec696434d80ea035f57ca66d407f6ff1e2d409959
KH=keyhandle=0x81000001
# (in @s: a service's session keyring does not link @u, and a key is read
# only by a process that possesses it)
round_trip() {
	id=$(keyctl add trusted uefi_k "new 32 $KH import=$K" @s 2>&1) ||
		{ echo "# new: $id" >&3; return 1; }
	blob=$(keyctl pipe "$id" 2>&1) || { echo "# pipe: $blob" >&3; return 1; }
	echo "# the blob: $(printf %s "$blob" | wc -c) hex digits" >&3
	id2=$(keyctl add trusted uefi_k2 "load $blob $KH keydigest=pbkdf2:sha256:1000:$S:$D" @s 2>&1) ||
		{ echo "# load: $id2" >&3; return 1; }
	[ "$(keyctl pipe "$id2")" = "$blob" ] || { echo "# load: another blob" >&3; return 1; }
	if out=$(keyctl add trusted uefi_k3 "load $blob $KH keydigest=pbkdf2:sha256:1000:$S:$D2" @s 2>&1); then
		echo "# another digest: loaded" >&3
		return 1
	fi
	echo "# another digest: $out" >&3
	case $out in *"Key was rejected by service"*) ;; *) return 1 ;; esac
}
t "a trusted key on the TPM 2.0: new import=K, keyctl pipe, load with K's keydigest= (another refused)" round_trip
echo "# tk-init: done" >&3
sync
systemctl --no-block poweroff
