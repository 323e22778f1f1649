"""Recorder of code mode's cell benchmark: CPython's outputs and timings.

From the repository root:

    python3.12 repl/testdata/cellbench/record.py            # writes cells.json
    python3.12 repl/testdata/cellbench/record.py --print    # prints timings only

cells.py holds the cells: a line "# ---- name" starts one. The first cell,
"setup", builds the context (a str of ~256 KB) and is not timed. A round
runs every other cell in order, each as exec(source, namespace) (compiling
included), in one fresh namespace where context is bound, after
re.purge() (each round starts cold, as a fresh interpreter of code mode
does). Each cell's stdout is captured; every round must print the same.

cells.json records the Python version, the date, the context's sha256 and
length, each cell's stdout and its median wall and CPU time (the process's,
time.process_time) over the rounds, and the median, minimum and maximum of
the rounds' totals, wall (total_ms) and CPU (cpu_ms). On a shared machine
the CPU times are the steadier figure. BenchmarkModelCells
(repl/cellbench_test.go) checks its outputs against these and reports its
time over the recorded median; bench/code_cells.sh pairs the two.
"""

import argparse
import contextlib
import datetime
import hashlib
import io
import json
import os
import platform
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))


def load_cells():
    with open(os.path.join(HERE, "cells.py"), encoding="utf-8") as f:
        src = f.read()
    parts = re.split(r"^# ---- ([a-z0-9_]+)\n", src, flags=re.M)
    cells = list(zip(parts[1::2], parts[2::2]))
    if not cells or cells[0][0] != "setup":
        sys.exit("cells.py: the first cell must be setup")
    return cells[0][1], cells[1:]


def make_context(setup):
    ns = {"__name__": "__main__"}
    exec(setup, ns)
    return ns["context"]


def one_round(text, cells):
    re.purge()
    ns = {"__name__": "__main__", "context": text}
    outs, times, cpus = [], [], []
    for _, code in cells:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            c0, t0 = time.process_time_ns(), time.perf_counter_ns()
            exec(code, ns)
            t1, c1 = time.perf_counter_ns(), time.process_time_ns()
        outs.append(buf.getvalue())
        times.append(t1 - t0)
        cpus.append(c1 - c0)
    return outs, times, cpus


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--print", action="store_true", help="print the timings, write nothing")
    args = ap.parse_args()
    setup, cells = load_cells()
    text = make_context(setup)
    outs0, _, _ = one_round(text, cells)  # warm-up round, not timed
    rounds, cpu_rounds = [], []
    for _ in range(args.rounds):
        outs, times, cpus = one_round(text, cells)
        if outs != outs0:
            sys.exit("cells print differently across rounds")
        rounds.append(times)
        cpu_rounds.append(cpus)
    totals = [sum(r) for r in rounds]
    cpu_totals = [sum(r) for r in cpu_rounds]

    def summary(ts):
        return {"median": round(statistics.median(ts) / 1e6, 3),
                "min": round(min(ts) / 1e6, 3), "max": round(max(ts) / 1e6, 3)}

    if args.print:
        print(json.dumps({"total_ms": summary(totals), "cpu_ms": summary(cpu_totals)}))
        return
    doc = {
        "python": platform.python_implementation() + " " + platform.python_version(),
        "date": datetime.date.today().isoformat(),
        "machine": platform.machine() + ", " + str(os.cpu_count()) + " CPUs",
        "rounds": args.rounds,
        "context_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "context_len": len(text),
        "total_ms": summary(totals),
        "cpu_ms": summary(cpu_totals),
        "cells": [{"name": name, "median_us": round(statistics.median(r[i] for r in rounds) / 1e3, 1),
                   "cpu_median_us": round(statistics.median(r[i] for r in cpu_rounds) / 1e3, 1),
                   "stdout": outs0[i]} for i, (name, _) in enumerate(cells)],
    }
    with open(os.path.join(HERE, "cells.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
