#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite realsys: the real system's check after a boot. Not run by
# tests/guest/init: tests/realsys/prepare.sh installs it in the Debian image
# as /usr/local/sbin/tek-realsys-check, run by tek-realsys-check.service
# once the serial console's getty runs. For each volume of
# /etc/trusted-keys/volumes: open (with the marker file enrol.sh wrote) or
# closed as tk.realsys.closed= (NAME:REASON,...; - for none; REASON is
# host-check's) on the command line expects; ecdh-nist-p256 passed its
# self-test; no crypto self-test failed. KTAP on ttyS1; then powers off.
# The console's side (the reasons, the login prompt): host-check.
# shellcheck source=../../realsys/check-lib.sh
. /usr/local/lib/tek-realsys/check.sh
closed=$(sed -n 's/.*tk\.realsys\.closed=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' '\n' |
	sed 's/:.*//' | tr '\n' ' ')
names=$(awk '$1 !~ /^#/ && NF { print $1 }' /etc/trusted-keys/volumes)
n=0
for _ in $names; do n=$((n + 1)); done
rc_start $((n + 2))
is_open() {
	dmsetup info "$1" >/dev/null 2>&1 || { echo "# $1: no mapping" >&3; return 1; }
	mkdir -p "/run/realsys/$1"
	mount -o ro "/dev/mapper/$1" "/run/realsys/$1" || return 1
	m=$(cat "/run/realsys/$1/marker")
	umount "/run/realsys/$1"
	[ "$m" = "realsys $1" ] || { echo "# $1: marker '$m'" >&3; return 1; }
}
is_closed() { ! dmsetup info "$1" >/dev/null 2>&1; }
for v in $names; do
	case " $closed " in
	*" $v "*) t "$v: closed" is_closed "$v" ;;
	*) t "$v: open, its data as written at enrolment" is_open "$v" ;;
	esac
done
# /proc/crypto: "name : ecdh-nist-p256" ... "selftest : passed"
ecdh_ok() {
	awk '/^name/ { n = $3 } /^selftest/ && n == "ecdh-nist-p256" { s = $3 }
		END { print "# ecdh-nist-p256 selftest: " (s ? s : "(not registered)"); exit s != "passed" }' \
		/proc/crypto >&3
}
t "ecdh-nist-p256 passed its self-test (/proc/crypto)" ecdh_ok
rc_end
