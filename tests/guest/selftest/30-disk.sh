#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The scratch disk ($TK_DISK, /dev/vda) is this machine's disk: what phase 1
# writes there, phase 2 reads back. Disk layout shared with the encrypted
# tests: dm-crypt uses 0-4 MiB, ecryptfs's ext4 16 MiB to the end; the
# selftest marker lives at 8 MiB.
# shellcheck source=/dev/null
. "$TK_LIB"

t_plan 2
if [ -z "$TK_DISK" ]; then
	t_skip_rest "no scratch disk in this boot"
	exit 0
fi
t_check "$TK_DISK is a block device" test -b "$TK_DISK"
mark="tk-selftest-disk $TK_KERNEL"
if [ "$TK_PHASE" = 1 ]; then
	t_check "write a marker at 8 MiB" sh -c \
		"printf '%s\n' '$mark' | dd of=$TK_DISK bs=4096 seek=2048 conv=fsync 2>/dev/null"
else
	got=$(dd if="$TK_DISK" bs=4096 skip=2048 count=1 2>/dev/null | head -n 1)
	if [ "$got" = "$mark" ]; then
		t_ok "phase 1's marker is still there"
	else
		t_fail "phase 1's marker is still there" "got '$got'"
	fi
fi
