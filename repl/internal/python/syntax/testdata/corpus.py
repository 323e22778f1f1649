# Source snippets for the differential tests of package syntax.
# gen.py records CPython 3.12's results for them; see gen.py.

VALID = [
    # --- atoms and literals
    "x", "x_1", "_", "__x__", "None", "True", "False", "...",
    "0", "1", "123", "1_000_000", "0x1F", "0XaB", "0o17", "0O7", "0b101", "0B1_0",
    "00", "0_0", "0.0", "1.5", "1.", ".5", "1e10", "1E-5", "1.5e+3", "1_0.2_5e1_0",
    "1j", "1.5J", "1e3j", "0j", ".5j",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "123456789012345678901234567890", "0xFFFFFFFFFFFFFFFFFFFF", "0b" + "1" * 70, "0o" + "7" * 30,
    "1e308", "1e309", "1e-400", "2.5e-320", "0.1", "100000000000000000.0", "1e16", "1e15", "12345.678e-9",
    "3.141592653589793", "1/3", "0.0001", "0.00001", "1e22", "123456789.123456789",
    "'a'", '"a"', "'''a'''", '"""a"""', "''", '""', "''''''", "'\"'", '"\'"', "'\\''",
    "'\\n\\t\\r\\a\\b\\f\\v\\0'", "'\\x41\\x7f\\xff'", "'\\u00e9\\u4e2d'", "'\\U0001F600'",
    "'\\101\\7\\77\\777'", "'\\N{BULLET}'", "'\\N{latin small letter a}'", "'\\N{LF}'",
    "'\\N{EM DASH}\\N{NO-BREAK SPACE}'", "'\\N{CJK UNIFIED IDEOGRAPH-4E00}'", "'\\N{HANGUL SYLLABLE GAG}'",
    "'\\q\\d\\w'", "'a\\\nb'", "'''a\nb'''", "'''a\\\nb'''", "'é'", "'日本語'", "'😀'",
    "'\\\\'", "'tab\there'", "r'\\n'", "R'\\d+'", "r'\\''", "rb'\\x'", "Rb'a'", "bR'a'", "BR'a'",
    "b'abc'", "B'a\\x00b'", "b'\\n\\xff'", "b'\\777'", "b'\\q'", "b'''x\ny'''", "br'\\d'",
    "u'abc'", "U'abc'", "u'a' 'b'", "'a' u'b'", "'a' 'b' 'c'", "'a' \\\n 'b'", "('a'\n 'b')",
    "b'a' b'b'", "'\\x00\\x1f\\x7f\\x80\\x9f\\xa0\\xad'", "'\\u2028\\u2029\\u200b\\ufeff'",
    "'\\ud800'", "'\\udfff\\ud83d\\ude00'", "'a\"b\\'c'", "\"it's\"", "'\\\"'",
    # f-strings
    "f''", "f'abc'", "f'{x}'", "f'{x!r}'", "f'{x!s}'", "f'{x!a}'", "f'{x:>10}'", "f'{x:{w}}'",
    "f'{x:{w}.{p}f}'", "f'{x!r:^{w}}'", "f'{x=}'", "f'{x = }'", "f'{x=!s}'", "f'{x=:>5}'", "f'{x=!r:5}'",
    "f'{x}{y}'", "f'a{x}b{y}c'", "f'{{x}}'", "f'{{{x}}}'", "f'}}{{'", "f'{x:{{}}>5}'",
    "f'{\"a\"}'", "f\"{'a'}\"", "f'{'a'}'", "f'{f'{x}'}'", "f'{f\"{f'{x}'}\"}'",
    "f'{x:{y:{z}}}'", "f'{x:}'", "f'{x!r:}'", "f'{ x }'", "f'{x,y}'", "f'{*a, b}'", "f'{(yield)}'",
    "f'{x if y else z}'", "f'{(lambda: 1)()}'", "f'{a[1:2]}'", "f'{d[\"k\"]}'", "f'{x:%Y-%m-%d}'",
    "f'{x:.2f} and {y:,}'", "f'{x!r:>{w}.{p}}'", "f'\\n{x}\\t'", "rf'\\n{x}'", "fr'\\d{x}'", "Rf'{x}'",
    "F'{x}'", "f'\\N{BULLET} {x}'", "f'{x}\\N{BULLET}'", "f'''{x}\n{y}'''", "f'''\n{x\n}\n'''",
    "f'{x\n}'", "f'{\nx\n}'", "f'{x # comment\n}'", "f'''{x:\n>10}'''", "f'{x:a\n}'",
    "'a' f'{x}'", "f'{x}' 'a'", "'a' f'b' 'c'", "f'a' f'b'", "u'a' f'{x}'", "f'{x}' f'{y}'",
    "f'' ''", "f'{x}' ''", "'' f'{x}'", "f'{3.14:!<10.5}'", "f'{x!r}' f'{y=}'", "f'{x:=10}'",
    "f'{(x:=10)}'", "f'{a!=b}'", "f'{a==b}'", "f'{x:{\"a\"}}'", "f'{x}' \\\n f'{y}'",
    "f'{x:\\n}'", "rf'{x:\\n}'", "f'{x:\\N{BULLET}>10}'", "f'{\"\\n\".join(a)}'",
    "f'{x[\"a\"][0].b()!r:>10}'", "f'{ {\"a\": 1}[\"a\"] }'", "f'{[x for x in y]}'", "f'{x}\\\n{y}'",
    "f'{x:{y}a}'", "f'{x:a{y}b{z}c}'", "f'{x=:{y}}'", "f'{x!s:{y}}'",
    # --- operators
    "a + b", "a - b", "a * b", "a / b", "a // b", "a % b", "a ** b", "a @ b", "a << b", "a >> b",
    "a | b", "a ^ b", "a & b", "-a", "+a", "~a", "not a", "a and b", "a or b", "a and b or c",
    "a or b and c", "not a and not b", "a + b * c", "(a + b) * c", "a ** b ** c", "-a ** b",
    "a * -b", "a - -b", "- - a", "~-a", "a + b + c + d", "a - b - c", "a / b * c",
    "a | b ^ c & d << e + f * g ** h", "a < b", "a <= b", "a > b", "a >= b", "a == b", "a != b",
    "a is b", "a is not b", "a in b", "a not in b", "a < b < c", "a < b == c != d > e",
    "not a in b", "a and b and c", "a or b or c", "(a or b) and c", "a if b else c",
    "a if b else c if d else e", "(a if b else c) if d else e", "lambda: 0", "lambda x: x",
    "lambda x, y=1, *a, z, w=2, **k: x", "lambda *, a: a", "lambda a, /, b: a", "lambda a=1, /, b=2: a",
    "lambda *a, **k: 0", "lambda: (yield)", "lambda: lambda: 1", "lambda x: x if x else -x",
    "(x := 1)", "(y := f(x))", "[y := 1, y**2]", "f(x := 1)", "a[x := 1]", "a[(x := 1):2]",
    "await x", "x.y", "x.y.z", "x()", "x(1)", "x(1, 2)", "x(a=1)", "x(*a)", "x(**k)",
    "x(1, *a, b=2, **k)", "x(*a, *b, c=1, *d, **e, f=2)", "x(a)(b)(c)", "x[0]", "x[0][1]",
    "x[1:2]", "x[:]", "x[::]", "x[1:]", "x[:2]", "x[::2]", "x[1:2:3]", "x[a:b, c]", "x[1, 2]",
    "x[1,]", "x[()]", "x[...]", "x[:, None]", "x[..., 0]", "x[*a]", "x[*a, b]", "x[a, *b]",
    "x.y(1)[2].z", "f(x for x in y)", "f((x for x in y))", "f((x for x in y), 1)",
    "f(a, b=1)(c)", "x[lambda: 1]", "(a)", "((a))", "(a, b)", "(a,)", "()", "(a, *b)", "(*a, b)",
    "[a, *b]", "{*a, b}", "{**a}", "{**a, 'b': 1}", "{'a': 1, **b}", "[]", "[1]", "[1, 2,]",
    "{1}", "{1, 2}", "{}", "{1: 2}", "{1: 2, 3: 4,}", "{(1, 2): 3}", "{a: b for a, b in c}",
    "[x for x in y]", "[x for x in y if x]", "[x for x in y if x if z]", "[x for y in z for x in y]",
    "[(x, y) for x in a for y in b if x != y]", "{x for x in y}", "(x for x in y)",
    "[x async for x in y]", "[await x for x in y]", "[x for x, in y]", "[x for (a, b) in y]",
    "[x for *a, b in y]", "[x for x in (y if z else w)]", "[x for x in lambda: y]",
    "[x for x in y if (z := x)]", "[[y for y in x] for x in z]", "[x for x in y for y in x]",
    "[x if x else y for x in z]", "[x for x in y][0]", "{k: v for k, v in d.items() if v}",
    "(yield)", "(yield x)", "(yield x, y)", "(yield from x)", "x = yield", "x = yield y",
    "a.b.c.d(e).f[g]", "a[b](c).d", "a.b = 1", "a[b] = 1", "a.b[c].d = 1",
    "print('hello')", "print('a', 'b', sep=', ', end='')", "len(x) - 1",
    "a if b else lambda: c", "lambda: a if b else c", "not not a", "a is not not b",
    "x[a:b:c, d:e:f]", "x[1:2, ...]", "x['a']['b']", "f(*args, **kwargs)", "f(a)(b)[c].d",
    "1 .real", "1.0.real", "1j.imag", "'abc'.upper()", "b'x'.decode()", "[1, 2][0]", "(1, 2)[0]",
    "{1: 2}[1]", "not (a and b)", "a < (b < c)", "(a < b) < c", "a + (b + c)", "(a + b) + c",
    "x if (y) else (z)", "a or (b and c)", "-(a)", "(-a)", "(a)(b)", "(a).b", "(a)[b]",
    "((a, b), c)", "[[]]", "[{}]", "({},)", "x,", "x, y", "*a, b", "a, *b", "*a,",
    # --- statements
    "x = 1", "x = y = 1", "x, y = 1, 2", "x, = y", "(x, y) = z", "[x, y] = z", "[x, *y] = z",
    "*x, y = z", "x, *y, z = w", "(x) = 1", "((x)) = 1", "x.y = 1", "x[0] = 1", "x[a:b] = c",
    "x = y = z = 1", "x: int", "x: int = 1", "(x): int = 1", "x.y: int", "x[0]: int = 1",
    "x: 'str' = 'a'", "x: list[int] = []", "x += 1", "x -= 1", "x *= 1", "x /= 1", "x //= 1",
    "x %= 1", "x **= 1", "x @= 1", "x <<= 1", "x >>= 1", "x |= 1", "x ^= 1", "x &= 1",
    "x.y += 1", "x[0] += 1", "(x) += 1", "x = *a, *b", "x = yield from y", "x += yield",
    "a; b", "a; b;", "x = 1; y = 2", "pass", "pass;", "del x", "del x, y", "del x.y", "del x[0]",
    "del (x)", "del (x, y)", "del [x, y]", "del x,", "del (x), y[0]", "del ()",
    "assert x", "assert x, 'msg'", "assert (x, y)", "raise", "raise X", "raise X from Y",
    "raise X('msg') from None", "return", "global x", "global x, y", "import x", "import x.y",
    "import x as y", "import x.y as z", "import a, b.c as d", "from x import y", "from x import y as z",
    "from x import (y, z)", "from x import (y,)", "from x import (y as a, z as b,)", "from x import *",
    "from . import x", "from .. import x", "from .x import y", "from ...x import y", "from .... import x",
    "from . x import y", "from .x.y import z", "if x: pass", "if x:\n    pass", "if x:\n    a\nelse:\n    b",
    "if x:\n    a\nelif y:\n    b\nelif z:\n    c\nelse:\n    d", "if x: a; b", "if (x := 1): pass",
    "while x: pass", "while x:\n    a\nelse:\n    b", "while True:\n    break\n    continue",
    "for x in y: pass", "for x, y in z: pass", "for (x, y) in z: pass", "for [x, y] in z: pass",
    "for x in y, z: pass", "for x in *y, z: pass", "for *x, y in z: pass", "for x.y in z: pass",
    "for x[0] in z: pass", "for x in y:\n    pass\nelse:\n    pass", "for x, in y: pass",
    "for x in range(10):\n    if x % 2:\n        continue\n    print(x)",
    "try:\n    a\nexcept:\n    b", "try:\n    a\nexcept E:\n    b", "try:\n    a\nexcept E as e:\n    b",
    "try:\n    a\nexcept (E, F) as e:\n    b", "try:\n    a\nexcept E:\n    b\nelse:\n    c",
    "try:\n    a\nfinally:\n    b", "try:\n    a\nexcept E:\n    b\nelse:\n    c\nfinally:\n    d",
    "try:\n    a\nexcept E:\n    b\nexcept F:\n    c\nexcept:\n    d", "try:\n    a\nexcept* E:\n    b",
    "try:\n    a\nexcept* (E, F) as g:\n    b\nelse:\n    c\nfinally:\n    d",
    "with a: pass", "with a as b: pass", "with a as b, c as d: pass", "with a, b: pass",
    "with (a, b): pass", "with (a as b, c as d): pass", "with (a as b, c as d,): pass", "with (a): pass",
    "with (a) as b: pass", "with a as (b, c): pass", "with a as b.c: pass", "with a as b[0]: pass",
    "with (yield) as x: pass", "with open(f) as fh, open(g) as gh:\n    pass", "with (a, b) as c: pass",
    "with (\n    open(a) as f,\n    open(b) as g,\n):\n    pass",
    "def f(): pass", "def f():\n    pass", "def f(a): pass", "def f(a, b): pass", "def f(a=1): pass",
    "def f(a, b=1): pass", "def f(*a): pass", "def f(**k): pass", "def f(*a, **k): pass",
    "def f(*, a): pass", "def f(*, a=1): pass", "def f(*, a, b=1, c): pass", "def f(a, /): pass",
    "def f(a, /, b): pass", "def f(a=1, /, b=2): pass", "def f(a, /, *, b): pass", "def f(a, b, /, c, d=1, *e, f, g=2, **h): pass",
    "def f(a: int): pass", "def f(a: int = 1): pass", "def f(*a: int, **k: str): pass", "def f() -> int: pass",
    "def f(a: 'x', *, b: 'y' = 2) -> 'z': pass", "def f(*args: *Ts): pass", "def f(a,): pass",
    "def f(*a,): pass", "def f(**k,): pass", "def f(a, *, b,): pass", "def f(a, /,): pass",
    "@d\ndef f(): pass", "@d1\n@d2\ndef f(): pass", "@d(1)\ndef f(): pass", "@d.e\ndef f(): pass",
    "@d[0]\ndef f(): pass", "@(lambda f: f)\ndef f(): pass", "@x := y\ndef f(): pass", "@a or b\ndef f(): pass",
    "async def f(): pass", "async def f():\n    await x", "async def f():\n    async for x in y: pass",
    "async def f():\n    async with a as b: pass", "async def f():\n    return [x async for x in y]",
    "@d\nasync def f(): pass", "def f():\n    yield", "def f():\n    yield x", "def f():\n    yield from x",
    "def f():\n    return x", "def f():\n    return x, y", "def f():\n    return *a, b",
    "def f():\n    x = yield\n    return x", "def f():\n    global x\n    x = 1",
    "def f():\n    x = 1\n    def g():\n        nonlocal x\n        x = 2", "def f[T](x: T) -> T: pass",
    "def f[T: int, *Ts, **P](): pass", "def f[T: (int, str)](): pass", "def f[T,](): pass",
    "class C: pass", "class C:\n    pass", "class C(): pass", "class C(B): pass", "class C(B, D): pass",
    "class C(metaclass=M): pass", "class C(B, metaclass=M, **kw): pass", "class C(*bases): pass",
    "@d\nclass C: pass", "class C[T]: pass", "class C[T: int](B): pass", "class C:\n    x = 1\n    def f(self): pass",
    "class C:\n    def __init__(self, x):\n        self.x = x\n    @property\n    def y(self):\n        return self.x",
    "type X = int", "type X[T] = list[T]", "type X[T: int, *Ts, **P] = Callable[P, T]", "type X = int | None",
    "type = 1", "type(x)", "type.x = 1", "type[x] = 1", "print(type)", "match = 1", "match(x)", "match.x",
    "match[x]", "match = case = _ = 1", "case = 1", "_ = 1", "match, x = 1, 2",
    "match x:\n    case 1: pass", "match x:\n    case 1:\n        pass\n    case 2:\n        pass",
    "match x:\n    case _: pass", "match x:\n    case y: pass", "match x:\n    case None: pass",
    "match x:\n    case True: pass", "match x:\n    case False: pass", "match x:\n    case -1: pass",
    "match x:\n    case 1.5: pass", "match x:\n    case 1 + 2j: pass", "match x:\n    case -1 - 2j: pass",
    "match x:\n    case 'a': pass", "match x:\n    case b'a': pass", "match x:\n    case 'a' 'b': pass",
    "match x:\n    case a.b: pass", "match x:\n    case a.b.c: pass", "match x:\n    case 1 | 2 | 3: pass",
    "match x:\n    case [1, 2]: pass", "match x:\n    case (1, 2): pass", "match x:\n    case 1, 2: pass",
    "match x:\n    case [1, *rest]: pass", "match x:\n    case [*_, 1]: pass", "match x:\n    case (): pass",
    "match x:\n    case []: pass", "match x:\n    case [a]: pass", "match x:\n    case (a,): pass",
    "match x:\n    case (a): pass", "match x:\n    case {1: a}: pass", "match x:\n    case {'a': 1, **rest}: pass",
    "match x:\n    case {}: pass", "match x:\n    case {**rest}: pass", "match x:\n    case {a.b: c}: pass",
    "match x:\n    case Point(): pass", "match x:\n    case Point(1, 2): pass", "match x:\n    case Point(x=1, y=2): pass",
    "match x:\n    case Point(1, y=2): pass", "match x:\n    case a.Point(x=[1, 2]): pass",
    "match x:\n    case [1, 2] as y: pass", "match x:\n    case (1 | 2) as y: pass", "match x:\n    case 1 | 2 as y: pass",
    "match x:\n    case y if y > 0: pass", "match x:\n    case [y, *_] if y: pass", "match x, y:\n    case a, b: pass",
    "match *x, y:\n    case _: pass", "match (x):\n    case _: pass", "match x,:\n    case _: pass",
    "match -x:\n    case _: pass", "match [x]:\n    case _: pass", "match {x}:\n    case _: pass",
    "match x:\n    case {1: _, 2: [a, b]}: pass", "match x:\n    case [[1, 2], [3, 4]]: pass",
    "match x:\n    case str() | bytes(): pass", "match x:\n    case -0: pass", "match x:\n    case 0j: pass",
    "match x:\n    case {-1: a, 1.5: b, 'c': d, None: e, True: f}: pass",
    "match command.split():\n    case [action]:\n        pass\n    case [action, obj]:\n        pass",
    "global x; x = 1", "nonlocal_ = 1", "x = 1 if y else 2", "x = [1,\n     2,\n     3]",
    "x = (1 +\n     2)", "x = {\n    'a': 1,\n    'b': 2,\n}", "x = 1 + \\\n    2", "if x \\\n    and y:\n    pass",
    "x = 1  # comment", "# only a comment", "x = 1\n# comment\ny = 2", "\n\nx = 1\n\n", "x = 1\n\n\n",
    "if x:\n    # comment\n    pass", "if x:\n\n    pass\n\n", "if x:\n    pass\n  # odd comment\n",
    "if x:\n\tpass", "if x:\n\tif y:\n\t\tpass", "if x:\n        pass", "if x:\n  a\n  b\nc",
    "x = 1\r\ny = 2\r\n", "x = 1\ry = 2", "\ufeffx = 1", "x = 1\n\x0c\ny = 2", "if x:\n\x0c    pass",
    "x=1", "x = 1 ", "x = 1\n", "", "\n", "   \n", "  # c", "\\\nx", "x\\\n", "x = \\\n1",
    "def f():\n    return\n\n\ndef g():\n    pass", "class A:\n    class B:\n        class C:\n            pass",
    "for i in range(3):\n    for j in range(3):\n        if i == j:\n            break\n    else:\n        continue",
    "while x:\n    try:\n        continue\n    finally:\n        pass",
    "def f(x):\n    return lambda y: x + y", "def f():\n    return (yield)", "x = [i for i in range(10) if i % 2 == 0]",
    "x = {k: v for k, v in zip(a, b)}", "assert isinstance(x, int), f'bad {x!r}'",
    "import os, sys", "from os.path import join, exists as ex", "if __name__ == '__main__':\n    main()",
]

# Realistic analysis cells, as a model writes them.
CELLS = [
    """import re
import json
from collections import Counter, defaultdict

text = context['document']
words = re.findall(r"\\b[a-zA-Z']+\\b", text.lower())
counts = Counter(words)
top = counts.most_common(10)
for word, n in top:
    print(f"{word:>15}: {n:5d}")
""",
    """results = []
for i, chunk in enumerate(chunks):
    try:
        answer = llm_query(f"Summarize chunk {i}:\\n{chunk}")
    except Exception as e:
        print(f"chunk {i} failed: {e!r}")
        continue
    results.append({"index": i, "answer": answer.strip()})
print(json.dumps(results, indent=2)[:500])
""",
    """def parse_line(line: str) -> dict[str, str] | None:
    \"\"\"Parse 'key = value' lines.\"\"\"
    if not line or line.startswith('#'):
        return None
    key, _, value = line.partition('=')
    return {key.strip(): value.strip()}

rows = [r for r in map(parse_line, data.splitlines()) if r]
merged = {k: v for row in rows for k, v in row.items()}
print(len(merged), sorted(merged)[:3])
""",
    """class Stats:
    def __init__(self, values):
        self.values = list(values)

    @property
    def mean(self):
        return sum(self.values) / len(self.values) if self.values else 0.0

    def __repr__(self):
        return f"Stats(n={len(self.values)}, mean={self.mean:.3f})"

s = Stats(x ** 2 for x in range(10))
print(s)
""",
    """matrix = [[1, 2, 3], [4, 5, 6]]
transposed = [list(row) for row in zip(*matrix)]
flat = [x for row in matrix for x in row]
print(transposed, flat[::-1], flat[1:-1:2])
total = sum(x * y for x, y in zip(flat, reversed(flat)))
""",
    """pattern = re.compile(r'(?P<date>\\d{4}-\\d{2}-\\d{2})\\s+(?P<level>[A-Z]+)\\s+(?P<msg>.*)')
by_level = defaultdict(list)
for line in log.splitlines():
    m = pattern.match(line)
    if m is None:
        continue
    by_level[m['level']].append(m.group('msg'))
summary = {lvl: len(msgs) for lvl, msgs in sorted(by_level.items(), key=lambda kv: -len(kv[1]))}
""",
    """answer = None
while answer is None:
    reply = llm_query(
        "Question: " + question,
        model="small",
        max_tokens=256,
    )
    if (n := len(reply)) > 10:
        answer = reply
    else:
        print("short reply", n)
FINAL(answer)
""",
    """import math
def stdev(xs):
    n = len(xs)
    if n < 2:
        raise ValueError("need at least two values")
    mu = sum(xs) / n
    return math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1))

values = [float(v) for v in raw.split(',') if v.strip()]
print(f"{stdev(values):.4f}", f"{min(values)=}", f"{max(values)=!s:>10}")
""",
    """match event:
    case {"type": "click", "pos": (x, y)}:
        handle_click(x, y)
    case {"type": "key", "key": str(k)} if k.isalpha():
        handle_key(k)
    case [first, *others]:
        print(first, others)
    case _:
        pass
""",
    """try:
    with open(path, encoding='utf-8') as fh:
        data = fh.read()
except (FileNotFoundError, PermissionError) as err:
    data = ''
    print('could not read', path, err, sep=' | ')
else:
    print('read', len(data), 'chars')
finally:
    print('done')
""",
    """sections = text.split('\\n\\n')
lengths = list(map(len, sections))
idx = max(range(len(sections)), key=lengths.__getitem__)
longest = sections[idx]
print(f'''Longest section ({idx}):
{longest[:200]!r}
... ({lengths[idx]} chars)''')
""",
    """def chunk(seq, size):
    for i in range(0, len(seq), size):
        yield seq[i:i + size]

batches = list(chunk(items, 5))
answers = [llm_query(f"Label these: {b}") for b in batches]
labels = dict(zip(items, sum((a.split(',') for a in answers), [])))
""",
    """x = 10; y = 20
z = x if x > y else y
assert z == 20, "max"
del x, y
print(*range(3), sep='-')
nums = {*range(3), *[7, 8]}
merged = {**{'a': 1}, 'b': 2, **dict(c=3)}
""",
    """from dataclasses import dataclass, field

@dataclass(frozen=True)
class Item:
    name: str
    price: float = 0.0
    tags: list[str] = field(default_factory=list)

items = sorted((Item(n, p) for n, p in pairs), key=lambda it: (-it.price, it.name))
""",
    """counts = {}
for ch in text:
    counts[ch] = counts.get(ch, 0) + 1
vowels = sum(counts.get(v, 0) for v in 'aeiou')
ratio = vowels / max(1, len(text))
print(f"{ratio:.2%}")
if ratio > .4 and not text.isupper() or len(text) < 3:
    print("many vowels")
""",
    """async def fetch_all(urls):
    results = []
    async with session() as s:
        for url in urls:
            results.append(await s.get(url))
    return results
""",
    """lines = [l.rstrip() for l in doc.splitlines()]
headers = [(i, l.lstrip('#').strip()) for i, l in enumerate(lines) if l.startswith('#')]
toc = '\\n'.join(f"{'  ' * (len(l) - len(l.lstrip('#')) - 1)}- {t}" for (i, t), l in zip(headers, (lines[i] for i, _ in headers)))
print(toc)
""",
    """total = 0
for row in table[1:]:
    name, qty, price = row
    try:
        total += int(qty) * float(price)
    except ValueError:
        print(f"skipping {name!r}")
print(f"Total: {total:,.2f}")
""",
    """def walk(node, depth=0):
    print('  ' * depth + node['name'])
    for child in node.get('children', ()):
        walk(child, depth + 1)

walk(tree)
""",
    """nums = [3, 1, 4, 1, 5, 9, 2, 6]
evens, odds = [n for n in nums if n % 2 == 0], [n for n in nums if n % 2]
first, *middle, last = sorted(nums)
print(first, middle, last, evens, odds)
print(nums[::2], nums[-3:], nums[:-3])
""",
]

INVALID = [
    # tokenizer
    "'abc", '"abc', "'''abc", '"""abc\n\n', "x = 'a\nb'", "f'abc", "f'''abc", "b'é'", "1_", "1__0", "1_a",
    "0x", "0xg", "0b2", "0b12", "0o8", "0o18", "0123", "00123", "1e", "1e+", "1.e-", "1abc", "1.5j2",
    "0x1for", "1_000_", "1.2.3", "$", "x = $", "x = a ? b", "x = `a`", "a ! b", "x = 1 +\\ y", "x = \\",
    "x = (", "x = [1, 2", "x = {1: 2", "(", ")", "]", "}", "x = (1, 2]", "x = [\n1,\n2)", "a = 1)",
    "f(a]", "x = ((((((", "\\", "x = 1 — 2", "x = 1\u00a0+ 2", "x\u200b = 1", "é = 1\nx = ¢",
    "if x:\n    a\n  b", "if x:\n\tpass\n        pass", "if x:\n        a\n\tb", "  x = 1", "x = 1\n    y = 2",
    "if x:\npass", "def f():\nreturn 1", "class C:\npass", "for x in y:\npass", "while x:\npass",
    "with x:\npass", "try:\npass", "try:\n    pass\nexcept:\npass", "try:\n    pass\nfinally:\npass",
    "if x:\n    pass\nelse:\npass", "if x:\n    pass\nelif y:\npass", "match x:\ncase 1: pass",
    "match x:\n    case 1:\n    pass", "if x:", "def f():", "class C:\n", "x = (1,\n2,\n", "'a' 'b",
    "f'{'", "f'{x'", "f'{x!}'", "f'{x!z}'", "f'{x! r}'", "f'{}'", "f'{ }'", "f'{=}'", "f'{!r}'", "f'{:x}'",
    "f'}'", "f'{x}}'", "f'{)}'", "f'{x:{y:{z:{w}}}}'", "f'{lambda x: 1}'", "f'{x!r=}'", "f'{x y}'",
    "f'{x:a\nb}'", "f'{x\" \"y}'", "f'{a b}'", "f'{x!rr}'", "f'{x=!}'", "f'{x:{}}'", "f'{x:'", "f'{yield}'",
    "'\\x4'", "'\\x'", "'é\\x4'", "'\\u12'", "'\\U0011FFFF'", "'\\N{foo}'", "'\\N{'", "'\\N'", "'\\Nx'", "b'\\x4'",
    "b'a' 'b'", "'a' b'b'", "f'{x}' b''",
    # parser
    "a b", "a b c", "f(a b)", "[a b]", "{a b}", "(a b)", "x = 1 +", "x = ", "= 1", "x ==", "1 + * 2",
    "def f(:\n  pass", "def f", "def f:", "def f()", "def f() x", "class C x", "class", "class C(",
    "if x", "if x\n    pass", "while x", "for x in y", "for x y in z: pass", "for in y: pass",
    "for f() in y: pass", "for x + 1 in y: pass", "for 1 in y: pass", "[x for f() in y]", "[x for 1 in y]",
    "f() = 1", "x + 1 = 2", "1 = x", "None = 1", "True = 1", "... = 1", "'a' = 1", "f'{x}' = 1",
    "(a, f()) = 1", "[a, f()] = 1", "a, f() = 1", "x = f() = 1", "x = 1 = 2", "a.b() = 1", "-x = 1",
    "not x = 1", "a if b else c = 1", "lambda: 1 = 1", "[x for x in y] = 1", "{} = 1", "{1} = 1",
    "(yield) = 1", "await x = 1", "x < y = 1", "x() += 1", "(a, b) += 1", "[a] += 1", "1 += 1",
    "a, b += 1", "x: int, y: int", "(x, y): int", "[x]: int", "f(): int", "x + 1: int",
    "del f()", "del 1", "del x + 1", "del (x, 1)", "del [x, f()]", "del *x", "del x y",
    "if x = 1: pass", "if f(x) = 1: pass", "if x.y = 1: pass", "while x = 1: pass", "[x = 1]",
    "f(a.b=1)", "f(a=)", "f(True=1)", "f(**a=1)", "f(*a=1)", "f(a=1, b)", "f(**a, b)", "f(**a, *b)",
    "f(a for a in b, c)", "f(c, a for a in b)", "f(x=1 for x in y)", "f(a, b for b in c, d)",
    "print 'hello'", "print x", "exec 'code'", "print(x) y", "import a from b", "from x import a,",
    "from x import", "from import x", "import", "from x import (a, b", "from x import *, a",
    "x = [*a for a in b]", "x = {*a for a in b}", "x = (*a for a in b)", "x = [a, b for a in c]",
    "x = {a, b for a in c}", "x = [a, for a in c]", "x = {**a for a in b}", "x = {a: *b}", "x = {a:}",
    "x = {1: 2, 3}", "x = (*a)", "x = (**a)", "x = *a", "print(*a)", "x = a if b", "x = a if b else",
    "lambda x=1, y: 0", "def f(a=1, b): pass", "def f(*): pass", "def f(*, **k): pass", "def f(*a=1): pass",
    "def f(**k=1): pass", "def f(**k, a): pass", "def f(**k, *a): pass", "def f(*a, *b): pass",
    "def f(/, a): pass", "def f(a, /, b, /): pass", "def f(*a, /): pass", "def f((a, b)): pass",
    "def f(a=): pass", "lambda *: 0", "lambda (a): 0", "lambda a, a: 0", "def f(a, a): pass",
    "def f(a, *, a): pass", "try:\n    pass", "try:\n    pass\nexcept* E:\n    pass\nexcept F:\n    pass",
    "try:\n    pass\nexcept E:\n    pass\nexcept* F:\n    pass", "try:\n    pass\nexcept E, F:\n    pass",
    "try:\n    pass\nexcept E\n    pass", "try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass",
    "with a as f(): pass", "with a as 1: pass", "with a b: pass", "with a", "else: pass", "elif x: pass",
    "except: pass", "finally: pass", "match x:\n    case 1 as _: pass", "match x:\n    case 1 as f(): pass",
    "match x:\n    case Point(x=1, 2): pass", "match x:\n    case 1 + 1: pass", "match x:\n    case 1j + 1: pass",
    "match x:\n    case {**rest, 'a': 1}: pass", "match x:\n    case a:\n        pass\n    case b:\n        pass",
    "match x:\n    case _:\n        pass\n    case 1:\n        pass", "match x:\n    case [a, a]: pass",
    "match x:\n    case a | b: pass", "match x:\n    case [*a, *b]: pass", "match x:\n    case Point(x=1, x=2): pass",
    "match x:\n    case {'a': 1, 'a': 2}: pass", "match x:\n    case {f(): 1}: pass", "match x:\n    case f'{x}': pass",
    "match x:\n    case 1", "type X", "type X[] = int", "type X[*T: int] = int", "type X[**P: int] = int",
    "def f[T: int, *Ts: int](): pass", "class C[]: pass",
    # compile-time (symtable and compiler)
    "return", "return 1", "class C:\n    return 1", "yield", "yield x", "x = yield", "class C:\n    yield",
    "break", "continue", "if x:\n    break", "for x in y:\n    def f():\n        break",
    "while x:\n    class C:\n        continue", "await x", "def f():\n    await x", "async def f():\n    yield from x",
    "async def f():\n    x = yield\n    return 1", "nonlocal x", "def f():\n    nonlocal x",
    "def f():\n    x = 1\n    global x", "def f():\n    print(x)\n    global x", "def f(x):\n    global x",
    "def f(x):\n    nonlocal x", "def f():\n    x = 1\n    def g():\n        global x\n        nonlocal x",
    "def f():\n    global x\n    nonlocal x", "x: int = 1\nglobal x", "def f():\n    x: int\n    global x",
    "def f():\n    global x\n    x: int", "class C:\n    nonlocal x", "def f():\n    def g():\n        nonlocal x",
    "def f(a, b, a): pass", "lambda a, *, a: 0", "def f(*a, **a): pass", "*a = 1", "*a, *b = 1",
    "a, *b, *c = 1", "[*a, *b] = 1", "for *a, *b in c: pass", "*a", "print(*a for a in b)", "x = *a, *b, c",
    "del *a", "f(x, x=1, x=2)", "f(a=1, a=2)", "class C(x=1, x=2): pass", "try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass",
    "__debug__ = 1", "def f(__debug__): pass", "del __debug__", "x.__debug__ = 1", "def __debug__(): pass",
    "import __debug__", "from x import y as __debug__", "for __debug__ in x: pass", "f(__debug__=1)",
    "class C:\n    def f(self):\n        nonlocal self", "[x for x in y if (x := 1)]", "[(x := 1) for x in y]",
    "[i for i in range(3) if (j := i) for j in range(2)]", "[x for x in (y := [1, 2])]",
    "class C:\n    [(y := 1) for x in z]", "def f():\n    x = 1\n    del x\n    nonlocal x", "from __future__ import nope",
    "from __future__ import braces", "x = 1\nfrom __future__ import annotations",
    "def f():\n    from x import *", "class C:\n    from x import *", "[x for x in y] = 1",
    "[(yield) for x in y]", "{(yield) for x in y}", "{x: (yield) for x in y}", "((yield) for x in y)",
    "def f():\n    [(yield x) for x in y]", "def f():\n    return [x async for x in y]", "async def f():\n    return (x async for x in y)",
    "[x async for x in y]", "def f():\n    [await x for x in y]", "type X = (yield)", "type X[T: (yield)] = int",
    "def f[T, T](): pass", "class C[T, T]: pass", "type X[T, T] = int", "def f[T: (yield)](): pass",
    "def f[T](x: (yield)): pass", "class C[T]((yield)): pass", "def f():\n    class C[T]:\n        nonlocal T",
    "def f():\n    x = 1\n    def g():\n        print(x)\n        nonlocal x", "def f(a):\n    def a(): pass\n    global a",
    "for x in y:\n    pass\nelse:\n    break", "while x:\n    pass\nelse:\n    continue",
    "try:\n    pass\nfinally:\n    continue", "def f():\n    try:\n        pass\n    finally:\n        return",
    "with x as __debug__: pass", "match x:\n    case __debug__: pass", "match x:\n    case {**__debug__}: pass",
    "lambda: (yield)", "def f():\n    lambda: (yield)", "x = [1 for x in y if (yield)]",
    "f(**k, *a)", "f(*a, **k, b)", "f(a, b=1, c)", "def f(a, b=1, c=2, d): pass",
    "async with x: pass", "async for x in y: pass", "def f():\n    async with x: pass", "def f():\n    async for x in y: pass",
    "if True:\n    pass\n  else:\n    pass", "x = 1 if 2", "x = (1 for x in y) = 1",
]

# eval() inputs, for ParseExpr.
EVAL = [
    "x", "1 + 2", "x, y", "x,", "*a, b", "  x  ", "x\n", "\nx\n\n", "f(x)[0]", "lambda: 1", "a if b else c",
    "(yield)", "[x for x in y]", "x = 1", "x;", "", "a b", "x\ny", "(x := 1)", "not x", "'a' 'b'",
]

# More cases: error messages the interpreter's users meet most, tabs,
# nesting, f-string corners.
EXTRA = [
    # indentation and tabs
    "if x:\n\tif y:\n\t\tpass\n\telse:\n\t\tpass", "if x:\n\ta\n        b", "if x:\n        a\n\tb",
    "if x:\n  \ta\n  \tb", "if x:\n \ta\n\t b", "def f():\n\treturn 1\n", "if x:\n\t\ta\n\t\tb",
    "class C:\n    def f(self):\n        pass\n  def g(self):\n        pass",
    "if x:\n    a\n   b", "for x in y:\n    a\n  b", "  \nx = 1", "\tx = 1", "x = 1\n\ty = 2",
    "if x:\n    pass\n    \n  y", "def f():\n    '''doc'''\n    return 1", "def f():\n  x = 1\n    y = 2",
    "while True:\n    pass\n        break", "try:\nexcept: pass", "if True:\n    x = (\n1)\n",
    "if True:\n    x = 1 \\\n+ 2\n", "x = [\n    1,\n  2,\n        3]\n",
    # brackets
    "x = (1, 2\ny = 3", "x = [1, 2,\n", "foo(a, b\n\nbar()", "x = {'a': [1, 2}", "print('a'))",
    "x = ((1 + 2) * 3))", "def f(:\n    pass", "x = f(a, b, c", "x = [(1, 2], 3]", "(1, 2, 3]",
    "d = {\n  'a': 1,\n  'b': 2\n", "s = '''\nabc", "s = \"\"\"abc\n\ndef", "x = 'abc\ny = 2",
    "x = \"it's\ny = 1", "f(\"abc)", "print(f\"{x\")", "print(f'{x!r:>{w}')", "f'{x:{y}'",
    # common model mistakes
    "if x == 1\n    print(x)", "for i in range(10)\n    print(i)", "while x > 0\n    x -= 1",
    "def f()\n    return 1", "class C\n    pass", "else\n    pass", "try\n    pass\nexcept:\n    pass",
    "with open(f) as g\n    pass", "elif x:\n    pass", "x = = 1", "x === 1", "x =! 1", "x => 1", "x = 1 +* 2",
    "print(\"a\" \"b\" c)", "x = [1 2 3]", "x = {'a' 1}", "x = {'a': 1 'b': 2}", "f(a b=1)", "f(a=1 b=2)",
    "import os.path as", "from os import path as", "import os,", "return x y", "x = lambda: yield",
    "def f(x):\n    return x +\n", "x = 5 if y", "x = 5 if y else", "assert", "del", "raise from e",
    "global", "nonlocal", "x = not", "x = a not b", "x = a is not", "x = await", "f(*)", "f(**)",
    "a[1:2:3:4]", "a[]", "a.1", "a.'b'", "1 = 2", "x.1 = 2", "x = 1 2", "x = 'a' 'b' 1", "f(x) = 1",
    "f'{x}' = 2", "x + y = 3", "-x = 3", "(x, y + 1) = 3", "[x, y + 1] = 3", "x, y + 1 = 3",
    "x = y + 1 = 3", "a.b, c() = 1, 2", "for x, f() in y: pass", "with x as (a, f()): pass",
    "del f(), x", "del (x + 1)", "del [x], (f())", "x += y += 1", "x, y += 1", "x: int, = 1",
    "lambda x: (yield x)", "def f(*, a, *, b): pass", "def f(a, **k, **j): pass", "def f(**k, /): pass",
    "def f(a, /, /): pass", "def f(*, /): pass", "def f(a=1, /, b): pass", "def f(a, b=1, /, c): pass",
    "def f(a: int = 1, b: str): pass", "lambda a=1, b: 0", "lambda *a, *b: 0", "lambda **k, a: 0",
    "lambda a, /, /: 0", "lambda *a=1: 0", "lambda **k=1: 0", "lambda a=: 0", "lambda (a, b): 0",
    "def f(*, **k): pass", "lambda *, **k: 0", "def f(a, *, ): pass", "lambda *,: 0",
    "def f(a=1, *args, b): pass", "def f(*args, b=1, c): pass", "def f(a, *args, b, **kwargs): pass",
    "class C(x for x in y): pass", "class C(*a, **k, c): pass", "class C(a=1, b): pass",
    "@\ndef f(): pass", "@d\nx = 1", "@d def f(): pass", "@d\n\ndef f(): pass", "@d\n@\ndef f(): pass",
    "async x = 1", "async def f(): await", "def f():\n    async = 1", "await = 1", "x = async",
    "match x:\n    case 1:\n        pass\n    case:\n        pass", "match x:\n    case (1, 2:\n        pass",
    "match x:\n    case {1: }: pass", "match x:\n    case *a: pass", "match x:\n    case a.b(: pass",
    "match x:\n    case 1 if: pass", "match x:\n    pass", "match x:\n    case -a: pass", "match x:\n    case a + 1j: pass",
    "match x:\n    case 1 | _ | 2: pass", "match x:\n    case (a | b) as c: pass", "match x:\n    case [a, *b, *c]: pass",
    "match x:\n    case a if a > 0:\n        pass\n    case b:\n        pass", "match x:\n    case {1: a, 1.0: b}: pass",
    "match x:\n    case {True: a, 1: b}: pass", "match x:\n    case {'a': a, 'b': a}: pass", "match x:\n    case C(a, b=a): pass",
    "match x:\n    case [a] | (b,): pass", "match x:\n    case [a] | [a]: pass", "match x:\n    case (a, b) | (b, a): pass",
    "match x:\n    case C(__debug__=1): pass", "match x:\n    case [*__debug__]: pass", "match x:\n    case 1 as __debug__: pass",
    "match x:\n    case {**a, **b}: pass", "match x:\n    case C(**a): pass", "match x:\n    case C(*a): pass",
    "match x:\n    case 'a' f'b': pass", "match x:\n    case b'a' 'b': pass", "match x:\n    case 1 + 2: pass",
    "match x:\n    case -1 + 2j: pass", "match x:\n    case 1.5 - 2.5j: pass", "match x:\n    case -0j: pass",
    # f-strings
    "f'{x!}'", "f'{x!:}'", "f'{x:{}}'", "f'{x=!}'", "f'{x!r!s}'", "f'{x!a=}'", "f'{x}}'", "f'{{x}'",
    "f'{x:{y:{z:{w}}}}'", "f'{'", "f'}'", "f'{ !r}'", "f'{x:}}'", "f'{x y z}'", "f'{x,}'", "f'{*x}'",
    "f'{x:{*y}}'", "f'{lambda: 1}'", "f'{lambda x, y: 1}'", "f'{yield x}'", "f'{await x}'",
    "f'{x:=1}'", "f'{(x:=1)}'", "f'{x=:=1}'", "f'{\\'a\\'}'", "f'{#}'", "f'{x#}'", "f'''{x\n#}'''",
    "f'{x\n!r}'", "f'{\n}'", "f'{x!\nr}'", "f'{x:\n}'", "f'''{x:\n}'''", "f'{x:a}b}'", "f'{x:a{}'",
    "f'{x!r:{y!r}}'", "f'{x:{y=}}'", "f'{x:{y:}}'", "f'{x!}y'", "f'{x!ab}'", "f'{x!1}'", "f'{x:{y}:{z}}'",
    "f'{a[\"b\"]}'", "f'{a[\\'b\\']}'", "f\"{x:{'a'}}\"", "f'{\"\\n\"}'", "f'{x!r}\\'", "f'\\{x}'",
    "f'{x}\\N{BULLET}{y}'", "f'\\N{foo}{x}'", "f'\\N{BULLET'", "f'{x}' f'{'", "f'a' 'b' f'{x'",
    "f'{f'{f'{f'{f'{1}'}'}'}'}'", "f'{x:{f\"{y}\"}}'", "f'{x:{y:{z}}}'", "fr'{x}\\'", "rf'\\{{x}}'",
    "f'{x:{y}}}'", "f'{1:2:3}'", "f'{x = !r:10}'", "f'{x=}{y=}'", "f'{ x=}'", "f'{x =}'", "f'{x= }'",
    "f'{x.y=}'", "f'{x[0]=!s}'", "f'{x(1)=:>5}'", "f'{ x + 1 = }'", "f'{x\n=}'", "f'''{\nx\n=\n!r}'''",
    # literals
    "0b", "0o", "0x_", "0x_1", "0b_1", "0o_7", "0_", "0_0_", "1__2", "1_e5", "1e_5", "1.e5", "1._5",
    "1_.5", "1.5_", "1e5_", "1j_", "0777", "0009", "00.5", "09.5", "09e1", "09j", "0x1.5", "0b1.0",
    "1.5e", "1.5e+", "1.5e-x", "1ex", "1e1.5", "0xfor", "0o7or 1", "1in x", "1is x", "1and x", "1or x",
    "1not in x", "1if x else y", "1else", "1 if 1else 2", "0b1and 1", "0o1if 1 else 2", "1jif x else y",
    "1.0for x in y", "[1for x in y]", "1_000j", "0_7", "1__", "1.__class__", "1..real", "1 ..real",
    "'\\x'", "'\\x0'", "'\\x0g'", "'\\u'", "'\\u123'", "'\\u123g'", "'\\U1234567'", "'\\U12345678'",
    "'\\N{}'", "'\\N{ BULLET}'", "'\\N{bullet}'", "'\\N{Bullet}'", "'\\N{LATIN SMALL LETTER A WITH DIAERESIS}'",
    "'\\N{NULL}'", "'\\N{BYTE ORDER MARK}'", "'\\N{CJK UNIFIED IDEOGRAPH-20000}'", "'\\N{CJK UNIFIED IDEOGRAPH-2EBF0}'",
    "'\\N{HANGUL SYLLABLE GA}'", "'\\N{HANGUL SYLLABLE GGWAELH}'", "'\\N{HANGUL SYLLABLE X}'",
    "'\\N{TANGUT IDEOGRAPH-17000}'", "'\\N{KHITAN SMALL SCRIPT CHARACTER-18B00}'", "'\\N{NUSHU CHARACTER-1B170}'",
    "'\\N{VARIATION SELECTOR-17}'", "'\\N{CJK COMPATIBILITY IDEOGRAPH-2F800}'", "'\\N{EGYPTIAN HIEROGLYPH A001}'",
    "'é\\N{foo}'", "'éé\\x4'", "'\\é'", "'\\\\é'", "b'\\x'", "b'\\x0'", "b'\\u1234'", "b'\\N{BULLET}'",
    "b'\\400'", "'\\400'", "'\\0'", "'\\08'", "'\\8'", "'\\9'", "b'\\8'", "'abc\\\n\\\ndef'", "r'\\\n'",
    "b'\\\n'", "br'abc\\\n'", "u'\\N{BULLET}'", "ur'x'", "bu'x'", "fb'x'", "bf'x'", "uf'x'", "fu'x'",
    "rbf'x'", "'''a''b'''", "'''a'''''", "''''a'''", "'\\''", "'a\\\\'b'", "\"\"\"\"\"\"\"", "'''\\''''",
    # identifiers
    "é = 1", "ñandú = 2", "日本 = 3", "x\u00b7y = 1", "\u2118 = 1", "ℌ = 1", "ﬁ = 1", "𝐱 = 1", "ᵢ = 1",
    "x\u0300 = 1", "\u0300x = 1", "x€ = 1", "€ = 1", "x = 1 ≠ 2", "x = “a”", "x = ‘a’", "x = 1\u200b",
    "print(1, 2\u3000)", "a\u00ad = 1", "__class__ = 1", "_1 = 1", "Ωmega = 1",
    # statements
    "x = 1; ; y = 2", ";", "x = 1;;", "pass pass", "if x: pass else: pass", "if x: pass; else: pass",
    "if x:\n    pass\nelse if y:\n    pass", "while x: pass else: pass", "try: pass\nexcept: pass",
    "try: pass\nfinally: pass", "for x in y: break\nelse: continue", "with a, b as c, d: pass",
    "with (a as b) as c: pass", "with (a, b as c): pass", "with (a, (b as c)): pass", "with (yield x): pass",
    "with a as (b): pass", "with a as [b, c]: pass", "with a as *b: pass", "with a as b, *c: pass",
    "import a.b.c", "import a as b as c", "import a.b as c.d", "from a import b.c", "from a import (b)",
    "from a import ()", "from a import (*)", "from . import (a,)", "from .a.b import *", "from a import b, *",
    "from __future__ import annotations\nx: (yield) = 1", "from __future__ import annotations\ndef f(x: (yield)): pass",
    "from __future__ import annotations, division", "'''doc'''\nfrom __future__ import annotations",
    "from __future__ import (annotations)", "from __future__ import annotations as a",
    "import __future__\nfrom __future__ import annotations", "from __future__ import *",
    "global x, x", "def f():\n    global x, x", "def f():\n    nonlocal x, x\n    x = 1",
    "def f():\n    x = 1\n    def g():\n        nonlocal x, x", "def f(x):\n    def g():\n        nonlocal x",
    "def f():\n    def g():\n        global x\n        def h():\n            nonlocal x",
    "x = 1\ndef f():\n    global x\n    x = 2\n    def g():\n        nonlocal x",
    "class C:\n    x = 1\n    def f(self):\n        nonlocal x", "def f():\n    x = 1\n    class C:\n        nonlocal x",
    "def f():\n    x = 1\n    class C:\n        def g(self):\n            nonlocal x", "def f():\n    [x for x in y]\n    nonlocal x",
    "def f():\n    x: int = 1\n    nonlocal x", "def f():\n    def g(): pass\n    nonlocal g", "def f():\n    import x\n    global x",
    "def f():\n    for x in y: pass\n    global x", "def f():\n    del x\n    global x", "def f():\n    x += 1\n    global x",
    "def f():\n    (x := 1)\n    global x", "def f():\n    with a as x: pass\n    global x", "def f():\n    try: pass\n    except E as x: pass\n    global x",
    "def f(*, x):\n    global x", "def f(*x):\n    global x", "def f(**x):\n    nonlocal x", "lambda x: [x for y in x]",
    "def f():\n    global __class__", "class C:\n    global x\n    x = 1", "class C:\n    x = 1\n    global x",
    "def f():\n    global x\n    [x := 1 for y in z]", "def f():\n    [x := 1 for y in z]\n    global x",
    "def f():\n    nonlocal x\n    [x := 1 for y in z]", "[x := 1 for y in z]", "[[x := 1 for y in z] for w in v]",
    "[x for x in y if [x := 1 for z in w]]", "[y := x for x in z if (y := 1)]", "[(x, y) for x in a for y in (x := b)]",
    "[x for x in y for y in (z := w)]", "{(k := 1): v for k, v in d}", "{k: (v := 1) for k, v in d}", "[(y := 1) for x in y if y]",
    "def f():\n    class C:\n        [(y := 1) for x in z]", "class C:\n    [x for x in y]", "class C:\n    x = [y for y in range(3)]",
    "type X = [(y := 1) for x in z]", "def f[T](x=[(y := 1) for z in w]): pass", "def f[T: [(y := 1) for z in w]](): pass",
    "type X[T] = (yield)", "type X = await x", "type X = (x := 1)", "def f[T](x: (x := 1)): pass", "def f[T]() -> (yield): pass",
    "class C[T](x := 1): pass", "class C[T](await x): pass", "def f[T: (x := 1)](): pass", "def f[T: await x](): pass",
    "def f[T, *T](): pass", "def f[T, **T](): pass", "def f[T](T): pass", "def f[T](): T = 1", "class C[T]:\n    T = 1",
    "def f():\n    type X = int\n    nonlocal X", "class C[T]:\n    def f(self):\n        nonlocal T",
    "def f[__debug__](): pass", "type __debug__ = int", "class __debug__: pass", "def f(*__debug__): pass",
    "lambda __debug__: 0", "def f(*, __debug__): pass", "try:\n    pass\nexcept E as __debug__:\n    pass",
    "__debug__ += 1", "__debug__: int", "__debug__: int = 1", "x.__debug__: int", "x.__debug__ += 1", "del x.__debug__",
    "(__debug__ := 1)", "[__debug__ for __debug__ in x]", "for x, __debug__ in y: pass", "with a as (b, __debug__): pass",
    "import a as __debug__", "import __debug__.x", "from . import __debug__", "print(__debug__)", "x = __debug__",
    "f(**{'__debug__': 1})", "class C(__debug__=1): pass", "__debug__", "del (__debug__, x)",
    "def f():\n    yield\n    return 1", "async def f():\n    yield\n    return", "async def f():\n    return (yield)",
    "async def f():\n    await (yield)", "async def f():\n    [x async for x in y]", "async def f():\n    (x async for x in y)",
    "async def f():\n    [await x for x in y]", "async def f():\n    lambda: await x", "async def f():\n    def g():\n        await x",
    "async def f():\n    [[await z for z in x] for x in y]", "def f():\n    (await x for x in y)", "(await x for x in y)",
    "def f():\n    [x for x in await y]", "async def f():\n    yield from []", "def f():\n    (yield from x for y in z)",
    "class C:\n    (yield)", "class C:\n    await x", "class C:\n    [await x for x in y]", "lambda: await x",
    "lambda: [x async for x in y]", "lambda: (x async for x in y)", "async def f():\n    async with a: pass",
    "async def f():\n    class C:\n        async with a: pass", "async def f():\n    [x for x in y async for z in w]",
    "def f():\n    [x for x in y async for z in w]", "async def f():\n    return [x async for x in y]",
    "for x in y:\n    try:\n        break\n    finally:\n        continue", "for x in y:\n    with a:\n        break",
    "for x in y:\n    class C:\n        break", "while x:\n    lambda: (yield)", "while x:\n    def f():\n        continue",
    "for x in y:\n    pass\nelse:\n    for z in w:\n        break", "try:\n    break\nexcept:\n    pass",
    "while True:\n    try:\n        pass\n    except:\n        break", "while True:\n    match x:\n        case 1:\n            break",
    "print(*a)", "print(*a, *b)", "x = [*a]", "x = (*a,)", "x = {*a}", "x = *a,", "x = *a, *b", "return *a",
    "def f():\n    return *a", "def f():\n    return *a, b", "def f():\n    yield *a", "def f():\n    yield *a, b",
    "for x in *a: pass", "for x in *a, b: pass", "x[*a]", "x[*a] = 1", "x[*a, b] = 1", "del x[*a]",
    "*a, b = c", "a, (*b, c) = d", "(*a, *b) = c", "[*a, (*b, *c)] = d", "*a, = b", "[*a] = b", "[*[*a]] = b",
    "((*a)) = b", "*(a, b) = c", "*(a, b), = c", "*[a, b], = c", "for *a in b: pass", "for (*a,) in b: pass",
    "with a as *b: pass", "with a as (*b,): pass", "f(**a, **b)", "f(*a, *b)", "f(a, *b, c, *d, e=1, **f, g=2)",
    "f(x=1, x=1)", "f(x=1, **k, x=2)", "f(x=1, *a, x=2)", "class C(a, a): pass", "class C(x=1, **k): pass",
    "f(a)(b=1, b=2)", "f(**k)(b=1, **k, b=2)", "try:\n    pass\nexcept:\n    pass\nexcept:\n    pass",
    "try:\n    pass\nexcept:\n    pass\nelse:\n    pass", "try:\n    pass\nexcept E:\n    pass\nexcept:\n    pass\nelse:\n    pass",
    "try:\n    pass\nexcept* E:\n    pass\nexcept*:\n    pass", "try:\n    pass\nexcept*:\n    pass", "try:\n    pass\nexcept *E:\n    pass",
    "try:\n    pass\nexcept* E:\n    break", "for x in y:\n    try:\n        pass\n    except* E:\n        break",
    "for x in y:\n    try:\n        pass\n    except* E:\n        continue", "def f():\n    try:\n        pass\n    except* E:\n        return",
    # deep nesting
    "x = " + "(" * 199 + "1" + ")" * 199, "x = " + "(" * 200 + "1" + ")" * 200, "x = " + "[" * 201 + "]" * 201,
    "x = " + "-" * 500 + "1", "x = " + " + ".join(["a"] * 500), "x = " + "a." * 500 + "b",
    "x = " + "f(" * 100 + ")" * 100, "x = " + "not " * 300 + "y", "x = " + "lambda: " * 100 + "1",
    "".join(" " * i + "if x:\n" for i in range(99)) + " " * 99 + "pass",
    "".join(" " * i + "if x:\n" for i in range(100)) + " " * 100 + "pass",
    "".join(" " * i + "for x in y:\n" for i in range(20)) + " " * 20 + "pass",
    "".join(" " * i + "for x in y:\n" for i in range(21)) + " " * 21 + "pass",
    "".join(" " * i + "try:\n" for i in range(10)) + " " * 10 + "pass\n" + "".join(" " * i + "finally:\n" + " " * (i + 1) + "pass\n" for i in range(9, -1, -1)),
    "".join(" " * i + "with a:\n" for i in range(21)) + " " * 21 + "pass",
    "x = " + "f'{" * 3 + "x" + "}'" * 3, "x = 1" + " if y else 1" * 100,
    "x = " + "1 + " * 3000 + "1", "x = " + "-" * 3000 + "1", "x = " + "a." * 3000 + "b",
]

# Typical mistakes in model-written cells.
EXTRA += [
    "results = []\nfor r in rows:\n    results.append(r['x']\nprint(results)",
    "data = json.loads(text\nprint(data)", "print(f\"Total: {total:.2f}\"", "print(f'{x['a']}')",
    "print(f\"{x[\"a\"]}\")", "print(f'{x[\"a\"]!r:>10}')", "s = f'{'nested'}'", "s = f'{f\"{1}\"}'",
    "if len(x) > 0\n    print(x)", "for k, v in d.items()\n    print(k)", "def helper(x)\n    return x",
    "try:\n    x = 1\nexcept Exception as e\n    print(e)", "while True\n    break",
    "if x:\n    pass\nelse if y:\n    pass", "if x:\npass", "def f():\n\"\"\"doc\"\"\"\n    return 1",
    "def f():\n    x = 1\n     y = 2", "def f():\n    x = 1\n   y = 2", "    x = 1\ny = 2",
    "x = [1, 2, 3\ny = 4\nz = 5", "x = {'a': 1,\n     'b': 2\nprint(x)", "print('hello world)",
    "print(\"it's\")", "print('it's')", "s = 'line one\nline two'", "s = \"\"\"unclosed\n\nmore",
    "x = 1 +", "x = (1 +\n     2", "result = llm_query(prompt, max_tokens=100", "items = [x for x in range(10) if x % 2 == 0",
    "print x", "print 'a', 'b'", "exec 'x = 1'", "print >>sys.stderr, 'x'", "raise ValueError, 'x'",
    "except ValueError, e:\n    pass", "try:\n    pass\nexcept ValueError, e:\n    pass", "x = 0777", "x = 10L", "x = ur'a'",
    "def f(self, x=[]):\n    return x", "lambda x: return x", "x = yield from", "async def f():\n    await",
    "from .module import", "import numpy as", "from x import a b", "import a.b.", "x = a.", "x = a.b.",
    "x = [1, 2, 3,,]", "f(a,,b)", "x = (,)", "x = [,]", "d = {1: 2,, 3: 4}", "x = 1,,", "f(,a)",
    "x == 1 = y", "x = y == z = 1", "if (x = 1):\n    pass", "while (line = f.readline()):\n    pass",
    "if x := 1:\n    pass", "print(x := 1)", "[y := f(x), y**2]", "def f(x := 1): pass", "f(x := 1, y)",
    "class A:\ndef f(self): pass", "class A:\n    def f(self):\n    pass", "class A(object:\n    pass",
    "@property\n    def f(self): pass", "with open('f') as f, open('g') as g\n    pass", "assert x, ",
    "x = {**a, **b, }", "x = {*a, *b, }", "x = [*a, *b, ]", "f(*a, *b, )", "f(**a, **b, )", "f(*)",
    "x = a if b else", "x = a if else b", "x = if a else b", "x = not", "x = a and", "x = or b", "x = a <",
    "x = a not", "x = a is", "x = a in", "x = -", "x = ~", "x = a @", "x = a ** ", "x = a //", "x = a[",
    "x = a[1", "x = a[1:", "x = a[1:2", "x = a(", "x = a(1", "x = a(1,", "x = a.b(", "x = {", "x = {1",
    "x = {1:", "x = {1: 2", "x = [", "x = [1", "x = (1", "x = ((", "x = '''", "x = f'''{", "x = f'{'",
    "match command:\n    case 'go' direction:\n        pass", "match x:\n    case [1, 2:\n        pass",
    "match x:\n case 1:\n  pass\n case 2:\n pass", "match x:\n    case 1 if x > 0:\n    pass",
    "for i in range(10):\n    if i == 5:\n        break\n    print(i)\nelse\n    print('done')",
    "total = 0\nfor row in data:\n    total += row['amount']\n  print(total)", "def f():\n    return\n        x",
    "x = 1\n\tif x:\n\t\tpass", "if True:\n    x = 1\n\ty = 2", "if True:\n\tx = 1\n    y = 2",
    "if True:\n        x = 1\n\ty = 2", "if True:\n\t\tx = 1\n                y = 2", "\tif True:\n\t\tpass",
    "if True:\n  \t  x = 1\n  \t  y = 2", "if True:\n \tx = 1\n\t y = 2",
]
