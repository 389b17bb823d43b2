#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dm-crypt with our keys: one table keyed ":32:encrypted:<desc>" (the
# encrypted key under a TPM-sealed trusted master), one ":32:trusted:<desc>".
# dm-crypt.ko must resolve key_type_encrypted/key_type_trusted to our
# modules. Phase 1 writes random data through both mappings; phase 2 (after
# the reboot) reloads the blobs and reads the same data back, with ours and
# then with the in-tree encrypted-keys.ko. Needs the run's persistent disk.
here=${0%/*}
. "$here/../lib.sh"
. "$here/../lib/encrypted.sh"
. "$here/../lib/disk.sh"

t_require kernel test
t_require ref
t_require tpm 1.2
t_require disk
t_require cmd dmsetup
t_mods ours test	# both key types from our modules
t_dm_remove ek_enc ek_trs

# dm_up: dm-crypt loaded on top of what is loaded now.
dm_up() {
	t_mod_load dm-crypt || return 1
	# shellcheck disable=SC2015  # the || branch is for any of the tests failing
	[ -e /sys/module/encrypted_keys/holders/dm_crypt ] &&
		[ -e /sys/module/trusted/holders/dm_crypt ] ||
		{ echo "dm_crypt does not hold encrypted_keys and trusted" >&2; return 1; }
}

phase1() {
	t_check "our trusted.ko and encrypted-keys.ko are loaded" \
		sh -c "grep -q '^trusted .*(O' /proc/modules && grep -q '^encrypted_keys .*(O' /proc/modules"
	t_check "dm-crypt.ko links against our modules" dm_up
	if keyctl add trusted tkm "new 32" @u >/dev/null &&
		keyctl add encrypted dmk "new trusted:tkm 32" @u >/dev/null &&
		keyctl add trusted dmt "new 32" @u >/dev/null; then
		t_ok "keys: trusted master, encrypted dmk under it, trusted dmt"
	else
		t_fail "keys: trusted master, encrypted dmk under it, trusted dmt"
	fi
	s1=$(t_disk_write ek_enc :32:encrypted:dmk 0)
	t_check "data written through ':32:encrypted:dmk'" [ -n "$s1" ]
	s2=$(t_disk_write ek_trs :32:trusted:dmt 8192)
	t_check "data written through ':32:trusted:dmt'" [ -n "$s2" ]
	t_check "the disk holds ciphertext, not the data" t_disk_ciphertext 0 "$s1"
	{
		keyctl pipe %trusted:tkm && echo
		keyctl pipe %encrypted:dmk && echo
		keyctl pipe %trusted:dmt && echo
		echo "$s1"
		echo "$s2"
	} | t_state_save enc-dm
	for t in $(seq 6); do t_skip "phase 2 test $t" "runs after the reboot"; done
}

phase2() {
	for t in $(seq 6); do t_skip "phase 1 test $t" "ran before the reboot"; done
	t_state_get enc-dm >/tmp/dm || { t_skip_rest "phase 1 saved nothing"; return; }
	tkm=$(sed -n 1p /tmp/dm) dmk=$(sed -n 2p /tmp/dm) dmt=$(sed -n 3p /tmp/dm)
	s1=$(sed -n 4p /tmp/dm) s2=$(sed -n 5p /tmp/dm)
	if keyctl add trusted tkm "load $tkm" @u >/dev/null &&
		keyctl add encrypted dmk "load $dmk" @u >/dev/null &&
		keyctl add trusted dmt "load $dmt" @u >/dev/null; then
		t_ok "keys reloaded from their blobs (ours)"
	else
		t_fail "keys reloaded from their blobs (ours)"
	fi
	t_check "dm-crypt.ko links against our modules" dm_up
	t_check "':32:encrypted:dmk' reads the data of phase 1" t_disk_reads ek_enc :32:encrypted:dmk 0 "$s1"
	t_check "':32:trusted:dmt' reads the data of phase 1" t_disk_reads ek_trs :32:trusted:dmt 8192 "$s2"
	# The same blob in the in-tree encrypted-keys.ko (our trusted.ko below it).
	if t_mods_load ours ref && keyctl add trusted tkm "load $tkm" @u >/dev/null &&
		keyctl add encrypted dmk "load $dmk" @u >/dev/null; then
		t_ok "in-tree encrypted-keys.ko loads our blob"
	else
		t_fail "in-tree encrypted-keys.ko loads our blob"
	fi
	t_mod_load dm-crypt >/dev/null 2>&1
	t_check "in-tree: ':32:encrypted:dmk' reads the same data" \
		t_disk_reads ek_enc :32:encrypted:dmk 0 "$s1"
	t_dm_remove ek_enc ek_trs
	t_mods_none >/dev/null 2>&1
}

case $TKH_PHASE in
1) phase1 ;;
2) phase2 ;;
*) t_skip_rest "phase $TKH_PHASE: nothing to do" ;;
esac
t_dm_remove ek_enc ek_trs
