#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs (newc cpio; gzip'd when --out ends in .gz).
#
# usage: mkinitramfs.sh --out FILE [--mods DIR] [--kdir KDIR | --moddir DIR] [--peer DIR]
#        mkinitramfs.sh --out FILE --state DIR        (only /state, to append)
#
#   /init            tests/guest/init          /tests   tests/guest/
#   /bin, /sbin ...  static busybox, one symlink per applet
#   keyctl & co.     tests/qemu/initramfs.bins, with the libraries ldd lists;
#                    keyctl itself static when build-keyctl.sh can make it
#   /usr/bin/NAME    tests/guest/tools/NAME.c, static: encbench (make
#                    bench-enc), tkfault, tkfuzz, tklocal, tkstress (faults,
#                    disk/40-local, stress); compiled once, cached:
#                    t_static_tool (common.sh). Their sources stay out of /tests.
#   /mods            our modules (--mods DIR: every *.ko in it) + modules.dep
#   /ref             --kdir (test kernel build tree): all of its modules, i.e. the
#                    in-tree reference trusted.ko, encrypted-keys.ko and what they
#                    and dm-crypt/ecryptfs need, + modules.dep
#   /lib/modules/V   --moddir (stock kernel): crypto, tpm, dm-crypt, ecryptfs and
#                    the dependencies of our modules, decompressed, depmod'ed
#   /peer/ima-evm-utils  --peer DIR (build-imaevm.sh: evmctl with debug
#                    support, its libimaevm, ima-evm-utils' tests/) and bash,
#                    which those tests are written in (EVM kernels, suite evm);
#                    in its bin/ also what evm_hmac.test runs that busybox
#                    has not: util-linux's losetup (--show), e2fsprogs'
#                    mkfs.ext4 (-U), attr's setfattr (on the test's PATH only)
# The modules.dep in /mods and /ref is flat: "name.ko: dep.ko dep.ko" (direct
# dependencies by file name); tests/guest/lib/mods.sh resolves it.
# The state archive (/state) is separate so it can be appended to a built image:
# the kernel unpacks concatenated cpio archives in order.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need python3 depmod modinfo ldd gcc flock

out='' mods='' kdir='' moddir='' state='' peer=''
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--mods) mods=$2; shift 2 ;;
	--kdir) kdir=$2; shift 2 ;;
	--moddir) moddir=$2; shift 2 ;;
	--state) state=$2; shift 2 ;;
	--peer) peer=$2; shift 2 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
[ -n "$out" ] || die "--out FILE is required"

stage=$(mktemp -d "${out%/*}/.initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

if [ -n "$state" ]; then
	[ -d "$state" ] || die "no state directory $state"
	python3 "$TKH_QEMU/cpio.py" "$state" "$out" --prefix state
	exit 0
fi

# Flat modules.dep of the *.ko in DIR: direct dependencies that are present.
flat_dep() { # dir
	local dir=$1 ko d deps name
	: >"$dir/modules.dep"
	for ko in "$dir"/*.ko; do
		[ -e "$ko" ] || continue
		deps=
		for d in $(modinfo -F depends "$ko" | tr ',' ' '); do
			name=$d.ko
			[ -e "$dir/$name" ] || name=${d//_/-}.ko
			[ -e "$dir/$name" ] || name=${d//-/_}.ko
			[ -e "$dir/$name" ] || name=$d   # not here: lib/mods.sh tries $TKH_REF, then modprobe
			deps="$deps $name"
		done
		echo "$(basename "$ko"):$deps" >>"$dir/modules.dep"
	done
}

# The MODULES (paths under MODDIR, as modules.dep names them) decompressed
# into the working directory at the same paths (t_kept's maker).
unpack_modules() { # moddir module...
	local moddir=$1 m
	shift
	for m in "$@"; do
		install -D -m 0644 "$moddir/$m" "$m"
		case $m in
		*.xz) xz -d "$m" ;;
		*.gz) gzip -d "$m" ;;
		*.zst) zstd -q --rm -d "$m" ;;
		esac
	done
}

# Copy PROG and its shared libraries (at the same paths) into the stage,
# PROG into /usr/bin or DIR.
copy_prog() { # path [dir]
	local p=$1 lib
	install -D -m 0755 "$p" "$stage${2:-/usr/bin}/$(basename "$p")"
	for lib in $(ldd "$p" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$stage$lib"
	done
}

# --- base system ---------------------------------------------------------
busybox=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic executable' ||
	die "$busybox is not static (apt-get install busybox-static)"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,mnt,root}
install -m 0755 "$busybox" "$stage/bin/busybox"
# One symlink per applet at its path (one process, not some 400 ln).
"$busybox" --list-full | python3 -c '
import os, sys
stage = sys.argv[1]
for a in sys.stdin.read().split():
    p = os.path.join(stage, a)
    if os.path.basename(a) != "busybox" and not os.path.lexists(p):
        os.symlink("/bin/busybox", p)
' "$stage"
install -m 0755 "$TKH_TOP/tests/guest/init" "$stage/init"
cp -a "$TKH_TOP/tests/guest" "$stage/tests"
cp -a "$TKH_TOP/initramfs" "$stage/initramfs"	# boot-time unlock, tested as shipped
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"

while read -r name; do
	case $name in ''|'#'*) continue ;; esac
	opt=0
	[ "${name#\?}" != "$name" ] && { opt=1; name=${name#\?}; }
	p=$(PATH=$PATH:/usr/sbin:/sbin command -v "$name" || true)
	if [ -z "$p" ]; then
		[ $opt = 1 ] && continue
		die "$name not found on the host (run tests/deps.sh)"
	fi
	rm -f "$stage/usr/bin/$name" "$stage/bin/$name" "$stage/sbin/$name" "$stage/usr/sbin/$name"
	copy_prog "$p"
done <"$TKH_QEMU/initramfs.bins"
# keyctl statically linked (build-keyctl.sh: the same Debian source and
# version; a third of the dynamic one's exec time in the guest), else the
# dynamic one copied above.
if kc=$("$TKH_QEMU/build-keyctl.sh"); then
	install -m 0755 "$kc" "$stage/usr/bin/keyctl"
else
	log "no static keyctl (see above): the guest runs the dynamic one"
fi

# Guest programs of our own, static (gcc -static: libc6-dev has libc.a),
# compiled once and cached (t_static_tool).
rm -rf "$stage/tests/tools"
for p in "$TKH_TOP"/tests/guest/tools/*.c; do
	bin=$(t_static_tool "$p" -pthread) ||
		die "cannot build ${p#"$TKH_TOP"/} (gcc, libc6-dev)"
	install -m 0755 "$bin" "$stage/usr/bin/$(basename "$p" .c)"
done

# tools/trusted-policy (libcrypto) for the signed-policy tests, when it builds
# (one make at a time: machines are prepared in parallel)
mkdir -p "$TKH_TOP/build"
flock "$TKH_TOP/build/tools.lock" make -s -C "$TKH_TOP/tools" trusted-policy >/dev/null 2>&1 &&
	copy_prog "$TKH_TOP/tools/trusted-policy"

# --- the peer suite (ima-evm-utils' own tests) ----------------------------
if [ -n "$peer" ]; then
	[ -x "$peer/bin/evmctl" ] || die "no $peer/bin/evmctl (build-imaevm.sh)"
	mkdir -p "$stage/peer/ima-evm-utils"
	cp -a "$peer/bin" "$peer/lib" "$peer/tests" "$stage/peer/ima-evm-utils/"
	copy_prog "$(command -v bash)"
	for name in losetup mkfs.ext4 setfattr; do
		p=$(PATH=$PATH:/usr/sbin:/sbin command -v "$name") ||
			die "$name not found on the host (run tests/deps.sh)"
		copy_prog "$p" /peer/ima-evm-utils/bin
	done
fi

# --- our modules ---------------------------------------------------------
mkdir -p "$stage/mods"
if [ -n "$mods" ]; then
	[ -d "$mods" ] || die "no module directory $mods"
	for ko in "$mods"/*.ko; do
		[ -e "$ko" ] && cp "$ko" "$stage/mods/"
	done
fi
flat_dep "$stage/mods"

# --- test kernel: reference modules from the build tree ------------------
mkdir -p "$stage/ref"
if [ -n "$kdir" ]; then
	[ -f "$kdir/modules.order" ] || die "$kdir/modules.order missing (kernel not built?)"
	while read -r o; do
		ko=$kdir/${o%.o}
		ko=${ko%.ko}.ko
		[ -f "$ko" ] || die "$ko listed in modules.order but missing"
		cp "$ko" "$stage/ref/"
	done <"$kdir/modules.order"
	for want in trusted:TRUSTED_KEYS encrypted-keys:ENCRYPTED_KEYS; do
		# built in (the EVM kernels): no module to take
		grep -q "^CONFIG_${want#*:}=y" "$kdir/.config" && continue
		[ -f "$stage/ref/${want%%:*}.ko" ] || die "reference module ${want%%:*}.ko not built in $kdir"
	done
	flat_dep "$stage/ref"
fi

# --- stock kernel: a subset of its own modules, with modules.dep ---------
if [ -n "$moddir" ]; then
	kver=$(basename "$moddir")
	[ -s "$moddir/modules.dep" ] || die "$moddir/modules.dep missing (fetch-stock.sh makes it)"
	dst=$stage/lib/modules/$kver
	mkdir -p "$dst"
	# Seeds: crypto, tpm, dm-crypt, ecryptfs, the scratch disk (virtio, loop),
	# ext4 (make demo's file system on a dm-crypt volume) and whatever our
	# modules depend on.
	seeds=$(cd "$moddir" && find kernel/crypto kernel/arch/x86/crypto kernel/lib/crypto \
		kernel/drivers/char/tpm kernel/fs/ecryptfs kernel/drivers/virtio -name '*.ko*' 2>/dev/null;
		ls kernel/drivers/md/dm-crypt.ko* kernel/drivers/block/virtio_blk.ko* \
			kernel/drivers/block/loop.ko* kernel/fs/ext4/ext4.ko* 2>/dev/null)
	for ko in "$stage"/mods/*.ko; do
		[ -e "$ko" ] || continue
		for d in $(modinfo -F depends "$ko" | tr ',' ' '); do
			seeds="$seeds $(grep -E "/(${d//[-_]/[-_]})\.ko(\.[gx]z|\.zst)?:" "$moddir/modules.dep" | cut -d: -f1 || true)"
		done
	done
	# Close over modules.dep (its lines list the full dependency chain).
	all=$(awk -v seeds="$seeds" '
		BEGIN { n = split(seeds, a, " "); for (i = 1; i <= n; i++) want[a[i] ":"] = 1 }
		$1 in want { sub(/:$/, "", $1); for (i = 1; i <= NF; i++) print $i }' \
		"$moddir/modules.dep" | sort -u)
	# Decompressed once per kernel and module list, in $TKH_CACHE/stock-mods
	# (a hundred and more xz runs an initramfs otherwise; four a make check).
	mcache=$TKH_CACHE/stock-mods/$kver-$( (cat "$moddir/modules.dep"; echo "$all") | sha256sum | cut -c1-16)
	# shellcheck disable=SC2086 # (one word a module)
	t_kept "$mcache" unpack_modules "$moddir" $all || die "cannot unpack the modules of $kver"
	cp -a "$mcache/." "$dst/"
	rm -f "$dst/.done"
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		[ -f "$moddir/$f" ] && cp "$moddir/$f" "$dst/"
	done
	# modules.order/builtin name compressed files; depmod only needs them to exist.
	depmod -b "$stage" "$kver" || die "depmod failed for $kver"
	log "$(echo "$all" | wc -w) stock modules of $kver included"
fi

python3 "$TKH_QEMU/cpio.py" "$stage" "$out"
log "$out: $(du -h "$out" | cut -f1)"
