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
# rest of the boot (the init clears @u between scripts): EVM_KMK_ID.
# Disk layout of /dev/vda (the machine's scratch disk, made by host-step):
#   MiB 0-31 ext2 (security xattrs), MiB 32 and 33 two dm-crypt volumes.

EVM_PCR=11
EVM_KMK_ID=/tmp/evm-kmk.id
EVM_MNT=/mnt/evm
EVM_SECFS=/sys/kernel/security
EVM_DM_START=65536
# The EVM HMAC key, 32 bytes given as user data ("new ... 32 <hex>", as
# ima-evm-utils' own test does): the test can then compute the HMAC the
# kernel must have written (evm_hmac_expect). Test-only: a real boot makes
# it with "new default trusted:kmk 32".
EVM_KEY_HEX=5b6c2a1f0e9d8c7b6a5948372615f4e3d2c1b0a99887766554433221100ffeed

# evm_impl: the key types under test: ours (kernel evm, the patched tree)
# or ref (kernel evm-ref, the unpatched in-tree ones).
evm_impl() {
	case $TK_KERNEL in
	evm) echo ours ;;
	*) echo ref ;;
	esac
}

# evm_begin: skip the script unless this boot is an EVM kernel with both
# key types built in and a TPM.
evm_begin() {
	case $TK_KERNEL in
	evm | evm-ref) ;;
	*) t_skip_all "needs an EVM kernel (evm, evm-ref; this boot: $TK_KERNEL)" ;;
	esac
	t_require tpm
	t_require disk
	for _t in trusted encrypted; do
		keytype_builtin "$_t" ||
			t_bail "key type $_t built in" "no key_type_$_t in the kernel image"
	done
	[ -e $EVM_SECFS/evm ] || mount -t securityfs securityfs $EVM_SECFS 2>/dev/null
	[ -e $EVM_SECFS/evm ] || t_bail "securityfs" "no $EVM_SECFS/evm"
	keyctl link @u @s >/dev/null 2>&1
	return 0
}

# evm_parent: the keyhandle= of the kmk.
evm_parent() {
	if [ "$TK_TPM" = 2.0 ]; then echo "keyhandle=0x$TK2_SRK"; else echo "keyhandle=0x$TK_SRK"; fi
}

# evm_tpm2_policy_digest: TPM2_PolicyPCR's policy digest (SHA-256) for the
# current value of PCR EVM_PCR: H(0^32 || TPM_CC_PolicyPCR || pcrs ||
# H(PCR value)).
EVM_TPM2_SEL=00000001000b03000800
evm_tpm2_policy_digest() {
	_v=$(tk2_pcr $EVM_PCR)
	[ ${#_v} -eq 64 ] || { echo "PCR $EVM_PCR not readable" >&2; return 1; }
	_pd=$(tk_unhex "$_v" | sha256sum | cut -d' ' -f1)
	tk_unhex "$(printf '%064d' 0)0000017f$EVM_TPM2_SEL$_pd" | sha256sum | cut -d' ' -f1
}

# evm_tpm2_pcr_session: a policy session that ran TPM2_PolicyPCR on PCR
# EVM_PCR (user space satisfies the policy, as the in-tree type needs);
# prints its handle. Flush it with tk2_flush.
evm_tpm2_pcr_session() {
	_r=$(tk2_tpm "$(tk2_cmd 8001 00000176 \
		"40000007400000070010${TK2_NONCE}0000010010000b")")
	[ "$(tk2_rc "$_r")" = 00000000 ] || { echo "StartAuthSession: $_r" >&2; return 1; }
	_h=$(echo "$_r" | cut -c21-28)
	_r=$(tk2_tpm "$(tk2_cmd 8001 0000017f "${_h}0000$EVM_TPM2_SEL")")
	[ "$(tk2_rc "$_r")" = 00000000 ] || { echo "PolicyPCR: $_r" >&2; tk2_flush "$_h"; return 1; }
	echo "$_h"
}

# evm_kmk_new_opts: the options of "new 32" that seal the kmk to PCR
# EVM_PCR: ours pcrs= (TPM 2.0; the kernel runs the policy at load) or
# pcrinfo= (TPM 1.2); in-tree policydigest= (TPM 2.0) or pcrinfo=.
# Bus protection: ours' default (sessions=1: salted HMAC session, TPM 1.2
# encrypted transport); the in-tree 6.1 type has none.
evm_kmk_new_opts() {
	if [ "$TK_TPM" = 2.0 ]; then
		if [ "$(evm_impl)" = ours ]; then
			echo "$(evm_parent) pcrs=sha256:$EVM_PCR sessions=1"
		else
			_d=$(evm_tpm2_policy_digest) || return 1
			echo "$(evm_parent) hash=sha256 policydigest=$_d"
		fi
	else
		_p=$(tk_pcrinfo $EVM_PCR) || { echo "PCR $EVM_PCR not readable" >&2; return 1; }
		if [ "$(evm_impl)" = ours ]; then
			echo "$(evm_parent) pcrinfo=$_p sessions=1"
		else
			echo "$(evm_parent) pcrinfo=$_p"
		fi
	fi
}

# evm_kmk_load BLOB [OPTION]: keyctl add trusted kmk "load BLOB ... [OPTION]"
# (in-tree on TPM 2.0: with a PolicyPCR session of user space's).
evm_kmk_load() {
	key_drop trusted kmk
	if [ "$TK_TPM" = 2.0 ] && [ "$(evm_impl)" = ref ]; then
		_s=$(evm_tpm2_pcr_session) || return 1
		keyctl add trusted kmk "load $1 $(evm_parent) policyhandle=0x$_s${2:+ $2}" @u >/dev/null
		_rc=$?
		tk2_flush "$_s"
		return $_rc
	fi
	keyctl add trusted kmk "load $1 $(evm_parent)${2:+ $2}" @u >/dev/null
}

# evm_kmk_boot BLOB: the boot's load (pcrlock=EVM_PCR); the kmk is then
# kept for the boot's later scripts (evm_kmk_get).
evm_kmk_boot() {
	evm_kmk_load "$1" "pcrlock=$EVM_PCR" || return 1
	_id=$(key_id trusted kmk) || return 1
	keyctl link "$_id" @us >/dev/null || return 1
	echo "$_id" >$EVM_KMK_ID
}

# evm_kmk_get: the kmk the boot loaded, linked into @u again (possessed
# through @us, linked into this script's session keyring first).
evm_kmk_get() {
	[ -s $EVM_KMK_ID ] || { echo "no kmk loaded in this boot (10-boot)" >&2; return 1; }
	keyctl link @us @s >/dev/null &&
		keyctl link "$(cat $EVM_KMK_ID)" @u >/dev/null
}

# evm_keys_load: kmk (evm_kmk_boot) and evm-key from phase 1's blobs.
evm_keys_load() {
	_kb=$(state_get evm-kmk.blob) || return 1
	_eb=$(state_get evm-key.blob) || return 1
	evm_kmk_boot "$_kb" || { echo "trusted kmk: load failed" >&2; return 1; }
	key_drop encrypted evm-key
	keyctl add encrypted evm-key "load $_eb" @u >/dev/null ||
		{ echo "encrypted evm-key: load failed" >&2; return 1; }
}

# evm_mount: the ext2 of the scratch disk on EVM_MNT.
evm_mount() {
	mkdir -p $EVM_MNT
	grep -q " $EVM_MNT " /proc/mounts && return 0
	mount -t ext2 "$TK_DISK" $EVM_MNT
}

# evm_umount: (from / : a script's cleanup runs where the script was)
evm_umount() {
	grep -q " $EVM_MNT " /proc/mounts || return 0
	cd / && umount $EVM_MNT
}

# evm_xattr NAME FILE: the xattr's value in hex (no 0x), or fails.
evm_xattr() {
	getfattr --absolute-names -n "$1" -e hex "$2" 2>/dev/null |
		sed -n "s/^$1=0x//p" | grep .
}

# evm_le HEX BYTES: the number HEX (hex digits) as BYTES little-endian bytes.
evm_le() {
	_x=$(printf "%0$(($2 * 2))x" "0x$1")
	_o=
	_i=0
	while [ $_i -lt "$2" ]; do
		_o=$(echo "$_x" | cut -c$((_i * 2 + 1))-$((_i * 2 + 2)))$_o
		_i=$((_i + 1))
	done
	echo "$_o"
}

# evm_xor HEX BYTE: every byte of HEX xor BYTE (two hex digits).
evm_xor() {
	echo "$1" | sed 's/../& /g' | {
		_o=
		# shellcheck disable=SC2013  # the words of one line: hex bytes
		for _b in $(cat); do _o=$_o$(printf '%02x' $((0x$_b ^ 0x$2))); done
		echo "$_o"
	}
}

# evm_hmac_expect FILE: the security.evm the kernel must have written for
# FILE, computed here from EVM_KEY_HEX: 02 || HMAC-SHA1(key, security.ima
# || struct h_misc || s_uuid). The kernel's HMAC key is the EVM key padded
# with zeros to 128 bytes (evm_set_key); h_misc on x86_64 is ino (8),
# generation (4), uid, gid (4 each), mode (2), padding (2); ext2 leaves
# s_uuid zero (CONFIG_EVM_ATTR_FSUUID). Only security.ima is set here.
evm_hmac_expect() {
	_ima=$(evm_xattr security.ima "$1") || { echo "no security.ima on $1" >&2; return 1; }
	# shellcheck disable=SC2046  # split on purpose: the fields of stat and lsattr
	set -- "$1" $(stat -c '%i %u %g %f' "$1") $(lsattr -v "$1" 2>/dev/null | awk '{ print $1 }')
	[ $# -eq 6 ] || { echo "stat/lsattr -v of $1 failed" >&2; return 1; }
	_misc=$(evm_le "$(printf %x "$2")" 8)$(evm_le "$(printf %x "$6")" 4)
	_misc=$_misc$(evm_le "$(printf %x "$3")" 4)$(evm_le "$(printf %x "$4")" 4)$(evm_le "$5" 2)0000
	_k=$(tk_unhex "$EVM_KEY_HEX$(printf '%0192d' 0)" | sha1sum | cut -d' ' -f1)
	_k=$_k$(printf '%088d' 0)
	_in=$(tk_unhex "$(evm_xor "$_k" 36)$_ima$_misc$(printf '%032d' 0)" | sha1sum | cut -d' ' -f1)
	echo "02$(tk_unhex "$(evm_xor "$_k" 5c)$_in" | sha1sum | cut -d' ' -f1)"
}

# evm_dm NAME KEYSPEC N: a 1 MiB dm-crypt mapping of the disk's volume N
# (0, 1) keyed by KEYSPEC; prints the device node.
evm_dm() {
	dmsetup create "$1" --noudevsync --table \
		"0 2048 crypt aes-cbc-essiv:sha256 $2 0 $TK_DISK $((EVM_DM_START + $3 * 2048))" >&2 ||
		return 1
	dmsetup mknodes "$1" >/dev/null 2>&1
	[ -b "/dev/mapper/$1" ] || { echo "no /dev/mapper/$1" >&2; return 1; }
	echo "/dev/mapper/$1"
}

evm_dm_remove() {
	for _n in "$@"; do
		dmsetup remove --noudevsync "$_n" >/dev/null 2>&1
	done
	return 0
}
