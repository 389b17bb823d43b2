# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the relay tests (tests/relay/relay.py between QEMU and swtpm);
# sourced after lib.sh, ../lib/trusted.sh and ../lib/tpm2.sh, never run.
# The guest talks to the relay with a TPM command of ordinal 0x20544b52
# through /dev/tpm0: the relay answers it itself (swtpm never sees it).
#
# Switches (the integrator flips them once the work they wait for is merged;
# also on the kernel command line, e.g. EXTRAS "tk.relay_noleak2=1"):
#   T_RELAY_NOLEAK2=1   TPM 2.0: ours must not put the sealed data or an auth value
#                  on the bus (10-bus-leak; needs parameter-encryption sessions
#                  in src/trusted/tpm2*.c). Default 0: a leak is a TODO skip.
#   T_RELAY_NOLEAK12=1  TPM 1.2: the same (a TPM 1.2 Unseal response carries the
#                  data in clear unless a transport session encrypts it).
#   T_RELAY_AUTH2=1     TPM 2.0: no key from a tampered response (20-tamper), no
#                  wrong key from a fuzzed one (30-fuzz); needs HMAC sessions.
#                  Default 0: an accepted tampered response is a TODO skip.
#   T_RELAY_AUTH12=1    TPM 1.2: the same; on by default (the OIAP/OSAP response
#                  HMACs cover the data: ours refuses every tampering today).
T_RELAY_NOLEAK2=${T_RELAY_NOLEAK2:-1}
T_RELAY_NOLEAK12=${T_RELAY_NOLEAK12:-1}
T_RELAY_AUTH2=${T_RELAY_AUTH2:-1}
T_RELAY_AUTH12=${T_RELAY_AUTH12:-1}
T_RELAY_CC=20544b52
# The fuzz slice (30-fuzz.sh): seed and number of exchanges.
T_RELAY_SEED=${T_RELAY_SEED:-1}
T_RELAY_FUZZ_N=${T_RELAY_FUZZ_N:-24}
# shellcheck disable=SC2013  # words, not lines
for _w in $(cat /proc/cmdline); do
	case $_w in
	tk.relay_noleak2=*) T_RELAY_NOLEAK2=${_w#*=} ;;
	tk.relay_noleak12=*) T_RELAY_NOLEAK12=${_w#*=} ;;
	tk.relay_auth2=*) T_RELAY_AUTH2=${_w#*=} ;;
	tk.relay_auth12=*) T_RELAY_AUTH12=${_w#*=} ;;
	tk.relay_seed=*) T_RELAY_SEED=${_w#*=} ;;
	tk.relay_fuzz_n=*) T_RELAY_FUZZ_N=${_w#*=} ;;
	tk.relay_fuzz_only=*) T_RELAY_FUZZ_ONLY=${_w#*=} ;;
	esac
done

# t_relay_noleak / t_relay_auth: this TPM's switch (1 = asserted).
t_relay_noleak() {
	if [ "$TKH_TPM" = 1.2 ]; then echo "$T_RELAY_NOLEAK12"; else echo "$T_RELAY_NOLEAK2"; fi
}
t_relay_auth() {
	if [ "$TKH_TPM" = 1.2 ]; then echo "$T_RELAY_AUTH12"; else echo "$T_RELAY_AUTH2"; fi
}

# t_relay_ctl TEXT: the relay's answer to TEXT; fails when there is no relay.
t_relay_ctl() {
	_tag=8001
	[ "$TKH_TPM" = 1.2 ] && _tag=00c1
	_h=$(printf '%s' "$*" | xxd -p | tr -d '\n')
	_r=$(t_tpm_send "$(t_tpm2_cmd $_tag $T_RELAY_CC "$_h")") || return 1
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || return 1
	echo "$_r" | cut -c21- | xxd -r -p
	echo
}

# t_relay_why: empty when the relay answers and the known secrets are there,
# else why the relay tests cannot run.
t_relay_why() {
	[ -c /dev/tpm0 ] || { echo "no /dev/tpm0"; return; }
	case ${T_RELAY_FUZZ_ONLY:-0}:${0##*/} in
	1:*fuzz*) ;;
	1:*) echo "a fuzz-only boot (tk.relay_fuzz_only=1)"; return ;;
	esac
	case $(t_relay_ctl ping 2>/dev/null) in
	pong*) ;;
	*) echo "no relay (a row with tk.relay=record, or TKH_EXTRA=tk.relay=record)"; return ;;
	esac
	[ -f "$TKH_STATE/relay-why" ] && { cat "$TKH_STATE/relay-why"; return; }
	[ -f "$TKH_STATE/relay-blob" ] || echo "no sealed secrets in $TKH_STATE (tests/relay/prepare.sh)"
}

# t_relay_get NAME: a file tests/relay/prepare.sh left in $TKH_STATE.
t_relay_get() {
	tr -d ' \n' <"$TKH_STATE/$1"
}

# t_relay_kh: the keyhandle= option of this TPM's SRK.
t_relay_kh() {
	if [ "$TKH_TPM" = 1.2 ]; then echo "keyhandle=40000000"; else echo "keyhandle=0x81000001"; fi
}

# t_relay_hits HEX: how many messages since the last mark hold the bytes HEX.
t_relay_hits() {
	_a=$(t_relay_ctl "scan $1") || { echo "?"; return 1; }
	echo "${_a#hits }"
}

# t_relay_errno_ok TEXT: true when TEXT (keyctl's error) is one add_key(2) or the
# key type documents for a bad payload or a failing TPM.
t_relay_errno_ok() {
	for _e in EINVAL EBADMSG EKEYREJECTED ENOMEM EIO EPERM EFAULT E2BIG ENODEV ENOKEY \
		EPROTO EAGAIN EBUSY EACCES EKEYREVOKED; do
		case $1 in *": $(t_strerror $_e)"*) echo "$_e"; return 0 ;; esac
	done
	return 1
}

# t_relay_flush_transients [KINDS]: flush every transient object the TPM 2.0
# holds (TPM2_GetCapability TPM_CAP_HANDLES from 0x80000000, then
# FlushContext), and of the other handle kinds KINDS names (02 and 03:
# loaded sessions); prints how many there were. A tampered Load response
# can leave an object behind that the kernel cannot know of, a tampered
# StartAuthSession a session; flushing keeps the next test independent.
t_relay_flush_transients() {
	[ "$TKH_TPM" = 2.0 ] || { echo 0; return 0; }
	_t=0
	for _k in ${1:-80}; do
		_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017a "00000001${_k}00000000000040")")
		[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "?"; return 1; }
		_n=$((0x$(echo "$_r" | cut -c31-38)))
		_i=0
		while [ $_i -lt $_n ]; do
			_s=$((39 + _i * 8))
			t_tpm2_flush "$(echo "$_r" | cut -c$_s-$((_s + 7)))"
			_i=$((_i + 1))
		done
		_t=$((_t + _n))
	done
	echo $_t
}

# t_relay_setup: the common start of the tamper, fuzz and substitution tests.
# When the phase, the relay or the in-tree reference (tk.impl=ref) is
# missing, the whole script is skipped; when the module under test does not
# load, one failure and exit. Else disarms the relay,
# flushes what earlier scripts left in the TPM and sets impl, A (the
# host-sealed blob), KH (keyhandle= of the SRK) and, where an encrypted key
# can prove the key bytes of a load, check_enc=1 and EB (an encrypted key
# made under a clean load of A).
t_relay_setup() {
	t_require phase 1
	_why=$(t_relay_why)
	[ -n "$_why" ] || [ "$(t_impl)" = ours ] || [ -n "$TKH_REF" ] ||
		_why="no in-tree reference on $TKH_KERNEL"
	[ -z "$_why" ] || t_skip_all "$_why"
	impl=$(t_impl)
	t_mods_load "$impl" ref-if-any || t_bail "modules" "trusted.ko ($impl) did not load"
	t_relay_ctl disarm >/dev/null
	t_relay_flush_transients >/dev/null
	A=$(t_relay_get relay-blob)
	KH=$(t_relay_kh)
	check_enc=0 EB=
	if t_have_enc && t_key_add trusted good "load $A $KH" && t_enc_new e_good good; then
		EB=$(t_key_blob encrypted e_good)
		check_enc=1
	fi
	t_drop good e_good
}

# t_relay_still_works: two tests: a clean load of A works afterwards and holds
# the sealed bytes (the encrypted key of t_relay_setup opens; skipped without).
t_relay_still_works() {
	t_check "$impl: the TPM still works: a clean load" t_key_add trusted good "load $A $KH"
	if [ "$check_enc" = 1 ]; then
		t_check "$impl: and it holds the sealed bytes (encrypted key check)" t_enc_loads e_chk "$EB"
	else
		t_skip "$impl: and it holds the sealed bytes" "no in-tree encrypted-keys.ko taking trusted masters"
	fi
	t_drop good e_chk
}
