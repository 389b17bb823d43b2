#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (make bench): wall time of trusted key operations,
# ours against the in-tree module, in the same boot with the same TPM.
# Each measurement is one "# bench IMPL OP N MS" line for tests/qemu/bench.sh;
# the results only say that every operation succeeded.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"

# tk.bench_n=N on the kernel command line (tests/qemu/bench.sh sets it).
N=$(sed -n 's/.*tk\.bench_n=\([0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-20}

t_plan 2
if [ -z "$TK_REF" ]; then
	t_skip "ours" "no in-tree reference on this kernel: no ratio to report"
	t_skip "ref" "no in-tree reference on this kernel"
	exit 0
fi

# Milliseconds since boot; busybox date has no %N everywhere, uptime does.
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# timed IMPL OP FUNC: run "FUNC i" for i = 0..N-1 and print
# "# bench IMPL OP N MS". Nothing but FUNC runs inside the timing.
timed() {
	_t0=$(now_ms)
	_i=0
	while [ $_i -lt "$N" ]; do
		$3 $_i >/dev/null || return 1
		_i=$((_i + 1))
	done
	echo "# bench $1 $2 $N $(($(now_ms) - _t0))"
}

op_new() { keyctl add trusted "n$1" "new 32" "$_r"; }
op_load() { keyctl add trusted "l$1" "load $_b" "$_r"; }
op_update() { keyctl update "$_id" update; }

# measure IMPL: N x new, N x load, N x update; print the lines.
measure() {
	_dir=$TK_MODS
	[ "$1" = ref ] && _dir=$TK_REF
	mods_none && mod_insmod "$_dir" trusted.ko || return 1
	keyctl newring bench @s >/dev/null || return 1
	_r=$(keyctl search @s keyring bench) || return 1
	timed "$1" new op_new || return 1
	_b=$(keyctl pipe "$(keyctl search "$_r" trusted n0)") || return 1
	timed "$1" load op_load || return 1
	_id=$(keyctl search "$_r" trusted n0) || return 1
	timed "$1" update op_update || return 1
	keyctl unlink "$_r" @s >/dev/null
	keyctl clear "$_r" >/dev/null 2>&1
	return 0
}

# Interleave to spread any drift: ours, ref, ours, ref.
for impl in ours ref; do
	if out=$(measure $impl 2>&1); then
		echo "$out"
		t_ok "$impl: $N x new, load, update"
	else
		t_fail "$impl: $N x new, load, update" "$out"
	fi
done
mods_none
