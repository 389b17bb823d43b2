#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1, ours: dictionary attacks. A sealed object without
# blobauth= is noDA, one with a PIN is not; the SRK the harness provisions
# (as docs/install.md makes it) is noDA. With the TPM's maxTries set to 10
# (TPM2_DictionaryAttackParameters, recovery 600 s), uid 65534 tries wrong
# PINs on its own PIN key: EACCES while the lockout counter is below 5, then
# EBUSY with one log line, and the counter (TPM2_GetCapability) never
# reaches maxTries; root's keys still load, root's own wrong PIN is still
# tried. Then root puts the TPM in lockout with wrong PINs: every key
# without a PIN (default, pcrs=, the 0x40000001 primary, uid 65534's) still
# loads, a PIN key is EBUSY. The provisioned DA parameters are restored.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
if [ "$(t_impl)" = ref ]; then
	t_tpm2_begin "the in-tree module sets no noDA and limits no caller"
else
	t_tpm2_begin
fi
T_USER=nobody
T_USER_ID=65534
if ! t_user_setup; then
	t_skip_all "cannot run as uid 65534 (busybox su)"
fi

noda() { # BLOB WANT(0|1024)
	t_eq "noDA" $((0x$(t_tpm2_attrs "$1") & 0x400)) "$2"
}
# user_new OPTIONS: the blob of a new trusted key uid 65534 makes (in a
# session keyring of its own: it possesses the key, so it may read it).
user_new() {
	t_as_user keyctl session - sh -c \
		"keyctl add trusted u_new 'new 32 $1' @s >/dev/null && keyctl pipe \$(keyctl search @s trusted u_new)"
}
# try_user PIN: load uid 65534's PIN key with PIN; prints the errno name.
try_user() {
	_e=$(t_as_user keyctl add trusted u_x "load $ub blobauth=$1" @u 2>&1 >/dev/null) &&
		{ echo ok; return; }
	case $_e in
	*"Permission denied"*) echo EACCES ;;
	*"Operation not permitted"*) echo EPERM ;;
	*"Device or resource busy"*) echo EBUSY ;;
	*) echo "other: $_e" ;;
	esac
}
try_root() { # PIN
	if t_key_refused trusted r_x "load $rb blobauth=$1" 2>/tmp/da.err; then
		echo ok
	elif grep -q "Permission denied" /tmp/da.err; then
		echo EACCES
	elif grep -q "Operation not permitted" /tmp/da.err; then
		echo EPERM
	elif grep -q "Device or resource busy" /tmp/da.err; then
		echo EBUSY
	else
		echo "other: $(cat /tmp/da.err)"
	fi
}
counter() {
	_s=$(t_tpm2_da_state) && echo "${_s% *}"
}

t_check "new 32: the object is noDA (no authValue to guess)" \
	t_key_add trusted r_np "new 32"
rnp=$(t_key_blob trusted r_np)
t_check "  ... noDA set" noda "$rnp" 1024
t_check "new 32 pcrs=sha256:16: noDA too" t_key_add trusted r_pcr "new 32 pcrs=sha256:16"
t_check "  ... noDA set" noda "$(t_key_blob trusted r_pcr)" 1024
t_check "new 32 keyhandle=0x40000001: noDA too" t_key_add trusted r_own "new 32 keyhandle=0x40000001"
rown=$(t_key_blob trusted r_own)
t_check "new 32 blobauth=<PIN>: DA-protected (no noDA)" t_key_add trusted r_pin "new 32 blobauth=4711"
rb=$(t_key_blob trusted r_pin)
t_check "  ... noDA clear" noda "$rb" 0
if t_tpm2_srk_present; then
	t_check "the SRK at 0x81000001 is noDA (the TCG template)" \
		t_eq "SRK noDA" $((0x$(t_tpm2_public_attrs $T_TPM2_SRK) & 0x400)) 1024
else
	t_skip "the SRK at 0x81000001 is noDA (the TCG template)" "this TPM has no SRK"
fi

ub=$(user_new blobauth=4711)
unp=$(user_new "")
t_check "uid 65534: its own PIN key, and one without a PIN" test -n "$ub" -a -n "$unp"

da_ten() {
	t_tpm2_da_reset && t_tpm2_da_params 10 600 600
}
t_check "DA: counter reset, maxTries 10, recovery 600 s" da_ten

# uid 65534 tries wrong PINs until it is stopped.
t_tpm2_dmesg_mark
tries=0 peak=0 last='' seq=''
while [ $tries -lt 12 ]; do
	tries=$((tries + 1))
	last=$(try_user "w$tries")
	c=$(counter) || { last="no counter"; break; }
	[ "$c" -gt "$peak" ] && peak=$c
	seq="$seq $last:$c"
	[ "$last" = EACCES ] || break
done
echo "# uid 65534's tries (errno:counter):$seq" >&2
t_check "uid 65534: 5 wrong PINs EACCES, the 6th refused EBUSY (half of maxTries 10)" \
	t_eq "tries, last" "$tries $last" "6 EBUSY"
t_check "  ... the lockout counter never reached maxTries (peak $peak of 10)" \
	t_eq "peak" "$peak" 5
t_check "  ... one line of ours says why" \
	t_eq "lines" "$(t_tpm2_dmesg_new | grep -c 'refused without CAP_SYS_ADMIN')" 1
t_check "  ... its right PIN is refused too (EBUSY): the rest is root's" \
	t_eq "errno" "$(try_user 4711)" EBUSY
t_check "  ... its key without a PIN (noDA) still loads" t_user_add u_l "load $unp"
t_check "root: the key without a PIN loads" t_key_add trusted r_l "load $rnp"
t_check "root: its PIN key loads with the right PIN" t_eq "load" "$(try_root 4711)" ok
t_check "root: a wrong PIN is still tried (EACCES, not EBUSY)" t_eq "load" "$(try_root 0815)" EACCES
t_check "  ... counter now 6 of 10" t_eq "counter" "$(counter)" 6

# root puts the TPM in lockout.
n=0 last=''
while [ $n -lt 8 ]; do
	n=$((n + 1))
	last=$(try_root "x$n")
	[ "$last" = EACCES ] || break
done
t_check "root: 4 more wrong PINs EACCES, then the TPM is in lockout (EBUSY)" \
	t_eq "tries, last" "$n $last" "5 EBUSY"
t_check "  ... the counter is at maxTries" t_eq "counter" "$(counter)" 10
t_check "in lockout: the default key (noDA, noDA SRK) loads" t_key_add trusted r_l2 "load $rnp"
t_check "in lockout: the pcrs= key loads" t_key_add trusted r_l3 "load $(t_key_blob trusted r_pcr)"
t_check "in lockout: the 0x40000001 key loads" t_key_add trusted r_l4 "load $rown"
t_check "in lockout: uid 65534's key without a PIN loads" t_user_add u_l2 "load $unp"
t_check "in lockout: uid 65534 makes a key without a PIN" t_user_add u_n2 "new 32"
t_check "in lockout: root's PIN key, right PIN: EBUSY" t_eq "load" "$(try_root 4711)" EBUSY

t_check "DA counter reset, provisioned parameters restored" t_tpm2_da_restore
t_check "root's PIN key loads again" t_eq "load" "$(try_root 4711)" ok
t_check "uid 65534's PIN key loads again" t_eq "load" "$(try_user 4711)" ok
t_check "no transient object or session left" t_eq "leftovers" "$(t_tpm2_leftovers)" "0 0 0"
t_drop r_np r_pcr r_own r_pin r_l r_l2 r_l3 r_l4
rm -f /tmp/da.err
