#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run each test binary named on the command line; their results as one KTAP
# document, each binary one subtest holding its checks (tk_test.h: a check,
# a test point). Written to $TKH_HOST_KTAP (default build/results.ktap);
# its verdict and counts by tests/qemu/ktap.py, the guest boots' parser.
#
# A binary's lines go in as they are when they are KTAP (version, plan,
# results, "# " diagnostics), as "# " diagnostics when not (a test's own
# printf, a sanitizer report on stderr); its plan is the count of its
# result lines. A binary that exits non-zero (a failed check, a crash, a
# leak report) is "not ok" with its exit status: one failure more when its
# checks all passed; so is one without a test point.
# Prints a line per binary and ktap.py's verdict last:
# "PASS host: N passed, N failed, N skipped". Exit 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
doc=${TKH_HOST_KTAP:-build/results.ktap}
mkdir -p "$(dirname "$doc")"
out=$(mktemp "${TMPDIR:-/tmp}/tk-host.XXXXXX")
trap 'rm -f "$out"' EXIT
{
	echo "KTAP version 1"
	echo "1..$#"
} >"$doc"
n=0
for t in "$@"; do
	n=$((n + 1))
	name=$(basename "$t")
	"$t" >"$out" 2>&1
	rc=$?
	sed -i -E '/^(KTAP version [0-9]+|1\.\.[0-9]+|(not )?ok [0-9]+( .*)?|#( .*)?)$/!s/^/# /' "$out"
	read -r p f s < <(awk '
		/^(not )?ok [0-9]+[^#]*# *SKIP/ { s++; next }
		/^ok [0-9]+/ { p++ }
		/^not ok [0-9]+/ { f++ }
		END { print p + 0, f + 0, s + 0 }' "$out")
	{
		echo "  KTAP version 1"
		echo "  1..$((p + s + f))"
		grep -vE '^(KTAP version [0-9]+|1\.\.[0-9]+)$' "$out" | sed 's/^/  /'
		if [ "$rc" != 0 ]; then
			echo "# $name: exit status $rc"
			echo "not ok $n $name # exit status $rc"
		elif [ $((p + f + s)) = 0 ]; then
			echo "# $name: no test points"
			echo "not ok $n $name # no test points"
		else
			echo "ok $n $name"
		fi
	} >>"$doc"
	echo "$name: $p passed, $f failed, $s skipped$([ "$rc" = 0 ] || echo " (exit $rc)")"
done
python3 "$here/../qemu/ktap.py" --name host --results "$doc" --done ''
