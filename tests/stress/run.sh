#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make stress: the long versions of the fault-injection, differential-fuzzing
# and concurrency tests (issue 9). Not part of make check (which runs the
# short slices: suite faults on the test and test-tpm2 boots).
#
#   1. suite stress on the test kernel, TPM 1.2 and 2.0 (run-all.sh, one
#      machine at a time): the whole fault space of every operation of both
#      key types, FZ_FULL differential-fuzzing inputs (100k by default:
#      20k trusted, 80k encrypted, each through both implementations),
#      and a concurrency smoke run;
#   2. suite stress-smp on the stress kernel (tests/qemu/build-kernel.sh stress:
#      SMP, PREEMPT, PROVE_LOCKING, KASAN, kmemleak; built on first use,
#      15-20 minutes) with 2 vCPUs, TPM 1.2 and 2.0: tkstress.
# Figures: the "# faults", "# fuzz", "# stress" lines of each boot, summed
# at the end.
#
# Environment: TKH_STRESS_PARTS=1,2 (default both), TKH_SMP (default 2),
# TKH_STRESS_TIMEOUT (s per guest script, default 14400), TKH_ST_SECS (s per
# tkstress run on the stress kernel; default the script's 300), TKH_FZ_T and
# TKH_FZ_E (differential-fuzzing inputs per boot, trusted and encrypted;
# default 20000 and 80000).
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need make python3 rsync gcc

parts=${TKH_STRESS_PARTS:-1,2}
tmo=${TKH_STRESS_TIMEOUT:-14400}
run=$(t_rundir)
export TKH_NESTED=1 TKH_RUN=$run
rc=0
if [[ ,$parts, == *,1,* ]]; then
	TKH_JOBS=1 TKH_ONLY=test,test-tpm2 TKH_SUITES=stress TKH_EXTRA="tk.timeout=$tmo${TKH_FZ_T:+ tk.fz_t=$TKH_FZ_T}${TKH_FZ_E:+ tk.fz_e=$TKH_FZ_E}" \
		TKH_BOOT_TIMEOUT=$((tmo * 3)) "$TKH_QEMU/run-all.sh" || rc=1
fi
if [[ ,$parts, == *,2,* ]]; then
	d=$run/stress-smp
	mkdir -p "$d"
	if ! t_prepare stress "$d/machine" 2>"$d/prepare.log"; then
		echo "FAIL stress-smp: preparing the stress kernel failed ($d/prepare.log)"
		rc=1
	else
		for tpm in 1.2 2.0; do
			m=$d/tpm$tpm
			mkdir -p "$m/state"
			"$TKH_QEMU/provision.sh" "$tpm" "$m/tpm" 2>/dev/null
			TKH_SMP=${TKH_SMP:-2} TKH_BOOT_NAME=stress-smp-$tpm TKH_BOOT_TIMEOUT=$((tmo * 2)) \
				"$TKH_QEMU/boot.sh" "$t_image" "$t_initrd" "$m/tpm" "$tpm" \
				"tk.phase=1 tk.kernel=test tk.suites=stress-smp tk.timeout=$tmo${TKH_ST_SECS:+ tk.st_secs=$TKH_ST_SECS}" \
				"$m/p1" "$m/state" || rc=1
		done
	fi
fi
echo "make stress figures ($run):"
find "$run" -name results.ktap -print0 | xargs -0 grep -h '# \(faults\|fuzz\|tkfuzz\|stress\)' |
	tr -d '\r' | sed 's/^ *//' | sort | uniq -c | sed 's/^ *1 /  /' || true
exit $rc
