#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make realsys: the boot path on a real installed Debian 12, as a new user
# has it (issue 23): no test kernel, no harness initramfs.
#
# usage: run.sh                 (root: chroot, mount; run it under flock /tmp/heavy.lock)
#
# 1. base.sh: mmdebstrap bookworm (systemd, initramfs-tools, the stock kernel
#    and its headers, DKMS, keyutils, dmsetup, tpm2-tools), kept in
#    $TKH_CACHE/realsys/ under a hash of its inputs;
# 2. a copy of it, where `apt-get install ./<our .deb>` (make deb) runs in a
#    chroot: DKMS builds our modules there for the image's kernel;
# 3. mkfs.ext4 -d of that tree: a GPT disk, the 3 GiB root file system on
#    /dev/vda1, a 16 MiB partition for each volume after it (a mounted file
#    system's device cannot be under a dm-crypt table too: EBUSY);
# 4. a TPM 2.0 (provision.sh --rsa-ecc: RSA SRK 0x81000001, ECC SRK
#    0x81000002) and a boot of the image with init=enrol.sh, which enrols the
#    volumes by docs/install.md: rsa (RSA SRK), ecc (ECC SRK), pcr (ECC SRK,
#    pcrs=sha256:1: PCR 1 holds SeaBIOS's measurement of the SMBIOS tables);
# 5. update-initramfs -u in a chroot of the image (loop mount) on the host:
#    our hook (initramfs/hooks/trusted-keys) as the package installed it;
# 6. the table's boots of the image's kernel and that initramfs, with
#    systemd: tek-realsys-check.service (check.sh) reports each volume open or
#    closed as the row expects and the ECDH self-test; this script checks the
#    console: one "trusted-keys: NAME: REASON" line per closed volume and none
#    for an open one, a login prompt (the boot went on), no "alg: ...
#    failed"; boot.sh/ktap.py fail a boot on WARNING, BUG, Oops, a panic.
#
# Environment: TKH_RUN (run directory; this test's files in TKH_RUN/realsys),
# TKH_REALSYS_DEB=FILE (install this .deb instead of make deb's),
# TKH_REALSYS_HOOK=FILE (install FILE as the initramfs hook over the
# package's: to show an older hook's failure), TKH_REALSYS_KEEP=1 (keep the
# disk image of a passing run), TKH_BOOT_TIMEOUT (s, default 900 a boot).
# Output: KTAP (host points and each boot's guest results as its subtest),
# then "N passed, N failed, N skipped"; exit 0 only when nothing failed.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need mmdebstrap qemu-system-x86_64 swtpm mkfs.ext4 sfdisk chroot mount umount losetup python3
[ "$(id -u)" = 0 ] || die "needs root (chroot, loop mounts): sudo make realsys"
export TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-900}

# The reasons trusted-keys-unlock gives (initramfs/trusted-keys-unlock): the
# errno is EPERM for both (as in-tree); the kernel's "trusted: load: ..."
# line tells a changed PCR (a refused PolicyPCR) from another machine's TPM
# (its SRK at the same handle is another key: TPM2_Load's integrity check).
WHY_PCR='the TPM refused to unseal the key: PCR values changed since sealing'
# the parents are pinned at enrolment (docs/install.md): another TPM's is refused
WHY_TPM="the blob is not sealed by this TPM: its parent key is not the one pinned at enrolment or seen earlier (another machine's TPM, a new SRK, or an interposer on the TPM bus)"

# The volumes: NAME:PARENT:DEVICE[:OPTION] (enrol.sh), 16 MiB partitions
# after the 3 GiB root file system (/dev/vda1).
ROOT_MB=3072
VOL_MB=16
VOLS=
k=0
for v in rsa:0x81000001 ecc:0x81000002 pcr:0x81000002:pcrs=sha256:1; do
	name=${v%%:*} rest=${v#*:}
	h=${rest%%:*} opt=
	[ "$h" = "$rest" ] || opt=${rest#*:}
	VOLS=$VOLS${VOLS:+,}$name:$h:/dev/vda$((k + 2))${opt:+:$opt}
	k=$((k + 1))
done
NVOLS=$k

# The boots after enrolment, one a row:
#   name    what the output calls it
#   tpm     mine: the TPM of the enrolment (kept across boots) | other: another
#           machine's (provision.sh --fresh: new seeds, SRKs at the same handles)
#   serial  the SMBIOS serial number (PCR 1); the enrolment's is A
#   closed  the volumes that stay closed, each with its reason: NAME=pcr|tpm, or - for none
boot_table() {
	cat <<EOF
good   mine   A  -
pcr    mine   B  pcr=pcr
tpm    other  A  rsa=tpm,ecc=tpm,pcr=tpm
EOF
}
NBOOTS=$(boot_table | wc -l)
# Host points: deb, base, install + dkms, image, TPMs, enrolment boot,
# update-initramfs; then per boot: the boot, its console's reason lines, the
# login prompt, no crypto self-test failure on the console.
PLAN=$((7 + NBOOTS * 4))

run=$(t_rundir)/realsys
rm -rf "$run"
mkdir -p "$run"
# shellcheck disable=SC2034  # t_step's
t_times=$run/times
n=0 pass=0 failn=0 skipn=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $1"; }
not_ok() { # desc [diagnostics]
	n=$((n + 1)); failn=$((failn + 1))
	[ $# -lt 2 ] || [ -z "$2" ] || printf '%s\n' "$2" | sed 's/^/# /'
	echo "not ok $n $1"
}
# guest_counts DIR: add a boot's in-guest counts to the totals.
guest_counts() {
	local p f s
	[ -f "$1/counts" ] || return 0
	read -r p f s <"$1/counts"
	pass=$((pass + p)) failn=$((failn + f)) skipn=$((skipn + s))
}
mounts=()
# shellcheck disable=SC2317  # invoked by the trap
unmount_all() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
	done
	mounts=()
}
trap unmount_all EXIT
finish() {
	unmount_all
	# (--one-file-system: never into a bind mount of /dev left behind)
	rm -rf --one-file-system "$run/root"
	while [ "$n" -lt "$PLAN" ]; do not_ok "test $((n + 1)) did not run"; done
	echo "$pass passed, $failn failed, $skipn skipped"
	echo "$pass $failn $skipn" >"$run/counts"
	if [ "$failn" -eq 0 ] && [ "${TKH_REALSYS_KEEP:-0}" != 1 ]; then rm -f "$run/disk.img"; fi
	[ "$failn" -eq 0 ]
	exit
}
# chroot_mounts ROOT: what apt, DKMS and update-initramfs need in a chroot.
# shellcheck disable=SC2317  # called by the functions t_step runs
chroot_mounts() {
	mount -t proc proc "$1/proc" && mounts+=("$1/proc")
	mount -t sysfs sysfs "$1/sys" && mounts+=("$1/sys")
	mount --bind /dev "$1/dev" && mounts+=("$1/dev")
	mount --bind /dev/pts "$1/dev/pts" && mounts+=("$1/dev/pts")
}
in_root() { chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "${@:2}"; }

echo "KTAP version 1"
echo "1..$PLAN"
t0=$(now)

# --- the package and the base -------------------------------------------------
tb=$(now)
if [ -n "${TKH_REALSYS_DEB:-}" ]; then
	deb=$TKH_REALSYS_DEB
	if [ -f "$deb" ]; then ok "the package: $deb (TKH_REALSYS_DEB)"; else not_ok "the package: no $deb"; finish; fi
elif deb=$(t_step "make deb" "$TKH_TOP/tests/pkg/build-deb.sh" "$run/deb" 2>"$run/build-deb.log" | tail -n1) &&
	[ -f "$deb" ]; then
	ok "make deb: $(basename "$deb") ($(elapsed "$tb") s)"
else
	not_ok "make deb" "$(tail -n 20 "$run/build-deb.log")"
	finish
fi
tb=$(now)
if base=$(t_step "base image" "$TKH_TOP/tests/realsys/base.sh" 2>"$run/base.log") && [ -d "$base" ]; then
	ok "Debian 12 base by mmdebstrap: $base ($(elapsed "$tb") s)"
else
	not_ok "Debian 12 base by mmdebstrap" "$(tail -n 20 "$run/base.log")"
	finish
fi

# --- the installed system -------------------------------------------------------
root=$run/root
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
install_pkg() {
	rm -rf --one-file-system "$root"
	cp -a "$base" "$root"
	rm -f "$root/.done"
	chroot_mounts "$root"
	cp "$deb" "$root/tmp/"
	in_root "$root" apt-get install -y --no-install-recommends "/tmp/$(basename "$deb")" &&
		rm -f "$root/tmp/$(basename "$deb")"
}
kver=$(basename "$(ls -d "$base"/lib/modules/*)")
if t_step "apt-get install ./deb (DKMS)" install_pkg >"$run/install.log" 2>&1 &&
	in_root "$root" dkms status >"$run/dkms-status" 2>&1 &&
	grep -q ", $kver, x86_64: installed" "$run/dkms-status" &&
	compgen -G "$root/lib/modules/$kver/updates/dkms/trusted.ko*" >/dev/null; then
	ok "apt-get install ./$(basename "$deb"): DKMS built trusted.ko for $kver ($(elapsed "$tb") s)"
else
	not_ok "apt-get install ./$(basename "$deb") and DKMS for $kver" \
		"$(tail -n 20 "$run/install.log"; cat "$run/dkms-status" 2>/dev/null)"
	finish
fi

tb=$(now)
# shellcheck disable=SC2317  # run through t_step
make_image() {
	if [ -n "${TKH_REALSYS_HOOK:-}" ]; then
		install -m 0755 "$TKH_REALSYS_HOOK" "$root/usr/share/initramfs-tools/hooks/trusted-keys"
		log "initramfs hook: $TKH_REALSYS_HOOK (TKH_REALSYS_HOOK)"
	fi
	echo "/dev/vda1 / ext4 errors=remount-ro 0 1" >"$root/etc/fstab"
	echo realsys >"$root/etc/hostname"
	install -m 0755 "$TKH_TOP/tests/realsys/enrol.sh" "$root/usr/local/sbin/tek-realsys-enrol"
	install -m 0755 "$TKH_TOP/tests/realsys/check.sh" "$root/usr/local/sbin/tek-realsys-check"
	cat >"$root/etc/systemd/system/tek-realsys-check.service" <<-EOF
	[Unit]
	Description=tests/realsys: the volumes after the boot (KTAP on ttyS1), then power off
	After=multi-user.target serial-getty@ttyS0.service
	[Service]
	Type=oneshot
	ExecStart=/usr/local/sbin/tek-realsys-check
	[Install]
	WantedBy=multi-user.target
	EOF
	mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
	ln -sf ../tek-realsys-check.service "$root/etc/systemd/system/multi-user.target.wants/"
	cp "$root/boot/vmlinuz-$kver" "$run/vmlinuz"
	cp "$root/boot/initrd.img-$kver" "$run/initrd-enrol.img"
	unmount_all
	rm -f "$run/disk.img"
	truncate -s $((1 + ROOT_MB + NVOLS * VOL_MB + 1))M "$run/disk.img"
	{ echo "label: gpt"
		echo "start=1MiB, size=${ROOT_MB}MiB, name=root"
		for v in $(echo "$VOLS" | tr ',' ' '); do echo "size=${VOL_MB}MiB, name=${v%%:*}"; done
	} | sfdisk -q "$run/disk.img" &&
		mkfs.ext4 -q -F -L realsys -E offset=1048576,nodiscard -d "$root" "$run/disk.img" "${ROOT_MB}M" &&
		rm -rf --one-file-system "$root"
}
if t_step "image (mkfs.ext4 -d)" make_image >"$run/image.log" 2>&1; then
	ok "disk image: mkfs.ext4 -d of the installed system, $NVOLS volume partitions ($(elapsed "$tb") s)"
else
	not_ok "disk image" "$(tail -n 20 "$run/image.log")"
	finish
fi

if "$TKH_QEMU/provision.sh" 2.0 "$run/tpm-mine" --rsa-ecc >"$run/tpm.log" 2>&1 &&
	"$TKH_QEMU/provision.sh" 2.0 "$run/tpm-other" --rsa-ecc --fresh >>"$run/tpm.log" 2>&1; then
	ok "two TPM 2.0 with an RSA SRK at 0x81000001 and an ECC SRK at 0x81000002"
else
	not_ok "TPMs" "$(tail -n 20 "$run/tpm.log")"
	finish
fi

# --- enrolment ------------------------------------------------------------------
bootopts=(--disk "$run/disk.img" --nested)
boot_points() { # OUTDIR NAME: the boot's guest results as a subtest
	sed 's/^/    /' "$1/results.ktap" 2>/dev/null | tr -d '\r'
	guest_counts "$1"
}
tb=$(now)
rc=0
t_step "boot: enrolment" t_boot_tries "${bootopts[@]}" --serial A --name realsys-enrol \
	"$run/vmlinuz" "$run/initrd-enrol.img" "$run/tpm-mine" 2.0 \
	"root=/dev/vda1 rw init=/usr/local/sbin/tek-realsys-enrol tk.realsys.vols=$VOLS" \
	"$run/boot-enrol" >"$run/boot-enrol.out" 2>&1 || rc=$?
boot_points "$run/boot-enrol"
if [ "$rc" = 0 ]; then
	ok "enrolment boot: $NVOLS volumes by docs/install.md ($(elapsed "$tb") s)"
else
	not_ok "enrolment boot" "$(cat "$run/boot-enrol.out")"
	finish
fi

# --- update-initramfs on the host -------------------------------------------------
mnt=$run/mnt
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
initramfs() {
	mkdir -p "$mnt"
	mount -o loop,offset=1048576 "$run/disk.img" "$mnt" && mounts+=("$mnt")
	chroot_mounts "$mnt"
	in_root "$mnt" update-initramfs -u -k "$kver" &&
		cp "$mnt/boot/initrd.img-$kver" "$run/initrd.img" &&
		in_root "$mnt" lsinitramfs "/boot/initrd.img-$kver" >"$run/initrd.list" &&
		cp "$mnt/etc/trusted-keys/volumes" "$run/volumes"
	local rc=$?
	unmount_all
	return "$rc"
}
if t_step "update-initramfs" initramfs >"$run/initramfs.log" 2>&1 &&
	grep -q 'usr/sbin/trusted-keys-unlock$' "$run/initrd.list"; then
	ok "update-initramfs -u in a chroot: the hook put trusted-keys-unlock in ($(elapsed "$tb") s)"
else
	not_ok "update-initramfs" "$(tail -n 20 "$run/initramfs.log")"
	finish
fi

# --- the boots --------------------------------------------------------------------
# panic_on_warn=0 (after boot.sh's 1): a user's kernel goes on after a
# WARNING, and so does the boot here, to show what the user sees (which
# volumes stay closed, which reasons, whether the login comes); ktap.py still
# fails a boot whose console has a WARNING.
# console_reasons LOG: the console's "trusted-keys: NAME: REASON" lines, CR removed.
console_reasons() { tr -d '\r' <"$1" | grep -o 'trusted-keys: [a-z]*: .*' || true; }
while read -r bname tpm serial closed; do
	out=$run/boot-$bname
	cl=$(echo "$closed" | tr ',' '\n' | sed -n 's/=.*//p' | paste -sd, -)
	tb=$(now)
	rc=0
	t_step "boot: $bname" t_boot_tries "${bootopts[@]}" --serial "$serial" --name "realsys-$bname" \
		"$run/vmlinuz" "$run/initrd.img" "$run/tpm-$tpm" 2.0 \
		"root=/dev/vda1 ro panic_on_warn=0 tk.realsys.closed=${cl:--}" "$out" >"$run/boot-$bname.out" 2>&1 || rc=$?
	boot_points "$out"
	what="$bname: TPM $tpm, serial $serial, closed: ${cl:-none}"
	if [ "$rc" = 0 ]; then
		ok "boot $what ($(elapsed "$tb") s)"
	else
		not_ok "boot $what" "$(cat "$run/boot-$bname.out")"
	fi
	# One line for each closed volume, with its reason; none for an open one.
	want=$(for v in $(echo "$closed" | tr ',' ' '); do
		[ "$v" = - ] && continue
		case ${v#*=} in pcr) why=$WHY_PCR ;; tpm) why=$WHY_TPM ;; esac
		echo "trusted-keys: ${v%%=*}: $why"
	done | sort)
	got=$(console_reasons "$out/console.log" | sort)
	if [ "$got" = "$want" ]; then
		ok "$bname: the console's trusted-keys lines: $(echo "$want" | grep -c . || true) as expected"
	else
		not_ok "$bname: the console's trusted-keys lines" "$(printf 'want:\n%s\ngot:\n%s\n' "$want" "$got")"
	fi
	if tr -d '\r' <"$out/console.log" | grep -q 'realsys login:'; then
		ok "$bname: the boot went on to a login prompt"
	else
		not_ok "$bname: no login prompt on the console" "$(tail -n 5 "$out/console.log")"
	fi
	if ! tr -d '\r' <"$out/console.log" | grep -E 'alg: .*(failed|err=)' >"$out/alg-failures"; then
		ok "$bname: no crypto self-test failure on the console"
	else
		not_ok "$bname: a crypto self-test failed" "$(cat "$out/alg-failures")"
	fi
done < <(boot_table)

log "realsys: $(elapsed "$t0") s in all"
finish
