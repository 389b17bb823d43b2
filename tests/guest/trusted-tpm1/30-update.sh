#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# keyctl update reseals on a TPM 1.2 (phase 1): the key keeps its id, gets
# a new blob that differs from the old one and loads, and (test kernel,
# through an encrypted key) the key bytes stay the same. Options of
# update (pcrinfo, keyauth, migratable=0) and updates that are refused
# (EINVAL, the blob stays as it was).
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any
PCR=23

t_check "new key" tk_add u_k "new 32"
id1=$(tk_id u_k)
blob1=$(tk_blob u_k)
have_enc=
tk_have_enc && tk_enc_new u_e u_k && eblob=$(tk_enc_blob u_e) && have_enc=1

t_check "update reseals: a new blob" tk_updates u_k
t_check "update keeps the key id" tk_eq "id" "$(tk_id u_k)" "$id1"
blob2=$(tk_blob u_k)
t_check "the new blob loads" tk_add u_k2 "load $blob2"
t_check "the old blob still loads" tk_add u_k3 "load $blob1"

if [ -n "$have_enc" ]; then
	tk_drop u_k u_k2 u_k3 u_e
	tk_add u_k "load $blob2"
	t_check "the resealed key has the same bytes (its encrypted key loads)" \
		tk_enc_loads u_e "$eblob"
	tk_add u_k "new 32"
	t_errno "control: another master of the same name does not load it" \
		EINVAL tk_enc_loads u_e "$eblob"
	tk_drop u_e
	tk_add u_k "load $blob2"
else
	t_skip "update keeps the key bytes (via an encrypted key)" "no encrypted key type with trusted masters on $TK_KERNEL"
fi

if pi=$(tk_pcrinfo $PCR); then
	t_check "update pcrinfo= (PCR $PCR) reseals" tk_updates u_k "pcrinfo=$pi"
	b=$(tk_blob u_k)
	t_check "the resealed blob carries the PCR info" \
		tk_eq sealInfoSize "$(tk_u32_at "$b" 4)" 45
	t_check "the PCR-bound blob loads" tk_add u_k4 "load $b"
else
	t_skip "update pcrinfo=" "PCR $PCR not readable from sysfs"
fi
t_check "update keyauth=<zeros> reseals" tk_updates u_k "keyauth=$TK_Z40"
t_check "update keyhandle=$TK_SRK reseals" tk_updates u_k "keyhandle=$TK_SRK"

t_errno "update with an unknown option refused" EINVAL \
	tk_update_refused u_k "update foo=1"
t_errno "update with a non-hex pcrinfo refused" EINVAL \
	tk_update_refused u_k "update pcrinfo=zz"
t_errno "\"new 32\" as an update refused" EINVAL tk_update_refused u_k "new 32"
t_errno "\"load BLOB\" as an update refused" EINVAL \
	tk_update_refused u_k "load $blob1"

tk_add u_m "new 32"
t_check "update migratable=0 reseals" tk_updates u_m "migratable=0"
t_errno "after update migratable=0, update is refused" EPERM \
	tk_update_refused u_m update

tk_drop u_k u_k2 u_k3 u_k4 u_m u_e
