#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The master key's life: absent at creation (export fails with ENOKEY),
# revoked, expired, negative; update changing the master's description but
# never its type; the encrypted key itself revoked; add_key on an existing
# description. TK_ENC_IMPL=ref runs the same against the in-tree module.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

t_require masters	# the test kernel (with ref) or an EVM kernel
t_require phase 1	# nothing after the reboot that phase 1 did not check
t_require tpm 1.2
t_mods ref test
[ "${TK_ENC_IMPL:-ours}" = ref ] && [ -z "$TK_REF" ] &&
	t_skip_all "no in-tree encrypted-keys.ko on this kernel (its key types are built in)"
if [ "${TK_ENC_IMPL:-ours}" = ref ]; then
	ek_mods ref || { t_skip_rest "in-tree module did not load"; exit 0; }
fi
ek_masters >/dev/null 2>&1
M=$(ek_master user)

# An absent master: creating works, exporting does not until it appears.
t_check "new under an absent user master" ek_add m_abs "new user:nosuch 32"
t_errno "read without the master: ENOKEY" ENOKEY ek_read_fails m_abs
t_check "new under an absent trusted master" ek_add m_abst "new trusted:nosuch 32"
t_errno "read without the trusted master: ENOKEY" ENOKEY ek_read_fails m_abst
keyctl add user nosuch "$EK_UBYTES" @u >/dev/null
t_check "read once the master exists" ek_blob m_abs
b=$(ek_blob m_abs 2>/dev/null)
keyctl unlink "$(ek_id nosuch user)" @u >/dev/null
t_errno "load without the master: ENOKEY" ENOKEY ek_refused m_abs2 "load $b"

# A revoked user master.
keyctl add user rvk "$EK_UBYTES" @u >/dev/null
ek_add m_rvk "new user:rvk 32"
b=$(ek_blob m_rvk 2>/dev/null)
keyctl revoke "$(ek_id rvk user)"
t_errno "read under a revoked master: EKEYREVOKED" EKEYREVOKED ek_read_fails m_rvk
t_errno "load under a revoked master: EKEYREVOKED" EKEYREVOKED ek_refused m_rvk2 "load $b"

# An expired user master.
keyctl add user exp "$EK_UBYTES" @u >/dev/null
ek_add m_exp "new user:exp 32"
keyctl timeout "$(ek_id exp user)" 1
sleep 2
t_errno "read under an expired master: ENOKEY (request_key skips it)" ENOKEY ek_read_fails m_exp

# A negative user master: request_key without a request-key helper leaves
# a negatively instantiated key behind.
keyctl request2 user neg callout @u >/dev/null 2>&1
ek_add m_neg "new user:neg 32"
t_check "a negative master key exists" sh -c "grep -q ' user *neg: ' /proc/keys || grep -q 'user *neg\$' /proc/keys || keyctl search @u user neg 2>&1 | grep -q 'Required key not available'"
t_errno "read under a negative master: ENOKEY" ENOKEY ek_read_fails m_neg
t_check "the kernel is fine after all that" ek_add m_ok "new $M 32"

# update: the master's description may change, its type may not.
ek_add m_up "new $M 32"
b0=$(ek_blob m_up 2>/dev/null)
t_check "update to user:nosuch2 (absent) accepted" \
	keyctl update "$(ek_id m_up)" "update user:nosuch2"
t_errno "read after update to an absent master: ENOKEY" ENOKEY ek_read_fails m_up
keyctl add user nosuch2 "$EK_UBYTES" @u >/dev/null
t_check "read once the new master exists names it" \
	ek_shape "$(ek_blob m_up 2>&1)" default user:nosuch2 32
t_check "update with a format token accepted (as in-tree)" \
	keyctl update "$(ek_id m_up)" "update default $M"
t_check "back under the first master: the original blob" \
	ek_eq blob "$(ek_blob m_up 2>&1)" "$b0"
t_errno "update to a trusted master refused" EINVAL ek_update_refused m_up "update trusted:$EK_TMASTER"
t_errno "update to a bare user: refused" EINVAL ek_update_refused m_up "update user:"
t_errno "update to an unknown master type refused" EINVAL ek_update_refused m_up "update logon:x"
t_errno "update without a master refused" EINVAL ek_update_refused m_up "update"
t_errno "new on an existing key refused" EINVAL ek_update_refused m_up "new $M 32"
t_errno "load on an existing key refused" EINVAL ek_update_refused m_up "load $b0"
t_errno "add_key 'new' on an existing description refused" EINVAL \
	sh -c "keyctl add encrypted m_up 'new $M 32' @u >/dev/null"
t_check "... and the key is unchanged" ek_eq blob "$(ek_blob m_up 2>&1)" "$b0"
t_errno "update as the creating command refused" EINVAL ek_refused m_new "update $M"

# The encrypted key itself revoked: its material is gone.
ek_add m_rv "new $M 32"
id=$(ek_id m_rv)
t_check "revoke an encrypted key" keyctl revoke "$id"
t_errno "read of a revoked key: EKEYREVOKED" EKEYREVOKED keyctl pipe "$id"
t_errno "update of a revoked key: EKEYREVOKED" EKEYREVOKED keyctl update "$id" "update $M"
t_check "describe of a revoked key still works" sh -c "grep -q ' encrypted *m_rv' /proc/keys"
t_check "new keys still work" ek_add m_after "new $M 32"
