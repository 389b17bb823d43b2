# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers shared by the encrypted key tests; sourced after lib.sh, never run.
# Keys live in @u (linked into the session keyring so that the master key
# lookup, which searches the caller's keyrings, finds them). Every helper
# that adds a key NAME first unlinks any older key NAME of that type
# (add_key on an existing description would update it).

T_ENC_UMASTER=ukm			# user master key
T_ENC_UMASTER2=ukm2		# a second user master (update tests)
T_ENC_TMASTER=tkm			# trusted master key
T_ENC_TMASTER2=tkm2
T_ENC_UBYTES=0123456789abcdef0123456789abcdef	# its 32 bytes
T_ENC_UBYTES2=fedcba9876543210fedcba9876543210
T_ENC_SIG_U=0011223344556677	# ecryptfs key descriptions (16 hex digits)
T_ENC_SIG_T=8899aabbccddeeff

# t_enc_begin: the start of an encrypted key script (ours, or the in-tree
# module with TKH_ENC_IMPL=ref): the whole script is skipped (it exits)
# without encrypted keys that take trusted masters, after phase 1, without
# a TPM 1.2 or, for ref, without the in-tree module; loads the modules (or
# reports one failure and exits).
t_enc_begin() {
	t_require masters	# the test kernel (with ref) or an EVM kernel
	t_require phase 1	# nothing after the reboot that phase 1 did not check
	t_require tpm 1.2
	t_mods ref test
	[ "${TKH_ENC_IMPL:-ours}" = ref ] || return 0
	[ -n "$TKH_REF" ] ||
		t_skip_all "no in-tree encrypted-keys.ko on this kernel (its key types are built in)"
	t_mods_load ref ref || { t_skip_rest "in-tree module did not load"; exit 0; }
}

# t_enc_loaded_impl: which encrypted-keys.ko is loaded (ours|ref|none); ours
# is the out-of-tree one ("(O)" taint in /proc/modules).
t_enc_loaded_impl() {
	_l=$(grep '^encrypted_keys ' /proc/modules) || { echo none; return; }
	case $_l in
	*'(O'*) echo ours ;;
	*) echo ref ;;
	esac
}

# t_enc_quota NAME: the payload size /proc/keys shows for key NAME.
t_enc_quota() {
	_d=$(t_key_id encrypted "$1") || return 1
	_h=$(printf '%08x' "$_d")
	sed -n "s/^$_h .* encrypted $1: \([0-9]*\)\$/\1/p" /proc/keys
}

# t_enc_masters: (re)create the user masters and the trusted masters. With
# TBLOB (and TBLOB2) set, the trusted masters are loaded from them, else
# made anew and TBLOB/TBLOB2 set to their blobs.
t_enc_masters() {
	keyctl add user $T_ENC_UMASTER "$T_ENC_UBYTES" @u >/dev/null || return 1
	keyctl add user $T_ENC_UMASTER2 "$T_ENC_UBYTES2" @u >/dev/null || return 1
	t_enc_tmaster $T_ENC_TMASTER TBLOB || return 1
	t_enc_tmaster $T_ENC_TMASTER2 TBLOB2
}

# t_enc_tmaster NAME VAR: trusted key NAME, loaded from $VAR when set, else
# new (and VAR set to its blob).
t_enc_tmaster() {
	_tn=$1
	eval "_tb=\${$2:-}"
	t_key_drop trusted "$_tn"
	if [ -n "$_tb" ]; then
		keyctl add trusted "$_tn" "load $_tb" @u >/dev/null
		return
	fi
	keyctl add trusted "$_tn" "new 32" @u >/dev/null || return 1
	_tb=$(keyctl pipe "$(t_key_id trusted "$_tn")") || return 1
	eval "$2=\$_tb"
}

# t_enc_read_fails NAME: for t_errno. Reading NAME fails (error on stderr).
t_enc_read_fails() {
	_d=$(t_key_id encrypted "$1") || { echo "no key $1" >&2; return 0; }
	if keyctl pipe "$_d" >/dev/null; then
		echo "read succeeded" >&2
		return 0
	fi
	return 1
}

# t_enc_reloads NAME BLOB: load NAME from BLOB; its blob must read back
# byte for byte (same IV, material and master: same ciphertext and HMAC).
t_enc_reloads() {
	t_key_add encrypted "$1" "load $2" || return 1
	_b=$(t_key_blob encrypted "$1") || return 1
	[ "$_b" = "$2" ] || { printf 'read back differs:\n%s\n%s\n' "$2" "$_b" >&2; return 1; }
}

# t_enc_hexlen DATALEN: length of the hex part of a blob for DATALEN bytes.
t_enc_hexlen() {
	echo $((2 * (16 + 1 + ($1 + 15) / 16 * 16 + 32)))
}

# t_enc_shape BLOB FORMAT MASTER DATALEN: BLOB reads "FORMAT MASTER DATALEN HEX"
# with HEX of the right length and the zero byte after the IV.
t_enc_shape() {
	# shellcheck disable=SC2086  # the blob's words, split on purpose
	set -- "$1" "$2" "$3" "$4" $1
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	[ "$5" = "$2" ] && [ "$6" = "$3" ] && [ "$7" = "$4" ] ||
		{ echo "blob head '$5 $6 $7' != '$2 $3 $4'" >&2; return 1; }
	[ ${#8} -eq "$(t_enc_hexlen "$4")" ] ||
		{ echo "hex length ${#8} != $(t_enc_hexlen "$4")" >&2; return 1; }
	case $8 in
	*[!0-9a-f]*) echo "hex part is not lowercase hex" >&2; return 1 ;;
	esac
	[ "$(echo "$8" | cut -c33-34)" = 00 ] || { echo "no 00 after the IV" >&2; return 1; }
}

# t_enc_fmt_len FORMAT: the key length each format is tested with.
t_enc_fmt_len() {
	case $1 in
	ecryptfs) echo 64 ;;
	enc32) echo 32 ;;
	*) echo 50 ;;
	esac
}

# t_enc_name FORMAT KIND [TAG]: a description valid for FORMAT (ecryptfs needs
# 16 hex digits).
t_enc_name() {
	case $1 in
	ecryptfs)
		if [ "$2" = user ]; then _s=$T_ENC_SIG_U; else _s=$T_ENC_SIG_T; fi
		[ -z "$3" ] || _s=$(echo "$_s" | cut -c1-14)$(printf '%02x' "$3")
		echo "$_s"
		;;
	*) echo "e_$1_$2${3:+_$3}" ;;
	esac
}

# t_enc_master KIND [2]: the master key text for KIND (user|trusted).
t_enc_master() {
	if [ "$1" = user ]; then echo "user:$T_ENC_UMASTER${2:-}"; else echo "trusted:$T_ENC_TMASTER${2:-}"; fi
}

# t_enc_expect_quota FORMAT MASTER DATALEN: the payload size the in-tree type
# charges: payload (the key, or the 740-byte ecryptfs auth token)
# + "FORMAT MASTER DATALEN" with NULs + IV + NUL + ciphertext + HMAC + 1.
t_enc_expect_quota() {
	if [ "$1" = ecryptfs ]; then _p=740; else _p=$3; fi
	echo $((_p + ${#1} + 1 + ${#2} + 1 + ${#3} + 1 + 16 + 1 + ($3 + 15) / 16 * 16 + 32 + 1))
}

# t_enc_disk: the run's persistent disk (a raw virtio disk kept across the
# boots of one run), or nothing. Layout: MiB 0-3 dm-crypt under an
# encrypted key, 4-7 dm-crypt under a trusted key, 16- ext2 for ecryptfs.
t_enc_disk() {
	[ -b /dev/vda ] && echo /dev/vda
}
