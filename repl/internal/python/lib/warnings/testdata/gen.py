# Records CPython 3.12's behaviour for the cases of cases.py into cases.json.
#
# Regenerate from the package directory with
#
#	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py
#
# Each case of testdata/cases.py starts at a line "# ---- name"; it runs in a
# process of its own (the warnings filters are process state) as code
# compiled from the file "<cell>" (the name the warnings show until the
# interpreter exposes its frames' files), with PYTHONHASHSEED=0. What it
# writes to stdout and stderr (one stream) and the exception it ends with
# (type name and str()) are recorded.
import json
import os
import re
import subprocess
import sys

assert sys.version_info[:2] == (3, 12), sys.version

RUNNER = r'''
import sys, json
src = sys.stdin.read()
exc_type, exc_msg = "", ""
try:
    exec(compile(src, "<cell>", "exec"), {"__name__": "__main__"})
except BaseException as e:
    exc_type, exc_msg = type(e).__name__, str(e)
sys.stdout.flush()
sys.stderr.flush()
print("\x00" + json.dumps([exc_type, exc_msg]))
'''

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "cases.py"), encoding="utf-8") as f:
    text = f.read()

cases = []
name, lines = None, []
for line in text.splitlines(keepends=True):
    m = re.match(r"# ---- ([a-z0-9_]+)\s*$", line)
    if m:
        if name:
            cases.append((name, "".join(lines)))
        name, lines = m.group(1), []
    elif name:
        lines.append(line)
if name:
    cases.append((name, "".join(lines)))

out = []
seen = set()
for name, src in cases:
    assert name not in seen, name
    seen.add(name)
    p = subprocess.run([sys.executable, "-u", "-c", RUNNER], input=src, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"}, encoding="utf-8")
    body, _, tail = p.stdout.rpartition("\x00")
    exc_type, exc_msg = json.loads(tail)
    out.append({"name": name, "src": src, "stdout": body, "exc_type": exc_type, "exc_msg": exc_msg})

with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(f"recorded {len(out)} cases", file=sys.stderr)
