#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The relay tests on the test kernel: run-all.sh's table relay, a TPM 2.0
# and a TPM 1.2 machine, each booted once through tests/relay/relay.py
# (record mode) with the guest suite tests/guest/relay (bus leak, tampering,
# a fuzz slice); then the host scans each recording with detect.py: the
# in-tree module's part (between the marks "ref" and "ours") must hold the
# sealed secret, ours is reported.
#
# usage: tests/relay/run.sh             table relay: both TPMs, the default fuzz slice
#        tests/relay/run.sh --fuzz      table relay-fuzz (make relay-fuzz): fuzz
#                                       only, long, five seeds a TPM
#
# run-all.sh's knobs apply: TKH_ONLY=relay-tpm2 (one TPM), TKH_IMPL=ref (the
# in-tree module under tampering), TKH_EXTRA (more kernel command-line words,
# e.g. tk.relay_noleak2=1 tk.relay_auth2=1, tk.relay_fuzz_n=N).
# Exit 0 only when every boot passed and the detector found the in-tree leak.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"

table=relay
[ "${1:-}" = --fuzz ] && table=relay-fuzz
run=$(t_rundir)
export TKH_RUN=$run	# run-all.sh runs in the same directory
rc=0
"$TKH_QEMU/run-all.sh" --table "$table" | tee "$run/run-all.out" || rc=1
[ "$table" = relay ] || exit $rc

# The host's own scan of a recording: ref leaks (proves the detector), ours reported.
p=0 f=0
for name in relay-tpm2 relay-tpm12; do
	out=$run/$name/p1
	if [ ! -f "$out/relay-in/relay-secret" ] || [ ! -f "$out/relay.rec" ]; then continue; fi
	sec=$(cat "$out/relay-in/relay-secret")
	grep -q '^# mark ref' "$out/relay.rec" || { echo "  $name: no ref part in the recording"; continue; }
	if python3 "$TKH_TOP/tests/relay/detect.py" -q --from-mark ref --to-mark ours "$out/relay.rec" "$sec"; then
		echo "FAIL $name: detect.py does not find the sealed secret in the in-tree module's traffic"
		f=$((f + 1)) rc=1
	else
		echo "PASS $name: detect.py finds the sealed secret in the in-tree module's traffic"
		p=$((p + 1))
	fi
	n=$(python3 "$TKH_TOP/tests/relay/detect.py" --from-mark ours --to-mark ours-end "$out/relay.rec" "$sec" \
		"$(cat "$out/relay-in/relay-secret-ba")" "$(cat "$out/relay-in/relay-ba")" | tail -n 1) || true
	echo "  $name, ours: $n (recording: $out/relay.rec)"
done
echo "detector: $p passed, $f failed"
exit $rc
