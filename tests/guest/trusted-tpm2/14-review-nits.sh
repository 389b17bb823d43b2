#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression (issue 9, review finding 4, "nits"): policyhandle=0 means no
# policy session (as in-tree), not a handle sent to the TPM; the default
# parent at 0x81000001 must be a fixedTPM, fixedParent restricted
# decryption key (RSA or ECC), not any restricted-decrypt object; a TPM
# out of object slots (TPM_RC_OBJECT_MEMORY) is EAGAIN, not EPERM.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
if ! t_key_add trusted n_k "new 32" || ! t_key_add trusted n_p "new 32 pcrs=sha256:12"; then
	t_skip_rest "cannot seal a key"
	exit 0
fi
b=$(t_key_blob trusted n_k)

t_check "policyhandle=0 on load of a blob without policy: loads" t_key_add trusted n_l "load $b policyhandle=0"
t_check "policyhandle=0 on load of a pcrs= blob: loads" t_key_add trusted n_l2 "load $(t_key_blob trusted n_p) policyhandle=0"

# A storage key at 0x81000001 that is neither fixedTPM nor fixedParent.
loose_srk() {
	_h=$(t_tpm2_primary 00030460) || return 2
	t_tpm2_evict "$_h" || { t_tpm2_flush "$_h"; return 2; }
	t_tpm2_flush "$_h"
	t_key_refused trusted n_x "new 32"
	_rc=$?
	t_tpm2_evict $T_TPM2_SRK >&2 || echo "could not evict 0x81000001" >&2
	return $_rc
}
if t_tpm2_srk_present; then
	t_skip "a duplicable storage key at 0x81000001 is not the default parent" \
		"the TPM has its SRK there"
else
	t_errno "a duplicable storage key at 0x81000001 is not the default parent: EINVAL" EINVAL loose_srk
fi

# TPM_RC_OBJECT_MEMORY: three transient objects fill swtpm's slots.
full() {
	_hs=
	for _i in 1 2 3; do
		_h=$(t_tpm2_primary 00030472) && _hs="$_hs $_h"
	done
	t_key_refused trusted n_x "load $b"
	_rc=$?
	for _h in $_hs; do t_tpm2_flush "$_h"; done
	return $_rc
}
t_errno "the TPM out of object slots: EAGAIN" EAGAIN full
t_check "the blob loads again once the slots are free" t_key_add trusted n_l3 "load $b"
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_drop n_k n_p n_l n_l2 n_l3
