#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fuzzed TPM responses (issue 8): the relay mutates responses to the
# commands a trusted key uses (random flips, bytes, response codes, tags,
# truncation, growth; seeded: RL_SEED, tk.relay_seed=) while the module
# under test loads and seals keys, RL_FUZZ_N (tk.relay_fuzz_n=) times.
# The default is a short deterministic slice for make check; make
# relay-fuzz runs long ones with many seeds. Asserted: every failure is a
# documented errno and leaves no key; no hang, KASAN, kmemleak or warning
# (the harness); afterwards the TPM works and holds the same key. With
# RL_AUTH2/RL_AUTH12: no wrong key from a mutated Unseal.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/relay.sh"

rl_setup
B=$(rl_get relay-blob-ba) BA=$(rl_get relay-ba)
if [ "$TK_TPM" = 1.2 ] && [ "$impl" = ours ]; then
	# Ours sends Seal, Unseal and GetRandom inside TPM_ExecuteTransport:
	# its responses, EstablishTransport's and GetPubKey's (not OIAP/OSAP:
	# a wrong nonce makes the TPM count authorisation failures).
	ORDS=e7+e6+21
elif [ "$TK_TPM" = 1.2 ]; then
	ORDS=18+17+46
else
	ORDS=15e+157+153+17b+176
fi
a=$(rl_ctl "fuzz $RL_SEED $RL_FUZZ_N $ORDS")
t_check "$impl: fuzz armed (seed $RL_SEED, $RL_FUZZ_N responses to $ORDS)" test "$a" = "armed $RL_FUZZ_N"
undoc='' leftkey='' objs=0 wrong=0 right=0 refused=0 ok=0 i=0
# Until the relay has mutated RL_FUZZ_N responses (at most 4 times as many
# operations: some do not reach the fuzzed ordinals).
while [ $i -lt $((RL_FUZZ_N * 4)) ]; do
	i=$((i + 1))
	case $((i % 3)) in
	0) op=new data="new 32 $KH" ;;
	1) op=load data="load $A $KH" ;;
	2) op=loadba data="load $B $KH blobauth=$BA" ;;
	esac
	tk_drop good
	if err=$(keyctl add trusted good "$data" @u 2>&1 >/dev/null); then
		ok=$((ok + 1))
		if [ "$op" = load ] && [ $check_enc = 1 ]; then
			if tk_enc_loads e_chk "$EB" 2>/dev/null; then
				right=$((right + 1))
			else
				wrong=$((wrong + 1))
			fi
			tk_drop e_chk
		fi
	else
		refused=$((refused + 1))
		rl_errno_ok "$err" >/dev/null || undoc="$undoc${undoc:+; }$op: $err"
		tk_absent good || leftkey="$leftkey $op"
	fi
	tk_drop good
	if [ "$TK_TPM" = 2.0 ]; then
		# A mutated Load response can hide an object from the kernel,
		# a mutated StartAuthSession response a session.
		lo=$(rl_flush_transients "80 02 03")
		[ "$lo" = 0 ] || objs=$((objs + 1))
		tk2_da_reset >/dev/null 2>&1
	fi
	case $(rl_ctl fired) in "fired $RL_FUZZ_N") break ;; esac
done
fired=$(rl_ctl disarm)
_t_diag "$i operations, $fired: $refused refused, $ok accepted ($right loads with the right key, $wrong with a wrong one); $objs left a TPM object or session (flushed)"
if [ -z "$undoc" ]; then
	t_ok "$impl: every refusal is a documented errno"
else
	t_fail "$impl: every refusal is a documented errno" "$undoc"
fi
if [ -z "$leftkey" ]; then
	t_ok "$impl: no key left after a refusal"
else
	t_fail "$impl: no key left after a refusal" "left by:$leftkey"
fi
if [ "$wrong" = 0 ]; then
	t_ok "$impl: no load gave a wrong key"
elif [ "$(rl_auth)" = 1 ]; then
	t_fail "$impl: no load gave a wrong key" "$wrong load(s) gave a wrong key"
else
	t_skip "$impl: no load gave a wrong key" "TODO responses not authenticated: $wrong wrong key(s)"
fi
rl_still_works
