#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's stock kernels (image + headers, never installed) into
# ~/.cache/tek/stock/<abi>/ and prepare the headers tree for out-of-tree builds.
#
# usage: fetch-stock.sh [NAME]...   (the debian kernels of tests/qemu/kernels;
#                                   default: all of them)
#        fetch-stock.sh --abi NAME   its ABI (6.12.118+deb13), nothing fetched
#        fetch-stock.sh --source VER SUITE   linux-source-VER of SUITE (unpacked
#                                    once; prints "TARBALL PKGVERSION")
# stdout, one line per kernel:  NAME KVER KDIR IMAGE MODDIR
# IMAGE is the vmlinuz's kernel unpacked (an ELF with a PVH entry: QEMU boots
# it without the bzImage's decompressor, some 3 s of TCG a boot for the xz of
# 6.1, 1 s for the zstd of 6.12), or the vmlinuz when it has none.
# The kernels table's pattern picks the ABI (pin one there: 6\.1\.0-57).
# A cached kernel is reused; only a newer ABI in apt's lists causes a download.
# A kernel of another release than this host's (the table's source
# "PATTERN,SUITE": trixie, trixie-backports) comes through an apt of its
# own: a sources list of that release's suites and lists kept in
# $TKH_CACHE/stock/apt-SUITE (updated when a day old), so the host's apt
# configuration and lists are never touched.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need apt-get apt-cache dpkg-deb flock depmod od readelf

# The apt options of the kernel being fetched: none (the host's apt) or a
# private one's (apt_for SUITE).
APTO=()
apt_for() { # suite
	local suite=$1 rel=${1%%-*} d m=http://deb.debian.org/debian s=http://deb.debian.org/debian-security
	APTO=()
	[ -n "$suite" ] || return 0
	d=$TKH_CACHE/stock/apt-$suite
	APTO=(-o "Dir::State::Lists=$d/lists" -o "Dir::State::status=$d/status"
		-o "Dir::Cache=$d/cache" -o "Dir::Etc::sourcelist=$d/sources.list"
		-o "Dir::Etc::sourceparts=$d/none" -o "Dir::Etc::preferencesparts=$d/none"
		-o "Dir::Etc::preferences=$d/none" -o APT::Architecture=amd64)
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/none"
	[ -e "$d/status" ] || : >"$d/status"
	{
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
			"$m" "$rel" "$m" "$rel-updates"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $s $rel-security main"
		[ "$suite" = "$rel" ] ||
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m $suite main"
	} >"$d/sources.list.new"
	if ! cmp -s "$d/sources.list.new" "$d/sources.list" ||
		[ -z "$(find "$d/lists" -maxdepth 1 -name '*Packages*' -mmin -1440)" ]; then
		mv "$d/sources.list.new" "$d/sources.list"
		log "$suite: apt-get update (lists in $d)"
		if ! apt-get "${APTO[@]}" -q update >"$d/update.log" 2>&1; then
			compgen -G "$d/lists/*Packages*" >/dev/null ||
				die "$suite: apt-get update failed ($d/update.log)"
			log "$suite: apt-get update failed: the lists of an earlier update ($d/update.log)"
		fi
	fi
	rm -f "$d/sources.list.new"
}

# True when apt can download PKG; prints its candidate version.
pkg_version() {
	apt-cache "${APTO[@]}" show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -n1
}

# Newest ABI (e.g. 6.1.0-57 or 6.12.118+deb12) with image and both headers packages.
newest_abi() { # regex-of-abi
	local re=$1 abi
	for abi in $(apt-cache "${APTO[@]}" pkgnames linux-headers- | sed -n "s/^linux-headers-\($re\)-amd64\$/\1/p" | sort -Vr); do
		[ -n "$(pkg_version "linux-headers-$abi-common")" ] || continue
		[ -n "$(pkg_version "linux-image-$abi-amd64-unsigned")$(pkg_version "linux-image-$abi-amd64")" ] || continue
		echo "$abi"
		return 0
	done
	return 1
}

# newest_abi with its answer kept in $TKH_CACHE/stock/abi-KEY, KEY the hash
# of the regex and of the state of apt's lists (names, sizes, times): the
# answer changes only with them, and its apt-cache queries take some 5 s of
# a core (each machine of a stock kernel and the package test ask).
newest_abi_kept() { # regex-of-abi suite
	local key f abi lists=/var/lib/apt/lists
	[ -z "$2" ] || lists=$TKH_CACHE/stock/apt-$2/lists
	key=$( (echo "$1"; stat -c '%n %s %Y' "$lists"/* /etc/apt/sources.list \
		/etc/apt/sources.list.d/* 2>/dev/null) | sha256sum | cut -c1-16)
	f=$TKH_CACHE/stock/abi-$key
	mkdir -p "$TKH_CACHE/stock"
	if [ -s "$f" ]; then
		cat "$f"
		return 0
	fi
	abi=$(newest_abi "$1") || return 1
	echo "$abi" >"$f.$$" && mv "$f.$$" "$f"
	echo "$abi"
}

# The packages that hold the real image: the signed one unless it is only a
# wrapper (small) or missing, then the -unsigned one; or, where the image
# package is split (7.x: linux-image-ABI-amd64 depends on linux-base-,
# linux-binary- and linux-modules-ABI-amd64, which hold the files), the
# image package and those. One "PACKAGE=VERSION" a line.
image_pkgs() { # abi
	local signed=linux-image-$1-amd64 size p re
	if [ -n "$(pkg_version "$signed")" ]; then
		size=$(apt-cache "${APTO[@]}" show --no-all-versions "$signed" | sed -n 's/^Size: //p' | head -n1)
		if [ "${size:-0}" -gt 20000000 ]; then echo "$signed=$(pkg_version "$signed")"; return; fi
	fi
	if [ -n "$(pkg_version "$signed-unsigned")" ]; then
		echo "$signed-unsigned=$(pkg_version "$signed-unsigned")"
		return
	fi
	[ -n "$(pkg_version "$signed")" ] || die "no image package for $1"
	echo "$signed=$(pkg_version "$signed")"
	re=${1//./[.]} re=${re//+/[+]}
	for p in $(apt-cache "${APTO[@]}" show --no-all-versions "$signed" | sed -n 's/^Depends: //p' |
		tr ',|' '\n' | sed -n "s/^ *\(linux-[a-z]*-$re-amd64\)\( .*\)\{0,1\}\$/\1/p"); do
		echo "$p=$(pkg_version "$p")"
	done
}

# kernel_abi SOURCE: the ABI of a debian kernel of tests/qemu/kernels (its
# source column "PATTERN[,SUITE]") in ABI; sets APTO for the suite.
ABI=
kernel_abi() { # source
	local re=${1%%,*} suite=
	[ "$re" = "$1" ] || suite=${1#*,}
	apt_for "$suite"
	ABI=$(newest_abi_kept "$re" "$suite") ||
		die "no linux-headers-*-amd64 matching $re in apt's lists${suite:+ of $suite} (apt-get update?)"
}

fetch() { # name source
	local name=$1 abi kver dir hdr ver kbuild pkgs p
	kernel_abi "$2"
	abi=$ABI
	kver=$abi-amd64
	dir=$TKH_CACHE/stock/$kver
	mkdir -p "$TKH_CACHE/stock"
	exec 9>"$TKH_CACHE/stock/.lock"
	flock 9
	if [ ! -f "$dir/.done" ]; then
		hdr=linux-headers-$kver
		ver=$(pkg_version "$hdr")
		[ -n "$ver" ] || die "$name: $hdr not available"
		# scripts/ and tools/ of the headers tree come from linux-kbuild-*.
		kbuild=$(apt-cache "${APTO[@]}" show --no-all-versions "$hdr" | sed -n 's/^Depends: //p' |
			tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p' | head -n1)
		[ -n "$kbuild" ] || die "$name: cannot find the linux-kbuild package of $hdr"
		mapfile -t pkgs < <(image_pkgs "$abi")
		[ "${#pkgs[@]}" -gt 0 ] || die "$name: no image package for $abi"
		pkgs+=("$hdr=$ver" "linux-headers-$abi-common=$ver" "$kbuild=$ver")
		log "$name: downloading ${pkgs[*]}"
		rm -rf "$dir"
		mkdir -p "$dir/debs" "$dir/root"
		(cd "$dir/debs" && apt-get "${APTO[@]}" download -q "${pkgs[@]}" 2>&1 |
			{ grep -v -e '^W: Download is performed unsandboxed' || true; } >&2) ||
			die "$name: apt-get download failed"
		for p in "$dir"/debs/*.deb; do
			log "$name: extracting $(basename "$p")"
			dpkg-deb -x "$p" "$dir/root"
		done
		fixup "$dir/root" "$kver"
		[ -f "$dir/root/boot/vmlinuz-$kver" ] || die "$name: no vmlinuz-$kver in ${pkgs[*]}"
		printf '%s\n' "${pkgs[@]}" >"$dir/.done"
	fi
	[ -f "$dir/root/boot/vmlinux-$kver.pvh" ] || [ -f "$dir/root/boot/vmlinux-$kver.none" ] ||
		unpack_pvh "$dir/root/boot/vmlinuz-$kver" "$dir/root/boot/vmlinux-$kver"
	flock -u 9
	locate "$name" "$dir/root" "$kver"
}

# Make the extracted headers tree usable where it lies: absolute paths into
# /usr/src become paths into ROOT; absolute symlinks become relative.
fixup() { # root kver
	local root=$1 kver=$2 kdir l t
	kdir=$root/usr/src/linux-headers-$kver
	[ -f "$kdir/Makefile" ] || die "$kver: $kdir/Makefile missing after extraction"
	# Packages of a merged-/usr release (trixie) put the modules in
	# /usr/lib/modules and, since 7.x, the image there too (KVER/vmlinuz):
	# depmod -b wants ROOT/lib/modules, the rest ROOT/boot/vmlinuz-KVER.
	[ -e "$root/lib" ] || [ ! -d "$root/usr/lib/modules" ] || ln -s usr/lib "$root/lib"
	if [ ! -e "$root/boot/vmlinuz-$kver" ] && [ -f "$root/usr/lib/modules/$kver/vmlinuz" ]; then
		mkdir -p "$root/boot"
		ln -s "../usr/lib/modules/$kver/vmlinuz" "$root/boot/vmlinuz-$kver"
	fi
	# (7.x's names its output tree too: KBUILD_OUTPUT=, which must be the
	# directory make runs in, or the kernel's Makefile takes another output
	# directory and writes a Makefile of its own over this one)
	sed -i -e "s|^include /usr/src/|include $root/usr/src/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$root/usr/src/|" "$kdir/Makefile"
	while IFS= read -r -d '' l; do
		t=$(readlink "$l")
		case $t in /usr/*|/lib/*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$root$t")" "$l" ;; esac
	done < <(find "$root/usr/src" "$root/usr/lib" -type l -lname '/*' -print0 2>/dev/null)
	for l in scripts tools; do
		[ -e "$kdir/$l/" ] || die "$kver: $kdir/$l does not resolve (missing linux-kbuild?)"
	done
	[ -x "$kdir/scripts/basic/fixdep" ] || [ -x "$kdir/scripts/mod/modpost" ] ||
		die "$kver: no kbuild host tools under $kdir/scripts"
}

# unpack_pvh VMLINUZ OUT: OUT.pvh, the ELF kernel inside the bzImage VMLINUZ
# when it has a PVH entry (Xen note 18, XEN_ELFNOTE_PHYS32_ENTRY), else an
# empty OUT.none; locate boots the vmlinuz without OUT.pvh (also when this
# host cannot unpack the payload: then without OUT.none, to try again next
# time). The payload's place and length are in the boot protocol's header
# (setup_sects at 0x1f1, payload_offset at 0x248, payload_length at 0x24c);
# Kbuild appends the unpacked size (4 bytes) to an xz or zstd stream, not
# to a gzip one (gzip's own trailer ends with it).
unpack_pvh() { # vmlinuz out
	local z=$1 out=$2 setup off len start magic notes trail=4 dec=()
	setup=$(od -An -tu1 -j $((0x1f1)) -N1 "$z" | tr -d ' ')
	[ "$setup" = 0 ] && setup=4
	off=$(od -An -tu4 -j $((0x248)) -N4 "$z" | tr -d ' ')
	len=$(od -An -tu4 -j $((0x24c)) -N4 "$z" | tr -d ' ')
	start=$(((setup + 1) * 512 + off))
	magic=$(od -An -tx1 -j "$start" -N4 "$z" | tr -d ' ')
	case $magic in
	fd377a58) dec=(xz -dc) ;;
	28b52ffd) dec=(zstd -dcq) ;;
	1f8b08*) dec=(gzip -dc) trail=0 ;;
	*) log "$(basename "$z"): payload $magic: no unpacker here, booting the bzImage"; return 0 ;;
	esac
	command -v "${dec[0]}" >/dev/null ||
		{ log "$(basename "$z"): no ${dec[0]} here, booting the bzImage"; return 0; }
	if ! dd if="$z" iflag=skip_bytes,count_bytes skip="$start" count=$((len - trail)) \
		status=none | "${dec[@]}" >"$out.tmp" || ! notes=$(readelf -n "$out.tmp"); then
		rm -f "$out.tmp"
		log "$(basename "$z"): unpacking its payload failed, booting the bzImage"
		return 0
	fi
	if grep -Eq '^ *Xen .*\(0x0*12\)' <<<"$notes"; then
		mv "$out.tmp" "$out.pvh"
		log "$(basename "$z"): unpacked for a PVH boot"
	else
		rm -f "$out.tmp"
		: >"$out.none"
		log "$(basename "$z"): no PVH entry: booting the bzImage"
	fi
}

locate() { # name root kver
	local name=$1 root=$2 kver=$3 kdir vmlinuz moddir d
	kdir=$root/usr/src/linux-headers-$kver
	vmlinuz=$root/boot/vmlinuz-$kver
	moddir=
	for d in "$root/lib/modules/$kver" "$root/usr/lib/modules/$kver"; do
		if [ -d "$d/kernel" ]; then moddir=$d; break; fi
	done
	[ -f "$vmlinuz" ] || die "$name: $vmlinuz missing"
	[ -f "$root/boot/vmlinux-$kver.pvh" ] && vmlinuz=$root/boot/vmlinux-$kver.pvh
	[ -n "$moddir" ] || die "$name: no modules directory for $kver under $root"
	ln -sfn "$(realpath --relative-to="$moddir" "$kdir")" "$moddir/build"
	# The package ships no modules.dep (made at install time); mkinitramfs needs it.
	if [ ! -s "$moddir/modules.dep" ]; then
		[ "$moddir" = "$root/lib/modules/$kver" ] || die "$name: depmod needs $root/lib/modules/$kver"
		depmod -b "$root" "$kver" || die "$name: depmod failed"
	fi
	log "$name: KDIR=$kdir"
	log "$name: image=$vmlinuz modules=$moddir"
	echo "$name $kver $kdir $vmlinuz $moddir"
}

# fetch_source VER SUITE: Debian's linux-source-VER of SUITE (a release
# other than this host's: trixie-backports' 7.3) through the suite's own apt,
# unpacked once into $TKH_CACHE/stock/linux-source-VER-PKGVERSION/; prints
# "TARBALL PKGVERSION" (tools/series/mkseries.sh, build-kernel.sh).
fetch_source() { # ver suite
	local ver=$1 pkg=linux-source-$1 pv dir
	apt_for "$2"
	pv=$(pkg_version "$pkg")
	[ -n "$pv" ] || die "$pkg: not in apt's lists of $2"
	dir=$TKH_CACHE/stock/$pkg-$pv
	mkdir -p "$TKH_CACHE/stock"
	exec 9>"$TKH_CACHE/stock/.lock"
	flock 9
	if [ ! -f "$dir/.done" ]; then
		log "$pkg $pv ($2): downloading"
		rm -rf "$dir"
		mkdir -p "$dir/debs" "$dir/root"
		(cd "$dir/debs" && apt-get "${APTO[@]}" download -q "$pkg=$pv" 2>&1 |
			{ grep -v -e '^W: Download is performed unsandboxed' || true; } >&2) ||
			die "$pkg: apt-get download failed"
		dpkg-deb -x "$dir"/debs/*.deb "$dir/root"
		rm -rf "$dir/debs"
		[ -f "$dir/root/usr/src/$pkg.tar.xz" ] || die "$pkg: no /usr/src/$pkg.tar.xz in the package"
		touch "$dir/.done"
	fi
	flock -u 9
	echo "$dir/root/usr/src/$pkg.tar.xz $pv"
}

if [ "${1:-}" = --source ]; then
	[ $# = 3 ] || die "usage: fetch-stock.sh --source VER SUITE (e.g. 7.3 trixie-backports)"
	fetch_source "$2" "$3"
	exit
fi
if [ "${1:-}" = --abi ]; then
	if [ $# != 2 ] || ! t_kernel "$2" || [ "$kn_kind" != debian ]; then
		die "usage: fetch-stock.sh --abi NAME (a debian kernel of tests/qemu/kernels)"
	fi
	kernel_abi "$kn_source"
	echo "$ABI"
	exit
fi
if [ $# = 0 ]; then mapfile -t names < <(t_kernels debian); set -- "${names[@]}"; fi
for k in "$@"; do
	if ! t_kernel "$k" || [ "$kn_kind" != debian ]; then
		die "'$k' is not a debian kernel of tests/qemu/kernels ($(t_kernels debian | tr '\n' ' '))"
	fi
	fetch "$k" "$kn_source"
done
