#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Pinned at enrolment (issue 22): trusted-keys-unlock --pin writes the
# parents the module trusted so far (its parents= file) as the module's
# pins, "options trusted srk_name=..." on a TPM 2.0 and "srk_pub=..." on a
# TPM 1.2, into a modprobe.d file that update-initramfs carries: the
# initramfs's first use after power-on is then checked, not trusted. The
# pin it writes lets the blob load; the same pin with one digit changed
# (another machine's TPM, an interposer's key) is refused (EKEYREJECTED).
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"
. "$here/../lib/trusted.sh"

t_require tpm any
t_require phase 1
t_require ours	# the pins are ours; the in-tree module has none
t_disk_mods >&2 || t_bail "load trusted.ko, encrypted-keys.ko and dm-crypt"
O=$(t_disk_opts)
D=/tmp/dk45
mkdir -p $D
P=/sys/module/trusted/parameters

t_check "a key made (the parent checked and trusted)" t_key_add trusted pn_k "new 32 $O"
b=$(t_key_blob trusted pn_k)
t_check "--pin writes the module's options, exit 0" \
	sh $T_DISK_UNLOCK --pin $D/pin.conf
opt=srk_pub
[ "$TKH_TPM" = 2.0 ] && opt=srk_name
# shellcheck disable=SC2016  # expanded by eval
t_check "... one line: options trusted $opt=<the pins parents= lists> require_sessions=1" \
	eval 'want=$(awk "NF == 2 { printf \"%s%s\", s, \$2; s = \",\" }" $P/parents) &&
	      [ -n "$want" ] &&
	      t_eq pin.conf "$(cat $D/pin.conf)" "options trusted $opt=$want require_sessions=1"'
pins=$(sed -n "s/^options trusted $opt=\([^ ]*\) .*/\1/p" $D/pin.conf)
echo "$pins" >$P/$opt
t_check "with that pin set, the blob loads" t_key_add trusted pn_l "load $b $O"
# another key: every pin with its last digit changed (parents= lists every
# parent trusted since the module loaded: on a kernel with the key types
# built in, earlier scripts' parents too, this key's among them)
other=$(echo "$pins" | awk -F, -v OFS=, '{
	for (i = 1; i <= NF; i++) {
		c = substr($i, length($i), 1)
		$i = substr($i, 1, length($i) - 1) (c == "0" ? "1" : "0")
	}
	print }')
echo "$other" >$P/$opt
t_errno "with another key pinned, the load is refused: EKEYREJECTED" \
	EKEYREJECTED t_key_refused trusted pn_x "load $b $O"
t_check "... with one line that names the pin" \
	eval 'dmesg | grep -q "refused: not a key $opt pins"'
echo "" >$P/$opt
t_check "pins cleared: the blob loads again" t_key_add trusted pn_c "load $b $O"
t_check "--pin to a file it cannot write: exit 1, one line" \
	eval '! sh $T_DISK_UNLOCK --pin /nonexistent/dir/x.conf 2>$D/err &&
	      [ "$(wc -l <$D/err)" -eq 1 ]'
t_drop pn_k pn_l pn_c
