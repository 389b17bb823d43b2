#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: signed policies bound to their key (policyref=, issue 22
# item 5). A key sealed with "policykey=<signer> policyref=A" has authPolicy
# PolicyAuthorize(signer, A): the TPM takes only approvals signed over
# H(approvedPolicy || A). trusted-policy add --policy-ref A writes A into
# policy [1] and into each signed policy. Loads: the approval signed with A.
# Refused, each with one line of ours in the log: an approval signed with B
# or with none (carried as A: the TPM's VerifySignature fails; carried as
# itself: load does not try it), the signed policies of a blob sealed with
# B moved into the A blob and back, the A blob's policy [1] with them, and
# load policyref=B of the A blob (EINVAL). An empty policyRef, for
# contrast: the approval made for one key loads another key sealed to the
# same signer. Test keys: keys/*.pem (test-only).
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

P=$T_TPM2_SIGNED_PCR
KEYS=$here/keys
W=/tmp/tk2-policyref
t_tpm2_signed_begin $W

A=6b6d6b2d61	# "kmk-a"
B=6b6d6b2d62	# "kmk-b", as long as A
EC=$(t_tpm2_signer "$KEYS/ec.pem" $W)

# add_policy NAME IN-HEX [REF]: IN with a policy signed for PCR P as it is
# now, by trusted-policy add with --policy-ref REF (none: without).
add_policy() {
	t_tpm2_policy_add "$KEYS/ec.pem" $W "$1" "$2" ${3:+--policy-ref $3}
}
# tool_refuses IN-HEX [REF]: trusted-policy add (--policy-ref REF) fails on IN.
tool_refuses() {
	if add_policy x "$1" "${2:-}" >/dev/null 2>$W/err; then
		echo "trusted-policy add succeeded" >&2
		return 1
	fi
	cat $W/err >&2
	grep -q policyRef $W/err
}
# with BLOB TAG TLV [TAG2 TLV2]: BLOB with its TAG element (and TAG2's)
# replaced, the TPMKey re-encoded around them.
with() {
	_b=$1
	shift
	_f=$(t_tpm2_der_fields "$_b" | while read -r _t _v; do
		if [ "$_t" = "$1" ]; then
			printf %s "$2"
		elif [ "$_t" = "${3:-}" ]; then
			printf %s "$4"
		else
			printf %s "$(t_tpm2_der "$_t" "$_v")"
		fi
	done)
	t_tpm2_der 30 "$_f"
}
# field BLOB TAG: the element TAG of BLOB, whole.
field() {
	t_tpm2_der "$2" "$(t_tpm2_der_get "$1" "$2")"
}
# pol CODE BODY: one TPMPolicy.
pol() {
	t_tpm2_der 30 "$(t_tpm2_der a0 "$(t_tpm2_der 02 "$1")")$(t_tpm2_der a1 "$(t_tpm2_der 04 "$2")")"
}
# entry NAME BODY-REF SIG-REF: an authPolicy [3] of one signed policy for
# PCR P as it is now, built here: its PolicyAuthorize carries policyRef
# BODY-REF and a signature (trusted-policy sign) over H(approvedPolicy ||
# SIG-REF); either ref may be empty.
entry() {
	echo "$P: $(t_tpm2_pcr $P)" >$W/pcr.txt
	_ap=$(trusted-policy pcr-digest --pcrs sha256:$P --pcr-values $W/pcr.txt) &&
		trusted-policy sign --signer "$KEYS/ec.pem" --policy "$_ap" \
			${3:+--policy-ref $3} -o $W/sig.bin || return 1
	_pcrd=$(t_unhex "$(t_tpm2_pcr $P)" | sha256sum | cut -c1-64)
	_body=$EC$(printf %04x $((${#2} / 2)))$2$(xxd -p $W/sig.bin | tr -d '\n')
	_cmds=$(pol 017f "0020${_pcrd}00000001000b03000001")$(pol 016a "$_body")
	_name=$(t_tpm2_der a0 "$(t_tpm2_der 0c "$(printf %s "$1" | xxd -p | tr -d '\n')")")
	t_tpm2_der a3 "$(t_tpm2_der 30 "$(t_tpm2_der 30 "$_name$(t_tpm2_der a1 "$(t_tpm2_der 30 "$_cmds")")")")"
}

t_check "new 32 policykey=<signer> policyref=A" t_key_add trusted s_a "new 32 policykey=$EC policyref=$A"
a0=$(t_key_blob trusted s_a)
auth_policy() {
	_d=$(trusted-policy authorize --signer "$KEYS/ec.pem" --policy-ref "$A") || return 1
	_e=$(trusted-policy authorize --signer "$KEYS/ec.pem") || return 1
	[ "$_d" != "$_e" ] || { echo "with and without policyRef: $_d" >&2; return 1; }
	t_tpm2_der_get "$a0" 04 1 | grep -q "0020$_d" || { echo "authPolicy is not $_d" >&2; return 1; }
}
t_check "the object's authPolicy is trusted-policy authorize --policy-ref A (not the one without)" auth_policy
t_check "trusted-policy add without --policy-ref refuses the A key (its authPolicy)" tool_refuses "$a0"
t_check "trusted-policy add --policy-ref B refuses it too" tool_refuses "$a0" $B

a1=$(add_policy refA "$a0" $A)
t_check "trusted-policy add --policy-ref A: a policy signed over A" test -n "$a1"
t_tpm2_dmesg_mark
t_check "the A blob with it loads" t_key_add trusted s_l "load $a1"
t_check "  ... by signed policy 0 (refA)" t_tpm2_one_line "signed policy 0 (refA) satisfied"
t_tpm2_same "  ... with the key bytes new made" s_a "load $a1"
echo "$a1" >$W/a1.hex
t_check "trusted-policy list shows policyRef: $A" \
	sh -c 'trusted-policy list "$1" | grep -q "^0 refA PolicyPCR(sha256:16) PolicyCommandCode(Unseal) PolicyAuthorize(signer [0-9a-f]*) policyRef: $2\$"' - $W/a1.hex $A
t_check "trusted-policy add without --policy-ref refuses the A blob (its policy [1])" tool_refuses "$a1"

# The same entry built here, as a control of entry().
t_check "control: a policy built here, policyRef A, signed over A, loads" \
	t_key_add trusted s_l "load $(with "$a1" a3 "$(entry ctlA $A $A)")"

t_tpm2_refused_once "an approval signed over B, carried with policyRef A (the TPM's VerifySignature fails)" \
	EPERM "the TPM refused every signed policy" "load $(with "$a1" a3 "$(entry sigB $A $B)")"
t_tpm2_refused_once "an approval signed over none, carried with policyRef A" \
	EPERM "the TPM refused every signed policy" "load $(with "$a1" a3 "$(entry sig0 $A "")")"
t_tpm2_refused_once "an approval signed over B, carried as B (not tried: not the key's policyRef)" \
	EPERM "no signed policy to try (another signer or policyRef)" "load $(with "$a1" a3 "$(entry refB $B $B)")"
t_tpm2_refused_once "an approval signed over none, carried as none" \
	EPERM "no signed policy to try (another signer or policyRef)" "load $(with "$a1" a3 "$(entry none "" "")")"

t_check "new 32 policykey=<the same signer> policyref=B" t_key_add trusted s_b "new 32 policykey=$EC policyref=$B"
b1=$(add_policy refB "$(t_key_blob trusted s_b)" $B)
t_check "  ... trusted-policy add --policy-ref B: the B blob loads" t_key_add trusted s_l "load $b1"
t_tpm2_refused_once "the A blob's signed policies moved into the B blob" \
	EPERM "no signed policy to try (another signer or policyRef)" "load $(with "$b1" a3 "$(field "$a1" a3)")"
t_tpm2_refused_once "the B blob's signed policies moved into the A blob" \
	EPERM "no signed policy to try (another signer or policyRef)" "load $(with "$a1" a3 "$(field "$b1" a3)")"
t_tpm2_refused_once "the A blob's policy [1] and signed policies into the B blob" \
	EINVAL "PolicyAuthorize is not the object's policy" \
	"load $(with "$b1" a1 "$(field "$a1" a1)" a3 "$(field "$a1" a3)")"

t_tpm2_refused_once "load policyref=B of the A blob" EINVAL "policyRef is not policyref=" "load $a1 policyref=$B"
t_check "load policyref=A of the A blob loads" t_key_add trusted s_l "load $a1 policyref=$A"

# For contrast, what an empty policyRef means.
t_check "new 32 policykey=<signer>, no policyref: key E1" t_key_add trusted s_e1 "new 32 policykey=$EC"
t_check "... and key E2" t_key_add trusted s_e2 "new 32 policykey=$EC"
e1=$(add_policy forE1 "$(t_key_blob trusted s_e1)")
e2=$(add_policy forE2 "$(t_key_blob trusted s_e2)")
# E2's blob then holds E1's signed policy alone: if it loads, by that one.
t_check "empty policyRef: E1's signed policy moved into E2's blob loads E2 (what policyref= stops)" \
	t_key_add trusted s_l "load $(with "$e2" a3 "$(field "$e1" a3)")"
t_tpm2_refused_once "E1's signed policy moved into the A blob" \
	EPERM "no signed policy to try (another signer or policyRef)" "load $(with "$a1" a3 "$(field "$e1" a3)")"

t_errno "policyref without policykey: EINVAL" EINVAL t_key_refused trusted s_x "new 32 policyref=$A"
t_errno "policyref of 65 bytes: EINVAL" EINVAL \
	t_key_refused trusted s_x "new 32 policykey=$EC policyref=$(printf '%0130d' 0)"
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

t_drop s_a s_b s_l s_e1 s_e2
rm -rf $W
