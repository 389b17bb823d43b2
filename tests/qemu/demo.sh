#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: what we are for, on Debian's own kernel (no kernel build).
#
#   make demo          TPM 2.0: a swtpm behind the recording relay
#                      (tests/relay) and a scratch disk; two boots of one
#                      machine run tests/guest/demo-tpm2/10-demo.sh: a sealed
#                      key invisible on the bus, a dm-crypt volume opened by
#                      it, a reboot, a signed policy, a forged TPM reply
#   make demo TPM=1.2  TPM 1.2: the documented keyctl session across three
#                      boots (tests/guest/demo/10-session.sh)
#
# Debian's stock kernel (apt's linux-image of this Debian, fetched and
# cached by fetch-stock.sh, never installed) boots with our trusted.ko
# built against its linux-headers. Every host step prints one line with
# its time; the guest's narration is printed as it comes (the console's
# "demo| " lines); a closing table gives each step's result and time, and
# the full log's path (transcript, guest consoles, KTAP results).
#
# Environment: TKH_TPM=2.0|1.2 (make demo TPM=...), TKH_DEMO_KERNEL=stock61
# (or stock612), TKH_DEMO_DEPS=1 (run tests/deps.sh first, timed apart:
# make demo), TKH_RUN=DIR, TKH_BOOT_TIMEOUT as for boot.sh (default here
# 600 s).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

tpm=${TKH_TPM:-2.0}
kernel=${TKH_DEMO_KERNEL:-stock61}
case $tpm in 2.0|1.2) ;; *) die "TPM must be 2.0 or 1.2 (make demo TPM=1.2)" ;; esac
case $kernel in stock61|stock612) ;; *) die "TKH_DEMO_KERNEL: stock61 or stock612" ;; esac
export TKH_BOOT_TIMEOUT=${TKH_BOOT_TIMEOUT:-600}

apt_time=-
if [ "${TKH_DEMO_DEPS:-0}" = 1 ]; then
	echo "demo: apt packages (tests/deps.sh)..."
	t=$(now)
	"$TKH_TOP/tests/deps.sh" || die "tests/deps.sh failed"
	apt_time=$(elapsed "$t")
	echo "demo: apt packages ready in ${apt_time}s (not counted below)"
fi
need make python3 rsync qemu-system-x86_64 swtpm
run=$(t_rundir)
export TKH_NESTED=1
d=$run/demo
rm -rf "$d"
mkdir -p "$d/state"
full=$d/demo.log
: >"$full"
t0=$(now)

# Everything this script prints goes to the terminal and to the full log.
exec 3>&1 4>&2 > >(tee -a "$full") 2>&1
tee_pid=$!

steps=$d/steps	# lines "NAME|RESULT|SECONDS" for the closing table
: >"$steps"
row() { echo "$1|$2|$3" >>"$steps"; }
stamp() { printf '[%5.1fs]' "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')"; }
# hstep NAME CMD...: a timed host step, its output in the log only.
hstep() {
	local name=$1 t rc=0
	shift
	echo "$(stamp) $name..."
	t=$(now)
	"$@" >>"$d/host.log" 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		echo "$(stamp) $name: done in $(elapsed "$t")s"
		row "$name" ok "$(elapsed "$t")"
	else
		echo "$(stamp) $name: FAILED (exit $rc; log $d/host.log)"
		row "$name" FAIL "$(elapsed "$t")"
		tail -n 15 "$d/host.log" | sed 's/^/    /'
		finish 1
	fi
}

# shellcheck disable=SC2317  # (the steps below run through hstep)
# fetch: Debian's kernel and headers (fetch-stock.sh: cached after the first).
fetch() {
	read -r _ kver kdir image moddir < <("$TKH_QEMU/fetch-stock.sh" "$kernel")
	[ -n "${moddir:-}" ]
	echo "$kver $kdir $image $moddir" >"$d/kernel"
}
# shellcheck disable=SC2317
build() {
	t_build_ours "$kernel" "$kdir" "$d/mods" "$d/build.log"
}
# shellcheck disable=SC2317
initramfs() {
	"$TKH_QEMU/mkinitramfs.sh" --out "$d/initrd.cpio" --mods "$d/mods" --moddir "$moddir"
}

# finish RC: the closing table, counts, the log's path; exit RC (or 1 when
# a boot failed).
p=0 f=0 s=0
finish() {
	local rc=$1 name res secs
	echo
	echo "Summary (TPM $tpm, $kernel $kver):"
	printf '  %-66s %-6s %8s\n' step result time
	while IFS='|' read -r name res secs; do
		printf '  %-66s %-6s %7ss\n' "$name" "$res" "$secs"
		[ "$res" = ok ] || rc=1
	done <"$steps"
	printf '  %-66s %-6s %7ss\n' "total (wall time, apt not counted)" \
		"$([ "$rc" = 0 ] && echo ok || echo FAIL)" "$(elapsed "$t0")"
	[ "$apt_time" = - ] || printf '  %-66s %-6s %7ss\n' "apt packages (tests/deps.sh), before" ok "$apt_time"
	echo "$p passed, $f failed, $s skipped"
	echo "full log: $full"
	exec 1>&3 2>&4
	wait "$tee_pid" 2>/dev/null || true
	{
		for b in "$d"/p[0-9]; do
			[ -d "$b" ] || continue
			echo
			echo "=== $(basename "$b"): KTAP results ($b/results.ktap)"
			cat "$b/results.ktap" 2>/dev/null
			echo "=== $(basename "$b"): console ($b/console.log)"
			tr -d '\r' <"$b/console.log" 2>/dev/null
		done
		echo "=== host steps ($d/host.log)"
		cat "$d/host.log" 2>/dev/null
	} >>"$full"
	exit "$rc"
}

kver='?'
echo "Demo: our trusted.ko on Debian's own kernel ($kernel), a swtpm TPM $tpm, in QEMU"
hstep "fetch Debian's kernel $kernel (apt download, cached)" fetch
read -r kver kdir image moddir <"$d/kernel"
hstep "build trusted.ko against linux-headers-$kver" build
hstep "initramfs (busybox, keyctl, dmsetup, the kernel's modules)" initramfs
hstep "swtpm TPM $tpm, provisioned (SRK)" "$TKH_QEMU/provision.sh" "$tpm" "$d/tpm"

if [ "$tpm" = 2.0 ]; then
	suites=demo-tpm2 phases="1 2" relay="tk.relay=record tk.relay_disk=1"
	truncate -s 64M "$d/disk.img"
else
	suites=demo phases="1 2 3" relay=
fi

# show OUT PID: the console's narration, live, until boot PID ends;
# a step's closing line also goes to OUT.steps (the table's rows).
show() {
	local out=$1 pid=$2 line n r secs title
	# (no pipefail: tail ends by --pid)
	tail -n +1 -F --pid="$pid" "$out/console.log" 2>/dev/null |
		while IFS= read -r line; do
			line=${line%$'\r'}
			case $line in
			"demo| @step "*)
				read -r n r secs title <<<"${line#demo| @step }"
				echo "$(stamp) step $n: $r in ${secs}s"
				echo "  $n $title|$r|$secs" >>"$out.steps"
				;;
			"demo| "*) printf '%s\n' "${line#demo| }" ;;
			"demo|") echo ;;
			esac
		done
}

for phase in $phases; do
	out=$d/p$phase
	echo
	case $phase in
	1) echo "$(stamp) boot $phase: a fresh machine: $kernel $kver, swtpm TPM $tpm${relay:+ behind the recording relay}" ;;
	*) echo "$(stamp) boot $phase: reboot (same TPM$([ "$tpm" = 2.0 ] && echo ", same disk"); the blobs saved by boot $((phase - 1)) come along)" ;;
	esac
	t=$(now)
	disk=()
	[ ! -f "$d/disk.img" ] || disk=(TKH_DISK="$d/disk.img")
	mkdir -p "$out"
	: >"$out/console.log"
	: >"$out.steps"
	# shellcheck disable=SC2016  # expanded by that bash
	env "${disk[@]}" TKH_BOOT_NAME="demo-p$phase" bash -c '. "$0/common.sh"; t_boot_tries "$@"' "$TKH_QEMU" \
		"$image" "$d/initrd.cpio" "$d/tpm" "$tpm" \
		"tk.phase=$phase tk.kernel=$kernel tk.suites=$suites tk.timeout=480${relay:+ $relay}" \
		"$out" "$d/state" >"$out.verdict" 2>>"$d/host.log" &
	bpid=$!
	if [ "$tpm" = 2.0 ]; then
		show "$out" "$bpid"
	fi
	rc=0
	wait "$bpid" || rc=$?
	if [ "$tpm" = 1.2 ] && [ -f "$out/results.ktap" ]; then
		# the TPM 1.2 session's transcript: its "# " lines
		sed -n 's/^    # //p' "$out/results.ktap" | grep -v -e '^Subtest: ' || true
	fi
	cp -a "$out/state/." "$d/state/" 2>/dev/null || true
	if [ -f "$out/counts" ]; then
		read -r bp bf bs <"$out/counts"
		p=$((p + bp)) f=$((f + bf)) s=$((s + bs))
	else
		f=$((f + 1)) bf=1
	fi
	if [ "$rc" = 0 ]; then res=ok; else res=FAIL; fi
	echo "$(stamp) boot $phase: $res in $(elapsed "$t")s ($(awk '{ print $1 " passed, " $2 " failed, " $3 " skipped" }' "$out/counts" 2>/dev/null))"
	[ "$rc" = 0 ] || sed 's/^/    /' "$out.verdict"
	row "boot $phase (QEMU, TCG)" "$res" "$(elapsed "$t")"
	cat "$out.steps" >>"$steps" 2>/dev/null || true
done
finish 0
