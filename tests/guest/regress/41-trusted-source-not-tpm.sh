#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression, bug class of the DCP, CAAM and TEE trust sources' CVEs (2024:
# blob key leaks, scatterlists over stack buffers): we implement the TPM
# only, so trusted.ko must refuse to load with another trust source
# (source=tee, caam, dcp) or an unknown rng=, with one log line, rather than
# run without a backend; and it still loads with source=tpm.
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
t_mods_none >/dev/null 2>&1
