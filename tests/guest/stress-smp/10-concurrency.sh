#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Concurrency (issue 9): tests/guest/tools/tkstress.c's threads add, update,
# read, revoke, invalidate, unlink, time out, search and request the same
# trusted and encrypted keys at once, replace, revoke and expire their
# masters, read /proc/keys, with the key GC running every second; then the
# same with a thread unloading and reloading both modules. Meant for the
# stress kernel (SMP, PREEMPT, PROVE_LOCKING, KASAN, kmemleak; make stress
# boots it with 2 vCPUs): lockdep, KASAN and kmemleak reports fail the boot.
# On the one-CPU test kernel (suite stress) it is a short smoke run.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"

cpus=$(grep -c '^processor' /proc/cpuinfo)
secs=${ST_SECS:-20}
[ "$cpus" -gt 1 ] && secs=${ST_SMP_SECS:-300}
# tk.st_secs=N on the kernel command line overrides both
c=$(sed -n 's/.*tk\.st_secs=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$c" ] && secs=$c
t_plan 3
if [ "$TKH_KERNEL" != test ] || [ "${TKH_PHASE:-1}" != 1 ]; then
	t_skip_rest "the test or stress kernel, phase 1 only"
	exit 0
fi
if ! command -v tkstress >/dev/null; then
	t_skip_rest "no tkstress in the initramfs"
	exit 0
fi
if ! t_mods_load ours ours; then
	t_skip_rest "our modules did not load"
	t_fail "modules" "t_mods_load ours ours failed"
	exit 1
fi
o=
[ "$TKH_TPM" = 2.0 ] && o=keyhandle=0x81000001
echo "# stress: $cpus CPUs, $secs s a run, TPM $TKH_TPM"
locks() { grep -c . /proc/lockdep_chains 2>/dev/null || echo 0; }
run() { # DESC ARGS...
	_d=$1
	shift
	_out=$(tkstress -t "$TKH_TPM" -x "$o" -d "$secs" "$@" 2>&1)
	_rc=$?
	printf '%s\n' "$_out" | grep '^# stress'
	if [ $_rc -eq 0 ]; then t_ok "$_d"; else t_fail "$_d" "$_out"; fi
}
run "8 threads on both key types and their masters, GC every second" -j 8 -s 1
run "the same with rmmod and reload of both modules meanwhile" -j 8 -s 2 \
	-m "$TKH_MODS/trusted.ko,$TKH_MODS/encrypted-keys.ko"
t_mods_load ours ours >/dev/null 2>&1
t_check "afterwards the modules load and a key is made" sh -c \
	'keyctl add user st_z 01234567890123456789012345678901 @u >/dev/null &&
	 keyctl add encrypted st_y "new user:st_z 32" @u >/dev/null'
echo "# stress: lockdep chains $(locks)"
