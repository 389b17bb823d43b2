#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: pcrs=<bank>:<list> seals to the current values of those
# PCRs; the kernel runs the policy itself at load (policy session,
# PolicyPCR, Unseal). The blob carries a PolicyPCR in the TPMKey policy
# field: pcrDigest = SHA-256 of the PCR values for a SHA-256 object, then
# a PolicyCommandCode(TPM2_Unseal): the object serves Unseal only. After
# pcrlock=16 extended PCR 16 the blob no longer loads (EPERM) and its policy
# session is not left behind; update reseals to the new value; a blob whose
# policy field does not yield the object's authPolicy is refused before the
# TPM sees it (EINVAL). More than eight PCRs take several PCR_Read.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
P=16

if [ -z "$(t_tpm2_pcr $P)" ]; then
	t_skip_rest "PCR $P not readable from /sys/class/tpm/tpm0/pcr-sha256"
	exit 0
fi

# policy_body BLOB: the CommandPolicy of the blob's first TPMPolicy.
policy_body() {
	_seq=$(t_tpm2_der_get "$1" a1) || return 1
	_pol=$(t_tpm2_der_fields "$_seq" | awk 'NR == 1 { print $2 }')
	_pol=$(t_tpm2_der_fields "30$(printf '%02x' $((${#_pol} / 2)))$_pol" | awk '$1 == "a1" { print $2 }')
	echo "$_pol" | cut -c5-
}
# policy_code BLOB: its CommandCode.
policy_code() {
	_seq=$(t_tpm2_der_get "$1" a1) || return 1
	_pol=$(t_tpm2_der_fields "$_seq" | awk 'NR == 1 { print $2 }')
	t_tpm2_der_fields "30$(printf '%02x' $((${#_pol} / 2)))$_pol" | awk '$1 == "a0" { print substr($2, 5) }'
}

# policy_cmds BLOB: "code:body" of each TPMPolicy of the policy field.
policy_cmds() {
	_seq=$(t_tpm2_der_get "$1" a1) || return 1
	t_tpm2_der_fields "$_seq" | while read -r _t _pol; do
		_f=$(t_tpm2_der_fields "30$(printf '%02x' $((${#_pol} / 2)))$_pol")
		printf '%s:%s\n' "$(echo "$_f" | awk '$1 == "a0" { print substr($2, 5) }')" \
			"$(echo "$_f" | awk '$1 == "a1" { print substr($2, 5) }')"
	done
}

pcr_digest() {
	_v=
	for _p in "$@"; do _v=$_v$(t_tpm2_pcr "$_p"); done
	t_unhex "$_v" | sha256sum | cut -d' ' -f1
}

t_check "new 32 pcrs=sha256:$P" t_key_add trusted c_k "new 32 pcrs=sha256:$P"
b=$(t_key_blob trusted c_k)
check_policy() {
	t_eq "CommandCode" "$(policy_code "$b")" 017f || return 1
	t_eq "CommandPolicy" "$(policy_body "$b")" \
		"0020$(pcr_digest $P)00000001000b03000001"
}
t_check "the blob's policy: PolicyPCR, SHA-256 of PCR $P, PCR $P selected" check_policy
unseal_only() {
	t_eq "commands" "$(policy_cmds "$b" | tr '\n' ' ')" \
		"017f:0020$(pcr_digest $P)00000001000b03000001 016c:0000015e "
}
t_check "  ... then PolicyCommandCode(TPM2_Unseal): the object opens for Unseal only" unseal_only
no_user_auth() {
	_a=$(t_tpm2_attrs "$b")
	t_eq "userWithAuth" $((0x$_a & 0x40)) 0
}
t_check "the object has no userWithAuth: only the policy opens it" no_user_auth
t_check "the blob loads without options" t_key_add trusted c_l "load $b"
t_tpm2_same "  ... with the same key bytes" c_k "load $b"

pcr_moves() {
	_v0=$(t_tpm2_pcr $P)
	"$@" || return 1
	[ "$(t_tpm2_pcr $P)" != "$_v0" ] || { echo "PCR $P unchanged" >&2; return 1; }
}
t_check "load with pcrlock=$P: loaded, PCR $P extended" pcr_moves t_key_add trusted c_lock "load $b pcrlock=$P"
t_errno "after that the blob no longer loads: EPERM" EPERM t_key_refused trusted c_l2 "load $b"
t_check "  ... and its policy session was flushed" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_check "update pcrs=sha256:$P reseals to the new value" t_updates c_lock "pcrs=sha256:$P"
t_check "  ... the resealed blob loads" t_key_add trusted c_l3 "load $(t_key_blob trusted c_lock)"

two() {
	t_key_add trusted c_two "new 32 pcrs=sha256:7,$P" || return 1
	t_eq "CommandPolicy" "$(policy_body "$(t_key_blob trusted c_two)")" \
		"0020$(pcr_digest 7 $P)00000001000b03800001" || return 1
	t_key_add trusted c_two2 "load $(t_key_blob trusted c_two)"
}
t_check "pcrs=sha256:7,$P: both PCRs in index order; loads" two
t_check "pcrs=sha256:0-23 (24 PCRs, several PCR_Read): new and load" sh -c '
	keyctl add trusted c_all "new 32 pcrs=sha256:0-23" @u >/dev/null &&
	keyctl add trusted c_all2 "load $(keyctl pipe $(keyctl search @u trusted c_all))" @u >/dev/null'
for h in sha1 sha384; do
	t_check "hash=$h pcrs=sha256:$P: a $h policy over SHA-256 PCRs; loads" sh -c "
	keyctl add trusted c_$h 'new 32 hash=$h pcrs=sha256:$P' @u >/dev/null &&
	keyctl add trusted c_${h}2 \"load \$(keyctl pipe \$(keyctl search @u trusted c_$h))\" @u >/dev/null"
done
# A blob is at most 512 bytes (struct trusted_key_payload). A PCR policy
# adds a PolicyPCR and a PolicyCommandCode to the blob and a policy digest
# and a seed of the object's hash to the object: with SHA-384, 112-byte
# keys fit; with SHA-512 only up to 37 bytes (swtpm's TPM2B_PRIVATE grows
# by 2 digests).
fits() { # NAME OPTIONS
	t_key_add trusted "$1" "new $2" || { echo "new $2: refused" >&2; return 1; }
	_b=$(t_key_blob trusted "$1")
	echo "new $2: $((${#_b} / 2)) bytes" >&2
	[ ${#_b} -le 1024 ] && t_key_add trusted "${1}2" "load $_b"
}
t_check "new 112 hash=sha384 pcrs=: fits 512 bytes; loads" fits c_big "112 hash=sha384 pcrs=sha256:$P"
t_check "new 37 hash=sha512 pcrs=: fits; loads" fits c_b512 "37 hash=sha512 pcrs=sha256:$P"
t_errno "new 128 hash=sha512 pcrs=: over 512 bytes: EINVAL" EINVAL \
	t_key_refused trusted c_x "new 128 hash=sha512 pcrs=sha256:$P"
if [ -d /sys/class/tpm/tpm0/pcr-sha1 ]; then
	t_check "pcrs=sha1:$P (the SHA-1 bank is active)" t_key_add trusted c_b "new 32 pcrs=sha1:$P"
else
	t_errno "pcrs=sha1:$P without a SHA-1 bank: EINVAL" EINVAL t_key_refused trusted c_b "new 32 pcrs=sha1:$P"
fi

t_errno "pcrs with blobauth and hash=sha1: EINVAL (63-pin-policy: sha256)" EINVAL \
	t_key_refused trusted c_x "new 32 hash=sha1 pcrs=sha256:$P blobauth=hello"
t_errno "pcrs with policydigest: EINVAL" EINVAL t_key_refused trusted c_x \
	"new 32 pcrs=sha256:$P policydigest=$T_TPM2_POLICY_PW"
t_errno "pcrs on load: EINVAL" EINVAL t_key_refused trusted c_x "load $(t_key_blob trusted c_lock) pcrs=sha256:$P"

# The PolicyPCR's selection of PCR 16 (01 in its third select byte) made
# PCR 17: the policy no longer yields the object's authPolicy.
b2=$(t_key_blob trusted c_lock)
tampered=$(echo "$b2" | sed 's/00000001000b03000001/00000001000b03000002/')
t_errno "a policy field that is not the object's policy: EINVAL" EINVAL \
	t_key_refused trusted c_t "load $tampered"

t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

t_drop c_big c_big2 c_b512 c_b5122 c_k c_l c_lock c_l3 c_two c_two2 c_all c_all2 c_sha1 c_sha12 c_sha384 c_sha3842 c_b
