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
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

K=${TKH_KERNEL:-unknown}
t_require phase 1,2
t_tpm2_begin || exit 0
REF=
[ -n "$TKH_REF" ] && [ -f "$TKH_REF/trusted.ko" ] && t_tpm2_srk_present && REF=1

save() {
	[ -n "$2" ] || { echo "nothing to save for $1" >&2; return 1; }
	printf '%s' "$2" | t_state_save "tpm2-$K-$1"
}
got() {
	t_state_get "tpm2-$K-$1"
}
loads() { # NAME SAVED [OPTIONS]
	_b=$(got "$2") || { echo "phase 1 saved no $2" >&2; return 1; }
	t_key_add trusted "$1" "load $_b${3:+ $3}" || return 1
	t_eq "print" "$(t_key_blob trusted "$1")" "$_b"
}
enc_loads() { # NAME SAVED
	_e=$(got "$2") || { echo "phase 1 saved no $2" >&2; return 1; }
	t_enc_loads "$1" "$_e"
}
same() { # DESC ENCRYPTED-NAME SAVED-ENC
	if t_have_enc; then
		t_check "$1" enc_loads "$2" "$3"
	else
		t_skip "$1" "no encrypted key type taking trusted masters on $K"
	fi
}

if [ "${TKH_PHASE:-1}" = 1 ]; then
	# shellcheck disable=SC2317  # run through t_check
	make() {
		t_key_add trusted s_d "new 32" && save d "$(t_key_blob trusted s_d)" &&
			t_key_add trusted s_o "new 48 keyhandle=0x40000001" && save o "$(t_key_blob trusted s_o)" &&
			t_key_add trusted s_b "new 64 blobauth=$T_TPM2_BA migratable=0" && save b "$(t_key_blob trusted s_b)" &&
			t_key_add trusted s_c "new 32 pcrs=sha256:12" && save c "$(t_key_blob trusted s_c)" &&
			t_key_add trusted s_x "new 32 pcrlock=16" &&
			t_key_add trusted s_p "new 32 pcrs=sha256:16" && save p "$(t_key_blob trusted s_p)"
	}
	t_check "phase 1: keys sealed (default, 0x40000001, blobauth, pcrs 12 and 16), blobs saved" make
	# shellcheck disable=SC2317  # run through t_check
	encs() {
		for _k in d o c; do
			t_enc_new "e_$_k" "s_$_k" && save "$_k-enc" "$(t_key_blob encrypted "e_$_k")" || return 1
		done
	}
	if t_have_enc; then
		t_check "phase 1: encrypted keys under them, saved" encs
	else
		t_skip "phase 1: encrypted keys under them" "no encrypted key type taking trusted masters on $K"
	fi
	if [ -n "$REF" ]; then
		# shellcheck disable=SC2317  # run through t_check
		ref() {
			t_mods_load ref ref-if-any && t_key_add trusted s_r "new 32 keyhandle=0x81000001" &&
				save r "$(t_key_blob trusted s_r)" && t_enc_new e_r s_r &&
				save r-enc "$(t_key_blob encrypted e_r)"
		}
		t_check "phase 1, in-tree: a key and an encrypted key, saved" ref
		t_mods_load ours ref-if-any
	else
		t_skip "phase 1, in-tree: a key" "no in-tree module or no SRK here"
	fi
	t_check "no transient object or session left in the TPM" \
		t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
	t_drop s_d s_o s_b s_c s_x s_p s_r e_d e_o e_c e_r
	exit 0
fi

t_check "phase 2: the default-parent blob loads without options" loads s_d d
same "  ... with the key bytes of phase 1" e_d d-enc
t_check "phase 2: the 0x40000001 blob loads: the primary came back" loads s_o o
same "  ... with the key bytes of phase 1" e_o o-enc
t_check "phase 2: the blobauth blob loads with its blobauth" loads s_b b "blobauth=$T_TPM2_BA"
t_errno "  ... migratable=0 survived (update EPERM)" EPERM t_key_update_refused trusted s_b update
t_check "phase 2: the PCR 12 blob loads (PCR 12 unchanged)" loads s_c c
same "  ... with the key bytes of phase 1" e_c c-enc
t_errno "phase 2: the PCR 16 blob does not (the reboot reset PCR 16): EPERM" EPERM \
	t_key_refused trusted s_p "load $(got p)"
if [ -n "$REF" ]; then
	t_check "phase 2: the in-tree blob of phase 1 loads in ours" loads s_r r
	same "  ... with its key bytes" e_r r-enc
	ref_loads_ours() {
		t_mods_load ref ref-if-any && loads s_d d && { ! t_have_enc || enc_loads e_d d-enc; }
		_rc=$?
		t_mods_load ours ref-if-any
		return $_rc
	}
	t_check "phase 2: ours' blob of phase 1 loads in the in-tree module" ref_loads_ours
else
	t_skip_n 2 "no in-tree module or no SRK here"
	t_skip "phase 2: ours' blob in the in-tree module" "no in-tree module or no SRK here"
fi
t_drop s_d s_o s_b s_c s_p s_r s_d2 e_d e_o e_c e_r
