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
# boot's PCRs, PolicyCommandCode(Unseal), PolicyAuthorize, Unseal. KTAP
# on ttyS1; then powers off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
exec 3>/dev/ttyS1 4>/dev/ttyS2
echo "KTAP version 1" >&3
echo "1..6" >&3
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
	echo "ok 6 the TPM unseals with the update hook's approval # SKIP no approval in this boot (the update's hook signs it)" >&3
fi
echo "# tk-init: done" >&3
sync
systemctl --no-block poweroff
