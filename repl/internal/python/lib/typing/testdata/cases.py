# Cases for the typing module; gen.py records CPython's output.
# ---- annotations
from typing import List, Dict, Optional, Tuple, Union, Any, Set, FrozenSet, Callable, Iterable, Iterator, Sequence, Mapping, Generator, Type
def summarize(xs: List[int], labels: Optional[Dict[str, int]] = None) -> Tuple[int, float]:
    return len(xs), sum(xs) / len(xs)
print(summarize([1, 2, 3]), summarize([4], {"a": 1}))
print(summarize.__annotations__)
x: Union[int, str] = "text"
y: Any = 5
print(x, y, __annotations__)
# ---- reprs
import typing
from typing import *
print(List, Dict, Tuple, Set, FrozenSet, Type, Callable, Iterable, Iterator, Sequence, Mapping, Generator, Any, Optional, Union)
print(List[int], Dict[str, List[int]], Tuple[int, ...], Tuple[()], Tuple[int, str], Set[bytes], FrozenSet[int], Type[int])
print(Optional[int], Union[int, str], Union[int, None], Union[None, int], Union[int, str, None], Optional[Union[int, str]], Union[int], Union[int, int])
print(Callable[[int, str], bool], Callable[..., int], Callable[[], None], Iterable[str], Iterator[int], Sequence[float], Mapping[str, Any], Generator[int, None, None])
print(List[None], List["Foo"], Dict[str, list[int]], Optional[list[int]], List[int | None])
print(typing.DefaultDict[str, int], typing.Counter[str], typing.Deque[int], typing.OrderedDict[str, int], typing.MutableMapping[str, int], typing.AbstractSet[int], typing.Collection[int], typing.Container[int], typing.Hashable, typing.Sized, typing.Reversible[int], typing.MutableSequence[int], typing.MutableSet[int], typing.KeysView[str], typing.ItemsView[str, int], typing.ValuesView[int], typing.ChainMap[str, int], typing.Awaitable[int], typing.Coroutine[int, int, int], typing.AsyncIterator[int], typing.AsyncIterable[int], typing.AsyncGenerator[int, None], typing.ContextManager[int], typing.Pattern[str], typing.Match[str], typing.Text, typing.AnyStr)
# ---- special_forms
import typing
from typing import Literal, Final, ClassVar, Annotated, NoReturn, Self, Never, LiteralString, TypeAlias, TypeGuard, Concatenate, Required, NotRequired
print(Literal["r", "w"], Literal[1, True, None, b"x"], Literal["a", "a"], Final, Final[int], ClassVar[int], Annotated[int, "meta", 3], NoReturn, Self, Never, LiteralString, TypeAlias, TypeGuard[int], Required[int], NotRequired[str])
print(Literal["r"] == Literal["r"], Literal["r", "w"] == Literal["w", "r"], Annotated[int, "m"].__metadata__, Annotated[int, "m"].__origin__, ClassVar[int].__args__)
# ---- equality_and_args
import typing
from typing import List, Dict, Optional, Union, Tuple, Callable, get_origin, get_args
print(List[int] == List[int], List[int] == List[str], List[int] == list[int], Optional[int] == Union[int, None], Union[int, str] == Union[str, int], Union[int, str] == (int | str))
print(hash(List[int]) == hash(List[int]), {List[int]: 1}[List[int]], Dict[str, int].__origin__, Dict[str, int].__args__, List.__origin__, Tuple[int, ...].__args__)
print(get_origin(List[int]), get_origin(Optional[int]), get_origin(int), get_origin(list[int]), get_origin(Callable[[int], str]), get_origin(typing.Literal[1]), get_origin(int | str))
print(get_args(Dict[str, int]), get_args(Optional[int]), get_args(Callable[[int, str], bool]), get_args(int), get_args(list[int]), get_args(int | str), get_args(Callable[..., int]), get_args(Tuple[()]))
print(Union[int, str].__args__, Optional[int].__args__, Union[int, Union[str, bytes]].__args__, Union[int, str, int].__args__, Union[list[int], int].__args__)
# ---- union_operators
import typing
from typing import List, Optional, TypeVar
T = TypeVar("T")
print(List[int] | None, None | List[int], T | None, int | T, Optional[int] | str, List[int] | int | None)
# ---- instance_checks
import typing
from typing import List, Dict, Iterable, Sequence, Mapping, Callable, Any, Optional, Union, Hashable, Sized
print(isinstance([], List), isinstance({}, Dict), isinstance((), List), isinstance([], Iterable), isinstance(5, Iterable), isinstance("s", Sequence), isinstance({}, Mapping), isinstance(len, Callable), isinstance(1, Hashable), isinstance([], Hashable), isinstance([], Sized))
for call in [lambda: isinstance([], List[int]), lambda: isinstance(1, Any), lambda: isinstance(1, Optional[int]), lambda: isinstance(1, Union[int, str]), lambda: isinstance(1, Union)]:
    try:
        print(call())
    except TypeError as e:
        print("TypeError", e)
# ---- instantiation
import typing
from typing import List, Dict, Any, Union, DefaultDict, Counter, Deque
for call in [lambda: List(), lambda: Dict(), lambda: List[int](), lambda: Any(), lambda: Union(), lambda: typing.Optional()]:
    try:
        print(call())
    except TypeError as e:
        print("TypeError", e)
# ---- subscript_errors
import typing
from typing import List, Dict, Tuple, Optional, Union, Callable, Literal, Generic, TypeVar
T = TypeVar("T")
for call in [lambda: List[int, str], lambda: Dict[int], lambda: Optional[int, str], lambda: Union[()], lambda: Callable[int, str], lambda: Generic[int], lambda: List[int][str], lambda: Literal[[1]], lambda: Union[1]]:
    try:
        print(call())
    except TypeError as e:
        print("TypeError", e)
print(List[T][int], Dict[str, T][int], Tuple[T, T][str])
# ---- typevar
from typing import TypeVar, Iterable, Callable, List
T = TypeVar("T")
K = TypeVar("K", bound=str)
N = TypeVar("N", int, float)
Co = TypeVar("Co", covariant=True)
Contra = TypeVar("Contra", contravariant=True)
print(T, K, N, Co, Contra, T.__name__, K.__bound__, N.__constraints__, T.__bound__, T.__constraints__, Co.__covariant__, Contra.__contravariant__, T.__covariant__)
print(List[T], Callable[[T], T], List[T].__parameters__, Iterable[T].__parameters__, T == T, T == TypeVar("T"), type(T).__name__)
def first(xs: Iterable[T], pred: Callable[[T], bool]) -> T | None:
    for x in xs:
        if pred(x):
            return x
    return None
print(first([1, 4, 9], lambda v: v > 3), first("abc", str.isupper), T)
for call in [lambda: TypeVar("X", int), lambda: TypeVar("X", bound=int, covariant=True, contravariant=True), lambda: TypeVar(), lambda: TypeVar(5)]:
    try:
        print(call())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- generic_class
from typing import Generic, TypeVar, Protocol
T = TypeVar("T")
class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: list[T] = []
    def push(self, x: T) -> None:
        self.items.append(x)
    def pop(self) -> T:
        return self.items.pop()
s: Stack[int] = Stack()
s.push(1); s.push(2)
print(s.pop(), s.items, Stack[int] is not None, Stack[int], Stack.__mro__, isinstance(s, Stack))
t = Stack[str]()
t.push("x")
print(t.items, type(t).__name__, Stack[int] == Stack[int])
K = TypeVar("K")
V = TypeVar("V")
class Pair(Generic[K, V]):
    def __init__(self, k: K, v: V):
        self.k, self.v = k, v
print(Pair("a", 1).v, Pair[str, int]("b", 2).k, Pair[str, int])
for call in [lambda: Generic(), lambda: Stack(1)]:
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
# ---- protocol
from typing import Protocol, runtime_checkable
class Sized(Protocol):
    def __len__(self) -> int: ...
@runtime_checkable
class Closer(Protocol):
    def close(self) -> None: ...
class F:
    def close(self):
        return "closed"
class Impl(Sized):
    def __len__(self):
        return 3
print(isinstance(F(), Closer), isinstance(1, Closer), len(Impl()), isinstance(Impl(), Impl))
for call in [lambda: Sized(), lambda: isinstance(1, Sized), lambda: isinstance(Impl(), Sized), lambda: runtime_checkable(F)]:
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
# ---- namedtuple
from typing import NamedTuple
class Point(NamedTuple):
    x: int
    y: int = 0
    def norm(self):
        return abs(self.x) + abs(self.y)
p = Point(3)
q = Point(x=1, y=2)
print(p, q, p._fields, p.x + p.y, q.norm(), p == (3, 0), p[0], len(p), tuple(q), Point._field_defaults, Point.__annotations__)
print(q._asdict(), q._replace(y=5), Point._make([7, 8]), isinstance(p, tuple), type(p).__name__, hash(p) == hash((3, 0)))
a, b = q
print(a, b, sorted([Point(2, 1), Point(1, 2)]))
import copy
print(copy.deepcopy(q), copy.copy(q) == q, type(copy.deepcopy(q)).__name__, Point.__new__(Point, 5, 6))
Emp = NamedTuple("Emp", [("name", str), ("id", int)])
print(Emp("ann", 3), Emp._fields, Emp.__annotations__)
for call in [lambda: Point(), lambda: Point(1, 2, 3), lambda: Point(1, z=2), lambda: Point(1, x=2), lambda: setattr(p, "x", 5), lambda: q._replace(z=1)]:
    try:
        print(call())
    except (TypeError, AttributeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- namedtuple_field_order_error
from typing import NamedTuple
class Bad(NamedTuple):
    x: int = 0
    y: int
# ---- typeddict
from typing import TypedDict, NamedTuple
class Movie(TypedDict):
    title: str
    year: int
Partial = TypedDict("Partial", {"note": str}, total=False)
m: Movie = {"title": "Up", "year": 2009}
n = Movie(title="Cars", year=2006)
print(m, n, type(m).__name__, type(n).__name__, n == {"title": "Cars", "year": 2006}, Movie.__annotations__, Partial(), Partial.__total__, Movie.__total__)
print(sorted(Movie.__required_keys__), sorted(Partial.__optional_keys__), Movie.__name__)
Alt = TypedDict("Alt", {"a": int, "b": str})
print(Alt(a=1, b="x"), Alt.__annotations__)
try:
    isinstance({}, Movie)
except TypeError as e:
    print("TypeError", e)
# ---- cast_and_literal
from typing import cast, Literal, Final, TYPE_CHECKING, NoReturn
Mode = Literal["r", "w"]
def open_mode(m: Mode) -> str:
    return m.upper()
LIMIT: Final = 10
print(open_mode("r"), cast(int, "not really an int"), cast("List[int]", [1]), LIMIT, TYPE_CHECKING)
if TYPE_CHECKING:
    import nothing_here
def fail() -> NoReturn:
    raise ValueError("x")
print(fail.__annotations__)
# ---- overload_and_decorators
from typing import overload, final, no_type_check, override, runtime_checkable
@overload
def f(x: int) -> int: ...
@overload
def f(x: str) -> str: ...
def f(x):
    return x * 2
print(f(2), f("a"))
@overload
def g(x: int) -> int: ...
try:
    g(1)
except NotImplementedError as e:
    print("NotImplementedError", e)
@final
class Leaf:
    pass
@final
def fin():
    return 1
print(Leaf.__final__, fin(), fin.__final__)
@override
def m():
    return 2
print(m(), m.__override__)
# ---- newtype
from typing import NewType
UserId = NewType("UserId", int)
u = UserId(5)
print(u, type(u).__name__, UserId, UserId.__name__, UserId.__supertype__, u + 1)
# ---- get_type_hints
from typing import get_type_hints, Optional, List
class C:
    a: int
    b: "int" = None
class D(C):
    c: Optional[str]
def fn(x: int, y: "List[int]" = None) -> None:
    pass
print(get_type_hints(C), get_type_hints(D), get_type_hints(fn))
# ---- module_attributes
import typing
print(typing.TYPE_CHECKING, typing.Text is str, typing.AnyStr, typing.__name__, callable(typing.cast))
print(sorted(n for n in ["Any", "Optional", "List", "cast", "overload", "get_type_hints", "NamedTuple", "TypedDict", "Protocol", "Generic", "TypeVar"] if hasattr(typing, n)))
# ---- builtin_generics_and_pipe_unions
def f(a: list[int], b: dict[str, list[str]] | None = None) -> int | None:
    return sum(a) if a else None
print(f([1, 2]), f([]), f.__annotations__["a"], f.__annotations__["return"])
