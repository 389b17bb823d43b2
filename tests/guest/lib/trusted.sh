# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers shared by the trusted key tests; sourced after lib.sh, never run.
# Keys live in @u; every helper that adds a key NAME first unlinks any older
# trusted key NAME (add_key on an existing description would update it).
# Nothing here writes to stdout unless it is asked for a value.

T_Z40=0000000000000000000000000000000000000000
T_SRK=40000000
T_USER=tktest
T_USER_ID=4242

# t_have_enc: true when an encrypted key type that accepts trusted
# masters is there (the test kernel's module, or the EVM kernels' built-in
# one; the stock kernels' built-in one was built without trusted keys).
t_have_enc() {
	case $TKH_KERNEL in evm | evm-ref) return 0 ;; esac
	[ -n "$TKH_REF" ] && [ "$TKH_KERNEL" = test ] &&
		grep -q '^encrypted_keys ' /proc/modules
}

# t_drop NAME...: unlink the trusted and the encrypted keys NAME from @u.
t_drop() {
	t_key_drop trusted "$@"
	t_key_drop encrypted "$@"
}

# t_pcr N: the SHA-1 value of PCR N, 40 lowercase hex digits.
t_pcr() {
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
	_v=$(t_lower "$_v")
	[ ${#_v} -eq 40 ] || return 1
	echo "$_v"
}

# t_pcrinfo_raw "PCR..." VALUES: TPM_PCR_INFO (hex) releasing when the
# PCRs listed (ascending) hold VALUES (their 40-digit values, concatenated
# in index order). digestAtCreation is left zero: the TPM fills it in.
t_pcrinfo_raw() {
	_s0=0 _s1=0 _s2=0 _n=0
	for _p in $1; do
		_b=$((_p / 8))
		eval "_s$_b=\$((_s$_b | (1 << (_p % 8))))"
		_n=$((_n + 1))
	done
	_sel=$(printf '0003%02x%02x%02x' $_s0 $_s1 $_s2)
	_comp=$_sel$(printf '%08x' $((20 * _n)))$2
	echo "$_sel$(t_sha1 "$_comp")$T_Z40"
}

# t_pcrinfo PCR...: TPM_PCR_INFO sealing to the current values of the
# PCRs given (ascending).
t_pcrinfo() {
	_vals=
	for _p in "$@"; do
		_v=$(t_pcr "$_p") || return 1
		_vals=$_vals$_v
	done
	t_pcrinfo_raw "$*" "$_vals"
}

# t_user_setup: an unprivileged account to run commands without
# CAP_SYS_ADMIN (busybox setpriv cannot drop capabilities).
t_user_setup() {
	command -v su >/dev/null || return 1
	mkdir -p /etc
	grep -q "^$T_USER:" /etc/passwd 2>/dev/null ||
		echo "$T_USER:x:$T_USER_ID:$T_USER_ID:trusted tests:/tmp:/bin/sh" >>/etc/passwd
	grep -q "^$T_USER:" /etc/group 2>/dev/null ||
		echo "$T_USER:x:$T_USER_ID:" >>/etc/group
	# The account must really be without capabilities.
	[ "$(t_as_user sh -c 'id -u')" = "$T_USER_ID" ] &&
		t_as_user grep -q '^CapEff:[[:space:]]*0*$' /proc/self/status
}

# t_as_user CMD ARGS...: run CMD as the unprivileged account. The
# command goes to su as one quoted string: busybox su would take options
# among CMD's arguments for its own.
t_as_user() {
	_cmd='exec'
	for _a in "$@"; do
		_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
	done
	su -s /bin/sh -c "$_cmd" "$T_USER"
}

# t_user_refused NAME DATA: t_key_refused trusted, as the unprivileged account (its
# own @u).
t_user_refused() {
	if t_as_user keyctl add trusted "$1" "$2" @u >/dev/null; then
		echo "add succeeded" >&2
		return 0
	fi
	if t_as_user keyctl search @u trusted "$1" >/dev/null 2>&1; then
		echo "a key $1 exists after the failed add" >&2
		return 0
	fi
	return 1
}

# t_enc_new NAME MASTER: a new 32-byte encrypted key NAME under trusted
# key MASTER; prints nothing.
t_enc_new() {
	t_drop "$1"
	keyctl add encrypted "$1" "new trusted:$2 32" @u >/dev/null
}

# t_enc_loads NAME BLOB: load an encrypted key from its blob; it only
# loads when its master key has the same bytes as when it was made.
t_enc_loads() {
	t_drop "$1"
	keyctl add encrypted "$1" "load $2" @u >/dev/null
}

# t_updates NAME [OPTIONS]: keyctl update of trusted key NAME with
# "update OPTIONS"; then its blob must differ from the one before.
t_updates() {
	_b0=$(t_key_blob trusted "$1") || return 1
	keyctl update "$(t_key_id trusted "$1")" "update${2:+ $2}" >/dev/null || return 1
	_b1=$(t_key_blob trusted "$1") || return 1
	[ "$_b1" != "$_b0" ] || { echo "the blob did not change" >&2; return 1; }
}

# t_pcr_moves PCR CMD...: CMD succeeds and PCR's value changes.
t_pcr_moves() {
	_p=$1
	shift
	_v0=$(t_pcr "$_p") || { echo "PCR $_p unreadable" >&2; return 1; }
	"$@" || return 1
	[ "$(t_pcr "$_p")" != "$_v0" ] || { echo "PCR $_p unchanged" >&2; return 1; }
}

# t_pcr_stays PCR CMD...: runs CMD (whatever its outcome: the caller
# checks that separately) and succeeds when PCR's value did not change.
t_pcr_stays() {
	_p=$1
	shift
	_v0=$(t_pcr "$_p") || { echo "PCR $_p unreadable" >&2; return 1; }
	"$@" >/dev/null 2>&1
	[ "$(t_pcr "$_p")" = "$_v0" ] || { echo "PCR $_p changed" >&2; return 1; }
}

# t_user_add NAME DATA: add trusted key NAME to the unprivileged
# account's @u, as that account.
t_user_add() {
	t_as_user keyctl add trusted "$1" "$2" @u >/dev/null
}

# t_rejected NAME DATA: the add of trusted key NAME fails, whatever the
# errno (keyctl's message stays on stderr), and leaves no key NAME.
t_rejected() {
	! t_key_refused trusted "$@"
}

# --- fault injection (test kernel: fail_function) ------------------------

T_FF=/sys/kernel/debug/fail_function

# t_ff_why FUNC: empty when fail_function can make FUNC fail (the test
# kernel, our trusted.ko built with CONFIG_FAIL_FUNCTION), else why not.
t_ff_why() {
	if [ "$(t_impl)" != ours ]; then
		echo "fault injection points are ours only"
	elif [ ! -w $T_FF/inject ]; then
		echo "no fail_function in this kernel"
	elif ! grep -q "^$1[[:space:]]" /sys/kernel/debug/error_injection/list 2>/dev/null; then
		echo "$1 is not injectable here"
	fi
}

# t_ff_arm FUNC NTH [RETVAL]: the NTH call of FUNC from now on fails, once,
# returning RETVAL (default: the kernel's for FUNC's type). No stack dumps
# (verbose 0): the harness fails a boot on a "Call Trace".
t_ff_arm() {
	echo >$T_FF/inject
	echo 0 >$T_FF/verbose
	echo "$1" >$T_FF/inject || return 1
	[ -z "${3:-}" ] || echo "$3" >"$T_FF/$1/retval" || return 1
	echo 1 >$T_FF/interval
	echo "$2" >$T_FF/space
	echo 1 >$T_FF/times
	echo 100 >$T_FF/probability
}

# t_ff_off: no injection left armed.
t_ff_off() {
	echo 0 >$T_FF/probability 2>/dev/null
	echo >$T_FF/inject 2>/dev/null
	return 0
}

# t_ff_refused FUNC NTH RETVAL NAME DATA: t_key_refused trusted NAME DATA with the NTH
# call of FUNC failing (RETVAL); for t_errno.
t_ff_refused() {
	t_ff_arm "$1" "$2" "$3" || { echo "cannot arm fail_function on $1" >&2; return 0; }
	t_key_refused trusted "$4" "$5"
	_rc=$?
	t_ff_off
	return $_rc
}

# t_tpm1_sessions: the number of authorisation sessions a TPM 1.2 holds
# (TPM_GetCapability TPM_CAP_HANDLE, TPM_RT_AUTH).
t_tpm1_sessions() {
	_r=$(t_tpm_send 00c10000001600000065000000140000000400000002) || return 1
	[ "$(echo "$_r" | cut -c13-20)" = 00000000 ] ||
		{ echo "GetCapability: $_r" >&2; return 1; }
	echo $((0x$(echo "$_r" | cut -c29-32)))
}

# t_tpm1_transports: the number of transport sessions a TPM 1.2 holds
# (TPM_GetCapability TPM_CAP_HANDLE, TPM_RT_TRANS), less the one our
# module keeps between operations (issue 22: parameter session=).
t_tpm1_transports() {
	_r=$(t_tpm_send 00c10000001600000065000000140000000400000004) || return 1
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
