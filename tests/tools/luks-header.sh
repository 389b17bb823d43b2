#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs/trusted-keys-luks against real LUKS2 headers (host, no kernel,
# no TPM): cryptsetup luksFormat on image files (no device-mapper needed)
# with a known volume key, then what the tool reads from each header (the
# geometry it maps, the keydigest= it hands the kernel: checked against
# PBKDF2 of that key computed by Python), what it refuses (LUKS1, bad
# token options), and its token bookkeeping (status, blob, remove) with the
# keyslots left as they were. Needs cryptsetup-bin (tests/deps.sh). KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../../initramfs/trusted-keys-luks
work=$(mktemp -d "${TMPDIR:-/tmp}/luks-header.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TRUSTED_KEYS_LUKS=$work/luks.conf
n=0
echo "KTAP version 1"
echo "1..22"
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); echo "not ok $n $*"; }
not() { ! "$@"; }
check() { # description command...
	local d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}

pass=$work/pass
printf 'correct horse' >"$pass"
# fmt NAME BYTES [luksFormat options]: an image with a known volume key
fmt() {
	local name=$1 bytes=$2
	shift 2
	truncate -s 40M "$work/$name.img"
	head -c "$bytes" /dev/urandom >"$work/$name.vk"
	cryptsetup luksFormat -q --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--volume-key-file "$work/$name.vk" --key-file "$pass" "$@" "$work/$name.img"
}
val() { sed -n "s/^$1 //p" "$work/$2.hdr"; }
# pbkdf2_ok NAME KEYFILE: the header's keydigest= holds for KEYFILE's bytes
pbkdf2_ok() {
	python3 - "$(val digest "$1")" "$2" <<-'EOF'
	import hashlib, sys
	kind, h, it, salt, dg = sys.argv[1].split(":")
	key = open(sys.argv[2], "rb").read()
	got = hashlib.pbkdf2_hmac(h, key, bytes.fromhex(salt), int(it), len(bytes.fromhex(dg)))
	sys.exit(0 if kind == "pbkdf2" and got.hex() == dg else 1)
	EOF
}

# 1: the installer's layout: aes-xts-plain64, 512 bits, argon2id keyslot
fmt xts 64 --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096
"$tool" header "$work/xts.img" >"$work/xts.hdr" 2>"$work/err"
check "xts: header read" test -s "$work/xts.hdr"
check "xts: UUID as cryptsetup says" test "$(val uuid xts)" = "$(cryptsetup luksUUID "$work/xts.img")"
check "xts: data offset 32768 sectors" test "$(val offset xts)" = 32768
check "xts: cipher aes-xts-plain64, 64-byte key" \
	test "$(val cipher xts)/$(val keybytes xts)" = aes-xts-plain64/64
check "xts: sector size 4096" test "$(val sector xts)" = 4096
check "xts: keydigest= is PBKDF2 of the volume key" pbkdf2_ok xts "$work/xts.vk"
head -c 64 /dev/urandom >"$work/other.vk"
check "xts: keydigest= refuses another key" not pbkdf2_ok xts "$work/other.vk"

# 2: another cipher and sector size
fmt cbc 32 --type luks2 --cipher aes-cbc-essiv:sha256 --key-size 256 --sector-size 512
"$tool" header "$work/cbc.img" >"$work/cbc.hdr" 2>&1
check "cbc: aes-cbc-essiv:sha256, 32-byte key, 512-byte sectors" \
	test "$(val cipher cbc)/$(val keybytes cbc)/$(val sector cbc)" = aes-cbc-essiv:sha256/32/512
check "cbc: keydigest= is PBKDF2 of the volume key" pbkdf2_ok cbc "$work/cbc.vk"

# 3: LUKS1 is refused with the way out
fmt l1 64 --type luks1
"$tool" header "$work/l1.img" >/dev/null 2>"$work/err"
rc=$?
check "LUKS1 refused (exit 1)" test $rc = 1
check "LUKS1: the message names cryptsetup convert" grep -q "LUKS1 has no tokens: convert" "$work/err"
check "not a LUKS volume refused" not "$tool" header /dev/null 2>/dev/null

# 4: the token bookkeeping, as enrol leaves it (written here by hand: enrol
# needs the kernel and a TPM), then status, blob, blob --set, remove
cryptsetup luksDump "$work/xts.img" | sed -n '/^Keyslots:/,/^Tokens:/p' >"$work/ks.before"
printf '{"type":"trusted-keys","keyslots":[],"blob":"%s","options":"keyhandle=0x81000001","pin":"1","cap":"sha256:15"}\n' \
	00aa11bb >"$work/tok.json"
cryptsetup token import --json-file "$work/tok.json" "$work/xts.img"
echo "$(val uuid xts) sha256:15" >"$TRUSTED_KEYS_LUKS"
"$tool" status "$work/xts.img" >"$work/status" 2>&1
check "status: enrolled, PIN yes, cap sha256:15" \
	grep -q "enrolled (token 0): options 'keyhandle=0x81000001', PIN yes, cap sha256:15" "$work/status"
check "blob: the token's blob" test "$("$tool" blob "$work/xts.img")" = 00aa11bb
echo ccdd >"$work/new.blob"
"$tool" blob "$work/xts.img" --set "$work/new.blob" >/dev/null 2>&1
check "blob --set: replaced" test "$("$tool" blob "$work/xts.img")" = ccdd
check "blob --set: options kept" grep -q "options 'keyhandle=0x81000001'" <("$tool" status "$work/xts.img" 2>&1)
"$tool" remove "$work/xts.img" >"$work/remove" 2>&1
check "remove: no token left" grep -q "not enrolled" <("$tool" status "$work/xts.img" 2>&1)
check "remove: the UUID's line gone from the config" not grep -q "$(val uuid xts)" "$TRUSTED_KEYS_LUKS"
cryptsetup luksDump "$work/xts.img" | sed -n '/^Keyslots:/,/^Tokens:/p' >"$work/ks.after"
check "remove: keyslots unchanged" cmp -s "$work/ks.before" "$work/ks.after"
vk_out() {
	cryptsetup luksDump --dump-volume-key -q --volume-key-file "$work/vk.out" \
		--key-file "$pass" "$work/xts.img" >/dev/null 2>&1
}
check "remove: the passphrase still opens the volume" vk_out
check "the passphrase gives the same volume key" cmp -s "$work/vk.out" "$work/xts.vk"

# 5: a token whose options try to smuggle anything is refused before any
# key is loaded (open stops at the check: no keyctl on this host)
printf '{"type":"trusted-keys","keyslots":[],"blob":"00","options":"keyhandle=1;reboot","pin":"0","cap":""}\n' \
	>"$work/bad.json"
cryptsetup token import --json-file "$work/bad.json" "$work/cbc.img"
"$tool" open "$work/cbc.img" evil >/dev/null 2>"$work/err"
check "open: a token's bad options refused before the TPM" \
	grep -q "options are not understood" "$work/err"
[ "$n" = 22 ] || echo "# plan 22, ran $n"
