# Records what CPython 3.12 prints for each case into cases.json, which
# bytes_test.go compares the interpreter with.
#
# Run from this directory (repl/internal/python/testdata/bytes):
#
#	/root/.pyenv/versions/3.12.1/bin/python3.12 gen.py
#
# The cases are the hand-written ones of cases.py (a case begins at a line
# "# ---- name") and random differential cases made here by a generator
# seeded with SEED: method calls on random bytes and bytearrays with random
# arguments (rnd_method_*), sequences of bytearray mutations printing the
# value and __alloc__() after each (rnd_mutate_*), and % formatting of
# random formats (pct_bytes_rnd_* for bytes, rnd_pctba_* for bytearray).
# Every case runs after PRELUDE (the helpers E and X; recorded once, as
# "prelude") in a namespace of its own. Recorded: its standard output and the exception it ends with (class
# name and str()). Hash randomization is off (PYTHONHASHSEED=0).
import contextlib
import io
import json
import os
import random
import re
import sys
import types

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])
if sys.version_info[:3] != (3, 12, 1):
    sys.exit("needs CPython 3.12.1, not " + sys.version)

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260115

PRELUDE = '''\
def E(s):
    try:
        r = eval(s, globals())
    except Exception as e:
        print(s, '!!', type(e).__name__ + ':', e)
    else:
        print(s, '->', repr(r))
def X(s):
    try:
        exec(s, globals())
    except Exception as e:
        print(s, '!!', type(e).__name__ + ':', e)
    else:
        print(s, 'ok')
'''


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
    return cases


def run(src):
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


# ---- random cases

# (No single quote: the core's repr of a bytearray holding one differs from
# CPython's, a gap of its own case, repr_bytearray_core.)
ALPHABET = (b"abcABCxyzXYZ \t\n\r\x0b\x0c\x1c0129-+_.,;:\"\\"
            + bytes([0, 0x7F, 0x80, 0x85, 0xA0, 0xC3, 0xA9, 0xE9, 0xFF]))


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def bytes(self, maxlen=10):
        r = self.r
        return bytes(r.choice(ALPHABET) for _ in range(r.randint(0, maxlen)))

    def lit(self, b, kind=None):
        if kind is None:
            kind = self.r.choice(["b", "b", "ba"])
        return repr(b) if kind == "b" else f"bytearray({b!r})"

    def sub(self, v):
        r = self.r
        k = r.random()
        if k < 0.45 and v:
            i = r.randint(0, len(v) - 1)
            return v[i:i + r.randint(0, 3)]
        if k < 0.55:
            return b""
        return self.bytes(3)

    def idx(self):
        r = self.r
        k = r.random()
        if k < 0.8:
            return str(r.randint(-14, 14))
        if k < 0.9:
            return "None"
        return r.choice(["2**70", "-2**70", "True", "'x'", "1.5"])

    def byte(self):
        r = self.r
        k = r.random()
        if k < 0.85:
            return str(r.choice(list(ALPHABET)))
        return r.choice(["256", "-1", "'a'", "b'a'", "2**70", "True", "1.0"])

    def width(self):
        r = self.r
        if r.random() < 0.08:
            return r.choice(["'x'", "2**70", "-2**70", "True"])
        return str(r.randint(-3, 16))

    def method_expr(self):
        r = self.r
        v = self.bytes()
        R = self.lit(v)
        m = r.choice(["find", "rfind", "index", "rindex", "count", "startswith", "endswith", "split", "rsplit",
                      "splitlines", "strip", "lstrip", "rstrip", "replace", "center", "ljust", "rjust", "zfill",
                      "expandtabs", "partition", "rpartition", "removeprefix", "removesuffix", "join", "hex",
                      "translate", "isalnum", "isalpha", "isdigit", "isspace", "islower", "isupper", "istitle",
                      "isascii", "upper", "lower", "swapcase", "title", "capitalize", "decode", "ops", "fromhex",
                      "find", "split", "replace", "startswith"])
        if m in ("find", "rfind", "index", "rindex", "count"):
            sub = self.lit(self.sub(v)) if r.random() < 0.75 else self.byte()
            args = [sub] + [self.idx() for _ in range(r.choice([0, 0, 1, 2]))]
            return f"{R}.{m}({', '.join(args)})"
        if m in ("startswith", "endswith"):
            if r.random() < 0.7:
                p = self.lit(self.sub(v))
            elif r.random() < 0.9:
                p = "(" + "".join(self.lit(self.sub(v)) + ", " for _ in range(r.randint(0, 3))) + ")"
            else:
                p = r.choice(["'a'", "97", "[b'a']", "(b'a', 'b')"])
            args = [p] + [self.idx() for _ in range(r.choice([0, 0, 1, 2]))]
            return f"{R}.{m}({', '.join(args)})"
        if m in ("split", "rsplit"):
            args = []
            k = r.random()
            if k < 0.35:
                args.append("None" if r.random() < 0.5 else self.lit(self.sub(v) or b","))
            elif k < 0.85:
                args.append(self.lit(self.sub(v) or b" "))
            if args and r.random() < 0.5:
                args.append(str(r.randint(-2, 4)))
            elif r.random() < 0.2:
                args.append(f"maxsplit={r.randint(-1, 3)}")
            return f"{R}.{m}({', '.join(args)})"
        if m == "splitlines":
            a = r.choice(["", "True", "False", "keepends=True", "1"])
            return f"{R}.splitlines({a})"
        if m in ("strip", "lstrip", "rstrip"):
            a = r.choice(["", "None", self.lit(self.sub(v)), self.lit(self.bytes(4)), "'a'"])
            return f"{R}.{m}({a})"
        if m == "replace":
            args = [self.lit(self.sub(v)), self.lit(self.bytes(3))]
            if r.random() < 0.4:
                args.append(str(r.randint(-2, 4)))
            return f"{R}.replace({', '.join(args)})"
        if m in ("center", "ljust", "rjust"):
            args = [self.width()]
            if r.random() < 0.5:
                args.append(r.choice(["b'*'", "b'-'", "bytearray(b'.')", "b'xy'", "'*'", "b'\\xff'"]))
            return f"{R}.{m}({', '.join(args)})"
        if m == "zfill":
            return f"{R}.zfill({self.width()})"
        if m == "expandtabs":
            a = r.choice(["", str(r.randint(-1, 9)), f"tabsize={r.randint(0, 5)}"])
            return f"{R}.expandtabs({a})"
        if m in ("partition", "rpartition", "removeprefix", "removesuffix"):
            a = self.lit(self.sub(v)) if r.random() < 0.9 else r.choice(["'a'", "97"])
            return f"{R}.{m}({a})"
        if m == "join":
            items = [self.lit(self.bytes(3)) for _ in range(r.randint(0, 4))]
            if r.random() < 0.1:
                items.append(r.choice(["'s'", "1", "None"]))
            return f"{R}.join([{', '.join(items)}])"
        if m == "hex":
            k = r.random()
            if k < 0.3:
                return f"{R}.hex()"
            sep = r.choice(["':'", "b'-'", "' '", "'_'"])
            if k < 0.5:
                return f"{R}.hex({sep})"
            return f"{R}.hex({sep}, {r.randint(-4, 4)})"
        if m == "translate":
            frm = self.bytes(4)
            to = bytes(r.choice(ALPHABET) for _ in frm)
            table = "None" if r.random() < 0.3 else f"bytes.maketrans({frm!r}, {to!r})"
            if r.random() < 0.5:
                return f"{R}.translate({table}, {self.lit(self.bytes(3))})"
            return f"{R}.translate({table})"
        if m == "decode":
            enc = r.choice(["'utf-8'", "'ascii'", "'latin-1'"])
            errs = r.choice(["'strict'", "'ignore'", "'replace'", "'backslashreplace'"])
            return f"{R}.decode({enc}, {errs})"
        if m == "ops":
            w = self.lit(self.sub(v) if r.random() < 0.5 else self.bytes(4))
            op = r.choice(["+", "==", "!=", "<", "<=", ">", ">=", "in", "*", "[]", "[::]"])
            if op == "*":
                return f"{R} * {r.randint(-1, 3)}"
            if op == "in":
                return f"{w} in {R}" if r.random() < 0.7 else f"{self.byte()} in {R}"
            if op == "[]":
                return f"{R}[{r.randint(-12, 12)}]"
            if op == "[::]":
                return f"{R}[{self.idx()}:{self.idx()}:{r.choice(['None', '1', '2', '-1', '-2', '3'])}]"
            return f"{R} {op} {w}"
        if m == "fromhex":
            digits = "0123456789abcdefABCDEF"
            s = "".join(r.choice(digits) + r.choice(digits) + r.choice(["", "", " ", "\t"]) for _ in range(r.randint(0, 4)))
            if r.random() < 0.25 and s:
                i = r.randint(0, len(s) - 1)
                s = s[:i] + r.choice("g x\n-é") + s[i:]
            cls = r.choice(["bytes", "bytearray"])
            return f"{cls}.fromhex({s!r})"
        return f"{R}.{m}()"

    def mutation(self):
        r = self.r
        k = r.choice(["append", "extend", "insert", "pop", "remove", "setitem", "setslice", "setext", "delitem",
                      "delslice", "delext", "iadd", "imul", "clear", "reverse", "init", "setslice", "delslice"])
        i = lambda: str(r.randint(-9, 9))
        if k == "append":
            return f"ba.append({self.byte()})"
        if k == "extend":
            return r.choice([f"ba.extend({self.lit(self.bytes(8))})", f"ba.extend(range({r.randint(0, 12)}))",
                             f"ba.extend({list(self.bytes(5))})", "ba.extend(ba)", "ba.extend(x for x in b'gen')"])
        if k == "insert":
            return f"ba.insert({i()}, {self.byte()})"
        if k == "pop":
            return "ba.pop()" if r.random() < 0.5 else f"ba.pop({i()})"
        if k == "remove":
            return f"ba.remove({self.byte()})"
        if k == "setitem":
            return f"ba[{i()}] = {self.byte()}"
        if k == "setslice":
            return f"ba[{i()}:{i()}] = {self.lit(self.bytes(12))}"
        if k == "setext":
            return f"ba[{i()}:{i()}:{r.choice(['2', '-1', '-2', '3'])}] = {self.lit(self.bytes(4))}"
        if k == "delitem":
            return f"del ba[{i()}]"
        if k == "delslice":
            return f"del ba[{r.choice(['', '0', i()])}:{i()}]"
        if k == "delext":
            return f"del ba[{i()}:{i()}:{r.choice(['2', '-1', '-2', '3'])}]"
        if k == "iadd":
            return f"ba += {self.lit(self.bytes(20))}"
        if k == "imul":
            return f"ba *= {r.randint(0, 3)}"
        if k == "init":
            return f"ba.__init__({self.lit(self.bytes(12))})"
        return f"ba.{k}()"

    def conversion(self, pieces, args):
        r = self.r
        conv = r.choice("sbrdiuoxXeEfFgGcasddf")
        spec = "%"
        spec += "".join(r.choice("-+ #0") for _ in range(r.choice([0, 0, 1, 2])))
        if r.random() < 0.35:
            if r.random() < 0.2:
                spec += "*"
                args.append(str(r.randint(-8, 8)))
            else:
                spec += str(r.randint(0, 9))
        if r.random() < 0.3:
            if r.random() < 0.2:
                spec += ".*"
                args.append(str(r.randint(-2, 6)))
            else:
                spec += "." + str(r.randint(0, 6))
        spec += conv
        pieces.append(spec)
        if conv in "sb":
            a = self.lit(self.bytes(6)) if r.random() < 0.9 else r.choice(["'str'", "5", "None"])
        elif conv in "ra":
            a = r.choice(["'é'", "b'x'", "5", "1.5", "[1, 'a']", "None", "'a\\n'"])
        elif conv in "diuoxX":
            a = r.choice([str(r.randint(-300, 300)), str(r.randint(-300, 300)), "2**70", "-2**65", "True",
                          "1.75", "-2.5", "'x'"])
        elif conv in "eEfFgG":
            a = r.choice([repr(r.uniform(-1e4, 1e4)), repr(r.uniform(-1, 1)), "1e300", "-1e-300", "0.0", "-0.0",
                          "float('inf')", "float('nan')", str(r.randint(-50, 50)), "'x'"])
        else:
            a = r.choice([str(r.randint(0, 255)), "b'Q'", "bytearray(b'\\xff')", "256", "b'ab'", "'a'"])
        args.append(a)

    def percent_expr(self, kind):
        r = self.r
        pieces, args = [], []
        for _ in range(r.randint(1, 3)):
            if r.random() < 0.5:
                pieces.append(r.choice(["ab", "<", ":", " ", "x=", "%%"]))
            self.conversion(pieces, args)
        fmt = "".join(pieces).encode()
        k = r.random()
        if k < 0.05 and args:
            args.pop()
        elif k < 0.1:
            args.append("1")
        if len(args) == 1 and r.random() < 0.5 and not args[0].startswith("("):
            rhs = args[0]
        else:
            rhs = "(" + "".join(a + ", " for a in args) + ")"
        return f"{self.lit(fmt, kind)} % {rhs}"


def random_cases():
    g = Gen(SEED)
    cases = []
    for n in range(350):
        lines = [f"E({g.method_expr()!r})" for _ in range(6)]
        cases.append((f"rnd_method_{n:03d}", "\n".join(lines) + "\n"))
    for n in range(150):
        v = g.bytes(12)
        lines = [f"ba = bytearray({v!r})", "print(ba, len(ba), ba.__alloc__())"]
        for _ in range(8):
            lines.append(f"X({g.mutation()!r})")
            lines.append("print(ba, len(ba), ba.__alloc__())")
        cases.append((f"rnd_mutate_{n:03d}", "\n".join(lines) + "\n"))
    for n in range(70):
        lines = [f"E({g.percent_expr('b')!r})" for _ in range(6)]
        cases.append((f"pct_bytes_rnd_{n:03d}", "\n".join(lines) + "\n"))
    for n in range(70):
        lines = [f"E({'bytes(' + g.percent_expr('ba') + ')'!r})" for _ in range(6)]
        cases.append((f"rnd_pctba_{n:03d}", "\n".join(lines) + "\n"))
    return cases


def main():
    with open(os.path.join(HERE, "cases.py"), encoding="utf-8") as f:
        cases = split_cases(f.read())
    cases += random_cases()
    names = [n for n, _ in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"duplicate case names: {sorted(dup)}")
    records = []
    for name, body in cases:
        records.append({"name": name, "src": body, **run(PRELUDE + body)})
    with open(os.path.join(HERE, "cases.json"), "w", encoding="utf-8") as f:
        json.dump({"prelude": PRELUDE, "cases": records}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(records)} cases recorded", file=sys.stderr)


main()
