#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series-check: the series of build/series/VER/ (make series) checked
# the way a maintainer would take it (docs/series.md):
#   1. scripts/checkpatch.pl --strict on every patch: clean but for the
#      exceptions listed below, each with its reason;
#   2. git am, patch by patch, onto a fresh worktree of the base (the tree
#      as apt unpacks it), and after each step security/keys/ built in
#      three configured trees: "y" (tinyconfig + check.config: both types
#      built in, with dm-crypt, ecryptfs, EVM and IMA), "m" (both types,
#      dm-crypt and ecryptfs as modules) and "mix" (trusted and dm-crypt
#      modules under a built-in encrypted type and EVM, what a Debian
#      kernel with trusted keys would have); a warning in security/keys/
#      fails the step, as does a symbol of check.config that the step's
#      Kconfig turned off;
#   3. after the last patch, the consumers (drivers/md, fs/ecryptfs,
#      security/integrity) and, with SERIES_LINK=1 (the default), vmlinux
#      (and, for "m" and "mix", the modules with modpost): what only a
#      link finds.
#
# usage: tools/series/check-series.sh [6.1] [6.12] [7.3]   (default: 6.1 6.12)
# env:   SERIES_VARIANTS="y m mix", SERIES_LINK=0|1, JOBS (default: nproc)
# The whole run holds /tmp/heavy.lock (one kernel build or boot at a time
# on this machine; it re-executes itself under flock), builds use ccache
# (tests/qemu/common.sh). The configured trees are cached in
# ~/.cache/tek/series/obj-VER-VARIANT.
set -euo pipefail
if [ -z "${TKH_HEAVY_HELD:-}" ]; then
	TKH_HEAVY_HELD=1 exec flock /tmp/heavy.lock "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../../tests/qemu/common.sh
. "$top/tests/qemu/common.sh"
# shellcheck source=worktree.sh
. "$here/worktree.sh"
cache=$TKH_CACHE/series
variants=${SERIES_VARIANTS:-y m mix}
link=${SERIES_LINK:-1}
jobs=${JOBS:-$(nproc)}
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(6.1 6.12)

# checkpatch --strict findings accepted, as "TYPE|reason". Each is a
# class of message, not a line: a new kind of finding fails the check.
exceptions=(
	"FILE_PATH_CHANGES|files are added and removed; MAINTAINERS is updated in patch 3 (KEYS-TRUSTED covers security/keys/trusted-keys/, KEYS/KEYRINGS security/keys/), checkpatch asks on every such patch"
)

fails=0
summary=()
note() { summary+=("$*"); log "$*"; }

# The build of one step: make TARGETS in OBJ with the tree's sources.
kmake() {
	local obj=$1
	shift
	t_ccache nice make -s -C "$tree" O="$obj" -j"$jobs" "$@"
}

# configure VARIANT OBJ: tinyconfig + check.config (+ the variant's changes)
configure() {
	local v=$1 obj=$2 frag
	frag=$obj/check.config
	mkdir -p "$obj"
	cp "$here/check.config" "$frag"
	case $v in
	y) ;;
	m)
		sed -i -e 's/^CONFIG_\(TRUSTED_KEYS\|ENCRYPTED_KEYS\|DM_CRYPT\|ECRYPT_FS\)=y$/CONFIG_\1=m/' \
			-e 's/^CONFIG_\(EVM\|IMA\|INTEGRITY\)=y$/# CONFIG_\1 is not set/' "$frag"
		;;
	mix)
		# trusted a module under a built-in encrypted type (EVM selects
		# it): no trusted masters there, and nothing may link to trusted.ko
		sed -i -e 's/^CONFIG_\(TRUSTED_KEYS\|DM_CRYPT\)=y$/CONFIG_\1=m/' "$frag"
		;;
	*) die "unknown variant $v (y, m, mix)" ;;
	esac
	make -s -C "$tree" O="$obj" tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
	make -s -C "$tree" O="$obj" olddefconfig >/dev/null
}

# want OBJ: every CONFIG_...=y/m of the fragment is in .config
want() {
	local obj=$1 miss
	miss=$(grep '^CONFIG_' "$obj/check.config" | while read -r l; do
		grep -qx "$l" "$obj/.config" || echo "$l"
	done | xargs)
	[ -z "$miss" ] || { echo "not in .config: $miss"; return 1; }
}

# build STEP VARIANT: olddefconfig, then security/keys/; 0 when clean.
build_step() {
	local step=$1 v=$2 obj logf t0 w
	obj=$cache/obj-$ver-$v
	logf=$cache/log-$ver-$v-$step
	t0=$(date +%s)
	make -s -C "$tree" O="$obj" olddefconfig >/dev/null
	if ! want "$obj" >"$logf" 2>&1; then
		note "$ver $step $v: FAIL config: $(cat "$logf")"
		return 1
	fi
	if ! kmake "$obj" security/keys/ >"$logf" 2>&1; then
		note "$ver $step $v: FAIL build ($logf):"
		grep -E 'error|Error' "$logf" | head -20 >&2
		return 1
	fi
	w=$(grep -c 'warning:' "$logf" || true)
	if [ "$w" != 0 ]; then
		note "$ver $step $v: FAIL $w warnings ($logf)"
		grep 'warning:' "$logf" | head -20 >&2
		return 1
	fi
	note "$ver $step $v: ok ($(( $(date +%s) - t0 )) s)"
}

check_version() {
	ver=$1
	local base dir p v step out t0 type
	dir=$top/build/series/$ver
	ls "$dir"/0001-*.patch >/dev/null 2>&1 || die "no series in $dir (make series)"
	base=$("$here/mkseries.sh" --base "$ver")
	tree=$cache/check-$ver
	series_worktree "$base" "$tree"

	# 1. checkpatch
	for p in $(series_patches "$dir"); do
		# /usr/bin first: spdxcheck.py needs Debian's python3-ply and
		# python3-git, not another python3 on PATH
		out=$( (cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
			--show-types --terse --no-summary "$p" 2>&1) || true)
		if grep -q '^Traceback' <<<"$out"; then
			note "$ver ${p##*/}: spdxcheck.py did not run (apt install python3-ply python3-git)"
			out=$(grep -v '^Traceback\|^  \|Error:' <<<"$out" || true)
		fi
		local bad=
		while IFS= read -r l; do
			[ -n "$l" ] || continue
			type=$(sed -n 's/^[^:]*:[0-9]*: \(ERROR\|WARNING\|CHECK\):\([A-Z_0-9]*\):.*/\2/p' <<<"$l")
			if [ -n "$type" ] && printf '%s\n' "${exceptions[@]}" | grep -q "^$type|"; then
				log "checkpatch: ${p##*/}: accepted: $l"
			else
				bad=1
				log "checkpatch: ${p##*/}: $l"
			fi
		done <<<"$out"
		if [ -n "$bad" ]; then
			note "$ver ${p##*/}: FAIL checkpatch"
			fails=$((fails + 1))
		else
			note "$ver ${p##*/}: checkpatch clean (exceptions: $(grep -c . <<<"$out" || true))"
		fi
	done

	# 2. the base, configured once per variant and base version
	for v in $variants; do
		local obj=$cache/obj-$ver-$v key
		key=$( (git -C "$base" rev-parse base; cat "$here/check.config"; echo "$v") | sha256sum | cut -c1-12)
		if [ "$(cat "$obj/.tek-key" 2>/dev/null)" != "$key" ]; then
			log "$ver $v: configuring $obj"
			rm -rf "$obj"
			configure "$v" "$obj"
			echo "$key" >"$obj/.tek-key"
		fi
		build_step 0000-base "$v" || fails=$((fails + 1))
	done

	# 3. patch by patch
	for p in $(series_patches "$dir"); do
		step=$(basename "$p" | cut -c1-4)
		if ! git -C "$tree" am -q --whitespace=error "$p"; then
			note "$ver $step: FAIL git am"
			git -C "$tree" am --abort || true
			fails=$((fails + 1))
			return
		fi
		for v in $variants; do
			build_step "$step" "$v" || fails=$((fails + 1))
		done
	done

	# 4. consumers and the link
	for v in $variants; do
		local obj=$cache/obj-$ver-$v logf=$cache/log-$ver-$v-final what
		t0=$(date +%s)
		what="drivers/md/ fs/ecryptfs/"
		[ "$v" != m ] && what="$what security/integrity/"
		[ "$link" = 1 ] && what="$what vmlinux"
		[ "$link" = 1 ] && [ "$v" != y ] && what="$what modules"
		# shellcheck disable=SC2086
		if kmake "$obj" $what >"$logf" 2>&1; then
			w=$(grep -c 'warning:' "$logf" || true)
			note "$ver final $v: ok: $what ($(( $(date +%s) - t0 )) s, $w warnings)"
			[ "$v" != y ] && [ "$link" = 1 ] && note "$ver final $v: modules: $(cd "$obj" && find security/keys -name '*.ko' | sort | xargs)"
		else
			note "$ver final $v: FAIL $what ($logf)"
			grep -E 'error|ERROR|undefined' "$logf" | head -20 >&2
			fails=$((fails + 1))
		fi
	done
}

t_all=$(date +%s)
for ver in "${versions[@]}"; do
	check_version "$ver"
done
log "summary ($(( $(date +%s) - t_all )) s):"
printf '  %s\n' "${summary[@]}" >&2
[ "$fails" = 0 ] || die "$fails failures"
log "ok"
