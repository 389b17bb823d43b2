#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interop with tpm2-tools on this machine's TPM (an SRK at 0x81000001).
# The host runs tpm2-tools on a copy of the TPM state before each boot
# (host-step, next to this script).
# Phase 1: keys tpm2-tools sealed (tpm2_create -i, tpm2_encodeobject: the
# loadable-key OID) load, and hold the host's secret: an encrypted key the
# host made under trusted:tt with that secret loads, one made with another
# secret does not; the password key loads with blobauth=, not without; a
# tpm2-tools HMAC key under the same OID is refused. Then seals keys with
# our module (SRK, blobauth, 0x40000001) and encrypted keys under them, and
# saves them; a revoke= key (issue 27) with the parts of one approval.
# Phase 2: reports what the host found: tpm2-tools unsealed each with the
# recovery path of docs/trusted-tpm2.md, and the unsealed bytes verify the
# encrypted key's HMAC; the revoke= key's approval is refused once the
# counter is incremented.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1,2
t_tpm2_begin || exit 0
if ! t_tpm2_srk_present; then
	t_skip_rest "no SRK at 0x81000001"
	exit 0
fi
host=$(t_state_get tpm2tools-host.result 2>/dev/null)
case $host in
"skip host: "*) t_skip_rest "${host#skip host: }"; exit 0 ;;
esac

got() { # NAME: what the host or phase 1 saved
	t_state_get "tpm2tools-$1" || { echo "no saved tpm2tools-$1 (did the host step run?)" >&2; return 1; }
}
loads() { # NAME SAVED [OPTIONS]
	_b=$(got "$1") || return 1
	t_key_add trusted "$2" "load $_b${3:+ $3}" || return 1
	t_eq "print" "$(t_key_blob trusted "$2")" "$_b"
}
enc() { # SAVED: load the host's encrypted key under trusted:tt
	_e=$(got "$1") || return 1
	t_enc_loads e_tt "$_e"
}
with_enc() { # DESC CMD...
	if t_have_enc; then
		t_check "$@"
	else
		t_skip "$1" "no encrypted key type taking trusted masters on ${TKH_KERNEL:-this kernel}"
	fi
}
save() { # NAME VALUE
	[ -n "$2" ] || { echo "nothing to save for $1" >&2; return 1; }
	printf '%s' "$2" | t_state_save "tpm2tools-$1"
}

if [ "${TKH_PHASE:-1}" = 1 ]; then
	t_check "tpm2-tools sealed key (loadable OID) loads, print gives it back" \
		loads tools-s.blob tt
	with_enc "... it holds the host's secret: its encrypted key loads under it" \
		enc tools.enc
	if t_have_enc; then
		t_errno "control: an encrypted key made with another secret: EINVAL" EINVAL \
			enc tools-other.enc
	else
		t_skip "control: an encrypted key made with another secret" \
			"no encrypted key type taking trusted masters on ${TKH_KERNEL:-this kernel}"
	fi
	t_check "tpm2-tools key with password hello loads with blobauth=hello" \
		loads tools-a.blob tt "blobauth=hello"
	with_enc "... and holds the same secret" enc tools.enc
	t_errno "... without blobauth: EACCES" EACCES t_key_refused trusted ta "load $(got tools-a.blob)"
	t_tpm2_da_reset
	t_errno "tpm2-tools HMAC key (loadable OID, not sealed data): EINVAL" EINVAL \
		t_key_refused trusted th "load $(got tools-h.blob)"
	t_check "no transient object or session left" t_eq leftovers "$(t_tpm2_leftovers)" "0 0 0"

	# shellcheck disable=SC2317  # run through t_check
	ours_seal() { # NAME OPTIONS
		t_key_add trusted "o_$1" "new 32 $2" && save "ours-$1.blob" "$(t_key_blob trusted "o_$1")" || return 1
		t_have_enc || return 0
		t_enc_new "oe_$1" "o_$1" && save "ours-$1.enc" "$(t_key_blob encrypted "oe_$1")"
	}
	t_check "ours: sealed under 0x81000001 and saved for tpm2-tools" ours_seal srk keyhandle=0x81000001
	t_check "ours: sealed with blobauth=hello and saved" ours_seal auth "keyhandle=0x81000001 blobauth=hello"
	# PCR 16 reset to zero (TPM2_PCR_Reset), as the host's copy starts it
	# shellcheck disable=SC2317  # run through t_check
	pin_seal() {
		_r=$(t_tpm_send "$(t_tpm2_cmd 8002 0000013d 0000001000000009400000090000000000)")
		[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "PCR_Reset: $_r" >&2; return 1; }
		ours_seal pin "keyhandle=0x81000001 pcrs=sha256:16 blobauth=4711"
	}
	t_check "ours: sealed with pcrs=sha256:16 (reset) and a PIN, saved" pin_seal
	# revoke= (issue 27): a key bound to counter 0x01800120 and one
	# approval for PCR 16 (reset) and the counter's value, its parts saved
	# for tpm2-tools: signer, approvedPolicy, signature, counter, value.
	RV=01800120
	rv_seal() {
		command -v trusted-policy >/dev/null || { echo "no trusted-policy" >&2; return 1; }
		t_tpm2_nv_undefine "$RV"
		t_tpm2_nv_define "$RV" && t_eq "NV_Increment" "$(t_tpm2_nv_increment "$RV")" 00000000 || return 1
		_n=$(t_tpm2_nv_count "$RV") || return 1
		_r=$(t_tpm_send "$(t_tpm2_cmd 8002 0000013d 0000001000000009400000090000000000)")
		[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "PCR_Reset: $_r" >&2; return 1; }
		_k=$here/../trusted-tpm2/keys/ec.pem
		trusted-policy signer-public --signer "$_k" -o /tmp/rv.pub || return 1
		ours_seal rv "keyhandle=0x81000001 policykey=$(xxd -p /tmp/rv.pub | tr -d '\n') revoke=$RV" || return 1
		echo "16: $(t_tpm2_pcr 16)" >/tmp/rv.pcr
		_ap=$(trusted-policy pcr-digest --pcrs sha256:16 --pcr-values /tmp/rv.pcr \
			--counter "$_n" --counter-index "0x$RV") &&
		trusted-policy sign --signer "$_k" --pcrs sha256:16 --pcr-values /tmp/rv.pcr \
			--counter "$_n" --counter-index "0x$RV" -o /tmp/rv.sig &&
		save rv.approved "$_ap" && save rv.sig "$(xxd -p /tmp/rv.sig | tr -d '\n')" &&
		save rv.signer "$(xxd -p /tmp/rv.pub | tr -d '\n')" && save rv.nv "$RV" && save rv.count "$_n"
	}
	if command -v trusted-policy >/dev/null; then
		t_check "ours: sealed with policykey= revoke= (counter $RV), an approval saved" rv_seal
	else
		t_skip "ours: sealed with policykey= revoke=, an approval saved" \
			"trusted-policy is not in the initramfs (tools/ did not build: libssl-dev?)"
	fi
	t_drop tt ta th e_tt o_srk o_auth oe_srk oe_auth o_pin oe_pin o_rv oe_rv
	t_check "ours: sealed under 0x40000001 and saved" ours_seal owner keyhandle=0x40000001
	t_drop o_owner oe_owner
	exit 0
fi

# Phase 2: the host's verdicts on the blobs phase 1 saved.
report() { # NAME DESC
	_l=$(printf '%s\n' "$host" | grep "^[a-z]* $1: " | head -n 1)
	case $_l in
	"ok $1: "*) t_ok "$2 (${_l#ok "$1": })" ;;
	"skip $1: "*) t_skip "$2" "${_l#skip "$1": }" ;;
	"fail $1: "*) t_fail "$2" "host: ${_l#fail "$1": }" ;;
	*) t_fail "$2" "the host step reported nothing for $1 (did it run? tests/qemu/run-all.sh)" ;;
	esac
}
report srk "tpm2-tools unseals our blob under 0x81000001, same key bytes"
report auth "tpm2-tools unseals our blobauth blob with its password, same key bytes"
report owner "tpm2-tools unseals our blob under 0x40000001 (TCG template primary), same key bytes"
report pin "tpm2-tools unseals our pcrs= blob with its PIN (PolicyPCR, PolicyCommandCode, PolicyAuthValue), same key bytes"
report rv "tpm2-tools unseals our revoke= blob (VerifySignature, PolicyPCR, PolicyNV, PolicyAuthorize), same key bytes"
report rv-revoked "tpm2-tools: after tpm2_nvincrement the same approval is refused (PolicyNV)"
