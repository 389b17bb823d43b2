#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression: "KEYS: encrypted: fix key instantiation with user-provided
# data" (mainline 5adedd42245a, 6.1). "new user:M 32 HEX" must make a key
# whose bytes are HEX decoded (the first version copied the hex text, so
# a "32-byte" key had 16 bytes of entropy, all in the ASCII range). Proof
# through dm-crypt: a mapping keyed by ":32:encrypted:NAME" and one keyed by
# HEX directly give the same ciphertext; a control with the hex text's
# ASCII bytes as the key gives another.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/regress.sh"

t_regress_begin || exit 0
D=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IMG=/tmp/rg-dm.img

if [ ! -r /sys/module/encrypted_keys/parameters/user_decrypted_data ] ||
	[ "$(cat /sys/module/encrypted_keys/parameters/user_decrypted_data)" != Y ]; then
	t_skip_rest "user_decrypted_data is off on this kernel"
	exit 0
fi
if ! command -v dmsetup >/dev/null || ! t_mod_load dm-crypt >/dev/null 2>&1; then
	t_skip_rest "no dmsetup or dm-crypt.ko in this guest"
	exit 0
fi

# cipher_of KEY: the first 4 KiB sector of zeros encrypted by a 1-sector
# aes-cbc-plain64 mapping keyed by KEY, as a sha256.
cipher_of() {
	_loop=$(losetup -f) && losetup "$_loop" $IMG || return 1
	dmsetup create rg_dm --noudevsync --table "0 8 crypt aes-cbc-plain64 $1 0 $_loop 0" >&2 || {
		losetup -d "$_loop"
		return 1
	}
	dmsetup mknodes rg_dm >/dev/null 2>&1
	dd if=/dev/zero of=/dev/mapper/rg_dm bs=4096 count=1 conv=fsync 2>/dev/null
	# The mapping may still be busy a moment after the write: retry.
	_i=0
	while ! dmsetup remove --noudevsync rg_dm >/dev/null 2>&1 && [ $_i -lt 20 ]; do
		sleep 0.2
		_i=$((_i + 1))
	done
	dd if="$_loop" bs=4096 count=1 2>/dev/null | sha256sum | cut -d' ' -f1
	losetup -d "$_loop"
}

dd if=/dev/zero of=$IMG bs=4096 count=1 2>/dev/null
t_check "an encrypted key from user data (32 bytes of hex)" \
	keyctl add encrypted rg_ud "new user:ukm 32 $D" @u
a=$(cipher_of ":32:encrypted:rg_ud" 2>/dev/null)
b=$(cipher_of "$D" 2>/dev/null)
ascii=$(printf '%s' "$D" | cut -c1-32 | od -An -tx1 | tr -d ' \n')
c=$(cipher_of "$ascii" 2>/dev/null)
echo "ciphertext sha256: key $a, hex bytes $b, ASCII $c" >&2
both() { [ -n "$a" ] && [ -n "$b" ]; }
other() { [ -n "$c" ] && [ "$c" != "$a" ]; }
t_check "dm-crypt with the key and with the hex bytes: both mapped" both
t_check "the key's bytes are the hex decoded (same ciphertext)" [ "$a" = "$b" ]
if [ -n "$c" ]; then
	t_check "control: the hex text's ASCII as a key gives another ciphertext" other
else
	t_skip "control: the hex text's ASCII as a key gives another ciphertext" \
		"the control mapping could not be made"
fi
rm -f $IMG
t_regress_drop encrypted rg_ud
