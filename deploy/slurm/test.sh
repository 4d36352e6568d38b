#!/bin/bash
# Tests deploy/slurm/solve.sh on a real Slurm: a single-node cluster with
# a throwaway configuration, its daemons started here and stopped at the
# end. It installs slurm-wlm and munge with apt-get if they are missing,
# and skips, saying why, where Slurm cannot be had (not root, no apt-get,
# daemons that do not start). It splits searches and a batch among 4 and
# 7 tasks, compares the answers with solve's on this machine, and kills a
# task mid-way to check that the next round resumes it.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() {
	echo "deploy/slurm/test.sh: skipped: $*"
	exit 0
}
fail() {
	echo "deploy/slurm/test.sh: FAIL: $*" >&2
	exit 1
}

(($(id -u) == 0)) || skip "starting Slurm's daemons takes root"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	command -v apt-get >/dev/null || skip "no Slurm, and no apt-get to install it"
	echo "deploy/slurm/test.sh: installing slurm-wlm and munge"
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge; } >/dev/null 2>&1 ||
		skip "apt-get could not install slurm-wlm and munge"
fi
command -v python3 >/dev/null || skip "no python3 to compare the answers"

work=$(mktemp -d /tmp/fifteen-slurm.XXXXXX)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	done
	rm -rf "$work"
}
trap cleanup EXIT

# munge, unless one runs already.
if ! pgrep -x munged >/dev/null; then
	if [[ ! -s /etc/munge/munge.key ]]; then
		mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null ||
			dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
		chown munge:munge /etc/munge/munge.key
		chmod 400 /etc/munge/munge.key
	fi
	mkdir -p /run/munge /var/log/munge /var/lib/munge
	chown munge:munge /run/munge /var/log/munge /var/lib/munge
	runuser -u munge -- /usr/sbin/munged || skip "munged did not start"
	pids+=("$(cat /run/munge/munged.pid)")
fi
munge -n | unmunge >/dev/null || skip "munge does not work here"

host=$(hostname -s)
export SLURM_CONF=$work/slurm.conf
mkdir -p "$work/state" "$work/spool"
cat >"$SLURM_CONF" <<CONF
ClusterName=fifteen-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,sched_min_interval=0,batch_sched_delay=0
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldPort=16917
SlurmdPort=16918
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
# start DAEMON starts one of Slurm's daemons, which writes its pid file
# once it runs.
start() {
	"$1" -f "$SLURM_CONF" || skip "$1 did not start: $(tail -n 3 "$work/$1.log" 2>/dev/null)"
	for ((i = 0; i < 100; i++)); do
		if [[ -s $work/$1.pid ]]; then
			pids+=("$(cat "$work/$1.pid")")
			return
		fi
		sleep 0.1
	done
	skip "$1 did not start: $(tail -n 3 "$work/$1.log" 2>/dev/null)"
}
start slurmctld
start slurmd
for ((i = 0; ; i++)); do
	[[ $(sinfo --noheader --format=%T 2>/dev/null) == idle ]] && break
	((i < 300)) || skip "the node did not come up: $(tail -n 3 "$work/slurmctld.log")"
	sleep 0.1
done
echo "deploy/slurm/test.sh: Slurm is up: node $host, $(nproc) CPUs"

# The commands, and small databases built once, before any array, in a
# directory every task reads.
mkdir -p "$work/bin"
(cd "$repo" && go build -o "$work/bin/solve" ./cmd/solve && go build -o "$work/bin/pdbgen" ./cmd/pdbgen)
export FIFTEEN_SOLVE=$work/bin/solve
spec5=1,2,5,6/3,4,8,9/7,12,13,14/10,11,15,16/17,18,19,24/20,21,22,23
"$work/bin/pdbgen" --partition 555 --pdb-dir "$work/pdb" >/dev/null 2>&1
"$work/bin/pdbgen" --size 5x5 --partition "$spec5" --pdb-dir "$work/pdb" >/dev/null 2>&1
flags4=(--goal first --partition 555 --pdb-dir "$work/pdb")
flags5=(--partition "$spec5" --pdb-dir "$work/pdb")
split=(--split-above 20000) # small searches, split all the same

# The puzzles: Korf's 3rd and a batch of his first twelve, with a
# malformed and an unsolvable line; two 24-puzzles 300 moves from the goal.
"$work/bin/solve" --set korf100 --ids 1,2,3,4,5,6,7,8,9,10,11,12 --print-only >"$work/batch.txt"
sed -n 3p "$work/batch.txt" >"$work/korf3.txt"
printf 'bad: 1 2 3\nswapped: 0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15\n' >>"$work/batch.txt"
echo "6 1 3 13 10 2 7 5 18 8 11 9 21 23 4 12 17 14 15 0 16 22 19 24 20" >"$work/five.txt"
echo "16 6 14 9 5 12 2 4 10 0 8 3 11 7 23 15 1 18 20 19 13 22 21 17 24" >"$work/five-long.txt"

# compare checks that the split job printed what solve printed: the same
# records, but for the times, the threads, and the last iteration's
# counts, which depend on the threads' timing, and in a split search on
# the tasks' (those whose subtrees come after the solution's add some).
compare() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]
want, got = load(sys.argv[1]), load(sys.argv[2])
if len(want) != len(got):
    sys.exit(f"{len(got)} records, want {len(want)}")
for w, g in zip(want, got):
    for key in ("id", "size", "start", "solved", "optimal", "length", "moves", "tiles", "heuristic", "h0", "error"):
        if w.get(key) != g.get(key):
            sys.exit(f"{w['id']}: {key} {g.get(key)!r}, want {w.get(key)!r}")
    wi, gi = w["iterations"], g["iterations"]
    if len(wi) != len(gi) or wi[:-1] != gi[:-1] or wi and wi[-1]["bound"] != gi[-1]["bound"]:
        sys.exit(f"{w['id']}: iterations {gi}, want {wi}")
PY
}

# run NAME FILE N FLAGS... runs the job on one machine and on Slurm, and
# compares. A split search takes its subtrees depth-first, and so its
# answer is solve's with --frontier 0; a split batch solves each puzzle
# as solve does.
run() {
	local name=$1 file=$2 n=$3 one=()
	shift 3
	[[ $name == batch-* ]] || one=(--frontier 0)
	"$work/bin/solve" --format jsonl "${one[@]}" "$@" "$file" >"$work/$name.want" 2>/dev/null || true
	FIFTEEN_RESULTS=$work/$name.results "$repo/deploy/slurm/solve.sh" "$file" "$n" --format jsonl "${split[@]}" "$@" \
		>"$work/$name.got" 2>"$work/$name.err" || true
	compare "$work/$name.want" "$work/$name.got" || {
		cat "$work/$name.err" >&2
		fail "$name: the split job's answers differ from solve's"
	}
	echo "deploy/slurm/test.sh: $name: $(wc -l <"$work/$name.got") answers as solve's, in $(grep -c 'job array' "$work/$name.err") rounds"
}

for n in 4 7; do
	run "korf3-$n" "$work/korf3.txt" "$n" "${flags4[@]}"
	run "five-$n" "$work/five.txt" "$n" "${flags5[@]}"
	run "batch-$n" "$work/batch.txt" "$n" "${flags4[@]}"
done

# A task killed mid-way: the one that saves the last round's first
# checkpoint. The next round runs it again, and it resumes its share.
"$work/bin/solve" --format jsonl --frontier 0 "${flags5[@]}" "$work/five-long.txt" >"$work/kill.want" 2>/dev/null
last=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])' <"$work/kill.want")
results=$work/kill.results
FIFTEEN_RESULTS=$results "$repo/deploy/slurm/solve.sh" "$work/five-long.txt" 4 --format jsonl \
	--checkpoint-every 100ms "${split[@]}" "${flags5[@]}" >"$work/kill.got" 2>"$work/kill.err" &
driver=$!
killed=''
while kill -0 "$driver" 2>/dev/null && [[ -z $killed ]]; do
	for cp in "$results"/puzzle-0/bound-"$last"-*.checkpoint.json; do
		[[ -e $cp ]] || continue
		k=${cp##*-}
		k=${k%%.*}
		job=$(squeue --noheader --format='%i %K' | awk -v k="$k" '$2 == k {print $1}')
		if [[ -n $job ]] && scancel --signal=KILL "$job"; then
			killed=$k
			echo "deploy/slurm/test.sh: killed task $k ($job) of the round of bound $last"
		fi
		break
	done
	sleep 0.05
done
wait "$driver" || { cat "$work/kill.err" >&2; fail "the killed task's job failed"; }
[[ -n $killed ]] || fail "no task of the last round was running to be killed"
compare "$work/kill.want" "$work/kill.got" || fail "the answer after a killed task differs from solve's"
grep -q "resuming" "$results"/slurm-*_"$killed".out || fail "task $killed did not resume from its checkpoint"
echo "deploy/slurm/test.sh: the killed task resumed from its checkpoint; the answer is solve's"
echo "deploy/slurm/test.sh: ok"
