# The enum module.
# ---- enum_members_and_lookup
from enum import Enum
class Level(Enum):
    DEBUG = 10
    INFO = 20
    WARN = 30
    ERROR = 40
print(Level.INFO, repr(Level.INFO), Level(30), Level["ERROR"], Level.ERROR.value, Level.ERROR.name)
print([l.name for l in Level], len(Level), Level.DEBUG in Level, list(Level)[-1])
# ---- enum_invalid_value
from enum import Enum
class Color(Enum):
    RED = 1
Color(5)
# ---- enum_invalid_name
from enum import Enum
class Color(Enum):
    RED = 1
Color["BLUE"]
# ---- enum_comparisons
from enum import Enum
class C(Enum):
    A = 1
    B = 2
print(C.A == C.A, C.A is C(1), C.A == 1, C.A != C.B, C.A.value < C.B.value)
try:
    C.A < C.B
except TypeError as e:
    print("TypeError:", e)
# ---- enum_aliases_and_unique
from enum import Enum, unique
class Status(Enum):
    OK = 200
    SUCCESS = 200
    NOT_FOUND = 404
print(Status.SUCCESS, Status.SUCCESS is Status.OK, list(Status), Status.__members__.keys())
try:
    @unique
    class U(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError:", e)
# ---- intenum_strenum
from enum import IntEnum, StrEnum
class Prio(IntEnum):
    LOW = 1
    HIGH = 3
class Mode(StrEnum):
    READ = "r"
    WRITE = "w"
print(Prio.HIGH > Prio.LOW, Prio.HIGH + 1, sorted([Prio.HIGH, Prio.LOW]), Prio(1), int(Prio.HIGH), f"{Prio.LOW}")
print(Mode.READ, Mode.READ == "r", Mode("w"), Mode.WRITE.upper(), f"{Mode.READ}", repr(Mode.READ))
# ---- auto_values
from enum import Enum, auto
class Shape(Enum):
    CIRCLE = auto()
    SQUARE = auto()
    TRIANGLE = auto()
print([(s.name, s.value) for s in Shape])
# ---- flag_enum
from enum import Flag, auto
class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
rw = Perm.R | Perm.W
print(rw, Perm.R in rw, Perm.X in rw, rw & Perm.W, Perm(7), bool(Perm.R & Perm.X), list(rw))
# ---- enum_methods_and_properties
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
print(Planet.EARTH.mass, round(Planet.EARTH.gravity, 4), Planet.MERCURY.value)
# ---- enum_in_dict_and_sorting
from enum import Enum
class Sev(Enum):
    LOW = 1
    MID = 2
    HIGH = 3
counts = {Sev.HIGH: 2, Sev.LOW: 5, Sev.MID: 1}
for s in sorted(counts, key=lambda s: s.value):
    print(s.name, counts[s])
print(max(counts, key=counts.get), {s.name: s.value for s in Sev})
# ---- enum_str_format
from enum import Enum
class Dir(Enum):
    N = "north"
    S = "south"
print(str(Dir.N), f"{Dir.N}", "{}".format(Dir.S), f"{Dir.N.value:>8}", Dir.N.__class__.__name__)
