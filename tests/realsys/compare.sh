#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make clevis-compare: our LUKS2 unlock and Clevis's, side by side on one
# Debian 12 machine (run-all.sh's table realsys-clevis, made by
# tests/realsys/luks.sh bookworm clevis), then the comparison's table from
# that run's figures.
#
# One volume carries both enrolments (our token; Clevis's token and
# keyslot); one tree gives two initramfs images, each with one unlock as
# its user has it. The rows (each alone: the table runs one at a time):
#   cmp-ours        ours, the bus recorded, PCRs as enrolled: no prompt
#   cmp-clevis      Clevis's, the bus recorded: it answers cryptroot's prompt
#   cmp-ours-pcr    ours, another SMBIOS serial (PCR 1): the prompt, typed
#   cmp-clevis-pcr  Clevis's, the same PCR 1 change: it still unlocks
# The assertions are the rows' KTAP (tests/guest/realsys-luks: 10-root.sh
# in the guest, host-check on the host); this prints what they measured.
#
# usage: compare.sh           (root; run-all.sh's environment: TKH_RUN,
#                              TKH_REALSYS_KEEP=1, TKH_REALSYS_REUSE=1)
#        compare.sh --table RUNDIR   the table of an earlier run only
# Output: run-all.sh's report, then the table (Markdown); exit status:
# run-all.sh's, or 1 when a figure is missing.
set -euo pipefail
# shellcheck source=../qemu/common.sh
. "$(dirname "$0")/../qemu/common.sh"

if [ "${1:-}" = --table ]; then
	if [ $# != 2 ] || [ ! -d "$2" ]; then die "usage: compare.sh [--table RUNDIR]"; fi
	run=$(cd "$2" && pwd)
	rc=0
else
	[ $# = 0 ] || die "usage: compare.sh [--table RUNDIR]"
	run=$(t_rundir)
	rc=0
	TKH_RUN=$run "$TKH_QEMU/run-all.sh" --table realsys-clevis || rc=$?
fi

prep=$run/kernel-realsys-clevis
# fig ROW KEY: a figure of a row's compare.txt (host-check's)
fig() { sed -n "s/^$2 //p" "$run/$1/p1/compare.txt" 2>/dev/null | head -n 1; }
# guest ROW REGEX: ok or FAILED, the row's guest point matching REGEX
guest() {
	local l
	l=$(tr -d '\r' 2>/dev/null <"$run/$1/p1/results.ktap" | grep -E "^(not )?ok [0-9]+ $2" | head -n 1)
	case $l in ok*) echo ok ;; '') echo '?' ;; *) echo FAILED ;; esac
}
# the installer boot's time of a step (its KTAP subtest: "(N s)")
step_s() {
	tr -d '\r' <"$prep/results.ktap" 2>/dev/null | grep -E "^ +ok [0-9]+ $1" | head -n 1 |
		sed -n 's/.*(\([0-9.]*\) s)$/\1/p'
}
# Clevis's bind alone (install.sh's diagnostic), else its point's time,
# which also holds clevis luks pass, a second unseal and the volume key's
# dump for the scan
bind_s() {
	local v
	v=$(tr -d '\r' <"$prep/results.ktap" 2>/dev/null | sed -n 's/^ *# clevis luks bind alone: \([0-9.]*\) s$/\1/p' | head -n 1)
	if [ -n "$v" ]; then echo "$v s"; return; fi
	v=$(step_s "clevis luks bind .*in the new system")
	echo "not timed alone (its point: ${v:-?} s, with clevis luks pass, a second unseal and luksDump --dump-volume-key)"
}
# the guest's after-boot point of Clevis's rows: the first that ran
clevis_again() {
	local r st
	for r in cmp-clevis cmp-clevis-pcr; do
		st=$(guest "$r" "root unseals Clevis's key again")
		[ "$st" = '?' ] || { echo "$st ($r)"; return; }
	done
	echo '? (no Clevis row reached the check)'
}
mib() { [ -f "$1" ] && awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MiB", b / 1048576 }' || echo '?'; }
# the prompt's outcome: none, typed (the passphrase), or answered by Clevis
prompt_of() {
	local n p
	n=$(fig "$1" prompts)
	p=$(fig "$1" prompt)
	case ${n:-?}:$p in
	0:*) echo "no prompt" ;;
	1:*'not typed'*) echo "the prompt, answered by Clevis after ${p##*after }" | sed 's/]$//' ;;
	1:*) echo "prompt; the passphrase typed" ;;
	*) echo "? (${n:-no figure})" ;;
	esac
}
secs() { # ROW KEY: a figure, seconds to a tenth
	local v
	v=$(fig "$1" "$2")
	case $v in *.*) awk -v v="$v" 'BEGIN { printf "%.1f\n", v }' ;; '') echo '?' ;; *) echo "$v" ;; esac
}
span() { # ROW: root_s - init_s
	local a b
	a=$(fig "$1" init_s) b=$(fig "$1" root_s)
	if [ -n "$a" ] && [ -n "$b" ]; then awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", b - a }'; else echo '?'; fi
}
commit=$(git -C "$TKH_TOP" rev-parse --short HEAD 2>/dev/null || echo '?')
# Clevis's configuration: as documented, or with the SHA-256 bank where
# the TPM has no SHA-1 bank (tests/realsys/install.sh)
cfg=$(cat "$prep/io-out/clevis-cfg" 2>/dev/null || echo '?')
doc_note=
case $cfg in *pcr_bank*) doc_note=" (as documented, \`'{\"pcr_ids\":\"7\"}'\`, refused: Clevis 19 defaults to the SHA-1 PCR bank, which this TPM does not have)" ;; esac
clevis_ver=$(tr -d '\r' <"$prep/results.ktap" 2>/dev/null |
	sed -n 's/^ok [0-9]* apt-get install clevis .*: clevis \([^ ]*\) .*/\1/p' | head -n 1)

echo
echo "Ours and Clevis ${clevis_ver:-?} on one Debian 12 LUKS2 machine ($(date -u +%Y-%m-%d), commit $commit, $run)"
echo
cat <<EOF
| | trusted-keys-luks (ours) | Clevis ${clevis_ver:-?} (clevis-initramfs, tpm2 pin) |
| --- | --- | --- |
| enrolment, the commands | \`apt-get install ./trusted-encrypted-keys-dkms_<v>_all.deb\`; \`trusted-keys-luks enrol DEV\`; \`update-initramfs -u -k all\` | \`apt-get install clevis clevis-luks clevis-tpm2 clevis-initramfs\`; \`clevis luks bind -d DEV tpm2 '$cfg'\`; \`update-initramfs -u -k all\`$doc_note |
| the enrolment command's time (installer boot, TCG) | $(step_s 'trusted-keys-luks enrol' || true) s | $(bind_s) |
| the initramfs (update-initramfs) | $(mib "$prep/initrd.img") | $(mib "$prep/initrd-clevis.img") |
| kernel start to /init (the same kernel: the host's load) | $(secs cmp-ours init_s) s | $(secs cmp-clevis init_s) s |
| kernel start to root mounted | $(secs cmp-ours root_s) s | $(secs cmp-clevis root_s) s |
| of it, the initramfs (Run /init to the root's mount) | $(span cmp-ours) s | $(span cmp-clevis) s |
| at the prompt | $(prompt_of cmp-ours) | $(prompt_of cmp-clevis) |
| TPM commands in the recorded boot; of them TPM2_Unseal | $(secs cmp-ours commands); $(secs cmp-ours unseals) | $(secs cmp-clevis commands); $(secs cmp-clevis unseals) |
| messages holding the TPM's secret that opens the volume | $(secs cmp-ours secret\ volume-key) (volume key) | $(secs cmp-clevis secret\ clevis-jwk-k) (the JWK, in clear) |
| messages holding the volume key, the passphrase, Clevis's keyslot passphrase | $(secs cmp-ours secret\ volume-key), $(secs cmp-ours secret\ passphrase), $(secs cmp-ours secret\ clevis-pass) | $(secs cmp-clevis secret\ volume-key), $(secs cmp-clevis secret\ passphrase), $(secs cmp-clevis secret\ clevis-pass) |
| PCR 1 changed (another SMBIOS serial) | $(prompt_of cmp-ours-pcr) | $(prompt_of cmp-clevis-pcr) |
| root unseals the key again after the boot | no, EPERM: $(guest cmp-ours 'root cannot load the sealed key again') | yes: $(clevis_again) |
EOF
echo
echo "Load when the table was printed: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
for r in cmp-ours cmp-clevis cmp-ours-pcr cmp-clevis-pcr; do
	[ -f "$run/$r/p1/compare.txt" ] || { echo "no figures of $r ($run/$r/p1/compare.txt)"; [ "$rc" != 0 ] || rc=1; }
done
exit "$rc"
