#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression (issue 9, review findings 2 and 4): "TPM return codes as
# errnos" on a TPM 1.2. The TPM core hands a TPM's return code over as an
# int: one of 0x80000000 and up became a negative non-errno (add_key then
# took it for a key pointer); TPM_RESOURCES and the dictionary-attack
# lockout read EPERM. fail_function makes the OSAP exchange (the second
# of a new key, after GetRandom) return each code, as the TPM core would;
# sessions=0: without the transport session's exchanges in between.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any
why=$(t_ff_why trusted_tpm_exchange)
if [ -n "$why" ]; then
	t_skip_all "$why"
fi
# shellcheck disable=SC2034  # used in eval
s0=$(t_tpm1_sessions)

rc() { # DESC ERRNO CODE
	t_errno "$1" "$2" t_ff_refused trusted_tpm_exchange 2 "$3" r_x "new 32 sessions=0"
}
rc "TPM_AUTHFAIL (0x1): EACCES (in-tree: EPERM)" EACCES 0x1
rc "TPM_RESOURCES (0x15): EAGAIN" EAGAIN 0x15
rc "TPM_DEFEND_LOCK_RUNNING (0x803): EBUSY" EBUSY 0x803
rc "0x1000, not a TPM 1.2 return code: EIO" EIO 0x1000
rc "0x80000001 (a negative int from the TPM core): EIO" EIO 0x80000001
t_check "no session left; a new key works afterwards" \
	eval 't_eq sessions "$(t_tpm1_sessions)" "$s0" && t_key_add trusted r_k "new 32"'
t_ff_off
t_drop r_k
