#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression, bug class "module unloaded while its code is still needed":
# payloads replaced by update are freed by RCU callbacks that run our
# code; unregistering the key type must destroy every key of it (positive,
# updated, revoked, negative) before the module goes. rmmod with such keys
# alive works, /proc/keys still reads, the keys are dead (EKEYREVOKED or
# gone: ENOKEY), and after reloading, keys of both types work again.
# KASAN and kmemleak (the boot's final scan) watch for use-after-free
# and leaks.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/regress.sh"

t_regress_begin || exit 0

# dead ID: for t_check; reading key ID fails with EKEYREVOKED or ENOKEY.
dead() {
	if _o=$(keyctl pipe "$1" 2>&1 >/dev/null); then
		echo "key $1 still reads" >&2
		return 1
	fi
	case $_o in
	*"$(t_strerror EKEYREVOKED)"* | *"$(t_strerror ENOKEY)"*) return 0 ;;
	esac
	echo "key $1: $_o" >&2
	return 1
}

live() {
	t1=$(keyctl add trusted rg_l1 "new 32" @u) &&
		keyctl update "$t1" "update" &&
		t2=$(keyctl add trusted rg_l2 "new 32" @u) &&
		keyctl revoke "$t2" &&
		e1=$(keyctl add encrypted rg_l3 "new user:ukm 32" @u) &&
		keyctl update "$e1" "update user:ukm" &&
		e2=$(keyctl add encrypted rg_l4 "new trusted:rg_l1 32" @u) &&
		keyctl pipe "$e2" >/dev/null &&
		t_regress_negative encrypted rg_l5 >/dev/null &&
		t_regress_negative trusted rg_l6 >/dev/null
}
if live; then
	t_ok "keys alive: trusted (updated, revoked), encrypted (updated, under a trusted master), negative"
else
	t_fail "keys alive: trusted (updated, revoked), encrypted (updated, under a trusted master), negative"
fi
t_check "rmmod encrypted-keys and trusted with those keys alive" t_mods_none
t_check "/proc/keys reads afterwards" cat /proc/keys
t_check "the trusted key is dead" dead "${t1:-0}"
t_check "the encrypted key is dead" dead "${e1:-0}"
reload() {
	t_mods_load ours ours &&
		keyctl add user ukm "$T_REGRESS_UBYTES" @u >/dev/null &&
		keyctl add trusted rg_l7 "new 32" @u >/dev/null &&
		keyctl add encrypted rg_l8 "new trusted:rg_l7 32" @u >/dev/null &&
		keyctl pipe "$(keyctl search @u encrypted rg_l8)" >/dev/null
}
t_check "reloaded: new trusted and encrypted keys work" reload
t_regress_drop trusted rg_l1 rg_l2 rg_l6 rg_l7
t_regress_drop encrypted rg_l3 rg_l4 rg_l5 rg_l8
