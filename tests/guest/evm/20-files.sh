#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Files under EVM (after 10-boot). Phase 1: files on the ext2 labelled with
#   evmctl ima_hash get a security.evm HMAC from the kernel, the one
#   computed here from the evm-key's bytes (made with the key under test);
#   a chmod while EVM runs is re-HMACed.
# Phase 2 (no keys): chmod of one file, offline for EVM.
# host-step before phase 3: the image edited from the host (debugfs: the
#   uid of one file, the mode of another).
# Phase 3 (keys loaded, EVM on, IMA appraising): the untouched files open,
#   the three whose metadata changed offline are refused (EACCES).
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/evm.sh"

t_evm_begin
t_require cmd getfattr
t_check "the scratch disk's ext2 mounts on $T_EVM_MNT" t_evm_mount || exit 0
t_cleanup t_evm_umount
cd $T_EVM_MNT || t_bail "cd $T_EVM_MNT"
FILES="untouched online-chmod keyless-chmod host-uid host-mode"

# opens FILE: its content is "data FILE".
opens() {
	[ "$(cat "$1")" = "data $1" ] || { echo "$1: unexpected content" >&2; return 1; }
}
# hmac_ok FILE: security.evm is the HMAC t_evm_hmac_expect computes.
hmac_ok() {
	_got=$(t_evm_xattr security.evm "$1") || { echo "no security.evm on $1" >&2; return 1; }
	_exp=$(t_evm_hmac_expect "$1") || return 1
	t_eq "security.evm of $1" "$_got" "$_exp"
}
# ima_is_evmctls FILE: security.ima is evmctl's: 04 (digest_ng) 04 (sha256) digest.
ima_is_evmctls() {
	_ima=$(t_evm_xattr security.ima "$1") || { echo "no security.ima on $1" >&2; return 1; }
	t_eq "security.ima of $1" "$_ima" "0404$(sha256sum "$1" | cut -d' ' -f1)"
}

case $TKH_PHASE in
1)
	t_require cmd evmctl
	n=0
	for f in $FILES; do
		echo "data $f" >"$f" && evmctl ima_hash "$f" >/dev/null 2>&1 && n=$((n + 1))
	done
	t_check "5 files written and labelled with evmctl ima_hash" [ $n = 5 ]
	t_check "security.ima is evmctl's sha256 digest" ima_is_evmctls untouched
	for f in untouched host-uid; do
		t_check "$f: security.evm = 02 || HMAC-SHA1 with the evm-key's bytes" hmac_ok "$f"
	done
	chmod 0600 online-chmod
	t_check "chmod with EVM on: the kernel writes a new HMAC" hmac_ok online-chmod
	t_check "the untouched file opens" opens untouched
	sync
	;;
2)
	t_check "EVM off in this boot (no keys)" \
		sh -c "[ \$((\$(cat $T_EVM_SECFS/evm) & 1)) = 0 ]"
	t_check "offline chmod of keyless-chmod succeeds" chmod 0640 keyless-chmod
	t_check "  ... its security.evm stays as it was (no key to make a new one)" \
		t_evm_xattr security.evm keyless-chmod
	sync
	;;
3)
	t_check "EVM on (10-boot)" sh -c "[ \$((\$(cat $T_EVM_SECFS/evm) & 1)) = 1 ]"
	t_check "the untouched file opens" opens untouched
	t_check "  ... its HMAC still matches the evm-key's bytes (the key the blob restored)" hmac_ok untouched
	t_check "the file chmod'ed while EVM ran opens" opens online-chmod
	t_errno "chmod in a boot without the keys: refused" EACCES opens keyless-chmod
	t_errno "uid changed from the host (debugfs): refused" EACCES opens host-uid
	t_errno "mode changed from the host (debugfs): refused" EACCES opens host-mode
	;;
esac
