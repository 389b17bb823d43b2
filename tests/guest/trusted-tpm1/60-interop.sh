#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interoperability with the in-tree trusted.ko (test kernel, phase 1):
# blobs sealed by ours load in the in-tree module and the other way round,
# with blobauth, pcrinfo, 128-byte keys and migratable=0. Loading is not
# enough: an encrypted key (in-tree encrypted-keys.ko, which sits on
# either trusted.ko) made under the master in one module loads under the
# same blob loaded by the other module, which its HMAC check only allows
# when the master key bytes are identical. A control shows the check bites.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require ref
t_mods test ref-if-any
if [ ! -f "$TK_REF/encrypted-keys.ko" ]; then
	t_skip_all "no in-tree encrypted-keys.ko"
fi

A=$(tk_impl)
BA=fedcba9876543210fedcba9876543210fedcba98
PCR=23

# loads NAME BLOB [OPTIONS]: BLOB loads as trusted key NAME and keyctl
# print gives it back.
loads() {
	tk_add "$1" "load $2${3:+ $3}" || return 1
	tk_eq "print" "$(tk_blob "$1")" "$2"
}

make_a() {
	tk_add i_a "new 32" && tk_add i_ab "new 32 blobauth=$BA" &&
		_pi=$(tk_pcrinfo $PCR) && tk_add i_ap "new 64 pcrinfo=$_pi" &&
		tk_enc_new e_a i_a && tk_have_enc
}
t_check "$A: new keys (default, blobauth, pcrinfo) and an encrypted key" make_a
ba=$(tk_blob i_a) bab=$(tk_blob i_ab) bap=$(tk_blob i_ap) ea=$(tk_enc_blob e_a)

tk_mods ref
t_check "in-tree: $A's blob loads, print gives it back" loads i_a "$ba"
t_check "in-tree: same key bytes ($A's encrypted key loads)" tk_enc_loads e_a "$ea"
t_check "in-tree: $A's blobauth blob loads with its blobauth" loads i_ab "$bab" "blobauth=$BA"
t_check "in-tree: $A's pcrinfo blob of a 64-byte key loads" loads i_ap "$bap"

make_r() {
	tk_add i_r "new 32 blobauth=$BA migratable=0" && tk_add i_rx "new 128" &&
		tk_enc_new e_r i_r && tk_have_enc
}
t_check "in-tree: new keys (blobauth + migratable=0, 128 bytes), encrypted key" make_r
br=$(tk_blob i_r) brx=$(tk_blob i_rx) er=$(tk_enc_blob e_r)

tk_mods "$A"
t_check "$A: in-tree blobauth blob loads with its blobauth, print same" \
	loads i_r "$br" "blobauth=$BA"
t_check "$A: same key bytes (in-tree encrypted key loads)" tk_enc_loads e_r "$er"
t_errno "$A: in-tree migratable=0 is honoured (update refused)" EPERM \
	tk_update_refused i_r update
t_check "$A: in-tree 128-byte blob loads" loads i_rx "$brx"
tk_add i_r "new 32"
t_errno "control: under another master named i_r the encrypted key fails" EINVAL \
	tk_enc_loads e_r "$er"

tk_drop i_a i_ab i_ap i_r i_rx e_a e_r
