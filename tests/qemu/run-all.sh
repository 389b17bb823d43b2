#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The full guest run: every kernel, every boot, one aggregated verdict.
#
#   test      our test kernel (build-kernel.sh): phase 1 + 2, suites $TEST_SUITES
#   stock61   Debian's stock 6.1 (fetch-stock.sh): phase 1 + 2, suites $STOCK_SUITES
#   stock612  Debian's stock 6.12: the same
#   test-tpm2 the test kernel with a TPM 2.0 (SRK at 0x81000001): suites $TPM2_SUITES
#   test-tpm2-nosrk  the same without a persistent SRK: phase 1, $TPM2_NOSRK_SUITES
#   stock61-tpm2, stock612-tpm2  the stock kernels with a TPM 2.0 (SRK): $TPM2_SUITES
# Each kernel gets a fresh TPM state (provision.sh) kept across its boots,
# and the files its tests save (state_save) are carried to its next boot.
#
# Environment:
#   TK_ONLY=test,stock61,stock612   the kernels to run, in order (comma-separated)
#   TK_SUITES=a,b                   override the suites of every kernel
#   TK_NO_OURS=1                    go on without our modules when src/ does not
#                                   build (harness development only; never in CI)
#   TK_IMPL=ref                     tests load the in-tree reference instead of ours
#                                   (tk.impl=ref; only where a reference exists)
#   TK_RUN=DIR                      run directory (default build/run-<timestamp>)
#   TK_BOOT_TIMEOUT, TK_VERBOSE     passed to boot.sh
# Output: one line per boot and per failed step, then "N passed, N failed, N skipped".
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need make python3 rsync

TEST_SUITES=selftest,trusted,encrypted,disk
STOCK_SUITES=selftest,trusted,encrypted,disk
TPM2_SUITES=selftest,trusted2,disk
TPM2_NOSRK_SUITES=trusted2	# selftest needs the SRK for the in-tree module
PHASES="1 2"

run=$(tk_rundir)
export TK_NESTED=1
only=${TK_ONLY:-test,test-tpm2,test-tpm2-nosrk,stock61,stock61-tpm2,stock612,stock612-tpm2}
: >"$run/boots.txt"      # NAME STATUS PASSED FAILED SKIPPED
: >"$run/times.txt"      # STEP SECONDS
log "run directory $run"

# step NAME CMD...: run and time one step; its wall time goes to times.txt.
step() {
	local name=$1 t0 rc=0
	shift
	t0=$(now)
	"$@" || rc=$?
	printf '%-28s %6ss\n' "$name" "$(elapsed "$t0")" | tee -a "$run/times.txt" >&2
	return $rc
}

# A failure outside a boot (build, provisioning): one failed point.
fail_step() { # name message
	echo "FAIL $1: $2"
	echo "$1 fail 0 1 0" >>"$run/boots.txt"
}

# Keep the suites that have at least one script.
suites_with_tests() { # a,b,c
	local s out=
	for s in ${1//,/ }; do
		if compgen -G "$TK_TOP/tests/guest/$s/*.sh" >/dev/null; then
			out=${out:+$out,}$s
		else
			log "suite '$s' has no scripts: skipped"
		fi
	done
	echo "$out"
}

# boots NAME KERNEL TPM IMAGE INITRD SUITES: provision, then phase 1, 2, ...
# NAME names the boots (NAME-p1...), KERNEL is what the guest sees (tk.kernel=).
boots() {
	local name=$1 kernel=$2 tpm=$3 image=$4 initrd=$5 suites=$6 phase out rc
	local prov=() phases=$PHASES
	case $name in *-nosrk) prov=(--no-srk) phases=1 ;; esac	# TPM 2.0 without an SRK
	if [ -z "$suites" ]; then
		echo "SKIP $name: no test scripts in its suites"
		return 0
	fi
	step "$name: provision TPM $tpm" "$TK_QEMU/provision.sh" "$tpm" "$run/$name/tpm" "${prov[@]}" ||
		{ fail_step "$name" "TPM provisioning failed"; return 0; }
	mkdir -p "$run/$name/state"
	# A scratch disk of this machine (/dev/vda), kept across its boots.
	truncate -s "${TK_DISK_MB:-64}M" "$run/$name/disk.img"
	for phase in $phases; do
		out=$run/$name/p$phase
		rc=0
		TK_DISK=$run/$name/disk.img TK_BOOT_NAME=$name-p$phase step "$name: boot phase $phase" "$TK_QEMU/boot.sh" "$image" "$initrd" \
			"$run/$name/tpm" "$tpm" "tk.phase=$phase tk.kernel=$kernel tk.suites=$suites${TK_IMPL:+ tk.impl=$TK_IMPL}" \
			"$out" "$run/$name/state" || rc=$?
		if [ -f "$out/counts" ]; then
			echo "$name-p$phase $([ $rc = 0 ] && echo pass || echo fail) $(cat "$out/counts")" >>"$run/boots.txt"
		else
			fail_step "$name-p$phase" "no verdict (boot.sh exit $rc)"
		fi
		cp -a "$out/state/." "$run/$name/state/" 2>/dev/null || true
	done
}

# The test kernel, its modules and initramfs are built once for both TPMs.
test_kdir='' test_initrd=''
prepare_test() {
	[ -n "$test_initrd" ] && return 0
	mkdir -p "$run/test"
	test_kdir=$(step "test: kernel build" "$TK_QEMU/build-kernel.sh") ||
		{ fail_step test "test kernel build failed"; return 1; }
	if ! step "test: our modules" tk_build_ours test "$test_kdir" "$run/test/mods" "$run/test/build.log"; then
		if [ "${TK_NO_OURS:-0}" != 1 ]; then
			fail_step test "our modules do not build against the test kernel ($run/test/build.log)"
			return 1
		fi
		log "test: TK_NO_OURS=1: going on without our modules"
	fi
	step "test: initramfs" "$TK_QEMU/mkinitramfs.sh" --out "$run/test/initrd.cpio.gz" \
		--mods "$run/test/mods" --kdir "$test_kdir" || { fail_step test "initramfs failed"; return 1; }
	test_initrd=$run/test/initrd.cpio.gz
}

kernel_test() { # test (TPM 1.2) | test-tpm2 | test-tpm2-nosrk (TPM 2.0)
	local name=$1 tpm=1.2 suites=$TEST_SUITES
	case $name in
	test-tpm2-nosrk) tpm=2.0 suites=$TPM2_NOSRK_SUITES ;;
	test-tpm2) tpm=2.0 suites=$TPM2_SUITES ;;
	esac
	prepare_test || return 0
	suites=$(suites_with_tests "${TK_SUITES:-$suites}")
	boots "$name" test "$tpm" "$test_kdir/arch/x86/boot/bzImage" "$test_initrd" "$suites"
}

kernel_stock() { # stock61|stock612 (TPM 1.2), stock61-tpm2|stock612-tpm2 (TPM 2.0)
	local name=$1 base=${1%-tpm2} tpm=1.2 suites=$STOCK_SUITES line kver kdir vmlinuz moddir
	[ "$base" = "$name" ] || tpm=2.0 suites=$TPM2_SUITES
	mkdir -p "$run/$name"
	line=$(step "$name: fetch" "$TK_QEMU/fetch-stock.sh" "$base") ||
		{ fail_step "$name" "fetching the stock kernel failed"; return 0; }
	read -r _ kver kdir vmlinuz moddir <<<"$line"
	log "$name: $kver"
	if ! step "$name: our modules" tk_build_ours "$name" "$kdir" "$run/$name/mods" "$run/$name/build.log"; then
		if [ "${TK_NO_OURS:-0}" != 1 ]; then
			fail_step "$name" "our modules do not build against $kver ($run/$name/build.log)"
			return 0
		fi
		log "$name: TK_NO_OURS=1: going on without our modules"
	fi
	step "$name: initramfs" "$TK_QEMU/mkinitramfs.sh" --out "$run/$name/initrd.cpio.gz" \
		--mods "$run/$name/mods" --moddir "$moddir" || { fail_step "$name" "initramfs failed"; return 0; }
	suites=$(suites_with_tests "${TK_SUITES:-$suites}")
	boots "$name" "$base" "$tpm" "$vmlinuz" "$run/$name/initrd.cpio.gz" "$suites"
}

step "harness self-test" python3 "$TK_QEMU/ktap_test.py" 2>"$run/ktap_test.log" ||
	{ cat "$run/ktap_test.log" >&2; fail_step harness "ktap_test.py failed"; }

for k in ${only//,/ }; do
	case $k in
	test|test-tpm2|test-tpm2-nosrk) kernel_test "$k" ;;
	stock61|stock612|stock61-tpm2|stock612-tpm2) kernel_stock "$k" ;;
	*) die "TK_ONLY: unknown kernel '$k' (test, test-tpm2, test-tpm2-nosrk, stock61, stock612, stock61-tpm2, stock612-tpm2)" ;;
	esac
done

echo
echo "Boots ($run):"
awk '{ printf "  %-4s %-14s %3d passed, %d failed, %d skipped\n", toupper($2), $1, $3, $4, $5 }' "$run/boots.txt"
echo "Times:"
sed 's/^/  /' "$run/times.txt"
read -r p f s < <(awk '{ p += $3; f += $4; s += $5 } END { print p+0, f+0, s+0 }' "$run/boots.txt")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
