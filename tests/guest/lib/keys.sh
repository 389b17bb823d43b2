# SPDX-License-Identifier: GPL-2.0
# The key fixtures (busybox sh): keys of any type in @u, by type and
# description. Sourced through ../lib.sh.
# shellcheck shell=sh

# Every helper that adds a key NAME first unlinks any older key NAME of the
# same type (add_key on an existing description would update it). Nothing
# here writes to stdout unless asked for a value.

# t_key_id TYPE NAME: the id of the key NAME of TYPE in @u; fails when none.
t_key_id() {
	keyctl search @u "$1" "$2" 2>/dev/null
}

# t_key_absent TYPE NAME: true when no key NAME of TYPE is linked to @u.
t_key_absent() {
	! t_key_id "$1" "$2" >/dev/null
}

# t_key_drop TYPE NAME...: unlink the keys NAME of TYPE from @u.
t_key_drop() {
	t_key_unlink_found t_key_id "$@"
}

# t_key_unlink_found FIND TYPE NAME...: unlink from @u each key that
# "FIND TYPE NAME" prints the id of, until it finds none (or the unlink
# fails).
t_key_unlink_found() {
	_kf=$1 _kt=$2
	shift 2
	for _kn in "$@"; do
		while _kd=$("$_kf" "$_kt" "$_kn"); do
			keyctl unlink "$_kd" @u >/dev/null 2>&1 || break
		done
	done
	return 0
}

# t_key_add TYPE NAME DATA: add the key; quiet, fails with keyctl's message.
t_key_add() {
	t_key_drop "$1" "$2"
	keyctl add "$1" "$2" "$3" @u >/dev/null
}

# t_key_blob TYPE NAME: what keyctl pipe gives for the key NAME of TYPE.
t_key_blob() {
	_kd=$(t_key_id "$1" "$2") || { echo "no $1 key $2" >&2; return 1; }
	keyctl pipe "$_kd"
}

# t_key_refused TYPE NAME DATA: for t_errno. Adds the key; fails (keyctl's
# message on stderr) when the add failed and left no key NAME; succeeds,
# so that t_errno reports it, when the add succeeded or a key remains.
t_key_refused() {
	t_key_drop "$1" "$2"
	if keyctl add "$1" "$2" "$3" @u >/dev/null; then
		echo "add succeeded" >&2
		t_key_drop "$1" "$2"
		return 0
	fi
	if ! t_key_absent "$1" "$2"; then
		echo "a $1 key $2 exists after the failed add" >&2
		t_key_drop "$1" "$2"
		return 0
	fi
	return 1
}

# t_key_update_refused TYPE NAME DATA: for t_errno. keyctl update of the key
# with DATA; fails (keyctl's message on stderr) when the update failed and
# left the blob as it was; succeeds when it did not.
t_key_update_refused() {
	_kb=$(t_key_blob "$1" "$2") || return 0
	if keyctl update "$(t_key_id "$1" "$2")" "$3" >/dev/null; then
		echo "update succeeded" >&2
		return 0
	fi
	if [ "$(t_key_blob "$1" "$2")" != "$_kb" ]; then
		echo "the blob changed although the update failed" >&2
		return 0
	fi
	return 1
}
