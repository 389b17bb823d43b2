#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0 blobs survive a reboot with the same TPM. Phase 1 seals keys
# (default parent, the TCG-template primary of 0x40000001, blobauth +
# migratable=0, a PCR 12 policy, a PCR 16 policy after PCR 16 was
# extended; on the test kernel an in-tree key and encrypted keys under the
# masters) and saves the blobs; phase 2 loads them without options: the
# same key bytes come back (the encrypted keys load), migratable=0 holds,
# the PCR 12 key loads (PCR 12 is zero again) and the PCR 16 key does not
# (the reboot reset PCR 16).
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

K=${TK_KERNEL:-unknown}
t_require phase 1,2
tk2_begin || exit 0
REF=
[ -n "$TK_REF" ] && [ -f "$TK_REF/trusted.ko" ] && tk2_srk_present && REF=1

save() {
	[ -n "$2" ] || { echo "nothing to save for $1" >&2; return 1; }
	printf '%s' "$2" | state_save "tpm2-$K-$1"
}
got() {
	state_get "tpm2-$K-$1"
}
loads() { # NAME SAVED [OPTIONS]
	_b=$(got "$2") || { echo "phase 1 saved no $2" >&2; return 1; }
	tk_add "$1" "load $_b${3:+ $3}" || return 1
	tk_eq "print" "$(tk_blob "$1")" "$_b"
}
enc_loads() { # NAME SAVED
	_e=$(got "$2") || { echo "phase 1 saved no $2" >&2; return 1; }
	tk_enc_loads "$1" "$_e"
}
same() { # DESC ENCRYPTED-NAME SAVED-ENC
	if tk_have_enc; then
		t_check "$1" enc_loads "$2" "$3"
	else
		t_skip "$1" "no encrypted key type taking trusted masters on $K"
	fi
}

if [ "${TK_PHASE:-1}" = 1 ]; then
	# shellcheck disable=SC2317  # run through t_check
	make() {
		tk_add s_d "new 32" && save d "$(tk_blob s_d)" &&
			tk_add s_o "new 48 keyhandle=0x40000001" && save o "$(tk_blob s_o)" &&
			tk_add s_b "new 64 blobauth=$TK2_BA migratable=0" && save b "$(tk_blob s_b)" &&
			tk_add s_c "new 32 pcrs=sha256:12" && save c "$(tk_blob s_c)" &&
			tk_add s_x "new 32 pcrlock=16" &&
			tk_add s_p "new 32 pcrs=sha256:16" && save p "$(tk_blob s_p)"
	}
	t_check "phase 1: keys sealed (default, 0x40000001, blobauth, pcrs 12 and 16), blobs saved" make
	# shellcheck disable=SC2317  # run through t_check
	encs() {
		for _k in d o c; do
			tk_enc_new "e_$_k" "s_$_k" && save "$_k-enc" "$(tk_enc_blob "e_$_k")" || return 1
		done
	}
	if tk_have_enc; then
		t_check "phase 1: encrypted keys under them, saved" encs
	else
		t_skip "phase 1: encrypted keys under them" "no encrypted key type taking trusted masters on $K"
	fi
	if [ -n "$REF" ]; then
		# shellcheck disable=SC2317  # run through t_check
		ref() {
			tk_mods ref && tk_add s_r "new 32 keyhandle=0x81000001" &&
				save r "$(tk_blob s_r)" && tk_enc_new e_r s_r &&
				save r-enc "$(tk_enc_blob e_r)"
		}
		t_check "phase 1, in-tree: a key and an encrypted key, saved" ref
		tk_mods ours
	else
		t_skip "phase 1, in-tree: a key" "no in-tree module or no SRK here"
	fi
	t_check "no transient object or session left in the TPM" \
		tk_eq "objects, loaded and saved sessions" "$(tk2_leftovers)" "0 0 0"
	tk_drop s_d s_o s_b s_c s_x s_p s_r e_d e_o e_c e_r
	exit 0
fi

t_check "phase 2: the default-parent blob loads without options" loads s_d d
same "  ... with the key bytes of phase 1" e_d d-enc
t_check "phase 2: the 0x40000001 blob loads: the primary came back" loads s_o o
same "  ... with the key bytes of phase 1" e_o o-enc
t_check "phase 2: the blobauth blob loads with its blobauth" loads s_b b "blobauth=$TK2_BA"
t_errno "  ... migratable=0 survived (update EPERM)" EPERM tk_update_refused s_b update
t_check "phase 2: the PCR 12 blob loads (PCR 12 unchanged)" loads s_c c
same "  ... with the key bytes of phase 1" e_c c-enc
t_errno "phase 2: the PCR 16 blob does not (the reboot reset PCR 16): EPERM" EPERM \
	tk_refused s_p "load $(got p)"
if [ -n "$REF" ]; then
	t_check "phase 2: the in-tree blob of phase 1 loads in ours" loads s_r r
	same "  ... with its key bytes" e_r r-enc
	ref_loads_ours() {
		tk_mods ref && loads s_d d && { ! tk_have_enc || enc_loads e_d d-enc; }
		_rc=$?
		tk_mods ours
		return $_rc
	}
	t_check "phase 2: ours' blob of phase 1 loads in the in-tree module" ref_loads_ours
else
	t_skip_n 2 "no in-tree module or no SRK here"
	t_skip "phase 2: ours' blob in the in-tree module" "no in-tree module or no SRK here"
fi
tk_drop s_d s_o s_b s_c s_p s_r s_d2 e_d e_o e_c e_r
