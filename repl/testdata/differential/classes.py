# Classes: __init__, methods, dunder protocols, inheritance, super(), properties, class/static methods.
# ---- basic_class
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def dist2(self):
        return self.x ** 2 + self.y ** 2
p = Point(3, 4)
print(p.x, p.y, p.dist2())
p.x = 6
print(p.dist2(), isinstance(p, Point), type(p).__name__, type(p) is Point)
# ---- repr_and_str
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __repr__(self):
        return f"Money({self.cents})"
    def __str__(self):
        return f"${self.cents // 100}.{self.cents % 100:02d}"
m = Money(1234)
print(m, repr(m), str(m), [m], f"{m}", f"{m!r}", "%s %r" % (m, m))
# ---- repr_only_used_for_str
class R:
    def __repr__(self):
        return "R()"
print(R(), str(R()), [R(), R()], {"k": R()})
# ---- eq_and_hash
class Key:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __eq__(self, other):
        return isinstance(other, Key) and (self.a, self.b) == (other.a, other.b)
    def __hash__(self):
        return hash((self.a, self.b))
k1, k2 = Key(1, "x"), Key(1, "x")
print(k1 == k2, k1 != k2, k1 is k2, len({k1, k2}), {k1: "v"}[k2])
print(k1 == (1, "x"), Key(1, "y") in [k1, k2])
# ---- eq_without_hash_unhashable
class E:
    def __eq__(self, other):
        return True
print(E() == 5)
s = {E()}
# ---- ordering_methods
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))
    def __lt__(self, other):
        return self.parts < other.parts
    def __eq__(self, other):
        return self.parts == other.parts
    def __repr__(self):
        return "v" + ".".join(map(str, self.parts))
vs = [Version(s) for s in ["1.10.0", "1.2.3", "1.2.10", "0.9"]]
print(sorted(vs), max(vs), min(vs), Version("1.0") < Version("1.0.1"))
print(Version("2.0") > Version("1.9"))
# ---- total_ordering
import functools
@functools.total_ordering
class Grade:
    order = "FDCBA"
    def __init__(self, g):
        self.g = g
    def __eq__(self, o):
        return self.g == o.g
    def __lt__(self, o):
        return self.order.index(self.g) < self.order.index(o.g)
print(Grade("A") > Grade("B"), Grade("C") <= Grade("C"), Grade("F") >= Grade("D"))
# ---- container_protocol
class Bag:
    def __init__(self, items):
        self.items = list(items)
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i]
    def __contains__(self, x):
        return x in self.items
    def __iter__(self):
        return iter(self.items)
b = Bag("hello")
print(len(b), b[1], b[-1], b[1:3], "e" in b, "z" in b, list(b), sorted(b), bool(Bag([])))
# ---- getitem_iteration_fallback
class Squares:
    def __getitem__(self, i):
        if i >= 5:
            raise IndexError(i)
        return i * i
print(list(Squares()), 9 in Squares(), [x for x in Squares() if x % 2])
# ---- setitem_delitem
class Grid:
    def __init__(self):
        self.cells = {}
    def __setitem__(self, key, v):
        self.cells[key] = v
    def __getitem__(self, key):
        return self.cells.get(key, ".")
    def __delitem__(self, key):
        del self.cells[key]
g = Grid()
g[0, 1] = "x"
g[1, 1] = "o"
del g[1, 1]
print(g[0, 1], g[1, 1], g.cells)
# ---- call_protocol
class Multiplier:
    def __init__(self, k):
        self.k = k
    def __call__(self, x):
        return x * self.k
triple = Multiplier(3)
print(triple(5), list(map(triple, [1, 2])), callable(triple), callable(Multiplier))
# ---- context_manager_protocol
class Tracker:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name, exc_type.__name__ if exc_type else None)
        return exc_type is ValueError
with Tracker("a") as t:
    print("inside", t.name)
with Tracker("b"):
    raise ValueError("swallowed")
print("after b")
with Tracker("c"):
    raise KeyError("propagates")
# ---- arithmetic_dunders
class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)
    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)
    __rmul__ = __mul__
    def __neg__(self):
        return Vec(-self.x, -self.y)
    def __abs__(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5
    def __bool__(self):
        return bool(self.x or self.y)
    def __repr__(self):
        return f"Vec({self.x}, {self.y})"
a, b = Vec(1, 2), Vec(3, 4)
print(a + b, b - a, a * 3, 2 * a, -a, abs(b), bool(Vec(0, 0)), bool(a))
a += b
print(a)
# ---- unsupported_operand_user_class
class A:
    pass
print(A() + 1)
# ---- radd_and_notimplemented
class Meters:
    def __init__(self, v):
        self.v = v
    def __add__(self, o):
        if isinstance(o, Meters):
            return Meters(self.v + o.v)
        if isinstance(o, (int, float)):
            return Meters(self.v + o)
        return NotImplemented
    __radd__ = __add__
    def __repr__(self):
        return f"{self.v}m"
print(Meters(2) + Meters(3), Meters(2) + 1, 1 + Meters(2), sum([Meters(1), Meters(2)]))
try:
    Meters(1) + "x"
except TypeError as e:
    print("TypeError:", e)
# ---- class_attributes_vs_instance
class Counter:
    created = 0
    tags = []
    def __init__(self):
        Counter.created += 1
        self.id = Counter.created
c1, c2 = Counter(), Counter()
c1.tags.append("shared")
c2.created = 100
print(Counter.created, c1.created, c2.created, c1.id, c2.id, c2.tags)
# ---- inheritance_and_super
class Animal:
    def __init__(self, name):
        self.name = name
    def speak(self):
        return f"{self.name} makes a sound"
    def describe(self):
        return f"{type(self).__name__}: {self.speak()}"
class Dog(Animal):
    def __init__(self, name, breed):
        super().__init__(name)
        self.breed = breed
    def speak(self):
        return f"{self.name} barks"
class Puppy(Dog):
    def speak(self):
        return super().speak() + " softly"
for a in [Animal("cat"), Dog("rex", "lab"), Puppy("bit", "pug")]:
    print(a.describe())
print(isinstance(Puppy("x", "y"), Animal), issubclass(Dog, Animal), issubclass(Animal, Dog))
print(Puppy.__mro__[1].__name__, [c.__name__ for c in Puppy.__mro__])
# ---- property_getter_setter
class Temp:
    def __init__(self, c):
        self._c = c
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        if v < -273.15:
            raise ValueError("below absolute zero")
        self._c = v
    @property
    def f(self):
        return self._c * 9 / 5 + 32
t = Temp(25)
print(t.c, t.f)
t.c = 100
print(t.c, t.f)
try:
    t.c = -300
except ValueError as e:
    print("ValueError:", e)
try:
    t.f = 1
except AttributeError as e:
    print("AttributeError")
# ---- staticmethod_classmethod
class Date:
    def __init__(self, y, m, d):
        self.y, self.m, self.d = y, m, d
    @classmethod
    def parse(cls, s):
        return cls(*map(int, s.split("-")))
    @staticmethod
    def is_leap(y):
        return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    def __repr__(self):
        return f"{type(self).__name__}({self.y}, {self.m}, {self.d})"
class MyDate(Date):
    pass
print(Date.parse("2024-02-29"), MyDate.parse("1999-12-31"), Date.is_leap(2024), Date(1, 1, 1).is_leap(1900))
# ---- attribute_error_message
class P:
    def __init__(self):
        self.x = 1
p = P()
print(p.x)
print(p.y)
# ---- getattr_setattr_hasattr
class Cfg:
    pass
c = Cfg()
setattr(c, "level", "debug")
print(getattr(c, "level"), getattr(c, "missing", "default"), hasattr(c, "level"), hasattr(c, "nope"))
delattr(c, "level")
print(hasattr(c, "level"), vars(c))
c.a = 1
c.b = [2]
print(vars(c), c.__dict__ == vars(c))
# ---- dunder_getattr_fallback
class Proxy:
    def __init__(self, target):
        self._t = target
    def __getattr__(self, name):
        return f"<missing {name}>"
p = Proxy([])
print(p._t, p.anything, p.other)
# ---- user_exceptions
class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, what):
        super().__init__(f"{what} not found")
        self.what = what
try:
    raise NotFound("user 42")
except AppError as e:
    print(type(e).__name__, e, e.what, e.args, isinstance(e, Exception))
# ---- user_exception_uncaught
class QuotaExceeded(Exception):
    pass
raise QuotaExceeded("limit 100 reached")
# ---- dataclass_basic
from dataclasses import dataclass, field
@dataclass
class Item:
    name: str
    price: float
    qty: int = 1
    tags: list = field(default_factory=list)
    def total(self):
        return self.price * self.qty
a = Item("pen", 1.5, 4)
b = Item("pen", 1.5, 4)
print(a, a == b, a.total(), Item("ink", 3.0))
a.tags.append("office")
print(a.tags, b.tags)
# ---- dataclass_order_frozen
from dataclasses import dataclass
@dataclass(order=True, frozen=True)
class Ver:
    major: int
    minor: int = 0
vs = sorted([Ver(1, 5), Ver(0, 9), Ver(1, 0)])
print(vs, Ver(1) < Ver(1, 1), hash(Ver(1, 2)) == hash(Ver(1, 2)))
try:
    vs[0].major = 5
except Exception as e:
    print(type(e).__name__)
# ---- enum_basic
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
print(Color.RED, repr(Color.GREEN), Color.BLUE.name, Color.BLUE.value, Color(2), Color["RED"])
print(list(Color), len(Color), Color.RED is Color(1), Color.RED == 1)
# ---- namedtuple_basic
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x, p[1], p._asdict(), p._replace(x=9), Point._fields, tuple(p))
x, y = p
print(x + y, p == (1, 2), isinstance(p, tuple))
# ---- class_with_iter_generator
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        i = self.n
        while i > 0:
            yield i
            i -= 1
print(list(Countdown(4)), sum(Countdown(10)), list(zip(Countdown(2), "ab")))
# ---- iterator_protocol_class
class Fib:
    def __init__(self, limit):
        self.a, self.b, self.limit = 0, 1, limit
    def __iter__(self):
        return self
    def __next__(self):
        if self.a > self.limit:
            raise StopIteration
        v = self.a
        self.a, self.b = self.b, self.a + self.b
        return v
print(list(Fib(100)))
it = Fib(3)
print(next(it), next(it), list(it), list(it))
# ---- class_method_chaining
class Query:
    def __init__(self):
        self.parts = []
    def where(self, cond):
        self.parts.append(f"WHERE {cond}")
        return self
    def limit(self, n):
        self.parts.append(f"LIMIT {n}")
        return self
    def __str__(self):
        return "SELECT * " + " ".join(self.parts)
print(Query().where("x > 1").limit(10))
# ---- isinstance_tuple_and_bool
class A: pass
class B(A): pass
b = B()
print(isinstance(b, (int, A)), isinstance(b, B), type(b) == A, isinstance(3, (str, float)))
print(isinstance(True, bool), isinstance(1, bool), isinstance("s", object), issubclass(bool, int))
# ---- instance_method_binding
class K:
    def m(self):
        return "m of " + type(self).__name__
k = K()
f = k.m
print(f(), K.m(k), k.m.__name__)
# ---- class_repr_default_name
class Thing:
    pass
print(Thing.__name__, type(Thing()).__name__, Thing.__qualname__, type(Thing).__name__)
# ---- class_level_dict_shared_bug
class Registry:
    items = {}
    def add(self, k, v):
        self.items[k] = v
r1, r2 = Registry(), Registry()
r1.add("a", 1)
print(r2.items, Registry.items is r1.items)
# ---- slots_class
class P:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
p = P(1, 2)
print(p.x + p.y)
try:
    p.z = 3
except AttributeError as e:
    print("AttributeError:", e)
# ---- abstract_like_not_implemented
class Shape:
    def area(self):
        raise NotImplementedError("subclass must implement area")
class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
print(Sq(3).area())
Shape().area()
# ---- str_of_exception_subclass_with_args
class CodeError(Exception):
    def __init__(self, code, msg):
        super().__init__(code, msg)
        self.code = code
e = CodeError(404, "missing")
print(e, repr(e), e.args, e.code)
# ---- object_equality_default
class O:
    pass
a, b = O(), O()
print(a == a, a == b, a != b, a is a, len({a, b, a}))
# ---- super_in_classmethod
class Base:
    @classmethod
    def create(cls):
        return f"{cls.__name__} created by Base"
class Child(Base):
    @classmethod
    def create(cls):
        return super().create() + " via Child"
print(Child.create(), Base.create())
# ---- init_subclass_counts
class Plugin:
    registry = []
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Plugin.registry.append(cls.__name__)
class CSV(Plugin): pass
class JSONP(Plugin): pass
print(Plugin.registry)
# ---- str_subclass_keys_own_eq_hash
class K(str):
    def __eq__(self, o):
        return True
    def __hash__(self):
        return 1
d = {K("a"): 1}
print(d.get("b"), K("zz") in d, "a" in d, d.get(K("q")))
d2 = {"x": 1, "y": 2}
print(d2.get(K("y")), K("x") in d2)
class L(str):
    def __hash__(self):
        return hash(str(self))
    def __eq__(self, o):
        return False
e = {L("a"): 1}
print(L("a") in e, "a" in e, len({L("a"), L("a")}))
big = {str(i): i for i in range(20)}
big[K("q")] = 5
print(big.get("nope"), K("w") in big, len(big))
s = {K("a"), K("b"), "c"}
print(len(s), "c" in s, K("c") in s)
