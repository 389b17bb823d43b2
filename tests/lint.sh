#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lint: four checks of src/ against a prepared kernel tree ($KDIR, by
# default the test kernel of tests/qemu/build-kernel.sh):
#   checkpatch   scripts/checkpatch.pl --no-tree -f on every src/**/*.[ch]
#   kernel-doc   scripts/kernel-doc -none on the same files (comment syntax)
#   W=1          make M=src W=1 modules: any compiler warning in our files
#                (or error, or a failed build)
#   sparse       make M=src C=2 modules: any sparse warning in our files
#                (W=1 and C=2 are one build)
# The build runs in a scratch copy of src/ ($TEK_CACHE/lint/src, emptied
# first, the same path for every checkout: ccache, which replays a cached
# compile's warnings, finds its entries), so every file is compiled afresh
# and nobody's objects in the work tree are touched. Findings in the
# kernel's own headers are not ours and are not counted.
# Exit 0 when clean, 1 on findings, 2 when the checks could not run.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=qemu/common.sh
. "$top/tests/qemu/common.sh"
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

scratch=$TEK_CACHE/lint
mkdir -p "$scratch"
exec 9>"$scratch.lock"	# one lint at a time (checkouts share the path)
flock 9
rm -rf "$scratch"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
declare -A result
failed=0

# Print the findings in @2 (one per line) under the heading of check @1.
report() {
	local name=$1 findings=$2 n
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

cd "$top" || exit 2
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
tk_ccache make -C "$KDIR" M="$scratch/src" W=1 C=2 -j"$jobs" modules >"$scratch/build.log" 2>&1
rc=$?
found=$(ours "$scratch/build.log" "$rc")
report "W=1" "$(printf '%s\n' "$found" | grep -v ': warning: ' ; printf '%s\n' "$found" | grep ': warning: .*\[-W[^]]*\]$')"
report sparse "$(printf '%s\n' "$found" | grep ': warning: ' | grep -v '\[-W[^]]*\]$')"

echo "lint: summary"
for name in checkpatch kernel-doc W=1 sparse; do
	printf '  %-11s %s\n' "$name" "${result[$name]}"
done
if [ "$failed" -ne 0 ]; then
	echo "lint: FAILED"
	exit 1
fi
echo "lint: clean"
