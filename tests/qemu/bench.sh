#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: trusted key operations, ours against the in-tree module, in the
# same boot of the test kernel with the same swtpm: milliseconds per operation
# and TPM commands per operation (tests/qemu/tpm1_count.py counts them in
# swtpm's log between the guest's marker commands). Not part of make check.
# The machine: run-all.sh's table bench (TKH_EXTRA=tk.bench_n=N for another
# number of operations per kind).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

run=$(t_rundir)
export TKH_RUN=$run	# run-all.sh runs in the same directory
"$TKH_QEMU/run-all.sh" --table bench >"$run/run-all.out" 2>"$run/run-all.log" ||
	{ cat "$run/run-all.out"; die "the bench boot failed ($run/run-all.log)"; }
d=$run/bench/p1
tpm=1.2
n=$(sed -n 's/.*tk\.bench_n=\([0-9]*\).*/\1/p' "$d/cmdline")
count() { python3 "$TKH_QEMU/tpm1_count.py" --tpm "$tpm" "$@" "$d/swtpm.log" "$d/results.ktap"; }
echo "Trusted keys on TPM $tpm (swtpm $(swtpm --version | grep -o '[0-9.]*' | head -1), QEMU TCG), test kernel"
echo
echo "TPM commands per operation (ours: default options, sessions on):"
count | awk '{ printf "  %-5s %-7s %2d   ", $1, $2, $3; for (i = 4; i <= NF; i++) printf "%s ", $i; print "" }'
echo
echo "Per operation (ms: mean of 2 x $n in alternating rounds; ratio = ours / in-tree time, below 1 is faster;"
echo "cmds: TPM commands of one operation, ours and in-tree):"
count --table
echo
grep -E '^(not )?ok ' "$d/results.ktap" | sed 's/^/  /'
