#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: signed policies (policykey=, issue 10). A key sealed
# with policykey=<signer> has authPolicy PolicyAuthorize(signer); the
# trusted-policy tool (in the initramfs when it built) signs a PolicyPCR
# policy for PCR 16 and adds it to the blob's authPolicy [3] field; the
# kernel runs it at load (PolicyPCR, LoadExternal, VerifySignature,
# PolicyAuthorize, Unseal) and logs which one satisfied the TPM. After PCR
# 16 moves the blob does not load; a policy signed for the new value makes
# it load again, the TPM object unchanged. Refused: no signed policy, a
# policy with a broken signature, one signed by another key, an unsigned
# one, the old signer's policies after the key was resealed to a new signer
# (revocation by rotation). RSA-2048 and ECDSA P-256 signers. Test keys:
# keys/*.pem (test-only).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

P=$T_TPM2_SIGNED_PCR
KEYS=$here/keys
W=/tmp/tk2-signed
t_tpm2_signed_begin $W

# add_policy PEM NAME IN-HEX: IN with a policy signed by PEM for PCR P as it is now.
add_policy() {
	t_tpm2_policy_add "$1" $W "$2" "$3"
}
# extend: TPM2_PCR_Extend of PCR P (password session, empty auth).
extend() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000182 "000000$(printf %02x $P)0000000940000009000000000000000001000b$(echo x | sha256sum | cut -c1-64)")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "PCR_Extend: $_r" >&2; return 1; }
}
# with_a3 BLOB A3-TLV: BLOB with its authPolicy [3] element replaced (the
# TPMKey re-encoded around it).
with_a3() {
	_f=$(t_tpm2_der_fields "$1" | while read -r _t _v; do
		if [ "$_t" = a3 ]; then printf %s "$2"; else printf %s "$(t_tpm2_der "$_t" "$_v")"; fi
	done)
	t_tpm2_der 30 "$_f"
}
# logged TEXT: our module logged TEXT since t_tpm2_dmesg_mark.
logged() {
	t_tpm2_dmesg_new | grep -q "$1" || { echo "not logged: $1" >&2; t_tpm2_dmesg_new >&2; return 1; }
}

EC=$(t_tpm2_signer "$KEYS/ec.pem" $W)
RSA=$(t_tpm2_signer "$KEYS/rsa.pem" $W)
EC2=$(t_tpm2_signer "$KEYS/ec2.pem" $W)

t_check "new 32 policykey=<ECDSA P-256 signer>" t_key_add trusted s_k "new 32 policykey=$EC"
b0=$(t_key_blob trusted s_k)
auth_policy() {
	_d=$(trusted-policy authorize --signer "$KEYS/ec.pem") || return 1
	t_tpm2_der_get "$b0" 04 1 | grep -q "0020$_d" || { echo "authPolicy is not $_d" >&2; return 1; }
	t_eq "userWithAuth" $((0x$(t_tpm2_attrs "$b0") & 0x40)) 0
}
t_check "the object's authPolicy is PolicyAuthorize(signer) (trusted-policy authorize); no userWithAuth" auth_policy
t_errno "the blob without a signed policy does not load: EPERM" EPERM t_key_refused trusted s_x "load $b0"

b1=$(add_policy "$KEYS/ec.pem" boot1 "$b0")
t_check "trusted-policy add: a policy signed for PCR $P now" test -n "$b1"
t_tpm2_dmesg_mark
t_check "the blob with it loads" t_key_add trusted s_l "load $b1"
t_check "  ... and the log names the policy: signed policy 0 (boot1)" logged "signed policy 0 (boot1) satisfied"
t_tpm2_same "  ... with the same key bytes" s_k "load $b1"

t_check "PCR $P extended" extend
t_errno "after that the blob no longer loads: EPERM" EPERM t_key_refused trusted s_x "load $b1"
t_check "  ... no object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

b2=$(add_policy "$KEYS/ec.pem" boot2 "$b1")
t_tpm2_dmesg_mark
t_check "a policy signed for the new value added: loads again" t_key_add trusted s_l2 "load $b2"
t_check "  ... by signed policy 0 (boot2)" logged "signed policy 0 (boot2) satisfied"
same_object() {
	t_eq "pubkey" "$(t_tpm2_der_get "$b2" 04 1)" "$(t_tpm2_der_get "$b0" 04 1)" &&
		t_eq "privkey" "$(t_tpm2_der_get "$b2" 04 2)" "$(t_tpm2_der_get "$b0" 04 2)"
}
t_check "  ... the TPM object is the one new made" same_object

# boot2 alone, its signature's last byte flipped.
echo "$b2" >$W/b2.hex
trusted-policy remove --name boot1 $W/b2.hex $W/only2.hex
only2=$(cat $W/only2.hex)
a3=$(t_tpm2_der_get "$only2" a3)
a3x=$(t_tpm2_flip "$a3" $((${#a3} / 2 - 1)))
t_errno "a policy whose signature does not verify: EPERM" EPERM \
	t_key_refused trusted s_x "load $(with_a3 "$only2" "$(t_tpm2_der a3 "$a3x")")"

# An unsigned policy: PolicyPCR for the current value, no PolicyAuthorize.
pcrd=$(t_unhex "$(t_tpm2_pcr $P)" | sha256sum | cut -c1-64)
pol=$(t_tpm2_der 30 "$(t_tpm2_der a0 "$(t_tpm2_der 02 017f)")$(t_tpm2_der a1 "$(t_tpm2_der 04 "0020${pcrd}00000001000b03000001")")")
unsigned=$(t_tpm2_der a3 "$(t_tpm2_der 30 "$(t_tpm2_der 30 "$(t_tpm2_der a1 "$(t_tpm2_der 30 "$pol")")")")")
t_errno "an unsigned policy (PolicyPCR alone): EPERM" EPERM \
	t_key_refused trusted s_x "load $(with_a3 "$b2" "$unsigned")"

t_check "new 32 policykey=<RSA-2048 signer>" t_key_add trusted s_r "new 32 policykey=$RSA"
r1=$(add_policy "$KEYS/rsa.pem" rsa1 "$(t_key_blob trusted s_r)")
t_check "  ... a policy it signed loads the key" t_key_add trusted s_rl "load $r1"
ra3=$(t_tpm2_der a3 "$(t_tpm2_der_get "$r1" a3)")
t_errno "policies signed by another key (the RSA signer's, in the ECDSA key's blob): EPERM" EPERM \
	t_key_refused trusted s_x "load $(with_a3 "$b2" "$ra3")"

# Revocation by rotation: the key resealed to a new signer.
t_check "update policykey=<new signer> reseals the key" t_updates s_l2 "policykey=$EC2"
n1=$(add_policy "$KEYS/ec2.pem" new1 "$(t_key_blob trusted s_l2)")
t_check "  ... the new signer's policy loads it" t_key_add trusted s_n "load $n1"
t_errno "  ... the old signer's policies do not: EPERM" EPERM \
	t_key_refused trusted s_x "load $(with_a3 "$n1" "$(t_tpm2_der a3 "$(t_tpm2_der_get "$b2" a3)")")"

t_errno "policykey with pcrs: EINVAL" EINVAL t_key_refused trusted s_x "new 32 policykey=$EC pcrs=sha256:$P"
t_errno "policykey that is not a signer's public area: EINVAL" EINVAL \
	t_key_refused trusted s_x "new 32 policykey=${EC}00"
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

t_drop s_k s_l s_l2 s_r s_rl s_n
rm -rf $W
