#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dm-crypt compares key bytes across the two types, both built in
# (lib/interop.sh: phase 1 in-tree, phase 2 ours, phase 3 in-tree). A phase
# that makes a set writes through three volumes: ":32:trusted:dmt" (a
# TPM-sealed key), ":32:encrypted:dme" (under trusted:dmt) and
# ":32:encrypted:dmu" (under user:ukm), the encrypted ones made with data
# given, which a volume keyed with those bytes in hex reads back. The next
# phase loads the three blobs in the other type and reads the same data
# through the same key specs: the trusted key's bytes themselves are the
# same, not only a MAC made with them. In every phase the known-answer
# blob KAT_NEW (data 00..1f) keys a volume that the literal key reads.
# Disk: 1 MiB slots; phase P uses slots 8(P-1) to 8(P-1)+3.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/encrypted.sh"
. "$here/../lib/kat.sh"
. "$here/../lib/evm.sh"
. "$here/../lib/interop.sh"

t_interop_begin
t_require cmd dmsetup
impl=$(t_interop_name "$T_INTEROP_IMPL")
KH=$(t_interop_kh)
T_INTEROP_HEX_U=3c5a7e9b1d2f4a6c8e0b2d4f6a8c0e1b3d5f7a9c1e3b5d7f9a2c4e6b8d0f1a3c
KAT_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
t_dm_remove t_interop_a t_interop_b
t_cleanup "t_dm_remove t_interop_a t_interop_b"
keyctl add user $T_ENC_UMASTER "$T_ENC_UBYTES" @u >/dev/null ||
	t_bail "user master $T_ENC_UMASTER"
base=$((8 * (TKH_PHASE - 1)))

# same_data SPEC1 SPEC2 SLOT: what SPEC1 writes to SLOT, SPEC2 reads.
same_data() {
	_s=$(t_interop_vol t_interop_a "$1" "$3" w) || return 1
	t_interop_vol_is t_interop_b "$2" "$3" "$_s"
}

t_key_add encrypted kat "load $KAT_NEW"
t_check "$impl: kat.py's KAT_NEW keys a volume that its data 00..1f reads" \
	same_data :32:encrypted:kat "$KAT_KEY" $((base + 3))

# --- load the previous phase's set -----------------------------------------
if [ -n "$T_INTEROP_PREV" ]; then
	from=$(t_interop_from)
	pb=$((8 * (T_INTEROP_PREV - 1)))
	read -r st se su <<-EOS
	$(t_interop_get "$T_INTEROP_PREV" dm.sums)
	EOS
	# TYPE NAME SAVED SLOT MASTER SUM: each volume of that phase: its key
	# loads from the blob saved as SAVED, ':32:TYPE:NAME' reads its slot.
	for v in "trusted dmt dmt.tblob 0 - $st" "encrypted dme dme.blob 1 trusted:dmt $se" \
		"encrypted dmu dmu.blob 2 user:$T_ENC_UMASTER $su"; do
		# shellcheck disable=SC2086  # the fields: words
		set -- $v
		under=
		[ "$5" = - ] || under=" (under $5)"
		t_check "$impl loads $from $1 $2 blob$under" \
			t_interop_loads "$1" "$2" "$(t_interop_get "$T_INTEROP_PREV" "$3")"
		t_check "  ... ':32:$1:$2' reads $from volume: the same key bytes" \
			t_interop_vol_is t_interop_a ":32:$1:$2" $((pb + $4)) "${6:-}"
	done
fi

# --- make this phase's set -------------------------------------------------
t_interop_makes || exit 0
t_check "$impl: trusted dmt new 32${KH:+ $KH}" t_key_add trusted dmt "new 32${KH:+ $KH}"
t_interop_save dmt.tblob "$(t_key_blob trusted dmt)"
st=$(t_interop_vol t_interop_a :32:trusted:dmt $base w)
t_check "  ... data written through ':32:trusted:dmt'" [ -n "$st" ]
sums=$st
# NAME MASTER DATA SLOT: the encrypted volumes, each keyed by a key made
# with DATA under MASTER, which DATA itself as the key must read alike.
for v in "dme trusted:dmt $T_INTEROP_HEX 1" "dmu user:$T_ENC_UMASTER $T_INTEROP_HEX_U 2"; do
	# shellcheck disable=SC2086  # the fields: words
	set -- $v
	t_check "$impl: encrypted $1 new default $2 32 <data>" \
		t_key_add encrypted "$1" "new default $2 32 $3"
	t_interop_save "$1.blob" "$(t_key_blob encrypted "$1")"
	t_check "  ... ':32:encrypted:$1' and its data as the key read the same" \
		same_data ":32:encrypted:$1" "$3" $((base + $4))
	sums="$sums $(t_interop_vol t_interop_a ":32:encrypted:$1" $((base + $4)))"
done
t_interop_save dm.sums "$sums"
raw=$(dd if="$TKH_DISK" bs=1048576 skip=$base count=1 2>/dev/null | sha256sum | cut -d' ' -f1)
differs() { [ -n "$1" ] && [ "$1" != "$2" ]; }
t_check "  ... the disk holds no plaintext (slot $base differs from what dmt reads)" \
	differs "$st" "$raw"
