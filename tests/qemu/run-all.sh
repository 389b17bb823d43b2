#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The one runner of the machines the project boots: the rows of a table
# below, in a pool, one aggregated verdict. Every driver (make check's guest
# stage, bench, bench-tpm2, bench-enc, demo, stress, relay, pkg-test) is
# `run-all.sh --table NAME` and its own report.
#
# usage: run-all.sh [--table NAME[,NAME]]   run a table's machines (default: check)
#        run-all.sh --help        this text and the tables
#        run-all.sh --table-md    the tables as docs/testing.md shows them
#        run-all.sh --check-doc   fail when docs/testing.md's tables are not --table-md's
#        run-all.sh --update-doc  rewrite docs/testing.md's tables
#
# One row of a table is one machine: a kernel (tests/qemu/kernels), its
# modules, a fresh TPM (provision.sh; kept across the machine's boots), a
# scratch disk and a state directory (the files its tests save are carried
# to its next boot), booted once per phase, in order. Each kernel is prepared
# once (t_prepare: kernel, modules, initramfs) for all of its machines.
# Machines run in a pool of TKH_JOBS at a time (default: nproc, or the
# table's jobs), the longest first; each has its own run directory, swtpm
# and disk. Rows whose modules DKMS built wait for the package test's
# preparation (tests/pkg/dkms-test.sh: make deb, apt, DKMS, purge; a KTAP
# document of its own), which runs beside the pool at nice 19.
#
# Environment (the knobs of docs/testing.md that reach this script):
#   TKH_ONLY=a,b        the rows to run (default: every row of the tables)
#   TKH_SUITES=a,b      override the suites of every row (but an installed system's)
#   TKH_EXTRA="w1 w2"   more kernel command-line words for every boot (the
#                       last word wins: TKH_EXTRA=tk.bench_n=5)
#   TKH_JOBS=N          machines at a time
#   TKH_IMPL=ref        tests load the in-tree reference instead of ours
#   TKH_NO_OURS=1       go on without our modules when src/ does not build
#                       (harness development only; never in CI)
#   TKH_RUN=DIR         run directory (default build/run-<timestamp>)
#   TKH_VERBOSE=1       stream the consoles to stderr
#   TKH_REALSYS_KEEP=1  keep the disk image and overlays of an installed
#                       system (kind image) after a passing run
#   TKH_REALSYS_REUSE=1 with TKH_RUN of such a run: boot its installed
#                       systems again instead of making them anew
# Output: one line per boot as its machine finishes, one per failed step, the
# times, then "N passed, N failed, N skipped"; exit 0 only when nothing failed.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

# Suite sets: adding a suite to every boot of a set is a one-word change here.
TPM12_SUITES=selftest,trusted-tpm1,encrypted,disk	# TPM 1.2 machines, test and stock
TPM2_SUITES=selftest,trusted-tpm2,tpm2tools,disk	# TPM 2.0 machines with an SRK
# (the EVM kernel's rows run them without disk: the disk suite tests the
# unlock tool and dm-crypt, which the test and stock kernels' rows cover)
# The TPM 2.0 scripts make check's package row runs (the stock612-tpm2 row
# runs them all with the same source; make pkg-test runs them all from DKMS)
PKG_TPM2_CORE=trusted-tpm2/10-options,trusted-tpm2/20-pcrs,trusted-tpm2/45-sessions,trusted-tpm2/50-bad-input,trusted-tpm2/60-signed,trusted-tpm2/62-pin
# The TPM 2.0 scripts whose parent is another without an SRK (the owner's
# primary, made for each operation): those that read it, salt sessions to
# it, keep it, or count its dictionary-attack state. The policy scripts
# (pcrs=, signed, PIN, revoke=) and the blob parser run the same with
# either parent, on the SRK rows.
NOSRK_TPM2=trusted-tpm2/10-options,trusted-tpm2/12-hierarchy-oracle,trusted-tpm2/13-tpm-rc-errno,trusted-tpm2/14-review-nits,trusted-tpm2/30-interop,trusted-tpm2/40-persist,trusted-tpm2/45-sessions,trusted-tpm2/48-kept-session,trusted-tpm2/65-da

# The tables; adding a machine is one row. "@table NAME JOBS WHAT" starts a
# table (JOBS: its machines at a time, - for nproc). Columns of a row:
#   name     what TKH_ONLY and the output call it
#   kernel   a name of tests/qemu/kernels; or one per phase, comma-separated
#            (evm-ref,evm,evm-ref: the same TPM, disk and state meet another
#            kernel's key types); the machine starts when all are ready
#   modules  here: built by this harness (t_build_ours; none where the
#            kernel has the key types built in) | dkms: the ones DKMS built
#            and installed from the package (tests/pkg/dkms-test.sh)
#            | image: the ones in the kernel's disk image (kind image of
#            tests/qemu/kernels: the package installed there, DKMS)
#   tpm      1.2 | 2.0 | none (no swtpm, no TPM device)
#   prov     srk: the SRK (1.2: auth 20 zero bytes; 2.0: persistent at 0x81000001)
#            | nosrk (2.0 without a persistent SRK) | - (no TPM)
#            | enrolled: a copy of the TPM the kernel's preparation enrolled
#            the image's volumes with | other: another machine's TPM (new
#            seeds; an RSA and an ECC SRK at the enrolled one's handles)
#   log      swtpm's log level (20: every command, for the benchmarks' counts) | -
#   smp      vCPUs
#   phases   boots of the machine, in order (comma-separated)
#   suites   comma-separated; a suite without scripts is left out
#   knobs    the rest of the line (- for none): kernel command-line words
#            (tk.*: the guest's, see tests/guest/init; tk.cpu=, tk.relay=:
#            boot.sh's), and the host's boot_timeout=S, mem=MIB,
#            serial=X (the SMBIOS serial number: PCR 1),
#            warn_ok=TEXT (a kernel WARNING: naming TEXT is the kernel's
#            own, known: panic_on_warn=0 and the verdict passes over it;
#            never for a warning of ours), and for an
#            installed system: console=FILE (a user at the console types
#            the first line of the preparation's FILE, e.g. passphrase, at
#            cryptroot's prompt; console=patient: a user who types the
#            passphrase but waits 120 s first and types nothing once
#            cryptroot says "set up successfully", because Clevis's
#            initramfs answered), pin=FILE (the same at our unlock's PIN
#            prompt), disk=NAME (the preparation's disk-NAME.img instead of
#            disk.img) and initrd=NAME (its initrd-NAME.img instead of the
#            machine's)
# The order is the tables' order in docs/testing.md and in the results.
tables() {
	cat <<EOF
@table check - make check's guest stage (tests/check.sh)
test             test      here  1.2   srk    -   1  1,2    $TPM12_SUITES,regress,faults  -
test-tpm2        test      here  2.0   srk    -   1  1,2    $TPM2_SUITES,faults  -
test-tpm2-nosrk  test      here  2.0   nosrk  -   1  1      $NOSRK_TPM2  -
test-notpm       test      here  none  -      -   1  1      notpm  -
test-relay       test      here  2.0   srk    -   1  1      relay  tk.relay=record tk.timeout=900
test-relay12     test      here  1.2   srk    -   1  1      relay  tk.relay=record tk.timeout=900
test-accel       test      here  1.2   srk    -   1  1      encrypted  tk.cpu=max
stock61          stock61   here  1.2   srk    -   1  1,2    $TPM12_SUITES  -
stock61-tpm2     stock61   here  2.0   srk    -   1  1,2    $TPM2_SUITES  -
stock612         stock612  here  1.2   srk    -   1  1,2    $TPM12_SUITES  -
stock612-tpm2    stock612  here  2.0   srk    -   1  1,2    $TPM2_SUITES  -
demo             stock61   here  2.0   srk    -   1  1,2    demo-tpm2  tk.relay=record tk.relay_disk=1
evm-ref          evm-ref   here  2.0   srk    -   1  1,2,3  evm  -
evm-ref12        evm-ref   here  1.2   srk    -   1  1,2,3  evm  -
evm              evm       here  2.0   srk    -   1  1,2,3  evm  -
evm12            evm       here  1.2   srk    -   1  1,2,3  evm  -
evm-tpm2         evm       here  2.0   srk    -   1  1,2    ${TPM2_SUITES%,disk}  -
evm-tpm12        evm       here  1.2   srk    -   1  1,2    ${TPM12_SUITES%,disk}  -
interop-evm      evm-ref,evm,evm-ref  here  2.0  srk  -  1  1,2,3  evm-interop  -
interop-evm12    evm-ref,evm,evm-ref  here  1.2  srk  -  1  1,2,3  evm-interop  -
@table pkg - make check's package test: the modules DKMS built, both kernels, both TPMs (TPM 2.0: the suite's core scripts; all of it in pkg-full)
pkg-stock61      stock61   dkms  1.2   srk    -   1  1      trusted-tpm1  -
pkg-stock612-tpm2 stock612 dkms  2.0   srk    -   1  1      $PKG_TPM2_CORE  -
pkg-modsig       test      dkms  1.2   srk    -   1  1      modsig  module.sig_enforce=1
@table pkg-full - make pkg-test: both suites on the kernels of both releases (trixie's: DKMS in a trixie root)
pkg-stock61      stock61   dkms  1.2   srk    -   1  1      trusted-tpm1  -
pkg-stock61-tpm2 stock61   dkms  2.0   srk    -   1  1      trusted-tpm2  -
pkg-stock612     stock612  dkms  1.2   srk    -   1  1      trusted-tpm1  -
pkg-stock612-tpm2 stock612 dkms  2.0   srk    -   1  1      trusted-tpm2  -
pkg-trixie612    trixie612 dkms  1.2   srk    -   1  1      trusted-tpm1  -
pkg-trixie612-tpm2 trixie612 dkms 2.0  srk    -   1  1      trusted-tpm2  -
pkg-trixie73     trixie73  dkms  1.2   srk    -   1  1      trusted-tpm1  -
pkg-trixie73-tpm2 trixie73 dkms  2.0   srk    -   1  1      trusted-tpm2  -
pkg-modsig       test      dkms  1.2   srk    -   1  1      modsig  module.sig_enforce=1
@table trixie - make trixie-test: Debian 13's kernels (6.12, backports' 7.3), our modules built in a trixie root, both TPMs, the stock rows' suites
trixie612        trixie612 here  1.2   srk    -   1  1,2    $TPM12_SUITES  -
trixie612-tpm2   trixie612 here  2.0   srk    -   1  1,2    $TPM2_SUITES  -
trixie73         trixie73  here  1.2   srk    -   1  1,2    $TPM12_SUITES  -
trixie73-tpm2    trixie73  here  2.0   srk    -   1  1,2    $TPM2_SUITES  -
@table series73 - make series73-test: Debian's linux-source-7.3, the tree an upstream submission goes to: the series applied (evm73: both types built in, the EVM suite and the trusted suites) and the tree unpatched with the key types as modules (test73: its in-tree trusted.ko and encrypted-keys.ko against ours, blobs both ways)
evm73            evm73     here  2.0   srk    -   1  1,2,3  evm  -
evm73-12         evm73     here  1.2   srk    -   1  1,2,3  evm  -
evm73-tpm2       evm73     here  2.0   srk    -   1  1,2    ${TPM2_SUITES%,disk}  -
evm73-tpm12      evm73     here  1.2   srk    -   1  1,2    ${TPM12_SUITES%,disk}  -
test73           test73    here  1.2   srk    -   1  1,2    $TPM12_SUITES  warn_ok=drivers/char/tpm/tpm-buf.c:38
test73-tpm2      test73    here  2.0   srk    -   1  1,2    $TPM2_SUITES  -
@table bench 1 make bench: trusted keys, ours against in-tree, TPM commands counted in swtpm's log
bench            test      here  1.2   srk    20  1  1      bench  tk.bench_n=20 tk.timeout=3000
@table bench-tpm2 1 make bench-tpm2: the same on a TPM 2.0
bench-tpm2       test      here  2.0   srk    20  1  1      bench-tpm2  tk.bench_n=10 tk.timeout=3000
@table bench-enc 1 make bench-enc: encrypted keys, ours against in-tree, QEMU's default CPU and -cpu max
bench-enc-plain  test      here  1.2   srk    -   1  1      bench-enc  tsc=reliable tk.bench_ms=250 tk.bench_runs=12 tk.timeout=1200
bench-enc-accel  test      here  1.2   srk    -   1  1      bench-enc  tsc=reliable tk.bench_ms=250 tk.bench_runs=12 tk.timeout=1200 tk.cpu=max
@table demo 1 make demo: Debian's kernel, TPM 2.0 behind the recording relay (demo12: make demo TPM=1.2)
demo             stock61   here  2.0   srk    -   1  1,2    demo-tpm2  tk.relay=record tk.relay_disk=1 tk.timeout=480 boot_timeout=600
demo12           stock61   here  1.2   srk    -   1  1,2,3  demo  tk.timeout=480 boot_timeout=600
@table stress 1 make stress: the whole fault space, long differential fuzzing, tkstress on SMP
stress           test      here  1.2   srk    -   1  1      stress  tk.timeout=14400 boot_timeout=43200
stress-tpm2      test      here  2.0   srk    -   1  1      stress  tk.timeout=14400 boot_timeout=43200
stress-smp       stress    here  1.2   srk    -   2  1      stress-smp  tk.timeout=14400 boot_timeout=28800
stress-smp-tpm2  stress    here  2.0   srk    -   2  1      stress-smp  tk.timeout=14400 boot_timeout=28800
@table relay - make relay-test: the bus recorded, tampered and fuzzed (tests/relay)
relay-tpm2       test      here  2.0   srk    -   1  1      relay  tk.relay=record tk.timeout=900
relay-tpm12      test      here  1.2   srk    -   1  1      relay  tk.relay=record tk.timeout=900
@table realsys - make realsys and make check: a real installed Debian 12 with our .deb, its volumes enrolled by docs/install.md (tests/realsys/prepare.sh), boots with systemd; root
realsys-good     realsys   image 2.0   enrolled -  1  1      realsys  serial=A tk.realsys.closed=-
@table realsys-refused - make realsys: the same system refused by the TPM (PCR 1 changed; another TPM), each volume closed as docs/install.md says; root
realsys-pcr      realsys   image 2.0   enrolled -  1  1      realsys  serial=B tk.realsys.closed=pcr:pcr
realsys-tpm      realsys   image 2.0   other    -  1  1      realsys  serial=A tk.realsys.closed=rsa:tpm,ecc:tpm,pcr:tpm
@table realsys-luks - make realsys: Debian 12 (luks-*) and 13 (luks13-*) as the installer's "encrypted LVM" leaves them, LUKS2 root, our TPM unlock enrolled, passphrase typed on the console when it refuses (tests/realsys/luks.sh); root
luks-good        realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase tk.relay=record tk.relay_disk=1 tk.realsys.unlock=token
luks-pcr         realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=B console=passphrase tk.realsys.unlock=passphrase tk.realsys.refused=pcr
luks-tpm         realsys-luks image 2.0 other    - 1  1      realsys-luks  serial=A console=passphrase tk.realsys.unlock=passphrase tk.realsys.refused=tpm
luks-notoken     realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase disk=notoken tk.realsys.unlock=passphrase tk.realsys.refused=notoken
luks-pin         realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase pin=pin-wrong disk=pin tk.realsys.unlock=passphrase tk.realsys.refused=pin tk.realsys.pin=wrong
luks-pinok       realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase pin=pin disk=pin tk.relay=record tk.relay_disk=1 tk.realsys.unlock=token tk.realsys.pin=right
luks-forged      realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase tk.relay=tamper:15e:flip=20 tk.relay_disk=1 tk.realsys.unlock=passphrase tk.realsys.refused=forged
luks-swap        realsys-luks image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase-attacker disk=swap tk.realsys.unlock=passphrase tk.realsys.refused=swap
luks13-good      realsys-luks13 image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase tk.cpu=max tk.relay=record tk.relay_disk=1 tk.realsys.unlock=token
luks13-pcr       realsys-luks13 image 2.0 enrolled - 1  1      realsys-luks  serial=B console=passphrase tk.cpu=max tk.realsys.unlock=passphrase tk.realsys.refused=pcr
luks13-tpm       realsys-luks13 image 2.0 other    - 1  1      realsys-luks  serial=A console=passphrase tk.cpu=max tk.realsys.unlock=passphrase tk.realsys.refused=tpm
luks13-notoken   realsys-luks13 image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase disk=notoken tk.cpu=max tk.realsys.unlock=passphrase tk.realsys.refused=notoken
luks13-pin       realsys-luks13 image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase pin=pin-wrong disk=pin tk.cpu=max tk.realsys.unlock=passphrase tk.realsys.refused=pin tk.realsys.pin=wrong
luks13-forged    realsys-luks13 image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase tk.cpu=max tk.relay=tamper:15e:flip=20 tk.relay_disk=1 tk.realsys.unlock=passphrase tk.realsys.refused=forged
@table realsys-clevis 1 make clevis-compare: Debian 12's LUKS2 machine with ours and Clevis 19 (clevis luks bind ... tpm2 '{"pcr_ids":"7"}') enrolled on the one volume, each booted with its own initramfs of the one tree, the bus recorded (tests/realsys/compare.sh); root
cmp-ours         realsys-clevis image 2.0 enrolled - 1  1      realsys-luks  serial=A console=passphrase tk.relay=record tk.relay_disk=1 tk.realsys.unlock=token
cmp-clevis       realsys-clevis image 2.0 enrolled - 1  1      realsys-luks  serial=A console=patient initrd=clevis tk.relay=record tk.relay_disk=1 tk.realsys.unlock=clevis
cmp-ours-pcr     realsys-clevis image 2.0 enrolled - 1  1      realsys-luks  serial=B console=passphrase tk.realsys.unlock=passphrase tk.realsys.refused=pcr
cmp-clevis-pcr   realsys-clevis image 2.0 enrolled - 1  1      realsys-luks  serial=B console=patient initrd=clevis tk.realsys.unlock=clevis tk.realsys.refused=pcr
@table relay-fuzz - make relay-fuzz: fuzz only, long, five seeds a TPM
EOF
	local t seed
	for t in 2 12; do
		for seed in 1 2 3 4 5; do
			printf '%-16s test      here  %s   srk    -   1  1      relay  %s\n' "relay-tpm$t-fuzz$seed" \
				"$([ $t = 2 ] && echo 2.0 || echo 1.2)" \
				"tk.relay=record tk.timeout=14000 tk.relay_fuzz_only=1 tk.relay_seed=$seed tk.relay_fuzz_n=200 boot_timeout=14400"
		done
	done
}

# Every row: R_* keyed by TABLE/NAME; T_ROWS[TABLE] its names in order.
declare -A R_KERNEL R_SRC R_TPM R_PROV R_LOG R_SMP R_PHASES R_SUITES R_KNOBS T_ROWS T_JOBS T_WHAT
TABLES=()
while read -r n k src t p lg smp ph s x; do
	if [ "$n" = @table ]; then
		tb=$k T_JOBS[$k]=$src T_WHAT[$k]="$t${p:+ $p}${lg:+ $lg}${smp:+ $smp}${ph:+ $ph}${s:+ $s}${x:+ $x}"
		TABLES+=("$tb")
		continue
	fi
	T_ROWS[$tb]="${T_ROWS[$tb]:-}${T_ROWS[$tb]:+ }$n"
	r=$tb/$n
	R_KERNEL[$r]=$k R_SRC[$r]=$src R_TPM[$r]=$t R_PROV[$r]=$p R_LOG[$r]=$lg R_SMP[$r]=$smp
	R_PHASES[$r]=$ph R_SUITES[$r]=$s R_KNOBS[$r]=$x
done < <(tables)

usage() {
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	local t
	echo "Tables:"
	for t in "${TABLES[@]}"; do echo "  $t: ${T_ROWS[$t]}"; done
}

# The tables in Markdown, between the markers docs/testing.md carries.
MD_BEGIN='<!-- boot tables: tests/qemu/run-all.sh --table-md; run-all.sh --update-doc rewrites them -->'
MD_END='<!-- end of boot tables -->'
table_md() {
	local t n r q='`'
	echo "$MD_BEGIN"
	for t in "${TABLES[@]}"; do
		echo
		echo "Table $q$t$q: ${T_WHAT[$t]}$([ "${T_JOBS[$t]}" = - ] || echo " (${T_JOBS[$t]} at a time)")."
		echo
		echo "| name | kernel | modules | TPM | provisioning | swtpm log | SMP | phases | suites | knobs |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		for n in ${T_ROWS[$t]}; do
			r=$t/$n
			printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$q$n$q" "${R_KERNEL[$r]//,/, }" \
				"${R_SRC[$r]}" "${R_TPM[$r]}" "${R_PROV[$r]}" "${R_LOG[$r]}" "${R_SMP[$r]}" \
				"${R_PHASES[$r]//,/, }" "${R_SUITES[$r]//,/, }" \
				"$(if [ "${R_KNOBS[$r]}" = - ]; then echo -; else echo "$q${R_KNOBS[$r]}$q"; fi)"
		done
	done
	echo
	echo "$MD_END"
}

# docs/testing.md with its tables section replaced by table_md's.
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

want=check
case ${1:-} in
-h|--help) usage; exit 0 ;;
--table-md) table_md; exit 0 ;;
--check-doc)
	if ! doc_with_table | diff -u "$TKH_TOP/docs/testing.md" - >&2; then
		echo "docs/testing.md: the boot tables differ from run-all.sh's (run-all.sh --update-doc)" >&2
		exit 1
	fi
	echo "docs/testing.md: boot tables in sync"
	exit 0 ;;
--update-doc)
	doc_with_table >"$TKH_TOP/docs/testing.md.tmp"
	mv "$TKH_TOP/docs/testing.md.tmp" "$TKH_TOP/docs/testing.md"
	exit 0 ;;
--table) [ $# = 2 ] || { usage >&2; exit 2; }; want=$2 ;;
'') ;;
*) usage >&2; exit 2 ;;
esac

# The rows of the tables asked for: B_* keyed by NAME (a name once).
declare -A B_KERNEL B_TPM B_PROV B_LOG B_SMP B_PHASES B_SUITES B_KNOBS B_KEY
ALL=()
tjobs=
for t in ${want//,/ }; do
	[ -n "${T_ROWS[$t]:-}" ] || die "unknown table '$t' (${TABLES[*]})"
	[ "${T_JOBS[$t]}" = - ] || tjobs=${T_JOBS[$t]}
	for n in ${T_ROWS[$t]}; do
		[ -z "${B_KERNEL[$n]:-}" ] || die "row '$n' is in two of the tables $want"
		r=$t/$n
		ALL+=("$n")
		B_KERNEL[$n]=${R_KERNEL[$r]} B_TPM[$n]=${R_TPM[$r]} B_PROV[$n]=${R_PROV[$r]}
		B_LOG[$n]=${R_LOG[$r]} B_SMP[$n]=${R_SMP[$r]} B_PHASES[$n]=${R_PHASES[$r]}
		B_SUITES[$n]=${R_SUITES[$r]} B_KNOBS[$n]=${R_KNOBS[$r]}
		# the machine's kernels as prepared, one a phase: KERNEL, or KERNEL+dkms
		IFS=, read -r -a ks <<<"${R_KERNEL[$r]}"
		IFS=, read -r -a ps <<<"${R_PHASES[$r]}"
		[ "${#ks[@]}" = 1 ] || [ "${#ks[@]}" = "${#ps[@]}" ] ||
			die "row $n: ${#ks[@]} kernels for ${#ps[@]} phases (one, or one a phase)"
		B_KEY[$n]=
		for k in "${ks[@]}"; do
			t_kernel "$k" >/dev/null || die "row $n: unknown kernel $k"
			# an installed system: one kernel for all phases, its own
			# modules, a TPM 2.0 that is its enrolled one or another's
			if [ "$kn_kind" = image ] || [ "${R_SRC[$r]}" = image ]; then
				if [ "$kn_kind" != image ] || [ "${R_SRC[$r]}" != image ] || [ "${#ks[@]}" != 1 ]; then
					die "row $n: modules 'image' go with one kernel of kind image, and only they"
				fi
				case ${R_TPM[$r]}:${R_PROV[$r]} in 2.0:enrolled|2.0:other) ;;
				*) die "row $n: an installed system boots a TPM 2.0, enrolled or other" ;;
				esac
			fi
			case ${R_PROV[$r]} in enrolled|other) [ "$kn_kind" = image ] ||
				die "row $n: provisioning ${R_PROV[$r]} is an installed system's (kind image)" ;;
			esac
			case ${R_SRC[$r]} in
			here|image) B_KEY[$n]+=${B_KEY[$n]:+,}$k ;;
			*) B_KEY[$n]+=${B_KEY[$n]:+,}$k+${R_SRC[$r]} ;;
			esac
		done
	done
done
# row_keys NAME: its kernels as prepared, each once; phase_key NAME I: the
# one of its I-th phase (from 1).
row_keys() { tr ',' '\n' <<<"${B_KEY[$1]}" | awk '!seen[$0]++'; }
phase_key() {
	local ka
	IFS=, read -r -a ka <<<"${B_KEY[$1]}"
	if [ "${#ka[@]}" = 1 ]; then echo "${ka[0]}"; else echo "${ka[$2 - 1]}"; fi
}

need make python3 rsync flock
only=${TKH_ONLY:-$(IFS=,; echo "${ALL[*]}")}
for n in ${only//,/ }; do
	[ -n "${B_KERNEL[$n]:-}" ] || die "TKH_ONLY: no row '$n' in the table $want (${ALL[*]})"
done
run=$(t_rundir)
jobs=${TKH_JOBS:-${tjobs:-$(nproc)}}
log "run directory $run, table $want, $jobs machines at a time"
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
		if compgen -G "$TKH_TOP/tests/guest/$s/*.sh" >/dev/null ||
		   [ -f "$TKH_TOP/tests/guest/$s.sh" ]; then	# a suite, or SUITE/NAME
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

# A job beside the pool (no slot of its own, nice 19): the package test's
# preparation for the rows whose modules DKMS built: make deb, apt install,
# DKMS for KERNEL..., the signing, the purge (tests/pkg/dkms-test.sh); its
# KTAP document is $run/pkg/results.ktap, the modules $run/pkg/mods-KERNEL/.
job_dkms() { # kernel...
	mkdir -p "$run/pkg"
	t_step "pkg: make deb, apt, DKMS, purge" nice -n 19 "$TKH_TOP/tests/pkg/dkms-test.sh" "$run/pkg" "$@" \
		>"$run/pkg/results.ktap" || true
	local st=pass
	python3 "$TKH_QEMU/ktap.py" --name pkg --results "$run/pkg/results.ktap" --done '' \
		--counts "$run/pkg/counts" || st=fail
	if [ -f "$run/pkg/counts" ]; then
		echo "pkg $st $(cat "$run/pkg/counts")" >>"$t_boots"
	else
		fail_step pkg "no verdict of tests/pkg/dkms-test.sh (see $run/jobs/pkg.log)"
	fi
}

# A job of the pool: prepare a kernel (KERNEL or KERNEL+dkms) once for all
# of its machines.
# A kernel that is not in the cache yet is built here (minutes), and an
# installed system (kind image) is made here (a minute or two): a line on
# run-all's own stderr every 30 s while it prepares, with build-kernel.sh's
# last count of objects built once there is one.
job_prepare() { # key
	local ticker t0=$SECONDS k=${1%+*} from='' why="an uncached kernel builds for minutes"
	[ "$k" = "$1" ] || from=$run/pkg/mods-$k
	t_kernel "$k" && [ "$kn_kind" != image ] || why="an installed system is made: make deb, apt, DKMS, enrolment"
	( while sleep 30; do
		last=$(grep -a '^build-kernel .* objects built' "$run/jobs/prepare-$1.log" 2>/dev/null |
			tail -n 1) || true
		echo "run-all: preparing kernel $1: $((SECONDS - t0)) s${last:+, ${last#build-kernel * }}" \
			"($why; $run/jobs/prepare-$1.log)" >&"$progress_fd"
	done ) &
	ticker=$!
	local rc=0 st=pass
	t_prepare "$k" "$run/kernel-$1" "$from" || rc=$?
	kill "$ticker" 2>/dev/null || true
	# A preparation with test points of its own (kind image): its KTAP
	# document is its verdict (a failure counted there, not twice).
	if [ -s "$run/kernel-$1/results.ktap" ]; then
		python3 "$TKH_QEMU/ktap.py" --name "prepare-$1" --results "$run/kernel-$1/results.ktap" \
			--done '' --counts "$run/kernel-$1/counts" || st=fail
		[ "$rc" = 0 ] || st=fail
		if [ -f "$run/kernel-$1/counts" ]; then
			echo "prepare-$1 $st $(cat "$run/kernel-$1/counts")" >>"$t_boots"
			return 0
		fi
	fi
	[ "$rc" = 0 ] || fail_step "$1" "preparing the $1 machine failed (see $run/jobs/prepare-$1.log)"
}

# Before each boot, a suite's host step when it has one: an executable
# tests/guest/SUITE/host-step, run as "host-step PHASE TPM TPMSTATE STATEDIR
# KERNEL" while no swtpm serves TPMSTATE; files it writes to STATEDIR reach
# the guest as saved state; TKH_DISK names the machine's scratch disk image.
# Its failure is a failed step of the machine.
host_steps() { # name phase tpm tpmdir statedir kernel disk
	local s hook
	for s in ${B_RUN[$1]//,/ }; do
		hook=$TKH_TOP/tests/guest/$s/host-step
		[ -e "$hook" ] || continue
		[ -x "$hook" ] || { fail_step "$1-p$2-$s-host" "$hook is not executable"; continue; }
		TKH_DISK=$7 t_step "$1: $s host step $2" "$hook" "$2" "$3" "$4" "$5" "$6" ||
			fail_step "$1-p$2-$s-host" "$s host step failed (see $run/jobs/$1.log)"
	done
}

# After each boot, a suite's host check when it has one: an executable
# tests/guest/SUITE/host-check, run as "host-check PHASE OUTDIR" (boot.sh's
# OUTDIR: console.log, cmdline) with TKH_DISK, the machine's disk; its KTAP
# document (stdout) counts as a boot's does (NAME-pPHASE-SUITE in the results).
host_checks() { # name phase outdir
	local s hook doc st
	for s in ${B_RUN[$1]//,/ }; do
		hook=$TKH_TOP/tests/guest/$s/host-check
		[ -e "$hook" ] || continue
		[ -x "$hook" ] || { fail_step "$1-p$2-$s" "$hook is not executable"; continue; }
		doc=$3/host-check-$s
		mkdir -p "$doc"
		t_step "$1: $s host check $2" "$hook" "$2" "$3" >"$doc/results.ktap" || true
		st=pass
		python3 "$TKH_QEMU/ktap.py" --name "$1-p$2-$s" --results "$doc/results.ktap" \
			--done '' --counts "$doc/counts" || st=fail
		if [ -f "$doc/counts" ]; then
			echo "$1-p$2-$s $st $(cat "$doc/counts")" >>"$t_boots"
		else
			fail_step "$1-p$2-$s" "no verdict of $hook"
		fi
	done
}

# A job of the pool: one machine, its phases in order.
job_machine() { # name
	local name=$1 d=$run/$1 tpm=${B_TPM[$1]} suites=${B_RUN[$1]} phase out rc image initrd kver guest disk
	local tpmdir=- prov=() opts=(--nested) words=() kw=() w i=0 k kvers="" leak="" kdir dimg irdname=
	kdir=$run/kernel-$(phase_key "$name" 1)
	dimg=$kdir/disk.img
	rm -rf "$d"
	mkdir -p "$d/state"
	if [ "${B_PROV[$name]}" = enrolled ]; then
		tpmdir=$d/tpm
		cp -a "$kdir/tpm" "$tpmdir" || { fail_step "$name" "no enrolled TPM in $kdir"; return 0; }
	elif [ "$tpm" != none ]; then
		tpmdir=$d/tpm
		case ${B_PROV[$name]} in
		nosrk) prov=(--no-srk) ;;
		other) prov=(--rsa-ecc --fresh) ;;
		esac
		t_step "$name: provision TPM $tpm" "$TKH_QEMU/provision.sh" "$tpm" "$tpmdir" "${prov[@]}" ||
			{ fail_step "$name" "TPM provisioning failed"; return 0; }
	fi
	# The row's knobs: the host's become boot.sh's options, the rest the command line's.
	[ "${B_LOG[$name]}" = - ] || opts+=(--swtpm-log "${B_LOG[$name]}")
	[ "${B_SMP[$name]}" = 1 ] || opts+=(--smp "${B_SMP[$name]}")
	for w in ${B_KNOBS[$name]}; do
		case $w in
		-) ;;
		boot_timeout=*) [ -n "${TKH_BOOT_TIMEOUT:-}" ] || opts+=(--timeout "${w#*=}") ;;
		mem=*) opts+=(--mem "${w#*=}") ;;
		serial=*) opts+=(--serial "${w#*=}") ;;
		warn_ok=*) opts+=(--warn-ok "${w#*=}") ;;
		console=patient) opts+=(--console-expect "Please unlock disk" --console-answer "$kdir/passphrase"
			--console-delay 120 --console-unless "set up successfully") ;;
		console=*) opts+=(--console-expect "Please unlock disk" --console-answer "$kdir/${w#*=}") ;;
		pin=*) opts+=(--console-expect "Enter the TPM PIN" --console-answer "$kdir/${w#*=}") ;;
		disk=*) dimg=$kdir/disk-${w#*=}.img ;;
		initrd=*) irdname=${w#*=} ;;
		*) words+=("$w") ;;
		esac
	done
	# The machine's disk (/dev/vda), kept across its boots: a scratch disk,
	# or where the kernel's preparation made one (an installed system), a
	# copy-on-write overlay of it (machines of one image run side by side).
	if [ -f "$dimg" ]; then
		qemu-img create -q -f qcow2 -F raw -b "$dimg" "$d/disk.qcow2" ||
			{ fail_step "$name" "qemu-img: no overlay of $dimg"; return 0; }
		disk=$d/disk.qcow2
	else
		disk=$d/disk.img
		truncate -s 72M "$disk"
	fi
	# What every boot of the prepared machine needs (an image's root=).
	if [ -f "$kdir/cmdline" ]; then read -r -a kw <"$kdir/cmdline"; words=("${kw[@]}" "${words[@]}"); fi
	for phase in ${B_PHASES[$name]//,/ }; do
		out=$d/p$phase i=$((i + 1)) k=$(phase_key "$name" $i)
		read -r image initrd kver _ guest <"$run/kernel-$k/machine"
		[ -z "$irdname" ] || initrd=$run/kernel-$k/initrd-$irdname.img
		kvers=${kvers:+$kvers,}$kver leak=
		t_kernel "${k%+*}" && t_trait kmemleak && leak=" tk.kmemleak=1"
		host_steps "$name" "$phase" "$tpm" "$tpmdir" "$d/state" "${k%+*}" "$disk"
		rc=0
		t_step "$name: boot phase $phase" t_boot_tries "${opts[@]}" --name "$name-p$phase" \
			--disk "$disk" "$image" "$initrd" "$tpmdir" "$tpm" \
			"tk.phase=$phase tk.kernel=$guest tk.suites=$suites$leak${TKH_IMPL:+ tk.impl=$TKH_IMPL}${words[*]:+ ${words[*]}}${TKH_EXTRA:+ $TKH_EXTRA}" \
			"$out" "$d/state" || rc=$?
		if [ -f "$out/counts" ]; then
			echo "$name-p$phase $([ $rc = 0 ] && echo pass || echo fail) $(cat "$out/counts")" >>"$t_boots"
		else
			fail_step "$name-p$phase" "no verdict (boot.sh exit $rc)"
		fi
		TKH_DISK=$disk host_checks "$name" "$phase" "$out"
		cp -a "$out/state/." "$d/state/" 2>/dev/null || true
	done
	log "$name ($kvers) done"
}

# The order of the pool: longest first. A machine's time in an earlier run
# with the same suites (t_time_get "NAME SUITES": in the cache, so that a
# clean clone orders by this machine's last run too; a fresh cache, by
# tests/qemu/boot-times), else an estimate: a suite takes about 50 s a phase
# on a stock kernel and three times that on a kernel of ours (KASAN, kmemleak).
cost() { # name
	local n=$1 s=${B_RUN[$1]} p=${B_PHASES[$1]} w=50 t
	t=$(t_time_get "$n $s")
	if [ -z "$t" ]; then
		t_kernel "${B_KERNEL[$n]%%,*}" && [ "$kn_kind" != build ] || w=150
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
selected=() dkms_kernels=()
for n in ${only//,/ }; do
	# TKH_SUITES does not reach an installed system's rows: their suite is
	# what the image runs and checks (tests/realsys/prepare.sh installs it)
	t_kernel "${B_KERNEL[$n]%%,*}"
	if [ "$kn_kind" = image ]; then
		suites_with_tests "${B_SUITES[$n]}"
	else
		suites_with_tests "${TKH_SUITES:-${B_SUITES[$n]}}"
	fi
	if [ -z "$suites" ]; then
		echo "SKIP $n: no test scripts in its suites (${TKH_SUITES:-${B_SUITES[$n]}})"
		echo "$n skip 0 0 0" >>"$t_boots"
		continue
	fi
	B_RUN[$n]=$suites
	selected+=("$n")
	for k in $(row_keys "$n"); do
		[ "$k" != "${k%+dkms}" ] || continue
		case " ${dkms_kernels[*]} " in *" ${k%+dkms} "*) ;; *) dkms_kernels+=("${k%+dkms}") ;; esac
	done
done
mapfile -t pending < <(for n in "${selected[@]}"; do echo "$(cost "$n") $n"; done | sort -s -k1,1nr | cut -d' ' -f2)

# kstate[KEY]: preparing|ready|failed (KEY: a kernel, KERNEL+dkms, or dkms,
# the package test's preparation); job_of[PID]: the job's name.
declare -A kstate=() job_of=() beside=()
running=0	# the jobs in the pool's slots
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
# BESIDE=1: a job beside the pool, in no slot.
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
	if [ "${BESIDE:-0}" = 1 ]; then beside[$name]=1; else running=$((running + 1)); fi
}

# machine_kstate NAME: the state of a machine's kernels: "failed K" (K
# could not be prepared), "new K" (nobody prepares K yet: the first such; a
# KERNEL+dkms once the package test's preparation is done), preparing, or
# ready (all of them).
machine_kstate() {
	local k new='' busy=''
	for k in $(row_keys "$1"); do
		if [ "$k" != "${k%+dkms}" ] && [ -z "${kstate[$k]:-}" ]; then
			case ${kstate[dkms]} in
			preparing) busy=1; continue ;;
			failed) echo "failed $k"; return ;;
			esac
		fi
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
	while [ "$running" -lt "$jobs" ] && [ "$again" = 1 ]; do
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
start_job harness job_selftest
if [ "${#dkms_kernels[@]}" -gt 0 ]; then
	kstate[dkms]=preparing
	log "the package test's preparation, beside the pool: ${dkms_kernels[*]}"
	BESIDE=1 start_job pkg job_dkms "${dkms_kernels[@]}"
fi
start_more
while [ "${#job_of[@]}" -gt 0 ]; do
	pid=
	wait -n -p pid || true
	[ -n "$pid" ] || continue
	name=${job_of[$pid]}
	unset "job_of[$pid]"
	[ -n "${beside[$name]:-}" ] || running=$((running - 1))
	log "finished $name"
	case $name in
	prepare-*)
		k=${name#prepare-}
		if [ -s "$run/kernel-$k/machine" ]; then kstate[$k]=ready; else kstate[$k]=failed; fi
		;;
	pkg)
		kstate[dkms]=ready
		for k in "${dkms_kernels[@]}"; do
			compgen -G "$run/pkg/mods-$k/*.ko" >/dev/null || kstate[$k+dkms]=failed
		done
		;;
	esac
	# Its lines, together, as it finishes; its log only when something failed.
	cat "$run/jobs/$name.out"
	if grep -q '^FAIL ' "$run/jobs/$name.out"; then
		tail -n 20 "$run/jobs/$name.log" 2>/dev/null | sed 's/^/    /'
	fi
	start_more
done
trap - INT TERM

# Results and times in the table's order, whatever order the jobs ran in.
order=(select harness)
[ "${#dkms_kernels[@]}" = 0 ] || order+=(pkg)
for n in "${ALL[@]}"; do
	case " ${selected[*]} " in *" $n "*) ;; *) continue ;; esac
	for k in $(row_keys "$n"); do
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
awk '{ printf "  %-4s %-24s %3d passed, %d failed, %d skipped\n", toupper($2), $1, $3, $4, $5 }' "$run/boots.txt"
echo "Times:"
sed 's/^/  /' "$run/times.txt"
read -r p f s < <(awk '{ p += $3; f += $4; s += $5 } END { print p+0, f+0, s+0 }' "$run/boots.txt")
# A passing run keeps no installed system's disk (1 GB or more); TKH_REALSYS_KEEP=1 does.
if [ "$f" -eq 0 ] && [ "${TKH_REALSYS_KEEP:-0}" != 1 ]; then
	rm -f "$run"/kernel-*/disk.img "$run"/kernel-*/disk-*.img "$run"/*/disk.qcow2
fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
