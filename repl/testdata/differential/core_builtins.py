# Core audit: builtins. print, sum, any/all, map/filter, iter with sentinel,
# getattr, vars, dir, globals, exec/eval, identity.
# ---- print_sep_end
print(1, 2, 3, sep="-", end="!\n")
print("a", "b", sep="")
print("no newline", end="")
print(" continued")
print(sep="x")
print()
print(None, True, 1.0, [None], sep=None, end=None)
# ---- print_file_stdout_and_stringio
import sys
import io
print("to stdout", file=sys.stdout)
buf = io.StringIO()
print("hidden", 1, file=buf, sep=",")
print(repr(buf.getvalue()))
print("x", file=None)
# ---- print_flush_and_bad_kwargs
print("flushed", flush=True)
for kw in [{"sep": 1}, {"end": 2}, {"bogus": 1}]:
    try:
        print("x", **kw)
    except TypeError as e:
        print(e)
# ---- print_stderr_not_captured
import sys
print("out")
print("stderr line from core_builtins print_stderr_not_captured (expected)", file=sys.stderr)
sys.stdout.write("written\n")
# ---- any_all_short_circuit
seen = []
def t(v):
    seen.append(v)
    return v
print(any(t(v) for v in [0, 1, 2]), seen)
seen.clear()
print(all(t(v) for v in [1, 0, 2]), seen)
print(any([]), all([]), any([0, ""]), all(["a", 1]), any(x > 5 for x in range(3)))
# ---- map_filter_zip_are_iterators
m = map(abs, [-1, -2])
print(type(m).__name__, list(m), list(m))
f = filter(None, [0, 1])
z = zip("ab", "cd")
print(type(f).__name__, type(z).__name__, iter(m) is m, list(z), list(z))
# ---- map_argument_errors
try:
    map(abs)
except TypeError as e:
    print(e)
try:
    list(map(None, [1]))
except TypeError as e:
    print(e)
try:
    filter(1, [1])
    list(filter(1, [1]))
except TypeError as e:
    print(e)
# ---- iter_sentinel_forms
import io
src = io.StringIO("l1\nl2\n\nl3\n")
print(list(iter(src.readline, "\n")))
n = [0]
def step():
    n[0] += 1
    return n[0]
print(list(iter(step, 4)))
try:
    iter(5, 1)
except TypeError as e:
    print(e)
# ---- getattr_default_and_errors
class C:
    a = 1
print(getattr(C, "a"), getattr(C, "b", None), getattr(C(), "a", 5), hasattr(C, "a"), hasattr(C, "b"))
try:
    getattr(C, "b")
except AttributeError as e:
    print(e)
try:
    getattr(C, 5)
except TypeError as e:
    print(e)
try:
    setattr(C, 5, 1)
except TypeError as e:
    print(e)
# ---- vars_and_errors
class P:
    def __init__(self):
        self.x = 1
print(vars(P()))
try:
    vars(5)
except TypeError as e:
    print(e)
# ---- dir_of_instance_and_module
class C:
    b = 2
    def __init__(self):
        self.a = 1
    def z(self):
        pass
names = dir(C())
print([n for n in names if not n.startswith("_")], names == sorted(names), "__init__" in names, "__class__" in names)
import math
print([n for n in dir(math) if n.startswith("f")][:5])
# ---- globals_dict_behaviour
g = globals()
g["made_via_globals"] = 5
print(made_via_globals, "g" in globals(), type(g).__name__, globals()["__name__"])
# ---- exec_eval_with_dicts
ns = {"x": 2}
exec("y = x * 10", ns)
print(ns["y"], eval("x + y", ns), eval("[k for k in range(x)]", ns), eval("  1 + 1  "))
exec("def f(): return z\nz = 7", ns)
print(ns["f"]())
try:
    eval("x = 1")
except SyntaxError as e:
    print(e.msg)
try:
    eval("undefined_name", {})
except NameError as e:
    print(e)
# ---- exec_returns_none_and_locals_dict
r = exec("1 + 1")
print(r)
g = {}
l = {}
exec("a = 5", g, l)
print(l.get("a"), "a" in g)
# ---- eval_builtins_available_in_fresh_dict
print(eval("len('abc') + abs(-1)", {}), eval("max(a)", {"a": [3, 9]}), eval("__name__", {"__name__": "m"}))
# ---- identity_checks_with_is
a = [1]
b = a
c = [1]
print(a is b, a is c, a is not c, None is None, (lambda: None)() is None, type(a) is list, True is (1 == 1))
x = object()
print(x is x, x is object(), [x] [0] is x)
# ---- isinstance_and_type_builtins
print(type(3) == int, type(3.0) is float, isinstance([], (list, tuple)), type(None).__name__, type(print).__name__, type(list.append).__name__)
# ---- abs_round_divmod_builtins
print(abs(-3), round(2.567, 1), divmod(17, 5), divmod(-17, 5), pow(2, 8), max(1, 2), min("b", "a"), sum([]), len({}))
# ---- sorted_and_reversed_builtins
print(sorted("hello"), sorted({3: 0, 1: 0}), sorted((3, 1), reverse=True), list(reversed([1, 2, 3])), sorted([], key=len))
# ---- chr_ord_bin_hex_builtins
print(chr(97), ord("a"), bin(5), hex(255), oct(8), ascii("é"), repr("é"), format(5, "03"))
# ---- callable_builtin
class K:
    def __call__(self):
        pass
print(callable(len), callable(K), callable(K()), callable(5), callable(lambda: 0), callable("s".upper))
# ---- id_free_hash_builtin
print(hash("a") == hash("a"), hash((1, 2)) == hash((1, 2)), hash(None) == hash(None))
try:
    hash({})
except TypeError as e:
    print(e)
# ---- len_builtin_variety
print(len("héllo"), len([1, 2]), len({1: 2}), len(range(10, 0, -3)), len(b"ab"), len(set()), len(frozenset([1, 1])), len({}.keys()))
# ---- isinstance_errors
try:
    isinstance(1, 1)
except TypeError as e:
    print(e)
try:
    issubclass(1, int)
except TypeError as e:
    print(e)
# ---- enumerate_zip_builtins_types
print(type(enumerate([])).__name__, type(reversed([])).__name__, type(iter([])).__name__, type(iter("")).__name__, type(iter({})).__name__, type(range(1)).__name__)
# ---- next_builtin_errors
try:
    next([1])
except TypeError as e:
    print(e)
try:
    next(iter([]))
except StopIteration as e:
    print("StopIteration", repr(e))
# ---- object_builtin
o = object()
try:
    o.x = 1
except AttributeError as e:
    print(e)
print(type(o).__name__, isinstance(o, object), isinstance(5, object))
# ---- int_float_str_bool_list_constructors_from_kwargs
try:
    int(x="5")
except TypeError as e:
    print(e)
print(int("11", base=2), str(object=5), float("1.5"), bool([]), list(), dict(a=1, b=2), set("aab") == {"a", "b"}, tuple([1]))
# ---- max_min_on_dicts_and_strings
d = {"b": 1, "a": 3}
print(max(d), min(d), max(d, key=d.get), max(d.values()), max("abcB"), min("hello", "help"), max([[1, 2], [1, 3]]))
# ---- zip_with_dict_and_unpack
d = {"a": 1, "b": 2}
keys, vals = zip(*d.items())
print(keys, vals, list(zip(*[(1, 2), (3, 4)])), dict(zip("ab", range(2))))
# ---- sum_of_lists_and_strings_error
try:
    sum(["a", "b"])
except TypeError as e:
    print(e)
try:
    sum([1, 2], "")
except TypeError as e:
    print(e)
print(sum([[1], [2, 3]], []))
# ---- all_any_on_non_iterables
try:
    any(5)
except TypeError as e:
    print(e)
try:
    all(None)
except TypeError as e:
    print(e)
# ---- repr_of_builtins
print(repr(len), repr(None), repr(...), repr(NotImplemented), repr(print)[:20], repr(int), repr(Exception))
# ---- type_and_class_names
print(int.__name__, str.__qualname__, list.__module__, type(len).__name__, type(type).__name__, object.__name__)
# ---- ellipsis_and_notimplemented
print(..., Ellipsis is ..., type(...).__name__, NotImplemented, bool(...))
# ---- locals_at_module_level
x_loc = 5
print(locals() is globals(), locals()["x_loc"])
# ---- round_builtin_with_ndigits_none
print(round(2.5, None), round(3.7), round(-3.7), type(round(2.5, None)).__name__, round(7, 2), round(7, -1))
# ---- divmod_and_pow_with_bools
print(divmod(True, 2), pow(True, 2), pow(2, True), True ** -1, divmod(7, True))
# ---- exec_with_print_in_exec
exec("print('inside exec')\nfor i in range(2): print(i)")
# ---- eval_expression_only_statements_error
for src in ["import os", "if 1: pass", "1; 2"]:
    try:
        eval(src)
    except SyntaxError as e:
        print(e.msg)
# ---- format_builtin
print(format(3.5), format(3.5, ">8"), format("x"), format([1, 2]), format(None), format(10, "x"))
try:
    format([1], "d")
except TypeError as e:
    print(e)
# ---- slice_builtin_with_objects
s = slice(1, None)
print("abcdef"[s], [1, 2, 3][slice(None, None, -1)], (1, 2, 3)[slice(2)])
# ---- min_max_key_none
print(max([1, 3, 2], key=None), min("bca", key=None))
# ---- sorted_key_error_propagates
try:
    sorted([1, 2], key=lambda v: 1 / 0)
except ZeroDivisionError as e:
    print(e)
# ---- iter_on_dict_views_and_strings
it = iter({"a": 1, "b": 2}.items())
print(next(it), next(it), next(it, None))
it = iter("é😀")
print(next(it), next(it))
# ---- builtins_reject_keywords
for src in ["[1].pop(index=0)", '{"a": 1}.get(key="a")', "sorted(iterable=[1])", "range(stop=3)", "len(obj=[])", "dict(a=1).pop('a', default=2)", "float(x='1')", "list(iterable=[1])", "abs(x=1)", "getattr(1, 'real', default=0)", "next(iter([]), default=1)", "max(1, 2, default=0)", "int(x='1')"]:
    try:
        print(src, "->", repr(eval(src)))
    except TypeError as e:
        print(src, "->", e)
print(list(enumerate(iterable="ab", start=1)), list(zip("a", strict=False)), round(number=2.5, ndigits=None), pow(base=2, exp=3, mod=5))
# ---- exec_inside_function_uses_locals_snapshot
def f():
    exec("x_in_exec = 1")
    try:
        return x_in_exec
    except NameError as e:
        return "NameError " + str(e)
print(f(), "x_in_exec" in globals())
def g():
    a = 1
    exec("a = 2")
    return a
print(g())
# ---- eval_inside_function_sees_locals
def h():
    y = 5
    return eval("y + 1")
print(h())
def k():
    z = 3
    return eval("[z * i for i in range(2)]")
print(k())
# ---- dir_of_plain_instance_full
class C:
    def m(self):
        pass
c = C()
c.a = 1
print(dir(c))
print(dir(C) == dir(c), len(dir(object)), len(dir(1)), len(dir("")), len(dir([])), len(dir({})))
# ---- dir_of_function_and_module
def f():
    pass
print(len(dir(f)), [n for n in dir(f) if n.startswith("__") and n in ("__closure__", "__code__", "__globals__", "__wrapped__")])
import math
print([n for n in dir(math) if n.startswith("__") and n != "__file__"])  # code mode's modules have no file
