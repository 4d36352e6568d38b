#!/bin/bash
# Usage: deploy/k8s/solve.sh [OUT]
#
# Runs the split job of job.yaml and merge-job.yaml on Kubernetes, round
# after round (deploy/rounds.sh), and writes the results (the merge's JSONL
# lines) into OUT (default results.jsonl). Each round is an Indexed Job of
# job.yaml; the merge is a Job of merge-job.yaml, whose status.json comes
# back as its pod's termination message. Untested here: see README.md.
#
# Environment: FIFTEEN_POLL (seconds between looks, default 5),
# FIFTEEN_TRIES (rounds in a row without progress before giving up,
# default 3).
set -euo pipefail

out=${1:-results.jsonl}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/rounds.sh
source "$here/../rounds.sh"
need_jq || exit 1 # before anything is made
state=$(mktemp -d) # where the merge's status.json lands, here

# finished JOB waits until the Job has completed or failed.
finished() {
	until kubectl get "$1" -o jsonpath='{.status.conditions[*].type}' | grep -qE 'Complete|Failed'; do
		sleep "${FIFTEEN_POLL:-5}"
	done
}

# A failed index runs again in the next round.
round() {
	local job
	job=$(kubectl create -f "$here/job.yaml" -o name)
	echo "k8s/solve.sh: round $1: $job" >&2
	finished "$job"
}

merge() {
	local job
	job=$(kubectl create -f "$here/merge-job.yaml" -o name)
	finished "$job"
	kubectl get pods -l job-name="${job#job.batch/}" \
		-o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.message}' >"$state/status.json"
	kubectl logs "$job" | grep '^{' >"$out" || true
}

rounds "$state" round merge
