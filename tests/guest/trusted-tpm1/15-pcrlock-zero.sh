#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression: "pcrlock=0 extended PCR 0". pcrlock=0 means no lock, as
# in-tree: no PCR 0 extension, and no CAP_SYS_ADMIN needed for it.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any

t_check "pcrlock=0 as root: key created, PCR 0 unchanged" \
	t_pcr_stays 0 t_key_add trusted z_root "new 32 pcrlock=0"
t_check "the pcrlock=0 key exists" t_key_id trusted z_root
if t_user_setup; then
	t_check "pcrlock=0 without CAP_SYS_ADMIN is allowed (no lock)" \
		t_user_add z_user "new 32 pcrlock=0"
	t_check "unprivileged pcrlock=0 leaves PCR 0 as it was" \
		t_pcr_stays 0 t_user_add z_user2 "new 32 pcrlock=0"
	t_as_user keyctl clear @u >/dev/null 2>&1
else
	t_skip "pcrlock=0 without CAP_SYS_ADMIN" "cannot run as an unprivileged user (busybox su)"
fi
t_drop z_root
