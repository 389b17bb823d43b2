#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The bad input tests of 40-bad-input.sh against the in-tree encrypted-keys.ko: the
# errnos we return are the reference's.
TKH_ENC_IMPL=ref
export TKH_ENC_IMPL
exec sh "${0%/*}/40-bad-input.sh"
