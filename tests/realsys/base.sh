#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real system's base: a Debian 12 made by mmdebstrap from apt's archive,
# as a directory kept in $TKH_CACHE/realsys/base-KEY (some 3-10 minutes to
# make, 950 MB; KEY: the package list, the suites, mmdebstrap's version and apt's
# candidate of linux-image-amd64, so a new stock kernel makes a new base).
#
# usage: base.sh      stdout: the directory's path (copy it: it is shared)
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need mmdebstrap apt-cache flock

mirror=${TKH_REALSYS_MIRROR:-http://deb.debian.org/debian}
secmirror=${TKH_REALSYS_SECURITY:-http://deb.debian.org/debian-security}
# What docs/install.md's reader has: a booting Debian 12 with initramfs-tools,
# the stock kernel and its headers (DKMS builds there), DKMS, and the tools
# the enrolment and the unlock use (keyctl, dmsetup, mkfs.ext4, tpm2-tools).
pkgs=systemd-sysv,udev,initramfs-tools,busybox,zstd,kmod,linux-image-amd64,linux-headers-amd64
pkgs=$pkgs,dkms,keyutils,dmsetup,tpm2-tools,e2fsprogs
sources=("deb $mirror bookworm main" "deb $mirror bookworm-updates main"
	"deb $secmirror bookworm-security main")

kver=$(apt-cache policy linux-image-amd64 2>/dev/null | sed -n 's/^ *Candidate: //p')
key=$( { echo "$pkgs"; printf '%s\n' "${sources[@]}"; mmdebstrap --version; echo "$kver"
	sed -n '/^make_base()/,/^}/p' "$0"; } | sha256sum | cut -c1-16)
dir=$TKH_CACHE/realsys
base=$dir/base-$key

make_base() {
	mmdebstrap --quiet --variant=minbase --include="$pkgs" \
		--aptopt='APT::Install-Recommends "false"' \
		--format=directory bookworm "$base.tmp" "${sources[@]}" >&2
}

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ ! -f "$base/.done" ]; then
	log "making the Debian 12 base ($base; some 3-10 minutes)"
	rm -rf "$dir"/base-*.tmp
	make_base || { rm -rf "$base.tmp"; die "mmdebstrap failed"; }
	touch "$base.tmp/.done"
	mv "$base.tmp" "$base"
	# Older bases go: each is some 950 MB.
	find "$dir" -maxdepth 1 -name 'base-*' ! -name "base-$key" -exec rm -rf {} +
fi
echo "$base"
