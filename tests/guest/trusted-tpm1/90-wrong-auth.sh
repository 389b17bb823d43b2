#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Wrong authorisations on a TPM 1.2: a blob sealed with a blobauth does
# not load with another one, and no blob loads with a wrong keyauth; the
# TPM refuses (ours: EACCES, a wrong authorisation value; in-tree: EPERM)
# and no key is left. A TPM 1.2 locks out after a few
# authorisation failures (TPM_DEFEND_LOCK_RUNNING), so these are the only
# two failures a TPM sees: last script, last boot (phase 2) of a kernel.
# (Each kernel of a run gets its own freshly provisioned TPM.)
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 2	# last: the TPM 1.2 dictionary-attack lockout
t_require impl
t_mods test ref-if-any

BA=00112233445566778899aabbccddeeff00112233
WRONG=33221100ffeeddccbbaa99887766554433221100

t_check "control: sealed with a blobauth, loads with it" \
	eval 't_key_add trusted w_k "new 32 blobauth=$BA" && t_key_add trusted w_l "load $(t_key_blob trusted w_k) blobauth=$BA"'
b=$(t_key_blob trusted w_k)
want=EACCES
[ "$(t_impl)" = ours ] || want=EPERM
t_errno "a wrong blobauth: the TPM refuses: $want" $want \
	t_key_refused trusted w_1 "load $b blobauth=$WRONG"
t_errno "a wrong keyauth: the TPM refuses: $want" $want \
	t_key_refused trusted w_2 "load $b blobauth=$BA keyauth=$WRONG"
t_check "afterwards the right authorisation still loads it" \
	t_key_add trusted w_3 "load $b blobauth=$BA"
t_check "afterwards a new key can be sealed" t_key_add trusted w_4 "new 32"

t_drop w_k w_l w_3 w_4
