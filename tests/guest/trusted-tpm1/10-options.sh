#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every option of the trusted key type on a TPM 1.2 (phase 1): keyhandle,
# keyauth, blobauth, hash and the TPM 2.0-only ones, migratable, pcrinfo,
# pcrlock with and without CAP_SYS_ADMIN. Wrong authorisations are left to
# 90-wrong-auth.sh (the TPM locks out after a few).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any

BA=0123456789abcdef0123456789abcdef01234567	# a blobauth
PCR=23

t_check "new with keyhandle=$T_SRK" t_key_add trusted o_kh "new 32 keyhandle=$T_SRK"
b=$(t_key_blob trusted o_kh)
t_check "load with keyhandle=$T_SRK" t_key_add trusted o_kh2 "load $b keyhandle=$T_SRK"
t_check "keyhandle=0x$T_SRK: 0x prefix accepted" t_key_add trusted o_kh3 "load $b keyhandle=0x$T_SRK"

t_check "new with keyauth= 40 zero digits" t_key_add trusted o_ka "new 32 keyauth=$T_Z40"
b=$(t_key_blob trusted o_ka)
t_check "sealed with explicit keyauth, loads with the default" t_key_add trusted o_ka2 "load $b"
b=$(t_key_blob trusted o_kh)
t_check "sealed with the default keyauth, loads with explicit zeros" \
	t_key_add trusted o_ka3 "load $b keyauth=$T_Z40"

t_check "new with blobauth=" t_key_add trusted o_ba "new 32 blobauth=$BA"
b=$(t_key_blob trusted o_ba)
t_check "load with the same blobauth" t_key_add trusted o_ba2 "load $b blobauth=$BA"
t_check "load with the same blobauth in uppercase" \
	t_key_add trusted o_ba3 "load $b blobauth=$(echo $BA | tr a-f A-F)"

t_check "hash=sha1 accepted on TPM 1.2" t_key_add trusted o_h "new 32 hash=sha1"
t_errno "hash=sha256 refused on TPM 1.2" EINVAL t_key_refused trusted o_h2 "new 32 hash=sha256"
t_errno "policydigest= refused on TPM 1.2" EINVAL \
	t_key_refused trusted o_pd "new 32 policydigest=$T_Z40"
t_errno "policyhandle= refused on TPM 1.2" EINVAL \
	t_key_refused trusted o_ph "new 32 policyhandle=03000000"
t_errno "revoke= (an NV counter, TPM 2.0 only) refused on TPM 1.2" EINVAL \
	t_key_refused trusted o_rv "new 32 revoke=01800100"

t_check "migratable=1: new" t_key_add trusted o_m1 "new 32 migratable=1"
t_check "migratable=1: update reseals" t_updates o_m1
t_check "migratable=0: new" t_key_add trusted o_m0 "new 32 migratable=0"
t_errno "migratable=0: update refused" EPERM t_key_update_refused trusted o_m0 update
b=$(t_key_blob trusted o_m0)
t_key_add trusted o_m0l "load $b"
t_errno "migratable=0 is sealed in the blob: loaded key refuses update" EPERM \
	t_key_update_refused trusted o_m0l update
b=$(t_key_blob trusted o_m1)
t_key_add trusted o_m1l "load $b"
t_check "migratable=1 is sealed in the blob: loaded key updates" t_updates o_m1l

if pi=$(t_pcrinfo $PCR); then
	t_check "pcrinfo= (PCR $PCR): new" t_key_add trusted o_pi "new 32 pcrinfo=$pi"
	b=$(t_key_blob trusted o_pi)
	t_check "pcrinfo reached the TPM: sealInfoSize is 45" \
		t_eq sealInfoSize "$(t_u32_at "$b" 4)" 45
	t_check "pcrinfo= blob loads while PCR $PCR is unchanged" t_key_add trusted o_pi2 "load $b"
else
	t_skip "pcrinfo= checks" "PCR $PCR not readable from sysfs"
fi

t_check "pcrlock=$PCR on new (root): key created, PCR $PCR extended" \
	t_pcr_moves $PCR t_key_add trusted o_pl "new 32 pcrlock=$PCR"
b=$(t_key_blob trusted o_pl)
t_check "pcrlock=$PCR on load (root): key loaded, PCR $PCR extended" \
	t_pcr_moves $PCR t_key_add trusted o_pl2 "load $b pcrlock=$PCR"
t_check "pcrlock=$PCR on update (root): resealed, PCR $PCR extended" \
	t_pcr_moves $PCR t_updates o_pl "pcrlock=$PCR"

if t_user_setup; then
	t_check "uid $T_USER_ID without capabilities can add a trusted key" \
		t_user_add u_ok "new 32"
	t_errno "pcrlock without CAP_SYS_ADMIN: new refused" EPERM \
		t_user_refused u_pl "new 32 pcrlock=$PCR"
	b=$(t_key_blob trusted o_kh)
	t_errno "pcrlock without CAP_SYS_ADMIN: load refused" EPERM \
		t_user_refused u_pl2 "load $b pcrlock=$PCR"
	t_check "refused pcrlock leaves PCR $PCR as it was" \
		t_pcr_stays $PCR t_user_add u_pl3 "new 32 pcrlock=$PCR"
	t_as_user keyctl clear @u >/dev/null 2>&1
else
	t_skip "pcrlock= without CAP_SYS_ADMIN" "cannot run as an unprivileged user (busybox su)"
fi

t_drop o_kh o_kh2 o_kh3 o_ka o_ka2 o_ka3 o_ba o_ba2 o_ba3 o_h o_m1 o_m0 \
	o_m0l o_m1l o_pi o_pi2 o_pl o_pl2
