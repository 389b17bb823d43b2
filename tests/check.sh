#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What `make check` runs: every stage, timed, then a summary table.
#
#   deps    tests/deps.sh (apt packages)
#   kernel  tests/qemu/build-kernel.sh   (the test kernel; cached; its "build-kernel"
#           progress lines come to the terminal as written; lint and guest
#           use it; in the background while host and fuzz run)
#   host    make -C tests/host test      (if tests/host/Makefile exists; host
#           and fuzz compile through ccache)
#   fuzz    make -C tests/host fuzz FUZZ_TIME=$TKH_FUZZ_TIME (default 8 s a
#           target; make fuzz: 20 s, make fuzz-long: 300 s)
#   lint    tests/lint.sh                (if present; in the background while
#           host and fuzz run: fuzz runs for a set time, lint takes what is left)
#   docs    tests/qemu/run-all.sh --check-doc (docs/testing.md's boot table),
#           tests/tools/kat.py --check (generated known answers up to date)
#   guest   tests/qemu/run-all.sh --table check   (every kernel, every boot)
#   pkg     run-all.sh's table pkg: make deb, apt install, DKMS, purge
#           (tests/pkg/dkms-test.sh, beside the pool at nice 19), then the
#           rows booting the modules DKMS built; with guest, in guest's pool
#           (--table check,pkg); root or a sudo without password, else skipped
#   realsys run-all.sh's table realsys (make realsys): a real installed
#           Debian 12 made and enrolled as the preparation of its kernel
#           (tests/realsys/prepare.sh), then its systemd boots; in the same
#           pool (--table check,pkg,realsys); root or a sudo without
#           password, else skipped
#
# guest and pkg start after the host stages (a host loaded by compilers makes
# more boots fail in the firmware: t_boot_tries boots those again); their
# output follows, guest's as it comes.
# A failing stage does not stop the later ones (except deps); the exit
# status is non-zero when any stage failed. TKH_STAGES=host,guest runs a subset.
# Logs: build/run-<timestamp>/check-<stage>.log; output of each stage also
# goes to the terminal.
# The closing "N passed, N failed, N skipped" sums the run's counts files
# (PASSED FAILED SKIPPED): one per guest boot (tests/qemu/ktap.py over its
# results.ktap) and per failed guest step ("0 1 0", run-all.sh), host/counts
# (ktap.py over host/results.ktap, the host unit tests' KTAP document),
# pkg/counts (ktap.py over the package test's KTAP document), and each
# counted preparation's and host check's (the real system's).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=qemu/common.sh
. "$(dirname "$0")/qemu/common.sh"

run=$(t_rundir)
stages=${TKH_STAGES:-deps,kernel,host,fuzz,lint,docs,guest,pkg,realsys}
declare -a names=() results=() times=() cpus=()

# cpu_seconds NAME: $run/check-NAME.cpu, the core-seconds (user + system) of
# the processes this shell has waited for, from bash's `times` (its second
# line; in this shell, not in a pipeline's subshell, which has waited for
# none; a file per stage: the background stages end at the same time).
cpu_seconds() {
	times >"$run/check-$1.times"
	awk 'NR == 2 {
		n = 0
		for (i = 1; i <= 2; i++) { split($i, t, "m"); n += t[1] * 60 + t[2] }
		printf "%.0f", n }' "$run/check-$1.times" >"$run/check-$1.cpu"
}

stage() { # name cmd...
	local name=$1 t0 rc=0 took
	shift
	case ",$stages," in *",$name,"*) ;; *) return 0 ;; esac
	echo "=== $name: $*"
	t0=$(now)
	( rc=0; "$@" || rc=$?; cpu_seconds "$name"; exit $rc ) 2>&1 |
		tee "$run/check-$name.log" || rc=${PIPESTATUS[0]}
	took=$(elapsed "$t0")
	done_stage "$name" "$rc" "$took"
}

done_stage() { # name rc seconds
	names+=("$1")
	times+=("$3")
	cpus+=("$(cat "$run/check-$1.cpu" 2>/dev/null || echo -)")
	if [ "$2" -eq 0 ]; then results+=(ok); else results+=("FAIL($2)"); fi
	echo "=== $1: $([ "$2" -eq 0 ] && echo ok || echo "FAILED (exit $2)") in ${3}s"
	return "$2"
}

skipped() { # name reason
	case ",$stages," in *",$1,"*) ;; *) return 0 ;; esac
	echo "=== $1: skipped ($2)"
	names+=("$1")
	times+=("-")
	cpus+=("-")
	results+=("skipped: $2")
}

total0=$(now)
failed=0
stage deps "$TKH_TOP/tests/deps.sh" || { echo "check: deps failed; stopping" >&2; exit 1; }

# A stage in the background: bg_start runs it with its output to its log;
# bg_finish prints the log (TAIL=1: follows it while the stage runs on) and
# records the stage's status and time.
declare -A bg_pid=()
bg_start() { # name cmd...
	local name=$1
	shift
	case ",$stages," in *",$name,"*) ;; *) return 0 ;; esac
	echo "=== $name: ${*#"$TKH_TOP/"} (in the background; its output follows)"
	: >"$run/check-$name.log"
	(
		t0=$(now)
		rc=0
		"$@" >"$run/check-$name.log" 2>&1 </dev/null || rc=$?
		cpu_seconds "$name"
		echo "$rc $(elapsed "$t0")" >"$run/check-$name.status"
	) &
	bg_pid[$name]=$!
}
bg_finish() { # name
	local name=$1 rc took
	[ -n "${bg_pid[$name]:-}" ] || return 0
	echo "=== $name"
	if [ "${TAIL:-0}" = 1 ]; then
		tail -n +1 -f --pid="${bg_pid[$name]}" "$run/check-$name.log" || true
		wait "${bg_pid[$name]}" || true
	else
		wait "${bg_pid[$name]}" || true
		cat "$run/check-$name.log"
	fi
	read -r rc took <"$run/check-$name.status" 2>/dev/null || { rc=1 took=-; }
	done_stage "$name" "$rc" "$took"
}

# The test kernel (cached: a tenth of a second; fresh: ten minutes) and lint
# in the background while host and fuzz run (fuzz runs for a set time,
# whatever else the machine does). lint asks build-kernel.sh for the tree,
# which waits for the build under way (a lock) and then answers from the cache.
# A kernel build's own lines ("build-kernel ...": what it builds, then its
# progress every 30 s) also come to the terminal as they are written (fd 6),
# between the host stages' lines: ten minutes of a first run are not silent.
exec 6>&1
# shellcheck disable=SC2016  # expanded by that bash
bg_start kernel bash -c 'set -o pipefail; "$0" 2>&1 | tee >(grep --line-buffered "^build-kernel " >&6)' \
	"$TKH_QEMU/build-kernel.sh"
if [ -x "$TKH_TOP/tests/lint.sh" ]; then
	bg_start lint "$TKH_TOP/tests/lint.sh"
else
	skipped lint "no tests/lint.sh"
fi
if [ -f "$TKH_TOP/tests/host/Makefile" ]; then
	# (through ccache, as every other build of the same sources: t_ccache)
	# Their KTAP document in the run, counted by ktap.py as a boot's is (no
	# document, a build that failed: one failure).
	mkdir -p "$run/host"
	stage host t_ccache env TKH_HOST_KTAP="$run/host/results.ktap" \
		make -j"$(nproc)" -C "$TKH_TOP/tests/host" test || failed=1
	case ",$stages," in
	*,host,*) python3 "$TKH_QEMU/ktap.py" --name host --results "$run/host/results.ktap" \
		--done '' --counts "$run/host/counts" >/dev/null || true ;;
	esac
	stage fuzz t_ccache make -j"$(nproc)" -C "$TKH_TOP/tests/host" fuzz FUZZ_TIME="${TKH_FUZZ_TIME:-8}" || failed=1
else
	skipped host "no tests/host/Makefile"
	skipped fuzz "no tests/host/Makefile"
fi
bg_finish kernel || failed=1
bg_finish lint || failed=1
stage docs sh -c "\"$TKH_QEMU/run-all.sh\" --check-doc && \"$TKH_TOP/tests/tools/kat.py\" --check && \"$TKH_TOP/tests/tools/secdoc.py\"" || failed=1

# The boots: one pool (run-all.sh) for the guest stage's table, the
# package test's (its preparation, make deb, apt and DKMS, runs beside the
# pool at nice 19: it takes the CPU the boots leave idle; its rows start
# once the modules DKMS built are there) and the real system's (its
# preparation is a job of the pool, like a kernel's). The package test and
# the real system need root or a sudo that needs no password.
root_ok=0
if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then root_ok=1; fi
tables=
case ",$stages," in *,guest,*) tables=check ;; esac
for t in pkg:pkg-test realsys:realsys; do	# STAGE (and table):ITS MAKE TARGET
	case ",$stages," in *,"${t%:*}",*) ;; *) continue ;; esac
	if [ $root_ok = 1 ]; then
		tables=${tables:+$tables,}${t%:*}
	else
		skipped "${t%:*}" "needs root or a sudo without password: sudo make ${t#*:}"
	fi
done
if [ -n "$tables" ]; then
	# the stage's name: guest, or the first table's when guest is not run
	# (a name of $stages: bg_start runs only those)
	stage_name=guest
	case $tables in check*) ;; *) stage_name=${tables%%,*} ;; esac
	[ "$tables" = "${tables#check,}" ] ||
		echo "=== ${tables#check,}: in the guest stage's pool (run-all.sh --table $tables)"
	bg_start "$stage_name" env TKH_RUN="$run" "$TKH_QEMU/run-all.sh" --table "$tables"
	TAIL=1 bg_finish "$stage_name" || failed=1
fi

echo
echo "Stage     Time      CPU       Result"
for i in "${!names[@]}"; do
	printf '%-9s %-9s %-9s %s\n' "${names[$i]}" "${times[$i]}$([ "${times[$i]}" = - ] || echo s)" \
		"${cpus[$i]}$([ "${cpus[$i]}" = - ] || echo s)" "${results[$i]}"
done
cpu_seconds total
printf '%-9s %-9s %-9s %s\n' total "$(elapsed "$total0")s" "$(cat "$run/check-total.cpu")s" "$([ $failed = 0 ] && echo ok || echo FAIL)"
echo "logs: $run"
# One closing count: the sum of the run's counts files (host unit tests, each
# guest boot, each failed guest step, each counted preparation and host
# check); a failed stage without counts still adds one failure. A boot inside
# a preparation (realsys's enrolment: kernel-realsys/boot-enrol/) is a
# subtest of the preparation's document, counted there; a boot booted again
# (t_boot_tries keeps a failed try as OUTDIR.tryN) counts its last try only,
# as run-all.sh's verdict does.
read -r tp tf ts < <(find "$run" -name counts -type f ! -path "$run/kernel-*/*/*" \
	! -path "*.try[0-9]/*" -exec cat {} + |
	awk '{ p += $1; f += $2; s += $3 } END { print p+0, f+0, s+0 }')
[ $failed = 0 ] || [ "$tf" -gt 0 ] || tf=1
echo "$tp passed, $tf failed, $ts skipped"
exit $failed
