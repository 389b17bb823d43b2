# SPDX-License-Identifier: GPL-2.0
# The real system's preparations' shared steps (tests/realsys/prepare.sh,
# tests/realsys/luks.sh): sourced after tests/qemu/common.sh, with $run the
# run directory.
# shellcheck shell=bash

# rs_root_or_sudo "$@": run as root, or again through sudo -n (chroot, loop
# mounts), with the knobs that must reach the script.
rs_root_or_sudo() {
	[ "$(id -u)" = 0 ] && return 0
	sudo -n true 2>/dev/null || die "needs root (chroot, loop mounts): sudo make realsys"
	exec sudo -n env TKH_CACHE="$TKH_CACHE" ${TKH_REALSYS_DEB:+TKH_REALSYS_DEB="$TKH_REALSYS_DEB"} \
		${TKH_REALSYS_HOOK:+TKH_REALSYS_HOOK="$TKH_REALSYS_HOOK"} \
		${TKH_BOOT_TIMEOUT:+TKH_BOOT_TIMEOUT="$TKH_BOOT_TIMEOUT"} "$0" "$@"
}

rs_mounts=()
# shellcheck disable=SC2317  # invoked by traps
rs_unmount_all() {
	local i
	for ((i = ${#rs_mounts[@]} - 1; i >= 0; i--)); do
		umount "${rs_mounts[$i]}" 2>/dev/null || umount -l "${rs_mounts[$i]}" 2>/dev/null || true
	done
	rs_mounts=()
}
# Run through sudo: what it made belongs to the user who asked (the pool,
# which copies the TPM, and the run directory's pruning run as that user),
# and so do the TPM templates provision.sh may have made in the cache.
# shellcheck disable=SC2317,SC2154  # invoked by the trap; $run: the caller's
rs_at_exit() {
	rs_unmount_all
	[ -n "${SUDO_UID:-}" ] || return 0
	chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$run" "$TKH_CACHE/tpm" 2>/dev/null || true
}
# rs_chroot_mounts ROOT: what apt, DKMS and update-initramfs need in a chroot.
rs_chroot_mounts() {
	mount -t proc proc "$1/proc" && rs_mounts+=("$1/proc")
	mount -t sysfs sysfs "$1/sys" && rs_mounts+=("$1/sys")
	mount --bind /dev "$1/dev" && rs_mounts+=("$1/dev")
	mount --bind /dev/pts "$1/dev/pts" && rs_mounts+=("$1/dev/pts")
}
rs_in_root() { chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "${@:2}"; }

# rs_deb: the packages as a test point (TKH_REALSYS_DEB, the .debs separated
# by spaces, else make deb into $run/deb: the DKMS package and
# trusted-keys-tools); sets debs. False when there are none.
rs_deb() {
	local tb d out
	tb=$(now)
	debs=()
	if [ -n "${TKH_REALSYS_DEB:-}" ]; then
		read -r -a debs <<<"$TKH_REALSYS_DEB"
		for d in "${debs[@]}"; do
			[ -f "$d" ] || { t_fail "the packages: no $d"; return 1; }
		done
		t_ok "the packages: ${debs[*]} (TKH_REALSYS_DEB)"
		return 0
	fi
	if out=$(t_step "make deb" "$TKH_TOP/tests/pkg/build-deb.sh" "$run/deb" 2>"$run/build-deb.log") &&
		mapfile -t debs <<<"$out" && [ "${#debs[@]}" = 2 ] && [ -f "${debs[0]}" ] && [ -f "${debs[1]}" ]; then
		t_ok "make deb: $(basename "${debs[0]}") $(basename "${debs[1]}") ($(elapsed "$tb") s)"
		return 0
	fi
	t_fail "make deb" "$(tail -n 20 "$run/build-deb.log")"
	return 1
}

# rs_base RELEASE: the base (base.sh) as a test point; sets base.
rs_base() {
	local tb
	tb=$(now)
	if base=$(t_step "base image" "$TKH_TOP/tests/realsys/base.sh" "$1" 2>"$run/base.log") &&
		[ -d "$base" ]; then
		t_ok "Debian $1 base by mmdebstrap: $base ($(elapsed "$tb") s)"
		return 0
	fi
	t_fail "Debian $1 base by mmdebstrap" "$(tail -n 20 "$run/base.log")"
	return 1
}

# rs_install ROOT: a copy of $base in ROOT, the packages ($debs) installed
# there by apt (DKMS builds our modules for the image's kernel), as a test
# point; sets kver. ROOT's chroot mounts stay (rs_unmount_all).
# The base's apt has no lists (mmdebstrap removes them): when apt cannot
# install the packages from what the base has (trusted-keys-tools depends
# on python3, which the base lacks), apt-get update first, and apt fetches
# the rest from Debian's archive, as on a user's machine. rs_pkgs: packages
# from the archive installed first (openssl before ours: DKMS makes its MOK
# key with it, and without it leaves the modules unsigned).
_rs_install() {
	local d in=()
	rm -rf --one-file-system "$1"
	cp -a "$base" "$1"
	rm -f "$1/.done"
	rs_chroot_mounts "$1"
	if [ -n "${rs_pkgs:-}" ]; then
		# shellcheck disable=SC2086  # the list
		rs_in_root "$1" apt-get update && rs_in_root "$1" apt-get install -y --no-install-recommends $rs_pkgs ||
			return 1
	fi
	for d in "${debs[@]}"; do
		cp "$d" "$1/tmp/"
		in+=("/tmp/${d##*/}")
	done
	if ! rs_in_root "$1" apt-get install -s -y --no-install-recommends "${in[@]}" >/dev/null 2>&1; then
		echo "rs_install: apt-get update (the packages need more than the base has)"
		rs_in_root "$1" apt-get update || return 1
	fi
	rs_in_root "$1" apt-get install -y --no-install-recommends "${in[@]}" &&
		(cd "$1/tmp" && rm -f "${in[@]##*/}")
}
rs_install() {
	local tb names
	tb=$(now)
	kver=$(basename "$(ls -d "$base"/lib/modules/*)")
	names=$(for d in "${debs[@]}"; do printf ' ./%s' "${d##*/}"; done)
	if t_step "apt-get install ./debs (DKMS)" _rs_install "$1" >"$run/install.log" 2>&1 &&
		rs_in_root "$1" dkms status >"$run/dkms-status" 2>&1 &&
		grep -q ", $kver, x86_64: installed" "$run/dkms-status" &&
		compgen -G "$1/lib/modules/$kver/updates/dkms/trusted.ko*" >/dev/null; then
		t_ok "apt-get install$names: DKMS built trusted.ko for $kver ($(elapsed "$tb") s)"
		return 0
	fi
	t_fail "apt-get install$names and DKMS for $kver" \
		"$(tail -n 20 "$run/install.log"; cat "$run/dkms-status" 2>/dev/null)"
	return 1
}

# rs_add_mok VARS CERT: CERT (DER or PEM; DKMS's /var/lib/dkms/mok.pub)
# as shim's MokList in the OVMF variable store VARS (a copy of
# OVMF_VARS_4M.ms.fd, before the machine's first boot): shim mirrors it to
# MokListRT, and Debian's kernel trusts it for modules, without MokManager
# at the console (tests/realsys/ovmf-vars.py add-mok). False, with the
# tool's reason on stderr, when the store is not understood, full or has a
# MokList already.
rs_add_mok() {
	python3 "$TKH_TOP/tests/realsys/ovmf-vars.py" add-mok "$1" "$2"
}

# rs_dkms_signed ROOT KVER: DKMS built trusted.ko for KVER in the tree at
# ROOT and signed it with its key (modinfo -F signer, run in the tree, names
# the subject CN of /var/lib/dkms/mok.pub, the certificate of
# /var/lib/dkms/mok.key); for the guest's refusal, the module with its
# signature cut off (the PKCS#7 blob, struct module_signature and the
# magic string after the ELF), uncompressed, as
# ROOT/usr/local/lib/tek-realsys/trusted-unsigned-KVER.ko. Prints the
# module and its signer; false, saying why, when not so.
rs_dkms_signed() {
	local m signer cn
	m=$(compgen -G "$1/lib/modules/$2/updates/dkms/trusted.ko*" | head -n 1 || true)
	[ -n "$m" ] || { echo "no trusted.ko in /lib/modules/$2/updates/dkms"; return 1; }
	[ -f "$1/var/lib/dkms/mok.pub" ] || { echo "no /var/lib/dkms/mok.pub"; return 1; }
	cn=$(openssl x509 -inform DER -in "$1/var/lib/dkms/mok.pub" -noout -subject -nameopt RFC2253 |
		sed -n 's/^subject=\(.*,\)\{0,1\}CN=\([^,]*\).*/\2/p')
	signer=$(rs_in_root "$1" modinfo -F signer "${m#"$1"}")
	if [ -z "$signer" ] || [ "$signer" != "$cn" ]; then
		echo "${m#"$1"}: signer '$signer', mok.pub's CN '$cn'"
		return 1
	fi
	install -d "$1/usr/local/lib/tek-realsys"
	python3 - "$m" "$1/usr/local/lib/tek-realsys/trusted-unsigned-$2.ko" <<-'PY' || return 1
	import gzip, lzma, subprocess, sys
	p = sys.argv[1]
	d = open(p, "rb").read()
	if p.endswith(".xz"):
	    d = lzma.decompress(d)
	elif p.endswith(".gz"):
	    d = gzip.decompress(d)
	elif p.endswith(".zst"):
	    d = subprocess.run(["zstd", "-dc", p], capture_output=True, check=True).stdout
	magic = b"~Module signature appended~\n"
	if not d.endswith(magic):
	    sys.exit(p + ": no signature appended")
	n = int.from_bytes(d[-len(magic) - 4:-len(magic)], "big")   # module_signature.sig_len
	out = d[:len(d) - len(magic) - 12 - n]
	if out[:4] != b"\x7fELF":
	    sys.exit(p + ": not an ELF module before its signature")
	open(sys.argv[2], "wb").write(out)
	PY
	echo "${m#"$1"} signed by '$signer' (/var/lib/dkms/mok.pub)"
}

# rs_check_service ROOT CHECK WHAT: the row's check in the tree at ROOT: the
# script CHECK as /usr/local/sbin/tek-realsys-check with check-lib.sh
# beside it, run by tek-realsys-check.service (WHAT: its description) once
# the serial getty runs.
rs_check_service() {
	install -D -m 0644 "$TKH_TOP/tests/realsys/check-lib.sh" "$1/usr/local/lib/tek-realsys/check.sh" &&
		install -m 0755 "$2" "$1/usr/local/sbin/tek-realsys-check" || return 1
	cat >"$1/etc/systemd/system/tek-realsys-check.service" <<-EOF
	[Unit]
	Description=$3 (KTAP on ttyS1), then power off
	After=multi-user.target serial-getty@ttyS0.service
	[Service]
	Type=oneshot
	ExecStart=/usr/local/sbin/tek-realsys-check
	[Install]
	WantedBy=multi-user.target
	EOF
	mkdir -p "$1/etc/systemd/system/multi-user.target.wants"
	ln -sf ../tek-realsys-check.service "$1/etc/systemd/system/multi-user.target.wants/"
}

# rs_tpm: a TPM 2.0 with both SRKs in $run/tpm, as a test point.
rs_tpm() {
	if "$TKH_QEMU/provision.sh" 2.0 "$run/tpm" --rsa-ecc >"$run/tpm.log" 2>&1; then
		t_ok "a TPM 2.0 with an RSA SRK at 0x81000001 and an ECC SRK at 0x81000002"
		return 0
	fi
	t_fail "TPM" "$(tail -n 20 "$run/tpm.log")"
	return 1
}

# rs_subtest OUTDIR: a boot's guest results (OUTDIR/results.ktap) as a subtest.
rs_subtest() {
	[ -f "$1/results.ktap" ] || return 0
	sed 's/^/    /' "$1/results.ktap" | tr -d '\r'
}

# rs_start PLAN: the preparation's start: its steps' times file, the exit
# trap, the KTAP header of PLAN points; sets t0.
rs_start() {
	# shellcheck disable=SC2034  # t_step's
	t_times=$run/times
	rs_plan=$1
	trap rs_at_exit EXIT
	echo "KTAP version 1"
	echo "1..$1"
	# shellcheck disable=SC2034  # the caller's
	t0=$(now)
}
# rs_finish PATH...: the end on every path: unmount, remove PATHs (the tree,
# scratch images; --one-file-system: never into a bind mount of /dev left
# behind), the points not reached failed, no machine file unless all
# passed; exits with the verdict.
rs_finish() {
	rs_unmount_all
	rm -rf --one-file-system "$@"
	t_fail_rest "$rs_plan"
	# shellcheck disable=SC2154  # common.sh's
	[ "$t_nfail" -eq 0 ] || rm -f "$run/machine"
	[ "$t_nfail" -eq 0 ]
	exit
}
