#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression, bug class of the DCP, CAAM and TEE trust sources' CVEs (2024:
# blob key leaks, scatterlists over stack buffers): we implement the TPM
# only, so trusted.ko must refuse to load with another trust source
# (source=tee, caam, dcp) or an unknown rng=, with one log line, rather than
# run without a backend; and it still loads with source=tpm. Also
# trusted.debug= (7.2's in-tree traces, which dump key bytes): no
# parameter of ours, so the kernel ignores it with its warning and the
# module loads, seals and logs nothing of the key.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/regress.sh"

t_regress_begin || exit 0

# refused PARAM: insmod trusted.ko PARAM fails, the module is not loaded,
# and the log names the parameter.
refused() {
	t_mods_none || return 1
	dmesg -c >/dev/null 2>&1
	if t_mod_insmod "$TKH_MODS" trusted.ko "$1" 2>/dev/null; then
		echo "insmod trusted.ko $1 worked" >&2
		return 1
	fi
	! grep -q '^trusted ' /proc/modules || { echo "trusted is loaded" >&2; return 1; }
	dmesg | grep -q "trusted: .*${1%%=*}=" || { echo "no log line names ${1%%=*}=" >&2; return 1; }
}
for p in source=tee source=caam source=dcp rng=bogus; do
	t_check "insmod trusted.ko $p refused" refused $p
done
loads() {
	t_mods_none && t_mod_insmod "$TKH_MODS" trusted.ko source=tpm &&
		keyctl add trusted rg_src "new 32" @u >/dev/null
}
t_check "insmod trusted.ko source=tpm loads and seals" loads
t_regress_drop trusted rg_src
debug_ignored() {
	t_mods_none || return 1
	dmesg -c >/dev/null 2>&1
	t_mod_insmod "$TKH_MODS" trusted.ko debug=1 || return 1
	dmesg | grep -q "trusted: unknown parameter 'debug' ignored" ||
		{ echo "no warning about debug=1" >&2; return 1; }
	id=$(keyctl add trusted rg_dbg "new 32" @u) || return 1
	blob=$(keyctl print "$id") || return 1
	! dmesg | grep -qi "$(printf '%s' "$blob" | cut -c1-32)" ||
		{ echo "the blob is in the log" >&2; return 1; }
}
t_check "insmod trusted.ko debug=1: ignored with the kernel's warning, seals, logs no blob" debug_ignored
t_regress_drop trusted rg_dbg
t_mods_none >/dev/null 2>&1
