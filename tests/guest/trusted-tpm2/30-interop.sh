#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, test kernel, phase 1, with the SRK at 0x81000001 (the in-tree
# module needs a persistent parent): blobs sealed by ours load in the
# in-tree trusted.ko and the other way round (default, blobauth,
# migratable=0 + sha1, policydigest + policyhandle, 113/128-byte keys,
# ours without keyhandle=), the raw form loads the same key in both, and
# an encrypted key made under a master in one module loads under the same
# blob in the other: its HMAC check proves identical key bytes.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
why=
[ -n "$why" ] || [ -n "$TKH_REF" ] || why="no in-tree reference on ${TKH_KERNEL:-this kernel}"
[ -n "$why" ] || [ -f "$TKH_REF/encrypted-keys.ko" ] || why="no in-tree encrypted-keys.ko"
t_tpm2_begin "$why" || exit 0
if ! t_tpm2_srk_present; then
	t_skip_rest "no SRK at 0x81000001: the in-tree module needs one"
	exit 0
fi
KH=keyhandle=0x81000001
BA=$T_TPM2_BA

loads() {
	t_key_add trusted "$1" "load $2${3:+ $3}" || return 1
	t_eq "print" "$(t_key_blob trusted "$1")" "$2"
}

policy_load() { # NAME BLOB
	_s=$(t_tpm2_pw_session) || return 1
	loads "$1" "$2" "policyhandle=0x$_s blobauth=hello"
	_rc=$?
	t_tpm2_flush "$_s"
	return $_rc
}

# --- ours -> in-tree -------------------------------------------------------
t_mods_load ours ref-if-any
make_ours() {
	t_key_add trusted i_a "new 32 $KH" && t_key_add trusted i_b "new 32 $KH blobauth=$BA" &&
		t_key_add trusted i_m "new 64 $KH migratable=0 hash=sha1" &&
		t_key_add trusted i_x "new 128 $KH" && t_key_add trusted i_d "new 32" &&
		t_key_add trusted i_p "new 32 $KH policydigest=$T_TPM2_POLICY_PW blobauth=hello" &&
		t_enc_new e_a i_a && t_enc_new e_x i_x && t_enc_new e_d i_d
}
t_check "ours: new keys (default, blobauth, migratable=0+sha1, 128 bytes, no keyhandle, policydigest)" make_ours
ba=$(t_key_blob trusted i_a) bb=$(t_key_blob trusted i_b) bm=$(t_key_blob trusted i_m) bx=$(t_key_blob trusted i_x)
bd=$(t_key_blob trusted i_d) bp=$(t_key_blob trusted i_p)
ea=$(t_key_blob encrypted e_a) ex=$(t_key_blob encrypted e_x) ed=$(t_key_blob encrypted e_d)

t_mods_load ref ref-if-any
t_check "in-tree: ours' blob loads, print gives it back" loads i_a "$ba"
t_check "in-tree: same key bytes (ours' encrypted key loads)" t_enc_loads e_a "$ea"
t_check "in-tree: ours' blobauth blob loads with its blobauth" loads i_b "$bb" "blobauth=$BA"
t_check "in-tree: ours' migratable=0 sha1 64-byte blob loads" loads i_m "$bm"
t_errno "in-tree: ... and honours migratable=0 (update EPERM)" EPERM t_key_update_refused trusted i_m "update $KH"
t_check "in-tree: ours' 128-byte blob loads" loads i_x "$bx"
t_check "in-tree: ... with the same key bytes" t_enc_loads e_x "$ex"
t_check "in-tree: ours' blob made without keyhandle= loads" loads i_d "$bd"
t_check "in-tree: ... with the same key bytes" t_enc_loads e_d "$ed"
t_check "in-tree: ours' policydigest blob loads with policyhandle=" policy_load i_p "$bp"

# --- in-tree -> ours -------------------------------------------------------
make_ref() {
	t_key_add trusted r_a "new 32 $KH" && t_key_add trusted r_b "new 32 $KH blobauth=$BA migratable=0" &&
		t_key_add trusted r_n "new 113 $KH" && t_key_add trusted r_r "new 33 $KH" &&
		t_key_add trusted r_p "new 32 $KH policydigest=$T_TPM2_POLICY_PW blobauth=hello" &&
		t_enc_new e_r r_a && t_enc_new e_n r_n
}
t_check "in-tree: new keys (default, blobauth+migratable=0, 113 and 33 bytes, policydigest)" make_ref
br=$(t_key_blob trusted r_a) brb=$(t_key_blob trusted r_b) brn=$(t_key_blob trusted r_n) brr=$(t_key_blob trusted r_r) brp=$(t_key_blob trusted r_p)
er=$(t_key_blob encrypted e_r) en=$(t_key_blob encrypted e_n)
t_errno "in-tree: new 114 fails with E2BIG (its documented range is 32..128)" E2BIG \
	t_key_refused trusted r_x "new 114 $KH"

t_mods_load ours ref-if-any
t_check "ours: the in-tree blob loads without options, print same" loads r_a "$br"
t_check "ours: same key bytes (in-tree encrypted key loads)" t_enc_loads e_r "$er"
t_check "ours: in-tree blobauth blob loads with its blobauth" loads r_b "$brb" "blobauth=$BA"
t_errno "ours: ... and honours its migratable=0 (update EPERM)" EPERM t_key_update_refused trusted r_b update
n113() { loads r_n "$brn" && t_enc_loads e_n "$en"; }
t_check "ours: in-tree 113-byte key loads with the same bytes" n113
t_check "ours: in-tree policydigest blob loads with policyhandle=" policy_load r_p "$brp"

# --- the raw form (kernels before 5.13): TPM2B_PRIVATE || TPM2B_PUBLIC -------
# A 33-byte key read as the raw form is 32 key bytes and a migratable byte;
# both modules must read it the same way.
raw=$(t_tpm2_raw "$brr")
raw_same() {
	t_key_add trusted r_raw "load $raw $KH" && t_enc_new e_raw r_raw || return 1
	_e=$(t_key_blob encrypted e_raw)
	t_mods_load ref ref-if-any && t_key_add trusted r_raw "load $raw $KH" && t_enc_loads e_raw "$_e"
	_rc=$?
	t_mods_load ours ref-if-any
	return $_rc
}
t_check "raw form: ours and in-tree unseal the same key from it" raw_same
t_errno "raw form without keyhandle=: EINVAL" EINVAL t_key_refused trusted r_raw2 "load $raw"
t_key_add trusted r_a "new 32"
t_errno "control: under another master named r_a the encrypted key fails" EINVAL \
	t_enc_loads e_r "$er"

t_drop i_a i_b i_m i_x i_d i_p r_a r_b r_n r_r r_p r_raw e_a e_x e_d e_r e_n e_raw
