#!/bin/bash
# Install what the build and the tests need, from Debian's archive only:
# everything a stage of make check reads or runs beyond Debian's minimal
# system (mmdebstrap --variant=minbase: the Essential packages and apt),
# including the files shellcheck -x follows (initramfs-tools'
# hook-functions, sourced by initramfs/hooks/trusted-keys) and the tools
# other packages happen to pull in (openssl) or a full install happens to
# have (procps' ps, git, xxd). tests/minroot.sh (make minroot) checks that
# this list is enough, in a minimal Debian 12 root.
set -euo pipefail
pkgs=(build-essential bc bison flex libssl-dev libelf-dev dwarves kmod cpio
      xz-utils qemu-system-x86 qemu-utils swtpm swtpm-tools busybox-static keyutils
      tpm2-tools linux-source-6.1 sparse clang libclang-rt-14-dev
      dmsetup zstd python3 rsync shellcheck
      dkms dh-dkms debhelper lintian ccache lz4 mmdebstrap fdisk e2fsprogs
      ima-evm-utils attr mount libkeyutils-dev autoconf automake libtool pkg-config
      initramfs-tools pyflakes3 xxd openssl procps git cryptsetup-bin
      ovmf mtools dosfstools)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" != 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
