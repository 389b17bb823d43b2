#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dm-crypt compares key bytes across the two types, both built in
# (interop.inc: phase 1 in-tree, phase 2 ours, phase 3 in-tree). A phase
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
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../trusted-tpm1/tk.inc"
. "$here/../trusted-tpm2/tk2.inc"
. "$here/../encrypted/enc.inc"
. "$here/../encrypted/kat.inc"
. "$here/../evm/evm.inc"
. "$here/interop.inc"

io_begin
t_require cmd dmsetup
impl=$(io_name "$IO_IMPL")
KH=$(io_kh)
IO_HEX_U=3c5a7e9b1d2f4a6c8e0b2d4f6a8c0e1b3d5f7a9c1e3b5d7f9a2c4e6b8d0f1a3c
KAT_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
evm_dm_remove io_a io_b
t_cleanup "evm_dm_remove io_a io_b"
keyctl add user $EK_UMASTER "$EK_UBYTES" @u >/dev/null ||
	t_bail "user master $EK_UMASTER"
base=$((8 * (TK_PHASE - 1)))

# same_data SPEC1 SPEC2 SLOT: what SPEC1 writes to SLOT, SPEC2 reads.
same_data() {
	_s=$(io_vol io_a "$1" "$3" w) || return 1
	io_vol_is io_b "$2" "$3" "$_s"
}

ek_add kat "load $KAT_NEW"
t_check "$impl: kat.py's KAT_NEW keys a volume that its data 00..1f reads" \
	same_data :32:encrypted:kat "$KAT_KEY" $((base + 3))

# --- load the previous phase's set -----------------------------------------
if [ -n "$IO_PREV" ]; then
	from=$(io_from)
	pb=$((8 * (IO_PREV - 1)))
	read -r st se su <<-EOS
	$(io_get "$IO_PREV" dm.sums)
	EOS
	t_check "$impl loads $from trusted dmt blob" \
		io_loads trusted dmt "$(io_get "$IO_PREV" dmt.tblob)"
	t_check "  ... ':32:trusted:dmt' reads $from volume: the same key bytes" \
		io_vol_is io_a :32:trusted:dmt $pb "$st"
	t_check "$impl loads $from encrypted dme (under trusted:dmt)" \
		io_loads encrypted dme "$(io_get "$IO_PREV" dme.blob)"
	t_check "  ... ':32:encrypted:dme' reads $from volume" \
		io_vol_is io_a :32:encrypted:dme $((pb + 1)) "$se"
	t_check "$impl loads $from encrypted dmu (under user:$EK_UMASTER)" \
		io_loads encrypted dmu "$(io_get "$IO_PREV" dmu.blob)"
	t_check "  ... ':32:encrypted:dmu' reads $from volume" \
		io_vol_is io_a :32:encrypted:dmu $((pb + 2)) "$su"
fi

# --- make this phase's set -------------------------------------------------
io_makes || exit 0
t_check "$impl: trusted dmt new 32${KH:+ $KH}" key_add trusted dmt "new 32${KH:+ $KH}"
io_save dmt.tblob "$(key_blob trusted dmt)"
st=$(io_vol io_a :32:trusted:dmt $base w)
t_check "  ... data written through ':32:trusted:dmt'" [ -n "$st" ]
t_check "$impl: encrypted dme new default trusted:dmt 32 <data>" \
	key_add encrypted dme "new default trusted:dmt 32 $IO_HEX"
io_save dme.blob "$(key_blob encrypted dme)"
t_check "  ... ':32:encrypted:dme' and its data as the key read the same" \
	same_data :32:encrypted:dme "$IO_HEX" $((base + 1))
se=$(io_vol io_a :32:encrypted:dme $((base + 1)))
t_check "$impl: encrypted dmu new default user:$EK_UMASTER 32 <data>" \
	key_add encrypted dmu "new default user:$EK_UMASTER 32 $IO_HEX_U"
io_save dmu.blob "$(key_blob encrypted dmu)"
t_check "  ... ':32:encrypted:dmu' and its data as the key read the same" \
	same_data :32:encrypted:dmu "$IO_HEX_U" $((base + 2))
su=$(io_vol io_a :32:encrypted:dmu $((base + 2)))
io_save dm.sums "$st $se $su"
raw=$(dd if="$TK_DISK" bs=1048576 skip=$base count=1 2>/dev/null | sha256sum | cut -d' ' -f1)
differs() { [ -n "$1" ] && [ "$1" != "$2" ]; }
t_check "  ... the disk holds no plaintext (slot $base differs from what dmt reads)" \
	differs "$st" "$raw"
