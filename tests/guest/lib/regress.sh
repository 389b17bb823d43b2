# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the regression scripts (one script per historic CVE or bug of
# the trusted and encrypted key types; docs/security.md lists them).
# Sourced after lib.sh, never run. Our trusted.ko and encrypted-keys.ko are
# loaded; keys live in @u (linked into the session keyring).

T_REGRESS_UBYTES=0123456789abcdef0123456789abcdef
T_REGRESS_HELPER=/sbin/request-key
T_REGRESS_IDFILE=/tmp/rg-request-key.id
T_REGRESS_RELEASE=/tmp/rg-request-key.release

# t_regress_begin: the whole script is skipped (it exits) off the test kernel,
# after phase 1 or without a TPM; loads our modules (or reports one failure
# and exits) and a user master ukm.
t_regress_begin() {
	t_require kernel test	# KASAN, kmemleak
	t_require phase 1
	t_require tpm
	t_mods_load ours ours ||
		t_bail "modules" "our trusted.ko / encrypted-keys.ko did not load"
	keyctl link @u @s >/dev/null 2>&1
	keyctl add user ukm "$T_REGRESS_UBYTES" @u >/dev/null
}

# t_regress_new TYPE: the payload of a new key of TYPE (trusted or encrypted).
t_regress_new() {
	case $1 in
	trusted) echo "new 32" ;;
	*) echo "new user:ukm 32" ;;
	esac
}

# t_regress_proc_keys ID [COLUMN]: the /proc/keys line of key ID, or its COLUMN-th
# column (ids compared as strings: busybox awk takes 39e66058 for a number).
t_regress_proc_keys() {
	awk -v id="$(printf '%08x' "$1")" -v c="${2:-0}" '$1 "" == id "" { print $c }' /proc/keys
}

# t_regress_flags ID: the flags column of /proc/keys for key ID (I, R, D, Q, U,
# N, i or -), e.g. "I--Q---".
t_regress_flags() {
	t_regress_proc_keys "$1" 2
}

# t_regress_helper_install SECONDS: a /sbin/request-key that records the id of
# the key under construction, sleeps SECONDS and exits 1 without
# instantiating it: the kernel then negates the key. For SECONDS the key
# exists, linked into the destination keyring, uninstantiated. SECONDS
# "hold": it waits for t_regress_release instead (at most 120 s), so that a slow
# guest cannot end the construction before the test has looked at it.
t_regress_helper_install() {
	rm -f "$T_REGRESS_IDFILE" "$T_REGRESS_RELEASE"
	mkdir -p /sbin
	[ ! -e "$T_REGRESS_HELPER" ] || [ -f "$T_REGRESS_HELPER.rg" ] || mv "$T_REGRESS_HELPER" "$T_REGRESS_HELPER.rg"
	_w="sleep $1"
	[ "$1" != hold ] ||
		_w="i=0; while [ ! -e $T_REGRESS_RELEASE ] && [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i + 1)); done"
	# shellcheck disable=SC2016  # $2 is the helper's, not ours
	printf '#!/bin/sh\necho "$2" >%s.tmp && mv %s.tmp %s\n%s\nexit 1\n' \
		"$T_REGRESS_IDFILE" "$T_REGRESS_IDFILE" "$T_REGRESS_IDFILE" "$_w" >"$T_REGRESS_HELPER"
	chmod 755 "$T_REGRESS_HELPER"
}

# t_regress_release: a "hold" helper ends (the kernel then negates the key).
t_regress_release() {
	: >"$T_REGRESS_RELEASE"
}

# t_regress_helper_remove: back to the guest's own (none, or the saved one).
t_regress_helper_remove() {
	[ ! -e "$T_REGRESS_IDFILE" ] || t_regress_release
	rm -f "$T_REGRESS_HELPER" "$T_REGRESS_IDFILE"
	[ ! -f "$T_REGRESS_HELPER.rg" ] || mv "$T_REGRESS_HELPER.rg" "$T_REGRESS_HELPER"
	return 0
}

# t_regress_construct TYPE NAME: start request_key(TYPE, NAME) in the background
# (it returns once the helper is done); wait for the helper to run and for
# /proc/keys to show a key NAME of TYPE under construction; print its id.
# Fails after 20 s without one. The id is the one /proc/keys shows (a
# helper's $2 differing from it is reported on stderr, never used).
t_regress_construct() {
	keyctl request2 "$1" "$2" "rg callout" @u >/dev/null 2>&1 &
	_i=0
	while [ ! -s "$T_REGRESS_IDFILE" ] || ! _p=$(t_regress_pid "$1" "$2"); do
		_i=$((_i + 1))
		[ $_i -le 200 ] || { echo "no request-key upcall for $1:$2" >&2; return 1; }
		sleep 0.1
	done
	_h=$(cat "$T_REGRESS_IDFILE")
	[ "$_h" = "$_p" ] || echo "t_regress_construct: the helper named key $_h, /proc/keys shows $_p" >&2
	echo "$_p"
}

# t_regress_pid TYPE NAME: the id (decimal) of a key NAME of TYPE that /proc/keys
# shows, whatever its state (keyctl search finds positive keys only).
t_regress_pid() {
	_h=$(awk -v t="$1" -v d="$2" '$8 == t && ($9 == d || $9 == d ":") { print $1; exit }' /proc/keys)
	[ -n "$_h" ] || return 1
	echo $((0x$_h))
}

# t_regress_negative TYPE NAME: a negatively instantiated key NAME of TYPE in @u
# (request_key with no /sbin/request-key: the upcall fails, the kernel
# negates the key). Prints its id.
t_regress_negative() {
	t_regress_helper_remove
	keyctl request2 "$1" "$2" "rg callout" @u >/dev/null 2>&1
	t_regress_pid "$1" "$2" || { echo "no $1 key $2 in /proc/keys after request_key" >&2; return 1; }
}

# t_regress_negative_point TYPE NAME N: the first of N points on a negative
# key: "TYPE: a negative key from request_key without a helper" (a key NAME
# made anew by t_regress_negative, negative in /proc/keys); its id in
# T_REGRESS_NEG. When none is made: that point fails, the N - 1 after it
# are skipped, and it returns 1.
t_regress_negative_point() {
	t_regress_drop "$1" "$2"
	if ! T_REGRESS_NEG=$(t_regress_negative "$1" "$2"); then
		t_fail "$1: a negative key from request_key without a helper"
		_i=2
		while [ $_i -le "$3" ]; do
			t_skip "$1: test $_i" "no negative key"
			_i=$((_i + 1))
		done
		return 1
	fi
	t_check "$1: a negative key from request_key without a helper" \
		t_regress_flags_match "$T_REGRESS_NEG" '?????N?'
	return 0
}

# t_regress_uptime: seconds since boot, with hundredths.
t_regress_uptime() {
	cut -d' ' -f1 /proc/uptime
}

# t_regress_drop TYPE NAME...: unlink the keys NAME of TYPE (any state) from @u.
t_regress_drop() {
	t_key_unlink_found t_regress_pid "$@"
}

# t_regress_flags_match ID PATTERN: the /proc/keys flags of key ID match the case
# PATTERN (U at the 5th place: under construction; N at the 6th: negative).
t_regress_flags_match() {
	_f=$(t_regress_flags "$1")
	# shellcheck disable=SC2254  # $2 is a pattern
	case $_f in
	$2) return 0 ;;
	esac
	echo "key $1: flags '$_f', expected $2" >&2
	return 1
}

# t_regress_no_length ID: the /proc/keys line of key ID shows no payload length
# (describe gave the description only: the key has no payload).
t_regress_no_length() {
	_l=$(t_regress_proc_keys "$1")
	[ -n "$_l" ] || { echo "key $1 not in /proc/keys" >&2; return 1; }
	case $_l in
	*': '[0-9]*) echo "payload length shown: $_l" >&2; return 1 ;;
	esac
}
