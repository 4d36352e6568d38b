# The round loop of the split-job drivers (deploy/slurm/solve.sh,
# deploy/local/solve.sh), sourced by them: each round runs the N tasks of
# the job, then the merge, which leaves its verdict in the results
# directory's status.json (package cluster): done, again, or failed.
#
# run_job RESULTS SOLVE FILE RUN [solve flags] runs the rounds of the job of
# FILE with SOLVE's merge (JSON lines unless the flags say otherwise), then
# prints the merge's summary on standard error and its results on standard
# output, and exits with the rounds' status.
#
# rounds RESULTS RUN MERGE calls "RUN ROUND" (the round's tasks, which
# must return once they have all ended) and then MERGE (solve --merge,
# with the results on its standard output), until status.json says the
# job is done, and returns the merge's exit status: 0, or 1 if a puzzle
# failed. It returns 1 when the status says the job failed (why is on
# standard error), and when FIFTEEN_TRIES (default 3) rounds in a row add
# no work to what the tasks have done (status.json's work: puzzles solved,
# rounds run, subtrees searched). It reads status.json with jq, and
# without jq returns 1 at once, saying so, before the first round.

rounds() {
	local results=$1 run=$2 merge=$3 round last=-1 same=0 state exit work why
	if ! command -v jq >/dev/null; then
		echo "rounds: reading the merge's status.json needs jq (apt-get install jq)" >&2
		return 1
	fi
	for ((round = 1; ; round++)); do
		"$run" "$round"
		rm -f "$results/status.json"
		"$merge" || true
		if [[ ! -s $results/status.json ]]; then
			echo "rounds: the merge wrote no $results/status.json" >&2
			return 1
		fi
		IFS=$'\t' read -r state exit work why < <(jq -r '[.state, .exit, .work // 0, .why // ""] | @tsv' "$results/status.json") || true
		case $state in
		done) return "$exit" ;;
		failed)
			echo "rounds: the job failed: $why" >&2
			return 1
			;;
		again) ;;
		*)
			echo "rounds: $results/status.json: state '$state'" >&2
			return 1
			;;
		esac
		echo "rounds: round $round: $why" >&2
		if ((work <= last)); then
			if ((++same >= ${FIFTEEN_TRIES:-3})); then
				echo "rounds: no progress in $same rounds: see the tasks' logs in $results" >&2
				return 1
			fi
		else
			last=$work same=0
		fi
	done
}

run_job() {
	local results=$1 solve=$2 file=$3 run=$4
	shift 4
	local flags=("$@") status=0
	merge() {
		"$solve" --results "$results" --merge --format jsonl "${flags[@]}" "$file" >"$results/merged.out" 2>"$results/merge.err"
	}
	rounds "$results" "$run" merge || status=$?
	cat "$results/merge.err" >&2
	cat "$results/merged.out"
	exit "$status"
}
