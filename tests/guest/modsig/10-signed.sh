#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Module signing as DKMS does it (tests/pkg/dkms-test.sh): the test kernel,
# booted with module.sig_enforce=1, loads the trusted.ko that DKMS built and
# signed with the kernel's own signing key, and refuses the same module with
# its signature stripped (trusted-unsigned.ko) with EKEYREJECTED.
here=${0%/*}
. "$here/../lib.sh"

MAGIC='~Module signature appended~'
t_require kernel test	# its signing key signed the module
grep -qw 'module.sig_enforce=1' /proc/cmdline ||
	t_skip_all "the kernel was not booted with module.sig_enforce=1"
[ -f "$TKH_MODS/trusted-unsigned.ko" ] ||
	t_skip_all "no trusted-unsigned.ko: not a DKMS signing run"
t_check "the kernel enforces module signatures" \
	grep -qx Y /sys/module/module/parameters/sig_enforce
t_check "trusted.ko carries a signature" \
	sh -c "tail -c 28 '$TKH_MODS/trusted.ko' | grep -qF '$MAGIC'"
t_check "trusted-unsigned.ko carries none" \
	sh -c "! tail -c 28 '$TKH_MODS/trusted-unsigned.ko' | grep -qF '$MAGIC'"
t_mods_none >/dev/null 2>&1
t_errno "the unsigned module is refused" EKEYREJECTED insmod "$TKH_MODS/trusted-unsigned.ko"
t_check "the DKMS-signed module loads" t_mod_insmod "$TKH_MODS" trusted.ko
t_check "a trusted key works with it" \
	sh -c "keyctl add trusted modsig 'new 32' @u >/dev/null &&
		keyctl pipe %trusted:modsig >/dev/null"
t_mods_none >/dev/null 2>&1
