#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real system on Debian's real boot chain: UEFI firmware in Secure Boot
# mode (OVMF, Microsoft's keys), Debian's signed shim, signed GRUB and
# signed kernel, all from Debian's archive, and a swtpm TPM 2.0 that the
# firmware, shim and GRUB measure into. No -kernel: the firmware boots the
# disk. Root: chroot, loop mounts (sudo -n when not root).
#
# usage: uefi.sh DIR [RELEASE]   (bookworm, the default, or trixie)
#
# 1. base.sh RELEASE, a copy of it, and in a chroot `apt-get install
#    shim-signed grub-efi-amd64-signed mokutil openssl` (shim's and GRUB's
#    signed EFI binaries; the kernel is the base's linux-image-*-amd64,
#    Debian's signed one), then our packages (make deb): DKMS builds
#    trusted.ko for that kernel and signs it with the key it makes,
#    /var/lib/dkms/mok.key (modinfo -F signer checked; a copy without the
#    signature in the tree for the guest: rs_dkms_signed);
# 2. the disk as a Debian installation on a UEFI machine has it: GPT, p1 the
#    EFI system partition (FAT, 64 MiB: EFI/BOOT/BOOTX64.EFI = shim,
#    EFI/BOOT/grubx64.efi, mmx64.efi, EFI/debian/grub.cfg, the stub
#    grub-install writes, which loads /boot/grub/grub.cfg), p2 the root
#    (ext4, mkfs.ext4 -d of the tree); /boot/grub/grub.cfg as update-grub
#    writes it for one kernel (written here: grub-mkconfig cannot probe a
#    chroot's root device). Shim's removable path: no boot entry needed in
#    the firmware's variables, and no fallback (fbx64.efi, which would
#    write one and reset);
# 3. the suite realsys-uefi's check (tests/guest/realsys-uefi/10-boot.sh)
#    as tek-realsys-check.service;
# 4. a TPM 2.0 (provision.sh), a copy of OVMF_VARS_4M.ms.fd with DKMS's
#    certificate in shim's MokList (rs_add_mok: what MokManager would
#    enrol), and a boot (boot.sh --uefi): Secure Boot on, the event log and
#    the PCRs saved to DIR/boot1/state/; the guest loads our module (locked
#    down, the MOK in the kernel's keyring, the unsigned copy refused, a
#    trusted key sealed and loaded);
# 5. on the host: tools/tk-pcr-predict replays the event log (each
#    replayed PCR equals the PCR the booted system read) and predicts the
#    boot's PCRs 4, 7, 8, 9 from the disk's files;
# 6. the update: apt-get install of a newer signed kernel and its headers
#    (DKMS builds and signs for it; checked as for the first) in a chroot of
#    the tree, grub.cfg with both kernels, the root written again; boot 2's
#    PCRs predicted from boot 1's log and the new files, then boot 2, whose
#    PCRs must equal the prediction, PCR by PCR;
# 7. the signing hooks in that update: before it, the tree gets what the
#    package and trusted-keys-sign init install (trusted-keys-sign, the
#    kernel, initramfs and apt hooks, trusted-policy, tk-pcr-predict, a
#    signer key, /etc/trusted-keys/signing) and a plain volume's blob sealed
#    to that signer (a TPMKey made here: no TPM in the chroot, so no
#    counter), boot 1's event log saved in the tree (the chroot has no
#    securityfs; its /sys/firmware/efi is the host's: efivars none), the
#    ESP's files at /boot/efi, and in place of
#    zz-update-grub (which cannot probe a chroot) a hook that writes
#    grub.cfg the way write_grubcfg does; apt-get install then runs the
#    hooks as it would in the system: zzz-trusted-keys approves the next
#    boot into the blob. After boot 2: the approval's PCR values (and its
#    PolicyPCR digest in the blob) are the PCRs boot 2 read, PCR by PCR,
#    and in boot 2 the TPM unseals a secret sealed to the signer with that
#    approval (its signature and signer taken from the blob, in
#    /var/lib/tek-approval: the guest check's point 6).
#
# Writes DIR/disk.img, DIR/tpm, DIR/vars.fd (the machine), DIR/boot1/,
# DIR/boot2/ (the boots' output; state/: the log and PCRs), DIR/next/,
# DIR/next2/ (the files each boot loads: esp/, root/boot/),
# DIR/predictN.txt, DIR/manifestN.json (the digests the prediction read:
# the unit test's fixtures, tests/tools/pcr-predict/), DIR/times.
# Environment: TKH_BOOT_TIMEOUT (s, default 900), TKH_REALSYS_UEFI_KERNEL
# (the update's package, default linux-image-6.12-amd64; its headers
# package: linux-headers- with the rest of its name), TKH_REALSYS_DEB.
# Output: a KTAP document (the boot's guest results as its subtest); exit 0
# only when nothing failed.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=uefi-lib.sh
. "$(dirname "$0")/uefi-lib.sh"
uefi_args uefi.sh "$@"
export TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-900}

ESP_MIB=64
ROOT_MIB=3072
# (python3: tk-pcr-predict's interpreter, for the update's hooks; openssl:
# DKMS makes its signing key with it, and builds unsigned modules without)
PKGS="shim-signed grub-efi-amd64-signed grub-efi-amd64-bin mokutil python3 openssl"
PLAN=20
# the update: a newer signed kernel: bookworm has 6.12 beside 6.1; trixie's
# newer one is in trixie-backports (a sources line added for it)
NEWSOURCE=
NEWKERNEL=linux-image-6.12-amd64
if [ "$rel" = trixie ]; then
	NEWSOURCE="deb ${TKH_REALSYS_MIRROR:-http://deb.debian.org/debian} trixie-backports main"
	NEWKERNEL="-t trixie-backports linux-image-amd64"
fi
NEWKERNEL=${TKH_REALSYS_UEFI_KERNEL:-$NEWKERNEL}
# and its headers, for DKMS: the image package's name with linux-headers-
NEWHEADERS=${NEWKERNEL##* }
NEWHEADERS=linux-headers-${NEWHEADERS#linux-image-}

mkdir -p "$1"
run=$(cd "$1" && pwd)
rm -rf "$run/disk.img" "$run/tpm" "$run/vars.fd" "${run:?}"/boot*
: >"$run/times"
finish() { rs_finish "$run/root" "$run/esp.img"; }
rs_start "$PLAN"
rs_base "$rel" || finish
root=$run/root
rs_deb || finish

# --- the boot chain's packages ---------------------------------------------------
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
packages() {
	rm -rf --one-file-system "$root"
	cp -a "$base" "$root"
	rm -f "$root/.done"
	rs_chroot_mounts "$root"
	# shellcheck disable=SC2086  # the list
	rs_in_root "$root" apt-get update &&
		rs_in_root "$root" apt-get install -y --no-install-recommends $PKGS || return 1
	# our packages (DKMS builds and signs for the base's kernel, whose
	# headers the base has), after openssl: DKMS makes its key with it
	local d in=()
	for d in "${debs[@]}"; do
		cp "$d" "$root/tmp/"
		in+=("/tmp/${d##*/}")
	done
	rs_in_root "$root" apt-get install -y --no-install-recommends "${in[@]}" &&
		(cd "$root/tmp" && rm -f "${in[@]##*/}")
}
debnames=$(for d in "${debs[@]}"; do printf ' ./%s' "${d##*/}"; done)
kver=$(basename "$(ls -d "$base"/lib/modules/*)")
if t_step "apt-get install $PKGS" packages >"$run/packages.log" 2>&1 &&
	[ -f "$root/usr/lib/shim/shimx64.efi.signed" ] &&
	[ -f "$root/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed" ]; then
	t_ok "apt-get install $PKGS;$debnames; kernel $kver ($(elapsed "$tb") s)"
else
	t_fail "apt-get install $PKGS;$debnames" "$(tail -n 20 "$run/packages.log")"
	finish
fi
rs_unmount_all
if msg=$(rs_dkms_signed "$root" "$kver" 2>&1); then
	t_ok "DKMS built trusted.ko for $kver: $msg"
else
	t_fail "DKMS built and signed trusted.ko for $kver" "$msg"
fi

# --- the disk ---------------------------------------------------------------------
tb=$(now)
root_uuid=$(cat /proc/sys/kernel/random/uuid)
esp_id=$(od -An -tx1 -N4 /dev/urandom | tr -d ' \n' | tr a-f A-F)
esp_uuid=${esp_id:0:4}-${esp_id:4:4}
# shellcheck disable=SC2317  # run through t_step
disk() {
	echo realsys-uefi >"$root/etc/hostname"
	cat >"$root/etc/fstab" <<-EOF
	# <file system> <mount point>   <type>  <options>       <dump>  <pass>
	UUID=$root_uuid /               ext4    errors=remount-ro 0       1
	UUID=$esp_uuid  /boot/efi       vfat    umask=0077      0       1
	EOF
	mkdir -p "$root/boot/efi"
	# /etc/default/grub's command line, for update-grub in the system
	sed -i "s|^GRUB_CMDLINE_LINUX_DEFAULT=.*|GRUB_CMDLINE_LINUX_DEFAULT=\"console=ttyS0 no_timer_check nosoftlockup\"|" \
		"$root/etc/default/grub" 2>/dev/null || true
	write_grubcfg "$kver"
	rs_check_service "$root" "$TKH_TOP/tests/guest/realsys-uefi/10-boot.sh" \
		"tests/guest/realsys-uefi: the boot chain's measurements" || return 1
	# root logs in on the console without a password (a test machine)
	rs_in_root "$root" passwd -d root >/dev/null
	uefi_esp || return 1
	echo "$root_uuid" >"$run/root-uuid"
	uefi_disk "$run/disk.img"
}
if t_step "disk: ESP, root" disk >"$run/disk.log" 2>&1; then
	t_ok "GPT disk: ESP (shim, GRUB as EFI/BOOT), root ext4 with grub.cfg ($(elapsed "$tb") s)"
else
	t_fail "the disk" "$(tail -n 20 "$run/disk.log")"
	finish
fi

# --- the machine: a TPM, the firmware's variables ------------------------------------
if "$TKH_QEMU/provision.sh" 2.0 "$run/tpm" >"$run/tpm.log" 2>&1 &&
	cp "$OVMF_VARS" "$run/vars.fd"; then
	t_ok "a TPM 2.0; OVMF's variables with Microsoft's keys ($(basename "$OVMF_VARS"))"
else
	t_fail "TPM, variables" "$(tail -n 20 "$run/tpm.log")"
	finish
fi
# DKMS's certificate as a MOK: what mokutil --import and MokManager at the
# console would enrol, written into the variables before the first boot
if rs_add_mok "$run/vars.fd" "$root/var/lib/dkms/mok.pub" >"$run/mok.log" 2>&1; then
	t_ok "DKMS's certificate (/var/lib/dkms/mok.pub) in shim's MokList in the variables (ovmf-vars.py)"
	sed 's/^/# /' "$run/mok.log"
else
	t_fail "DKMS's certificate in shim's MokList" "$(cat "$run/mok.log")"
	finish
fi

# --- the boots -------------------------------------------------------------------------
# Boot 1: the installed system. Its PCRs predicted from its own files (the
# prediction's every input is the disk's; the log only for the firmware's
# events).
boot_check 1 || finish
boot1_s=$boot_s
if predict 1 "$run/boot1/state/eventlog.bin" "$run/next"; then
	compare 1 " from the disk's files and boot 1's log"
else
	t_fail "boot 1: PCRs 4, 7, 8, 9 predicted" "$(cat "$run/predict1.txt")"
fi

# --- the update: a newer kernel by apt, then boot 2 as predicted ---------------------------
# On the host, in a chroot of the tree, as apt would in the system: the
# newer signed kernel (initramfs-tools' hook makes its initrd); grub.cfg
# with it as the default entry and both kernels under "Advanced options"
# (update-grub's layout; its postinst hook is set aside in the chroot, which
# it cannot probe). Then boot 2's PCRs predicted from boot 1's log and the
# disk's new files, before boot 2, and compared after it.
tb=$(now)
# newest_other: the newest kernel release in the tree other than $kver
newest_other() {
	local d
	for d in "$root"/lib/modules/*; do
		[ "${d##*/}" = "$kver" ] || echo "${d##*/}"
	done | sort -V | tail -n 1
}
# signing_setup: in the tree (the packages installed), what trusted-keys-sign init
# makes, a plain volume's blob sealed to the signer, boot 1's log, the
# ESP's files at /boot/efi, and zz-update-grub's stand-in (write_grubcfg).
# shellcheck disable=SC2317,SC2016  # run through update; $1 in the hook
signing_setup() {
	# (trusted-keys-sign, its hooks and the tools are the packages'; the
	# host's trusted-policy computes what the checks compare)
	make -s -C "$TKH_TOP/tools" trusted-policy || return 1
	install -d -m 0700 "$root/etc/trusted-keys" "$root/var/lib/trusted-keys"
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
		-out "$root/etc/trusted-keys/signer.pem" 2>/dev/null || return 1
	chmod 0600 "$root/etc/trusted-keys/signer.pem"
	cp "$run/boot1/state/eventlog.bin" "$root/var/lib/trusted-keys/boot1.eventlog"
	cat >"$root/etc/trusted-keys/signing" <<-EOF
	signer /etc/trusted-keys/signer.pem
	pcrs 0,2,4,7,8,9
	counter none
	keep 4
	predict --part hd0,gpt1=/boot/efi --part hd0,gpt2=/ --uuid $root_uuid=hd0,gpt2
	eventlog /var/lib/trusted-keys/boot1.eventlog
	efivars none
	blob /etc/trusted-keys/demo.blob
	EOF
	chmod 0600 "$root/etc/trusted-keys/signing"
	python3 "$TKH_TOP/tests/tools/mktpmkey.py" \
		"$("$TKH_TOP/tools/trusted-policy" authorize --signer "$root/etc/trusted-keys/signer.pem")" \
		>"$root/etc/trusted-keys/demo.blob" || return 1
	chmod 0600 "$root/etc/trusted-keys/demo.blob"
	mkdir -p "$root/boot/efi"
	cp -a "$run/next/esp/." "$root/boot/efi/"
	{
		echo '#!/bin/bash'
		echo '# zz-update-grub in this test: grub.cfg as tests/realsys/uefi.sh writes it'
		echo "root= root_uuid=$root_uuid"
		declare -f write_grubcfg
		echo "write_grubcfg \"\$1\" $kver"
	} >"$root/etc/kernel/postinst.d/zz-update-grub"
	chmod 0755 "$root/etc/kernel/postinst.d/zz-update-grub"
}
# approval_files: for boot 2's check, the newest approval of the blob (its
# signer's TPM2B_PUBLIC and TPMT_SIGNATURE, read from the TPMKey's authPolicy
# [3]), the approved policy computed from the values the hook recorded, the
# authPolicy to seal to, in /var/lib/tek-approval.
# shellcheck disable=SC2317  # run through update
approval_files() {
	local ad=$root/var/lib/tek-approval tp=$TKH_TOP/tools/trusted-policy
	mkdir -p "$ad"
	python3 - "$root/etc/trusted-keys/demo.blob" "$ad" <<-'PY' || return 1
	import sys
	def tlv(b, i):
	    t, n = b[i], b[i + 1]
	    i += 2
	    if n & 0x80:
	        k = n & 0x7f
	        n = int.from_bytes(b[i:i + k], "big")
	        i += k
	    return t, b[i:i + n], i + n
	def items(b):
	    i, out = 0, []
	    while i < len(b):
	        t, v, i = tlv(b, i)
	        out.append((t, v))
	    return out
	key = bytes.fromhex(open(sys.argv[1]).read().strip())
	top = dict((t, v) for t, v in items(tlv(key, 0)[1]) if t & 0xe0 == 0xa0)
	first = items(items(top[0xa3])[0][1])[0][1]          # the newest TPMAuthPolicy
	policy = dict(items(first))[0xa1]                    # [1] SEQUENCE OF TPMPolicy
	for _, p in items(items(policy)[0][1]):
	    f = dict(items(p))
	    cc = int.from_bytes(items(f[0xa0])[0][1], "big")
	    body = items(f[0xa1])[0][1]
	    if cc == 0x16a:
	        n = int.from_bytes(body[:2], "big")
	        pub, rest = body[:2 + n], body[2 + n:]
	        r = int.from_bytes(rest[:2], "big")
	        open(sys.argv[2] + "/signer.pub", "wb").write(pub)
	        open(sys.argv[2] + "/sig.bin", "wb").write(rest[2 + r:])
	        sys.exit(0)
	sys.exit("no PolicyAuthorize in the newest approval")
	PY
	"$tp" authorize --signer "$root/etc/trusted-keys/signer.pem" | xxd -r -p >"$ad/auth.bin"
	sed -n 's/ # .*//; s/^boot-1 1 //p' "$root/etc/trusted-keys/approvals" | tr ' ' '\n' | tr '=' ' ' >"$ad/values"
	# PolicyPCR, then PolicyCommandCode(Unseal) as trusted-policy add signs
	# it: SHA-256(the digest || TPM_CC_PolicyCommandCode || TPM_CC_Unseal)
	{ "$tp" pcr-digest --pcrs sha256:0,2,4,7,8,9 --pcr-values "$ad/values" | xxd -r -p
	  printf '\000\000\001\154\000\000\001\136'; } | sha256sum | cut -c1-64 | xxd -r -p >"$ad/approved.bin"
	echo sha256:0,2,4,7,8,9 >"$ad/pcrs"
	[ -s "$ad/approved.bin" ] && [ -s "$ad/sig.bin" ] && [ -s "$ad/auth.bin" ]
}
# shellcheck disable=SC2317  # run through t_step
update() {
	local hook=$root/etc/kernel/postinst.d/zz-update-grub
	rs_chroot_mounts "$root"
	[ ! -e "$hook" ] || mv "$hook" "$run/zz-update-grub"
	signing_setup || return 1
	if [ -n "$NEWSOURCE" ]; then
		echo "$NEWSOURCE" >"$root/etc/apt/sources.list.d/tek-update.list"
		rs_in_root "$root" apt-get update
	fi
	# shellcheck disable=SC2086  # options and the packages, word by word
	rs_in_root "$root" apt-get install -y --no-install-recommends $NEWKERNEL $NEWHEADERS
	local rc=$?
	[ ! -e "$run/zz-update-grub" ] || mv "$run/zz-update-grub" "$hook"
	# the hook's time: trusted-keys-sign once more, as the hooks run it
	local ts
	ts=$(now)
	rs_in_root "$root" /usr/sbin/trusted-keys-sign sign --force >"$run/sign-time.log" 2>&1 || true
	echo "sign $(elapsed "$ts")" >>"$run/times"
	rm -rf "${root:?}/boot/efi/"*
	rs_unmount_all
	[ "$rc" = 0 ] || return 1
	approval_files || return 1
	kver2=$(newest_other)
	[ -n "$kver2" ] && [ -f "$root/boot/initrd.img-$kver2" ] || return 1
	# DKMS's module for the new kernel (a test point after this), and its
	# unsigned copy in the tree before the root is written
	rs_dkms_signed "$root" "$kver2" >"$run/dkms2.txt" 2>&1 && echo ok >>"$run/dkms2.txt"
	write_grubcfg "$kver2" "$kver"
	root_fs "$run/disk.img" || return 1
	rm -rf "$run/next2"
	mkdir -p "$run/next2/root"
	cp -a "$run/next/esp" "$run/next2/"
	cp -a "$root/boot" "$run/next2/root/"
}
kver2=
if t_step "apt-get install $NEWKERNEL $NEWHEADERS" update >"$run/update.log" 2>&1; then
	kver2=$(newest_other)
	t_ok "the update: apt-get install $NEWKERNEL $NEWHEADERS ($kver2), grub.cfg with both kernels ($(elapsed "$tb") s)"
else
	t_fail "the update: apt-get install $NEWKERNEL $NEWHEADERS" "$(tail -n 20 "$run/update.log")"
	finish
fi
if [ "$(tail -n 1 "$run/dkms2.txt")" = ok ]; then
	t_ok "DKMS built trusted.ko for $kver2 in the update: $(head -n 1 "$run/dkms2.txt")"
else
	t_fail "DKMS built and signed trusted.ko for $kver2" "$(cat "$run/dkms2.txt")"
fi
tb=$(now)
if predict 2 "$run/boot1/state/eventlog.bin" "$run/next2"; then
	t_ok "boot 2's PCRs 4, 7, 8, 9 predicted from boot 1's log and the new files ($(elapsed "$tb") s)"
	sed 's/^/# /' "$run/predict2.txt" | grep -v '^# # '
else
	t_fail "boot 2's PCRs predicted" "$(cat "$run/predict2.txt")"
fi
boot_check 2 || finish
if [ "$(cat "$run/boot2/state/release" 2>/dev/null)" = "$kver2" ]; then
	t_ok "boot 2 runs the new kernel $kver2"
else
	t_fail "boot 2 runs the new kernel $kver2" "it runs $(cat "$run/boot2/state/release" 2>/dev/null)"
fi
compare 2 " before it, from boot 1's log and the updated disk"

# The hooks in the update: what apt ran, and the approval against boot 2.
if grep -q "trusted-keys: the next boot is approved (boot-1, PCRs 0,2,4,7,8,9) for 1 volume(s) (after kernel $kver2)" \
	"$run/update.log"; then
	t_ok "apt-get install ran the hooks: zzz-trusted-keys (after zz-update-grub) approved the next boot ($(grep -c '^trusted-keys:' "$run/update.log") trusted-keys lines; signing: $(sed -n 's/^sign //p' "$run/times") s)"
	grep '^trusted-keys:' "$run/update.log" | sed 's/^/# /'
else
	t_fail "apt-get install ran the hooks" "$(grep -i 'trusted-keys\|postinst.d\|post-update' "$run/update.log")"
fi
# approved: the approval's values against boot 2's PCRs; its PolicyPCR's
# pcrDigest (SHA-256 of the values in PCR order) in the blob
approved() {
	local line p v got bad=0 vals=''
	line=$(sed -n 's/ # .*//; s/^boot-1 1 //p' "$root/etc/trusted-keys/approvals") || return 1
	[ -n "$line" ] || { echo "no approval boot-1"; return 1; }
	for p in 0 2 4 7 8 9; do
		v=$(echo "$line" | tr ' ' '\n' | sed -n "s/^$p=//p")
		got=$(awk -v n="$p" '$1 == n { print tolower($2) }' "$run/boot2/state/pcrs.sysfs")
		echo "PCR $p approved ${v:0:16} read ${got:0:16} $([ "$v" = "$got" ] && echo ok || echo DIFFERS)"
		[ "$v" = "$got" ] || bad=1
		vals=$vals$got
	done
	v=$(echo "$vals" | xxd -r -p | sha256sum | cut -c1-64)
	grep -q "$v" "$root/etc/trusted-keys/demo.blob" || { echo "the blob has no PolicyPCR over $v"; bad=1; }
	return $bad
}
if grep -q "^ok 6 the TPM unseals with the update hook's approval (sha256" "$run/boot2/results.ktap" 2>/dev/null; then
	t_ok "boot 2: the TPM unseals a secret sealed to the signer with the hook's approval (VerifySignature, PolicyPCR, PolicyCommandCode(Unseal), PolicyAuthorize)"
else
	t_fail "boot 2: the TPM unseals with the hook's approval" "$(grep ' 6 ' "$run/boot2/results.ktap" 2>/dev/null)"
fi
if approved >"$run/approved.txt" 2>&1; then
	t_ok "boot 2: the hook's approval is the PCRs boot 2 read (0, 2, 4, 7, 8, 9; the blob's PolicyPCR digest too)"
	sed 's/^/# /' "$run/approved.txt"
else
	t_fail "boot 2: the hook's approval is the PCRs boot 2 read" "$(cat "$run/approved.txt")"
fi
log "realsys-uefi: $(elapsed "$t0") s (boots: $boot1_s s, $boot_s s)"
finish
