#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark program (tests/guest/tools/encbench.c) works against both
# implementations: three rounds of new, read, load and read-back at 32 and
# 4096 bytes, the loaded key reading back byte for byte (make bench-enc
# relies on it; about a second).
here=${0%/*}
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../lib/encrypted.sh
. "$here/../lib/encrypted.sh"

t_require kernel test
t_require phase 1	# nothing after the reboot that phase 1 did not check
t_require ref
t_require tpm 1.2
t_mods ref test
for impl in ours ref; do
	if ! command -v encbench >/dev/null; then
		t_fail "encbench check, $impl" "no encbench in the initramfs"
		continue
	fi
	if ! out=$(t_mods_load ref "$impl" 2>&1); then
		t_fail "encbench check, $impl" "$out"
		continue
	fi
	t_check "encbench check, $impl" encbench check 3
done
t_mods_load ref ours >/dev/null 2>&1
