#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a kernel with the encrypted key type built in (Debian's stock kernels:
# CONFIG_ENCRYPTED_KEYS=y) our build makes no encrypted-keys.ko (src/Kbuild
# and dkms.conf leave it out: it could only refuse to load), trusted.ko is
# still built, and the built-in type keeps working.
here=${0%/*}
. "$here/../lib.sh"

t_keytype_builtin encrypted ||
	t_skip_all "the encrypted key type is not built into this kernel"
t_keytype_builtin trusted &&
	t_skip_all "both key types are built into this kernel (an EVM kernel): no modules of ours to check"
t_check "no encrypted-keys.ko of ours for this kernel" \
	sh -c "! ls $TKH_MODS/encrypted-keys.ko* 2>/dev/null"
t_check "trusted.ko of ours for this kernel" test -f "$TKH_MODS/trusted.ko"
keyctl link @u @s >/dev/null 2>&1
keyctl add user bk 0123456789abcdef0123456789abcdef @u >/dev/null
t_check "the built-in encrypted type still works" \
	sh -c "keyctl add encrypted bk_e 'new user:bk 32' @u >/dev/null &&
		keyctl pipe %encrypted:bk_e >/dev/null"
