#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: a PIN (blobauth=) with a PCR policy (pcrs=). The
# object's authPolicy is PolicyPCR, PolicyCommandCode(Unseal), then
# PolicyAuthValue, its authValue the PIN; no userWithAuth, no noDA
# (dictionary-attack protected). The blob's policy field lists the three
# commands. At load the
# kernel runs them in a policy session salted to the parent, and Unseal is
# authorised by that session alone, its HMAC keyed by sessionKey || PIN
# (the PIN never crosses the bus). Right PIN: loads; none or a wrong one:
# EPERM; with sessions=0 the unsalted policy session's HMAC is keyed by the
# PIN alone and the same holds. Two wrong PINs with DA maxTries lowered to
# 2 lock the TPM out: EBUSY (as 62-pin). keyctl update with the same pcrs=
# and a new blobauth= reseals the same key under the new PIN. After PCR 16 moved, the right PIN
# no longer loads it (EPERM). hash=sha1 with a PIN and pcrs=: EINVAL
# (our policy sessions are SHA-256). A PIN with policykey= (when
# trusted-policy is in the initramfs): authPolicy = H(PolicyAuthorize(signer)
# || CC_PolicyAuthValue), trusted-policy add writes policy [1] as
# PolicyAuthorize then PolicyAuthValue; the right PIN loads through the
# signed policy, a wrong one is EPERM.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
P=16

if [ -z "$(t_tpm2_pcr $P)" ]; then
	t_skip_all "PCR $P not readable from /sys/class/tpm/tpm0/pcr-sha256"
fi

# policy_cmds BLOB: the blob's policy commands, "CODE BODY" a line.
policy_cmds() {
	_seq=$(t_tpm2_der_get "$1" a1) || return 1
	t_tpm2_der_fields "$_seq" | while read -r _t _pol; do
		_f=$(t_tpm2_der_fields "30$(printf '%02x' $((${#_pol} / 2)))$_pol")
		_c=$(echo "$_f" | awk '$1 == "a0" { print substr($2, 5) }')
		_b=$(echo "$_f" | awk '$1 == "a1" { print substr($2, 5) }')
		echo "$_c ${_b:--}"
	done
}
pcr_digest() {
	t_unhex "$(t_tpm2_pcr "$1")" | sha256sum | cut -d' ' -f1
}
sha256_hex() {
	t_unhex "$1" | sha256sum | cut -d' ' -f1
}

t_tpm2_da_restore >/dev/null 2>&1
t_check "new 32 pcrs=sha256:$P blobauth=<PIN>" t_key_add trusted q_k "new 32 pcrs=sha256:$P blobauth=4711"
b=$(t_key_blob trusted q_k)
body="0020$(pcr_digest $P)00000001000b03000001"
check_cmds() {
	t_eq "policy commands" "$(policy_cmds "$b" | tr '\n' ' ')" \
		"017f $body 016c 0000015e 016b - "
}
t_check "the blob's policy: PolicyPCR, PolicyCommandCode(Unseal), then PolicyAuthValue (empty body)" check_cmds
check_auth_policy() {
	# H(H(H(0^32 || 0000017f || pcrs || pcrDigest) || 0000016c || 0000015e)
	#   || 0000016b)
	_p=$(sha256_hex "$(printf '%064d' 0)0000017f00000001000b03000001$(pcr_digest $P)")
	_p=$(sha256_hex "${_p}0000016c0000015e")
	_p=$(sha256_hex "${_p}0000016b")
	t_eq "authPolicy" "$(t_tpm2_der_get "$b" 04 1 | cut -c21-88)" "0020$_p"
}
t_check "the object's authPolicy: PolicyPCR, PolicyCommandCode, PolicyAuthValue, computed here" check_auth_policy
attrs() {
	_a=0x$(t_tpm2_attrs "$b")
	t_eq "userWithAuth" $((_a & 0x40)) 0 && t_eq "noDA" $((_a & 0x400)) 0
}
t_check "no userWithAuth, no noDA: the policy alone opens it, DA-protected" attrs
t_check "the right PIN loads it" t_key_add trusted q_l "load $b blobauth=4711"
t_tpm2_same "  ... with the same key bytes" q_k "load $b blobauth=4711"
t_errno "a wrong PIN: EACCES" EACCES t_key_refused trusted q_x "load $b blobauth=0815"
t_errno "no PIN: EACCES" EACCES t_key_refused trusted q_x "load $b"
t_check "sessions=0 (an unsalted policy session, HMAC keyed by the PIN): loads" \
	t_key_add trusted q_l0 "load $b blobauth=4711 sessions=0"
t_errno "sessions=0, a wrong PIN: EACCES" EACCES t_key_refused trusted q_x "load $b blobauth=0815 sessions=0"
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

t_check "DA maxTries lowered to 2 (recovery 600 s)" t_tpm2_da_lower
t_tpm2_wrong_pins q_x "$b"
t_errno "after two wrong PINs the right one is refused too: EBUSY (lockout)" EBUSY \
	t_key_refused trusted q_x "load $b blobauth=4711"
t_check "DA counter reset, provisioned parameters restored" t_tpm2_da_restore

# A new PIN under the same PCR policy: keyctl update reseals the same key.
t_check "update pcrs=sha256:$P blobauth=<new PIN> reseals the key" \
	t_updates q_l "pcrs=sha256:$P blobauth=0042"
bu=$(t_key_blob trusted q_l)
t_check "  ... the new PIN loads it" t_key_add trusted q_u "load $bu blobauth=0042"
t_errno "  ... the old PIN: EACCES" EACCES t_key_refused trusted q_x "load $bu blobauth=4711"
t_tpm2_same "  ... and it is the same key" q_k "load $bu blobauth=0042"

pcr_moves() {
	_v0=$(t_tpm2_pcr $P)
	"$@" || return 1
	[ "$(t_tpm2_pcr $P)" != "$_v0" ] || { echo "PCR $P unchanged" >&2; return 1; }
}
t_check "load with pcrlock=$P and the PIN: loaded, PCR $P extended" \
	pcr_moves t_key_add trusted q_lock "load $b blobauth=4711 pcrlock=$P"
t_errno "after that the right PIN no longer loads it: EPERM" EPERM \
	t_key_refused trusted q_x "load $b blobauth=4711"
t_errno "hash=sha1 pcrs= blobauth=: EINVAL (policy sessions are SHA-256)" EINVAL \
	t_key_refused trusted q_x "new 32 hash=sha1 pcrs=sha256:$P blobauth=4711"

# policykey= with a PIN: PolicyAuthValue after the PolicyAuthorize.
W=/tmp/tk2-pin
mkdir -p $W
if ! command -v trusted-policy >/dev/null; then
	t_skip_n 5 "trusted-policy is not in the initramfs (tools/ did not build: libssl-dev?)"
else
	EC=$(trusted-policy signer-public --signer "$here/keys/ec.pem" -o $W/s.pub &&
		xxd -p $W/s.pub | tr -d '\n')
	t_check "new 32 policykey=<ECDSA signer> blobauth=<PIN>" t_key_add trusted q_s "new 32 policykey=$EC blobauth=4711"
	bs=$(t_key_blob trusted q_s)
	signed_auth_policy() {
		_d=$(trusted-policy authorize --signer "$here/keys/ec.pem") || return 1
		t_eq "authPolicy" "$(t_tpm2_der_get "$bs" 04 1 | cut -c21-88)" \
			"0020$(sha256_hex "${_d}0000016b")"
	}
	t_check "its authPolicy: PolicyAuthorize(signer), then PolicyAuthValue" signed_auth_policy
	echo "$P: $(t_tpm2_pcr $P)" >$W/pcr.txt
	echo "$bs" >$W/in.hex
	bs1=$(trusted-policy add --signer "$here/keys/ec.pem" --pcrs sha256:$P \
		--pcr-values $W/pcr.txt --name pin1 $W/in.hex $W/out.hex && cat $W/out.hex)
	added() {
		t_eq "policy [1] commands" "$(policy_cmds "$bs1" | awk '{ printf "%s ", $1 }')" "016a 016b "
	}
	t_check "trusted-policy add: policy [1] is PolicyAuthorize then PolicyAuthValue" added
	t_check "the right PIN loads it (signed PolicyPCR, PolicyAuthorize, PolicyAuthValue)" \
		t_key_add trusted q_s1 "load $bs1 blobauth=4711"
	t_errno "policykey: a wrong PIN: EACCES" EACCES t_key_refused trusted q_x "load $bs1 blobauth=0815"
fi
rm -rf $W
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

t_tpm2_da_restore >/dev/null 2>&1
t_drop q_k q_l q_l0 q_lock q_s q_s1 q_u
