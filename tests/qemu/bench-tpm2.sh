#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0 trusted keys, ours against the in-tree module in one boot of the
# test kernel with one swtpm (SRK at 0x81000001): TPM commands per
# operation (counted in swtpm's log between the guest's marker commands)
# and milliseconds per operation. Not part of make check.
#
# Environment: TKH_BENCH_N=operations per kind for the latency (default 10)
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need make python3 rsync

run=$(tk_rundir)
export TKH_NESTED=1
d=$run/bench-tpm2
mkdir -p "$d/state"

tk_prepare test "$d" 2>"$d/prepare.log" || die "preparing the machine failed ($d/prepare.log)"
kdir=$tk_kdir
"$TK_QEMU/provision.sh" 2.0 "$d/tpm" 2>/dev/null
TKH_SWTPM_LOG_LEVEL=20 TKH_BOOT_NAME=bench-tpm2 "$TK_QEMU/boot.sh" "$tk_image" \
	"$tk_initrd" "$d/tpm" 2.0 \
	"tk.phase=1 tk.kernel=test tk.suites=bench-tpm2 tk.bench_n=${TKH_BENCH_N:-10} tk.timeout=3000" \
	"$d/p1" "$d/state" >"$d/verdict" 2>&1 || { cat "$d/verdict"; die "the bench boot failed"; }

echo "Trusted keys on a TPM 2.0 (swtpm $(swtpm --version | grep -o '[0-9.]*' | head -1), QEMU TCG), test kernel $(basename "$kdir")"
echo
echo "TPM commands per operation:"
python3 "$TK_QEMU/tpm2_count.py" "$d/p1/swtpm.log" "$d/p1/results.ktap" |
	awk '{ printf "  %-5s %-13s %2d   ", $1, $2, $3; for (i = 4; i <= NF; i++) printf "%s ", $i; print "" }'
echo
echo "Per operation (ms: mean of 2 x $((${TKH_BENCH_N:-10})) alternating rounds; ratio = ours / in-tree time;"
echo "cmds: TPM commands of one operation, ours (sessions on) and in-tree):"
python3 "$TK_QEMU/tpm2_count.py" --table "$d/p1/swtpm.log" "$d/p1/results.ktap"
echo
grep -E '^(not )?ok ' "$d/p1/results.ktap" | sed 's/^/  /'
