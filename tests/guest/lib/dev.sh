# SPDX-License-Identifier: GPL-2.0
# The guest's devices, for every suite (busybox sh): raw TPM commands on
# /dev/tpm0 and dm-crypt mappings. Sourced through ../lib.sh.
# shellcheck shell=sh

# t_tpm_send HEX: send the TPM command HEX (1.2 or 2.0) through /dev/tpm0,
# print the response in hex.
t_tpm_send() {
	exec 5<>/dev/tpm0 || return 1
	t_unhex "$1" >&5
	dd bs=4096 count=1 <&5 2>/dev/null | xxd -p | tr -d '\n'
	exec 5>&-
	echo
}

# t_dm_crypt NAME SECTORS CIPHER KEYSPEC DEVICE START: a dm-crypt mapping of
# SECTORS sectors of DEVICE from sector START, keyed by KEYSPEC; prints the
# device node.
t_dm_crypt() {
	dmsetup create "$1" --noudevsync --table "0 $2 crypt $3 $4 0 $5 $6" >&2 || return 1
	dmsetup mknodes "$1" >/dev/null 2>&1
	[ -b "/dev/mapper/$1" ] || { echo "no /dev/mapper/$1" >&2; return 1; }
	echo "/dev/mapper/$1"
}

# t_dm_remove NAME...: remove mappings, quietly, and stale /dev/mapper nodes.
t_dm_remove() {
	for _n in "$@"; do
		dmsetup remove --noudevsync "$_n" >/dev/null 2>&1
	done
	dmsetup mknodes >/dev/null 2>&1
	return 0
}
