#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The scratch disk ($TKH_DISK) is there and readable. Read-only on purpose:
# the disk belongs to the tests (dm-crypt, ext2...), which keep data on it
# from phase 1 to phase 2; a harness write anywhere could destroy that.
# shellcheck source=/dev/null
. "$TKH_LIB"

t_require disk
t_check "$TKH_DISK is a block device" test -b "$TKH_DISK"
size=$(blockdev --getsize64 "$TKH_DISK" 2>/dev/null)
if [ "${size:-0}" -gt 0 ] && dd if="$TKH_DISK" of=/dev/null bs=65536 count=1 2>/dev/null; then
	t_ok "it reads ($size bytes)"
else
	t_fail "it reads" "size '${size:-?}'"
fi
