#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# logon=<prefix>:<desc> (phase 1): the trusted key's secret as a logon key
# in the caller's session keyring, which dm-crypt takes as
# ":32:logon:<prefix>:<desc>" on every kernel (the stock ones have no
# ":32:trusted:"). No user-space read path gives the secret and nobody may
# write the logon key (root's, VIEW|SEARCH for root only; the local users'
# side: 40-local.sh); update keeps it, logon= on update renames it, revoke
# and invalidate of the trusted key revoke it; bad values are EINVAL, a
# taken description EEXIST, and a failed add leaves no logon key behind.
# An update logon= whose pcrlock= fails (fail_function, test kernel) changes
# nothing: the old logon key stays, the new one is not left behind.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"
. "$here/../lib/trusted.sh"

t_require phase 1
t_disk_begin impl
O=$(t_disk_opts)
t_dm_remove dk10

t_check "new 32 logon=tk:t10 into @u" keyctl add trusted t10 "new 32 logon=tk:t10 $O" @u
tid=$(t_disk_id trusted t10)
lid=$(t_disk_id logon tk:t10)
t_check "the logon key tk:t10 is in the session keyring, root's" sh -c "
	keyctl rdescribe @s | grep -q '^keyring;' &&
	keyctl describe @s | grep -q . &&
	keyctl rdescribe '$lid' | grep -q '^logon;0;0;[0-9a-f]*;tk:t10\$' &&
	keyctl list @s | grep -q '^ *$lid: .* logon: tk:t10\$'"
blob=$(keyctl pipe "$tid" 2>/dev/null)
t_check "keyctl read/print/pipe: the blob of the trusted key, EOPNOTSUPP for the logon key" \
	t_disk_no_read_path "$tid" "$lid" "$blob"

sum=$(t_disk_write dk10 ":32:logon:tk:t10" "$T_DISK_P20")
t_check "dm-crypt maps ':32:logon:tk:t10' and writes" [ -n "$sum" ]

# Nobody may overwrite the logon key, its owner (root) included; update of
# the trusted key leaves it as it is.
t_errno "keyctl update of the logon key: EACCES, root too" EACCES sh -c "
	head -c 32 /dev/zero | keyctl pupdate '$lid'"
kept() {
	keyctl update "$tid" "update $O" >/dev/null &&
		t_disk_reads dk10 :32:logon:tk:t10 "$T_DISK_P20" "$sum"
}
t_check "keyctl update of the trusted key: the logon key still reads the data" kept

renamed() {
	keyctl update "$tid" "update $O logon=tk:t10b" >/dev/null &&
		t_disk_reads dk10 :32:logon:tk:t10b "$T_DISK_P20" "$sum" || return 1
	! keyctl describe "$lid" >/dev/null 2>&1 || { echo "tk:t10 not revoked" >&2; return 1; }
}
t_check "update logon=tk:t10b: a new logon key with the secret, the old one revoked" renamed
lid=$(t_disk_id logon tk:t10b)
lockfail() {
	t_ff_arm trusted_tpm_pcrlock 1 || { echo "cannot arm fail_function" >&2; return 1; }
	keyctl update "$tid" "update $O logon=tk:t10c pcrlock=23" >/dev/null 2>&1
	_rc=$?
	t_ff_off
	[ $_rc -ne 0 ] || { echo "the update succeeded" >&2; return 1; }
	keyctl describe "$lid" >/dev/null 2>&1 || { echo "tk:t10b revoked" >&2; return 1; }
	! keyctl search @s logon tk:t10c >/dev/null 2>&1 || { echo "tk:t10c left behind" >&2; return 1; }
	t_disk_reads dk10 :32:logon:tk:t10b "$T_DISK_P20" "$sum"
}
why=$(t_ff_why trusted_tpm_pcrlock)
if [ -z "$why" ]; then
	t_check "update logon=tk:t10c with a failing pcrlock=: refused, tk:t10b kept, no tk:t10c" lockfail
else
	t_skip "update logon=tk:t10c with a failing pcrlock=: refused, tk:t10b kept, no tk:t10c" "$why"
fi
t_errno "keyctl revoke of the trusted key revokes its logon key" EKEYREVOKED sh -c "
	keyctl revoke '$tid' && keyctl describe '$lid'"

keyctl add trusted t10i "new 32 logon=tk:t10i $O" @u >/dev/null 2>&1
iid=$(t_disk_id trusted t10i) lii=$(t_disk_id logon tk:t10i)
# destroy (the garbage collector, after invalidate) revokes it
gone() {
	[ -n "$lii" ] && keyctl invalidate "$iid" || return 1
	_i=0
	while [ $_i -lt 50 ]; do
		keyctl describe "$lii" >/dev/null 2>&1 || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "logon key $lii still valid 5 s after the invalidate" >&2
	return 1
}
t_check "keyctl invalidate of the trusted key revokes its logon key" gone

bad() {
	for v in nocolon :x x: : "tk:a b" \
		"t:$(head -c 300 /dev/zero | tr '\0' a)"; do
		if o=$(keyctl add trusted t10bad "new 32 $O logon=$v" @u 2>&1); then
			echo "logon=$v accepted" >&2
			return 0
		fi
		case $o in *"Invalid argument"*) ;; *) echo "logon=$v: $o" >&2; return 0 ;; esac
	done
	t_disk_id trusted t10bad >/dev/null && { echo "a key t10bad exists" >&2; return 0; }
	echo "x: Invalid argument" >&2
	return 1
}
t_errno "bad logon= values are refused, nothing added" EINVAL bad

keyctl add logon tk:taken "$(head -c 32 /dev/zero | tr '\0' x)" @s >/dev/null
taken=$(t_disk_id logon tk:taken)
collide() {
	keyctl add trusted t10c "new 32 $O logon=tk:taken" @u >/dev/null && return 0
	[ "$(t_disk_id logon tk:taken)" = "$taken" ] || { echo "tk:taken replaced" >&2; return 0; }
	keyctl describe "$taken" >/dev/null || { echo "tk:taken revoked" >&2; return 0; }
	! t_disk_id trusted t10c >/dev/null || { echo "t10c added" >&2; return 0; }
	return 1
}
t_errno "a logon key of that description exists: EEXIST, it stays as it was" EEXIST collide

# Made in preparse, refused later: "new" on the description of an existing
# trusted key in the same keyring becomes an update, which refuses "new"
# (EINVAL); the logon key must be revoked and unlinked again.
noleft() {
	keyctl add trusted t10q "new 32 $O" @u >/dev/null || return 0
	keyctl add trusted t10q "new 32 $O logon=tk:t10q" @u >/dev/null && return 0
	! t_disk_id logon tk:t10q >/dev/null || { echo "logon key tk:t10q left behind" >&2; return 0; }
	return 1
}
t_errno "an add refused after the logon key was made leaves no logon key" EINVAL noleft

# Root may invalidate the logon key (SEARCH) but not revoke it (no WRITE,
# no SETATTR); update logon= with the same description makes it again.
t_errno "keyctl revoke of the logon key: EACCES, root too" EACCES sh -c "
	keyctl add trusted t10r 'new 32 $O logon=tk:t10r' @u >/dev/null &&
	keyctl revoke \$(keyctl search @s logon tk:t10r)"
t_check "update of a key whose logon key root invalidated works; logon=<same> makes it again" sh -c "
	keyctl invalidate \$(keyctl search @s logon tk:t10r) &&
	keyctl update \$(keyctl search @s trusted t10r) 'update $O' >/dev/null &&
	! keyctl search @s logon tk:t10r >/dev/null 2>&1 &&
	keyctl update \$(keyctl search @s trusted t10r) 'update $O logon=tk:t10r' >/dev/null &&
	keyctl describe \$(keyctl search @s logon tk:t10r) >/dev/null"
t_dm_remove dk10
