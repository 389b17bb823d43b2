#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Across a reboot with the same TPM state. Phase 1: seal a trusted master
# on the TPM, make a key of every format x master type with ours and with
# the in-tree module, save every blob. Phase 2: reload the trusted master
# from its blob, then both implementations load every saved blob and read
# it back byte for byte.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

FMTS="default ecryptfs enc32"
KINDS="user trusted"

phase1() {
	# Not through t_check: that runs its command in a subshell, and the
	# trusted masters' blobs (TBLOB, TBLOB2) must reach this shell.
	if t_enc_masters && [ -n "$TBLOB" ] && [ -n "$TBLOB2" ]; then
		t_ok "phase 1: masters (trusted sealed on the TPM)"
	else
		t_fail "phase 1: masters (trusted sealed on the TPM)"
	fi
	printf '%s\n%s\n' "$TBLOB" "$TBLOB2" | t_state_save enc-tmasters
	: >/tmp/enc-blobs
	for impl in ours ref; do
		[ $impl = ours ] || { t_mods_load ref ref && t_enc_masters; } ||
			{ t_fail "phase 1: switch to $impl"; continue; }
		for fmt in $FMTS; do
			for kind in $KINDS; do
				n=$(t_enc_name "$fmt" "$kind")
				if t_key_add encrypted "$n" "new $fmt $(t_enc_master "$kind") $(t_enc_fmt_len "$fmt")" &&
					b=$(t_key_blob encrypted "$n"); then
					t_ok "phase 1: $impl made $fmt/$kind"
					echo "$impl $fmt $kind $b" >>/tmp/enc-blobs
				else
					t_fail "phase 1: $impl made $fmt/$kind"
				fi
			done
		done
	done
	t_state_save enc-blobs </tmp/enc-blobs
	for t in $(seq 25); do t_skip "phase 2 test $t" "runs after the reboot"; done
}

phase2() {
	for t in $(seq 13); do t_skip "phase 1 test $t" "ran before the reboot"; done
	t_state_get enc-tmasters >/tmp/tm || { t_skip_rest "phase 1 saved no masters"; return; }
	TBLOB=$(sed -n 1p /tmp/tm)
	TBLOB2=$(sed -n 2p /tmp/tm)
	t_state_get enc-blobs >/tmp/enc-blobs || { t_skip_rest "phase 1 saved no blobs"; return; }
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	[ -n "$TBLOB" ] && [ -n "$TBLOB2" ] || { t_skip_rest "phase 1 saved empty masters"; return; }
	t_check "phase 2: trusted masters unsealed from their blobs" t_enc_masters
	for impl in ours ref; do
		[ $impl = ours ] || { t_mods_load ref ref && t_enc_masters; } ||
			{ t_fail "phase 2: switch to $impl"; continue; }
		i=0
		while read -r maker fmt kind b; do
			i=$((i + 1))
			t_check "phase 2: $impl loads $maker's $fmt/$kind, reads back identical" \
				t_enc_reloads "$(t_enc_name "$fmt" "$kind" "$i")" "$b"
		done </tmp/enc-blobs
	done
}

t_require kernel test
t_require ref
t_require tpm 1.2
t_mods ref test
case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
