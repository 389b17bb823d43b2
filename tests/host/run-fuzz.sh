#!/bin/bash
# Run each libFuzzer binary for a bounded time over its seed corpus
# tests/fuzz/corpus/<name>/ (read-only); new inputs and crash artifacts go
# to build/. FUZZ_JOBS targets at a time (default: nproc); their lines are
# printed in the order given. Usage: run-fuzz.sh SECONDS MAX_RUNS BINARY...
set -uo pipefail
secs=$1 runs=$2
shift 2
seeds=../fuzz/corpus
jobs_max=${FUZZ_JOBS:-$(nproc)}
mkdir -p build/artifacts

# run_one BINARY NAME: one fuzz run; its exit status in build/fuzz-NAME.rc.
run_one() {
	local f=$1 name=$2 work=build/corpus/$2 rc=0 dirs=()
	mkdir -p "$work"
	dirs=("$work")
	[ -d "$seeds/$name" ] && dirs+=("$seeds/$name")
	"$f" -max_total_time="$secs" -runs="$runs" -max_len=4096 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="build/artifacts/$name-" \
		"${dirs[@]}" \
		>"build/fuzz-$name.log" 2>&1 || rc=$?
	echo "$rc" >"build/fuzz-$name.rc"
}

names=()
for f in "$@"; do
	name=$(basename "$f")
	name=${name#fuzz_}
	names+=("$name")
	[ -d "$seeds/$name" ] || echo "fuzz: $name has no seed corpus in $seeds/$name" >&2
	echo "fuzz: $name for ${secs}s (at most $runs runs)"
	rm -f "build/fuzz-$name.rc"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	run_one "$f" "$name" &
done
wait

bad=()
for name in "${names[@]}"; do
	if [ "$(cat "build/fuzz-$name.rc" 2>/dev/null)" != 0 ]; then
		tail -n 40 "build/fuzz-$name.log"
		bad+=("$name")
	else
		grep -aE '^stat::(number_of_executed_units|new_units_added)' \
			"build/fuzz-$name.log" | sed "s/^/fuzz: $name /"
	fi
done
if [ ${#bad[@]} -gt 0 ]; then
	echo "fuzz: FAILED: ${bad[*]} (artifacts in tests/host/build/artifacts/)"
	exit 1
fi
echo "fuzz: $# targets, no crash"
