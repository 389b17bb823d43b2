#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interoperability with the in-tree encrypted-keys.ko, both ways, for every
# format and both master types (trusted: sealed on the TPM 1.2): a blob made
# by one implementation loads in the other and reads back byte for byte
# (same IV, material and master give the same ciphertext and HMAC), with
# the same /proc/keys size. Both read the known-answer blobs of lib/kat.sh the same,
# an old-style blob without a format included.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

. "$here/../lib/kat.sh"	# KAT_*: written by tests/tools/kat.py

t_require kernel test
t_require phase 1	# nothing after the reboot that phase 1 did not check
t_require ref
t_require tpm 1.2
t_mods ref test

# kat IMPL: the known answers on IMPL.
kat() {
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	t_mods_load ref "$1" && t_enc_masters && keyctl add user short abc @u >/dev/null ||
		{ t_fail "$1: module and masters" "could not set up"; return; }
	t_check "$1: old-style blob loads, reads as the new-style known answer" \
		sh -c "keyctl add encrypted k_leg 'load $KAT_LEGACY' @u >/dev/null &&
			[ \"\$(keyctl pipe \$(keyctl search @u encrypted k_leg))\" = '$KAT_NEW' ]"
	for v in KAT_NEW KAT_50 KAT_E32 KAT_SHORT; do
		eval "b=\$$v"
		t_check "$1: known answer $v reads back identical" t_enc_reloads k_$v "$b"
	done
}

# make IMPL: one key of every format x kind on IMPL; B_IMPL_FMT_KIND = blob.
make() {
	for fmt in default ecryptfs enc32; do
		for kind in user trusted; do
			n=$(t_enc_name $fmt $kind)
			t_key_add encrypted "$n" "new $fmt $(t_enc_master $kind) $(t_enc_fmt_len $fmt)" &&
				b=$(t_key_blob encrypted "$n") || b=
			eval "B_$1_${fmt}_$kind=\$b Q_$1_${fmt}_$kind=\$(t_enc_quota $n)"
		done
	done
}

# take FROM TO: TO loads every blob FROM made (after a module switch).
take() {
	for fmt in default ecryptfs enc32; do
		for kind in user trusted; do
			eval "b=\$B_$1_${fmt}_$kind q=\$Q_$1_${fmt}_$kind"
			if [ -z "$b" ]; then
				t_fail "$1 -> $2: $fmt/$kind" "$1 made no blob"
				continue
			fi
			t_check "$1 -> $2: $fmt/$kind blob loads and reads back identical" \
				t_enc_reloads "$(t_enc_name $fmt $kind 3)" "$b"
			[ "$3" = quota ] || continue
			# shellcheck disable=SC2154  # q: set by the eval above
			t_check "$1 -> $2: $fmt/$kind same /proc/keys size" \
				t_eq size "$(t_enc_quota "$(t_enc_name $fmt $kind 3)")" "$q"
		done
	done
}

kat ours
kat ref

t_mods_load ref ours && t_enc_masters
make ours
t_mods_load ref ref && t_enc_masters
take ours ref quota
make ref
t_mods_load ref ours && t_enc_masters
take ref ours
# Re-home ref's keys under the second masters in ours; ref must take those.
for fmt in default ecryptfs enc32; do
	for kind in user trusted; do
		n=$(t_enc_name $fmt $kind 3)
		keyctl update "$(t_key_id encrypted "$n")" "update $(t_enc_master $kind 2)" >/dev/null &&
			b=$(t_key_blob encrypted "$n") || b=
		eval "B_upd_${fmt}_$kind=\$b"
	done
done
t_mods_load ref ref && t_enc_masters
take upd ref
