# Core audit: evaluation order and statement semantics. Operands, targets,
# augmented assignment, chained comparisons, short-circuit values,
# precedence, literals, imports.
# ---- operand_evaluation_left_to_right
log = []
def v(x):
    log.append(x)
    return x
r = v(1) + v(2) * v(3) - v(4) ** v(5)
print(r, log)
log.clear()
d = {v("k1"): v("v1"), v("k2"): v("v2")}
print(log)
# ---- call_arguments_evaluated_before_call
log = []
def v(x):
    log.append(getattr(x, "__name__", x))
    return x
def f(*a):
    log.append("call")
v(f)(v(1), v(2))
print(log)
# ---- subscript_assignment_order
log = []
def v(x):
    log.append(x)
    return x
store = {}
v(store)[v("key")] = v("value")
print(log, store)
# ---- augmented_subscript_evaluated_once
log = []
def idx():
    log.append("idx")
    return 0
def obj():
    log.append("obj")
    return data
data = [10]
obj()[idx()] += 5
print(data, log)
# ---- augmented_attribute_evaluated_once
class O:
    n = 0
calls = []
def get():
    calls.append(1)
    return o
o = O()
get().n += 3
print(o.n, len(calls))
# ---- chained_comparison_middle_evaluated_once
calls = []
def mid():
    calls.append("mid")
    return 5
print(1 < mid() < 10, calls)
calls.clear()
print(10 < mid() < 20, calls)
# ---- chained_comparison_short_circuits
calls = []
def f(x):
    calls.append(x)
    return x
print(f(3) < f(2) < f(1), calls)
# ---- and_or_return_operands
print(0 or "x", "" or [] or 0, 1 and 2, 0 and 1 / 0, [] or {}, "a" and "" and 1 / 0, None or None, not "", not [0])
# ---- conditional_expression_lazy
def boom():
    raise RuntimeError("evaluated")
print(1 if True else boom(), boom() if False else "safe")
# ---- precedence_corners
print(-2 ** 2, (-2) ** 2, 2 ** -1, 2 ** 3 ** 2, not 1 == 2, -3 % 5, -(3 % 5), 1 + 2 << 3, 1 | 2 ^ 3 & 4, ~1 + 1)
print(not 1 in [2], (not 1) in [False], 2 * 3 // 4, 2 * (3 // 4), 7 - 3 - 2, 100 / 10 / 5, 2 ** 2 ** -1)
# ---- is_not_and_not_in
print(1 is not None, None is not None, 3 not in [1, 2], not 3 in [3])
# ---- multiple_target_assignment_order
log = []
class T:
    def __setitem__(self, k, v):
        log.append((k, v))
t = T()
t["a"] = t["b"] = 1
print(log)
# ---- unpacking_assignment_targets_order
log = []
class T:
    def __setitem__(self, k, v):
        log.append(k)
t = T()
t[1], t[2], t[3] = "abc"
print(log)
# ---- starred_assignment_types
a, *b = (1, 2, 3)
*c, d = "xyz"
print(b, type(b).__name__, c, d)
[e, f] = 1, 2
(g, h), i = [3, 4], 5
print(e, f, g, h, i)
# ---- augmented_assignment_on_tuple_element_list
t = ([1],)
try:
    t[0] += [2]
except TypeError as e:
    print(e)
print(t)
# ---- augmented_ops_all
x = 10
x += 1; x -= 2; x *= 3; x //= 2; x %= 8; x **= 2; x <<= 1; x >>= 2; x |= 1; x &= 6; x ^= 3
print(x)
s = "a"
s *= 3
s += "b"
print(s)
# ---- while_else_with_continue_and_break
i = 0
while i < 3:
    i += 1
    if i == 2:
        continue
else:
    print("while completed", i)
i = 0
while True:
    i += 1
    if i > 2:
        break
print("broke at", i)
# ---- for_else_over_empty
for _ in []:
    pass
else:
    print("else on empty")
# ---- nested_loops_break_only_inner
out = []
for i in range(3):
    for j in range(3):
        if j == 1:
            break
        out.append((i, j))
print(out)
# ---- loop_over_list_being_modified
s = [1, 2, 3, 4]
for x in s:
    if x == 2:
        s.remove(x)
print(s)
s = [1, 2]
for x in s:
    if len(s) < 5:
        s.append(x * 10)
print(s)
# ---- del_in_loop_over_dict_copy
d = {1: "a", 2: "b", 3: "c"}
for k in list(d):
    if k % 2:
        del d[k]
print(d)
# ---- pass_ellipsis_statements
def f():
    ...
def g():
    pass
class E:
    ...
print(f(), g(), E.__name__)
# ---- import_forms
import math as m
from math import sqrt as root, pi
from collections import Counter, defaultdict as dd
import collections.abc
import os.path
print(m.floor(2.5), root(16), round(pi, 3), Counter("aab")["a"], dd(list)["x"], collections.abc.Sized.__name__, os.path.join("a", "b"))
# ---- import_star
from math import *
print(floor(1.5), ceil(1.5), "e" in dir())
# ---- import_errors
try:
    import no_such_module_xyz
except ImportError as e:
    print(type(e).__name__, e, e.name)
try:
    from math import no_such_name
except ImportError as e:
    print(type(e).__name__, str(e).split(" (")[0])
# ---- import_inside_function_is_local
def f():
    import json
    return json.dumps([1])
print(f(), "json" in globals())
# ---- numeric_literals
print(1_000_000, 0x_FF, 0o17, 0b1010, 1e3, 1E-3, 1_0.5_0, 0.5j, 00, 1., .5, 10 ** 0)
# ---- string_literal_prefixes
print(r"\d", R"\n", b"x", B"x", rb"\n", f"{1}", F"{2}", fr"\{3}", u"unicode", Rb"\t")
# ---- literal_errors_syntax
for src in ["01", "1__0", "0b2", "'abc", "0x", "1e", "'''x", "0o8", "1_", "1.e_1", "0b", "5_j"]:
    try:
        exec(src)
        print("ok?", src)
    except SyntaxError as e:
        print(repr(src), "->", e.msg)
# ---- global_in_exec_and_eval_isolation
ns = {}
exec("x = 1\ndef f():\n    global x\n    x = 2\nf()", ns)
print(ns["x"])
# ---- nonlocal_in_nested_class_method
def outer():
    count = 0
    class C:
        def inc(self):
            nonlocal count
            count += 1
            return count
    c = C()
    c.inc()
    c.inc()
    return count
print(outer())
# ---- lambda_in_default_args_and_closures
fs = {name: (lambda n=name: n.upper()) for name in ["a", "b"]}
print({k: f() for k, f in fs.items()})
# ---- assert_with_tuple_warning_free
x = 5
assert x > 0, f"x is {x}"
try:
    assert x < 0, f"x is {x}"
except AssertionError as e:
    print(e)
# ---- del_slice_and_attribute
class O:
    pass
o = O()
o.a = 1
del o.a
print(hasattr(o, "a"))
try:
    del o.a
except AttributeError as e:
    print(e)
# ---- with_statement_as_targets
class CM:
    def __enter__(self):
        return (1, 2)
    def __exit__(self, *a):
        return False
with CM() as (a, b):
    print(a, b)
d = {}
with CM() as d["k"]:
    pass
print(d)
# ---- conditional_import_and_redefinition
def f():
    return 1
def f():
    return 2
print(f())
class K:
    def m(self):
        return 1
    def m(self):
        return 2
print(K().m())
# ---- comprehension_evaluation_order_of_clauses
log = []
def it(name, n):
    log.append(name)
    return range(n)
print([(a, b) for a in it("outer", 2) for b in it("inner", 2)], log)
# ---- dict_literal_duplicate_keys_last_wins
print({"a": 1, "a": 2}, {1: "x", 1.0: "y", True: "z"}, {**{"a": 1}, "a": 3})
# ---- set_literal_duplicates_first_wins
print({1, 1.0, True}, {True, 1}, {0.0, 0, False})
# ---- return_in_loop_inside_try
def f():
    for i in range(3):
        try:
            return i
        finally:
            print("finally", i)
print(f())
# ---- integer_identity_free_equality
a = 1000
b = 999 + 1
print(a == b, [1, 2] == [1, 2], "ab" == "a" + "b")
# ---- tuple_comparison_lazy_elements
class Loud:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        print("eq", self.v)
        return self.v == o.v
    def __lt__(self, o):
        print("lt", self.v)
        return self.v < o.v
print((Loud(1), Loud(2)) < (Loud(1), Loud(3)))
# ---- list_contains_identity_shortcut
nan = float("nan")
print(nan in [nan], nan == nan, [nan] == [nan], (nan,) == (nan,), {nan: 1}.get(nan), [nan].count(nan), [nan].index(nan))
# ---- walrus_in_various_positions
if (n := len("abcd")) > 3:
    print("long", n)
print([y := 5, y ** 2], (z := 3) + z)
data = {"k": 1}
if (val := data.get("k")) is not None:
    print("got", val)
# ---- print_return_value_and_multiple_statements
r = print("x"); print(r)
a = 1; b = 2; print(a + b)
# ---- string_formatting_evaluation_once
calls = []
def f():
    calls.append(1)
    return 1
s = f"{f()}{f()!r}{f():>3}"
print(s, len(calls))
# ---- method_args_nested_and_generators
words = ["  Alpha ", "beta", " GAMMA  "]
print(",".join(w.strip().lower() for w in words))
s = "a-b-c"
print(s.replace("-".strip(), "+".join(["x", "y"]).upper(), s.count("-") - 1))
acc = []
def gen():
    for w in words:
        yield w.strip().split("a")
        acc.append(w.upper().strip())
out = []
out.extend(gen())
print(out, acc)
d = {}
for w in "the cat the hat".split():
    d[w] = d.get(w.lower(), len(w.upper())) + 1
print(d, sorted(d.items(), key=lambda kv: (kv[0].upper().count("T"), kv[1])))
l = [3, 1, 2]
print(l.index(l.pop(l.index(1) + 1)) if False else l.pop(l.index(min(l))), l)
try:
    "abc".replace("a".upper(), [].pop())
except IndexError as e:
    print("IndexError", e, "abc".split("b".strip()))
g = (x.upper() for x in "a b c".split())
print("-".join([next(g), "mid".center(7, "*"), *g]))
def inner(x):
    return "|".join(x.split(",")).replace("|".strip(), "/".strip())
print([inner(v).split("/") for v in ["1,2", "3,4,5"]])
