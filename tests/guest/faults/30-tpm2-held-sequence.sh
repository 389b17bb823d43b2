#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# docs/security.md row 52 ("KEYS: trusted: Reserve TPM for seal and unseal
# operations"): a TPM 2.0 key operation is a sequence (StartAuthSession,
# Load, Unseal or Create, FlushContext) whose objects and sessions live in
# the TPM between commands. Another TPM user must not come in between: our
# module holds the chip (trusted_tpm_hold(), src/trusted/tpm.c) from the
# first command to the last. Here a user-space process flushes every
# transient object and session handle the kernel's sequences use, through
# /dev/tpm0, as fast as it can, while keys are made and loaded: none of them
# may fail. Without the hold, a flush between Load and Unseal fails the
# load (TPM_RC_HANDLE / TPM_RC_REFERENCE_*).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/faults.sh"

N=${TH_N:-25}
t_plan 4
why=
[ "$TKH_KERNEL" = test ] || why="runs on the test kernel"
[ -n "$why" ] || [ "${TKH_PHASE:-1}" = 1 ] || why="runs in phase 1 only"
[ -n "$why" ] || [ "$TKH_TPM" = 2.0 ] || why="TPM $TKH_TPM: TPM 2.0 sequences"
[ -n "$why" ] || [ -c /dev/tpm0 ] || why="no /dev/tpm0"
[ -n "$why" ] || t_mods_load ours ours || why="our modules did not load"
if [ -n "$why" ]; then
	t_skip_rest "$why"
	exit 0
fi
keyctl link @u @s >/dev/null 2>&1
W=/tmp/th
rm -rf $W
mkdir -p $W
O=keyhandle=0x81000001
keyctl add trusted th_k "new 32 $O" @u >/dev/null
blob=$(keyctl pipe "$(keyctl search @u trusted th_k)")
keyctl unlink "$(keyctl search @u trusted th_k)" @u >/dev/null

# the flusher: every transient object and (loaded or saved) session handle
# of the first slots, one FlushContext each, until $W/stop; counts rounds
flusher() {
	_r=0
	while [ ! -e $W/stop ]; do
		for _h in 80000000 80000001 80000002 02000000 02000001 02000002 \
			03000000 03000001 03000002; do
			t_tpm2_flush $_h 2>/dev/null
		done
		_r=$((_r + 1))
		echo $_r >$W/rounds
	done
}
flusher &
fp=$!

# ops: N loads of the blob and N/5 new keys, and more (up to 4 N loads)
# until the flusher has done N/5 rounds meanwhile; failures with their error
rounds() { _r=0; read -r _r <$W/rounds 2>/dev/null; echo "${_r:-0}"; }
ops() {
	_i=0
	_bad=0
	while [ $_i -lt "$N" ] ||
		{ [ $_i -lt $((4 * N)) ] && read -r _r <$W/rounds && [ $((_r - r0)) -lt $((N / 5)) ]; }; do
		if ! keyctl add trusted th_l "load $blob $O" @u >/dev/null 2>$W/err; then
			echo "load $_i: $(cat $W/err)"
			_bad=$((_bad + 1))
		fi
		if [ $((_i % 5)) = 0 ] && ! keyctl add trusted "th_n$_i" "new 32 $O" @u >/dev/null 2>$W/err; then
			echo "new $_i: $(cat $W/err)"
			_bad=$((_bad + 1))
		fi
		keyctl unlink "$(keyctl search @u trusted th_l 2>/dev/null)" @u >/dev/null 2>&1
		_i=$((_i + 1))
	done
	[ $_bad = 0 ]
}
r0=$(rounds)
t_check "$N loads and $((N / 5)) new keys (or more) while /dev/tpm0 flushes every handle" ops
r1=$(rounds)
: >$W/stop
wait $fp
echo "# held: flusher rounds during the operations: $((r1 - r0)) ($(((r1 - r0) * 9)) FlushContext)"
# a round is 9 FlushContext through busybox (each waits while a sequence
# holds the chip): a few rounds per key operation is what a TCG guest does
t_check "the flusher ran throughout (at least $((N / 5)) rounds)" test $((r1 - r0)) -ge $((N / 5))
t_check "afterwards the blob still loads" keyctl add trusted th_l "load $blob $O" @u
no_left() {
	_l=$(t_tpm2_leftovers)
	[ "$_l" = "0 0 0" ] || { echo "transient, loaded, saved: $_l" >&2; return 1; }
}
t_check "no transient object or session left in the TPM" no_left
for k in $(keyctl rlist @u 2>/dev/null); do
	case $(keyctl rdescribe "$k" 2>/dev/null) in
	trusted\;*\;th_*) keyctl unlink "$k" @u >/dev/null 2>&1 ;;
	esac
done
