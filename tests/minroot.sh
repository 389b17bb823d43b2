#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make minroot: make check's stages that boot nothing, run where nothing but
# Debian 12 and what tests/deps.sh installs is there: a minimal root
# (mmdebstrap --variant=minbase bookworm), chrooted. It catches what the
# developers' machines have by chance and a fresh machine does not (a
# package deps.sh does not install, a file read from /usr/share or /etc, a
# tool found on PATH by chance). Root only (mmdebstrap, chroot, mounts).
#
#   1. the base: the minimal root, kept in $TKH_CACHE/minroot/base-KEY (KEY:
#      mmdebstrap's version, the suites, make_base below);
#   2. a clean clone of the commit under test (TKH_MINROOT_REV, default
#      HEAD; git clone of the repository, never the work tree: uncommitted
#      changes are not tested), at /root/tek in the root;
#   3. deps: a copy of the base where the clone's tests/deps.sh runs in a
#      chroot and must install everything, kept as root-KEY (KEY: the base's
#      and the hash of deps.sh: a warm run makes nothing unless deps.sh
#      changed);
#   4. make check with TKH_STAGES=deps,host,fuzz,lint,docs in the chroot,
#      on an overlay of root-KEY (thrown away after the run): a point for
#      each stage. lint's kernel tree is the test kernel of the host's cache
#      (tests/qemu/build-kernel.sh on the host: it waits for a build under
#      way, and builds it when there is none), bind-mounted read-only at its
#      own path and given to lint as KDIR: no kernel build in the chroot;
#   5. make deb in the chroot (dpkg-buildpackage, then lintian).
# ccache's directory in the chroot is $TKH_CACHE/minroot/ccache (bind-mounted).
# /proc, /sys, /dev and /dev/pts are mounted for the run and unmounted on
# every way out.
# Output: a KTAP document; exit 0 only when nothing failed. Logs (each
# stage's, the chroot's run directory) in build/run-<timestamp>/minroot/.
set -euo pipefail
# shellcheck source=qemu/common.sh
. "$(dirname "$0")/qemu/common.sh"
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot, mounts): sudo make minroot"
need mmdebstrap git chroot mount umount mountpoint flock

STAGES=${TKH_MINROOT_STAGES:-deps,host,fuzz,lint,docs}
PLAN=$((4 + $(echo "$STAGES" | tr , '\n' | grep -c .)))
mirror=${TKH_REALSYS_MIRROR:-http://deb.debian.org/debian}
secmirror=${TKH_REALSYS_SECURITY:-http://deb.debian.org/debian-security}
sources=("deb $mirror bookworm main" "deb $mirror bookworm-updates main"
	"deb $secmirror bookworm-security main")

run=$(t_rundir)/minroot
mkdir -p "$run"
dir=$TKH_CACHE/minroot
mkdir -p "$dir/ccache"
exec 8>"$dir/.lock"	# one run at a time: roots are made, used and pruned under it
flock 8

mnt=$dir/run-$$		# the overlay: upper, work, and the merged root
root=$mnt/root
mounts=()
# shellcheck disable=SC2317  # invoked by the trap
unmount_all() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
	done
	mounts=()
}
# The processes still in the run's root or the root being made (stopped by
# a signal: what make check or deps.sh started there), ended before the
# mounts are undone.
# shellcheck disable=SC2317  # invoked by the trap
in_root_pids() {
	local p
	for p in /proc/[0-9]*; do
		case $(readlink "$p/root" 2>/dev/null) in
		"$root" | "${rootdir:-/nonexistent}.tmp") echo "${p#/proc/}" ;;
		esac
	done
}
# shellcheck disable=SC2317  # invoked by the trap
kill_in_root() {
	local i pids
	for i in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(in_root_pids)
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086  # one pid a word
		if [ $i -lt 3 ]; then kill $pids; else kill -KILL $pids; fi 2>/dev/null || true
		sleep 1
	done
}
# shellcheck disable=SC2317  # invoked by the trap
at_exit() {
	kill_in_root
	unmount_all
	# (--one-file-system: never into a mount left behind)
	if [ -d "$mnt" ] && ! mountpoint -q "$root"; then rm -rf --one-file-system "$mnt"; fi
	rm -rf --one-file-system "$dir"/root-*.tmp
}
trap at_exit EXIT
# (fd 7: the KTAP document's; a signal's trap runs with the redirections of
# the command it interrupted)
exec 7>&1
trap '{ echo "# minroot: stopped by a signal"; t_fail_rest "$PLAN"; } >&7; exit 130' INT TERM
# chroot_mounts ROOT: what apt, the compilers and the sanitizers need.
chroot_mounts() {
	mount -t proc proc "$1/proc" && mounts+=("$1/proc")
	mount -t sysfs sysfs "$1/sys" && mounts+=("$1/sys")
	mount --bind /dev "$1/dev" && mounts+=("$1/dev")
	mount --bind /dev/pts "$1/dev/pts" && mounts+=("$1/dev/pts")
}
# in_root ROOT CMD...: CMD in the chroot, with a login's environment and
# nothing of this one's.
in_root() {
	chroot "$1" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb "${@:2}"
}
# in_root_wait ROOT CMD...: in_root in the background, waited for: a
# signal's trap runs at once (a foreground command would defer it), and
# ends what runs in the root.
in_root_wait() {
	in_root "$@" &
	wait $!
}
finish() {
	t_fail_rest "$PLAN"
	echo "# minroot: $(elapsed "$t0") s; logs: $run"
	[ "$t_nfail" -eq 0 ]
	exit
}

echo "KTAP version 1"
echo "1..$PLAN"
t0=$(now)

# --- 1. the base ----------------------------------------------------------------
make_base() {
	mmdebstrap --quiet --variant=minbase --format=directory bookworm "$1" "${sources[@]}"
}
bkey=$( { printf '%s\n' "${sources[@]}"; mmdebstrap --version; declare -f make_base; } |
	sha256sum | cut -c1-16)
base=$dir/base-$bkey
tb=$(now)
if [ -f "$base/.done" ]; then
	t_ok "minimal Debian 12 root: base-$bkey (cached)"
else
	rm -rf --one-file-system "$dir"/base-*
	if make_base "$base.tmp" >"$run/base.log" 2>&1; then
		touch "$base.tmp/.done"
		mv "$base.tmp" "$base"
		t_ok "minimal Debian 12 root: mmdebstrap --variant=minbase bookworm ($(elapsed "$tb") s)"
	else
		rm -rf --one-file-system "$base.tmp"
		t_fail "minimal Debian 12 root: mmdebstrap --variant=minbase bookworm" "$(tail -n 20 "$run/base.log")"
		finish
	fi
fi

# --- 2. the commit under test ---------------------------------------------------
rev=${TKH_MINROOT_REV:-HEAD}
if ! commit=$(git -C "$TKH_TOP" rev-parse --verify -q "$rev^{commit}"); then
	t_fail "the commit under test: no commit $rev in $TKH_TOP"
	finish
fi
[ "$rev" != HEAD ] || [ -z "$(git -C "$TKH_TOP" status --porcelain -uno 2>/dev/null)" ] ||
	echo "# the work tree has uncommitted changes: they are not tested (a clone of $commit)"
if ! deps_sh=$(git -C "$TKH_TOP" show "$commit:tests/deps.sh"); then
	t_fail "the commit under test: $commit has no tests/deps.sh"
	finish
fi

# --- 3. deps.sh in the base: the root ------------------------------------------
# policy-rc.d: no service a package brings starts in the chroot.
make_root() { # DIR
	cp -a "$base" "$1"
	rm -f "$1/.done"
	chroot_mounts "$1"
	printf '%s\n' "$deps_sh" >"$1/tmp/deps.sh"
	printf '#!/bin/sh\nexit 101\n' >"$1/usr/sbin/policy-rc.d"
	chmod 0755 "$1/tmp/deps.sh" "$1/usr/sbin/policy-rc.d"
	in_root_wait "$1" /tmp/deps.sh && in_root_wait "$1" apt-get clean
	local rc=$?
	unmount_all
	rm -f "$1/tmp/deps.sh" "$1/usr/sbin/policy-rc.d"
	return $rc
}
rkey=$( { echo "$bkey"; printf '%s\n' "$deps_sh"; declare -f make_root; } | sha256sum | cut -c1-16)
rootdir=$dir/root-$rkey
tb=$(now)
if [ -f "$rootdir/.done" ]; then
	t_ok "tests/deps.sh in the minimal root: root-$rkey (cached: $(cat "$rootdir/.done"))"
elif make_root "$rootdir.tmp" >"$run/deps.log" 2>&1; then
	npkg=$(chroot "$rootdir.tmp" dpkg-query -W -f="\${Status}\n" | grep -c 'ok installed')
	echo "$npkg packages, deps.sh installed them in $(elapsed "$tb") s, $(date -u +%F)" >"$rootdir.tmp/.done"
	mv "$rootdir.tmp" "$rootdir"
	t_ok "tests/deps.sh in the minimal root: root-$rkey ($(cat "$rootdir/.done"))"
	# Older roots go (1.4 GB each), but the one made before this one.
	find "$dir" -maxdepth 1 -name 'root-*' ! -name "root-$rkey" -printf '%T@ %p\n' |
		sort -rn | tail -n +2 | cut -d' ' -f2- | while read -r old; do
			rm -rf --one-file-system "$old"
		done
else
	t_fail "tests/deps.sh in the minimal root" "$(tail -n 20 "$run/deps.log")"
	finish
fi
touch "$rootdir"

# --- the run's root: an overlay of that one, the clone, the mounts ---------
mkdir -p "$mnt/upper" "$mnt/work" "$root"
if mount -t overlay overlay -o "lowerdir=$rootdir,upperdir=$mnt/upper,workdir=$mnt/work" "$root"; then
	mounts+=("$root")
else
	t_fail "an overlay of root-$rkey"
	finish
fi
chroot_mounts "$root"
tb=$(now)
if git clone -q --no-checkout "$TKH_TOP" "$root/root/tek" >"$run/clone.log" 2>&1 &&
	git -C "$root/root/tek" checkout -q --detach "$commit" >>"$run/clone.log" 2>&1; then
	t_ok "a clean clone of $(git -C "$TKH_TOP" log -1 --format='%h (%s)' "$commit") at /root/tek"
else
	t_fail "a clean clone of $commit" "$(cat "$run/clone.log")"
	finish
fi

# lint's kernel tree: the host's, read-only at its own path.
kdir=/nonexistent
case ",$STAGES," in
*,lint,*)
	if ! kdir=$(cd "$root/root/tek" && tests/qemu/build-kernel.sh 2>"$run/kernel.log"); then
		echo "# the test kernel (tests/qemu/build-kernel.sh on the host) failed: lint will fail"
		tail -n 10 "$run/kernel.log" | sed 's/^/# /'
		kdir=/nonexistent
	fi ;;
esac
ccache=/root/.cache/tek/ccache
mkdir -p "$root$ccache"
mount --bind "$dir/ccache" "$root$ccache" && mounts+=("$root$ccache")
if [ -d "$kdir" ]; then
	mkdir -p "$root$kdir"
	mount --bind "$kdir" "$root$kdir" && mount -o remount,bind,ro "$root$kdir" && mounts+=("$root$kdir")
fi

# --- 4. make check's stages that boot nothing -----------------------------------
tb=$(now)
rc=0
in_root_wait "$root" TKH_STAGES="$STAGES" KDIR="$kdir" TKH_RUN=/root/tek/build/run-minroot \
	make --no-print-directory -C /root/tek check >"$run/check.log" 2>&1 || rc=$?
crun=$root/root/tek/build/run-minroot
cp -a "$crun" "$run/check" 2>/dev/null || true
echo "# make check (TKH_STAGES=$STAGES): exit $rc in $(elapsed "$tb") s"
sed -n '/^Stage /,$p' "$run/check.log" | sed 's/^/# /'
# A point a stage, from the summary table ("NAME TIME CPU RESULT").
for s in ${STAGES//,/ }; do
	line=$(awk -v s="$s" '$1 == s && /^[a-z]+ +[0-9.-]+s? +[0-9.-]+s? +/ { l = $0 } END { print l }' "$run/check.log")
	res=$(echo "$line" | awk '{ print $4 }')
	t=$(echo "$line" | awk '{ print $2 }')
	log=$crun/check-$s.log
	# (make check runs deps.sh before check.sh does: both in check.log)
	if [ "$s" = deps ] && grep -q '^deps: installing' "$run/check.log"; then
		t_fail "stage deps: tests/deps.sh installed more in its second run" \
			"$(grep '^deps: installing' "$run/check.log")"
	elif [ "$res" = ok ]; then
		t_ok "stage $s ($t)"
	elif [ -z "$line" ]; then
		t_fail "stage $s: did not run" "$(tail -n 20 "$run/check.log")"
	else
		# lint's and the compilers' own finding lines, else the log's end
		t_fail "stage $s: $res ($t)" "$( { grep -E '^(new|gone)|: (error|warning):|^not ok|FAIL' "$log" ||
			tail -n 20 "$log"; } | head -n 30)"
	fi
done

# --- 5. the package ------------------------------------------------------------------
tb=$(now)
if in_root_wait "$root" make --no-print-directory -C /root/tek deb >"$run/deb.log" 2>&1; then
	t_ok "make deb: $(grep '^/.*\.deb$' "$run/deb.log" | tail -n 2 | xargs -n1 basename | tr '\n' ' ')lintian clean ($(elapsed "$tb") s)"
else
	t_fail "make deb ($(elapsed "$tb") s)" "$(tail -n 20 "$run/deb.log")"
fi
finish
