#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a kernel of ours from apt's linux-source-6.1; prints the build
# directory on stdout. Cached under ~/.cache/tek/ keyed by the source version
# and the hash of the kernel's line of tests/qemu/kernels, its fragments,
# the series (trait series) and this script.
#
# usage: build-kernel.sh [NAME]   NAME (default test): a kernel of kind
#                                 "build" of tests/qemu/kernels, the one
#                                 description of each: its config fragments
#                                 (tinyconfig + them), its traits (series:
#                                 our series, build/series/6.1/*.patch, git
#                                 am'd first; kasan-all: KASAN everywhere,
#                                 else on what our keys pass through, below)
#                                 and whether the key types are built in
# Every CONFIG_X=y|m and CONFIG_X=value line of the fragments must hold
# after olddefconfig (a line Kconfig drops fails the build, before it
# compiles); a kernel with the key types built in must have TRUSTED_KEYS,
# ENCRYPTED_KEYS and DM_CRYPT =y.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"
flavour=${1:-test}
if ! t_kernel "$flavour" 2>/dev/null || [ "$kn_kind" != build ]; then
	echo "usage: build-kernel.sh [$(t_kernels build | paste -sd'|')]" >&2
	exit 2
fi
frags=()
IFS=, read -ra rel <<<"$kn_source"
for f in "${rel[@]}"; do
	[ -f "$TKH_TOP/$f" ] || { echo "build-kernel $flavour: no fragment $f (tests/qemu/kernels)" >&2; exit 1; }
	frags+=("$TKH_TOP/$f")
done
name=$flavour-
[ "$flavour" = test ] && name=''
nice=${TKH_NICE:-0}
tar=/usr/src/linux-source-6.1.tar.xz
[ -f "$tar" ] || { echo "missing $tar (apt-get install linux-source-6.1)" >&2; exit 1; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
# The patched kernel: our series for 6.1 (make series), part of its key.
series=()
if t_trait series; then
	sdir=${TKH_SERIES:-$here/../../build/series/6.1}
	mapfile -t series < <(find "$sdir" -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' 2>/dev/null | LC_ALL=C sort)
	[ "${#series[@]}" -gt 0 ] ||
		{ echo "build-kernel evm: no series in $sdir (make series)" >&2; exit 1; }
fi
# The series' diffs only: its headers (Message-Id, Date) change with every
# make series and with every commit of ours, the kernel they make does not.
key=$( (echo "$flavour"; grep -E "^${flavour}[[:space:]]" "$here/kernels"; cat "${frags[@]}" "$0"
	[ "${#series[@]}" = 0 ] || sed -s -n '/^diff --git /,$p' "${series[@]}") |
	sha256sum | cut -c1-12)
cache=${TKH_CACHE:-$HOME/.cache/tek}
dir=$cache/linux-$ver-$name$key
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9
if [ -f "$dir/.done" ]; then echo "$dir"; exit 0; fi
rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp"
echo "build-kernel $flavour: extracting $tar" >&2
tar -C "$dir.tmp" --strip-components=1 -xJf "$tar"
cd "$dir.tmp"
if [ "${#series[@]}" -gt 0 ]; then
	# git am onto the tree as apt unpacks it (a throwaway repository; -f:
	# Debian's top-level .gitignore ignores every top-level name).
	echo "build-kernel $flavour: applying ${#series[@]} patches (git am)" >&2
	git init -q .
	git add -A -f . >/dev/null
	git -c user.name=tek -c user.email=tek@localhost commit -qm linux-source-6.1 >/dev/null
	git -c user.name=tek -c user.email=tek@localhost am -q "${series[@]}" >&2 ||
		{ echo "build-kernel $flavour: the series does not apply" >&2; exit 1; }
fi
if ! t_trait kasan-all; then
	# KASAN instruments what our keys' objects pass through (security/,
	# crypto/, lib/, drivers/, block/, fs/ecryptfs, ...), not the process
	# and memory machinery every fork and exec runs (mm/, kernel/,
	# arch/x86/, fs/*.c): the guest tests start thousands of processes,
	# and under TCG those paths cost several times what they cost
	# uninstrumented. Nor the drivers and filesystems no key reaches: PCI,
	# the serial console every line of output goes through, the device
	# core, the scratch disk (virtio, loop, ext2): a quicker build and
	# boot. (No ACPI in this kernel: kernel.config.) Shadow poisoning of every
	# allocation, redzones and the quarantine stay on everywhere; the
	# stress kernel keeps KASAN everywhere (docs/testing.md, "The test
	# kernel").
	for mk in $(find mm kernel arch/x86 drivers/pci drivers/tty \
		drivers/base drivers/block drivers/virtio fs/ext2 -name Makefile) fs/Makefile; do
		printf '\nKASAN_SANITIZE := n\n' >>"$mk"
	done
fi
# kmemleak reports an object only when it was older than MSECS_MIN_AGE at
# the scan (5 s: objects being linked in while a busy system is scanned); the
# guests scan once their tests are done, on a quiet system, and wait that
# long after the last test (tests/guest/init): half a second here.
sed -i 's/^#define MSECS_MIN_AGE[[:space:]]*5000\b/#define MSECS_MIN_AGE\t\t500/' mm/kmemleak.c
grep -q '^#define MSECS_MIN_AGE[[:space:]]*500\b' mm/kmemleak.c ||
	{ echo "build-kernel $flavour: mm/kmemleak.c: MSECS_MIN_AGE not found" >&2; exit 1; }
# KASAN's shadow (an eighth of the guest's memory) out of kmemleak's scans,
# as arm64's kasan_init does upstream (MEMBLOCK_ALLOC_NOLEAKTRACE): shadow
# bytes hold no pointers, and scanning them took most of each scan (1.3 ->
# 0.3 s under TCG; three scans a boot).
sed -i 's/__pa(MAX_DMA_ADDRESS), MEMBLOCK_ALLOC_ACCESSIBLE, nid);/__pa(MAX_DMA_ADDRESS), MEMBLOCK_ALLOC_NOLEAKTRACE, nid);/' \
	arch/x86/mm/kasan_init_64.c
grep -q 'MEMBLOCK_ALLOC_NOLEAKTRACE, nid);' arch/x86/mm/kasan_init_64.c ||
	{ echo "build-kernel $flavour: arch/x86/mm/kasan_init_64.c: early_alloc not found" >&2; exit 1; }
make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "${frags[@]}" >/dev/null
make -s olddefconfig >&2
# What the fragments ask for must have held (=n lines: "is not set").
while IFS= read -r line; do
	case $line in
	*=n) grep -qx "# ${line%=n} is not set" .config || ! grep -q "^${line%=n}=" .config ;;
	*=y|*=m) grep -q "^${line%=*}=[ym]$" .config ;;
	*) grep -qxF "$line" .config ;;
	esac || { echo "build-kernel $flavour: $line lost ($(grep "^${line%%=*}=" .config || echo unset))" >&2; exit 1; }
done < <(grep -hE '^CONFIG_[A-Z0-9_]+=' "${frags[@]}" | sort -u)
if [ "$kn_modules" = builtin ]; then
	for opt in TRUSTED_KEYS ENCRYPTED_KEYS DM_CRYPT; do
		grep -q "^CONFIG_$opt=y" .config || { echo "build-kernel $flavour: CONFIG_$opt not built in" >&2; exit 1; }
	done
fi
# Progress on stderr every TKH_PROGRESS_SECS (30) seconds: the objects
# built so far of the count the last build of this flavour left (an
# estimate before the first), and the time.
objs=$(cat "$cache/objs-$flavour" 2>/dev/null) || objs=
case $objs in ''|*[!0-9]*|0) objs=1000 ;; esac
echo "build-kernel $flavour: building the $flavour kernel (first run only: minutes; docs/timings.md) in $dir" >&2
progress() {
	local n p
	while sleep "${TKH_PROGRESS_SECS:-30}"; do
		n=$(find . -name '*.o' 2>/dev/null | wc -l)
		p=$((n * 100 / objs))
		[ $p -le 99 ] || p=99
		printf 'build-kernel %s: %d of about %d objects built (%d%%), %dm%02ds\n' \
			"$flavour" "$n" "$objs" "$p" $((SECONDS / 60)) $((SECONDS % 60)) >&2
	done
}
SECONDS=0
progress &
progress_pid=$!
rc=0
nice -n "$nice" make -s -j"$(nproc)" bzImage modules >&2 || rc=$?
kill "$progress_pid" 2>/dev/null || true
wait "$progress_pid" 2>/dev/null || true
[ $rc = 0 ] || { echo "build-kernel $flavour: the build failed (exit $rc)" >&2; exit $rc; }
find . -name '*.o' | wc -l >"$cache/objs-$flavour"
printf 'build-kernel %s: built in %dm%02ds\n' "$flavour" $((SECONDS / 60)) $((SECONDS % 60)) >&2
cd - >/dev/null
mv "$dir.tmp" "$dir"
touch "$dir/.done"
echo "$dir"
