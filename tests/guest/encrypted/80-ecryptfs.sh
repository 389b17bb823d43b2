#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ecryptfs with an ecryptfs-format key of ours (under a TPM-sealed trusted
# master): phase 1 mounts it over a directory of an ext2 on the run's
# persistent disk and writes a file; phase 2 (after the reboot) reloads the
# blobs, mounts again and reads the file back, with ours and then with the
# in-tree encrypted-keys.ko.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

SIG=0123456789abcdef
OPTS=ecryptfs_sig=$SIG,ecryptfs_cipher=aes,ecryptfs_key_bytes=32,ecryptfs_unlink_sigs
LOWER=/tmp/ek-lower
UPPER=/tmp/ek-upper
t_require kernel test
t_require ref
t_require tpm 1.2
t_require disk
t_mods ours test	# both key types from our modules
t_mod_load ecryptfs 2>/dev/null ||
	t_skip_all "no ecryptfs.ko for this kernel (CONFIG_ECRYPT_FS)"
mkdir -p $LOWER $UPPER

# lower_up: the ext2 at 16 MiB of the disk on $LOWER (made in phase 1 by
# busybox's mke2fs; the test kernel has ext2, not ext4).
lower_up() {
	grep -q " $LOWER " /proc/mounts && return 0
	_loop=$(losetup -f) || return 1
	losetup -o 16777216 "$_loop" "$(t_enc_disk)" || return 1
	if [ "$TKH_PHASE" = 1 ]; then
		mke2fs -F "$_loop" >/dev/null 2>&1 || return 1
	fi
	mount -t ext2 "$_loop" $LOWER && mkdir -p $LOWER/secret
}

down() {
	umount $UPPER 2>/dev/null
	umount $LOWER 2>/dev/null
	for _l in /dev/loop*; do losetup -d "$_l" 2>/dev/null; done
	return 0
}

ecr_mount() {
	mount -t ecryptfs -o $OPTS $LOWER/secret $UPPER
}

phase1() {
	if keyctl add trusted tkm "new 32" @u >/dev/null; then
		t_check "ecryptfs key $SIG (ours, under trusted:tkm)" \
			t_key_add encrypted $SIG "new ecryptfs trusted:tkm 64"
	else
		t_fail "ecryptfs key $SIG (ours, under trusted:tkm)"
	fi
	t_check "ext2 on the persistent disk" lower_up
	t_check "mount -t ecryptfs with our key" ecr_mount
	text="ecryptfs over our encrypted key $(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
	t_check "write a file" sh -c "echo '$text' >$UPPER/file && sync"
	t_check "the lower file is ciphertext" sh -c "! grep -q '$text' $LOWER/secret/file"
	down
	{
		keyctl pipe %trusted:tkm && echo
		t_key_blob encrypted $SIG && echo
		echo "$text"
	} | t_state_save enc-ecryptfs
	for t in $(seq 5); do t_skip "phase 2 test $t" "runs after the reboot"; done
}

phase2() {
	for t in $(seq 5); do t_skip "phase 1 test $t" "ran before the reboot"; done
	t_state_get enc-ecryptfs >/tmp/ec || { t_skip_rest "phase 1 saved nothing"; return; }
	tkm=$(sed -n 1p /tmp/ec) key=$(sed -n 2p /tmp/ec) text=$(sed -n 3p /tmp/ec)
	if keyctl add trusted tkm "load $tkm" @u >/dev/null; then
		t_check "key reloaded from its blob (ours)" t_key_add encrypted $SIG "load $key"
	else
		t_fail "key reloaded from its blob (ours)"
	fi
	if lower_up && ecr_mount; then t_ok "mount again"; else t_fail "mount again"; fi
	t_check "the file reads back" t_eq file "$(cat $UPPER/file 2>&1)" "$text"
	down
	if t_mods_none && t_mods_load ours ref && keyctl add trusted tkm "load $tkm" @u >/dev/null &&
		t_key_add encrypted $SIG "load $key" && t_mod_load ecryptfs; then
		t_ok "in-tree encrypted-keys.ko loads our ecryptfs blob"
	else
		t_fail "in-tree encrypted-keys.ko loads our ecryptfs blob"
	fi
	lower_up && ecr_mount
	t_check "in-tree: the file reads back" t_eq file "$(cat $UPPER/file 2>&1)" "$text"
	down
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
down
