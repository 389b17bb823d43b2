#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An interposer that sends commands of its own (docs/security.md, the
# threat table), and one that glitches a reply. TPM 2.0, ours.
#
# Glitch: the relay answers one command itself with "session not loaded"
# (TPM_RC_REFERENCE_S0, or TPM_RC_HANDLE naming session 1; the TPM never
# sees the command): the operation is run once more in fresh sessions and
# succeeds; nothing is left in the TPM and the TPM's count of failed
# authorisations does not move.
#
# Own commands: after ours loaded a blob, the relay takes inPrivate and
# inPublic from the Load it saw and sends its own Load and Unseal (and the
# PolicyPCR ours ran, in a policy session of its own: `replay`,
# tests/relay/relay.py). Which key bytes it gets is compared with the key's
# bytes, learnt once from a sessions=0 load (a plain Unseal: `sniff`).
#   - default blob: it gets the key. A KNOWN LIMIT: sessions keep the key
#     off the bus, but nothing in the TPM stops anyone who can send commands
#     from loading and unsealing a blob that needs no secret.
#   - pcrs= blob while the PCR holds its value: it gets the key (the same
#     KNOWN LIMIT: the PCRs are what the TPM checks, not who asks).
#   - the same blob after a load with pcrlock= (the PCR capped): refused.
#   - a PIN (blobauth=) blob: refused (it cannot know the PIN; the salted
#     session hides it, and the HMAC over it, from the bus).
#   - a signed policy with revoke=: it gets the key while the approval is
#     not revoked (KNOWN LIMIT, as pcrs=); refused once the counter moved.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/relay.sh"

t_require tpm 2.0
t_require ours	# the in-tree module has no sessions to glitch
t_relay_setup
t_plan 23
P=16	# the PCR of the pcrs= blob (resettable at locality 0)
keyctl link @u @s >/dev/null 2>&1
pcr_reset() {
	t_tpm_send "$(t_tpm2_cmd 8002 0000013d "000000$(printf %02x $P)${T_TPM2_PW_AREA}")" >/dev/null
}
t_cleanup "t_relay_ctl disarm >/dev/null; pcr_reset; t_drop ri ri_g ri_x"

# glitch DESC RULE DATA: keyctl add trusted ri_g DATA with RULE armed: it
# succeeds, the relay answered once, the lockout counter did not move.
glitch() {
	t_drop ri_g
	_da=$(t_tpm2_lockout_count)
	t_relay_ctl "tamper $2" >/dev/null
	_e=$(keyctl add trusted ri_g "$3" @u 2>&1 >/dev/null)
	_rc=$?
	_f=$(t_relay_ctl disarm)
	t_check "glitch $1: the operation succeeds" \
		t_eq "keyctl's status ($_e), relay ($_f)" "$_rc ${_f#fired }" "0 1"
	t_check "  ... no failed authorisation counted" \
		t_eq "lockout counter" "$(t_tpm2_lockout_count)" "$_da"
}

# key_of NAME DATA: the key bytes of "load ..." DATA, from a sessions=0
# load's plain Unseal reply on the bus.
key_of() {
	t_drop "$1"
	t_relay_ctl "mark kx_$1" >/dev/null
	keyctl add trusted "$1" "$2 sessions=0" @u >/dev/null || return 1
	_d=$(t_relay_ctl "sniff 15e")
	t_drop "$1"
	_d=${_d##* }
	[ ${#_d} = 64 ] || { echo "no plain Unseal reply seen: $_d" >&2; return 1; }
	echo "$_d"
}

# replayed LABEL DATA: keyctl add trusted ri DATA after "mark LABEL" (it
# must work), then the relay's replay of that segment; sets got.
replayed() {
	t_drop ri
	t_relay_ctl "mark $1" >/dev/null
	if ! keyctl add trusted ri "$2" @u >/dev/null; then
		got="ours did not load it"
		return
	fi
	got=$(t_relay_ctl "replay $1")
}

# holds KEY: the key bytes KEY are in what the relay got.
holds() {
	case $got in *"$1"*) return 0 ;; esac
	echo "the relay got: $got" >&2
	return 1
}
lacks() {
	case $got in refused*) ;; *) echo "the relay got: $got" >&2; return 1 ;; esac
	case $got in *"$1"*) echo "the key is in: $got" >&2; return 1 ;; esac
}

pcr_reset
t_check "new 32 (default blob)" t_key_add trusted ri_k1 "new 32"
D=$(t_key_blob trusted ri_k1)
t_check "new 32 blobauth= (PIN blob)" t_key_add trusted ri_k2 "new 32 blobauth=$T_TPM2_BA"
N=$(t_key_blob trusted ri_k2)
t_check "new 32 pcrs=sha256:$P" t_key_add trusted ri_k3 "new 32 pcrs=sha256:$P"
C=$(t_key_blob trusted ri_k3)
t_drop ri_k1 ri_k2 ri_k3

# --- glitches --------------------------------------------------------
glitch "\"session not loaded\" for Load" 157:answer=918 "load $D"
glitch "TPM_RC_HANDLE naming session 1 for Unseal" 15e:answer=98b "load $D"
glitch "\"session not loaded\" for Create" 153:answer=918 "new 32"
glitch "\"session not loaded\" for the policy session's Unseal (pcrs=)" 15e:answer=918 "load $C"
t_check "the glitches left no transient object or session in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

# --- an interposer that sends its own commands ------------------------
KD=$(key_of ri "load $D")
KN=$(key_of ri "load $N blobauth=$T_TPM2_BA")
KC=$(key_of ri "load $C")
if [ -z "$KD" ] || [ -z "$KN" ] || [ -z "$KC" ]; then
	t_skip_rest "the key bytes were not learnt from a sessions=0 load"
	exit 0
fi
replayed d "load $D"
t_check "KNOWN LIMIT default blob: its own Load and Unseal (after ours loaded it) get the key" holds "$KD"
t_check "  ... while ours put no key byte on the bus" t_eq hits "$(t_relay_hits "$KD")" 0
replayed n "load $N blobauth=$T_TPM2_BA"
t_check "PIN blob: its own Load and Unseal are refused, no key byte" lacks "$KN"
replayed c0 "load $C"
t_check "KNOWN LIMIT pcrs= blob, PCR $P unchanged: its own PolicyPCR and Unseal get the key" holds "$KC"
t_check "  ... while ours put no key byte of the pcrs= blob on the bus" t_eq hits "$(t_relay_hits "$KC")" 0
replayed c1 "load $C pcrlock=$P"
t_check "pcrs= blob after ours loaded it with pcrlock=$P: refused, no key byte" lacks "$KC"
t_errno "  ... and the blob no longer loads for anyone until PCR $P is reset: EPERM" EPERM \
	t_key_refused trusted ri_x "load $C"

# A signed policy with revoke= (an approval for PCR $P, its counter at n):
# the relay runs PolicyPCR, PolicyNV and PolicyAuthorize (the TPM's ticket
# from ours) in its own session. Once the owner moves the counter past n,
# the same replay is refused.
NV=01800111
pcr_reset
signed() {
	command -v trusted-policy >/dev/null || { echo "trusted-policy is not in the initramfs" >&2; return 1; }
	t_tpm2_nv_undefine $NV
	if ! t_tpm2_nv_define $NV || [ "$(t_tpm2_nv_increment $NV)" != 00000000 ]; then
		echo "cannot define the NV counter $NV" >&2
		return 1
	fi
	_n=$(t_tpm2_nv_count $NV) && mkdir -p /tmp/ri-s &&
		_ec=$(t_tpm2_signer "$here/../trusted-tpm2/keys/ec.pem" /tmp/ri-s) &&
		keyctl add trusted ri_s "new 32 policykey=$_ec revoke=$NV" @u >/dev/null &&
		_b=$(t_key_blob trusted ri_s) && t_drop ri_s &&
		t_tpm2_policy_add "$here/../trusted-tpm2/keys/ec.pem" /tmp/ri-s a1 "$_b" \
			--counter "$_n" --counter-index 0x$NV
}
if S=$(signed 2>/tmp/ri-s.err | tail -n 1) && [ -n "$S" ] && KS=$(key_of ri "load $S" 2>>/tmp/ri-s.err); then
	replayed s "load $S"
	t_check "KNOWN LIMIT signed policy + revoke=, approval unrevoked: its own PolicyPCR, PolicyNV, PolicyAuthorize and Unseal get the key" holds "$KS"
	t_check "  ... while ours put no key byte of the signed blob on the bus" t_eq hits "$(t_relay_hits "$KS")" 0
	t_tpm2_nv_increment $NV >/dev/null
	got=$(t_relay_ctl "replay s")
	t_check "  ... the counter moved past the approval: the same replay is refused, no key byte" lacks "$KS"
else
	why=$(tail -n 1 /tmp/ri-s.err)
	t_skip "KNOWN LIMIT signed policy + revoke=, approval unrevoked: the relay gets the key" "${why:-no signed blob}"
	t_skip "  ... while ours put no key byte of the signed blob on the bus" "${why:-no signed blob}"
	t_skip "  ... the counter moved past the approval: the same replay is refused" "${why:-no signed blob}"
fi
t_tpm2_nv_undefine $NV
rm -rf /tmp/ri-s /tmp/ri-s.err
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
