#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: what we are for, on Debian's own kernel (no kernel build).
#
#   make demo          TPM 2.0: a swtpm behind the recording relay
#                      (tests/relay) and a scratch disk; two boots of one
#                      machine run tests/guest/demo-tpm2/10-demo.sh: a sealed
#                      key invisible on the bus, a dm-crypt volume opened by
#                      it, a reboot, a signed policy, a forged TPM reply, and
#                      the installer's LUKS2 volume enrolled, opened with no
#                      prompt, the passphrase after a changed boot
#   make demo TPM=1.2  TPM 1.2: the documented keyctl session across three
#                      boots (tests/guest/demo/10-session.sh)
#
# The machines are run-all.sh's table demo (rows demo and demo12): Debian's
# stock kernel (fetched and cached by fetch-stock.sh, never installed) boots
# with our trusted.ko built against its linux-headers. The guest's narration
# is printed as it comes (the console's "demo| " lines); a closing table
# gives each step's result and time, and the full log's path.
#
# usage: demo.sh [--deps] [2.0|1.2]   (--deps: tests/deps.sh first, timed apart)
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

deps=0 tpm=2.0
for a in "$@"; do
	case $a in
	--deps) deps=1 ;;
	2.0|1.2) tpm=$a ;;
	*) die "usage: demo.sh [--deps] [2.0|1.2] (make demo TPM=1.2)" ;;
	esac
done
row=demo
[ "$tpm" = 2.0 ] || row=demo12

apt_time=-
if [ "$deps" = 1 ]; then
	echo "demo: apt packages (tests/deps.sh)..."
	t=$(now)
	"$TKH_TOP/tests/deps.sh" || die "tests/deps.sh failed"
	apt_time=$(elapsed "$t")
	echo "demo: apt packages ready in ${apt_time}s (not counted below)"
fi
run=$(t_rundir)
export TKH_RUN=$run	# run-all.sh runs in the same directory
d=$run/$row
full=$run/demo.log
t0=$(now)
stamp() { printf '[%5.1fs]' "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')"; }

echo "Demo: our trusted.ko on Debian's own kernel, a swtpm TPM $tpm, in QEMU (run-all.sh --table demo, row $row)"
TKH_ONLY=$row "$TKH_QEMU/run-all.sh" --table demo >"$run/run-all.out" 2>"$run/run-all.log" &
pid=$!

# narrate FILE: its new lines since the last call (seen[FILE]), the guest's
# "demo| " lines as narration, "@step" lines as steps of the closing table.
declare -A seen=()
: >"$run/demo-steps"
narrate() {
	local f=$1 n line step r secs title
	[ -f "$f" ] || return 0
	n=$(wc -l <"$f")
	[ "$n" -gt "${seen[$f]:-0}" ] || return 0
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"demo| @step "*)
			read -r step r secs title <<<"${line#demo| @step }"
			echo "$(stamp) step $step: $r in ${secs}s"
			echo "  $step $title|$r|$secs" >>"$run/demo-steps"
			;;
		"demo| "*) printf '%s\n' "${line#demo| }" ;;
		"demo|") echo ;;
		esac
	done < <(sed -n "$((${seen[$f]:-0} + 1)),${n}p" "$f")
	seen[$f]=$n
}
phase=1
echo "$(stamp) preparing: Debian's kernel (apt download, cached), trusted.ko against its headers, initramfs, swtpm"
while :; do
	running=1
	kill -0 "$pid" 2>/dev/null || running=0
	if [ -d "$d/p$phase" ] && [ -z "${seen[$d/p$phase/console.log]+x}" ]; then
		seen[$d/p$phase/console.log]=0
		echo
		echo "$(stamp) boot $phase$([ "$phase" = 1 ] || echo ": a reboot, the same TPM and disk; the blobs saved before come along")"
	fi
	narrate "$d/p$phase/console.log"
	if [ "$tpm" = 1.2 ] && [ -f "$d/p$phase/counts" ]; then
		# the TPM 1.2 session's transcript: its "# " lines
		sed -n 's/^    # //p' "$d/p$phase/results.ktap" | grep -v -e '^Subtest: ' || true
	fi
	if [ -f "$d/p$phase/counts" ]; then
		echo "$(stamp) boot $phase: $(awk '{ print $1 " passed, " $2 " failed, " $3 " skipped" }' "$d/p$phase/counts")"
		phase=$((phase + 1))
		continue
	fi
	[ "$running" = 1 ] || break
	sleep 0.5
done
rc=0
wait "$pid" || rc=$?

echo
echo "Summary (TPM $tpm, row $row):"
printf '  %-66s %-6s %8s\n' step result time
# run-all's steps (times.txt: "STEP SECONDS"), then the guest's
while read -r line; do
	printf '  %-66s %-6s %7s\n' "${line% *}" ok "${line##* }"
done < <(sed -n 's/  *\([0-9.]*\)s$/ \1s/p' "$run/times.txt" | grep -v 'self-test\|^wall time')
while IFS='|' read -r name res secs; do
	printf '  %-66s %-6s %7ss\n' "$name" "$res" "$secs"
	[ "$res" = ok ] || rc=1
done <"$run/demo-steps"
printf '  %-66s %-6s %7ss\n' "total (wall time, apt not counted)" "$([ "$rc" = 0 ] && echo ok || echo FAIL)" "$(elapsed "$t0")"
[ "$apt_time" = - ] || printf '  %-66s %-6s %7ss\n' "apt packages (tests/deps.sh), before" ok "$apt_time"
grep -E '^(FAIL|SKIP) |passed, .* failed' "$run/run-all.out" | tail -n 5
{
	for b in "$d"/p[0-9]; do
		[ -d "$b" ] || continue
		echo "=== $(basename "$b"): KTAP results ($b/results.ktap)"
		cat "$b/results.ktap" 2>/dev/null
		echo "=== $(basename "$b"): console ($b/console.log)"
		tr -d '\r' <"$b/console.log" 2>/dev/null
	done
	echo "=== run-all.sh ($run/run-all.log)"
	cat "$run/run-all.out" "$run/run-all.log"
} >"$full"
echo "full log: $full"
exit "$rc"
