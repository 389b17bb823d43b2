#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The real system's enrolment, run once as init (init=) on the installed
# Debian 12 by tests/realsys/prepare.sh: docs/install.md's commands, word for
# word where they can be, for each volume of tk.realsys.vols= on the command
# line (NAME:PARENT:DEVICE[:OPTION], OPTION e.g. pcrs=sha256:1):
# seal a new key under PARENT (the SRKs provision.sh --rsa-ecc made), save
# its blob, make the dm-crypt volume on DEVICE and a file system
# with a marker file in it, and describe the volume in
# /etc/trusted-keys/volumes. KTAP on ttyS1; then powers off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc 2>/dev/null
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -o remount,rw / || echo "enrol: cannot remount / rw"
exec 3>/dev/ttyS1

vols=$(sed -n 's/.*tk\.realsys\.vols=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
n=0
for _ in $vols; do n=$((n + 1)); done
echo "KTAP version 1" >&3
echo "1..$((n + 2))" >&3
i=0
ok() { i=$((i + 1)); echo "ok $i $*" >&3; }
notok() { i=$((i + 1)); echo "not ok $i $*" >&3; }

modprobe trusted
mkdir -p /etc/trusted-keys /mnt/enrol
: >/etc/trusted-keys/volumes
# enrol NAME PARENT DEVICE [OPTION]: docs/install.md, "First key" and
# "Enrol a volume", in one session keyring (dmsetup there).
enrol() {
	name=$1 h=$2 dev=$3 opt=$4
	O="keyhandle=$h${opt:+ $opt}"
	# a login shell's session keyring (pam_keyinit) has the user keyring in it
	keyctl link @u @s
	keyctl add trusted "$name" "new 32 $O logon=trusted-keys:$name" @u >/dev/null || return 1
	keyctl pipe "%trusted:$name" >"/etc/trusted-keys/$name.blob" || return 1
	# --noudevsync and mknodes: no udev runs (this is init)
	dmsetup create "$name" --noudevsync \
		--table "0 $(blockdev --getsz "$dev") crypt aes-cbc-plain64 :32:logon:trusted-keys:$name 0 $dev 0" ||
		return 1
	dmsetup mknodes "$name"
	mkfs.ext4 -q "/dev/mapper/$name" || return 1
	mount "/dev/mapper/$name" /mnt/enrol || return 1
	echo "realsys $name" >/mnt/enrol/marker
	umount /mnt/enrol
	dmsetup remove --noudevsync "$name" || return 1
	keyctl unlink "%trusted:$name" @u >/dev/null
	# load options only: pcrs= is for new (the policy is in the blob)
	echo "$name $dev /etc/trusted-keys/$name.blob aes-cbc-plain64 32 keyhandle=$h" \
		>>/etc/trusted-keys/volumes
}
for v in $vols; do
	IFS=: read -r name h dev opt <<EOV
$v
EOV
	if err=$(keyctl session - sh -c "$(sed -n '/^enrol()/,/^}/p' "$0"); enrol $name $h $dev $opt" 2>&1); then
		ok "enrol $name under $h${opt:+ $opt}"
	else
		echo "$err" | sed 's/^/# /' >&3
		notok "enrol $name under $h${opt:+ $opt}"
	fi
done
if [ -s /etc/trusted-keys/volumes ] && [ "$(wc -l </etc/trusted-keys/volumes)" -eq "$n" ]; then
	ok "/etc/trusted-keys/volumes names $n volumes"
else
	notok "/etc/trusted-keys/volumes names $n volumes"
fi
sed 's/^/# /' /etc/trusted-keys/volumes >&3
# docs/install.md, "Pin the parent": the parents of the keys just made
if out=$(trusted-keys-unlock --pin 2>&1) &&
   grep -q '^options trusted srk_name=000b' /etc/modprobe.d/trusted-keys-pin.conf; then
	ok "the parents pinned: $(cat /etc/modprobe.d/trusted-keys-pin.conf)"
else
	echo "$out" | sed 's/^/# /' >&3
	notok "the parents pinned in /etc/modprobe.d/trusted-keys-pin.conf"
fi
echo "# tk-init: done" >&3
sync
mount -o remount,ro / 2>/dev/null
sync
# The power-off runs in a kernel worker after the write returns, and it
# shuts the disk down: nothing after it may need the disk (an exec of
# sleep(1) there failed with EIO, init exited and the kernel panicked), so
# the wait is the shell's own loop.
echo o >/proc/sysrq-trigger
while :; do :; done
