#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0 sessions (issue 8, docs/tpm2-sessions.md): on by default, a blob
# made with sessions loads without them and the other way round (the
# format does not change); blobauth, pcrs= and the 0x40000001 primary in
# sessions; srk_name= pins the parent's Name (another parent, or a
# malformed pin: EKEYREJECTED; sessions=0 does not read the parent); trust
# on first use: a different key under a handle seen before is refused.
# Ours only (the in-tree module has neither sessions= nor srk_name=).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_sessions_begin || exit 0
H=81000010	# a persistent handle of this test's own

# owner_name: the Name of the owner hierarchy's TCG-template primary.
owner_name() {
	_h=$(t_tpm2_primary 00030472) || return 1
	t_tpm2_name "$_h"
	_rc=$?
	t_tpm2_flush "$_h"
	return $_rc
}

# persist ATTRS: a primary with ATTRS at 0x$H (EvictControl).
persist() {
	t_tpm2_persist $H t_tpm2_primary "$1"
}
# unpersist: the object at 0x$H out of the TPM.
unpersist() {
	t_tpm2_evict $H $H
}

t_tpm2_unpinned || exit 0

# sessions on by default; the format is the same either way
t_check "new 32 (sessions by default)" t_key_add trusted s_d "new 32"
b=$(t_key_blob trusted s_d)
t_check "load in sessions" t_key_add trusted s_l "load $b"
t_check "load with sessions=0 of a blob made in sessions" t_key_add trusted s_l0 "load $b sessions=0"
t_check "new 32 sessions=0" t_key_add trusted s_0 "new 32 sessions=0"
t_check "load in sessions of a blob made with sessions=0" t_key_add trusted s_l1 "load $(t_key_blob trusted s_0)"
# new_load NAME NEW_OPTIONS [LOAD_OPTIONS]: a new key, then its blob loaded.
new_load() {
	t_key_add trusted "$1" "new 32 $2" && t_key_add trusted "$1_l" "load $(t_key_blob trusted "$1") $3"
}
t_check "blobauth in the session (new, load)" new_load s_b "blobauth=$T_TPM2_BA" "blobauth=$T_TPM2_BA"
bb=$(t_key_blob trusted s_b)
t_errno "wrong blobauth in the session: EACCES" EACCES \
	t_key_refused trusted s_bx "load $bb blobauth=00$(echo "$T_TPM2_BA" | cut -c3-)"
t_tpm2_da_reset
t_check "pcrs=sha256:12: policy session beside the salted session" new_load s_p "pcrs=sha256:12"
t_check "keyhandle=0x40000001 (a primary we create) in sessions" new_load s_o "keyhandle=0x40000001"
t_check "update in sessions" t_updates s_d

# srk_name= pins the parent
ZERO=000b0000000000000000000000000000000000000000000000000000000000000000
t_tpm2_pin $ZERO
t_errno "srk_name= another Name: new EKEYREJECTED" EKEYREJECTED t_key_refused trusted s_x "new 32"
t_errno "srk_name= another Name: load EKEYREJECTED" EKEYREJECTED t_key_refused trusted s_x "load $b"
t_check "srk_name= does not apply with sessions=0" t_key_add trusted s_x0 "load $b sessions=0"
t_tpm2_pin 00zz
t_errno "srk_name= not a Name: EKEYREJECTED" EKEYREJECTED t_key_refused trusted s_x "new 32"
on=$(owner_name)
t_tpm2_pin "$on"
t_check "srk_name= the 0x40000001 primary's Name: it is accepted" t_key_add trusted s_on "new 32 keyhandle=0x40000001"
t_tpm2_pin "$ZERO,$on"
t_check "srk_name= a list of Names, the parent's among them: accepted" t_key_add trusted s_on2 "new 32 keyhandle=0x40000001"
t_tpm2_pin "$on,00zz"
t_errno "srk_name= a list with a malformed Name: EKEYREJECTED" EKEYREJECTED t_key_refused trusted s_x "new 32 keyhandle=0x40000001"
t_tpm2_pin ""

# trust on first use: another key under a handle seen before
tofu() {
	persist 00030472 || return 2
	t_key_add trusted s_t "new 32 keyhandle=0x$H" || { unpersist; return 2; }
	_bt=$(t_key_blob trusted s_t)
	unpersist && persist 00030072 || return 2
	t_key_refused trusted s_t2 "load $_bt"
	_rc=$?
	unpersist
	return $_rc
}
t_errno "another key under 0x$H after its first use: EKEYREJECTED" EKEYREJECTED tofu
t_tpm2_da_reset
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
