#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Differential fuzzing (issue 9): the same random and mutated payloads
# (tests/tools/tkfuzz.c: the ABI's grammar, mutated words, mutated blobs)
# go to our modules and to the in-tree ones, loaded in turn in this boot;
# the outcome classes (key made, or which errno) must agree input by input,
# except for the deliberate differences of the table below. make check: a
# fixed slice (FZ_N inputs per key type); make stress: FZ_FULL inputs.
here=${0%/*}
. "${TK_LIB:-$here/../lib.sh}"
. "$here/ft.inc"

# Deliberate differences: TPM TYPE CATEGORY OURS IN-TREE WHY, one row per
# (category, our outcome, in-tree outcome); TPM and CATEGORY * match any.
# Categories are tkfuzz's (-nokh: no keyhandle= given on TPM 2.0).
allowed() {
	cat <<'TABLE'
* trusted blob-odd EINVAL ok odd-length hex: in-tree drops the last digit (docs/security.md 37)
* trusted blob-odd EINVAL EPERM odd-length hex: in-tree drops the digit, the TPM refuses (docs/security.md 37)
2.0 trusted new-nokh ok EINVAL keyhandle= defaults to the SRK at 0x81000001 (docs/trusted-tpm2.md, options)
2.0 trusted new-opts-nokh ok EINVAL keyhandle= defaults to the SRK (docs/trusted-tpm2.md, options)
2.0 trusted update-nokh ok EINVAL keyhandle= defaults to the SRK (docs/trusted-tpm2.md, options)
2.0 trusted new ok E2BIG in-tree E2BIG above 113 bytes and with hash=sha512 (docs/trusted-tpm2.md, key sizes; security.md 64)
2.0 trusted new-opts ok E2BIG in-tree E2BIG above 113 bytes and with hash=sha512 (docs/trusted-tpm2.md, key sizes)
2.0 trusted update ok E2BIG in-tree E2BIG with hash=sha512 (docs/trusted-tpm2.md, key sizes)
2.0 trusted blob-trunc EINVAL E2BIG a SEQUENCE must be a valid TPMKey, no retry as the raw form (docs/trusted-tpm2.md, blob)
2.0 trusted blob-flip-head EINVAL E2BIG a SEQUENCE must be a valid TPMKey, no retry as the raw form (docs/trusted-tpm2.md, blob)
2.0 trusted blob-extended EINVAL ok a byte after the TPMKey is refused (docs/trusted-tpm2.md, blob; security.md 59)
2.0 trusted blob-extended EINVAL EPERM a byte after the TPMKey is refused (docs/trusted-tpm2.md, blob; security.md 59)
2.0 trusted blob-opts EINVAL ok on load, a keyhandle= other than the blob's parent is EINVAL (docs/trusted-tpm2.md, options)
TABLE
}

FZ_SEED=${FZ_SEED:-20261203}
FZ_N_T=${FZ_N_T:-1000}
FZ_N_E=${FZ_N_E:-1000}
if [ "${FZ_FULL:-0}" = 1 ]; then
	FZ_N_T=${FZ_FULL_T:-20000}
	FZ_N_E=${FZ_FULL_E:-80000}
fi

t_plan 4
why=$(ft_why)
[ -n "$why" ] || [ -n "$TK_REF" ] || why="no in-tree reference modules"
[ -n "$why" ] || [ "$TK_TPM" != none ] || why="no TPM in this boot"
[ -n "$why" ] || command -v tkfuzz >/dev/null || why="no tkfuzz in the initramfs"
if [ -n "$why" ]; then
	t_skip_rest "$why"
	exit 0
fi
o=$(ft_opts)
rm -rf /tmp/tkfuzz
W=/tmp/fz
mkdir -p $W

# run IMPL TYPE N: the batch against IMPL (ours|ref) into $W/IMPL.TYPE
run() {
	if [ "$1" = ours ]; then mods_ours; else mods_ref; fi || {
		echo "modules $1 did not load" >&2
		return 1
	}
	tkfuzz -t "$TK_TPM" -x "$o" "$2" "$FZ_SEED" 0 "$3" >"$W/$1.$2" || return 1
	mods_none
}

# compare TYPE: mismatches not in the table, as "I CATEGORY OURS REF"; the
# counts on stderr.
compare() {
	allowed >$W/allowed
	paste -d ' ' "$W/ours.$1" "$W/ref.$1" | awk -v t="$1" -v tpm="$TK_TPM" -v tab=$W/allowed '
	BEGIN { while ((getline l < tab) > 0) { split(l, a, " "); if ((a[1] == tpm || a[1] == "*") && a[2] == t) ok[a[3] " " a[4] " " a[5]] = 1 } }
	/^#/ { next }
	$1 != $4 || $2 != $5 { print "out of step:", $0; bad++; next }
	{ n++ }
	$3 == $6 { next }
	ok[$2 " " $3 " " $6] || ok["* " $3 " " $6] { allowed++; next }
	{ print $1, $2, $3, $6; bad++ }
	END { printf "%s: inputs %d, mismatches %d (allowed %d, unexplained %d)\n", t, n, allowed + bad, allowed, bad > "/dev/stderr" }'
}

for ty in trusted encrypted; do
	n=$FZ_N_T
	[ $ty = encrypted ] && n=$FZ_N_E
	if ! out=$(run ours $ty "$n" 2>&1 && run ref $ty "$n" 2>&1); then
		t_fail "$ty: $n inputs through both implementations" "$out"
		t_fail "$ty: same outcome classes" "no run"
		continue
	fi
	t_ok "$ty: $n inputs through both implementations"
	grep -h '^# tkfuzz' $W/ours.$ty $W/ref.$ty
	bad=$(compare $ty 2>$W/counts.$ty)
	echo "# fuzz $(cat $W/counts.$ty)"
	if [ -z "$bad" ]; then
		t_ok "$ty: same outcome classes"
	else
		t_fail "$ty: same outcome classes" "$(printf '%s\n' "$bad" | head -30 | while read -r i c a b; do
			printf '%s %s ours %s in-tree %s: ' "$i" "$c" "$a" "$b"
			tkfuzz -n -t "$TK_TPM" -x "$o" $ty "$FZ_SEED" "$i" 1 | head -1 | cut -d' ' -f3- | cut -c1-160
		done)"
		# the categories of the unexplained ones, for the table
		printf '%s\n' "$bad" | awk '{ print $2, $3, $4 }' | sort | uniq -c | sort -rn | head -20 | sed 's/^/# /'
	fi
done
mods_ours >/dev/null 2>&1
