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
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
why=
[ -n "$why" ] || [ -n "$TK_REF" ] || why="no in-tree reference on ${TK_KERNEL:-this kernel}"
[ -n "$why" ] || [ -f "$TK_REF/encrypted-keys.ko" ] || why="no in-tree encrypted-keys.ko"
tk2_begin "$why" || exit 0
if ! tk2_srk_present; then
	t_skip_rest "no SRK at 0x81000001: the in-tree module needs one"
	exit 0
fi
KH=keyhandle=0x81000001
BA=$TK2_BA

loads() {
	tk_add "$1" "load $2${3:+ $3}" || return 1
	tk_eq "print" "$(tk_blob "$1")" "$2"
}

policy_load() { # NAME BLOB
	_s=$(tk2_pw_session) || return 1
	loads "$1" "$2" "policyhandle=0x$_s blobauth=hello"
	_rc=$?
	tk2_flush "$_s"
	return $_rc
}

# --- ours -> in-tree -------------------------------------------------------
tk_mods ours
make_ours() {
	tk_add i_a "new 32 $KH" && tk_add i_b "new 32 $KH blobauth=$BA" &&
		tk_add i_m "new 64 $KH migratable=0 hash=sha1" &&
		tk_add i_x "new 128 $KH" && tk_add i_d "new 32" &&
		tk_add i_p "new 32 $KH policydigest=$TK2_POLICY_PW blobauth=hello" &&
		tk_enc_new e_a i_a && tk_enc_new e_x i_x && tk_enc_new e_d i_d
}
t_check "ours: new keys (default, blobauth, migratable=0+sha1, 128 bytes, no keyhandle, policydigest)" make_ours
ba=$(tk_blob i_a) bb=$(tk_blob i_b) bm=$(tk_blob i_m) bx=$(tk_blob i_x)
bd=$(tk_blob i_d) bp=$(tk_blob i_p)
ea=$(tk_enc_blob e_a) ex=$(tk_enc_blob e_x) ed=$(tk_enc_blob e_d)

tk_mods ref
t_check "in-tree: ours' blob loads, print gives it back" loads i_a "$ba"
t_check "in-tree: same key bytes (ours' encrypted key loads)" tk_enc_loads e_a "$ea"
t_check "in-tree: ours' blobauth blob loads with its blobauth" loads i_b "$bb" "blobauth=$BA"
t_check "in-tree: ours' migratable=0 sha1 64-byte blob loads" loads i_m "$bm"
t_errno "in-tree: ... and honours migratable=0 (update EPERM)" EPERM tk_update_refused i_m "update $KH"
t_check "in-tree: ours' 128-byte blob loads" loads i_x "$bx"
t_check "in-tree: ... with the same key bytes" tk_enc_loads e_x "$ex"
t_check "in-tree: ours' blob made without keyhandle= loads" loads i_d "$bd"
t_check "in-tree: ... with the same key bytes" tk_enc_loads e_d "$ed"
t_check "in-tree: ours' policydigest blob loads with policyhandle=" policy_load i_p "$bp"

# --- in-tree -> ours -------------------------------------------------------
make_ref() {
	tk_add r_a "new 32 $KH" && tk_add r_b "new 32 $KH blobauth=$BA migratable=0" &&
		tk_add r_n "new 113 $KH" && tk_add r_r "new 33 $KH" &&
		tk_add r_p "new 32 $KH policydigest=$TK2_POLICY_PW blobauth=hello" &&
		tk_enc_new e_r r_a && tk_enc_new e_n r_n
}
t_check "in-tree: new keys (default, blobauth+migratable=0, 113 and 33 bytes, policydigest)" make_ref
br=$(tk_blob r_a) brb=$(tk_blob r_b) brn=$(tk_blob r_n) brr=$(tk_blob r_r) brp=$(tk_blob r_p)
er=$(tk_enc_blob e_r) en=$(tk_enc_blob e_n)
t_errno "in-tree: new 114 fails with E2BIG (its documented range is 32..128)" E2BIG \
	tk_refused r_x "new 114 $KH"

tk_mods ours
t_check "ours: the in-tree blob loads without options, print same" loads r_a "$br"
t_check "ours: same key bytes (in-tree encrypted key loads)" tk_enc_loads e_r "$er"
t_check "ours: in-tree blobauth blob loads with its blobauth" loads r_b "$brb" "blobauth=$BA"
t_errno "ours: ... and honours its migratable=0 (update EPERM)" EPERM tk_update_refused r_b update
n113() { loads r_n "$brn" && tk_enc_loads e_n "$en"; }
t_check "ours: in-tree 113-byte key loads with the same bytes" n113
t_check "ours: in-tree policydigest blob loads with policyhandle=" policy_load r_p "$brp"

# --- the raw form (kernels before 5.13): TPM2B_PRIVATE || TPM2B_PUBLIC -------
# A 33-byte key read as the raw form is 32 key bytes and a migratable byte;
# both modules must read it the same way.
raw=$(tk2_raw "$brr")
raw_same() {
	tk_add r_raw "load $raw $KH" && tk_enc_new e_raw r_raw || return 1
	_e=$(tk_enc_blob e_raw)
	tk_mods ref && tk_add r_raw "load $raw $KH" && tk_enc_loads e_raw "$_e"
	_rc=$?
	tk_mods ours
	return $_rc
}
t_check "raw form: ours and in-tree unseal the same key from it" raw_same
t_errno "raw form without keyhandle=: EINVAL" EINVAL tk_refused r_raw2 "load $raw"
tk_add r_a "new 32"
t_errno "control: under another master named r_a the encrypted key fails" EINVAL \
	tk_enc_loads e_r "$er"

tk_drop i_a i_b i_m i_x i_d i_p r_a r_b r_n r_r r_p r_raw e_a e_x e_d e_r e_n e_raw
