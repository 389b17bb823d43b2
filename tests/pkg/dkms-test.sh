#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The package test: what a Debian user does, on this machine (as root).
#
#   1. make deb (tests/pkg/build-deb.sh: dpkg-buildpackage + lintian)
#   2. apt installs the stock headers linux-headers-<kver> of the kernels that
#      tests/qemu/fetch-stock.sh picks (newest 6.1.0-*-amd64 and
#      6.12.*+deb12-amd64), then `apt-get install ./<pkg>.deb`: DKMS builds
#      and installs for both (nothing is ever loaded into this machine's kernel)
#   3. dkms status, modinfo vermagic, only trusted.ko where encrypted is
#      built in; a kernel whose headers come later (the headers' dkms hook)
#   4. those stock kernels boot in QEMU with exactly the modules DKMS installed:
#      suite trusted-tpm1 with a TPM 1.2, suite trusted-tpm2 with a TPM 2.0 (phase 1)
#   5. signing: DKMS signs with the test kernel's own key (a framework.conf.d
#      drop-in), the test kernel boots with module.sig_enforce=1 (suite modsig)
#   6. `apt-get purge` (once the boots have started): nothing of ours is left
# Output: KTAP-like lines, then "N passed, N failed, N skipped" (host points
# plus the tests of the guest boots).
#
# Environment: TKH_PKG_BOOTS=all|cross|0 (see part 4; 0 = packaging only),
# TKH_PKG_LATE=build|install (part 3's late kernel; make check: install),
# TKH_PKG_SIGN=0 skips the signing part, TKH_RUN as in run-all.sh,
# TKH_PKG_WAIT, TKH_PKG_SLOTS and TKH_PKG_READY (make check: part 4 boots in
# the guest stage's slots, see run-all.sh).
# Side effects that stay: the linux-headers packages, the 6.12 image's initramfs
# made with MODULES=list (see IRDROPIN) (and dkms's own MOK key
# /var/lib/dkms/mok.{key,pub}, which dkms makes on its first build).
set -uo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need apt-get dpkg-query dkms modinfo python3 rsync
if [ "$(id -u)" != 0 ]; then	# apt-get install and dkms need root
	command -v sudo >/dev/null || die "run as root (apt-get install, dkms)"
	exec sudo -E "$0" "$@"
fi

PKG=trusted-encrypted-keys-dkms
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

run=$(t_rundir)/pkg
mkdir -p "$run"
export TKH_NESTED=1

# A run killed inside dpkg (a session's end, a CI timeout) leaves dpkg
# "interrupted": every later apt-get refuses until it is configured again.
if [ -n "$(dpkg --audit 2>&1)" ] || [ -n "$(ls -A /var/lib/dpkg/updates 2>/dev/null)" ]; then
	log "dpkg was interrupted by an earlier run: dpkg --configure -a"
	dpkg --audit 2>&1 | sed 's/^/# /' >&2
	dpkg --configure -a >"$run/dpkg-configure.log" 2>&1 ||
		tail -n 20 "$run/dpkg-configure.log" | sed 's/^/# /' >&2
fi
PLAN=22
trap 'rm -f "$IRDROPIN"' EXIT
mkdir -p "${IRDROPIN%/*}"
printf '%s\n' "# tests/pkg/dkms-test.sh (removed afterwards): a small initramfs for the" \
	"# kernels this machine never boots" "MODULES=list" >"$IRDROPIN"
n=0 pass=0 failn=0 skipn=0

ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $1"; }
not_ok() { # desc [diagnostics]
	n=$((n + 1)); failn=$((failn + 1))
	[ $# -lt 2 ] || [ -z "$2" ] || printf '%s\n' "$2" | sed 's/^/# /'
	echo "not ok $n $1"
}
skip() { n=$((n + 1)); skipn=$((skipn + 1)); echo "ok $n $1 # SKIP $2"; }
# check DESC CMD...: a point from CMD's exit status; its output on failure.
check() {
	local d=$1 o
	shift
	if o=$("$@" 2>&1); then ok "$d"; return 0; fi
	not_ok "$d" "$o"
	return 1
}
# guest_counts DIR: add a boot's in-guest counts to the totals.
guest_counts() {
	local p f s
	[ -f "$1/counts" ] || return 0
	read -r p f s <"$1/counts"
	pass=$((pass + p)) failn=$((failn + f)) skipn=$((skipn + s))
}
finish() {
	while [ "$n" -lt "$PLAN" ]; do not_ok "test $((n + 1)) did not run"; done
	echo "$pass passed, $failn failed, $skipn skipped"
	# check.sh sums the run's counts files: this one stands for the package
	# test and its boots (whose own counts files are below $run/*/).
	echo "$pass $failn $skipn" >"$run/counts"
	[ "$failn" -eq 0 ]
	exit
}

echo "KTAP version 1"
echo "1..$PLAN"
t0=$(now)

# --- 1. the package ---------------------------------------------------------
tb=$(now)
if deb=$("$TKH_TOP/tests/pkg/build-deb.sh" "$run/deb" 2>"$run/build-deb.log" | tail -n1) && [ -f "$deb" ]; then
	ok "make deb: $(basename "$deb"), lintian clean ($(elapsed "$tb") s)"
else
	not_ok "make deb" "$(tail -n 20 "$run/build-deb.log")"
	finish
fi
ver=$(dpkg-deb -f "$deb" Version)
ver=${ver%-*}

# --- 2. stock headers, then the package --------------------------------------
declare -a names=() kvers=() vmlinuzs=() moddirs=()
if ! lines=$("$TKH_QEMU/fetch-stock.sh" stock61 stock612 2>"$run/fetch.log"); then
	not_ok "fetch-stock.sh" "$(tail -n 20 "$run/fetch.log")"
	finish
fi
while read -r nm kv _ vz md; do
	names+=("$nm") kvers+=("$kv") vmlinuzs+=("$vz") moddirs+=("$md")
done <<<"$lines"
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
if dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q installed; then
	log "purging the $PKG left by an earlier run"
	"${APT[@]}" purge "$PKG" >"$run/apt-purge-earlier.log" 2>&1 ||
		tail -n 20 "$run/apt-purge-earlier.log" | sed 's/^/# /'
fi
ti=$(now)
# DKMS compiles through ccache (t_ccache; its build directory is the same
# every time): the same make, Kbuild and modpost run. apt runs dpkg, and so
# the postinst that calls dkms, with a PATH of its own (DPkg::Path): ccache's
# compiler names go first in that one too.
apt_path=()
if [ "${TKH_CCACHE:-1}" = 1 ] && [ -d /usr/lib/ccache ]; then
	dpath=$(apt-config dump --format '%v%n' DPkg::Path 2>/dev/null)
	apt_path=(-o "DPkg::Path=/usr/lib/ccache:${dpath:-/usr/sbin:/usr/bin:/sbin:/bin}")
fi
if t_ccache "${APT[@]}" "${apt_path[@]}" install "$deb" >"$run/apt-install.log" 2>&1; then
	ok "apt-get install ./$(basename "$deb") (DKMS: $(elapsed "$ti") s)"
else
	not_ok "apt-get install ./$(basename "$deb")" "$(tail -n 30 "$run/apt-install.log")"
fi
dpkg-query -L "$PKG" >"$run/dpkg-L.txt" 2>/dev/null

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
# TKH_PKG_LATE=install (make check): the module is uninstalled, its build
# kept, so the hook installs without building again (the apt-get install
# above has built for that kernel); default build: removed, built again.
# The first kernel (6.1): its image is not installed here, so the depmod of
# each uninstall and install is instant; the 6.12 image's 4000 xz'd modules
# take a depmod 7 s of a core.
late=${kvers[0]}
late_undo=remove
[ "${TKH_PKG_LATE:-build}" = install ] && late_undo=uninstall
if dkms "$late_undo" -m "$NAME" -v "$ver" -k "$late" >"$run/late.log" 2>&1 &&
	! installed_ok "$late" 2>/dev/null &&
	/etc/kernel/header_postinst.d/dkms "$late" >>"$run/late.log" 2>&1; then
	check "AUTOINSTALL: the headers' dkms hook installs for $late" installed_ok "$late"
else
	not_ok "AUTOINSTALL: the headers' dkms hook installs for $late" "$(tail -n 20 "$run/late.log")"
fi

# --- 4. the stock kernels boot with exactly those modules ----------------------
# The boots run in the background, at most TKH_JOBS (default: nproc) at a
# time, while the script goes on; their points are reported in order
# (boot_report). Each writes "EXIT SECONDS" to DIR/SUITE.rc when done.
boot_jobs=${TKH_JOBS:-$(nproc)}
declare -A bfail=()
# pkg_slots: how many boots may run now. With TKH_PKG_WAIT=FILE (make check)
# and before FILE exists (the guest stage runs on), the slots its pool has
# left free, once it has no machine left to start: the number in
# TKH_PKG_SLOTS=FILE (run-all.sh writes it), 0 without it.
pkg_slots() {
	if [ -n "${TKH_PKG_WAIT:-}" ] && [ ! -e "$TKH_PKG_WAIT" ]; then
		cat "${TKH_PKG_SLOTS:-/nonexistent}" 2>/dev/null || echo 0
	else
		echo "$boot_jobs"
	fi
}
# boot_bg KEY RCFILE LOG boot.sh-args...: one boot in the background.
boot_bg() {
	local key=$1 rcf=$2 blog=$3
	shift 3
	while [ "$(jobs -rp | wc -l)" -ge "$(pkg_slots)" ]; do sleep 1; done
	rm -f "$rcf"
	(
		bt0=$(now) rc=0
		TKH_BOOT_NAME=$key t_boot_tries "$@" >"$blog" 2>&1 || rc=$?
		echo "$rc $(elapsed "$bt0")" >"$rcf"
	) &
}
# boot_wait RCFILE: wait for the boot that writes RCFILE; sets brc, btook.
boot_wait() {
	while [ ! -s "$1" ] && [ -n "$(jobs -rp)" ]; do wait -n || true; done
	read -r brc btook <"$1" 2>/dev/null || { brc=2 btook=-; }
}
# boot_start prep|boot NAME KVER VMLINUZ MODDIR TPM SUITE: prep makes the
# initramfs (with the modules DKMS installed) and the TPM; boot boots.
boot_start() {
	local mode=$1 name=$2 kv=$3 vz=$4 md=$5 tpm=$6 suite=$7 dir=$run/$2 f
	[ -z "${bfail[$name-$suite]:-}" ] || return 0
	if [ "$mode" = boot ]; then
		mkdir -p "$dir/state$tpm"
		boot_bg "$name-$suite" "$dir/$suite.rc" "$dir/$suite.log" "$vz" "$dir/initrd.cpio" \
			"$dir/tpm$tpm" "$tpm" "tk.phase=1 tk.kernel=$name tk.suites=$suite" "$dir/$suite" "$dir/state$tpm"
		return 0
	fi
	mkdir -p "$dir/mods"
	if [ ! -f "$dir/initrd.cpio" ]; then
		rm -f "$dir"/mods/*
		for f in /lib/modules/"$kv"/updates/dkms/*.ko*; do
			[ -e "$f" ] || continue
			cp "$f" "$dir/mods/"
			case $f in
			*.xz) xz -d "$dir/mods/${f##*/}" ;;
			*.zst) zstd -q --rm -d "$dir/mods/${f##*/}" ;;
			*.gz) gzip -d "$dir/mods/${f##*/}" ;;
			esac
		done
		"$TKH_QEMU/mkinitramfs.sh" --out "$dir/initrd.cpio" --mods "$dir/mods" \
			--moddir "$md" >"$dir/mkinitramfs.log" 2>&1 ||
			{ bfail[$name-$suite]="initramfs: $(tail -n 20 "$dir/mkinitramfs.log")"; return; }
	fi
	"$TKH_QEMU/provision.sh" "$tpm" "$dir/tpm$tpm" >"$dir/provision$tpm.log" 2>&1 ||
		{ bfail[$name-$suite]="provision TPM $tpm: $(tail -n 20 "$dir/provision$tpm.log")"; return; }
}
boot_report() { # name kver tpm suite
	local name=$1 kv=$2 tpm=$3 suite=$4 dir=$run/$1 c
	if [ -n "${bfail[$name-$suite]:-}" ]; then
		not_ok "$name: suite $suite, TPM $tpm: ${bfail[$name-$suite]%%:*}" "${bfail[$name-$suite]#*: }"
		return
	fi
	boot_wait "$dir/$suite.rc"
	c=$(cat "$dir/$suite/counts" 2>/dev/null || echo "no counts")
	guest_counts "$dir/$suite"
	if [ "$brc" = 0 ] && [ -f "$dir/$suite/counts" ]; then
		t_time_set "pkg-$name $suite" "$btook"
		ok "$name ($kv, DKMS modules: $(cd "$dir/mods" && echo *.ko)) suite $suite, TPM $tpm: $c (passed failed skipped), $btook s"
	else
		not_ok "$name ($kv) suite $suite, TPM $tpm: boot.sh exit $brc, $c" \
			"$(grep -E '^not ok|^FAIL' "$dir/$suite/results.ktap" "$dir/$suite.log" 2>/dev/null | head -n 20)"
	fi
}
# TKH_PKG_BOOTS=all (default, make pkg-test): both suites on both kernels;
# cross (make check): trusted-tpm1/TPM 1.2 on the first kernel, trusted-tpm2/TPM 2.0 on
# the second (both kernels, both TPMs; the guest stage runs the rest with the
# same sources); 0: none.
boots=${TKH_PKG_BOOTS:-all}
want_boot() { # i tpm:suite
	case $boots:$1:$2 in
	0:*|cross:0:2.0:*|cross:1:1.2:*) return 1 ;;
	esac
}
# boots_start prep|boot: boot_start for each boot part 4 wants.
# The longest first (TPM 2.0's suite, the newer kernel): the last boot to
# start is the shortest, and the run's tail with it. prep: boots_secs, the
# last runs' seconds of the boots prepared.
boots_secs=0
boots_start() {
	local i st t
	for ((i = ${#kvers[@]} - 1; i >= 0; i--)); do
		for st in 2.0:trusted-tpm2 1.2:trusted-tpm1; do
			want_boot "$i" "$st" || continue
			boot_start "$1" "${names[$i]}" "${kvers[$i]}" "${vmlinuzs[$i]}" "${moddirs[$i]}" "${st%%:*}" "${st#*:}"
			[ "$1" = prep ] || continue
			[ -z "${bfail[${names[$i]}-${st#*:}]:-}" ] || continue
			t=$(t_time_get "pkg-${names[$i]} ${st#*:}")
			boots_secs=$((boots_secs + ${t:-60}))
		done
	done
}

# --- 5. signing, checked by the test kernel -----------------------------------
rel='' made_moddir=0 sign_boot=0
# shellcheck disable=SC2317  # invoked by the trap
sign_cleanup() {
	rm -f "$DROPIN"
	if [ -n "$rel" ]; then
		dkms remove -m "$NAME" -v "$ver" -k "$rel" >/dev/null 2>&1
		[ "$made_moddir" = 0 ] || rm -rf "/lib/modules/$rel"
	fi
}
trap 'sign_cleanup; rm -f "$IRDROPIN" ${TKH_PKG_READY:+"$TKH_PKG_READY"}' EXIT
# sign_test runs before the boots; its points are kept (s_ok, s_not_ok,
# s_check) and printed by sign_points after the boots', in KTAP order.
sres=()
US=$'\x1f'
s_ok() { sres+=("ok$US$1$US"); }
s_not_ok() { sres+=("not_ok$US$1$US${2:-}"); }
s_check() {
	local d=$1 o
	shift
	if o=$("$@" 2>&1); then s_ok "$d"; else s_not_ok "$d" "$o"; fi
}
sign_points() {
	local r kind rest
	for r in "${sres[@]}"; do
		kind=${r%%"$US"*} rest=${r#*"$US"}
		if [ "$kind" = ok ]; then
			ok "${rest%%"$US"*}"
		else
			not_ok "${rest%%"$US"*}" "${rest#*"$US"}"
		fi
	done
}
sign_test() {
	local kdir d=$run/modsig f signer want
	if ! kdir=$("$TKH_QEMU/build-kernel.sh" 2>"$run/build-kernel.log"); then
		s_not_ok "signing: the test kernel" "$(tail -n 20 "$run/build-kernel.log")"
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
		s_not_ok "signing: dkms install -k $rel" "$(tail -n 30 "$run/sign-dkms.log")"
		return
	fi
	s_ok "signing: dkms install -k $rel ($(grep -c '^Signing module' "$run/sign-dkms.log") modules signed)"
	rm -rf "$d"
	mkdir -p "$d/mods"
	f=$(find "/lib/modules/$rel/updates/dkms" -name 'trusted.ko*' | head -n1)
	cp "$f" "$d/mods/"
	case $f in *.xz) xz -d "$d/mods/${f##*/}" ;; *.zst) zstd -q --rm -d "$d/mods/${f##*/}" ;; esac
	signer=$(modinfo -F signer "$d/mods/trusted.ko")
	want=$(openssl x509 -inform DER -in "$kdir/certs/signing_key.x509" -noout -subject -nameopt multiline |
		sed -n 's/^ *commonName *= *//p')
	s_check "signing: trusted.ko signed by the test kernel's key ($signer)" \
		test -n "$signer" -a "$signer" = "$want"
	cp "$d/mods/trusted.ko" "$d/mods/trusted-unsigned.ko"
	strip -g "$d/mods/trusted-unsigned.ko"
	s_check "signing: strip -g removes the signature" \
		sh -c "! tail -c 28 '$d/mods/trusted-unsigned.ko' | grep -q 'Module signature appended'"
	"$TKH_QEMU/mkinitramfs.sh" --out "$d/initrd.cpio" --mods "$d/mods" >"$d/mkinitramfs.log" 2>&1 ||
		{ s_not_ok "signing: initramfs" "$(tail -n 20 "$d/mkinitramfs.log")"; return; }
	"$TKH_QEMU/provision.sh" 1.2 "$d/tpm" >"$d/provision.log" 2>&1 ||
		{ s_not_ok "signing: provision TPM 1.2" "$(tail -n 20 "$d/provision.log")"; return; }
	sign_image=$kdir/arch/x86/boot/bzImage
}
# sign_boot_start: the test kernel boots with module.sig_enforce=1 (after the
# stock boots, the shortest of them all); sign_report reports it.
sign_image=
sign_boot_start() {
	local d=$run/modsig
	[ -n "$sign_image" ] || return 0
	boot_bg test-modsig "$d/boot.rc" "$d/boot.log" "$sign_image" "$d/initrd.cpio" \
		"$d/tpm" 1.2 "module.sig_enforce=1 tk.phase=1 tk.kernel=test tk.suites=modsig" "$d/boot"
	sign_boot=1
}
sign_report() {
	local d=$run/modsig c
	[ "$sign_boot" = 1 ] || return 0
	boot_wait "$d/boot.rc"
	c=$(cat "$d/boot/counts" 2>/dev/null || echo "no counts")
	guest_counts "$d/boot"
	if [ "$brc" = 0 ] && [ -f "$d/boot/counts" ]; then
		t_time_set "pkg-test modsig" "$btook"
		ok "signing: test kernel, module.sig_enforce=1, suite modsig: $c (passed failed skipped), $btook s"
	else
		not_ok "signing: test kernel, module.sig_enforce=1, suite modsig: boot.sh exit $brc, $c" \
			"$(grep -E '^not ok|^FAIL' "$d/boot/results.ktap" "$d/boot.log" 2>/dev/null | head -n 20)"
	fi
}
boots_start prep

# For the guest pool (TKH_PKG_READY, make check): the seconds of the boots
# (their last runs', t_time_get; unknown: 60 s, the signing boot 15),
# written once part 4's are ready, the file removed when they are done.
if [ -n "${TKH_PKG_READY:-}" ]; then
	if [ "${TKH_PKG_SIGN:-1}" != 0 ]; then
		t=$(t_time_get "pkg-test modsig")
		boots_secs=$((boots_secs + ${t:-15}))
	fi
	[ "$boots_secs" = 0 ] || echo "$boots_secs" >"$TKH_PKG_READY"
fi
# The signing build (DKMS for the test kernel; with a fresh cache some 25
# KASAN compiles at nice 19, minutes beside the guest stage) once the pool
# knows of the boots: a slot it keeps for them meanwhile runs this build.
[ "${TKH_PKG_SIGN:-1}" = 0 ] || sign_test

# TKH_PKG_WAIT=FILE (make check): the steps above ran beside the guest stage,
# at the lowest priority (nice 19: they take what its boots leave idle); the
# boots run at normal priority, each in a slot the guest stage's pool has
# left free (pkg_slots), all of them once FILE (the guest stage's end) exists.
if [ -n "${TKH_PKG_WAIT:-}" ]; then
	tw=$(now)
	while [ "$(pkg_slots)" -lt 1 ]; do sleep 1; done
	renice -n 0 -p $$ >/dev/null
	log "waited $(elapsed "$tw") s for a free slot of the guest stage ($(
		[ -e "$TKH_PKG_WAIT" ] && echo "it had ended" || echo "$(pkg_slots) free"))"
fi
boots_start boot
sign_boot_start

# --- 6. apt purge leaves nothing of ours ----------------------------------------
# (while the boots run: each has its copy of the modules in its initramfs;
# the last boot started, so the purge is not the run's tail)
sign_cleanup
rel=''
purge_rc=0
"${APT[@]}" purge "$PKG" >"$run/apt-purge.log" 2>&1 || purge_rc=$?
rm -f "$IRDROPIN"

# Part 4's points, then the signing's, then the purge's.
for i in "${!kvers[@]}"; do
	for st in 1.2:trusted-tpm1 2.0:trusted-tpm2; do
		if ! want_boot "$i" "$st"; then
			skip "${names[$i]}: suite ${st#*:}, TPM ${st%%:*}" "TKH_PKG_BOOTS=$boots (make pkg-test runs it)"
			continue
		fi
		boot_report "${names[$i]}" "${kvers[$i]}" "${st%%:*}" "${st#*:}"
	done
done
if [ "${TKH_PKG_SIGN:-1}" = 0 ]; then
	for w in "dkms install" "signer" "strip" "boot"; do skip "signing: $w" "TKH_PKG_SIGN=0"; done
else
	sign_points
fi
sign_report
[ -z "${TKH_PKG_READY:-}" ] || rm -f "$TKH_PKG_READY"
if [ "$purge_rc" = 0 ]; then
	ok "apt-get purge $PKG"
else
	not_ok "apt-get purge $PKG" "$(tail -n 30 "$run/apt-purge.log")"
fi
leftovers() {
	local p
	ls -d /usr/src/"$NAME"-* /var/lib/dkms/"$NAME" "$DROPIN" "$IRDROPIN" \
		/lib/modules/*/updates/dkms/trusted.ko* /lib/modules/*/updates/dkms/encrypted-keys.ko* 2>/dev/null
	# Files (not the shared directories such as /usr/src) the package had.
	while read -r p; do
		[ -e "$p" ] && [ ! -d "$p" ] && echo "$p"
	done <"$run/dpkg-L.txt"
	dpkg-query -W -f='${Status}\n' "$PKG" 2>/dev/null | grep -v '^unknown ok not-installed$' |
		sed "s/^/dpkg status of $PKG: /"
	dkms status -m "$NAME" 2>/dev/null | sed 's/^/dkms status: /'
}
left=$(leftovers | sort -u)
printf '%s\n' "$left" >"$run/leftovers.txt"
if [ -z "$left" ]; then
	ok "nothing of ours is left after purge (leftover list empty)"
else
	not_ok "nothing of ours is left after purge" "$left"
fi
# Without a package status the list above could be empty for the wrong reason.
check "dpkg -L had the package's files before the purge" grep -q "^/usr/src/$NAME-$ver/dkms.conf\$" "$run/dpkg-L.txt"

echo "# package test: $(elapsed "$t0") s, logs in $run"
finish
