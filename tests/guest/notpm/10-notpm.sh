#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A machine without any TPM (issue 9, "No TPM"): both of our modules
# load, trusted keys fail with ENODEV (new and load, before and after
# the driver for a late TPM is loaded), encrypted keys with user: masters
# work, and unloading is clean.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

[ "$TKH_TPM" = none ] || t_skip_all "this boot has a TPM (tk.tpm=$TKH_TPM)"
t_require notpm
BLOB=$(printf '%0128d' 0)

t_check "our trusted.ko and encrypted-keys.ko load" t_mods_load ours ours
t_check "  ... trusted.ko says it found no TPM" sh -c 'dmesg | grep -q "trusted: no TPM found"'
t_errno "trusted new 32: ENODEV" ENODEV t_key_refused trusted n_t "new 32"
t_errno "trusted load: ENODEV" ENODEV t_key_refused trusted n_t "load $BLOB"
enc_user() {
	keyctl add user n_m "$(printf '%032d' 7)" @u >/dev/null || return 1
	keyctl add encrypted n_e "new user:n_m 32" @u >/dev/null || return 1
	_b=$(keyctl pipe "$(t_key_id encrypted n_e)") || return 1
	t_drop n_e
	keyctl add encrypted n_e "load $_b" @u >/dev/null || return 1
	_b2=$(keyctl pipe "$(t_key_id encrypted n_e)") || return 1
	t_eq "blob after load" "$_b2" "$_b"
}
t_check "an encrypted key under a user: master: new, pipe, load" enc_user
# A TPM driver loaded late must not change the answer when it finds no
# TPM (a late TPM is looked up at each operation: docs/trusted-tpm2.md).
if modprobe tpm_vtpm_proxy 2>/dev/null || { [ -n "$TKH_REF" ] && insmod "$TKH_REF/tpm_vtpm_proxy.ko" 2>/dev/null; }; then
	t_errno "after loading tpm_vtpm_proxy (no TPM yet): still ENODEV" ENODEV t_key_refused trusted n_t "new 32"
else
	t_skip "after loading tpm_vtpm_proxy (no TPM yet): still ENODEV" "no tpm_vtpm_proxy module in this guest"
fi
keyctl clear @u >/dev/null
t_check "both modules unload" t_mods_none
t_check "  ... and load again" t_mods_load ours ours
t_mods_none >/dev/null 2>&1
