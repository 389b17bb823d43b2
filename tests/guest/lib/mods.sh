# SPDX-License-Identifier: GPL-2.0
# The module fixtures (busybox sh): which trusted.ko and encrypted-keys.ko
# are loaded (ours in $TKH_MODS, the in-tree ones in $TKH_REF, or the
# kernel's built-in key types), with their dependencies; one loader,
# t_mods_load, and t_mods, its KTAP form. Sourced through ../lib.sh.
# shellcheck shell=sh

_t_modname() { basename "$1" .ko | tr '-' '_'; }
_t_loaded() { grep -q "^$(_t_modname "$1") " /proc/modules; }

# t_keytype_builtin NAME: true when the kernel has key type NAME built in (not
# a module). The built-in key types are read from /proc/kallsyms once a boot
# (a module's symbols carry its [name]) and kept in /tmp: a pass over
# kallsyms costs a quarter of a second under TCG (more on Debian's kernels),
# and every t_mods_load asks twice.
# A kernel without CONFIG_KALLSYMS_ALL (the EVM kernels) lists no data
# symbols, not even key_type_user: there trusted and encrypted count as
# built in when add_key knows the type (a bad payload: EINVAL, an unknown
# type: ENODEV) while no module of that name is loaded.
t_keytype_builtin() {
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

# t_mod_insmod DIR FILE.ko [PARAMS...]: insmod with dependencies from DIR/modules.dep
# (then $TKH_REF, then the kernel's own modules via modprobe). Already loaded = ok.
t_mod_insmod() {
	_dir=$1
	_ko=$2
	shift 2
	_t_loaded "$_ko" && return 0
	# shellcheck disable=SC2013  # words, not lines
	for _dep in $(sed -n "s/^$_ko://p" "$_dir/modules.dep" 2>/dev/null); do
		_t_loaded "$_dep" && continue
		_depko=${_dep%.ko}.ko
		if [ -f "$_dir/$_depko" ]; then
			(t_mod_insmod "$_dir" "$_depko") || return 1
		elif [ -n "$TKH_REF" ] && [ -f "$TKH_REF/$_depko" ]; then
			(t_mod_insmod "$TKH_REF" "$_depko") || return 1
		else
			modprobe "${_dep%.ko}" || { echo "t_mod_insmod: cannot load dependency $_dep of $_ko" >&2; return 1; }
		fi
	done
	insmod "$_dir/$_ko" "$@" || { echo "t_mod_insmod: insmod $_dir/$_ko failed" >&2; return 1; }
	_t_modname "$_ko" >>/tmp/tk-mods.loaded
}

# t_mod_load NAME: a module for consumers (dm-crypt, ecryptfs...): from $TKH_REF
# on the test kernel (its deps resolve to whichever trusted/encrypted is loaded),
# else the kernel's own (modprobe).
t_mod_load() {
	if [ -n "$TKH_REF" ] && [ -f "$TKH_REF/$1.ko" ]; then
		t_mod_insmod "$TKH_REF" "$1.ko"
	else
		modprobe "$1"
	fi
}

# t_mods_none: unload what t_mod_insmod loaded (reverse order), then encrypted-keys
# and trusted in any case. Built-in key types stay.
t_mods_none() {
	if [ -f /tmp/tk-mods.loaded ]; then
		for _m in $(tac /tmp/tk-mods.loaded); do
			grep -q "^$_m " /proc/modules && rmmod "$_m"
		done
		rm -f /tmp/tk-mods.loaded
	fi
	for _m in encrypted_keys trusted; do
		if grep -q "^$_m " /proc/modules; then
			rmmod "$_m" || { echo "t_mods_none: cannot unload $_m" >&2; return 1; }
		fi
	done
	return 0
}

# _t_mod_dir IMPL: the directory of implementation IMPL (empty: none).
_t_mod_dir() {
	case $1 in
	test) _t_mod_dir "$(t_impl)" ;;
	ours) echo "$TKH_MODS" ;;
	ref)
		[ -n "$TKH_REF" ] || { echo "t_mods_load: no in-tree modules on this kernel" >&2; return 1; }
		echo "$TKH_REF"
		;;
	ref-if-any) echo "$TKH_REF" ;;
	none) ;;
	*) echo "t_mods_load: unknown implementation '$1'" >&2; return 1 ;;
	esac
}

# t_mods_load TRUSTED [ENCRYPTED]: the one module loader. Unloads both key
# types' modules (destroying their keys), then loads trusted.ko and
# encrypted-keys.ko as asked, each one of:
#   test        the implementation under test (t_impl: ours or ref)
#   ours, ref   ours, or the in-tree one (test kernel only)
#   ref-if-any  the in-tree one where the kernel has it, else none
#   none        not loaded (ENCRYPTED's default)
# A key type built into the kernel stays (stock kernels: encrypted). Links
# @u into the session keyring (encrypted keys find masters from there).
t_mods_load() {
	t_mods_none || return 1
	if t_keytype_builtin trusted && t_keytype_builtin encrypted; then
		# the EVM kernels: both types are the kernel's, whatever was asked
		echo "t_mods_load: both key types are built into this kernel; nothing to load" >&2
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
		if t_keytype_builtin "$_type"; then
			echo "t_mods_load: key type $_type is built into this kernel; not loading $_file" >&2
			continue
		fi
		if [ ! -f "$_dir/$_file" ]; then
			echo "t_mods_load: $_dir/$_file missing" >&2
			return 1
		fi
		t_mod_insmod "$_dir" "$_file" || return 1
	done
	keyctl link @u @s >/dev/null 2>&1
	return 0
}

# t_mods TRUSTED [ENCRYPTED]: t_mods_load, or one failure and exit.
t_mods() {
	_o=$(t_mods_load "$@" 2>&1) ||
		t_bail "load trusted.ko ($1) and encrypted-keys.ko (${2:-none})" "$_o"
	[ -z "$_o" ] || printf '%s\n' "$_o" >&2
	return 0
}

# t_mods_ref: the in-tree reference implementation; 1 when this kernel has none.
t_mods_ref() {
	[ -n "$TKH_REF" ] || return 1
	t_mods_load ref ref
}
