#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: trusted key operations, ours against the in-tree module, in the
# same boot of the test kernel with the same swtpm: milliseconds per operation
# and TPM commands per operation (tests/qemu/tpm1_count.py counts them in
# swtpm's log between the guest's marker commands). Not part of make check.
#
# Environment: TKH_TPM=1.2|2.0 (default 1.2), TKH_BENCH_N=operations per kind (20)
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need make python3 rsync

run=$(t_rundir)
export TKH_NESTED=1
tpm=${TKH_TPM:-1.2}
d=$run/bench
mkdir -p "$d/state"

t_prepare test "$d" 2>"$d/prepare.log" || die "preparing the machine failed ($d/prepare.log)"
kdir=$t_kdir
"$TKH_QEMU/provision.sh" "$tpm" "$d/tpm" 2>/dev/null
# swtpm log level 20: every command and response, for the counts.
TKH_SWTPM_LOG_LEVEL=20 TKH_BOOT_NAME=bench "$TKH_QEMU/boot.sh" "$t_image" "$t_initrd" \
	"$d/tpm" "$tpm" "tk.phase=1 tk.kernel=test tk.suites=bench tk.bench_n=${TKH_BENCH_N:-20} tk.timeout=3000" \
	"$d/p1" "$d/state" >"$d/verdict" 2>&1 || { cat "$d/verdict"; die "the bench boot failed"; }

count() { python3 "$TKH_QEMU/tpm1_count.py" --tpm "$tpm" "$@" "$d/p1/swtpm.log" "$d/p1/results.ktap"; }
echo "Trusted keys on TPM $tpm (swtpm $(swtpm --version | grep -o '[0-9.]*' | head -1), QEMU TCG), test kernel $(basename "$kdir")"
echo
echo "TPM commands per operation (ours: default options, sessions on):"
count | awk '{ printf "  %-5s %-7s %2d   ", $1, $2, $3; for (i = 4; i <= NF; i++) printf "%s ", $i; print "" }'
echo
echo "Per operation (ms: mean of 2 x ${TKH_BENCH_N:-20} in alternating rounds; ratio = ours / in-tree time, below 1 is faster;"
echo "cmds: TPM commands of one operation, ours and in-tree):"
count --table
echo
grep -E '^(not )?ok ' "$d/p1/results.ktap" | sed 's/^/  /'
