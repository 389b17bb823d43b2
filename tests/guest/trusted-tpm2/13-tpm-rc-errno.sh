#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression (issue 9, review findings 2 and 4): "TPM return codes as
# errnos" on a TPM 2.0. The TPM core hands a TPM's return code over as an
# int: one of 0x80000000 and up became a negative non-errno (add_key then
# took it for a key pointer); resource exhaustion (0x902, 0x903) and the
# dictionary-attack lockout read EPERM. fail_function makes the first
# exchange of a load that needs the TPM (StartAuthSession, Load, or
# CreatePrimary without an SRK; after the ContextLoad of a session ours
# kept, see 48-kept-session.sh) return each code, as the TPM core would;
# the real 0x902 is in 14-review-nits.sh.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
why=$(t_ff_why trusted_tpm_exchange)
if [ -n "$why" ]; then
	t_skip_rest "$why"
	exit 0
fi
if ! t_key_add trusted c_k "new 32"; then
	t_skip_rest "cannot seal a key"
	exit 0
fi
b=$(t_key_blob trusted c_k)

rc() { # DESC ERRNO CODE
	_n=1	# with an SRK, after the kept session's ContextLoad
	[ "$(t_tpm2_kept)" = 1 ] && t_tpm2_srk_present && _n=2
	t_errno "$1" "$2" t_ff_refused trusted_tpm_exchange $_n "$3" c_x "load $b"
}
rc "TPM_RC_AUTH_FAIL (0x98e): EACCES (in-tree: EPERM)" EACCES 0x98e
rc "TPM_RC_OBJECT_MEMORY (0x902): EAGAIN" EAGAIN 0x902
rc "TPM_RC_SESSION_MEMORY (0x903): EAGAIN" EAGAIN 0x903
rc "TPM_RC_LOCKOUT (0x921): EBUSY" EBUSY 0x921
rc "0x1000, not a TPM 2.0 return code: EIO" EIO 0x1000
rc "0x80000001 (a negative int from the TPM core): EIO" EIO 0x80000001
t_check "the blob still loads afterwards" t_key_add trusted c_l "load $b"
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_ff_off
t_drop c_k c_l
