#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make stress: the long versions of the fault-injection, differential-fuzzing
# and concurrency tests (issue 9). Not part of make check (which runs the
# short slices: suite faults on the test and test-tpm2 boots).
#
# The machines: run-all.sh's table stress, one at a time:
#   stress, stress-tpm2: suite stress on the test kernel, TPM 1.2 and 2.0:
#      the whole fault space of every operation of both key types, FZ_FULL
#      differential-fuzzing inputs (100k by default: 20k trusted, 80k
#      encrypted, each through both implementations), and a concurrency
#      smoke run;
#   stress-smp, stress-smp-tpm2: suite stress-smp on the stress kernel
#      (tests/qemu/kernels: SMP, PREEMPT, PROVE_LOCKING, KASAN, kmemleak;
#      built on first use, 15-20 minutes) with 2 vCPUs: tkstress.
# TKH_ONLY picks rows; TKH_EXTRA the guest's sizes (tk.fz_t=N tk.fz_e=N:
# differential-fuzzing inputs per boot; tk.st_secs=S: seconds per tkstress
# run; tk.timeout=S per guest script).
# Figures: the "# faults", "# fuzz", "# stress" lines of each boot, summed
# at the end.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"

run=$(t_rundir)
export TKH_RUN=$run	# run-all.sh runs in the same directory
rc=0
"$TKH_QEMU/run-all.sh" --table stress || rc=1
echo "make stress figures ($run):"
find "$run" -name results.ktap -print0 | xargs -0 grep -h '# \(faults\|fuzz\|tkfuzz\|stress\)' |
	tr -d '\r' | sed 's/^ *//' | sort | uniq -c | sed 's/^ *1 /  /' || true
exit $rc
