#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make stress: tests/guest/faults/10-faults.sh over the whole space (T_FAULT_FULL, FZ_FULL).
T_FAULT_FULL=1 FZ_FULL=1 exec sh "${0%/*}/../faults/10-faults.sh"
