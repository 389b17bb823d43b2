#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# keyctl print / keyctl pipe on a TPM 1.2 (phase 1): the output is the
# blob that was loaded, as canonical hex (lowercase, even length), a whole
# TPM_STORED_DATA; blobs given in upper or mixed case load and print in
# lowercase; after update it is the new blob.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any

# canonical HEX: only lowercase hex digits, an even number of them.
canonical() {
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	[ -n "$1" ] && [ $((${#1} % 2)) -eq 0 ] &&
		[ -z "$(echo "$1" | tr -d '0-9a-f')" ] ||
		{ echo "not canonical hex: $1" >&2; return 1; }
}

# stored_data HEX: a TPM_STORED_DATA whose size fields add up to its length.
stored_data() {
	_si=$(t_u32_at "$1" 4)
	_ed=$(t_u32_at "$1" $((8 + _si)))
	t_eq "blob bytes" $((${#1} / 2)) $((12 + _si + _ed))
}

t_key_add trusted q_k "new 32"
id=$(t_key_id trusted q_k)
p=$(keyctl pipe "$id")
t_check "new: print equals pipe" t_eq print "$(keyctl print "$id")" "$p"
t_check "new: the blob is canonical hex" canonical "$p"
t_check "new: the blob is one TPM_STORED_DATA" stored_data "$p"

t_check "load: print gives the loaded blob" \
	eval 't_key_add trusted q_l "load $p" && t_eq print "$(keyctl print "$(t_key_id trusted q_l)")" "$p"'
up=$(echo "$p" | tr a-f A-F)
t_check "an uppercase blob loads, prints in lowercase" \
	eval 't_key_add trusted q_u "load $up" && t_eq print "$(t_key_blob trusted q_u)" "$p"'
# shellcheck disable=SC2034  # used in eval
mixed=$(echo "$up" | cut -c1-100)$(echo "$p" | cut -c101-)
t_check "a mixed-case blob loads, prints in lowercase" \
	eval 't_key_add trusted q_m "load $mixed" && t_eq print "$(t_key_blob trusted q_m)" "$p"'

t_key_add trusted q_x "new 128"
# shellcheck disable=SC2034  # used in eval
px=$(t_key_blob trusted q_x)
t_check "128-byte key: the loaded blob prints back" \
	eval 't_key_add trusted q_x2 "load $px" && t_eq print "$(t_key_blob trusted q_x2)" "$px"'

if pi=$(t_pcrinfo 23); then
	t_key_add trusted q_p "new 32 pcrinfo=$pi"
	# shellcheck disable=SC2034  # used in eval
	pp=$(t_key_blob trusted q_p)
	t_check "a PCR-bound blob prints back as loaded" \
		eval 't_key_add trusted q_p2 "load $pp" && t_eq print "$(t_key_blob trusted q_p2)" "$pp" && stored_data "$pp"'
else
	t_skip "a PCR-bound blob prints back as loaded" "PCR 23 not readable"
fi

t_check "update reseals" t_updates q_k
# shellcheck disable=SC2034  # used in eval
p2=$(t_key_blob trusted q_k)
t_check "update: print gives the new blob" \
	eval 't_eq print "$(keyctl print "$id")" "$p2" && canonical "$p2" && stored_data "$p2"'

t_drop q_k q_l q_u q_m q_x q_x2 q_p q_p2
