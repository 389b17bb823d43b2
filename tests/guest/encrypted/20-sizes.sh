#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Key length bounds (20..4096), the fixed lengths of ecryptfs (64) and
# enc32 (32), the key length text kept verbatim, and user-provided
# decrypted data (user_decrypted_data, on by default with
# CONFIG_USER_DECRYPTED_DATA=y as on the test kernel).
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

t_enc_begin
t_enc_masters >/dev/null 2>&1
M=$(t_enc_master user)
D32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
D64=$D32$D32

for len in 20 21 4096; do
	t_check "default: $len bytes accepted" t_key_add encrypted s_$len "new $M $len"
	t_check "default: $len bytes: blob has $(t_enc_hexlen $len) hex digits" \
		t_enc_shape "$(t_key_blob encrypted s_$len 2>&1)" default "$M" $len
done
for len in 0 19 4097 65536 -32 abc 3x2; do
	t_errno "default: length '$len' refused" EINVAL t_key_refused encrypted s_bad "new $M $len"
done
# head_is NAME DATA HEAD: add NAME with DATA; its blob starts with "HEAD ".
head_is() {
	t_key_add encrypted "$1" "$2" || return 1
	case $(t_key_blob encrypted "$1") in
	"$3 "*) return 0 ;;
	*) echo "blob does not start with '$3 '" >&2; return 1 ;;
	esac
}

t_check "length '+32' accepted and kept verbatim (as kstrtol reads it)" \
	head_is s_plus "new $M +32" "default $M +32"
t_check "length '032' loads back identical" t_key_add encrypted s_032 "new $M 032"
t_check "length '032' blob reloads" t_enc_reloads s_032b "$(t_key_blob encrypted s_032 2>&1)"

t_errno "ecryptfs: 32 bytes refused" EINVAL t_key_refused encrypted "$T_ENC_SIG_U" "new ecryptfs $M 32"
t_errno "ecryptfs: 65 bytes refused" EINVAL t_key_refused encrypted "$T_ENC_SIG_U" "new ecryptfs $M 65"
t_errno "enc32: 33 bytes refused" EINVAL t_key_refused encrypted s_e32 "new enc32 $M 33"
t_errno "enc32: 64 bytes refused" EINVAL t_key_refused encrypted s_e32 "new enc32 $M 64"

t_check "user_decrypted_data parameter is on" \
	grep -qx Y /sys/module/encrypted_keys/parameters/user_decrypted_data
t_check "user data: 32 bytes accepted" t_key_add encrypted s_u32 "new $M 32 $D32"
t_check "user data: enc32 accepted" t_key_add encrypted s_u32e "new enc32 $M 32 $D32"
t_check "user data: ecryptfs 64 bytes accepted" t_key_add encrypted "$T_ENC_SIG_U" "new ecryptfs $M 64 $D64"
t_errno "user data: one hex digit short refused" EINVAL \
	t_key_refused encrypted s_u "new $M 32 $(echo $D32 | cut -c2-)"
t_errno "user data: one byte short refused" EINVAL \
	t_key_refused encrypted s_u "new $M 32 $(echo $D32 | cut -c3-)"
t_errno "user data: one byte too many refused" EINVAL t_key_refused encrypted s_u "new $M 32 ${D32}00"
t_errno "user data: non-hex refused" EINVAL \
	t_key_refused encrypted s_u "new $M 32 $(echo $D32 | sed 's/^00/0g/')"
t_errno "user data: empty (trailing blank) refused" EINVAL t_key_refused encrypted s_u "new $M 32 "
D4096=
i=0
while [ $i -lt 128 ]; do D4096=$D4096$D32; i=$((i + 1)); done
t_check "user data: 4096 bytes (8192 hex digits) accepted" t_key_add encrypted s_u4096 "new $M 4096 $D4096"
t_check "user data: 4096 bytes: the blob reloads" t_enc_reloads s_u4096b "$(t_key_blob encrypted s_u4096 2>&1)"

# Ours parses commands shorter than 128 bytes in a copy on the stack and
# longer ones in a heap copy: both sides of the line, "new" and "update".
pad=$(printf '%0114d' 0)	# "new user:m$pad 32": 127 bytes
for n in 127 128; do
	d=user:m$pad$([ $n = 128 ] && echo x)
	keyctl add user "${d#user:}" "$T_ENC_UBYTES" @u >/dev/null	# read needs it
	t_check "a $n-byte new command: the blob names its master" \
		head_is s_cmd$n "new $d 32" "default $d 32"
	t_check "a $n-byte update command re-homes the key" \
		keyctl update "$(t_key_id encrypted s_u32)" "update $d"
done
