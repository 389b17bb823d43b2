#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lint: two checks of the harness, then four of src/ against a
# prepared kernel tree ($KDIR, by default the test kernel of
# tests/qemu/build-kernel.sh):
#   check "shellcheck": shellcheck -x on every shell script of the
#                repository (by name: *.sh, *.inc; by shebang: sh, bash,
#                dash; dkms.conf)
#   pyflakes     pyflakes3 on every *.py (and every file whose shebang is python)
#   checkpatch   scripts/checkpatch.pl --no-tree -f on every src/**/*.[ch]
#   kernel-doc   scripts/kernel-doc -none on the same files (comment syntax)
#   W=1          make M=src W=1 modules: any compiler warning in our files
#                (or error, or a failed build)
#   sparse       make M=src C=2 modules: any sparse warning in our files
#                (W=1 and C=2 are one build)
# The harness checks compare their findings with tests/lint-baseline.txt, the
# reviewed findings not fixed yet ("FILE: CODE: the line's text", no line
# numbers): a finding not in it fails, and so does an entry that no longer
# occurs (the baseline only shrinks: delete the line). `tests/lint.sh
# --harness` runs those two alone (no kernel tree, no build: half a minute).
# The build runs in a scratch copy of src/ ($TKH_CACHE/lint/src, emptied
# first, the same path for every checkout: ccache, which replays a cached
# compile's warnings, finds its entries), so every file is compiled afresh
# and nobody's objects in the work tree are touched. Findings in the
# kernel's own headers are not ours and are not counted.
# Exit 0 when clean, 1 on findings, 2 when the checks could not run.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=qemu/common.sh
. "$top/tests/qemu/common.sh"
baseline=$top/tests/lint-baseline.txt
declare -A result
checks=()
failed=0

# Print the findings in @2 (one per line) under the heading of check @1.
report() {
	local name=$1 findings=$2 n
	checks+=("$name")
	n=$(printf '%s' "$findings" | grep -c .)
	if [ "$n" -eq 0 ]; then
		result[$name]="ok"
	else
		result[$name]="$n finding(s)"
		failed=1
		echo "== $name"
		printf '%s\n' "$findings"
	fi
}

# The findings of check @1, "KEY<tab>FILE:LINE" one a line on stdin (KEY:
# "FILE: CODE: excerpt"), against the baseline's entries for that check:
# prints each new finding (with where it is) and each entry that no longer
# occurs; the reviewed rest only counted. An entry's check is its CODE:
# SC<n> is shellcheck's, "pyflakes" pyflakes'.
against_baseline() {
	local name=$1 pat=$2 found now base
	found=$(cat)
	now=$(printf '%s\n' "$found" | cut -f1 | LC_ALL=C sort)
	base=$(grep -v '^#' "$baseline" 2>/dev/null | grep -E "^[^:]+: $pat: " | LC_ALL=C sort)
	report "$name" "$(LC_ALL=C comm -23 <(printf '%s\n' "$now" | grep .) <(printf '%s\n' "$base" | grep .) |
			awk -F'\t' 'NR == FNR { at[$1] = at[$1] (at[$1] == "" ? "" : ", ") $2; next }
				{ print "new: " $0 " (" at[$0] ")" }' <(printf '%s\n' "$found") -
		LC_ALL=C comm -13 <(printf '%s\n' "$now" | grep .) <(printf '%s\n' "$base" | grep .) |
			sed 's/^/gone (delete it from tests\/lint-baseline.txt): /')"
	result[$name]+=" ($(printf '%s\n' "$now" | grep -c .) found, $(printf '%s\n' "$base" | grep -c .) in the baseline)"
}

# Key of a finding: "FILE: CODE: " and the text of FILE's line LINE with its
# spaces squeezed (stable while the line is; line numbers are not), then a
# tab and "FILE:LINE". Input: "FILE:LINE:COL: CODE" lines.
keyed() {
	awk -F: '{
		file = $1; line = $2; code = $0; sub(/^[^:]*:[^:]*:[^:]*: /, "", code)
		text = ""
		n = 0
		while ((getline l < file) > 0) if (++n == line) { text = l; break }
		close(file)
		gsub(/[ \t]+/, " ", text); sub(/^ /, "", text); sub(/ $/, "", text)
		print file ": " code ": " text "\t" file ":" line
	}'
}

# The repository's files (tracked, and new ones not ignored); without git,
# every file outside build directories.
repo_files() {
	git -C "$top" ls-files -co --exclude-standard 2>/dev/null ||
		(cd "$top" && find . -path ./build -prune -o -path ./tests/host/build -prune -o \
			-path ./.git -prune -o -type f -print | sed 's|^\./||')
}

# Shell: by name, by shebang, and dkms.conf (which dkms sources).
shell_files() {
	repo_files | while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh | *.inc | dkms.conf) echo "$f" ;;
		*.c | *.h | *.py | *.md | *.hex | *.bin | *.pem | *.ko | *.o) ;;
		*) head -n1 "$f" 2>/dev/null | grep -qE '^#!.*[/ ](ba|da|a)?sh( |$)' && echo "$f" ;;
		esac
	done | LC_ALL=C sort
}

python_files() {
	repo_files | while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.py) echo "$f" ;;
		*.c | *.h | *.sh | *.inc | *.md | *.hex | *.bin | *.pem) ;;
		*) head -n1 "$f" 2>/dev/null | grep -qE '^#!.*python' && echo "$f" ;;
		esac
	done | LC_ALL=C sort
}

cd "$top" || exit 2
for t in shellcheck pyflakes3; do
	command -v $t >/dev/null || { echo "lint: $t not installed (tests/deps.sh)" >&2; exit 2; }
done

# -x follows sourced files (their "# shellcheck source=" directives, relative
# to the script: -P SCRIPTDIR); every severity, style included. A library
# file (a .inc, the guest library tests/guest/lib/) sets variables for the
# scripts that source it: "appears unused" (SC2034) is not asked of it.
lib_re='(\.inc|^tests/guest/lib/[^/]*\.sh)$'
mapfile -t sh_files < <(shell_files)
mapfile -t inc_files < <(printf '%s\n' "${sh_files[@]}" | grep -E "$lib_re")
mapfile -t sh_files < <(printf '%s\n' "${sh_files[@]}" | grep -vE "$lib_re")
echo "lint: shellcheck on $((${#sh_files[@]} + ${#inc_files[@]})) files ($(shellcheck --version | sed -n 's/^version: //p'))"
against_baseline shellcheck 'SC[0-9]+' < <(
	{ shellcheck -x -P SCRIPTDIR -f gcc "${sh_files[@]}" 2>&1
	  [ ${#inc_files[@]} -eq 0 ] || shellcheck -x -P SCRIPTDIR -e SC2034 -f gcc "${inc_files[@]}" 2>&1
	} | sed -nE 's/^([^:]+:[0-9]+:[0-9]+): [a-z]+: .* \[(SC[0-9]+)\]$/\1: \2/p' | keyed)

# pyflakes: "FILE:LINE:COL: message" (or "FILE:LINE: message"); the key's
# code is "pyflakes" and the message without its line numbers.
mapfile -t py_files < <(python_files)
echo "lint: pyflakes on ${#py_files[@]} files (pyflakes $(pyflakes3 --version | cut -d' ' -f1))"
against_baseline pyflakes pyflakes < <(
	pyflakes3 "${py_files[@]}" 2>&1 |
		sed -nE 's/^([^:]+:[0-9]+)(:[0-9]+)?:? (.*)$/\1:0: pyflakes: \3/p' |
		sed -E 's/ (from|on) line [0-9]+//' | keyed)

if [ "${1:-}" = --harness ]; then
	echo "lint: summary"
	for name in "${checks[@]}"; do
		printf '  %-11s %s\n' "$name" "${result[$name]}"
	done
	[ "$failed" -eq 0 ] && { echo "lint: clean"; exit 0; }
	echo "lint: FAILED"
	exit 1
fi

jobs=${LINT_JOBS:-2}
if [ -z "${KDIR:-}" ]; then
	KDIR=$("$top/tests/qemu/build-kernel.sh") || {
		echo "lint: no kernel tree (tests/qemu/build-kernel.sh failed)" >&2
		exit 2
	}
fi
for f in scripts/checkpatch.pl Makefile; do
	[ -f "$KDIR/$f" ] || { echo "lint: $KDIR has no $f" >&2; exit 2; }
done
command -v sparse >/dev/null || { echo "lint: sparse not installed" >&2; exit 2; }

scratch=$TKH_CACHE/lint
mkdir -p "$scratch"
exec 9>"$scratch.lock"	# one lint at a time (checkouts share the path)
flock 9
rm -rf "$scratch"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT

# Lines "<our file>:<line>:<col>: warning|error: ..." of a build log, with
# the scratch prefix stripped; a failed build is a finding of its own.
ours() {
	local log=$1 rc=$2
	grep -E "^$scratch/src/[^:]+:[0-9]+(:[0-9]+)?: (warning|error):" "$log" |
		sed "s|^$scratch/||" | sort -u
	grep -E '^(WARNING|ERROR): modpost:' "$log"
	if [ "$rc" -ne 0 ]; then
		echo "build failed (exit $rc):"
		grep -E '(error|Error|\*\*\*)' "$log" | sed "s|$scratch/||g" | head -n 20
	fi
}

mapfile -t files < <(find src -name '*.[ch]' ! -name '*.mod.c' | sort)

echo "lint: checkpatch on ${#files[@]} files"
report checkpatch "$("$KDIR/scripts/checkpatch.pl" --no-tree -f --terse \
	--show-types --no-summary "${files[@]}" 2>&1 |
	grep -E ': (ERROR|WARNING|CHECK):')"

echo "lint: kernel-doc -none on ${#files[@]} files"
report kernel-doc "$("$KDIR/scripts/kernel-doc" -none "${files[@]}" 2>&1)"

tar -C "$top" --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a' \
	--exclude=Module.symvers --exclude=modules.order -cf - src |
	tar -C "$scratch" -xf -

# One build for both: W=1's compiler warnings end in their option
# ("[-Wunused-variable]"), sparse's do not.
echo "lint: make W=1 C=2 modules ($KDIR; sparse $(sparse --version 2>/dev/null))"
t_ccache make -C "$KDIR" M="$scratch/src" W=1 C=2 -j"$jobs" modules >"$scratch/build.log" 2>&1
rc=$?
found=$(ours "$scratch/build.log" "$rc")
report "W=1" "$(printf '%s\n' "$found" | grep -v ': warning: ' ; printf '%s\n' "$found" | grep ': warning: .*\[-W[^]]*\]$')"
report sparse "$(printf '%s\n' "$found" | grep ': warning: ' | grep -v '\[-W[^]]*\]$')"

echo "lint: summary"
for name in "${checks[@]}"; do
	printf '  %-11s %s\n' "$name" "${result[$name]}"
done
if [ "$failed" -ne 0 ]; then
	echo "lint: FAILED"
	exit 1
fi
echo "lint: clean"
