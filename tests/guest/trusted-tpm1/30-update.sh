#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# keyctl update reseals on a TPM 1.2 (phase 1): the key keeps its id, gets
# a new blob that differs from the old one and loads, and (test kernel,
# through an encrypted key) the key bytes stay the same. Options of
# update (pcrinfo, keyauth, migratable=0) and updates that are refused
# (EINVAL, the blob stays as it was).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any
PCR=23

t_check "new key" t_key_add trusted u_k "new 32"
id1=$(t_key_id trusted u_k)
blob1=$(t_key_blob trusted u_k)
have_enc=
t_have_enc && t_enc_new u_e u_k && eblob=$(t_key_blob encrypted u_e) && have_enc=1

t_check "update reseals: a new blob" t_updates u_k
t_check "update keeps the key id" t_eq "id" "$(t_key_id trusted u_k)" "$id1"
blob2=$(t_key_blob trusted u_k)
t_check "the new blob loads" t_key_add trusted u_k2 "load $blob2"
t_check "the old blob still loads" t_key_add trusted u_k3 "load $blob1"

if [ -n "$have_enc" ]; then
	t_drop u_k u_k2 u_k3 u_e
	t_key_add trusted u_k "load $blob2"
	t_check "the resealed key has the same bytes (its encrypted key loads)" \
		t_enc_loads u_e "$eblob"
	t_key_add trusted u_k "new 32"
	t_errno "control: another master of the same name does not load it" \
		EINVAL t_enc_loads u_e "$eblob"
	t_drop u_e
	t_key_add trusted u_k "load $blob2"
else
	t_skip "update keeps the key bytes (via an encrypted key)" "no encrypted key type with trusted masters on $TKH_KERNEL"
fi

if pi=$(t_pcrinfo $PCR); then
	t_check "update pcrinfo= (PCR $PCR) reseals" t_updates u_k "pcrinfo=$pi"
	b=$(t_key_blob trusted u_k)
	t_check "the resealed blob carries the PCR info" \
		t_eq sealInfoSize "$(t_u32_at "$b" 4)" 45
	t_check "the PCR-bound blob loads" t_key_add trusted u_k4 "load $b"
else
	t_skip "update pcrinfo=" "PCR $PCR not readable from sysfs"
fi
t_check "update keyauth=<zeros> reseals" t_updates u_k "keyauth=$T_Z40"
t_check "update keyhandle=$T_SRK reseals" t_updates u_k "keyhandle=$T_SRK"

t_errno "update with an unknown option refused" EINVAL \
	t_key_update_refused trusted u_k "update foo=1"
t_errno "update with a non-hex pcrinfo refused" EINVAL \
	t_key_update_refused trusted u_k "update pcrinfo=zz"
t_errno "\"new 32\" as an update refused" EINVAL t_key_update_refused trusted u_k "new 32"
t_errno "\"load BLOB\" as an update refused" EINVAL \
	t_key_update_refused trusted u_k "load $blob1"

t_key_add trusted u_m "new 32"
t_check "update migratable=0 reseals" t_updates u_m "migratable=0"
t_errno "after update migratable=0, update is refused" EPERM \
	t_key_update_refused trusted u_m update

t_drop u_k u_k2 u_k3 u_k4 u_m u_e
