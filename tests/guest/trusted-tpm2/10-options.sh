#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TPM 2.0, phase 1: new/load/update and every option of the in-tree module
# (keyhandle, keyauth, blobauth, hash, policydigest + policyhandle,
# migratable), key sizes 32..128 (the in-tree module stops at 113 on
# swtpm), the default parent, and no TPM handle left behind.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
t_tpm2_begin || exit 0
DEF=$(t_tpm2_default_parent)
SIZES="32 33 64 100 113 114 127 128"
FIXED=00000012	# fixedTPM | fixedParent

# loads NAME BLOB [OPTIONS]: BLOB loads as NAME and keyctl print gives it back.
loads() {
	t_key_add trusted "$1" "load $2${3:+ $3}" || return 1
	t_eq "print" "$(t_key_blob trusted "$1")" "$2"
}

t_check "new 32 without options" t_key_add trusted o_k "new 32"
b=$(t_key_blob trusted o_k)
t_check "the blob is a TPMKey naming the default parent ($DEF)" \
	t_eq parent "$(t_tpm2_parent "$b")" "$DEF"
empty_auth() {
	case $(t_tpm2_der_get "$1" a0) in
	0101ff | 010101) return 0 ;;	# DER's TRUE, or the kernel encoder's
	*) echo "no emptyAuth TRUE in $1" >&2; return 1 ;;
	esac
}
t_check "emptyAuth TRUE, as the in-tree module writes it" empty_auth "$b"
t_check "load <blob> needs no options; print gives the blob back" loads o_l "$b"
t_tpm2_same "the loaded key has the same bytes" o_k "load $b"

sizes() {
	for _sz in $SIZES; do
		t_key_add trusted "o_s$_sz" "new $_sz" || { echo "new $_sz failed" >&2; return 1; }
		loads "o_t$_sz" "$(t_key_blob trusted "o_s$_sz")" || { echo "load of $_sz failed" >&2; return 1; }
	done
}
t_check "sizes $SIZES: new and load" sizes
t_tpm2_same "a 128-byte key loads with the same bytes" o_s128 "load $(t_key_blob trusted o_s128)"
t_errno "new 31: EINVAL" EINVAL t_key_refused trusted o_x "new 31"
t_errno "new 129: EINVAL" EINVAL t_key_refused trusted o_x "new 129"
# shellcheck disable=SC2046  # the key names, split on purpose
t_drop $(for n in $SIZES; do echo "o_s$n o_t$n"; done)

t_check "keyhandle=0x40000001: a primary from the TCG template" \
	t_key_add trusted o_own "new 32 keyhandle=0x40000001"
bo=$(t_key_blob trusted o_own)
t_check "its blob names 0x40000001" t_eq parent "$(t_tpm2_parent "$bo")" 40000001
t_check "  ... and loads without options" loads o_own2 "$bo"
if t_tpm2_srk_present; then
	t_check "keyhandle=0x81000001 (the SRK)" t_key_add trusted o_srk "new 32 keyhandle=0x81000001"
else
	t_errno "keyhandle=0x81000001 without an SRK: ENOKEY" ENOKEY \
		t_key_refused trusted o_srk "new 32 keyhandle=0x81000001"
fi
t_check "load with the keyhandle the blob names" loads o_kh "$bo" "keyhandle=0x40000001"
t_errno "load with another keyhandle: EINVAL" EINVAL t_key_refused trusted o_kh2 \
	"load $bo keyhandle=0x81000002"
t_check "keyauth=<40 zeros> is the empty authorisation" \
	t_key_add trusted o_ka "new 32 keyauth=$T_Z40"

hashes() {
	for _h in sha1:0004 sha384:000c sha512:000d; do
		t_key_add trusted o_h "new ${2:-32} hash=${_h%:*}" || return 1
		_b=$(t_key_blob trusted o_h)
		t_eq "nameAlg" "$(t_tpm2_der_get "$_b" 04 1 | cut -c9-12)" "${_h#*:}" || return 1
		loads o_h2 "$_b" || return 1
	done
}
t_check "hash=sha1, sha384, sha512: nameAlg in the blob, loads" hashes
t_check "hash=sha512 with a 128-byte key (in-tree: E2BIG for any size)" hashes x 128
# 128 bytes, SHA-512, a 64-byte policy and a 20-byte blobauth: 510 bytes.
big() {
	t_key_add trusted o_big "new 128 hash=sha512 policydigest=$T_TPM2_POLICY_PW$T_TPM2_POLICY_PW blobauth=$T_TPM2_BA" || return 1
	_b=$(t_key_blob trusted o_big)
	echo "$((${#_b} / 2)) bytes" >&2
	[ ${#_b} -le 1024 ]
}
t_check "new 128 hash=sha512 policydigest= blobauth=: the largest in-tree kind of blob fits" big
t_errno "hash=sm3: the TPM has no SM3: EINVAL" EINVAL t_key_refused trusted o_x "new 32 hash=sm3"

t_key_add trusted o_k "load $b"
t_check "update: a new blob" t_updates o_k
t_check "the updated blob loads" loads o_u "$(t_key_blob trusted o_k)"
t_tpm2_same "the updated key has the bytes of the original" o_u "load $b"

fixed() {
	t_key_add trusted o_m "new 32 migratable=0" || return 1
	_a=$(t_tpm2_attrs "$(t_key_blob trusted o_m)")
	t_eq "objectAttributes & $FIXED" $((0x$_a & 0x$FIXED)) $((0x$FIXED))
}
t_check "migratable=0 makes the object fixedTPM|fixedParent" fixed
t_errno "migratable=0: update EPERM, blob unchanged" EPERM t_key_update_refused trusted o_m update
t_key_add trusted o_m2 "load $(t_key_blob trusted o_m)"
t_errno "migratable=0 read back from the blob: update EPERM" EPERM \
	t_key_update_refused trusted o_m2 update

t_check "blobauth=<40 hex>: new" t_key_add trusted o_ba "new 32 blobauth=$T_TPM2_BA"
bba=$(t_key_blob trusted o_ba)
t_errno "its blob without blobauth: EACCES" EACCES t_key_refused trusted o_ba2 "load $bba"
t_tpm2_da_reset
t_check "  ... with blobauth: loads" loads o_ba2 "$bba" "blobauth=$T_TPM2_BA"
password() {
	t_key_add trusted o_pw "new 32 blobauth=hello" && loads o_pw2 "$(t_key_blob trusted o_pw)" blobauth=hello
}
t_check "blobauth=hello (a TPM 2.0 password): new and load" password

t_check "policydigest=<PolicyPassword> blobauth=hello: new" \
	t_key_add trusted o_pd "new 32 policydigest=$T_TPM2_POLICY_PW blobauth=hello"
bpd=$(t_key_blob trusted o_pd)
policy_load() {
	_s=$(t_tpm2_pw_session) || return 1
	t_key_add trusted o_pd2 "load $bpd policyhandle=0x$_s blobauth=hello"
	_rc=$?
	t_tpm2_flush "$_s"
	return $_rc
}
t_check "  ... loads with policyhandle= (user space's PolicyPassword session)" policy_load
t_errno "  ... and not without a policy session: EPERM" EPERM t_key_refused trusted o_pd3 "load $bpd blobauth=hello"
t_tpm2_da_reset

t_errno "pcrinfo= is TPM 1.2 only: EINVAL" EINVAL t_key_refused trusted o_x "new 32 pcrinfo=00"
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"

t_drop o_big o_k o_l o_own o_own2 o_srk o_kh o_ka o_h o_h2 o_u o_m o_m2 o_ba o_ba2 o_pw o_pw2 o_pd o_pd2
