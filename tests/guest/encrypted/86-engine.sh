#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Which crypto ours runs on: the crypto API's "sha256" and "cbc(aes)", the
# drivers the kernel prefers (the accelerated ones where the CPU has the
# instructions: QEMU -cpu max, the boot test-accel; the generic C code on
# QEMU's default CPU), said in one line at ours' first operation, with one
# "cbc(aes)" transform per possible CPU (at most 16). Reads running side by
# side under two masters (one shared transform pool, re-keyed by every
# operation) give each the blob it gives alone.
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

# best NAME: the driver of the highest priority the kernel has for NAME.
best() {
	awk -F' *: ' -v want="$1" '$1 == "name" { n = $2 } $1 == "driver" { d = $2 }
		$1 == "priority" && n == want && $2 + 0 > p { p = $2 + 0; b = d }
		END { print b }' /proc/crypto
}

# fresh: ours reloaded, masters back, one key made and read (the first
# operation sets the engine up).
fresh() {
	t_mods_load ref ours >/dev/null &&
		keyctl add user "$T_ENC_UMASTER" "$T_ENC_UBYTES" @u >/dev/null &&
		keyctl add user "$T_ENC_UMASTER2" "$T_ENC_UBYTES2" @u >/dev/null &&
		t_key_add encrypted e_first "new user:$T_ENC_UMASTER 32" && t_key_blob encrypted e_first >/dev/null
}

# The engine is the crypto API's choice, and that matches the CPU.
if ! fresh; then
	t_fail "ours loaded, one key made and read" "could not set up"
	t_skip_rest "no module"
	exit 0
fi
line=$(engine)
echo "# cpu:$(for c in aes ssse3 avx avx2 sha_ni; do has $c && printf ' %s' $c; done); ours: $line"
sha=$(best sha256) cbc=$(best 'cbc(aes)')
t_check "SHA-256 by the kernel's preferred driver for sha256 ($sha)" \
	sh -c "echo '$line' | grep -Fq 'SHA-256: $sha,'"
t_check "AES-256-CBC by the kernel's preferred driver for cbc(aes) ($cbc)" \
	sh -c "echo '$line' | grep -Fq 'AES-256-CBC: $cbc ('"
if has aes; then
	t_check "AES-NI CPU: AES-256-CBC by cbc-aes-aesni" sh -c "echo '$line' | grep -q 'AES-256-CBC: cbc-aes-aesni '"
else
	# (7.x: the generic drivers are the libraries' wrappers, cbc-aes-lib
	# and sha256-lib)
	t_check "no AES-NI: AES-256-CBC by the generic driver" sh -c "echo '$line' | grep -Eq 'AES-256-CBC: (cbc\\(aes-generic\\)|cbc-aes-lib|cbc\\(aes-lib\\)) '"
fi
if has ssse3; then
	t_check "SSSE3 CPU: SHA-256 by an accelerated driver" sh -c "echo '$line' | grep -Eq '^SHA-256: sha256-(ssse3|avx|avx2|ni),'"
else
	t_check "no SSSE3: SHA-256 by the generic driver" sh -c "echo '$line' | grep -Eq '^SHA-256: (sha256-generic|sha256-lib),'"
fi

# cpulist N: the number of CPUs in a list such as 0-3,5.
cpulist() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF == 2 { n += $2 - $1 + 1; next } NF == 1 { n++ } END { print n + 0 }'
}
ncpu=$(cpulist "$(cat /sys/devices/system/cpu/possible)")
[ "$ncpu" -le 16 ] || ncpu=16
t_check "one cbc(aes) transform per possible CPU ($ncpu)" \
	sh -c "echo '$line' | grep -q '($ncpu transforms)\$'"

# Reads side by side under two masters: each blob is the one read alone.
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
rm -f par.1 par.2 par.3 par.4
t_key_drop encrypted e_first e_p1 e_p2
