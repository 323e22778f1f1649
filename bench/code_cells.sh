#!/usr/bin/env bash
# code_cells.sh: code mode's interpreter against CPython on the model-style
# cells of repl/testdata/cellbench (issue 35, item 3), paired.
#
#   bench/code_cells.sh [RUNS [ROUNDS]]     (defaults: 7 runs of 10 rounds)
#
# Each run times ROUNDS rounds of every cell in CPython (record.py --print:
# exec() in a fresh namespace per round, re.purge() first) and then in code
# mode (BenchmarkModelCells, a fresh interpreter per round; its outputs are
# checked against CPython's recorded ones), back to back, so that a change
# in the machine's load hits both alike. Times are the process's CPU time
# (user and system, all threads: Go's collector included), steadier than
# wall time on a shared machine. Prints, per variant (context a plain str,
# or a Text as real runs bind it), the medians of the per-round times in
# ms, the ratio of medians, and the spread of the per-run ratios
# (min..max). "code mode" is the test binary's default collector (a
# program embedding the library); "as rlm runs it" keeps the heap floor
# an rlm process keeps (-cells.as-rlm, heapfloor.Launcher), measured in
# the same runs. PYTHON selects the interpreter (default: python3.12, else
# python3). RLM_BASELINE=/path/to/repl.test adds a column for another
# build of the test binary (go test -c -o /tmp/repl.test ./repl at the
# commit to compare with).
set -euo pipefail

runs=${1:-7}
rounds=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=${PYTHON:-$(command -v python3.12 || command -v python3)}
baseline=${RLM_BASELINE:-}

(cd "$root" && go test -c -o "$work/repl.test" ./repl)

# gobench BIN VARIANT [FLAG...]: CPU ms per round of
# BenchmarkModelCells/VARIANT.
gobench() {
	(cd "$root/repl" && "$1" -test.run '^$' -test.bench "ModelCells/$2\$" -test.benchtime "${rounds}x" "${@:3}") |
		awk '/^BenchmarkModelCells/ { for (i = 1; i < NF; i++) if ($(i + 1) == "cpu-ms/op") print $i }'
}

med() { printf '%s\n' "$@" | sort -g | awk '{ t[NR] = $1 } END { print NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }
minmax() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f..%.2f", lo, hi }'; }

printf '%s runs of %s rounds, %s; load average at the start: %s\n\n' "$runs" "$rounds" "$("$py" -V)" "$(cut -d' ' -f1-3 /proc/loadavg)"
for variant in str text; do
	pys=() gos=() rs=() as=() ars=() bs=() brs=()
	for _ in $(seq "$runs"); do
		p=$(cd "$root" && "$py" repl/testdata/cellbench/record.py --print --rounds "$rounds" | sed 's/.*"cpu_ms": {"median": \([0-9.]*\).*/\1/')
		g=$(gobench "$work/repl.test" "$variant")
		a=$(gobench "$work/repl.test" "$variant" -cells.as-rlm)
		pys+=("$p") gos+=("$g") rs+=("$(awk -v a="$g" -v b="$p" 'BEGIN { printf "%.3f", a / b }')")
		as+=("$a") ars+=("$(awk -v a="$a" -v b="$p" 'BEGIN { printf "%.3f", a / b }')")
		if [ -n "$baseline" ]; then
			o=$(gobench "$baseline" "$variant")
			bs+=("$o") brs+=("$(awk -v a="$o" -v b="$p" 'BEGIN { printf "%.3f", a / b }')")
		fi
	done
	mp=$(med "${pys[@]}") mg=$(med "${gos[@]}") ma=$(med "${as[@]}")
	printf 'context %-4s  CPython %7.1f ms CPU  code mode %7.1f ms  ratio %.2fx (per run %s)  as rlm runs it %7.1f ms  ratio %.2fx (per run %s)' \
		"$variant" "$mp" "$mg" "$(awk -v a="$mg" -v b="$mp" 'BEGIN { print a / b }')" "$(minmax "${rs[@]}")" \
		"$ma" "$(awk -v a="$ma" -v b="$mp" 'BEGIN { print a / b }')" "$(minmax "${ars[@]}")"
	if [ -n "$baseline" ]; then
		mb=$(med "${bs[@]}")
		printf '  baseline %7.1f ms  ratio %.2fx (per run %s)' "$mb" "$(awk -v a="$mb" -v b="$mp" 'BEGIN { print a / b }')" "$(minmax "${brs[@]}")"
	fi
	printf '\n'
done
