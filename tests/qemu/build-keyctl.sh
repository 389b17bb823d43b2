#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A statically linked keyctl for the guest: Debian's keyutils, the version
# installed here, from its source package, built with NO_SOLIB=1 -static.
# Prints its path; cached in $TKH_CACHE/keyctl-<version>/.
#
# Why: the guests run keyctl some thousands of times a boot, and under TCG a
# dynamically linked program costs its loader's work at every exec (the
# test kernel: 17 ms a keyctl against 6 for a static one, with user-space
# ASLR already off: tests/guest/init). Same source, same version, same
# messages: only the linking differs.
#
# The source comes from Debian's archive through apt-get source, with a
# private list directory (deb-src entries made from this machine's deb
# entries): nothing of the system's apt configuration changes. Exit 1, and
# a line on stderr, when it cannot be had (no network, no such source
# version): mkinitramfs.sh then copies the dynamic /usr/bin/keyctl.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need apt-get dpkg-query dpkg-source make gcc flock strip

mkdir -p "$TKH_CACHE"
exec 9>"$TKH_CACHE/keyctl.lock"
flock 9	# machines are prepared in parallel
ver=$(dpkg-query -W -f='${Version}' keyutils 2>/dev/null) || die "keyutils is not installed"
d=$TKH_CACHE/keyctl-$ver
if [ -x "$d/keyctl" ]; then
	echo "$d/keyctl"
	exit 0
fi
rm -rf "$d.tmp"
mkdir -p "$d.tmp/lists/partial" "$d.tmp/archives/partial" "$d.tmp/parts" "$d.tmp/src"
trap 'rm -rf "$d.tmp"' EXIT

# deb-src twins of the enabled deb entries: one-line lists, deb822 .sources.
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f"
done >"$d.tmp/sources.list"
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	sed 's/^Types:.*/Types: deb-src/' "$f" >"$d.tmp/parts/${f##*/}"
done
apt=(apt-get -q -o Dir::Etc::SourceList="$d.tmp/sources.list"
	-o Dir::Etc::SourceParts="$d.tmp/parts" -o Dir::State::Lists="$d.tmp/lists"
	-o Dir::Cache::Archives="$d.tmp/archives" -o Dir::Cache::pkgcache=
	-o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
"${apt[@]}" update >"$d.tmp/update.log" 2>&1 ||
	{ tail -n 5 "$d.tmp/update.log" >&2; die "apt-get update (deb-src) failed"; }
(cd "$d.tmp/src" && "${apt[@]}" source "keyutils=$ver") >"$d.tmp/source.log" 2>&1 ||
	{ tail -n 5 "$d.tmp/source.log" >&2; die "apt-get source keyutils=$ver failed"; }
src=$(find "$d.tmp/src" -mindepth 1 -maxdepth 1 -type d -name 'keyutils-*' | head -n 1)
[ -n "$src" ] || die "apt-get source keyutils=$ver: no source tree"
make -s -C "$src" NO_SOLIB=1 LDFLAGS=-static keyctl >"$d.tmp/make.log" 2>&1 ||
	{ tail -n 10 "$d.tmp/make.log" >&2; die "building keyctl (static) failed"; }
strip "$src/keyctl"
"$src/keyctl" --version >/dev/null || die "the static keyctl does not run"
mkdir -p "$d"
install -m 0755 "$src/keyctl" "$d/keyctl"
echo "$d/keyctl"
