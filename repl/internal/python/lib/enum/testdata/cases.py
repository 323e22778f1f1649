# Cases for the enum module; gen.py records CPython's outcome.
# ---- basics
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
print(Color.RED, repr(Color.GREEN), Color.BLUE.name, Color.BLUE.value, Color(2), Color["RED"])
print(list(Color), len(Color), Color.RED is Color(1), Color.RED == 1, Color.RED != Color.BLUE)
print(type(Color), Color, repr(Color), type(Color.RED), isinstance(Color.RED, Color), isinstance(Color.RED, Enum))
print(Color.RED in Color, 1 in Color, 4 in Color, "RED" in Color, Color(Color.RED))
print([c.name for c in reversed(Color)], bool(Color), repr(Color.__members__))
print(Color.__members__.keys(), list(Color.__members__.items())[0], len(Color.__members__))
print(Color._member_names_, Color._value2member_map_, Color.__name__, Color.__qualname__, Color.__module__)
print(f"{Color.RED}", "{}".format(Color.GREEN), f"{Color.RED!r}", f"{Color.RED:>12}|", str(Color.BLUE), "%s" % Color.RED)
# ---- hash_and_sets
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
print(hash(Color.RED) == hash("RED"), {Color.RED: "r"}[Color.RED])
print({Color.RED, Color.GREEN, Color.BLUE, Color.RED})
print(sorted(Color, key=lambda c: c.value, reverse=True))
# ---- invalid_value
from enum import Enum
class Color(Enum):
    RED = 1
Color(5)
# ---- invalid_value_str
from enum import Enum
class Color(Enum):
    RED = 1
Color("red")
# ---- invalid_name
from enum import Enum
class Color(Enum):
    RED = 1
Color["BLUE"]
# ---- ordering_not_supported
from enum import Enum
class C(Enum):
    A = 1
    B = 2
C.A < C.B
# ---- aliases_and_unique
from enum import Enum, unique
class Status(Enum):
    OK = 200
    SUCCESS = 200
    NOT_FOUND = 404
print(Status.SUCCESS, Status.SUCCESS is Status.OK, list(Status), Status.__members__.keys(), Status(200).name)
print(Status.SUCCESS.name, len(Status), Status["SUCCESS"])
try:
    @unique
    class U(Enum):
        A = 1
        B = 1
        C = 2
        D = 2
except ValueError as e:
    print("ValueError:", e)
@unique
class V(Enum):
    A = 1
print(V.A)
# ---- intenum
from enum import IntEnum
class Prio(IntEnum):
    LOW = 1
    MID = 2
    HIGH = 3
print(Prio.HIGH > Prio.LOW, Prio.HIGH + 1, sorted([Prio.HIGH, Prio.LOW]), Prio(1), int(Prio.HIGH), f"{Prio.LOW}")
print(str(Prio.MID), repr(Prio.MID), Prio.MID == 2, 2 == Prio.MID, hash(Prio.MID) == hash(2), isinstance(Prio.LOW, int))
print(f"{Prio.HIGH:03d}", format(Prio.LOW, "x"), Prio.LOW * 10, [1, 2, 3, 4][Prio.MID], Prio(3) is Prio.HIGH)
print(max(Prio), min(Prio), sum(Prio), Prio.LOW.value, type(Prio.LOW.value))
print(Prio.HIGH.bit_length(), Prio.MID.real, -Prio.LOW, Prio.HIGH // 2, 2 in Prio)
# ---- strenum
from enum import StrEnum, auto
class Mode(StrEnum):
    READ = "r"
    WRITE = "w"
    APPEND = auto()
print(Mode.READ, Mode.READ == "r", Mode("w"), Mode.WRITE.upper(), f"{Mode.READ}", repr(Mode.READ))
print(Mode.APPEND, Mode.APPEND.value, Mode.READ + "b", "r" in Mode, isinstance(Mode.READ, str), len(Mode.READ))
print(sorted(Mode), Mode.READ < Mode.WRITE, "-".join(Mode), f"{Mode.WRITE:>3}|")
# ---- strenum_bad_value
from enum import StrEnum
class Bad(StrEnum):
    X = 1
# ---- auto_values
from enum import Enum, auto
class Shape(Enum):
    CIRCLE = auto()
    SQUARE = auto()
    TRIANGLE = auto()
print([(s.name, s.value) for s in Shape])
class Mixed(Enum):
    A = 10
    B = auto()
    C = 5
    D = auto()
print([(s.name, s.value) for s in Mixed])
class Tup(Enum):
    X = (auto(), "x")
    Y = (auto(), "y")
print([s.value for s in Tup], repr(auto()))
# ---- generate_next_value
from enum import Enum, auto
class Name(Enum):
    def _generate_next_value_(name, start, count, last_values):
        return f"{name.lower()}-{start}-{count}-{len(last_values)}"
    A = auto()
    B = auto()
print([n.value for n in Name])
# ---- generate_next_value_too_late
from enum import Enum, auto
class Name(Enum):
    A = auto()
    def _generate_next_value_(name, start, count, last_values):
        return name
# ---- flag
from enum import Flag, auto
class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
rw = Perm.R | Perm.W
print(rw, Perm.R in rw, Perm.X in rw, rw & Perm.W, Perm(7), bool(Perm.R & Perm.X), list(rw))
print(repr(rw), repr(Perm(0)), str(Perm(0)), ~Perm.R, ~rw, Perm.R ^ Perm.W, len(rw), len(Perm), list(Perm))
print(Perm.R | Perm.R is Perm.R, (Perm.R | Perm.W) is (Perm.W | Perm.R), rw.name, rw.value, Perm(0).name, type(Perm))
print(Perm, Perm._flag_mask_, Perm._all_bits_, Perm._boundary_)
# ---- flag_bad_value
from enum import Flag
class Perm(Flag):
    R = 1
    W = 2
Perm(8)
# ---- flag_in_wrong_type
from enum import Flag
class Perm(Flag):
    R = 1
    W = 2
1 in Perm.R
# ---- flag_aliases
from enum import Flag
class Perm(Flag):
    R = 4
    W = 2
    X = 1
    RWX = 7
    NONE = 0
print(list(Perm), Perm.RWX, repr(Perm(6)), Perm.NONE, Perm(0), list(Perm.RWX), Perm.__members__.keys())
print(Perm.R | Perm.W | Perm.X, (Perm.R | Perm.W | Perm.X) is Perm.RWX, ~Perm.RWX, Perm._iter_member_ is not None)
# ---- flag_boundaries
from enum import Flag, CONFORM, EJECT, KEEP, STRICT, FlagBoundary
class C(Flag, boundary=CONFORM):
    A = 1
    B = 2
class E(Flag, boundary=EJECT):
    A = 1
    B = 2
class K(Flag, boundary=KEEP):
    A = 1
    B = 2
print(C(7), E(7), type(E(7)).__name__, K(7), repr(K(7)), K(7).value, ~K.A)
print(list(FlagBoundary), STRICT, repr(KEEP), C._boundary_, K._boundary_)
# ---- intflag
from enum import IntFlag, auto
class Perm(IntFlag):
    R = 4
    W = 2
    X = 1
print(Perm.R | Perm.W, repr(Perm.R | Perm.W), Perm.R | 8, repr(Perm.R | 8), Perm.R + 1, Perm(7), int(Perm(7)))
print(Perm.R == 4, ~Perm.R, repr(~Perm.R), 6 & Perm.R, repr(6 & Perm.R), Perm(0), repr(Perm(0)), Perm.X in Perm(3))
print(f"{Perm.R}", format(Perm.W, "04b"), str(Perm.R | Perm.X), isinstance(Perm.R, int), Perm._boundary_)
# ---- methods_and_properties
from enum import Enum
class Planet(Enum):
    MERCURY = (3.303e23, 2.4397e6)
    EARTH = (5.976e24, 6.37814e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
    @property
    def gravity(self):
        return 6.673e-11 * self.mass / (self.radius ** 2)
    def describe(self):
        return f"{self.name.title()} ({self.mass:.2e} kg)"
    @classmethod
    def heaviest(cls):
        return max(cls, key=lambda p: p.mass)
    @staticmethod
    def unit():
        return "kg"
print(Planet.EARTH.mass, round(Planet.EARTH.gravity, 4), Planet.MERCURY.value, Planet.EARTH.describe())
print(Planet.heaviest(), Planet.unit(), list(Planet), Planet((5.976e24, 6.37814e6)))
# ---- missing_hook
from enum import Enum
class Level(Enum):
    LOW = "low"
    HIGH = "high"
    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            for m in cls:
                if m.value == value.lower():
                    return m
        return None
print(Level("HIGH"), Level("Low"))
Level("mid")
# ---- missing_hook_bad_return
from enum import Enum
class Level(Enum):
    LOW = 1
    @classmethod
    def _missing_(cls, value):
        return 5
Level(2)
# ---- missing_hook_raises
from enum import Enum
class Level(Enum):
    LOW = 1
    @classmethod
    def _missing_(cls, value):
        raise KeyError("nope")
Level(2)
# ---- functional_api
from enum import Enum, IntEnum
Animal = Enum("Animal", "ANT BEE CAT")
print(list(Animal), Animal.BEE.value, Animal.__module__, type(Animal))
Pets = Enum("Pets", ["DOG", "FISH"], start=10)
print(list(Pets))
Codes = IntEnum("Codes", [("OK", 200), ("NF", 404)])
print(list(Codes), Codes.OK + 1)
Cfg = Enum("Cfg", {"A": "a", "B": "b"})
print(list(Cfg), Enum("Empty", ()), len(Enum("Empty", ())))
Sizes = Enum("Sizes", "S, M,L", qualname="Sz")
print(list(Sizes), Sizes.__qualname__)
# ---- functional_api_duplicate
from enum import Enum
Enum("Dup", [("A", 1), ("A", 2)])
# ---- no_members_call
from enum import Enum
class Base(Enum):
    pass
Base(1)
# ---- extend_enum_with_members
from enum import Enum
class Base(Enum):
    A = 1
class Sub(Base):
    B = 2
# ---- extend_memberless_base
from enum import Enum
class Base(Enum):
    def describe(self):
        return f"{type(self).__name__}:{self.name}"
class Sub(Base):
    A = 1
    B = 2
print(Sub.A.describe(), list(Sub), isinstance(Sub.A, Base))
# ---- mixin_str_enum
from enum import Enum
class Color(str, Enum):
    RED = "r"
    GREEN = "g"
print(Color.RED, repr(Color.RED), f"{Color.RED}", Color.RED == "r", Color.RED.upper(), Color("g"), isinstance(Color.RED, str))
# ---- mixin_int_enum
from enum import Enum
class Num(int, Enum):
    ONE = 1
    TWO = 2
print(Num.ONE, repr(Num.TWO), f"{Num.ONE}", Num.TWO + 1, Num(2), Num.ONE < Num.TWO)
# ---- custom_str_and_repr
from enum import Enum
class Color(Enum):
    RED = 1
    def __str__(self):
        return self.name.lower()
    def __repr__(self):
        return f"Color({self.value})"
print(Color.RED, repr(Color.RED), f"{Color.RED}", [Color.RED])
# ---- custom_new
from enum import Enum
class Coord(Enum):
    X = (1, "horizontal")
    Y = (2, "vertical")
    def __new__(cls, value, label):
        obj = object.__new__(cls)
        obj._value_ = value
        obj.label = label
        return obj
print(Coord.X, Coord(2), Coord.Y.label, Coord.X.value, list(Coord))
# ---- sunder_reserved
from enum import Enum
class Bad(Enum):
    _foo_ = 1
# ---- ignore
from enum import Enum
class Colors(Enum):
    _ignore_ = ["tmp"]
    RED = 1
    tmp = 5
print(list(Colors), hasattr(Colors, "tmp"))
# ---- nonmember_and_member
from enum import Enum, member, nonmember
class E(Enum):
    A = 1
    LIMIT = nonmember(10)
    @member
    def helper():
        return "hi"
print(list(E)[0], len(E), E.LIMIT, E.helper.value(), repr(member(1).value))
# ---- order_check
from enum import Enum
class E(Enum):
    _order_ = "A B"
    B = 2
    A = 1
# ---- order_ok
from enum import Enum
class E(Enum):
    _order_ = "A B"
    A = 1
    B = 2
print(list(E))
# ---- members_compare_identity
from enum import Enum
class A(Enum):
    X = 1
class B(Enum):
    X = 1
print(A.X == B.X, A.X == A.X, A.X.value == B.X.value, A(1) is A.X)
# ---- dict_keys_and_sorting
from enum import Enum
class Sev(Enum):
    LOW = 1
    MID = 2
    HIGH = 3
counts = {Sev.HIGH: 2, Sev.LOW: 5, Sev.MID: 1}
for s in sorted(counts, key=lambda s: s.value):
    print(s.name, counts[s])
print(max(counts, key=counts.get), {s.name: s.value for s in Sev}, Sev.HIGH in counts)
# ---- unhashable_values
from enum import Enum
class L(Enum):
    A = [1, 2]
    B = [3]
print(L([1, 2]), L.B.value, L._unhashable_values_)
L([9])
# ---- match_statement
from enum import Enum
class Cmd(Enum):
    GO = "go"
    STOP = "stop"
def run(c):
    match c:
        case Cmd.GO:
            return "going"
        case Cmd.STOP:
            return "stopping"
print(run(Cmd.GO), run(Cmd("stop")))
# ---- member_attributes
from enum import Enum
class C(Enum):
    A = 1
print(C.A._value_, C.A._name_, C.A.__objclass__, C.A._sort_order_, sorted(vars(C.A)))
print(C.A.__class__.__name__, type(C.A).__mro__)
# ---- verify
from enum import Enum, Flag, verify, UNIQUE, CONTINUOUS, NAMED_FLAGS, EnumCheck
print(list(EnumCheck), UNIQUE)
@verify(UNIQUE, CONTINUOUS)
class Ok(Enum):
    A = 1
    B = 2
    C = 3
print(list(Ok))
for checks, body in [((UNIQUE,), {"A": 1, "B": 1}), ((CONTINUOUS,), {"A": 1, "B": 4})]:
    try:
        verify(*checks)(Enum("X", body))
    except ValueError as e:
        print(e)
try:
    @verify(CONTINUOUS)
    class F(Flag):
        A = 1
        B = 8
except ValueError as e:
    print(e)
try:
    @verify(NAMED_FLAGS)
    class G(Flag):
        A = 1
        B = 2
        AC = 5
except ValueError as e:
    print(e)
# ---- show_flag_values_and_bin
import enum
print(enum.show_flag_values(13), enum.bin(10), enum.bin(~10), enum.bin(5, 8), enum.bin(0))
# ---- enum_module_names
import enum
print(enum.EnumMeta is enum.EnumType, enum.auto, enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag, enum.StrEnum, enum.ReprEnum)
print(issubclass(enum.IntEnum, int), issubclass(enum.IntFlag, enum.Flag), enum.IntEnum.__mro__)
# ---- enum_as_dict_key_in_counts
from enum import Enum
class Level(Enum):
    INFO = "INFO"
    WARN = "WARN"
    ERROR = "ERROR"
lines = ["INFO a", "ERROR b", "WARN c", "ERROR d", "INFO e", "ERROR f"]
c = {}
for l in lines:
    lv = Level(l.split()[0])
    c[lv] = c.get(lv, 0) + 1
print(max(c, key=c.get), sorted((k.name, v) for k, v in c.items()))
# ---- reassign_member
from enum import Enum
class C(Enum):
    A = 1
C.A = 2
# ---- enum_dir
from enum import Enum
class C(Enum):
    A = 1
    def helper(self):
        return 1
print(dir(C.A))
# ---- pseudo_member_str_when_unnamed
from enum import IntFlag
class P(IntFlag):
    A = 1
print(P(8), repr(P(8)), P(9), repr(P(9)))
# ---- members_proxy_str
from enum import Enum
class Color(Enum):
    RED = 1
print(Color.__members__)
# ---- intenum_dict_key
from enum import IntEnum
class Prio(IntEnum):
    LOW = 1
print({Prio.LOW: "x"}[1], {1: "y"}[Prio.LOW])
# ---- argument_errors
import enum
for f in [lambda: enum.unique(), lambda: enum.auto(1, 2), lambda: enum.show_flag_values(), lambda: enum.member(), lambda: enum.bin(1, 2, 3)]:
    try:
        f()
    except TypeError as e:
        print(e)
