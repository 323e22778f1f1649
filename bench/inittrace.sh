#!/usr/bin/env bash
# inittrace.sh: where rlm's start-up goes (issue 19 item 3). Runs
#
#   bench/inittrace.sh [RUNS [ARGS...]]     (defaults: 20 runs of rlm --version)
#
# with GODEBUG=inittrace=1 and prints, per package, the minimum over RUNS of
# its init's wall time (the minimum because the machine is shared), its
# allocations (deterministic), and the total; then the best wall time of
# the whole process. Builds rlm into a temporary directory.
set -euo pipefail

runs=${1:-20}
shift || true
[ $# -gt 0 ] || set -- --version
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/rlm" ./cmd/rlm)
head -c 2000 /dev/zero | tr '\0' 'a' >"$work/small.txt"
args=()
for a in "$@"; do args+=("${a//small.txt/$work/small.txt}"); done

best=0
for _ in $(seq "$runs"); do
	s=$(date +%s%N)
	GODEBUG=inittrace=1 "$work/rlm" "${args[@]}" >/dev/null 2>>"$work/trace" || true
	e=$(date +%s%N)
	t=$(((e - s) / 1000))
	if [ "$best" = 0 ] || [ "$t" -lt "$best" ]; then best=$t; fi
done
printf 'rlm %s: %d runs, load average %s, binary %s MB\n\n' "${args[*]}" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(($(stat -c %s "$work/rlm") >> 20))"
summary='$1 == "init" {
	p = $2; ms = $5
	if (!(p in min) || ms + 0 < min[p] + 0) min[p] = ms
	bytes[p] = $8; allocs[p] = $10
}'
printf '| package | init min ms | bytes | allocs |\n|---|---|---|---|\n'
awk "$summary"' END { for (p in min) printf "| %s | %.3f | %d | %d |\n", p, min[p], bytes[p], allocs[p] }' "$work/trace" |
	sort -t'|' -k3 -g -r | head -n 15
awk "$summary"' END {
	for (p in min) { tot += min[p]; tb += bytes[p]; ta += allocs[p]; if (p ~ /^github.com\/rlm-go\//) own += min[p] }
	printf "\nall %d packages: %.1f ms (sum of minima; rlm-go packages %.1f ms), %d bytes, %d allocs\n", length(min), tot, own, tb, ta
}' "$work/trace"
printf 'whole process, best of %d (with inittrace on): %.1f ms\n' "$runs" "$(awk -v t="$best" 'BEGIN { print t / 1000 }')"
