# SPDX-License-Identifier: GPL-2.0
# Small helpers every suite uses (busybox sh): compare for t_check, hex.
# Sourced through ../lib.sh.
# shellcheck shell=sh

# t_eq WHAT A B: A equals B; on stderr what differs.
t_eq() {
	[ "$2" = "$3" ] && return 0
	echo "$1: got '$2', expected '$3'" >&2
	return 1
}

# t_lower HEX: HEX in lowercase.
t_lower() {
	echo "$1" | tr 'A-F' 'a-f'
}

# t_unhex HEX: the bytes HEX stands for, on stdout.
t_unhex() {
	# shellcheck disable=SC2059
	printf "$(echo "$1" | sed 's/../\\x&/g')"
}

# t_sha1 HEX: SHA-1 of the bytes HEX stands for, in hex.
t_sha1() {
	t_unhex "$1" | sha1sum | cut -d' ' -f1
}

# t_u32_at HEX OFFSET: the big-endian u32 at byte OFFSET of HEX, decimal.
t_u32_at() {
	_s=$(echo "$1" | cut -c$((2 * $2 + 1))-$((2 * $2 + 8)))
	echo $((0x$_s))
}
