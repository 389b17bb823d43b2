#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An RSA parent in sessions (issue 8): an RSA 2048 storage primary (the
# TCG RSA SRK template) persisted at 0x81000011 by this test; with
# keyhandle= it the session is salted by RSA-OAEP (SHA-256, "SECRET\0")
# to it. new, load, update in sessions, with blobauth; blobs load both
# ways with sessions=0; srk_name= its Name (as ReadPublic reports it) is
# accepted, another Name refused (the RSA parent is read and named in
# sessions); no object or session left. The relay suite (10-bus-leak)
# proves the salted session on the bus. Ours only.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_sessions_begin || exit 0
H=81000011
# The TCG RSA 2048 storage template (TPMT_PUBLIC), objectAttributes 00030472.
RSA_TMPL=0001000b00030472000000060080004300100800000000000000

unpersist() {
	t_tpm2_evict $H $H
}

t_tpm2_unpinned || exit 0
unpersist 2>/dev/null
if ! t_tpm2_persist $H t_tpm2_primary_of $RSA_TMPL; then
	t_skip_rest "cannot make the RSA primary at 0x$H"
	exit 0
fi
KH=keyhandle=0x$H
t_check "new 32 under an RSA parent (salted by RSA-OAEP)" t_key_add trusted r_n "new 32 $KH"
b=$(t_key_blob trusted r_n)
t_check "parent recorded: 0x$H" t_eq parent "$(t_tpm2_parent "$b")" "$H"
t_check "load in sessions" t_key_add trusted r_l "load $b $KH"
t_check "load with sessions=0" t_key_add trusted r_l0 "load $b $KH sessions=0"
# new_load NAME NEW_OPTIONS [LOAD_OPTIONS]: a new key, then its blob loaded.
new_load() {
	t_key_add trusted "$1" "new 32 $KH $2" && t_key_add trusted "$1_l" "load $(t_key_blob trusted "$1") $KH $3"
}
t_check "new with blobauth, load with it" new_load r_b "blobauth=$T_TPM2_BA" "blobauth=$T_TPM2_BA"
t_check "update in sessions" t_updates r_n "$KH"
t_check "a blob made with sessions=0 loads in sessions" new_load r_0 sessions=0
rn=$(t_tpm2_name $H)
t_tpm2_pin "$rn"
t_check "srk_name= the RSA parent's Name: accepted" t_key_add trusted r_p "load $b $KH"
t_tpm2_pin 000b0000000000000000000000000000000000000000000000000000000000000000
t_errno "srk_name= another Name: EKEYREJECTED" EKEYREJECTED t_key_refused trusted r_x "load $b $KH"
t_tpm2_pin ""
t_drop r_n r_l r_l0 r_b r_b_l r_0 r_0_l r_p
unpersist
t_tpm2_da_reset
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
