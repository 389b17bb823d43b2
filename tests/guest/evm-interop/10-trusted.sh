#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Trusted key blobs between the in-tree type and ours, both built in
# (lib/interop.sh: phase 1 in-tree makes, phase 2 ours loads and makes,
# phase 3 in-tree loads). Each key is made with the options both types
# take (TPM 2.0: keyhandle=, blobauth=, migratable=0 + hash=sha1, 113
# bytes (the in-tree type's most; ours makes 128, which it loads),
# policydigest= of a PolicyPCR and of a PolicyPassword; TPM 1.2:
# blobauth=, migratable=0, 128 bytes, pcrinfo=, keyhandle= + keyauth=),
# with an encrypted key under it ("new default trusted:NAME 32 <hex>").
# The next phase loads each blob in the other type: keyctl print gives it
# back, and the encrypted key loads and reads back byte for byte, which its
# HMAC check only allows with the same master key bytes (a control shows
# the check bites); migratable=0 is honoured. A blob whose last byte is
# inverted (in the sealed data) is refused: EKEYREJECTED by ours (the
# TPM's integrity check), EPERM by in-tree (every TPM refusal). Ours also
# makes, on TPM 2.0, a blob without keyhandle= (the blob names the SRK:
# the in-tree type loads it) and a pcrs= blob (a TPMKey with a policy
# field): the in-tree 6.1 type cannot read that field and refuses the blob
# (E2BIG: it takes the DER for the raw form) without harm to later loads.
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/trusted.sh"
. "$here/../lib/tpm2.sh"
. "$here/../lib/evm.sh"
. "$here/../lib/interop.sh"

t_interop_begin
impl=$(t_interop_name "$T_INTEROP_IMPL")
# a blob failing the TPM's integrity check
tampered=EPERM
[ "$T_INTEROP_IMPL" != ours ] || tampered=EKEYREJECTED
KH=$(t_interop_kh)

# keys: the set, one "NAME MAKER LOAD SIZE OPTIONS..." a line: MAKER both
# or ours (who can make it), LOAD how it loads (t_interop_tload).
keys() {
	if [ "$TKH_TPM" = 2.0 ]; then
		_pd=$(t_evm_tpm2_policy_digest) || return 1
		cat <<-EOF
		t_def both plain 32 $KH
		t_ba both ba 32 $KH blobauth=$T_INTEROP_BA
		t_mig both plain 64 $KH migratable=0 hash=sha1
		t_big both plain 113 $KH
		t_128 ours plain 128 $KH
		t_pcr both pcr 32 $KH hash=sha256 policydigest=$_pd
		t_pw both pw 32 $KH policydigest=$T_TPM2_POLICY_PW blobauth=hello
		t_nokh ours plain 32
		t_pcrs ours pcrs 32 pcrs=sha256:$T_EVM_PCR
		EOF
	else
		_pi=$(t_pcrinfo $T_EVM_PCR) || return 1
		cat <<-EOF
		t_def both plain 32
		t_ba both ba 32 blobauth=$T_INTEROP_BA
		t_mig both plain 64 migratable=0
		t_big both plain 128
		t_pcr both plain 32 pcrinfo=$_pi
		t_kh both kh 32 keyhandle=0x$T_SRK keyauth=$T_Z40
		EOF
	fi
}

# t_interop_tload NAME BLOB LOAD: load trusted key NAME from BLOB as LOAD says:
# plain (no options), ba (blobauth=), kh (keyhandle= keyauth=), pcr (a
# PolicyPCR session of user space's), pw (a PolicyPassword session and
# blobauth=hello), pcrs (ours: the kernel runs the blob's policy).
t_interop_tload() {
	case $3 in
	plain | pcrs) t_interop_loads trusted "$1" "$2" ;;
	ba) t_interop_loads trusted "$1" "$2" "blobauth=$T_INTEROP_BA" ;;
	kh) t_interop_loads trusted "$1" "$2" "keyhandle=0x$T_SRK keyauth=$T_Z40" ;;
	pcr | pw)
		if [ "$3" = pcr ]; then
			_s=$(t_evm_tpm2_pcr_session) || return 1
			_o=
		else
			_s=$(t_tpm2_pw_session) || return 1
			_o=" blobauth=hello"
		fi
		t_interop_loads trusted "$1" "$2" "policyhandle=0x$_s$_o"
		_rc=$?
		t_tpm2_flush "$_s"
		return $_rc
		;;
	*) echo "t_interop_tload: unknown way '$3'" >&2; return 1 ;;
	esac
}

# mk_key NAME SIZE OPTIONS: trusted key NAME and the encrypted key e_NAME
# under it; both blobs saved.
mk_key() {
	_n=$1 _z=$2
	shift 2
	t_key_add trusted "$_n" "new $_z${*:+ $*}" || return 1
	t_key_add encrypted "e_$_n" "new default trusted:$_n 32 $T_INTEROP_HEX" || return 1
	t_interop_save "$_n.tblob" "$(t_key_blob trusted "$_n")" &&
		t_interop_save "$_n.eblob" "$(t_key_blob encrypted "e_$_n")"
}

# update_refused NAME: keyctl update of NAME is EPERM (migratable=0).
update_refused() {
	if [ "$TKH_TPM" = 2.0 ] && [ "$T_INTEROP_IMPL" = ref ]; then
		t_key_update_refused trusted "$1" "update $KH"	# the in-tree type needs it on TPM 2.0
	else
		t_key_update_refused trusted "$1" update
	fi
}

keys >/tmp/io-keys 2>/tmp/io-keys.err ||
	t_bail "the set's options" "$(cat /tmp/io-keys.err)"

# --- load the previous phase's set -----------------------------------------
if [ -n "$T_INTEROP_PREV" ]; then
	from=$(t_interop_from)
	made=$(t_interop_get "$T_INTEROP_PREV" trusted.list) ||
		t_bail "$from set" "no list of phase $T_INTEROP_PREV's trusted keys"
	for n in $made; do
		read -r _ _ how size opts <<-EOF
		$(grep "^$n " /tmp/io-keys)
		EOF
		tb=$(t_interop_get "$T_INTEROP_PREV" "$n.tblob") eb=$(t_interop_get "$T_INTEROP_PREV" "$n.eblob") ||
			{ t_fail "$impl: $from $n blob" "not saved"; continue; }
		if [ "$how" = pcrs ] && [ "$T_INTEROP_IMPL" = ref ]; then
			# a TPMKey with policy [1]: not in the in-tree 6.1 ASN.1 template
			t_errno "in-tree refuses ours' pcrs= blob it cannot read (${KH:-no keyhandle=})" E2BIG \
				t_interop_refused trusted "$n" "load $tb${KH:+ $KH}"
			t_errno "  ... and without keyhandle= (the parent is in the unread DER)" EINVAL \
				t_interop_refused trusted "$n" "load $tb"
			t_check "  ... then loads the next blob as before" \
				t_interop_tload t_def "$(t_interop_get "$T_INTEROP_PREV" t_def.tblob)" plain
			continue
		fi
		t_check "$impl loads $from $n blob ($size bytes${opts:+, $opts}), print gives it back" \
			t_interop_tload "$n" "$tb" "$how" || continue
		t_check "  ... same key bytes: $from encrypted key under it loads, reads back identical" \
			t_interop_loads encrypted "e_$n" "$eb"
		if [ "$n" = t_mig ]; then
			t_errno "  ... migratable=0 honoured: update refused" EPERM update_refused t_mig
		fi
	done
	tb=$(t_interop_get "$T_INTEROP_PREV" t_def.tblob)
	t_errno "$impl refuses $from t_def blob with its last byte inverted: $tampered" $tampered \
		t_interop_refused trusted t_bad "load $(t_interop_last_flipped "$tb")"
	# the control: the encrypted key's check bites on other key bytes
	t_key_add trusted t_def "new 32${KH:+ $KH}"
	t_errno "control: under another trusted key t_def, $from e_t_def is refused" EINVAL \
		t_interop_refused encrypted e_t_def "load $(t_interop_get "$T_INTEROP_PREV" t_def.eblob)"
	t_key_drop trusted t_def
fi

# --- make this phase's set -------------------------------------------------
t_interop_makes || exit 0
list=
while read -r n who how size opts; do
	if [ "$who" = ours ] && [ "$T_INTEROP_IMPL" != ours ]; then
		continue	# not an option of the in-tree type
	fi
	# shellcheck disable=SC2086  # the options: words
	if t_check "$impl: new $n: $size bytes${opts:+, $opts}; an encrypted key under it" \
		mk_key "$n" "$size" $opts; then
		list="$list $n"
	fi
	if [ "$how" = pcrs ]; then
		t_check "  ... its blob carries the PCR policy (TPMKey policy [1])" \
			t_tpm2_der_get "$(t_key_blob trusted "$n")" a1
	fi
done </tmp/io-keys
t_interop_save trusted.list "$list"
tb=$(t_key_blob trusted t_def)
t_errno "$impl refuses its own t_def blob with its last byte inverted: $tampered" $tampered \
	t_interop_refused trusted t_bad "load $(t_interop_last_flipped "$tb")"
