#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A substituted salt key (issue 8): the relay swaps the public area that
# TPM2_ReadPublic returns for the parent 0x81000001 for another ECC P-256
# storage key's (a primary of this test, same template but other
# attributes (noDA): a valid key whose private part an interposer could hold).
# With srk_name= pinning the SRK's Name: a load and a new are refused
# (EKEYREJECTED) and the control without tampering works; with trust on
# first use (srk_name= empty): after a first clean use the parent is kept
# (issue 22): no ReadPublic is sent to swap; after a failed operation it
# is read again, and the substitution is refused then. Ours only (the
# in-tree module reads no public area).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/relay.sh"

t_require tpm 2.0
t_require ours	# the in-tree module has no sessions
t_relay_setup

# outpub HANDLE: the public area (TPMT_PUBLIC, hex) ReadPublic returns.
outpub() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000173 "$1")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "ReadPublic $1: $_r" >&2; return 1; }
	_l=$((0x$(echo "$_r" | cut -c21-24)))
	echo "$_r" | cut -c25-$((24 + 2 * _l))
}

# The test machines' SRK is one of these two (tpm2-tools' default
# attributes, or the TCG template's): the other key is the other one.
srk=$(outpub 81000001) other=
for at in 00030472 00030072; do
	h=$(t_tpm2_primary $at) || continue
	o=$(outpub "$h")
	t_tpm2_flush "$h" 2>/dev/null
	[ "$o" != "$srk" ] && other=$o && break
done
if [ -z "$other" ] || [ ${#other} != ${#srk} ] || [ "$other" = "$srk" ]; then
	t_skip_rest "no other ECC key of the SRK's size (${#srk} / ${#other} digits)"
	exit 0
fi
SN=$(t_tpm2_name 81000001)

# forge RULES FIRED CMD...: CMD with the relay's tamper RULES armed; fails
# (2) unless they fired FIRED times, else with CMD's status (its output on
# stderr, for t_errno).
forge() {
	_r=$1 _w=$2
	shift 2
	_a=$(t_relay_ctl "tamper $_r")
	[ "$_a" = "armed $(($(echo "$_r" | tr -cd , | wc -c) + 1))" ] ||
		{ echo "the relay did not arm: $_a" >&2; return 2; }
	_o=$("$@" 2>&1)
	_rc=$?
	_f=$(t_relay_ctl disarm)
	[ "$_f" = "fired $_w" ] || { echo "the rules fired: $_f, not $_w" >&2; return 2; }
	[ -z "$_o" ] || echo "$_o" >&2
	return $_rc
}
# swapped NAME DATA: the next ReadPublic response carries the other key.
swapped() { forge "173:byte=12=$other" 1 t_key_refused trusted "$@"; }
# kept NAME DATA: the add works with that swap armed, which never fires.
kept() { forge "173:byte=12=$other" 0 t_key_add trusted "$@"; }
# reread ORD NAME DATA: the operation's first command (ORD: Load 157,
# GetRandom 17b) fails once (0x902), so the kept parent is read again:
# that ReadPublic carries the other key.
reread() {
	_ord=$1
	shift
	forge "$_ord:rc=902,173:byte=12=$other" 2 t_key_refused trusted "$@"
}
t_check "a clean use: the parent is checked and kept" t_key_add trusted s_k "load $A $KH"
t_tpm2_pin "$SN"
t_errno "srk_name= pinned: load, the parent read again and swapped: EKEYREJECTED" \
	EKEYREJECTED reread 157 s_l "load $A $KH"
t_errno "srk_name= pinned: new with it swapped (nothing kept): EKEYREJECTED" \
	EKEYREJECTED swapped s_n "new 32 $KH"
t_check "srk_name= pinned: the same load without the swap works" t_key_add trusted s_c "load $A $KH"
t_tpm2_pin ""
t_check "trust on first use: a clean first use" t_key_add trusted s_t "load $A $KH"
t_check "trust on first use: then the parent is kept, no ReadPublic to swap" \
	kept s_t2 "load $A $KH"
t_errno "trust on first use: a failure has it read again, swapped: EKEYREJECTED" \
	EKEYREJECTED reread 157 s_t3 "load $A $KH"
t_errno "trust on first use: a new after that (nothing kept), swapped: EKEYREJECTED" \
	EKEYREJECTED swapped s_t4 "new 32 $KH"
t_check "the log names the parent and the reason" \
	eval 'dmesg | grep -q "parent 0x81000001 refused: its public area is not the one seen first"'
t_drop s_k s_c s_t s_t2
t_relay_flush_transients "80 02 03" >/dev/null
t_tpm2_da_reset
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
