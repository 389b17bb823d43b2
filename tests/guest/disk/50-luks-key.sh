#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An existing volume key (a LUKS2 volume's) sealed by the TPM and opened at
# boot, both TPMs: import= seals exactly the given bytes (keyctl pipe gives
# the blob; load with logon= keys a dm-crypt mapping that reads what one
# keyed directly with those bytes reads); keydigest= (LUKS2's pbkdf2 digest,
# values computed with Python's hashlib.pbkdf2_hmac) lets the right key
# through and refuses another volume's digest, a wrong salt or wrong
# iterations with EKEYREJECTED, leaving no trusted and no logon key; on the
# test kernel the in-tree trusted.ko loads an import= blob too. The time of
# a 100,000-iteration SHA-256 keydigest= check is printed (a "# " line).
# TPM 2.0, pcrcap=15: with PCR 15 capped (extended through /dev/tpm0), a key
# sealed to pcrs=sha256:0 pcrcap=15 does not load in this boot (EPERM); its
# blob's PolicyPCR selects PCRs 0 and 15 with the digest of PCR 0 and 32
# zero bytes; phase 2 (the next boot, same TPM) loads it, before the cap,
# with the same key bytes; after the cap it is EPERM again.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"
. "$here/../lib/tpm2.sh"

t_require ours
if [ "${TKH_PHASE:-1}" = 2 ] && [ "$TKH_TPM" != 2.0 ]; then
	t_skip_all "phase 2: pcrcap= is TPM 2.0 only"
fi
t_disk_begin impl
O=$(t_disk_opts)
t_dm_remove dk50 dk50d

# The volume key and its LUKS2 "pbkdf2" digest (sha256, 1000 iterations):
# hashlib.pbkdf2_hmac('sha256', K, S, 1000, 32); D2 is another volume's
# (K2 = sha256(b'another volume, disk/50')) with the same salt.
K=9a7e9ce8fa6798f4f04beeca0a5abb8ea443d08c49ef8c1909ef8c708dd79369
S=c303b3b1e5d1eee2f23be53e629a594ac08badf1c7ed98f6507424bcefd6fac3
D=f454fb8a95d6cbdee25f8331c4c73dca8d4a63f7bef16155c5a789ccbe41ccc3
D100K=ff812bd81ccf95e218b5d15d504cdc2a03602c43e7ead80f639bd0bf200aa19b
D2=356054777e290fafbf7021bec696434d80ea035f57ca66d407f6ff1e2d409959
K2=0d90181e56c8bd9e198f92deea73a47a93b8be2200bef09e9c90624e385ab3ef
S_BAD=c303b3b1e5d1eee2f23be53e629a594ac08badf1c7ed98f6507424bcefd6fac4
KD="keydigest=pbkdf2:sha256:1000:$S:$D"

# the sha256 of what KEYSPEC's mapping reads in its first 64 KiB at MiB 8
# (read only: the data there is 10-logon's and 20-persist's)
reads() {
	_dev=$(t_disk_map dk50 "$1" "$T_DISK_P20") || return 1
	dd if="$_dev" bs=65536 count=1 2>/dev/null | sha256sum | cut -d' ' -f1
	t_dm_remove dk50
}
DIRECT=$(reads "$K")

# same_as_direct KEYSPEC: the mapping reads what the one keyed with K reads
same_as_direct() {
	[ -n "$DIRECT" ] || { echo "no direct mapping" >&2; return 1; }
	t_eq "the mapping reads" "$(reads "$1")" "$DIRECT"
}

# no_logon DESC: no logon key DESC in the session keyring
no_logon() {
	! t_disk_id logon "$1" >/dev/null || { echo "a logon key $1 exists" >&2; return 1; }
}

# refused NAME DATA LOGON: for t_errno: fails (keyctl's message on stderr)
# when the add failed and left no trusted key NAME and no logon key LOGON
refused() {
	if t_key_refused trusted "$1" "$2"; then
		return 0
	fi
	no_logon "$3" || return 0
	return 1
}

# centiseconds since boot
now_cs() {
	cut -d' ' -f1 /proc/uptime | tr -d . | sed 's/^0*//'
}

# TPM2_PCR_Extend of PCR 15's sha256 bank (any value: S), as the
# initramfs caps it: handle, a password session (TPM_RS_PW, empty), one
# TPMT_HA
tpm2_extend15() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8002 00000182 "0000000f""00000009""40000009""0000""00""0000""00000001""000b$S")")
	t_eq "PCR_Extend's response code" "$(t_tpm2_rc "$_r")" 00000000
}
ZERO64=0000000000000000000000000000000000000000000000000000000000000000

phase1() {
	OTHER=$(reads "$K2")
	t_check "the direct mappings with K and another key read apart" \
		sh -c "[ -n '$DIRECT' ] && [ -n '$OTHER' ] && [ '$DIRECT' != '$OTHER' ]"

	# import=: new seals K; the blob in hex
	t_check "new 32 import=K logon=lk:n50" keyctl add trusted n50 "new 32 $O import=$K logon=lk:n50" @u
	blob=$(t_key_blob trusted n50 2>/dev/null)
	t_check "keyctl pipe gives the blob" [ ${#blob} -gt 64 ]
	t_check "':32:logon:lk:n50' reads what the key K reads" same_as_direct :32:logon:lk:n50
	printf '%s\n' "$blob" | t_state_save disk-l50
	keyctl revoke "$(t_key_id trusted n50)" >/dev/null 2>&1
	t_key_drop trusted n50

	t_check "load of the blob with keydigest= (right) and logon=lk:l50" \
		keyctl add trusted l50 "load $blob $O $KD logon=lk:l50" @u
	t_check "':32:logon:lk:l50' reads what the key K reads" same_as_direct :32:logon:lk:l50
	t_errno "the sha256 digest given as pbkdf2:sha1: EKEYREJECTED" EKEYREJECTED \
		refused w50 "load $blob $O keydigest=pbkdf2:sha1:1000:$S:$D logon=lk:w50" lk:w50
	t_errno "another volume's digest: EKEYREJECTED, no key, no logon key" EKEYREJECTED \
		refused w50 "load $blob $O keydigest=pbkdf2:sha256:1000:$S:$D2 logon=lk:w50" lk:w50
	t_errno "a wrong salt: EKEYREJECTED, no key, no logon key" EKEYREJECTED \
		refused w50 "load $blob $O keydigest=pbkdf2:sha256:1000:$S_BAD:$D logon=lk:w50" lk:w50
	t_errno "wrong iterations (1001): EKEYREJECTED, no key, no logon key" EKEYREJECTED \
		refused w50 "load $blob $O keydigest=pbkdf2:sha256:1001:$S:$D logon=lk:w50" lk:w50
	t_check "  ... and no logon key lk:w50 at the end" no_logon lk:w50

	# new with import= and keydigest=: checked before the seal
	t_check "new 32 import=K with its keydigest=" t_key_add trusted i50 "new 32 $O import=$K $KD"
	t_errno "new 32 import=K with another volume's digest: EKEYREJECTED, nothing made" EKEYREJECTED \
		refused x50 "new 32 $O import=$K keydigest=pbkdf2:sha256:1000:$S:$D2 logon=lk:x50" lk:x50
	t_errno "import= of 32 bytes with new 48: EINVAL" EINVAL t_key_refused trusted x50 "new 48 $O import=$K"
	t_errno "import= with load: EINVAL" EINVAL t_key_refused trusted x50 "load $blob $O import=$K"
	t_errno "keydigest= with new but no import=: EINVAL" EINVAL t_key_refused trusted x50 "new 32 $O $KD"

	# the cost of a LUKS2-sized digest check
	t0=$(now_cs)
	keyctl add trusted t50 "load $blob $O keydigest=pbkdf2:sha256:100000:$S:$D100K" @u >/dev/null
	rc=$?
	t1=$(now_cs)
	keyctl add trusted t50b "load $blob $O" @u >/dev/null
	t2=$(now_cs)
	t_check "a 100,000-iteration sha256 keydigest= check passes" [ "$rc" = 0 ]
	echo "# keydigest=pbkdf2:sha256:100000 on $TKH_KERNEL, TPM $TKH_TPM: load $(((t1 - t0) * 10)) ms, without keydigest= $(((t2 - t1) * 10)) ms: the check $(((t1 - t0 - t2 + t1) * 10)) ms"
	t_key_drop trusted l50 i50 t50 t50b

	if [ "$TKH_TPM" = 2.0 ]; then
		pcrcap1
	else
		t_errno "TPM 1.2: pcrcap=: EINVAL" EINVAL t_key_refused trusted c50 "new 32 pcrcap=15"
	fi

	if [ "$TKH_KERNEL" = test ] && [ -n "$TKH_REF" ]; then
		t_check "in-tree trusted.ko loads the import= blob: ':32:trusted:' reads what K reads" interop
	else
		t_skip "in-tree trusted.ko loads the import= blob" "no in-tree trusted.ko on $TKH_KERNEL"
	fi
}

interop() {
	t_mods_ref >&2 || return 1
	t_mod_load dm-crypt >&2 || return 1
	keyctl add trusted r50 "load $blob $O" @u >/dev/null || return 1
	same_as_direct :32:trusted:r50
	_rc=$?
	t_key_drop trusted r50
	t_mods_none >/dev/null 2>&1
	return $_rc
}

# policy_body BLOB: the CommandPolicy of the blob's first TPMPolicy
policy_body() {
	_seq=$(t_tpm2_der_get "$1" a1) || return 1
	_pol=$(t_tpm2_der_fields "$_seq" | awk 'NR == 1 { print $2 }')
	_pol=$(t_tpm2_der_fields "30$(printf '%02x' $((${#_pol} / 2)))$_pol" | awk '$1 == "a1" { print $2 }')
	echo "$_pol" | cut -c5-
}

pcrcap1() {
	if [ "$(t_tpm2_pcr 15)" = "$ZERO64" ]; then
		t_check "PCR 15 capped (PCR_Extend through /dev/tpm0)" tpm2_extend15
	else
		t_skip "PCR 15 capped" "it already was: $(t_tpm2_pcr 15)"
	fi
	t_check "new 32 import=K pcrs=sha256:0 pcrcap=15, PCR 15 capped" \
		t_key_add trusted c50 "new 32 $O import=$K pcrs=sha256:0 pcrcap=15"
	cblob=$(t_key_blob trusted c50 2>/dev/null)
	printf '%s\n' "$cblob" | t_state_save disk-c50
	want="0020$(t_unhex "$(t_tpm2_pcr 0)$ZERO64" | sha256sum | cut -d' ' -f1)00000001000b03018000"
	t_check "its PolicyPCR: PCRs 0 and 15, the digest of PCR 0 and 32 zero bytes" \
		t_eq "CommandPolicy" "$(policy_body "$cblob")" "$want"
	t_errno "it does not load in this boot: EPERM" EPERM t_key_refused trusted c50l "load $cblob"
	t_errno "pcrcap= without pcrs=: EINVAL" EINVAL t_key_refused trusted c50x "new 32 $O pcrcap=15"
	t_errno "pcrcap=16: EINVAL" EINVAL t_key_refused trusted c50x "new 32 $O pcrs=sha256:0 pcrcap=16"
	t_errno "pcrcap= on load: EINVAL" EINVAL t_key_refused trusted c50x "load $cblob pcrcap=15"
	t_check "no transient object or session left in the TPM" \
		t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
	t_key_drop trusted c50
}

phase2() {
	cblob=$(t_state_get disk-c50) || { t_skip_rest "phase 1 saved no pcrcap blob"; return; }
	t_check "phase 2: PCR 15 is at its reset value" t_eq "PCR 15" "$(t_tpm2_pcr 15)" "$ZERO64"
	t_check "phase 2: the pcrcap=15 blob loads before the cap, keydigest= right, logon=lk:c50" \
		keyctl add trusted c50 "load $cblob $KD logon=lk:c50" @u
	t_check "  ... ':32:logon:lk:c50' reads what the key K reads" same_as_direct :32:logon:lk:c50
	t_key_drop trusted c50
	t_check "phase 2: PCR 15 capped" tpm2_extend15
	t_errno "  ... then the blob does not load: EPERM" EPERM t_key_refused trusted c50 "load $cblob"
	t_check "no transient object or session left in the TPM" \
		t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
t_dm_remove dk50 dk50d
