#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Encrypted key blobs between the in-tree type and ours, both built in
# (interop.inc: phase 1 in-tree makes, phase 2 ours loads and makes,
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
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../trusted-tpm1/tk.inc"
. "$here/../trusted-tpm2/tk2.inc"
. "$here/../encrypted/enc.inc"
. "$here/../encrypted/kat.inc"
. "$here/../evm/evm.inc"
. "$here/interop.inc"

io_begin
impl=$(io_name "$IO_IMPL")
KH=$(io_kh)

# user_masters: ukm and ukm2 (their bytes are the test's), and "short".
user_masters() {
	keyctl add user $EK_UMASTER "$EK_UBYTES" @u >/dev/null &&
		keyctl add user $EK_UMASTER2 "$EK_UBYTES2" @u >/dev/null &&
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
		ek_reloads "k_$v" "$b"
done

# --- load the previous phase's set -----------------------------------------
if [ -n "$IO_PREV" ]; then
	from=$(io_from)
	t_check "$impl loads $from trusted:tkm blob" \
		io_loads trusted tkm "$(io_get "$IO_PREV" tkm.tblob)"
	if tb=$(io_get "$IO_PREV" tkm2.tblob 2>/dev/null); then
		t_check "$impl loads $from trusted:tkm2 blob (the updated keys' master)" \
			io_loads trusted tkm2 "$tb"
	fi
	made=$(io_get "$IO_PREV" encrypted.list) ||
		t_bail "$from set" "no list of phase $IO_PREV's encrypted keys"
	for e in $made; do
		b=$(io_get "$IO_PREV" "$e.blob") || { t_fail "$impl: $from $e blob" "not saved"; continue; }
		# shellcheck disable=SC2086  # the blob's words
		set -- $b
		t_check "$impl loads $from $1 $2 $3 blob ($e), reads it back identical" \
			ek_reloads "$(io_get "$IO_PREV" "$e.name")" "$b"
	done
	b=$(io_get "$IO_PREV" default_user.blob)
	t_errno "$impl refuses $from default user:ukm blob with its last byte inverted" EINVAL \
		io_refused encrypted e_bad "load $(io_last_flipped "$b")"
	if io_makes; then
		# re-home the loaded default keys under the second master of
		# their kind (update keeps the kind): the next phase loads them
		t_check "$impl: trusted tkm2 new 32${KH:+ $KH} (a second trusted master)" \
			key_add trusted tkm2 "new 32${KH:+ $KH}"
		io_save tkm2.tblob "$(key_blob trusted tkm2)"
		rehome() {
			_id=$(ek_id "$1") && keyctl update "$_id" "update $(ek_master "$2" 2)" >/dev/null &&
				io_save "upd_$2.blob" "$(ek_blob "$1")" && io_save "upd_$2.name" "$1"
		}
		for k in user trusted; do
			if t_check "$impl: keyctl update of $from default/$k key to $(ek_master $k 2)" \
				rehome "$(io_get "$IO_PREV" "default_$k.name")" "$k"; then
				upd="${upd:-} upd_$k"
			fi
		done
	fi
fi

# --- make this phase's set -------------------------------------------------
io_makes || exit 0
t_check "$impl: trusted tkm new 32${KH:+ $KH} (the trusted master)" \
	key_add trusted tkm "new 32${KH:+ $KH}"
io_save tkm.tblob "$(key_blob trusted tkm)"
list=${upd:-}
# mk_enc ID NAME DATA: encrypted key NAME from DATA, its blob saved as ID.
mk_enc() {
	ek_add "$2" "$3" && io_save "$1.blob" "$(ek_blob "$2")" && io_save "$1.name" "$2"
}
for fmt in default ecryptfs enc32; do
	for kind in user trusted; do
		spec="new $fmt $(ek_master $kind) $(ek_fmt_len $fmt)"
		t_check "$impl: encrypted $spec" mk_enc "${fmt}_$kind" "$(ek_name $fmt $kind)" "$spec" &&
			list="$list ${fmt}_$kind"
	done
done
for kind in user trusted; do
	spec="new default $(ek_master $kind) 32 $IO_HEX"
	t_check "$impl: encrypted $spec (data given)" mk_enc "given_$kind" "e_given_$kind" "$spec" &&
		list="$list given_$kind"
done
io_save encrypted.list "$list"
b=$(io_get "$TK_PHASE" default_user.blob)
t_errno "$impl refuses its own default user:ukm blob with its last byte inverted" EINVAL \
	io_refused encrypted e_bad "load $(io_last_flipped "$b")"
