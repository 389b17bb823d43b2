#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression, bug class of CVE-2016-0728 (a key reference taken and not
# dropped on some path: the usage count creeps up, wraps, and the key is
# freed while in use). Every encrypted operation looks its master up and
# must drop it on every path: reads, new, update, failed loads (tampered
# HMAC, wrong length) and reads under a master of the wrong kind. The
# masters' usage counts in /proc/keys are the same before and after.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/regress.sh"

t_regress_begin || exit 0

# usage ID: the usage count /proc/keys shows for key ID.
usage() {
	t_regress_proc_keys "$1" 3
}

# ops MASTER: ROUNDS rounds of every operation under MASTER (user:ukm or
# trusted:rg_tm), successful and failing. A reference not dropped on a path
# raises the usage count by one per round: one round shows it, a few more
# show that it does not come back down.
ROUNDS=5
ops() {
	_i=0
	_e=$(keyctl add encrypted rg_ref "new $1 32" @u) || return 1
	_b=$(keyctl pipe "$_e") || return 1
	# shellcheck disable=SC2086  # the blob's four words
	set -- "$1" $_b
	_bad=$(echo "$5" | sed 's/.$/0/')
	[ "$_bad" != "$5" ] || _bad=$(echo "$5" | sed 's/.$/1/')
	while [ $_i -lt $ROUNDS ]; do
		_i=$((_i + 1))
		keyctl pipe "$_e" >/dev/null || return 1
		keyctl update "$_e" "update $1" || return 1
		keyctl add encrypted "rg_ref$_i" "new $1 32" @u >/dev/null || return 1
		_l=$(keyctl add encrypted rg_refl "load $2 $3 $4 $5" @u) || return 1
		keyctl unlink "$_l" @u >/dev/null || return 1
		! keyctl add encrypted rg_refx "load $2 $3 $4 $_bad" @u >/dev/null 2>&1 || return 1
		! keyctl add encrypted rg_refx "load $2 $3 48 $5" @u >/dev/null 2>&1 || return 1
		keyctl unlink "$(keyctl search @u encrypted "rg_ref$_i")" @u >/dev/null || return 1
	done
	keyctl unlink "$_e" @u >/dev/null
}

# same_usage ID MASTER: ops under MASTER leave the usage of ID as it was.
same_usage() {
	_u0=$(usage "$1")
	ops "$2" || { echo "an operation under $2 failed" >&2; return 1; }
	# Unlinked keys are freed by the garbage collector: let it run.
	sleep 1
	_u1=$(usage "$1")
	echo "usage of $2: $_u0 before, $_u1 after" >&2
	[ -n "$_u0" ] && [ "$_u0" = "$_u1" ]
}

um=$(keyctl search @u user ukm)
t_check "user master: usage count unchanged after $((ROUNDS * 8)) operations" same_usage "$um" user:ukm
if tm=$(keyctl add trusted rg_tm "new 32" @u); then
	t_ok "a trusted master"
	t_check "trusted master: usage count unchanged after $((ROUNDS * 8)) operations" same_usage "$tm" trusted:rg_tm
else
	t_fail "a trusted master"
	t_skip "trusted master: usage count unchanged" "no trusted master"
fi
# A 5-byte user master: whatever our module makes of it (in-tree takes
# any length), its reference is dropped on every path.
short() {
	_m=$(keyctl add user rg_wm "short" @u) || return 1
	_u0=$(usage "$_m")
	_i=0
	while [ $_i -lt 10 ]; do
		_i=$((_i + 1))
		if _e=$(keyctl add encrypted rg_w "new user:rg_wm 32" @u 2>/dev/null); then
			keyctl pipe "$_e" >/dev/null 2>&1
			keyctl unlink "$_e" @u >/dev/null
		fi
	done
	sleep 1
	echo "usage of the short master: $_u0 before, $(usage "$_m") after" >&2
	[ -n "$_u0" ] && [ "$(usage "$_m")" = "$_u0" ]
}
t_check "a 5-byte user master: usage count unchanged after 20 operations" short
