# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the disk suite (a trusted key's secret reaching dm-crypt through
# logon=, and boot-time unlock), and the dm-crypt mappings of
# encrypted/70-dmcrypt.sh; sourced after lib.sh, never run.
# Disk layout (/dev/vda, kept across the boots of a run): the encrypted suite
# uses MiB 0-7 and 16-, selftest only reads. This suite: MiB 8-11 for
# 10-logon (scratch) and 20-persist (50-luks-key reads them, never writes),
# MiB 12-15 for 30-unlock.
T_DISK_P20=16384	# sector of MiB 8
T_DISK_U30=24576	# sector of MiB 12
T_DISK_LEN=8192	# 4 MiB
T_DISK_CIPHER=aes-cbc-plain64
T_DISK_UNLOCK=/initramfs/trusted-keys-unlock

# t_disk_begin IMPL: the start of a disk script: the whole script is skipped
# (it exits) without the scratch disk, dmsetup or a TPM, or unless
# "t_require IMPL" (impl or ours) holds; loads trusted.ko, encrypted-keys.ko
# and dm-crypt (t_disk_mods), or reports one failure and exits.
t_disk_begin() {
	t_require disk
	t_require cmd dmsetup
	t_require tpm any
	t_require "$1"
	t_disk_mods >&2 || t_bail "load trusted.ko, encrypted-keys.ko and dm-crypt"
}

# t_disk_opts: the trusted key options this TPM needs (the SRK of a TPM 2.0).
t_disk_opts() {
	[ "$TKH_TPM" = 2.0 ] && echo keyhandle=0x81000001
	return 0
}

# t_disk_mods: trusted.ko and (where not built in) encrypted-keys.ko under
# test, then dm-crypt (the in-tree one on the test kernel, the stock one else;
# none where the kernel has the crypt target built in: the EVM kernels).
t_disk_mods() {
	t_mods_load test test || return 1
	dmsetup targets 2>/dev/null | grep -q '^crypt ' && return 0
	t_mod_load dm-crypt || return 1
	grep -q '^dm_crypt ' /proc/modules
}

# t_disk_map NAME KEYSPEC START: a 4 MiB dm-crypt mapping of the disk from
# sector START keyed by KEYSPEC; prints the device node.
t_disk_map() {
	t_dm_crypt "$1" "$T_DISK_LEN" "$T_DISK_CIPHER" "$2" /dev/vda "$3"
}

# t_disk_sum DEV: sha256 of its first MiB.
t_disk_sum() {
	dd if="$1" bs=1048576 count=1 2>/dev/null | sha256sum | cut -d' ' -f1
}

# t_disk_write NAME KEYSPEC START: map, fill 1 MiB with random data, unmap;
# prints the sha256 of what reads back.
t_disk_write() {
	_dev=$(t_disk_map "$1" "$2" "$3") || return 1
	dd if=/dev/urandom of="$_dev" bs=1048576 count=1 conv=fsync 2>/dev/null || return 1
	_s=$(t_disk_sum "$_dev")
	t_dm_remove "$1"
	echo "$_s"
}

# t_disk_reads NAME KEYSPEC START SUM: the mapping reads SUM back.
t_disk_reads() {
	_dev=$(t_disk_map "$1" "$2" "$3") || return 1
	_s=$(t_disk_sum "$_dev")
	t_dm_remove "$1"
	[ "$_s" = "$4" ] && return 0
	echo "read sha256 $_s, expected $4" >&2
	return 1
}

# t_disk_ciphertext START SUM: the disk's MiB from sector START is not the
# data whose sha256 is SUM (what was written through a mapping there).
t_disk_ciphertext() {
	_s=$(dd if=/dev/vda bs=512 skip="$1" count=2048 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$_s" != "$2" ] || { echo "sector $1 holds the data in clear" >&2; return 1; }
}

# t_disk_volume NAME BLOB [OPTION...]: the trusted-keys-unlock config line of
# a volume NAME at MiB 12-15 of the disk whose key is sealed in BLOB.
t_disk_volume() {
	_vn=$1 _vb=$2
	shift 2
	echo "$_vn /dev/vda $_vb $T_DISK_CIPHER 32 offset=$T_DISK_U30 sectors=$T_DISK_LEN $*"
}

# t_disk_id TYPE DESC: the id of the key in the session keyring (and @u in it).
t_disk_id() {
	keyctl search @s "$1" "$2" 2>/dev/null
}

# t_disk_no_read_path TRUSTED-ID LOGON-ID BLOB: keyctl read/print/pipe of the
# trusted key give its blob (hex), of the logon key EOPNOTSUPP.
t_disk_no_read_path() {
	for _op in read print pipe; do
		_o=$(keyctl "$_op" "$1" 2>&1) || { echo "keyctl $_op trusted: $_o" >&2; return 1; }
		# read dumps the payload (the blob in hex) as hex bytes
		[ "$_op" = read ] && _o=$(echo "$_o" | sed -n '1s/ bytes of data in key:$//p')
		[ "$_o" = "$3" ] || { [ "$_op" = read ] && [ "$_o" = "${#3}" ]; } ||
			{ echo "keyctl $_op trusted: not the blob ($_o)" >&2; return 1; }
		if _o=$(keyctl "$_op" "$2" 2>&1); then
			echo "keyctl $_op logon succeeded" >&2
			return 1
		fi
		case $_o in
		*"Operation not supported"*) ;;
		*) echo "keyctl $_op logon: $_o" >&2; return 1 ;;
		esac
	done
}
