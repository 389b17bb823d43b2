#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Which crypto ours runs on, and that both ways give the same bytes.
# Ours takes the kernel's accelerated AES-CBC and SHA-256 drivers where the
# CPU has the instructions (QEMU -cpu max: the boot test-accel) and the
# libraries elsewhere (QEMU's default CPU), and says so in one line at its
# first operation; accel=0 forces the libraries. Keys sealed by one engine
# read back identical on the other, and reads running side by side under
# two masters (one shared transform pool, re-keyed by every operation) give
# each the blob it gives alone.
here=${0%/*}
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../lib/encrypted.sh
. "$here/../lib/encrypted.sh"

t_require kernel test
t_require phase 1	# nothing after the reboot that phase 1 did not check
t_require tpm 1.2
t_mods ref ours

flags=$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }

# engine: the last "SHA-256: ..., AES-256-CBC: ..." line of ours.
engine() {
	dmesg | sed -n 's/.*encrypted_keys: \(SHA-256: .*\)/\1/p' | tail -n 1
}

# fresh [PARAM]: ours reloaded (with PARAM), masters back, one key made and
# read (the first operation sets the engine up).
fresh() {
	t_mods_load ref ours >/dev/null &&
		{ [ -z "${1:-}" ] || { rmmod encrypted_keys && insmod "$TKH_MODS/encrypted-keys.ko" "$1"; }; } &&
		keyctl add user "$T_ENC_UMASTER" "$T_ENC_UBYTES" @u >/dev/null &&
		keyctl add user "$T_ENC_UMASTER2" "$T_ENC_UBYTES2" @u >/dev/null &&
		t_key_add encrypted e_first "new user:$T_ENC_UMASTER 32" && t_key_blob encrypted e_first >/dev/null
}

# seal_all: one key of each size under each user master, of known
# material; prints the four blobs.
M32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
M4K=$(i=0; while [ $i -lt 128 ]; do printf '%s' "$M32"; i=$((i + 1)); done)
seal_all() {
	for m in $T_ENC_UMASTER $T_ENC_UMASTER2; do
		for hex in "$M32" "$M4K"; do
			t_key_add encrypted "e_$m" "new user:$m $((${#hex} / 2)) $hex" &&
				_b=$(t_key_blob encrypted "e_$m") && echo "$_b" || return 1
		done
	done
}

# The engine matches the CPU.
if ! fresh; then
	t_fail "ours loaded, one key made and read" "could not set up"
	t_skip_rest "no module"
	exit 0
fi
line=$(engine)
echo "# cpu:$(for c in aes ssse3 avx avx2 sha_ni; do has $c && printf ' %s' $c; done); ours: $line"
if has aes; then
	t_check "AES-NI CPU: AES-256-CBC by cbc-aes-aesni" sh -c "echo '$line' | grep -q 'AES-256-CBC: cbc-aes-aesni '"
else
	# (7.x: the crypto API's own cbc(aes) and sha256 are the libraries'
	# wrappers, cbc-aes-lib and sha256-lib, and ours may take them)
	t_check "no AES-NI: AES-256-CBC by the library" sh -c "echo '$line' | grep -Eq 'AES-256-CBC: (library|cbc-aes-lib) '"
fi
if has ssse3; then
	t_check "SSSE3 CPU: SHA-256 by an accelerated driver" sh -c "echo '$line' | grep -Eq '^SHA-256: sha256-(ssse3|avx|avx2|ni),'"
else
	t_check "no SSSE3: SHA-256 by the library" sh -c "echo '$line' | grep -Eq '^SHA-256: (library|sha256-lib),'"
fi

# reload_all FILE: every line of FILE (a blob) loads and reads back identical.
reload_all() {
	while read -r _b; do
		t_enc_reloads e_x "$_b" >/dev/null 2>&1 ||
			{ echo "$(echo "$_b" | cut -d' ' -f1-3) ...: not read back identical" >&2; return 1; }
	done <"$1"
}

# Each engine reads the other's blobs back byte for byte.
seal_all >blobs.default
t_check "default engine: four blobs sealed" test "$(grep -c . blobs.default)" = 4
if fresh accel=0; then
	t_check "accel=0: AES-256-CBC and SHA-256 by the libraries" \
		sh -c "echo '$(engine)' | grep -q '^SHA-256: library, AES-256-CBC: library '"
	t_check "accel=0 reads the default engine's blobs back identical" reload_all blobs.default
	seal_all >blobs.lib
	if fresh; then
		t_check "the default engine reads accel=0's blobs back identical" reload_all blobs.lib
	else
		t_fail "the default engine reads accel=0's blobs back identical" "could not reload ours"
	fi
else
	t_fail "accel=0: ours reloaded" "could not set up"
fi

# Reads side by side under two masters: each blob is the one read alone.
fresh || t_bail "reload ours" "could not set up"
if ! t_key_add encrypted e_p1 "new user:$T_ENC_UMASTER 4096" || ! t_key_add encrypted e_p2 "new user:$T_ENC_UMASTER2 32"; then
	t_bail "keys for the parallel reads" "could not add"
fi
want1=$(t_key_blob encrypted e_p1) want2=$(t_key_blob encrypted e_p2)
i1=$(t_key_id encrypted e_p1) i2=$(t_key_id encrypted e_p2)
for j in 1 2 3 4; do
	(
		n=0
		while [ $n -lt 25 ]; do
			[ "$(keyctl pipe "$i1")" = "$want1" ] || echo "bad 4096-byte blob"
			[ "$(keyctl pipe "$i2")" = "$want2" ] || echo "bad 32-byte blob"
			n=$((n + 1))
		done
	) >"par.$j" 2>&1 &
done
wait
t_check "4 readers x 25 reads under two masters side by side: every blob as read alone" \
	sh -c "! cat par.1 par.2 par.3 par.4 | grep ."
rm -f par.1 par.2 par.3 par.4 blobs.default blobs.lib
t_key_drop encrypted e_first e_x e_p1 e_p2 "e_$T_ENC_UMASTER" "e_$T_ENC_UMASTER2"
