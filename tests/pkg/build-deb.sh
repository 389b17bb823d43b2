#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the DKMS .deb from this tree (what `make deb` runs).
#
# usage: build-deb.sh [OUTDIR]      (default: build/deb)
# The tree is copied without .git, build/ and build leftovers to
# OUTDIR/trusted-encrypted-keys-<version>/ and built there with
# dpkg-buildpackage -b; the .deb, .buildinfo and .changes land in OUTDIR.
# Then lintian checks the .deb: any error or warning fails the build
# (overrides live in debian/*.lintian-overrides, each with its reason).
# stdout: the path of the .deb (last line); the build log goes to stderr.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need dpkg-buildpackage dpkg-parsechangelog lintian rsync

out=${1:-$TKH_TOP/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(dpkg-parsechangelog -l "$TKH_TOP/debian/changelog" -S Source)
ver=$(dpkg-parsechangelog -l "$TKH_TOP/debian/changelog" -S Version)
stage=$out/$src-${ver%-*}
rm -rf "$stage" "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
rsync -a --exclude=.git --exclude=/build/ --exclude='*.o' --exclude='*.ko' \
	--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' --exclude='*.o.d' \
	--exclude=modules.order --exclude=Module.symvers "$TKH_TOP/" "$stage/"
log "building $src $ver in $stage"
(cd "$stage" && dpkg-buildpackage -us -uc -b) >&2 ||
	die "dpkg-buildpackage failed"
deb=$(ls "$out"/*_"$ver"_all.deb)
log "lintian $deb"
# Lintian warns against running as root; a CI runner is root.
lint=$(lintian --pedantic --info "$deb" 2>&1 | grep -v 'running with root privileges is not recommended' || true)
[ -z "$lint" ] || printf '%s\n' "$lint" >&2
if printf '%s\n' "$lint" | grep -q '^[EW]: '; then
	die "lintian reports errors or warnings (above)"
fi
rm -rf "$stage"
echo "$deb"
