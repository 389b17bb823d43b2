#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Encrypted key blobs between the in-tree type and ours, both built in
# (lib/interop.sh: phase 1 in-tree makes, phase 2 ours loads and makes,
# phase 3 in-tree loads). Masters: user:ukm (known bytes) and trusted:tkm
# (sealed by the phase that makes the set, loaded from its blob by the
# next). Every format (default, ecryptfs, enc32) under both masters with
# random data, and default with data given ("new ... 32 <hex>"); the next
# phase loads each blob in the other type and reads it back byte for byte
# (same IV, key bytes and master: same ciphertext and HMAC). Phase 2 also
# re-homes in-tree keys under user:ukm2 and a trusted:tkm2 of ours (keyctl
# update): the in-tree type loads ours' update. In every phase the known-answer blobs of
# tests/tools/kat.py (fixed IV, given data, an old-style blob without a
# format among them) read back as they must. A blob whose HMAC's last byte
# is inverted is refused with EINVAL by both.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/encrypted.sh"
. "$here/../lib/kat.sh"
. "$here/../lib/evm.sh"
. "$here/../lib/interop.sh"

t_interop_begin
impl=$(t_interop_name "$T_INTEROP_IMPL")
KH=$(t_interop_kh)

# user_masters: ukm and ukm2 (their bytes are the test's), and "short".
user_masters() {
	keyctl add user $T_ENC_UMASTER "$T_ENC_UBYTES" @u >/dev/null &&
		keyctl add user $T_ENC_UMASTER2 "$T_ENC_UBYTES2" @u >/dev/null &&
		keyctl add user short abc @u >/dev/null
}
t_check "user masters ukm, ukm2 (known bytes)" user_masters

# The known answers, in this phase's implementation.
t_check "$impl: kat.py's old-style blob loads, reads back as the new-style answer" \
	sh -c "keyctl add encrypted k_leg 'load $KAT_LEGACY' @u >/dev/null &&
		[ \"\$(keyctl pipe \$(keyctl search @u encrypted k_leg))\" = '$KAT_NEW' ]"
for v in KAT_NEW KAT_50 KAT_E32 KAT_SHORT; do
	eval "b=\$$v"
	t_check "$impl: kat.py's $v (IV and data given) loads and reads back identical" \
		t_enc_reloads "k_$v" "$b"
done

# --- load the previous phase's set -----------------------------------------
if [ -n "$T_INTEROP_PREV" ]; then
	from=$(t_interop_from)
	t_check "$impl loads $from trusted:tkm blob" \
		t_interop_loads trusted tkm "$(t_interop_get "$T_INTEROP_PREV" tkm.tblob)"
	if tb=$(t_interop_get "$T_INTEROP_PREV" tkm2.tblob 2>/dev/null); then
		t_check "$impl loads $from trusted:tkm2 blob (the updated keys' master)" \
			t_interop_loads trusted tkm2 "$tb"
	fi
	made=$(t_interop_get "$T_INTEROP_PREV" encrypted.list) ||
		t_bail "$from set" "no list of phase $T_INTEROP_PREV's encrypted keys"
	for e in $made; do
		b=$(t_interop_get "$T_INTEROP_PREV" "$e.blob") || { t_fail "$impl: $from $e blob" "not saved"; continue; }
		# shellcheck disable=SC2086  # the blob's words
		set -- $b
		t_check "$impl loads $from $1 $2 $3 blob ($e), reads it back identical" \
			t_enc_reloads "$(t_interop_get "$T_INTEROP_PREV" "$e.name")" "$b"
	done
	b=$(t_interop_get "$T_INTEROP_PREV" default_user.blob)
	t_errno "$impl refuses $from default user:ukm blob with its last byte inverted" EINVAL \
		t_interop_refused encrypted e_bad "load $(t_interop_last_flipped "$b")"
	if t_interop_makes; then
		# re-home the loaded default keys under the second master of
		# their kind (update keeps the kind): the next phase loads them
		t_check "$impl: trusted tkm2 new 32${KH:+ $KH} (a second trusted master)" \
			t_key_add trusted tkm2 "new 32${KH:+ $KH}"
		t_interop_save tkm2.tblob "$(t_key_blob trusted tkm2)"
		rehome() {
			_id=$(t_key_id encrypted "$1") && keyctl update "$_id" "update $(t_enc_master "$2" 2)" >/dev/null &&
				t_interop_save "upd_$2.blob" "$(t_key_blob encrypted "$1")" && t_interop_save "upd_$2.name" "$1"
		}
		for k in user trusted; do
			if t_check "$impl: keyctl update of $from default/$k key to $(t_enc_master $k 2)" \
				rehome "$(t_interop_get "$T_INTEROP_PREV" "default_$k.name")" "$k"; then
				upd="${upd:-} upd_$k"
			fi
		done
	fi
fi

# --- make this phase's set -------------------------------------------------
t_interop_makes || exit 0
t_check "$impl: trusted tkm new 32${KH:+ $KH} (the trusted master)" \
	t_key_add trusted tkm "new 32${KH:+ $KH}"
t_interop_save tkm.tblob "$(t_key_blob trusted tkm)"
list=${upd:-}
# mk_enc ID NAME DATA: encrypted key NAME from DATA, its blob saved as ID.
mk_enc() {
	t_key_add encrypted "$2" "$3" && t_interop_save "$1.blob" "$(t_key_blob encrypted "$2")" && t_interop_save "$1.name" "$2"
}
for fmt in default ecryptfs enc32; do
	for kind in user trusted; do
		spec="new $fmt $(t_enc_master $kind) $(t_enc_fmt_len $fmt)"
		t_check "$impl: encrypted $spec" mk_enc "${fmt}_$kind" "$(t_enc_name $fmt $kind)" "$spec" &&
			list="$list ${fmt}_$kind"
	done
done
for kind in user trusted; do
	spec="new default $(t_enc_master $kind) 32 $T_INTEROP_HEX"
	t_check "$impl: encrypted $spec (data given)" mk_enc "given_$kind" "e_given_$kind" "$spec" &&
		list="$list given_$kind"
done
t_interop_save encrypted.list "$list"
b=$(t_interop_get "$TKH_PHASE" default_user.blob)
t_errno "$impl refuses its own default user:ukm blob with its last byte inverted" EINVAL \
	t_interop_refused encrypted e_bad "load $(t_interop_last_flipped "$b")"
