#!/bin/bash
# Build the test kernel from apt's linux-source-6.1 with our fragment.
# Cached under ~/.cache/tek/ keyed by source version and fragment hash;
# prints the build directory on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
frag=$here/kernel.config
tar=/usr/src/linux-source-6.1.tar.xz
[ -f "$tar" ] || { echo "missing $tar (apt-get install linux-source-6.1)" >&2; exit 1; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$(cat "$frag" "$0" | sha256sum | cut -c1-12)
cache=${TEK_CACHE:-$HOME/.cache/tek}
dir=$cache/linux-$ver-$key
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
# One build at a time: a second caller waits for the first and reuses it.
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp"
echo "build-kernel: extracting $tar" >&2
tar -C "$dir.tmp" --strip-components=1 -xJf "$tar"
cd "$dir.tmp"
make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "$frag" >/dev/null
make -s olddefconfig >&2
for opt in TRUSTED_KEYS ENCRYPTED_KEYS DM_CRYPT ECRYPT_FS KASAN TCG_TIS KALLSYMS MODULE_SIG CRYPTO_ECDH FAIL_FUNCTION FAILSLAB; do
	grep -q "^CONFIG_$opt=" .config || { echo "build-kernel: CONFIG_$opt lost" >&2; exit 1; }
done
echo "build-kernel: building (this takes minutes)" >&2
make -s -j"$(nproc)" bzImage modules >&2
cd - >/dev/null
mv "$dir.tmp" "$dir"
touch "$dir/.done"
echo "$dir"
