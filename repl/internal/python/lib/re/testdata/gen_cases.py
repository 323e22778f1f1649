"""Record CPython 3.12's results for the re module's test corpus.

Regenerate (from this directory) with:

    PYTHONHASHSEED=0 /root/.pyenv/versions/3.12.1/bin/python3.12 gen_cases.py

It reads cases.py (cells separated by lines "# ---- name"; the cell
"_prelude" is put before every other) and writes
cases.json: for each cell, its source, what it printed, the exception it
ended with (type as module.qualname for classes outside builtins, and
str()), and the warnings it emitted ("Category: message"). Each cell runs
in a fresh process, where C(s) returns s: the Go test runs the same cells
with C(s) returning a context (a str the host owns) over s.
"""
import json
import os
import subprocess
import sys

RUNNER = r'''
import io, json, sys, warnings
src = sys.stdin.read()
out = io.StringIO()
warned = []
def show(message, category, filename, lineno, file=None, line=None):
    warned.append("%s: %s" % (category.__name__, message))
warnings.showwarning = show
def C(s):
    return s
g = {"__name__": "__main__", "C": C}
real = sys.stdout
sys.stdout = out
exc = None
try:
    exec(compile(src, "<test>", "exec"), g)
except BaseException as e:
    t = type(e)
    name = t.__qualname__ if t.__module__ == "builtins" else t.__module__ + "." + t.__qualname__
    exc = {"type": name, "msg": str(e)}
sys.stdout = real
json.dump({"stdout": out.getvalue(), "exc": exc, "warnings": warned}, sys.stdout)
'''


def cells(path):
    name, lines, out = None, [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# ---- "):
                if name is not None:
                    out.append((name, "".join(lines)))
                name, lines = line[7:].strip(), []
            elif name is not None:
                lines.append(line)
    if name is not None:
        out.append((name, "".join(lines)))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    results = []
    seen = set()
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    all_cells = cells(os.path.join(here, "cases.py"))
    prelude = ""
    if all_cells and all_cells[0][0] == "_prelude":
        prelude = all_cells.pop(0)[1]
    for name, src in all_cells:
        src = prelude + src
        if name in seen:
            sys.exit("duplicate cell name: " + name)
        seen.add(name)
        p = subprocess.run([sys.executable, "-c", RUNNER], input=src.encode(), capture_output=True, env=env, timeout=60)
        if p.returncode != 0:
            sys.exit("runner failed on %s: %s" % (name, p.stderr.decode()))
        r = json.loads(p.stdout)
        results.append({"name": name, "src": src, **r})
    with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(len(results), "cells recorded")


if __name__ == "__main__":
    main()
