#!/usr/bin/env bash
# startup.sh: rlm's start-up against a Go hello world (issue 35 item 5).
#
#   bench/startup.sh [RUNS]     (default: 41 runs)
#
# Builds rlm and a hello-world Go program (fmt.Println, the same toolchain
# and default flags) into a temporary directory, then RUNS times, back to
# back in each run (paired, so a change in the machine's load hits all of
# them alike): hello, `rlm --version`, `rlm context metadata small.txt`
# (a 2,000-byte file). Wall time is taken with bash's $EPOCHREALTIME around
# the command (no extra process). Each row gives the median in ms, the
# spread (max/min) and the 10th-90th percentiles; then, from a second pass
# under GNU time, the median minor page faults and maximum resident set.
# The goal is a median under 10 ms for both rlm rows. Package inits:
# bench/inittrace.sh. A last line gives what the machine charges for a
# fresh page of memory (a Go program touching 100 MiB of fresh anonymous
# memory a page at a time, 3 times, the median per page): the figure
# that moves the start-up of every program from one day to the next on
# a virtual machine (2.2 against 10.5 ms for the hello world in stops 41
# and 42).
#
# RLM_BASELINE=/path/to/rlm adds the same two commands of another build to
# each run (e.g. main before a change), paired with the others. Every
# binary runs from a fresh copy (see below).
set -euo pipefail

runs=${1:-41}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && go build -o "$work/rlm.built" ./cmd/rlm)
mkdir "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.26\n' >"$work/hello/go.mod"
(cd "$work/hello" && GOWORK=off go build -o "$work/hi.built" .)
mkdir "$work/pages"
cat >"$work/pages/main.go" <<'EOF2'
package main

import (
	"fmt"
	"slices"
	"syscall"
	"time"
)

func main() {
	const n = 25600 // 100 MiB of 4 KiB pages
	var us []float64
	for range 3 {
		b, err := syscall.Mmap(-1, 0, n*4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			panic(err)
		}
		t := time.Now()
		for i := range n {
			b[i*4096] = 1
		}
		us = append(us, float64(time.Since(t).Nanoseconds())/1000/n)
		syscall.Munmap(b)
	}
	slices.Sort(us)
	fmt.Printf("%.2f\n", us[1])
}
EOF2
printf 'module pages\n\ngo 1.26\n' >"$work/pages/go.mod"
(cd "$work/pages" && GOWORK=off go build -o "$work/pages.bin" .)
# Every binary is run from a copy made here: a file just written by the
# linker starts slower than a copy of it (0.8 ms of CPU for rlm on the
# 2-core VM, session 41: the page cache holds it differently), so a
# fresh build would lose against an older baseline for no reason of its
# own.
cp "$work/rlm.built" "$work/rlm"
cp "$work/hi.built" "$work/hi"
head -c 2000 /dev/zero | tr '\0' 'a' >"$work/small.txt"

names=("hello world" "rlm --version" "rlm context metadata small.txt")
argv0=("$work/hi")
argv1=("$work/rlm" --version)
argv2=("$work/rlm" context metadata "$work/small.txt")
n=3
if [ -n "${RLM_BASELINE:-}" ]; then
	names+=("baseline --version" "baseline context metadata small.txt")
	cp "$RLM_BASELINE" "$work/baseline"
	argv3=("$work/baseline" --version)
	argv4=("$work/baseline" context metadata "$work/small.txt")
	n=5
fi
rows=$(seq 0 $((n - 1)))
cmd() {
	local -n a="argv$1"
	"${a[@]}"
}

# Warm the page cache and the binaries' first-run costs.
for i in $rows; do cmd "$i" >/dev/null 2>&1 || true; done

declare -a t0 t1 t2 t3 t4
for _ in $(seq "$runs"); do
	for i in $rows; do
		s=$EPOCHREALTIME
		cmd "$i" >"$work/out" 2>&1 || true
		e=$EPOCHREALTIME
		us=$(((${e/./} - ${s/./})))
		eval "t$i+=($us)"
	done
done

# stats US...: "MEDIAN_MS SPREAD P10_MS P90_MS".
stats() {
	printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END {
		m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
		p10 = t[int((NR - 1) * 0.1) + 1]; p90 = t[int((NR - 1) * 0.9) + 1]
		printf "%.1f %.2f %.1f %.1f\n", m / 1000, t[NR] / t[1], p10 / 1000, p90 / 1000 }'
}

# faults I: "MEDIAN_MINOR_FAULTS MAX_RSS_KB" over 11 runs under GNU time.
faults() {
	local f=() r=()
	local -n a="argv$1"
	for _ in $(seq 11); do
		/usr/bin/time -f '%R %M' -o "$work/time" "${a[@]}" >/dev/null 2>&1 || true
		read -r pf kb <"$work/time"
		f+=("$pf")
		r+=("$kb")
	done
	printf '%s %s\n' "$(printf '%s\n' "${f[@]}" | sort -n | sed -n 6p)" "$(printf '%s\n' "${r[@]}" | sort -n | tail -1)"
}

printf 'start-up, %s paired runs, load average at the start %s, rlm binary %s MB\n\n' "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(($(stat -c %s "$work/rlm") >> 20))"
printf '| command | median ms | spread | p10-p90 ms | minor faults | max RSS MB |\n|---|---|---|---|---|---|\n'
for i in $rows; do
	eval "set -- \"\${t$i[@]}\""
	read -r m s p10 p90 < <(stats "$@")
	read -r pf rss < <(faults "$i")
	printf '| %s | %s | %s | %s-%s | %s | %.1f |\n' "${names[$i]}" "$m" "$s" "$p10" "$p90" "$pf" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
done
printf '\na fresh page of memory: %s µs (the median of 3 passes over 100 MiB)\n' "$("$work/pages.bin")"
