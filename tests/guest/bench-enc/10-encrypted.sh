#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (make bench-enc): encrypted key new, read (seal to a
# blob) and load, 32 and 4096 bytes, ours against the in-tree module in the
# same boot, alternated (ours, ref, ref, ours), and a user key add of the same
# sizes as the floor of "new". tests/tools/encbench.c does the operations and
# prints "# bench IMPL OP SIZE OPS NS" lines for tests/qemu/bench-enc.sh;
# the results only say that every run worked.
here=${0%/*}
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../encrypted/enc.inc
. "$here/../encrypted/enc.inc"

# tk.bench_ms=MS on the kernel command line: time per measurement.
MS=$(sed -n 's/.*tk\.bench_ms=\([0-9]*\).*/\1/p' /proc/cmdline)
MS=${MS:-500}

t_plan 5
if [ "$TK_KERNEL" != test ] || [ -z "$TK_REF" ]; then
	t_skip_rest "needs the test kernel with the in-tree encrypted-keys.ko"
	exit 0
fi
if ! command -v encbench >/dev/null; then
	for i in 1 2 3 4 5; do t_fail "run $i" "no encbench in the initramfs"; done
	exit 0
fi

round=0
for impl in ours ref ref ours; do
	round=$((round + 1))
	if ! out=$(ek_mods "$impl" 2>&1); then
		t_fail "$impl, run $round: $MS ms per measurement" "$out"
		continue
	fi
	# $impl on the module list must be what is loaded, or the ratio lies.
	if [ "$(ek_loaded_impl)" != "$impl" ]; then
		t_fail "$impl, run $round: $MS ms per measurement" "loaded: $(ek_loaded_impl)"
		continue
	fi
	if out=$(encbench bench "$impl" "$MS" 2>&1); then
		echo "$out"
		t_ok "$impl, run $round: $MS ms per measurement"
	else
		t_fail "$impl, run $round: $MS ms per measurement" "$out"
	fi
done
if out=$(encbench user user "$MS" 2>&1); then
	echo "$out"
	t_ok "user key add (the floor of new): $MS ms per measurement"
else
	t_fail "user key add (the floor of new): $MS ms per measurement" "$out"
fi
mods_none
