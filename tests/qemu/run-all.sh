#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The full guest run: the boots of the table below, one aggregated verdict.
#
# usage: run-all.sh               run the boots (TKH_ONLY, default all), in parallel
#        run-all.sh --help        this text and the boot names
#        run-all.sh --table-md    the boot table as docs/testing.md shows it
#        run-all.sh --check-doc   fail when docs/testing.md's table is not --table-md's
#        run-all.sh --update-doc  rewrite docs/testing.md's table
#
# One row of the table is one machine: a kernel, a fresh TPM (provision.sh; kept
# across the machine's boots), a scratch disk and a state directory (the files
# its tests save are carried to its next boot), booted once per phase, in order.
# A machine's phases may boot different kernels (the kernel column a comma
# list, one per phase: row_kernels, phase_kernel): the same TPM, disk and
# state then meet another kernel's key types (interop-evm: blobs of the
# in-tree types load in ours and back); tk.kernel= names the phase's kernel.
# Each kernel is prepared once (t_prepare: kernel, our modules, initramfs) for
# all of its machines; a machine starts when all of its kernels are ready. Machines run in a pool of TKH_JOBS (default: nproc) at a
# time, the longest first; each has its own run directory, swtpm and disk.
#
# Environment (host knobs and the guest's variables are TKH_*):
#   TKH_ONLY=a,b        the boots to run (default: every row)
#   TKH_SUITES=a,b      override the suites of every boot
#   TKH_JOBS=N          machines at a time (default: nproc)
#   TKH_NO_OURS=1       go on without our modules when src/ does not build
#                       (harness development only; never in CI)
#   TKH_IMPL=ref        tests load the in-tree reference instead of ours
#                       (tk.impl=ref; only where a reference exists)
#   TKH_RUN=DIR         run directory (default build/run-<timestamp>)
#   TKH_DISK_MB         scratch disk size (default 64)
#   TKH_EXTRA="w1 w2"   extra kernel command-line words for every boot
#                       (make stress: tk.timeout=)
#   TKH_BOOT_TIMEOUT, TKH_VERBOSE, TKH_MEM   passed to boot.sh
#   TKH_PKG_READY=FILE  make check: the package test's boots share the pool's
#                       slots (free_slots below)
# Output: one line per boot as its machine finishes, one per failed step, the
# times, then "N passed, N failed, N skipped"; exit 0 only when nothing failed.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

# Suite sets: adding a suite to every boot of a set is a one-word change here.
TPM12_SUITES=selftest,trusted-tpm1,encrypted,disk	# TPM 1.2 machines, test and stock
TPM2_SUITES=selftest,trusted-tpm2,tpm2tools,disk	# TPM 2.0 machines with an SRK

# The boots; adding one is one row. Columns:
#   name     what TKH_ONLY and the output call it
#   kernel   test (build-kernel.sh) | stock61 | stock612 (fetch-stock.sh)
#            | evm-ref | evm (build-kernel.sh evm-ref|evm: both key types,
#            EVM, IMA, dm-crypt built in; evm with our series applied);
#            or one of these per phase, comma-separated (evm-ref,evm,evm-ref)
#   tpm      1.2 | 2.0 | none (no swtpm, no TPM device)
#   prov     srk: the SRK (1.2: auth 20 zero bytes; 2.0: persistent at 0x81000001)
#            | nosrk (2.0 without a persistent SRK) | - (no TPM)
#   phases   boots of the machine, in order (comma-separated)
#   suites   comma-separated; a suite without scripts is left out
#   extra    the rest of the line: extra kernel command-line words (- for none)
# The order is the table's order in docs/testing.md and in the results.
boot_table() {
	cat <<EOF
test             test      1.2   srk    1,2  $TPM12_SUITES,regress,faults  -
test-tpm2        test      2.0   srk    1,2  $TPM2_SUITES,faults  -
test-tpm2-nosrk  test      2.0   nosrk  1    trusted-tpm2  -
test-notpm       test      none  -      1    notpm  -
test-relay       test      2.0   srk    1    relay  tk.relay=record tk.timeout=900
test-relay12     test      1.2   srk    1    relay  tk.relay=record tk.timeout=900
test-accel       test      1.2   srk    1    encrypted  tk.cpu=max
stock61          stock61   1.2   srk    1,2  $TPM12_SUITES  -
stock61-tpm2     stock61   2.0   srk    1,2  $TPM2_SUITES  -
stock612         stock612  1.2   srk    1,2  $TPM12_SUITES  -
stock612-tpm2    stock612  2.0   srk    1,2  $TPM2_SUITES  -
demo             stock61   2.0   srk    1,2  demo-tpm2  tk.relay=record tk.relay_disk=1
evm-ref          evm-ref   2.0   srk    1,2,3  evm  -
evm-ref12        evm-ref   1.2   srk    1,2,3  evm  -
evm              evm       2.0   srk    1,2,3  evm  -
evm12            evm       1.2   srk    1,2,3  evm  -
evm-tpm2         evm       2.0   srk    1,2  trusted-tpm2  -
evm-enc          evm       1.2   srk    1,2  encrypted  -
interop-evm      evm-ref,evm,evm-ref  2.0  srk  1,2,3  evm-interop  -
interop-evm12    evm-ref,evm,evm-ref  1.2  srk  1,2,3  evm-interop  -
EOF
}

declare -A B_KERNEL B_TPM B_PROV B_PHASES B_SUITES B_EXTRA
ALL=()
while read -r n k t p ph s x; do
	ALL+=("$n")
	B_KERNEL[$n]=$k B_TPM[$n]=$t B_PROV[$n]=$p B_PHASES[$n]=$ph B_SUITES[$n]=$s B_EXTRA[$n]=$x
done < <(boot_table)

# A row's kernel column: one kernel for all of its phases, or a comma list
# of one kernel per phase. row_kernels NAME: its kernels, each once, in
# order; phase_kernel NAME I: the kernel of its I-th phase (from 1).
row_kernels() {
	tr ',' '\n' <<<"${B_KERNEL[$1]}" | awk '!seen[$0]++'
}
phase_kernel() {
	local k
	IFS=, read -r -a k <<<"${B_KERNEL[$1]}"
	if [ "${#k[@]}" = 1 ]; then echo "${k[0]}"; else echo "${k[$2 - 1]}"; fi
}
for n in "${ALL[@]}"; do
	IFS=, read -r -a _k <<<"${B_KERNEL[$n]}"
	IFS=, read -r -a _p <<<"${B_PHASES[$n]}"
	[ "${#_k[@]}" = 1 ] || [ "${#_k[@]}" = "${#_p[@]}" ] ||
		die "boot table: $n names ${#_k[@]} kernels for ${#_p[@]} phases (one, or one a phase)"
done

usage() {
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	echo "Boots: ${ALL[*]}"
}

# The table in Markdown, between the markers docs/testing.md carries.
MD_BEGIN='<!-- boot table: tests/qemu/run-all.sh --table-md; run-all.sh --update-doc rewrites it -->'
MD_END='<!-- end of boot table -->'
table_md() {
	local n q='`'
	echo "$MD_BEGIN"
	echo "| name | kernel | TPM | provisioning | phases | suites | extra command line |"
	echo "|---|---|---|---|---|---|---|"
	for n in "${ALL[@]}"; do
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$q$n$q" "${B_KERNEL[$n]//,/, }" "${B_TPM[$n]}" \
			"${B_PROV[$n]}" "${B_PHASES[$n]//,/, }" "${B_SUITES[$n]//,/, }" \
			"$(if [ "${B_EXTRA[$n]}" = - ]; then echo -; else echo "$q${B_EXTRA[$n]}$q"; fi)"
	done
	echo "$MD_END"
}

# docs/testing.md with its table section replaced by table_md's.
doc_with_table() {
	local doc=$TKH_TOP/docs/testing.md
	if ! grep -qxF "$MD_BEGIN" "$doc" || ! grep -qxF "$MD_END" "$doc"; then
		die "docs/testing.md has no boot table markers"
	fi
	awk -v b="$MD_BEGIN" -v e="$MD_END" -v t="$(table_md)" '
		$0 == b { print t; skip = 1; next }
		$0 == e { skip = 0; next }
		!skip' "$doc"
}

case ${1:-} in
-h|--help) usage; exit 0 ;;
--table-md) table_md; exit 0 ;;
--check-doc)
	if ! doc_with_table | diff -u "$TKH_TOP/docs/testing.md" - >&2; then
		echo "docs/testing.md: the boot table differs from run-all.sh's (run-all.sh --update-doc)" >&2
		exit 1
	fi
	echo "docs/testing.md: boot table in sync"
	exit 0 ;;
--update-doc)
	doc_with_table >"$TKH_TOP/docs/testing.md.tmp"
	mv "$TKH_TOP/docs/testing.md.tmp" "$TKH_TOP/docs/testing.md"
	exit 0 ;;
'') ;;
*) usage >&2; exit 2 ;;
esac

need make python3 rsync flock
only=${TKH_ONLY:-$(IFS=,; echo "${ALL[*]}")}
for n in ${only//,/ }; do
	[ -n "${B_KERNEL[$n]:-}" ] || die "TKH_ONLY: unknown boot '$n' (${ALL[*]})"
done
run=$(t_rundir)
export TKH_NESTED=1
jobs=${TKH_JOBS:-$(nproc)}
log "run directory $run, $jobs machines at a time"
rm -rf "$run/jobs" "$run/failed"
mkdir -p "$run/jobs"
: >"$run/boots.txt"      # NAME STATUS PASSED FAILED SKIPPED
: >"$run/times.txt"      # STEP SECONDS

# A failure outside a boot (build, provisioning): one failed point, with a
# counts file of its own (check.sh sums every counts file of the run).
fail_step() { # name message
	echo "FAIL $1: $2"
	mkdir -p "$run/failed/$1"
	echo "0 1 0" >"$run/failed/$1/counts"
	echo "$1 fail 0 1 0" >>"$t_boots"
}

# Keep the suites that have at least one script (said once per suite).
declare -A noted=()
suites_with_tests() { # a,b,c
	local s
	suites=
	for s in ${1//,/ }; do
		if compgen -G "$TKH_TOP/tests/guest/$s/*.sh" >/dev/null; then
			suites=${suites:+$suites,}$s
		elif [ -z "${noted[$s]:-}" ]; then
			noted[$s]=1
			log "suite '$s' has no scripts: left out"
		fi
	done
}

# A job of the pool: the verdict parser's and the bench command counter's own tests.
job_selftest() {
	t_step "harness self-test" python3 "$TKH_QEMU/ktap_test.py" ||
		fail_step harness "ktap_test.py failed (see $run/jobs/harness.log)"
	t_step "command counter self-test" python3 "$TKH_QEMU/count_test.py" ||
		fail_step harness "count_test.py failed (see $run/jobs/harness.log)"
}

# A job of the pool: prepare KERNEL once for all of its machines.
# A kernel that is not in the cache yet is built here (minutes): a line on
# run-all's own stderr every 30 s while it prepares, with build-kernel.sh's
# last count of objects built once there is one.
job_prepare() { # kernel
	local ticker t0=$SECONDS
	( while sleep 30; do
		last=$(grep -a '^build-kernel .* objects built' "$run/jobs/prepare-$1.log" 2>/dev/null |
			tail -n 1) || true
		echo "run-all: preparing kernel $1: $((SECONDS - t0)) s${last:+, ${last#build-kernel * }}" \
			"(an uncached kernel builds for minutes; $run/jobs/prepare-$1.log)" >&"$progress_fd"
	done ) &
	ticker=$!
	t_prepare "$1" "$run/kernel-$1" || fail_step "$1" "preparing the $1 machine failed (see $run/jobs/prepare-$1.log)"
	kill "$ticker" 2>/dev/null || true
}

# Before each boot, a suite's host step when it has one: an executable
# tests/guest/SUITE/host-step, run as "host-step PHASE TPM TPMSTATE STATEDIR
# KERNEL" while no swtpm serves TPMSTATE; files it writes to STATEDIR reach
# the guest as saved state; TKH_DISK names the machine's scratch disk image.
# Its failure is a failed step of the machine.
host_steps() { # name phase tpm tpmdir statedir kernel
	local s hook
	for s in ${B_RUN[$1]//,/ }; do
		hook=$TKH_TOP/tests/guest/$s/host-step
		[ -x "$hook" ] || continue
		TKH_DISK=$run/$1/disk.img t_step "$1: $s host step $2" "$hook" "$2" "$3" "$4" "$5" "$6" ||
			fail_step "$1-p$2-$s-host" "$s host step failed (see $run/jobs/$1.log)"
	done
}

# A job of the pool: one machine, its phases in order.
job_machine() { # name
	local name=$1 d=$run/$1 tpm=${B_TPM[$1]} suites=${B_RUN[$1]} phase out rc image initrd kver
	local tpmdir=- prov=() i=0 k kvers=
	rm -rf "$d"
	mkdir -p "$d/state"
	if [ "$tpm" != none ]; then
		tpmdir=$d/tpm
		[ "${B_PROV[$name]}" = nosrk ] && prov=(--no-srk)
		t_step "$name: provision TPM $tpm" "$TKH_QEMU/provision.sh" "$tpm" "$tpmdir" "${prov[@]}" ||
			{ fail_step "$name" "TPM provisioning failed"; return 0; }
	fi
	# A scratch disk of this machine (/dev/vda), kept across its boots.
	truncate -s "${TKH_DISK_MB:-64}M" "$d/disk.img"
	for phase in ${B_PHASES[$name]//,/ }; do
		out=$d/p$phase i=$((i + 1)) k=$(phase_kernel "$name" $i)
		read -r image initrd kver _ <"$run/kernel-$k/machine"
		kvers=${kvers:+$kvers,}$kver
		host_steps "$name" "$phase" "$tpm" "$tpmdir" "$d/state" "$k"
		rc=0
		TKH_DISK=$d/disk.img TKH_BOOT_NAME=$name-p$phase t_step "$name: boot phase $phase" \
			t_boot_tries "$image" "$initrd" "$tpmdir" "$tpm" \
			"tk.phase=$phase tk.kernel=$k tk.suites=$suites${TKH_IMPL:+ tk.impl=$TKH_IMPL}$(
				[ "${B_EXTRA[$name]}" = - ] || echo " ${B_EXTRA[$name]}")${TKH_EXTRA:+ $TKH_EXTRA}" \
			"$out" "$d/state" || rc=$?
		if [ -f "$out/counts" ]; then
			echo "$name-p$phase $([ $rc = 0 ] && echo pass || echo fail) $(cat "$out/counts")" >>"$t_boots"
		else
			fail_step "$name-p$phase" "no verdict (boot.sh exit $rc)"
		fi
		cp -a "$out/state/." "$d/state/" 2>/dev/null || true
	done
	log "$name ($kvers) done"
}

# The order of the pool: longest first. A machine's time in an earlier run
# with the same suites (t_time_get "NAME SUITES": in the cache, so that a
# clean clone orders by this machine's last run too; a fresh cache, by
# tests/qemu/boot-times), else an estimate: a
# suite takes about 50 s a phase on a stock kernel and three times that on
# the test kernel (KASAN, kmemleak).
cost() { # name
	local n=$1 s=${B_RUN[$1]} p=${B_PHASES[$1]} w=50 t
	t=$(t_time_get "$n $s")
	if [ -z "$t" ]; then
		[ "${B_KERNEL[$n]}" = test ] && w=150
		p=${p//[!,]/} s=${s//[!,]/}	# the commas: one fewer than the items
		t=$((w * (${#p} + 1) * (${#s} + 1)))
	fi
	echo "${t%.*}"
}

# Remember each machine's time (its steps' sum) for the next run's order.
save_times() {
	local n t
	for n in "${selected[@]}"; do
		t=$(awk '{ t += $NF } END { printf "%d", t }' "$run/jobs/$n.times" 2>/dev/null)
		[ "${t:-0}" -gt 0 ] || continue
		t_time_set "$n ${B_RUN[$n]}" "$t"
	done
}

# --- run ------------------------------------------------------------------
t_run=$(now)
t_boots=$run/jobs/select.boots
: >"$t_boots"
declare -A B_RUN=()	# the suites a machine runs
selected=()
for n in ${only//,/ }; do
	suites_with_tests "${TKH_SUITES:-${B_SUITES[$n]}}"
	if [ -z "$suites" ]; then
		echo "SKIP $n: no test scripts in its suites (${TKH_SUITES:-${B_SUITES[$n]}})"
		echo "$n skip 0 0 0" >>"$t_boots"
		continue
	fi
	B_RUN[$n]=$suites
	selected+=("$n")
done
mapfile -t pending < <(for n in "${selected[@]}"; do echo "$(cost "$n") $n"; done | sort -s -k1,1nr | cut -d' ' -f2)

declare -A kstate=() job_of=()	# kernel: preparing|ready|failed; pid: job name
running=0
# The processes under PID, deepest first (timeout(1) puts QEMU in a group
# of its own, so a job's process group does not hold all of it).
# shellcheck disable=SC2317  # invoked by the trap
descendants() { # pid
	local c
	for c in $(ps -o pid= --ppid "$1"); do
		descendants "$c"
		echo "$c"
	done
}
# shellcheck disable=SC2317  # invoked by the trap
stop_jobs() {
	local pid
	for pid in "${!job_of[@]}"; do
		# shellcheck disable=SC2046  # a list of pids
		kill $(descendants "$pid") "$pid" 2>/dev/null || true
	done
}
trap 'stop_jobs; exit 130' INT TERM
exec {progress_fd}>&2	# job_prepare's progress lines
set -m	# each job in its own process group (no terminal signals to the boots)

# A job's stdout (its verdict lines) is printed when it ends, its stderr kept
# in its log; with TKH_VERBOSE=1 the stderr (consoles) streams here instead.
start_job() { # name function arg...
	local name=$1 err=$run/jobs/$1.log
	[ "${TKH_VERBOSE:-0}" != 1 ] || err=/dev/stderr
	(
		t_times=$run/jobs/$name.times t_boots=$run/jobs/$name.boots
		: >"$t_times"
		: >"$t_boots"
		"${@:2}"
	) >"$run/jobs/$name.out" 2>"$err" </dev/null &
	job_of[$!]=$name
	running=$((running + 1))
}

# machine_kstate NAME: the state of a machine's kernels: "failed K" (K
# could not be prepared), "new K" (nobody prepares K yet: the first such),
# preparing, or ready (all of them).
machine_kstate() {
	local k new='' busy=''
	for k in $(row_kernels "$1"); do
		case ${kstate[$k]:-} in
		failed) echo "failed $k"; return ;;
		'') new=${new:-$k} ;;
		preparing) busy=1 ;;
		esac
	done
	if [ -n "$new" ]; then echo "new $new"; elif [ -n "$busy" ]; then echo preparing; else echo ready; fi
}

# Start what can start: the first pending machine whose kernels are ready,
# or the preparation of the first kernel nobody prepares yet.
start_more() {
	local i n k st again=1
	while [ "$running" -lt $((jobs - reserve)) ] && [ "$again" = 1 ]; do
		again=0
		for i in "${!pending[@]}"; do
			n=${pending[$i]}
			read -r st k <<<"$(machine_kstate "$n")"
			case $st in
			ready)
				unset "pending[$i]"
				log "start $n"
				start_job "$n" job_machine "$n"
				again=1
				break ;;
			failed)
				unset "pending[$i]"
				echo "SKIP $n: its kernel $k could not be prepared" >"$run/jobs/$n.out"
				echo "$n skip 0 0 0" >"$run/jobs/$n.boots"
				cat "$run/jobs/$n.out"
				again=1
				break ;;
			new)
				kstate[$k]=preparing
				log "prepare $k"
				start_job "prepare-$k" job_prepare "$k"
				again=1
				break ;;
			esac
		done
	done
}

# Once no machine is left to start, the number of free slots of the pool in
# $run/guest-free-slots: the package test of make check boots in them
# (dkms-test.sh, TKH_PKG_SLOTS) instead of waiting for the last machine.
# TKH_PKG_READY=FILE (make check, the package test beside): FILE holds the
# seconds of the package test's boots once they are ready to start (it is
# removed when they are done); when the machines left to start add up to no
# more, the pool keeps one slot for them (reserve, and the free slots written
# from then on), so that both end about together instead of those boots
# running after the pool's last machine.
reserve=0
pkg_reserve() {
	local w left=0 n
	if [ "$reserve" = 1 ]; then
		[ -s "${TKH_PKG_READY:-}" ] || reserve=0
		return 0
	fi
	[ -n "${TKH_PKG_READY:-}" ] && [ "$jobs" -gt 1 ] && [ "${#pending[@]}" -gt 0 ] &&
		[ -s "$TKH_PKG_READY" ] || return 0
	w=$(cat "$TKH_PKG_READY")
	for n in "${pending[@]}"; do left=$((left + $(cost "$n"))); done
	if [ "$left" -le "${w:-0}" ]; then
		reserve=1
		log "a slot for the package test's boots ($w s), $left s of machines left to start"
	fi
}
free_slots() {
	if [ "${#pending[@]}" = 0 ] || [ "$reserve" = 1 ]; then
		echo $((jobs - running)) >"$run/guest-free-slots.tmp"
		mv "$run/guest-free-slots.tmp" "$run/guest-free-slots"
	fi
}
rm -f "$run/guest-free-slots"
start_job harness job_selftest
pkg_reserve
start_more
free_slots
while [ "$running" -gt 0 ]; do
	pid=
	wait -n -p pid || true
	[ -n "$pid" ] || continue
	name=${job_of[$pid]}
	unset "job_of[$pid]"
	running=$((running - 1))
	log "finished $name"
	case $name in
	prepare-*)
		k=${name#prepare-}
		if [ -s "$run/kernel-$k/machine" ]; then kstate[$k]=ready; else kstate[$k]=failed; fi
		;;
	esac
	# Its lines, together, as it finishes; its log only when something failed.
	cat "$run/jobs/$name.out"
	if grep -q '^FAIL ' "$run/jobs/$name.out"; then
		tail -n 20 "$run/jobs/$name.log" 2>/dev/null | sed 's/^/    /'
	fi
	pkg_reserve
	start_more
	free_slots
done
trap - INT TERM

# Results and times in the table's order, whatever order the jobs ran in.
order=(select harness)
for n in "${ALL[@]}"; do
	case " ${selected[*]} " in *" $n "*) ;; *) continue ;; esac
	for k in $(row_kernels "$n"); do
		case " ${order[*]} " in *" prepare-$k "*) ;; *) order+=("prepare-$k") ;; esac
	done
	order+=("$n")
done
for j in "${order[@]}"; do
	cat "$run/jobs/$j.boots" >>"$run/boots.txt" 2>/dev/null || true
	cat "$run/jobs/$j.times" >>"$run/times.txt" 2>/dev/null || true
done
printf '%-32s %6ss\n' "wall time ($jobs at a time)" "$(elapsed "$t_run")" >>"$run/times.txt"
save_times

echo
echo "Boots ($run):"
awk '{ printf "  %-4s %-20s %3d passed, %d failed, %d skipped\n", toupper($2), $1, $3, $4, $5 }' "$run/boots.txt"
echo "Times:"
sed 's/^/  /' "$run/times.txt"
read -r p f s < <(awk '{ p += $3; f += $4; s += $5 } END { print p+0, f+0, s+0 }' "$run/boots.txt")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
