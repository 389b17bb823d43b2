#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The harness proves itself: lib.sh helpers, errno matching, state across boots.
# shellcheck source=/dev/null
. "$TKH_LIB"

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

# A script's plan is computed from its results, and its last line is the
# totals (kselftest's "# Totals:"); t_require skips it whole.
# child BODY: runs BODY as a test script of its own; prints its KTAP.
child() {
	(cd /tmp && env -u _T_BUFFER sh -c ". \"$TKH_LIB\"; $1")
}
out=$(child 't_ok a; t_fail b; t_skip c why')
case $out in "1..3"*"ok 1 a"*"not ok 2 b"*"ok 3 c # SKIP why"*"# Totals: pass:1 fail:1 skip:1") t_ok "the plan is computed from the results" ;;
*) t_fail "the plan is computed from the results" "got: $out" ;; esac
out=$(child 't_require tpm 9.9; t_ok never')
case $out in "1..0 # SKIP needs a TPM"*) t_ok "t_require skips a whole script with its reason" ;;
*) t_fail "t_require skips a whole script with its reason" "got: $out" ;; esac
out=$(child 't_ok a; t_bail "set-up" "why"; t_ok never')
case $out in "1..2"*"not ok 2 set-up"*"# Totals: pass:1 fail:1 skip:0") t_ok "t_bail reports one failure and stops" ;;
*) t_fail "t_bail reports one failure and stops" "got: $out" ;; esac
out=$(child 't_plan 3; t_skip_rest "no X"; exit 0; t_ok never')
case $out in "1..0 # SKIP no X"*) t_ok "t_skip_rest before any result skips the whole script" ;;
*) t_fail "t_skip_rest before any result skips the whole script" "got: $out" ;; esac
out=$(child 't_plan 4; t_ok a; t_skip_n 2 "no Y"; t_skip_rest "no Z"')
case $out in "1..4"*"ok 1 a"*"ok 2 test 2 # SKIP no Y"*"ok 3 test 3 # SKIP no Y"*"ok 4 test 4 # SKIP no Z"*"# Totals: pass:1 fail:0 skip:3") t_ok "t_skip_n skips a block, t_skip_rest the planned rest" ;;
*) t_fail "t_skip_n skips a block, t_skip_rest the planned rest" "got: $out" ;; esac

# State: phase 1 saves, later phases read it back.
if [ "$TKH_PHASE" = 1 ]; then
	echo "saved by phase 1 of $TKH_KERNEL" | t_state_save selftest.token
	got=$(t_state_get selftest.token)
	if [ "$got" = "saved by phase 1 of $TKH_KERNEL" ]; then
		t_ok "t_state_save then t_state_get in the same boot"
	else
		t_fail "t_state_save then t_state_get in the same boot" "got '$got'"
	fi
else
	got=$(t_state_get selftest.token)
	if [ "$got" = "saved by phase 1 of $TKH_KERNEL" ]; then
		t_ok "t_state_get returns what phase 1 saved"
	else
		t_fail "t_state_get returns what phase 1 saved" "got '$got'"
	fi
fi
