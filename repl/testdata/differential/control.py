# Control flow: loops with else, walrus, match, unpacking, chained comparisons, del, try/finally, with.
# ---- for_else
for n in [3, 5, 7]:
    if n % 2 == 0:
        print("found even", n)
        break
else:
    print("no even number")
for n in [3, 4, 7]:
    if n % 2 == 0:
        print("found even", n)
        break
else:
    print("no even number")
# ---- while_else_and_continue
i = 0
while i < 10:
    i += 1
    if i % 3:
        continue
    print("multiple of 3:", i)
else:
    print("loop ended normally at", i)
# ---- nested_loop_break
found = None
for i in range(1, 10):
    for j in range(1, 10):
        if i * j == 42:
            found = (i, j)
            break
    if found:
        break
print(found)
# ---- walrus_operator
data = [1, 5, 12, 7, 30]
if (n := len(data)) > 3:
    print(f"list is long ({n} elements)")
vals = iter(data)
while (v := next(vals, None)) is not None:
    if v > 10:
        print("first > 10:", v)
        break
print([m for x in data if (m := x % 5) != 0])
# ---- match_literals
def http(status):
    match status:
        case 200 | 201:
            return "ok"
        case 404:
            return "not found"
        case 500:
            return "server error"
        case _:
            return "other"
print([http(s) for s in (200, 201, 404, 500, 302)])
# ---- match_sequences
def describe(cmd):
    match cmd.split():
        case []:
            return "empty"
        case ["go", direction]:
            return f"going {direction}"
        case ["drop", *items] if items:
            return f"dropping {', '.join(items)}"
        case ["quit" | "exit"]:
            return "bye"
        case [first, *rest]:
            return f"unknown {first!r} with {len(rest)} args"
print(describe("go north"), describe("drop a b c"), describe("exit"), describe(""), describe("dance x y"), describe("drop"))
# ---- match_mappings_and_classes
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
def where(obj):
    match obj:
        case {"type": "click", "pos": (x, y)}:
            return f"click at {x},{y}"
        case {"type": "key", **rest}:
            return f"key with {sorted(rest)}"
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0, y=y):
            return f"on y axis at {y}"
        case Point(x=x, y=y) if x == y:
            return "diagonal"
        case Point():
            return "point"
        case int(n) | float(n):
            return f"number {n}"
        case str() as s:
            return f"string {s!r}"
        case _:
            return "unknown"
for o in [{"type": "click", "pos": (3, 4)}, {"type": "key", "code": 65, "mod": "shift"}, Point(0, 0), Point(0, 5), Point(2, 2), Point(1, 2), 7, 2.5, "hi", None]:
    print(where(o))
# ---- match_capture_and_guard
def sign(x):
    match x:
        case 0:
            return "zero"
        case n if n < 0:
            return "negative"
        case n:
            return f"positive {n}"
print(sign(0), sign(-3), sign(8))
# ---- match_value_pattern_dotted
from enum import Enum
class Op(Enum):
    ADD = "+"
    SUB = "-"
def calc(op, a, b):
    match op:
        case Op.ADD:
            return a + b
        case Op.SUB:
            return a - b
print(calc(Op.ADD, 2, 3), calc(Op("-"), 2, 3))
# ---- star_unpacking
first, *middle, last = [1, 2, 3, 4, 5]
print(first, middle, last)
*init, tail = "abc"
print(init, tail)
head, *rest = (1,)
print(head, rest)
a, (b, *c), d = 1, [2, 3, 4], 5
print(a, b, c, d)
# ---- star_in_literals_and_calls
xs = [1, 2]
ys = (3, 4)
print([*xs, *ys], (*xs, 0), {*xs, *ys} == {1, 2, 3, 4}, {**{"a": 1}, "b": 2})
print(*xs, *ys)
print(max(*xs, *ys), [*range(3), *"ab"])
# ---- unpack_wrong_count
a, b = [1, 2, 3]
# ---- unpack_too_few
a, b, c = (1, 2)
# ---- unpack_non_iterable
a, b = 5
# ---- swap_and_multiple_assignment
a, b = 1, 2
a, b = b, a
print(a, b)
x = y = z = []
x.append(1)
print(y, z, x is z)
i, j = j, i = 3, 4
print(i, j)
# ---- chained_comparisons
x = 5
print(1 < x < 10, 10 > x > 6, x == 5 < 6, 1 < 3 > 2, "a" < "b" < "c")
print(1 < 2 == 2 < 3, (1 < 2) == True, 3 > 2 > 1 > 0)
# ---- is_and_identity
a = [1]
b = a
c = [1]
print(a is b, a is c, a is not c, None is None, type(None).__name__)
x = None
print(x is None, x == None, not x)
# ---- conditional_expression_nesting
for n in [-5, 0, 5, 50]:
    print(n, "neg" if n < 0 else "zero" if n == 0 else "small" if n < 10 else "big")
# ---- try_except_else_finally
def risky(x):
    try:
        r = 10 / x
    except ZeroDivisionError:
        print("div by zero")
        return "error"
    else:
        print("no error")
        return r
    finally:
        print("finally", x)
print(risky(2))
print(risky(0))
# ---- finally_overrides_return
def f():
    try:
        return "try"
    finally:
        print("cleanup runs")
def g():
    try:
        return "try"
    finally:
        return "finally"
print(f(), g())
# ---- except_multiple_and_as
def parse(v):
    try:
        return int(v)
    except (ValueError, TypeError) as e:
        return f"{type(e).__name__}: {e}"
print(parse("12"), parse("x"), parse(None), parse([1]))
# ---- exception_variable_cleared
try:
    1 / 0
except ZeroDivisionError as err:
    msg = str(err)
print(msg)
print("err" in dir())
# ---- raise_from
class ConfigError(Exception):
    pass
def load(d):
    try:
        return d["port"]
    except KeyError as e:
        raise ConfigError("port missing") from e
try:
    load({})
except ConfigError as e:
    print(e, type(e.__cause__).__name__, e.__cause__, e.__suppress_context__)
# ---- raise_from_uncaught
try:
    int("x")
except ValueError as e:
    raise RuntimeError("conversion failed") from e
# ---- raise_from_none
try:
    {}["k"]
except KeyError:
    try:
        raise ValueError("clean") from None
    except ValueError as e:
        print(e.__cause__, e.__suppress_context__, type(e.__context__).__name__)
# ---- reraise_bare
def f():
    try:
        [][1]
    except IndexError:
        print("logging and re-raising")
        raise
f()
# ---- assert_statement
x = 5
assert x == 5, "x should be 5"
print("passed")
assert x > 10, f"x is too small: {x}"
# ---- assert_without_message
assert 1 + 1 == 3
# ---- with_statement_multiple
class CM:
    def __init__(self, n):
        self.n = n
    def __enter__(self):
        print("enter", self.n)
        return self.n
    def __exit__(self, *a):
        print("exit", self.n)
        return False
with CM(1) as a, CM(2) as b:
    print("body", a + b)
# ---- with_exception_exit_order
class CM:
    def __init__(self, n):
        self.n = n
    def __enter__(self):
        return self
    def __exit__(self, t, v, tb):
        print("exit", self.n, t.__name__ if t else None, v)
        return False
try:
    with CM("outer"), CM("inner"):
        raise ValueError("bad")
except ValueError as e:
    print("caught", e)
# ---- contextlib_contextmanager
from contextlib import contextmanager, suppress
@contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    finally:
        print(f"</{name}>")
with tag("p") as t:
    print("content", t)
with suppress(KeyError):
    {}["x"]
    print("not printed")
print("suppressed")
# ---- del_and_name_error
x = 1
del x
print(x)
# ---- slice_assignment_variants
s = list("abcdefg")
s[1:3] = "XY"
s[-2:] = []
s[:0] = ["<"]
s[len(s):] = [">"]
print("".join(s))
s[::2] = "1234"
print(s)
# ---- loop_variable_after_loop
for i in range(3):
    pass
print(i)
for k in []:
    pass
print("k" in dir())
# ---- while_true_break_counter
n = 27
steps = 0
while True:
    if n == 1:
        break
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print(steps)
# ---- pass_and_ellipsis
def todo():
    ...
class Empty:
    pass
print(todo(), Empty.__name__, ..., type(...).__name__)
# ---- global_in_loop_accumulation
counts = {"ok": 0, "fail": 0}
for code in [200, 500, 200, 404, 200]:
    counts["ok" if code < 400 else "fail"] += 1
print(counts)
# ---- truthiness_in_conditions
for v in [0, 1, "", "a", [], [0], None, 0.0, {}, set(), range(0), range(1)]:
    print(repr(v), "truthy" if v else "falsy")
# ---- augmented_assignment_containers
xs = [1]
ys = xs
xs += [2]
print(xs, ys, xs is ys)
t = (1,)
u = t
t += (2,)
print(t, u, t is u)
s = "a"
s *= 3
print(s)
d = {"n": 0}
d["n"] += 5
print(d)
# ---- try_in_loop_with_continue
results = []
for raw in ["1", "x", "3", "", "5"]:
    try:
        v = int(raw)
    except ValueError:
        results.append(None)
        continue
    finally:
        results.append("|")
    results.append(v)
print(results)
# ---- break_in_finally_loop
for i in range(3):
    try:
        if i == 1:
            raise ValueError
    except ValueError:
        print("caught at", i)
        break
    finally:
        print("finally", i)
# ---- match_or_with_as
def kind(v):
    match v:
        case (1 | 2 | 3) as small:
            return f"small {small}"
        case [x, y] | (x, y, _):
            return f"pair-ish {x},{y}"
        case {"k": [_, *tail]}:
            return f"tail {tail}"
        case _:
            return "other"
print(kind(2), kind([4, 5]), kind((6, 7, 8)), kind({"k": [1, 2, 3]}), kind("xy"))
# ---- exception_groups_except_star
try:
    raise ExceptionGroup("many", [ValueError("v"), TypeError("t"), ValueError("w")])
except* ValueError as eg:
    print("values:", [str(e) for e in eg.exceptions])
except* TypeError as eg:
    print("types:", [str(e) for e in eg.exceptions])
