#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The master key tests of 30-master.sh against the in-tree encrypted-keys.ko: the
# errnos we return are the reference's.
TKH_ENC_IMPL=ref
export TKH_ENC_IMPL
exec sh "${0%/*}/30-master.sh"
