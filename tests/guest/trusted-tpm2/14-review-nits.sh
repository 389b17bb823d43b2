#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression (issue 9, review finding 4, "nits"): policyhandle=0 means no
# policy session (as in-tree), not a handle sent to the TPM; the default
# parent at 0x81000001 must be a fixedTPM, fixedParent restricted
# decryption key (RSA or ECC), not any restricted-decrypt object; a TPM
# out of object slots (TPM_RC_OBJECT_MEMORY) is EAGAIN, not EPERM.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
tk2_begin || exit 0
if ! tk_add n_k "new 32" || ! tk_add n_p "new 32 pcrs=sha256:12"; then
	t_skip_rest "cannot seal a key"
	exit 0
fi
b=$(tk_blob n_k)

t_check "policyhandle=0 on load of a blob without policy: loads" tk_add n_l "load $b policyhandle=0"
t_check "policyhandle=0 on load of a pcrs= blob: loads" tk_add n_l2 "load $(tk_blob n_p) policyhandle=0"

# A storage key at 0x81000001 that is neither fixedTPM nor fixedParent.
loose_srk() {
	_h=$(tk2_primary 00030460) || return 2
	tk2_evict "$_h" || { tk2_flush "$_h"; return 2; }
	tk2_flush "$_h"
	tk_refused n_x "new 32"
	_rc=$?
	tk2_evict $TK2_SRK >&2 || echo "could not evict 0x81000001" >&2
	return $_rc
}
if tk2_srk_present; then
	t_skip "a duplicable storage key at 0x81000001 is not the default parent" \
		"the TPM has its SRK there"
else
	t_errno "a duplicable storage key at 0x81000001 is not the default parent: EINVAL" EINVAL loose_srk
fi

# TPM_RC_OBJECT_MEMORY: three transient objects fill swtpm's slots.
full() {
	_hs=
	for _i in 1 2 3; do
		_h=$(tk2_primary 00030472) && _hs="$_hs $_h"
	done
	tk_refused n_x "load $b"
	_rc=$?
	for _h in $_hs; do tk2_flush "$_h"; done
	return $_rc
}
t_errno "the TPM out of object slots: EAGAIN" EAGAIN full
t_check "the blob loads again once the slots are free" tk_add n_l3 "load $b"
t_check "no transient object or session left in the TPM" \
	tk_eq "objects, loaded and saved sessions" "$(tk2_leftovers)" "0 0 0"
tk_drop n_k n_p n_l n_l2 n_l3
