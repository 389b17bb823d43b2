#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: trusted key operations, ours against the in-tree module, measured
# in the same boot of the test kernel with the same swtpm. Not part of make check.
#
# Environment: TKH_TPM=1.2|2.0 (default 1.2), TKH_BENCH_N=operations per kind (20)
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need make python3 rsync

run=$(tk_rundir)
export TKH_NESTED=1
tpm=${TKH_TPM:-1.2}
d=$run/bench
mkdir -p "$d/state"

tk_prepare test "$d" 2>"$d/prepare.log" || die "preparing the machine failed ($d/prepare.log)"
kdir=$tk_kdir
"$TK_QEMU/provision.sh" "$tpm" "$d/tpm" 2>/dev/null
TKH_BOOT_NAME=bench "$TK_QEMU/boot.sh" "$tk_image" "$tk_initrd" \
	"$d/tpm" "$tpm" "tk.phase=1 tk.kernel=test tk.suites=bench tk.bench_n=${TKH_BENCH_N:-20} tk.timeout=3000" \
	"$d/p1" "$d/state" >"$d/verdict" 2>&1 || { cat "$d/verdict"; die "the bench boot failed"; }

echo "Trusted keys on TPM $tpm (swtpm, QEMU TCG), test kernel $(basename "$kdir")"
printf '%-8s %6s %12s %12s %8s\n' op n "ours ms/op" "in-tree" "ratio"
grep -ho '# bench .*' "$d/p1/results.ktap" | awk '
	{ ms[$3, $4] = $6 / $5; cnt[$4] = $5; ops[$4] = 1 }
	END {
		split("new load update", order)
		for (i = 1; i <= 3; i++) {
			op = order[i]
			if (!(op in ops)) continue
			o = ms["ours", op]; r = ms["ref", op]
			printf "%-8s %6d %12.1f %12.1f %7.2fx\n", op, cnt[op], o, r, (r > 0 ? o / r : 0)
		}
	}'
echo "(ratio = ours / in-tree: below 1 is faster)"
