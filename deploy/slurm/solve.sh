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
n=$2
if ! [[ $n =~ ^[1-9][0-9]*$ ]] || ((${#n} > 5 || n > 16384)); then
	echo "$0: bad N '$n': want the number of tasks, 1 to 16384" >&2
	exit 2
fi
# The input, Slurm and its controller first, before anything is made
# (issue 67: a missing input was said last, after an empty job id, and a
# results directory was left in $HOME).
if [[ ! -f $1 || ! -r $1 ]]; then
	echo "$0: $1: no such file to read: the puzzles, one a line (solve --print-only writes them)" >&2
	exit 2
fi
file=$(realpath -- "$1")
shift 2
for cmd in sbatch squeue scontrol; do
	command -v "$cmd" >/dev/null || { echo "$0: no $cmd: is Slurm installed here?" >&2; exit 1; }
done
if ! scontrol ping 2>/dev/null | grep -q 'is UP'; then
	echo "$0: Slurm's controller does not answer (scontrol ping): is slurmctld running?" >&2
	exit 1
fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=deploy/rounds.sh
source "$repo/deploy/rounds.sh"
need_jq || exit 1 # before anything is made
solve=${FIFTEEN_SOLVE:-$repo/bin/solve}
if [[ -z ${FIFTEEN_SOLVE:-} && ! -x $solve ]]; then
	(cd "$repo" && go build -o "$solve" ./cmd/solve)
fi
made=''
if [[ -z ${FIFTEEN_RESULTS:-} ]]; then
	made=$(mktemp -d "$HOME/fifteen-results.XXXXXX")
fi
results=${FIFTEEN_RESULTS:-$made}
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
# A first round that cannot be submitted removes the results directory it
# made, which holds nothing yet.
round() {
	# shellcheck disable=SC2086 # FIFTEEN_SBATCH is words of options
	job=$(sbatch --parsable --array="0-$((n - 1))" --job-name=fifteen --cpus-per-task="$cpus" \
		--requeue --output="$results/slurm-%A_%a.out" ${FIFTEEN_SBATCH:-} "$task") || job=''
	job=${job%%;*}
	if ! [[ $job =~ ^[0-9]+$ ]]; then
		echo "solve.sh: round $1: sbatch gave no job id${job:+ ($job)}: see its message above" >&2
		if [[ $1 == 1 && -n $made ]]; then
			rm -r -- "$made"
		fi
		exit 1
	fi
	echo "solve.sh: round $1: job array $job of $n tasks" >&2
	while [[ -n $(squeue --noheader --jobs="$job" --format=%i 2>/dev/null) ]]; do
		sleep "${FIFTEEN_POLL:-1}"
	done
}

run_job "$results" "$solve" "$file" round "$@"
