# SPDX-License-Identifier: GPL-2.0
# The KTAP writer of the in-guest tests (busybox sh), and nothing else: as
# kselftest's ktap_helpers.sh, one writer and one totals line a script.
# Sourced through ../lib.sh (which every script sources).
# Output: KTAP v1 on stdout (the init indents it into the run's document);
# anything for humans goes to stderr or to "# " diagnostic lines.
# Results are buffered and the plan is computed when the script exits: a
# script never counts its tests. It reports with t_check/t_errno/t_ok/
# t_fail/t_skip, skips with t_skip_all/t_skip_rest, and ends a set-up
# failure with t_bail. Contract: docs/testing.md.
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
# then the results and diagnostics, then one totals line (kselftest's
# "# Totals:", without the counts KTAP v1 has no directive for), to the
# script's real stdout.
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
		awk '/^ok [0-9]+ .* # SKIP/ { s++; next } /^ok [0-9]/ { p++ } /^not ok [0-9]/ { f++ }
		     END { printf "# Totals: pass:%d fail:%d skip:%d\n", p, f, s }' "$_T_BUFFER"
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
		t_fail "$_d" "t_errno: unknown errno name '$_e' (add it to _t_errtxt in lib/ktap.sh)"
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
