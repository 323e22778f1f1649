# Cases for the copy module; gen.py records CPython's output.
# ---- shallow_vs_deep
import copy
orig = {"list": [1, 2], "nested": {"k": [3]}, "t": (4, [5]), "s": {6}, "b": bytearray(b"x")}
sh = copy.copy(orig)
dp = copy.deepcopy(orig)
orig["list"].append(9)
orig["nested"]["k"].append(8)
orig["t"][1].append(7)
orig["s"].add(0)
print(sh)
print(dp)
print(sh["list"] is orig["list"], dp["list"] is orig["list"], dp["b"] is orig["b"], dp["s"] is orig["s"])
# ---- immutables
import copy
t = (1, "a", 2.5)
nested = (1, [2])
fs = frozenset([1, 2])
s = "s"
print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.copy(s) is s, copy.deepcopy([t])[0] is t)
print(copy.deepcopy(nested) is nested, copy.deepcopy(nested) == nested, copy.copy(nested) is nested)
print(copy.copy(fs) is fs, copy.deepcopy(fs) is fs, copy.deepcopy(fs) == fs)
print(copy.copy(None), copy.copy(10 ** 30), copy.deepcopy(1.5), copy.copy(len) is len, copy.deepcopy(int) is int, copy.copy(range(3)) == range(3))
def f():
    pass
print(copy.copy(f) is f, copy.deepcopy(f) is f, copy.copy(...) is ..., copy.deepcopy(NotImplemented) is NotImplemented)
s = slice(1, [2], 3)
print(copy.copy(s) is s, copy.deepcopy(s), copy.deepcopy(s) is s)
# ---- shared_and_cycles
import copy
shared = [1]
a = [shared, shared]
b = copy.deepcopy(a)
b[0].append(2)
print(b, b[0] is b[1], a)
c = [1]
c.append(c)
d = copy.deepcopy(c)
print(d[1] is d, d[1] is c, len(d))
e = {}
e["self"] = e
f = copy.deepcopy(e)
print(f["self"] is f, f is not e)
# ---- memo
import copy
x = [1, [2]]
m = {}
y = copy.deepcopy(x, m)
print(len(m), sorted(type(v).__name__ for v in m.values()), m[id(x)] is y)
z = copy.deepcopy(x, m)
print(z is y)
m2 = {id(x): "preset"}
print(copy.deepcopy(x, m2))
# ---- user_objects
import copy
class Node:
    def __init__(self, v, kids=None):
        self.v, self.kids = v, kids or []
        print("init", v)
    def __repr__(self):
        return f"Node({self.v}, {self.kids})"
root = Node(1, [Node(2), Node(3)])
c1 = copy.copy(root)
c2 = copy.deepcopy(root)
root.kids.append(Node(4))
print(c1, c2, sep="\n")
print(type(c2) is Node, c1.kids is root.kids, c2.kids is root.kids)
class Empty:
    pass
e = Empty()
print(type(copy.copy(e)).__name__, copy.deepcopy(e) is e, vars(copy.copy(e)))
# ---- copy_hooks
import copy
class Cfg:
    def __init__(self, d):
        self.d = d
    def __copy__(self):
        print("shallow copy hook")
        return Cfg(self.d)
    def __deepcopy__(self, memo):
        print("deep copy hook", type(memo).__name__)
        return Cfg(copy.deepcopy(self.d, memo))
c = Cfg({"a": [1]})
x = copy.copy(c)
y = copy.deepcopy(c)
c.d["a"].append(2)
print(x.d, y.d, copy.deepcopy([c, c])[0] is not c)
# ---- getstate_setstate
import copy
class S:
    def __init__(self):
        self.a, self.cache = 1, {"big": [1, 2]}
    def __getstate__(self):
        print("getstate")
        st = self.__dict__.copy()
        del st["cache"]
        return st
    def __setstate__(self, st):
        print("setstate", sorted(st))
        self.__dict__.update(st)
        self.cache = {}
s = copy.deepcopy(S())
print(s.a, s.cache)
t = copy.copy(S())
print(t.a, t.cache)
# ---- reduce_overrides
import copy
class R:
    def __init__(self, x):
        self.x = x
    def __reduce__(self):
        print("reduce")
        return (R, (self.x * 2,))
print(copy.copy(R(2)).x, copy.deepcopy(R([1])).x)
class G:
    def __reduce__(self):
        return "G"
g = G()
print(copy.copy(g) is g, copy.deepcopy(g) is g)
class RE:
    def __reduce_ex__(self, proto):
        print("reduce_ex", proto)
        return (dict, (), None, None, iter([("k", "v")]))
print(copy.copy(RE()), copy.deepcopy(RE()))
# ---- builtin_subclasses
import copy
class L(list):
    pass
class D(dict):
    pass
class T(tuple):
    pass
class St(str):
    pass
class I(int):
    pass
l = L([1, [2]]); l.tag = "t"
d = D(a=[1]); d.tag = "u"
for v in [l, d, T((1, [2])), St("s"), I(5)]:
    c = copy.copy(v)
    dc = copy.deepcopy(v)
    print(type(c).__name__, c, type(dc).__name__, dc, c is v, dc is v, vars(c) if hasattr(c, "tag") else "")
print(copy.deepcopy(l)[1] is l[1], copy.copy(l)[1] is l[1])
class Se(set):
    def __init__(self, *a):
        print("Se init", a)
        super().__init__(*a)
print(sorted(copy.copy(Se([1, 2]))), type(copy.deepcopy(Se([3]))).__name__)
# ---- namedtuple_like
import copy
class P(tuple):
    def __new__(cls, x, y):
        return tuple.__new__(cls, (x, y))
    def __getnewargs__(self):
        return tuple(self)
    x = property(lambda self: self[0])
p = P(1, [2])
q = copy.deepcopy(p)
print(q, type(q).__name__, q.x, q[1] is p[1], copy.copy(p) == p)
# ---- exceptions
import copy
class E(Exception):
    pass
e = E(1, [2])
e.note = "n"
c = copy.copy(e)
d = copy.deepcopy(e)
print(repr(c), c.note, c is e, repr(d), d.args[1] is e.args[1], c.args[1] is e.args[1])
v = ValueError("bad")
print(repr(copy.copy(v)), copy.deepcopy(KeyError("k")).args)
# ---- methods
import copy
class C:
    def __init__(self):
        self.data = [1]
    def m(self):
        return self.data
c = C()
bm = copy.copy(c.m)
dm = copy.deepcopy(c.m)
print(bm() is c.data, dm() is c.data, dm() == c.data, bm.__self__ is c)
# ---- errors
import copy
def g():
    yield 1
for call in [lambda: copy.copy(g()), lambda: copy.deepcopy(g()), lambda: copy.deepcopy(copy), lambda: copy.deepcopy(), lambda: copy.copy(1, 2), lambda: copy.deepcopy(1, {}, [], 3), lambda: copy.copy(y=1)]:
    try:
        call()
    except TypeError as e:
        print(e)
print(copy.Error, copy.error is copy.Error, issubclass(copy.Error, Exception), copy.__all__)
# ---- containers_counted
import copy
data = {"rows": [{"id": i, "tags": ["x", "y"]} for i in range(100)]}
dup = copy.deepcopy(data)
dup["rows"][0]["tags"].append("z")
print(len(dup["rows"]), data["rows"][0]["tags"], dup["rows"][0]["tags"], dup == data)
