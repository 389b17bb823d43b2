#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hierarchy password on the bus (issue 8): with keyhandle=0x40000001
# and keyauth= the owner password, ours authorises TPM2_CreatePrimary with
# an HMAC session: only an HMAC keyed by the password crosses the bus. The
# owner password is set (and cleared) through /dev/tpm0, outside the
# relay's marked segments. Control: with sessions=0 the password is on
# the bus (a password session), which proves the detector. A forged HMAC
# on CreatePrimary's response is refused and the primary flushed. Ours
# only.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/relay.sh"

t_require tpm 2.0
t_require ours	# the in-tree module has no sessions
t_relay_setup
PW=5a5b5c5d5e5f606162636465666768696a6b6c6d

# owner_pw OLD NEW: TPM2_HierarchyChangeAuth of the owner hierarchy.
owner_pw() {
	_a=$(printf '%04x%s' $((${#1} / 2)) "$1")
	_s=$(printf '%08x' $((7 + ${#_a} / 2)))400000090000"00$_a"
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000129 "40000001$_s$(printf '%04x%s' $((${#2} / 2)) "$2")")")
	t_eq "HierarchyChangeAuth" "$(t_tpm2_rc "$_r")" 00000000
}

if ! owner_pw "" "$PW" >&2; then
	t_skip_rest "cannot set the owner password"
	exit 0
fi
t_relay_ctl "mark hier-sessions" >/dev/null
t_check "new under the owner primary with keyauth= (sessions)" \
	t_key_add trusted h_n "new 32 keyhandle=0x40000001 keyauth=$PW"
b=$(t_key_blob trusted h_n)
t_check "load it with keyauth= (sessions)" t_key_add trusted h_l "load $b keyhandle=0x40000001 keyauth=$PW"
h=$(t_relay_hits "$PW")
t_check "the owner password is not on the bus" t_eq "messages holding it" "$h" 0
t_relay_ctl "mark hier-clear" >/dev/null
t_check "sessions=0: the same load works" t_key_add trusted h_l0 "load $b keyhandle=0x40000001 keyauth=$PW sessions=0"
h=$(t_relay_hits "$PW")
if [ "$h" != 0 ] && [ "$h" != "?" ]; then
	t_ok "sessions=0: the detector sees the password ($h message(s))"
else
	t_fail "sessions=0: the detector sees the password" "hits: $h"
fi
t_relay_ctl "mark hier-end" >/dev/null
# a forged HMAC on CreatePrimary's response: refused, and the primary the
# TPM made (its handle read from that response) flushed, not left behind
forged_primary() {
	_a=$(t_relay_ctl "tamper 131:flip=-1")
	[ "$_a" = "armed 1" ] || { echo "the relay did not arm: $_a" >&2; return 2; }
	t_key_refused trusted h_f "load $b keyhandle=0x40000001 keyauth=$PW"
	_rc=$?
	_f=$(t_relay_ctl disarm)
	[ "$_f" = "fired 1" ] || { echo "no CreatePrimary was tampered ($_f)" >&2; return 2; }
	return $_rc
}
t_errno "a forged HMAC on CreatePrimary's response: refused (EIO)" EIO forged_primary
t_check "... and no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_drop h_n h_l h_l0
t_tpm2_da_reset
t_check "owner password cleared again" owner_pw "$PW" ""
