#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# src/lib/tk2_* against a real TPM 2.0: build tk2-swtpm.c (with ASan and
# UBSan, libcrypto), start a throw-away swtpm on a TCP port, run a salted
# session through CreatePrimary, StartAuthSession, Create, Load, Unseal.
# Needs swtpm and libssl-dev (tests/deps.sh). Usage: tk2-swtpm.sh [PORT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
port=${1:-$((20000 + RANDOM % 20000))}
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
swtpm socket --tpm2 --tpmstate dir="$work/state" \
	--server type=tcp,port="$port" --ctrl type=tcp,port=$((port + 1)) \
	--flags not-need-init,startup-clear --pid file="$work/pid" -d
for _ in $(seq 50); do [ -f "$work/pid" ] && break; sleep 0.1; done
"$work/tk2-swtpm" "$port"
