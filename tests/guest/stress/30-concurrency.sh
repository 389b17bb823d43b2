#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make stress: tests/guest/stress-smp/10-concurrency.sh (a smoke run on the
# one-CPU test kernel; the stress kernel runs it for real).
exec sh "${0%/*}/../stress-smp/10-concurrency.sh"
