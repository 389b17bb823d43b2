#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Key sizes of "new" on a TPM 1.2 (phase 1): 32..128 bytes work, 31 and
# 129 are EINVAL, and so is every size that is not a plain decimal number
# in range (missing, negative, hex, trailing junk, wrapping past 2^32 or
# 2^64). After each refusal no key of that name exists.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any

t_errno "new 31: below the minimum" EINVAL t_key_refused trusted s_31 "new 31"
t_check "new 32: the minimum" t_key_add trusted s_32 "new 32"
t_check "new 32 blob loads" t_key_add trusted s_32l "load $(t_key_blob trusted s_32)"
t_check "new 128: the maximum" t_key_add trusted s_128 "new 128"
t_check "new 128 blob loads" t_key_add trusted s_128l "load $(t_key_blob trusted s_128)"
t_errno "new 129: above the maximum" EINVAL t_key_refused trusted s_129 "new 129"
t_errno "new without a size" EINVAL t_key_refused trusted s_none "new"
t_errno "new 0" EINVAL t_key_refused trusted s_0 "new 0"
t_errno "new -32" EINVAL t_key_refused trusted s_neg "new -32"
t_errno "new abc: not a number" EINVAL t_key_refused trusted s_abc "new abc"
t_errno "new 32abc: trailing junk" EINVAL t_key_refused trusted s_junk "new 32abc"
t_errno "new 0x20: hex is not a size" EINVAL t_key_refused trusted s_hex "new 0x20"
t_errno "new 4294967328 (2^32 + 32) does not wrap to 32" EINVAL \
	t_key_refused trusted s_w32 "new 4294967328"
t_errno "new 18446744073709551648 (2^64 + 32) does not wrap to 32" EINVAL \
	t_key_refused trusted s_w64 "new 18446744073709551648"
t_errno "new 99999999999999999999999999999999" EINVAL \
	t_key_refused trusted s_big "new 99999999999999999999999999999999"

t_drop s_32 s_32l s_128 s_128l
