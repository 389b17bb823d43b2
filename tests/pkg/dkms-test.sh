#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The package test's preparation: what a Debian user does, on this machine
# (as root), for the rows of run-all.sh's tables whose modules DKMS built
# (modules column "dkms": tables pkg and pkg-full; run-all.sh runs this
# beside its pool and boots those rows with the modules left in DIR).
#
# usage: dkms-test.sh DIR KERNEL...   (names of tests/qemu/kernels: debian
#                                      kernels and the test kernel)
#        dkms-test.sh --in-root DEB TOOLSDEB DIR NAME=KVER...   (steps 2, 3,
#                                      5, 6 in a release's root, for its kernels)
#
#   1. make deb (tests/pkg/build-deb.sh: dpkg-buildpackage + lintian): the
#      DKMS package and trusted-keys-tools
#   2. apt installs the headers linux-headers-<kver> of the debian KERNELs
#      (fetch-stock.sh picks the ABI), then `apt-get install ./<dkms>.deb
#      ./<tools>.deb`: DKMS builds and installs for them (nothing is ever
#      loaded into this machine's kernel). The kernels of another Debian
#      release (trixie's: their headers need its gcc 14 and glibc) are that
#      release's user's: steps 2, 3, 5 and 6, and that release's lintian on
#      the same .debs, run in its root (tests/qemu/root.sh, where their
#      headers are installed), this script again with --in-root; its points
#      are ours, prefixed with the release (the tools installed there only
#      when the root has python3, which they depend on: its apt has no lists)
#   3. dkms status, modinfo vermagic, only trusted.ko where encrypted is
#      built in; a kernel whose headers come later (the headers' dkms hook);
#      the tools as installed: trusted-policy and tk-pcr-predict found in
#      /usr/bin by the PATH our scripts set, trusted-policy signer-public of
#      a new key, tk-pcr-predict --help; the signing hooks under /etc silent
#      no-ops with nothing configured
#   4. signing (KERNEL test): DKMS signs with the test kernel's own key (a
#      framework.conf.d drop-in); trusted-unsigned.ko beside, stripped (the
#      modsig suite boots it with module.sig_enforce=1)
#   5. the modules DKMS installed for each KERNEL copied to DIR/mods-KERNEL/
#   6. `apt-get purge`: nothing of ours is left
# Output: a KTAP document on stdout (run-all.sh: DIR/results.ktap), logs in DIR.
# Side effects that stay: the linux-headers packages, the 6.12 image's initramfs
# made with MODULES=list (see IRDROPIN) (and dkms's own MOK key
# /var/lib/dkms/mok.{key,pub}, which dkms makes on its first build).
set -uo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need apt-get dpkg-query dkms modinfo
inroot=
if [ "${1:-}" = --in-root ]; then
	[ $# -ge 5 ] || die "usage: dkms-test.sh --in-root DEB TOOLSDEB DIR NAME=KVER..."
	inroot=$2 inroot_tools=$3
	shift 3
fi
[ $# -ge 2 ] || die "usage: dkms-test.sh DIR KERNEL..."
if [ "$(id -u)" != 0 ]; then	# apt-get install and dkms need root
	command -v sudo >/dev/null || die "run as root (apt-get install, dkms)"
	exec sudo -E "$0" "$@"
fi
run=$1
shift
mkdir -p "$run"
run=$(cd "$run" && pwd)
declare -a names=() kvers=()
declare -A rel_names=()	# another release's kernels (t_release): names
sign=0
for k in "$@"; do
	if [ -n "$inroot" ]; then names+=("${k%%=*}") kvers+=("${k#*=}"); continue; fi
	t_kernel "$k" || exit 1
	case $kn_kind:$k in
	debian:*)
		r=$(t_release)
		if [ -n "$r" ]; then rel_names[$r]+=${rel_names[$r]:+ }$k; else names+=("$k"); fi ;;
	build:test) sign=1 ;;
	*) die "$k: DKMS builds for the debian kernels and the test kernel" ;;
	esac
done

PKG=trusted-encrypted-keys-dkms
TOOLSPKG=trusted-keys-tools
NAME=trusted-encrypted-keys
DROPIN=/etc/dkms/framework.conf.d/zz-tk-pkg-test.conf
# The package's update-initramfs trigger (it ships a hook) regenerates the
# initramfs of the newest kernel here, the 6.12 image the headers pulled in,
# which this machine never boots: at install and again at purge, minutes each
# with the default MODULES=most. While the test runs, this drop-in makes
# that MODULES=list: the trigger, mkinitramfs and our hook still run.
IRDROPIN=/etc/initramfs-tools/conf.d/zz-tk-pkg-test
export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -o DPkg::Lock::Timeout=600 -y -q)

# The points for D kernels of this host's release (or of the root's, with
# --in-root: the lintian point instead of make deb's), S=1 with the test
# kernel's signing; a release's root is one point more. (4: the tools and hooks)
plan() { echo $((1 + $1 + 1 + 3 * $1 + ($1 > 0) + 4 + 3 * $2 + $1 + $2 + 3)); }
d=${#names[@]}
PLAN=$(plan "$d" "$sign")
# Steps 2 to 6 change this machine's dpkg and DKMS trees: only when a
# kernel of this host's release (or the test kernel's signing) asks, or in
# a release's root (a run of another release's kernels only must not touch
# them: a package test of another checkout may be running here).
hostpart=0
if [ -n "$inroot" ] || [ "$d" -gt 0 ] || [ "$sign" = 1 ]; then hostpart=1; else PLAN=1; fi
# One package test on this machine at a time (checkouts, make check's pkg
# stage and make pkg-test): each installs, checks and purges the same
# package in this machine's dpkg and DKMS trees.
if [ -z "$inroot" ] && [ "$hostpart" = 1 ]; then
	exec 5>/run/lock/tek-dkms-test.lock
	if ! flock -n 5; then
		log "another package test runs on this machine: waiting for it"
		flock 5
	fi
fi

# A run killed inside dpkg (a session's end, a CI timeout) leaves dpkg
# "interrupted": every later apt-get refuses until it is configured again.
if [ "$hostpart" = 1 ] && { [ -n "$(dpkg --audit 2>&1)" ] ||
	[ -n "$(ls -A /var/lib/dpkg/updates 2>/dev/null)" ]; }; then
	log "dpkg was interrupted by an earlier run: dpkg --configure -a"
	dpkg --audit 2>&1 | sed 's/^/# /' >&2
	dpkg --configure -a >"$run/dpkg-configure.log" 2>&1 ||
		tail -n 20 "$run/dpkg-configure.log" | sed 's/^/# /' >&2
fi

for r in "${!rel_names[@]}"; do
	read -r -a rn <<<"${rel_names[$r]}"
	PLAN=$((PLAN + 1 + $(plan "${#rn[@]}" 0)))
done
if [ "$hostpart" = 1 ]; then
	trap 'rm -f "$IRDROPIN"' EXIT
	mkdir -p "${IRDROPIN%/*}"
	printf '%s\n' "# tests/pkg/dkms-test.sh (removed afterwards): a small initramfs for the" \
		"# kernels this machine never boots" "MODULES=list" >"$IRDROPIN"
fi

# check DESC CMD...: a point from CMD's exit status; its output on failure.
check() {
	local d=$1 o
	shift
	if o=$("$@" 2>&1); then t_ok "$d"; return 0; fi
	t_fail "$d" "$o"
	return 1
}
finish() {
	t_fail_rest "$PLAN"
	[ "$t_nfail" -eq 0 ]
	exit
}

echo "KTAP version 1"
echo "1..$PLAN"
t0=$(now)

# --- 1. the package ---------------------------------------------------------
tb=$(now)
debs=()
if [ -n "$inroot" ]; then
	# The same .debs (the DKMS package's is arch all), under this release's lintian.
	deb=$inroot tools=$inroot_tools
	lint=$(lintian --pedantic --info "$deb" "$tools" 2>&1 | grep -v 'running with root privileges is not recommended')
	if ! grep -q '^[EW]: ' <<<"$lint"; then
		t_ok "lintian $(lintian --version | sed 's/^[Ll]intian v*//'): $(basename "$deb") $(basename "$tools") clean"
	else
		t_fail "lintian $(lintian --version): $(basename "$deb") $(basename "$tools")" "$lint"
	fi
	[ -z "$lint" ] || printf '%s\n' "$lint" >"$run/lintian.txt"
elif mapfile -t debs < <("$TKH_TOP/tests/pkg/build-deb.sh" "$run/deb" 2>"$run/build-deb.log") &&
	[ "${#debs[@]}" = 2 ] && [ -f "${debs[0]}" ] && [ -f "${debs[1]}" ]; then
	deb=${debs[0]} tools=${debs[1]}
	t_ok "make deb: $(basename "$deb") $(basename "$tools"), lintian clean ($(elapsed "$tb") s)"
else
	t_fail "make deb" "$(tail -n 20 "$run/build-deb.log")"
	finish
fi
ver=$(dpkg-deb -f "$deb" Version)
ver=${ver%-*}

# Steps 2 to 6 (hostpart, above).
host_part() {
# --- 2. stock headers, then the package --------------------------------------
if [ "$d" -gt 0 ] && [ -z "$inroot" ]; then
	if ! lines=$("$TKH_QEMU/fetch-stock.sh" "${names[@]}" 2>"$run/fetch.log"); then
		t_fail "fetch-stock.sh" "$(tail -n 20 "$run/fetch.log")"
		finish
	fi
	while read -r _ kv _; do kvers+=("$kv"); done <<<"$lines"
fi
hdrs=()
for kv in "${kvers[@]}"; do hdrs+=("linux-headers-$kv"); done
# The 6.12 headers depend on their image package; this machine never boots it,
# so no initramfs for it (INITRD=No: /etc/kernel/postinst.d/initramfs-tools).
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
# shellcheck disable=SC2317  # run through check()
headers_ok() { pkg_installed "linux-headers-$1" && test -e "/lib/modules/$1/build/Makefile"; }
# (apt-get only when one is missing: it takes seconds to say there is nothing to do)
for h in "${hdrs[@]}"; do
	if ! pkg_installed "$h"; then
		INITRD=No "${APT[@]}" install --no-install-recommends "${hdrs[@]}" >"$run/apt-headers.log" 2>&1
		break
	fi
done
for kv in "${kvers[@]}"; do
	check "apt has installed linux-headers-$kv" \
		headers_ok "$kv" ||
		tail -n 20 "$run/apt-headers.log" 2>/dev/null | sed 's/^/# /'
done

# A package left by an earlier, interrupted run would turn install into a no-op.
for p in "$PKG" "$TOOLSPKG"; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q installed; then
		log "purging the $p left by an earlier run"
		"${APT[@]}" purge "$p" >"$run/apt-purge-earlier.log" 2>&1 ||
			tail -n 20 "$run/apt-purge-earlier.log" | sed 's/^/# /'
	fi
done
# Both packages, as a user installs them (the DKMS package recommends the
# tools). In another release's root only when it has python3 (the tools
# depend on it, and the root's apt has no lists to fetch it from).
inst=("$deb" "$tools") notools=''
if [ -n "$inroot" ] && ! pkg_installed python3; then
	inst=("$deb") notools="the root has no python3 (trusted-keys-tools depends on it; tests/qemu/root.sh's package list)"
fi
ti=$(now)
# DKMS compiles through ccache (t_ccache; its build directory is the same
# every time, so it finds its own earlier builds): the same make, Kbuild and
# modpost run. apt runs dpkg, and so the postinst that calls dkms, with a
# PATH of its own (DPkg::Path): ccache's compiler names go first in that one too.
apt_path=()
if [ -d /usr/lib/ccache ]; then
	dpath=$(apt-config dump --format '%v%n' DPkg::Path 2>/dev/null)
	apt_path=(-o "DPkg::Path=/usr/lib/ccache:${dpath:-/usr/sbin:/usr/bin:/sbin:/bin}")
fi
names_i=$(for f in "${inst[@]}"; do printf ' ./%s' "$(basename "$f")"; done)
if t_ccache "${APT[@]}" "${apt_path[@]}" install "${inst[@]}" >"$run/apt-install.log" 2>&1; then
	t_ok "apt-get install$names_i (DKMS: $(elapsed "$ti") s)"
else
	t_fail "apt-get install$names_i" "$(tail -n 30 "$run/apt-install.log")"
fi
dpkg-query -L "$PKG" "$TOOLSPKG" >"$run/dpkg-L.txt" 2>/dev/null

# --- 3. what DKMS made --------------------------------------------------------
# shellcheck disable=SC2317  # the helpers below run through check()
installed_ok() { # kver
	dkms status -m "$NAME" -v "$ver" -k "$1" | tee /dev/stderr | grep -q ': installed'
}
# shellcheck disable=SC2317
vermagic_ok() { # kver
	local f vm
	f=$(find /lib/modules/"$1"/updates/dkms -name 'trusted.ko*' 2>/dev/null | head -n1)
	[ -n "$f" ] || { echo "no /lib/modules/$1/updates/dkms/trusted.ko*"; return 1; }
	vm=$(modinfo -F vermagic "$f")
	echo "$f: vermagic $vm"
	[ "${vm%% *}" = "$1" ]
}
for i in "${!kvers[@]}"; do
	kv=${kvers[$i]}
	check "dkms status: $NAME/$ver installed for $kv" installed_ok "$kv"
	check "modinfo: updates/dkms/trusted.ko has vermagic $kv" vermagic_ok "$kv"
	check "$kv (encrypted built in): no encrypted-keys.ko installed" \
		sh -c "grep -q '^CONFIG_ENCRYPTED_KEYS=y' /lib/modules/$kv/build/.config &&
			! ls /lib/modules/$kv/updates/dkms/encrypted-keys.ko* 2>/dev/null"
done
# A kernel whose headers come after the package: what the headers' postinst
# runs (/etc/kernel/header_postinst.d/dkms) builds and installs (AUTOINSTALL).
# The module is uninstalled, its build kept, so the hook installs without
# building again (the apt-get install above has built for that kernel).
# The first kernel (6.1): its image is not installed here, so the depmod of
# each uninstall and install is instant; the 6.12 image's 4000 xz'd modules
# take a depmod 7 s of a core.
if [ "$d" -gt 0 ]; then
	late=${kvers[0]}
	if dkms uninstall -m "$NAME" -v "$ver" -k "$late" >"$run/late.log" 2>&1 &&
		! installed_ok "$late" 2>/dev/null &&
		/etc/kernel/header_postinst.d/dkms "$late" >>"$run/late.log" 2>&1; then
		check "AUTOINSTALL: the headers' dkms hook installs for $late" installed_ok "$late"
	else
		t_fail "AUTOINSTALL: the headers' dkms hook installs for $late" "$(tail -n 20 "$run/late.log")"
	fi
fi

# The tools, as trusted-keys-sign and trusted-keys-luks find them: by name,
# with the PATH they set (no /usr/local).
# shellcheck disable=SC2317  # the helpers below run through check()
tool_path() { # name
	local p
	# shellcheck disable=SC2016  # the inner shell's
	p=$(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c 'command -v "$1"' sh "$1") || { echo "no $1"; return 1; }
	echo "$1: $p"
	[ "$p" = "/usr/bin/$1" ] && "$p" --help >"$run/help-$1.txt" && test -s "$run/help-$1.txt"
}
# shellcheck disable=SC2317
signer_public() { # a new P-256 key's TPM2B_PUBLIC: size, ECC, sha256
	local k=$run/tools-signer.pem o=$run/tools-signer.pub h
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$k" 2>&1 || return 1
	/usr/bin/trusted-policy signer-public --signer "$k" -o "$o" || return 1
	h=$(od -An -v -tx1 "$o" | tr -d ' \n')
	echo "signer-public: $h"
	# TPM2B_PUBLIC: size (2 bytes) = the file's rest; type TPM_ALG_ECC, nameAlg SHA-256
	[ $((0x${h:0:4})) = $(($(stat -c %s "$o") - 2)) ] && [ "${h:4:8}" = 0023000b ]
}
# shellcheck disable=SC2317
hooks_silent() { # each hook of the package under /etc, run as its caller would
	local h out rc=0
	[ ! -e /etc/trusted-keys/signing ] || { echo "this machine has /etc/trusted-keys/signing"; return 1; }
	for h in /etc/kernel/postinst.d/zzz-trusted-keys /etc/kernel/postrm.d/zzz-trusted-keys \
		/etc/initramfs/post-update.d/trusted-keys /etc/grub.d/99_trusted-keys; do
		[ -x "$h" ] || { echo "no executable $h"; rc=1; continue; }
		out=$("$h" 6.1.0-0-amd64 /boot/vmlinuz-6.1.0-0-amd64 2>&1) || { echo "$h: exit $?"; rc=1; }
		[ -z "$out" ] || { echo "$h said: $out"; rc=1; }
	done
	h=$(apt-config dump --format '%v%n' DPkg::Post-Invoke | grep trusted-keys-sign)
	[ -n "$h" ] || { echo "no DPkg::Post-Invoke of ours"; return 1; }
	out=$(sh -c "$h" 2>&1) || { echo "DPkg::Post-Invoke: exit $?"; rc=1; }
	[ -z "$out" ] || { echo "DPkg::Post-Invoke said: $out"; rc=1; }
	return "$rc"
}
if [ -n "$notools" ]; then
	for d in "trusted-policy" "trusted-policy signer-public" "tk-pcr-predict"; do
		t_ok "$d from $TOOLSPKG # SKIP $notools"
	done
else
	check "$TOOLSPKG: trusted-policy --help, found as /usr/bin/trusted-policy by our scripts' PATH" \
		tool_path trusted-policy
	if command -v openssl >/dev/null; then
		check "$TOOLSPKG: trusted-policy signer-public of a new P-256 key: a TPM2B_PUBLIC (ECC, SHA-256)" \
			signer_public
	else
		t_ok "$TOOLSPKG: trusted-policy signer-public # SKIP no openssl here to make a key"
	fi
	check "$TOOLSPKG: tk-pcr-predict --help (python3), found as /usr/bin/tk-pcr-predict by our scripts' PATH" \
		tool_path tk-pcr-predict
fi
if [ -e /etc/trusted-keys/signing ]; then
	t_ok "the signing hooks: silent with nothing configured # SKIP this machine has /etc/trusted-keys/signing"
else
	check "the signing hooks (kernel postinst.d, postrm.d, initramfs post-update.d, grub.d, apt's Post-Invoke): silent, exit 0, with nothing configured" \
		hooks_silent
fi

# --- 4. signing with the test kernel's key -------------------------------------
rel='' made_moddir=0
# shellcheck disable=SC2317  # invoked by the trap
sign_cleanup() {
	rm -f "$DROPIN"
	if [ -n "$rel" ]; then
		dkms remove -m "$NAME" -v "$ver" -k "$rel" >/dev/null 2>&1
		[ "$made_moddir" = 0 ] || rm -rf "/lib/modules/$rel"
	fi
}
trap 'sign_cleanup; rm -f "$IRDROPIN"' EXIT
# copy_mods KVER DEST: the modules DKMS installed for KVER, uncompressed.
copy_mods() {
	local f
	rm -rf "$2"
	mkdir -p "$2"
	for f in /lib/modules/"$1"/updates/dkms/*.ko*; do
		[ -e "$f" ] || continue
		cp "$f" "$2/"
		case $f in
		*.xz) xz -d "$2/${f##*/}" ;;
		*.zst) zstd -q --rm -d "$2/${f##*/}" ;;
		*.gz) gzip -d "$2/${f##*/}" ;;
		esac
	done
	compgen -G "$2/*.ko" >/dev/null && (cd "$2" && echo *.ko)
}
sign_test() {
	local kdir f signer want m=$run/mods-test
	if ! kdir=$("$TKH_QEMU/build-kernel.sh" 2>"$run/build-kernel.log"); then
		t_fail "signing: the test kernel" "$(tail -n 20 "$run/build-kernel.log")"
		return
	fi
	rel=$(cat "$kdir/include/config/kernel.release")
	if [ ! -e "/lib/modules/$rel" ]; then
		made_moddir=1
		mkdir -p "/lib/modules/$rel"
		ln -s "$kdir" "/lib/modules/$rel/build"
	fi
	mkdir -p "${DROPIN%/*}"
	cat >"$DROPIN" <<-EOF
	# tests/pkg/dkms-test.sh: sign with the test kernel's own key (removed afterwards)
	sign_file=$kdir/scripts/sign-file
	mok_signing_key=$kdir/certs/signing_key.pem
	mok_certificate=$kdir/certs/signing_key.x509
	EOF
	if ! t_ccache dkms install -m "$NAME" -v "$ver" -k "$rel" >"$run/sign-dkms.log" 2>&1; then
		t_fail "signing: dkms install -k $rel" "$(tail -n 30 "$run/sign-dkms.log")"
		return
	fi
	t_ok "signing: dkms install -k $rel ($(grep -c '^Signing module' "$run/sign-dkms.log") modules signed)"
	rm -rf "$m"
	mkdir -p "$m"
	f=$(find "/lib/modules/$rel/updates/dkms" -name 'trusted.ko*' | head -n1)
	cp "$f" "$m/"
	case $f in *.xz) xz -d "$m/${f##*/}" ;; *.zst) zstd -q --rm -d "$m/${f##*/}" ;; esac
	signer=$(modinfo -F signer "$m/trusted.ko")
	want=$(openssl x509 -inform DER -in "$kdir/certs/signing_key.x509" -noout -subject -nameopt multiline |
		sed -n 's/^ *commonName *= *//p')
	check "signing: trusted.ko signed by the test kernel's key ($signer)" \
		test -n "$signer" -a "$signer" = "$want"
	cp "$m/trusted.ko" "$m/trusted-unsigned.ko"
	strip -g "$m/trusted-unsigned.ko"
	check "signing: strip -g removes the signature" \
		sh -c "! tail -c 28 '$m/trusted-unsigned.ko' | grep -q 'Module signature appended'"
}
[ "$sign" = 0 ] || sign_test

# --- 5. the modules the rows boot ------------------------------------------------
for i in "${!names[@]}"; do
	if m=$(copy_mods "${kvers[$i]}" "$run/mods-${names[$i]}"); then
		t_ok "${names[$i]}: the modules DKMS installed for ${kvers[$i]}: $m"
	else
		t_fail "${names[$i]}: no modules in /lib/modules/${kvers[$i]}/updates/dkms"
	fi
done
if [ "$sign" = 1 ]; then
	check "test: the signed trusted.ko and its stripped copy" test -f "$run/mods-test/trusted-unsigned.ko"
fi

# --- 6. apt purge leaves nothing of ours ----------------------------------------
sign_cleanup
rel=''
# (apt does not know a package that was never installed: the tools in a root without python3)
purge=("$PKG")
[ -n "$notools" ] || purge+=("$TOOLSPKG")
if "${APT[@]}" purge "${purge[@]}" >"$run/apt-purge.log" 2>&1; then
	t_ok "apt-get purge ${purge[*]}"
else
	t_fail "apt-get purge ${purge[*]}" "$(tail -n 30 "$run/apt-purge.log")"
fi
rm -f "$IRDROPIN"
leftovers() {
	local p
	ls -d /usr/src/"$NAME"-* /var/lib/dkms/"$NAME" "$DROPIN" "$IRDROPIN" \
		/lib/modules/*/updates/dkms/trusted.ko* /lib/modules/*/updates/dkms/encrypted-keys.ko* 2>/dev/null
	# Files (not the shared directories such as /usr/src) the package had.
	while read -r p; do
		[ -e "$p" ] && [ ! -d "$p" ] && echo "$p"
	done <"$run/dpkg-L.txt"
	for p in "$PKG" "$TOOLSPKG"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -v '^unknown ok not-installed$' |
			sed "s/^/dpkg status of $p: /"
	done
	dkms status -m "$NAME" 2>/dev/null | sed 's/^/dkms status: /'
}
left=$(leftovers | sort -u)
printf '%s\n' "$left" >"$run/leftovers.txt"
if [ -z "$left" ]; then
	t_ok "nothing of ours is left after purge (leftover list empty)"
else
	t_fail "nothing of ours is left after purge" "$left"
fi
# Without a package status the list above could be empty for the wrong reason.
check "dpkg -L had the package's files before the purge" grep -q "^/usr/src/$NAME-$ver/dkms.conf\$" "$run/dpkg-L.txt"

}
[ "$hostpart" = 0 ] || host_part

# --- 7. the kernels of another release, in its root ----------------------------
# (after this host's purge: the root's steps are its own). The root's
# points follow as ours, "RELEASE: ...", and so do its modules.
in_release() { # release name...
	local rel=$1 root line kv args=() n out=$run/$1 tr st desc
	shift
	tr=$(now)
	if ! root=$("$TKH_QEMU/root.sh" "$rel" 2>"$run/root-$rel.log"); then
		t_fail "$rel: its root (tests/qemu/root.sh)" "$(tail -n 20 "$run/root-$rel.log")"
		return
	fi
	if ! line=$("$TKH_QEMU/fetch-stock.sh" "$@" 2>>"$run/fetch.log"); then
		t_fail "$rel: fetch-stock.sh $*" "$(tail -n 20 "$run/fetch.log")"
		return
	fi
	while read -r n kv _; do args+=("$n=$kv"); done <<<"$line"
	t_ok "$rel: its root, $root ($(elapsed "$tr") s)"
	mkdir -p "$out"
	# One run in the root at a time (checkouts share the cache).
	exec 6>"$root.lock"
	flock 6
	TKH_RUN=$run t_in_root "$root" DEBIAN_FRONTEND=noninteractive TKH_CCACHE_DIR="$TKH_CACHE/ccache-$rel" \
		bash "$TKH_TOP/tests/pkg/dkms-test.sh" --in-root "$deb" "$tools" "$out" "${args[@]}" \
		>"$out/results.ktap" 2>"$out/log" || true
	exec 6>&-
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			st=${line%% [0-9]*} desc=${line#"$st" }
			desc=${desc#* }
			if [ "$st" = ok ]; then t_ok "$rel: $desc"; else t_fail "$rel: $desc"; fi ;;
		"# "*) echo "$line" ;;
		esac
	done <"$out/results.ktap"
	for n in "$out"/mods-*; do
		[ -d "$n" ] || continue
		rm -rf "${run:?}/${n##*/}"
		mv "$n" "$run/"
	done
}
for r in "${!rel_names[@]}"; do
	# shellcheck disable=SC2086  # the names
	in_release "$r" ${rel_names[$r]}
done

echo "# package test's preparation: $(elapsed "$t0") s, logs in $run"
finish
