#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression (issue 9, review finding 1): "hierarchy-password oracle".
# With a hierarchy as the parent we ran TPM2_CreatePrimary authorised
# with keyauth= as the hierarchy's password; hierarchies are exempt from
# dictionary-attack lockout, so any user could guess the owner password
# at full speed with add_key. Now: endorsement and platform are refused
# (EINVAL), owner and null take a non-empty keyauth= only from
# CAP_SYS_ADMIN (EPERM, before any TPM command), and the default parent
# still works for everyone while the owner password is empty. The owner
# password is set for the test (TPM2_HierarchyChangeAuth through
# /dev/tpm0) and cleared again.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
PW=$T_TPM2_BA
WRONG=33221100ffeeddccbbaa99887766554433221100

# owner_pw OLD NEW: TPM2_HierarchyChangeAuth of the owner hierarchy.
owner_pw() {
	_a=$(printf '%04x%s' $((${#1} / 2)) "$1")
	_s=$(printf '%08x' $((7 + ${#_a} / 2)))400000090000"00$_a"
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000129 "40000001$_s$(printf '%04x%s' $((${#2} / 2)) "$2")")")
	t_eq "HierarchyChangeAuth" "$(t_tpm2_rc "$_r")" 00000000
}
user_ok=
t_user_setup && user_ok=1
as_user() { # DESC ERRNO|ok NAME DATA
	if [ -z "$user_ok" ]; then
		t_skip "$1" "cannot run as an unprivileged user (busybox su)"
	elif [ "$2" = ok ]; then
		t_check "$1" t_user_add "$3" "$4"
	else
		t_errno "$1" "$2" t_user_refused "$3" "$4"
	fi
}

t_errno "keyhandle=0x4000000b (endorsement): EINVAL" EINVAL t_key_refused trusted h_x "new 32 keyhandle=0x4000000b"
t_errno "keyhandle=0x4000000c (platform): EINVAL" EINVAL t_key_refused trusted h_x "new 32 keyhandle=0x4000000c"
t_key_add trusted h_o "new 32 keyhandle=0x40000001"
bo=$(t_key_blob trusted h_o)
be=$(t_tpm2_tpmkey 4000000b "$(t_tpm2_der_get "$bo" 04 1)" "$(t_tpm2_der_get "$bo" 04 2)" a0030101ff)
t_errno "a blob naming the endorsement hierarchy: EINVAL" EINVAL t_key_refused trusted h_x "load $be"
as_user "unprivileged, empty owner password: the default parent works" ok h_u1 "new 32"
as_user "unprivileged: keyhandle=0x40000001 without keyauth works" ok h_u2 "new 32 keyhandle=0x40000001"
as_user "unprivileged: keyauth=<40 zeros> is no password: works" ok h_u3 "new 32 keyhandle=0x40000001 keyauth=$T_Z40"

if owner_pw "" "$PW" >&2; then
	as_user "unprivileged, the right owner password: EPERM (no oracle)" EPERM h_u4 \
		"new 32 keyhandle=0x40000001 keyauth=$PW"
	as_user "unprivileged, null hierarchy with a keyauth: EPERM" EPERM h_u5 \
		"new 32 keyhandle=0x40000007 keyauth=$PW"
	as_user "unprivileged, load of an owner-parent blob with keyauth: EPERM" EPERM h_u6 \
		"load $bo keyauth=$PW"
	t_check "root, the right owner password: new" t_key_add trusted h_r "new 32 keyhandle=0x40000001 keyauth=$PW"
	t_check "  ... and load with it" t_key_add trusted h_r2 "load $(t_key_blob trusted h_r) keyauth=$PW"
	t_errno "root, a wrong owner password: the TPM refuses: EACCES" EACCES \
		t_key_refused trusted h_x "new 32 keyhandle=0x40000001 keyauth=$WRONG"
	t_check "owner password cleared again" owner_pw "$PW" ""
else
	t_skip_n 7 "cannot set an owner password"
	owner_pw "$PW" "" >/dev/null 2>&1
fi
[ -z "$user_ok" ] || t_as_user keyctl clear @u >/dev/null 2>&1
t_tpm2_da_reset
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_drop h_o h_r h_r2
