#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# trusted-keys-unlock takes nothing of its files blindly (issue 23, item
# 7), phase 1: a blob file must be one line of hex digits (an option
# appended to it, "sessions=0" or "logon=...", a second line, non-hex, an
# odd count: refused before the kernel sees anything); config words are
# checked (bad name, cipher, key length, offset, an option that is not
# NAME=VALUE of safe characters, logon=); globbing is off; a blobauth=
# secret of the config reaches the kernel on stdin, never on any process's
# command line.
# shellcheck disable=SC2016  # code for eval and sh -c is single-quoted: it expands when run
here=${0%/*}
. "${TKH_LIB:-$here/../lib.sh}"
. "$here/../lib/disk.sh"

t_require phase 1
# The tool's own checks: one kernel shows them (the stock kernels' rows run
# the tool through 30-unlock).
t_require kernel test "user-space input checks, the same on every kernel"
t_disk_begin ours
O=$(t_disk_opts)
D=/tmp/dk35
mkdir -p $D
cd $D || t_bail "cd $D"
t_dm_remove dk35

# A 20-byte blobauth: the secret that must not show on any command line.
SECRET=5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2
keyctl add trusted dk35 "new 32 $O blobauth=$SECRET" @u >/dev/null ||
	t_bail "new 32 blobauth=..."
keyctl pipe "$(t_disk_id trusted dk35)" >$D/good.blob
keyctl revoke "$(t_disk_id trusted dk35)"

# conf NAME BLOB [WORDS...]: a config of one volume (MiB 12-15 of the disk,
# only mapped, never written); WORDS replace the options.
conf() {
	_n=$1 _b=$2
	shift 2
	if [ $# -eq 0 ]; then
		set -- "$O" blobauth=$SECRET
	fi
	t_disk_volume "$_n" "$_b" "$@" >$D/volumes
}

# refused NAME PATTERN: the unlock of $D/volumes exits 1 with one line
# matching PATTERN, nothing mapped, no key left in our session, nothing
# logged by the trusted module (the kernel never saw the command).
refused() {
	echo "dk35 mark $1" >/dev/kmsg
	if sh $T_DISK_UNLOCK -c $D/volumes >$D/out 2>$D/err; then
		echo "exit 0" >&2
		return 1
	fi
	sed 's/^/message: /' $D/err >&2
	[ "$(wc -l <$D/err)" -eq 1 ] || { echo "not one line" >&2; return 1; }
	grep -Eq "^trusted-keys: .*($2)" $D/err || return 1
	! dmsetup info "$1" >/dev/null 2>&1 || { echo "$1 is mapped" >&2; return 1; }
	! t_disk_id trusted "trusted-keys:$1" >/dev/null || { echo "a trusted key is left" >&2; return 1; }
	! dmesg | sed -n "/dk35 mark $1\$/,\$p" | grep ' trusted: ' >&2 ||
		{ echo "the kernel saw a command" >&2; return 1; }
}

# opens BLOB: the unlock of a config naming BLOB maps dk35.
opens() {
	conf dk35 "$1"
	sh $T_DISK_UNLOCK -c $D/volumes && dmsetup info dk35 >/dev/null || return 1
	t_dm_remove dk35
}
t_check "the good blob opens with the config's blobauth=" opens $D/good.blob

hex=$(cat $D/good.blob)
# bad_blob FORMAT: a blob file printf FORMAT "$hex" is refused.
bad_blob() {
	# shellcheck disable=SC2059  # the format is the test
	printf "$1" "$hex" >$D/bad.blob
	conf dk35 $D/bad.blob
	refused dk35 "not one line of hex digits"
}
t_check "a blob file with ' sessions=0' after the hex: refused" bad_blob '%s sessions=0\n'
t_check "a blob file with ' logon=x:y' after the hex: refused" bad_blob '%s logon=x:y\n'
t_check "a blob file of two lines: refused" bad_blob '%s\nkeyhandle=0x81000001\n'
t_check "a blob file with a non-hex digit: refused" bad_blob '%sg\n'
t_check "a blob file with an odd number of digits: refused" bad_blob '%s0\n'
printf '%s' "$hex" >$D/nonl.blob
t_check "a blob file of the hex without a newline opens" opens $D/nonl.blob

bad_conf() {
	conf "$@"
	refused "$1" "bad|not allowed"
}
touch $D/keyhandle=0x81000001
globbed() {
	bad_conf dk35 $D/good.blob 'keyhandle=0x8100000*' || return 1
	grep -qF "'keyhandle=0x8100000*'" $D/err
}
t_check "config: an option with a glob character: refused, not expanded" globbed
t_check "config: logon= among the options: refused" \
	bad_conf dk35 $D/good.blob "$O" blobauth=$SECRET logon=tk:mine
t_check "config: an option that is not NAME=VALUE: refused" \
	bad_conf dk35 $D/good.blob "$O" sessions
t_check "config: an option with a '\$(...)' value: refused" \
	bad_conf dk35 $D/good.blob "$O" 'blobauth=$(reboot)'
t_check "config: a volume name with '/': refused" bad_conf x/y $D/good.blob
t_check "config: a cipher with a '\$': refused" sh -c "
	echo 'dk35 /dev/vda $D/good.blob aes\$x 32' >$D/volumes
	sh $T_DISK_UNLOCK -c $D/volumes 2>&1 | grep -q 'bad cipher'"
t_check "config: a key length of 0 or with letters: refused" sh -c "
	echo 'dk35 /dev/vda $D/good.blob aes-cbc-plain64 32x' >$D/volumes
	sh $T_DISK_UNLOCK -c $D/volumes 2>&1 | grep -q 'bad key length' &&
	echo 'dk35 /dev/vda $D/good.blob aes-cbc-plain64 0' >$D/volumes
	sh $T_DISK_UNLOCK -c $D/volumes 2>&1 | grep -q 'bad key length'"

asuser() {
	command -v tklocal >/dev/null || { echo "no tklocal" >&2; return 1; }
	conf dk35 $D/good.blob
	chmod 0644 $D/volumes
	! tklocal -u 65534 run sh $T_DISK_UNLOCK -c $D/volumes 2>$D/err || return 1
	cat $D/err >&2
	[ "$(cat $D/err)" = "trusted-keys: needs root (logon= needs CAP_SYS_ADMIN): no volume unlocked" ]
}
t_check "run by uid 65534: 'needs root', exit 1" asuser

# No command line carries the secret: every process's argv is scanned
# while the unlock runs; the scanner must see a marker on a command line
# of its own, and the unlock's child (whose command line carried the
# options before) during a run.
# (busybox grep -o prints one match a line: one grep a pattern, each from a
# file, since on grep's command line the scanner would see the secret)
scan() {
	: >$D/seen
	while [ ! -f $D/stop ]; do
		cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' ' ' >$D/pass
		grep -qf $D/p.secret $D/pass && echo secret >>$D/seen
		grep -qf $D/p.marker $D/pass && echo marker >>$D/seen
		grep -qf $D/p.child $D/pass && echo child >>$D/seen
	done
}
argv() {
	rm -f $D/stop
	echo "$SECRET" >$D/p.secret
	echo m4rk3r >$D/p.marker
	echo 'trusted-keys-unlock --one' >$D/p.child
	scan &
	_s=$!
	sh -c 'sleep 3; :' m4rk3r
	conf dk35 $D/good.blob
	# until the scanner has caught the child that opens the volume (its
	# command line held the options before), 20 runs at most
	_i=0 _rc=0
	while [ $_i -lt 20 ] && ! grep -qx child $D/seen; do
		sh $T_DISK_UNLOCK -c $D/volumes || _rc=1
		t_dm_remove dk35
		_i=$((_i + 1))
	done
	touch $D/stop
	wait $_s
	[ $_rc -eq 0 ] || { echo "the unlock failed" >&2; return 1; }
	grep -qx marker $D/seen || { echo "the scanner saw nothing" >&2; return 1; }
	! grep -qx secret $D/seen || { echo "the secret was on a command line" >&2; return 1; }
	grep -qx child $D/seen || return 2
	echo "caught the unlock's child in run $_i"
}
_d="the blobauth= of the config is on no process's command line during the unlock"
argv >$D/argv.out 2>&1
case $? in
0) t_ok "$_d"; sed 's/^/# /' $D/argv.out ;;
2) t_skip "$_d" "the scanner never caught the unlock's child in 20 runs (too fast here)" ;;
*) t_fail "$_d" "$(cat $D/argv.out)" ;;
esac

# The initramfs-tools hook, as shipped, with initramfs-tools' copy_file (cp
# -pP, as hook-functions does; the rest stubbed): the copies of a 0644
# config and blob are 0600 in 0700 directories, and it warns unless
# mkinitramfs runs with UMASK=0077.
hook_modes() {
	mkdir -p /usr/share/initramfs-tools /etc/trusted-keys || return 1
	cat >/usr/share/initramfs-tools/hook-functions <<'EOS'
copy_exec() { :; }
manual_add_modules() { :; }
copy_file() {
	mkdir -p "${DESTDIR}/${3%/*}" && cp -pP "$2" "${DESTDIR}/$3"
}
EOS
	cp $D/good.blob /etc/trusted-keys/dk35.blob
	echo "dk35 /dev/vda /etc/trusted-keys/dk35.blob $T_DISK_CIPHER 32" >/etc/trusted-keys/volumes
	chmod 0644 /etc/trusted-keys/dk35.blob /etc/trusted-keys/volumes
	chmod 0755 /etc/trusted-keys
	rm -rf $D/r1 $D/r2
	# the target kernel, as update-initramfs names it: its crypto built in
	mkdir -p /boot || return 1
	printf 'CONFIG_CRYPTO_%s=y\n' ECDH ECC DRBG JITTERENTROPY SHA3 CTR AES \
		HMAC SHA1 SHA256 SHA512 RSA >/boot/config-dk35 || return 1
	export version=dk35
	(umask 022 && DESTDIR=$D/r1 sh /initramfs/hooks/trusted-keys) 2>$D/hook.err || return 1
	for f in etc/trusted-keys/volumes:600 etc/trusted-keys/dk35.blob:600 etc/trusted-keys:700; do
		_m=$(stat -c %a "$D/r1/${f%:*}") || return 1
		[ "$_m" = "${f#*:}" ] || { echo "${f%:*}: mode $_m" >&2; return 1; }
	done
	grep -q 'W: trusted-keys: .*UMASK=0077' $D/hook.err || { cat $D/hook.err >&2; return 1; }
	(umask 077 && DESTDIR=$D/r2 sh /initramfs/hooks/trusted-keys) 2>$D/hook.err || return 1
	[ ! -s $D/hook.err ] || { cat $D/hook.err >&2; return 1; }
	[ -f $D/r2/etc/trusted-keys/dk35.blob ]
}
t_check "the hook copies config and blobs 0600 (directory 0700), warns without UMASK=0077" hook_modes
rm -rf /etc/trusted-keys /usr/share/initramfs-tools /boot/config-dk35
unset version
t_dm_remove dk35
