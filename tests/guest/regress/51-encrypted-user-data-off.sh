#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression, policy of CONFIG_USER_DECRYPTED_DATA (6.1): with
# user_decrypted_data=0 our encrypted-keys.ko refuses keys made from
# user-supplied bytes ("new user:M 32 HEX": EINVAL, no key) and still makes
# keys from the kernel's RNG; the parameter reads N.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/regress.sh"

t_regress_begin || exit 0
D=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

off() {
	t_mods_none || return 1
	t_mod_insmod "$TKH_MODS" trusted.ko || return 1
	t_mod_insmod "$TKH_MODS" encrypted-keys.ko user_decrypted_data=0 || return 1
	keyctl add user ukm "$T_REGRESS_UBYTES" @u >/dev/null
}
# no_key: for t_errno; the add with user data failed and left no key.
no_key() {
	if keyctl add encrypted rg_off "new user:ukm 32 $D" @u >/dev/null; then
		echo "add succeeded" >&2
		return 0
	fi
	if t_regress_pid encrypted rg_off >/dev/null; then
		echo "a key rg_off exists after the failed add" >&2
		return 0
	fi
	return 1
}
t_check "encrypted-keys.ko loads with user_decrypted_data=0" off
t_check "the parameter reads N" grep -qx N /sys/module/encrypted_keys/parameters/user_decrypted_data
t_errno "new with user data: EINVAL, no key" EINVAL no_key
t_check "new from the RNG still works" keyctl add encrypted rg_rng "new user:ukm 32" @u
t_regress_drop encrypted rg_off rg_rng
t_mods_none >/dev/null 2>&1
