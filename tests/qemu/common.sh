# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the host harness; sourced by tests/qemu/*.sh and tests/check.sh.
# shellcheck shell=bash

TK_QEMU=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TK_TOP=$(cd "$TK_QEMU/../.." && pwd)
TEK_CACHE=${TEK_CACHE:-$HOME/.cache/tek}
export TEK_CACHE

tk_prog=$(basename "$0" .sh)

die() { echo "$tk_prog: error: $*" >&2; exit 1; }
log() { echo "$tk_prog: $*" >&2; }

need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || die "'$c' not found (run tests/deps.sh)"
	done
}

# A run directory under build/ in the repo (gitignored); reused when TK_RUN is set.
tk_rundir() {
	if [ -z "${TK_RUN:-}" ]; then
		TK_RUN=$TK_TOP/build/run-$(date +%Y%m%d-%H%M%S)-$$
		mkdir -p "$TK_RUN"
		ln -sfn "$(basename "$TK_RUN")" "$TK_TOP/build/run-latest"
	fi
	mkdir -p "$TK_RUN"
	export TK_RUN
	echo "$TK_RUN"
}

# Seconds since the epoch with a fraction, and elapsed time formatting.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
