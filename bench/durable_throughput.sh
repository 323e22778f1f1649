#!/usr/bin/env bash
# durable_throughput.sh: 10,000 sub-calls of a 5 ms model, in process, with
# every call checkpointed (rlm run --db) and through a queue served by three
# workers (rlm run --db --queue), issue 15's throughput figure. Usage:
#
#   bench/durable_throughput.sh POSTGRES_URL [MODES...]   (modes: inproc db queue; default all)
#
# LATENCY (default 5ms) sets the model's latency.
# Use an empty database (the runs and DBOS's tables stay in it). Builds rlm
# and bench/latencyserver into a temporary directory; prints one line per
# run with its wall time and the sub-calls the server answered.
set -euo pipefail
db=${1:?usage: $0 POSTGRES_URL [inproc|db|queue ...]}
shift
[ $# -gt 0 ] || set -- inproc db queue
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
(cd "$root" && go build -o "$work/rlm" ./cmd/rlm && go build -o "$work/latencyserver" ./bench/latencyserver)
seq 1 10000 | sed 's/^/record /' >"$work/recs10k.txt"
"$work/latencyserver" -latency "${LATENCY:-5ms}" >"$work/addr" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
addr=$(head -1 "$work/addr")
export OPENAI_API_KEY=unused
flags=(--base-url "http://$addr/v1" --model gpt-4o-mini --context "$work/recs10k.txt" --max-concurrency 48
	--max-model-calls 20000 --max-context-ops 50000 --max-cost 100 --no-cache)
for mode in "$@"; do
	workers=()
	case $mode in
	inproc) cmd=("$work/rlm" run "${flags[@]}" classify) ;;
	db) cmd=("$work/rlm" run --db "$db" "${flags[@]}" classify) ;;
	queue)
		for i in 1 2 3; do
			"$work/rlm" worker --db "$db" --queue q --concurrency 16 --base-url "http://$addr/v1" --no-cache >"$work/worker$i.log" 2>&1 &
			workers+=($!)
			pids+=($!)
		done
		sleep 3
		cmd=("$work/rlm" run --db "$db" --queue q "${flags[@]}" classify)
		;;
	*) echo "unknown mode $mode" >&2; exit 2 ;;
	esac
	before=$(curl -s "http://$addr/count")
	start=$(date +%s%N)
	"${cmd[@]}" >"$work/out.json" 2>"$work/err.log" || { echo "$mode failed:" >&2; cat "$work/err.log" >&2; exit 1; }
	end=$(date +%s%N)
	after=$(curl -s "http://$addr/count")
	echo "$mode: $(((end - start) / 1000000)) ms, $((after - before)) sub-calls, load $(cut -d' ' -f1-3 /proc/loadavg)"
	for w in "${workers[@]}"; do kill -TERM "$w"; wait "$w" || true; done
done
