#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series-deb: a full Debian kernel package build (make bindeb-pkg) of
# apt's linux-source-6.1 with the 6.1 series applied, configured as
# make series-debian configures it (Debian's full config-6.1.0-*-amd64,
# TRUSTED_KEYS=y, TRUSTED_KEYS_TPM=y, no Debian signing certificates:
# tools/series/check-debian.sh) and make LOCALVERSION=-tek (6.1.192-tek).
# Not part of make check nor of CI: on 2 cores it takes well over an hour
# (docs/series.md).
#
# usage: tools/series/deb-package.sh
# env:   JOBS (default: nproc), DEBIAN_CONFIG (as check-debian.sh),
#        SERIES_DEB_DEBUG=0 turns Debian's CONFIG_DEBUG_INFO (and BTF) off:
#        no linux-image-*-dbg package (several GB), a shorter build; the
#        default keeps Debian's config as it is.
# The whole run holds /tmp/heavy.lock; builds use ccache. The object tree
# is ~/.cache/tek/series/debian-pkg/obj; the .deb files land in
# ~/.cache/tek/series/debian-pkg/ (make puts them next to the object tree),
# the log in debian-pkg/build.log.
set -euo pipefail
if [ -z "${TKH_HEAVY_HELD:-}" ]; then
	TKH_HEAVY_HELD=1 exec flock /tmp/heavy.lock "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../../tests/qemu/common.sh
. "$top/tests/qemu/common.sh"
cache=$TKH_CACHE/series
jobs=${JOBS:-$(nproc)}
pkg=$cache/debian-pkg
obj=$pkg/obj
need dpkg-deb dpkg-gencontrol dpkg-architecture

t0=$(date +%s)
# The patched tree and its configuration: check-debian.sh's, config only.
"$here/check-debian.sh" --config-only
tree=$cache/debian-src-patched
mkdir -p "$obj"
rm -f "$pkg"/*.deb "$pkg"/*.buildinfo "$pkg"/*.changes
cp "$cache/debian-obj-patched/.config" "$obj/.config"
if [ "${SERIES_DEB_DEBUG:-1}" = 0 ]; then
	"$tree/scripts/config" --file "$obj/.config" --disable DEBUG_INFO \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --enable DEBUG_INFO_NONE \
		--disable DEBUG_INFO_BTF --disable DEBUG_INFO_BTF_MODULES
fi
command -v pahole >/dev/null 2>&1 ||
	"$tree/scripts/config" --file "$obj/.config" --disable DEBUG_INFO_BTF
# LOCALVERSION on make's command line, not in .config: set, it also keeps
# setlocalversion from adding "+" for the git tree (6.1.192-tek).
kv=(LOCALVERSION=-tek)
make -s -C "$tree" O="$obj" "${kv[@]}" olddefconfig
for l in CONFIG_TRUSTED_KEYS=y CONFIG_ENCRYPTED_KEYS=y CONFIG_EVM=y CONFIG_DM_CRYPT=m; do
	grep -qx "$l" "$obj/.config" || die "$obj/.config lost $l"
done
log "building $(make -s -C "$tree" O="$obj" "${kv[@]}" kernelrelease) packages in $obj (log: $pkg/build.log)"
if ! t_ccache nice make -C "$tree" O="$obj" -j"$jobs" "${kv[@]}" bindeb-pkg >"$pkg/build.log" 2>&1; then
	tail -30 "$pkg/build.log" >&2
	die "bindeb-pkg failed ($pkg/build.log)"
fi
log "warnings: $(grep -c 'warning:' "$pkg/build.log" || true) (in $pkg/build.log)"
log "packages: $(cd "$pkg" && echo ./*.deb)"
log "total $(( $(date +%s) - t0 )) s"
