#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The master key's life: absent at creation (export fails with ENOKEY),
# revoked, expired, negative; update changing the master's description but
# never its type; the encrypted key itself revoked; add_key on an existing
# description. TKH_ENC_IMPL=ref runs the same against the in-tree module.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

t_enc_begin
t_enc_masters >/dev/null 2>&1
M=$(t_enc_master user)

# An absent master: creating works, exporting does not until it appears.
t_check "new under an absent user master" t_key_add encrypted m_abs "new user:nosuch 32"
t_errno "read without the master: ENOKEY" ENOKEY t_enc_read_fails m_abs
t_check "new under an absent trusted master" t_key_add encrypted m_abst "new trusted:nosuch 32"
t_errno "read without the trusted master: ENOKEY" ENOKEY t_enc_read_fails m_abst
keyctl add user nosuch "$T_ENC_UBYTES" @u >/dev/null
t_check "read once the master exists" t_key_blob encrypted m_abs
b=$(t_key_blob encrypted m_abs 2>/dev/null)
keyctl unlink "$(t_key_id user nosuch)" @u >/dev/null
t_errno "load without the master: ENOKEY" ENOKEY t_key_refused encrypted m_abs2 "load $b"

# A revoked user master.
keyctl add user rvk "$T_ENC_UBYTES" @u >/dev/null
t_key_add encrypted m_rvk "new user:rvk 32"
b=$(t_key_blob encrypted m_rvk 2>/dev/null)
keyctl revoke "$(t_key_id user rvk)"
t_errno "read under a revoked master: EKEYREVOKED" EKEYREVOKED t_enc_read_fails m_rvk
t_errno "load under a revoked master: EKEYREVOKED" EKEYREVOKED t_key_refused encrypted m_rvk2 "load $b"

# An expired user master.
keyctl add user exp "$T_ENC_UBYTES" @u >/dev/null
t_key_add encrypted m_exp "new user:exp 32"
keyctl timeout "$(t_key_id user exp)" 1
sleep 2
t_errno "read under an expired master: ENOKEY (request_key skips it)" ENOKEY t_enc_read_fails m_exp

# A negative user master: request_key without a request-key helper leaves
# a negatively instantiated key behind.
keyctl request2 user neg callout @u >/dev/null 2>&1
t_key_add encrypted m_neg "new user:neg 32"
t_check "a negative master key exists" sh -c "grep -q ' user *neg: ' /proc/keys || grep -q 'user *neg\$' /proc/keys || keyctl search @u user neg 2>&1 | grep -q 'Required key not available'"
t_errno "read under a negative master: ENOKEY" ENOKEY t_enc_read_fails m_neg
t_check "the kernel is fine after all that" t_key_add encrypted m_ok "new $M 32"

# update: the master's description may change, its type may not.
t_key_add encrypted m_up "new $M 32"
b0=$(t_key_blob encrypted m_up 2>/dev/null)
t_check "update to user:nosuch2 (absent) accepted" \
	keyctl update "$(t_key_id encrypted m_up)" "update user:nosuch2"
t_errno "read after update to an absent master: ENOKEY" ENOKEY t_enc_read_fails m_up
keyctl add user nosuch2 "$T_ENC_UBYTES" @u >/dev/null
t_check "read once the new master exists names it" \
	t_enc_shape "$(t_key_blob encrypted m_up 2>&1)" default user:nosuch2 32
t_check "update with a format token accepted (as in-tree)" \
	keyctl update "$(t_key_id encrypted m_up)" "update default $M"
t_check "back under the first master: the original blob" \
	t_eq blob "$(t_key_blob encrypted m_up 2>&1)" "$b0"
t_errno "update to a trusted master refused" EINVAL t_key_update_refused encrypted m_up "update trusted:$T_ENC_TMASTER"
t_errno "update to a bare user: refused" EINVAL t_key_update_refused encrypted m_up "update user:"
t_errno "update to an unknown master type refused" EINVAL t_key_update_refused encrypted m_up "update logon:x"
t_errno "update without a master refused" EINVAL t_key_update_refused encrypted m_up "update"
t_errno "new on an existing key refused" EINVAL t_key_update_refused encrypted m_up "new $M 32"
t_errno "load on an existing key refused" EINVAL t_key_update_refused encrypted m_up "load $b0"
t_errno "add_key 'new' on an existing description refused" EINVAL \
	sh -c "keyctl add encrypted m_up 'new $M 32' @u >/dev/null"
t_check "... and the key is unchanged" t_eq blob "$(t_key_blob encrypted m_up 2>&1)" "$b0"
t_errno "update as the creating command refused" EINVAL t_key_refused encrypted m_new "update $M"

# The encrypted key itself revoked: its material is gone.
t_key_add encrypted m_rv "new $M 32"
id=$(t_key_id encrypted m_rv)
t_check "revoke an encrypted key" keyctl revoke "$id"
t_errno "read of a revoked key: EKEYREVOKED" EKEYREVOKED keyctl pipe "$id"
t_errno "update of a revoked key: EKEYREVOKED" EKEYREVOKED keyctl update "$id" "update $M"
t_check "describe of a revoked key still works" sh -c "grep -q ' encrypted *m_rv' /proc/keys"
t_check "new keys still work" t_key_add encrypted m_after "new $M 32"
