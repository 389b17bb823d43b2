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
PATH=/usr/sbin:/usr/bin:/sbin:/bin
exec 3>/dev/ttyS1
closed=$(sed -n 's/.*tk\.realsys\.closed=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' '\n' |
	sed 's/:.*//' | tr '\n' ' ')
names=$(awk '$1 !~ /^#/ && NF { print $1 }' /etc/trusted-keys/volumes)
n=0
for _ in $names; do n=$((n + 1)); done
# The serial getty's login prompt reaches the console (host-check looks for
# it): agetty records its LOGIN entry in utmp just before it prompts.
for _ in $(seq 60); do
	who -l 2>/dev/null | grep -q ttyS0 && break
	sleep 1
done
sleep 2
echo "KTAP version 1" >&3
echo "1..$((n + 2))" >&3
i=0
t() { # DESCRIPTION CMD...: one test point
	d=$1
	shift
	i=$((i + 1))
	if "$@"; then echo "ok $i $d" >&3; else echo "not ok $i $d" >&3; fi
}
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
# (a grep that finds nothing is the pass; what it finds is shown)
no_alg_fail() {
	if dmesg | grep -qE 'alg: .*failed'; then
		dmesg | grep -E 'alg: .*failed' | sed 's/^/# /' >&3
		return 1
	fi
}
t "no crypto self-test failed (dmesg)" no_alg_fail
echo "# tk-init: done" >&3
sync
systemctl --no-block poweroff
