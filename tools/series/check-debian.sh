#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series-debian: the 6.1 series (make series) in the kernel Debian
# ships, configured as Debian configures it (docs/series.md):
#   - two trees of apt's linux-source-6.1: the base as apt unpacks it, and
#     the base with build/series/6.1/ applied by git am;
#   - each configured with Debian's full config-6.1.0-*-amd64 (installed
#     linux-headers, or the cached stock linux-image .deb) plus
#     TRUSTED_KEYS=y and TRUSTED_KEYS_TPM=y, with what a package build
#     changes (no Debian signing certificates or key: the build makes its
#     own), olddefconfig, and a check that the options stuck and that
#     ENCRYPTED_KEYS=y, EVM=y, DM_CRYPT=m are still as Debian has them;
#   - make prepare, then security/keys/ security/integrity/
#     drivers/md/dm-crypt.o in both, with the kernel's default warnings;
#   - the check fails on a warning of the patched tree (Kconfig's or the
#     compiler's) that the base does not have, compared by file and
#     message (not line numbers).
#
# usage: tools/series/check-debian.sh [--config-only]
# env:   DEBIAN_CONFIG (default: the newest installed
#        /usr/src/linux-headers-6.1.0-*-amd64/.config, else the stock
#        linux-image in ~/.cache/tek/stock), JOBS (default: nproc)
# --config-only writes and checks the two .config files and stops (light:
# no lock). Otherwise the run holds /tmp/heavy.lock (it re-executes itself
# under flock); builds use ccache (tests/qemu/common.sh). The configured
# object trees stay in ~/.cache/tek/series/debian-obj-{base,patched}, the
# source worktrees in debian-src-{base,patched}, the logs in debian-log-*.
set -euo pipefail
config_only=
[ "${1:-}" = --config-only ] && config_only=1
if [ -z "$config_only" ] && [ -z "${TKH_HEAVY_HELD:-}" ]; then
	TKH_HEAVY_HELD=1 exec flock /tmp/heavy.lock "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../../tests/qemu/common.sh
. "$top/tests/qemu/common.sh"
# shellcheck source=worktree.sh
. "$here/worktree.sh"
cache=$TKH_CACHE/series
jobs=${JOBS:-$(nproc)}
ver=6.1
targets=(security/keys/ security/integrity/ drivers/md/dm-crypt.o)

# newest PATH...: the last existing PATH in version order (none: nothing).
newest() {
	local f
	for f in "$@"; do
		[ -e "$f" ] && printf '%s\n' "$f"
	done | sort -V | tail -1
}

# Debian's config: the installed headers' .config, or the stock image's.
debian_config() {
	local c deb tmp
	if [ -n "${DEBIAN_CONFIG:-}" ]; then
		[ -f "$DEBIAN_CONFIG" ] || die "DEBIAN_CONFIG=$DEBIAN_CONFIG: no such file"
		echo "$DEBIAN_CONFIG"
		return
	fi
	c=$(newest /usr/src/linux-headers-"$ver".0-*-amd64/.config)
	if [ -n "$c" ]; then
		echo "$c"
		return
	fi
	deb=$(newest "$TKH_CACHE"/stock/"$ver".0-*-amd64/debs/linux-image-"$ver".0-*-amd64_*.deb)
	[ -n "$deb" ] || die "no Debian $ver config: apt install linux-headers-amd64, or set DEBIAN_CONFIG"
	tmp=$cache/debian-stock-config
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -C "$tmp" -x --wildcards './boot/config-*'
	newest "$tmp"/boot/config-*
}

# The options set over Debian's config, as scripts/config arguments.
# TRUSTED_KEYS_TPM: with the series it is the only trust source and
# TRUSTED_KEYS depends on TCG_TPM (Debian: =y). The signing certificates and
# key are Debian's (debian/certs/, the signing service's output/): a
# package build from the source tree has neither and makes its own key.
overrides=(
	--enable TRUSTED_KEYS --enable TRUSTED_KEYS_TPM --enable TCG_TPM
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
	--set-str MODULE_SIG_KEY certs/signing_key.pem
)
# Must hold after olddefconfig: ours, and Debian's that the series touches.
wanted=(
	CONFIG_TRUSTED_KEYS=y CONFIG_TRUSTED_KEYS_TPM=y CONFIG_TCG_TPM=y
	CONFIG_ENCRYPTED_KEYS=y CONFIG_EVM=y CONFIG_DM_CRYPT=m CONFIG_IMA=y
)


# configure TREE OBJ LOG: Debian's config + overrides, olddefconfig; the
# Kconfig output (its warnings) in LOG; fails when a wanted option is lost.
# OBJ is kept when its .config would not change (ccache does the rest;
# kbuild's own dependencies find the changed sources).
configure() {
	local tree=$1 obj=$2 logf=$3 new miss l
	mkdir -p "$obj"
	new=$obj.config-new
	cp "$dcfg" "$new"
	"$tree/scripts/config" --file "$new" "${overrides[@]}"
	if [ "$(cat "$obj/.tek-src" 2>/dev/null)" != "$tree" ] ||
		! cmp -s "$new" "$obj/.config.tek-in" 2>/dev/null; then
		log "configuring $obj"
		find "$obj" -mindepth 1 -delete
		cp "$new" "$obj/.config.tek-in"
		echo "$tree" >"$obj/.tek-src"
	fi
	cp "$obj/.config.tek-in" "$obj/.config"
	rm -f "$new"
	make -C "$tree" O="$obj" olddefconfig >"$logf" 2>&1 || {
		cat "$logf" >&2
		die "olddefconfig failed in $tree"
	}
	miss=
	for l in "${wanted[@]}"; do
		grep -qx "$l" "$obj/.config" || miss="$miss $l"
	done
	[ -z "$miss" ] || die "$obj/.config lost:$miss (see $logf)"
	log "$obj: $(grep -E '^CONFIG_(TRUSTED_KEYS|TRUSTED_KEYS_[A-Z]*|ENCRYPTED_KEYS|EVM|DM_CRYPT)=' "$obj/.config" | xargs)"
}

# warnings LOG: "file: warning: message" lines, the file relative to the
# tree and without line and column, sorted with their counts.
warnings() {
	sed -n -e 's#^\([^: ]*/\)\{0,1\}debian-src-[a-z]*/##' \
		-e 's#^\([^: ]*\):[0-9]*:\([0-9]*:\)\{0,1\} *\(warning\|WARNING\):#\1: warning:#p' \
		-e 's#^\(WARNING\|warning\): #(no file): warning: #p' "$1" |
		sort | uniq -c | sed 's/^ *//'
}

# build NAME TREE: configure, make prepare, the targets; logs in
# $cache/debian-log-NAME-*.
build() {
	local name=$1 tree=$2 obj=$cache/debian-obj-$1 t0 d
	t0=$(date +%s)
	configure "$tree" "$obj" "$cache/debian-log-$name-config"
	[ -n "$config_only" ] && return
	if ! t_ccache nice make -C "$tree" O="$obj" -j"$jobs" prepare \
		>"$cache/debian-log-$name-prepare" 2>&1; then
		tail -30 "$cache/debian-log-$name-prepare" >&2
		die "$name: make prepare failed ($cache/debian-log-$name-prepare)"
	fi
	for d in "${targets[@]}"; do
		# the objects of a run before would print no warning: make
		# compiles them again (ccache replays the compiler's output)
		if [ -d "$obj/$d" ]; then
			find "$obj/$d" -name '*.o' -delete
		else
			rm -f "$obj/$d"
		fi
		if ! t_ccache nice make -C "$tree" O="$obj" -j"$jobs" "$d" \
			>"$cache/debian-log-$name-${d//\//_}" 2>&1; then
			grep -E 'error|Error' "$cache/debian-log-$name-${d//\//_}" | head -20 >&2
			die "$name: $d failed ($cache/debian-log-$name-${d//\//_})"
		fi
	done
	log "$name: built in $(( $(date +%s) - t0 )) s"
}

t_all=$(date +%s)
dir=$top/build/series/$ver
ls "$dir"/0001-*.patch >/dev/null 2>&1 || die "no series in $dir (make series)"
base=$("$here/mkseries.sh" --base "$ver")
dcfg=$(debian_config)
log "Debian config: $dcfg ($(sed -n 's/^# Linux.* \([0-9.]*\) Kernel Configuration/\1/p' "$dcfg"))"
mkdir -p "$cache"

tb=$cache/debian-src-base
tp=$cache/debian-src-patched
series_worktree "$base" "$tb"
series_worktree "$base" "$tp"
for p in $(series_patches "$dir"); do
	git -C "$tp" am -q --whitespace=error "$p" || {
		git -C "$tp" am --abort || true
		die "git am ${p##*/} failed"
	}
done
log "patched: $(git -C "$tp" log --oneline base..HEAD | wc -l) patches on $(git -C "$base" rev-parse --short base)"

build base "$tb"
build patched "$tp"
if [ -n "$config_only" ]; then
	log "config only: $cache/debian-obj-{base,patched}/.config"
	exit 0
fi

# Compare per step (Kconfig, prepare, each target) by file and message.
fails=0
for s in config prepare "${targets[@]//\//_}"; do
	wb=$(warnings "$cache/debian-log-base-$s")
	wp=$(warnings "$cache/debian-log-patched-$s")
	nb=$(grep -c . <<<"$wb" || true)
	np=$(grep -c . <<<"$wp" || true)
	new=$(comm -13 <(cut -d' ' -f2- <<<"$wb" | sort -u) <(cut -d' ' -f2- <<<"$wp" | sort -u))
	log "$s: warnings (distinct file:message) base $nb, patched $np, new $(grep -c . <<<"$new" || true)"
	if [ -n "$new" ]; then
		printf '  new: %s\n' "$new" >&2
		fails=$((fails + 1))
	fi
done
log "total $(( $(date +%s) - t_all )) s"
[ "$fails" = 0 ] || die "$fails steps with new warnings"
log "ok"
