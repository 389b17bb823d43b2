#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real system's base: a Debian 12 (bookworm) or 13 (trixie) made by
# mmdebstrap from Debian's archive, as a directory kept in
# $TKH_CACHE/realsys/base-RELEASE-KEY (some 3-10 minutes to make, about 1 GB;
# KEY: the package list, the suites, mmdebstrap's version and, for bookworm,
# apt's candidate of linux-image-amd64, so a new stock kernel makes a new base).
#
# usage: base.sh [RELEASE]   (bookworm, the default, or trixie)
# stdout: the directory's path (copy it: it is shared)
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need mmdebstrap apt-cache flock
rel=${1:-bookworm}
case $rel in bookworm|trixie) ;; *) die "usage: base.sh [bookworm|trixie]" ;; esac

mirror=${TKH_REALSYS_MIRROR:-http://deb.debian.org/debian}
secmirror=${TKH_REALSYS_SECURITY:-http://deb.debian.org/debian-security}
# What docs/install.md's reader has: a booting Debian with initramfs-tools,
# the stock kernel and its headers (DKMS builds there), DKMS, the tools the
# enrolment and the unlock use (keyctl, dmsetup, mkfs.ext4, tpm2-tools), and
# what the installer's "encrypted LVM" installs: cryptsetup,
# cryptsetup-initramfs (cryptroot in the initramfs, from /etc/crypttab), lvm2.
pkgs=systemd-sysv,udev,initramfs-tools,busybox,zstd,kmod,linux-image-amd64,linux-headers-amd64
pkgs=$pkgs,dkms,keyutils,dmsetup,tpm2-tools,e2fsprogs,cryptsetup,cryptsetup-initramfs,lvm2
sources=("deb $mirror $rel main" "deb $mirror $rel-updates main"
	"deb $secmirror $rel-security main")

# (this host's apt knows bookworm's candidate; a trixie base is remade by
# hand: rm -rf $TKH_CACHE/realsys/base-trixie-*)
kver=
[ "$rel" != bookworm ] || kver=$(apt-cache policy linux-image-amd64 2>/dev/null | sed -n 's/^ *Candidate: //p')
key=$( { echo "$pkgs"; printf '%s\n' "${sources[@]}"; mmdebstrap --version; echo "$kver"
	sed -n '/^make_base()/,/^}/p' "$0"; } | sha256sum | cut -c1-16)
dir=$TKH_CACHE/realsys
base=$dir/base-$rel-$key

make_base() {
	mmdebstrap --quiet --variant=minbase --include="$pkgs" \
		--aptopt='APT::Install-Recommends "false"' \
		--format=directory "$rel" "$base.tmp" "${sources[@]}" >&2
}

mkdir -p "$dir"
exec 9>"$dir/.lock-$rel"	# (one maker a release)
flock 9
if [ ! -f "$base/.done" ]; then
	log "making the $rel base ($base; some 3-10 minutes)"
	rm -rf "$dir/base-$rel"-*.tmp
	make_base || { rm -rf "$base.tmp"; die "mmdebstrap failed"; }
	touch "$base.tmp/.done"
	mv "$base.tmp" "$base"
	# Older bases of the release go: each is about 1 GB.
	find "$dir" -maxdepth 1 -name "base-$rel-*" ! -name "base-$rel-$key" -exec rm -rf {} +
fi
echo "$base"
