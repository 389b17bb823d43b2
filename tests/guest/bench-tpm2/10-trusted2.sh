#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (tests/qemu/bench-tpm2.sh): TPM 2.0 trusted key
# operations, ours against the in-tree module, in one boot with one swtpm.
#
# TPM commands per operation: each operation runs once between two marker
# commands, a PCR_Read of one PCR from sysfs (PCR 0..11: the segment's
# number); the host counts the commands between markers in swtpm's log.
# Latency: each operation N times a round, "# bench-tpm2 IMPL OP N MS" lines.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"

N=$(sed -n 's/.*tk\.bench_n=\([0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-10}
KH=keyhandle=0x81000001

t_plan 3
if [ "$TKH_TPM" != 2.0 ] || [ -z "$TKH_REF" ] || ! t_tpm2_srk_present; then
	t_skip_n 3 "needs a TPM 2.0 with an SRK and the in-tree module"
	exit 0
fi

now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
marker() { cat /sys/class/tpm/tpm0/pcr-sha256/"$1" >/dev/null; }

# seg NUM IMPL OP CMD...: CMD once between markers; "# seg NUM IMPL OP".
seg() {
	_s=$1 _i=$2 _o=$3
	shift 3
	echo "# seg $_s $_i $_o"
	marker "$_s"
	"$@" >/dev/null || { echo "segment $_s ($_i $_o) failed" >&2; return 1; }
}

# repeat IMPL OP CMD-WITH-%I: N runs, %I replaced by the run number.
repeat() {
	_impl=$1 _op=$2 _cmd=$3 _k=0
	_t0=$(now_ms)
	while [ $_k -lt "$N" ]; do
		eval "$(echo "$_cmd" | sed "s/%I/$_k/g")" >/dev/null || return 1
		_k=$((_k + 1))
	done
	echo "# bench-tpm2 $_impl $_op $N $(($(now_ms) - _t0))"
}

counts() {
	t_mods_load ours ref-if-any || return 1
	# the module's first use checks the parent and starts the session it
	# then keeps (ReadPublic, StartAuthSession): not counted
	t_key_add trusted w "new 32 $KH" &&
	seg 0 ours new-kh t_key_add trusted a "new 32 $KH" && ba=$(t_key_blob trusted a) &&
	seg 1 ours load-kh t_key_add trusted a2 "load $ba" &&
	seg 2 ours update t_updates a "$KH" &&
	seg 3 ours new-default t_key_add trusted d "new 32" &&
	seg 4 ours new-primary t_key_add trusted o "new 32 keyhandle=0x40000001" && bo=$(t_key_blob trusted o) &&
	seg 5 ours load-primary t_key_add trusted o2 "load $bo" &&
	seg 6 ours new-pcrs t_key_add trusted p "new 32 pcrs=sha256:16" && bp=$(t_key_blob trusted p) &&
	seg 7 ours load-pcrs t_key_add trusted p2 "load $bp" &&
	t_mods_load ref ref-if-any &&
	seg 8 ref new-kh t_key_add trusted r "new 32 $KH" && br=$(t_key_blob trusted r) &&
	seg 9 ref load-kh t_key_add trusted r2 "load $br" &&
	seg 10 ref update t_updates r "$KH" &&
	marker 11
}

# round IMPL: N of each operation both modules have, in IMPL.
round() {
	_b=$ba
	[ "$1" = ref ] && _b=$br
	t_mods_load "$1" ref-if-any || return 1
	repeat "$1" new-kh "keyctl add trusted n%I 'new 32 $KH' @u" &&
	repeat "$1" load-kh "keyctl add trusted l%I 'load $_b' @u" &&
	repeat "$1" update "keyctl update \$(keyctl search @u trusted n0) 'update $KH'" &&
	keyctl clear @u
}

# Rounds alternate between the modules, so that drift (the keyring, the
# guest's caches) weighs on both alike; then ours' own operations.
latency() {
	round ours && round ref && round ours && round ref || return 1
	t_mods_load ours ref-if-any &&
	repeat ours new-default "keyctl add trusted d%I 'new 32' @u" &&
	repeat ours new-primary "keyctl add trusted o%I 'new 32 keyhandle=0x40000001' @u" &&
	repeat ours load-primary "keyctl add trusted q%I 'load $bo' @u" &&
	repeat ours new-pcrs "keyctl add trusted p%I 'new 32 pcrs=sha256:16' @u" &&
	repeat ours load-pcrs "keyctl add trusted s%I 'load $bp' @u" &&
	keyctl clear @u
}

# Not in $(...): latency needs the blobs counts made.
if counts 2>/tmp/bench-tpm2.err; then
	t_ok "one of each operation between markers, ours and in-tree"
else
	t_fail "one of each operation between markers, ours and in-tree" "$(cat /tmp/bench-tpm2.err)"
fi
keyctl clear @u
if latency 2>/tmp/bench-tpm2.err; then
	t_ok "2 x $N of each operation, ours and in-tree alternating"
else
	t_fail "2 x $N of each operation, ours and in-tree alternating" "$(cat /tmp/bench-tpm2.err)"
fi
t_check "no transient object or session left in the TPM" \
	t_eq "objects, loaded and saved sessions" "$(t_tpm2_leftovers)" "0 0 0"
t_mods_none
