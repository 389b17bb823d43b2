#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A TPM-sealed disk key across a reboot (same TPM state, same disk), on
# every kernel: phase 1 seals a new key with logon=, saves the blob, writes
# data through dm-crypt keyed ":32:logon:tk:p20"; phase 2 loads the blob
# with logon= and reads the data back. Every read path of every key gives
# the blob or EOPNOTSUPP. On the test kernel ":32:trusted:" reads the same
# data and the in-tree trusted.ko loads the blob (and refuses logon=); on
# the stock kernels dm-crypt refuses ":32:trusted:" (why logon= exists).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"

t_disk_begin impl
O=$(t_disk_opts)
t_dm_remove dk20 dk20t

# trusted_spec: dm-crypt's own trusted-key path, where the kernel has one
# (the test kernel's in-tree dm-crypt module; the EVM kernels, which build
# dm-crypt and the key types in).
trusted_spec() {
	if [ "$TKH_KERNEL" = test ] || [ "$TKH_KERNEL" = evm ] || [ "$TKH_KERNEL" = evm-ref ]; then
		t_disk_reads dk20t :32:trusted:p20 "$T_DISK_P20" "$1"
	else
		# the stock dm-crypt was built without trusted keys
		! t_disk_map dk20t :32:trusted:p20 "$T_DISK_P20" 2>/dev/null
	fi
}
what=":32:trusted:p20 reads the same data (test and EVM kernels) / is refused (stock)"

phase1() {
	t_check "new 32 logon=tk:p20" keyctl add trusted p20 "new 32 $O logon=tk:p20" @u
	blob=$(keyctl pipe "$(t_disk_id trusted p20)" 2>/dev/null)
	sum=$(t_disk_write dk20 :32:logon:tk:p20 "$T_DISK_P20")
	t_check "data written through ':32:logon:tk:p20'" [ -n "$sum" ]
	printf '%s\n%s\n' "$blob" "$sum" | t_state_save disk-p20
	t_check "no read path: the blob or EOPNOTSUPP" \
		t_disk_no_read_path "$(t_disk_id trusted p20)" "$(t_disk_id logon tk:p20)" "$blob"
	t_check "$what" trusted_spec "$sum"
	t_check "the disk holds ciphertext" t_disk_ciphertext "$T_DISK_P20" "$sum"
	t_skip "in-tree trusted.ko loads the blob" "phase 2"
}

interop() {
	t_mods_ref >&2 || return 1
	t_mod_load dm-crypt >&2 || return 1
	if keyctl add trusted p20r "load $blob $O logon=tk:p20r" @u >/dev/null 2>&1; then
		echo "in-tree trusted.ko accepted logon=" >&2
		return 1
	fi
	keyctl add trusted p20 "load $blob $O" @u >/dev/null || return 1
	t_disk_reads dk20t :32:trusted:p20 "$T_DISK_P20" "$sum"
}

phase2() {
	t_state_get disk-p20 >/tmp/p20 || { t_skip_rest "phase 1 saved nothing"; return; }
	blob=$(sed -n 1p /tmp/p20) sum=$(sed -n 2p /tmp/p20)
	t_check "load of the phase-1 blob with logon=tk:p20" \
		keyctl add trusted p20 "load $blob $O logon=tk:p20" @u
	t_check "':32:logon:tk:p20' reads the data of phase 1" t_disk_reads dk20 :32:logon:tk:p20 "$T_DISK_P20" "$sum"
	t_check "no read path: the blob or EOPNOTSUPP" \
		t_disk_no_read_path "$(t_disk_id trusted p20)" "$(t_disk_id logon tk:p20)" "$blob"
	t_check "$what" trusted_spec "$sum"
	keyctl clear @u >/dev/null 2>&1
	t_check "the disk holds ciphertext" t_disk_ciphertext "$T_DISK_P20" "$sum"
	if [ "$TKH_KERNEL" = test ] && [ -n "$TKH_REF" ]; then
		t_check "in-tree trusted.ko loads the blob (refusing logon=); :32:trusted: reads the data" interop
	else
		t_skip "in-tree trusted.ko loads the blob" "no in-tree trusted.ko on $TKH_KERNEL"
	fi
	t_dm_remove dk20 dk20t
	t_mods_none >/dev/null 2>&1
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
t_dm_remove dk20 dk20t
