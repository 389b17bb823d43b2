# SPDX-License-Identifier: GPL-2.0
# Shared library of the in-guest tests (busybox sh). Source it: . "$TK_LIB"
# Output: KTAP v1 on stdout (the init indents it into the run's document);
# anything for humans goes to stderr or to "# " diagnostic lines.
# Contract: docs/testing.md.
# shellcheck shell=sh

_t_n=0
_t_plan=

# t_plan N: the script's plan; call once, before any result.
t_plan() {
	_t_plan=$1
	echo "1..$1"
}

# Descriptions cannot contain '#' (KTAP directive separator) or newlines.
_t_desc() { printf '%s' "$*" | tr '#\n' '__'; }

# _t_diag [TEXT]: TEXT (or stdin) as "# " lines.
_t_diag() {
	if [ $# -gt 0 ]; then printf '%s\n' "$*"; else cat; fi | sed 's/^/# /'
}

t_ok() {
	_t_n=$((_t_n + 1))
	echo "ok $_t_n $(_t_desc "$1")"
}

# t_fail DESC [MSG]: MSG (may be multi-line) becomes "# " diagnostics.
t_fail() {
	_t_n=$((_t_n + 1))
	[ $# -ge 2 ] && [ -n "$2" ] && _t_diag "$2"
	echo "not ok $_t_n $(_t_desc "$1")"
	return 0
}

# t_skip DESC REASON
t_skip() {
	_t_n=$((_t_n + 1))
	echo "ok $_t_n $(_t_desc "$1") # SKIP $(_t_desc "$2")"
}

# t_skip_rest REASON: skip every planned test not yet reported.
t_skip_rest() {
	while [ "$_t_n" -lt "${_t_plan:-0}" ]; do
		t_skip "test $((_t_n + 1))" "$1"
	done
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

# t_strerror ERRNO: the text glibc's strerror (and so keyctl, busybox) prints.
t_strerror() {
	case $1 in
	EPERM) echo "Operation not permitted" ;;
	ENOENT) echo "No such file or directory" ;;
	ESRCH) echo "No such process" ;;
	EINTR) echo "Interrupted system call" ;;
	EIO) echo "Input/output error" ;;
	ENXIO) echo "No such device or address" ;;
	E2BIG) echo "Argument list too long" ;;
	ENOEXEC) echo "Exec format error" ;;
	EBADF) echo "Bad file descriptor" ;;
	EAGAIN) echo "Resource temporarily unavailable" ;;
	ENOMEM) echo "Cannot allocate memory" ;;
	EACCES) echo "Permission denied" ;;
	EFAULT) echo "Bad address" ;;
	EBUSY) echo "Device or resource busy" ;;
	EEXIST) echo "File exists" ;;
	ENODEV) echo "No such device" ;;
	ENOTDIR) echo "Not a directory" ;;
	EISDIR) echo "Is a directory" ;;
	EINVAL) echo "Invalid argument" ;;
	ENOTTY) echo "Inappropriate ioctl for device" ;;
	EFBIG) echo "File too large" ;;
	ENOSPC) echo "No space left on device" ;;
	EROFS) echo "Read-only file system" ;;
	ERANGE) echo "Numerical result out of range" ;;
	EDEADLK) echo "Resource deadlock avoided" ;;
	ENAMETOOLONG) echo "File name too long" ;;
	ENOSYS) echo "Function not implemented" ;;
	ENOTEMPTY) echo "Directory not empty" ;;
	ELOOP) echo "Too many levels of symbolic links" ;;
	ENOMSG) echo "No message of desired type" ;;
	ENODATA) echo "No data available" ;;
	ETIME) echo "Timer expired" ;;
	EPROTO) echo "Protocol error" ;;
	EBADMSG) echo "Bad message" ;;
	EOVERFLOW) echo "Value too large for defined data type" ;;
	EMSGSIZE) echo "Message too long" ;;
	EOPNOTSUPP | ENOTSUP) echo "Operation not supported" ;;
	ENOBUFS) echo "No buffer space available" ;;
	ETIMEDOUT) echo "Connection timed out" ;;
	EDQUOT) echo "Disk quota exceeded" ;;
	ECANCELED) echo "Operation canceled" ;;
	ENOKEY) echo "Required key not available" ;;
	EKEYEXPIRED) echo "Key has expired" ;;
	EKEYREVOKED) echo "Key has been revoked" ;;
	EKEYREJECTED) echo "Key was rejected by service" ;;
	*) return 1 ;;
	esac
}

# t_errno DESC ERRNO CMD...: ok when CMD fails and its stderr names ERRNO
# (as "...: <strerror text>", the way keyctl and busybox report errors).
t_errno() {
	_d=$1
	_e=$2
	shift 2
	if ! _txt=$(t_strerror "$_e"); then
		t_fail "$_d" "t_errno: unknown errno name '$_e' (add it to t_strerror in lib.sh)"
		return 1
	fi
	_o=$("$@" 2>&1 >/dev/null)
	_rc=$?
	if [ $_rc -ne 0 ] && printf '%s\n' "$_o" | grep -qF ": $_txt"; then
		t_ok "$_d"
		return 0
	fi
	if [ $_rc -eq 0 ]; then
		t_fail "$_d" "$(printf '%s: expected %s (%s), but it succeeded' "$*" "$_e" "$_txt")"
	else
		t_fail "$_d" "$(printf '%s: expected %s (%s), got exit %s:\n%s' "$*" "$_e" "$_txt" "$_rc" "$_o")"
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

# True when the kernel has key type NAME built in (not a module).
_t_builtin_keytype() {
	[ -r /proc/kallsyms ] && grep -q " key_type_$1\$" /proc/kallsyms
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

# _t_mods DIR: load trusted.ko, then encrypted-keys.ko, from DIR (those not built in).
_t_mods() {
	mods_none || return 1
	for _k in trusted:trusted encrypted:encrypted-keys; do
		_type=${_k%%:*}
		_file=${_k#*:}.ko
		if _t_builtin_keytype "$_type"; then
			echo "mods: key type $_type is built into this kernel; not loading $_file" >&2
			continue
		fi
		if [ ! -f "$1/$_file" ]; then
			echo "mods: $1/$_file missing" >&2
			return 1
		fi
		mod_insmod "$1" "$_file" || return 1
	done
}

mods_ours() { _t_mods "$TK_MODS"; }

# mods_ref: the in-tree reference implementation; returns 1 when this kernel has none.
mods_ref() {
	[ -n "$TK_REF" ] || return 1
	_t_mods "$TK_REF"
}
