#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Before a boot through the relay: seal known secrets with the machine's own
# TPM (its state directory, while swtpm is not serving QEMU), outside the
# kernel, so that the guest can load them as trusted keys and the test knows
# the bytes to look for on the bus.
#
# usage: prepare.sh 1.2|2.0 TPMSTATE OUTDIR [STATE_IN]
#
# OUTDIR gets a copy of STATE_IN (the files of earlier boots) plus
#   relay-secret     hex: 32 bytes sealed in relay-blob (no auth)
#   relay-blob       hex: the trusted key blob ("keyctl add trusted K 'load HEX'")
#   relay-secret-ba  hex: 32 bytes sealed in relay-blob-ba
#   relay-ba         hex: that blob's auth (blobauth=, 20 bytes)
#   relay-blob-ba    hex: the blob with an auth
#   relay-secret-rsa, relay-blob-rsa  TPM 2.0: 32 bytes sealed under an RSA 2048
#                    storage primary this script persists at 0x81000002
# TPM 2.0: TPMKey (ASN.1 DER, id-sealedkey, tpmkey.py) under the SRK 0x81000001,
# created with tpm2_create; without an SRK no blobs (relay-why says so).
# TPM 1.2: TPM_Seal under the SRK (auth 20 zero bytes) with tests/relay/seal12.py;
# the sealed data is the secret then the migratable byte 01, as trusted.ko seals.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"
need swtpm swtpm_ioctl python3 od

[ $# -ge 3 ] || die "usage: prepare.sh 1.2|2.0 TPMSTATE OUTDIR [STATE_IN]"
ver=$1 state=$2 out=$3 state_in=${4:-}
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
state=$(cd "$state" && pwd)
if [ -n "$state_in" ] && [ -d "$state_in" ]; then cp -a "$state_in/." "$out/"; fi

rnd() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }
sec=$(rnd 32) secba=$(rnd 32) ba=$(rnd 20) secrsa=$(rnd 32)
work=$(mktemp -d /tmp/tk-relay-prep.XXXXXX)
pid=
port=
# shellcheck disable=SC2317  # invoked by the trap
stop() {
	if [ -n "$pid" ]; then
		swtpm_ioctl --tcp 127.0.0.1:$((port + 1)) -s >/dev/null 2>&1 || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill "$pid" 2>/dev/null || true
		pid=
	fi
	rm -rf "$work"
}
trap stop EXIT

flags=()
[ "$ver" = 2.0 ] && flags=(--tpm2)
for try in 1 2 3 4 5; do
	port=$(python3 "$TKH_QEMU/tpm.py" freeport)
	if swtpm socket "${flags[@]}" --tpmstate dir="$state" \
		--server type=tcp,port="$port",bindaddr=127.0.0.1 \
		--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
		--flags not-need-init,startup-clear --pid file="$work/pid" --log file="$work/log" -d; then
		pid=$(cat "$work/pid")
		break
	fi
	log "swtpm did not start on port $port (try $try)"
	sleep 0.2
done
[ -n "$pid" ] || die "cannot start swtpm on $state"

if [ "$ver" = 1.2 ]; then
	python3 "$TKH_TOP/tests/relay/seal12.py" --port "$port" --data "${sec}01" >"$out/relay-blob"
	python3 "$TKH_TOP/tests/relay/seal12.py" --port "$port" --data "${secba}01" \
		--data-auth "$ba" >"$out/relay-blob-ba"
	python3 "$TKH_TOP/tests/relay/seal12.py" --port "$port" --savestate
else
	need tpm2_create tpm2_readpublic xxd tpm2_shutdown tpm2_createprimary tpm2_evictcontrol tpm2_flushcontext
	export TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=$port
	if ! tpm2_readpublic -Q -c 0x81000001 >/dev/null 2>&1; then
		echo "no SRK at 0x81000001 on this TPM" >"$out/relay-why"
	else
		# tpm2_create -i: a sealed data object (fixedTPM|fixedParent, so
		# trusted.ko reports it as not migratable).
		seal2() { # secret-hex auth-hex|- name
			local a=()
			[ "$2" = - ] || a=(-p "hex:$2")
			printf '%s' "$1" | xxd -r -p >"$work/$3.dat"
			tpm2_create -Q -C 0x81000001 "${a[@]}" -i "$work/$3.dat" \
				-u "$work/$3.pub" -r "$work/$3.priv" || die "tpm2_create failed"
			a=()
			[ "$2" = - ] || a=(--auth)
			python3 "$TKH_TOP/tests/relay/tpmkey.py" "$work/$3.pub" "$work/$3.priv" 81000001 \
				"${a[@]}" >"$out/$3" || die "tpmkey.py failed"
		}
		seal2 "$sec" - relay-blob
		seal2 "$secba" "$ba" relay-blob-ba
		# An RSA 2048 storage primary (the TCG RSA SRK template) at
		# 0x81000002 and a secret sealed under it: sessions salted
		# by RSA-OAEP (10-bus-leak).
		if ! tpm2_readpublic -Q -c 0x81000002 >/dev/null 2>&1; then
			tpm2_createprimary -Q -C o -g sha256 -G rsa2048:aes128cfb \
				-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt' \
				-c "$work/rsa.ctx" ||
				die "tpm2_createprimary rsa2048 failed"
			tpm2_evictcontrol -Q -C o -c "$work/rsa.ctx" 0x81000002 >/dev/null ||
				die "tpm2_evictcontrol 0x81000002 failed"
			# no resource manager here: the transient primary stays loaded
			tpm2_flushcontext -t || die "tpm2_flushcontext failed"
		fi
		printf '%s' "$secrsa" | xxd -r -p >"$work/rsa.dat"
		tpm2_create -Q -C 0x81000002 -i "$work/rsa.dat" -u "$work/rsa.pub" \
			-r "$work/rsa.priv" || die "tpm2_create under 0x81000002 failed"
		python3 "$TKH_TOP/tests/relay/tpmkey.py" "$work/rsa.pub" "$work/rsa.priv" \
			81000002 >"$out/relay-blob-rsa" || die "tpmkey.py failed"
		echo "$secrsa" >"$out/relay-secret-rsa"
	fi
	tpm2_shutdown -Q || die "tpm2_shutdown failed"
fi
echo "$sec" >"$out/relay-secret"
echo "$secba" >"$out/relay-secret-ba"
echo "$ba" >"$out/relay-ba"
log "TPM $ver: known secrets sealed into $out"
