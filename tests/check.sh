#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What `make check` runs: every stage, timed, then a summary table.
#
#   deps    tests/deps.sh (apt packages)
#   kernel  tests/qemu/build-kernel.sh   (the test kernel; cached; lint and guest use it)
#   host    make -C tests/host test      (if tests/host/Makefile exists)
#   fuzz    make -C tests/host fuzz      (if tests/host/Makefile exists)
#   lint    tests/lint.sh                (if present)
#   guest   tests/qemu/run-all.sh        (every kernel, every boot)
#   pkg     tests/pkg/dkms-test.sh       (make deb, apt install, DKMS, boots, purge; root)
#
# A failing stage does not stop the later ones (except deps); the exit
# status is non-zero when any stage failed. TK_STAGES=host,guest runs a subset.
# Logs: build/run-<timestamp>/check-<stage>.log; output of each stage also
# goes to the terminal.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=qemu/common.sh
. "$(dirname "$0")/qemu/common.sh"

run=$(tk_rundir)
stages=${TK_STAGES:-deps,kernel,host,fuzz,lint,guest,pkg}
declare -a names=() results=() times=()

stage() { # name cmd...
	local name=$1 t0 rc=0 took
	shift
	case ",$stages," in *",$name,"*) ;; *) return 0 ;; esac
	echo "=== $name: $*"
	t0=$(now)
	"$@" 2>&1 | tee "$run/check-$name.log" || rc=${PIPESTATUS[0]}
	took=$(elapsed "$t0")
	names+=("$name")
	times+=("$took")
	if [ "$rc" -eq 0 ]; then results+=(ok); else results+=("FAIL($rc)"); fi
	echo "=== $name: $([ "$rc" -eq 0 ] && echo ok || echo "FAILED (exit $rc)") in ${took}s"
	return "$rc"
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
if [ -f "$TK_TOP/tests/host/Makefile" ]; then
	stage host make -C "$TK_TOP/tests/host" test || failed=1
	stage fuzz make -C "$TK_TOP/tests/host" fuzz || failed=1
else
	skipped host "no tests/host/Makefile"
	skipped fuzz "no tests/host/Makefile"
fi
if [ -x "$TK_TOP/tests/lint.sh" ]; then
	stage lint "$TK_TOP/tests/lint.sh" || failed=1
else
	skipped lint "no tests/lint.sh"
fi
TK_RUN=$run stage guest "$TK_TOP/tests/qemu/run-all.sh" || failed=1
TK_RUN=$run TK_PKG_BOOTS=cross stage pkg "$TK_TOP/tests/pkg/dkms-test.sh" || failed=1

echo
echo "Stage     Time      Result"
for i in "${!names[@]}"; do
	printf '%-9s %-9s %s\n' "${names[$i]}" "${times[$i]}$([ "${times[$i]}" = - ] || echo s)" "${results[$i]}"
done
printf '%-9s %-9s %s\n' total "$(elapsed "$total0")s" "$([ $failed = 0 ] && echo ok || echo FAIL)"
echo "logs: $run"
# One closing count over the stages that count tests (host unit tests and the
# guest boots); a failed stage without counts still adds one failure.
read -r tp tf ts < <(cat "$run"/check-host.log "$run"/check-guest.log "$run"/check-pkg.log 2>/dev/null |
	sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed\(, \([0-9][0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p' |
	awk '{ p += $1; f += $2; s += $3 } END { print p+0, f+0, s+0 }')
[ $failed = 0 ] || [ "$tf" -gt 0 ] || tf=1
echo "$tp passed, $tf failed, $ts skipped"
exit $failed
