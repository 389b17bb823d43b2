#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interoperability with the in-tree encrypted-keys.ko, both ways, for every
# format and both master types (trusted: sealed on the TPM 1.2): a blob made
# by one implementation loads in the other and reads back byte for byte
# (same IV, material and master give the same ciphertext and HMAC), with
# the same /proc/keys size. Both read known-answer blobs (kat.py) the same,
# an old-style blob without a format included.
here=${0%/*}
. "$here/../lib.sh"
. "$here/enc.inc"

# From kat.py (user master "ukm" = $EK_UBYTES, "short" = abc; IV a0..af;
# data 00..1f, 100..149 and 20 zero bytes).
KAT_LEGACY='user:ukm 32 a0a1a2a3a4a5a6a7a8a9aaabacadaeaf0086822fa73c4993a9f386f3ce521459620cd4859854c6c8d71289ee1eb71bb813c76e6a22b10537bd6eff05ff57362dee105459752dfae34ff95434b69bfe2be2'
KAT_NEW='default user:ukm 32 a0a1a2a3a4a5a6a7a8a9aaabacadaeaf0086822fa73c4993a9f386f3ce521459620cd4859854c6c8d71289ee1eb71bb813b3096fc4a4419868f702800aab8dae4961adc08fc992c663591f6704288c6d35'
KAT_50='default user:ukm 50 a0a1a2a3a4a5a6a7a8a9aaabacadaeaf00ddab665636e0ee79acc3dc5c776af68fcfa607b236b3ae141af6f8ded5ad590389b86e9cbf34112ff928dfca6dcf9ff167b7b130330ddb1a9a3f2b1f1f54a353879cde6650a44b5178bb61cfc34e65a8a213bb5bf198a16aa925b2aa461f13aa'
KAT_E32='enc32 user:ukm 32 a0a1a2a3a4a5a6a7a8a9aaabacadaeaf0086822fa73c4993a9f386f3ce521459620cd4859854c6c8d71289ee1eb71bb8130d5ed4c121946798c6d18278e6ac3d723c3ae084cd55043f273ac7164a609a7d'
KAT_SHORT='default user:short 20 a0a1a2a3a4a5a6a7a8a9aaabacadaeaf0081e36af701e3d57f4756566f65cceeb182d70b21a995951972a5ab034184190faebd24500391f8f0a40b20bc38dbfbd520dcb58eb5d103edd453a6f109b47de9'

N=34
ek_begin $N || exit 0

# kat IMPL: the known answers on IMPL.
kat() {
	ek_mods "$1" && ek_masters && keyctl add user short abc @u >/dev/null ||
		{ t_fail "$1: module and masters" "could not set up"; return; }
	t_check "$1: old-style blob loads, reads as the new-style known answer" \
		sh -c "keyctl add encrypted k_leg 'load $KAT_LEGACY' @u >/dev/null &&
			[ \"\$(keyctl pipe \$(keyctl search @u encrypted k_leg))\" = '$KAT_NEW' ]"
	for v in KAT_NEW KAT_50 KAT_E32 KAT_SHORT; do
		eval "b=\$$v"
		t_check "$1: known answer $v reads back identical" ek_reloads k_$v "$b"
	done
}

# make IMPL: one key of every format x kind on IMPL; B_IMPL_FMT_KIND = blob.
make() {
	for fmt in default ecryptfs enc32; do
		for kind in user trusted; do
			n=$(ek_name $fmt $kind)
			ek_add "$n" "new $fmt $(ek_master $kind) $(ek_fmt_len $fmt)" &&
				b=$(ek_blob "$n") || b=
			eval "B_$1_${fmt}_$kind=\$b Q_$1_${fmt}_$kind=\$(ek_quota $n)"
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
				ek_reloads "$(ek_name $fmt $kind 3)" "$b"
			[ "$3" = quota ] || continue
			t_check "$1 -> $2: $fmt/$kind same /proc/keys size" \
				ek_eq size "$(ek_quota "$(ek_name $fmt $kind 3)")" "$q"
		done
	done
}

kat ours
kat ref

ek_mods ours && ek_masters
make ours
ek_mods ref && ek_masters
take ours ref quota
make ref
ek_mods ours && ek_masters
take ref ours
# Re-home ref's keys under the second masters in ours; ref must take those.
for fmt in default ecryptfs enc32; do
	for kind in user trusted; do
		n=$(ek_name $fmt $kind 3)
		keyctl update "$(ek_id "$n")" "update $(ek_master $kind 2)" >/dev/null &&
			b=$(ek_blob "$n") || b=
		eval "B_upd_${fmt}_$kind=\$b"
	done
done
ek_mods ref && ek_masters
take upd ref
