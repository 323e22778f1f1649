# Records, into process.json, CPython 3.12's behaviour for the cases of
# process_cases.py, each run in a process of its own (python3.12 -u -c),
# so that sys.stdout and sys.stderr are the real streams (gen.py replaces
# them with StringIO objects). stdout and stderr are recorded as one
# stream.
#
# Regenerate from the package directory with
#
#	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_process.py
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "process_cases.py"), encoding="utf-8") as f:
    text = f.read()
cases, name, lines = [], None, []
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
for name, src in cases:
    p = subprocess.run([sys.executable, "-u", "-c", src], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"}, encoding="utf-8")
    out.append({"name": name, "src": src, "stdout": p.stdout, "exc_type": "", "exc_msg": "", "exit": p.returncode})
with open(os.path.join(here, "process.json"), "w", encoding="utf-8") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(f"recorded {len(out)} cases", file=sys.stderr)
