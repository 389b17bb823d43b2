#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input on a TPM 1.2 (phase 1): malformed, truncated, oversized and
# tampered blobs, unknown commands and options, duplicate options, bad
# keyauth/blobauth/keyhandle/pcrinfo/pcrlock/migratable values, payloads
# over 32767 bytes. After every refused add no key of that name exists.
# Sizes are in 20-sizes.sh, pcrlock without CAP_SYS_ADMIN in
# 10-options.sh, wrong authorisations in 90-wrong-auth.sh.
#
# Deliberate differences from the in-tree module (these fail against it):
# odd-length hex (blob, pcrinfo) and corrupted size fields are EINVAL here;
# the in-tree module drops the odd digit and sends whatever it was given
# to the TPM.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

t_require tpm 1.2
t_require phase 1
t_require impl
t_mods test ref-if-any

if ! t_key_add trusted b_k "new 32" || ! B=$(t_key_blob trusted b_k) || [ ${#B} -lt 40 ]; then
	t_skip_all "could not make a key to corrupt"
fi
L=${#B}
H=$((L / 2))

# Hex surgery on the blob: put TWO hex digits at byte OFFSET.
put() {
	echo "$B" | cut -c1-$((2 * $1))
	echo "$2"
	echo "$B" | cut -c$((2 * $1 + 3))-
}
patched() {
	put "$1" "$2" | tr -d '\n'
}
last=$(echo "$B" | cut -c"$((L - 1))-$L")
flipped=$(patched $((H - 1)) "$(printf %02x $((0x$last ^ 1)))")
sealinfo=$(t_u32_at "$B" 4)
encsize_at=$((8 + sealinfo))	# byte offset of encDataSize
encsize=$(t_u32_at "$B" $encsize_at)
bigger=$(printf %08x $((encsize + 256)))
badsize=$(echo "$B" | cut -c1-$((2 * encsize_at)))$bigger$(echo "$B" | cut -c$((2 * encsize_at + 9))-)
badinfo=$(echo "$B" | cut -c1-8)00000010$(echo "$B" | cut -c17-)
pad600=$(head -c 600 /dev/zero | od -An -tx1 -v | tr -d ' \n')

t_check "control: the unmodified blob loads" t_key_add trusted b_ok "load $B"
t_errno "blob with non-hex digits" EINVAL t_key_refused trusted b_1 "load $(patched 50 zz)"
t_errno "blob of odd length (a digit appended)" EINVAL t_key_refused trusted b_2 "load ${B}0"
t_errno "blob of odd length (last digit dropped)" EINVAL \
	t_key_refused trusted b_3 "load $(echo "$B" | cut -c1-$((L - 1)))"
t_check "truncated blob (first 100 bytes) refused" \
	t_rejected b_4 "load $(echo "$B" | cut -c1-200)"
t_check "truncated blob (last byte missing) refused" \
	t_rejected b_5 "load $(echo "$B" | cut -c1-$((L - 2)))"
t_errno "blob over 512 bytes" EINVAL t_key_refused trusted b_6 "load $pad600"
t_errno "blob of 513 bytes (the blob, padded)" EINVAL \
	t_key_refused trusted b_7 "load $B$(echo "$pad600" | cut -c1-$((1026 - L)))"
t_check "tampered blob (a byte of encData flipped) refused" \
	t_rejected b_8 "load $flipped"
t_errno "blob with a corrupted encDataSize" EINVAL t_key_refused trusted b_9 "load $badsize"
t_errno "blob with a corrupted sealInfoSize" EINVAL t_key_refused trusted b_10 "load $badinfo"

t_errno "empty payload" EINVAL t_key_refused trusted b_11 ""
t_errno "unknown command" EINVAL t_key_refused trusted b_12 "renew 32"
t_errno "update as a command to add" EINVAL t_key_refused trusted b_13 "update"
t_errno "load without a blob" EINVAL t_key_refused trusted b_14 "load"
t_errno "unknown option" EINVAL t_key_refused trusted b_15 "new 32 foo=bar"
t_errno "option without =value" EINVAL t_key_refused trusted b_16 "new 32 migratable"
t_errno "option with an empty value" EINVAL t_key_refused trusted b_17 "new 32 keyauth="
t_errno "duplicate option" EINVAL \
	t_key_refused trusted b_18 "new 32 migratable=1 migratable=1"
t_errno "duplicate option on load" EINVAL \
	t_key_refused trusted b_19 "load $B keyhandle=$T_SRK keyhandle=$T_SRK"

Z39=$(echo $T_Z40 | cut -c2-)
t_errno "keyauth of 39 hex digits" EINVAL t_key_refused trusted b_20 "new 32 keyauth=$Z39"
t_errno "keyauth of 42 hex digits" EINVAL t_key_refused trusted b_21 "new 32 keyauth=${T_Z40}00"
t_errno "keyauth of 40 non-hex characters" EINVAL \
	t_key_refused trusted b_22 "new 32 keyauth=${Z39}g"
t_errno "blobauth of 38 hex digits" EINVAL \
	t_key_refused trusted b_23 "new 32 blobauth=$(echo $T_Z40 | cut -c3-)"
t_errno "blobauth of 40 non-hex characters" EINVAL \
	t_key_refused trusted b_24 "new 32 blobauth=${Z39}x"
t_errno "keyhandle not hex" EINVAL t_key_refused trusted b_25 "new 32 keyhandle=srk"
t_errno "keyhandle=0" EINVAL t_key_refused trusted b_26 "new 32 keyhandle=0"
t_errno "keyhandle of no loaded key: the TPM refuses" EPERM \
	t_key_refused trusted b_27 "new 32 keyhandle=12345678"
t_errno "pcrinfo over 64 bytes" EINVAL \
	t_key_refused trusted b_28 "new 32 pcrinfo=$(echo "$pad600" | cut -c1-130)"
t_errno "pcrinfo not hex" EINVAL t_key_refused trusted b_29 "new 32 pcrinfo=0003zz"
t_errno "pcrinfo of odd length" EINVAL \
	t_key_refused trusted b_30 "new 32 pcrinfo=$(t_pcrinfo_raw 23 "$T_Z40")0"
t_errno "pcrlock not a number" EINVAL t_key_refused trusted b_31 "new 32 pcrlock=x"
t_errno "pcrlock=24: no such PCR" EINVAL t_key_refused trusted b_32 "new 32 pcrlock=24"
t_errno "migratable=2" EINVAL t_key_refused trusted b_33 "new 32 migratable=2"
t_errno "hash=md5 (TPM 1.2 seals with sha1 only)" EINVAL t_key_refused trusted b_34 "new 32 hash=md5"

base="new 32"
pad=$(head -c $((32767 - ${#base})) /dev/zero | tr '\0' ' ')
t_check "payload of exactly 32767 bytes accepted" t_key_add trusted b_35 "$base$pad"
t_errno "payload of 32768 bytes" EINVAL t_key_refused trusted b_36 "$base$pad "
pad=$(head -c 40000 /dev/zero | tr '\0' ' ')
t_errno "payload of 40006 bytes" EINVAL t_key_refused trusted b_37 "$base$pad"
t_check "control: the blob still loads after all that" t_key_add trusted b_38 "load $B"

t_drop b_k b_ok b_35 b_38
