#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# src/lib/tk2_* against a real TPM 2.0: build tk2-swtpm.c (with ASan and
# UBSan, libcrypto), start a throw-away swtpm on a TCP port, run a salted
# session through CreatePrimary, StartAuthSession, Create, Load, Unseal.
# Needs swtpm and libssl-dev (tests/deps.sh). Usage: tk2-swtpm.sh [PORT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
port=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/tk2-swtpm.XXXXXX")
cleanup() {
	if [ -f "$work/pid" ]; then
		kill "$(cat "$work/pid")" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

gcc -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -I"$top/tests/host/shim" -I"$top/src/lib" \
	-o "$work/tk2-swtpm" "$here/tk2-swtpm.c" "$top"/src/lib/*.c -lcrypto
mkdir "$work/state"
# A port of its own: P and P+1 free (tpm.py freeport), again when another
# process took it between the check and swtpm's bind (make check's guest
# pool starts swtpm instances beside this).
started=0
for _ in 1 2 3 4 5; do
	[ -n "${1:-}" ] || port=$(python3 "$top/tests/qemu/tpm.py" freeport)
	if swtpm socket --tpm2 --tpmstate dir="$work/state" \
		--server type=tcp,port="$port",bindaddr=127.0.0.1 \
		--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
		--flags not-need-init,startup-clear --pid file="$work/pid" -d 2>"$work/swtpm.err"; then
		started=1
		break
	fi
	[ -z "${1:-}" ] || break
	sleep 0.2
done
[ $started = 1 ] || { cat "$work/swtpm.err" >&2; exit 1; }
for _ in $(seq 50); do [ -f "$work/pid" ] && break; sleep 0.1; done
"$work/tk2-swtpm" "$port"
