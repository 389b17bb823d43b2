#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The harness proves itself: lib.sh helpers, errno matching, state across boots.
# shellcheck source=/dev/null
. "$TK_LIB"

t_plan 9

t_ok "t_ok reports a pass"
t_check "t_check passes a command that exits 0" true

# A failing t_check / t_errno must print "not ok" (run in a subshell so the
# deliberate failures do not count here).
out=$(_t_n=0; t_check "inner" false)
case $out in *"not ok 1 inner"*) t_ok "t_check fails a command that exits 1" ;;
*) t_fail "t_check fails a command that exits 1" "got: $out" ;; esac

t_errno "t_errno matches ENOKEY from keyctl" ENOKEY keyctl print 1
t_errno "t_errno matches EINVAL from keyctl" EINVAL keyctl add user "" data @s
t_errno "t_errno matches ENOENT from busybox" ENOENT cat /nonexistent

out=$(_t_n=0; t_errno "inner" EINVAL true; t_errno "inner2" EPERM cat /nonexistent)
case $out in *"not ok 1 inner"*"not ok 2 inner2"*) t_ok "t_errno fails on success and on the wrong errno" ;;
*) t_fail "t_errno fails on success and on the wrong errno" "got: $out" ;; esac

t_skip "t_skip is reported as a skip" "selftest of the SKIP directive"

# State: phase 1 saves, later phases read it back.
if [ "$TK_PHASE" = 1 ]; then
	echo "saved by phase 1 of $TK_KERNEL" | state_save selftest.token
	got=$(state_get selftest.token)
	if [ "$got" = "saved by phase 1 of $TK_KERNEL" ]; then
		t_ok "state_save then state_get in the same boot"
	else
		t_fail "state_save then state_get in the same boot" "got '$got'"
	fi
else
	got=$(state_get selftest.token)
	if [ "$got" = "saved by phase 1 of $TK_KERNEL" ]; then
		t_ok "state_get returns what phase 1 saved"
	else
		t_fail "state_get returns what phase 1 saved" "got '$got'"
	fi
fi
