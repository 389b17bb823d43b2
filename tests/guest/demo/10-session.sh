#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The documented session (make demo TPM=1.2): a trusted key survives
# reboots, an encrypted key is sealed under it (where the kernel's encrypted
# type takes trusted masters: not Debian's built-in one, which the session
# shows and skips). Three boots of one machine (same TPM):
#   phase 1  new trusted key kmk; show, print, pipe > kmk.blob
#   phase 2  load kmk.blob; print; update; print; new encrypted key evm under it
#   phase 3  load kmk and evm from their blobs
# The transcript is written as "# " diagnostics (tests/qemu/demo.sh prints it);
# every step is also a test point.
# shellcheck disable=SC2094  # state names equal to file names
# shellcheck source=/dev/null
. "$TKH_LIB"

mkdir -p /tmp/demo && cd /tmp/demo || exit 1
opts=
[ "$TKH_TPM" = 2.0 ] && opts=" keyhandle=0x81000001"

# run CMDLINE: echo it, run it (eval), echo its output; long lines shortened.
_out=
run() {
	echo "# \$ $1"
	_out=$(eval "$1" 2>&1)
	_rc=$?
	[ -n "$_out" ] && printf '%s\n' "$_out" |
		awk '{ if (length($0) > 100) printf "%s... (%d characters)\n", substr($0, 1, 72), length($0); else print }' |
		sed 's/^/#   /'
	[ $_rc -eq 0 ] || echo "#   (exit status $_rc)"
	return $_rc
}
# step DESC CMDLINE: one test point; the demo cannot go on after a failure.
step() {
	if run "$2"; then
		t_ok "$1"
	else
		t_fail "$1"
		t_skip_rest "an earlier step failed"
		exit 0
	fi
}

impl=${TKH_IMPL:-ours}
load_mods() {
	if [ "$impl" = ref ]; then
		echo "# (the in-tree trusted.ko and encrypted-keys.ko of this kernel)"
		t_mods_ref
	elif t_keytype_builtin encrypted; then
		echo "# (our trusted.ko; this kernel's own, built-in, encrypted key type)"
		t_mods_load ours ours
	else
		echo "# (our trusted.ko and encrypted-keys.ko)"
		t_mods_load ours ours
	fi
}

# no_trusted_masters: the encrypted key type is built into this kernel
# (Debian's: CONFIG_ENCRYPTED_KEYS=y, selected by EVM) and was compiled
# without trusted keys (CONFIG_TRUSTED_KEYS unset): it takes no trusted
# master (keyctl pipe of such a key: EOPNOTSUPP).
no_trusted_masters() {
	t_keytype_builtin encrypted && [ "$TKH_KERNEL" != test ]
}
builtin_note() {
	echo "#   (Debian's kernel has the encrypted type built in, compiled without trusted"
	echo "#   keys: it cannot use a trusted master. There a trusted key reaches dm-crypt"
	echo "#   as a logon key instead: keyctl add trusted kmk \"new 32 logon=demo:disk\" @u,"
	echo "#   then the dm-crypt key :32:logon:demo:disk; make demo shows it on a TPM 2.0.)"
}

case $TKH_PHASE in
1)
	t_plan 5
	if load_mods; then t_ok "load the $impl modules"; else t_fail "load the $impl modules"; t_skip_rest "no modules"; exit 0; fi
	step "create a new trusted key" "keyctl add trusted kmk \"new 32$opts\" @u"
	kmk=$_out
	step "it is in the user keyring" "keyctl show @u"
	step "print its sealed blob" "keyctl print $kmk"
	step "save the blob" "keyctl pipe $kmk > kmk.blob; wc -c < kmk.blob"
	t_state_save kmk.blob <kmk.blob
	;;
2)
	t_plan 8
	t_state_get kmk.blob >kmk.blob
	echo "# (rebooted; kmk.blob was carried over)"
	if load_mods; then t_ok "load the $impl modules"; else t_fail "load the $impl modules"; t_skip_rest "no modules"; exit 0; fi
	step "load the trusted key from its blob" "keyctl add trusted kmk \"load \$(cat kmk.blob)$opts\" @u"
	kmk=$_out
	step "print it: the same blob" "keyctl print $kmk"
	step "update it: reseal" "keyctl update $kmk \"update\""
	step "print it again: a new blob" "keyctl print $kmk"
	step "save the new blob" "keyctl pipe $kmk > kmk.blob; wc -c < kmk.blob"
	t_state_save kmk.blob <kmk.blob
	if no_trusted_masters; then
		if run "keyctl add encrypted evm \"new trusted:kmk 32\" @u > evm.id && keyctl pipe \$(cat evm.id) > evm.blob"; then
			t_ok "an encrypted key under it"
			step "save the encrypted blob" "cat evm.blob; echo"
			t_state_save evm.blob <evm.blob
		else
			builtin_note
			t_ok "an encrypted key under it: refused by this kernel's built-in type, as expected"
			t_skip "save the encrypted blob" "no encrypted key under a trusted master on this kernel"
		fi
	else
		step "an encrypted key under it" "keyctl add encrypted evm \"new trusted:kmk 32\" @u"
		evm=$_out
		step "save the encrypted blob" "keyctl pipe $evm > evm.blob; cat evm.blob; echo"
		t_state_save evm.blob <evm.blob
	fi
	;;
*)
	t_plan 5
	t_state_get kmk.blob >kmk.blob
	if ! t_state_get evm.blob >evm.blob 2>/dev/null; then
		echo "# (rebooted; kmk.blob was carried over)"
		if load_mods; then t_ok "load the $impl modules"; else t_fail "load the $impl modules"; t_skip_rest "no modules"; exit 0; fi
		step "load the trusted key" "keyctl add trusted kmk \"load \$(cat kmk.blob)$opts\" @u"
		t_skip "load the encrypted key under it" "no encrypted key under a trusted master on this kernel"
		step "it is in the user keyring" "keyctl show @u"
		t_skip "the encrypted key reads back the same blob" "no encrypted key on this kernel"
		exit 0
	fi
	echo "# (rebooted; kmk.blob and evm.blob were carried over)"
	if load_mods; then t_ok "load the $impl modules"; else t_fail "load the $impl modules"; t_skip_rest "no modules"; exit 0; fi
	step "load the trusted key" "keyctl add trusted kmk \"load \$(cat kmk.blob)$opts\" @u"
	step "load the encrypted key under it" "keyctl add encrypted evm \"load \$(cat evm.blob)\" @u"
	evm=$_out
	step "both are in the user keyring" "keyctl show @u"
	if [ "$(keyctl pipe "$evm" 2>/dev/null)" = "$(cat evm.blob)" ]; then
		t_ok "the encrypted key reads back the same blob"
	else
		t_fail "the encrypted key reads back the same blob"
	fi
	;;
esac
