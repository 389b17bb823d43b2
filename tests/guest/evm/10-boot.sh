#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The EVM boot flow of dracut's masterkey module, on the built-in key types
# (kernel evm: ours from the series; evm-ref: the in-tree ones, the control).
# Phase 1 (installation): a trusted kmk sealed to PCR 11 (ours: with bus
#   protection, sessions=1), loaded from its blob as at boot (pcrlock=11:
#   then the blob no longer unseals, EPERM), an encrypted evm-key under
#   trusted:kmk; both blobs saved (what /etc/keys holds); EVM initialised
#   through securityfs; the IMA policy that appraises the scratch disk's
#   ext2 loaded.
# Phase 2: a boot without the keys: EVM cannot be initialised (ENOENT), so
#   metadata can be changed offline (20-files does).
# Phase 3: the boot with the keys: kmk (pcrlock=11) and evm-key loaded
#   from their blobs, EVM initialised, the same policy (20-files checks
#   what opens).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/evm.sh"

t_evm_begin
impl=$(t_evm_impl)

evm_init() {
	echo 1 >$T_EVM_SECFS/evm || return 1
	_v=$(cat $T_EVM_SECFS/evm)
	# HMAC on (1) and setup complete (bit 31) once a key is loaded
	[ $((_v & 1)) = 1 ] || { echo "evm: $_v" >&2; return 1; }
}
ima_policy() {
	echo "appraise fsmagic=0xef53" >$T_EVM_SECFS/ima/policy
}

case $TKH_PHASE in
1)
	opts=$(t_evm_kmk_new_opts 2>&1) || t_bail "kmk options" "$opts"
	t_check "$impl: trusted kmk new 32, sealed to PCR $T_EVM_PCR ($opts)" \
		t_key_add trusted kmk "new 32 $opts"
	kb=$(t_key_blob trusted kmk) && printf '%s\n' "$kb" | t_state_save evm-kmk.blob
	if [ "$TKH_TPM" = 2.0 ] && [ "$impl" = ref ]; then
		t_skip "bus protection of the kmk's TPM commands" "the in-tree 6.1 type has none (TCG_TPM2_HMAC is 6.10)"
	elif [ "$TKH_TPM" = 2.0 ]; then
		t_check "ours: the kmk blob carries its PolicyPCR (the kernel runs it at load)" \
			t_tpm2_der_get "$kb" a1
	elif [ "$impl" = ref ]; then
		t_skip "bus protection of the kmk's TPM commands" "the in-tree 6.1 type sends the key in the clear"
	fi
	t_check "encrypted evm-key new default trusted:kmk 32 (user data, for the HMAC check)" \
		t_key_add encrypted evm-key "new default trusted:kmk 32 $T_EVM_KEY_HEX"
	eb=$(t_key_blob encrypted evm-key) && printf '%s\n' "$eb" | t_state_save evm-key.blob
	case $eb in
	"default trusted:kmk 32 "*) t_ok "the evm-key blob names trusted:kmk" ;;
	*) t_fail "the evm-key blob names trusted:kmk" "blob: $(echo "$eb" | cut -c1-60)..." ;;
	esac
	t_check "the kmk loads from its blob as at boot (pcrlock=$T_EVM_PCR)" t_evm_kmk_boot "$kb"
	t_errno "  ... then the blob no longer unseals (PCR $T_EVM_PCR extended)" EPERM \
		t_evm_kmk_load "$kb"
	t_check "  ... the boot's kmk stays for the boot (root's @us)" t_evm_kmk_get
	t_check "the evm-key loads from its blob under it" \
		t_key_add encrypted evm-key "load $eb"
	t_check "EVM initialised: echo 1 > $T_EVM_SECFS/evm" evm_init
	t_check "IMA policy: appraise fsmagic=0xef53 (the ext2)" ima_policy
	;;
2)
	t_check "no kmk and no evm-key in this boot" t_key_absent encrypted evm-key
	t_errno "EVM cannot be initialised without evm-key" ENOENT \
		sh -c "echo 1 >$T_EVM_SECFS/evm"
	t_check "  ... and stays off (metadata can be changed offline)" \
		sh -c "[ \$((\$(cat $T_EVM_SECFS/evm) & 1)) = 0 ]"
	;;
3)
	t_check "$impl: trusted kmk and evm-key load from their blobs (PCR $T_EVM_PCR as sealed)" \
		t_evm_keys_load
	t_errno "  ... then the kmk blob no longer unseals (PCR $T_EVM_PCR extended)" EPERM \
		t_evm_kmk_load "$(t_state_get evm-kmk.blob)"
	t_check "EVM initialised" evm_init
	t_check "IMA policy loaded" ima_policy
	if [ "$TKH_TPM" = 2.0 ] && [ "$impl" = ours ]; then
		t_check "  ... no TPM objects or sessions left over" \
			t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
	fi
	;;
esac
