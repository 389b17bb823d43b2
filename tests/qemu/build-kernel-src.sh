#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a kernel of ours from another Debian linux-source than 6.1 (7.3,
# trixie-backports'); prints the build directory on stdout. The kernels of
# tests/qemu/kernels of kind "build" whose source column starts with
# "linux-source-VER" (t_prepare comes here for them; build-kernel.sh builds
# the 6.1 ones). The same description as there: tinyconfig + the config
# fragments after that first word, a later fragment overriding an earlier
# one's line of the same symbol (every line that holds at the end must
# hold after olddefconfig); trait series: our series for VER
# (build/series/VER, make series) git am'd first. No KASAN or kmemleak
# edits of the tree (those are build-kernel.sh's, for the 6.1 test kernel).
#
# The tree comes from the series' base repository (tools/series/mkseries.sh
# --base VER: linux-source-VER unpacked once, fetched through the suite's
# own apt when this host's apt lacks it). Cached under ~/.cache/tek/
# keyed by the source package version and the hash of the kernel's line,
# its fragments, the series' diffs and this script; builds hold the lock
# of build-kernel.sh, run under nice (TKH_NICE, default 10) and ccache.
#
# usage: build-kernel-src.sh NAME
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"
flavour=${1:-}
if [ -z "$flavour" ] || ! t_kernel "$flavour" 2>/dev/null || [ "$kn_kind" != build ] ||
	[ "${kn_source%%,*}" = "${kn_source#linux-source-}" ]; then
	echo "usage: build-kernel-src.sh NAME (a build kernel of tests/qemu/kernels whose source starts with linux-source-VER)" >&2
	exit 2
fi
say() { echo "build-kernel $flavour: $*" >&2; }
IFS=, read -ra rel <<<"$kn_source"
ver=${rel[0]#linux-source-}
frags=()
for f in "${rel[@]:1}"; do
	[ -f "$TKH_TOP/$f" ] || { say "no fragment $f (tests/qemu/kernels)"; exit 1; }
	frags+=("$TKH_TOP/$f")
done
t_trait kasan || t_trait kasan-all || t_trait kmemleak &&
	{ say "traits kasan, kmemleak: 6.1 only (build-kernel.sh)"; exit 1; }
base=$("$TKH_TOP/tools/series/mkseries.sh" --base "$ver") ||
	{ say "no base tree of linux-source-$ver"; exit 1; }
pkgver=$(git -C "$base" log -1 --format=%s base | sed -n "s/^linux-source-$ver \([^ ]*\) .*/\1/p")
[ -n "$pkgver" ] || { say "$base: no version in its base commit"; exit 1; }
series=()
if t_trait series; then
	sdir=${TKH_SERIES:-$TKH_TOP/build/series/$ver}
	mapfile -t series < <(find "$sdir" -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' 2>/dev/null | LC_ALL=C sort)
	[ "${#series[@]}" -gt 0 ] || { say "no series in $sdir (make series SERIES_VERSIONS=$ver)"; exit 1; }
fi
key=$( (echo "$flavour"; grep -E "^${flavour}[[:space:]]" "$here/kernels"; cat "${frags[@]}" "$0"
	[ "${#series[@]}" = 0 ] || sed -s -n '/^diff --git /,$p' "${series[@]}") |
	sha256sum | cut -c1-12)
cache=$TKH_CACHE
dir=$cache/linux-$pkgver-$flavour-$key
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp"
say "the tree of linux-source-$ver $pkgver ($base)"
git -C "$base" archive --format=tar base | tar -C "$dir.tmp" -xf -
cd "$dir.tmp"
if [ "${#series[@]}" -gt 0 ]; then
	say "applying ${#series[@]} patches (git am)"
	git init -q .
	git add -A -f . >/dev/null
	git -c user.name=tek -c user.email=tek@localhost commit -qm "linux-source-$ver" >/dev/null
	git -c user.name=tek -c user.email=tek@localhost am -q "${series[@]}" >&2 ||
		{ say "the series does not apply"; exit 1; }
fi
make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "${frags[@]}" >/dev/null
make -s olddefconfig >&2
# What the fragments ask for must hold, the last fragment's line of each
# symbol counting ("# CONFIG_X is not set" and =n: unset).
while IFS= read -r line; do
	case $line in
	*=n) grep -qx "# ${line%=n} is not set" .config || ! grep -q "^${line%=n}=" .config ;;
	*=y|*=m) grep -q "^${line%=*}=[ym]$" .config ;;
	*) grep -qxF "$line" .config ;;
	esac || { say "$line lost ($(grep "^${line%%=*}=" .config || echo unset))"; exit 1; }
done < <(sed -n -e 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1=n/p' -e '/^CONFIG_[A-Z0-9_]*=/p' "${frags[@]}" |
	awk -F= '{ v[$1] = $0; if (!($1 in o)) { o[$1] = ++n; k[n] = $1 } } END { for (i = 1; i <= n; i++) print v[k[i]] }')
if [ "$kn_modules" = builtin ]; then
	for opt in TRUSTED_KEYS ENCRYPTED_KEYS DM_CRYPT; do
		grep -q "^CONFIG_$opt=y" .config || { say "CONFIG_$opt not built in"; exit 1; }
	done
fi
say "building (first run only: minutes) in $dir"
SECONDS=0
rc=0
t_ccache nice -n "${TKH_NICE:-10}" make -s -j"$(nproc)" bzImage modules >&2 || rc=$?
[ $rc = 0 ] || { say "the build failed (exit $rc)"; exit $rc; }
find . -name '*.o' | wc -l >"$cache/objs-$flavour"
say "built in $((SECONDS / 60))m$((SECONDS % 60))s"
cd - >/dev/null
mv "$dir.tmp" "$dir"
touch "$dir/.done"
echo "$dir"
