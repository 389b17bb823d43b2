#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: bad input. Garbage DER, truncated and tampered blobs,
# a missing parent, the in-tree loader's flaws (public part shorter than a
# TPMT_PUBLIC header: a heap overread there; a parent INTEGER over 32 bits:
# truncated there), unknown hashes, malformed and unsupported policies,
# bad hex and bad options. Each is refused with its errno, leaves no key,
# logs at most one line of ours, and leaves no handle in the TPM.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
LOUD=/tmp/tk2-loud
: >$LOUD

# refused NAME DATA: t_key_refused trusted, noting in $LOUD an attempt that logged
# more than one line of ours.
refused() {
	t_tpm2_dmesg_mark
	t_key_refused trusted "$@"
	_rc=$?
	_l=$(t_tpm2_dmesg_new | wc -l)
	[ "$_l" -le 1 ] || { echo "$2: $_l lines" >>$LOUD; t_tpm2_dmesg_new >>$LOUD; }
	return $_rc
}
bad() { # DESC ERRNO DATA
	t_errno "$1" "$2" refused b_x "$3"
}

if ! t_key_add trusted b_k "new 32" || ! t_key_add trusted b_p "new 32 pcrs=sha256:12"; then
	t_skip_rest "cannot seal a key"
	exit 0
fi
b=$(t_key_blob trusted b_k)
pub=$(t_tpm2_der_get "$b" 04 1)
priv=$(t_tpm2_der_get "$b" 04 2)
par=$(t_tpm2_der_get "$b" 02)
len=$((${#b} / 2))
bp=$(t_key_blob trusted b_p)
ppub=$(t_tpm2_der_get "$bp" 04 1)
ppriv=$(t_tpm2_der_get "$bp" 04 2)

bad "garbage DER: EINVAL" EINVAL "load 3003010203"
bad "garbage that is not DER: EINVAL" EINVAL "load deadbeefdeadbeef"
bad "truncated by one byte: EINVAL" EINVAL "load $(echo "$b" | cut -c1-$((2 * len - 2)))"
bad "truncated to half: EINVAL" EINVAL "load $(echo "$b" | cut -c1-$((len / 2 * 2)))"
bad "a byte after the TPMKey: EINVAL" EINVAL "load ${b}00"
bad "outer length changed: EINVAL" EINVAL "load $(t_tpm2_flip "$b" 2)"
bad "tampered private part: the TPM refuses it: EKEYREJECTED" EKEYREJECTED "load $(t_tpm2_flip "$b" $((len - 1)))"
bad "tampered public part (unique): EKEYREJECTED" EKEYREJECTED \
	"load $(t_tpm2_tpmkey "$par" "$(t_tpm2_flip "$pub" $((${#pub} / 2 - 1)))" "$priv" a003010101)"
# The loadable-key OID (tpm2_encodeobject) is read for sealed data only
# (tpm2tools/ loads such keys): with sign set the object is not.
lpub=$(echo "$pub" | cut -c1-12)$(printf '%08x' $((0x$(echo "$pub" | cut -c13-20) | 0x40000)))$(echo "$pub" | cut -c21-)
bad "loadable-key OID on an object with sign (not sealed data): EINVAL" EINVAL \
	"load $(t_tpm2_tpmkey "$par" "$lpub" "$priv" | sed 's/06066781050a0105/06066781050a0103/')"
bad "a parent the TPM does not have (0x81000002): ENOKEY" ENOKEY \
	"load $(t_tpm2_tpmkey 0081000002 "$pub" "$priv")"
bad "raw form under a missing keyhandle: ENOKEY" ENOKEY \
	"load $(t_tpm2_raw "$b") keyhandle=0x81000099"
bad "raw form without keyhandle: EINVAL" EINVAL "load $(t_tpm2_raw "$b")"
bad "parent INTEGER of 33 bits (in-tree keeps the low 32): EINVAL" EINVAL \
	"load $(t_tpm2_tpmkey 0181000001 "$pub" "$priv")"
bad "public part shorter than a TPMT_PUBLIC header (in-tree overread): EINVAL" EINVAL \
	"load $(t_tpm2_tpmkey "$par" 00020008 "$priv")"
bad "empty public and private parts: EINVAL" EINVAL "load $(t_tpm2_tpmkey "$par" "" "")"
bad "public OCTET STRING one byte longer than its TPM2B: EINVAL" EINVAL \
	"load $(t_tpm2_tpmkey "$par" "${pub}00" "$priv")"
bad "malformed policy field: EINVAL" EINVAL \
	"load $(t_tpm2_tpmkey "$par" "$pub" "$priv" a1053003020105)"
# [1] { SEQUENCE { TPMPolicy { [0] INTEGER 0x16b, [1] OCTET STRING "" } } }
bad "a policy command we cannot run (PolicyAuthValue): EINVAL" EINVAL \
	"load $(t_tpm2_tpmkey "$par" "$ppub" "$ppriv" a10e300c300aa0040202016ba1020400)"
bad "unknown hash=md5: EINVAL" EINVAL "new 32 hash=md5"
bad "unknown hash=sha3-256: EINVAL" EINVAL "new 32 hash=sha3-256"
bad "odd-length hex: EINVAL" EINVAL "load $(echo "$b" | cut -c2-)"
bad "non-hex: EINVAL" EINVAL "load $(echo "$b" | sed 's/^30/3g/')"
bad "a blob over 512 bytes: EINVAL" EINVAL "load $(printf '%01026d' 0)"
bad "keyhandle=0x01000000 (not a parent): EINVAL" EINVAL "new 32 keyhandle=0x01000000"
bad "migratable=2: EINVAL" EINVAL "new 32 migratable=2"
bad "an option twice: EINVAL" EINVAL "new 32 hash=sha1 hash=sha1"
bad "policydigest of another size than hash=: EINVAL" EINVAL \
	"new 32 hash=sha1 policydigest=$T_TPM2_POLICY_PW"
t_check "the key sealed before still loads (nothing broke)" t_key_add trusted b_l "load $b"
t_check "each refusal logged at most one line of ours" sh -c '! [ -s "$1" ] || { cat "$1" >&2; false; }' - $LOUD
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_drop b_k b_l b_p
