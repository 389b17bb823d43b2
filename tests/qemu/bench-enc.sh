#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-enc: encrypted key operations per second, ours against the in-tree
# encrypted-keys.ko, alternated in one boot of the test kernel (the guest side
# is tests/guest/bench-enc, the operations tests/tools/encbench.c), plus a user
# key add of the same size as the floor of "new". Not part of make check.
# The test kernel has KASAN and kmemleak: absolute figures are far below a
# production kernel's, the ratios are what to read.
#
# Environment: TKH_BENCH_MS=milliseconds per measurement and run (default 500;
# every figure sums two runs per implementation)
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need make python3 rsync gcc

run=$(tk_rundir)
export TKH_NESTED=1
ms=${TKH_BENCH_MS:-500}
d=$run/bench-enc
mkdir -p "$d/state"

tk_prepare test "$d" 2>"$d/prepare.log" || die "preparing the machine failed ($d/prepare.log)"
kdir=$tk_kdir
# trusted.ko (which both encrypted-keys.ko need) wants a TPM to load.
"$TK_QEMU/provision.sh" 1.2 "$d/tpm" 2>/dev/null
TKH_BOOT_NAME=bench-enc "$TK_QEMU/boot.sh" "$tk_image" "$tk_initrd" \
	"$d/tpm" 1.2 "tk.phase=1 tk.kernel=test tk.suites=bench-enc tk.bench_ms=$ms tk.timeout=1200" \
	"$d/p1" "$d/state" >"$d/verdict" 2>&1 || { cat "$d/verdict"; die "the bench boot failed"; }

echo "Encrypted keys (user: master), test kernel $(basename "$kdir") with KASAN, QEMU TCG"
echo "ours and in-tree alternated in one boot, ${ms} ms x 2 runs per figure"
printf '%-5s %5s %12s %12s %7s %12s\n' op bytes "ours ops/s" "in-tree" "ratio" "user add"
grep -ho '# bench .*' "$d/p1/results.ktap" | awk '
	{ ops[$3, $4, $5] += $6; ns[$3, $4, $5] += $7 }
	function rate(k) { return (k in ns && ns[k] > 0) ? ops[k] * 1e9 / ns[k] : 0 }
	END {
		split("32 4096", sizes)
		split("new read load", order)
		for (s = 1; s <= 2; s++)
			for (i = 1; i <= 3; i++) {
				op = order[i]; sz = sizes[s]
				o = rate("ours" SUBSEP op SUBSEP sz)
				r = rate("ref" SUBSEP op SUBSEP sz)
				u = (op == "new") ? sprintf("%12.0f", rate("user" SUBSEP op SUBSEP sz)) : ""
				printf "%-5s %5d %12.0f %12.0f %6.2fx %s\n", op, sz, o, r, (r > 0 ? o / r : 0), u
			}
	}'
echo "(ratio = ours / in-tree ops/s: above 1 is faster; user add = a user key of that size)"
