#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Where ECDH is a module (ecdh_generic on Debian's stock kernels), sessions
# load it themselves: the kernel's own lookup asks the module loader for
# "crypto-ecdh-nist-p256", which no module is aliased as, so trusted.ko
# asks for "crypto-ecdh" (docs/tpm2-sessions.md). With ecdh_generic
# unloaded, a new key in sessions works and the module is back.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

t_require phase 1
why=
grep -q '^ecdh_generic ' /proc/modules ||
	why="ECDH is built into this kernel (no ecdh_generic module)"
t_tpm2_sessions_begin "$why" || exit 0

t_check "ecdh_generic unloads (nothing holds it between key operations)" \
	sh -c 'rmmod ecdh_generic && ! grep -q "^ecdh_generic " /proc/modules'
t_check "a new key in sessions loads ecdh_generic by its alias crypto-ecdh" \
	sh -c 'keyctl add trusted ecdh_k "new 32 keyhandle=0x81000001" @u >/dev/null &&
		grep -q "^ecdh_generic " /proc/modules'
t_drop ecdh_k
