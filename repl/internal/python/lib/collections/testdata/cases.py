# Cases for the collections and collections.abc modules; gen.py records
# CPython's output.
# ---- counter_basics
from collections import Counter
c = Counter("mississippi")
print(c)
print(c["s"], c["z"], c.most_common(2), sorted(c.elements())[:5], c.total())
print(Counter(["a", "b", "a"]), Counter({"x": 2}), Counter(a=1, b=0), Counter(), Counter(None))
print(len(c), list(c), "z" in c, c.get("z"), dict(c), isinstance(c, dict), type(c), Counter)
# ---- counter_arithmetic
from collections import Counter
a = Counter(a=3, b=1, c=0)
b = Counter(a=1, b=2, d=4)
print(a + b, a - b, a & b, a | b)
print(+Counter(a=2, b=-1), -Counter(a=-2, b=1), b - a, a | Counter(e=-1), Counter(a=-1) + Counter())
a.update("aab")
a.subtract({"b": 5})
print(a)
a.subtract("aa")
a.update(a=10, z=1)
print(a, a.total())
# ---- counter_inplace
from collections import Counter
a = Counter(a=3, b=1)
i = id(a)
a += Counter(b=-5, c=2)
print(a, id(a) == i)
a -= Counter(a=1)
print(a)
a |= Counter(a=7, d=-1)
print(a)
a &= Counter(a=5, c=9)
print(a)
a += {"z": 3}
print(a)
# ---- counter_inplace_bad
from collections import Counter
a = Counter(a=1)
a += 5
# ---- counter_add_dict
from collections import Counter
Counter(a=1) + {"a": 1}
# ---- counter_most_common_ties
from collections import Counter
c = Counter(["x", "y", "z", "y", "x", "w"])
print(c.most_common(), c.most_common(1), c.most_common(0), c.most_common(-1), c.most_common(10), c.most_common(3))
print(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])), Counter("abcabcab").most_common(n=2))
# ---- counter_repr_order
from collections import Counter
c = Counter({"b": 2, "a": 2, "c": 5, "d": 1})
print(c, repr(c), str(c))
print(Counter(), Counter("aaa") + Counter(), Counter({1: "x", 2: "y"}), Counter({"a": 1.5, "b": 2}))
print(Counter({"a": [1], "b": (2,)}))
# ---- counter_compare
from collections import Counter
a = Counter("aab")
print(a == Counter("aba"), dict(a), a.get("z", 0), "a" in a, list(a.keys()))
del a["a"]
del a["nope"]
print(a, a.most_common())
print(Counter("abc") <= Counter("aabbcc"), Counter(a=1) == Counter(a=1, b=0), Counter(a=1) != Counter(a=1, b=0))
print(Counter(a=1) < Counter(a=2), Counter(a=2) > Counter(a=1), Counter(a=1) >= Counter(a=1), Counter(a=1) < Counter(a=1))
print(Counter(a=1) == {"a": 1}, {"a": 1} == Counter(a=1), Counter(a=1) != {"a": 1}, Counter(a=1) == {"a": 2}, Counter() == [])
# ---- counter_lt_dict
from collections import Counter
Counter(a=1) <= {"a": 1}
# ---- counter_fromkeys
from collections import Counter
Counter.fromkeys("abc")
# ---- counter_update_and_missing
from collections import Counter
inventory = Counter()
for item, n in [("apple", 3), ("pear", 2), ("apple", -1)]:
    inventory[item] += n
print(inventory, inventory["kiwi"], "kiwi" in inventory)
inventory.clear()
print(inventory, bool(inventory))
c = Counter()
c.update(Counter(a=2))
c.update(Counter(a=3, b=1))
c.update([1, 1, 2])
c.update({"q": 2.5})
print(c, c.copy(), c.copy() == c, type(c.copy()))
# ---- counter_elements
from collections import Counter
c = Counter(a=2, b=0, c=-1, d=3)
e = c.elements()
print(type(e).__name__, list(e), list(Counter("hello").elements()))
# ---- counter_elements_bad
from collections import Counter
list(Counter(a=1.5).elements())
# ---- counter_subclass
from collections import Counter
class TopK(Counter):
    def top(self, k):
        return [w for w, _ in self.most_common(k)]
t = TopK("abracadabra")
print(t.top(2), isinstance(t, dict), type(t).__name__, t, t + TopK("a"), type(t + t).__name__, type(t.copy()).__name__)
class Loud(Counter):
    def __setitem__(self, k, v):
        print("set", k, v)
        super().__setitem__(k, v)
l = Loud("aba")
print(l)
class M(Counter):
    def __missing__(self, k):
        return 100
print(M()["x"], M(a=1) + M(b=1))
# ---- counter_init_errors
from collections import Counter
for f in [lambda: Counter("a", "b"), lambda: Counter(5), lambda: Counter().most_common("x"), lambda: Counter().update(1, 2)]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- counter_words
from collections import Counter
text = "the cat and the hat and the bat sat on the mat"
c = Counter(text.split())
for w, n in c.most_common(3):
    print(f"{w:<5}{n:>3} {'*' * n}")
print(len(c), sum(c.values()), list(c)[:4], c.total(), max(c, key=c.get))
# ---- counter_unhashable
from collections import Counter
hash(Counter())
# ---- counter_generic
from collections import Counter, OrderedDict, defaultdict, deque, ChainMap
print(Counter[str], OrderedDict[str, int], defaultdict[str, list], deque[int], ChainMap[str, int])
# ---- defaultdict_basics
from collections import defaultdict
groups = defaultdict(list)
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    groups[word[0]].append(word)
print(groups)
print(dict(groups), groups["z"], len(groups), groups)
counts = defaultdict(int)
for ch in "hello":
    counts[ch] += 1
print(dict(counts), counts.default_factory, counts)
print(defaultdict(), defaultdict(None, {"a": 1}), defaultdict(int, a=1), defaultdict(list, [("k", [1])]))
d = defaultdict(lambda: "dflt")
print(d["x"], dict(d), d.get("y"), "y" in d)
d.default_factory = None
print(d.default_factory, d.setdefault("q", 5), d)
# ---- defaultdict_nested
from collections import defaultdict
tree = defaultdict(lambda: defaultdict(int))
for svc, lvl in [("auth", "ERROR"), ("auth", "INFO"), ("db", "ERROR"), ("auth", "ERROR")]:
    tree[svc][lvl] += 1
print({k: dict(v) for k, v in tree.items()})
d = defaultdict(set)
d["a"].add(1)
print(d, "b" in d, d.get("b"), d.get("a"))
# ---- defaultdict_missing_no_factory
from collections import defaultdict
d = defaultdict()
d["x"]
# ---- defaultdict_bad_factory
from collections import defaultdict
defaultdict(5)
# ---- defaultdict_ops
from collections import defaultdict
d = defaultdict(list, {"a": [1]})
e = d.copy()
e["b"].append(2)
print(d, e, type(e).__name__, e.default_factory)
print(d | {"z": 0}, {"z": 0} | d, type({"z": 0} | d).__name__)
i = id(d)
d |= {"q": 1}
print(d, id(d) == i, d == {"a": [1], "q": 1}, isinstance(d, dict))
d2 = defaultdict(list)
d2["self"] = d2
print(d2)
# ---- ordereddict_ops
from collections import OrderedDict
od = OrderedDict()
od["b"] = 1
od["a"] = 2
od["c"] = 3
od.move_to_end("b")
print(od, list(od))
od.move_to_end("c", last=False)
print(list(od.items()), od.popitem(), od.popitem(last=False), od)
print(OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), OrderedDict(a=1, b=2) == {"b": 2, "a": 1}, OrderedDict(a=1) != OrderedDict(a=1))
print(OrderedDict(), OrderedDict([("x", 1), ("y", 2)]), OrderedDict({"k": "v"}), OrderedDict.fromkeys("ab", 0))
print(list(reversed(OrderedDict(a=1, b=2))), OrderedDict(a=1).copy(), OrderedDict(a=1) | {"b": 2}, {"b": 2} | OrderedDict(a=1))
od = OrderedDict(a=1)
od["self"] = od
print(od)
od = OrderedDict.fromkeys([1, 2, 3])
od.move_to_end(1)
od.move_to_end(3, False)
od.update({2: "two"}, z=26)
print(od, od.pop(2), od.setdefault("n", 0), od)
# ---- ordereddict_lru
from collections import OrderedDict
class LRU:
    def __init__(self, cap):
        self.cap, self.d = cap, OrderedDict()
    def get(self, k):
        if k not in self.d:
            return None
        self.d.move_to_end(k)
        return self.d[k]
    def put(self, k, v):
        self.d[k] = v
        self.d.move_to_end(k)
        if len(self.d) > self.cap:
            self.d.popitem(last=False)
c = LRU(2)
c.put("a", 1); c.put("b", 2); c.get("a"); c.put("c", 3)
print(list(c.d), c.get("b"), c.get("a"))
# ---- ordereddict_errors
from collections import OrderedDict
od = OrderedDict(a=1)
for f in [lambda: od.move_to_end("z"), lambda: OrderedDict().popitem(), lambda: OrderedDict(1, 2), lambda: od.move_to_end()]:
    try:
        f()
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
# ---- deque_basics
from collections import deque
d = deque([1, 2, 3])
d.append(4)
d.appendleft(0)
print(d, d.pop(), d.popleft(), d, len(d), d[0], d[-1])
d.extend([7, 8])
d.extendleft([-1, -2])
print(d)
d.rotate(2)
print(d)
d.rotate(-3)
print(d, d.count(7), d.index(7))
d.rotate()
print(d, deque(), deque("abc"), deque(range(3), 2), deque(maxlen=0), bool(deque()), 3 in deque([3]))
# ---- deque_maxlen
from collections import deque
last3 = deque(maxlen=3)
for i in range(6):
    last3.append(i)
    print(list(last3))
print(last3, last3.maxlen, deque().maxlen)
last3.appendleft(99)
print(last3)
last3.extendleft([7, 8])
print(last3)
d = deque([1], maxlen=0)
d.append(1)
d.extend([1, 2])
print(d)
# ---- deque_methods
from collections import deque
d = deque(range(10))
del d[3]
d[0] = "x"
print(d, 5 in d, d.count(5), d.index(5), d.index(5, 2), d.index(9, -2))
d.remove("x")
d.insert(1, "i")
d.insert(-1, "j")
d.insert(100, "end")
d.reverse()
print(d)
d.extend(d)
print(len(d), d.copy() == d, d.copy() is d)
d.clear()
print(d, list(reversed(deque("abc"))))
# ---- deque_ops
from collections import deque
d = deque([1, 2, 3])
d *= 2
print(d)
d += "ab"
print(d)
print(deque([1, 2, 3], maxlen=2) * 3, 2 * deque([1]), deque([1, 2]) == deque([1, 2]), deque([1]) < deque([1, 2]), deque("abc", 2))
print(deque([1]) + deque([2]), deque([1, 2], maxlen=2) + deque([3]), deque([1]) == [1], deque([1]) != [1], deque([2]) >= deque([1, 5]))
d = deque([1])
d.append(d)
print(d)
# ---- deque_errors
from collections import deque
d = deque([1, 2, 3])
fs = [lambda: d.append(), lambda: d.pop(1), lambda: d.extend(), lambda: d.rotate("a"), lambda: d.index(),
      lambda: d.index(9), lambda: d.insert(1), lambda: d.count(), lambda: d.remove(9), lambda: deque(maxlen=1.5),
      lambda: deque(maxlen=-1), lambda: deque([], 2, 3), lambda: d[1:2], lambda: d[5],
      lambda: d["a"], lambda: d + [1], lambda: d * "a", lambda: deque([1, 2], maxlen=2).insert(0, 3),
      lambda: d.append(x=1), lambda: deque().pop(), lambda: deque().popleft(), lambda: deque(5), lambda: d.index(2, 5)]
for f in fs:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
# ---- deque_mutation
from collections import deque
d = deque([1, 2, 3])
it = iter(d)
next(it)
d.append(4)
next(it)
# ---- deque_pop_empty
from collections import deque
deque().pop()
# ---- deque_slice
from collections import deque
d = deque(range(5))
print(d[2], list(d)[1:3])
print(d[1:3])
# ---- deque_bfs
from collections import deque
graph = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}
def bfs(start, goal):
    q = deque([[start]])
    seen = {start}
    while q:
        path = q.popleft()
        if path[-1] == goal:
            return path
        for n in graph[path[-1]]:
            if n not in seen:
                seen.add(n)
                q.append(path + [n])
print(bfs("a", "f"), bfs("c", "f"), bfs("f", "a"))
# ---- deque_subclass
from collections import deque
class D(deque):
    pass
print(D([1, 2], maxlen=5), type(D([1]).copy()).__name__, isinstance(D(), deque), len(D("ab")), list(D("ab")))
class E(deque):
    def __init__(self, n):
        super().__init__(range(n), maxlen=n + 1)
print(E(3), E(3).maxlen)
# ---- deque_unhashable
from collections import deque
hash(deque())
# ---- deque_window
from collections import deque
window = deque(maxlen=4)
avgs = []
for v in [10, 20, 30, 40, 50, 60]:
    window.append(v)
    avgs.append(sum(window) / len(window))
print(avgs, list(deque([f"line {i}" for i in range(1, 11)], maxlen=3)))
# ---- namedtuple_basics
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])
p = Point(1, 2)
print(p, p.x, p.y, p[0], p[-1], p[:1], len(p), list(p), p == (1, 2), p + (3,), hash(p) == hash((1, 2)))
x, y = p
print(x, y, Point._fields, Point(x=3, y=4), Point(5, y=6), p._asdict(), p._replace(x=10), Point._make([7, 8]))
print(Point.__doc__, Point.__module__, Point.__match_args__, Point._field_defaults, type(p).__name__, isinstance(p, tuple))
print(p.count(1), p.index(2), tuple(p), type(p + (3,)), sorted([Point(2, 1), Point(1, 2)]), Point.__mro__)
match p:
    case Point(a, b):
        print("matched", a, b)
# ---- namedtuple_defaults
from collections import namedtuple
Row = namedtuple("Row", "id name score", defaults=[0.0])
r = Row(1, "ann")
print(r, r.score, Row._field_defaults, Row(*[2, "bob", 3.5]))
print(r._asdict(), r._replace(score=9), Row._make([3, "cy", 1.0]))
P3 = namedtuple("P3", ["a", "b", "c"], defaults=(1, 2))
print(P3(0), P3._field_defaults, namedtuple("E", "")(), namedtuple("One", "a")(1), namedtuple("C", "a, b")(1, 2))
print(namedtuple("M", "a", module="mymod").__module__, namedtuple("N", "a b", defaults=None)._field_defaults)
# ---- namedtuple_rename_and_errors
from collections import namedtuple
P = namedtuple("P", ["x", "def", "x", "_y", "1a", "ok"], rename=True)
print(P._fields)
for args in [("Q", ["a", "1b"]), ("Q", ["a", "class"]), ("Q", ["a", "_b"]), ("Q", ["a", "a"]), ("1Q", ["a"]), ("Q", ["a"], {"defaults": [1, 2]}), ("Q", "a b c d", {"defaults": "xyz"})]:
    try:
        kw = args[2] if len(args) > 2 else {}
        print(namedtuple(args[0], args[1], **kw)._field_defaults)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- namedtuple_call_errors
from collections import namedtuple
Pt = namedtuple("Pt", "x y")
for f in [lambda: Pt(1), lambda: Pt(1, 2, 3), lambda: Pt(1, z=2), lambda: Pt(1, x=2), lambda: Pt._make([1]), lambda: Pt(1, 2)._replace(z=3)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- namedtuple_immutable
from collections import namedtuple
Pt = namedtuple("Pt", "x y")
p = Pt(1, 2)
try:
    p.x = 5
except AttributeError as e:
    print(e)
p.z = 5
# ---- namedtuple_subclass
from collections import namedtuple
Pt = namedtuple("Pt", "x y")
class Sub(Pt):
    def norm(self):
        return self.x + self.y
s = Sub(3, 4)
print(s, s.norm(), Sub._fields, type(s._replace(x=1)).__name__, Sub._make([1, 2]))
s.foo = 1
print(s.foo)
class Slotted(Pt):
    __slots__ = ()
    def __repr__(self):
        return f"<{self.x},{self.y}>"
print(Slotted(1, 2), [Slotted(3, 4)])
# ---- namedtuple_sorting
from collections import namedtuple
Row = namedtuple("Row", "id name score")
rows = [Row(1, "b", 5), Row(2, "a", 7), Row(3, "c", 5)]
print(sorted(rows, key=lambda r: (-r.score, r.name)))
print(max(rows, key=lambda r: r.score).name, [r.name for r in rows if r.score == 5], {r.name: r for r in rows}["a"])
# ---- chainmap_lookup
from collections import ChainMap
defaults = {"color": "red", "user": "guest", "debug": False}
env = {"user": "admin"}
cli = {"debug": True}
cfg = ChainMap(cli, env, defaults)
print(cfg["color"], cfg["user"], cfg["debug"], len(cfg), sorted(cfg), list(cfg))
cfg["color"] = "blue"
print(cli, defaults["color"], cfg.maps[0] is cli, cfg)
child = cfg.new_child({"user": "root"})
print(child["user"], child.parents["user"], dict(child) == {**defaults, **env, **cli, "user": "root"})
print(ChainMap(), ChainMap({}).new_child(), cfg.get("nope", 1), "user" in cfg, list(cfg.keys()), list(cfg.items())[:2], list(cfg.values())[:2])
print(cfg.new_child(x=1).maps[0], cfg.copy() == cfg, bool(ChainMap({})), bool(cfg), ChainMap({"a": 1}) | {"b": 2}, {"b": 2} | ChainMap({"a": 1}))
del cfg["color"]
print(cfg.pop("debug"), cfg.pop("zz", 0), cfg, isinstance(cfg, dict))
# ---- chainmap_errors
from collections import ChainMap
c = ChainMap({}, {"a": 1})
for f in [lambda: c["z"], lambda: c.__delitem__("a"), lambda: c.pop("a"), lambda: c.popitem()]:
    try:
        f()
    except KeyError as e:
        print(type(e).__name__, e)
# ---- abc_isinstance_builtins
import collections.abc as A
vals = [[], (), "s", b"b", bytearray(), {}, set(), frozenset(), range(3), iter([]), (x for x in []), len, 5, None, {}.keys(), {}.items(), {}.values(), map(str, []), zip(), enumerate([])]
for name in ["Iterable", "Iterator", "Generator", "Sized", "Container", "Collection", "Sequence", "MutableSequence", "Mapping", "MutableMapping", "Set", "MutableSet", "Hashable", "Callable", "KeysView", "ItemsView", "ValuesView", "Reversible", "MappingView", "ByteString"]:
    cls = getattr(A, name)
    print(name, [i for i, v in enumerate(vals) if isinstance(v, cls)])
# ---- abc_issubclass
from collections import abc, deque, OrderedDict, Counter, defaultdict, ChainMap, UserDict, UserList, UserString
print(issubclass(list, abc.Sequence), issubclass(dict, abc.Mapping), issubclass(str, abc.Hashable), issubclass(list, abc.Hashable))
print(issubclass(deque, abc.MutableSequence), issubclass(OrderedDict, abc.MutableMapping), issubclass(Counter, abc.Mapping), issubclass(ChainMap, abc.MutableMapping))
print(issubclass(UserDict, abc.MutableMapping), issubclass(UserList, abc.MutableSequence), issubclass(UserString, abc.Sequence), issubclass(int, abc.Iterable))
print(issubclass(type, abc.Callable), issubclass(tuple, abc.Reversible), issubclass(dict, abc.Reversible), issubclass(set, abc.Reversible))
print(isinstance(deque(), abc.Sequence), isinstance(deque(), abc.Hashable), isinstance(Counter(), abc.Hashable), isinstance(iter(deque()), abc.Iterator))
# ---- abc_structural
from collections.abc import Iterable, Iterator, Sized, Container, Hashable, Callable, Collection, Reversible, Mapping, Sequence
class A:
    def __iter__(self):
        return iter([])
class B:
    def __len__(self):
        return 0
    def __contains__(self, x):
        return False
    def __iter__(self):
        return iter([])
class C:
    __hash__ = None
class D:
    def __call__(self):
        pass
class E:
    def __getitem__(self, i):
        raise IndexError
class F(A):
    def __next__(self):
        raise StopIteration
class G:
    def __reversed__(self):
        return iter([])
    __iter__ = A.__iter__
class H(A):
    __iter__ = None
for obj in [A(), B(), C(), D(), E(), F(), G(), H()]:
    print(type(obj).__name__, [c.__name__ for c in (Iterable, Iterator, Sized, Container, Hashable, Callable, Collection, Reversible, Mapping, Sequence) if isinstance(obj, c)])
# ---- abc_mapping_subclass
from collections.abc import Mapping, MutableMapping
class M(Mapping):
    def __init__(self, d):
        self._d = dict(d)
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
    def __repr__(self):
        return "M()"
m = M({"a": 1, "b": 2})
print(m.get("a"), m.get("z"), m.get("z", 0), "a" in m, "z" in m, list(m.keys()), list(m.items()), list(m.values()))
print(m == {"a": 1, "b": 2}, m == M({"a": 1}), m != {"a": 1, "b": 2}, dict(m), len(m), isinstance(m, Mapping), isinstance(m, MutableMapping))
print(m.keys(), m.items(), m.values(), m.keys() & {"a"}, m.keys() | {"c"}, m.keys() - {"a"}, ("a", 1) in m.items(), 2 in m.values())
print(m.keys() == {"a", "b"}, m.keys() <= {"a", "b", "c"}, m.items() == {("a", 1), ("b", 2)}, m.keys().isdisjoint(["x"]))
class MM(MutableMapping):
    def __init__(self):
        self._d = {}
    def __getitem__(self, k):
        return self._d[k]
    def __setitem__(self, k, v):
        self._d[k] = v
    def __delitem__(self, k):
        del self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
mm = MM()
mm["x"] = 1
mm.update({"y": 2}, z=3)
mm.update([("w", 0)])
print(dict(mm), mm.setdefault("x", 9), mm.setdefault("n"), mm.pop("y"), mm.pop("nope", "d"), mm.popitem(), dict(mm))
mm.clear()
print(dict(mm), len(mm))
try:
    mm.pop("q")
except KeyError as e:
    print("KeyError", e)
try:
    mm.popitem()
except KeyError as e:
    print("KeyError", repr(e))
# ---- abc_abstract_instantiation
from collections.abc import Mapping
class Bad(Mapping):
    def __getitem__(self, k):
        return 1
Bad()
# ---- abc_sequence_subclass
from collections.abc import Sequence, MutableSequence
class S(Sequence):
    def __init__(self, n):
        self.n = n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * 10
    def __len__(self):
        return self.n
s = S(4)
print(list(s), 20 in s, 25 in s, s.index(30), s.count(10), list(reversed(s)), s[1], len(s), isinstance(s, Sequence))
try:
    s.index(99)
except ValueError as e:
    print("ValueError", repr(e))
class L(MutableSequence):
    def __init__(self):
        self.d = []
    def __getitem__(self, i):
        return self.d[i]
    def __setitem__(self, i, v):
        self.d[i] = v
    def __delitem__(self, i):
        del self.d[i]
    def __len__(self):
        return len(self.d)
    def insert(self, i, v):
        self.d.insert(i, v)
l = L()
l.append(1)
l.extend([2, 3, 4])
l += [5]
l.reverse()
print(l.d, l.pop(), l.pop(0), l.d)
l.remove(3)
print(l.d)
l.clear()
print(l.d)
# ---- abc_register
from collections.abc import Sequence, Iterable, Sized
class V:
    pass
print(isinstance(V(), Sequence), issubclass(V, Iterable))
Sequence.register(V)
print(isinstance(V(), Sequence), issubclass(V, Iterable), issubclass(V, Sized), Sequence.register(list) is list)
class MyABC(Sequence):
    pass
class W:
    pass
MyABC.register(W)
print(issubclass(W, MyABC), issubclass(W, Sequence), issubclass(list, MyABC))
try:
    Sequence.register(5)
except TypeError as e:
    print(e)
try:
    MyABC.register(Sequence)
except RuntimeError as e:
    print(e)
# ---- abc_names
import collections.abc as A
print(A.Mapping, A.Iterable, A.Mapping.__module__, sorted(A.Mapping.__abstractmethods__), sorted(A.MutableSequence.__abstractmethods__))
print([c.__name__ for c in A.Sequence.__mro__], [c.__name__ for c in A.KeysView.__mro__])
print(A.Mapping[str, int], A.Iterable[int], sorted(A.Set.__abstractmethods__), A.Mapping.__hash__)
print(sorted(n for n in dir(A) if not n.startswith("_")))
# ---- abc_set_subclass
from collections.abc import Set, MutableSet
class S(Set):
    def __init__(self, it=()):
        self.d = list(dict.fromkeys(it))
    def __contains__(self, x):
        return x in self.d
    def __iter__(self):
        return iter(self.d)
    def __len__(self):
        return len(self.d)
    def __repr__(self):
        return f"S({self.d})"
a, b = S([1, 2, 3]), S([2, 3, 4])
print(a & b, a | b, a - b, a ^ b, a <= b, a < S([1, 2, 3, 4]), a == S([3, 2, 1]), a.isdisjoint([9]), a & [2], a - [1], [1, 5] - a)
class MS(MutableSet):
    def __init__(self):
        self.d = set()
    def __contains__(self, x):
        return x in self.d
    def __iter__(self):
        return iter(sorted(self.d))
    def __len__(self):
        return len(self.d)
    def add(self, x):
        self.d.add(x)
    def discard(self, x):
        self.d.discard(x)
ms = MS()
ms |= [3, 1, 2]
ms -= {1}
ms ^= {2, 9}
print(sorted(ms.d), ms.pop(), sorted(ms.d))
ms.remove(9)
print(sorted(ms.d))
try:
    ms.remove(100)
except KeyError as e:
    print("KeyError", e)
# ---- userdict
from collections import UserDict
u = UserDict({"a": 1}, b=2)
u["c"] = 3
print(u, u.data, len(u), u["a"], "b" in u, u.get("z"), list(u), dict(u), isinstance(u, dict))
del u["a"]
print(u, u.copy(), u | {"z": 0}, {"z": 0} | u, type(u.copy()).__name__, UserDict.fromkeys("ab", 1))
class D(UserDict):
    def __missing__(self, k):
        return k * 2
d = D()
print(d["ab"], d, type(d.copy()).__name__, d.copy())
try:
    UserDict()["x"]
except KeyError as e:
    print("KeyError", e)
# ---- userlist
from collections import UserList
u = UserList([3, 1, 2])
u.append(0)
u.sort()
print(u, u.data, len(u), u[0], u[1:3], type(u[1:3]).__name__, u + [9], [9] + u, u * 2, u == [0, 1, 2, 3], u < [5])
u.extend(UserList([7]))
u += (8,)
print(u, u.pop(), u.index(7), u.count(1), 3 in u, u.copy(), list(reversed(u)))
u.reverse()
u.insert(0, "x")
u.remove("x")
print(u, UserList(), UserList("ab"))
# ---- userstring
from collections import UserString
s = UserString("Hello World")
print(s, repr(s), s.upper(), type(s.upper()).__name__, s.split(), s.find("o"), s.count("l"), s[1:4], type(s[1:4]).__name__)
print(s + "!", "> " + s, s * 2, len(s), "World" in s, s == "Hello World", s < "Z", s.startswith("He"), s.replace("l", "L"), int(UserString("42")))
print(UserString(12), s.join(["a", "b"]), s.lower().strip("h"), hash(s) == hash("Hello World"), sorted([UserString("b"), UserString("a")]))
# ---- copy_support
import copy, collections
c = collections.Counter("abca")
print(copy.copy(c), copy.deepcopy(c), type(copy.copy(c)).__name__, c.__reduce__())
d = collections.defaultdict(list, a=[1])
e = copy.deepcopy(d)
e["b"].append(2)
print(d, e, copy.copy(d).default_factory)
od = collections.OrderedDict(b=1, a=2)
print(copy.copy(od), copy.deepcopy(od))
dq = collections.deque([1, [2]], maxlen=5)
dq2 = copy.deepcopy(dq)
dq2[1].append(3)
print(dq, dq2, copy.copy(dq))
P = collections.namedtuple("P", "x y")
print(copy.copy(P(1, [2])), copy.deepcopy(P(1, [2])))
print(copy.copy(collections.ChainMap({"a": 1})), copy.deepcopy(collections.UserList([1, [2]])), copy.copy(collections.UserDict(a=1)))
# ---- mixed_equality
import collections
print(collections.defaultdict(int, {"a": 1}) == {"a": 1}, {"a": 1} == collections.defaultdict(int, {"a": 1}))
print(collections.Counter(a=1) == collections.defaultdict(int, a=1), collections.defaultdict(int, a=1) == collections.Counter(a=1))
print(collections.OrderedDict(a=1) == collections.Counter(a=1), collections.Counter(a=1) == collections.OrderedDict(a=1))
x, y = collections.OrderedDict(a=1), collections.OrderedDict(a=1)
print(x == y, x is y, x != y, collections.OrderedDict(a=1, b=2) != collections.OrderedDict(b=2, a=1))
c = collections.Counter(a=3)
c["b"] -= 1
print(c, +c, c.total())
d = collections.deque(maxlen=None)
d.__init__([1, 2], 1)
print(d, d.maxlen)
# ---- counter_add_int
import collections
collections.Counter() + 1
