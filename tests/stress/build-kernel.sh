#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the stress kernel (make stress only): linux-source-6.1 with the test
# kernel's fragment (tests/qemu/kernel.config) and then ours
# (tests/stress/kernel.config: SMP, PREEMPT, PROVE_LOCKING...). Cached under
# ~/.cache/tek/ keyed by source version and the hash of both fragments and
# this script, as tests/qemu/build-kernel.sh keys the test kernel; prints the
# build directory on stdout. Takes 15-20 minutes of two cores: nice it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$here/../qemu/kernel.config
frag=$here/kernel.config
tar=/usr/src/linux-source-6.1.tar.xz
[ -f "$tar" ] || { echo "missing $tar (apt-get install linux-source-6.1)" >&2; exit 1; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$(cat "$base" "$frag" "$0" | sha256sum | cut -c1-12)
cache=${TEK_CACHE:-$HOME/.cache/tek}
dir=$cache/linux-$ver-stress-$key
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp"
echo "stress build-kernel: extracting $tar" >&2
tar -C "$dir.tmp" --strip-components=1 -xJf "$tar"
cd "$dir.tmp"
make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "$base" "$frag" >/dev/null
make -s olddefconfig >&2
for opt in TRUSTED_KEYS ENCRYPTED_KEYS KASAN KALLSYMS FAIL_FUNCTION FAILSLAB DEBUG_KMEMLEAK \
	SMP PREEMPT PROVE_LOCKING; do
	grep -q "^CONFIG_$opt=" .config || { echo "stress build-kernel: CONFIG_$opt lost" >&2; exit 1; }
done
echo "stress build-kernel: building (15-20 minutes)" >&2
nice -n "${TKH_NICE:-15}" make -s -j"$(nproc)" bzImage modules >&2
cd - >/dev/null
mv "$dir.tmp" "$dir"
touch "$dir/.done"
echo "$dir"
