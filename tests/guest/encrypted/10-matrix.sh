#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every format (default, ecryptfs, enc32) x master type (user:, trusted:)
# through new, read, load, update and read again, on our module.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

t_enc_begin
t_check "masters: user keys and TPM-sealed trusted keys" t_enc_masters || {
	t_skip_rest "no master keys"
	exit 0
}

# update_roundtrip NAME FMT KIND BLOB: NAME (made from BLOB) re-homed under
# the other master of its kind reads under that master; a copy loaded from
# that blob and moved back reads exactly BLOB again (same material and IV).
update_roundtrip() {
	_m2=$(t_enc_master "$3" 2)
	keyctl update "$(t_key_id encrypted "$1")" "update $_m2" >/dev/null || return 1
	_b2=$(t_key_blob encrypted "$1") || return 1
	t_enc_shape "$_b2" "$2" "$_m2" "$(t_enc_fmt_len "$2")" || return 1
	t_key_add encrypted "$(t_enc_name "$2" "$3" 9)" "load $_b2" || return 1
	keyctl update "$(t_key_id encrypted "$(t_enc_name "$2" "$3" 9)")" "update $(t_enc_master "$3")" >/dev/null || return 1
	_b3=$(t_key_blob encrypted "$(t_enc_name "$2" "$3" 9)") || return 1
	[ "$_b3" = "$4" ] || { printf 'after the round trip:\n%s\n%s\n' "$4" "$_b3" >&2; return 1; }
}

for fmt in default ecryptfs enc32; do
	for kind in user trusted; do
		len=$(t_enc_fmt_len $fmt)
		m=$(t_enc_master $kind)
		n=$(t_enc_name $fmt $kind)
		n2=$(t_enc_name $fmt $kind 2)
		t_check "$fmt/$kind: new $len bytes" t_key_add encrypted "$n" "new $fmt $m $len"
		b=$(t_key_blob encrypted "$n" 2>/dev/null)
		t_check "$fmt/$kind: read gives '$fmt $m $len <hex>'" t_enc_shape "$b" $fmt "$m" "$len"
		t_check "$fmt/$kind: a second read is identical" [ "$(t_key_blob encrypted "$n" 2>&1)" = "$b" ]
		t_check "$fmt/$kind: load reads back identical" t_enc_reloads "$n2" "$b"
		t_check "$fmt/$kind: update to another $kind master round-trips" \
			update_roundtrip "$n" $fmt $kind "$b"
		case $kind in user) other=$(t_enc_master trusted) ;; *) other=$(t_enc_master user) ;; esac
		t_errno "$fmt/$kind: update to a $other master refused" EINVAL \
			t_key_update_refused encrypted "$n2" "update $other"
		t_check "$fmt/$kind: /proc/keys charges the in-tree payload size" \
			t_eq quota "$(t_enc_quota "$n2")" "$(t_enc_expect_quota "$fmt" "$m" "$len")"
	done
done
