# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers shared by the encrypted key tests; sourced after lib.sh, never run.
# Keys live in @u (linked into the session keyring so that the master key
# lookup, which searches the caller's keyrings, finds them). Every helper
# that adds a key NAME first unlinks any older key NAME of that type
# (add_key on an existing description would update it).

EK_UMASTER=ukm			# user master key
EK_UMASTER2=ukm2		# a second user master (update tests)
EK_TMASTER=tkm			# trusted master key
EK_TMASTER2=tkm2
EK_UBYTES=0123456789abcdef0123456789abcdef	# its 32 bytes
EK_UBYTES2=fedcba9876543210fedcba9876543210
EK_SIG_U=0011223344556677	# ecryptfs key descriptions (16 hex digits)
EK_SIG_T=8899aabbccddeeff

# ek_mods ENCRYPTED [TRUSTED]: mods_load TRUSTED (default ref: the in-tree
# trusted.ko, so that a trusted.ko problem shows up in the trusted suite,
# not here) and ENCRYPTED (test, ours or ref: see mods_load in lib.sh).
# Unloading destroys every key of both types: callers reload their masters.
ek_mods() {
	mods_load "${2:-ref}" "$1"
}

# ek_loaded_impl: which encrypted-keys.ko is loaded (ours|ref|none); ours
# is the out-of-tree one ("(O)" taint in /proc/modules).
ek_loaded_impl() {
	_l=$(grep '^encrypted_keys ' /proc/modules) || { echo none; return; }
	case $_l in
	*'(O'*) echo ours ;;
	*) echo ref ;;
	esac
}

# ek_id NAME [TYPE], ek_drop NAME..., ek_add NAME DATA, ek_blob NAME,
# ek_refused NAME DATA, ek_update_refused NAME DATA: lib.sh's key_*
# helpers for encrypted keys.
ek_id() { key_id "${2:-encrypted}" "$1"; }
ek_drop() { key_drop encrypted "$@"; }
ek_add() { key_add encrypted "$1" "$2"; }
ek_blob() { key_blob encrypted "$1"; }
ek_refused() { key_refused encrypted "$1" "$2"; }
ek_update_refused() { key_update_refused encrypted "$1" "$2"; }

# ek_quota NAME: the payload size /proc/keys shows for key NAME.
ek_quota() {
	_d=$(ek_id "$1") || return 1
	_h=$(printf '%08x' "$_d")
	sed -n "s/^$_h .* encrypted $1: \([0-9]*\)\$/\1/p" /proc/keys
}

# ek_masters: (re)create the user masters and the trusted masters. With
# TBLOB (and TBLOB2) set, the trusted masters are loaded from them, else
# made anew and TBLOB/TBLOB2 set to their blobs.
ek_masters() {
	keyctl add user $EK_UMASTER "$EK_UBYTES" @u >/dev/null || return 1
	keyctl add user $EK_UMASTER2 "$EK_UBYTES2" @u >/dev/null || return 1
	ek_tmaster $EK_TMASTER TBLOB || return 1
	ek_tmaster $EK_TMASTER2 TBLOB2
}

# ek_tmaster NAME VAR: trusted key NAME, loaded from $VAR when set, else
# new (and VAR set to its blob).
ek_tmaster() {
	_tn=$1
	eval "_tb=\${$2:-}"
	key_drop trusted "$_tn"
	if [ -n "$_tb" ]; then
		keyctl add trusted "$_tn" "load $_tb" @u >/dev/null
		return
	fi
	keyctl add trusted "$_tn" "new 32" @u >/dev/null || return 1
	_tb=$(keyctl pipe "$(ek_id "$_tn" trusted)") || return 1
	eval "$2=\$_tb"
}

# ek_read_fails NAME: for t_errno. Reading NAME fails (error on stderr).
ek_read_fails() {
	_d=$(ek_id "$1") || { echo "no key $1" >&2; return 0; }
	keyctl pipe "$_d" >/dev/null
	[ $? -ne 0 ] || { echo "read succeeded" >&2; return 0; }
	return 1
}

# ek_reloads NAME BLOB: load NAME from BLOB; its blob must read back
# byte for byte (same IV, material and master: same ciphertext and HMAC).
ek_reloads() {
	ek_add "$1" "load $2" || return 1
	_b=$(ek_blob "$1") || return 1
	[ "$_b" = "$2" ] || { printf 'read back differs:\n%s\n%s\n' "$2" "$_b" >&2; return 1; }
}

# ek_hexlen DATALEN: length of the hex part of a blob for DATALEN bytes.
ek_hexlen() {
	echo $((2 * (16 + 1 + ($1 + 15) / 16 * 16 + 32)))
}

# ek_shape BLOB FORMAT MASTER DATALEN: BLOB reads "FORMAT MASTER DATALEN HEX"
# with HEX of the right length and the zero byte after the IV.
ek_shape() {
	set -- "$1" "$2" "$3" "$4" $1
	[ "$5" = "$2" ] && [ "$6" = "$3" ] && [ "$7" = "$4" ] ||
		{ echo "blob head '$5 $6 $7' != '$2 $3 $4'" >&2; return 1; }
	[ ${#8} -eq "$(ek_hexlen "$4")" ] ||
		{ echo "hex length ${#8} != $(ek_hexlen "$4")" >&2; return 1; }
	case $8 in
	*[!0-9a-f]*) echo "hex part is not lowercase hex" >&2; return 1 ;;
	esac
	[ "$(echo "$8" | cut -c33-34)" = 00 ] || { echo "no 00 after the IV" >&2; return 1; }
}

# ek_fmt_len FORMAT: the key length each format is tested with.
ek_fmt_len() {
	case $1 in
	ecryptfs) echo 64 ;;
	enc32) echo 32 ;;
	*) echo 50 ;;
	esac
}

# ek_name FORMAT KIND [TAG]: a description valid for FORMAT (ecryptfs needs
# 16 hex digits).
ek_name() {
	case $1 in
	ecryptfs)
		if [ "$2" = user ]; then _s=$EK_SIG_U; else _s=$EK_SIG_T; fi
		[ -z "$3" ] || _s=$(echo "$_s" | cut -c1-14)$(printf '%02x' "$3")
		echo "$_s"
		;;
	*) echo "e_$1_$2${3:+_$3}" ;;
	esac
}

# ek_master KIND [2]: the master key text for KIND (user|trusted).
ek_master() {
	if [ "$1" = user ]; then echo "user:$EK_UMASTER${2:-}"; else echo "trusted:$EK_TMASTER${2:-}"; fi
}

# ek_expect_quota FORMAT MASTER DATALEN: the payload size the in-tree type
# charges: payload (the key, or the 740-byte ecryptfs auth token)
# + "FORMAT MASTER DATALEN" with NULs + IV + NUL + ciphertext + HMAC + 1.
ek_expect_quota() {
	if [ "$1" = ecryptfs ]; then _p=740; else _p=$3; fi
	echo $((_p + ${#1} + 1 + ${#2} + 1 + ${#3} + 1 + 16 + 1 + ($3 + 15) / 16 * 16 + 32 + 1))
}

# ek_eq WHAT A B: A equals B; on stderr what differs.
ek_eq() {
	[ "$2" = "$3" ] && return 0
	echo "$1: got '$2', expected '$3'" >&2
	return 1
}

# ek_disk: the run's persistent disk (a raw virtio disk kept across the
# boots of one run), or nothing. Layout: MiB 0-3 dm-crypt under an
# encrypted key, 4-7 dm-crypt under a trusted key, 16- ext2 for ecryptfs.
ek_disk() {
	[ -b /dev/vda ] && echo /dev/vda
}

# ek_dm_create NAME KEYSPEC START: a 4 MiB aes-cbc-plain64 mapping of the
# disk from sector START keyed by KEYSPEC (:32:encrypted:desc ...); prints
# the device node.
ek_dm_create() {
	dmsetup create "$1" --noudevsync --table \
		"0 8192 crypt aes-cbc-plain64 $2 0 $(ek_disk) $3" >&2 || return 1
	dmsetup mknodes "$1" >/dev/null 2>&1
	[ -b "/dev/mapper/$1" ] || { echo "no /dev/mapper/$1" >&2; return 1; }
	echo "/dev/mapper/$1"
}

# ek_dm_remove NAME...: remove mappings, quietly.
ek_dm_remove() {
	for _n in "$@"; do
		dmsetup remove --noudevsync "$_n" >/dev/null 2>&1
	done
	return 0
}

# ek_sum DEV [MIB]: sha256 of the first MIB (default 1) MiB of DEV.
ek_sum() {
	dd if="$1" bs=1048576 count="${2:-1}" 2>/dev/null | sha256sum | cut -d' ' -f1
}
