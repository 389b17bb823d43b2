#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real system's machine (issue 23): a real installed Debian 12 as a new
# user has it (no test kernel, no harness initramfs), prepared for the rows
# of run-all.sh's table realsys (t_prepare, kernel kind "image" of
# tests/qemu/kernels). Root: chroot, loop mounts (sudo -n when not root).
#
# usage: prepare.sh DIR
#
# 1. base.sh: mmdebstrap bookworm (systemd, initramfs-tools, the stock kernel
#    and its headers, DKMS, keyutils, dmsetup, tpm2-tools), kept in
#    $TKH_CACHE/realsys/ under a hash of its inputs;
# 2. a copy of it, where `apt-get install ./<our .debs>` (make deb: the DKMS
#    package and trusted-keys-tools) runs in a chroot: DKMS builds our
#    modules there for the image's kernel;
# 3. mkfs.ext4 -d of that tree: a GPT disk, the 3 GiB root file system on
#    /dev/vda1, a 16 MiB partition for each volume after it (a mounted file
#    system's device cannot be under a dm-crypt table too: EBUSY); the suite
#    realsys's check (tests/guest/realsys/10-volumes.sh) is installed as
#    tek-realsys-check.service, after the serial getty;
# 4. a TPM 2.0 (provision.sh --rsa-ecc: RSA SRK 0x81000001, ECC SRK
#    0x81000002) and a boot of the image with init=enrol.sh, which enrols the
#    volumes by docs/install.md: rsa (RSA SRK), ecc (ECC SRK), pcr (ECC SRK,
#    pcrs=sha256:1: PCR 1 holds SeaBIOS's measurement of the SMBIOS tables,
#    serial number A);
# 5. update-initramfs -u in a chroot of the image (loop mount) on the host:
#    our hook (initramfs/hooks/trusted-keys) as the package installed it.
# The boots after it are the table's rows (run-all.sh): each a copy of the
# enrolled TPM (provisioning "enrolled") or another machine's (provisioning
# "other"), a qcow2 overlay of the disk, its SMBIOS serial; the suite's
# host-check reads each console.
#
# Writes DIR/machine ("VMLINUZ INITRD KVER - realsys", t_prepare's format),
# DIR/disk.img (the enrolled disk), DIR/tpm (the enrolled TPM's state).
# Environment: TKH_REALSYS_DEB="FILE..." (install these .debs instead of make
# deb's), TKH_REALSYS_HOOK=FILE (install FILE as the initramfs hook over the
# package's: to show an older hook's failure), TKH_BOOT_TIMEOUT (s, default
# 900 a boot).
# Output: a KTAP document (the enrolment boot's guest results as its
# subtest); exit 0 only when nothing failed.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ $# = 1 ] || die "usage: prepare.sh DIR"
rs_root_or_sudo "$@"
need mmdebstrap qemu-system-x86_64 swtpm mkfs.ext4 sfdisk chroot mount umount losetup python3
export TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-900}

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
# The points: deb, base, install + DKMS, image, TPM, enrolment boot,
# update-initramfs.
PLAN=7

mkdir -p "$1"
run=$(cd "$1" && pwd)
rm -rf "$run/machine" "$run/tpm" "$run/disk.img"
finish() { rs_finish "$run/root"; }
rs_start "$PLAN"

rs_deb || finish
rs_base bookworm || finish
root=$run/root
rs_install "$root" || finish

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
	rs_check_service "$root" "$TKH_TOP/tests/guest/realsys/10-volumes.sh" \
		"tests/guest/realsys: the volumes after the boot" || return 1
	cp "$root/boot/vmlinuz-$kver" "$run/vmlinuz"
	cp "$root/boot/initrd.img-$kver" "$run/initrd-enrol.img"
	rs_unmount_all
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
	t_ok "disk image: mkfs.ext4 -d of the installed system, $NVOLS volume partitions ($(elapsed "$tb") s)"
else
	t_fail "disk image" "$(tail -n 20 "$run/image.log")"
	finish
fi

rs_tpm || finish

# --- enrolment ------------------------------------------------------------------
bootopts=(--disk "$run/disk.img" --nested)
tb=$(now)
rc=0
t_step "boot: enrolment" t_boot_tries "${bootopts[@]}" --serial A --name realsys-enrol \
	"$run/vmlinuz" "$run/initrd-enrol.img" "$run/tpm" 2.0 \
	"root=/dev/vda1 rw init=/usr/local/sbin/tek-realsys-enrol tk.realsys.vols=$VOLS" \
	"$run/boot-enrol" >"$run/boot-enrol.out" 2>&1 || rc=$?
rs_subtest "$run/boot-enrol"
if [ "$rc" = 0 ]; then
	t_ok "enrolment boot: $NVOLS volumes by docs/install.md ($(elapsed "$tb") s)"
else
	t_fail "enrolment boot" "$(cat "$run/boot-enrol.out")"
	finish
fi

# --- update-initramfs on the host -------------------------------------------------
mnt=$run/mnt
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
initramfs() {
	mkdir -p "$mnt"
	mount -o loop,offset=1048576 "$run/disk.img" "$mnt" && rs_mounts+=("$mnt")
	rs_chroot_mounts "$mnt"
	rs_in_root "$mnt" update-initramfs -u -k "$kver" &&
		cp "$mnt/boot/initrd.img-$kver" "$run/initrd.img" &&
		rs_in_root "$mnt" lsinitramfs "/boot/initrd.img-$kver" >"$run/initrd.list" &&
		cp "$mnt/etc/trusted-keys/volumes" "$run/volumes"
	local rc=$?
	rs_unmount_all
	return "$rc"
}
if t_step "update-initramfs" initramfs >"$run/initramfs.log" 2>&1 &&
	grep -q 'usr/sbin/trusted-keys-unlock$' "$run/initrd.list"; then
	t_ok "update-initramfs -u in a chroot: the hook put trusted-keys-unlock in ($(elapsed "$tb") s)"
else
	t_fail "update-initramfs" "$(tail -n 20 "$run/initramfs.log")"
	finish
fi

# What every boot of the rows needs on its command line (run-all.sh adds
# it): the root file system, and panic_on_warn=0 (after boot.sh's 1): a
# user's kernel goes on after a WARNING, and so does the boot here, to show
# what the user sees (which volumes stay closed, which reasons, whether the
# login comes); ktap.py still fails a boot whose console has a WARNING.
echo "root=/dev/vda1 ro panic_on_warn=0" >"$run/cmdline"
echo "$run/vmlinuz $run/initrd.img $kver - realsys" >"$run/machine"
log "realsys: prepared in $(elapsed "$t0") s"
finish
