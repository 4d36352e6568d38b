#!/bin/bash
# Usage: deploy/slurm/solve.sh FILE N [solve flags]
#
# Solves the puzzles of FILE on a Slurm cluster as N-task job arrays, and
# prints what `solve --format jsonl FILE [solve flags]` would print (with
# --format text, the text). One puzzle's search is split among the tasks;
# a batch is shared out, every N-th puzzle a task (solve --split says
# otherwise). Each round is an array of N tasks; between rounds the merge
# (solve --merge) joins what the tasks wrote and plans the next, until it
# prints the results (deploy/rounds.sh, which reads the merge's
# status.json). A task that fails or is killed runs again in the next
# round, from its checkpoint.
#
# The results directory and the databases must be on a file system every
# node shares. Build the databases once, before (docs/cluster.md):
#   go run ./cmd/pdbgen [--size 5x5] --pdb-dir SHARED/pdb
# and pass --pdb-dir SHARED/pdb among the solve flags.
#
# Environment:
#   FIFTEEN_SOLVE    the solve binary every node runs (default: bin/solve
#                    beside this repository, built if missing)
#   FIFTEEN_RESULTS  the results directory (default: a new directory
#                    fifteen-results.XXXXXX in your home directory, which
#                    clusters share among their nodes); reusing one resumes
#                    its job
#   FIFTEEN_CPUS     CPUs per task (default 1): the task's search threads
#   FIFTEEN_SBATCH   more sbatch options, such as "--partition=long --time=2:00:00"
#   FIFTEEN_POLL     seconds between looks at the queue (default 1)
#   FIFTEEN_TRIES    rounds in a row without progress before giving up (default 3)
set -euo pipefail

if (($# < 2)); then
	echo "usage: $0 FILE N [solve flags]" >&2
	exit 2
fi
file=$(realpath -- "$1")
n=$2
shift 2
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
	echo "$0: N must be a number of tasks, not $n" >&2
	exit 2
fi
for cmd in sbatch squeue; do
	command -v "$cmd" >/dev/null || { echo "$0: no $cmd: is Slurm installed here?" >&2; exit 1; }
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=deploy/rounds.sh
source "$repo/deploy/rounds.sh"
need_jq || exit 1 # before anything is made
solve=${FIFTEEN_SOLVE:-$repo/bin/solve}
if [[ -z ${FIFTEEN_SOLVE:-} && ! -x $solve ]]; then
	(cd "$repo" && go build -o "$solve" ./cmd/solve)
fi
results=${FIFTEEN_RESULTS:-$(mktemp -d "$HOME/fifteen-results.XXXXXX")}
mkdir -p "$results"
results=$(realpath -- "$results")
cpus=${FIFTEEN_CPUS:-1}

# The task's command, in a script of its own: no quoting through --wrap.
task=$results/task.sh
{
	echo '#!/bin/bash'
	echo "export GOMAXPROCS=\${SLURM_CPUS_PER_TASK:-$cpus}"
	printf 'exec'
	printf ' %q' "$solve" --results "$results" "$@" "$file"
	echo
} >"$task"
chmod +x "$task"

# Ctrl-C cancels the round under way: its tasks save their checkpoints
# (Slurm sends them SIGTERM), and the same command goes on later.
job=''
stopped() {
	[[ -z $job ]] || scancel "$job"
	echo "solve.sh: stopped; to go on, run it again with FIFTEEN_RESULTS=$results" >&2
	exit 130
}
trap stopped INT TERM


# round K submits the round's array and waits until its tasks have ended.
round() {
	# shellcheck disable=SC2086 # FIFTEEN_SBATCH is words of options
	job=$(sbatch --parsable --array="0-$((n - 1))" --job-name=fifteen --cpus-per-task="$cpus" \
		--requeue --output="$results/slurm-%A_%a.out" ${FIFTEEN_SBATCH:-} "$task")
	job=${job%%;*}
	echo "solve.sh: round $1: job array $job of $n tasks" >&2
	while [[ -n $(squeue --noheader --jobs="$job" --format=%i 2>/dev/null) ]]; do
		sleep "${FIFTEEN_POLL:-1}"
	done
}

run_job "$results" "$solve" "$file" round "$@"
