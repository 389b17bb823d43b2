#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: blobauth= as a PIN (issue 10). The sealed object has
# the PIN as its authValue and keeps dictionary-attack protection (no
# noDA); with sessions the PIN only keys the salted HMAC session's HMAC and
# never crosses the bus. Right PIN: loads. Wrong PIN: EACCES. With the TPM's
# DA maxTries lowered to 2 (TPM2_DictionaryAttackParameters, lockout auth
# empty), two wrong PINs lock the TPM out and the next load, right PIN or
# not, is EBUSY (TPM_RC_LOCKOUT); then the DA counter is reset and the
# provisioned parameters (1000 tries, 1 s recovery, 1 s lockout recovery,
# tests/qemu/provision.sh) are restored. keyctl update with a new
# blobauth= reseals the same key bytes under the new PIN (the old one: EACCES).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0

t_check "new 32 blobauth=<PIN>" t_key_add trusted p_k "new 32 blobauth=4711"
b=$(t_key_blob trusted p_k)
t_check "  ... the object has no noDA (dictionary-attack protected)" \
	t_eq "noDA" $((0x$(t_tpm2_attrs "$b") & 0x400)) 0
t_check "the right PIN loads it" t_key_add trusted p_l "load $b blobauth=4711"
t_errno "a wrong PIN: EACCES" EACCES t_key_refused trusted p_x "load $b blobauth=0815"
t_check "DA maxTries lowered to 2 (recovery 600 s)" t_tpm2_da_lower
t_tpm2_wrong_pins p_x "$b"
t_errno "after two wrong PINs the right one is refused too: EBUSY (lockout)" EBUSY \
	t_key_refused trusted p_x "load $b blobauth=4711"
t_errno "  ... and a wrong one: EBUSY" EBUSY t_key_refused trusted p_x "load $b blobauth=0003"
t_check "DA counter reset, provisioned parameters restored" t_tpm2_da_restore
t_check "the right PIN loads it again" t_key_add trusted p_l2 "load $b blobauth=4711"

# A new PIN: keyctl update reseals the same key bytes under it.
t_check "update blobauth=<new PIN> reseals the key" t_updates p_l2 "blobauth=1234"
b2=$(t_key_blob trusted p_l2)
t_check "  ... the new blob has no noDA either" \
	t_eq "noDA" $((0x$(t_tpm2_attrs "$b2") & 0x400)) 0
t_check "  ... the new PIN loads it" t_key_add trusted p_n "load $b2 blobauth=1234"
t_errno "  ... the old PIN: EACCES" EACCES t_key_refused trusted p_x "load $b2 blobauth=4711"
t_tpm2_same "  ... and it is the same key" p_l "load $b2 blobauth=1234"

t_tpm2_da_restore >/dev/null 2>&1
t_drop p_k p_l p_l2 p_n
