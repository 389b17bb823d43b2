# SPDX-License-Identifier: GPL-2.0
# State carried across the boots (phases) of one run (busybox sh): what a
# script saves in one boot, a later boot's scripts read. The init sends
# $TKH_STATE_OUT to the host after every script; the host hands it back to
# the next boot as $TKH_STATE. Sourced through ../lib.sh.
# shellcheck shell=sh

_t_state_name() {
	case $1 in
	'' | *[!A-Za-z0-9._-]* | .*) echo "state: bad name '$1' (use [A-Za-z0-9._-], no leading dot)" >&2; return 1 ;;
	esac
}

# t_state_save NAME < data: available to later boots of this run as $TKH_STATE/NAME.
t_state_save() {
	_t_state_name "$1" || return 1
	cat >"$TKH_STATE_OUT/$1.tmp" && mv "$TKH_STATE_OUT/$1.tmp" "$TKH_STATE_OUT/$1"
}

# t_state_get NAME: prints what this boot or an earlier boot saved; fails when absent.
t_state_get() {
	_t_state_name "$1" || return 1
	if [ -f "$TKH_STATE_OUT/$1" ]; then
		cat "$TKH_STATE_OUT/$1"
	elif [ -f "/tmp/tk-state-sent/$1" ]; then
		cat "/tmp/tk-state-sent/$1"
	elif [ -f "$TKH_STATE/$1" ]; then
		cat "$TKH_STATE/$1"
	else
		echo "t_state_get: no saved state '$1' (phase $TKH_PHASE)" >&2
		return 1
	fi
}
