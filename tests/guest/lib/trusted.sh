# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers shared by the trusted key tests; sourced after lib.sh, never run.
# Keys live in @u; every helper that adds a key NAME first unlinks any older
# trusted key NAME (add_key on an existing description would update it).
# Nothing here writes to stdout unless it is asked for a value.

TK_Z40=0000000000000000000000000000000000000000
TK_SRK=40000000
TK_USER=tktest
TK_USER_ID=4242

# tk_impl: lib.sh's t_impl (the trusted.ko under test: ours or ref).
tk_impl() { t_impl; }

# tk_mods IMPL: only trusted.ko of IMPL (ours|ref|test) loaded, and on the
# test kernel the in-tree encrypted-keys.ko on top of it (it works with
# either trusted.ko: both export key_type_trusted), so that encrypted keys
# prove which key bytes a master holds whichever trusted.ko sealed it. On
# the stock kernels the built-in encrypted key type stays (it takes no
# trusted masters).
tk_mods() {
	mods_load "$1" ref-if-any
}

# tk_have_enc: true when an encrypted key type that accepts trusted
# masters is there (the test kernel's module, or the EVM kernels' built-in
# one; the stock kernels' built-in one was built without trusted keys).
tk_have_enc() {
	case $TK_KERNEL in evm | evm-ref) return 0 ;; esac
	[ -n "$TK_REF" ] && [ "$TK_KERNEL" = test ] &&
		grep -q '^encrypted_keys ' /proc/modules
}

# tk_id NAME [TYPE], tk_absent NAME [TYPE], tk_add NAME DATA, tk_blob NAME,
# tk_refused NAME DATA, tk_update_refused NAME DATA: lib.sh's key_*
# helpers for trusted keys (TYPE defaults to trusted).
tk_id() { key_id "${2:-trusted}" "$1"; }
tk_absent() { key_absent "${2:-trusted}" "$1"; }
tk_add() { key_add trusted "$1" "$2"; }
tk_blob() { key_blob trusted "$1"; }
tk_refused() { key_refused trusted "$1" "$2"; }
tk_update_refused() { key_update_refused trusted "$1" "$2"; }

# tk_drop NAME...: unlink the trusted and the encrypted keys NAME from @u.
tk_drop() {
	key_drop trusted "$@"
	key_drop encrypted "$@"
}

# tk_pcr N: the SHA-1 value of PCR N, 40 lowercase hex digits.
tk_pcr() {
	_f=/sys/class/tpm/tpm0/pcr-sha1/$1
	if [ -r "$_f" ]; then
		_v=$(tr -d ' \n' <"$_f")
	else
		_v=
		for _f in /sys/class/tpm/tpm0/pcrs /sys/class/tpm/tpm0/device/pcrs; do
			[ -r "$_f" ] || continue
			_v=$(sed -n "s/^PCR-0*$1:\(.*\)\$/\1/p" "$_f" | tr -d ' ')
			break
		done
	fi
	_v=$(tk_lower "$_v")
	[ ${#_v} -eq 40 ] || return 1
	echo "$_v"
}

# tk_pcrinfo_raw "PCR..." VALUES: TPM_PCR_INFO (hex) releasing when the
# PCRs listed (ascending) hold VALUES (their 40-digit values, concatenated
# in index order). digestAtCreation is left zero: the TPM fills it in.
tk_pcrinfo_raw() {
	_s0=0 _s1=0 _s2=0 _n=0
	for _p in $1; do
		_b=$((_p / 8))
		eval "_s$_b=\$((_s$_b | (1 << (_p % 8))))"
		_n=$((_n + 1))
	done
	_sel=$(printf '0003%02x%02x%02x' $_s0 $_s1 $_s2)
	_comp=$_sel$(printf '%08x' $((20 * _n)))$2
	echo "$_sel$(tk_sha1 "$_comp")$TK_Z40"
}

# tk_pcrinfo PCR...: TPM_PCR_INFO sealing to the current values of the
# PCRs given (ascending).
tk_pcrinfo() {
	_vals=
	for _p in "$@"; do
		_v=$(tk_pcr "$_p") || return 1
		_vals=$_vals$_v
	done
	tk_pcrinfo_raw "$*" "$_vals"
}

# tk_user_setup: an unprivileged account to run commands without
# CAP_SYS_ADMIN (busybox setpriv cannot drop capabilities).
tk_user_setup() {
	command -v su >/dev/null || return 1
	mkdir -p /etc
	grep -q "^$TK_USER:" /etc/passwd 2>/dev/null ||
		echo "$TK_USER:x:$TK_USER_ID:$TK_USER_ID:trusted tests:/tmp:/bin/sh" >>/etc/passwd
	grep -q "^$TK_USER:" /etc/group 2>/dev/null ||
		echo "$TK_USER:x:$TK_USER_ID:" >>/etc/group
	# The account must really be without capabilities.
	[ "$(tk_as_user sh -c 'id -u')" = "$TK_USER_ID" ] &&
		tk_as_user grep -q '^CapEff:[[:space:]]*0*$' /proc/self/status
}

# tk_as_user CMD ARGS...: run CMD as the unprivileged account. The
# command goes to su as one quoted string: busybox su would take options
# among CMD's arguments for its own.
tk_as_user() {
	_cmd='exec'
	for _a in "$@"; do
		_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	su -s /bin/sh -c "$_cmd" "$TK_USER"
}

# tk_user_refused NAME DATA: tk_refused, as the unprivileged account (its
# own @u).
tk_user_refused() {
	if tk_as_user keyctl add trusted "$1" "$2" @u >/dev/null; then
		echo "add succeeded" >&2
		return 0
	fi
	if tk_as_user keyctl search @u trusted "$1" >/dev/null 2>&1; then
		echo "a key $1 exists after the failed add" >&2
		return 0
	fi
	return 1
}

# tk_enc_new NAME MASTER: a new 32-byte encrypted key NAME under trusted
# key MASTER; prints nothing.
tk_enc_new() {
	tk_drop "$1"
	keyctl add encrypted "$1" "new trusted:$2 32" @u >/dev/null
}

# tk_enc_blob NAME: keyctl pipe of encrypted key NAME.
tk_enc_blob() {
	_d=$(tk_id "$1" encrypted) || return 1
	keyctl pipe "$_d"
}

# tk_enc_loads NAME BLOB: load an encrypted key from its blob; it only
# loads when its master key has the same bytes as when it was made.
tk_enc_loads() {
	tk_drop "$1"
	keyctl add encrypted "$1" "load $2" @u >/dev/null
}

# tk_updates NAME [OPTIONS]: keyctl update of trusted key NAME with
# "update OPTIONS"; then its blob must differ from the one before.
tk_updates() {
	_b0=$(tk_blob "$1") || return 1
	keyctl update "$(tk_id "$1")" "update${2:+ $2}" >/dev/null || return 1
	_b1=$(tk_blob "$1") || return 1
	[ "$_b1" != "$_b0" ] || { echo "the blob did not change" >&2; return 1; }
}

# tk_pcr_moves PCR CMD...: CMD succeeds and PCR's value changes.
tk_pcr_moves() {
	_p=$1
	shift
	_v0=$(tk_pcr "$_p") || { echo "PCR $_p unreadable" >&2; return 1; }
	"$@" || return 1
	[ "$(tk_pcr "$_p")" != "$_v0" ] || { echo "PCR $_p unchanged" >&2; return 1; }
}

# tk_pcr_stays PCR CMD...: runs CMD (whatever its outcome: the caller
# checks that separately) and succeeds when PCR's value did not change.
tk_pcr_stays() {
	_p=$1
	shift
	_v0=$(tk_pcr "$_p") || { echo "PCR $_p unreadable" >&2; return 1; }
	"$@" >/dev/null 2>&1
	[ "$(tk_pcr "$_p")" = "$_v0" ] || { echo "PCR $_p changed" >&2; return 1; }
}

# tk_user_add NAME DATA: add trusted key NAME to the unprivileged
# account's @u, as that account.
tk_user_add() {
	tk_as_user keyctl add trusted "$1" "$2" @u >/dev/null
}

# tk_rejected NAME DATA: the add of trusted key NAME fails, whatever the
# errno (keyctl's message stays on stderr), and leaves no key NAME.
tk_rejected() {
	! tk_refused "$@"
}

# --- fault injection (test kernel: fail_function) ------------------------

TK_FF=/sys/kernel/debug/fail_function

# tk_ff_why FUNC: empty when fail_function can make FUNC fail (the test
# kernel, our trusted.ko built with CONFIG_FAIL_FUNCTION), else why not.
tk_ff_why() {
	if [ "$(tk_impl)" != ours ]; then
		echo "fault injection points are ours only"
	elif [ ! -w $TK_FF/inject ]; then
		echo "no fail_function in this kernel"
	elif ! grep -q "^$1[[:space:]]" /sys/kernel/debug/error_injection/list 2>/dev/null; then
		echo "$1 is not injectable here"
	fi
}

# tk_ff_arm FUNC NTH [RETVAL]: the NTH call of FUNC from now on fails, once,
# returning RETVAL (default: the kernel's for FUNC's type). No stack dumps
# (verbose 0): the harness fails a boot on a "Call Trace".
tk_ff_arm() {
	echo >$TK_FF/inject
	echo 0 >$TK_FF/verbose
	echo "$1" >$TK_FF/inject || return 1
	[ -z "${3:-}" ] || echo "$3" >"$TK_FF/$1/retval" || return 1
	echo 1 >$TK_FF/interval
	echo "$2" >$TK_FF/space
	echo 1 >$TK_FF/times
	echo 100 >$TK_FF/probability
}

# tk_ff_off: no injection left armed.
tk_ff_off() {
	echo 0 >$TK_FF/probability 2>/dev/null
	echo >$TK_FF/inject 2>/dev/null
	return 0
}

# tk_ff_refused FUNC NTH RETVAL NAME DATA: tk_refused NAME DATA with the NTH
# call of FUNC failing (RETVAL); for t_errno.
tk_ff_refused() {
	tk_ff_arm "$1" "$2" "$3" || { echo "cannot arm fail_function on $1" >&2; return 0; }
	tk_refused "$4" "$5"
	_rc=$?
	tk_ff_off
	return $_rc
}

# tk1_tpm HEX: send the TPM 1.2 command HEX through /dev/tpm0, print the
# response in hex.
tk1_tpm() {
	exec 5<>/dev/tpm0 || return 1
	tk_unhex "$1" >&5
	dd bs=4096 count=1 <&5 2>/dev/null | xxd -p | tr -d '\n'
	exec 5>&-
	echo
}

# tk1_sessions: the number of authorisation sessions a TPM 1.2 holds
# (TPM_GetCapability TPM_CAP_HANDLE, TPM_RT_AUTH).
tk1_sessions() {
	_r=$(tk1_tpm 00c10000001600000065000000140000000400000002) || return 1
	[ "$(echo "$_r" | cut -c13-20)" = 00000000 ] ||
		{ echo "GetCapability: $_r" >&2; return 1; }
	echo $((0x$(echo "$_r" | cut -c29-32)))
}

# tk1_transports: the number of transport sessions a TPM 1.2 holds
# (TPM_GetCapability TPM_CAP_HANDLE, TPM_RT_TRANS), less the one our
# module keeps between operations (issue 22: parameter session=).
tk1_transports() {
	_r=$(tk1_tpm 00c10000001600000065000000140000000400000004) || return 1
	[ "$(echo "$_r" | cut -c13-20)" = 00000000 ] ||
		{ echo "GetCapability: $_r" >&2; return 1; }
	_n=$((0x$(echo "$_r" | cut -c29-32)))
	_k=$(cat /sys/module/trusted/parameters/session 2>/dev/null)
	case $_k in "" | 0x00000000) ;; *)
		# the kept one is not counted while the TPM holds it
		echo "$_r" | cut -c33- | grep -qi "^\(........\)*${_k#0x}" &&
			_n=$((_n - 1)) ;;
	esac
	echo $_n
}
