#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A peer's suite: ima-evm-utils' own test of EVM HMACs made with an
# encrypted key, tests/evm_hmac.test (>= 1.6; tests/qemu/build-imaevm.sh
# builds evmctl with the debug support it needs), in this guest, after
# 10-boot initialised EVM with the evm-key under trusted:kmk (phases 1, 3).
# 1. evm_hmac.test as shipped, under bash: it needs Smack or SELinux to
#    give new files an initial xattr (both need CONFIG_NET, which the guest
#    kernels do not have), a loop-mounted ext4 made with mkfs.ext4 -U, and
#    EVM not yet initialised (it would add its own evm-key under user:kmk):
#    reported as its own summary says (PASS/SKIP/FAIL) and why.
# 2. What it checks, run here: its own get_xattr and compare_xattr
#    functions (taken from the file, not copied), which compare the
#    kernel's security.evm with "evmctl hmac --hmackey", on the files that
#    20-files labelled (IMA wrote security.ima, the kernel the HMAC): the
#    HMAC key file holds the evm-key's bytes; the UUID is ext2's zero one.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/evm.sh"

PEER=/peer/ima-evm-utils
t_evm_begin
t_require phase 1,3
[ -x $PEER/bin/evmctl ] ||
	t_skip_all "ima-evm-utils >= 1.6 not in the initramfs (its source is not in the cache: tests/qemu/build-imaevm.sh)"
t_require cmd bash
export LD_LIBRARY_PATH="$PEER/lib" PATH="$PEER/bin:$PATH"

out=$(cd $PEER/tests && TST_EVM_CHANGE_MODE=1 bash ./evm_hmac.test 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/peer| /' >&2
sum=$(printf '%s\n' "$out" | grep -E '^PASS: [0-9]+ SKIP: [0-9]+ FAIL: [0-9]+' | tail -n 1)
why=$(printf '%s\n' "$out" | grep -vE '^(PASS: |$)' | tail -n 1)
case $rc in
0) t_ok "ima-evm-utils evm_hmac.test as shipped: $sum" ;;
77) t_skip "ima-evm-utils evm_hmac.test as shipped ($sum)" "$why" ;;
*) t_fail "ima-evm-utils evm_hmac.test as shipped: exit $rc ($sum)" "$out" ;;
esac

t_check "the ext2 of 20-files mounts" t_evm_mount || exit 0
t_cleanup t_evm_umount
funcs=$(sed -n '/^get_xattr() {/,/^}/p; /^compare_xattr() {/,/^}/p' $PEER/tests/evm_hmac.test)
t_check "evm_hmac.test's get_xattr and compare_xattr found" \
	test "$(printf '%s\n' "$funcs" | grep -c '() {$')" = 2
t_unhex "$T_EVM_KEY_HEX" >/tmp/evm-hmackey
t_cleanup "rm -f /tmp/evm-hmackey"
# peer_compare FILE: compare_xattr sha1 FILE in bash, in the test's
# directory, with functions.sh sourced as the test does (0 OK, 1 FAIL)
peer_compare() {
	# shellcheck disable=SC2016  # expanded by bash
	(cd $PEER/tests && bash -c '. ./functions.sh >/dev/null; eval "$1"
		IMA_UUID=00000000-0000-0000-0000-000000000000 g_hmackey=/tmp/evm-hmackey
		compare_xattr sha1 "$2"' peer "$funcs" "$1") </dev/null
}
for f in untouched online-chmod; do
	t_check "compare_xattr: the kernel's security.evm of $f = evmctl hmac --hmackey's" \
		peer_compare "$T_EVM_MNT/$f"
done
