#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite realsys-uefi-luks, the attacker's side: a live system booted on
# the machine of tests/realsys/uefi-luks.sh from a disk of its own (Debian's
# same signed shim, GRUB and kernel, our package, root's tools), with the
# enrolled disk as the second disk. It reads our token from the volume's
# header and asks the TPM for the key with our module, as the system's own
# unlock would: the TPM must refuse every approval in the token (the
# boot's PCRs 8 and 9 are not the approved ones; 4 and 7 may well be), and
# nothing is mapped. KTAP on ttyS1; the event log and the PCRs to the
# host (ttyS2); power off.
# shellcheck source=../../realsys/check-lib.sh
. /usr/local/lib/tek-realsys/check.sh
DEV=/dev/vdb3
rc_start 5
echo "# the live system: $(uname -r): $(cat /proc/cmdline)" >&3

module() {
	modprobe trusted 2>&1 | sed 's/^/# /' >&3
	[ -e /sys/module/trusted/parameters/session ]
}
t "our trusted.ko loads (the attacker may use any code Secure Boot runs)" module
token() {
	trusted-keys-luks token $DEV >/run/token.json 2>&1
	r=$?
	echo "# $(head -c 160 /run/token.json)..." >&3
	[ $r = 0 ] && grep -q '"signed":"1"' /run/token.json
}
t "the enrolled volume's token, read from $DEV's header" token
steal() {
	trusted-keys-luks open $DEV stolen >/run/steal.out 2>&1
	r=$?
	sed 's/^/# /' /run/steal.out >&3
	[ $r != 0 ] && ! dmsetup info stolen >/dev/null 2>&1
}
t "trusted-keys-luks open $DEV: the TPM refuses, nothing mapped" steal
t "the event log, the PCRs to the host" rc_state
rc_end
