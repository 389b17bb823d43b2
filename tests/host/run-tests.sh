#!/bin/bash
# Run each test binary named on the command line; sum their
# "N passed, N failed" lines. A binary that dies before its summary (a
# sanitizer report, a crash) counts as one more failure.
# Last line: "N passed, N failed". Exit 1 on any failure.
set -uo pipefail
passed=0 failed=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
	sum=$(printf '%s\n' "$out" | tail -n1)
	if [[ $sum =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
	else
		p=0 f=0
	fi
	note=
	if [ "$rc" -ne 0 ]; then
		note=" (exit $rc)"
		[ "$f" -eq 0 ] && f=1
	fi
	echo "$(basename "$t"): $p passed, $f failed$note"
	passed=$((passed + p)) failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
