#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the packages from this tree (what `make deb` runs): the DKMS
# package (trusted-encrypted-keys-dkms, arch all) and the tools
# (trusted-keys-tools, this machine's arch: trusted-policy, tk-pcr-predict).
#
# usage: build-deb.sh [OUTDIR]      (default: build/deb)
# The tree is copied without .git, build/ and build leftovers to
# OUTDIR/trusted-encrypted-keys-<version>/ and built there with
# dpkg-buildpackage -b; the .debs, .buildinfo and .changes land in OUTDIR.
# Then lintian checks each .deb: any error or warning fails the build
# (overrides live in debian/*.lintian-overrides, each with its reason).
# stdout: the paths of the two .debs, one a line, the DKMS package's
# first (install both: apt-get install ./A.deb ./B.deb); the build log
# goes to stderr.
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
rm -rf "$stage" "$out"/*.deb "$out"/*.ddeb "$out"/*.changes "$out"/*.buildinfo
rsync -a --exclude=.git --exclude=/build/ --exclude='*.o' --exclude='*.ko' \
	--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' --exclude='*.o.d' \
	--exclude=modules.order --exclude=Module.symvers "$TKH_TOP/" "$stage/"
log "building $src $ver in $stage"
(cd "$stage" && dpkg-buildpackage -us -uc -b) >&2 ||
	die "dpkg-buildpackage failed"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
debs=("$out/$src-dkms_${ver}_all.deb" "$out/trusted-keys-tools_${ver}_$arch.deb")
for deb in "${debs[@]}"; do
	[ -f "$deb" ] || die "dpkg-buildpackage made no $deb"
done
log "lintian ${debs[*]}"
# Lintian warns against running as root; a CI runner is root.
lint=$(lintian --pedantic --info "${debs[@]}" 2>&1 | grep -v 'running with root privileges is not recommended' || true)
[ -z "$lint" ] || printf '%s\n' "$lint" >&2
if printf '%s\n' "$lint" | grep -q '^[EW]: '; then
	die "lintian reports errors or warnings (above)"
fi
rm -rf "$stage"
printf '%s\n' "${debs[@]}"
