#!/usr/bin/env python3
"""Records CPython 3.12's trees (with positions) and errors for the Python
files of its own standard library, for the opt-in TestStdlib.

The output is large (about 300 MB) and is not committed. Run:
    /root/.pyenv/versions/3.12.1/bin/python3.12 gen_stdlib.py /tmp/stdlib.json
    STDLIB_JSON=/tmp/stdlib.json go test -run TestStdlib ./repl/internal/python/syntax/
"""
import ast
import glob
import json
import os
import sys
import warnings

warnings.simplefilter("ignore")
root = os.path.dirname(os.__file__)
out = []
for f in sorted(glob.glob(os.path.join(root, "**", "*.py"), recursive=True)):
    if "/site-packages/" in f:
        continue
    try:
        src = open(f, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    if src.startswith("\ufeff"):
        # A str with a byte order mark is an error for CPython; Parse
        # drops the mark, as CPython does for files.
        continue
    try:
        compile(src, f, "exec")
        tree = ast.parse(src)
        out.append({"path": f, "src": src, "dump": ast.dump(tree, include_attributes=True)})
    except SyntaxError as e:
        out.append({"path": f, "src": src, "err": [type(e).__name__, e.msg, e.lineno or 0, e.offset or 0]})
    except Exception:
        pass
with open(sys.argv[1], "w") as fh:
    json.dump(out, fh)
print(len(out), "files")
