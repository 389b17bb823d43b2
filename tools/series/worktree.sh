# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by mkseries.sh, check-series.sh and check-debian.sh: the kernel
# trees they work in are git worktrees of one base repository (apt's
# linux-source-VER as unpacked, commit "base"; mkseries.sh --base VER).

# series_worktree BASE DIR: DIR as a detached worktree of BASE reset to the
# base commit (made once, then reused): an unfinished git am is abandoned,
# every change and untracked file (ignored ones too) is dropped.
series_worktree() {
	local base=$1 dir=$2
	if [ ! -e "$dir/.git" ]; then
		rm -rf "$dir"
		git -C "$base" worktree prune
		git -C "$base" worktree add -q --detach "$dir" base
	fi
	git -C "$dir" am --abort >/dev/null 2>&1 || true
	git -C "$dir" checkout -q -f --detach base
	git -C "$dir" clean -q -fdx
}

# series_patches DIR: the series' patches in DIR, in order, cover letter left
# out; one path a line.
series_patches() {
	local p
	for p in "$1"/0*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		[ -f "$p" ] && echo "$p"
	done
}
