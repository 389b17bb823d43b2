# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the EVM boot suite; sourced after lib.sh, lib/trusted.sh
# and lib/tpm2.sh, never run. The suite runs on the EVM kernels
# only (build-kernel.sh evm-ref | evm): both key types, EVM, IMA and
# dm-crypt built in. The boot flow is dracut's (97masterkey, 98integrity):
#   keyctl add trusted kmk "load <blob> pcrlock=11"  (sealed to PCR 11)
#   keyctl add encrypted evm-key "load <blob>"       (under trusted:kmk)
#   echo 1 > /sys/kernel/security/evm
# The kmk is sealed to PCR 11 as it is at boot, and its load extends PCR 11
# (pcrlock=, as dracut does): nothing later in the boot unseals it again.
# The loaded kmk stays linked to root's user session keyring (@us) for the
# rest of the boot (the init clears @u between scripts): T_EVM_KMK_ID.
# Disk layout of /dev/vda (the machine's scratch disk, made by host-step):
#   MiB 0-31 ext2 (security xattrs), MiB 32 and 33 two dm-crypt volumes.

T_EVM_PCR=11
T_EVM_KMK_ID=/tmp/evm-kmk.id
T_EVM_MNT=/mnt/evm
T_EVM_SECFS=/sys/kernel/security
T_EVM_DM_START=65536
# The EVM HMAC key, 32 bytes given as user data ("new ... 32 <hex>", as
# ima-evm-utils' own test does): the test can then compute the HMAC the
# kernel must have written (t_evm_hmac_expect). Test-only: a real boot makes
# it with "new default trusted:kmk 32".
T_EVM_KEY_HEX=5b6c2a1f0e9d8c7b6a5948372615f4e3d2c1b0a99887766554433221100ffeed

# t_evm_impl: the key types under test: ours (kernel evm, the patched tree)
# or ref (kernel evm-ref, the unpatched in-tree ones).
t_evm_impl() {
	case $TKH_KERNEL in
	evm) echo ours ;;
	*) echo ref ;;
	esac
}

# t_evm_begin: skip the script unless this boot is an EVM kernel with both
# key types built in and a TPM.
t_evm_begin() {
	case $TKH_KERNEL in
	evm | evm-ref) ;;
	*) t_skip_all "needs an EVM kernel (evm, evm-ref; this boot: $TKH_KERNEL)" ;;
	esac
	t_require tpm
	t_require disk
	for _t in trusted encrypted; do
		t_keytype_builtin "$_t" ||
			t_bail "key type $_t built in" "no key_type_$_t in the kernel image"
	done
	[ -e $T_EVM_SECFS/evm ] || mount -t securityfs securityfs $T_EVM_SECFS 2>/dev/null
	[ -e $T_EVM_SECFS/evm ] || t_bail "securityfs" "no $T_EVM_SECFS/evm"
	keyctl link @u @s >/dev/null 2>&1
	return 0
}

# t_evm_parent: the keyhandle= of the kmk.
t_evm_parent() {
	if [ "$TKH_TPM" = 2.0 ]; then echo "keyhandle=0x$T_TPM2_SRK"; else echo "keyhandle=0x$T_SRK"; fi
}

# t_evm_tpm2_policy_digest: TPM2_PolicyPCR's policy digest (SHA-256) for the
# current value of PCR T_EVM_PCR: H(0^32 || TPM_CC_PolicyPCR || pcrs ||
# H(PCR value)).
T_EVM_TPM2_SEL=00000001000b03000800
t_evm_tpm2_policy_digest() {
	_v=$(t_tpm2_pcr $T_EVM_PCR)
	[ ${#_v} -eq 64 ] || { echo "PCR $T_EVM_PCR not readable" >&2; return 1; }
	_pd=$(t_unhex "$_v" | sha256sum | cut -d' ' -f1)
	t_unhex "$(printf '%064d' 0)0000017f$T_EVM_TPM2_SEL$_pd" | sha256sum | cut -d' ' -f1
}

# t_evm_tpm2_pcr_session: a policy session that ran TPM2_PolicyPCR on PCR
# T_EVM_PCR (user space satisfies the policy, as the in-tree type needs);
# prints its handle. Flush it with t_tpm2_flush.
t_evm_tpm2_pcr_session() {
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 00000176 \
		"40000007400000070010${T_TPM2_NONCE}0000010010000b")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "StartAuthSession: $_r" >&2; return 1; }
	_h=$(echo "$_r" | cut -c21-28)
	_r=$(t_tpm_send "$(t_tpm2_cmd 8001 0000017f "${_h}0000$T_EVM_TPM2_SEL")")
	[ "$(t_tpm2_rc "$_r")" = 00000000 ] || { echo "PolicyPCR: $_r" >&2; t_tpm2_flush "$_h"; return 1; }
	echo "$_h"
}

# t_evm_kmk_new_opts: the options of "new 32" that seal the kmk to PCR
# T_EVM_PCR: ours pcrs= (TPM 2.0; the kernel runs the policy at load) or
# pcrinfo= (TPM 1.2); in-tree policydigest= (TPM 2.0) or pcrinfo=.
# Bus protection: ours' default (sessions=1: salted HMAC session, TPM 1.2
# encrypted transport); the in-tree 6.1 type has none.
t_evm_kmk_new_opts() {
	if [ "$TKH_TPM" = 2.0 ]; then
		if [ "$(t_evm_impl)" = ours ]; then
			echo "$(t_evm_parent) pcrs=sha256:$T_EVM_PCR sessions=1"
		else
			_d=$(t_evm_tpm2_policy_digest) || return 1
			echo "$(t_evm_parent) hash=sha256 policydigest=$_d"
		fi
	else
		_p=$(t_pcrinfo $T_EVM_PCR) || { echo "PCR $T_EVM_PCR not readable" >&2; return 1; }
		if [ "$(t_evm_impl)" = ours ]; then
			echo "$(t_evm_parent) pcrinfo=$_p sessions=1"
		else
			echo "$(t_evm_parent) pcrinfo=$_p"
		fi
	fi
}

# t_evm_kmk_load BLOB [OPTION]: keyctl add trusted kmk "load BLOB ... [OPTION]"
# (in-tree on TPM 2.0: with a PolicyPCR session of user space's).
t_evm_kmk_load() {
	t_key_drop trusted kmk
	if [ "$TKH_TPM" = 2.0 ] && [ "$(t_evm_impl)" = ref ]; then
		_s=$(t_evm_tpm2_pcr_session) || return 1
		keyctl add trusted kmk "load $1 $(t_evm_parent) policyhandle=0x$_s${2:+ $2}" @u >/dev/null
		_rc=$?
		t_tpm2_flush "$_s"
		return $_rc
	fi
	keyctl add trusted kmk "load $1 $(t_evm_parent)${2:+ $2}" @u >/dev/null
}

# t_evm_kmk_boot BLOB: the boot's load (pcrlock=T_EVM_PCR); the kmk is then
# kept for the boot's later scripts (t_evm_kmk_get).
t_evm_kmk_boot() {
	t_evm_kmk_load "$1" "pcrlock=$T_EVM_PCR" || return 1
	_id=$(t_key_id trusted kmk) || return 1
	keyctl link "$_id" @us >/dev/null || return 1
	echo "$_id" >$T_EVM_KMK_ID
}

# t_evm_kmk_get: the kmk the boot loaded, linked into @u again (possessed
# through @us, linked into this script's session keyring first).
t_evm_kmk_get() {
	[ -s $T_EVM_KMK_ID ] || { echo "no kmk loaded in this boot (10-boot)" >&2; return 1; }
	keyctl link @us @s >/dev/null &&
		keyctl link "$(cat $T_EVM_KMK_ID)" @u >/dev/null
}

# t_evm_keys_load: kmk (t_evm_kmk_boot) and evm-key from phase 1's blobs.
t_evm_keys_load() {
	_kb=$(t_state_get evm-kmk.blob) || return 1
	_eb=$(t_state_get evm-key.blob) || return 1
	t_evm_kmk_boot "$_kb" || { echo "trusted kmk: load failed" >&2; return 1; }
	t_key_drop encrypted evm-key
	keyctl add encrypted evm-key "load $_eb" @u >/dev/null ||
		{ echo "encrypted evm-key: load failed" >&2; return 1; }
}

# t_evm_mount: the ext2 of the scratch disk on T_EVM_MNT.
t_evm_mount() {
	mkdir -p $T_EVM_MNT
	grep -q " $T_EVM_MNT " /proc/mounts && return 0
	mount -t ext2 "$TKH_DISK" $T_EVM_MNT
}

# t_evm_umount: (from / : a script's cleanup runs where the script was)
t_evm_umount() {
	grep -q " $T_EVM_MNT " /proc/mounts || return 0
	cd / && umount $T_EVM_MNT
}

# t_evm_xattr NAME FILE: the xattr's value in hex (no 0x), or fails.
t_evm_xattr() {
	getfattr --absolute-names -n "$1" -e hex "$2" 2>/dev/null |
		sed -n "s/^$1=0x//p" | grep .
}

# t_evm_le HEX BYTES: the number HEX (hex digits) as BYTES little-endian bytes.
t_evm_le() {
	_x=$(printf "%0$(($2 * 2))x" "0x$1")
	_o=
	_i=0
	while [ $_i -lt "$2" ]; do
		_o=$(echo "$_x" | cut -c$((_i * 2 + 1))-$((_i * 2 + 2)))$_o
		_i=$((_i + 1))
	done
	echo "$_o"
}

# t_evm_xor HEX BYTE: every byte of HEX xor BYTE (two hex digits).
t_evm_xor() {
	echo "$1" | sed 's/../& /g' | {
		_o=
		# shellcheck disable=SC2013  # the words of one line: hex bytes
		for _b in $(cat); do _o=$_o$(printf '%02x' $((0x$_b ^ 0x$2))); done
		echo "$_o"
	}
}

# t_evm_hmac_expect FILE: the security.evm the kernel must have written for
# FILE, computed here from T_EVM_KEY_HEX: 02 || HMAC-SHA1(key, Smack's
# xattrs || security.ima || struct h_misc || s_uuid). The kernel's HMAC key
# is the EVM key padded with zeros to 128 bytes (evm_set_key); the xattrs
# in EVM's order (those the file has: Smack, the EVM kernels' LSM, gives
# a new file security.SMACK64); h_misc on x86_64 is ino (8), generation
# (4), uid, gid (4 each), mode (2), padding (2); ext2 leaves s_uuid zero
# (CONFIG_EVM_ATTR_FSUUID).
t_evm_hmac_expect() {
	_ima=
	for _x in SMACK64 SMACK64EXEC SMACK64TRANSMUTE SMACK64MMAP; do
		_ima=$_ima$(t_evm_xattr "security.$_x" "$1")
	done
	_ima=$_ima$(t_evm_xattr security.ima "$1") || { echo "no security.ima on $1" >&2; return 1; }
	# shellcheck disable=SC2046  # split on purpose: the fields of stat and lsattr
	set -- "$1" $(stat -c '%i %u %g %f' "$1") $(lsattr -v "$1" 2>/dev/null | awk '{ print $1 }')
	[ $# -eq 6 ] || { echo "stat/lsattr -v of $1 failed" >&2; return 1; }
	_misc=$(t_evm_le "$(printf %x "$2")" 8)$(t_evm_le "$(printf %x "$6")" 4)
	_misc=$_misc$(t_evm_le "$(printf %x "$3")" 4)$(t_evm_le "$(printf %x "$4")" 4)$(t_evm_le "$5" 2)0000
	_k=$(t_unhex "$T_EVM_KEY_HEX$(printf '%0192d' 0)" | sha1sum | cut -d' ' -f1)
	_k=$_k$(printf '%088d' 0)
	_in=$(t_unhex "$(t_evm_xor "$_k" 36)$_ima$_misc$(printf '%032d' 0)" | sha1sum | cut -d' ' -f1)
	echo "02$(t_unhex "$(t_evm_xor "$_k" 5c)$_in" | sha1sum | cut -d' ' -f1)"
}

# t_evm_dm NAME KEYSPEC N: a 1 MiB dm-crypt mapping of the disk's volume N
# (0, 1) keyed by KEYSPEC; prints the device node.
t_evm_dm() {
	t_dm_crypt "$1" 2048 aes-cbc-essiv:sha256 "$2" "$TKH_DISK" $((T_EVM_DM_START + $3 * 2048))
}
