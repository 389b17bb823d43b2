# SPDX-License-Identifier: GPL-2.0
# Small helpers every suite uses (busybox sh): compare for t_check, hex.
# Sourced through ../lib.sh.
# shellcheck shell=sh

# tk_eq WHAT A B: A equals B; on stderr what differs.
tk_eq() {
	[ "$2" = "$3" ] && return 0
	echo "$1: got '$2', expected '$3'" >&2
	return 1
}

# tk_lower HEX: HEX in lowercase.
tk_lower() {
	echo "$1" | tr 'A-F' 'a-f'
}

# tk_unhex HEX: the bytes HEX stands for, on stdout.
tk_unhex() {
	# shellcheck disable=SC2059
	printf "$(echo "$1" | sed 's/../\\x&/g')"
}

# tk_sha1 HEX: SHA-1 of the bytes HEX stands for, in hex.
tk_sha1() {
	tk_unhex "$1" | sha1sum | cut -d' ' -f1
}

# tk_u32_at HEX OFFSET: the big-endian u32 at byte OFFSET of HEX, decimal.
tk_u32_at() {
	_s=$(echo "$1" | cut -c$((2 * $2 + 1))-$((2 * $2 + 8)))
	echo $((0x$_s))
}
