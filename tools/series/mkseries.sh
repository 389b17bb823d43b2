#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series: the in-tree patch series, generated from src/ (docs/series.md).
#
# usage: tools/series/mkseries.sh [6.1] [6.12] [7.3]  (default: 6.1 6.12)
#
# For each version: apt's /usr/src/linux-source-VER.tar.xz (7.3: Debian
# trixie-backports' package, fetched by tests/qemu/fetch-stock.sh --source
# into the cache, never installed) unpacked once into
# a git repository (the base, ~/.cache/tek/series/base-VER-PKGVERSION); a
# worktree of it (gen-VER) is reset to the base, each patch's files are put
# in place from src/ and tools/series/ and committed with the message in
# tools/series/msg/ (patch 6, the documentation: doc-trusted.py on the
# tree's own text); git format-patch writes build/series/VER/, the cover
# letter filled in from tools/series/cover-letter.txt.
#
# The source is taken from src/ as it is: what only the out-of-tree build
# needs is resolved here, mechanically, and every rewrite below fails the
# run when it finds nothing to rewrite:
#   - unifdef: TK_OUT_OF_TREE undefined (the shadowing of a built-in type,
#     the exports' macros), TK_HAVE_* as the base tree's headers say (the
#     same probes as src/compat/Kbuild.include), blank lines it leaves in a
#     row squeezed to one; src/compat/ is not copied;
#   - ENCRYPTED_EXPORT{,_GPL}() -> EXPORT_SYMBOL{,_GPL}();
#   - src/lib/tk_hex.h (both types use it) lands in security/keys/, its
#     includes become "../tk_hex.h"; the other src/lib files go into the
#     directory of the one module that links them (src/Kbuild says which);
#   - before 6.12, <linux/unaligned.h> is <asm/unaligned.h>;
#   - with kzalloc_obj() (7.0), "p = kzalloc(sizeof(*p), gfp)" is
#     "p = kzalloc_obj(*p, gfp)" (checkpatch's ALLOC_WITH_SIZEOF);
#     without <linux/hex.h> (before 6.5) its functions are <linux/kernel.h>'s.
# Commits get fixed dates (src/'s last commit) so that the same source
# gives the same series.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tools/series
cache=${TKH_CACHE:-$HOME/.cache/tek}/series
out=${SERIES_OUT:-$top/build/series}
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(6.1 6.12)

name="Seed 55c5cf52 maintainers"
email="maintainers@users.noreply.a-seed-55c5cf52.example"

log() { echo "mkseries: $*" >&2; }
die() { log "$*"; exit 1; }
# shellcheck source=worktree.sh
. "$here/worktree.sh"

# The Debian suite of a version that this host's apt does not have: its
# linux-source comes through that suite's own apt (tests/qemu/fetch-stock.sh
# --source), never installed.
other_suite() {
	case $1 in
	7.3) echo trixie-backports ;;
	esac
}

# source_tar VER: sets tar (the tarball) and pkg (its package's version).
source_tar() {
	local ver=$1 suite
	suite=$(other_suite "$ver")
	if [ -n "$suite" ]; then
		read -r tar pkg < <("$top/tests/qemu/fetch-stock.sh" --source "$ver" "$suite") ||
			die "linux-source-$ver of $suite: fetch failed"
		[ -f "$tar" ] || die "linux-source-$ver of $suite: fetch failed"
		return 0
	fi
	tar=/usr/src/linux-source-$ver.tar.xz
	if [ ! -f "$tar" ] && [ "$(id -u)" = 0 ]; then
		log "installing linux-source-$ver (apt)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "linux-source-$ver" >&2 ||
			die "apt-get install linux-source-$ver failed"
	fi
	[ -f "$tar" ] || die "missing $tar (apt-get install linux-source-$ver)"
	pkg=$(dpkg-query -W -f='${Version}' "linux-source-$ver")
}

# base_repo VER: prints the base repository's path; made once.
base_repo() {
	local ver=$1 tar pkg dir
	source_tar "$ver"
	dir=$cache/base-$ver-$pkg
	mkdir -p "$cache"
	exec 8>"$cache/.base-$ver.lock"
	flock 8
	if [ ! -f "$dir/.git/tek-base" ]; then
		log "$ver: unpacking $tar into $dir (once)"
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -C "$dir" --strip-components=1 -xJf "$tar"
		(
			cd "$dir"
			git init -q
			git config user.name "$name"
			git config user.email "$email"
			git config gc.auto 0
			# -f: the tree exactly as unpacked, ignored names too
			git add -A -f .
			git commit -q -m "linux-source-$ver $pkg as apt unpacks it"
			git tag base
		)
		touch "$dir/.git/tek-base"
	fi
	exec 8>&-
	echo "$dir"
}

unifdef_bin() {
	local u=$cache/unifdef
	if [ ! -x "$u" ]; then
		gcc -O2 -o "$u.tmp" "$1/scripts/unifdef.c"
		mv "$u.tmp" "$u"
	fi
	echo "$u"
}

# Objects of a module in src/Kbuild, as "dir/name.o" words.
kbuild_objs() {
	make -s --no-print-directory -f - src="$top/src" srctree=/nonexistent "print-$1" <<'EOF'
include $(src)/Kbuild
print-%: ; @echo $($*-y)
EOF
}

# emit SRC DST: one file of src/ into the tree, rewritten as above.
emit() {
	local src=$top/src/$1 dst=$tree/$2 rc=0
	mkdir -p "$(dirname "$dst")"
	"$unifdef" -UTK_OUT_OF_TREE "${t_have[@]}" "$src" >"$dst.u" || rc=$?
	[ $rc -le 1 ] || die "unifdef failed on $1"
	# a block unifdef drops between two blank lines leaves two in a row
	cat -s "$dst.u" >"$dst"
	rm -f "$dst.u"
	if grep -q 'ENCRYPTED_EXPORT' "$dst"; then
		sed -i -e 's/\bENCRYPTED_EXPORT_GPL(/EXPORT_SYMBOL_GPL(/' \
			-e 's/\bENCRYPTED_EXPORT(/EXPORT_SYMBOL(/' "$dst"
	fi
	if [ "$2" != security/keys/tk_hex.h ]; then
		sed -i 's|^#include "tk_hex.h"|#include "../tk_hex.h"|' "$dst"
	fi
	if [ -z "$have_linux_hex" ]; then
		sed -i 's|^#include <linux/hex.h>|#include <linux/kernel.h>|' "$dst"
	fi
	if [ -z "$have_linux_unaligned" ]; then
		sed -i 's|^#include <linux/unaligned.h>|#include <asm/unaligned.h>|' "$dst"
	fi
	if [ -n "$have_alloc_obj" ]; then
		# p = kzalloc(sizeof(*p), gfp) -> p = kzalloc_obj(*p, gfp), as
		# checkpatch asks from 7.0 on (ALLOC_WITH_SIZEOF)
		sed -i -E 's/\<([a-z_][a-z0-9_]*) = (kv|k)([mz])alloc\(sizeof\(\*\1\), /\1 = \2\3alloc_obj(*\1, /' "$dst"
		if grep -qE '\<(kv|k)[mz]alloc\(sizeof\([^()]*\), ' "$dst"; then
			die "$1: an allocation of one object by sizeof left in $2 (kzalloc_obj)"
		fi
	fi
	if grep -qE 'TK_OUT_OF_TREE|TK_HAVE_|ENCRYPTED_EXPORT|tk_tpm_(get|put|transmit)' "$dst"; then
		die "$1: out-of-tree names left in $2"
	fi
}

# subst FILE TOKEN TEXTFILE: FILE (- for stdin) with the line that is TOKEN
# replaced by TEXTFILE's lines; fails without such a line.
subst() {
	awk -v tok="$2" -v txt="$3" '
		$0 == tok { while ((getline l < txt) > 0) print l; n++; next }
		{ print }
		END { if (!n) exit 1 }
	' "$1" || die "$1: no line $2"
}

# wrap_objs VAR OBJ...: "VAR := a.o b.o \" lines of at most 80 columns,
# the objects' directories dropped.
wrap_objs() {
	local var=$1 line o
	shift
	line="$var :="
	for o in "$@"; do
		o=${o##*/}
		if [ $(( ${#line} + ${#o} + 3 )) -gt 72 ]; then
			printf '%s \\\n' "$line"
			line="	$o"
		else
			line="$line $o"
		fi
	done
	printf '%s\n' "$line"
}

# commit MSGFILE: everything of the tree, with the message (subject, blank,
# body) from tools/series/msg/ and a Signed-off-by.
commit() {
	git -C "$tree" add -A -f .
	git -C "$tree" diff --cached --quiet && die "$1: nothing to commit"
	sed -e "s/@VER@/$ver/g" "$here/msg/$1" |
		git -C "$tree" commit -q -s -F -
}

# The lib files of each patch: patch 1 the TPM 1.2 side and what it needs,
# patch 2 the rest of src/lib that trusted links (TPM 2.0, the options).
lib_tpm1="tk_buf.h tk1_msg tk_der tk_oaep tk1_transport tk_rc"

gen() {
	ver=$1
	local base tree_objs enc_objs o f lib2 lib_all
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	base=$(base_repo "$ver")
	unifdef=$(unifdef_bin "$base")
	tree=$cache/gen-$ver
	series_worktree "$base" "$tree"
	git -C "$tree" config user.name "$name"
	git -C "$tree" config user.email "$email"

	# The probes of src/compat/Kbuild.include, on the base tree.
	# probe SYMBOL FILES...: -DSYMBOL when a line of FILES matches the
	# pattern after them (grep -w), else -USYMBOL.
	probe() {
		local sym=$1 pat=$2
		shift 2
		if grep -qsw -- "$pat" "$@"; then echo "-D$sym"; else echo "-U$sym"; fi
	}
	local tpmh=("$tree/include/linux/tpm.h" "$tree/include/linux/tpm_buf.h")
	t_have=("$(probe TK_HAVE_TPM_BUF_LENGTH tpm_buf_init_sized "${tpmh[@]}")"
		"$(probe TK_HAVE_TPM_BUF_INLINE TPM_BUF_INVALID "${tpmh[@]}")"
		"$(probe TK_HAVE_SHA256_CTX 'struct sha256_ctx {' "$tree/include/crypto/sha2.h")"
		"$(probe TK_HAVE_AES_PREPAREKEY aes_prepareenckey "$tree/include/crypto/aes.h")"
		"$(probe TK_HAVE_STDRNG_GET_BYTES crypto_stdrng_get_bytes "$tree/include/crypto/rng.h")"
		"$(probe TK_HAVE_EI_ETYPE_NONE EI_ETYPE_NONE "$tree/include/asm-generic/error-injection.h")")
	have_linux_unaligned=
	[ -f "$tree/include/linux/unaligned.h" ] && have_linux_unaligned=1
	have_linux_hex=
	[ -f "$tree/include/linux/hex.h" ] && have_linux_hex=1
	have_alloc_obj=
	grep -qs '^#define kzalloc_obj(' "$tree/include/linux/slab.h" && have_alloc_obj=1
	local has_have_trusted=
	grep -q '^config HAVE_TRUSTED_KEYS' "$tree/security/keys/trusted-keys/Kconfig" &&
		has_have_trusted=1

	tree_objs=$(kbuild_objs trusted)
	enc_objs=$(kbuild_objs encrypted-keys)
	local td=security/keys/trusted-keys ed=security/keys/encrypted-keys

	# Every lib object belongs to exactly one module.
	lib_all=
	for o in $tree_objs; do
		case $o in lib/*) lib_all="$lib_all $(basename "$o" .o)" ;; esac
	done
	for o in $enc_objs; do
		case $o in
		lib/tk_enc_blob.o) ;;
		lib/*) die "src/Kbuild: encrypted links $o: place it (mkseries.sh)" ;;
		esac
	done
	lib2=
	for f in $lib_all; do
		case " $lib_tpm1 " in *" $f "*) ;; *) lib2="$lib2 $f" ;; esac
	done

	# lib_files NAMES: the .c and .h of each name (a name with a dot is a file).
	lib_files() {
		local n
		for n in "$@"; do
			case $n in
			*.*) echo "$n" ;;
			*) [ -f "$top/src/lib/$n.c" ] && echo "$n.c"
			   [ -f "$top/src/lib/$n.h" ] && echo "$n.h" ;;
			esac
		done
	}
	local objs1 objs2
	objs1=$(for n in $lib_tpm1; do case $n in *.*) ;; *) echo "$n.o" ;; esac; done | xargs)
	objs2=$(for n in $lib2; do echo "$n.o"; done | xargs)

	# 1: the TPM 1.2 message library, built next to the old code.
	emit lib/tk_hex.h security/keys/tk_hex.h
	# shellcheck disable=SC2086  # a list of names
	for f in $(lib_files $lib_tpm1); do emit "lib/$f" "$td/$f"; done
	# shellcheck disable=SC2016  # $(CONFIG_...) is make's, written as is
	printf '\n# The TPM message library (kernel-free builders and parsers).\ntrusted-$(CONFIG_TRUSTED_KEYS_TPM) += %s\n' \
		"$objs1" >>"$tree/$td/Makefile"
	commit 01-tpm1-lib

	# 2: the TPM 2.0 messages and the option parser.
	# shellcheck disable=SC2086  # a list of names
	for f in $(lib_files $lib2); do emit "lib/$f" "$td/$f"; done
	# header-only files of src/lib that no object names (as tk_buf.h)
	for f in "$top"/src/lib/*.h; do
		f=${f##*/}
		case $f in tk_hex.h|tk_enc_blob.h) continue ;; esac
		[ -e "$tree/$td/$f" ] || emit "lib/$f" "$td/$f"
	done
	# shellcheck disable=SC2016  # $(CONFIG_...) is make's, written as is
	printf 'trusted-$(CONFIG_TRUSTED_KEYS_TPM) += %s\n' "$objs2" >>"$tree/$td/Makefile"
	commit 02-tpm2-lib

	# 3: the trusted key type replaced; the other trust sources go.
	git -C "$tree" rm -q "$td/trusted_core.c" "$td/trusted_tpm1.c" "$td/trusted_tpm2.c" \
		"$td/tpm2key.asn1" include/keys/trusted_tpm.h
	for f in tee caam dcp pkwm; do
		[ -f "$tree/$td/trusted_$f.c" ] && git -C "$tree" rm -q "$td/trusted_$f.c"
		[ -f "$tree/include/keys/trusted_$f.h" ] && git -C "$tree" rm -q "include/keys/trusted_$f.h"
	done
	for f in "$top"/src/trusted/*.[ch]; do emit "trusted/${f##*/}" "$td/${f##*/}"; done
	local sel=
	[ -n "$has_have_trusted" ] && sel='\tselect HAVE_TRUSTED_KEYS'
	if [ -n "$has_have_trusted" ]; then
		printf 'config HAVE_TRUSTED_KEYS\n\tbool\n\n'
	else
		:
	fi >"$tmp/have"
	printf '%b\n' "$sel" | sed '/^$/d' >"$tmp/sel"
	subst "$here/trusted-keys.Kconfig" @HAVE_TRUSTED_KEYS_CONFIG@ "$tmp/have" |
		subst - @HAVE_TRUSTED_KEYS_SELECT@ "$tmp/sel" >"$tree/$td/Kconfig"
	# shellcheck disable=SC2086  # a list of objects
	wrap_objs trusted-y $tree_objs >"$tmp/objs"
	subst "$here/trusted-keys.Makefile" @OBJS@ "$tmp/objs" >"$tree/$td/Makefile"
	# TRUSTED_KEYS needs the TPM now that it is the only trust source.
	# (6.1, 6.12: "depends on KEYS" becomes "depends on KEYS && TCG_TPM";
	# 7.3's entry has no depends line, it is inside "if KEYS": one goes
	# after its prompt)
	awk '
		/^config TRUSTED_KEYS$/ { inblk = 1; print; next }
		inblk && /^\tdepends on KEYS$/ { print "\tdepends on KEYS && TCG_TPM"; inblk = 0; done = 1; next }
		inblk && /^\tdepends on / { inblk = 0 }
		inblk && /^\thelp$/ { print "\tdepends on TCG_TPM"; inblk = 0; done = 1 }
		/^config / { inblk = 0 }
		{ print }
		END { if (!done) exit 1 }
	' "$tree/security/keys/Kconfig" >"$tree/security/keys/Kconfig.new" ||
		die "$ver: security/keys/Kconfig: TRUSTED_KEYS: no 'depends on KEYS' nor help to put a depends before"
	mv "$tree/security/keys/Kconfig.new" "$tree/security/keys/Kconfig"
	# MAINTAINERS: the other sources' entries and the removed header.
	awk '
		/^KEYS-TRUSTED-(CAAM|DCP|PLPKS|TEE)$/ { skip = 1; n++; next }
		skip && /^$/ { skip = 0; next }
		skip { next }
		/^F:\tinclude\/keys\/trusted_tpm\.h$/ { n++; next }
		{ print }
		END { if (n < 3) exit 1 }
	' "$tree/MAINTAINERS" >"$tree/MAINTAINERS.new" ||
		die "$ver: MAINTAINERS: trusted entries not found"
	mv "$tree/MAINTAINERS.new" "$tree/MAINTAINERS"
	commit 03-trusted

	# 4: the encrypted key blob parser, built next to the old code.
	emit lib/tk_enc_blob.h "$ed/tk_enc_blob.h"
	emit lib/tk_enc_blob.c "$ed/tk_enc_blob.c"
	printf '\n# The parser of encrypted key text (kernel-free).\nencrypted-keys-y += tk_enc_blob.o\n' \
		>>"$tree/$ed/Makefile"
	commit 04-enc-blob

	# 5: the encrypted key type replaced.
	git -C "$tree" rm -q "$ed/encrypted.c" "$ed/encrypted.h" "$ed/ecryptfs_format.c" \
		"$ed/ecryptfs_format.h" "$ed/masterkey_trusted.c"
	for f in "$top"/src/encrypted/*.[ch]; do emit "encrypted/${f##*/}" "$ed/${f##*/}"; done
	# shellcheck disable=SC2086  # a list of objects
	wrap_objs encrypted-keys-y $enc_objs >"$tmp/objs"
	subst "$here/encrypted-keys.Makefile" @OBJS@ "$tmp/objs" >"$tree/$ed/Makefile"
	commit 05-encrypted

	# 6: the documentation of a TPM-only trusted key type.
	python3 "$here/doc-trusted.py" "$tree/Documentation/security/keys/trusted-encrypted.rst" \
		"$here/doc-tpm.rst" || die "$ver: trusted-encrypted.rst not rewritten"
	python3 "$here/doc-trusted.py" --params "$tree/Documentation/admin-guide/kernel-parameters.txt" \
		"$here/doc-params.txt" || die "$ver: kernel-parameters.txt not rewritten"
	commit 06-docs

	# The series.
	local dst=$out/$ver
	rm -rf "$dst"
	mkdir -p "$dst"
	git -C "$tree" format-patch -q --cover-letter --no-signature --thread=shallow \
		--subject-prefix="PATCH $ver" -o "$dst" base
	fill_cover "$dst/0000-cover-letter.patch" "$base"
	log "$ver: $(find "$dst" -mindepth 1 -maxdepth 1 | wc -l) files in ${dst#"$top"/}"
}

# The cover letter: subject and blurb from tools/series/cover-letter.txt.
fill_cover() {
	local f=$1 base=$2 subj
	subj=$(sed -n 1p "$here/cover-letter.txt")
	local tar pkg
	source_tar "$ver"
	python3 - "$f" "$here/cover-letter.txt" "$ver" "$pkg" "$subj" <<'EOF'
import sys
f, tmpl, ver, base, subj = sys.argv[1:]
body = open(tmpl).read().split('\n', 2)[2]
body = body.replace('@VER@', ver).replace('@BASE@', base)
s = open(f).read()
assert '*** SUBJECT HERE ***' in s and '*** BLURB HERE ***' in s
s = s.replace('*** SUBJECT HERE ***', subj).replace('*** BLURB HERE ***', body.rstrip('\n'))
open(f, 'w').write(s)
EOF
}

# Fixed dates: the same source gives the same series.
stamp=$(git -C "$top" log -1 --format=%cI 2>/dev/null || echo 2026-01-01T00:00:00Z)
export GIT_AUTHOR_DATE=$stamp GIT_COMMITTER_DATE=$stamp
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email

# --base VER: the base repository's path (check-series.sh).
if [ "${1:-}" = --base ]; then
	base_repo "$2"
	exit 0
fi

for v in "${versions[@]}"; do
	case $v in
	6.1|6.12|7.3) gen "$v" ;;
	*) die "unknown version $v (6.1, 6.12, 7.3)" ;;
	esac
done
