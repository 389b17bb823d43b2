#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every format (default, ecryptfs, enc32) x master type (user:, trusted:)
# through new, read, load, update and read again, on our module.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

t_require masters	# the test kernel (with ref) or an EVM kernel
t_require phase 1	# nothing after the reboot that phase 1 did not check
t_require tpm 1.2
t_mods ref test
t_check "masters: user keys and TPM-sealed trusted keys" ek_masters || {
	t_skip_rest "no master keys"
	exit 0
}

# update_roundtrip NAME FMT KIND BLOB: NAME (made from BLOB) re-homed under
# the other master of its kind reads under that master; a copy loaded from
# that blob and moved back reads exactly BLOB again (same material and IV).
update_roundtrip() {
	_m2=$(ek_master "$3" 2)
	keyctl update "$(ek_id "$1")" "update $_m2" >/dev/null || return 1
	_b2=$(ek_blob "$1") || return 1
	ek_shape "$_b2" "$2" "$_m2" "$(ek_fmt_len "$2")" || return 1
	ek_add "$(ek_name "$2" "$3" 9)" "load $_b2" || return 1
	keyctl update "$(ek_id "$(ek_name "$2" "$3" 9)")" "update $(ek_master "$3")" >/dev/null || return 1
	_b3=$(ek_blob "$(ek_name "$2" "$3" 9)") || return 1
	[ "$_b3" = "$4" ] || { printf 'after the round trip:\n%s\n%s\n' "$4" "$_b3" >&2; return 1; }
}

for fmt in default ecryptfs enc32; do
	for kind in user trusted; do
		len=$(ek_fmt_len $fmt)
		m=$(ek_master $kind)
		n=$(ek_name $fmt $kind)
		n2=$(ek_name $fmt $kind 2)
		t_check "$fmt/$kind: new $len bytes" ek_add "$n" "new $fmt $m $len"
		b=$(ek_blob "$n" 2>/dev/null)
		t_check "$fmt/$kind: read gives '$fmt $m $len <hex>'" ek_shape "$b" $fmt "$m" "$len"
		t_check "$fmt/$kind: a second read is identical" [ "$(ek_blob "$n" 2>&1)" = "$b" ]
		t_check "$fmt/$kind: load reads back identical" ek_reloads "$n2" "$b"
		t_check "$fmt/$kind: update to another $kind master round-trips" \
			update_roundtrip "$n" $fmt $kind "$b"
		case $kind in user) other=$(ek_master trusted) ;; *) other=$(ek_master user) ;; esac
		t_errno "$fmt/$kind: update to a $other master refused" EINVAL \
			ek_update_refused "$n2" "update $other"
		t_check "$fmt/$kind: /proc/keys charges the in-tree payload size" \
			ek_eq quota "$(ek_quota "$n2")" "$(ek_expect_quota $fmt "$m" $len)"
	done
done
