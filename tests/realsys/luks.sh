#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real system as Debian's installer leaves it with "Guided - use entire
# disk and set up encrypted LVM": a LUKS2 root opened at boot by
# cryptsetup-initramfs from /etc/crypttab, LVM inside, our package
# installed and (when it has trusted-keys-luks) the TPM unlock enrolled.
# The machine of run-all.sh's table realsys-luks (kernel kind "image" of
# tests/qemu/kernels). Root: chroot, loop mounts (sudo -n when not root).
#
# usage: luks.sh RELEASE [clevis] DIR      (RELEASE: bookworm or trixie)
#
# clevis: the same machine with Clevis beside ours, for the side-by-side
# comparison (table realsys-clevis, tests/realsys/compare.sh): clevis,
# clevis-luks, clevis-tpm2 and clevis-initramfs from apt too, the volume
# also bound by `clevis luks bind -d /dev/vda3 tpm2 '{"pcr_ids":"7"}'` in
# the installer boot, and two initramfs images of the one tree, each with
# one unlock as its user has it: DIR/initrd.img ours (clevis-initramfs
# purged), DIR/initrd-clevis.img Clevis's (made while nothing is enrolled
# for ours: our hook puts nothing in); no disk-notoken.img; DIR/secrets/
# (0600) what the bus scan looks for: the volume key, Clevis's JWK and
# keyslot passphrase.
#
# 1. base.sh RELEASE (with cryptsetup, cryptsetup-initramfs, lvm2), a copy
#    of it, `apt-get install ./<our .debs>` in a chroot (DKMS; the tools);
# 2. the installer's configuration, written on the host: /etc/crypttab
#    "vda3_crypt UUID=<luks uuid> none luks,discard", /etc/fstab (root on
#    /dev/mapper/realsys--vg-root, /boot by UUID, swap on the swap_1 LV),
#    RESUME= the swap LV; the host chooses the UUIDs beforehand;
# 3. a GPT disk (p1 1 MiB BIOS boot, p2 /boot ext4, p3 the rest, for LUKS2)
#    and the tree as an ext4 image (mkfs.ext4 -d);
# 4. a TPM 2.0 (provision.sh --rsa-ecc) and the "installer" boot
#    (tests/realsys/install.sh as init of the tree on a second disk):
#    luksFormat with PASSPHRASE, LVM, the tree copied in, and the enrolment
#    (trusted-keys-luks enrol, in a chroot of the new system);
# 5. update-initramfs -u in a chroot of the tree on the host, with the
#    enrolment's /etc/trusted-keys/luks and
#    /etc/modprobe.d/trusted-keys-pin.conf in it (a chroot
#    cannot see the real root device: conf-hook's CRYPTSETUP=y and a hook of
#    the test's own put crypttab's root line in, what cryptroot's hook finds
#    on the running system); then /boot (p2) made of the tree's /boot;
# 6. the checksums of the LUKS2 header area and of LVM's metadata (the data
#    area's first MiB) for the rows' host-check; a copy of the disk with our
#    token removed from the header (disk-notoken.img; cryptsetup on a loop
#    device works on the host, opening does not); for the attack rows
#    (when enrolled): a copy whose token is the installer boot's PIN token
#    (disk-pin.img) and the attacker's disk (disk-swap.img: the installer
#    boot's fourth disk, its own LUKS2 volume with the real UUID and token),
#    each with its checksums.
#
# Writes DIR/machine ("VMLINUZ INITRD KVER - realsys-luks", -luks13 for
# trixie), DIR/cmdline,
# DIR/disk.img (DIR/disk-notoken.img, disk-pin.img, disk-swap.img),
# DIR/disk*.sums, DIR/tpm (the enrolled TPM), DIR/passphrase (what the rows
# type at cryptroot's prompt), DIR/passphrase-attacker (the attacker's
# volume's), DIR/pin and DIR/pin-wrong (typed at our PIN prompt),
# DIR/volume-key (hex, 0600: what the bus recordings are searched for).
# Environment: TKH_REALSYS_DEB="FILE..." (install these .debs instead of make
# deb's), TKH_REALSYS_LUKS_ENROL=0 (no enrolment even when the package has
# it), TKH_REALSYS_LUKS_ENROLOPTS (enrol's options, default
# --pcrs=sha256:0,1,2,4,7,8,9), TKH_REALSYS_LUKS_ATTACKS (the attack rows'
# disks: "pin swap", bookworm's default; "pin", trixie's; empty: none),
# TKH_BOOT_TIMEOUT (s, default 1800 a boot: the installer boot copies the
# tree twice with the attack disks, 10-15 minutes on a loaded 2-core host).
# Output: a KTAP document (the installer boot's results as its subtest);
# exit 0 only when nothing failed.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
usage="usage: luks.sh bookworm|trixie [clevis] DIR"
[ $# = 2 ] || { [ $# = 3 ] && [ "$2" = clevis ]; } || die "$usage"
rel=$1
clevis=0
[ $# = 2 ] || clevis=1
case $rel in bookworm|trixie) ;; *) die "$usage" ;; esac
rs_root_or_sudo "$@"
need mmdebstrap qemu-system-x86_64 qemu-img swtpm mkfs.ext4 sfdisk chroot mount losetup cryptsetup python3
export TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-1800}

# The layout (MiB): p1 BIOS boot, p2 /boot, p3 LUKS2: its header area (16
# MiB, LUKS2's default), LVM's metadata (1 MiB), root, swap_1.
BOOT_MIB=256
ROOT_MIB=3072
SWAP_MIB=128
LUKS_HDR_MIB=16
P3_MIB=$((LUKS_HDR_MIB + 1 + ROOT_MIB + SWAP_MIB + 4))
DISK_MIB=$((1 + 1 + BOOT_MIB + P3_MIB + 1))
VG=realsys-vg
MVG=realsys--vg
NAME=vda3_crypt
# argon2id as the installer makes it, but cheaper to open under TCG: the
# installer benchmarks for 2 s with up to 1 GiB of memory; here 64 MiB and
# the minimum of 4 iterations (one unlock takes seconds, not minutes)
LUKSOPTS="--pbkdf-memory 65536 --pbkdf-force-iterations 4 --pbkdf-parallel 1"
# The enrolment's options: the docs' default PCRs and PCR 1 (SeaBIOS's
# SMBIOS measurement: the rows' serial= changes it). The installer boot
# and the rows run the same machine (memory; the CPU model, which QEMU's
# SMBIOS processor entry names), so PCRs 0-2 and 4 are the same in both.
# The CPU: -cpu max (a laptop's AES-NI) for trixie; QEMU's default for
# bookworm, whose 6.1 under TCG -cpu max stopped in systemd's udev phase
# once it had loaded AMD's kvm_amd and powernow_k8 (2 boots of 2). The
# table's rows say the same (tk.cpu=max on luks13-* only).
CPU=tk.cpu=max
[ "$rel" != bookworm ] || CPU=
ENROLOPTS=${TKH_REALSYS_LUKS_ENROLOPTS:---pcrs=sha256:0,1,2,4,7,8,9}
# The attack rows' disks: the PIN token on both releases (rows luks-pin,
# luks-pinok, luks13-pin); the attacker's volume on bookworm only (row
# luks-swap: it costs the installer boot a second copy of the tree, some
# 280 s); none on the clevis machine
ATTACKS=${TKH_REALSYS_LUKS_ATTACKS-$([ "$clevis" = 1 ] || { [ "$rel" = bookworm ] && echo pin swap; } || echo pin)}
PLAN=$((8 + 2 * clevis))

mkdir -p "${!#}"
run=$(cd "${!#}" && pwd)
rm -rf "$run/machine" "$run/tpm" "$run"/disk.img "$run"/disk-*.img "$run/volume-key" "$run/secrets" \
	"$run/initrd-clevis.img"
finish() { rs_finish "$run/root" "$run/root.img" "$run/io.img"; }
rs_start "$PLAN"
rs_deb || finish
rs_base "$rel" || finish
root=$run/root
rs_install "$root" || finish
rs_unmount_all
# Clevis from Debian's archive, as its user installs it (the initramfs is
# made later, once: update_initramfs=no meanwhile keeps the packages'
# trigger from making one now).
CLEVIS_PKGS="clevis clevis-luks clevis-tpm2 clevis-initramfs"
# shellcheck disable=SC2317  # run through t_step
clevis_install() {
	local conf=$root/etc/initramfs-tools/update-initramfs.conf rc=0
	rs_chroot_mounts "$root"
	cp "$conf" "$run/update-initramfs.conf"
	sed -i 's/^update_initramfs=.*/update_initramfs=no/' "$conf"
	# shellcheck disable=SC2086  # the package names
	rs_in_root "$root" apt-get update -q && rs_in_root "$root" apt-get install -y -q \
		--no-install-recommends $CLEVIS_PKGS || rc=1
	cp "$run/update-initramfs.conf" "$conf"
	rs_unmount_all
	[ "$rc" = 0 ] || return 1
	# shellcheck disable=SC2086  # the package names
	rs_in_root "$root" dpkg-query -W $CLEVIS_PKGS
}
if [ "$clevis" = 1 ]; then
	tb=$(now)
	if t_step "apt-get install $CLEVIS_PKGS" clevis_install >"$run/clevis-install.log" 2>&1; then
		t_ok "apt-get install $CLEVIS_PKGS: $(awk '$1 == "clevis" { print $1, $2 }' \
			"$run/clevis-install.log" | tail -n 1) ($(elapsed "$tb") s)"
	else
		t_fail "apt-get install $CLEVIS_PKGS" "$(tail -n 20 "$run/clevis-install.log")"
		finish
	fi
fi

# --- the installer's configuration, the disk and the tree ----------------------
luks_uuid=$(cat /proc/sys/kernel/random/uuid)
boot_uuid=$(cat /proc/sys/kernel/random/uuid)
root_uuid=$(cat /proc/sys/kernel/random/uuid)
# secret FILE BYTES: random letters and digits, no newline
secret() { printf '%s' "$(head -c "$2" /dev/urandom | base64 | tr -d '+/=')" >"$1"; }
secret "$run/passphrase" 12
enrol=0
if [ "${TKH_REALSYS_LUKS_ENROL:-1}" != 0 ] && [ -x "$root/usr/sbin/trusted-keys-luks" ]; then enrol=1; fi
[ "$enrol" = 1 ] || ATTACKS=
swap=0
case " $ATTACKS " in *" swap "*) swap=1 ;; esac
secret "$run/passphrase-attacker" 12
# the PIN and a wrong one: 10 digits each, as a user picks digits (and
# long enough not to be found on the console by chance)
python3 -c 'import secrets, sys
p = secrets.randbelow(9 * 10**9) + 10**9
open(sys.argv[1], "w").write(str(p))
open(sys.argv[2], "w").write(str(10**9 + (p - 10**9 + 1 + secrets.randbelow(10**6)) % (9 * 10**9)))' \
	"$run/pin" "$run/pin-wrong"
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
configure() {
	echo realsys >"$root/etc/hostname"
	echo "$NAME UUID=$luks_uuid none luks,discard" >"$root/etc/crypttab"
	cat >"$root/etc/fstab" <<-EOF
	# <file system> <mount point>   <type>  <options>       <dump>  <pass>
	/dev/mapper/$MVG-root /               ext4    errors=remount-ro 0       1
	UUID=$boot_uuid /boot           ext4    defaults        0       2
	/dev/mapper/$MVG-swap_1 none            swap    sw              0       0
	EOF
	echo "RESUME=/dev/mapper/$MVG-swap_1" >"$root/etc/initramfs-tools/conf.d/resume"
	# A chroot's / is not the real root device: cryptroot's hook cannot find
	# crypttab's root line. CRYPTSETUP=y takes cryptsetup in regardless, and
	# the hook below adds the line the hook would have found.
	mkdir -p "$root/etc/cryptsetup-initramfs"
	echo "CRYPTSETUP=y" >>"$root/etc/cryptsetup-initramfs/conf-hook"
	cat >"$root/etc/initramfs-tools/hooks/tek-realsys-cryptroot" <<-'EOF'
	#!/bin/sh
	# tests/realsys/luks.sh: what cryptroot's hook finds on the running
	# system and cannot in the host's chroot: crypttab's root line
	[ "$1" = prereqs ] && exit 0
	line=$(grep '^vda3_crypt ' /etc/crypttab) || exit 0
	mkdir -p "$DESTDIR/cryptroot"
	grep -q '^vda3_crypt ' "$DESTDIR/cryptroot/crypttab" 2>/dev/null ||
		echo "$line" >>"$DESTDIR/cryptroot/crypttab"
	EOF
	chmod 0755 "$root/etc/initramfs-tools/hooks/tek-realsys-cryptroot"
	# systemd waits 90 s for a device; on a host loaded with TCG guests
	# (load 12-18) udev's coldplug took longer: /boot, crypttab's source
	# and the swap LV timed out and the boot went to emergency mode, the
	# root open. 10 minutes here (DefaultDeviceTimeoutSec=: 252 and later;
	# the kernel command line's systemd.default_device_timeout_sec= is
	# 254's, and 252 ignored systemd.default_timeout_start_sec= for it).
	mkdir -p "$root/etc/systemd/system.conf.d"
	printf '[Manager]\nDefaultDeviceTimeoutSec=600\nDefaultTimeoutStartSec=600\n' \
		>"$root/etc/systemd/system.conf.d/tek-realsys.conf"
	install -m 0755 "$TKH_TOP/tests/realsys/install.sh" "$root/usr/local/sbin/tek-realsys-install"
	rs_check_service "$root" "$TKH_TOP/tests/guest/realsys-luks/10-root.sh" \
		"tests/guest/realsys-luks: the root after the boot" || return 1
	cp "$root/boot/vmlinuz-$kver" "$run/vmlinuz"
	cp "$root/boot/initrd.img-$kver" "$run/initrd-install.img"
	# the target disk: GPT as the installer makes it on a BIOS machine
	# (and the attacker's disk, the same layout)
	local d
	for d in disk $([ "$swap" = 0 ] || echo disk-swap); do
		rm -f "$run/$d.img"
		truncate -s "${DISK_MIB}M" "$run/$d.img"
		sfdisk -q "$run/$d.img" <<-EOF || return 1
		label: gpt
		start=1MiB, size=1MiB, type=21686148-6449-6E6F-744E-656564454649
		size=${BOOT_MIB}MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
		size=${P3_MIB}MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
		EOF
	done
	# the tree, /boot left out (p2), as an ext4 image the size of the root LV
	mv "$root/boot" "$run/boot"
	mkdir "$root/boot"
	rm -f "$run/root.img"
	mkfs.ext4 -q -F -L root -U "$root_uuid" -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 \
		-d "$root" "$run/root.img" "${ROOT_MIB}M"
	local rc=$?
	rmdir "$root/boot"
	mv "$run/boot" "$root/boot"
	[ "$rc" = 0 ] || return 1
	# the way in for the installer boot: a tar on a small disk
	mkdir -p "$run/io-in"
	echo "$luks_uuid $VG $ROOT_MIB $LUKSOPTS" >"$run/io-in/params"
	echo "$enrol $ENROLOPTS" >>"$run/io-in/params"
	echo "$clevis $ATTACKS" >>"$run/io-in/params"
	cp "$run/passphrase" "$run/passphrase-attacker" "$run/pin" "$run/io-in/"
	truncate -s 16M "$run/io.img"
	tar -cf - -C "$run/io-in" . | dd of="$run/io.img" conv=notrunc status=none
	rm -rf "$run/io-in"
}
if t_step "configure, disk, tree image" configure >"$run/image.log" 2>&1; then
	t_ok "the installer's crypttab, fstab, GPT disk; the tree as ext4 ($(elapsed "$tb") s)"
else
	t_fail "the installer's configuration and the disk" "$(tail -n 20 "$run/image.log")"
	finish
fi

rs_tpm || finish

# --- the installer boot -----------------------------------------------------------
tb=$(now)
rc=0
swapdisk=()
[ "$swap" = 0 ] || swapdisk=(--disk "$run/disk-swap.img")
t_step "boot: installer" t_boot_tries --disk "$run/disk.img" --disk "$run/root.img" --disk "$run/io.img" "${swapdisk[@]}" \
	--nested --serial A --name realsys-luks-install \
	"$run/vmlinuz" "$run/initrd-install.img" "$run/tpm" 2.0 \
	"root=/dev/vdb ro init=/usr/local/sbin/tek-realsys-install $CPU nosoftlockup" \
	"$run/boot-install" >"$run/boot-install.out" 2>&1 || rc=$?
rs_subtest "$run/boot-install"
rm -rf "$run/io-out"
mkdir -p "$run/io-out"
tar -xf "$run/io.img" -C "$run/io-out" 2>/dev/null || true
if [ -n "$ATTACKS" ]; then
	install -m 0600 "$run/io-out/volume-key" "$run/volume-key" 2>/dev/null || rc=1
	rm -f "$run/io-out/volume-key"
fi
if [ "$rc" = 0 ]; then
	t_ok "installer boot: LUKS2, LVM, the tree copied$([ $enrol = 1 ] && echo ", enrolled")$(
		[ $clevis = 1 ] && echo ", bound by clevis") ($(elapsed "$tb") s)"
else
	t_fail "installer boot" "$(cat "$run/boot-install.out")"
	finish
fi

# --- update-initramfs on the host, /boot -------------------------------------------
# The clevis variant first makes Clevis's initramfs, while the tree has no
# /etc/trusted-keys/luks yet (our hook puts nothing in then: the user who
# has Clevis only), then purges clevis-initramfs (its hook and scripts) so
# that ours below is ours alone.
# shellcheck disable=SC2317  # run through t_step
initramfs_clevis() {
	local rc=0
	rs_chroot_mounts "$root"
	rs_in_root "$root" update-initramfs -u -k "$kver" &&
		cp "$root/boot/initrd.img-$kver" "$run/initrd-clevis.img" &&
		rs_in_root "$root" lsinitramfs "/boot/initrd.img-$kver" >"$run/initrd-clevis.list" &&
		rs_in_root "$root" dpkg --no-triggers --purge clevis-initramfs || rc=1
	rs_unmount_all
	return "$rc"
}
if [ "$clevis" = 1 ]; then
	tb=$(now)
	if t_step "update-initramfs (Clevis's)" initramfs_clevis >"$run/initramfs-clevis.log" 2>&1 &&
		grep -q 'usr/bin/clevis-decrypt-tpm2$' "$run/initrd-clevis.list" &&
		grep -q 'scripts/local-top/clevis$' "$run/initrd-clevis.list" &&
		! grep -q 'trusted-keys-luks$' "$run/initrd-clevis.list"; then
		t_ok "update-initramfs -u: Clevis's initramfs (clevis-decrypt-tpm2, tpm2_unseal; not ours) ($(elapsed "$tb") s)"
	else
		t_fail "update-initramfs: Clevis's initramfs" "$(tail -n 20 "$run/initramfs-clevis.log")"
		finish
	fi
fi
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
initramfs() {
	if [ "$enrol" = 1 ]; then
		install -m 0644 "$run/io-out/trusted-keys-pin.conf" "$root/etc/modprobe.d/trusted-keys-pin.conf" &&
			install -d -m 0700 "$root/etc/trusted-keys" &&
			install -m 0600 "$run/io-out/luks" "$root/etc/trusted-keys/luks" || return 1
	fi
	rs_chroot_mounts "$root"
	rs_in_root "$root" update-initramfs -u -k "$kver" &&
		cp "$root/boot/initrd.img-$kver" "$run/initrd.img" &&
		rs_in_root "$root" lsinitramfs "/boot/initrd.img-$kver" >"$run/initrd.list" &&
		rs_in_root "$root" unmkinitramfs "/boot/initrd.img-$kver" /tmp/initrd-x
	local rc=$?
	# (main/ when there is an early archive before it)
	cat "$root"/tmp/initrd-x/main/cryptroot/crypttab "$root"/tmp/initrd-x/cryptroot/crypttab \
		>"$run/initrd.crypttab" 2>/dev/null || true
	rm -rf "$root/tmp/initrd-x"
	rs_unmount_all
	[ "$rc" = 0 ] || return 1
	# /boot: p2, the tree's /boot as ext4 with fstab's UUID
	local p2
	p2=$(sfdisk -J "$run/disk.img" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]; print(p["partitions"][1]["start"] * p.get("sectorsize", 512))')
	for d in disk $([ "$swap" = 0 ] || echo disk-swap); do
		mkfs.ext4 -q -F -L boot -U "$boot_uuid" -E "offset=$p2,nodiscard" -d "$root/boot" \
			"$run/$d.img" "${BOOT_MIB}M" || return 1
	done
}
if t_step "update-initramfs, /boot" initramfs >"$run/initramfs.log" 2>&1 &&
	grep -q "^$NAME UUID=$luks_uuid none luks,discard" "$run/initrd.crypttab" &&
	grep -q 'usr/sbin/cryptsetup$' "$run/initrd.list" &&
	! grep -q 'clevis' "$run/initrd.list"; then
	t_ok "update-initramfs -u in a chroot: cryptroot with crypttab's $NAME; /boot on p2 ($(elapsed "$tb") s)"
else
	t_fail "update-initramfs" "$(tail -n 20 "$run/initramfs.log"; cat "$run/initrd.crypttab" 2>/dev/null)"
	finish
fi

# --- the header's checksums, the disk without our token -----------------------------
tb=$(now)
p3=$(sfdisk -J "$run/disk.img" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]; print(p["partitions"][2]["start"] * p.get("sectorsize", 512))')
# shellcheck disable=SC2317  # run through t_step
sums() { # IMAGE: "header SHA256" and "lvm SHA256" of its p3
	echo "p3 $p3"
	echo "header $(dd if="$1" bs=1M iflag=skip_bytes skip="$p3" count="$LUKS_HDR_MIB" status=none | sha256sum | cut -d' ' -f1)"
	echo "lvm $(dd if="$1" bs=1M iflag=skip_bytes skip=$((p3 + LUKS_HDR_MIB * 1048576)) count=1 status=none |
		sha256sum | cut -d' ' -f1)"
}
# shellcheck disable=SC2317  # run through t_step
retoken() { # NAME [TOKEN_JSON]: disk-NAME.img, disk.img with our token removed (and TOKEN_JSON's put in)
	local loop ids id img=$run/disk-$1.img rc=0
	cp --sparse=always "$run/disk.img" "$img"
	loop=$(losetup -f --show -o "$p3" --sizelimit $((P3_MIB * 1048576)) "$img")
	cryptsetup luksDump --dump-json-metadata "$loop" >"$run/luks-metadata.json"
	# our tokens: every token not of cryptsetup's own types (luks2-keyring)
	ids=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["tokens"]
print(" ".join(k for k, v in t.items() if v.get("type") != "luks2-keyring"))' "$run/luks-metadata.json")
	[ -n "$ids" ] || { losetup -d "$loop"; echo "no token in the header"; return 1; }
	for id in $ids; do cryptsetup token remove --token-id "$id" "$loop" || rc=1; done
	[ -z "${2:-}" ] || cryptsetup token import --json-file "$2" "$loop" || rc=1
	cryptsetup luksDump "$loop" >"$run/luksdump-$1.txt"
	losetup -d "$loop"
	[ "$rc" = 0 ] && sums "$img" >"$run/disk-$1.sums"
}
# shellcheck disable=SC2317  # run through t_step
attack_disks() {
	case " $ATTACKS " in *" pin "*) retoken pin "$run/io-out/token-pin.json" || return 1 ;; esac
	[ "$swap" = 0 ] || sums "$run/disk-swap.img" >"$run/disk-swap.sums"
}
# The clevis variant: no disk-notoken.img (no row needs it), and what the
# bus scan looks for, kept 0600 in DIR/secrets: hex of the volume key,
# Clevis's JWK, its keyslot passphrase and the passphrase.
# shellcheck disable=SC2317  # run through t_step
secrets() {
	local s=$run/secrets f
	install -d -m 0700 "$s"
	(umask 077
	 cp "$run/io-out/volume-key" "$s/volume-key"
	 for f in clevis-jwk clevis-pass; do
		tr -d '\n' <"$run/io-out/$f" | od -An -tx1 | tr -d ' \n' >"$s/$f"
	 done
	 # the JWK's key alone: "k", base64url
	 sed -n 's/.*"k":"\([^"]*\)".*/\1/p' "$run/io-out/clevis-jwk" | tr -d '\n' |
		od -An -tx1 | tr -d ' \n' >"$s/clevis-jwk-k"
	 od -An -tx1 <"$run/passphrase" | tr -d ' \n' >"$s/passphrase")
	for f in volume-key clevis-jwk clevis-jwk-k clevis-pass passphrase; do
		[ -s "$s/$f" ] || { echo "no $f"; return 1; }
	done
	rm -f "$run/io-out/volume-key" "$run/io-out/clevis-jwk" "$run/io-out/clevis-pass"
	cat "$run/io-out/clevis-list"
}
if t_step "header checksums" sums "$run/disk.img" >"$run/disk.sums" 2>"$run/sums.log" &&
	{ [ "$enrol" = 0 ] || [ "$clevis" = 1 ] ||
		t_step "the disk without our token" retoken notoken >>"$run/sums.log" 2>&1; } &&
	t_step "the attack rows' disks" attack_disks >>"$run/sums.log" 2>&1 &&
	{ [ "$clevis" = 0 ] || t_step "the bus scan's secrets" secrets >>"$run/sums.log" 2>&1; }; then
	t_ok "the LUKS2 header's and LVM's checksums$([ $enrol = 1 ] && [ $clevis = 0 ] &&
		echo "; disk-notoken.img")$(for a in $ATTACKS; do printf ', disk-%s.img' "$a"; done)$(
		[ $clevis = 1 ] && echo "; the bus scan's secrets") ($(elapsed "$tb") s)"
	sed 's/^/# /' "$run/disk.sums"
else
	t_fail "the header's checksums, the attack rows' disks" "$(tail -n 20 "$run/sums.log")"
	finish
fi

# What every row's boot needs (run-all.sh adds it): the root, as for
# prepare.sh's machine; and nosoftlockup: a TCG guest on a loaded host
# (several boots on two cores) stalls in the crypto self-tests of -cpu
# max's AVX2 code for tens of seconds, which the watchdog reports as a
# soft lockup that a user's CPU never shows (seen on trixie's 6.12).
echo "root=/dev/mapper/$MVG-root ro panic_on_warn=0 nosoftlockup" >"$run/cmdline"
guest=realsys-luks
[ "$rel" = bookworm ] || guest=realsys-luks13
echo "$run/vmlinuz $run/initrd.img $kver - $guest" >"$run/machine"
log "realsys-luks ($rel): prepared in $(elapsed "$t0") s"
finish
