#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The in-tree reference trusted.ko works with this harness's TPM: a key sealed
# with the default keyauth (20 zero bytes: the SRK auth set by provision.sh)
# in phase 1 loads again after the reboot (phase 2, same TPM state).
# shellcheck source=/dev/null
. "$TKH_LIB"

t_require ref
opts=
[ "$TKH_TPM" = 2.0 ] && opts=" keyhandle=0x81000001"

if [ "$TKH_PHASE" = 1 ]; then
	t_check "load the reference modules" t_mods_ref || exit 0
	if id=$(keyctl add trusted ref-kmk "new 32$opts" @s 2>&1); then
		t_ok "create a trusted key with the default keyauth"
	else
		t_fail "create a trusted key with the default keyauth" "$id"
	fi
	blob=$(keyctl pipe "$id")
	printed=$(keyctl print "$id")
	if [ -n "$blob" ] && [ "$blob" = "$printed" ]; then
		t_ok "keyctl pipe and print agree"
	else
		t_fail "keyctl pipe and print agree" "pipe: $blob
print: $printed"
	fi
	if keyctl pipe "$id" | t_state_save ref-kmk.blob; then
		t_ok "save the sealed blob for phase 2"
	else
		t_fail "save the sealed blob for phase 2"
	fi
	keyctl unlink "$id" @s >/dev/null
	t_check "unload the reference modules" t_mods_none
else
	t_check "load the reference modules" t_mods_ref || exit 0
	blob=$(t_state_get ref-kmk.blob) || t_bail "phase 1 blob" "no saved blob"
	if id=$(keyctl add trusted ref-kmk "load $blob$opts" @s 2>&1); then
		t_ok "load the phase 1 blob after a reboot"
	else
		t_fail "load the phase 1 blob after a reboot" "$id"
	fi
	if [ "$(keyctl pipe "$id" 2>/dev/null)" = "$blob" ]; then
		t_ok "the loaded key pipes the same blob"
	else
		t_fail "the loaded key pipes the same blob"
	fi
	keyctl unlink "$id" @s >/dev/null
	t_check "unload the reference modules" t_mods_none
fi
