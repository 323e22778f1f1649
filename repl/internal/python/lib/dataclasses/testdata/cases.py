# Cases for the dataclasses module; gen.py records CPython's outcome.
# ---- basic_repr_eq
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
print(a, a == b, a != b, a.total(), Item("ink", 3.0))
a.tags.append("office")
print(a.tags, b.tags, a == b, a == ("pen", 1.5, 4, ["office"]))
print(Item.qty, "tags" in Item.__dict__, Item.__match_args__)
print(Item.__doc__)
print(Item.__hash__)
# ---- unhashable_by_default
from dataclasses import dataclass
@dataclass
class P:
    x: int
hash(P(1))
# ---- keyword_and_positional_calls
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int = 0
print(P(1), P(x=2), P(1, y=3), P(y=4, x=5))
# ---- init_missing_one
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int
P(1)
# ---- init_missing_three
from dataclasses import dataclass
@dataclass
class P:
    a: int
    b: int
    c: int
P()
# ---- init_missing_two
from dataclasses import dataclass
@dataclass
class P:
    a: int
    b: int
    c: int = 0
P()
# ---- init_too_many
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int
P(1, 2, 3)
# ---- init_too_many_defaults
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int = 2
P(1, 2, 3)
# ---- init_too_many_none
from dataclasses import dataclass
@dataclass
class P:
    pass
print(P(), P() == P())
P(1)
# ---- init_unexpected_keyword
from dataclasses import dataclass
@dataclass
class P:
    x: int
P(1, 2, z=3)
# ---- init_multiple_values
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int = 1
P(1, x=2)
# ---- init_too_many_with_kwonly
from dataclasses import dataclass, field
@dataclass
class P:
    x: int
    k: int = field(kw_only=True, default=0)
P(1, 2, k=3)
# ---- init_missing_kwonly
from dataclasses import dataclass, field
@dataclass
class P:
    x: int
    k: int = field(kw_only=True)
    j: int = field(kw_only=True)
print(P(1, k=2, j=3), P(1, j=0, k=9))
P(1)
# ---- order
from dataclasses import dataclass
@dataclass(order=True)
class Emp:
    dept: str
    salary: int
    name: str = ""
staff = [Emp("ops", 90, "bob"), Emp("eng", 120, "ann"), Emp("eng", 110, "cy")]
print(sorted(staff))
print(max(staff), Emp("a", 1) < Emp("a", 2), Emp("a", 1) <= Emp("a", 1), Emp("b", 0) > Emp("a", 9), Emp("a", 1) >= Emp("a", 2))
print(Emp.__lt__(Emp("a", 1), 5))
Emp("a", 1) < 5
# ---- order_other_class
from dataclasses import dataclass
@dataclass(order=True)
class A:
    x: int
@dataclass(order=True)
class B:
    x: int
print(A(1) == B(1))
A(1) < B(2)
# ---- order_without_eq
from dataclasses import dataclass
@dataclass(order=True, eq=False)
class A:
    x: int
# ---- order_overwrite
from dataclasses import dataclass
@dataclass(order=True)
class A:
    x: int
    def __lt__(self, other):
        return True
# ---- frozen
from dataclasses import dataclass, FrozenInstanceError
@dataclass(frozen=True)
class Coord:
    lat: float
    lon: float
c = Coord(52.5, 13.4)
print(c, hash(c) == hash(Coord(52.5, 13.4)), hash(c) == hash((52.5, 13.4)), {c: "berlin"}[Coord(52.5, 13.4)])
try:
    c.lat = 0
except FrozenInstanceError as e:
    print(type(e).__name__, e, isinstance(e, AttributeError))
try:
    del c.lon
except AttributeError as e:
    print(type(e).__name__, e)
try:
    c.other = 1
except FrozenInstanceError as e:
    print(e)
print(FrozenInstanceError.__mro__)
# ---- frozen_post_init_uses_object_setattr
from dataclasses import dataclass, field
@dataclass(frozen=True)
class R:
    w: int
    h: int
    area: int = field(init=False)
    def __post_init__(self):
        object.__setattr__(self, "area", self.w * self.h)
print(R(2, 3), R(2, 3).area)
# ---- frozen_subclass_attribute
from dataclasses import dataclass, FrozenInstanceError
@dataclass(frozen=True)
class F:
    x: int
class G(F):
    pass
g = G(1)
g.extra = 5
print(g, g.extra)
try:
    g.x = 2
except FrozenInstanceError as e:
    print(e)
# ---- frozen_inherit_errors
from dataclasses import dataclass
@dataclass(frozen=True)
class F:
    x: int
try:
    @dataclass
    class N(F):
        y: int
except TypeError as e:
    print(e)
@dataclass
class M:
    x: int
@dataclass(frozen=True)
class FF(M):
    y: int
# ---- unsafe_hash
from dataclasses import dataclass, field
@dataclass(unsafe_hash=True)
class H:
    x: int
    y: list = field(default_factory=list, hash=False)
    z: int = field(default=0, compare=False)
h = H(1)
print(hash(h) == hash((1,)), h == H(1, [2], 5))
# ---- unsafe_hash_explicit
from dataclasses import dataclass
@dataclass(unsafe_hash=True)
class H:
    x: int
    def __hash__(self):
        return 1
# ---- explicit_hash_kept
from dataclasses import dataclass
@dataclass
class H:
    x: int
    def __hash__(self):
        return 42
print(hash(H(1)))
@dataclass(eq=False)
class I:
    x: int
print(I(1) == I(1), type(hash(I(1))).__name__)
# ---- user_eq_kept
from dataclasses import dataclass
@dataclass
class E:
    x: int
    def __eq__(self, other):
        return True
print(E(1) == E(2), E.__hash__)
# ---- user_repr_kept
from dataclasses import dataclass
@dataclass
class E:
    x: int
    def __repr__(self):
        return "E!"
print(E(1), [E(2)])
@dataclass(repr=False)
class F:
    x: int
print(repr(F(1)).startswith("<__main__.F object at "))
# ---- field_options
from dataclasses import dataclass, field
@dataclass
class Rect:
    w: float
    h: float
    area: float = field(init=False)
    secret: str = field(default="x", repr=False, compare=False)
    def __post_init__(self):
        self.area = self.w * self.h
r = Rect(2, 3.5)
print(r, r.area, Rect(2, 3.5, "y") == r, r.secret)
# ---- init_false_without_default
from dataclasses import dataclass, field
@dataclass
class A:
    x: int
    y: int = field(init=False)
a = A(1)
print(a.x, hasattr(a, "y"))
print(a)
# ---- init_false_factory
from dataclasses import dataclass, field
@dataclass
class A:
    x: int
    log: list = field(init=False, default_factory=list)
    n: int = field(init=False, default=7)
a, b = A(1), A(2)
a.log.append(1)
print(a, b, a.log is b.log, "n" in a.__dict__)
# ---- default_factory_called_each_time
from dataclasses import dataclass, field
count = 0
def make():
    global count
    count += 1
    return [count]
@dataclass
class A:
    v: list = field(default_factory=make)
print(A(), A(), A([0]), count)
# ---- mutable_default_list
from dataclasses import dataclass
@dataclass
class Bad:
    items: list = []
# ---- mutable_default_dict
from dataclasses import dataclass
@dataclass
class Bad:
    items: dict = {}
# ---- mutable_default_set
from dataclasses import dataclass
@dataclass
class Bad:
    items: set = set()
# ---- mutable_default_user_class
from dataclasses import dataclass
class U:
    def __eq__(self, o):
        return True
@dataclass
class Bad:
    u: U = U()
# ---- immutable_defaults_ok
from dataclasses import dataclass
@dataclass
class Ok:
    t: tuple = (1, 2)
    f: frozenset = frozenset()
    s: str = "x"
print(Ok())
# ---- both_default_and_factory
from dataclasses import field
field(default=1, default_factory=list)
# ---- non_default_after_default
from dataclasses import dataclass
@dataclass
class A:
    x: int = 0
    y: int
# ---- non_default_after_default_in_base
from dataclasses import dataclass
@dataclass
class Base:
    x: int = 0
@dataclass
class Child(Base):
    y: int
# ---- field_without_annotation
from dataclasses import dataclass, field
@dataclass
class A:
    x: int
    y = field(default=1)
# ---- inheritance
from dataclasses import dataclass, fields
@dataclass
class Base:
    id: int
    kind: str = "base"
@dataclass
class Child(Base):
    extra: str = "e"
c = Child(7, extra="z")
print(c, isinstance(c, Base), Child(1, "k", "x"), [f.name for f in fields(Child)])
@dataclass
class Over(Base):
    kind: str = "over"
    more: int = 0
print(Over(1), [f.name for f in fields(Over)], Base(1) == Child(1))
# ---- inherited_default_from_class_attribute
from dataclasses import dataclass
class Plain:
    y = 5
@dataclass
class A(Plain):
    x: int = 1
    y: int
print(A(), A(2, 3))
# ---- non_dataclass_subclass
from dataclasses import dataclass
@dataclass
class A:
    x: int
class B(A):
    def show(self):
        return f"B with {self.x}"
b = B(3)
print(b, b.show(), b == A(3), b == B(3))
# ---- post_init_initvar
from dataclasses import dataclass, field, InitVar, fields
@dataclass
class C:
    x: int
    scale: InitVar[int] = 2
    y: int = field(init=False)
    def __post_init__(self, scale):
        self.y = self.x * scale
c = C(5)
print(c, C(5, 10), [f.name for f in fields(c)], hasattr(c, "scale"))
print(C.__dataclass_fields__["scale"]._field_type, repr(InitVar[int]), InitVar[list[int]].type)
print(C.scale)
# ---- initvar_without_default
from dataclasses import dataclass, InitVar
@dataclass
class C:
    x: int
    factor: InitVar[int]
    def __post_init__(self, factor):
        self.x *= factor
print(C(2, 3))
# ---- initvar_factory_error
from dataclasses import dataclass, field, InitVar
@dataclass
class C:
    x: InitVar[list] = field(default_factory=list)
# ---- kw_only_decorator
from dataclasses import dataclass
@dataclass(kw_only=True)
class Opts:
    verbose: bool = False
    level: int = 1
print(Opts(level=3), Opts.__match_args__)
Opts(True)
# ---- kw_only_marker
from dataclasses import dataclass, KW_ONLY, fields
@dataclass
class S:
    a: int
    _: KW_ONLY
    b: int = 2
    c: int
print(S(1, c=3), S(1, b=5, c=0), [f.name for f in fields(S)], S.__match_args__)
print(S.__doc__)
S(1, 2, 3)
# ---- kw_only_twice
from dataclasses import dataclass, KW_ONLY
@dataclass
class S:
    a: int
    _: KW_ONLY
    b: int
    __: KW_ONLY
# ---- kw_only_allows_default_order
from dataclasses import dataclass, field
@dataclass
class S:
    a: int = 0
    b: int = field(kw_only=True)
    c: int = 1
print(S(b=1), S(5, 6, b=7))
# ---- slots
from dataclasses import dataclass
@dataclass(slots=True)
class S:
    a: int
    b: int = 2
s = S(1)
print(s, S.__slots__, s.b)
try:
    s.c = 3
except AttributeError as e:
    print("AttributeError")
s.a = 10
print(s)
# ---- slots_frozen
from dataclasses import dataclass, FrozenInstanceError
@dataclass(slots=True, frozen=True)
class S:
    a: int
    b: int = 2
s = S(1)
print(s, hash(s) == hash((1, 2)))
try:
    s.a = 5
except FrozenInstanceError as e:
    print(e)
# ---- slots_already_defined
from dataclasses import dataclass
@dataclass(slots=True)
class S:
    __slots__ = ("a",)
    a: int
# ---- fields_function
from dataclasses import dataclass, field, fields
@dataclass
class A:
    x: int
    y: str = field(default="q", metadata={"unit": "m"})
fs = fields(A)
from dataclasses import MISSING
print(type(fs).__name__, len(fs), [(f.name, f.type, f.default is MISSING, f.init, f.repr, f.hash, f.compare, f.kw_only) for f in fs])
print(fs[1].metadata, fs[1].metadata["unit"], fs[0].metadata, fields(A(1)) == fs)
print(fs[0].default_factory is MISSING, fs[1].default, type(MISSING).__name__)
# ---- fields_error
from dataclasses import fields
fields(3)
# ---- fields_error_plain_class
from dataclasses import fields
class A:
    pass
fields(A)
# ---- is_dataclass
from dataclasses import dataclass, is_dataclass
@dataclass
class A:
    x: int
class B(A):
    pass
print(is_dataclass(A), is_dataclass(A(1)), is_dataclass(B), is_dataclass(B(2)), is_dataclass(int), is_dataclass(3), is_dataclass(None))
# ---- asdict_astuple
from dataclasses import dataclass, asdict, astuple
@dataclass
class Inner:
    v: int
@dataclass
class Outer:
    name: str
    inner: Inner
    items: list
    table: dict
    pair: tuple
o = Outer("o", Inner(1), [Inner(2), 3], {"k": Inner(4), Inner(5).v: [6]}, (Inner(7), "z"))
print(asdict(o))
print(astuple(o))
d = asdict(o)
print(d["items"] is o.items, d["pair"])
# ---- asdict_deep_copies
from dataclasses import dataclass, asdict
@dataclass
class A:
    data: list
    s: set
    n: object
class Thing:
    def __init__(self):
        self.v = [1]
lst = [[1, 2], {3}]
a = A(lst, {1, 2}, Thing())
d = asdict(a)
print(d["data"] == lst, d["data"] is lst, d["data"][0] is lst[0], d["s"] == a.s, d["s"] is a.s)
print(type(d["n"]).__name__, d["n"] is a.n, d["n"].v == a.n.v, d["n"].v is a.n.v)
# ---- asdict_namedtuple_and_factory
from dataclasses import dataclass, asdict, astuple
class Pt(tuple):
    _fields = ("x", "y")
    def __new__(cls, x, y):
        return tuple.__new__(cls, (x, y))
@dataclass
class A:
    p: Pt
    q: int = 2
a = A(Pt(1, [2]))
print(asdict(a), astuple(a))
print(asdict(a, dict_factory=list), astuple(a, tuple_factory=list))
print(asdict(a, dict_factory=lambda kv: {k.upper(): v for k, v in kv}))
# ---- asdict_error
from dataclasses import dataclass, asdict
@dataclass
class A:
    x: int
asdict(A)
# ---- astuple_error
from dataclasses import astuple
astuple({"x": 1})
# ---- asdict_recursive_structure
from dataclasses import dataclass, asdict
@dataclass
class A:
    x: list
l = []
l.append(l)
asdict(A(l))
# ---- replace
from dataclasses import dataclass, replace, field
@dataclass(frozen=True)
class C:
    x: int
    y: int = 0
    z: list = field(default_factory=list, init=False)
c = C(1, 2)
print(replace(c, x=5), replace(c), replace(c, y=9) == C(1, 9), replace(c) is c)
try:
    replace(c, z=[1])
except ValueError as e:
    print(e)
replace(c, w=3)
# ---- replace_initvar
from dataclasses import dataclass, replace, InitVar
@dataclass
class C:
    x: int
    k: InitVar[int]
    def __post_init__(self, k):
        self.x += k
c = C(1, 10)
print(c, replace(c, k=1))
replace(c)
# ---- replace_error
from dataclasses import replace
replace(5, x=1)
# ---- make_dataclass
from dataclasses import make_dataclass, field, fields
P = make_dataclass("P", ["x", ("y", int), ("z", list, field(default_factory=list))], namespace={"norm": lambda self: self.x + self.y})
p = P(1, 2)
print(p, p.norm(), [f.type for f in fields(P)], P.__name__, P.__qualname__, P.__module__)
Q = make_dataclass("Q", [("a", int, 0)], eq=False, bases=(P,))
print(Q(1, 2), Q(1, 2, a=5) == Q(1, 2, a=5), Q.__eq__ is P.__eq__)
print(P.__doc__)
# ---- make_dataclass_errors
from dataclasses import make_dataclass
for fs in [["1x"], ["class"], ["a", "a"], [("a", int, 1, 2)], [("ok", int), ("bad name", int)]]:
    try:
        make_dataclass("X", fs)
    except TypeError as e:
        print(e)
# ---- match_args_and_match
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
def where(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(x, 0):
            return f"x-axis {x}"
        case Point(x=0, y=y):
            return f"y-axis {y}"
        case _:
            return "elsewhere"
print([where(Point(0, 0)), where(Point(3, 0)), where(Point(0, 4)), where(Point(1, 1))])
@dataclass(match_args=False)
class NoMatch:
    x: int
print(hasattr(NoMatch, "__match_args__"))
# ---- recursive_repr
from dataclasses import dataclass, field
@dataclass
class Node:
    name: str
    children: list = field(default_factory=list)
    parent: object = None
root = Node("root")
kid = Node("kid", parent=root)
root.children.append(kid)
print(root)
# ---- nested_class_qualname
from dataclasses import dataclass
class Outer:
    @dataclass
    class Inner:
        v: int
print(Outer.Inner(1))
# ---- classvar_string_without_typing
from dataclasses import dataclass, fields
@dataclass
class A:
    x: int
    label: "ClassVar[str]" = "a"
print(A(1), [f.name for f in fields(A)], A.label)
# ---- string_annotations
from dataclasses import dataclass, fields, InitVar, KW_ONLY
@dataclass
class A:
    x: "int"
    y: "InitVar[int]" = 1
    _: "KW_ONLY" = None
    z: "list[int]" = None
print(A(1), [(f.name, f.type) for f in fields(A)])
print(A.__doc__)
# ---- params_and_field_repr
from dataclasses import dataclass, field
@dataclass(order=True, frozen=True)
class A:
    x: int = field(default=1, repr=False)
print(A.__dataclass_params__)
f = A.__dataclass_fields__["x"]
print(f.name, f.type, f.default, f.repr, f.init, f.compare, f.hash, f.kw_only, f._field_type)
print(A.__dataclass_params__.frozen, A.__dataclass_params__.slots)
# ---- decorator_called_with_parens
from dataclasses import dataclass
@dataclass()
class A:
    x: int
deco = dataclass(repr=False, eq=False)
@deco
class B:
    y: int
print(A(1), B(2) == B(2), A(1) == A(1))
# ---- decorator_on_non_class
from dataclasses import dataclass
dataclass(5)
# ---- post_init_inherited
from dataclasses import dataclass
@dataclass
class Base:
    x: int
    def __post_init__(self):
        print("post", type(self).__name__, self.x)
@dataclass
class Child(Base):
    y: int = 2
Child(1)
Base(0)
# ---- property_field_interaction
from dataclasses import dataclass
@dataclass
class Temp:
    celsius: float
    @property
    def fahrenheit(self):
        return self.celsius * 9 / 5 + 32
t = Temp(100)
print(t, t.fahrenheit)
# ---- eq_compares_tuples
from dataclasses import dataclass
@dataclass
class V:
    x: float
nan = float("nan")
v = V(nan)
print(v == v, V(nan) == V(nan), V(1) == V(1.0), V([1]) == V([1]))
# ---- doc_signatures
from dataclasses import dataclass, field, InitVar, KW_ONLY
class In:
    pass
@dataclass
class C:
    x: 'int'
    y: In = None
    z: list[int] = field(default_factory=list)
    w: InitVar[int] = 3
    _: KW_ONLY
    k: float = 1.5
print(C.__doc__)
@dataclass(init=False)
class D:
    x: int
print(D.__doc__)
@dataclass(init=False)
class E:
    x: int
    def __init__(self, a, b: int = 3, *c, d, e=5, **f):
        pass
print(E.__doc__)
@dataclass
class F:
    """Has a doc."""
    x: int
print(F.__doc__)
# ---- records_report
from dataclasses import dataclass, asdict
@dataclass(order=True)
class Hit:
    service: str
    level: str
    count: int = 0
hits = [Hit("api", "ERROR", 3), Hit("db", "WARN", 1), Hit("api", "WARN", 2)]
print(sorted(hits)[0], [asdict(h) for h in hits])
by = {}
for h in hits:
    by.setdefault(h.service, []).append(h.count)
print(by)
# ---- argument_errors
import dataclasses as d
for f in [lambda: d.field(1), lambda: d.dataclass(1, 2), lambda: d.fields(), lambda: d.asdict(), lambda: d.replace(),
          lambda: d.make_dataclass("x"), lambda: d.is_dataclass(), lambda: d.asdict(1, 2), lambda: d.fields(x=1),
          lambda: d.dataclass(cls=int), lambda: d.field(defualt=1), lambda: d.InitVar(), lambda: d.Field(1, 2)]:
    try:
        f()
    except TypeError as e:
        print(e)
