#!/usr/bin/env bash
# token_turns.sh: issue 35's "CPU per turn at a 0 ms model": rlm run with
# TURNS (default 20) sequential root turns against bench/turnserver (each
# turn a context search, the last a final answer) on gpt-4o-mini, so every
# turn's prompt is counted with the o200k_base encoding for admission.
# Usage:
#
#   bench/token_turns.sh RLM_BINARY [RLM_BINARY ...]
#
# Runs the binaries in turn, RUNS (default 11) rounds, and prints per
# binary the median and range of wall time and of user+sys CPU per turn
# (getrusage of the child, through python3). LATENCY (default 0s) sets the
# model's latency. The anchor is bench/turnclient, a plain client sending
# the requests the last binary sent (recorded once before the rounds), one
# after the other, run in each round after the binaries; each binary's
# line ends with the ratio of its median wall time to the client's.
#
# FANOUT=N (issue 35's fan-out row) runs instead 3 root turns over a
# context of N lines: a partition into N parts, a map of one sub-call per
# part with INFLIGHT (default 64) in flight (--max-concurrency), and an
# answer; the client sends the root requests one after the other and the
# sub-calls INFLIGHT at a time (its floor).
#
# The figures include the process's start-up; a run of one turn (TURNS=1)
# measures it, to subtract. To compare with an earlier commit, build it
# apart:
#
#   git archive COMMIT | tar -x -C /tmp/base && (cd /tmp/base && go build -o /tmp/rlm-base ./cmd/rlm)
#   go build -o /tmp/rlm-head ./cmd/rlm && bench/token_turns.sh /tmp/rlm-base /tmp/rlm-head
#
# WARM=1 measures instead what a Go program embedding rlm gets from its
# second run on: each binary named is a build of bench/turnwarm (go build
# -o /tmp/warm-head ./bench/turnwarm), which runs the same command once
# and then measures it once more in the same process, so that start-up,
# code and heap touched for the first time and connections dialled for
# the first time are not counted (the client dials its own).
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 RLM_BINARY [RLM_BINARY ...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server=
cleanup() {
	[ -z "$server" ] || kill "$server" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
turns=${TURNS:-20}
fanout=${FANOUT:-0}
inflight=${INFLIGHT:-64}
(cd "$root" && go build -o "$work/turnserver" ./bench/turnserver && go build -o "$work/turnclient" ./bench/turnclient)
if [ "$fanout" -gt 0 ]; then
	turns=3
	for i in $(seq 1 "$fanout"); do echo "record $i of the fan-out input"; done >"$work/ctx.txt"
	serverflags=(-fanout -inflight "$inflight")
	runflags=(--max-concurrency "$inflight" --max-model-calls $((fanout + 10)))
	question="label every record"
else
	{ for i in $(seq 1 2000); do echo "routine line $i of a log file"; done; echo "the needle is here"; } >"$work/ctx.txt"
	serverflags=()
	runflags=(--max-iterations $((turns + 5)) --max-model-calls $((turns + 5)))
	question="find the needle"
fi
"$work/turnserver" -turns "$turns" -latency "${LATENCY:-0s}" "${serverflags[@]}" >"$work/addr" &
server=$!
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
addr=$(head -1 "$work/addr")
export OPENAI_API_KEY=unused
mkdir "$work/rec"
curl -s "http://$addr/record?dir=$work/rec"
warmup=()
[ -z "${WARM:-}" ] || warmup=(-warmup 0) # record one run's requests
"${@: -1}" "${warmup[@]}" run --base-url "http://$addr/v1" --model gpt-4o-mini --context "$work/ctx.txt" --no-cache --max-cost 100 \
	"${runflags[@]}" "$question" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
curl -s "http://$addr/record?dir="
for r in $(seq "${RUNS:-11}"); do
	i=0
	for bin in "$@"; do
		i=$((i + 1))
		if [ -n "${WARM:-}" ]; then
			"$bin" run --base-url "http://$addr/v1" --model gpt-4o-mini --context "$work/ctx.txt" --no-cache --max-cost 100 \
				"${runflags[@]}" "$question" >"$work/t" 2>"$work/err" || { echo "$bin failed:" >&2; cat "$work/err" >&2; exit 1; }
		else
			python3 -c '
import os, subprocess, sys, time
t = time.monotonic()
p = subprocess.Popen(sys.argv[2:], stdout=open(os.devnull, "w"), stderr=open(sys.argv[1], "w"))
_, status, ru = os.wait4(p.pid, 0)
print("%.6f %.6f %.6f" % (time.monotonic() - t, ru.ru_utime, ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))' "$work/err" "$bin" run --base-url "http://$addr/v1" --model gpt-4o-mini \
				--context "$work/ctx.txt" --no-cache --max-cost 100 "${runflags[@]}" "$question" >"$work/t" ||
				{ echo "$bin failed:" >&2; cat "$work/err" >&2; exit 1; }
		fi
		grep -q "turns $turns " "$work/err" || { echo "$bin: not $turns turns:" >&2; cat "$work/err" >&2; exit 1; }
		tail -1 "$work/t" >>"$work/times.$i"
	done
	echo "$("$work/turnclient" -url "http://$addr/v1/chat/completions" -inflight "$inflight" "$work"/rec/*.json | awk '{ print $1 / 1000, $2 / 1000 }') 0" >>"$work/times.client"
done
client=$(sort -n "$work/times.client" | awk '{ w[NR] = $1 * 1000 } END { print NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2 }')
i=0
for bin in "$@" client; do
	i=$((i + 1))
	[ "$bin" = client ] && i=client
	awk -v bin="$bin" -v turns="$turns" -v client="$client" '
		{ wall[NR] = $1 * 1000; cpu[NR] = ($2 + $3) * 1000 / turns }
		function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { n = NR; mw = med(wall, n); mc = med(cpu, n)
			printf "%s: %d runs of %d turns: wall median %.0f ms (%.0f-%.0f)", bin, n, turns, mw, wall[1], wall[n]
			if (bin == "client") printf " (the requests alone, no start-up), CPU per turn median %.2f ms (%.2f-%.2f)\n", mc, cpu[1], cpu[n]
			else printf ", CPU per turn median %.2f ms (%.2f-%.2f), wall %.3f× the client\n", mc, cpu[1], cpu[n], mw / client }' "$work/times.$i"
done
