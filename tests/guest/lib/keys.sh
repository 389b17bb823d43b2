# SPDX-License-Identifier: GPL-2.0
# The key fixtures (busybox sh): keys of any type in @u, by type and
# description. Sourced through ../lib.sh.
# shellcheck shell=sh

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
