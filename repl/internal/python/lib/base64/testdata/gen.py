# Records CPython 3.12's behaviour for the cases of cases.py into cases.json.
#
# Regenerate from the package directory with
#
#	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py
#
# Each case of testdata/cases.py starts at a line "# ---- name"; it runs in a
# fresh namespace (file name "<test>") and what it writes to stdout and
# stderr (one stream, as the Go test sees them) and the exception it ends
# with (type name and str()) are recorded. The script re-executes itself with
# PYTHONHASHSEED=0 so that sets of strings print in a fixed order.
import io
import json
import os
import re
import sys

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

assert sys.version_info[:2] == (3, 12), sys.version

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

seen = set()
out = []
for name, src in cases:
    assert name not in seen, name
    seen.add(name)
    buf = io.StringIO()
    old, olderr = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = buf
    exc_type, exc_msg = "", ""
    try:
        exec(compile(src, "<test>", "exec"), {"__name__": "__main__"})
    except BaseException as e:
        exc_type, exc_msg = type(e).__name__, str(e)
    finally:
        sys.stdout, sys.stderr = old, olderr
    out.append({"name": name, "src": src, "stdout": buf.getvalue(), "exc_type": exc_type, "exc_msg": exc_msg})

with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(f"recorded {len(out)} cases", file=sys.stderr)
