#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Blobs survive a reboot with the same TPM. Phase 1 creates keys with our
# module (and, on the test kernel, with the in-tree one, plus an encrypted
# key under each master) and saves their blobs; phase 2 loads them all,
# with both modules where there are two, and checks that the key bytes
# are those of phase 1 (the encrypted keys load) and that migratable=0
# survived.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

A=$(t_impl)			# the module under test
K=${TKH_KERNEL:-unknown}
BA=89abcdef0123456789abcdef0123456789abcdef
t_require tpm 1.2
t_require phase 1,2
t_require impl
t_mods test ref-if-any

# save NAME VALUE: keep VALUE for phase 2 under trusted-$K-NAME.
save() {
	[ -n "$2" ] || { echo "nothing to save for $1" >&2; return 1; }
	printf '%s' "$2" | t_state_save "trusted-$K-$1"
}

# got NAME: what phase 1 saved under NAME.
got() {
	t_state_get "trusted-$K-$1"
}

# loads NAME SAVED [OPTIONS]: the blob saved as SAVED loads as trusted
# key NAME, and keyctl print gives it back.
loads() {
	_b=$(got "$2") || { echo "phase 1 saved no $2" >&2; return 1; }
	t_key_add trusted "$1" "load $_b${3:+ $3}" || return 1
	t_eq "print" "$(t_key_blob trusted "$1")" "$(t_lower "$_b")"
}

# enc_loads MASTER SAVED: the encrypted key saved as SAVED loads under
# the trusted key MASTER, so MASTER has the bytes it had in phase 1.
enc_loads() {
	_e=$(got "$2") || { echo "phase 1 saved no $2" >&2; return 1; }
	t_enc_loads "e_$1" "$_e"
}

if [ "${TKH_PHASE:-1}" = 1 ]; then
	t_check "phase 1, $A: new key, blob saved" \
		eval 't_key_add trusted r_a "new 32" && save a "$(t_key_blob trusted r_a)"'
	t_check "phase 1, $A: new 64 blobauth= migratable=0, blob saved" \
		eval 't_key_add trusted r_b "new 64 blobauth=$BA migratable=0" && save b "$(t_key_blob trusted r_b)"'
	if t_have_enc; then
		t_check "phase 1, $A: encrypted key under it, blob saved" \
			eval 't_enc_new e_r_a r_a && save a-enc "$(t_key_blob encrypted e_r_a)"'
	else
		t_skip "phase 1, $A: encrypted key under it" \
			"no encrypted key type with trusted masters on $K"
	fi
	if [ -n "$TKH_REF" ] && t_mods_load ref ref-if-any; then
		t_check "phase 1, in-tree: new key, blob saved" \
			eval 't_key_add trusted r_r "new 32" && save r "$(t_key_blob trusted r_r)"'
		if t_have_enc; then
			t_check "phase 1, in-tree: encrypted key under it, blob saved" \
				eval 't_enc_new e_r_r r_r && save r-enc "$(t_key_blob encrypted e_r_r)"'
		else
			t_skip "phase 1, in-tree: encrypted key" "encrypted-keys.ko missing"
		fi
	else
		t_skip "phase 1, in-tree blobs" "no in-tree reference on $K"
	fi
	t_drop r_a r_b r_r e_r_a e_r_r
	exit 0
fi

# Phase 2: the same TPM after a reboot.
t_check "phase 2, $A: phase-1 blob of $A loads, print gives it back" loads r_a a
t_check "phase 2, $A: blobauth blob of $A loads with its blobauth" \
	loads r_b b "blobauth=$BA"
t_errno "phase 2, $A: its migratable=0 survived (update refused)" EPERM \
	t_key_update_refused trusted r_b update
if t_have_enc; then
	t_check "phase 2, $A: same key bytes as in phase 1 (encrypted key loads)" \
		enc_loads r_a a-enc
else
	t_skip "phase 2, $A: same key bytes" "no encrypted key type with trusted masters on $K"
fi
if [ -n "$TKH_REF" ]; then
	t_check "phase 2, $A: phase-1 in-tree blob loads" loads r_r r
	if t_have_enc; then
		t_check "phase 2, $A: same bytes as the in-tree key of phase 1" \
			enc_loads r_r r-enc
	else
		t_skip "phase 2, $A: same bytes as the in-tree key" "encrypted-keys.ko missing"
	fi
	if t_mods_load ref ref-if-any; then
		t_check "phase 2, in-tree: phase-1 blob of $A loads" loads r_a a
		if t_have_enc; then
			t_check "phase 2, in-tree: same bytes as $A's key of phase 1" \
				enc_loads r_a a-enc
		else
			t_skip "phase 2, in-tree: same bytes" "encrypted-keys.ko missing"
		fi
		t_check "phase 2, in-tree: phase-1 in-tree blob loads" loads r_r r
		t_check "phase 2, in-tree: blobauth blob of $A loads" \
			loads r_b b "blobauth=$BA"
	else
		t_skip "phase 2, in-tree loads" "the in-tree trusted.ko did not load"
	fi
else
	t_skip "phase 2, in-tree blobs" "no in-tree reference on $K"
fi
t_drop r_a r_b r_r e_r_a e_r_r
