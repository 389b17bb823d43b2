#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-tpm2: TPM 2.0 trusted keys, ours against the in-tree module in
# one boot of the test kernel with one swtpm (SRK at 0x81000001): TPM
# commands per operation (counted in swtpm's log between the guest's marker
# commands) and milliseconds per operation. Not part of make check.
# The machine: run-all.sh's table bench-tpm2 (TKH_EXTRA=tk.bench_n=N).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

run=$(t_rundir)
export TKH_RUN=$run	# run-all.sh runs in the same directory
"$TKH_QEMU/run-all.sh" --table bench-tpm2 >"$run/run-all.out" 2>"$run/run-all.log" ||
	{ cat "$run/run-all.out"; die "the bench boot failed ($run/run-all.log)"; }
d=$run/bench-tpm2/p1
n=$(sed -n 's/.*tk\.bench_n=\([0-9]*\).*/\1/p' "$d/cmdline")
echo "Trusted keys on a TPM 2.0 (swtpm $(swtpm --version | grep -o '[0-9.]*' | head -1), QEMU TCG), test kernel"
echo
echo "TPM commands per operation:"
python3 "$TKH_QEMU/tpm2_count.py" "$d/swtpm.log" "$d/results.ktap" |
	awk '{ printf "  %-5s %-13s %2d   ", $1, $2, $3; for (i = 4; i <= NF; i++) printf "%s ", $i; print "" }'
echo
echo "Per operation (ms: mean of 2 x $n alternating rounds; ratio = ours / in-tree time;"
echo "cmds: TPM commands of one operation, ours (sessions on) and in-tree):"
python3 "$TKH_QEMU/tpm2_count.py" --table "$d/swtpm.log" "$d/results.ktap"
echo
grep -E '^(not )?ok ' "$d/results.ktap" | sed 's/^/  /'
