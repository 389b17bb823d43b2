#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a kernel with the encrypted key type built in (Debian's stock kernels:
# CONFIG_ENCRYPTED_KEYS=y) our encrypted-keys.ko refuses to load, with one
# clear log line, and the built-in type keeps working.
here=${0%/*}
. "$here/../lib.sh"

N=4
t_plan $N
if ! grep -q ' key_type_encrypted$' /proc/kallsyms 2>/dev/null; then
	t_skip_rest "the encrypted key type is not built into this kernel"
	exit 0
fi
if [ ! -f "$TK_MODS/encrypted-keys.ko" ]; then
	t_skip_rest "no encrypted-keys.ko of ours for this kernel"
	exit 0
fi
dmesg -c >/dev/null 2>&1
t_errno "insmod encrypted-keys.ko refused" EEXIST insmod "$TK_MODS/encrypted-keys.ko"
# The kernel adds its taint notices; busybox insmod may try twice
# (finit_module, then init_module): each try logs our one line.
t_check "one log line says why" \
	sh -c "dmesg | grep -q 'encrypted_keys: .*built in.*not loading' &&
		! dmesg | grep 'encrypted_keys: ' | grep -v taint | grep -v 'built in.*not loading'"
t_check "the module is not loaded" sh -c "! grep -q '^encrypted_keys ' /proc/modules"
keyctl link @u @s >/dev/null 2>&1
keyctl add user bk 0123456789abcdef0123456789abcdef @u >/dev/null
t_check "the built-in encrypted type still works" \
	sh -c "keyctl add encrypted bk_e 'new user:bk 32' @u >/dev/null &&
		keyctl pipe %encrypted:bk_e >/dev/null"
