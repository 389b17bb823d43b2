#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (make bench-enc): encrypted key new, read (seal to a
# blob) and load, 32 and 4096 bytes, ours against the in-tree module in the
# same boot, alternated in rounds (ours ref, then ref ours, ...), and a user
# key add of the same sizes as the floor of "new", once a round.
# tests/guest/tools/encbench.c does the operations and prints
# "# bench IMPL OP SIZE OPS NS" lines for tests/qemu/bench-enc.sh,
# "# crypto ..." lines say what the CPU has and which drivers ran; the
# results only say that every run worked.
here=${0%/*}
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../lib/encrypted.sh
. "$here/../lib/encrypted.sh"

# tk.bench_ms=MS on the kernel command line: time per measurement;
# tk.bench_runs=N: rounds (each implementation runs once a round).
MS=$(sed -n 's/.*tk\.bench_ms=\([0-9]*\).*/\1/p' /proc/cmdline)
MS=${MS:-500}
RUNS=$(sed -n 's/.*tk\.bench_runs=\([0-9]*\).*/\1/p' /proc/cmdline)
RUNS=${RUNS:-4}
order=
r=0
while [ "$r" -lt "$RUNS" ]; do
	case $((r % 2)) in
	0) order="$order ours ref" ;;
	1) order="$order ref ours" ;;
	esac
	r=$((r + 1))
done

t_plan $((3 * RUNS + 1))
if [ "$TKH_KERNEL" != test ] || [ -z "$TKH_REF" ]; then
	t_skip_rest "needs the test kernel with the in-tree encrypted-keys.ko"
	exit 0
fi
# A batch of "new" takes a few ms: timing it needs a fine clock. On a busy
# host the watchdog can demote the TSC to jiffies (4 ms steps), which
# bench-enc.sh's tsc=reliable prevents; refuse to time on anything else.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
echo "# clock $cs"
if [ "$cs" != tsc ]; then
	t_fail "the clocksource is the TSC" "it is '$cs': figures would be quantized"
	t_skip_rest "no fine clock to time with"
	exit 0
fi
t_ok "the clocksource is the TSC"

if ! command -v encbench >/dev/null; then
	for i in $order; do t_fail "$i" "no encbench in the initramfs"; done
	for i in $(seq "$RUNS"); do t_fail "user, round $i" "no encbench in the initramfs"; done
	exit 0
fi

# What the CPU offers (QEMU's default CPU: none of these; -cpu max: TCG's).
flags=$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
have=
for f in aes ssse3 avx avx2 sha_ni; do
	case " $flags " in *" $f "*) have="$have $f" ;; esac
done
echo "# crypto cpu:${have:- none of aes ssse3 avx avx2 sha_ni}"

# bench_user ROUND: the floor of new, after each round's two.
bench_user() {
	if out=$(encbench user user "$MS" 2>&1); then
		echo "$out"
		t_ok "user key add (the floor of new), round $1: $MS ms per measurement"
	else
		t_fail "user key add (the floor of new), round $1: $MS ms per measurement" "$out"
	fi
}

run=0
for impl in $order; do
	run=$((run + 1))
	round=$(((run + 1) / 2))
	if [ $((run % 2)) = 1 ] && [ "$run" -gt 1 ]; then
		bench_user $((round - 1))
	fi
	if ! out=$(t_mods_load ref "$impl" 2>&1); then
		t_fail "$impl, run $round: $MS ms per measurement" "$out"
		continue
	fi
	# $impl on the module list must be what is loaded, or the ratio lies.
	if [ "$(t_enc_loaded_impl)" != "$impl" ]; then
		t_fail "$impl, run $round: $MS ms per measurement" "loaded: $(t_enc_loaded_impl)"
		continue
	fi
	if out=$(encbench bench "$impl" "$MS" 2>&1); then
		echo "$out"
		t_ok "$impl, run $round: $MS ms per measurement"
	else
		t_fail "$impl, run $round: $MS ms per measurement" "$out"
	fi
done
bench_user "$RUNS"
# Which drivers ran: ours says so at its first operation; the in-tree
# module's transforms are instances in /proc/crypto.
dmesg | sed -n 's/.*encrypted_keys: \(SHA-256: .*\)/# crypto ours: \1/p' | sort -u
awk -F' *: ' '$1 == "name" { n = $2 } $1 == "driver" { d = $2 }
	$1 == "priority" && (n == "cbc(aes)" || n == "hmac(sha256)" || n == "sha256") {
		print "# crypto alg " n " " d " " $2 }' /proc/crypto
t_mods_none
