# Cases for the pprint module; gen.py records CPython's output.
# ---- short_values
import pprint
for v in [1, "s", [1, 2], {"b": 1, "a": 2}, (1,), (), set(), {3, 1, 2}, frozenset([2, 1]), None, 1.5, b"x", bytearray(b"y"), {}]:
    pprint.pprint(v)
print(pprint.pformat({"z": [1, 2], "a": {"y": 1, "x": 2}}))
# ---- wrapped_dicts_lists
import pprint
data = {"users": [{"name": f"user{i}", "id": i, "tags": ["alpha", "beta", "gamma"], "score": i * 1.5} for i in range(4)], "total": 4, "meta": {"source": "db", "ok": True}}
pprint.pprint(data)
pprint.pprint(data, width=40)
pprint.pprint(data, indent=4, width=60)
pprint.pprint(data, sort_dicts=False, width=50)
pprint.pp(data, width=60)
# ---- nested_tuples_sets
import pprint
t = tuple(range(30))
pprint.pprint(t)
pprint.pprint((t,))
pprint.pprint([t, [t]], width=50)
pprint.pprint(set(range(40)))
pprint.pprint(frozenset(range(40)))
pprint.pprint({"k": set("abcdefghijklmnopqrstuvwxyz")})
# ---- compact
import pprint
lst = list(range(60))
pprint.pprint(lst, compact=True)
pprint.pprint([lst[:20], "x" * 30, lst[:5]], compact=True, width=40)
pprint.pprint([[1, 2], [3, 4], "abc"] * 8, compact=True, width=30)
# ---- strings
import pprint
s = "The quick brown fox jumps over the lazy dog. " * 5
pprint.pprint(s)
pprint.pprint([s])
pprint.pprint({"text": s, "n": 1}, width=50)
pprint.pprint("line one\nline two is longer\n" * 4, width=30)
pprint.pprint("x" * 100)
pprint.pprint(["short", "a" * 90])
# ---- bytes
import pprint
b = bytes(range(60))
pprint.pprint(b)
pprint.pprint([b], width=40)
pprint.pprint(bytearray(b), width=50)
pprint.pprint(b"abcd")
# ---- depth
import pprint
d = {"a": {"b": {"c": {"d": [1, [2, [3]]]}}}, "l": [[[[1]]]]}
pprint.pprint(d, depth=1)
pprint.pprint(d, depth=2)
pprint.pprint(d, depth=3, width=20)
print(pprint.pformat([1, (2, (3,))], depth=2))
# ---- recursion
import pprint
a = [1, 2]
a.append(a)
print(pprint.pformat(a).startswith("[1, 2, <Recursion on list with id="))
d = {"k": 1}
d["self"] = d
print(pprint.isrecursive(a), pprint.isreadable(a), pprint.isreadable([1, "x"]), pprint.isreadable([object()]), pprint.isrecursive([1]))
print(pprint.saferepr(a).startswith("[1, 2, <Recursion on list with id="), pprint.saferepr({"b": 1, "a": [2]}), pprint.saferepr("x"))
# ---- underscore_numbers
import pprint
pprint.pprint([10 ** 9, 12345, -7654321, 1.5], underscore_numbers=True)
pprint.pprint({"big": 2 ** 70}, underscore_numbers=True)
# ---- mixed_keys
import pprint
pprint.pprint({1: "a", "b": 2, (1, 2): 3, None: 4}, width=30)
pprint.pprint({3: "c", 1: "a", 2: "b", 10: "j"})
# ---- printer_object
import pprint
pp = pprint.PrettyPrinter(indent=2, width=30)
pp.pprint({"alpha": list(range(10)), "beta": "x"})
print(pp.pformat((1, 2)), pp.isreadable([1]), pp.format([1, 2], {}, 0, 0))
class W:
    def write(self, s):
        print("W:", repr(s))
pprint.pprint([1, 2], stream=W())
for kw in [{"indent": -1}, {"width": 0}, {"depth": 0}]:
    try:
        pprint.PrettyPrinter(**kw)
    except ValueError as e:
        print(e)
# ---- custom_repr
import pprint
class R:
    def __repr__(self):
        return "R(" + "x" * 50 + ")"
class L(list):
    pass
class LR(list):
    def __repr__(self):
        return "LR!"
pprint.pprint([R(), R()])
pprint.pprint(L(range(40)))
pprint.pprint(LR(range(40)))
pprint.pprint({"r": R()}, width=20)
# ---- namespace_and_proxy
import pprint, types
ns = types.SimpleNamespace(alpha=list(range(20)), beta="b" * 40, gamma={"x": 1})
pprint.pprint(ns)
pprint.pprint(types.MappingProxyType({"key%d" % i: i for i in range(12)}))
# ---- collections_types
import pprint
from collections import OrderedDict, defaultdict, Counter, deque, ChainMap
pprint.pprint(OrderedDict((f"k{i}", i) for i in range(12)))
dd = defaultdict(list)
for i in range(12):
    dd[f"key{i}"].append(i)
pprint.pprint(dd)
pprint.pprint(Counter("the quick brown fox jumps over the lazy dog"))
pprint.pprint(deque(range(40)))
pprint.pprint(deque(range(40), maxlen=50))
pprint.pprint(ChainMap({"a" * 30: 1}, {"b" * 30: 2}))
pprint.pprint([OrderedDict(), defaultdict(int), Counter(), deque()])
# ---- dataclass
import pprint
from dataclasses import dataclass, field
@dataclass
class Point:
    x: int
    y: int
    tags: list = field(default_factory=list)
    hidden: str = field(default="h", repr=False)
@dataclass
class Custom:
    a: int
    def __repr__(self):
        return "Custom!" + "x" * 80
p = Point(1, 2, ["tag%d" % i for i in range(12)])
pprint.pprint(p)
pprint.pprint([p, Point(3, 4)], width=40)
pprint.pprint(Custom(1))
pprint.pprint(Point(0, 0))
