#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Systematic fault injection (issue 9): every operation (new, load, update,
# read, revoke, unlink) of trusted keys and of encrypted keys under a user:
# and a trusted: master, with the Nth fault site failing for N stepping
# through the fault space (/proc/thread-self/fail-nth: slab allocations and
# our fail_function points), and each TPM exchange failing in turn. After
# each fault: a documented errno, no key made or changed by a failed
# operation, no TPM object or session left (tkfault); KASAN and kmemleak
# reports fail the boot. make check: every T_FAULT_STRIDE-th fault; make stress
# (tests/guest/stress): all of them.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/faults.sh"

t_plan 7
why=$(t_fault_why)
[ -n "$why" ] || [ "$TKH_TPM" != none ] || why="no TPM in this boot"
if [ -n "$why" ]; then
	t_skip_rest "$why"
	exit 0
fi
if ! t_mods_load ours ours; then
	t_skip_rest "our modules did not load"
	t_fail "modules" "t_mods_load ours ours failed"
	exit 1
fi
: >/tmp/ft.sum
o=$(t_fault_opts)
T1=trusted_tpm1_parse_session,trusted_hmac_work_alloc
E=encrypted_cbc_encrypt,encrypted_cbc_decrypt
t_fault_run "trusted, every operation: the Nth fault site fails" -x "$o" -F "$T1" trusted all nth
# every one of the first sites of new (the stride skips some): a failed
# allocation of the TPM 2.0 seal's work area freed a session through NULL
# (found by make stress, stride 1)
t_fault_run "trusted new: each of the first 16 fault sites fails" -s 1 -m 16 -x "$o" -F "$T1" trusted new nth
t_fault_run "trusted, every operation: each TPM exchange fails (EIO)" -s 1 -x "$o" -T 1 trusted all exch
t_fault_run "trusted, every operation: each TPM exchange fails (a TPM error code)" -s 1 -x "$o" -T 1 -r 0x101 trusted all exch
t_fault_run "encrypted under user:, every operation: the Nth fault site fails" -F "$E" enc-user all nth
t_fault_run "encrypted under trusted:, every operation: the Nth fault site fails" -x "$o" -F "$E,$T1" enc-trusted all nth
# works: trusted new and load, encrypted new and load under a user: master
works() {
	k=$(keyctl add trusted ft_k "new 32 $o" @u) &&
		b=$(keyctl pipe "$k") &&
		keyctl add trusted ft_l "load $b $o" @u >/dev/null &&
		keyctl add user ft_m 01234567890123456789012345678901 @u >/dev/null &&
		e=$(keyctl add encrypted ft_e "new user:ft_m 32" @u) &&
		b=$(keyctl pipe "$e") && keyctl unlink "$e" @u >/dev/null &&
		keyctl add encrypted ft_e "load $b" @u >/dev/null
}
t_check "afterwards trusted and encrypted keys are made and loaded" works
echo "# faults total ($TKH_TPM, stride $T_FAULT_STRIDE): $(t_fault_total)"
