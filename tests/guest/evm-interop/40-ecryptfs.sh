#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ecryptfs on an ecryptfs-format encrypted key, across the two types
# (lib/interop.sh: phase 1 in-tree, phase 2 ours, phase 3 in-tree). A phase
# that makes a set seals a trusted key, makes an ecryptfs key under it,
# mounts ecryptfs over a directory of its own on an ext2 (MiB 32-63 of the
# disk, through a loop device) and writes a file. The next phase loads both
# blobs in the other type, mounts the same directory and reads the file:
# the auth token the other type rebuilt from the blob unwraps the file's
# key (ecryptfs keeps it wrapped in the lower file's header).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/evm.sh"
. "$here/../lib/interop.sh"

t_interop_begin
impl=$(t_interop_name "$T_INTEROP_IMPL")
KH=$(t_interop_kh)
LOWER=/tmp/io-lower
UPPER=/tmp/io-upper
if ! grep -q ecryptfs /proc/filesystems; then
	[ -f /ref/ecryptfs.ko ] || t_skip_all "no ecryptfs in this kernel (CONFIG_ECRYPT_FS)"
	insmod /ref/ecryptfs.ko || t_bail "insmod /ref/ecryptfs.ko"
fi
mkdir -p $LOWER $UPPER

# sig P: the ecryptfs key description (16 hex digits) of phase P's set.
sig() {
	printf 'feed%012x\n' "$1"
}

# lower_up: the ext2 at MiB 32 of the disk on LOWER (made in phase 1).
lower_up() {
	grep -q " $LOWER " /proc/mounts && return 0
	_loop=$(losetup -f) || return 1
	losetup -o $((32 * 1048576)) "$_loop" "$TKH_DISK" || return 1
	if [ "$TKH_PHASE" = 1 ]; then
		mke2fs -F "$_loop" >/dev/null 2>&1 || return 1
	fi
	mount -t ext2 "$_loop" $LOWER
}

down() {
	umount $UPPER 2>/dev/null
	umount $LOWER 2>/dev/null
	for _l in /dev/loop*; do losetup -d "$_l" 2>/dev/null; done
	return 0
}
t_cleanup down

# ecr_mount P: ecryptfs over LOWER/pP with phase P's key.
ecr_mount() {
	mkdir -p "$LOWER/p$1" &&
		mount -t ecryptfs -o "ecryptfs_sig=$(sig "$1"),ecryptfs_cipher=aes,ecryptfs_key_bytes=32,ecryptfs_unlink_sigs" \
			"$LOWER/p$1" $UPPER
}

t_check "the ext2 on the disk's MiB 32-63" lower_up || exit 0

# --- load the previous phase's set -----------------------------------------
if [ -n "$T_INTEROP_PREV" ]; then
	from=$(t_interop_from)
	s=$(sig "$T_INTEROP_PREV")
	t_check "$impl loads $from trusted etk and ecryptfs key $s blobs" \
		sh -c "keyctl add trusted etk 'load $(t_interop_get "$T_INTEROP_PREV" etk.tblob)' @u >/dev/null &&
			keyctl add encrypted $s 'load $(t_interop_get "$T_INTEROP_PREV" ecr.blob)' @u >/dev/null"
	t_check "  ... mount -t ecryptfs with it" ecr_mount "$T_INTEROP_PREV"
	t_check "  ... $from file reads back" \
		t_eq file "$(cat $UPPER/file 2>&1)" "$(t_interop_get "$T_INTEROP_PREV" ecr.text)"
	umount $UPPER 2>/dev/null
fi

# --- make this phase's set -------------------------------------------------
t_interop_makes || exit 0
s=$(sig "$TKH_PHASE")
mk() {
	t_key_add trusted etk "new 32${KH:+ $KH}" &&
		t_key_add encrypted "$s" "new ecryptfs trusted:etk 64" &&
		t_interop_save etk.tblob "$(t_key_blob trusted etk)" && t_interop_save ecr.blob "$(t_key_blob encrypted "$s")"
}
t_check "$impl: trusted etk, ecryptfs key $s under it" mk
t_check "  ... mount -t ecryptfs with it" ecr_mount "$TKH_PHASE"
text="ecryptfs of phase $TKH_PHASE ($impl) $(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
t_check "  ... a file written" sh -c "echo '$text' >$UPPER/file && sync"
t_interop_save ecr.text "$text"
umount $UPPER 2>/dev/null
t_check "  ... the lower file is ciphertext" sh -c "! grep -q '$text' $LOWER/p$TKH_PHASE/file"
