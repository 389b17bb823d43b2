#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite realsys-uefi-luks: a LUKS2 volume opened by our module on
# Debian's Secure Boot chain, its approvals following a kernel update.
# tests/realsys/uefi-luks.sh installs it as /usr/local/sbin/tek-realsys-check
# (tek-realsys-check.service, once the system is up); each boot is the next
# stage (/var/lib/tek-uefi-luks/stage):
#   1: the user's commands: a LUKS2 volume on /dev/vda3 in crypttab
#      (initramfs: opened by the initramfs, as root is), then
#      docs/install.md's `trusted-keys-luks enrol --signed` and
#      `update-initramfs -u -k all`, whose hook approves the next boot;
#   2: the volume was opened with no prompt; root cannot unseal the key
#      again (the cap); `apt-get install` of the newer kernel and its
#      headers (the .debs in /var/cache/tek-update: the machine has no
#      network), whose hooks approve the boot after it;
#   3: the new kernel: opened with no prompt; `trusted-keys-sign
#      revoke-older`, then the token of before it put back (as whoever
#      kept a copy of the header would: the older kernel's approval is in
#      it, so that boot 4's refusal is the TPM's, by the counter);
#   4: the old kernel, chosen in GRUB's menu by the host's keys: the volume
#      was opened by cryptroot with the passphrase the host typed.
# In every stage: Secure Boot and lockdown on, our module (signed by
# DKMS's MOK key) loaded; the event log, the PCRs, the command line, the
# release, the approvals to the host (ttyS2). KTAP on ttyS1; power off.
# shellcheck source=../../realsys/check-lib.sh
. /usr/local/lib/tek-realsys/check.sh
S=/var/lib/tek-uefi-luks
DEV=/dev/vda3
NAME=data_crypt
PASS=/root/tek-passphrase
mkdir -p $S
stage=$(($(cat $S/stage 2>/dev/null || echo 0) + 1))
echo $stage >$S/stage
sync
case $stage in 1) n=8 ;; 2) n=7 ;; 3) n=7 ;; *) n=4 ;; esac
rc_start $((n + 1))
echo "# stage $stage: $(uname -r): $(cat /proc/cmdline)" >&3

sb() {
	s=$(mokutil --sb-state 2>&1)
	l=$(cat /sys/kernel/security/lockdown 2>/dev/null)
	echo "# $s; lockdown: $l" >&3
	case $s in *"SecureBoot enabled"*) ;; *) return 1 ;; esac
	case $l in *"[integrity]"* | *"[confidentiality]"*) ;; *) return 1 ;; esac
}
module() {
	modprobe trusted 2>&1 | sed 's/^/# /' >&3
	f=$(modinfo -n trusted 2>/dev/null)
	echo "# $f: signer $(modinfo -F signer trusted 2>/dev/null)" >&3
	case $f in */updates/dkms/*) ;; *) return 1 ;; esac
	# a parameter only ours has
	[ -e /sys/module/trusted/parameters/session ]
}
state() {
	rc_state || return 1
	echo $stage >/run/stage
	rc_save stage /run/stage
	[ ! -f /etc/trusted-keys/approvals ] || rc_save approvals /etc/trusted-keys/approvals
}
uuid() { cryptsetup luksUUID $DEV; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# opened: the volume is mapped as cryptsetup maps LUKS2, and its file
# system has the marker stage 1 wrote
opened() {
	u=$(dmsetup info -c --noheadings -o uuid $NAME 2>/dev/null)
	echo "# dm UUID $u" >&3
	[ "$u" = "CRYPT-LUKS2-$(uuid | tr -d -)-$NAME" ] || return 1
	mkdir -p /mnt/tek
	mount -o ro /dev/mapper/$NAME /mnt/tek || return 1
	m=$(cat /mnt/tek/marker)
	umount /mnt/tek
	[ "$m" = "uefi-luks $(uuid)" ]
}

t "Secure Boot on, the kernel in lockdown" sb
t "our trusted.ko (DKMS, signed with its MOK key) loads under lockdown" module

case $stage in
1)
	mkvol() {
		cryptsetup luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 \
			--pbkdf argon2id --pbkdf-memory 65536 --pbkdf-force-iterations 4 --pbkdf-parallel 1 \
			--key-file $PASS $DEV || return 1
		cryptsetup open --key-file $PASS $DEV tek-mk || return 1
		mkfs.ext4 -q /dev/mapper/tek-mk || return 1
		mkdir -p /mnt/tek
		mount /dev/mapper/tek-mk /mnt/tek || return 1
		echo "uefi-luks $(uuid)" >/mnt/tek/marker
		umount /mnt/tek
		cryptsetup close tek-mk
	}
	t "a LUKS2 volume on $DEV (argon2id, aes-xts-plain64, 512-bit), ext4 inside" mkvol
	ctab() {
		echo "$NAME UUID=$(uuid) none luks,initramfs" >>/etc/crypttab
		sed 's/^/# crypttab: /' /etc/crypttab >&3
	}
	t "/etc/crypttab: $NAME, opened by the initramfs" ctab
	enrol() {
		trusted-keys-luks enrol $DEV --signed --key-file=$PASS >/run/enrol.out 2>&1
		r=$?
		sed 's/^/# /' /run/enrol.out >&3
		[ $r = 0 ]
	}
	t "trusted-keys-luks enrol $DEV --signed (the signer, the counter, the token)" enrol
	upd() {
		update-initramfs -u -k all >/run/upd.out 2>&1
		r=$?
		grep -i 'trusted-keys' /run/upd.out | sed 's/^/# /' >&3
		[ $r = 0 ] && grep -q "the next boot is approved" /run/upd.out &&
			[ -s /etc/trusted-keys/approvals ]
	}
	t "update-initramfs -u -k all: its hook approved the next boot" upd
	not_open() { ! dmsetup info $NAME >/dev/null 2>&1; }
	t "$NAME not open in this boot (not enrolled at its start)" not_open
	;;
2 | 3)
	t "$NAME opened at boot (dm UUID CRYPT-LUKS2-..., the marker)" opened
	again() {
		! trusted-keys-luks open $DEV tek-again >/run/again.out 2>&1
		r=$?
		sed 's/^/# /' /run/again.out >&3
		[ $r = 0 ] && ! dmsetup info tek-again >/dev/null 2>&1
	}
	t "root cannot unseal the key again in this boot (PCR 15 capped)" again
	if [ $stage = 2 ]; then
		update() {
			find /var/cache/tek-update -name '*.deb' | sed 's/^/# /' >&3
			t0=$(cut -d' ' -f1 /proc/uptime)
			DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
				/var/cache/tek-update/*.deb >/run/update.out 2>&1
			r=$?
			t1=$(cut -d' ' -f1 /proc/uptime)
			grep -iE 'trusted-keys|dkms|error' /run/update.out | sed 's/^/# /' >&3
			# what the hook costs: its prediction again (the boot is approved
			# already, so nothing is signed)
			trusted-keys-sign sign >/run/sign-again.out 2>&1
			t2=$(cut -d' ' -f1 /proc/uptime)
			sed 's/^/# /' /run/sign-again.out >&3
			echo "# apt-get install: $(secs "$t0" "$t1") s; trusted-keys-sign sign again: $(secs "$t1" "$t2") s (under TCG)" >&3
			[ $r = 0 ] && grep -q "the next boot is approved" /run/update.out
		}
		t "apt-get install of the newer kernel: its hooks approved the next boot" update
		kernels() {
			k=0
			for f in /boot/vmlinuz-*; do echo "# $f" >&3; k=$((k + 1)); done
			[ $k = 2 ]
		}
		t "two kernels in /boot" kernels
	else
		# the attacker's copy of the header: the token's blob as it is
		# before revoke-older, with the older kernel's approval in it
		revoke() {
			trusted-keys-luks blob $DEV >$S/blob-before || return 1
			trusted-keys-sign revoke-older >/run/revoke.out 2>&1
			r=$?
			sed 's/^/# /' /run/revoke.out >&3
			[ $r = 0 ] && ! trusted-keys-luks blob $DEV | cmp -s - $S/blob-before
		}
		t "trusted-keys-sign revoke-older (the older approvals leave the token)" revoke
		# revoke-older took the approval out of the token: put it back, as
		# whoever kept a copy of the header would, so that boot 4 shows the
		# TPM refusing it by the counter, not by its absence
		putback() { trusted-keys-luks blob $DEV --set $S/blob-before >&3 2>&1; }
		t "the token of before put back (an attacker's copy of the header)" putback
	fi
	;;
*)
	t "$NAME opened (by cryptroot, with the passphrase)" opened
	;;
esac
t "the event log, the PCRs, the approvals to the host" state
rc_end
