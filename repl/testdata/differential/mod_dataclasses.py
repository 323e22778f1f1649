# The dataclasses module.
# ---- dataclass_defaults_repr_eq
from dataclasses import dataclass, field
@dataclass
class Task:
    title: str
    priority: int = 3
    done: bool = False
    tags: list[str] = field(default_factory=list)
t = Task("write tests")
print(t, t == Task("write tests"), t == Task("write tests", 1))
t.tags.append("qa")
print(t.tags, Task("x").tags)
# ---- dataclass_order_sort
from dataclasses import dataclass
@dataclass(order=True)
class Emp:
    dept: str
    salary: int
    name: str = ""
staff = [Emp("ops", 90, "bob"), Emp("eng", 120, "ann"), Emp("eng", 110, "cy")]
print(sorted(staff))
print(max(staff), Emp("a", 1) < Emp("a", 2))
# ---- dataclass_frozen_hash
from dataclasses import dataclass, FrozenInstanceError
@dataclass(frozen=True)
class Coord:
    lat: float
    lon: float
c = Coord(52.5, 13.4)
print(c, hash(c) == hash(Coord(52.5, 13.4)), {c: "berlin"}[Coord(52.5, 13.4)])
try:
    c.lat = 0
except FrozenInstanceError as e:
    print("FrozenInstanceError:", e)
# ---- asdict_astuple_replace_fields
from dataclasses import dataclass, asdict, astuple, replace, fields
@dataclass
class Inner:
    v: int
@dataclass
class Outer:
    name: str
    inner: Inner
    items: list
o = Outer("o", Inner(1), [Inner(2)])
print(asdict(o), astuple(o))
print(replace(o, name="p"), [f.name for f in fields(o)], [f.type for f in fields(Inner)])
# ---- post_init_and_field_options
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
print(r, r.area, Rect(2, 3.5, "y") == r)
# ---- mutable_default_error
from dataclasses import dataclass
@dataclass
class Bad:
    items: list = []
# ---- missing_argument_error
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int
P(1)
# ---- dataclass_inheritance
from dataclasses import dataclass
@dataclass
class Base:
    id: int
    kind: str = "base"
@dataclass
class Child(Base):
    extra: str = "e"
c = Child(7, extra="z")
print(c, isinstance(c, Base), Child(1, "k", "x"))
# ---- kw_only_and_slots
from dataclasses import dataclass, KW_ONLY
@dataclass(kw_only=True)
class Opts:
    verbose: bool = False
    level: int = 1
@dataclass(slots=True)
class S:
    a: int
    _: KW_ONLY
    b: int = 2
print(Opts(level=3), S(1, b=5), hasattr(S(1), "__dict__"))
try:
    Opts(True)
except TypeError as e:
    print("TypeError:", e)
# ---- dataclass_records_report
from dataclasses import dataclass
@dataclass
class Hit:
    service: str
    level: str
    msg: str
hits = []
for line in context.splitlines()[1:60]:
    parts = line.split(None, 4)
    if len(parts) == 5 and parts[3].startswith("["):
        hits.append(Hit(parts[3].strip("[]"), parts[2], parts[4]))
errs = [h for h in hits if h.level == "ERROR"]
print(len(hits), len(errs), errs[0])
print(sorted({h.service for h in errs}))
