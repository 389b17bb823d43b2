#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of tools/trusted-policy (run by tests/host `make test`):
#  1. the TPMKey it writes, field by field against draft-bottomley-tpm2-keys
#     (openssl asn1parse): [1] policy = one PolicyAuthorize (0x16a) with the
#     signer's TPM2B_PUBLIC, an empty policyRef and sigAlg NULL; [3]
#     authPolicy = SEQUENCE OF TPMAuthPolicy { [0] name, [1] SEQUENCE OF
#     TPMPolicy { PolicyPCR 0x17f, PolicyAuthorize 0x16a } }, newest first;
#     list and remove; what it refuses. --policy-ref (issue 22 item 5): the
#     authPolicy with a policyRef (computed here in Python), the policyRef in
#     [1] and in each signed policy, the signature over SHA-256(approved ||
#     policyRef) (openssl), list, and add refusing another policyRef.
#  2. with swtpm and tpm2-tools (skipped when absent): the signer's name
#     (tpm2_loadexternal), the authPolicy (tpm2_policyauthorize, trial), the
#     PolicyPCR digest (tpm2_policypcr, trial), and the whole scheme: an
#     object sealed to the authPolicy unseals after TPM2_VerifySignature of
#     the tool's signature, PolicyPCR and PolicyAuthorize (RSA and ECDSA);
#     with a policyRef: tpm2_policyauthorize -q's digest, the unseal, and a
#     signature over another policyRef refused by the TPM.
# Prints KTAP, a check a test point (a failed check's output as "# " lines
# before its "not ok"), "# Totals: pass:N fail:N skip:N" last; exit 1 on
# failure. TP=path: the binary (default: next to this).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TP=${TP:-$here/trusted-policy}
work=$(mktemp -d "${TMPDIR:-/tmp}/tk-policy.XXXXXX")
pass=0 fail=0 skip=0 swtpm_pid=
cleanup() {
	if [ -n "$swtpm_pid" ]; then kill "$swtpm_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
n=0
ok() { n=$((n + 1)) pass=$((pass + 1)); echo "ok $n ${*//#/ }"; }
nok() { n=$((n + 1)) fail=$((fail + 1)); echo "not ok $n ${*//#/ }"; }
check() { # DESC CMD...
	local d=$1
	shift
	if "$@" >"$work/out" 2>&1; then ok "$d"; else sed 's/^/# /' "$work/out"; nok "$d"; fi
}
eq() { [ "$1" = "$2" ] || { echo "got '$1', expected '$2'"; return 1; }; }
cd "$work" || exit 1
echo "KTAP version 1"

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem 2>/dev/null
printf '  sha256:\n    7 : 0x%064d\n    16: 0x%s\n' 0 \
	"$(printf 'x' | sha256sum | cut -c1-64)" >pcrs.txt

# A sealed object whose authPolicy is PolicyAuthorize of ec.pem, as a
# TPMKey (no TPM needed: the tool reads the public area only).
auth=$("$TP" authorize --signer ec.pem)
pub=004e0008000b0000001200000020${auth}001000200000000000000000000000000000000000000000000000000000000000000000
pub=${pub:0:8}00000012${auth:+0020}${auth}0010002000000000000000000000000000000000000000000000000000000000000000000
# mkkey AUTHPOLICY: a TPMKey (keyedhash, sha256, that authPolicy) in hex
mkkey() { python3 "$here/../tests/tools/mktpmkey.py" "$1"; }
key=$(mkkey "$auth")
echo "$key" >k.hex

check "add: a signed PolicyPCR policy named boot-1" \
	"$TP" add --signer ec.pem --pcrs sha256:7,16 --pcr-values pcrs.txt --name boot-1 k.hex k1.hex
check "add: a second one, boot-2" \
	"$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --name boot-2 k1.hex k2.hex
xxd -r -p k2.hex >k2.der
openssl asn1parse -inform DER -in k2.der >asn.txt 2>&1
field() { # LINE-REGEX: the value part of the first asn1parse line matching
	grep -m 1 -E "$1" asn.txt | sed 's/.*:\([^:]*\)$/\1/'
}
depth_tags() { sed -E 's/^ *[0-9]+:(d=[0-9]+) .*(prim|cons): *//; s/ *(\[HEX DUMP\])?:.*//; s/ *$//' asn.txt |
	paste -d' ' <(sed -E 's/^ *[0-9]+:(d=[0-9]+) .*/\1/' asn.txt) -; }
cat >want.txt <<'W'
d=0 SEQUENCE
d=1 OBJECT
d=1 cont [ 0 ]
d=2 BOOLEAN
d=1 cont [ 1 ]
d=2 SEQUENCE
d=3 SEQUENCE
d=4 cont [ 0 ]
d=5 INTEGER
d=4 cont [ 1 ]
d=5 OCTET STRING
d=1 cont [ 3 ]
d=2 SEQUENCE
d=3 SEQUENCE
d=4 cont [ 0 ]
d=5 UTF8STRING
d=4 cont [ 1 ]
d=5 SEQUENCE
d=6 SEQUENCE
d=7 cont [ 0 ]
d=8 INTEGER
d=7 cont [ 1 ]
d=8 OCTET STRING
d=6 SEQUENCE
d=7 cont [ 0 ]
d=8 INTEGER
d=7 cont [ 1 ]
d=8 OCTET STRING
d=6 SEQUENCE
d=7 cont [ 0 ]
d=8 INTEGER
d=7 cont [ 1 ]
d=8 OCTET STRING
d=3 SEQUENCE
d=4 cont [ 0 ]
d=5 UTF8STRING
d=4 cont [ 1 ]
d=5 SEQUENCE
d=6 SEQUENCE
d=7 cont [ 0 ]
d=8 INTEGER
d=7 cont [ 1 ]
d=8 OCTET STRING
d=6 SEQUENCE
d=7 cont [ 0 ]
d=8 INTEGER
d=7 cont [ 1 ]
d=8 OCTET STRING
d=6 SEQUENCE
d=7 cont [ 0 ]
d=8 INTEGER
d=7 cont [ 1 ]
d=8 OCTET STRING
d=1 INTEGER
d=1 OCTET STRING
d=1 OCTET STRING
W
check "the TPMKey's shape is the draft's: type, [0], [1] policy, [3] authPolicy, parent, pubkey, privkey" \
	diff -u want.txt <(depth_tags)
ints=$(grep -E 'INTEGER' asn.txt | sed 's/.*://' | tr '\n' ' ')
check "command codes: [1] PolicyAuthorize; each [3] entry PolicyPCR, PolicyCommandCode, PolicyAuthorize; parent" \
	eq "$ints" "016A 017F 016C 016A 017F 016C 016A 81000001 "
names=$(grep UTF8STRING asn.txt | sed 's/.*://' | tr '\n' ' ')
check "newest first: boot-2, boot-1" eq "$names" "boot-2 boot-1 "
octets=$(grep 'OCTET STRING' asn.txt | sed 's/.*\[HEX DUMP\]://')
signer_pub=$("$TP" signer-public --signer ec.pem -o sp.bin && xxd -p sp.bin | tr -d '\n' | tr a-f A-F)
pol0=$(sed -n 1p <<<"$octets")
check "[1] PolicyAuthorize body: TPM2B_PUBLIC keySign || empty policyRef || sigAlg NULL" \
	eq "$pol0" "${signer_pub}00000010"
pcr_body=$(sed -n 2p <<<"$octets")
sel16=00000001000B03000001
pd16=$(python3 -c "import hashlib,sys; print(hashlib.sha256(bytes.fromhex('$(printf 'x' | sha256sum | cut -c1-64)')).hexdigest().upper())")
check "boot-2's PolicyPCR body: TPM2B pcrDigest (SHA-256 of PCR 16) || TPML_PCR_SELECTION sha256:16" \
	eq "$pcr_body" "0020${pd16}${sel16}"
check "boot-2's PolicyCommandCode body: TPM_CC_Unseal" eq "$(sed -n 3p <<<"$octets")" 0000015E
auth_body=$(sed -n 4p <<<"$octets")
check "boot-2's PolicyAuthorize: keySign || empty policyRef || ECDSA(0x0018) SHA-256 r s" \
	eq "${auth_body:0:${#signer_pub}+12}" "${signer_pub}00000018000B"
approved=$("$TP" pcr-digest --pcrs sha256:16 --pcr-values pcrs.txt)
# what add signs: that policy extended by PolicyCommandCode(TPM_CC_Unseal)
approved_cc=$(python3 -c "import hashlib; print(hashlib.sha256(bytes.fromhex('${approved}0000016C0000015E')).hexdigest())")
verify_sig() { # AUTH-BODY-HEX APPROVED-HEX: check the ECDSA signature with openssl
	local b=$1 n=${#signer_pub}
	local r=${b:n+16:64} s=${b:n+84:64}
	python3 - "$r" "$s" >sig.der <<'PY'
import sys
def i(h):
    v = bytes.fromhex(h).lstrip(b"\0")
    if not v or v[0] & 0x80: v = b"\0" + v
    return b"\x02" + bytes([len(v)]) + v
s = i(sys.argv[1]) + i(sys.argv[2])
sys.stdout.buffer.write(b"\x30" + bytes([len(s)]) + s)
PY
	printf '%s' "$2" | xxd -r -p >approved.bin
	openssl pkey -in ec.pem -pubout -out ec.pub 2>/dev/null
	openssl dgst -sha256 -verify ec.pub -signature sig.der approved.bin
}
check "boot-2's signature verifies over SHA-256(approvedPolicy || empty policyRef) (openssl)" \
	verify_sig "$auth_body" "$approved_cc"
check "list: two policies, names and commands" \
	eq "$("$TP" list k2.hex | cut -d' ' -f1-3)" "$(printf '0 boot-2 PolicyPCR(sha256:16)\n1 boot-1 PolicyPCR(sha256:7,16)')"
check "add: one without a name lists as '-'" bash -c \
	"'$TP' add --signer ec.pem --pcrs sha256:7 --pcr-values pcrs.txt k.hex kn.hex && '$TP' list kn.hex | grep -q '^0 - PolicyPCR(sha256:7) PolicyCommandCode(Unseal) PolicyAuthorize'"
check "remove --name boot-1" "$TP" remove --name boot-1 k2.hex k3.hex
check "... leaves boot-2" eq "$("$TP" list k3.hex | cut -d' ' -f1-2)" "0 boot-2"
check "remove --index 0: no [3] left, [1] kept" "$TP" remove --index 0 k3.hex k4.hex
check "... the blob is k1's without boot-1: type, [0], [1], parent, pubkey, privkey" \
	eq "$(xxd -r -p k4.hex | openssl asn1parse -inform DER | grep -c 'd=1')" 6
check "DER in, DER out" bash -c "xxd -r -p k1.hex >k1.der && '$TP' remove --name boot-1 k1.der k5.der && [ \"\$(head -c 1 k5.der | xxd -p)\" = 30 ]"
refused() { ! "$@" >/dev/null 2>&1; }
check "refused: a signer the object's authPolicy does not name" \
	refused "$TP" add --signer rsa.pem --pcrs sha256:16 --pcr-values pcrs.txt k.hex x.hex
check "refused: a P-384 signer" refused "$TP" authorize --signer p384.pem
check "refused: a duplicate name" \
	refused "$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --name boot-1 k1.hex x.hex
check "refused: a PCR without a value" \
	refused "$TP" add --signer ec.pem --pcrs sha256:8 --pcr-values pcrs.txt k.hex x.hex
check "refused: remove of a name that is not there" refused "$TP" remove --name nope k1.hex x.hex
check "refused: garbage" refused "$TP" list pcrs.txt

# Issue 23 item 8: list read past a PolicyPCR body whose pcrDigest size field
# ran past the body (ASan SEGV), and printed names from the blob raw.
mkpolicy() { # BODY-HEX NAME-HEX: a TPMKey (DER) of one signed policy, PolicyPCR(BODY)
	python3 - "$1" "$2" <<'PY'
import sys
def tlv(t, v):
    n = len(v)
    h = bytes([n]) if n < 0x80 else (b"\x81" + bytes([n]) if n < 0x100 else b"\x82" + n.to_bytes(2, "big"))
    return bytes([t]) + h + v
cmd = tlv(0x30, tlv(0xa0, tlv(2, b"\x01\x7f")) + tlv(0xa1, tlv(4, bytes.fromhex(sys.argv[1]))))
entry = tlv(0x30, tlv(0xa0, tlv(0x0c, bytes.fromhex(sys.argv[2]))) + tlv(0xa1, tlv(0x30, cmd)))
f = tlv(6, bytes.fromhex("6781050a0105")) + tlv(0xa0, tlv(1, b"\xff")) + \
    tlv(0xa3, tlv(0x30, entry)) + tlv(2, bytes.fromhex("0081000001")) + tlv(4, bytes(2)) + tlv(4, bytes(6))
sys.stdout.buffer.write(tlv(0x30, f))
PY
}
mkpolicy "ffff$(printf '%084d' 0)" 6576696c >oob.der
check "list: a PolicyPCR body whose pcrDigest size (0xffff) runs past it: refused, nothing read past it" \
	bash -c "! '$TP' list oob.der >oob.out 2>oob.err; cat oob.err; grep -q 'oob.der: malformed PolicyPCR body\$' oob.err && ! grep -q Sanitizer oob.err && [ ! -s oob.out ]"
mkpolicy "0020$(printf '%064d' 0)00000001000b03000001" "$(printf 'evil\033[31m\nred' | xxd -p)" >esc.der
check "list: control characters of a name escaped" \
	eq "$("$TP" list esc.der)" '0 evil\x1b[31m\x0ared PolicyPCR(sha256:16)'

# --- policyRef (issue 22 item 5) ---------------------------------------------
A=6b6d6b2d61	# "kmk-a"
B=6b6d6b2d62
authorize_py() { # NAME-HEX [REF-HEX]: SHA-256(SHA-256(0^32 || 0x16a || name) || ref)
	python3 -c "import hashlib,sys; d=hashlib.sha256(bytes(32)+bytes.fromhex('0000016a'+sys.argv[1])).digest(); print(hashlib.sha256(d+bytes.fromhex(sys.argv[2])).hexdigest())" "$1" "${2:-}"
}
ec_name=$("$TP" signer-name --signer ec.pem)
check "authorize (no policyRef) is SHA-256(SHA-256(0^32 || CC_PolicyAuthorize || name)) (Python)" \
	eq "$("$TP" authorize --signer ec.pem)" "$(authorize_py "$ec_name")"
auth_a=$("$TP" authorize --signer ec.pem --policy-ref $A)
check "authorize --policy-ref A: SHA-256(SHA-256(0^32 || CC_PolicyAuthorize || name) || A) (Python)" \
	eq "$auth_a" "$(authorize_py "$ec_name" $A)"
check "  ... not the authPolicy without one" bash -c "[ '$auth_a' != '$("$TP" authorize --signer ec.pem)' ]"
mkkey "$auth_a" >ka.hex
check "add: refused on a key sealed with policyRef A, without --policy-ref" \
	bash -c "! '$TP' add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt ka.hex x.hex 2>err && grep -q 'policyRef none' err"
check "add: refused on it with --policy-ref B" \
	bash -c "! '$TP' add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $B ka.hex x.hex 2>err && grep -q 'policyRef $B' err"
check "add --policy-ref A: a signed policy for the A key" \
	"$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A --name ref-a ka.hex ka1.hex
xxd -r -p ka1.hex | openssl asn1parse -inform DER >asn-a.txt 2>&1
octets_a=$(grep 'OCTET STRING' asn-a.txt | sed 's/.*\[HEX DUMP\]://' | tr A-F a-f)
sp=$(tr A-F a-f <<<"$signer_pub")
check "[1] PolicyAuthorize body: keySign || policyRef A (TPM2B) || sigAlg NULL" \
	eq "$(sed -n 1p <<<"$octets_a")" "${sp}0005${A}0010"
auth_body_a=$(sed -n 4p <<<"$octets_a")
check "the signed policy's PolicyAuthorize: keySign || policyRef A || ECDSA SHA-256 r s" \
	eq "${auth_body_a:0:${#sp}+22}" "${sp}0005${A}0018000b"
verify_over() { # AUTH-BODY-HEX MESSAGE-HEX R-OFFSET: the ECDSA signature over MESSAGE (openssl)
	local b=$1 n=$3
	python3 - "${b:n:64}" "${b:n+68:64}" >sig.der <<'PY'
import sys
def i(h):
    v = bytes.fromhex(h).lstrip(b"\0")
    if not v or v[0] & 0x80: v = b"\0" + v
    return b"\x02" + bytes([len(v)]) + v
s = i(sys.argv[1]) + i(sys.argv[2])
sys.stdout.buffer.write(b"\x30" + bytes([len(s)]) + s)
PY
	printf '%s' "$2" | xxd -r -p >msg.bin
	openssl pkey -in ec.pem -pubout -out ec.pub 2>/dev/null
	openssl dgst -sha256 -verify ec.pub -signature sig.der msg.bin
}
roff=$((${#sp} + 4 + ${#A} + 12))
check "its signature verifies over SHA-256(approvedPolicy || A) (openssl)" \
	verify_over "$auth_body_a" "${approved_cc}${A}" $roff
check "  ... and not over SHA-256(approvedPolicy) alone" refused verify_over "$auth_body_a" "$approved_cc" $roff
sig_b=$("$TP" sign --signer ec.pem --policy "$approved" --policy-ref $B)
check "sign --policy-ref B: over SHA-256(approvedPolicy || B) (openssl)" \
	verify_over "$sig_b" "${approved}${B}" 12
check "list: the policyRef in hex" \
	eq "$("$TP" list ka1.hex)" "0 ref-a PolicyPCR(sha256:16) PolicyCommandCode(Unseal) PolicyAuthorize(signer ${ec_name}) policyRef: $A"
check "list: an empty policyRef says what it means" \
	eq "$("$TP" list k1.hex)" "0 boot-1 PolicyPCR(sha256:7,16) PolicyCommandCode(Unseal) PolicyAuthorize(signer ${ec_name}) policyRef: none (any key sealed to this signer accepts these approvals)"
check "add --policy-ref A again: two entries, both A" bash -c \
	"'$TP' add --signer ec.pem --pcrs sha256:7 --pcr-values pcrs.txt --policy-ref $A --name ref-a2 ka1.hex ka2.hex && [ \"\$('$TP' list ka2.hex | grep -c 'policyRef: $A\$')\" = 2 ]"
check "add: refused on the A blob (its policy [1]) without --policy-ref, naming the key's" \
	bash -c "! '$TP' add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt ka1.hex x.hex 2>err && grep -q \"the key's policyRef is $A, not none\" err"
check "add: refused on the empty-policyRef blob with --policy-ref A" \
	bash -c "! '$TP' add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A k1.hex x.hex 2>err && grep -q \"the key's policyRef is none, not $A\" err"
python3 - <<PY >mixed.hex
k = bytes.fromhex(open("ka1.hex").read().strip())
print(k.replace(bytes.fromhex("0005$A") + bytes.fromhex("0018"), bytes.fromhex("0005$B") + bytes.fromhex("0018")).hex())
PY
check "list: a signed policy whose policyRef is not the key's says load skips it" \
	bash -c "'$TP' list mixed.hex | grep -q 'policyRef: $B \[not the key.s policyRef, $A: load skips it\]\$'"
check "refused: --policy-ref not hex" refused "$TP" authorize --signer ec.pem --policy-ref xyz
check "refused: --policy-ref of 65 bytes" refused "$TP" authorize --signer ec.pem --policy-ref "$(printf '%0130d' 0)"
check "refused: --policy-ref empty" refused "$TP" authorize --signer ec.pem --policy-ref ""
check "refused: --policy-ref with list" refused "$TP" list --policy-ref $A ka1.hex
check "--policy-ref of 64 bytes" "$TP" authorize --signer ec.pem --policy-ref "$(printf '%0128d' 0)"
check "--help" "$TP" --help

# Revocation (issue 27), no TPM: a key whose authPolicy names counter
# 0x01800100 (the Name the counter template has, as `counter` prints).
rauth=$("$TP" authorize --signer ec.pem --policy-ref $A --counter-index 0x01800100)
mkkey "$rauth" >rk.hex
check "revoke: add without --counter refuses a key with a counter (no policy field yet)" \
	refused "$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A rk.hex x.hex
check "revoke: add --counter 7 --counter-index 0x01800100" \
	"$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A \
	--counter 7 --counter-index 0x01800100 --name up-7 rk.hex rk1.hex
check "revoke: add --counter 8, the counter from the policy field" \
	"$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A \
	--counter 8 --name up-8 rk1.hex rk2.hex
check "revoke: add without --counter refuses it (its policy field names the counter)" \
	refused "$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A rk1.hex x.hex
check "revoke: add --counter-index of another counter refuses it" \
	refused "$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --policy-ref $A \
	--counter 8 --counter-index 0x01800101 rk1.hex x.hex
check "revoke: add --counter refuses a key without a counter" \
	refused "$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --counter 8 k1.hex x.hex
cname=$("$TP" counter --counter-index 0x01800100 | sed -n 's/^name: //p')
"$TP" list rk2.hex >rl.txt 2>&1
check "revoke: list says what the key requires" \
	grep -qx "# revocation: each approval checks NV counter 0x01800100; the TPM refuses it once the counter is above the value it names (tpm2_nvincrement revokes)" rl.txt
check "revoke: list shows each approval's value, newest first" \
	grep -qx "0 up-8 PolicyPCR(sha256:16) PolicyNV(counter 0x01800100 <= 8) PolicyCommandCode(Unseal) PolicyAuthorize(signer $("$TP" signer-name --signer ec.pem)) policyRef: revocation counter 0x01800100 Name $cname, policyref $A" rl.txt
check "  ... and the older one" grep -q "^1 up-7 PolicyPCR(sha256:16) PolicyNV(counter 0x01800100 <= 7) " rl.txt
check "revoke: sign refuses a raw --policy for a counter's key" \
	bash -c "! '$TP' sign --signer ec.pem --policy $approved --policy-ref $A --counter-index 0x01800100 2>err && grep -q 'must check its counter' err"
full_ref=544b525601800100${cname}${A}
check "revoke: sign refuses the counter's policyRef given as --policy-ref" \
	bash -c "! '$TP' sign --signer ec.pem --policy $approved --policy-ref $full_ref 2>err && grep -q 'names revocation counter 0x01800100' err"
check "revoke: sign --counter-index needs --counter" \
	refused "$TP" sign --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --counter-index 0x01800100
approved_nv=$("$TP" pcr-digest --pcrs sha256:16 --pcr-values pcrs.txt --counter 9 --counter-index 0x01800100)
sig_nv=$("$TP" sign --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --counter 9 \
	--counter-index 0x01800100 --policy-ref $A)
check "revoke: sign builds PolicyPCR, PolicyNV(<= 9): over SHA-256(pcr-digest --counter 9 || ref) (openssl)" \
	verify_over "$sig_nv" "${approved_nv}544b525601800100${cname}${A}" 12
umask 022
"$TP" sign --signer ec.pem --policy "$approved" -o new.sig
"$TP" add --signer ec.pem --pcrs sha256:16 --pcr-values pcrs.txt --name m k1.hex new.hex
check "new files are 0600 under umask 022 (sign -o, add)" \
	eq "$(stat -c %a new.sig new.hex | tr '\n' ' ')" "600 600 "
check "revoke: --policy-ref of 23 bytes with a counter refused" \
	refused "$TP" authorize --signer ec.pem --policy-ref "$(printf '%046d' 0)" --counter-index 0x01800100
check "revoke: --counter-index that is no NV index refused" \
	refused "$TP" counter --counter-index 0x81000001

# --- against the TPM --------------------------------------------------------
if ! command -v swtpm >/dev/null || ! command -v tpm2_policyauthorize >/dev/null; then
	n=$((n + 1)) skip=$((skip + 1))
	echo "ok $n the TPM checks # SKIP swtpm or tpm2-tools not installed (Debian: swtpm, tpm2-tools)"
else
	mkdir state
	port=$((20000 + RANDOM % 30000))
	swtpm socket --tpm2 --tpmstate dir="$work/state" --server type=tcp,port=$port,bindaddr=127.0.0.1 \
		--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 --flags not-need-init,startup-clear \
		--pid file="$work/pid" -d && swtpm_pid=$(cat "$work/pid")
	export TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=$port
	tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -c prim.ctx \
		-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt'
	tpm2_pcrread -Q sha256:7,16 -o pcrs.bin
	tpm2_pcrread sha256:7,16 >tpm-pcrs.txt
	head -c 32 /dev/urandom >secret
	head -c 32 /dev/zero >z32
	for k in rsa ec; do
		"$TP" signer-public --signer $k.pem -o $k.tpub
		tpm2_flushcontext -t
		check "$k: the signer's name is the TPM's (tpm2_loadexternal)" bash -c \
			"tpm2_loadexternal -Q -C o -u $k.tpub -c $k.ctx -n $k.name && [ \"\$(xxd -p $k.name | tr -d '\n')\" = \"\$('$TP' signer-name --signer $k.pem)\" ]"
		tpm2_startauthsession -Q -S t.ctx
		tpm2_policyauthorize -Q -S t.ctx -i z32 -n $k.name -L $k.auth
		tpm2_flushcontext t.ctx
		check "$k: authorize is tpm2_policyauthorize's digest (trial session)" \
			eq "$(xxd -p $k.auth | tr -d '\n')" "$("$TP" authorize --signer $k.pem)"
		tpm2_flushcontext -t
		tpm2_create -Q -C prim.ctx -i secret -L $k.auth -a 'fixedtpm|fixedparent' -u o.pub -r o.priv
		"$TP" pcr-digest --pcrs sha256:7,16 --pcr-values tpm-pcrs.txt | xxd -r -p >approved.bin
		"$TP" sign --signer $k.pem --policy "$(xxd -p approved.bin | tr -d '\n')" -o $k.sig
		unseal() {
			tpm2_loadexternal -Q -C o -u "$k.tpub" -c "$k.ctx" &&
			tpm2_verifysignature -Q -c "$k.ctx" -g sha256 -m approved.bin -s "$k.sig" -t "$k.tkt" &&
			tpm2_flushcontext -t && tpm2_load -Q -C prim.ctx -u o.pub -r o.priv -c o.ctx &&
			tpm2_startauthsession -Q --policy-session -S p.ctx &&
			tpm2_policypcr -Q -S p.ctx -l sha256:7,16 &&
			tpm2_policyauthorize -Q -S p.ctx -i approved.bin -n "$k.name" -t "$k.tkt" &&
			tpm2_unseal -c o.ctx -p session:p.ctx -o out.bin && cmp out.bin secret
		}
		check "$k: sealed to authorize, unsealed with the tool's signed PolicyPCR (VerifySignature, PolicyPCR, PolicyAuthorize)" unseal
		tpm2_flushcontext p.ctx 2>/dev/null
		tpm2_flushcontext -t
	done
	# policyRef A: the digest, an unseal, a signature over B refused
	k=ec
	printf '%s' $A | xxd -r -p >refa.bin
	tpm2_startauthsession -Q -S t.ctx
	tpm2_policyauthorize -Q -S t.ctx -i z32 -q refa.bin -n $k.name -L a.auth
	tpm2_flushcontext t.ctx
	check "authorize --policy-ref A is tpm2_policyauthorize -q's digest (trial session)" \
		eq "$(xxd -p a.auth | tr -d '\n')" "$("$TP" authorize --signer ec.pem --policy-ref $A)"
	tpm2_flushcontext -t
	tpm2_create -Q -C prim.ctx -i secret -L a.auth -a 'fixedtpm|fixedparent' -u o.pub -r o.priv
	"$TP" pcr-digest --pcrs sha256:7,16 --pcr-values tpm-pcrs.txt | xxd -r -p >approved.bin
	unseal_ref() { # REF-HEX: sign over it; VerifySignature, PolicyPCR, PolicyAuthorize -q A, Unseal
		"$TP" sign --signer ec.pem --policy "$(xxd -p approved.bin | tr -d '\n')" --policy-ref "$1" -o ref.sig &&
		{ cat approved.bin; printf '%s' "$1" | xxd -r -p; } >aref.bin &&
		tpm2_loadexternal -Q -C o -u ec.tpub -c ec.ctx &&
		tpm2_verifysignature -Q -c ec.ctx -g sha256 -m aref.bin -s ref.sig -t ref.tkt &&
		tpm2_flushcontext -t && tpm2_load -Q -C prim.ctx -u o.pub -r o.priv -c o.ctx &&
		tpm2_startauthsession -Q --policy-session -S p.ctx &&
		tpm2_policypcr -Q -S p.ctx -l sha256:7,16 &&
		tpm2_policyauthorize -Q -S p.ctx -i approved.bin -q refa.bin -n ec.name -t ref.tkt &&
		tpm2_unseal -c o.ctx -p session:p.ctx -o out.bin && cmp out.bin secret
	}
	check "sealed to authorize --policy-ref A, unsealed with sign --policy-ref A" unseal_ref $A
	tpm2_flushcontext p.ctx 2>/dev/null
	tpm2_flushcontext -t
	check "  ... a signature over policyRef B does not pass PolicyAuthorize with A" \
		refused unseal_ref $B
	tpm2_flushcontext p.ctx 2>/dev/null
	tpm2_flushcontext -t
	tpm2_startauthsession -Q -S t.ctx
	tpm2_policypcr -Q -S t.ctx -l sha256:7,16 -f pcrs.bin -L pcr.dig
	tpm2_flushcontext t.ctx
	check "pcr-digest is tpm2_policypcr's (trial session)" \
		eq "$(xxd -p pcr.dig | tr -d '\n')" "$("$TP" pcr-digest --pcrs sha256:7,16 --pcr-values tpm-pcrs.txt)"
	# Revocation (issue 27): an NV counter defined as `trusted-policy counter`
	# prints; its Name, the approved digest and the authPolicy as tpm2-tools
	# computes them; an approval for N unseals until the counter passes N.
	NV=0x01800100
	tpm2_nvdefine -Q -C o -s 8 -a 'nt=counter|ownerwrite|ownerread|authread|no_da' $NV
	tpm2_nvincrement -Q -C o $NV
	nvname=$(tpm2_nvreadpublic $NV | sed -n 's/^ *name: *//p')
	check "counter: the Name is tpm2_nvreadpublic's" \
		eq "$("$TP" counter --counter-index $NV | sed -n 's/^name: //p')" "$nvname"
	cnt() { tpm2_nvread -C $NV -s 8 $NV 2>/dev/null | xxd -p; }
	n0=$((0x$(cnt)))
	printf '%016x' $n0 | xxd -r -p >n0.bin
	tpm2_startauthsession -Q -S t.ctx
	tpm2_policypcr -Q -S t.ctx -l sha256:7,16 -f pcrs.bin
	tpm2_policynv -Q -S t.ctx -i n0.bin $NV ule -L nv.dig
	tpm2_flushcontext t.ctx
	check "pcr-digest --counter is tpm2_policypcr + tpm2_policynv ule's (trial session)" \
		eq "$(xxd -p nv.dig | tr -d '\n')" \
		"$("$TP" pcr-digest --pcrs sha256:7,16 --pcr-values tpm-pcrs.txt --counter $n0 --counter-index $NV)"
	# the key's policyRef: "TKRV" || NV || Name || policyref= (here: A)
	{ printf 544b5256%08x%s%s "$NV" "$nvname" "$A" | xxd -r -p; } >rvref.bin
	tpm2_startauthsession -Q -S t.ctx
	tpm2_policyauthorize -Q -S t.ctx -i z32 -q rvref.bin -n ec.name -L rv.auth
	tpm2_flushcontext t.ctx
	check "authorize --counter-index is tpm2_policyauthorize -q TKRV||NV||Name||ref's digest" \
		eq "$(xxd -p rv.auth | tr -d '\n')" \
		"$("$TP" authorize --signer ec.pem --policy-ref $A --counter-index $NV)"
	tpm2_flushcontext -t
	tpm2_create -Q -C prim.ctx -i secret -L rv.auth -a 'fixedtpm|fixedparent' -u o.pub -r o.priv
	unseal_nv() { # N: sign PolicyPCR + PolicyNV(<= N); unseal with tpm2-tools
		printf '%016x' "$1" | xxd -r -p >nb.bin &&
		"$TP" pcr-digest --pcrs sha256:7,16 --pcr-values tpm-pcrs.txt --counter "$1" \
			--counter-index "$NV" | xxd -r -p >appr.bin &&
		"$TP" sign --signer ec.pem --pcrs sha256:7,16 --pcr-values tpm-pcrs.txt \
			--counter "$1" --policy-ref $A --counter-index "$NV" -o nv.sig &&
		cat appr.bin rvref.bin >arv.bin &&
		tpm2_loadexternal -Q -C o -u ec.tpub -c ec.ctx &&
		tpm2_verifysignature -Q -c ec.ctx -g sha256 -m arv.bin -s nv.sig -t nv.tkt &&
		tpm2_flushcontext -t && tpm2_load -Q -C prim.ctx -u o.pub -r o.priv -c o.ctx &&
		tpm2_startauthsession -Q --policy-session -S p.ctx &&
		tpm2_policypcr -Q -S p.ctx -l sha256:7,16 &&
		tpm2_policynv -Q -S p.ctx -i nb.bin "$NV" ule &&
		tpm2_policyauthorize -Q -S p.ctx -i appr.bin -q rvref.bin -n ec.name -t nv.tkt &&
		tpm2_unseal -c o.ctx -p session:p.ctx -o out.bin && cmp out.bin secret
	}
	nv_done() { tpm2_flushcontext p.ctx 2>/dev/null; tpm2_flushcontext -t; }
	check "revoke: an approval for the counter's value unseals (tpm2-tools)" unseal_nv $n0
	nv_done
	tpm2_nvincrement -Q -C o $NV
	check "revoke: after tpm2_nvincrement that approval is refused (PolicyNV)" \
		refused unseal_nv $n0
	nv_done
	check "revoke: ... an approval for the new value unseals" unseal_nv $((n0 + 1))
	nv_done
	check "revoke: a counter cannot be written back (NV_Write: attributes)" \
		refused bash -c "printf '%016x' $n0 | xxd -r -p | tpm2_nvwrite -Q -C o -i - $NV"
	check "revoke: ... nor incremented with the index's own authorisation" \
		refused tpm2_nvincrement -Q -C $NV $NV
	tpm2_nvundefine -Q -C o $NV
	tpm2_nvdefine -Q -C o -s 8 -a 'nt=counter|ownerwrite|ownerread|authread|no_da' $NV
	tpm2_nvincrement -Q -C o $NV
	check "revoke: defined again, the counter starts above its old value" \
		test $((0x$(cnt))) -gt $((n0 + 1))
	check "  ... so the revoked approval stays refused" refused unseal_nv $n0
	nv_done
fi
echo "# Totals: pass:$pass fail:$fail skip:$skip"
[ "$fail" = 0 ]
