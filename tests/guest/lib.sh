# SPDX-License-Identifier: GPL-2.0
# The API of the in-guest tests (busybox sh); the only one: every suite's
# helpers build on it. Source it: . "$TK_LIB"
# Output: KTAP v1 on stdout (the init indents it into the run's document);
# anything for humans goes to stderr or to "# " diagnostic lines.
# Results are buffered and the plan is computed when the script exits: a
# script never counts its tests. It states what it needs with t_require
# (a "1..0 # SKIP reason" plan when the boot cannot give it), loads the
# modules with t_mods, and reports with t_check/t_errno/t_ok/t_fail/t_skip.
# Contract: docs/testing.md.
# shellcheck shell=sh

_t_n=0
_t_plan=
_t_skipall=

# The script's stdout goes to a buffer in its working directory (the init
# shows it even when the script is killed); _t_finish writes the plan and
# the buffer to the real stdout. Nested sourcing (a helper script that is
# itself a test) keeps the outer buffer.
if [ -z "${_T_BUFFER:-}" ]; then
	_T_BUFFER=$PWD/ktap.buf
	export _T_BUFFER
	exec 8>&1 >"$_T_BUFFER"
	# shellcheck disable=SC2154  # assigned inside the trap string
	trap '_t_rc=$?; _t_cleanup_run; _t_finish; exit $_t_rc' EXIT
	trap 'exit 143' TERM
	trap 'exit 130' INT
fi

# t_cleanup CMD: run CMD when the script exits, however it exits (a script
# must not set its own EXIT trap: that one writes the results).
_t_cleanup=
t_cleanup() {
	_t_cleanup="${_t_cleanup:+$_t_cleanup; }$1"
}

_t_cleanup_run() {
	[ -z "$_t_cleanup" ] || eval "$_t_cleanup" >&2
}

# _t_finish: the plan (counted from the results, or "1..0 # SKIP reason"),
# then the results and diagnostics, to the script's real stdout.
_t_finish() {
	exec 1>&8 8>&-
	if [ -n "$_t_skipall" ] && [ "$_t_n" -eq 0 ]; then
		echo "1..0 # SKIP $_t_skipall"
		cat "$_T_BUFFER"
	else
		_c=$(grep -cE '^(not )?ok [0-9]' "$_T_BUFFER")
		if [ -n "$_t_plan" ] && [ "$_t_plan" != "$_c" ]; then
			echo "# t_plan said $_t_plan tests, $_c ran" >>"$_T_BUFFER"
			_c=$((_c + 1))
			echo "not ok $_c plan: $_t_plan tests declared, $((_c - 1)) ran" >>"$_T_BUFFER"
		fi
		echo "1..$_c"
		cat "$_T_BUFFER"
	fi
	rm -f "$_T_BUFFER"
}

# t_plan N: optional: assert that the script reports N results (the plan
# itself is computed).
t_plan() {
	_t_plan=$1
}

# _t_desc TEXT: TEXT in $_t_d, '#' (KTAP's directive separator) and
# newlines made '_'; no fork unless there is one to replace (a fork costs
# milliseconds in a KASAN guest under TCG, and every result takes one).
_t_desc() {
	_t_d=$*
	case $_t_d in
	*'#'* | *'
'*) _t_d=$(printf '%s' "$_t_d" | tr '#\n' '__') ;;
	esac
}

# _t_diag [TEXT]: TEXT (or stdin) as "# " lines.
_t_diag() {
	if [ $# -gt 0 ]; then printf '%s\n' "$*"; else cat; fi | sed 's/^/# /'
}

t_ok() {
	_t_n=$((_t_n + 1))
	_t_desc "$1"
	echo "ok $_t_n $_t_d"
}

# t_fail DESC [MSG]: MSG (may be multi-line) becomes "# " diagnostics.
t_fail() {
	_t_n=$((_t_n + 1))
	[ $# -ge 2 ] && [ -n "$2" ] && _t_diag "$2"
	_t_desc "$1"
	echo "not ok $_t_n $_t_d"
	return 0
}

# t_skip DESC REASON
t_skip() {
	_t_n=$((_t_n + 1))
	_t_desc "$2"
	_t_r=$_t_d
	_t_desc "$1"
	echo "ok $_t_n $_t_d # SKIP $_t_r"
}

# t_skip_rest REASON: the rest of the script does not run. Before any
# result the whole script is skipped ("1..0 # SKIP REASON"); after some, with
# a t_plan every planned test not yet reported is skipped, without one a
# single skip line says why.
t_skip_rest() {
	if [ "$_t_n" -eq 0 ]; then
		_t_skipall=$1
		return 0
	fi
	if [ -z "$_t_plan" ]; then
		t_skip "the remaining tests" "$1"
		return 0
	fi
	while [ "$_t_n" -lt "$_t_plan" ]; do
		t_skip "test $((_t_n + 1))" "$1"
	done
}

# t_skip_n COUNT REASON: COUNT tests of a block that cannot run here.
t_skip_n() {
	_t_k=$1
	while [ "$_t_k" -gt 0 ]; do
		t_skip "test $((_t_n + 1))" "$2"
		_t_k=$((_t_k - 1))
	done
}

# t_skip_all REASON: nothing of this script runs in this boot: exit with
# the plan "1..0 # SKIP REASON" (before any result is reported).
t_skip_all() {
	_t_skipall=$1
	exit 0
}

# t_bail DESC [MSG]: a set-up step failed: report it as one failure and exit.
t_bail() {
	t_fail "$@"
	exit 0
}

# t_require WHAT [ARG]: skip the whole script unless this boot has WHAT:
#   tpm 1.2|2.0|any   a TPM of that version (any: some TPM device)
#   notpm             no TPM device
#   phase N[,M]       one of the boot phases listed
#   kernel test|stock the test kernel, or a Debian stock one
#   ref               the in-tree reference modules (test kernel only)
#   masters           encrypted keys that take trusted masters: the test
#                     kernel (with ref) or an EVM kernel (both types built in)
#   srk               a TPM 2.0 SRK persistent at 0x81000001
#   disk              the scratch disk /dev/vda
#   cmd NAME          the command NAME in the guest
#   ours              our implementation under test (not tk.impl=ref)
#   impl              the implementation under test (t_impl) exists here
t_require() {
	case $1 in
	tpm)
		if [ ! -c /dev/tpm0 ]; then
			t_skip_all "needs a TPM${2:+ $2} (no /dev/tpm0 in this boot)"
		fi
		[ "${2:-any}" = any ] || [ "$TK_TPM" = "$2" ] ||
			t_skip_all "needs a TPM $2 (this boot: TPM $TK_TPM)"
		;;
	notpm)
		[ ! -c /dev/tpm0 ] || t_skip_all "needs a boot without a TPM"
		;;
	phase)
		case ",$2," in
		*",${TK_PHASE:-1},"*) ;;
		*) t_skip_all "runs in phase $2 only" ;;
		esac
		;;
	kernel)
		case ${TK_KERNEL:-test} in
		"$2"*) ;;
		*) t_skip_all "needs the $2 kernel (this boot: $TK_KERNEL)" ;;
		esac
		;;
	ref)
		[ -n "$TK_REF" ] ||
			t_skip_all "needs the in-tree reference modules (test kernel only)"
		;;
	srk)
		t_require tpm 2.0
		command -v tk2_srk_present >/dev/null ||
			t_bail "t_require srk: the script did not source trusted-tpm2/tk2.inc"
		tk2_srk_present ||
			t_skip_all "needs a TPM 2.0 SRK at 0x81000001 (this TPM has none)"
		;;
	disk)
		if [ -z "$TK_DISK" ] || [ ! -b "$TK_DISK" ]; then
			t_skip_all "needs the scratch disk (no /dev/vda in this boot)"
		fi
		;;
	cmd)
		command -v "$2" >/dev/null ||
			t_skip_all "needs $2 in the guest"
		;;
	masters)
		# encrypted keys under trusted masters: the test kernel's modules
		# (with the in-tree ones beside), or an EVM kernel's built-in types
		case ${TK_KERNEL:-test} in
		evm | evm-ref) ;;
		test) t_require ref ;;
		*) t_skip_all "needs encrypted keys that take trusted masters: the test kernel or an EVM kernel (this boot: $TK_KERNEL)" ;;
		esac
		;;
	ours)
		[ "$(t_impl)" = ours ] ||
			t_skip_all "tests our implementation only (tk.impl=$TK_IMPL)"
		;;
	impl)
		[ "$(t_impl)" = ours ] || [ -n "$TK_REF" ] ||
			t_skip_all "tk.impl=ref: no in-tree modules on this kernel"
		;;
	*)
		t_bail "t_require: unknown requirement '$1'"
		;;
	esac
}

# t_check DESC CMD...: ok when CMD exits 0 (its output becomes diagnostics on failure).
t_check() {
	_d=$1
	shift
	_o=$("$@" 2>&1)
	_rc=$?
	if [ $_rc -eq 0 ]; then
		t_ok "$_d"
		return 0
	fi
	t_fail "$_d" "$(printf '%s: exit %s\n%s' "$*" "$_rc" "$_o")"
	return 1
}

# _t_errtxt ERRNO: _t_txt = the text glibc's strerror (and so keyctl,
# busybox) prints for ERRNO; fails for a name it does not know. No fork:
# t_errno runs it for every check.
_t_errtxt() {
	case $1 in
	EPERM) _t_txt="Operation not permitted" ;;
	ENOENT) _t_txt="No such file or directory" ;;
	ESRCH) _t_txt="No such process" ;;
	EINTR) _t_txt="Interrupted system call" ;;
	EIO) _t_txt="Input/output error" ;;
	ENXIO) _t_txt="No such device or address" ;;
	E2BIG) _t_txt="Argument list too long" ;;
	ENOEXEC) _t_txt="Exec format error" ;;
	EBADF) _t_txt="Bad file descriptor" ;;
	EAGAIN) _t_txt="Resource temporarily unavailable" ;;
	ENOMEM) _t_txt="Cannot allocate memory" ;;
	EACCES) _t_txt="Permission denied" ;;
	EFAULT) _t_txt="Bad address" ;;
	EBUSY) _t_txt="Device or resource busy" ;;
	EEXIST) _t_txt="File exists" ;;
	ENODEV) _t_txt="No such device" ;;
	ENOTDIR) _t_txt="Not a directory" ;;
	EISDIR) _t_txt="Is a directory" ;;
	EINVAL) _t_txt="Invalid argument" ;;
	ENOTTY) _t_txt="Inappropriate ioctl for device" ;;
	EFBIG) _t_txt="File too large" ;;
	ENOSPC) _t_txt="No space left on device" ;;
	EROFS) _t_txt="Read-only file system" ;;
	ERANGE) _t_txt="Numerical result out of range" ;;
	EDEADLK) _t_txt="Resource deadlock avoided" ;;
	ENAMETOOLONG) _t_txt="File name too long" ;;
	ENOSYS) _t_txt="Function not implemented" ;;
	ENOTEMPTY) _t_txt="Directory not empty" ;;
	ELOOP) _t_txt="Too many levels of symbolic links" ;;
	ENOMSG) _t_txt="No message of desired type" ;;
	ENODATA) _t_txt="No data available" ;;
	ETIME) _t_txt="Timer expired" ;;
	EPROTO) _t_txt="Protocol error" ;;
	EBADMSG) _t_txt="Bad message" ;;
	EOVERFLOW) _t_txt="Value too large for defined data type" ;;
	EMSGSIZE) _t_txt="Message too long" ;;
	EOPNOTSUPP | ENOTSUP) _t_txt="Operation not supported" ;;
	ENOBUFS) _t_txt="No buffer space available" ;;
	ETIMEDOUT) _t_txt="Connection timed out" ;;
	EDQUOT) _t_txt="Disk quota exceeded" ;;
	ECANCELED) _t_txt="Operation canceled" ;;
	ENOKEY) _t_txt="Required key not available" ;;
	ENOPKG) _t_txt="Package not installed" ;;
	EKEYEXPIRED) _t_txt="Key has expired" ;;
	EKEYREVOKED) _t_txt="Key has been revoked" ;;
	EKEYREJECTED) _t_txt="Key was rejected by service" ;;
	*) return 1 ;;
	esac
}

# t_strerror ERRNO: print that text.
t_strerror() {
	_t_errtxt "$1" && echo "$_t_txt"
}

# t_errno DESC ERRNO CMD...: ok when CMD fails and its stderr names ERRNO
# (as "...: <strerror text>", the way keyctl and busybox report errors).
t_errno() {
	_d=$1
	_e=$2
	shift 2
	if ! _t_errtxt "$_e"; then
		t_fail "$_d" "t_errno: unknown errno name '$_e' (add it to _t_errtxt in lib.sh)"
		return 1
	fi
	_o=$("$@" 2>&1 >/dev/null)
	_rc=$?
	if [ $_rc -ne 0 ]; then
		case $_o in
		*": $_t_txt"*)
			t_ok "$_d"
			return 0 ;;
		esac
	fi
	if [ $_rc -eq 0 ]; then
		t_fail "$_d" "$(printf '%s: expected %s (%s), but it succeeded' "$*" "$_e" "$_t_txt")"
	else
		t_fail "$_d" "$(printf '%s: expected %s (%s), got exit %s:\n%s' "$*" "$_e" "$_t_txt" "$_rc" "$_o")"
	fi
	return 1
}

# --- state carried across the boots of one run -----------------------------

_t_state_name() {
	case $1 in
	'' | *[!A-Za-z0-9._-]* | .*) echo "state: bad name '$1' (use [A-Za-z0-9._-], no leading dot)" >&2; return 1 ;;
	esac
}

# state_save NAME < data: available to later boots of this run as $TK_STATE/NAME.
state_save() {
	_t_state_name "$1" || return 1
	cat >"$TK_STATE_OUT/$1.tmp" && mv "$TK_STATE_OUT/$1.tmp" "$TK_STATE_OUT/$1"
}

# state_get NAME: prints what this boot or an earlier boot saved; fails when absent.
state_get() {
	_t_state_name "$1" || return 1
	if [ -f "$TK_STATE_OUT/$1" ]; then
		cat "$TK_STATE_OUT/$1"
	elif [ -f "/tmp/tk-state-sent/$1" ]; then
		cat "/tmp/tk-state-sent/$1"
	elif [ -f "$TK_STATE/$1" ]; then
		cat "$TK_STATE/$1"
	else
		echo "state_get: no saved state '$1' (phase $TK_PHASE)" >&2
		return 1
	fi
}

# --- modules ---------------------------------------------------------------

_t_modname() { basename "$1" .ko | tr '-' '_'; }
_t_loaded() { grep -q "^$(_t_modname "$1") " /proc/modules; }

# keytype_builtin NAME: true when the kernel has key type NAME built in (not
# a module). The built-in key types are read from /proc/kallsyms once a boot
# (a module's symbols carry its [name]) and kept in /tmp: a pass over
# kallsyms costs a quarter of a second under TCG (more on Debian's kernels),
# and every mods_load asks twice.
# A kernel without CONFIG_KALLSYMS_ALL (the EVM kernels) lists no data
# symbols, not even key_type_user: there trusted and encrypted count as
# built in when add_key knows the type (a bad payload: EINVAL, an unknown
# type: ENODEV) while no module of that name is loaded.
keytype_builtin() {
	_bk=/tmp/.tk-builtin-keytypes
	if [ ! -f $_bk ]; then
		[ -r /proc/kallsyms ] || return 1
		sed -n 's/^[0-9a-f]* [a-zA-Z] key_type_\([a-z0-9_]*\)$/\1/p' /proc/kallsyms >$_bk.$$ ||
			return 1
		if ! grep -qx user $_bk.$$; then
			for _bt in trusted:trusted encrypted:encrypted_keys; do
				grep -q "^${_bt#*:} " /proc/modules && continue
				keyctl add "${_bt%%:*}" tk-probe "" @s 2>&1 | grep -q 'No such device' ||
					echo "${_bt%%:*}" >>$_bk.$$
			done
		fi
		mv $_bk.$$ $_bk || return 1
	fi
	grep -qx "$1" $_bk
}

# mod_insmod DIR FILE.ko [PARAMS...]: insmod with dependencies from DIR/modules.dep
# (then $TK_REF, then the kernel's own modules via modprobe). Already loaded = ok.
mod_insmod() {
	_dir=$1
	_ko=$2
	shift 2
	_t_loaded "$_ko" && return 0
	# shellcheck disable=SC2013  # words, not lines
	for _dep in $(sed -n "s/^$_ko://p" "$_dir/modules.dep" 2>/dev/null); do
		_t_loaded "$_dep" && continue
		_depko=${_dep%.ko}.ko
		if [ -f "$_dir/$_depko" ]; then
			(mod_insmod "$_dir" "$_depko") || return 1
		elif [ -n "$TK_REF" ] && [ -f "$TK_REF/$_depko" ]; then
			(mod_insmod "$TK_REF" "$_depko") || return 1
		else
			modprobe "${_dep%.ko}" || { echo "mod_insmod: cannot load dependency $_dep of $_ko" >&2; return 1; }
		fi
	done
	insmod "$_dir/$_ko" "$@" || { echo "mod_insmod: insmod $_dir/$_ko failed" >&2; return 1; }
	_t_modname "$_ko" >>/tmp/tk-mods.loaded
}

# mod_load NAME: a module for consumers (dm-crypt, ecryptfs...): from $TK_REF
# on the test kernel (its deps resolve to whichever trusted/encrypted is loaded),
# else the kernel's own (modprobe).
mod_load() {
	if [ -n "$TK_REF" ] && [ -f "$TK_REF/$1.ko" ]; then
		mod_insmod "$TK_REF" "$1.ko"
	else
		modprobe "$1"
	fi
}

# mods_none: unload what mod_insmod loaded (reverse order), then encrypted-keys
# and trusted in any case. Built-in key types stay.
mods_none() {
	if [ -f /tmp/tk-mods.loaded ]; then
		for _m in $(tac /tmp/tk-mods.loaded); do
			grep -q "^$_m " /proc/modules && rmmod "$_m"
		done
		rm -f /tmp/tk-mods.loaded
	fi
	for _m in encrypted_keys trusted; do
		if grep -q "^$_m " /proc/modules; then
			rmmod "$_m" || { echo "mods_none: cannot unload $_m" >&2; return 1; }
		fi
	done
	return 0
}

# t_impl: the implementation under test: ours, or ref when the guest runs
# with tk.impl=ref (TKH_IMPL=ref on the host), which checks the tests
# themselves against the in-tree modules.
t_impl() {
	case ${TK_IMPL:-ours} in
	ref) echo ref ;;
	*) echo ours ;;
	esac
}

# _t_mod_dir IMPL: the directory of implementation IMPL (empty: none).
_t_mod_dir() {
	case $1 in
	test) _t_mod_dir "$(t_impl)" ;;
	ours) echo "$TK_MODS" ;;
	ref)
		[ -n "$TK_REF" ] || { echo "mods_load: no in-tree modules on this kernel" >&2; return 1; }
		echo "$TK_REF"
		;;
	ref-if-any) echo "$TK_REF" ;;
	none) ;;
	*) echo "mods_load: unknown implementation '$1'" >&2; return 1 ;;
	esac
}

# mods_load TRUSTED [ENCRYPTED]: the one module loader. Unloads both key
# types' modules (destroying their keys), then loads trusted.ko and
# encrypted-keys.ko as asked, each one of:
#   test        the implementation under test (t_impl: ours or ref)
#   ours, ref   ours, or the in-tree one (test kernel only)
#   ref-if-any  the in-tree one where the kernel has it, else none
#   none        not loaded (ENCRYPTED's default)
# A key type built into the kernel stays (stock kernels: encrypted). Links
# @u into the session keyring (encrypted keys find masters from there).
mods_load() {
	mods_none || return 1
	if keytype_builtin trusted && keytype_builtin encrypted; then
		# the EVM kernels: both types are the kernel's, whatever was asked
		echo "mods_load: both key types are built into this kernel; nothing to load" >&2
		keyctl link @u @s >/dev/null 2>&1
		return 0
	fi
	_td=$(_t_mod_dir "$1") || return 1
	_ed=$(_t_mod_dir "${2:-none}") || return 1
	for _k in "trusted:trusted:$_td" "encrypted:encrypted-keys:$_ed"; do
		_type=${_k%%:*}
		_rest=${_k#*:}
		_file=${_rest%%:*}.ko
		_dir=${_rest#*:}
		[ -n "$_dir" ] || continue
		if keytype_builtin "$_type"; then
			echo "mods_load: key type $_type is built into this kernel; not loading $_file" >&2
			continue
		fi
		if [ ! -f "$_dir/$_file" ]; then
			echo "mods_load: $_dir/$_file missing" >&2
			return 1
		fi
		mod_insmod "$_dir" "$_file" || return 1
	done
	keyctl link @u @s >/dev/null 2>&1
	return 0
}

# t_mods TRUSTED [ENCRYPTED]: mods_load, or one failure and exit.
t_mods() {
	_o=$(mods_load "$@" 2>&1) ||
		t_bail "load trusted.ko ($1) and encrypted-keys.ko (${2:-none})" "$_o"
	[ -z "$_o" ] || printf '%s\n' "$_o" >&2
	return 0
}

mods_ours() { mods_load ours ours; }

# mods_ref: the in-tree reference implementation; 1 when this kernel has none.
mods_ref() {
	[ -n "$TK_REF" ] || return 1
	mods_load ref ref
}

# --- keys (in @u) ------------------------------------------------------------
# Every helper that adds a key NAME first unlinks any older key NAME of the
# same type (add_key on an existing description would update it). Nothing
# here writes to stdout unless asked for a value.

# key_id TYPE NAME: the id of the key NAME of TYPE in @u; fails when none.
key_id() {
	keyctl search @u "$1" "$2" 2>/dev/null
}

# key_absent TYPE NAME: true when no key NAME of TYPE is linked to @u.
key_absent() {
	! key_id "$1" "$2" >/dev/null
}

# key_drop TYPE NAME...: unlink the keys NAME of TYPE from @u.
key_drop() {
	_kt=$1
	shift
	for _kn in "$@"; do
		while _kd=$(key_id "$_kt" "$_kn"); do
			keyctl unlink "$_kd" @u >/dev/null 2>&1 || break
		done
	done
	return 0
}

# key_add TYPE NAME DATA: add the key; quiet, fails with keyctl's message.
key_add() {
	key_drop "$1" "$2"
	keyctl add "$1" "$2" "$3" @u >/dev/null
}

# key_blob TYPE NAME: what keyctl pipe gives for the key NAME of TYPE.
key_blob() {
	_kd=$(key_id "$1" "$2") || { echo "no $1 key $2" >&2; return 1; }
	keyctl pipe "$_kd"
}

# key_refused TYPE NAME DATA: for t_errno. Adds the key; fails (keyctl's
# message on stderr) when the add failed and left no key NAME; succeeds,
# so that t_errno reports it, when the add succeeded or a key remains.
key_refused() {
	key_drop "$1" "$2"
	if keyctl add "$1" "$2" "$3" @u >/dev/null; then
		echo "add succeeded" >&2
		key_drop "$1" "$2"
		return 0
	fi
	if ! key_absent "$1" "$2"; then
		echo "a $1 key $2 exists after the failed add" >&2
		key_drop "$1" "$2"
		return 0
	fi
	return 1
}

# key_update_refused TYPE NAME DATA: for t_errno. keyctl update of the key
# with DATA; fails (keyctl's message on stderr) when the update failed and
# left the blob as it was; succeeds when it did not.
key_update_refused() {
	_kb=$(key_blob "$1" "$2") || return 0
	if keyctl update "$(key_id "$1" "$2")" "$3" >/dev/null; then
		echo "update succeeded" >&2
		return 0
	fi
	if [ "$(key_blob "$1" "$2")" != "$_kb" ]; then
		echo "the blob changed although the update failed" >&2
		return 0
	fi
	return 1
}
