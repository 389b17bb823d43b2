#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A LUKS2 volume opened by our module on Debian's real Secure Boot chain,
# with a signed policy that follows a kernel update, and the boots that
# must ask for the passphrase: the old kernel from GRUB's menu after
# revoke-older, and a command line typed at GRUB's prompt. The machine of
# uefi.sh (OVMF with Microsoft's keys, Debian's signed shim, GRUB and
# kernel, swtpm TPM 2.0), with our package installed and DKMS's MOK key in
# shim's MokList. Root: chroot, loop mounts (sudo -n when not root).
#
# usage: uefi-luks.sh DIR [RELEASE]   (bookworm, the default, or trixie)
#
# 1. the base, our packages (DKMS builds and signs trusted.ko with its MOK
#    key; trusted-keys-tools: trusted-policy, tk-pcr-predict), shim, GRUB, cryptsetup-initramfs, tpm2-tools; the newer kernel
#    and its headers downloaded into /var/cache/tek-update (the machine has
#    no network: the update installs them from there); grub.cfg as
#    uefi.sh writes it, with the menu shown for 5 s (Debian's default,
#    and the user's keys need it), and its stand-in hook for update-grub;
#    a passphrase in /root/tek-passphrase;
# 2. the disk: p1 the ESP, p2 the root, p3 empty (stage 1 makes the LUKS2
#    volume there, as a user with a disk would have it); the live
#    system's disk;
# 3. a TPM 2.0 with both SRKs, the variable store with DKMS's certificate
#    in MokList (tests/realsys/ovmf-vars.py add-mok);
# 4. the boots, each running tests/guest/realsys-uefi-luks/10-luks.sh's
#    next stage: boot 1 enrols; boot 2 opens the volume with no prompt and
#    installs the newer kernel (its hooks approve boot 3); boot 3, the new
#    kernel, opens it with no prompt and revokes the older approvals (then
#    puts the token of before back, as a copy of the header would); boot
#    4 is the old kernel, chosen in GRUB's menu (keys typed on the
#    console): the TPM refuses the revoked approval, the passphrase prompt,
#    the passphrase typed; boot 5: at
#    GRUB's prompt the new kernel with init=/bin/sh: the passphrase prompt
#    again. After boots 2 and 3: the approval the hook signed before it
#    is the PCRs it read, PCR by PCR; after boot 4, the revoked approval
#    of the old kernel's menu entry is. Boot 6: a live system on the
#    machine (tests/guest/realsys-uefi-luks/20-live.sh, from a disk of its
#    own with the same signed chain) cannot open the volume.
#
# Writes DIR/disk.img, DIR/live.img, DIR/tpm, DIR/vars.fd (the machine),
# DIR/bootN/ (the boots' output; state/: the log, PCRs, approvals),
# DIR/times.
# Environment: TKH_BOOT_TIMEOUT (s, default 1800), TKH_REALSYS_UEFI_KERNEL
# (the update's packages, default linux-image-6.12-amd64 and its headers).
# Output: a KTAP document; exit 0 only when nothing failed.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=uefi-lib.sh
. "$(dirname "$0")/uefi-lib.sh"
uefi_args uefi-luks.sh "$@"
export TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-1800}

ESP_MIB=64
ROOT_MIB=3072
LUKS_MIB=64
GRUB_MENU="menu 5"
PKGS="shim-signed grub-efi-amd64-signed grub-efi-amd64-bin mokutil python3 cryptsetup cryptsetup-initramfs tpm2-tools keyutils openssl"
PLAN=31
NEWSOURCE=
NEWKERNEL="linux-image-6.12-amd64 linux-headers-6.12-amd64"
if [ "$rel" = trixie ]; then
	NEWSOURCE="deb ${TKH_REALSYS_MIRROR:-http://deb.debian.org/debian} trixie-backports main"
	NEWKERNEL="-t trixie-backports linux-image-amd64 linux-headers-amd64"
fi
NEWKERNEL=${TKH_REALSYS_UEFI_KERNEL:-$NEWKERNEL}

mkdir -p "$1"
run=$(cd "$1" && pwd)
rm -rf "$run/disk.img" "$run/live.img" "$run/tpm" "$run/vars.fd" "${run:?}"/boot*
: >"$run/times"
finish() { rs_finish "$run/root" "$run/esp.img" "$run/live-root" "$run/live-esp.img"; }
rs_start "$PLAN"
rs_deb || finish
rs_base "$rel" || finish
root=$run/root
rs_pkgs=$PKGS
rs_install "$root" || finish

# --- the chain's packages, the update's, the configuration --------------------------
tb=$(now)
root_uuid=$(cat /proc/sys/kernel/random/uuid)
esp_id=$(od -An -tx1 -N4 /dev/urandom | tr -d ' \n' | tr a-f A-F)
esp_uuid=${esp_id:0:4}-${esp_id:4:4}
# shellcheck disable=SC2317,SC2016  # run through t_step; $1 in the hook
system() {
	local cache=/var/cache/tek-update
	rs_dkms_signed "$root" "$kver" || return 1
	if [ -n "$NEWSOURCE" ]; then
		echo "$NEWSOURCE" >"$root/etc/apt/sources.list.d/tek-update.list"
		rs_in_root "$root" apt-get update || return 1
	fi
	mkdir -p "$root$cache/partial"
	# shellcheck disable=SC2086  # options and the packages, word by word
	rs_in_root "$root" apt-get install -y --no-install-recommends --download-only \
		-o Dir::Cache::archives=$cache $NEWKERNEL || return 1
	rm -rf "$root$cache/partial" "$root$cache/lock"
	rm -f "$root/etc/apt/sources.list.d/tek-update.list"
	echo realsys-uefi-luks >"$root/etc/hostname"
	cat >"$root/etc/fstab" <<-EOF
	# <file system> <mount point>   <type>  <options>       <dump>  <pass>
	UUID=$root_uuid /               ext4    errors=remount-ro 0       1
	UUID=$esp_uuid  /boot/efi       vfat    umask=0077      0       1
	EOF
	mkdir -p "$root/boot/efi"
	write_grubcfg "$kver"
	# update-grub cannot be what the predictor reads here: its stand-in
	# writes grub.cfg as write_grubcfg does, the newest kernel first
	{
		echo '#!/bin/bash'
		echo '# zz-update-grub in this test: grub.cfg as tests/realsys/uefi-luks.sh writes it'
		echo "root= root_uuid=$root_uuid GRUB_MENU='$GRUB_MENU'"
		declare -f write_grubcfg
		echo 'write_grubcfg $(ls /boot/vmlinuz-* | sed "s|^/boot/vmlinuz-||" | sort -rV)'
	} >"$root/etc/kernel/postinst.d/zz-update-grub"
	chmod 0755 "$root/etc/kernel/postinst.d/zz-update-grub"
	install -m 0600 /dev/null "$root/root/tek-passphrase"
	printf '%s' "uefi-luks $(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')" >"$root/root/tek-passphrase"
	cp "$root/root/tek-passphrase" "$run/passphrase"
	rs_check_service "$root" "$TKH_TOP/tests/guest/realsys-uefi-luks/10-luks.sh" \
		"tests/guest/realsys-uefi-luks: a LUKS2 volume on the Secure Boot chain" || return 1
	rs_in_root "$root" passwd -d root >/dev/null
	# the initramfs images the machine makes (update-initramfs in boots 1
	# and 2): this machine's modules only, as many users have it; with
	# MODULES=most mkinitramfs takes many minutes under TCG
	sed -i 's/^MODULES=.*/MODULES=dep/' "$root/etc/initramfs-tools/initramfs.conf"
	cp "$root/var/lib/dkms/mok.pub" "$run/mok.der"
}
if t_step "the system" system >"$run/system.log" 2>&1; then
	t_ok "apt-get install $PKGS; the update's packages in /var/cache/tek-update ($(find "$root/var/cache/tek-update" -name '*.deb' | wc -l) .debs); grub.cfg ($(elapsed "$tb") s)"
else
	t_fail "the system" "$(tail -n 20 "$run/system.log")"
	finish
fi
rs_unmount_all

# --- the disk, the TPM, the variables ---------------------------------------------
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
disk() {
	uefi_esp && uefi_disk "$run/disk.img" "$LUKS_MIB"
}
if t_step "disk" disk >"$run/disk.log" 2>&1; then
	t_ok "GPT disk: ESP (shim, GRUB), root ext4, p3 for the volume ($(elapsed "$tb") s)"
else
	t_fail "the disk" "$(tail -n 20 "$run/disk.log")"
	finish
fi
# The live system: a disk of its own (a copy of the tree before any boot:
# Debian's same signed chain, our packages; its own root UUID and ESP),
# whose check is the attacker's (tests/guest/realsys-uefi-luks/20-live.sh).
tb=$(now)
# shellcheck disable=SC2317  # run through t_step
live() {
	# (locals: write_grubcfg, uefi_esp and root_fs see the live disk's)
	local lr=$run/live-root
	local root=$lr root_uuid esp_id
	root_uuid=$(cat /proc/sys/kernel/random/uuid)
	esp_id=$(od -An -tx1 -N4 /dev/urandom | tr -d ' \n' | tr a-f A-F)
	rm -rf --one-file-system "$lr"
	cp -a "$run/root" "$lr"
	echo live >"$lr/etc/hostname"
	rs_check_service "$lr" "$TKH_TOP/tests/guest/realsys-uefi-luks/20-live.sh" \
		"tests/guest/realsys-uefi-luks: the attacker's live system" || return 1
	cat >"$lr/etc/fstab" <<-EOF
	UUID=$root_uuid /               ext4    errors=remount-ro 0       1
	UUID=${esp_id:0:4}-${esp_id:4:4}  /boot/efi       vfat    umask=0077      0       1
	EOF
	write_grubcfg "$kver"
	uefi_esp || return 1
	uefi_disk "$run/live.img" || return 1
	rm -rf --one-file-system "$lr"
}
if t_step "live" live >"$run/live.log" 2>&1; then
	t_ok "the live system's disk: ESP (the same shim, GRUB), a root of its own ($(elapsed "$tb") s)"
else
	t_fail "the live system's disk" "$(tail -n 20 "$run/live.log")"
	finish
fi
rs_tpm || finish
if cp "$OVMF_VARS" "$run/vars.fd" &&
	rs_add_mok "$run/vars.fd" "$run/mok.der" >"$run/vars.log" 2>&1; then
	t_ok "OVMF's variables ($(basename "$OVMF_VARS")) with DKMS's certificate in MokList"
else
	t_fail "OVMF's variables with MokList" "$(cat "$run/vars.log")"
	finish
fi

# --- the boots ---------------------------------------------------------------------
# The user at the console: the passphrase at cryptroot's prompt (so that a
# boot that should not ask still ends, its prompt recorded); the keys of
# boots 4 and 5 in GRUB's menu.
ask=(--console-expect "Please unlock disk" --console-answer "$run/passphrase")
# console_ok N WHAT TEXT: boot N's console has TEXT; a test point
console_has() {
	if grep -qF -- "$3" "$run/boot$1/console.log" 2>/dev/null; then
		t_ok "boot $1: $2"
		grep -F -- "$3" "$run/boot$1/console.log" | head -n 3 | tr -d '\r' | sed 's/^/# /'
	else
		t_fail "boot $1: $2" "$(grep -a 'trusted-keys' "$run/boot$1/console.log" 2>/dev/null | tr -d '\r')"
	fi
}
# prompts N COUNT: boot N saw COUNT passphrase prompts; a test point
prompts() {
	local got
	got=$(grep -c 'Please unlock disk' "$run/boot$1/prompts" 2>/dev/null || true)
	if [ "${got:-0}" = "$2" ]; then
		t_ok "boot $1: $2 passphrase prompt(s) ${3:-}"
	else
		t_fail "boot $1: $2 passphrase prompt(s) ${3:-}" "$(cat "$run/boot$1/prompts" 2>/dev/null)"
	fi
}
# approved N FROM [KERNEL]: the approval the hooks signed in boot FROM for
# boot N is the PCRs boot N read, PCR by PCR: the default entry's of the
# last signing run (boot-B; approvals: "NAME BOUND N=HEX... # PATH<TAB>
# SHA-256<TAB>TITLE", appended), or with KERNEL the run's approval of the
# menu entry "..., with Linux KERNEL" (boot-B.K)
approved() {
	local apf=$run/boot$2/state/approvals pcf=$run/boot$1/state/pcrs.sysfs
	if python3 - "$apf" "$pcf" "${3:-}" >"$run/approved$1.txt" 2>&1 <<-'PY'
	import re, sys
	lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.strip()]
	runs = [l for l in lines if re.match(r"^boot-[0-9]+ ", l)]
	last = runs[-1].split()[0]
	if sys.argv[3]:
	    pick = [l for l in lines if l.startswith(last + ".") and
	            l.split("\t")[-1].endswith("with Linux " + sys.argv[3])]
	else:
	    pick = [runs[-1]]
	if len(pick) != 1:
	    sys.exit("no single approval in %s for %s" % (last, sys.argv[3] or "the default"))
	words = pick[0].split(" # ")[0].split()
	vals = dict(x.split("=") for x in words[2:])
	read = dict(l.split() for l in open(sys.argv[2]))
	bad = [n for n in vals if vals[n].lower() != read[n].lower()]
	print("approval %s (bound %s)" % (words[0], words[1]))
	for n in sorted(vals, key=int):
	    print("PCR %s approved %s read %s %s" % (n, vals[n][:16], read[n].lower()[:16],
	                                             "DIFFERS" if n in bad else "ok"))
	sys.exit(1 if bad or not vals else 0)
	PY
	then
		t_ok "boot $1: the approval boot $2 signed ${3:+for the menu entry of $3 }is the PCRs it read"
		sed 's/^/# /' "$run/approved$1.txt"
	else
		t_fail "boot $1: the approval boot $2 signed ${3:+for the menu entry of $3 }is the PCRs it read" \
			"$(cat "$run/approved$1.txt")"
	fi
}

# Boot 1: enrolment (no volume in crypttab yet: no prompt)
boot_check 1 "${ask[@]}" || finish
b1=$boot_s
# Boot 2: the volume opened with no prompt; the update
boot_check 2 "${ask[@]}" || finish
prompts 2 0 "(the TPM opened the volume)"
console_has 2 "our unlock opened the volume in the initramfs" "data_crypt: opened with the TPM-sealed key"
approved 2 1
# Boot 3: the new kernel, no prompt; revoke-older
boot_check 3 "${ask[@]}" || finish
kver2=$(cat "$run/boot3/state/release" 2>/dev/null)
if [ -n "$kver2" ] && [ "$kver2" != "$kver" ]; then
	t_ok "boot 3 runs the new kernel $kver2"
else
	t_fail "boot 3 runs the new kernel" "it runs ${kver2:-?}"
fi
prompts 3 0 "(the TPM opened the volume with the update's approval)"
approved 3 2
# Boot 4: the old kernel, from GRUB's menu: "Advanced options" (the
# second entry: Ctrl-N, Enter), then the old kernel (the second again)
printf '\016\r' >"$run/menu.keys"
cp "$run/menu.keys" "$run/submenu.keys"
boot_check 4 --console-expect "Advanced options for Debian GNU/Linux" --console-answer "$run/menu.keys" \
	--console-expect "with Linux $kver" --console-answer "$run/submenu.keys" "${ask[@]}" || true
if [ "$(cat "$run/boot4/state/release" 2>/dev/null)" = "$kver" ]; then
	t_ok "boot 4 runs the old kernel $kver, chosen in GRUB's menu"
else
	t_fail "boot 4 runs the old kernel $kver" "it runs $(cat "$run/boot4/state/release" 2>/dev/null)"
fi
prompts 4 1 "(the TPM refused: the approval is revoked); the passphrase opened the volume"
console_has 4 "our unlock's reason: the approval is revoked" "is revoked"
approved 4 2 "$kver"
# Boot 5: at GRUB's prompt (c), the new kernel with init=/bin/sh
printf 'c' >"$run/cmd.keys"
{
	printf 'set root=(hd0,gpt2)\r'
	printf 'linux /boot/vmlinuz-%s root=UUID=%s ro console=ttyS0 init=/bin/sh\r' "$kver2" "$root_uuid"
	printf 'initrd /boot/initrd.img-%s\rboot\r' "$kver2"
} >"$run/grub.keys"
echo 'echo o >/proc/sysrq-trigger' >"$run/poweroff"
tb=$(now)
"$TKH_QEMU/boot.sh" --uefi "$run/vars.fd" --disk "$run/disk.img" --nested --name realsys-uefi-5 \
	--console-expect "Advanced options for Debian GNU/Linux" --console-answer "$run/cmd.keys" \
	--console-expect "grub>" --console-answer "$run/grub.keys" "${ask[@]}" \
	--console-expect "job control turned off" --console-answer "$run/poweroff" \
	-- - - "$run/tpm" 2.0 "" "$run/boot5" >"$run/boot5.out" 2>&1 || true
echo "boot5 $(elapsed "$tb")" >>"$run/times"
prompts 5 1 "(init=/bin/sh typed at GRUB's prompt: the TPM refused)"
console_has 5 "the shell of init=/bin/sh came after the passphrase" "job control turned off"
# Boot 6: the live system, from its own disk; the enrolled disk second
uefi_first_disk=$run/live.img
boot_check 6 || true
uefi_first_disk=
# live_pcrs: the live system ran the chain and kernel of boot 2 (PCRs 4
# and 7 the same: a key bound to them alone would be its), GRUB's
# commands and files were its own (PCRs 8 and 9 differ)
live_pcrs() {
	local p a b
	for p in 4 7 8 9; do
		a=$(awk -v n=$p '$1 == n { print tolower($2) }' "$run/boot2/state/pcrs.sysfs")
		b=$(awk -v n=$p '$1 == n { print tolower($2) }' "$run/boot6/state/pcrs.sysfs")
		echo "PCR $p boot 2 ${a:0:16} live ${b:0:16} $([ "$a" = "$b" ] && echo same || echo differs)"
		[ -n "$a" ] && [ -n "$b" ] || return 1
		case $p in 4 | 7) [ "$a" = "$b" ] || return 1 ;; *) [ "$a" != "$b" ] || return 1 ;; esac
	done
}
if live_pcrs >"$run/live-pcrs.txt" 2>&1; then
	t_ok "boot 6: the live system's PCRs 4 and 7 are boot 2's, 8 and 9 are not (what keeps the key in)"
	sed 's/^/# /' "$run/live-pcrs.txt"
else
	t_fail "boot 6: the live system's PCRs 4 and 7 are boot 2's, 8 and 9 are not" "$(cat "$run/live-pcrs.txt")"
fi
log "realsys-uefi-luks: $(elapsed "$t0") s (boot 1: $b1 s)"
finish
