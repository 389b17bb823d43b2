# SPDX-License-Identifier: GPL-2.0
# What a boot is (busybox sh): a script's requirements (t_require, which
# skips the whole script with the reason when this boot cannot give one)
# and the implementation under test (t_impl). Sourced through ../lib.sh.
# shellcheck shell=sh

# t_require WHAT [ARG]: skip the whole script unless this boot has WHAT:
#   tpm 1.2|2.0|any   a TPM of that version (any: some TPM device)
#   notpm             no TPM device
#   phase N[,M]       one of the boot phases listed
#   kernel test|stock the test kernel, or a Debian stock one (an optional
#                     third word: why, for the skip line)
#   ref               the in-tree reference modules (test kernel only)
#   masters           encrypted keys that take trusted masters: the test
#                     kernel (with ref) or an EVM kernel (both types built in)
#   srk               a TPM 2.0 SRK persistent at 0x81000001
#   disk              the scratch disk /dev/vda
#   cmd NAME          the command NAME in the guest
#   ours              our implementation under test (not tk.impl=ref)
#   impl              the implementation under test (t_impl) exists here
t_require() {
	case $1 in
	tpm)
		if [ ! -c /dev/tpm0 ]; then
			t_skip_all "needs a TPM${2:+ $2} (no /dev/tpm0 in this boot)"
		fi
		[ "${2:-any}" = any ] || [ "$TKH_TPM" = "$2" ] ||
			t_skip_all "needs a TPM $2 (this boot: TPM $TKH_TPM)"
		;;
	notpm)
		[ ! -c /dev/tpm0 ] || t_skip_all "needs a boot without a TPM"
		;;
	phase)
		case ",$2," in
		*",${TKH_PHASE:-1},"*) ;;
		*) t_skip_all "runs in phase $2 only" ;;
		esac
		;;
	kernel)
		case ${TKH_KERNEL:-test} in
		"$2"*) ;;
		*) t_skip_all "${3:+$3: }needs the $2 kernel (this boot: $TKH_KERNEL)" ;;
		esac
		;;
	ref)
		[ -n "$TKH_REF" ] ||
			t_skip_all "needs the in-tree reference modules (test kernel only)"
		;;
	srk)
		t_require tpm 2.0
		command -v t_tpm2_srk_present >/dev/null ||
			t_bail "t_require srk: the script did not source lib/tpm2.sh"
		t_tpm2_srk_present ||
			t_skip_all "needs a TPM 2.0 SRK at 0x81000001 (this TPM has none)"
		;;
	disk)
		if [ -z "$TKH_DISK" ] || [ ! -b "$TKH_DISK" ]; then
			t_skip_all "needs the scratch disk (no /dev/vda in this boot)"
		fi
		;;
	cmd)
		command -v "$2" >/dev/null ||
			t_skip_all "needs $2 in the guest"
		;;
	masters)
		# encrypted keys under trusted masters: the test kernel's modules
		# (with the in-tree ones beside), or an EVM kernel's built-in types
		case ${TKH_KERNEL:-test} in
		evm | evm-ref) ;;
		test) t_require ref ;;
		*) t_skip_all "needs encrypted keys that take trusted masters: the test kernel or an EVM kernel (this boot: $TKH_KERNEL)" ;;
		esac
		;;
	ours)
		[ "$(t_impl)" = ours ] ||
			t_skip_all "tests our implementation only (tk.impl=$TKH_IMPL)"
		;;
	impl)
		[ "$(t_impl)" = ours ] || [ -n "$TKH_REF" ] ||
			t_skip_all "tk.impl=ref: no in-tree modules on this kernel"
		;;
	*)
		t_bail "t_require: unknown requirement '$1'"
		;;
	esac
}

# t_impl: the implementation under test: ours, or ref when the guest runs
# with tk.impl=ref (TKH_IMPL=ref on the host), which checks the tests
# themselves against the in-tree modules.
t_impl() {
	case ${TKH_IMPL:-ours} in
	ref) echo ref ;;
	*) echo ours ;;
	esac
}

