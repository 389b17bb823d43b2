#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What `make check` runs: every stage, timed, then a summary table.
#
#   deps    tests/deps.sh (apt packages)
#   kernel  tests/qemu/build-kernel.sh   (the test kernel; cached; lint and guest use it)
#   host    make -C tests/host test      (if tests/host/Makefile exists)
#   fuzz    make -C tests/host fuzz FUZZ_TIME=$TKH_FUZZ_TIME (default 8 s a
#           target; make fuzz: 20 s, make fuzz-long: 300 s)
#   lint    tests/lint.sh                (if present; in the background while
#           host and fuzz run: fuzz keeps one core busy, lint the other)
#   docs    tests/qemu/run-all.sh --check-doc (docs/testing.md's boot table),
#           tests/tools/kat.py --check (generated known answers up to date)
#   guest   tests/qemu/run-all.sh        (every kernel, every boot)
#   pkg     tests/pkg/dkms-test.sh       (make deb, apt install, DKMS, boots, purge; root)
#
# The guest stage runs in the background from the start (after kernel) while
# host, fuzz, lint and docs run in the foreground: the boots leave CPU idle
# (waits, kmemleak's ageing) that the host stages use. Its output follows theirs.
# A failing stage does not stop the later ones (except deps); the exit
# status is non-zero when any stage failed. TKH_STAGES=host,guest runs a subset.
# Logs: build/run-<timestamp>/check-<stage>.log; output of each stage also
# goes to the terminal.
# The closing "N passed, N failed, N skipped" sums the run's counts files
# (PASSED FAILED SKIPPED): one per guest boot and per failed guest step
# (run-all.sh), and host/counts (the host unit tests' summary line).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=qemu/common.sh
. "$(dirname "$0")/qemu/common.sh"

run=$(tk_rundir)
stages=${TKH_STAGES:-deps,kernel,host,fuzz,lint,docs,guest,pkg}
declare -a names=() results=() times=()

stage() { # name cmd...
	local name=$1 t0 rc=0 took
	shift
	case ",$stages," in *",$name,"*) ;; *) return 0 ;; esac
	echo "=== $name: $*"
	t0=$(now)
	"$@" 2>&1 | tee "$run/check-$name.log" || rc=${PIPESTATUS[0]}
	took=$(elapsed "$t0")
	done_stage "$name" "$rc" "$took"
}

done_stage() { # name rc seconds
	names+=("$1")
	times+=("$3")
	if [ "$2" -eq 0 ]; then results+=(ok); else results+=("FAIL($2)"); fi
	echo "=== $1: $([ "$2" -eq 0 ] && echo ok || echo "FAILED (exit $2)") in ${3}s"
	return "$2"
}

skipped() { # name reason
	case ",$stages," in *",$1,"*) ;; *) return 0 ;; esac
	echo "=== $1: skipped ($2)"
	names+=("$1")
	times+=("-")
	results+=("skipped: $2")
}

total0=$(now)
failed=0
stage deps "$TK_TOP/tests/deps.sh" || { echo "check: deps failed; stopping" >&2; exit 1; }
stage kernel "$TK_QEMU/build-kernel.sh" || failed=1

guest_pid=
# The guest stage: its log, then its status and time. It starts after the host
# stages: a loaded host makes SeaBIOS time out on the TPM at boot, and its
# failure path then disables the TPM 2.0 owner and endorsement hierarchies
# (seen as TPM_RC_HIERARCHY, 0x185, from the first command). TKH_OVERLAP=1
# starts it first, in parallel with the host stages.
start_guest() {
case ",$stages," in *,guest,*)
	echo "=== guest: tests/qemu/run-all.sh (in the background; its output follows the other stages)"
	: >"$run/check-guest.log"
	(
		t0=$(now)
		rc=0
		TKH_RUN=$run "$TK_QEMU/run-all.sh" >"$run/check-guest.log" 2>&1 </dev/null || rc=$?
		echo "$rc $(elapsed "$t0")" >"$run/check-guest.status"
	) &
	guest_pid=$!
esac
}
[ "${TKH_OVERLAP:-0}" = 1 ] && start_guest

# lint in the background: its output and time follow fuzz's.
lint_pid=
if [ -x "$TK_TOP/tests/lint.sh" ]; then
	case ",$stages," in *,lint,*)
		echo "=== lint: tests/lint.sh (in the background; its output follows fuzz)"
		(
			t0=$(now)
			rc=0
			"$TK_TOP/tests/lint.sh" >"$run/check-lint.log" 2>&1 </dev/null || rc=$?
			echo "$rc $(elapsed "$t0")" >"$run/check-lint.status"
		) &
		lint_pid=$!
	esac
else
	skipped lint "no tests/lint.sh"
fi

if [ -f "$TK_TOP/tests/host/Makefile" ]; then
	stage host make -j"$(nproc)" -C "$TK_TOP/tests/host" test || failed=1
	# The host tests' closing "N passed, N failed" line as a counts file.
	mkdir -p "$run/host"
	sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2 0/p' "$run/check-host.log" 2>/dev/null |
		tail -n 1 >"$run/host/counts" || true
	[ -s "$run/host/counts" ] || rm -f "$run/host/counts"
	stage fuzz make -j"$(nproc)" -C "$TK_TOP/tests/host" fuzz FUZZ_TIME="${TKH_FUZZ_TIME:-8}" || failed=1
else
	skipped host "no tests/host/Makefile"
	skipped fuzz "no tests/host/Makefile"
fi
if [ -n "$lint_pid" ]; then
	wait "$lint_pid" || true
	echo "=== lint: tests/lint.sh"
	cat "$run/check-lint.log"
	read -r lrc ltook <"$run/check-lint.status" 2>/dev/null || { lrc=1 ltook=-; }
	done_stage lint "$lrc" "$ltook" || failed=1
fi
stage docs sh -c "\"$TK_QEMU/run-all.sh\" --check-doc && \"$TK_TOP/tests/tools/kat.py\" --check && \"$TK_TOP/tests/tools/secdoc.py\"" || failed=1
[ -n "$guest_pid" ] || start_guest

if [ -n "$guest_pid" ]; then
	echo "=== guest: tests/qemu/run-all.sh"
	tail -n +1 -f --pid="$guest_pid" "$run/check-guest.log" || true
	wait "$guest_pid" || true
	read -r grc gtook <"$run/check-guest.status" 2>/dev/null || { grc=1 gtook=-; }
	done_stage guest "$grc" "$gtook" || failed=1
fi
# After the boots: the package test builds with DKMS and boots the stock kernels.
TKH_RUN=$run TKH_PKG_BOOTS=cross TKH_PKG_LATE=install stage pkg "$TK_TOP/tests/pkg/dkms-test.sh" || failed=1

echo
echo "Stage     Time      Result"
for i in "${!names[@]}"; do
	printf '%-9s %-9s %s\n' "${names[$i]}" "${times[$i]}$([ "${times[$i]}" = - ] || echo s)" "${results[$i]}"
done
printf '%-9s %-9s %s\n' total "$(elapsed "$total0")s" "$([ $failed = 0 ] && echo ok || echo FAIL)"
echo "logs: $run"
# One closing count: the sum of the run's counts files (host unit tests, each
# guest boot, each failed guest step); a failed stage without counts still
# adds one failure.
read -r tp tf ts < <(find "$run" -name counts -type f ! -path "$run/pkg/*/*" -exec cat {} + |
	awk '{ p += $1; f += $2; s += $3 } END { print p+0, f+0, s+0 }')
[ $failed = 0 ] || [ "$tf" -gt 0 ] || tf=1
echo "$tp passed, $tf failed, $ts skipped"
exit $failed
