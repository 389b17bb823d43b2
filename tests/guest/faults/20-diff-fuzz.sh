#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Differential fuzzing (issue 9): the same random and mutated payloads
# (tests/guest/tools/tkfuzz.c: the ABI's grammar, mutated words, mutated blobs)
# go to our modules and to the in-tree ones, loaded in turn in this boot;
# the outcome classes (key made, or which errno) must agree input by input,
# except for the deliberate differences of the table below. make check: a
# fixed slice (FZ_N inputs per key type); make stress: FZ_FULL inputs.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/faults.sh"

# The only mismatches allowed. Columns: KIND TPM TYPE CATEGORY OURS IN-TREE
# WHY. CATEGORY is an extended regular expression over tkfuzz's category
# (the input kind, "+NAME" per option and odd word), so are OURS and
# IN-TREE (* is any); TPM is literal or *. KIND: "allowed", a deliberate difference the named document
# states; "finding", a difference no document states yet, reported (its
# count and an example are printed) but not a failure until it is fixed or
# documented. Anything else fails.
allowed() {
	cat <<'TABLE'
allowed * trusted .* EACCES EPERM a wrong authorisation value (blobauth=, keyauth=): ours EACCES, in-tree EPERM for every TPM refusal (docs/trusted-tpm2.md, Errors)
allowed * trusted .* EKEYREJECTED EPERM a blob that fails the TPM's integrity check: ours EKEYREJECTED, in-tree EPERM (docs/trusted-tpm2.md, Errors)
allowed * trusted blob-odd.* EINVAL * odd-length hex: in-tree drops the last digit (docs/security.md 37)
allowed 2.0 trusted new-nokh.* ok EINVAL keyhandle= defaults to the SRK 0x81000001 (docs/trusted-tpm2.md, options)
allowed 2.0 trusted update-nokh.* ok EINVAL keyhandle= defaults to the SRK (docs/trusted-tpm2.md, options)
allowed 2.0 trusted (new|update).* ok E2BIG in-tree: E2BIG above 113 bytes and with hash=sha512 (docs/trusted-tpm2.md, key sizes)
allowed 2.0 trusted .*[+]pcrinfo.* EINVAL * pcrinfo= is TPM 1.2 only (docs/trusted-tpm2.md, options)
allowed 2.0 trusted .*[+]hash.* EINVAL * hash= takes sha256, sha1, sha384, sha512, sm3 only, on load too; in-tree ignores it on load (docs/trusted-tpm2.md, options)
allowed 2.0 trusted blob.*[+]keyhandle.* EINVAL * on load a keyhandle= other than the blob's parent (docs/trusted-tpm2.md, options)
allowed 2.0 trusted .*[+]keyhandle.* ENOKEY * a parent not in the TPM is ENOKEY (docs/trusted-tpm2.md, errnos)
allowed 2.0 trusted blob-(trunc|flip|flip-head|flip-tail).* EINVAL E2BIG a SEQUENCE must be a valid TPMKey: no retry as the raw form (docs/trusted-tpm2.md, blob)
allowed 2.0 trusted blob-(flip|flip-head|flip-tail).* EINVAL EPERM a changed byte the strict TPMKey parser sees before the TPM does (docs/trusted-tpm2.md, blob)
allowed 2.0 trusted .*[+]keyhandle.* EINVAL (EPERM|E2BIG) keyhandle= outside the persistent, transient and permanent parents (0x40000000, 0xffffffff, 0x80000000) or endorsement/platform: EINVAL before any TPM command (docs/trusted-tpm2.md, options and blob)
allowed 2.0 trusted .*[+]keyhandle.* ok EPERM keyhandle=0x40000001 (owner) means the primary of that hierarchy (docs/trusted-tpm2.md, options)
allowed 2.0 trusted .*[+]keyhandle.* EINVAL ok a parent handle of more than 32 bits (0x181000001): in-tree keeps the low 32 (docs/trusted-tpm2.md, blob; docs/security.md 58)
allowed * encrypted blob-(nonhex|flip|flip-head|flip-tail)[+]sep EINVAL ok the two digits between IV and ciphertext must be 00; in-tree ignores them (docs/encrypted.md, deliberate differences)
allowed 2.0 trusted blob-extended.* EINVAL * a byte after the TPMKey (docs/trusted-tpm2.md, blob; docs/security.md 59)
allowed 2.0 trusted blob-flip-head.* ok (E2BIG|EINVAL) a changed OID byte can make the loadable-key OID, which ours reads for sealed data (docs/trusted-tpm2.md, Interop with tpm2-tools)
allowed * trusted .*[+]space.* ok EINVAL a run of blanks ("new  32"): in-tree EINVAL, ours accepts (docs/trusted.md, deliberate differences)
allowed * trusted .*[+]plus.* EINVAL ok a sign before the length ("new +32"): in-tree accepts (kstrtoul), ours EINVAL (docs/trusted.md, deliberate differences)
allowed 2.0 trusted .*[+]blobauth.* EINVAL (ok|EPERM) an empty blobauth=, or one on load of a blob sealed without: ours EINVAL before the TPM, in-tree sends it (docs/trusted.md, deliberate differences)
allowed 1.2 trusted blob-word.* EINVAL EPERM a word that is no TPM_STORED_DATA: ours checks the structure before the TPM, in-tree sends it and the TPM refuses (docs/trusted.md, Blob format, TPM 1.2)
allowed 1.2 trusted .*[+]pcrinfo.* EINVAL EPERM pcrinfo= of odd length: in-tree drops the last digit, the TPM refuses the rest (docs/security.md 37)
allowed 1.2 trusted .*[+]keyhandle.* EINVAL EPERM keyhandle= of more than 32 bits (0x181000001): in-tree keeps the low 32, the TPM refuses that handle (docs/security.md 58)
allowed 1.2 trusted .*[+]space.* (EPERM|EACCES|EKEYREJECTED) EINVAL a run of blanks: ours reads on and the TPM refuses the rest (keyhandle=, pcrinfo=), in-tree EINVAL (docs/trusted.md, deliberate differences)
allowed 1.2 trusted garbage EINVAL EPERM a one-character word as blob: odd length, in-tree drops the digit and sends an empty blob (docs/security.md 37)
allowed 1.2 trusted blob.*[+]pcrinfo.* EINVAL ok pcrinfo= on load, empty or of odd length (the grammar makes both): ours refuses the value as everywhere (docs/security.md 37, 41), in-tree drops the odd digit and ignores pcrinfo on load
allowed 1.2 trusted (new|update).*[+]pcrinfo.* EINVAL ok pcrinfo= empty or of one digit: in-tree drops the digit and seals to no PCRs, ours refuses the value (docs/security.md 37, 41; make stress's 20000 inputs found it: "update pcrinfo=a")
TABLE
}

FZ_SEED=${FZ_SEED:-20261203}
FZ_N_T=${FZ_N_T:-1000}
FZ_N_E=${FZ_N_E:-1000}
FZ_N_T12=${FZ_N_T12:-300}
if [ "${FZ_FULL:-0}" = 1 ]; then
	FZ_N_T=${FZ_FULL_T:-20000}
	FZ_N_E=${FZ_FULL_E:-80000}
	FZ_N_T12=${FZ_FULL_T12:-$FZ_N_T}
fi
# FZ_FULL: tk.fz_t=N, tk.fz_e=N on the kernel command line set the trusted
# (both TPMs) and encrypted counts (make stress bounded in time: tk.fz_t=,
# tk.fz_e= in TKH_EXTRA)
if [ "${FZ_FULL:-0}" = 1 ]; then
	c=$(sed -n 's/.*tk\.fz_t=\([0-9][0-9]*\).*/\1/p' /proc/cmdline 2>/dev/null)
	[ -z "$c" ] || FZ_N_T=$c FZ_N_T12=$c
	c=$(sed -n 's/.*tk\.fz_e=\([0-9][0-9]*\).*/\1/p' /proc/cmdline 2>/dev/null)
	[ -z "$c" ] || FZ_N_E=$c
fi

t_plan 4
why=$(t_fault_why)
[ -n "$why" ] || [ -n "$TKH_REF" ] || why="no in-tree reference modules"
[ -n "$why" ] || [ "$TKH_TPM" != none ] || why="no TPM in this boot"
[ -n "$why" ] || command -v tkfuzz >/dev/null || why="no tkfuzz in the initramfs"
if [ -n "$why" ]; then
	t_skip_rest "$why"
	exit 0
fi
o=$(t_fault_opts)
rm -rf /tmp/tkfuzz
W=/tmp/fz
mkdir -p $W

# run IMPL TYPE N: the batch against IMPL (ours|ref) into $W/IMPL.TYPE
run() {
	if [ "$1" = ours ]; then t_mods_load ours ours; else t_mods_ref; fi || {
		echo "modules $1 did not load" >&2
		return 1
	}
	tkfuzz -t "$TKH_TPM" -x "$o" "$2" "$FZ_SEED" 0 "$3" >"$W/$1.$2" 2>"$W/$1.$2.err" || {
		echo "tkfuzz ($1) failed; its last lines:"
		tail -3 "$W/$1.$2" "$W/$1.$2.err"
		return 1
	}
	t_mods_none
	# TPM 1.2: tkfuzz flushes the sessions an input left (in-tree leaves
	# some on its error paths); ours must leave none
	if [ "$1" = ours ] && grep -q 'sessions left [1-9]' "$W/$1.$2"; then
		head -5 "$W/$1.$2.err"
		return 1
	fi
}

# compare TYPE: the mismatches no row explains, as "I CATEGORY OURS REF";
# the counts, and per finding row its count and first input, on stderr.
compare() {
	allowed >$W/allowed
	paste -d ' ' "$W/ours.$1" "$W/ref.$1" | awk -v t="$1" -v tpm="$TKH_TPM" -v tab=$W/allowed '
	BEGIN {
		while ((getline l < tab) > 0) {
			split(l, a, " ")
			if ((a[2] == tpm || a[2] == "*") && a[3] == t) {
				r++; K[r] = a[1]; C[r] = "^(" a[4] ")$"
				O[r] = "^(" (a[5] == "*" ? ".*" : a[5]) ")$"
				R[r] = "^(" (a[6] == "*" ? ".*" : a[6]) ")$"
				W[r] = l; sub(/^([^ ]+ ){6}/, "", W[r])
			}
		}
	}
	/^#/ { next }
	$1 != $4 || $2 != $5 { print "out of step:", $0; bad++; next }
	{ n++ }
	$3 == $6 { next }
	{
		for (i = 1; i <= r; i++)
			if ($2 ~ C[i] && $3 ~ O[i] && $6 ~ R[i])
				break
		if (i > r) { print $1, $2, $3, $6; bad++; next }
		if (K[i] == "allowed") { allowed++; next }
		found++
		if (!F[i]++) first[i] = $1
	}
	END {
		printf "%s: inputs %d, mismatches %d (allowed %d, findings %d, unexplained %d)\n", t, n, allowed + found + bad, allowed, found, bad > "/dev/stderr"
		for (i = 1; i <= r; i++)
			if (F[i]) printf "%s: finding, %d inputs (first: %d): %s\n", t, F[i], first[i], W[i] > "/dev/stderr"
	}'
}

for ty in trusted encrypted; do
	n=$FZ_N_T
	[ $ty = encrypted ] && n=$FZ_N_E
	if [ $ty = trusted ] && [ "$TKH_TPM" = 1.2 ]; then
		# The in-tree module sends malformed blobs and options to the
		# TPM, which counts some as failed authorisations and locks out
		# after a few (EPERM, then EBUSY for everything): tkfuzz clears
		# the count after every failed input (TPM_ResetLockValue, owner
		# authorisation; "# tkfuzz TPM 1.2 lock resets" below). The
		# TPM 1.2 seals with RSA-2048: a shorter slice.
		n=$FZ_N_T12
		[ "${FZ_TPM12:-1}" != 0 ] || {
			t_skip "$ty: $n inputs through both implementations" "FZ_TPM12=0"
			t_skip "$ty: same outcome classes" "FZ_TPM12=0"
			continue
		}
	fi
	if ! out=$(run ours $ty "$n" 2>&1 && run ref $ty "$n" 2>&1); then
		t_fail "$ty: $n inputs through both implementations" "$out"
		t_fail "$ty: same outcome classes" "no run"
		continue
	fi
	t_ok "$ty: $n inputs through both implementations"
	grep -h '^# tkfuzz' $W/ours.$ty $W/ref.$ty
	bad=$(compare $ty 2>$W/counts.$ty)
	sed 's/^/# fuzz /' $W/counts.$ty
	if [ -z "$bad" ]; then
		t_ok "$ty: same outcome classes"
	else
		t_fail "$ty: same outcome classes" "$(printf '%s\n' "$bad" | head -30 | while read -r i c a b; do
			printf '%s %s ours %s in-tree %s: ' "$i" "$c" "$a" "$b"
			tkfuzz -n -t "$TKH_TPM" -x "$o" $ty "$FZ_SEED" "$i" 1 | head -1 | cut -d' ' -f3- | cut -c1-160
		done)"
		# the categories of the unexplained ones, for the table
		printf '%s\n' "$bad" | awk '{ print $2, $3, $4 }' | sort | uniq -c | sort -rn | head -20 | sed 's/^/# /'
	fi
done
t_mods_load ours ours >/dev/null 2>&1
