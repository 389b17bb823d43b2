#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sealing to PCRs on a TPM 1.2 (phase 1). A key sealed with pcrinfo= to
# the current value of PCR 16 loads; once pcrlock=16 extended it, the same
# blob no longer loads (the TPM refuses: EPERM). A blob sealed to a value
# PCR 16 does not hold never loads; update moves a key to the new value;
# a selection of two PCRs (16, 23) is hashed in index order.
# TPM_PCR_INFO = sizeOfSelect (u16 BE, 3) || pcrSelect[3] ||
#   digestAtRelease = SHA1(TPM_PCR_COMPOSITE) || digestAtCreation (zero);
# TPM_PCR_COMPOSITE = TPM_PCR_SELECTION || valueSize (u32 BE) || values.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any
P=16

if ! t_pcr $P >/dev/null; then
	t_skip_all "PCR $P not readable from /sys/class/tpm/tpm0"
fi

pi=$(t_pcrinfo $P)
t_check "new sealed to the current PCR $P" t_key_add trusted p_k "new 32 pcrinfo=$pi"
b=$(t_key_blob trusted p_k)
t_check "the blob passes pcrSelect and digestAtRelease to the TPM" \
	t_eq "sealInfo" "$(echo "$b" | cut -c17-66)" "$(echo "$pi" | cut -c1-50)"
t_check "the blob loads while PCR $P is unchanged" t_key_add trusted p_l "load $b"
t_check "load with pcrlock=$P: loaded, PCR $P extended" \
	t_pcr_moves $P t_key_add trusted p_lock "load $b pcrlock=$P"
t_errno "after pcrlock=$P the same blob no longer loads" EPERM \
	t_key_refused trusted p_l2 "load $b"

wrong=$(t_pcrinfo_raw $P ffffffffffffffffffffffffffffffffffffffff)
t_check "new sealed to a value PCR $P does not hold (the TPM seals it)" \
	t_key_add trusted p_w "new 32 pcrinfo=$wrong"
t_errno "that blob does not load" EPERM t_key_refused trusted p_w2 "load $(t_key_blob trusted p_w)"

pi2=$(t_pcrinfo $P)
t_check "update moves the loaded key to the new PCR $P value" \
	t_updates p_lock "pcrinfo=$pi2"
t_check "the resealed blob loads" t_key_add trusted p_l3 "load $(t_key_blob trusted p_lock)"

if pi3=$(t_pcrinfo 16 23); then
	t_check "new sealed to PCRs 16 and 23" t_key_add trusted p_two "new 32 pcrinfo=$pi3"
	t_check "PCRs 16 and 23: the blob loads" t_key_add trusted p_two2 "load $(t_key_blob trusted p_two)"
else
	t_skip "PCRs 16 and 23" "PCR 23 not readable"
fi

t_drop p_k p_l p_lock p_w p_l3 p_two p_two2
