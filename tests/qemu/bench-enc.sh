#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-enc: encrypted key operations per second, ours against the in-tree
# encrypted-keys.ko, alternated in one boot of the test kernel (the guest side
# is tests/guest/bench-enc, the operations tests/guest/tools/encbench.c), plus a user
# key add of the same size as the floor of "new". Not part of make check.
# The test kernel has KASAN and kmemleak: absolute figures are far below a
# production kernel's, the ratios are what to read.
#
# Two rows, one boot each, of the same kernel (it has the AES-NI and SHA-256
# SSSE3/AVX2/SHA-NI drivers built in): "plain", QEMU's default CPU, which has
# none of those instructions (every implementation runs generic C), and
# "accel", -cpu max (TCG emulates AES-NI, SSSE3, AVX, AVX2: the kernel's
# accelerated drivers run). Both implementations run on the crypto API,
# each on the drivers the kernel prefers for what it asks.
#
# Every figure is the best of tk.bench_runs runs of the implementation
# (rounds of ours and in-tree in alternating order, then the user key
# add): on a host shared with other guests a run is only ever slowed down
# (one run of the same code measured from 0.4x to 1.7x of another,
# 2026-12-06). "paired" is a second estimate that needs no quiet stretch:
# the median over the rounds of the ratio of the round's own runs. Many
# short rounds rather than a few long ones: each implementation gets more
# chances at a quiet stretch of the host, and the two are closer in
# time. encbench waits for a seeded RNG before timing and lets the key
# garbage collector run between batches, outside the timing
# (tests/guest/tools/encbench.c).
#
# tsc=reliable (the rows' knob): with the host busy, the guest's timer
# ticks come late and the clocksource watchdog can take the TSC for the
# unstable one and fall back to jiffies (4 ms steps at HZ=250); a batch of
# "new" is shorter than that, and its figure came out up to 20 times too
# high (2026-12-06, the accel row of one run). The guest refuses to time on
# another clock.
#
# The machines: run-all.sh's table bench-enc, one at a time (TKH_ONLY=
# bench-enc-plain for one row; TKH_EXTRA="tk.bench_ms=MS tk.bench_runs=N").
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

run=$(t_rundir)
export TKH_RUN=$run	# run-all.sh runs in the same directory
"$TKH_QEMU/run-all.sh" --table bench-enc >"$run/run-all.out" 2>"$run/run-all.log" ||
	{ cat "$run/run-all.out"; die "a bench boot failed ($run/run-all.log)"; }
for row in plain accel; do
	d=$run/bench-enc-$row/p1
	[ -f "$d/results.ktap" ] || continue
	case $row in plain) cpuname="QEMU's default" ;; accel) cpuname=max ;; esac
	ms=$(sed -n 's/.*tk\.bench_ms=\([0-9]*\).*/\1/p' "$d/cmdline")
	runs=$(sed -n 's/.*tk\.bench_runs=\([0-9]*\).*/\1/p' "$d/cmdline")
	echo
	echo "Row $row: QEMU TCG, -cpu $cpuname; encrypted keys (user: master),"
	echo "test kernel with KASAN; ours and in-tree alternated"
	echo "in one boot, best of $runs runs of ${ms} ms per figure"
	grep -ho '# \(crypto\|clock\) .*' "$d/results.ktap" | sed 's/^# crypto /  /; s/^# clock /  clock: /'
	printf '%-5s %5s %11s %11s %7s %7s %10s\n' op bytes "ours ops/s" "in-tree" "ratio" "paired" "user add"
	grep -ho '# bench .*' "$d/results.ktap" | awk '
		$7 > 0 {
			k = $3 SUBSEP $4 SUBSEP $5; r = $6 * 1e9 / $7; if (r > best[k]) best[k] = r
			n[k]++; run[k, n[k]] = r
		}
		function rate(k) { return (k in best) ? best[k] : 0 }
		# the median over rounds i of impl(i) / in-tree(i): the runs of one
		# round are next to each other in time, a slow stretch of the host
		# slows both sides of the ratio
		function paired(impl, op, sz,   a, i, j, m, t, ki, kr) {
			ki = impl SUBSEP op SUBSEP sz; kr = "ref" SUBSEP op SUBSEP sz
			m = (n[ki] < n[kr]) ? n[ki] : n[kr]
			for (i = 1; i <= m; i++) a[i] = run[ki, i] / run[kr, i]
			for (i = 2; i <= m; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			if (!m) return 0
			return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		END {
			split("32 4096", sizes)
			split("new read load", order)
			for (s = 1; s <= 2; s++)
				for (i = 1; i <= 3; i++) {
					op = order[i]; sz = sizes[s]
					o = rate("ours" SUBSEP op SUBSEP sz)
					r = rate("ref" SUBSEP op SUBSEP sz)
					u = (op == "new") ? sprintf("%10.0f", rate("user" SUBSEP op SUBSEP sz)) : ""
					printf "%-5s %5d %11.0f %11.0f %6.2fx %6.2fx %s\n", op, sz, o, r,
						(r > 0 ? o / r : 0), paired("ours", op, sz), u
				}
		}'
done
echo
echo "(ratio = ours / in-tree ops/s: above 1 is faster; paired = the median over the"
echo " rounds of the ratio of that round's runs; user add = a user key of that size)"
