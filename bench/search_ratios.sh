#!/usr/bin/env bash
# search_ratios.sh: wall time of `rlm context search` against GNU grep and
# ripgrep on a generated text (issues 19 and 35), and of rlm's start-up.
#
#   bench/search_ratios.sh [SIZE_MIB [RUNS]]     (defaults: 256 MiB, 7 runs)
#
# Generates SIZE_MIB MiB with corpus/internal/gentext (deterministic; the
# word zyzzyva is on ~1 line in 1000), warms the page cache, and times
# each case RUNS times, the commands of one run back to back (paired: rlm,
# the baseline rlm when RLM_BASELINE names one, grep, rg), so that a
# change in the machine's load hits all of them alike. Each cell is the
# median wall time in ms and, in parentheses, the spread (max/min); the
# ratios are of the medians. Output goes to a file, never /dev/null: GNU
# grep stops at the first match when its output is /dev/null. Counts of
# rlm and rg are compared and a mismatch is reported. grep and rg are
# optional (Debian: apt-get install -y ripgrep); a missing one prints "-".
#
# RLM_BASELINE=/path/to/rlm adds a column for another build (e.g. main
# before a change: `git stash; go build -o /tmp/rlm-before ./cmd/rlm`).
# RLM_BENCH_DIR keeps the generated file between runs (default: a
# temporary directory, removed). RLM_CASES=regexp selects rows by name.
set -euo pipefail

size=${1:-256}
runs=${2:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${RLM_BENCH_DIR:-}" ]; then
	work=$RLM_BENCH_DIR
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
baseline=${RLM_BASELINE:-}

(cd "$root" && go build -o "$work/rlm" ./cmd/rlm)
text=$work/text-$size.txt
if [ ! -f "$text" ] || [ "$(stat -c %s "$text")" != $((size << 20)) ]; then
	(cd "$root" && go run ./corpus/internal/gentext "$size" "$text")
fi
head -c 2000 "$text" >"$work/small.txt"
cat "$text" >"$work/warm"
rm -f "$work/warm"

have() { command -v "$1" >/dev/null 2>&1; }

# wall CMD...: the wall time of CMD in microseconds.
wall() {
	local s e
	s=$(date +%s%N)
	"$@" >"$work/out" 2>&1 || true
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}

# summary US...: "MEDIAN_MS SPREAD" of times in microseconds.
summary() {
	printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END {
		m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
		printf "%.1f %.2f\n", m / 1000, t[NR] / t[1] }'
}

# count CMD...: the count CMD prints (rlm's JSON value or a bare number).
count() {
	"$@" 2>/dev/null | tr -d ' ,' | sed -n 's/^"value":\([0-9]*\)$/\1/p; s/^\([0-9][0-9]*\)$/\1/p' | head -1
}

ratio() { if [ "$2" = - ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; fi; }

printf '%s MiB, %s paired runs, median ms (spread = max/min); load average at the start: %s\n\n' "$size" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| case | pattern | rlm | baseline | grep | rg | rlm/baseline | rlm/grep | rlm/rg |\n|---|---|---|---|---|---|---|---|---|\n'

# row NAME PATTERN MODE: MODE is F (literal) or E (regex); a (?i) prefix is
# passed to grep as -i.
row() {
	local name=$1 pat=$2 mode=$3 rflags=() gflags=(-c) rgflags=() gpat=$2
	if [ -n "${RLM_CASES:-}" ] && ! [[ $name =~ $RLM_CASES ]]; then return; fi
	if [ "$mode" = E ]; then
		rflags=(--regex --time-limit 5m)
		gflags+=(-E)
	else
		gflags+=(-F)
		rgflags=(-F)
	fi
	case $pat in '(?i)'*) gpat=${pat#'(?i)'} gflags+=(-i) ;; esac
	local ts=() tb=() tg=() tr=()
	for _ in $(seq "$runs"); do
		ts+=("$(wall "$work/rlm" context search "$text" "$pat" --count "${rflags[@]}")")
		if [ -n "$baseline" ]; then tb+=("$(wall "$baseline" context search "$text" "$pat" --count "${rflags[@]}")"); fi
		if have grep; then tg+=("$(wall grep "${gflags[@]}" -- "$gpat" "$text")"); fi
		if have rg; then tr+=("$(wall rg -c "${rgflags[@]}" -- "$pat" "$text")"); fi
	done
	local rl rls b=- bs='' g=- gs='' r=- rs=''
	read -r rl rls < <(summary "${ts[@]}")
	if [ -n "$baseline" ]; then read -r b bs < <(summary "${tb[@]}"); fi
	if have grep; then read -r g gs < <(summary "${tg[@]}"); fi
	if have rg; then
		read -r r rs < <(summary "${tr[@]}")
		local cr cg
		cr=$(count "$work/rlm" context search "$text" "$pat" --count "${rflags[@]}")
		cg=$(count rg -c "${rgflags[@]}" -- "$pat" "$text")
		if [ "$cr" != "$cg" ]; then echo "COUNT MISMATCH for $pat: rlm $cr, rg $cg" >&2; fi
	fi
	printf '| %s | `%s` | %s (%s) | %s%s | %s%s | %s%s | %s | %s | %s |\n' "$name" "${pat//|/\\|}" "$rl" "$rls" \
		"$b" "${bs:+ ($bs)}" "$g" "${gs:+ ($gs)}" "$r" "${rs:+ ($rs)}" \
		"$(ratio "$rl" "$b")" "$(ratio "$rl" "$g")" "$(ratio "$rl" "$r")"
}

row "rare literal" zyzzyva F
row "common literal" context F
row "regex, required literal" 'zyzzyva [a-z]+' E
row "regex, alternation" '(model|window) [a-z]+e ' E
row "regex, classes" '[a-z]{8} [a-z]{8}' E
row "regex, case-insensitive" '(?i)ZYZZYVA' E
row "regex, case-insensitive alternation" '(?i)(MODEL|WINDOW) [a-z]+E ' E

echo
v=() m=()
for _ in $(seq "$runs"); do
	v+=("$(wall "$work/rlm" --version)")
	m+=("$(wall "$work/rlm" context metadata "$work/small.txt")")
done
read -r vm vs < <(summary "${v[@]}")
read -r mm ms < <(summary "${m[@]}")
printf 'start-up: rlm --version %s ms (%s), rlm context metadata small.txt %s ms (%s)\n' "$vm" "$vs" "$mm" "$ms"
