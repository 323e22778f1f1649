# The typing module used for annotations only.
# ---- annotations_ignored_at_runtime
from typing import List, Dict, Optional, Tuple, Union, Any
def summarize(xs: List[int], labels: Optional[Dict[str, int]] = None) -> Tuple[int, float]:
    return len(xs), sum(xs) / len(xs)
print(summarize([1, 2, 3]), summarize([4], {"a": 1}))
x: Union[int, str] = "text"
y: Any = 5
print(x, y)
# ---- builtin_generics_and_pipe_unions
def f(a: list[int], b: dict[str, list[str]] | None = None) -> int | None:
    return sum(a) if a else None
print(f([1, 2]), f([]), f.__annotations__["a"], f.__annotations__["return"])
# ---- typeddict_namedtuple
from typing import NamedTuple, TypedDict
class Point(NamedTuple):
    x: int
    y: int = 0
class Movie(TypedDict):
    title: str
    year: int
p = Point(3)
m: Movie = {"title": "Up", "year": 2009}
print(p, p._fields, p.x + p.y, m, type(m).__name__)
# ---- callable_and_typevar
from typing import Callable, TypeVar, Iterable
T = TypeVar("T")
def first(xs: Iterable[T], pred: Callable[[T], bool]) -> T | None:
    for x in xs:
        if pred(x):
            return x
    return None
print(first([1, 4, 9], lambda v: v > 3), first("abc", str.isupper), T)
# ---- variable_annotations_module
count: int = 0
names: list[str] = []
names.append("ann")
total: float
print(count, names, "total" in dir())
# ---- cast_and_literal
from typing import cast, Literal, Final
Mode = Literal["r", "w"]
def open_mode(m: Mode) -> str:
    return m.upper()
LIMIT: Final = 10
print(open_mode("r"), cast(int, "not really an int"), LIMIT)
# ---- protocol_and_generic_class
from typing import Generic, TypeVar, Protocol
T = TypeVar("T")
class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: list[T] = []
    def push(self, x: T) -> None:
        self.items.append(x)
    def pop(self) -> T:
        return self.items.pop()
class Sized(Protocol):
    def __len__(self) -> int: ...
s: Stack[int] = Stack()
s.push(1); s.push(2)
print(s.pop(), s.items, Stack[int] is not None)
# ---- type_alias_312
type Pair = tuple[int, int]
def swap(p: Pair) -> Pair:
    return p[1], p[0]
print(swap((1, 2)), Pair.__name__)
