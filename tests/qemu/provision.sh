#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Provision a fresh swtpm state into OUTDIR (a copy of a cached template).
#
# usage: provision.sh 1.2|2.0 OUTDIR [--no-srk | --rsa-ecc] [--fresh]
#
# 1.2: swtpm_setup --createek --take-ownership --owner-well-known --srk-well-known,
#      then the SRK auth is changed to 20 zero bytes (TPM_ChangeAuthOwner, tpm.py)
#      and readSRKPub is set (TPM_SetCapability: the kernel's transport sessions)
#      and checked with a seal/unseal after a restart. Owner auth stays
#      SHA1(20 zero bytes) = 6768033e216468247bd031a0a2d9876d79818f8f.
# 2.0: swtpm_setup --tpm2 --createek, then a persistent ECC primary (SRK) at
#      0x81000001 under the owner hierarchy (empty auth), the TCG template
#      (noDA: its authorisation is never DA-counted), as docs/install.md makes
#      it; --no-srk skips it; --rsa-ecc makes two, as docs/install.md's reader
#      may (tpm2_createprimary -G rsa2048:aes128cfb, -G ecc256:aes128cfb, both
#      noDA): an RSA-2048 one at 0x81000001, an ECC P-256 one at 0x81000002;
#      dictionary-attack lockout after 1000 failures (1 s recovery).
# Templates live in ~/.cache/tek/tpm/, keyed by this script, tpm.py and swtpm's version.
# --fresh: a new TPM made for OUTDIR, not a copy of the template: new seeds,
# so new SRKs at the same handles (another machine's TPM: tests/realsys).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
need swtpm swtpm_setup swtpm_ioctl python3

ver=${1:-}
out=${2:-}
srk=1
fresh=0
usage="usage: provision.sh 1.2|2.0 OUTDIR [--no-srk | --rsa-ecc] [--fresh]"
for a in "${@:3}"; do
	case $a in
	--no-srk) srk=0 ;;
	--rsa-ecc) srk=2 ;;
	--fresh) fresh=1 ;;
	*) die "$usage" ;;
	esac
done
case $ver in 1.2|2.0) ;; *) die "$usage" ;; esac
[ -n "$out" ] || die "$usage"

key=$( { cat "$0" "$TKH_QEMU/tpm.py"; swtpm --version; echo "$ver $srk"; } | sha256sum | cut -c1-12)
case $srk in 0) kind=nosrk ;; 1) kind=srk ;; 2) kind=rsa-ecc ;; esac
tmpl=$TKH_CACHE/tpm/tpm$ver-$kind-$key
tpmpy=$TKH_QEMU/tpm.py

swtpm_pid=
swtpm_port=
# Serve STATE over TCP on 127.0.0.1 (P = TPM, P+1 = control), startup done by swtpm.
serve() { # state-dir
	local try flags=()
	[ "$ver" = 2.0 ] && flags=(--tpm2)
	for try in 1 2 3 4 5; do
		swtpm_port=$(python3 "$tpmpy" freeport)
		rm -f "$1.pid"
		if swtpm socket "${flags[@]}" --tpmstate dir="$1" \
			--server type=tcp,port="$swtpm_port",bindaddr=127.0.0.1 \
			--ctrl type=tcp,port=$((swtpm_port + 1)),bindaddr=127.0.0.1 \
			--flags not-need-init,startup-clear \
			--pid file="$1.pid" --log file="$1.log" -d; then
			swtpm_pid=$(cat "$1.pid")
			return 0
		fi
		log "swtpm did not start on port $swtpm_port (try $try)"
		sleep 0.2
	done
	die "cannot start swtpm (see $1.log)"
}

stop() {
	[ -n "$swtpm_pid" ] || return 0
	swtpm_ioctl --tcp 127.0.0.1:$((swtpm_port + 1)) -s >/dev/null 2>&1 || true

	for _ in $(seq 50); do
		kill -0 "$swtpm_pid" 2>/dev/null || { swtpm_pid=; return 0; }
		sleep 0.1
	done
	kill "$swtpm_pid" 2>/dev/null || true
	swtpm_pid=
}
trap stop EXIT

build_template() {
	local t=$tmpl.tmp
	rm -rf "$t"
	mkdir -p "$t/state"
	t=$(cd "$t" && pwd)   # swtpm -d changes to /: absolute paths only
	if [ "$ver" = 1.2 ]; then
		swtpm_setup --tpmstate "$t/state" --createek --take-ownership \
			--owner-well-known --srk-well-known --logfile "$t/setup.log" >/dev/null ||
			die "swtpm_setup failed (see $t/setup.log)"
		serve "$t/state"
		python3 "$tpmpy" srk-zero --port "$swtpm_port"
		python3 "$tpmpy" srk-pub --port "$swtpm_port" --srk-auth "$(printf '0%.0s' $(seq 40))"
		python3 "$tpmpy" savestate --port "$swtpm_port"
		stop
		# Prove the change persisted across a TPM restart.
		serve "$t/state"
		python3 "$tpmpy" seal-test --port "$swtpm_port" --srk-auth "$(printf '0%.0s' $(seq 40))"
		python3 "$tpmpy" savestate --port "$swtpm_port"
		stop
	else
		need tpm2_createprimary tpm2_evictcontrol tpm2_dictionarylockout tpm2_shutdown
		swtpm_setup --tpm2 --tpmstate "$t/state" --createek --logfile "$t/setup.log" >/dev/null ||
			die "swtpm_setup --tpm2 failed (see $t/setup.log)"
		serve "$t/state"
		export TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=$swtpm_port
		# The TCG SRK templates' attributes: tpm2-tools' default lacks noDA.
		local attrs='fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt'
		if [ $srk = 1 ]; then
			tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -a "$attrs" \
				-c "$t/prim.ctx" || die "tpm2_createprimary failed"
			tpm2_evictcontrol -Q -C o -c "$t/prim.ctx" 0x81000001 || die "tpm2_evictcontrol failed"
			rm -f "$t/prim.ctx"
		elif [ $srk = 2 ]; then
			for k in rsa2048:0x81000001 ecc256:0x81000002; do
				tpm2_createprimary -Q -C o -g sha256 -G "${k%:*}:aes128cfb" \
					-a "$attrs" -c "$t/prim.ctx" ||
					die "tpm2_createprimary -G ${k%:*} failed"
				tpm2_evictcontrol -Q -C o -c "$t/prim.ctx" "${k#*:}" ||
					die "tpm2_evictcontrol ${k#*:} failed"
				tpm2_flushcontext -t >/dev/null 2>&1 || true
				rm -f "$t/prim.ctx"
			done
		fi
		# Dictionary-attack lockout after 1000 failures, one healed a second:
		# a boot runs many suites that each expect a few wrong authorisations,
		# and libtpms' defaults (3 tries, 1000 s) lock the SRK out for the
		# rest of the boot (TPM_RC_LOCKOUT). A test of lockout sets its own.
		tpm2_dictionarylockout -Q -s -n 1000 -t 1 -l 1 ||
			die "tpm2_dictionarylockout failed"
		tpm2_shutdown || die "tpm2_shutdown failed"
		stop
	fi
	rm -f "$t/state.pid" "$t/state/.lock"
	rm -rf "$tmpl"
	mv "$t" "$tmpl"
}

if [ $fresh = 1 ]; then
	rm -rf "$out"
	mkdir -p "$(dirname "$out")"
	tmpl=$(cd "$(dirname "$out")" && pwd)/$(basename "$out").new
	build_template
	mv "$tmpl/state" "$out"
	rm -rf "$tmpl"
	log "TPM $ver state (a new TPM) ready in $out"
	exit 0
fi
mkdir -p "$TKH_CACHE/tpm"
exec 9>"$TKH_CACHE/tpm/.lock"
flock 9
if [ ! -d "$tmpl/state" ]; then
	log "provisioning a TPM $ver template in $tmpl"
	build_template
fi
flock -u 9
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -a "$tmpl/state" "$out"
log "TPM $ver state ready in $out"
