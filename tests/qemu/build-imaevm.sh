#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The peer suite's tools: ima-evm-utils' evmctl built from its source with
# debug support (the "hmac --hmackey" its evm_hmac.test needs; Debian's 1.4
# has neither the option nor the test), and its tests/ directory. Prints
# the directory (DIR/bin/evmctl, DIR/lib/, DIR/tests/) on stdout; cached under
# ~/.cache/tek/imaevm-<hash>.
#
# The source is not in this repository and is not downloaded here: a tree
# of ima-evm-utils >= 1.6 (with tests/evm_hmac.test) at $TKH_IMAEVM_SRC,
# default ~/.cache/tek/src/ima-evm-utils-1.6.2 (e.g. `git archive v1.6.2`
# of the upstream repository, unpacked there). Without it: exit 1 and say so.
# Needs autoconf, automake, libtool, pkg-config, libssl-dev, libkeyutils-dev.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
src=${TKH_IMAEVM_SRC:-$TKH_CACHE/src/ima-evm-utils-1.6.2}
if [ ! -f "$src/tests/evm_hmac.test" ] || [ ! -f "$src/configure.ac" ]; then
	die "no ima-evm-utils source (>= 1.6) at $src (TKH_IMAEVM_SRC)"
fi
need autoreconf make gcc pkg-config
key=$( (cd "$src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
	gcc --version | head -n 1; cat "$TKH_QEMU/build-imaevm.sh") | sha256sum | cut -c1-16)
dir=$TKH_CACHE/imaevm-$key
build() {
	cp -a "$src/." .
	{
		autoreconf -fi
		./configure --enable-debug
		make -C src -j"$(nproc)"
	} >build.log 2>&1 || { tail -n 20 build.log >&2; return 1; }
	# the program and its libimaevm (another soname than Debian's) in
	# DIR/bin, DIR/lib: the guest runs it with LD_LIBRARY_PATH=DIR/lib
	mkdir -p bin lib
	cp src/.libs/evmctl bin/
	cp -a src/.libs/libimaevm.so* lib/
	LD_LIBRARY_PATH=$PWD/lib ./bin/evmctl --help 2>&1 | grep -q hmackey ||
		{ echo "build-imaevm: evmctl has no --hmackey (debug support)" >&2; return 1; }
}
t_kept "$dir" build || die "ima-evm-utils did not build ($dir.tmp/build.log)"
echo "$dir"
