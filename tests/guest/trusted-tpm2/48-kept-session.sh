#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The session kept between operations (docs/tpm2-sessions.md, "One session
# for many operations"): it is context-saved between operations and
# context-loaded by the next one, so the TPM itself says whether its handle
# is still our session. A root process on /dev/tpm0 flushes it and starts
# a session of its own, which gets the same handle: the next key operation
# succeeds in a fresh session, one log line; the kernel never authorises
# with the other session nor flushes it (it is still loaded, and its nonce
# still authorises a command of root's), and the TPM's count of failed
# authorisations does not move. Ours only.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_sessions_begin || exit 0
t_plan 14
keyctl link @u @s >/dev/null 2>&1
KP=/sys/module/trusted/parameters/session
NC=00112233445566778899aabbccddeeff	# root's nonceCaller

# hmac0 HEX: HMAC-SHA256 with an empty key (an unsalted, unbound session
# authorising an entity whose authValue is empty) of the bytes HEX.
hmac0() {
	_ip=$(printf '36%.0s' $(seq 64))
	_op=$(printf '5c%.0s' $(seq 64))
	_in=$(t_unhex "$_ip$1" | sha256sum | cut -c1-64)
	t_unhex "$_op$_in" | sha256sum | cut -c1-64
}

# root_session: TPM2_StartAuthSession of an unsalted, unbound HMAC session
# (SHA-256) through /dev/tpm0, as "HANDLE NONCETPM".
root_session() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000176 \
		"40000007400000070010${T_TPM2_NONCE}0000000010000b")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "StartAuthSession: $_r" >&2; return 1; }
	_n=$((0x$(echo "$_r" | cut -c29-32)))
	echo "$(echo "$_r" | cut -c21-28) $(echo "$_r" | cut -c33-$((32 + 2 * _n)))"
}

# root_uses HANDLE NONCETPM: TPM2_ClockRateAdjust(TPM_RH_OWNER, no change)
# authorised by root's session: succeeds only while the TPM's nonce is the
# one root was given (nobody used the session in between).
root_uses() {
	_cp=$(t_unhex "0000013040000001""00" | sha256sum | cut -c1-64)
	_h=$(hmac0 "$_cp$NC${2}01")
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000130 \
		"4000000100000039${1}0010${NC}010020${_h}00")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "ClockRateAdjust in root's session: $_r" >&2; return 1; }
}

# loaded HANDLE: the TPM lists HANDLE among its loaded sessions.
loaded() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a "00000001${1}00000001")")
	[ "$(echo "$_r" | cut -c39-46)" = "$1" ]
}

# t_ff_loads FUNC NTH RETVAL NAME DATA: like t_ff_refused, but the key is made.
t_ff_loads() {
	t_ff_arm "$1" "$2" "$3" || { echo "cannot arm fail_function on $1" >&2; return 1; }
	t_key_add trusted "$4" "$5"
	_rc=$?
	t_ff_off
	return $_rc
}

# kept_then_load: the session is still saved, and a load succeeds.
kept_then_load() {
	t_eq "kept saved" "$(t_tpm2_kept_in 03)" 1 && t_key_add trusted ks_f "load $b"
}

t_check "new 32: a session kept after it" t_key_add trusted ks_a "new 32"
b=$(t_key_blob trusted ks_a)
h=$(cat $KP)
h=${h#0x}
t_check "the kept session ($h) is saved between operations, not loaded" \
	t_eq "kept loaded, kept saved" "$(t_tpm2_kept_in 02) $(t_tpm2_kept_in 03)" "0 1"
t_check "a load uses it and keeps it again" t_key_add trusted ks_b "load $b"

da0=$(t_tpm2_lockout_count)
t_tpm2_flush "$h"
rs=$(root_session)
rh=${rs%% *} rn=${rs#* }
t_check "root's own session, after root flushed ours, has its handle" t_eq handle "$rh" "$h"
t_tpm2_dmesg_mark
t_check "load after the takeover: succeeds in a fresh session" t_key_add trusted ks_c "load $b"
t_check "  ... one line of ours: the kept session is no longer ours" \
	t_tpm2_one_line "kept session 0x$h is no longer ours"
t_check "the TPM's count of failed authorisations did not move" \
	t_eq "lockout counter" "$(t_tpm2_lockout_count)" "$da0"
t_check "root's session is still loaded" loaded "$rh"
t_check "root's session is untouched: its nonce still authorises root's command" \
	root_uses "$rh" "$rn"
t_tpm2_flush "$rh"
t_check "new 32 afterwards, in the session kept since" t_key_add trusted ks_d "new 32"

# ContextLoad answered with a code no TPM gives it (fail_function on its
# exchange of the load): the saved session is flushed, the load goes on in
# a fresh one; a warning (no session slot) fails the load and keeps it.
why=$(t_ff_why trusted_tpm_exchange)
if [ -n "$why" ]; then
	t_skip "ContextLoad answered 0x1000: the load succeeds in a fresh session" "$why"
	t_skip "ContextLoad answered TPM_RC_SESSION_MEMORY: EAGAIN, the session still kept" "$why"
	t_skip "  ... and the next load uses it" "$why"
else
	cl=1	# the load's first exchange; without an SRK CreatePrimary's
	t_tpm2_srk_present || cl=2
	t_check "ContextLoad answered 0x1000: the load succeeds in a fresh session" \
		t_ff_loads trusted_tpm_exchange $cl 0x1000 ks_e "load $b"
	t_errno "ContextLoad answered TPM_RC_SESSION_MEMORY: EAGAIN, the session still kept" EAGAIN \
		t_ff_refused trusted_tpm_exchange $cl 0x903 ks_x "load $b"
	t_check "  ... and the next load uses it" kept_then_load
fi
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_drop ks_a ks_b ks_c ks_d ks_e ks_f
