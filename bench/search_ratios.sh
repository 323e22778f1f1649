#!/usr/bin/env bash
# search_ratios.sh: wall time of `rlm context search` against GNU grep and
# ripgrep on a generated text (issue 19), and of rlm's start-up.
#
#   bench/search_ratios.sh [SIZE_MIB [RUNS]]     (defaults: 256 MiB, best of 7)
#
# Generates SIZE_MIB MiB with corpus/internal/gentext (deterministic; the
# word zyzzyva is on ~1 line in 1000), warms the page cache, and times each
# command RUNS times, keeping the best (minimum) wall time and printing the
# spread (max/min). Output goes to a file, never /dev/null: GNU grep stops at
# the first match when its output is /dev/null. Counts of rlm and rg are
# compared and a mismatch is reported. grep and rg are optional (Debian:
# apt-get install -y ripgrep); a missing one prints "-". RLM_BENCH_DIR keeps
# the generated file between runs (default: a temporary directory, removed).
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

(cd "$root" && go build -o "$work/rlm" ./cmd/rlm)
text=$work/text-$size.txt
if [ ! -f "$text" ] || [ "$(stat -c %s "$text")" != $((size << 20)) ]; then
	(cd "$root" && go run ./corpus/internal/gentext "$size" "$text")
fi
head -c 2000 "$text" >"$work/small.txt"
cat "$text" >"$work/warm"
rm -f "$work/warm"

# best CMD...: prints "MIN_MS SPREAD" of the wall time of CMD over $runs runs.
best() {
	local min=0 max=0 t s e
	for _ in $(seq "$runs"); do
		s=$(date +%s%N)
		"$@" >"$work/out" 2>&1 || true
		e=$(date +%s%N)
		t=$(((e - s) / 1000))
		if [ "$min" = 0 ] || [ "$t" -lt "$min" ]; then min=$t; fi
		if [ "$t" -gt "$max" ]; then max=$t; fi
	done
	awk -v a="$min" -v b="$max" 'BEGIN { printf "%.1f %.2f\n", a / 1000, b / a }'
}

have() { command -v "$1" >/dev/null 2>&1; }

# count CMD...: the count CMD prints (rlm's JSON value or a bare number).
count() {
	"$@" 2>/dev/null | tr -d ' ,' | sed -n 's/^"value":\([0-9]*\)$/\1/p; s/^\([0-9][0-9]*\)$/\1/p' | head -1
}

ratio() { if [ "$2" = - ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; fi; }

printf '%s MiB, best of %s runs (ms, spread = max/min); load average: %s\n\n' "$size" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| case | pattern | rlm | grep | rg | rlm/grep | rlm/rg |\n|---|---|---|---|---|---|---|\n'

# row NAME PATTERN MODE: MODE is F (literal) or E (regex); a (?i) prefix is
# passed to grep as -i.
row() {
	local name=$1 pat=$2 mode=$3 rflags=() gflags=(-c) gpat=$2 rl g=- r=- gs='' rs=''
	if [ "$mode" = E ]; then
		rflags=(--regex --time-limit 5m)
		gflags+=(-E)
		rgflags=()
	else
		gflags+=(-F)
		rgflags=(-F)
	fi
	case $pat in '(?i)'*) gpat=${pat#'(?i)'} gflags+=(-i) ;; esac
	read -r rl rls < <(best "$work/rlm" context search "$text" "$pat" --count "${rflags[@]}")
	if have grep; then read -r g gs < <(best grep "${gflags[@]}" -- "$gpat" "$text"); fi
	if have rg; then
		read -r r rs < <(best rg -c "${rgflags[@]}" -- "$pat" "$text")
		local cr cg
		cr=$(count "$work/rlm" context search "$text" "$pat" --count "${rflags[@]}")
		cg=$(count rg -c "${rgflags[@]}" -- "$pat" "$text")
		if [ "$cr" != "$cg" ]; then echo "COUNT MISMATCH for $pat: rlm $cr, rg $cg" >&2; fi
	fi
	printf '| %s | `%s` | %s (%s) | %s%s | %s%s | %s | %s |\n' "$name" "${pat//|/\\|}" "$rl" "$rls" \
		"$g" "${gs:+ ($gs)}" "$r" "${rs:+ ($rs)}" "$(ratio "$rl" "$g")" "$(ratio "$rl" "$r")"
}

row "rare literal" zyzzyva F
row "common literal" context F
row "regex, required literal" 'zyzzyva [a-z]+' E
row "regex, alternation" '(model|window) [a-z]+e ' E
row "regex, classes" '[a-z]{8} [a-z]{8}' E
row "regex, case-insensitive" '(?i)ZYZZYVA' E
row "regex, case-insensitive alternation" '(?i)(MODEL|WINDOW) [a-z]+E ' E

echo
read -r v vs < <(best "$work/rlm" --version)
read -r m ms < <(best "$work/rlm" context metadata "$work/small.txt")
printf 'start-up: rlm --version %s ms (%s), rlm context metadata small.txt %s ms (%s)\n' "$v" "$vs" "$m" "$ms"
