# Records what CPython 3.12 prints for each case of cases.py into
# cases.json, which the package's tests compare the interpreter with.
#
# Run from the package directory:
#
#	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py
#
# A case begins at a line "# ---- name" and runs in a namespace of its own
# (with __name__ == "__main__"). Recorded: its standard output and the
# exception it ends with (class name and str()). Hash randomization is
# turned off (PYTHONHASHSEED=0) so that sets of strings print in the order
# the interpreter uses.
import contextlib
import io
import json
import os
import re
import sys
import types

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])
if sys.version_info[:2] != (3, 12):
    sys.exit("needs CPython 3.12, not " + sys.version)

testdata = os.path.dirname(os.path.abspath(__file__))


def split_cases(text):
    cases, name, body = [], None, []
    for line in text.splitlines(keepends=True):
        m = re.fullmatch(r"# ---- ([a-z0-9_]+)\s*", line)
        if m:
            if name is not None:
                cases.append((name, "".join(body)))
            name, body = m.group(1), []
        elif name is not None:
            body.append(line)
    if name is not None:
        cases.append((name, "".join(body)))
    names = [n for n, _ in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"duplicate case names: {sorted(dup)}")
    return cases


def run(src):
    # The case runs as the __main__ module, as a cell does (dataclasses
    # looks string annotations up in sys.modules[cls.__module__]).
    main = types.ModuleType("__main__")
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = main
    out = io.StringIO()
    exc_type = exc_msg = ""
    try:
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(src, "<test>", "exec"), main.__dict__)
            except BaseException as e:  # the case's outcome, recorded
                exc_type, exc_msg = type(e).__name__, str(e)
    finally:
        sys.modules["__main__"] = saved
    return {"stdout": out.getvalue(), "exc_type": exc_type, "exc_msg": exc_msg}


def main():
    with open(os.path.join(testdata, "cases.py"), encoding="utf-8") as f:
        cases = split_cases(f.read())
    records = []
    for name, src in cases:
        # Modules that cache state (enum's classes, the unicodedata name
        # table) are reused; each case's own classes are fresh.
        records.append({"name": name, "src": src, **run(src)})
    with open(os.path.join(testdata, "cases.json"), "w", encoding="utf-8") as f:
        json.dump(records, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(records)} cases recorded", file=sys.stderr)


main()
