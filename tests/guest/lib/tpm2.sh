# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the TPM 2.0 trusted key tests; sourced after lib.sh and
# ../lib/trusted.sh (t_drop, t_enc_new, t_enc_loads...), never run.
# Also: raw TPM 2.0 commands through /dev/tpm0 (busybox printf + dd), and
# a DER walker / builder in awk for inspecting and crafting blobs.

T_TPM2_SRK=81000001
T_TPM2_OWNER=40000001
T_TPM2_BA=0123456789abcdef0123456789abcdef01234567
# TPM2_PolicyAuthValue / PolicyPassword on SHA-256: H(0^32 || 0000016b)
T_TPM2_POLICY_PW=8fcd2169ab92694e0c633f1ab772842b8241bbc20288981fc7ac1eddc1fddb0e
T_TPM2_NONCE=0123456789abcdef0123456789abcdef
# The module parameter that pins the parents' Names (srk_name=).
T_TPM2_SRK_NAME=/sys/module/trusted/parameters/srk_name
# The PCR the signed policies of the signed-policy scripts name.
T_TPM2_SIGNED_PCR=16

# t_tpm2_rc RSP: the response code of response RSP (8 hex digits).
t_tpm2_rc() {
	echo "$1" | cut -c13-20
}

# t_tpm2_cmd TAG CC BODY: a command with its size filled in.
t_tpm2_cmd() {
	printf '%s%08x%s%s\n' "$1" $((10 + ${#3} / 2)) "$2" "$3"
}

# t_tpm2_srk_present: the TPM has an object at 0x81000001 (TPM2_ReadPublic).
t_tpm2_srk_present() {
	[ "$(t_tpm2_rc "$(t_tpm_send "$(t_tpm2_cmd 8001 00000173 $T_TPM2_SRK)")")" = 00000000 ]
}

# t_tpm2_nhandles MSO: how many handles of that kind (80 transient, 02/03
# sessions) the TPM holds (TPM2_GetCapability, TPM_CAP_HANDLES). Asked up to
# three times, a second apart: once in a make check run of 2026-12-06 the
# query got no answer (stock61-tpm2, 60-signed's last check read "0 -1 0":
# the empty count minus the kept session), and the same boot alone passed.
t_tpm2_nhandles() {
	for _n in 1 2 3; do
		_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a "00000001${1}00000000000040")")
		if [ "$(t_tpm2_rc "$_r")" = 00000000 ]; then
			echo $((0x$(echo "$_r" | cut -c31-38)))
			return 0
		fi
		sleep 1
	done
	echo "GetCapability(handles ${1}...) failed 3 times: ${_r:-no response}" >&2
	return 1
}

# t_tpm2_signed_ready PCR: trusted-policy is in the initramfs and PCR can be
# read; else the rest of the script is skipped with the reason (1).
t_tpm2_signed_ready() {
	if ! command -v trusted-policy >/dev/null; then
		t_skip_rest "trusted-policy is not in the initramfs (tools/ did not build: libssl-dev?)"
		return 1
	fi
	if [ -z "$(t_tpm2_pcr "$1")" ]; then
		t_skip_rest "PCR $1 not readable from /sys/class/tpm/tpm0/pcr-sha256"
		return 1
	fi
}

# t_tpm2_kept_in MSO: 1 when the session our module keeps between
# operations (/sys/module/trusted/parameters/session) is among the TPM's
# sessions of kind MSO (02 loaded, 03 saved: between operations it is
# context-saved), else 0.
t_tpm2_kept_in() {
	_k=$(cat /sys/module/trusted/parameters/session 2>/dev/null)
	case $_k in "" | 0x00000000) echo 0; return ;; esac
	_k=${_k#0x??}
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a "00000001${1}${_k}00000001")")
	# GetCapability from that handle: present when it is the first listed
	if [ "$(t_tpm2_rc "$_r")" = 00000000 ] &&
	   [ "$(echo "$_r" | cut -c31-38)" != 00000000 ] &&
	   [ "$(echo "$_r" | cut -c41-46)" = "$_k" ]; then
		echo 1
	else
		echo 0
	fi
}

# t_tpm2_kept: 1 when the TPM holds the session our module keeps between
# operations (loaded or saved), else 0.
t_tpm2_kept() {
	echo $(($(t_tpm2_kept_in 02) + $(t_tpm2_kept_in 03)))
}

# t_tpm2_leftovers: transient objects, loaded and saved sessions, as "T L S";
# the session our module keeps between operations is not a leftover.
t_tpm2_leftovers() {
	echo "$(t_tpm2_nhandles 80) $(($(t_tpm2_nhandles 02) - $(t_tpm2_kept_in 02))) $(($(t_tpm2_nhandles 03) - $(t_tpm2_kept_in 03)))"
}

# t_tpm2_lockout_count: the TPM's count of failed authorisations
# (TPM_PT_LOCKOUT_COUNTER, GetCapability TPM_CAP_TPM_PROPERTIES), decimal.
t_tpm2_lockout_count() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a "000000060000020e00000001")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "GetCapability(lockout counter): $_r" >&2; return 1; }
	[ "$(echo "$_r" | cut -c39-46)" = 0000020e ] || { echo "GetCapability(lockout counter): $_r" >&2; return 1; }
	echo $((0x$(echo "$_r" | cut -c47-54)))
}

# TPM_RH_LOCKOUT with a password authorisation of the empty password (a
# fresh swtpm's lockout auth).
T_TPM2_LOCKOUT_PW=4000000a00000009400000090000000000

# t_tpm2_da_reset: TPM2_DictionaryAttackLockReset: the counter of failed
# authorisations back to 0 (swtpm locks out after its maxTries failures).
t_tpm2_da_reset() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000139 $T_TPM2_LOCKOUT_PW)")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "DictionaryAttackLockReset: $_r" >&2; return 1; }
}

# t_tpm2_da_params TRIES RECOVERY LOCKOUT_RECOVERY: TPM2_DictionaryAttackParameters.
t_tpm2_da_params() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 0000013a "$T_TPM2_LOCKOUT_PW$(printf %08x%08x%08x "$1" "$2" "$3")")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "DictionaryAttackParameters: $_r" >&2; return 1; }
}

# t_tpm2_da_restore: counter reset, the parameters provision.sh sets.
t_tpm2_da_restore() {
	t_tpm2_da_reset && t_tpm2_da_params 1000 1 1
}

# t_tpm2_da_lower: counter reset, maxTries 2 and recovery 600 s: two failed
# authorisations lock the TPM out until t_tpm2_da_restore.
t_tpm2_da_lower() {
	t_tpm2_da_reset && t_tpm2_da_params 2 600 600
}

# t_tpm2_da_state: the TPM's dictionary-attack state as "COUNTER MAXTRIES"
# (TPM2_GetCapability of TPM_PT_LOCKOUT_COUNTER and TPM_PT_MAX_AUTH_FAIL).
t_tpm2_da_state() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a 000000060000020e00000002)")
	if [ "$(t_tpm2_rc "$_r")" != 00000000 ] ||
	   [ "$(echo "$_r" | cut -c39-46)" != 0000020e ] ||
	   [ "$(echo "$_r" | cut -c55-62)" != 0000020f ]; then
		echo "GetCapability(TPM_PT_LOCKOUT_COUNTER): ${_r:-no response}" >&2
		return 1
	fi
	echo "$((0x$(echo "$_r" | cut -c47-54))) $((0x$(echo "$_r" | cut -c63-70)))"
}

# t_tpm2_public_attrs HANDLE: objectAttributes (8 hex digits) of the
# object at HANDLE (TPM2_ReadPublic).
t_tpm2_public_attrs() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000173 "$1")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "ReadPublic $1: $_r" >&2; return 1; }
	echo "$_r" | cut -c33-40
}

# t_tpm2_wrong_pins NAME BLOB: two loads of BLOB as trusted key NAME with
# wrong PINs (blobauth= 0001, 0002), quietly: after t_tpm2_da_lower the TPM
# is then locked out.
t_tpm2_wrong_pins() {
	t_key_refused trusted "$1" "load $2 blobauth=0001" 2>/dev/null
	t_key_refused trusted "$1" "load $2 blobauth=0002" 2>/dev/null
}

# t_tpm2_pw_session: a policy session (SHA-256) that ran TPM2_PolicyPassword;
# prints its handle. Flush it with t_tpm2_flush.
t_tpm2_pw_session() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000176 \
		"40000007400000070010${T_TPM2_NONCE}0000010010000b")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "StartAuthSession: $_r" >&2; return 1; }
	_h=$(echo "$_r" | cut -c21-28)
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000018c "$_h")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "PolicyPassword: $_r" >&2; return 1; }
	echo "$_h"
}

# t_tpm2_flush HANDLE
t_tpm2_flush() {
	t_tpm_send "$(t_tpm2_cmd 8001 00000165 "$1")" >/dev/null
}

# t_tpm2_pcr N: the SHA-256 value of PCR N, from sysfs.
t_tpm2_pcr() {
	tr -d ' \n' </sys/class/tpm/tpm0/pcr-sha256/"$1" 2>/dev/null | tr 'A-F' 'a-f'
}

# --- DER ----------------------------------------------------------------

# t_tpm2_der_fields HEX: the elements of the SEQUENCE HEX, one "TAG VALUE" a
# line (value in hex); fails when HEX is not one SEQUENCE.
t_tpm2_der_fields() {
	echo "$1" | awk '
	function b(i) { return (index(H, substr(h, 2 * i + 1, 1)) - 1) * 16 + index(H, substr(h, 2 * i + 2, 1)) - 1 }
	function tlv(i,   l, n, k) {
		T = substr(h, 2 * i + 1, 2); l = b(i + 1); n = 2
		if (l == 129) { l = b(i + 2); n = 3 } else if (l == 130) { l = b(i + 2) * 256 + b(i + 3); n = 4 }
		V = i + n; L = l; return i + n + l
	}
	{
		H = "0123456789abcdef"; h = tolower($0); len = length(h) / 2
		end = tlv(0)
		if (T != "30" || end != len) exit 1
		i = V; stop = V + L
		while (i < stop) { i = tlv(i); print T, substr(h, 2 * V + 1, 2 * L) }
	}'
}

# t_tpm2_der_get HEX TAG [N]: the value of the Nth (default 1st) element TAG.
t_tpm2_der_get() {
	t_tpm2_der_fields "$1" | awk -v t="$2" -v n="${3:-1}" '$1 == t && ++c == n { print $2; f = 1 } END { exit !f }'
}

# t_tpm2_der TAG HEX: one DER element.
t_tpm2_der() {
	_n=$((${#2} / 2))
	if [ $_n -lt 128 ]; then
		printf '%s%02x%s\n' "$1" $_n "$2"
	elif [ $_n -lt 256 ]; then
		printf '%s81%02x%s\n' "$1" $_n "$2"
	else
		printf '%s82%04x%s\n' "$1" $_n "$2"
	fi
}

# t_tpm2_tpmkey PARENT_INT_HEX PUB PRIV [OPTIONAL_FIELDS]: a TPMKey blob.
t_tpm2_tpmkey() {
	t_tpm2_der 30 "$(t_tpm2_der 06 6781050a0105)${4:-}$(t_tpm2_der 02 "$1")$(t_tpm2_der 04 "$2")$(t_tpm2_der 04 "$3")"
}

# t_tpm2_raw BLOB: the raw form (TPM2B_PRIVATE || TPM2B_PUBLIC) of a TPMKey.
t_tpm2_raw() {
	echo "$(t_tpm2_der_get "$1" 04 2)$(t_tpm2_der_get "$1" 04 1)"
}

# t_tpm2_parent BLOB: the parent handle a TPMKey names (8 hex digits).
t_tpm2_parent() {
	_p=$(t_tpm2_der_get "$1" 02) || return 1
	printf '%08x\n' $((0x$_p))
}

# t_tpm2_attrs BLOB: objectAttributes of the sealed object (8 hex digits).
t_tpm2_attrs() {
	t_tpm2_der_get "$1" 04 1 | cut -c13-20
}

# t_tpm2_flip HEX N: HEX with the byte at offset N inverted.
t_tpm2_flip() {
	echo "$1" | awk -v n="$2" '{
		H = "0123456789abcdef"; h = $0; c = substr(h, 2 * n + 1, 2)
		v = 255 - ((index(H, substr(c, 1, 1)) - 1) * 16 + index(H, substr(c, 2, 1)) - 1)
		printf "%s%s%s\n", substr(h, 1, 2 * n), substr(H, int(v / 16) + 1, 1) substr(H, v % 16 + 1, 1), substr(h, 2 * n + 3)
	}'
}

# --- test scaffolding ---------------------------------------------------

# t_tpm2_begin [WHY]: the whole script is skipped (it exits) when WHY is set
# or this boot has no TPM 2.0; loads the implementation under test (ours,
# or the in-tree one with tk.impl=ref), or reports one failure and exits.
t_tpm2_begin() {
	[ -z "$1" ] || t_skip_all "$1"
	t_require tpm 2.0
	# Sessions need the ecdh-nist-p256 kpp (ecdh_generic where it is a
	# module, as on the stock kernels). The kernel asks modprobe for
	# "crypto-ecdh-nist-p256"; busybox's modprobe in this initramfs does
	# not resolve that alias as kmod does on Debian: load it by name.
	grep -q 'ecdh-nist-p256' /proc/crypto || modprobe ecdh_generic 2>/dev/null
	t_mods_load "$(t_impl)" ref-if-any ||
		t_bail "modules" "trusted.ko ($(t_impl)) did not load"
}

# t_tpm2_sessions_begin [WHY]: t_tpm2_begin for a script on sessions, ours
# only: the whole script is skipped (it exits) under tk.impl=ref (the
# in-tree module has no sessions), or when WHY is set.
t_tpm2_sessions_begin() {
	if [ "$(t_impl)" = ref ]; then
		t_tpm2_begin "the in-tree module has no sessions"
	else
		t_tpm2_begin "${1:-}"
	fi
}

# t_tpm2_signed_begin DIR [WHY]: the start of a signed-policy script
# (policykey=): phase 1, t_tpm2_begin WHY, the work directory DIR made,
# trusted-policy in the initramfs and PCR $T_TPM2_SIGNED_PCR readable; else
# the whole script is skipped (it exits).
t_tpm2_signed_begin() {
	t_require phase 1
	t_tpm2_begin "${2:-}" || exit 0
	mkdir -p "$1"
	t_tpm2_signed_ready $T_TPM2_SIGNED_PCR || exit 0
}

# t_tpm2_signer PEM DIR: the TPM2B_PUBLIC (hex) of the signer PEM, for
# policykey= (trusted-policy signer-public; DIR/s.pub).
t_tpm2_signer() {
	trusted-policy signer-public --signer "$1" -o "$2/s.pub" && xxd -p "$2/s.pub" | tr -d '\n'
}

# t_tpm2_policy_add PEM DIR NAME IN-HEX [OPTION...]: the blob IN-HEX with a
# policy NAME signed by PEM for PCR $T_TPM2_SIGNED_PCR as it is now
# (trusted-policy add with OPTIONs, e.g. --policy-ref; files in DIR).
t_tpm2_policy_add() {
	_pk=$1 _pd=$2 _pn=$3
	echo "$T_TPM2_SIGNED_PCR: $(t_tpm2_pcr $T_TPM2_SIGNED_PCR)" >"$_pd/pcr.txt"
	echo "$4" >"$_pd/in.hex"
	shift 4
	trusted-policy add --signer "$_pk" --pcrs sha256:$T_TPM2_SIGNED_PCR \
		--pcr-values "$_pd/pcr.txt" --name "$_pn" "$@" "$_pd/in.hex" "$_pd/out.hex" &&
		cat "$_pd/out.hex"
}

# t_tpm2_default_parent: what a blob made without keyhandle= must name.
t_tpm2_default_parent() {
	if t_tpm2_srk_present; then echo $T_TPM2_SRK; else echo $T_TPM2_OWNER; fi
}

# t_tpm2_same_key NAME DATA: the trusted key NAME holds the same bytes as the
# key DATA ("load BLOB [OPTIONS]") gives: an encrypted key made under NAME
# loads once NAME is replaced by that key (test kernel only: its HMAC
# check only passes with the same master key bytes). NAME is replaced.
t_tpm2_same_key() {
	t_enc_new tk2_e "$1" || return 1
	_eb=$(t_key_blob encrypted tk2_e) || return 1
	t_drop tk2_e
	t_key_add trusted "$1" "$2" || { echo "t_tpm2_same_key: $2 failed" >&2; return 1; }
	t_enc_loads tk2_e "$_eb"
	_rc=$?
	t_drop tk2_e
	return $_rc
}

# t_tpm2_same DESC NAME DATA: the point "trusted key NAME has the bytes DATA
# gives" (t_tpm2_same_key), or a skip where no encrypted key type takes
# trusted masters (the stock kernels).
t_tpm2_same() {
	if t_have_enc; then
		t_check "$1" t_tpm2_same_key "$2" "$3"
	else
		t_skip "$1" "no encrypted key type taking trusted masters here"
	fi
}

# t_tpm2_dmesg_mark: remember the end of the kernel log; t_tpm2_dmesg_new: the
# lines of our module logged since.
t_tpm2_dmesg_mark() {
	_t_tpm2_mark=$(dmesg | wc -l)
}
t_tpm2_dmesg_new() {
	dmesg | tail -n +$((_t_tpm2_mark + 1)) | grep ' trusted: '
}

# t_tpm2_one_line TEXT: since t_tpm2_dmesg_mark our module logged one line, with TEXT.
t_tpm2_one_line() {
	_l=$(t_tpm2_dmesg_new)
	if [ "$(printf '%s\n' "$_l" | grep -c .)" != 1 ] ||
		! printf '%s\n' "$_l" | grep -q "$1"; then
		printf 'want one line with "%s", got:\n%s\n' "$1" "$_l" >&2
		return 1
	fi
}

# t_tpm2_refused_once DESC ERRNO LOG DATA: "keyctl add DATA" fails with ERRNO,
# and our module logged one line, with LOG.
t_tpm2_refused_once() {
	t_tpm2_dmesg_mark
	t_errno "$1: $2" "$2" t_key_refused trusted s_x "$4"
	t_check "  ... one line of ours in the log: $3" t_tpm2_one_line "$3"
}

# t_tpm2_primary ATTRS: TPM2_CreatePrimary in the owner hierarchy (empty
# password) with the TCG ECC P-256 storage template but objectAttributes
# ATTRS (8 hex digits); prints the transient handle. Flush it with t_tpm2_flush.
t_tpm2_primary() {
	t_tpm2_primary_of "0023000b${1}000000060080004300100003001000000000"
}

# t_tpm2_primary_of TEMPLATE: TPM2_CreatePrimary in the owner hierarchy
# (empty password) of the TPMT_PUBLIC TEMPLATE (hex); prints the transient
# handle. Flush it with t_tpm2_flush.
t_tpm2_primary_of() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000131 \
		"4000000100000009400000090000000000000400000000$(printf %04x $((${#1} / 2)))${1}000000000000")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "CreatePrimary: $_r" >&2; return 1; }
	echo "$_r" | cut -c21-28
}

# t_tpm2_evict HANDLE [PERSISTENT]: TPM2_EvictControl of the transient HANDLE
# to PERSISTENT (default 81000001), or, when HANDLE is PERSISTENT, out of
# the TPM.
t_tpm2_evict() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000120 "40000001${1}00000009400000090000000000${2:-$T_TPM2_SRK}")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "EvictControl: $_r" >&2; return 1; }
}

# t_tpm2_persist HANDLE CMD [ARG...]: the transient object CMD makes (it
# prints its handle) made persistent at 0xHANDLE, the transient one flushed.
t_tpm2_persist() {
	_ph=$1
	shift
	_h=$("$@") || return 1
	t_tpm2_evict "$_h" "$_ph"
	_rc=$?
	t_tpm2_flush "$_h"
	return $_rc
}

# t_tpm2_pin NAMES: srk_name=NAMES (comma-separated Names, empty: no pin);
# echo's newline reaches the module where a write of nothing would not.
t_tpm2_pin() {
	echo "$1" >$T_TPM2_SRK_NAME
}

# t_tpm2_unpinned: srk_name= writable, and emptied; else the rest of the
# script is skipped (1).
t_tpm2_unpinned() {
	if [ ! -w $T_TPM2_SRK_NAME ]; then
		t_skip_rest "no writable $T_TPM2_SRK_NAME"
		return 1
	fi
	t_tpm2_pin ""
}

# t_tpm2_name HANDLE: the Name TPM2_ReadPublic reports for HANDLE (hex).
t_tpm2_name() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000173 "$1")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "ReadPublic $1: $_r" >&2; return 1; }
	_n=$((0x$(echo "$_r" | cut -c21-24)))
	_o=$((24 + 2 * _n))
	_l=$((0x$(echo "$_r" | cut -c$((_o + 1))-$((_o + 4)))))
	echo "$_r" | cut -c$((_o + 5))-$((_o + 4 + 2 * _l))
}

# --- NV counters (revoke=, issue 27) -----------------------------------

# The owner's empty password, as an authorisation area.
T_TPM2_PW_AREA=00000009400000090000000000
# The counter template of docs/trusted-tpm2.md (nt=counter|ownerwrite|
# ownerread|authread|no_da), 8 bytes, SHA-256, no authPolicy.
T_TPM2_NV_COUNTER=02060012

# t_tpm2_nv_define INDEX [ATTRS [AUTH]]: TPM2_NV_DefineSpace of an 8-byte
# index by the owner (empty password), the counter template by default,
# with the authValue AUTH (hex; default empty).
t_tpm2_nv_define() {
	_au=$(printf '%04x%s' $((${#3} / 2)) "${3:-}")
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 0000012a "40000001${T_TPM2_PW_AREA}${_au}000e${1}000b${2:-$T_TPM2_NV_COUNTER}00000008")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "NV_DefineSpace $1: $_r" >&2; return 1; }
}

# t_tpm2_nv_undefine INDEX: TPM2_NV_UndefineSpace by the owner; quiet.
t_tpm2_nv_undefine() {
	t_tpm_send "$(t_tpm2_cmd 8002 00000122 "40000001${1}${T_TPM2_PW_AREA}")" >/dev/null
}

# t_tpm2_nv_increment INDEX [AUTH-HANDLE [AREA]]: TPM2_NV_Increment, by the
# owner with the empty password unless told otherwise; prints the
# response code (00000000 on success).
t_tpm2_nv_increment() {
	t_tpm2_rc "$(t_tpm_send "$(t_tpm2_cmd 8002 00000134 "${2:-40000001}${1}${3:-$T_TPM2_PW_AREA}")")"
}

# t_tpm2_nv_count INDEX [AUTH-HANDLE]: the counter's value in decimal
# (NV_Read, 8 bytes, authorised by the index's own empty password, or by
# AUTH-HANDLE's: 40000001, the owner).
t_tpm2_nv_count() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 0000014e "${2:-$1}${1}${T_TPM2_PW_AREA}00080000")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "NV_Read $1: $_r" >&2; return 1; }
	# header 10, parameterSize 4, size 2: the value at bytes 16..23
	printf '%d\n' "0x$(echo "$_r" | cut -c33-48)"
}

# t_tpm2_nv_name INDEX: the Name NV_ReadPublic gives (hex).
t_tpm2_nv_name() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000169 "$1")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "NV_ReadPublic $1: $_r" >&2; return 1; }
	# header 10, TPM2B_NV_PUBLIC 2 + 14, TPM2B_NAME 2 + 34
	echo "$_r" | cut -c57-124
}
