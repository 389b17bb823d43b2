#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# keyctl print / keyctl pipe on a TPM 1.2 (phase 1): the output is the
# blob that was loaded, as canonical hex (lowercase, even length), a whole
# TPM_STORED_DATA; blobs given in upper or mixed case load and print in
# lowercase; after update it is the new blob.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any

# canonical HEX: only lowercase hex digits, an even number of them.
canonical() {
	[ -n "$1" ] && [ $((${#1} % 2)) -eq 0 ] &&
		[ -z "$(echo "$1" | tr -d '0-9a-f')" ] ||
		{ echo "not canonical hex: $1" >&2; return 1; }
}

# stored_data HEX: a TPM_STORED_DATA whose size fields add up to its length.
stored_data() {
	_si=$(tk_u32_at "$1" 4)
	_ed=$(tk_u32_at "$1" $((8 + _si)))
	tk_eq "blob bytes" $((${#1} / 2)) $((12 + _si + _ed))
}

tk_add q_k "new 32"
id=$(tk_id q_k)
p=$(keyctl pipe "$id")
t_check "new: print equals pipe" tk_eq print "$(keyctl print "$id")" "$p"
t_check "new: the blob is canonical hex" canonical "$p"
t_check "new: the blob is one TPM_STORED_DATA" stored_data "$p"

t_check "load: print gives the loaded blob" \
	eval 'tk_add q_l "load $p" && tk_eq print "$(keyctl print "$(tk_id q_l)")" "$p"'
up=$(echo "$p" | tr a-f A-F)
t_check "an uppercase blob loads, prints in lowercase" \
	eval 'tk_add q_u "load $up" && tk_eq print "$(tk_blob q_u)" "$p"'
# shellcheck disable=SC2034  # used in eval
mixed=$(echo "$up" | cut -c1-100)$(echo "$p" | cut -c101-)
t_check "a mixed-case blob loads, prints in lowercase" \
	eval 'tk_add q_m "load $mixed" && tk_eq print "$(tk_blob q_m)" "$p"'

tk_add q_x "new 128"
# shellcheck disable=SC2034  # used in eval
px=$(tk_blob q_x)
t_check "128-byte key: the loaded blob prints back" \
	eval 'tk_add q_x2 "load $px" && tk_eq print "$(tk_blob q_x2)" "$px"'

if pi=$(tk_pcrinfo 23); then
	tk_add q_p "new 32 pcrinfo=$pi"
	# shellcheck disable=SC2034  # used in eval
	pp=$(tk_blob q_p)
	t_check "a PCR-bound blob prints back as loaded" \
		eval 'tk_add q_p2 "load $pp" && tk_eq print "$(tk_blob q_p2)" "$pp" && stored_data "$pp"'
else
	t_skip "a PCR-bound blob prints back as loaded" "PCR 23 not readable"
fi

t_check "update reseals" tk_updates q_k
# shellcheck disable=SC2034  # used in eval
p2=$(tk_blob q_k)
t_check "update: print gives the new blob" \
	eval 'tk_eq print "$(keyctl print "$id")" "$p2" && canonical "$p2" && stored_data "$p2"'

tk_drop q_k q_l q_u q_m q_x q_x2 q_p q_p2
