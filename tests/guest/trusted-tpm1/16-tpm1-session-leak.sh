#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression (issue 9, review finding 3): "TPM 1.2 sessions leaked". An
# OSAP/OIAP session the TPM opened was not flushed when a later step
# failed (an allocation, a malformed response): "open" was set too late.
# fail_function makes each such step fail in turn after the TPM opened
# the session(s); TPM_GetCapability (TPM_RT_AUTH) must then show no
# session left.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any
why=$(t_ff_why trusted_hmac_work_alloc)
[ -n "$why" ] || why=$(t_ff_why trusted_tpm1_parse_session)
if [ -n "$why" ]; then
	t_skip_all "$why"
fi
EBADMSG=0xffffffffffffffb6	# -74

# left CMD...: CMD fails, leaves no key, and the TPM holds as many
# sessions afterwards as before.
left() {
	_s0=$(t_tpm1_sessions) || return 1
	"$@" || { echo "the add did not fail, or left a key" >&2; return 1; }
	_s1=$(t_tpm1_sessions) || return 1
	t_eq "authorisation sessions in the TPM" "$_s1" "$_s0"
}
# The plain path (sessions=0): its exchanges are the ones counted here;
# 18-tpm1-transport.sh covers the transport session's own.
fails() { # FUNC NTH RETVAL DATA
	! t_ff_refused "$1" "$2" "$3" s_x "$4 sessions=0" >/dev/null 2>&1
}

s0=$(t_tpm1_sessions)
t_check "control: new 32 and its load; TPM_GetCapability counts sessions ($s0)" \
	eval 't_key_add trusted s_k "new 32" && t_key_add trusted s_l "load $(t_key_blob trusted s_k)" && [ -n "$s0" ]'
b=$(t_key_blob trusted s_k)
t_check "new: allocation after OSAP fails: no session left" \
	left fails trusted_hmac_work_alloc 1 "" "new 32"
t_check "new: malformed OSAP response: no session left" \
	left fails trusted_tpm1_parse_session 1 $EBADMSG "new 32"
t_check "load: malformed first OIAP response: no session left" \
	left fails trusted_tpm1_parse_session 1 $EBADMSG "load $b"
t_check "load: malformed second OIAP response: no session left" \
	left fails trusted_tpm1_parse_session 2 $EBADMSG "load $b"
t_check "load: allocation after both OIAPs fails: no session left" \
	left fails trusted_hmac_work_alloc 1 "" "load $b"
t_check "afterwards new and load work, and the TPM holds no session" \
	eval 't_key_add trusted s_2 "new 32" && t_key_add trusted s_3 "load $(t_key_blob trusted s_2)" && t_eq sessions "$(t_tpm1_sessions)" "$s0"'
t_ff_off
t_drop s_k s_l s_2 s_3
