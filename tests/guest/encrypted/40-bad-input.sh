#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input: damaged and forged blobs, bad master prefixes, unknown formats
# and commands, oversized input. Each gets EINVAL and leaves no key; no
# secret reaches the log, and the log lines are rate-limited.
# TKH_ENC_IMPL=ref runs the same against the in-tree module.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"

t_enc_begin
t_enc_masters >/dev/null 2>&1
M=$(t_enc_master user)
t_key_add encrypted b_ok "new $M 32"
B=$(t_key_blob encrypted b_ok 2>/dev/null)
# shellcheck disable=SC2086  # the blob's words, split on purpose
set -- $B
HEAD="$1 $2 $3"
HEX=$4
L=${#HEX}

# sub HEX POS CHAR: HEX with the character at 1-based POS replaced.
sub() {
	echo "$(echo "$1" | cut -c1-$(($2 - 1)))$3$(echo "$1" | cut -c$(($2 + 1))-)"
}
# flip HEX POS: change the hex digit at POS to another one.
flip() {
	_c=$(echo "$1" | cut -c"$2")
	case $_c in 0) _r=1 ;; *) _r=0 ;; esac
	sub "$1" "$2" $_r
}

t_check "the good blob loads" t_enc_reloads b_ok2 "$B"
t_errno "non-hex digit in the ciphertext" EINVAL t_key_refused encrypted b_x "load $HEAD $(sub "$HEX" 40 g)"
t_errno "non-hex digit in the HMAC" EINVAL t_key_refused encrypted b_x "load $HEAD $(sub "$HEX" "$L" z)"
t_check "uppercase hex loads (as hex2bin reads it)" \
	t_key_add encrypted b_up "load $HEAD $(echo "$HEX" | tr a-f A-F)"
t_errno "odd length (one digit dropped)" EINVAL t_key_refused encrypted b_x "load $HEAD $(echo "$HEX" | cut -c2-)"
t_errno "truncated by one byte" EINVAL t_key_refused encrypted b_x "load $HEAD $(echo "$HEX" | cut -c3-)"
t_errno "truncated to the IV" EINVAL t_key_refused encrypted b_x "load $HEAD $(echo "$HEX" | cut -c1-32)"
t_errno "one byte too long" EINVAL t_key_refused encrypted b_x "load $HEAD ${HEX}00"
t_errno "blob missing" EINVAL t_key_refused encrypted b_x "load $HEAD"
t_errno "tampered IV" EINVAL t_key_refused encrypted b_x "load $HEAD $(flip "$HEX" 5)"
t_errno "tampered ciphertext" EINVAL t_key_refused encrypted b_x "load $HEAD $(flip "$HEX" 40)"
t_errno "tampered last ciphertext byte" EINVAL t_key_refused encrypted b_x "load $HEAD $(flip "$HEX" $((L - 64)))"
t_errno "tampered HMAC" EINVAL t_key_refused encrypted b_x "load $HEAD $(flip "$HEX" "$L")"
t_errno "blob claimed under another user master" EINVAL \
	t_key_refused encrypted b_x "load default user:$T_ENC_UMASTER2 32 $HEX"
t_errno "blob with its key length rewritten (032)" EINVAL t_key_refused encrypted b_x "load default $M 032 $HEX"
t_errno "blob with its format rewritten (enc32)" EINVAL t_key_refused encrypted b_x "load enc32 $M 32 $HEX"
t_errno "blob with the format dropped (old-style HMAC differs)" EINVAL \
	t_key_refused encrypted b_x "load $M 32 $HEX"
t_errno "blob with the key length changed (48)" EINVAL t_key_refused encrypted b_x "load default $M 48 $HEX"
if [ "${TKH_ENC_IMPL:-ours}" = ours ]; then
	t_errno "separator after the IV not 00 (ours: forged)" EINVAL \
		t_key_refused encrypted b_x "load $HEAD $(sub "$HEX" 34 1)"
else
	t_skip "separator after the IV not 00" "the in-tree module ignores those two digits"
fi

for mp in foo:ukm user: trusted: :ukm ukm USER:ukm " user:ukm" user:ukm: logon:ukm encrypted:ukm; do
	case $mp in user:ukm:) want=ENOKEY ;; *) want=EINVAL ;; esac
	if [ $want = EINVAL ]; then
		t_errno "master '$mp' refused" EINVAL t_key_refused encrypted b_m "new $mp 32"
	else
		t_check "master '$mp' is a description (no key of that name: created)" t_key_add encrypted b_m "new $mp 32"
	fi
done
for f in aes Default ecryptfs32 "default default"; do
	t_errno "format '$f' refused" EINVAL t_key_refused encrypted b_f "new $f $M 32"
done
t_errno "ecryptfs key whose description is not 16 hex digits" EINVAL \
	t_key_refused encrypted 0011223344 "new ecryptfs $M 64"
t_errno "ecryptfs key whose description has a non-hex digit" EINVAL \
	t_key_refused encrypted 001122334455667g "new ecryptfs $M 64"
for c in create NEW "" new "new $M" "load $M 32" "update"; do
	t_errno "command '$c' refused" EINVAL t_key_refused encrypted b_c "$c"
done
t_errno "two blanks between tokens refused" EINVAL t_key_refused encrypted b_c "new  $M 32"
big=$(head -c 33000 /dev/zero | tr '\0' a)
t_errno "33000-byte command refused" EINVAL t_key_refused encrypted b_big "new user:$big 32"

# Nothing secret in the log, and no flood: printk's rate limit lets through
# at most 10 lines per 5 s. When the loop runs too slowly (an emulated CPU)
# to go over that rate, the second check cannot tell and is skipped.
D=5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5
dmesg -c >/dev/null 2>&1
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt 40 ]; do
	keyctl add encrypted b_flood "new $M 32 ${D}zz" @u >/dev/null 2>&1
	i=$((i + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
lines=$(dmesg | grep -c 'encrypted_keys: refused')
most=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", 10 * (int((b - a) / 5) + 2) }')
t_check "no user data in the log" sh -c "! dmesg | grep -q 5ec5ec5ec"
if [ "${TKH_ENC_IMPL:-ours}" != ours ]; then
	t_skip "log rate-limited" "the in-tree module logs every one"
elif [ "$most" -ge 40 ]; then
	t_skip "log rate-limited" "40 bad commands took $t0..$t1 s: too slow to exceed the limit"
else
	t_check "log rate-limited: $lines lines for 40 bad commands (limit $most)" \
		[ "$lines" -le "$most" ]
fi
