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
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require ref
t_mods test ref-if-any
if [ ! -f "$TKH_REF/encrypted-keys.ko" ]; then
	t_skip_all "no in-tree encrypted-keys.ko"
fi

A=$(t_impl)
BA=fedcba9876543210fedcba9876543210fedcba98
PCR=23

# loads NAME BLOB [OPTIONS]: BLOB loads as trusted key NAME and keyctl
# print gives it back.
loads() {
	t_key_add trusted "$1" "load $2${3:+ $3}" || return 1
	t_eq "print" "$(t_key_blob trusted "$1")" "$2"
}

make_a() {
	t_key_add trusted i_a "new 32" && t_key_add trusted i_ab "new 32 blobauth=$BA" &&
		_pi=$(t_pcrinfo $PCR) && t_key_add trusted i_ap "new 64 pcrinfo=$_pi" &&
		t_enc_new e_a i_a && t_have_enc
}
t_check "$A: new keys (default, blobauth, pcrinfo) and an encrypted key" make_a
ba=$(t_key_blob trusted i_a) bab=$(t_key_blob trusted i_ab) bap=$(t_key_blob trusted i_ap) ea=$(t_key_blob encrypted e_a)

t_mods_load ref ref-if-any
t_check "in-tree: $A's blob loads, print gives it back" loads i_a "$ba"
t_check "in-tree: same key bytes ($A's encrypted key loads)" t_enc_loads e_a "$ea"
t_check "in-tree: $A's blobauth blob loads with its blobauth" loads i_ab "$bab" "blobauth=$BA"
t_check "in-tree: $A's pcrinfo blob of a 64-byte key loads" loads i_ap "$bap"

make_r() {
	t_key_add trusted i_r "new 32 blobauth=$BA migratable=0" && t_key_add trusted i_rx "new 128" &&
		t_enc_new e_r i_r && t_have_enc
}
t_check "in-tree: new keys (blobauth + migratable=0, 128 bytes), encrypted key" make_r
br=$(t_key_blob trusted i_r) brx=$(t_key_blob trusted i_rx) er=$(t_key_blob encrypted e_r)

t_mods_load "$A" ref-if-any
t_check "$A: in-tree blobauth blob loads with its blobauth, print same" \
	loads i_r "$br" "blobauth=$BA"
t_check "$A: same key bytes (in-tree encrypted key loads)" t_enc_loads e_r "$er"
t_errno "$A: in-tree migratable=0 is honoured (update refused)" EPERM \
	t_key_update_refused trusted i_r update
t_check "$A: in-tree 128-byte blob loads" loads i_rx "$brx"
t_key_add trusted i_r "new 32"
t_errno "control: under another master named i_r the encrypted key fails" EINVAL \
	t_enc_loads e_r "$er"

t_drop i_a i_ab i_ap i_r i_rx e_a e_r
