#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: the documented keyctl session on the test kernel with a TPM 1.2,
# across three boots of one machine (tests/guest/demo/10-session.sh), printed
# as a transcript on stdout.
#
# Environment: TKH_IMPL=ref  use the in-tree modules instead of ours
#              TKH_TPM=2.0   a TPM 2.0 (keyhandle=0x81000001) instead of 1.2
#              TKH_RUN=DIR, TKH_VERBOSE=1, TKH_BOOT_TIMEOUT as for run-all.sh
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need make python3 rsync

run=$(tk_rundir)
export TKH_NESTED=1
tpm=${TKH_TPM:-1.2}
impl=${TKH_IMPL:-ours}
d=$run/demo
mkdir -p "$d/state"

log "preparing the test kernel, our modules and the initramfs (the kernel is cached)"
ours=
[ "$impl" != ref ] || ours=--no-ours
tk_prepare test "$d" "$ours" 2>"$d/prepare.log" ||
	die "preparing the machine failed (log: $d/prepare.log); TKH_IMPL=ref make demo shows the in-tree modules"
kdir=$tk_kdir
"$TK_QEMU/provision.sh" "$tpm" "$d/tpm" 2>/dev/null

# The transcript: the "# " lines of the demo subtest, minus KTAP bookkeeping.
transcript() { # results.ktap
	sed -n 's/^    # //p' "$1" | grep -v -e '^Subtest: ' || true
}

echo "Demo: $impl trusted.ko and encrypted-keys.ko, test kernel $(basename "$kdir"), TPM $tpm"
rc=0
p=0 f=0 s=0
for phase in 1 2 3; do
	echo
	case $phase in
	1) echo "=== boot 1: a fresh machine" ;;
	*) echo "=== boot $phase: reboot (same TPM; the blobs saved by the last boot come along)" ;;
	esac
	out=$d/p$phase
	TKH_BOOT_NAME=demo-p$phase "$TK_QEMU/boot.sh" "$tk_image" "$tk_initrd" \
		"$d/tpm" "$tpm" "tk.phase=$phase tk.kernel=test tk.suites=demo tk.impl=$impl" \
		"$out" "$d/state" >"$out.verdict" 2>&1 || rc=1
	[ -f "$out/results.ktap" ] && transcript "$out/results.ktap"
	cp -a "$out/state/." "$d/state/" 2>/dev/null || true
	if [ -f "$out/counts" ]; then
		read -r bp bf bs <"$out/counts"
		p=$((p + bp)) f=$((f + bf)) s=$((s + bs))
	else
		f=$((f + 1))
	fi
done
echo
echo "Verdicts:"
cat "$d"/p[123].verdict
echo "$p passed, $f failed, $s skipped"
exit $rc
