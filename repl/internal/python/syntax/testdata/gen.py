#!/usr/bin/env python3
"""Records CPython 3.12's results for the snippets of corpus.py.

Regenerate (from this directory):
    /root/.pyenv/versions/3.12.1/bin/python3.12 gen.py

Writes:
  valid.json:   [{"src", "dump", "pos"}] for sources that compile: ast.dump and
                ast.dump(include_attributes=True) of ast.parse(src).
  invalid.json: [{"src", "type", "msg", "line", "col", "end_line", "end_col",
                "text"}] (text: null where CPython gives None) for sources
                whose compile(src, "<cell>", "exec")
                raises SyntaxError (or a subclass) or RecursionError.
  eval.json:    [{"src", "dump"}] for eval-mode expressions.
  mutated.json: like invalid.json, for sources made by mutating the valid
                snippets of corpus.py (a character deleted or inserted, a
                word dropped, an indentation changed), with a fixed seed,
                keeping those CPython rejects.
The snippets' lists in corpus.py say what each snippet is meant to be, but
the recorded result is whatever CPython does.
"""
import ast
import json
import random
import sys
import warnings

sys.path.insert(0, ".")
import corpus  # noqa: E402

assert sys.version_info[:3] == (3, 12, 1), sys.version

warnings.simplefilter("ignore")


def source_for(src):
    # CPython drops a byte order mark only from bytes; Parse drops it
    # from any source.
    if src.startswith("\ufeff"):
        return src.encode("utf-8")
    return src


def record(src):
    s = source_for(src)
    try:
        compile(s, "<cell>", "exec")
    except (SyntaxError, RecursionError) as e:
        if isinstance(e, RecursionError):
            return None, {"src": src, "type": "RecursionError", "msg": str(e),
                          "line": 0, "col": 0, "end_line": 0, "end_col": 0, "text": None, "details": False}
        return None, {
            "src": src,
            "type": type(e).__name__,
            "msg": e.msg,
            "line": e.lineno or 0,
            "col": e.offset or 0,
            "end_line": e.end_lineno or 0,
            "end_col": e.end_offset if e.end_offset is not None else 0,
            "text": e.text,
            "details": len(e.args) > 1,
        }
    tree = ast.parse(s)
    return {"src": src, "dump": ast.dump(tree), "pos": ast.dump(tree, include_attributes=True)}, None


INSERTS = list(":()[]{},=.*'\"\\#@;+-") + [
    " = ", "if ", "for ", " in ", "lambda ", "def ", "\n", "\n    ", "    ", "\t",
    "yield ", "return ", "not ", "f'{", "}", "print ", "*", "**", ":=", "->",
    "async ", "await ", "else", "pass"]


def mutations(n, seed=20261205):
    rnd = random.Random(seed)
    bases = [s for s in corpus.VALID + corpus.CELLS if 20 < len(s) < 400]
    seen = set()
    out = []
    while len(out) < n:
        src = rnd.choice(bases)
        kind = rnd.randrange(4)
        i = rnd.randrange(len(src) + 1)
        if kind == 0:
            m = src[:i] + src[min(len(src), i + rnd.randrange(1, 4)):]
        elif kind == 1:
            m = src[:i] + rnd.choice(INSERTS) + src[i:]
        elif kind == 2:
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_"):
                j += 1
            m = src[:i] + src[j + 1:]
        else:
            lines = src.split("\n")
            k = rnd.randrange(len(lines))
            lines[k] = lines[k][1:] if lines[k].startswith(" ") else " " + lines[k]
            m = "\n".join(lines)
        if m in seen:
            continue
        seen.add(m)
        try:
            v, i = record(m)
        except ValueError:
            continue
        if i is not None and i["type"] != "RecursionError":
            out.append(i)
    return out


def main():
    valid, invalid = [], []
    seen = set()
    for src in corpus.VALID + corpus.CELLS + corpus.INVALID + getattr(corpus, "EXTRA", []):
        if src in seen:
            continue
        seen.add(src)
        try:
            v, i = record(src)
        except ValueError as e:
            # CPython 3.12.1 fails on some sources with an internal error
            # (f'{x:{y=}}': "field 'value' is required for Constant"); such
            # sources are left out.
            print("skipped", repr(src), e)
            continue
        if v:
            valid.append(v)
        else:
            invalid.append(i)
    evals = []
    for src in corpus.EVAL:
        try:
            tree = ast.parse(src, mode="eval")
            compile(src, "<eval>", "eval")
            evals.append({"src": src, "dump": ast.dump(tree.body)})
        except SyntaxError as e:
            evals.append({"src": src, "error": type(e).__name__, "msg": e.msg, "line": e.lineno or 0, "col": e.offset or 0})
    mutated = mutations(2500)
    for name, data in (("valid.json", valid), ("invalid.json", invalid), ("eval.json", evals), ("mutated.json", mutated)):
        with open(name, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=True, indent=0)
            f.write("\n")
    print(len(valid), "valid,", len(invalid), "invalid,", len(evals), "eval,", len(mutated), "mutated")


main()
