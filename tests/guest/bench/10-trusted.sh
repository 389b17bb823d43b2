#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (make bench): trusted key operations, ours (default
# options: sessions on) against the in-tree module, in the same boot with
# the same TPM (1.2 or 2.0; on a TPM 2.0 under the SRK at 0x81000001).
#
# TPM commands per operation: one of each operation between two marker
# commands, a read of exactly PCR s (s = 0..7: the segment's number; TPM 1.2
# TPM_PCRRead through /dev/tpm0, TPM 2.0 PCR_Read of the sha256 bank from
# sysfs); tests/qemu/tpm1_count.py counts the commands between markers in
# swtpm's log and names the segments from the "# seg s IMPL OP" lines.
# Latency: "# bench IMPL OP N MS" lines for tests/qemu/bench.sh, 2 rounds each.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"

# tk.bench_n=N on the kernel command line (tests/qemu/bench.sh sets it).
N=$(sed -n 's/.*tk\.bench_n=\([0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-20}
# The in-tree TPM 2.0 code has no default parent: both get the SRK.
KH=
[ "$TKH_TPM" = 2.0 ] && KH=" keyhandle=0x81000001"

t_plan 5
if [ -z "$TKH_REF" ] || [ ! -c /dev/tpm0 ]; then
	t_skip_n 5 "needs a TPM and the in-tree reference on this kernel: no ratio to report"
	exit 0
fi

# Milliseconds since boot; busybox date has no %N everywhere, uptime does.
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# marker S: one TPM command that reads PCR S and nothing else.
marker() {
	if [ "$TKH_TPM" = 2.0 ]; then
		cat /sys/class/tpm/tpm0/pcr-sha256/"$1" >/dev/null
	else
		# TPM_PCRRead: tag RQU_COMMAND, size 14, ordinal 0x15, pcrIndex
		_m=$(t_tpm_send "00c10000000e00000015$(printf %08x "$1")") &&
			[ "$(echo "$_m" | cut -c13-20)" = 00000000 ]
	fi
}

# seg S IMPL OP CMD...: CMD once between markers; "# seg S IMPL OP".
seg() {
	_s=$1 _si=$2 _so=$3
	shift 3
	echo "# seg $_s $_si $_so"
	marker "$_s" || { echo "marker $_s failed" >&2; return 1; }
	"$@" >/dev/null || { echo "segment $_s ($_si $_so) failed" >&2; return 1; }
}

# counts: new, load, update once each, ours (segments 0-2, marker 3 ends
# them) then in-tree (4-6, 7), each after one unmeasured new (a module's
# first operation may do one-time work).
counts() {
	_cs=0
	for _ci in ours ref; do
		t_mods_load $_ci ref-if-any && t_key_add trusted w "new 32$KH" || return 1
		seg $_cs $_ci new t_key_add trusted c "new 32$KH" && _cb=$(t_key_blob trusted c) &&
			seg $((_cs + 1)) $_ci load t_key_add trusted c2 "load $_cb$KH" &&
			seg $((_cs + 2)) $_ci update keyctl update "$(t_key_id trusted c)" "update$KH" &&
			marker $((_cs + 3)) || return 1
		t_drop w c c2
		_cs=$((_cs + 4))
	done
}

# timed IMPL OP FUNC: run "FUNC i" for i = 0..N-1 and print
# "# bench IMPL OP N MS". Nothing but FUNC runs inside the timing.
timed() {
	_t0=$(now_ms)
	_i=0
	while [ $_i -lt "$N" ]; do
		$3 $_i >/dev/null || return 1
		_i=$((_i + 1))
	done
	echo "# bench $1 $2 $N $(($(now_ms) - _t0))"
}

op_new() { keyctl add trusted "n$1" "new 32$KH" "$_r"; }
op_load() { keyctl add trusted "l$1" "load $_b$KH" "$_r"; }
op_update() { keyctl update "$_id" "update$KH"; }

# measure IMPL: N x new, N x load, N x update; print the lines.
measure() {
	_dir=$TKH_MODS
	[ "$1" = ref ] && _dir=$TKH_REF
	t_mods_none && t_mod_insmod "$_dir" trusted.ko || return 1
	keyctl newring bench @s >/dev/null || return 1
	_r=$(keyctl search @s keyring bench) || return 1
	timed "$1" new op_new || return 1
	_b=$(keyctl pipe "$(keyctl search "$_r" trusted n0)") || return 1
	timed "$1" load op_load || return 1
	_id=$(keyctl search "$_r" trusted n0) || return 1
	timed "$1" update op_update || return 1
	keyctl unlink "$_r" @s >/dev/null
	keyctl clear "$_r" >/dev/null 2>&1
	return 0
}

# Not in $(...): the "# seg" lines go to the KTAP as they are made.
if counts 2>/tmp/bench.err; then
	t_ok "one new, load, update each between markers, ours and in-tree"
else
	t_fail "one new, load, update each between markers, ours and in-tree" "$(cat /tmp/bench.err)"
fi
t_drop w c c2
t_mods_none

# Rounds alternate between the modules, so that drift (the host's load, the
# keyrings) weighs on both alike: ours, ref, ours, ref.
for round in "1 ours" "1 ref" "2 ours" "2 ref"; do
	impl=${round#* }
	if out=$(measure "$impl" 2>&1); then
		echo "$out"
		t_ok "round ${round% *}, $impl: $N x new, load, update"
	else
		t_fail "round ${round% *}, $impl: $N x new, load, update" "$out"
	fi
done
t_mods_none
