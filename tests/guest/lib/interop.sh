# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034
#
# Helpers of the evm-interop suite; sourced after lib.sh, lib/trusted.sh,
# lib/tpm2.sh and lib/evm.sh, never run.
#
# The suite runs on one machine (one TPM, one disk, one state directory)
# whose phases boot different EVM kernels (run-all.sh rows interop-evm and
# interop-evm12: evm-ref, evm, evm-ref), so that the key types of one
# kernel meet the blobs of the other's, both built in:
#   phase 1 makes a set of blobs (the kernel of that boot: in-tree);
#   phase 2 loads phase 1's set (ours), then makes its own set;
#   phase 3 loads phase 2's set (in-tree again).
# A set is saved as state files "pN-NAME.*" (each name once a boot: the
# host appends a name saved twice); "pN.impl" says who made it
# (ours or ref, from tk.kernel=, t_evm_impl). A phase that loads a set made by
# the same implementation (a row with one kernel) still runs: the checks
# then hold trivially, and the descriptions say so.

T_INTEROP_HEX=8e3a5c1f7b2d4e6a9c0b1d3f5e7a9c2b4d6f8a0c2e4b6d8f0a1c3e5b7d9f1a2c	# user data of encrypted keys
T_INTEROP_BA=fedcba9876543210fedcba9876543210fedcba98	# a blobauth (hex)
T_EVM_DM_START=0	# t_interop_dm: volumes from the disk's first MiB (no ext2 here)

# t_interop_begin: t_evm_begin (an EVM kernel, TPM, disk, both types built in),
# then T_INTEROP_IMPL (this boot's implementation), T_INTEROP_PREV (the phase whose set
# this boot loads, empty in phase 1) and T_INTEROP_MAKER (who made it); phase 1
# and 2 record their implementation.
t_interop_begin() {
	t_evm_begin
	T_INTEROP_IMPL=$(t_evm_impl)
	T_INTEROP_PREV='' T_INTEROP_MAKER=''
	if [ "$TKH_PHASE" -gt 1 ]; then
		T_INTEROP_PREV=$((TKH_PHASE - 1))
		T_INTEROP_MAKER=$(t_state_get "p$T_INTEROP_PREV.impl" | head -n 1)
		[ -n "$T_INTEROP_MAKER" ] ||
			t_bail "phase $T_INTEROP_PREV's implementation" "no state p$T_INTEROP_PREV.impl (did phase $T_INTEROP_PREV run?)"
	fi
	# once a boot: a name saved again in the same boot is appended to
	if t_interop_makes && ! t_state_get "p$TKH_PHASE.impl" >/dev/null 2>&1; then
		echo "$T_INTEROP_IMPL" | t_state_save "p$TKH_PHASE.impl"
	fi
	return 0
}

# t_interop_makes: this phase makes a set (phases 1 and 2).
t_interop_makes() {
	[ "$TKH_PHASE" -lt 3 ]
}

# t_interop_name IMPL: how descriptions call an implementation.
t_interop_name() {
	case $1 in
	ours) echo ours ;;
	*) echo in-tree ;;
	esac
}

# t_interop_from: "in-tree's phase-1 blob" etc. for descriptions of a load phase.
t_interop_from() {
	if [ "$T_INTEROP_MAKER" = ours ]; then
		echo "ours' phase-$T_INTEROP_PREV"
	else
		echo "$(t_interop_name "$T_INTEROP_MAKER")'s phase-$T_INTEROP_PREV"
	fi
}

# t_interop_save NAME.EXT VALUE / t_interop_get PHASE NAME.EXT: one value of a set.
t_interop_save() {
	printf '%s\n' "$2" | t_state_save "p$TKH_PHASE-$1"
}
t_interop_get() {
	t_state_get "p$1-$2"
}

# t_interop_kh: keyhandle= for new (TPM 2.0: the SRK, which the in-tree type needs
# on new; TPM 1.2: empty, the SRK is both types' default).
t_interop_kh() {
	[ "$TKH_TPM" = 2.0 ] && echo "keyhandle=0x$T_TPM2_SRK"
	return 0
}

# t_interop_loads TYPE NAME BLOB [OPTIONS]: BLOB loads as key NAME of TYPE and
# keyctl print gives it back byte for byte.
t_interop_loads() {
	t_key_add "$1" "$2" "load $3${4:+ $4}" || return 1
	t_eq "print" "$(t_key_blob "$1" "$2")" "$3"
}

# t_interop_refused TYPE NAME DATA: for t_errno: the add fails and leaves no key.
t_interop_refused() {
	t_key_refused "$@"
}

# t_interop_last_flipped HEX: HEX with its last byte inverted (in a TPM 1.2 blob
# the RSA-encrypted data; in a TPMKey the encrypted sensitive area of the
# TPM2B_PRIVATE; in an encrypted key's hex the HMAC's last byte).
t_interop_last_flipped() {
	t_tpm2_flip "$1" $((${#1} / 2 - 1))
}

# t_interop_dm NAME KEYSPEC SLOT: a 1 MiB dm-crypt mapping (aes-cbc-essiv:sha256)
# of the disk's SLOT-th MiB; prints the device node.
t_interop_dm() {
	t_evm_dm "$@"
}

# t_interop_vol NAME KEYSPEC SLOT [w]: sha256 of the slot's plaintext through a
# mapping keyed KEYSPEC (after writing 1 MiB of random data through it
# with w); the mapping is removed.
t_interop_vol() {
	_dev=$(t_interop_dm "$1" "$2" "$3") || return 1
	if [ "${4:-}" = w ]; then
		dd if=/dev/urandom of="$_dev" bs=65536 count=16 conv=fsync 2>/dev/null ||
			{ t_dm_remove "$1"; return 1; }
	fi
	_s=$(dd if="$_dev" bs=65536 count=16 2>/dev/null | sha256sum | cut -d' ' -f1)
	t_dm_remove "$1"
	[ -n "$_s" ] && echo "$_s"
}

# t_interop_vol_is NAME KEYSPEC SLOT SUM: the slot reads SUM through KEYSPEC.
t_interop_vol_is() {
	[ -n "$4" ] || { echo "no checksum saved for slot $3" >&2; return 1; }
	t_eq "slot $3 through $2" "$(t_interop_vol "$1" "$2" "$3")" "$4"
}
