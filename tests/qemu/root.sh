#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A root of another Debian release than this host's, where what runs
# against that release's kernels runs (common.sh's t_in_root): the
# compiler and the kbuild tools of its headers (trixie's are gcc 14 and
# need glibc 2.38, this bookworm host has gcc 12 and glibc 2.36), its DKMS
# (the package test: a copy of it per run) and its lintian.
# Made by mmdebstrap from Debian's archive and kept in
# $TKH_CACHE/roots/RELEASE-KEY (some 3-5 minutes, about 2 GB; KEY: the
# packages, the suites, mmdebstrap's version and this script's maker, so a
# new ABI of one of the release's kernels makes a new root).
#
# usage: root.sh RELEASE    (trixie: the debian kernels of tests/qemu/kernels
#                           whose suite is trixie or trixie-*)
# stdout: the root's path (shared: t_in_root only reads it; copy it to change it)
# Root: mmdebstrap's chroot, the mounts of t_in_root.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need mmdebstrap flock
[ $# = 1 ] || die "usage: root.sh RELEASE"
rel=$1
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap's chroot)"

mirror=http://deb.debian.org/debian
secmirror=http://deb.debian.org/debian-security
sources=("deb $mirror $rel main" "deb $mirror $rel-updates main"
	"deb $secmirror $rel-security main" "deb $mirror $rel-backports main")
# The headers of the release's kernels (their image comes with the 6.12
# ones, as on a user's machine), DKMS, the compiler cache, lintian.
pkgs=dkms,ccache,kmod,xz-utils,zstd,lintian,make
names=()
for k in $(t_kernels debian); do
	t_kernel "$k"
	case ${kn_source#*,} in "$rel"|"$rel"-*) ;; *) continue ;; esac
	abi=$("$TKH_QEMU/fetch-stock.sh" --abi "$k") || die "$k: no ABI"
	pkgs=$pkgs,linux-headers-$abi-amd64
	names+=("$k")
done
[ "${#names[@]}" -gt 0 ] || die "no debian kernel of $rel in tests/qemu/kernels"
key=$( { echo "$pkgs"; printf '%s\n' "${sources[@]}"; mmdebstrap --version
	sed -n '/^make_root()/,/^}/p' "$0"; } | sha256sum | cut -c1-16)
dir=$TKH_CACHE/roots
root=$dir/$rel-$key

# The kernel images the headers pull in get a small initramfs (this root
# never boots them): MODULES=list, written before any package installs.
# shellcheck disable=SC2016  # the hook's $1 is mmdebstrap's
make_root() {
	mmdebstrap --quiet --variant=minbase --include="$pkgs" \
		--aptopt='APT::Install-Recommends "false"' \
		--setup-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" &&
			echo MODULES=list >"$1/etc/initramfs-tools/conf.d/tek-root"' \
		--format=directory "$rel" "$root.tmp" "${sources[@]}" >&2
}

mkdir -p "$dir"
exec 9>"$dir/.lock-$rel"
flock 9
if [ ! -f "$root/.done" ]; then
	log "making the $rel root for ${names[*]} ($root; some 3-5 minutes)"
	rm -rf --one-file-system "$dir/$rel"-*.tmp
	t0=$(now)
	make_root || { rm -rf --one-file-system "$root.tmp"; die "mmdebstrap failed"; }
	touch "$root.tmp/.done"
	mv "$root.tmp" "$root"
	log "the $rel root made in $(elapsed "$t0") s"
	# Older roots of the release go: each is about 2 GB.
	find "$dir" -maxdepth 1 -name "$rel-*" ! -name "$rel-$key" -exec rm -rf --one-file-system {} +
fi
echo "$root"
