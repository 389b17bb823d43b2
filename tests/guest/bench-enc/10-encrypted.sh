#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (make bench-enc): encrypted key new, read (seal to a
# blob) and load, 32 and 4096 bytes, ours against the in-tree module in the
# same boot, alternated in rounds (ours ref lib, then lib ours ref, then ref
# lib ours, ...; lib is ours with accel=0: the AES and SHA-256 libraries
# whatever the kernel has), and a user key add of the same sizes as the
# floor of "new". tests/guest/tools/encbench.c
# does the operations and prints "# bench IMPL OP SIZE OPS NS" lines for
# tests/qemu/bench-enc.sh, "# crypto ..." lines say what the CPU has and
# which drivers ran; the results only say that every run worked.
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
	case $((r % 3)) in
	0) order="$order ours ref lib" ;;
	1) order="$order lib ours ref" ;;
	2) order="$order ref lib ours" ;;
	esac
	r=$((r + 1))
done

t_plan $((3 * RUNS + 1))
if [ "$TKH_KERNEL" != test ] || [ -z "$TKH_REF" ]; then
	t_skip_rest "needs the test kernel with the in-tree encrypted-keys.ko"
	exit 0
fi
if ! command -v encbench >/dev/null; then
	for i in $order user; do t_fail "$i" "no encbench in the initramfs"; done
	exit 0
fi

# What the CPU offers (QEMU's default CPU: none of these; -cpu max: TCG's).
flags=$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
have=
for f in aes ssse3 avx avx2 sha_ni; do
	case " $flags " in *" $f "*) have="$have $f" ;; esac
done
echo "# crypto cpu:${have:- none of aes ssse3 avx avx2 sha_ni}"

# bench_load IMPL: t_mods_load, for ours and ref; lib is ours with accel=0.
bench_load() {
	case $1 in
	lib)
		t_mods_load ref ours || return 1
		rmmod encrypted_keys && insmod "$TKH_MODS/encrypted-keys.ko" accel=0
		;;
	*) t_mods_load ref "$1" ;;
	esac
}

round=0
for impl in $order; do
	round=$((round + 1))
	if ! out=$(bench_load "$impl" 2>&1); then
		t_fail "$impl, run $round: $MS ms per measurement" "$out"
		continue
	fi
	# $impl on the module list must be what is loaded, or the ratio lies.
	want=$impl
	[ "$impl" != lib ] || want=ours
	if [ "$(t_enc_loaded_impl)" != "$want" ]; then
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
if out=$(encbench user user "$MS" 2>&1); then
	echo "$out"
	t_ok "user key add (the floor of new): $MS ms per measurement"
else
	t_fail "user key add (the floor of new): $MS ms per measurement" "$out"
fi
# Which drivers ran: ours says so at its first operation; the in-tree
# module's transforms are instances in /proc/crypto.
dmesg | sed -n 's/.*encrypted_keys: \(SHA-256: .*\)/# crypto ours: \1/p' | sort -u
awk -F' *: ' '$1 == "name" { n = $2 } $1 == "driver" { d = $2 }
	$1 == "priority" && (n == "cbc(aes)" || n == "hmac(sha256)" || n == "sha256") {
		print "# crypto alg " n " " d " " $2 }' /proc/crypto
t_mods_none
