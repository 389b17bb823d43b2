#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: signed policies that can be revoked (revoke=, issue
# 27). An NV counter at 0x01800100 (the template of docs/trusted-tpm2.md,
# defined and incremented by the owner here through /dev/tpm0); a key
# sealed with "policykey=<signer> revoke=01800100 policyref=A" has a
# policyRef naming the counter, and trusted-policy add --counter N signs
# PolicyPCR, PolicyNV(counter <= N), PolicyAuthorize. Asserted: approval 1
# (the counter's value) loads; after the owner's NV_Increment the TPM
# refuses it (EKEYREVOKED: its PCRs match, its counter not) and approval 2 (the new value) loads; an approval
# without the counter check is not tried; the counter cannot be written
# back, incremented with the index's own authorisation or by a user
# without /dev/tpm0, and defined again it starts above its old value;
# defined again with an authValue (same Name) a load is EKEYREJECTED with its
# own log line, not "refused every signed policy"; update revoke= of a key
# made without revoke= is EINVAL, of one made with it reseals; a missing
# counter is ENOENT, an index that is no such counter EINVAL,
# combinations EINVAL; keys without revoke= load as before (60-63); no
# handle left. The relay's forged NV_ReadPublic: tests/guest/relay/70-revoke.sh.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

why=
[ "$(t_impl)" = ours ] || why="revoke= is ours (the in-tree module has no signed policies)"
P=$T_TPM2_SIGNED_PCR
KEYS=$here/keys
W=/tmp/tk2-revoke
NV=01800100
A=6b6d6b2d61	# "kmk-a"
t_tpm2_signed_begin $W "$why"

EC=$(t_tpm2_signer "$KEYS/ec.pem" $W)
t_cleanup "t_tpm2_nv_undefine $NV; t_tpm2_nv_undefine 01800102; rm -rf $W"
t_tpm2_nv_undefine $NV
t_tpm2_nv_undefine 01800102

# add_approval NAME IN-HEX N: IN with an approval for PCR P as it is now
# and the counter at most N, first in its authPolicy [3].
add_approval() {
	t_tpm2_policy_add "$KEYS/ec.pem" $W "$1" "$2" \
		--policy-ref $A --counter "$3" --counter-index 0x$NV
}

# --- the counter ----------------------------------------------------------
t_check "NV_DefineSpace of the counter (owner)" t_tpm2_nv_define $NV
t_tpm2_refused_once "revoke= a counter never incremented" EINVAL "never incremented" \
	"new 32 policykey=$EC revoke=$NV"
t_check "NV_Increment by the owner" t_eq "rc" "$(t_tpm2_nv_increment $NV)" 00000000
n1=$(t_tpm2_nv_count $NV)
t_check "the counter reads ($n1)" test -n "$n1"
t_check "trusted-policy counter prints the Name NV_ReadPublic gives" \
	t_eq "Name" "$(trusted-policy counter --counter-index 0x$NV | sed -n 's/^name: //p')" \
	"$(t_tpm2_nv_name $NV)"

# --- refusals before anything is sealed -----------------------------------
t_tpm2_refused_once "revoke= an index that is not there" ENOENT "no NV index 0x01800101" \
	"new 32 policykey=$EC revoke=01800101"
t_check "an ordinary index (ownerwrite|authread|no_da)" t_tpm2_nv_define 01800102 02040002
t_tpm2_refused_once "revoke= an index that is no counter" EINVAL "not an NV counter" \
	"new 32 policykey=$EC revoke=01800102"
t_errno "revoke without policykey: EINVAL" EINVAL t_key_refused trusted s_x "new 32 revoke=$NV"
t_errno "revoke with hash=sha1: EINVAL" EINVAL \
	t_key_refused trusted s_x "new 32 policykey=$EC revoke=$NV hash=sha1"
t_errno "revoke with a 23-byte policyref: EINVAL" EINVAL \
	t_key_refused trusted s_x "new 32 policykey=$EC revoke=$NV policyref=$(printf '%046d' 0)"
t_errno "revoke= not an NV index: EINVAL" EINVAL \
	t_key_refused trusted s_x "new 32 policykey=$EC revoke=81000001"

# --- seal, approve, revoke ------------------------------------------------
t_check "new 32 policykey=<signer> revoke=$NV policyref=A" \
	t_key_add trusted s_r "new 32 policykey=$EC revoke=$NV policyref=$A"
b0=$(t_key_blob trusted s_r)
rv_auth() {
	_d=$(trusted-policy authorize --signer "$KEYS/ec.pem" --policy-ref $A \
		--counter-index 0x$NV) || return 1
	t_tpm2_der_get "$b0" 04 1 | grep -q "0020$_d" || { echo "authPolicy is not $_d" >&2; return 1; }
}
t_check "the object's authPolicy is PolicyAuthorize(signer, TKRV||NV||Name||A)" rv_auth
b1=$(add_approval appr1 "$b0" "$n1")
t_check "trusted-policy add --counter $n1: approval 1" test -n "$b1"
t_tpm2_dmesg_mark
t_check "approval 1 loads the key" t_key_add trusted s_l "load $b1"
t_check "  ... by signed policy 0 (appr1, counter <= $n1)" t_tpm2_one_line "signed policy 0 (appr1, counter <= $n1) satisfied"
t_tpm2_same "  ... with the key bytes new made" s_r "load $b1"
t_check "load policyref=A of it loads" t_key_add trusted s_l "load $b1 policyref=$A"
echo "$b1" >$W/b1.hex
# shellcheck disable=SC2016  # expanded by the inner sh
t_check "trusted-policy list: the counter and the check" \
	sh -c 'trusted-policy list "$1" >"$1.l" && grep -q "^# revocation: each approval checks NV counter 0x01800100" "$1.l" &&
		grep -q "^0 appr1 PolicyPCR(sha256:16) PolicyNV(counter 0x01800100 <= $2) PolicyCommandCode(Unseal) PolicyAuthorize(signer [0-9a-f]*) policyRef: revocation counter 0x01800100 Name [0-9a-f]*, policyref $3\$" "$1.l"' - $W/b1.hex "$n1" $A
# shellcheck disable=SC2016  # expanded by the inner sh
t_check "trusted-policy add without --counter refuses the key" \
	sh -c '! trusted-policy add --signer "$1" --pcrs sha256:16 --pcr-values "$2" --policy-ref "$3" "$4" /dev/null 2>/dev/null' \
	- "$KEYS/ec.pem" "$W/pcr.txt" $A "$W/b1.hex"

t_check "the owner increments the counter" t_eq "rc" "$(t_tpm2_nv_increment $NV)" 00000000
n2=$(t_tpm2_nv_count $NV)
t_check "  ... it is above approval 1's ($n2 > $n1)" test "$n2" -gt "$n1"
t_tpm2_refused_once "approval 1 after the increment (PolicyNV fails in the TPM): EKEYREVOKED" EKEYREVOKED \
	"signed policy for these PCR values is revoked" "load $b1"
b2=$(add_approval appr2 "$b1" "$n2")
t_tpm2_dmesg_mark
t_check "approval 2 ($n2), added before approval 1, loads" t_key_add trusted s_l "load $b2"
t_check "  ... by signed policy 0 (appr2, counter <= $n2)" t_tpm2_one_line "signed policy 0 (appr2, counter <= $n2) satisfied"
t_tpm2_same "  ... with the same key bytes" s_r "load $b2"

# An approval without the check for the key's policyRef: the tool refuses
# to sign one (a raw --policy with --counter-index); an entry is built here
# with a signature over the plain policyref A, and load does not try it
# (skipped for the missing PolicyNV before any signature is checked).
echo "$P: $(t_tpm2_pcr $P)" >$W/pcr.txt
ap=$(trusted-policy pcr-digest --pcrs sha256:$P --pcr-values $W/pcr.txt)
fails() { ! "$@" 2>/dev/null; }
t_check "trusted-policy sign refuses a raw --policy for the counter's key" \
	fails trusted-policy sign --signer "$KEYS/ec.pem" --policy "$ap" \
	--policy-ref $A --counter-index 0x$NV -o $W/sig.bin
no_check() {
	_ap=$ap
	trusted-policy sign --signer "$KEYS/ec.pem" --policy "$_ap" --policy-ref $A \
		-o $W/sig.bin || return 1
	_ref=544b5256$NV$(t_tpm2_nv_name $NV)$A
	_pcrd=$(t_unhex "$(t_tpm2_pcr $P)" | sha256sum | cut -c1-64)
	_body=$EC$(printf %04x $((${#_ref} / 2)))$_ref$(xxd -p $W/sig.bin | tr -d '\n')
	_p1=$(t_tpm2_der 30 "$(t_tpm2_der a0 "$(t_tpm2_der 02 017f)")$(t_tpm2_der a1 "$(t_tpm2_der 04 "0020${_pcrd}00000001000b03000001")")")
	_p2=$(t_tpm2_der 30 "$(t_tpm2_der a0 "$(t_tpm2_der 02 016a)")$(t_tpm2_der a1 "$(t_tpm2_der 04 "$_body")")")
	t_tpm2_der a3 "$(t_tpm2_der 30 "$(t_tpm2_der 30 "$(t_tpm2_der a1 "$(t_tpm2_der 30 "$_p1$_p2")")")")"
}
nc=$(no_check)
t_check "an approval without the counter check, signed for the key's policyRef (built)" test -n "$nc"
b_nc=$(t_tpm2_der_fields "$b2" | while read -r _t _v; do
	if [ "$_t" = a3 ]; then printf %s "$nc"; else printf %s "$(t_tpm2_der "$_t" "$_v")"; fi
done)
t_tpm2_refused_once "  ... it alone in the blob: not tried" EPERM \
	"no signed policy to try (no revocation check" "load $(t_tpm2_der 30 "$b_nc")"

# --- the counter's own protection -------------------------------------------
# nv_write_back: NV_Write of approval 1's value by the owner; its rc.
nv_write_back() {
	t_tpm2_rc "$(t_tpm_send "$(t_tpm2_cmd 8002 00000137 "40000001${NV}${T_TPM2_PW_AREA}0008$(printf %016x "$n1")0000")")"
}
not_ok() { [ "$2" != 00000000 ] || { echo "$1 succeeded" >&2; return 1; }; }
t_check "NV_Write of the old value: refused by the TPM (a counter)" \
	not_ok NV_Write "$(nv_write_back)"
t_check "NV_Increment with the index's own (empty) authorisation: refused" \
	not_ok NV_Increment "$(t_tpm2_nv_increment $NV $NV)"
t_check "  ... the counter did not move" t_eq "count" "$(t_tpm2_nv_count $NV)" "$n2"
if t_user_setup; then
	t_check "an unprivileged user cannot open /dev/tpm0 to increment it" \
		t_as_user sh -c 'if (exec 5<>/dev/tpm0) 2>/dev/null; then exit 1; fi' 
	t_check "  ... nor through keyctl: a revoke= key of the user's reads the counter only" \
		t_as_user keyctl add trusted s_u "new 32 policykey=$EC revoke=$NV" @u
	t_check "  ... the counter did not move" t_eq "count" "$(t_tpm2_nv_count $NV)" "$n2"
else
	t_skip "an unprivileged user cannot change the counter" "no su in this initramfs"
fi
redefine() {
	t_tpm2_nv_undefine $NV && t_tpm2_nv_define $NV && t_eq "rc" "$(t_tpm2_nv_increment $NV)" 00000000
}
t_check "the counter undefined and defined again" redefine
n3=$(t_tpm2_nv_count $NV)
t_check "  ... it starts above its old value ($n3 > $n2)" test "$n3" -gt "$n2"
t_tpm2_refused_once "  ... approval 2 stays refused" EKEYREVOKED "signed policy for these PCR values is revoked" "load $b2"
t_check "  ... the same Name: an approval for $n3 loads" t_key_add trusted s_l "load $(add_approval appr3 "$b2" "$n3")"
# update cannot revoke the blobs made before it: revoke= only for a key
# whose blob shows its counter (approvals added, as loaded).
t_check "a key with policykey= and no revoke=" t_key_add trusted s_nr "new 32 policykey=$EC"
t_tpm2_dmesg_mark
t_errno "update revoke= of a key made without it: EINVAL" EINVAL \
	keyctl update "$(t_key_id trusted s_nr)" "update policykey=$EC revoke=$NV"
t_check "  ... one line of ours: update cannot revoke earlier blobs" \
	t_tpm2_one_line "update cannot revoke earlier blobs"
t_check "update revoke= of the loaded revoke= key reseals it" \
	t_updates s_l "policykey=$EC revoke=$NV policyref=$A"
t_drop s_nr
nm3=$(t_tpm2_nv_name $NV)
redefine_pw() {
	t_tpm2_nv_undefine $NV && t_tpm2_nv_define $NV "" 4711abcd &&
		t_eq "rc" "$(t_tpm2_nv_increment $NV)" 00000000
}
t_check "the counter defined again with an authValue" redefine_pw
t_check "  ... its Name is the same" t_eq "Name" "$(t_tpm2_nv_name $NV)" "$nm3"
n4=$(t_tpm2_nv_count $NV 40000001)
b4=$(add_approval appr4 "$b2" "$n4")
t_tpm2_refused_once "  ... an approval for its value ($n4): EKEYREJECTED, the cause named" EKEYREJECTED \
	"takes no empty authValue" "load $b4"
t_tpm2_dmesg_mark
t_errno "  ... the same with sessions=0: EKEYREJECTED" EKEYREJECTED t_key_refused trusted s_x "load $b4 sessions=0"
t_check "  ... the cause in the log" sh -c "dmesg | tail -n +$((_t_tpm2_mark + 1)) | grep -q 'takes no empty authValue'"
t_tpm2_nv_undefine $NV
t_tpm2_refused_once "the counter gone: load" ENOENT "no NV index 0x01800100" "load $b2"

t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_drop s_r s_l
