# SPDX-License-Identifier: GPL-2.0
# The real systems' checks' shared part (tests/guest/realsys/10-volumes.sh,
# tests/guest/realsys-luks/10-root.sh), sourced by them in the booted
# image, where rs_check_service (lib.sh) installs it as
# /usr/local/lib/tek-realsys/check.sh: KTAP on ttyS1 once the serial
# getty's login prompt is on the console, the test points, the end.
# shellcheck shell=sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
exec 3>/dev/ttyS1
i=0

# rc_start N: wait for the serial getty's login prompt (host-check looks for
# it: agetty records its LOGIN entry in utmp just before it prompts), then
# the KTAP header of N points.
rc_start() {
	for _ in $(seq 60); do
		who -l 2>/dev/null | grep -q ttyS0 && break
		sleep 1
	done
	sleep 2
	echo "KTAP version 1" >&3
	echo "1..$1" >&3
}

t() { # DESCRIPTION CMD...: one test point
	d=$1
	shift
	i=$((i + 1))
	if "$@"; then echo "ok $i $d" >&3; else echo "not ok $i $d" >&3; fi
}
skip() { i=$((i + 1)); echo "ok $i $1 # SKIP $2" >&3; }

# (a grep that finds nothing is the pass; what it finds is shown)
no_alg_fail() {
	if dmesg | grep -qE 'alg: .*failed'; then
		dmesg | grep -E 'alg: .*failed' | sed 's/^/# /' >&3
		return 1
	fi
}

# rc_save NAME FILE: FILE to the host (ttyS2), "NAME BASE64" lines of whole
# base64 quanta; boot.sh writes it to OUTDIR/state/NAME.
rc_save() {
	base64 -w 3000 "$2" | sed "s/^/$1 /" >/dev/ttyS2
}

# rc_state: the UEFI machines' facts to the host: the TCG event log, the
# PCRs (sysfs, tpm2_pcrread), the command line, the release.
rc_state() {
	cat /sys/kernel/security/tpm0/binary_bios_measurements >/run/eventlog.bin 2>/dev/null
	[ -s /run/eventlog.bin ] || { echo "# no TCG event log" >&3; return 1; }
	: >/run/pcrs.sysfs
	for p in $(seq 0 23); do
		echo "$p $(cat /sys/class/tpm/tpm0/pcr-sha256/"$p")" >>/run/pcrs.sysfs || return 1
	done
	tpm2_pcrread sha256:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 >/run/pcrs.tpm2 2>&1 || return 1
	cat /proc/cmdline >/run/cmdline
	uname -r >/run/release
	for f in eventlog.bin pcrs.sysfs pcrs.tpm2 cmdline release; do
		rc_save $f /run/$f
	done
	# (the boot's start to now, as the kernel counts it)
	echo "# up $(cut -d' ' -f1 /proc/uptime) s in Linux" >&3
}

# rc_end: the last point (no crypto self-test failed), then power off.
rc_end() {
	t "no crypto self-test failed (dmesg)" no_alg_fail
	echo "# tk-init: done" >&3
	sync
	systemctl --no-block poweroff
}
