# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the fault-injection suite (tests/guest/tools/tkfault.c does the
# work); sourced after lib.sh, never run. The stress suite sources this
# with T_FAULT_FULL=1: the whole fault space instead of a stride through it.

T_FAULT_STRIDE=${T_FAULT_STRIDE:-3}
[ "${T_FAULT_FULL:-0}" = 1 ] && T_FAULT_STRIDE=1

# t_fault_why: empty when this boot can inject faults into our modules.
t_fault_why() {
	if [ "$TKH_KERNEL" != test ]; then
		echo "fault injection needs the test kernel"
	elif [ "${TKH_PHASE:-1}" != 1 ]; then
		echo "runs in phase 1 only"
	elif [ ! -e /proc/thread-self/fail-nth ] || [ ! -w /sys/kernel/debug/fail_function/inject ]; then
		echo "no CONFIG_FAULT_INJECTION / FAIL_FUNCTION in this kernel"
	elif ! command -v tkfault >/dev/null; then
		echo "no tkfault in the initramfs"
	fi
}

# t_fault_opts: the trusted key options of this TPM.
t_fault_opts() {
	[ "$TKH_TPM" = 2.0 ] && echo keyhandle=0x81000001
}

# t_fault_run DESC TKFAULT-ARGS...: one KTAP result; tkfault's summary lines
# become diagnostics, and are appended to /tmp/ft.sum.
t_fault_run() {
	_d=$1
	shift
	_o=$(tkfault -t "$TKH_TPM" -s "$T_FAULT_STRIDE" "$@" 2>&1)
	_rc=$?
	printf '%s\n' "$_o" | grep '^# faults' >>/tmp/ft.sum
	if [ $_rc -eq 0 ]; then
		printf '%s\n' "$_o" | grep '^#'
		t_ok "$_d"
	else
		t_fail "$_d" "$(printf 'tkfault %s: exit %s\n%s' "$*" "$_rc" "$_o" | sed 's/^# //')"
	fi
}

# t_fault_total: "operations N injected N" summed over /tmp/ft.sum.
t_fault_total() {
	awk '{ for (i = 1; i < NF; i++) { if ($i == "runs") r += $(i + 1); if ($i == "injected") f += $(i + 1) } }
	     END { printf "runs %d, faults injected %d\n", r, f }' /tmp/ft.sum
}
