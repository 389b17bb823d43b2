#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: bad input. Garbage DER, truncated and tampered blobs,
# a missing parent, the in-tree loader's flaws (public part shorter than a
# TPMT_PUBLIC header: a heap overread there; a parent INTEGER over 32 bits:
# truncated there), unknown hashes, malformed and unsupported policies,
# bad hex and bad options. Each is refused with its errno, leaves no key,
# logs at most one line of ours, and leaves no handle in the TPM.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
tk2_begin || exit 0
LOUD=/tmp/tk2-loud
: >$LOUD

# refused NAME DATA: tk_refused, noting in $LOUD an attempt that logged
# more than one line of ours.
refused() {
	tk2_dmesg_mark
	tk_refused "$@"
	_rc=$?
	_l=$(tk2_dmesg_new | wc -l)
	[ "$_l" -le 1 ] || { echo "$2: $_l lines" >>$LOUD; tk2_dmesg_new >>$LOUD; }
	return $_rc
}
bad() { # DESC ERRNO DATA
	t_errno "$1" "$2" refused b_x "$3"
}

if ! tk_add b_k "new 32" || ! tk_add b_p "new 32 pcrs=sha256:12"; then
	t_skip_rest "cannot seal a key"
	exit 0
fi
b=$(tk_blob b_k)
pub=$(tk2_der_get "$b" 04 1)
priv=$(tk2_der_get "$b" 04 2)
par=$(tk2_der_get "$b" 02)
len=$((${#b} / 2))
bp=$(tk_blob b_p)
ppub=$(tk2_der_get "$bp" 04 1)
ppriv=$(tk2_der_get "$bp" 04 2)

bad "garbage DER: EINVAL" EINVAL "load 3003010203"
bad "garbage that is not DER: EINVAL" EINVAL "load deadbeefdeadbeef"
bad "truncated by one byte: EINVAL" EINVAL "load $(echo "$b" | cut -c1-$((2 * len - 2)))"
bad "truncated to half: EINVAL" EINVAL "load $(echo "$b" | cut -c1-$((len / 2 * 2)))"
bad "a byte after the TPMKey: EINVAL" EINVAL "load ${b}00"
bad "outer length changed: EINVAL" EINVAL "load $(tk2_flip "$b" 2)"
bad "tampered private part: the TPM refuses it: EPERM" EPERM "load $(tk2_flip "$b" $((len - 1)))"
bad "tampered public part (unique): EPERM" EPERM \
	"load $(tk2_tpmkey "$par" "$(tk2_flip "$pub" $((${#pub} / 2 - 1)))" "$priv" a003010101)"
# The loadable-key OID (tpm2_encodeobject) is read for sealed data only
# (tpm2tools/ loads such keys): with sign set the object is not.
lpub=$(echo "$pub" | cut -c1-12)$(printf '%08x' $((0x$(echo "$pub" | cut -c13-20) | 0x40000)))$(echo "$pub" | cut -c21-)
bad "loadable-key OID on an object with sign (not sealed data): EINVAL" EINVAL \
	"load $(tk2_tpmkey "$par" "$lpub" "$priv" | sed 's/06066781050a0105/06066781050a0103/')"
bad "a parent the TPM does not have (0x81000002): ENOKEY" ENOKEY \
	"load $(tk2_tpmkey 0081000002 "$pub" "$priv")"
bad "raw form under a missing keyhandle: ENOKEY" ENOKEY \
	"load $(tk2_raw "$b") keyhandle=0x81000099"
bad "raw form without keyhandle: EINVAL" EINVAL "load $(tk2_raw "$b")"
bad "parent INTEGER of 33 bits (in-tree keeps the low 32): EINVAL" EINVAL \
	"load $(tk2_tpmkey 0181000001 "$pub" "$priv")"
bad "public part shorter than a TPMT_PUBLIC header (in-tree overread): EINVAL" EINVAL \
	"load $(tk2_tpmkey "$par" 00020008 "$priv")"
bad "empty public and private parts: EINVAL" EINVAL "load $(tk2_tpmkey "$par" "" "")"
bad "public OCTET STRING one byte longer than its TPM2B: EINVAL" EINVAL \
	"load $(tk2_tpmkey "$par" "${pub}00" "$priv")"
bad "malformed policy field: EINVAL" EINVAL \
	"load $(tk2_tpmkey "$par" "$pub" "$priv" a1053003020105)"
# [1] { SEQUENCE { TPMPolicy { [0] INTEGER 0x16b, [1] OCTET STRING "" } } }
bad "a policy command we cannot run (PolicyAuthValue): EINVAL" EINVAL \
	"load $(tk2_tpmkey "$par" "$ppub" "$ppriv" a10e300c300aa0040202016ba1020400)"
bad "unknown hash=md5: EINVAL" EINVAL "new 32 hash=md5"
bad "unknown hash=sha3-256: EINVAL" EINVAL "new 32 hash=sha3-256"
bad "odd-length hex: EINVAL" EINVAL "load $(echo "$b" | cut -c2-)"
bad "non-hex: EINVAL" EINVAL "load $(echo "$b" | sed 's/^30/3g/')"
bad "a blob over 512 bytes: EINVAL" EINVAL "load $(printf '%01026d' 0)"
bad "keyhandle=0x01000000 (not a parent): EINVAL" EINVAL "new 32 keyhandle=0x01000000"
bad "migratable=2: EINVAL" EINVAL "new 32 migratable=2"
bad "an option twice: EINVAL" EINVAL "new 32 hash=sha1 hash=sha1"
bad "policydigest of another size than hash=: EINVAL" EINVAL \
	"new 32 hash=sha1 policydigest=$TK2_POLICY_PW"
t_check "the key sealed before still loads (nothing broke)" tk_add b_l "load $b"
t_check "each refusal logged at most one line of ours" sh -c '! [ -s "$1" ] || { cat "$1" >&2; false; }' - $LOUD
t_check "no transient object or session left in the TPM" \
	tk_eq "objects, loaded and saved sessions" "$(tk2_leftovers)" "0 0 0"
tk_drop b_k b_l b_p
