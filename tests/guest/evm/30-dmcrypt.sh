#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dm-crypt straight from the built-in key types, no logon mirror: one
# volume keyed ":32:trusted:kmk" (the TPM-sealed master itself), one
# ":32:encrypted:dmk" (an encrypted key under trusted:kmk). Phase 1 writes
# through both; phase 3 loads the blobs again and reads the same data.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/evm.sh"

t_evm_begin
t_require phase 1,3
t_require cmd dmsetup
t_dm_remove evm_t evm_e
t_cleanup "t_dm_remove evm_t evm_e"
# dm-crypt claims the disk: the ext2 of 20-files must be unmounted
t_check "the disk is not mounted (dm-crypt claims it)" t_evm_umount

# vol_sum NAME KEYSPEC N [WRITE]: sha256 of volume N through the mapping,
# after filling it with random data when WRITE is given.
vol_sum() {
	_dev=$(t_evm_dm "$1" "$2" "$3") || return 1
	if [ -n "${4:-}" ]; then
		dd if=/dev/urandom of="$_dev" bs=65536 count=16 conv=fsync 2>/dev/null || return 1
	fi
	_s=$(dd if="$_dev" bs=65536 count=16 2>/dev/null | sha256sum | cut -d' ' -f1)
	t_dm_remove "$1"
	echo "$_s"
}
# vol_reads NAME KEYSPEC N SUM
vol_reads() {
	[ -n "$4" ] || { echo "no sum of phase 1 for volume $3" >&2; return 1; }
	t_eq "volume $3" "$(vol_sum "$1" "$2" "$3")" "$4"
}

t_check "the trusted kmk 10-boot loaded" t_evm_kmk_get || exit 0
case $TKH_PHASE in
1)
	t_check "encrypted dmk new default trusted:kmk 32" \
		t_key_add encrypted dmk "new default trusted:kmk 32"
	t_key_blob encrypted dmk | t_state_save evm-dmk.blob
	s1=$(vol_sum evm_t :32:trusted:kmk 0 w)
	t_check "data written through ':32:trusted:kmk'" [ -n "$s1" ]
	s2=$(vol_sum evm_e :32:encrypted:dmk 1 w)
	t_check "data written through ':32:encrypted:dmk'" [ -n "$s2" ]
	echo "$s1 $s2" | t_state_save evm-dm.sums
	raw=$(dd if="$TKH_DISK" bs=512 skip=$T_EVM_DM_START count=2048 2>/dev/null | sha256sum | cut -d' ' -f1)
	# shellcheck disable=SC2016  # expanded by sh -c
	t_check "  ... what the disk holds is not the plaintext" \
		sh -c '[ -n "$1" ] && [ "$2" != "$1" ]' sh "$s1" "$raw"
	;;
3)
	read -r s1 s2 <<-EOS
	$(t_state_get evm-dm.sums)
	EOS
	t_check "':32:trusted:kmk' reads phase 1's data back" vol_reads evm_t :32:trusted:kmk 0 "$s1"
	t_check "encrypted dmk loads from its blob" \
		t_key_add encrypted dmk "load $(t_state_get evm-dmk.blob)"
	t_check "':32:encrypted:dmk' reads phase 1's data back" vol_reads evm_e :32:encrypted:dmk 1 "$s2"
	t_errno "a 64-byte key spec of the 32-byte kmk is refused" EINVAL \
		t_evm_dm evm_t :64:trusted:kmk 0
	;;
esac
