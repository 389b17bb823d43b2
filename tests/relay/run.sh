#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The relay tests on the test kernel: a TPM 2.0 and a TPM 1.2 machine, each
# booted once through tests/relay/relay.py (record mode) with the guest suite
# tests/guest/relay (bus leak, tampering, a fuzz slice); then the host scans
# each recording with detect.py: the in-tree module's part (between the
# marks "ref" and "ours") must hold the sealed secret, ours is reported.
#
# usage: tests/relay/run.sh             both TPMs, the default fuzz slice
#        tests/relay/run.sh --fuzz      make relay-fuzz: fuzz only, long, several seeds
#
# Environment: TKH_TPM=2.0|1.2 (one TPM only), TKH_IMPL=ref (the in-tree module
# under tampering), TKH_RELAY_SEEDS (default "1 2 3 4 5") and TKH_RELAY_FUZZ_N (default 200) for --fuzz,
# TKH_RELAY_EXTRA (more kernel command-line words, e.g. tk.relay_noleak2=1 tk.relay_auth2=1),
# and boot.sh's (TKH_BOOT_TIMEOUT, TKH_VERBOSE...).
# Exit 0 only when every boot passed and the detector found the in-tree leak.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need make python3 rsync

fuzz=0
[ "${1:-}" = --fuzz ] && fuzz=1
run=$(t_rundir)
export TKH_NESTED=1
d=$run/relay
mkdir -p "$d"
log "preparing the test kernel, our modules and the initramfs (the kernel is cached)"
t_image='' t_initrd=''	# set by t_prepare
t_prepare test "$d" 2>"$d/prepare.log" || die "preparing the machine failed (log: $d/prepare.log)"

tpms=${TKH_TPM:-2.0 1.2}
rc=0 p=0 f=0 s=0
boot() { # name tpm extras
	local out=$d/$1 brc=0
	"$TKH_QEMU/provision.sh" "$2" "$d/$1.tpm" 2>/dev/null
	TKH_RELAY=record TKH_BOOT_NAME=$1 "$TKH_QEMU/boot.sh" "$t_image" "$t_initrd" "$d/$1.tpm" "$2" \
		"tk.phase=1 tk.kernel=test tk.timeout=900 $3${TKH_IMPL:+ tk.impl=$TKH_IMPL} ${TKH_RELAY_EXTRA:-}" \
		"$out" || brc=$?
	[ "$brc" = 0 ] || rc=1
	if [ -f "$out/counts" ]; then
		read -r bp bf bs <"$out/counts"
		p=$((p + bp)) f=$((f + bf)) s=$((s + bs))
	else
		f=$((f + 1))
	fi
}

# The host's own scan of a recording: ref leaks (proves the detector), ours reported.
scan() { # name
	local out=$d/$1 sec n
	[ -f "$out/relay-in/relay-secret" ] && [ -f "$out/relay.rec" ] || return 0
	sec=$(cat "$out/relay-in/relay-secret")
	grep -q '^# mark ref' "$out/relay.rec" || { echo "  $1: no ref part in the recording"; return 0; }
	if python3 "$TKH_TOP/tests/relay/detect.py" -q --from-mark ref --to-mark ours "$out/relay.rec" "$sec"; then
		echo "FAIL $1: detect.py does not find the sealed secret in the in-tree module's traffic"
		f=$((f + 1)) rc=1
	else
		echo "PASS $1: detect.py finds the sealed secret in the in-tree module's traffic"
		p=$((p + 1))
	fi
	n=$(python3 "$TKH_TOP/tests/relay/detect.py" --from-mark ours --to-mark ours-end "$out/relay.rec" "$sec" \
		"$(cat "$out/relay-in/relay-secret-ba")" "$(cat "$out/relay-in/relay-ba")" | tail -n 1) || true
	echo "  $1, ours: $n (recording: $out/relay.rec)"
}

for tpm in $tpms; do
	name=relay-tpm${tpm%.0}
	if [ $fuzz = 1 ]; then
		for seed in ${TKH_RELAY_SEEDS:-1 2 3 4 5}; do
			TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-14400} boot "$name-fuzz$seed" "$tpm" \
				"tk.suites=relay tk.timeout=14000 tk.relay_fuzz_only=1 tk.relay_seed=$seed tk.relay_fuzz_n=${TKH_RELAY_FUZZ_N:-200}"
		done
	else
		boot "$name" "$tpm" "tk.suites=relay"
		scan "$name"
	fi
done
echo "$p passed, $f failed, $s skipped"
exit $rc
