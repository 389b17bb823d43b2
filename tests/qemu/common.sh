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
		# Keep the last TK_KEEP_RUNS (default 20) run directories.
		find "$TK_TOP/build" -maxdepth 1 -type d -name 'run-2*' -printf '%f\n' | sort -r |
			tail -n +$((${TK_KEEP_RUNS:-20} + 1)) | while read -r old; do
				rm -rf "${TK_TOP:?}/build/$old"
			done
	fi
	mkdir -p "$TK_RUN"
	export TK_RUN
	echo "$TK_RUN"
}

# Seconds since the epoch with a fraction, and elapsed time formatting.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# tk_build_ours NAME KDIR MODS LOG: build our modules from a private copy of src/
# (build/obj-NAME/src: kernels do not clobber each other's objects and the
# harness never races a developer's own build in src/), copy the .ko to MODS.
tk_build_ours() {
	local name=$1 kdir=$2 mods=$3 buildlog=$4 obj=$TK_TOP/build/obj-$1/src
	mkdir -p "$obj" "$mods"
	exec 8>"$obj.lock"   # one build per tree at a time (run-all vs. demo)
	flock 8
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='*.o.d' --exclude=modules.order --exclude=Module.symvers \
		"$TK_TOP/src/" "$obj/"
	rm -f "$obj"/*.ko
	if ! make -C "$kdir" M="$obj" modules >"$buildlog" 2>&1; then
		exec 8>&-
		tail -n 20 "$buildlog" >&2
		return 1
	fi
	compgen -G "$obj/*.ko" >/dev/null || { exec 8>&-; log "$name: no .ko in $obj"; return 1; }
	cp "$obj"/*.ko "$mods/"
	exec 8>&-
	log "$name: our modules: $(cd "$mods" && echo *.ko)"
}
