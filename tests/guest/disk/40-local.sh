#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# logon= and local users (issue 23): nobody but root gets a usable copy of
# the sealed key. Phase 1. A second user, uid 65534 (tklocal -u: no
# capabilities, no groups), attacks
#   - on its own (its own session): load of a readable blob with logon=
#     (EPERM: CAP_SYS_ADMIN);
#   - in root's session keyring (a shared session: root's logon key there,
#     which it possesses): search, describe, update, link, setperm of the
#     logon key (EACCES), update logon= of root's trusted key (EPERM), an
#     AF_ALG xts(aes) bound to the logon key by serial (EACCES on 6.2+;
#     root binds it: the control);
#   - by planting a logon key of the description beforehand, writable by
#     root but not searchable (EACCES) or searchable (EEXIST): refused,
#     never written (the planted key keeps its 5 bytes);
#   - as the owner of root's session keyring (sudo without pam_keyinit):
#     logon= is refused there (EPERM).
# Each refusal: the errno and one line of ours in the kernel log. Root's own
# flow still maps ':32:logon:...'. The logon key dies with its trusted key:
# revoke, unlink, invalidate, update logon=<other> make dm-crypt refuse it
# within seconds (no garbage-collector delay).
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"

t_require phase 1
t_require cmd tklocal
t_disk_begin ours
O=$(t_disk_opts)
U=65534
D=/tmp/dk40
mkdir -p $D
chmod 0755 $D
t_dm_remove dk40 dk40u

as_user() { tklocal -u $U run "$@"; }

# refused DESC ERRNO PATTERN CMD...: CMD fails with ERRNO (t_errno), and
# the kernel logged exactly one line of ours for it, matching PATTERN
# (PATTERN empty: none; the keyring core refused, not us).
_mark=0
refused() {
	_rd=$1 _re=$2 _rp=$3
	shift 3
	_mark=$((_mark + 1))
	echo "dk40 mark $_mark" >/dev/kmsg
	t_errno "$_rd" "$_re" "$@"
	_rl=$(dmesg | sed -n "/dk40 mark $_mark\$/,\$p" | grep ' trusted: ')
	_rn=$(printf '%s' "$_rl" | grep -c .)
	if [ -z "$_rp" ]; then
		if [ "$_rn" -eq 0 ]; then
			t_ok "$_rd: nothing logged"
		else
			t_fail "$_rd: nothing logged" "logged: $_rl"
		fi
	elif [ "$_rn" -eq 1 ] && printf '%s' "$_rl" | grep -q "$_rp"; then
		t_ok "$_rd: one log line"
		printf '%s\n' "$_rl" | sed 's/^/# log: /'
	else
		t_fail "$_rd: one log line" "expected one line matching '$_rp', logged:
$_rl"
	fi
}

# dead ID: within 5 s, dm-crypt can no longer map the logon key DESC
# (revoked, or gone), and a search for it fails.
dead() {
	_i=0
	while [ $_i -lt 50 ]; do
		if ! keyctl search @s logon "$1" >/dev/null 2>&1; then
			! t_disk_map dk40 ":32:logon:$1" "$T_DISK_P20" >/dev/null 2>&1 && return 0
			t_dm_remove dk40
			echo "dm-crypt still maps :32:logon:$1" >&2
			return 1
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "logon key $1 still found 5 s later" >&2
	return 1
}

# --- root's flow, and what the logon key looks like -------------------------
t_check "root: new 32 logon=tk:l40 into @u" keyctl add trusted t40 "new 32 $O logon=tk:l40" @u
tid=$(t_disk_id trusted t40)
lid=$(t_disk_id logon tk:l40)
blob=$(keyctl pipe "$tid")
printf '%s\n' "$blob" >$D/blob
chmod 0644 $D/blob	# readable on purpose: the kernel must refuse anyway
t_check "the logon key is root's: uid 0, gid 0, VIEW|SEARCH for its owner only (00090000)" \
	sh -c "keyctl rdescribe '$lid' | grep -qx 'logon;0;0;00090000;tk:l40'"
mapped() {
	_dev=$(t_disk_map dk40 :32:logon:tk:l40 "$T_DISK_P20") || return 1
	dd if="$_dev" of=/dev/null bs=4096 count=1 2>/dev/null || return 1
	t_dm_remove dk40
}
t_check "root: dm-crypt maps ':32:logon:tk:l40' (request_key finds it by its owner's SEARCH)" mapped

# docs/install.md, "First key" and "Enrol a volume", as written (in a
# directory of ours, the mapping only read).
docflow() {
	sh -c "keyctl new_session >/dev/null &&
		keyctl add trusted dkvol40 'new 32 $O logon=trusted-keys:dkvol40' @s >/dev/null &&
		mkdir -p -m 0700 $D/etc &&
		(umask 077 && keyctl pipe %trusted:dkvol40 > $D/etc/dkvol40.blob) &&
		dmsetup create dk40 --noudevsync --table '0 $T_DISK_LEN crypt $T_DISK_CIPHER :32:logon:trusted-keys:dkvol40 0 /dev/vda $T_DISK_P20' &&
		dmsetup remove --noudevsync dk40" || return 1
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	[ "$(stat -c %a $D/etc/dkvol40.blob)" = 600 ] && [ "$(stat -c %a $D/etc)" = 700 ] ||
		{ ls -ld $D/etc $D/etc/dkvol40.blob >&2; return 1; }
	grep -Eqx '[0-9a-f]+' $D/etc/dkvol40.blob || return 1
	# "Update": the load, the blob on stdin
	sh -c "keyctl new_session >/dev/null &&
		printf 'load %s %s logon=trusted-keys:dkvol40' \"\$(cat $D/etc/dkvol40.blob)\" '$O' |
			keyctl padd trusted dkvol40 @s >/dev/null &&
		dmsetup create dk40 --noudevsync --table '0 $T_DISK_LEN crypt $T_DISK_CIPHER :32:logon:trusted-keys:dkvol40 0 /dev/vda $T_DISK_P20' &&
		dmsetup remove --noudevsync dk40"
}
t_check "docs/install.md as written: new_session, logon=, the blob 0600 in a 0700 directory, dmsetup maps; the load on stdin" docflow
refused "root: keyctl update of the logon key (nobody may write it)" EACCES "" \
	sh -c "head -c 32 /dev/zero | keyctl pupdate '$lid'"
refused "root: keyctl setperm of the logon key (nobody may loosen it)" EACCES "" \
	keyctl setperm "$lid" 0x3f3f3f3f
refused "root: keyctl link of the logon key elsewhere (nobody may link it)" EACCES "" \
	keyctl link "$lid" @u

# --- a second user in root's session ----------------------------------------
t_check "uid $U shares root's session keyring, without capabilities" sh -c "
	[ \"\$(tklocal -u $U run keyctl rdescribe @s)\" = \"\$(keyctl rdescribe @s)\" ] &&
	tklocal -u $U run grep -q '^CapEff:[[:space:]]*0*\$' /proc/self/status &&
	[ \"\$(tklocal -u $U run id -u)\" = $U ]"
refused "uid $U in root's session: keyctl search for the logon key" EACCES "" \
	as_user keyctl search @s logon tk:l40
refused "uid $U in root's session: keyctl describe of the logon key" EACCES "" \
	as_user keyctl describe "$lid"
refused "uid $U in root's session: keyctl update of the logon key (before dmsetup)" EACCES "" \
	as_user sh -c "head -c 32 /dev/zero | keyctl pupdate '$lid'"
refused "uid $U in root's session: keyctl link of the logon key into its own keyring" EACCES "" \
	as_user keyctl link "$lid" @u
refused "uid $U in root's session: keyctl setperm of the logon key" EACCES "" \
	as_user keyctl setperm "$lid" 0x3f3f3f3f
refused "uid $U in root's session: update logon=tk:mine of root's trusted key" EPERM \
	"refused: logon= needs CAP_SYS_ADMIN" as_user keyctl update "$tid" "update $O logon=tk:mine"
t_check "... and no logon key tk:mine exists" sh -c "! keyctl search @s logon tk:mine"
t_check "root's logon key is still what dm-crypt maps" mapped

# AF_ALG: ALG_SET_KEY_BY_KEY_SERIAL (6.2+) takes user, logon and encrypted
# keys their caller may search.
if ! o=$(tklocal algbind "$lid" 2>&1); then
	case $o in
	*"Address family not supported"* | *"Function not implemented"* | *"No such file or directory"* | *"not found"*)
		t_skip "root: AF_ALG xts(aes) bound to the logon key (the control)" \
			"no AF_ALG skcipher xts(aes) in this kernel ($o)"
		t_skip "uid $U cannot bind the logon key to AF_ALG" "no AF_ALG in this kernel" ;;
	*"Protocol not available"*)
		t_check "AF_ALG: no ALG_SET_KEY_BY_KEY_SERIAL (ENOPROTOOPT) on $(uname -r)" \
			sh -c "case \$(uname -r) in 6.[01].* | [2-5].*) ;; *) exit 1 ;; esac"
		t_skip "uid $U cannot bind the logon key to AF_ALG" "no ALG_SET_KEY_BY_KEY_SERIAL before 6.2" ;;
	*)
		t_fail "root: AF_ALG xts(aes) bound to the logon key (the control)" "$o"
		t_skip "uid $U cannot bind the logon key to AF_ALG" "the control failed" ;;
	esac
else
	t_ok "root: AF_ALG xts(aes) bound to the logon key encrypts (the control: $o)"
	refused "uid $U in root's session: AF_ALG xts(aes) by key serial of the logon key" EACCES "" \
		as_user tklocal algbind "$lid"
fi

# --- on its own -------------------------------------------------------------
refused "uid $U, own session: load of a readable blob with logon=" EPERM \
	"refused: logon= needs CAP_SYS_ADMIN" \
	as_user keyctl session - keyctl add trusted t40u "load $blob $O logon=tk:u40" @s
refused "uid $U, own session: new 32 logon=" EPERM "refused: logon= needs CAP_SYS_ADMIN" \
	as_user keyctl session - keyctl add trusted t40n "new 32 $O logon=tk:n40" @s

# --- a caller without a session keyring --------------------------------------
# A usermode helper (here the kernel's modprobe, for request_module() of a
# file system type nobody has) runs as root with the kernel's credentials: no
# session keyring. logon= must put the key in its user-session keyring
# (where request_key() looks then), not join a new session for it. Any
# other module request meanwhile goes to the real modprobe.
nosession() {
	_mp=$(cat /proc/sys/kernel/modprobe)
	cat >$D/nosess.sh <<EOS
#!/bin/sh
[ "\$3" = fs-tk40nosession ] || exec $_mp "\$@"
exec >$D/nosess.out 2>&1
$(command -v keyctl) add trusted t40ns 'load $blob $O logon=tk:ns40' @u >/dev/null &&
	$(command -v keyctl) search @us logon tk:ns40 >/dev/null && echo in-user-session
EOS
	chmod 0755 $D/nosess.sh
	rm -f $D/nosess.out
	echo "$D/nosess.sh" >/proc/sys/kernel/modprobe || return 1
	mkdir -p $D/mnt
	mount -t tk40nosession none $D/mnt >/dev/null 2>&1
	echo "$_mp" >/proc/sys/kernel/modprobe
	[ -f $D/nosess.out ] || { echo "the helper did not run" >&2; return 1; }
	cat $D/nosess.out >&2
	grep -qx in-user-session $D/nosess.out
}
t_check "root without a session keyring (a usermode helper): the logon key goes to @us" nosession

# --- keys planted beforehand -----------------------------------------------
# plant DESC PERM: uid U adds a 5-byte logon key DESC to root's session
# with permissions PERM; prints its id.
plant() {
	_p=$(printf 'abcde' | as_user keyctl padd logon "$1" @s) || return 1
	as_user keyctl setperm "$_p" "$2" || return 1
	echo "$_p"
}
# five DESC: uid U's planted key DESC still holds 5 bytes (/proc/keys).
five() {
	as_user cat /proc/keys | grep -q " logon *$1: 5\$" && return 0
	echo "planted $1: $(as_user cat /proc/keys | grep " $1:")" >&2
	return 1
}
plant tk:p40a 0x043f0000 >/dev/null	# possessor: WRITE only; owner: all
refused "root: logon= onto a planted key root may write but not search" EACCES \
	"refused: logon=: lookup of tk:p40a failed (-13)" \
	keyctl add trusted t40a "load $blob $O logon=tk:p40a" @u
untouched_a() { five tk:p40a && ! keyctl search @s trusted t40a >/dev/null 2>&1; }
t_check "... the planted key was not written (5 bytes), no trusted key t40a" untouched_a
plant tk:p40b 0x3f3f0000 >/dev/null	# possessor and owner: all
refused "root: logon= onto a planted key root may search and write" EEXIST \
	"refused: logon=: a logon key tk:p40b exists" \
	keyctl add trusted t40b "load $blob $O logon=tk:p40b" @u
t_check "... the planted key was not written (5 bytes)" five tk:p40b

# --- a session keyring of the user's (sudo without pam_keyinit) --------------
refused "root in a session keyring owned by uid $U: logon= refused" EPERM \
	"refused: logon=: the session keyring is not root's" \
	keyctl session - sh -c "keyctl chown @s $U >/dev/null &&
		keyctl add trusted t40s 'load $blob $O logon=tk:s40' @s"

# --- the logon key dies with its trusted key ---------------------------------
# life NAME HOW: a trusted key NAME with logon=tk:NAME in @u, then HOW (a
# command with $id); the logon key must die within 5 s.
life() {
	keyctl add trusted "$1" "load $blob $O logon=tk:$1" @u >/dev/null || return 1
	# shellcheck disable=SC2034  # for the command "$2" evals
	id=$(t_disk_id trusted "$1") || return 1
	t_disk_id logon "tk:$1" >/dev/null || { echo "no logon key tk:$1" >&2; return 1; }
	eval "$2" || return 1
	dead "tk:$1"
}
t_check "keyctl revoke of the trusted key: dm-crypt refuses its logon key" \
	life t40r 'keyctl revoke $id'
t_check "keyctl unlink of the trusted key from its only keyring: refused within 5 s" \
	life t40l 'keyctl unlink $id @u'
t_check "keyctl invalidate of the trusted key: refused within 5 s" \
	life t40i 'keyctl invalidate $id'
t_check "update logon=tk:t40v2: the old logon key tk:t40v is refused at once" \
	life t40v 'keyctl update $id "update $O logon=tk:t40v2" >/dev/null'
t_check "... and the new one tk:t40v2 maps" sh -c "
	dmsetup create dk40 --noudevsync --table '0 $T_DISK_LEN crypt $T_DISK_CIPHER :32:logon:tk:t40v2 0 /dev/vda $T_DISK_P20' &&
	dmsetup remove --noudevsync dk40"
t_dm_remove dk40 dk40u
