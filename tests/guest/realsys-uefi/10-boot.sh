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
# replays the log (tools/tk-pcr-predict). KTAP on ttyS1; then powers off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
exec 3>/dev/ttyS1 4>/dev/ttyS2
echo "KTAP version 1" >&3
echo "1..5" >&3
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
echo "# tk-init: done" >&3
sync
systemctl --no-block poweroff
