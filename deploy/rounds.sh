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
# without jq returns 1 at once, saying so, before the first round (the
# drivers call need_jq before they make anything). A status.json whose
# exit or work is not a whole number of its range is refused.

# need_jq says that the drivers read status.json with jq, if jq is missing.
need_jq() {
	command -v jq >/dev/null && return
	echo "rounds: reading the merge's status.json needs jq (apt-get install jq)" >&2
	return 1
}

rounds() {
	local results=$1 run=$2 merge=$3 round last=-1 same=0 state exit work why
	need_jq || return 1
	for ((round = 1; ; round++)); do
		"$run" "$round"
		rm -f "$results/status.json"
		"$merge" || true
		if [[ ! -s $results/status.json ]]; then
			echo "rounds: the merge wrote no $results/status.json" >&2
			return 1
		fi
		# One line, its fields apart by the unit separator, which, unlike a
		# tab, does not run empty fields together (issue 57).
		IFS=$'\x1f' read -r state exit work why < <(jq -r '
			def whole(most): if type == "number" and . == floor and . >= 0 and . <= most then tostring else "bad" end;
			[(.state // "" | tostring), (.exit | whole(255)), (.work // 0 | whole(1e15)), (.why // "" | tostring | gsub("[\n\u001f]"; " "))] | join("\u001f")
		' "$results/status.json") || true
		if [[ ! ${exit:-} =~ ^[0-9]+$ || ! ${work:-} =~ ^[0-9]+$ ]]; then
			echo "rounds: $results/status.json: a malformed status (exit '${exit:-}', work '${work:-}')" >&2
			return 1
		fi
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
	# Absent when no merge ran.
	[[ ! -f $results/merge.err ]] || cat "$results/merge.err" >&2
	[[ ! -f $results/merged.out ]] || cat "$results/merged.out"
	exit "$status"
}
