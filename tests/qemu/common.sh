# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the host harness; sourced by tests/qemu/*.sh and tests/check.sh.
# shellcheck shell=bash

TKH_QEMU=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TKH_TOP=$(cd "$TKH_QEMU/../.." && pwd)
TKH_CACHE=${TKH_CACHE:-$HOME/.cache/tek}
export TKH_CACHE

t_prog=$(basename "$0" .sh)

# Host knobs are TKH_* (docs/testing.md, "Knobs": the one list), and so are
# the guest's variables (TKH_PHASE, TKH_KERNEL...).

die() { echo "$t_prog: error: $*" >&2; exit 1; }
log() { echo "$t_prog: $*" >&2; }

need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || die "'$c' not found (run tests/deps.sh)"
	done
}

# A run directory under build/ in the repo (gitignored); reused when TKH_RUN is set.
t_rundir() {
	if [ -z "${TKH_RUN:-}" ]; then
		TKH_RUN=$TKH_TOP/build/run-$(date +%Y%m%d-%H%M%S)-$$
		mkdir -p "$TKH_RUN"
		ln -sfn "$(basename "$TKH_RUN")" "$TKH_TOP/build/run-latest"
		# Keep the last TKH_KEEP_RUNS (default 20) run directories.
		find "$TKH_TOP/build" -maxdepth 1 -type d -name 'run-2*' -printf '%f\n' | sort -r |
			tail -n +$((${TKH_KEEP_RUNS:-20} + 1)) | while read -r old; do
				rm -rf "${TKH_TOP:?}/build/$old"
			done
	fi
	mkdir -p "$TKH_RUN"
	TKH_RUN=$(cd "$TKH_RUN" && pwd)
	export TKH_RUN
	echo "$TKH_RUN"
}

# Seconds since the epoch with a fraction, and elapsed time formatting.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The host scripts' KTAP writer (tests/pkg/dkms-test.sh,
# tests/realsys/prepare.sh, a suite's host-check), in the words of the
# guest's (tests/guest/lib/ktap.sh): t_ok DESC; t_fail DESC [MSG] (MSG's
# lines as "# " diagnostics before the result); t_fail_rest PLAN: a failed
# "test N did not run" for each point short of PLAN. The script prints its
# "KTAP version 1" and plan; t_nfail counts the failed points.
_t_n=0 t_nfail=0
t_ok() { _t_n=$((_t_n + 1)); echo "ok $_t_n $1"; }
t_fail() {
	_t_n=$((_t_n + 1)) t_nfail=$((t_nfail + 1))
	[ $# -lt 2 ] || [ -z "$2" ] || printf '%s\n' "$2" | sed 's/^/# /'
	echo "not ok $_t_n $1"
}
t_fail_rest() { while [ "$_t_n" -lt "$1" ]; do t_fail "test $((_t_n + 1)) did not run"; done; }

# t_step NAME CMD...: run and time one step; "NAME SECONDS" goes to stderr
# and, when t_times names a file, is appended to it.
t_times=
t_step() {
	local name=$1 t0 rc=0 line
	shift
	t0=$(now)
	"$@" || rc=$?
	line=$(printf '%-32s %6ss' "$name" "$(elapsed "$t0")")
	echo "$line" >&2
	if [ -n "$t_times" ]; then echo "$line" >>"$t_times"; fi
	return $rc
}

# t_boot_tries [OPTIONS] IMAGE INITRD TPMDIR TPM EXTRAS OUTDIR [STATE_IN]:
# boot.sh, booted again (three tries in all) when the host was too loaded for
# the firmware: SeaBIOS timed out on the TPM and disabled its TPM 2.0
# hierarchies (tests/guest/init stops before any test and says so), or
# ACPI's PCI routing loop timed out (boot.sh leaves OUTDIR/acpi-timeout). A
# failed try's output stays as OUTDIR.tryN. Exit status: the last boot.sh's.
t_boot_tries() {
	local a=("$@") i=0 name=boot out try rc
	while [ "${a[$i]}" != "${a[$i]#--}" ]; do	# boot.sh's options
		case ${a[$i]} in
		--nested) i=$((i + 1)) ;;
		--name) name=${a[$((i + 1))]} i=$((i + 2)) ;;
		*) i=$((i + 2)) ;;
		esac
	done
	out=${a[$((i + 5))]}
	for try in 1 2 3; do
		rc=0
		"$TKH_QEMU/boot.sh" "$@" || rc=$?
		if grep -q 'TPM 2.0 hierarchies disabled by the firmware' "$out/console.log" 2>/dev/null; then
			log "$name: the firmware disabled the TPM 2.0 hierarchies (try $try)"
		elif [ -f "$out/acpi-timeout" ]; then
			log "$name: ACPI loop timeout at boot, a loaded host (try $try)"
		else
			return "$rc"
		fi
		[ "$try" = 3 ] || { rm -rf "$out.try$try"; mv "$out" "$out.try$try"; }
	done
	return "$rc"
}

# t_ccache CMD...: CMD with ccache's compiler names first in PATH (when
# installed; deps.sh installs it) and its cache in $TKH_CACHE/ccache: a clean
# clone compiles src/ for three kernels and lint once more, the package test's
# DKMS three times, with the same results every time (TKH_CCACHE_DIR:
# another cache, a release's root's, whose ccache and compiler are not this
# host's). Each build finds the entries of its own earlier builds:
# t_build_ours compiles in one place per kernel ($TKH_CACHE/obj/NAME/src),
# DKMS in its own (/var/lib/dkms/...);
# CCACHE_NOHASHDIR and CCACHE_BASEDIR=/ keep the working directory and the
# absolute paths out of the keys (tests/host compiles in each checkout), and
# -fmacro-prefix-map= (which names the tree's absolute path) out of them too.
t_ccache() {
	if [ -d /usr/lib/ccache ]; then
		PATH=/usr/lib/ccache:$PATH CCACHE_DIR=${TKH_CCACHE_DIR:-$TKH_CACHE/ccache} CCACHE_NOHASHDIR=1 \
			CCACHE_BASEDIR=/ CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=*' "$@"
	else
		"$@"
	fi
}

# The boots' times of this machine's last runs, $TKH_CACHE/boot-times: lines
# "KEY... SECONDS" (run-all.sh: NAME SUITES).
# t_time_get KEY: its seconds, else tests/qemu/boot-times' (a fresh cache),
# else nothing; t_time_set KEY SECONDS.
t_time_get() {
	local f t
	for f in "$TKH_CACHE/boot-times" "$TKH_QEMU/boot-times"; do
		t=$(awk -v k="$1" '{ s = $NF; $NF = ""; sub(/ $/, "") } $0 == k { t = s } END { print t }' \
			"$f" 2>/dev/null)
		[ -z "$t" ] || break
	done
	echo "$t"
}
t_time_set() {
	local db=$TKH_CACHE/boot-times
	mkdir -p "$TKH_CACHE"
	{ awk -v k="$1" '{ l = $0; $NF = ""; sub(/ $/, "") } $0 != k { print l }' "$db" 2>/dev/null
		echo "$1 ${2%.*}"; } >"$db.$$" && mv "$db.$$" "$db"
}

# t_kept DIR CMD...: make DIR once: unless DIR/.done exists, run CMD in an
# empty DIR.tmp (its working directory) and, when it succeeds, rename that to
# DIR with a .done in it. One maker at a time per parent directory (its
# .lock; machines are prepared in parallel, and checkouts share the cache):
# the others wait, then find DIR made. The caches keyed by a hash of their
# inputs (t_static_tool, t_build_ours' modules, mkinitramfs.sh's stock
# modules) are made this way: whole or not at all.
t_kept() {
	local dir=$1
	shift
	[ -f "$dir/.done" ] && return 0
	mkdir -p "$(dirname "$dir")"
	(
		flock 7
		[ -f "$dir/.done" ] && exit 0
		rm -rf "$dir.tmp"
		mkdir "$dir.tmp"
		(cd "$dir.tmp" && "$@") || exit 1
		touch "$dir.tmp/.done"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	) 7>"$(dirname "$dir")/.lock"
}

# t_static_tool SRC [GCC FLAGS...]: print the path of SRC (a C file of ours)
# compiled into a static program (for the guest, or the host's host-tsc),
# kept in $TKH_CACHE/guest-tools/ under the hash of the source, the headers
# it includes with quotes, the flags and gcc's version: every initramfs of a
# run (a dozen) and of the next clean clone takes the same binary instead of
# compiling it again (a second or more of a core each).
t_static_tool() {
	local src=$1 name key dir
	shift
	name=$(basename "$src" .c)
	key=$( (cat "$src"; sed -n 's/^#include "\(.*\)"/\1/p' "$src" |
		while read -r inc; do cat "$(dirname "$src")/$inc"; done
		echo "$*"; gcc --version | head -n 1) | sha256sum | cut -c1-16)
	dir=$TKH_CACHE/guest-tools/$name-$key
	t_kept "$dir" gcc -static -O2 -Wall "$@" -o "$name" "$src" || return 1
	echo "$dir/$name"
}

# t_release: the Debian release of the kernel t_kernel read last when it is
# not this host's (its source "PATTERN,SUITE": trixie for trixie and
# trixie-backports), else nothing. What builds against such a kernel runs
# in that release's root (tests/qemu/root.sh, t_in_root): its compiler and
# kbuild tools, not this host's.
t_release() {
	local s
	[ "$kn_kind" = debian ] || return 0
	s=${kn_source#*,}
	[ "$s" = "$kn_source" ] || echo "${s%%-*}"
}

# t_in_root ROOT CMD...: CMD in a chroot of ROOT (a release's root,
# tests/qemu/root.sh), in mount and PID namespaces of its own (as root; as
# another user, in a user namespace too): /proc, /dev, and this checkout,
# the cache and TKH_RUN at their own paths, so paths mean the same inside.
# The environment is PATH, HOME, LANG and the VAR=VALUE words before CMD.
t_in_root() {
	local root=$1 ns=(--mount --pid --fork --propagation private)
	shift
	[ "$(id -u)" = 0 ] || ns+=(--map-root-user)
	# shellcheck disable=SC2016  # the inner shell's
	unshare "${ns[@]}" -- /bin/bash -c '
		r=$1 cache=$3
		for p in "$2" "$3" "$4"; do
			[ -n "$p" ] && [ -d "$p" ] || continue
			mkdir -p "$r$p" && mount --bind "$p" "$r$p" || exit 1
		done
		shift 4
		mount -t proc proc "$r/proc" && mount --bind /dev "$r/dev" || exit 1
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 TKH_CACHE="$cache" "$@"' t_in_root "$root" "$TKH_TOP" "$TKH_CACHE" \
		"${TKH_RUN:-}" "$@"
}

# t_make_in_root ROOT ARG...: make ARG... in ROOT with ccache (its own
# cache, $TKH_CACHE/ccache-ROOTNAME's release: another compiler).
t_make_in_root() {
	local root=$1 rel
	shift
	rel=$(basename "$root")
	t_in_root "$root" CCACHE_DIR="$TKH_CACHE/ccache-${rel%%-*}" CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=/ \
		CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=*' DEBIAN_KERNEL_USE_CCACHE=1 make "$@"
}

# t_build_ours NAME KDIR MODS LOG: build our modules from a private copy of src/
# (kernels do not clobber each other's objects and the harness never races a
# developer's own build in src/), copy the .ko to MODS. The copy is at the
# same path for every checkout, $TKH_CACHE/obj/NAME/src, emptied first (every
# file compiled, nothing of another checkout's build kept): ccache's entries
# name the sources by their path, so a clean clone anywhere finds them.
# The modules of the last build are kept in $TKH_CACHE/obj/NAME/ko-KEY, KEY
# the hash of everything the build reads of ours and of the kernel's (the
# copy of src/, the tree's path, .config, Module.symvers and release, gcc's
# version, this function): the same inputs take them (and their build log)
# instead of a make that would replay every object from ccache (10-15 s of
# a core for each kernel, at the start of the guest stage).
t_build_ours() {
	local name=$1 kdir=$2 mods=$3 buildlog=$4 obj=$TKH_CACHE/obj/$1/src key kept rel root='' mk
	t_kernel "$name" || return 1
	rel=$(t_release)
	mk=(t_ccache make)
	if [ -n "$rel" ]; then
		root=$("$TKH_QEMU/root.sh" "$rel") || { log "$name: no $rel root (tests/qemu/root.sh)"; return 1; }
		mk=(t_make_in_root "$root")
	fi
	mkdir -p "$mods" "$TKH_CACHE/obj/$name"
	exec 8>"$TKH_CACHE/obj/$name/src.lock"   # one build per tree at a time (checkouts, run-all vs. demo)
	flock 8
	rm -rf "$obj"
	mkdir -p "$obj"
	rsync -a --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='*.o.d' --exclude=modules.order --exclude=Module.symvers \
		"$TKH_TOP/src/" "$obj/"
	key=$( (cd "$obj" && find . \( -type f -o -type l \) -print0 | LC_ALL=C sort -z |
		xargs -0 sha256sum; find . -type l -printf '%p -> %l\n' | LC_ALL=C sort
		cd "$kdir" && pwd -P && cat .config Module.symvers include/config/kernel.release 2>/dev/null
		gcc --version | head -n 1; echo "$root"; declare -f t_build_ours) | sha256sum | cut -c1-16)
	kept=$TKH_CACHE/obj/$name/ko-$key
	if [ -f "$kept/.done" ] && compgen -G "$kept/*.ko" >/dev/null; then
		cp "$kept"/*.ko "$mods/"
		{ echo "# t_build_ours: the modules of an earlier build of the same inputs, $kept"
			cat "$kept/build.log"; } >"$buildlog"
		exec 8>&-
		log "$name: our modules (an earlier build of the same inputs): $(cd "$mods" && echo *.ko)"
		return 0
	fi
	if ! "${mk[@]}" -C "$kdir" M="$obj" modules >"$buildlog" 2>&1; then
		exec 8>&-
		tail -n 20 "$buildlog" >&2
		return 1
	fi
	compgen -G "$obj/*.ko" >/dev/null || { exec 8>&-; log "$name: no .ko in $obj"; return 1; }
	cp "$obj"/*.ko "$mods/"
	rm -rf "$TKH_CACHE/obj/$name"/ko-*
	# shellcheck disable=SC2016 # (sh's $1 and $2)
	t_kept "$kept" sh -c 'cp "$1"/*.ko . && cp "$2" build.log' sh "$obj" "$buildlog" || true
	exec 8>&-
	log "$name: our modules: $(cd "$mods" && echo *.ko)"
}

# t_kasan_check KDIR MODS: our modules in MODS and the kernel's code that
# our keys' objects pass through are KASAN-instrumented (they call the
# __asan_report_* functions); build-kernel.sh leaves mm/, kernel/, arch/x86/
# and fs/*.c uninstrumented for speed, and this shows nothing else went.
# (grep -c, not grep -q: with pipefail, nm's SIGPIPE would fail the test.)
T_KASAN_OBJS="security/keys/key.o security/keys/keyctl.o crypto/ecc.o crypto/hmac.o
	lib/crypto/aes.o drivers/char/tpm/tpm-interface.o drivers/md/dm-crypt.o fs/ecryptfs/keystore.o"
# _t_asan OBJ: OBJ calls the __asan_report_load* functions.
_t_asan() { [ "$(nm -u "$1" 2>/dev/null | grep -c __asan_report_load)" -gt 0 ]; }
t_kasan_check() {
	local kdir=$1 mods=$2 f
	for f in "$mods"/*.ko; do
		[ -e "$f" ] || continue
		_t_asan "$f" || { log "$f: not KASAN-instrumented"; return 1; }
	done
	for f in $T_KASAN_OBJS; do
		_t_asan "$kdir/$f" || { log "$kdir/$f: missing or not KASAN-instrumented"; return 1; }
	done
	for f in mm/memory.o kernel/fork.o; do
		! _t_asan "$kdir/$f" || { log "$kdir/$f: KASAN-instrumented (build-kernel.sh leaves it out)"; return 1; }
	done
}

# t_kernel NAME: NAME's line of tests/qemu/kernels in kn_guest, kn_kind,
# kn_modules, kn_traits, kn_source; false (and a message) for an unknown name.
# t_kernels [KIND]: the names (of that kind), in the table's order.
kn_guest='' kn_kind='' kn_modules='' kn_traits='' kn_source=''
t_kernel() {
	local n
	# shellcheck disable=SC2034  # kn_source: fetch-stock.sh's
	while read -r n kn_guest kn_kind kn_modules kn_traits kn_source; do
		[ "$n" = "$1" ] && return 0
	done < <(grep -v '^#' "$TKH_QEMU/kernels")
	log "unknown kernel '$1' (tests/qemu/kernels: $(t_kernels '' | tr '\n' ' '))"
	return 1
}
t_kernels() {
	awk -v k="${1:-}" '!/^#/ && NF && (k == "" || $3 == k) { print $1 }' "$TKH_QEMU/kernels"
}
t_trait() { case ,$kn_traits, in *",$1,"*) return 0 ;; esac; return 1; } # trait

# t_prepare KERNEL DIR [MODS]: prepare a machine of KERNEL (a name of
# tests/qemu/kernels) in DIR: the kernel (built or fetched, both cached), its
# modules in DIR/mods: ours built against it, or with MODS the .ko files of
# that directory (the package test: the ones DKMS built), none where the key
# types are built in; and the initramfs (DIR/initrd.cpio, plain: see
# cpio.py). Writes DIR/machine: "IMAGE INITRD KVER KDIR GUEST" and sets
# t_image, t_initrd, t_kver, t_kdir. Steps are timed (t_step). With
# TKH_NO_OURS=1 a failed module build goes on without our modules.
# A kernel of kind image is its source's script's: "SCRIPT [ARG...] DIR" (the
# source "SCRIPT,ARG,...") makes an
# installed system (DIR/machine, DIR/disk.img, DIR/tpm, DIR/cmdline: the
# words its boots need) and prints a KTAP document, kept in DIR/results.ktap.
t_prepare() {
	local kernel=$1 dir=$2 from=${3:-} line moddir peer ramfs=() srcargs=()
	t_kernel "$kernel" || return 1
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	# TKH_REALSYS_REUSE=1 with a TKH_RUN whose run kept the system
	# (TKH_REALSYS_KEEP=1): its rows boot it again, unmade
	if [ "$kn_kind" = image ] && [ "${TKH_REALSYS_REUSE:-0}" = 1 ] && [ -s "$dir/machine" ] &&
		[ -f "$dir/disk.img" ]; then
		log "$kernel: the installed system of an earlier run, $dir (TKH_REALSYS_REUSE=1)"
		read -r t_image t_initrd t_kver t_kdir _ <"$dir/machine"
		return 0
	fi
	rm -rf "$dir/mods" "$dir/machine"
	mkdir -p "$dir/mods"
	if [ "$kn_kind" = image ]; then
		IFS=, read -r -a srcargs <<<"$kn_source"
		t_step "$kernel: the installed system" "$TKH_TOP/${srcargs[0]}" "${srcargs[@]:1}" "$dir" \
			>"$dir/results.ktap" || { log "$kernel: $kn_source failed ($dir/results.ktap)"; return 1; }
		read -r t_image t_initrd t_kver t_kdir _ <"$dir/machine"
		return 0
	fi
	case $kn_kind in
	build)
		# (the kernel's own version's series only: make series' 6.12
		# would install linux-source-6.12 mid-run, or fail without root)
		local sver=6.1 bk=build-kernel.sh
		case $kn_source in linux-source-*)
			sver=${kn_source%%,*} sver=${sver#linux-source-} bk=build-kernel-src.sh ;;
		esac
		if t_trait series && [ -z "${TKH_SERIES:-}" ] &&
			! compgen -G "$TKH_TOP/build/series/$sver/0001-*.patch" >/dev/null; then
			t_step "$kernel: make series" make --no-print-directory -C "$TKH_TOP" series \
				SERIES_VERSIONS="$sver" >&2 ||
				{ log "$kernel: make series failed"; return 1; }
		fi
		t_kdir=$(t_step "$kernel: kernel build" "$TKH_QEMU/$bk" "$kernel") ||
			{ log "$kernel: the $kernel kernel does not build"; return 1; }
		t_image=$t_kdir/arch/x86/boot/bzImage t_kver=$kn_guest
		ramfs=(--kdir "$t_kdir")
		;;
	debian)
		line=$(t_step "$kernel: fetch" "$TKH_QEMU/fetch-stock.sh" "$kernel") ||
			{ log "$kernel: fetching the stock kernel failed"; return 1; }
		read -r _ t_kver t_kdir t_image moddir <<<"$line"
		ramfs=(--moddir "$moddir")
		;;
	esac
	if t_trait peer; then	# the peer suite's tools, when their source is in the cache
		if peer=$(t_step "$kernel: ima-evm-utils" "$TKH_QEMU/build-imaevm.sh"); then
			ramfs+=(--peer "$peer")
		else
			log "$kernel: no ima-evm-utils build: the peer tests skip"
		fi
	fi
	if [ -n "$from" ]; then
		compgen -G "$from/*.ko" >/dev/null || { log "$kernel: no modules in $from"; return 1; }
		cp "$from"/*.ko "$dir/mods/"
		log "$kernel: modules of $from: $(cd "$dir/mods" && echo *.ko)"
	elif [ "$kn_modules" = ours ] &&
		! t_step "$kernel: our modules" t_build_ours "$kernel" "$t_kdir" "$dir/mods" "$dir/build.log"; then
		if [ "${TKH_NO_OURS:-0}" != 1 ]; then
			log "$kernel: our modules do not build against $t_kver ($dir/build.log)"
			return 1
		fi
		log "$kernel: TKH_NO_OURS=1: going on without our modules"
	fi
	if t_trait kasan && [ -z "$from" ] &&
		! t_step "$kernel: KASAN instrumentation check" t_kasan_check "$t_kdir" "$dir/mods"; then
		log "$kernel: KASAN does not instrument what it must (t_kasan_check)"
		return 1
	fi
	t_initrd=$dir/initrd.cpio
	t_step "$kernel: initramfs" "$TKH_QEMU/mkinitramfs.sh" --out "$t_initrd" \
		--mods "$dir/mods" "${ramfs[@]}" || { log "$kernel: the initramfs failed"; return 1; }
	echo "$t_image $t_initrd $t_kver $t_kdir $kn_guest" >"$dir/machine"
}
