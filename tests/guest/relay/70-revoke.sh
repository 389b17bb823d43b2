#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Revocation counters through the interposer (issue 27): the relay between
# QEMU and swtpm forges the NV_ReadPublic replies of revoke= (the counter's
# public area and Name) and the PolicyNV reply; ours (sessions on) must
# refuse each, never seal a key to an index the TPM does not have, and
# leave no key. The counter 0x01800110 is defined and incremented by the
# owner through /dev/tpm0 (lib/tpm2.sh). Cases:
#   new, 1st NV_ReadPublic (in clear): attributes changed (the Name no
#     longer matches): EKEYREJECTED.
#   new, 1st NV_ReadPublic: attributes and Name forged together, an
#     ordinary index anyone may write (what would allow rollback): the
#     audited 2nd read refuses it (the TPM knows another Name, or the
#     authenticated area differs): EKEYREJECTED.
#   new, 2nd NV_ReadPublic (audited): a byte of its HMAC: EKEYREJECTED.
#   load, the same consistent forgery: EKEYREJECTED.
#   load, NV_ReadPublic answered TPM_RC_HANDLE (a missing index): ENOENT.
#   load, PolicyNV's reply HMAC flipped: EKEYREJECTED.
# Controls: the same new and load without the relay armed work. Ours only.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/relay.sh"

t_require tpm 2.0
t_require ours	# the in-tree module has no signed policies
t_relay_setup
NV=01800110
KEYS=$here/../trusted-tpm2/keys
W=/tmp/rl-revoke
mkdir -p $W
if ! command -v trusted-policy >/dev/null; then
	t_skip_rest "trusted-policy is not in the initramfs (tools/ did not build: libssl-dev?)"
	exit 0
fi
t_cleanup "t_relay_ctl disarm >/dev/null; t_tpm2_nv_undefine $NV; t_drop rv rv_l rv_x; rm -rf $W"
t_tpm2_nv_undefine $NV
if ! t_tpm2_nv_define $NV || [ "$(t_tpm2_nv_increment $NV)" != 00000000 ]; then
	t_skip_rest "cannot define the NV counter $NV"
	exit 0
fi
n=$(t_tpm2_nv_count $NV)
EC=$(t_tpm2_signer "$KEYS/ec.pem" $W)
NEW="new 32 policykey=$EC revoke=$NV"

# rv_run NAME RULES DATA: keyctl add trusted NAME DATA with the relay armed
# with RULES; sets rc, err (keyctl's message), fired, log (our kernel log
# lines since).
rv_run() {
	t_drop "$1"
	t_tpm2_dmesg_mark
	_a=$(t_relay_ctl "tamper $2")
	[ "$_a" = "armed $(echo "$2" | tr ',' '\n' | wc -l)" ] ||
		{ rc=99 fired=0 log="the relay did not arm $2: $_a"; return; }
	err=$(keyctl add trusted "$1" "$3" @u 2>&1 >/dev/null)
	rc=$?
	fired=$(t_relay_ctl disarm)
	fired=${fired#fired }
	log=$(t_tpm2_dmesg_new)
}
# rv_refused DESC ERRNO ERE RULES DATA: the forgery fired, the add failed
# with ERRNO, no key, and our log has ERE.
rv_refused() {
	rv_run rv_x "$4" "$5"
	t_check "$1: the forgery fired" t_eq "fired" "$fired" "$(echo "$4" | tr ',' '\n' | wc -l)"
	# shellcheck disable=SC2016  # expanded by the inner sh
	t_check "  ... refused with $2" sh -c '[ "$1" != 0 ] && case $2 in *": $3"*) ;; *) exit 1 ;; esac' \
		- "$rc" "$err" "$(t_strerror "$2")"
	t_check "  ... no key" t_key_absent trusted rv_x
	# shellcheck disable=SC2016  # expanded by the inner sh
	t_check "  ... the log says why: $3" sh -c 'printf "%s\n" "$1" | grep -qE "$2"' - "$log" "$3"
}

# The counter's public area with attributes ATTRS, and its Name; as a
# substitution from response offset 18 (after header, size, nvIndex,
# nameAlg): attributes, authPolicy, dataSize, the Name's TPM2B.
forged() {
	_area=${NV}000b${1}00000008
	_name=000b$(t_unhex "$_area" | sha256sum | cut -c1-64)
	echo "${1}000000080022${_name}"
}
# an ordinary index anyone may write (authwrite|authread|no_da|written)
ORD=$(forged 22040004)

t_check "control: new with revoke= (no forgery)" t_key_add trusted rv "$NEW"
b0=$(t_key_blob trusted rv)
b1=$(t_tpm2_policy_add "$KEYS/ec.pem" $W a1 "$b0" --counter "$n" --counter-index 0x$NV)
t_check "control: its approval for $n loads" t_key_add trusted rv_l "load $b1"

rv_refused "new, NV_ReadPublic: attributes changed" EKEYREJECTED \
	"not its public area's" "169:byte=21=ff" "$NEW"
rv_refused "new, NV_ReadPublic: an ordinary writable index, Name to match" EKEYREJECTED \
	"another Name|differs from the audited" "169:byte=18=$ORD" "$NEW"
rv_refused "new, the audited NV_ReadPublic: its HMAC" EKEYREJECTED \
	"fails its HMAC" "169@2:flip=-1" "$NEW"
rv_refused "load, NV_ReadPublic: an ordinary writable index, Name to match" EKEYREJECTED \
	"another Name|differs from the audited" "169:byte=18=$ORD" "load $b1"
rv_refused "load, NV_ReadPublic: TPM_RC_HANDLE (a missing index)" ENOENT \
	"no NV index 0x$NV" "169:rc=18b,169:trunc=10" "load $b1"
rv_refused "load, PolicyNV: its reply's HMAC" EKEYREJECTED \
	"PolicyNV reply fails its HMAC" "149:flip=-1" "load $b1"
t_relay_flush_transients 80 02 03 >/dev/null
t_check "after them, the clean load works" t_key_add trusted rv_l "load $b1"
t_relay_still_works
