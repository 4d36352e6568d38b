#!/bin/bash
# Usage: deploy/local/solve.sh FILE N [solve flags]
#
# Runs a split job as deploy/slurm/solve.sh does, on this machine: each
# round's N tasks (solve --results DIR --task K/N), FIFTEEN_JOBS at a time
# (default 2) in task order, as a job array on a few cores runs them, then
# the merge. It prints what `solve --format jsonl FILE [solve flags]` would
# (with --format text, the text). It is how the split is measured and
# tried without a cluster (docs/cluster.md).
#
# Environment: FIFTEEN_SOLVE (the solve binary, default bin/solve, built if
# missing), FIFTEEN_RESULTS (the results directory, default a new one in
# /tmp), FIFTEEN_JOBS.
set -euo pipefail

if (($# < 2)); then
	echo "usage: $0 FILE N [solve flags]" >&2
	exit 2
fi
file=$1 n=$2
shift 2
if ! [[ $n =~ ^[1-9][0-9]*$ ]] || ((${#n} > 5 || n > 16384)); then
	echo "$0: bad N '$n': want the number of tasks, 1 to 16384" >&2
	exit 2
fi
if [[ ! -f $file || ! -r $file ]]; then
	echo "$0: $file: no such file to read: the puzzles, one a line (solve --print-only writes them)" >&2
	exit 2
fi
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=deploy/rounds.sh
source "$repo/deploy/rounds.sh"
need_jq || exit 1 # before anything is made
solve=${FIFTEEN_SOLVE:-$repo/bin/solve}
if [[ -z ${FIFTEEN_SOLVE:-} && ! -x $solve ]]; then
	(cd "$repo" && go build -o "$solve" ./cmd/solve)
fi
results=${FIFTEEN_RESULTS:-$(mktemp -d /tmp/fifteen-results.XXXXXX)}
mkdir -p "$results"
export GOMAXPROCS=${GOMAXPROCS:-1}
flags=("$@")

# round runs the round's N tasks, FIFTEEN_JOBS at a time, in task order.
# xargs appends each task's number as the last argument: the values go
# as arguments, never into a command line (issue 57: a {} in a flag or a
# path became the task's number).
round() {
	seq 0 $((n - 1)) | xargs -P "${FIFTEEN_JOBS:-2}" -n 1 bash -c '
		k=${!#} results=$1 n=$2 solve=$3 file=$4
		"$solve" --results "$results" --task "$k/$n" "${@:5:$#-5}" "$file" 2>>"$results/task-$k.err" || true
	' task "$results" "$n" "$solve" "$file" "${flags[@]}"
}

run_job "$results" "$solve" "$file" round "$@"
